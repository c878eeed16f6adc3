"""Aggregating SKIP TILL ANY MATCH matches whose DEFINE compares a row with an earlier row of the
match, without enumerating them.

``sparkcep.engines.sase.aggregation`` counts matches per automaton state because, with row-local
conditions, two partial matches in the same state have the same futures. A condition such as
``B AS B.x > LAST(B.x, 1)`` (each B row above the previous B row of the match: an increasing
trend) or ``C AS C.user = A.user`` breaks that: whether a row extends a partial match depends on
a value the partial match selected earlier. GRETA (Poppe, Lei, Rundensteiner, Maier, VLDB 2017)
aggregates such event trends over a graph whose vertices are the events and whose edges connect
adjacent events of a trend that satisfy the predicate, propagating counts along the edges instead
of building the trends. Here the same idea is kept per automaton state: the partial matches in a
state are grouped by the values of the rows their conditions will compare with -- the *slots*,
each "the first/last row of variable V, column c" -- and each group (a *cell*) holds only how
many partial matches it has and their measures' partial aggregates.

**Comparisons** (``RowComparison``): the tested row's value of one column ``op`` one slot:

* ``LAST(B.x, 1)`` inside B's own DEFINE -- the previous B row of the match (the slot "last B row"
  read before the tested row is taken); NULL at the first B row;
* ``LAST(V.x)`` / ``FIRST(V.x)`` of another variable V -- its last / first row so far (NULL when
  V has selected no row yet, e.g. an optional component skipped or still ahead);
* with ``holds_when_null``, the comparison also holds when the slot is NULL
  (``LAST(B.x, 1) IS NULL OR B.x > LAST(B.x, 1)``: the first B row is free).

A DEFINE made of such comparisons joined by AND holds when every one holds. SQL's NULL rules:
a comparison with NULL is unknown, so it does not hold (``<=>``: NULL equals NULL). Values are
compared in Spark's order for one type (both sides are the same expression, so the same type):
float NaN above every number and equal to itself, arrays and structs element by element with
NULL below any value (``_order_key``).

**Per row** the engine does what the parent engine does (read every source state before the row,
negation remaps, takes and proceeds, starts; module docstring there), but per cell: a move into a
component whose variable has comparisons carries only the cells whose slots satisfy them, and
the move keeps, sets (to the row's value) or clears each slot exactly as it does each measure
(``_KEEP``/``_SET``/``_DROP``). Cells with equal slot values merge, so a state holds at most one
cell per distinct value (tuple) of its slots.

**Cost.** Per row and vector: the cells of the states the row can move from, times the moves
(``spec.max_steps`` counts them). With one slot over a column with d distinct values, a state
holds at most d cells: O(n x d) for n rows instead of the exponential number of matches. An
equality on the only slot is a hash look-up (the cells are hash buckets of the compared value:
O(1) per move); the other operators, and several slots, scan the cells. (An order test could
read a prefix sum over the slot's ranks instead, a Fenwick tree, O(log d): not done yet.)
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

from sparkcep.engines.sase.aggregation import (
    _ADD,
    _KEEP,
    _SET,
    LAST,
    AggregationEngine,
    MeasureRef,
    _less,
    _times,
)
from sparkcep.engines.spec import MatchSpec
from sparkcep.errors import InternalError

OPERATORS = ("eq", "null_safe_eq", "neq", "lt", "lte", "gt", "gte")
# a <op> b  ==  b <FLIPPED[op]> a
FLIPPED = {"eq": "eq", "null_safe_eq": "null_safe_eq", "neq": "neq", "lt": "gt", "lte": "gte",
           "gt": "lt", "gte": "lte"}


@dataclass(frozen=True)
class RowComparison:
    """Part of ``variable``'s DEFINE: the tested row's value of ``column`` ``op`` the value of the
    row ``ref`` points to (module docstring). When ``ref.variable == variable``, ``ref`` is the
    previous row of that variable in the match (``LAST(V.x, 1)``) and ``ref.which`` is "last"."""

    variable: int
    column: int
    op: str
    ref: MeasureRef
    holds_when_null: bool = False


_NAN = (2,)  # order key of a float NaN: above every number, equal to itself


def _order_key(x):
    """A value as a hashable key that Python orders as Spark orders values of one type."""
    if x is None:
        return (0,)  # inside an array or struct: below every value
    if isinstance(x, float) and x != x:
        return _NAN
    if isinstance(x, (list, tuple)):
        return (1, tuple(_order_key(e) for e in x))
    if isinstance(x, dict):
        return (1, tuple(_order_key(e) for e in x.values()))
    return (1, x)


def _slot_value(x):
    """A value as a slot holds it: None for SQL NULL, else its order key."""
    return None if x is None else _order_key(x)


_ORDER = {"eq": operator.eq, "neq": operator.ne, "lt": operator.lt, "lte": operator.le,
          "gt": operator.gt, "gte": operator.ge}


def _satisfying(items, slot: int, x, op: str, holds_when_null: bool) -> list:
    """The cells ``(key, cell)`` of ``items`` for which ``x op key[slot]`` is TRUE (``x`` and the
    slot: slot values; ``holds_when_null``: also those whose slot is NULL)."""
    if op == "null_safe_eq":
        return [kc for kc in items if kc[0][slot] == x or (holds_when_null and kc[0][slot] is None)]
    if x is None:  # unknown: only the NULL-slot cells, when they are let in
        return [kc for kc in items if holds_when_null and kc[0][slot] is None]
    compare = _ORDER[op]
    if holds_when_null:
        return [kc for kc in items if kc[0][slot] is None or compare(x, kc[0][slot])]
    return [kc for kc in items if kc[0][slot] is not None and compare(x, kc[0][slot])]


class TrendAggregationEngine(AggregationEngine):
    """Counts the SKIP TILL ANY MATCH matches of one partition whose DEFINE conditions are
    ``comparisons`` (with the row-local masks), and aggregates ``measures`` over them, without
    building them (module docstring). Check ``aggregation_unsupported_reason(spec, False)``
    first; the comparisons' variables must not be negated in the pattern (their conditions would
    decide negations), which ``sparkcep.compiler.aggregation_pushdown.row_comparisons`` ensures."""

    def __init__(self, spec: MatchSpec, measures: tuple[MeasureRef, ...] = (),
                 comparisons: tuple[RowComparison, ...] = (),
                 keys: tuple[MeasureRef, ...] = ()) -> None:
        """``keys``: more slots to key the cells by (``grouped_aggregation``'s group keys)."""
        for c in comparisons:
            if c.op not in OPERATORS:
                raise InternalError(f"RowComparison.op {c.op!r}")
            if c.ref.variable == c.variable and c.ref.which != LAST:
                raise InternalError("a comparison with the variable's own FIRST row")
        self.comparisons = tuple(comparisons)
        self.slots = tuple(dict.fromkeys([c.ref for c in self.comparisons] + list(keys)))
        super().__init__(spec, measures)
        m, s = len(self.measures), len(self.slots)
        # per destination state: (slot, value index, op, holds_when_null) of its variable's tests
        comps = self.auto.pat.components
        tests_of = {}
        for c in self.comparisons:
            value = m + s + self.comparisons.index(c)
            tests_of.setdefault(c.variable, []).append(
                (self.slots.index(c.ref), value, c.op, c.holds_when_null))
        self._tests = [tuple(tests_of.get(comps[k].var, ())) for k, _n, _d in self.auto.states]
        self._empty_key = (None,) * s

    # -- the refinement's hooks ---------------------------------------------------------------

    def _kind_refs(self) -> tuple[MeasureRef, ...]:
        return self.measures + self.slots

    def _extra_columns(self) -> list[int]:
        return [ref.column for ref in self.slots] + [c.column for c in self.comparisons]

    def _new_vector(self, key):
        return _Cells(key, len(self.auto.states))

    @staticmethod
    def _alive(vec) -> bool:
        return any(vec.cells)

    # -- one row on one vector ------------------------------------------------------------------

    def _apply(self, vec, prog, values, starts: bool = True) -> int:
        m = len(self.measures)
        keyed = [_slot_value(x) for x in values[m:]] if values else []
        cells = vec.cells
        # every move is computed from the states as they were before the row, then applied
        pending = []
        visited = 0
        for src, outs in zip(prog.srcs, prog.outs):
            state = cells[src]
            if not state:
                continue
            visited += len(state) * len(outs)
            for dst, kinds in outs:
                self._moves(state, dst, kinds, values, keyed, pending)
        self._charge(visited)
        if prog.remap:
            self._remap(vec, prog)
        done = self._merge_moves(vec, pending)
        if starts:
            done += self._add_starts(vec, prog, values)
        return done

    def _add_starts(self, vec, prog, values) -> int:
        m = len(self.measures)
        keyed = [_slot_value(x) for x in values[m:]] if values else []
        start = [(self._empty_key, (1,) + (None,) * m)]
        pending = []
        for dst, kinds in prog.starts:
            self._moves(start, dst, kinds, values, keyed, pending)
        return self._merge_moves(vec, pending)

    def _moves(self, items, dst: int, kinds, values, keyed, pending: list) -> None:
        """Append to ``pending`` the ``(dst, key, cell)`` moves of the cells ``items`` (a state's
        dict, or ``(key, [count, partial aggregate per measure])`` pairs) into state ``dst`` by
        the current row: those
        whose slots satisfy the destination variable's comparisons. When the move sets or clears
        every slot, the cells land in one destination cell and are summed first."""
        m, s = len(self.measures), len(self.slots)
        tests = self._tests[dst]
        if isinstance(items, dict):  # a state's cells
            if s == 1 and tests and tests[0][2] in ("eq", "null_safe_eq"):
                # equality on the only slot: the cells are hash buckets of its value
                _slot, index, op, when_null = tests[0]
                x = keyed[index - m]
                wanted = [(x,)] if x is not None or op == "null_safe_eq" else []
                if when_null and (None,) not in wanted:  # a NULL slot lets every row in
                    wanted.append((None,))
                items = [(key, items[key]) for key in wanted if key in items]
                tests = tests[1:]
            else:
                items = items.items()
        for slot, index, op, when_null in tests:
            items = _satisfying(items, slot, keyed[index - m], op, when_null)
        if not items:
            return
        slot_kinds = kinds[m:]
        if _KEEP not in slot_kinds:  # the destination key does not depend on the source's
            key = tuple(keyed[j] if slot_kinds[j] == _SET else None for j in range(s))
            count = 0
            kept = [None] * m
            for _key, cell in items:
                count += cell[0]
                for i in range(m):
                    if kinds[i] in (_KEEP, _ADD):  # carried over (_ADD: then added to)
                        kept[i] = self._merge_part(i, kept[i], cell[1 + i])
            pending.append((dst, key, self._moved(kinds, count, values, kept)))
            return
        for key, cell in items:
            if s:
                key = tuple(key[j] if slot_kinds[j] == _KEEP else keyed[j] if slot_kinds[j] == _SET
                            else None for j in range(s))
            pending.append((dst, key, self._moved(kinds, cell[0], values, cell[1:])))

    def _moved(self, kinds, count: int, values, kept) -> list:
        """The cell ``count`` partial matches become: per measure, the partial aggregate kept,
        set to the row's value, or cleared."""
        moved = [count]
        for i in range(len(self.measures)):
            kind = kinds[i]
            if kind == _KEEP:
                moved.append(kept[i])
            elif kind == _SET:
                moved.append(self._single(i, count, values[i]))
            else:
                moved.append(None)
        return moved

    def _merge_moves(self, vec, pending) -> int:
        """Apply the moves; return the number of matches they complete."""
        done = 0
        accepting = self.auto.accepting
        cells = vec.cells
        m = len(self.measures)
        for dst, key, moved in pending:
            self._merge_cell(cells[dst], key, moved)
            if accepting[dst]:
                done += moved[0]
                for i in range(m):
                    if moved[1 + i] is not None:
                        self._add_total(i, moved[1 + i])
        return done

    def _remap(self, vec, prog) -> None:
        """Move the cells of the states whose negation level the row lowers (or drop them)."""
        cells = vec.cells
        for src, dst in prog.remap:
            if not cells[src]:
                continue
            moving, cells[src] = cells[src], {}
            if dst >= 0:
                for key, cell in moving.items():
                    self._merge_cell(cells[dst], key, cell)

    # -- cells ------------------------------------------------------------------------------------

    def _single(self, i: int, count: int, x):
        """Measure ``i``'s partial aggregate of ``count`` partial matches whose value is ``x``."""
        if x is None:
            return None
        if not self._numeric[i]:
            self._totals[i].summable = False
            return (count, 0, x, x)
        return (count, _times(count, x), x, x)

    def _merge_cell(self, state: dict, key, cell) -> None:
        old = state.get(key)
        if old is None:
            state[key] = list(cell)
            return
        old[0] += cell[0]
        for i in range(len(self.measures)):
            old[1 + i] = self._merge_part(i, old[1 + i], cell[1 + i])

    def _merge_part(self, i: int, a, b):
        """Two partial aggregates (non-null count, sum, min, max) of measure ``i`` as one."""
        if b is None:
            return a
        if a is None:
            return b
        return (
            a[0] + b[0],
            self._sum(i, a[1], b[1]) if self._totals[i].summable else 0,
            b[2] if _less(b[2], a[2]) else a[2],
            b[3] if _less(a[3], b[3]) else a[3],
        )


class _Cells:
    """The partial matches of one start row (or of the partition, without WITHIN): per state, a
    dict from slot values to ``[count, partial aggregate per measure]``."""

    __slots__ = ("key", "cells")

    def __init__(self, key, states: int) -> None:
        self.key = key
        self.cells = [{} for _ in range(states)]
