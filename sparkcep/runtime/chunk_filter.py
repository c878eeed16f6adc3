"""The executor side of parallel chunks (``compiler.chunks``): a chunk reports a match only when
its first row is owned by the chunk, an unmatched row only when the row is owned, so every match
and every unmatched row is reported exactly once."""

from __future__ import annotations

from bisect import bisect_right

import numpy as np

from sparkcep.engines.contract import Match, MatchEvent, UnmatchedRow


class OwnedRows:
    """The owned flags of the rows a ``PartitionRunner`` still holds, and the event filter: a
    match is kept when its first row is owned, an unmatched row when it is owned."""

    def __init__(self, column: str) -> None:
        self.column = column
        self.starts: list[int] = []
        self.flags: list = []  # per batch: NumPy bool array
        self.size = 0

    def append(self, batch) -> None:
        flags = batch.column(self.column).fill_null(False).to_numpy(zero_copy_only=False)
        self.starts.append(self.size)
        self.flags.append(np.asarray(flags, dtype=bool))
        self.size += batch.num_rows

    def owned(self, row: int) -> bool:
        i = bisect_right(self.starts, row) - 1
        return bool(self.flags[i][row - self.starts[i]])

    def keep(self, events: list[MatchEvent]) -> list[MatchEvent]:
        out = []
        for event in events:
            if isinstance(event, UnmatchedRow):
                if self.owned(event.row):
                    out.append(event)
            elif isinstance(event, Match) and self.owned(event.start):
                out.append(event)
        return out

    def drop_before(self, row: int) -> None:
        drop = 0
        while drop + 1 < len(self.starts) and self.starts[drop + 1] <= row:
            drop += 1
        if drop:
            del self.starts[:drop], self.flags[:drop]
