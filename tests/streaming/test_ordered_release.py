"""The ordering operator's algorithm (``runtime.streaming.OrderedRelease``) against an oracle
written from the definition of ``lag``/``lead`` over the sorted partition: rows arrive out of
order within the watermark delay in random micro-batches; every row leaves once its last NEXT
successor is released, with PREV(v, 2) and NEXT(v, 3) of the whole partition, in ORDER BY order,
marked with its successor's time, in the micro-batch whose watermark reaches that time (so the
matching operator after it never finds it late). Pure PyArrow, no Spark."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest

from sparkcep.compiler.lowering import RELEASE_COLUMN
from sparkcep.runtime.streaming import _EVENT_KEY, OrderedRelease, SegmentState
from tests.streaming.state_store import KeyStore

TS = pa.timestamp("us", "UTC")
SHIFTS = (("__sparkcep_a0", 2, "__sparkcep_p0"), ("__sparkcep_a1", -3, "__sparkcep_p1"))
INPUT = pa.schema([("ts", TS), ("v", pa.int64()), ("__sparkcep_a0", pa.int64()),
                   ("__sparkcep_a1", pa.int64())])
OUTPUT = pa.schema([("ts", TS), ("v", pa.int64()), ("__sparkcep_p0", pa.int64()),
                    ("__sparkcep_p1", pa.int64()), (RELEASE_COLUMN, TS)])
SECOND = 1_000_000


def _table(rows):
    micros = [t * SECOND for t, _ in rows]
    return pa.table({"ts": pa.array(micros, TS), "v": [v for _, v in rows],
                     "__sparkcep_a0": [v for _, v in rows], "__sparkcep_a1": [v for _, v in rows],
                     _EVENT_KEY: pa.array(micros, pa.int64())})


def _arrivals(rng, n, delay):
    """Distinct times; each batch holds rows after the previous batch's watermark."""
    times = sorted(rng.sample(range(1, 40 * n), n))
    rows = [(t, rng.randint(0, 9)) for t in times]
    batches, i = [], 0
    while i < n:
        size = rng.randint(1, 5)
        chunk = rows[i:i + size]
        i += size
        batches.append(chunk)
    for j in range(len(batches) - 1):  # a row may come one batch later if not late then
        newest = max(t for b in batches[: j + 1] for t, _ in b)
        moving = [r for r in batches[j] if r[0] > newest - delay and rng.random() < 0.4]
        batches[j] = [r for r in batches[j] if r not in moving]
        batches[j + 1] = moving + batches[j + 1]
    return rows, batches


@pytest.mark.parametrize("seed", range(60))
def test_prev_and_next_as_lag_and_lead(seed):
    rng = random.Random(seed)
    delay = rng.choice([0, 3, 20])
    rows, batches = _arrivals(rng, rng.randint(1, 30), delay)
    release = OrderedRelease(INPUT, OUTPUT, "ts", (("ts", False, True),), SHIFTS)
    state, got, watermark, newest = SegmentState(), [], -1, None
    store = KeyStore()
    for chunk in [*batches, None]:  # None: the end
        previous = watermark
        if chunk is not None:
            times = [t for t, _ in chunk] + ([newest] if newest is not None else [])
            newest = max(times) if times else None
            watermark = watermark if newest is None else max(watermark, (newest - delay) * SECOND)
        else:
            watermark = 10**9 * SECOND  # the end: the watermark passes everything
        state = store.round_trip(state)  # through the state store's bytes
        out = release.advance(state, [_table(chunk)] if chunk else [], watermark)
        if out is None:
            continue
        assert out.schema == OUTPUT
        released = out.column(RELEASE_COLUMN).cast(pa.int64()).to_pylist()
        assert all(previous < r <= watermark for r in released)  # never late downstream
        got += [tuple(r.values()) for r in out.to_pylist()]
    values = [v for _, v in rows]
    want = [(t, v, values[i - 2] if i >= 2 else None, values[i + 3], rows[i + 3][0])
            for i, (t, v) in enumerate(rows) if i + 3 < len(rows)]
    assert [(int(r[0].timestamp()), r[1], r[2], r[3], int(r[4].timestamp())) for r in got] == want


PREV_ONLY = (("__sparkcep_a0", 2, "__sparkcep_p0"),)
PREV_OUTPUT = pa.schema([("ts", TS), ("v", pa.int64()), ("__sparkcep_a1", pa.int64()),
                         ("__sparkcep_p0", pa.int64())])


@pytest.mark.parametrize("seed", range(40))
def test_rows_leave_in_the_micro_batch_that_reads_their_keys_newest_row(seed):
    """Spark's watermark lags one micro-batch: that of micro-batch j is the newest row of the
    micro-batches before it minus the delay. With the delay known, a key releases every row at or
    before its newest row minus the delay in the micro-batch that reads that newest row (no
    row still to come precedes them: it would be late), without it only what the watermark
    passed; either way the rows leave once each, in order, with PREV as ``lag``."""
    rng = random.Random(seed)
    delay = rng.choice([0, 3, 20])
    rows, batches = _arrivals(rng, rng.randint(1, 30), delay)
    values = [v for _, v in rows]
    want = [(t, v, values[i - 2] if i >= 2 else None) for i, (t, v) in enumerate(rows)]
    for early in (True, False):
        release = OrderedRelease(INPUT, PREV_OUTPUT, "ts", (("ts", False, True),), PREV_ONLY,
                                 delay=delay * SECOND if early else None)
        state, store, got, newest, watermark = SegmentState(), KeyStore(), [], None, -1
        for chunk in [*batches, None]:  # None: the end
            if chunk is None:
                watermark = 10**9 * SECOND
            state = store.round_trip(state)
            out = release.advance(state, [_table(chunk)] if chunk else [], watermark)
            if out is not None:
                got += [(int(r["ts"].timestamp()), r["v"], r["__sparkcep_p0"])
                        for r in out.to_pylist()]
            if chunk:
                newest = max([t for t, _ in chunk] + ([newest] if newest is not None else []))
                final = (newest - delay) * SECOND if early else watermark
                assert [r[0] for r in got] == [t for t, _ in rows if t * SECOND <= final]
                watermark = max(watermark, (newest - delay) * SECOND)  # the next micro-batch's
        assert got == want and state.late == 0
