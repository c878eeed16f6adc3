"""round/bround, floor/ceil with a scale, sqrt, sign/signum, pmod, concat_ws and array_join of
values that combine rows of a match in DEFINE (issue 23), without Spark: values worked out from Spark's rules, and what
lowering and binding refuse. Against Spark itself:
tests/evaluation/test_scalar_functions_spark.py. Also Trino's min(x, n) / max(x, n), which Spark
does not have: refused in DEFINE with Spark's own error, whether the call reads one row or
several."""

from __future__ import annotations

import math
from decimal import Decimal

import pytest

import sparkcep
from sparkcep.compiler.lowering import ValueColumns
from sparkcep.errors import AnalysisError
from sparkcep.evaluation.binding import Semantics, bind
from sparkcep.evaluation.functions import nearest_float
from tests.evaluation.harness import Refused, evaluate_all, lower


def _values(qualified, values, types, ansi=True):
    results = evaluate_all(lower(qualified, ValueColumns()), values, types, Semantics(ansi=ansi))
    assert len({repr(v) for v in results.values()}) == 1, results  # every form agrees
    return next(iter(results.values()))


@pytest.mark.parametrize(("qualified", "value", "expected"), [
    ("round(coalesce(A.d, B.d), 2)", 1.005, 1.01),  # the decimal 1.005, not the binary 1.00499...
    ("round(coalesce(A.d, B.d), 2)", 2.675, 2.68),
    ("bround(coalesce(A.d, B.d), 2)", 0.125, 0.12),
    ("bround(coalesce(A.d, B.d))", 2.5, 2.0),
    ("round(coalesce(A.d, B.d))", -2.5, -3.0),
    ("round(coalesce(A.d, B.d), -2)", 1250.0, 1300.0),
    ("bround(coalesce(A.d, B.d), -2)", 1250.0, 1200.0),
    ("round(coalesce(A.d, B.d), 1000)", 5e-324, 5e-324),
])
def test_round_of_a_double(qualified, value, expected):
    assert _values(qualified, [value], ["double"]) == expected


def test_round_never_gives_negative_zero_but_sign_keeps_it():
    rounded = _values("round(coalesce(A.d, B.d))", [-0.4], ["double"])
    assert rounded == 0 and math.copysign(1, rounded) == 1
    signed = _values("sign(coalesce(A.d, B.d))", [-0.0], ["double"])
    assert signed == 0 and math.copysign(1, signed) == -1
    assert math.isnan(_values("signum(coalesce(A.d, B.d))", [math.nan], ["double"]))


def test_round_of_an_integer_overflows_as_spark():
    results = evaluate_all(lower("round(coalesce(A.i, B.i), -1)", ValueColumns()), [2147483647], ["int"],
                           Semantics(ansi=True))
    assert {repr(v) for v in results.values()} == {"<error ARITHMETIC_OVERFLOW>"}
    assert _values("round(coalesce(A.i, B.i), -1)", [2147483647], ["int"], ansi=False) == -2147483646
    assert _values("round(coalesce(A.t, B.t), -1)", [127], ["tinyint"], ansi=False) == -126


def test_round_of_a_decimal_has_spark_result_value():
    assert _values("round(coalesce(A.n, B.n), 1)", [Decimal("9.99")], ["decimal(3,2)"]) == Decimal("10.0")
    assert _values("bround(coalesce(A.n, B.n), -1)", [Decimal("25")], ["decimal(3,0)"]) == Decimal("20")


def test_a_float_rounds_to_the_nearest_float_from_the_exact_decimal():
    # halfway between two FLOATs as a DOUBLE, but the decimal is just above: the upper one
    low, high = 1.0, 1.0000001192092896  # two neighbouring FLOATs, halfway: 1 + 2**-24
    assert float(Decimal("1.000000059604644775390625000001")) == 1.000000059604644775390625  # a DOUBLE
    assert nearest_float(Decimal("1.000000059604644775390625000001")) == high
    assert nearest_float(Decimal("1.000000059604644775390624999999")) == low
    assert nearest_float(Decimal("1.000000059604644775390625")) == low  # a tie: to even


def test_pmod_wraps_as_java_int_arithmetic():
    # r = -1 % MIN_INT = -1; r + MIN_INT wraps to MAX_INT in Java; MAX_INT % MIN_INT = MAX_INT
    assert _values("pmod(coalesce(A.a, B.a), coalesce(A.b, B.b))", [-1, -2147483648], ["int", "int"]) == 2147483647
    assert _values("pmod(coalesce(A.a, B.a), coalesce(A.b, B.b))", [-7, 3], ["int", "int"]) == 2
    assert _values("pmod(coalesce(A.a, B.a), coalesce(A.b, B.b))", [-7.5, 2.0], ["double", "double"]) == 0.5
    assert _values("pmod(coalesce(A.a, B.a), coalesce(A.b, B.b))", [7, 0], ["int", "int"], ansi=False) is None


