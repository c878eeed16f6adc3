"""Spark SQL types as the Python side sees them, and Spark's rules for combining them.

The types come from Spark's own analysis at registration (``DataType.simpleString()`` of each
value column); the rules below are Spark's implicit-cast (type coercion) and decimal result-type
rules for the operators sparkcep evaluates in Python (Spark SQL reference, "ANSI compliance",
"Type promotion and precedence"; decimal arithmetic as in Spark's ``DecimalPrecision`` with
``spark.sql.decimalOperations.allowPrecisionLoss`` on, its default). Where a combination is not
listed, ``common_type`` returns None and the caller refuses the expression at analysis.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

MAX_PRECISION = 38
MINIMUM_ADJUSTED_SCALE = 6

INTEGRAL = ("tinyint", "smallint", "int", "bigint")
FRACTIONAL = ("float", "double")
DATETIME = ("date", "timestamp_ntz", "timestamp")

# bits of each integral type (overflow: ANSI raises, otherwise two's complement wrap-around)
INTEGRAL_BITS = {"tinyint": 8, "smallint": 16, "int": 32, "bigint": 64}
# the decimal type an integral type widens to (DecimalType.forType)
INTEGRAL_DECIMAL = {"tinyint": (3, 0), "smallint": (5, 0), "int": (10, 0), "bigint": (20, 0)}


def integral_bounds(name: str) -> tuple[int, int]:
    """The smallest and largest value of the integral type ``name`` (TINYINT ... BIGINT)."""
    bits = INTEGRAL_BITS[name]
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def low_bits(value: int, name: str) -> int:
    """``value`` as Java's two's-complement integral type ``name`` keeps it: its low bits (a cast
    or an arithmetic result that wraps around)."""
    low, _high = integral_bounds(name)
    return (value - low) % (1 << INTEGRAL_BITS[name]) + low


@dataclass(frozen=True)
class SqlType:
    name: str  # tinyint ... bigint, float, double, decimal, string, boolean, date, timestamp, ...
    precision: int = 0
    scale: int = 0

    def __str__(self) -> str:
        return f"decimal({self.precision},{self.scale})" if self.name == "decimal" else self.name

    @property
    def integral(self) -> bool:
        return self.name in INTEGRAL

    @property
    def fractional(self) -> bool:
        return self.name in FRACTIONAL

    @property
    def decimal(self) -> bool:
        return self.name == "decimal"

    @property
    def numeric(self) -> bool:
        return self.integral or self.fractional or self.decimal

    @property
    def null(self) -> bool:
        return self.name == "void"


# the fields of Spark's day-time interval types, from the first to the last
DAY_TIME_FIELDS = ("day", "hour", "minute", "second")


def day_time_fields(t: SqlType) -> tuple[int, int] | None:
    """(first, last) field of a day-time interval type (``interval hour to second``: (1, 3)),
    None for any other type. A day-time interval is a BIGINT of microseconds whatever its
    fields (``sparkcep.evaluation.day_time_intervals``)."""
    words = t.name.split()
    if len(words) not in (2, 4) or words[0] != "interval" or words[1] not in DAY_TIME_FIELDS:
        return None
    first = DAY_TIME_FIELDS.index(words[1])
    if len(words) == 2:
        return first, first
    if words[2] != "to" or words[3] not in DAY_TIME_FIELDS:
        return None
    return first, DAY_TIME_FIELDS.index(words[3])


def day_time_interval(first: int, last: int) -> SqlType:
    """Spark's day-time interval type from field ``first`` to field ``last``."""
    if first == last:
        return SqlType(f"interval {DAY_TIME_FIELDS[first]}")
    return SqlType(f"interval {DAY_TIME_FIELDS[first]} to {DAY_TIME_FIELDS[last]}")


_DECIMAL = re.compile(r"decimal\((\d+),(\d+)\)")
_ALIASES = {"integer": "int", "long": "bigint", "short": "smallint", "byte": "tinyint",
            "real": "float", "null": "void", "timestamp_ltz": "timestamp", "bool": "boolean"}


