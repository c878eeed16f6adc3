"""Brute-force reference for SKIP TILL ANY MATCH and SKIP TILL NEXT MATCH (docs/semantics.md).

Written from the definitions, sharing no code with the engines:

* ANY: enumerate every time-ordered choice of rows -- one per singleton, an increasing run of
  min..max rows per quantified element -- and keep those whose conditions (RUNNING: each selected
  row checked against the rows selected before it), negations (no qualifying row strictly between
  the neighbouring selected rows) and WITHIN (last key - first key < within) hold.
* NEXT: per row and per element a match can start with, simulate the run row by row, keeping a
  list of run copies: a row out of the window closes the run; a row the run can select (take or
  proceed) is selected in every possible way (one copy per way); any other row is skipped. A run
  is reported when it reaches the last element at its maximum count, or -- if it is in an
  accepting state -- when its window closes or the partition ends.

Under WITHIN a row whose key is NaN lies in no window: no element selects it (it starts, extends
and closes no run), but it is still a row between for negations.

Both return ``(matches, unmatched)``: matches as ``(completion, rows, labels)`` sorted in report
order (completion, first row, rows), and the set of rows of no match.
"""

from __future__ import annotations

from itertools import combinations

from sparkcep.engines import rowpattern as rp


class OracleCtx:
    def __init__(self, data, rows, labels, row, var):
        self.data = data
        self.rows = list(rows)
        self.labels = list(labels)
        self.row = row
        self.var = var
        self.match_number = 0

    def mapped_rows(self, variables):
        pairs = list(zip(self.rows, self.labels)) + [(self.row, self.var)]
        pairs.sort()
        return [r for r, v in pairs if variables is None or v in variables]

    def value(self, column, row):
        return self.data["columns"][column][row]

    def label_of(self, row):
        if row == self.row:
            return self.var
        return self.labels[self.rows.index(row)]


def elements(pattern):
    """[(kind, var, lo, hi)] with kind 'pos' or 'neg' (hi None = unbounded)."""
    items = pattern.items if isinstance(pattern, rp.Concat) else (pattern,)
    out = []
    for it in items:
        if isinstance(it, rp.Exclusion):
            it = it.pattern
        if isinstance(it, rp.Label):
            out.append(("pos", it.var, 1, 1))
        elif isinstance(it, rp.Negation):
            out.append(("neg", it.var, 0, 0))
        elif isinstance(it, rp.Quantified):
            inner = it.pattern.pattern if isinstance(it.pattern, rp.Exclusion) else it.pattern
            out.append(("pos", inner.var, it.min, it.max))
        else:
            raise AssertionError(it)
    return out


def _keyless(data, within, row):
    key = data["keys"][row]
    return within is not None and key != key


def _ok(data, conds, var, row, rows, labels):
    if not data["masks"][var][row]:
        return False
    c = conds[var]
    return c is None or bool(c(OracleCtx(data, rows, labels, row, var)))


def _negation_ok(data, conds, elems, rows, labels, owner):
    """owner[i] = element index of selected row i. Check every negation against its gap."""
    for ei, (kind, var, _lo, _hi) in enumerate(elems):
        if kind != "neg":
            continue
        before = [i for i in range(len(rows)) if owner[i] < ei]
        after = [i for i in range(len(rows)) if owner[i] > ei]
        left = rows[before[-1]]
        right = rows[after[0]]
        prefix_rows = [rows[i] for i in before]
        prefix_labels = [labels[i] for i in before]
        for g in range(left + 1, right):
            if _ok(data, conds, var, g, prefix_rows, prefix_labels):
                return False
    return True


def _order(elems):
    """Report order: completion, first row, rows, then the element of each row (pattern order)."""
    rank = {}
    for e in elems:
        if e[0] == "pos":
            rank[e[1]] = len(rank)
    return lambda m: (m[0], m[1][0], m[1], tuple(rank[v] for v in m[2]))


