"""Trailing negation: ``PATTERN (A B !C) WITHIN w`` -- "A then B, and no C within the window".

A match of the *positive part* (``A B``, found by the strategy's own engine, NFA^b or
postponing, which never see the trailing negation) is reported only if no row that qualifies for
a trailing negated variable lies **after the match's last row and inside the match's WITHIN
window**: no such row r with ``last row < r`` and ``key(r) - key(first row) < w`` (the window of
``docs/semantics.md``, "WITHIN w": the same strict bound a match's own rows obey). A negated
variable's condition is evaluated as for a negation between components: against the match's
rows, with the candidate row mapped to the negated variable (RUNNING), so ``C AS C.tag = A.tag``
means "no C with A's tag".

Such a match is only final when its window has closed: at the first row whose key is
``>= key(first row) + w`` (its *completion point*), or at the end of the partition. That is also
when a stream can report it: the streaming operator finishes a segment only when the watermark is
WITHIN past its last row, after which no row still to come lies in any of its matches' windows.
Matches are numbered in order of completion point, then first row, rows, components (the order of
``docs/semantics.md``, "AFTER MATCH SKIP, ROWS PER MATCH, numbering"), independent of how the
partition is cut into batches.

This is the negation of SASE (Agrawal et al., SIGMOD 2008: ``!C`` as a component the sequence must
not contain) placed after the last component, where the only bound on the gap is the window;
FlinkCEP's ``notFollowedBy`` at the end of a pattern, which Flink refuses without ``within``, is
the same idea.

State: the pending matches (rows, labels, the next row to examine), and, for the rows from the
oldest row a pending or future match may read, their keys, whether a negated variable's row-local
condition holds, and (for match-dependent conditions) their columns. ``buffered_rows`` covers the
pending matches' rows, so the executor (and a stream's state) keeps them until they are output.

With ``WITH TIMED OUT MATCHES`` the inner NFA^b also reports runs its window closed; they pass
through here unexamined (a timed-out run has no last row of a match to look after) and are
ordered with the matches by the row that closed their window.
"""

from __future__ import annotations

from sparkcep.engines.budgets import budget_exceeded
from sparkcep.engines.contract import Match, MatchEvent, RowBlock
from sparkcep.engines.run_context import RunContext
from sparkcep.engines.sase.runs import RowStore
from sparkcep.errors import InternalError


class _Pending:
    __slots__ = ("rows", "labels", "excluded", "limit", "scan", "timed_out")

    def __init__(self, rows: tuple, labels: tuple, excluded: tuple, limit, timed_out: bool) -> None:
        self.timed_out = timed_out  # a run its window closed (WITH TIMED OUT MATCHES): no check
        self.rows = rows
        self.labels = labels
        self.excluded = excluded
        self.limit = limit  # key(first row) + w: the first key outside the window
        self.scan = rows[-1] + 1  # next row to examine


