"""What every matching engine consumes and produces.

An engine matches one partition. It sees variable ids and row indices, never SQL: the rows arrive
as ``RowBlock`` batches in ORDER BY order, each with one boolean per (variable, row) computed by
Catalyst for the row-local part of DEFINE, plus the columns that match-dependent conditions read.
Match-dependent conditions (``LAST(B.x, 1)``, running aggregates, ...) are callables over a
``MatchContext``: the engine says which rows are mapped to which variables so far, the condition
reads values. Engines keep their state explicit (a dataclass of plain values and arrays), so a
partition can be consumed batch by batch and, later, checkpointed by Structured Streaming.

Row indices are absolute positions in the partition (0-based, counting every row fed so far).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence, Union

import numpy as np



@dataclass
class RowBlock:
    """Consecutive rows of one partition.

    Attributes:
        masks: bool array of shape (number of variables, rows): the row-local part of each
            variable's DEFINE condition (True for a variable without DEFINE). A variable with a
            match-dependent condition must satisfy both its mask and its condition.
        columns: arrays (NumPy, or Python lists for nested values) read by match-dependent
            conditions, by column id.
        order_key: numeric ORDER BY key per row (int64 or float64) for WITHIN, else None.
        codes: the same masks as one bit set per row (bit v = ``masks[v]``), when the input
            arrived packed that way (the bitmask column); None otherwise.
        time_lo, time_hi: imprecise timestamps (``sparkcep.engines.uncertain``): int64 arrays,
            row i occurred at one of the equally likely integer time points
            ``time_lo[i] <= t <= time_hi[i]`` (inclusive); None for precise input.
    """

    masks: np.ndarray
    columns: tuple = ()
    order_key: np.ndarray | None = None
    codes: np.ndarray | None = None
    time_lo: np.ndarray | None = None
    time_hi: np.ndarray | None = None

    def __len__(self) -> int:
        return int(self.masks.shape[1])


class MatchContext(Protocol):
    """What a match-dependent condition sees while an engine tries to map ``row`` to ``var``.

    RUNNING semantics: only the rows mapped so far in the current (partial) match plus the
    candidate row, tentatively mapped to ``var``, are visible.
    """

    row: int
    var: int
    match_number: int

    def mapped_rows(self, variables: frozenset[int] | None) -> Sequence[int]:
        """Rows mapped so far to any of ``variables`` (None = every row of the match), in row
        order, including the candidate row when ``var`` is among them."""

    def value(self, column: int, row: int):
        """The value of column ``column`` at absolute ``row`` (a row of the current match or of
        the candidate)."""

    def label_of(self, row: int) -> int:
        """The variable a mapped row (or the candidate row) is mapped to."""

    # Optional: ``navigate(variables, from_start, offset) -> row | None``, the row that
    # FIRST/LAST(<variables>, offset) points to; evaluators use it when a context has it, to avoid
    # building ``mapped_rows``.


Condition = Callable[[MatchContext], bool]


@dataclass(frozen=True)
class Match:
    """One match. ``rows`` are increasing absolute row indices (contiguous under strict
    contiguity); ``labels[i]`` is the variable ``rows[i]`` is mapped to; ``excluded[i]`` marks rows
    matched inside ``{- -}``. An empty match has no rows and starts at ``start``. ``timed_out``:
    not a match but a run a WITHIN window closed before it completed, with the rows it had
    selected (``RowsPerMatch ... WITH TIMED OUT MATCHES``, ``MatchSpec.timed_out``)."""

    number: int
    start: int
    rows: tuple[int, ...]
    labels: tuple[int, ...]
    excluded: tuple[bool, ...] = field(default=())
    timed_out: bool = field(default=False, kw_only=True)  # after subclasses' positional fields
    # in a window (``MatchSpec.window``): the row whose frame the match was found in
    anchor: int | None = field(default=None, kw_only=True)

    @property
    def is_empty(self) -> bool:
        return not self.rows


@dataclass(frozen=True)
class UnmatchedRow:
    """A row that belongs to no match (reported only under ALL ROWS PER MATCH WITH UNMATCHED ROWS)."""

    row: int


@dataclass(frozen=True)
class SummaryRequest:
    """What a consumer of the output needs to know of each match, when that is only where the
    match starts and ends and, per variable, its first row, last row and row count (ONE ROW PER
    MATCH), or the variable of each row (``labels``, ALL ROWS PER MATCH without unmatched rows).
    An engine that can answer column-wise (``sparkcep.engines.standard.regex_path``) then returns one
    ``MatchSummaries`` instead of a ``Match`` per match."""

    first: frozenset[int] = frozenset()  # variables whose first mapped row is needed
    last: frozenset[int] = frozenset()  # variables whose last mapped row is needed
    count: frozenset[int] = frozenset()  # variables whose number of mapped rows is needed
    labels: bool = False  # the variable of every row of every match


@dataclass
class MatchSummaries:
    """The matches of one partition, column-wise, in match order (ONE ROW PER MATCH).

    Arrays of equal length: ``number`` (MATCH_NUMBER), ``start`` and ``end`` (the match covers
    absolute rows ``start <= row < end``; ``start == end`` for an empty match). Per requested
    variable: ``first``/``last`` hold its first/last mapped row or -1 if it mapped none, ``count``
    its number of mapped rows. ``labels``, if requested: the variable of each row of each match,
    the matches' rows one after the other (``end - start`` entries per match).

    In a window (R020, ``MatchSpec.window``): ``anchor``, the row whose frame each match was
    found in (its output row), and ``rows``, the partition's row count: every row without an
    anchor is output with no match (not found, or skipped by an earlier match)."""

    number: np.ndarray
    start: np.ndarray
    end: np.ndarray
    first: dict[int, np.ndarray]
    last: dict[int, np.ndarray]
    count: dict[int, np.ndarray]
    labels: np.ndarray | None = None
    anchor: np.ndarray | None = None
    rows: int = 0

    def __len__(self) -> int:
        return len(self.number)


MatchEvent = Union[Match, UnmatchedRow, MatchSummaries]


class Engine(Protocol):
    """A matching engine for one partition."""

    def feed(self, block: RowBlock) -> list[MatchEvent]:
        """Consume the next rows; return the events that are final given these rows."""

    def finish(self) -> list[MatchEvent]:
        """The partition has ended; return the remaining events."""