def any_matches(pattern, data, conds, within):
    elems = elements(pattern)
    n = len(data["keys"])
    keys = data["keys"]
    pos = [i for i, e in enumerate(elems) if e[0] == "pos"]
    results = []

    def rec(pi, last, rows, labels, owner):
        if pi == len(pos):
            if not rows:
                return
            if not _negation_ok(data, conds, elems, rows, labels, owner):
                return
            results.append((rows[-1], tuple(rows), tuple(labels)))
            return
        ei = pos[pi]
        _k, var, lo, hi = elems[ei]
        cands = [r for r in range(last + 1, n)
                 if data["masks"][var][r] and not _keyless(data, within, r)]
        top = len(cands) if hi is None else min(hi, len(cands))
        for cnt in range(lo, top + 1):
            for choice in combinations(cands, cnt):
                nrows = rows + list(choice)
                if within is not None and nrows and keys[nrows[-1]] - keys[nrows[0]] >= within:
                    continue
                # conditions, RUNNING semantics: each new row against the rows before it
                good = True
                for i in range(len(rows), len(nrows)):
                    if not _ok(data, conds, var, nrows[i], nrows[:i], labels + [var] * (i - len(rows))):
                        good = False
                        break
                if not good:
                    continue
                rec(pi + 1, choice[-1] if choice else last, rows + list(choice),
                    labels + [var] * cnt, owner + [ei] * cnt)

    rec(0, -1, [], [], [])
    results.sort(key=_order(elems))
    covered = set(r for _c, rows, _l in results for r in rows)
    return results, set(range(n)) - covered


def next_matches(pattern, data, conds, within):
    elems = elements(pattern)
    n = len(data["keys"])
    keys = data["keys"]
    pos = [i for i, e in enumerate(elems) if e[0] == "pos"]
    P = len(pos)

    def accepting(pi, cnt):
        return cnt >= elems[pos[pi]][2] and all(elems[pos[q]][2] == 0 for q in range(pi + 1, P))

    def at_max(pi, cnt):
        hi = elems[pos[pi]][3]
        return pi == P - 1 and hi is not None and cnt >= hi

    def gap_clear(rows, labels, owner, from_pi, to_pi, row):
        # negations between element pos[from_pi] and pos[to_pi]: none may qualify in (last, row)
        left = rows[-1]
        for ei in range(pos[from_pi] + 1, pos[to_pi]):
            kind, var, _lo, _hi = elems[ei]
            if kind != "neg":
                continue
            for g in range(left + 1, row):
                if _ok(data, conds, var, g, rows, labels):
                    return False
        return True

    results = []
    for start in range(n):
        for pi0 in range(P):
            if pi0 > 0 and elems[pos[pi0 - 1]][2] > 0:
                break
            var0 = elems[pos[pi0]][1]
            if _keyless(data, within, start) or not _ok(data, conds, var0, start, [], []):
                continue
            runs = [(pi0, 1, [start], [var0], [pos[pi0]])]
            # a run at its maximum on the last element is complete at once
            live = []
            for run in runs:
                if at_max(run[0], run[1]):
                    results.append((start, tuple(run[2]), tuple(run[3])))
                else:
                    live.append(run)
            runs = live
            for r in range(start + 1, n):
                if not runs:
                    break
                nxt = []
                for (pi, cnt, rows, labels, owner) in runs:
                    if within is not None and keys[r] - keys[rows[0]] >= within:
                        if accepting(pi, cnt):
                            results.append((r, tuple(rows), tuple(labels)))
                        continue
                    ways = []
                    if _keyless(data, within, r):  # in no window: only a row between
                        nxt.append((pi, cnt, rows, labels, owner))
                        continue
                    _k, var, lo, hi = elems[pos[pi]]
                    if (hi is None or cnt < hi) and _ok(data, conds, var, r, rows, labels):
                        ways.append((pi, cnt + 1, var))
                    if cnt >= lo:
                        for pj in range(pi + 1, P):
                            vj = elems[pos[pj]][1]
                            if gap_clear(rows, labels, owner, pi, pj, r) and _ok(
                                data, conds, vj, r, rows, labels
                            ):
                                ways.append((pj, 1, vj))
                            if elems[pos[pj]][2] > 0:
                                break
                    if not ways:
                        nxt.append((pi, cnt, rows, labels, owner))
                        continue
                    for (pj, c2, v) in ways:
                        nr = (pj, c2, rows + [r], labels + [v], owner + [pos[pj]])
                        if at_max(pj, c2):
                            results.append((r, tuple(nr[2]), tuple(nr[3])))
                        else:
                            nxt.append(nr)
                runs = nxt
            for (pi, cnt, rows, labels, owner) in runs:
                if accepting(pi, cnt):
                    results.append((n, tuple(rows), tuple(labels)))
    results.sort(key=_order(elems))
    covered = set(r for _c, rows, _l in results for r in rows)
    return results, set(range(n)) - covered
