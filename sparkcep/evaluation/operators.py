"""The Python side of Spark's operators over single values, shared by the interpreter and the
generated code: arithmetic, comparison, NULL-safe equality and SQL's three-valued truth."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any, Callable

from sparkcep.errors import MatchRuntimeError


def _numeric_pair(a, b):
    if isinstance(a, Decimal) and isinstance(b, float):
        return float(a), b
    if isinstance(a, float) and isinstance(b, Decimal):
        return a, float(b)
    return a, b


def _arithmetic(operation):
    def apply(a, b):
        if a is None or b is None:
            return None
        a, b = _numeric_pair(a, b)
        return operation(a, b)

    return apply


def _division_by_zero():
    # Spark 4 runs in ANSI mode by default, where x / 0 raises; a match-dependent DEFINE does too.
    return MatchRuntimeError("DIVIDE_BY_ZERO", "division by zero in a DEFINE condition")


def _divide(a, b):
    if b == 0:
        raise _division_by_zero()
    if isinstance(a, int) and isinstance(b, int):
        return a / b  # Spark's '/' on integers yields a double
    return a / b


def _modulo(a, b):
    if b == 0:
        raise _division_by_zero()
    if isinstance(a, float) or isinstance(b, float):
        return math.fmod(a, b)
    remainder = abs(a) % abs(b)
    return -remainder if a < 0 else remainder


def _compare(operation):
    def apply(a, b):
        if a is None or b is None:
            return None
        a, b = _numeric_pair(a, b)
        return operation(a, b)

    return apply


BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "eq": _compare(lambda a, b: a == b),
    "neq": _compare(lambda a, b: a != b),
    "gt": _compare(lambda a, b: a > b),
    "gte": _compare(lambda a, b: a >= b),
    "lt": _compare(lambda a, b: a < b),
    "lte": _compare(lambda a, b: a <= b),
    "add": _arithmetic(lambda a, b: a + b),
    "sub": _arithmetic(lambda a, b: a - b),
    "mul": _arithmetic(lambda a, b: a * b),
    "div": _arithmetic(_divide),
    "mod": _arithmetic(_modulo),
}

OPERATORS = set(BINARY) | {
    "and", "or", "not", "neg", "abs", "paren", "null_safe_eq", "coalesce", "greatest", "least",
    "between", "in", "is", "if", "case", "list", "like", "ilike", "rlike", "concat",
    "lower", "upper", "length", "substring", "explicit_cast",
    "round", "bround", "sign", "pmod", "concat_ws", "array_join", "array", "floor", "ceil",  # sparkcep.evaluation.functions
    "sqrt", "degrees", "radians", "ln", "log", "log10", "log2", "log1p", "exp", "expm1", "power", "cbrt",  # strict_math
    "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "hypot", "asinh", "acosh", "atanh",  # trigonometric_functions
    # sparkcep.evaluation.string_functions
    "contains", "startswith", "endswith", "locate", "trim", "replace", "left", "right", "reverse",
    # sparkcep.evaluation.integral_functions
    "intdiv", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "shiftleft", "shiftright",
    "shiftrightunsigned", "try_add", "try_sub", "try_mul", "try_div", "try_mod", "datediff",
    "timestampdiff", "date_add", "date_sub", "add_months", "months_between", "make_date", "last_day",
    "next_day", "unix_date", "date_from_unix_date",  # sparkcep.evaluation.datetime_functions
    "substring_index", "translate", "split_part", "levenshtein", "ascii", "chr", "octet_length", "bit_length", "md5", "sha1",
    "sha2", "crc32", "lpad", "rpad", "repeat",
    "hash", "xxhash64",  # sparkcep.evaluation.hash_functions
    "conv", "hex", "unhex", "bin",  # sparkcep.evaluation.base_functions
    "format_number",  # sparkcep.evaluation.functions
    # sparkcep.evaluation.regex_functions
    "regexp_extract", "regexp_replace", "regexp_count", "regexp_substr", "regexp_instr",
    "find_in_set", "bit_count", "bit_get",  # sparkcep.evaluation.integral_functions
    # sparkcep.evaluation.datetime_fields
    "year", "yearofweek", "quarter", "month", "weekofyear", "day", "dayofweek", "dayofweek_iso", "weekday",
    "dayofyear", "hour", "minute", "second", "second_with_fraction", "date_trunc", "trunc", "unix_timestamp",
    "unix_seconds", "unix_millis", "unix_micros",
    "isnan", "nanvl", "is_nan", "width_bucket",  # sparkcep.evaluation.functions
    "initcap", "elt", "elt_out_of_range",  # sparkcep.evaluation.string_functions
    "url_encode", "url_decode", "try_url_decode", "parse_url", "try_parse_url",  # sparkcep.evaluation.url_functions
    "converting_cast",  # sparkcep.evaluation.explicit_casts
    "interval_multiply", "interval_divide",  # sparkcep.evaluation.day_time_intervals
    # sparkcep.evaluation.collection_functions (map_value: element_at, try_element_at and m[k]
    # of a map, after binding)
    "array_contains", "array_position", "arrays_overlap", "map_contains_key", "element_at", "try_element_at",
    "subscript", "size", "array_size", "array_distinct", "array_max", "array_min", "slice", "map_value",
    # sparkcep.evaluation.collection_builders (concat_arrays, reverse_array and elements_cast:
    # concat, reverse and array_join's cast of arrays, after binding)
    "array_union", "array_intersect", "array_except", "array_remove", "array_repeat", "array_compact", "sort_array",
    "array_sort", "flatten", "array_append", "array_prepend", "array_insert", "map_keys", "map_values", "create_map",
    "map_from_arrays", "get", "sequence", "concat_arrays", "reverse_array", "elements_cast",
    # sparkcep.evaluation.datetime_patterns
    "date_format", "from_unixtime", "to_timestamp", "to_timestamp_ntz", "to_date", "unix_timestamp_of_string",
    # -- higher-order functions (begin): sparkcep.evaluation.higher_order_functions --
    "transform", "filter", "exists", "forall", "aggregate", "zip_with", "map_filter", "transform_values",
    "transform_keys", "map_zip_with",
    # -- higher-order functions (end) --
    "array_sort_with_comparator",  # sparkcep.evaluation.comparator_sort: array_sort(arr, (l, r) -> ...)
    "format_string_row_format",  # sparkcep.evaluation.row_formats: format_string(A.fmt, ...)
    # -- JSON and map functions (begin): sparkcep.evaluation.json_functions, map_functions
    "get_json_object", "json_array_length", "json_object_keys", "to_json", "str_to_map", "map_concat",
    # -- JSON and map functions (end)
    "format_string", "typeof",  # sparkcep.evaluation.java_formatter; typeof: a constant after binding
    # -- structs (begin): sparkcep.evaluation.struct_functions --
    "named_struct", "get_field", "map_entries", "map_from_entries", "arrays_zip",
    # -- structs (end) --
    # -- split, regexp_extract_all, STRING and BINARY conversions, soundex, ... (begin):
    # sparkcep.evaluation.text_and_binary
    "split", "regexp_extract_all", "base64", "unbase64", "encode", "decode", "to_binary", "soundex",
    "luhn_check", "quote", "factorial", "rint", "to_base32", "from_base32", "mask",
    # -- split, regexp_extract_all, ... (end)
    # -- the rest of the datetime functions (begin): datetime_fields, datetime_constructors --
    "dayname", "monthname", "timestamp_seconds", "timestamp_millis", "timestamp_micros", "make_dt_interval",
    "from_utc_timestamp", "to_utc_timestamp", "convert_timezone",
    # -- the rest of the datetime functions (end) --
}

# [NOT] LIKE, ILIKE and RLIKE (REGEXP, regexp_like): a string and a pattern; LIKE and ILIKE may
# carry ("escape", c) in their options (``like_function``)
STRING_MATCHES = ("like", "ilike", "rlike")


# Spark's division and remainder (DivModLike: /, div, %, pmod) read their right operand first:
# a NULL divisor (and, ANSI off, a zero one) gives NULL without evaluating the dividend, whose
# errors are then not raised; other binary operators read the left operand first.
RIGHT_FIRST = ("div", "mod", "intdiv", "pmod")


def truth(value) -> bool | None:
    return None if value is None else bool(value)


def null_safe_eq(a, b):
    if a is None or b is None:
        return a is None and b is None
    return BINARY["eq"](a, b)


# ---------------------------------------------------------------------------------------------
# Typed semantics: each operator defined from the Spark types of its operands (the tree was bound
# by ``sparkcep.evaluation.binding``: implicit casts are explicit ``cast`` nodes, so both operands
# of a binary operator have the one type ``operand``). Spark SQL reference, "ANSI compliance":
# with ANSI on, overflow, division by zero and out-of-range decimals raise; with it off, integral
# overflow wraps around, division by zero and decimal overflow give NULL.
# ---------------------------------------------------------------------------------------------

import datetime as _dt
import decimal as _decimal
from functools import lru_cache as _lru_cache

from sparkcep.plan.like_pattern import like_regex

from sparkcep.evaluation import day_time_intervals, java_double_text
from sparkcep.evaluation.sql_types import (INTEGRAL_BITS, SqlType, day_time_fields, element_type, integral_bounds,
                                           low_bits, map_types, struct_fields)

# exact for any two DECIMAL(38, s) operands (Python's default context has 28 digits)
_EXACT = _decimal.Context(prec=160, rounding=_decimal.ROUND_HALF_UP, Emax=_decimal.MAX_EMAX,
                          Emin=_decimal.MIN_EMIN, traps=[_decimal.InvalidOperation, _decimal.DivisionByZero])


exact_add = _EXACT.add
exact_divide = _EXACT.divide
exact_remainder = _EXACT.remainder


def _error(code: str, message: str) -> MatchRuntimeError:
    return MatchRuntimeError(code, message)


def _integral(t: SqlType, ansi: bool, what: str, code: str = "ARITHMETIC_OVERFLOW"):
    bits = INTEGRAL_BITS[t.name]
    low, high, span = -(1 << (bits - 1)), (1 << (bits - 1)) - 1, 1 << bits

    def fit(value: int) -> int:
        if low <= value <= high:
            return value
        if ansi:
            raise _error(code, f"{what} overflowed {str(t).upper()} in a DEFINE or MEASURES expression")
        return (value - low) % span + low  # two's complement wrap-around, as the JVM does

    return fit


integral_fit = _integral  # (type, ansi, what) -> the function fitting an int into the type


def to_decimal(value: _decimal.Decimal, t: SqlType, ansi: bool):
    """``value`` as DECIMAL(p, s): rounded half up to s digits; NULL (ANSI: an error) when it
    then needs more than p digits."""
    exponent = _decimal.Decimal(1).scaleb(-t.scale)
    rounded = value.quantize(exponent, rounding=_decimal.ROUND_HALF_UP, context=_EXACT)
    digits = len(rounded.as_tuple().digits) if rounded else 0
    integral_digits = digits - t.scale if rounded else 0
    if integral_digits > t.precision - t.scale:
        if ansi:
            raise _error("NUMERIC_VALUE_OUT_OF_RANGE",
                         f"{value} cannot be represented as {str(t).upper()} in a DEFINE or MEASURES expression")
        return None
    return rounded


def _fractional_to_decimal(t: SqlType, ansi: bool, java_version: int):
    """Spark's cast of a DOUBLE (or of a FLOAT, through the DOUBLE it widens to) to DECIMAL(p,
    s), where Spark inserts it (the argument of ``floor(x, d)``): the decimal Java prints for
    the value (``BigDecimal(Double.toString(x))``, ``java_double_text`` on the session's Java
    version), rounded half up to s places; out of range NULL, or an error under ANSI; NaN and the infinities NULL, with ANSI
    on or off (as Spark gives for ``floor(double('NaN'), 2)``)."""

    def fractional_to_decimal(v: float):
        if not math.isfinite(v):
            return None
        value = _decimal.Decimal(java_double_text.double_text(abs(v) if v == 0 else v, java_version))  # no -0
        if value.adjusted() >= t.precision - t.scale:  # at least 10**(p - s): out of range
            if ansi:
                raise _error("NUMERIC_VALUE_OUT_OF_RANGE",
                             f"{v} cannot be represented as {str(t).upper()} in a DEFINE or MEASURES expression")
            return None
        return to_decimal(value, t, ansi)

    return fractional_to_decimal


def decimal_to_double(value: _decimal.Decimal, t: SqlType) -> float:
    """Spark 4's DECIMAL -> DOUBLE: the nearest DOUBLE to the exact value, whatever the
    precision (a DECIMAL(18, 4) as well as a DECIMAL(38, 10); Spark's recorded answers for
    ``(g2 * e1)`` in tests/evaluation/spark_answers.json, not its unscaled long / 10^scale)."""
    return float(value)


def nan_aware_key(value):
    """Spark's order of DOUBLE values: NaN above every number (and equal to itself)."""
    return (1, 0.0) if value != value else (0, value)


