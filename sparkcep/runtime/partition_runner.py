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
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Iterator

import numpy as np
import pyarrow as pa

from sparkcep.engines import selection as engines
from sparkcep.runtime.chunk_filter import OwnedRows
from sparkcep.runtime.within_keys import block_order_key
from sparkcep.evaluation.conditions import make_condition
from sparkcep.evaluation.interpreter import compile_expression
from sparkcep.evaluation.match_view import MatchView
from sparkcep.engines.contract import Match, MatchEvent, MatchSummaries, RowBlock, UnmatchedRow
from sparkcep.plan.expressions import (Aggregate, Classifier, Confidence, MatchNumber, MatchStatus,
                                       MatchTimeRange, Navigation)
from sparkcep.plan.match_plan import MASK_BITS, MatchPlan
from sparkcep.plan.summary_request import summary_request
from sparkcep.runtime.uncertain_times import block_times, points_to_arrow


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

    def __getstate__(self) -> dict:
        """Stored without the Python values made from the batches (remade on first read)."""
        return {**self.__dict__, "python": [{} for _ in self.batches]}

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

    def column(self, name: str) -> pa.Array | pa.ChunkedArray:
        if len(self.batches) == 1:
            return self.batches[0].column(name)
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
        self.engine = _make_engine(plan, conditions)
        self.components = [_compile_component(c, names) for c in plan.components]
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
        masks, packed = decode_masks(self.plan, batch)
        columns: tuple = ()
        if self.plan.conditions:  # the engine's conditions read values through the context
            columns = tuple(self.buffer.python_values(-1, i) for i in range(len(self.plan.value_columns)))
        order_key, packed = block_order_key(batch, self.plan.order_key_column,
                                            self.plan.order_key_descending, masks, packed)
        time_lo = time_hi = None
        if self.plan.uncertain_time is not None:
            time_lo, time_hi = block_times(batch, self.plan)
        return RowBlock(masks=masks, columns=columns, order_key=order_key, codes=packed,
                        time_lo=time_lo, time_hi=time_hi)

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
        """In a chunk (``sparkcep.compiler.chunks``): the events of the rows this chunk owns."""
        return events if self.owned is None or not events else self.owned.keep(events)

    # -- output --------------------------------------------------------------------------------

    def _output(self, events: list[MatchEvent]) -> pa.RecordBatch:
        self._count(events)
        if len(events) == 1 and isinstance(events[0], MatchSummaries) and events[0].anchor is not None:
            return self._window_summary_batch(events[0])
        if len(events) == 1 and isinstance(events[0], MatchSummaries):
            if events[0].labels is not None:
                return self._per_row_batch(events[0])
            return self._summary_batch(events[0])
        take: list[int] = []  # the row each output row takes its passthrough columns from
        values: list[list] = [[] for _ in self.components]  # a value, or a row for gathered ones
        if self.plan.spec.window is not None:
            return self._window_batch(events)
        for event in events:
            if isinstance(event, UnmatchedRow):
                if self.plan.output_unmatched_rows:
                    take.append(event.row)
                    for column in values:
                        column.append(None)
                continue
            self._emit_match(event, take, values)
        return self._batch(take, values)

    def _window_batch(self, events: list[MatchEvent]) -> pa.RecordBatch:
        """A window with row pattern recognition (R020): one output row per input row, its
        components computed over the match found in its frame (FINAL), or over an empty match
        where none was (window functions see an empty frame there; MATCH_NUMBER, which tells
        the two apart, is NULL)."""
        take: list[int] = []
        values: list[list] = [[] for _ in self.components]
        window = self.plan.spec.window
        shifts = dict(window.shifts)
        for event in events:
            matched = isinstance(event, Match)
            match = event if matched else Match(0, event.row, (), ())
            anchor = event.anchor if matched else event.row
            take.append(anchor)
            view = MatchView(match, self.buffer.read)
            view.at(len(match.rows))
            for k, column in enumerate(values):
                if not matched and isinstance(self.plan.components[k], MatchNumber):
                    column.append(None)
                    continue
                value = self._evaluate(k, view)
                if k in shifts and value is not None:
                    # PREV/NEXT: the value comes from row ``value + shift``; outside the frame
                    # [anchor, anchor + following] it is NULL (ISO/IEC 19075-5, 6)
                    source = value + shifts[k]
                    if source < anchor or (window.following is not None and source > anchor + window.following):
                        value = None
                column.append(value)
        return self._batch(take, values)

    def _window_summary_batch(self, summaries: MatchSummaries) -> pa.RecordBatch:
        """``_window_batch`` column-wise: every row of the partition once, each match's
        components (``_summary_rows``) on its anchor row; the other rows get what an empty match
        gives (NULL, a count of 0), MATCH_NUMBER NULL."""
        n = summaries.rows
        anchor = summaries.anchor
        rows = pa.array(np.arange(n, dtype=np.int64))  # the engine held every row: base 0
        arrays = [_single_chunk(self.buffer.column(name).take(rows)) for name in self.passthrough]
        matched = np.zeros(n, dtype=bool)
        matched[anchor] = True
        for component, arrow_type in zip(self.plan.components, self.component_types):
            per_match = _summary_rows(component, summaries)
            if isinstance(component, Navigation):
                at = np.full(n, -1, dtype=np.int64)
                at[anchor] = per_match
                array = self._take(self.plan.value_columns[component.column], at)
            else:
                values = np.zeros(n, dtype=np.int64)
                values[anchor] = per_match
                missing = ~matched if isinstance(component, MatchNumber) else None
                array = pa.array(values, type=pa.int64(), mask=missing)
            arrays.append(array if array.type == arrow_type else array.cast(arrow_type))
        return pa.RecordBatch.from_arrays(arrays, schema=self.schema)

    #: the largest MATCH_NUMBER the engine reported so far, empty matches an OMIT EMPTY MATCHES
    #: output leaves out included (a stream numbers its segments' matches from it)
    match_count = 0

    def _count(self, events: list[MatchEvent]) -> None:
        numbers = [int(e.number.max()) for e in events
                   if isinstance(e, MatchSummaries) and len(e.number)]
        numbers += [e.number for e in events if isinstance(e, Match)]
        if numbers:
            self.match_count = max(self.match_count, *numbers)

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

    def _summary_batch(self, summaries: MatchSummaries) -> pa.RecordBatch:
        """ONE ROW PER MATCH output from column-wise match summaries: each navigation component is
        one Arrow ``take``; no Python object per match."""
        n = len(summaries)
        arrays = [pa.array([self.partition_values[name]] * n, type=self.schema.field(name).type)
                  for name in self.passthrough]
        for component, arrow_type in zip(self.plan.components, self.component_types):
            values = _summary_rows(component, summaries)
            if isinstance(component, Navigation):
                array = self._take(self.plan.value_columns[component.column], values)
            else:
                array = pa.array(values, type=pa.int64())
            arrays.append(array if array.type == arrow_type else array.cast(arrow_type))
        return pa.RecordBatch.from_arrays(arrays, schema=self.schema)

    def _per_row_batch(self, summaries: MatchSummaries) -> pa.RecordBatch:
        """ALL ROWS PER MATCH output from match spans and row labels (``PerRow``): every column
        is one Arrow ``take`` or one NumPy array."""
        per_row = PerRow(summaries)
        rows = pa.array(per_row.row - self.buffer.base)
        arrays = [_single_chunk(self.buffer.column(name).take(rows)) for name in self.passthrough]
        names = np.array(self.plan.spec.variable_names, dtype=object)
        for component, arrow_type in zip(self.plan.components, self.component_types):
            values, positions = per_row.values(component)
            if not positions:
                array = pa.array(values, type=pa.int64())
            elif isinstance(component, Classifier):
                missing = values < 0
                array = pa.array(np.where(missing, None, names[per_row.labels[values]]),
                                 type=pa.string(), from_pandas=True)
            else:
                rows = np.where(values < 0, -1, per_row.row[values])
                array = self._take(self.plan.value_columns[component.column], rows)
            arrays.append(array if array.type == arrow_type else array.cast(arrow_type))
        return pa.RecordBatch.from_arrays(arrays, schema=self.schema)

    def _take(self, name: str, rows: np.ndarray) -> pa.Array:
        """Column ``name`` at absolute ``rows`` (NULL where a row is -1)."""
        missing = rows < 0
        indices = pa.array(rows - self.buffer.base, mask=missing if missing.any() else None)
        return _single_chunk(self.buffer.column(name).take(indices))

    def _gather(self, name: str, rows: list) -> pa.Array:
        indices = pa.array([None if r is None else r - self.buffer.base for r in rows], pa.int64())
        return _single_chunk(self.buffer.column(name).take(indices))

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
            elif isinstance(self.plan.components[k], MatchTimeRange):
                arrays.append(points_to_arrow(column, self.plan, arrow_type))
            else:
                arrays.append(to_arrow(column, arrow_type))
        return pa.RecordBatch.from_arrays(arrays, schema=self.schema)


