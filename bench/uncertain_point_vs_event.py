"""Zhang, Diao, Immerman (PVLDB 2010) Figure 4(a)/(e): point-based against event-based evaluation
as the half interval size delta grows (engines only, no Spark).

Stream (the paper's generator, section 6): one event per time unit, event i at time i with the
interval [i - delta, i + delta] and one attribute, the value i % 1000 + 1 (increasing, wrapping).
Query: SEQ(E1, E2, E3) WHERE E1.v % 20 = 0, E2.v % 25 = 0, E3.v % 30 = 0 WITHIN 100, under
SKIP TILL ANY MATCH and SKIP TILL NEXT MATCH. Each configuration runs until ``--budget`` seconds
have passed (rows are fed 50 at a time); a point-based configuration slower than ``--give-up``
seconds stops its strategy's sweep.

    .venv/bin/python bench/uncertain_point_vs_event.py > bench/results/uncertain_point_vs_event.jsonl
    .venv/bin/python bench/uncertain_point_vs_event.py --plot   # docs/img/uncertain_point_vs_event.png
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
RESULTS = HERE / "results" / "uncertain_point_vs_event.jsonl"
IMG = HERE.parent / "docs" / "img" / "uncertain_point_vs_event.png"
PATTERN = rp.Concat((rp.Label(0), rp.Label(1), rp.Label(2)))
MODULI = (20, 25, 30)


def stream(n: int, delta: int):
    t = np.arange(n, dtype=np.int64)
    v = t % 1000 + 1
    masks = np.stack([v % m == 0 for m in MODULI])
    return as_arrays(masks, t - delta, t + delta)


def run(args) -> None:
    c = args.commit or commit()
    chosen = {"ANY": Strategy.SKIP_TILL_ANY_MATCH, "NEXT": Strategy.SKIP_TILL_NEXT_MATCH}
    for strategy in (chosen[s] for s in args.strategies):
        spec = MatchSpec(PATTERN, ("E1", "E2", "E3"), strategy=strategy, max_steps=10**12)
        point_alive = True
        for delta in args.deltas:
            masks, lo, hi = stream(args.events, delta)
            for name, make in (("event-based", make_uncertain_engine), ("point-based", make_point_engine)):
                if name not in args.engines or (name == "point-based" and not point_alive):
                    continue
                r = throughput(make, spec, masks, lo, hi, budget=args.budget, window=args.window)
                r.pop("stats")
                emit({"bench": "uncertain_point_vs_event", "commit": c, "strategy": strategy.value,
                      "engine": name, "delta": delta, "window": args.window, **r}, sys.stdout)
                if name == "point-based" and r["seconds"] > args.give_up:
                    point_alive = False


def plot() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [json.loads(x) for x in RESULTS.read_text().splitlines() if x.strip()]
    last = rows[-1]["commit"]
    rows = [r for r in rows if r["commit"] == last]
    fig, ax = plt.subplots(figsize=(7, 4))
    for (strategy, engine), style in {
        ("SKIP TILL ANY MATCH", "event-based"): "o-", ("SKIP TILL ANY MATCH", "point-based"): "o--",
        ("SKIP TILL NEXT MATCH", "event-based"): "s-", ("SKIP TILL NEXT MATCH", "point-based"): "s--",
    }.items():
        pts = [(r["delta"], r.get("events_per_cpu_s", r["events_per_s"])) for r in rows
               if r["strategy"] == strategy and r["engine"] == engine]
        if pts:
            ax.plot(*zip(*pts), style, label=f"{engine}, {strategy.lower()}")
    ax.set_yscale("log")
    ax.set_xlabel("half interval size delta (time points)")
    ax.set_ylabel("events / CPU s (one core)")
    ax.set_title("SEQ(E1, E2, E3) WITHIN 100: point-based vs event-based")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(IMG, dpi=110)
    print("wrote", IMG)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deltas", type=int, nargs="+", default=[1, 2, 5, 10, 20, 30, 40, 50])
    p.add_argument("--events", type=int, default=200_000)
    p.add_argument("--window", type=int, default=100)
    p.add_argument("--budget", type=float, default=3.0)
    p.add_argument("--give-up", type=float, default=20.0)
    p.add_argument("--engines", nargs="+", default=["event-based", "point-based"],
                   choices=["event-based", "point-based"])
    p.add_argument("--strategies", nargs="+", default=["ANY", "NEXT"], choices=["ANY", "NEXT"])
    p.add_argument("--commit", help="the commit to record (default: the checkout's HEAD); for "
                   "running another version of the package through PYTHONPATH")
    p.add_argument("--plot", action="store_true")
    args = p.parse_args()
    if args.plot:
        plot()
    else:
        run(args)


if __name__ == "__main__":
    main()
