"""Array and map functions between rows of a match (``sparkcep.evaluation.collection_functions``):
the error codes Spark raises, the types it refuses, where sparkcep reports both, and values
worked out by hand from Spark's documented rules.

The values, and the error classes Spark raised over the corpus (INVALID_INDEX_OF_ZERO,
INVALID_ARRAY_INDEX_IN_ELEMENT_AT, INVALID_ARRAY_INDEX, INVALID_PARAMETER_VALUE of ``slice``), are
checked against Spark's recorded answers by ``test_recorded_spark_answers.py`` (ANSI on and off).
"""

from __future__ import annotations

import pytest

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.errors import AnalysisError, MatchRuntimeError
from sparkcep.evaluation import collection_functions as f
from sparkcep.evaluation.binding import Semantics, bind
from sparkcep.evaluation.interpreter import compile_expression
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.plan import expressions as p
from tests.evaluation.harness import NAMES, TwoRowMatch, evaluators, lower

# the types of the value columns the conditions below read
_TYPES = {"a": "array<int>", "b": "array<int>", "d": "array<double>", "x": "array<decimal(5,2)>",
          "s": "array<string>", "n": "int", "l": "bigint", "v": "double", "t": "string", "f": "float",
          "m": "map<int,string>", "fa": "array<float>", "nested": "array<array<int>>", "st": "array<struct<a:int>>",
          "bin": "array<binary>", "iv": "array<interval day>"}


def _statement(condition: str) -> str:
    return f"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY r PATTERN (A B) DEFINE B AS ({condition}) IS NULL)"


def _bind(condition: str, ansi: bool = True):
    values = ValueColumns()
    expression = lower(condition, values)
    return bind(expression, [_TYPES[t.strip("()`")] for t in values.texts],
                Semantics(ansi=ansi, time_zone="Europe/Berlin"), _statement(condition))


@pytest.mark.parametrize(("condition", "culprit"), [
    ("array_contains(A.a, B.t)", "array_contains"),  # Spark: ARRAY_FUNCTION_DIFF_TYPES
    ("array_contains(coalesce(A.a, B.a), NULL)", "array_contains"),  # Spark: NULL_TYPE
    ("array_contains(A.nested, B.a)", "array_contains"),  # arrays of arrays: not evaluated here
    ("array_position(A.x, B.n)", "array_position"),  # Spark: no tightest common type
    ("array_position(A.x, B.v)", "array_position"),
    ("arrays_overlap(A.x, B.d)", "arrays_overlap"),
    ("arrays_overlap(A.a, B.st)", "arrays_overlap"),
    ("element_at(A.a, B.l)", "element_at"),  # Spark: the index must be an INT
    ("element_at(A.a, B.v)", "element_at"),
    ("A.a[B.v]", "A.a[B.v]"),  # Spark: an integral index
    ("A.m[B.l]", "A.m[B.l]"),  # Spark casts the BIGINT key to INT (overflow rules not reproduced)
    ("element_at(A.m, B.t)", "element_at"),
    ("map_contains_key(coalesce(A.m, B.m), NULL)", "map_contains_key"),
    ("array_contains(A.fa, B.l)", "array_contains"),  # a BIGINT rounded to FLOAT: not reproduced
    ("slice(A.a, B.l, 1)", "slice"),
    ("array_max(coalesce(A.bin, B.bin))", "array_max"),
    ("array_min(coalesce(A.iv, B.iv)) > B.l", "array_min"),
    ("(A.m = B.m)", "A.m = B.m"),  # Spark does not compare maps
    ("(A.nested < B.nested)", "A.nested < B.nested"),
    ("array(A.n, B.t)", "array"),  # Spark casts to STRING (or to BIGINT with ANSI on)
    ("array_contains(array(A.l, B.f), 1)", "array(A.l"),  # a BIGINT rounded to FLOAT: not reproduced
])
def test_refused_types_are_reported_at_the_call(condition, culprit):
    with pytest.raises(AnalysisError) as caught:
        _bind(condition, ansi=False)
    assert caught.value.code == "MATCH_DEPENDENT_TYPE_MISMATCH"
    sql = _statement(condition)
    assert (caught.value.line, caught.value.column) == (1, sql.index(culprit, sql.index("B AS")) + 1)