def _make_engine(plan: MatchPlan, conditions: dict):
    """The partition's engine: over imprecise timestamps (UNCERTAIN TIME) the event-based engine
    of ``sparkcep.engines.uncertain``, else the one ``engines.selection`` chooses."""
    uncertain = plan.uncertain_time
    if uncertain is None:
        return engines.make_engine(plan.spec, conditions, summary=summary_request(plan))
    from sparkcep.engines.uncertain.engine import make_uncertain_engine

    return make_uncertain_engine(plan.spec, conditions, min_confidence=uncertain.minimum_confidence or 0.0,
                                 window=plan.spec.within)


def _compile_component(component, names):
    """A measure component as a function of the ``MatchView`` of a match; CONFIDENCE() and the
    time bounds of UNCERTAIN TIME read the engine's ``UncertainMatch``."""
    if isinstance(component, Confidence):
        return lambda view: view.match.confidence
    if isinstance(component, MatchStatus):  # ROWS PER MATCH ... WITH TIMED OUT MATCHES
        return _match_status
    if isinstance(component, MatchTimeRange):
        attribute = f"time_{component.bound}"
        return lambda view: getattr(view.match, attribute)
    return compile_expression(component, names)


def _match_status(view: MatchView) -> str:
    return "TIMED_OUT" if view.match.timed_out else "COMPLETE"


