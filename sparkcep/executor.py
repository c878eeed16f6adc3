"""Running one partition: Arrow batches in, Arrow batches out.

``PartitionRunner`` is what the registered Spark function does for each partition, without any
Spark: it turns the incoming batches into ``RowBlock``s for the engine, keeps the rows that
matches may still refer to, evaluates the measure components of each match, and builds the output
batch (the passthrough columns plus one column per component). It is pure PyArrow/NumPy, so tests
drive it directly.

Values stay in Arrow as long as possible: a navigation component (FIRST/LAST/PREV/NEXT) is
computed as the row it points to and gathered with one Arrow ``take`` per output batch; Python
objects are made only for what Python must compute with (match-dependent DEFINE conditions,
aggregates), and only for the batches that are read.
"""

from __future__ import annotations

import bisect
from decimal import ROUND_HALF_UP, Decimal
from typing import Iterator

import numpy as np
import pyarrow as pa

from sparkcep import engines
from sparkcep.chunking import OwnedRows
from sparkcep.evaluation import MatchView, compile_expression, make_condition
from sparkcep.matching import Match, MatchEvent, RowBlock, UnmatchedRow
from sparkcep.plan import MatchPlan, Navigation


class _Buffer:
    """The partition's rows from ``base`` on, as the Arrow batches Spark sent, with Python values
    of a column made on first read, batch by batch."""

    def __init__(self, value_columns: tuple[str, ...]) -> None:
        self.value_columns = value_columns
        self.batches: list[pa.RecordBatch] = []
        self.starts: list[int] = []  # absolute index of each batch's first row
        self.python: list[dict[int, list]] = []  # per batch: column id -> values
        self.base = 0
        self.size = 0

    def append(self, batch: pa.RecordBatch) -> None:
        self.batches.append(batch)
        self.starts.append(self.size)
        self.python.append({})
        self.size += batch.num_rows

    def python_values(self, index: int, column: int) -> list:
        values = self.python[index].get(column)
        if values is None:
            values = self.batches[index].column(self.value_columns[column]).to_pylist()
            self.python[index][column] = values
        return values

    def read(self, column: int, row: int):
        index = bisect.bisect_right(self.starts, row) - 1
        return self.python_values(index, column)[row - self.starts[index]]

    def column(self, name: str) -> pa.ChunkedArray:
        return pa.chunked_array([b.column(name) for b in self.batches],
                                type=self.batches[0].schema.field(name).type)

    def drop_before(self, row: int) -> None:
        while len(self.batches) > 1 and self.starts[1] <= row:
            self.batches.pop(0)
            self.starts.pop(0)
            self.python.pop(0)
        if self.batches:
            self.base = self.starts[0]


