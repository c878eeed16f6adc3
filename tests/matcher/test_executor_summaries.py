"""ONE ROW PER MATCH output built column-wise from match summaries (the regex fast path) equals
the output built match by match, for random patterns, masks, batch splits and measure
components (FIRST/LAST with and without offsets, MATCH_NUMBER, COUNT)."""

from __future__ import annotations

import dataclasses
from unittest import mock

import numpy as np
import pyarrow as pa
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sparkcep.runtime import partition_runner as executor
from sparkcep.errors import MatchRuntimeError
from sparkcep.engines.spec import RowsPerMatch
from sparkcep.plan.expressions import Aggregate, Classifier, MatchNumber, Navigation
from sparkcep.plan.match_plan import MatchPlan
from sparkcep.engines.standard.regex_translation import regex_eligible

from tests.example_counts import examples
from .test_differential import random_case


def _random_variables(rng: np.random.Generator, n_vars: int) -> frozenset[int] | None:
    """None (every row of the match) one time in three, else a random set of variables."""
    if not rng.integers(0, 3):
        return None
    return frozenset(int(v) for v in rng.choice(n_vars, size=int(rng.integers(1, n_vars + 1)), replace=False))


def _components(rng: np.random.Generator, n_vars: int) -> tuple:
    components = []
    for _ in range(int(rng.integers(1, 6))):
        kind = int(rng.integers(0, 5))
        variables = _random_variables(rng, n_vars)
        if kind == 0:
            components.append(MatchNumber())
        elif kind == 1:
            components.append(Aggregate("count", variables, None, final=True))
        else:
            offset = int(rng.integers(0, 3)) if variables is None or rng.integers(0, 4) == 0 else 0
            components.append(Navigation(variables, bool(rng.integers(0, 2)), offset, int(rng.integers(0, 2)), final=True))
    return tuple(components)


def _run(plan: MatchPlan, schema: pa.Schema, batches: list[pa.RecordBatch], column_wise: bool):
    if column_wise:
        runner = executor.PartitionRunner(plan, schema)
    else:
        with mock.patch.object(executor, "summary_request", lambda plan: None):
            runner = executor.PartitionRunner(plan, schema)
    out = []
    try:
        for batch in batches:
            out.extend(runner.feed(batch))
        out.extend(runner.finish())
    except MatchRuntimeError as error:
        return error.code
    return pa.Table.from_batches(out, schema=schema).to_pylist()


