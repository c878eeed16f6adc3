"""A fast path for the SQL standard's matcher: row-local patterns as a compiled regular expression.

When every DEFINE condition is row-local (Catalyst computed it into a boolean column) and the
query uses no WITHIN, matching only depends on which variables each row satisfies. Each row then
becomes one character, the bit set of its variables, and the pattern becomes a regular
expression over those characters. A backtracking regex engine tries alternatives left first and
greedy/reluctant quantifiers in the same order as SQL:2016's preferment rules, and ``search``
from a position finds the first row at or after it where a match starts, which is the standard's
"try each row in turn". Per-repetition captures of the ``regex`` module give each row's
classification; where every variable occurrence is outside any repetition or a quantified
variable as a whole (``regex_translation.groups_readable``), one group per occurrence holds all
of its rows instead, and its span is read once per match. The search runs in C. Where the pattern
also allows it (PAST LAST ROW, at most 9 occurrences: ``marked_regex``), RE2 finds every match of
the partition in one call, in linear time.

The fast path is used only where it provably agrees with ``sparkcep.engines.standard.matcher``: no quantified
sub-pattern that can match zero rows (regex engines and the standard differ on empty loop
iterations), no exclusion, at most 8 variables; and only where its backtracking stays polynomial:
no repeating quantifier or choice inside a repeating quantifier (``_eligible``). Everything else goes to the general matcher.
The regex needs the whole partition, so the rows stay buffered until ``finish``; a partition
longer than ``max_buffered_rows`` is handed over to the general matcher, which streams it with
state bounded by the longest match attempt.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
import regex

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.budgets import budget_exceeded
from sparkcep.errors import MatchRuntimeError
from sparkcep.engines.contract import Match, MatchEvent, MatchSummaries, RowBlock, SummaryRequest, UnmatchedRow
from sparkcep.engines.spec import MatchSpec, RowsPerMatch, SkipMode
from sparkcep.engines.standard.marked_regex import marked_form, summaries_from_groups
from sparkcep.engines.standard.regex_translation import GroupedTranslation, Translation, groups_readable
from sparkcep.engines.standard.run_chain import run_chain_form


@functools.lru_cache(maxsize=256)
def _compiled(pattern: rp.Pattern, n_vars: int):
    """The compiled regex of a pattern, each group's variable, whether it repeats, and whether
    the groups are ``GroupedTranslation``'s (one group holds all rows of a variable occurrence)
    (cached: an engine is built per partition)."""
    grouped = groups_readable(pattern)
    translate = GroupedTranslation(n_vars) if grouped else Translation(n_vars)
    compiled = regex.compile(translate(pattern), flags=regex.DOTALL)
    return compiled, translate.group_vars, translate.group_repeated, grouped


def _rows_of(match, group: int, grouped: bool):
    """The rows group ``group`` of a match holds: its span's (grouped) or one per capture."""
    return range(*match.span(group)) if grouped else match.starts(group)


@functools.lru_cache(maxsize=256)
def _extractor(group_vars: tuple[int, ...], repeated: tuple[bool, ...], request: SummaryRequest):
    """A function of a regex match returning ``(start, end, *values)``, and the ``(kind, var)``
    of each value. ``m.start(g)`` is the start of group g's last capture (-1 if none) and, for a
    group outside any repetition, of its only one; ``m.starts(g)`` lists every capture.
    The source is built from group numbers only."""
    order = [("first", v) for v in sorted(request.first)] + [("last", v) for v in sorted(request.last)]
    order += [("count", v) for v in sorted(request.count)]
    fields = ["m.start()", "m.end()"]
    for kind, var in order:
        groups = [g for g, v in enumerate(group_vars, 1) if v == var]
        if not groups:
            fields.append("0" if kind == "count" else "-1")
        elif kind == "last" and len(groups) == 1:
            fields.append(f"m.start({groups[0]})")
        elif kind == "last":
            fields.append(f"max({', '.join(f'm.start({g})' for g in groups)}, -1)")
        elif kind == "count":
            fields.append(" + ".join(f"len(m.starts({g}))" for g in groups))
        elif len(groups) == 1 and not repeated[groups[0] - 1]:
            fields.append(f"m.start({groups[0]})")
        else:
            firsts = ", ".join(f"*m.starts({g})[:1]" for g in groups)
            fields.append(f"min(({firsts},), default=-1)")
    return eval(f"lambda m: ({', '.join(fields)},)"), order  # noqa: S307 - integers only


