"""Aggregating SKIP TILL ANY MATCH matches without enumerating them.

Under SKIP TILL ANY MATCH the number of matches can be exponential in the rows of a window
(``A B+ C`` over n rows has up to 2^n), so an engine that builds every match stops on a budget long
before it is done. When every DEFINE is row-local (only ``RowBlock.masks``), a query that only
*aggregates* its matches -- how many there are, and the SUM / COUNT / MIN / MAX over the matches of
one selected row's value -- does not need them: this module counts them with dynamic programming
over the states of the pattern's automaton, after A-Seq (Qi, WPI 2013: dynamic prefix counting,
start event marking, the recounting rule for negation) and GRETA (Poppe et al., VLDB 2017: counts
and aggregates propagated along the event-trend graph of Kleene patterns).

**States.** A partial match -- a prefix of a match, the rows chosen so far -- is summarised by
``(k, n, d)``: the component it is at, the rows it has taken there (capped at the component's
maximum, or at ``max(min, 1)`` when unbounded: beyond that, counts behave alike) and its
*negation level* ``d``: the position of the first negation a row has violated since the partial
match's last selected row (``CLEAN`` if none). A negation at position p sits between components
p - 1 and p, so a partial match at level d may still proceed to components t < d only. With
row-local conditions two partial matches in the same state have the same futures, so the engine
keeps per state only *how many* partial matches are in it (an exact Python int).

**Per row** (``_Program``, built once per distinct set of variables a row qualifies for): every
state's count is read *before* the row is applied -- so a row never chains with itself and the
new partial matches it creates are not blocked by it -- then

1. the negation rows: partial matches whose gap the row falls into move to a lower level (the
   recounting rule, generalised from "reset the prefix to 0" to "remember how far it may still
   go"); those that can neither take nor proceed any more are dropped;
2. the transitions: *take* (component k selects the row again, below its maximum) and *proceed*
   (k has its minimum; the row starts a later component t, every component between optional, no
   negation crossed); each adds the source's count to the target;
3. the starts: the row begins a new partial match at every component a match can start with;
4. every count added to an accepting state (the last mandatory component has its minimum) is a
   set of matches whose last row is this row: it is added to the totals.

Rows that qualify for nothing in the pattern are skipped.

**WITHIN** (A-Seq's start event marking): one count vector per *start row* still in the window
(``_Vector``), created when a row starts a partial match and dropped when a row arrives with
``key - start key >= within``; each row is applied to every active vector, so every match counted
satisfies ``last key - first key < within``. Start rows with the same key share a vector (they
expire together). A row whose key is NaN lies in no window: it starts nothing, extends nothing,
and still violates negations. Without WITHIN there is one vector for the whole partition and no
row is stored.

**Measures** (A-Seq's extension to SUM/MIN/MAX, here for any selected row): a ``MeasureRef`` is the
value of one variable's first or last row in the match. Per state and measure the engine keeps,
over the partial matches whose value is already known, how many have a non-null value, their sum,
minimum and maximum. A transition *keeps* them (the value was fixed earlier), *sets* them to the
row's value times the count (the row is the variable's first row, or a new last row of a Kleene
variable), or *drops* them (the variable's component was skipped, or is still ahead: a match that
ends before reaching an optional component has a null value there). Sums of ints and Decimals are
exact (Decimals in an unbounded-precision context); a float sum is the sum of value x count in
float arithmetic (so it may differ from a match-by-match sum in the last bits, and a count beyond
the float range gives an infinity). MIN/MAX order floats as Spark does: NaN above every number.

**AFTER MATCH SKIP** does not change the matches under SKIP TILL ANY MATCH (every match is
reported; TO FIRST / TO LAST are refused by ``unsupported_reason``), so it is ignored here.

**Cost.** States: sum over components of ``cap(k) x (negation positions watched + 1)``. Per row
that qualifies for some variable: O(transitions of the row) without WITHIN, O(active start keys x
transitions) with it, times (1 + measures); memory: one vector per active start key. No input row
is kept. Work is counted against ``spec.max_steps`` and the active start vectors against
``spec.max_live_runs`` (``sparkcep.engines.budgets``: MATCH_BUDGET_EXCEEDED); the number of matches
is not bounded by ``max_matches``, as none is built.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context, Decimal
from numbers import Number

import numpy as np

from sparkcep.engines.budgets import budget_exceeded
from sparkcep.engines.contract import RowBlock
from sparkcep.engines.sase.pattern import SasePattern, compile_pattern, unsupported_reason
from sparkcep.engines.spec import MatchSpec, RowsPerMatch, Strategy
from sparkcep.errors import InternalError

FIRST = "first"
LAST = "last"
SUM = "sum"  # a per-match SUM over every row a (Kleene) variable selects
COUNT = "count"  # a per-match COUNT of the non-null values of those rows

# what a transition does to a measure of the partial matches it moves
_KEEP = 0  # the value is known and unchanged
_SET = 1  # the value becomes the row's value
_DROP = 2  # no value (yet): the variable was skipped or is still ahead
_ADD = 3  # the row is added to the value (a per-match SUM/COUNT over the variable's rows)
_ZERO = 4  # the value starts at 0 (a per-match COUNT before the variable's first row)

_DECIMAL = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)  # exact Decimal sums and products


@dataclass(frozen=True)
class MeasureRef:
    """A measure whose value in a match is one selected row's value."""

    variable: int  # pattern variable id
    # "first" or "last": that variable's first or last selected row in the match; "sum" /
    # "count": SUM / COUNT over all its rows in the match (``grouped_aggregation`` only)
    which: str
    column: int  # index into RowBlock.columns


