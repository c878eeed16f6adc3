"""The bounds the per-match sum counters keep for overflow (issue 13), without Spark.

Spark's SUM of a BIGINT column adds a match's rows in order, each addition checked (ANSI), so an
enumerated match raises when some *prefix* of its sum leaves BIGINT; a DECIMAL sum is checked
once, at the end. ``GroupedAggregationEngine.completed_sum_bounds`` must therefore give, over the
completed matches only, the least and greatest final sum and the least and greatest prefix sum.
The reference enumerates the matches with the brute-force oracle and adds each match's values
one by one (the SQL rule: NULLs skipped, in row order)."""

from __future__ import annotations

import random
from decimal import Context, Decimal, localcontext

from hypothesis import event, given, settings

from sparkcep.engines.sase.aggregation import MeasureRef

from tests.example_counts import examples
from .harness import ANY, L, Q, oracle_run, spec_of, seq
from .test_aggregation import SETTINGS, _small_enough, plain
from .test_grouped_aggregation import grouped_aggregate, grouped_cases
from .test_trend_aggregation import _component_variables, conditions_for

BIG = 2 ** 62
INT_VALUES = [None, BIG, -BIG, BIG - 1, 3, -7, 0]
DECIMAL_VALUES = [None, Decimal("6E+37"), Decimal("-6E+37"), Decimal("1.5"), Decimal("-0.25")]


def prefix_bounds(matches, ref: MeasureRef, columns):
    """(least sum, greatest sum, least prefix sum, greatest prefix sum) over ``matches``."""
    finals, prefixes = [], []
    for rows, labels in matches:
        total = None
        for row, label in zip(rows, labels):
            value = columns[ref.column][row]
            if label != ref.variable or value is None:
                continue
            with localcontext(Context(prec=400)):  # exact
                total = value if total is None else total + value
            prefixes.append(total)
        if total is not None:
            finals.append(total)
    if not finals:
        return None, None, None, None
    return min(finals), max(finals), min(prefixes), max(prefixes)


@settings(max_examples=examples(600), **SETTINGS)
@given(grouped_cases(sums=True, groups=False))
def test_completed_sum_bounds_equal_the_oracle(case):
    spec, masks, keys, columns, _measures, comparisons, group_keys, cuts = case
    if not _small_enough(spec, masks):
        event("skipped: too many partial matches for the brute force")
        return
    n = len(masks[0])
    rnd = random.Random(n * 7919 + len(columns))
    base = len(columns)
    columns = tuple(columns) + ([rnd.choice(INT_VALUES) for _ in range(n)],
                                [rnd.choice(DECIMAL_VALUES) for _ in range(n)])
    positive, _negated = _component_variables(spec.pattern)
    measures = tuple(MeasureRef(v, "sum", base + k) for v in sorted(positive) for k in (0, 1))
    engine = grouped_aggregate(spec, masks, keys, columns, measures, comparisons, group_keys, cuts)
    plain_columns = [plain(c) for c in columns]
    found, _ = oracle_run(spec, conditions_for(spec, comparisons), masks, keys.tolist(),
                          plain_columns)
    matches = [(rows, labels) for _end, rows, labels in found]
    for i, ref in enumerate(measures):
        want = prefix_bounds(matches, ref, plain_columns)
        assert engine.completed_sum_bounds(i) == want, (ref, want)
        if want[2] is not None and (want[2] < -2 ** 63 or want[3] > 2 ** 63 - 1):
            event("a completed match's prefix leaves BIGINT")
        if want[0] is not None and want[0] >= -2 ** 63 and want[3] > 2 ** 63 - 1 >= want[1]:
            event("only a prefix leaves BIGINT")


def test_a_prefix_overflow_of_a_completed_match_is_kept():
    # A B+ C over a b(2^62) b(2^62) b(-2^62) c: the match (a b1 b2 b3 c) sums to 2^62, but its
    # prefix b1 + b2 = 2^63 is outside BIGINT, which Spark's SUM raises on
    masks = [[True, False, False, False, False], [False, True, True, True, False],
             [False, False, False, False, True]]
    engine = grouped_aggregate(spec_of(seq(L(0), Q(1, 1), L(2)), 3, ANY), masks, None,
                               [[0, BIG, BIG, -BIG, 0]], [MeasureRef(1, "sum", 0)], (), ())
    lo, hi, prefix_lo, prefix_hi = engine.completed_sum_bounds(0)
    assert (lo, hi) == (-BIG, 2 * BIG)
    assert (prefix_lo, prefix_hi) == (-BIG, 2 * BIG)
    # the same rows without the final c: nothing completes, nothing to check
    engine = grouped_aggregate(spec_of(seq(L(0), Q(1, 1), L(2)), 3, ANY),
                               [m[:4] for m in masks], None, [[0, BIG, BIG, -BIG]],
                               [MeasureRef(1, "sum", 0)], (), ())
    assert engine.completed_sum_bounds(0) == (None, None, None, None)


def test_a_prefix_beyond_the_final_sums_is_seen():
    # a b(2^62) b(2^62) b(-2^62) c(... ) with B+ restricted to runs of three: the only completed
    # matches are of three Bs; their final sum 2^62 fits, their prefix 2^63 does not
    masks = [[True, False, False, False, False], [False, True, True, True, False],
             [False, False, False, False, True]]
    engine = grouped_aggregate(spec_of(seq(L(0), Q(1, 3, 3), L(2)), 3, ANY), masks, None,
                               [[0, BIG, BIG, -BIG, 0]], [MeasureRef(1, "sum", 0)], (), ())
    assert engine.completed_sum_bounds(0) == (BIG, BIG, BIG, 2 * BIG)
