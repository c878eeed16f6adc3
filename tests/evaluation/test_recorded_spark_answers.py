"""The Python evaluator against Spark's recorded answers, without Spark (the quick suite).

``spark_answers.json`` holds what Spark 4 answered for the fixed corpus of ``corpus.py`` (every
operator and function the evaluator supports, over every type, on edge rows), under ANSI on and
off; ``record_spark_answers.py`` writes it, ``test_spark_differential.py`` checks it is still
what a live Spark answers. Here each expression is lowered and bound as sparkcep does, its value
columns take the recorded values, and the interpreter, the generated code and the specialized
code must each give Spark's value, NULL or error on every row.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.evaluation.binding import Semantics
from tests.evaluation import corpus
from tests.evaluation.harness import lower
from tests.evaluation.spark_oracle import Case, decode, disagreements

RECORDED = json.loads(Path(__file__).with_name("spark_answers.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _lowered(qualified: str):
    """Lowering does not depend on the ANSI setting: once per expression for both."""
    values = ValueColumns()
    return lower(qualified, values), tuple(values.texts)


def test_the_recording_covers_the_corpus():
    """Rerun record_spark_answers.py after changing corpus.py: every corpus expression is
    recorded, refused or failing in Spark's own value columns, and most are recorded."""
    expressions = {q for q, _ in corpus.expressions()}
    for setting in ("ansi", "legacy"):
        part = RECORDED[setting]
        recorded = {case["expression"] for case in part["cases"]}
        assert recorded | set(part["refused"]) | set(part["value_failed"]) == expressions, setting
        assert len(recorded) >= 0.9 * len(expressions), setting
    assert RECORDED["rows"] == corpus.ROWS and RECORDED["zone"] == corpus.ZONE


@pytest.mark.parametrize("setting", ["ansi", "legacy"])
def test_expressions_recorded_as_refused_are_still_refused(setting):
    """The recording lists the corpus expressions sparkcep refused (when compiling or binding)
    as ``refused``, without asking Spark. One sparkcep accepts now has no recorded answer, so
    no test compares it with Spark: record it (``record_spark_answers --new`` asks Spark about
    it again)."""
    from tests.evaluation.record_spark_answers import accepted_now

    part = RECORDED[setting]
    accepted = accepted_now(part, setting)
    assert not accepted, f"accepted now, never compared with Spark (re-record them): {accepted}"
    assert len(part["refused"]) >= 10


@pytest.mark.parametrize("setting", ["ansi", "legacy"])
def test_python_evaluator_gives_sparks_recorded_answers(setting):
    part = RECORDED[setting]
    semantics = Semantics(ansi=setting == "ansi", time_zone=RECORDED["zone"])
    columns = {text: (column["type"], [decode(v) for v in column["values"]])
               for text, column in part["columns"].items()}
    agreed = failed = 0
    bad: list[str] = []
    known: dict = {}
    for record in part["cases"]:
        expression, texts = _lowered(record["expression"])
        missing = [t for t in texts if t not in columns]
        assert not missing, f"{record['expression']}: lowered to new value columns {missing}: re-record"
        case = Case(record["expression"], "", expression, list(texts), [columns[t][0] for t in texts],
                    [[columns[t][1][r] for t in texts] for r in range(RECORDED["rows"])],
                    [decode(a) for a in record["answers"]])
        a, f, d = disagreements(case, semantics, known=known)
        agreed, failed, bad = agreed + a, failed + f, bad + d
    print(f"\n{setting}: {len(part['cases'])} expressions, {agreed} cases agree with Spark, "
          f"{failed} raise in both, {len(bad)} disagree; known differences (form x row): {known}")
    assert not bad, "\n".join(bad[:30])
    assert agreed >= 10_000


# sparkcep's own codes where Spark's class is a general one: a more specific code, documented in
# docs/errors.md (Spark's sub-class names the same thing)
_SPECIFIC_CODES = {("INVALID_PARAMETER_VALUE", "INVALID_REGEX_GROUP_INDEX"),  # .REGEX_GROUP_INDEX
                   ("INVALID_PARAMETER_VALUE", "INVALID_REGEX_PATTERN")}  # .PATTERN


_ALWAYS = {"DATETIME_OUT_OF_PYTHON_RANGE", "INVALID_INDEX_OF_ZERO", "INVALID_PARAMETER_VALUE",
           "INTERVAL_DIVIDED_BY_ZERO", "INTERVAL_ARITHMETIC_OVERFLOW", "ARITHMETIC_OVERFLOW",
           "CONVERSION_INVALID_INPUT", "MALFORMED_CHARACTER_CODING"}  # to_binary, encode / decode
_CLASSES = {"ansi": _ALWAYS | {"DIVIDE_BY_ZERO", "REMAINDER_BY_ZERO", "BINARY_ARITHMETIC_OVERFLOW", "CAST_OVERFLOW",
                               "CAST_INVALID_INPUT", "NUMERIC_VALUE_OUT_OF_RANGE", "INVALID_ARRAY_INDEX",
                               "INVALID_ARRAY_INDEX_IN_ELEMENT_AT", "DATETIME_FIELD_OUT_OF_BOUNDS",
                               "ILLEGAL_DAY_OF_WEEK", "INVALID_REGEXP_REPLACE"},
            "legacy": _ALWAYS}


@pytest.mark.parametrize("setting", ["ansi", "legacy"])
def test_python_raises_sparks_error_class(setting):
    """Where Spark raised an error with a class (``[CLASS]`` or ``[CLASS.SUB]``), every Python
    form raises that class as its code (Java exceptions without a class, such as ``long
    overflow``, and values Python's dates cannot hold are not compared)."""
    import re

    from tests.evaluation.harness import _Error, evaluators
    from tests.evaluation.spark_oracle import SparkFailed

    part = RECORDED[setting]
    semantics = Semantics(ansi=setting == "ansi", time_zone=RECORDED["zone"])
    columns = {text: (column["type"], [decode(v) for v in column["values"]])
               for text, column in part["columns"].items()}
    compared, wrong, seen = 0, [], set()
    for record in part["cases"]:
        answers = [decode(a) for a in record["answers"]]
        classes = {r: m.group(1) for r, a in enumerate(answers) if isinstance(a, SparkFailed)
                   and (m := re.match(r"\[([A-Z_]+)", a.message))}
        if not classes:
            continue
        expression, texts = _lowered(record["expression"])
        forms = evaluators(expression, [columns[t][0] for t in texts], semantics)
        for r, spark in classes.items():
            values = [columns[t][1][r] for t in texts]
            for form, evaluate in forms.items():
                python = evaluate(values)
                code = python.error if isinstance(python, _Error) else repr(python)
                if spark == "DATE_OUTSIDE_PYTHON":  # the oracle's mark: Spark answered a date Python cannot hold
                    spark = "DATETIME_OUT_OF_PYTHON_RANGE"
                if code != spark and (spark, code) not in _SPECIFIC_CODES:
                    wrong.append(f"{record['expression']} @ row {r} ({form}): Spark [{spark}], Python {code}")
                compared += 1
                seen.add(spark)
    assert not wrong, "\n".join(wrong[:30])
    assert seen >= _CLASSES[setting], _CLASSES[setting] - seen  # the corpus keeps raising each of them
    assert compared >= (1_000 if setting == "ansi" else 50)
