"""A streaming MATCH_RECOGNIZE stopped and restarted from its checkpoint continues where it
stopped: the partial matches and held rows come back from the state store, and the file sink
holds each match exactly once; together, the batch answer."""

from __future__ import annotations

import random

import pytest

import sparkcep
from tests.streaming.test_stream_equivalence import (CASES, CLAUSE, DELAY_SECONDS, SCHEMA,
                                                     _micro_batches, _write, random_rows)

pytestmark = [pytest.mark.spark, pytest.mark.streaming]


def _start(spark, source, sink, checkpoint, statement):
    stream = (spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(str(source))
              .selectExpr("user_id", "timestamp_seconds(t) AS ts", "v", "page")
              .withWatermark("ts", f"{DELAY_SECONDS} seconds"))
    stream.createOrReplaceTempView("events")
    frame = sparkcep.sql(spark, statement)
    return (frame.writeStream.format("parquet").option("path", str(sink)).outputMode("append")
            .option("checkpointLocation", str(checkpoint)).trigger(availableNow=True).start())


def test_restart_from_checkpoint_gives_each_match_once(spark, tmp_path):
    rng = random.Random("sparkcep-stream-restart")
    files = _micro_batches(random_rows(rng, partitions=10), 6, rng.randint(0, 10**6))
    statement = "SELECT * FROM events" + CLAUSE.format(**CASES["next_match"])
    source, sink, checkpoint = tmp_path / "in", tmp_path / "out", tmp_path / "checkpoint"
    source.mkdir()
    sentinel = [{"user_id": "~sentinel", "t": 10_000_000, "v": 0, "page": "home"}]
    _write(str(source), files[:3])
    query = _start(spark, source, sink, checkpoint, statement)
    try:
        query.awaitTermination(300)
    finally:
        query.stop()
    first_run = spark.read.parquet(str(sink)).count()
    _write(str(source), [*files, sentinel])  # the first three again (same names), then the rest
    query = _start(spark, source, sink, checkpoint, statement)
    try:
        query.awaitTermination(300)
        assert query.exception() is None
    finally:
        query.stop()
    got = sorted((tuple(r) for r in spark.read.parquet(str(sink)).collect()
                  if r["user_id"] != "~sentinel"), key=repr)
    batch = (spark.read.schema(SCHEMA).json(str(source))
             .selectExpr("user_id", "timestamp_seconds(t) AS ts", "v", "page"))
    batch.createOrReplaceTempView("events")
    want = sorted((tuple(r) for r in sparkcep.sql(spark, statement).collect()
                   if r["user_id"] != "~sentinel"), key=repr)
    assert 0 < first_run < len(want)  # the restart had matches left to find
    assert got == want


def test_a_checkpoint_of_another_statement_is_refused_with_what_to_do(spark, tmp_path):
    """Restarted with a changed DEFINE (same output columns: Spark's own checks pass), the
    stored runs belong to another program: the query stops with STREAM_STATE_INCOMPATIBLE,
    raised on an executor and typed on the driver, rather than resume with the wrong program."""
    rng = random.Random("sparkcep-stream-restart-changed")
    files = _micro_batches(random_rows(rng, partitions=6), 3, rng.randint(0, 10**6))
    statement = "SELECT * FROM events" + CLAUSE.format(**CASES["next_match"])
    changed = statement.replace("B.v > FIRST(A.v)", "B.v >= FIRST(A.v)")
    assert changed != statement
    source, sink, checkpoint = tmp_path / "in", tmp_path / "out", tmp_path / "checkpoint"
    source.mkdir()
    _write(str(source), files[:2])
    query = _start(spark, source, sink, checkpoint, statement)
    try:
        query.awaitTermination(300)
    finally:
        query.stop()
    _write(str(source), files)
    query = _start(spark, source, sink, checkpoint, changed)
    try:
        with pytest.raises(sparkcep.SparkCepError) as raised:
            sparkcep.await_stream(query, 300, changed)
    finally:
        query.stop()
    assert raised.value.code == "STREAM_STATE_INCOMPATIBLE"
    assert "new checkpoint location" in str(raised.value).splitlines()[0]
