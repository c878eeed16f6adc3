"""The event-based engine for imprecise timestamps (Zhang, Diao, Immerman, PVLDB 2010, section 5;
Kleene closure and the confidence threshold from "Optimizing Expensive Queries in Complex Event
Processing", section 5.3 and Appendix A), and the point-based baseline (PVLDB 2010, section 4).

Both engines share the streaming frame (:class:`_Frame`): rows arrive sorted by ``time_lo``; a
match is keyed by its first event ``e_1`` (the event of the first component), and every other
event of a match, and every row that could break it, occurs before ``e_1.hi + W - 1``. So the
matches starting at ``e_1`` are final once a row with ``time_lo`` beyond that arrives (or the
partition ends, without WITHIN). Start rows are resolved in row order; matches are numbered
1, 2, ... in that order (then in the order the search finds them), which does not depend on how
the partition is split into batches.

Event-based evaluation (:class:`UncertainEngine`): a depth-first search over candidate events
that extends a partial match one event at a time (the paper's incremental evaluation, Alg. 4).
Each extension carries the partial match's time-point DP (``confidence.Chain``): it is the
interval-shrinking passes made exact (an extension that leaves no consistent time tuple -- the
paper's ``vlb > vub`` -- is dropped), and its mass, the probability that the selected events are
in order and inside the window, bounds the confidence of every extension. With ``MINIMUM
CONFIDENCE c`` a partial match whose bound is below ``c`` is pruned with all its extensions: the
anti-monotone pruning of Algorithm 1 (the paper enumerates Kleene subsets event by event and
prunes on the confidence of each; the bound used here is also sound under skip till next match and
negation, where adding an event can raise a match's confidence). Under skip till next match, a
candidate that starts after the *next event's latest time* (NELT, PVLDB 2010 section 4.2: the
earliest end among relevant rows that start after the last selected event ends) is skipped: it is
always preceded by that row. Under skip till any match without negation, the candidates for the
last event of a partial match are closed together (``confidence.close``: mass and time range,
``O(A)`` each, from one table per partial match).

Point-based evaluation (:class:`PointEngine`): every row is expanded into one point event per time
point of its interval; skip till any match runs over the point events and the probabilities of
the point matches are summed per signature (Eq. 1; Eq. 2-3 multiply the probability that no
breaking row lies in a gap). Its cost grows as ``O(U^n)`` with the interval size ``U``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from bisect import bisect_left, bisect_right
from collections import deque
from itertools import groupby
from fractions import Fraction

import numpy as np

from sparkcep.engines.budgets import budget_exceeded
from sparkcep.engines.contract import RowBlock
from sparkcep.engines.spec import MatchSpec, Strategy
from sparkcep.engines.uncertain import confidence as dp
from sparkcep.engines.uncertain.pattern import compile_pattern
from sparkcep.engines.uncertain.result import UncertainMatch
from sparkcep.engines.uncertain.store import RowBuffer, Rules, check_budget


class _Frame(ABC):
    """Streaming, buffering, numbering and guards shared by both engines."""

    def __init__(self, spec: MatchSpec, conditions=None, *, min_confidence: float = 0.0,
                 window: int | None = None) -> None:
        self.spec = spec
        self.pat = compile_pattern(spec)
        self.rules = Rules(spec, self.pat, conditions)
        self.window = int(window if window is not None else spec.within) if (
            window is not None or spec.within is not None) else None
        self.min_confidence = float(min_confidence)
        self.buf = RowBuffer(len(spec.variable_names))
        self.pending: deque[int] = deque()
        self.number = 0
        self.steps = 0
        self.stats = {"starts": 0, "nodes": 0, "pruned": 0, "signatures": 0, "matches": 0}
        self._first_var = self.pat.components[0].var
        # one DP array (anchor points x time points) may use a sixteenth of the step budget
        self.max_cells = max(1, spec.max_steps // 16)

    # -- streaming ------------------------------------------------------------------------
    def feed(self, block: RowBlock) -> list:
        if len(block) == 0:
            return []
        first = self.buf.end
        self.buf.add(block)
        starts = np.flatnonzero(np.asarray(block.masks[self._first_var], dtype=bool))
        self.pending.extend(int(first + s) for s in starts)
        check_budget(self.spec, "max_buffered_rows", len(self.buf.lo))
        return self._drain(final=False)

    def finish(self) -> list:
        return self._drain(final=True)

    @property
    def buffered_rows(self) -> int:
        """Rows a future match may still contain (the executor drops older input batches): every
        row from the first that may still overlap a pending start row's window."""
        return self.buf.end - self.buf.base

    def _drain(self, final: bool) -> list:
        out: list = []
        if not len(self.buf.lo):
            return out
        max_lo = int(self.buf.lo[-1])
        while self.pending:
            r = self.pending[0]
            lo, hi = self.buf.interval(r)
            if not final and (self.window is None or max_lo <= hi + self.window - 1):
                break
            self.pending.popleft()
            self.stats["starts"] += 1
            out.extend(self._matches_from(r))
        threshold = self.buf.interval(self.pending[0])[0] if self.pending else max_lo
        keep = np.flatnonzero(self.buf.hi >= threshold)
        limit = self.pending[0] if self.pending else self.buf.end
        first_needed = min(self.buf.base + int(keep[0]) if len(keep) else self.buf.end, limit)
        self.buf.drop_before(first_needed)
        return out

    def _scope(self, r: int) -> np.ndarray:
        """Absolute indices of the rows that may occur in ``[lo(r), hi(r) + W - 1]``, except r."""
        lo, hi = self.buf.interval(r)
        ok = self.buf.hi >= lo
        if self.window is not None:
            ok &= self.buf.lo <= hi + self.window - 1
        ok[r - self.buf.base] = False
        return self.buf.base + np.flatnonzero(ok)

    def _emit(self, rows, labels, conf, rng) -> UncertainMatch:
        self.number += 1
        self.stats["matches"] += 1
        check_budget(self.spec, "max_matches", self.number)
        exact = conf if isinstance(conf, Fraction) else None
        return UncertainMatch(
            self.number, rows[0], tuple(rows), tuple(labels),
            tuple(self.rules.excluded[v] for v in labels),
            float(conf), rng[0], rng[1], rng[2], rng[3], exact,
        )

    def _keep(self, conf) -> bool:
        if (conf.numerator if isinstance(conf, Fraction) else conf) <= 0:
            return False
        return self.min_confidence == 0 or conf >= self.min_confidence

    def _step(self, n: int = 1) -> None:
        self.steps += n
        if self.steps > self.spec.max_steps:
            check_budget(self.spec, "max_steps", self.steps)

    def _breaking(self, rows, labels, comps, scope):
        """The rows that break the signature and how (see ``confidence.signature_confidence``)."""
        buf = self.buf
        if self.rules.strategy is Strategy.STRICT_CONTIGUITY:
            chosen = set(rows)
            span = [buf.interval(int(x)) for x in scope if int(x) not in chosen]
            return {}, {}, span
        breaking = self.rules.exclusions(buf, rows, labels, comps, scope)
        return breaking, {x: buf.interval(x) for x in breaking}, None

    @abstractmethod
    def _matches_from(self, r: int) -> list:
        """The matches whose first row is ``r`` (every row they could involve is buffered)."""


