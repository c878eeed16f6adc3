"""EXPLAIN ANALYZE on the executors: one partition run by the real engine, observed, and run a
second time by an instrumented simulation of the pattern's automaton that says where runs die.

Nothing here is on the normal query path: the registered function of a normal query drives a
``PartitionRunner``; only ``EXPLAIN ANALYZE`` registers :class:`AnalyzeFunction`, whose
:class:`AnalyzeRunner` builds the same engine (``engines.selection``) and the same input blocks,
counts its matches and the rows they cover, and feeds the same blocks to :class:`Simulator`.

The simulator walks the automaton ``sparkcep.compiler.explain`` draws (Thompson's construction,
one edge per pattern variable): a *run* is one partial match (the rows selected so far and their
variables) sitting in the state its last row led to. On each row, a run takes every variable edge
the row satisfies (mask from Catalyst, match-dependent condition evaluated on the run), forking
when several apply; what happens otherwise depends on the selection strategy:

* STRICT CONTIGUITY: a run that cannot take the row dies there ("no way on"); a run starts at
  every row (the engine itself starts only where AFTER MATCH SKIP lets it: matches out are the
  engine's, not the simulation's).
* SKIP TILL NEXT MATCH: a run that cannot take the row ignores it; runs start at the rows that can
  begin a match.
* SKIP TILL ANY MATCH: a run ignores every row too (a copy stays), so every combination is a run.

A run dies by WITHIN when a row's key is at or past its first row's key + the window, by a
negation when a row it ignores satisfies a negated variable it must not see, at the partition's
end when it is still incomplete, or by the budget (``spec.max_live_runs`` runs alive at once,
``STEP_BUDGET`` steps per partition): then the simulation stops there and its counts are marked
as a sample. Reaching the accepting state counts as "completed" (a run may complete and go on:
greedy quantifiers); the engine's match count is reported separately.

Per partition the longest run that died (the closest miss) is kept, with the row that ended it,
the variables it waited for and the values their DEFINE read there (``DefineProbe``).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa

from sparkcep.compiler.explain_analyze import END, EPS, NEG, START, TRAIL, VAR, Graph  # noqa: F401
from sparkcep.engines.contract import Match, MatchSummaries, RowBlock
from sparkcep.engines.run_context import RunContext
from sparkcep.engines.spec import MatchSpec, Strategy

#: simulation steps (run x row) per partition before the simulation stops (counts = a sample)
STEP_BUDGET = 2_000_000
#: runs alive at once in the simulation, at most (besides ``spec.max_live_runs``)
LIVE_CAP = 20_000


DIED_REASONS = ("no_way_on", "within", "negation", "partition_end", "budget")


@dataclass(frozen=True)
class Closure:
    """Where a run in a state can go without consuming a row: the variable edges it may take next
    (with the negation edges crossed on the way), whether it has completed, and the trailing
    negation edges it waits behind."""

    moves: tuple[tuple[int, frozenset], ...]  # (variable edge, negation edges crossed)
    accept: bool
    trailing: tuple[int, ...]


class _Run:
    """One partial match. Its rows are a chain of ``(row, var, parent)`` nodes shared with the
    runs it was forked from (taking a row costs O(1), not a copy of the rows)."""

    __slots__ = ("state", "node", "first", "length", "violated", "key0", "waiting", "done",
                 "rejected", "_path")

    def __init__(self, state, node, first, length, violated, key0, waiting=None,
                 done=False) -> None:
        self.state = state
        self.node = node  # (last row, its variable, the parent's node), or None: no row yet
        self.first = first  # the first row (-1: none)
        self.length = length  # rows selected
        self.violated = violated  # frozenset of negation edges a row seen since the last row broke
        self.key0 = key0  # the first row's ORDER BY key (WITHIN)
        self.waiting = waiting  # a trailing negation edge this run waits behind, else None
        self.done = done  # the run (a shorter form of it) reached the accepting state
        # SASE: the last row it skipped whose variable's row-local part held but whose
        # match-dependent part did not: (row, var), or None
        self.rejected = None
        self._path = None

    def take(self, state, row: int, var: int, key) -> "_Run":
        return _Run(state, (row, var, self.node), self.first if self.node else row,
                    self.length + 1, frozenset(), self.key0 if self.node else key, done=self.done)

    def copy(self, **changes) -> "_Run":
        run = _Run(self.state, self.node, self.first, self.length, self.violated, self.key0,
                   self.waiting, self.done)
        run.rejected, run._path = self.rejected, self._path
        for name, value in changes.items():
            setattr(run, name, value)
        return run

    def path(self) -> tuple[list, list]:
        """(rows, labels) in row order (made once per run, for conditions and reports)."""
        if self._path is None:
            rows, labels = [], []
            node = self.node
            while node is not None:
                rows.append(node[0])
                labels.append(node[1])
                node = node[2]
            rows.reverse()
            labels.reverse()
            self._path = (rows, labels)
        return self._path

    @property
    def rows(self) -> tuple:
        return tuple(self.path()[0])

    @property
    def labels(self) -> tuple:
        return tuple(self.path()[1])


class _Store:
    """Python values of the columns the conditions read, by absolute row (pruned)."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.columns: list[tuple] = []

    def add(self, base: int, columns: tuple) -> None:
        self.starts.append(base)
        self.columns.append(columns)

    def value(self, column: int, row: int):
        import bisect

        index = bisect.bisect_right(self.starts, row) - 1
        return self.columns[index][column][row - self.starts[index]]

    def prune(self, row: int) -> None:
        while len(self.starts) > 1 and self.starts[1] <= row:
            self.starts.pop(0)
            self.columns.pop(0)


