"""Edges of ``sparkcep.evaluation.operators`` that the recorded-answers test does not reach,
checked against the same recording of Spark's answers (``spark_answers.json``), never against
our own evaluator. Written to kill the surviving mutants of mutation testing
(docs/contributing.md, "Mutation testing").

- The untyped operators (``operators.BINARY``, ``null_safe_eq``) evaluate expressions that were
  never bound to Spark types; on integral operands without overflow their value is Spark's, so
  the recorded answers of ``A.x <op> B.y`` over integral columns are their expected values.
- A zero divisor under ANSI raises the error Spark raises: ``DIVIDE_BY_ZERO`` for ``/``,
  ``REMAINDER_BY_ZERO`` for ``%`` (the code in brackets at the start of Spark's message).
"""

from __future__ import annotations

import decimal as _decimal
import math
import re

import pytest

from sparkcep.evaluation.binding import Semantics
from sparkcep.evaluation.codegen import generate
from sparkcep.evaluation.interpreter import compile_expression
from tests.evaluation.harness import NAMES, TwoRowMatch, _Error, _run, evaluators, same
from tests.evaluation.spark_oracle import decode
from tests.evaluation.test_recorded_spark_answers import RECORDED, _lowered

INTEGRAL = {"tinyint", "smallint", "int", "bigint"}
_BINARY = re.compile(r"\([AB]\.\w+ (\+|-|\*|/|%|=|<>|<|<=|>|>=|<=>) [AB]\.\w+\)")


def _columns(setting: str) -> dict:
    return {text: (column["type"], [decode(v) for v in column["values"]])
            for text, column in RECORDED[setting]["columns"].items()}


def _binary_cases(operators: frozenset | set | None = None):
    """The recorded ANSI cases of one binary operator between two columns (``operators``: only
    these): per case the record, the operator, the lowered expression, the operands' Spark types
    and the operands' columns of values (one value per recorded row)."""
    columns = _columns("ansi")
    for record in RECORDED["ansi"]["cases"]:
        match = _BINARY.fullmatch(record["expression"])
        if not match or (operators is not None and match.group(1) not in operators):
            continue
        expression, texts = _lowered(record["expression"])
        yield (record, match.group(1), expression, [columns[t][0] for t in texts],
               [columns[t][1] for t in texts])


def _spark_error_code(answer) -> str | None:
    if isinstance(answer, dict) and "error" in answer:  # Java's own exceptions have no class
        code = re.match(r"\[([A-Z_]+)", answer["message"])
        return code.group(1) if code else None
    return None


def test_untyped_operators_give_sparks_recorded_answers():
    checked = 0
    for record, operator, expression, types, operands in _binary_cases():
        if not set(types) <= INTEGRAL:
            continue
        # int / int: Spark divides the two operands as DOUBLEs; Python's true division of the
        # exact integers equals that only while both are exact as DOUBLEs (not BIGINT's extremes)
        if operator == "/" and "bigint" in types:
            continue
        interpreted = compile_expression(expression, NAMES)
        generated = generate(expression, NAMES, lambda e: compile_expression(e, NAMES))
        for r, answer in enumerate(record["answers"]):
            spark = decode(answer)
            code = _spark_error_code(answer)
            if code is not None and not code.endswith("BY_ZERO"):
                continue  # overflow: the untyped operators have no width
            values = [column[r] for column in operands]
            for form, function in (("interpreter", interpreted), ("generated", generated)):
                python = _run(lambda: function(TwoRowMatch(values)))
                where = f"{record['expression']} on {values} ({form})"
                if code is not None:
                    assert isinstance(python, _Error), f"{where}: {python!r}, Spark raised {code}"
                else:
                    assert same(python, spark), f"{where}: {python!r}, Spark {spark!r}"
                checked += 1
    assert checked >= 2_000, checked


def _as_double_exactly(spark_type: str) -> bool:
    """Types whose every value Spark converts to the DOUBLE Python's float() gives: DOUBLE, INT and
    narrower, DECIMAL(p, s) with p > 18 (exactly rounded; a compact DECIMAL divides in DOUBLE)."""
    if spark_type in ("double", "int", "smallint", "tinyint"):
        return True
    match = re.fullmatch(r"decimal\((\d+),\d+\)", spark_type)
    return match is not None and int(match.group(1)) > 18


def test_untyped_operators_over_doubles_give_sparks_recorded_answers():
    """Spark compares, adds and divides a DOUBLE and another number as two DOUBLEs; so do the
    untyped operators (``_numeric_pair`` converts a DECIMAL next to a float), whichever side the
    DOUBLE is on. Rows with NaN are left out of the comparisons (the untyped operators do not
    order NaN as Spark does), ``/`` and ``%`` by zero (the zero-divisor tests check those), and
    ``%`` where an operand is not finite (``math.fmod`` raises); a zero remainder keeps the
    dividend's sign, as Java's. The interpreter only: the
    generated code's untyped ``+ - *`` do not convert a DECIMAL (``float + Decimal`` raises)."""
    checked: dict[str, int] = {}
    for record, operator, expression, types, operands in _binary_cases():
        if len(types) != 2 or "double" not in types or not all(_as_double_exactly(t) for t in types):
            continue
        interpreted = compile_expression(expression, NAMES)
        for r, answer in enumerate(record["answers"]):
            values = [column[r] for column in operands]
            numbers = [float(v) for v in values if v is not None]
            if operator not in ("+", "-", "*", "/", "%") and any(v != v for v in numbers):
                continue
            if operator == "/" and values[1] is not None and float(values[1]) == 0.0:
                continue
            if operator == "%" and (not all(math.isfinite(v) for v in numbers) or 0.0 in numbers[1:]):
                continue
            spark = decode(answer)
            python = _run(lambda: interpreted(TwoRowMatch(values)))
            where = f"{record['expression']} on {values}: {python!r}, Spark {spark!r}"
            assert same(python, spark), where
            if spark == 0.0 and isinstance(spark, float):
                assert math.copysign(1.0, python) == math.copysign(1.0, spark), where
            key = f"{types[0]} {operator} {types[1]}"
            checked[key] = checked.get(key, 0) + 1
    assert len(checked) >= 90 and sum(checked.values()) >= 2_500, checked
    assert sum(n for key, n in checked.items() if " / " in key) >= 250, checked


