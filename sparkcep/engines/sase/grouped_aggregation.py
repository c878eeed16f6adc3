"""Aggregating SKIP TILL ANY MATCH matches per group of a selected row's value, and per-match
sums over a Kleene variable, without enumerating the matches.

Two extensions of ``sparkcep.engines.sase.trend_aggregation`` (whose cells -- per automaton state,
the partial matches grouped by the values of some selected rows, the *slots* -- they reuse):

**Groups.** ``GROUP BY p, date_trunc('HOUR', first_ts)`` with ``first_ts`` the value of the
match's first row (or ``LAST(E.ts)`` of its last) splits each partition's matches into groups by
a row-local value of one selected row. The compiler has Catalyst compute that value per input row
as a value column (the bucket), so a group key is just one more slot: the value of "the first /
last row of variable V, bucket column" (``MeasureRef``). A slot on the first row is set when the
partial match starts, so the cells hold one count per bucket of the start row (A-Seq's start
event marking, Qi, WPI 2013, with the bucket in place of the start row); a slot on the last row
is set by the row that completes the match, whose bucket receives the count. The totals are kept
per group key: a match is added to the group of its slots' values when it completes.

**Per-match sums over a Kleene variable** (a measure ``SUM(B.x)`` with B under ``+``, ``*`` or
``{n,m}``; ``MeasureRef.which`` "sum"). Each partial match's sum changes with every B row it
takes, so a cell keeps, over its partial matches whose sum is not NULL (some B row had a non-null
x): how many there are (``nn``), the sum of their sums, and the least and greatest sum. A move
into B's component by a row with value x *adds* x (``_ADD``): the ``nn`` partial matches with a
sum get ``sum + x`` each -- their total grows by ``nn x`` and their bounds by x (min-plus /
max-plus: adding x is monotone, so the least sum plus x is the least new sum) -- and the
``count - nn`` ones whose sum was NULL get the sum x; a NULL x changes nothing (SQL's SUM skips
NULLs, and a match whose B rows are all NULL or that has no B row, ``B*``, has a NULL sum). This
is GRETA's propagation of SUM along the event trend graph (Poppe et al., VLDB 2017: the sum of a
vertex's trends is the sum of its predecessors' sums plus its value times their count), with the
extremes carried the same way. ``COUNT(B.x)`` per match ("count") is the same with x replaced by
1 (non-null x) or 0, starting from 0 (``_ZERO``) instead of NULL.

Arithmetic: ints and Decimals exact (Decimals in an unbounded context); DOUBLE values are added in
DOUBLE one row at a time from 0.0, as Spark's SUM adds a match's rows, so the least and greatest
per-match sums are exactly those of the enumerated matches (rounding is monotone). Infinities are
followed exactly: the extremes are kept over the non-NaN sums plus a flag "some sum is NaN"
(``inf + -inf`` makes NaN), from which Spark's MIN / MAX (NaN above every number) follow. The
total of the per-match DOUBLE sums is rounded per prefix rather than per match (as for the other
measures, ``docs/semantics.md``).

**Overflow.** Spark's SUM of a BIGINT column checks every addition (ANSI: an error, else
wrap-around), so an enumerated match raises when *some prefix* of its B rows' sum leaves BIGINT,
even if the whole sum fits. A cell therefore also keeps the least and greatest prefix sum any of
its partial matches ever had (``plo``, ``phi``): a move adding x makes them ``min(plo, lo')`` and
``max(phi, hi')`` with ``lo', hi'`` the new bounds (each new sum is a new prefix of its match),
which is exact by the same min-plus / max-plus argument; cells merge by min / max. Over the
completed matches (``completed_sum_bounds``) they say exactly whether enumeration would raise
(``sparkcep.runtime.aggregation_runner`` decides with the column's type and the ANSI mode).

**Cost.** As ``trend_aggregation``: per row, the cells of the states it moves from; a group slot
multiplies the cells by the buckets alive in a state (one per distinct start bucket for a
first-row key; the last row's bucket only in the accepting states).
"""

from __future__ import annotations

import math
from decimal import Decimal

from sparkcep.engines.sase.aggregation import (
    _ADD,
    _DECIMAL,
    _ZERO,
    COUNT,
    FIRST,
    LAST,
    SUM,
    AggregateTotals,
    MeasureRef,
    MeasureTotals,
    _times,
)
from sparkcep.engines.sase.trend_aggregation import RowComparison, TrendAggregationEngine
from sparkcep.engines.spec import MatchSpec

_INF = math.inf


def _plus(a, b):
    if isinstance(a, Decimal) or isinstance(b, Decimal):
        return _DECIMAL.add(a, b)
    return a + b


def _shifted(lo, hi, nan: bool, x):
    """The bounds ``(lo, hi)`` of a set of non-NaN sums (None when there is none) and whether it
    has a NaN sum, after adding ``x`` to every sum."""
    if lo is None:
        return None, None, nan
    if not isinstance(x, float) or math.isfinite(x):
        return _plus(lo, x), _plus(hi, x), nan
    if x != x:
        return None, None, True
    if x > 0:  # -inf + inf is NaN, every other sum becomes inf
        nan = nan or lo == -_INF
        return (_INF, _INF, nan) if hi > -_INF else (None, None, nan)
    nan = nan or hi == _INF
    return (-_INF, -_INF, nan) if lo < _INF else (None, None, nan)


def _including(lo, hi, nan: bool, x):
    """The bounds and the NaN flag of a set of sums after adding the sum ``x`` to it."""
    if isinstance(x, float) and x != x:
        return lo, hi, True
    if lo is None:
        return x, x, nan
    return (x if x < lo else lo), (x if hi < x else hi), nan


