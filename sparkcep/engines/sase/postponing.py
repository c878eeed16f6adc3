"""SASE++ postponing for SKIP TILL ANY MATCH.

Pattern matching and result construction are split (SASE++ section 5.1):

1. **Pattern matching, shared across runs.** Only predicates that are safe to evaluate early run on
   arrival: the row-local masks (Catalyst's part of DEFINE), which are true- *and* false-value
   consistent -- a row that fails its mask can never be selected, a row that passes stays a
   candidate. They build one *match structure* shared by every start row: per variable, the rows
   in the window whose mask holds (``cand[v]``). SASE++'s intermediate match M of a start row s is
   the slice of these lists after s; no run is created per partial match.
2. **Result construction.** When a row e can be the last row of a match (its mask holds for a
   component after which every component is optional), matches ending at e are enumerated by a
   depth-first walk over the candidate lists, checking the postponed predicates -- the
   match-dependent conditions (iterator predicates, running aggregates: RUNNING semantics over the
   rows chosen so far), negations (no qualifying row in the gap) and WITHIN -- as each row is
   chosen, so a failing prefix prunes every extension (sound: a condition sees only the prefix).
   A greedy feasibility test (can the remaining mandatory components still be filled before e?)
   cuts dead branches, so without match-dependent conditions or negation every explored branch
   ends in a match: the cost is proportional to the output.

Engine state (``PostponingEngine`` fields, plain values): ``keys`` (ORDER BY key of every buffered
row, rows ``buf_start ..``), ``cand[v]`` (sorted candidate rows per variable, with a head index),
``store`` (columns of the buffered rows). Rows leave the buffer once their key is ``<= key - within``
of the newest row: no future match can contain them. Without WITHIN the buffer grows with the
partition (that is the semantics: any earlier row may join a later match); the budgets
(``sparkcep.engines.budgets``: steps, matches, open branches of the search, buffered rows plus the
rows of matches not yet output) bound the work and the memory. The search is an explicit stack
(``_Search``), so a match may have any number of rows.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from sparkcep.engines.contract import MatchEvent, RowBlock
from sparkcep.engines.run_context import RunContext
from sparkcep.engines.spec import MatchSpec, Strategy
from sparkcep.engines.sase.runs import EngineBase
from sparkcep.errors import InternalError


class PostponingEngine(EngineBase):
    name = "postpone"

    def __init__(self, spec: MatchSpec, conditions=None) -> None:
        super().__init__(spec, conditions)
        if spec.strategy is not Strategy.SKIP_TILL_ANY_MATCH:
            raise InternalError("postponing implements SKIP TILL ANY MATCH only")
        pat = self.pat
        self.vars = sorted({c.var for c in pat.components} | {v for _p, v in pat.neg_list})
        self.positive = sorted({c.var for c in pat.components})
        self.negated = sorted({v for _p, v in pat.neg_list})
        # candidates per variable: rows a component may select, and (``gap``) rows that violate
        # a negation; they differ only in the rows whose key is NaN under WITHIN (in no window,
        # still rows between for negations)
        self.cand: dict[int, list[int]] = {v: [] for v in self.positive}
        self.head: dict[int, int] = {v: 0 for v in self.positive}
        self.gap: dict[int, list[int]] = {v: [] for v in self.negated}
        self.gap_head: dict[int, int] = {v: 0 for v in self.negated}
        self.keys: list = []
        self.buf_start = 0
        self.ends = [j for j, c in enumerate(pat.components) if pat.accepting_from[j]]
        self.stats.update({"structures": 0, "enumerated": 0})

    # -- public -----------------------------------------------------------------------------------

    def feed(self, block: RowBlock) -> list[MatchEvent]:
        self._check_block(block)
        out: list[MatchEvent] = []
        m = len(block)
        if m == 0:
            return out
        self._begin_call()
        base = self.n_rows
        self.store.add(base, block)
        keys = block.order_key.tolist() if block.order_key is not None else [0] * m
        masks = block.masks
        rows_masks = masks.T.tolist()
        comps = self.pat.components
        starts = self.pat.start_components
        for i in range(m):
            e = base + i
            key = keys[i]
            mrow = rows_masks[i]
            self.keys.append(key)
            for v in self.negated:
                if mrow[v]:
                    self.gap[v].append(e)
            if key != key and self.within is not None:  # NaN: in no window
                self._add_steps(1)
                continue
            for v in self.positive:
                if mrow[v]:
                    self.cand[v].append(e)
            if self.within is not None:
                self._expire(key - self.within)
            self._check_buffer(e + 1 - self.buf_start)
            if any(mrow[comps[j].var] for j in starts):
                self.stats["structures"] += 1
            raw: list = []
            for j in self.ends:
                if mrow[comps[j].var]:
                    self._enumerate(e, j, raw)
            self._add_steps(1)
            self._emit(raw, out)
        self.n_rows += m
        self.store.prune(self.buf_start)
        self._emit_unmatched(self.buf_start, out)
        self.stats["steps"] = self.steps
        return out

    @property
    def buffered_rows(self) -> int:
        """Rows a future match or unmatched row may still refer to: the window (the executor
        drops older input batches)."""
        return self.n_rows - self.buf_start

    def finish(self) -> list[MatchEvent]:
        out: list[MatchEvent] = []
        self._emit_unmatched(self.n_rows, out)
        return out

    # -- buffer -----------------------------------------------------------------------------------

    def _key(self, row: int):
        return self.keys[row - self.buf_start]

    def _expire(self, lo) -> None:
        """Drop rows with key <= lo (and NaN keys before them: such a row is selected by no
        match, and no later match has rows on both sides of it)."""
        keys = self.keys
        drop = 0
        while drop < len(keys) and (keys[drop] <= lo or keys[drop] != keys[drop]):
            drop += 1
        if not drop:
            return
        del keys[:drop]
        self.buf_start += drop
        for lists, heads in ((self.cand, self.head), (self.gap, self.gap_head)):
            for v, lst in lists.items():
                h = bisect_left(lst, self.buf_start, heads[v])
                if h > 64 and h * 2 > len(lst):
                    del lst[:h]
                    h = 0
                heads[v] = h

    # -- result construction ----------------------------------------------------------------------

    def _enumerate(self, e: int, j: int, raw: list) -> None:
        """Append every match whose last row is ``e``, selected by component ``j``: one search per
        candidate first row (the rows of a start component within the window, before ``e``)."""
        comps = self.pat.components
        search = _Search(self, e, j, raw)
        keys, bs = self.keys, self.buf_start
        lo = None if self.within is None else keys[e - bs] - self.within
        for c0 in self.pat.start_components:
            if c0 > j:
                break
            var0 = comps[c0].var
            lst = self.cand[var0]
            i = self.head[var0]
            if lo is not None:  # first candidate with key > lo
                while i < len(lst) and keys[lst[i] - bs] <= lo:
                    i += 1
            while i < len(lst):
                r0 = lst[i]
                i += 1
                if r0 > e:
                    break
                if r0 == e:
                    if c0 == j and comps[j].min <= 1 and search.cond_ok(var0, e, (), ()):
                        search.found((e,), (var0,))
                    break
                if search.feasible(c0, 1, r0) and search.cond_ok(var0, r0, (), ()):
                    search.run(c0, r0, var0)
        search.flush_steps()

    # -- A-Seq style counting (no match construction) ---------------------------------------------

    def count_matches_ending_at(self, e: int) -> int | None:
        """The number of matches whose last row is buffered row ``e``, counted by dynamic
        programming over the candidate lists without building them (A-Seq's prefix counting).
        Available without match-dependent conditions and negation (None otherwise)."""
        pat = self.pat
        if pat.neg_list or any(self.conds[c.var] is not None for c in pat.components):
            return None
        comps = pat.components
        bs = self.buf_start
        lo = None if self.within is None else self.keys[e - bs] - self.within
        rows = [r for r in range(max(bs, 0), e + 1) if lo is None or self.keys[r - bs] > lo]
        # ways[(k, n')] = number of partial matches ending at the current row in state (k, n'),
        # n' capped at the component's bound (counts above min behave alike when unbounded)
        total = 0
        states: dict = {}
        member = {v: set(self.cand[v][self.head[v]:]) for v in {c.var for c in comps}}
        for r in rows:
            new: dict = {}
            for j in pat.start_components:
                if r in member[comps[j].var]:
                    new[(j, 1)] = new.get((j, 1), 0) + 1
            for (k, n), w in states.items():
                c = comps[k]
                if c.can_take(n) and r in member[c.var]:
                    nn = n + 1 if c.max is not None else min(n + 1, max(c.min, 1))
                    new[(k, nn)] = new.get((k, nn), 0) + w
                if n >= c.min:
                    for t in range(k + 1, len(comps)):
                        if r in member[comps[t].var]:
                            new[(t, 1)] = new.get((t, 1), 0) + w
                        if comps[t].min > 0:
                            break
            if r == e:
                for (k, n), w in new.items():
                    if n >= comps[k].min and pat.accepting_from[k]:
                        total += w
            for st, w in new.items():
                states[st] = states.get(st, 0) + w
        return total


class _Search:
    """Result construction for one last row ``e`` closing component ``j`` (SASE++ section 5.1):
    a depth-first walk over the candidate lists, as an explicit stack of frames (no recursion:
    a match can have as many rows as the window), checking the postponed predicates as each row
    is chosen.

    A frame is ``[targets, target index, candidate index, last row]``: the states the partial
    match can move to from its last row (``_targets``), which one is being tried and where in that
    target variable's candidate list. The partial match itself is ``rows``/``labels``, one entry
    per frame. Every frame pushed is one step; the open frames are the live partial matches."""

    def __init__(self, engine: PostponingEngine, e: int, j: int, raw: list) -> None:
        self.engine = engine
        self.pat = engine.pat
        self.comps = engine.pat.components
        self.conds = engine.conds
        self.cand = engine.cand
        self.head = engine.head
        self.store = engine.store
        self.e = e
        self.j = j
        self.raw = raw
        self.steps = 0
        self.max_live = engine.spec.max_live_runs

    def flush_steps(self) -> None:
        engine = self.engine
        engine._add_steps(self.steps)
        engine.stats["enumerated"] += self.steps
        self.steps = 0

    def found(self, rows: tuple, labels: tuple) -> None:
        """A match: keep it, counting it against the match and buffered-row budgets."""
        engine = self.engine
        self.raw.append((rows, labels))
        engine._hold(len(rows))
        if engine.matches_out + len(self.raw) > engine.spec.max_matches:
            raise engine._budget("max_matches")

    def cond_ok(self, var: int, r: int, rows, labels) -> bool:
        c = self.conds[var]
        return c is None or bool(c(RunContext(self.store, rows, labels, r, var)))

    def feasible(self, k: int, n: int, last: int) -> bool:
        """Greedy: can components k..j get their minimum rows in (last, e), e closing j?"""
        comps, cand, head, e, j = self.comps, self.cand, self.head, self.e, self.j
        ptr = last
        for t in range(k, j + 1):
            need = comps[t].min - (n if t == k else 0) - (1 if t == j else 0)
            if need <= 0:
                continue
            var = comps[t].var
            lst = cand[var]
            idx = bisect_right(lst, ptr, head[var]) + need - 1
            if idx >= len(lst) or lst[idx] >= e:
                return False
            ptr = lst[idx]
        return True

    def gap_ok(self, bits: int, last: int, r: int, rows, labels) -> bool:
        """No row of a negation in ``bits`` lies strictly between ``last`` and ``r``."""
        cand, head, conds = self.engine.gap, self.engine.gap_head, self.conds
        for bit, (_p, v) in enumerate(self.pat.neg_list):
            if not bits >> bit & 1:
                continue
            lst = cand[v]
            a = bisect_right(lst, last, head[v])
            b = bisect_left(lst, r, a)
            if a == b:
                continue
            if conds[v] is None:
                return False
            for g in lst[a:b]:
                if self.cond_ok(v, g, rows, labels):
                    return False
        return True

    def _targets(self, k: int, n: int) -> list:
        """From state (component k, n rows taken): ``(t, n', variable, negation bits)`` of each
        state the next chosen row may put the partial match in, in preference order."""
        comps, j = self.comps, self.j
        c = comps[k]
        between = self.pat.neg_bits_between
        targets = []
        if c.can_take(n):
            targets.append((k, n + 1, c.var, 0))
        if n >= c.min:
            for t in range(k + 1, j + 1):
                targets.append((t, 1, comps[t].var, between[(k, t)]))
                if comps[t].min > 0:
                    break
        return targets

    def _next_row(self, frame: list, rows: list, labels: list):
        """Advance ``frame`` to its next extension: ``(t, n', row, variable)``, or None when it has
        none left. Matches closed by ``e`` on the way are recorded."""
        targets, ti, i, last = frame
        e, j = self.e, self.j
        cand, head = self.cand, self.head
        while ti < len(targets):
            t, nn, var, bits = targets[ti]
            lst = cand[var]
            if i < 0:
                i = bisect_right(lst, last, head[var])
            while i < len(lst):
                r = lst[i]
                i += 1
                if r > e:
                    break
                if r == e:
                    if t == j and nn >= self.comps[j].min:
                        if (not bits or self.gap_ok(bits, last, r, rows, labels)) and self.cond_ok(
                            var, r, rows, labels
                        ):
                            self.found(tuple(rows) + (r,), tuple(labels) + (var,))
                    break
                if not self.feasible(t, nn, r):
                    continue
                if bits and not self.gap_ok(bits, last, r, rows, labels):
                    continue
                if not self.cond_ok(var, r, rows, labels):
                    continue
                frame[1], frame[2] = ti, i
                return t, nn, r, var
            ti += 1
            i = -1
        frame[1] = ti
        return None

    def run(self, c0: int, r0: int, var0: int) -> None:
        """Every match of this search that starts with row ``r0`` selected by component ``c0``."""
        rows, labels = [r0], [var0]
        stack = [[self._targets(c0, 1), 0, -1, r0]]
        self.steps += 1
        while stack:
            step = self._next_row(stack[-1], rows, labels)
            if step is None:
                stack.pop()
                rows.pop()
                labels.pop()
                continue
            t, nn, r, var = step
            rows.append(r)
            labels.append(var)
            stack.append([self._targets(t, nn), 0, -1, r])
            self.steps += 1
            if self.steps > 4096:
                self.flush_steps()
                if len(stack) > self.max_live:
                    raise self.engine._budget("max_live_runs")
