"""STRUCT values between rows of a match (``sparkcep.evaluation.struct_functions``,
``binding/structs.py``): what Spark's recorded answers for the corpus cannot show, without Spark.
Field names (``struct``'s and ``arrays_zip``'s, measured on Spark 4.3), the refusals at the call
(Spark's AMBIGUOUS_REFERENCE_TO_FIELDS and FIELD_NOT_FOUND, two fields of one name, generators in
DEFINE: Spark's UNSUPPORTED_GENERATOR.OUTSIDE_SELECT), Spark's optimizer over ``named_struct``
(IS NULL folded, a field access reading its field alone), which calls are pushed into a
navigation, LAST_WIN, and values worked out by hand.

The values are checked against Spark's recorded answers for the corpus by
``test_recorded_spark_answers.py`` (ANSI on and off), end to end by ``test_structs_spark.py``.
"""

from __future__ import annotations

import math

import pytest

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.errors import AnalysisError, MatchRuntimeError, SparkCepError
from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation import struct_functions as sf
from sparkcep.evaluation.binding import Semantics, bind
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.plan import expressions as p
from tests.evaluation.harness import _Error, evaluate_all, lower

ANSI = Semantics(ansi=True, time_zone="UTC")
COLUMNS = {"k": "int", "l": "bigint", "x": "decimal(3,1)", "d": "double", "s": "string", "ts": "timestamp",
           "st": "struct<f:int,G:string>", "sd": "struct<d:double,t:timestamp>", "ai": "array<int>",
           "as1": "array<string>", "m": "map<int,string>", "ss": "array<struct<f:int,G:string>>",
           "aa": "array<array<int>>", "sa": "struct<a:array<int>>"}


def _bound(qualified: str, semantics: Semantics = ANSI) -> p.Expression:
    values = ValueColumns()
    expression = lower(qualified, values)
    return bind(expression, [COLUMNS[t.strip("()`")] for t in values.texts], semantics, qualified)


def _evaluate(qualified: str, row: dict, semantics: Semantics = ANSI) -> dict:
    values = ValueColumns()
    expression = lower(qualified, values)
    names = [t.strip("()`") for t in values.texts]
    return evaluate_all(expression, [row[n] for n in names], [COLUMNS[n] for n in names], semantics)


def _only(results: dict):
    first = next(iter(results.values()))
    assert all(repr(r) == repr(first) for r in results.values()), results
    return first


@pytest.mark.parametrize("qualified, spark_type", [
    # measured on Spark 4.3: struct(x, x + 1, st['f'], st.G, x AS z, s, upper(s)) is
    # struct<x:int,col2:int,f:int,G:string,z:int,s:string,col7:string>
    ("struct(A.k, A.k + B.k, coalesce(A.st, B.st)['f'], coalesce(A.st, B.st).G, A.k AS z, B.s, upper(A.s || B.s))",
     "struct<k:int,col2:int,f:int,G:string,z:int,s:string,col7:string>"),
    ("named_struct('a b', A.k, 'Tag', B.s)", "struct<a b:int,Tag:string>"),
    ("named_struct('a', A.k, 'n', NULL)", "struct<a:int,n:void>"),
    ("named_struct('a', A.st, 'b', B.k)", "struct<a:struct<f:int,G:string>,b:int>"),
    # arrays_zip: a column's name, else the 0-based position (measured: arrays_zip(a, array(1)) is
    # array<struct<a:int,1:int>>)
    ("arrays_zip(A.ai, array(B.k, A.k))", "array<struct<ai:int,1:int>>"),
    ("arrays_zip(A.ai, B.as1)", "array<struct<ai:int,as1:string>>"),
    ("map_entries(coalesce(A.m, B.m))", "array<struct<key:int,value:string>>"),
    ("map_from_entries(coalesce(A.ss, B.ss))", "map<int,string>"),
    ("coalesce(A.st, B.st)['g']", "string"),  # Spark resolves a field without regard to case
    ("array(named_struct('a', A.k), named_struct('a', coalesce(B.l, A.l)))", "array<struct<a:bigint>>"),
    ("CAST(named_struct('a', A.k, 'b', B.s) AS STRUCT<x: BIGINT, `y z`: STRING>)", "struct<x:bigint,y z:string>"),
])
def test_types_and_field_names_are_sparks(qualified, spark_type):
    assert _bound(qualified).type == spark_type


