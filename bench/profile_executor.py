"""Python worker cost per input row of the bench queries, without Spark in the timed part.

Spark computes each query's function input once (``CompiledMatch.table_sql``, collected as
Arrow); then every partition runs through ``sparkcep.runtime.partition_runner.PartitionRunner`` in this process,
as a UDTF on an executor would. Prints CPU µs per input row (best of 3); ``--profile`` adds a
cProfile listing.

    .venv/bin/python bench/profile_executor.py V_SHAPE RISING RISING_HIGHS V_SHAPE_ALL_ROWS
    .venv/bin/python bench/profile_executor.py R020_PAST_LAST_ROW MR_PAST_LAST_ROW R020_TO_NEXT_ROW MR_TO_NEXT_ROW

The R020_* and MR_* names are bench/r020_window.py's pair (the window's function; the function
of the MATCH_RECOGNIZE the join reads).
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import pstats
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import pyarrow as pa  # noqa: E402
import pyarrow.compute as pc  # noqa: E402

import r020_window  # noqa: E402
import stock_patterns  # noqa: E402
from common import bench_session, stock_ticks  # noqa: E402

import sparkcep  # noqa: E402
from sparkcep.compiler import rewrite  # noqa: E402
from sparkcep.runtime.partition_runner import PartitionRunner  # noqa: E402
from sparkcep.runtime.registration import _arrow_type  # noqa: E402

V_SHAPE_ALL_ROWS = """
SELECT * FROM ticks MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ts
  MEASURES CLASSIFIER() AS cls, MATCH_NUMBER() AS m, FIRST(STRT.ts) AS start_ts, LAST(DOWN.price) AS bottom
  ALL ROWS PER MATCH AFTER MATCH SKIP PAST LAST ROW
  PATTERN (STRT DOWN+ UP+)
  DEFINE DOWN AS DOWN.price < PREV(DOWN.price), UP AS UP.price > PREV(UP.price))
"""


R020_PAIR = {f"{kind}_{skip.replace(' ', '_')}": text.format(skip=skip)
             for skip in r020_window.SKIPS.values()
             for kind, text in (("R020", r020_window.R020), ("MR", r020_window.MR_JOIN))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("queries", nargs="+", help="names in bench/stock_patterns.py, V_SHAPE_ALL_ROWS, "
                                                   "or " + ", ".join(R020_PAIR))
    parser.add_argument("--symbols", type=int, default=100)
    parser.add_argument("--rows-per-symbol", type=int, default=1000)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    spark = bench_session("local[1]")
    rows = args.symbols * args.rows_per_symbol
    stock_ticks(spark, rows, args.symbols)
    for name in args.queries:
        query = (V_SHAPE_ALL_ROWS if name == "V_SHAPE_ALL_ROWS" else R020_PAIR[name] if name in R020_PAIR
                 else getattr(stock_patterns, name))
        match = rewrite.compile_statement(query).matches[0]
        sparkcep.sql(spark, query)  # registers the function: its output schema comes from Spark
        table = spark.sql(match.table_sql + " ORDER BY symbol, ts").toArrow()
        schema = spark.sql(f"SELECT * FROM {match.function_name}(TABLE({match.table_sql}) "
                           "PARTITION BY (symbol) ORDER BY (ts))").schema
        timezone = spark.conf.get("spark.sql.session.timeZone")
        arrow_schema = pa.schema([pa.field(f.name, _arrow_type(f.dataType, timezone), True) for f in schema.fields])
        plan = match.plan
        passthrough = (tuple(f.name for f in schema.fields if not f.name.startswith("__sparkcep_c"))
                       if plan.all_rows else plan.partition_columns)
        plan = dataclasses.replace(plan, passthrough_columns=passthrough)
        partitions = [table.filter(pc.equal(table["symbol"], s)).combine_chunks().to_batches()
                      for s in range(args.symbols)]

        def run() -> int:
            out = 0
            for batches in partitions:
                runner = PartitionRunner(plan, arrow_schema)
                for batch in batches:
                    out += sum(o.num_rows for o in runner.feed(batch))
                out += sum(o.num_rows for o in runner.finish())
            return out

        best, output_rows = float("inf"), 0
        for _ in range(3):
            started = time.process_time()
            output_rows = run()
            best = min(best, time.process_time() - started)
        print(f"{name:<18} {best / rows * 1e6:6.2f} µs/row CPU  ({rows:,} rows in, {output_rows:,} out)")
        if args.profile:
            profiler = cProfile.Profile()
            profiler.runcall(run)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
    spark.stop()


if __name__ == "__main__":
    main()
