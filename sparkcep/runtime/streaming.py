"""MATCH_RECOGNIZE over a stream: the clause on Spark's stateful operator.

When a clause's input relation is a stream (``STREAM(t) WATERMARK ts DELAY OF ...``, or a view
over a streaming DataFrame with ``withWatermark``), the statement is compiled for a stream
(``sparkcep.compiler.rewrite.compile_statement(..., streaming=True)``, checked by
``sparkcep.compiler.streaming_rules``) and its clause becomes

    <input query>.groupBy(<PARTITION BY>).transformWithState(MatchProcessor,
        <the rows the batch function would return>, "Append", "EventTime")

(``transformWithStateInPandas`` over carried columns with ``spark.sparkcep.streamExchange=pandas``:
``runtime.stream_exchange``), registered as a temporary view (``rewrite.stream_view_name``) that
the rewritten statement reads instead of calling the batch table function. With PREV or NEXT, a first stateful operator
(``OrderedRelease``, ``register_ordering``) orders each partition's rows and fills in the PREV and NEXT
values the input query reads. The input query is the same as the batch one's
(masks and value columns computed by Catalyst, row by row), so DEFINE and MEASURES mean exactly
what they mean in a batch query.

Per partition key, ``MatchProcessor`` keeps one value in Spark's state store (RocksDB), a
``SegmentState``:

* ``pending``: the rows the watermark has not passed yet (Arrow IPC bytes);
* ``runner``: the data of the ``PartitionRunner`` of the open *segment* — the engine's runs,
  the rows its matches may still read, counters — without its compiled program, which each
  worker builds once per plan (``runtime.state_codec``: every value names the state format and
  the plan's digest; a checkpoint of another format or statement is refused with
  ``STREAM_STATE_INCOMPATIBLE``);
* the watermark up to which rows were released, the event time of the last released row, the
  number of matches output so far, the match number the segment starts at, the late rows
  dropped, and the key's event-time timer.

A key costs the operator a read of its value and, when something changed, a write (the parts
that did not change are written back as the bytes read), plus a timer call when its timer
moves: every call is a round trip between the Python worker and Spark's state server, the
largest cost of a micro-batch over many keys (docs/streaming.md, "Latency").

On each micro-batch and on each event-time timer it releases the pending rows whose event time
the watermark has reached, sorted in ORDER BY order, to the runner: the rows reach the engine in the
order the batch query gives them, so every match it reports is the batch query's. When the
watermark is WITHIN or more past the last released row, no later row can share a match with the
segment's rows (a match spans at most WITHIN, later rows are after the watermark): the runner is finished (``finish``, like the end of a batch partition, emitting the
matches still open) and dropped; the next row starts a new segment, whose match numbers continue
the partition's. Hence the state of a key is the rows within the watermark delay plus the rows
the engine still holds (bounded by WITHIN and the live runs, ``engines.budgets``), and the
answer for the rows that are not late is the batch answer (docs/streaming.md).

Under UNCERTAIN TIME (lo, hi) the event-time column is ``lo`` (``compiler.streaming_rules``), so
the rows reach the engine sorted by ``lo`` as in a batch query, and a segment is closed once the
watermark is past the largest ``hi`` of its rows plus WITHIN, in time points
(``StreamPlan.closes_at``): every row still to come then starts after any time point a match of
the segment can use or be broken in (Zhang, Diao, Immerman, PVLDB 2010: a match's events and the
rows that can break it lie in ``[lo_1, hi_1 + W - 1]`` of its first event), and the segment's
rows can occur only before the next segment's, so the segments' matches and confidences are
independent.

Late rows: Spark drops a row whose event time is at or before the previous micro-batch's
watermark before it reaches the operator (the query's ``numRowsDroppedByWatermark``); a row older than the
watermark at which its partition last released rows (Spark already dropped those) is dropped
here too and counted in ``progress``. When late rows are routed (``runtime.stream_writer``),
Spark's filter is off and the first operator calls late a row at or before the current
watermark, and emits it whole (``LATE_ROW_COLUMN``) beside the matches (``_release``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import struct
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sparkcep.compiler.lowering import LATE_ROW_COLUMN, RELEASE_COLUMN
from sparkcep.compiler.rewrite import CompiledMatch, stream_view_name
from sparkcep.errors import AnalysisError, InternalError, SparkCepError, for_worker
from sparkcep.plan.expressions import MatchNumber
from sparkcep.plan.match_plan import MatchPlan
from sparkcep.runtime.state_codec import StateCodec, program_digest, programs
from sparkcep.runtime.stream_exchange import EVENT_KEY, RowExchange, exchange_for

log = logging.getLogger("sparkcep.runtime.streaming")

WATERMARK_METADATA = "spark.watermarkDelayMs"
ROCKSDB_PROVIDER = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"
PROVIDER_CONF = "spark.sql.streaming.stateStore.providerClass"
CHANGELOG_CONF = "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled"
SHUFFLE_PARTITIONS_CONF = "spark.sql.shuffle.partitions"
GROUP_COLUMN = "__sparkcep_group"  # the one key of a clause without PARTITION BY
NO_TIME = -(2 ** 63)  # "nothing released yet"


def reads_stream(spark, match: CompiledMatch, args=None) -> bool:
    """Whether the clause's input relation is a stream (analysis only; a relation Spark cannot
    analyse yet, e.g. one reading another clause's function, is not)."""
    if not match.relation_sql:
        return False
    try:
        query = match.probe_prefix + match.relation_sql
        frame = spark.sql(query) if args is None else spark.sql(query, args)
        return bool(frame.isStreaming)
    except Exception:  # Spark's own analysis error surfaces when the statement runs
        return False


