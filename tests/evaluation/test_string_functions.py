"""lower, upper, length and substring of values that combine rows of a match in DEFINE (issue
23), without Spark: Spark's rules (``UTF8String.substringSQL``; full Unicode case mappings;
length in characters) and what binding refuses. Against Spark itself:
tests/evaluation/test_spark_differential.py::test_string_functions_between_rows_agree_with_spark."""

from __future__ import annotations

import pytest

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.evaluation.binding import Semantics
from sparkcep.evaluation.operators import length, substring, upper
from tests.evaluation.harness import Refused, evaluate_all, lower


@pytest.mark.parametrize(("value", "position", "count", "expected"), [
    ("abcdef", 1, 2, "ab"), ("abcdef", 0, 2, "ab"), ("abcdef", -2, 5, "ef"), ("abcdef", -10, 6, "ab"),
    ("abcdef", 3, 0, ""), ("abcdef", 3, -1, ""), ("abcdef", 7, 1, ""), ("a😀b", 2, 1, "😀"),
    ("abcdef", 2, 2147483647, "bcdef"), ("abc", -2147483648, 2147483647, "ab"),  # end = 3 - 2^31 + 2^31 - 1 = 2
])
def test_substring_rules(value, position, count, expected):
    assert substring(value, position, count) == expected


def test_length_counts_characters_and_upper_maps_fully():
    assert length("a😀") == 2
    assert upper("ß") == "SS"


def _evaluate(qualified, values, types):
    return evaluate_all(lower(qualified, ValueColumns()), values, types, Semantics())


def test_substring_between_rows_in_every_form():
    results = _evaluate("substring(concat(A.s1, B.s2), A.p, B.n)", ["abc", "de", 2, 3], ["string", "string", "int", "int"])
    assert set(results.values()) == {"bcd"}
    results = _evaluate("substring(concat(A.s1, B.s2), A.p, B.n)", ["abc", "de", None, 3], ["string", "string", "int", "int"])
    assert set(results.values()) == {None}


@pytest.mark.parametrize(("qualified", "types"), [
    ("substring(concat(A.s1, B.s2), A.p)", ["string", "string", "bigint"]),  # Spark casts BIGINT to INT
    ("length(A.s1 + B.s2)", ["int", "int"]),  # Spark casts to STRING first
    ("upper(coalesce(A.b, B.b))", ["binary", "binary"]),
])
def test_operands_spark_would_cast_are_refused(qualified, types):
    with pytest.raises(Refused) as caught:
        evaluate_all(lower(qualified, ValueColumns()), [None] * len(types), types, Semantics())
    assert str(caught.value) == "MATCH_DEPENDENT_TYPE_MISMATCH"
