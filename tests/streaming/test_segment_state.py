"""The per-key state of the streaming operator survives the state store unchanged, and its
timers wake the key exactly when the watermark reaches its held rows or closes its segment
(pure: no Spark)."""

from __future__ import annotations

import pyarrow as pa

from sparkcep.runtime.streaming import _EVENT_KEY, NO_TIME, SegmentState


def _pending(events):
    return pa.table({"k": ["a"] * len(events), _EVENT_KEY: pa.array(events, pa.int64())})


def test_state_round_trip():
    state = SegmentState(pending=_pending([5_000_500, 7_000_000]), runner={"engine": [1, 2]},
                         released=4_000_000, last_key=3_999_000, matches=7, segment_base=5, late=2)
    dumped = state.dump()
    assert set(dumped) == {"pending", "runner", "progress"}
    back = SegmentState.load(dumped)
    assert back.pending.equals(state.pending)
    assert back.runner == {"engine": [1, 2]}
    assert (back.released, back.last_key, back.matches, back.segment_base, back.late) == \
        (4_000_000, 3_999_000, 7, 5, 2)


def test_empty_state_clears_its_values():
    dumped = SegmentState().dump()
    assert dumped["pending"] is None and dumped["runner"] is None
    assert SegmentState.load({"pending": None, "runner": None, "progress": None}).released == NO_TIME


def test_timers_round_up_to_the_millisecond_the_watermark_must_reach():
    state = SegmentState(pending=_pending([5_000_500, 7_000_000]))
    assert state.timers(closes_at=NO_TIME + 60_000_000) == [5_001]  # the earliest held row, 5,000.5 ms
    state.runner = object()
    state.last_key = 3_999_000
    # the segment closes once the watermark is WITHIN past its last row: 3,999 + 60,000 ms
    assert state.timers(closes_at=state.last_key + 60_000_000) == [5_001, 63_999]
    state.pending = None
    assert state.timers(closes_at=state.last_key + 60_000_001) == [64_000]
