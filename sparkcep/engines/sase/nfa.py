"""SASE+ NFA^b runtime for SKIP TILL NEXT MATCH and SKIP TILL ANY MATCH.

Automaton: one state per (component k, rows taken n) -- a singleton component is SASE's state
``s``; a quantified one is the pair ``p[1]``/``p[i]`` (n counts the iterations). Edges on a row:

* *take*: component k selects the row again (n < max, the row qualifies for k's variable);
* *proceed + begin*: n >= min, move to a later component j (every component strictly between is
  optional, no negation crossed on the way is violated) that selects the row;
* *ignore*: the row is skipped. SKIP TILL ANY MATCH: always possible (a clone). SKIP TILL NEXT
  MATCH: only when no take/proceed edge applies -- a row that can be selected is never skipped,
  and a row that can be selected in several ways (take and proceed) forks the run.

Engine state (``NfaEngine`` fields, all plain values):

* ``runs``: the active runs, each ``Run(k, n, flags, front)``; ``flags`` has one bit per negation
  the run is watching (a row satisfying it was seen since the run's last selected row).
* the **shared match buffer**: ``Node(row, var, key, preds, ykey, orow)`` objects. A run's selected
  rows are the path from its ``front`` node back to a node without predecessors; runs forked from a
  common prefix point at the same nodes (SASE+'s shared versioned buffer, with the Dewey version of a
  run replaced by the run's own pointer: a node is only reachable from the runs that selected it,
  so no incompatible pointer can be followed). A merged run's front holds several nodes and a node
  may have several predecessors: the buffer is a DAG whose paths are exactly the members' matches.
  ``ykey`` (youngest start key of any path through the node) prunes expired paths; ``orow`` (oldest
  start row) bounds the rows that must stay readable.
* ``store``: the columns of rows still referenced.

Run merging (SASE+ section 5.2.2): with no match-dependent condition anywhere in the pattern, two
runs in the same automaton state (k, n capped at the quantifier bounds, negation flags) select the
same future rows, so they are merged into one run whose front is the union of theirs. With
match-dependent conditions the future depends on the selected rows (opaque callables), so runs are
never merged.

Window pruning: a row with ``key - start_key >= within`` cannot join a path; fronts and
predecessor lists drop nodes whose youngest path start has expired, and runs with an empty front
end. SKIP TILL NEXT MATCH runs waiting in an accepting state (open trailing quantifier) are
reported when they expire or at the end of the partition; with ``MatchSpec.timed_out`` (WITH
TIMED OUT MATCHES) the runs that are not accepting then are reported too, as timed out (runs are
not merged then, so each is one partial match). A row whose key is NaN lies in no window: every
run ignores it (``_keyless_row``).
"""

from __future__ import annotations

from sparkcep.engines.contract import MatchEvent, RowBlock
from sparkcep.engines.run_context import RunContext
from sparkcep.engines.spec import MatchSpec, Strategy
from sparkcep.engines.sase.runs import EngineBase


class Node:
    """One selected row in the shared match buffer."""

    __slots__ = ("row", "var", "key", "preds", "ykey", "okey", "orow")

    def __init__(self, row: int, var: int, key, preds: tuple, ykey, okey, orow: int) -> None:
        self.row = row
        self.var = var
        self.key = key
        self.preds = preds
        self.ykey = ykey  # max start key over paths through this node
        self.okey = okey  # min start key over paths through this node
        self.orow = orow  # min start row over paths through this node


class Run:
    __slots__ = ("k", "n", "flags", "front", "starts", "path")

    def __init__(
        self, k: int, n: int, flags: int, front: tuple, starts: tuple = (), path=None
    ) -> None:
        self.k = k
        self.n = n
        self.flags = flags
        self.front = front  # tuple of Node
        # with match-dependent conditions: (rows, labels) lists of the run's path, the run's
        # "value vector" for opaque conditions (handed to the continuing child, copied on forks)
        self.path = path
        # SKIP TILL NEXT MATCH with WITHIN only: sorted distinct start keys of the member paths
        # not yet closed by the window
        self.starts = starts