@pytest.mark.parametrize("qualified, code", [
    ("named_struct('a', A.k, 'A', B.k).a", "AMBIGUOUS_REFERENCE_TO_FIELDS"),
    ("named_struct('a', A.k, 'b', B.k).c", "FIELD_NOT_FOUND"),
    ("coalesce(A.st, B.st).h", "FIELD_NOT_FOUND"),
    ("named_struct('a', A.k, 'a', B.k)", "MATCH_DEPENDENT_TYPE_MISMATCH"),  # Spark builds it; a dict cannot
    ("named_struct('a:b', A.k, 'c', B.k)", "MATCH_DEPENDENT_TYPE_MISMATCH"),
    ("named_struct('a\\t', A.k, 'c', B.k)", "MATCH_DEPENDENT_TYPE_MISMATCH"),  # a type's text drops the tab
    ("arrays_zip(A.ai, B.ai)", "MATCH_DEPENDENT_TYPE_MISMATCH"),  # two fields named ai
    ("named_struct('a', A.k) = named_struct('b', coalesce(B.k, A.k))", "MATCH_DEPENDENT_TYPE_MISMATCH"),
    ("named_struct('a', A.k) = named_struct('a', coalesce(B.x, A.x))", "MATCH_DEPENDENT_TYPE_MISMATCH"),  # Spark too
    ("array_contains(array(named_struct('a', A.k), named_struct('a', coalesce(B.k, A.k))), "
     "named_struct('a', coalesce(A.l, B.l)))",
     "MATCH_DEPENDENT_TYPE_MISMATCH"),  # Spark too: ARRAY_FUNCTION_DIFF_TYPES
    ("map_from_entries(array(named_struct('k', A.k, 'v', B.s, 'w', 1)))", "MATCH_DEPENDENT_TYPE_MISMATCH"),
    ("CAST(coalesce(A.st, B.st) AS STRUCT<p: BIGINT>)", "MATCH_DEPENDENT_TYPE_MISMATCH"),  # Spark too
    ("named_struct('a', A.ai, 'b', B.k)", "MATCH_DEPENDENT_TYPE_MISMATCH"),  # array fields: not here
    ("coalesce(A.sa, B.sa) = coalesce(B.sa, A.sa)", "MATCH_DEPENDENT_TYPE_MISMATCH"),
])
def test_refused_at_the_call(qualified, code):
    with pytest.raises(AnalysisError) as error:
        _bound(qualified)
    assert error.value.code == code
    assert "line 1, column" in str(error.value)


@pytest.mark.parametrize("qualified", [
    "explode(A.ai) IS NULL", "posexplode(coalesce(A.ai, B.ai)) IS NULL", "inline(A.ss) IS NULL",
    "size(array(explode_outer(B.ai))) > 1", "json_tuple(A.s, 'a') = B.s", "stack(1, A.k) = 1",
])
def test_a_generator_in_define_is_sparks_error(qualified):
    """Spark refuses a generator outside a SELECT list (UNSUPPORTED_GENERATOR.OUTSIDE_SELECT,
    measured in a WHERE); over one row too, where sparkcep would otherwise hand it to Spark in
    its own projection (where a generator yields rows)."""
    with pytest.raises(SparkCepError) as error:
        lower(qualified, ValueColumns())
    assert error.value.code == "UNSUPPORTED_GENERATOR"
    assert "outside the SELECT clause" in str(error.value)


def test_is_null_of_a_built_struct_is_folded_as_spark_folds_it():
    """named_struct(...) is never NULL: Spark folds IS [NOT] NULL without evaluating the fields
    (measured with a field dividing by zero)."""
    assert _bound("named_struct('a', A.k DIV B.k) IS NULL") == p.Constant(False, "boolean")
    assert _only(_evaluate("struct(A.k DIV B.k) IS NOT NULL", {"k": 0})) is True


def test_a_field_of_a_built_struct_reads_that_field_alone():
    """Spark's optimizer writes named_struct(...).f as f's own expression: the other fields are
    not evaluated (measured: named_struct('a', A.vi, 'b', B.vi DIV A.vi).a is 0 for vi = 0)."""
    assert _only(_evaluate("named_struct('a', A.k, 'b', B.k DIV A.k).a", {"k": 0})) == 0
    raised = _only(_evaluate("named_struct('a', A.k, 'b', B.k DIV A.k).b", {"k": 0}))
    assert isinstance(raised, _Error) and raised.error == "DIVIDE_BY_ZERO"
    raised = _only(_evaluate("named_struct('a', A.k, 'b', B.k DIV A.k) = named_struct('a', B.k, 'b', A.k)", {"k": 0}))
    assert isinstance(raised, _Error) and raised.error == "DIVIDE_BY_ZERO"  # built: every field evaluated


