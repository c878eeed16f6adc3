"""Binding match-dependent expressions to Spark's types (no Spark needed). The expected result
types are Spark 4's own answers for the same operators (``DataFrame.schema`` of ``SELECT n + m``
etc. over DECIMAL(10,2) n, DECIMAL(38,10) m, INT i; Spark SQL reference, "Decimal arithmetic"
with allowPrecisionLoss); the differential test (``test_spark_differential.py``) checks values."""

from __future__ import annotations

import pytest

from sparkcep.errors import AnalysisError
from sparkcep.evaluation.binding import Semantics, bind
from sparkcep.plan import expressions as p

TYPES = ["decimal(10,2)", "decimal(38,10)", "int", "string", "timestamp", "double", "tinyint"]
N, M, I, S, TS, D, T = (p.CurrentRow(c) for c in range(len(TYPES)))


@pytest.mark.parametrize("name, left, right, expected", [
    ("add", N, M, "decimal(38,9)"), ("mul", N, M, "decimal(38,6)"), ("div", N, M, "decimal(38,20)"),
    ("div", M, N, "decimal(38,8)"), ("mod", M, N, "decimal(18,10)"), ("add", N, I, "decimal(13,2)"),
    ("add", I, p.Constant(__import__("decimal").Decimal("1.5")), "decimal(12,1)"),
    ("div", I, I, "double"), ("add", N, D, "double"), ("add", T, T, "tinyint"),
])
def test_result_types_are_sparks(name, left, right, expected):
    bound = bind(p.Operator(name, (left, right)), TYPES, Semantics())
    assert bound.type == expected


def test_string_with_timestamp_is_refused_at_the_operator():
    sql = "DEFINE S AS S.country + LAST(F.ts)"  # Spark refuses it too
    operator = p.Operator("add", (S, TS), span=(12, 35))
    with pytest.raises(AnalysisError) as raised:
        bind(operator, TYPES, Semantics(), sql)
    assert raised.value.code == "MATCH_DEPENDENT_TYPE_MISMATCH"
    assert (raised.value.line, raised.value.column) == (1, 13)


# Spark 4.3's casts of a STRING s and a value of another type, read from its analysed plans:
# (operator, the other type, ANSI, the type both are cast to; the result type for arithmetic,
# COALESCE and IF)
_STRING_COERCIONS = [
    ("eq", "int", True, "bigint"), ("eq", "int", False, "int"), ("lt", "tinyint", False, "tinyint"),
    ("eq", "decimal(10,2)", True, "double"), ("eq", "decimal(10,2)", False, "double"),
    ("null_safe_eq", "float", True, "double"), ("eq", "float", False, "float"), ("gt", "date", True, "date"),
    ("eq", "timestamp", False, "timestamp"), ("eq", "boolean", True, "boolean"),
    ("add", "int", True, "bigint"), ("add", "int", False, "double"), ("mul", "decimal(10,2)", True, "double"),
    ("div", "int", True, "double"), ("in", "int", True, "bigint"), ("in", "int", False, "string"),
    ("in", "date", False, "string"), ("coalesce", "int", True, "bigint"), ("coalesce", "int", False, "string"),
    ("if", "date", True, "date"), ("if", "tinyint", False, "string"),
]


@pytest.mark.parametrize("name, other, ansi, expected", _STRING_COERCIONS)
def test_a_string_and_another_type_are_cast_as_spark_casts_them(name, other, ansi, expected):
    types = ["string", other, "boolean"]
    s, x, b = (p.CurrentRow(c) for c in range(3))
    operands = {"in": (s, p.Operator("list", (x,))), "if": (b, x, s)}.get(name, (s, x))
    bound = bind(p.Operator(name, operands), types, Semantics(ansi=ansi, time_zone="UTC"))
    if bound.type == "boolean":
        assert dict(bound.options)["operand"] == expected
    else:
        assert bound.type == expected
    def casts(e):
        if isinstance(e, p.Operator):
            yield from ([e] if e.name == "converting_cast" else [])
            for o in e.operands:
                yield from casts(o)

    found = list(casts(bound))
    assert found and found[0].operands[0] in (s, x)  # the STRING parsed, or the other value as a STRING


@pytest.mark.parametrize("name, other, ansi", [
    ("greatest", "int", True), ("add", "date", True), ("add", "boolean", False), ("in", "boolean", False),
    ("coalesce", "binary", False),
])
def test_a_string_and_another_type_spark_refuses_are_refused(name, other, ansi):
    s, x = p.CurrentRow(0), p.CurrentRow(1)
    operands = (s, p.Operator("list", (x,))) if name == "in" else (s, x)
    with pytest.raises(AnalysisError):
        bind(p.Operator(name, operands), ["string", other], Semantics(ansi=ansi, time_zone="UTC"))


