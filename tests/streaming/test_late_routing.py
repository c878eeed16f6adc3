"""Late rows routed (docs/streaming.md, "Routing late rows"), the ordering operator's part, pure
PyArrow: rows arrive in random micro-batches, some behind the watermark, some without an event
time. The oracle is the rule as documented: a row is late when its time is NULL or at or before
the watermark of the micro-batch that brings it. Every row must leave exactly once, either as a
late row (whole, with no event time) or in ORDER BY order with PREV and NEXT computed, as ``lag``
and ``lead`` compute them, over the rows that were not late; and every row that is not late must
leave after the previous micro-batch's watermark (Spark refuses older output rows)."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest

from sparkcep.compiler.lowering import LATE_ROW_COLUMN, RELEASE_COLUMN
from sparkcep.runtime.streaming import _EVENT_KEY, OrderedRelease, SegmentState
from tests.streaming.state_store import KeyStore

TS = pa.timestamp("us", "UTC")
SECOND = 1_000_000
SHIFTS = (("__sparkcep_a0", 1, "__sparkcep_p0"), ("__sparkcep_a1", -2, "__sparkcep_p1"))
INPUT = pa.schema([("ts", TS), ("v", pa.int64()), ("__sparkcep_a0", pa.int64()),
                   ("__sparkcep_a1", pa.int64())])
WHOLE = pa.struct([("ts", TS), ("v", pa.int64())])
OUTPUT = pa.schema([("ts", TS), ("v", pa.int64()), ("__sparkcep_p0", pa.int64()),
                    ("__sparkcep_p1", pa.int64()), (RELEASE_COLUMN, TS), (LATE_ROW_COLUMN, WHOLE)])


def _table(rows):
    micros = [None if t is None else t * SECOND for t, _ in rows]
    return pa.table({"ts": pa.array(micros, TS), "v": [v for _, v in rows],
                     "__sparkcep_a0": [v for _, v in rows], "__sparkcep_a1": [v for _, v in rows],
                     _EVENT_KEY: pa.array(micros, pa.int64())})


@pytest.mark.parametrize("seed", range(80))
def test_every_row_leaves_once_late_or_in_order(seed):
    rng = random.Random(seed)
    delay = rng.choice([0, 2, 10])
    release = OrderedRelease(INPUT, OUTPUT, "ts", (("ts", False, True),), SHIFTS, late_rows=True)
    state, watermark, newest, value = SegmentState(), -1, None, iter(range(10**6))
    store = KeyStore()
    on_time, late_rows, got_rows, got_late = [], [], [], []
    times = iter(rng.sample(range(1, 2_000), 600))  # distinct: ORDER BY has no ties
    batches = rng.randint(1, 12)
    for batch in range(batches + 1):
        chunk = []
        for _ in range(rng.randint(0, 6) if batch < batches else 0):  # then the end
            t = next(times) if rng.random() > 0.08 else None
            chunk.append((t, next(value)))
        previous = watermark
        if batch == batches:
            watermark = 10**9 * SECOND  # the end: the watermark passes everything
        elif newest is not None:
            watermark = max(watermark, (newest - delay) * SECOND)
        for t, v in chunk:  # the oracle's rule
            (late_rows if t is None or t * SECOND <= watermark else on_time).append((t, v))
        newest = max([newest or 0, *(t for t, _ in chunk if t is not None)])
        state = store.round_trip(state)
        out = release.advance(state, [_table(chunk)] if chunk else [], watermark)
        if out is None:
            continue
        for row in out.to_pylist():
            if row[LATE_ROW_COLUMN] is not None:
                assert row["ts"] is None and row[RELEASE_COLUMN] is None
                whole = row[LATE_ROW_COLUMN]
                got_late.append((None if whole["ts"] is None else int(whole["ts"].timestamp()),
                                 whole["v"]))
            else:
                released = int(row[RELEASE_COLUMN].timestamp() * SECOND)
                assert previous < released <= watermark  # never older than Spark allows
                got_rows.append((int(row["ts"].timestamp()), row["v"], row["__sparkcep_p0"],
                                 row["__sparkcep_p1"]))
    assert sorted(got_late, key=repr) == sorted(late_rows, key=repr)
    ordered = sorted(on_time)
    values = [v for _, v in ordered]
    want = [(t, v, values[i - 1] if i >= 1 else None, values[i + 2])
            for i, (t, v) in enumerate(ordered) if i + 2 < len(ordered)]
    assert got_rows == want  # the last two wait for their NEXT successors
