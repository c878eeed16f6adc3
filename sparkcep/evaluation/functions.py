"""Spark's scalar functions over values that combine rows of a match, as Python evaluates them:
``round`` / ``bround``, ``floor`` / ``ceil`` (with or without a scale), ``sign`` / ``signum``,
``sqrt``, the logarithms and exponentials (``ln`` / ``log``, ``log10``, ``log2``, ``log1p``,
``exp``, ``expm1``), ``power`` / ``pow``, ``cbrt``, ``pmod``, ``concat_ws`` and ``array_join``.

Each is defined from the Spark types of its operands (bound by ``sparkcep.evaluation.binding``,
which also gives the result type) and the session's ANSI setting, with Spark's own rules:

* ``round(x, d)`` / ``bround(x, d)`` (HALF_UP / HALF_EVEN to ``d`` decimal places, ``d`` may be
  negative): Spark rounds a DOUBLE through ``BigDecimal(Double.toString(x))``, so it rounds the
  shortest decimal that reads back as x (``round(1.005D, 2)`` is 1.01, not 1.0 as the binary
  value would give); NaN and infinities stay; a zero result is 0.0, never -0.0 (a BigDecimal
  has no negative zero). A FLOAT goes the same way through the DOUBLE it widens to, and the
  rounded decimal is converted to the nearest FLOAT. An integral x is rounded as a decimal and
  converted back to its type: overflow raises under ANSI and keeps the low bits otherwise (as
  the JVM's ``intValue``). A DECIMAL is rounded to its result type's scale.
* ``floor`` / ``ceil`` (without a scale): a BIGINT (a DOUBLE beyond its range raises under
  ANSI, else saturates as Java's (long) cast; NaN is 0), or DECIMAL(p - s + 1, 0).
* ``floor(x, d)`` / ``ceil(x, d)``: ``round`` towards -Infinity / +Infinity of the DECIMAL
  Spark casts x to (DECIMAL(30, 15) from a DOUBLE, (14, 7) from a FLOAT).
* ``sign`` / ``signum``: ``Math.signum`` of the DOUBLE value (-0.0 and NaN stay).
* ``sqrt`` of the DOUBLE value: ``Math.sqrt``, IEEE 754's correctly rounded square root, which
  Python's is too.
* ``ln`` / ``log(x)``, ``log10``, ``log2``, ``log(b, x)``, ``log1p``, ``exp``, ``expm1``,
  ``power`` / ``pow`` and ``cbrt`` of DOUBLE values: Java's ``StrictMath`` (fdlibm 5.3), which
  ``sparkcep.evaluation.strict_math`` reproduces bit for bit (Python's ``math`` differs in the
  last bit for some values). ``log2(x)`` is ``log(x) / log(2)`` and ``log(b, x)`` ``log(x) /
  log(b)``, as Spark computes them. The logarithms are NULL for x <= 0 (``log1p``: x <= -1;
  ``log(b, x)``: also b <= 0), ANSI on or off; NaN stays NaN; ``exp``, ``expm1`` and ``power``
  overflow to Infinity.
* ``pmod(a, n)``: ``r = a % n``, and ``(r + n) % n`` when r < 0, in the operands' type (for INT
  and BIGINT ``r + n`` wraps around as Java's int and long do, whatever the ANSI setting).
* ``concat_ws(sep, ...)``: NULL when sep is; NULL strings (and NULL array elements) skipped.
* ``array_join(a, delimiter[, null_replacement])``: NULL when an operand is; NULL elements
  skipped, or replaced by ``null_replacement``.
* ``format_number(x, d)`` of an integral or DECIMAL x (Java's ``DecimalFormat`` with the pattern
  ``#,##0.00...``, d zeros, in the US locale, rounding HALF_EVEN, as Spark formats the exact
  value): groups of three integral digits separated by commas, exactly d decimals (no point
  when d is 0), a minus sign for a negative value even when it rounds to zero (``-0.00``);
  NULL when d < 0. More than ``FORMAT_DECIMALS`` decimals is ``MATCH_DEPENDENT_VALUE_TOO_LARGE``.
* ``isnan(x)`` and ``nanvl(a, b)`` (binding composes them from ``is_nan``: ``isnan`` is FALSE
  for NULL; ``nanvl`` is a unless a is NaN, then b, and NULL when a is NULL, as Spark's
  ``NaNvl``).
* ``width_bucket(v, min, max, n)`` of DOUBLEs and a BIGINT count (Spark's ``WidthBucket``): NULL
  when n <= 0 or n is the largest BIGINT, v is NaN, min = max, or min or max is NaN or
  infinite; else 0 below the range, n + 1 at or past its end, and otherwise ``(long) (n * (v -
  lower) / (upper - lower)) + 1`` in DOUBLE arithmetic (measured from max when min > max), with
  Java's saturating ``(long)`` and wrapping ``+``.
"""

