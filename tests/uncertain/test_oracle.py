"""Both engines against the possible-worlds oracle (``oracle.py``, which shares no code with
them): all three strategies, windows, negation, Kleene closure, match-dependent conditions,
confidence thresholds, and input split into blocks at random points."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from sparkcep.engines.uncertain import make_point_engine, make_uncertain_engine

from tests.example_counts import examples
from .harness import as_dict, run, spec_of
from .oracle import Comp, Pat, oracle

SETTINGS = dict(deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
VARS = (0, 1, 2, 4, 5)  # A B C, N M (negated); variable 3 (D) is never used
PRIMARY = (0, 0, 1, 1, 1, 2, 2, 4, 5)  # a row's main variable


@st.composite
def cases(draw, strategies=("ANY", "NEXT", "STRICT"), conditions=True, kleene=False):
    n_comps = draw(st.integers(2 if kleene else 1, 3))
    comps = tuple(Comp(v, k < n_comps - 1 and (kleene or draw(st.booleans())))
                  for k, v in enumerate(range(n_comps)))
    negs = [()]
    for _k in range(1, n_comps):
        negs.append(tuple(draw(st.lists(st.sampled_from((4, 5, 1)), max_size=2, unique=True))))
    pat = Pat(comps, tuple(negs))
    n = draw(st.integers(3, 7))
    lo = sorted(draw(st.lists(st.integers(0, 6), min_size=n, max_size=n)))
    lens = draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
    while True:  # at most 400 worlds
        worlds = 1
        for x in lens:
            worlds *= x
        if worlds <= 400:
            break
        lens[lens.index(max(lens))] -= 1
    hi = [a + d - 1 for a, d in zip(lo, lens)]
    masks = [[False] * n for _ in range(6)]
    for i in range(n):  # each row qualifies for one variable, sometimes for more
        for v in {draw(st.sampled_from(PRIMARY)), *draw(st.lists(st.sampled_from(VARS), max_size=2))}:
            masks[v][i] = True
    values = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    strategy = draw(st.sampled_from(strategies))
    window = draw(st.one_of(st.none(), st.integers(1, 6)))
    min_conf = draw(st.sampled_from((0.0, 0.0, 0.0, 0.05, 0.2, 0.5)))
    use_conds = conditions and draw(st.booleans())
    cuts = draw(st.lists(st.integers(1, max(1, n - 1)), max_size=3))
    return pat, (masks, lo, hi, values), strategy, window, min_conf, use_conds, cuts


# match-dependent conditions: B rises along the Kleene closure (an iterator predicate),
# C differs from the first row of the match, N is higher than the last row taken so far
def _cond_b(ctx):
    bs = ctx.mapped_rows(frozenset({1}))
    return len(bs) < 2 or ctx.value(0, bs[-1]) > ctx.value(0, bs[-2])


def _cond_c(ctx):
    return ctx.value(0, ctx.row) != ctx.value(0, ctx.mapped_rows(None)[0])


def _cond_n(ctx):
    rows = ctx.mapped_rows(None)
    return len(rows) < 2 or ctx.value(0, rows[-1]) > ctx.value(0, rows[-2])


CONDITIONS = {1: _cond_b, 2: _cond_c, 4: _cond_n}


def _qual(masks, values, use_conds):
    """Qualification written directly from the three conditions above (not through them)."""

    def qual(rows, labels, x, v):
        if not masks[v][x]:
            return False
        if not use_conds:
            return True
        if v == 1:
            bs = [r for r, lab in zip(rows, labels) if lab == 1]
            return not bs or values[x] > values[bs[-1]]
        if v == 2:
            return values[x] != values[rows[0]]
        if v == 4:
            return not rows or values[x] > values[rows[-1]]
        return True

    return qual


def _check(case, make):
    pat, rows, strategy, window, min_conf, use_conds, cuts = case
    masks, lo, hi, values = rows
    expected = oracle(pat, strategy, window, lo, hi, _qual(masks, values, use_conds), min_conf)
    got = run(make, spec_of(pat, strategy), rows, CONDITIONS if use_conds else None,
              window=window, min_confidence=min_conf, cuts=cuts)
    assert as_dict(got) == expected
    event(f"{strategy}: {'some' if expected else 'no'} matches")
    if any(c.kleene for c in pat.comps) and expected:
        event("Kleene with matches")
    if any(pat.negs) and expected:
        event("negation with matches")
    if any(len(sig[0]) > 3 for sig in expected):
        event("a match of 4+ rows")
    assert [m.number for m in got] == list(range(1, len(got) + 1))
    for m in got:
        assert m.confidence == float(m.confidence_exact) and 0 < m.confidence <= 1
        assert m.start == m.rows[0]
    return expected


@settings(max_examples=examples(1500), **SETTINGS)
@given(cases())
def test_event_based_engine_equals_possible_worlds(case):
    _check(case, make_uncertain_engine)


@settings(max_examples=examples(500), **SETTINGS)
@given(cases())
def test_point_based_engine_equals_possible_worlds(case):
    _check(case, make_point_engine)


@settings(max_examples=examples(300), **SETTINGS)
@given(cases(strategies=("NEXT",), kleene=True))
def test_next_match_kleene_equals_possible_worlds(case):
    """Skip till next match with Kleene closure: unselected rows of the closure can break several
    gaps at once (the tracked rows of ``confidence.signature_confidence``)."""
    _check(case, make_uncertain_engine)


@settings(max_examples=examples(300), **SETTINGS)
@given(cases(strategies=("ANY",), conditions=False))
def test_threshold_keeps_exactly_the_confident_matches(case):
    """Threshold pruning drops no match at or above the threshold: the matches with a threshold
    are those without one whose confidence reaches it."""
    pat, rows, strategy, window, min_conf, _c, cuts = case
    spec = spec_of(pat, strategy)
    every = as_dict(run(make_uncertain_engine, spec, rows, window=window, cuts=cuts))
    for threshold in (0.1, 0.3, 0.6):
        got = as_dict(run(make_uncertain_engine, spec, rows, window=window, min_confidence=threshold))
        assert got == {k: v for k, v in every.items() if v[0] >= Fraction(threshold)}


@settings(max_examples=examples(300), **SETTINGS)
@given(cases())
def test_floating_point_mode_equals_possible_worlds(case):
    """With the exact-arithmetic limit lowered to 2, the DP switches to float64 on almost all
    signatures (every path: prefix sums, gap factors, tracked rows, strict contiguity): same
    signatures and time ranges, confidences within 1e-12."""
    from unittest import mock

    from sparkcep.engines.uncertain import confidence as dp

    pat, rows, strategy, window, min_conf, use_conds, cuts = case
    masks, lo, hi, values = rows
    expected = oracle(pat, strategy, window, lo, hi, _qual(masks, values, use_conds), min_conf)
    with mock.patch.object(dp, "_EXACT_LIMIT", 2):
        got = run(make_uncertain_engine, spec_of(pat, strategy), rows,
                  CONDITIONS if use_conds else None, window=window, min_confidence=min_conf,
                  cuts=cuts)
    got_sigs = {(m.rows, m.labels): m for m in got}
    # a float confidence can land a hair on the other side of the threshold
    borderline = {k for k, (c, _r) in expected.items() if abs(float(c) - min_conf) < 1e-9}
    assert set(got_sigs) - borderline == set(expected) - borderline
    for key, (conf, rng) in expected.items():
        if key in got_sigs:
            m = got_sigs[key]
            assert abs(m.confidence - float(conf)) < 1e-12
            event("float" if m.confidence_exact is None else "exact")
            assert (m.time_start_lo, m.time_start_hi, m.time_end_lo, m.time_end_hi) == rng


def _selectivity_order(spec, conditions=None, **kw):
    return make_uncertain_engine(spec, conditions, order="selectivity", **kw)


@settings(max_examples=examples(600), **SETTINGS)
@given(cases(strategies=("ANY",)))
def test_selectivity_order_equals_possible_worlds(case):
    """Selectivity-order evaluation (PVLDB 2010, section 5.3) finds the same matches with the
    same confidences and time ranges, numbered as in query order."""
    _check(case, _selectivity_order)
    pat, rows, strategy, window, min_conf, use_conds, cuts = case
    conds = CONDITIONS if use_conds else None
    spec = spec_of(pat, strategy)
    by_query = run(make_uncertain_engine, spec, rows, conds, window=window,
                   min_confidence=min_conf, cuts=cuts)
    by_selectivity = run(_selectivity_order, spec, rows, conds, window=window,
                         min_confidence=min_conf, cuts=cuts)
    assert [(m.number, m.rows) for m in by_selectivity] == [(m.number, m.rows) for m in by_query]
