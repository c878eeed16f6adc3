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


# CAST / TRY_CAST of one row's value compared with another row's (issue 23): each condition is
# evaluated by sparkcep in DEFINE B over a partition of two rows (A, then B) and by Spark itself
# over the same two rows joined side by side; the partitions that match must be the ones where
# Spark's condition is TRUE, under ANSI on and off. ``num`` holds strings every CAST target
# accepts (row-local values are computed for every row: docs/semantics.md, "Run-time errors of
# row-local parts"); ``s`` any string, read by TRY_CAST only.
CAST_CONDITIONS = [
    "TRY_CAST(B.s AS INT) > A.n",
    "CAST(B.num AS DOUBLE) >= A.d",
    "TRY_CAST(B.s AS DECIMAL(4, 1)) <= A.dec",
    "CAST(A.n AS STRING) = B.s",
    "TRY_CAST(B.s AS DATE) IS DISTINCT FROM TRY_CAST(A.s AS DATE)",
    "CAST(B.d AS INT) = A.n",
    "TRY_CAST(B.s AS BOOLEAN) = (A.n > 0)",
    "TRY_CAST(B.num AS DECIMAL(6, 2)) < A.dec + 1",
    "CAST(B.num AS FLOAT) > A.n",
    "TRY_CAST(A.s AS BIGINT) + TRY_CAST(B.s AS TINYINT) > A.n",
    # casts of values that combine rows, evaluated in Python (binding.core.BinderBase.explicit_cast)
    "TRY_CAST(A.n + B.n AS DECIMAL(3, 1)) > A.dec",
    "CAST(A.n * B.n AS DOUBLE) / 3 > A.d",
    "CAST(A.dec + B.dec AS DECIMAL(4, 1)) >= B.d",
    "CAST(A.dec - B.dec AS DOUBLE) < B.n",
    "CAST(A.n + B.n AS FLOAT) = 12",
    "CAST(A.n + B.n AS BIGINT) > B.n * 2",
    # narrowing casts, casts to and from STRING and BOOLEAN of values that combine rows
    # (evaluation.explicit_casts)
    "CAST(A.d + B.d AS INT) = B.n",
    "CAST(A.dec + B.dec AS TINYINT) > A.n",
    "CAST(A.n + B.n AS STRING) = B.s",
    "TRY_CAST(coalesce(B.s, A.s) AS INT) > A.n",
    "TRY_CAST(coalesce(B.s, A.num) AS BOOLEAN)",
    "CAST(A.dec + B.dec AS STRING) LIKE '%.00'",
    "CAST(A.n - B.n AS BOOLEAN)",
    # values of other types where a STRING is expected: Spark casts them implicitly
    "contains(B.s, A.n + B.n)",
    "B.s LIKE concat(A.n, '%')",
    "length(A.dec + B.dec) > 4",
    "startswith(B.s, A.n - B.n)",
]
CAST_STRINGS = ["12", " 7 ", "1.5", "abc", "", None, "-3", "1e2", "2024-02-29", "true", "0",
                "99999999999", "0.05", "127", "128", "Yes", "2024-13-01", "12.0"]
CAST_NUMBERS = ["12", "-3.5", "1e2", "NaN", "Infinity", "0", "007", None, "1.25", "-0.0"]
CAST_INTS = [0, 5, 12, -3, None, 1, 7, 100]
CAST_DOUBLES = [1.5, 12.0, -3.7, None, 100.0, 0.0, 7.9, -0.5]
CAST_DECIMALS = ["1.5", "12.0", None, "-3.0", "0.1", "7.0", "100.0"]


