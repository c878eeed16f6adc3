"""Overflow of per-match sums aggregated without enumerating the matches, on the executor side
without Spark (issue 13): ``AggregationRunner`` must raise what enumerate-then-aggregate raises,
or give what it gives. The expected values are Spark's rules written out by hand for each input:
a per-match ``SUM(B.x)`` of BIGINT values adds the match's B rows in order, each addition checked
with ANSI (so a prefix that leaves BIGINT raises even when the whole sum fits) and wrapping around
without it; of DECIMAL(p, s) values it is exact and then checked against DECIMAL(p + 10, s) (at
most 38 digits: NULL without ANSI). The outer SUM of BIGINT values wraps around without ANSI.
``test_aggregation_overflow_spark.py`` checks the same cases against enumeration on Spark."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pyarrow as pa
import pytest

from sparkcep.compiler.rewrite import compile_statement
from sparkcep.errors import MatchRuntimeError
from sparkcep.runtime.aggregation_runner import AggregationRunner

QUERY = """SELECT p, {outer} FROM ev MATCH_RECOGNIZE (
  PARTITION BY p ORDER BY ts MEASURES SUM(B.x) AS s SKIP TILL ANY MATCH PATTERN (A {b} C)
  DEFINE A AS kind = 'a', B AS kind = 'b', C AS kind = 'c') GROUP BY p"""

BIG = 2 ** 62
BITS = {"a": 1, "b": 2, "c": 4}


def run(rows, outer="COUNT(*), SUM(s), COUNT(s)", b="B+", decimal=False, ansi=True):
    """The pushed-down aggregation's output row over ``rows`` (kind, x) of one partition."""
    plan = compile_statement(QUERY.format(outer=outer, b=b)).matches[0].plan
    plan = dataclasses.replace(plan, aggregation=dataclasses.replace(plan.aggregation, ansi=ansi))
    value_type = pa.decimal128(38, 0) if decimal else pa.int64()
    outputs = []
    for output in plan.aggregation.outputs:
        if output.function in ("count_star", "count"):
            outputs.append(pa.int64())
        elif output.function == "avg":
            outputs.append(pa.decimal128(38, 4) if decimal else pa.float64())
        else:  # SUM of the per-match sums, and MIN/MAX: Spark's types
            outputs.append(value_type)
    schema = pa.schema([("p", pa.int64())] + [(f"__sparkcep_g{i}", t) for i, t in enumerate(outputs)])
    batch = pa.record_batch({
        "p": pa.array([0] * len(rows), pa.int64()),
        plan.bitmask_columns[0]: pa.array([BITS[k] for k, _ in rows], pa.int8()),
        plan.value_columns[0]: pa.array([x for _, x in rows], value_type),
    })
    runner = AggregationRunner(plan, schema)
    out = [r for b in list(runner.feed(batch)) + list(runner.finish()) for r in b.to_pylist()]
    return [tuple(r.values())[1:] for r in out]


def raised(**kwargs) -> str:
    with pytest.raises(MatchRuntimeError) as caught:
        run(**kwargs)
    return f"[{caught.value.code}] {caught.value.message}"


BIGINT_OVERFLOW = "[ARITHMETIC_OVERFLOW] '+' overflowed BIGINT in a DEFINE or MEASURES expression"


def test_a_match_whose_bigint_sum_overflows_raises_as_enumeration_does():
    # matches (b1) (b2) (b1 b2): the last sums to 2^63; enumeration raises, even for AVG (DOUBLE)
    rows = [("a", 0), ("b", BIG), ("b", BIG), ("c", 0)]
    assert raised(rows=rows, outer="AVG(s)") == BIGINT_OVERFLOW
    assert raised(rows=rows) == BIGINT_OVERFLOW


