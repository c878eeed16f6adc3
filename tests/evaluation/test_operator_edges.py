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


def _spark_error_code(answer) -> str | None:
    if isinstance(answer, dict) and "error" in answer:
        return re.match(r"\[([A-Z_]+)", answer["message"]).group(1)
    return None


def test_untyped_operators_give_sparks_recorded_answers():
    columns = _columns("ansi")
    checked = 0
    for record in RECORDED["ansi"]["cases"]:
        match = _BINARY.fullmatch(record["expression"])
        if not match:
            continue
        expression, texts = _lowered(record["expression"])
        types = [columns[t][0] for t in texts]
        if not set(types) <= INTEGRAL:
            continue
        # int / int: Spark divides the two operands as DOUBLEs; Python's true division of the
        # exact integers equals that only while both are exact as DOUBLEs (not BIGINT's extremes)
        if match.group(1) == "/" and "bigint" in types:
            continue
        interpreted = compile_expression(expression, NAMES)
        generated = generate(expression, NAMES, lambda e: compile_expression(e, NAMES))
        for r, answer in enumerate(record["answers"]):
            spark = decode(answer)
            code = _spark_error_code(answer)
            if code is not None and not code.endswith("BY_ZERO"):
                continue  # overflow: the untyped operators have no width
            values = [columns[t][1][r] for t in texts]
            for form, function in (("interpreter", interpreted), ("generated", generated)):
                python = _run(lambda: function(TwoRowMatch(values)))
                where = f"{record['expression']} on {values} ({form})"
                if code is not None:
                    assert isinstance(python, _Error), f"{where}: {python!r}, Spark raised {code}"
                else:
                    assert same(python, spark), f"{where}: {python!r}, Spark {spark!r}"
                checked += 1
    assert checked >= 2_000, checked


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