from __future__ import annotations

import decimal
import math
import struct
from decimal import Decimal
from functools import lru_cache

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation import operators as ops
from sparkcep.evaluation import java_double_text, strict_math
from sparkcep.evaluation.explicit_casts import LONG_MAX, LONG_MIN, java_cast
from sparkcep.evaluation.sql_types import low_bits
from sparkcep.evaluation.sql_types import INTEGRAL_BITS, SqlType

_MODES = {"half_up": decimal.ROUND_HALF_UP, "half_even": decimal.ROUND_HALF_EVEN,
          "floor": decimal.ROUND_FLOOR, "ceiling": decimal.ROUND_CEILING}
_MODE_FUNCTIONS = {"half_up": "round", "half_even": "bround", "floor": "floor", "ceiling": "ceil"}
# exact for every scale lowering accepts (|d| <= 1000) over any DOUBLE (at most 309 integral
# and 1074 fractional digits) or DECIMAL(38, s)
_ROUNDING = decimal.Context(prec=2500, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN,
                            traps=[decimal.InvalidOperation])


def _float32(value: float) -> float:
    return struct.unpack("f", struct.pack("f", value))[0]


# the smallest magnitude a decimal rounds up to FLOAT infinity from (half an ulp above the
# largest FLOAT, a tie that rounds to the even neighbour 2**128)
_FLOAT_OVERFLOW = Decimal(2 ** 128 - 2 ** 103)


def _float32_neighbour(value: float, up: bool) -> float:
    """The next FLOAT above (``up``) or below the FLOAT ``value``."""
    if value == 0:
        tiny = struct.unpack("<f", struct.pack("<i", 1))[0]
        return tiny if up else -tiny
    bits = struct.unpack("<i", struct.pack("<f", value))[0]
    bits += 1 if (value > 0) == up else -1
    return struct.unpack("<f", struct.pack("<i", bits))[0]


_FLOAT_MAX = struct.unpack("<f", struct.pack("<i", 0x7F7FFFFF))[0]


def nearest_float(value: Decimal) -> float:
    """The FLOAT nearest ``value`` (ties to even), as Java's ``BigDecimal.floatValue``: rounding
    to DOUBLE first can land exactly halfway between two FLOATs when ``value`` is not, so that
    case is decided on the exact value."""
    if value.copy_abs() >= _FLOAT_OVERFLOW:
        return math.copysign(math.inf, value)
    double = float(value)
    if abs(double) >= _FLOAT_OVERFLOW:  # rounded up to the tie with infinity: the value is below it
        return math.copysign(_FLOAT_MAX, double)
    single = _float32(double)
    if single == double:
        return single
    other = _float32_neighbour(single, up=double > single)
    midpoint = _ROUNDING.divide(_ROUNDING.add(Decimal(single), Decimal(other)), 2)
    if Decimal(double) != midpoint or value == midpoint:
        return single  # not a double rounding (or a true tie: struct rounded it to even)
    return max(single, other) if value > midpoint else min(single, other)


@lru_cache(maxsize=None)
def rounding(argument: SqlType, result: SqlType, scale: int, mode: str, ansi: bool, java_version: int = 17):
    """``round`` (``mode`` half_up), ``bround`` (half_even), ``floor`` (floor) or ``ceil``
    (ceiling) of a non-NULL ``argument`` value to ``scale`` decimal places, as a value of
    ``result`` (``floor`` and ``ceil`` with a scale take a DECIMAL: binding casts others); a
    DOUBLE or FLOAT through the decimal the JVM of ``java_version`` prints for it."""
    how = _MODES[mode]

    def to_scale(value: Decimal, digits: int = scale) -> Decimal:
        return value.quantize(Decimal((0, (1,), -digits)), rounding=how, context=_ROUNDING)

    if argument.integral:
        if scale >= 0:
            return lambda v: v
        fit = ops.integral_fit(argument, ansi, _function_of(mode))
        return lambda v: fit(int(to_scale(Decimal(v))))
    if argument.fractional:
        single = argument.name == "float"

        def round_fractional(v: float) -> float:
            if not math.isfinite(v):
                return v
            rounded = to_scale(Decimal(java_double_text.double_text(v, java_version)))
            value = nearest_float(rounded) if single else float(rounded)
            return value if value else 0.0  # BigDecimal has no negative zero

        return round_fractional
    if argument.decimal:
        def round_decimal(v: Decimal):
            rounded = to_scale(v, min(scale, argument.scale))
            if scale < 0:
                rounded = to_scale(rounded, 0)
            if not rounded:  # ceil(-0.4, 0) is 0, not Python's Decimal('-0')
                rounded = rounded.copy_abs()
            # Spark sizes the result for the carry (one more integral digit), up to 38 digits;
            # at 38 a carry does not fit (Spark raises, with ANSI on or off)
            return ops.to_decimal(rounded, result, True)

        return round_decimal
    raise ValueError(f"no rounding of {argument}")