def test_concat_ws_and_array_join_skip_nulls():
    assert _values("concat_ws(',', A.s, NULL, B.s)", ["x"], ["string"]) == "x,x"
    assert _values("concat_ws(coalesce(A.s, B.s), 'a')", [None], ["string"]) is None
    assert _values("array_join(collect_list(A.s), coalesce(A.s, B.s))", ["x"], ["string"]) == "x"


@pytest.mark.parametrize(("qualified", "types"), [
    ("round(coalesce(A.s, B.s), 1)", ["string"]),  # Spark casts a STRING to DOUBLE: not here
    ("array_join(collect_list(A.s), A.i)", ["string", "int"]),  # Spark casts no delimiter
])
def test_types_spark_would_cast_are_refused(qualified, types):
    with pytest.raises(Refused) as caught:
        evaluate_all(lower(qualified, ValueColumns()), [None] * len(types), types, Semantics())
    assert str(caught.value) == "MATCH_DEPENDENT_TYPE_MISMATCH"


@pytest.mark.parametrize(("qualified", "types"), [
    ("concat_ws(',', A.i, B.i)", ["double"]),  # Spark casts to STRING: Java's digits of a DOUBLE
    ("array_join(collect_list(A.d), ',')", ["double"]),
    ("round(A.i + B.i, 1)", ["double"]),  # BigDecimal(Double.toString(x))
    ("CAST(A.i + B.i AS STRING)", ["float"]),
    ("to_json(array(A.i, B.i))", ["double"]),
    ("to_json(map('k', A.i + B.i))", ["float"]),
    ("format_string('%s', A.i + B.i)", ["double"]),
])
def test_a_doubles_digits_are_refused_when_the_java_version_is_unknown(qualified, types):
    with pytest.raises(Refused) as caught:
        evaluate_all(lower(qualified, ValueColumns()), [None] * len(types), types, Semantics(java_version=None))
    assert str(caught.value) == "MATCH_DEPENDENT_TYPE_MISMATCH"
    evaluate_all(lower(qualified, ValueColumns()), [None] * len(types), types, Semantics(java_version=21))


def _define(condition: str) -> str:
    return f"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY r MEASURES LAST(B.x) AS l PATTERN (A B) DEFINE B AS {condition})"


@pytest.mark.parametrize(("condition", "argument"), [
    ("round(A.x + B.x, B.d) > 0", "B.d"),  # Spark requires a constant scale
    ("round(A.x + B.x, 1.5) > 0", "1.5"),
    ("bround(A.x + B.x, 1001) > 0", "1001"),
    ("floor(A.x + B.x, B.d) > 0", "B.d"),
    ("ceiling(A.x + B.x, -1001) > 0", "-1001"),
])
def test_a_scale_sparkcep_does_not_evaluate_is_refused_where_written(condition, argument):
    sql = _define(condition)
    with pytest.raises(AnalysisError) as caught:
        sparkcep.transpile(sql)
    assert caught.value.code == "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION"
    assert (caught.value.line, caught.value.column) == (1, sql.index(argument, sql.index("DEFINE")) + 1)


@pytest.mark.parametrize("condition", ["min(B.x, 2) > 0", "min(A.x, 2) > B.x", "B.x > max(A.x, 3)",
                                       "B.x > max(B.x, 3)"])
def test_trino_min_max_with_a_count_is_refused_where_it_is_written(condition):
    """Spark 4.3 refuses min(x, n) / max(x, n) (WRONG_NUM_ARGS): so does sparkcep, whether the
    call reads the current row's variable or another's (row-local or match-dependent)."""
    sql = _define(condition)
    with pytest.raises(AnalysisError) as caught:
        sparkcep.transpile(sql)
    assert caught.value.code == "WRONG_NUM_ARGS"  # Spark's own code (MEASURES: Spark reports it)
    call = "min(" if "min(" in condition else "max("
    assert (caught.value.line, caught.value.column) == (1, sql.index(call) + 1)
    assert "requires 1 parameters but the actual number is 2" in str(caught.value)


def _type(qualified: str, types: list[str]) -> str:
    values = ValueColumns()
    return bind(lower(qualified, values), types, Semantics()).type