def parse(text: str | None) -> SqlType | None:
    if text is None:
        return None
    if "struct<" in text.lower():  # field names kept as written (structs, below)
        return _parse_holding_struct(text)
    if text.strip().lower().startswith("interval"):  # Spark's names: "interval hour to second"
        return SqlType(" ".join(text.lower().split()))
    text = text.strip().lower().replace(" ", "")
    found = _DECIMAL.fullmatch(text)
    if found:
        return SqlType("decimal", int(found.group(1)), int(found.group(2)))
    if text == "decimal":
        return SqlType("decimal", 10, 0)
    return SqlType(_ALIASES.get(text, text))


def decimal_type(precision: int, scale: int) -> SqlType:
    return SqlType("decimal", precision, scale)


def bounded(precision: int, scale: int) -> SqlType:
    return decimal_type(min(precision, MAX_PRECISION), min(scale, MAX_PRECISION))


def adjusted(precision: int, scale: int) -> SqlType:
    """DecimalType.adjustPrecisionScale: keep the integral digits, give up scale (to at least
    6) when the exact result type would need more than 38 digits."""
    if precision <= MAX_PRECISION:
        return decimal_type(precision, scale)
    if scale < 0:
        return decimal_type(MAX_PRECISION, scale)
    integral_digits = precision - scale
    minimum_scale = min(scale, MINIMUM_ADJUSTED_SCALE)
    return decimal_type(MAX_PRECISION, max(MAX_PRECISION - integral_digits, minimum_scale))


def as_decimal(t: SqlType) -> SqlType | None:
    if t.decimal:
        return t
    if t.integral:
        return decimal_type(*INTEGRAL_DECIMAL[t.name])
    return None


def wider_decimal(a: SqlType, b: SqlType) -> SqlType:
    """The decimal both ``a`` and ``b`` are cast to (comparison, IN, CASE, ...): every integral
    digit of either, then as much scale as fits in 38 digits (Spark 4's
    ``DecimalType.boundedPreferIntegralDigits``: DECIMAL(30,10) with DECIMAL(38,9) is
    DECIMAL(38,9), measured on Spark 4.3)."""
    scale = max(a.scale, b.scale)
    integral = max(a.precision - a.scale, b.precision - b.scale)
    if integral + scale <= MAX_PRECISION:
        return decimal_type(integral + scale, scale)
    return decimal_type(MAX_PRECISION, max(0, MAX_PRECISION - integral))


def _numeric_wider(a: SqlType, b: SqlType, ansi: bool) -> SqlType:
    if a == b:
        return a
    if "double" in (a.name, b.name):
        return SqlType("double")
    if a.fractional or b.fractional:  # float with an integral or decimal
        # FLOAT with an integral type: DOUBLE in ANSI mode, FLOAT without (measured on Spark 4.3)
        return SqlType("double") if (a.decimal or b.decimal or ansi) else SqlType("float")
    if a.decimal or b.decimal:
        return wider_decimal(as_decimal(a), as_decimal(b))
    return a if INTEGRAL.index(a.name) >= INTEGRAL.index(b.name) else b


def common_type(types, *, ansi: bool) -> SqlType | None:
    """The type Spark casts all of ``types`` to (comparison, IN, CASE, COALESCE, GREATEST, ...),
    or None when sparkcep does not reproduce the combination (it is then refused): numbers with
    numbers, datetimes with datetimes, and each type with itself and with NULL. A STRING mixed
    with another type is ``binding.string_coercion``'s."""
    result: SqlType | None = None
    for t in types:
        if t is None:
            return None
        if t.null:
            continue
        if result is None:
            result = t
        elif result == t:
            continue
        elif result.numeric and t.numeric:
            result = _numeric_wider(result, t, ansi)
        elif result.name in DATETIME and t.name in DATETIME:
            result = SqlType(max(result.name, t.name, key=DATETIME.index))
        elif day_time_fields(result) and day_time_fields(t):
            (a_first, a_last), (b_first, b_last) = day_time_fields(result), day_time_fields(t)
            result = day_time_interval(min(a_first, b_first), max(a_last, b_last))
        elif struct_fields(result) is not None and struct_fields(t) is not None:  # structs
            result = wider_struct(result, t, ansi=ansi)
            if result is None:
                return None
        else:
            return None
    return result if result is not None else SqlType("void")