def instant_key(value):
    """A TIMESTAMP's instant: the key Python orders times of one zone by, which its own
    comparison does not (the first and the second 02:30 of the night the clocks go back compare
    equal by their local time)."""
    return value.astimezone(_dt.timezone.utc)


def order_key(operand: SqlType):
    """A key function giving Python's order of values of type ``operand`` Spark's order, or
    None when Python's own is Spark's: NaN above every number for DOUBLE/FLOAT; a TIMESTAMP's
    instant (two aware values of different zones, one at an overlap's local time, are equal in
    Spark and not in Python's ``==``); for an ARRAY,
    element by element in its element type's order, a NULL element below every value, then the
    shorter array first (``collection_functions.array_key``)."""
    if operand.fractional:
        return nan_aware_key
    if operand.name == "timestamp":
        return instant_key  # Python compares two times of one zone by their local time (PEP 495)
    element = element_type(operand)
    if element is not None:
        from sparkcep.evaluation.collection_functions import array_key

        return array_key(element)
    if struct_fields(operand) is not None:  # field by field (sparkcep.evaluation.struct_functions)
        from sparkcep.evaluation.collection_functions import element_key

        return element_key(operand)
    return None


@_lru_cache(maxsize=None)
def cast(source: SqlType, target: SqlType, ansi: bool, zone: str, java_version: int = 17):
    """The implicit cast ``source`` -> ``target`` the binding inserted (widening only; a DOUBLE
    to DECIMAL through the decimal the JVM of ``java_version`` prints for it)."""
    if source == target or source.null:
        return lambda v: v
    if element_type(source) is not None and element_type(target) is not None:  # element by element
        each = cast(element_type(source), element_type(target), ansi, zone, java_version)
        return lambda v: [None if e is None else each(e) for e in v]
    if map_types(source) is not None and map_types(target) is not None:  # the keys (never NULL)
        each = cast(map_types(source)[0], map_types(target)[0], ansi, zone, java_version)
        return lambda v: [(each(k), value) for k, value in v]
    if struct_fields(source) is not None and struct_fields(target) is not None:  # field by field, by
        # position, to the target's names (a STRUCT is a dict: sparkcep.evaluation.struct_functions)
        fields = tuple((name, cast(fs, ft, ansi, zone))
                       for (_a, fs), (name, ft) in zip(struct_fields(source), struct_fields(target)))
        return lambda v: {name: (None if x is None else f(x)) for (name, f), x in zip(fields, v.values())}
    if target.name == "float":  # rounded to the nearest FLOAT, as the JVM's (float) cast does
        import struct

        def to_float(v):
            value = decimal_to_double(v, source) if source.decimal else float(v)
            return struct.unpack("f", struct.pack("f", value))[0] if math.isfinite(value) else value

        return to_float
    if target.name == "double":
        if source.decimal:
            return lambda v: decimal_to_double(v, source)
        return float
    if target.decimal:
        if source.integral:
            return lambda v: to_decimal(_decimal.Decimal(v), target, ansi)
        if source.fractional:
            return _fractional_to_decimal(target, ansi, java_version)
        return lambda v: to_decimal(v, target, ansi)
    if target.integral and source.integral:
        if INTEGRAL_BITS[target.name] >= INTEGRAL_BITS[source.name]:
            return lambda v: v
        return _narrowing(source, target, ansi)  # a BIGINT where Spark takes an INT (add_months, ...)
    if day_time_fields(source) and day_time_fields(target):  # microseconds, whatever the fields
        return lambda v: v
    if source.name == "date" and target.name == "timestamp":
        from zoneinfo import ZoneInfo

        tz = ZoneInfo(zone)
        return lambda v: _dt.datetime(v.year, v.month, v.day, tzinfo=tz)
    if source.name == "date" and target.name == "timestamp_ntz":
        return lambda v: _dt.datetime(v.year, v.month, v.day)
    if source.name == "timestamp_ntz" and target.name == "timestamp":
        from zoneinfo import ZoneInfo

        tz = ZoneInfo(zone)  # a local time in a DST gap moves forward, in an overlap takes the earlier offset
        return lambda v: v.replace(tzinfo=tz)
    if source.name == "timestamp" and target.name == "date":  # the local date in the session time zone
        from zoneinfo import ZoneInfo

        tz = ZoneInfo(zone)
        return lambda v: v.astimezone(tz).date()
    if source.name == "timestamp_ntz" and target.name == "date":
        return lambda v: v.date()
    raise ValueError(f"no implicit cast from {source} to {target}")


