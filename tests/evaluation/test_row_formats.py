"""``format_string`` / ``printf`` with a format read from a row of the match
(``sparkcep.evaluation.row_formats``, typed by ``binding.row_formats``): the error codes over the
corpus's recorded rows (Java's exceptions, which Spark raises without an error class, are
``ILLEGAL_FORMAT``), and what the recorded answers cannot show: which rows are refused and why,
the arguments not evaluated under a NULL format, the order of errors.

The values are checked against Spark's recorded answers for the corpus
(``corpus._row_format_expressions``, ANSI on and off) by ``test_recorded_spark_answers.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.evaluation.binding import Semantics
from tests.evaluation import corpus
from tests.evaluation.harness import Refused, _Error, bound, evaluate_all, lower, recorded_rows
from tests.evaluation.spark_oracle import SparkFailed, decode

RECORDED = json.loads(Path(__file__).with_name("spark_answers.json").read_text(encoding="utf-8"))
TYPES = {"(`rf`)": "string", "(`rfi`)": "int", "(`rfs`)": "string", "(`rfd`)": "double", "(`rfx`)": "decimal(10,2)",
         "(`rfz`)": "int", "(`ai`)": "array<int>", "(`ts`)": "timestamp"}


def _one(qualified: str, values: dict, semantics: Semantics = Semantics()):
    columns = ValueColumns()
    expression = lower(qualified, columns)
    forms = evaluate_all(expression, [values[t] for t in columns.texts], [TYPES[t] for t in columns.texts], semantics)
    assert len({repr(v) for v in forms.values()}) == 1, forms
    return next(iter(forms.values()))


# Java's exceptions (Spark raises them without an error class): sparkcep's ILLEGAL_FORMAT
_JAVA = re.compile(r"java\.util\.\w*(Format|Conversion|Flags|Precision|Width|Argument)\w*Exception")


def _code(answer) -> str | None:
    answer = decode(answer)
    if isinstance(answer, SparkFailed):
        match = re.match(r"\[([A-Z_]+)", answer.message)
        if match:
            return match.group(1)
        return "ILLEGAL_FORMAT" if _JAVA.search(answer.message) else answer.message
    return None


@pytest.mark.parametrize("setting", ["ansi", "legacy"])
def test_row_formats_raise_sparks_errors_or_refuse_the_row(setting):
    """Where Spark raised over the corpus's designed rows, every Python form raises the same
    class (``ILLEGAL_FORMAT`` for Java's exceptions; ``DIVIDE_BY_ZERO`` in an argument with ANSI
    on), or refuses that row (``UNSUPPORTED_MATCH_DEPENDENT_FORMAT``: sparkcep may refuse a row
    Spark raises on, never answer it). Where Spark answered, Python answers the same or refuses
    the row; rows are refused for each reason somewhere, and answered elsewhere."""
    seen: dict[str, int] = {}
    wrong = []
    expressions = [q for q, _ in corpus._row_format_expressions()]
    for text, r, forms, row, answer in recorded_rows(RECORDED, setting, expressions, decode):
        code = _code(answer)
        for form, evaluate in forms.items():
            python = evaluate(row)
            if isinstance(python, _Error) and python.error == "UNSUPPORTED_MATCH_DEPENDENT_FORMAT":
                seen["refused"] = seen.get("refused", 0) + 1
                continue
            if code is not None and (not isinstance(python, _Error) or python.error != code):
                wrong.append(f"{text} @ {r} ({form}): Spark {code}, Python {python!r}")
        if code is not None:
            seen[code] = seen.get(code, 0) + 1
    assert not wrong, "\n".join(wrong[:20])
    expected = {"ILLEGAL_FORMAT", "refused"} | ({"DIVIDE_BY_ZERO"} if setting == "ansi" else set())
    assert expected <= set(seen), (expected - set(seen), seen)
    assert seen["refused"] >= 20, seen


@pytest.mark.parametrize("fmt, expected", [
    ("%s|%d", "<error UNSUPPORTED_MATCH_DEPENDENT_FORMAT>"),  # a DOUBLE's digits
    ("%.1e", "<error UNSUPPORTED_MATCH_DEPENDENT_FORMAT>"),
    ("%b|%d", "true|3"),  # %b of a DOUBLE: true, whatever its digits
    ("%h", "3ff80000"),  # Double.hashCode of 1.5
    ("%2$d|%1$s", "3|<error>"),  # the INT printed first, then the DOUBLE refused
    ("%d", "<error ILLEGAL_FORMAT>"),  # %d of a Double: Java's IllegalFormatConversionException
    ("%2$d %q", "<error ILLEGAL_FORMAT>"),  # parsed first: Java rejects %q before printing
    (None, None),
])
def test_a_double_is_refused_only_where_its_digits_would_print(fmt, expected):
    values = {"(`rf`)": fmt, "(`rfd`)": 1.5, "(`rfi`)": 3}
    got = _one("format_string(A.rf, B.rfd, B.rfi)", values)
    if expected == "3|<error>":
        assert repr(got) == "<error UNSUPPORTED_MATCH_DEPENDENT_FORMAT>"
    elif expected is None or not expected.startswith("<"):
        assert got == expected
    else:
        assert repr(got) == expected


def test_an_earlier_specifiers_exception_comes_before_a_refusal():
    """Java prints the specifiers in order: %d of a STRING fails before the DOUBLE's %s is reached."""
    values = {"(`rf`)": "%2$d %1$s", "(`rfd`)": 1.5, "(`rfs`)": "x"}
    assert repr(_one("format_string(A.rf, B.rfd, B.rfs)", values)) == "<error ILLEGAL_FORMAT>"
    values = {"(`rf`)": "%1$s %2$d", "(`rfd`)": 1.5, "(`rfs`)": "x"}
    assert repr(_one("format_string(A.rf, B.rfd, B.rfs)", values)) == "<error UNSUPPORTED_MATCH_DEPENDENT_FORMAT>"


