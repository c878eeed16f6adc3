"""CLASSIFIER() and MATCH_NUMBER() inside navigation and aggregates, and RUNNING/FINAL on a
logical navigation nested in a physical one (issue 10 §2), against the brute-force oracle
(``oracle.oracle_value``, written from ISO/IEC 19075-5 5.6 and 5.8 and sharing no evaluation
code with the engine):

* DEFINE: random conditions over ``NavigatedLabel`` and ``LabelAggregate`` drive the standard
  matcher; the oracle enumerates derivations with its own evaluation of the same conditions.
* MEASURES: ``PartitionRunner`` computes ``NavigatedLabel``, ``MatchRows`` and nested
  ``Navigation`` components, RUNNING or FINAL, for ALL ROWS and ONE ROW PER MATCH; the oracle
  computes them from the oracle's own matches.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pyarrow as pa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sparkcep.engines.spec import MatchSpec, RowsPerMatch, SkipMode
from sparkcep.evaluation.conditions import make_condition
from sparkcep.plan import expressions as p
from sparkcep.plan.match_plan import MatchPlan
from sparkcep.runtime.partition_runner import PartitionRunner

from tests.example_counts import examples
from .harness import run_matcher
from .oracle import Oracle, OracleTooBig, oracle_condition, oracle_events, oracle_measures
from .test_differential import random_pattern

NAMES = "ABCD"
SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=False)


def _variables(rng, n_vars):
    if rng.integers(0, 3) == 0:
        return None
    size = int(rng.integers(1, n_vars + 1))
    return frozenset(int(v) for v in rng.choice(n_vars, size=size, replace=False))


def _navigated_label(rng, n_vars, final=False):
    """FIRST/LAST(CLASSIFIER(S), k), PREV/NEXT(CLASSIFIER(S), m), PREV/NEXT(FIRST/LAST(...))."""
    what = "classifier" if rng.integers(0, 4) else "match_number"
    return p.NavigatedLabel(what, _variables(rng, n_vars), bool(rng.integers(0, 2)),
                            int(rng.integers(0, 3)), int(rng.integers(-2, 3)), final)


def _label_condition(rng, n_vars, depth=0):
    k = int(rng.integers(0, 7 if depth < 2 else 5))
    if k == 0:
        return p.Operator("eq", (_navigated_label(rng, n_vars),
                                 p.Constant(NAMES[int(rng.integers(0, n_vars))])))
    if k == 1:
        return p.Operator("is", (_navigated_label(rng, n_vars), p.Constant(None)))
    if k == 2:
        what = "classifier" if rng.integers(0, 2) else "match_number"
        count = p.LabelAggregate("count", _variables(rng, n_vars), what, bool(rng.integers(0, 2)))
        return p.Operator("lt", (count, p.Constant(int(rng.integers(1, 4)))))
    if k == 3:
        extreme = p.LabelAggregate(["min", "max"][int(rng.integers(0, 2))],
                                   _variables(rng, n_vars), "classifier")
        return p.Operator("eq", (extreme, p.Constant(NAMES[int(rng.integers(0, n_vars))])))
    if k == 4:
        return p.Operator("gte", (p.NavigatedLabel("match_number", None, False, 0,
                                                   int(rng.integers(-1, 1))), p.Constant(1)))
    if k == 5:
        return p.Operator("not", (_label_condition(rng, n_vars, depth + 1),))
    return p.Operator(["and", "or"][int(rng.integers(0, 2))],
                      tuple(_label_condition(rng, n_vars, depth + 1) for _ in range(2)))


def _case(seed):
    rng = np.random.default_rng(seed)
    n_vars = int(rng.integers(2, 5))
    pattern = random_pattern(rng, n_vars, int(rng.integers(1, 8)))
    n = int(rng.integers(0, 11))
    masks = rng.random((n_vars, n)) < float(rng.choice([0.6, 0.9, 1.0]))
    skip = [SkipMode.PAST_LAST_ROW, SkipMode.TO_NEXT_ROW][int(rng.integers(0, 2))]
    spec = MatchSpec(pattern=pattern, variable_names=tuple(NAMES[:n_vars]), skip=skip,
                     rows_per_match=RowsPerMatch.ALL_SHOW_EMPTY)
    cuts = sorted(int(c) for c in rng.integers(0, n + 1, size=int(rng.integers(0, 4))))
    return rng, n_vars, n, spec, masks, cuts


@settings(max_examples=examples(600), **SETTINGS)
@given(st.integers(0, 2**63 - 1))
def test_label_functions_in_define_match_oracle(seed):
    # ISO/IEC 19075-5 5.6.5: DEFINE is RUNNING, the candidate row tentatively mapped.
    rng, n_vars, n, spec, masks, cuts = _case(seed)
    expressions = {int(v): _label_condition(rng, n_vars)
                   for v in rng.choice(n_vars, size=int(rng.integers(1, n_vars + 1)), replace=False)}
    names = spec.variable_names
    reference = {v: oracle_condition(e, names, ()) for v, e in expressions.items()}
    try:
        expected = Oracle(spec, reference, masks, (), None, limit=30_000).run()
    except OracleTooBig:
        return
    conditions = {v: make_condition(e, names) for v, e in expressions.items()}
    assert run_matcher(spec, conditions, masks, (), None, cuts) == expected


def _component(rng, n_vars):
    final = bool(rng.integers(0, 2))
    k = int(rng.integers(0, 3))
    if k == 0:
        return _navigated_label(rng, n_vars, final)
    if k == 1:
        fields = tuple(rng.choice(np.array([0, "classifier", "match_number"], dtype=object),
                                  size=int(rng.integers(1, 4))))
        fields = tuple(int(f) if f == 0 else str(f) for f in fields)
        return p.MatchRows(_variables(rng, n_vars), fields, final)
    # PREV/NEXT([RUNNING|FINAL] FIRST/LAST(S.x, k), m): the plan reads column 1 or 2, which
    # hold x shifted by lag/lead (as Catalyst computes them); the oracle shifts x itself.
    shift = int(rng.integers(1, 3)) * (1 if rng.integers(0, 2) else -1)
    return p.Navigation(_variables(rng, n_vars), bool(rng.integers(0, 2)),
                        int(rng.integers(0, 3)), (0, shift), final)


def _arrow_type(component):
    if isinstance(component, p.NavigatedLabel):
        return pa.string() if component.what == "classifier" else pa.int64()
    if isinstance(component, p.MatchRows):
        return pa.list_(pa.struct([
            (f"f{i}", pa.string() if f == "classifier" else pa.int64())
            for i, f in enumerate(component.fields)
        ]))
    return pa.int64()


@settings(max_examples=examples(500), **SETTINGS)
@given(st.integers(0, 2**63 - 1))
def test_label_functions_and_nested_final_in_measures_match_oracle(seed):
    # ISO/IEC 19075-5 5.6.5: ALL ROWS PER MATCH measures are RUNNING unless FINAL; ONE ROW PER
    # MATCH is FINAL. A physical offset (PREV/NEXT) moves from the row the logical navigation
    # (RUNNING or FINAL) chose; CLASSIFIER()/MATCH_NUMBER() of a row outside the visible match
    # is NULL.
    rng, n_vars, n, spec, masks, cuts = _case(seed)
    all_rows = bool(rng.integers(0, 3))
    if not all_rows:
        spec = dataclasses.replace(spec, rows_per_match=RowsPerMatch.ONE)
    components = [_component(rng, n_vars) for _ in range(int(rng.integers(1, 4)))]
    if not all_rows:  # ONE ROW PER MATCH compiles every component FINAL
        components = [dataclasses.replace(c, final=True) for c in components]
    x = [int(v) for v in rng.integers(0, 100, size=n)]
    shifted = {s: [x[r + s] if 0 <= r + s < n else None for r in range(n)] for s in (-2, -1, 1, 2)}
    value_names = ["x"] + [f"x{s:+d}" for s in shifted]
    plan_components = tuple(
        dataclasses.replace(c, column=value_names.index(f"x{c.column[1]:+d}"))
        if isinstance(c, p.Navigation) else c
        for c in components
    )
    try:
        events, code = oracle_events(spec, {}, masks, limit=30_000)
    except OracleTooBig:
        return
    names = spec.variable_names
    expected = []
    for event in events:
        if not hasattr(event, "labels"):  # an UnmatchedRow
            continue
        for row, values in oracle_measures(event, components, names, (x,), all_rows):
            expected.append(((row if all_rows else None), values))

    plan = MatchPlan(
        spec=spec, conditions={}, components=plan_components, all_rows=all_rows,
        output_empty_matches=True, output_unmatched_rows=False, bitmask_columns=("m",),
        row_local=(True,) * n_vars, value_columns=tuple(value_names), order_key_column=None,
        partition_columns=(), passthrough_columns=("id",) if all_rows else (),
    )
    fields = ([("id", pa.int64())] if all_rows else []) + [
        (f"c{i}", _arrow_type(c)) for i, c in enumerate(components)
    ]
    schema = pa.schema(fields)
    codes = sum(masks[v].astype(np.int64) << v for v in range(n_vars)) if n else np.zeros(0, np.int64)
    columns = {"id": list(range(n)), "m": [int(c) for c in codes], "x": x}
    columns.update({f"x{s:+d}": values for s, values in shifted.items()})
    table = pa.table({k: pa.array(v, pa.int64()) for k, v in columns.items()})
    bounds = [0] + [c for c in cuts if 0 < c < n] + [n]
    runner = PartitionRunner(plan, schema)
    out = []
    for lo, hi in zip(bounds, bounds[1:]):
        if hi > lo:
            for batch in table.slice(lo, hi - lo).to_batches():
                out.extend(runner.feed(batch))
    out.extend(runner.finish())
    got = [
        (row.get("id") if all_rows else None, [row[f"c{i}"] for i in range(len(components))])
        for row in pa.Table.from_batches(out, schema=schema).to_pylist()
    ]
    assert code is None
    assert got == expected
