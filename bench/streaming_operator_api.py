"""Which of Spark's Python stateful operators should run the streaming MATCH_RECOGNIZE:
``transformWithStateInPandas`` (rows reach Python as pandas DataFrames) or the Row-based
``transformWithState`` (rows reach Python as ``pyspark.sql.Row`` objects)? The same matching work
through both, on the same data, in the same Spark session (docs/benchmarks.md, section 10d).

How the rows travel, in pyspark 4.3's own worker (``pyspark/worker.py``, the branches for
``SQL_TRANSFORM_WITH_STATE_PANDAS_UDF`` and ``SQL_TRANSFORM_WITH_STATE_PYTHON_ROW_UDF``): in both
APIs the JVM sends Arrow record batches. The pandas API converts each batch to pandas, walks it
row by row (``itertuples``) to group the rows by key, and rebuilds a pandas DataFrame per key of at
most ``spark.sql.execution.arrow.maxRecordsPerBatch`` rows; what it yields is converted back to
Arrow a DataFrame at a time. The Row API reads every cell of every row as a Python object
(``column[i].as_py()``) into a ``Row``, and turns the yielded Rows into an Arrow batch with
``RecordBatch.from_pylist`` per call. Both share everything else: the ``StatefulProcessor``
interface (``init``, ``handleInputRows(key, rows, timerValues)``, ``handleExpiredTimer``), the
``StatefulProcessorHandle`` (value, list and map state, event-time timers), which talks to the
JVM's state server over the same socket client, and the per-key call protocol.

Two processors per API, each over the same file stream:

* ``match``: the streaming MATCH_RECOGNIZE. Row: the runtime's own ``MatchProcessor``, built as
  ``sparkcep.runtime.streaming.register_stream`` builds it (``operator_input``, ``_processor``).
  pandas: the same class with the rows converted from pandas DataFrames to the Arrow table the
  matcher reads and the matches back to pandas (``PandasMatchProcessor``; the runtime ran on
  ``transformWithStateInPandas`` this way until the choice in docs/streaming.md): the same
  ``SegmentMatcher``, ``SegmentState``, state variables and timers, only the conversions differ. The statement's projection runs on top of either, and
  the matches are checked against the independent oracle of ``bench/streaming_latency.py`` (a
  regular expression per key): count and SHA-256.
* ``consume``: converts every row to that same Arrow table and yields one row per call (the row
  count); no state, no matching. It isolates the transport (and the per-key call) from the
  matching.

The data is ``bench/streaming_latency.py``'s workload (``A B+ C`` WITHIN 10 s, SKIP PAST LAST ROW,
``ev`` in a/b/c, event time ``i / rate``, key ``i mod keys``) written beforehand as ``--files``
CSV files read one per micro-batch (``maxFilesPerTrigger 1``, ``availableNow``), then a flush file
(one row per key far in the future) whose micro-batch moves the watermark past everything; the
no-data micro-batch Spark runs after it (the watermark moved) releases the last matches. For each variant: the wall time of the query, the CPU seconds of the Python
workers and of the JVM (sampled from /proc), the micro-batches, and the output.

    .venv/bin/python bench/streaming_operator_api.py --events 100000,1000000 --keys 16,1024
    .venv/bin/python bench/streaming_operator_api.py --events 2000 --output smoke.jsonl
    .venv/bin/python bench/streaming_operator_api.py --conversions   # the conversions alone

(a combination with fewer than 50 events per key is skipped: the smoke run above runs 16 keys;
it takes 1-1.5 minutes on a loaded 2-core machine, most of it Spark's start and the first, cold
streaming query; ``--processors match`` runs only the two matching queries).

Results: bench/results/streaming_operator_api.jsonl and docs/benchmarks.md (section 10d).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from streaming_latency import (  # noqa: E402
    checksum, events, oracle, process_tree, statement, write_csv)

CONSUME_SCHEMA = "k INT, n BIGINT"


# -- the processors -------------------------------------------------------------------------------


def rows_to_arrow(rows, stream_plan) -> pa.Table:
    """The Row API's rows as the Arrow table ``SegmentMatcher`` reads (the runtime's own
    conversion, ``runtime.streaming.arrow_from_rows``)."""
    from sparkcep.runtime.streaming import arrow_from_rows

    return arrow_from_rows(rows, stream_plan.input_schema, stream_plan.event_time)


def arrow_from_pandas(frame, schema: pa.Schema, event_time: str, time_zone: str) -> pa.Table:
    """The pandas API's frame as the Arrow table ``SegmentMatcher`` reads (the runtime's
    conversion while it ran on ``transformWithStateInPandas``): the columns by position, the
    timestamps (naive wall-clock times of the session time zone) localized back, the event time
    in microseconds."""
    from sparkcep.runtime.streaming import _EVENT_KEY

    arrays = []
    for position, field in enumerate(schema):
        values = frame.iloc[:, position]
        if pa.types.is_timestamp(field.type) and field.type.tz is not None \
                and getattr(values.dt, "tz", None) is None:
            values = values.dt.tz_localize(time_zone)
        arrays.append(pa.array(values, type=field.type, from_pandas=True))
    table = pa.Table.from_arrays(arrays, schema=schema)
    event = table.column(event_time).cast(pa.timestamp("us", "UTC")).cast(pa.int64())
    return table.append_column(_EVENT_KEY, event)


def row_match_processor(stream_plan):
    """The runtime's ``MatchProcessor`` as ``register_stream`` builds it (Row-based)."""
    from sparkcep.runtime.streaming import _processor

    return _processor(stream_plan)


