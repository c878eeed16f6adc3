"""Shared helpers for the SASE tests: build specs, run an engine over random batch splits, and
compare with the oracle."""

from __future__ import annotations

import random

import numpy as np

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.contract import Match, RowBlock, UnmatchedRow
from sparkcep.engines.spec import MatchSpec, RowsPerMatch, Strategy
from sparkcep.engines.selection import make_sase_engine as make_engine

from . import oracle

ANY = Strategy.SKIP_TILL_ANY_MATCH
NEXT = Strategy.SKIP_TILL_NEXT_MATCH


def seq(*items):
    return rp.Concat(tuple(items))


def L(v):
    return rp.Label(v)


def Q(v, lo, hi=None):
    return rp.Quantified(rp.Label(v), lo, hi)


def N(v):
    return rp.Negation(v)


def run_engine(spec, conds, masks, keys, columns=(), cuts=(), **kw):
    """Feed the rows in batches split at ``cuts``; return (matches, unmatched rows, engine)."""
    masks = np.asarray(masks, dtype=bool)
    keys = None if keys is None else np.asarray(keys)
    eng = make_engine(spec, conds, **kw)
    n = masks.shape[1]
    bounds = [0, *sorted(set(c for c in cuts if 0 < c < n)), n]
    events = []
    for a, b in zip(bounds, bounds[1:]):
        cols = tuple(np.asarray(c)[a:b] for c in columns)
        events += eng.feed(RowBlock(masks[:, a:b], cols, None if keys is None else keys[a:b]))
    events += eng.finish()
    matches = [e for e in events if isinstance(e, Match)]
    unmatched = [e.row for e in events if isinstance(e, UnmatchedRow)]
    assert [m.number for m in matches] == list(range(1, len(matches) + 1))
    return matches, unmatched, eng


def oracle_run(spec, conds, masks, keys, columns=()):
    data = {
        "masks": np.asarray(masks, dtype=bool).tolist(),
        "keys": list(keys) if keys is not None else [0] * np.asarray(masks).shape[1],
        "columns": [list(c) for c in columns],
    }
    f = oracle.any_matches if spec.strategy is ANY else oracle.next_matches
    return f(spec.pattern, data, conds, spec.within)


def spec_of(pattern, n_vars, strategy, within=None, **kw):
    names = tuple("ABCDEFGHIJ"[i] if i < 10 else f"V{i}" for i in range(n_vars))
    return MatchSpec(pattern, names, strategy=strategy, within=within, **kw)


# -- conditions used by the generated cases (column 0 holds small ints) --------------------------


def c_inc(ctx):  # LAST(V.x, 1) < V.x over the previously selected row of the same variable
    rows = ctx.mapped_rows(frozenset([ctx.var]))
    return len(rows) < 2 or ctx.value(0, rows[-2]) < ctx.value(0, rows[-1])


def c_nondec(ctx):
    rows = ctx.mapped_rows(frozenset([ctx.var]))
    return len(rows) < 2 or ctx.value(0, rows[-2]) <= ctx.value(0, rows[-1])


def c_gt_avg(ctx):  # V.x > AVG over the previously selected rows of V
    rows = ctx.mapped_rows(frozenset([ctx.var]))
    if len(rows) < 2:
        return True
    prev = [ctx.value(0, r) for r in rows[:-1]]
    return ctx.value(0, rows[-1]) > sum(prev) / len(prev)


def c_sum_le(limit):
    def cond(ctx):  # SUM over every row of the match so far, candidate included
        return sum(ctx.value(0, r) for r in ctx.mapped_rows(None)) <= limit

    return cond


def c_eq_first(ctx):  # V.x = FIRST(x) of the match
    rows = ctx.mapped_rows(None)
    return ctx.value(0, rows[0]) == ctx.value(0, ctx.row)


def c_ne_prev(ctx):  # differs from the previous row of the match (any variable)
    rows = ctx.mapped_rows(None)
    assert rows[-1] == ctx.row and ctx.label_of(ctx.row) == ctx.var
    return len(rows) < 2 or ctx.value(0, rows[-2]) != ctx.value(0, rows[-1])


QUANTS = [(1, 1), (1, 1), (1, None), (0, None), (0, 1), (1, 2), (2, 3), (0, 2), (2, None)]


def random_case(rnd: random.Random, strategy, max_rows=8):
    n_comps = rnd.choice([1, 2, 2, 3, 3, 3, 4])
    comps = []
    for v in range(n_comps):
        lo, hi = rnd.choice(QUANTS)
        comps.append((v, lo, hi))
    if all(lo == 0 for _v, lo, _hi in comps):
        v, _lo, hi = comps[0]
        comps[0] = (v, 1, hi if hi is None or hi >= 1 else 1)
    n_vars = n_comps
    items = []
    for i, (v, lo, hi) in enumerate(comps):
        if 0 < i and any(c[1] > 0 for c in comps[:i]) and any(c[1] > 0 for c in comps[i:]):
            while rnd.random() < 0.3:
                if rnd.random() < 0.6:
                    items.append(rp.Negation(n_vars))
                    n_vars += 1
                else:
                    items.append(rp.Negation(rnd.randrange(n_comps)))
        items.append(L(v) if (lo, hi) == (1, 1) else Q(v, lo, hi))
    pattern = items[0] if len(items) == 1 else seq(*items)
    n = rnd.choice([0, 1, 2] + [max_rows - 3, max_rows - 2, max_rows - 1, max_rows] * 3)
    density = [
        rnd.choice([0.3, 0.5, 0.7, 0.9]) if v < n_comps else rnd.choice([0.1, 0.2, 0.35])
        for v in range(n_vars)
    ]
    masks = [[rnd.random() < density[v] for _ in range(n)] for v in range(n_vars)]
    keys, k = [], 0
    for _ in range(n):
        k += rnd.choice([0, 1, 1, 1, 2])
        keys.append(k)
    col = [rnd.randint(0, 4) for _ in range(n)]
    within = rnd.choice([None, None, 2, 3, 4, 6])
    menu = [c_inc, c_nondec, c_gt_avg, c_sum_le(rnd.randint(3, 12)), c_eq_first, c_ne_prev]
    p_cond = rnd.choice([0.0, 0.3, 0.6])
    conds = [rnd.choice(menu) if rnd.random() < p_cond else None for _ in range(n_vars)]
    rpm = rnd.choice([RowsPerMatch.ONE, RowsPerMatch.ALL_WITH_UNMATCHED])
    spec = spec_of(pattern, n_vars, strategy, within, rows_per_match=rpm)
    cuts = sorted(rnd.sample(range(1, n), rnd.randint(0, n - 1))) if n > 1 else []
    return spec, conds, masks, keys, [col], cuts
