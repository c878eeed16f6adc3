"""TrendAggregationEngine: SKIP TILL ANY MATCH matches whose DEFINE compares the row with an
earlier row of the match (``B.x > LAST(B.x, 1)``, ``C.u = A.u``), counted and aggregated without
enumerating them.

Generated cases (the patterns, rows, windows and measures of ``test_aggregation``, plus drawn
comparisons over columns with NULLs, ties and NaNs) are checked against the brute-force oracle
(``tests/sase/oracle.py``) and the enumerating engine (postponing, SKIP TILL ANY MATCH), both given
the comparisons as match-dependent conditions written here from the SQL semantics, and aggregated
match by match. Hand-worked trend counts follow.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.sase.aggregation import MeasureRef, MeasureTotals
from sparkcep.engines.sase.trend_aggregation import OPERATORS, RowComparison, TrendAggregationEngine
from sparkcep.errors import MatchRuntimeError

from tests.example_counts import examples
from .harness import ANY, L, N, Q, oracle_run, run_engine, seq, spec_of
from .test_aggregation import (
    SETTINGS,
    _small_enough,
    assert_same_totals,
    block_of,
    cases,
    plain,
    reference_totals,
)

# -- the comparisons as SQL defines them ---------------------------------------------------------


def _nan(x) -> bool:
    return isinstance(x, float) and x != x


def spark_compare(a, b) -> int:
    """-1, 0, 1: Spark's order of two non-NULL values of one type (NaN above every number and
    equal to itself; arrays element by element, NULL first, then the shorter first)."""
    if isinstance(a, list):
        for x, y in zip(a, b):
            if x is None or y is None:
                if x is None and y is None:
                    continue
                return -1 if x is None else 1
            c = spark_compare(x, y)
            if c:
                return c
        return (len(a) > len(b)) - (len(a) < len(b))
    if _nan(a) or _nan(b):
        return 0 if _nan(a) and _nan(b) else 1 if _nan(a) else -1
    return (a > b) - (a < b)


def sql_truth(op: str, a, b):
    """``a op b`` in SQL's three-valued logic: True, False or None (unknown)."""
    if op == "null_safe_eq":
        if a is None or b is None:
            return a is None and b is None
        return spark_compare(a, b) == 0
    if a is None or b is None:
        return None
    c = spark_compare(a, b)
    return {"eq": c == 0, "neq": c != 0, "lt": c < 0, "lte": c <= 0, "gt": c > 0, "gte": c >= 0}[op]


def referenced_value(comparison: RowComparison, ctx):
    """The value of the row the comparison reads, from the rows mapped so far (RUNNING)."""
    ref = comparison.ref
    rows = list(ctx.mapped_rows(frozenset([ref.variable])))
    if ref.variable == comparison.variable:  # LAST(V.x, 1): the candidate is rows[-1]
        row = rows[-2] if len(rows) >= 2 else None
    elif rows:
        row = rows[0] if ref.which == "first" else rows[-1]
    else:
        row = None
    return None if row is None else ctx.value(ref.column, row)


def condition_of(comparisons):
    """A match-dependent condition: every comparison (``x op ref``, or ``ref IS NULL OR x op
    ref``) is TRUE."""

    def condition(ctx) -> bool:
        for c in comparisons:
            ref = referenced_value(c, ctx)
            if ref is None and c.holds_when_null:
                continue
            if sql_truth(c.op, ctx.value(c.column, ctx.row), ref) is not True:
                return False
        return True

    return condition


# -- generated cases ---------------------------------------------------------------------------

SMALL_FLOATS = [0.0, -0.0, 1.5, 2.0, float("nan"), float("inf")]


def _columns(rnd: random.Random, n: int) -> tuple:
    def with_nulls(menu, p=0.15):
        return [None if rnd.random() < p else rnd.choice(menu) for _ in range(n)]

    return (with_nulls(range(4)), with_nulls(SMALL_FLOATS), with_nulls("abc", 0.1))


def _component_variables(pattern) -> tuple[list[int], set[int]]:
    items = list(pattern.items) if isinstance(pattern, rp.Concat) else [pattern]
    positive, negated = [], set()
    for item in items:
        if isinstance(item, rp.Negation):
            negated.add(item.var)
        elif isinstance(item, rp.Quantified):
            positive.append(item.pattern.var)
        else:
            positive.append(item.var)
    return positive, negated


