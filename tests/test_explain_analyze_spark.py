"""EXPLAIN ANALYZE on local Spark: the report's rows through ``sparkcep.sql`` and through
``spark.sql`` after ``sparkcep.enable``, values read by Catalyst (PREV) and by Python (LAST),
FOR PARTITION, and the typed error over a stream. One test, few queries (Spark time is shared)."""

from __future__ import annotations

import pytest

import sparkcep
from sparkcep.compiler.explain_analyze import COLUMNS
from sparkcep.errors import SparkCepError

pytestmark = pytest.mark.spark


def _rows(frame):
    return [tuple(row) for row in frame.collect()]


def _find(rows, section, metric, subject=None):
    return [r for r in rows if r[1] == section and r[3] == metric
            and (subject is None or r[2] == subject)]


def test_explain_analyze_through_sql_and_enable(spark, tmp_path):
    spark.createDataFrame(
        [("u1", 1, "view", 0.0), ("u1", 2, "cart", 20.0), ("u1", 3, "cart", 30.0),
         ("u1", 4, "purchase", 25.0),                     # cheaper than the last cart: no match
         ("u2", 1, "view", 0.0), ("u2", 2, "cart", 10.0), ("u2", 3, "purchase", 15.0),
         ("u3", 1, "cart", 5.0)],
        "user_id STRING, ts INT, action STRING, price DOUBLE").createOrReplaceTempView("ea_clicks")
    funnel = """EXPLAIN ANALYZE
SELECT * FROM ea_clicks MATCH_RECOGNIZE (
  PARTITION BY user_id ORDER BY ts
  MEASURES V.ts AS viewed_at
  SKIP TILL NEXT MATCH
  PATTERN (V C+ P) WITHIN 10
  DEFINE V AS V.action = 'view', C AS C.action = 'cart',
         P AS P.action = 'purchase' AND P.price >= LAST(C.price))
FOR PARTITION (user_id = 'u1')"""
    frame = sparkcep.sql(spark, funnel)
    assert [f.name for f in frame.schema.fields] == [name for name, _ in COLUMNS]
    rows = _rows(frame)
    assert _find(rows, "statement", "rows")[0][4] == 1  # u2's match
    assert _find(rows, "clause", "matches")[0][4] == 1
    assert _find(rows, "clause", "partitions")[0][4] == 3
    assert _find(rows, "variable", "rows_satisfying_row_local", "P")[0][4] == 2
    assert _find(rows, "variable", "match_dependent_true", "P")[0][4] == 1
    misses = [r for r in rows if r[1] == "miss"]
    assert {r[2] for r in misses} == {"user_id = 'u1'"}
    assert _find(rows, "miss", "longest_partial_match")[0][5] == "rows V@0 C@1 C@2"
    # the run ignored the purchase (its DEFINE was false there) and the partition ended
    assert _find(rows, "miss", "ended_at_row")[0][5].startswith("still incomplete")
    rejected = _find(rows, "miss", "rejected_row")[0]
    assert rejected[4] == 3 and rejected[5] == (
        "P AS P.action = 'purchase' AND P.price >= LAST(C.price) was false there: "
        "P.action = 'purchase' is TRUE (P.action = 'purchase'); P.price >= LAST(C.price) is "
        "FALSE (P.price = 25.0, LAST(C.price) = 30.0) (row: ts = 4)")

    # what the parser extension hands Spark (spark.sql with the extension, the Thrift server)
    from sparkcep.clients.extension import Rewriter

    timed = ("ms", "engine_ms", "analysis_ms")
    values = _rows(spark.sql(Rewriter(spark).rewrite(funnel, None)))
    assert [r for r in values if r[3] not in timed] == [r for r in rows if r[3] not in timed]

    # strict contiguity: a variable no row satisfies, the DEFINE read by Catalyst (PREV)
    spark.createDataFrame([("a", i, p) for i, p in enumerate([10, 11, 12, 13, 9, 14])],
                          "s STRING, k INT, price INT").createOrReplaceTempView("ea_prices")
    sparkcep.enable(spark)
    try:
        rises = spark.sql("""EXPLAIN ANALYZE SELECT * FROM ea_prices MATCH_RECOGNIZE (
  PARTITION BY s ORDER BY k MEASURES COUNT(*) AS n
  PATTERN (S UP+ TOP) DEFINE UP AS UP.price > PREV(UP.price), TOP AS TOP.price > 100)""")
        rows = _rows(rises)
    finally:
        sparkcep.disable(spark)
    assert _find(rows, "statement", "rows")[0][4] == 0
    assert _find(rows, "variable", "never_satisfied", "TOP")
    assert _find(rows, "miss", "longest_partial_match")[0][5] == "rows S@0 UP@1 UP@2 UP@3"
    assert _find(rows, "miss", "ended_at_row")[0][4] == 4
    defines = [r[5] for r in _find(rows, "miss", "define")]
    assert "UP AS UP.price > PREV(UP.price) was false: UP.price = 9, PREV(UP.price) = 13" in defines
    assert "TOP AS TOP.price > 100 was false: TOP.price = 9" in defines

    # an aggregation pushed down (no matches enumerated by the query): the analysis enumerates
    count = ("SELECT COUNT(*) AS n FROM ea_prices MATCH_RECOGNIZE (PARTITION BY s ORDER BY k "
             "MEASURES A.k AS a SKIP TILL ANY MATCH PATTERN (A B+) "
             "DEFINE B AS B.price > A.price)")
    n = sparkcep.sql(spark, count).collect()[0][0]
    rows = _rows(sparkcep.sql(spark, "EXPLAIN ANALYZE " + count))
    assert n > 10 and _find(rows, "clause", "matches")[0][4] == n
    assert _find(rows, "runs", "completed")[0][4] == n  # ANY: every complete run is a match

    # the command line: the report as text, and the picture
    import shutil

    from click.testing import CliRunner

    from sparkcep.clients.cli import main

    csv = tmp_path / "prices.csv"
    csv.write_text("s,k,price\n" + "".join(f"a,{i},{p}\n" for i, p in
                                          enumerate([10, 11, 12, 13, 9, 14])))
    query = ("SELECT * FROM ea_cli MATCH_RECOGNIZE (PARTITION BY s ORDER BY k MEASURES COUNT(*) "
             "AS n PATTERN (S UP+ TOP) DEFINE UP AS UP.price > PREV(UP.price), "
             "TOP AS TOP.price > 100)")
    result = CliRunner().invoke(main, ["explain", "--analyze", "-e", query, "-t", f"ea_cli={csv}"])
    assert result.exit_code == 0, result.output
    assert "<- no row satisfies it" in result.output
    assert "s = 'a': longest partial match: 4 rows S@0 UP@1 UP@2 UP@3" in result.output
    picture = ["--png", str(tmp_path / "a.png")] if shutil.which("dot") else ["--dot"]
    result = CliRunner().invoke(main, ["explain", "--analyze", "-e", query, "-t",
                                       f"ea_cli={csv}", *picture])
    assert result.exit_code == 0, result.output
    if shutil.which("dot"):
        assert (tmp_path / "a.png").read_bytes().startswith(b"\x89PNG")
    else:
        assert "UP (3)" in result.output  # the loop: UP@2, UP@3 from row 0, UP@3 from row 1

    # over a stream: a typed error saying what is possible
    folder = tmp_path / "stream"
    folder.mkdir()
    spark.readStream.schema("s STRING, k INT, price INT").csv(str(folder)) \
        .createOrReplaceTempView("ea_stream")
    with pytest.raises(SparkCepError) as caught:
        sparkcep.sql(spark, "EXPLAIN ANALYZE SELECT * FROM ea_stream MATCH_RECOGNIZE ("
                            "PARTITION BY s ORDER BY k MEASURES A.k AS k PATTERN (A B) "
                            "WITHIN 5 DEFINE B AS B.price > A.price)")
    assert caught.value.code == "EXPLAIN_ANALYZE_ON_STREAM" and caught.value.line == 1


