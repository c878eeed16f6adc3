"""Confidence of a match signature by dynamic programming over time points.

A signature selects events ``e_1 .. e_n`` (in match order); event ``e`` occurred at one of the
``len(e)`` equally likely points of its interval, independently of the others. The signature is a
match in exactly the worlds where

* ``t_1 < t_2 < ... < t_n`` and ``t_n - t_1 < W`` (the window),
* no unselected row that breaks the match lies where it would break it: strictly between two
  consecutive selected events (skip till next match: a row that could have been selected next;
  negation: a row of the negated variable), or anywhere in ``[t_1, t_n]`` (strict contiguity).

Zhang, Diao, Immerman (PVLDB 2010, Eq. 1-3) sum the probabilities of the point matches; that
enumerates ``O(U^n)`` point tuples. Here the sum is a chain DP *anchored at the first event's
time* ``a``: ``G_k[a, t]`` is the weight of the point tuples ``t_1 = a < ... < t_k = t``; one step
is a prefix sum (``O(A * U)``), or a matrix product with the pair factors of the rows that may not
lie between the two events (``O(A * U^2)``). The anchor makes the window exact (``t - a < W``) and
gives the exact time range: the anchors and end points with positive weight are precisely the
first and last events' possible times in the worlds where the signature matches (this corrects
the paper's interval passes, which never tighten lower bounds by the window).

Arithmetic is exact (integer counts over the common denominator ``prod len``, ``int64``) while
that denominator stays below 2**62; beyond, it switches to float64 probabilities.

A breaking row ``x`` whose factor involves one gap (or, under strict contiguity, the whole span)
enters as a factor ``1 - P[x in the gap]``. A row that could break several gaps (for instance a
``B`` row between the events of a ``B+`` under skip till next match) makes the gaps dependent: the
DP state then also records whether that row already occurred (where the paper's Eq. 4 enumerates
the time points of events matching several components, a factor ``U`` per such row, this costs a
factor 2).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from sparkcep.engines.uncertain.intervals import shrink

_EXACT_LIMIT = 2**62
_BIG = np.iinfo(np.int64).max
_FLOAT_EXACT = 2**53
MAX_CELLS = 1 << 24  # default bound on one DP array (anchor points x time points)


class DpTooLarge(Exception):
    """One DP array would exceed the cell bound (intervals or windows of too many points)."""

    def __init__(self, cells: int) -> None:
        super().__init__(cells)
        self.cells = cells


def _check(cells: int, max_cells: int) -> None:
    if cells > max_cells:
        raise DpTooLarge(cells)


@dataclass
class Chain:
    """The DP after ``k`` events: ``g[i, j]`` is the weight of ``t_1 = a0 + i``, ``t_k = t0 + j``.
    Exact mode: weights are integer counts over ``denom``; float mode (``denom is None``):
    probabilities."""

    a0: int
    t0: int
    g: np.ndarray
    denom: int | None

    @property
    def t1(self) -> int:
        return self.t0 + self.g.shape[1] - 1

    def mass(self):
        """The probability of the chain so far (Fraction in exact mode, else float)."""
        total = self.g.sum()
        if self.denom is None:
            return float(total)
        return Fraction(int(total), self.denom)

    def time_range(self) -> tuple[int, int, int, int] | None:
        """(first lo, first hi, last lo, last hi) over the tuples of positive weight."""
        rows = np.flatnonzero(self.g.sum(axis=1) > 0)
        cols = np.flatnonzero(self.g.sum(axis=0) > 0)
        if not len(rows):
            return None
        return (self.a0 + int(rows[0]), self.a0 + int(rows[-1]),
                self.t0 + int(cols[0]), self.t0 + int(cols[-1]))


def _as_float(chain: Chain) -> np.ndarray:
    return chain.g.astype(np.float64) / chain.denom if chain.denom is not None else chain.g


def start(lo: int, hi: int, exact: bool = True, max_cells: int = MAX_CELLS,
          length: int | None = None) -> Chain:
    """The chain of one event over ``[lo, hi]`` (anchor = its own time); ``length``: the number
    of points of its whole interval when ``[lo, hi]`` is only the part that can matter."""
    n = length or hi - lo + 1
    size = hi - lo + 1
    _check(size * size, max_cells)
    if exact and n < _EXACT_LIMIT:
        return Chain(lo, lo, np.eye(size, dtype=np.int64), n)
    return Chain(lo, lo, np.eye(size, dtype=np.float64) / n, None)


def extend(chain: Chain, lo: int, hi: int, window: int | None, pair=None,
           max_cells: int = MAX_CELLS, length: int | None = None) -> Chain | None:
    """Append an event over ``[lo, hi]`` strictly after the last one, inside the window
    (``length``: as for :func:`start`).

    ``pair``: optional ``(s_grid, t_grid) -> (numerator, denominator)`` giving the integer factor
    of each (previous time, new time) pair and its common denominator (breaking rows)."""
    a_last = chain.a0 + chain.g.shape[0] - 1
    new_lo = max(lo, chain.t0 + 1)
    new_hi = hi if window is None else min(hi, a_last + window - 1)
    if new_lo > new_hi:
        return None
    _check(chain.g.shape[0] * (new_hi - new_lo + 1), max_cells)
    if pair is not None:
        _check(chain.g.shape[1] * (new_hi - new_lo + 1), max_cells)
    n = length or hi - lo + 1
    ts = np.arange(new_lo, new_hi + 1, dtype=np.int64)
    num, den = None, 1
    if pair is not None:
        ss = np.arange(chain.t0, chain.t1 + 1, dtype=np.int64)
        num, den = pair(ss[:, None], ts[None, :])
        num = np.where(ss[:, None] < ts[None, :], num, 0)
    exact = chain.denom is not None and chain.denom * n * den < _EXACT_LIMIT
    g = chain.g if exact else _as_float(chain)
    if num is None:
        csum = np.cumsum(g, axis=1)
        idx = np.minimum(ts - 1, chain.t1) - chain.t0  # the last previous time before t
        out = np.where(idx[None, :] >= 0, csum[:, np.maximum(idx, 0)], 0)
    elif exact and chain.denom * n * den < _FLOAT_EXACT:
        # integers below 2**53 are exact in float64, and so is every partial sum here (each is
        # at most the new denominator): the BLAS product gives the exact counts
        out = (g.astype(np.float64) @ num.astype(np.float64)).astype(np.int64)
    elif exact:
        out = g @ num.astype(np.int64)
    else:
        out = g @ (num.astype(np.float64) / den)
    if window is not None:
        anchors = np.arange(chain.a0, a_last + 1, dtype=np.int64)
        out = np.where(ts[None, :] - anchors[:, None] < window, out, 0)
    if not out.any():
        return None
    if exact:
        return Chain(chain.a0, new_lo, out, chain.denom * n * den)
    return Chain(chain.a0, new_lo, out / n, None)


def span_factor(chain: Chain, rows: list[tuple[int, int]]) -> Chain:
    """Strict contiguity: every unselected row ``(lo, hi)`` must lie outside ``[t_1, t_n]``."""
    a = np.arange(chain.a0, chain.a0 + chain.g.shape[0], dtype=np.int64)[:, None]
    t = np.arange(chain.t0, chain.t1 + 1, dtype=np.int64)[None, :]
    for lo, hi in rows:
        n = hi - lo + 1
        outside = n - np.maximum(np.minimum(t, hi) - np.maximum(a, lo) + 1, 0)
        if chain.denom is not None and chain.denom * n < _EXACT_LIMIT:
            chain = Chain(chain.a0, chain.t0, chain.g * outside, chain.denom * n)
        else:
            chain = Chain(chain.a0, chain.t0, _as_float(chain) * (outside / n), None)
    return chain


def _gap_factor(single: list[tuple[int, int]], placed: list[tuple[int, int, frozenset]], k: int):
    """The pair factor of gap ``k``: ``single`` rows may not lie strictly inside it (a factor
    ``len - count``); the ``placed`` tracked rows occur in ``(s, t]`` -- only at ``t`` when they
    break this gap."""

    # the numerator is at most the product of the lengths of these rows: beyond int64, the
    # chain is in float mode anyway (its denominator includes them), so count in float64
    bound = 1
    for lo, hi in single:
        bound *= hi - lo + 1
    for lo, hi, _gaps in placed:
        bound *= hi - lo + 1
    dtype = np.int64 if bound < _EXACT_LIMIT else np.float64

    def pair(s, t):
        num = np.ones(np.broadcast(s, t).shape, dtype=dtype)
        den = 1
        for lo, hi in single:
            cnt = np.maximum(np.minimum(t - 1, hi) - np.maximum(s + 1, lo) + 1, 0)
            num = num * (hi - lo + 1 - cnt)
            den *= hi - lo + 1
        for lo, hi, gaps in placed:
            if k in gaps:
                num = num * ((lo <= t) & (t <= hi))
            else:
                num = num * np.maximum(np.minimum(t, hi) - np.maximum(s + 1, lo) + 1, 0)
        return num, den

    return pair


@dataclass
class Outcome:
    """A signature's confidence (Fraction when exact, else float) and time range."""

    confidence: Fraction | float
    time_range: tuple[int, int, int, int]