_COMPARISONS = {"=", "<>", "<", "<=", ">", ">=", "<=>"}
_EXACT_DIGITS = {"tinyint": 3, "smallint": 5, "int": 10, "bigint": 20}  # as DECIMAL(p, 0)


def test_untyped_comparisons_of_exact_numbers_give_sparks_recorded_answers():
    """Spark compares an integer or DECIMAL with a DECIMAL exactly, in a common DECIMAL type;
    so must the untyped comparisons (no DOUBLE in between: 0.1 as DECIMAL(10, 2) equals 0.1 as
    DECIMAL(38, 10), 2^53 + 1 as BIGINT equals it as DECIMAL(38, 0), and neither as a DOUBLE).
    Every recorded ``A.x <op> B.y`` of an integer or DECIMAL and a DECIMAL, interpreter and
    generated code, where the common type holds both operands exactly: it has at most 38 digits,
    and where the two need more Spark rounds away scale (-0.25 as DECIMAL(10, 2) is not below 0
    as DECIMAL(38, 0)), which the untyped operators, without types, do not."""
    checked: dict[str, int] = {}
    for record, operator, expression, types, operands in _binary_cases(_COMPARISONS):
        exact = [_EXACT_DIGITS.get(t) or re.fullmatch(r"decimal\((\d+),(\d+)\)", t) for t in types]
        if len(types) != 2 or not all(exact) or not any(t.startswith("decimal") for t in types):
            continue
        digits = [(int(m[1]), int(m[2])) if isinstance(m, re.Match) else (m, 0) for m in exact]
        if max(p - s for p, s in digits) + max(s for _, s in digits) > 38:
            continue
        interpreted = compile_expression(expression, NAMES)
        generated = generate(expression, NAMES, lambda e: compile_expression(e, NAMES))
        for r, answer in enumerate(record["answers"]):
            values = [column[r] for column in operands]
            spark = decode(answer)
            for form, function in (("interpreter", interpreted), ("generated", generated)):
                python = _run(lambda: function(TwoRowMatch(values)))
                assert python == spark and (python is None) == (spark is None), \
                    f"{record['expression']} on {values} ({form}): {python!r}, Spark {spark!r}"
            key = f"{types[0]} {operator} {types[1]}"
            checked[key] = checked.get(key, 0) + 1
    assert len(checked) >= 40 and sum(checked.values()) >= 1_000, checked


def test_untyped_remainder_of_exact_numbers_gives_sparks_recorded_answers():
    """Spark's ``%`` of an integer or DECIMAL and a DECIMAL is the exact remainder, with the
    dividend's sign (0.5 % 3 is 0.5, -0.5 % 3 is -0.5). Every recorded ``A.x % B.y`` of such
    operands, the interpreter, on the rows whose integer quotient and operands have at most 28
    digits (the untyped operators compute in Python's default decimal context) and a non-zero
    divisor (the zero-divisor test checks those)."""
    checked: dict[str, int] = {}
    wide = _decimal.Context(prec=100)
    for record, operator, expression, types, operands in _binary_cases({"%"}):
        exact = [t in INTEGRAL or t.startswith("decimal") for t in types]
        if len(types) != 2 or not all(exact) or not any(t.startswith("decimal") for t in types):
            continue
        interpreted = compile_expression(expression, NAMES)
        for r, answer in enumerate(record["answers"]):
            values = [column[r] for column in operands]
            if None in values or values[1] == 0:
                continue
            a, b = (_decimal.Decimal(v) for v in values)
            quotient = wide.divide_int(abs(a), abs(b))
            if max(len(a.as_tuple().digits), len(b.as_tuple().digits), len(quotient.as_tuple().digits)) > 28:
                continue
            spark = decode(answer)
            python = _run(lambda: interpreted(TwoRowMatch(values)))
            assert python == spark, \
                f"{record['expression']} on {values}: {python!r}, Spark {spark!r}"
            key = f"{types[0]} % {types[1]}"
            checked[key] = checked.get(key, 0) + 1
    assert len(checked) >= 40 and sum(checked.values()) >= 1_000, checked


@pytest.mark.parametrize("setting", ["ansi"])
def test_zero_divisors_raise_sparks_error_code(setting):
    semantics = Semantics(ansi=True, time_zone=RECORDED["zone"])
    columns = _columns(setting)
    codes: set[str] = set()
    for record in RECORDED[setting]["cases"]:
        wanted = {r: c for r, a in enumerate(record["answers"])
                  if (c := _spark_error_code(a)) in ("DIVIDE_BY_ZERO", "REMAINDER_BY_ZERO")}
        if not wanted:
            continue
        expression, texts = _lowered(record["expression"])
        forms = evaluators(expression, [columns[t][0] for t in texts], semantics)
        for r, code in wanted.items():
            values = [columns[t][1][r] for t in texts]
            for form, function in forms.items():
                python = function(values)
                assert isinstance(python, _Error) and python.error == code, \
                    f"{record['expression']} on {values} ({form}): {python!r}, Spark raised {code}"
            codes.add(code)
    assert codes == {"DIVIDE_BY_ZERO", "REMAINDER_BY_ZERO"}
