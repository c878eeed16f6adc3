"""The state store as the operators meet it, for tests without Spark: a key's one state value,
written by ``SegmentState.dump`` (only when something changed) and read back by
``SegmentState.load``, as bytes."""

from __future__ import annotations

from sparkcep.runtime.state_codec import StateCodec, program_digest
from sparkcep.runtime.streaming import SegmentState


class KeyStore:
    """One partition key's state value."""

    def __init__(self, codec: StateCodec | None = None) -> None:
        self.codec = codec or StateCodec(program_digest("tests"))
        self.value: bytes | None = None
        self.writes = 0  # values written so far

    def round_trip(self, state: SegmentState) -> SegmentState:
        blob = state.dump(self.codec)
        if blob is not None:
            self.writes += 1
            self.value = bytes(blob)
        return SegmentState.load(self.value, self.codec)
