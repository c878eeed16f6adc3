"""The regex fast path in a window (R020, ``engines.standard.window_regex``) against the brute-force
per-row window oracle (``test_window_differential.window_oracle``, built on ``oracle.Oracle``,
which shares no code with the engines): random patterns, random row-local masks (with the masks
a PREV reads near the frame's first row), both skip forms the fast path takes, INITIAL and SEEK,
frames to the end and of 0 to 3 rows after the row, in random batches. The fast path's own
column-wise answer (``MatchSummaries`` with ``anchor``) is checked against the same events."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.contract import Match, RowBlock, SummaryRequest
from sparkcep.engines.selection import make_engine
from sparkcep.engines.spec import MatchSpec, PatternWindow, SkipMode
from sparkcep.engines.standard.window_regex import (WindowRegexMatcher, variables_at,
                                                    window_fast_reason)

from tests.example_counts import examples
from .oracle import OracleTooBig
from .test_window_differential import _patterns as window_patterns, window_oracle

NAMES = "ABC"


def _patterns(n_vars: int):
    return window_patterns(n_vars, max_leaves=6, quantifier_weight=3)


@st.composite
def _cases(draw):
    n_vars = draw(st.integers(2, 3))
    pattern = draw(_patterns(n_vars))
    n = draw(st.integers(0, 14))
    following = draw(st.sampled_from([None, None, None, 0, 1, 2, 3]))
    seek = draw(st.booleans())
    edges, extra = [], 0
    for var in range(n_vars):  # a PREV reaching 0, 1 or 2 rows before the row
        reach = draw(st.sampled_from([0, 0, 1, 2]))
        for before in range(reach + 1 if reach else 0):
            edges.append((var, before, 0, var if before == reach else n_vars + extra))
            extra += before != reach
    density = draw(st.sampled_from([0.3, 0.6, 0.9]))
    seed = draw(st.integers(0, 2**32 - 1))
    masks = np.random.default_rng(seed).random((n_vars + extra, n)) < density
    skip = draw(st.sampled_from([SkipMode.PAST_LAST_ROW, SkipMode.TO_NEXT_ROW]))
    spec = MatchSpec(pattern=pattern, variable_names=tuple(NAMES[:n_vars]), skip=skip,
                     window=PatternWindow(seek=seek, following=following, edges=tuple(edges)))
    cuts = draw(st.lists(st.integers(0, n), max_size=3))
    return spec, masks, cuts


def _run(engine, masks, cuts):
    n = masks.shape[1]
    bounds = [0] + sorted(c for c in set(cuts) if 0 < c < n) + [n]
    events = []
    for lo, hi in zip(bounds, bounds[1:]):
        events.extend(engine.feed(RowBlock(masks=masks[:, lo:hi])))
    return events + engine.finish()


@settings(max_examples=examples(800), deadline=None, suppress_health_check=list(HealthCheck))
@given(_cases())
def test_window_fast_path_against_per_row_oracle(case):
    spec, masks, cuts = case
    assume(window_fast_reason(spec, has_conditions=False) is None)
    try:
        expected, code = window_oracle(spec, {}, masks)
    except OracleTooBig:
        assume(False)
    assume(code is None)
    engine = make_engine(spec, {})
    assert isinstance(engine, WindowRegexMatcher)
    assert _run(engine, masks, cuts) == expected
    # a partition past the buffer is handed over to the general matcher's window mode
    small = WindowRegexMatcher(spec, max_buffered_rows=2)
    assert _run(small, masks, cuts) == expected
    assert (small._delegate is not None) == (masks.shape[1] > 2)

    # column-wise: each match's span, first/last rows and counts on its anchor row
    request = SummaryRequest(first=frozenset({0, 1}), last=frozenset({0, 1}), count=frozenset({0, 1}))
    got = _run(WindowRegexMatcher(spec, summary=request), masks, cuts)
    matches = [e for e in expected if isinstance(e, Match)]
    if not masks.shape[1]:
        assert got == []
        return
    (summaries,) = got
    assert summaries.rows == masks.shape[1]
    assert summaries.anchor.tolist() == [m.anchor for m in matches]
    assert summaries.start.tolist() == [m.start for m in matches]
    assert summaries.end.tolist() == [m.start + len(m.rows) for m in matches]
    for var in (0, 1):
        rows = [[r for r, v in zip(m.rows, m.labels) if v == var] for m in matches]
        assert summaries.count[var].tolist() == [len(r) for r in rows]
        assert summaries.first[var].tolist() == [r[0] if r else -1 for r in rows]
        assert summaries.last[var].tolist() == [r[-1] if r else -1 for r in rows]


@st.composite
def _chain_cases(draw):
    """Frames to the end under TO NEXT ROW over chains of runs (``run_chain``), on rows where
    the variables are one-hot (adjacent classes disjoint: the closed form) or overlap (the
    regex)."""
    n_vars = draw(st.integers(2, 3))
    items = []
    for _ in range(draw(st.integers(1, 4))):
        var = draw(st.integers(0, n_vars - 1))
        least = draw(st.integers(1, 2))
        most = draw(st.sampled_from([least, least + 1, None]))
        label = rp.Label(var)
        items.append(label if (least, most) == (1, 1) else
                     rp.Quantified(label, least, most, greedy=draw(st.booleans())))
    pattern = items[0] if len(items) == 1 else rp.Concat(tuple(items))
    n = draw(st.integers(0, 16))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if draw(st.booleans()):
        masks = np.eye(n_vars, dtype=bool)[rng.integers(0, n_vars, n)].T.reshape(n_vars, n)
    else:
        masks = rng.random((n_vars, n)) < 0.6
    spec = MatchSpec(pattern=pattern, variable_names=tuple(NAMES[:n_vars]), skip=SkipMode.TO_NEXT_ROW,
                     window=PatternWindow(seek=draw(st.booleans())))
    return spec, masks


@settings(max_examples=examples(300), deadline=None, suppress_health_check=list(HealthCheck))
@given(_chain_cases())
def test_window_run_chains_against_per_row_oracle(case):
    spec, masks = case
    assert window_fast_reason(spec, has_conditions=False) is None
    try:
        expected, code = window_oracle(spec, {}, masks)
    except OracleTooBig:
        assume(False)
    assume(code is None)
    engine = WindowRegexMatcher(spec)
    assert engine._clause._runs is not None  # the closed form is tried
    assert _run(engine, masks, []) == expected


def test_the_cases_reach_the_fast_path_and_its_refusals():
    """What the generated cases exercise: the fast path, and every reason to leave it."""
    up_first = rp.Concat((rp.Label(0), rp.Quantified(rp.Label(1), 1, None)))
    prev_up = ((1, 0, 0, 2), (1, 1, 0, 1))  # UP's PREV: NULL at the frame's first row
    fast = MatchSpec(pattern=up_first, variable_names=("STRT", "UP"),
                     window=PatternWindow(edges=prev_up))
    assert window_fast_reason(fast, has_conditions=False) is None
    assert "depends on the match" in window_fast_reason(fast, has_conditions=True)
    up_can_lead = MatchSpec(pattern=rp.Quantified(rp.Label(1), 1, None), variable_names=("STRT", "UP"),
                            window=PatternWindow(edges=prev_up))
    assert "UP's DEFINE reads PREV" in window_fast_reason(up_can_lead, has_conditions=False)
    seek_bounded = MatchSpec(pattern=up_first, variable_names=("STRT", "UP"),
                             window=PatternWindow(seek=True, following=3))
    assert window_fast_reason(seek_bounded, has_conditions=False) is None
    next_bounded = MatchSpec(pattern=up_first, variable_names=("STRT", "UP"),
                             window=PatternWindow(following=3, edges=((1, 0, 0, 2), (1, 0, 1, 1))))
    assert "NEXT" in window_fast_reason(next_bounded, has_conditions=False)
    skip_to = MatchSpec(pattern=up_first, variable_names=("STRT", "UP"), skip=SkipMode.TO_LAST,
                        skip_to=frozenset({1}), window=PatternWindow())
    assert "TO LAST" in window_fast_reason(skip_to, has_conditions=False)


def test_variables_at_the_first_rows_of_a_match():
    a, b, c = rp.Label(0), rp.Label(1), rp.Label(2)
    assert variables_at(rp.Concat((a, rp.Quantified(b, 1, None))), 3) == [{0}, {1}, {1}]
    assert variables_at(rp.Concat((rp.Quantified(a, 0, 2), b)), 3) == [{0, 1}, {0, 1}, {1}]
    assert variables_at(rp.Permute((a, rp.Alternation((b, c)))), 2) == [{0, 1, 2}, {0, 1, 2}]
    assert variables_at(rp.Concat((rp.Quantified(a, 3, 5), b)), 2) == [{0}, {0}]


# ---------------------------------------------------------------------------------------------
# the runner's column-wise window output against its row-by-row one
# ---------------------------------------------------------------------------------------------

def _runner_rows(plan, table, cuts, general: bool) -> list[dict]:
    """The output of a ``PartitionRunner`` fed ``table`` in pieces; ``general``: with the
    general matcher's window mode (row-by-row output) instead of the engine it chooses."""
    import pyarrow as pa

    from sparkcep.engines.standard.matcher import RowPatternMatcher
    from sparkcep.runtime.partition_runner import PartitionRunner

    schema = pa.schema([("id", pa.int64())] + [(f"c{i}", pa.int64()) for i in range(len(plan.components))])
    runner = PartitionRunner(plan, schema)
    if general:
        runner.engine = RowPatternMatcher(plan.spec, {})
    else:
        assert isinstance(runner.engine, WindowRegexMatcher) and runner.engine._summary is not None
    n = table.num_rows
    bounds = [0] + sorted(c for c in set(cuts) if 0 < c < n) + [n]
    out = []
    for lo, hi in zip(bounds, bounds[1:]):
        for batch in table.slice(lo, hi - lo).to_batches():
            out.extend(runner.feed(batch))
    out.extend(runner.finish())
    return pa.Table.from_batches(out, schema=schema).to_pylist()


