"""AggregationEngine: SKIP TILL ANY MATCH matches counted and aggregated without enumerating them.

Generated cases are checked against two independent references: the brute-force oracle
(``tests/sase/oracle.py``) and the enumerating engine (``make_sase_engine``, the postponing engine
for SKIP TILL ANY MATCH), both aggregated here match by match. Hand-worked examples and a count far
beyond enumeration (closed form) follow.
"""

from __future__ import annotations

import math
import random
from decimal import Context, Decimal, localcontext

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.contract import RowBlock
from sparkcep.engines.sase.aggregation import (
    AggregateTotals,
    AggregationEngine,
    MeasureRef,
    MeasureTotals,
    aggregation_unsupported_reason,
)
from sparkcep.engines.spec import RowsPerMatch, SkipMode
from sparkcep.errors import MatchRuntimeError

from tests.example_counts import examples
from .harness import ANY, NEXT, L, N, Q, oracle_run, run_engine, seq, spec_of

SETTINGS = dict(deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))
ORACLE_WORK_LIMIT = 3000  # skip the brute-force references beyond this many (negation-free) matches


# -- references: aggregate a list of matches one by one ---------------------------------------


def _nan(x) -> bool:
    return isinstance(x, float) and x != x


def _spark_order(x):
    return (1, 0) if _nan(x) else (0, x)


def measure_value(ref: MeasureRef, rows, labels, columns):
    selected = [r for r, v in zip(rows, labels) if v == ref.variable]
    if not selected:
        return None
    return columns[ref.column][selected[0] if ref.which == "first" else selected[-1]]


def measure_totals(values) -> MeasureTotals:
    """COUNT, SUM, MIN and MAX of one measure's values over the matches, by the SQL rules: NULLs
    skipped, NaN the greatest value, sums exact."""
    values = [v for v in values if v is not None]
    if not values:
        return MeasureTotals(0, None, None, None)
    numeric = all(isinstance(v, (int, float, Decimal)) and not isinstance(v, bool)
                  for v in values)
    with localcontext(Context(prec=400)):
        total = sum(values) if numeric else None
    return MeasureTotals(len(values), total, min(values, key=_spark_order),
                         max(values, key=_spark_order))


def reference_totals(matches, measures, columns) -> AggregateTotals:
    """``matches``: (rows, labels) pairs; the totals computed match by match."""
    return AggregateTotals(len(matches), tuple(
        measure_totals(measure_value(ref, rows, labels, columns) for rows, labels in matches)
        for ref in measures))


def same_value(a, b) -> bool:
    if _nan(a) or _nan(b):
        return _nan(a) and _nan(b)
    return type(a) is type(b) and a == b


def assert_same_totals(got: AggregateTotals, want: AggregateTotals, context=None) -> None:
    assert got.matches == want.matches, context
    assert len(got.measures) == len(want.measures), context
    for i, (g, w) in enumerate(zip(got.measures, want.measures)):
        assert g.non_null == w.non_null, (context, i, g, w)
        for field in ("total", "minimum", "maximum"):
            assert same_value(getattr(g, field), getattr(w, field)), (context, i, field, g, w)


def plain(column) -> list:
    return column.tolist() if isinstance(column, np.ndarray) else list(column)


# -- driving the engine ---------------------------------------------------------------------


def block_of(masks, keys, columns, a, b) -> RowBlock:
    masks = np.asarray(masks, dtype=bool).reshape(len(masks), -1)
    return RowBlock(
        masks[:, a:b],
        tuple(c[a:b] for c in columns),
        None if keys is None else np.asarray(keys)[a:b],
    )


def aggregate(spec, masks, keys, columns=(), measures=(), cuts=()):
    """Feed the rows in blocks split at ``cuts``; return the engine and the totals after each
    block (with the block's end row)."""
    n = np.asarray(masks).reshape(len(masks), -1).shape[1]
    bounds = [0, *sorted({c for c in cuts if 0 < c < n}), n]
    engine = AggregationEngine(spec, tuple(measures))
    partial = []
    for a, b in zip(bounds, bounds[1:]):
        engine.feed(block_of(masks, keys, columns, a, b))
        partial.append((b, engine.totals()))
    return engine, partial


# -- generated cases --------------------------------------------------------------------------