def test_the_walkthrough_in_docs_prints_as_shown(spark):
    """docs/explain.md, "EXPLAIN ANALYZE": each walkthrough query's report is the text shown
    (the statement's time aside)."""
    import re
    from importlib.resources import files
    from pathlib import Path

    from sparkcep.runtime.explain_analyze import analyze_statement

    text = (Path(__file__).resolve().parents[1] / "docs" / "explain.md").read_text()
    section = text[text.index("# EXPLAIN ANALYZE: why is my result empty?"):]
    query = re.findall(r"```sql\n(.*?)```", section, re.DOTALL)[0]
    shown = re.findall(r"```text\n(.*?)```", section, re.DOTALL)[1]
    spark.read.csv(str(files("sparkcep") / "data" / "ticks.csv"), header=True,
                   schema="symbol STRING, ts TIMESTAMP, price DOUBLE, volume INT") \
        .createOrReplaceTempView("ticks")
    printed = analyze_statement(spark, "EXPLAIN ANALYZE " + query).text()

    def steady(report: str) -> str:  # times differ from run to run
        report = re.sub(r"== statement: (\d+ rows), [\d.]+ s ==", r"\1", report)
        return re.sub(r"time: .*", "time:", report).strip()

    assert steady(printed) == steady(shown)


def test_explain_analyze_of_an_uncertain_time_clause(spark, tmp_path):
    """UNCERTAIN TIME (docs/explain.md, "Imprecise timestamps"): confidences, the signature MINIMUM
    CONFIDENCE dropped, the row a match-dependent DEFINE refused; ORDER BY k is not the order of
    lo (the analysis reads the rows sorted by lo, as the engine needs); one query through
    ``sparkcep.sql`` and one through the command line (the extension's VALUES of the report are
    the same for every clause: the test above)."""
    import datetime

    from click.testing import CliRunner

    from sparkcep.clients.cli import main

    t0 = datetime.datetime(2026, 3, 2, 9, 30)

    def at(seconds):
        return t0 + datetime.timedelta(seconds=seconds)

    #        u    k   lo      hi      kind  x
    data = [("x", 9, at(0), at(1), "a", 1),
            ("x", 8, at(0), at(1), "b", 5),   # after A in 1 of 4 worlds: 1/4, dropped
            ("x", 7, at(1), at(2), "b", 5),   # after A in 3 of 4 worlds: a match, 3/4
            ("x", 6, at(5), at(5), "b", 0),   # B.x > A.x is false: refused
            ("y", 5, at(0), at(0), "a", 1),
            ("y", 4, at(3), at(3), "b", 0)]   # refused: y has no match
    spark.createDataFrame(data, "u STRING, k INT, lo TIMESTAMP, hi TIMESTAMP, kind STRING, "
                                "x INT").createOrReplaceTempView("ea_uncertain")
    query = """SELECT * FROM ea_uncertain MATCH_RECOGNIZE (
  PARTITION BY u ORDER BY k
  UNCERTAIN TIME (lo, hi) GRANULARITY INTERVAL '1' SECOND
  MEASURES CONFIDENCE() AS c
  SKIP TILL ANY MATCH
  PATTERN (A B) WITHIN INTERVAL '10' SECOND
  MINIMUM CONFIDENCE 0.5
  DEFINE A AS A.kind = 'a', B AS B.kind = 'b' AND B.x > A.x)"""
    text = "EXPLAIN ANALYZE " + query
    rows = _rows(sparkcep.sql(spark, text))
    assert _find(rows, "statement", "rows")[0][4] == 1
    assert _find(rows, "clause", "matches")[0][4] == 1
    assert _find(rows, "clause", "partitions_without_match")[0][4] == 1
    assert _find(rows, "clause", "rows_in_a_match")[0][4] == 2
    assert _find(rows, "confidence", "min", "matches")[0][5] == "0.75 (3/4)"
    assert _find(rows, "confidence", "signatures", "below minimum")[0][4] == 1
    assert _find(rows, "variable", "match_dependent_evaluated", "B")[0][4] == 4
    assert _find(rows, "variable", "match_dependent_true", "B")[0][4] == 2
    assert _find(rows, "intervals", "max")[0][4] == 2  # [09:30:01, 09:30:02] at one second
    assert _find(rows, "automaton", "not_applicable")
    # x: the dropped signature (rows in lo order, ties by k: the B at [0, 1] is row 0, A row 1)
    assert _find(rows, "miss", "below_minimum_confidence", "u = 'x'")[0][5] == (
        "rows A@1 B@0, confidence 0.25 (1/4) < 0.5 (MINIMUM CONFIDENCE)")
    assert [(r[4], r[5]) for r in _find(rows, "miss", "row", "u = 'x'")] == [
        (1, "A: interval [2026-03-02 09:30:00, 2026-03-02 09:30:01] (2 time points), k = 9"),
        (0, "B: interval [2026-03-02 09:30:00, 2026-03-02 09:30:01] (2 time points), k = 8")]
    # y: A, and the B its DEFINE refused
    assert _find(rows, "miss", "longest_partial_match", "u = 'y'")[0][5] == \
        "rows A@0: no row could extend it"
    assert _find(rows, "miss", "rejected_row", "u = 'y'")[0][4] == 1

    csv = tmp_path / "uncertain.csv"
    csv.write_text("u,k,lo,hi,kind,x\n" + "".join(
        f"{u},{k},{(lo - t0).seconds},{(hi - t0).seconds},{kind},{x}\n"
        for u, k, lo, hi, kind, x in data))
    cli_query = query.replace("ea_uncertain", "ea_uncertain_cli").replace(
        " GRANULARITY INTERVAL '1' SECOND", "").replace("INTERVAL '10' SECOND", "10")
    result = CliRunner().invoke(main, ["explain", "--analyze", "-e", cli_query, "-t",
                                       f"ea_uncertain_cli={csv}", "--partition", "u = 'x'"])
    assert result.exit_code == 0, result.output
    assert "automaton:  not applicable" in result.output
    assert "u = 'x': below minimum confidence: 2 rows A@1 B@0, confidence 0.25 (1/4)" \
        in result.output
    assert "u = 'x': row: 1 A: interval [0, 1] (2 time points), k = 9" in result.output
    assert "u = 'y'" not in result.output  # FOR PARTITION: x only
