"""The state store as the operators meet it, for tests without Spark: a key's state variables,
written by ``SegmentState.dump`` (only what changed; None clears a variable) and read back by
``SegmentState.load``, as bytes."""

from __future__ import annotations

from sparkcep.runtime.state_codec import StateCodec, program_digest
from sparkcep.runtime.streaming import SegmentState


class KeyStore:
    """One partition key's state variables."""

    def __init__(self, codec: StateCodec | None = None) -> None:
        self.codec = codec or StateCodec(program_digest("tests"))
        self.values: dict = {}
        self.writes = 0  # variables written or cleared so far

    def round_trip(self, state: SegmentState) -> SegmentState:
        for name, value in state.dump(self.codec).items():
            self.writes += 1
            if value is None:
                self.values.pop(name, None)
            else:
                self.values[name] = value
        return SegmentState.load(dict(self.values), self.codec)
