"""SASE on Spark, end to end through SQL (SKIP TILL NEXT MATCH / SKIP TILL ANY MATCH, WITHIN).

    .venv/bin/python bench/sase_spark.py table1  --windows 500 1000 2000 --events 5
    .venv/bin/python bench/sase_spark.py figure5 --windows 8 12 16 --c-shares 0.01 0.05 0.2

table1 -- the SASE+ Table 1 shape (bench/engines_sase_plus.py is the same workload on one engine,
without Spark): stock stream ``symbol, ts, price, volume`` with 2 symbols (SASE+'s ``[symbol]``
partitioning), price a random walk going up with probability p = 0.7 (step 1..5 in 1..1000),
volume uniform in 1..1000; ``ts`` is the event number within its symbol, so ``WITHIN W`` is
SASE+'s count-based partition window of W events. The stream is scaled down from SASE+'s
200 x W events per symbol to ``--events`` x W (default 2) so a run takes minutes. Query::

    PATTERN (A1 A* B) WITHIN W            -- SASE+ pattern(stock+ a[], stock b)
    DEFINE A1 AS A1.price % 20 = 0,       -- a[1].price % 500 == 0 in SASE+ (see the engine bench)
           A  AS <p>,  B AS B.volume < 150
    p1: TRUE
    p2: A.price > COALESCE(LAST(A.price, 1), A1.price)          a[i].price > a[i-1].price
    p3: A.price > LEAST(A1.price, MIN(A.price))                 a[i].price > min(a[..i-1].price)
        (the running MIN includes the candidate row, so "> MIN" is "> min of the earlier rows")

under STRICT CONTIGUITY (the SQL:2016 default, with AFTER MATCH SKIP TO NEXT ROW so that every
start row is tried, SASE+'s s2), SKIP TILL NEXT MATCH (s3) and SKIP TILL ANY MATCH.

figure5 -- the SASE++ Figure 5 shape (bench/engines_postponing.py is the engine-level version,
which compares the plain NFA^b with postponing): ``A B+ C`` under SKIP TILL ANY MATCH over a/b/c
events with a value, A share 0.1, C share varied (selectivity), count-based window W, Kleene
predicate ``b[i].val > max(b[..i-1].val)`` (written ``B.val > LAST(B.val, 1)``: an accepted chain
is increasing, so its max is its last element) or none. Spark runs the default engine for ANY
(postponing); Spark's Python workers import sparkcep afresh, so the engine cannot be switched
from the driver; the NFA^b vs postponing comparison is in-process (bench/engines_postponing.py).

Each query runs as ``SELECT COUNT(*), AVG(len) FROM (<MATCH_RECOGNIZE>)`` (one Spark job) with a
timeout; MATCH_BUDGET_EXCEEDED and timeouts are reported as such (SASE+/SASE++ show blow-ups there).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import bench_session  # noqa: E402

import sparkcep  # noqa: E402

STRATEGIES = {
    "contiguity": ("AFTER MATCH SKIP TO NEXT ROW", ""),
    "next": ("", "SKIP TILL NEXT MATCH"),
    "any": ("", "SKIP TILL ANY MATCH"),
}
PREDICATES = {
    "p1": "TRUE",
    "p2": "A.price > COALESCE(LAST(A.price, 1), A1.price)",
    "p3": "A.price > LEAST(A1.price, MIN(A.price))",
}


def table1_query(pred: str, strategy: str, window: int, start: int) -> str:
    after, strat = STRATEGIES[strategy]
    return f"""
SELECT COUNT(*) AS matches, AVG(len) AS avg_len FROM stock MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ts
  MEASURES COUNT(*) AS len
  ONE ROW PER MATCH {after}
  {strat}
  PATTERN (A1 A* B) WITHIN {window}
  DEFINE A1 AS A1.price % {start} = 0, A AS {PREDICATES[pred]}, B AS B.volume < 150)"""


def figure5_query(pred: str, window: int) -> str:
    b = "B.typ = 'b'" + (" AND (LAST(B.val, 1) IS NULL OR B.val > LAST(B.val, 1))" if pred == "b>max" else "")
    return f"""
