"""Aggregation pushdown on Spark: a length-5 SKIP TILL ANY MATCH COUNT query over a partitioned
input of 1M, 3M and 10M rows in one run (issue 13: time linear in the input).

Input: ``p`` (1,000 partitions), ``ts`` (a row counter), ``kind`` one of a..f at random. Query::

    SELECT p, COUNT(*) AS n FROM ev MATCH_RECOGNIZE (
      PARTITION BY p ORDER BY ts MEASURES A.ts AS a_ts SKIP TILL ANY MATCH
      PATTERN (A B+ C D E) WITHIN 150 DEFINE A AS kind = 'a', ...) GROUP BY p

The matches per partition run into the billions; no enumeration could finish. ``--query trend``
runs GRETA's shape instead (engines/sase/trend_aggregation: DEFINE compares rows of the match)::

    SELECT p, COUNT(*) AS n FROM ev MATCH_RECOGNIZE (... PATTERN (A B+ C) WITHIN 40
      DEFINE A AS kind = 'a',
             B AS kind = 'b' AND (LAST(B.price, 1) IS NULL OR B.price > LAST(B.price, 1)),
             C AS kind = 'c' AND C.price >= LAST(B.price)) GROUP BY p

over the same rows with ``price`` an integer 0..99 at random; ``--query trend-enumerated`` reads
the same clause through ``SELECT *`` (enumerate, then aggregate in Spark). Prints one JSON
line per size: seconds (best of ``--repeat``), rows/s, the total count, and the floor: the same
rows through a pass-through Arrow UDTF partitioned and sorted the same way.

    .venv/bin/python bench/aggregation_spark.py --sizes 1000000 3000000 10000000
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import bench_session  # noqa: E402

import sparkcep  # noqa: E402

QUERY = """SELECT p, COUNT(*) AS n FROM ev MATCH_RECOGNIZE (
  PARTITION BY p ORDER BY ts MEASURES A.ts AS a_ts SKIP TILL ANY MATCH
  PATTERN (A B+ C D E) WITHIN 150
  DEFINE A AS kind = 'a', B AS kind = 'b', C AS kind = 'c', D AS kind = 'd', E AS kind = 'e')
GROUP BY p"""

TREND = """SELECT p, COUNT(*) AS n FROM ev MATCH_RECOGNIZE (
  PARTITION BY p ORDER BY ts MEASURES A.ts AS a_ts SKIP TILL ANY MATCH
  PATTERN (A B+ C) WITHIN 40
  DEFINE A AS kind = 'a',
         B AS kind = 'b' AND (LAST(B.price, 1) IS NULL OR B.price > LAST(B.price, 1)),
         C AS kind = 'c' AND C.price >= LAST(B.price))
GROUP BY p"""


def events(spark, rows: int, partitions: int) -> None:
    frame = spark.sql(f"""
        SELECT CAST(id % {partitions} AS INT) AS p, CAST(id DIV {partitions} AS BIGINT) AS ts,
               element_at(array('a', 'b', 'c', 'd', 'e', 'f'), CAST(rand(7) * 6 AS INT) + 1) AS kind,
               CAST(rand(8) * 100 AS INT) AS price
        FROM range({rows})""").persist()
    frame.count()
    frame.createOrReplaceTempView("ev")


def floor_seconds(spark) -> float:
    from pyspark.sql.functions import arrow_udtf

    @arrow_udtf(returnType="n BIGINT")
    class PassThrough:
        def __init__(self):
            self.rows = 0

        def eval(self, batch):
            self.rows += batch.num_rows
            yield from ()

        def terminate(self):
            import pyarrow as pa
            yield pa.RecordBatch.from_pydict({"n": [self.rows]}, schema=pa.schema([("n", pa.int64())]))

    spark.udtf.register("bench_pass_through", PassThrough)
    started = time.perf_counter()
    spark.sql("SELECT sum(n) FROM bench_pass_through(TABLE(SELECT p, ts, kind FROM ev) "
              "PARTITION BY (p) ORDER BY (ts))").collect()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 3_000_000, 10_000_000])
    parser.add_argument("--partitions", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--query", choices=["count", "trend", "trend-enumerated"], default="count")
    args = parser.parse_args()
    query = QUERY if args.query == "count" else TREND
    if args.query == "trend-enumerated":  # the same clause read through SELECT *: enumerated
        head, clause = query.split(" FROM ", 1)
        clause, tail = clause.rsplit("\nGROUP BY", 1)
        query = f"{head} FROM (SELECT * FROM {clause})\nGROUP BY{tail}"
    spark = bench_session()
    try:
        for rows in args.sizes:
            events(spark, rows, args.partitions)
            best, total = None, None
            for _ in range(args.repeat):
                started = time.perf_counter()
                result = sparkcep.sql(spark, query).selectExpr("sum(n) AS n").collect()
                seconds = time.perf_counter() - started
                best = seconds if best is None else min(best, seconds)
                total = result[0].n
            floor = floor_seconds(spark)
            print(json.dumps({"query": args.query, "rows": rows, "seconds": round(best, 2),
                              "rows_per_s": round(rows / best), "matches": int(total),
                              "floor_seconds": round(floor, 2), "ratio_to_floor": round(best / floor, 2)}),
                  flush=True)
            spark.catalog.clearCache()
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
