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
compared in Spark's order for one type (the two columns a comparison reads must hold values of
one type: the runtime casts both sides to the type Spark compares them in when they differ):
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
holds at most d cells. An equality on the only slot is a hash look-up (the cells are hash
buckets of the compared value: O(1) per move); an order comparison (``< <= > >= <>``) on the
only slot reads a prefix or suffix aggregate from Fenwick trees over the slot's ranks, O(log d)
per move (``_OrderIndex``, from 48 distinct values on; a block bringing new values re-ranks
them, O(cells) once per block); so does a move without a test that sets or clears the slot (the
state's total). Several slots, and moves that keep the slot, scan the cells. A slot no later
comparison reads is dropped (``_TrendAutomaton``), so ``A B+ C`` with a rising B keeps one cell
once the run reaches C.
"""

from __future__ import annotations

import operator
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from sparkcep.engines.sase.aggregation import (
    _ADD,
    _DROP,
    _KEEP,
    _SET,
    LAST,
    AggregationEngine,
    MeasureRef,
    _Automaton,
    _less,
    _plain,
    _times,
)
from sparkcep.engines.sase.pattern import compile_pattern
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


_RANGE = ("lt", "lte", "gt", "gte", "neq")  # the operators an order index answers

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
                 keys: tuple[MeasureRef, ...] = (), *, index_from: int = 48) -> None:
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
        # a slot no later comparison reads is dropped, so cells that differ only there merge
        reader = {}
        component = {c.var: k for k, c in enumerate(comps)}
        for c in self.comparisons:
            j = self.slots.index(c.ref)
            reader[j] = max(reader.get(j, -1), component.get(c.variable, -1))
        for ref in keys:  # a group key is read when the match completes: never dropped
            reader[self.slots.index(ref)] = len(comps)
        self.auto = _TrendAutomaton(compile_pattern(spec), self._kind_refs(), m,
                                    tuple(reader.get(j, -1) for j in range(s)))
        self._tests = [tuple(tests_of.get(comps[k].var, ())) for k, _n, _d in self.auto.states]
        self._empty_key = (None,) * s
        # one slot compared by order: per state, Fenwick trees over the slot's distinct values,
        # once there are ``index_from`` of them (below, scanning the cells is cheaper)
        self._ordered = s == 1 and any(c.op in _RANGE for c in self.comparisons)
        self._indexed = False
        self._index_from = index_from
        self._coords: list = []  # the slot's distinct non-NULL values so far, sorted
        self._rank: dict = {}
        self._zero = 0 if not m else None

    # -- the refinement's hooks ---------------------------------------------------------------

    def _kind_refs(self) -> tuple[MeasureRef, ...]:
        return self.measures + self.slots

    def _extra_columns(self) -> list[int]:
        return [ref.column for ref in self.slots] + [c.column for c in self.comparisons]

    def _new_vector(self, key):
        return _Cells(key, len(self.auto.states))

    def feed(self, block) -> None:
        if self._ordered and len(block):
            self._extend_coordinates(block)
        super().feed(block)

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
        index = vec.index
        for src, outs in zip(prog.srcs, prog.outs):
            state = cells[src]
            if not state:
                continue
            for dst, kinds in outs:
                visited += self._moves(state, dst, kinds, values, keyed, pending, index[src])
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

    def _moves(self, items, dst: int, kinds, values, keyed, pending: list, index=None) -> int:
        """Append to ``pending`` the ``(dst, key, cell)`` moves of the cells ``items`` (a state's
        dict, or ``(key, [count, partial aggregate per measure])`` pairs) into state ``dst`` by
        the current row: those
        whose slots satisfy the destination variable's comparisons. When the move sets or clears
        every slot, the cells land in one destination cell and are summed first (read from the
        state's ``index`` when it has one). Returns the cells visited (engine steps)."""
        m, s = len(self.measures), len(self.slots)
        tests = self._tests[dst]
        slot_kinds = kinds[m:]
        if index is not None and _KEEP not in slot_kinds and len(tests) <= 1:
            return self._indexed_move(items, index, dst, kinds, values, keyed, tests, pending)
        visited = len(items)
        if isinstance(items, dict):  # a state's cells
            if s == 1 and tests and tests[0][2] in ("eq", "null_safe_eq"):
                # equality on the only slot: the cells are hash buckets of its value
                _slot, value, op, when_null = tests[0]
                x = keyed[value - m]
                wanted = [(x,)] if x is not None or op == "null_safe_eq" else []
                if when_null and (None,) not in wanted:  # a NULL slot lets every row in
                    wanted.append((None,))
                items = [(key, items[key]) for key in wanted if key in items]
                tests = tests[1:]
            else:
                items = items.items()
        for slot, value, op, when_null in tests:
            items = _satisfying(items, slot, keyed[value - m], op, when_null)
        if not items:
            return visited
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
            return visited
        for key, cell in items:
            if s:
                key = tuple(key[j] if slot_kinds[j] == _KEEP else keyed[j] if slot_kinds[j] == _SET
                            else None for j in range(s))
            pending.append((dst, key, self._moved(kinds, cell[0], values, cell[1:])))
        return visited

    def _indexed_move(self, state: dict, index, dst: int, kinds, values, keyed, tests,
                      pending: list) -> int:
        """The move of every cell of ``state`` that satisfies the (at most one) test into one
        destination cell, read from the state's Fenwick trees: O(log d) for d distinct values."""
        m = len(self.measures)
        if not tests:
            total = index.total
        else:
            _slot, value, op, when_null = tests[0]
            x = keyed[value - m]
            if x is None and op != "null_safe_eq":  # unknown: only the NULL-slot cells
                total = self._zero
            elif op in _RANGE:
                total = self._range(index, op, x)
            else:  # = and <=>: one hash bucket
                total = self._cell_value(state.get((x,)))
            if when_null and (op != "null_safe_eq" or x is not None):
                total = self._combine(total, self._cell_value(state.get((None,))))
        steps = len(self._coords).bit_length() + 1
        if not total:
            return steps
        key = (keyed[0] if kinds[m] == _SET else None,)
        if m:
            pending.append((dst, key, self._moved(kinds, total[0], values, total[1:])))
        else:
            pending.append((dst, key, [total]))
        return steps

    def _moved(self, kinds, count: int, values, kept) -> list:
        """The cell ``count`` partial matches become: per measure, the partial aggregate kept,
        set to the row's value, or as ``_other_move`` says."""
        moved = [count]
        for i in range(len(self.measures)):
            kind = kinds[i]
            if kind == _KEEP:
                moved.append(kept[i])
            elif kind == _SET:
                moved.append(self._single(i, count, values[i]))
            else:
                moved.append(self._other_move(i, kind, count, values, kept))
        return moved

    def _other_move(self, i: int, kind, count: int, values, kept):
        """Measure ``i``'s partial aggregate after a move that neither keeps nor sets it: cleared
        (``grouped_aggregation`` adds the kinds of its per-match sums)."""
        return None

    def _merge_moves(self, vec, pending) -> int:
        """Apply the moves; return the number of matches they complete."""
        done = 0
        accepting = self.auto.accepting
        m = len(self.measures)
        for dst, key, moved in pending:
            self._put(vec, dst, key, moved)
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
            vec.index[src] = None
            if dst >= 0:
                for key, cell in moving.items():
                    self._put(vec, dst, key, cell)

    # -- order index: Fenwick trees over the compared values ---------------------------------
    #
    # With one slot and an order comparison (< <= > >= <>), the cells a move carries are those
    # whose slot value lies below or above the row's value: a prefix or a suffix of the slot's
    # values in order. Per state, two Fenwick trees (binary indexed trees, Fenwick 1994) hold
    # the cells' aggregates -- count and each measure's (non-null count, sum, min, max), which
    # combine associatively -- over the ranks of the slot's distinct values, one for prefixes
    # and one over the reversed ranks for suffixes (MIN/MAX have no inverse, so a suffix is not
    # a total minus a prefix). Cells only ever merge into a state (a negation moves a whole
    # state, which drops its trees), so a point update is a combine along one path: O(log d).
    # The ranks are the distinct values seen so far; a block bringing new values re-ranks them
    # and rebuilds the trees from the cells (O(cells)), so values arriving online cost one
    # rebuild per block at most. NULL slots stay out of the trees (no comparison holds for
    # them; "IS NULL OR" adds their bucket); NaN ranks above every number (``_order_key``).

    def _extend_coordinates(self, block) -> None:
        ref = self.slots[0]
        rank = self._rank
        new = {v for v in map(_slot_value, _plain(block.columns[ref.column]))
               if v is not None and v not in rank}
        if not new:
            return
        try:
            self._coords = sorted(set(self._coords) | new)
        except TypeError:  # values without one order (not one SQL type): scan the cells instead
            self._ordered = self._indexed = False
            for vec in [self._global] if self.within is None else self._active:
                vec.index = [None] * len(vec.cells)
            return
        self._rank = {v: i for i, v in enumerate(self._coords)}
        self._indexed = len(self._coords) >= self._index_from
        if not self._indexed:
            return
        vectors = [self._global] if self.within is None else list(self._active)
        for vec in vectors:
            vec.index = [None] * len(vec.cells)
            for state, cells in enumerate(vec.cells):
                for key, cell in cells.items():
                    self._index_add(vec, state, key, cell)

    def _put(self, vec, dst: int, key, cell) -> None:
        """Merge ``cell`` into state ``dst``'s cell ``key`` (and into its index)."""
        self._merge_cell(vec.cells[dst], key, cell)
        if self._indexed:
            self._index_add(vec, dst, key, cell)

    def _cell_value(self, cell):
        """A cell as the trees hold it: the count alone without measures."""
        if cell is None:
            return self._zero
        return cell[0] if not self.measures else list(cell)

    def _combine(self, a, b):
        if not self.measures:
            return a + b
        if a is None:
            return b
        if b is None:
            return a
        return [a[0] + b[0]] + [self._merge_part(i, a[1 + i], b[1 + i])
                                for i in range(len(self.measures))]

    def _index_add(self, vec, state: int, key, cell) -> None:
        index = vec.index[state]
        size = len(self._coords)
        if index is None:
            index = vec.index[state] = _OrderIndex(size, self._zero)
        cell = self._cell_value(cell)
        combine = self._combine
        index.total = combine(index.total, cell)
        if key[0] is None:
            return
        low, high = index.low, index.high
        j = self._rank[key[0]] + 1
        r = size - j + 1
        while j <= size:
            low[j] = combine(low[j], cell)
            j += j & -j
        while r <= size:
            high[r] = combine(high[r], cell)
            r += r & -r

    def _prefix(self, tree: list, n: int):
        """The aggregate of the first ``n`` ranks of ``tree``."""
        total = self._zero
        combine = self._combine
        while n > 0:
            total = combine(total, tree[n])
            n -= n & -n
        return total

    def _range(self, index, op: str, x):
        """The cells whose slot value v satisfies ``x op v``."""
        coords = self._coords
        size = len(coords)
        if op == "gt":  # v < x
            return self._prefix(index.low, bisect_left(coords, x))
        if op == "gte":  # v <= x
            return self._prefix(index.low, bisect_right(coords, x))
        if op == "lt":  # v > x
            return self._prefix(index.high, size - bisect_right(coords, x))
        if op == "lte":  # v >= x
            return self._prefix(index.high, size - bisect_left(coords, x))
        return self._combine(self._prefix(index.low, bisect_left(coords, x)),  # v <> x
                             self._prefix(index.high, size - bisect_right(coords, x)))

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
    dict from slot values to ``[count, partial aggregate per measure]``, and (with an order
    index) the state's ``_OrderIndex``."""

    __slots__ = ("key", "cells", "index")

    def __init__(self, key, states: int) -> None:
        self.key = key
        self.cells = [{} for _ in range(states)]
        self.index = [None] * states


class _OrderIndex:
    """One state's cells over the slot's ranks: Fenwick trees for prefixes (``low``) and for
    suffixes (``high``, over the reversed ranks), and the aggregate of every cell (``total``,
    NULL slots included)."""

    __slots__ = ("low", "high", "total")

    def __init__(self, size: int, zero) -> None:
        self.low = [zero] * (size + 1)
        self.high = [zero] * (size + 1)
        self.total = zero


class _TrendAutomaton(_Automaton):
    """The parent's automaton, with each slot dropped (``_DROP``) on moves into components
    after the last one whose comparisons read it: cells that differ only in a value nothing
    will compare with again merge into one."""

    def __init__(self, pat, refs, measures: int, readers: tuple[int, ...]) -> None:
        self.first_slot = measures
        self.readers = readers  # per slot: the last component reading it (-1: none)
        super().__init__(pat, refs)

    def _kinds(self, k, t: int, take: bool) -> tuple[int, ...]:
        kinds = list(super()._kinds(k, t, take))
        for j, last in enumerate(self.readers):
            if t > last:
                kinds[self.first_slot + j] = _DROP
        return tuple(kinds)
