"""Confidence computation against the window: the time-point DP against point enumeration
(Zhang, Diao, Immerman, "Optimizing Expensive Queries in Complex Event Processing", section 6.3,
Figure 6(a): without the DP, evaluation fails beyond a window of about 3,000). Engines only.

Stream: event i occurs in [8i, 8i + 9] (intervals of 10 time points, neighbours overlap by 2);
each event is an A (1 %), a B (1 %), a C (0.2 %) or none of them, at random (seed 1). Query:
PATTERN (A B+ C) under SKIP TILL NEXT MATCH WITHIN W: every start takes the B events up to the
next C, so a match's Kleene closure grows with the window (about W / 800 events). The event-based
engine computes each match's confidence with the time-point DP (linear in the match length); the
point-based engine enumerates point matches (exponential in it). Each configuration runs for
``--budget`` seconds; a point-based configuration slower than ``--give-up`` seconds ends its sweep.

    .venv/bin/python bench/uncertain_window.py > bench/results/uncertain_window.jsonl
    .venv/bin/python bench/uncertain_window.py --plot      # docs/img/uncertain_window.png
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.spec import MatchSpec, Strategy
from sparkcep.engines.uncertain import make_point_engine, make_uncertain_engine

sys.path.insert(0, str(Path(__file__).resolve().parent))
from uncertain_common import as_arrays, commit, emit, throughput  # noqa: E402

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "uncertain_window.jsonl"
IMG = HERE.parent / "docs" / "img" / "uncertain_window.png"
PATTERN = rp.Concat((rp.Label(0), rp.Quantified(rp.Label(1), 1, None), rp.Label(2)))


def stream(n: int, seed: int = 1):
    rnd = np.random.default_rng(seed)
    u = rnd.random(n)
    masks = np.stack([u < 0.01, (u >= 0.01) & (u < 0.02), (u >= 0.02) & (u < 0.022)])
    lo = np.arange(n, dtype=np.int64) * 8
    return as_arrays(masks, lo, lo + 9)


def run(args) -> None:
    c = commit()
    spec = MatchSpec(PATTERN, ("A", "B", "C"), strategy=Strategy.SKIP_TILL_NEXT_MATCH,
                     max_steps=10**12)
    masks, lo, hi = stream(args.events)
    point_alive = True
    for window in args.windows:
        for name, make in (("event-based (DP)", make_uncertain_engine),
                           ("point-based (enumeration)", make_point_engine)):
            if make is make_point_engine and not point_alive:
                continue
            r = throughput(make, spec, masks, lo, hi, budget=args.budget, window=window)
            r.pop("stats")
            emit({"bench": "uncertain_window", "commit": c, "engine": name, "window": window, **r},
                 sys.stdout)
            if make is make_point_engine and r["seconds"] > args.give_up:
                point_alive = False


def plot() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [json.loads(x) for x in RESULTS.read_text().splitlines() if x.strip()]
    last = rows[-1]["commit"]
    rows = [r for r in rows if r["commit"] == last]
    fig, ax = plt.subplots(figsize=(7, 4))
    for engine, style in (("event-based (DP)", "o-"), ("point-based (enumeration)", "s--")):
        pts = [(r["window"], r["events_per_s"]) for r in rows if r["engine"] == engine]
        if pts:
            ax.plot(*zip(*pts), style, label=engine)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("window W (time points)")
    ax.set_ylabel("events / s (one core)")
    ax.set_title("A B+ C, SKIP TILL NEXT MATCH, intervals of 10 points")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(IMG, dpi=110)
    print("wrote", IMG)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--windows", type=int, nargs="+",
                   default=[500, 1000, 2000, 3000, 5000, 10000, 20000, 30000, 50000])
    p.add_argument("--events", type=int, default=300_000)
    p.add_argument("--budget", type=float, default=3.0)
    p.add_argument("--give-up", type=float, default=20.0)
    p.add_argument("--plot", action="store_true")
    args = p.parse_args()
    if args.plot:
        plot()
    else:
        run(args)


if __name__ == "__main__":
    main()
