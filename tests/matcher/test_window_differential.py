"""Row pattern recognition in a window (SQL:2016 R020): the matcher in window mode, fed in random
batches, against a brute-force per-row oracle written from ISO/IEC 19075-5 (6) as Trino's
documentation of "row pattern recognition in window" describes it:

for every row not skipped by an earlier match, its frame is ``[row, row + following]`` (to the
partition end when unbounded); the match is the most preferred one starting at the row (INITIAL)
or at the first row of the frame where one starts (SEEK), using only rows of the frame; a PREV
(NEXT) that would read before (after) the frame reads NULL, which the test models as a different
row-local mask near the edges. After a match, AFTER MATCH SKIP marks the rows up to the skip
target as skipped; after an empty match or no match, the next row is searched.

The oracle runs ``tests/matcher/oracle.Oracle`` (shares no code with the engine) on each frame.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.contract import Match, UnmatchedRow
from sparkcep.engines.spec import MatchSpec, PatternWindow, SkipMode
from sparkcep.errors import MatchRuntimeError

from tests.example_counts import examples
from .harness import run_matcher
from .oracle import Oracle, OracleTooBig, resume_at
from .test_differential import _increasing, _quantifier

NAMES = "ABC"


def _patterns(n_vars: int, max_leaves: int = 5, quantifier_weight: int = 2):
    """Random patterns over ``n_vars`` variables: concatenations, choices, PERMUTE and
    quantifiers (``quantifier_weight`` times as likely as each of the others) up to
    ``max_leaves`` leaves."""
    label = st.integers(0, n_vars - 1).map(rp.Label)
    leaf = st.one_of(label, label, label, st.just(rp.Empty()))

    def extend(child):
        items = st.lists(child, min_size=2, max_size=3).map(tuple)
        return st.one_of(items.map(rp.Concat), items.map(rp.Alternation), items.map(rp.Permute),
                         *[_quantifier(child)] * quantifier_weight)

    return st.recursive(leaf, extend, max_leaves=max_leaves)


def _mask_of(masks, edges, var, before, after, row):
    """The oracle's own reading of ``PatternWindow.edges``: the variable's mask at ``row``,
    ``before`` rows after the frame's first row and ``after`` rows before its last."""
    reach_before = max((b for v, b, _, _ in edges if v == var), default=0)
    reach_after = max((a for v, _, a, _ in edges if v == var), default=0)
    key = (min(before, reach_before), min(after, reach_after))
    for v, b, a, mask in edges:
        if v == var and (b, a) == key:
            return masks[mask, row]
    return masks[var, row]


def window_oracle(spec: MatchSpec, conditions, masks, columns=()):
    """Events of the window: one per row, in row order."""
    window = spec.window
    n = masks.shape[1]
    n_vars = len(spec.variable_names)
    events = []
    number = 0
    row = 0
    next_row = 0  # rows before it were skipped by a match
    try:
        while row < n:
            if row < next_row:
                events.append(UnmatchedRow(row))
                row += 1
                continue
            end = n - 1 if window.following is None else min(n - 1, row + window.following)
            size = end - row + 1
            frame = np.zeros((n_vars, size), dtype=bool)
            for var in range(n_vars):
                for j in range(size):
                    # rows before the frame's nominal last row (past the partition's end, NEXT
                    # reads NULL in the frame and in the partition alike)
                    after = 0 if window.following is None else window.following - j
                    frame[var, j] = _mask_of(masks, window.edges, var, j, after, row + j)
            oracle = Oracle(spec, conditions, frame, tuple(c[row:end + 1] for c in columns))
            starts = range(row, end + 1) if window.seek else [row]
            found = None
            for start in starts:
                oracle.count = 0
                mapped = oracle.best_match(start - row, number + 1)
                if mapped is not None:
                    found = start, mapped
                    break
            if found is None:
                events.append(UnmatchedRow(row))
                row += 1
                next_row = row
                continue
            start, mapped = found
            number += 1
            rows = tuple(r + row for r, _, _ in mapped)
            events.append(Match(number, start, rows, tuple(v for _, v, _ in mapped),
                                tuple(e for _, _, e in mapped), anchor=row))
            if not rows:
                next_row = row + 1
            else:
                next_row = resume_at(spec, start, rows, tuple(v for _, v, _ in mapped))
            row += 1
    except MatchRuntimeError as error:
        return events, error.code
    return events, None


