"""Resource budgets on real Spark (docs/semantics.md, "Resource budgets"): a query that exceeds a
budget fails with ``[MATCH_BUDGET_EXCEEDED]`` as the first line of the error, naming the budget's
setting; ``SET spark.sparkcep.<budget> = n`` before a query changes the budget for that query."""

from __future__ import annotations

import contextlib

import pytest

import sparkcep

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def events(spark):
    # 2,000 rows, every one of them an A, a B and a C: SKIP TILL ANY MATCH `A B+ C` without WITHIN
    # has 2^(rows between A and C) matches per pair, the workload of issue 11 that crashed a worker
    spark.range(2000).selectExpr("id", "id % 7 AS v").createOrReplaceTempView("budget_events")
    return "budget_events"


@contextlib.contextmanager
def settings(spark, **values):
    try:
        for key, value in values.items():
            spark.sql(f"SET spark.sparkcep.{key} = {value}")
        yield
    finally:
        for key in values:
            spark.conf.unset(f"spark.sparkcep.{key}")


def typed_line(error: BaseException, code: str) -> str:
    """The first line of the error, which must state the typed error (docs/errors.md)."""
    first = str(error).strip().splitlines()[0]
    assert first.startswith(f"[{code}]"), first
    return first


ANY_QUERY = """
SELECT * FROM budget_events MATCH_RECOGNIZE (
  ORDER BY id
  MEASURES FIRST(A.id) AS a, COUNT(B.id) AS bs, LAST(C.id) AS c
  ONE ROW PER MATCH
  SKIP TILL ANY MATCH
  PATTERN (A B+ C)
  DEFINE A AS v >= 0, B AS v >= 0, C AS v >= 0
)"""

STRICT_QUERY = """
SELECT * FROM budget_events MATCH_RECOGNIZE (
  ORDER BY id
  MEASURES FIRST(A.id) AS a
  ONE ROW PER MATCH
  PATTERN (A B)
  DEFINE A AS v = 0, B AS v = 1
)"""


def test_exponential_any_match_stops_with_the_typed_error(events, spark):
    # the buffered-rows budget (matched rows not yet output + input rows kept) fires long before
    # memory runs out; lowered here so the test is quick
    with settings(spark, maxBufferedRows=200_000):
        with pytest.raises(Exception) as info:
            sparkcep.sql(spark, ANY_QUERY).collect()
    line = typed_line(info.value, "MATCH_BUDGET_EXCEEDED")
    assert "spark.sparkcep.maxBufferedRows" in line and "A B+ C" in line


def test_set_before_a_query_overrides_the_budget(events, spark):
    # 2000 / 7 = 286 matches of `A B` (v = 0 followed by v = 1): more than 100 fails, and the same
    # query runs again once the setting is gone (the default is 10,000,000)
    with settings(spark, maxMatches=100):
        with pytest.raises(Exception) as info:
            sparkcep.sql(spark, STRICT_QUERY).collect()
    assert len(sparkcep.sql(spark, STRICT_QUERY).collect()) == 286
    assert "spark.sparkcep.maxMatches" in typed_line(info.value, "MATCH_BUDGET_EXCEEDED")


def test_invalid_budget_setting_is_a_typed_error(events, spark):
    with settings(spark, maxSteps="'lots'"):
        with pytest.raises(Exception) as info:
            sparkcep.sql(spark, STRICT_QUERY)
    assert str(info.value).splitlines()[0].startswith("[INVALID_BUDGET_SETTING]")
