"""SASE+ Table 1 shape: stock stream, `pattern(stock+ a[], stock b)`, predicates x strategies x W.

No Spark: one engine per symbol partition (SASE+'s ``[symbol]``), 2 symbols, count-based window of
W events per partition (ORDER BY key = event number within the symbol). Price is a random walk
that goes up with probability p (default 0.7), down or flat otherwise (step 1..5, kept in
1..1000); volume is uniform in 1..1000.

    a[1]:  a[1].price % START == 0           (SASE+: % 500; START defaults to 20 so that runs start
                                              often enough at these stream sizes)
    p1:    a[i]: True
    p2:    a[i].price > a[i-1].price
    p3:    a[i].price > min(a[..i-1].price)
    b:     b.volume < 150

    .venv/bin/python bench/engines_sase_plus.py                    # W 500, 1000: about 4 minutes
    .venv/bin/python bench/engines_sase_plus.py --windows 500 1000 2000 --events 3

Prints events/s, average match length, runs created per event, peak live runs; SKIP TILL ANY
MATCH uses a step budget and reports "budget" when it trips (exponential in W for p1/p3).
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

A, B = 0, 1
PATTERN = rp.Concat((rp.Quantified(rp.Label(A), 1, None), rp.Label(B)))
PRICE, VOLUME = 0, 1


def stock(n, p_up, rnd):
    price, prices, vols = rnd.randint(1, 1000), [], []
    for _ in range(n):
        x = rnd.random()
        if x < p_up:
            price = min(1000, price + rnd.randint(1, 5))
        elif x < p_up + (1 - p_up) / 2:
            price = max(1, price - rnd.randint(1, 5))
        prices.append(price)
        vols.append(rnd.randint(1, 1000))
    return np.array(prices), np.array(vols)


def a_cond(pred, start):
    def cond(ctx):
        rows = ctx.mapped_rows(frozenset([A]))
        cur = ctx.value(PRICE, rows[-1])
        if len(rows) == 1:
            return cur % start == 0
        if pred == "p1":
            return True
        if pred == "p2":
            return cur > ctx.value(PRICE, rows[-2])
        return cur > min(ctx.value(PRICE, r) for r in rows[:-1])

    return cond


def b_mask(vols):
    return vols < 150


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--windows", type=int, nargs="+", default=[500, 1000])
    ap.add_argument("--events", type=float, default=1.0, help="events per symbol, in multiples of W")
    ap.add_argument("--p-up", type=float, default=0.7)
    ap.add_argument("--start", type=int, default=20)
    ap.add_argument("--any-budget", type=int, default=300_000)
    args = ap.parse_args()
    print(
        f"stock+ a[], stock b; 2 symbols, {args.events:g} x W events per symbol, p(up) = {args.p_up}, "
        f"a[1].price % {args.start} == 0, b.volume < 150"
    )
    head = (
        f"{'pred':<5}{'strategy':<6}{'W':>6}{'events':>8}{'matches':>9}{'avg len':>9}"
        f"{'runs/ev':>9}{'peak runs':>10}{'events/s':>10}"
    )
    print(head)
    print("-" * len(head))
    for w in args.windows:
        rnd = random.Random(w)
        n = int(args.events * w)
        data = [stock(n, args.p_up, rnd) for _sym in range(2)]
        for pred in ("p1", "p2", "p3"):
            for strat, label in ((Strategy.SKIP_TILL_NEXT_MATCH, "next"), (Strategy.SKIP_TILL_ANY_MATCH, "any")):
                spec = MatchSpec(
                    PATTERN, ("A", "B"), strategy=strat, within=w,
                    max_steps=args.any_budget if label == "any" else 10**10, max_matches=10**9,
                )
                conds = [a_cond(pred, args.start), None]
                matches = total_len = runs = peak = 0
                t0 = time.perf_counter()
                status = ""
                for prices, vols in data:
                    eng = make_engine(spec, conds, engine="nfa")
                    masks = np.vstack([np.ones(n, dtype=bool), b_mask(vols)])
                    keys = np.arange(n)
                    try:
                        evs = []
                        for i in range(0, n, 4096):
                            sl = slice(i, i + 4096)
                            evs += eng.feed(RowBlock(masks[:, sl], (prices[sl], vols[sl]), keys[sl]))
                        evs += eng.finish()
                    except MatchRuntimeError:
                        status = "budget"
                    matches += len(evs)
                    total_len += sum(len(m.rows) for m in evs)
                    runs += eng.stats["runs"]
                    peak = max(peak, eng.stats["peak_runs"])
                dt = time.perf_counter() - t0
                avg = total_len / matches if matches else 0.0
                eps = f"{2 * n / dt:,.0f}" if not status else status
                print(
                    f"{pred:<5}{label:<6}{w:>6}{2 * n:>8}{matches:>9}{avg:>9.1f}"
                    f"{runs / (2 * n):>9.2f}{peak:>10}{eps:>10}"
                )


if __name__ == "__main__":
    main()
