"""Spark's day-time intervals over values that combine rows of a match, as Python evaluates them.

A day-time interval (``INTERVAL DAY``, ``INTERVAL HOUR TO MINUTE``, ..., ``INTERVAL DAY TO
SECOND``) is a whole number of microseconds that fits a BIGINT; its fields only say how it is
written. Python holds it as a ``datetime.timedelta``. For non-NULL operands (measured on Spark
4.3, ANSI on and off alike):

* ``end - start`` of two TIMESTAMPs, two TIMESTAMP_NTZs, or a DATE with either (the DATE cast to
  the other's type): an ``INTERVAL DAY TO SECOND``, the difference of the *local* date-times
  (Spark's ``SubtractTimestamps``: a TIMESTAMP read in the session time zone). So in
  Europe/Berlin ``TIMESTAMP'2024-03-31 03:30' - TIMESTAMP'2024-03-31 01:30'`` is 2 hours,
  although one hour passed (the clocks went forward). Of two DATEs: an ``INTERVAL DAY``.
* a TIMESTAMP plus or minus an interval (Spark's ``timestampAddDayTime``): the interval's
  whole days (truncated toward zero) move the date-time by calendar days in the session time
  zone, keeping its wall-clock time (a time in a daylight-saving gap moves forward by the gap;
  in an overlap the date-time keeps its offset if it can, else takes the earlier one); the rest
  of the interval is then added as elapsed time. So ``+ INTERVAL '24' HOUR`` and ``+ INTERVAL
  '1' DAY`` reach the same wall-clock time the next day, across a daylight-saving change too,
  while ``+ INTERVAL '90' MINUTE`` is ninety elapsed minutes. A TIMESTAMP_NTZ plus or minus an
  interval: the local date-time moved by it. A DATE plus or minus an ``INTERVAL DAY`` is a
  DATE; plus or minus any other day-time interval, the DATE is first cast to a TIMESTAMP (its
  local midnight).
* an interval plus or minus an interval: typed from the first field of either to the last field
  of either; unary minus and ``abs`` keep the type. A result beyond a BIGINT of microseconds is
  Spark's ``INTERVAL_ARITHMETIC_OVERFLOW``, ANSI on or off (``ARITHMETIC_OVERFLOW`` for
  ``abs``, as Spark names it).
* comparisons: by the number of microseconds, whatever the fields.
* an interval times a number (either order) or divided by one (Spark's ``MultiplyDTInterval``
  and ``DivideDTInterval``): an ``INTERVAL DAY TO SECOND``, whatever the interval's fields.
  By an integral number, the exact product (past a BIGINT of microseconds Spark's ``long
  overflow``) or the quotient rounded half away from zero (Guava's ``LongMath.divide`` with
  HALF_UP); by a DECIMAL, the exact product or quotient rounded half away from zero to whole
  microseconds (measured: a product and a quotient just below a half in their 39th and 40th
  digits round down in Spark 4.3, so no rounding to 38 digits comes first); by a DOUBLE or FLOAT, the microseconds as a DOUBLE times or divided by it in
  DOUBLE arithmetic, then rounded half away from zero (``DoubleMath.roundToLong``). A division
  by zero (0, 0.0, -0.0 or a DECIMAL zero) is Spark's ``INTERVAL_DIVIDED_BY_ZERO``, the
  smallest interval divided by -1 its ``ARITHMETIC_OVERFLOW``; a NaN or infinite
  DOUBLE result, or a result past a BIGINT, is ``INTERVAL_ARITHMETIC_OVERFLOW`` here (Spark
  raises a Java ``ArithmeticException`` without an error class: ``input is infinite or NaN``,
  ``long overflow``, ``Overflow``), ANSI on or off.

A date-time result before 0001-01-01 or after 9999-12-31 (Spark holds them, Python's
``datetime`` does not) is ``DATETIME_OUT_OF_PYTHON_RANGE`` rather than a wrong value.
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
from decimal import Decimal
from functools import lru_cache

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation.datetime_functions import local_reader, micros, toward_zero
from sparkcep.evaluation.sql_types import SqlType

_LONG_MIN, _LONG_MAX = -(1 << 63), (1 << 63) - 1
_DAY = 86_400_000_000  # microseconds
_UTC = dt.timezone.utc


def _fit(delta: dt.timedelta, what: str, code: str = "INTERVAL_ARITHMETIC_OVERFLOW") -> dt.timedelta:
    if not _LONG_MIN <= micros(delta) <= _LONG_MAX:
        raise MatchRuntimeError(
            code,
            f"{what} of day-time intervals overflowed a BIGINT of microseconds in a DEFINE expression")
    return delta


def _out_of_range(what: str) -> MatchRuntimeError:
    return MatchRuntimeError(
        "DATETIME_OUT_OF_PYTHON_RANGE",
        f"{what} in a DEFINE expression lies before 0001-01-01 or after 9999-12-31: Spark holds "
        "such values, sparkcep's Python side does not; compute it inside the navigation "
        "(LAST(A.ts + INTERVAL ...)), where Spark does")


@lru_cache(maxsize=None)
def subtract_datetimes(operand: SqlType, zone: str):
    """``end - start`` of two values of ``operand`` (DATE, TIMESTAMP or TIMESTAMP_NTZ)."""
    if operand.name == "date":
        return lambda end, start: end - start
    local = local_reader(zone if operand.name == "timestamp" else None)

    def subtract(end, start):
        try:
            return local(end) - local(start)
        except OverflowError:  # a local date-time past 9999-12-31
            raise _out_of_range(f"'-' of two {str(operand).upper()}s") from None

    return subtract


@lru_cache(maxsize=None)
def shift_datetime(name: str, operand: SqlType, zone: str):
    """``d + i``, ``i + d`` (``name`` "add") or ``d - i`` ("sub") of a value ``d`` of
    ``operand`` (DATE with an INTERVAL DAY, TIMESTAMP or TIMESTAMP_NTZ) and an interval ``i``."""
    sign = 1 if name == "add" else -1
    if operand.name == "timestamp":
        move = _zoned_shift(zone)
    else:  # a DATE by whole days, a TIMESTAMP_NTZ by the interval, no zone involved
        def move(value, delta):
            return value + delta

    def shift(a, b):
        value, delta = (b, a) if isinstance(a, dt.timedelta) else (a, b)
        try:
            return move(value, sign * delta)
        except OverflowError:
            raise _out_of_range(f"'{'+' if sign > 0 else '-'}' of {str(operand).upper()} and an interval") from None

    return shift


def _zoned_shift(zone: str):
    """A TIMESTAMP plus an interval, as Spark's ``timestampAddDayTime``: the interval's whole
    days (truncated toward zero) move the date-time in ``zone`` by calendar days, keeping its
    wall-clock time and, in an overlap, its offset when it can (Java's
    ``ZonedDateTime.plusDays``); the rest of the interval is then added as elapsed time. So
    ``+ INTERVAL '1' DAY`` and ``+ INTERVAL '24' HOUR`` both reach the same wall-clock time
    the next day, while ``+ INTERVAL '90' MINUTE`` adds ninety elapsed minutes."""
    from zoneinfo import ZoneInfo

    tz = ZoneInfo(zone)

    def move(value: dt.datetime, delta: dt.timedelta) -> dt.datetime:
        total = micros(delta)
        days = toward_zero(total, _DAY)
        rest = dt.timedelta(microseconds=total - days * _DAY)
        if days == 0:
            return value.astimezone(_UTC) + rest
        zoned = value.astimezone(tz)
        local = zoned.replace(tzinfo=None) + dt.timedelta(days=days)
        return resolve_local(local, tz, zoned.utcoffset()).astimezone(_UTC) + rest

    return move


def resolve_local(local: dt.datetime, tz, preferred: dt.timedelta | None) -> dt.datetime:
    """``local`` in ``tz`` as Java's ``ZonedDateTime.ofLocal(local, tz, preferred)``: in an
    overlap the ``preferred`` offset if it is one of the two, else the earlier (the offset
    before the change); in a gap the offset before it, which moves the time forward by the
    gap (Python's fold=0 reads a gap time so)."""
    earlier, later = local.replace(tzinfo=tz, fold=0), local.replace(tzinfo=tz, fold=1)
    if earlier.utcoffset() != later.utcoffset() and _exists(later) and later.utcoffset() == preferred:
        return later
    return earlier


def _exists(zoned: dt.datetime) -> bool:
    """The local date-time is read back from its instant: it is not in a gap."""
    return zoned.astimezone(_UTC).astimezone(zoned.tzinfo).replace(tzinfo=None) == zoned.replace(tzinfo=None)


@lru_cache(maxsize=None)
def interval_arithmetic(name: str):
    """``a + b`` / ``a - b`` of two intervals."""
    if name == "add":
        return lambda a, b: _fit(a + b, "'+'")
    return lambda a, b: _fit(a - b, "'-'")


def negate(value: dt.timedelta) -> dt.timedelta:
    return _fit(-value, "unary '-'")


def absolute(value: dt.timedelta) -> dt.timedelta:
    return _fit(abs(value), "abs", "ARITHMETIC_OVERFLOW")  # Spark's class for abs


def _overflow(message: str) -> MatchRuntimeError:
    return MatchRuntimeError("INTERVAL_ARITHMETIC_OVERFLOW", f"{message} (an interval times or divided by a number "
                                                             "in a DEFINE expression)")


def _rounded(value: Decimal) -> int:
    """``value`` to a whole number, half away from zero (Java's HALF_UP), within a BIGINT."""
    whole = int(value.to_integral_value(rounding=decimal.ROUND_HALF_UP))
    if not _LONG_MIN <= whole <= _LONG_MAX:
        raise _overflow("Overflow")
    return whole


def _rounded_double(value: float) -> int:
    """Guava's ``DoubleMath.roundToLong(value, HALF_UP)``."""
    if not math.isfinite(value):
        raise _overflow("input is infinite or NaN")
    whole = int(Decimal(value).to_integral_value(rounding=decimal.ROUND_HALF_UP))
    if not _LONG_MIN <= whole <= _LONG_MAX:
        raise _overflow(f"rounded value is out of range for input {value!r} and rounding mode HALF_UP")
    return whole


# exact for a product of a BIGINT and a DECIMAL(38, s); a quotient truncated there keeps its side of
# every half a whole-number rounding can meet
_EXACT = decimal.Context(prec=200, rounding=decimal.ROUND_DOWN, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)


@lru_cache(maxsize=None)
def multiply(number: SqlType):
    """``interval * n`` (or ``n * interval``) for a ``number`` n."""

    def product(a, b) -> dt.timedelta:
        interval, n = (a, b) if isinstance(a, dt.timedelta) else (b, a)
        count = micros(interval)
        if number.integral:
            whole = count * n
            if not _LONG_MIN <= whole <= _LONG_MAX:
                raise _overflow("long overflow")
        elif number.decimal:
            whole = _rounded(_EXACT.multiply(Decimal(count), n))
        else:
            whole = _rounded_double(float(count) * float(n))
        return dt.timedelta(microseconds=whole)

    return product


@lru_cache(maxsize=None)
def divide(number: SqlType):
    """``interval / n`` for a ``number`` n."""

    def quotient(interval: dt.timedelta, n) -> dt.timedelta:
        count = micros(interval)
        if number.integral and count == _LONG_MIN and n == -1:  # Spark's generated code's class
            raise MatchRuntimeError("ARITHMETIC_OVERFLOW", "the smallest interval divided by -1 overflows "
                                                           "(in a DEFINE expression)")
        if n == 0:
            raise MatchRuntimeError("INTERVAL_DIVIDED_BY_ZERO", "Division by zero (an interval divided by a number "
                                                                "in a DEFINE expression)")
        if number.integral:
            whole, remainder = divmod(abs(count), abs(n))
            whole += 2 * remainder >= abs(n)
            whole = whole if (count < 0) == (n < 0) else -whole
        elif number.decimal:
            whole = _rounded(_EXACT.divide(Decimal(count), n))
        else:
            whole = _rounded_double(float(count) / float(n))
        return dt.timedelta(microseconds=whole)

    return quotient
