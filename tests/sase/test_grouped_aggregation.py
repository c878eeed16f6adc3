"""GroupedAggregationEngine: SKIP TILL ANY MATCH matches aggregated per group of a selected row's
bucket (``GROUP BY p, date_trunc('HOUR', first_ts)``) and per-match sums over a Kleene variable
(a measure ``SUM(B.x)``), without enumerating the matches.

Generated cases (the patterns, rows, windows, negations, measures, comparisons between rows and
batch splits of ``test_trend_aggregation``) plus drawn group keys and per-match SUM / COUNT
measures are checked against two references: the brute-force oracle (``tests/sase/oracle.py``)
and the enumerating engine (postponing), each match aggregated here by the SQL rules: a group is
the bucket value of the key row (Spark groups NULL with NULL and NaN with NaN, -0.0 with 0.0);
SUM(B.x) of a match adds its B rows' non-null values in row order (DOUBLE from 0.0) and is NULL
when there is none; COUNT(B.x) counts them; the outer SUM/MIN/MAX skip NULL sums.
"""

from __future__ import annotations

import math
import random
from decimal import Context, localcontext

import numpy as np
from hypothesis import event, given, settings
from hypothesis import strategies as st

from sparkcep.engines.sase.aggregation import AggregateTotals, MeasureRef, MeasureTotals
from sparkcep.engines.sase.grouped_aggregation import GroupedAggregationEngine

from tests.example_counts import examples
from .harness import ANY, L, Q, oracle_run, run_engine, seq, spec_of
from .test_aggregation import (
    SETTINGS,
    _nan,
    _small_enough,
    assert_same_totals,
    block_of,
    measure_totals,
    plain,
)
from .test_trend_aggregation import _component_variables, conditions_for, trend_cases

# -- references: every match aggregated by the SQL rules ----------------------------------------


def measure_value(ref: MeasureRef, rows, labels, columns):
    selected = [r for r, v in zip(rows, labels) if v == ref.variable]
    values = [columns[ref.column][r] for r in selected]
    if ref.which in ("first", "last"):
        if not selected:
            return None
        return values[0] if ref.which == "first" else values[-1]
    present = [v for v in values if v is not None]
    if ref.which == "count":
        return len(present)
    if not present:  # SUM of no value is NULL
        return None
    total = 0.0 if isinstance(present[0], float) else 0
    with localcontext(Context(prec=400)):
        for v in present:
            total = total + v
    return total


def group_of(keys, rows, labels, columns):
    """The group key of a match as Spark's GROUP BY compares values."""
    out = []
    for ref in keys:
        v = measure_value(ref, rows, labels, columns)
        out.append("NaN" if _nan(v) else v)
    return tuple(out)


def reference(matches, measures, keys, columns) -> dict:
    """Group key -> AggregateTotals, the matches aggregated one by one."""
    groups: dict = {}
    for rows, labels in matches:
        groups.setdefault(group_of(keys, rows, labels, columns), []).append((rows, labels))
    return {group: AggregateTotals(len(members), tuple(
                measure_totals(measure_value(ref, r, l, columns) for r, l in members)
                for ref in measures))
            for group, members in groups.items()}


# -- generated cases ---------------------------------------------------------------------------

BUCKETS = [0, 1, 2, None]
FLOAT_BUCKETS = [0.0, -0.0, 1.0, float("nan"), None]


