"""``confidence.close`` (all last events of a chain at once) on intervals and windows wider than
the possible-worlds oracle can enumerate: it must give what extending by each candidate alone
gives (``extend``, which the oracle tests check on small cases, where ``close`` is checked too)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sparkcep.engines.uncertain import confidence as dp


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


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
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