def _narrowing(source: SqlType, target: SqlType, ansi: bool):
    """Spark's CAST of an integral value to a narrower integral type: out of range, its
    CAST_OVERFLOW with ANSI on, else Java's cast (the low bits, two's complement)."""
    low, high = integral_bounds(target.name)
    suffix = {"bigint": "L", "smallint": "S", "tinyint": "Y"}.get(source.name, "")

    def narrowed(v):
        if low <= v <= high:
            return v
        if ansi:
            raise MatchRuntimeError(
                "CAST_OVERFLOW", f'The value {v}{suffix} of the type "{source.name.upper()}" cannot be cast to '
                f'"{target.name.upper()}" due to an overflow')
        return low_bits(v, target.name)

    return narrowed


@_lru_cache(maxsize=None)
def comparison(name: str, operand: SqlType):
    """A comparison of two non-NULL values of type ``operand``."""
    key = order_key(operand)
    if key is not None:
        return {
            "eq": lambda a, b: key(a) == key(b), "neq": lambda a, b: key(a) != key(b),
            "gt": lambda a, b: key(a) > key(b), "gte": lambda a, b: key(a) >= key(b),
            "lt": lambda a, b: key(a) < key(b), "lte": lambda a, b: key(a) <= key(b),
        }[name]
    return {
        "eq": lambda a, b: a == b, "neq": lambda a, b: a != b, "gt": lambda a, b: a > b,
        "gte": lambda a, b: a >= b, "lt": lambda a, b: a < b, "lte": lambda a, b: a <= b,
    }[name]


