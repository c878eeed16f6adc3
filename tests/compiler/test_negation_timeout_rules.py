"""The rules of trailing negation and ``WITH TIMED OUT MATCHES`` at parse and analysis time
(docs/semantics.md, docs/errors.md): each mistake is a typed error at the right line and column,
and the accepted forms compile (pure, no Spark)."""

from __future__ import annotations

from pathlib import Path

import pytest

import sparkcep
from sparkcep import dialect
from sparkcep.errors import AnalysisError, ParseError

TEMPLATE = """SELECT * FROM t MATCH_RECOGNIZE (
  PARTITION BY p ORDER BY ts
  MEASURES A.ts AS a_ts{measures}
  {rows}
  {strategy}
  PATTERN ({pattern}){within}
  DEFINE A AS kind = 'a', B AS kind = 'b', C AS kind = 'c'{define}
)"""


def statement(measures="", rows="ONE ROW PER MATCH", strategy="SKIP TILL NEXT MATCH",
              pattern="A B !C", within=" WITHIN 10", define=""):
    return TEMPLATE.format(measures=measures, rows=rows, strategy=strategy, pattern=pattern,
                           within=within, define=define)


def located(text: str, code: str, fragment: str, kind=AnalysisError):
    with pytest.raises(kind) as info:
        sparkcep.transpile(text)
    error = info.value
    assert error.code == code, str(error)
    line = text.splitlines()[error.line - 1]
    assert line[error.column - 1:].startswith(fragment), (str(error), fragment)
    return error


@pytest.mark.parametrize("rows", ["ONE ROW PER MATCH", "ALL ROWS PER MATCH",
                                  "ALL ROWS PER MATCH OMIT EMPTY MATCHES"])
@pytest.mark.parametrize("strategy", ["SKIP TILL NEXT MATCH", "SKIP TILL ANY MATCH"])
def test_trailing_negation_compiles(rows, strategy):
    assert "sparkcep_mr_" in sparkcep.transpile(statement(rows=rows, strategy=strategy))
    assert "sparkcep_mr_" in sparkcep.transpile(statement(rows=rows, strategy=strategy,
                                                          pattern="A !C B+ !C"))


def test_trailing_negation_needs_within():
    error = located(statement(within=""), "TRAILING_NEGATION_REQUIRES_WITHIN", "!C")
    assert "WITHIN" in error.message and (error.line, error.column) == (6, 16)


def test_trailing_negation_refusals():
    located(statement(rows="ALL ROWS PER MATCH WITH UNMATCHED ROWS"),
            "TRAILING_NEGATION_NOT_SUPPORTED", "ALL ROWS PER MATCH WITH UNMATCHED ROWS")
    located(statement(strategy=""), "NEGATION_REQUIRES_SKIP_STRATEGY", "!C")
    # a negation followed only by optional components is neither between nor trailing
    located(statement(pattern="A !C B?"), "UNSUPPORTED_PATTERN_FOR_STRATEGY", "A !C B?")


def test_timed_out_matches_compile():
    for rows in ("ONE ROW PER MATCH WITH TIMED OUT MATCHES",
                 "ALL ROWS PER MATCH WITH TIMED OUT MATCHES",
                 "ALL ROWS PER MATCH SHOW EMPTY MATCHES WITH TIMED OUT MATCHES"):
        for pattern in ("A B C", "A B+ C !C"):
            text = statement(measures=", MATCH_STATUS() AS status, LAST(C.ts) AS c_ts",
                             rows=rows, pattern=pattern, define="")
            assert "sparkcep_mr_" in sparkcep.transpile(text)
            assert rows in dialect.parse_one(text).sql(dialect="sparkcep")


def test_timed_out_matches_parse_errors():
    error = located(statement(rows="ONE ROW PER MATCH WITH TIMED MATCHES"),
                    "INVALID_ROWS_PER_MATCH", "MATCHES", ParseError)
    assert "WITH TIMED OUT MATCHES" in error.message
    located(statement(measures=", MATCH_STATUS(A) AS s"), "INVALID_FUNCTION_ARGUMENTS", "A)",
            ParseError)


def test_timed_out_matches_refusals():
    rows = "ONE ROW PER MATCH WITH TIMED OUT MATCHES"
    located(statement(rows=rows, strategy="SKIP TILL ANY MATCH"),
            "TIMED_OUT_MATCHES_NOT_SUPPORTED", rows)
    located(statement(rows=rows, strategy="", pattern="A B C"),
            "TIMED_OUT_MATCHES_NOT_SUPPORTED", rows)
    located(statement(rows=rows, pattern="A B C", within=""),
            "TIMED_OUT_MATCHES_REQUIRES_WITHIN", rows)
    located(statement(rows="ALL ROWS PER MATCH WITH UNMATCHED ROWS WITH TIMED OUT MATCHES",
                      pattern="A B C"), "TIMED_OUT_MATCHES_NOT_SUPPORTED", "ALL ROWS")
    located(statement(measures=", MATCH_STATUS() AS s", pattern="A B C"),
            "MATCH_STATUS_REQUIRES_TIMED_OUT_MATCHES", "MATCH_STATUS()")
    located(statement(rows=rows, pattern="A B C D", define=", D AS MATCH_STATUS() = 'x'"),
            "MATCH_STATUS_IN_DEFINE", "MATCH_STATUS()")
    located(statement(rows=rows, pattern="A B C", measures=", LAST(MATCH_STATUS()) AS s"),
            "INVALID_NAVIGATION_NESTING", "MATCH_STATUS()")


def test_codes_are_listed():
    listed = (Path(__file__).resolve().parents[2] / "docs" / "errors.md").read_text()
    for code in ("TRAILING_NEGATION_REQUIRES_WITHIN", "TRAILING_NEGATION_NOT_SUPPORTED",
                 "TIMED_OUT_MATCHES_NOT_SUPPORTED", "TIMED_OUT_MATCHES_REQUIRES_WITHIN",
                 "MATCH_STATUS_REQUIRES_TIMED_OUT_MATCHES", "MATCH_STATUS_IN_DEFINE"):
        assert f"`{code}`" in listed, code


def test_not_with_uncertain_time():
    uncertain = statement().replace("ORDER BY ts", "ORDER BY ts UNCERTAIN TIME (ts, te)")
    located(uncertain, "UNCERTAIN_TIME_NOT_SUPPORTED", "!C")
    rows = "ONE ROW PER MATCH WITH TIMED OUT MATCHES"
    located(statement(rows=rows, pattern="A B C").replace(
        "ORDER BY ts", "ORDER BY ts UNCERTAIN TIME (ts, te)"), "UNCERTAIN_TIME_NOT_SUPPORTED", rows)
