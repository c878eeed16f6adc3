"""A streaming MATCH_RECOGNIZE run as its own process, for the fault tests
(``test_stream_faults.py``), which kill it (or one of its Python workers) in the middle of a
micro-batch and start it again from the checkpoint.

    python tests/streaming/fault_driver.py SOURCE SINK CHECKPOINT GATE STATEMENT_FILE MASTER

It reads the JSON files of SOURCE as a stream (one file per micro-batch), runs the statement in
STATEMENT_FILE with ``sparkcep.sql`` and appends the matches to a Parquet file sink at SINK with
the checkpoint at CHECKPOINT, until the files there are processed (``availableNow``).

**The gates** make the kill points deterministic without timing: the matching operator's
processor is wrapped (by this driver, or by a test in its own session) so that when it receives
the rows of a partition whose key starts with ``~gate`` and the file ``GATE/armed-<key>`` exists,
it takes that file (so the gate holds once, also when Spark retries the task), writes its process
id to ``GATE/held-<key>`` and waits there (at most ``HOLD_SECONDS``). The test puts the only row
of such a partition into one chosen input file, so the gate holds the micro-batch of that file,
after it started and before it commits, and the test kills what it wants to kill. The wrapper is
a subclass defined here, which travels to the Python workers by value with the processor
(``cloudpickle``); the production code is not changed.
"""

from __future__ import annotations

import os
import sys
import time

HOLD_SECONDS = 150
GATE_PREFIX = "~gate"
SCHEMA = "user_id STRING, t BIGINT, v BIGINT, page STRING"
DELAY_SECONDS = 30


def gated(make_processor, gate: str):
    """``make_processor`` (``sparkcep.runtime.streaming._processor``) with the gate in front of
    ``handleInputRows``."""

    def make(stream_plan):
        inner = make_processor(stream_plan)

        class GatedProcessor(type(inner)):
            def handleInputRows(self, key, rows, timerValues):
                if key[0].startswith(GATE_PREFIX):
                    hold(gate, key[0])
                yield from super().handleInputRows(key, rows, timerValues)

        return GatedProcessor()

    return make


def hold(gate: str, key: str) -> None:
    armed, held = os.path.join(gate, f"armed-{key}"), os.path.join(gate, f"held-{key}")
    try:
        os.remove(armed)  # taken: only this attempt holds
    except FileNotFoundError:
        return
    with open(held + ".tmp", "w") as out:
        out.write(str(os.getpid()))
    os.replace(held + ".tmp", held)
    deadline = time.monotonic() + HOLD_SECONDS
    while time.monotonic() < deadline:  # the test kills us long before
        time.sleep(0.05)


def main(source, sink, checkpoint, gate, statement_file, master) -> int:
    from sparkcep.clients.session import local_session
    import sparkcep
    import sparkcep.runtime.streaming as streaming

    # a session for streams, as `sparkcep stream` starts: exactly-once holds with its settings
    spark = local_session(master, "sparkcep-fault-driver", streaming=True,
                          spark_sql_shuffle_partitions="2",
                          spark_executor_pyspark_memory="1g")
    streaming._processor = gated(streaming._processor, gate)
    stream = (spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(source)
              .selectExpr("user_id", "timestamp_seconds(t) AS ts", "v", "page")
              .withWatermark("ts", f"{DELAY_SECONDS} seconds"))
    stream.createOrReplaceTempView("events")
    with open(statement_file) as text:
        frame = sparkcep.sql(spark, text.read())
    query = (frame.writeStream.format("parquet").option("path", sink).outputMode("append")
             .option("checkpointLocation", checkpoint).trigger(availableNow=True).start())
    try:
        query.awaitTermination()
    except Exception as error:  # the query failed: say how, in one line, and exit 3
        print(f"query failed: {type(error).__name__}: {str(error).splitlines()[0]}",
              file=sys.stderr, flush=True)
        return 3
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:7]))
