"""The regex fast path in a window (SQL:2016 R020): every row's match from the partition's
matches under MATCH_RECOGNIZE's rules, found by the regex fast path (``regex_path``, RE2 through
``marked_regex`` where it applies) and placed on the rows whose frames they were found in.

Window mode (``PatternWindow``; ISO/IEC 19075-5, 6) outputs every row: the row that a search
starts from gets the match found in its frame, the rows an earlier match skipped and the rows
whose frame holds none get no match. With row-local conditions, the matches are those of the
clause:

- frame to the end of the partition, INITIAL: the row's match is the preferred match starting at
  the row. A row that starts none is followed by the next row, and so is the search of the clause
  (``search`` from a row finds the first row at or after it where a match starts). So the window's
  matches are the clause's under the same AFTER MATCH SKIP (PAST LAST ROW or TO NEXT ROW), each
  on its first row.
- frame to the end, SEEK: the row's match is the first one starting at or after it, which is
  the clause's search from that row; the rows between are skipped. The window's matches are again
  the clause's, each on the row its search began at: the first row, then the row the previous
  match's skip resumes at (past its last row, or the row after its first).
- frame of ``n`` rows after the row, SEEK: one search per row not skipped, from the row and
  ending at the frame's last row (the frame's end depends on the row the search began at).
- frame of ``n`` rows after the row, INITIAL: the row's match is the preferred match starting at
  it among those that end in the frame. The preferred match of the whole partition at that row
  (the clause under TO NEXT ROW finds one per row that starts any) is it when it fits; otherwise
  the regex is run once more at that row, ending at the frame's last row. A row that starts no
  match in the partition starts none in its frame. Under PAST LAST ROW the window then keeps the
  matches a walk from the first row meets (each one resumes past its last row).

The conditions near a frame's edges (``PatternWindow.edges``: a PREV that would read before the
frame reads NULL) leave these matches unchanged when no variable with such a PREV can map one of
the first rows of a match (``_edge_reason``); a NEXT near a bounded frame's end, AFTER MATCH SKIP
TO a variable and what the regex fast path itself does not take stay on the general matcher's
window mode (``window_fast_reason`` says why).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools

import numpy as np

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.contract import Match, MatchEvent, MatchSummaries, SummaryRequest, UnmatchedRow
from sparkcep.engines.spec import MatchSpec, RowsPerMatch, SkipMode
from sparkcep.engines.standard.regex_path import BufferingEngine, RegexMatcher
from sparkcep.engines.standard.regex_translation import regex_eligible

#: the farthest PREV in a DEFINE (rows before a frame's first row) the edge analysis looks at
MAX_EDGE_REACH = 4


def window_fast_reason(spec: MatchSpec, has_conditions: bool) -> str | None:
    """Why window mode (``spec.window``) stays on the general matcher, or None: the regex fast
    path finds its matches exactly."""
    window = spec.window
    if window is None:
        return "not a window"
    if has_conditions:
        return "a DEFINE condition depends on the match (navigation over mapped rows, aggregates)"
    if not regex_eligible(spec, has_conditions=False):
        return "the pattern is outside the regex fast path (see its engine reason for MATCH_RECOGNIZE)"
    if spec.skip not in (SkipMode.PAST_LAST_ROW, SkipMode.TO_NEXT_ROW):
        return f"AFTER MATCH SKIP {spec.skip.value}"
    return _edge_reason(spec)


def _edge_reason(spec: MatchSpec) -> str | None:
    """Why the conditions near the frame's edges could change a match, or None."""
    window = spec.window
    return _edge_reason_of(spec.pattern, spec.variable_names, window.edges, window.following)