QUANTS = [(1, 1), (1, 1), (1, None), (0, None), (0, 1), (1, 2), (2, 3), (0, 2), (2, None), (3, 3)]
FLOATS = [0.25 * i for i in range(-8, 9)] + [float("nan"), float("inf"), -float("inf")]
DECIMALS = [Decimal("0.01") * i for i in range(-50, 51, 7)] + [Decimal("12345678901234567890.5")]


@st.composite
def cases(draw, nan_keys: bool = False):
    n_comps = draw(st.integers(1, 4))
    comps = [draw(st.sampled_from(QUANTS)) for _ in range(n_comps)]
    if all(lo == 0 for lo, _hi in comps):
        comps[0] = (1, comps[0][1])
    n_vars = n_comps
    items = []
    for i, (lo, hi) in enumerate(comps):
        if any(c[0] > 0 for c in comps[:i]) and any(c[0] > 0 for c in comps[i:]):
            for _ in range(draw(st.sampled_from([0, 0, 0, 1, 1, 2]))):
                if draw(st.booleans()):
                    items.append(N(n_vars))
                    n_vars += 1
                else:
                    items.append(N(draw(st.integers(0, n_comps - 1))))
        items.append(L(i) if (lo, hi) == (1, 1) else Q(i, lo, hi))
    pattern = items[0] if len(items) == 1 else seq(*items)
    # the rows: from one drawn seed (drawing each bit through hypothesis is ten times slower)
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    n = rnd.choice([0, 1, 2, 3] + list(range(6, 13)) * 2)
    masks = []
    for v in range(n_vars):
        density = rnd.choice([0.4, 0.6, 0.8, 0.9] if v < n_comps else [0.1, 0.25])
        masks.append([rnd.random() < density for _ in range(n)])
    keys = np.cumsum([rnd.choice([0, 0, 1, 1, 1, 2]) for _ in range(n)]).astype(np.int64)
    if rnd.random() < 0.5:
        keys = keys * 0.5 + 0.25
    if nan_keys and n:
        keys = keys.astype(np.float64)
        keys[[rnd.randrange(n) for _ in range(rnd.randint(0, 3))]] = np.nan
    within = draw(st.sampled_from([None, None, 1, 2, 3, 4, 6, 2.5]))

    def sometimes_none(menu):
        return [None if rnd.random() < 0.2 else rnd.choice(menu) for _ in range(n)]

    ints = np.asarray([rnd.randint(-10**12, 10**12) for _ in range(n)], dtype=np.int64)
    columns = (ints, sometimes_none(FLOATS), sometimes_none(DECIMALS), sometimes_none("abcxyz"))
    measures = draw(st.lists(
        st.builds(MeasureRef, st.integers(0, n_vars), st.sampled_from(["first", "last"]),
                  st.integers(0, len(columns) - 1)),
        max_size=3))
    cuts = [rnd.randint(1, max(n - 1, 1)) for _ in range(rnd.randint(0, 4))]
    spec = spec_of(pattern, n_vars + 1, ANY, within)  # one more variable: in no pattern element
    masks.append([False] * n)
    return spec, masks, keys, columns, tuple(measures), cuts


def _negation_free(spec):
    """The pattern without its negations and WITHIN: its count bounds the oracle's work."""
    p = spec.pattern
    if isinstance(p, rp.Concat):
        items = tuple(i for i in p.items if not isinstance(i, rp.Negation))
        p = items[0] if len(items) == 1 else rp.Concat(items)
    return spec_of(p, len(spec.variable_names), ANY)


def _bucket(n: int) -> str:
    return "0" if n == 0 else "1-9" if n < 10 else "10-99" if n < 100 else ">=100"


def _small_enough(spec, masks) -> bool:
    engine, _ = aggregate(_negation_free(spec), masks, None)
    return engine.totals().matches <= ORACLE_WORK_LIMIT


