"""Issue 23: row pattern recognition in a window (SQL:2016 R020) against the MATCH_RECOGNIZE +
LEFT JOIN it replaces, on the same Parquet ticks, in one run per size.

    nice -n 19 .venv/bin/python bench/r020_window.py --rows 2000000 --repeat 2 --json bench/results/r020_window.jsonl

The question, per row: the rising run that starts here (``PATTERN (STRT UP+)``, ``UP`` higher
than the row before), its number of rises, its last price and its number of rows; every input
row kept. Two ways to ask it, per AFTER MATCH SKIP form (PAST LAST ROW, TO NEXT ROW):

* **R020**: ``ups OVER w, peak OVER w, count(*) OVER w`` with the pattern in ``WINDOW w``
  (frame ``ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING``, INITIAL). The Python path only.
* **MATCH_RECOGNIZE + LEFT JOIN**: ONE ROW PER MATCH with the match's first row (``FIRST(STRT.ts)``)
  as a measure, LEFT JOINed back onto the ticks by (symbol, start ts), ``COALESCE(n, 0)`` for
  the count. On the Python path and on the Catalyst path (``spark.sparkcep.path``).

Why the two are the same rows (ISO/IEC 19075-5, 6): with INITIAL and a frame reaching the
partition's end, a row's match is the one MATCH_RECOGNIZE would try at that row; the rows a
match covers are skipped by both under PAST LAST ROW (R020: NULL measures and an empty frame;
MATCH_RECOGNIZE: no match starts there); under TO NEXT ROW every row is tried by both. A row
where no match starts gets NULL measures and ``count(*) OVER w`` = 0 (an empty frame), the join
NULLs, hence the COALESCE. The run checks it: per skip form, the row count and a sum of 64-bit
hashes of every output row (with a NULL flag per nullable column), computed by Spark, must be
equal for all variants, else it stops.

Baselines, as in bench/catalyst_path.py: Spark sort only (repartition by symbol, sort within
partitions) and the pass-through Arrow UDTF (the floor of the Python path). Every Spark variant
writes to the noop sink, best of ``--repeat`` after an untimed warm-up of the floor; each record
carries the load average, the commit and the exchanges, sorts and joins of the variant's final
adaptive plan, read from the check query that consumed its rows (``--explain`` prints the
plans; for the two baselines, the plan before execution).
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path

import sparkcep
from common import bench_session, noop, passthrough_floor
from peers import (add_ticks_arguments, append_records, best_of, cached_ticks, floor_seconds,
                   git_commit, load)

SORT_ONLY = "SELECT /*+ REPARTITION(8, symbol) */ * FROM ticks SORT BY symbol, ts"

SKIPS = {"past last row": "PAST LAST ROW", "to next row": "TO NEXT ROW"}

R020 = """
SELECT symbol, ts, price, ups OVER w AS ups, peak OVER w AS peak, count(*) OVER w AS n
FROM ticks
WINDOW w AS (PARTITION BY symbol ORDER BY ts
  MEASURES COUNT(UP.*) AS ups, LAST(UP.price) AS peak
  ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING
  AFTER MATCH SKIP {skip} INITIAL
  PATTERN (STRT UP+) DEFINE UP AS UP.price > PREV(UP.price))
"""

MR_JOIN = """
SELECT t.symbol, t.ts, t.price, m.ups, m.peak, COALESCE(m.n, 0) AS n
FROM ticks t LEFT JOIN (
  SELECT * FROM ticks MATCH_RECOGNIZE (
    PARTITION BY symbol ORDER BY ts
    MEASURES FIRST(STRT.ts) AS start_ts, COUNT(UP.*) AS ups, LAST(UP.price) AS peak, COUNT(*) AS n
    ONE ROW PER MATCH AFTER MATCH SKIP {skip}
    PATTERN (STRT UP+) DEFINE UP AS UP.price > PREV(UP.price))) m
ON t.symbol = m.symbol AND t.ts = m.start_ts
"""

#: the row count and a multiset hash of the rows (NULL flags: xxhash64 skips NULL arguments)
CHECK = """
SELECT count(*) AS rows,
       sum(CAST(xxhash64(symbol, ts, price, ups IS NULL, ups, peak IS NULL, peak, n)
                AS DECIMAL(38, 0))) AS hash_sum,
       count(ups) AS matched
