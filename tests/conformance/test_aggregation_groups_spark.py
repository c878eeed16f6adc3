"""Aggregation over matches grouped by a time bucket, and per-match sums over a Kleene variable,
on Spark (issue 13): each pushed-down statement gives exactly the answer and the column types of
enumerate-then-aggregate, which the same clause gives when read through ``SELECT *`` (the outer
query then aggregates Spark rows of matches built by the postponing engine)."""

from __future__ import annotations

import datetime
import random
from decimal import Decimal

import pytest

import sparkcep
from sparkcep.compiler.explain import explain_statement

pytestmark = pytest.mark.spark

CLAUSE = """ev_grp MATCH_RECOGNIZE (
  PARTITION BY p ORDER BY ts
  MEASURES FIRST(A.ts) AS first_ts, LAST(C.ts) AS last_ts, LAST(C.secs) AS last_secs,
           A.i AS a_val, SUM(B.i) AS s_int, SUM(B.d) AS s_dec, SUM(B.x) AS s_dbl,
           COUNT(B.i) AS n_int
  ONE ROW PER MATCH SKIP TILL ANY MATCH
  PATTERN ({pattern}) {within}
  DEFINE A AS kind = 'a', B AS kind = 'b'{rising}, C AS kind = 'c'{negated})"""

SHAPES = [
    # (outer query with {clause}, pattern, WITHIN, rising B run)
    ("SELECT p, date_trunc('HOUR', first_ts) AS h, COUNT(*) AS n, SUM(a_val) AS s, "
     "MIN(first_ts) AS lo FROM {clause} GROUP BY p, date_trunc('HOUR', first_ts) "
     "HAVING COUNT(*) > 1", "A B+ !N C", "WITHIN INTERVAL '50' MINUTE", False),
    ("SELECT p, floor(m.last_secs / 3600) AS bucket, COUNT(*) AS n, MAX(s_int) AS top, "
     "AVG(s_dec) AS mean FROM {clause} GROUP BY floor(m.last_secs / 3600), p",
     "A B* C", "", True),
    ("SELECT p, COUNT(*) AS n, COUNT(s_int) AS n_s, SUM(s_int) AS si, AVG(s_int) AS ai, "
     "MIN(s_int) AS mi, MAX(s_int) AS xi, SUM(s_dec) AS sd, AVG(s_dec) AS ad, MIN(s_dec) AS md, "
     "MAX(s_dec) AS xd, MIN(s_dbl) AS mx, MAX(s_dbl) AS xx, SUM(n_int) AS sn, AVG(n_int) AS an "
     "FROM {clause} GROUP BY p", "A B* C", "WITHIN INTERVAL '90' MINUTE", False),
    ("SELECT * FROM (SELECT p, date_trunc('DAY', last_ts) AS d, hour(first_ts) AS hh, "
     "COUNT(*) AS n, SUM(s_dec) AS total FROM {clause} "
     "GROUP BY p, date_trunc('DAY', last_ts), hour(first_ts)) WHERE n > 2",
     "A B{1,3} C", "WITHIN INTERVAL '2' HOUR", False),
]


@pytest.fixture(scope="module")
def events(spark):
    rng = random.Random(1313)
    start = datetime.datetime(2026, 11, 24, 22, 0, 0)
    rows = []
    for p in range(3):
        ts = start
        for _ in range(22):
            ts += datetime.timedelta(minutes=rng.choice([0, 3, 7, 11, 20]))
            kind = rng.choice("aabbbbcn")
            i = rng.choice([None, -3, 0, 7, 2 ** 40])
            d = rng.choice([None, Decimal("1.25"), Decimal("-99999.99"), Decimal("0.01")])
            x = rng.choice([None, 0.5, -2.0, 1e300])
            secs = int((ts - start).total_seconds())
            rows.append((p, ts, secs, kind, i, d, x))
    spark.createDataFrame(
        rows, "p INT, ts TIMESTAMP, secs BIGINT, kind STRING, i BIGINT, d DECIMAL(20,2), x DOUBLE"
    ).createOrReplaceTempView("ev_grp")
    return rows


def _rows(frame):
    """The rows, sorted; a DOUBLE to 12 significant digits (Spark's AVG of BIGINT values adds them
    in DOUBLE one by one, the counters exactly and divide once: the same real number, rounded
    differently)."""
    def value(v):
        return float(f"{v:.12g}") if isinstance(v, float) else v
    return sorted((tuple(value(v) for v in r) for r in frame.collect()), key=repr)


@pytest.mark.parametrize("outer, pattern, within, rising", SHAPES,
                         ids=["hour_of_first_row", "last_row_bucket", "kleene_sums", "two_buckets"])
def test_pushdown_equals_enumeration(spark, events, outer, pattern, within, rising):
    clause = CLAUSE.format(pattern=pattern, within=within,
                           negated=", N AS kind = 'n'" if "!N" in pattern else "", rising=(
        " AND (LAST(B.i, 1) IS NULL OR B.i > LAST(B.i, 1))" if rising else ""))
    pushed_sql = outer.format(clause=f"{clause} AS m")
    # the clause read through SELECT * (under its alias): enumerated, then aggregated by Spark
    enumerated_sql = outer.format(clause=f"(SELECT * FROM {clause}) AS m")
    plan = explain_statement(pushed_sql)
    assert "engines/sase/grouped_aggregation" in plan, plan
    assert "postponed result construction" in explain_statement(enumerated_sql)
    pushed, enumerated = sparkcep.sql(spark, pushed_sql), sparkcep.sql(spark, enumerated_sql)
    expected = _rows(enumerated)
    assert len(expected) >= 2
    assert _rows(pushed) == expected
    assert pushed.schema == enumerated.schema


def test_union_all_of_grouped_queries_runs_in_one_pass(spark, events):
    # two grouped branches over the same input share one pass; each emits a row per bucket
    hourly = CLAUSE.format(pattern="A B+ C", within="WITHIN INTERVAL '1' HOUR", negated="",
                           rising="")
    sums = CLAUSE.format(pattern="A B* C", within="", negated="", rising="")
    branches = [
        ("SELECT p, 'first' AS what, date_trunc('HOUR', first_ts) AS h, COUNT(*) AS n, "
         "MAX(s_dec) AS x FROM {c} GROUP BY p, date_trunc('HOUR', first_ts)", hourly),
        ("SELECT p, 'last', date_trunc('HOUR', last_ts), COUNT(*), SUM(s_dec) FROM {c} "
         "GROUP BY p, date_trunc('HOUR', last_ts)", sums),
    ]
    pushed_sql = "\nUNION ALL\n".join(b.format(c=f"{c} AS m") for b, c in branches)
    enumerated_sql = "\nUNION ALL\n".join(b.format(c=f"(SELECT * FROM {c}) AS m")
                                          for b, c in branches)
    assert "== shared pass: function" in explain_statement(pushed_sql)
    pushed, enumerated = sparkcep.sql(spark, pushed_sql), sparkcep.sql(spark, enumerated_sql)
    expected = _rows(enumerated)
    assert len({r[1] for r in expected}) == 2 and len(expected) >= 4
    assert _rows(pushed) == expected
    assert pushed.schema == enumerated.schema
