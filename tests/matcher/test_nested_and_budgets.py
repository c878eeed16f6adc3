"""Nested quantifiers and resource budgets of the standard matcher (strict contiguity).

Expected results are worked out by hand from ISO/IEC TR 19075-5:2016 (preferment: alternation left
first, greedy quantifiers prefer one more iteration; the empty-iteration rule of docs/matcher.md)
and checked against the brute-force oracle (``tests/matcher/oracle.py``) as well. Budgets:
docs/semantics.md, "Resource budgets". Polynomial matching is checked on the step count the engine
reports (not on time): the nested shapes below take 2^rows steps in a backtracking search without
the failure memo.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from sparkcep.engines.contract import RowBlock
from sparkcep.engines.rowpattern import Alternation, Concat, Label, Quantified
from sparkcep.engines.selection import make_engine
from sparkcep.engines.spec import MatchSpec, SkipMode
from sparkcep.engines.standard.matcher import RowPatternMatcher
from sparkcep.engines.standard.regex_translation import regex_eligible
from sparkcep.errors import MatchRuntimeError

from .harness import compare, masks_from
from .test_conformance import ABC, A, B, C, alt, cat, opt, plus, run, star

NESTED_PLUS = cat(plus(plus(A)), C)  # (A+)+ C
CHOICE_PLUS = cat(plus(alt(A, B)), C)  # (A | B)+ C
OPTIONAL_TWO_OR_MORE = Quantified(opt(A), 2, None)  # (A?){2,}


# --------------------------------------------------------------------------- results


def test_nested_plus_prefers_the_longest_inner_iteration():
    # (A+)+ C: the greedy inner A+ takes both A rows in the first outer iteration, then C.
    events, code = run(NESTED_PLUS, "A A C A C")
    assert (events, code) == ([(1, 0, "AAC"), (2, 3, "AC")], None)


def test_choice_under_plus_takes_the_left_alternative_first():
    # (A | B)+ C over rows that are both A and B: every row is mapped to A (left first).
    assert run(CHOICE_PLUS, "AB AB C") == ([(1, 0, "AAC")], None)
    # a row that is only B is mapped to B, and a non-A, non-B row without C ends the attempt
    assert run(CHOICE_PLUS, "AB B C - A C") == ([(1, 0, "ABC"), (2, 4, "AC")], None)


def test_optional_iterations_follow_the_empty_iteration_rule():
    # (A?){2,} on A A -: iterations 1 and 2 take the A rows; a third iteration at row 2 could
    # only be empty, which is rejected past the minimum, so the match is AA. At row 2 the two
    # mandatory iterations may be empty: an empty match.
    assert run(OPTIONAL_TWO_OR_MORE, "A A -") == ([(1, 0, "AA"), (2, 2, "")], None)
    # ((A?){2,} C): the empty mandatory iterations let C match alone
    assert run(cat(OPTIONAL_TWO_OR_MORE, C), "C A C") == ([(1, 0, "C"), (2, 1, "AC")], None)


@pytest.mark.parametrize("pattern", [NESTED_PLUS, CHOICE_PLUS, OPTIONAL_TWO_OR_MORE,
                                     cat(plus(cat(A, star(B))), C), cat(star(plus(alt(A, B))), C)])
def test_nested_shapes_agree_with_the_oracle(pattern):
    rnd = random.Random(11)
    cells = ["A", "B", "C", "AB", "AC", "ABC", "-"]
    for _ in range(60):
        rows = " ".join(rnd.choice(cells) for _ in range(rnd.randint(1, 7)))
        skip = rnd.choice([SkipMode.PAST_LAST_ROW, SkipMode.TO_NEXT_ROW])
        spec = MatchSpec(pattern=pattern, variable_names=tuple(ABC), skip=skip)
        compare(spec, {}, masks_from(rows, ABC), cuts=[1, 3])


# --------------------------------------------------------------------------- polynomial


@pytest.mark.parametrize("pattern, both", [(NESTED_PLUS, False), (CHOICE_PLUS, True),
                                           (cat(star(plus(alt(A, B))), C), True),
                                           (cat(plus(cat(A, star(A))), C), False)])
def test_nested_quantifiers_without_a_closing_row_are_polynomial(pattern, both):
    # Every row is an A (and a B), no row is a C: no match. These shapes go to the memoized
    # matcher, not the regex path (whose backtracking would be exponential in the rows).
    n = 400
    masks = np.zeros((3, n), dtype=bool)
    masks[0] = True
    masks[1] = both
    spec = MatchSpec(pattern=pattern, variable_names=tuple(ABC), max_steps=200 * n)
    assert not regex_eligible(spec, has_conditions=False)
    engine = make_engine(spec, {})
    assert isinstance(engine, RowPatternMatcher)
    assert engine.feed(RowBlock(masks=masks)) == [] and engine.finish() == []
    assert engine.steps <= 200 * n


def test_nested_optional_iterations_are_polynomial():
    n = 400
    masks = np.zeros((3, n), dtype=bool)
    masks[0] = True
    spec = MatchSpec(pattern=cat(OPTIONAL_TWO_OR_MORE, C), variable_names=tuple(ABC), max_steps=200 * n)
    engine = make_engine(spec, {})
    events = engine.feed(RowBlock(masks=masks)) + engine.finish()
    assert events == [] and engine.steps <= 200 * n


def test_regex_path_keeps_single_level_quantifiers():
    for pattern in (cat(A, plus(B), C), cat(plus(cat(A, B)), C), cat(alt(A, B), plus(C))):
        assert regex_eligible(MatchSpec(pattern=pattern, variable_names=tuple(ABC)), False)


# --------------------------------------------------------------------------- budgets


def _budget_error(spec, conditions, masks, block=None):
    engine = RowPatternMatcher(spec, conditions)
    n = masks.shape[1]
    block = block or n
    with pytest.raises(MatchRuntimeError) as info:
        for lo in range(0, n, block):
            engine.feed(RowBlock(masks=masks[:, lo:lo + block]))
        engine.finish()
    assert info.value.code == "MATCH_BUDGET_EXCEEDED"
    return info.value.message


def test_match_dependent_nested_pattern_stops_on_the_step_budget():
    # With a match-dependent condition on C the memo is off before C: the guard stops the search.
    masks = masks_from(" ".join(["AC"] * 60), ABC)
    spec = MatchSpec(pattern=NESTED_PLUS, variable_names=tuple(ABC), max_steps=50_000)
    message = _budget_error(spec, {2: lambda ctx: False}, masks)
    assert "50,000 engine steps" in message and "spark.sparkcep.maxSteps" in message
    assert "(A+)+ C" in message


def test_live_runs_budget_bounds_the_backtracking_stack():
    # (A | B)* C with a condition on C: one choice point per row stays on the stack.
    masks = masks_from(" ".join(["AB"] * 3000) + " C", ABC)
    spec = MatchSpec(pattern=CHOICE_PLUS, variable_names=tuple(ABC), max_live_runs=1000)
    message = _budget_error(spec, {2: lambda ctx: False}, masks)
    assert "live partial matches" in message and "spark.sparkcep.maxLiveRuns" in message


def test_buffered_rows_budget_bounds_a_pending_attempt():
    # A+ over rows that are all A: the attempt from row 0 keeps every row until the partition ends.
    masks = masks_from(" ".join(["A"] * 1000), ABC)
    spec = MatchSpec(pattern=plus(A), variable_names=tuple(ABC), max_buffered_rows=500)
    message = _budget_error(spec, {}, masks, block=100)
    assert "500 buffered rows" in message and "spark.sparkcep.maxBufferedRows" in message


def test_buffered_rows_budget_counts_rows_of_matches_not_yet_output():
    # SKIP TO NEXT ROW: 200 matches A A ... of up to 200 rows in one call, 20,100 rows in all.
    masks = masks_from(" ".join(["A"] * 200), ABC)
    spec = MatchSpec(pattern=plus(A), variable_names=tuple(ABC), skip=SkipMode.TO_NEXT_ROW,
                     max_buffered_rows=10_000)
    message = _budget_error(spec, {}, masks)
    assert "spark.sparkcep.maxBufferedRows" in message
    roomy = RowPatternMatcher(MatchSpec(pattern=plus(A), variable_names=tuple(ABC),
                                        skip=SkipMode.TO_NEXT_ROW, max_buffered_rows=30_000), {})
    assert len(roomy.feed(RowBlock(masks=masks)) + roomy.finish()) == 200
