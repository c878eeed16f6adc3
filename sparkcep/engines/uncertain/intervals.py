"""Interval shrinking (Zhang, Diao, Immerman, PVLDB 2010, section 5.1, Appendix B.1): the valid
range of each event of a signature, given only the pattern order and the window.

The paper's three passes -- forward valid lower bounds (``vlb_k = max(lo_k, vlb_{k-1} + 1)``),
backward revised upper bounds (``rub_k = min(hi_k, rub_{k+1} - 1)``), and valid upper bounds from
the window (``vub_n = min(rub_n, rub_1 + W - 1)``, then backward) -- never raise a *lower* bound
by the window: for e1 = [1, 10], e2 = [12, 30], WITHIN 5 they keep e1 in [1, 10] though only
[8, 10] can be part of a match. The constraints (``t_{k-1} + 1 <= t_k``, ``t_n - t_1 <= W - 1``)
form a simple temporal network; relaxing every bound until nothing changes (the window also
raises ``lo_1`` to ``lo_n - W + 1``) gives its minimal domains: every point of every range is
the time of its event in some consistent tuple.
"""

from __future__ import annotations


def shrink(intervals: list[tuple[int, int]], window: int | None) -> list[tuple[int, int]] | None:
    """The valid range of each event (in match order), or None when no tuple of times is
    consistent."""
    lo = [a for a, _ in intervals]
    hi = [b for _, b in intervals]
    n = len(lo)
    while True:
        before = (tuple(lo), tuple(hi))
        for k in range(1, n):  # forward: after the previous event
            lo[k] = max(lo[k], lo[k - 1] + 1)
        for k in range(n - 2, -1, -1):  # backward: before the next event
            hi[k] = min(hi[k], hi[k + 1] - 1)
        if window is not None:  # the window, both ways
            hi[-1] = min(hi[-1], hi[0] + window - 1)
            lo[0] = max(lo[0], lo[-1] - window + 1)
        if any(a > b for a, b in zip(lo, hi)):
            return None
        if (tuple(lo), tuple(hi)) == before:
            return list(zip(lo, hi))
