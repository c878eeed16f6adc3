"""The rows an imprecise-timestamp engine still needs, and what both engines share about them:
which rows qualify for a variable (the row-local mask and the match-dependent condition, read
through a ``RunContext`` over the rows selected so far) and which unselected rows could break a
match (``relevance``: skip till next match and negation; strict contiguity needs every row).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Sequence

import numpy as np

from sparkcep.engines.budgets import budget_exceeded
from sparkcep.engines.contract import RowBlock
from sparkcep.engines.run_context import RunContext, normalize_conditions
from sparkcep.engines.spec import MatchSpec, Strategy
from sparkcep.engines.uncertain.pattern import UncertainPattern
from sparkcep.errors import InternalError


class RowBuffer:
    """Buffered rows: ``lo``/``hi`` (interval), ``masks`` (variables x rows) as NumPy arrays over
    the buffered rows; ``base`` is the absolute index of the first buffered row. Columns are kept
    per block, by reference."""

    def __init__(self, n_vars: int) -> None:
        self.n_vars = n_vars
        self.base = 0
        self.lo = np.zeros(0, dtype=np.int64)
        self.hi = np.zeros(0, dtype=np.int64)
        self.masks = np.zeros((n_vars, 0), dtype=bool)
        self._offsets: list[int] = []
        self._blocks: list[RowBlock] = []

    @property
    def end(self) -> int:
        """Absolute index one past the last buffered row."""
        return self.base + len(self.lo)

    def add(self, block: RowBlock) -> None:
        if block.time_lo is None or block.time_hi is None:
            raise InternalError("imprecise-timestamp engine fed a block without time_lo/time_hi")
        lo = np.asarray(block.time_lo, dtype=np.int64)
        hi = np.asarray(block.time_hi, dtype=np.int64)
        if np.any(hi < lo):
            raise InternalError("a row's time interval is empty (time_hi < time_lo)")
        prev = self.lo[-1:] if len(self.lo) else lo[:0]
        if len(lo) and np.any(np.diff(np.concatenate([prev, lo])) < 0):
            raise InternalError("rows must arrive sorted by time_lo")
        self._offsets.append(self.end)
        self._blocks.append(block)
        self.lo = np.concatenate([self.lo, lo])
        self.hi = np.concatenate([self.hi, hi])
        self.masks = np.concatenate([self.masks, np.asarray(block.masks, dtype=bool)], axis=1)

    def drop_before(self, row: int) -> None:
        """Forget rows with absolute index < ``row``."""
        k = row - self.base
        if k <= 0:
            return
        self.lo, self.hi, self.masks = self.lo[k:], self.hi[k:], self.masks[:, k:]
        self.base = row
        drop = 0
        while drop + 1 < len(self._offsets) and self._offsets[drop + 1] <= row:
            drop += 1
        if drop:
            del self._offsets[:drop], self._blocks[:drop]

    def value(self, column: int, row: int):
        if not self.base <= row < self.end:
            raise InternalError(f"row {row} is no longer buffered")
        i = bisect_right(self._offsets, row) - 1
        return self._blocks[i].columns[column][row - self._offsets[i]]

    def interval(self, row: int) -> tuple[int, int]:
        k = row - self.base
        return int(self.lo[k]), int(self.hi[k])


class Rules:
    """The pattern, the conditions and the strategy: who qualifies, who is relevant."""

    def __init__(self, spec: MatchSpec, pat: UncertainPattern, conditions) -> None:
        self.spec = spec
        self.pat = pat
        self.conds = normalize_conditions(conditions, len(spec.variable_names))
        self.strategy = spec.strategy
        self.excluded = {c.var: c.excluded for c in pat.components}

    def qualifies(self, buf: RowBuffer, rows, labels, row: int, var: int) -> bool:
        if not buf.masks[var, row - buf.base]:
            return False
        cond = self.conds[var]
        return cond is None or bool(cond(RunContext(buf, rows, labels, row, var)))

    def relevant_vars(self, comps: Sequence[int], k: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """For the step from selected position ``k - 1`` to ``k`` (``comps``: the component of each
        selected position): the variables whose rows may not lie strictly between the two under
        skip till next match (empty for the other strategies), and the negated variables."""
        c_prev, c_next = comps[k - 1], comps[k]
        comp = self.pat.components
        nxt: tuple[int, ...] = ()
        if self.strategy is Strategy.SKIP_TILL_NEXT_MATCH:
            if comp[c_prev].kleene:
                nxt = (comp[c_prev].var, comp[c_prev + 1].var)
            else:
                nxt = (comp[c_prev + 1].var,)
        neg = self.pat.negations[c_next] if c_next != c_prev else ()
        return nxt, neg

    def exclusions(self, buf: RowBuffer, rows, labels, comps, cand: np.ndarray) -> dict[int, list[int]]:
        """Unselected rows (among the absolute indices ``cand``) that break the match when they
        lie strictly between selected positions ``k - 1`` and ``k``: row -> the gaps ``k``.
        Not used under strict contiguity (every unselected row in the span breaks it)."""
        chosen = set(rows)
        out: dict[int, list[int]] = {}
        local = cand - buf.base
        c_lo, c_hi = buf.lo[local], buf.hi[local]
        for k in range(1, len(rows)):
            nxt, neg = self.relevant_vars(comps, k)
            variables = sorted(set(nxt) | set(neg))
            if not variables:
                continue
            lo_gap, hi_gap = buf.interval(rows[k - 1])[0], buf.interval(rows[k])[1]
            near = (c_hi > lo_gap) & (c_lo < hi_gap)  # can lie strictly between
            near &= buf.masks[variables][:, local].any(axis=0)
            prefix_rows, prefix_labels = rows[:k], labels[:k]
            for x in cand[near]:
                x = int(x)
                if x in chosen:
                    continue
                if any(self.qualifies(buf, prefix_rows, prefix_labels, x, v) for v in variables):
                    out.setdefault(x, []).append(k)
        return out


def check_budget(spec: MatchSpec, field: str, value: int, detail: str = "") -> None:
    if value > getattr(spec, field):
        raise budget_exceeded(spec, field, detail)
