"""Standard features sparkcep used to refuse (issue 10 §2), on real Spark, expected rows worked
out by hand from ISO/IEC 19075-5:

* CLASSIFIER() and MATCH_NUMBER() inside navigation (5.6) and inside aggregates (5.8), in
  MEASURES and in DEFINE;
* RUNNING/FINAL on a FIRST/LAST nested in PREV/NEXT (5.6.4, 5.6.5);
* any Spark aggregate in MEASURES, computed by Spark over the match's rows (docs/semantics.md,
  "Aggregates in MEASURES").

One table ``u(id, v)``; with ``PATTERN (A B{1,2})``, ``B AS true`` and the default AFTER MATCH
SKIP PAST LAST ROW, the matches are rows 1-3 (A B B) and 4-6 (A B B):

    id:  1   2   3   4   5   6
    v:  10  20  15  30   5  40
"""

from __future__ import annotations

import pytest

import sparkcep

pytestmark = pytest.mark.spark

ROWS = [(1, 10), (2, 20), (3, 15), (4, 30), (5, 5), (6, 40)]


@pytest.fixture(scope="module")
def table(spark):
    spark.createDataFrame(ROWS, "id INT, v INT").createOrReplaceTempView("u")
    return "u"


def rows(spark, clause: str, columns: str = "*") -> list[tuple]:
    query = f"SELECT {columns} FROM u MATCH_RECOGNIZE (ORDER BY id {clause})"
    return sorted(tuple(row) for row in sparkcep.sql(spark, query).collect())


def test_labels_in_navigation_and_aggregates_all_rows(table, spark):
    # ALL ROWS PER MATCH: measures are RUNNING (5.6.5): at each row only the rows matched so
    # far are visible. A physical offset that leaves the visible match reaches a row with no
    # classifier: NULL. PREV of a column may leave the match (5.6.2): row 4's PREV(v) is row 3.
    got = rows(spark, """
      MEASURES PREV(CLASSIFIER()) AS pc, NEXT(CLASSIFIER()) AS nc, FIRST(CLASSIFIER(), 2) AS f2,
               array_agg(CLASSIFIER()) AS cls, count(CLASSIFIER(B)) AS nb,
               max(MATCH_NUMBER()) AS mn, PREV(RUNNING LAST(v)) AS pl,
               max_by(id, v) AS id_of_max, count_if(v > 12) AS big, bool_and(v > 12) AS all_big,
               PREV(MATCH_NUMBER()) AS pmn
      ALL ROWS PER MATCH
      PATTERN (A B{1,2})
      DEFINE B AS true
    """, "id, pc, nc, f2, cls, nb, mn, pl, id_of_max, big, all_big, pmn")
    assert got == [
        (1, None, None, None, ["A"], 0, 1, None, 1, 0, False, None),
        (2, "A", None, None, ["A", "B"], 1, 1, 10, 2, 1, False, 1),
        (3, "B", None, "B", ["A", "B", "B"], 2, 1, 20, 2, 2, False, 1),
        (4, None, None, None, ["A"], 0, 2, 15, 4, 1, True, None),
        (5, "A", None, None, ["A", "B"], 1, 2, 30, 4, 1, False, 2),
        (6, "B", None, "B", ["A", "B", "B"], 2, 2, 5, 6, 2, False, 2),
    ]


def test_spark_aggregates_one_row(table, spark):
    # ONE ROW PER MATCH: FINAL semantics; Spark's own aggregates over the rows of B.
    got = rows(spark, """
      MEASURES NEXT(FIRST(CLASSIFIER())) AS second, PREV(CLASSIFIER()) AS before_last,
               array_agg(CLASSIFIER()) AS cls, stddev_pop(B.v) AS sd, max_by(B.id, B.v) AS top,
               first(B.v) AS fb, last(B.v) AS lb, any_value(A.v) AS av,
               sort_array(collect_set(CLASSIFIER())) AS labels, variance(B.v) AS var,
               count(DISTINCT CLASSIFIER()) AS kinds, bool_or(B.v > 30) AS some_big,
               MATCH_NUMBER() AS m, count(*) FILTER (WHERE B.v > 12) AS nbig
      PATTERN (A B{1,2})
      DEFINE B AS true
    """, "m, second, before_last, cls, sd, top, fb, lb, av, labels, var, kinds, some_big, nbig")
    assert got == [
        (1, "B", "B", ["A", "B", "B"], 2.5, 2, 20, 15, 10, ["A", "B"], 12.5, 2, False, 2),
        (2, "B", "B", ["A", "B", "B"], 17.5, 6, 5, 40, 30, ["A", "B"], 612.5, 2, True, 1),
    ]


