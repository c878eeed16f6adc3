"""Running one partition of a pushed-down aggregation: Arrow batches in, at most one row out.

When the outer query only aggregates a clause's matches (``sparkcep.compiler.aggregation_pushdown``),
the function feeds the partition's rows to the aggregation engine
(``sparkcep.engines.sase.aggregation``; ``trend_aggregation`` when DEFINE compares rows of the
match; ``grouped_aggregation`` with GROUP BY buckets or per-match sums, one output row per
bucket; ``next_aggregation`` under SKIP TILL NEXT MATCH), which keeps prefix counters instead of
matches, and at the end of the partition outputs one row: the partition's key and, per output column, the number
of matches or an aggregate of a measure over them, in the type Spark gives the same aggregate. A
partition without matches outputs nothing, as its group would not exist in the enumerated result.
A per-match ``SUM(B.x)`` that enumeration would find overflowing raises the error enumeration
raises (``_check_per_match_sums``), from the exact bounds the counters keep.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Iterator

import pyarrow as pa

from sparkcep.engines.contract import RowBlock
from sparkcep.engines.sase.aggregation import AggregationEngine, AggregateTotals, MeasureRef
from sparkcep.engines.sase.grouped_aggregation import GroupedAggregationEngine
from sparkcep.engines.sase.next_aggregation import NextMatchAggregationEngine
from sparkcep.engines.sase.trend_aggregation import RowComparison, TrendAggregationEngine
from sparkcep.engines.spec import Strategy
from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation import sql_types
from sparkcep.evaluation.explicit_casts import explicit_cast
from sparkcep.evaluation.operators import cast
from sparkcep.plan.match_plan import MatchPlan
from sparkcep.runtime.partition_runner import decode_masks
from sparkcep.runtime.within_keys import block_order_key

_WIDE = Context(prec=200)
_BIGINT = (-(2 ** 63), 2 ** 63 - 1)


class AggregationRunner:
    """Aggregates one partition's matches. Feed batches in order; call ``finish`` once."""

    def __init__(self, plan: MatchPlan, output_schema: pa.Schema) -> None:
        self.plan = plan
        self.schema = output_schema
        self.aggregation = plan.aggregation
        # (source column, converter) of each column appended to the value columns: a comparison
        # side cast to the type Spark compares it in (``AggregationPlan.casts``)
        self.conversions: list[tuple[int, object]] = []
        comparisons = self._typed_comparisons()
        if self.aggregation.grouped:
            self.engine = GroupedAggregationEngine(plan.spec, self.aggregation.measures,
                                                   comparisons, self.aggregation.keys)
        elif comparisons:
            self.engine = TrendAggregationEngine(plan.spec, self.aggregation.measures, comparisons)
        elif plan.spec.strategy is Strategy.SKIP_TILL_NEXT_MATCH:
            self.engine = NextMatchAggregationEngine(plan.spec, self.aggregation.measures)
        else:
            self.engine = AggregationEngine(plan.spec, self.aggregation.measures)
        self.read_columns = sorted({m.column for m in self.aggregation.measures}
                                   | {c.column for c in self.aggregation.comparisons}
                                   | {c.ref.column for c in self.aggregation.comparisons}
                                   | {k.column for k in self.aggregation.keys})
        self.partition_values: dict[str, object] | None = None
        self.value_types: dict[int, pa.DataType] = {}  # value column -> its Arrow type

    def _typed_comparisons(self) -> tuple[RowComparison, ...]:
        """The comparisons as the engine reads them: a side whose type differs from the common
        type reads a converted copy of its column (other readers of the column keep its values)."""
        aggregation = self.aggregation
        casts = aggregation.casts or (None,) * len(aggregation.comparisons)
        found = []
        for comparison, types in zip(aggregation.comparisons, casts):
            if types is None:
                found.append(comparison)
                continue
            common = sql_types.parse(types.common)
            left = self._converted(comparison.column, types.left, common, types)
            ref = comparison.ref
            right = self._converted(ref.column, types.right, common, types)
            found.append(RowComparison(comparison.variable, left, comparison.op,
                                       MeasureRef(ref.variable, ref.which, right),
                                       comparison.holds_when_null))
        return tuple(found)

    def _converted(self, column: int, source: str, target, types) -> int:
        source_type = sql_types.parse(source)
        if source_type == target:
            return column
        if source_type.name == "string":  # parsed as Spark's implicit cast does (binding.string_coercion)
            convert = explicit_cast(source_type, target, types.ansi, types.time_zone)
        else:
            convert = cast(source_type, target, types.ansi, types.time_zone)
        self.conversions.append((column, convert))
        return len(self.plan.value_columns) + len(self.conversions) - 1

    def feed(self, batch: pa.RecordBatch) -> Iterator[pa.RecordBatch]:
        if batch.num_rows == 0:
            return
        if self.partition_values is None:
            self.partition_values = {
                name: batch.column(name)[0].as_py() for name in self.plan.passthrough_columns
            }
            for column in self.read_columns:
                self.value_types[column] = batch.schema.field(self.plan.value_columns[column]).type
        masks, packed = decode_masks(self.plan, batch)
        columns: list = [None] * (len(self.plan.value_columns) + len(self.conversions))
        for column in self.read_columns:
            columns[column] = batch.column(self.plan.value_columns[column]).to_pylist()
        for index, (column, convert) in enumerate(self.conversions, len(self.plan.value_columns)):
            columns[index] = [None if v is None else convert(v) for v in columns[column]]
        order_key, packed = block_order_key(batch, self.plan.order_key_column,
                                            self.plan.order_key_descending, masks, packed)
        self.engine.feed(RowBlock(masks=masks, columns=tuple(columns), order_key=order_key, codes=packed))
        yield from ()

    def finish(self) -> Iterator[pa.RecordBatch]:
        """One row per group with matches (a group: the partition, or with GROUP BY buckets one
        bucket of it), one batch each."""
        ansi = self.aggregation.ansi
        if isinstance(self.engine, GroupedAggregationEngine):
            _check_per_match_sums(self.engine, self.aggregation, self.value_types)
            groups = self.engine.group_totals()
        else:
            groups = [self.engine.totals()]
        for totals in groups:
            if totals.matches == 0:
                continue
            values = dict(self.partition_values or {})
            arrays = [pa.array([values.get(name)], type=self.schema.field(name).type)
                      for name in self.plan.passthrough_columns]
            first_output = len(self.plan.passthrough_columns)
            for index, output in enumerate(self.aggregation.outputs):
                arrow_type = self.schema.field(first_output + index).type
                value = _output_value(output.function, output.measure, totals, arrow_type, ansi)
                arrays.append(pa.array([value], type=arrow_type))
            yield pa.RecordBatch.from_arrays(arrays, schema=self.schema)


