"""``array_sort(arr, (l, r) -> ...)`` between rows of a match (``sparkcep.evaluation.comparator_sort``,
typed by ``binding.comparator_sort``): what Spark's recorded answers cannot show by themselves
(``spark.sql.legacy.allowNullComparisonResultInArraySort``, the calls of the comparator, an
array of NULL type, the types), and the error codes over the corpus's recorded rows, Spark's
errors without an error class among them.

The values are checked against Spark's recorded answers for the corpus
(``corpus._comparator_sort_expressions``, ANSI on and off) by ``test_recorded_spark_answers.py``;
Java's TimSort itself, call for call, by ``test_java_tim_sort.py``; end to end by
``test_comparator_sort_spark.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.evaluation.binding import Semantics
from tests.evaluation import corpus
from tests.evaluation.harness import bound, _Error, forms_of, lower, one_value, recorded_rows, Refused
from tests.evaluation.spark_oracle import SparkFailed, decode

RECORDED = json.loads(Path(__file__).with_name("spark_answers.json").read_text(encoding="utf-8"))
TYPES = {"(`so1`)": "array<int>", "(`so2`)": "int", "(`sos`)": "array<string>", "(`vl`)": "bigint",
         "(`vb`)": "boolean", "(`ad`)": "array<double>"}


def _forms(qualified: str, values: dict, semantics: Semantics = Semantics()) -> dict:
    return forms_of(qualified, values, TYPES, semantics)


def _one(qualified: str, values: dict, semantics: Semantics = Semantics()):
    return one_value(qualified, values, TYPES, semantics)


# Spark's errors without an error class, and sparkcep's code for each
_UNCLASSED = {"Comparison method violates its general contract!": "COMPARATOR_CONTRACT_VIOLATION",
              "java.lang.NullPointerException": "COMPARATOR_RETURNS_NULL"}  # building its message


def _code(answer) -> str | None:
    answer = decode(answer)
    if isinstance(answer, SparkFailed):
        message = answer.message
        match = re.match(r"\[([A-Z_]+)", message)
        if match:
            return match.group(1)
        return next((c for m, c in _UNCLASSED.items() if m in message), message)
    return None


@pytest.mark.parametrize("setting", ["ansi", "legacy"])
def test_comparator_sorts_raise_sparks_error_codes(setting):
    """Where Spark raised over the corpus's designed rows, every Python form raises the same
    class (``COMPARATOR_RETURNS_NULL``, ``ARITHMETIC_OVERFLOW`` and ``DIVIDE_BY_ZERO`` in the body
    with ANSI on, at the call where TimSort makes it) or sparkcep's code for Spark's errors without
    a class (the contract violation; the ``NullPointerException`` Spark raises building
    ``COMPARATOR_RETURNS_NULL``'s message when the first element compared is NULL); each is
    raised somewhere."""
    seen: dict[str, int] = {}
    wrong = []
    expressions = [q for q, _ in corpus._comparator_sort_expressions()]
    for text, r, forms, row, answer in recorded_rows(RECORDED, setting, expressions, decode):
        code = _code(answer)
        if code is None:
            continue
        for form, evaluate in forms.items():
            python = evaluate(row)
            if not isinstance(python, _Error) or python.error != code:
                wrong.append(f"{text} @ {r} ({form}): Spark {code}, Python {python!r}")
        seen[code] = seen.get(code, 0) + 1
    assert not wrong, "\n".join(wrong[:20])
    expected = {"COMPARATOR_RETURNS_NULL", "COMPARATOR_CONTRACT_VIOLATION"} | (
        {"ARITHMETIC_OVERFLOW", "DIVIDE_BY_ZERO"} if setting == "ansi" else set())
    assert expected <= set(seen), (expected - set(seen), seen)


def test_a_null_answer_is_zero_under_the_legacy_setting():
    """Measured on Spark 4.3 with spark.sql.legacy.allowNullComparisonResultInArraySort true:
    Spark unboxes a NULL answer as 0. array(1, NULL, 3) by l - r stays as it is; the 48 elements
    of the corpus's row 5 by IF(l = 5, NULL, l - r) leave three 5s where TimSort's calls put
    them (Spark's answer below). Without the setting: COMPARATOR_RETURNS_NULL."""
    legacy = Semantics(null_comparison_allowed=True)
    values = {"(`so1`)": [1, None, 3], "(`so2`)": 0}
    assert _one("array_sort(A.so1, (l, r) -> l - r + B.so2)", values, legacy) == [1, None, 3]
    assert repr(_one("array_sort(A.so1, (l, r) -> l - r + B.so2)", values)) == "<error COMPARATOR_RETURNS_NULL>"
    values = {"(`so1`)": corpus._SORT_CONTRACT, "(`so2`)": 5}
    assert _one("array_sort(A.so1, (l, r) -> IF(l = B.so2, NULL, l - r))", values, legacy) == [
        0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 6, 6, 7, 8, 8, 8, 9, 10, 5, 10, 10, 11, 11, 11, 11, 11, 11, 12, 12, 13, 13,
        14, 14, 14, 15, 15, 5, 16, 16, 16, 17, 17, 18, 5, 18, 19, 19]


def test_the_comparator_is_called_as_javas_timsort_calls_it():
    """The first answer of a comparator that fails at a known pair decides the error: TimSort's
    first call compares the second element with the first (l = a[1], r = a[0]); binary insertion
    of a[2] then compares it with a[1] (the middle of [a0, a1] is index 1)."""
    values = {"(`so1`)": [1, 2, 3], "(`so2`)": 0}
    # l = 2, r = 1 first: a division by zero (l - 2 = 0) before any overflow
    body = "array_sort(A.so1, (l, r) -> IF(l = 2, CAST(1 DIV (l - 2) AS INT), IF(l = 3, 2147483647 + l, 0)) + B.so2)"
    assert repr(_one(body, values)) == "<error DIVIDE_BY_ZERO>"
    body = "array_sort(A.so1, (l, r) -> IF(l = 3, CAST(1 DIV (l - 3) AS INT), IF(l = 2, 2147483647 + l, 0)) + B.so2)"
    assert repr(_one(body, values)) == "<error ARITHMETIC_OVERFLOW>"


def test_short_arrays_and_null_arrays_call_nothing():
    values = {"(`so1`)": None, "(`so2`)": None}
    assert _one("array_sort(A.so1, (l, r) -> B.so2)", values) is None
    for array in ([], [7], [None]):
        assert _one("array_sort(A.so1, (l, r) -> B.so2)", {"(`so1`)": array, "(`so2`)": None}) == array


@pytest.mark.parametrize("qualified", [
    "array_sort(A.so1, (l, r) -> B.vl)",  # BIGINT: Spark requires exactly INT (measured)
    "array_sort(A.so1, (l, r) -> CAST(l - r + B.so2 AS SMALLINT))",
    "array_sort(A.so1, (l, r) -> CAST(l - B.so2 AS TINYINT))",
    "array_sort(A.so1, (l, r) -> l < r OR B.vb)",  # BOOLEAN
    "array_sort(concat(A.so1, B.so1), (l, r) -> NULL)",  # VOID
    "array_sort(A.so2, (l, r) -> l - r + B.so2)",  # not an array
])
def test_what_spark_refuses_at_analysis_is_refused(qualified):
    columns = ValueColumns()
    expression = lower(qualified, columns)
    with pytest.raises(Refused) as refused:
        bound(expression, [TYPES[t] for t in columns.texts], Semantics())
    assert str(refused.value) == "MATCH_DEPENDENT_TYPE_MISMATCH"


def test_result_type_is_the_arrays():
    columns = ValueColumns()
    expression = lower("array_sort(A.sos, (l, r) -> length(l) - B.so2)", columns)
    assert bound(expression, [TYPES[t] for t in columns.texts], Semantics()).type == "array<string>"


def test_an_array_of_null_type_is_not_sorted():
    """Spark sorts nothing when the element type is NULL's (ArraySort.nullSafeEval): the
    comparator, which would raise here, is not called."""
    from sparkcep.evaluation import comparator_sort
    from sparkcep.plan import expressions as p

    variables = (p.LambdaVariable(1, "l", "void"), p.LambdaVariable(2, "r", "void"))
    body = p.Operator("div", (p.Constant(1), p.Constant(0)), "int")  # would raise if evaluated
    operator = p.Operator(comparator_sort.NAME, (p.Constant([None, None]), p.Lambda(variables, body)), "array<void>",
                          (("element_type", "void"),))

    def compile_operand(e):
        if isinstance(e, p.Constant):
            return lambda ctx: e.value
        def raising(ctx):
            raise AssertionError("the comparator was called")
        return raising

    assert comparator_sort.compile_comparator_sort(operator, compile_operand)(object()) == [None, None]


def test_is_null_over_a_sort_of_a_never_null_array_is_false_without_sorting():
    """Spark's ArraySort is NULL only when its array is, and array(...) never is: Spark folds IS NULL
    to FALSE and never calls the comparator (recorded in the corpus: FALSE on every row, no
    DIVIDE_BY_ZERO); sparkcep folds it too. Over a row's array it sorts (and raises)."""
    values = {"(`so2`)": 1}
    assert _one("(array_sort(array(A.so2, B.so2), (l, r) -> CAST(l DIV (r - r) AS INT)) IS NULL)", values) is False
    values = {"(`so1`)": [1, 2], "(`so2`)": 1}
    assert repr(_one("(array_sort(A.so1, (l, r) -> CAST(l DIV (r - B.so2 + 1 - 1) AS INT) * 0) IS NULL)",
                     values)) == "<error DIVIDE_BY_ZERO>"
