"""Java's ``StrictMath`` functions as sparkcep evaluates them between rows of a match, against
Spark's recorded answers (``strict_math_answers.json``, written by ``record_strict_math.py``),
bit for bit, without Spark: ``ln``, ``log10``, ``log2``, ``log(b, x)``, ``log1p``, ``exp``,
``expm1``, ``power``, ``cbrt``, ``asin``, ``acos``, ``atan``, ``atan2``, ``sinh``, ``cosh``,
``tanh``, ``hypot``, ``asinh``, ``acosh`` and ``atanh`` over several thousand inputs (edges,
``pow``'s special cases, the thresholds where fdlibm changes its method, random bit patterns),
through ``sparkcep.evaluation.functions`` and ``trigonometric_functions`` (Spark's rules over
``strict_math`` and ``strict_trig``) and through the interpreter and the generated code of a
match-dependent expression. Python's own ``math`` gets some of the same answers wrong, which the recording
must show (else it would not tell the two apart).
"""

from __future__ import annotations

import json
import math
import struct
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

import pytest

import sparkcep
from sparkcep.compiler.lowering import ValueColumns
from sparkcep.errors import AnalysisError, SparkCepError
from sparkcep.evaluation import functions, trigonometric_functions
from sparkcep.evaluation.binding import Semantics
from tests.evaluation.harness import evaluators, lower
from tests.evaluation.record_strict_math import FUNCTIONS, inputs, unpack

RECORDED = json.loads(Path(__file__).with_name("strict_math_answers.json").read_text(encoding="utf-8"))
XS, YS = unpack(RECORDED["x"]), unpack(RECORDED["y"])
UNARY = ("ln", "log10", "log2", "log1p", "exp", "expm1", "cbrt")
# the plan operator -> sparkcep's function of non-NULL DOUBLEs
EVALUATED = {**functions.STRICT_MATH, **trigonometric_functions.TRIGONOMETRIC}


@lru_cache(maxsize=None)
def spark_answers(name: str) -> list[float | None]:
    answers = RECORDED["answers"][name]
    values: list[float | None] = list(unpack(answers["values"]))
    for r in answers["nulls"]:
        values[r] = None
    return values


def _arguments(name: str, x: float, y: float) -> tuple:
    return (y, x) if name in ("log", "atan2") else (x, y) if name in ("power", "hypot") else (x,)


def _identical(python, spark) -> bool:
    """The same double bit for bit (NaN for NaN, whatever its payload), NULL for NULL."""
    if python is None or spark is None:
        return python is None and spark is None
    if spark != spark:
        return python != python
    return struct.pack("<d", python) == struct.pack("<d", spark)


def _differences(evaluate, name: str, limit: int = 5) -> tuple[int, list[str]]:
    count, shown = 0, []
    for x, y, spark in zip(XS, YS, spark_answers(name)):
        python = evaluate(*_arguments(name, x, y))
        if not _identical(python, spark):
            count += 1
            if len(shown) < limit:
                shown.append(f"{name}{_arguments(name, x, y)!r}: Spark {spark!r}, Python {python!r}")
    return count, shown


def test_the_recording_is_of_the_current_inputs():
    """Rerun record_strict_math.py after changing its inputs."""
    xs, ys = inputs()
    assert RECORDED["rows"] == len(xs) == len(XS) and RECORDED["functions"] == FUNCTIONS
    assert [struct.pack("<d", v) for v in xs + ys] == [struct.pack("<d", v) for v in XS + YS]


@pytest.mark.parametrize("name", list(FUNCTIONS.values()))
def test_strict_math_gives_sparks_answers_bit_for_bit(name):
    count, shown = _differences(EVALUATED[name], name)
    assert count == 0, shown