def test_result_types_are_sparks():
    assert _bind("array_contains(A.a, B.v)").type == "boolean"
    assert _bind("array_position(A.a, B.l)").type == "bigint"
    assert _bind("element_at(A.x, B.n)").type == "decimal(5,2)"
    assert _bind("A.s[B.l]").type == "string"
    assert _bind("A.m[B.n]").type == "string" and _bind("A.m[B.n]").name == "map_value"
    assert _bind("size(A.m) + B.n").type == "int"
    assert _bind("array(A.n, B.f)").type == "array<double>"  # ANSI on: DOUBLE
    assert _bind("array(A.n, B.f)", ansi=False).type == "array<float>"
    assert _bind("slice(A.s, B.n, 2)").type == "array<string>"
    assert _bind("array_max(coalesce(A.x, B.x))").type == "decimal(5,2)"


def test_the_operands_are_cast_to_sparks_common_element_type():
    contains = _bind("array_contains(A.a, B.f)")  # findWiderTypeWithoutStringPromotion: FLOAT
    assert dict(contains.options)["operand"] == "float"
    assert contains.operands[0].type == "array<float>"
    decimal = _bind("array_contains(A.x, B.n)")  # DECIMAL(5,2) and INT: DECIMAL(12,2)
    assert dict(decimal.options)["operand"] == "decimal(12,2)"
    overlap = _bind("arrays_overlap(A.a, B.d)")  # findTightestCommonType: DOUBLE
    assert overlap.operands[0].type == "array<double>" and dict(overlap.options)["operand"] == "double"
    lookup = _bind("element_at(A.m, B.l)")  # the map's keys cast to BIGINT
    assert lookup.operands[0].type == "map<bigint,string>"


def test_size_of_a_missing_row_is_minus_one_without_ansi():
    # size is not NULL for NULL without ANSI (Spark's legacy size of NULL), so it is not pushed
    # into the navigation: Python evaluates it over the navigation's value, NULL for no A row
    values = ValueColumns()
    expression = lower("size(A.a)", values)
    assert isinstance(expression, p.Operator) and expression.name in ("size", "paren")
    for ansi, expected in ((False, -1), (True, None)):
        forms = evaluators(expression, ["array<int>"], Semantics(ansi=ansi))
        assert {form: evaluate([None]) for form, evaluate in forms.items()} == \
            {form: expected for form in forms}
    assert {fn([None]) for fn in evaluators(lower("array_size(A.a)", ValueColumns()), ["array<int>"],
                                             Semantics(ansi=False)).values()} == {None}


@pytest.mark.parametrize(("condition", "row", "code", "culprit"), [
    ("element_at(A.a, B.n) > 0", [[1], 0], "INVALID_INDEX_OF_ZERO", "element_at"),
    ("element_at(A.a, B.n) > 0", [[1], 2], "INVALID_ARRAY_INDEX_IN_ELEMENT_AT", "element_at"),
    ("try_element_at(A.a, B.n) > 0", [[1], 0], "INVALID_INDEX_OF_ZERO", "try_element_at"),
    ("A.a[B.n] > 0", [[1], -1], "INVALID_ARRAY_INDEX", "A.a[B.n]"),
    ("size(slice(A.a, B.n, 1)) > 0", [[1], 0], "INVALID_PARAMETER_VALUE", "slice"),
    ("size(slice(A.a, 1, B.n)) > 0", [[1], -1], "INVALID_PARAMETER_VALUE", "slice"),
])
def test_run_time_errors_point_at_the_call(condition, row, code, culprit):
    sql = _statement(condition)
    values = ValueColumns()
    expression = lower(condition, values)
    types = [{"(`a`)": "array<int>", "(`n`)": "int", "(1)": "int"}[t] for t in values.texts]
    bound = bind(expression, types, Semantics(ansi=True), sql)
    with pytest.raises(MatchRuntimeError) as caught:
        compile_expression(bound, NAMES)(TwoRowMatch([row[0] if t == "(`a`)" else row[1] if t == "(`n`)" else 1
                                                     for t in values.texts]))
    assert caught.value.code == code
    start = condition.index(culprit)
    assert caught.value.span[0] == sql.index("B AS (") + len("B AS (") + start


