"""The per-key state of the streaming operator survives the state store unchanged, only what
changed is written back, a value of another program or state format is refused, and the timers
wake the key exactly when the watermark reaches its held rows or closes its segment (pure: no
Spark)."""

from __future__ import annotations

import pickle

import pyarrow as pa
import pytest

from sparkcep.errors import SparkCepError
from sparkcep.runtime.state_codec import StateCodec, program_digest
from sparkcep.runtime.streaming import _EVENT_KEY, NO_TIME, SegmentState
from tests.streaming.state_store import KeyStore


def _pending(events):
    return pa.table({"k": ["a"] * len(events), _EVENT_KEY: pa.array(events, pa.int64())})


def test_state_round_trip():
    state = SegmentState(pending=_pending([5_000_500, 7_000_000]), runner={"engine": [1, 2]},
                         released=4_000_000, last_key=3_999_000, matches=7, segment_base=5, late=2)
    store = KeyStore()
    back = store.round_trip(state)
    assert set(store.values) == {"pending", "runner", "progress"}
    assert back.pending.equals(state.pending)
    assert back.runner == {"engine": [1, 2]}
    assert (back.released, back.last_key, back.matches, back.segment_base, back.late) == \
        (4_000_000, 3_999_000, 7, 5, 2)


def test_only_what_changed_is_written():
    store = KeyStore()
    state = store.round_trip(SegmentState(pending=_pending([5_000_500]), runner={"runs": [1]},
                                          released=1))
    writes = store.writes
    assert store.round_trip(state) is not None and store.writes == writes  # nothing changed
    state.released = 2  # progress only
    state = store.round_trip(state)
    assert store.writes == writes + 1
    state.runner["runs"].append(2)  # changed in place, flagged by the operator that fed it
    state.runner_changed = True
    state = store.round_trip(state)
    assert store.writes == writes + 2 and state.runner == {"runs": [1, 2]}
    state.pending, state.runner = None, None  # both emptied: both cleared
    state = store.round_trip(state)
    assert store.writes == writes + 4 and set(store.values) == {"progress"}
    assert state.pending is None and state.runner is None


def test_empty_state_clears_its_values():
    assert SegmentState().dump(StateCodec(program_digest("tests"))) == {
        "progress": (NO_TIME, NO_TIME, 0, 0, 0)}
    codec = StateCodec(program_digest("tests"))
    assert SegmentState.load({"pending": None, "runner": None, "progress": None},
                             codec).released == NO_TIME


def test_a_value_of_another_program_or_format_is_refused():
    ours, theirs = StateCodec(program_digest("clause 1")), StateCodec(program_digest("clause 2"))
    for values in ({"runner": (theirs.encode({"runs": []}),)},
                   {"pending": (theirs.encode_table(_pending([1])),)}):
        with pytest.raises(SparkCepError) as raised:
            SegmentState.load(values, ours)
        assert raised.value.code == "STREAM_STATE_INCOMPATIBLE"
        assert "another statement" in raised.value.message
        assert "new checkpoint location" in raised.value.message
    # a checkpoint of sparkcep before state format 2: a pickled runner, Arrow IPC rows
    with pytest.raises(SparkCepError) as raised:
        SegmentState.load({"runner": (pickle.dumps({"runs": []}),)}, ours)
    assert raised.value.code == "STREAM_STATE_INCOMPATIBLE"
    assert "earlier sparkcep" in raised.value.message


def test_timers_round_up_to_the_millisecond_the_watermark_must_reach():
    state = SegmentState(pending=_pending([5_000_500, 7_000_000]))
    assert state.timers(closes_at=NO_TIME + 60_000_000) == [5_001]  # the earliest held row, 5,000.5 ms
    state.runner = object()
    state.last_key = 3_999_000
    # the segment closes once the watermark is WITHIN past its last row: 3,999 + 60,000 ms
    assert state.timers(closes_at=state.last_key + 60_000_000) == [5_001, 63_999]
    state.pending = None
    assert state.timers(closes_at=state.last_key + 60_000_001) == [64_000]
