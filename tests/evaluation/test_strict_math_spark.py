"""End to end on Spark: a MATCH_RECOGNIZE whose DEFINE combines two rows with the functions
Spark computes by Java's ``StrictMath`` (``ln(A.x + B.x)``, ``power(B.x, A.y)``, ``cbrt(...)``,
...) matches exactly where Spark's own evaluation of the same condition, in a plain self-join,
holds. The data is chosen where Python's ``math`` differs from Java's in the last bit, and each
threshold is the larger of the two values, so a condition ``f(...) >= c`` holds for one of
them only: evaluated with Python's ``math`` the matches would be the other groups.
"""

from __future__ import annotations

import math
import random

import pytest

import sparkcep
from sparkcep.evaluation import strict_math

pytestmark = pytest.mark.spark

# the function as DEFINE writes it over the rows A and B, and over the self-join's a and b;
# Python's math and strict_math for choosing the data
CALLS = {
    "ln": ("ln({A}.x + {B}.x)", lambda a, b: math.log(a.x + b.x), lambda a, b: strict_math.log(a.x + b.x)),
    "log10": ("log10({A}.x + {B}.x)", lambda a, b: math.log10(a.x + b.x), lambda a, b: strict_math.log10(a.x + b.x)),
    "log2": ("log2({A}.x + {B}.x)", lambda a, b: math.log(a.x + b.x) / math.log(2),
             lambda a, b: strict_math.log(a.x + b.x) / strict_math.log(2.0)),
    "log": ("log({A}.y, {B}.x)", lambda a, b: math.log(b.x) / math.log(a.y),
            lambda a, b: strict_math.log(b.x) / strict_math.log(a.y)),
    "log1p": ("log1p({A}.x + {B}.x)", lambda a, b: math.log1p(a.x + b.x), lambda a, b: strict_math.log1p(a.x + b.x)),
    "exp": ("exp({A}.x + {B}.x)", lambda a, b: math.exp(a.x + b.x), lambda a, b: strict_math.exp(a.x + b.x)),
    "expm1": ("expm1({A}.x + {B}.x)", lambda a, b: math.expm1(a.x + b.x), lambda a, b: strict_math.expm1(a.x + b.x)),
    "power": ("power({B}.x, {A}.y)", lambda a, b: math.pow(b.x, a.y), lambda a, b: strict_math.pow(b.x, a.y)),
    "cbrt": ("cbrt({A}.x + {B}.x)", lambda a, b: math.cbrt(a.x + b.x), lambda a, b: strict_math.cbrt(a.x + b.x)),
}
GROUPS_PER_FUNCTION = 12


class Row:
    def __init__(self, x: float, y: float):
        self.x, self.y = x, y


def _groups(rng: random.Random) -> list[tuple]:
    """(g, f, A's x and y, B's x, the threshold c) where Python's math and StrictMath differ."""
    groups = []
    for name, (_sql, python, java) in CALLS.items():
        found = 0
        while found < GROUPS_PER_FUNCTION:
            a = Row(rng.uniform(0.01, 30), rng.uniform(0.01, 40))
            b = Row(rng.uniform(0.01, 30), 0.0)
            p, j = python(a, b), java(a, b)
            if p != j:
                groups.append((len(groups), name, a.x, a.y, b.x, max(p, j)))
                found += 1
    return groups


def _condition(a: str, b: str) -> str:
    branches = " ".join(f"WHEN '{name}' THEN {sql.format(A=a, B=b)}" for name, (sql, _p, _j) in CALLS.items())
    return f"CASE {b}.f {branches} END >= {b}.c"


def test_define_with_strict_math_between_rows_matches_as_spark_evaluates_it(spark):
    groups = _groups(random.Random(23))
    rows = []
    for g, name, ax, ay, bx, c in groups:
        rows += [(g, 0, name, ax, ay, c), (g, 1, name, bx, 0.0, c)]
    spark.createDataFrame(rows, "g INT, i INT, f STRING, x DOUBLE, y DOUBLE, c DOUBLE") \
        .localCheckpoint().createOrReplaceTempView("sparkcep_strict_math_rows")
    matched = sparkcep.sql(spark, f"""
        SELECT g FROM sparkcep_strict_math_rows MATCH_RECOGNIZE (
            PARTITION BY g ORDER BY i MEASURES A.i AS ai ONE ROW PER MATCH
            PATTERN (A B) DEFINE B AS {_condition('A', 'B')})""").collect()
    joined = spark.sql(f"""
        SELECT A.g FROM sparkcep_strict_math_rows A JOIN sparkcep_strict_math_rows B
        ON A.g = B.g AND A.i = 0 AND B.i = 1 WHERE {_condition('A', 'B')}""").collect()
    ours, sparks = sorted(r.g for r in matched), sorted(r.g for r in joined)
    assert ours == sparks
    # the data tells the two apart: for every function Spark matched some groups, not all,
    # and Python's math would have matched exactly the others
    by_function = {name: [g for g, f, *_ in groups if f == name] for name in CALLS}
    for name, members in by_function.items():
        assert 0 < len(set(members) & set(sparks)) < len(members), name
    with_math = sorted(g for g, name, ax, ay, bx, c in groups if CALLS[name][1](Row(ax, ay), Row(bx, 0.0)) >= c)
    assert set(with_math).isdisjoint(sparks) and len(with_math) + len(sparks) == len(groups)
