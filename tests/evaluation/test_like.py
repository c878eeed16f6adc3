"""LIKE between rows of a match in DEFINE (issue 23), without Spark: the pattern rules as Spark
documents them (``_`` one character, ``%`` any, ``\\`` escapes ``_``, ``%`` and itself, anything
else after it is an error; case-sensitive; the whole value matches), and what lowering accepts.
The same cases against Spark itself: tests/evaluation/test_spark_differential.py."""

from __future__ import annotations

import pytest

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation.operators import like


@pytest.mark.parametrize(("value", "pattern", "expected"), [
    ("Spark", "_park", True), ("Spark", "S%", True), ("Spark", "s%", False), ("Spark", "Spar", False),
    ("a.c", "a.c", True), ("abc", "a.c", False), ("a*c", "a*c", True), ("aac", "a*c", False),
    ("a\nc", "a_c", True), ("a\nc", "a%", True), ("", "%", True), ("", "", True), ("x", "", False),
    ("a%", "a\\%", True), ("ab", "a\\%", False), ("a_c", "a\\_c", True), ("abc", "a\\_c", False),
    ("a\\c", "a\\\\c", True), ("(a)", "(a)", True), ("日本", "_本", True),
])
def test_like_rules(value, pattern, expected):
    assert like(value, pattern) is expected


@pytest.mark.parametrize("pattern", ["a\\", "a\\b"])
def test_invalid_escape_raises(pattern):
    with pytest.raises(MatchRuntimeError) as caught:
        like("a", pattern)
    assert caught.value.code == "INVALID_LIKE_PATTERN"


def _query(condition: str) -> str:
    return ("SELECT * FROM t MATCH_RECOGNIZE (ORDER BY id MEASURES B.id AS b PATTERN (A B)\n"
            f"  DEFINE B AS {condition})")


@pytest.mark.parametrize(("condition", "negated"), [("B.s LIKE A.s", False), ("A.s NOT LIKE B.s", True)])
def test_like_between_rows_is_lowered(condition, negated):
    from sparkcep.compiler.rewrite import compile_statement

    (match,) = compile_statement(_query(condition)).matches
    (dependent,) = match.plan.conditions.values()
    assert (dependent.name == "not") is negated
    assert (dependent.operands[0] if negated else dependent).name == "like"

# ESCAPE, LIKE ANY/ALL, ILIKE and RLIKE: tests/evaluation/test_string_matching.py
