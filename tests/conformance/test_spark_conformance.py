"""SQL:2016 row pattern recognition on real Spark: one case per rule, expected rows worked out by
hand from ISO/IEC TR 19075-5 (section numbers as cited by the Trino and Oracle documentation).

The input is one small table ``t(p STRING, id INT, v INT)``; partition 'a' holds

    id:  1   2   3   4   5   6   7   8
    v:  10   8   6   7   9   5   4  11

and partition 'b' holds id 1..3 with v 3, 2, 1.
"""

from __future__ import annotations

import pytest

import sparkcep

pytestmark = pytest.mark.spark

ROWS_A = [(1, 10), (2, 8), (3, 6), (4, 7), (5, 9), (6, 5), (7, 4), (8, 11)]
ROWS_B = [(1, 3), (2, 2), (3, 1)]


@pytest.fixture(scope="module")
def table(spark):
    rows = [("a", i, v) for i, v in ROWS_A] + [("b", i, v) for i, v in ROWS_B]
    spark.createDataFrame(rows, "p STRING, id INT, v INT").createOrReplaceTempView("t")
    return "t"


def run(spark, clause: str, where: str = "") -> list[tuple]:
    query = f"SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY p ORDER BY id {clause}) {where}"
    frame = sparkcep.sql(spark, query)
    return sorted(tuple(row) for row in frame.collect())


V_SHAPE = """
  MEASURES FIRST(S.id) AS s, LAST(D.id) AS bottom, LAST(U.id) AS e
  {rows} {skip}
  PATTERN (S D+ U+)
  DEFINE D AS v < PREV(v), U AS v > PREV(v)
"""


def test_one_row_past_last_row(table, spark):
    # §4.15: greedy D+ and U+; after a match, resume after its last row (PAST LAST ROW default).
    got = run(spark, V_SHAPE.format(rows="ONE ROW PER MATCH", skip=""))
    assert got == [("a", 1, 3, 5), ("a", 6, 7, 8)]


def test_skip_to_next_row(table, spark):
    # AFTER MATCH SKIP TO NEXT ROW resumes at the row after the first row of the match.
    got = run(spark, V_SHAPE.format(rows="", skip="AFTER MATCH SKIP TO NEXT ROW"))
    assert got == [("a", 1, 3, 5), ("a", 2, 3, 5), ("a", 5, 7, 8), ("a", 6, 7, 8)]


def test_skip_to_last_variable(table, spark):
    # TO LAST U: resume at the last row mapped to U (row 5), which starts the next match.
    got = run(spark, V_SHAPE.format(rows="", skip="AFTER MATCH SKIP TO LAST U"))
    assert got == [("a", 1, 3, 5), ("a", 5, 7, 8)]


def test_skip_to_first_row_of_match_is_an_error(table, spark):
    # Skipping to the first row of the current match would loop forever: a run-time error.
    with pytest.raises(Exception, match="SKIP_TO_FIRST_ROW_OF_MATCH"):
        run(spark, V_SHAPE.format(rows="", skip="AFTER MATCH SKIP TO FIRST S"))


def test_all_rows_running_and_final(table, spark):
    # ALL ROWS PER MATCH: output columns are partition, ordering, measures, remaining input
    # columns (§4.17.1); RUNNING sees rows up to the current one, FINAL the whole match.
    frame = sparkcep.sql(spark, """
        SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY p ORDER BY id
          MEASURES CLASSIFIER() AS c, RUNNING COUNT(*) AS rc, FINAL COUNT(*) AS fc,
                   MATCH_NUMBER() AS m
          ALL ROWS PER MATCH
          PATTERN (S D+ U+)
          DEFINE D AS v < PREV(v), U AS v > PREV(v))""")
    assert frame.columns == ["p", "id", "c", "rc", "fc", "m", "v"]
    assert sorted(map(tuple, frame.collect())) == [
        ("a", 1, "S", 1, 5, 1, 10), ("a", 2, "D", 2, 5, 1, 8), ("a", 3, "D", 3, 5, 1, 6),
        ("a", 4, "U", 4, 5, 1, 7), ("a", 5, "U", 5, 5, 1, 9),
        ("a", 6, "S", 1, 3, 2, 5), ("a", 7, "D", 2, 3, 2, 4), ("a", 8, "U", 3, 3, 2, 11),
    ]


