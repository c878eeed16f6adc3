"""Profile one partition's matching in-process, without Spark.

Runs a query's plan over random-walk partitions directly through
``sparkcep.runtime.partition_runner.PartitionRunner`` (the code each Spark partition runs) and prints the cost in
microseconds per input row; optionally a cProfile of the same run.

    .venv/bin/python bench/profile_partition.py r          # rising B{3,} (match-dependent DEFINE)
    .venv/bin/python bench/profile_partition.py v          # V shape (row-local DEFINE)
    .venv/bin/python bench/profile_partition.py r p        # ... plus a cProfile (top 18 by tottime)
    .venv/bin/python bench/profile_partition.py r --partitions 50 --rows 4000 --repeat 3

Queries: ``r`` = ``RISING``, ``v`` = ``V_SHAPE`` from ``bench/stock_patterns.py``.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import os
import pstats
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # stock_patterns
sys.path.insert(0, os.path.dirname(HERE))  # this checkout's sparkcep

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402

from sparkcep.compiler import rewrite  # noqa: E402
from sparkcep.runtime.partition_runner import PartitionRunner  # noqa: E402
from stock_patterns import RISING, V_SHAPE  # noqa: E402

QUERIES = {"v": V_SHAPE, "r": RISING}


def make_partitions(which: str, partitions: int, rows: int, seed: int = 1):
    """Random-walk prices per partition, with the columns the compiled plan reads (the row-local
    DEFINE masks Catalyst would compute for ``v``; the value columns for ``r``); and the output
    schema."""
    rng = np.random.default_rng(seed)
    batches = []
    for s in range(partitions):
        price = 100 + np.cumsum(rng.uniform(-1, 1, rows))
        ts = np.arange(rows, dtype=np.int64)
        prev = np.concatenate([[np.nan], price[:-1]])
        cols = {"symbol": pa.array(np.full(rows, s, np.int32)), "ts": pa.array(ts)}
        if which == "v":
            cols["__sparkcep_d1"] = pa.array(price < prev)
            cols["__sparkcep_d2"] = pa.array(price > prev)
            cols["__sparkcep_v0"] = pa.array(ts)
            cols["__sparkcep_v1"] = pa.array(price)
        else:
            cols["__sparkcep_v0"] = pa.array(price)
            cols["__sparkcep_v1"] = pa.array(price)
            cols["__sparkcep_v2"] = pa.array(ts)
        batches.append(pa.RecordBatch.from_pydict(cols))
    if which == "v":
        types = [pa.int64(), pa.float64(), pa.int64()]
    else:
        types = [pa.int64(), pa.int64(), pa.int64()]
    schema = pa.schema([("symbol", pa.int32())] + [(f"__sparkcep_c{i}", t) for i, t in enumerate(types)])
    return batches, schema


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("query", choices=sorted(QUERIES))
    parser.add_argument("profile", nargs="?", choices=["p"], help="also print a cProfile")
    parser.add_argument("--partitions", type=int, default=200)
    parser.add_argument("--rows", type=int, default=1000, help="rows per partition")
    parser.add_argument("--batch", type=int, default=0,
                        help="split each partition into batches of this many rows (0 = one batch)")
    parser.add_argument("--repeat", type=int, default=1, help="report the best of this many runs")
    args = parser.parse_args()

    plan = rewrite.compile_statement(QUERIES[args.query]).matches[0].plan
    plan = dataclasses.replace(plan, passthrough_columns=("symbol",))
    batches, schema = make_partitions(args.query, args.partitions, args.rows)

    def run() -> int:
        out = 0
        for batch in batches:
            runner = PartitionRunner(plan, schema)
            pieces = [batch] if not args.batch else [
                batch.slice(i, args.batch) for i in range(0, batch.num_rows, args.batch)]
            for piece in pieces:
                for o in runner.feed(piece):
                    out += o.num_rows
            for o in runner.finish():
                out += o.num_rows
        return out

    total = args.partitions * args.rows
    best = best_cpu = None
    for _ in range(args.repeat):
        t, c = time.perf_counter(), time.process_time()
        n = run()
        dt, dc = time.perf_counter() - t, time.process_time() - c
        best = dt if best is None else min(best, dt)
        best_cpu = dc if best_cpu is None else min(best_cpu, dc)
    # CPU time is the steadier figure on a shared machine
    print(args.query, "rows", total, "out", n, f"{best:.2f}s", f"{best / total * 1e6:.2f} us/row",
          f"(cpu {best_cpu / total * 1e6:.2f} us/row)")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(run)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(18)


if __name__ == "__main__":
    main()
