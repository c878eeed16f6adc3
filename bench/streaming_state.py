"""The streaming operator's state stays bounded on a long stream (docs/streaming.md, "State is
bounded"), and its matches equal the batch query's.

Spark computes the operator's input once in batch mode (the clause's input query over a
generated table: the same masks and value columns the stream's Catalyst stage computes); the
rows are then cut into micro-batches along event time, slightly out of order within the
watermark delay, and fed to the operator's own algorithm (``runtime.streaming.SegmentMatcher``)
with the watermark Spark would give (newest event time seen before the micro-batch minus the
delay). After each micro-batch the key's state is serialized exactly as the state store receives
it (``SegmentState.dump``), and its size recorded. The matches are compared with the batch
query's over the same rows.

    .venv/bin/python bench/streaming_state.py [--events 1000000] [--per-batch 2000]

Results: bench/results/streaming_state.jsonl and docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

STATEMENT = """
SELECT * FROM events MATCH_RECOGNIZE (
  PARTITION BY k ORDER BY ts
  MEASURES MATCH_NUMBER() AS n, FIRST(A.ts) AS start_ts, LAST(C.ts) AS end_ts, COUNT(B.*) AS bs
  ONE ROW PER MATCH
  {strategy}
  PATTERN (A B+ C) WITHIN INTERVAL '{within}' SECOND
  DEFINE A AS A.v < 0.2, B AS B.v > LAST(A.v), C AS C.v < 0.1
)"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=1)
    parser.add_argument("--per-batch", type=int, default=2_000)
    parser.add_argument("--within", type=int, default=60)
    parser.add_argument("--delay", type=int, default=10)
    parser.add_argument("--strategy", default="SKIP TILL NEXT MATCH")
    parser.add_argument("--output", default=str(Path(__file__).parent / "results" / "streaming_state.jsonl"))
    args = parser.parse_args()

    from common import bench_session  # noqa: E402 - bench/ on the path when run as a script

    from sparkcep.compiler.rewrite import compile_statement
    from sparkcep.runtime.streaming import _EVENT_KEY, SegmentMatcher, SegmentState, operator_input
    import sparkcep

    spark = bench_session("local[2]", "4g")
    text = STATEMENT.format(strategy=args.strategy, within=args.within)
    try:
        with tempfile.TemporaryDirectory() as empty:
            (spark.readStream.schema("k INT, ts TIMESTAMP, v DOUBLE").json(empty)
             .withWatermark("ts", f"{args.delay} seconds").createOrReplaceTempView("events"))
            (match,) = compile_statement(text, streaming=True).matches
            stream_plan, _, _, _ = operator_input(spark, match)
        # one event per second per key; v uniform in [0, 1)
        spark.sql(f"""SELECT CAST(id % {args.keys} AS INT) AS k,
                             timestamp_seconds(1700000000 + id DIV {args.keys}) AS ts,
                             rand(7) AS v FROM range({args.events})""").createOrReplaceTempView("events")
        started = time.monotonic()
        rows = spark.sql(match.table_sql).toArrow()
        rows = rows.append_column(_EVENT_KEY, rows.column(stream_plan.event_time)
                                  .cast(pa.timestamp("us", "UTC")).cast(pa.int64()))
        batch_started = time.monotonic()
        want = sparkcep.sql(spark, text).toArrow()
        batch_seconds = time.monotonic() - batch_started
    finally:
        spark.stop()

    rng = np.random.default_rng(1)
    event = rows.column(_EVENT_KEY).to_numpy()
    # arrival order: event time plus a jitter below the delay, so no row is late
    arrival = np.argsort(event + rng.integers(0, (args.delay - 1) * 1_000_000, len(event)), kind="stable")
    matcher = SegmentMatcher(stream_plan)
    states = {}
    out = []
    sizes = []
    newest = None
    stream_started = time.monotonic()
    for start in range(0, len(arrival), args.per_batch):
        part = rows.take(pa.array(arrival[start:start + args.per_batch]))
        watermark = -(2 ** 63) if newest is None else newest - args.delay * 1_000_000
        batch_bytes = 0
        batch_pending = 0
        runner_bytes = 0
        for key in pc.unique(part.column("k")).to_pylist():
            table = part.filter(pc.equal(part.column("k"), key))
            state = states.get(key) or SegmentState()
            out += matcher.advance(state, [table], watermark)
            dumped = state.dump()
            batch_bytes += sum(len(v[0]) for v in (dumped["pending"], dumped["runner"]) if v)
            runner_bytes += len(dumped["runner"][0]) if dumped["runner"] else 0
            batch_pending += 0 if state.pending is None else state.pending.num_rows
            states[key] = SegmentState.load(dumped)  # what the next micro-batch reads back
        newest = max(newest or 0, pc.max(part.column(_EVENT_KEY)).as_py())
        sizes.append((start + part.num_rows, batch_bytes, batch_pending, runner_bytes))
    final = newest + (args.within + args.delay + 1) * 1_000_000
    for key, state in states.items():  # a watermark past everything closes every segment
        out += matcher.advance(state, [], final)
    stream_seconds = time.monotonic() - stream_started

    columns = want.column_names
    got = pa.Table.from_batches(out).rename_columns(columns) if out else None
    projected = sorted(map(tuple, got.to_pylist())) if got is not None else []
    # the operator's output carries the component columns the statement's projection renames
    expected = sorted(map(tuple, want.to_pylist()))
    equal = [tuple(r.values()) if isinstance(r, dict) else r for r in projected] == \
        [tuple(r.values()) if isinstance(r, dict) else r for r in expected]
    record = {
        "events": args.events, "keys": args.keys, "per_batch": args.per_batch,
        "within_s": args.within, "delay_s": args.delay, "strategy": args.strategy,
        "matches": len(expected), "equal_to_batch": equal,
        "state_bytes_max": max(s[1] for s in sizes), "state_bytes_last": sizes[-1][1],
        "state_bytes_at": [s[:2] for s in sizes[:: max(1, len(sizes) // 20)]],
        "pending_rows_max": max(s[2] for s in sizes),
        "runner_bytes_max": max(s[3] for s in sizes), "runner_bytes_last": sizes[-1][3],
        "operator_seconds": round(stream_seconds, 1), "batch_query_seconds": round(batch_seconds, 1),
        "input_seconds": round(batch_started - started, 1),
    }
    print(json.dumps(record))
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    with open(args.output, "a") as log:
        log.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
