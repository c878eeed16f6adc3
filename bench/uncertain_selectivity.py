"""Zhang, Diao, Immerman (PVLDB 2010) Figure 4(d): query-order against selectivity-order
evaluation as the selectivity is skewed towards the first component (engines only, no Spark).

Stream: the generator of ``uncertain_point_vs_event.py`` (event i in ``[i - delta, i + delta]``,
value ``i % 1000 + 1``). Query: ``SEQ(E1, E2, E3) WHERE E1.v % m1 = 0, E2.v % m2 = 0,
E3.v % m3 = 0 WITHIN 100`` under SKIP TILL ANY MATCH, with ``m1 * m2 * m3 = 15,000`` throughout
(the same overall selectivity) and the skew ``m3 / m1`` growing: more E1 events, fewer E3 events.
Query order extends every E1 event by its E2 candidates (one DP step each) before it learns that
no E3 follows; selectivity order looks for the rarest component first and drops such a start at
once. Each configuration runs for ``--budget`` seconds; events per CPU second are compared.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/uncertain_selectivity.py \
        >> bench/results/uncertain_selectivity.jsonl
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

import numpy as np

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.spec import MatchSpec, Strategy
from sparkcep.engines.uncertain import make_uncertain_engine

sys.path.insert(0, str(Path(__file__).resolve().parent))
from uncertain_common import as_arrays, commit, emit, throughput  # noqa: E402

PATTERN = rp.Concat((rp.Label(0), rp.Label(1), rp.Label(2)))
# (m1, m2, m3) with m1 * m2 * m3 = 15,000: uniform, then ever more E1 and fewer E3 events
MODULI = ((30, 25, 20), (20, 25, 30), (10, 25, 60), (5, 25, 120), (4, 25, 150), (2, 25, 300))


def stream(n: int, delta: int, moduli):
    t = np.arange(n, dtype=np.int64)
    v = t % 1000 + 1
    masks = np.stack([v % m == 0 for m in moduli])
    return as_arrays(masks, t - delta, t + delta)


def run(args) -> None:
    c = commit()
    spec = MatchSpec(PATTERN, ("E1", "E2", "E3"), strategy=Strategy.SKIP_TILL_ANY_MATCH,
                     max_steps=10**12)
    for delta in args.deltas:
        for moduli in MODULI:
            masks, lo, hi = stream(args.events, delta, moduli)
            for order in ("query", "selectivity"):
                make = partial(make_uncertain_engine, order=order)
                r = throughput(make, spec, masks, lo, hi, budget=args.budget, window=args.window)
                r.pop("stats")
                emit({"bench": "uncertain_selectivity", "commit": c, "delta": delta,
                      "moduli": list(moduli), "skew": moduli[2] / moduli[0], "order": order,
                      "window": args.window, **r}, sys.stdout)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deltas", type=int, nargs="+", default=[10, 30])
    p.add_argument("--events", type=int, default=200_000)
    p.add_argument("--window", type=int, default=100)
    p.add_argument("--budget", type=float, default=2.0)
    run(p.parse_args())


if __name__ == "__main__":
    main()
