"""regexp_extract, regexp_replace, regexp_count, regexp_substr and regexp_instr between rows of a
match in DEFINE, without Spark. The expected values are Spark 4's own answers to the same calls
(asked of Spark once, written down here); the fixed corpus (``corpus.py``, recorded in
``spark_answers.json``) checks the same functions over rows with all three evaluators, and
here what lowering accepts, refuses and where."""

from __future__ import annotations

import pytest

import sparkcep
from sparkcep.errors import AnalysisError, MatchRuntimeError
from sparkcep.evaluation.regex_functions import (regexp_count, regexp_extract, regexp_instr, regexp_replace,
                                                 regexp_substr)

ERROR = "error"


def _run(function, *arguments):
    try:
        return function(*arguments)
    except MatchRuntimeError as error:
        return ERROR, error.code


@pytest.mark.parametrize(("arguments", "expected"), [
    (("", "^$", "x"), "x"),
    (("abc", "", "-"), "-a-b-c-"),
    (("abxd", "x*", "-"), "-a-b--d-"),  # an empty match right after a non-empty one
    (("a", "a??", "-"), "-a-"),  # no non-empty match where an empty one was found (Python: '--')
    (("abc", "b", "$0$0"), "abbc"),
    (("abc", "(b)", "[$1]"), "a[b]c"),
    (("abc", "(b)", "\\$1"), "a$1c"),
    (("abc", "(b)", "\\\\"), "a\\c"),
    (("abc", "(b)", "\\x"), "axc"),
    (("abc", "(b)", "$12"), "ab2c"),  # the longest run of digits naming a group
    (("abc", "(b)(c)", "$12"), "ab2"),
    (("abc", "(b)", "$01"), "abc"),
    (("abc", "(b)", "$10"), "ab0c"),
    (("a", "(((((((((((a)))))))))))", "$11$111"), "aa1"),
    (("abc", "(a)|(z)", "[$2]"), "[]bc"),
    (("abc", "z", "$"), "abc"),  # an invalid replacement is an error only when something matches
    (("abc", "z", "$9"), "abc"),
    (("abc", "(b)", "$2"), (ERROR, "INVALID_REGEXP_REPLACE")),
    (("abc", "(b)", "$x"), (ERROR, "INVALID_REGEXP_REPLACE")),
    (("abc", "(b)", "$"), (ERROR, "INVALID_REGEXP_REPLACE")),
    (("abc", "(b)", "$1$"), (ERROR, "INVALID_REGEXP_REPLACE")),
    (("abc", "(b)", "$$"), (ERROR, "INVALID_REGEXP_REPLACE")),
    (("abc", "(b)", "x\\"), (ERROR, "INVALID_REGEXP_REPLACE")),
    (("abc", "(b)", "${g}"), (ERROR, "UNSUPPORTED_REGEX_REPLACEMENT")),  # Spark: 'ac'
    (("abab", "^a", "X", 3), "abXb"),  # ^ matches where the search starts (Matcher.region)
    (("abab", "a", "X", 3), "abXb"),
    (("abab", "a", "X", 4), "abab"),
    (("abab", "a", "X", 5), "abab"),
    (("abab", "$", "X", 4), "ababX"),
    (("abab", "$", "X", 5), "abab"),  # past the last character: unchanged
    (("", "", "X", 1), "X"),
    (("", "", "X", 2), ""),
    (("😀a", "a", "X", 2), "😀X"),  # positions count characters
    (("😀a", "a", "X", 3), "😀a"),
    (("😀😀", "😀", "x", 2), "😀x"),
    (("😀", "", "-"), (ERROR, "UNSUPPORTED_REGEX_PATTERN")),  # Spark splits the surrogate pair
    (("a\r\n", "$", "X", 2), "aX\r\nX"),
    (("ab\n", "$", "X", 3), "abX\nX"),
    (("😀ab", "^a", "X", 2), "😀Xb"),
    (("a\r\n", "$", "X", 3), (ERROR, "UNSUPPORTED_REGEX_PATTERN")),  # Spark: 'a\r\nX'
    (("\r\n", "$", "X", 2), (ERROR, "UNSUPPORTED_REGEX_PATTERN")),  # the \r at the first character
    (("a\r\n", "b", "X", 3), "a\r\n"),
])
def test_regexp_replace_gives_sparks_answers(arguments, expected):
    assert _run(regexp_replace, *arguments) == expected


@pytest.mark.parametrize(("arguments", "expected"), [
    (("x7y", "x(\\d+)"), "7"),  # group 1 by default
    (("x7y", "x(\\d+)", 0), "x7"),
    (("abc", "(z)", 2), ""),  # no match: no group check
    (("abc", "(a)|(z)", 2), ""),  # the group took part in no match
    (("abc", "", 0), ""),
    (("😀c", "(c)", 1), "c"),
    (("abc", "(b)", 2), (ERROR, "INVALID_REGEX_GROUP_INDEX")),
    (("abc", "(b)", -1), (ERROR, "INVALID_REGEX_GROUP_INDEX")),
    (("abc", "", 1), (ERROR, "INVALID_REGEX_GROUP_INDEX")),
    (("abc", "[", 0), (ERROR, "INVALID_REGEX_PATTERN")),
])
def test_regexp_extract_gives_sparks_answers(arguments, expected):
    assert _run(regexp_extract, *arguments) == expected