@settings(max_examples=examples(4000), **SETTINGS)
@given(cases())
def test_totals_equal_the_oracle_and_the_enumerating_engine(case):
    spec, masks, keys, columns, measures, cuts = case
    assert aggregation_unsupported_reason(spec, False) is None
    if not _small_enough(spec, masks):
        event("skipped: too many partial matches for the brute force")
        return
    engine, partial = aggregate(spec, masks, keys, columns, measures, cuts)
    plain_columns = [plain(c) for c in columns]
    # (a) the brute-force oracle
    found, _unmatched = oracle_run(spec, [None] * len(spec.variable_names), masks, keys.tolist())
    expected = [(rows, labels) for _end, rows, labels in found]
    assert_same_totals(engine.totals(), reference_totals(expected, measures, plain_columns),
                       "oracle")
    event(f"matches: {_bucket(len(expected))}")
    event("negation" if "!" in spec.pattern_text() else "no negation")
    event("WITHIN" if spec.within is not None else "no WITHIN")
    # (b) the enumerating engine (postponing, SKIP TILL ANY MATCH), over the same blocks
    matches, _, _ = run_engine(spec, None, masks, keys, (), cuts)
    enumerated = [(m.rows, m.labels) for m in matches]
    assert_same_totals(engine.totals(), reference_totals(enumerated, measures, plain_columns),
                       "engine")
    # totals() between blocks: the matches whose last row was fed
    for end, totals in partial:
        so_far = [(rows, labels) for rows, labels in expected if rows[-1] < end]
        assert_same_totals(totals, reference_totals(so_far, measures, plain_columns), end)


@settings(max_examples=examples(1200), **SETTINGS)
@given(cases(nan_keys=True))
def test_a_row_with_a_nan_key_lies_in_no_window(case):
    spec, masks, keys, columns, measures, cuts = case
    if spec.within is None or not _small_enough(spec, masks):
        return
    engine, _ = aggregate(spec, masks, keys, columns, measures, cuts)
    found, _unmatched = oracle_run(spec, [None] * len(spec.variable_names), masks, keys.tolist())
    # the oracle compares NaN keys as numbers; the documented rule drops every match that selects
    # a NaN-keyed row (such rows still count as rows between, for negations)
    expected = [(rows, labels) for _end, rows, labels in found
                if not any(math.isnan(keys[r]) for r in rows)]
    plain_columns = [plain(c) for c in columns]
    assert_same_totals(engine.totals(), reference_totals(expected, measures, plain_columns))


# -- hand-worked examples ---------------------------------------------------------------------


def masks_from_types(types: str, letters: str):
    return [[t == x for t in types] for x in letters]


def test_semantics_md_example_six_matches():
    # PATTERN (A B+ C) WITHIN 10 over a1:1 a2:2 b1:5 b2:6 c1:7 (docs/semantics.md)
    spec = spec_of(seq(L(0), Q(1, 1), L(2)), 3, ANY, within=10)
    values = [10, 20, 30, 40, 50]
    measures = (MeasureRef(1, "first", 0), MeasureRef(1, "last", 0), MeasureRef(0, "first", 0))
    engine, _ = aggregate(spec, masks_from_types("aabbc", "abc"), [1, 2, 5, 6, 7], [values],
                          measures, cuts=[3])
    # (a1 b1 c1) (a1 b2 c1) (a1 b1 b2 c1) (a2 b1 c1) (a2 b2 c1) (a2 b1 b2 c1)
    assert engine.totals() == AggregateTotals(6, (
        MeasureTotals(6, 2 * (30 + 40 + 30), 30, 40),  # FIRST(B.x)
        MeasureTotals(6, 2 * (30 + 40 + 40), 30, 40),  # LAST(B.x)
        MeasureTotals(6, 3 * 10 + 3 * 20, 10, 20),  # A.x
    ))
    # WITHIN 6: a1 (1) .. c1 (7) spans 6, not < 6: only a2's three matches
    engine, _ = aggregate(spec_of(spec.pattern, 3, ANY, within=6), masks_from_types("aabbc", "abc"),
                          [1, 2, 5, 6, 7])
    assert engine.totals().matches == 3


def test_a_seq_figure_3_1_four_matches():
    # A-Seq (Qi, WPI 2013), Fig. 3.1: (A, B, C) over a1 b1 c1 a2 b2 c2 -> 4 matches
    spec = spec_of(seq(L(0), L(1), L(2)), 3, ANY)
    engine, _ = aggregate(spec, masks_from_types("abcabc", "abc"), None, cuts=[1, 4])
    assert engine.totals().matches == 4


