"""Spark's functions that make a TIMESTAMP or a day-time interval from numbers, and that move a
timestamp between time zones, over values that combine rows of a match, as Python evaluates them
(non-NULL operands; measured on Spark 4.3, the same with ANSI on and off):

* ``timestamp_seconds(x)``: x seconds since 1970-01-01 00:00 UTC. Of an integral number, x times
  10^6 microseconds, past a BIGINT Spark's ``DATETIME_OVERFLOW``; of a DECIMAL, x times 10^6
  exactly (Java's ``BigDecimal.longValueExact``): a digit below the microsecond is Java's
  ``ArithmeticException: Rounding necessary``, which Spark raises without an error class
  (``FRACTION_BELOW_MICROSECONDS`` here), past a BIGINT ``DATETIME_OVERFLOW``; of a DOUBLE or
  FLOAT, NULL for NaN and the infinities, else ``(long) (x * 1e6)`` in DOUBLE arithmetic
  (truncated toward zero, saturating).
* ``timestamp_millis(n)``, ``timestamp_micros(n)`` of an integral n: n milliseconds (times 1000,
  past a BIGINT ``DATETIME_OVERFLOW``) or microseconds since the epoch.
* ``make_dt_interval([days [, hours [, mins [, secs]]]])``: INTs and a DECIMAL(18, 6) of seconds
  (missing ones 0), summed in microseconds as Spark's ``IntervalUtils.makeDayTimeInterval``:
  the seconds, plus days, hours and minutes each multiplied out, every product and partial sum
  checked against a BIGINT (``INTERVAL_ARITHMETIC_OVERFLOW``).
* ``from_utc_timestamp(ts, zone)``: the local date-time of the instant ts in ``zone``, read as a
  UTC date-time; ``to_utc_timestamp(ts, zone)``: the UTC date-time of ts read as a local
  date-time in ``zone`` (in a daylight-saving gap moved forward by the gap, in an overlap the
  earlier offset, Java's ``ZonedDateTime.of``). The session time zone plays no part.
* ``convert_timezone([source,] target, ntz)``: the TIMESTAMP_NTZ ntz read as a local date-time in
  ``source`` (the session time zone when left out), as the local date-time of that instant in
  ``target``.

A zone is read as Spark's ``DateTimeUtils.getZoneId`` reads it (Java's ``ZoneId.of`` with its
short ids, ``string_casts.java_zone``, untrimmed): region ids as written (case matters),
``Z``, offsets, ``UTC`` / ``GMT`` / ``UT`` with or without an offset; any other string is
Spark's ``INVALID_TIMEZONE``. A result before 0001-01-01 or after 9999-12-31 (Spark holds it,
Python's ``datetime`` does not) is ``DATETIME_OUT_OF_PYTHON_RANGE`` rather than a wrong value.
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
from decimal import Decimal
from functools import lru_cache

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation import string_casts
from sparkcep.evaluation.datetime_functions import epoch_micros_of_local
from sparkcep.evaluation.day_time_intervals import resolve_local
from sparkcep.evaluation.sql_types import SqlType

_UTC = dt.timezone.utc
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=_UTC)
_LONG_MIN, _LONG_MAX = -(1 << 63), (1 << 63) - 1
_EXACT = decimal.Context(prec=100)
_MICROS = {"timestamp_seconds": 1_000_000, "timestamp_millis": 1_000, "timestamp_micros": 1}
_UNITS = {"timestamp_seconds": "seconds", "timestamp_millis": "milliseconds", "timestamp_micros": "microseconds"}


def _out_of_python_range(what: str) -> MatchRuntimeError:
    return MatchRuntimeError(
        "DATETIME_OUT_OF_PYTHON_RANGE",
        f"{what} in a DEFINE expression lies before 0001-01-01 or after 9999-12-31: Spark holds such "
        "values, sparkcep's Python side does not; compute it inside the navigation, where Spark does")


def _datetime_overflow(value: str, name: str) -> MatchRuntimeError:
    return MatchRuntimeError(
        "DATETIME_OVERFLOW",
        f"Datetime operation overflow: create a TIMESTAMP from {value} {_UNITS[name]} since the epoch")


def _instant(micros: int, name: str) -> dt.datetime:
    try:
        return _EPOCH + dt.timedelta(microseconds=micros)
    except OverflowError:
        raise _out_of_python_range(f"{name}(...)") from None


def _java_long(value: float) -> int:
    """Java's ``(long)`` of a finite DOUBLE: toward zero, saturating."""
    return max(_LONG_MIN, min(_LONG_MAX, int(value)))


@lru_cache(maxsize=None)
def from_epoch(name: str, operand: SqlType):
    """``timestamp_seconds`` / ``timestamp_millis`` / ``timestamp_micros`` of an ``operand``
    value (see the module docstring)."""
    scale = _MICROS[name]
    if operand.name in ("double", "float"):
        def fractional(value: float):
            if math.isnan(value) or math.isinf(value):
                return None
            return _instant(_java_long(value * 1e6), name)

        return fractional
    if operand.decimal:
        def exact(value: Decimal) -> dt.datetime:
            product = _EXACT.scaleb(value, 6)
            if product and product.adjusted() >= 19:  # Java's precision - scale > 19: Overflow
                raise _datetime_overflow(f"{value}BD", name)
            if product != product.to_integral_value(rounding=decimal.ROUND_DOWN):
                raise MatchRuntimeError(
                    "FRACTION_BELOW_MICROSECONDS",
                    f"timestamp_seconds of {value}: the seconds have a digit below the microsecond (Spark "
                    "raises Java's ArithmeticException 'Rounding necessary', without an error class)")
            micros = int(product)
            if not _LONG_MIN <= micros <= _LONG_MAX:
                raise _datetime_overflow(f"{value}BD", name)
            return _instant(micros, name)

        return exact
    suffix = {"bigint": "L", "smallint": "S", "tinyint": "Y"}.get(operand.name, "")

    def integral(value: int) -> dt.datetime:
        micros = value * scale
        if not _LONG_MIN <= micros <= _LONG_MAX:
            raise _datetime_overflow(f"{value}{suffix}", name)
        return _instant(micros, name)

    return integral


