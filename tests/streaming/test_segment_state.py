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
from sparkcep.runtime.streaming import _EVENT_KEY, NO_TIME, SegmentState, _set_timer
from tests.streaming.state_store import KeyStore


def _pending(events):
    return pa.table({"k": ["a"] * len(events), _EVENT_KEY: pa.array(events, pa.int64())})


def test_state_round_trip():
    state = SegmentState(pending=_pending([5_000_500, 7_000_000]), runner={"engine": [1, 2]},
                         released=4_000_000, last_key=3_999_000, matches=7, segment_base=5, late=2,
                         timer=5_001)
    store = KeyStore()
    back = store.round_trip(state)
    assert store.value.startswith(b"SCEP\x03") and store.writes == 1
    assert back.pending.equals(state.pending)
    assert back.runner == {"engine": [1, 2]}
    assert (back.released, back.last_key, back.matches, back.segment_base, back.late, back.timer) == \
        (4_000_000, 3_999_000, 7, 5, 2, 5_001)


def test_only_a_change_is_written_and_only_what_changed_is_encoded_again(monkeypatch):
    store = KeyStore()
    state = store.round_trip(SegmentState(pending=_pending([5_000_500]), runner={"runs": [1]},
                                          released=1))
    encoded = []
    monkeypatch.setattr(store.codec, "encode", lambda value: encoded.append(value) or b"?")
    monkeypatch.setattr(store.codec, "encode_table", lambda table: encoded.append(table) or b"?")
    assert store.round_trip(state) is not None and store.writes == 1  # nothing changed
    state.released = 2  # a counter only: the rows and the runner are written back as read
    before = store.value
    state = store.round_trip(state)
    assert store.writes == 2 and encoded == [] and len(store.value) == len(before)
    assert state.released == 2 and state.runner == {"runs": [1]} and state.pending.num_rows == 1
    state.timer = 7  # the timer moved
    state = store.round_trip(state)
    assert store.writes == 3 and encoded == [] and state.timer == 7
    monkeypatch.undo()
    state.runner["runs"].append(2)  # changed in place, flagged by the operator that fed it
    state.runner_changed = True
    state = store.round_trip(state)
    assert store.writes == 4 and state.runner == {"runs": [1, 2]} and state.pending.num_rows == 1
    state.pending, state.runner = None, None  # both emptied
    state = store.round_trip(state)
    assert store.writes == 5 and state.pending is None and state.runner is None
    assert state.released == 2 and state.timer == 7


def test_a_new_key_starts_empty_and_is_written_once_it_has_counters():
    codec = StateCodec(program_digest("tests"))
    fresh = SegmentState.load(None, codec)
    assert fresh.released == NO_TIME and fresh.pending is None and fresh.runner is None
    assert fresh.timer is None
    assert SegmentState.load(fresh.dump(codec), codec) == fresh


def test_a_value_of_another_program_or_format_is_refused():
    ours, theirs = StateCodec(program_digest("clause 1")), StateCodec(program_digest("clause 2"))
    with pytest.raises(SparkCepError) as raised:
        SegmentState.load(SegmentState(runner={"runs": []}).dump(theirs), ours)
    assert raised.value.code == "STREAM_STATE_INCOMPATIBLE"
    assert "another statement" in raised.value.message
    assert "new checkpoint location" in raised.value.message
    # state format 2 (three state variables, each value with its own header)
    with pytest.raises(SparkCepError) as raised:
        SegmentState.load(b"SCEP\x02" + ours.digest + pickle.dumps({"runs": []}), ours)
    assert raised.value.code == "STREAM_STATE_INCOMPATIBLE"
    assert "state format 2" in raised.value.message
    # a checkpoint of sparkcep before state format 2: a pickled runner
    with pytest.raises(SparkCepError) as raised:
        SegmentState.load(pickle.dumps({"runs": []}), ours)
    assert raised.value.code == "STREAM_STATE_INCOMPATIBLE"
    assert "earlier sparkcep" in raised.value.message


def test_the_timer_is_the_earliest_wake_up_rounded_up_to_the_millisecond():
    state = SegmentState(pending=_pending([5_000_500, 7_000_000]))
    assert state.wake_at(closes_at=NO_TIME + 60_000_000) == 5_001  # the earliest held row, 5,000.5 ms
    state.runner = object()
    state.last_key = 3_999_000
    # the segment closes once the watermark is WITHIN past its last row: 3,999 + 60,000 ms
    assert state.wake_at(closes_at=state.last_key + 60_000_000) == 5_001
    assert state.wake_at(closes_at=state.last_key + 1_000_001) == 5_000  # 4,999.001 ms
    state.pending = None
    assert state.wake_at(closes_at=state.last_key + 60_000_001) == 64_000
    state.runner = None
    assert state.wake_at(closes_at=state.last_key + 60_000_001) is None


class _Handle:
    """Spark's timer calls, recorded."""

    def __init__(self) -> None:
        self.calls: list = []

    def registerTimer(self, ms):
        self.calls.append(("register", ms))

    def deleteTimer(self, ms):
        self.calls.append(("delete", ms))


def test_the_key_keeps_one_timer_and_calls_spark_only_when_it_moves():
    handle, state = _Handle(), SegmentState()
    _set_timer(handle, state, 5_001, None, watermark_ms=4_000)
    _set_timer(handle, state, 5_001, None, watermark_ms=4_500)  # unchanged: no call
    assert handle.calls == [("register", 5_001)] and state.timer == 5_001
    _set_timer(handle, state, 6_000, None, watermark_ms=4_800)  # moved
    assert handle.calls[1:] == [("delete", 5_001), ("register", 6_000)]
    # fired: Spark deletes the expired timer itself, even when it is registered again, so the
    # next one is after the watermark and the expired one is not deleted twice
    _set_timer(handle, state, 6_000, 6_000, watermark_ms=6_000)
    assert handle.calls[3:] == [("register", 6_001)] and state.timer == 6_001
    _set_timer(handle, state, None, None, watermark_ms=6_000)  # nothing held: no timer
    assert handle.calls[4:] == [("delete", 6_001)] and state.timer is None