def _least(a, b):
    return b if a is None else a if b is None or a <= b else b


def _greatest(a, b):
    return b if a is None else a if b is None or a >= b else b


class GroupedAggregationEngine(TrendAggregationEngine):
    """Counts the SKIP TILL ANY MATCH matches of one partition per group of ``keys`` (slots: a
    selected row's value; no keys: one group) and aggregates ``measures`` over each group's
    matches, without building them (module docstring). Measures may be "first"/"last" (one
    row's value) or "sum"/"count" (over a variable's rows). Check
    ``aggregation_unsupported_reason(spec, False)`` first."""

    MEASURE_KINDS = (FIRST, LAST, SUM, COUNT)

    def __init__(self, spec: MatchSpec, measures: tuple[MeasureRef, ...] = (),
                 comparisons: tuple[RowComparison, ...] = (),
                 keys: tuple[MeasureRef, ...] = ()) -> None:
        super().__init__(spec, measures, comparisons, keys)
        self.keys = tuple(keys)
        self._key_slots = tuple(self.slots.index(k) for k in self.keys)
        self._summed = tuple(m.which in (SUM, COUNT) for m in self.measures)
        self._groups: dict[tuple, list] = {}  # group key -> [matches, partial per measure]

    # -- results ----------------------------------------------------------------------------------

    def group_totals(self) -> list[AggregateTotals]:
        """Per group with matches (in the order the groups first completed a match): the number
        of its matches and each measure's totals over them."""
        return [AggregateTotals(entry[0], tuple(self._result(i, part)
                                                for i, part in enumerate(entry[1:])))
                for entry in self._groups.values()]

    def totals(self) -> AggregateTotals:
        """Over all groups together."""
        m = len(self.measures)
        whole = [0] + [None] * m
        for entry in self._groups.values():
            whole[0] += entry[0]
            for i in range(m):
                whole[1 + i] = self._merge_part(i, whole[1 + i], entry[1 + i])
        return AggregateTotals(whole[0], tuple(self._result(i, p) for i, p in enumerate(whole[1:])))

    def _result(self, i: int, part) -> MeasureTotals:
        if part is None or not part[0]:
            return MeasureTotals(0, None, None, None)
        total = part[1] if self._totals[i].summable else None
        if not self._summed[i]:
            return MeasureTotals(part[0], total, part[2], part[3])
        _nn, _sm, lo, hi, nan = part[:5]
        minimum = lo if lo is not None else math.nan
        return MeasureTotals(part[0], total, minimum, math.nan if nan else hi)

    # -- the refinement's hooks ---------------------------------------------------------------

    def _other_move(self, i: int, kind, count: int, values, kept):
        if kind == _ADD:
            return self._added(i, kept[i], count, values[i])
        if kind == _ZERO:
            return (count, 0, 0, 0, False, 0, 0)
        return None

    def _added(self, i: int, part, count: int, x):
        """Measure ``i``'s partial aggregate of ``count`` partial matches (``part``: over those
        whose sum is not NULL) after each took a row with value ``x``."""
        if self.measures[i].which == COUNT:
            x = 0 if x is None else 1
        elif x is None:
            return part
        elif not self._numeric[i]:
            self._totals[i].summable = False
        nn, sm, lo, hi, nan, plo, phi = (part if part is not None
                                         else (0, 0, None, None, False, None, None))
        lo, hi, nan = _shifted(lo, hi, nan, x)
        if count > nn:  # the partial matches whose sum was NULL: it becomes x (Spark: 0.0 + x)
            lo, hi, nan = _including(lo, hi, nan, 0.0 + x if isinstance(x, float) else x)
        if self._totals[i].summable:
            sm = self._sum(i, sm, _times(count, x))
        if lo is not None and not isinstance(lo, float):  # every new sum is a prefix sum
            plo = lo if plo is None or lo < plo else plo
            phi = hi if phi is None or hi > phi else phi
        return (count, sm, lo, hi, nan, plo, phi)

    def _merge_part(self, i: int, a, b):
        if not self._summed[i]:
            return super()._merge_part(i, a, b)
        if b is None:
            return a
        if a is None:
            return b
        lo, hi, nan = a[2], a[3], a[4] or b[4]
        if b[2] is not None:
            lo, hi, nan = _including(lo, hi, nan, b[2])
            lo, hi, nan = _including(lo, hi, nan, b[3])
        return (a[0] + b[0], self._sum(i, a[1], b[1]) if self._totals[i].summable else 0,
                lo, hi, nan, _least(a[5], b[5]), _greatest(a[6], b[6]))

    def completed_sum_bounds(self, i: int):
        """Over every completed match (all groups) of the per-match sum measure ``i``: the least
        and greatest final sum and the least and greatest sum any prefix of a match's rows had
        (``None`` each when no match has a sum; exact for integers and decimals)."""
        whole = None
        for entry in self._groups.values():
            whole = self._merge_part(i, whole, entry[1 + i])
        if whole is None or not whole[0]:
            return None, None, None, None
        return whole[2], whole[3], whole[5], whole[6]

    def _merge_moves(self, vec, pending) -> int:
        """Apply the moves; add the matches they complete to their groups; return how many."""
        done = 0
        accepting = self.auto.accepting
        cells = vec.cells
        m = len(self.measures)
        groups = self._groups
        for dst, key, moved in pending:
            self._merge_cell(cells[dst], key, moved)
            if accepting[dst]:
                done += moved[0]
                group = tuple(key[j] for j in self._key_slots)
                entry = groups.get(group)
                if entry is None:
                    entry = groups[group] = [0] + [None] * m
                entry[0] += moved[0]
                for i in range(m):
                    entry[1 + i] = self._merge_part(i, entry[1 + i], moved[1 + i])
        return done
