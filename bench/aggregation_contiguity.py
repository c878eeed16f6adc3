"""Is a counting path worth it under strict contiguity? Enumeration is already linear there.

Under strict contiguity (the SQL standard, no SKIP TILL clause) a match is a run of adjacent rows
and AFTER MATCH SKIP resumes the search after it: with PAST LAST ROW (the default) matches do not
overlap, so there are at most n / (shortest match) of them and the matcher reads each row a
bounded number of times; with TO NEXT ROW each row starts at most one match, so the matches
number at most n and the work is the sum of their lengths. So an aggregate over them needs no
counters to be polynomial: Spark aggregates at most n rows. This script times, without Spark,
the engine that runs such a query today (``sparkcep.engines.standard.regex_path``, ONE ROW PER
MATCH answered column-wise as the runner asks for it) over random partitions of n rows, next to
the SKIP TILL ANY MATCH counting engine (``sparkcep.engines.sase.aggregation``) over the same
rows as a per-row cost reference, and one adversarial TO NEXT ROW partition (every row an A,
then one C, ``PATTERN (A+ C)``: n matches of total length n^2 / 2).

    .venv/bin/python bench/aggregation_contiguity.py > bench/results/aggregation_contiguity.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.contract import MatchSummaries, RowBlock, SummaryRequest
from sparkcep.engines.sase.aggregation import AggregationEngine
from sparkcep.engines.spec import MatchSpec, SkipMode, Strategy
from sparkcep.engines.standard.regex_path import RegexMatcher

LIMITS = dict(max_steps=10 ** 15, max_matches=10 ** 15, max_live_runs=10 ** 12,
              max_buffered_rows=10 ** 12)
A_BPLUS_C = rp.Concat((rp.Label(0), rp.Quantified(rp.Label(1), 1, None), rp.Label(2)))
APLUS_C = rp.Concat((rp.Quantified(rp.Label(0), 1, None), rp.Label(2)))
REQUEST = SummaryRequest(first=frozenset([0]), last=frozenset([1]))  # A.x, LAST(B.x)


def masks_of(types: str) -> np.ndarray:
    return np.array([[t == x for t in types] for x in "abc"], dtype=bool)


def blocks(masks: np.ndarray, size: int = 10_000):
    for start in range(0, masks.shape[1], size):
        yield RowBlock(masks=masks[:, start:start + size])


def contiguity(pattern, masks, skip: SkipMode):
    spec = MatchSpec(pattern, ("A", "B", "C"), strategy=Strategy.STRICT_CONTIGUITY, skip=skip,
                     **LIMITS)
    started = time.process_time()
    engine = RegexMatcher(spec, max_buffered_rows=10 ** 9, summary=REQUEST)
    for block in blocks(masks):
        engine.feed(block)
    matches = sum(len(e) if isinstance(e, MatchSummaries) else 1 for e in engine.finish())
    return time.process_time() - started, matches


def counting(masks):
    spec = MatchSpec(A_BPLUS_C, ("A", "B", "C"), strategy=Strategy.SKIP_TILL_ANY_MATCH, **LIMITS)
    started = time.process_time()
    engine = AggregationEngine(spec)
    for block in blocks(masks):
        engine.feed(block)
    return time.process_time() - started, engine.totals().matches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[100_000, 300_000, 1_000_000])
    parser.add_argument("--adversarial", type=int, nargs="+", default=[2_000, 4_000, 8_000])
    args = parser.parse_args()
    rnd = random.Random(5)
    for n in args.rows:
        masks = masks_of("".join(rnd.choice("aabbbbcx") for _ in range(n)))
        past_s, past = contiguity(A_BPLUS_C, masks, SkipMode.PAST_LAST_ROW)
        next_s, next_ = contiguity(A_BPLUS_C, masks, SkipMode.TO_NEXT_ROW)
        any_s, any_matches = counting(masks)
        print(json.dumps({
            "rows": n, "pattern": "A B+ C",
            "past_last_row_s": round(past_s, 3), "past_last_row_matches": past,
            "to_next_row_s": round(next_s, 3), "to_next_row_matches": next_,
            "any_counting_s": round(any_s, 3), "any_matches_bits": any_matches.bit_length(),
        }), flush=True)
    for n in args.adversarial:
        masks = masks_of("a" * n + "c")
        seconds, matches = contiguity(APLUS_C, masks, SkipMode.TO_NEXT_ROW)
        print(json.dumps({"rows": n + 1, "pattern": "A+ C", "to_next_row_s": round(seconds, 3),
                          "to_next_row_matches": matches}), flush=True)


if __name__ == "__main__":
    main()