@st.composite
def trend_cases(draw):
    spec, masks, keys, _columns_, measures, cuts = draw(cases())
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    n = len(masks[0])
    base = len(_columns_)
    columns = tuple(_columns_) + _columns(rnd, n)
    positive, negated = _component_variables(spec.pattern)
    comparisons = []
    for v in positive:
        if v in negated:
            continue
        for _ in range(rnd.choice([0, 0, 1, 1, 2])):
            column = base + rnd.randrange(3)
            target = rnd.choice(positive)
            which = "last" if target == v else rnd.choice(["first", "last"])
            ref = MeasureRef(target, which, column)
            comparisons.append(RowComparison(v, column, rnd.choice(OPERATORS), ref,
                                             rnd.random() < 0.6))
    # measures over the new columns too
    measures = measures + tuple(
        MeasureRef(rnd.choice(positive), rnd.choice(["first", "last"]), base + rnd.randrange(3))
        for _ in range(rnd.randint(0, 1)))
    return spec, masks, keys, columns, measures, tuple(comparisons), cuts


def trend_aggregate(spec, masks, keys, columns, measures, comparisons, cuts=(), **options):
    n = np.asarray(masks).reshape(len(masks), -1).shape[1]
    bounds = [0, *sorted({c for c in cuts if 0 < c < n}), n]
    engine = TrendAggregationEngine(spec, tuple(measures), tuple(comparisons), **options)
    partial = []
    for a, b in zip(bounds, bounds[1:]):
        engine.feed(block_of(masks, keys, columns, a, b))
        partial.append((b, engine.totals()))
    return engine, partial


def conditions_for(spec, comparisons):
    by_variable = {}
    for c in comparisons:
        by_variable.setdefault(c.variable, []).append(c)
    return [condition_of(by_variable[v]) if v in by_variable else None
            for v in range(len(spec.variable_names))]


@settings(max_examples=examples(1500), **SETTINGS)
@given(trend_cases())
def test_totals_equal_the_oracle_and_the_enumerating_engine(case):
    spec, masks, keys, columns, measures, comparisons, cuts = case
    if not _small_enough(spec, masks):
        event("skipped: too many partial matches for the brute force")
        return
    engine, partial = trend_aggregate(spec, masks, keys, columns, measures, comparisons, cuts)
    plain_columns = [plain(c) for c in columns]
    conds = conditions_for(spec, comparisons)
    found, _unmatched = oracle_run(spec, conds, masks, keys.tolist(), plain_columns)
    expected = [(rows, labels) for _end, rows, labels in found]
    assert_same_totals(engine.totals(), reference_totals(expected, measures, plain_columns),
                       ("oracle", comparisons))
    event(f"comparisons: {len(comparisons)}")
    event("matches: 0" if not expected else "matches: some")
    matches, _, _ = run_engine(spec, conds, masks, keys,
                               [np.asarray(c, dtype=object) for c in plain_columns], cuts)
    enumerated = [(m.rows, m.labels) for m in matches]
    assert_same_totals(engine.totals(), reference_totals(enumerated, measures, plain_columns),
                       ("engine", comparisons))
    for end, totals in partial:
        so_far = [(rows, labels) for rows, labels in expected if rows[-1] < end]
        assert_same_totals(totals, reference_totals(so_far, measures, plain_columns), end)


# -- hand-worked examples ---------------------------------------------------------------------

A_BPLUS_C = seq(L(0), Q(1, 1), L(2))


def _trends(values, op="gt", holds_when_null=True, measures=()):
    """A B+ C over one A, the B rows ``values``, one C; B AS LAST(B.x,1) IS NULL OR B.x op
    LAST(B.x, 1)."""
    m = len(values)
    masks = [[True] + [False] * (m + 1), [False] + [True] * m + [False], [False] * (m + 1) + [True]]
    column = [0, *values, 0]
    comparison = RowComparison(1, 0, op, MeasureRef(1, "last", 0), holds_when_null)
    engine, _ = trend_aggregate(spec_of(A_BPLUS_C, 3, ANY), masks, None, [column], measures,
                                [comparison])
    return engine.totals()


