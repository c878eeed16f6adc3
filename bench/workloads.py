"""The other two workload shapes of issue 4 at scale, next to the pass-through floor, in one run:
a Hadoop-style job log (SASE++'s Q1 shape: JobStart, mappers, JobEnd under SKIP TILL NEXT MATCH
WITHIN) and a clickstream funnel (search, product views, cart; strict contiguity).

    .venv/bin/python bench/workloads.py --rows 1000000 --json bench/results/workloads.jsonl

Data are generated in Spark (``spark.range``), cached and materialised before timing:

* ``hadoop_log(job_id, ts, event, period_s)``: jobs of ``--job-length`` records each: JobStart,
  then MapStart/DataPull/MapEnd records in a random mix, then JobEnd; one record per second.
* ``clicks(user_id, ts, page)``: ``--rows / 1000`` users, pages drawn as home 30 %, search 20 %,
  product 35 %, cart 10 %, checkout 5 %; one click per second per user.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import Timing, bench_session, noop, passthrough_floor, print_table, timed  # noqa: E402

import sparkcep  # noqa: E402

HADOOP_Q1 = """
SELECT * FROM hadoop_log MATCH_RECOGNIZE (
  PARTITION BY job_id ORDER BY ts
  MEASURES A.ts AS job_start, C.ts AS job_end, COUNT(B.*) AS mappers,
           AVG(B.period_s) AS avg_map_s, MAX(B.period_s) AS max_map_s
  ONE ROW PER MATCH
  SKIP TILL NEXT MATCH
  PATTERN (A B+ C) WITHIN INTERVAL '1' DAY
  DEFINE A AS event = 'JobStart', B AS event = 'MapEnd', C AS event = 'JobEnd')
"""

FUNNEL = """
SELECT * FROM clicks MATCH_RECOGNIZE (
  PARTITION BY user_id ORDER BY ts
  MEASURES FIRST(S.ts) AS searched, COUNT(P.*) AS products, LAST(C.ts) AS carted
  ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
  PATTERN (S P{1,5} C)
  DEFINE S AS page = 'search', P AS page = 'product', C AS page = 'cart')
"""


def hadoop_log(spark, rows: int, job_length: int, seed: int = 7):
    frame = spark.sql(f"""
        SELECT CAST(id DIV {job_length} AS INT) AS job_id,
               timestamp_seconds(id) AS ts,
               CASE WHEN id % {job_length} = 0 THEN 'JobStart'
                    WHEN id % {job_length} = {job_length - 1} THEN 'JobEnd'
                    WHEN rand({seed}) < 0.4 THEN 'MapEnd'
                    WHEN rand({seed + 1}) < 0.5 THEN 'MapStart'
                    ELSE 'DataPull' END AS event,
               round(rand({seed + 2}) * 60, 1) AS period_s
        FROM range({rows})""").persist()
    frame.count()
    frame.createOrReplaceTempView("hadoop_log")


def clicks(spark, rows: int, seed: int = 11):
    users = max(1, rows // 1000)
    frame = spark.sql(f"""
        SELECT CAST(id % {users} AS INT) AS user_id, timestamp_seconds(id DIV {users}) AS ts,
               CASE WHEN r < 0.30 THEN 'home' WHEN r < 0.50 THEN 'search'
                    WHEN r < 0.85 THEN 'product' WHEN r < 0.95 THEN 'cart' ELSE 'checkout' END AS page
        FROM (SELECT id, rand({seed}) AS r FROM range({rows}))""").persist()
    frame.count()
    frame.createOrReplaceTempView("clicks")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--job-length", type=int, default=1000)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--json", help="append results as JSON lines to this file")
    args = parser.parse_args()

    spark = bench_session(args.master)
    n = args.rows
    hadoop_log(spark, n, args.job_length)
    clicks(spark, n)
    results: list[tuple[str, list[Timing]]] = []
    for table, key, query, label in [("hadoop_log", "job_id", HADOOP_Q1, "Hadoop Q1 A B+ C (NEXT, WITHIN)"),
                                     ("clicks", "user_id", FUNNEL, "funnel S P{1,5} C (contiguous)")]:
        floor = passthrough_floor(spark, table, key, "ts")
        noop(floor)  # warm-up
        frame = sparkcep.sql(spark, query)
        timings = [timed(f"floor over {table}", n, lambda: noop(floor), args.repeat),
                   timed(label, n, lambda: noop(frame), args.repeat)]
        print_table(timings, f"floor over {table}")
        print("matches:", frame.count())
        results.append((table, timings))
    if args.json:
        with open(args.json, "a") as handle:
            for table, timings in results:
                for t in timings:
                    handle.write(json.dumps({"rows": n, "table": table, "master": args.master,
                                             "variant": t.name, "seconds": t.seconds}) + "\n")
    spark.stop()


if __name__ == "__main__":
    main()