@settings(max_examples=examples(300), deadline=None, suppress_health_check=list(HealthCheck))
@given(_cases())
def test_column_wise_window_output_against_row_by_row(case):
    """Measures and window functions the column-wise output answers (COUNT(*), COUNT(X.*),
    FIRST/LAST(X.x), first_value/last_value/nth_value, MATCH_NUMBER): every row once, NULL and 0
    where no match is, as ``_window_batch`` computes them from the general matcher's events."""
    import pyarrow as pa

    from sparkcep.plan import expressions as p
    from sparkcep.plan.match_plan import MatchPlan

    spec, masks, cuts = case
    assume(window_fast_reason(spec, has_conditions=False) is None)
    components = (
        p.Aggregate("count", None, None, final=True), p.Aggregate("count", frozenset({0}), None, final=True),
        p.Aggregate("count", frozenset({0, 1}), None, final=True),
        p.Navigation(frozenset({0}), True, 0, 0, True), p.Navigation(frozenset({1}), False, 0, 0, True),
        p.Navigation(frozenset({0, 1}), False, 0, 0, True), p.Navigation(None, True, 0, 0, True),
        p.Navigation(None, False, 0, 0, True), p.Navigation(None, True, 2, 0, True), p.MatchNumber())
    n = masks.shape[1]
    plan = MatchPlan(
        spec=spec, conditions={}, components=components, all_rows=True, output_empty_matches=True,
        output_unmatched_rows=True, bitmask_columns=("m",), row_local=(True,) * masks.shape[0],
        value_columns=("x",), order_key_column=None, partition_columns=(), passthrough_columns=("id",))
    codes = sum(masks[v].astype(np.int64) << v for v in range(masks.shape[0])) if n else np.zeros(0, np.int64)
    rng = np.random.default_rng(n * 7919 + int(masks.sum()))
    x = [None if rng.random() < 0.2 else int(v) for v in rng.integers(0, 100, n)]
    table = pa.table({"id": pa.array(range(n), pa.int64()), "m": pa.array([int(c) for c in codes], pa.int64()),
                      "x": pa.array(x, pa.int64())})
    got = _runner_rows(plan, table, cuts, general=False)
    assert [r["id"] for r in got] == list(range(n))
    assert got == _runner_rows(plan, table, cuts, general=True)
