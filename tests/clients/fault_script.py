"""A Python worker killed in the middle of a MATCH_RECOGNIZE query (run by test_faults.py in its
own process, with a local master that retries failed tasks).

The same query runs twice: once undisturbed, once while a thread SIGKILLs one busy Python worker.
Spark retries the lost task; the rows must be identical. Prints one JSON line: whether a worker
was killed while the query ran, the failed task attempts Spark counted, and whether the rows are
equal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time

import sparkcep

QUERY = """SELECT * FROM fault_ticks MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ts
  MEASURES FIRST(UP.ts) AS start_ts, LAST(UP.ts) AS end_ts, COUNT(UP.*) AS ups
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (UP{3,})
  DEFINE UP AS UP.price > PREV(UP.price) AND UP.price >= AVG(UP.price))"""


def busy_python_workers() -> list[int]:
    """This process's own Python workers (forked by a pyspark daemon that descends from this
    process, never another Spark's) that are using the CPU, busiest first."""
    table = subprocess.run(["ps", "-eo", "pid=,ppid=,pcpu=,args="], capture_output=True, text=True).stdout
    parent, cpu, daemon = {}, {}, set()
    for line in table.splitlines():
        fields = line.strip().split(None, 3)
        if len(fields) < 4:
            continue
        pid, ppid = int(fields[0]), int(fields[1])
        parent[pid], cpu[pid] = ppid, float(fields[2])
        if "pyspark.daemon" in fields[3] or "pyspark/daemon" in fields[3]:
            daemon.add(pid)

    def ours(pid: int) -> bool:
        seen = set()
        while pid in parent and pid not in seen:
            if pid == os.getpid():
                return True
            seen.add(pid)
            pid = parent[pid]
        return False

    workers = [(cpu[pid], pid) for pid in daemon
               if parent.get(pid) in daemon and cpu[pid] > 5.0 and ours(pid)]
    return [pid for _, pid in sorted(workers, reverse=True)]


def main() -> None:
    spark = sparkcep.local_session("local[2,4]", "sparkcep-fault",
                                   spark_executor_pyspark_memory="1g",
                                   spark_sql_shuffle_partitions="4")
    try:
        spark.sql("""SELECT CAST(id % 4 AS INT) AS symbol, CAST(id DIV 4 AS BIGINT) AS ts,
                     100 + sin(id / 7.0) * 10 + (id % 13) / 10.0 AS price FROM range(1200000)""") \
            .createOrReplaceTempView("fault_ticks")
        expected = sorted(tuple(r) for r in sparkcep.sql(spark, QUERY).collect())

        running = threading.Event()
        killed: list[int] = []

        def killer() -> None:
            running.wait()
            deadline = time.monotonic() + 60
            time.sleep(3)  # well inside the query: tasks are matching
            while time.monotonic() < deadline and running.is_set() and not killed:
                for pid in busy_python_workers():
                    try:
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)
                        break
                    except ProcessLookupError:
                        continue
                time.sleep(0.2)

        thread = threading.Thread(target=killer, daemon=True)
        thread.start()
        frame = sparkcep.sql(spark, QUERY)
        running.set()
        got = sorted(tuple(r) for r in frame.collect())
        running.clear()  # a kill recorded before this point happened during the query
        thread.join(5)
        tracker = spark.sparkContext.statusTracker()
        stages = [tracker.getStageInfo(i) for i in range(500)]
        failed = sum(info.numFailedTasks for info in stages if info is not None)
        print(json.dumps({"killed": bool(killed), "failed_tasks": int(failed),
                          "rows": len(got), "equal": got == expected}), flush=True)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
