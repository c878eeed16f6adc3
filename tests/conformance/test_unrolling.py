"""Kleene block unrolling (``sparkcep.compiler.unrolling``) does not change any result: each query runs on
Spark with and without it over the same random data (ties and NULLs included), and the results
must be identical. The eligible queries must actually be unrolled (checked on the plan)."""

from __future__ import annotations

import random
from unittest import mock

import pytest

import sparkcep
from sparkcep.compiler import rewrite

pytestmark = pytest.mark.spark

# (clause, unrolled?) over u(p STRING, id INT, v INT)
CASES = [
    ("""MEASURES FIRST(B.id) AS s, LAST(B.id) AS e, COUNT(*) AS n, MATCH_NUMBER() AS m,
               CLASSIFIER() AS c
        ONE ROW PER MATCH AFTER MATCH SKIP TO NEXT ROW
        PATTERN (B{3,})
        DEFINE B AS LAST(B.v, 1) IS NULL OR B.v > LAST(B.v, 1)""", True),
    ("""MEASURES CLASSIFIER() AS c, RUNNING LAST(B.v, 1) AS prev_b, COUNT(B.*) AS nb,
               FINAL LAST(B.id) AS last_b
        ALL ROWS PER MATCH AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B{2,4} C?)
        DEFINE B AS B.v >= LAST(B.v, 2) OR LAST(B.v, 2) IS NULL, C AS C.v < 3""", True),
    ("""MEASURES FIRST(A.id) AS s, LAST(C.id) AS e, COUNT(B.*) AS nb
        ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B*? C)
        DEFINE B AS B.v <> LAST(B.v, 1) OR LAST(B.v, 1) IS NULL, C AS C.v > A.v""", True),
    ("""MEASURES FIRST(X.id) AS x, LAST(C.id) AS e
        ONE ROW PER MATCH AFTER MATCH SKIP TO NEXT ROW
        PATTERN (A X C)
        DEFINE X AS LAST(X.v, 1) IS NULL AND X.v > 2, C AS C.v < 4""", True),
    ("""MEASURES LAST(U.id) AS u, FIRST(B.v) AS fb, COUNT(*) AS n
        ONE ROW PER MATCH AFTER MATCH SKIP TO LAST B
        SUBSET U = (A, B)
        PATTERN (A B+ C)
        DEFINE B AS B.v > LAST(B.v, 1) - 2 OR LAST(B.v, 1) IS NULL, C AS C.v <= LAST(B.v)""", True),
    ("""MEASURES FIRST(B.id) AS s, COUNT(*) AS n
        ALL ROWS PER MATCH WITH UNMATCHED ROWS
        PATTERN (B{0,3} C)
        DEFINE B AS B.v < LAST(B.v, 3) OR LAST(B.v, 3) IS NULL, C AS C.v > 5""", True),
    # not eligible: B repeats inside a group, so its rows need not be one block
    ("""MEASURES COUNT(B.*) AS nb
        ONE ROW PER MATCH
        PATTERN ((A B+)+)
        DEFINE B AS B.v > LAST(B.v, 1) OR LAST(B.v, 1) IS NULL""", False),
]


@pytest.fixture(scope="module")
def table(spark):
    rng = random.Random(7)
    rows = []
    for p in "abc":
        for i in range(1, 61):
            rows.append((p, i, None if rng.random() < 0.08 else rng.randint(0, 6)))
    spark.createDataFrame(rows, "p STRING, id INT, v INT").createOrReplaceTempView("u")
    return "u"


def _query(clause: str) -> str:
    return f"SELECT * FROM u MATCH_RECOGNIZE (PARTITION BY p ORDER BY id {clause})"


def _rows(spark, query: str) -> list[tuple]:
    return sorted((tuple(r) for r in sparkcep.sql(spark, query).collect()), key=repr)


@pytest.mark.parametrize("clause, unrolled", CASES)
def test_unrolled_query_gives_the_same_rows(table, spark, clause, unrolled):
    query = _query(clause)
    plan = rewrite.compile_statement(query).matches[0].plan
    names = plan.spec.variable_names
    assert (len(names) > len(set(names)) or not plan.conditions) == unrolled
    with_unrolling = _rows(spark, query)
    with mock.patch.object(rewrite, "unroll", lambda analysis, lowering: None):
        # without it, the match-dependent path runs
        assert rewrite.compile_statement(query).matches[0].plan.conditions
        without = _rows(spark, query)
    assert with_unrolling == without
    assert without, "the case should produce rows"


def _generated_cases(count: int, seed: int = 11) -> list[str]:
    """Random block shapes: quantifier bounds, greedy/reluctant, offsets 1-3, skip modes, rows per
    match, with the block alone, first, in the middle or last in the pattern."""
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        low = rng.choice([0, 1, 2, 3])
        high = rng.choice([None, low + 1, low + 3, 1 if low <= 1 else None])
        quantifier = f"{{{low},{'' if high is None else high}}}" + rng.choice(["", "?"])
        k = rng.choice([1, 2, 3])
        compare = rng.choice([">", ">=", "<>", "<"])
        define = f"B AS B.v {compare} LAST(B.v, {k}) OR LAST(B.v, {k}) IS NULL"
        if rng.random() < 0.5:
            define = f"B AS B.v {compare} LAST(B.v, {k}) + {rng.choice([0, 1])} AND B.v > 0"
        shape = rng.choice(["B{q}", "A B{q}", "A B{q} C", "B{q} C", "(A | B{q}) C"]).format(q=quantifier)
        rows = rng.choice(["ONE ROW PER MATCH", "ALL ROWS PER MATCH", "ALL ROWS PER MATCH WITH UNMATCHED ROWS"])
        skip = rng.choice(["PAST LAST ROW", "TO NEXT ROW"])
        others = "".join(extra for name, extra in [("A", ", A AS A.v > 2"), ("C", ", C AS C.v < 3")]
                         if name in shape)
        cases.append(f"""MEASURES MATCH_NUMBER() AS m, CLASSIFIER() AS c, COUNT(B.*) AS nb, LAST(B.id) AS lb
            {rows} AFTER MATCH SKIP {skip}
            PATTERN ({shape})
            DEFINE {define}{others}""")
    return cases


@pytest.mark.parametrize("clause", _generated_cases(10))
def test_generated_unrolled_queries_give_the_same_rows(table, spark, clause):
    query = _query(clause)
    names = rewrite.compile_statement(query).matches[0].plan.spec.variable_names
    with_unrolling = _rows(spark, query)
    with mock.patch.object(rewrite, "unroll", lambda analysis, lowering: None):
        assert rewrite.compile_statement(query).matches[0].plan.conditions
        without = _rows(spark, query)
    assert with_unrolling == without, names
