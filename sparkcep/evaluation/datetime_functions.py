"""Spark's differences of dates and timestamps over values that combine rows of a match, as
Python evaluates them, for non-NULL operands:

* ``datediff(end, start)`` of two DATEs: the number of days from start to end, an INT.
* ``timestampdiff(unit, start, end)`` (and ``datediff(unit, start, end)``, its other name) of
  two TIMESTAMPs or two TIMESTAMP_NTZs: a BIGINT, computed as Spark's ``DateTimeUtils.timestampDiff``
  does with Java's ``ChronoUnit.between`` on the *local* date-times (a TIMESTAMP in the
  session's time zone, a TIMESTAMP_NTZ as it is). So an hour across a daylight-saving change
  counts by the wall clock: from 01:30 to 03:30 on the night the clocks go forward is 2 hours
  although one hour passed.

  - MICROSECOND, MILLISECOND, SECOND, MINUTE, HOUR, DAY and WEEK: the local difference in that
    unit, truncated toward zero (a day is 24 local hours, a week 7 days).
  - MONTH, QUARTER and YEAR: the whole months from the start's local date to the end's, the
    end's date first moved one day toward the start when its time of day has not yet reached
    the start's (``LocalDateTime.until``), then months / 3 or / 12, truncated toward zero.
"""

from __future__ import annotations

import datetime as dt
import math
from functools import lru_cache

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation.sql_types import low_bits

from sparkcep.plan.expressions import TIMESTAMPDIFF_UNITS

_MICROSECONDS = {"microsecond": 1, "millisecond": 1_000, "second": 1_000_000, "minute": 60_000_000,
                 "hour": 3_600_000_000, "day": 86_400_000_000, "week": 7 * 86_400_000_000}
_MONTHS = {"month": 1, "quarter": 3, "year": 12}
assert set(_MICROSECONDS) | set(_MONTHS) == set(TIMESTAMPDIFF_UNITS)


def datediff(end: dt.date, start: dt.date) -> int:
    return (end - start).days