def arithmetic_type(name: str, a: SqlType, b: SqlType, ansi: bool = True) -> SqlType | None:
    """The result type of ``a <op> b`` for + - * / % on numbers (None: not numeric)."""
    if not (a.numeric or a.null) or not (b.numeric or b.null):
        return None
    if a.null and b.null:
        return SqlType("double") if name == "div" else SqlType("void")
    a = b if a.null else a
    b = a if b.null else b
    if a.fractional or b.fractional:
        mixed = a.name != b.name  # FLOAT with an integral type: DOUBLE in ANSI mode
        return SqlType("double") if name == "div" or "double" in (a.name, b.name) or a.decimal or b.decimal \
            or (ansi and mixed) else SqlType("float")
    if a.decimal or b.decimal:
        x, y = as_decimal(a), as_decimal(b)
        p1, s1, p2, s2 = x.precision, x.scale, y.precision, y.scale
        if name in ("add", "sub"):
            scale = max(s1, s2)
            return adjusted(max(p1 - s1, p2 - s2) + scale + 1, scale)
        if name == "mul":
            return adjusted(p1 + p2 + 1, s1 + s2)
        if name == "div":
            scale = max(MINIMUM_ADJUSTED_SCALE, s1 + p2 + 1)
            return adjusted(p1 - s1 + s2 + scale, scale)
        if name == "mod":
            scale = max(s1, s2)
            return adjusted(min(p1 - s1, p2 - s2) + scale, scale)
        return None
    if name == "div":
        return SqlType("double")  # '/' on integral types divides as DOUBLE
    return _numeric_wider(a, b, ansi)


# -- arrays and maps --------------------------------------------------------------------------
# Spark's ``simpleString`` of an array is ``array<element>``, of a map ``map<key,value>``; the
# element, key and value types are parsed as any type (``element_type``, ``map_types``). The
# element types sparkcep evaluates between rows (``sparkcep.evaluation.collection_functions``):
# values that reach Python as ``int``, ``float``, ``Decimal``, ``str``, ``bool``, ``date`` and
# ``datetime`` inside the lists (and lists of key-value tuples) PyArrow makes of Spark's arrays
# (and maps). Nested arrays, maps, structs, binaries and intervals are not among them.
ELEMENT_TYPES = (*INTEGRAL, *FRACTIONAL, "decimal", "string", "boolean", *DATETIME)


