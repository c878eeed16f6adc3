"""ILIKE, LIKE ... ESCAPE, RLIKE / REGEXP / regexp_like and LIKE/ILIKE ANY/ALL between rows of a
match in DEFINE (issue 23), without Spark: the rules as Spark documents them, what lowering
accepts and refuses, and where. The same forms against Spark itself:
tests/evaluation/test_spark_differential.py::test_string_matching_between_rows_agrees_with_spark."""

from __future__ import annotations

import pytest

import sparkcep
from sparkcep.errors import AnalysisError, MatchRuntimeError
from sparkcep.plan.java_regex import compile_java_regex, rlike
from sparkcep.evaluation.operators import ilike, like
from tests.evaluation.test_spark_differential import MATCH_PATTERNS

INVALID_IN_JAVA = ["a\\", "a{2147483648}", "a{", "*a", "(a", "[a", "[z-a]", "a)", "a**"]


@pytest.mark.parametrize(("value", "pattern", "escape", "expected"), [
    ("a%", "a/%", "/", True), ("ab", "a/%", "/", False), ("a/c", "a//c", "/", True),
    ("a\\c", "a\\c", "/", True), ("a_c", "a/_c", "/", True), ("abc", "a/_c", "/", False),
    ("a%", "a%%", "%", True), ("ab", "a%%", "%", False),
])
def test_like_with_escape(value, pattern, escape, expected):
    assert like(value, pattern, escape) is expected


@pytest.mark.parametrize(("pattern", "escape"), [("a/", "/"), ("a/b", "/"), ("a\\", "/")])
def test_like_escape_errors_follow_the_escape_character(pattern, escape):
    if pattern == "a\\":  # with ESCAPE '/', a backslash is an ordinary character
        assert like("a\\", pattern, escape) is True
        return
    with pytest.raises(MatchRuntimeError) as caught:
        like("a", pattern, escape)
    assert caught.value.code == "INVALID_LIKE_PATTERN"


@pytest.mark.parametrize(("value", "pattern", "escape", "expected"), [
    ("ABC", "a_c", "\\", True), ("abc", "A%", "\\", True), ("ΣΑΣ", "σας", "\\", True),
    ("İ", "i\u0307", "\\", True), ("ß", "SS", "\\", False),
    # the escape character is not lowered: 'A' escapes nothing once the pattern is lowered
    ("a_", "aA_", "A", False), ("a_", "aa_", "a", True),
])
def test_ilike_lowers_both_sides(value, pattern, escape, expected):
    assert ilike(value, pattern, escape) is expected


@pytest.mark.parametrize(("value", "pattern", "expected"), [
    ("abc", "b", True), ("abc", "^b", False), ("a\nb", "a.b", False), ("a\u0085b", "a.b", False),
    ("ab\n", "b$", True), ("ab\r\n", "b$", True), ("ab\r", "b$", True), ("ab\u2028", "b$", True),
    ("ab\n\n", "b$", False), ("a\r\n", "\r$", False), ("x١", "\\d", False), ("é", "\\w", False),
    ("aaa", "a{2,}+a", False), ("aaa", "a{2,}a", True), ("ab", "(?>a|ab)c", False), ("abc", "(?>a|ab)c", False),
    ("ac", "(?>a|ab)c", True), ("a-c", "[a\\-c]+", True), ("😀x", "^.x", True),
])
def test_rlike_has_javas_meaning(value, pattern, expected):
    assert rlike(value, pattern) is expected


def test_every_pattern_of_the_spark_differential_is_translated_or_invalid():
    for pattern in MATCH_PATTERNS:
        if pattern is None:
            continue
        if pattern in INVALID_IN_JAVA:
            with pytest.raises(MatchRuntimeError) as caught:
                compile_java_regex(pattern)
            assert caught.value.code == "INVALID_REGEX_PATTERN", pattern
        else:
            compile_java_regex(pattern)


@pytest.mark.parametrize("pattern", [
    "(?i)a", "(?s).", "\\b", "\\B", "(?<=a)b", "(?<!a)b", "(?<n>a)", "(a)\\1", "\\p{L}", "\\Qa\\E", "\\h",
    "\\v", "\\R", "\\X", "\\G", "\\Z", "\\0", "[a[b]]", "[a&&b]", "[]a]", "[a-c-e]", "[\\d-z]", "^*",
    "(?=a)+", "\\x{41}", "\\uD83D", "\\é",
])
def test_rlike_refuses_what_it_cannot_reproduce(pattern):
    with pytest.raises(MatchRuntimeError) as caught:
        compile_java_regex(pattern)
    assert caught.value.code == "UNSUPPORTED_REGEX_PATTERN"