def test_only_a_prefix_overflowing_raises_and_the_order_of_the_rows_decides():
    # B{3}: the one match (b1 b2 b3) sums to 2^62; Spark adds in row order: 2^62 + 2^62 overflows
    assert raised(rows=[("a", 0), ("b", BIG), ("b", BIG), ("b", -BIG), ("c", 0)],
                  b="B{3}") == BIGINT_OVERFLOW
    # the same values in another order: prefixes -2^62, 0, 2^62 all fit
    assert run([("a", 0), ("b", -BIG), ("b", BIG), ("b", BIG), ("c", 0)], b="B{3}",
               outer="COUNT(*), SUM(s), AVG(s), COUNT(s)") == [(1, BIG, float(BIG), 1)]


def test_an_overflowing_partial_match_that_never_completes_is_not_an_error():
    # (b1) is the only match; b2 b3 sum to 2^63 but no C follows them
    assert run([("a", 0), ("b", 1), ("c", 0), ("b", BIG), ("b", BIG)]) == [(1, 1, 1)]


def test_without_ansi_bigint_sums_wrap_and_count_and_sum_follow():
    # per match 2^62, 2^62, wrap(2^63) = -2^63: COUNT 3, SUM wrap(2^64) = 0, COUNT(s) 3
    rows = [("a", 0), ("b", BIG), ("b", BIG), ("c", 0)]
    assert run(rows, ansi=False) == [(3, 0, 3)]
    # AVG/MIN/MAX of wrapped sums cannot be followed by the counters: a typed error
    message = raised(rows=rows, outer="AVG(s)", ansi=False)
    assert message.startswith("[AGGREGATE_OVERFLOW] the per-match sum s of some match wraps")
    assert raised(rows=rows, outer="MAX(s)", ansi=False).startswith("[AGGREGATE_OVERFLOW]")


def test_the_outer_sum_of_bigint_sums():
    # per match 2^62, 2^62 - 1, 2^63 - 1 (each fits); their SUM 2^64 - 2 does not
    rows = [("a", 0), ("b", BIG), ("b", BIG - 1), ("c", 0)]
    assert run(rows, outer="COUNT(*), MAX(s)") == [(3, 2 ** 63 - 1)]
    assert raised(rows=rows).startswith("[AGGREGATE_OVERFLOW] SUM over the matches")
    assert run(rows, ansi=False) == [(3, -2, 3)]  # Spark's SUM wraps without ANSI


SIX = Decimal("6E+37")


def test_a_decimal_sum_beyond_its_type_raises_as_enumeration_does():
    # DECIMAL(38, 0): the per-match sum is DECIMAL(38, 0) too; (b1 b2) sums to 1.2 * 10^38
    rows = [("a", Decimal(0)), ("b", SIX), ("b", SIX), ("c", Decimal(0))]
    assert raised(rows=rows, decimal=True, outer="MAX(s)") == (
        "[NUMERIC_VALUE_OUT_OF_RANGE] 120000000000000000000000000000000000000 cannot be "
        "represented as DECIMAL(38,0) in a DEFINE or MEASURES expression")
    # without ANSI that match's sum is NULL, which the counters cannot leave out: a typed error
    assert raised(rows=rows, decimal=True, ansi=False).startswith(
        "[AGGREGATE_OVERFLOW] the per-match sum s of some match is NULL")
    # sums that fit: exact
    rows = [("a", Decimal(0)), ("b", SIX), ("b", -SIX), ("c", Decimal(0))]
    assert run(rows, decimal=True, outer="COUNT(*), MAX(s), MIN(s)") == [(3, SIX, -SIX)]


def test_without_ansi_an_outer_decimal_sum_beyond_its_type_is_null():
    # per match 6e37, 6e37 - 1, 1.2e38 - 1 would not fit; use three single-row matches instead
    rows = [("a", Decimal(0)), ("b", SIX), ("c", Decimal(0)), ("b", SIX), ("c", Decimal(0))]
    # matches (b1 c1) (b1 c2) (b2 c2) each 6e37; the SUM 1.8e38 does not fit DECIMAL(38, 0)
    assert run(rows, decimal=True, b="B", ansi=False) == [(3, None, 3)]
    assert raised(rows=rows, decimal=True, b="B").startswith("[AGGREGATE_OVERFLOW] SUM")