def _split_top_level(text: str) -> list[str]:
    """``text`` split at the commas outside parentheses and angle brackets."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "(<":
            depth += 1
        elif c in ")>":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def element_type(t: SqlType) -> SqlType | None:
    """The element type of an ARRAY type, None for any other type."""
    if t.name.startswith("array<") and t.name.endswith(">"):
        return parse(t.name[len("array<"):-1])
    return None


def map_types(t: SqlType) -> tuple[SqlType, SqlType] | None:
    """(key type, value type) of a MAP type, None for any other type."""
    if t.name.startswith("map<") and t.name.endswith(">"):
        parts = _split_top_level(t.name[len("map<"):-1])
        if len(parts) == 2:
            return parse(parts[0]), parse(parts[1])
    return None


def array_of(t: SqlType) -> SqlType:
    return SqlType(f"array<{t}>")


def map_of(key: SqlType, value: SqlType) -> SqlType:
    return SqlType(f"map<{key},{value}>")


def collection_element(t: SqlType | None) -> bool:
    """Whether sparkcep evaluates arrays (and maps) with elements (keys, values) of type ``t``:
    the ``ELEMENT_TYPES``, and STRUCTs of them (``struct_element``)."""
    return t is not None and (t.name in ELEMENT_TYPES or struct_element(t))


# the precedence of the numeric types other than DECIMAL in Spark's ``numericPrecedence``
_NUMERIC_PRECEDENCE = (*INTEGRAL, "float", "double")


def _datetime_wider(a: SqlType, b: SqlType, ansi: bool) -> SqlType | None:
    """DATE with TIMESTAMP is TIMESTAMP, TIMESTAMP_NTZ with TIMESTAMP is TIMESTAMP, DATE with
    TIMESTAMP_NTZ is TIMESTAMP_NTZ; without ANSI Spark refuses to cast an array of DATEs to
    TIMESTAMP_NTZ in the collection functions (measured on Spark 4.3), so that mix is refused."""
    if {a.name, b.name} == {"date", "timestamp_ntz"} and not ansi:
        return None
    return SqlType(max(a.name, b.name, key=DATETIME.index))


def tightest_common_type(a: SqlType, b: SqlType, *, ansi: bool) -> SqlType | None:
    """Spark's ``findTightestCommonType``, by which ``array_position``, ``arrays_overlap`` and
    ``element_at`` of a map cast their operands to one type: a type with itself or with NULL;
    the wider of two numbers other than DECIMAL (an integral number with a FLOAT is a FLOAT, ANSI
    on or off); an integral number with a DECIMAL that holds all of its digits; dates and
    timestamps as ``_datetime_wider``; None otherwise (two different DECIMALs, a DECIMAL with a
    FLOAT or DOUBLE: Spark refuses them; strings with anything else: sparkcep refuses them)."""
    if a == b or b.null:
        return a
    if a.null:
        return b
    if a.name in _NUMERIC_PRECEDENCE and b.name in _NUMERIC_PRECEDENCE:
        return max(a, b, key=lambda t: _NUMERIC_PRECEDENCE.index(t.name))
    if a.decimal and b.integral or a.integral and b.decimal:
        d, i = (a, b) if a.decimal else (b, a)
        return d if d.precision - d.scale >= INTEGRAL_DECIMAL[i.name][0] else None
    if a.name in DATETIME and b.name in DATETIME:
        return _datetime_wider(a, b, ansi)
    return None


def wider_type_without_string_promotion(a: SqlType, b: SqlType, *, ansi: bool) -> SqlType | None:
    """Spark's ``findWiderTypeWithoutStringPromotion``, by which ``array_contains`` and
    ``map_contains_key`` cast their operands to one type: ``tightest_common_type``, and besides
    it a DECIMAL with an integral number or another DECIMAL is their wider DECIMAL
    (``wider_decimal``), a DECIMAL with a FLOAT or DOUBLE a DOUBLE (measured on Spark 4.3)."""
    tightest = tightest_common_type(a, b, ansi=ansi)
    if tightest is not None:
        return tightest
    if (a.decimal or b.decimal) and a.numeric and b.numeric:
        if a.fractional or b.fractional:
            return SqlType("double")
        return wider_decimal(as_decimal(a), as_decimal(b))
    return None


def operand_type(name: str, a: SqlType, result: SqlType) -> SqlType:
    """The type operand ``a`` of arithmetic ``name`` is cast to before it applies: decimal
    arithmetic is exact on the operands' own decimal values (the result is then rounded to
    ``result``), '/' on non-decimals divides DOUBLEs, the rest works in the result type."""
    if result.decimal:
        return as_decimal(a) if not a.null else result
    if name == "div":
        return SqlType("double")
    return result


def rounded_type(argument: SqlType, scale: int) -> SqlType:
    """The result type of ``round`` / ``bround`` (and Spark's ``RoundBase``) of ``argument`` to
    ``scale`` places: the argument's own type, but for a DECIMAL(p, s) one more integral digit
    (for the carry) and scale min(s, scale), or for a negative scale DECIMAL(max(p - s + 1,
    1 - scale), 0); at most 38 digits."""
    if not argument.decimal:
        return argument
    integral = argument.precision - argument.scale + 1
    if scale < 0:
        return decimal_type(min(max(integral, 1 - scale), MAX_PRECISION), 0)
    new_scale = min(argument.scale, scale)
    return decimal_type(min(integral + new_scale, MAX_PRECISION), new_scale)


# -- structs (begin) ----------------------------------------------------------------------------
# Spark's ``simpleString`` of a struct is ``struct<name:type,...>``, each field's name as Spark
# keeps it (case preserved, not quoted: ``struct<a b:int,G:string>``). ``parse`` keeps the names
# of a type that holds a struct as they are (it lower-cases every other type name). A struct's
# value reaches Python as PyArrow hands it: a ``dict`` of field name to value, in the fields'
# order (``sparkcep.evaluation.struct_functions``). Field names Spark's ``simpleString`` cannot
# tell apart from its punctuation (``:``, ``,``, ``<``, ``>``, a backquote, white space at either
# end) are refused where a
# struct is built, and a struct type with two fields of one name (``named_struct('a', 1, 'a',
# 2)``, which Spark builds) wherever it appears: a ``dict`` cannot hold both.
_STRUCT_PUNCTUATION = (":", ",", "<", ">", "`")


def _parse_holding_struct(text: str) -> SqlType:
    """``parse`` of a type that holds a struct: the field names kept as written."""
    text = text.strip()
    lowered = text.lower()
    if lowered.startswith("array<") and text.endswith(">"):
        return array_of(_parse_holding_struct(text[len("array<"):-1]))
    if lowered.startswith("map<") and text.endswith(">"):
        parts = _split_top_level(text[len("map<"):-1])
        if len(parts) == 2:
            return map_of(_parse_holding_struct(parts[0]), _parse_holding_struct(parts[1]))
    if lowered.startswith("struct<") and text.endswith(">"):
        inner = text[len("struct<"):-1]
        fields = []
        for part in (_split_top_level(inner) if inner.strip() else []):
            name, colon, field_type = part.partition(":")
            name = name.strip()
            if len(name) > 1 and name.startswith("`") and name.endswith("`"):  # CAST(x AS STRUCT<`a b`: INT>)
                name = name[1:-1].replace("``", "`")
            if not colon:
                return SqlType(f"unparsed {text}")  # not a type sparkcep knows: refused by its users
            fields.append((name, _parse_holding_struct(field_type)))
        return struct_of(fields)
    return parse(text) if "struct<" not in lowered else SqlType(f"unparsed {text}")


def struct_of(fields) -> SqlType:
    """The STRUCT type of ``fields``, (name, type) pairs."""
    return SqlType("struct<" + ",".join(f"{name}:{t}" for name, t in fields) + ">")


@lru_cache(maxsize=None)
def struct_fields(t: SqlType) -> tuple[tuple[str, SqlType], ...] | None:
    """The (name, type) of each field of a STRUCT type, None for any other type."""
    if not (t.name.startswith("struct<") and t.name.endswith(">")):
        return None
    inner = t.name[len("struct<"):-1]
    fields = []
    for part in (_split_top_level(inner) if inner else []):
        name, _colon, field_type = part.partition(":")
        fields.append((name, _parse_holding_struct(field_type)))
    return tuple(fields)


def plain_field_names(names) -> bool:
    """Whether a struct may have fields of these names here: none holds ``simpleString``'s
    punctuation or begins or ends with white space (which a type's text does not keep apart from
    its spacing), and no two are the same."""
    names = list(names)
    return len(set(names)) == len(names) and not any(c in n for n in names for c in _STRUCT_PUNCTUATION) \
        and all(n == n.strip() for n in names)


def struct_element(t: SqlType | None) -> bool:
    """Whether sparkcep evaluates a STRUCT of type ``t`` between rows: fields of distinct plain
    names, each of a type ``collection_element`` takes, or a NULL, or such a STRUCT."""
    fields = struct_fields(t) if t is not None else None
    if fields is None or not plain_field_names(n for n, _ in fields):
        return False
    return all(collection_element(ft) or ft.null or struct_element(ft) for _, ft in fields)
# -- structs (end) ------------------------------------------------------------------------------


def wider_struct(a: SqlType, b: SqlType, *, ansi: bool) -> SqlType | None:
    """The STRUCT two STRUCT types are cast to (comparison, IN, COALESCE, IF, CASE, ``array``):
    ``a`` itself when they are equal; else, when their fields have the same names in the same
    order, each pair of field types cast to ``tightest_common_type`` (Spark's
    ``findTightestCommonType`` over structs: ``struct<a:int>`` with ``struct<a:bigint>`` is
    ``struct<a:bigint>``, with ``struct<a:decimal(2,1)>`` or ``struct<b:bigint>`` none, measured
    on Spark 4.3); None otherwise (Spark compares ``struct<a:int>`` with ``struct<b:int>``,
    which sparkcep refuses). The binding refuses a field ``operators.cast`` does not widen
    exactly (``BinderBase.common``)."""
    if a == b:
        return a
    fa, fb = struct_fields(a), struct_fields(b)
    if fa is None or fb is None or [n for n, _ in fa] != [n for n, _ in fb]:
        return None
    fields = []
    for (name, ta), (_name, tb) in zip(fa, fb):
        if struct_fields(ta) is not None or struct_fields(tb) is not None:
            common = wider_struct(ta, tb, ansi=ansi) if not (ta.null or tb.null) else (tb if ta.null else ta)
        else:
            common = tightest_common_type(ta, tb, ansi=ansi)
        if common is None:
            return None
        fields.append((name, common))
    return struct_of(fields)
