"""The executor side of comparisons whose two sides have different Spark types, without Spark:
registration's ``_comparison_casts`` finds the common type Spark compares them in, and
``AggregationRunner`` casts both value columns to it before the counters see them. The numbers
are Spark's semantics written out here: a DECIMAL compared with a DOUBLE is cast to DOUBLE, so
``0.1 (DOUBLE) > 0.1 (DECIMAL(3,1))`` is false -- compared exactly, as Python would compare a
float with a Decimal, it is true (the float 0.1 is 0.1000000000000000055...). The Spark test
(``test_aggregation_spark.py``) checks mixed types against enumeration."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

import pyarrow as pa
import pytest

from sparkcep.compiler.rewrite import compile_statement
from sparkcep.evaluation.binding import Semantics
from sparkcep.runtime.aggregation_runner import AggregationRunner
from sparkcep.runtime.registration import _comparison_casts

QUERY = """SELECT p, COUNT(*) AS n FROM ev MATCH_RECOGNIZE (
  PARTITION BY p ORDER BY ts SKIP TILL ANY MATCH PATTERN (A B+)
  DEFINE A AS kind = 'a', B AS kind = 'b' AND B.x {op} A.d) GROUP BY p"""


def _fields(plan, computed, types: dict) -> dict:
    """Stand-ins for Spark's analysed fields of the input query: value column name -> type."""
    texts = {name: text for text, name in computed}
    def field(spark_type: str):
        return SimpleNamespace(dataType=SimpleNamespace(simpleString=lambda: spark_type))

    return {name: field(types[texts[name]]) for name in plan.value_columns}


def count(op: str, rows) -> int:
    compiled = compile_statement(QUERY.format(op=op)).matches[0]
    plan = compiled.plan
    types = {"(`x`)": "double", "(`d`)": "decimal(3,1)"}
    fields = _fields(plan, compiled.input_computed, types)
    plan = _comparison_casts(plan, fields, Semantics(ansi=True, time_zone="UTC"))
    (cast,) = plan.aggregation.casts
    assert (cast.left, cast.right, cast.common) == ("double", "decimal(3,1)", "double")
    schema = pa.schema([("p", pa.int64()), ("__sparkcep_g0", pa.int64())])
    runner = AggregationRunner(plan, schema)
    bits = {"a": 1, "b": 2}
    x_column = plan.value_columns[plan.aggregation.comparisons[0].column]
    d_column = plan.value_columns[plan.aggregation.comparisons[0].ref.column]
    batch = pa.record_batch({
        "p": pa.array([0] * len(rows), pa.int64()),
        "ts": pa.array(range(len(rows)), pa.int64()),
        plan.bitmask_columns[0]: pa.array([bits[k] for k, _, _ in rows], pa.int8()),
        x_column: pa.array([x for _, x, _ in rows], pa.float64()),
        d_column: pa.array([d for _, _, d in rows], pa.decimal128(3, 1)),
    })
    out = list(runner.feed(batch)) + list(runner.finish())
    return sum(row["__sparkcep_g0"] for b in out for row in b.to_pylist())


ROWS = [("a", None, Decimal("0.1")), ("b", 0.1, None), ("b", 0.2, None), ("b", 0.1, None)]


@pytest.mark.parametrize("op, matches", [
    # B rows compared in DOUBLE with CAST(0.1 AS DOUBLE) = 0.1: only 0.2 is above it
    (">", 1),  # (a 0.2)
    (">=", 7),  # every non-empty subset of the three Bs
    ("=", 3),  # (a b1) (a b3) (a b1 b3)
    ("<>", 1),
])
def test_a_decimal_compared_with_a_double_is_cast_to_double(op, matches):
    assert count(op, ROWS) == matches