def _python_side(qualified: str) -> bool:
    return isinstance(lower(qualified, ValueColumns()), p.Operator)


def test_what_is_pushed_into_a_navigation():
    """named_struct(NULL) is a struct, not NULL: over a row that may not exist it is evaluated in
    Python; a field access, map_from_entries and arrays_zip are NULL for NULL and are computed per
    row by Spark (map_entries, a function sqlglot does not model, is evaluated in Python)."""
    assert _python_side("named_struct('a', A.k)") and _python_side("struct(A.k)")
    for qualified in ("A.st['f']", "map_from_entries(A.ss)", "arrays_zip(A.ai, A.as1)"):
        assert not _python_side(qualified), qualified


def test_structs_are_ordered_as_spark_orders_them():
    """Field by field, a NULL field first (named_struct('a', NULL) = named_struct('a', NULL) is
    TRUE and below named_struct('a', 1): measured), NaN equal to NaN and above every number,
    -0.0 equal to 0.0, TIMESTAMPs by their instant; the names play no part."""
    t = SqlType("struct<d:double,t:timestamp>")
    key = sf.struct_key(t)
    nan = float("nan")
    assert key({"d": None, "t": None}) == key({"d": None, "t": None})
    assert key({"d": None, "t": None}) < key({"d": -math.inf, "t": None})
    assert key({"d": nan, "t": None}) == key({"d": nan, "t": None}) > key({"d": math.inf, "t": None})
    assert key({"d": -0.0, "t": None}) == key({"x": 0.0, "y": None})
    got = _only(_evaluate("A.st < B.st", {"st": {"f": None, "G": "z"}}))
    assert got is False
    got = _only(_evaluate("coalesce(A.st, B.st) < named_struct('f', B.k, 'G', A.s)",
                          {"st": {"f": None, "G": "z"}, "k": 1, "s": "a"}))
    assert got is True


def test_map_from_entries_and_arrays_zip_by_hand():
    assert sf.map_from_entries(SqlType("int"), False)([{"k": 1, "v": "a"}, None]) is None  # measured
    assert sf.map_from_entries(SqlType("double"), False)([{"k": -0.0, "v": "a"}]) == [(0.0, "a")]
    assert repr(sf.map_from_entries(SqlType("double"), False)([{"k": -0.0, "v": "a"}])) == "[(0.0, 'a')]"
    with pytest.raises(MatchRuntimeError) as error:
        sf.map_from_entries(SqlType("int"), False)([{"k": None, "v": "a"}])
    assert error.value.code == "NULL_MAP_KEY"
    with pytest.raises(MatchRuntimeError) as error:
        sf.map_from_entries(SqlType("int"), False)([{"k": 1, "v": "a"}, {"k": 1, "v": "b"}])
    assert error.value.code == "DUPLICATED_MAP_KEY"
    assert sf.map_from_entries(SqlType("int"), True)([{"k": 1, "v": "a"}, {"k": 1, "v": "b"}]) == [(1, "b")]
    last_win = Semantics(ansi=True, time_zone="UTC", map_key_dedup_policy="LAST_WIN")
    got = _only(_evaluate("map_from_entries(array(named_struct('k', A.k, 'v', B.s), named_struct('k', B.k, 'v', A.s)))",
                          {"k": 1, "s": "x"}, last_win))
    assert got == [(1, "x")]
    assert sf.arrays_zip(("a", "1"))([1, 2], ["x"]) == [{"a": 1, "1": "x"}, {"a": 2, "1": None}]
    assert sf.arrays_zip(("a", "b"))([], []) == []
    assert _only(_evaluate("arrays_zip(A.ai, B.as1)", {"ai": None, "as1": ["x"]})) is None


def test_struct_types_keep_their_field_names():
    t = st.parse("STRUCT<a: INT, `B c`: ARRAY<STRUCT<X:DATE>>>")
    assert str(t) == "struct<a:int,B c:array<struct<X:date>>>"
    assert st.struct_fields(t)[1] == ("B c", SqlType("array<struct<X:date>>"))
    assert st.element_type(st.struct_fields(t)[1][1]) == SqlType("struct<X:date>")
    assert st.parse("array<decimal(5, 2)>") == SqlType("array<decimal(5,2)>")  # other types as before


def test_operators_of_the_module_are_registered():
    from sparkcep.evaluation.binding.structs import STRUCT_FUNCTIONS
    from sparkcep.evaluation.operators import OPERATORS

    assert set(STRUCT_FUNCTIONS) <= OPERATORS