@dataclass
class Miss:
    """The longest run of a partition that died (a closest miss)."""

    rows: tuple
    labels: tuple
    state: int
    row: int | None  # the row that ended it (None: the partition's end)
    reason: str
    waiting: tuple  # the variables it could have taken next
    negated: int | None = None  # the negated variable a row satisfied
    values: dict = field(default_factory=dict)  # variable -> [(operand text, value)], row-local etc.
    keys: tuple = ()  # (first key, key at the row) for WITHIN
    row_values: dict = field(default_factory=dict)  # the ending row's input columns
    rejected: dict | None = None  # SASE: the last skipped row whose match-dependent DEFINE failed
    first_values: dict = field(default_factory=dict)  # the run's first row's input columns

    def as_json(self, names) -> dict:
        return {"rows": list(self.rows), "labels": [names[v] for v in self.labels],
                "state": self.state, "row": self.row, "reason": self.reason,
                "waiting": [names[v] for v in self.waiting],
                "negated": None if self.negated is None else names[self.negated],
                "values": self.values, "row_values": self.row_values, "keys": list(self.keys),
                "rejected": self.rejected, "first_row_values": self.first_values}


class Simulator:
    """The instrumented automaton over one partition (see the module docstring)."""

    def __init__(self, spec: MatchSpec, conditions: dict, probe=None,
                 step_budget: int = STEP_BUDGET) -> None:
        self.spec = spec
        self.graph = Graph.of(spec)
        n_vars = len(spec.variable_names)
        self.conds = [conditions.get(v) for v in range(n_vars)]
        self.strategy = spec.strategy
        self.within = spec.within
        self.probe = probe  # (run, row, var) -> {operand text: value}, or None
        self.step_budget = step_budget
        self.live_cap = min(spec.max_live_runs, LIVE_CAP)
        self.runs: list[_Run] = []
        self.store = _Store()
        self.n_rows = 0
        self.steps = 0
        self.stopped: str | None = None  # why the simulation stopped early (a sample)
        self._closures: dict = {}
        # counts
        self.entered = [0] * self.graph.count
        self.completed = 0
        self.ended_after_completing = 0
        self.died = {reason: [0] * self.graph.count for reason in DIED_REASONS}
        self.taken = [0] * len(self.graph.edges)
        self.started = 0
        self.row_local_true = [0] * n_vars
        self.condition_evaluated = [0] * n_vars
        self.condition_true = [0] * n_vars
        self.miss: Miss | None = None
        self._rejected = None

    # -- the automaton's moves ---------------------------------------------------------------------

    def closure(self, state: int, violated: frozenset, first: bool) -> Closure:
        """From ``state``: the variable edges reachable over ε (negations not yet broken; ``^`` only
        before a run's first row at the partition's first row, ``first``)."""
        key = (state, violated, first)
        found = self._closures.get(key)
        if found is not None:
            return found
        graph = self.graph
        moves: dict[int, frozenset] = {}
        trailing: list[int] = []
        accept = False
        stack = [(state, frozenset())]
        seen = set()
        while stack:
            here, crossed = stack.pop()
            if (here, crossed) in seen:
                continue
            seen.add((here, crossed))
            if here == graph.accept:
                accept = True
            for edge in graph.out[here]:
                kind, _var = graph.kinds[edge]
                target = graph.edges[edge][1]
                if kind == VAR:
                    moves.setdefault(edge, crossed)
                elif kind == EPS:
                    stack.append((target, crossed))
                elif kind == NEG:
                    if edge not in violated:
                        stack.append((target, crossed | {edge}))
                elif kind == TRAIL:
                    trailing.append(edge)
                elif kind == START:
                    if first:
                        stack.append((target, crossed))
                # END ($) is passed only at the partition's end (``_at_end``)
        found = Closure(tuple(sorted(moves.items())), accept, tuple(trailing))
        self._closures[key] = found
        return found

    def _reaches_accept_at_end(self, state: int, violated: frozenset) -> bool:
        graph = self.graph
        stack, seen = [state], set()
        while stack:
            here = stack.pop()
            if here in seen:
                continue
            seen.add(here)
            if here == graph.accept:
                return True
            for edge in graph.out[here]:
                kind = graph.kinds[edge][0]
                if kind in (EPS, END) or (kind == NEG and edge not in violated):
                    stack.append(graph.edges[edge][1])
        return False

    def _qualifies(self, var: int, mask_row, row: int, run: _Run) -> bool:
        if not mask_row[var]:
            return False
        cond = self.conds[var]
        if cond is None:
            return True
        self.condition_evaluated[var] += 1
        rows, labels = run.path()
        ok = bool(cond(RunContext(self.store, rows, labels, row, var)))
        if ok:
            self.condition_true[var] += 1
        else:
            self._rejected = (row, var)
        return ok

    # -- feeding -----------------------------------------------------------------------------------

    def feed(self, block: RowBlock) -> None:
        m = len(block)
        if m == 0:
            return
        base = self.n_rows
        self.n_rows += m
        for v in range(block.masks.shape[0]):
            self.row_local_true[v] += int(np.count_nonzero(block.masks[v]))
        if self.stopped is not None:
            return
        self.store.add(base, block.columns)
        keys = block.order_key.tolist() if block.order_key is not None else None
        masks = block.masks.T.tolist()
        for i in range(m):
            key = keys[i] if keys is not None else 0
            self._row(base + i, key, masks[i], block, i)
            if self.stopped is not None:
                self.runs = []
                break
        oldest = min((run.first for run in self.runs if run.node), default=self.n_rows)
        self.store.prune(oldest)

    def finish(self) -> None:
        if self.stopped is None:
            for run in self.runs:
                if run.waiting is not None:  # the partition's end closes its window
                    self._complete_trailing(run)
                elif self._reaches_accept_at_end(run.state, run.violated) and self._needs_end(run):
                    self.completed += 1
                    self.entered[self.graph.accept] += 1
                elif run.node is not None:
                    self._die(run, "partition_end", None, None)
        self.runs = []

    def _needs_end(self, run: _Run) -> bool:
        """Whether the run completes only with ``$`` (else it was counted when it completed)."""
        return not self.closure(run.state, run.violated, False).accept

    def _row(self, row: int, key, mask_row, block: RowBlock, i: int) -> None:
        strict = self.strategy is Strategy.STRICT_CONTIGUITY
        keep_ignored = not strict
        fresh = _Run(self.graph.start, None, -1, 0, frozenset(), key)
        survivors: list[_Run] = []
        self.steps += len(self.runs) + 1
        if self.steps > self.step_budget:
            self._stop(f"the simulation stopped after {self.step_budget} steps in a partition, "
                       f"at row {row}", self.runs, row)
            return
        lo = None if self.within is None else key - self.within
        for run in [*self.runs, fresh]:
            is_fresh = run is fresh
            if run.waiting is not None:
                self._trailing_step(run, row, key, mask_row, lo, survivors)
                continue
            if lo is not None and run.node is not None and run.key0 <= lo:
                self._die(run, "within", row, key)
                continue
            closure = self.closure(run.state, run.violated, is_fresh and row == 0)
            self._rejected = None
            moves = []
            for edge, _crossed in closure.moves:
                var = self.graph.kinds[edge][1]
                if self._qualifies(var, mask_row, row, run):
                    moves.append((edge, var))
            if is_fresh:
                if moves or strict:
                    self.started += 1
                    self.entered[run.state] += 1
                if not moves:
                    if strict:
                        self._die(run, "no_way_on", row, key, closure)
                    continue
            for edge, var in moves:
                self.taken[edge] += 1
                target = self.graph.edges[edge][1]
                child = run.take(target, row, var, key)
                self._arrive(child, survivors)
            if moves and not (keep_ignored and self.strategy is Strategy.SKIP_TILL_ANY_MATCH):
                continue
            if not moves and strict:
                self._die(run, "no_way_on", row, key, closure)
                continue
            if is_fresh:
                continue
            rejected = self._rejected
            ignored = self._ignore(run, closure, row, mask_row)
            if ignored is not None:
                if rejected is not None and not moves:
                    ignored.rejected = rejected
                survivors.append(ignored)
        if len(survivors) > 1:
            survivors = self._distinct(survivors, strict)
        if len(survivors) > self.live_cap:
            self._stop(f"more than {self.live_cap} runs were alive at once at row {row}; the "
                       "simulation stopped there", survivors, row)
            survivors = []
        self.runs = survivors

    def _stop(self, why: str, runs: list, row: int) -> None:
        """Past the budget: the live runs are counted as dropped by it, the longest one is a
        miss, and the counts of the partition are a sample."""
        self.stopped = why
        for run in runs:
            if not run.done:
                self.died["budget"][run.state] += 1
        longest = max((run for run in runs if not run.done), key=lambda r: r.length, default=None)
        if longest is not None:
            self._note_miss(longest, "budget", row, None, ())

    def _distinct(self, runs: list, strict: bool) -> list:
        """The runs without repeats (two ways through ε edges to one state and the same rows).
        Under strict contiguity without match-dependent conditions, runs from one start row in one
        state have one future: the first (preferred) is kept."""
        seen = set()
        out = []
        plain = strict and not any(c is not None for c in self.conds)
        for run in runs:
            if plain:
                key = (run.state, run.violated, run.waiting, run.first, run.length)
            else:
                key = (run.state, run.violated, run.waiting, run.node)
            if key not in seen:
                seen.add(key)
                out.append(run)
        return out

    def _arrive(self, run: _Run, survivors: list) -> None:
        self.entered[run.state] += 1
        closure = self.closure(run.state, run.violated, False)
        if closure.accept:
            run.done = True
            self.completed += 1
            self.entered[self.graph.accept] += run.state != self.graph.accept
        for edge in closure.trailing:
            waiter = run.copy(state=self.graph.edges[edge][0], waiting=edge)
            survivors.append(waiter)
        if closure.moves or self._reaches_accept_at_end(run.state, run.violated) and not closure.accept:
            survivors.append(run)

    def _ignore(self, run: _Run, closure: Closure, row: int, mask_row) -> _Run | None:
        """The run skips the row (SASE): a negation it crossed that the row satisfies breaks."""
        broken = set()
        for _edge, crossed in closure.moves:
            for neg in crossed:
                var = self.graph.kinds[neg][1]
                if neg not in broken and self._qualifies(var, mask_row, row, run):
                    broken.add(neg)
        if not broken:
            return run
        violated = run.violated | broken
        after = self.closure(run.state, violated, False)
        if not after.moves:
            self._die(run, "negation", row, None, closure,
                      negated=self.graph.kinds[min(broken)][1])
            return None
        return run.copy(violated=violated)

    def _trailing_step(self, run: _Run, row: int, key, mask_row, lo, survivors) -> None:
        if lo is not None and run.key0 <= lo:  # the window closed: no negated row came
            self._complete_trailing(run)
            return
        var = self.graph.kinds[run.waiting][1]
        if self._qualifies(var, mask_row, row, run):
            self.died["negation"][run.state] += 1
            self._note_miss(run, "negation", row, None, (), negated=var)
            return
        survivors.append(run)

    def _complete_trailing(self, run: _Run) -> None:
        self.taken[run.waiting] += 1
        self.completed += 1
        self.entered[self.graph.accept] += 1

    def _die(self, run: _Run, reason: str, row, key, closure: Closure | None = None,
             negated: int | None = None) -> None:
        if run.done:  # a completed run that could not go on: it ended, it did not die
            self.ended_after_completing += 1
            return
        self.died[reason][run.state] += 1
        if closure is None:
            closure = self.closure(run.state, run.violated, False)
        waiting = tuple(sorted({self.graph.kinds[e][1] for e, _ in closure.moves}))
        self._note_miss(run, reason, row, key, waiting, negated)

    def _note_miss(self, run: _Run, reason, row, key, waiting, negated=None) -> None:
        best = self.miss
        if best is not None and len(best.rows) >= run.length:
            return
        values = {}
        context = {}
        if self.probe is not None and row is not None:
            if reason == "no_way_on":
                for var in waiting:
                    values[self.spec.variable_names[var]] = self.probe(run, row, var)
            context = self.probe(run, row, None)
        first = {}
        if self.probe is not None and run.node is not None:
            first = self.probe(run, run.first, None)
        rejected = None
        if reason != "no_way_on" and run.rejected is not None and self.probe is not None:
            at, var = run.rejected
            rejected = {"row": at, "variable": self.spec.variable_names[var],
                        "values": self.probe(run, at, var), "row_values": self.probe(run, at, None)}
        self.miss = Miss(run.rows, run.labels, run.state, row, reason, waiting, negated, values,
                         (run.key0, key) if reason == "within" else (), context, rejected,
                         first)

    # -- the report --------------------------------------------------------------------------------

    def report(self) -> dict:
        return {
            "entered": self.entered, "completed": self.completed,
            "ended_after_completing": self.ended_after_completing,
            "died": self.died, "taken": self.taken, "started": self.started,
            "row_local_true": self.row_local_true,
            "condition_evaluated": self.condition_evaluated,
            "condition_true": self.condition_true,
            "stopped": self.stopped,
        }