SELECT COUNT(*) AS matches, AVG(len) AS avg_len FROM events MATCH_RECOGNIZE (
  PARTITION BY part ORDER BY seq
  MEASURES COUNT(*) AS len
  ONE ROW PER MATCH
  SKIP TILL ANY MATCH
  PATTERN (A B+ C) WITHIN {window}
  DEFINE A AS A.typ = 'a', B AS {b}, C AS C.typ = 'c')"""


def git_commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def run_with_timeout(spark, sql: str, timeout: float):
    """(seconds, (matches, avg_len) | None, status): status '' | 'budget' | 'timeout' | 'error: ...'."""
    from pyspark import InheritableThread

    group = f"sase-{time.monotonic_ns()}"
    out: dict = {}

    def work():
        spark.sparkContext.setJobGroup(group, "sase bench", interruptOnCancel=True)
        try:
            row = sparkcep.sql(spark, sql).collect()[0]
            out["value"] = (int(row[0]), float(row[1] or 0.0))
        except Exception as error:  # noqa: BLE001 - classified below
            out["error"] = str(error)

    started = time.perf_counter()
    thread = InheritableThread(target=work, daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        spark.sparkContext.cancelJobGroup(group)
        thread.join(60)
        return time.perf_counter() - started, None, "timeout"
    seconds = time.perf_counter() - started
    if "error" in out:
        text = out["error"]
        if "MATCH_BUDGET_EXCEEDED" in text:
            return seconds, None, "budget"
        return seconds, None, "error: " + text.strip().splitlines()[0][:200]
    return seconds, out["value"], ""


def table1(spark, args, emit) -> None:
    from engines_sase_plus import stock

    print(f"SASE+ Table 1 shape on Spark ({args.master}): 2 symbols, {args.events:g} x W events per "
          f"symbol, p(up) = {args.p_up}, a[1].price % {args.start} == 0, b.volume < 150")
    head = (f"{'pred':<5}{'strategy':<12}{'W':>6}{'events':>8}{'matches':>9}{'avg len':>9}"
            f"{'seconds':>9}{'events/s':>11}{'load':>7}")
    print(head)
    print("-" * len(head))
    for w in args.windows:
        rnd = random.Random(w)
        n = int(args.events * w)
        rows = []
        for symbol in range(2):
            prices, vols = stock(n, args.p_up, rnd)
            rows += [(symbol, i, int(p), int(v)) for i, (p, v) in enumerate(zip(prices, vols))]
        frame = spark.createDataFrame(rows, "symbol INT, ts BIGINT, price INT, volume INT")
        frame = frame.repartition(2, "symbol").persist()
        frame.count()
        frame.createOrReplaceTempView("stock")
        for pred in args.predicates:
            for strategy in args.strategies:
                sql = table1_query(pred, strategy, w, args.start)
                limit = args.any_timeout if strategy == "any" else args.timeout
                seconds, value, status = run_with_timeout(spark, sql, limit)
                matches, avg = value if value else (None, None)
                ld = "%.1f" % os.getloadavg()[0]
                eps = f"{2 * n / seconds:,.0f}" if not status else status
                print(f"{pred:<5}{strategy:<12}{w:>6}{2 * n:>8}{matches if matches is not None else '-':>9}"
                      f"{(f'{avg:.1f}' if avg is not None else '-'):>9}{seconds:>9.2f}{eps:>11}{ld:>7}",
                      flush=True)
                emit({"experiment": "sase_table1", "pred": pred, "strategy": strategy, "window": w,
                      "events": 2 * n, "matches": matches, "avg_len": avg, "seconds": seconds,
                      "status": status, "load": ld})
        frame.unpersist()


def figure5(spark, args, emit) -> None:
    from engines_postponing import stream

    print(f"SASE++ Figure 5 shape on Spark ({args.master}): A B+ C, SKIP TILL ANY MATCH, default engine "
          f"(postponing); {args.partitions} partitions x {args.events_f5} events, A share 0.1")
    head = (f"{'pred':<9}{'W':>4}{'C%':>6}{'events':>8}{'matches':>10}{'avg len':>9}{'seconds':>9}"
            f"{'events/s':>11}{'load':>7}")
    print(head)
    print("-" * len(head))
    for w in args.windows:
        for cs in args.c_shares:
            rows = []
            for part in range(args.partitions):
                masks, vals = stream(args.events_f5, cs, seed=w * 1000 + int(cs * 1000) + part)
                typ = ["a" if masks[0, i] else "b" if masks[1, i] else "c" for i in range(masks.shape[1])]
                rows += [(part, i, typ[i], int(vals[i])) for i in range(len(typ))]
            frame = spark.createDataFrame(rows, "part INT, seq BIGINT, typ STRING, val INT")
            frame = frame.repartition(args.partitions, "part").persist()
            frame.count()
            frame.createOrReplaceTempView("events")
            for pred in args.f5_predicates:
                seconds, value, status = run_with_timeout(spark, figure5_query(pred, w), args.timeout)
                matches, avg = value if value else (None, None)
                total = args.partitions * args.events_f5
                ld = "%.1f" % os.getloadavg()[0]
                eps = f"{total / seconds:,.0f}" if not status else status
                print(f"{pred:<9}{w:>4}{cs * 100:>6.0f}{total:>8}{matches if matches is not None else '-':>10}"
                      f"{(f'{avg:.1f}' if avg is not None else '-'):>9}{seconds:>9.2f}{eps:>11}{ld:>7}",
                      flush=True)
                emit({"experiment": "sase_figure5", "pred": pred, "window": w, "c_share": cs,
                      "events": total, "matches": matches, "avg_len": avg, "seconds": seconds,
                      "status": status, "load": ld})
            frame.unpersist()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("experiment", choices=["table1", "figure5"])
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--windows", type=int, nargs="+")
    parser.add_argument("--timeout", type=float, default=180, help="seconds per query")
    parser.add_argument("--any-timeout", type=float, default=20,
                        help="table1: seconds per SKIP TILL ANY MATCH query (exponential there)")
    parser.add_argument("--json", help="append results as JSON lines to this file")
    # table1
    parser.add_argument("--events", type=float, default=2.0, help="table1: events per symbol, x W")
    parser.add_argument("--p-up", type=float, default=0.7)
    parser.add_argument("--start", type=int, default=20)
    parser.add_argument("--predicates", nargs="+", default=["p1", "p2", "p3"])
    parser.add_argument("--strategies", nargs="+", default=["contiguity", "next", "any"])
    # figure5
    parser.add_argument("--partitions", type=int, default=2)
    parser.add_argument("--events-f5", type=int, default=3000, help="figure5: events per partition")
    parser.add_argument("--c-shares", type=float, nargs="+", default=[0.01, 0.05, 0.2])
    parser.add_argument("--f5-predicates", nargs="+", default=["b>max", "none"])
    args = parser.parse_args()
    if args.windows is None:
        args.windows = [500, 1000, 2000] if args.experiment == "table1" else [8, 12, 16]

    commit = git_commit()
    handle = open(args.json, "a") if args.json else None

    def emit(record: dict) -> None:
        record.update({"master": args.master, "commit": commit})
        if handle:
            handle.write(json.dumps(record) + "\n")
            handle.flush()

    spark = bench_session(args.master)
    print(f"commit {commit}, load {os.getloadavg()[0]:.2f}")
    (table1 if args.experiment == "table1" else figure5)(spark, args, emit)
    spark.stop()
    if handle:
        handle.close()


if __name__ == "__main__":
    main()
