"""Issue 26: the Catalyst path next to the Python (Arrow UDTF) path, its floor, Spark-only
baselines and pandas-match-recognize, in one run per size, on the same Parquet ticks.

    .venv/bin/python bench/catalyst_path.py --rows 2000000 10000000 --json bench/results/catalyst_path.jsonl

Per size: Spark sort only (repartition by symbol, sort within partitions), a lag() window query,
the pass-through Arrow UDTF (the floor of the Python path), the V shape and the rising streak on
each path (``spark.sparkcep.path`` = python / catalyst), and pandas-match-recognize on the V shape
(bench/.venv-pmr, ``bash bench/setup_peers.sh pmr``; skipped with a note when missing). Every
Spark variant writes to the noop sink; the two paths' match counts are checked equal, and
pandas-MR's against them. Each record carries the load average and the commit.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import sparkcep
from common import bench_session, noop, passthrough_floor
from peers import (HERE, add_ticks_arguments, append_records, best_of, cached_ticks, floor_seconds,
                   git_commit, load, run_worker)
from stock_patterns import LAG_ONLY, RISING, V_SHAPE

SORT_ONLY = "SELECT /*+ REPARTITION(8, symbol) */ * FROM ticks SORT BY symbol, ts"


def main() -> None:
    parser = argparse.ArgumentParser()
    add_ticks_arguments(parser, [2_000_000, 10_000_000])
    args = parser.parse_args()

    spark = bench_session("local[2]", args.memory)
    commit = git_commit()
    records = []
    for rows in args.rows:
        data, ticks = cached_ticks(spark, rows, args.symbols, args.seed, Path(args.data_dir))

        def record(name, seconds, matches=None, note="", load_max=""):
            rec = {"bench": "catalyst_path", "variant": name, "rows": rows, "seconds": round(seconds, 3),
                   "matches": matches, "note": note, "load": load_max or load(), "commit": commit,
                   "time": time.strftime("%Y-%m-%d %H:%M:%S")}
            records.append(rec)
            print(json.dumps(rec), flush=True)

        noop(spark.sql(SORT_ONLY))  # untimed warm-up
        record("Spark sort only", *best_of(lambda: noop(spark.sql(SORT_ONLY)), args.repeat)[:1])
        record("Spark lag() window", *best_of(lambda: noop(spark.sql(LAG_ONLY)), args.repeat)[:1])
        floor = passthrough_floor(spark, "ticks", "symbol", "ts")
        record("Arrow UDTF floor", *best_of(lambda: noop(floor), args.repeat)[:1])
        counts = {}
        for query_name, query in (("V shape", V_SHAPE), ("rising streak", RISING)):
            for path in ("python", "catalyst"):
                spark.conf.set("spark.sparkcep.path", path)
                frame = sparkcep.sql(spark, query)
                seconds, load_max = best_of(lambda: noop(frame), args.repeat)
                matches = frame.count()
                counts[query_name, path] = matches
                record(f"{query_name}, {path} path", seconds, matches, load_max=load_max)
            spark.conf.unset("spark.sparkcep.path")
            if counts[query_name, "python"] != counts[query_name, "catalyst"]:
                raise SystemExit(f"{query_name}: the paths disagree: {counts}")
        done, note = run_worker(HERE / ".venv-pmr", "peer_pmr.py", [str(data)],
                                [{"name": "V shape", "sql": V_SHAPE}], timeout=3600)
        for out in done or []:
            if "error" in out:
                record("V shape, pandas-match-recognize", float("nan"), note=out["error"])
                continue
            same = "same" if out["matches"] == counts["V shape", "python"] else "DIFFERS"
            record("V shape, pandas-match-recognize", out["seconds"], out["matches"], note=same)
        if done is None:
            record("V shape, pandas-match-recognize", float("nan"), note=note)
        ticks.unpersist()
    spark.stop()
    append_records(args.json, records)
    for rows in args.rows:
        mine, floor_s = floor_seconds(records, rows)
        print(f"\nrows={rows:,} commit={commit}")
        print(f"{'variant':<38} {'seconds':>8} {'x floor':>8} {'matches':>10} {'load':>6}  note")
        for r in mine:
            print(f"{r['variant']:<38} {r['seconds']:>8.2f} {r['seconds'] / floor_s:>8.2f} "
                  f"{r['matches'] if r['matches'] is not None else '':>10} {r['load']:>6}  {r['note']}")


if __name__ == "__main__":
    main()
