"""NextMatchAggregationEngine: SKIP TILL NEXT MATCH matches counted and aggregated without
enumerating them, checked on the generated cases of ``test_aggregation`` (patterns with
quantifiers and negations, windows, measures, block splits) against the brute-force oracle's
NEXT semantics (``tests/sase/oracle.py``) and the NFA^b engine (``make_sase_engine``), both
aggregated match by match."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import event, given, settings

from sparkcep.engines.sase.next_aggregation import NextMatchAggregationEngine

from tests.example_counts import examples
from .harness import NEXT, L, Q, oracle_run, run_engine, seq, spec_of
from .test_aggregation import (
    SETTINGS,
    _small_enough,
    assert_same_totals,
    block_of,
    cases,
    masks_from_types,
    plain,
    reference_totals,
)


def next_aggregate(spec, masks, keys, columns=(), measures=(), cuts=()):
    n = np.asarray(masks).reshape(len(masks), -1).shape[1]
    bounds = [0, *sorted({c for c in cuts if 0 < c < n}), n]
    engine = NextMatchAggregationEngine(spec, tuple(measures))
    for a, b in zip(bounds, bounds[1:]):
        engine.feed(block_of(masks, keys, columns, a, b))
    return engine


@settings(max_examples=examples(1500), **SETTINGS)
@given(cases())
def test_totals_equal_the_oracle_and_the_nfa_engine(case):
    spec, masks, keys, columns, measures, cuts = case
    spec = dataclasses.replace(spec, strategy=NEXT)
    if not _small_enough(spec, masks):
        return
    engine = next_aggregate(spec, masks, keys, columns, measures, cuts)
    plain_columns = [plain(c) for c in columns]
    found, _unmatched = oracle_run(spec, [None] * len(spec.variable_names), masks, keys.tolist())
    expected = [(rows, labels) for _end, rows, labels in found]
    event(f"matches: {min(len(expected), 3)}")
    totals = engine.totals()
    assert_same_totals(totals, reference_totals(expected, measures, plain_columns), "oracle")
    matches, _, _ = run_engine(spec, None, masks, keys, (), cuts)
    enumerated = [(m.rows, m.labels) for m in matches]
    assert_same_totals(totals, reference_totals(enumerated, measures, plain_columns), "nfa")


def test_semantics_md_examples():
    # A B+ C over a1:1 a2:2 b1:5 b2:6 c1:7: (a1 b1 b2 c1) and (a2 b1 b2 c1)
    spec = spec_of(seq(L(0), Q(1, 1), L(2)), 3, NEXT)
    engine = next_aggregate(spec, masks_from_types("aabbc", "abc"), [1, 2, 5, 6, 7])
    assert engine.totals().matches == 2
    # A B C D over a b1 b2 c d: only (a b1 c d)
    spec = spec_of(seq(L(0), L(1), L(2), L(3)), 4, NEXT)
    assert next_aggregate(spec, masks_from_types("abbcd", "abcd"), None).totals().matches == 1
    # A B+ WITHIN 5 over a:0 b:1 b:2 x:4 b:5: (a b b), once, maximal
    spec = spec_of(seq(L(0), Q(1, 1)), 2, NEXT, within=5)
    engine = next_aggregate(spec, masks_from_types("abbxb", "ab"), [0, 1, 2, 4, 5])
    assert engine.totals().matches == 1

