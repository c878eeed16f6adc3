"""Overflowing per-match sums aggregated without enumerating the matches, on Spark (issue 13):
the pushed-down statement raises the same typed error as enumerate-then-aggregate (the same
clause read through ``SELECT *``), or gives the same value. ``test_aggregation_overflow_runner.py``
covers more cases without Spark."""

from __future__ import annotations

from decimal import Decimal

import pytest

import sparkcep
from sparkcep.compiler.explain import explain_statement
from sparkcep.errors import MatchRuntimeError

pytestmark = pytest.mark.spark

BIG = 2 ** 62
SIX = Decimal("6E+37")

CLAUSE = """{view} MATCH_RECOGNIZE (PARTITION BY p ORDER BY ts MEASURES SUM(B.{column}) AS s
  ONE ROW PER MATCH SKIP TILL ANY MATCH PATTERN (A {b} C)
  DEFINE A AS kind = 'a', B AS kind = 'b', C AS kind = 'c')"""


@pytest.fixture(scope="module")
def views(spark):
    def view(name, values):
        kinds = ["a"] + ["b"] * (len(values) - 2) + ["c"]
        rows = [(1, t, k, v if isinstance(v, int) else 0, v if isinstance(v, Decimal) else None)
                for t, (k, v) in enumerate(zip(kinds, values))]
        spark.createDataFrame(rows, "p INT, ts INT, kind STRING, i BIGINT, d DECIMAL(38,0)") \
            .createOrReplaceTempView(name)

    view("ev_prefix", [0, BIG, BIG, -BIG, 0])  # B{3}: the one match's prefix 2^63 overflows
    view("ev_fits", [0, -BIG, BIG, BIG, 0])  # the same values, every prefix fits
    view("ev_wraps", [0, BIG, BIG, 0])  # B+: (b1 b2) sums to 2^63
    view("ev_dec", [Decimal(0), SIX, SIX, Decimal(0)])  # B+: (b1 b2) sums to 1.2 * 10^38
    yield
    spark.conf.set("spark.sql.ansi.enabled", "true")


def both(spark, outer, view, column="i", b="B+"):
    """(pushed, enumerated): each the collected rows, or the typed error raised."""
    clause = CLAUSE.format(view=view, column=column, b=b)
    pushed_sql = outer.format(clause=f"{clause} AS m")
    enumerated_sql = outer.format(clause=f"(SELECT * FROM {clause}) AS m")
    assert "engines/sase/grouped_aggregation" in explain_statement(pushed_sql)
    assert "postponed result construction" in explain_statement(enumerated_sql)
    results = []
    for sql in (pushed_sql, enumerated_sql):
        try:
            results.append(sorted(sparkcep.sql(spark, sql).collect()))
        except MatchRuntimeError as error:
            results.append(error)
    return results


def same_error(pushed, enumerated, code):
    """The same code and message, each located at its statement's PATTERN (as the user sees it:
    ``[CODE] message (line L, column C)``, the position in the statement's own text)."""
    assert isinstance(pushed, MatchRuntimeError) and isinstance(enumerated, MatchRuntimeError)
    assert (pushed.code, pushed.message) == (enumerated.code, enumerated.message)
    assert pushed.code == code
    for error in (pushed, enumerated):
        line = error.sql.splitlines()[error.line - 1]
        assert line[error.column - 1:].startswith("PATTERN"), str(error)
        assert str(error).splitlines()[0].startswith(f"[{code}] {error.message} (line ")


def test_overflowing_per_match_sums_raise_what_enumeration_raises(spark, views):
    spark.conf.set("spark.sql.ansi.enabled", "true")
    outer = "SELECT p, COUNT(*) AS n, AVG(s) AS a FROM {clause} GROUP BY p"
    # only a prefix of the match's sum leaves BIGINT: Spark adds the rows in order and raises
    same_error(*both(spark, outer, "ev_prefix", b="B{3}"), "ARITHMETIC_OVERFLOW")
    pushed, enumerated = both(spark, outer, "ev_fits", b="B{3}")
    assert pushed == enumerated == [(1, 1, float(BIG))]
    same_error(*both(spark, outer, "ev_wraps"), "ARITHMETIC_OVERFLOW")
    same_error(*both(spark, "SELECT p, MAX(s) FROM {clause} GROUP BY p", "ev_dec", column="d"),
               "NUMERIC_VALUE_OUT_OF_RANGE")


def test_without_ansi_bigint_sums_wrap_in_both(spark, views):
    spark.conf.set("spark.sql.ansi.enabled", "false")
    try:
        # per match 2^62, 2^62, wrap(2^63): COUNT(s) 3, SUM wrap(2^64) = 0
        pushed, enumerated = both(spark, "SELECT p, COUNT(*), SUM(s), COUNT(s) FROM {clause} "
                                  "GROUP BY p", "ev_wraps")
        assert [tuple(r) for r in pushed] == [tuple(r) for r in enumerated] == [(1, 3, 0, 3)]
        # AVG of a wrapped sum is not followed: a typed error, not a different number
        pushed, enumerated = both(spark, "SELECT p, AVG(s) FROM {clause} GROUP BY p", "ev_wraps")
        assert isinstance(pushed, MatchRuntimeError) and pushed.code == "AGGREGATE_OVERFLOW"
        assert [tuple(r) for r in enumerated] == [(1, 0.0)]
    finally:
        spark.conf.set("spark.sql.ansi.enabled", "true")