@st.composite
def grouped_cases(draw, sums: bool, groups: bool):
    spec, masks, keys, columns, measures, comparisons, cuts = draw(trend_cases())
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    n = len(masks[0])
    positive, _negated = _component_variables(spec.pattern)  # also negated elsewhere: summed too
    items = list(spec.pattern.items) if hasattr(spec.pattern, "items") else [spec.pattern]
    mandatory = []
    for item in items:
        if hasattr(item, "min") and item.min >= 1:
            mandatory.append(item.pattern.var)
        elif hasattr(item, "var") and type(item).__name__ == "Label":
            mandatory.append(item.var)
    base = len(columns)
    # group buckets: small ints (with NULLs) and floats (NaN, -0.0, NULL)
    columns = tuple(columns) + (
        [None if rnd.random() < 0.1 else rnd.choice(BUCKETS[:3]) for _ in range(n)],
        [rnd.choice(FLOAT_BUCKETS) for _ in range(n)],
    )
    group_keys = ()
    if groups or rnd.random() < 0.3:
        group_keys = tuple(
            MeasureRef(rnd.choice(mandatory), rnd.choice(["first", "last"]), base + rnd.randrange(2))
            for _ in range(rnd.choice([1, 1, 1, 2])))
    if sums or rnd.random() < 0.3:
        # SUM/COUNT over the ints, the floats (NaN, +-inf), the decimals, the small ints
        measures = measures + tuple(
            MeasureRef(rnd.choice(positive), rnd.choice(["sum", "sum", "count"]),
                       rnd.choice([0, 1, 2, 4, 5, base]))
            for _ in range(rnd.choice([1, 1, 2, 3])))
        measures = tuple(rnd.sample(measures, len(measures)))
    return spec, masks, keys, columns, measures, comparisons, group_keys, cuts


def grouped_aggregate(spec, masks, keys, columns, measures, comparisons, group_keys, cuts=()):
    n = np.asarray(masks).reshape(len(masks), -1).shape[1]
    bounds = [0, *sorted({c for c in cuts if 0 < c < n}), n]
    engine = GroupedAggregationEngine(spec, tuple(measures), tuple(comparisons), tuple(group_keys))
    for a, b in zip(bounds, bounds[1:]):
        engine.feed(block_of(masks, keys, columns, a, b))
    return engine


def check(case) -> None:
    spec, masks, keys, columns, measures, comparisons, group_keys, cuts = case
    if not _small_enough(spec, masks):
        event("skipped: too many partial matches for the brute force")
        return
    measures = tuple(measures) + group_keys  # the keys' representatives
    engine = grouped_aggregate(spec, masks, keys, columns, measures, comparisons, group_keys, cuts)
    plain_columns = [plain(c) for c in columns]
    conds = conditions_for(spec, comparisons)
    found, _unmatched = oracle_run(spec, conds, masks, keys.tolist(), plain_columns)
    expected = [(rows, labels) for _end, rows, labels in found]
    matches, _, _ = run_engine(spec, conds, masks, keys,
                               [np.asarray(c, dtype=object) for c in plain_columns], cuts)
    enumerated = [(m.rows, m.labels) for m in matches]
    got = engine.group_totals()
    # each group named by its key, read as the compiler does: the MIN of the key row's value over
    # the group's matches (the representative the rewrite hands to the outer query)
    named = {}
    for totals in got:
        key = tuple("NaN" if _nan(t.minimum) else t.minimum
                    for t in totals.measures[len(measures) - len(group_keys):])
        assert key not in named, key
        named[key] = totals
    for name, reference_matches in (("oracle", expected), ("engine", enumerated)):
        want = reference(reference_matches, measures, group_keys, plain_columns)
        assert set(named) == set(want), (name, list(named), list(want))
        for key, totals in named.items():
            assert_same_totals(totals, want[key], (name, key, measures, group_keys))
    assert_same_totals(engine.totals(), reference(expected, measures, (), plain_columns).get(
        (), AggregateTotals(0, tuple(MeasureTotals(0, None, None, None) for _ in measures))))
    event(f"groups: {min(len(got), 3)}{'+' if len(got) >= 3 else ''}")
    event("negation" if "!" in spec.pattern_text() else "no negation")
    event("WITHIN" if spec.within is not None else "no WITHIN")
    event("comparisons" if comparisons else "row-local DEFINE")


@settings(max_examples=examples(1000), **SETTINGS)
@given(grouped_cases(sums=True, groups=False))
def test_per_match_sums_equal_the_oracle_and_the_enumerating_engine(case):
    check(case)


@settings(max_examples=examples(1000), **SETTINGS)
@given(grouped_cases(sums=False, groups=True))
def test_groups_equal_the_oracle_and_the_enumerating_engine(case):
    check(case)


# -- hand-worked examples ---------------------------------------------------------------------


