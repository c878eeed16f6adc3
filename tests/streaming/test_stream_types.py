"""Values keep their type through the streaming operator: a BIGINT beyond 2^53 beside NULLs (which
a pandas transport would carry as float64 and round), TIMESTAMPs in the years 1 and 9999 (beyond
pandas' nanosecond range), DECIMAL(38, 3) and a non-UTC session time zone. The stream's rows must
equal the batch query's over the same rows, in DEFINE, in MEASURES and in the rows ALL ROWS PER
MATCH passes through."""

from __future__ import annotations

import pytest

from .test_stream_equivalence import few_partitions, stream_and_batch  # noqa: F401 (fixture)

pytestmark = [pytest.mark.spark, pytest.mark.streaming]

SCHEMA = "user_id STRING, t BIGINT, v BIGINT, d STRING, m STRING, page STRING"
COLUMNS = ("user_id", "timestamp_seconds(t) AS ts", "v", "to_timestamp(d) AS d",
           "CAST(m AS DECIMAL(38, 3)) AS m", "page")
BIG = 2 ** 60 + 1  # float64 would make it 2 ** 60


def test_exact_values_through_a_stream(few_partitions, tmp_path):
    spark = few_partitions
    rows = []
    for p in range(4):
        for i in range(8):
            rows.append({"user_id": f"u{p}", "t": 1_000 + 3 * i, "page": "home",
                         "v": None if i % 3 == 1 else BIG + 2 * i + p,
                         "d": ["0001-01-02 03:04:05", "9999-12-30 23:59:59", None][i % 3],
                         "m": None if i % 4 == 3 else f"{10 ** 34 + i}.125"})
    files = [rows[:10], rows[10:20], rows[20:]]
    statement = f"""SELECT * FROM events MATCH_RECOGNIZE (
        PARTITION BY user_id ORDER BY ts
        MEASURES LAST(B.v) AS last_v, FIRST(B.d) AS first_d, SUM(B.m) AS sum_m, MATCH_NUMBER() AS n
        ALL ROWS PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B+) WITHIN INTERVAL '30' SECOND
        DEFINE B AS B.v IS NULL OR B.v = {BIG + 2} + (B.v - {BIG + 2}) AND B.v > A.v)"""
    before = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", "America/New_York")
    try:
        sentinel = {"user_id": "~sentinel", "t": 10_000_000, "v": 0, "d": None, "m": None,
                    "page": "home"}
        got, want, dropped = stream_and_batch(spark, tmp_path, files, statement, "types",
                                              schema=SCHEMA, columns=COLUMNS, sentinel=sentinel)
    finally:
        spark.conf.set("spark.sql.session.timeZone", before)
    assert dropped == 0
    assert got == want
    assert any(r["last_v"] is not None and r["last_v"] > 2 ** 53 and r["last_v"] % 2 == 1
               for r in got)  # an odd value beyond 2^53 came through exactly
    assert {r["d"].year for r in got if r["d"] is not None} == {1, 9999}
