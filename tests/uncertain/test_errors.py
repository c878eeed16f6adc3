"""What the imprecise-timestamp engines refuse (``unsupported_reason``), their resource guards, and
the floating-point fallback of the confidence DP."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.contract import RowBlock
from sparkcep.engines.spec import MatchSpec, RowsPerMatch, SkipMode, Strategy
from sparkcep.engines.uncertain import make_uncertain_engine, unsupported_reason
from sparkcep.engines.uncertain import confidence as dp
from sparkcep.errors import InternalError, MatchRuntimeError

A, B, C, N = rp.Label(0), rp.Label(1), rp.Label(2), rp.Label(3)
NAMES = ("A", "B", "C", "N")


def spec(pattern, **kw):
    return MatchSpec(pattern, NAMES, **kw)


@pytest.mark.parametrize(
    "pattern, fragment",
    [
        (rp.Concat((A, rp.Alternation((B, C)))), "alternation"),
        (rp.Permute((A, B)), "PERMUTE"),
        (rp.Concat((rp.Anchor(True), A)), "anchors"),
        (rp.Empty(), "empty pattern"),
        (rp.Concat((A, rp.Quantified(B, 0, None), C)), "Kleene closure (B+)"),
        (rp.Concat((A, rp.Quantified(B, 1, 3), C)), "Kleene closure (B+)"),
        (rp.Concat((A, rp.Quantified(rp.Concat((B, C)), 1, None), C)), "single pattern variable"),
        (rp.Concat((A, B, A)), "only once"),
        (rp.Concat((rp.Negation(3), A, B)), "before it"),
        (rp.Concat((A, B, rp.Negation(3))), "after it"),
        (rp.Concat((A, rp.Quantified(B, 1, None))), "may not end with Kleene"),
        (rp.Concat((A, rp.Exclusion(rp.Negation(3)), B)), "inside {- -}"),
    ],
)
def test_unsupported_patterns(pattern, fragment):
    reason = unsupported_reason(spec(pattern))
    assert reason is not None and fragment in reason
    assert reason.startswith("PATTERN (")
    with pytest.raises(InternalError):
        make_uncertain_engine(spec(pattern))


@pytest.mark.parametrize("strategy", list(Strategy))
def test_supported_shapes(strategy):
    for pattern in (
        A,
        rp.Concat((A, B, C)),
        rp.Concat((rp.Quantified(B, 1, None), C)),
        rp.Concat((A, rp.Quantified(B, 1, None, greedy=False), rp.Negation(3), C)),
        rp.Concat((A, rp.Exclusion(B), C)),
    ):
        assert unsupported_reason(spec(pattern, strategy=strategy)) is None


def test_unsupported_options():
    p = rp.Concat((A, B))
    assert "AFTER MATCH SKIP TO FIRST" in unsupported_reason(
        spec(p, skip=SkipMode.TO_FIRST, skip_to=frozenset({1})))
    assert "WITH UNMATCHED ROWS" in unsupported_reason(
        spec(p, rows_per_match=RowsPerMatch.ALL_WITH_UNMATCHED))
    assert "whole number" in unsupported_reason(spec(p, within=2.5))
    assert unsupported_reason(spec(p, within=3)) is None


def _block(lo, hi, masks):
    return RowBlock(np.asarray(masks, dtype=bool), time_lo=np.asarray(lo), time_hi=np.asarray(hi))


def test_feed_contract_violations_are_internal_errors():
    e = make_uncertain_engine(spec(rp.Concat((A, B))), window=3)
    with pytest.raises(InternalError, match="time_lo"):
        e.feed(RowBlock(np.ones((4, 1), dtype=bool)))
    with pytest.raises(InternalError, match="sorted"):
        e.feed(_block([3, 1], [3, 1], np.ones((4, 2))))
    with pytest.raises(InternalError, match="empty"):
        e.feed(_block([3], [2], np.ones((4, 1))))


def test_match_budget():
    s = spec(rp.Concat((A, B)), strategy=Strategy.SKIP_TILL_ANY_MATCH, max_matches=3)
    e = make_uncertain_engine(s, window=100)
    masks = [[1] * 4 + [0] * 4, [0] * 4 + [1] * 4, [0] * 8, [0] * 8]
    with pytest.raises(MatchRuntimeError) as info:
        e.feed(_block(list(range(8)), list(range(8)), masks))
        e.finish()
    assert info.value.code == "MATCH_BUDGET_EXCEEDED"


def test_buffer_budget():
    s = spec(rp.Concat((A, B)), max_buffered_rows=5)
    e = make_uncertain_engine(s)  # no window: every row is kept until the end
    with pytest.raises(MatchRuntimeError) as info:
        for t in range(10):
            e.feed(_block([t], [t], [[1], [1], [0], [0]]))
    assert info.value.code == "MATCH_BUDGET_EXCEEDED"


def test_window_bounds_the_buffer():
    """With WITHIN, matches are reported as soon as they are final, and old rows are dropped."""
    s = spec(rp.Concat((A, B)), strategy=Strategy.SKIP_TILL_ANY_MATCH)
    e = make_uncertain_engine(s, window=3)
    reported = []
    for t in range(0, 40, 2):
        reported += e.feed(_block([t], [t + 1], [[1], [1], [0], [0]]))
        assert len(e.buf.lo) <= 4
    rest = e.finish()
    assert len(reported) > 10 and len(rest) <= 2
    assert [m.number for m in reported + rest] == list(range(1, len(reported) + len(rest) + 1))


def test_float_fallback_agrees_with_exact():
    rng = np.random.default_rng(7)
    for _ in range(50):
        ivs = sorted((int(a), int(a + rng.integers(0, 12))) for a in rng.integers(0, 30, 4))
        w = int(rng.integers(3, 30))
        ex, fl = dp.start(*ivs[0]), dp.start(*ivs[0], exact=False)
        for lo, hi in ivs[1:]:
            ex = ex and dp.extend(ex, lo, hi, w)
            fl = fl and dp.extend(fl, lo, hi, w)
        assert (ex is None) == (fl is None)
        if ex is not None:
            assert isinstance(ex.mass(), Fraction)
            assert abs(float(ex.mass()) - fl.mass()) < 1e-12
            assert ex.time_range() == fl.time_range()


def test_large_denominators_switch_to_float():
    """A long chain over long intervals exceeds 2**62 in the denominator: float, same value."""
    ivs = [(i * 50, i * 50 + 999) for i in range(8)]
    res = dp.signature_confidence(ivs, None)
    assert isinstance(res.confidence, float) and 0 < res.confidence < 1
    # the exact value: the same chain in Python integers over its ranges
    total = Fraction(1)
    counts = {t: 1 for t in range(ivs[0][0], ivs[0][1] + 1)}
    for lo, hi in ivs[1:]:
        acc, nxt = 0, {}
        prev = sorted(counts.items())
        j = 0
        for t in range(lo, hi + 1):
            while j < len(prev) and prev[j][0] < t:
                acc += prev[j][1]
                j += 1
            nxt[t] = acc
        counts = nxt
    denom = 1
    for lo, hi in ivs:
        denom *= hi - lo + 1
    assert abs(res.confidence - float(Fraction(sum(counts.values()), denom))) < 1e-12


def test_too_many_time_points_is_a_budget_error():
    """Intervals of a million points (a TIMESTAMP interval of 17 minutes at the default
    millisecond granularity) would need a DP array of 10^12 cells: a typed error, no allocation."""
    s = spec(rp.Concat((A, B)), strategy=Strategy.SKIP_TILL_ANY_MATCH)
    e = make_uncertain_engine(s)
    e.feed(_block([0, 10], [999_999, 1_000_009], [[1, 0], [0, 1], [0, 0], [0, 0]]))
    with pytest.raises(MatchRuntimeError) as info:
        e.finish()
    assert info.value.code == "MATCH_BUDGET_EXCEEDED" and "GRANULARITY" in str(info.value)