def _java_remainder(a, b):
    remainder = abs(a) % abs(b)
    return -remainder if a < 0 else remainder


java_remainder = _java_remainder  # Java's % of integers (the sign of the dividend)


def _double_remainder(a: float, b: float) -> float:
    if a != a or b != b or math.isinf(a):
        return math.nan
    if math.isinf(b):
        return a
    return math.fmod(a, b)


@_lru_cache(maxsize=None)
def arithmetic(name: str, operand: SqlType, result: SqlType, ansi: bool):
    """``a <op> b`` for non-NULL values already cast to ``operand``; the result has type ``result``."""
    symbol = {"add": "+", "sub": "-", "mul": "*", "div": "/", "mod": "%"}[name]

    def by_zero():
        if name == "div":
            return _error("DIVIDE_BY_ZERO", "division by zero in a DEFINE or MEASURES expression")
        return _error("REMAINDER_BY_ZERO", "remainder by zero in a DEFINE or MEASURES expression")

    if name in ("div", "mod"):
        def guarded(apply):
            def evaluate(a, b):
                if b == 0:
                    if ansi:
                        raise by_zero()
                    return None
                return apply(a, b)
            return evaluate
    else:
        def guarded(apply):
            return apply

    if result.integral:
        # Spark names a TINYINT or SMALLINT + - * overflow BINARY_ARITHMETIC_OVERFLOW
        code = "BINARY_ARITHMETIC_OVERFLOW" if result.name in ("tinyint", "smallint") else "ARITHMETIC_OVERFLOW"
        fit = _integral(result, ansi, f"'{symbol}'", code)
        exact = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
                 "mod": _java_remainder}[name]
        return guarded(lambda a, b: fit(exact(a, b)))
    if result.fractional:
        exact = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
                 "div": lambda a, b: a / b, "mod": _double_remainder}[name]
        if result.name == "float":
            import struct

            def single(a, b):
                value = exact(a, b)
                return struct.unpack("f", struct.pack("f", value))[0] if math.isfinite(value) else value

            return guarded(single)
        return guarded(exact)
    if result.decimal:
        if name == "div":
            def divide(a, b):  # rounded once, half up, to the result's scale (Spark 4.3's answer
                # for a quotient whose digits 39 and on decide the rounding: corpus (A.w1 / B.w2))
                return to_decimal(_EXACT.divide(a, b), result, ansi)

            return guarded(divide)
        exact = {"add": _EXACT.add, "sub": _EXACT.subtract, "mul": _EXACT.multiply,
                 "mod": _EXACT.remainder}[name]
        return guarded(lambda a, b: to_decimal(exact(a, b), result, ansi))
    raise ValueError(f"no arithmetic on {result}")


