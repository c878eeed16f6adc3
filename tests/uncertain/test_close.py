"""``confidence.close`` (all last events of a chain at once) on intervals and windows wider than
the possible-worlds oracle can enumerate: it must give what extending by each candidate alone
gives (``extend``, which the oracle tests check on small cases, where ``close`` is checked too)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from sparkcep.engines.uncertain import confidence as dp
from tests.example_counts import examples


@st.composite
def chains(draw):
    window = draw(st.one_of(st.none(), st.integers(1, 60)))
    lo = draw(st.integers(0, 20))
    chain = dp.start(lo, lo + draw(st.integers(0, 30)))
    for _ in range(draw(st.integers(0, 2))):
        lo = draw(st.integers(0, 60))
        nxt = dp.extend(chain, lo, lo + draw(st.integers(0, 30)), window)
        if nxt is not None:
            chain = nxt
    cands = draw(st.lists(st.tuples(st.integers(0, 100), st.integers(0, 40)), min_size=1,
                          max_size=6))
    return chain, window, [c[0] for c in cands], [c[0] + c[1] for c in cands]


@settings(max_examples=examples(300), deadline=None, derandomize=True, database=None)
@given(chains())
def test_close_equals_extending_each_candidate(case):
    chain, window, los, his = case
    closed = dp.close(chain, los, his, window)
    assert closed is not None
    for k, (lo, hi) in enumerate(zip(los, his)):
        one = dp.extend(chain, lo, hi, window)
        if one is None:
            assert not closed.ok[k]
            continue
        assert closed.ok[k]
        assert closed.mass[k] == one.mass()
        assert closed.ranges[k] == one.time_range()


def test_many_breaking_rows_beyond_int64():
    """Ten rows over [9, 108] may not lie strictly between events at 0 and 10: each does with
    probability 1/100, independently, so the confidence is 0.99^10. The product of their
    remaining counts (99^10) exceeds int64; it used to overflow into negative weights."""
    rows = {x: [1] for x in range(10)}
    intervals = {x: (9, 108) for x in range(10)}
    out = dp.signature_confidence([(0, 0), (10, 10)], None, rows, intervals)
    assert abs(out.confidence - 0.99**10) < 1e-12
    assert out.time_range == (0, 0, 10, 10)
    # within int64 the same computation stays exact
    out = dp.signature_confidence([(0, 0), (10, 10)], None, {x: [1] for x in range(3)},
                                  {x: (9, 108) for x in range(3)})
    assert out.confidence == Fraction(99, 100) ** 3