def decode_masks(plan: MatchPlan, batch: pa.RecordBatch) -> tuple[np.ndarray, np.ndarray | None]:
    """Each variable's row-local condition per row, from the bitmask columns Catalyst computed
    (``MatchPlan.bitmask_columns``); also the bit sets as they came when one column holds every
    variable (the engine may use them directly), else None."""
    n = batch.num_rows
    # in a window, masks near the frame's edges follow the variables' own (``PatternWindow``)
    n_vars = max(len(plan.spec.variable_names), len(plan.row_local))
    masks = np.empty((n_vars, n), dtype=bool)
    codes = None
    for index, name in enumerate(plan.bitmask_columns):
        codes = np.asarray(batch.column(name).to_numpy(zero_copy_only=False), dtype=np.int64)
        low = index * MASK_BITS
        bits = np.arange(min(MASK_BITS, n_vars - low), dtype=np.int64)[:, None]
        masks[low:low + len(bits)] = (codes[None, :] >> bits) & 1
    packed = codes if len(plan.bitmask_columns) == 1 else None
    return masks, packed


def _single_chunk(array: pa.Array | pa.ChunkedArray) -> pa.Array:
    return array.combine_chunks() if isinstance(array, pa.ChunkedArray) else array


class PerRow:
    """ALL ROWS PER MATCH, column-wise: one entry per output row (the rows of each match, the
    matches one after the other), computed with NumPy from the matches' spans and row labels.

    For a variable set X, the rows mapped to X are listed in output order (``occurrences``);
    ``before[m]`` of them belong to earlier matches, so X's j-th row in match m is entry
    ``before[m] + j``. RUNNING counts come from a cumulative sum within each match."""

    def __init__(self, summaries: MatchSummaries) -> None:
        self.summaries = summaries
        start, end = summaries.start, summaries.end
        lengths = end - start
        self.match = np.repeat(np.arange(len(start)), lengths)  # the match of each output row
        offsets = np.cumsum(lengths) - lengths  # output position of each match's first row
        self.position = np.arange(int(lengths.sum())) - offsets[self.match]  # 0-based within match
        self.row = start[self.match] + self.position
        self.labels = summaries.labels
        self._sets: dict = {}

    def _of(self, variables: frozenset[int]):
        found = self._sets.get(variables)
        if found is None:
            mapped = np.isin(self.labels, sorted(variables))
            occurrences = np.flatnonzero(mapped)  # output positions of X's rows
            total = np.cumsum(mapped)
            per_match = np.bincount(self.match[mapped], minlength=len(self.summaries))
            before = np.cumsum(per_match) - per_match
            running = total - before[self.match]  # X rows of the match up to and incl. this row
            found = self._sets[variables] = (occurrences, before, running, per_match[self.match])
        return found

    def values(self, component) -> tuple[np.ndarray, bool]:
        """The component per output row: (output positions of the rows navigated to, -1 for none;
        True), or (the values; False)."""
        s = self.summaries
        if isinstance(component, MatchNumber):
            return s.number[self.match], False
        if isinstance(component, Aggregate):  # COUNT(*) / COUNT(X.*)
            if component.variables is None:
                lengths = (s.end - s.start)[self.match]
                return (lengths if component.final else self.position + 1), False
            _, _, running, total = self._of(component.variables)
            return (total if component.final else running), False
        variables = getattr(component, "variables", None)
        if isinstance(component, Classifier):
            component = Navigation(variables, False, 0, -1, component.final)
        k = component.offset
        if variables is None:  # every row of the match
            here = np.arange(len(self.row))
            first = here - self.position
            last = first + (s.end - s.start)[self.match] - 1 if component.final else here
            target = first + k if component.from_start else last - k
            return np.where((target >= first) & (target <= last), target, -1), True
        occurrences, before, running, total = self._of(variables)
        seen = total if component.final else running
        j = np.full(len(seen), k) if component.from_start else seen - 1 - k
        valid = (j >= 0) & (j < seen)
        if not len(occurrences):
            return np.full(len(j), -1), True
        return np.where(valid, occurrences[np.where(valid, before[self.match] + j, 0)], -1), True


