"""Under WITHIN a row whose ORDER BY key is NaN (NULL reaches the engines as NaN) lies in no
window (docs/semantics.md, "WITHIN w"): no variable selects it, it starts, extends and closes no
run, and it is still a row between for negations. The runtime clears such rows' masks before any
engine sees them (``runtime.within_keys``); these tests feed the engines directly, NaN keys
anywhere in the partition, and check every engine against the brute-force oracle
(``tests/sase/oracle.py``, which implements the rule from the definition) and against itself over
another split of the rows into batches.

The NFA^b engine used to depend on the split under SKIP TILL NEXT MATCH: a NaN start key in a
merged run's sorted start keys (``sorted`` over a set of NaN objects, whose order follows their
hashes) hid the expired starts behind it, so which matches were reported depended on which float
objects the batches produced.
"""

from __future__ import annotations

import dataclasses
import random

from hypothesis import event, given, settings
from hypothesis import strategies as st

from sparkcep.engines.sase.next_aggregation import NextMatchAggregationEngine

from tests.example_counts import examples
from .harness import ANY, NEXT, oracle_run, run_engine
from .test_aggregation import (
    SETTINGS,
    _small_enough,
    aggregate,
    assert_same_totals,
    block_of,
    cases,
    plain,
    reference_totals,
)


def _windowed(case, strategy, within):
    spec, masks, keys, columns, measures, cuts = case
    spec = dataclasses.replace(spec, strategy=strategy, within=spec.within or within)
    return spec, masks, keys, columns, measures, cuts


def _other_split(n: int, seed: int) -> list[int]:
    rnd = random.Random(seed)
    return sorted(rnd.sample(range(1, n), rnd.randint(0, n - 1))) if n > 1 else []


def _next_totals(spec, masks, keys, columns, measures, cuts):
    n = len(keys)
    bounds = [0, *sorted({c for c in cuts if 0 < c < n}), n]
    engine = NextMatchAggregationEngine(spec, tuple(measures))
    for a, b in zip(bounds, bounds[1:]):
        engine.feed(block_of(masks, keys, columns, a, b))
    return engine.totals()


def _enumerated(spec, masks, keys, cuts):
    matches, _, _ = run_engine(spec, None, masks, keys, (), cuts)
    return [(m.rows, m.labels) for m in matches]


@settings(max_examples=examples(700), **SETTINGS)
@given(cases(nan_keys=True), st.sampled_from([1, 2, 3, 4.5]), st.integers(0, 2**16))
def test_skip_till_next_match(case, within, seed):
    spec, masks, keys, columns, measures, cuts = _windowed(case, NEXT, within)
    if not _small_enough(spec, masks):
        return
    event("NaN key" if any(k != k for k in keys.tolist()) else "no NaN key")
    found, _ = oracle_run(spec, [None] * len(spec.variable_names), masks, keys.tolist())
    expected = sorted((rows, labels) for _end, rows, labels in found)
    # the enumerating engine (NFA^b), over two different splits into batches
    assert sorted(_enumerated(spec, masks, keys, cuts)) == expected
    assert sorted(_enumerated(spec, masks, keys, _other_split(len(keys), seed))) == expected
    # the counting engine, with measures
    plain_columns = [plain(c) for c in columns]
    assert_same_totals(_next_totals(spec, masks, keys, columns, measures, cuts),
                       reference_totals(expected, measures, plain_columns))


@settings(max_examples=examples(500), **SETTINGS)
@given(cases(nan_keys=True), st.sampled_from([1, 2, 3, 4.5]), st.integers(0, 2**16))
def test_skip_till_any_match(case, within, seed):
    spec, masks, keys, columns, measures, cuts = _windowed(case, ANY, within)
    if not _small_enough(spec, masks):
        return
    found, _ = oracle_run(spec, [None] * len(spec.variable_names), masks, keys.tolist())
    expected = sorted((rows, labels) for _end, rows, labels in found)
    # the postponing engine (the default for ANY) and NFA^b, over two different splits
    assert sorted(_enumerated(spec, masks, keys, cuts)) == expected
    matches, _, _ = run_engine(spec, None, masks, keys, (), _other_split(len(keys), seed),
                               engine="nfa")
    assert sorted((m.rows, m.labels) for m in matches) == expected
    engine, _ = aggregate(spec, masks, keys, columns, measures, cuts)
    assert_same_totals(engine.totals(),
                       reference_totals(expected, measures, [plain(c) for c in columns]))