def test_with_unmatched_rows(table, spark):
    # WITH UNMATCHED ROWS: every input row appears; unmatched rows have NULL measures.
    got = run(spark, """
        MEASURES MATCH_NUMBER() AS m, CLASSIFIER() AS c
        ALL ROWS PER MATCH WITH UNMATCHED ROWS
        PATTERN (D+) DEFINE D AS v < PREV(v)""")
    assert got == sorted([
        ("a", 1, None, None, 10), ("a", 2, 1, "D", 8), ("a", 3, 1, "D", 6),
        ("a", 4, None, None, 7), ("a", 5, None, None, 9), ("a", 6, 2, "D", 5),
        ("a", 7, 2, "D", 4), ("a", 8, None, None, 11),
        ("b", 1, None, None, 3), ("b", 2, 1, "D", 2), ("b", 3, 1, "D", 1),
    ], key=lambda r: (r[0], r[1]))


def test_reluctant_vs_greedy(table, spark):
    # Preferment: A+? prefers fewer iterations, A+ more (§4.12: not the longest match, the
    # most preferred one).
    reluctant = run(spark, """
        MEASURES FIRST(A.id) AS fa, LAST(A.id) AS la, B.id AS b
        PATTERN (A+? B) DEFINE B AS v > 8""")
    assert [r for r in reluctant if r[0] == "a"] == [("a", 1, 4, 5), ("a", 6, 7, 8)]
    greedy = run(spark, """
        MEASURES FIRST(A.id) AS fa, LAST(A.id) AS la, B.id AS b
        PATTERN (A+ B) DEFINE B AS v > 8""")
    assert [r for r in greedy if r[0] == "a"] == [("a", 1, 7, 8)]


def test_alternation_prefers_left(table, spark):
    got = run(spark, """
        MEASURES MATCH_NUMBER() AS m, CLASSIFIER() AS c, LAST(id) AS r
        PATTERN (B | A) DEFINE A AS v > 5, B AS v > 7""")
    assert [r for r in got if r[0] == "a"] == [
        ("a", 1, "B", 1), ("a", 2, "B", 2), ("a", 3, "A", 3), ("a", 4, "A", 4),
        ("a", 5, "B", 5), ("a", 6, "B", 8),
    ]


def test_permute_lexicographic(table, spark):
    # PERMUTE(A, B) = (A B | B A), tried in that order.
    got = run(spark, """
        MEASURES FIRST(id) AS f, CLASSIFIER() AS last_label
        PATTERN (PERMUTE(A, B)) DEFINE A AS v < 7, B AS v > 7""")
    assert [r for r in got if r[0] == "a"] == [("a", 2, "A"), ("a", 5, "A"), ("a", 7, "B")]


def test_anchors(table, spark):
    start = run(spark, "MEASURES FIRST(id) AS f PATTERN (^ A) DEFINE A AS true")
    assert start == [("a", 1), ("b", 1)]
    end = run(spark, "MEASURES FIRST(id) AS f PATTERN (A $) DEFINE A AS true")
    assert end == [("a", 8), ("b", 3)]


