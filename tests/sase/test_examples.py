"""The papers' worked examples with their exact answers, plus API and guard tests."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sparkcep.engines import rowpattern as rp
from sparkcep.errors import MatchRuntimeError
from sparkcep.engines.contract import RowBlock
from sparkcep.engines.spec import RowsPerMatch, SkipMode, Strategy
from sparkcep.engines.sase.pattern import unsupported_reason
from sparkcep.engines.selection import make_sase_engine as make_engine

from .harness import ANY, NEXT, L, N, Q, run_engine, seq, spec_of

ANY_ENGINES = [{"engine": "postpone"}, {"engine": "nfa"}, {"engine": "nfa", "merge": False}]
NEXT_ENGINES = [{"engine": "nfa"}, {"engine": "nfa", "merge": False}]


def engines(strategy):
    return ANY_ENGINES if strategy is ANY else NEXT_ENGINES


def masks_from_types(types: str, letters: str):
    return [[t == x for t in types] for x in letters]


def rows_of(matches):
    return [m.rows for m in matches]


# -- seed 000 Figure 3: PATTERN(a, b+, c) WITHIN 10 over a1:1 a2:2 b1:5 b2:6 c1:7 ---------------


FIG3_MASKS = masks_from_types("aabbc", "abc")
FIG3_KEYS = [1, 2, 5, 6, 7]
FIG3_PATTERN = seq(L(0), Q(0 + 1, 1), L(2))


@pytest.mark.parametrize("kw", NEXT_ENGINES)
def test_figure3_next_two_matches(kw):
    spec = spec_of(FIG3_PATTERN, 3, NEXT, within=10)
    got, _, _ = run_engine(spec, None, FIG3_MASKS, FIG3_KEYS, cuts=[2], **kw)
    assert rows_of(got) == [(0, 2, 3, 4), (1, 2, 3, 4)]


@pytest.mark.parametrize("kw", ANY_ENGINES)
def test_figure3_any_six_matches(kw):
    spec = spec_of(FIG3_PATTERN, 3, ANY, within=10)
    got, _, _ = run_engine(spec, None, FIG3_MASKS, FIG3_KEYS, cuts=[3], **kw)
    assert sorted(rows_of(got)) == sorted(
        [(0, 2, 4), (0, 3, 4), (0, 2, 3, 4), (1, 2, 4), (1, 3, 4), (1, 2, 3, 4)]
    )
    assert [m.number for m in got] == [1, 2, 3, 4, 5, 6]


def test_figure3_nfa_runs_any():
    """14 runs in the paper's figure: 2 starts + 4 partial b-runs per start + ... (run creations
    counted here: begin, take, proceed)."""
    spec = spec_of(FIG3_PATTERN, 3, ANY, within=10)
    _got, _, eng = run_engine(spec, None, FIG3_MASKS, FIG3_KEYS, engine="nfa", merge=False)
    # a1, a2; (a,b1) x2; (a,b2) (a,b1,b2) x2; 6 completions
    assert eng.stats["runs"] == 2 + 2 + 4 + 6


def test_figure3_window_prunes():
    spec = spec_of(FIG3_PATTERN, 3, ANY, within=6)  # a1 (1) .. c1 (7): 6 is not < 6
    for kw in ANY_ENGINES:
        got, _, _ = run_engine(spec, None, FIG3_MASKS, FIG3_KEYS, **kw)
        assert sorted(rows_of(got)) == [(1, 2, 3, 4), (1, 2, 4), (1, 3, 4)]


# -- seed 000 Q6: b[i].val >= b[i-1].val over 0.1, 0.2, 0.15, 0.19, 0.25 ---------------------------


def nondecreasing(ctx):
    rows = ctx.mapped_rows(frozenset([ctx.var]))
    return len(rows) < 2 or ctx.value(0, rows[-2]) <= ctx.value(0, rows[-1])


Q6_MASKS = masks_from_types("abbbbbc", "abc")
Q6_VALS = [0.0, 0.1, 0.2, 0.15, 0.19, 0.25, 0.0]


@pytest.mark.parametrize("kw", NEXT_ENGINES)
def test_q6_next(kw):
    spec = spec_of(FIG3_PATTERN, 3, NEXT)
    got, _, _ = run_engine(spec, [None, nondecreasing, None], Q6_MASKS, None, [Q6_VALS], **kw)
    assert rows_of(got) == [(0, 1, 2, 5, 6)]  # b = 0.1, 0.2, 0.25


@pytest.mark.parametrize("kw", ANY_ENGINES)
def test_q6_any(kw):
    spec = spec_of(FIG3_PATTERN, 3, ANY)
    got, _, _ = run_engine(spec, [None, nondecreasing, None], Q6_MASKS, None, [Q6_VALS], **kw)
    # every non-decreasing non-empty subsequence of the five values: 1 + 2 + 2 + 4 + 10 = 19
    assert len(got) == 19
    assert (0, 1, 2, 5, 6) in rows_of(got)
    assert (0, 1, 3, 4, 5, 6) in rows_of(got)  # 0.1, 0.15, 0.19, 0.25
    assert (0, 2, 3, 6) not in rows_of(got)


# -- seed 001 Query 1: SEQ(TaskStart a, CPU b, TaskFinish c, CPU d) over a, b1, b2, c, d --------


def test_query1_any_two_next_one():
    # variables: A TaskStart, B CPU > 95, C TaskFinish, D CPU <= 70 (row-local: masks)
    cpu = [None, 97, 99, None, 60]
    masks = [
        [True, False, False, False, False],
        [c is not None and c > 95 for c in cpu],
        [False, False, False, True, False],
        [c is not None and c <= 70 for c in cpu],
    ]
    pattern = seq(L(0), L(1), L(2), L(3))
    for strategy, want in ((ANY, [(0, 1, 3, 4), (0, 2, 3, 4)]), (NEXT, [(0, 1, 3, 4)])):
        spec = spec_of(pattern, 4, strategy, within=15)
        for kw in engines(strategy):
            got, _, _ = run_engine(spec, None, masks, [0, 1, 2, 3, 4], **kw)
            assert rows_of(got) == want


# -- seed 000 Figure 4: postponing example, 7 matches, 15 NFA runs vs 1 structure ----------------


def test_figure4_postponing():
    masks = masks_from_types("abbbc", "abc")
    vals = [0, 6, 7, 9, 0]
    spec = spec_of(FIG3_PATTERN, 3, ANY, within=100)
    conds = [None, nondecreasing, None]
    want = {(0, 1, 2, 3, 4), (0, 1, 2, 4), (0, 1, 3, 4), (0, 1, 4), (0, 2, 3, 4), (0, 2, 4), (0, 3, 4)}
    got, _, post = run_engine(spec, conds, masks, [1, 4, 5, 6, 7], [vals], engine="postpone")
    assert set(rows_of(got)) == want and len(got) == 7
    assert post.stats["structures"] == 1
    got2, _, nfa = run_engine(spec, conds, masks, [1, 4, 5, 6, 7], [vals], engine="nfa")
    assert set(rows_of(got2)) == want
    assert nfa.stats["runs"] == 15  # 1 + 1 + 2 + 4 partial runs, 7 complete ones


# -- SASE+ Query 3 over the Figure 3 stream (SASE+, SIGMOD 2008, §5.2): R1, R2 after e6, R3 after e8 ---------


def test_sase_plus_query3_next():
    price = [100, 120, 120, 121, 120, 125, 120, 120]
    volume = [1010, 990, 1005, 999, 999, 750, 950, 700]

    def a_cond(ctx):
        rows = ctx.mapped_rows(frozenset([0]))
        if len(rows) == 1:
            return ctx.value(1, rows[0]) > 1000
        prev = [ctx.value(0, r) for r in rows[:-1]]
        return ctx.value(0, rows[-1]) > sum(prev) / len(prev)

    def b_cond(ctx):
        last_a = ctx.mapped_rows(frozenset([0]))[-1]
        return ctx.value(1, ctx.row) < 0.8 * ctx.value(1, last_a)

    spec = spec_of(seq(Q(0, 1), L(1)), 2, NEXT, within=3600)
    masks = [[True] * 8, [True] * 8]
    got, _, _ = run_engine(spec, [a_cond, b_cond], masks, list(range(8)), [price, volume], cuts=[3, 6])
    assert [(m.number, m.rows) for m in got] == [
        (1, (0, 1, 2, 3, 4, 5)),  # R1 = a[e1..e5], b = e6
        (2, (2, 3, 5)),  # R2 = a[e3, e4], b = e6
        (3, (0, 1, 2, 3, 4, 5, 6, 7)),  # R3 = a[e1..e7], b = e8
    ]
    assert (0, 1, 2, 3, 5) not in rows_of(got)


# -- negation (SASE+ Query 1: shelf, no register, exit) -----------------------------------------


@pytest.mark.parametrize("strategy", [NEXT, ANY])
def test_negation_between(strategy):
    spec = spec_of(seq(L(0), N(1), L(2)), 3, strategy)
    for kw in engines(strategy):
        # a b c: the register reading between suppresses the match
        got, _, _ = run_engine(spec, None, masks_from_types("abc", "abc"), None, **kw)
        assert got == []
        got, _, _ = run_engine(spec, None, masks_from_types("acb", "abc"), None, **kw)
        assert rows_of(got) == [(0, 1)]
        # a b a c: the second shelf reading has no register before the exit
        got, _, _ = run_engine(spec, None, masks_from_types("abac", "abc"), None, **kw)
        assert rows_of(got) == [(2, 3)]


def test_negation_with_match_dependent_condition():
    """`A !B C` with B AS B.tag = A.tag: only a same-tag register reading suppresses."""

    def same_tag(ctx):
        a = ctx.mapped_rows(frozenset([0]))[0]
        return ctx.value(0, ctx.row) == ctx.value(0, a)

    tags = [1, 2, 1]
    spec = spec_of(seq(L(0), N(1), L(2)), 3, NEXT)
    got, _, _ = run_engine(spec, [None, same_tag, None], masks_from_types("abc", "abc"), None, [tags])
    assert rows_of(got) == [(0, 2)]
    tags = [1, 1, 1]
    got, _, _ = run_engine(spec, [None, same_tag, None], masks_from_types("abc", "abc"), None, [tags])
    assert got == []


# -- trailing quantifier and window boundary ------------------------------------------------------


def test_trailing_kleene_next_is_reported_when_window_closes():
    spec = spec_of(seq(L(0), Q(1, 1)), 2, NEXT, within=5)
    masks = masks_from_types("abbxb", "ab")
    got, _, _ = run_engine(spec, None, masks, [0, 1, 2, 4, 5], cuts=[4])
    assert rows_of(got) == [(0, 1, 2)]  # the b at key 5 is outside the window
    eng = make_engine(spec, None)
    assert eng.feed(RowBlock(np.array(masks)[:, :4], (), np.array([0, 1, 2, 4]))) == []
    (m,) = eng.feed(RowBlock(np.array(masks)[:, 4:], (), np.array([5])))
    assert m.rows == (0, 1, 2)


def test_trailing_kleene_any_reports_every_prefix_choice():
    spec = spec_of(seq(L(0), Q(1, 1)), 2, ANY)
    for kw in ANY_ENGINES:
        got, _, _ = run_engine(spec, None, masks_from_types("abb", "ab"), None, **kw)
        assert rows_of(got) == [(0, 1), (0, 1, 2), (0, 2)]


def test_window_boundary_is_strict():
    spec = spec_of(seq(L(0), L(1)), 2, ANY, within=3)
    for kw in ANY_ENGINES:
        got, _, _ = run_engine(spec, None, masks_from_types("ab", "ab"), [0, 3], **kw)
        assert got == []
        got, _, _ = run_engine(spec, None, masks_from_types("ab", "ab"), [0, 2], **kw)
        assert rows_of(got) == [(0, 1)]


def test_unmatched_rows_and_exclusion():
    pattern = seq(L(0), rp.Exclusion(Q(1, 1)), L(2))
    spec = spec_of(pattern, 3, NEXT, rows_per_match=RowsPerMatch.ALL_WITH_UNMATCHED)
    got, unmatched, _ = run_engine(spec, None, masks_from_types("xabxcx", "abc"), None)
    assert rows_of(got) == [(1, 2, 4)]
    assert got[0].excluded == (False, True, False)
    assert unmatched == [0, 3, 5]


# -- guard ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("kw", ANY_ENGINES)
def test_budget_exceeded(kw):
    spec = spec_of(FIG3_PATTERN, 3, ANY, max_matches=1000)
    masks = masks_from_types("a" + "b" * 14 + "c", "abc")
    with pytest.raises(MatchRuntimeError) as info:
        run_engine(spec, None, masks, None, **kw)
    assert info.value.code == "MATCH_BUDGET_EXCEEDED"
    assert "A B+ C" in info.value.message and "WITHIN" in info.value.message


def test_step_budget_exceeded():
    """Plain NFA^b runs explode on a Kleene closure with no closing row; postponing does not."""
    spec = spec_of(FIG3_PATTERN, 3, ANY, max_steps=5000)
    masks = masks_from_types("a" + "b" * 30, "abc")
    with pytest.raises(MatchRuntimeError) as info:
        run_engine(spec, None, masks, None, engine="nfa", merge=False)
    assert info.value.code == "MATCH_BUDGET_EXCEEDED"
    for kw in ({"engine": "postpone"}, {"engine": "nfa"}):
        got, _, eng = run_engine(spec, None, masks, None, **kw)
        assert got == [] and eng.steps < 5000


# -- unsupported shapes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pattern, fragment",
    [
        (rp.Alternation((L(0), L(1))), "alternation"),
        (rp.Permute((L(0), L(1))), "PERMUTE"),
        (seq(rp.Anchor(True), L(0)), "anchors"),
        (seq(N(1), L(0)), "before it"),
        (seq(L(0), N(1)), "trailing negation needs WITHIN"),
        (seq(L(0), N(1), Q(2, 0, 1)), "after it"),
        (seq(Q(0, 0, 1), N(2), L(1)), "before it"),
        (rp.Quantified(seq(L(0), L(1)), 1, None), "single pattern variable"),
        (seq(L(0), L(1), L(0)), "only once"),
        (Q(0, 0), "zero rows"),
    ],
)
def test_unsupported_reason(pattern, fragment):
    spec = spec_of(pattern, 3, ANY)
    reason = unsupported_reason(spec)
    assert reason is not None and fragment in reason
    assert unsupported_reason(dataclasses.replace(spec, strategy=Strategy.STRICT_CONTIGUITY)) is None


def test_unsupported_skip_to():
    spec = spec_of(seq(L(0), L(1)), 2, NEXT, skip=SkipMode.TO_LAST, skip_to=frozenset([1]))
    assert "AFTER MATCH SKIP TO LAST" in unsupported_reason(spec)
    assert unsupported_reason(dataclasses.replace(spec, skip=SkipMode.TO_NEXT_ROW, skip_to=None)) is None


def test_supported_shapes():
    for p in [
        L(0),
        seq(Q(0, 0, 1), L(1)),
        seq(L(0), N(2), Q(1, 0), L(3)),
        seq(L(0), N(0), L(1)),
        seq(L(0), rp.Exclusion(Q(1, 2, 5)), L(2)),
        seq(L(0), rp.Quantified(L(1), 1, None, greedy=False)),
    ]:
        assert unsupported_reason(spec_of(p, 4, ANY)) is None, rp.to_text(p)


# -- counting without enumeration (A-Seq style) ---------------------------------------------------


def test_count_matches_ending_at():
    import random

    rnd = random.Random(7)
    for _ in range(200):
        n = rnd.randint(1, 9)
        masks = [[rnd.random() < 0.6 for _ in range(n)] for _ in range(3)]
        keys = sorted(rnd.randint(0, 6) for _ in range(n))
        pattern = seq(L(0), Q(1, rnd.choice([0, 1])), Q(2, 1, rnd.choice([1, 2, None])))
        spec = spec_of(pattern, 3, ANY, within=rnd.choice([None, 3, 5]))
        eng = make_engine(spec, None, engine="postpone")
        events = []
        for i in range(n):
            events += eng.feed(RowBlock(np.array(masks)[:, i : i + 1], (), np.array(keys[i : i + 1])))
            assert eng.count_matches_ending_at(i) == sum(1 for m in events if m.rows[-1] == i)
