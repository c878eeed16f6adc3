"""Random typed SQL expressions for the differential test against Spark
(``test_spark_differential.py``).

Each expression is written twice: with pattern-variable qualifiers (``A.i1``, ``B.i1``: the
DEFINE of B in ``PATTERN (A B)``, so operators combining an ``A.`` and a ``B.`` operand are
evaluated by sparkcep's Python side) and without them (the row-local equivalent Spark evaluates
over one row). The harness gives the A and B rows the same values, so both texts denote the same
value. The grammar follows the types, so most expressions are valid; some deliberately mix types
Spark casts implicitly (string with number, date with timestamp, ...).
"""

from __future__ import annotations

import datetime as dt

from hypothesis import strategies as st

# column name -> Spark type; every row of a batch has a value in each
COLUMNS = {
    "i1": "INT", "i2": "INT", "l1": "BIGINT", "l2": "BIGINT", "t1": "TINYINT", "h1": "SMALLINT",
    "d1": "DOUBLE", "d2": "DOUBLE", "f1": "FLOAT", "m1": "DECIMAL(38,10)", "m2": "DECIMAL(38,10)",
    "n1": "DECIMAL(10,2)", "q1": "DECIMAL(5,3)", "q2": "DECIMAL(18,4)", "z1": "DECIMAL(38,0)",
    "s1": "STRING", "s2": "STRING", "dt1": "DATE", "dt2": "DATE",
    "ts1": "TIMESTAMP", "ts2": "TIMESTAMP", "tn1": "TIMESTAMP_NTZ", "b1": "BOOLEAN", "b2": "BOOLEAN",
}
NUMERIC = ["i1", "i2", "l1", "l2", "t1", "h1", "d1", "d2", "f1", "m1", "m2", "n1", "q1", "q2", "z1"]
INTEGRAL = ["i1", "i2", "l1", "l2", "t1", "h1"]
STRINGS = ["s1", "s2"]
TEMPORAL = ["dt1", "dt2", "ts1", "ts2", "tn1"]
BOOLEANS = ["b1", "b2"]

_INT_EDGES = {
    "INT": [0, 1, -1, 7, -7, 3, 2**31 - 1, -2**31, 46341, -100],
    "BIGINT": [0, 1, -1, 3, -3, 7, 2**63 - 1, -2**63, 2**53 + 1, 3037000500, -10**12],
    "TINYINT": [0, 1, -1, 127, -128, 12, -5],
    "SMALLINT": [0, 1, -1, 32767, -32768, 181, -7],
}
_DOUBLE_EDGES = ["NaN", "Infinity", "-Infinity", "0.0", "-0.0", "1.5", "-2.25", "1.0E300",
                 "9.007199254740993E15", "0.1", "3.0", "-3.0", "1.0E-300", "4.9E-324",
                 "1.7976931348623157E308", "-7.5"]
_FLOAT_EDGES = ["NaN", "Infinity", "-Infinity", "0.0", "-0.0", "1.5", "-2.25", "0.1", "3.0",
                "3.4028235E38", "1.4E-45", "16777217", "-7.5"]
# decimals of several precisions and scales; values with a 5 just past a result's scale tell
# HALF_UP (Spark) from HALF_EVEN rounding
_DECIMAL_EDGES = {
    "DECIMAL(38,10)": ["0", "1", "-1", "0.1", "2.5000000000", "9999999999999999999999999999.9999999999",
                       "-9999999999999999999999999999.9999999999", "0.0000000001", "12345678901234.5678901234",
                       "3", "0.0000025", "-0.0000045", "0.5", "-7"],
    "DECIMAL(10,2)": ["0", "1.00", "-1.50", "99999999.99", "-99999999.99", "0.01", "2.50", "3", "0.05", "-0.25"],
    "DECIMAL(5,3)": ["0", "0.125", "-0.125", "99.999", "-99.999", "0.005", "1.000", "-2.500", "3", "0.045"],
    "DECIMAL(18,4)": ["0", "0.0005", "-0.0015", "99999999999999.9999", "-99999999999999.9999", "2.5000", "1",
                      "-3", "0.0025"],
    "DECIMAL(38,0)": ["0", "1", "-1", "99999999999999999999999999999999999999",
                      "-99999999999999999999999999999999999999", "5", "-7", "3", "2"],
}
_STRING_EDGES = ["1", "1.5", "-3", " 2 ", "abc", "", "NaN", "Infinity", "1e3", "9223372036854775808",
                 "2024-03-31", "2024-03-31 02:30:00", "true", "x%y", "0", "é", "日本", "Äb", "😀",
                 "e\u0301", "ß", "abc\u00a0"]
_DATE_EDGES = [dt.date(2024, 3, 31), dt.date(2024, 10, 27), dt.date(2024, 3, 30), dt.date(1970, 1, 1),
               dt.date(2000, 2, 29), dt.date(1969, 12, 31)]
_TIME_EDGES = [dt.datetime(2024, 3, 31, 2, 30), dt.datetime(2024, 3, 31, 0, 0),
               dt.datetime(2024, 10, 27, 2, 30), dt.datetime(2024, 10, 27, 1, 59, 59, 999999),
               dt.datetime(2024, 3, 30, 23, 0), dt.datetime(1970, 1, 1, 0, 0),
               dt.datetime(2024, 10, 27, 3, 0), dt.datetime(2024, 3, 31, 3, 0, 0, 1)]