def test_null_values_print_null_whatever_the_conversion():
    values = {"(`rf`)": "%s|%e|%tY|%h|%b", "(`rfd`)": None}
    assert _one("format_string(A.rf, B.rfd, B.rfd, B.rfd, B.rfd, B.rfd)", values) == "null|null|null|null|false"
    values = {"(`rf`)": "%s", "(`ai`)": None}
    assert _one("format_string(A.rf, B.ai)", values) == "null"
    values = {"(`rf`)": "%s", "(`ai`)": [1]}
    assert repr(_one("format_string(A.rf, B.ai)", values)) == "<error UNSUPPORTED_MATCH_DEPENDENT_FORMAT>"


def test_a_null_format_evaluates_no_argument():
    """Spark's FormatString.eval reads the format first and returns NULL before evaluating the
    arguments: a division by zero there (ANSI on) is not raised."""
    values = {"(`rf`)": None, "(`rfi`)": 1, "(`rfz`)": 0}
    assert _one("format_string(A.rf, A.rfi DIV B.rfz)", values) is None
    values = {"(`rf`)": "%s", "(`rfi`)": 1, "(`rfz`)": 0}
    assert repr(_one("format_string(A.rf, A.rfi DIV B.rfz)", values)) == "<error DIVIDE_BY_ZERO>"


@pytest.mark.parametrize("qualified", [
    "format_string(A.rfi, B.rfs)",  # an INT format: Spark casts it to STRING, sparkcep refuses
    "printf(A.rfx, B.rfs)",
])
def test_a_format_that_is_not_a_string_is_refused(qualified):
    columns = ValueColumns()
    expression = lower(qualified, columns)
    with pytest.raises(Refused):
        bound(expression, [TYPES[t] for t in columns.texts], Semantics())


def test_the_result_is_a_string_and_the_operator_reads_the_format_first():
    columns = ValueColumns()
    expression = lower("format_string(concat(A.rf, B.rfs), B.rfi)", columns)
    typed = bound(expression, [TYPES[t] for t in columns.texts], Semantics())
    assert typed.type == "string" and typed.name == "format_string_row_format"


def test_is_null_over_a_format_that_is_never_null_is_false_without_formatting():
    """Spark's FormatString is NULL only when its format is: an IF of two literals never is, so
    IS NULL is FALSE without formatting (no IllegalFormatConversionException for %d of a STRING;
    recorded in the corpus)."""
    values = {"(`rfi`)": 1, "(`rfz`)": 0, "(`rfs`)": "x"}
    assert _one("(format_string(IF(A.rfi > B.rfz, '%d', '%s'), A.rfs) IS NULL)", values) is False
    values = {"(`rf`)": "%d", "(`rfs`)": "x"}
    assert repr(_one("(format_string(A.rf, B.rfs) IS NULL)", values)) == "<error ILLEGAL_FORMAT>"


def test_is_null_over_a_literal_format_is_false_without_formatting():
    """Found by the random differential (seed 303, ANSI off): Spark answers FALSE for
    printf('%s %s %s', A.s2, B.s1) IS NULL (a literal format is never NULL, so it folds IS NULL
    without formatting: no MissingFormatArgumentException); sparkcep did format and raised."""
    values = {"(`rfs`)": None}
    assert _one("(printf('%s %s %s', A.rfs, B.rfs) IS NULL)", values) is False
    assert repr(_one("printf('%s %s %s', A.rfs, B.rfs)", values)) == "<error ILLEGAL_FORMAT>"
