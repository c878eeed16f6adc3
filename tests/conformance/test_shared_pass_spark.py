"""Several aggregate pattern queries over one input in one pass, on Spark
(``sparkcep.compiler.shared_pass``): the UNION ALL's answer equals each branch run alone (its own
pushdown) and each branch enumerated (the clause read through ``SELECT *``, so Spark aggregates
the matches the postponing engine builds); the shared function is called once in the plan Spark
runs, its exchange reused by the second branch."""

from __future__ import annotations

import math
import random
from decimal import Decimal

import pytest

import sparkcep

pytestmark = pytest.mark.spark

BRANCHES = [
    ("p, 'abc' AS q, COUNT(*) AS n, SUM(a_val) AS s, AVG(b_dec) AS av, MIN(c_dbl) AS lo, "
     "MAX(c_dbl) AS hi",
     "MEASURES A.i AS a_val, LAST(B.d) AS b_dec, C.x AS c_dbl",
     "A B+ C", "WITHIN 6", "A AS kind = 'a', B AS kind = 'b', C AS kind = 'c'"),
    ("p, 'ab' AS q, COUNT(*) AS n, SUM(first_b) AS s, AVG(a_val) AS av, MIN(a_x) AS lo, "
     "MAX(a_x) AS hi",
     "MEASURES FIRST(B.i) AS first_b, A.i AS a_val, A.x AS a_x",
     "A B*", "", "A AS kind = 'a', B AS kind = 'b' AND i IS NOT NULL"),
    ("p, 'rise' AS q, COUNT(*) AS n, SUM(c_i) AS s, AVG(c_i) AS av, MIN(c_x) AS lo, "
     "MAX(c_x) AS hi",
     "MEASURES C.i AS c_i, C.x AS c_x",
     "B+ C", "WITHIN 9",
     "B AS kind = 'b' AND (LAST(B.ts, 1) IS NULL OR B.ts > LAST(B.ts, 1)), C AS kind = 'c'"),
]


def _branch(number: int, enumerated: bool = False) -> str:
    select, measures, pattern, within, define = BRANCHES[number]
    clause = (f"ev_share MATCH_RECOGNIZE (PARTITION BY p ORDER BY ts {measures} "
              f"ONE ROW PER MATCH SKIP TILL ANY MATCH PATTERN ({pattern}) {within} "
              f"DEFINE {define}) AS m")
    source = f"(SELECT * FROM {clause})" if enumerated else clause
    return f"SELECT {select} FROM {source} GROUP BY p"


@pytest.fixture(scope="module")
def events(spark):
    rng = random.Random(7)
    rows = []
    for p in range(5):
        ts = 0
        for _ in range(18):
            ts += rng.choice([0, 1, 1, 2])
            rows.append((p, ts, rng.choice("aabbbc"), rng.choice([None, -3, 0, 7, 2 ** 40]),
                         rng.choice([None, Decimal("1.25"), Decimal("-9.99")]),
                         rng.choice([None, 0.5, -2.0, float("nan")])))
    spark.createDataFrame(rows, "p INT, ts BIGINT, kind STRING, i BIGINT, d DECIMAL(20,2), "
                                "x DOUBLE").createOrReplaceTempView("ev_share")


def _rows(frame):
    def same(value):  # NaN equals NaN in Spark's grouping and ordering
        return "NaN" if isinstance(value, float) and math.isnan(value) else value

    return sorted((tuple(same(v) for v in r) for r in frame.collect()), key=repr)


def test_union_all_in_one_pass_equals_each_branch_alone_and_enumerated(spark, events):
    shared_sql = "\nUNION ALL\n".join(_branch(i) for i in range(len(BRANCHES)))
    compiled = sparkcep.transpile(shared_sql)
    assert compiled.count("sparkcep_shared_") == 1 and "sparkcep_mr_" not in compiled
    frame = sparkcep.sql(spark, shared_sql)
    got = _rows(frame)
    # alone, each branch keeps its types; UNION ALL widens AVG(DECIMAL) with AVG(BIGINT) to DOUBLE
    widened = [field.dataType.simpleString() for field in frame.schema.fields]
    alone = sorted((tuple(float(v) if kind == "double" and isinstance(v, Decimal) else v
                          for v, kind in zip(r, widened))
                    for i in range(len(BRANCHES)) for r in _rows(sparkcep.sql(spark, _branch(i)))),
                   key=repr)
    enumerated_sql = "\nUNION ALL\n".join(_branch(i, enumerated=True) for i in range(len(BRANCHES)))
    enumerated = _rows(sparkcep.sql(spark, enumerated_sql))
    assert got == alone == enumerated
    assert {r[1] for r in got} == {"abc", "ab", "rise"}  # every branch has groups
    # Spark runs the shared function once: the second read of the CTE reuses its exchange
    plan = frame._jdf.queryExecution().executedPlan().toString()
    if "Final Plan" in plan:  # AQE: the plan it ran
        plan = plan[plan.find("Final Plan"):plan.find("Initial Plan")]
    final = plan
    assert final.count("ReusedExchange") >= 1, final
    assert final.count("sparkcep_shared_") == 1, final


def test_global_aggregates_in_one_pass(spark, events):
    """No PARTITION BY: one partition; a branch without matches still gives COUNT(*) = 0."""
    spark.range(40).selectExpr("id AS ts", "CAST(id * 7 % 5 AS BIGINT) AS i",
                               "IF(id * 7 % 3 = 0, 'a', 'b') AS kind") \
        .createOrReplaceTempView("ev_share_global")
    clause = ("ev_share_global MATCH_RECOGNIZE (ORDER BY ts MEASURES A.i AS a_val "
              "SKIP TILL ANY MATCH PATTERN (A B{rest}) WITHIN 3 DEFINE A AS kind = 'a', "
              "B AS kind = {kind})")
    branches = [("COUNT(*)", "SUM(a_val)", "+", "'b'"), ("COUNT(*)", "MAX(a_val)", "", "'z'")]
    shared = " UNION ALL ".join(f"SELECT {n}, {agg} FROM {clause.format(rest=rest, kind=kind)}"
                                for n, agg, rest, kind in branches)
    enumerated = " UNION ALL ".join(
        f"SELECT {n}, {agg} FROM (SELECT * FROM {clause.format(rest=rest, kind=kind)})"
        for n, agg, rest, kind in branches)
    assert "sparkcep_shared_" in sparkcep.transpile(shared)
    got = _rows(sparkcep.sql(spark, shared))
    assert got == _rows(sparkcep.sql(spark, enumerated))
    assert (0, None) in got and len(got) == 2
