"""A-Seq's single-query experiments: aggregation without enumeration vs enumerate-then-aggregate.

No Spark: the engines run on one partition, as a Python worker would. The trace is stock-like
(A-Seq, Qi 2013, Chapter 5: a stream of trades of a few symbols): 10,000 events, each of one of
``--types`` event types drawn at random, integer time stamps one apart, a price per event. The
query is ``PATTERN (E1 E2 ... En) WITHIN w`` under SKIP TILL ANY MATCH, COUNT(*) and SUM(E1.price)
per partition. For each pattern length and window it times

* ``aggregation``: ``sparkcep.engines.sase.aggregation.AggregationEngine`` (prefix counters);
* ``enumeration``: the postponing engine (SASE++) reporting every match, then the same COUNT/SUM
  over the reported matches -- stopped after ``--budget`` seconds and then extrapolated at the
  measured cost per match to the exact number of matches (``enumeration_complete`` false), a
  lower bound, since building a match costs at least what building the ones before it did.

    .venv/bin/python bench/aggregation_aseq.py                       # lengths 2..5, w = 100..2000
    .venv/bin/python bench/aggregation_aseq.py --lengths 6 7 8 9 10 --windows 100 500

Prints one JSON line per (length, window) with both times, the ratio, the number of matches and
the aggregation engine's peak live start-counter vectors, sampled per block of 1,024 rows (its
memory), for ``bench/plot.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.contract import RowBlock
from sparkcep.engines.sase.aggregation import AggregationEngine, MeasureRef
from sparkcep.engines.selection import make_sase_engine
from sparkcep.engines.spec import MatchSpec, Strategy
from sparkcep.errors import MatchRuntimeError


def trace(events: int, types: int, seed: int = 4) -> tuple[np.ndarray, list[int]]:
    rnd = random.Random(seed)
    kinds = [rnd.randrange(types) for _ in range(events)]
    prices = [rnd.randint(1, 500) for _ in range(events)]
    return np.array(kinds), prices


def spec_for(length: int, window: int) -> MatchSpec:
    pattern = rp.Concat(tuple(rp.Label(v) for v in range(length)))
    return MatchSpec(pattern=pattern, variable_names=tuple(f"E{v + 1}" for v in range(length)),
                     strategy=Strategy.SKIP_TILL_ANY_MATCH, within=window,
                     max_steps=10 ** 15, max_matches=10 ** 15, max_live_runs=10 ** 12,
                     max_buffered_rows=10 ** 12)


def blocks(kinds: np.ndarray, prices: list[int], length: int, size: int = 1024):
    keys = np.arange(len(kinds), dtype=np.int64)
    for start in range(0, len(kinds), size):
        part = kinds[start:start + size]
        masks = np.stack([part == v for v in range(length)])
        yield RowBlock(masks=masks, columns=(prices[start:start + size],), order_key=keys[start:start + size])


def run_aggregation(spec, kinds, prices, length):
    engine = AggregationEngine(spec, (MeasureRef(variable=0, which="first", column=0),))
    started = time.process_time()
    peak = 0
    for block in blocks(kinds, prices, length):
        engine.feed(block)
        peak = max(peak, engine.live_vectors)
    totals = engine.totals()
    return time.process_time() - started, totals.matches, totals.measures[0].total, peak


def run_enumeration(spec, kinds, prices, length, budget: float):
    engine = make_sase_engine(spec, {})
    started = time.process_time()
    count, total, rows = 0, 0, 0
    try:
        for block in blocks(kinds, prices, length, size=64):
            for match in engine.feed(block):
                count += 1
                total += prices[match.rows[0]]
            rows += len(block)
            if time.process_time() - started > budget:
                break
        else:
            for match in engine.finish():
                count += 1
                total += prices[match.rows[0]]
    except MatchRuntimeError:
        pass
    seconds = time.process_time() - started
    complete = rows >= len(kinds)
    return seconds, complete, count, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--types", type=int, default=10)
    parser.add_argument("--lengths", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--windows", type=int, nargs="+", default=[100, 500, 1000, 2000])
    parser.add_argument("--budget", type=float, default=20.0, help="seconds per enumeration run")
    args = parser.parse_args()
    kinds, prices = trace(args.events, args.types)
    for length in args.lengths:
        for window in args.windows:
            spec = spec_for(length, window)
            agg_seconds, matches, total, peak = run_aggregation(spec, kinds, prices, length)
            enum_seconds, complete, enum_matches, enum_total = run_enumeration(
                spec, kinds, prices, length, args.budget)
            if complete:
                assert (enum_matches, enum_total) == (matches, total), (length, window)
            else:  # at the measured cost per match: enumeration cannot cost less than its output
                enum_seconds *= matches / max(enum_matches, 1)
            print(json.dumps({
                "length": length, "window": window, "matches": matches,
                "aggregation_s": round(agg_seconds, 4),
                "enumeration_s": round(enum_seconds, 2), "peak_start_vectors": peak, "enumeration_complete": complete,
                "ratio": round(enum_seconds / max(agg_seconds, 1e-9), 1),
            }), flush=True)


if __name__ == "__main__":
    main()