def test_a_malformed_string_literal_spark_casts_fails_at_registration():
    with pytest.raises(AnalysisError) as raised:
        bind(p.Operator("eq", (p.Operator("add", (I, T)), p.Constant("1.5"))), TYPES, Semantics(ansi=True))
    assert raised.value.code == "CAST_INVALID_INPUT"
    bound = bind(p.Operator("eq", (p.Operator("add", (I, T)), p.Constant("1.5"))), TYPES, Semantics(ansi=False))
    assert dict(bound.options)["operand"] == "int"  # '1.5' read as an INT without ANSI: 1


def test_implicit_casts_are_explicit():
    bound = bind(p.Operator("gt", (I, D)), TYPES, Semantics(ansi=False, time_zone="UTC"))
    cast, double = bound.operands
    assert cast == p.Operator("cast", (I,), "double", (("source", "int"), ("ansi", False), ("zone", "UTC"), ("java", 17)))
    assert double is D and dict(bound.options)["operand"] == "double"


@pytest.mark.parametrize("name", ["abs", "neg"])
def test_decimal_38_digits_survive_abs_and_minus(name):
    # found by the differential test: Python's default decimal context has 28 digits
    from decimal import Decimal

    from sparkcep.evaluation.interpreter import compile_expression

    value = Decimal("-9999999999999999999999999999.9999999999")
    bound = bind(p.Operator(name, (M,)), TYPES, Semantics())
    got = compile_expression(bound, "AB")(_Row([None, value]))
    assert str(got) == "9999999999999999999999999999.9999999999"


class _Row:
    row = 0

    def __init__(self, values):
        self.values = values

    def value(self, column, row):
        return self.values[column]


@pytest.mark.parametrize("source, target, exact", [
    (I, "bigint", True), (T, "int", True), (I, "decimal(3,1)", True), (N, "decimal(4,1)", True),
    (N, "double", True), (I, "float", True), (D, "double", True),
    # evaluation.explicit_casts: narrowing, to STRING, STRING to integral
    (I, "tinyint", True), (S, "int", True), (I, "string", True), (D, "int", True), (D, "string", True),
    # evaluation.string_casts: Spark's string parsers
    (S, "double", True), (S, "date", True), (S, "timestamp", True), (S, "decimal(5,2)", True), (S, "binary", True),
    # no Spark semantics in Python for these: refused, not guessed
    (D, "decimal(10,2)", False), (N, "float", False), (S, "interval day", False),
])
def test_explicit_casts_between_rows_only_where_python_is_exact(source, target, exact):
    sql = "DEFINE B AS CAST(A.x + B.y AS T) > 0"
    operator = p.Operator("explicit_cast", (source,), options=(("to", target), ("try", False)),
                          span=(12, 32))
    if exact:
        bound = bind(operator, TYPES, Semantics(ansi=True, time_zone="UTC"))
        assert bound is source or bound.type == target  # a cast to its own type is the value
        return
    with pytest.raises(AnalysisError) as raised:
        bind(operator, TYPES, Semantics(), sql)
    assert raised.value.code == "MATCH_DEPENDENT_TYPE_MISMATCH"
    assert (raised.value.line, raised.value.column) == (1, 13)
    assert "'CAST'" in str(raised.value)


def test_try_cast_between_rows_is_null_when_out_of_range():
    # TRY_CAST is the cast with ANSI off (NULL out of range), whatever the session's ANSI mode
    operator = p.Operator("explicit_cast", (I,), options=(("to", "decimal(3,1)"), ("try", True)))
    bound = bind(operator, TYPES, Semantics(ansi=True, time_zone="UTC"))
    assert dict(bound.options)["ansi"] is False


def test_year_month_intervals_are_refused_at_the_innermost_operator():
    """PySpark cannot pass a year-month interval to Python (no Arrow conversion): combining one
    between rows is refused at registration, located, instead of failing in the worker."""
    sql = "DEFINE B AS B.ym + A.ym > INTERVAL '3' MONTH"
    ym, other = p.CurrentRow(0), p.Navigation(frozenset({0}), False, 0, 1)
    total = p.Operator("add", (ym, other), span=(12, 23))
    with pytest.raises(AnalysisError) as raised:
        bind(p.Operator("gt", (total, p.CurrentRow(2)), span=(12, 44)),
             ["interval month", "interval year to month", "interval month"], Semantics(), sql)
    assert raised.value.code == "MATCH_DEPENDENT_TYPE_MISMATCH"
    assert (raised.value.line, raised.value.column) == (1, 13) and "year-month" in raised.value.message
    # a day-time interval is accepted
    bound = bind(p.Operator("gt", (p.Operator("sub", (TS, TS)), p.CurrentRow(0))),
                 ["interval minute", "int", "int", "int", "timestamp"], Semantics())
    assert bound.type == "boolean" and dict(bound.operands[0].options)["operand"] == "timestamp"


