"""A Python worker killed in the middle of a MATCH_RECOGNIZE query (run by test_faults.py in its
own process, with a local master that retries failed tasks).

The same query runs twice: once undisturbed, once while a thread SIGKILLs the Python worker of
one running task. The victim is chosen by a handshake, not by timing: the workers run
``pyspark_task_marker`` (beside this file), whose first task after the run is armed writes its
pid to a file and waits to be killed. Spark retries the lost task; the rows must be identical.
Prints one JSON line: whether a worker was killed while the query ran, the failed task attempts
Spark counted, and whether the rows are equal."""

from __future__ import annotations

import json
import os
import shutil
import signal
import tempfile
import threading
import time

import sparkcep

QUERY = """SELECT * FROM fault_ticks MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ts
  MEASURES FIRST(UP.ts) AS start_ts, LAST(UP.ts) AS end_ts, COUNT(UP.*) AS ups
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (UP{3,})
  DEFINE UP AS UP.price > PREV(UP.price) AND UP.price >= AVG(UP.price))"""


HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> None:
    markers = tempfile.mkdtemp(prefix="sparkcep-fault-")
    # the workers inherit the JVM's environment, which inherits this process's
    os.environ["SPARKCEP_FAULT_MARKERS"] = markers
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (HERE, os.environ.get("PYTHONPATH")) if p)
    spark = sparkcep.local_session("local[2,4]", "sparkcep-fault",
                                   spark_executor_pyspark_memory="1g",
                                   spark_sql_shuffle_partitions="4",
                                   spark_python_worker_module="pyspark_task_marker")
    try:
        spark.sql("""SELECT CAST(id % 4 AS INT) AS symbol, CAST(id DIV 4 AS BIGINT) AS ts,
                     100 + sin(id / 7.0) * 10 + (id % 13) / 10.0 AS price FROM range(200000)""") \
            .createOrReplaceTempView("fault_ticks")
        expected = sorted(tuple(r) for r in sparkcep.sql(spark, QUERY).collect())

        running = threading.Event()
        killed: list[int] = []
        victim = os.path.join(markers, "victim")

        def killer() -> None:
            running.wait()
            deadline = time.monotonic() + 600  # a guard against a hang, not a timing assumption
            while not os.path.exists(victim):
                if time.monotonic() > deadline or not running.is_set():
                    return
                time.sleep(0.05)
            with open(victim) as handle:
                pid = int(handle.read())
            os.kill(pid, signal.SIGKILL)  # the victim waits in its task until this lands
            killed.append(pid)

        thread = threading.Thread(target=killer, daemon=True)
        thread.start()
        frame = sparkcep.sql(spark, QUERY)
        open(os.path.join(markers, "armed"), "w").close()  # from now on, the first task is the victim
        running.set()
        got = sorted(tuple(r) for r in frame.collect())
        running.clear()  # a kill recorded before this point happened during the query
        thread.join(30)
        tracker = spark.sparkContext.statusTracker()
        stages = [tracker.getStageInfo(i) for i in range(500)]
        failed = sum(info.numFailedTasks for info in stages if info is not None)
        print(json.dumps({"killed": bool(killed), "failed_tasks": int(failed),
                          "rows": len(got), "equal": got == expected}), flush=True)
    finally:
        spark.stop()
        shutil.rmtree(markers, ignore_errors=True)


if __name__ == "__main__":
    main()