def test_sums_over_a_kleene_run():
    # A B+ C over a b1 b2 b3 c: the B runs are the 7 non-empty subsets of {1, 2, 4}; each value
    # is in 4 of them: the sums total 4 * 7 = 28, range 1 .. 7
    masks = [[True, False, False, False, False], [False, True, True, True, False],
             [False, False, False, False, True]]
    engine = grouped_aggregate(spec_of(seq(L(0), Q(1, 1), L(2)), 3, ANY), masks, None,
                               [[0, 1, 2, 4, 0]], [MeasureRef(1, "sum", 0), MeasureRef(1, "count", 0)],
                               (), ())
    assert engine.totals() == AggregateTotals(7, (MeasureTotals(7, 28, 1, 7),
                                                  MeasureTotals(7, 12, 1, 3)))


def test_an_empty_kleene_sum_is_null_and_its_count_zero():
    # A B* over a b(NULL) b(5): matches a, a b1, a b2, a b1 b2: SUM NULL, NULL, 5, 5; COUNT 0 0 1 1
    masks = [[True, False, False], [False, True, True]]
    engine = grouped_aggregate(spec_of(seq(L(0), Q(1, 0)), 2, ANY), masks, None,
                               [[0, None, 5]], [MeasureRef(1, "sum", 0), MeasureRef(1, "count", 0)],
                               (), ())
    assert engine.totals() == AggregateTotals(4, (MeasureTotals(2, 10, 5, 5),
                                                  MeasureTotals(4, 2, 0, 1)))


def test_infinite_sums_follow_spark():
    # A B+ over a, b = -inf, b = inf: sums -inf, inf, NaN (-inf + inf): MIN -inf, MAX NaN
    masks = [[True, False, False], [False, True, True]]
    engine = grouped_aggregate(spec_of(seq(L(0), Q(1, 1)), 2, ANY), masks, None,
                               [[0.0, -math.inf, math.inf]], [MeasureRef(1, "sum", 0)], (), ())
    (totals,) = engine.totals().measures
    assert totals.non_null == 3 and totals.minimum == -math.inf and _nan(totals.maximum)


def test_groups_by_the_start_rows_bucket_and_the_last_rows():
    # A B+ over a1 (bucket 0) a2 (bucket 1) b1 (bucket 1) b2 (bucket 2): each A starts 3 matches
    masks = [[True, True, False, False], [False, False, True, True]]
    bucket = [0, 1, 1, 2]
    spec = spec_of(seq(L(0), Q(1, 1)), 2, ANY)
    engine = grouped_aggregate(spec, masks, None, [bucket], (), (), [MeasureRef(0, "first", 0)])
    assert [g.matches for g in engine.group_totals()] == [3, 3]
    # by the last B row's bucket: (a b1) x2 end in bucket 1; (a b2), (a b1 b2) x2 in bucket 2
    engine = grouped_aggregate(spec, masks, None, [bucket], (), (), [MeasureRef(1, "last", 0)])
    assert [g.matches for g in engine.group_totals()] == [2, 4]


SPECIAL = [0.0, -0.0, 0.5, -1.5, 1e308, -1e308, math.inf, -math.inf, math.nan]


@settings(max_examples=examples(300), **SETTINGS)
@given(st.lists(st.sampled_from(SPECIAL), min_size=1, max_size=5), st.sampled_from(SPECIAL))
def test_the_bounds_of_shifted_double_sums_are_exact(sums, x):
    # the engine's summary of a set of DOUBLE sums (bounds over the non-NaN ones, a NaN flag),
    # shifted by x, against the set shifted element by element
    from sparkcep.engines.sase.grouped_aggregation import _including, _shifted

    lo, hi, nan = None, None, False
    for s in sums:
        lo, hi, nan = _including(lo, hi, nan, s)
    lo, hi, nan = _shifted(lo, hi, nan, x)
    shifted = [s + x for s in sums]
    numbers = [s for s in shifted if not _nan(s)]
    assert nan == any(_nan(s) for s in shifted)
    assert (lo, hi) == ((min(numbers), max(numbers)) if numbers else (None, None))
