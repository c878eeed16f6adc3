"""The input relation, the output layout and expressions Spark evaluates, on real Spark (issue 10
§1, §4, §5). Expected rows are worked out by hand from ISO/IEC 19075-5; each test runs one
statement that checks several cases (UNION ALL), not one Spark job per case.

The table ``mr_rel(p STRING, id INT, v INT)`` holds one partition 'a':

    id:  1   2   3   4
    v:  10   8   6   7
"""

from __future__ import annotations

import pytest

import sparkcep
from sparkcep.errors import SparkCepError

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def mr_rel(spark):
    rows = [("a", 1, 10), ("a", 2, 8), ("a", 3, 6), ("a", 4, 7)]
    spark.createDataFrame(rows, "p STRING, id INT, v INT").createOrReplaceTempView("mr_rel")
    return "mr_rel"


def collect(frame) -> list[tuple]:
    return sorted(tuple(row) for row in frame.collect())


DOWN = """MATCH_RECOGNIZE (ORDER BY id MEASURES FIRST(A.{v}) AS s, LAST(B.{v}) AS e
          PATTERN (A B+) DEFINE B AS B.{v} < PREV(B.{v}))"""


def test_relation_modifiers_reach_spark(mr_rel, spark):
    # §4.3: the input table is the table primary as written. A B+ over 90 80 70 85 matches rows
    # 1..3 (A is undefined, so true; B falls); over mr_rel, rows 1..3 (10 8 6).
    # - the derived column list t(id, value) names the VALUES columns;
    # - TABLESAMPLE (0 ROWS) leaves no rows, so no match; (100 PERCENT) leaves all of them;
    # - CTE column lists name the columns of a CTE that another CTE reads.
    frame = sparkcep.sql(spark, f"""
        WITH c(id, value) AS (VALUES (1, 90), (2, 80), (3, 70), (4, 85)), u AS (SELECT * FROM c)
        SELECT 'values' AS k, s, e FROM (VALUES (1, 90), (2, 80), (3, 70), (4, 85)) t(id, value)
          {DOWN.format(v="value")}
        UNION ALL SELECT 'sample0', s, e FROM mr_rel TABLESAMPLE (0 ROWS) {DOWN.format(v="v")}
        UNION ALL SELECT 'sample100', s, e FROM mr_rel TABLESAMPLE (100 PERCENT) AS r {DOWN.format(v="v")}
        UNION ALL SELECT 'cte', s, e FROM u {DOWN.format(v="value")}""")
    assert collect(frame) == [("cte", 90, 70), ("sample100", 10, 6), ("values", 90, 70)]


def test_time_travel_is_not_dropped(mr_rel, spark):
    # VERSION AS OF must reach Spark: on a temporary view Spark refuses time travel, instead of
    # the query silently reading the current table.
    with pytest.raises(SparkCepError) as caught:
        sparkcep.sql(spark, f"SELECT * FROM mr_rel VERSION AS OF 1 {DOWN.format(v='v')}")
    assert caught.value.code == "UNSUPPORTED_FEATURE"