_DAY, _HOUR, _MINUTE = 86_400_000_000, 3_600_000_000, 60_000_000


def _interval_overflow() -> MatchRuntimeError:
    return MatchRuntimeError(
        "INTERVAL_ARITHMETIC_OVERFLOW",
        "Integer overflow while operating with intervals: make_dt_interval's fields exceed a BIGINT of "
        "microseconds")


def _exact_long(value: int) -> int:
    if not _LONG_MIN <= value <= _LONG_MAX:
        raise _interval_overflow()
    return value


def make_dt_interval(days: int, hours: int, minutes: int, seconds: Decimal) -> dt.timedelta:
    """Spark's ``make_dt_interval`` of INTs and a DECIMAL(18, 6) of seconds."""
    micros = int(_EXACT.scaleb(seconds, 6))  # the unscaled value of a DECIMAL(18, 6)
    for count, unit in ((days, _DAY), (hours, _HOUR), (minutes, _MINUTE)):
        micros = _exact_long(micros + _exact_long(count * unit))
    return dt.timedelta(microseconds=micros)


def _invalid_zone(text: str) -> MatchRuntimeError:
    return MatchRuntimeError(
        "INVALID_TIMEZONE",
        f"The timezone: {text} is invalid. The timezone must be either a region-based zone ID or a zone "
        "offset. Region IDs must have the form 'area/city', such as 'America/Los_Angeles'. Zone offsets "
        "must be in the format '(+|-)HH', '(+|-)HH:mm' or '(+|-)HH:mm:ss'")


def zone_of(text: str):
    """The tzinfo of Spark's ``getZoneId(text)``, or INVALID_TIMEZONE."""
    if text != string_casts.java_trimmed(text):  # ZoneId.of trims nothing
        raise _invalid_zone(text)
    try:
        return string_casts.java_zone(text)
    except string_casts.NoZone:
        raise _invalid_zone(text) from None
    except MatchRuntimeError as error:
        if error.code != "TIME_ZONE_UNKNOWN_TO_PYTHON":
            raise
        raise MatchRuntimeError(
            "TIME_ZONE_UNKNOWN_TO_PYTHON",
            f"the zone '{text}' between rows of a match is known to Spark's JVM and not to Python's tz database; "
            "apply the function inside the navigation, where Spark computes it") from None


def _guarded(function, what: str):
    def guarded(*values):
        try:
            return function(*values)
        except OverflowError:
            raise _out_of_python_range(what) from None

    return guarded


def _from_utc(value: dt.datetime, zone: str) -> dt.datetime:
    return value.astimezone(zone_of(zone)).replace(tzinfo=_UTC)


def _to_utc(value: dt.datetime, zone: str) -> dt.datetime:
    local = value.astimezone(_UTC).replace(tzinfo=None)
    return resolve_local(local, zone_of(zone), None).astimezone(_UTC)


from_utc_timestamp = _guarded(_from_utc, "from_utc_timestamp(...)")
to_utc_timestamp = _guarded(_to_utc, "to_utc_timestamp(...)")


_CYCLE = dt.timedelta(days=146_097)  # 400 Gregorian years, over which the calendar repeats
_NAIVE_EPOCH = dt.datetime(1970, 1, 1)


def _local_of_epoch_micros(micros: int, tz) -> dt.datetime:
    """The local date-time of an instant (microseconds since 1970-01-01 00:00 UTC) in ``tz``;
    near the ends of Python's range the instant is read 400 years toward its middle (the same
    calendar and the same yearly rules), so only a local result outside it overflows."""
    instant = dt.timedelta(microseconds=micros)
    shift = _CYCLE if instant < dt.timedelta(days=-719_000) else -_CYCLE if instant > dt.timedelta(days=2_900_000) \
        else dt.timedelta(0)
    utc = (_NAIVE_EPOCH + (instant + shift)).replace(tzinfo=_UTC)
    return utc.astimezone(tz).replace(tzinfo=None) - shift


def _convert(source: str, target: str, value: dt.datetime) -> dt.datetime:
    source_zone, target_zone = zone_of(source), zone_of(target)
    micros = epoch_micros_of_local(value.year, value.month, value.day, value.hour, value.minute, value.second,
                                   value.microsecond, source_zone)  # Java's ZonedDateTime.of
    return _local_of_epoch_micros(micros, target_zone)


convert_timezone = _guarded(_convert, "convert_timezone(...)")


# the plan operators of this module
CONSTRUCTORS = ("timestamp_seconds", "timestamp_millis", "timestamp_micros", "make_dt_interval",
                "from_utc_timestamp", "to_utc_timestamp", "convert_timezone")


def function(name: str, operand: SqlType | None):
    """The function of a bound operator ``name`` (one of ``CONSTRUCTORS``) over its non-NULL
    operand values; ``operand`` the type of the number of ``timestamp_seconds`` and its kin."""
    if name in _MICROS:
        return from_epoch(name, operand)
    return {"make_dt_interval": make_dt_interval, "from_utc_timestamp": from_utc_timestamp,
            "to_utc_timestamp": to_utc_timestamp, "convert_timezone": convert_timezone}[name]
