"""Timed-out partial matches (``WITH TIMED OUT MATCHES``, docs/semantics.md) against a
brute-force simulation written here from the definition, sharing no code with the engines nor
with ``oracle.py``:

SKIP TILL NEXT MATCH, WITHIN w. A run starts at every row that qualifies for a component a match
can start with. Reading the following rows one by one, a run
* is *closed* by the first row whose key is ``>= key(first row) + w``: it is a match (COMPLETE)
  if it is in an accepting state, else a **timed-out** partial match with the rows it selected;
* otherwise selects the row in every way it can (take: the current quantified component again,
  below its max; proceed: a later component, every component between optional, no negation
  between violated since its last selected row), one copy per way; a copy that reaches the last
  component at its max is a complete match at that row; a row it cannot select is ignored (it is
  noted when it qualifies for a negation the run is watching);
* is closed by the end of the partition like by a row beyond its window.
Everything is reported in order of (completion row, first row, rows, components); with trailing
negations a COMPLETE match is dropped when a qualifying row lies after its last row inside its
window, a timed-out run never is (it has no last row of a match).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.sase.pattern import unsupported_reason
from sparkcep.engines.spec import RowsPerMatch

from tests.example_counts import examples
from .harness import NEXT, L, random_case, run_engine, seq, spec_of

SETTINGS = settings(max_examples=examples(800), deadline=None, suppress_health_check=list(HealthCheck),
                    database=None)


class _Ctx:
    def __init__(self, columns, rows, labels, row, var):
        self.columns, self.rows, self.labels, self.row, self.var = columns, rows, labels, row, var
        self.match_number = 0

    def mapped_rows(self, variables):
        pairs = sorted([*zip(self.rows, self.labels), (self.row, self.var)])
        return [r for r, v in pairs if variables is None or v in variables]

    def value(self, column, row):
        return self.columns[column][row]

    def label_of(self, row):
        return self.var if row == self.row else self.labels[self.rows.index(row)]


def simulate(pattern, masks, keys, columns, conds, within):
    """[(status, rows, labels)] in report order (module docstring)."""
    items = list(pattern.items) if isinstance(pattern, rp.Concat) else [pattern]
    comps, gaps, trailing = [], [[]], []
    for it in items:
        if isinstance(it, rp.Negation):
            gaps[-1].append(it.var)
        else:
            lo, hi = (1, 1) if isinstance(it, rp.Label) else (it.min, it.max)
            comps.append((it.var if isinstance(it, rp.Label) else it.pattern.var, lo, hi))
            gaps.append([])
    trailing = gaps.pop()  # negations after the last component; gaps[j]: before component j
    n, P = len(keys), len(comps)

    def ok(var, row, rows, labels):
        return bool(masks[var][row]) and (conds[var] is None or bool(
            conds[var](_Ctx(columns, rows, labels, row, var))))

    def accepting(j, c):
        return c >= comps[j][1] and all(comps[q][1] == 0 for q in range(j + 1, P))

    def complete_at_once(j, c):
        return j == P - 1 and comps[j][2] is not None and c >= comps[j][2]

    found = []  # (completion, status, rows, labels)
    for start in range(n):
        for j0 in range(P):
            if j0 > 0 and comps[j0 - 1][1] > 0:
                break
            if not ok(comps[j0][0], start, [], []):
                continue
            # a run: (component, count, rows, labels, negated rows seen since its last row)
            runs = [(j0, 1, [start], [comps[j0][0]], frozenset())]
            limit = keys[start] + within
            for r in range(start + 1, n + 1):
                live = []
                for j, c, rows, labels, seen in runs:
                    if complete_at_once(j, c):
                        found.append((rows[-1], "COMPLETE", rows, labels))
                        continue
                    if r == n or keys[r] >= limit:
                        status = "COMPLETE" if accepting(j, c) else "TIMED_OUT"
                        found.append((r, status, rows, labels))
                        continue
                    ways = []
                    var, lo, hi = comps[j]
                    if (hi is None or c < hi) and ok(var, r, rows, labels):
                        ways.append((j, c + 1))
                    if c >= lo:
                        for k in range(j + 1, P):
                            if any(v in seen for g in range(j + 1, k + 1) for v in gaps[g]):
                                break
                            if ok(comps[k][0], r, rows, labels):
                                ways.append((k, 1))
                            if comps[k][1] > 0:
                                break
                    if not ways:
                        noted = {v for g in range(j + 1, P) for v in gaps[g]
                                 if c >= lo and ok(v, r, rows, labels)}
                        live.append((j, c, rows, labels, seen | noted))
                    for k, cc in ways:
                        live.append((k, cc, rows + [r], labels + [comps[k][0]], frozenset()))
                runs = live
                if not runs:
                    break
    rank = {var: i for i, (var, _lo, _hi) in enumerate(comps)}
    out = []
    for completion, status, rows, labels in found:
        if status == "COMPLETE" and trailing:
            window = keys[rows[0]] + within
            if any(keys[g] < window and ok(v, g, rows, labels)
                   for g in range(rows[-1] + 1, n) for v in trailing):
                continue
            completion = next((g for g in range(rows[-1] + 1, n) if keys[g] >= window), n)
        out.append((completion, rows[0], tuple(rows), tuple(rank[v] for v in labels), status,
                    tuple(labels)))
    out.sort()
    return [(status, rows, labels) for _c, _f, rows, _r, status, labels in out]


def _case(seed):
    rnd = random.Random(seed)
    spec, conds, masks, keys, columns, cuts = random_case(rnd, NEXT)
    items = list(spec.pattern.items) if isinstance(spec.pattern, rp.Concat) else [spec.pattern]
    n_vars = len(spec.variable_names)
    if rnd.random() < 0.3:  # with a trailing negation
        items.append(rp.Negation(n_vars))
        masks = [*masks, [rnd.random() < 0.2 for _ in keys]]
        conds = [*conds, None]
        n_vars += 1
    spec = spec_of(rp.Concat(tuple(items)), n_vars, NEXT, rnd.choice([1, 2, 3, 4, 6]),
                   rows_per_match=rnd.choice([RowsPerMatch.ONE, RowsPerMatch.ALL_SHOW_EMPTY]),
                   timed_out=True)
    return spec, conds, masks, keys, columns, cuts


@SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_timed_out_runs_match_simulation(seed):
    spec, conds, masks, keys, columns, cuts = _case(seed)
    assert unsupported_reason(spec) is None
    want = simulate(spec.pattern, masks, keys, [list(c) for c in columns], conds, spec.within)
    for kw in ({"engine": "nfa"}, {"engine": "nfa", "merge": True}):
        got, unmatched, _eng = run_engine(spec, conds, masks, keys, columns, cuts, **kw)
        assert [("TIMED_OUT" if m.timed_out else "COMPLETE", m.rows, m.labels)
                for m in got] == want, seed
        assert unmatched == []


def test_without_the_option_only_complete_matches():
    """The same simulation's COMPLETE rows are what the engine reports without the option."""
    for seed in range(300):
        spec, conds, masks, keys, columns, cuts = _case(seed)
        want = [(rows, labels) for status, rows, labels in
                simulate(spec.pattern, masks, keys, [list(c) for c in columns], conds, spec.within)
                if status == "COMPLETE"]
        import dataclasses

        plain = dataclasses.replace(spec, timed_out=False)
        got, _, _ = run_engine(plain, conds, masks, keys, columns, cuts)
        assert [(m.rows, m.labels) for m in got] == want, seed


def test_worked_example():
    """``A B C WITHIN 10`` over a(0) b(3) a(5) x(12) c(14): the run from a(0) has selected a, b
    when x(12) closes its window (12 >= 0 + 10): timed out with (a0 b3), completed at x. The run
    from a(5) never finds a B (b3 is before it; c14 is not selectable while it waits for B) and
    the partition ends inside its window: timed out with (a5), completed at the end."""
    masks = [[1, 0, 1, 0, 0], [0, 1, 0, 0, 0], [0, 0, 0, 0, 1]]
    spec = spec_of(seq(L(0), L(1), L(2)), 3, NEXT, 10, timed_out=True)
    for cuts in ((), (1, 2, 3, 4)):
        got, _, _ = run_engine(spec, [None] * 3, masks, [0, 3, 5, 12, 14], cuts=cuts)
        assert [(m.timed_out, m.rows, m.number) for m in got] == [
            (True, (0, 1), 1), (True, (2,), 2)]
    # a C inside a0's window completes its run: no timed-out row for it
    masks = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]
    got, _, _ = run_engine(spec, [None] * 3, masks, [0, 3, 5, 30])
    assert [(m.timed_out, m.rows) for m in got] == [(False, (0, 1, 2))]