@_lru_cache(maxsize=None)
def negate(t: SqlType, ansi: bool):
    if day_time_fields(t):
        return day_time_intervals.negate
    if t.integral:
        fit = _integral(t, ansi, "unary '-'")
        return lambda v: fit(-v)
    if t.decimal:
        return _EXACT.minus  # exact: Python's default context would round to 28 digits
    return lambda v: -v


@_lru_cache(maxsize=None)
def absolute(t: SqlType, ansi: bool):
    if day_time_fields(t):
        return day_time_intervals.absolute
    if t.integral:
        fit = _integral(t, ansi, "abs")
        return lambda v: fit(abs(v))
    if t.decimal:
        return _EXACT.abs
    return abs


def like(value: str, pattern: str, escape: str = "\\") -> bool:
    """``value LIKE pattern [ESCAPE escape]`` of two non-NULL strings, as Spark (UTF8_BINARY:
    case-sensitive)."""
    return like_regex(pattern, escape).fullmatch(value) is not None


def lower(value: str) -> str:
    """Spark's ``lower`` of a STRING (UTF8_BINARY, ICU case mappings, Spark's default): the
    full Unicode lowercase mapping, context-dependent final sigma included, as Python's."""
    return value.lower()


def upper(value: str) -> str:
    """Spark's ``upper`` of a STRING (UTF8_BINARY, ICU case mappings): the full Unicode
    uppercase mapping (``ß`` becomes ``SS``), as Python's."""
    return value.upper()


