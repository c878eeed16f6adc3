"""A fast path for the SQL standard's matcher: row-local patterns as a compiled regular expression.

When every DEFINE condition is row-local (Catalyst computed it into a boolean column) and the
query uses no WITHIN, matching only depends on which variables each row satisfies. Each row then
becomes one character, the bit set of its variables, and the pattern becomes a regular
expression over those characters. A backtracking regex engine tries alternatives left first and
greedy/reluctant quantifiers in the same order as SQL:2016's preferment rules, and ``search``
from a position finds the first row at or after it where a match starts, which is the standard's
"try each row in turn". Per-repetition captures of the ``regex`` module give each row's
classification. The search runs in C.

The fast path is used only where it provably agrees with ``sparkcep.matcher``: no quantified
sub-pattern that can match zero rows (regex engines and the standard differ on empty loop
iterations), no exclusion, at most 8 variables. Everything else goes to the general matcher.
The regex needs the whole partition, so the rows stay buffered until ``finish``; a partition
longer than ``max_buffered_rows`` is handed over to the general matcher, which streams it with
state bounded by the longest match attempt.
"""

from __future__ import annotations

import itertools

import numpy as np
import regex

from sparkcep import rowpattern as rp
from sparkcep.errors import MatchRuntimeError
from sparkcep.matching import (
    Match,
    MatchEvent,
    MatchSpec,
    RowBlock,
    RowsPerMatch,
    SkipMode,
    Strategy,
    UnmatchedRow,
)

MAX_VARIABLES = 8


def _eligible(pattern: rp.Pattern) -> bool:
    if isinstance(pattern, (rp.Label, rp.Empty, rp.Anchor)):
        return True
    if isinstance(pattern, (rp.Exclusion, rp.Negation)):
        return False
    if isinstance(pattern, (rp.Concat, rp.Alternation, rp.Permute)):
        return all(_eligible(item) for item in pattern.items)
    if isinstance(pattern, rp.Quantified):
        return not rp.can_match_empty(pattern.pattern) and _eligible(pattern.pattern)
    return False


def regex_eligible(spec: MatchSpec, has_conditions: bool) -> bool:
    return (
        spec.strategy is Strategy.STRICT_CONTIGUITY
        and not has_conditions
        and spec.within is None
        and len(spec.variable_names) <= MAX_VARIABLES
        and _eligible(spec.pattern)
    )


class _Translation:
    """The regular expression for a pattern; group ``i`` is one occurrence of a variable."""

    def __init__(self, n_vars: int) -> None:
        self.n_vars = n_vars
        self.group_vars: list[int] = []
        self.classes = [self._class(v) for v in range(n_vars)]

    def _class(self, var: int) -> str:
        codes = [c for c in range(1 << self.n_vars) if c >> var & 1]
        return "[" + "".join(regex.escape(chr(c)) for c in codes) + "]"

    def __call__(self, p: rp.Pattern) -> str:
        if isinstance(p, rp.Label):
            self.group_vars.append(p.var)
            return f"({self.classes[p.var]})"
        if isinstance(p, rp.Empty):
            return "(?:)"
        if isinstance(p, rp.Anchor):
            return r"\A" if p.start else r"\Z"
        if isinstance(p, rp.Concat):
            return "".join(self(item) for item in p.items)
        if isinstance(p, rp.Alternation):
            return "(?:" + "|".join(self(item) for item in p.items) + ")"
        if isinstance(p, rp.Permute):
            orders = itertools.permutations(p.items)
            return "(?:" + "|".join("".join(self(item) for item in order) for order in orders) + ")"
        if isinstance(p, rp.Quantified):
            high = "" if p.max is None else str(p.max)
            return f"(?:{self(p.pattern)}){{{p.min},{high}}}" + ("" if p.greedy else "?")
        raise TypeError(f"not supported by the regex fast path: {p!r}")