@functools.lru_cache(maxsize=256)
def _edge_reason_of(pattern: rp.Pattern, names: tuple[str, ...], edges: tuple,
                    following: int | None) -> str | None:
    """``_edge_reason`` (cached: an engine is made per partition)."""
    reach: dict[int, int] = {}
    for var, before, after, _ in edges:
        if after > 0 and following is not None:
            return "a DEFINE's NEXT reaches past a bounded frame's end"
        reach[var] = max(reach.get(var, 0), before)
    reach = {var: r for var, r in reach.items() if r > 0}
    if not reach:
        return None
    farthest = max(reach.values())
    if farthest > MAX_EDGE_REACH:
        return f"a DEFINE's PREV reaches more than {MAX_EDGE_REACH} rows before the frame"
    at = variables_at(pattern, farthest)
    for var, r in sorted(reach.items()):
        if any(var in at[j] for j in range(r)):
            name = names[var] if var < len(names) else str(var)
            return (f"{name}'s DEFINE reads PREV before the frame, and {name} can map one of a "
                    f"match's first {r} row(s)")
    return None


def variables_at(pattern: rp.Pattern, k: int) -> list[set[int]]:
    """The variables that can map the j-th row (0-based) of a match of ``pattern``, j < ``k``."""
    at: list[set[int]] = [set() for _ in range(k)]
    for word, _ in _words(pattern, k):
        for j, var in enumerate(word):
            at[j].add(var)
    return at


def _words(pattern: rp.Pattern, k: int) -> frozenset:
    """The label sequences of ``pattern``'s matches cut to ``k`` rows: ``(word, complete)``,
    ``complete`` False where the match goes on past ``k`` rows."""
    if isinstance(pattern, rp.Label):
        return frozenset([((pattern.var,), True)] if k > 0 else [((), False)])
    if isinstance(pattern, (rp.Empty, rp.Anchor)):
        return frozenset([((), True)])
    if isinstance(pattern, rp.Concat):
        words = frozenset([((), True)])
        for item in pattern.items:
            words = _then(words, _words(item, k), k)
        return words
    if isinstance(pattern, rp.Alternation):
        return frozenset().union(*(_words(item, k) for item in pattern.items))
    if isinstance(pattern, rp.Permute):
        out: set = set()
        for order in itertools.permutations(pattern.items):
            out |= _words(rp.Concat(tuple(order)), k)
        return frozenset(out)
    if isinstance(pattern, rp.Quantified):
        body = _words(pattern.pattern, k)
        out = {((), True)} if pattern.min == 0 else set()
        words = frozenset([((), True)])
        count = 0
        while pattern.max is None or count < pattern.max:
            count += 1
            grown = _then(words, body, k)
            if count >= pattern.min:
                out |= grown
            if grown == words:  # every word cut: more iterations change nothing
                out |= grown
                break
            words = grown
        return frozenset(out)
    return frozenset([((), True)])  # (not regex eligible: refused before)


def _then(first: frozenset, second: frozenset, k: int) -> frozenset:
    out = set()
    for word, complete in first:
        if not complete:
            out.add((word, False))
            continue
        for more, done in second:
            joined = word + more
            out.add((joined[:k], False) if len(joined) > k else (joined, done))
    return frozenset(out)