def test_empty_matches_one_row(table, spark):
    # A* can match empty: every row starts a match (§4.13); empty matches have COUNT 0, NULL
    # navigation, and a MATCH_NUMBER.
    got = run(spark, """
        MEASURES MATCH_NUMBER() AS m, COUNT(*) AS n, FIRST(id) AS f
        PATTERN (A*) DEFINE A AS v > 8""")
    assert [r for r in got if r[0] == "a"] == [
        ("a", 1, 1, 1), ("a", 2, 0, None), ("a", 3, 0, None), ("a", 4, 0, None),
        ("a", 5, 1, 5), ("a", 6, 0, None), ("a", 7, 0, None), ("a", 8, 1, 8),
    ]


def test_omit_empty_matches(table, spark):
    got = run(spark, """
        MEASURES MATCH_NUMBER() AS m
        ALL ROWS PER MATCH OMIT EMPTY MATCHES
        PATTERN (A*) DEFINE A AS v > 8""")
    assert [r for r in got if r[0] == "a"] == [("a", 1, 1, 10), ("a", 5, 5, 9), ("a", 8, 8, 11)]


def test_show_empty_matches_output_starting_row(table, spark):
    got = run(spark, """
        MEASURES MATCH_NUMBER() AS m, CLASSIFIER() AS c
        ALL ROWS PER MATCH SHOW EMPTY MATCHES
        PATTERN (A*) DEFINE A AS v > 8""")
    assert [r for r in got if r[0] == "b"] == [
        ("b", 1, 1, None, 3), ("b", 2, 2, None, 2), ("b", 3, 3, None, 1),
    ]


def test_exclusion_hides_rows(table, spark):
    # {- -} rows are matched but not output under ALL ROWS PER MATCH (§4.14.3).
    got = run(spark, """
        MEASURES CLASSIFIER() AS c
        ALL ROWS PER MATCH
        PATTERN (S {- D+ -} U+) DEFINE D AS v < PREV(v), U AS v > PREV(v)""")
    assert [(r[1], r[2]) for r in got] == [(1, "S"), (4, "U"), (5, "U"), (6, "S"), (8, "U")]


def test_subset_and_navigation(table, spark):
    # SUBSET X = (D, U); LAST(X.id, 1) is the second-to-last row mapped to D or U;
    # PREV(LAST(D.v), 2) goes two rows back from the last D row (may leave the match).
    got = run(spark, """
        MEASURES LAST(X.id, 1) AS x1, PREV(LAST(D.v), 2) AS pv, NEXT(FIRST(U.v)) AS nu,
                 FIRST(X.id, 1) AS x_second
        PATTERN (S D+ U+)
        SUBSET X = (D, U)
        DEFINE D AS v < PREV(v), U AS v > PREV(v)""")
    # match 1: rows 1..5 (S D D U U): X rows 2..5, last D row 3 -> row 1, first U row 4 -> row 5
    # match 2: rows 6..8 (S D U): X rows 7, 8, last D row 7 -> row 5, first U row 8 -> no row 9
    assert got == [("a", 4, 10, 9, 3), ("a", 7, 9, None, 8)]


def test_running_aggregates_in_define(table, spark):
    # DEFINE sees RUNNING aggregates over the rows mapped so far, incl. the candidate row.
    got = run(spark, """
        MEASURES COUNT(A.*) AS n, SUM(A.v) AS total, AVG(A.v) AS mean
        PATTERN (A+) DEFINE A AS SUM(A.v) <= 20""")
    # a: {10,8} =18 then +6 > 20 -> match 1 rows 1,2; then {6,7} =13, +9 >20 -> rows 3,4;
    # {9,5,4} = 18, +11 > 20 -> rows 5..7; {11} -> row 8. b: {3,2,1}.
    assert got == [
        ("a", 1, 11, 11.0), ("a", 2, 13, 6.5), ("a", 2, 18, 9.0), ("a", 3, 18, 6.0),
        ("b", 3, 6, 2.0),
    ]