def _split_type_arguments(text: str) -> list[str]:
    """``K,V`` of ``MAP<K,V>`` (commas inside parentheses and brackets kept)."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c in "(<"
        depth -= c in ")>"
        if c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]]


def _sql_value(spark_type: str, value) -> str:
    if value is None:
        return f"CAST(NULL AS {spark_type})"
    if spark_type.startswith("ARRAY<"):  # a list of elements (None: a NULL element)
        element = spark_type[len("ARRAY<"):-1]
        return f"CAST(array({', '.join(_sql_value(element, e) for e in value)}) AS {spark_type})"
    if spark_type.startswith("MAP<"):  # a list of (key, value) pairs, in the map's order
        key, item = _split_type_arguments(spark_type[len("MAP<"):-1])
        if not value:
            return f"CAST(map() AS {spark_type})"
        keys = ", ".join(_sql_value(key, k) for k, _ in value)
        items = ", ".join(_sql_value(item, v) for _, v in value)
        return f"CAST(map_from_arrays(array({keys}), array({items})) AS {spark_type})"
    # -- structs (begin): a dict of field name to value, in the fields' order --
    if spark_type.startswith("STRUCT<"):
        fields = [part.split(":", 1) for part in _split_type_arguments(spark_type[len("STRUCT<"):-1])]
        cells = ", ".join(f"'{name}', {_sql_value(field_type, value[name])}" for name, field_type in fields)
        return f"CAST(named_struct({cells}) AS {spark_type})"
    # -- structs (end) --
    if spark_type in ("INT", "BIGINT", "TINYINT", "SMALLINT", "DOUBLE", "FLOAT") or spark_type.startswith("DECIMAL"):
        return f"CAST('{value}' AS {spark_type})"
    if spark_type == "STRING":
        return "'" + value.replace("'", "''") + "'"
    if spark_type == "DATE":
        return f"DATE'{value.isoformat()}'"
    if spark_type in ("TIMESTAMP", "TIMESTAMP_NTZ"):
        return f"{spark_type}'{value.isoformat(sep=' ')}'"
    if spark_type == "BOOLEAN":
        return "true" if value else "false"
    if spark_type.startswith("INTERVAL"):  # a day-time interval (a timedelta), in its own fields
        return _interval_literal(spark_type, value)
    raise ValueError(spark_type)


def _interval_literal(spark_type: str, value: dt.timedelta) -> str:
    micros = (value.days * 86_400 + value.seconds) * 1_000_000 + value.microseconds
    sign, micros = ("-" if micros < 0 else ""), abs(micros)
    fields = spark_type.split()[1:]  # e.g. DAY TO SECOND, MINUTE
    if fields == ["DAY", "TO", "SECOND"]:
        days, rest = divmod(micros, 86_400_000_000)
        seconds, fraction = divmod(rest, 1_000_000)
        return (f"INTERVAL '{sign}{days} {seconds // 3600:02}:{seconds // 60 % 60:02}:{seconds % 60:02}."
                f"{fraction:06}' DAY TO SECOND")
    if fields == ["HOUR", "TO", "SECOND"]:
        seconds, fraction = divmod(micros, 1_000_000)
        return (f"INTERVAL '{sign}{seconds // 3600}:{seconds // 60 % 60:02}:{seconds % 60:02}.{fraction:06}' "
                "HOUR TO SECOND")
    (field,) = fields
    size = {"DAY": 86_400_000_000, "HOUR": 3_600_000_000, "MINUTE": 60_000_000}[field]
    assert micros % size == 0, (spark_type, value)
    return f"INTERVAL '{sign}{micros // size}' {field}"


def _value(spark_type: str):
    if spark_type in _INT_EDGES:
        edges = st.sampled_from(_INT_EDGES[spark_type])
    elif spark_type == "DOUBLE":
        edges = st.sampled_from(_DOUBLE_EDGES)
    elif spark_type == "FLOAT":
        edges = st.sampled_from(_FLOAT_EDGES)
    elif spark_type.startswith("DECIMAL"):
        edges = st.sampled_from(_DECIMAL_EDGES[spark_type])
    elif spark_type == "STRING":
        edges = st.sampled_from(_STRING_EDGES)
    elif spark_type == "DATE":
        edges = st.sampled_from(_DATE_EDGES)
    elif spark_type in ("TIMESTAMP", "TIMESTAMP_NTZ"):
        edges = st.sampled_from(_TIME_EDGES)
    else:
        edges = st.booleans()
    return st.one_of(st.none(), edges, edges, edges, edges)  # NULL a fifth of the time


@st.composite
def rows(draw, count: int):
    """``count`` rows as SQL: one SELECT of CASTs per row (columns ``r`` then COLUMNS)."""
    texts = []
    for r in range(count):
        cells = [f"{r} AS r"] + [f"{_sql_value(t, draw(_value(t)))} AS {name}" for name, t in COLUMNS.items()]
        texts.append("SELECT " + ", ".join(cells))
    return " UNION ALL ".join(texts)


# -- expressions: (qualified text, plain text) -------------------------------------------------

def _column(names):
    @st.composite
    def column(draw):
        name = draw(st.sampled_from(names))
        return f"?.{name}", name

    return column()


def _literal(texts):
    return st.sampled_from(texts).map(lambda t: (t, t))


_NUMBER_LITERALS = ["0", "1", "-1", "2", "-3", "2147483647", "9223372036854775807L", "1.5", "0.1", "1E300",
                    "CAST('NaN' AS DOUBLE)", "CAST(NULL AS INT)", "100Y", "3.0D", "0.005", "-0.0D", "7S",
                    "CAST('Infinity' AS DOUBLE)", "-9223372036854775808L"]
_STRING_LITERALS = ["'1'", "'abc'", "'2.5'", "''", "'NaN'", "'2024-03-31'", "'é'", "'日本'"]
_TEMPORAL_LITERALS = ["DATE'2024-03-31'", "TIMESTAMP'2024-03-31 02:30:00'", "TIMESTAMP_NTZ'2024-10-27 02:30:00'"]


def _join(template: str, *parts):
    return template.format(*(q for q, _ in parts)), template.format(*(t for _, t in parts))


# regexp_* patterns (SQL text): one group each, none matching the empty string (an empty match
# before a character outside the BMP is refused, see regex_functions)
_REGEX_PATTERNS = ["'([0-9])'", "'(a|é)'", "'(\\\\d)+'", "'(.)$'", "'^(.)'", "'(日)'"]


def numbers(depth: int):
    leaf = st.one_of(_column(NUMERIC), _column(NUMERIC), _column(NUMERIC), _literal(_NUMBER_LITERALS))
    if depth == 0:
        return leaf
    sub = numbers(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(_column(NUMERIC), st.sampled_from(["+", "-", "*", "/", "%"]), _column(NUMERIC)).map(
            lambda t: _join("({} " + t[1] + " {})", t[0], t[2])),
        st.tuples(sub, st.sampled_from(["+", "-", "*", "/", "%"]), sub).map(
            lambda t: _join("({} " + t[1] + " {})", t[0], t[2])),
        sub.map(lambda a: _join("(- {})", a)),
        sub.map(lambda a: _join("abs({})", a)),
        st.tuples(st.sampled_from(["coalesce", "greatest", "least", "nullif"]), sub, sub).map(
            lambda t: _join(t[0] + "({}, {})", t[1], t[2])),
        st.tuples(st.sampled_from(["coalesce", "greatest", "least"]), sub, sub, sub).map(
            lambda t: _join(t[0] + "({}, {}, {})", t[1], t[2], t[3])),
        st.tuples(sub, sub, sub).map(lambda t: _join("nvl2({}, {}, {})", *t)),
        strings(depth - 1).map(lambda a: _join("length({})", a)),
        st.tuples(strings(depth - 1), strings(depth - 1)).map(lambda t: _join("instr({}, {})", *t)),
        st.tuples(st.sampled_from(["regexp_count", "regexp_instr"]), strings(depth - 1),
                  st.sampled_from(_REGEX_PATTERNS)).map(lambda t: _join(t[0] + "({}, " + t[2] + ")", t[1])),
        st.tuples(_column(INTEGRAL), st.sampled_from(["div", "&", "|", "^"]), _column(INTEGRAL)).map(
            lambda t: _join("({} " + t[1] + " {})", t[0], t[2])),
        st.tuples(st.sampled_from(["try_add", "try_subtract", "try_multiply", "try_divide", "try_mod"]), sub, sub).map(
            lambda t: _join(t[0] + "({}, {})", t[1], t[2])),
        st.tuples(temporals(depth - 1), temporals(depth - 1), st.sampled_from(["", ", false"])).map(
            lambda t: _join("months_between({}, {}" + t[2] + ")", t[0], t[1])),
        st.tuples(booleans(depth - 1), sub, sub).map(lambda t: _join("IF({}, {}, {})", *t)),
        st.tuples(booleans(depth - 1), sub, sub).map(
            lambda t: _join("CASE WHEN {} THEN {} ELSE {} END", *t)),
        st.tuples(sub, sub, sub).map(lambda t: _join("CASE {} WHEN {} THEN {} END", t[0], t[1], t[2])),
        # fields of dates and timestamps, seconds since the epoch
        st.tuples(st.sampled_from(_FIELD_FUNCTIONS), temporals(depth - 1)).map(lambda t: _join(t[0] + "({})", t[1])),
        st.tuples(st.sampled_from(_EXTRACT_FIELDS), temporals(depth - 1)).map(
            lambda t: _join("date_part('" + t[0] + "', {})", t[1])),
        st.tuples(sub, sub).map(lambda t: _join("nanvl({}, {})", *t)),
        st.tuples(sub, sub, sub, _column(INTEGRAL)).map(lambda t: _join("width_bucket({}, {}, {}, {})", *t)),
        # casts: narrowing, of strings and booleans
        st.tuples(sub, st.sampled_from(["CAST", "TRY_CAST"]), st.sampled_from(["TINYINT", "SMALLINT", "INT", "BIGINT"])).map(
            lambda t: _join(t[1] + "({} AS " + t[2] + ")", t[0])),
        st.tuples(strings(depth - 1), st.sampled_from(["CAST", "TRY_CAST"]), st.sampled_from(["INT", "BIGINT", "TINYINT"])).map(
            lambda t: _join(t[1] + "({} AS " + t[2] + ")", t[0])),
        booleans(depth - 1).map(lambda a: _join("CAST({} AS INT)", a)),
        # -- string casts (begin) --
        st.tuples(strings(depth - 1), st.sampled_from(["CAST", "TRY_CAST"]),
                  st.sampled_from(["DOUBLE", "FLOAT", "DECIMAL(5,2)", "DECIMAL(38,18)"])).map(
            lambda t: _join(t[1] + "({} AS " + t[2] + ")", t[0])),
        # -- string casts (end) --
        _builder_numbers(sub, strings(depth - 1)),  # array-building and map functions
        # -- inverse trigonometric and hyperbolic functions, hypot (begin) --
        st.tuples(st.sampled_from(_TRIGONOMETRIC), sub).map(lambda t: _join(t[0] + "({})", t[1])),
        st.tuples(st.sampled_from(["atan2", "hypot"]), sub, sub).map(lambda t: _join(t[0] + "({}, {})", t[1], t[2])),
        # -- inverse trigonometric and hyperbolic functions, hypot (end) --
        _lambda_numbers(sub, strings(depth - 1)),  # -- higher-order functions --
        _comparator_numbers(sub, strings(depth - 1)),  # -- array_sort with a comparator --
        _json_numbers(strings(depth - 1)),  # JSON and map functions
        _struct_numbers(sub, strings(depth - 1)),  # structs
        _datetime_rest_numbers(strings(depth - 1), temporals(depth - 1)),  # -- the rest of the datetime functions --
    )


_TRIGONOMETRIC = ["asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"]


_FIELD_FUNCTIONS = ["year", "quarter", "month", "day", "dayofweek", "weekday", "dayofyear", "weekofyear", "hour",
                    "minute", "second", "unix_timestamp"]
_EXTRACT_FIELDS = ["YEAR", "YEAROFWEEK", "QUARTER", "MONTH", "WEEK", "DAY", "DOW", "DOW_ISO", "DOY", "HOUR", "MINUTE",
                   "SECOND"]
_TRUNC_UNITS = ["'MICROSECOND'", "'SECOND'", "'MINUTE'", "'HOUR'", "'DAY'", "'WEEK'", "'MONTH'", "'QUARTER'",
                "'YEAR'", "'x'"]


def strings(depth: int):
    leaf = st.one_of(_column(STRINGS), _column(STRINGS), _literal(_STRING_LITERALS))
    if depth == 0:
        return leaf
    sub = strings(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(sub, sub).map(lambda t: _join("coalesce({}, {})", *t)),
        st.tuples(sub, sub).map(lambda t: _join("nullif({}, {})", *t)),
        st.tuples(sub, sub).map(lambda t: _join("concat({}, {})", *t)),
        st.tuples(sub, sub).map(lambda t: _join("({} || {})", *t)),
        st.tuples(booleans(depth - 1), sub, sub).map(lambda t: _join("IF({}, {}, {})", *t)),
        st.tuples(st.sampled_from(["lower", "upper"]), sub).map(lambda t: _join(t[0] + "({})", t[1])),
        st.tuples(sub, st.sampled_from(["1", "0", "-2", "3"]), st.sampled_from(["", ", 2", ", 0", ", -1"])).map(
            lambda t: _join("substring({}, " + t[1] + t[2] + ")", t[0])),
        st.tuples(sub, sub, sub).map(lambda t: _join("replace({}, {}, {})", *t)),
        st.tuples(sub, st.sampled_from(_REGEX_PATTERNS), st.sampled_from(["'<$0>'", "'-'", "''", "'$1$1'"])).map(
            lambda t: _join("regexp_replace({}, " + t[1] + ", " + t[2] + ")", t[0])),
        st.tuples(sub, st.sampled_from(_REGEX_PATTERNS), st.sampled_from(["", ", 0", ", 1"])).map(
            lambda t: _join("regexp_extract({}, " + t[1] + t[2] + ")", t[0])),
        st.tuples(sub, st.sampled_from(_REGEX_PATTERNS)).map(lambda t: _join("regexp_substr({}, " + t[1] + ")", t[0])),
        st.tuples(st.sampled_from(["trim", "ltrim", "rtrim", "reverse"]), sub).map(lambda t: _join(t[0] + "({})", t[1])),
        st.tuples(st.sampled_from(["BOTH", "LEADING", "TRAILING"]), sub, sub).map(
            lambda t: _join("trim(" + t[0] + " {} FROM {})", t[1], t[2])),
        st.tuples(st.sampled_from(["left", "right"]), sub, st.sampled_from(["0", "2", "-1"])).map(
            lambda t: _join(t[0] + "({}, " + t[2] + ")", t[1])),
        sub.map(lambda a: _join("initcap({})", a)),
        st.tuples(st.sampled_from(["url_encode", "try_url_decode", "url_decode"]), sub).map(
            lambda t: _join(t[0] + "({})", t[1])),
        st.tuples(sub, st.sampled_from(["'HOST'", "'PATH'", "'QUERY', 'a'", "'FILE'"])).map(
            lambda t: _join("try_parse_url(concat('http://', {}), " + t[1] + ")", t[0])),
        st.tuples(_column(["t1"]), sub, sub).map(lambda t: _join("elt({}, {}, {})", *t)),
        st.one_of(temporals(depth - 1), booleans(depth - 1), _column(INTEGRAL)).map(
            lambda a: _join("CAST({} AS STRING)", a)),
        # values of other types where a STRING is expected: Spark casts them implicitly
        st.tuples(st.one_of(temporals(depth - 1), booleans(depth - 1), _column(INTEGRAL + ["m1", "n1", "q1", "z1"])),
                  sub).map(lambda t: _join("concat({}, {})", *t)),
        st.tuples(st.sampled_from(["length", "upper", "trim"]), _column(INTEGRAL + ["n1"]),
                  _column(INTEGRAL + ["n1"])).map(lambda t: _join(t[0] + "(({} + {}))", t[1], t[2])),
        _builder_strings(numbers(depth - 1), sub),  # array-building and map functions
        _lambda_strings(numbers(depth - 1), sub),  # -- higher-order functions --
        _row_format_strings(numbers(depth - 1), sub),  # -- format_string with a format read from a row --
        _json_strings(sub),  # JSON and map functions
        _struct_strings(numbers(depth - 1), sub),  # structs
        _text_and_binary_strings(sub),  # split, regexp_extract_all, base64, encode, soundex, ...
        formatted(depth - 1),  # -- datetime patterns --
        java_formatted(depth - 1),  # -- format_string / printf, typeof, decode --
        java_double_texts(depth - 1),  # -- Java's Double.toString between rows (one line) --
        _datetime_rest_strings(temporals(depth - 1), sub),  # -- the rest of the datetime functions --
    )


# -- Java's Double.toString and Float.toString between rows (begin) ------------------------------
# DOUBLE and FLOAT values (sums, differences, products and quotients of the rows' d1, d2 and f1,
# whose edges hold NaN, the infinities, -0.0, 4.9E-324, 1.0E300, 0.1, ...; rounded) cast to
# STRING explicitly and where Spark casts them implicitly (java_double_text: Java 17's digits)
_FRACTIONAL = ["d1", "d2", "f1"]
_DOUBLE_TEXTS = ["CAST({} AS STRING)", "concat({}, '|')", "({} || '')", "upper(CAST({} AS STRING))",
                 "format_string('%s', {})", "to_json(array({}))", "CAST(round({}, 2) AS STRING)",
                 "CAST(bround({}, -1) AS STRING)", "substring({}, 1, 5)", "lpad({}, 22, '0')"]


def java_double_texts(depth: int):
    fractional = st.one_of(
        st.tuples(_column(_FRACTIONAL), st.sampled_from(["+", "-", "*", "/"]), _column(_FRACTIONAL)).map(
            lambda t: _join("({} " + t[1] + " {})", t[0], t[2])),
        st.tuples(_column(_FRACTIONAL), _column(_FRACTIONAL)).map(lambda t: _join("coalesce({}, {})", *t)),
        numbers(max(depth, 0)))
    return st.tuples(st.sampled_from(_DOUBLE_TEXTS), fractional).map(lambda t: _join(t[0], t[1]))
# -- Java's Double.toString and Float.toString between rows (end) --------------------------------


# -- format_string / printf, typeof and decode (begin) --
# Java's Formatter over the types sparkcep formats (not DOUBLE digits), its flags, widths and
# argument indexes; formats Java rejects; typeof of any expression; decode with STRING results
_JAVA_FORMATS = ["'%s|%S|%5s|%-4.2s'", "'%d %x %o %X'", "'%08d|%,d|%(d|%+d|% d'", "'%h %b %B %H'", "'%2$s %1$s %<s'",
                 "'%#x %#o %-6d|'", "'%c'", "'%d'", "'%s %s %s'", "'%e'", "'%(x'", "'[%%] %n'"]


def java_formatted(depth: int):
    args = st.one_of(_column(INTEGRAL + STRINGS + TEMPORAL + BOOLEANS + ["m1", "n1", "z1"]), strings(depth),
                     numbers(depth).filter(lambda t: "d1" not in t[0] and "d2" not in t[0] and "f1" not in t[0]))
    return st.one_of(
        st.tuples(st.sampled_from(["format_string", "printf"]), st.sampled_from(_JAVA_FORMATS), args, args).map(
            lambda t: _join(t[0] + "(" + t[1] + ", {}, {})", t[2], t[3])),
        st.tuples(args, args).map(lambda t: _join("typeof(coalesce({}, {}))", *t)),
        st.tuples(args, args, strings(depth)).map(lambda t: _join("decode({}, {}, {}, 'other')", *t)),
        st.tuples(args, args, strings(depth)).map(lambda t: _join("decode({}, {}, {})", *t)),
    )
# -- format_string / printf, typeof and decode (end) --


# -- datetime patterns (begin) --
# formatting patterns (Europe/Berlin's offsets, 12-hour clocks, fractions, text) and parsing ones
_FORMAT_PATTERNS = ["'yyyy-MM-dd HH:mm:ss.SSS XXX'", "'EEE, d MMM yy h:mm a'", "'D DDD F Q QQQ q L'",
                    "'k K h H m s S SSSSSS'", "'VV O x Z ZZZZZ z zzzz v'", "'G yyyyy [MM] \\'w\\''"]
_PARSE_PATTERNS = ["'yyyy-MM-dd HH:mm:ss.SSS XXX'", "'d MMM yy h:mm a'", "'yyyy-MM-dd'", "'yyyyMMddHHmmss'",
                   "'yyyy-MM-dd HH:mm[:ss][.SSSSSS]'"]


def formatted(depth: int):
    """STRINGs formatted from dates and timestamps, or from integral seconds."""
    return st.one_of(
        st.tuples(st.sampled_from(["date_format", "to_char"]), temporals(depth),
                  st.sampled_from(_FORMAT_PATTERNS)).map(lambda t: _join(t[0] + "({}, " + t[2] + ")", t[1])),
        st.tuples(_column(["t1", "h1", "i1"]), st.sampled_from(["", ", 'yyyy-MM-dd h:mm a XXX'", ", 'D Q E'"])).map(
            lambda t: _join("from_unixtime({}" + t[1] + ")", t[0])),
    )


def parsed(depth: int):
    """Dates and timestamps formatted and read back, and strings read (NULL when unread)."""
    leaf = temporals(depth)
    return st.one_of(
        st.tuples(st.sampled_from(["try_to_timestamp", "to_date", "to_timestamp_ntz"]), leaf,
                  st.sampled_from(_PARSE_PATTERNS)).map(
            lambda t: _join(t[0] + "(date_format({}, " + t[2] + "), " + t[2] + ")", t[1])),
        st.tuples(st.sampled_from(["try_to_timestamp", "try_to_date"]), strings(0), st.sampled_from(_PARSE_PATTERNS)).map(
            lambda t: _join(t[0] + "({}, " + t[2] + ")", t[1])),
    )
# -- datetime patterns (end) --


# -- the rest of the datetime functions (begin) --
# STRINGs where Spark takes a DATE or a TIMESTAMP (cast by Spark's analysis), timestamps made from
# numbers and moved between zones, day and month names
_DATE_STRINGS = ["'2024-03-31 02:30'", "'2024-10-27'", "' 2024-1-5T10:00:00Z'", "'2024-02-30'", "'2024-12-30 x'"]
_ZONES = ["'Asia/Seoul'", "'+05:30'", "'PST'", "'Europe/Berlin'", "'UTC'", "'GMT-3'"]


def _dated_strings(string):
    return st.one_of(string, _literal(_DATE_STRINGS))


def _datetime_rest_numbers(string, temporal):
    s = _dated_strings(string)
    return st.one_of(
        st.tuples(st.sampled_from(["year", "dayofweek", "weekofyear", "hour", "second", "quarter"]), s).map(
            lambda t: _join(t[0] + "({})", t[1])),
        st.tuples(s, st.one_of(s, temporal)).map(lambda t: _join("datediff({}, {})", *t)),
        st.tuples(st.one_of(s, temporal), s).map(lambda t: _join("months_between({}, {})", *t)),
    )


def _datetime_rest_temporals(leaf, string):
    s = _dated_strings(string)
    return st.one_of(
        st.tuples(st.sampled_from(["timestamp_seconds", "timestamp_millis", "timestamp_micros"]),
                  _column(["t1", "h1", "i1"])).map(lambda t: _join(t[0] + "({})", t[1])),
        _column(["d1", "n1", "f1", "q1"]).map(lambda a: _join("timestamp_seconds({})", a)),
        st.tuples(st.sampled_from(["from_utc_timestamp", "to_utc_timestamp"]), st.one_of(leaf, s),
                  st.sampled_from(_ZONES)).map(lambda t: _join(t[0] + "({}, " + t[2] + ")", t[1])),
        st.tuples(st.sampled_from(_ZONES), _column(["tn1", "dt1"])).map(
            lambda t: _join("convert_timezone(" + t[0] + ", 'Europe/Berlin', {})", t[1])),
        st.tuples(st.sampled_from(["last_day", "to_timestamp_ltz", "try_to_date"]), s).map(
            lambda t: _join(t[0] + "({})", t[1])),
        st.tuples(s, _column(["t1", "h1"])).map(lambda t: _join("date_add({}, {})", *t)),
        st.tuples(st.sampled_from(_TRUNC_UNITS), s).map(lambda t: _join("date_trunc(" + t[0] + ", {})", t[1])),
    )


def _datetime_rest_strings(temporal, string):
    return st.one_of(
        st.tuples(st.sampled_from(["dayname", "monthname"]), st.one_of(temporal, _dated_strings(string))).map(
            lambda t: _join(t[0] + "({})", t[1])),
        st.tuples(_dated_strings(string), st.sampled_from(_FORMAT_PATTERNS)).map(
            lambda t: _join("date_format({}, " + t[1] + ")", t[0])),
    )


def _datetime_rest_intervals(number):
    return st.tuples(_column(["t1", "h1", "i1"]), _column(["t1", "h1"]), number).map(
        lambda t: _join("make_dt_interval({}, {}, 0, {})", *t))
# -- the rest of the datetime functions (end) --


_INTERVAL_LITERALS = ["INTERVAL '90' MINUTE", "INTERVAL '1' DAY", "INTERVAL '-2' HOUR",
                      "INTERVAL '0 23:59:59.999999' DAY TO SECOND", "CAST(NULL AS INTERVAL SECOND)"]


def temporals(depth: int):
    leaf = st.one_of(_column(TEMPORAL), _column(TEMPORAL), _literal(_TEMPORAL_LITERALS))
    if depth <= 0:
        return leaf
    return st.one_of(
        leaf,
        st.tuples(st.sampled_from(["coalesce", "greatest", "least"]), leaf, leaf).map(
            lambda t: _join(t[0] + "({}, {})", t[1], t[2])),
        # date arithmetic (a TIMESTAMP is cast to its local date). Counts that keep the dates
        # inside 0001-9999 (TINYINT, SMALLINT days; TINYINT months): beyond, Spark answers with
        # dates Python cannot hold and sparkcep raises DATETIME_OUT_OF_PYTHON_RANGE, as the
        # corpus's recorded answers check at INT's extremes
        st.tuples(st.sampled_from(["date_add", "date_sub"]), leaf, _column(["t1", "h1"])).map(
            lambda t: _join(t[0] + "({}, {})", t[1], t[2])),
        st.tuples(leaf, _column(["t1"])).map(lambda t: _join("add_months({}, {})", t[0], t[1])),
        st.tuples(leaf, st.sampled_from(["+", "-"]), _column(["t1", "h1"])).map(
            lambda t: _join("({} " + t[1] + " {})", t[0], t[2])),
        leaf.map(lambda a: _join("last_day({})", a)),
        st.tuples(leaf, st.sampled_from(["'MO'", "'sun'", "'Friday'", "'x'"])).map(
            lambda t: _join("next_day({}, " + t[1] + ")", t[0])),
        # moved by an interval that combines rows (one row's interval alone is Catalyst's)
        st.tuples(leaf, st.sampled_from(["+", "-"]), intervals(depth - 1)).map(
            lambda t: _join("({} " + t[1] + " {})", t[0], t[2])),
        st.tuples(st.sampled_from(_TRUNC_UNITS), leaf).map(lambda t: _join("date_trunc(" + t[0] + ", {})", t[1])),
        st.tuples(leaf, st.sampled_from(["'MM'", "'WEEK'", "'YEAR'", "'QUARTER'", "'DD'"])).map(
            lambda t: _join("trunc({}, " + t[1] + ")", t[0])),
        # -- string casts (begin) --
        st.tuples(strings(depth - 1), st.sampled_from(["CAST({} AS DATE)", "TRY_CAST({} AS TIMESTAMP)",
                                                       "CAST({} AS TIMESTAMP_NTZ)", "to_date({})",
                                                       "try_to_timestamp({})"])).map(lambda t: _join(t[1], t[0])),
        # -- string casts (end) --
        parsed(0),  # -- datetime patterns --
        _datetime_rest_temporals(leaf, strings(0)),  # -- the rest of the datetime functions --
    )


def intervals(depth: int):
    """Day-time intervals: differences of dates and timestamps (on local date-times), literals,
    and their sums, differences, negations and absolute values."""
    t = temporals(0)
    leaf = st.one_of(st.tuples(t, t).map(lambda x: _join("({} - {})", *x)), _literal(_INTERVAL_LITERALS))
    if depth <= 0:
        return leaf
    sub = intervals(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(sub, st.sampled_from(["+", "-"]), sub).map(lambda x: _join("({} " + x[1] + " {})", x[0], x[2])),
        st.tuples(st.sampled_from(["abs", "-"]), sub).map(lambda x: _join(x[0] + "({})", x[1])),
        # times or divided by a number (small integral counts keep most products in range)
        st.tuples(sub, st.sampled_from(["*", "/"]), st.one_of(_column(["t1", "h1", "i1", "d1", "n1", "f1"]))).map(
            lambda x: _join("({} " + x[1] + " {})", x[0], x[2])),
        _datetime_rest_intervals(_column(["t1", "h1", "n1", "q1", "s1"])),  # -- the rest of the datetime functions --
    )


def _comparison(left, right):
    return st.tuples(left, st.sampled_from(["=", "<>", "<", "<=", ">", ">=", "<=>"]), right).map(
        lambda t: _join("({} " + t[1] + " {})", t[0], t[2]))


def booleans(depth: int):
    leaf = st.one_of(_column(BOOLEANS), _column(BOOLEANS), _literal(["true", "false", "CAST(NULL AS BOOLEAN)"]))
    if depth < 0:
        return leaf
    n, s, t = numbers(max(depth - 1, 0)), strings(max(depth - 1, 0)), temporals(max(depth - 1, 0))
    sub = booleans(depth - 1)
    choices = [
        leaf,
        _comparison(n, n), _comparison(n, n), _comparison(s, s), _comparison(t, t),
        _comparison(s, n), _comparison(n, s), _comparison(s, t),
        _comparison(intervals(max(depth - 1, 0)), intervals(max(depth - 1, 0))),
        st.tuples(n, n, n).map(lambda x: _join("({} BETWEEN {} AND {})", *x)),
        st.tuples(n, n, n).map(lambda x: _join("({} IN ({}, {}))", *x)),
        st.tuples(n, n, n, n).map(lambda x: _join("({} NOT IN ({}, {}, {}))", *x)),
        st.tuples(s, s, s).map(lambda x: _join("({} IN ({}, {}))", *x)),
        st.tuples(t, t, t).map(lambda x: _join("({} BETWEEN {} AND {})", *x)),
        st.tuples(n, n).map(lambda x: _join("({} IS DISTINCT FROM {})", *x)),
        st.tuples(n, n).map(lambda x: _join("({} IS NOT DISTINCT FROM {})", *x)),
        st.tuples(s, st.sampled_from(["'1%'", "'%b%'", "'_'", "'x\\\\%y'"])).map(
            lambda x: _join("({} LIKE " + x[1] + ")", x[0])),
        st.tuples(st.sampled_from(["contains", "startswith", "endswith"]), s, s).map(
            lambda x: _join(x[0] + "({}, {})", x[1], x[2])),
        st.tuples(s, s).map(lambda x: _join("({} LIKE {})", *x)),  # a pattern from a row
        st.tuples(s, s).map(lambda x: _join("({} ILIKE {})", *x)),
        st.tuples(s, s).map(lambda x: _join("({} LIKE {} ESCAPE '/')", *x)),
        st.tuples(s, s).map(lambda x: _join("({} NOT LIKE ANY ({}, 'a%'))", *x)),
        # RLIKE: literal patterns only (a pattern from a row may be one sparkcep refuses)
        st.tuples(s, st.sampled_from(["'^a'", "'b$'", "'\\\\d'", "'[a-c]+'", "'.'", "'^$'", "'1|é'"])).map(
            lambda x: _join("({} RLIKE " + x[1] + ")", x[0])),
        n.map(lambda a: _join("isnan({})", a)),
        st.one_of(n, s).map(lambda a: _join("CAST({} AS BOOLEAN)", a)),
        st.one_of(n, s, t).map(lambda a: _join("({} IS NULL)", a)),
        st.one_of(n, s).map(lambda a: _join("({} IS NOT NULL)", a)),
        _builder_booleans(n, s),  # array-building and map functions
        _lambda_booleans(n, s),  # -- higher-order functions --
        _json_booleans(s),  # JSON and map functions
        _struct_booleans(n, s),  # structs
        java_formatted(max(depth - 1, 0)).map(lambda a: _join("(md5({}) < '8')", a)),  # format_string, typeof, decode
        # -- datetime patterns (begin) --
        _comparison(formatted(max(depth - 1, 0)), s), _comparison(parsed(max(depth - 1, 0)), t),
        # -- datetime patterns (end) --
    ]
    if depth > 0:
        choices += [
            st.tuples(sub, st.sampled_from(["AND", "OR"]), sub).map(
                lambda x: _join("({} " + x[1] + " {})", x[0], x[2])),
            sub.map(lambda a: _join("(NOT {})", a)),
            st.tuples(sub, st.sampled_from(["IS TRUE", "IS FALSE", "IS NOT TRUE", "IS NOT FALSE"])).map(
                lambda x: _join("({} " + x[1] + ")", x[0])),
        ]
    return st.one_of(*choices)


# -- array-building and map functions between rows (begin) ---------------------------------------
# (sparkcep.evaluation.collection_builders) over arrays and maps built from the rows' scalars;
# counts and sequence bounds from TINYINT columns keep every array small
def _builder_numbers(n, s):
    small = _column(["t1"])
    return st.one_of(
        st.tuples(st.sampled_from(["array_union", "array_intersect", "array_except"]), n, n, n, n).map(
            lambda t: _join("size(" + t[0] + "(array({}, {}), array({}, {})))", *t[1:])),
        st.tuples(st.sampled_from(["sort_array", "array_sort", "reverse", "array_compact"]), n, n, n).map(
            lambda t: _join("element_at(" + t[0] + "(array({}, {}, {})), 1)", *t[1:])),
        st.tuples(n, n, n).map(lambda t: _join("element_at(sort_array(array({}, {}, {}), false), -1)", *t)),
        st.tuples(small, small).map(lambda t: _join("size(sequence({}, {}))", *t)),
        st.tuples(small, small, small).map(lambda t: _join("element_at(sequence({}, {}, {}), -1)", *t)),
        st.tuples(n, small).map(lambda t: _join("size(array_repeat({}, CAST({} AS INT)))", *t)),
        st.tuples(n, n, small, n).map(
            lambda t: _join("element_at(array_insert(array({}, {}), CAST({} AS INT), {}), 1)", *t)),
        st.tuples(n, n, n).map(lambda t: _join("get(array_append(array({}, {}), {}), 2)", *t)),
        st.tuples(n, n, n).map(lambda t: _join("element_at(array_prepend(array({}, {}), {}), 1)", *t)),
        st.tuples(n, n, n).map(lambda t: _join("size(array_remove(array({}, {}), {}))", *t)),
        st.tuples(n, n, n, n).map(lambda t: _join("element_at(concat(array({}, {}), array({}, {})), 3)", *t)),
        st.tuples(n, s, n, s).map(lambda t: _join("cardinality(map_keys(map({}, {}, {}, {})))", *t)),
        st.tuples(s, n, s, n, s).map(lambda t: _join("map({}, {}, {}, {})[{}]", *t)),
        st.tuples(s, n, s, n).map(lambda t: _join("element_at(map_values(map({}, {}, {}, {})), 2)", *t)),
    )


def _builder_strings(n, s):
    return st.one_of(
        st.tuples(s, s, s, st.sampled_from(["true", "false"])).map(
            lambda t: _join("array_join(sort_array(array({}, {}, {}), " + t[3] + "), ',')", *t[:3])),
        st.tuples(s, s, s).map(lambda t: _join("array_join(array_union(array({}), array({}, {})), '-', 'null')", *t)),
        st.tuples(_column(INTEGRAL + ["dt1", "ts1", "tn1", "b1", "n1"]), _column(INTEGRAL + ["dt2", "ts2", "b2", "q1"]),
                  s).map(lambda t: _join("array_join(array({}, {}), {})", *t)),
        st.tuples(s, s).map(lambda t: _join("element_at(map_keys(map({}, 1, {}, 2)), 1)", *t)),
    )


def _builder_booleans(n, s):
    return st.one_of(
        st.tuples(n, n, n, n, n).map(lambda t: _join("array_contains(array_intersect(array({}, {}), array({}, {})), {})", *t)),
        st.tuples(n, n, n, n).map(lambda t: _join("(sort_array(array({}, {})) = array_sort(array({}, {})))", *t)),
        st.tuples(s, s, s, s).map(lambda t: _join("(array_except(array({}, {}), array({})) = array({}))", *t)),
        # the key looked up is a column: Spark folds map_contains_key(m, NULL) to NULL without building m
        # (a NULL_MAP_KEY there is the documented difference of constants Spark folds)
        st.tuples(n, n, _column(INTEGRAL)).map(lambda t: _join("map_contains_key(map({}, 1, {}, 2), {})", *t)),
    )
# -- array-building and map functions between rows (end) -----------------------------------------


# -- structs between rows (begin) ----------------------------------------------------------------
# (sparkcep.evaluation.struct_functions) structs built from the rows' scalars: fields read back,
# structs compared (field by field), in arrays and maps, map_entries, map_from_entries, arrays_zip
def _struct_numbers(n, s):
    return st.one_of(
        st.tuples(n, s).map(lambda t: _join("named_struct('a', {}, 'b', {}).a", *t)),
        st.tuples(n, s, n, s).map(
            lambda t: _join("coalesce(named_struct('a', {}, 'b', {}), named_struct('a', {}, 'b', {})).a", *t)),
        st.tuples(n, n, n).map(lambda t: _join("element_at(arrays_zip(array({}, {}), array({})), 2)['1']", *t)),
        st.tuples(s, n, s).map(lambda t: _join("map_from_entries(array(named_struct('k', {}, 'v', {})))[{}]", *t)),
        st.tuples(n, s, n, s).map(lambda t: _join(
            "element_at(sort_array(array(named_struct('a', {}, 'b', {}), named_struct('a', {}, 'b', {}))), 1).a", *t)),
    )


def _struct_strings(n, s):
    return st.one_of(
        st.tuples(n, s).map(lambda t: _join("named_struct('a', {}, 'b', {})['B']", *t)),
        st.tuples(s, s).map(lambda t: _join("element_at(map_entries(map({}, {})), 1).value", *t)),
        st.tuples(n, s, n, s).map(lambda t: _join(
            "greatest(named_struct('a', {}, 'b', {}), named_struct('a', {}, 'b', {})).b", *t)),
    )


def _struct_booleans(n, s):
    return st.one_of(
        st.tuples(st.sampled_from(["=", "<", "<=>", ">="]), n, s, n, s).map(
            lambda t: _join("(named_struct('a', {}, 'b', {}) " + t[0] + " named_struct('a', {}, 'b', {}))", *t[1:])),
        st.tuples(n, s, n, s, n, s).map(lambda t: _join(
            "(named_struct('a', {}, 'b', {}) IN (named_struct('a', {}, 'b', {}), named_struct('a', {}, 'b', {})))", *t)),
        st.tuples(n, s).map(lambda t: _join("(named_struct('a', {}, 'b', {}) IS NULL)", *t)),
        st.tuples(n, n, n).map(lambda t: _join(
            "array_contains(array(named_struct('a', {}), named_struct('a', {})), named_struct('a', {}))", *t)),
    )
# -- structs between rows (end) ------------------------------------------------------------------


# -- higher-order functions between rows (begin) -------------------------------------------------
# (sparkcep.evaluation.higher_order_functions) over arrays and maps built from the rows' scalars,
# lambda bodies reading the rows too (x, y, i, k, v, acc: the lambdas' variables, no column's
# name); aggregate's merge keeps the start's type (DOUBLE, STRING), as Spark requires
def _lambda_numbers(n, s):
    return st.one_of(
        st.tuples(n, n, n, n).map(lambda t: _join("size(filter(array({}, {}, {}), x -> x > {}))", *t)),
        st.tuples(n, n, n).map(lambda t: _join("element_at(transform(array({}, {}), (x, i) -> x * i + {}), 2)", *t)),
        st.tuples(n, n, n).map(
            lambda t: _join("aggregate(array({}, {}), 0D, (acc, x) -> acc + CAST(x AS DOUBLE) * {})", *t)),
        st.tuples(n, n, n, n).map(
            lambda t: _join("element_at(zip_with(array({}, {}), array({}), (x, y) -> coalesce(x, y, {})), 2)", *t)),
        st.tuples(n, s, n, s, n).map(
            lambda t: _join("cardinality(map_filter(map({}, {}, {}, {}), (k, v) -> k < {} OR v IS NULL))", *t)),
        st.tuples(_column(["i1", "i2"]), s, _column(["i1", "i2"]), s).map(
            lambda t: _join("cardinality(map_zip_with(map({}, {}), map({}, {}), (k, x, y) -> coalesce(x, y)))", *t)),
    )


def _lambda_strings(n, s):
    return st.one_of(
        st.tuples(s, s, s).map(lambda t: _join("element_at(transform(array({}, {}), x -> concat(x, {})), 2)", *t)),
        st.tuples(s, s, s, s).map(lambda t: _join("array_join(filter(array({}, {}, {}), x -> x <> {}), ',')", *t)),
        st.tuples(s, s, s).map(lambda t: _join("aggregate(array({}, {}), '', (acc, x) -> concat(acc, coalesce(x, {})))", *t)),
        st.tuples(s, s, s).map(
            lambda t: _join("element_at(map_values(transform_values(map('a', {}, 'b', {}), (k, v) -> concat(k, v, {}))), 2)", *t)),
    )


def _lambda_booleans(n, s):
    return st.one_of(
        st.tuples(n, n, n, n).map(lambda t: _join("exists(array({}, {}, {}), x -> x > {})", *t)),
        st.tuples(n, n, n).map(lambda t: _join("forall(array({}, {}), x -> x <> {})", *t)),
        st.tuples(s, s, s).map(lambda t: _join("exists(array({}, {}), x -> x LIKE {})", *t)),
        st.tuples(n, n, n, n).map(lambda t: _join("exists(transform(array({}, {}), x -> x - {}), y -> y < {})", *t)),
    )
# -- higher-order functions between rows (end) ---------------------------------------------------
# -- array_sort with a comparator, format_string with a format read from a row (begin) -----------
# (sparkcep.evaluation.comparator_sort, row_formats) over arrays built from the rows' scalars:
# consistent comparators, inconsistent ones reading a row, NULL answers (a NULL element's
# length), INT casts of other numbers; formats built from a row's string or chosen by a row
def _comparator_numbers(n, s):
    return st.one_of(
        st.tuples(n, n, n).map(
            lambda t: _join("element_at(array_sort(array({}, {}, {}), (x, y) -> IF(x < y, 1, IF(x > y, -1, 0))), 1)", *t)),
        st.tuples(n, n, n, n).map(
            lambda t: _join("element_at(array_sort(array({}, {}, {}), (x, y) -> IF(x < {}, -1, 1)), 2)", *t)),
        st.tuples(_column(INTEGRAL), _column(INTEGRAL), _column(INTEGRAL)).map(
            lambda t: _join("element_at(array_sort(array({}, {}), (x, y) -> CAST(y - x AS INT) + {}), 1)", *t)),
        st.tuples(s, s, s).map(
            lambda t: _join("length(array_join(array_sort(array({}, {}, {}), (x, y) -> length(x) - length(y)), '|'))", *t)),
    )


def _row_format_strings(n, s):
    return st.one_of(
        st.tuples(s, s).map(lambda t: _join("format_string(concat({}, '|%s|%<S'), {})", *t)),
        st.tuples(n, n, _column(INTEGRAL), s).map(
            lambda t: _join("format_string(IF({} > {}, '%d|%s', '%2$s'), {}, {})", *t)),
        st.tuples(s, _column(INTEGRAL + STRINGS)).map(lambda t: _join("printf(concat('%', {}), {})", *t)),
    )
# -- array_sort with a comparator, format_string with a format read from a row (end) -------------
# -- JSON and map functions between rows (begin) -------------------------------------------------
# (sparkcep.evaluation.json_functions, map_functions) over JSON texts and maps built from the rows'
# strings (whose edges hold JSON scalars, 1e3, NaN, '' and characters outside the BMP)
_JSON_PATHS = ["'$.a'", "'$.b[0]'", "'$.b[*]'", "'$'", "'$.*'", "'$.b[1]'", "'$.c'", "'$[ 1]'"]


# map keys from the rows' columns, each distinct and never NULL: Spark folds a constant NULL operand
# of a function (NullPropagation) without evaluating the others, while sparkcep reads a constant
# expression over a row as a value and evaluates them, so a key that raises (NULL_MAP_KEY,
# DUPLICATED_MAP_KEY) would raise only in sparkcep; the corpus checks those errors
# (docs/semantics.md, the known differences of map(...)); a map(...) of literals is such a constant too
_keys = _column(["s1", "s2"])


def _key(prefix: str) -> str:
    return "concat('" + prefix + "', coalesce({}, ''))"


def _json_strings(s):
    text = st.tuples(s, s).map(lambda t: _join("concat('{{\"a\":', {}, ',\"b\":[', {}, ']}}')", *t))
    return st.one_of(
        st.tuples(text, st.sampled_from(_JSON_PATHS)).map(lambda t: _join("get_json_object({}, " + t[1] + ")", t[0])),
        st.tuples(s, s).map(lambda t: _join("get_json_object(concat('[\"', {}, '\",', {}, ']'), '$[*]')", *t)),
        st.tuples(s, s).map(lambda t: _join("to_json(array({}, {}))", *t)),
        st.tuples(_keys, _column(INTEGRAL), _keys, _column(INTEGRAL)).map(
            lambda t: _join("to_json(map(" + _key("a") + ", {}, " + _key("b") + ", {}))", *t)),
        st.tuples(s, s).map(lambda t: _join("to_json(str_to_map(concat({}, ':', {})))", *t)),
        st.tuples(s, s, s).map(lambda t: _join("element_at(str_to_map(concat('a', {}, ',b', {})), {})", *t)),
        st.tuples(s, s).map(lambda t: _join("array_join(json_object_keys(concat('{{\"', {}, '\":1,\"', {}, '\":2}}')), ',')", *t)),
        st.tuples(_keys, _keys, _keys).map(lambda t: _join(
            "to_json(map_concat(map(" + _key("a") + ", 1), map(" + _key("b") + ", 2), map(" + _key("c") + ", 3)))", *t)),
    )


def _json_numbers(s):
    return st.one_of(
        st.tuples(s, s).map(lambda t: _join("json_array_length(concat('[', {}, ',', {}, ']'))", *t)),
        st.tuples(_keys, _keys).map(lambda t: _join("size(map_concat(map(" + _key("a") + ", 1), map(" + _key("b") + ", 2)))", *t)),
        st.tuples(s, s).map(lambda t: _join("size(str_to_map(concat('a', {}, ';b', {}), ';', ''))", *t)),
    )


def _json_booleans(s):
    return st.tuples(s, s, s).map(lambda t: _join("map_contains_key(str_to_map(concat({}, ':', {})), {})", *t))
# -- JSON and map functions between rows (end) ---------------------------------------------------


def _qualify(texts):
    """Qualify the column references A, B, A, B, ... in text order: most operators then combine
    an A row with a B row, so Python evaluates them (an operator over one row's columns is
    computed by Catalyst)."""
    qualified, plain = texts
    parts = qualified.split("?.")
    out = parts[0]
    for i, part in enumerate(parts[1:]):
        out += ("A." if i % 2 == 0 else "B.") + part
    return out, plain


def expressions(depth: int = 2):
    """A boolean (mostly: DEFINE conditions), numeric or string expression."""
    return st.one_of(booleans(depth), booleans(depth), numbers(depth), numbers(depth), strings(1),
                     temporals(1)).map(_qualify)


# -- split, regexp_extract_all, STRING and BINARY conversions, soundex, ... (begin) --
# split's patterns (SQL text) match no empty string (an empty match before a character outside
# the BMP is refused, see regex_functions), but the empty pattern, which splits into characters
_SPLIT_PATTERNS = ["','", "'[aé]'", "'\\\\d'", "'b+'", "''", "' '"]
_CHARSETS = ["'utf-8'", "'UTF-16'", "'utf-16le'", "'utf-32'", "'us-ascii'", "'iso-8859-1'"]


def _text_and_binary_strings(s):
    """STRINGs from split, regexp_extract_all (joined), base64, base32 and the charsets, soundex,
    quote, mask, luhn_check and factorial (cast to STRING)."""
    return st.one_of(
        st.tuples(s, st.sampled_from(_SPLIT_PATTERNS), st.sampled_from(["", ", 2", ", 0", ", -1", ", 1"])).map(
            lambda t: _join("array_join(split({}, " + t[1] + t[2] + "), '|')", t[0])),
        st.tuples(s, st.sampled_from(_REGEX_PATTERNS), st.sampled_from(["", ", 0", ", 1"])).map(
            lambda t: _join("array_join(regexp_extract_all({}, " + t[1] + t[2] + "), ',')", t[0])),
        st.tuples(st.sampled_from(["base64({})", "hex(unbase64({}))", "hex(try_to_binary({}, 'base64'))",
                                   "hex(try_to_binary({}, 'hex'))", "hex(to_binary({}, 'utf-8'))", "soundex({})",
                                   "quote({})", "CAST(luhn_check({}) AS STRING)", "base64(unbase64({}))",
                                   "mask({})", "mask({}, NULL, 'q', '#', '*')", "to_base32({})",
                                   "hex(from_base32({}))"]), s).map(
            lambda t: _join(t[0], t[1])),
        st.tuples(s, st.sampled_from(_CHARSETS)).map(
            lambda t: _join("decode(encode({}, " + t[1] + "), " + t[1] + ")", t[0])),
        st.tuples(s, st.sampled_from(_CHARSETS)).map(lambda t: _join("hex(encode({}, " + t[1] + "))", t[0])),
        st.tuples(_column(["t1", "h1", "i1"]), _column(["t1", "h1", "i1"])).map(
            lambda t: _join("CAST(factorial((({} + {}) % 22)) AS STRING)", *t)),
    )
# -- split, regexp_extract_all, STRING and BINARY conversions, soundex, ... (end) --
