"""Interval shrinking against brute force: the valid range of each event is exactly the set of
its times in the consistent tuples (strictly increasing, last - first < W)."""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from sparkcep.engines.uncertain.intervals import shrink
from tests.example_counts import examples


def test_the_window_raises_lower_bounds():
    # the paper's passes give e1 in [1, 10]; only [8, 10] can match with e2 within 5 points
    assert shrink([(1, 10), (12, 30)], 5) == [(8, 10), (12, 14)]
    # PVLDB 2010 Figure 3(a)/(b): a1, b3, c2 in query order, no window
    assert shrink([(1, 5), (3, 7), (3, 5)], None) == [(1, 3), (3, 4), (4, 5)]
    # Figure 3(c), W = 4: pruned
    assert shrink([(1, 5), (2, 3), (6, 7)], 4) is None


@settings(max_examples=examples(400), deadline=None, derandomize=True, database=None)
@given(
    st.lists(st.tuples(st.integers(0, 8), st.integers(0, 4)), min_size=1, max_size=4),
    st.one_of(st.none(), st.integers(1, 8)),
)
def test_shrink_is_exact(spec, window):
    intervals = [(a, a + d) for a, d in spec]
    ok = [t for t in product(*(range(a, b + 1) for a, b in intervals))
          if all(x < y for x, y in zip(t, t[1:])) and (window is None or t[-1] - t[0] < window)]
    got = shrink(intervals, window)
    if not ok:
        assert got is None
    else:
        assert got == [(min(t[k] for t in ok), max(t[k] for t in ok)) for k in range(len(intervals))]