def test_labels_in_define(table, spark):
    # DEFINE is RUNNING (5.6.5), with the candidate row tentatively mapped: COUNT(CLASSIFIER(B))
    # counts it. Row 3 cannot be a second B (count 2), so it is C, and its previous row is B.
    # A match may not start with C: row 2's previous row would be A.
    got = rows(spark, """
      MEASURES FIRST(A.id) AS a, LAST(C.id) AS c, array_agg(CLASSIFIER()) AS cls
      PATTERN (A B* C)
      DEFINE B AS count(CLASSIFIER(B)) < 2 AND FIRST(CLASSIFIER()) = 'A',
             C AS PREV(CLASSIFIER()) = 'B' AND max(MATCH_NUMBER()) > 0
    """, "a, c, cls")
    assert got == [(1, 3, ["A", "B", "C"]), (4, 6, ["A", "B", "C"])]


def test_unmatched_rows_have_null_spark_aggregates(table, spark):
    # WITH UNMATCHED ROWS: a row in no match has NULL measures (ISO/IEC 19075-5, 4.14.3), also
    # for an aggregate that gives 0 over no rows.
    got = rows(spark, """
      MEASURES count_if(v > 0) AS n, array_agg(CLASSIFIER()) AS cls
      ALL ROWS PER MATCH WITH UNMATCHED ROWS
      PATTERN (A)
      DEFINE A AS v > 25
    """, "id, n, cls")
    assert got == [
        (1, None, None), (2, None, None), (3, None, None), (4, 1, ["A"]), (5, None, None),
        (6, 1, ["A"]),
    ]


def test_define_aggregates_in_python(table, spark):
    # DEFINE's aggregates are RUNNING over the rows mapped so far plus the candidate (5.6.5):
    # rows 2, 3 are B (v > 12, at most 2 of them); row 4 would be a third; from row 4 no B
    # follows (5 < 12); from row 5, row 6 is B. any_value(A.v) is Spark's first(A.v).
    got = rows(spark, """
      MEASURES FIRST(A.id) AS a, LAST(B.id) AS b
      PATTERN (A B+)
      DEFINE B AS bool_and(B.v > 12) AND count_if(B.v > 12) <= 2 AND any_value(A.v) < 30
              AND every(B.v > 0) AND NOT bool_or(B.v > 45) AND some(B.v > 12)
    """, "a, b")
    assert got == [(1, 3), (5, 6)]


def test_define_not_boolean_is_located(table, spark):
    # A DEFINE condition is a boolean <search condition> (4.11); A.v is an INT, known only from
    # Spark's analysis, so registration refuses it, pointing at the condition.
    from sparkcep.errors import SparkCepError

    query = ("SELECT * FROM u MATCH_RECOGNIZE (ORDER BY id MEASURES LAST(B.id) AS b\n"
             "  PATTERN (A B) DEFINE B AS A.v)")
    with pytest.raises(SparkCepError) as caught:
        sparkcep.sql(spark, query)
    error = caught.value
    assert error.code == "DEFINE_NOT_BOOLEAN", str(error)
    assert (error.line, error.column) == (2, query.splitlines()[1].index("A.v") + 1)
    assert "int" in error.message
    # the same for a row-local condition (A's own column), checked before the masks are built
    local = ("SELECT * FROM u MATCH_RECOGNIZE (ORDER BY id MEASURES LAST(A.id) AS a\n"
             "  PATTERN (A) DEFINE A AS PREV(v) AND v > 0)")
    with pytest.raises(SparkCepError) as caught:
        sparkcep.sql(spark, local)
    error = caught.value
    assert error.code == "DEFINE_NOT_BOOLEAN", str(error)
    assert (error.line, error.column) == (2, local.splitlines()[1].index("PREV") + 1)
    # a boolean column is a valid condition: rows with v > 12
    flags = ("SELECT * FROM (SELECT id, v > 12 AS big FROM u) w MATCH_RECOGNIZE (ORDER BY id "
             "MEASURES LAST(A.id) AS a ONE ROW PER MATCH PATTERN (A) DEFINE A AS big)")
    assert sorted(r.a for r in sparkcep.sql(spark, flags).collect()) == [2, 3, 4, 6]


