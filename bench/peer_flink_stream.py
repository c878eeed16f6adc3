"""Apache Flink SQL MATCH_RECOGNIZE in streaming mode, the worker of bench/streaming_latency.py.
Runs in bench/.venv-flink (PyFlink, local mini-cluster), never imports sparkcep.

    bench/.venv-flink/bin/python bench/peer_flink_stream.py '{"watch": ..., "out": ..., ...}'

The table ``events (k INT, ts TIMESTAMP(3), ev STRING)`` is the ``filesystem`` connector over the
folder the feeder moves CSV files into, monitored every ``monitor_ms`` (continuous mode), with
``WATERMARK FOR ts AS ts - INTERVAL 'delay' SECOND``; an idle source reader is marked idle after
a second so the other one's watermark is not held back. The statement is the one sparkcep runs
(the same pattern, measures, AFTER MATCH and WITHIN). With ``"sink": "print"`` (the default of
the benchmark) the matches go to Flink's ``print`` connector, whose lines (``+I[k, start, end,
count of B, printed]``, ``printed`` = ``CURRENT_ROW_TIMESTAMP()`` evaluated per row just before the
sink) the JVM writes to ``out``; with ``"sink": "collect"`` every match the ``collect()`` iterator
yields is appended to ``out`` as ``[receipt time, k, start ms, end ms, count of B]`` (one Py4J
round trip per row, about 1.5-2 ms: it limits the rate of matches). No checkpointing, so rows are
emitted as soon as they are produced. Prints READY once the job is
submitted; stops (cancels the job) when the file ``stop`` appears.
"""

from __future__ import annotations

import calendar
import json
import os
import sys
import threading
import time


def millis(value) -> int:
    return calendar.timegm(value.timetuple()) * 1000 + value.microsecond // 1000


def main() -> None:
    config = json.loads(sys.argv[1])
    from pyflink.table import EnvironmentSettings, TableEnvironment

    ready = sys.stdout
    if config.get("sink") == "print":  # the JVM (a child) writes its stdout to the matches file
        ready = os.fdopen(os.dup(1), "w")
        os.dup2(os.open(config["out"], os.O_WRONLY | os.O_CREAT | os.O_APPEND), 1)
    env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    settings = env.get_config()
    settings.set("table.local-time-zone", "UTC")
    settings.set("parallelism.default", str(config["parallelism"]))
    settings.set("table.exec.source.idle-timeout", "1 s")
    settings.set("pipeline.auto-watermark-interval", "200 ms")
    env.execute_sql(f"""CREATE TEMPORARY TABLE events (
          k INT, ts TIMESTAMP(3), ev STRING,
          WATERMARK FOR ts AS ts - INTERVAL '{config['delay']}' SECOND)
        WITH ('connector' = 'filesystem', 'path' = '{config['watch']}', 'format' = 'csv',
              'source.monitor-interval' = '{config['monitor_ms']} ms')""")
    query = f"""
        SELECT k, start_ts, end_ts, bs FROM events MATCH_RECOGNIZE (
          PARTITION BY k ORDER BY ts
          MEASURES FIRST(A.ts) AS start_ts, LAST(C.ts) AS end_ts, COUNT(B.ts) AS bs
          ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
          PATTERN (A B+ C) WITHIN INTERVAL '{config['within']}' SECOND
          DEFINE A AS A.ev = 'a', B AS B.ev = 'b', C AS C.ev = 'c'
        ) AS m"""
    if config.get("sink") == "print":
        env.execute_sql("""CREATE TEMPORARY TABLE detected (
              k INT, start_ts TIMESTAMP(3), end_ts TIMESTAMP(3), bs BIGINT, printed TIMESTAMP(3))
            WITH ('connector' = 'print')""")
        result = env.execute_sql(
            f"INSERT INTO detected SELECT *, CAST(CURRENT_ROW_TIMESTAMP() AS TIMESTAMP(3)) FROM ({query})")
    else:
        result = env.execute_sql(query)
    print("READY", file=ready, flush=True)
    out = open(config["out"], "a")

    def stop_when_asked() -> None:
        while not os.path.exists(config["stop"]):
            time.sleep(0.25)
        out.flush()
        try:
            result.get_job_client().cancel().result()
        except Exception:  # the job may already be gone
            pass
        os._exit(0)  # the gateway JVM, a child of this process, exits with it

    if config.get("sink") == "print":
        stop_when_asked()
    threading.Thread(target=stop_when_asked, daemon=True).start()
    with result.collect() as rows:
        for row in rows:
            now = time.time()
            out.write(json.dumps([now, row[0], millis(row[1]), millis(row[2]), row[3]]) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
