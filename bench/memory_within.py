"""One huge partition with a WITHIN pattern: throughput and peak Python worker memory,
sequential (one task) and chunked (``spark.sparkcep.withinChunks``, see sparkcep/compiler/chunks.py).

    python bench/memory_within.py --rows 10000000            # both modes, noop sink
    python bench/memory_within.py --rows 200000 --compare    # also: full result sets equal

Events are generated in Spark: one event per second (unique keys), kinds a/b/c/x with
probabilities 5/30/5/60 % from a hash of the id, and a value. The query has no PARTITION BY:

    SELECT * FROM events MATCH_RECOGNIZE (ORDER BY ts
      MEASURES FIRST(A.id) AS a, LAST(C.id) AS c, COUNT(B.*) AS nb, AVG(B.v) AS avg_b
      ONE ROW PER MATCH <strategy> PATTERN (A B+ C) WITHIN INTERVAL '30' SECOND ...)

After an unmeasured warm-up on 20,000 rows (Python workers started, sparkcep imported), each
mode writes to the ``noop`` sink once; the number of matches comes from the same run
(``DataFrame.observe``). While it runs, /proc is polled every 0.2 s for the Python processes
descended from the Spark JVM (``pyspark.daemon`` and the workers it forks): the peak RSS of the
largest one and the peak of their sum are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import bench_session, noop  # noqa: E402

STRATEGIES = {"next": "SKIP TILL NEXT MATCH", "any": "SKIP TILL ANY MATCH",
              "strict": "AFTER MATCH SKIP TO NEXT ROW"}


def query(strategy: str) -> str:
    return f"""SELECT * FROM events MATCH_RECOGNIZE (ORDER BY ts
      MEASURES FIRST(A.id) AS a, LAST(C.id) AS c, COUNT(B.*) AS nb, AVG(B.v) AS avg_b
      ONE ROW PER MATCH {STRATEGIES[strategy]}
      PATTERN (A B+ C) WITHIN INTERVAL '30' SECOND
      DEFINE A AS kind = 'a', B AS kind = 'b', C AS kind = 'c')"""


def events(spark, rows: int) -> None:
    spark.sql(f"""
        SELECT id, timestamp_seconds(id) AS ts,
               CASE WHEN h < 5 THEN 'a' WHEN h < 35 THEN 'b' WHEN h < 40 THEN 'c' ELSE 'x' END
                 AS kind,
               pmod(hash(id, 3), 1000) AS v
        FROM (SELECT id, pmod(hash(id), 100) AS h FROM range({rows}))""").createOrReplaceTempView(
        "events")


# -- /proc polling -------------------------------------------------------------------------------


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        tree.setdefault(ppid, []).append(int(name))
    return tree


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _is_python_worker(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmd = f.read().replace(b"\0", b" ")
    except OSError:
        return False
    return b"pyspark.daemon" in cmd or b"pyspark.worker" in cmd


def python_workers(root: int) -> list[int]:
    tree = _children()
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        for child in tree.get(pid, []):
            if _is_python_worker(child):
                found.append(child)
            stack.append(child)
    return found


class RssPoller(threading.Thread):
    def __init__(self, jvm_pid: int, interval: float = 0.2) -> None:
        super().__init__(daemon=True)
        self.jvm_pid, self.interval = jvm_pid, interval
        self.peak_one = self.peak_sum = 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            sizes = [_rss_kb(pid) for pid in python_workers(self.jvm_pid)]
            if sizes:
                self.peak_one = max(self.peak_one, max(sizes))
                self.peak_sum = max(self.peak_sum, sum(sizes))
            self.stop.wait(self.interval)


def jvm_pid(spark) -> int:
    proc = getattr(spark.sparkContext._gateway, "proc", None)
    if proc is not None:
        return proc.pid
    return os.getpid()  # the JVM was not launched by this process: search our own children


# -- runs ----------------------------------------------------------------------------------------


def run_mode(spark, text: str, chunks: str, rows: int) -> dict:
    import sparkcep
    from pyspark.sql import Observation
    from pyspark.sql import functions as F

    spark.conf.set("spark.sparkcep.withinChunks", chunks)
    observation = Observation("matches")
    frame = sparkcep.sql(spark, text).observe(observation, F.count(F.lit(1)).alias("n"))
    poller = RssPoller(jvm_pid(spark))
    poller.start()
    started = time.perf_counter()
    noop(frame)
    seconds = time.perf_counter() - started
    poller.stop.set()
    poller.join()
    return {
        "mode": "sequential" if chunks == "off" else f"chunked({chunks})",
        "rows": rows,
        "seconds": round(seconds, 2),
        "rows_per_s": round(rows / seconds),
        "peak_worker_rss_mb": round(poller.peak_one / 1024, 1),
        "peak_workers_sum_rss_mb": round(poller.peak_sum / 1024, 1),
        "matches": observation.get["n"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="next")
    parser.add_argument("--chunks", default="auto", help="chunked mode: 'auto' or a number")
    parser.add_argument("--modes", default="sequential,chunked")
    parser.add_argument("--compare", action="store_true",
                        help="also collect both result sets and check they are equal")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--coalesce", action="store_true",
                        help="leave AQE partition coalescing on (it may put every chunk in one task)")
    parser.add_argument("--json", help="append the results as JSON lines to this file")
    args = parser.parse_args()

    spark = bench_session(args.master)
    if not args.coalesce:
        # AQE would coalesce the chunks' shuffle partitions (small in bytes, heavy in Python
        # work) into one task; results are the same either way, only the parallelism differs.
        spark.conf.set("spark.sql.adaptive.coalescePartitions.enabled", "false")
    text = query(args.strategy)
    # Warm-up (not measured): start the Python workers and import sparkcep in them once, so the
    # first measured mode does not pay for it.
    import sparkcep

    events(spark, 20_000)
    for chunks in ("off", args.chunks):
        spark.conf.set("spark.sparkcep.withinChunks", chunks)
        noop(sparkcep.sql(spark, text))
    events(spark, args.rows)
    results = []
    for mode in args.modes.split(","):
        chunks = "off" if mode == "sequential" else args.chunks
        result = run_mode(spark, text, chunks, args.rows)
        result["strategy"] = args.strategy
        result["aqe_coalesce"] = args.coalesce
        results.append(result)
        print(f"{result['mode']:<14} rows={result['rows']:,} seconds={result['seconds']:.1f} "
              f"rows/s={result['rows_per_s']:,} peak worker RSS={result['peak_worker_rss_mb']} MB "
              f"(sum {result['peak_workers_sum_rss_mb']} MB) matches={result['matches']:,}",
              flush=True)
    if len(results) == 2:
        same = results[0]["matches"] == results[1]["matches"]
        print(f"match counts equal: {same}")
        if not same:
            sys.exit(1)
    if args.compare:
        import sparkcep

        sets = []
        for chunks in ("off", args.chunks):
            spark.conf.set("spark.sparkcep.withinChunks", chunks)
            sets.append(sorted(map(tuple, sparkcep.sql(spark, text).collect())))
        print(f"full result sets equal: {sets[0] == sets[1]} ({len(sets[0]):,} rows)")
        if sets[0] != sets[1]:
            sys.exit(1)
    if args.json:
        with open(args.json, "a") as f:
            for result in results:
                f.write(json.dumps(result) + "\n")
    spark.stop()


if __name__ == "__main__":
    main()
