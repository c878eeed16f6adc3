"""Which exchange a stream operator takes (``runtime.stream_exchange``), and the pandas path's
decoding of carried columns, without Spark. The Spark-marked ``test_stream_types.py`` streams
every carried type through both operators against the batch query."""

from __future__ import annotations

import decimal
import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from pyspark.sql import types as T

from sparkcep.errors import SparkCepError
from sparkcep.runtime.stream_exchange import (AS_IS, DAYS, MICROS, NULLABLE, EVENT_KEY,
                                              PandasExchange, RowExchange, exchange_for)


class _Conf:
    def __init__(self, values):
        self.values = values

    def get(self, key, default=None):
        return self.values.get(key, default)


def _frame(fields, setting="pandas"):
    values = {} if setting is None else {"spark.sparkcep.streamExchange": setting}
    return SimpleNamespace(schema=T.StructType(fields),
                           sparkSession=SimpleNamespace(conf=_Conf(values)))


FLAT = [T.StructField("k", T.StringType()), T.StructField("ts", T.TimestampType()),
        T.StructField("v", T.LongType()), T.StructField("x", T.DoubleType()),
        T.StructField("d", T.DateType()), T.StructField("m", T.DecimalType(38, 3)),
        T.StructField("b", T.BooleanType())]
OUT = T.StructType([T.StructField("k", T.StringType()), T.StructField("n", T.LongType())])


def test_rows_unless_pandas_is_asked_for():
    assert isinstance(exchange_for(_frame(FLAT, None), None, "ts", ["k"], OUT), RowExchange)
    chosen = exchange_for(_frame(FLAT), None, "ts", ["k"], OUT)
    assert isinstance(chosen, PandasExchange)
    assert chosen.codes == (AS_IS, MICROS, NULLABLE, NULLABLE, DAYS, AS_IS, AS_IS)
    assert chosen.keys == (("k", False),)


def test_what_pandas_would_not_carry_exactly_keeps_the_row_path():
    nested = [*FLAT, T.StructField("tags", T.ArrayType(T.StringType()))]
    assert isinstance(exchange_for(_frame(nested), None, "ts", ["k"], OUT), RowExchange)
    ntz = [*FLAT, T.StructField("local", T.TimestampNTZType())]
    assert isinstance(exchange_for(_frame(ntz), None, "ts", ["k"], OUT), RowExchange)
    # Spark groups -0.0 with 0.0 and every NaN together; their texts and pandas values do not
    assert isinstance(exchange_for(_frame(FLAT), None, "ts", ["x"], OUT), RowExchange)
    routed = T.StructType([*OUT.fields, T.StructField("late", T.StructType(FLAT))])
    assert isinstance(exchange_for(_frame(FLAT), None, "ts", ["k"], routed), RowExchange)


def test_a_key_pandas_would_change_keys_the_state_by_its_text():
    fields = [T.StructField("g", T.IntegerType(), True), T.StructField("h", T.LongType(), False),
              *FLAT]
    chosen = exchange_for(_frame(fields), None, "ts", ["g", "h", "d", "k"], OUT)
    assert chosen.keys == (("g", True), ("h", False), ("d", True), ("k", False))


def test_an_unknown_setting_is_a_typed_error():
    with pytest.raises(SparkCepError) as raised:
        exchange_for(_frame(FLAT, "arrow"), None, "ts", ["k"], OUT)
    assert raised.value.code == "INVALID_STREAM_EXCHANGE_SETTING"
    assert "rows, pandas" in str(raised.value)


def test_carried_columns_decode_to_the_original_values():
    """The DataFrame PySpark hands over for a key, as its worker builds it (columns by position,
    NumPy types), holding what ``PandasExchange.carried`` asks Catalyst for: the event time's
    guarded copy, then per column its value or its carried value and NULL flag."""
    schema = pa.schema([("k", pa.string()), ("ts", pa.timestamp("us", "UTC")),
                        ("v", pa.int64()), ("x", pa.float64()), ("i", pa.int32()),
                        ("d", pa.date32()), ("m", pa.decimal128(38, 3)), ("b", pa.bool_())])
    exchange = PandasExchange(schema, "ts", (AS_IS, MICROS, NULLABLE, NULLABLE, AS_IS, DAYS,
                                             AS_IS, AS_IS), (("k", False),))
    year_9999 = 253_402_214_400_000_000 - 1  # micros of 9999-12-31 23:59:59.999999
    frame = pd.DataFrame({
        "k": ["a", "a", "a"],
        "ts": pd.to_datetime([0, None, 0]),  # the guarded copy: not read
        "c1": np.array([year_9999, -62_135_596_800_000_000, 0], dtype=np.int64),
        "c1n": [False, False, True],
        "c2": np.array([2 ** 62 + 1, 0, -(2 ** 63)], dtype=np.int64), "c2n": [False, True, False],
        "c3": np.array([math.nan, 0.0, -0.0]), "c3n": [False, True, False],
        "i": np.array([-(2 ** 31), math.nan, 2 ** 31 - 1]),
        "c5": np.array([-719_162, 2_932_896, 0], dtype=np.int32), "c5n": [False, False, True],
        "m": [decimal.Decimal("-99999999999999999999999999999999999.999"), None,
              decimal.Decimal("0.001")],
        "b": [True, None, False],
    })
    table = exchange.table(iter([frame]))
    assert table.schema.names == [*schema.names, EVENT_KEY]
    rows = table.to_pylist()
    assert rows[0]["ts"].year == 9999 and rows[1]["ts"].year == 1 and rows[2]["ts"] is None
    assert [r[EVENT_KEY] for r in rows] == [year_9999, -62_135_596_800_000_000, None]
    assert [r["v"] for r in rows] == [2 ** 62 + 1, None, -(2 ** 63)]
    assert math.isnan(rows[0]["x"]) and rows[1]["x"] is None
    assert math.copysign(1, rows[2]["x"]) == -1
    assert [r["i"] for r in rows] == [-(2 ** 31), None, 2 ** 31 - 1]
    assert [str(r["d"]) for r in rows] == ["0001-01-01", "9999-12-31", "None"]
    assert [r["m"] for r in rows] == [decimal.Decimal("-99999999999999999999999999999999999.999"),
                                      None, decimal.Decimal("0.001")]
    assert [r["b"] for r in rows] == [True, None, False]


def test_output_is_one_dataframe_backed_by_arrow():
    batch = pa.record_batch({"k": ["a"], "n": pa.array([2 ** 62 + 1], pa.int64())})
    exchange = PandasExchange(pa.schema([]), "ts", ())
    frames = list(exchange.output([batch, batch]))
    assert len(frames) == 1 and len(frames[0]) == 2
    assert isinstance(frames[0]["n"].dtype, pd.ArrowDtype)
    assert frames[0]["n"].tolist() == [2 ** 62 + 1] * 2
    assert list(exchange.output([])) == []
