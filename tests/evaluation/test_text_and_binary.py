"""split, regexp_extract_all, the STRING and BINARY conversions (base64, unbase64, encode,
decode, to_binary, try_to_binary), soundex, luhn_check, quote, factorial, rint and positive
between rows (``sparkcep.evaluation.text_and_binary``): what Spark's recorded answers for the
corpus (``test_recorded_spark_answers.py``) cannot show: the refusals before any row is read,
the refusal of a split Java would make between the halves of a surrogate pair, and the
expected values measured on Spark 4.3 for a few cases written out by hand."""

from __future__ import annotations

import pytest

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.errors import SparkCepError
from sparkcep.evaluation import binary_codecs, number_functions, regex_functions, text_functions
from sparkcep.evaluation.binding import Semantics
from tests.evaluation.harness import _Error, evaluators, lower

ANSI = Semantics(ansi=True, time_zone="UTC")


def _evaluate(text: str, types: list[str], row: list):
    values = ValueColumns()
    expression = lower(text, values)
    results = {form: evaluate(row) for form, evaluate in evaluators(expression, types, ANSI).items()}
    assert len({repr(v) for v in results.values()}) == 1, results
    return next(iter(results.values()))


# measured on Spark 4.3 (ANSI on and off alike)
@pytest.mark.parametrize("value, pattern, limit, expected", [
    ("oneAtwoBthreeC", "[ABC]", -1, ["one", "two", "three", ""]),
    ("oneAtwoBthreeC", "[ABC]", 2, ["one", "twoBthreeC"]),
    ("oneAtwoBthreeC", "[ABC]", 0, ["one", "two", "three", ""]),
    ("oneAtwoBthreeC", "[ABC]", 1, ["oneAtwoBthreeC"]),
    ("abc", "", -1, ["a", "b", "c"]), ("abc", "", 2, ["a", "bc"]), ("abc", "", 5, ["a", "b", "c"]),
    ("", "", -1, [""]), ("", "x", 1, [""]), ("XaXb", "X", -1, ["", "a", "b"]),
    ("abc", "x*", -1, ["a", "b", "c", ""]), ("abc", "x*", 2, ["a", "bc"]), ("a😀b", "", -1, ["a", "😀", "b"]),
])
def test_split_as_spark(value, pattern, limit, expected):
    assert regex_functions.split(value, pattern, limit) == expected


def test_split_refuses_an_empty_match_inside_a_surrogate_pair():
    """Spark splits 'a😀b' by 'x*' between the halves of the pair ('a', '?', '?', 'b', '')."""
    result = _evaluate("split(A.s || B.s, 'x*')", ["string", "string"], ["a😀", "b"])
    assert isinstance(result, _Error) and result.error == "UNSUPPORTED_REGEX_PATTERN"


@pytest.mark.parametrize("value, expected", [
    ("U3Bhcms=", b"Spark"), ("U3Bhcms", b"Spark"), ("U3B hcms", b"Spark"), ("U3Bhcms==", b"Spark"), ("!!!", b""),
    ("U3Bhcm", b"Spar"), ("U3Bh-_", b"Spa"), ("U3Bh+/==", b"Spa\xfb"),
    ("U3Bhc", "Last unit does not have enough valid bits"), ("U3Bhcms=x", "incorrect ending byte at 9"),
    ("====", "wrong 4-byte ending unit"), ("U3B=hcms", "incorrect ending byte at 5"),
    ("U3Bhcm=", "wrong 4-byte ending unit"),
])
def test_unbase64_as_javas_mime_decoder(value, expected):
    if isinstance(expected, bytes):
        assert binary_codecs.unbase64(value) == expected
    else:
        with pytest.raises(SparkCepError) as raised:
            binary_codecs.unbase64(value)
        assert raised.value.code == "INVALID_BASE64_INPUT" and expected in raised.value.message


def test_base64_breaks_lines_after_76_characters():
    assert binary_codecs.base64(b"a" * 60) == "YWFh" * 19 + "\r\nYWFh"
    assert binary_codecs.base64(b"a" * 57) == "YWFh" * 19  # exactly 76: no line break at the end


def test_charsets_as_spark():
    assert binary_codecs.encode("é😀", "UTF-16").hex() == "feff00e9d83dde00"
    assert binary_codecs.encode("é😀", "utf-32").hex() == "000000e90001f600"
    assert binary_codecs.decode(bytes.fromhex("FFFE4100"), "utf-16") == "A"
    assert binary_codecs.decode(bytes.fromhex("0041"), "utf-16") == "A"
    for function, arguments, code in ((binary_codecs.encode, ("é", "us-ascii"), "MALFORMED_CHARACTER_CODING"),
                                      (binary_codecs.decode, (b"\xc3(", "utf-8"), "MALFORMED_CHARACTER_CODING"),
                                      (binary_codecs.encode, ("a", "utf8"), "INVALID_PARAMETER_VALUE")):
        with pytest.raises(SparkCepError) as raised:
            function(*arguments)
        assert raised.value.code == code


@pytest.mark.parametrize("value, expected", [
    ("Miller", "M460"), ("", ""), ("1abc", "1abc"), ("Ashcraft", "A261"), ("Tymczak", "T522"), ("Pfister", "P236"),
    ("éa", "éa"), ("a", "A000"), ("lloyd", "L300"), ("Ab-c", "A120"), ("HW", "H000"), (" abc", " abc"),
])
def test_soundex_as_spark(value, expected):
    assert text_functions.soundex(value) == expected


