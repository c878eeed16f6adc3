"""Chunked WITHIN execution on real Spark: for every eligible strategy and output mode, the rows
of the chunked run equal the rows of the sequential run (``spark.sparkcep.withinChunks``).

The data are random events with unique keys (ties in the WITHIN key are ordered arbitrarily by
Spark in both modes, see docs/semantics.md) and gaps of 0.5 to 6 seconds, so windows straddle
chunk boundaries in every chunk."""

from __future__ import annotations

import random

import pytest

import sparkcep
from sparkcep.compiler.chunks import CHUNK_COLUMN
from sparkcep.compiler.rewrite import ChunkOptions, compile_statement

pytestmark = pytest.mark.spark

CONF = "spark.sparkcep.withinChunks"


@pytest.fixture(scope="module")
def events(spark):
    rng = random.Random(11)
    rows, t = [], 0.0
    for i in range(1500):
        t += rng.choice([0.5, 1, 1, 2, 3, 6])
        kind = rng.choices("abcdx", weights=[10, 30, 10, 5, 45])[0]
        rows.append((i % 2, i, t, kind, rng.randint(0, 99)))
    frame = spark.createDataFrame(rows, "p INT, id INT, t DOUBLE, kind STRING, v INT")
    frame = frame.selectExpr("p", "id", "t", "timestamp_seconds(t) AS ts", "kind", "v")
    frame.createOrReplaceTempView("ev")
    # one NULL key: its partition must fall back to one chunk
    spark.sql("SELECT * FROM ev UNION ALL SELECT 1, 100000, NULL, NULL, 'a', 1").createOrReplaceTempView(
        "ev_null")
    return "ev"


def run(spark, query: str, chunks: str) -> list[tuple]:
    spark.conf.set(CONF, chunks)
    try:
        return sorted((tuple(r) for r in sparkcep.sql(spark, query).collect()), key=repr)
    finally:
        spark.conf.unset(CONF)


ABC = "DEFINE A AS kind = 'a', B AS kind = 'b', C AS kind = 'c'"

CASES = {
    "any_one_row": f"""SELECT * FROM ev MATCH_RECOGNIZE (ORDER BY ts
        MEASURES FIRST(A.id) AS a, LAST(C.id) AS c, COUNT(B.*) AS nb, SUM(B.v) AS sb
        ONE ROW PER MATCH SKIP TILL ANY MATCH PATTERN (A B{{1,2}} C) WITHIN INTERVAL '20' SECOND
        {ABC})""",
    "any_all_rows_unmatched": f"""SELECT * FROM ev MATCH_RECOGNIZE (ORDER BY ts
        MEASURES CLASSIFIER() AS cls, FIRST(A.id) AS a
        ALL ROWS PER MATCH WITH UNMATCHED ROWS SKIP TILL ANY MATCH PATTERN (A B C)
        WITHIN INTERVAL '15' SECOND {ABC})""",
    "next_trailing_kleene": """SELECT * FROM ev MATCH_RECOGNIZE (ORDER BY ts
        MEASURES FIRST(A.id) AS a, COUNT(B.*) AS nb, LAST(B.id) AS lb
        ONE ROW PER MATCH SKIP TILL NEXT MATCH PATTERN (A B+) WITHIN INTERVAL '30' SECOND
        DEFINE A AS kind = 'a', B AS kind = 'b')""",
    "next_negation_condition": """SELECT * FROM ev MATCH_RECOGNIZE (ORDER BY ts
        MEASURES FIRST(A.id) AS a, LAST(C.id) AS c, AVG(B.v) AS ab
        ALL ROWS PER MATCH WITH UNMATCHED ROWS SKIP TILL NEXT MATCH
        PATTERN (A !D B+ C) WITHIN INTERVAL '40' SECOND
        DEFINE A AS kind = 'a', B AS kind = 'b' AND B.v >= A.v, C AS kind = 'c', D AS kind = 'd')""",
    "strict_to_next_row_one_row": """SELECT * FROM ev MATCH_RECOGNIZE (ORDER BY ts
        MEASURES FIRST(A.id) AS a, LAST(X.id) AS x, COUNT(*) AS n
        ONE ROW PER MATCH AFTER MATCH SKIP TO NEXT ROW PATTERN (A X*? C)
        WITHIN INTERVAL '25' SECOND
        DEFINE A AS kind = 'a', C AS kind = 'c', X AS kind <> 'c')""",
    "strict_to_next_row_unmatched": """SELECT * FROM ev MATCH_RECOGNIZE (ORDER BY ts
        MEASURES CLASSIFIER() AS cls, RUNNING COUNT(*) AS rc, FINAL LAST(B.v) AS lb
        ALL ROWS PER MATCH WITH UNMATCHED ROWS AFTER MATCH SKIP TO NEXT ROW
        PATTERN (A B+ (C | X)) WITHIN INTERVAL '12' SECOND
        DEFINE A AS kind = 'a', B AS kind IN ('b', 'x'), C AS kind = 'c', X AS v > PREV(v))""",
    "number_window_partitioned": f"""SELECT * FROM ev MATCH_RECOGNIZE (PARTITION BY p ORDER BY t
        MEASURES FIRST(A.id) AS a, LAST(C.id) AS c
        ONE ROW PER MATCH SKIP TILL ANY MATCH PATTERN (A B C) WITHIN 17.5 {ABC})""",
    "null_key_falls_back": f"""SELECT * FROM ev_null MATCH_RECOGNIZE (PARTITION BY p ORDER BY ts
        MEASURES FIRST(A.id) AS a, LAST(C.id) AS c
        ALL ROWS PER MATCH WITH UNMATCHED ROWS SKIP TILL NEXT MATCH PATTERN (A B C)
        WITHIN INTERVAL '20' SECOND {ABC})""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_chunked_equals_sequential(spark, events, name):
    query = CASES[name]
    assert CHUNK_COLUMN in compile_statement(query, ChunkOptions(7, partitioned=True)).sql
    sequential = run(spark, query, "off")
    assert sequential, "the case must produce rows to compare"
    for chunks in ("3", "40"):
        assert run(spark, query, chunks) == sequential, chunks


def test_auto_chunks_a_single_partition_only(spark, events):
    query = CASES["any_one_row"]
    partitioned = CASES["number_window_partitioned"]
    options = ChunkOptions(8)  # what "auto" gives on 2 cores
    assert CHUNK_COLUMN in compile_statement(query, options).sql
    assert CHUNK_COLUMN not in compile_statement(partitioned, options).sql
    assert run(spark, query, "auto") == run(spark, query, "off")


def test_many_small_chunks_window_wider_than_chunk(spark, events):
    # 40 chunks over ~3400 s with a 120 s window: the width is raised to the window.
    query = CASES["next_trailing_kleene"].replace("'30' SECOND", "'120' SECOND")
    assert run(spark, query, "40") == run(spark, query, "off")
