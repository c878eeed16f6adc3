"""Chains of runs under SKIP TO NEXT ROW (``engines.standard.run_chain``) against the brute-force
oracle: every match, its span, each variable's first row, last row, row count and rows; on data
where adjacent classes are disjoint (the closed form) and where they are not (the fallback to the
backtracking engine must then give the same answer)."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.contract import RowBlock, SummaryRequest
from sparkcep.engines.spec import RowsPerMatch, SkipMode
from sparkcep.engines.standard.regex_path import RegexMatcher
from sparkcep.engines.standard.run_chain import run_chain_form
from tests.example_counts import examples

from .harness import spec_of
from .test_marked_regex import _expected, _summary_rows

NAMES = "ABCD"


@st.composite
def chains(draw):
    """A chain of 1-4 items over up to 4 variables, and masks: with one variable per row (every
    class disjoint from the others), or random flags (classes overlap)."""
    n_vars = draw(st.integers(1, len(NAMES)))
    items = []
    for _ in range(draw(st.integers(1, 4))):
        var = rp.Label(draw(st.integers(0, n_vars - 1)))
        least = draw(st.integers(1, 3))
        most = draw(st.one_of(st.none(), st.integers(least, 4)))
        kind = draw(st.sampled_from(["label", "quantified", "quantified"]))
        items.append(var if kind == "label" else rp.Quantified(var, least, most, draw(st.booleans())))
    pattern = rp.Concat(tuple(items)) if len(items) > 1 else items[0]
    n_rows = draw(st.integers(0, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if draw(st.booleans()):  # one variable (or none) per row: disjoint classes
        which = rng.integers(-1, n_vars, n_rows)
        masks = np.arange(n_vars)[:, None] == which[None, :]
    else:
        masks = rng.random((n_vars, n_rows)) < draw(st.sampled_from([0.3, 0.6, 0.9]))
    return pattern, NAMES[:n_vars], masks


def _run(spec, masks, cut):
    """The fast path's column-wise answer (as ALL ROWS PER MATCH, which also asks for each row's
    variable; the matches are ONE ROW's), rows fed in two blocks; and whether the chain's closed
    form answered (else the backtracking engine did)."""
    spec = dataclasses.replace(spec, rows_per_match=RowsPerMatch.ALL_OMIT_EMPTY)
    every = frozenset(range(len(spec.variable_names)))
    engine = RegexMatcher(spec, summary=SummaryRequest(every, every, every, labels=True))
    assert engine._runs is not None  # the form under test
    closed = []
    engine._runs = _Recording(engine._runs.summarize, closed)
    engine.feed(RowBlock(masks=masks[:, :cut]))
    engine.feed(RowBlock(masks=masks[:, cut:]))
    return _summary_rows(engine.finish(), len(spec.variable_names)), closed


class _Recording:
    """The chain, noting whether its closed form answered (True) or fell back (False)."""

    def __init__(self, summarize, closed: list) -> None:
        self._summarize, self._closed = summarize, closed

    def summarize(self, codes, request, spec):
        found = self._summarize(codes, request, spec)
        self._closed.append(found is not None)
        return found


@settings(max_examples=examples(600), deadline=None, suppress_health_check=list(HealthCheck))
@given(chains(), st.integers(0, 40))
def test_run_chains_equal_the_oracle(case, cut):
    pattern, names, masks = case
    spec = spec_of(pattern, names, skip=SkipMode.TO_NEXT_ROW)
    got, _ = _run(spec, masks, min(cut, masks.shape[1]))
    assert got == _expected(spec, masks)


def test_generated_chains_mostly_take_the_closed_form():
    """The generator is not vacuous: on most of its cases the closed form answers (not the
    fallback), and on some it falls back."""
    closed = []

    @settings(max_examples=examples(200), deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(chains())
    def count(case):
        pattern, names, masks = case
        closed.extend(_run(spec_of(pattern, names, skip=SkipMode.TO_NEXT_ROW), masks, 0)[1])

    count()
    assert sum(closed) >= len(closed) // 2 and not all(closed)


def test_what_is_a_chain():
    a, b = rp.Label(0), rp.Label(1)
    chain = [a, rp.Quantified(b, 2, None, True), rp.Quantified(a, 1, 3, False)]
    assert run_chain_form(spec_of(rp.Concat(tuple(chain)), "AB", skip=SkipMode.TO_NEXT_ROW)) is not None
    not_chains = [
        rp.Concat((a, rp.Quantified(b, 0, None, True))),  # an item that can take no rows
        rp.Concat((rp.Anchor(True), a)),
        rp.Alternation((a, b)),
        rp.Quantified(rp.Concat((a, b)), 1, None, True),  # a group
    ]
    for pattern in not_chains:
        assert run_chain_form(spec_of(pattern, "AB", skip=SkipMode.TO_NEXT_ROW)) is None, pattern
    # under PAST LAST ROW RE2 answers (marked_regex)
    assert run_chain_form(spec_of(a, "AB", skip=SkipMode.PAST_LAST_ROW)) is None