_INT, _DOUBLE, _TS = SqlType("int"), SqlType("double"), SqlType("timestamp")
NAN = float("nan")


def test_spot_values():
    """Values worked out by hand from Spark's documented rules (and its answers for literals)."""
    assert f.array_contains(_INT)([1, None], 1) is True
    assert f.array_contains(_INT)([1, None], 2) is None  # a NULL element might have been 2
    assert f.array_contains(_INT)([], 2) is False
    assert f.array_contains(_DOUBLE)([NAN], NAN) is True and f.array_contains(_DOUBLE)([0.0], -0.0) is True
    assert f.array_position(_INT)([None, 5, 5], 5) == 2 and f.array_position(_INT)([1], 5) == 0
    overlap = f.arrays_overlap(_INT)
    assert overlap([1, None], [1]) is True and overlap([1, None], [2]) is None
    assert overlap([], [None]) is False and overlap([None], []) is False and overlap([None], [None]) is None
    assert f.arrays_overlap(_DOUBLE)([-0.0], [0.0]) is True and f.arrays_overlap(_DOUBLE)([NAN], [NAN]) is True
    at = f.element_at(True)
    assert at([1, 2], -1) == 2 and at([1, None], 2) is None
    assert f.element_at(False)([1, 2], 3) is None and f.element_at(False)([1, 2], -3) is None
    assert f.element_at(True, tolerant=True)([1, 2], 3) is None
    assert f.subscript(True)([1, 2], 4294967297) == 2  # Number.intValue: the low 32 bits, 1
    assert f.subscript(False)([1, 2], 2) is None and f.subscript(False)([1, 2], -1) is None
    assert f.map_value(_DOUBLE)([(NAN, "n"), (0.0, "z")], NAN) == "n"
    assert f.map_value(_DOUBLE)([(0.0, "z")], -0.0) == "z" and f.map_value(_INT)([(1, "a")], 2) is None
    assert f.map_contains_key(_INT)([(1, None)], 1) is True
    assert f.array_distinct(_DOUBLE)([-0.0, 0.0, NAN, NAN, None, None])[0] == 0.0
    assert repr(f.array_distinct(_DOUBLE)([-0.0])) == "[0.0]"
    assert repr(f.array_distinct(_DOUBLE)([0.0, -0.0, NAN, NAN, None, None])) == "[0.0, nan, None]"
    assert f.array_distinct(_INT)([1, None, 1, None, 2]) == [1, None, 2]
    assert repr(f.array_extreme("array_max", _DOUBLE)([1.0, NAN, None])) == "nan"
    assert f.array_extreme("array_min", _DOUBLE)([1.0, NAN, None]) == 1.0
    assert repr(f.array_extreme("array_min", _DOUBLE)([-0.0, 0.0])) == "-0.0"  # the first of equal ones
    assert repr(f.array_extreme("array_max", _DOUBLE)([0.0, -0.0])) == "0.0"
    assert f.array_extreme("array_max", _INT)([None]) is None
    assert f.array_slice([1, 2, 3], -1, 5) == [3] and f.array_slice([1, 2, 3], -5, 2) == []
    assert f.array_slice([1, 2, 3], 5, 1) == [] and f.array_slice([1, 2, 3], 2, 0) == []
    assert f.array_slice([1, 2, 3], -2147483648, 1) == []
    with pytest.raises(MatchRuntimeError):
        f.array_slice([1], 0, -1)
    import datetime as dt
    utc, berlin = dt.timezone.utc, __import__("zoneinfo").ZoneInfo("Europe/Berlin")
    # the same instant in two zones is one TIMESTAMP
    assert f.array_contains(_TS)([dt.datetime(2024, 3, 31, 1, 30, tzinfo=utc)],
                                 dt.datetime(2024, 3, 31, 3, 30, tzinfo=berlin)) is True