def _cast_pairs():
    import random
    from decimal import Decimal

    rng = random.Random(23)
    rows = []
    for k in range(len(CAST_CONDITIONS)):
        for c in range(40):
            for ordinal in (1, 2):
                dec = rng.choice(CAST_DECIMALS)
                rows.append((k, c, ordinal, rng.choice(CAST_STRINGS), rng.choice(CAST_NUMBERS),
                             rng.choice(CAST_INTS), rng.choice(CAST_DOUBLES),
                             None if dec is None else Decimal(dec)))
    return rows


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_casts_between_rows_agree_with_spark(spark, ansi):
    import re

    spark.createDataFrame(
        _cast_pairs(),
        "k INT, c INT, ord INT, s STRING, num STRING, n INT, d DOUBLE, dec DECIMAL(5, 2)",
    ).createOrReplaceTempView("cast_pairs")
    which = " ".join(f"WHEN {k} THEN {cond}" for k, cond in enumerate(CAST_CONDITIONS))
    plain = re.sub(r"\b([AB])\.", lambda m: m.group(1).lower() + ".", which)
    previous = spark.conf.get("spark.sql.ansi.enabled")
    spark.conf.set("spark.sql.ansi.enabled", ansi)
    try:
        got = {tuple(r) for r in sparkcep.sql(spark, f"""
            SELECT k, c FROM cast_pairs MATCH_RECOGNIZE (PARTITION BY k, c ORDER BY ord
              MEASURES A.ord AS a PATTERN (A B) DEFINE B AS CASE A.k {which} END)""").collect()}
        expected = {tuple(r) for r in spark.sql(f"""
            SELECT a.k, a.c FROM cast_pairs a JOIN cast_pairs b
              ON a.k = b.k AND a.c = b.c AND a.ord = 1 AND b.ord = 2
            WHERE CASE a.k {plain} END""").collect()}
    finally:
        spark.conf.set("spark.sql.ansi.enabled", previous)
    assert got == expected
    # every condition is TRUE for some pair and not for others
    assert {k for k, _ in expected} == set(range(len(CAST_CONDITIONS)))
    assert all(sum(1 for k2, _ in expected if k2 == k) < 40 for k in range(len(CAST_CONDITIONS)))


@pytest.mark.parametrize(("measure", "condition"), [
    ("min(A.x, 2) AS m", "true"),  # MEASURES: Spark's own analysis refuses it
    ("LAST(A.x) AS m", "A.x > max(A.x, 3)"),  # DEFINE, the current row's variable (row-local)
    ("LAST(A.x) AS m", "A.x > max(PREV(A.x), 3)"),
])
def test_trino_min_max_with_a_count_is_spark_wrong_num_args_at_the_call(spark, measure, condition):
    """Spark 4.3 has no min(x, n) / max(x, n): one typed error, Spark's code, at the call,
    wherever it is written (issue 23; the match-dependent form: tests/evaluation/
    test_scalar_functions.py)."""
    from sparkcep.errors import SparkCepError

    _view(spark)
    sql = (f"SELECT * FROM define_functions MATCH_RECOGNIZE (ORDER BY id MEASURES {measure} "
           f"PATTERN (A+) DEFINE A AS {condition})").replace("A.x", "A.price")
    with pytest.raises(SparkCepError) as caught:
        sparkcep.sql(spark, sql).collect()
    call = sql.index("min(" if "min(" in sql else "max(")
    assert caught.value.code == "WRONG_NUM_ARGS"
    assert (caught.value.line, caught.value.column) == (1, call + 1), str(caught.value)


def test_numeric_and_string_functions_between_rows_end_to_end(spark):
    """round/bround, floor, pmod, array_join over array(...) between rows in one DEFINE, through
    the matcher (issue 23; their values against Spark: tests/evaluation/
    test_scalar_functions_spark.py). Worked out by hand: A = 1, B = 2 holds (7 / 10 rounds to
    0.7; 'a+b'; pmod(1 - 2, 3) is 2 where 1 - 2 % 3 would be -1; floor(0.7) is 0); the next
    tries from row 3 read a NULL price, so the condition is NULL."""
    _view(spark)
    got = sparkcep.sql(spark, """
        SELECT * FROM define_functions MATCH_RECOGNIZE (ORDER BY id
          MEASURES A.id AS a_id, B.id AS b_id
          PATTERN (A B)
          DEFINE B AS round(B.price / A.price, 1) = 0.7 AND bround(B.price / A.price) = 1
             AND array_join(array(A.tag, B.tag), '+') IN ('a+b', 'c+d')
             AND pmod(A.id - B.id, 3) = 2 AND floor(B.price / A.price) = 0)""").collect()
    assert [(r.a_id, r.b_id) for r in got] == [(1, 2)]
