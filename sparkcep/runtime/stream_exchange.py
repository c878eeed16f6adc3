"""How a stream's rows cross between Spark and a stateful operator's Python worker.

PySpark 4.3 offers a stateful operator two ways to receive its rows:

* ``transformWithState`` hands over one ``Row`` per input row, built cell by cell from the Arrow
  batch (a PyArrow scalar and its ``as_py()`` per cell), and turns the returned Rows back into
  Arrow with ``from_pylist``: about 45 µs per row of seven columns on the machine of
  docs/benchmarks.md §10h, most of a busy stream's Python time;
* ``transformWithStateInPandas`` converts each Arrow batch to pandas column by column, regroups
  its rows by key into DataFrames, and converts the returned DataFrames to Arrow column by
  column: about a fifth of that.

The pandas path is exact only for what pandas holds exactly. On the way in, PySpark converts
with NumPy types: a BIGINT or DOUBLE column with a NULL becomes float64 (a BIGINT beyond 2^53
loses digits; a NULL DOUBLE becomes NaN), a TIMESTAMP becomes local wall time in nanoseconds
(ambiguous in a DST fold, and out of range before 1677 or after 2262: the worker would fail), a
DATE a NumPy date. So the operator's input is *carried*: Catalyst computes, beside each such
column, a form pandas holds exactly, and ``PandasExchange.table`` rebuilds the Arrow table the
operator works on (the same as the Row path's, value for value):

* BIGINT, FLOAT, DOUBLE that may be NULL: the value with NULL as 0, and a BOOLEAN "was NULL";
* TIMESTAMP: ``unix_micros``, DATE: ``unix_date``, each carried the same way;
* BOOLEAN, TINYINT, SMALLINT, INT (a NULL makes float64, exact for these), BIGINT/FLOAT/DOUBLE
  that cannot be NULL, DECIMAL (Python ``Decimal``), STRING, BINARY: as they are.

The event-time column itself stays in the input, because Spark's late-row filter reads it; it
is NULL outside the range pandas holds (so the worker does not fail on it) and is not read in
Python: the carried micros are.

On the way out, the operator's Arrow output is handed over as pandas columns backed by Arrow
(``pd.ArrowDtype``), which PySpark converts to Arrow again without loss for every flat type.

Anything else in the input or the output (ARRAY, MAP, STRUCT — the routed late rows are one —
INTERVAL, TIMESTAMP_NTZ in the input, a grouping column that is not carried as it is) keeps the
Row path (``RowExchange``). Which one an operator uses is decided once, when the stream is
planned (``exchange_for``); both give the operator the same Arrow tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

#: the event-time column in micros, appended to every table an operator receives
EVENT_KEY = "__sparkcep_event_micros"
_CARRIED = "__sparkcep_carried_"

AS_IS = "as_is"
NULLABLE = "nullable"  # the value (NULL as 0) and a "was NULL" flag
MICROS = "micros"  # a TIMESTAMP as unix_micros, carried as NULLABLE
DAYS = "days"  # a DATE as unix_date, carried as NULLABLE

# pandas holds the earliest and latest instants of this range exactly (nanoseconds in int64)
_PANDAS_TIMESTAMPS = ("1677-09-22 00:00:00", "2262-04-11 00:00:00")


def _flat_input_code(field) -> str | None:
    """How a column (a Spark ``StructField``) is carried into pandas (None: not carried)."""
    from pyspark.sql import types as T

    data_type = field.dataType
    if isinstance(data_type, (T.LongType, T.FloatType, T.DoubleType)):
        return NULLABLE if field.nullable else AS_IS
    if isinstance(data_type, (T.BooleanType, T.ByteType, T.ShortType, T.IntegerType,
                              T.DecimalType, T.StringType, T.BinaryType)):
        return AS_IS
    if isinstance(data_type, T.TimestampType):
        return MICROS
    if isinstance(data_type, T.DateType):
        return DAYS
    return None  # TIMESTAMP_NTZ, intervals, ARRAY, MAP, STRUCT, VARIANT, ...


def _flat_output(data_type) -> bool:
    """Whether PySpark converts a pandas column of this type backed by Arrow back exactly."""
    from pyspark.sql import types as T

    return isinstance(data_type, (T.BooleanType, T.ByteType, T.ShortType, T.IntegerType,
                                  T.LongType, T.FloatType, T.DoubleType, T.DecimalType,
                                  T.StringType, T.BinaryType, T.DateType, T.TimestampType,
                                  T.TimestampNTZType))


@dataclass(frozen=True)
class RowExchange:
    """Rows in and out as Spark Rows (``transformWithState``): every type, one cell at a time."""

    schema: pa.Schema  # the operator's input rows, as Arrow
    event_time: str

    def apply(self, frame, keys: list[str], processor, output_type, event_time_column: str = ""):
        """The stateful operator over ``frame`` grouped by ``keys``."""
        return frame.groupBy(*keys).transformWithState(
            statefulProcessor=processor, outputStructType=output_type, outputMode="Append",
            timeMode="EventTime", eventTimeColumnName=event_time_column)

    def table(self, rows) -> pa.Table:
        """Spark's Rows (with every column of the input, in its order) as Arrow in ``schema``,
        plus ``EVENT_KEY``. Values are Python's: BIGINT and DECIMAL exact, TIMESTAMP an aware
        datetime of any year, so nothing is rounded or out of range on the way."""
        columns = list(zip(*rows)) or [()] * len(self.schema)
        arrays = [pa.array(values, type=field.type) for values, field in zip(columns, self.schema)]
        table = pa.Table.from_arrays(arrays, schema=self.schema)
        return _with_event_key(table, table.column(self.event_time))

    def output(self, table) -> Iterator:
        """An output table, batch or list of batches as Spark Rows."""
        from pyspark.sql import Row

        for part in table if isinstance(table, list) else [table]:
            make = Row(*part.schema.names)
            for values in zip(*(column.to_pylist() for column in part.columns)):
                yield make(*values)


@dataclass(frozen=True)
class PandasExchange:
    """Rows in and out as pandas DataFrames (``transformWithStateInPandas``), carried exactly
    (see the module docstring)."""

    schema: pa.Schema  # the operator's input rows, as Arrow (what ``table`` rebuilds)
    event_time: str
    codes: tuple[str, ...]  # per input column: AS_IS, NULLABLE, MICROS or DAYS
    # per grouping column: its name, and whether the state is keyed by its text instead
    keys: tuple[tuple[str, bool], ...] = ()

    def apply(self, frame, keys: list[str], processor, output_type, event_time_column: str = ""):
        """The stateful operator over ``frame`` grouped by ``keys``, its input carried."""
        carried, grouping = self.carried(frame)
        return carried.groupBy(*grouping).transformWithStateInPandas(
            statefulProcessor=processor, outputStructType=output_type, outputMode="Append",
            timeMode="EventTime", eventTimeColumnName=event_time_column)

    def carried(self, frame):
        """The operator's input with each column carried (the columns Catalyst computes), and
        the columns to group it by: the grouping columns, or their text for those whose pandas
        value would not key the state exactly (a nullable INT becomes float64 in pandas; its
        text is NULL or the digits, one text per value, as Spark groups them)."""
        from pyspark.sql import functions as F

        columns = []
        for index, (field, code) in enumerate(zip(frame.schema.fields, self.codes)):
            column = F.col(f"`{field.name}`")
            if field.name == self.event_time:  # kept for Spark's late-row filter, not read here
                earliest, latest = (F.lit(text).cast("timestamp") for text in _PANDAS_TIMESTAMPS)
                in_range = (column >= earliest) & (column < latest)
                columns.append(F.when(in_range, column).alias(field.name,
                                                               metadata=field.metadata))
            if code == AS_IS:
                if field.name != self.event_time:
                    columns.append(column)
                continue
            value = (F.unix_micros(column) if code == MICROS
                     else F.unix_date(column) if code == DAYS else column)
            zero = F.lit(0).cast(frame.schema[field.name].dataType) if code == NULLABLE \
                else F.lit(0).cast("bigint" if code == MICROS else "int")
            columns.append(F.coalesce(value, zero).alias(f"{_CARRIED}{index}"))
            columns.append(value.isNull().alias(f"{_CARRIED}{index}_null"))
        grouping = []
        for index, (name, as_text) in enumerate(self.keys):
            if not as_text:
                grouping.append(name)
                continue
            column = F.col(f"`{name}`")
            if frame.schema[name].dataType.typeName() == "timestamp":  # text without the offset
                column = F.unix_micros(column)  # would repeat in a DST fold: its micros
            columns.append(column.cast("string").alias(f"{_CARRIED}key{index}"))  # read last
            grouping.append(f"{_CARRIED}key{index}")
        return frame.select(columns), grouping

    def table(self, frames: Iterable) -> pa.Table:
        """The Arrow table in ``schema`` (plus ``EVENT_KEY``) of the DataFrames PySpark hands
        over for one key, whose columns are those of ``carried``, in its order."""
        chunks = [frame for frame in frames if len(frame)]
        if not chunks:
            return _with_event_key(self.schema.empty_table(),
                                   pa.array([], self.schema.field(self.event_time).type))
        import pandas as pd

        data = chunks[0] if len(chunks) == 1 else pd.concat(chunks, ignore_index=True)
        columns = [series.to_numpy() for _, series in data.items()]  # by position
        arrays, position, event_time = [], 0, None
        for field, code in zip(self.schema, self.codes):
            if field.name == self.event_time:
                position += 1  # the guarded copy for Spark's filter
            if code == AS_IS:
                arrays.append(_as_is(columns[position], field.type))
                position += 1
                continue
            values = columns[position]
            missing = columns[position + 1].astype(bool, copy=False)
            position += 2
            if code == NULLABLE:
                array = pa.array(values, type=field.type, mask=missing)
            else:
                carried = pa.array(values, type=pa.int64() if code == MICROS else pa.int32(),
                                   mask=missing)
                array = carried.cast(field.type) if code == MICROS else \
                    carried.view(pa.date32())
            arrays.append(array)
            if field.name == self.event_time:
                event_time = array
        table = pa.Table.from_arrays(arrays, schema=self.schema)
        return _with_event_key(table, event_time if event_time is not None
                               else table.column(self.event_time))

    def output(self, table) -> Iterator:
        """An output table, batch or list of batches as one pandas DataFrame backed by Arrow,
        which PySpark converts back without loss (one conversion per call: each costs about a
        millisecond whatever its length)."""
        import pandas as pd

        if isinstance(table, list):
            table = pa.Table.from_batches(table) if table else None
        elif isinstance(table, pa.RecordBatch):
            table = pa.Table.from_batches([table])
        if table is None or not table.num_rows:
            return
        # PySpark converts a column backed by one Arrow array (not several chunks)
        yield table.combine_chunks().to_pandas(types_mapper=pd.ArrowDtype)


def _as_is(values: np.ndarray, arrow_type: pa.DataType) -> pa.Array:
    """A column carried as it is: NumPy numbers (float64 with NaN where a TINYINT to INT was
    NULL, exact for them), booleans, or Python objects (``Decimal``, ``str``, ``bytes``, None)."""
    if values.dtype == object:
        return pa.array(values, type=arrow_type, from_pandas=True)
    if values.dtype.kind == "f" and pa.types.is_integer(arrow_type):
        missing = np.isnan(values)
        return pa.array(np.where(missing, 0, values).astype(np.int64), mask=missing).cast(arrow_type)
    return pa.array(values, type=arrow_type)


def _with_event_key(table: pa.Table, event_time) -> pa.Table:
    micros = event_time.cast(pa.timestamp("us", "UTC")).cast(pa.int64())
    return table.append_column(EVENT_KEY, micros)


EXCHANGE_CONF = "spark.sparkcep.streamExchange"
EXCHANGES = ("rows", "pandas")


def exchange_setting(spark) -> str:
    """The session's ``spark.sparkcep.streamExchange``: ``rows`` (the default) or ``pandas``."""
    from sparkcep.runtime.registration import session_choice

    return session_choice(spark, EXCHANGE_CONF, EXCHANGES, "INVALID_STREAM_EXCHANGE_SETTING")


