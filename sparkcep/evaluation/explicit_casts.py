"""Spark's ``CAST`` and ``TRY_CAST`` of values that combine rows of a match, beyond the widening
casts ``operators.cast`` does, as Python evaluates them (non-NULL operands; measured on Spark
4.3, ANSI on and off):

* **to a narrower integral type** (TINYINT, SMALLINT, INT, BIGINT):

  - of an integral value: ``operators.cast`` (Java's low bits without ANSI);
  - of a DECIMAL: truncated toward zero; out of the type's range Spark's ``CAST_OVERFLOW`` with
    ANSI on, else Java's low bits of the truncated value (``CAST(3000000000.5BD AS INT)`` is
    -1294967296);
  - of a DOUBLE or FLOAT: truncated toward zero. With ANSI on, ``CAST_OVERFLOW`` unless
    ``floor(x) <= max`` and ``ceil(x) >= min`` in DOUBLE arithmetic (NaN fails; for BIGINT the
    bound 2^63 - 1 is the DOUBLE 2^63, so 2^63 itself passes and becomes 2^63 - 1). Without
    ANSI, Java's saturating ``(long)`` for BIGINT and ``(int)`` for the others, NaN 0, then the
    low 8 or 16 bits for TINYINT and SMALLINT (``CAST(300.7D AS TINYINT)`` is 44);
  - of a BOOLEAN: 1 or 0 (to every numeric type);
  - of a STRING (``UTF8String.toLong`` / ``toInt``): ASCII white space and control characters
    (code points up to U+0020, and U+007F) trimmed from both ends, an optional sign, ASCII
    digits; without ANSI a ``.`` may follow, then only digits, and the fraction is dropped
    (``'1.9'`` is 1, ``'.5'`` 0); a value out of the type's range, or anything else, is NULL
    without ANSI and Spark's ``CAST_INVALID_INPUT`` with ANSI on.
* **to BOOLEAN**: a number is TRUE unless it is zero (NaN is TRUE); a STRING is TRUE for ``t``,
  ``true``, ``y``, ``yes``, ``1`` and FALSE for ``f``, ``false``, ``n``, ``no``, ``0`` (trimmed
  as above, in any case), else NULL, or ``CAST_INVALID_INPUT`` with ANSI on.
* **to STRING**: an integral number in decimal; a BOOLEAN ``true`` / ``false``; a DECIMAL with
  its scale's digits, plainly with ANSI on (``0.0000001``) and as Java's
  ``BigDecimal.toString`` without (``1E-7``, ``0E-7``: scientific once the exponent is below
  -6); a DATE ``yyyy-MM-dd``; a TIMESTAMP as its local date-time in the session time zone and a
  TIMESTAMP_NTZ as it is, ``yyyy-MM-dd HH:mm:ss`` and the fraction of a second without trailing
  zeros (``2024-01-01 10:00:00.12``); a DOUBLE or FLOAT as the JVM's ``Double.toString`` /
  ``Float.toString`` (``java_double_text``: the digits differ between Java 17 and Java 19+, so
  the session's Java version decides).
* **a STRING to DATE, TIMESTAMP, TIMESTAMP_NTZ, DOUBLE, FLOAT, DECIMAL or BINARY**:
  ``string_casts``.
* ``TRY_CAST`` is the ANSI cast with each of its errors turned into NULL (not sparkcep's own
  refusals of a value Python cannot hold, such as ``DATETIME_OUT_OF_PYTHON_RANGE``).
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
from decimal import Decimal

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation import java_double_text
from sparkcep.evaluation import operators as ops
from sparkcep.evaluation import string_casts
from sparkcep.evaluation.datetime_functions import local_reader
from sparkcep.evaluation.sql_types import SqlType, integral_bounds, low_bits

_TRUE = ("t", "true", "y", "yes", "1")
_FALSE = ("f", "false", "n", "no", "0")
_INT, _BOOLEAN = SqlType("int"), SqlType("boolean")
_EXACT = decimal.Context(prec=100)  # holds any DECIMAL(38, s) exactly
# sparkcep's own refusals of a value Spark has: TRY_CAST raises them too, never answers NULL
_NOT_SPARKS = ("DATETIME_OUT_OF_PYTHON_RANGE", "TIME_ZONE_UNKNOWN_TO_PYTHON")


def supported(source: SqlType, target: SqlType) -> bool:
    """Whether ``explicit_cast`` computes Spark's CAST from ``source`` to ``target``."""
    if target.name == "string":
        return source.numeric or source.name in ("boolean", "date", "timestamp", "timestamp_ntz")
    if source.name == "string":
        return target.integral or target.name == "boolean" or string_casts.supported(target)
    if target.name == "boolean":
        return source.numeric
    if source.name == "boolean":
        return target.numeric
    return target.integral and source.numeric


def explicit_cast(source: SqlType, target: SqlType, ansi: bool, zone: str, tried: bool = False,
                  java_version: int = 17):
    """The function of ``CAST(x AS target)`` (``TRY_CAST`` when ``tried``) of a ``source``
    value on a JVM of ``java_version`` (a DOUBLE's digits); ``supported(source, target)`` must
    hold."""
    if not tried:
        return _cast(source, target, ansi, zone, java_version)
    cast = _cast(source, target, True, zone, java_version)

    def try_cast(value):
        try:
            return cast(value)
        except MatchRuntimeError as error:
            if error.code in _NOT_SPARKS:  # Spark answers a value there: no NULL in its place
                raise
            return None

    return try_cast


