"""Differential tests: the matcher, fed in random batches, against the brute-force oracle.

Random patterns use every construct of the IR allowed under strict contiguity (labels, (), ^, $,
concatenation, alternation, PERMUTE, exclusion, greedy and reluctant quantifiers incl. bounded,
unbounded and nested ones), random masks over 0-12 rows and 2-4 variables, sometimes
match-dependent conditions, every skip mode, every rows-per-match mode, sometimes WITHIN and a
small max_matches. Each test's example count is set so the suite runs >= 10,000 cases.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.spec import MatchSpec, RowsPerMatch, SkipMode

from tests.example_counts import examples
from .harness import run_matcher
from .oracle import Oracle, OracleTooBig

NAMES = "ABCD"


def _quantifier(child):
    bounds = st.sampled_from(
        [(0, None), (1, None), (2, None), (0, 1), (0, 2), (1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (0, 3)]
    )
    return st.tuples(child, bounds, st.booleans()).map(
        lambda t: rp.Quantified(t[0], t[1][0], t[1][1], t[2])
    )


def _patterns(n_vars: int, max_leaves: int = 6):
    label = st.integers(0, n_vars - 1).map(rp.Label)
    leaf = st.one_of(label, label, label, st.just(rp.Empty()), st.booleans().map(rp.Anchor))

    def extend(child):
        items = st.lists(child, min_size=2, max_size=3).map(tuple)
        return st.one_of(
            items.map(rp.Concat),
            items.map(rp.Alternation),
            items.map(rp.Permute),
            child.map(rp.Exclusion),
            _quantifier(child),
            _quantifier(child),
        )

    return st.recursive(leaf, extend, max_leaves=max_leaves)


PATTERNS = {n: _patterns(n) for n in range(2, 5)}


# Match-dependent conditions (each reads the MatchContext under RUNNING semantics).
def _increasing(ctx):  # like  B.x > LAST(B.x, 1)  (true on the first B)
    rows = ctx.mapped_rows(frozenset([ctx.var]))
    return len(rows) < 2 or ctx.value(0, rows[-1]) > ctx.value(0, rows[-2])


def _at_most_two(ctx):  # like  COUNT(B.*) <= 2
    return len(ctx.mapped_rows(frozenset([ctx.var]))) <= 2


def _label_changes(ctx):  # like  PREV(CLASSIFIER()) <> 'B' within the match
    rows = ctx.mapped_rows(None)
    return len(rows) < 2 or ctx.label_of(rows[-2]) != ctx.var


def _odd_match(ctx):  # MATCH_NUMBER() is odd; None (SQL NULL) otherwise -> false
    return True if ctx.match_number % 2 == 1 else None


def _small_sum(ctx):  # like  SUM(x) < 8  over the whole match so far
    return sum(ctx.value(0, r) for r in ctx.mapped_rows(None)) < 8


CONDITIONS = [_increasing, _at_most_two, _label_changes, _odd_match, _small_sum]


@st.composite
def cases(draw, with_conditions: bool, max_rows: int = 12):
    n_vars = draw(st.integers(2, 4))
    pattern = draw(PATTERNS[n_vars])
    n = draw(st.integers(0, max_rows))
    density = draw(st.sampled_from([0.3, 0.5, 0.7, 0.8, 0.9, 0.95]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    masks = rng.random((n_vars, n)) < density
    x = rng.integers(0, 6, size=n)
    column = x if draw(st.booleans()) else x.tolist()
    conditions = {}
    if with_conditions:
        for v in draw(st.sets(st.integers(0, n_vars - 1), min_size=1, max_size=2)):
            conditions[v] = draw(st.sampled_from(CONDITIONS))
    skip = draw(st.sampled_from([SkipMode.PAST_LAST_ROW, SkipMode.TO_NEXT_ROW] * 2 + list(SkipMode)))
    skip_to = None
    if skip in (SkipMode.TO_FIRST, SkipMode.TO_LAST):
        skip_to = frozenset(draw(st.sets(st.integers(0, n_vars - 1), min_size=1, max_size=2)))
    rows_per_match = draw(st.sampled_from(list(RowsPerMatch)))
    within = None
    order_key = None
    if draw(st.integers(0, 3)) == 0:
        within = draw(st.integers(1, 4))
        order_key = np.cumsum(rng.integers(0, 3, size=n))
    max_matches = draw(st.sampled_from([10_000_000] * 17 + [0, 1, 2]))
    cuts = draw(st.lists(st.integers(0, n), max_size=4))
    spec = MatchSpec(
        pattern=pattern,
        variable_names=tuple(NAMES[:n_vars]),
        skip=skip,
        skip_to=skip_to,
        rows_per_match=rows_per_match,
        within=within,
        max_matches=max_matches,
    )
    return spec, conditions, masks, (column,), order_key, cuts


def random_pattern(rng, n_vars: int, budget: int, loops: float = 1 / 3) -> rp.Pattern:
    """A random pattern with at most ``budget`` leaves (seed-based twin of ``_patterns``);
    ``loops`` = the share of quantifiers among inner nodes."""
    if budget <= 1 or rng.random() < 0.35:
        k = rng.integers(0, 10)
        if k < 7:
            return rp.Label(int(rng.integers(0, n_vars)))
        if k < 8:
            return rp.Empty()
        return rp.Anchor(bool(rng.integers(0, 2)))
    kind = 4 if rng.random() < loops else int(rng.integers(0, 4))
    if kind in (0, 1, 2):
        size = int(rng.integers(2, 4))
        share = max(1, (budget - 1) // size)
        items = tuple(random_pattern(rng, n_vars, share, loops) for _ in range(size))
        return (rp.Concat, rp.Alternation, rp.Permute)[kind](items)
    child = random_pattern(rng, n_vars, budget - 1, loops)
    if kind == 3:
        return rp.Exclusion(child)
    lo, hi = QUANTIFIER_BOUNDS[int(rng.integers(0, len(QUANTIFIER_BOUNDS)))]
    return rp.Quantified(child, lo, hi, bool(rng.integers(0, 2)))


QUANTIFIER_BOUNDS = [(0, None), (1, None), (2, None), (0, 1), (0, 2), (1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (0, 3)]


def random_case(seed: int, with_conditions: bool, max_rows: int = 12, loops: float | None = None):
    """Everything of ``cases`` drawn from one seed (cheap to generate; reproducible by seed).
    ``loops`` set = nested-quantifier-heavy patterns over 2 variables (empty-iteration and memo
    corner cases)."""
    rng = np.random.default_rng(seed)
    n_vars = 2 if loops else int(rng.integers(2, 5))
    pattern = random_pattern(rng, n_vars, int(rng.integers(1, 9)), loops or 1 / 3)
    n = int(rng.integers(0, max_rows + 1))
    density = float(rng.choice([0.3, 0.5, 0.7, 0.8, 0.9, 0.95]))
    masks = rng.random((n_vars, n)) < density
    x = rng.integers(0, 6, size=n)
    column = x if rng.integers(0, 2) else x.tolist()
    conditions = {}
    if with_conditions:
        for v in rng.choice(n_vars, size=int(rng.integers(1, 3)), replace=False):
            conditions[int(v)] = CONDITIONS[int(rng.integers(0, len(CONDITIONS)))]
    skip = list(SkipMode)[int(rng.choice(4, p=[0.35, 0.35, 0.15, 0.15]))]
    skip_to = None
    if skip in (SkipMode.TO_FIRST, SkipMode.TO_LAST):
        skip_to = frozenset(int(v) for v in rng.choice(n_vars, size=int(rng.integers(1, 3)), replace=False))
    rows_per_match = list(RowsPerMatch)[int(rng.integers(0, 4))]
    within = order_key = None
    if rng.integers(0, 4) == 0:
        within = int(rng.integers(1, 5))
        order_key = np.cumsum(rng.integers(0, 3, size=n))
    max_matches = int(rng.choice([10_000_000] * 17 + [0, 1, 2]))
    cuts = sorted(int(c) for c in rng.integers(0, n + 1, size=int(rng.integers(0, 5))))
    spec = MatchSpec(
        pattern=pattern,
        variable_names=tuple(NAMES[:n_vars]),
        skip=skip,
        skip_to=skip_to,
        rows_per_match=rows_per_match,
        within=within,
        max_matches=max_matches,
    )
    return spec, conditions, masks, (column,), order_key, cuts


def check(case):
    spec, conditions, masks, columns, order_key, cuts = case
    try:
        expected, expected_code = Oracle(spec, conditions, masks, columns, order_key, limit=30_000).run()
    except OracleTooBig:
        assume(False)
    got, code = run_matcher(spec, conditions, masks, columns, order_key, cuts)
    assert (got, code) == (expected, expected_code)


SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=False)


@settings(max_examples=examples(1500), **SETTINGS)
@given(cases(with_conditions=False))
def test_row_local_patterns_match_oracle(case):
    check(case)


@settings(max_examples=examples(1000), **SETTINGS)
@given(cases(with_conditions=True))
def test_match_dependent_conditions_match_oracle(case):
    check(case)


SEEDS = st.integers(0, 2**63 - 1)


@settings(max_examples=examples(3000), **SETTINGS)
@given(SEEDS)
def test_seeded_row_local_cases_match_oracle(seed):
    check(random_case(seed, with_conditions=False))


@settings(max_examples=examples(3000), **SETTINGS)
@given(SEEDS)
def test_seeded_match_dependent_cases_match_oracle(seed):
    check(random_case(seed, with_conditions=True))


@settings(max_examples=examples(1500), **SETTINGS)
@given(SEEDS)
def test_seeded_nested_quantifier_cases_match_oracle(seed):
    check(random_case(seed, with_conditions=False, loops=0.7))


@settings(max_examples=examples(1000), **SETTINGS)
@given(cases(with_conditions=False), st.data())
def test_batch_splits_do_not_matter(case, data):
    """Same input, two different random splits (and one row at a time): identical results."""
    spec, conditions, masks, columns, order_key, _ = case
    n = masks.shape[1]
    cuts = data.draw(st.lists(st.integers(0, n), max_size=6))
    whole = run_matcher(spec, conditions, masks, columns, order_key, [])
    for split in (cuts, list(range(n))):
        assert run_matcher(spec, conditions, masks, columns, order_key, split) == whole