def _python_math(name: str):
    """Spark's NULL rules over Python's math (the C library's), for contrast."""
    def guard(f):
        def apply(*values):
            try:
                return f(*values)
            except OverflowError:
                return math.inf
            except (ValueError, ZeroDivisionError):
                return math.nan
        return apply

    rules = {
        "ln": lambda x: None if x <= 0 else guard(math.log)(x),
        "log10": lambda x: None if x <= 0 else guard(math.log10)(x),
        "log2": lambda x: None if x <= 0 else guard(lambda v: math.log(v) / math.log(2))(x),
        "log1p": lambda x: None if x <= -1 else guard(math.log1p)(x),
        "log": lambda b, x: None if b <= 0 or x <= 0 else guard(lambda u, v: math.log(v) / math.log(u))(b, x),
        "exp": guard(math.exp), "expm1": guard(math.expm1), "power": guard(math.pow), "cbrt": math.cbrt,
        "asin": guard(math.asin), "acos": guard(math.acos), "atan": math.atan,
        "atan2": lambda y, x: math.atan2(y + 0.0, x + 0.0), "sinh": lambda x: guard(math.sinh)(x) * (1 if x >= 0 else -1)
        if abs(x) > 710 else math.sinh(x), "cosh": guard(math.cosh), "tanh": math.tanh, "hypot": math.hypot,
        "asinh": math.asinh, "acosh": guard(math.acosh), "atanh": guard(math.atanh),
    }
    return rules[name]


@pytest.mark.parametrize("name", list(FUNCTIONS.values()))
def test_the_recording_tells_pythons_math_apart(name):
    """Python's math differs from Spark in the last bit on some recorded inputs of every
    function: the recording is a test of the algorithm, not only of the special cases."""
    count, _shown = _differences(_python_math(name), name)
    assert count > 0


@lru_cache(maxsize=None)
def _forms(name: str, ansi: bool):
    sql = {"log": "log(coalesce(A.y, B.y), coalesce(A.x, B.x))",
           "power": "power(coalesce(A.x, B.x), coalesce(A.y, B.y))",
           "atan2": "atan2(coalesce(A.y, B.y), coalesce(A.x, B.x))",
           "hypot": "hypot(coalesce(A.x, B.x), coalesce(A.y, B.y))"}.get(name, f"{name}(coalesce(A.x, B.x))")
    values = ValueColumns()
    expression = lower(sql, values)
    order = [text.strip("()`") for text in values.texts]
    return evaluators(expression, ["double"] * len(order), Semantics(ansi=ansi)), order


@pytest.mark.parametrize("ansi", [True, False], ids=["ansi", "legacy"])
@pytest.mark.parametrize("name", list(FUNCTIONS.values()))
def test_every_python_form_gives_sparks_answers(name, ansi):
    """The interpreter and the generated code of a match-dependent call (``ln(coalesce(A.x,
    B.x))``: Python evaluates it) agree with Spark on every recorded row."""
    forms, order = _forms(name, ansi)
    wrong = []
    for x, y, spark in zip(XS, YS, spark_answers(name)):
        row = [{"x": x, "y": y}[column] for column in order]
        for form, evaluate in forms.items():
            python = evaluate(row)
            if not _identical(python, spark) and len(wrong) < 5:
                wrong.append(f"{form} {name}(x={x!r}, y={y!r}): Spark {spark!r}, Python {python!r}")
    assert not wrong


def test_log_of_one_argument_and_pow_are_ln_and_power():
    """``log(x)`` is ``ln(x)`` and ``pow`` is ``power`` (the spellings Spark has)."""
    def operator(sql: str) -> str:
        expression = lower(sql, ValueColumns())
        while expression.name == "paren":
            expression = expression.operands[0]
        return expression.name

    assert operator("log(coalesce(A.x, B.x))") == "ln"
    assert operator("LN(coalesce(A.x, B.x))") == "ln"
    assert operator("pow(coalesce(A.x, B.x), 2)") == "power"
    assert operator("log10(coalesce(A.x, B.x))") == "log10"
    assert operator("log2(coalesce(A.x, B.x))") == "log2"
    assert operator("log(10, coalesce(A.x, B.x))") == "log"