def exchange_for(frame, schema: pa.Schema, event_time: str, keys: list[str], output_type):
    """The exchange of an operator whose input is ``frame`` (its Arrow ``schema``), grouped by
    ``keys``, with ``output_type`` rows out: the session's choice (``exchange_setting``), and
    the Row path whatever it says when a column would not cross pandas exactly (a nested type,
    TIMESTAMP_NTZ in the input, a FLOAT or DOUBLE grouping column)."""
    if exchange_setting(frame.sparkSession) == "rows":
        return RowExchange(schema, event_time)
    codes = tuple(_flat_input_code(field) for field in frame.schema.fields)
    by_name = {field.name: field for field in frame.schema.fields}
    grouping = tuple((name, _key_as_text(by_name[name])) if name in by_name else (name, None)
                     for name in keys)
    if None in codes or any(as_text is None for _, as_text in grouping) \
            or not all(_flat_output(field.dataType) for field in output_type.fields):
        return RowExchange(schema, event_time)
    return PandasExchange(schema, event_time, codes, grouping)


def _key_as_text(field) -> bool | None:
    """How a grouping column keys the state on the pandas path: as it is (False) when pandas
    holds its value exactly (a STRING, a BINARY, an integer or BOOLEAN that cannot be NULL), by
    its text (True) for other integers, BOOLEAN, DECIMAL, DATE and TIMESTAMP (one text per
    value), None (the Row path) for the rest: a FLOAT or DOUBLE (Spark groups -0.0 with 0.0 and
    every NaN together, their texts differ) and nested types."""
    from pyspark.sql import types as T

    data_type = field.dataType
    if isinstance(data_type, (T.StringType, T.BinaryType)):
        return False
    if isinstance(data_type, (T.BooleanType, T.ByteType, T.ShortType, T.IntegerType, T.LongType)):
        return field.nullable
    if isinstance(data_type, (T.DecimalType, T.DateType, T.TimestampType)):
        return True
    return None


__all__ = ["EVENT_KEY", "PandasExchange", "RowExchange", "exchange_for"]
