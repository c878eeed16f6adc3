"""Trailing negation over a stream gives the batch answer (docs/streaming.md): the generator,
micro-batches and comparison of ``test_stream_equivalence`` (16 random partitions, 5-6
micro-batches out of order within the delay, gaps that close and reopen segments), with
``PATTERN (A B+ !C)`` under SKIP TILL NEXT MATCH: a match is reported once the watermark is past its
window, and the stream must report exactly the batch query's matches, numbered the same way."""

from __future__ import annotations

import random

import pytest
import sparkcep

from .test_stream_equivalence import (DELAY_SECONDS, SCHEMA, _micro_batches, _write,
                                      few_partitions, random_rows)

pytestmark = [pytest.mark.spark, pytest.mark.streaming]

__all__ = ["few_partitions"]  # the fixture, imported for the tests below

CLAUSE = """
  MATCH_RECOGNIZE (
    PARTITION BY user_id ORDER BY ts
    MEASURES MATCH_NUMBER() AS n, FIRST(ts) AS first_ts, LAST(ts) AS last_ts, COUNT(*) AS rows_,
             SUM(v) AS total
    {rows}
    {strategy}
    PATTERN ({pattern}) WITHIN INTERVAL '20' SECOND
    DEFINE A AS A.page = 'home', B AS B.page = 'cart' OR B.v > A.v, C AS C.page = 'buy'
  ) AS m"""

# one streaming query per case costs about a minute here: one case, the one whose matches
# complete only when their window closes under both the positive part and the negation
CASES = {
    "next_one": dict(strategy="SKIP TILL NEXT MATCH", pattern="A B+ !C", rows="ONE ROW PER MATCH"),
}


def _run(spark, tmp_path, files, statement):
    source = tmp_path / "in"
    source.mkdir()
    sentinel = [{"user_id": "~sentinel", "t": 10_000_000, "v": 0, "page": "home"}]
    _write(str(source), [*files, sentinel])
    stream = (spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(str(source))
              .selectExpr("user_id", "timestamp_seconds(t) AS ts", "v", "page")
              .withWatermark("ts", f"{DELAY_SECONDS} seconds"))
    stream.createOrReplaceTempView("events")
    frame = sparkcep.sql(spark, statement)
    assert frame.isStreaming
    name = f"trailing_{abs(hash(str(tmp_path))) % 10**8}"
    query = (frame.writeStream.format("memory").queryName(name).outputMode("append")
             .option("checkpointLocation", str(tmp_path / "checkpoint")).start())
    try:
        query.processAllAvailable()
    finally:
        query.stop()
    got = sorted((tuple(r) for r in spark.sql(f"SELECT * FROM {name}").collect()
                  if r["user_id"] != "~sentinel"), key=repr)
    batch = (spark.read.schema(SCHEMA).json(str(source))
             .selectExpr("user_id", "timestamp_seconds(t) AS ts", "v", "page"))
    batch.createOrReplaceTempView("events")
    want = sorted((tuple(r) for r in sparkcep.sql(spark, statement).collect()
                   if r["user_id"] != "~sentinel"), key=repr)
    return got, want


@pytest.mark.parametrize("case", sorted(CASES))
def test_trailing_negation_stream_equals_batch(few_partitions, tmp_path_factory, case):
    rng = random.Random(f"sparkcep-trailing-{case}")
    rows = random_rows(rng, partitions=16)
    files = _micro_batches(rows, rng.randint(5, 6), rng.randint(0, 10**6))
    statement = "SELECT * FROM events" + CLAUSE.format(**CASES[case])
    got, want = _run(few_partitions, tmp_path_factory.mktemp(case), files, statement)
    assert got == want
    positive = sparkcep.sql(few_partitions, statement.replace(" !C)", ")")
                            .replace(", C AS C.page = 'buy'", "")).count()
    assert 0 < len(want) < positive  # the negation does break some matches of A B+