def test_last_with_offset_in_define(table, spark):
    # LAST(A.v, 1) inside DEFINE A is the previous A row: a strictly rising run.
    got = run(spark, """
        MEASURES FIRST(A.id) AS f, LAST(A.id) AS l
        PATTERN (A{2,}) DEFINE A AS LAST(A.v, 1) IS NULL OR A.v > LAST(A.v, 1)""")
    # a: 10 | 8 | 6 7 9 | 5 | 4 11 -> rows 3..5 and 7..8; b falls throughout.
    assert got == [("a", 3, 5), ("a", 7, 8)]


def test_match_composes_with_sql(table, spark):
    # The clause is a table reference: aggregate its output, join it, use it in a CTE.
    frame = sparkcep.sql(spark, """
        WITH m AS (
          SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY p ORDER BY id
            MEASURES COUNT(*) AS n PATTERN (S D+ U+)
            DEFINE D AS v < PREV(v), U AS v > PREV(v)) AS mr)
        SELECT m.p, SUM(m.n) AS total, COUNT(*) AS matches FROM m GROUP BY m.p""")
    assert sorted(map(tuple, frame.collect())) == [("a", 8, 2)]


def test_statement_without_match_recognize_passes_through(spark):
    text = "SELECT 1 AS one"
    assert sparkcep.transpile(text) == text
    assert sparkcep.sql(spark, text).collect()[0].one == 1


def test_unknown_column_is_reported_against_the_users_sql(table, spark):
    text = ("SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY p ORDER BY id\n"
            "  MEASURES LAST(A.nosuch) AS x PATTERN (A+) DEFINE A AS v > 0)")
    with pytest.raises(sparkcep.AnalysisError) as caught:
        sparkcep.sql(spark, text)
    error = caught.value
    assert error.code == "UNRESOLVED_COLUMN"
    assert "__sparkcep" not in str(error)
    assert (error.line, error.column) == (2, 19)


def test_row_local_define_types_follow_spark(table, spark):
    # DEFINE conditions are Spark expressions: string functions, CASE, intervals all work.
    got = run(spark, """
        MEASURES COUNT(*) AS n
        PATTERN (A+)
        DEFINE A AS CASE WHEN upper(p) = 'A' THEN v % 2 = 0 ELSE v > 1 END""")
    # a: 10 8 6 even (n=3), 4 even (n=1); b: 3 2 above 1 (n=2)
    assert got == [("a", 1), ("a", 3), ("b", 2)]


def test_two_clauses_in_one_statement_and_nesting(table, spark):
    # Two clauses joined, and a clause over another clause's output: each becomes its own
    # function; everything around them stays Spark's.
    frame = sparkcep.sql(spark, """
        SELECT d.p, d.n AS downs, u.n AS ups
        FROM t MATCH_RECOGNIZE (PARTITION BY p ORDER BY id MEASURES COUNT(*) AS n
                                PATTERN (D+) DEFINE D AS v < PREV(v)) AS d
        JOIN t MATCH_RECOGNIZE (PARTITION BY p ORDER BY id MEASURES COUNT(*) AS n
                                PATTERN (U+) DEFINE U AS v > PREV(v)) AS u
          ON d.p = u.p AND d.n = u.n""")
    # a: down runs 2,3 (n=2) and 6,7 (n=2); up runs 4,5 (n=2) and 8 (n=1); b: down run n=2
    assert sorted(map(tuple, frame.collect())) == [("a", 2, 2), ("a", 2, 2)]
    nested = sparkcep.sql(spark, """
        SELECT * FROM (
          SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY p ORDER BY id
            MEASURES MATCH_NUMBER() AS m, COUNT(*) AS n, FIRST(id) AS f
            PATTERN (D+) DEFINE D AS v < PREV(v))
        ) MATCH_RECOGNIZE (PARTITION BY p ORDER BY m
            MEASURES COUNT(*) AS runs, SUM(X.n) AS rows_down
            PATTERN (X+) DEFINE X AS n >= 2)""")
    assert sorted(map(tuple, nested.collect())) == [("a", 2, 4), ("b", 1, 2)]
