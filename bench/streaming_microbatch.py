"""What one micro-batch of a stream costs, and how much of it is sparkcep's (issue 22).

A stream's reaction time is bounded below by its micro-batch: the files it lists, the logs it
writes, the plan Spark makes again, the stateful operator's tasks and their state-store commits.
This measures a micro-batch in its steady state, without a feeder: ``--files`` files of
``--rows`` rows each (2,000 events/s cut into half seconds, over ``--keys`` keys, as
``streaming_latency.py`` generates them) are written first, and the query reads one per
micro-batch (``maxFilesPerTrigger`` 1), back to back. Each run is its own process and JVM.

Variants (``--variants``):

* ``floor``: a ``transformWithState`` operator in Python that keeps no state and passes each row
  through, grouped by the same key: what any design built on PySpark's stateful operator pays
  before it does anything;
* ``next_match``, ``prev``: sparkcep's statements of ``streaming_latency.py`` (PREV has two
  stateful operators).

and file systems (``--file-context``): ``checksum`` (Hadoop's default for ``file:``) or ``raw``
(``sparkcep.clients.session.STREAM_HADOOP_SETTINGS``: the checkpoint's logs and state changelogs
without ``.crc`` files). Every session has the JVM options sparkcep sets for streams. Variants
alternate within each ``--repeat`` round, so that they share the machine's state.

    .venv/bin/python bench/streaming_microbatch.py --variants floor,next_match,prev \\
        --file-context checksum,raw --repeat 2

Results: bench/results/streaming_microbatch.jsonl (the p50 of each ``durationMs`` component and
of each stateful operator's metrics over the micro-batches after the first five), and
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

RAW_FILE_CONTEXT = {"spark.hadoop.fs.AbstractFileSystem.file.impl": "org.apache.hadoop.fs.local.RawLocalFs"}
WARM_BATCHES = 5  # the first micro-batches (JIT, state stores opening) are left out of the p50


def worker(config: dict) -> None:
    """One run, in its own process: write the files, run the query, record its progress."""
    from streaming_latency import SHAPES, batch_profile, events, schema, statement, write_csv

    import sparkcep
    from sparkcep.clients.session import STREAM_JAVA_OPTIONS, local_session

    shape = "next_match" if config["variant"] == "floor" else config["variant"]
    root = Path(config["dir"])
    (root / "in").mkdir(parents=True)
    rows = config["rows"]
    key, ts, ev, price = events(config["files"] * rows, 2000, config["keys"], 7)
    for index in range(config["files"]):
        part = slice(index * rows, (index + 1) * rows)
        path = root / "in" / f"part-{index:05d}.csv"
        write_csv(path, key[part], ts[part], ev[part], price[part] if SHAPES[shape]["price"] else None)
        os.utime(path, (1e9 + index, 1e9 + index))  # the source reads them in this order
    settings = {"spark.driver.memory": "4g",
                "spark.executor.pyspark.memory": "2g",
                "spark.sql.shuffle.partitions": str(config["partitions"]),
                "spark.driver.extraJavaOptions": STREAM_JAVA_OPTIONS,
                "spark.executor.extraJavaOptions": STREAM_JAVA_OPTIONS}
    if config["file_context"] == "raw":
        settings.update(RAW_FILE_CONTEXT)
    spark = local_session("local[2]", "sparkcep-microbatch",
                          **{key.replace(".", "_"): value for key, value in settings.items()})
    try:
        (spark.readStream.schema(schema(shape)).option("timestampFormat", "yyyy-MM-dd HH:mm:ss.SSS")
         .option("maxFilesPerTrigger", 1).csv(str(root / "in"))
         .withWatermark("ts", "2 seconds").createOrReplaceTempView("events"))
        if config["variant"] == "floor":
            frame = _pass_through(spark)
        else:
            frame = sparkcep.sql(spark, statement(shape, SHAPES[shape]["within"] or 5))
        out = []
        query = (frame.writeStream.foreachBatch(lambda batch, _: out.append(len(batch.collect())))
                 .option("checkpointLocation", str(root / "checkpoint")).start())
        progress, seen, deadline = [], -1, time.monotonic() + 900
        while query.isActive and time.monotonic() < deadline and seen < config["files"]:
            for item in query.recentProgress:
                if item["batchId"] > seen:
                    seen = item["batchId"]
                    progress.append(json.loads(item.json))
            time.sleep(0.2)
        query.stop()
    finally:
        spark.stop()
    data = [p for p in progress if (p.get("numInputRows") or 0) > 0][WARM_BATCHES:]
    profile = batch_profile(data)
    with open(config["result"], "w") as handle:
        json.dump({"profile": profile, "rows_out": sum(out), "micro_batches": len(progress)}, handle)


def _pass_through(spark):
    """The floor: PySpark's stateful operator grouped by the key, keeping nothing."""
    from pyspark.sql import Row
    from pyspark.sql.streaming import StatefulProcessor

    from sparkcep.runtime.streaming import use_rocksdb

    class PassThrough(StatefulProcessor):
        def init(self, handle) -> None:
            pass  # no state

        def handleInputRows(self, key, rows, timerValues):
            for row in rows:
                yield Row(k=row.k, ts=row.ts)

        def close(self) -> None:
            pass  # nothing held

    use_rocksdb(spark)  # transformWithState needs it, as sparkcep's operators do
    return spark.table("events").groupBy("k").transformWithState(
        statefulProcessor=PassThrough(), outputStructType="k INT, ts TIMESTAMP",
        outputMode="Append", timeMode="EventTime")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default="floor,next_match,prev")
    parser.add_argument("--file-context", default="checksum,raw")
    parser.add_argument("--files", type=int, default=30)
    parser.add_argument("--rows", type=int, default=1000, help="rows per file (micro-batch)")
    parser.add_argument("--keys", type=int, default=32)
    parser.add_argument("--partitions", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--output", default=str(HERE / "results" / "streaming_microbatch.jsonl"))
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(json.loads(args.worker))
        return
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, text=True,
                            capture_output=True).stdout.strip()
    plan = [(variant, fc) for variant in args.variants.split(",")
            for fc in args.file_context.split(",")]
    for round_ in range(args.repeat):
        for variant, file_context in plan:
            with tempfile.TemporaryDirectory() as scratch:
                config = {"variant": variant, "file_context": file_context, "files": args.files,
                          "rows": args.rows, "keys": args.keys, "partitions": args.partitions,
                          "dir": str(Path(scratch) / "run"), "result": str(Path(scratch) / "result.json")}
                load = os.getloadavg()[0]
                started = time.monotonic()
                subprocess.run([sys.executable, __file__, "--worker", json.dumps(config)], check=True,
                               env={**os.environ, "PYSPARK_PYTHON": sys.executable})
                result = json.loads(Path(config["result"]).read_text())
                shutil.rmtree(config["dir"], ignore_errors=True)
            record = {"commit": commit, "command": " ".join(sys.argv[1:]), "round": round_,
                      "variant": variant, "file_context": file_context, "load_at_start": round(load, 2),
                      "seconds": round(time.monotonic() - started, 1),
                      **{k: v for k, v in vars(args).items() if k in ("files", "rows", "keys", "partitions")},
                      **result}
            os.makedirs(os.path.dirname(args.output), exist_ok=True)
            with open(args.output, "a") as handle:
                handle.write(json.dumps(record) + "\n")
            durations = result["profile"]["durationMs_p50"]
            operators = result["profile"]["stateOperators_p50"]
            print(f"{variant:11s} {file_context:8s} load {load:5.2f}  micro-batch p50 "
                  f"{durations.get('triggerExecution')} ms  planning {durations.get('queryPlanning')}"
                  f"  logs {durations.get('walCommit')}/{durations.get('commitOffsets')}"
                  f"  listing {durations.get('latestOffset')}  operators (updates/commit) "
                  + ", ".join(f"{op.get('allUpdatesTimeMs')}/{op.get('commitTimeMs')}" for op in operators),
                  flush=True)


if __name__ == "__main__":
    main()