@pytest.mark.parametrize(("qualified", "value", "kind", "expected", "result_type"), [
    # the DOUBLE is cast to DECIMAL(30, 15) through the decimal Java prints (1.005, not the
    # binary 1.00499...), then rounded towards -Infinity / +Infinity
    ("floor(coalesce(A.x, B.x), 2)", -1.005, "double", Decimal("-1.01"), "decimal(18,2)"),
    ("ceil(coalesce(A.x, B.x), 2)", -1.005, "double", Decimal("-1.00"), "decimal(18,2)"),
    ("floor(coalesce(A.x, B.x), 2)", 1.005, "double", Decimal("1.00"), "decimal(18,2)"),
    ("ceiling(coalesce(A.x, B.x), 2)", 1.001, "double", Decimal("1.01"), "decimal(18,2)"),
    ("floor(coalesce(A.x, B.x), -1)", -15.0, "double", Decimal("-20"), "decimal(16,0)"),
    ("ceil(coalesce(A.x, B.x), -1)", -15.0, "double", Decimal("-10"), "decimal(16,0)"),
    ("ceil(coalesce(A.x, B.x), 0)", -0.4, "double", Decimal("0"), "decimal(16,0)"),
    ("floor(coalesce(A.x, B.x), 40)", 0.1, "double", Decimal("0.100000000000000"), "decimal(31,15)"),
    ("floor(coalesce(A.x, B.x), 2)", 0.1, "float", Decimal("0.10"), "decimal(10,2)"),
    ("floor(coalesce(A.x, B.x), 2)", -7, "int", Decimal("-7"), "decimal(11,0)"),
    ("floor(coalesce(A.x, B.x), -1)", -7, "int", Decimal("-10"), "decimal(11,0)"),
    ("ceil(coalesce(A.x, B.x), -1)", -7, "tinyint", Decimal("0"), "decimal(4,0)"),
    ("ceil(coalesce(A.x, B.x), -9)", 2147483647, "int", Decimal("3000000000"), "decimal(11,0)"),
    ("floor(coalesce(A.x, B.x), 1)", Decimal("-1.25"), "decimal(5,2)", Decimal("-1.3"), "decimal(5,1)"),
    ("ceil(coalesce(A.x, B.x), 1)", Decimal("-1.25"), "decimal(5,2)", Decimal("-1.2"), "decimal(5,1)"),
    ("floor(coalesce(A.x, B.x), -2)", Decimal("-1.25"), "decimal(5,2)", Decimal("-100"), "decimal(4,0)"),
])
def test_floor_and_ceil_with_a_scale_round_the_decimal_spark_casts_to(qualified, value, kind, expected, result_type):
    got = _values(qualified, [value], [kind])
    assert got == expected and str(got) == str(expected)  # Spark has no negative zero
    assert _type(qualified, [kind]) == result_type


def test_floor_with_a_scale_out_of_decimal_range():
    """A DOUBLE beyond DECIMAL(30, 15) (10**15 and up): an error under ANSI, NULL without; NaN
    and the infinities NULL either way; a result past 38 digits an error either way."""
    results = evaluate_all(lower("floor(coalesce(A.x, B.x), 2)", ValueColumns()), [1e15], ["double"],
                           Semantics(ansi=True))
    assert {repr(v) for v in results.values()} == {"<error NUMERIC_VALUE_OUT_OF_RANGE>"}
    assert _values("floor(coalesce(A.x, B.x), 2)", [1e15], ["double"], ansi=False) is None
    assert _values("floor(coalesce(A.x, B.x), 2)", [999999999999999.9], ["double"], ansi=False) == \
        Decimal("999999999999999.90")
    for special in (math.nan, math.inf, -math.inf):
        assert _values("ceil(coalesce(A.x, B.x), -1)", [special], ["double"], ansi=True) is None
    for ansi in (True, False):
        results = evaluate_all(lower("ceil(coalesce(A.x, B.x), -40)", ValueColumns()), [5], ["int"],
                               Semantics(ansi=ansi))
        assert {repr(v) for v in results.values()} == {"<error NUMERIC_VALUE_OUT_OF_RANGE>"}
        assert _values("floor(coalesce(A.x, B.x), -40)", [5], ["int"], ansi=ansi) == 0