# -- the runner: the engine, observed, and the simulation ------------------------------------------


class AnalyzeRunner:
    """One partition under EXPLAIN ANALYZE: the clause's own engine and the simulator over the
    same blocks; ``report()`` is the partition's counts and closest miss as JSON."""

    def __init__(self, plan, probes=None) -> None:
        from sparkcep.engines import selection as engines
        from sparkcep.evaluation.conditions import make_condition

        self.plan = plan
        names = plan.spec.variable_names
        conditions = {v: make_condition(e, names) for v, e in plan.conditions.items()}
        self.engine = engines.make_engine(plan.spec, conditions, summary=None)
        self.probes = probes  # sparkcep.compiler.explain_analyze.Probes, or None
        self.simulator = Simulator(plan.spec, conditions, self._probe)
        self.partition_values: dict | None = None
        self.rows = 0
        self.matches = 0
        self.engine_error: str | None = None
        self.covered = bytearray()
        self.selected = [0] * len(names)
        self.engine_seconds = 0.0
        self.simulation_seconds = 0.0
        # the values a closest miss shows, for the rows live runs may still refer to: the
        # match-dependent operands' columns (ids 0.. as their expressions read them), the
        # row-local operands' probe columns, the row's own input columns
        self.probe_store = _Store()
        self.probe_names: list[str] = list(probes.dependent_columns) if probes else []
        self.local_names: list[str] = []
        self.context_names: list[str] = []

    def _block(self, batch: pa.RecordBatch) -> RowBlock:
        from sparkcep.runtime.partition_runner import decode_masks
        from sparkcep.runtime.within_keys import block_order_key

        plan = self.plan
        masks, packed = decode_masks(plan, batch)
        columns: tuple = ()
        if plan.conditions:
            columns = tuple(batch.column(name).to_pylist() for name in plan.value_columns)
        order_key, packed = block_order_key(batch, plan.order_key_column, plan.order_key_descending,
                                            masks, packed)
        return RowBlock(masks=masks, columns=columns, order_key=order_key, codes=packed)

    def feed(self, batch: pa.RecordBatch) -> None:
        if batch.num_rows == 0:
            return
        if self.partition_values is None:
            self.partition_values = {name: batch.column(name)[0].as_py()
                                     for name in self.plan.partition_columns}
        block = self._block(batch)
        if not self.probe_store.starts:  # the first batch: which columns to keep
            hidden = set(self.probe_names) | set(self.plan.partition_columns)
            if self.probes is not None:
                self.local_names = [name for _sql, name in self.probes.columns
                                    if name not in hidden]
            hidden |= set(self.local_names)
            self.context_names = [name for name in batch.schema.names
                                  if not name.startswith("__sparkcep") and name not in hidden]
        names = [*self.probe_names, *self.local_names, *self.context_names]
        self.probe_store.add(self.rows, tuple(batch.column(name).to_pylist() for name in names))
        self.rows += batch.num_rows
        self.covered.extend(bytes(batch.num_rows))
        self._engine(lambda: self.engine.feed(block))
        started = time.perf_counter()
        self.simulator.feed(block)
        self.simulation_seconds += time.perf_counter() - started
        oldest = min((run.first for run in self.simulator.runs if run.node), default=self.rows)
        self.probe_store.prune(oldest)

    def _engine(self, step) -> None:
        events = engine_step(self, step)
        for event in events:
            if isinstance(event, Match):
                if event.timed_out:
                    continue
                self.matches += 1
                for row, var in zip(event.rows, event.labels):
                    self.covered[row] = 1
                    self.selected[var] += 1
            elif isinstance(event, MatchSummaries):
                self.matches += len(event)
                for s, e in zip(event.start.tolist(), event.end.tolist()):
                    self.covered[s:e] = b"\x01" * (e - s)

    def finish(self) -> None:
        self._engine(self.engine.finish)
        started = time.perf_counter()
        self.simulator.finish()
        self.simulation_seconds += time.perf_counter() - started

    def _probe(self, run: _Run, row: int, var: int) -> list:
        """What ``var``'s DEFINE read at ``row`` for ``run``: per conjunct [text, truth,
        [[operand text, value], ...]]
        (``var`` None: the row's own input columns, by name)."""
        store = self.probe_store
        if var is None:
            base = len(self.probe_names) + len(self.local_names)
            return {name: _jsonable(store.value(base + i, row))
                    for i, name in enumerate(self.context_names)}
        probes = self.probes
        if probes is None:
            return []
        name = self.plan.spec.variable_names[var]
        define = probes.defines.get(name.upper())
        if define is None:
            return []
        bound = self._bound_conjuncts(var, define)
        rows, labels = run.path()
        context = RunContext(store, rows, labels, row, var)
        out = []
        for conjunct in define.conjuncts:
            truth = "?"
            try:
                if conjunct.column is not None:
                    truth = self._stored(conjunct.column, row)
                elif bound is not None:
                    from sparkcep.evaluation.operators import truth as sql_truth

                    truth = sql_truth(self._evaluator(bound[conjunct.dependent])(
                        RunContext(self.simulator.store, rows, labels, row, var)))
            except Exception:  # noqa: BLE001 - a value we cannot show is shown as unknown
                truth = "?"
            values = []
            for operand in conjunct.operands:
                try:
                    if operand.column is not None:
                        value = self._stored(operand.column, row)
                    else:
                        value = self._evaluator(operand.dependent)(context)
                except Exception:  # noqa: BLE001
                    value = "?"
                values.append([operand.text, _jsonable(value)])
            out.append([conjunct.text, truth if truth in (True, False, None) else "?", values])
        return out

    def _stored(self, column: str, row: int):
        return self.probe_store.value(len(self.probe_names) + self.local_names.index(column), row)

    def _evaluator(self, expression):
        from sparkcep.evaluation.interpreter import compile_expression

        return compile_expression(expression, self.plan.spec.variable_names)

    def _bound_conjuncts(self, var: int, define) -> list | None:
        """The match-dependent conjuncts of ``var``'s condition as the plan has them (bound to
        Spark's types), in the order written, or None when they cannot be told apart."""
        from sparkcep.plan import expressions as p

        condition = self.plan.conditions.get(var)
        if condition is None or define.dependent_count == 0:
            return None
        if define.dependent_count == 1:
            return [condition]
        if isinstance(condition, p.Operator) and condition.name == "and" \
                and len(condition.operands) == define.dependent_count:
            return list(condition.operands)
        return None

    def report(self) -> dict:
        sim = self.simulator
        miss = None
        if sim.miss is not None:
            miss = sim.miss.as_json(self.plan.spec.variable_names)
            if sim.miss.keys:
                miss["keys"] = [_jsonable(k) for k in sim.miss.keys]
        covered = sum(self.covered)
        return {
            "partition": {k: _jsonable(v) for k, v in (self.partition_values or {}).items()},
            "rows": self.rows, "matches": self.matches, "covered": covered,
            "selected": self.selected, "engine_seconds": self.engine_seconds,
            "simulation_seconds": self.simulation_seconds, "engine_error": self.engine_error,
            "simulation": sim.report(), "miss": miss,
        }