def test_a_seq_recounting_rule_example():
    # (A, B, !C, D) over a1 b1 c1 a2 b2 d1: c1 lies between b1 and d1, so (a1 b1 d1) is out;
    # (a1 b2 d1) and (a2 b2 d1) remain (A-Seq Example 5: d1 outputs 2)
    spec = spec_of(seq(L(0), L(1), N(2), L(3)), 4, ANY)
    engine, _ = aggregate(spec, masks_from_types("abcabd", "abcd"), None)
    assert engine.totals().matches == 2


def test_first_b_after_a():
    # A !B B: the first B after each A -- a1 b1 b2 a2 b3 gives (a1 b1), (a2 b3)
    spec = spec_of(seq(L(0), N(1), L(1)), 2, ANY)
    engine, _ = aggregate(spec, masks_from_types("abbab", "ab"), None, [[1, 2, 3, 4, 5]],
                          (MeasureRef(1, "last", 0),))
    assert engine.totals() == AggregateTotals(1 + 1, (MeasureTotals(2, 2 + 5, 2, 5),))


def test_a_negation_beyond_an_optional_component():
    # A B? !N C: the gap runs from the last row before C (B's, or A's when B took none) to C.
    # Over a1 b n c1 a2 c2, (a1 c1) (a1 b c1) (a1 c2) (a1 b c2) all hold n in their gap; (a2 c2)
    # is clean
    spec = spec_of(seq(L(0), Q(1, 0, 1), N(2), L(3)), 4, ANY)
    engine, _ = aggregate(spec, masks_from_types("abncac", "abnc"), None)
    assert engine.totals().matches == 1
    engine, _ = aggregate(spec, masks_from_types("anbc", "abnc"), None)
    assert engine.totals().matches == 1  # (a b c): the gap b..c is clean; (a c) is not


# -- exact big integers ---------------------------------------------------------------------