@dataclass(frozen=True)
class MeasureTotals:
    """One measure over all matches: how many matches have a non-null value, and the sum (None
    when there is none or the values are not numbers), minimum and maximum of those values (Spark
    order: float NaN above every number)."""

    non_null: int
    total: object
    minimum: object
    maximum: object


@dataclass(frozen=True)
class AggregateTotals:
    matches: int
    measures: tuple[MeasureTotals, ...]


# ---------------------------------------------------------------------------------------------
# What is supported
# ---------------------------------------------------------------------------------------------


def aggregation_unsupported_reason(spec: MatchSpec, has_conditions: bool) -> str | None:
    """None when ``AggregationEngine`` (SKIP TILL ANY MATCH) or ``NextMatchAggregationEngine``
    (SKIP TILL NEXT MATCH) computes exactly the matches the enumerating engine reports for ONE
    ROW PER MATCH; else a short reason."""
    if spec.strategy not in (Strategy.SKIP_TILL_NEXT_MATCH, Strategy.SKIP_TILL_ANY_MATCH):
        return f"{spec.strategy.value} (matches are only counted under the SASE strategies)"
    reason = unsupported_reason(spec)
    if reason is not None:
        return reason
    if spec.timed_out:
        return "WITH TIMED OUT MATCHES (the counters count matches, not the runs a window closed)"
    if compile_pattern(spec).trailing:
        return ("a trailing negation (the counters count a match when its last row arrives; "
                "they do not model a row after it that breaks it)")
    if has_conditions:
        return "a match-dependent DEFINE condition"
    if spec.rows_per_match is not RowsPerMatch.ONE:
        return f"{spec.rows_per_match.value} (matches are only counted with ONE ROW PER MATCH)"
    return None


# ---------------------------------------------------------------------------------------------
# Value arithmetic (exact ints, 200-digit Decimals, floats; Spark's order for MIN/MAX)
# ---------------------------------------------------------------------------------------------


def _is_number(x) -> bool:
    return isinstance(x, Number) and not isinstance(x, bool)


def _add(a, b):
    if isinstance(a, Decimal) or isinstance(b, Decimal):
        return _DECIMAL.add(a, b)
    return a + b


def _times(count: int, x):
    """``x`` added ``count`` times."""
    if isinstance(x, Decimal):
        return _DECIMAL.multiply(x, count)
    if isinstance(x, float):
        try:
            return x * count
        except OverflowError:  # count beyond the float range
            return x if x == 0 else x * math.inf
    return x * count