def test_spark_aggregate_mistake_is_located(table, spark):
    # Spark analyses the aggregates it computes at registration: its own error, typed, at the
    # user's function name.
    from sparkcep.errors import SparkCepError

    query = ("SELECT * FROM u MATCH_RECOGNIZE (ORDER BY id\n"
             "  MEASURES max_by(A.v) AS x PATTERN (A+) DEFINE A AS true)")
    with pytest.raises(SparkCepError) as caught:
        sparkcep.sql(spark, query)
    error = caught.value
    assert error.code == "WRONG_NUM_ARGS", str(error)
    assert (error.line, error.column) == (2, query.splitlines()[1].index("max_by") + 1)
    assert "__sparkcep" not in str(error)


def test_labels_under_skip_till_next_match(table, spark):
    # docs/semantics.md (SKIP TILL NEXT MATCH): runs start at every A (v < 15: rows 1 and 5); a
    # row is selectable as B when its previous row in the partition is a row of the run's match
    # (PREV(CLASSIFIER()) of a row outside the match is NULL). Run 1 takes rows 2..6, run 2 row 6;
    # both close at the end of the partition and are numbered by first row.
    got = rows(spark, """
      MEASURES MATCH_NUMBER() AS m, PREV(CLASSIFIER()) AS pc, count(CLASSIFIER(B)) AS nb
      ALL ROWS PER MATCH
      SKIP TILL NEXT MATCH
      PATTERN (A B+)
      DEFINE A AS v < 15, B AS PREV(CLASSIFIER()) IS NOT NULL
    """, "m, id, pc, nb")
    assert got == [
        (1, 1, None, 0), (1, 2, "A", 1), (1, 3, "B", 2), (1, 4, "B", 3), (1, 5, "B", 4),
        (1, 6, "B", 5), (2, 5, None, 0), (2, 6, "A", 1),
    ]


def test_lambdas_subqueries_and_match_number_in_define(spark):
    # issue 23: an uncorrelated IN (subquery), lambdas over one row, MAX(MATCH_NUMBER()) in
    # DEFINE and a lambda over a missing row in MEASURES, in one query. Worked out by hand:
    #   id:  1      2     3    4       5     6     7
    #   v:   10     20    15   30      5     40    1
    #   arr: [1,2]  [30]  [0]  [40,1]  [40]  [50]  [0]
    # A: v in {10, 30} -> rows 1, 4. B: some element of the row's arr above the previous
    # row's v -> rows 2, 4, 5, 6. C: the match's number is 2 and A's arr holds 40.
    # Match 1 at row 1: A=1, B=2 (row 3 fails B), C? at row 3 fails (MATCH_NUMBER() is 1).
    # Match 2 at row 4: A=4, B=5,6, C=7 (MATCH_NUMBER() is 2, A's arr is [40, 1]).
    # MEASURES: C.v is NULL in match 1, so transform(array(1, 2), x -> x + C.v) is
    # [NULL, NULL] (Spark's lambda over NULL), not NULL; in match 2 it is [2, 3].
    spark.createDataFrame(
        [(1, 10, [1, 2]), (2, 20, [30]), (3, 15, [0]), (4, 30, [40, 1]), (5, 5, [40]),
         (6, 40, [50]), (7, 1, [0])], "id INT, v INT, arr ARRAY<INT>",
    ).createOrReplaceTempView("lambdas")
    query = """
      SELECT a, b, c, m, shifted FROM lambdas MATCH_RECOGNIZE (ORDER BY id
        MEASURES FIRST(A.id) AS a, LAST(B.id) AS b, C.id AS c, MATCH_NUMBER() AS m,
                 transform(array(1, 2), x -> x + C.v) AS shifted
        PATTERN (A B+ C?)
        DEFINE A AS v IN (SELECT 10 UNION ALL SELECT 30),
               B AS exists(arr, x -> x > PREV(v)),
               C AS max(MATCH_NUMBER()) = 2 AND exists(A.arr, x -> x = 40))"""
    got = sorted(tuple(row) for row in sparkcep.sql(spark, query).collect())
    assert got == [(1, 2, None, 1, [None, None]), (4, 6, 7, 2, [2, 3])]