class UncertainEngine(_Frame):
    """Event-based evaluation with the time-point DP and threshold pruning.

    ``order``: how the events of a match are searched (PVLDB 2010, section 5.3).

    * ``"query"`` (default): in pattern order from the start row, extending the time-point DP one
      event at a time (query-order evaluation; the sort into query order is the frame's
      buffering by ``time_lo``).
    * ``"selectivity"``: the components after the first are searched fewest candidates first
      (counted in the start's window, per start), with the interval bounds of the events chosen
      so far as the only pruning; a start whose rarest component has no candidate costs no DP
      at all. The DP then runs in pattern order over the signatures found, once per prefix.
      It applies where the paper defines it:
      a sequence of single events under skip till any match without negation (other patterns
      run in query order). The matches, their confidences and their numbering are the same as
      in query order.
    """

    ORDERS = ("query", "selectivity")

    def __init__(self, spec: MatchSpec, conditions=None, *, min_confidence: float = 0.0,
                 window: int | None = None, order: str = "query") -> None:
        super().__init__(spec, conditions, min_confidence=min_confidence, window=window)
        if order not in self.ORDERS:
            raise ValueError(f"order must be one of {self.ORDERS}, not {order!r}")
        self.by_selectivity = order == "selectivity" and (
            self.rules.strategy is Strategy.SKIP_TILL_ANY_MATCH and not any(self.pat.negations)
            and not any(c.kleene for c in self.pat.components) and len(self.pat.components) > 1)

    def _matches_from(self, r: int) -> list:
        rules, buf, pat = self.rules, self.buf, self.pat
        out: list = []
        first = pat.components[0]
        if not rules.qualifies(buf, [], [], r, first.var):
            return out
        scope = self._scope(r)
        by_var = {c.var: scope[buf.masks[c.var, scope - buf.base]] for c in pat.components}
        simple = rules.strategy is Strategy.SKIP_TILL_ANY_MATCH and not any(pat.negations)
        last_comp = len(pat.components) - 1
        nxt = rules.strategy is Strategy.SKIP_TILL_NEXT_MATCH
        window = self.window
        lo_arr, hi_arr, base = buf.lo, buf.hi, buf.base

        def search(rows: list, labels: list, comps: list, chain: dp.Chain) -> None:
            c = comps[-1]
            options = ([c] if pat.components[c].kleene else []) + ([c + 1] if c < last_comp else [])
            a_last = chain.a0 + chain.g.shape[0] - 1
            cands: list[tuple[int, int]] = []
            for d in options:
                v = pat.components[d].var
                xs = by_var[v]
                ok = hi_arr[xs - base] > chain.t0
                if window is not None:
                    ok &= lo_arr[xs - base] <= a_last + window - 1
                for x in xs[ok]:
                    x = int(x)
                    if x in rows:
                        continue
                    self._step()
                    if rules.qualifies(buf, rows, labels, x, v):
                        cands.append((x, d))
            if nxt and cands:
                # NELT: a candidate starting after the earliest end among the relevant rows that
                # start after the last selected event ends is always preceded by that row
                p_hi = buf.interval(rows[-1])[1]
                ends = [buf.interval(x)[1] for x, _ in cands if buf.interval(x)[0] > p_hi]
                if ends:
                    nelt = min(ends)
                    cands = [(x, d) for x, d in cands if buf.interval(x)[0] <= nelt]
            cands.sort()
            closed = None
            if simple:
                last = [x for x, d in cands if d == last_comp]
                if len(last) > 1:  # for one candidate, extending is cheaper (measured)
                    idx = np.asarray(last, dtype=np.int64) - base
                    closed = dp.close(chain, lo_arr[idx], hi_arr[idx], window, self.max_cells)
                    if closed is not None:
                        closed = dict(zip(last, zip(closed.ok, closed.mass, closed.ranges)))
            for x, d in cands:
                self.stats["nodes"] += 1
                if closed is not None and d == last_comp:
                    # the last event under skip till any match: mass and range only
                    self._step(chain.g.size)
                    ok, bound, rng = closed[x]
                    if not ok:
                        continue
                    if self.min_confidence > 0 and bound < self.min_confidence:
                        self.stats["pruned"] += 1
                        continue
                    rows.append(x), labels.append(pat.components[d].var)
                    self.stats["signatures"] += 1
                    if self._keep(bound):
                        out.append(self._emit(rows, labels, bound, rng))
                    rows.pop(), labels.pop()
                    continue
                lo, hi = buf.interval(x)
                nchain = dp.extend(chain, lo, hi, window, max_cells=self.max_cells)
                self._step(chain.g.size)
                if nchain is None:
                    continue
                if self.min_confidence > 0 or (simple and d == last_comp):
                    bound = nchain.mass()
                    if bound < self.min_confidence:
                        self.stats["pruned"] += 1
                        continue
                v = pat.components[d].var
                rows.append(x), labels.append(v), comps.append(d)
                if d == last_comp:
                    self.stats["signatures"] += 1
                    if simple:
                        conf, rng = bound, nchain.time_range()
                    else:
                        res = self._outcome(rows, labels, comps, scope)
                        conf, rng = (res.confidence, res.time_range) if res else (0, None)
                    if self._keep(conf):
                        out.append(self._emit(rows, labels, conf, rng))
                else:
                    search(rows, labels, comps, nchain)
                rows.pop(), labels.pop(), comps.pop()

        lo, hi = buf.interval(r)
        try:
            if last_comp == 0:  # a one-row pattern: the start is the match
                self.stats["signatures"] += 1
                res = self._outcome([r], [first.var], [0], scope)
                if res is not None and self._keep(res.confidence):
                    out.append(self._emit([r], [first.var], res.confidence, res.time_range))
                return out
            if self.by_selectivity:
                return self._by_selectivity(r, by_var)
            search([r], [first.var], [0], dp.start(lo, hi, max_cells=self.max_cells))
        except dp.DpTooLarge as exc:
            raise budget_exceeded(
                self.spec, "max_steps",
                f"the time-point computation of one match needs {exc.cells:,} cells, more than "
                f"the budget / 16; use a coarser GRANULARITY or a shorter WITHIN",
            ) from None
        return out

    def _by_selectivity(self, r: int, by_var: dict) -> list:
        """Selectivity-order evaluation of the matches starting at ``r`` (see the class)."""
        buf, rules, window = self.buf, self.rules, self.window
        variables = [c.var for c in self.pat.components]
        n = len(variables)
        lo_r, hi_r = buf.interval(r)
        cands: dict[int, list[int]] = {}
        for p in range(1, n):
            xs = by_var[variables[p]]
            self._step(len(xs))
            ok = buf.hi[xs - buf.base] >= lo_r + p  # p distinct points after the start's first
            if window is not None:  # and n - 1 - p after it, all within W of the start
                ok &= buf.lo[xs - buf.base] <= hi_r + window - 1 - (n - 1 - p)
            cands[p] = [int(x) for x in xs[ok] if x != r]
            if not cands[p]:
                return []
        order = sorted(cands, key=lambda p: (len(cands[p]), p))
        chosen = {0: r}
        found: list[list[int]] = []

        def consistent() -> bool:
            # the interval passes over the chosen positions; an unchosen position between two
            # chosen ones needs a point of its own, so bounds move by the distance in positions
            ps = sorted(chosen)
            ivs = [buf.interval(chosen[p]) for p in ps]
            lows = [ivs[0][0]]
            for i in range(1, len(ps)):
                lows.append(max(ivs[i][0], lows[-1] + ps[i] - ps[i - 1]))
            high = ivs[-1][1]
            if high < lows[-1]:
                return False
            for i in range(len(ps) - 2, -1, -1):
                high = min(ivs[i][1], high - (ps[i + 1] - ps[i]))
                if high < lows[i]:
                    return False
            # high is now the start's latest time; the last event comes n - 1 - p_last later
            return window is None or lows[-1] + (n - 1 - ps[-1]) - high <= window - 1

        def search(i: int) -> None:
            if i == len(order):
                found.append([chosen[p] for p in range(n)])
                return
            p = order[i]
            taken = set(chosen.values())
            for x in cands[p]:
                if x in taken:
                    continue
                self._step()
                self.stats["nodes"] += 1
                chosen[p] = x
                if consistent():
                    search(i + 1)
                else:
                    self.stats["pruned"] += 1
                del chosen[p]

        search(0)
        found.sort()  # the order query-order search finds them in: by row, position by position
        found = [rows for rows in found
                 if all(rules.qualifies(buf, rows[:k], variables[:k], rows[k], variables[k])
                        for k in range(1, n))]
        # the DP in pattern order, once per prefix (signatures sharing all rows but the last are
        # adjacent after the sort), closing the prefix with all its last rows at once
        out: list = []
        for prefix, group in groupby(found, key=lambda rows: tuple(rows[:-1])):
            group = list(group)
            chain = dp.start(*buf.interval(prefix[0]), max_cells=self.max_cells)
            for x in prefix[1:]:
                self._step(chain.g.size)
                chain = dp.extend(chain, *buf.interval(x), window, max_cells=self.max_cells)
                if chain is None:
                    break
            if chain is None:
                continue
            last = np.asarray([rows[-1] for rows in group], dtype=np.int64) - buf.base
            closed = dp.close(chain, buf.lo[last], buf.hi[last], window, self.max_cells) \
                if len(group) > 1 else None
            for k, rows in enumerate(group):
                self.stats["signatures"] += 1
                self._step(chain.g.size)
                if closed is not None:
                    ok, conf, rng = closed.ok[k], closed.mass[k], closed.ranges[k]
                else:
                    one = dp.extend(chain, *buf.interval(rows[-1]), window,
                                    max_cells=self.max_cells)
                    ok = one is not None
                    conf, rng = (one.mass(), one.time_range()) if ok else (0, None)
                if ok and self._keep(conf):
                    out.append(self._emit(rows, variables, conf, rng))
        return out

    def _outcome(self, rows, labels, comps, scope):
        breaking, intervals, span = self._breaking(rows, labels, comps, scope)
        try:
            return dp.signature_confidence(
                [self.buf.interval(x) for x in rows], self.window, breaking, intervals, span,
                max_cells=self.max_cells)
        except ValueError:
            raise budget_exceeded(
                self.spec, "max_steps",
                "too many rows could break several gaps of one match under SKIP TILL NEXT MATCH "
                "or negation",
            ) from None


