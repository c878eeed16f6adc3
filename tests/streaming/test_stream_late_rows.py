"""Late rows routed to a table (``sparkcep.start_stream(..., late_rows=FOLDER)``,
docs/streaming.md "Routing late rows"): every input row is either matched as in a batch query or
in the late-rows table, exactly once, also when Spark replays a micro-batch.

Random partitions arrive as JSON files, one micro-batch each, in time order; into later files go
rows far behind the watermark (some behind everything their partition has released, which every
rule calls late) and rows without an event time. Which of the rows in between are late depends on
when each partition last released rows, so the checks do not assume a late set; they pin it:

* ``PATTERN (A)`` with ``DEFINE A AS true`` matches every row the operator places: the matches
  and the late rows are then the input exactly (by row id), with no row in both or in neither;
  once with PREV in DEFINE (the ordering operator decides lateness, the matching operator
  routes), once without;
* a real pattern's matches equal the batch query's over the input rows that are not late;
* the rows placed far behind are in the late table;
* with the checkpoint's last commit deleted, Spark replays that micro-batch, and the tables still
  hold every row once.
"""

from __future__ import annotations

import random

import pytest
import sparkcep
from sparkcep.errors import SparkCepError

from .test_stream_equivalence import _write

pytestmark = [pytest.mark.spark, pytest.mark.streaming]

DELAY_SECONDS = 10
SCHEMA = "user_id STRING, t BIGINT, v BIGINT, page STRING, id BIGINT"
COLUMNS = ("user_id", "timestamp_seconds(t) AS ts", "v", "page", "id")


