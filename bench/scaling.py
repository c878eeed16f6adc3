"""Throughput of sparkcep on Spark vs rows, vs cores (run once per --master) and vs pattern length.

    .venv/bin/python bench/scaling.py rows --rows 1000000 5000000 10000000 --json bench/results/scaling.jsonl
    .venv/bin/python bench/scaling.py rows --rows 1000000 --master 'local[1]' --json ...
    .venv/bin/python bench/scaling.py length --rows 1000000 --legs 1 2 4 8 --json ...

``rows``: the pass-through floor, the V shape and the rising streak of bench/stock_patterns.py at
each size (stock ticks of bench/common.stock_ticks, 1000 rows per symbol by default: the number of
symbols grows with the rows, so partitions stay the same size). ``length``: a zigzag of ``legs``
down-then-up legs, ``STRT (Dk+ Uk+) x legs`` with row-local DEFINEs (PREV), so the pattern has
1 + 2 x legs variables. Every timing is best of ``--repeat`` after one untimed warm-up job;
the load average is recorded next to it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import bench_session, noop, passthrough_floor, stock_ticks  # noqa: E402
from stock_patterns import RISING, RISING_HIGHS, V_SHAPE  # noqa: E402

import sparkcep  # noqa: E402


def zigzag(legs: int) -> str:
    names = [(f"D{i}", f"U{i}") for i in range(1, legs + 1)]
    pattern = " ".join(f"{d}+ {u}+" for d, u in names)
    define = ",\n         ".join(
        f"{d} AS {d}.price < PREV({d}.price), {u} AS {u}.price > PREV({u}.price)" for d, u in names)
    return f"""
SELECT * FROM ticks MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ts
  MEASURES FIRST(STRT.ts) AS start_ts, LAST(U{legs}.ts) AS end_ts
  ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
  PATTERN (STRT {pattern})
  DEFINE {define})"""


def git_commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def best_of(action, repeat: int) -> tuple[float, float]:
    best, load_max = float("inf"), 0.0
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - started)
        load_max = max(load_max, os.getloadavg()[0])
    return best, load_max


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("experiment", choices=["rows", "length"])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000])
    parser.add_argument("--rows-per-symbol", type=int, default=1000)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--variants", nargs="+", default=["floor", "v_shape", "rising"],
                        choices=["floor", "v_shape", "rising", "rising_highs"])
    parser.add_argument("--legs", type=int, nargs="+", default=[1, 2, 4, 8])
    parser.add_argument("--memory", default="8g")
    parser.add_argument("--json", help="append results as JSON lines to this file")
    args = parser.parse_args()

    commit = git_commit()
    spark = bench_session(args.master, memory=args.memory)
    print(f"{args.experiment}: master={args.master} commit={commit} load={os.getloadavg()[0]:.2f}")
    head = f"{'rows':>11} {'variant':<28}{'seconds':>9}{'rows/s':>11}{'matches':>10}{'load':>7}"
    print(head)
    print("-" * len(head))
    for rows in args.rows:
        symbols = max(1, rows // args.rows_per_symbol)
        ticks = stock_ticks(spark, rows, symbols)
        floor = passthrough_floor(spark, "ticks", "symbol", "ts")
        noop(floor)  # warm-up: Python workers, UDTF registration
        if args.experiment == "rows":
            variants = {"floor": floor, "v_shape": sparkcep.sql(spark, V_SHAPE),
                        "rising": sparkcep.sql(spark, RISING),
                        "rising_highs": sparkcep.sql(spark, RISING_HIGHS)}
            jobs = [(name, variants[name]) for name in args.variants]
        else:
            jobs = [("floor", floor)] + [(f"zigzag legs={k}", sparkcep.sql(spark, zigzag(k)))
                                         for k in args.legs]
        for name, frame in jobs:
            seconds, load_max = best_of(lambda: noop(frame), args.repeat)
            matches = None if name == "floor" else frame.count()
            print(f"{rows:>11,} {name:<28}{seconds:>9.2f}{rows / seconds:>11,.0f}"
                  f"{matches if matches is not None else '':>10}{load_max:>7.2f}", flush=True)
            if args.json:
                Path(args.json).parent.mkdir(parents=True, exist_ok=True)
                with open(args.json, "a") as handle:
                    handle.write(json.dumps({
                        "experiment": f"scaling_{args.experiment}", "rows": rows, "symbols": symbols,
                        "master": args.master, "variant": name, "seconds": seconds, "matches": matches,
                        "load": round(load_max, 2), "commit": commit}) + "\n")
        ticks.unpersist()
    spark.stop()


if __name__ == "__main__":
    main()
