"""A streaming MATCH_RECOGNIZE gives the batch answer (docs/streaming.md).

Random partitions of events (seeded, 16 per query) arrive as JSON files, one micro-batch each, out of order
within the watermark delay; a last file with a far-future row of a separate partition moves the
watermark past every other row, so every segment is closed. The stream's output must then equal
the batch query's output over the same rows (the sentinel partition left out), row for row.
The reference is the batch query (itself checked against brute-force oracles elsewhere): the
stream shares its engines, not its ordering, buffering, segmenting or match numbering.

Every partition of a generated example is one partition of one streaming query, so one query
checks many examples; each query is stopped in ``finally``.
"""

from __future__ import annotations

import json
import os
import random

import pytest
import sparkcep

pytestmark = [pytest.mark.spark, pytest.mark.streaming]

DELAY_SECONDS = 30
SCHEMA = "user_id STRING, t BIGINT, v BIGINT, page STRING"


def random_rows(rng: random.Random, partitions: int):
    """``partitions`` partitions (each one example of the equivalence) of 3 to 14 events:
    strictly increasing times (ties would make the batch order arbitrary) with gaps around the
    WITHIN window and some far longer than window and watermark delay (the partition's matching
    is then closed and restarted while the stream runs), small values, some NULL values."""
    rows = []
    for p in range(partitions):
        t = 1_000 + rng.randint(0, 60)
        for _ in range(rng.randint(3, 14)):
            t += rng.choice([1, 2, 3, 5, 8, 13, 21, 25, 400])
            v = None if rng.random() < 0.15 else rng.randint(0, 4)
            rows.append({"user_id": f"u{p:02d}", "t": t, "v": v,
                         "page": rng.choice(["home", "cart", "buy"])})
    return rows


def _micro_batches(rows, batches: int, seed: int):
    """The rows cut into ``batches`` files along the time line; a row may slip into the next file
    when it is within the watermark delay of everything before it (so no row is late)."""
    rng = random.Random(seed)
    ordered = sorted(rows, key=lambda r: (r["t"], r["user_id"]))
    cuts = sorted(rng.sample(range(1, len(ordered)), min(batches - 1, max(0, len(ordered) - 1))))
    files = [ordered[a:b] for a, b in zip([0, *cuts], [*cuts, len(ordered)])]
    for j in range(len(files) - 1):
        newest = max((r["t"] for f in files[: j + 1] for r in f), default=0)
        slipping = [r for r in files[j] if r["t"] >= newest - DELAY_SECONDS and rng.random() < 0.3]
        files[j] = [r for r in files[j] if r not in slipping]
        files[j + 1] = slipping + files[j + 1]
    for j, f in enumerate(files):  # nothing late: each file is within the delay of the ones before
        before = max((r["t"] for g in files[:j] for r in g), default=None)
        assert before is None or all(r["t"] >= before - DELAY_SECONDS for r in f)
        rng.shuffle(f)
    return files


def _write(directory, files):
    for i, rows in enumerate(files):
        path = os.path.join(directory, f"part-{i:03d}.json")
        with open(path, "w") as out:
            out.writelines(json.dumps(r) + "\n" for r in rows)
        os.utime(path, (1_000_000 + i, 1_000_000 + i))  # the file source reads by time


CLAUSE = """
  MATCH_RECOGNIZE (
    PARTITION BY user_id ORDER BY ts
    MEASURES MATCH_NUMBER() AS n, FIRST(ts) AS first_ts, LAST(ts) AS last_ts, COUNT(*) AS rows_,
             SUM(v) AS total, LAST(page) AS last_page{measures}
    {rows}
    {skip}
    {strategy}
    PATTERN ({pattern}) WITHIN INTERVAL '20' SECOND
    DEFINE {define}
  ) AS m"""

DEFINE = "B AS B.v > FIRST(A.v) OR B.page = 'cart', C AS C.page <> LAST(B.page)"

ONE = "ONE ROW PER MATCH"
PREV = ("B AS B.v > PREV(B.v) OR B.page = PREV(B.page), "
        "C AS C.page <> PREV(C.page) AND COALESCE(C.v <= PREV(C.v, 3), true)")
