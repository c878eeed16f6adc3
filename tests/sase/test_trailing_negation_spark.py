"""Trailing negation through ``sparkcep.sql`` on Spark, against the brute-force reference of
``test_trailing_negation`` (the masks computed here in Python from the rows' values): many
partitions per query, SKIP TILL NEXT MATCH and SKIP TILL ANY MATCH, ONE ROW and ALL ROWS PER
MATCH, a match-dependent condition on the negated variable, a DESC-free numeric key, and the same
queries cut into WITHIN chunks."""

from __future__ import annotations

import random

import pytest

import sparkcep

from .harness import ANY, NEXT
from .test_trailing_negation import reference

pytestmark = pytest.mark.spark

PAGES = ("home", "cart", "buy", "help")
WITHIN = 12


def _rows(seed: int, partitions: int = 40):
    rng = random.Random(seed)
    rows = []
    for p in range(partitions):
        t = rng.randint(0, 5)
        for _ in range(rng.randint(2, 9)):
            t += rng.choice([1, 2, 3, 5, 8, 13])
            rows.append((f"u{p:02d}", t, rng.randint(0, 3), rng.choice(PAGES)))
    return rows


def _expected(rows, strategy, same_value: bool):
    """Per partition, the reference's matches as (user, first t, last t, rows, labels)."""
    out = []
    for user in sorted({r[0] for r in rows}):
        part = sorted((r for r in rows if r[0] == user), key=lambda r: r[1])
        keys = [r[1] for r in part]
        masks = [[r[3] == "home" for r in part], [r[3] == "cart" for r in part],
                 [r[3] == "buy" for r in part]]
        conds = [None, None, None]
        if same_value:  # C AS C.v = A.v: no buy of the A row's value
            def c_same(ctx):
                a = [r for r in ctx.mapped_rows(frozenset([0]))]
                return ctx.value(0, ctx.row) == ctx.value(0, a[0])

            conds[2] = c_same
        from sparkcep.engines import rowpattern as rp
        from .harness import spec_of

        pattern = rp.Concat((rp.Label(0), rp.Quantified(rp.Label(1), 1, None), rp.Negation(2)))
        spec = spec_of(pattern, 3, strategy, WITHIN)
        for number, (mrows, labels) in enumerate(
                reference(spec, (2,), conds, masks, keys, [[r[2] for r in part]]), start=1):
            out.append((user, number, keys[mrows[0]], keys[mrows[-1]], len(mrows),
                        tuple(keys[i] for i in mrows), tuple("AB"[v] for v in labels)))
    return out


QUERY = """
SELECT * FROM trailing MATCH_RECOGNIZE (
  PARTITION BY user_id ORDER BY t
  MEASURES {number} AS n, FIRST(A.t) AS first_t, LAST(B.t) AS last_t, COUNT(*) AS rows_,
           array_agg(t) AS ts, array_agg(CLASSIFIER()) AS labels
  {rows}
  {strategy}
  PATTERN (A B+ !C) WITHIN {within}
  DEFINE A AS page = 'home', B AS page = 'cart', C AS page = 'buy'{same}
)"""


@pytest.mark.parametrize("strategy", [NEXT, ANY], ids=["next", "any"])
def test_trailing_negation_batch(spark, strategy):
    rows = _rows(7 if strategy is NEXT else 8)
    spark.createDataFrame(rows, "user_id STRING, t BIGINT, v INT, page STRING") \
        .createOrReplaceTempView("trailing")
    for same_value in (False, True):
        want = _expected(rows, strategy, same_value)
        assert len(want) > 10
        text = QUERY.format(number="MATCH_NUMBER()", rows="ONE ROW PER MATCH",
                            strategy=strategy.value, within=WITHIN,
                            same=" AND C.v = A.v" if same_value else "")
        frame = sparkcep.sql(spark, text)
        assert [f.dataType.simpleString() for f in frame.schema.fields][:5] == \
            ["string", "bigint", "bigint", "bigint", "bigint"]
        got = sorted((r.user_id, r.n, r.first_t, r.last_t, r.rows_, tuple(r.ts), tuple(r.labels))
                     for r in frame.collect())
        assert got == sorted(want), same_value

    want = _expected(rows, strategy, False)
    if strategy is ANY:
        # the same query cut into WITHIN chunks (no MATCH_NUMBER: it is not chunked with it)
        spark.conf.set("spark.sparkcep.withinChunks", "4")
        try:
            text = QUERY.format(number="0", rows="ONE ROW PER MATCH", strategy=strategy.value,
                                within=WITHIN, same="")
            got = sorted((r.user_id, r.first_t, r.last_t, tuple(r.ts))
                         for r in sparkcep.sql(spark, text).collect())
        finally:
            spark.conf.unset("spark.sparkcep.withinChunks")
        assert got == sorted((u, f, l, ts) for u, _n, f, l, _c, ts, _lab in want)
        return
    # ALL ROWS PER MATCH: every row of every surviving match
    text = QUERY.format(number="MATCH_NUMBER()", rows="ALL ROWS PER MATCH",
                        strategy=strategy.value, within=WITHIN, same="")
    got = sorted((r.user_id, r.n, r.t) for r in sparkcep.sql(spark, text).collect())
    assert got == sorted((u, n, t) for u, n, _f, _l, _c, ts, _lab in want for t in ts)