class RegexMatcher:
    """``Engine`` for row-local patterns under strict contiguity (see the module docstring).

    It buffers the classification of the whole partition (one byte per row) and matches at
    ``finish``; ``feed`` returns nothing."""

    def __init__(
        self, spec: MatchSpec, timeout_seconds: float = 600.0, max_buffered_rows: int = 2_000_000
    ) -> None:
        self.spec = spec
        self._max_buffered = max_buffered_rows
        self._masks: list[np.ndarray] = []
        self._rows = 0
        self._delegate = None  # the general matcher, once the partition outgrew the buffer
        translate = _Translation(len(spec.variable_names))
        self._regex = regex.compile(translate(spec.pattern), flags=regex.DOTALL)
        self._group_vars = translate.group_vars
        self._weights = (1 << np.arange(len(spec.variable_names), dtype=np.uint16))[:, None]
        self._chunks: list[str] = []
        self._timeout = timeout_seconds

    @property
    def buffered_rows(self) -> int:
        """Rows held: the whole partition so far, until handed over to the general matcher."""
        return self._delegate.buffered_rows if self._delegate is not None else self._rows

    def feed(self, block: RowBlock) -> list[MatchEvent]:
        if self._delegate is not None:
            return self._delegate.feed(block)
        masks = np.asarray(block.masks, dtype=bool)
        codes = (masks.astype(np.uint16) * self._weights).sum(axis=0)
        self._chunks.append(codes.astype(np.uint8).tobytes().decode("latin-1"))
        self._masks.append(masks)
        self._rows += masks.shape[1]
        if self._rows <= self._max_buffered:
            return []
        from sparkcep.matcher import RowPatternMatcher

        self._delegate = RowPatternMatcher(self.spec, {})
        everything = RowBlock(masks=np.concatenate(self._masks, axis=1))
        self._chunks, self._masks = [], []
        return self._delegate.feed(everything)

    def finish(self) -> list[MatchEvent]:
        if self._delegate is not None:
            return self._delegate.finish()
        self._masks = []
        text = "".join(self._chunks)
        self._chunks = []
        events: list[MatchEvent] = []
        try:
            self._match(text, events)
        except MatchRuntimeError as error:
            error.events = events
            raise
        return events

    def _labels(self, match) -> tuple[int, ...]:
        start, end = match.span()
        labels = [0] * (end - start)
        for group, var in enumerate(self._group_vars, start=1):
            for position in match.starts(group):
                labels[position - start] = var
        return tuple(labels)

    def _match(self, text: str, events: list[MatchEvent]) -> None:
        spec = self.spec
        n = len(text)
        unmatched = spec.rows_per_match is RowsPerMatch.ALL_WITH_UNMATCHED
        number = 0
        covered = 0  # rows before this belong to some match
        position = 0
        search = self._regex.search
        while position < n:
            try:
                found = search(text, position, timeout=self._timeout)
            except TimeoutError:
                raise MatchRuntimeError(
                    "MATCH_BUDGET_EXCEEDED",
                    f"PATTERN ({rp.to_text(spec.pattern, list(spec.variable_names))}) took longer "
                    f"than {self._timeout:.0f} s to match one partition; use a more selective "
                    "DEFINE or a pattern with less backtracking",
                ) from None
            if found is not None and found.start() >= n:
                found = None  # a match starts at a row: none starts after the last one
            start = n if found is None else found.start()
            if unmatched:
                events.extend(UnmatchedRow(r) for r in range(max(position, covered), start))
            if found is None:
                return
            number += 1
            if number > spec.max_matches:
                raise MatchRuntimeError(
                    "MATCH_BUDGET_EXCEEDED",
                    f"PATTERN ({rp.to_text(spec.pattern, list(spec.variable_names))}) produced "
                    f"more than {spec.max_matches} matches in one partition",
                )
            end = found.end()
            if end == start:
                events.append(Match(number, start, (), (), ()))
                position = start + 1
                covered = max(covered, start)
                continue
            labels = self._labels(found)
            rows = tuple(range(start, end))
            events.append(Match(number, start, rows, labels, (False,) * len(rows)))
            covered = max(covered, end)
            position = self._resume(start, end, labels)

    def _resume(self, start: int, end: int, labels: tuple[int, ...]) -> int:
        spec = self.spec
        if spec.skip is SkipMode.PAST_LAST_ROW:
            return end
        if spec.skip is SkipMode.TO_NEXT_ROW:
            return start + 1
        targets = [start + i for i, label in enumerate(labels) if label in spec.skip_to]
        if not targets:
            raise MatchRuntimeError(
                "SKIP_TO_VARIABLE_WITHOUT_ROWS",
                "AFTER MATCH SKIP TO a pattern variable that matched no row in the match",
            )
        target = targets[0] if spec.skip is SkipMode.TO_FIRST else targets[-1]
        if target == start:
            raise MatchRuntimeError(
                "SKIP_TO_FIRST_ROW_OF_MATCH",
                "AFTER MATCH SKIP would resume at the first row of the match (an endless loop)",
            )
        return target
