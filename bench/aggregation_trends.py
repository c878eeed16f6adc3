"""GRETA's shape (Poppe et al., VLDB 2017): counting rising event trends without building them.

``PATTERN (S+)`` under SKIP TILL ANY MATCH with ``DEFINE S AS LAST(S.price, 1) IS NULL OR
S.price > LAST(S.price, 1)``: every increasing subsequence of a partition's prices is a match, and
their number grows exponentially with the rows per partition. No Spark: 10,000 stock-like events
(prices 1..100 at random) cut into partitions of ``--sizes`` rows each, as a Python worker would
get them. Per partition size it times

* ``aggregation``: ``sparkcep.engines.sase.trend_aggregation.TrendAggregationEngine`` (counters
  per automaton state keyed by the last S row's price), COUNT(*) and SUM(FIRST(S.price));
* ``enumeration``: the postponing engine (SASE++) with the same condition, reporting every match,
  then the same COUNT/SUM -- stopped after ``--budget`` seconds of CPU and then extrapolated at
  its measured cost per match to the exact number of matches (a lower bound), as in
  ``bench/aggregation_aseq.py``.

    .venv/bin/python bench/aggregation_trends.py > bench/results/aggregation_trends.jsonl

Prints one JSON line per partition size.

``--distinct d1 d2 ...`` times instead the aggregation alone over one partition of ``--rows``
rows whose prices are drawn from d distinct values: the cost of the order comparison per row,
which grows with the distinct prices alive (a scan of the counters) or with their logarithm (a
Fenwick tree over their ranks). The matches are printed modulo 10^9 (and their digits), to check
that two versions of the engine count alike::

    .venv/bin/python bench/aggregation_trends.py --distinct 10 100 1000 10000 100000 --rows 5000
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.contract import RowBlock
from sparkcep.engines.sase.aggregation import MeasureRef
from sparkcep.engines.sase.trend_aggregation import RowComparison, TrendAggregationEngine
from sparkcep.engines.selection import make_sase_engine
from sparkcep.engines.spec import MatchSpec, Strategy
from sparkcep.errors import MatchRuntimeError

LIMITS = dict(max_steps=10 ** 15, max_matches=10 ** 15, max_live_runs=10 ** 12,
              max_buffered_rows=10 ** 12)
SPEC = MatchSpec(pattern=rp.Quantified(rp.Label(0), 1, None), variable_names=("S",),
                 strategy=Strategy.SKIP_TILL_ANY_MATCH, **LIMITS)
RISING = RowComparison(variable=0, column=0, op="gt", ref=MeasureRef(0, "last", 0),
                       holds_when_null=True)
FIRST_PRICE = MeasureRef(variable=0, which="first", column=0)


def rising(ctx) -> bool:
    """The same DEFINE for the enumerating engine: the previous S row's price is lower."""
    rows = ctx.mapped_rows(frozenset([0]))
    return len(rows) < 2 or ctx.value(0, rows[-2]) < ctx.value(0, rows[-1])


def partitions(prices: list[int], size: int):
    for start in range(0, len(prices), size):
        part = prices[start:start + size]
        yield RowBlock(masks=np.ones((1, len(part)), dtype=bool), columns=(part,))


def run_aggregation(prices, size):
    started = time.process_time()
    matches, total = 0, 0
    for block in partitions(prices, size):
        engine = TrendAggregationEngine(SPEC, (FIRST_PRICE,), (RISING,))
        engine.feed(block)
        totals = engine.totals()
        matches += totals.matches
        total += totals.measures[0].total or 0
    return time.process_time() - started, matches, total


def run_enumeration(prices, size, budget: float):
    started = time.process_time()
    count, total, complete = 0, 0, True
    try:
        for block in partitions(prices, size):
            engine = make_sase_engine(SPEC, {0: rising})
            for start in range(0, len(block), 64):
                piece = RowBlock(block.masks[:, start:start + 64],
                                 (block.columns[0][start:start + 64],))
                for match in engine.feed(piece):
                    count += 1
                    total += block.columns[0][match.rows[0] % size]
                if time.process_time() - started > budget:
                    raise TimeoutError
            for match in engine.finish():
                count += 1
                total += block.columns[0][match.rows[0] % size]
    except (TimeoutError, MatchRuntimeError):
        complete = False
    return time.process_time() - started, complete, count, total


def run_distinct(rows: int, distinct: int, blocks: int):
    rnd = random.Random(distinct)
    prices = [rnd.randrange(distinct) for _ in range(rows)]
    started = time.process_time()
    engine = TrendAggregationEngine(SPEC, (FIRST_PRICE,), (RISING,))
    step = -(-rows // blocks)
    for start in range(0, rows, step):
        part = prices[start:start + step]
        engine.feed(RowBlock(masks=np.ones((1, len(part)), dtype=bool), columns=(part,)))
    totals = engine.totals()
    return time.process_time() - started, totals.matches, len(set(prices))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 40, 80, 200, 1000])
    parser.add_argument("--budget", type=float, default=10.0, help="CPU seconds per enumeration")
    parser.add_argument("--distinct", type=int, nargs="*", default=None)
    parser.add_argument("--rows", type=int, default=5_000)
    parser.add_argument("--blocks", type=int, default=5, help="batches the partition arrives in")
    args = parser.parse_args()
    if args.distinct:
        for distinct in args.distinct:
            seconds, matches, seen = run_distinct(args.rows, distinct, args.blocks)
            print(json.dumps({
                "rows": args.rows, "distinct": distinct, "distinct_seen": seen,
                "blocks": args.blocks, "aggregation_s": round(seconds, 3),
                "matches_mod_1e9": matches % 10 ** 9, "matches_digits": len(str(matches)),
            }), flush=True)
        return
    rnd = random.Random(17)
    prices = [rnd.randint(1, 100) for _ in range(args.events)]
    for size in args.sizes:
        agg_seconds, matches, total = run_aggregation(prices, size)
        enum_seconds, complete, enum_matches, enum_total = run_enumeration(
            prices, size, args.budget)
        if complete:
            assert (enum_matches, enum_total) == (matches, total), size
        else:
            enum_seconds *= matches / max(enum_matches, 1)
        print(json.dumps({
            "rows_per_partition": size, "matches": matches,
            "aggregation_s": round(agg_seconds, 4), "enumeration_s": round(enum_seconds, 2),
            "enumeration_complete": complete,
            "ratio": round(enum_seconds / max(agg_seconds, 1e-9), 1),
        }), flush=True)


if __name__ == "__main__":
    main()