class PointEngine(_Frame):
    """Point-based evaluation: skip till any match over point events, summed per signature."""

    def _matches_from(self, r: int) -> list:
        rules, buf, pat = self.rules, self.buf, self.pat
        first = pat.components[0]
        if not rules.qualifies(buf, [], [], r, first.var):
            return []
        scope = self._scope(r)
        window = self.window
        last_comp = len(pat.components) - 1
        # point events per variable, in time order: (t, row)
        points: dict[int, tuple[list[int], list[int]]] = {}
        for c in pat.components:
            xs = scope[buf.masks[c.var, scope - buf.base]]
            pts = sorted((t, int(x)) for x in xs for t in range(*_closed(buf.interval(int(x)))))
            points[c.var] = ([t for t, _ in pts], [x for _, x in pts])
        sigs: dict[tuple, list] = {}  # signature -> [rows, labels, comps, numerator, range]

        rows_of = {c.var: [int(x) for x in scope[buf.masks[c.var, scope - buf.base]]]
                   for c in pat.components}
        nxt = rules.strategy is Strategy.SKIP_TILL_NEXT_MATCH

        def search(rows, labels, comps, times, a):
            c = comps[-1]
            options = ([c] if pat.components[c].kleene else []) + ([c + 1] if c < last_comp else [])
            limit = None if window is None else a + window
            if nxt:
                # NELT (PVLDB 2010 section 4.2): a point after the earliest end among the relevant
                # rows that start after the last point is always preceded by that row
                for d in options:
                    v = pat.components[d].var
                    for y in rows_of[v]:
                        lo_y, hi_y = buf.interval(y)
                        if lo_y > times[-1] and y not in rows and (limit is None or hi_y < limit) \
                                and rules.qualifies(buf, rows, labels, y, v):
                            limit = hi_y + 1
            for d in options:
                v = pat.components[d].var
                ts, xs = points[v]
                i = bisect_right(ts, times[-1])
                j = len(ts) if limit is None else bisect_left(ts, limit)
                for k in range(i, j):
                    x, t = xs[k], ts[k]
                    self._step()
                    if x in rows or not rules.qualifies(buf, rows, labels, x, v):
                        continue
                    rows.append(x), labels.append(v), comps.append(d), times.append(t)
                    if d == last_comp:
                        self._record(sigs, rows, labels, comps, times, scope)
                    else:
                        search(rows, labels, comps, times, a)
                    rows.pop(), labels.pop(), comps.pop(), times.pop()

        lo, hi = buf.interval(r)
        for a in range(lo, hi + 1):
            if last_comp == 0:  # a one-row pattern: the start is the match
                self._record(sigs, [r], [first.var], [0], [a], scope)
            else:
                search([r], [first.var], [0], [a], a)
        out = []
        for key, (rows, labels, _comps, num, den, rng) in sigs.items():
            conf = Fraction(num, den)
            if self._keep(conf):
                out.append(self._emit(rows, labels, conf, rng))
        return out

    def _record(self, sigs, rows, labels, comps, times, scope) -> None:
        key = (tuple(rows), tuple(labels))
        entry = sigs.get(key)
        if entry is None:
            breaking, intervals, span = self._breaking(rows, labels, comps, scope)
            den = 1
            for x in rows:
                lo, hi = self.buf.interval(x)
                den *= hi - lo + 1
            extra = list(intervals.items()) if span is None else list(enumerate(span))
            for _x, (lo, hi) in extra:
                den *= hi - lo + 1
            entry = [list(rows), list(labels), (breaking, intervals, span), 0, den, None]
            sigs[key] = entry
        breaking, intervals, span = entry[2]
        num = 1
        if span is not None:
            for lo, hi in span:
                inside = max(0, min(times[-1], hi) - max(times[0], lo) + 1)
                num *= hi - lo + 1 - inside
        else:
            for x, gaps in breaking.items():
                lo, hi = intervals[x]
                inside = sum(max(0, min(times[k] - 1, hi) - max(times[k - 1] + 1, lo) + 1)
                             for k in gaps)
                num *= hi - lo + 1 - inside
        if num == 0:
            return
        entry[3] += num
        rng = entry[5]
        t1, tn = times[0], times[-1]
        entry[5] = (t1, t1, tn, tn) if rng is None else (
            min(rng[0], t1), max(rng[1], t1), min(rng[2], tn), max(rng[3], tn))


def _closed(interval: tuple[int, int]) -> tuple[int, int]:
    return interval[0], interval[1] + 1


def make_uncertain_engine(spec: MatchSpec, conditions=None, *, min_confidence: float = 0.0,
                          window: int | None = None, order: str = "query") -> UncertainEngine:
    """The event-based engine (see the package docstring for the contract; ``order``: see
    :class:`UncertainEngine`)."""
    return UncertainEngine(spec, conditions, min_confidence=min_confidence, window=window,
                           order=order)


def make_point_engine(spec: MatchSpec, conditions=None, *, min_confidence: float = 0.0,
                      window: int | None = None) -> PointEngine:
    """The point-based baseline, same contract."""
    return PointEngine(spec, conditions, min_confidence=min_confidence, window=window)
