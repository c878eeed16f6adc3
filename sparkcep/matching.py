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
from enum import Enum
from typing import Callable, Protocol, Sequence, Union

import numpy as np

from sparkcep.rowpattern import Pattern


class SkipMode(Enum):
    PAST_LAST_ROW = "PAST LAST ROW"
    TO_NEXT_ROW = "TO NEXT ROW"
    TO_FIRST = "TO FIRST"
    TO_LAST = "TO LAST"


class RowsPerMatch(Enum):
    ONE = "ONE ROW PER MATCH"
    ALL_SHOW_EMPTY = "ALL ROWS PER MATCH SHOW EMPTY MATCHES"
    ALL_OMIT_EMPTY = "ALL ROWS PER MATCH OMIT EMPTY MATCHES"
    ALL_WITH_UNMATCHED = "ALL ROWS PER MATCH WITH UNMATCHED ROWS"


class Strategy(Enum):
    STRICT_CONTIGUITY = "STRICT CONTIGUITY"
    SKIP_TILL_NEXT_MATCH = "SKIP TILL NEXT MATCH"
    SKIP_TILL_ANY_MATCH = "SKIP TILL ANY MATCH"


@dataclass(frozen=True)
class MatchSpec:
    """Everything an engine needs to know about a query, location-free.

    Attributes:
        pattern: the row pattern IR.
        variable_names: name of each variable id (for messages only).
        skip: the AFTER MATCH SKIP mode.
        skip_to: the variable ids of the TO FIRST/TO LAST target (a primary variable or a SUBSET's
            members); None for the other modes.
        rows_per_match: the output mode (engines report unmatched rows only for
            ALL_WITH_UNMATCHED; they report empty matches in every mode, the output layer drops
            them under OMIT EMPTY MATCHES).
        strategy: the event selection strategy.
        within: the window in ORDER BY key units (``last - first < within``), or None.
        max_matches: guard: more matches than this in one partition raise MATCH_BUDGET_EXCEEDED.
        max_steps: guard: more engine steps (backtracking steps, active runs x rows, ...) than this
            in one partition raise MATCH_BUDGET_EXCEEDED instead of exhausting time or memory.
        source_pattern: the PATTERN as the user wrote it, for messages, when ``pattern`` was
            rewritten (``sparkcep.unrolling``); None if it was not.
    """

    pattern: Pattern
    variable_names: tuple[str, ...]
    skip: SkipMode = SkipMode.PAST_LAST_ROW
    skip_to: frozenset[int] | None = None
    rows_per_match: RowsPerMatch = RowsPerMatch.ONE
    strategy: Strategy = Strategy.STRICT_CONTIGUITY
    within: float | int | None = None
    max_matches: int = 10_000_000
    max_steps: int = 200_000_000
    source_pattern: str | None = None

    def pattern_text(self) -> str:
        """The pattern for messages: the user's, not an internal rewrite of it."""
        if self.source_pattern is not None:
            return self.source_pattern
        from sparkcep.rowpattern import to_text

        return to_text(self.pattern, list(self.variable_names))


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
    """

    masks: np.ndarray
    columns: tuple = ()
    order_key: np.ndarray | None = None
    codes: np.ndarray | None = None

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
    matched inside ``{- -}``. An empty match has no rows and starts at ``start``."""

    number: int
    start: int
    rows: tuple[int, ...]
    labels: tuple[int, ...]
    excluded: tuple[bool, ...] = field(default=())

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
    An engine that can answer column-wise (``sparkcep.regex_engine``) then returns one
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
    the matches' rows one after the other (``end - start`` entries per match)."""

    number: np.ndarray
    start: np.ndarray
    end: np.ndarray
    first: dict[int, np.ndarray]
    last: dict[int, np.ndarray]
    count: dict[int, np.ndarray]
    labels: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.number)


MatchEvent = Union[Match, UnmatchedRow, MatchSummaries]


class Engine(Protocol):
    """A matching engine for one partition."""

    def feed(self, block: RowBlock) -> list[MatchEvent]:
        """Consume the next rows; return the events that are final given these rows."""

    def finish(self) -> list[MatchEvent]:
        """The partition has ended; return the remaining events."""
