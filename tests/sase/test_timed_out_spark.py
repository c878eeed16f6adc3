"""``WITH TIMED OUT MATCHES`` and ``MATCH_STATUS()`` through ``sparkcep.sql`` on Spark, against
the brute-force simulation of ``test_timed_out`` (masks computed here from the rows' values):
40 partitions per query, ONE ROW and ALL ROWS PER MATCH, measures over a partial match (a
variable it did not reach: NULL, COUNT 0), typed result."""

from __future__ import annotations

import pytest

import sparkcep
from sparkcep.engines import rowpattern as rp

from .test_timed_out import simulate
from .test_trailing_negation_spark import WITHIN, _rows  # the same random partitions

pytestmark = pytest.mark.spark



def _expected(rows):
    """Per partition: (user, number, status, first A t, last C t, B count, C count, ts)."""
    out = []
    pattern = rp.Concat((rp.Label(0), rp.Quantified(rp.Label(1), 1, None), rp.Label(2)))
    for user in sorted({r[0] for r in rows}):
        part = sorted((r for r in rows if r[0] == user), key=lambda r: r[1])
        keys = [r[1] for r in part]
        masks = [[r[3] == "home" for r in part], [r[3] == "cart" for r in part],
                 [r[3] == "buy" for r in part]]
        found = simulate(pattern, masks, keys, [[r[2] for r in part]], [None] * 3, WITHIN)
        for number, (status, mrows, labels) in enumerate(found, start=1):
            c_rows = [keys[i] for i, v in zip(mrows, labels) if v == 2]
            out.append((user, number, status, keys[mrows[0]], c_rows[-1] if c_rows else None,
                        sum(1 for v in labels if v == 1), len(c_rows),
                        tuple(keys[i] for i in mrows)))
    return out


QUERY = """
SELECT * FROM timeouts MATCH_RECOGNIZE (
  PARTITION BY user_id ORDER BY t
  MEASURES MATCH_NUMBER() AS n, MATCH_STATUS() AS status, FIRST(A.t) AS a_t, LAST(C.t) AS c_t,
           COUNT(B.*) AS nb, COUNT(C.*) AS nc, array_agg(t) AS ts
  {rows} WITH TIMED OUT MATCHES
  SKIP TILL NEXT MATCH
  PATTERN (A B+ C) WITHIN {within}
  DEFINE A AS page = 'home', B AS page = 'cart', C AS page = 'buy'
)"""


def test_timed_out_matches_batch(spark):
    rows = _rows(11)
    spark.createDataFrame(rows, "user_id STRING, t BIGINT, v INT, page STRING") \
        .createOrReplaceTempView("timeouts")
    want = _expected(rows)
    statuses = {w[2] for w in want}
    assert statuses == {"COMPLETE", "TIMED_OUT"}
    frame = sparkcep.sql(spark, QUERY.format(rows="ONE ROW PER MATCH", within=WITHIN))
    types = {f.name: f.dataType.simpleString() for f in frame.schema.fields}
    assert (types["status"], types["c_t"], types["nc"]) == ("string", "bigint", "bigint")
    got = sorted((r.user_id, r.n, r.status, r.a_t, r.c_t, r.nb, r.nc, tuple(r.ts))
                 for r in frame.collect())
    assert got == sorted(want)

    frame = sparkcep.sql(spark, QUERY.format(rows="ALL ROWS PER MATCH", within=WITHIN))
    got = sorted((r.user_id, r.n, r.status, r.t) for r in frame.collect())
    assert got == sorted((u, n, s, t) for u, n, s, _a, _c, _b, _nc, ts in want for t in ts)

    # the same query cut into WITHIN chunks (without MATCH_NUMBER, which is not chunked): a run
    # belongs to the chunk that owns its first row, which holds the whole window of that row
    spark.conf.set("spark.sparkcep.withinChunks", "4")
    try:
        text = QUERY.format(rows="ONE ROW PER MATCH", within=WITHIN).replace(
            "MATCH_NUMBER() AS n, ", "")
        got = sorted((r.user_id, r.status, r.a_t, r.c_t, r.nb, r.nc, tuple(r.ts))
                     for r in sparkcep.sql(spark, text).collect())
    finally:
        spark.conf.unset("spark.sparkcep.withinChunks")
    assert got == sorted((u, s, a, c, b, nc, ts) for u, _n, s, a, c, b, nc, ts in want)
