"""Stock V shape (row-local DEFINE) and a rising streak (match-dependent DEFINE) on Spark,
side by side with the pass-through floor and a Spark-only lag() window, in one run. The rising
streak's LAST(B.price, 1) is unrolled into a row-local condition (``sparkcep.compiler.unrolling``); the
rising-highs query (a running MAX) runs on the general matcher.

    .venv/bin/python bench/stock_patterns.py --rows 1000000 --symbols 1000
"""

from __future__ import annotations

import argparse
import json

import sparkcep
from common import Timing, bench_session, noop, passthrough_floor, print_table, stock_ticks, timed

V_SHAPE = """
SELECT * FROM ticks MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ts
  MEASURES FIRST(STRT.ts) AS start_ts, LAST(DOWN.price) AS bottom, LAST(UP.ts) AS end_ts
  ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
  PATTERN (STRT DOWN+ UP+)
  DEFINE DOWN AS DOWN.price < PREV(DOWN.price), UP AS UP.price > PREV(UP.price))
"""

RISING = """
SELECT * FROM ticks MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ts
  MEASURES FIRST(B.ts) AS start_ts, LAST(B.ts) AS end_ts, COUNT(*) AS n
  ONE ROW PER MATCH AFTER MATCH SKIP TO NEXT ROW
  PATTERN (B{3,})
  DEFINE B AS LAST(B.price, 1) IS NULL OR B.price > LAST(B.price, 1))
"""

# Match-dependent in a way no rewrite removes (a running MAX over the match): the general matcher.
RISING_HIGHS = """
SELECT * FROM ticks MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ts
  MEASURES FIRST(A.ts) AS start_ts, LAST(B.ts) AS end_ts, COUNT(*) AS n
  ONE ROW PER MATCH AFTER MATCH SKIP TO NEXT ROW
  PATTERN (A B{3,})
  DEFINE B AS B.price > A.price AND B.price >= MAX(B.price))
"""

LAG_ONLY = """
SELECT symbol, ts, price - lag(price) OVER (PARTITION BY symbol ORDER BY ts) AS change FROM ticks
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--symbols", type=int, default=1000)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--json", help="append results as JSON lines to this file")
    args = parser.parse_args()

    spark = bench_session(args.master)
    stock_ticks(spark, args.rows, args.symbols)
    n = args.rows
    timings: list[Timing] = []
    floor = passthrough_floor(spark, "ticks", "symbol", "ts")
    timings.append(timed("pass-through Arrow UDTF (floor)", n, lambda: noop(floor), args.repeat))
    timings.append(timed("Spark lag() window", n, lambda: noop(spark.sql(LAG_ONLY)), args.repeat))
    v_shape = sparkcep.sql(spark, V_SHAPE)
    timings.append(timed("sparkcep V shape (row-local DEFINE)", n, lambda: noop(v_shape), args.repeat))
    rising = sparkcep.sql(spark, RISING)
    timings.append(timed("sparkcep rising B{3,} (LAST(B.price,1))", n, lambda: noop(rising), args.repeat))
    from unittest import mock

    from sparkcep.compiler import rewrite

    with mock.patch.object(rewrite, "unroll", lambda analysis, lowering: None):  # compile-time only
        rising_general = sparkcep.sql(spark, RISING)
    timings.append(timed("rising B{3,}, unrolling off (matcher)", n, lambda: noop(rising_general),
                         args.repeat))
    highs = sparkcep.sql(spark, RISING_HIGHS)
    timings.append(timed("sparkcep rising highs (MAX(B.price))", n, lambda: noop(highs), args.repeat))
    print(f"rows={n:,} symbols={args.symbols} master={args.master}")
    print_table(timings, "pass-through Arrow UDTF (floor)")
    print("matches: V shape", v_shape.count(), "| rising", rising.count(), "| rising highs", highs.count())
    if args.json:
        with open(args.json, "a") as handle:
            for t in timings:
                handle.write(json.dumps({"rows": n, "symbols": args.symbols, "master": args.master,
                                         "variant": t.name, "seconds": t.seconds}) + "\n")
    spark.stop()


if __name__ == "__main__":
    main()
