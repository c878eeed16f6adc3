"""Resource budgets and deep searches of the SASE engines (docs/semantics.md, "Resource budgets").

SKIP TILL ANY MATCH ``A B+ C`` selects, for every A row before a C row, every non-empty subset of
the B rows between them (SASE+ / SASE++ semantics, docs/semantics.md "SKIP TILL ANY MATCH"): the
number of matches is exponential in the window, so only a budget can stop it.
"""

from __future__ import annotations

import numpy as np
import pytest

from sparkcep.errors import MatchRuntimeError

from .harness import ANY, NEXT, L, Q, oracle_run, run_engine, seq, spec_of

A_BPLUS_C = seq(L(0), Q(1, 1), L(2))
ENGINES = [{"engine": "postpone"}, {"engine": "nfa"}]


def all_qualify(n: int) -> np.ndarray:
    return np.ones((3, n), dtype=bool)


@pytest.mark.parametrize("kw", ENGINES)
def test_exponential_matches_stop_on_the_buffered_rows_budget(kw):
    # issue 11: 2,000 rows, no WITHIN; it used to run for minutes and crash a 15 GB worker
    spec = spec_of(A_BPLUS_C, 3, ANY, max_buffered_rows=100_000)
    with pytest.raises(MatchRuntimeError) as info:
        run_engine(spec, None, all_qualify(2000), np.arange(2000), cuts=range(0, 2000, 500), **kw)
    assert info.value.code == "MATCH_BUDGET_EXCEEDED"
    message = info.value.message
    assert "100,000 buffered rows" in message and "spark.sparkcep.maxBufferedRows" in message
    assert "A B+ C" in message and "SKIP TILL ANY MATCH" in message


@pytest.mark.parametrize("kw", ENGINES)
def test_match_budget_fires_while_matches_are_built(kw):
    spec = spec_of(A_BPLUS_C, 3, ANY, max_matches=1000)
    with pytest.raises(MatchRuntimeError) as info:
        run_engine(spec, None, all_qualify(60), np.arange(60), **kw)
    assert "spark.sparkcep.maxMatches" in info.value.message


def test_live_runs_budget_of_nfa_runs():
    # unmerged NFA^b runs under ANY double with each B row (every run may take or ignore it)
    spec = spec_of(A_BPLUS_C, 3, ANY, max_live_runs=500)
    masks = np.zeros((3, 40), dtype=bool)
    masks[0, 0] = True
    masks[1, 1:] = True
    with pytest.raises(MatchRuntimeError) as info:
        run_engine(spec, None, masks, np.arange(40), engine="nfa", merge=False)
    assert "live partial matches" in info.value.message
    assert "spark.sparkcep.maxLiveRuns" in info.value.message


def test_live_runs_budget_of_the_postponing_search():
    # A B+ C with a condition on C that never holds: the search goes deep (every B row) before
    # it can fail; its open branches are the live partial matches
    spec = spec_of(A_BPLUS_C, 3, ANY, max_live_runs=100)
    masks = np.zeros((3, 3000), dtype=bool)
    masks[0, 0] = True
    masks[1, 1:-1] = True
    masks[2, -1] = True
    with pytest.raises(MatchRuntimeError) as info:
        run_engine(spec, [None, None, lambda ctx: False], masks, np.arange(3000), engine="postpone")
    assert "spark.sparkcep.maxLiveRuns" in info.value.message


@pytest.mark.parametrize("strategy", [ANY, NEXT])
def test_a_match_longer_than_the_recursion_limit(strategy):
    # issue 11: the postponing engine's recursive search raised RecursionError past ~1,000 rows.
    # A B{1498,} C over A, 1,498 B rows, C: exactly one match, every row (under both strategies).
    n = 1500
    masks = np.zeros((3, n), dtype=bool)
    masks[0, 0] = True
    masks[1, 1:-1] = True
    masks[2, -1] = True
    spec = spec_of(seq(L(0), Q(1, n - 2), L(2)), 3, strategy)
    # (the default engine of each strategy; unmerged-state NFA^b runs under ANY are cubic here)
    engine = "postpone" if strategy is ANY else "nfa"
    for kw in [{"engine": engine}]:
        matches, _unmatched, _engine = run_engine(spec, None, masks, np.arange(n), **kw)
        assert [(m.rows, m.labels) for m in matches] == [
            (tuple(range(n)), (0,) + (1,) * (n - 2) + (2,))
        ]


def test_small_windows_agree_with_the_oracle_under_the_new_search():
    # the explicit-stack search finds the same matches as the brute-force oracle
    rng = np.random.default_rng(5)
    for _ in range(40):
        n = int(rng.integers(1, 9))
        masks = rng.random((3, n)) < 0.6
        spec = spec_of(A_BPLUS_C, 3, ANY, within=int(rng.integers(2, 8)))
        keys = np.arange(n)
        got, _, _ = run_engine(spec, None, masks, keys, engine="postpone")
        expected, _unmatched = oracle_run(spec, [None, None, None], masks, keys)
        assert sorted((m.rows, m.labels) for m in got) == sorted(
            (tuple(rows), tuple(labels)) for _completion, rows, labels in expected)