def test_sqrt_is_javas():
    assert _values("sqrt(coalesce(A.x, B.x))", [2.0], ["double"]) == 1.4142135623730951
    root = _values("sqrt(coalesce(A.x, B.x))", [-0.0], ["double"])
    assert root == 0 and math.copysign(1, root) == -1
    assert math.isnan(_values("sqrt(coalesce(A.x, B.x))", [-1.0], ["double"]))
    assert math.isnan(_values("sqrt(coalesce(A.x, B.x))", [-math.inf], ["double"]))
    assert _values("sqrt(coalesce(A.x, B.x))", [9], ["int"]) == 3.0
    assert _values("sqrt(coalesce(A.x, B.x))", [None], ["double"]) is None
    assert _type("sqrt(coalesce(A.x, B.x))", ["decimal(5,2)"]) == "double"


@pytest.mark.parametrize("call", [
    "ln(A.x + B.x)", "log(A.x + B.x)", "log(2, A.x + B.x)", "log10(A.x + B.x)", "log2(A.x + B.x)",
    "log1p(A.x + B.x)", "exp(A.x + B.x)", "expm1(A.x + B.x)", "pow(A.x, B.x)", "POWER(A.x, B.x)",
    "cbrt(A.x + B.x)",
])
def test_strict_math_functions_are_evaluated_between_rows(call):
    """Spark computes them with Java's StrictMath, which sparkcep.evaluation.strict_math
    reproduces bit for bit (test_strict_math.py): accepted between rows."""
    sparkcep.transpile(_define(f"{call} > 0"))


@pytest.mark.parametrize("call", ["log1p(A.x, B.x)", "expm1(A.x, B.x, 2)"])
def test_strict_math_functions_with_other_arguments_are_refused_where_written(call):
    sql = _define(f"{call} > 0")
    with pytest.raises(AnalysisError) as caught:
        sparkcep.transpile(sql)
    assert caught.value.code == "WRONG_NUM_ARGS"
    assert (caught.value.line, caught.value.column) == (1, sql.index(call) + 1)


def test_strict_math_null_rules_and_types():
    """NULL for a logarithm of x <= 0 (log1p: x <= -1; log(b, x): b <= 0 too), NaN kept, a
    DOUBLE from any number (Spark casts the argument to DOUBLE)."""
    assert _values("ln(coalesce(A.x, B.x))", [0.0], ["double"]) is None
    assert _values("ln(coalesce(A.x, B.x))", [-0.0], ["double"]) is None
    assert _values("log10(coalesce(A.x, B.x))", [-1], ["int"]) is None
    assert _values("log1p(coalesce(A.x, B.x))", [-1.0], ["double"]) is None
    assert _values("log1p(coalesce(A.x, B.x))", [-0.5], ["double"]) == -0.6931471805599453
    assert _values("log(coalesce(A.x, B.x), 2)", [-2.0], ["double"]) is None
    assert _values("log(coalesce(A.x, B.x), 2)", [1.0], ["double"]) == math.inf  # log(2) / log(1)
    assert math.isnan(_values("ln(coalesce(A.x, B.x))", [math.nan], ["double"]))
    assert _values("exp(coalesce(A.x, B.x))", [1000], ["int"]) == math.inf
    assert _values("power(coalesce(A.x, B.x), 2)", [None], ["double"]) is None
    for call in ("ln", "log10", "log2", "log1p", "exp", "expm1", "cbrt"):
        assert _type(f"{call}(coalesce(A.x, B.x))", ["decimal(5,2)"]) == "double"
    assert _type("power(coalesce(A.x, B.x), 2)", ["bigint"]) == "double"


def test_math_functions_of_one_row_stay_with_spark():
    """Inside the navigation (or of the current row alone) Spark computes them: accepted."""
    sparkcep.transpile(_define("ln(B.x) > LAST(exp(A.x)) AND pow(B.x, 2) > 0"))


@pytest.mark.parametrize("condition", ["instr(concat(A.s, B.s), 'b', 1, 2) > 0",
                                       "instr(concat(A.s, B.s), 'b', -1) > 0", "instr(A.s, B.s, 2) > 0"])
def test_instr_with_a_position_or_an_occurrence_is_refused_where_written(condition):
    """Spark 4's instr(str, substr, position, occurrence) searches backwards from a negative
    position and counts occurrences (measured: instr('abcabc', 'b', 1, 2) is 5, instr('abcabc',
    'b', -1, 1) is 5); sparkcep read it as locate and gave 2 and 0 (found by the function
    inventory): refused between rows at the call."""
    sql = _define(condition)
    with pytest.raises(AnalysisError) as caught:
        sparkcep.transpile(sql)
    assert caught.value.code == "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION"
    assert (caught.value.line, caught.value.column) == (1, sql.index("instr", sql.index("DEFINE")) + 1)