def test_increasing_subsequences():
    # the B runs are the non-empty strictly increasing subsequences of 3 1 2 4:
    # singletons 4, pairs (3,4) (1,2) (1,4) (2,4), triple (1,2,4): 9
    assert _trends([3, 1, 2, 4]).matches == 9
    # non-decreasing over 2 2 2: every non-empty subset, 7
    assert _trends([2, 2, 2], "gte").matches == 7
    assert _trends([2, 2, 2], "gt").matches == 3
    # without "IS NULL OR" the first B row never qualifies (LAST(B.x, 1) is NULL): no match
    assert _trends([1, 2, 3], holds_when_null=False).matches == 0


def test_nulls_and_nans_follow_spark():
    # a NULL B.x: "LAST(B.x, 1) IS NULL" holds for the row after it, and NULL > 1 is unknown;
    # NaN is above every number and equal to itself
    nan = float("nan")
    assert _trends([None, 1.0]).matches == 3  # (NULL) (1) (NULL 1)
    assert _trends([1.0, None]).matches == 2  # (1) (NULL)
    assert _trends([1.0, nan, nan], "gte").matches == 3 + 3 + 1  # every subset is non-decreasing
    assert _trends([nan, 1.0], "gt").matches == 2  # 1 > NaN is false
    assert _trends([1.0, nan], "gt").matches == 3  # NaN > 1


def test_a_long_increasing_run_counts_every_subset():
    # 1..60 increasing: 2^60 - 1 runs, LAST(B.x) summed over them: sum j 2^(j-1)
    m = 60
    totals = _trends(list(range(1, m + 1)), measures=(MeasureRef(1, "last", 0),))
    assert totals.matches == 2**m - 1
    assert totals.measures[0] == MeasureTotals(2**m - 1, (m - 1) * 2**m + 1, 1, m)


def test_equality_with_an_earlier_variable():
    # A B C with C.u = A.u: per user, (#A before) x (#B between) x (#C after)
    types = "aabcbcc"
    users = ["x", "y", "x", "x", "y", "y", "x"]
    masks = [[t == v for t in types] for v in "abc"]
    comparison = RowComparison(2, 0, "eq", MeasureRef(0, "last", 0))
    engine, _ = trend_aggregate(spec_of(seq(L(0), L(1), L(2)), 3, ANY), masks, None, [users], (),
                                [comparison])
    # c@3 (x): a1 x b2 -> a@0 b@2: 1; c@5 (y): a@1, b@2 or b@4: 2; c@6 (x): a@0 with b@2 or b@4: 2
    assert engine.totals().matches == 5


def test_arrays_compare_element_by_element_with_null_first():
    arrays = [[1, None], [1, 2], [1], [1, 2, 0]]
    # the strictly increasing runs in Spark's order [1] < [1, NULL] < [1, 2] < [1, 2, 0]:
    # [1,NULL] [1,2] [1] [1,2,0] singletons; ([1,NULL],[1,2]) ([1,NULL],[1,2,0]) ([1,2],[1,2,0])
    # ([1],[1,2,0]) and ([1,NULL],[1,2],[1,2,0])
    assert _trends(arrays).matches == 4 + 4 + 1


def test_windows_and_negation_with_a_trend():
    # A B+ !N C WITHIN 3, B increasing
    types = "abbnbbc"
    masks = [[t == v for t in types] for v in "abnc"]
    keys = [0, 1, 1, 1, 2, 2, 2]
    xs = [0, 1, 2, 0, 3, 1, 0]
    spec = spec_of(seq(L(0), Q(1, 1), N(2), L(3)), 4, ANY, within=3)
    comparison = RowComparison(1, 0, "gt", MeasureRef(1, "last", 0), True)
    engine, _ = trend_aggregate(spec, masks, keys, [xs], (), [comparison], cuts=[3, 5])
    conds = [None, condition_of([comparison]), None, None]
    found, _ = oracle_run(spec, conds, masks, keys, [xs])
    assert engine.totals().matches == len(found) > 0


def test_step_budget():
    spec = spec_of(A_BPLUS_C, 3, ANY, max_steps=500)
    comparison = RowComparison(1, 0, "gt", MeasureRef(1, "last", 0), True)
    with pytest.raises(MatchRuntimeError) as info:
        trend_aggregate(spec, np.ones((3, 300), dtype=bool), None, [list(range(300))], (),
                        [comparison])
    assert info.value.code == "MATCH_BUDGET_EXCEEDED"



# -- order comparisons read from Fenwick trees (one slot, < <= > >= <>) -------------------------