@pytest.mark.parametrize("value, interval, code", [
    ("9999-12-31 12:00:00", {"days": 1}, "DATETIME_OUT_OF_PYTHON_RANGE"),
    ("0001-01-01 12:00:00", {"hours": -13}, "DATETIME_OUT_OF_PYTHON_RANGE"),
])
def test_datetimes_python_cannot_hold_are_a_typed_error(value, interval, code):
    import datetime as dt

    from sparkcep.errors import MatchRuntimeError
    from sparkcep.evaluation.interpreter import compile_expression

    from tests.evaluation.harness import TwoRowMatch

    row = TwoRowMatch([dt.datetime.fromisoformat(value).replace(tzinfo=dt.timezone.utc), dt.timedelta(**interval)])
    shift = bind(p.Operator("add", (p.CurrentRow(0), p.CurrentRow(1)), span=(0, 5)),
                 ["timestamp", "interval day to second"], Semantics(time_zone="UTC"), "A + B")
    with pytest.raises(MatchRuntimeError) as raised:
        compile_expression(shift, ("A", "B"))(row)
    assert raised.value.code == code


@pytest.mark.parametrize("operator, types, values, message", [
    # a TIMESTAMP minus an interval before 0001-01-01: the message names the operator, '-'
    ("sub", ["timestamp", "interval day to second"], ["0001-01-01 12:00:00", {"hours": 13}],
     "'-' of TIMESTAMP and an interval"),
    ("add", ["timestamp", "interval day to second"], ["9999-12-31 12:00:00", {"days": 1}],
     "'+' of TIMESTAMP and an interval"),
    # 9999-12-31 23:30 UTC is 10000-01-01 00:30 in Berlin: the local date-time the difference of
    # two TIMESTAMPs reads (Spark's SubtractTimestamps) is past 9999-12-31
    ("sub", ["timestamp", "timestamp"], ["9999-12-31 23:30:00", "2024-01-01 00:00:00"], "'-' of two TIMESTAMPs"),
])
def test_datetime_results_python_cannot_hold_name_the_operator(operator, types, values, message):
    import datetime as dt

    from sparkcep.errors import MatchRuntimeError
    from sparkcep.evaluation.interpreter import compile_expression

    from tests.evaluation.harness import TwoRowMatch

    row = TwoRowMatch([dt.datetime.fromisoformat(v).replace(tzinfo=dt.timezone.utc) if isinstance(v, str)
                       else dt.timedelta(**v) for v in values])
    bound = bind(p.Operator(operator, (p.CurrentRow(0), p.CurrentRow(1)), span=(0, 5)), types,
                 Semantics(time_zone="Europe/Berlin"), "A - B")
    with pytest.raises(MatchRuntimeError) as raised:
        compile_expression(bound, ("A", "B"))(row)
    assert raised.value.code == "DATETIME_OUT_OF_PYTHON_RANGE" and message in raised.value.message


# -- typeof (binding/formatting.py) ---------------------------------------------------------------

@pytest.mark.parametrize("column, expected", [
    ("decimal(21,8)", "decimal(21,8)"), ("interval day to second", "interval day to second"),
    ("array<struct<x:int,y_2:string>>", "array<struct<x:int,y_2:string>>"), ("struct<1:int>", "struct<1:int>"),
    ("array<struct<a-b:int>>", "array<struct<a-b:int>>"),  # as Spark prints them (measured)
    # Spark prints 'struct<a b:int>' and 'struct<x_1:int,Y:string>'; sparkcep keeps the names as
    # they are (a name with ',' does not read back: refused)
    ("map<string,struct<a b:int>>", "map<string,struct<a b:int>>"),
    ("struct<x_1:int,Y:string>", "struct<x_1:int,Y:string>"), ("struct<a,b:int>", None),
])
def test_typeof_is_sparks_catalog_string_a_constant(column, expected):
    typeof = p.Operator("typeof", (p.Navigation(frozenset({0}), False, 0, 0),))
    if expected is None:
        with pytest.raises(AnalysisError) as refused:
            bind(typeof, [column], Semantics())
        assert refused.value.code == "MATCH_DEPENDENT_TYPE_MISMATCH"
        return
    assert bind(typeof, [column], Semantics()) == p.Constant(expected, "string")