@pytest.mark.parametrize(("name", "value", "column_type", "x"), [
    ("ln", 3, "int", 3.0), ("ln", Decimal("2.50"), "decimal(5,2)", 2.5), ("cbrt", 27, "bigint", 27.0),
    ("exp", Decimal("10"), "decimal(38,0)", 10.0), ("log10", 1000.0, "float", 1000.0),
    ("log1p", 184, "smallint", 184.0), ("expm1", Decimal("-0.5"), "decimal(3,1)", -0.5),
    ("asin", Decimal("0.50"), "decimal(3,2)", 0.5), ("acos", -2, "tinyint", -2.0), ("atan", 2, "bigint", 2.0),
    ("sinh", 22, "int", 22.0), ("cosh", 710, "smallint", 710.0), ("tanh", Decimal("-2.0"), "decimal(2,1)", -2.0),
    ("asinh", 268435456, "int", 2.0 ** 28), ("acosh", 2.0, "float", 2.0), ("atanh", -1, "int", -1.0),
])
def test_every_numeric_argument_is_cast_to_double(name, value, column_type, x):
    """Spark casts the argument to DOUBLE: the answer is Spark's recorded one for that DOUBLE."""
    row = next(r for r, v in enumerate(XS) if v == x)
    values = ValueColumns()
    expression = lower(f"{name}(coalesce(A.x, B.x))", values)
    for form, evaluate in evaluators(expression, [column_type], Semantics()).items():
        assert _identical(evaluate([value]), spark_answers(name)[row]), form


@pytest.mark.parametrize("sql", ["asin", "ACOS", "atan", "sinh", "Cosh", "tanh", "asinh", "acosh", "atanh"])
def test_the_inverse_trigonometric_and_hyperbolic_functions_are_their_operators(sql):
    def operator(text: str) -> str:
        expression = lower(text, ValueColumns())
        while expression.name == "paren":
            expression = expression.operands[0]
        return expression.name

    assert operator(f"{sql}(coalesce(A.x, B.x))") == sql.lower()
    assert operator("atan2(A.y, B.x)") == "atan2"
    assert operator("hypot(A.y, B.x)") == "hypot"


def _define(condition: str) -> str:
    return f"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY r MEASURES LAST(B.x) AS l PATTERN (A B) DEFINE B AS {condition})"


@pytest.mark.parametrize(("call", "code", "at"), [
    ("atan(A.x, B.x)", "WRONG_NUM_ARGS", "atan("), ("hypot(A.x, B.x, 1)", "WRONG_NUM_ARGS", "hypot("),
    # as for exp(A.x, B.x): the parser's arity of the function, at its closing parenthesis
    ("sinh(A.x, B.x)", "PARSE_SYNTAX_ERROR", ")"), ("atan2(A.x)", "PARSE_SYNTAX_ERROR", ")"),
])
def test_trigonometric_functions_with_other_arguments_are_refused_where_written(call, code, at):
    sql = _define(f"{call} > 0")
    with pytest.raises(SparkCepError) as caught:
        sparkcep.transpile(sql)
    assert caught.value.code == code
    assert (caught.value.line, caught.value.column) == (1, sql.index(call) + call.index(at) + 1)


@pytest.mark.parametrize("call", ["sin(A.x + B.x)", "cos(A.x + B.x)", "tan(A.x + B.x)", "cot(A.x + B.x)",
                                  "sec(A.x + B.x)", "csc(A.x + B.x)"])
def test_sin_cos_tan_and_their_reciprocals_stay_refused_between_rows(call):
    """Spark computes them with ``Math.sin``, ``cos`` and ``tan``, HotSpot intrinsics that are
    not fdlibm's: refused at the call."""
    sql = _define(f"{call} > 0")
    with pytest.raises(AnalysisError) as caught:
        sparkcep.transpile(sql)
    assert caught.value.code == "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION"
    assert (caught.value.line, caught.value.column) == (1, sql.index(call) + 1)