class TrailingNegationEngine:
    """Applies a pattern's trailing negations to the matches of its positive part (module
    docstring). ``inner`` is the strategy's engine over the same spec; its ``pat.trailing`` are
    the negated variables."""

    def __init__(self, inner, spec) -> None:
        if spec.within is None:
            raise InternalError("a trailing negation needs WITHIN (analysis refuses it without)")
        self.inner = inner
        self.spec = spec
        self.name = f"{inner.name} + trailing negation"
        self.within = spec.within
        self.negated = tuple(inner.pat.trailing)
        self.conds = [inner.conds[v] for v in self.negated]
        self.has_conds = any(c is not None for c in self.conds)
        self.store = RowStore()
        self.base = 0  # absolute index of keys[0]
        self.keys: list = []
        self.hits: list = []  # per row: the negated variables whose row-local condition holds
        self.n_rows = 0
        self.pending: list[_Pending] = []
        self.matches_out = 0
        self.steps = 0
        self._comp_of_var = inner._comp_of_var

    @property
    def pat(self):
        return self.inner.pat

    @property
    def stats(self) -> dict:
        return self.inner.stats

    # -- public ------------------------------------------------------------------------------------

    def feed(self, block: RowBlock) -> list[MatchEvent]:
        m = len(block)
        if m == 0:
            return []
        if block.order_key is None:
            raise InternalError("WITHIN needs RowBlock.order_key")
        if self.has_conds:  # a negated variable's condition reads the match's columns
            self.store.add(self.n_rows, block)
        self.keys.extend(block.order_key.tolist())
        masks = [block.masks[v].tolist() for v in self.negated]
        self.hits.extend(
            tuple(j for j, mask in enumerate(masks) if mask[i]) for i in range(m)
        )
        self.n_rows += m
        self._take(self.inner.feed(block))
        done = self._decide()
        self._trim()
        return self._emit(done)

    def finish(self) -> list[MatchEvent]:
        self._take(self.inner.finish())
        done = self._decide()
        end = self.n_rows  # the end of the partition closes every window still open
        done.extend((end, p) for p in self.pending)
        self.pending = []
        return self._emit(done)

    @property
    def buffered_rows(self) -> int:
        """Rows a pending or future match may still refer to (the executor keeps them)."""
        return self.n_rows - self._oldest()

    # -- internals ---------------------------------------------------------------------------------

    def _oldest(self) -> int:
        oldest = self.n_rows - self.inner.buffered_rows
        for p in self.pending:
            if p.rows[0] < oldest:
                oldest = p.rows[0]
        return oldest

    def _take(self, events: list[MatchEvent]) -> None:
        for event in events:
            if not isinstance(event, Match):  # analysis refuses WITH UNMATCHED ROWS
                raise InternalError("a trailing negation does not report unmatched rows")
            first = self.keys[event.rows[0] - self.base]
            self.pending.append(_Pending(event.rows, event.labels, event.excluded,
                                         first + self.within, event.timed_out))
        held = sum(len(p.rows) for p in self.pending) + self.n_rows - self._oldest()
        if held > self.spec.max_buffered_rows:
            raise budget_exceeded(self.spec, "max_buffered_rows",
                                  "matches wait until their window closes")

    def _qualifies(self, p: _Pending, row: int, negated: tuple) -> bool:
        for j in negated:
            cond = self.conds[j]
            if cond is None or cond(RunContext(self.store, p.rows, p.labels, row, self.negated[j])):
                return True
        return False

    def _decide(self) -> list:
        """Examine the pending matches over the rows fed so far: drop the ones a negated row
        breaks, return ``(completion row, match)`` for the ones whose window has closed."""
        done: list = []
        keep: list[_Pending] = []
        keys, hits, base, n = self.keys, self.hits, self.base, self.n_rows
        steps = 0
        for p in self.pending:
            r = p.scan
            state = None
            while r < n:
                key = keys[r - base]
                if key >= p.limit:
                    state = "closed"
                    break
                negated = hits[r - base]
                if negated and not p.timed_out and self._qualifies(p, r, negated):
                    state = "broken"
                    break
                r += 1
            steps += r - p.scan + 1
            p.scan = r
            if state is None:
                keep.append(p)
            elif state == "closed":
                done.append((r, p))
        self.pending = keep
        self.steps += steps
        if self.steps > self.spec.max_steps:
            raise budget_exceeded(self.spec, "max_steps")
        return done

    def _trim(self) -> None:
        oldest = min([self._oldest()] + [p.scan for p in self.pending])
        oldest = min(oldest, self.n_rows)
        if oldest > self.base:
            del self.keys[: oldest - self.base]
            del self.hits[: oldest - self.base]
            self.base = oldest
        self.store.prune(self._oldest())

    def _emit(self, done: list) -> list[MatchEvent]:
        if not done:
            return []
        comp_of = self._comp_of_var
        done.sort(key=lambda d: (d[0], d[1].rows[0], d[1].rows,
                                 tuple(comp_of[v] for v in d[1].labels)))
        if self.matches_out + len(done) > self.spec.max_matches:
            raise budget_exceeded(self.spec, "max_matches")
        out: list[MatchEvent] = []
        for _completion, p in done:
            self.matches_out += 1
            out.append(Match(self.matches_out, p.rows[0], p.rows, p.labels, p.excluded,
                             timed_out=p.timed_out))
        return out
