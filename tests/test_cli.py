"""The command line: explain without Spark, errors as one line with code and position, run on
Spark."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from sparkcep.clients.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "sql_examples"


def test_explain_shows_sql_pattern_and_automaton():
    result = CliRunner().invoke(main, ["explain", str(EXAMPLES / "stock_v_shape.sql")])
    assert result.exit_code == 0, result.output
    assert "== Spark SQL ==" in result.output
    assert "sparkcep_mr_" in result.output
    assert "pattern:" in result.output and "automaton:" in result.output


def test_explain_dot():
    result = CliRunner().invoke(main, ["explain", "--dot", "-e",
                                       "SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts MEASURES "
                                       "COUNT(*) AS n PATTERN (A B+) DEFINE B AS B.x > 0)"])
    assert result.exit_code == 0, result.output
    # only DOT, so `sparkcep explain q.sql --dot | dot -Tpng` works: one digraph, nothing around it
    text = result.output.strip()
    assert text.startswith("digraph pattern {") and text.endswith("}")
    assert text.count("digraph") == 1 and "== Spark SQL ==" not in text
    assert '[label="B"]' in text and "doublecircle" in text


def test_explain_dot_with_two_clauses_is_one_graph():
    nested = ("SELECT * FROM (SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts MEASURES A.x AS x "
              "ALL ROWS PER MATCH PATTERN (A) DEFINE A AS A.x > 0)) MATCH_RECOGNIZE (ORDER BY ts "
              "MEASURES COUNT(*) AS n PATTERN (B C) DEFINE C AS C.x > 1)")
    result = CliRunner().invoke(main, ["explain", "--dot", "-e", nested])
    assert result.exit_code == 0, result.output
    assert result.output.count("digraph") == 1
    assert result.output.count("subgraph cluster_") == 2


FUNNEL = """SELECT * FROM clicks MATCH_RECOGNIZE (
  PARTITION BY user_id
  ORDER BY ts
  MEASURES FIRST(V.ts) AS viewed, LAST(P.ts) AS paid
  SKIP TILL NEXT MATCH
  PATTERN (V C+ P)
  WITHIN INTERVAL '1' HOUR
  DEFINE V AS V.action = 'view', C AS C.action = 'cart', P AS P.price > LAST(C.price)
)"""


def test_explain_text_reads_like_the_query():
    # issue 12: the user's expressions as SQL, the real selection behaviour, WITHIN in units,
    # the engine that will run and why
    result = CliRunner().invoke(main, ["explain", "-e", FUNNEL])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Operator(" not in out and "Navigation(" not in out
    assert "P AS P.price > LAST(C.price)" in out
    assert "match-dependent: Python evaluates it while matching" in out
    assert "C AS C.action = 'cart'" in out
    assert "selection:  SKIP TILL NEXT MATCH" in out
    assert "PAST LAST ROW" not in out
    assert "< 1 hour (3600000000 microseconds)" in out
    assert "paid = LAST(P.ts)" in out
    assert "engine:     NFA^b" in out and "merged: no (match-dependent DEFINE for P)" in out
    assert "ε1 is tried before ε2" in out


def test_explain_names_the_regex_path_and_why_not():
    regex = CliRunner().invoke(main, ["explain", str(EXAMPLES / "stock_v_shape.sql")]).output
    assert "engine:     regular expression" in regex
    assert "skip:       AFTER MATCH SKIP PAST LAST ROW" in regex
    matcher = CliRunner().invoke(main, ["explain", "-e",
                                        "SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts MEASURES "
                                        "COUNT(*) AS n PATTERN (A B+) "
                                        "DEFINE B AS B.x > FIRST(A.x))"]).output
    assert "engine:     backtracking row pattern matcher" in matcher
    assert "match-dependent DEFINE for B" in matcher


def test_within_durations_in_units():
    from sparkcep.compiler.explain import duration_text

    assert duration_text(3_600_000_000) == "1 hour"
    assert duration_text(5_400_000_000) == "1 hour 30 minutes"
    assert duration_text(86_400_000_000 * 2) == "2 days"
    assert duration_text(1_500) == "1 millisecond 500 microseconds"


def test_explain_png_needs_dot_or_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no Graphviz here
    result = CliRunner().invoke(main, ["explain", "--png", str(tmp_path / "a.png"), "-e",
                                       "SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts MEASURES "
                                       "COUNT(*) AS n PATTERN (A) DEFINE A AS A.x > 0)"])
    assert result.exit_code == 2
    assert "needs Graphviz" in result.output


def test_user_error_is_one_message_without_traceback():
    result = CliRunner().invoke(main, ["explain", "-e",
                                       "SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts "
                                       "MEASURES LAST(C.x) AS y PATTERN (A) DEFINE A AS true)"])
    assert result.exit_code == 2
    assert result.output.startswith("[UNDEFINED_PATTERN_VARIABLE]")
    assert "Traceback" not in result.output


def test_explain_bug_is_one_line_not_a_traceback(monkeypatch):
    # issue 11: explain and demo print a traceback for anything but SparkCepError
    import sparkcep.compiler.explain as explain

    def broken(text):
        raise ValueError("boom\nsecond line")

    monkeypatch.setattr(explain, "explain_statement", broken)
    result = CliRunner().invoke(main, ["explain", "-e", "SELECT 1"])
    assert result.exit_code == 1
    assert result.output.startswith("[INTERNAL_ERROR] sparkcep failed (ValueError: boom)")
    assert "Traceback" not in result.output and "second line" not in result.output


@pytest.mark.parametrize("args, first", [
    (["-t", "clicks"], "--table takes NAME=PATH, got 'clicks'"),
    (["-t", "ticks=no/such/file.csv"], "--table ticks=no/such/file.csv: no such file or folder"),
    (["-f", "parquet"], "--format parquet needs --output PATH"),
])
def test_run_checks_arguments_before_spark(args, first, monkeypatch):
    # issue 12: a typo in --table is reported at once, not after Spark started
    import sparkcep.clients.session as session

    monkeypatch.setattr(session, "local_session", lambda *a, **k: pytest.fail("Spark started"))
    result = CliRunner().invoke(main, ["run", "-e", "SELECT 1", *args])
    assert result.exit_code == 2
    assert first in result.output


def test_run_names_a_table_that_was_not_given(monkeypatch):
    import sparkcep.clients.session as session

    monkeypatch.setattr(session, "local_session", lambda *a, **k: pytest.fail("Spark started"))
    data = EXAMPLES / "data" / "stock_ticks.csv"
    query = ("SELECT * FROM stock_tick MATCH_RECOGNIZE (ORDER BY ts MEASURES COUNT(*) AS n "
             "PATTERN (A) DEFINE A AS A.price > 0)")
    result = CliRunner().invoke(main, ["run", "-e", query, "-t", f"stock_ticks={data}"])
    assert result.exit_code == 2
    first = result.output.splitlines()[0]
    assert first.startswith("[TABLE_OR_VIEW_NOT_FOUND] the table or view `stock_tick` cannot be")
    assert first.endswith("(line 1, column 15)")


def test_run_compiles_before_spark(monkeypatch):
    import sparkcep.clients.session as session

    monkeypatch.setattr(session, "local_session", lambda *a, **k: pytest.fail("Spark started"))
    result = CliRunner().invoke(main, ["run", "-e", "SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts "
                                       "MEASURES LAST(C.x) AS y PATTERN (A) DEFINE A AS true)"])
    assert result.exit_code == 2
    assert result.output.startswith("[UNDEFINED_PATTERN_VARIABLE]")


def test_run_checks_a_pattern_window_before_spark(monkeypatch):
    import sparkcep.clients.session as session

    monkeypatch.setattr(session, "local_session", lambda *a, **k: pytest.fail("Spark started"))
    query = ("SELECT n OVER w FROM t WINDOW w AS (ORDER BY ts MEASURES COUNT(A.*) AS n "
             "ROWS BETWEEN 1 PRECEDING AND CURRENT ROW PATTERN (A) DEFINE A AS true)")
    result = CliRunner().invoke(main, ["run", "-e", query])
    assert result.exit_code == 2
    assert result.output.startswith("[WINDOW_PATTERN_FRAME]")
    assert f"(line 1, column {query.index('ROWS') + 1})" in result.output.splitlines()[0]


@pytest.mark.spark
@pytest.mark.parametrize("example", ["stock_v_shape", "stock_rally_window"])
def test_run_with_tables_and_csv_output(spark, tmp_path, example):
    data = EXAMPLES / "data" / "stock_ticks.csv"
    out = tmp_path / "out.csv"
    result = CliRunner().invoke(main, [
        "run", str(EXAMPLES / f"{example}.sql"), "-t", f"stock_ticks={data}",
        "-f", "csv", "-o", str(out)])
    assert result.exit_code == 0, result.output
    expected = (EXAMPLES / f"{example}.expected.csv").read_text().splitlines()
    assert out.read_text().splitlines()[0] == expected[0]
    assert len(out.read_text().splitlines()) == len(expected)


@pytest.mark.spark
def test_demo_runs_on_bundled_data(spark):
    # The README's first command: the main job on local Spark with the bundled ticks.
    result = CliRunner().invoke(main, ["demo"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    header = next(line for line in lines if line.startswith("symbol"))
    assert "match_no" in header and "bottom_price" in header
    assert "rows)" in lines[-1] and not lines[-1].startswith("(0 rows")


@pytest.mark.parametrize("args, first", [
    ([], "give at least one --source NAME=FOLDER"),
    (["-s", "ticks"], "--source takes NAME=FOLDER, got 'ticks'"),
    (["-s", "ticks=no/such/folder"], "--source ticks=no/such/folder: no such folder"),
])
def test_stream_checks_arguments_before_spark(args, first, monkeypatch):
    import sparkcep.clients.session as session

    monkeypatch.setattr(session, "local_session", lambda *a, **k: pytest.fail("Spark started"))
    result = CliRunner().invoke(main, ["stream", "-e", "SELECT 1", *args])
    assert result.exit_code == 2
    assert first in result.output


@pytest.mark.spark
@pytest.mark.streaming
def test_stream_prints_matches_and_a_status_line_per_micro_batch(spark, tmp_path):
    from importlib import resources

    from sparkcep.clients.stream_runner import split_demo_ticks

    data = resources.files("sparkcep") / "data"
    source = tmp_path / "ticks"
    source.mkdir()
    with resources.as_file(data) as folder:
        split_demo_ticks(Path(folder), source, files=2)
        query = Path(folder) / "stream_demo.sql"
        result = CliRunner().invoke(main, [
            "stream", str(query), "-s", f"ticks={source}", "-f", "csv", "--until-idle",
            "--checkpoint", str(tmp_path / "checkpoint"), "--exchange", "pandas"])
    spark.conf.unset("spark.sparkcep.streamExchange")  # the CLI set it in this test's session
    assert result.exit_code == 0, result.output + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "symbol, match_no, start_ts, top, bottom, end_ts, recovered"
    assert len(lines) > 1
    status = [line for line in result.stderr.splitlines() if line.startswith("sparkcep: batch")]
    assert status and "360 rows in" in status[-1] and "late rows dropped" in status[-1]
    assert f"{len(lines) - 1} matches out" in status[-1]


STREAM_QUERY = """SELECT * FROM STREAM(t) WATERMARK ts DELAY OF INTERVAL '1' SECOND
MATCH_RECOGNIZE (PARTITION BY k ORDER BY ts MEASURES A.v AS v
  PATTERN (A B) {within} DEFINE B AS B.v > PREV(B.v))"""


def test_explain_of_a_stream_shows_its_operators(tmp_path):
    """``sparkcep explain`` of a statement over STREAM(...) shows the streaming plan (no Spark)."""
    query = tmp_path / "q.sql"
    query.write_text(STREAM_QUERY.format(within="WITHIN INTERVAL '5' SECOND"))
    result = CliRunner().invoke(main, ["explain", str(query)])
    assert result.exit_code == 0, result.output
    assert "FROM `sparkcep_stream_" in result.output  # the statement reads the operator's view
    assert "stream:     STREAM(t) WATERMARK ts DELAY OF INTERVAL '1' SECOND" in result.output
    assert "operators: ordering (PREV: " in result.output
    assert "when the watermark is WITHIN (5 seconds) past its last row" in result.output


def test_a_streams_refusal_comes_before_spark(tmp_path, monkeypatch):
    """A stream without WITHIN is refused by ``explain`` and by ``stream`` before Spark starts."""
    import sparkcep.clients.session as session

    monkeypatch.setattr(session, "local_session", lambda *a, **k: pytest.fail("Spark started"))
    query = tmp_path / "q.sql"
    query.write_text(STREAM_QUERY.format(within=""))
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "part-0.json").write_text('{"k": 1, "ts": "2026-01-01 00:00:00", "v": 1}\n')
    for args in (["explain", str(query)], ["stream", str(query), "-s", f"t={tmp_path / 'in'}"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code != 0
        assert "[STREAM_UNBOUNDED_STATE]" in result.output.splitlines()[0]
        assert "(line 3, column 12)" in result.output.splitlines()[0]  # the pattern
