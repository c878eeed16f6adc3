"""Helpers shared by the client tests (expected rows, normalisation, clients)."""

from __future__ import annotations

import csv
import datetime as dt
import os
import re
import subprocess
from pathlib import Path

import pyspark

EXAMPLES = Path(__file__).resolve().parents[2] / "sql_examples"
QUERIES = sorted(q for q in EXAMPLES.glob("*.sql") if q.with_suffix(".expected.csv").exists())
BEELINE = Path(pyspark.__file__).resolve().parent / "bin" / "beeline"
_TIMESTAMP = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(\.0+)?$")


def statement(query: Path) -> str:
    """A query file's text without its trailing semicolon (one statement for DB-API clients)."""
    return query.read_text().strip().rstrip(";").strip()


def norm(value) -> str:
    """One rendering for values from Spark, beeline, PyHive and SQLAlchemy."""
    if value is None or value == "NULL":
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dt.datetime, dt.date)):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, float):
        return repr(round(value, 6))
    text = str(value)
    stamp = _TIMESTAMP.match(text)
    if stamp:
        return stamp.group(1)
    if re.fullmatch(r"-?\d+\.\d*([eE][-+]?\d+)?|-?\d+[eE][-+]?\d+", text):
        return repr(round(float(text), 6))
    return text


def norm_rows(rows) -> list[tuple[str, ...]]:
    return sorted(tuple(norm(v) for v in row) for row in rows)


def expected(query: Path) -> tuple[list[str], list[tuple[str, ...]]]:
    with open(query.with_suffix(".expected.csv"), newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        return header, norm_rows(reader)


def beeline(url: str, script: Path, *extra: str, user: str = "tester", timeout: float = 240):
    """Run beeline (from the pyspark wheel) on a script file; (returncode, stdout, stderr)."""
    env = dict(os.environ)
    env["SPARK_HOME"] = str(BEELINE.parent.parent)
    env.pop("PYSPARK_SUBMIT_ARGS", None)
    result = subprocess.run(
        [str(BEELINE), "-u", url, "-n", user, "--outputformat=tsv2", "--showWarnings=false", *extra,
         "-f", str(script)],
        capture_output=True, text=True, timeout=timeout, env=env, stdin=subprocess.DEVNULL,
    )
    return result.returncode, result.stdout, result.stderr


def error_first_line(message: str) -> str:
    """The first line of an HS2 error message (as BI tools show it)."""
    return message.strip().splitlines()[0]


_PROMPT = re.compile(r"^(?:\d+: jdbc:hive2://[^>]*> ?|(?:\. )+\.?> ?)+")


def result_lines(out: str) -> list[str]:
    """beeline's tsv2 output lines (header and rows), without its echoed prompts."""
    lines = (_PROMPT.sub("", line) for line in out.splitlines())
    return [line for line in lines if line.strip()]
