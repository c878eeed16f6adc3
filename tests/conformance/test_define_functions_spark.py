"""Functions between rows of a match in DEFINE (issue 23), end to end through ``sparkcep.sql``:
min_by over a variable's rows, ILIKE and RLIKE between rows, and a regular expression read from
a row that sparkcep refuses (a typed error at the RLIKE). The expected matches are worked out by
hand from the rows below (the functions' value semantics are checked against Spark itself in
tests/evaluation/test_spark_differential.py)."""

from __future__ import annotations

import pytest

import sparkcep
from sparkcep.errors import MatchRuntimeError

pytestmark = pytest.mark.spark

ROWS = [  # id, tag, price, label, pattern
    (1, "a", 10, "x", "^A"),
    (2, "b", 7, "x", "b$"),
    (3, "c", 7, "x", "(?i)c"),
    (4, "d", None, "c", "x"),
    (5, "e", 12, "z", "E"),
]


def _view(spark):
    spark.createDataFrame(ROWS, "id INT, tag STRING, price INT, label STRING, pattern STRING") \
        .createOrReplaceTempView("define_functions")


def test_min_by_in_define_takes_the_last_of_equal_orderings(spark):
    """A+ greedy then backtracking: from row 1, A = 1..4 / B = 5 fails (min_by over prices 10, 7,
    7, NULL is 'c': the NULL is skipped and of the two 7s Spark keeps the later row), A = 1..3
    / B = 4 holds ('c' = label of row 4). Keeping the first of equal orderings ('b') would fail
    there and match rows 3..4 instead."""
    _view(spark)
    got = sparkcep.sql(spark, """
        SELECT * FROM define_functions MATCH_RECOGNIZE (ORDER BY id
          MEASURES FIRST(A.id) AS first_id, B.id AS b_id
          PATTERN (A+ B)
          DEFINE B AS B.label = min_by(A.tag, A.price))""").collect()
    assert [tuple(r) for r in got] == [(1, 4)]


def test_ilike_and_rlike_between_rows(spark):
    _view(spark)
    got = sparkcep.sql(spark, """
        SELECT * FROM define_functions MATCH_RECOGNIZE (ORDER BY id
          MEASURES A.id AS a_id, B.id AS b_id
          PATTERN (A B)
          DEFINE B AS A.label ILIKE upper(B.label))""").collect()
    # (1, 2): 'x' ILIKE 'X' holds (LIKE would not); then from row 3: (3, 4) 'x' ILIKE 'C' and
    # (4, 5) 'c' ILIKE 'Z' do not
    assert [tuple(r) for r in got] == [(1, 2)]
    got = sparkcep.sql(spark, """
        SELECT * FROM define_functions MATCH_RECOGNIZE (ORDER BY id
          MEASURES A.id AS a_id, B.id AS b_id
          PATTERN (A B)
          DEFINE A AS A.id <> 3, B AS concat(A.tag, B.tag) RLIKE A.pattern)""").collect()
    # (1, 2): 'ab' RLIKE '^A' no (case-sensitive); (2, 3): 'bc' RLIKE 'b$' no; A is never row 3;
    # (4, 5): 'de' RLIKE 'x' no: no match
    assert got == []
    got = sparkcep.sql(spark, """
        SELECT * FROM define_functions MATCH_RECOGNIZE (ORDER BY id
          MEASURES A.id AS a_id, B.id AS b_id
          PATTERN (A B)
          DEFINE A AS A.id <> 3, B AS concat(B.tag, A.tag) RLIKE A.pattern)""").collect()
    # (1, 2): 'ba' RLIKE '^A' no; (2, 3): 'cb' RLIKE 'b$' yes (found, not a whole match); then
    # (4, 5): 'ed' RLIKE 'x' no
    assert [tuple(r) for r in got] == [(2, 3)]


def test_a_refused_regular_expression_read_from_a_row_is_a_typed_error_at_the_rlike(spark):
    _view(spark)
    query = ("SELECT * FROM define_functions MATCH_RECOGNIZE (ORDER BY id\n"
             "  MEASURES B.id AS b_id PATTERN (A B)\n"
             "  DEFINE B AS B.tag RLIKE A.pattern)")
    with pytest.raises(MatchRuntimeError) as caught:
        sparkcep.sql(spark, query).collect()
    assert caught.value.code == "UNSUPPORTED_REGEX_PATTERN"
    assert "(?i)c" in caught.value.message
    assert (caught.value.line, caught.value.column) == (3, 15)
