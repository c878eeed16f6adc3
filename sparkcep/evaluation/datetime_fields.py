"""Spark's fields of dates and timestamps, their truncation and their seconds since the epoch,
over values that combine rows of a match, as Python evaluates them (non-NULL operands; measured
on Spark 4.3, the same with ANSI on and off). A TIMESTAMP is read in the session time zone, a
TIMESTAMP_NTZ as it is.

* Fields of the date (an INT): ``year``, ``quarter``, ``month``, ``day`` / ``dayofmonth``,
  ``dayofweek`` (Sunday 1 to Saturday 7), ``weekday`` (Monday 0 to Sunday 6), ``dayofyear``,
  ``weekofyear`` (the ISO-8601 week: weeks start on Monday, week 1 holds the year's first
  Thursday, so 2024-12-30 is in week 1), and through ``date_part`` / ``extract``:
  ``YEAROFWEEK`` (the ISO week's year: 2025 for 2024-12-30) and ``DAYOFWEEK_ISO`` (Monday 1 to
  Sunday 7); ``dayname`` and ``monthname``, Java's short English names (``Mon``, ``Jan``),
  STRINGs. A TIMESTAMP is cast to its local date first (a STRING: ``CAST(x AS DATE)``, as
  Spark's analysis casts it).
* Fields of the time of day (an INT): ``hour``, ``minute``, ``second``; ``date_part('SECOND',
  x)`` and ``extract(SECOND FROM x)`` are the seconds with their fraction, a DECIMAL(8, 6). A
  DATE is its local midnight.
* ``date_trunc(unit, x)``: a TIMESTAMP (a DATE or TIMESTAMP_NTZ is cast to one), truncated to
  ``unit`` (case-insensitive: MICROSECOND, MILLISECOND, SECOND, MINUTE, HOUR, DAY or DD, WEEK,
  MON / MONTH / MM, QUARTER, YEAR / YYYY / YY; any other is NULL), as Spark's
  ``DateTimeUtils.truncTimestamp``: MILLISECOND and SECOND on the instant; MINUTE, HOUR and DAY
  on the local date-time, which keeps its UTC offset when it can (Java's
  ``ZonedDateTime.truncatedTo``: 02:30 in the hour the clocks go back truncates to 02:00 of the
  same pass); WEEK (to Monday), MONTH, QUARTER and YEAR to the local midnight of the first day
  (in an overlap the earlier offset, in a gap the end of the gap).
* ``trunc(x, unit)``: a DATE (a TIMESTAMP is cast to its local date), truncated to WEEK, MON /
  MONTH / MM, QUARTER or YEAR / YYYY / YY; any other unit (DAY included) is NULL.
* ``unix_timestamp(x)`` (and ``to_unix_timestamp``): the seconds since 1970-01-01 00:00 UTC, a
  BIGINT, truncated toward zero (Java's ``/``: ``1969-12-31 23:59:59.5 UTC`` is 0); a
  TIMESTAMP_NTZ counts from 1970-01-01 00:00 as it is, a DATE from its local midnight. The
  format of ``unix_timestamp(x, fmt)`` is not read for these types.
* ``unix_seconds``, ``unix_millis``, ``unix_micros`` of a TIMESTAMP or a TIMESTAMP_NTZ (from its
  own 1970-01-01 00:00 again): rounded toward negative infinity (``Math.floorDiv``: the same
  instant is -1 second). Spark refuses a DATE.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from functools import lru_cache, wraps

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation.datetime_functions import local_reader, micros, toward_zero
from sparkcep.evaluation.day_time_intervals import resolve_local

_UTC = dt.timezone.utc
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=_UTC)
_NAIVE_EPOCH = dt.datetime(1970, 1, 1)


def _within_python_dates(function):
    """``function``, raising DATETIME_OUT_OF_PYTHON_RANGE where a local date-time it reads or
    makes lies past 9999-12-31 (the last hours of 9999 in UTC, east of Greenwich), which Spark
    holds and Python's ``datetime`` does not."""

    @wraps(function)
    def checked(*values):
        try:
            return function(*values)
        except OverflowError:
            raise MatchRuntimeError(
                "DATETIME_OUT_OF_PYTHON_RANGE",
                f"{function.__name__} of a date-time in a DEFINE expression lies after 9999-12-31 in the session "
                "time zone: Spark holds such values, sparkcep's Python side does not; compute it inside the "
                "navigation, where Spark does") from None

    return checked


# ---- fields of the date --------------------------------------------------------------------

def _quarter(value: dt.date) -> int:
    return (value.month - 1) // 3 + 1


# Java's short names in English (DayOfWeek / Month.getDisplayName(TextStyle.SHORT, Locale.US)), a
# STRING: Spark's dayname and monthname
_DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
# the fields that are STRINGs (the others are INTs)
NAME_FIELDS = ("dayname", "monthname")

DATE_FIELDS = {
    "year": lambda value: value.year,
    "yearofweek": lambda value: value.isocalendar()[0],
    "quarter": _quarter,
    "month": lambda value: value.month,
    "weekofyear": lambda value: value.isocalendar()[1],
    "day": lambda value: value.day,
    "dayofweek": lambda value: value.isoweekday() % 7 + 1,
    "dayofweek_iso": lambda value: value.isoweekday(),
    "weekday": lambda value: value.weekday(),
    "dayofyear": lambda value: value.timetuple().tm_yday,
    "dayname": lambda value: _DAY_NAMES[value.weekday()],
    "monthname": lambda value: _MONTH_NAMES[value.month - 1],
}

