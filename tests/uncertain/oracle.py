"""A possible-worlds oracle for imprecise timestamps, written from the definition (Zhang, Diao,
Immerman, PVLDB 2010, section 3.3) and sharing no code with the engines.

Every assignment of one time point to each row's interval is a world of probability
``prod 1 / len``. In each world, a small run-based matcher reads the rows in time order (rows at
the same time point form one group) and finds the matches under the strategy:

* skip till any match: every way to pick the rows, in strictly increasing time;
* skip till next match: from each start row a run takes, at the first later time point holding a
  row it can take, one of those rows (simultaneous rows are all "first"); it never skips a row it
  could take;
* strict contiguity: a run must take the row at each next time point, and no other row may share a
  time point with the rows it takes (ties make the order of simultaneous rows unknown).

WITHIN: ``last time - first time < W``. Negation ``!N`` between two components: no ``N`` row lies
strictly between the times of the rows around it. The probabilities of the worlds in which a
signature (rows and variables) matches are summed; its time range is the extent of its first and
last rows' times over those worlds.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product


@dataclass(frozen=True)
class Comp:
    var: int
    kleene: bool


@dataclass(frozen=True)
class Pat:
    """``comps`` in order; ``negs[k]``: variables negated just before component ``k``."""

    comps: tuple[Comp, ...]
    negs: tuple[tuple[int, ...], ...]


def _options(pat: Pat, c: int) -> list[int]:
    out = [c] if pat.comps[c].kleene else []
    if c + 1 < len(pat.comps):
        out.append(c + 1)
    return out


def world_matches(pat, strategy, window, lo, hi, qual, times):
    """The signatures matching in one world (``times[i]``: row i's time).

    ``qual(rows, labels, x, var)``: whether row x can be mapped to var after the rows so far."""
    n = len(times)
    order = sorted(range(n), key=lambda i: times[i])
    groups: list[tuple[int, list[int]]] = []
    for i in order:
        if groups and groups[-1][0] == times[i]:
            groups[-1][1].append(i)
        else:
            groups.append((times[i], [i]))
    found: set = set()
    last = len(pat.comps) - 1

    def in_window(a, t):
        return window is None or t - a < window

    def neg_between(rows, labels, c_next, t0, t1):
        for v in pat.negs[c_next]:
            for x in range(n):
                if t0 < times[x] < t1 and x not in rows and qual(rows, labels, x, v):
                    return True
        return False

    def any_run(rows, labels, comps):
        c, t_last, a = comps[-1], times[rows[-1]], times[rows[0]]
        for d in _options(pat, c):
            v = pat.comps[d].var
            for x in range(n):
                t = times[x]
                if x in rows or t <= t_last or not in_window(a, t) or not qual(rows, labels, x, v):
                    continue
                if d != c and neg_between(rows, labels, d, t_last, t):
                    continue
                if d == last:
                    found.add((tuple(rows) + (x,), tuple(labels) + (v,)))
                else:
                    any_run(rows + [x], labels + [v], comps + [d])

    def next_run(rows, labels, comps):
        c, t_last, a = comps[-1], times[rows[-1]], times[rows[0]]
        for t, group in groups:
            if t <= t_last:
                continue
            if not in_window(a, t):
                return
            takes = [(x, d) for x in group for d in _options(pat, c)
                     if qual(rows, labels, x, pat.comps[d].var)]
            for x, d in takes:
                v = pat.comps[d].var
                if d != c and neg_between(rows, labels, d, t_last, t):
                    continue
                if d == last:
                    found.add((tuple(rows) + (x,), tuple(labels) + (v,)))
                else:
                    next_run(rows + [x], labels + [v], comps + [d])
            if takes:
                return

    def strict_run(rows, labels, comps, gi):
        c, a = comps[-1], times[rows[0]]
        if gi >= len(groups):
            return
        t, group = groups[gi]
        if len(group) != 1 or not in_window(a, t):
            return
        x = group[0]
        for d in _options(pat, c):
            v = pat.comps[d].var
            if not qual(rows, labels, x, v):
                continue
            if d == last:
                found.add((tuple(rows) + (x,), tuple(labels) + (v,)))
            else:
                strict_run(rows + [x], labels + [v], comps + [d], gi + 1)

    v0 = pat.comps[0].var
    for gi, (t, group) in enumerate(groups):
        for s in group:
            if not qual([], [], s, v0):
                continue
            if last == 0:  # a one-row pattern
                if strategy != "STRICT" or len(group) == 1:
                    found.add(((s,), (v0,)))
            elif strategy == "ANY":
                any_run([s], [v0], [0])
            elif strategy == "NEXT":
                next_run([s], [v0], [0])
            elif len(group) == 1:
                strict_run([s], [v0], [0], gi + 1)
    return found


def oracle(pat, strategy, window, lo, hi, qual, min_confidence=0):
    """signature -> (confidence, (first lo, first hi, last lo, last hi))."""
    n = len(lo)
    denom = 1
    for i in range(n):
        denom *= hi[i] - lo[i] + 1
    count: dict = {}
    ranges: dict = {}
    for times in product(*(range(lo[i], hi[i] + 1) for i in range(n))):
        for sig in world_matches(pat, strategy, window, lo, hi, qual, times):
            count[sig] = count.get(sig, 0) + 1
            t1, tn = times[sig[0][0]], times[sig[0][-1]]
            r = ranges.get(sig)
            ranges[sig] = (t1, t1, tn, tn) if r is None else (
                min(r[0], t1), max(r[1], t1), min(r[2], tn), max(r[3], tn))
    out = {}
    for sig, c in count.items():
        conf = Fraction(c, denom)
        if conf >= Fraction(min_confidence):
            out[sig] = (conf, ranges[sig])
    return out
