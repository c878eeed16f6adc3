"""min_by / max_by over a variable's rows in DEFINE (issue 23), without Spark: Spark's update
rule (NULL orderings skipped, the last of equal orderings kept, NaN the greatest DOUBLE), what
lowering accepts and refuses. Against Spark itself:
tests/evaluation/test_spark_differential.py::test_min_by_max_by_in_define_agree_with_spark."""

from __future__ import annotations

import pytest

import sparkcep
from sparkcep.errors import AnalysisError
from sparkcep.evaluation.interpreter import extremum_by
from sparkcep.plan import expressions as p

NAN = float("nan")


def _pick(function, ordering_type, pairs):
    aggregate = p.Aggregate(function, None, 0, ordering=1, ordering_type=ordering_type)
    return extremum_by(aggregate)(pairs)


@pytest.mark.parametrize(("function", "ordering_type", "pairs", "expected"), [
    ("min_by", "int", [("a", 2), ("b", 1), ("c", 1)], "c"),  # equal orderings: the last row
    ("max_by", "int", [("a", 2), ("b", 2), ("c", 1)], "b"),
    ("min_by", "int", [("a", None), ("b", 3), ("c", None)], "b"),  # NULL orderings are skipped
    ("min_by", "int", [(None, 1), ("b", 3)], None),  # the value may be NULL
    ("max_by", "int", [("a", None)], None),  # no ordering at all
    ("max_by", "int", [], None),
    ("max_by", "double", [("a", NAN), ("b", 1e308), ("c", NAN)], "c"),  # NaN above every number
    ("min_by", "double", [("a", NAN), ("b", float("-inf"))], "b"),
    ("min_by", "double", [("a", 1.0), ("b", NAN)], "a"),  # a later NaN is not below 1.0
    ("max_by", "double", [("a", NAN), ("b", 1e308)], "a"),
    ("min_by", "double", [("a", 0.0), ("b", -0.0)], "b"),  # -0.0 = 0.0: a tie
    ("min_by", "string", [("a", "é"), ("b", "z"), ("c", "Z")], "c"),  # by code point
])
def test_spark_update_rule(function, ordering_type, pairs, expected):
    assert _pick(function, ordering_type, pairs) == expected


def _query(condition: str) -> str:
    return ("SELECT * FROM t MATCH_RECOGNIZE (ORDER BY id MEASURES B.id AS b PATTERN (A+ B)\n"
            f"  DEFINE B AS {condition})")


def test_lowered_over_the_variables_rows_with_two_value_columns():
    from sparkcep.compiler.rewrite import compile_statement

    (match,) = compile_statement(_query("B.x = max_by(A.x, A.y * 2)")).matches
    (condition,) = match.plan.conditions.values()
    aggregate = condition.operands[1]
    assert (aggregate.function, aggregate.variables) == ("max_by", frozenset({0}))
    texts = match.plan.value_columns
    assert aggregate.column != aggregate.ordering and len(texts) >= 2


@pytest.mark.parametrize(("condition", "code", "column"), [
    ("max_by(A.x, A.y, 0) IS NULL", "DATATYPE_MISMATCH", 32),  # Spark's check of k, at k
    ("B.x = min_by(A.x, B.y)", "INCONSISTENT_VARIABLE_REFERENCES", 21),
    ("B.x = min_by(A.x, LAST(A.y))", "INVALID_NAVIGATION_NESTING", 33),  # at the LAST
])
def test_refusals_are_typed_at_the_users_position(condition, code, column):
    with pytest.raises(AnalysisError) as caught:
        sparkcep.transpile(_query(condition))
    assert caught.value.code == code
    assert (caught.value.line, caught.value.column) == (2, column)


def test_an_ordering_sparkcep_does_not_compare_exactly_is_refused_at_binding():
    from sparkcep.evaluation.binding import Semantics, bind

    aggregate = p.Aggregate("min_by", None, 0, ordering=1)
    with pytest.raises(AnalysisError) as caught:
        bind(aggregate, ["string", "array<int>"], Semantics())
    assert caught.value.code == "MATCH_DEPENDENT_TYPE_MISMATCH"
    bound = bind(aggregate, ["string", "date"], Semantics())
    assert (bound.type, bound.ordering_type) == ("string", "date")