def _function_of(mode: str) -> str:
    """The function a rounding mode belongs to (for messages)."""
    return _MODE_FUNCTIONS[mode]


@lru_cache(maxsize=None)
def floor_or_ceiling(name: str, argument: SqlType, result: SqlType, ansi: bool):
    """``floor`` / ``ceil`` (one argument) of a non-NULL value of ``argument`` (BIGINT, DOUBLE,
    FLOAT or DECIMAL): a BIGINT, or a DECIMAL(p - s + 1, 0) of a DECIMAL. A DOUBLE outside
    BIGINT's range raises under ANSI (``ARITHMETIC_OVERFLOW``) and is the nearest BIGINT
    without, as Java's (long) cast; NaN is 0."""
    if argument.integral:
        return lambda v: v
    if argument.decimal:
        how = decimal.ROUND_FLOOR if name == "floor" else decimal.ROUND_CEILING
        return lambda v: ops.to_decimal(v.to_integral_value(rounding=how, context=_ROUNDING), result, ansi)
    low, high = -(1 << 63), (1 << 63) - 1
    apply = math.floor if name == "floor" else math.ceil

    def to_bigint(v: float) -> int:
        if v != v:
            return 0
        if math.isinf(v):
            whole = high + 1 if v > 0 else low - 1
        else:
            whole = apply(v)
        if low <= whole <= high:
            return whole
        if ansi:
            raise MatchRuntimeError(
                "ARITHMETIC_OVERFLOW", f"{name} overflowed BIGINT in a DEFINE or MEASURES expression")
        return high if whole > high else low

    return to_bigint


def degrees(value: float) -> float:
    """Java's ``Math.toDegrees`` (since Java 9, which Spark 4 requires): one product with the
    DOUBLE nearest 180 / pi, not a quotient by pi (Java 8's, which rounds otherwise)."""
    return value * 57.29577951308232


def radians(value: float) -> float:
    """Java's ``Math.toRadians``: one product with the DOUBLE nearest pi / 180."""
    return value * 0.017453292519943295


ANGLES = {"degrees": degrees, "radians": radians}


def square_root(value: float) -> float:
    """Java's ``Math.sqrt`` (IEEE 754's correctly rounded square root, as Python's): NaN for a
    negative value (-Infinity too), -0.0 for -0.0."""
    return math.nan if value < 0 else math.sqrt(value)


_LN_2 = strict_math.log(2.0)


def natural_logarithm(x: float) -> float | None:
    """``ln(x)`` / ``log(x)``: ``StrictMath.log``, NULL for x <= 0."""
    return None if x <= 0 else strict_math.log(x)


def logarithm_base_10(x: float) -> float | None:
    """``log10(x)``: ``StrictMath.log10``, NULL for x <= 0."""
    return None if x <= 0 else strict_math.log10(x)


def logarithm_base_2(x: float) -> float | None:
    """``log2(x)``: ``StrictMath.log(x) / StrictMath.log(2)``, NULL for x <= 0."""
    return None if x <= 0 else strict_math.log(x) / _LN_2


def logarithm(base: float, x: float) -> float | None:
    """``log(base, x)``: ``StrictMath.log(x) / StrictMath.log(base)``, NULL when either is <= 0
    (base 1 divides by zero: an infinity, or NaN for x = 1)."""
    if base <= 0 or x <= 0:
        return None
    return strict_math.divide(strict_math.log(x), strict_math.log(base))


def logarithm_one_plus(x: float) -> float | None:
    """``log1p(x)``: ``StrictMath.log1p``, NULL for x <= -1."""
    return None if x <= -1 else strict_math.log1p(x)


# the functions of DOUBLEs that Spark computes with StrictMath (no NULL rule of their own)
exponential = strict_math.exp
exponential_minus_one = strict_math.expm1
power = strict_math.pow
cube_root = strict_math.cbrt