def _summary_rows(component, summaries: MatchSummaries) -> np.ndarray:
    """Per match, the row a navigation component points to (-1 for none), or the value of a
    MATCH_NUMBER/COUNT component."""
    start, end = summaries.start, summaries.end
    if isinstance(component, MatchNumber):
        return summaries.number
    if isinstance(component, Aggregate):  # COUNT(*) or COUNT(X.*)
        if component.variables is None:
            return end - start
        return sum(summaries.count[v] for v in component.variables)
    k = component.offset
    if component.variables is None:
        rows = start + k if component.from_start else end - 1 - k
        return np.where((rows >= start) & (rows < end), rows, -1)
    if component.from_start:
        firsts = [np.where(summaries.first[v] < 0, np.iinfo(np.int64).max, summaries.first[v])
                  for v in component.variables]
        rows = np.minimum.reduce(firsts)
        return np.where(rows == np.iinfo(np.int64).max, -1, rows)
    return np.maximum.reduce([summaries.last[v] for v in component.variables])


# DECIMAL(38, s) values need more than the default context's 28 digits
_WIDE = Context(prec=100)


def to_arrow(values: list, arrow_type: pa.DataType) -> pa.Array:
    """Python values computed by an evaluator as an Arrow array of Spark's result type."""
    if pa.types.is_decimal(arrow_type):
        quantum = Decimal(1).scaleb(-arrow_type.scale)
        values = [
            None if v is None else Decimal(v).quantize(quantum, rounding=ROUND_HALF_UP, context=_WIDE)
            for v in values
        ]
    elif pa.types.is_floating(arrow_type):
        values = [None if v is None else float(v) for v in values]
    elif pa.types.is_list(arrow_type) and pa.types.is_decimal(arrow_type.value_type):
        quantum = Decimal(1).scaleb(-arrow_type.value_type.scale)
        values = [None if v is None else [None if x is None else Decimal(x).quantize(quantum, context=_WIDE) for x in v]
                  for v in values]
    return pa.array(values, type=arrow_type)
