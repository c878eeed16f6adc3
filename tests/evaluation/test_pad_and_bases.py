"""lpad, rpad, repeat, conv, hex, unhex and bin of values that combine rows of a match, without
Spark: the rules Spark's answers in ``spark_answers.json`` do not spell out one by one (which
end lpad keeps when it cuts, conv's signedness), the result-size budget
(``MATCH_DEPENDENT_VALUE_TOO_LARGE``, at the call) and what binding refuses. Against Spark's
answers for the corpus: ``test_recorded_spark_answers.py``."""

from __future__ import annotations

from decimal import Decimal

import pytest

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation import base_functions, functions, string_functions
from sparkcep.evaluation.binding import Semantics, bind
from sparkcep.evaluation.interpreter import typed_function
from sparkcep.evaluation.sql_types import SqlType
from tests.evaluation.harness import Refused, evaluate_all, lower


@pytest.mark.parametrize(("function", "value", "length", "pad", "expected"), [
    ("lpad", "abc", 2, " ", "ab"), ("rpad", "abc", 2, " ", "ab"),  # both keep the start
    ("lpad", "abc", 7, "xy", "xyxyabc"), ("rpad", "abc", 6, "xy", "abcxyx"),
    ("lpad", "abc", 5, "", "abc"), ("lpad", "abc", -1, "x", ""), ("rpad", "a😀", 4, "😀b", "a😀😀b"),
    ("lpad", "ab", 3, "xy", "xab"), ("rpad", "ab", 3, "xy", "abx"),  # one character short
])
def test_padding_rules(function, value, length, pad, expected):
    assert string_functions.STRING_FUNCTIONS[function](value, length, pad) == expected


@pytest.mark.parametrize(("number", "source", "target", "expected"), [
    ("-1", 10, 16, "FFFFFFFFFFFFFFFF"), ("-1", 10, -16, "-1"), ("FFFFFFFFFFFFFFFF", 16, -10, "-1"),
    ("FFFFFFFFFFFFFFFF", 16, 10, "18446744073709551615"), ("12x3", 10, 10, "12"), ("x", 10, 10, "0"),
    (" 255 ", 10, 2, "11111111"), ("zz", 36, 10, "1295"), ("8000000000000000", 16, -10, "-9223372036854775808"),
    ("-255", 10, -16, "-FF"), ("1", 1, 10, None), ("1", 10, 37, None), ("   ", 10, 10, None),
    ("1", 37, 10, None), ("1", 10, -37, None),  # bases beyond Character.MAX_RADIX, 36
    # Spark reads num's UTF-8 bytes: a non-ASCII character is no digit, even one whose upper
    # case is an ASCII letter (dotless i, long s, the ligature st)
    ("ı", 36, 10, "0"), ("1ſ", 36, 10, "1"), ("9ﬅ", 36, 10, "9"),
])
def test_conv_rules(number, source, target, expected):
    assert base_functions.conversion(SqlType("string"), True)(number, source, target) == expected


def test_conv_overflow_raises_under_ansi_and_saturates_without():
    past = "18446744073709551616"  # 2^64
    with pytest.raises(MatchRuntimeError) as caught:
        base_functions.conversion(SqlType("string"), True)(past, 10, 16)
    assert caught.value.code == "ARITHMETIC_OVERFLOW"
    assert base_functions.conversion(SqlType("string"), False)(past, 10, 16) == "F" * 16
    assert base_functions.conversion(SqlType("string"), False)("-" + past, 10, -10) == "-1"


def test_hex_unhex_bin():
    assert base_functions.hexadecimal(-1) == "F" * 16 and base_functions.hexadecimal(255) == "FF"
    assert base_functions.hexadecimal("é") == "C3A9"
    assert base_functions.unhexadecimal("abc") == b"\x0a\xbc" and base_functions.unhexadecimal("0g") is None
    assert base_functions.unhexadecimal(" 1") is None  # bytes.fromhex would skip the space
    assert base_functions.binary(-1) == "1" * 64 and base_functions.binary(5) == "101"


