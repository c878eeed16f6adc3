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
    ("upper(coalesce(A.b, B.b))", ["binary", "binary"]),
])
def test_operands_spark_would_cast_are_refused(qualified, types):
    with pytest.raises(Refused) as caught:
        evaluate_all(lower(qualified, ValueColumns()), [None] * len(types), types, Semantics())
    assert str(caught.value) == "MATCH_DEPENDENT_TYPE_MISMATCH"


# FIPS 180-2's examples: the SHA-2 digests of "abc"
_SHA2_OF_ABC = {
    224: "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
    256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    384: "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
    512: "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
}


@pytest.mark.parametrize(("bits", "expected"), [
    *_SHA2_OF_ABC.items(), (0, _SHA2_OF_ABC[256]),  # Spark: 0 is SHA-256
    (225, None), (128, None), (-256, None),  # any other bit length: NULL
])
def test_sha2_bit_lengths(bits, expected):
    from sparkcep.evaluation.string_functions import sha2

    assert sha2("abc", bits) == expected


def test_ascii_of_the_empty_string_is_zero():
    """Spark's ``ascii``: the first character's code point, 0 for the empty string."""
    from sparkcep.evaluation.string_functions import ascii_code

    assert ascii_code("") == 0 and ascii_code("é!") == 233


@pytest.mark.parametrize(("part", "expected"), [(1, "a"), (2, "b"), (3, ""), (-1, "b"), (-2, "a"), (-3, "")])
def test_split_part_past_either_end_is_empty(part, expected):
    """Spark's ``split_part``: the n-th part from the start, or from the end when n < 0; an empty
    string past the first or the last part."""
    from sparkcep.evaluation.string_functions import split_part

    assert split_part("a,b", ",", part) == expected