def test_luhn_quote_factorial_rint_as_spark():
    assert [text_functions.luhn_check(v) for v in ("8112189876", "79927398713", "", "a1", " 79927398713", "0")] == \
        [True, True, False, False, False, True]
    assert text_functions.quote("Don't") == "'Don\\'t'" and text_functions.quote("a\\b") == "'a\\b'"
    assert [number_functions.factorial(n) for n in (0, 5, 20, 21, -1)] == [1, 120, 2432902008176640000, None, None]
    assert [repr(number_functions.rint(x)) for x in (12.3456, 2.5, -0.5, 3.5, float("nan"))] == \
        ["12.0", "2.0", "-0.0", "4.0", "nan"]


@pytest.mark.parametrize("text, code", [
    ("to_binary(A.s || B.s, 'bogus')", "DATATYPE_MISMATCH"),
    ("to_binary(A.s || B.s, A.s)", "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION"),
    ("split(A.s || B.s, '[')", "INVALID_REGEX_PATTERN"),
])
def test_refused_when_lowering(text, code):
    with pytest.raises(SparkCepError) as raised:
        lower(text, ValueColumns())
    assert raised.value.code == code


@pytest.mark.parametrize("text, types", [
    ("base64(A.i + B.i)", ["int", "int"]),  # Spark casts no INT to BINARY
    ("factorial(A.l + B.l)", ["bigint", "bigint"]),  # Spark's cast of a BIGINT to INT: not reproduced
    ("positive(A.s || B.s)", ["string", "string"]),  # Spark's cast of a STRING to DOUBLE
    ("split(A.s || B.s, ',', A.l)", ["string", "bigint"]),
])
def test_refused_when_binding(text, types):
    from sparkcep.evaluation.binding import bind

    values = ValueColumns()
    expression = lower(text, values)
    with pytest.raises(SparkCepError) as raised:
        bind(expression, types[:len(values.texts)] + types[len(values.texts):], ANSI)
    assert raised.value.code == "MATCH_DEPENDENT_TYPE_MISMATCH"


def test_try_to_binary_of_an_unknown_format_is_null():
    assert _evaluate("try_to_binary(A.s || B.s, 'bogus')", ["string", "string"], ["a", "b"]) is None


@pytest.mark.parametrize("function", ["sentences", "is_valid_utf8", "validate_utf8", "try_validate_utf8",
                                      "make_valid_utf8"])
def test_refused_with_the_reason(function):
    with pytest.raises(SparkCepError) as raised:
        lower(f"{function}(A.s || B.s)", ValueColumns())
    assert raised.value.code == "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION"
    assert ("BreakIterator" if function == "sentences" else "invalid UTF-8") in raised.value.message


def test_mask_as_spark():
    """Measured on Spark 4.3 (ANSI on and off alike)."""
    assert text_functions.mask("X", "x", "n", None)("AbCd-123") == "XxXx-nnn"
    assert text_functions.mask("Q", "q", "d", "o")("AbCd-123") == "QqQqoddd"
    assert text_functions.mask(None, "q", "n", None)("AbCd-123") == "AqCq-nnn"
    assert text_functions.mask("😀", "x", "n", None)("AbCd-123") == "😀x😀x-nnn"
    assert text_functions.mask("X", "x", "n", None)("ǅǈ٣ⅷ😀") == "ǅǈnⅷ😀"  # title case, letter numbers: other


@pytest.mark.parametrize("value", ["a\U00016ac0", "\u2c2f", "\U0001df00", "\U00011f50", "\U0001e4f0"])
def test_characters_whose_class_depends_on_the_java_version_are_refused(value):
    """A Unicode 14 letter or digit (Java 17 does not know it, Java 21 does) or a code point
    Python does not know (Kawi and Nag Mundari digits: Unicode 15)."""
    with pytest.raises(SparkCepError) as raised:
        text_functions.mask("X", "x", "n", None)(value)
    assert raised.value.code == "UNSUPPORTED_UNICODE_CHARACTER"
    if value[0] != "a":
        with pytest.raises(SparkCepError):
            text_functions.luhn_check("1" + value)
    assert text_functions.luhn_check("x" + value) is False  # FALSE on every Java version


def test_luhn_check_reads_other_scripts_digits():
    assert text_functions.luhn_check("٠") and text_functions.luhn_check("0٠0")
    assert not text_functions.luhn_check("٣")


@pytest.mark.parametrize("value, expected", [
    ("MZXW6YTBOI======", b"foobar"), ("MZXW6YTBOI", b"foobar"), ("mzxw6ytboi======", b"foobar"),
    ("MZXW6YTB OI======", b"foobar"), ("1", b""), ("", b""), ("MZ======", b"f"), ("M", b"\x03"), ("MZX", b"f"),
    ("MZXW6", b"foo"), ("MZXW6YTBOI======x", b"foobar"), ("MZXW====", b"fo"), ("MZ=XW6YTBOI", b"f"),
    ("MZXW6YTBOI0189", b"foobar"), ("é", b""),
])
def test_from_base32_as_spark(value, expected):
    assert binary_codecs.from_base32(value) == expected


@pytest.mark.parametrize("text, code", [
    ("mask(A.s || B.s, 'XY')", "DATATYPE_MISMATCH"),
    ("mask(A.s || B.s, '')", "DATATYPE_MISMATCH"),
    ("mask(A.s || B.s, A.s)", "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION"),
])
def test_mask_replacements_checked_when_lowering(text, code):
    with pytest.raises(SparkCepError) as raised:
        lower(text, ValueColumns())
    assert raised.value.code == code