def toward_zero(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` (a positive denominator) truncated toward zero, as Java's ``/``."""
    quotient = abs(numerator) // denominator
    return quotient if numerator >= 0 else -quotient


def micros(delta: dt.timedelta) -> int:
    """A ``timedelta`` as a whole number of microseconds."""
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def local_reader(zone: str | None):
    """A value's local date-time: a TIMESTAMP's in ``zone``, a TIMESTAMP_NTZ (``zone`` None)
    as it is."""
    if zone is None:
        return lambda value: value
    from zoneinfo import ZoneInfo

    tz = ZoneInfo(zone)
    return lambda value: value.astimezone(tz).replace(tzinfo=None)


@lru_cache(maxsize=None)
def timestampdiff(unit: str, zone: str | None):
    """``timestampdiff`` in ``unit`` (one of ``TIMESTAMPDIFF_UNITS``) of two TIMESTAMPs read in ``zone``, or of
    two TIMESTAMP_NTZs (``zone`` None)."""
    local = local_reader(zone)

    if unit in _MICROSECONDS:
        size = _MICROSECONDS[unit]

        def difference(start: dt.datetime, end: dt.datetime) -> int:
            return toward_zero(micros(local(end) - local(start)), size)

        return difference
    months_per_unit = _MONTHS[unit]

    def months(start: dt.datetime, end: dt.datetime) -> int:
        start, end = local(start), local(end)
        end_date = end.date()
        if end_date > start.date() and end.time() < start.time():
            end_date -= dt.timedelta(days=1)
        elif end_date < start.date() and end.time() > start.time():
            end_date += dt.timedelta(days=1)
        packed_start = (start.year * 12 + start.month - 1) * 32 + start.day
        packed_end = (end_date.year * 12 + end_date.month - 1) * 32 + end_date.day
        return toward_zero(toward_zero(packed_end - packed_start, 32), months_per_unit)

    return months


# ---------------------------------------------------------------------------------------------
# Date arithmetic (Spark's DateAdd, DateSub, AddMonths, MonthsBetween, MakeDate, LastDay,
# NextDay, UnixDate, DateFromUnixDate) of non-NULL operands. Spark's DATE is an INT of days since
# 1970-01-01 and holds dates Python's ``datetime.date`` does not (years 0 and before, 10000 and
# after); a result outside 0001-01-01 .. 9999-12-31 raises DATETIME_OUT_OF_PYTHON_RANGE here rather than
# give another value than Spark's.
# ---------------------------------------------------------------------------------------------

_EPOCH = dt.date(1970, 1, 1)
_EPOCH_ORDINAL = _EPOCH.toordinal()
_INT_MIN, _INT_MAX = -(1 << 31), (1 << 31) - 1


def _out_of_range(days: int) -> MatchRuntimeError:
    return MatchRuntimeError(
        "DATETIME_OUT_OF_PYTHON_RANGE",
        f"a date {days:+d} days from 1970-01-01 is outside 0001-01-01 .. 9999-12-31, the dates "
        "sparkcep evaluates between rows of a match (Spark's DATE holds it); compute it inside the "
        "navigation, where Spark evaluates it")


def from_epoch_days(days: int) -> dt.date:
    """The DATE ``days`` days after 1970-01-01, or DATETIME_OUT_OF_PYTHON_RANGE."""
    ordinal = days + _EPOCH_ORDINAL
    if not 1 <= ordinal <= _MAX_ORDINAL:
        raise _out_of_range(days)
    return dt.date.fromordinal(ordinal)


_MAX_ORDINAL = dt.date.max.toordinal()


def epoch_days_of(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to a date of the proleptic Gregorian calendar, for any year (as
    Java's ``LocalDate.toEpochDay``)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def date_of_epoch_days(days: int) -> tuple[int, int, int]:
    """(year, month, day) of the proleptic Gregorian date ``days`` after 1970-01-01, for any
    year (as Java's ``LocalDate.ofEpochDay``; the inverse of ``epoch_days_of``)."""
    days += 719468  # from 0000-03-01, so that a leap day ends a year
    era = days // 146097
    day_of_era = days - era * 146097
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    shifted_month = (5 * day_of_year + 2) // 153  # 0 for March
    day = day_of_year - (153 * shifted_month + 2) // 5 + 1
    month = shifted_month + 3 if shifted_month < 10 else shifted_month - 9
    return year_of_era + era * 400 + (month <= 2), month, day


def month_length(year: int, month: int) -> int:
    """The days of ``month`` in the proleptic Gregorian ``year`` (any year)."""
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def epoch_micros_of_local(year: int, month: int, day: int, hour: int, minute: int, second: int,
                          micros: int, tz: dt.tzinfo) -> int:
    """Microseconds from 1970-01-01 00:00 UTC of a local date-time of any year in ``tz`` (a fixed
    offset or a region), as Java's ``ZonedDateTime.of``: the offset in force at that local time,
    the one before a gap (which moves the time forward by the gap) and the earlier one of an
    overlap (Python's fold 0 reads both so). A year Python's datetime lacks is read 400 years (one
    Gregorian cycle, over which the calendar repeats) toward it: before year 1 every zone is at
    its first offset, after 9999 at its last yearly rules."""
    local = (epoch_days_of(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second) * 1_000_000 + micros
    if year < 1:
        year += 400 * -(-(1 - year) // 400)
    elif year > 9999:
        year -= 400 * -(-(year - 9999) // 400)
    offset = dt.datetime(year, month, day, hour, minute, second, micros, tzinfo=tz).utcoffset()
    return local - offset // dt.timedelta(microseconds=1)


def date_add(start: dt.date, days: int) -> dt.date:
    """``date_add(start, days)`` (and ``start + days``): Spark adds the INTs with Java's wrapping
    ``+``; a sum beyond INT wraps far outside Python's dates, so the exact sum decides."""
    return from_epoch_days(low_bits(start.toordinal() - _EPOCH_ORDINAL + days, "int"))


def date_sub(start: dt.date, days: int) -> dt.date:
    """``date_sub(start, days)`` (and ``start - days``)."""
    return from_epoch_days(low_bits(start.toordinal() - _EPOCH_ORDINAL - days, "int"))


def add_months(start: dt.date, months: int) -> dt.date:
    """``add_months(start, months)`` as Java's ``LocalDate.plusMonths``: the day of month kept,
    clamped to the new month's last day (2024-01-31 plus one month is 2024-02-29). A result
    whose day count exceeds INT is Spark's ARITHMETIC_OVERFLOW (ANSI on or off)."""
    count = start.year * 12 + start.month - 1 + months
    year, month = count // 12, count % 12 + 1
    day = min(start.day, month_length(year, month))
    days = epoch_days_of(year, month, day)
    if not _INT_MIN <= days <= _INT_MAX:
        raise MatchRuntimeError("ARITHMETIC_OVERFLOW", "overflow in add_months (the date's day count exceeds INT)")
    return from_epoch_days(days)


_SECONDS_PER_DAY = 86_400
_SECONDS_PER_MONTH = 31 * _SECONDS_PER_DAY


def _java_round(value: float) -> int:
    """Java's ``Math.round`` of a finite double: the nearest integer, halves toward +infinity."""
    floor = math.floor(value)
    return floor + 1 if value - floor >= 0.5 else floor


@lru_cache(maxsize=None)
def months_between(round_off: bool, zone: str):
    """``months_between(end, start[, roundOff])`` of two TIMESTAMPs read in ``zone`` (Spark's
    ``DateTimeUtils.monthsBetween``): the difference of the local dates' months, a whole number
    when both have the same day of month or both are their months' last days; otherwise plus
    (the difference of the days of month and of the seconds since the local midnights) / 31
    days, rounded to 8 decimal places (Java's ``Math.round(x * 1e8) / 1e8``) unless
    ``round_off`` is false. The seconds count real time since the start of the local day, so
    a time after a daylight-saving change counts the hour skipped or repeated."""
    from zoneinfo import ZoneInfo

    tz = ZoneInfo(zone)

    def split(value: dt.datetime):
        local = value.astimezone(tz)
        day = local.date()
        midnight = dt.datetime(day.year, day.month, day.day, tzinfo=tz)
        # real time: Python subtracts two datetimes of one tzinfo by their wall clocks, so the
        # change of UTC offset since midnight (a daylight-saving change) is taken off
        elapsed = (local.replace(tzinfo=None) - midnight.replace(tzinfo=None)) - \
            (local.utcoffset() - midnight.utcoffset())
        seconds = (elapsed.days * 86_400_000_000 + elapsed.seconds * 1_000_000 + elapsed.microseconds) // 1_000_000
        return day, seconds

    def between(end: dt.datetime, start: dt.datetime) -> float:
        (day1, seconds1), (day2, seconds2) = split(end), split(start)
        month_difference = float((day1.year * 12 + day1.month) - (day2.year * 12 + day2.month))
        last1 = day1.day == month_length(day1.year, day1.month)
        last2 = day2.day == month_length(day2.year, day2.month)
        if day1.day == day2.day or (last1 and last2):
            return month_difference
        seconds = (day1.day - day2.day) * _SECONDS_PER_DAY + seconds1 - seconds2
        difference = month_difference + seconds / float(_SECONDS_PER_MONTH)
        return _java_round(difference * 1e8) / 1e8 if round_off else difference

    return between


_MONTH_NAMES = ("JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER",
                "OCTOBER", "NOVEMBER", "DECEMBER")


@lru_cache(maxsize=None)
def make_date(ansi: bool):
    """``make_date(year, month, day)``: NULL for a field out of its range (a month outside 1 to
    12, a day past the month's end, a year beyond Java's +-999,999,999), or with ANSI on
    Spark's DATETIME_FIELD_OUT_OF_BOUNDS."""

    def make(year: int, month: int, day: int) -> dt.date | None:
        problem = None
        if not -999_999_999 <= year <= 999_999_999:
            problem = f"Invalid value for Year (valid values -999999999 - 999999999): {year}"
        elif not 1 <= month <= 12:
            problem = f"Invalid value for MonthOfYear (valid values 1 - 12): {month}"
        elif not 1 <= day <= 31:
            problem = f"Invalid value for DayOfMonth (valid values 1 - 28/31): {day}"
        elif day > month_length(year, month):
            problem = (f"Invalid date 'February 29' as '{year}' is not a leap year" if day == 29
                       else f"Invalid date '{_MONTH_NAMES[month - 1]} {day}'")
        if problem is not None:
            if ansi:
                raise MatchRuntimeError("DATETIME_FIELD_OUT_OF_BOUNDS", problem)
            return None
        return from_epoch_days(epoch_days_of(year, month, day))

    return make


def last_day(value: dt.date) -> dt.date:
    """``last_day(d)``: the last day of d's month."""
    return value.replace(day=month_length(value.year, value.month))


# Spark's names of the days of the week (``DateTimeUtils.getDayOfWeekFromString``), upper case,
# with Python's weekday() (Monday 0)
_DAYS_OF_WEEK = {name: number for number, names in enumerate(
    (("MO", "MON", "MONDAY"), ("TU", "TUE", "TUESDAY"), ("WE", "WED", "WEDNESDAY"), ("TH", "THU", "THURSDAY"),
     ("FR", "FRI", "FRIDAY"), ("SA", "SAT", "SATURDAY"), ("SU", "SUN", "SUNDAY"))) for name in names}


@lru_cache(maxsize=None)
def next_day(ansi: bool):
    """``next_day(d, dayOfWeek)``: the first date after d (never d itself) on that day of the
    week, named by two letters, three or in full, in any case. Another name is NULL, or with
    ANSI on Spark's ILLEGAL_DAY_OF_WEEK."""

    def following(value: dt.date, name: str) -> dt.date | None:
        weekday = _DAYS_OF_WEEK.get(name.upper())
        if weekday is None:
            if ansi:
                raise MatchRuntimeError("ILLEGAL_DAY_OF_WEEK", f"Illegal input for day of week: {name}")
            return None
        ahead = (weekday - value.weekday() - 1) % 7 + 1
        return from_epoch_days(value.toordinal() - _EPOCH_ORDINAL + ahead)

    return following


def unix_date(value: dt.date) -> int:
    """``unix_date(d)``: days from 1970-01-01 to d, an INT."""
    return value.toordinal() - _EPOCH_ORDINAL


def date_from_unix_date(days: int) -> dt.date:
    """``date_from_unix_date(n)``: the date n days after 1970-01-01."""
    return from_epoch_days(days)
