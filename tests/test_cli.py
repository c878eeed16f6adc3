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
    assert "digraph pattern" in result.output


def test_user_error_is_one_message_without_traceback():
    result = CliRunner().invoke(main, ["explain", "-e",
                                       "SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts "
                                       "MEASURES LAST(C.x) AS y PATTERN (A) DEFINE A AS true)"])
    assert result.exit_code == 2
    assert result.output.startswith("[UNDEFINED_PATTERN_VARIABLE]")
    assert "Traceback" not in result.output


@pytest.mark.spark
def test_run_with_tables_and_csv_output(spark, tmp_path):
    data = EXAMPLES / "data" / "stock_ticks.csv"
    out = tmp_path / "out.csv"
    result = CliRunner().invoke(main, [
        "run", str(EXAMPLES / "stock_v_shape.sql"), "-t", f"stock_ticks={data}",
        "-f", "csv", "-o", str(out)])
    assert result.exit_code == 0, result.output
    expected = (EXAMPLES / "stock_v_shape.expected.csv").read_text().splitlines()
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
