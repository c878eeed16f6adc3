"""SASE++ Figure 5 shape: `A B+ C` under SKIP TILL ANY MATCH, plain NFA^b runs vs postponing.

No Spark: the engines run directly on one partition. Events are A/B/C rows with a value; the
Kleene predicate is SASE++'s true-value-consistent one, ``b[i].val > max(b[..i-1].val)`` (a
match-dependent condition); selectivity is varied through the share of C rows (fewer C = fewer
matches) and the value spread, the window W is count based (ORDER BY key = row number).

    .venv/bin/python bench/engines_postponing.py            # defaults, about a minute
    .venv/bin/python bench/engines_postponing.py --events 4000 --windows 8 12 16 20

Prints one row per (predicate, window, C share): matches, NFA^b runs created, postponing
structures + enumeration steps, wall time of each engine, and the ratios NFA/postponing.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from sparkcep.engines import rowpattern as rp
from sparkcep.errors import MatchRuntimeError
from sparkcep.engines.contract import RowBlock
from sparkcep.engines.spec import MatchSpec, Strategy
from sparkcep.engines.selection import make_sase_engine as make_engine

A, B, C = 0, 1, 2
PATTERN = rp.Concat((rp.Label(A), rp.Quantified(rp.Label(B), 1, None), rp.Label(C)))


def b_gt_max(ctx):
    rows = ctx.mapped_rows(frozenset([B]))
    if len(rows) < 2:
        return True
    return ctx.value(0, rows[-1]) > max(ctx.value(0, r) for r in rows[:-1])


def stream(n, c_share, seed):
    rnd = random.Random(seed)
    a_share = 0.1
    types = []
    for _ in range(n):
        x = rnd.random()
        types.append("a" if x < a_share else "c" if x < a_share + c_share else "b")
    masks = np.array([[t == v for t in types] for v in "abc"])
    vals = np.array([rnd.randint(0, 1000) for _ in range(n)])
    return masks, vals


def run(engine, spec, conds, masks, vals, batch=1024, **kw):
    eng = make_engine(spec, conds, engine=engine, **kw)
    n = masks.shape[1]
    keys = np.arange(n)
    t0 = time.perf_counter()
    count = 0
    try:
        for i in range(0, n, batch):
            count += len(eng.feed(RowBlock(masks[:, i : i + batch], (vals[i : i + batch],), keys[i : i + batch])))
        count += len(eng.finish())
    except MatchRuntimeError:
        return None, time.perf_counter() - t0, eng
    return count, time.perf_counter() - t0, eng


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=3000)
    ap.add_argument("--windows", type=int, nargs="+", default=[8, 12, 16])
    ap.add_argument("--c-shares", type=float, nargs="+", default=[0.01, 0.05, 0.2])
    ap.add_argument("--max-steps", type=int, default=20_000_000)
    args = ap.parse_args()
    print(f"A B+ C, SKIP TILL ANY MATCH, {args.events} events, A share 0.1, count-based window")
    head = (
        f"{'pred':<9}{'W':>4}{'C%':>6}{'matches':>10}{'nfa runs':>11}{'post struct':>12}"
        f"{'post enum':>11}{'runs ratio':>11}{'nfa s':>8}{'post s':>8}{'speedup':>9}"
    )
    print(head)
    print("-" * len(head))
    for pred, conds in (("b>max", [None, b_gt_max, None]), ("none(TF)", None)):
        for w in args.windows:
            for cs in args.c_shares:
                masks, vals = stream(args.events, cs, seed=w * 1000 + int(cs * 1000))
                spec = MatchSpec(
                    PATTERN, ("A", "B", "C"), strategy=Strategy.SKIP_TILL_ANY_MATCH, within=w,
                    max_steps=args.max_steps, max_matches=10**9,
                )
                nm, nt, ne = run("nfa", spec, conds, masks, vals, merge=False)
                pm, pt, pe = run("postpone", spec, conds, masks, vals)
                assert nm is None or nm == pm, (nm, pm)
                runs = ne.stats["runs"]
                post_work = pe.stats["structures"] + pe.stats["enumerated"]
                print(
                    f"{pred:<9}{w:>4}{cs * 100:>6.0f}{pm:>10}"
                    f"{(str(runs) + ('+' if nm is None else '')):>11}{pe.stats['structures']:>12}"
                    f"{pe.stats['enumerated']:>11}{runs / max(post_work, 1):>11.1f}"
                    f"{nt:>8.2f}{pt:>8.2f}{nt / max(pt, 1e-9):>9.1f}"
                )
                if conds is None:
                    mm, mt, me = run("nfa", spec, None, masks, vals, merge=True)
                    assert mm == pm
                    print(
                        f"{'  merged':<9}{w:>4}{cs * 100:>6.0f}{mm:>10}{me.stats['runs']:>11}"
                        f"{'':>12}{'':>11}{'':>11}{mt:>8.2f}{'':>8}{nt / max(mt, 1e-9):>9.1f}"
                    )
    print("'+' = the NFA^b hit the step budget (runs are a lower bound, time until the guard).")


if __name__ == "__main__":
    main()