def signature_confidence(
    intervals: list[tuple[int, int]],
    window: int | None,
    breaking: dict[int, list[int]] | None = None,
    row_intervals: dict[int, tuple[int, int]] | None = None,
    span_rows: list[tuple[int, int]] | None = None,
    max_tracked: int = 8,
    max_cells: int = MAX_CELLS,
) -> Outcome | None:
    """The confidence and time range of a signature whose events have ``intervals`` (match
    order); None when it matches in no world.

    ``breaking``: unselected row -> the gaps ``k`` (between events ``k-1`` and ``k``) it may not
    lie strictly inside; ``row_intervals`` their intervals. ``span_rows``: strict contiguity's
    rows that may not lie in ``[t_1, t_n]``.

    A row breaking one gap is a pair factor of that gap. A row breaking several gaps is *tracked*:
    the DP state also records which tracked rows already occurred (at or before the current
    event's time); a tracked row occurs inside a gap it breaks only tied with the gap's right end
    (a tie is not "strictly between"), anywhere in the other gaps, before the first event or after
    the last. That is ``2^m`` arrays for ``m`` tracked rows (at most ``max_tracked``, else
    ValueError). A DP array of more than ``max_cells`` cells raises DpTooLarge."""
    breaking = breaking or {}
    single: dict[int, list[tuple[int, int]]] = {}
    tracked: list[tuple[int, int, frozenset]] = []
    for x, gaps in breaking.items():
        if len(gaps) == 1:
            single.setdefault(gaps[0], []).append(row_intervals[x])
        else:
            tracked.append((*row_intervals[x], frozenset(gaps)))
    m = len(tracked)
    if m > max_tracked:
        raise ValueError(m)
    # only the valid ranges can carry weight (the denominators keep the whole intervals)
    lengths = [hi - lo + 1 for lo, hi in intervals]
    valid = shrink(intervals, window)
    if valid is None:
        return None
    # the tracked rows' denominators enter the chain from the start, so that every state's array
    # shares one denominator and the exact/float switch happens for all of them at once
    lo1, hi1 = valid[0]
    denom = lengths[0]
    for lo, hi, _g in tracked:
        denom *= hi - lo + 1
    anchors = np.arange(lo1, hi1 + 1, dtype=np.int64)
    _check(len(anchors) ** 2, max_cells)
    exact = denom < _EXACT_LIMIT
    states: dict[int, Chain] = {}
    for mask in range(1 << m):
        w = np.ones(len(anchors), dtype=np.int64 if exact else np.float64)
        for i, (lo, hi, _g) in enumerate(tracked):
            if mask >> i & 1:  # the row occurred at or before t_1 (its later times: later)
                w = w * np.clip(anchors - lo + 1, 0, hi - lo + 1)
        if not w.any():
            continue
        g = np.diag(w)
        states[mask] = Chain(lo1, lo1, g, denom) if exact else Chain(lo1, lo1, g / denom, None)
    for k in range(1, len(intervals)):
        s_rows = single.get(k, [])
        new: dict[int, Chain] = {}
        for mask, chain in states.items():
            free = [i for i in range(m) if not mask >> i & 1]
            for sub in range(1 << len(free)):
                placed = [free[j] for j in range(len(free)) if sub >> j & 1]
                pair = _gap_factor(s_rows, [tracked[i] for i in placed], k) \
                    if (s_rows or placed) else None
                nxt = extend(chain, *valid[k], window, pair, max_cells, lengths[k])
                if nxt is None:
                    continue
                key = mask | sum(1 << i for i in placed)
                old = new.get(key)
                new[key] = nxt if old is None else Chain(old.a0, old.t0, old.g + nxt.g, old.denom)
        states = new
        if not states:
            return None
    total: Chain | None = None
    for mask, chain in states.items():
        ts = np.arange(chain.t0, chain.t1 + 1, dtype=np.int64)
        g = chain.g
        for i, (lo, hi, _g) in enumerate(tracked):
            if not mask >> i & 1:  # still to occur: after the last event
                g = g * (hi - lo + 1 - np.clip(ts - lo + 1, 0, hi - lo + 1))[None, :]
        total = Chain(chain.a0, chain.t0, g, chain.denom) if total is None else \
            Chain(total.a0, total.t0, total.g + g, total.denom)
    if total is None:
        return None
    if span_rows:
        total = span_factor(total, span_rows)
    rng = total.time_range()
    if rng is None:
        return None
    return Outcome(total.mass(), rng)


