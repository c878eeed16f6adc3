"""min_by(x, y, k) / max_by(x, y, k) over a variable's rows in DEFINE (issue 23), without Spark:
answers Spark 4.3 gave for the same rows (recorded from ``spark.sql`` over ``VALUES``), Spark's
checks of k, and the typed error when equal y values leave Spark's answer open. Against Spark
itself, over many random prefixes: tests/evaluation/test_top_by_spark.py."""

from __future__ import annotations

import pytest

import sparkcep
from sparkcep.errors import AnalysisError, MatchRuntimeError
from sparkcep.evaluation.binding import Semantics, bind
from sparkcep.evaluation.interpreter import extremum_by
from sparkcep.plan import expressions as p

NAN = float("nan")


def _top(function, k, pairs, ordering_type="int", span=None):
    aggregate = p.Aggregate(function, None, 0, ordering=1, count=k, ordering_type=ordering_type, span=span)
    return extremum_by(aggregate)(pairs)


# SELECT f(x, y, k) FROM VALUES ... AS t(x, y) on Spark 4.3 (one partition)
SPARK_ROWS = [(1, 10), (2, None), (None, 30), (4, 20)]


@pytest.mark.parametrize(("function", "k", "pairs", "spark"), [
    ("max_by", 2, SPARK_ROWS, [None, 4]),  # sorted by y descending; NULL x kept, NULL y skipped
    ("min_by", 2, SPARK_ROWS, [1, 4]),  # ascending
    ("max_by", 10, SPARK_ROWS, [None, 4, 1]),  # k past the rows: all rows with a y
    ("max_by", 100000, SPARK_ROWS, [None, 4, 1]),
    ("max_by", 2, [(1, None)], None),  # no y at all: NULL, not an empty array
    ("max_by", 2, [], None),
    ("max_by", 2, [(1, NAN), (2, 1.0), (3, -0.0), (4, 0.0)], [1, 2]),  # NaN above every number
])
def test_spark_answers(function, k, pairs, spark):
    ordering_type = "double" if any(isinstance(y, float) for _x, y in pairs) else "int"
    assert _top(function, k, pairs, ordering_type) == spark


@pytest.mark.parametrize(("function", "k", "pairs", "expected"), [
    ("max_by", 2, [("a", 1), ("b", 3), ("c", 2)], ["b", "c"]),  # no ties
    ("min_by", 3, [("a", 5), ("b", 3), ("c", 9), ("d", 1)], ["d", "b", "a"]),
    ("max_by", 2, [("a", 5), ("b", 5), ("c", 1)], None),  # tie, both kept, different x: open
    ("max_by", 1, [("a", 5), ("b", 5)], None),  # which one is kept: open
    ("max_by", 1, [("a", 5), ("a", 5), ("b", 1)], ["a"]),  # tie with equal x: determined
    ("max_by", 3, [("a", 5), ("a", 5), ("b", 1)], ["a", "a", "b"]),
    ("max_by", 2, [("a", 9), ("b", 1), ("c", 1)], None),  # the tie at the k-th place: open
    ("max_by", 1, [("a", 9), ("b", 1), ("c", 1)], ["a"]),  # ties past the k kept rows: irrelevant
    ("min_by", 2, [(None, 1), (None, 1), ("z", 3)], [None, None]),  # equal NULL x: determined
    ("min_by", 1, [(None, 1), ("z", 1)], None),  # NULL and a value differ
    ("min_by", 1, [(0.0, 1), (-0.0, 1)], None),  # Spark prints 0.0 and -0.0 differently
    ("min_by", 1, [(NAN, 1), (NAN, 1)], [NAN]),
])
def test_ties_are_refused_only_when_they_change_the_answer(function, k, pairs, expected):
    if expected is None:
        with pytest.raises(MatchRuntimeError) as caught:
            _top(function, k, pairs, span=(7, 30))
        assert caught.value.code == "AMBIGUOUS_MIN_MAX_BY"
        assert caught.value.span == (7, 30)  # the call, located by registration
        assert "leaves open which of the rows with equal y" in caught.value.message
    else:
        got = _top(function, k, pairs)
        assert repr(got) == repr(expected)


def test_equal_orderings_as_spark_compares_them():
    # -0.0 = 0.0 and NaN = NaN as orderings (Spark's compareDoubles): ties
    with pytest.raises(MatchRuntimeError):
        _top("max_by", 1, [("a", -0.0), ("b", 0.0)], "double")
    with pytest.raises(MatchRuntimeError):
        _top("max_by", 1, [("a", NAN), ("b", NAN), ("c", 1.0)], "double")
    assert _top("min_by", 1, [("a", NAN), ("b", NAN), ("c", 1.0)], "double") == ["c"]


def _query(condition: str) -> str:
    return ("SELECT * FROM t MATCH_RECOGNIZE (ORDER BY id MEASURES B.id AS b PATTERN (A+ B)\n"
            f"  DEFINE B AS {condition})")


def test_lowered_with_k_and_the_calls_span_then_typed_as_an_array():
    from sparkcep.compiler.rewrite import compile_statement

    sql = _query("array_join(max_by(A.s, A.y, 3), ',') = 'a'")
    (match,) = compile_statement(sql).matches
    (condition,) = match.plan.conditions.values()
    aggregate = condition.operands[0].operands[0]
    assert (aggregate.function, aggregate.count, aggregate.variables) == ("max_by", 3, frozenset({0}))
    assert sql[slice(*aggregate.span)] == "max_by(A.s, A.y, 3)"
    bound = bind(aggregate, ["string", "bigint"], Semantics())
    assert bound.type == "array<string>"


@pytest.mark.parametrize(("k", "code", "message"), [
    # Spark's own messages for the same k (Spark 4.3, DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE /
    # NON_FOLDABLE_INPUT, CAST_OVERFLOW)
    ("0", "DATATYPE_MISMATCH", "The `k` must be between [1, 100000] (current value = 0)"),
    ("-1", "DATATYPE_MISMATCH", "The `k` must be between [1, 100000] (current value = -1)"),
    ("100001", "DATATYPE_MISMATCH", "The `k` must be between [1, 100000] (current value = 100001)"),
    ("NULL", "DATATYPE_MISMATCH", "The `k` must be between [1, 100000] (current value = 0)"),
    ("A.y", "DATATYPE_MISMATCH", "the input k should be a foldable int expression; however, got A.y"),
    ("3000000000", "CAST_OVERFLOW", 'The value 3000000000L of the type "BIGINT" cannot be cast to "INT"'),
    ("'2'", "UNSUPPORTED_AGGREGATE", "must be an integer literal"),  # Spark folds it; DEFINE does not
])
def test_k_is_checked_as_spark_checks_it_at_k(k, code, message):
    sql = _query(f"max_by(A.s, A.y, {k}) IS NULL")
    with pytest.raises(AnalysisError) as caught:
        sparkcep.transpile(sql)
    assert caught.value.code == code
    assert message in caught.value.message
    assert (caught.value.line, caught.value.column) == (2, 32)  # at k


def test_largest_k_accepted():
    sparkcep.transpile(_query("max_by(A.s, A.y, 100000) IS NULL"))
    sparkcep.transpile(_query("min_by(A.s, A.y, 1) IS NULL"))