def length(value: str) -> int:
    """Spark's ``length`` / ``char_length`` of a STRING: its number of characters (code
    points, so a character outside the BMP counts once)."""
    return len(value)


_INT_MAX = (1 << 31) - 1


def substring(value: str, position: int, count: int = _INT_MAX) -> str:
    """Spark's ``substring(s, pos[, len])`` (``UTF8String.substringSQL``): 1-based; a
    position of 0 is the first character, a negative one counts from the end; then ``len``
    characters (none when ``len`` <= 0), clipped to the string."""
    size = len(value)
    start = position - 1 if position > 0 else (size + position if position < 0 else 0)
    end = start + count
    start = max(start, 0)
    if start >= end:
        return ""
    return value[start:end]


# Spark's scalar string functions Python evaluates between rows: strict (NULL if an operand
# is), of a STRING and (substring) INT positions
STRING_FUNCTIONS = {"lower": lower, "upper": upper, "length": length, "substring": substring}


def ilike(value: str, pattern: str, escape: str = "\\") -> bool:
    """``value ILIKE pattern [ESCAPE escape]``: Spark rewrites it to ``lower(value) LIKE
    lower(pattern)`` with the same escape character (which is not lowered)."""
    return like(lower(value), lower(pattern), escape)


def like_function(name: str, escape: str | None):
    """The function of two non-NULL strings of the plan operator ``name`` (like, ilike, rlike)."""
    if name == "rlike":
        from sparkcep.plan.java_regex import rlike

        return rlike
    function = like if name == "like" else ilike
    if escape is None or escape == "\\":
        return function
    return lambda value, pattern: function(value, pattern, escape)