@pytest.mark.parametrize(("function", "arguments", "expected"), [
    (regexp_count, ("abc", ""), 4),
    (regexp_count, ("", ""), 1),
    (regexp_count, ("a", "a??"), 2),  # Python's re.findall finds 3
    (regexp_count, ("abxd", "x*"), 5),
    (regexp_count, ("a\nb", "$"), 1),
    (regexp_count, ("😀", ""), (ERROR, "UNSUPPORTED_REGEX_PATTERN")),  # Spark: 3
    # the first code point outside the BMP, U+10000, is a surrogate pair in Java; U+FFFF, the
    # last inside, one UTF-16 unit: Java's matcher steps over it as Python does
    (regexp_count, ("\U00010000", ""), (ERROR, "UNSUPPORTED_REGEX_PATTERN")),
    (regexp_count, ("\uffff", ""), 2),
    (regexp_count, ("a\uffffb", "x*"), 4),
    (regexp_count, ("abc", "["), (ERROR, "INVALID_REGEX_PATTERN")),
    (regexp_substr, ("abc", ""), None),  # an empty match is NULL
    (regexp_substr, ("abc", "z"), None),
    (regexp_substr, ("abc", "b+"), "b"),
    (regexp_substr, ("abc", "x*|b"), None),
    (regexp_instr, ("abc", ""), 1),
    (regexp_instr, ("abc", "z"), 0),
    (regexp_instr, ("abc", "c"), 3),
    (regexp_instr, ("abc", "(b)(c)", 5), 2),  # the index does not change the position
    (regexp_instr, ("abc", "(b)(c)", -1), 2),
    (regexp_instr, ("😀c", "c"), 2),
])
def test_count_substr_instr_give_sparks_answers(function, arguments, expected):
    assert _run(function, *arguments) == expected


def _query(condition: str) -> str:
    return ("SELECT * FROM t MATCH_RECOGNIZE (ORDER BY id MEASURES B.id AS b PATTERN (A B)\n"
            f"  DEFINE B AS {condition})")


@pytest.mark.parametrize(("condition", "code", "column"), [
    ("regexp_extract(concat(A.s, B.s), 'a{', 1) = ''", "INVALID_REGEX_PATTERN", 48),
    ("regexp_count(concat(A.s, B.s), '(?i)a') > 0", "UNSUPPORTED_REGEX_PATTERN", 46),
    ("regexp_replace(concat(A.s, B.s), 'a', '${g}') = ''", "UNSUPPORTED_REGEX_REPLACEMENT", 53),
    ("regexp_replace(concat(A.s, B.s), 'a', 'b', 0) = ''", "DATATYPE_MISMATCH", 58),
    ("regexp_replace(concat(A.s, B.s), 'a', 'b', A.n) = ''", "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION", 58),
    ("regexp_count(concat(A.s, B.s), 'a', 1) > 0", "WRONG_NUM_ARGS", 15),
    ("regexp_substr(concat(A.s, B.s), 'a', 1) > 0", "WRONG_NUM_ARGS", 15),
])
def test_refusals_are_typed_at_the_users_position(condition, code, column):
    with pytest.raises(AnalysisError) as caught:
        sparkcep.transpile(_query(condition))
    assert caught.value.code == code
    assert (caught.value.line, caught.value.column) == (2, column)


@pytest.mark.parametrize(("qualified", "values", "types", "code"), [
    ("regexp_count(A.s1, B.s2)", ["a", "(?i)A"], ["string", "string"], "UNSUPPORTED_REGEX_PATTERN"),
    ("regexp_substr(A.s1, B.s2)", ["a", "a{"], ["string", "string"], "INVALID_REGEX_PATTERN"),
    ("regexp_extract(A.s1, B.s2, A.i1)", ["ab", "(b)", 2], ["string", "string", "int"], "INVALID_REGEX_GROUP_INDEX"),
    ("regexp_replace(A.s1, 'b', B.s2)", ["ab", "$1"], ["string", "string"], "INVALID_REGEXP_REPLACE"),
    ("regexp_replace(A.s1, 'b', B.s2)", ["ab", "${x}"], ["string", "string"], "UNSUPPORTED_REGEX_REPLACEMENT"),
])
def test_what_a_row_holds_is_checked_while_matching(qualified, values, types, code):
    from sparkcep.compiler.lowering import ValueColumns
    from sparkcep.evaluation.binding import Semantics
    from tests.evaluation.harness import evaluate_all, lower

    expression = lower(qualified, ValueColumns())
    results = evaluate_all(expression, values, types, Semantics())
    assert {getattr(r, "error", r) for r in results.values()} == {code}
