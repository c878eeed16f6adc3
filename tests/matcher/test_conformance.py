"""Hand-written conformance cases for the SQL:2016 row pattern matcher (strict contiguity).

Expected results are worked out by hand from ISO/IEC TR 19075-5:2016 (Row Pattern Recognition in
SQL) and checked against the oracle as well. Notation:
``brief`` renders a Match as (match number, start row, labels) and an UnmatchedRow as its row;
mask rows are written as the set of variables whose row-local condition holds ("-" = none).
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from sparkcep.errors import InternalError, MatchRuntimeError
from sparkcep.engines.standard.matcher import RowPatternMatcher
from sparkcep.engines.contract import Match, RowBlock, UnmatchedRow
from sparkcep.engines.spec import MatchSpec, RowsPerMatch, SkipMode, Strategy
from sparkcep.engines.rowpattern import (
    Alternation,
    Anchor,
    Concat,
    Empty,
    Exclusion,
    Label,
    Negation,
    Permute,
    Quantified,
)

from .harness import brief, compare, masks_from, run_matcher

A, B, C = Label(0), Label(1), Label(2)
ABC = "ABC"
ONE = RowsPerMatch.ONE
UNMATCHED = RowsPerMatch.ALL_WITH_UNMATCHED


def star(p, greedy=True):
    return Quantified(p, 0, None, greedy)


def plus(p, greedy=True):
    return Quantified(p, 1, None, greedy)


def opt(p, greedy=True):
    return Quantified(p, 0, 1, greedy)


def cat(*items):
    return Concat(tuple(items))


def alt(*items):
    return Alternation(tuple(items))


def run(pattern, rows, *, conditions=None, columns=(), order_key=None, cuts=None, **kw):
    """Check matcher == oracle for every split given (whole, row by row, ``cuts``); return
    (brief events, error code)."""
    masks = masks_from(rows, ABC)
    spec = MatchSpec(pattern=pattern, variable_names=tuple(ABC), **kw)
    n = masks.shape[1]
    results = set()
    for split in ([], list(range(n)), cuts or []):
        events, code = compare(spec, conditions or {}, masks, columns, order_key, split)
        results.add((tuple(brief(events)), code))
    assert len(results) == 1
    events, code = results.pop()
    return list(events), code


# --------------------------------------------------------------------------- preferment


def test_greedy_takes_as_many_as_possible():
    # 19075-5 4.13 (preferment): a greedy quantifier prefers more iterations.
    assert run(plus(A), "A A A B", rows_per_match=UNMATCHED) == ([(1, 0, "AAA"), 3], None)


def test_reluctant_takes_as_few_as_possible():
    # Reluctant quantifiers prefer fewer iterations: A+? matches one row each time.
    assert run(plus(A, greedy=False), "A A A") == ([(1, 0, "A"), (2, 1, "A"), (3, 2, "A")], None)
    # ... but as many as needed for the rest of the pattern to match.
    assert run(cat(plus(A, False), B), "A A A B") == ([(1, 0, "AAAB")], None)
    # A*? prefers zero iterations: an empty match at each row.
    assert run(star(A, False), "A A") == ([(1, 0, ""), (2, 1, "")], None)


def test_bounded_quantifiers():
    assert run(Quantified(A, 2, 3, True), "A A A A", rows_per_match=UNMATCHED) == ([(1, 0, "AAA"), 3], None)
    assert run(Quantified(A, 2, 3, False), "A A A A") == ([(1, 0, "AA"), (2, 2, "AA")], None)


def test_alternation_prefers_left_not_longest():
    # Alternation: the left alternative is preferred, even when the right one is longer.
    assert run(alt(A, cat(A, B)), "AB B", rows_per_match=UNMATCHED) == ([(1, 0, "A"), 1], None)
    assert run(alt(cat(A, B), A), "AB B") == ([(1, 0, "AB")], None)


def test_backtracking_into_a_greedy_loop():
    # (A|B)* B over rows satisfying both: the most preferred derivation takes A, A, then must give
    # back the last iteration so that B can match: lexicographic order of the choices.
    assert run(cat(star(alt(A, B)), B), "AB AB AB") == ([(1, 0, "AAB")], None)
    # Reluctant: stop as early as possible.
    assert run(cat(star(alt(A, B), False), B), "AB AB AB") == (
        [(1, 0, "B"), (2, 1, "B"), (3, 2, "B")],
        None,
    )


def test_permute_lexicographic_order():
    # PERMUTE(A, B, C) = ABC | ACB | BAC | BCA | CAB | CBA, in that preference order.
    assert run(Permute((A, B, C)), "ABC ABC ABC") == ([(1, 0, "ABC")], None)
    # ABC, ACB and BAC fail on these rows; BCA is the first that matches (CAB also would).
    assert run(Permute((A, B, C)), "BC AC AB") == ([(1, 0, "BCA")], None)


def test_permute_order_wins_over_length():
    # PERMUTE(A?, B): ordering (A?, B) is preferred to (B, A?) even though (B, A?) is longer.
    assert run(Permute((opt(A), B)), "B A", rows_per_match=UNMATCHED) == ([(1, 0, "B"), 1], None)


# --------------------------------------------------------------------------- anchors


def test_start_anchor_only_before_first_row():
    assert run(cat(Anchor(True), A), "A A A", rows_per_match=UNMATCHED) == ([(1, 0, "A"), 1, 2], None)


def test_end_anchor_only_after_last_row():
    assert run(cat(A, Anchor(False)), "A A A", rows_per_match=UNMATCHED) == ([0, 1, (1, 2, "A")], None)
    assert run(cat(plus(A), Anchor(False)), "A B A A", rows_per_match=UNMATCHED) == ([0, 1, (1, 2, "AA")], None)


def test_anchored_empty_pattern_is_not_an_empty_match_elsewhere():
    # ^ A* : an empty match at row 0 only; at row 1 ^ fails, so row 1 is unmatched.
    assert run(cat(Anchor(True), star(A)), "B B", rows_per_match=UNMATCHED) == ([(1, 0, ""), 1], None)
    # $ alone can never match at a row: the partition end is after the last row.
    assert run(Anchor(False), "A A", rows_per_match=UNMATCHED) == ([0, 1], None)


def test_end_anchor_waits_for_finish():
    spec = MatchSpec(pattern=cat(A, Anchor(False)), variable_names=tuple(ABC), rows_per_match=UNMATCHED)
    engine = RowPatternMatcher(spec, {})
    # row 0 is decided (A then $ fails at row 1), row 1 needs to know whether the partition ends
    assert engine.feed(RowBlock(masks=masks_from("A A", ABC))) == [UnmatchedRow(0)]
    assert engine.finish() == [Match(1, 1, (1,), (0,), (False,))]


# --------------------------------------------------------------------------- empty matches


def test_empty_loops_terminate():
    # Empty-iteration rule: an iteration past the minimum that matches no row is rejected.
    assert run(star(Empty()), "A B") == ([(1, 0, ""), (2, 1, "")], None)
    assert run(star(opt(A)), "A A B") == ([(1, 0, "AA"), (2, 2, "")], None)
    assert run(star(star(A)), "A A B") == ([(1, 0, "AA"), (2, 2, "")], None)
    assert run(plus(plus(star(A))), "A A B") == ([(1, 0, "AA"), (2, 2, "")], None)
    # Reluctant inner loops: the inner A*? prefers zero rows, but an outer iteration past the
    # minimum may not be empty, so each outer iteration takes exactly one A. (These also check
    # that the failure memo tells "this iteration has consumed a row" from "it has not".)
    assert run(star(star(A, False)), "A A B") == ([(1, 0, "AA"), (2, 2, "")], None)
    assert run(plus(star(A, False)), "A A A B") == ([(1, 0, "AAA"), (2, 3, "")], None)
    assert run(star(star(B, False)), "AB AB AB B AB") == ([(1, 0, "BBBBB")], None)


def test_preferred_empty_alternative_inside_a_loop_is_skipped():
    # (() | A)* : taking () in an iteration past the minimum is rejected, so A is tried next.
    assert run(star(alt(Empty(), A)), "A A B") == ([(1, 0, "AA"), (2, 2, "")], None)
    # (() | A)+ : the first (mandatory) iteration may be empty, the later ones may not.
    assert run(plus(alt(Empty(), A)), "A A B") == ([(1, 0, "AA"), (2, 2, "")], None)
    # (() | A){2}: both iterations are mandatory, () is preferred in each: an empty match.
    assert run(Quantified(alt(Empty(), A), 2, 2), "A A") == ([(1, 0, ""), (2, 1, "")], None)


def test_empty_matches_are_numbered_and_rows_are_not_unmatched():
    # An empty match has a start row and a match number; a pattern that can match empty leaves
    # no row unmatched.
    assert run(opt(A), "B A B", rows_per_match=UNMATCHED) == ([(1, 0, ""), (2, 1, "A"), (3, 2, "")], None)
    assert run(cat(Empty(),), "A") == ([(1, 0, "")], None)


def test_empty_partition_has_no_matches():
    assert run(star(A), "") == ([], None)


# --------------------------------------------------------------------------- AFTER MATCH SKIP


def test_skip_past_last_row():
    assert run(cat(plus(A), B), "A A A B") == ([(1, 0, "AAAB")], None)


def test_skip_to_next_row_and_unmatched_rows():
    # TO NEXT ROW resumes at the row after the first row of the match; a row inside an earlier
    # match is not unmatched even when no match starts there.
    assert run(cat(plus(A), B), "A A A B", skip=SkipMode.TO_NEXT_ROW, rows_per_match=UNMATCHED) == (
        [(1, 0, "AAAB"), (2, 1, "AAB"), (3, 2, "AB")],
        None,
    )
    assert run(cat(plus(A), B), "A A B C", skip=SkipMode.TO_NEXT_ROW, rows_per_match=UNMATCHED) == (
        [(1, 0, "AAB"), (2, 1, "AB"), 3],
        None,
    )


def test_skip_to_first_and_last():
    pattern = cat(plus(A), B)
    a, b = frozenset([0]), frozenset([1])
    assert run(pattern, "A A A B", skip=SkipMode.TO_FIRST, skip_to=b, rows_per_match=UNMATCHED) == (
        [(1, 0, "AAAB")],
        None,
    )
    # TO LAST A resumes at row 2; the match there starts with its last A: error.
    assert run(pattern, "A A A B", skip=SkipMode.TO_LAST, skip_to=a) == (
        [(1, 0, "AAAB"), (2, 2, "AB")],
        "SKIP_TO_FIRST_ROW_OF_MATCH",
    )
    # a SUBSET target: the last row mapped to A or B
    assert run(pattern, "A A A B", skip=SkipMode.TO_LAST, skip_to=a | b) == ([(1, 0, "AAAB")], None)
    # TO FIRST of a SUBSET (A, B) is the match's first row: error
    assert run(pattern, "A A A B", skip=SkipMode.TO_FIRST, skip_to=a | b) == (
        [(1, 0, "AAAB")],
        "SKIP_TO_FIRST_ROW_OF_MATCH",
    )


def test_skip_to_first_row_of_match_is_an_error():
    # 19075-5: skipping to the first row of the current match is an exception.
    assert run(cat(A, B), "A B", skip=SkipMode.TO_FIRST, skip_to=frozenset([0])) == (
        [(1, 0, "AB")],
        "SKIP_TO_FIRST_ROW_OF_MATCH",
    )


def test_skip_to_variable_without_rows_is_an_error():
    assert run(cat(plus(A), opt(C), B), "A B", skip=SkipMode.TO_FIRST, skip_to=frozenset([2])) == (
        [(1, 0, "AB")],
        "SKIP_TO_VARIABLE_WITHOUT_ROWS",
    )


def test_skip_after_empty_match_goes_to_next_row():
    # No skip target is needed after an empty match: resume at the next row.
    assert run(star(A), "B B", skip=SkipMode.TO_LAST, skip_to=frozenset([0])) == ([(1, 0, ""), (2, 1, "")], None)


def test_error_message_names_the_variables():
    masks = masks_from("A B", ABC)
    spec = MatchSpec(pattern=cat(A, B), variable_names=tuple(ABC), skip=SkipMode.TO_FIRST, skip_to=frozenset([0]))
    engine = RowPatternMatcher(spec, {})
    with pytest.raises(MatchRuntimeError) as info:
        engine.feed(RowBlock(masks=masks))
        engine.finish()
    assert info.value.code == "SKIP_TO_FIRST_ROW_OF_MATCH" and "TO FIRST (A)" in info.value.message
    # the match decided before the error travels with it
    assert brief(info.value.events) == [(1, 0, "AB")]


# --------------------------------------------------------------------------- exclusion


def test_exclusion_marks_rows_and_does_not_change_matching():
    masks = masks_from("A B B C A", ABC)
    spec = MatchSpec(pattern=cat(A, Exclusion(plus(B)), C), variable_names=tuple(ABC))
    events, code = compare(spec, {}, masks)
    assert code is None
    assert events == [Match(1, 0, (0, 1, 2, 3), (0, 1, 1, 2), (False, True, True, False))]
    plain = MatchSpec(pattern=cat(A, plus(B), C), variable_names=tuple(ABC))
    assert [e.rows for e in compare(plain, {}, masks)[0]] == [e.rows for e in events]


# --------------------------------------------------------------------------- WITHIN


def test_within_limits_the_span():
    keys = np.array([0, 1, 2, 3, 4])
    # last - first < 3: rows with key 0..2 only
    assert run(cat(A, star(B)), "A B B B B", within=3, order_key=keys, rows_per_match=UNMATCHED) == (
        [(1, 0, "ABB"), 3, 4],
        None,
    )
    # the match must end inside the window, else there is none
    assert run(cat(A, plus(B), C), "A B B C", within=4, order_key=np.array([0, 1, 2, 5]),
               rows_per_match=UNMATCHED) == ([0, 1, 2, 3], None)


def test_within_decides_early():
    # The window closes at row 2 (key 2 - 0 >= 2), so the attempt is decided without row 3.
    spec = MatchSpec(pattern=cat(A, star(B)), variable_names=tuple(ABC), within=2)
    engine = RowPatternMatcher(spec, {})
    events = engine.feed(RowBlock(masks=masks_from("A B B", ABC), order_key=np.array([0, 1, 2])))
    assert brief(events) == [(1, 0, "AB")]


# --------------------------------------------------------------------------- match-dependent DEFINE


def test_running_semantics_last_of_same_variable():
    # DEFINE B AS B.x > LAST(B.x, 1): RUNNING semantics, LAST(B.x, 1) is the previous B row.
    def rising(ctx):
        rows = ctx.mapped_rows(frozenset([1]))
        return len(rows) < 2 or ctx.value(0, rows[-1]) > ctx.value(0, rows[-2])

    x = np.array([5, 1, 2, 3, 2, 4])
    assert run(cat(A, plus(B)), "A B B B B B", conditions={1: rising}, columns=(x,),
               rows_per_match=UNMATCHED) == ([(1, 0, "ABBB"), 4, 5], None)


def _flink_ticker():
    # The ticker example of the Flink docs: A AS A.price > LAST(A.price, 1) (or first A),
    # B AS B.price < LAST(A.price).
    prices = [12, 17, 19, 21, 25, 18, 15, 14, 24, 25, 19]

    def a_cond(ctx):
        rows = ctx.mapped_rows(frozenset([0]))
        return len(rows) < 2 or ctx.value(0, rows[-1]) > ctx.value(0, rows[-2])

    def b_cond(ctx):
        a_rows = ctx.mapped_rows(frozenset([0]))
        return bool(a_rows) and ctx.value(0, ctx.row) < ctx.value(0, a_rows[-1])

    return prices, {0: a_cond, 1: b_cond}


def test_ticker_example_past_last_row_and_to_next_row():
    prices, conditions = _flink_ticker()
    rows = " ".join(["AB"] * len(prices))
    events, _ = run(cat(plus(A), B), rows, conditions=conditions, columns=(prices,), cuts=[3, 7])
    assert [(s, len(lab)) for _, s, lab in events] == [(0, 6), (6, 2), (8, 3)]
    events, _ = run(cat(plus(A), B), rows, conditions=conditions, columns=(prices,),
                    skip=SkipMode.TO_NEXT_ROW)
    assert len(events) == 10


def test_match_number_and_null_condition():
    # A is true only in match number 2; otherwise the condition is NULL (None), i.e. false.
    def second(ctx):
        return True if ctx.match_number == 2 else None

    assert run(alt(A, B), "AB AB AB", conditions={0: second}) == ([(1, 0, "B"), (2, 1, "A"), (3, 2, "B")], None)


def test_label_of_sees_the_running_labelling():
    # B may not follow another B inside the match (CLASSIFIER of the previous row <> 'B').
    def not_after_b(ctx):
        return ctx.row == ctx.mapped_rows(None)[0] or ctx.label_of(ctx.row - 1) != 1

    assert run(plus(alt(B, A)), "AB AB AB AB", conditions={1: not_after_b}) == ([(1, 0, "BABA")], None)


# --------------------------------------------------------------------------- guards


def test_step_budget():
    masks = masks_from(" ".join(["AB"] * 14), ABC)
    pattern = cat(star(alt(A, B)), C)
    spec = MatchSpec(pattern=pattern, variable_names=tuple(ABC), max_steps=50)
    with pytest.raises(MatchRuntimeError) as info:
        RowPatternMatcher(spec, {}).feed(RowBlock(masks=masks))
    assert info.value.code == "MATCH_BUDGET_EXCEEDED"
    assert "(A | B)* C" in info.value.message and "WITHIN" in info.value.message and "DEFINE" in info.value.message


def test_memo_keeps_row_local_patterns_polynomial():
    # (A|B)* C with no C: exponential for a naive backtracker; with the failure memo (carried over
    # failed attempts) it is linear in the rows.
    n = 3000
    masks = np.zeros((3, n), dtype=bool)
    masks[:2] = True
    spec = MatchSpec(pattern=cat(star(alt(A, B)), C), variable_names=tuple(ABC), max_steps=100 * n)
    engine = RowPatternMatcher(spec, {})
    assert engine.feed(RowBlock(masks=masks)) == []
    assert engine.finish() == []


def test_match_dependent_condition_trips_the_budget_instead_of_hanging():
    # With a condition on C the memo is off where C lies ahead: the search is exponential, and
    # the guard stops it.
    masks = masks_from(" ".join(["AB"] * 40) + " C", ABC)
    spec = MatchSpec(pattern=cat(star(alt(A, B)), C), variable_names=tuple(ABC), max_steps=100_000)
    engine = RowPatternMatcher(spec, {2: lambda ctx: False})
    with pytest.raises(MatchRuntimeError) as info:
        engine.feed(RowBlock(masks=masks))
        engine.finish()
    assert info.value.code == "MATCH_BUDGET_EXCEEDED"


def test_match_budget():
    assert run(A, "A A A", max_matches=2) == ([(1, 0, "A"), (2, 1, "A")], "MATCH_BUDGET_EXCEEDED")


# --------------------------------------------------------------------------- batching and state


def test_events_are_returned_as_soon_as_final():
    spec = MatchSpec(pattern=cat(A, B), variable_names=tuple(ABC), rows_per_match=UNMATCHED)
    engine = RowPatternMatcher(spec, {})
    assert engine.feed(RowBlock(masks=masks_from("C A", ABC))) == [UnmatchedRow(0)]  # row 1 pending
    assert brief(engine.feed(RowBlock(masks=masks_from("B A", ABC)))) == [(1, 1, "AB")]  # row 3 pending
    assert engine.finish() == [UnmatchedRow(3)]
    # a row where no variable that can start the pattern holds is decided at once
    engine = RowPatternMatcher(spec, {})
    assert engine.feed(RowBlock(masks=masks_from("C C", ABC))) == [UnmatchedRow(0), UnmatchedRow(1)]


def test_state_keeps_only_needed_rows():
    spec = MatchSpec(pattern=cat(A, plus(B)), variable_names=tuple(ABC))
    engine = RowPatternMatcher(spec, {})
    rng = np.random.default_rng(1)
    for _ in range(100):
        masks = rng.random((3, 10)) < 0.5
        masks[1, :] &= ~masks[0, :]
        engine.feed(RowBlock(masks=masks))
        # only the rows of the pending attempt are kept
        assert engine.buffered_rows <= 10 + 10
    engine.finish()
    # a long pending attempt keeps its rows until decided
    engine = RowPatternMatcher(spec, {})
    engine.feed(RowBlock(masks=masks_from("A" + " B" * 30, ABC)))
    assert engine.buffered_rows == 31
    assert brief(engine.finish()) == [(1, 0, "A" + "B" * 30)]
    assert engine.buffered_rows == 0


def test_long_partition_in_small_blocks_is_fast():
    n = 20_000
    rng = np.random.default_rng(2)
    masks = rng.random((3, n)) < 0.5
    spec = MatchSpec(pattern=cat(plus(A), plus(B)), variable_names=tuple(ABC))
    engine = RowPatternMatcher(spec, {})
    start = time.perf_counter()
    events = []
    for lo in range(0, n, 97):
        events += engine.feed(RowBlock(masks=masks[:, lo:lo + 97]))
    events += engine.finish()
    assert time.perf_counter() - start < 5
    whole, _ = run_matcher(spec, {}, masks)
    assert events == whole


# --------------------------------------------------------------------------- contract misuse


def test_negation_and_other_strategies_are_internal_errors():
    with pytest.raises(InternalError):
        RowPatternMatcher(MatchSpec(pattern=cat(A, Negation(1), B), variable_names=tuple(ABC)), {})
    with pytest.raises(InternalError):
        RowPatternMatcher(
            MatchSpec(pattern=A, variable_names=tuple(ABC), strategy=Strategy.SKIP_TILL_NEXT_MATCH), {}
        )