def _less(a, b) -> bool:
    """a < b with NaN greater than every number (and equal to itself)."""
    if b != b:
        return a == a
    if a != a:
        return False
    return a < b


def _plain(column) -> list:
    """A column as a list of Python values."""
    if isinstance(column, np.ndarray):
        return column.tolist()
    return [v.item() if isinstance(v, np.generic) else v for v in column]


# ---------------------------------------------------------------------------------------------
# The automaton and its per-row programs
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Program:
    """What one row does to a count vector, given the variables it qualifies for.

    ``srcs[j]`` moves its count to each ``(dst, kinds)`` of ``outs[j]`` (``kinds``: one of _KEEP,
    _SET, _DROP per measure; ``keeps[j]``: some move of ``srcs[j]`` keeps a measure);
    ``starts``: the states a new partial match starts in; ``remap``: ``(src, dst)`` for the
    partial matches whose negation gap the row falls into (``dst = -1``: they are dead);
    ``cost``: engine steps per vector."""

    srcs: tuple[int, ...]
    outs: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]
    keeps: tuple[bool, ...]
    starts: tuple[tuple[int, tuple[int, ...]], ...]
    remap: tuple[tuple[int, int], ...]
    cost: int

    @property
    def empty(self) -> bool:
        return not (self.srcs or self.starts or self.remap)


class _Automaton:
    """The states ``(k, n, d)`` of a SASE pattern (module docstring) and, per set of variables a
    row qualifies for, the ``_Program`` of that row."""

    def __init__(self, pat: SasePattern, measures: tuple[MeasureRef, ...]) -> None:
        self.pat = pat
        comps = pat.components
        self.clean = len(comps) + 1  # level of a partial match that violates no negation
        self.reach = [self._next_mandatory(k) for k in range(len(comps))]
        self.watch = [self._watched(k) for k in range(len(comps))]
        self.states: list[tuple[int, int, int]] = []
        self.index: dict[tuple[int, int, int], int] = {}
        for k, c in enumerate(comps):
            for n in range(1, self.cap(k) + 1):
                for d in sorted({p for p, _v in self.watch[k]}) + [self.clean]:
                    self.index[(k, n, d)] = len(self.states)
                    self.states.append((k, n, d))
        self.accepting = [n >= comps[k].min and pat.accepting_from[k] for k, n, _d in self.states]
        variables = {c.var for c in comps} | {v for _p, v in pat.neg_list}
        self.bit = {v: b for b, v in enumerate(sorted(variables))}
        comp_of = {c.var: k for k, c in enumerate(comps)}
        self.measure_comp = [(comp_of.get(m.variable), m.which) for m in measures]
        self.programs: dict[int, _Program] = {}

    # -- shape ------------------------------------------------------------------------------------

    def _next_mandatory(self, k: int) -> int:
        """The last component a partial match at k may proceed to: the next mandatory one."""
        comps = self.pat.components
        return next((t for t in range(k + 1, len(comps)) if comps[t].min > 0), len(comps) - 1)

    def _watched(self, k: int) -> tuple[tuple[int, int], ...]:
        """``(position, variable)`` of the negations a partial match at k may still cross."""
        return tuple((p, v) for p, v in self.pat.neg_list if k < p <= self.reach[k])

    def cap(self, k: int) -> int:
        c = self.pat.components[k]
        return c.max if c.max is not None else max(c.min, 1)

    def _taken(self, k: int, n: int) -> int:
        return min(n + 1, self.cap(k))

    # -- measures ---------------------------------------------------------------------------------

    def _kinds(self, k: int | None, t: int, take: bool) -> tuple[int, ...]:
        """What a move from component k (None: a start) to component t does to each measure."""
        out = []
        for kv, which in self.measure_comp:
            if kv is None:
                out.append(_DROP)
            elif which in (SUM, COUNT):  # every row of the variable adds to the value
                out.append(_ADD if kv == t else _KEEP if k is not None else
                           _ZERO if which == COUNT else _DROP)
            elif kv == t and (not take or which == LAST):
                out.append(_SET)
            elif k is not None and (kv < k or (kv == k and not (take and which == LAST))):
                out.append(_KEEP)
            else:
                out.append(_DROP)
        return tuple(out)

    # -- programs ---------------------------------------------------------------------------------

    def program(self, code: int) -> _Program:
        prog = self.programs.get(code)
        if prog is None:
            prog = self.programs[code] = self._build(code)
        return prog

    def _build(self, code: int) -> _Program:
        has = {v: bool(code >> b & 1) for v, b in self.bit.items()}
        srcs, outs = [], []
        for s, (k, n, d) in enumerate(self.states):
            targets = self._moves(k, n, d, has)
            if targets:
                srcs.append(s)
                outs.append(tuple(targets))
        starts = tuple(
            (self.index[(j, 1, self.clean)], self._kinds(None, j, False))
            for j in self.pat.start_components
            if has[self.pat.components[j].var]
        )
        remap = tuple(self._remap(has))
        keeps = tuple(any(_KEEP in kinds for _dst, kinds in o) for o in outs)
        cost = 1 + sum(map(len, outs)) + len(starts) + len(remap)
        return _Program(tuple(srcs), tuple(outs), keeps, starts, remap, cost)

    def _moves(self, k: int, n: int, d: int, has: dict) -> list:
        """``(dst, kinds)`` of every take / proceed the row allows from state (k, n, d)."""
        comps = self.pat.components
        c = comps[k]
        out = []
        if c.can_take(n) and has[c.var]:
            out.append((self.index[(k, self._taken(k, n), self.clean)], self._kinds(k, k, True)))
        if n >= c.min:
            for t in range(k + 1, self.reach[k] + 1):
                if t >= d:  # crosses a violated negation
                    break
                if has[comps[t].var]:
                    out.append((self.index[(t, 1, self.clean)], self._kinds(k, t, False)))
        return out

    def _remap(self, has: dict):
        """States whose negation level the row lowers, and where their partial matches go."""
        for s, (k, n, d) in enumerate(self.states):
            level = min((p for p, v in self.watch[k] if has[v]), default=self.clean)
            if level >= d:
                continue
            dead = not self.pat.components[k].can_take(n) and level == k + 1
            yield s, -1 if dead else self.index[(k, n, level)]