@st.composite
def _cases(draw):
    n_vars = draw(st.integers(2, 3))
    pattern = draw(_patterns(n_vars))
    n = draw(st.integers(0, 10))
    seek = draw(st.booleans())
    following = draw(st.sampled_from([None, None, 0, 1, 2, 3]))
    edges = []
    extra = 0
    for var in range(n_vars):
        reach_before = draw(st.sampled_from([0, 0, 1, 2]))
        reach_after = draw(st.sampled_from([0, 1])) if following is not None else 0
        if reach_before or reach_after:
            for b in range(reach_before + 1):
                for a in range(reach_after + 1):
                    if (b, a) == (reach_before, reach_after):
                        edges.append((var, b, a, var))
                    else:
                        edges.append((var, b, a, n_vars + extra))
                        extra += 1
    density = draw(st.sampled_from([0.3, 0.6, 0.9]))
    seed = draw(st.integers(0, 2**32 - 1))
    masks = np.random.default_rng(seed).random((n_vars + extra, n)) < density
    skip = draw(st.sampled_from(list(SkipMode)))
    skip_to = frozenset([draw(st.integers(0, n_vars - 1))]) if skip in (SkipMode.TO_FIRST, SkipMode.TO_LAST) else None
    conditions = {}
    columns = ()
    if draw(st.booleans()):
        conditions = {draw(st.integers(0, n_vars - 1)): _increasing}
        columns = (list(np.random.default_rng(seed + 1).integers(0, 5, n)),)
    spec = MatchSpec(pattern=pattern, variable_names=tuple(NAMES[:n_vars]), skip=skip, skip_to=skip_to,
                     window=PatternWindow(seek=seek, following=following, edges=tuple(edges)))
    cuts = draw(st.lists(st.integers(0, n), max_size=3))
    return spec, conditions, masks, columns, cuts


@settings(max_examples=examples(500), deadline=None, suppress_health_check=list(HealthCheck))
@given(_cases())
def test_window_matcher_against_per_row_oracle(case):
    spec, conditions, masks, columns, cuts = case
    try:
        expected = window_oracle(spec, conditions, masks, columns)
    except OracleTooBig:
        assume(False)
    got = run_matcher(spec, conditions, masks, columns, cuts=cuts)
    if expected[1] is not None:  # an error: the events up to it may be cut anywhere before
        assert got[1] == expected[1]
        return
    assert got == expected


def test_window_rows_in_order_one_event_each():
    """A worked example (the issue's): PATTERN (START UP+), UP a rise, frame to the end,
    SKIP PAST LAST ROW, INITIAL. Prices 5 6 7 3 4 2: rows 0-2 match (START UP UP), rows 1-2
    are skipped, row 3 matches (START UP), row 4 skipped, row 5 finds no UP after it."""
    up = np.array([[True] * 6, [False, True, True, False, True, False]])
    spec = MatchSpec(pattern=rp.Concat((rp.Label(0), rp.Quantified(rp.Label(1), 1, None, True))),
                     variable_names=("START", "UP"), window=PatternWindow())
    events, code = run_matcher(spec, {}, up, cuts=[2, 4])
    assert code is None
    assert [(type(e).__name__, getattr(e, "anchor", getattr(e, "row", None)),
             getattr(e, "rows", None)) for e in events] == [
        ("Match", 0, (0, 1, 2)), ("UnmatchedRow", 1, None), ("UnmatchedRow", 2, None),
        ("Match", 3, (3, 4)), ("UnmatchedRow", 4, None), ("UnmatchedRow", 5, None)]


# ---------------------------------------------------------------------------------------------
# first_value / last_value / nth_value over the match (ISO/IEC 19075-5, 6.5)
# ---------------------------------------------------------------------------------------------

VALUE_FUNCTIONS = ("first_value(x)", "last_value(x)", "nth_value(x, 1)", "nth_value(x, 2)",
                   "nth_value(x, 4)")


def _oracle_events(spec: MatchSpec, masks):
    """The window oracle's events for row-local ``masks`` (the case is skipped when the oracle
    would be too slow or the matcher's answer is an error)."""
    try:
        events, code = window_oracle(spec, {}, masks)
    except OracleTooBig:
        assume(False)
    assume(code is None)
    return events


def _run_in_pieces(plan, schema, table, cuts) -> list[dict]:
    """The output rows of a ``PartitionRunner`` fed ``table`` cut at ``cuts``, then finished."""
    import pyarrow as pa

    from sparkcep.runtime.partition_runner import PartitionRunner

    runner = PartitionRunner(plan, schema)
    out = []
    n = table.num_rows
    bounds = [0] + sorted(c for c in set(cuts) if 0 < c < n) + [n]
    for lo, hi in zip(bounds, bounds[1:]):
        for batch in table.slice(lo, hi - lo).to_batches():
            out.extend(runner.feed(batch))
    out.extend(runner.finish())
    return pa.Table.from_batches(out, schema=schema).to_pylist()