def pandas_match_processor(stream_plan):
    """The runtime's ``MatchProcessor`` (state variables, timers, ``SegmentMatcher``) taking and
    yielding pandas DataFrames: only the two conversions differ."""
    from sparkcep.runtime.streaming import SegmentMatcher, _processor

    class ArrowOutMatcher(SegmentMatcher):
        def to_rows(self, batch):  # the processor below turns the batch into pandas itself
            return [batch]

    class PandasMatchProcessor(type(_processor(stream_plan))):
        def init(self, handle) -> None:
            super().init(handle)
            self.core = ArrowOutMatcher(stream_plan)

        def handleInputRows(self, key, rows, timerValues):
            state = self._load()
            tables = [arrow_from_pandas(frame, stream_plan.input_schema, stream_plan.event_time,
                                        stream_plan.time_zone) for frame in rows]
            for batch in self._run(state, tables, timerValues.getCurrentWatermarkInMs()):
                yield batch.to_pandas()

        def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
            for batch in self._run(self._load(), [], timerValues.getCurrentWatermarkInMs(),
                                   expiredTimerInfo.getExpiryTimeInMs()):
                yield batch.to_pandas()

    return PandasMatchProcessor()


def consume_processor(stream_plan, api: str):
    """Converts every row to the matcher's Arrow table and yields one row (key, rows) per call."""
    from pyspark.sql.streaming import StatefulProcessor

    class Consume(StatefulProcessor):
        def init(self, handle) -> None:
            pass

        def handleInputRows(self, key, rows, timerValues):
            if api == "pandas":
                import pandas as pd

                n = sum(arrow_from_pandas(frame, stream_plan.input_schema, stream_plan.event_time,
                                          stream_plan.time_zone).num_rows for frame in rows)
                yield pd.DataFrame({"k": [key[0]], "n": [n]})
            else:
                from pyspark.sql import Row

                yield Row(k=key[0], n=rows_to_arrow(rows, stream_plan).num_rows)

        def close(self) -> None:
            pass

    return Consume()


# -- CPU of the Python workers and the JVM --------------------------------------------------------


class CpuSampler:
    """CPU seconds (user + system) of this process's descendants, split into the JVM (``java``)
    and the Python workers (every other ``python*`` process below it), sampled from /proc every
    ``period`` seconds in a thread; per process the growth since the sampler started."""

    def __init__(self, period: float = 0.25) -> None:
        self.period = period
        self.first: dict[int, float] = {}
        self.last: dict[int, tuple[str, float]] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def _sample(self) -> None:
        tree = process_tree(os.getpid())
        tree.pop(os.getpid(), None)
        for pid, sample in tree.items():
            self.first.setdefault(pid, 0.0)
            self.last[pid] = sample

    def _loop(self) -> None:
        while not self.stop.wait(self.period):
            self._sample()

    def __enter__(self) -> "CpuSampler":
        # the processes alive at the start count from their CPU time then
        self._sample()
        for pid, (_, seconds) in self.last.items():
            self.first[pid] = seconds
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join()
        self._sample()

    def seconds(self, python: bool) -> float:
        total = 0.0
        for pid, (comm, seconds) in self.last.items():
            if comm.startswith("python") == python and (python or comm == "java"):
                total += seconds - self.first.get(pid, 0.0)
        return round(total, 2)


# -- one run --------------------------------------------------------------------------------------