def _cast(source: SqlType, target: SqlType, ansi: bool, zone: str, java_version: int):
    if target.name == "string":
        return _to_string(source, ansi, zone, java_version)
    if source.name == "string" and string_casts.supported(target):
        return string_casts.string_cast(target, ansi, zone)
    if source.name == "string":
        return _string_to_boolean(ansi) if target.name == "boolean" else _string_to_integral(target, ansi)
    if target.name == "boolean":
        return lambda value: value != 0
    if source.name == "boolean":
        widen = ops.cast(_INT, target, ansi, zone)
        return lambda value: widen(int(value))
    if source.integral:
        return ops.cast(source, target, ansi, zone)
    if source.decimal:
        return _decimal_to_integral(source, target, ansi)
    return _fractional_to_integral(source, target, ansi)


def _overflow(value: str, source: SqlType, target: SqlType) -> MatchRuntimeError:
    return MatchRuntimeError(
        "CAST_OVERFLOW", f'The value {value} of the type "{str(source).upper()}" cannot be cast to '
                         f'"{target.name.upper()}" due to an overflow')


def _decimal_to_integral(source: SqlType, target: SqlType, ansi: bool):
    low, high = integral_bounds(target.name)

    def cast(value: Decimal) -> int:
        truncated = int(value)  # toward zero
        if low <= truncated <= high:
            return truncated
        if ansi:
            raise _overflow(f"{value}BD", source, target)
        return low_bits(truncated, target.name)

    return cast


LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1
_INT_MIN, _INT_MAX = -(1 << 31), (1 << 31) - 1


def java_cast(value: float, low: int, high: int) -> int:
    """Java's ``(long)`` / ``(int)`` of a DOUBLE: toward zero, NaN 0, saturating at the bounds."""
    if math.isnan(value):
        return 0
    if math.isinf(value):
        return high if value > 0 else low
    return max(low, min(high, int(value)))


def _fractional_to_integral(source: SqlType, target: SqlType, ansi: bool):
    low, high = integral_bounds(target.name)
    suffix = "D" if source.name == "double" else ""

    def cast(value: float) -> int:
        if ansi:
            if not math.isfinite(value) or not (math.floor(value) <= float(high) and math.ceil(value) >= float(low)):
                raise _overflow(_java_double_text(value) + suffix, source, target)
            return java_cast(value, low, high)
        if target.name == "bigint":
            return java_cast(value, LONG_MIN, LONG_MAX)
        return low_bits(java_cast(value, _INT_MIN, _INT_MAX), target.name)

    return cast


def _java_double_text(value: float) -> str:
    """A DOUBLE in an error message as Java's ``Double.toString`` spells it (scientific below
    10^-3 and from 10^7: ``1.0E10``), with the shortest digits; only for messages."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    magnitude = abs(value)
    if magnitude == 0 or 1e-3 <= magnitude < 1e7:
        return repr(value)
    digits = Decimal(repr(magnitude)).normalize()
    first, *rest = (str(d) for d in digits.as_tuple().digits)
    return f"{'-' if value < 0 else ''}{first}.{''.join(rest) or '0'}E{digits.adjusted()}"


def _string_to_integral(target: SqlType, ansi: bool):
    low, high = integral_bounds(target.name)

    def cast(value: str) -> int | None:
        text = string_casts.utf8_trimmed(value)
        negative = text.startswith("-")
        digits = text[1:] if text[:1] in ("-", "+") else text
        whole, point, fraction = digits.partition(".")
        well_formed = (text not in ("", "-", "+") and _ascii_digits(whole)
                       and (not point or (not ansi and _ascii_digits(fraction))))
        number = (-int(whole or "0") if negative else int(whole or "0")) if well_formed else None
        if number is None or not low <= number <= high:
            if ansi:
                raise string_casts.invalid_input(value, target)
            return None
        return number

    return cast


def _ascii_digits(text: str) -> bool:
    return all("0" <= char <= "9" for char in text)


def _string_to_boolean(ansi: bool):
    def cast(value: str) -> bool | None:
        word = string_casts.utf8_trimmed(value).lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        if ansi:
            raise string_casts.invalid_input(value, _BOOLEAN)
        return None

    return cast


def _to_string(source: SqlType, ansi: bool, zone: str, java_version: int):
    if source.integral:
        return str
    if source.name == "double":
        return lambda value: java_double_text.double_text(value, java_version)
    if source.name == "float":
        return lambda value: java_double_text.float_text(value, java_version)
    if source.name == "boolean":
        return lambda value: "true" if value else "false"
    if source.decimal:
        exponent = Decimal(1).scaleb(-source.scale)

        def decimal_text(value: Decimal) -> str:
            exact = value.quantize(exponent, context=_EXACT) if value else Decimal(0).scaleb(-source.scale)  # no -0
            return format(exact, "f") if ansi else str(exact)

        return decimal_text
    if source.name == "date":
        return lambda value: value.isoformat()
    local = local_reader(zone if source.name == "timestamp" else None)

    def timestamp_text(value: dt.datetime) -> str:
        try:
            time = local(value)
        except OverflowError:  # the last hours of 9999 in UTC, read east of Greenwich
            raise MatchRuntimeError(
                "DATETIME_OUT_OF_PYTHON_RANGE",
                "CAST of a TIMESTAMP to STRING in a DEFINE expression: its local date-time lies after 9999-12-31, "
                "which Spark holds and sparkcep's Python side does not; cast it inside the navigation") from None
        text = (f"{time.year:04d}-{time.month:02d}-{time.day:02d} "
                f"{time.hour:02d}:{time.minute:02d}:{time.second:02d}")
        return text + f".{time.microsecond:06d}".rstrip("0") if time.microsecond else text

    return timestamp_text