def _compiled_value_functions():
    """The plan components the compiler produces for VALUE_FUNCTIONS over a pattern window, in
    VALUE_FUNCTIONS' order (read back from the generated SQL: select item -> window column ->
    component column)."""
    import re

    from sparkcep.compiler.rewrite import compile_statement

    items = ", ".join(f"{f} OVER w AS out{i}" for i, f in enumerate(VALUE_FUNCTIONS))
    compiled = compile_statement(
        f"SELECT {items} FROM t WINDOW w AS (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED "
        "FOLLOWING PATTERN (A) DEFINE A AS x > 0)")
    (match,) = compiled.matches
    component_of = {w: int(c) for c, w in re.findall(r"\(`__sparkcep_c(\d+)`\) AS `(__sparkcepw0_f\d+)`",
                                                      compiled.sql)}
    window_of = {int(i): w for w, i in re.findall(r"`(__sparkcepw0_f\d+)` AS out(\d+)", compiled.sql)}
    assert match.plan.value_columns and len(window_of) == len(VALUE_FUNCTIONS)
    return tuple(match.plan.components[component_of[window_of[i]]] for i in range(len(VALUE_FUNCTIONS)))


def _value_function_oracle(events, x):
    """The functions' values per row, from the window oracle's matches: the reduced frame is the
    match's rows in order (empty for an empty match, a row without a match or a skipped row)."""
    out = []
    for event in events:
        rows = list(getattr(event, "rows", ()))
        values = [x[r] for r in rows]
        nth = [values[k - 1] if len(values) >= k else None for k in (1, 2, 4)]
        out.append([values[0] if values else None, values[-1] if values else None, *nth])
    return out


@settings(max_examples=examples(300), deadline=None, suppress_health_check=list(HealthCheck))
@given(_cases())
def test_value_functions_over_the_match_against_oracle(case):
    import pyarrow as pa

    from sparkcep.plan import expressions as p
    from sparkcep.plan.match_plan import MatchPlan

    spec, _, masks, _, cuts = case  # row-local masks only: the matcher's conditions are tested above
    events = _oracle_events(spec, masks)
    n = masks.shape[1]
    rng = np.random.default_rng(n * 7919 + int(masks.sum()))
    x = [None if rng.random() < 0.2 else int(v) for v in rng.integers(0, 100, n)]  # NULLs respected
    components = _compiled_value_functions() + (p.MatchNumber(),)
    plan = MatchPlan(
        spec=spec, conditions={}, components=components, all_rows=True, output_empty_matches=True,
        output_unmatched_rows=True, bitmask_columns=("m",), row_local=(True,) * masks.shape[0],
        value_columns=("x",), order_key_column=None, partition_columns=(), passthrough_columns=("id",))
    schema = pa.schema([("id", pa.int64())] + [(f"c{i}", pa.int64()) for i in range(len(components))])
    codes = sum(masks[v].astype(np.int64) << v for v in range(masks.shape[0])) if n else np.zeros(0, np.int64)
    table = pa.table({"id": pa.array(range(n), pa.int64()), "m": pa.array([int(c) for c in codes], pa.int64()),
                      "x": pa.array(x, pa.int64())})
    got = _run_in_pieces(plan, schema, table, cuts)
    assert [r["id"] for r in got] == list(range(n))
    assert [[r[f"c{i}"] for i in range(len(VALUE_FUNCTIONS))] for r in got] == _value_function_oracle(events, x)


# ---------------------------------------------------------------------------------------------
# PREV/NEXT in a window's MEASURES: they do not leave the frame (ISO/IEC 19075-5, 6)
# ---------------------------------------------------------------------------------------------

# (measure, which row of the match: (variable or None, first?), physical offset)
NAVIGATION_MEASURES = (
    ("PREV(x)", (None, False), -1),
    ("NEXT(FIRST(x), 2)", (None, True), 2),
    ("PREV(FIRST(A.x))", ("A", True), -1),
    ("NEXT(A.x)", ("A", False), 1),
    ("PREV(LAST(B.x), 2)", ("B", False), -2),
)