def _query(condition: str) -> str:
    return ("SELECT * FROM t MATCH_RECOGNIZE (ORDER BY id MEASURES B.id AS b PATTERN (A B)\n"
            f"  DEFINE B AS {condition})")


def _condition(condition: str):
    from sparkcep.compiler.rewrite import compile_statement

    (match,) = compile_statement(_query(condition)).matches
    (dependent,) = match.plan.conditions.values()
    return dependent


def _shape(e) -> str:
    from sparkcep.plan import expressions as p

    if isinstance(e, p.Operator):
        escape = dict(e.options).get("escape")
        return f"{e.name}{'[' + escape + ']' if escape else ''}({', '.join(_shape(o) for o in e.operands)})"
    if isinstance(e, p.Constant):
        return repr(e.value)
    return "nav" if isinstance(e, p.Navigation) else "row"


@pytest.mark.parametrize(("condition", "shape"), [
    ("B.s ILIKE A.s", "ilike(row, nav)"),
    ("B.s NOT ILIKE A.s", "not(ilike(row, nav))"),
    ("B.s LIKE A.s ESCAPE '/'", "like[/](row, nav)"),
    ("B.s ILIKE A.s ESCAPE '/'", "ilike[/](row, nav)"),
    ("B.s RLIKE A.s", "rlike(row, nav)"),
    ("B.s REGEXP A.s", "rlike(row, nav)"),
    ("regexp_like(B.s, A.s)", "rlike(row, nav)"),
    ("regexp(B.s, A.s)", "rlike(row, nav)"),
    ("B.s NOT RLIKE A.s", "not(rlike(row, nav))"),
    ("B.s LIKE ANY (A.s, 'x')", "or(like(row, nav), like(row, 'x'))"),
    ("B.s LIKE SOME (A.s, 'x')", "or(like(row, nav), like(row, 'x'))"),
    ("B.s NOT LIKE ANY (A.s, 'x')", "or(not(like(row, nav)), not(like(row, 'x')))"),
    ("B.s LIKE ALL (A.s, 'x')", "and(like(row, nav), like(row, 'x'))"),
    ("B.s NOT ILIKE ALL (A.s, 'x')", "and(not(ilike(row, nav)), not(ilike(row, 'x')))"),
    ("B.s LIKE ANY (A.s)", "like(row, nav)"),
])
def test_forms_are_lowered_as_sparks_parser_builds_them(condition, shape):
    assert _shape(_condition(condition)) == shape


@pytest.mark.parametrize(("condition", "code", "column"), [
    ("B.s LIKE A.s ESCAPE '//'", "INVALID_ESCAPE_CHARACTER", 35),
    ("B.s LIKE A.s ESCAPE ''", "INVALID_ESCAPE_CHARACTER", 35),
    ("concat(A.s, B.s) LIKE 'a\\\\'", "INVALID_LIKE_PATTERN", 37),
    ("concat(A.s, B.s) LIKE 'a/b' ESCAPE '/'", "INVALID_LIKE_PATTERN", 37),
    ("concat(A.s, B.s) RLIKE '(?i)a'", "UNSUPPORTED_REGEX_PATTERN", 38),
    ("concat(A.s, B.s) RLIKE 'a{'", "INVALID_REGEX_PATTERN", 38),
    ("B.s LIKE ANY (A.s, '(?i)a', 'a\\\\')", "INVALID_LIKE_PATTERN", 43),
    ("B.s LIKE ANY (A.s, 'x') ESCAPE '/'", "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION", 15),
])
def test_refusals_are_typed_at_the_users_position(condition, code, column):
    with pytest.raises(AnalysisError) as caught:
        sparkcep.transpile(_query(condition))
    assert caught.value.code == code
    assert (caught.value.line, caught.value.column) == (2, column)


def test_a_refused_pattern_read_from_a_row_is_a_typed_error_at_the_rlike():
    from sparkcep.compiler.lowering import ValueColumns
    from sparkcep.evaluation.binding import Semantics
    from tests.evaluation.harness import evaluate_all, lower

    values = ValueColumns()
    expression = lower("A.s1 RLIKE B.s2", values)
    results = evaluate_all(expression, ["a", "(?i)A"], ["string", "string"], Semantics())
    assert {form: getattr(r, "error", r) for form, r in results.items()} == {
        "interpreter": "UNSUPPORTED_REGEX_PATTERN", "generated": "UNSUPPORTED_REGEX_PATTERN",
        "specialized": "UNSUPPORTED_REGEX_PATTERN"}
