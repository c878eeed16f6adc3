"""Throughput against MINIMUM CONFIDENCE (Zhang, Diao, Immerman, "Optimizing Expensive Queries in
Complex Event Processing", section 5.3, Algorithm 1; Figure 6(a): the DP's throughput rises with
the threshold). Engines only.

Stream: event i occurs in [2i, 2i + 9] (intervals of 10 time points, each overlapping the next
four), an A (5 %), a B (30 %), a C (5 %) or none, at random (seed 2). Query: PATTERN (A B+ C)
under SKIP TILL ANY MATCH WITHIN 40: every subset of the B events between an A and a C, in every
order the intervals allow, is a match signature; most have a low confidence. The event-based
engine prunes a partial match (and all its extensions) as soon as its probability bound falls
below the threshold; threshold 0 prunes nothing and reports every match. Each threshold runs for
``--budget`` seconds.

    .venv/bin/python bench/uncertain_threshold.py > bench/results/uncertain_threshold.jsonl
    .venv/bin/python bench/uncertain_threshold.py --plot   # docs/img/uncertain_threshold.png
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.spec import MatchSpec, Strategy
from sparkcep.engines.uncertain import make_uncertain_engine

sys.path.insert(0, str(Path(__file__).resolve().parent))
from uncertain_common import as_arrays, commit, emit, throughput  # noqa: E402

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "uncertain_threshold.jsonl"
IMG = HERE.parent / "docs" / "img" / "uncertain_threshold.png"
PATTERN = rp.Concat((rp.Label(0), rp.Quantified(rp.Label(1), 1, None), rp.Label(2)))


def stream(n: int, seed: int = 2):
    rnd = np.random.default_rng(seed)
    u = rnd.random(n)
    masks = np.stack([u < 0.05, (u >= 0.05) & (u < 0.35), (u >= 0.35) & (u < 0.40)])
    lo = np.arange(n, dtype=np.int64) * 2
    return as_arrays(masks, lo, lo + 9)


def run(args) -> None:
    c = args.commit or commit()
    spec = MatchSpec(PATTERN, ("A", "B", "C"), strategy=Strategy.SKIP_TILL_ANY_MATCH,
                     max_steps=10**12)
    masks, lo, hi = stream(args.events)
    for threshold in args.thresholds:
        r = throughput(make_uncertain_engine, spec, masks, lo, hi, budget=args.budget,
                       window=args.window, min_confidence=threshold)
        stats = r.pop("stats")
        emit({"bench": "uncertain_threshold", "commit": c, "threshold": threshold,
              "window": args.window, **r, "partial_matches": stats["nodes"],
              "pruned": stats["pruned"]}, sys.stdout)


def plot() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [json.loads(x) for x in RESULTS.read_text().splitlines() if x.strip()]
    last = rows[-1]["commit"]
    rows = [r for r in rows if r["commit"] == last]
    fig, ax = plt.subplots(figsize=(7, 4))
    labels = [str(r["threshold"]) for r in rows]
    ax.bar(labels, [r["events_per_s"] for r in rows], color="tab:blue")
    ax.set_yscale("log")
    ax.set_xlabel("MINIMUM CONFIDENCE")
    ax.set_ylabel("events / s (one core)")
    ax.set_title(f"A B+ C, SKIP TILL ANY MATCH WITHIN {rows[-1]['window']}, intervals of 10 points")
    fig.tight_layout()
    fig.savefig(IMG, dpi=110)
    print("wrote", IMG)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--thresholds", type=float, nargs="+",
                   default=[0.0, 0.001, 0.01, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99])
    p.add_argument("--events", type=int, default=200_000)
    p.add_argument("--window", type=int, default=40)
    p.add_argument("--budget", type=float, default=3.0)
    p.add_argument("--commit", help="the commit to record (default: HEAD); for another version "
                   "of the package run through PYTHONPATH")
    p.add_argument("--plot", action="store_true")
    args = p.parse_args()
    if args.plot:
        plot()
    else:
        run(args)


if __name__ == "__main__":
    main()
