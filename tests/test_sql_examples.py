"""Every query in sql_examples/ runs on real Spark and returns its expected rows."""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import pytest

import sparkcep

EXAMPLES = Path(__file__).resolve().parent.parent / "sql_examples"
QUERIES = sorted(EXAMPLES.glob("*.sql"))


def register_example_tables(spark) -> None:
    for data in sorted((EXAMPLES / "data").glob("*.csv")):
        schema = data.with_suffix(".schema").read_text().strip()
        frame = spark.read.option("header", True).schema(schema).csv(str(data))
        frame.createOrReplaceTempView(data.stem)


def normalise(value) -> str:
    """Render a Spark value the way the expected CSV files do (see sql_examples/README.md)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if hasattr(value, "strftime"):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, float):
        return repr(round(value, 6))
    return str(value)


def same(actual: str, expected: str) -> bool:
    if actual == expected:
        return True
    try:
        return math.isclose(float(actual), float(expected), abs_tol=1e-6)
    except ValueError:
        return False


@pytest.mark.spark
@pytest.mark.parametrize("query", QUERIES, ids=[q.stem for q in QUERIES])
def test_example(spark, query: Path) -> None:
    register_example_tables(spark)
    with open(query.with_suffix(".expected.csv"), newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        expected = list(reader)
    frame = sparkcep.sql(spark, query.read_text())
    assert frame.columns == header
    actual = [[normalise(v) for v in row] for row in frame.collect()]
    assert len(actual) == len(expected), f"{len(actual)} rows, expected {len(expected)}"
    for number, (got, want) in enumerate(zip(actual, expected), start=1):
        assert all(same(g, w) for g, w in zip(got, want)), f"row {number}: {got} != {want}"


def test_every_example_is_collected() -> None:
    assert len(QUERIES) >= 10
    for query in QUERIES:
        assert re.search(r"MATCH_RECOGNIZE", query.read_text(), re.IGNORECASE)
