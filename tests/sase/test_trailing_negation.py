"""Trailing negation ``PATTERN (A B !C) WITHIN w`` (docs/semantics.md, "Trailing negation")
against a brute-force reference written from the definition:

* the positive part's matches are the strategy's (``oracle.any_matches`` / ``oracle.next_matches``,
  the reference the SASE engines are tested against, over the pattern without its trailing
  negations);
* a match survives iff no row g after its last row with ``key(g) - key(first row) < w`` qualifies
  for a trailing negated variable (its condition read over the match's rows, g as the candidate);
* it completes at the first row after its last row whose key is ``>= key(first row) + w``, or at
  the end of the partition; matches are numbered by (completion, first row, rows, components).

The engines run over random cuts of the rows into batches, as the streaming operator feeds them.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.spec import RowsPerMatch
from sparkcep.engines.sase.pattern import unsupported_reason

from tests.example_counts import examples
from . import oracle
from .harness import ANY, NEXT, L, N, Q, random_case, run_engine, seq, spec_of

SETTINGS = settings(max_examples=examples(600), deadline=None, suppress_health_check=list(HealthCheck),
                    database=None)


def reference(spec, trailing, conds, masks, keys, columns):
    """(rows, labels) of the reported matches, in report order."""
    data = {"masks": np.asarray(masks, dtype=bool).tolist(), "keys": list(keys),
            "columns": [list(c) for c in columns]}
    items = spec.pattern.items if isinstance(spec.pattern, rp.Concat) else (spec.pattern,)
    end = len(items)
    while isinstance(items[end - 1], rp.Negation):  # the trailing negations are the last items
        end -= 1
    positive = list(items[:end])
    pattern = positive[0] if len(positive) == 1 else rp.Concat(tuple(positive))
    find = oracle.any_matches if spec.strategy is ANY else oracle.next_matches
    matches, _ = find(pattern, data, conds, spec.within)
    n = len(keys)
    rank = {}
    for it in positive:
        inner = it.pattern if isinstance(it, rp.Quantified) else it
        if isinstance(inner, rp.Label):
            rank[inner.var] = len(rank)
    out = []
    for _c, rows, labels in matches:
        limit = keys[rows[0]] + spec.within
        broken = False
        completion = n
        for g in range(rows[-1] + 1, n):
            if keys[g] >= limit:
                completion = g
                break
            for v in trailing:
                if data["masks"][v][g] and (conds[v] is None or conds[v](
                        oracle.OracleCtx(data, rows, labels, g, v))):
                    broken = True
            if broken:
                break
        if not broken:
            out.append((completion, rows[0], rows, tuple(rank[v] for v in labels), labels))
    out.sort(key=lambda m: m[:4])
    return [(rows, labels) for _c, _f, rows, _r, labels in out]


def trailing_case(rnd: random.Random, strategy):
    spec, conds, masks, keys, columns, cuts = random_case(rnd, strategy)
    items = list(spec.pattern.items) if isinstance(spec.pattern, rp.Concat) else [spec.pattern]
    n_vars = len(spec.variable_names)
    n = len(keys)
    trailing = []
    for _ in range(rnd.choice([1, 1, 1, 2])):
        if rnd.random() < 0.6:  # a variable of its own
            v = n_vars
            n_vars += 1
            density = rnd.choice([0.1, 0.2, 0.35])
            masks = [*masks, [rnd.random() < density for _ in range(n)]]
            conds = [*conds, rnd.choice([None, None, harness_eq_first])]
        else:  # a variable of the positive part (PATTERN (A B !B))
            v = rnd.choice([it.var if isinstance(it, rp.Label) else it.pattern.var
                            for it in items if not isinstance(it, rp.Negation)])
        items.append(rp.Negation(v))
        trailing.append(v)
    within = rnd.choice([1, 2, 3, 4, 6])
    spec = spec_of(rp.Concat(tuple(items)), n_vars, strategy, within,
                   rows_per_match=rnd.choice([RowsPerMatch.ONE, RowsPerMatch.ALL_SHOW_EMPTY]))
    return spec, tuple(dict.fromkeys(trailing)), conds, masks, keys, columns, cuts


def harness_eq_first(ctx):  # C.x = FIRST(x) of the match: "no C with the first row's value"
    rows = ctx.mapped_rows(None)
    return ctx.value(0, rows[0]) == ctx.value(0, ctx.row)


def _check(strategy, seed, engines):
    rnd = random.Random(seed)
    spec, trailing, conds, masks, keys, columns, cuts = trailing_case(rnd, strategy)
    assert unsupported_reason(spec) is None
    want = reference(spec, trailing, conds, masks, keys, columns)
    for kw in engines:
        got, unmatched, _eng = run_engine(spec, conds, masks, keys, columns, cuts, **kw)
        assert [(m.rows, m.labels) for m in got] == want, (seed, kw)
        assert unmatched == []


@SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_any_trailing_negation_matches_reference(seed):
    _check(ANY, seed, [{"engine": "postpone"}, {"engine": "nfa"}])


@SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_next_trailing_negation_matches_reference(seed):
    _check(NEXT, seed, [{"engine": "nfa"}, {"engine": "nfa", "merge": False}])


def test_worked_example():
    """A shelf read (A), an exit (B), no checkout (C) within 10: rows a:0 b:2 c:5 | a:20 b:21 |
    a:40 b:45 c:51 (the C at 51 is outside a:40's window 40..49)."""
    #        a0 b2 c5 a20 b21 a40 b45 c51
    masks = [[1, 0, 0, 1, 0, 1, 0, 0],
             [0, 1, 0, 0, 1, 0, 1, 0],
             [0, 0, 1, 0, 0, 0, 0, 1]]
    keys = [0, 2, 5, 20, 21, 40, 45, 51]
    for strategy in (NEXT, ANY):
        spec = spec_of(seq(L(0), L(1), N(2)), 3, strategy, 10)
        got, _, _ = run_engine(spec, [None] * 3, masks, keys)
        assert [m.rows for m in got] == [(3, 4), (5, 6)]
        # one batch per row gives the same
        got, _, _ = run_engine(spec, [None] * 3, masks, keys, cuts=range(1, 8))
        assert [m.rows for m in got] == [(3, 4), (5, 6)]


def test_boundary_is_the_within_bound():
    """A C exactly w after the first row is outside the window (last - first < w is strict)."""
    masks = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    for c_key, survives in ((9, False), (10, True)):
        spec = spec_of(seq(L(0), L(1), N(2)), 3, NEXT, 10)
        got, _, _ = run_engine(spec, [None] * 3, masks, [0, 1, c_key])
        assert bool(got) is survives


def test_open_kleene_under_next():
    """``A B+ !C``: the NEXT run takes every B in its window; a C between two Bs is not after the
    match's last row, a C after the last B is."""
    masks = [[1, 0, 0, 0], [0, 1, 0, 1], [0, 0, 1, 0]]
    spec = spec_of(seq(L(0), Q(1, 1), N(2)), 3, NEXT, 10)
    got, _, _ = run_engine(spec, [None] * 3, masks, [0, 1, 2, 3])
    assert [m.rows for m in got] == [(0, 1, 3)]
    masks2 = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1]]
    got, _, _ = run_engine(spec, [None] * 3, masks2, [0, 1, 2, 3])
    assert got == []


def test_requires_within_and_positive_component():
    spec = spec_of(seq(L(0), L(1), N(2)), 3, NEXT, None)
    assert unsupported_reason(spec) is not None
    spec = spec_of(seq(L(0), N(1), Q(2, 0, 1)), 3, NEXT, 5)
    assert "mandatory" in unsupported_reason(spec)
    assert unsupported_reason(dataclasses.replace(spec, pattern=seq(L(0), Q(2, 0, 1), N(1)))) is None