def test_output_layout(mr_rel, spark):
    # §4.17 (row pattern output table): ALL ROWS PER MATCH gives the partitioning columns, the
    # ordering columns, the measures, then the remaining input columns; ONE ROW PER MATCH the
    # partitioning columns, then the measures. Every PARTITION BY / ORDER BY item appears as
    # written, also a repeated one and one in both lists. A B with B falling matches rows 1, 2.
    clause = "MEASURES MATCH_NUMBER() AS m, CLASSIFIER() AS c {rows} PATTERN (A B) DEFINE B AS B.v < PREV(B.v)"
    all_rows = sparkcep.sql(spark, "SELECT * FROM mr_rel MATCH_RECOGNIZE (PARTITION BY p "
                            "ORDER BY id, p, id " + clause.format(rows="ALL ROWS PER MATCH") + ")")
    assert all_rows.columns == ["p", "id", "p", "id", "m", "c", "v"]
    assert collect(all_rows) == [("a", 1, "a", 1, 1, "A", 10), ("a", 2, "a", 2, 1, "B", 8)]
    one_row = sparkcep.sql(spark, "SELECT * FROM mr_rel MATCH_RECOGNIZE (PARTITION BY p, p "
                           "ORDER BY id " + clause.format(rows="ONE ROW PER MATCH") + ")")
    assert one_row.columns == ["p", "p", "m", "c"]
    assert collect(one_row) == [("a", "a", 1, "B")]
    # Names resolve as Spark resolves them (case-insensitively); the output keeps them as written.
    upper = sparkcep.sql(spark, "SELECT * FROM mr_rel MATCH_RECOGNIZE (PARTITION BY P ORDER BY ID "
                         + clause.format(rows="ALL ROWS PER MATCH") + ")")
    assert upper.columns == ["P", "ID", "m", "c", "v"]
    assert collect(upper) == [("a", 1, 1, "A", 10), ("a", 2, 1, "B", 8)]


def test_constants_subqueries_and_in_lists(mr_rel, spark):
    # One row per case, (case, answer as text).
    # - constant measures: Y+ with Y always true is one match of the four rows (§4.15, greedy);
    # - COUNT() counts the match's rows, like COUNT(*);
    # - an uncorrelated subquery is a constant: (SELECT max(v) FROM mr_rel) is 10 in MEASURES;
    #   in DEFINE, B.v < 10 - 3 holds at rows 3 (6) only: A B+ matches rows 2, 3;
    # - IN lists in DEFINE, row-local (v - 1 IN (5, 6, 7): rows 2..4) and across rows of the
    #   match (B.v IN (A.v - 2, 7): row 2 after A = 1, row 4 after A = 3).
    frame = sparkcep.sql(spark, """
        SELECT 'const', foo FROM mr_rel MATCH_RECOGNIZE (ORDER BY id MEASURES 'foo' AS foo
          PATTERN (Y+) DEFINE Y AS true)
        UNION ALL SELECT 'count', CAST(n AS STRING) FROM mr_rel MATCH_RECOGNIZE (ORDER BY id
          MEASURES count() AS n PATTERN (Y+) DEFINE Y AS true)
        UNION ALL SELECT 'measures', concat_ws(',', s, i, e, mx) FROM mr_rel MATCH_RECOGNIZE (
          ORDER BY id MEASURES (SELECT 'x') AS s, 1 IN (SELECT 1) AS i, EXISTS (SELECT 1) AS e,
          (SELECT max(v) FROM mr_rel) AS mx PATTERN (Y+) DEFINE Y AS true)
        UNION ALL SELECT 'define', concat_ws(',', s, e) FROM mr_rel MATCH_RECOGNIZE (ORDER BY id
          MEASURES FIRST(A.id) AS s, LAST(B.id) AS e PATTERN (A B+)
          DEFINE B AS B.v < (SELECT max(x.v) - 3 FROM mr_rel x))
        UNION ALL SELECT 'in_local', concat_ws(',', s, e) FROM mr_rel MATCH_RECOGNIZE (ORDER BY id
          MEASURES FIRST(A.id) AS s, LAST(B.id) AS e PATTERN (A B+) DEFINE B AS v - 1 IN (5, 6, 7))
        UNION ALL SELECT 'in_match', concat_ws(',', s, e) FROM mr_rel MATCH_RECOGNIZE (ORDER BY id
          MEASURES FIRST(A.id) AS s, LAST(B.id) AS e PATTERN (A B+) DEFINE B AS B.v IN (A.v - 2, 7))
    """)
    assert collect(frame) == [
        ("const", "foo"), ("count", "4"), ("define", "2,3"), ("in_local", "1,4"),
        ("in_match", "1,2"), ("in_match", "3,4"), ("measures", "x,true,true,10"),
    ]
