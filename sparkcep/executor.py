"""Running one partition: Arrow batches in, Arrow batches out.

``PartitionRunner`` is what the registered Spark function does for each partition, without any
Spark: it turns the incoming batches into ``RowBlock``s for the engine, keeps the rows that
matches may still refer to, evaluates the measure components of each match, and builds the output
batch (the passthrough columns plus one column per component). It is pure PyArrow/NumPy, so tests
drive it directly.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Iterator

import numpy as np
import pyarrow as pa

from sparkcep import engines
from sparkcep.evaluation import MatchView, compile_expression, make_condition
from sparkcep.matching import Match, MatchEvent, RowBlock, UnmatchedRow
from sparkcep.plan import MatchPlan, Navigation


class PartitionRunner:
    """Matches one partition. Feed batches in order; call ``finish`` once at the end."""

    def __init__(self, plan: MatchPlan, output_schema: pa.Schema) -> None:
        self.plan = plan
        self.schema = output_schema
        names = plan.spec.variable_names
        conditions = {v: make_condition(e, names) for v, e in plan.conditions.items()}
        self.engine = engines.make_engine(plan.spec, conditions)
        self.components = [compile_expression(c, names) for c in plan.components]
        self.final = [bool(getattr(c, "final", False)) for c in plan.components]
        self.passthrough = list(plan.passthrough_columns)
        n_pass = len(self.passthrough)
        self.component_types = [output_schema.field(n_pass + i).type for i in range(len(self.components))]
        self.batches: list[pa.RecordBatch] = []
        self.values: list[list] = [[] for _ in plan.value_columns]
        self.base = 0  # absolute index of the first buffered row
        self.size = 0  # rows fed so far
        self.partition_values: dict[str, object] | None = None
        self._table: pa.Table | None = None

    # -- input ---------------------------------------------------------------------------------

    def _block(self, batch: pa.RecordBatch) -> RowBlock:
        n = batch.num_rows
        masks = np.ones((len(self.plan.mask_columns), n), dtype=bool)
        for var, name in enumerate(self.plan.mask_columns):
            if name is not None:
                column = batch.column(name)
                masks[var] = np.asarray(column.fill_null(False).to_numpy(zero_copy_only=False), dtype=bool)
        columns = []
        for i, name in enumerate(self.plan.value_columns):
            values = batch.column(name).to_pylist()
            self.values[i].extend(values)
            columns.append(values)
        order_key = None
        if self.plan.order_key_column is not None:
            key = batch.column(self.plan.order_key_column).cast(pa.float64())
            order_key = np.asarray(key.fill_null(np.nan).to_numpy(zero_copy_only=False))
        return RowBlock(masks=masks, columns=tuple(columns), order_key=order_key)

    def feed(self, batch: pa.RecordBatch) -> Iterator[pa.RecordBatch]:
        if batch.num_rows == 0:
            return
        if self.partition_values is None:
            self.partition_values = {
                name: batch.column(name)[0].as_py() for name in self.plan.partition_columns
            }
        block = self._block(batch)
        self.batches.append(batch)
        self._table = None
        self.size += batch.num_rows
        events = self.engine.feed(block)
        if events:
            yield self._output(events)
        self._trim()

    def finish(self) -> Iterator[pa.RecordBatch]:
        events = self.engine.finish()
        if events:
            yield self._output(events)

    def _trim(self) -> None:
        """Drop buffered rows no future event can refer to."""
        mark = getattr(self.engine, "low_water_mark", None)
        if mark is None:
            return
        mark = mark() if callable(mark) else mark
        while self.batches and self.base + self.batches[0].num_rows <= mark:
            dropped = self.batches.pop(0).num_rows
            self.base += dropped
            for values in self.values:
                del values[:dropped]
            self._table = None

    # -- output --------------------------------------------------------------------------------

    def _read(self, column: int, row: int):
        return self.values[column][row - self.base]

    def _rows_table(self) -> pa.Table:
        if self._table is None:
            self._table = pa.Table.from_batches(self.batches).select(self.passthrough)
        return self._table

    def _output(self, events: list[MatchEvent]) -> pa.RecordBatch:
        take: list[int] = []  # buffered row of each output row
        component_values: list[list] = [[] for _ in self.components]
        for event in events:
            if isinstance(event, UnmatchedRow):
                if self.plan.output_unmatched_rows:
                    take.append(event.row - self.base)
                    for values in component_values:
                        values.append(None)
                continue
            self._emit_match(event, take, component_values)
        return self._batch(take, component_values)

    def _emit_match(self, match: Match, take: list, component_values: list[list]) -> None:
        view = MatchView(match, self._read)
        length = len(match.rows)
        if not self.plan.all_rows or match.is_empty:
            if match.is_empty and self.plan.all_rows and not self.plan.output_empty_matches:
                return
            view.at(length)
            # An empty match is output at its starting row (ALL ROWS PER MATCH SHOW EMPTY MATCHES).
            take.append(match.start - self.base if self.plan.all_rows else 0)
            for evaluate, values in zip(self.components, component_values):
                values.append(evaluate(view))
            return
        finals = [evaluate(view.at(length)) if final else None
                  for evaluate, final in zip(self.components, self.final)]
        excluded = match.excluded or (False,) * length
        for i, row in enumerate(match.rows):
            if excluded[i]:
                continue
            view.at(i + 1)
            take.append(row - self.base)
            for k, (evaluate, values) in enumerate(zip(self.components, component_values)):
                values.append(finals[k] if self.final[k] else evaluate(view))

    def _batch(self, take: list, component_values: list[list]) -> pa.RecordBatch:
        arrays: list[pa.Array] = []
        n = len(take)
        if self.passthrough:
            if self.plan.all_rows:
                indices = pa.array(take, type=pa.int64())
                table = self._rows_table().take(indices)
                arrays += [table.column(name).combine_chunks() for name in self.passthrough]
            else:
                for name in self.passthrough:
                    field = self.schema.field(name)
                    arrays.append(pa.array([self.partition_values[name]] * n, type=field.type))
        for values, arrow_type in zip(component_values, self.component_types):
            arrays.append(to_arrow(values, arrow_type))
        return pa.RecordBatch.from_arrays(arrays, schema=self.schema)


def to_arrow(values: list, arrow_type: pa.DataType) -> pa.Array:
    """Python values computed by an evaluator as an Arrow array of Spark's result type."""
    if pa.types.is_decimal(arrow_type):
        quantum = Decimal(1).scaleb(-arrow_type.scale)
        values = [
            None if v is None else Decimal(v).quantize(quantum, rounding=ROUND_HALF_UP)
            for v in values
        ]
    elif pa.types.is_floating(arrow_type):
        values = [None if v is None else float(v) for v in values]
    elif pa.types.is_list(arrow_type) and pa.types.is_decimal(arrow_type.value_type):
        quantum = Decimal(1).scaleb(-arrow_type.value_type.scale)
        values = [None if v is None else [None if x is None else Decimal(x).quantize(quantum) for x in v]
                  for v in values]
    return pa.array(values, type=arrow_type)


__all__ = ["PartitionRunner", "Navigation"]