class SharedAggregationRunner:
    """Several clauses' aggregations over the same partition's rows in one pass
    (``sparkcep.compiler.shared_pass``): every batch goes to each branch's runner; at the end,
    one row per branch with matches: the partition key, the branch number, that branch's
    aggregates (the other branches' columns NULL)."""

    def __init__(self, plans, schemas, output_schema: pa.Schema) -> None:
        self.runners = [AggregationRunner(plan, schema) for plan, schema in zip(plans, schemas)]
        self.schema = output_schema
        self.keys = len(plans[0].passthrough_columns)

    def feed(self, batch: pa.RecordBatch) -> Iterator[pa.RecordBatch]:
        for runner in self.runners:
            yield from runner.feed(batch)

    def finish(self) -> Iterator[pa.RecordBatch]:
        first_output = self.keys + 1
        for number, runner in enumerate(self.runners):
            for row in runner.finish():
                arrays = [None] * len(self.schema)
                for i in range(self.keys):
                    arrays[i] = row.column(i)
                arrays[self.keys] = pa.array([number], type=pa.int32())
                start = first_output + sum(len(r.aggregation.outputs)
                                           for r in self.runners[:number])
                for j in range(len(runner.aggregation.outputs)):
                    arrays[start + j] = row.column(self.keys + j)
                for i, array in enumerate(arrays):
                    if array is None:
                        arrays[i] = pa.nulls(1, type=self.schema.field(i).type)
                yield pa.RecordBatch.from_arrays(arrays, schema=self.schema)