def _files(seed: int, partitions: int = 12, batches: int = 6):
    """Micro-batches (lists of rows) in time order, with late rows mixed into the later ones: the
    input rows, the ids of rows placed behind everything their partition released."""
    rng = random.Random(seed)
    rows, ids = [], iter(range(1, 10**6))
    for p in range(partitions):
        t = 1_000 + rng.randint(0, 30)
        for _ in range(rng.randint(6, 16)):
            t += rng.choice([1, 2, 3, 5, 8, 13, 30])
            rows.append({"user_id": f"u{p:02d}", "t": t, "v": rng.randint(0, 4),
                         "page": rng.choice(["home", "cart", "buy"]), "id": next(ids)})
    rows.sort(key=lambda r: (r["t"], r["user_id"]))
    size = -(-len(rows) // batches)
    files = [rows[i * size:(i + 1) * size] for i in range(batches)]
    behind = set()
    for j in range(2, batches):
        # a partition with rows in file j - 1 has released up to that micro-batch's watermark,
        # the newest time of the files before it less the delay: a row before that is late
        released = max(r["t"] for g in files[:j - 1] for r in g) - DELAY_SECONDS
        for user in sorted({r["user_id"] for r in files[j - 1]})[:4]:
            late = {"user_id": user, "t": released - rng.randint(0, 50), "v": rng.randint(0, 4),
                    "page": "home", "id": next(ids)}
            behind.add(late["id"])
            files[j].append(late)
        newest = max(r["t"] for g in files[:j] for r in g)  # near the watermark: late or not
        for _ in range(3):
            files[j].append({"user_id": f"u{rng.randrange(partitions):02d}",
                             "t": newest - rng.randint(0, 2 * DELAY_SECONDS), "v": rng.randint(0, 4),
                             "page": rng.choice(["home", "cart"]), "id": next(ids)})
    files[3].append({"user_id": "u00", "t": None, "v": 1, "page": "home", "id": next(ids)})
    files.append([{"user_id": "~sentinel", "t": 10**7, "v": 0, "page": "home", "id": 0}])
    for f in files:
        rng.shuffle(f)
    return files, behind


def _run(spark, statement, source, folder, *, replay=False, late_table=None):
    """The statement over the files as a stream with late rows routed (to a folder, or to
    ``late_table``); the matches and the late rows as lists of Rows (without the micro-batch
    column). With ``replay``, once more after the checkpoint's last commit is deleted."""
    late_target = late_table or str(folder / "late")

    def start():
        stream = (spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(str(source))
                  .selectExpr(*COLUMNS).withWatermark("ts", f"{DELAY_SECONDS} seconds"))
        stream.createOrReplaceTempView("events")
        query = sparkcep.start_stream(spark, statement, checkpoint=str(folder / "checkpoint"),
                                      late_rows=late_target, output=str(folder / "out"),
                                      available_now=True)
        try:
            sparkcep.await_stream(query, sql=statement)
        finally:
            query.stop()

    start()
    if replay:
        commits = sorted((folder / "checkpoint" / "commits").glob("[0-9]*"), key=lambda p: int(p.name))
        commits[-1].unlink()
        (commits[-1].parent / f".{commits[-1].name}.crc").unlink(missing_ok=True)
        start()
    matches = spark.read.parquet(str(folder / "out")).drop("micro_batch").collect()
    late = (spark.table(late_table) if late_table else spark.read.parquet(late_target)) \
        .drop("micro_batch").collect()
    return [m for m in matches if m["user_id"] != "~sentinel"], late


EVERY_ROW = """
SELECT * FROM events MATCH_RECOGNIZE (
  PARTITION BY user_id ORDER BY ts
  MEASURES A.id AS id
  ONE ROW PER MATCH
  PATTERN (A) WITHIN INTERVAL '20' SECOND
  DEFINE A AS {define}
)"""


@pytest.mark.parametrize("define, table", [
    ("true", False), ("PREV(A.v) IS NULL OR A.v >= PREV(A.v) OR true", False), ("true", True)],
    ids=["plain", "prev", "into_a_table"])
def test_every_row_is_matched_or_late_exactly_once(spark, tmp_path, define, table):
    files, behind = _files(seed=7)
    source = tmp_path / "in"
    source.mkdir()
    _write(str(source), files)
    statement = EVERY_ROW.format(define=define)
    late_table = None
    if table:  # a table the user names, created by the writer (in a database kept in tmp_path)
        spark.sql(f"CREATE DATABASE IF NOT EXISTS sparkcep_late LOCATION '{tmp_path / 'db'}'")
        spark.sql("DROP TABLE IF EXISTS sparkcep_late.late_events")
        late_table = "sparkcep_late.late_events"
    matches, late = _run(spark, statement, source, tmp_path, replay=True, late_table=late_table)
    if table:  # the writer's setting stayed in the stream's own copy of the session
        assert spark.conf.get("spark.sql.sources.partitionOverwriteMode").upper() == "STATIC"
    inputs = sorted(r["id"] for f in files for r in f if r["id"])
    matched, routed = [m["id"] for m in matches], [r["id"] for r in late]
    assert sorted(matched + routed) == inputs  # each row once: matched or late
    assert behind <= set(routed)
    assert any(r["ts"] is None for r in late)  # the row without an event time
    assert len(routed) > len(behind)  # some rows near the watermark were late too
    by_id = {r["id"]: r for f in files for r in f}
    for row in late:  # the late table holds the rows as they came in
        source_row = by_id[row["id"]]
        assert (row["user_id"], row["v"], row["page"]) == \
            (source_row["user_id"], source_row["v"], source_row["page"])


PATTERNS = {
    "next_match": """
SELECT user_id, first_id, last_id, n FROM events MATCH_RECOGNIZE (
  PARTITION BY user_id ORDER BY ts
  MEASURES FIRST(A.id) AS first_id, LAST(C.id) AS last_id, COUNT(B.id) AS n
  ONE ROW PER MATCH
  SKIP TILL NEXT MATCH
  PATTERN (A B+ C) WITHIN INTERVAL '30' SECOND
  DEFINE B AS B.v > FIRST(A.v) OR B.page = 'cart', C AS C.page = 'buy'
) WHERE n > 0""",
    "prev_all_rows": """
SELECT user_id, id, m, cls FROM events MATCH_RECOGNIZE (
  PARTITION BY user_id ORDER BY ts
  MEASURES MATCH_NUMBER() AS m, CLASSIFIER() AS cls
  ALL ROWS PER MATCH
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A D+ U+) WITHIN INTERVAL '40' SECOND
  DEFINE D AS D.v < PREV(D.v), U AS U.v > PREV(U.v)
)""",
}


@pytest.mark.parametrize("case", sorted(PATTERNS))
def test_matches_are_the_batch_answer_over_the_rows_not_late(spark, tmp_path, case):
    files, behind = _files(seed=11)
    source = tmp_path / "in"
    source.mkdir()
    _write(str(source), files)
    statement = PATTERNS[case]
    matches, late = _run(spark, statement, source, tmp_path)
    assert behind <= {r["id"] for r in late}
    late_ids = {r["id"] for r in late}
    on_time = [r for f in files for r in f if r["id"] not in late_ids and r["id"]]
    spark.createDataFrame(on_time, SCHEMA).selectExpr(*COLUMNS).createOrReplaceTempView("events")
    want = sorted(tuple(r) for r in sparkcep.sql(spark, statement).collect())
    assert sorted(tuple(r) for r in matches) == want
    assert want  # the data does produce matches


def test_a_statement_computed_per_micro_batch_is_refused(spark, tmp_path):
    spark.readStream.schema(SCHEMA).json(str(tmp_path)).selectExpr(*COLUMNS) \
        .withWatermark("ts", "10 seconds").createOrReplaceTempView("events")
    statement = "SELECT user_id, count(*) FROM (" + EVERY_ROW.format(define="true") + ") GROUP BY user_id"
    with pytest.raises(SparkCepError) as raised:
        sparkcep.start_stream(spark, statement, checkpoint=str(tmp_path / "c"),
                              late_rows=str(tmp_path / "late"), output=str(tmp_path / "out"))
    assert raised.value.code == "LATE_ROWS_UNSUPPORTED"
    assert "an aggregation" in str(raised.value)


def test_a_row_after_its_partition_closed_quietly(spark, tmp_path):
    """With PREV, two operators run: the ordering operator lets rows through in order, the
    matching operator closes a segment once the watermark is WITHIN past its last row. Partition
    ``k`` gets one row at 100 s; the watermark (delay 10 s, driven by the ``clock`` partition)
    reaches 105 s in micro-batch 3, which releases it, and 130 s in micro-batch 5, which closes
    its segment although ``k`` has no new row then. A row of ``k`` at 110 s comes in micro-batch
    6 (watermark 140 s): it is late, though the ordering operator last released ``k`` at 105 s.
    A rule per key would pass it on (and Spark would stop the query: an operator may not emit a
    row older than the watermark); the rule is the watermark's, the same for every key."""
    clock = [100, 105, 115, 125, 140, 150, 160, 300]
    files = [[{"user_id": "clock", "t": t, "v": 0, "page": "home", "id": 100 + i}]
             for i, t in enumerate(clock)]
    files[0].append({"user_id": "k", "t": 100, "v": 1, "page": "home", "id": 1})
    files[6].append({"user_id": "k", "t": 110, "v": 2, "page": "home", "id": 2})
    source = tmp_path / "in"
    source.mkdir()
    _write(str(source), files)
    statement = EVERY_ROW.format(define="PREV(A.v) IS NULL OR A.v >= PREV(A.v) OR true")
    matches, late = _run(spark, statement, source, tmp_path)
    assert [m["id"] for m in matches if m["user_id"] == "k"] == [1]
    assert [r["id"] for r in late] == [2]
