"""What an engine is told about a query: the row pattern, the options of the clause (AFTER MATCH
SKIP, rows per match, event selection strategy, WITHIN) and the resource budgets, location-free."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from sparkcep.engines.rowpattern import Pattern, to_text


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
class PatternWindow:
    """Row pattern recognition in a window (SQL:2016 feature R020, ISO/IEC 19075-5, 6): every
    row of the partition that no earlier match skipped gets its own frame, ``ROWS BETWEEN
    CURRENT ROW AND <following> FOLLOWING`` (``following`` None: UNBOUNDED FOLLOWING), and at
    most one match inside it: starting at the row (``seek`` False, INITIAL) or at the first row
    of the frame where one starts (``seek`` True, SEEK). Navigation cannot leave the frame.

    Attributes:
        seek: SEEK instead of INITIAL.
        following: the frame's rows after the current row, or None (to the partition's end).
        edges: the row-local conditions evaluated near the frame's edges, where a PREV (NEXT)
            would read a row before (after) the frame and reads NULL instead: per entry
            ``(variable, before, after, mask)``: at a row ``before`` rows after the frame's first
            row (``before`` < the variable's largest PREV offset) and ``after`` rows before its
            last row (``after`` < its largest NEXT offset, bounded frames only), the variable's
            row-local condition is mask row ``mask`` of the ``RowBlock`` (rows past the
            variables' own). Where ``before``/``after`` reach the largest offset, no NULL is
            needed there and the entry stands for "at least this far".
        shifts: the MEASURES' physical navigations, ``(component, offset)``: the navigation
            component (``MatchPlan.components``) reads a value shifted by ``offset`` rows (PREV k:
            -k, NEXT k: +k), which is NULL when the row it comes from lies outside the frame.
    """

    seek: bool = False
    following: int | None = None
    edges: tuple[tuple[int, int, int, int], ...] = ()
    shifts: tuple[tuple[int, int], ...] = ()


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
        max_live_runs: guard: more partial matches alive at once (NFA^b runs, backtracking choice
            points, open branches of the postponing search) raise MATCH_BUDGET_EXCEEDED.
        max_buffered_rows: guard: more rows held at once (input rows kept for pending matches plus
            rows of matches not yet output) raise MATCH_BUDGET_EXCEEDED. The budgets, their
            settings and defaults: ``sparkcep.engines.budgets``.
        source_pattern: the PATTERN as the user wrote it, for messages, when ``pattern`` was
            rewritten (``sparkcep.compiler.unrolling``); None if it was not.
        timed_out: also report the runs a WITHIN window closed before they completed, as
            ``Match(timed_out=True)`` (``ROWS PER MATCH ... WITH TIMED OUT MATCHES``; SKIP TILL
            NEXT MATCH with WITHIN only).
        window: row pattern recognition in a window (R020), or None (MATCH_RECOGNIZE). The
            engine then reports one event per row, in row order: a ``Match`` whose ``anchor``
            is the row, or an ``UnmatchedRow`` (no match found, or skipped by an earlier match).
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
    max_live_runs: int = 1_000_000
    max_buffered_rows: int = 5_000_000
    source_pattern: str | None = None
    timed_out: bool = False
    window: PatternWindow | None = None

    def pattern_text(self) -> str:
        """The pattern for messages: the user's, not an internal rewrite of it."""
        if self.source_pattern is not None:
            return self.source_pattern
        return to_text(self.pattern, list(self.variable_names))
