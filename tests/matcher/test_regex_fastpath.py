"""The regex fast path agrees with the general matcher (itself checked against the oracle)
on every pattern it accepts."""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sparkcep.engines import rowpattern as rp
from sparkcep.errors import MatchRuntimeError
from sparkcep.engines.contract import MatchSummaries, RowBlock, SummaryRequest
from sparkcep.engines.spec import RowsPerMatch, SkipMode
from sparkcep.engines.standard.regex_path import RegexMatcher
from sparkcep.engines.standard.regex_translation import regex_eligible

from tests.example_counts import examples
from .harness import masks_from, run_matcher, spec_of
from .test_differential import random_case


def run_regex(spec, masks, cuts, max_buffered_rows=2_000_000):
    n = masks.shape[1]
    bounds = [0] + sorted(set(c for c in cuts if 0 <= c <= n)) + [n]
    engine = RegexMatcher(spec, max_buffered_rows=max_buffered_rows)
    events = []
    try:
        for lo, hi in zip(bounds, bounds[1:]):
            events.extend(engine.feed(RowBlock(masks=masks[:, lo:hi])))
        events.extend(engine.finish())
    except MatchRuntimeError as error:
        return events + error.events, error.code
    return events, None


@settings(max_examples=examples(2500), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_regex_fast_path_agrees_with_matcher(seed):
    spec, _conditions, masks, columns, _order_key, cuts = random_case(seed, with_conditions=False)
    spec = dataclasses.replace(spec, within=None)
    assume(regex_eligible(spec, has_conditions=False))
    expected = run_matcher(spec, {}, masks, columns, None, cuts)
    assert run_regex(spec, masks, cuts) == expected
    # a partition longer than the buffer is handed over to the general matcher mid-stream
    assert run_regex(spec, masks, cuts, max_buffered_rows=seed % 5) == expected


def test_eligibility():
    a, b = rp.Label(0), rp.Label(1)
    assert regex_eligible(spec_of(rp.Concat((a, rp.Quantified(b, 1, None))), "AB"), False)
    assert not regex_eligible(spec_of(rp.Quantified(rp.Quantified(a, 0, 1), 0, None), "A"), False)
    assert not regex_eligible(spec_of(rp.Exclusion(a), "A"), False)
    assert not regex_eligible(spec_of(a, "A"), True)
    assert not regex_eligible(spec_of(a, "A", within=5), False)


def test_v_shape_and_unmatched_rows():
    # S D+ U+ over  S D D U U - S D U : two matches; the '-' row is unmatched.
    s, d, u = rp.Label(0), rp.Label(1), rp.Label(2)
    pattern = rp.Concat((s, rp.Quantified(d, 1, None), rp.Quantified(u, 1, None)))
    masks = masks_from("S D D U U - S D U", "SDU")
    masks[0] = True  # S has no DEFINE
    spec = spec_of(pattern, "SDU", rows_per_match=RowsPerMatch.ALL_WITH_UNMATCHED)
    events, code = run_regex(spec, masks, [])
    assert code is None
    assert [(e.rows, e.labels) for e in events if hasattr(e, "labels")] == [
        ((0, 1, 2, 3, 4), (0, 1, 1, 2, 2)),
        ((6, 7, 8), (0, 1, 2)),
    ]
    assert [e.row for e in events if not hasattr(e, "labels")] == [5]
    assert (events, code) == run_matcher(spec, {}, masks, (), None, [])


def test_skip_errors_carry_the_match():
    a, b = rp.Label(0), rp.Label(1)
    spec = spec_of(rp.Concat((a, rp.Quantified(b, 0, 1))), "AB", skip=SkipMode.TO_FIRST,
                   skip_to=frozenset({0}))
    masks = masks_from("A A", "AB")
    assert run_regex(spec, masks, []) == run_matcher(spec, {}, masks, (), None, [])


def summaries_from_events(events, n_vars):
    """What ``MatchSummaries`` must hold, computed from the per-match events."""
    rows = []
    for e in events:
        mapped = {v: [r for r, label in zip(e.rows, e.labels) if label == v] for v in range(n_vars)}
        end = e.start + len(e.rows)
        rows.append((e.number, e.start, end,
                     tuple(mapped[v][0] if mapped[v] else -1 for v in range(n_vars)),
                     tuple(mapped[v][-1] if mapped[v] else -1 for v in range(n_vars)),
                     tuple(len(mapped[v]) for v in range(n_vars))))
    return rows


def rows_of(summaries, n_vars):
    return [
        (int(summaries.number[i]), int(summaries.start[i]), int(summaries.end[i]),
         tuple(int(summaries.first[v][i]) for v in range(n_vars)),
         tuple(int(summaries.last[v][i]) for v in range(n_vars)),
         tuple(int(summaries.count[v][i]) for v in range(n_vars)))
        for i in range(len(summaries))
    ]


@settings(max_examples=examples(1500), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_column_wise_summaries_agree_with_matches(seed):
    """ONE ROW PER MATCH column-wise (finditer, group starts) == the per-match events."""
    spec, _conditions, masks, columns, _order_key, cuts = random_case(seed, with_conditions=False)
    spec = dataclasses.replace(spec, within=None, rows_per_match=RowsPerMatch.ONE)
    assume(regex_eligible(spec, has_conditions=False))
    n_vars = len(spec.variable_names)
    everything = frozenset(range(n_vars))
    expected, code = run_matcher(spec, {}, masks, columns, None, cuts)
    assume(code is None)
    engine = RegexMatcher(spec, summary=SummaryRequest(everything, everything, everything))
    n = masks.shape[1]
    bounds = [0] + sorted(set(c for c in cuts if 0 <= c <= n)) + [n]
    out = []
    for lo, hi in zip(bounds, bounds[1:]):
        out.extend(engine.feed(RowBlock(masks=masks[:, lo:hi])))
    out.extend(engine.finish())
    assert all(isinstance(o, MatchSummaries) for o in out) and len(out) == (1 if expected else 0)
    assert [r for o in out for r in rows_of(o, n_vars)] == summaries_from_events(expected, n_vars)


def test_summaries_of_a_repeated_alternation():
    # (A | B)+ C over A B A C: A's first row 0, last row 2; two groups map A? no: one group each.
    a, b, c = rp.Label(0), rp.Label(1), rp.Label(2)
    pattern = rp.Concat((rp.Quantified(rp.Alternation((a, b)), 1, None), c))
    spec = spec_of(pattern, "ABC", rows_per_match=RowsPerMatch.ONE)
    masks = masks_from("A B A C", "ABC")
    every = frozenset({0, 1, 2})
    engine = RegexMatcher(spec, summary=SummaryRequest(every, every, every))
    engine.feed(RowBlock(masks=masks))
    (summaries,) = engine.finish()
    assert rows_of(summaries, 3) == [(1, 0, 4, (0, 1, 3), (2, 1, 3), (2, 1, 1))]