def write_stream(folder: Path, n: int, keys: int, files: int, rate: int, seed: int, within: int,
                 delay: int):
    """The CSV files of the stream, in reading order (ascending modification times), and the
    oracle's matches."""
    key, ts, ev = events(n, rate, keys, seed)
    bounds = np.linspace(0, n, files + 1).astype(int)
    names = []
    for j, (lo, hi) in enumerate(zip(bounds, bounds[1:])):
        names.append(f"part-{j:04d}.csv")
        write_csv(folder / names[-1], key[lo:hi], ts[lo:hi], ev[lo:hi])
    every = np.arange(keys, dtype=np.int32)
    flush = int(ts[-1]) + (within + delay + 5) * 1000
    names.append("part-flush.csv")  # its micro-batch moves the watermark, the next one releases
    write_csv(folder / names[-1], every, np.full(keys, flush), np.full(keys, "x"))
    now = time.time() - len(names)
    for j, name in enumerate(names):
        os.utime(folder / name, (now + j, now + j))
    return oracle(key, ts, ev, keys, within * 1000)


def run_one(spark, api: str, processor: str, n: int, keys: int, args, data: Path,
            want: list) -> dict:
    from sparkcep.compiler.rewrite import compile_statement, stream_view_name
    from sparkcep.runtime.streaming import operator_input, use_rocksdb

    work = Path(tempfile.mkdtemp(prefix="sparkcep-opapi-"))
    try:
        (spark.readStream.schema("k INT, ts TIMESTAMP, ev STRING")
         .option("timestampFormat", "yyyy-MM-dd HH:mm:ss.SSS").option("maxFilesPerTrigger", 1)
         .csv(str(data)).withWatermark("ts", f"{args.delay} seconds")
         .createOrReplaceTempView("events"))
        compiled = compile_statement(statement(args.delay, args.within), streaming=True)
        (match,) = compiled.matches
        stream_plan, frame, group, return_type = operator_input(spark, match)
        use_rocksdb(spark)
        grouped = frame.groupBy(*group)
        operator = grouped.transformWithStateInPandas if api == "pandas" else grouped.transformWithState
        if processor == "match":
            built = pandas_match_processor(stream_plan) if api == "pandas" \
                else row_match_processor(stream_plan)
            operator(statefulProcessor=built, outputStructType=return_type, outputMode="Append",
                     timeMode="EventTime").createOrReplaceTempView(stream_view_name(match.function_name))
            output = spark.sql(compiled.sql)
        else:
            output = operator(statefulProcessor=consume_processor(stream_plan, api),
                              outputStructType=CONSUME_SCHEMA, outputMode="Append",
                              timeMode="EventTime")
        load0 = os.getloadavg()[0]
        with CpuSampler() as cpu:
            started = time.monotonic()
            query = (output.writeStream.format("parquet").option("path", str(work / "out"))
                     .option("checkpointLocation", str(work / "checkpoint"))
                     .trigger(availableNow=True).start())
            query.awaitTermination()
            wall = time.monotonic() - started
        batches = len(query.recentProgress)
        got = pq.read_table(work / "out") if (work / "out").exists() else None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    record = {"api": api, "processor": processor, "events": n, "keys": keys, "files": args.files_used,
              "micro_batches": batches, "wall_s": round(wall, 2),
              "python_cpu_s": cpu.seconds(True), "jvm_cpu_s": cpu.seconds(False),
              "load1_start": round(load0, 2), "load1_end": round(os.getloadavg()[0], 2)}
    if processor == "match":
        rows = [] if got is None else [
            (r["k"], r["s"], r["e"], r["bs"]) for r in got.select(["k", "s", "e", "bs"]).to_pylist()]
        record.update({"matches": len(rows), "expected": len(want), "checksum": checksum(rows),
                       "expected_checksum": checksum(want), "equal": sorted(rows) == sorted(want)})
    else:
        total = 0 if got is None else int(pc.sum(got.column("n")).as_py() or 0)
        record.update({"rows_seen": total, "expected_rows": n + keys, "calls": 0 if got is None
                       else got.num_rows, "equal": total == n + keys})
    return record


# -- the conversions alone (no Spark) ------------------------------------------------------------