# ---- fields of the time of day -------------------------------------------------------------

TIME_FIELDS = ("hour", "minute", "second", "second_with_fraction")


@lru_cache(maxsize=None)
def time_field(name: str, zone: str | None):
    """The field ``name`` (one of ``TIME_FIELDS``) of a TIMESTAMP read in ``zone``, or of a
    TIMESTAMP_NTZ (``zone`` None)."""
    local = local_reader(zone)

    def second_with_fraction(value) -> Decimal:
        time = local(value)
        return Decimal(time.second * 1_000_000 + time.microsecond).scaleb(-6)

    fields = {"hour": lambda value: local(value).hour, "minute": lambda value: local(value).minute,
              "second": lambda value: local(value).second, "second_with_fraction": second_with_fraction}
    field = fields[name]
    field.__name__ = name.removesuffix("_with_fraction")
    return _within_python_dates(field)


# ---- truncation -----------------------------------------------------------------------------

# Spark's names of the truncation levels (``DateTimeUtils.parseTruncLevel``), upper case
_LEVELS = {
    "MICROSECOND": "microsecond", "MILLISECOND": "millisecond", "SECOND": "second", "MINUTE": "minute",
    "HOUR": "hour", "DAY": "day", "DD": "day", "WEEK": "week", "MON": "month", "MONTH": "month", "MM": "month",
    "QUARTER": "quarter", "YEAR": "year", "YYYY": "year", "YY": "year",
}
_DATE_LEVELS = ("week", "month", "quarter", "year")  # what trunc(date, unit) takes
_ON_THE_INSTANT = {"microsecond": 1, "millisecond": 1_000, "second": 1_000_000}
_ON_THE_CLOCK = {"minute": "minute", "hour": "hour", "day": "day"}


def _first_day(value: dt.date, level: str) -> dt.date:
    """``value`` truncated to the first day of its week (Monday), month, quarter or year."""
    if level == "week":
        return value - dt.timedelta(days=value.weekday())
    if level == "month":
        return value.replace(day=1)
    if level == "quarter":
        return value.replace(month=(value.month - 1) // 3 * 3 + 1, day=1)
    return value.replace(month=1, day=1)


def trunc(value: dt.date, unit: str) -> dt.date | None:
    """``trunc(date, unit)``: NULL for a unit that is not a level of a date."""
    level = _LEVELS.get(unit.upper())
    return _first_day(value, level) if level in _DATE_LEVELS else None


@lru_cache(maxsize=None)
def date_trunc(zone: str):
    """``date_trunc(unit, ts)`` of a TIMESTAMP, in the session time zone ``zone``."""
    from zoneinfo import ZoneInfo

    tz = ZoneInfo(zone)

    def truncate(unit: str, value: dt.datetime) -> dt.datetime | None:
        level = _LEVELS.get(unit.upper())
        if level is None:
            return None
        if level in _ON_THE_INSTANT:
            size = _ON_THE_INSTANT[level]
            return value - dt.timedelta(microseconds=micros(value - _EPOCH) % size)
        zoned = value.astimezone(tz)
        local = zoned.replace(tzinfo=None)
        if level in _ON_THE_CLOCK:  # ZonedDateTime.truncatedTo: the offset kept where it can be
            fields = {"minute": dict(second=0, microsecond=0),
                      "hour": dict(minute=0, second=0, microsecond=0),
                      "day": dict(hour=0, minute=0, second=0, microsecond=0)}[level]
            return resolve_local(local.replace(**fields), tz, zoned.utcoffset()).astimezone(_UTC)
        day = _first_day(local.date(), level)  # LocalDate.atStartOfDay(zone)
        return resolve_local(dt.datetime(day.year, day.month, day.day), tz, None).astimezone(_UTC)

    truncate.__name__ = "date_trunc"
    return _within_python_dates(truncate)


# ---- seconds since the epoch ------------------------------------------------------------------

def _micros_since_epoch(value: dt.datetime) -> int:
    """A TIMESTAMP's (aware) microseconds since 1970-01-01 00:00 UTC, a TIMESTAMP_NTZ's (naive)
    since 1970-01-01 00:00 as it is."""
    return micros(value - (_EPOCH if value.tzinfo is not None else _NAIVE_EPOCH))


def unix_timestamp(value: dt.datetime) -> int:
    return toward_zero(_micros_since_epoch(value), 1_000_000)


def unix_seconds(value: dt.datetime) -> int:
    return _micros_since_epoch(value) // 1_000_000


def unix_millis(value: dt.datetime) -> int:
    return _micros_since_epoch(value) // 1_000


def unix_micros(value: dt.datetime) -> int:
    return _micros_since_epoch(value)


EPOCH_FUNCTIONS = {"unix_timestamp": unix_timestamp, "unix_seconds": unix_seconds, "unix_millis": unix_millis,
                   "unix_micros": unix_micros}