@settings(max_examples=examples(800), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_column_wise_output_equals_match_by_match_output(seed):
    spec, _conditions, masks, _columns, _order_key, cuts = random_case(seed, with_conditions=False)
    spec = dataclasses.replace(spec, within=None, rows_per_match=RowsPerMatch.ONE)
    assume(regex_eligible(spec, has_conditions=False))
    rng = np.random.default_rng(seed)
    n_vars, n = masks.shape
    components = _components(rng, n_vars)
    plan = MatchPlan(
        spec=spec, conditions={}, components=components, all_rows=False,
        output_empty_matches=True, output_unmatched_rows=False,
        bitmask_columns=("m",), row_local=(True,) * n_vars, value_columns=("x", "y"),
        order_key_column=None, partition_columns=("p",), passthrough_columns=("p",),
    )
    types = [pa.int64() if isinstance(c, (MatchNumber, Aggregate)) else (pa.int64() if c.column == 0 else pa.string())
             for c in components]
    schema = pa.schema([("p", pa.string())] + [(f"c{i}", t) for i, t in enumerate(types)])
    codes = (masks.astype(np.int64) << np.arange(n_vars)[:, None]).sum(axis=0).astype(np.int8)
    table = pa.table({"p": ["k"] * n, "m": codes,
                      "x": np.arange(n) * 10, "y": [f"r{i}" for i in range(n)]})
    bounds = [0] + sorted(set(c for c in cuts if 0 <= c <= n)) + [n]
    batches = [b for lo, hi in zip(bounds, bounds[1:]) if hi > lo for b in table.slice(lo, hi - lo).to_batches()]
    column_wise = _run(plan, schema, batches, column_wise=True)
    assert _run(plan, schema, batches, column_wise=False) == column_wise


def test_the_regex_engine_answers_column_wise():
    """Guards the test above against comparing the match-by-match path with itself."""
    from sparkcep.engines import rowpattern as rp
    from sparkcep.engines.contract import MatchSummaries, RowBlock
    from sparkcep.engines.spec import MatchSpec

    spec = MatchSpec(pattern=rp.Quantified(rp.Label(0), 1, None), variable_names=("A",),
                     rows_per_match=RowsPerMatch.ONE)
    plan = MatchPlan(
        spec=spec, conditions={}, components=(Navigation(frozenset({0}), False, 0, 0, final=True),),
        all_rows=False, output_empty_matches=True, output_unmatched_rows=False,
        bitmask_columns=("m",), row_local=(True,), value_columns=("x",), order_key_column=None,
        partition_columns=(), passthrough_columns=())
    runner = executor.PartitionRunner(plan, pa.schema([("c0", pa.int64())]))
    runner.engine.feed(RowBlock(masks=np.array([[True, True, False, True]])))
    (summaries,) = runner.engine.finish()
    assert isinstance(summaries, MatchSummaries)
    assert summaries.last[0].tolist() == [1, 3]




def _row_components(rng: np.random.Generator, n_vars: int) -> tuple:
    """ALL ROWS PER MATCH components, RUNNING or FINAL."""
    components = []
    for _ in range(int(rng.integers(1, 7))):
        kind = int(rng.integers(0, 6))
        final = bool(rng.integers(0, 2))
        variables = _random_variables(rng, n_vars)
        if kind == 0:
            components.append(MatchNumber())
        elif kind == 1:
            components.append(Aggregate("count", variables, None, final=final))
        elif kind == 2:
            components.append(Classifier(variables, final=final))
        else:
            components.append(Navigation(variables, bool(rng.integers(0, 2)), int(rng.integers(0, 3)),
                                         int(rng.integers(0, 2)), final=final))
    return tuple(components)


@settings(max_examples=examples(800), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_all_rows_column_wise_equals_match_by_match(seed):
    spec, _conditions, masks, _columns, _order_key, cuts = random_case(seed, with_conditions=False)
    rows_per_match = RowsPerMatch.ALL_SHOW_EMPTY if seed % 2 else RowsPerMatch.ALL_OMIT_EMPTY
    spec = dataclasses.replace(spec, within=None, rows_per_match=rows_per_match)
    assume(regex_eligible(spec, has_conditions=False))
    rng = np.random.default_rng(seed)
    n_vars, n = masks.shape
    components = _row_components(rng, n_vars)
    plan = MatchPlan(
        spec=spec, conditions={}, components=components, all_rows=True,
        output_empty_matches=rows_per_match is RowsPerMatch.ALL_SHOW_EMPTY, output_unmatched_rows=False,
        bitmask_columns=("m",), row_local=(True,) * n_vars, value_columns=("x", "y"),
        order_key_column=None, partition_columns=("p",), passthrough_columns=("p", "x"),
    )
    types = [pa.string() if isinstance(c, Classifier) else pa.int64()
             if isinstance(c, (MatchNumber, Aggregate)) or c.column == 0 else pa.string() for c in components]
    schema = pa.schema([("p", pa.string()), ("x", pa.int64())] + [(f"c{i}", t) for i, t in enumerate(types)])
    codes = (masks.astype(np.int64) << np.arange(n_vars)[:, None]).sum(axis=0).astype(np.int8)
    table = pa.table({"p": ["k"] * n, "m": codes, "x": np.arange(n) * 10, "y": [f"r{i}" for i in range(n)]})
    bounds = [0] + sorted(set(c for c in cuts if 0 <= c <= n)) + [n]
    batches = [b for lo, hi in zip(bounds, bounds[1:]) if hi > lo for b in table.slice(lo, hi - lo).to_batches()]
    assert executor.summary_request(plan) is not None
    column_wise = _run(plan, schema, batches, column_wise=True)
    assert _run(plan, schema, batches, column_wise=False) == column_wise