CASES = {
    "strict": dict(strategy="", pattern="A B+ C", skip="AFTER MATCH SKIP PAST LAST ROW", rows=ONE),
    "strict_next_row": dict(strategy="", pattern="A B* C?", skip="AFTER MATCH SKIP TO NEXT ROW",
                            rows=ONE),
    "next_match": dict(strategy="SKIP TILL NEXT MATCH", pattern="A B C", skip="", rows=ONE),
    "any_match": dict(strategy="SKIP TILL ANY MATCH", pattern="A B+ C", skip="", rows=ONE),
    "all_rows": dict(strategy="", pattern="A B* C?", skip="AFTER MATCH SKIP TO NEXT ROW",
                     rows="ALL ROWS PER MATCH"),
    "prev": dict(strategy="", pattern="A B+ C", skip="AFTER MATCH SKIP TO NEXT ROW", rows=ONE,
                 define=PREV, measures=", PREV(A.page) AS before_page, PREV(C.v, 2) AS v_2"),
}
for _case in CASES.values():
    _case.setdefault("define", DEFINE)
    _case.setdefault("measures", "")


COLUMNS = ("user_id", "timestamp_seconds(t) AS ts", "v", "page")
SENTINEL = {"user_id": "~sentinel", "t": 10_000_000, "v": 0, "page": "home"}


def stream_and_batch(spark, tmp_path, files, statement, name="matches", *, view="events",
                     schema=SCHEMA, columns=COLUMNS, event_time="ts", sentinel=SENTINEL,
                     plans=None):
    """``statement`` (reading ``view``: the JSON ``files`` typed by ``schema`` and projected to
    ``columns``) over ``files`` as a stream, one file per micro-batch into a memory sink, with the
    watermark on ``event_time``, and as a batch query over the same rows: (the stream's rows,
    the batch query's rows, the rows the stream dropped as late), each sorted, without the
    ``sentinel`` partition whose far-future row moves the watermark past every other row.
    ``plans``, when given, receives the streaming query's analysed plan."""
    source = tmp_path / "in"
    source.mkdir()
    _write(str(source), [*files, [sentinel]])
    stream = (spark.readStream.schema(schema).option("maxFilesPerTrigger", 1).json(str(source))
              .selectExpr(*columns).withWatermark(event_time, f"{DELAY_SECONDS} seconds"))
    stream.createOrReplaceTempView(view)
    frame = sparkcep.sql(spark, statement)
    assert frame.isStreaming
    if plans is not None:
        plans.append(frame._jdf.queryExecution().analyzed().toString())
    sink = f"{name}_{abs(hash(str(tmp_path))) % 10**8}"
    query = (frame.writeStream.format("memory").queryName(sink).outputMode("append")
             .option("checkpointLocation", str(tmp_path / "checkpoint")).start())
    try:
        query.processAllAvailable()
        dropped = sum(s.get("numRowsDroppedByWatermark", 0)
                      for p in query.recentProgress for s in p["stateOperators"])
    finally:
        query.stop()
    got = _without_sentinel(spark.sql(f"SELECT * FROM {sink}").collect())
    spark.read.schema(schema).json(str(source)).selectExpr(*columns).createOrReplaceTempView(view)
    want = _without_sentinel(sparkcep.sql(spark, statement).collect())
    return got, want, dropped


def _without_sentinel(rows):
    return sorted((r for r in rows if r["user_id"] != "~sentinel"), key=lambda r: repr(tuple(r)))


@pytest.fixture()
def few_partitions(spark):
    """Two shuffle partitions for the streaming queries (fewer tasks per micro-batch)."""
    before = spark.conf.get("spark.sql.shuffle.partitions")
    spark.conf.set("spark.sql.shuffle.partitions", "2")
    yield spark
    spark.conf.set("spark.sql.shuffle.partitions", before)


#: the cases whose operators receive pandas DataFrames (``spark.sparkcep.streamExchange``,
#: ``runtime.stream_exchange``); the others receive Rows, the default
PANDAS_CASES = {"next_match", "all_rows", "prev"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_stream_equals_batch(few_partitions, tmp_path_factory, case):
    rng = random.Random(f"sparkcep-stream-{case}")  # reproducible; a new case gets new data
    rows = random_rows(rng, partitions=16)
    files = _micro_batches(rows, rng.randint(5, 6), rng.randint(0, 10**6))
    exchange = "pandas" if case in PANDAS_CASES else "rows"
    few_partitions.conf.set("spark.sparkcep.streamExchange", exchange)
    plans = []
    try:
        got, want, dropped = stream_and_batch(few_partitions, tmp_path_factory.mktemp(case),
                                               files, "SELECT * FROM events"
                                               + CLAUSE.format(**CASES[case]), plans=plans)
    finally:
        few_partitions.conf.unset("spark.sparkcep.streamExchange")
    assert ("EventTime, pandas" in plans[0]) == (exchange == "pandas")
    assert dropped == 0
    assert got == want
    assert len(want) > 0  # the generated data does produce matches
