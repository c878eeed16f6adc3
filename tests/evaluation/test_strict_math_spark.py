"""End to end on Spark: a MATCH_RECOGNIZE whose DEFINE combines two rows with the functions
Spark computes by Java's ``StrictMath`` (``ln(A.x + B.x)``, ``power(B.x, A.y)``, ``cbrt(...)``,
``asin((A.x - B.x) / 30)``, ``atan2(A.y, B.x)``, ``tanh(...)``, ``acosh(A.x + B.x)``, ...) matches exactly where Spark's own evaluation of the same condition, in a plain self-join,
holds. The data is chosen where Python's ``math`` differs from Java's in the last bit, and each
threshold is the larger of the two values, so a condition ``f(...) >= c`` holds for one of
them only: evaluated with Python's ``math`` the matches would be the other groups.
"""

from __future__ import annotations

import math
import random

import pytest

from sparkcep.evaluation import strict_math, strict_trig, trigonometric_functions
from tests.evaluation.two_row_matches import matched_and_joined

pytestmark = pytest.mark.spark

# the function as DEFINE writes it over the rows A and B (the self-join's rows are named A and
# B too), which values of the two rows it takes, and Python's math and StrictMath for it
CALLS = {
    "ln": ("ln({A}.x + {B}.x)", "sum", math.log, strict_math.log),
    "log10": ("log10({A}.x + {B}.x)", "sum", math.log10, strict_math.log10),
    "log2": ("log2({A}.x + {B}.x)", "sum", lambda v: math.log(v) / math.log(2),
             lambda v: strict_math.log(v) / strict_math.log(2.0)),
    "log": ("log({A}.y, {B}.x)", "base", lambda b, v: math.log(v) / math.log(b),
            lambda b, v: strict_math.log(v) / strict_math.log(b)),
    "log1p": ("log1p({A}.x + {B}.x)", "sum", math.log1p, strict_math.log1p),
    "exp": ("exp({A}.x + {B}.x)", "sum", math.exp, strict_math.exp),
    "expm1": ("expm1({A}.x + {B}.x)", "sum", math.expm1, strict_math.expm1),
    "power": ("power({B}.x, {A}.y)", "power", math.pow, strict_math.pow),
    "cbrt": ("cbrt({A}.x + {B}.x)", "sum", math.cbrt, strict_math.cbrt),
    "asin": ("asin(({A}.x - {B}.x) / 30)", "difference", math.asin, strict_trig.asin),
    "acos": ("acos(({A}.x - {B}.x) / 30)", "difference", math.acos, strict_trig.acos),
    "atan": ("atan({A}.x + {B}.x)", "sum", math.atan, strict_trig.atan),
    "atan2": ("atan2({A}.y, {B}.x)", "base", math.atan2, strict_trig.atan2),
    "sinh": ("sinh({A}.x + {B}.x)", "sum", math.sinh, strict_trig.sinh),
    "cosh": ("cosh({A}.x + {B}.x)", "sum", math.cosh, strict_trig.cosh),
    "tanh": ("tanh(({A}.x - {B}.x) / 30)", "difference", math.tanh, strict_trig.tanh),
    "hypot": ("hypot({A}.y, {B}.x)", "base", math.hypot, strict_trig.hypot),
    "asinh": ("asinh({A}.x + {B}.x)", "sum", math.asinh, trigonometric_functions.inverse_hyperbolic_sine),
    "acosh": ("acosh({A}.x + {B}.x)", "sum", math.acosh, trigonometric_functions.inverse_hyperbolic_cosine),
    "atanh": ("atanh(({A}.x - {B}.x) / 30)", "difference", math.atanh,
              trigonometric_functions.inverse_hyperbolic_tangent),
}
GROUPS_PER_FUNCTION = 12


def _arguments(kind: str, ax: float, ay: float, bx: float) -> tuple[float, ...]:
    return {"sum": (ax + bx,), "base": (ay, bx), "power": (bx, ay), "difference": ((ax - bx) / 30,)}[kind]


def _groups(rng: random.Random) -> list[tuple]:
    """(g, f, A's x and y, B's x, the threshold c) where Python's math and StrictMath differ."""
    groups = []
    for name, (_sql, kind, python, java) in CALLS.items():
        found = 0
        while found < GROUPS_PER_FUNCTION:
            ax, ay, bx = rng.uniform(0.01, 30), rng.uniform(0.01, 40), rng.uniform(0.01, 30)
            try:
                p, j = python(*_arguments(kind, ax, ay, bx)), java(*_arguments(kind, ax, ay, bx))
            except ValueError:  # outside the function's domain (acosh below 1)
                continue
            if p != j:
                groups.append((len(groups), name, ax, ay, bx, max(p, j)))
                found += 1
    return groups


def _condition(a: str, b: str) -> str:
    branches = " ".join(f"WHEN '{name}' THEN {call[0].format(A=a, B=b)}" for name, call in CALLS.items())
    return f"CASE {b}.f {branches} END >= {b}.c"


def test_define_with_strict_math_between_rows_matches_as_spark_evaluates_it(spark):
    groups = _groups(random.Random(23))
    rows = []
    for g, name, ax, ay, bx, c in groups:
        rows += [(g, 0, name, ax, ay, c), (g, 1, name, bx, 0.0, c)]
    spark.createDataFrame(rows, "g INT, i INT, f STRING, x DOUBLE, y DOUBLE, c DOUBLE") \
        .localCheckpoint().createOrReplaceTempView("sparkcep_strict_math_rows")
    ours, sparks = matched_and_joined(spark, "sparkcep_strict_math_rows", _condition)
    assert ours == sparks
    # the data tells the two apart: for every function Spark matched some groups, not all,
    # and Python's math would have matched exactly the others
    by_function = {name: [g for g, f, *_ in groups if f == name] for name in CALLS}
    for name, members in by_function.items():
        assert 0 < len(set(members) & set(sparks)) < len(members), name
    with_math = sorted(g for g, name, ax, ay, bx, c in groups
                       if CALLS[name][2](*_arguments(CALLS[name][1], ax, ay, bx)) >= c)
    assert set(with_math).isdisjoint(sparks) and len(with_math) + len(sparks) == len(groups)