# ---------------------------------------------------------------------------------------------
# Count vectors
# ---------------------------------------------------------------------------------------------


class _Vector:
    """The partial matches of one start row (or of the whole partition, without WITHIN): per
    state their number and, per measure, over those whose value is known: how many are non-null
    (``nn``), the sum (``sm``), minimum (``mn``) and maximum (``mx``) of the values."""

    __slots__ = ("key", "cnt", "nn", "sm", "mn", "mx")

    def __init__(self, key, states: int, measures: int) -> None:
        self.key = key
        self.cnt = [0] * states
        self.nn = [[0] * states for _ in range(measures)]
        self.sm = [[0] * states for _ in range(measures)]
        self.mn = [[None] * states for _ in range(measures)]
        self.mx = [[None] * states for _ in range(measures)]


class _Totals:
    """One measure over the matches counted so far."""

    __slots__ = ("nn", "sm", "mn", "mx", "summable")

    def __init__(self) -> None:
        self.nn = 0
        self.sm = 0
        self.mn = None
        self.mx = None
        self.summable = True

    def result(self) -> MeasureTotals:
        if not self.nn:
            return MeasureTotals(0, None, None, None)
        return MeasureTotals(self.nn, self.sm if self.summable else None, self.mn, self.mx)


# ---------------------------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------------------------


