"""Windows with row pattern recognition (SQL:2016 R020) that sparkcep refuses: each raises a
SparkCepError with its code, at the right token (line, column) and with a caret under it.

What R020 forbids that MATCH_RECOGNIZE allows comes from ISO/IEC 19075-5, 6 (a frame starting at
CURRENT ROW in ROWS units; no ROWS PER MATCH, no anchors, no MATCH_NUMBER, no nested row pattern
recognition); the other codes are sparkcep's documented limits (docs/errors.md). Compilation is
pure: no Spark here.
"""

from __future__ import annotations

import pytest

from sparkcep.compiler.rewrite import compile_statement
from sparkcep.errors import SparkCepError, line_and_column


def query(measures: str = "COUNT(A.*) AS n",
          frame: str = "ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING",
          extra: str = "", pattern: str = "A B", define: str = "A AS v > 0",
          select: str = "id, n OVER w AS n", after_from: str = "") -> str:
    parts = ["PARTITION BY p ORDER BY id"]
    parts += [f"MEASURES {measures}"] if measures else []
    parts += [part for part in (frame, extra) if part]
    parts.append(f"PATTERN ({pattern})")
    parts += [f"DEFINE {define}"] if define else []
    body = "\n  ".join(parts)
    return f"SELECT {select}\nFROM t{after_from}\nWINDOW w AS (\n  {body})"


INLINE = ("SELECT id,\n  count(*) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING\n"
          "    PATTERN (A+) DEFINE A AS v > 0) AS c\nFROM t")

# (code, statement, marker: the text the error points at, which occurrence of it)
CASES = [
    ("WINDOW_PATTERN_SYNTAX_ERROR", query(extra="FOO"), "FOO", 1),
    ("WINDOW_PATTERN_SYNTAX_ERROR", query(frame="ROWS BETWEEN CURRENT ROW 3 FOLLOWING"), "3 FOLLOWING", 1),
    ("DUPLICATE_CLAUSE", query(extra="SEEK INITIAL"), "INITIAL", 1),
    # the frame: ROWS, from CURRENT ROW to UNBOUNDED FOLLOWING or n FOLLOWING (19075-5, 6.4)
    ("WINDOW_PATTERN_FRAME", query(frame=""), "A B", 1),
    ("WINDOW_PATTERN_FRAME", query(frame="ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"), "ROWS", 1),
    ("WINDOW_PATTERN_FRAME", query(frame="RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING"), "RANGE", 1),
    ("WINDOW_PATTERN_FRAME", query(frame="ROWS BETWEEN 1 PRECEDING AND 2 FOLLOWING"), "ROWS", 1),
    ("WINDOW_PATTERN_FRAME", query(frame="ROWS CURRENT ROW"), "ROWS", 1),
    ("WINDOW_PATTERN_FRAME", query(frame="ROWS BETWEEN CURRENT ROW AND v FOLLOWING"), "v FOLLOWING", 1),
    # MATCH_RECOGNIZE's own clauses (19075-5, 6.2: one row per input row, no CEP clauses)
    ("WINDOW_PATTERN_CLAUSE_NOT_ALLOWED", query(extra="ONE ROW PER MATCH"), "ONE ROW", 1),
    ("WINDOW_PATTERN_CLAUSE_NOT_ALLOWED", query(extra="ALL ROWS PER MATCH"), "ALL ROWS", 1),
    ("WINDOW_PATTERN_CLAUSE_NOT_ALLOWED", query(extra="SKIP TILL NEXT MATCH"), "SKIP TILL", 1),
    ("WINDOW_PATTERN_CLAUSE_NOT_ALLOWED", query(extra="WITHIN 10"), "WITHIN", 1),
    ("WINDOW_PATTERN_ANCHOR", query(pattern="^ A B"), "^", 1),
    ("WINDOW_PATTERN_ANCHOR", query(pattern="A B $"), "$", 1),
    ("WINDOW_PATTERN_MATCH_NUMBER", query(measures="MATCH_NUMBER() AS n"), "MATCH_NUMBER", 1),
    ("WINDOW_PATTERN_MATCH_NUMBER", query(define="A AS MATCH_NUMBER() > 0"), "MATCH_NUMBER", 1),
    # row pattern recognition nested in a window's DEFINE or MEASURES (19075-5, 6)
    ("NESTED_PATTERN_RECOGNITION",
     query(define="A AS v > (SELECT count(*) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND "
                  "UNBOUNDED FOLLOWING PATTERN (B) DEFINE B AS v > 0) FROM u LIMIT 1)"), "count(*) OVER", 1),
    ("MATCH_RECOGNIZE_IN_SUBQUERY",
     query(define="A AS v > (SELECT max(x) FROM u MATCH_RECOGNIZE (ORDER BY id MEASURES A.v AS x "
                  "PATTERN (A) DEFINE A AS v > 0))"), "u MATCH_RECOGNIZE", 1),
    # what is called over the window
    ("WINDOW_MEASURE_UNKNOWN", query(select="id, m OVER w AS m"), "m OVER", 1),
    ("WINDOW_FUNCTION_NOT_SUPPORTED", query(select="id, rank() OVER w AS r"), "rank()", 1),
    ("WINDOW_FUNCTION_NOT_SUPPORTED", query(select="id, lag(v) OVER w AS r"), "lag(v)", 1),
    ("WINDOW_FUNCTION_NOT_SUPPORTED", query(select="id, first_value(v) IGNORE NULLS OVER w AS r"),
     "first_value", 1),
    ("WINDOW_FUNCTION_NOT_SUPPORTED", query(select="id, last_value(v, true) OVER w AS r"), "last_value", 1),
    ("WINDOW_NTH_VALUE_POSITION", query(select="id, nth_value(v, 0) OVER w AS r"), "0)", 1),
    ("WINDOW_NTH_VALUE_POSITION", query(select="id,\n  nth_value(v, id) OVER w AS r"), "id) OVER", 1),
    ("INCONSISTENT_VARIABLE_REFERENCES", query(select="id, first_value(A.v + B.v) OVER w AS r"),
     "first_value", 1),
    # sparkcep's limits: the query around the window, navigation
    ("WINDOW_PATTERN_UNSUPPORTED_QUERY", query(after_from=" JOIN u ON t.id = u.id"), "u ON", 1),
    ("WINDOW_PATTERN_UNSUPPORTED_QUERY", query(select="p, max(n OVER w)", after_from=" GROUP BY p"), "p\n", 1),
    ("WINDOW_PATTERN_NAVIGATION", query(define="A AS v > 0, B AS B.v > PREV(A.v)"), "B.v > PREV", 1),
    ("WINDOW_PATTERN_FRAME", INLINE.replace("CURRENT ROW AND 2", "2 PRECEDING AND 2"), "ROWS", 1),
    # a window name defined twice in one WINDOW clause (ISO/IEC 9075-2, 7.11, SR 2); Spark's
    # names are case-insensitive, and a plain window's name counts too
    ("DUPLICATE_WINDOW_NAME", query() + ",\n  w AS (PARTITION BY p ORDER BY id ROWS BETWEEN CURRENT ROW "
     "AND UNBOUNDED FOLLOWING PATTERN (A+) DEFINE A AS v > 1)", "w AS (PARTITION BY p ORDER BY id ROWS", 1),
    ("DUPLICATE_WINDOW_NAME", query() + ", W AS (ORDER BY id)", "W AS", 1),
    ("DUPLICATE_WINDOW_NAME", "SELECT id, n OVER w AS n\nFROM t\nWINDOW w AS (ORDER BY id), `w` AS (\n"
     "  ORDER BY id MEASURES COUNT(*) AS n ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING PATTERN (A))",
     "`w`", 1),
    ("WINDOW_FUNCTION_NOT_SUPPORTED", INLINE.replace("count(*)", "ntile(2)"), "ntile", 1),
    ("WINDOW_FUNCTION_NOT_SUPPORTED", INLINE.replace("count(*)", "first_value(v) IGNORE NULLS"),
     "first_value", 1),
]