ORDER_VALUES = [float(i) for i in range(-6, 7)] + [-0.0, float("nan"), float("inf"), None]


@st.composite
def order_cases(draw, operators=("lt", "lte", "gt", "gte", "neq"), derived=False):
    """One order comparison (the state's cells indexed by rank), values arriving block by block
    (new values re-rank them), NULLs, NaN and -0.0 among them. ``derived``: the compared row's
    side reads another column (``2 * x - 1`` of the tested side's, as ``B.x > LAST(2 * B.x - 1,
    1)`` would be lowered: one value column per side)."""
    spec, masks, keys, columns, measures, cuts = draw(cases())
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    n = len(masks[0])
    column = len(columns)
    values = [rnd.choice(ORDER_VALUES) for _ in range(n)]
    columns = tuple(columns) + (values, [None if v is None else 2 * v - 1 for v in values])
    positive, negated = _component_variables(spec.pattern)
    tested = [v for v in positive if v not in negated]
    if not tested:
        return None
    v = rnd.choice(tested)
    target = rnd.choice(positive[:positive.index(v) + 1])
    which = "last" if target == v else rnd.choice(["first", "last"])
    comparison = RowComparison(v, column, rnd.choice(operators),
                               MeasureRef(target, which, column + 1 if derived else column),
                               rnd.random() < 0.7)
    measures = measures + (MeasureRef(rnd.choice(positive), rnd.choice(["first", "last"]), column),)
    cuts = cuts + [rnd.randint(1, max(n - 1, 1)) for _ in range(rnd.randint(0, 3))]
    return spec, masks, keys, columns, measures, (comparison,), cuts


@settings(max_examples=examples(800), **SETTINGS)
@given(order_cases())
def test_order_comparisons_from_the_index_equal_the_oracle(case):
    if case is None:
        return
    spec, masks, keys, columns, measures, comparisons, cuts = case
    if not _small_enough(spec, masks):
        return
    # index_from=0: the cells of each state are read from its Fenwick trees from the first value
    engine, partial = trend_aggregate(spec, masks, keys, columns, measures, comparisons, cuts,
                                      index_from=0)
    assert engine._indexed or not any(v is not None for v in columns[-1])
    plain_columns = [plain(c) for c in columns]
    conds = conditions_for(spec, comparisons)
    found, _unmatched = oracle_run(spec, conds, masks, keys.tolist(), plain_columns)
    expected = [(rows, labels) for _end, rows, labels in found]
    event("matches: 0" if not expected else "matches: some")
    assert_same_totals(engine.totals(), reference_totals(expected, measures, plain_columns),
                       comparisons)
    for end, totals in partial:
        so_far = [(rows, labels) for rows, labels in expected if rows[-1] < end]
        assert_same_totals(totals, reference_totals(so_far, measures, plain_columns), end)


def test_a_rising_trend_over_many_distinct_values():
    # A B+ C, B rising, over a permutation of 0..299: the runs are the increasing subsequences;
    # counted here by the O(n^2) recurrence ending[j] = 1 + sum(ending[i] for i < j, x_i < x_j)
    rnd = random.Random(7)
    values = list(range(300))
    rnd.shuffle(values)
    ending = []
    for j, x in enumerate(values):
        ending.append(1 + sum(e for i, e in enumerate(ending) if values[i] < x))
    totals = _trends(values)
    assert totals.matches == sum(ending)
    assert totals.matches > 10**9


@settings(max_examples=examples(500), **SETTINGS)
@given(order_cases(operators=OPERATORS, derived=True))
def test_different_columns_on_both_sides_equal_the_oracle(case):
    # the counters are keyed by the compared row's column and looked up with the tested row's
    if case is None:
        return
    spec, masks, keys, columns, measures, comparisons, cuts = case
    if not _small_enough(spec, masks):
        return
    engine, _ = trend_aggregate(spec, masks, keys, columns, measures, comparisons, cuts,
                                index_from=random.Random(len(cuts)).choice([0, 48]))
    plain_columns = [plain(c) for c in columns]
    found, _unmatched = oracle_run(spec, conditions_for(spec, comparisons), masks, keys.tolist(),
                                   plain_columns)
    expected = [(rows, labels) for _end, rows, labels in found]
    event("matches: 0" if not expected else "matches: some")
    assert_same_totals(engine.totals(), reference_totals(expected, measures, plain_columns),
                       comparisons)
