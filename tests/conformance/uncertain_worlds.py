"""The possible-worlds oracle of imprecise timestamps (Zhang, Diao, Immerman, PVLDB 2010, §3.3),
written from the definition and sharing no code with sparkcep, and the streams the tests use.

Every row occurred at one equally likely time point of its interval; a world fixes one point per
row; a match (a signature: the rows and their variables) has as confidence the probability of
the worlds in which it is a match, and as time bounds the earliest/latest points of its first
and last rows over those worlds. ``worlds_oracle`` enumerates the worlds literally for SKIP TILL
ANY MATCH, where a world's matches are all combinations of rows whose time points increase
strictly in pattern order within the window (``last - first < W``).
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

FIGURE_1 = [(1, "a", 1, 5), (2, "c", 3, 5), (3, "b", 3, 7), (4, "c", 4, 6)]  # id, kind, lo, hi
WINDOW = 4


def _cases() -> dict[int, list[tuple[int, str, int, int]]]:
    """Case 0 is Figure 1; the others are small random streams (ties, overlaps, containment)."""
    rng = random.Random(14)
    cases = {0: FIGURE_1}
    for case in range(1, 13):
        rows = []
        for row_id in range(1, rng.choice([4, 5, 6]) + 1):
            lo = rng.randrange(0, 8)
            rows.append((row_id, rng.choice("aabbcc"), lo, lo + rng.choice([0, 1, 2, 3])))
        cases[case] = rows
    return cases


CASES = _cases()


def worlds_oracle(rows, pattern: str, window: int, minimum: float = 0.0):
    """{(case-local signature): (confidence, start lo, start hi, end lo, end hi)} for ``pattern``
    "ABC" (one row per variable) or "AB+C" (B: one or more rows) under SKIP TILL ANY MATCH, by
    enumerating every world."""
    intervals = [range(lo, hi + 1) for _, _, lo, hi in rows]
    weight = Fraction(1)
    for points in intervals:
        weight /= len(points)
    by_kind = {k: [i for i, row in enumerate(rows) if row[1] == k] for k in "abc"}
    found: dict = {}
    for world in itertools.product(*intervals):
        matched = set()
        for a, c in itertools.product(by_kind["a"], by_kind["c"]):
            if not (world[a] < world[c] and world[c] - world[a] < window):
                continue
            inside = [b for b in by_kind["b"] if world[a] < world[b] < world[c]]
            sizes = [1] if pattern == "ABC" else range(1, len(inside) + 1)
            for size in sizes:
                for bs in itertools.combinations(inside, size):
                    if len({world[b] for b in bs}) == len(bs):  # B's time points increase strictly
                        matched.add((a, bs, c))
        for a, bs, c in matched:  # each signature once per world
            conf, s_lo, s_hi, e_lo, e_hi = found.get((a, bs, c), (0, 10**9, -1, 10**9, -1))
            found[(a, bs, c)] = (conf + weight, min(s_lo, world[a]), max(s_hi, world[a]),
                                 min(e_lo, world[c]), max(e_hi, world[c]))
    ids = [row[0] for row in rows]
    return {(ids[a], tuple(sorted(ids[b] for b in bs)), ids[c]): value
            for (a, bs, c), value in found.items() if value[0] >= minimum}