def _check_per_match_sums(engine: GroupedAggregationEngine, aggregation, value_types) -> None:
    """Raise what enumerating the matches raises when a per-match ``SUM(B.x)`` of a completed
    match overflows its type, from the exact bounds the counters keep
    (``GroupedAggregationEngine.completed_sum_bounds``).

    The enumerating path computes the measure per match as Spark's SUM does
    (``sparkcep.evaluation.interpreter.typed_aggregate``): integers in BIGINT, each addition
    checked, so with ANSI some *prefix* of the match's non-null values outside BIGINT raises
    ``ARITHMETIC_OVERFLOW``; decimals exactly, the final sum then checked against DECIMAL(p + 10,
    s) (at most 38 digits), raising ``NUMERIC_VALUE_OUT_OF_RANGE``. Without ANSI each such match's
    sum wraps around (BIGINT) or is NULL (DECIMAL) instead: the counters cannot follow that for
    one match among many, so the aggregate is refused with ``AGGREGATE_OVERFLOW`` then, except
    COUNT and SUM of BIGINT sums (wrap-around is addition modulo 2^64, so COUNT is unchanged and
    the outer SUM, which wraps too, is the exact total wrapped)."""
    ansi = aggregation.ansi
    for i, measure in enumerate(aggregation.measures):
        if measure.which != "sum" or measure.column not in value_types:
            continue
        value_type = value_types[measure.column]
        lo, hi, prefix_lo, prefix_hi = engine.completed_sum_bounds(i)
        if lo is None:
            continue
        if pa.types.is_integer(value_type):
            if ansi:
                if prefix_lo < _BIGINT[0] or prefix_hi > _BIGINT[1]:
                    raise MatchRuntimeError(
                        "ARITHMETIC_OVERFLOW",
                        "'+' overflowed BIGINT in a DEFINE or MEASURES expression")
                continue
            if lo >= _BIGINT[0] and hi <= _BIGINT[1]:
                continue
            exact = ("count", "sum")
            what = "wraps around in BIGINT"
        elif pa.types.is_decimal(value_type):
            precision = min(38, value_type.precision + 10)
            bound = Decimal(10) ** (precision - value_type.scale)
            if -bound < lo and hi < bound:
                continue
            type_name = f"DECIMAL({precision},{value_type.scale})"
            if ansi:
                value = hi if hi >= bound else lo
                raise MatchRuntimeError(
                    "NUMERIC_VALUE_OUT_OF_RANGE",
                    f"{value} cannot be represented as {type_name} in a DEFINE or MEASURES expression")
            exact = ()
            what = f"is NULL (it does not fit {type_name})"
        else:
            continue
        if any(o.measure == i and o.function not in exact for o in aggregation.outputs):
            name = aggregation.measure_names[i] if i < len(aggregation.measure_names) else "SUM"
            raise MatchRuntimeError(
                "AGGREGATE_OVERFLOW",
                f"the per-match sum {name} of some match {what} with spark.sql.ansi.enabled "
                "false, which aggregating without enumerating the matches cannot follow; read "
                "the clause through SELECT * to enumerate the matches")


def _output_value(function: str, measure: int | None, totals: AggregateTotals,
                  arrow_type: pa.DataType, ansi: bool = True):
    """One output column's value: Spark's result of the aggregate over the partition's matches.
    Without ANSI, a SUM outside BIGINT wraps around and a DECIMAL SUM or AVG outside its type is
    NULL, as Spark's are; with it, either is ``AGGREGATE_OVERFLOW``."""
    if function == "count_star":
        return _bigint(totals.matches, "COUNT(*)")
    result = totals.measures[measure]
    if function == "count":
        return _bigint(result.non_null, "COUNT")
    if function in ("min", "max"):
        value = result.minimum if function == "min" else result.maximum
        return None if value is None else _typed(value, arrow_type, function.upper())
    if result.non_null == 0 or result.total is None:
        return None
    if function == "sum":
        if not ansi and pa.types.is_integer(arrow_type):
            return (int(result.total) - _BIGINT[0]) % 2 ** 64 + _BIGINT[0]
        return _typed(result.total, arrow_type, "SUM", ansi)
    # avg: the exact mean, rounded once to the result type (Spark: DECIMAL(p+4, s+4) or DOUBLE)
    if pa.types.is_decimal(arrow_type):
        mean = _WIDE.divide(Decimal(result.total), Decimal(result.non_null))
        return _typed(mean, arrow_type, "AVG", ansi)
    if isinstance(result.total, int):
        return result.total / result.non_null  # correctly rounded
    return float(result.total) / result.non_null


def _typed(value, arrow_type: pa.DataType, name: str, ansi: bool = True):
    """``value`` in ``arrow_type``; a value outside it is a typed error (never a wrapped number),
    a DECIMAL one NULL without ANSI."""
    if pa.types.is_decimal(arrow_type):
        quantum = Decimal(1).scaleb(-arrow_type.scale)
        rounded = Decimal(value).quantize(quantum, rounding=ROUND_HALF_UP, context=_WIDE)
        if abs(rounded) >= Decimal(10) ** (arrow_type.precision - arrow_type.scale):
            if not ansi:
                return None
            raise _overflow(name, f"DECIMAL({arrow_type.precision},{arrow_type.scale})")
        return rounded
    if pa.types.is_integer(arrow_type):
        return _bigint(int(value), name)
    if pa.types.is_floating(arrow_type):
        return float(value)
    return value


def _bigint(value: int, name: str) -> int:
    if not _BIGINT[0] <= value <= _BIGINT[1]:
        raise _overflow(name, "BIGINT")
    return value


def _overflow(name: str, type_name: str) -> MatchRuntimeError:
    return MatchRuntimeError(
        "AGGREGATE_OVERFLOW",
        f"{name} over the matches of a partition does not fit in {type_name} (computed exactly "
        "without enumerating the matches); aggregate fewer matches per group, e.g. with a "
        "tighter WITHIN",
    )