class WindowRegexMatcher(BufferingEngine):
    """``Engine`` for window mode on the regex fast path (see the module docstring). Buffers the
    partition's row codes and matches at ``finish``. With a ``SummaryRequest`` it returns one
    ``MatchSummaries`` whose ``anchor`` places each match on its row; without, one event per row
    in row order, as the general matcher's window mode does."""

    def __init__(self, spec: MatchSpec, summary: SummaryRequest | None = None,
                 timeout_seconds: float = 600.0, max_buffered_rows: int = 2_000_000) -> None:
        # the buffer holds the edges' masks after the variables' (``BufferedCodes`` computes the
        # codes from the variables' alone); past the bound, the general matcher's window mode
        super().__init__(spec, max_buffered_rows)
        window = spec.window
        # bounded frames: every row's own preferred match first (TO NEXT ROW), then the frame
        skip = spec.skip if window.following is None else SkipMode.TO_NEXT_ROW
        clause = dataclasses.replace(spec, window=None, rows_per_match=RowsPerMatch.ONE, skip=skip)
        self._clause = RegexMatcher(clause, timeout_seconds=timeout_seconds)
        self._summary = summary

    def finish(self) -> list[MatchEvent]:
        if self._delegate is not None:
            return self._delegate.finish()
        text = self._buffer.take_text()
        if not text:
            return []
        request = self._summary if self._summary is not None else SummaryRequest(labels=True)
        found = self.summaries(text, request)
        if self._summary is not None:
            return [found]
        return _events(found)

    def summaries(self, text: str, request: SummaryRequest) -> MatchSummaries:
        """The window's matches of the partition ``text`` (one code per row), column-wise, with
        the row each belongs to (``anchor``)."""
        window = self.spec.window
        clause = self._clause
        if window.following is None:
            found = clause._summarize(text, request)
            start, end = found.start, found.end
            if not window.seek:
                anchor = start
            else:  # the row each search began at: the first, then where the previous skip resumed
                resume = start + 1
                if self.spec.skip is SkipMode.PAST_LAST_ROW:
                    resume = np.where(end > start, end, start + 1)
                anchor = np.concatenate([np.zeros(1, dtype=np.int64), resume])[:len(start)].astype(np.int64)
        elif window.seek:
            anchors, matches = self._bounded_searches(text, window.following)
            found = clause.summaries_of(matches, request)
            anchor = np.array(anchors, dtype=np.int64)
        else:
            found = clause.summaries_of(self._bounded_matches(text, window.following), request)
            anchor = found.start
        found.anchor = anchor
        found.rows = len(text)
        return found

    def _bounded_matches(self, text: str, following: int) -> list:
        """INITIAL in frames of ``following`` rows after the row: the matches, in row order."""
        clause = self._clause
        n = len(text)
        matches = []
        try:
            for _, match in clause._search_all(text):
                if match is None:
                    break
                start, end = match.span()
                if end - start > following + 1:  # the preferred match leaves the frame
                    match = clause._regex.match(text, start, min(n, start + following + 1),
                                                timeout=clause._timeout)
                    if match is None:
                        continue
                matches.append(match)
        except TimeoutError:
            raise clause._timed_out() from None
        if self.spec.skip is SkipMode.PAST_LAST_ROW:
            kept, resume = [], 0
            for match in matches:
                start, end = match.span()
                if start >= resume:
                    kept.append(match)
                    resume = end if end > start else start + 1
            matches = kept
        if len(matches) > self.spec.max_matches:
            raise clause._too_many()
        return matches


    def _bounded_searches(self, text: str, following: int) -> tuple[list[int], list]:
        """SEEK in frames of ``following`` rows after the row: per row not skipped, one search
        for the first match starting in its frame and ending by the frame's last row; the
        anchors and the matches, in row order."""
        clause = self._clause
        search = clause._regex.search
        n = len(text)
        past = self.spec.skip is SkipMode.PAST_LAST_ROW
        anchors, matches = [], []
        row = 0
        try:
            while row < n:
                last = min(n - 1, row + following)  # the frame's last row
                match = search(text, row, last + 1, timeout=clause._timeout)
                if match is None or match.start() > last:  # (an empty match past the frame)
                    row += 1
                    continue
                anchors.append(row)
                matches.append(match)
                start, end = match.span()
                row = (end if end > start else start + 1) if past else start + 1
        except TimeoutError:
            raise clause._timed_out() from None
        if len(matches) > self.spec.max_matches:
            raise clause._too_many()
        return anchors, matches


def _events(found: MatchSummaries) -> list[MatchEvent]:
    """One event per row in row order: a ``Match`` on its anchor row, else an ``UnmatchedRow``."""
    labels = found.labels.tolist()
    events: list[MatchEvent] = []
    at = following = 0  # at: the first label of the match in ``labels``
    for number, anchor, start, end in zip(found.number.tolist(), found.anchor.tolist(),
                                          found.start.tolist(), found.end.tolist()):
        events.extend(UnmatchedRow(r) for r in range(following, anchor))
        mapped = tuple(labels[at:at + end - start])
        at += end - start
        events.append(Match(number, start, tuple(range(start, end)), mapped, (False,) * len(mapped),
                            anchor=anchor))
        following = anchor + 1
    events.extend(UnmatchedRow(r) for r in range(following, found.rows))
    return events