@dataclass
class Closed:
    """The signatures that close a chain with one of ``K`` candidate last events (see
    :func:`close`): ``ok[k]`` whether candidate ``k`` matches in some world, ``mass[k]`` its
    probability (Fraction in exact mode, else float), ``ranges[k]`` its time range."""

    ok: np.ndarray
    mass: list
    ranges: list


def close(chain: Chain, lo: np.ndarray, hi: np.ndarray, window: int | None,
          max_cells: int = MAX_CELLS) -> Closed | None:
    """:func:`extend` by each of ``K`` candidate last events over ``[lo[k], hi[k]]`` at once,
    keeping only what a signature's result needs: its mass and time range (skip till any match
    without negation, where nothing else enters the confidence).

    ``extend`` builds the ``A x U`` array ``G'[a, t] = sum_{s < t} G[a, s]`` (masked by the
    window ``t - a < W``) for every candidate. Its row ``a`` is a prefix sum of ``G`` read over
    the candidate's points ``[l, e(a)]``, ``e(a) = min(hi, a + W - 1)``; so with one table
    ``P[a, u] = sum_{t <= u} G'[a, t]`` over the union of the candidates' ranges (built once per
    chain), the mass of candidate ``k`` is ``sum_a P[a, e_k(a)] - P[a, l_k - 1]``: ``O(A)`` per
    candidate instead of ``O(A * U)``. The time range needs no table: ``G'[a, .]`` is
    non-decreasing in ``t`` from the first positive point ``f(a)`` (one after the first ``s``
    with ``G[a, s] > 0``), so anchor ``a`` carries weight exactly when
    ``max(l_k, f(a)) <= e_k(a)``, and those bounds are the last event's possible times.

    Returns None when the table would not be exact in ``int64`` or would exceed ``max_cells``
    (the caller then extends one candidate at a time); raises DpTooLarge where ``extend``
    would."""
    g = chain.g
    n_anchor = g.shape[0]
    a_last = chain.a0 + n_anchor - 1
    lo = np.asarray(lo, dtype=np.int64)
    hi = np.asarray(hi, dtype=np.int64)
    lengths = hi - lo + 1
    left = np.maximum(lo, chain.t0 + 1)
    right = hi if window is None else np.minimum(hi, a_last + window - 1)
    live = left <= right
    if not live.any():
        return Closed(live, [None] * len(lo), [None] * len(lo))
    _check(n_anchor * int((right - left + 1)[live].max()), max_cells)
    first_u = chain.t0 + 1
    last_u = int(right[live].max())
    span = last_u - first_u + 1
    if n_anchor * (span + 1) > max_cells:
        return None
    exact = chain.denom is not None
    if exact and (chain.denom * int(lengths[live].max()) >= _EXACT_LIMIT
                  or chain.denom * (span + 1) >= _EXACT_LIMIT):
        return None
    # G'[a, u] for u in [first_u, last_u]: the prefix sum of G up to min(u - 1, t1)
    csum = np.cumsum(g, axis=1)
    us = np.arange(first_u, last_u + 1, dtype=np.int64)
    table = np.zeros((n_anchor, span + 1), dtype=csum.dtype)
    np.cumsum(csum[:, np.minimum(us - 1, chain.t1) - chain.t0], axis=1, out=table[:, 1:])
    anchors = np.arange(chain.a0, a_last + 1, dtype=np.int64)
    positive = g > 0
    has = positive.any(axis=1)
    first_pos = np.where(has, chain.t0 + np.argmax(positive, axis=1) + 1, _BIG)
    # K x A: each candidate's last point per anchor, and where its weight starts
    ends = np.broadcast_to(right[:, None], (len(lo), n_anchor)) if window is None else \
        np.minimum(right[:, None], anchors[None, :] + window - 1)
    starts = np.maximum(left[:, None], first_pos[None, :])
    carry = (starts <= ends) & live[:, None]
    rows = np.arange(n_anchor)[None, :]
    lo_idx = np.minimum(np.maximum(left[:, None] - first_u, 0), span)
    hi_idx = np.minimum(np.maximum(ends - first_u + 1, 0), span)
    part = np.where(carry, table[rows, hi_idx] - table[rows, lo_idx], 0)
    totals = part.sum(axis=1)
    ok = carry.any(axis=1)
    # per candidate: the first and last anchor that carries weight, the last event's bounds
    first_a = chain.a0 + np.argmax(carry, axis=1)
    last_a = a_last - np.argmax(carry[:, ::-1], axis=1)
    end_lo = np.where(carry, starts, _BIG).min(axis=1)
    end_hi = np.where(carry, ends, -_BIG).max(axis=1)
    ranges = [(a, b, c, d) if live else None for a, b, c, d, live in zip(
        first_a.tolist(), last_a.tolist(), end_lo.tolist(), end_hi.tolist(), ok.tolist())]
    if exact:
        denoms = (chain.denom * lengths).tolist()
        mass = [Fraction(t, den) if live else None
                for t, den, live in zip(totals.tolist(), denoms, ok.tolist())]
    else:
        mass = [t if live else None for t, live in zip((totals / lengths).tolist(), ok.tolist())]
    return Closed(ok, mass, ranges)
