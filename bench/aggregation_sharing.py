"""A-Seq's sharing experiment (Qi, WPI 2013, Section 5.3, Figure 5.4): Chop-Connect vs each
query alone, as the frequency of the shared sub-pattern's first event type grows.

Workload WL1 of the thesis: three queries (q1, q4, q5) of length 9 that share their last seven
types X = (YHOO, AMAZ, MSFT, ORCL, RIMM, CSCO, INTC), each after its own two-type prefix, over a
synthetic stream of 20 stock symbols. The share f of YHOO events (the connect event) is varied;
the other 19 symbols share the rest uniformly. No Spark: one partition, as a Python worker runs
it (``sparkcep.engines.sase.chop_connect``); both plans' counts are asserted equal.

    .venv/bin/python bench/aggregation_sharing.py --repeats 5 \
        > bench/results/aggregation_sharing.jsonl
    .venv/bin/python bench/aggregation_sharing.py --plot docs/img/aggregation_sharing.png \
        < bench/results/aggregation_sharing.jsonl

Prints one JSON line per f: microseconds per event and counter updates (``work``) of each plan,
and the total number of matches.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from sparkcep.engines.sase.chop_connect import ChopConnectCounts, NonSharedCounts

SYMBOLS = ["DELL", "AMAT", "YHOO", "AMAZ", "MSFT", "ORCL", "RIMM", "CSCO", "INTC", "IPIX", "FB",
           "QQQ", "IBM", "VMW", "GOOG", "LNKD", "NTAP", "AAPL", "ADBE", "SUN"]
SHARED = ("YHOO", "AMAZ", "MSFT", "ORCL", "RIMM", "CSCO", "INTC")
PREFIXES = [("DELL", "AMAT"), ("VMW", "GOOG"), ("LNKD", "NTAP")]  # q1, q4, q5


def stream(events: int, f: float, seed: int) -> list[int]:
    rnd = random.Random(seed)
    connect = SYMBOLS.index(SHARED[0])
    others = [i for i in range(len(SYMBOLS)) if i != connect]
    return [connect if rnd.random() < f else rnd.choice(others) for _ in range(events)]


def run(plan, kinds, keys) -> float:
    start = time.perf_counter()
    plan.feed(kinds, keys)
    return time.perf_counter() - start


def measure(events: int, within: int, f: float, seed: int, repeats: int) -> dict:
    kinds = stream(events, f, seed)
    keys = list(range(events))
    index = {s: i for i, s in enumerate(SYMBOLS)}
    prefixes = [tuple(index[s] for s in p) for p in PREFIXES]
    shared = tuple(index[s] for s in SHARED)
    best = {}
    for _ in range(repeats):
        alone = NonSharedCounts([p + shared for p in prefixes], within)
        sharing = ChopConnectCounts(prefixes, shared, within)
        times = (run(alone, kinds, keys), run(sharing, kinds, keys))
        if alone.counts != sharing.counts:
            raise AssertionError(f"counts differ at f={f}: {alone.counts} {sharing.counts}")
        best["alone"] = min(best.get("alone", times[0]), times[0])
        best["shared"] = min(best.get("shared", times[1]), times[1])
    return {
        "f": f, "events": events, "within": within,
        "alone_us_per_event": round(best["alone"] / events * 1e6, 3),
        "shared_us_per_event": round(best["shared"] / events * 1e6, 3),
        "alone_work": alone.work, "shared_work": sharing.work,
        "matches": sum(alone.counts),
    }


def plot(rows: list[dict], path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = sorted(rows, key=lambda r: r["f"])
    fs = [100 * r["f"] for r in rows]
    fig, ax = plt.subplots(figsize=(6.4, 4))
    ax.plot(fs, [r["alone_us_per_event"] for r in rows], "o-", label="each query alone (A-Seq)")
    ax.plot(fs, [r["shared_us_per_event"] for r in rows], "s-", label="Chop-Connect (X shared)")
    ax.set_xlabel("share of YHOO events (the shared sub-pattern's first type), %")
    ax.set_ylabel("µs per event")
    ax.set_title("3 queries of length 9 sharing 7 types, WITHIN 1000 events")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--within", type=int, default=1_000)
    parser.add_argument("--f", type=float, nargs="+",
                        default=[0.001, 0.0025, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.075, 0.1])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--plot", help="read JSON lines from stdin and write this PNG")
    args = parser.parse_args()
    if args.plot:
        plot([json.loads(line) for line in sys.stdin if line.strip()], args.plot)
        return
    for f in args.f:
        print(json.dumps(measure(args.events, args.within, f, args.seed, args.repeats)), flush=True)


if __name__ == "__main__":
    main()
