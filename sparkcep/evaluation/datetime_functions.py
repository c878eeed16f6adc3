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
from functools import lru_cache

from sparkcep.plan.expressions import TIMESTAMPDIFF_UNITS

_MICROSECONDS = {"microsecond": 1, "millisecond": 1_000, "second": 1_000_000, "minute": 60_000_000,
                 "hour": 3_600_000_000, "day": 86_400_000_000, "week": 7 * 86_400_000_000}
_MONTHS = {"month": 1, "quarter": 3, "year": 12}
assert set(_MICROSECONDS) | set(_MONTHS) == set(TIMESTAMPDIFF_UNITS)


def datediff(end: dt.date, start: dt.date) -> int:
    return (end - start).days


def _toward_zero(numerator: int, denominator: int) -> int:
    quotient = abs(numerator) // denominator
    return quotient if numerator >= 0 else -quotient


@lru_cache(maxsize=None)
def timestampdiff(unit: str, zone: str | None):
    """``timestampdiff`` in ``unit`` (one of ``TIMESTAMPDIFF_UNITS``) of two TIMESTAMPs read in ``zone``, or of
    two TIMESTAMP_NTZs (``zone`` None)."""
    if zone is None:
        def local(value: dt.datetime) -> dt.datetime:
            return value
    else:
        from zoneinfo import ZoneInfo

        tz = ZoneInfo(zone)

        def local(value: dt.datetime) -> dt.datetime:
            return value.astimezone(tz).replace(tzinfo=None)

    if unit in _MICROSECONDS:
        size = _MICROSECONDS[unit]

        def difference(start: dt.datetime, end: dt.datetime) -> int:
            delta = local(end) - local(start)
            micros = (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
            return _toward_zero(micros, size)

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
        return _toward_zero(_toward_zero(packed_end - packed_start, 32), months_per_unit)

    return months