def _jsonable(value):
    import datetime

    if isinstance(value, datetime.datetime) and value.tzinfo is not None \
            and value.utcoffset() == datetime.timedelta(0):
        return str(value.replace(tzinfo=None))
    if value is None or isinstance(value, (bool, int, float, str)):
        if isinstance(value, float) and value != value:
            return "NaN"
        return value
    return str(value)


REPORT_SCHEMA = "report STRING"


def engine_step(analysis, step) -> list:
    """The events of one engine ``step`` (feed or finish) of a partition's ``analysis``, its time
    added to ``analysis.engine_seconds``; after the engine raised a SparkCepError (for example
    MATCH_BUDGET_EXCEEDED), none: the error is kept in ``analysis.engine_error`` and reported,
    not raised."""
    from sparkcep.errors import SparkCepError

    if analysis.engine_error is not None:
        return []
    started = time.perf_counter()
    try:
        return list(step())
    except SparkCepError as error:
        analysis.engine_error = f"[{error.code}] {error.message}"
        return []
    finally:
        analysis.engine_seconds += time.perf_counter() - started


def analyze_function_class(plan, probes=None, make_runner=None):
    """A UDTF handler class (Arrow in, one JSON report row per partition out). Its runner is
    ``make_runner()`` when given (an UNCERTAIN TIME clause's, ``analyze_uncertain``), else an
    :class:`AnalyzeRunner`."""

    class AnalyzeFunction:
        def __init__(self) -> None:
            self.runner = make_runner() if make_runner else AnalyzeRunner(plan, probes)

        def eval(self, batch: pa.RecordBatch):
            self.runner.feed(batch)
            return iter(())

        def terminate(self):
            self.runner.finish()
            report = json.dumps(self.runner.report())
            yield pa.RecordBatch.from_arrays([pa.array([report], pa.string())], names=["report"])

    return AnalyzeFunction