def _compiled_navigation_measures():
    """The compiled window's components (one per NAVIGATION_MEASURES item), its window's shifts,
    and per value column the (lag or lead, offset) its SQL computes, as Spark would."""
    import re

    from sparkcep.compiler.rewrite import compile_statement

    measures = ", ".join(f"{m} AS m{i}" for i, (m, _, _) in enumerate(NAVIGATION_MEASURES))
    items = ", ".join(f"m{i} OVER w" for i in range(len(NAVIGATION_MEASURES)))
    compiled = compile_statement(
        f"SELECT {items} FROM t WINDOW w AS (ORDER BY id MEASURES {measures} ROWS BETWEEN CURRENT "
        "ROW AND UNBOUNDED FOLLOWING PATTERN (A B) DEFINE A AS x > 0)")
    (match,) = compiled.matches
    component_of = {int(i): int(c) for c, i in re.findall(
        r"\(`__sparkcep_c(\d+)`\)\) AS `__sparkcepw0_m_m(\d+)`", compiled.sql)}
    shifted = {name: (function, int(k)) for function, k, name in re.findall(
        r"(lag|lead)\([(`x)]+, (\d+)\) OVER \(ORDER BY id\) AS `(__sparkcep_v\d+)`", compiled.sql)}
    assert len(component_of) == len(NAVIGATION_MEASURES) and set(shifted) == set(match.plan.value_columns)
    components = [match.plan.components[component_of[i]] for i in range(len(NAVIGATION_MEASURES))]
    index = {component_of[i]: i for i in range(len(NAVIGATION_MEASURES))}
    shifts = tuple((index[k], s) for k, s in match.plan.spec.window.shifts if k in index)
    return components, shifts, match.plan.value_columns, shifted


def _navigation_oracle(events, x, spec):
    """Each row's measures: the row the logical navigation picks in the row's match, moved by
    the physical offset; NULL where that row is outside the row's frame (or the partition)."""
    n = len(x)
    following = spec.window.following
    out = []
    for event in events:
        rows = list(getattr(event, "rows", ()))
        labels = [spec.variable_names[v] for v in getattr(event, "labels", ())]
        anchor = getattr(event, "anchor", getattr(event, "row", None))
        last = n - 1 if following is None else min(n - 1, anchor + following)
        values = []
        for _, (variable, first), shift in NAVIGATION_MEASURES:
            picked = [r for r, label in zip(rows, labels) if variable is None or label == variable]
            if not picked:
                values.append(None)
                continue
            source = (picked[0] if first else picked[-1]) + shift
            values.append(x[source] if anchor <= source <= last else None)
        out.append(values)
    return out


@settings(max_examples=examples(300), deadline=None, suppress_health_check=list(HealthCheck))
@given(_cases())
def test_prev_next_in_measures_stay_in_the_frame_against_oracle(case):
    import dataclasses

    import pyarrow as pa

    from sparkcep.plan import expressions as p
    from sparkcep.plan.match_plan import MatchPlan

    spec, _, masks, _, cuts = case
    events = _oracle_events(spec, masks)
    n = masks.shape[1]
    rng = np.random.default_rng(n * 104729 + int(masks.sum()))
    x = [int(v) for v in rng.integers(0, 100, n)]
    components, shifts, value_columns, shifted = _compiled_navigation_measures()
    spec = dataclasses.replace(spec, window=dataclasses.replace(spec.window, shifts=shifts))
    plan = MatchPlan(
        spec=spec, conditions={}, components=(*components, p.MatchNumber()), all_rows=True,
        output_empty_matches=True, output_unmatched_rows=True, bitmask_columns=("m",),
        row_local=(True,) * masks.shape[0], value_columns=value_columns, order_key_column=None,
        partition_columns=(), passthrough_columns=("id",))
    columns = {"id": list(range(n))}
    codes = sum(masks[v].astype(np.int64) << v for v in range(masks.shape[0])) if n else np.zeros(0, np.int64)
    columns["m"] = [int(c) for c in codes]
    for name, (function, k) in shifted.items():  # lag/lead over the partition, as Spark computes them
        step = -k if function == "lag" else k
        columns[name] = [x[r + step] if 0 <= r + step < n else None for r in range(n)]
    table = pa.table({name: pa.array(values, pa.int64()) for name, values in columns.items()})
    schema = pa.schema([("id", pa.int64())] + [(f"c{i}", pa.int64()) for i in range(len(components) + 1)])
    got = _run_in_pieces(plan, schema, table, cuts)
    assert [r["id"] for r in got] == list(range(n))
    assert [[r[f"c{i}"] for i in range(len(components))] for r in got] == _navigation_oracle(events, x, spec)