class BufferedCodes:
    """A partition's rows held for a regex engine until ``finish``: one character per row (the
    bit set of the first ``n_vars`` mask rows; a window's edge masks follow them) and the masks,
    up to ``max_rows`` rows."""

    def __init__(self, n_vars: int, max_rows: int) -> None:
        self._n_vars = n_vars
        self._weights = (1 << np.arange(n_vars, dtype=np.uint16))[:, None]
        self._max_rows = max_rows
        self._chunks: list[str] = []
        self._masks: list[np.ndarray] = []
        self.rows = 0

    def add(self, block: RowBlock) -> RowBlock | None:
        """Hold ``block``'s rows; past ``max_rows``, let go of everything and return it as one
        block for the general matcher to take over."""
        masks = np.asarray(block.masks, dtype=bool)
        codes = block.codes
        if codes is None or masks.shape[0] != self._n_vars:
            codes = (masks[:self._n_vars].astype(np.uint16) * self._weights).sum(axis=0)
        self._chunks.append(codes.astype(np.uint8).tobytes().decode("latin-1"))
        self._masks.append(masks)
        self.rows += masks.shape[1]
        if self.rows <= self._max_rows:
            return None
        everything = RowBlock(masks=np.concatenate(self._masks, axis=1))
        self._chunks, self._masks = [], []
        return everything

    def take_text(self) -> str:
        """The held rows' codes as one string (the buffer is emptied)."""
        text = "".join(self._chunks)
        self._chunks, self._masks = [], []
        return text


class BufferingEngine:
    """The part of an ``Engine`` that holds a partition's row codes until ``finish``
    (``BufferedCodes``) and, once the partition outgrows ``max_buffered_rows``, hands it over to
    the general matcher (``matcher.RowPatternMatcher``, window mode too), which streams it."""

    def __init__(self, spec: MatchSpec, max_buffered_rows: int) -> None:
        self.spec = spec
        self._buffer = BufferedCodes(len(spec.variable_names), min(max_buffered_rows, spec.max_buffered_rows))
        self._delegate = None  # the general matcher, once the partition outgrew the buffer

    @property
    def buffered_rows(self) -> int:
        """Rows held: the whole partition so far, until handed over to the general matcher."""
        return self._delegate.buffered_rows if self._delegate is not None else self._buffer.rows

    def feed(self, block: RowBlock) -> list[MatchEvent]:
        if self._delegate is not None:
            return self._delegate.feed(block)
        everything = self._buffer.add(block)
        if everything is None:
            return []
        from sparkcep.engines.standard.matcher import RowPatternMatcher

        self._delegate = RowPatternMatcher(self.spec, {})
        return self._delegate.feed(everything)


