"""``spark.sql`` itself with the parser extension (a fresh JVM in a subprocess, started once for
the module: the examples, the edge cases and EXPLAIN ANALYZE all run in it), and the fallback
when the extension is not loaded."""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import sparkcep
from clients_support import expected
from clients_support import child_env

HERE = Path(__file__).resolve().parent


def run_script(master: str, out: Path, *args: str, timeout: float = 600) -> dict:
    result = subprocess.run(
        [sys.executable, str(HERE / "extension_script.py"), master, str(out), *args],
        capture_output=True, text=True, env=child_env(), timeout=timeout, cwd=out.parent,
        start_new_session=True,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return json.loads(out.read_text())


def test_jar_is_built_from_the_sources():
    from sparkcep.clients.jvm import build

    assert build.jar_source_hash() == build.source_hash(), "run: python -m sparkcep.clients.jvm.build"
    with zipfile.ZipFile(build.JAR) as jar:
        names = set(jar.namelist())
    assert "sparkcep/jvm/MatchRecognizeParser.class" in names


def test_extension_conf_merges_lists():
    from sparkcep.clients import extension

    conf = extension.spark_conf({"spark.jars": "/x/other.jar", "spark.sql.extensions": "a.B"})
    assert conf["spark.jars"] == f"/x/other.jar,{extension.jar_path()}"
    assert conf["spark.sql.extensions"] == f"a.B,{extension.EXTENSIONS_CLASS}"


def test_explain_prefix_keeps_positions():
    from sparkcep.clients.extension import error_reply, rewrite_statement

    bad = "EXPLAIN SELECT * FROM t MATCH_RECOGNIZE (\n ORDER BY ts PATTERN (A B+) DEFINE B AS X.v > 1)"
    with pytest.raises(sparkcep.SparkCepError) as caught:
        rewrite_statement(bad)
    assert caught.value.line == 2
    reply = error_reply(caught.value)
    code, state, text = reply.split("\x00", 2)[2].split("\n", 2)
    assert text.startswith(f"[{code}] ") and re.search(r"\(line 2, column \d+\)", text.splitlines()[0])


#: a mistaken EXPLAIN ANALYZE (a PARTITION BY column that is not one) for the extension's session
WRONG = ("EXPLAIN ANALYZE SELECT * FROM prices MATCH_RECOGNIZE (PARTITION BY s ORDER BY k "
         "MEASURES COUNT(*) AS n PATTERN (A) DEFINE A AS A.price > 1) FOR PARTITION (x = 1)")


@pytest.fixture(scope="module")
def extension_run(tmp_path_factory) -> dict:
    """One run of ``extension_script.py`` on a local master (one JVM start for the module)."""
    out = tmp_path_factory.mktemp("extension") / "out.json"
    return run_script("local[2]", out, "--few", "--edges", "--explain-analyze", WRONG,
                      "--conf", "spark.executor.pyspark.memory=1g")


@pytest.mark.spark
def test_spark_sql_with_the_extension(extension_run):
    result = extension_run
    assert result["parser"] == "sparkcep.jvm.MatchRecognizeParser"
    for stem, (columns, rows) in result["examples"].items():
        want = expected(Path(sparkcep.__file__).parent.parent / "sql_examples" / f"{stem}.sql")
        assert (columns, [tuple(r) for r in rows]) == want, stem
    edges = result["edges"]
    v_rows = len(result["examples"]["stock_v_shape"][1])
    assert edges["explain"] is True
    assert edges["view_rows"] == v_rows
    assert edges["lower_case"] == v_rows
    assert edges["cte_count"] == v_rows
    rally = expected(Path(sparkcep.__file__).parent.parent / "sql_examples" / "stock_rally_window.sql")
    assert edges["window_view"] == [sum(1 for row in rally[1] if row[3] != "")]
    assert edges["window_explain"] is True
    assert edges["window_words_unrouted"] == 0
    assert edges["keyword_in_string"] == ["MATCH_RECOGNIZE", 0]
    name, message, condition, state = edges["error"]
    assert name == "ParseException"
    assert message.splitlines()[0].startswith("[UNDEFINED_PATTERN_VARIABLE] ")
    assert message.splitlines()[0].endswith("(line 3, column 12)")
    assert (condition, state) == ("UNDEFINED_PATTERN_VARIABLE", "42000")
    assert edges["spark_error"] == ["ParseException", "PARSE_SYNTAX_ERROR"]
    # issue 11: an executor's error reaches spark.sql with its code and position first
    name, first = edges["runtime_error"]
    assert name == "MatchRuntimeError", edges["runtime_error"]
    assert first.startswith("[DIVIDE_BY_ZERO] ") and first.endswith("(line 4, column 15)")
    # issue 25: Spark's own run-time error, restated against the statement
    name, first = edges["spark_runtime_error"]
    assert name == "AnalysisError", edges["spark_runtime_error"]
    assert first.startswith("[CAST_INVALID_INPUT] ") and first.endswith("(line 4, column 15)")
    assert edges["dataframe_api"] == [0, 2, 4]
    assert edges["stream"] == [True, ["k", "n"]]
    assert edges["shared"] == edges["shared_alone"] and edges["shared"], edges["shared"]
    assert edges["shared_plan"] is True
    assert edges["timeout"] == [
        "MATCH_RECOGNIZE_REWRITE_TIMEOUT",
        "[MATCH_RECOGNIZE_REWRITE_TIMEOUT] rewriting the statement took longer than 0.5 s",
    ]
    assert edges["after_timeout_rows"] == v_rows
    assert edges["not_overridden"] == [], "rebuild the extension for this Spark version"


@pytest.mark.spark
def test_explain_analyze_with_the_parser_extension(extension_run):
    """EXPLAIN ANALYZE through plain ``spark.sql`` on a session with the parser extension: the
    report's rows, and a mistake as Spark's ParseException carrying sparkcep's code and
    position."""
    found = extension_run["explain_analyze"]
    assert found["columns"] == ["clause", "section", "subject", "metric", "value", "detail"]
    rows = found["rows"]
    assert [0, "statement", "result", "rows", 0, "rows the query returned"] in rows
    assert any(r[1] == "variable" and r[2] == "TOP" and r[3] == "never_satisfied" for r in rows)
    assert [1, "miss", "s = 'a'", "define", None,
            "UP AS UP.price > PREV(UP.price) was false: UP.price = 9, PREV(UP.price) = 13"] in rows
    assert found["error"] is not None, "the wrong statement ran"
    name, first = found["error"]
    assert name == "ParseException" and first.startswith("[UNKNOWN_PARTITION_COLUMN] ")


@pytest.mark.spark
def test_enable_falls_back_without_the_extension(spark, caplog):
    """The shared test session has no extension: enable() logs why and wraps spark.sql, which
    then answers MATCH_RECOGNIZE with the right rows (worked out here from the table: (A B+)
    with B rising is each run of strictly rising prices, two rows or longer) and passes other
    statements through; disable() restores spark.sql."""
    from test_sql_examples import register_example_tables

    register_example_tables(spark)
    original = spark.sql
    with caplog.at_level(logging.INFO, logger="sparkcep.clients.extension"):
        sparkcep.enable(spark)
    try:
        said = [r for r in caplog.records if r.name == "sparkcep.clients.extension"]
        assert len(said) == 1 and said[0].levelno == logging.INFO  # once, and not a warning
        assert "parser extension is not loaded" in said[0].getMessage()
        assert spark.sql != original  # wrapped
        rows = spark.sql(
            "SELECT * FROM stock_ticks MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY ts "
            "MEASURES COUNT(*) AS n PATTERN (A B+) DEFINE B AS price > PREV(price))"
        ).collect()
        ticks: dict = {}
        for symbol, ts, price in spark.sql("SELECT symbol, ts, price FROM stock_ticks").collect():
            ticks.setdefault(symbol, []).append((ts, price))
        want = []
        for symbol, series in ticks.items():
            prices = [price for _ts, price in sorted(series)]
            run = 1
            for previous, price in zip(prices, prices[1:] + [None]):
                if price is not None and price > previous:
                    run += 1
                    continue
                if run >= 2:
                    want.append((symbol, run))
                run = 1
        assert want  # the data has rising runs
        assert sorted(tuple(r) for r in rows) == sorted(want)
        assert spark.sql("SELECT 1 AS one").collect()[0].one == 1  # plain statements still run
    finally:
        sparkcep.disable(spark)
    assert spark.sql == original