def conversion_costs(sizes=(10, 100, 1000, 6000), repeat: int = 5) -> list[dict]:
    """Microseconds per call for the conversions of one key's rows, without Spark, on this
    workload's columns (k INT, ts TIMESTAMP, ev STRING): what pyspark 4.3's worker does per key
    (pandas API: ``itertuples`` rows regrouped into ``pd.DataFrame(rows)``; Row API: a ``Row`` of
    ``as_py()`` cells per row), and what sparkcep does next (``arrow_from_pandas``,
    ``rows_to_arrow``). It splits the per-call cost of the two APIs into Spark's and sparkcep's
    share."""
    import timeit
    from types import SimpleNamespace

    import pandas as pd
    from pyspark.sql import Row

    schema = pa.schema([pa.field("k", pa.int32()), pa.field("ts", pa.timestamp("us", "UTC")),
                        pa.field("ev", pa.string())])
    plan = SimpleNamespace(input_schema=schema, event_time="ts")
    out = []
    for n in sizes:
        key, ts, ev = events(n, 10_000, 1, 0)
        batch = pa.record_batch([pa.array(key), pa.array(ts * 1000, pa.timestamp("us", "UTC")),
                                 pa.array(ev)], schema=schema)
        frame = batch.to_pandas()
        frame["ts"] = frame["ts"].dt.tz_convert("UTC").dt.tz_localize(None)  # as Spark hands it
        tuples = list(frame.itertuples(index=False))
        make = Row(*schema.names)

        def row_cells():
            return [make(*(batch.column(i)[j].as_py() for i in range(3))) for j in range(n)]

        rows = row_cells()
        timings = {
            "pandas_spark": lambda: pd.DataFrame(tuples).iloc[:, [0, 1, 2]],
            "pandas_sparkcep": lambda: arrow_from_pandas(frame, schema, "ts", "UTC"),
            "row_spark": row_cells,
            "row_sparkcep": lambda: rows_to_arrow(rows, plan),
        }
        record = {"kind": "conversions", "rows_per_call": n}
        for name, action in timings.items():
            number = max(1, 2000 // n)
            best = min(timeit.repeat(action, number=number, repeat=repeat)) / number
            record[f"{name}_us"] = round(best * 1e6, 1)
        out.append(record)
    return out


# -- the command line -----------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", default="100000,1000000", help="stream sizes, comma-separated")
    parser.add_argument("--keys", default="16,1024", help="partition keys, comma-separated")
    parser.add_argument("--files", type=int, default=10,
                        help="data files (one micro-batch each; at most one per 10,000 events)")
    parser.add_argument("--rate", type=int, default=10_000, help="events per second of event time")
    parser.add_argument("--delay", type=int, default=2, help="watermark delay (s)")
    parser.add_argument("--within", type=int, default=10)
    parser.add_argument("--apis", default="pandas,row")
    parser.add_argument("--processors", default="consume,match")
    parser.add_argument("--no-warmup", action="store_true",
                        help="skip the untimed small run of every variant first (done only when "
                        "every size is 50,000 events or more)")
    parser.add_argument("--output", default=str(HERE / "results" / "streaming_operator_api.jsonl"))
    parser.add_argument("--conversions", action="store_true",
                        help="only time the per-key conversions of each API, without Spark")
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=HERE).stdout.strip()
    if args.conversions:
        for record in conversion_costs():
            record["commit"] = commit
            record["load1"] = round(os.getloadavg()[0], 2)
            print(json.dumps(record), flush=True)
            with open(args.output, "a") as log:
                log.write(json.dumps(record) + "\n")
        return

    from sparkcep.clients.session import local_session

    apis = args.apis.split(",")
    processors = args.processors.split(",")
    spark = local_session("local[2]", "sparkcep-bench-opapi", spark_driver_memory="4g",
                          spark_executor_pyspark_memory="2g", spark_sql_shuffle_partitions="4",
                          spark_sql_execution_arrow_maxRecordsPerBatch="10000",
                          spark_sql_session_timeZone="UTC")
    spark.sparkContext.setLogLevel("ERROR")
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    plan = []
    for n in map(int, args.events.split(",")):
        for k in map(int, args.keys.split(",")):
            if n >= 50 * k:
                plan.append((n, k, None))
            else:
                print(f"skipped: {n} events over {k} keys (fewer than 50 per key)", file=sys.stderr)
    if plan and not args.no_warmup and min(n for n, _, _ in plan) >= 50_000:
        plan.insert(0, (2000, 4, "warmup"))  # Python workers started, the JVM's code warm
    try:
        for seed, (n, keys, tag) in enumerate(plan):
            data = Path(tempfile.mkdtemp(prefix="sparkcep-opapi-data-"))
            try:
                args.files_used = max(1, min(args.files, n // 10_000))
                want = write_stream(data, n, keys, args.files_used, args.rate, seed, args.within,
                                    args.delay)
                variants = [(a, p) for p in processors for a in apis]
                if seed % 2:  # alternate which API goes first
                    variants = [(a, p) for p in processors for a in reversed(apis)]
                for api, processor in variants:
                    record = run_one(spark, api, processor, n, keys, args, data, want)
                    record["commit"] = commit
                    if tag:
                        record["warmup"] = True
                    print(json.dumps(record), flush=True)
                    if not record["equal"]:
                        print(f"{api}/{processor}: output differs from the expected one", file=sys.stderr)
                    if not tag:
                        with open(args.output, "a") as log:
                            log.write(json.dumps(record) + "\n")
            finally:
                shutil.rmtree(data, ignore_errors=True)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
