"""Overlapping matches (AFTER MATCH SKIP TO NEXT ROW) of a chain of runs, in NumPy, from every row
at once.

A *chain of runs* is a pattern that is a concatenation of variables, each alone or quantified
with at least one row: ``B#1 B#2{2,}`` (the rising streak ``B{3,}`` unrolled), ``STRT DOWN+
UP+``, ``A{2} B+? C{1,3}``. Under SKIP TO NEXT ROW every row is tried as a match's first row, and
the regex fast path runs the backtracking engine once per row (``regex_path``). For a chain the
match tried at each row has a closed form wherever, in the partition at hand, no row satisfies
both the variable of an item with a variable number of rows and the variable of the item after
it (adjacent classes disjoint on the data):

* an item ``X{m,n}`` starting at row p can only take rows of X's *run* at p (the consecutive
  rows from p on where X holds; ``run[p]`` of them), so it needs ``run[p] >= m``;
* greedy, it takes ``min(run[p], n)`` rows. Any fewer rows, k, leave row p + k, a row of X,
  to the next item, whose variable does not hold there (disjoint classes): every shorter choice
  fails, so backtracking (SQL:2016's preferment, ISO/IEC 19075-5, 4.12) ends at the greedy one
  or at no match. Past ``n`` rows the same argument applies to row p + n;
* reluctant, it takes the fewest rows the rest of the chain accepts: for the last item ``m``;
  for any other item the rows up to the run's end as above (the next item cannot start inside
  X's run), so the same count as greedy;
* an item with a fixed count (``X``, ``X{3}``) has no choice: ``m`` rows of X's run.

So, per row p, the chain is followed once, one vectorized step per item over all rows, with run
lengths computed per variable by one reverse scan. A partition whose data breaks the condition
falls back to the backtracking engine (``summarize`` returns None); ``tests/matcher/test_run_chain.py``
checks both against the brute-force oracle.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.budgets import budget_exceeded
from sparkcep.engines.contract import MatchSummaries, SummaryRequest
from sparkcep.engines.spec import MatchSpec, SkipMode
from sparkcep.engines.standard.marked_regex import summaries_from_groups


@dataclass(frozen=True)
class RunItem:
    """One item of the chain: ``var`` for at least ``least`` and at most ``most`` rows (None:
    unbounded), ``greedy`` or reluctant."""

    var: int
    least: int
    most: int | None
    greedy: bool

    @property
    def fixed(self) -> bool:
        return self.most == self.least


@dataclass(frozen=True)
class RunChain:
    """A chain of runs (see the module docstring)."""

    items: tuple[RunItem, ...]

    def summarize(self, codes: np.ndarray, request: SummaryRequest, spec: MatchSpec) -> MatchSummaries | None:
        """Every match under SKIP TO NEXT ROW of one partition (``codes``: the variables' bit
        set per row), as ``regex_path`` returns them column-wise; None where the partition's
        data breaks the chain's condition (adjacent classes of a variable item overlap)."""
        codes = codes.astype(np.int64)
        holds = {v: (codes >> v) & 1 == 1 for v in {item.var for item in self.items}}
        for item, after in zip(self.items, self.items[1:]):
            if not item.fixed and np.any(holds[item.var] & holds[after.var]):
                return None
        n = len(codes)
        runs = {v: _run_lengths(rows) for v, rows in holds.items()}
        position = np.arange(n, dtype=np.int64)
        matched = np.ones(n, dtype=bool)
        starts, lengths = [], []
        last = len(self.items) - 1
        for k, item in enumerate(self.items):
            run = runs[item.var][position]  # position <= n: run[n] is 0
            matched &= run >= item.least
            if item.fixed or (k == last and not item.greedy):
                taken = np.full(n, item.least, dtype=np.int64)
            elif item.most is None:
                taken = run
            else:
                taken = np.minimum(run, item.most)
            taken = np.where(matched, taken, 0)
            starts.append(position)
            lengths.append(taken)
            position = position + taken
        found = np.flatnonzero(matched)
        if len(found) > spec.max_matches:
            raise budget_exceeded(spec, "max_matches")
        group_start = np.stack(starts, axis=1)[found]
        group_length = np.stack(lengths, axis=1)[found]
        return summaries_from_groups(found, position[found], group_start, group_length,
                                     tuple(item.var for item in self.items), request)


def _run_lengths(holds: np.ndarray) -> np.ndarray:
    """Per row p (and p = n, where it is 0): how many consecutive rows from p on hold."""
    n = len(holds)
    at = np.arange(n + 1, dtype=np.int64)
    breaks = np.where(np.append(holds, False), n + 1, at)  # rows that do not hold, and n
    next_break = np.minimum.accumulate(breaks[::-1])[::-1]
    return next_break - at


def run_chain_form(spec: MatchSpec) -> RunChain | None:
    """The pattern's chain of runs under SKIP TO NEXT ROW, or None where it is not one (the
    caller has checked the regex fast path's own conditions)."""
    if spec.skip is not SkipMode.TO_NEXT_ROW:
        return None
    return _chain(spec.pattern)


@functools.lru_cache(maxsize=256)
def _chain(pattern: rp.Pattern) -> RunChain | None:
    parts = pattern.items if isinstance(pattern, rp.Concat) else (pattern,)
    items = []
    for part in parts:
        if isinstance(part, rp.Label):
            items.append(RunItem(part.var, 1, 1, True))
        elif (isinstance(part, rp.Quantified) and isinstance(part.pattern, rp.Label)
              and part.min >= 1):
            items.append(RunItem(part.pattern.var, part.min, part.max, part.greedy))
        else:
            return None  # an anchor, a choice, a group, an optional item, ...
    return RunChain(tuple(items)) if items else None