class AggregationEngine:
    """Counts the SKIP TILL ANY MATCH matches of one partition, and aggregates ``measures`` over
    them, without building them (module docstring). Check ``aggregation_unsupported_reason``
    first: the engine reads only the row-local masks."""

    MEASURE_KINDS = (FIRST, LAST)  # the MeasureRef.which this engine aggregates
    # Whether a row consumes the partial matches it moves (they leave their source states, as
    # under SKIP TILL NEXT MATCH: ``next_aggregation``) or they also stay, ignoring it (ANY).
    CONSUMES = False

    def __init__(self, spec: MatchSpec, measures: tuple[MeasureRef, ...] = ()) -> None:
        for m in measures:
            if m.which not in self.MEASURE_KINDS:
                raise InternalError(f"MeasureRef.which {m.which!r} is not one of {self.MEASURE_KINDS}")
        self.spec = spec
        self.measures = tuple(measures)
        self.auto = _Automaton(compile_pattern(spec), self._kind_refs())
        self.within = spec.within
        self.matches = 0
        self.steps = 0
        self.rows = 0
        self._totals = [_Totals() for _ in self.measures]
        self._read = [m.column for m in self.measures] + self._extra_columns()
        self._global = self._new_vector(None) if self.within is None else None
        self._active: deque = deque()
        self._numeric: list[bool] = []  # per value read: the current row's value is a number
        self._completing = self._entry_completes()

    # -- what a refinement (``trend_aggregation``, ``next_aggregation``) changes -----------------

    def _entry_completes(self) -> list[bool]:
        """Per state, whether a partial match is a match as soon as it enters the state: the
        accepting states (``next_aggregation`` counts a run only when it closes)."""
        return self.auto.accepting

    def _kind_refs(self) -> tuple[MeasureRef, ...]:
        """The selected rows whose value each transition keeps, sets or drops."""
        return self.measures

    def _extra_columns(self) -> list[int]:
        """Columns read per row besides the measures' (their values follow the measures')."""
        return []

    def _expire(self, vec) -> None:
        """A start vector has left the window (its partial matches can no longer complete)."""

    def _new_vector(self, key):
        return _Vector(key, len(self.auto.states), len(self.measures))

    @staticmethod
    def _alive(vec) -> bool:
        return any(vec.cnt)

    # -- public -----------------------------------------------------------------------------------

    def feed(self, block: RowBlock) -> None:
        """Consume the next rows (ORDER BY order)."""
        m = len(block)
        if not m:
            return
        if self.within is not None and block.order_key is None:
            raise InternalError("WITHIN needs RowBlock.order_key")
        codes = self._codes(block.masks)
        columns = [_plain(block.columns[column]) for column in self._read]
        keys = block.order_key.tolist() if self.within is not None else None
        program = self.auto.program
        for i in range(m):
            code = codes[i]
            if not code:
                continue
            prog = program(code)
            if prog.empty:
                continue
            values = None
            if columns:
                values = [col[i] for col in columns]
                self._numeric = [_is_number(x) for x in values]
            if keys is None:
                self._charge(prog.cost)
                self.matches += self._apply(self._global, prog, values)
            else:
                self._windowed_row(prog, keys[i], values)
        self.rows += m

    def totals(self) -> AggregateTotals:
        """The totals over every match whose last row has been fed."""
        return AggregateTotals(self.matches, tuple(t.result() for t in self._totals))

    @property
    def live_vectors(self) -> int:
        """Count vectors alive: active start keys (WITHIN), or 1."""
        return len(self._active) if self.within is not None else 1

    # -- rows -------------------------------------------------------------------------------------

    def _codes(self, masks: np.ndarray) -> list:
        """One int per row: bit b set when the row qualifies for the pattern's b-th variable."""
        bits = self.auto.bit
        dtype = np.int64 if len(bits) < 63 else object
        codes = np.zeros(masks.shape[1], dtype=dtype)
        for v, b in bits.items():
            codes |= masks[v].astype(dtype) << b
        return codes.tolist()

    def _windowed_row(self, prog: _Program, key, values) -> None:
        """Apply a row to every start vector whose window holds it; start a vector at it."""
        active = self._active
        if key != key:  # NaN: in no window; it only violates negations
            self._charge(prog.cost * max(len(active), 1))
            self._remap_all(prog)
            return
        within = self.within
        while active and key - active[0].key >= within:
            self._expire(active.popleft())
        self._charge(prog.cost * (len(active) + 1))
        done = 0
        emptied = False
        for vec in active:
            done += self._apply(vec, prog, values, starts=False)
            if prog.remap and not self._alive(vec):
                emptied = True
        if emptied:
            self._active = deque(v for v in active if self._alive(v))
        if prog.starts and key - key < within:
            done += self._start_vector(prog, key, values)
        self.matches += done

    def _start_vector(self, prog: _Program, key, values) -> int:
        """Start partial matches at this row: in the newest vector if it has the same start key
        (they leave the window together, so their counts can be summed), else in a new one."""
        active = self._active
        if active and active[-1].key == key:
            return self._add_starts(active[-1], prog, values)
        vec = self._new_vector(key)
        done = self._add_starts(vec, prog, values)
        active.append(vec)
        if len(active) > self.spec.max_live_runs:
            raise budget_exceeded(self.spec, "max_live_runs", "active start keys in the window")
        return done

    def _remap_all(self, prog: _Program) -> None:
        if not prog.remap:
            return
        for vec in self._active:
            self._remap(vec, prog)
        self._active = deque(v for v in self._active if self._alive(v))

    def _charge(self, steps: int) -> None:
        self.steps += steps
        if self.steps > self.spec.max_steps:
            raise budget_exceeded(
                self.spec, "max_steps",
                "counting matches without building them: active start keys x automaton states "
                "per row",
            )

    # -- one row on one vector --------------------------------------------------------------------

    def _apply(self, vec: _Vector, prog: _Program, values, starts: bool = True) -> int:
        """Apply one row to ``vec``; return the number of matches it completes."""
        if self.measures:
            return self._apply_measured(vec, prog, values, starts)
        cnt = vec.cnt
        olds = [cnt[s] for s in prog.srcs]
        if prog.remap:
            self._remap(vec, prog)
        done = 0
        accepting = self._completing
        for c, outs in zip(olds, prog.outs):
            if c:
                for dst, _kinds in outs:
                    cnt[dst] += c
                    if accepting[dst]:
                        done += c
        if starts:
            done += self._add_starts(vec, prog, values)
        return done

    def _add_starts(self, vec: _Vector, prog: _Program, values) -> int:
        done = 0
        accepting = self._completing
        for dst, kinds in prog.starts:
            vec.cnt[dst] += 1
            if self.measures:
                self._set_measures(vec, dst, kinds, 1, values)
            if accepting[dst]:
                done += 1
        return done

    def _remap(self, vec: _Vector, prog: _Program) -> None:
        """Move the partial matches the row's negations affect to their new level (or drop them)."""
        cnt = vec.cnt
        for src, dst in prog.remap:
            c = cnt[src]
            if not c:
                continue
            cnt[src] = 0
            if dst >= 0:
                cnt[dst] += c
            for i in range(len(self.measures)):
                moved = self._take_measure(vec, i, src)
                if dst >= 0 and moved is not None:
                    self._merge(vec, i, dst, moved)

    # -- measures ---------------------------------------------------------------------------------

    def _apply_measured(self, vec: _Vector, prog: _Program, values, starts: bool = True) -> int:
        """``_apply`` with measures: each move keeps, sets or drops them (module docstring); the
        moved partial matches leave their source states if the row ``CONSUMES`` them, and
        entering a state completes matches where ``_entry_completes`` says."""
        cnt = vec.cnt
        olds = [cnt[s] for s in prog.srcs]
        kept = [
            self._snapshot(vec, s) if c and keep else None
            for s, c, keep in zip(prog.srcs, olds, prog.keeps)
        ]
        if self.CONSUMES:
            for s, c in zip(prog.srcs, olds):
                if c:
                    cnt[s] = 0
                    for i in range(len(self.measures)):
                        self._take_measure(vec, i, s)
        if prog.remap:
            self._remap(vec, prog)
        done = 0
        accepting = self._completing
        for c, outs, snap in zip(olds, prog.outs, kept):
            if not c:
                continue
            for dst, kinds in outs:
                cnt[dst] += c
                for i, kind in enumerate(kinds):
                    if kind == _KEEP:
                        if snap[i] is not None:
                            self._merge(vec, i, dst, snap[i])
                    elif kind == _SET:
                        self._set(vec, i, dst, c, values[i])
                if accepting[dst]:
                    done += c
                    self._count_measures(kinds, c, values, snap)
        if starts:
            done += self._add_starts(vec, prog, values)
        return done

    def _snapshot(self, vec: _Vector, s: int) -> list:
        """Per measure, (non-null, sum, min, max) of state ``s``, or None when it has no value."""
        return [
            (vec.nn[i][s], vec.sm[i][s], vec.mn[i][s], vec.mx[i][s]) if vec.nn[i][s] else None
            for i in range(len(self.measures))
        ]

    def _take_measure(self, vec: _Vector, i: int, s: int):
        """Remove and return measure ``i`` of state ``s`` (None when it has no value)."""
        nn = vec.nn[i]
        if not nn[s]:
            return None
        out = (nn[s], vec.sm[i][s], vec.mn[i][s], vec.mx[i][s])
        nn[s], vec.sm[i][s], vec.mn[i][s], vec.mx[i][s] = 0, 0, None, None
        return out

    def _merge(self, vec: _Vector, i: int, dst: int, part: tuple) -> None:
        nn, sm, mn, mx = part
        vec.nn[i][dst] += nn
        if self._totals[i].summable:
            vec.sm[i][dst] = self._sum(i, vec.sm[i][dst], sm)
        self._bound(vec, i, dst, mn, mx)

    def _set(self, vec: _Vector, i: int, dst: int, count: int, x) -> None:
        """``count`` partial matches whose value of measure ``i`` is ``x`` enter ``dst``."""
        if x is None:
            return
        vec.nn[i][dst] += count
        tot = self._totals[i]
        if tot.summable:
            if self._numeric[i]:
                vec.sm[i][dst] = self._sum(i, vec.sm[i][dst], _times(count, x))
            else:
                tot.summable = False
        self._bound(vec, i, dst, x, x)

    def _set_measures(self, vec: _Vector, dst: int, kinds, count: int, values) -> None:
        for i, kind in enumerate(kinds):
            if kind == _SET:
                self._set(vec, i, dst, count, values[i])
        if self._completing[dst]:
            self._count_measures(kinds, count, values, None)

    @staticmethod
    def _bound(vec: _Vector, i: int, dst: int, lo, hi) -> None:
        mn, mx = vec.mn[i], vec.mx[i]
        if mn[dst] is None or _less(lo, mn[dst]):
            mn[dst] = lo
        if mx[dst] is None or _less(mx[dst], hi):
            mx[dst] = hi

    def _sum(self, i: int, a, b):
        try:
            return _add(a, b)
        except TypeError:  # values of mixed kinds (e.g. float and Decimal): no sum
            self._totals[i].summable = False
            return 0

    def _count_measures(self, kinds, count: int, values, snap) -> None:
        """Matches completed by a move of ``count`` partial matches: add their measures."""
        for i, kind in enumerate(kinds):
            if kind == _KEEP:
                part = snap[i] if snap is not None else None
            elif kind == _SET and values[i] is not None:
                x = values[i]
                part = (count, _times(count, x) if self._numeric[i] else 0, x, x)
            else:
                continue
            if part is not None:
                self._add_total(i, part)

    def _add_total(self, i: int, part: tuple) -> None:
        nn, sm, mn, mx = part
        tot = self._totals[i]
        tot.nn += nn
        if tot.summable:
            tot.sm = self._sum(i, tot.sm, sm)
        if tot.mn is None or _less(mn, tot.mn):
            tot.mn = mn
        if tot.mx is None or _less(tot.mx, mx):
            tot.mx = mx