FROM {view}
"""


def final_plan(frame) -> str:
    """The final adaptive plan of ``frame``, which has been collected (its own QueryExecution)."""
    text = frame._jdf.queryExecution().executedPlan().toString()
    if "isFinalPlan=true" not in text:
        raise SystemExit("the check query's plan is not final: " + text.splitlines()[0])
    return text.split("== Initial Plan ==")[0]  # AQE prints the final plan, then the initial one


PLAN_NODES = {
    "exchanges": r"\b(?:Exchange (?:hashpartitioning|rangepartitioning|RoundRobin)"
                 r"|BroadcastExchange )",
    "sorts": r"\bSort \[",
    "joins": r"\b(?:SortMergeJoin|BroadcastHashJoin|ShuffledHashJoin|BroadcastNestedLoopJoin)",
    "windows": r"\bWindow \[",
    "python": r"\b(?:ArrowEvalPythonUDTF|BatchEvalPythonUDTF|PythonUDTF|ArrowEvalPython)",
}


def plan_shape(text: str) -> dict:
    """Exchanges (shuffles and broadcasts, not the check's own SinglePartition gather), sorts,
    joins, window operators and Python table functions in a final plan."""
    return {name: len(re.findall(pattern, text)) for name, pattern in PLAN_NODES.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    add_ticks_arguments(parser, [2_000_000])
    parser.add_argument("--skips", nargs="+", default=list(SKIPS), choices=list(SKIPS))
    parser.add_argument("--no-catalyst", action="store_true",
                        help="skip MATCH_RECOGNIZE + join on the Catalyst path")
    parser.add_argument("--explain", action="store_true", help="print each variant's executed plan")
    args = parser.parse_args()

    spark = bench_session("local[2]", args.memory)
    commit = git_commit()
    records = []
    for rows in args.rows:
        _, ticks = cached_ticks(spark, rows, args.symbols, args.seed, Path(args.data_dir))

        def record(name, seconds, plan, out_rows=None, matched=None, note="", load_max=""):
            rec = {"bench": "r020_window", "variant": name, "rows": rows,
                   "seconds": round(seconds, 3), "out_rows": out_rows, "matched": matched,
                   "plan": plan_shape(plan), "note": note, "load": load_max or load(),
                   "commit": commit, "time": time.strftime("%Y-%m-%d %H:%M:%S")}
            records.append(rec)
            print(json.dumps(rec), flush=True)
            if args.explain:
                print(plan, flush=True)

        floor = passthrough_floor(spark, "ticks", "symbol", "ts")
        noop(floor)  # untimed warm-up (Python workers, UDTF registration)
        sort_only = spark.sql(SORT_ONLY)
        record("Spark sort only", best_of(lambda: noop(sort_only), args.repeat)[0],
               sort_only._jdf.queryExecution().executedPlan().toString())
        record("Arrow UDTF floor", best_of(lambda: noop(floor), args.repeat)[0],
               floor._jdf.queryExecution().executedPlan().toString())
        for skip_name in args.skips:
            skip = SKIPS[skip_name]
            variants = [("R020 window", R020, "python"),
                        ("MATCH_RECOGNIZE + join, Python path", MR_JOIN, "python")]
            if not args.no_catalyst:
                variants.append(("MATCH_RECOGNIZE + join, Catalyst path", MR_JOIN, "catalyst"))
            checks = {}
            for name, text, path in variants:
                spark.conf.set("spark.sparkcep.path", path)
                frame = sparkcep.sql(spark, text.format(skip=skip))
                spark.conf.unset("spark.sparkcep.path")
                seconds, load_max = best_of(lambda: noop(frame), args.repeat)
                frame.createOrReplaceTempView("r020_bench_out")
                check_frame = spark.sql(CHECK.format(view="r020_bench_out"))
                check = check_frame.collect()[0]  # collect: the frame's own QueryExecution runs
                checks[name] = (check["rows"], check["hash_sum"])
                record(f"{name}, {skip_name}", seconds, final_plan(check_frame), check["rows"],
                       check["matched"], load_max=load_max)
            if len(set(checks.values())) != 1 or next(iter(checks.values()))[0] != rows:
                raise SystemExit(f"{skip_name}: the variants give different rows: {checks}")
        ticks.unpersist()
    spark.stop()
    append_records(args.json, records)
    for rows in args.rows:
        mine, floor_s = floor_seconds(records, rows)
        print(f"\nrows={rows:,} commit={commit} "
              "(the variants of each skip form agree: row count and hash sum)")
        print(f"{'variant':<52} {'seconds':>8} {'x floor':>8} {'out rows':>10} {'matched':>10} "
              f"{'load':>6}  exch sort join win py")
        for r in mine:
            p = r["plan"]
            print(f"{r['variant']:<52} {r['seconds']:>8.2f} {r['seconds'] / floor_s:>8.2f} "
                  f"{r['out_rows'] if r['out_rows'] is not None else '':>10} "
                  f"{r['matched'] if r['matched'] is not None else '':>10} {r['load']:>6}  "
                  f"{p['exchanges']:>4} {p['sorts']:>4} {p['joins']:>4} {p['windows']:>3} "
                  f"{p['python']:>2}")


if __name__ == "__main__":
    main()