# the plan operator -> its function of non-NULL DOUBLEs
STRICT_MATH = {
    "ln": natural_logarithm, "log10": logarithm_base_10, "log2": logarithm_base_2,
    "log": logarithm, "log1p": logarithm_one_plus, "exp": exponential,
    "expm1": exponential_minus_one, "power": power, "cbrt": cube_root,
}


def signum(value: float) -> float:
    """Java's ``Math.signum``: -1.0, 1.0, or the value itself for zeros (keeping -0.0) and NaN."""
    if value != value or value == 0:
        return value
    return 1.0 if value > 0 else -1.0


@lru_cache(maxsize=None)
def positive_modulo(operand: SqlType, result: SqlType, ansi: bool):
    """Spark's ``pmod(a, n)`` of two non-NULL values of ``operand``, a value of ``result``."""
    remainder = ops.arithmetic("mod", operand, result, ansi)  # guards n = 0 (ANSI: an error)
    if result.integral:
        bits = INTEGRAL_BITS[result.name]
        span, low = 1 << bits, -(1 << (bits - 1))

        def pmod_integral(a: int, n: int):
            r = remainder(a, n)
            if r is None or r >= 0:
                return r
            total = r + n
            if bits >= 32:  # Java adds ints and longs with wrap-around (bytes and shorts as ints)
                total = (total - low) % span + low
            return ops.java_remainder(total, n)

        return pmod_integral
    if result.fractional:
        add = ops.arithmetic("add", result, result, ansi)

        def pmod_fractional(a: float, n: float):
            r = remainder(a, n)
            if r is None or not r < 0:
                return r
            return remainder(add(r, n), n)

        return pmod_fractional
    if result.decimal:
        exact = ops.exact_remainder

        def pmod_decimal(a: Decimal, n: Decimal):
            if n == 0:
                return remainder(a, n)  # the division-by-zero rule
            r = exact(a, n)
            if r < 0:
                r = exact(ops.exact_add(r, n), n)
            return ops.to_decimal(r, result, ansi)

        return pmod_decimal
    raise ValueError(f"no pmod on {result}")


def concat_ws(separator: str | None, *parts) -> str | None:
    """Spark's ``concat_ws``: NULL when the separator is; NULL parts and NULL elements of
    ARRAY<STRING> parts skipped."""
    if separator is None:
        return None
    kept: list[str] = []
    for part in parts:
        if isinstance(part, list):
            kept += [element for element in part if element is not None]
        elif part is not None:
            kept.append(part)
    return separator.join(kept)


# the most decimals format_number writes between rows (Spark writes d of them, whatever d is)
FORMAT_DECIMALS = 1000


def format_number(value, decimals: int) -> str | None:
    """Spark's ``format_number(x, d)`` of a non-NULL integral (int) or DECIMAL x."""
    if decimals < 0:
        return None
    if decimals > FORMAT_DECIMALS:
        raise MatchRuntimeError(
            "MATCH_DEPENDENT_VALUE_TOO_LARGE",
            f"format_number would write {decimals:,} decimals in a DEFINE or MEASURES expression; "
            f"sparkcep writes at most {FORMAT_DECIMALS:,} here")
    exact = Decimal(value)
    rounded = exact.quantize(Decimal((0, (1,), -decimals)), rounding=decimal.ROUND_HALF_EVEN, context=_ROUNDING)
    text = format(rounded.copy_abs(), f",.{decimals}f")
    return "-" + text if exact < 0 else text


def array_join(array: list, delimiter: str, null_replacement: str | None = None) -> str:
    """Spark's ``array_join`` of non-NULL operands: NULL elements skipped, or replaced."""
    if null_replacement is None:
        return delimiter.join(element for element in array if element is not None)
    return delimiter.join(null_replacement if element is None else element for element in array)


def is_nan(value: float) -> bool:
    return math.isnan(value)


def width_bucket(value: float, low: float, high: float, buckets: int) -> int | None:
    """Spark's ``width_bucket(v, min, max, n)`` of non-NULL operands."""
    if buckets <= 0 or buckets == LONG_MAX or math.isnan(value) or low == high or \
            not math.isfinite(low) or not math.isfinite(high):
        return None
    lower, upper = min(low, high), max(low, high)
    if low < high:
        if value < lower:
            return 0
        if value >= upper:
            return buckets + 1
        return low_bits(java_cast(float(buckets) * (value - lower) / (upper - lower), LONG_MIN, LONG_MAX) + 1, "bigint")
    if value > upper:
        return 0
    if value <= lower:
        return buckets + 1
    return low_bits(java_cast(float(buckets) * (upper - value) / (upper - lower), LONG_MIN, LONG_MAX) + 1, "bigint")