def test_a_count_no_engine_could_enumerate():
    # A B+ C over n A rows, then m B rows, then k C rows: every A, every non-empty subset of the
    # Bs, every C -- n * (2^m - 1) * k matches (here about 1.3e36)
    n, m, k = 1000, 100, 1000
    masks = [[True] * n + [False] * (m + k), [False] * n + [True] * m + [False] * k,
             [False] * (n + m) + [True] * k]
    a_values = list(range(1, n + 1)) + [0] * (m + k)
    b_values = [0] * n + list(range(1, m + 1)) + [0] * k
    measures = (MeasureRef(0, "first", 0), MeasureRef(1, "last", 1), MeasureRef(1, "first", 1))
    spec = spec_of(seq(L(0), Q(1, 1), L(2)), 3, ANY)
    engine, _ = aggregate(spec, masks, None, [np.asarray(a_values), b_values], measures,
                          cuts=range(0, n + m + k, 333))
    totals = engine.totals()
    matches = n * (2**m - 1) * k
    assert totals.matches == matches and matches > 10**36
    a, last_b, first_b = totals.measures
    # A.x: each A value in (2^m - 1) * k matches
    assert a == MeasureTotals(matches, n * (n + 1) // 2 * (2**m - 1) * k, 1, n)
    # LAST(B.x) = j in the 2^(j-1) subsets whose largest is the j-th B:
    # sum j 2^(j-1) = (m-1) 2^m + 1
    assert last_b == MeasureTotals(matches, n * k * ((m - 1) * 2**m + 1), 1, m)
    # FIRST(B.x) = j in the 2^(m-j) subsets whose smallest is the j-th B:
    # sum j 2^(m-j) = 2^(m+1) - m - 2
    assert first_b == MeasureTotals(matches, n * k * (2 ** (m + 1) - m - 2), 1, m)


def test_windows_keep_one_counter_per_start_row():
    # two bursts far apart, each n A, m B, k C at keys 0, 1, 2 (+ 100): WITHIN 3 holds each burst
    n, m, k = 50, 60, 40
    types = "a" * n + "b" * m + "c" * k
    keys = [0] * n + [1] * m + [2] * k
    spec = spec_of(seq(L(0), Q(1, 1), L(2)), 3, ANY, within=3)
    engine, _ = aggregate(spec, masks_from_types(types * 2, "abc"),
                          keys + [x + 100 for x in keys], cuts=[70, 250, 251])
    assert engine.totals().matches == 2 * n * (2**m - 1) * k
    assert engine.live_vectors == 1  # one start key (100) alive: the first burst has expired
    # WITHIN 2: a (key 0) .. c (key 2) spans 2: nothing
    engine, _ = aggregate(spec_of(spec.pattern, 3, ANY, within=2),
                          masks_from_types(types * 2, "abc"), keys + [x + 100 for x in keys])
    assert engine.totals().matches == 0


def test_float_and_decimal_totals_over_huge_counts():
    # 2^1100 - 1 matches: a float total overflows to inf, a Decimal total stays exact (334 digits)
    m = 1100
    masks = [[True] + [False] * (m + 1), [False] + [True] * m + [False], [False] * (m + 1) + [True]]
    floats = [1.5] + [None] * (m + 1)
    decimals = [Decimal("2.5")] + [None] * (m + 1)
    spec = spec_of(seq(L(0), Q(1, 1), L(2)), 3, ANY)
    measures = (MeasureRef(0, "first", 0), MeasureRef(0, "last", 1), MeasureRef(2, "last", 0))
    engine, _ = aggregate(spec, masks, None, [floats, decimals], measures)
    count = 2**m - 1
    f, d, none = engine.totals().measures
    assert f.non_null == count and f.total == math.inf and f.minimum == f.maximum == 1.5
    assert isinstance(d.total, Decimal) and d.total == Decimal(f"{25 * count}E-1")
    assert d.non_null == count and d.minimum == d.maximum == Decimal("2.5")
    assert none == MeasureTotals(0, None, None, None)


# -- budgets and refusals --------------------------------------------------------------------


def test_tiny_step_budget_raises_match_budget_exceeded():
    spec = spec_of(seq(L(0), Q(1, 1), L(2)), 3, ANY, max_steps=100)
    with pytest.raises(MatchRuntimeError) as info:
        aggregate(spec, np.ones((3, 200), dtype=bool), None)
    assert info.value.code == "MATCH_BUDGET_EXCEEDED"
    assert "100 engine steps" in info.value.message
    assert "spark.sparkcep.maxSteps" in info.value.message and "A B+ C" in info.value.message


def test_live_start_rows_budget():
    spec = spec_of(seq(L(0), Q(1, 1), L(2)), 3, ANY, within=1000, max_live_runs=50)
    with pytest.raises(MatchRuntimeError) as info:
        aggregate(spec, np.ones((3, 200), dtype=bool), np.arange(200))
    assert info.value.code == "MATCH_BUDGET_EXCEEDED"
    assert "spark.sparkcep.maxLiveRuns" in info.value.message


PLAIN = seq(L(0), Q(1, 1), L(2))


@pytest.mark.parametrize("spec, has_conditions, fragment", [
    (spec_of(rp.Alternation((L(0), L(1))), 2, ANY), False, "alternation"),
    (spec_of(seq(L(0), L(0)), 1, ANY), False, "only once"),
    (spec_of(seq(N(1), L(0)), 2, ANY), False, "leading negation"),
    (spec_of(PLAIN, 3, ANY, skip=SkipMode.TO_FIRST, skip_to=frozenset([1])), False, "TO FIRST"),
    (spec_of(PLAIN, 3, ANY), True, "match-dependent"),
    (spec_of(PLAIN, 3, ANY, rows_per_match=RowsPerMatch.ALL_SHOW_EMPTY), False, "ALL ROWS"),
])
def test_refusals(spec, has_conditions, fragment):
    reason = aggregation_unsupported_reason(spec, has_conditions)
    assert reason is not None and fragment in reason


def test_skip_till_next_match_is_counted_with_and_without_within():
    # tests/sase/test_next_aggregation.py and test_keyless_rows.py check its totals
    for within in (None, 5):
        assert aggregation_unsupported_reason(spec_of(PLAIN, 3, NEXT, within=within), False) is None


@pytest.mark.parametrize("skip", [SkipMode.PAST_LAST_ROW, SkipMode.TO_NEXT_ROW])
def test_after_match_skip_changes_nothing(skip):
    spec = spec_of(PLAIN, 3, ANY, within=10, skip=skip)
    assert aggregation_unsupported_reason(spec, False) is None
    engine, _ = aggregate(spec, masks_from_types("aabbc", "abc"), [1, 2, 5, 6, 7])
    matches, _, _ = run_engine(spec, None, masks_from_types("aabbc", "abc"), [1, 2, 5, 6, 7])
    assert engine.totals().matches == len(matches) == 6