@dataclass(frozen=True)
class StreamPlan:
    """What the stateful processor needs besides the match plan.

    Attributes:
        plan: the typed match plan (``registration.typed_plan``).
        input_schema / output_schema: Arrow schemas of the rows in and out.
        event_time: the event-time column (the first ORDER BY item).
        order: (column, descending, nulls first) per ORDER BY item.
        window: the WITHIN window in microseconds (in time points under UNCERTAIN TIME).
        time_zone: the session time zone (that of the Arrow type of TIMESTAMP columns).
        source: the statement, for located run-time errors.
    """

    plan: MatchPlan
    input_schema: pa.Schema
    output_schema: pa.Schema
    event_time: str
    order: tuple[tuple[str, bool, bool], ...]
    window: int
    time_zone: str
    source: str
    # with NEXT: the event time is the ordering operator's RELEASE_COLUMN, and this is the first
    # ORDER BY column (a segment is closed at a gap of more than WITHIN between its rows)
    order_time: str | None = None
    # late rows routed (``compile_statement(..., late_rows=True)``, ``runtime.stream_writer``):
    # the Arrow type of ``LATE_ROW_COLUMN`` (the input row whole), else None
    late_row_type: pa.DataType | None = None
    # the ordering operator runs before this one (PREV or NEXT): with late rows routed, it decides
    # which rows are late and passes them on marked (no event time)
    after_ordering: bool = False
    # the clause's compiled identity (``CompiledMatch.function_name``, a digest of its plan)
    program_id: str = ""
    # the watermark delay (micros) of the event-time column: a key's rows up to its newest row
    # minus the delay are released at once (``_release``); None after the ordering operator,
    # whose rows come released and leave at once
    delay: int | None = None
    # how rows cross between Spark and the worker (``runtime.stream_exchange``); not part of the
    # stored state, which is the same either way
    exchange: object = None

    @functools.cached_property
    def digest(self) -> bytes:
        """Names the program in every key's stored state (``runtime.state_codec``)."""
        return program_digest(self.program_id, self.input_schema, self.output_schema,
                              self.event_time, self.order, self.window, self.time_zone,
                              self.order_time, self.late_row_type, self.after_ordering)

    @property
    def uncertain(self) -> bool:
        return self.plan.uncertain_time is not None

    def closes_at(self, last_key: int) -> int:
        """The watermark (micros) from which no row still to come can change a match of a
        segment whose ``last_key`` is given: the last row's event time plus WITHIN; under
        UNCERTAIN TIME, ``last_key`` is the segment's largest ``hi`` and the answer is the first
        watermark after which every row still to come (``lo`` after the watermark) starts at a
        time point beyond ``hi + W - 1`` for every row of the segment (see ``SegmentMatcher``)."""
        if not self.uncertain:
            return last_key + self.window
        micros = self.plan.uncertain_time.micros_per_point
        return (last_key // micros + self.window) * micros - 1


def register_stream(spark, match: CompiledMatch, args=None) -> None:
    """Build the stateful operator for a clause compiled for a stream and register its output as
    the view the rewritten statement reads (``rewrite.stream_view_name``); with PREV, first the
    ordering operator that fills in the shifted columns (``register_ordering``)."""
    if match.shifts:
        register_ordering(spark, match, args)
    stream_plan, frame, keys, return_type = operator_input(spark, match, args)
    if match.late_rows and not match.shifts:
        frame = _without_late_filter(frame, stream_plan.event_time)
    use_rocksdb(spark)
    output = match_operator(frame, keys, stream_plan, return_type)
    output.createOrReplaceTempView(stream_view_name(match.function_name))


def match_operator(frame, keys: list[str], stream_plan: StreamPlan, return_type):
    """The clause's matching operator over its input ``frame``, grouped by ``keys``."""
    exchange = exchange_for(frame, stream_plan.input_schema, stream_plan.event_time, keys,
                            return_type)
    stream_plan = dataclasses.replace(stream_plan, exchange=exchange)
    return exchange.apply(frame, keys, _processor(stream_plan), return_type)


def operator_input(spark, match: CompiledMatch, args=None):
    """The clause's ``StreamPlan``, the input DataFrame of the stateful operator (the batch input
    query, its event-time column the only one with a watermark), its grouping columns, and the
    Spark type of its output rows."""
    from pyspark.sql import functions as F

    from sparkcep.runtime.registration import _arrow_type, typed_plan

    plan, return_type, output_schema = typed_plan(spark, match, args)
    release = _has_next(match)
    frame, fields, order = _event_time_frame(spark, match, match.table_sql, args,
                                             RELEASE_COLUMN if release else None)
    event_time = RELEASE_COLUMN if release else order[0][0]
    late_row_type = None
    if match.late_rows:  # the operator's output carries the late rows too (beside the matches)
        from pyspark.sql.types import StructField, StructType

        late_field = next(f for f in frame.schema.fields if f.name == LATE_ROW_COLUMN)
        return_type = StructType([*return_type.fields,
                                  StructField(LATE_ROW_COLUMN, late_field.dataType, True)])
        late_row_type = _arrow_type(late_field.dataType,
                                    spark.conf.get("spark.sql.session.timeZone"))
    keys = list(plan.partition_columns)
    if not keys:
        frame = frame.withColumn(GROUP_COLUMN, F.lit(0))
        keys = [GROUP_COLUMN]
    time_zone = spark.conf.get("spark.sql.session.timeZone")
    input_schema = pa.schema(
        [pa.field(f.name, _arrow_type(f.dataType, time_zone), True) for f in frame.schema.fields])
    stream_plan = StreamPlan(plan, input_schema, output_schema, event_time, order,
                             int(plan.spec.within), time_zone, match.source,
                             order[0][0] if release else None, late_row_type, bool(match.shifts),
                             match.function_name,
                             None if match.shifts else _delay(fields[event_time.lower()]))
    return stream_plan, frame, keys, return_type


def _delay(field) -> int:
    """The watermark delay (micros) of an event-time column (checked by ``_check_event_time``)."""
    return int(field.metadata[WATERMARK_METADATA]) * 1000


def _has_next(match: CompiledMatch) -> bool:
    """NEXT over a stream: a shift by a negative offset (``compiler.lowering``)."""
    return any(offset < 0 for _, offset, _ in match.shifts)


def _event_time_frame(spark, match: CompiledMatch, query: str, args=None,
                      event_time: str | None = None):
    """The streaming DataFrame of one of the clause's input queries, its fields by lower-case
    name, and the resolved ORDER BY; the event-time column (the first ORDER BY column, or
    ``event_time``) is checked (a TIMESTAMP with the watermark) and is the only column carrying a
    watermark."""
    from sparkcep.runtime.registration import _spark_error_to_user

    try:
        frame = spark.sql(match.probe_prefix + query) if args is None else spark.sql(
            match.probe_prefix + query, args)
    except SparkCepError:
        raise
    except Exception as error:
        raise _spark_error_to_user(error, match) from None
    fields = {f.name.lower(): f for f in frame.schema.fields}
    order = _resolved_order(match, fields)
    event_time = event_time or order[0][0]
    _check_event_time(fields.get(event_time.lower()), match)
    return _one_event_time_column(frame, event_time), fields, order


def register_ordering(spark, match: CompiledMatch, args=None) -> None:
    """PREV over a stream: a first stateful operator releases each partition's rows in ORDER BY
    order once the watermark reaches them, with each PREV argument's value k rows before
    (``OrderedRelease``), as the view ``match.shift_view`` that the clause's input query reads.
    Its output keeps the event-time column's watermark (``eventTimeColumnName``), so the
    matching operator after it sees the same watermark in the same micro-batch. With NEXT a row
    leaves once its last NEXT successor is released, carrying that successor's event time in
    ``RELEASE_COLUMN``, which is then the event-time column (a row leaves in the micro-batch
    whose watermark reaches its release time, so the matching operator never finds it late)."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import StructField, StructType

    from sparkcep.runtime.registration import _arrow_type

    frame, fields, order = _event_time_frame(spark, match, match.shift_input_sql, args)
    event_time = order[0][0]
    if match.late_rows:
        frame = _without_late_filter(frame, event_time)
    keys = [fields[name.lower()].name if name.lower() in fields else name
            for name in match.plan.partition_columns]
    arguments = {name for name, _, _ in match.shifts}
    by_name = {f.name: f for f in frame.schema.fields}
    waits = _has_next(match)
    row_fields = [f for f in frame.schema.fields if f.name not in arguments]
    output = StructType(
        row_fields
        + [StructField(shifted, by_name[name].dataType, True) for name, _, shifted in match.shifts]
        + ([StructField(RELEASE_COLUMN, by_name[event_time].dataType, True)] if waits else [])
        + ([StructField(LATE_ROW_COLUMN, StructType(row_fields), True)] if match.late_rows else []))
    if not keys:
        frame = frame.withColumn(GROUP_COLUMN, F.lit(0))
        keys = [GROUP_COLUMN]
    time_zone = spark.conf.get("spark.sql.session.timeZone")

    def arrow(schema):
        return pa.schema([pa.field(f.name, _arrow_type(f.dataType, time_zone), True)
                          for f in schema.fields])

    input_schema = arrow(frame.schema)
    exchange = exchange_for(frame, input_schema, event_time, keys, output)
    release = OrderedRelease(input_schema, arrow(output), event_time, order, match.shifts,
                             match.late_rows, match.function_name,
                             _delay(fields[event_time.lower()]), exchange)
    use_rocksdb(spark)
    ordered = exchange.apply(frame, keys, _ordering_processor(release), output,
                             RELEASE_COLUMN if waits else event_time)
    ordered.createOrReplaceTempView(match.shift_view)


def _without_late_filter(frame, event_time: str):
    """The operator's input without the watermark mark on its event-time column, so that Spark
    does not drop late rows before the operator sees them (its late-row filter is built from the
    mark on the operator's input); the watermark itself, set upstream, still advances and fires
    the event-time timers. The operator then calls late the rows at or before the current
    watermark (``_release``) and routes them out (docs/streaming.md, "Routing late rows")."""
    field = next(f for f in frame.schema.fields if f.name == event_time)
    kept = {k: v for k, v in field.metadata.items() if k != WATERMARK_METADATA}
    return frame.withMetadata(event_time, kept)


def _resolved_order(match: CompiledMatch, fields: dict) -> tuple[tuple[str, bool, bool], ...]:
    """The ORDER BY columns under the input's own names (Spark resolves them case-insensitively)."""
    return tuple(
        (fields[name.lower()].name if name.lower() in fields else name, descending, nulls_first)
        for name, descending, nulls_first in match.order_columns)


def _one_event_time_column(frame, event_time: str):
    """Spark allows one event-time column per stream: the copies of it (a WITHIN key, a value
    column, a PREV argument) lose the watermark mark."""
    for field in frame.schema.fields:
        if field.name != event_time and WATERMARK_METADATA in field.metadata:
            kept = {k: v for k, v in field.metadata.items() if k != WATERMARK_METADATA}
            frame = frame.withMetadata(field.name, kept)
    return frame


def _check_event_time(field, match: CompiledMatch) -> None:
    from pyspark.sql.types import TimestampType

    if field is not None and WATERMARK_METADATA in field.metadata \
            and isinstance(field.dataType, TimestampType):
        return
    start, end = match.order_span or (0, 1)
    raise AnalysisError.at_offset(
        "STREAM_ORDER_NOT_EVENT_TIME",
        "over a stream, the first ORDER BY item must be the input's event-time column, a TIMESTAMP "
        "with a watermark (STREAM(t) WATERMARK <column> DELAY OF <interval>, or withWatermark): "
        "rows are matched in order once the watermark has passed them",
        match.source, start, max(1, end - start))


def use_rocksdb(spark) -> None:
    """The stateful operator needs the RocksDB state store; set it when the session uses another
    (it is recorded in the query's checkpoint at its first start). Unless the session says
    otherwise, RocksDB commits a micro-batch as a changelog of the keys written instead of
    uploading a snapshot of its files at every commit (snapshots are then made in the
    background): the largest fixed cost of a micro-batch (docs/streaming.md, "Latency")."""
    current = spark.conf.get(PROVIDER_CONF, None)
    if current != ROCKSDB_PROVIDER:
        log.info("sparkcep: setting %s to RocksDB for the streaming MATCH_RECOGNIZE", PROVIDER_CONF)
        spark.conf.set(PROVIDER_CONF, ROCKSDB_PROVIDER)
    if spark.conf.get(CHANGELOG_CONF, None) is None:
        spark.conf.set(CHANGELOG_CONF, "true")


@contextlib.contextmanager
def state_partitions(spark):
    """While a stream sparkcep starts is started (``sparkcep stream``, ``start_stream``): its
    stateful operators get one state partition per core of the session
    (``defaultParallelism``), at most ``spark.sql.shuffle.partitions``. Each state partition
    is a task and a state store commit per operator and micro-batch, whether it holds one key
    or a thousand, so on few cores the default (200 in Spark, 4 in ``local_session``) costs
    more than it parallelises. Spark records the number in a new checkpoint, and a query
    resumed from an existing one keeps its own; the session's setting is restored after."""
    before = spark.conf.get(SHUFFLE_PARTITIONS_CONF)
    wanted = min(int(before), max(1, spark.sparkContext.defaultParallelism))
    spark.conf.set(SHUFFLE_PARTITIONS_CONF, str(wanted))
    try:
        yield wanted
    finally:
        spark.conf.set(SHUFFLE_PARTITIONS_CONF, before)


# -- the processor --------------------------------------------------------------------------------


def _processor(stream_plan: StreamPlan):
    """A ``StatefulProcessor`` bound to one clause (pyspark is imported on first use only)."""
    from pyspark.sql.streaming import StatefulProcessor

    class MatchProcessor(StatefulProcessor):
        def init(self, handle) -> None:
            self.core = SegmentMatcher(stream_plan)
            self.handle = handle
            self.state = handle.getValueState(STATE_VARIABLE, _state_schema())

        def handleInputRows(self, key, rows, timerValues):
            state = self._load()
            tables = [stream_plan.exchange.table(rows)]
            yield from self._run(state, tables, timerValues.getCurrentWatermarkInMs())

        def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
            yield from self._run(self._load(), [], timerValues.getCurrentWatermarkInMs(),
                                 expiredTimerInfo.getExpiryTimeInMs())

        def _run(self, state, tables, watermark_ms, expired=None):
            try:
                batches = self.core.advance(state, tables, watermark_ms * 1000)
            except SparkCepError as error:
                from sparkcep.runtime.registration import _located

                raise for_worker(_located(error, stream_plan.source, stream_plan.plan)) from None
            self._store(state, expired, watermark_ms)
            yield from self.core.outgoing(batches)

        def _load(self) -> "SegmentState":
            try:
                return _load_state(self.state, self.core.codec)
            except SparkCepError as error:
                raise for_worker(error) from None

        def _store(self, state: "SegmentState", expired: int | None, watermark_ms: int) -> None:
            closes_at = None if stream_plan.order_time else stream_plan.closes_at(state.last_key)
            _set_timer(self.handle, state, state.wake_at(closes_at), expired, watermark_ms)
            _store_state(self.state, state, self.core.codec)

        def close(self) -> None:
            pass  # nothing to release: every value lives in the state store

    return MatchProcessor()


def _load_state(variable, codec: StateCodec) -> "SegmentState":
    """The key's state from its state variable (``get`` is None for a new key)."""
    value = variable.get()
    return SegmentState.load(None if value is None else value[0], codec)


def _store_state(variable, state: "SegmentState", codec: StateCodec) -> None:
    """Write the key's state when it changed (``SegmentState.dump``)."""
    blob = state.dump(codec)
    if blob is not None:
        variable.update((blob,))


def _set_timer(handle, state: "SegmentState", wanted: int | None, expired: int | None,
               watermark_ms: int) -> None:
    """Make the key's one event-time timer (ms) ``wanted`` (None: no timer), recorded in its
    state (``SegmentState.timer``), so that no call lists the timers. Spark fires a timer in
    the first micro-batch whose watermark is at or after it, and deletes the timer that
    ``expired`` (being handled now) once ``handleExpiredTimer`` returns, even when the handler
    registered it again; so that no key is left without a timer while it holds rows, the timer
    is never at or before the current watermark (``SegmentState.wake_at`` is after it: the
    watermark reaches a row at ``t`` micros when it is ``ceil(t / 1000)`` ms; this is a guard)."""
    if wanted is not None:
        wanted = max(wanted, watermark_ms + 1)
    current = None if state.timer == expired else state.timer
    if current == wanted:
        return
    if current is not None:
        handle.deleteTimer(current)
    if wanted is not None:
        handle.registerTimer(wanted)
    state.timer = wanted


def _ordering_processor(release: "OrderedRelease"):
    """The ordering operator's ``StatefulProcessor`` (PREV over a stream)."""
    from pyspark.sql.streaming import StatefulProcessor

    class OrderingProcessor(StatefulProcessor):
        def init(self, handle) -> None:
            self.handle = handle
            self.codec = programs(release.digest)
            self.state = handle.getValueState(STATE_VARIABLE, _state_schema())

        def handleInputRows(self, key, rows, timerValues):
            tables = [release.exchange.table(rows)]
            yield from self._run(tables, timerValues.getCurrentWatermarkInMs())

        def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
            yield from self._run([], timerValues.getCurrentWatermarkInMs(),
                                 expiredTimerInfo.getExpiryTimeInMs())

        def _run(self, tables, watermark_ms, expired=None):
            try:  # ``runner`` holds the last rows' PREV arguments and the rows awaiting NEXT
                state = _load_state(self.state, self.codec)
            except SparkCepError as error:
                raise for_worker(error) from None
            released = release.advance(state, tables, watermark_ms * 1000)
            _set_timer(self.handle, state, state.wake_at(None), expired, watermark_ms)
            _store_state(self.state, state, self.codec)
            if released is not None:
                yield from release.exchange.output(released)

        def close(self) -> None:
            pass  # nothing to release: every value lives in the state store

    return OrderingProcessor()


@dataclass(frozen=True)
class OrderedRelease:
    """The ordering operator's algorithm (PREV over a stream): per partition key, hold rows until
    the watermark reaches them, release them in ORDER BY order with each shifted column set to
    its argument ``offset`` rows before in the partition (NULL before the partition's first
    rows), as ``lag`` computes it in a batch query. Pure PyArrow; the last rows' arguments are
    kept in ``SegmentState.runner``."""

    input_schema: pa.Schema
    output_schema: pa.Schema
    event_time: str
    order: tuple[tuple[str, bool, bool], ...]
    shifts: tuple[tuple[str, int, str], ...]
    late_rows: bool = False  # late rows routed (``_late_rows``)
    program_id: str = ""  # the clause's ``CompiledMatch.function_name``
    delay: int | None = None  # the watermark delay (micros): see ``_release``
    exchange: object = None  # how rows cross (``runtime.stream_exchange``)

    @functools.cached_property
    def digest(self) -> bytes:
        """Names the operator in every key's stored state (``runtime.state_codec``)."""
        return program_digest("ordering", self.program_id, self.input_schema, self.output_schema,
                              self.event_time, self.order, self.shifts, self.late_rows)

    def advance(self, state: SegmentState, tables: list[pa.Table], watermark: int) -> pa.Table | None:
        """The rows that leave now, in ORDER BY order, with their shifted values. ``state.runner``
        holds (the last emitted rows' arguments, the released rows still waiting for their NEXT
        successors). A released row's place in the order is final (``SegmentMatcher.advance``),
        so its k-th successor in the released rows is the one ``lead`` reads in a batch query."""
        late: list[pa.Table] | None = [] if self.late_rows else None
        released = _release(state, tables, watermark, self.order, late, judge=self.late_rows,
                            delay=self.delay, event_time=self.event_time)
        routed = self._late_rows(late) if late else None
        if released is None:
            return routed
        history, waiting = state.runner if state.runner is not None else (None, None)
        if waiting is not None:
            released = pa.concat_tables([waiting, released])
        back = max(0, *(offset for _, offset, _ in self.shifts))
        ahead = max(0, *(-offset for _, offset, _ in self.shifts))
        leaving = max(0, released.num_rows - ahead)  # the rows whose successors are here
        arguments = [name for name, _, _ in self.shifts]
        fresh = released.select(arguments)
        history = history if history is not None else fresh.slice(0, 0)
        window = pa.concat_tables([history, fresh])
        before = history.num_rows
        out = released.slice(0, leaving)
        columns = {name: out.column(name) for name in out.column_names}
        for name, offset, shifted in self.shifts:
            positions = np.arange(before, before + leaving) - offset
            indices = pa.array(np.maximum(positions, 0), mask=positions < 0)
            columns[shifted] = window.column(name).take(indices)
        if ahead:  # the event time of the successor that lets each row leave
            times = released.column(self.event_time)
            columns[RELEASE_COLUMN] = times.take(pa.array(np.arange(leaving) + ahead, pa.int64()))
        kept = window.slice(0, before + leaving)
        state.runner = (kept.slice(max(0, kept.num_rows - back)),
                        released.slice(leaving) if ahead and leaving < released.num_rows else None)
        state.runner_changed = True
        if not leaving:
            return routed
        if self.late_rows:
            whole = self.output_schema.field(LATE_ROW_COLUMN).type
            columns[LATE_ROW_COLUMN] = pa.nulls(leaving, whole)
        out = pa.table([columns[name] for name in self.output_schema.names],
                       schema=self.output_schema)
        return out if routed is None else pa.concat_tables([routed, out])

    def _late_rows(self, late: list[pa.Table]) -> pa.Table:
        """Late rows passed on to the matching operator, which routes them out: each with its
        values whole in ``LATE_ROW_COLUMN`` and no event time (so that neither Spark nor the
        matching operator can take it for a row to match), its other columns as they were."""
        rows = pa.concat_tables(late)
        whole = self.output_schema.field(LATE_ROW_COLUMN).type
        values = pa.StructArray.from_arrays(
            [rows.column(field.name).combine_chunks() for field in whole], fields=list(whole))
        columns = []
        for field in self.output_schema:
            if field.name == LATE_ROW_COLUMN:
                columns.append(values)
            elif field.name == self.event_time or field.name not in rows.column_names:
                columns.append(pa.nulls(rows.num_rows, field.type))  # shifted, released, time
            else:
                columns.append(rows.column(field.name))
        return pa.table(columns, schema=self.output_schema)


def _release(state: "SegmentState", tables: list[pa.Table], watermark: int, order,
             late: list[pa.Table] | None = None, judge: bool = False, delay: int | None = None,
             at_once: bool = False, event_time: str | None = None) -> pa.Table | None:
    """Add the new rows to the held ones and take out, in ORDER BY order, those whose place in
    the order is final: those the watermark (micros) has reached and, with the watermark
    ``delay``, those at or before the key's newest row minus the delay. Spark's watermark is
    the newest row of any key minus the delay, and a row at or before the watermark of the
    micro-batch that reads it is late (below), so no row still to come precedes them: the key
    releases them in the micro-batch that reads its newest row, instead of the next one, whose
    watermark would pass them. An operator after the ordering operator gets released rows only
    and releases them ``at_once``.

    A row without an event time, or at or before what its key released, is late: counted and
    dropped (Spark has dropped the rows at or before the previous micro-batch's watermark
    already). Late rows are appended to ``late`` when it is given (late rows routed). An
    operator that ``judge``s lateness (Spark's filter off: the first operator, when late rows
    are routed) also calls late a row at or before the current ``watermark``: one rule for every
    key, by which every row passed on is after the watermark of the micro-batch it leaves in, as
    Spark requires of an operator's output and as closing a segment assumes (docs/streaming.md,
    "Routing late rows"). A routed row's ``LATE_ROW_COLUMN`` is dropped once it is on time.
    ``event_time`` names the column ``EVENT_KEY`` holds the micros of (see ``_in_order``).

    A key brings a few rows per micro-batch, so the arithmetic is NumPy's over the event times:
    a PyArrow call on a few rows costs tens of microseconds, and this runs once per key."""
    incoming = [t for t in tables if t.num_rows]
    if incoming:
        new = pa.concat_tables(incoming)
        behind = max(state.released, watermark) if judge else state.released
        on_time = _micros(new) > behind  # a row without an event time is late (``_micros``)
        kept = new if on_time.all() else new.filter(pa.array(on_time))
        state.late += new.num_rows - kept.num_rows
        if late is not None and kept.num_rows < new.num_rows:
            late.append(new.filter(pa.array(~on_time)))
        if LATE_ROW_COLUMN in kept.column_names:
            kept = kept.drop_columns([LATE_ROW_COLUMN])
        held = [kept] if state.pending is None else [state.pending, kept]
        state.pending = pa.concat_tables(held).combine_chunks()
    if state.pending is None or not state.pending.num_rows:
        state.pending = None
        state.released = max(state.released, watermark)
        return None
    event = _micros(state.pending)
    bound = watermark
    if at_once or delay is not None:
        newest = int(event.max())
        bound = max(bound, newest if at_once else newest - delay)
    released = None
    if bound > state.released:
        passed = event <= bound
        if passed.any():
            taken = state.pending.filter(pa.array(passed)) if not passed.all() else state.pending
            state.pending = state.pending.filter(pa.array(~passed)) if not passed.all() else None
            released = _in_order(taken, event[passed], order, event_time)
        state.released = bound
    if state.pending is not None and not state.pending.num_rows:
        state.pending = None
    return released


def _micros(table: pa.Table) -> np.ndarray:
    """``EVENT_KEY`` (event time in micros) as NumPy, ``NO_TIME`` for a row without one (such a
    row is late: no watermark or release point is below ``NO_TIME``)."""
    column = table.column(_EVENT_KEY)
    if column.null_count:
        column = pc.fill_null(column, NO_TIME)
    return column.to_numpy()


def _in_order(rows: pa.Table, micros: np.ndarray, order, event_time: str | None) -> pa.Table:
    """``rows`` in ORDER BY ``order`` (a stable sort, as Spark's). When the ORDER BY is the
    event-time column ascending alone, the order is that of ``micros`` (released rows all have
    an event time), which usually arrive in order already."""
    if len(order) == 1 and order[0][0] == event_time and not order[0][1]:
        if len(micros) < 2 or (micros[1:] >= micros[:-1]).all():
            return rows
        return rows.take(pa.array(np.argsort(micros, kind="stable")))
    keys = [(name, "descending" if descending else "ascending", "at_start" if nulls_first else "at_end")
            for name, descending, nulls_first in order]
    return rows.take(pc.sort_indices(rows, sort_keys=keys))


#: a key's one state variable, holding its ``SegmentState`` as one value. It keeps the name that
#: state formats 1 and 2 gave the key's counters (five BIGINTs), so that Spark refuses a
#: checkpoint of theirs for its value schema (``spark_errors.stream_failure`` restates it as
#: ``STREAM_STATE_INCOMPATIBLE``) instead of resuming it as if every key were new.
STATE_VARIABLE = "progress"


def _state_schema():
    from pyspark.sql.types import BinaryType, StructField, StructType

    return StructType([StructField("state", BinaryType(), True)])


_PROGRESS = ("released", "last_key", "matches", "segment_base", "late")
# a stored value's body (after ``StateCodec.seal``'s header): the counters of ``_PROGRESS``, the
# key's event-time timer (ms, ``NO_TIME`` for none), the length of the held rows' Arrow IPC
# stream, then that stream, then the runner's data (``StateCodec.encode``) to the end
_FIXED = struct.Struct("<6qI")


@dataclass
class SegmentState:
    """One partition key's state between micro-batches (see the module docstring), stored as one
    value of one state variable, so that reading and writing it costs a round trip to the state
    store each."""

    pending: pa.Table | None = None
    runner: object | None = None
    released: int = NO_TIME  # watermark (micros) up to which rows were released
    last_key: int = NO_TIME  # event time (micros) of the last row released to the runner
    # (under UNCERTAIN TIME: the largest hi, in micros, of the open segment's rows)
    matches: int = 0  # matches output so far in this partition
    segment_base: int = 0  # matches before the open segment (its MATCH_NUMBER offset)
    late: int = 0  # rows dropped as late by the operator
    timer: int | None = None  # the key's registered event-time timer (ms), see ``_set_timer``
    # set by whoever changes ``runner`` (fed, finished, replaced): it is encoded again then only
    runner_changed: bool = False
    # what was loaded (the held rows, their bytes, the runner's bytes, the fixed fields), so
    # that ``dump`` encodes again only what changed and writes nothing when nothing did
    loaded: tuple = field(default=(None, b"", b"", None), repr=False, compare=False)

    @classmethod
    def load(cls, blob: bytes | None, codec: StateCodec) -> "SegmentState":
        """The state from its stored value (None: a new key), checked against ``codec``'s
        program (``STREAM_STATE_INCOMPATIBLE`` otherwise)."""
        state = cls()
        if blob is None:
            return state
        body = codec.open(blob)
        *progress, timer, pending_size = _FIXED.unpack_from(body)
        for name, value in zip(_PROGRESS, progress):
            setattr(state, name, value)
        state.timer = None if timer == NO_TIME else timer
        pending = body[_FIXED.size:_FIXED.size + pending_size]
        runner = body[_FIXED.size + pending_size:]
        if len(pending):
            state.pending = codec.decode_table(pending)
        if len(runner):
            state.runner = codec.decode(runner)
        state.loaded = (state.pending, pending, runner, (*progress, timer))
        return state

    def dump(self, codec: StateCodec) -> bytes | None:
        """The value to store, or None when nothing changed since ``load`` (nothing to write).
        A part that did not change is written back as the bytes it was read from."""
        loaded_pending, pending, runner, loaded_fixed = self.loaded
        changed = False
        if self.pending is not loaded_pending:
            empty = self.pending is None or not self.pending.num_rows
            changed = not (empty and not len(pending))
            pending = b"" if empty else codec.encode_table(self.pending)
        if self.runner is None:
            changed |= bool(len(runner))
            runner = b""
        elif self.runner_changed or not len(runner):
            changed = True
            runner = codec.encode(self.runner)
        fixed = (*(getattr(self, name) for name in _PROGRESS),
                 NO_TIME if self.timer is None else self.timer)
        if not changed and fixed == loaded_fixed:
            return None
        return codec.seal(_FIXED.pack(*fixed, len(pending)), pending, runner)

    def wake_at(self, closes_at: int | None) -> int | None:
        """The event-time timer (ms) that wakes the key next: when the watermark passes its
        earliest held row, or reaches ``closes_at`` (micros, ``StreamPlan.closes_at``), where
        the open segment is closed, whichever comes first; None when neither is there."""
        timers = []
        if self.pending is not None and self.pending.num_rows:
            first = pc.min(self.pending.column(_EVENT_KEY)).as_py()
            timers.append(-(-first // 1000))  # the watermark reaches it: it is released
        if self.runner is not None and closes_at is not None:
            timers.append(-(-closes_at // 1000))  # the segment is closed
        return min(timers, default=None)


_EVENT_KEY = EVENT_KEY  # the event time in micros, beside the input's columns


class SegmentMatcher:
    """Releases rows in order and drives a ``PartitionRunner`` per segment; pure PyArrow (the
    processor above is the only part that talks to Spark), so tests can drive it directly."""

    def __init__(self, stream_plan: StreamPlan) -> None:
        self.stream = stream_plan
        plan = stream_plan.plan
        n_pass = len(plan.passthrough_columns)
        self.match_numbers = [n_pass + i for i, c in enumerate(plan.components)
                              if isinstance(c, MatchNumber)]

    @functools.cached_property
    def codec(self) -> StateCodec:
        """The worker's program for this plan: its runners' template and their state codec."""
        from sparkcep.runtime.partition_runner import PartitionRunner

        plan, schema = self.stream.plan, self.stream.output_schema
        return programs(self.stream.digest, lambda: PartitionRunner(plan, schema), roots=(plan,))

    def outgoing(self, batches: list[pa.RecordBatch]):
        """The output batches of one call as the exchange hands them to Spark (with the
        routed-late-rows column when late rows are routed)."""
        late_row_type = self.stream.late_row_type
        if late_row_type is not None:
            batches = [batch if LATE_ROW_COLUMN in batch.schema.names else batch.append_column(
                pa.field(LATE_ROW_COLUMN, late_row_type, True),
                pa.nulls(batch.num_rows, late_row_type)) for batch in batches]
        exchange = self.stream.exchange or RowExchange(self.stream.input_schema,
                                                       self.stream.event_time)
        return exchange.output(batches)

    # -- the algorithm --------------------------------------------------------------------------

    def advance(self, state: SegmentState, tables: list[pa.Table], watermark: int) -> list[pa.RecordBatch]:
        """Add the new rows, release those the watermark (micros) has reached, close the segment
        when the watermark is WITHIN or more past its last row; the output batches.

        Spark drops a row as late when its event time is at or before the previous micro-batch's
        watermark, so every row still to come is after ``watermark``: a released row's place in
        the ORDER BY order is final, and a row after ``last_key + window`` shares no match with
        the segment's rows."""
        late: list[pa.Table] | None = [] if self.stream.late_row_type is not None else None
        released = _release(state, tables, watermark, self.stream.order, late,
                            judge=late is not None and not self.stream.after_ordering,
                            delay=self.stream.delay, at_once=self.stream.after_ordering,
                            event_time=self.stream.event_time)
        output = self._late_rows(late) if late else []
        if self.stream.order_time is not None:  # NEXT: closed at gaps (see ``_feed_by_gaps``)
            return output if released is None else output + self._feed_by_gaps(state, released)
        if released is not None:
            output += self._feed(state, released)
        if state.runner is not None and watermark >= self.stream.closes_at(state.last_key):
            output += self._finish(state)
        return output

    def _late_rows(self, late: list[pa.Table]) -> list[pa.RecordBatch]:
        """Routed late rows as output rows: ``LATE_ROW_COLUMN`` set, every other column NULL.
        Each carries the row whole (built by Catalyst or, with PREV or NEXT, by the ordering
        operator, which decided it was late and sent it on with no event time)."""
        rows = pa.concat_tables(late).column(LATE_ROW_COLUMN).combine_chunks()
        if rows.null_count:  # an operator before this one let through a row it should have kept
            raise InternalError("a late row reached the matching operator without its values")
        schema = self.stream.output_schema.append(
            pa.field(LATE_ROW_COLUMN, self.stream.late_row_type, True))
        columns = [pa.nulls(len(rows), field.type) for field in schema][:-1] + [rows]
        return [pa.RecordBatch.from_arrays(columns, schema=schema)]


    def _feed_by_gaps(self, state: SegmentState, table: pa.Table) -> list[pa.RecordBatch]:
        """With NEXT, the rows come watermarked on their release time (the event time of their
        last NEXT successor), which says nothing of the next row's own time, so the watermark
        cannot close a segment. The rows do come in ORDER BY order, each after its predecessor:
        a row more than WITHIN after the segment's last row starts the next segment (no match
        spans it, and every row still to come is at or after it), so the segment is finished
        before it is fed. A partition's last segment stays open until a later row arrives."""
        output: list[pa.RecordBatch] = []
        times = table.column(self.stream.order_time).cast(pa.timestamp("us", "UTC")) \
            .cast(pa.int64()).to_numpy(zero_copy_only=False)
        before = np.concatenate([[state.last_key], times[:-1]])
        gaps = np.flatnonzero(times - before > self.stream.window)
        start = 0
        for cut in gaps:
            if cut > start:
                output += self._feed(state, table.slice(start, cut - start))
                start = cut
            if state.runner is not None:
                output += self._finish(state)
        if start < table.num_rows:
            output += self._feed(state, table.slice(start))
        return output

    def _finish(self, state: SegmentState) -> list[pa.RecordBatch]:
        """Close the open segment: its runner's last matches; the next row starts a new one."""
        output = self._numbered(state, list(state.runner.finish()), state.runner)
        state.runner = None
        state.segment_base = state.matches
        return output

    def _feed(self, state: SegmentState, table: pa.Table) -> list[pa.RecordBatch]:
        if state.runner is None:
            state.runner = self.codec.new()
        state.runner_changed = True
        state.last_key = max(state.last_key, self._last_key(table))
        batch = table.drop_columns([_EVENT_KEY]).combine_chunks().to_batches()[0]
        return self._numbered(state, list(state.runner.feed(batch)), state.runner)

    def _last_key(self, table: pa.Table) -> int:
        """The largest event time (micros) of released rows (with NEXT: of their first ORDER BY
        column); under UNCERTAIN TIME their largest ``hi`` (a NULL ``hi`` is the engine's
        INVALID_UNCERTAIN_INTERVAL error when fed)."""
        if self.stream.order_time is not None:
            times = table.column(self.stream.order_time).cast(pa.timestamp("us", "UTC"))
            return pc.max(times.cast(pa.int64())).as_py()
        if not self.stream.uncertain:
            return pc.max(table.column(_EVENT_KEY)).as_py()
        hi = table.column(self.stream.plan.uncertain_time.hi_column)
        largest = pc.max(hi.cast(pa.timestamp("us", "UTC")).cast(pa.int64())).as_py()
        return NO_TIME if largest is None else largest

    def _numbered(self, state: SegmentState, batches: list[pa.RecordBatch],
                  runner) -> list[pa.RecordBatch]:
        """MATCH_NUMBER continues across segments: the segment's numbers are shifted by the
        matches before it. A clause compiled for a stream always has a MATCH_NUMBER() component
        (``compiler.rewrite``), whose largest value so far is the segment's match count; the
        runner's ``match_count`` also counts the empty matches OMIT EMPTY MATCHES leaves out."""
        state.matches = max(state.matches, state.segment_base + runner.match_count)
        out = []
        for batch in batches:
            if not batch.num_rows:
                continue
            numbers = batch.column(self.match_numbers[0])
            state.matches = max(state.matches, state.segment_base + pc.max(numbers).as_py())
            if state.segment_base:
                columns = list(batch.columns)
                for index in self.match_numbers:
                    shifted = pc.add(columns[index], pa.scalar(state.segment_base, columns[index].type))
                    columns[index] = shifted
                batch = pa.RecordBatch.from_arrays(columns, schema=batch.schema)
            out.append(batch)
        return out


__all__ = ["reads_stream", "register_stream", "SegmentMatcher", "SegmentState", "StreamPlan"]