def _position(sql: str, marker: str, occurrence: int) -> tuple[int, int]:
    offset = -1
    for _ in range(occurrence):
        offset = sql.index(marker, offset + 1)
    return line_and_column(sql, offset)


@pytest.mark.parametrize(("code", "sql", "marker", "occurrence"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_refused_with_position_and_caret(code, sql, marker, occurrence):
    with pytest.raises(SparkCepError) as caught:
        compile_statement(sql)
    error = caught.value
    assert error.code == code, str(error)
    assert (error.line, error.column) == _position(sql, marker, occurrence), str(error)
    source_line = sql.splitlines()[error.line - 1]
    caret_line = str(error).splitlines()[-1]
    assert caret_line.strip() and set(caret_line.strip()) == {"^"}, str(error)
    assert caret_line.index("^") == error.column - 1
    assert str(error).splitlines()[-2] == source_line


def test_stream_refused_at_the_window():
    sql = query()
    with pytest.raises(SparkCepError) as caught:
        compile_statement(sql, streaming=True)
    error = caught.value
    assert error.code == "WINDOW_PATTERN_STREAM"
    assert (error.line, error.column) == _position(sql, "w AS (", 1)
    assert str(error).splitlines()[-1].startswith(" " * (error.column - 1) + "^")


def test_prev_next_in_window_measures_compile():
    """PREV/NEXT in a window's MEASURES (refused before): each becomes a navigation whose value
    the runtime reads only from the frame (``PatternWindow.shifts``; the values are checked in
    tests/matcher/test_window_differential.py and tests/conformance/test_window_navigation_spark.py)."""
    compiled = compile_statement(query(measures="PREV(A.v) AS n, NEXT(LAST(B.v), 2) AS m, "
                                                "PREV(CLASSIFIER()) AS c",
                                       select="id, n OVER w AS n, m OVER w AS m, c OVER w AS c",
                                       frame="ROWS BETWEEN CURRENT ROW AND 3 FOLLOWING"))
    (match,) = compiled.matches
    assert sorted(s for _, s in match.plan.spec.window.shifts) == [-1, 2]


def test_value_functions_inline_with_respect_nulls():
    """``nth_value(v, 2) RESPECT NULLS OVER (... PATTERN ...)`` parses (the null treatment comes
    before OVER) and compiles as without it: the match's second row."""
    plain = compile_statement(INLINE.replace("count(*)", "nth_value(v, 2)")).matches[0].plan.components
    respect = compile_statement(INLINE.replace("count(*)", "nth_value(v, 2) RESPECT NULLS")).matches[0].plan.components
    assert respect == plain and plain[0].offset == 1 and plain[0].from_start

