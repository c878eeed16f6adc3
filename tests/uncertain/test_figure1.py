"""Zhang, Diao, Immerman (PVLDB 2010), Figure 1: SEQ(A, B, C) WITHIN 4 over a1 = [1,5], c2 = [3,5],
b3 = [3,7], c4 = [4,6] (225 equally likely worlds). The paper: (a1, b3, c2) with confidence
15/225 and time range [1,5], (a1, b3, c4) with 24/225 and [1,6] under skip till any match; under
skip till next match a c tied with the other c is also "next" and the values are 14/225 and
22/225 (world enumeration)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from sparkcep.engines.uncertain import make_point_engine, make_uncertain_engine

from .harness import as_dict, run, spec_of
from .oracle import Comp, Pat

PAT = Pat((Comp(0, False), Comp(1, False), Comp(2, False)), ((), (), ()))
# arrival (= time_lo) order: a1, c2, b3, c4 -> rows 0, 1, 2, 3
ROWS = (
    [[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 1]],
    [1, 3, 3, 4],
    [5, 5, 7, 6],
    [0, 0, 0, 0],
)


@pytest.mark.parametrize("make", [make_uncertain_engine, make_point_engine])
@pytest.mark.parametrize(
    "strategy, c2, c4",
    [("ANY", 15, 24), ("NEXT", 14, 22)],
)
def test_figure_1(make, strategy, c2, c4):
    got = as_dict(run(make, spec_of(PAT, strategy), ROWS, window=4))
    assert got == {
        ((0, 2, 1), (0, 1, 2)): (Fraction(c2, 225), (1, 3, 4, 5)),
        ((0, 2, 3), (0, 1, 2)): (Fraction(c4, 225), (1, 4, 4, 6)),
    }
    # the paper's time range [first event earliest, last event latest]
    assert [(m.time_start_lo, m.time_end_hi) for m in run(make, spec_of(PAT, strategy), ROWS, window=4)] == [(1, 5), (1, 6)]


def test_figure_1_threshold():
    """MINIMUM CONFIDENCE 0.1 keeps only (a1, b3, c4) (24/225 = 0.107; 15/225 = 0.067)."""
    got = run(make_uncertain_engine, spec_of(PAT, "ANY"), ROWS, window=4, min_confidence=0.1)
    assert [(m.rows, m.confidence_exact) for m in got] == [((0, 2, 3), Fraction(24, 225))]
    assert got[0].number == 1 and abs(got[0].confidence - 24 / 225) < 1e-15


def test_window_tightens_lower_bounds():
    """The paper's interval passes report [1, 14] for e1 = [1,10], e2 = [12,30], WITHIN 5; in the
    worlds where they match, e1 lies in [8, 10] and e2 in [12, 14]."""
    pat = Pat((Comp(0, False), Comp(1, False)), ((), ()))
    rows = ([[1, 0], [0, 1]], [1, 12], [10, 30], [0, 0])
    (m,) = run(make_uncertain_engine, spec_of(pat, "ANY"), rows, window=5)
    assert (m.time_start_lo, m.time_start_hi, m.time_end_lo, m.time_end_hi) == (8, 10, 12, 14)
    # 3 + 2 + 1 point pairs out of 10 * 19
    assert m.confidence_exact == Fraction(6, 190)


def test_figure_3c_pruned():
    """PVLDB 2010 Figure 3(c): a1 = [1,5], b5 = [2,3], c6 = [6,7] (our reading: the vlb/rub values
    given there) and W = 4: c6 needs t >= 6 but t <= t(a1) + 3 <= 5 - no match."""
    pat = Pat((Comp(0, False), Comp(1, False), Comp(2, False)), ((), (), ()))
    rows = ([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [1, 2, 6], [5, 3, 7], [0, 0, 0])
    assert run(make_uncertain_engine, spec_of(pat, "ANY"), rows, window=4) == []


@pytest.mark.parametrize(
    "strategy, expected",
    [
        ("STRICT", [(1, 2, 3, 4)]),
        ("NEXT", [(0, 2, 3, 4), (1, 2, 3, 4)]),
        ("ANY", [(0, 2, 4), (0, 2, 3, 4), (0, 3, 4), (1, 2, 4), (1, 2, 3, 4), (1, 3, 4)]),
    ],
)
def test_precise_timestamps_are_the_degenerate_case(strategy, expected):
    """Intervals of one point: "Optimizing Expensive Queries in Complex Event Processing",
    Figure 3: PATTERN (A B+ C) WITHIN 10 over a1:1, a2:2, b1:5, b2:6, c1:7 has 1 match under strict
    contiguity, 2 under skip till next match and 6 under skip till any match, each certain."""
    pat = Pat((Comp(0, False), Comp(1, True), Comp(2, False)), ((), (), ()))
    times = [1, 2, 5, 6, 7]
    rows = ([[1, 1, 0, 0, 0], [0, 0, 1, 1, 0], [0, 0, 0, 0, 1]], times, times, [0] * 5)
    for make in (make_uncertain_engine, make_point_engine):
        got = run(make, spec_of(pat, strategy), rows, window=10)
        assert sorted(m.rows for m in got) == sorted(expected)
        assert all(m.confidence_exact == 1 for m in got)