def _new_node(row: int, var: int, key, front: tuple) -> Node:
    if not front:
        return Node(row, var, key, (), key, key, row)
    if len(front) == 1:
        f = front[0]
        return Node(row, var, key, front, f.ykey, f.okey, f.orow)
    return Node(
        row,
        var,
        key,
        front,
        max(f.ykey for f in front),
        min(f.okey for f in front),
        min(f.orow for f in front),
    )


def chain(node: Node) -> tuple[list[int], list[int]]:
    """Rows and labels of the single path ending at ``node`` (unmerged runs)."""
    rows: list[int] = []
    labels: list[int] = []
    while True:
        rows.append(node.row)
        labels.append(node.var)
        if not node.preds:
            break
        node = node.preds[0]
    rows.reverse()
    labels.reverse()
    return rows, labels


class NfaEngine(EngineBase):
    """SASE+ NFA^b engine (see the module docstring)."""

    name = "nfa"

    def __init__(self, spec: MatchSpec, conditions=None, *, merge: bool | None = None) -> None:
        super().__init__(spec, conditions)
        self.any = spec.strategy is Strategy.SKIP_TILL_ANY_MATCH
        self.has_conds = any(self.conds[c.var] is not None for c in self.pat.components) or any(
            self.conds[v] is not None for _p, v in self.pat.neg_list
        )
        self.merge = (not self.has_conds) if merge is None else (merge and not self.has_conds)
        self.track_starts = not self.any and self.within is not None
        # WITH TIMED OUT MATCHES (SKIP TILL NEXT MATCH, WITHIN): runs are reported one by one
        # when their window closes before they complete, so they are not merged
        self.timed_out = spec.timed_out and self.track_starts
        if self.timed_out:
            self.merge = False
        self.runs: list[Run] = []
        self.last_key = None
        comps = self.pat.components
        self._last = len(comps) - 1
        # capped iteration count: runs that differ only beyond these bounds behave the same
        self._cap = [c.max if c.max is not None else max(c.min, 1) for c in comps]

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
        keys = block.order_key.tolist() if block.order_key is not None else None
        rows_masks = block.masks.T.tolist()
        for i in range(m):
            key = keys[i] if keys is not None else 0
            self._row(base + i, key, rows_masks[i], out)
            self.last_key = key
        self.n_rows += m
        bound = self._bound()
        self._check_buffer(self.n_rows - bound)
        self.store.prune(bound)
        self._emit_unmatched(bound, out)
        return out

    def finish(self) -> list[MatchEvent]:
        out: list[MatchEvent] = []
        self._begin_call()
        if not self.any:
            raw = []
            for run in self.runs:
                if self._accepting(run):
                    if self.track_starts:
                        raw.extend(self._paths(run.front, None, only=set(run.starts)))
                    else:
                        raw.extend(self._paths(run.front, None))
                elif self.timed_out:  # the end of the partition closes its window
                    raw.extend((*found, True) for found in self._paths(run.front, None))
            self._emit(raw, out)
        self.runs = []
        self._emit_unmatched(self.n_rows, out)
        return out

    @property
    def buffered_rows(self) -> int:
        """Rows a future match or unmatched row may still refer to: from the oldest start row of
        any live path on (the executor drops older input batches)."""
        return self.n_rows - self._bound()

    def _bound(self) -> int:
        return min((f.orow for run in self.runs for f in run.front), default=self.n_rows)

    # -- the automaton ----------------------------------------------------------------------------

    def _accepting(self, run: Run) -> bool:
        return run.n >= self.pat.components[run.k].min and self.pat.accepting_from[run.k]

    def _terminal(self, k: int, n: int) -> bool:
        c = self.pat.components[k]
        return k == self._last and c.max is not None and n >= c.max

    def _qualifies(self, var: int, maskrow, r: int, rows, labels) -> bool:
        if not maskrow[var]:
            return False
        cond = self.conds[var]
        if cond is None:
            return True
        return bool(cond(RunContext(self.store, rows, labels, r, var)))

    def _row(self, r: int, key, maskrow, out: list[MatchEvent]) -> None:
        """Advance every run over row ``r`` (its ORDER BY ``key``, its masks), start the runs
        beginning at it, and report the matches it completes."""
        lo = None if self.within is None else key - self.within  # a path may continue iff start key > lo
        if lo is not None and lo != lo:
            self._keyless_row(r, maskrow)
            return
        raw: list = []
        new_runs: list[Run] = []
        self._add_steps(len(self.runs) + 1)
        for run in self.runs:
            if lo is not None and not self._within_window(run, lo, raw):
                continue
            self._step_run(run, r, key, maskrow, lo, raw, new_runs)
        self._begin_runs(r, key, maskrow, lo, raw, new_runs)
        if self.merge:
            new_runs = self._merge(new_runs)
        self.runs = new_runs
        if len(new_runs) > self.stats["peak_runs"]:
            self.stats["peak_runs"] = len(new_runs)
            if len(new_runs) > self.spec.max_live_runs:
                raise self._budget("max_live_runs")
        self.stats["steps"] = self.steps
        self._emit(raw, out)

    def _keyless_row(self, r: int, maskrow) -> None:
        """A row whose key is NaN under WITHIN lies in no window (docs/semantics.md, "WITHIN w"):
        it closes no window, starts and extends no run, and is only a row between for the
        negations every run watches (the ignore edge). The runtime clears such rows' masks
        (``runtime.within_keys``); this keeps an engine fed directly independent of how its input
        is split into batches (a NaN start key in a merged run's window bookkeeping made it so)."""
        self._add_steps(len(self.runs) + 1)
        runs = []
        for run in self.runs:
            if self.has_conds and run.path is None:
                run.path = chain(run.front[0])
            rows, labels = run.path if self.has_conds else ((), ())
            runs.append(self._ignored(run, r, maskrow, rows, labels))
        self.runs = self._merge(runs) if self.merge else runs

    def _within_window(self, run: Run, lo, raw: list) -> bool:
        """Window pruning before a row with ``key - within == lo``: report the SKIP TILL NEXT MATCH
        members whose window closes, drop the member paths that expired; False when none is left."""
        front = run.front
        if self.track_starts and run.starts and run.starts[0] <= lo:
            closed = [s for s in run.starts if s <= lo]
            run.starts = tuple(s for s in run.starts if s > lo)
            if self._accepting(run):
                raw.extend(self._paths(front, None, only=set(closed)))
            elif self.timed_out:  # its window closed before it completed
                raw.extend((*found, True) for found in self._paths(front, None, only=set(closed)))
        if any(f.ykey <= lo for f in front):
            front = tuple(f for f in front if f.ykey > lo)
            if not front:
                return False
            run.front = front
        return True

    def _moves(self, run: Run, r: int, maskrow, rows, labels) -> list[tuple[int, int]]:
        """The take and proceed edges of ``run`` on row ``r``: the states ``(component, rows
        taken)`` it can reach by selecting the row."""
        comps = self.pat.components
        qualifies = self._qualifies
        k, n = run.k, run.n
        c = comps[k]
        moves: list[tuple[int, int]] = []
        if c.can_take(n) and qualifies(c.var, maskrow, r, rows, labels):
            moves.append((k, n + 1))
        if n >= c.min:
            flags = run.flags
            between = self.pat.neg_bits_between
            for j in range(k + 1, len(comps)):
                if flags & between[(k, j)]:
                    break
                if qualifies(comps[j].var, maskrow, r, rows, labels):
                    moves.append((j, 1))
                if comps[j].min > 0:
                    break
        return moves

    def _ignored(self, run: Run, r: int, maskrow, rows, labels) -> Run:
        """The ignore edge: the run stays where it is, noting the negations row ``r`` violates."""
        flags = run.flags
        if run.n >= self.pat.components[run.k].min:
            for bit, v in self.pat.neg_watch[run.k]:
                if not flags >> bit & 1 and self._qualifies(v, maskrow, r, rows, labels):
                    flags |= 1 << bit
        if flags == run.flags:
            return run
        return Run(run.k, run.n, flags, run.front, run.starts, run.path)

    def _step_run(self, run: Run, r: int, key, maskrow, lo, raw: list, new_runs: list) -> None:
        """The runs ``run`` becomes on row ``r`` (ignore, take, proceed)."""
        comps = self.pat.components
        front = run.front
        if self.has_conds:
            if run.path is None:
                run.path = chain(front[0])
            rows, labels = run.path
        else:
            rows = labels = ()
        moves = self._moves(run, r, maskrow, rows, labels)
        stays = self.any or not moves
        if stays:
            new_runs.append(self._ignored(run, r, maskrow, rows, labels))
        for i, (j, nn) in enumerate(moves):
            var = comps[j].var
            node = _new_node(r, var, key, front)
            path = None
            if self.has_conds:
                if stays or i < len(moves) - 1:
                    path = (rows + [r], labels + [var])
                else:  # the last child continues the run: extend its lists in place
                    rows.append(r)
                    labels.append(var)
                    path = (rows, labels)
            self._arrive(j, nn, node, lo, raw, new_runs, run.starts, path)

    def _begin_runs(self, r: int, key, maskrow, lo, raw: list, new_runs: list) -> None:
        """The runs beginning at row ``r``."""
        comps = self.pat.components
        for j in self.pat.start_components:
            if self._qualifies(comps[j].var, maskrow, r, (), ()):
                node = Node(r, comps[j].var, key, (), key, key, r)
                path = ([r], [comps[j].var]) if self.has_conds else None
                starts = (key,) if self.track_starts else ()
                self._arrive(j, 1, node, lo, raw, new_runs, starts, path)

    def _arrive(
        self, j: int, n: int, node: Node, lo, raw: list, new_runs: list, starts, path=None
    ) -> None:
        """A run reached (j, n) by selecting ``node``'s row."""
        self.stats["runs"] += 1
        accepting = n >= self.pat.components[j].min and self.pat.accepting_from[j]
        terminal = self._terminal(j, n)
        if accepting and (self.any or terminal):
            if self.track_starts:
                raw.extend(self._paths((node,), lo, only=set(starts)))
            else:
                raw.extend(self._paths((node,), lo))
        if not terminal:
            new_runs.append(Run(j, n, 0, (node,), starts, path))

    def _merge(self, runs: list[Run]) -> list[Run]:
        by_state: dict = {}
        cap = self._cap
        for run in runs:
            st = (run.k, min(run.n, cap[run.k]), run.flags)
            other = by_state.get(st)
            if other is None:
                by_state[st] = run
            else:
                seen = set(map(id, other.front))
                front = other.front + tuple(f for f in run.front if id(f) not in seen)
                starts = other.starts
                if run.starts:
                    starts = tuple(sorted(set(starts) | set(run.starts)))
                by_state[st] = Run(other.k, other.n, other.flags, front, starts)
        return list(by_state.values())

    # -- match construction -----------------------------------------------------------------------

    def _paths(self, front: tuple, lo, *, only: set | None = None) -> list:
        """Every path ending at a node of ``front`` whose start key s satisfies ``s > lo`` (the
        window; lo None = no window) and, when ``only`` is given, ``s in only``."""
        found = []
        lower = lo
        upper = None
        if only is not None:
            if not only:
                return []
            lower_only = min(only)
            upper = max(only)
            lower = lower_only if lower is None else max(lower, lower_only)
            strict = False
        else:
            strict = True
        steps = 0
        for f in front:
            trail: list = []  # trail[d] = node at depth d (from the end) of the current path
            stack = [(f, 0)]
            while stack:
                node, depth = stack.pop()
                steps += 1
                if steps > 4096:  # count as we go: one path search can be exponential
                    self._add_steps(steps)
                    steps = 0
                del trail[depth:]
                trail.append(node)
                if not node.preds:
                    s = node.key
                    if only is not None:
                        ok = s in only and (lo is None or s > lo)
                    else:
                        ok = lower is None or s > lower
                    if ok:
                        found.append(
                            (
                                tuple(x.row for x in reversed(trail)),
                                tuple(x.var for x in reversed(trail)),
                            )
                        )
                        self._hold(len(trail))
                        if self.matches_out + len(found) > self.spec.max_matches:
                            raise self._budget("max_matches")
                    continue
                for p in node.preds:
                    if lower is not None and (p.ykey < lower or (strict and p.ykey == lower)):
                        continue
                    if upper is not None and p.okey > upper:
                        continue
                    stack.append((p, depth + 1))
        self._add_steps(steps)
        return found

    # -- introspection ----------------------------------------------------------------------------

    def live_runs(self) -> int:
        return len(self.runs)