class PartitionRunner:
    """Matches one partition. Feed batches in order; call ``finish`` once at the end."""

    def __init__(self, plan: MatchPlan, output_schema: pa.Schema) -> None:
        self.plan = plan
        self.schema = output_schema
        names = plan.spec.variable_names
        conditions = {v: make_condition(e, names) for v, e in plan.conditions.items()}
        self.engine = engines.make_engine(plan.spec, conditions)
        self.components = [compile_expression(c, names) for c in plan.components]
        self.gathered = [isinstance(c, Navigation) for c in plan.components]
        self.final = [bool(getattr(c, "final", False)) for c in plan.components]
        self.passthrough = list(plan.passthrough_columns)
        n_pass = len(self.passthrough)
        self.component_types = [output_schema.field(n_pass + i).type for i in range(len(self.components))]
        self.buffer = _Buffer(plan.value_columns)
        self.partition_values: dict[str, object] | None = None
        self.owned = OwnedRows(plan.owned_column) if plan.owned_column else None

    # -- input ---------------------------------------------------------------------------------

    def _block(self, batch: pa.RecordBatch) -> RowBlock:
        n = batch.num_rows
        masks = np.ones((len(self.plan.mask_columns), n), dtype=bool)
        for var, name in enumerate(self.plan.mask_columns):
            if name is not None:
                column = batch.column(name).fill_null(False)
                masks[var] = np.asarray(column.to_numpy(zero_copy_only=False), dtype=bool)
        columns: tuple = ()
        if self.plan.conditions:  # the engine's conditions read values through the context
            columns = tuple(self.buffer.python_values(-1, i) for i in range(len(self.plan.value_columns)))
        order_key = None
        if self.plan.order_key_column is not None:
            key = batch.column(self.plan.order_key_column).cast(pa.float64())
            order_key = np.asarray(key.fill_null(np.nan).to_numpy(zero_copy_only=False))
        return RowBlock(masks=masks, columns=columns, order_key=order_key)

    def feed(self, batch: pa.RecordBatch) -> Iterator[pa.RecordBatch]:
        if batch.num_rows == 0:
            return
        if self.partition_values is None:
            self.partition_values = {
                name: batch.column(name)[0].as_py() for name in self.plan.partition_columns
            }
        self.buffer.append(batch)
        if self.owned is not None:
            self.owned.append(batch)
        events = self._owned_only(self.engine.feed(self._block(batch)))
        if events:
            yield self._output(events)
        held = getattr(self.engine, "buffered_rows", None)
        if held is not None:
            self.buffer.drop_before(self.buffer.size - held)
            if self.owned is not None:
                self.owned.drop_before(self.buffer.base)

    def finish(self) -> Iterator[pa.RecordBatch]:
        events = self._owned_only(self.engine.finish())
        if events:
            yield self._output(events)

    def _owned_only(self, events: list[MatchEvent]) -> list[MatchEvent]:
        """In a chunk (``sparkcep.chunking``): the events of the rows this chunk owns."""
        return events if self.owned is None or not events else self.owned.keep(events)

    # -- output --------------------------------------------------------------------------------

    def _output(self, events: list[MatchEvent]) -> pa.RecordBatch:
        take: list[int] = []  # the row each output row takes its passthrough columns from
        values: list[list] = [[] for _ in self.components]  # a value, or a row for gathered ones
        for event in events:
            if isinstance(event, UnmatchedRow):
                if self.plan.output_unmatched_rows:
                    take.append(event.row)
                    for column in values:
                        column.append(None)
                continue
            self._emit_match(event, take, values)
        return self._batch(take, values)

    def _evaluate(self, index: int, view: MatchView):
        component = self.plan.components[index]
        if not self.gathered[index]:
            return self.components[index](view)
        return view.navigate(component.variables, component.from_start, component.offset)

    def _emit_match(self, match: Match, take: list, values: list[list]) -> None:
        view = MatchView(match, self.buffer.read)
        length = len(match.rows)
        if not self.plan.all_rows or match.is_empty:
            if match.is_empty and self.plan.all_rows and not self.plan.output_empty_matches:
                return
            # An empty match is output at its starting row (ALL ROWS PER MATCH SHOW EMPTY MATCHES).
            take.append(match.start)
            view.at(length)
            for k, column in enumerate(values):
                column.append(self._evaluate(k, view))
            return
        view.at(length)
        finals = [self._evaluate(k, view) if final else None for k, final in enumerate(self.final)]
        excluded = match.excluded or (False,) * length
        for i, row in enumerate(match.rows):
            if excluded[i]:
                continue
            view.at(i + 1)
            take.append(row)
            for k, column in enumerate(values):
                column.append(finals[k] if self.final[k] else self._evaluate(k, view))

    def _gather(self, name: str, rows: list) -> pa.Array:
        indices = pa.array([None if r is None else r - self.buffer.base for r in rows], pa.int64())
        return self.buffer.column(name).take(indices).combine_chunks()

    def _batch(self, take: list[int], values: list[list]) -> pa.RecordBatch:
        arrays: list[pa.Array] = []
        n = len(take)
        if self.plan.all_rows:
            arrays += [self._gather(name, take) for name in self.passthrough]
        else:
            for name in self.passthrough:
                field = self.schema.field(name)
                arrays.append(pa.array([self.partition_values[name]] * n, type=field.type))
        for k, (column, arrow_type) in enumerate(zip(values, self.component_types)):
            if self.gathered[k]:
                name = self.plan.value_columns[self.plan.components[k].column]
                arrays.append(self._gather(name, column).cast(arrow_type))
            else:
                arrays.append(to_arrow(column, arrow_type))
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