class RegexMatcher(BufferingEngine):
    """``Engine`` for row-local patterns under strict contiguity (see the module docstring).

    It buffers the classification of the whole partition (one byte per row) and matches at
    ``finish``; ``feed`` returns nothing."""

    def __init__(
        self,
        spec: MatchSpec,
        timeout_seconds: float = 600.0,
        max_buffered_rows: int = 2_000_000,
        summary: SummaryRequest | None = None,
    ) -> None:
        super().__init__(spec, max_buffered_rows)
        # ONE ROW PER MATCH consumers that only need spans get them column-wise (MatchSummaries)
        self._can_be_empty = rp.can_match_empty(spec.pattern)
        # With non-empty matches, finditer resumes exactly where PAST LAST ROW (at the match's end)
        # and TO NEXT ROW (one row after its start: overlapped=True) do; None: search row by row.
        self._overlapped: bool | None = None
        if spec.skip in (SkipMode.PAST_LAST_ROW, SkipMode.TO_NEXT_ROW) and not self._can_be_empty:
            self._overlapped = spec.skip is SkipMode.TO_NEXT_ROW
        # column-wise output: ONE ROW PER MATCH, or ALL ROWS PER MATCH when no match is empty and
        # no row is reported unmatched
        per_row = spec.rows_per_match in (RowsPerMatch.ALL_SHOW_EMPTY, RowsPerMatch.ALL_OMIT_EMPTY)
        wanted = (spec.rows_per_match is RowsPerMatch.ONE and summary is not None and not summary.labels) or (
            per_row and summary is not None and summary.labels and not self._can_be_empty)
        self._summary = summary if wanted else None
        # the same matches in linear time from RE2, where the pattern allows (``marked_regex``)
        self._marked = marked_form(spec)
        # SKIP TO NEXT ROW over a chain of runs: every row's match at once in NumPy (``run_chain``),
        # for the column-wise output (``_summarize``: this consumer's, or a window's)
        self._runs = run_chain_form(spec)
        self._regex, self._group_vars, self._group_repeated, self._grouped = _compiled(spec.pattern, len(spec.variable_names))
        self._timeout = timeout_seconds

    def finish(self) -> list[MatchEvent]:
        if self._delegate is not None:
            return self._delegate.finish()
        text = self._buffer.take_text()
        if self._summary is not None:
            summaries = self._summarize(text)
            return [summaries] if len(summaries) else []
        if self._marked is not None:
            try:
                return self._events_from_marks(text)
            except MatchRuntimeError:
                pass  # over the match budget: the search below reports the matches before it
        events: list[MatchEvent] = []
        try:
            self._match(text, events)
        except MatchRuntimeError as error:
            error.events = events
            raise
        return events

    def _events_from_marks(self, text: str) -> list[MatchEvent]:
        """``_match``'s events from RE2's matches (PAST LAST ROW: the rows between two matches,
        before the first and after the last are the unmatched ones)."""
        found = self._marked.summarize(text.encode("latin-1"), SummaryRequest(labels=True), self.spec)
        unmatched = self.spec.rows_per_match is RowsPerMatch.ALL_WITH_UNMATCHED
        labels = found.labels.tolist()
        events: list[MatchEvent] = []
        covered = at = 0  # at: the first label of the match in ``labels``
        for number, start, end in zip(found.number.tolist(), found.start.tolist(), found.end.tolist()):
            if unmatched:
                events.extend(UnmatchedRow(r) for r in range(covered, start))
            mapped = tuple(labels[at:at + end - start])
            at += end - start
            events.append(Match(number, start, tuple(range(start, end)), mapped, (False,) * len(mapped)))
            covered = end
        if unmatched:
            events.extend(UnmatchedRow(r) for r in range(covered, len(text)))
        return events

    def _labels(self, match) -> tuple[int, ...]:
        start, end = match.span()
        labels = [0] * (end - start)
        for group, var in enumerate(self._group_vars, start=1):
            for position in _rows_of(match, group, self._grouped):
                labels[position - start] = var
        return tuple(labels)

    def _budget_error(self, what: str) -> MatchRuntimeError:
        pattern = self.spec.pattern_text()
        return MatchRuntimeError("MATCH_BUDGET_EXCEEDED", f"PATTERN ({pattern}) {what}")

    def _search_all(self, text: str):
        """Yield ``(searched_from, found)`` for each match in order, where ``found`` is the regex
        match and ``searched_from`` the row the search for it began at; then ``(position, None)``
        with the row the next search would begin at."""
        n = len(text)
        overlapped = self._overlapped
        if overlapped is not None:
            position = 0
            for found in self._regex.finditer(text, overlapped=overlapped, timeout=self._timeout):
                yield position, found
                position = found.start() + 1 if overlapped else found.end()
            yield position, None
            return
        search = self._regex.search
        position = 0
        while position < n:
            found = search(text, position, timeout=self._timeout)
            if found is None or found.start() >= n:
                break  # a match starts at a row: none starts after the last one
            yield position, found
            start, end = found.span()
            position = start + 1 if end == start else self._resume(start, end, self._labels(found))
        yield position, None

    def _too_many(self) -> MatchRuntimeError:
        return budget_exceeded(self.spec, "max_matches")

    def _timed_out(self) -> MatchRuntimeError:
        return self._budget_error(
            f"took longer than {self._timeout:.0f} s to match one partition; use a more selective "
            "DEFINE or a pattern with less backtracking"
        )

    def _match(self, text: str, events: list[MatchEvent]) -> None:
        unmatched = self.spec.rows_per_match is RowsPerMatch.ALL_WITH_UNMATCHED
        number = 0
        covered = 0  # rows before this belong to some match
        try:
            for position, found in self._search_all(text):
                start = len(text) if found is None else found.start()
                if unmatched:
                    events.extend(UnmatchedRow(r) for r in range(max(position, covered), start))
                if found is None:
                    return
                number += 1
                if number > self.spec.max_matches:
                    raise self._too_many()
                end = found.end()
                if end == start:
                    events.append(Match(number, start, (), (), ()))
                    covered = max(covered, start)
                    continue
                labels = self._labels(found)
                events.append(Match(number, start, tuple(range(start, end)), labels, (False,) * len(labels)))
                covered = max(covered, end)
        except TimeoutError:
            raise self._timed_out() from None

    def _summarize(self, text: str, request: SummaryRequest | None = None) -> MatchSummaries:
        """All matches as column arrays (see ``MatchSummaries``), without a ``Match`` per match:
        RE2's marked form where it applies; else, per match, its group spans (grouped groups,
        summarized in NumPy) or one generated expression reading the requested group starts.
        ``request``: what to summarize (default: the consumer's request)."""
        request = request or self._summary
        if self._marked is not None:
            return self._marked.summarize(text.encode("latin-1"), request, self.spec)
        if self._runs is not None:
            codes = np.frombuffer(text.encode("latin-1"), dtype=np.uint8)
            found = self._runs.summarize(codes, request, self.spec)
            if found is not None:  # else this partition's data needs backtracking
                return found
        spec = self.spec
        try:
            if self._overlapped is not None:
                found = self._regex.finditer(text, overlapped=self._overlapped, timeout=self._timeout)
                matches = list(itertools.islice(found, spec.max_matches + 1))
            else:  # stop at the match past the budget, as the match-by-match path does
                searched = itertools.islice(self._search_all(text), spec.max_matches + 1)
                matches = [m for _, m in searched if m is not None]
            if len(matches) > spec.max_matches:
                raise self._too_many()
        except TimeoutError:
            raise self._timed_out() from None
        return self.summaries_of(matches, request)

    def summaries_of(self, matches: list, request: SummaryRequest) -> MatchSummaries:
        """``MatchSummaries`` of the regex matches ``matches`` (in match order)."""
        if self._grouped:
            return self._summarize_spans(matches, request)
        extract, order = _extractor(tuple(self._group_vars), tuple(self._group_repeated), request)
        rows = [extract(m) for m in matches]
        table = np.array(rows, dtype=np.int64).reshape(len(rows), 2 + len(order))
        columns = {key: table[:, i + 2] for i, key in enumerate(order)}
        return MatchSummaries(
            number=np.arange(1, len(rows) + 1, dtype=np.int64),
            start=table[:, 0],
            end=table[:, 1],
            first={v: columns["first", v] for v in request.first},
            last={v: columns["last", v] for v in request.last},
            count={v: columns["count", v] for v in request.count},
            labels=self._row_labels(matches, table[:, 0], table[:, 1]) if request.labels else None,
        )

    def _summarize_spans(self, matches: list, request: SummaryRequest) -> MatchSummaries:
        """Grouped matches: every group's span in one call per match (``regs``), the rest in NumPy
        (a group that took no part spans (-1, -1): length 0)."""
        groups = len(self._group_vars)
        flat = itertools.chain.from_iterable(itertools.chain.from_iterable(m.regs for m in matches))
        spans = np.fromiter(flat, dtype=np.int64, count=len(matches) * (groups + 1) * 2)
        spans = spans.reshape(len(matches), groups + 1, 2)
        return summaries_from_groups(spans[:, 0, 0], spans[:, 0, 1], spans[:, 1:, 0],
                                     spans[:, 1:, 1] - spans[:, 1:, 0], tuple(self._group_vars), request)

    def _row_labels(self, matches: list, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """The variable of each row of each match, the matches one after the other: per group,
        all its captures at once, shifted from row numbers to positions in the output."""
        lengths = ends - starts
        shift = np.cumsum(lengths) - lengths - starts  # output position = row + shift of its match
        labels = np.zeros(int(lengths.sum()), dtype=np.int64)
        for group, var in enumerate(self._group_vars, start=1):
            captures = [m.starts(group) for m in matches]  # grouped: _summarize_spans
            counts = np.fromiter((len(c) for c in captures), dtype=np.int64, count=len(captures))
            rows = np.fromiter(itertools.chain.from_iterable(captures), dtype=np.int64, count=int(counts.sum()))
            labels[rows + np.repeat(shift, counts)] = var
        return labels

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