def test_format_number_rules():
    assert functions.format_number(Decimal("-0.001"), 2) == "-0.00"
    assert functions.format_number(Decimal("2.5"), 0) == "2" and functions.format_number(Decimal("3.5"), 0) == "4"
    assert functions.format_number(-1234567, 1) == "-1,234,567.0" and functions.format_number(5, -1) is None
    with pytest.raises(MatchRuntimeError) as caught:
        functions.format_number(1, 1001)
    assert caught.value.code == "MATCH_DEPENDENT_VALUE_TOO_LARGE"


def _evaluate(qualified, values, types, ansi=True):
    return evaluate_all(lower(qualified, ValueColumns()), values, types, Semantics(ansi=ansi))


@pytest.mark.parametrize(("qualified", "values"), [
    ("lpad(A.s, B.n, '0')", ["x", 1_048_577]),
    ("rpad(A.s, B.n, A.s)", ["xy", 2_000_000]),
    ("repeat(A.s, B.n)", ["abc", 349_526]),  # 1,048,578 characters
])
def test_results_past_the_budget_are_a_typed_error(qualified, values):
    for ansi in (True, False):
        results = _evaluate(qualified, values, ["string", "int"], ansi)
        assert {repr(r) for r in results.values()} == {"<error MATCH_DEPENDENT_VALUE_TOO_LARGE>"}, results


def test_results_at_the_budget_are_built():
    limit = string_functions.MAX_RESULT_CHARACTERS
    assert set(map(len, _evaluate("lpad(A.s, B.n, '0')", ["x", limit], ["string", "int"]).values())) == {limit}
    assert _evaluate("lpad(A.s, B.n, '')", ["x", 2**31 - 1], ["string", "int"])["interpreter"] == "x"
    assert _evaluate("repeat(A.s, B.n)", ["", 2**31 - 1], ["string", "int"])["interpreter"] == ""


def test_a_string_already_past_the_budget_is_not_padded_or_cut():
    """lpad / rpad to a string's own length build nothing: Spark's answer, the string itself, even
    past the budget (it came from the rows, not from the pad)."""
    value = "x" * (string_functions.MAX_RESULT_CHARACTERS + 1)
    for function in ("lpad", "rpad"):
        assert string_functions.STRING_FUNCTIONS[function](value, len(value), "0") == value


def test_budget_error_points_at_the_call():
    """The error carries the call's span in the statement (turned into line:column and a caret
    where the statement is at hand, as for ARITHMETIC_OVERFLOW)."""
    typed = bind(lower("lpad(B.s, A.n, '0')", ValueColumns()), ["string", "int"], Semantics())
    call = typed.operands[0] if typed.name == "paren" else typed
    assert call.name == "lpad" and call.span is not None
    with pytest.raises(MatchRuntimeError) as caught:
        typed_function(call)("x", 2_000_000, "0")
    assert caught.value.code == "MATCH_DEPENDENT_VALUE_TOO_LARGE" and caught.value.span == call.span
    assert "1,048,576" in caught.value.message


@pytest.mark.parametrize(("qualified", "types"), [
    ("lpad(A.s, B.n)", ["string", "bigint"]),  # Spark casts a BIGINT length to INT
    ("repeat(A.n, B.n)", ["float", "int"]),  # Spark casts to STRING first: Java's digits of a FLOAT
    ("conv(A.d, B.n, 10)", ["double", "int"]),
    ("hex(A.d + B.d)", ["double", "double"]),
    ("bin(concat(A.s, B.s))", ["string", "string"]),
    ("hash(map(A.s, B.s))", ["string", "string"]),  # arrays are hashed, maps not (Spark refuses them)
    ("xxhash64(A.b, B.s)", ["map<string,string>", "string"]),
    ("format_number(A.d * B.d, 2)", ["double", "double"]),
    ("format_number(A.n + B.n, '#.#')", ["int", "int"]),
    ("format_number(A.n + B.n, A.t)", ["int", "tinyint"]),  # Spark: the decimals must be an INT
])
def test_operands_spark_would_cast_are_refused(qualified, types):
    with pytest.raises(Refused) as caught:
        evaluate_all(lower(qualified, ValueColumns()), [None] * len(types), types, Semantics())
    assert str(caught.value) == "MATCH_DEPENDENT_TYPE_MISMATCH"
