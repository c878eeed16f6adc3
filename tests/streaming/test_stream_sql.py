"""The SQL way in: ``FROM STREAM(t) WATERMARK ts DELAY OF ...`` through ``spark.sql`` after
``sparkcep.enable``; late rows are dropped (and counted by Spark) and the answer is the batch
answer over the rows that were not late; an ORDER BY that is not the event time is refused."""

from __future__ import annotations

import pytest

import sparkcep
from sparkcep.errors import AnalysisError

pytestmark = [pytest.mark.spark, pytest.mark.streaming]

STATEMENT = """
SELECT * FROM STREAM(sparkcep_test_ticks) WATERMARK ts DELAY OF INTERVAL 10 SECONDS
  MATCH_RECOGNIZE (
    PARTITION BY symbol ORDER BY ts
    MEASURES MATCH_NUMBER() AS n, FIRST(A.ts) AS start_ts, LAST(C.ts) AS end_ts,
             COUNT(B.*) AS falls, LAST(C.price) AS rebound
    ONE ROW PER MATCH
    PATTERN (A B+ C) WITHIN INTERVAL '1' MINUTE
    DEFINE B AS B.price < LAST(A.price) AND B.price < COALESCE(LAST(B.price, 1), 1e9),
           C AS C.price > LAST(B.price)
  ) AS v"""

# (symbol, second, price) per micro-batch; the third batch's first row is 11 s behind the
# watermark (10 s behind the newest row seen): it would have continued x's second V shape.
BATCHES = [
    [("x", 1000, 10), ("x", 1001, 9), ("x", 1002, 8), ("y", 1000, 5), ("y", 1003, 4)],
    [("x", 1003, 12), ("y", 1005, 6), ("x", 1050, 10), ("x", 1051, 7)],
    [("x", 1030, 11), ("y", 1045, 7), ("y", 1046, 3), ("x", 1053, 9)],
    [("zz", 9000, 1)],  # moves the watermark past everything
]


def _insert(spark, rows):
    values = ", ".join(f"('{s}', timestamp_seconds({t}), {p})" for s, t, p in rows)
    spark.sql(f"INSERT INTO sparkcep_test_ticks VALUES {values}")


def test_stream_sql_late_rows_and_batch_answer(spark, tmp_path):
    (tmp_path / "ticks").mkdir()
    spark.sql(f"CREATE TABLE sparkcep_test_ticks (symbol STRING, ts TIMESTAMP, price INT) "
              f"USING parquet LOCATION '{tmp_path / 'ticks'}'")
    sparkcep.enable(spark)
    query = None
    try:
        frame = spark.sql(STATEMENT)
        assert frame.isStreaming
        query = (frame.writeStream.format("memory").queryName("sparkcep_test_v").outputMode("append")
                 .option("checkpointLocation", str(tmp_path / "checkpoint")).start())
        for rows in BATCHES:
            _insert(spark, rows)
            query.processAllAvailable()
        dropped = sum(s.get("numRowsDroppedByWatermark", 0)
                      for p in query.recentProgress for s in p["stateOperators"])
        query.stop()
        got = sorted(tuple(r) for r in spark.sql("SELECT * FROM sparkcep_test_v").collect())
        # the batch answer over the rows that were not late
        late = ("x", 1030, 11)
        kept = [r for b in BATCHES for r in b if r != late]
        values = ", ".join(f"('{s}', timestamp_seconds({t}), {p})" for s, t, p in kept)
        spark.sql(f"CREATE OR REPLACE TEMPORARY VIEW sparkcep_test_batch AS "
                  f"SELECT * FROM VALUES {values} AS t(symbol, ts, price)")
        want = sorted(tuple(r) for r in spark.sql(
            STATEMENT.replace("STREAM(sparkcep_test_ticks) WATERMARK ts DELAY OF INTERVAL 10 SECONDS",
                              "sparkcep_test_batch")).collect())
        assert dropped == 1
        assert got == want
        assert [r[:2] for r in got] == [("x", 1), ("x", 2), ("y", 1)]
    finally:
        if query is not None:
            query.stop()
        sparkcep.disable(spark)
        spark.sql("DROP TABLE IF EXISTS sparkcep_test_ticks")


def test_order_by_must_be_the_event_time(spark, tmp_path):
    frame = (spark.readStream.schema("k STRING, ts TIMESTAMP, seq BIGINT").json(str(tmp_path))
             .withWatermark("ts", "5 seconds"))
    frame.createOrReplaceTempView("sparkcep_test_seq")
    with pytest.raises(AnalysisError) as caught:
        sparkcep.sql(spark, """SELECT * FROM sparkcep_test_seq MATCH_RECOGNIZE (
            PARTITION BY k ORDER BY seq MEASURES COUNT(*) AS c
            PATTERN (A B) WITHIN 10 DEFINE B AS B.seq > A.seq)""")
    assert caught.value.code == "STREAM_UNSUPPORTED"  # over a stream, WITHIN is an INTERVAL
    with pytest.raises(AnalysisError) as caught:
        sparkcep.sql(spark, """SELECT * FROM sparkcep_test_seq MATCH_RECOGNIZE (
            PARTITION BY k ORDER BY seq MEASURES COUNT(*) AS c
            PATTERN (A B) WITHIN INTERVAL '10' SECOND DEFINE B AS B.seq > A.seq)""")
    assert caught.value.code == "STREAM_ORDER_NOT_EVENT_TIME"
    assert caught.value.line == 2
