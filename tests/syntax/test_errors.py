"""Malformed queries: exact code, line and column (1-based, start of the offending token)."""

import pytest
import sqlglot

from sparkcep import dialect
from sparkcep.errors import ParseError, SparkCepError

MR = "SELECT * FROM t MATCH_RECOGNIZE ("
# column of the first character after MR
C = len(MR) + 1

CASES = [
    # (sql, code, line, column)
    (MR + "PATTERN (A B) DEFINE A AS x > 1 PATTERN (C))", "DUPLICATE_CLAUSE", 1, C + 32),
    (MR + "ORDER BY a ORDER BY b PATTERN (A))", "DUPLICATE_CLAUSE", 1, C + 11),
    (MR + "ONE ROW PER MATCH ALL ROWS PER MATCH PATTERN (A))", "DUPLICATE_CLAUSE", 1, C + 18),
    (MR + "SKIP TILL ANY MATCH STRICT CONTIGUITY PATTERN (A))", "DUPLICATE_CLAUSE", 1, C + 20),
    (MR + "ORDER BY ts DEFINE A AS x > 1)", "MISSING_PATTERN", 1, 17),
    (MR + "MEASURES A.x PATTERN (A))", "MISSING_MEASURE_ALIAS", 1, C + 9),
    (MR + "MEASURES A.x AS y, LAST(B.y) PATTERN (A))", "MISSING_MEASURE_ALIAS", 1, C + 19),
    (MR + "MEASURES A.x AS PATTERN (A))", "MISSING_MEASURE_ALIAS", 1, C + 16),
    (MR + "PATTERN (A{3,2}))", "INVALID_QUANTIFIER_RANGE", 1, C + 10),
    (MR + "PATTERN (A (B C) DEFINE A AS x > 1)", "UNBALANCED_PATTERN_PARENTHESES", 1, C + 8),
    (MR + "PATTERN (A (B C DEFINE A AS x > 1)", "UNBALANCED_PATTERN_PARENTHESES", 1, C + 11),
    (MR + "PATTERN (A B)) DEFINE A AS x > 1)", "MATCH_RECOGNIZE_SYNTAX_ERROR", 1, C + 13),
    (MR + "PATTERN (A B) C))", "MATCH_RECOGNIZE_SYNTAX_ERROR", 1, C + 14),
    (MR + "PATTERN (* A))", "QUANTIFIER_WITHOUT_OPERAND", 1, C + 9),
    (MR + "PATTERN (A | +))", "QUANTIFIER_WITHOUT_OPERAND", 1, C + 13),
    (MR + "PATTERN ({2} A))", "QUANTIFIER_WITHOUT_OPERAND", 1, C + 9),
    (MR + "PATTERN (A # B))", "INVALID_PATTERN_CHARACTER", 1, C + 11),
    (MR + "PATTERN (A - B))", "INVALID_PATTERN_CHARACTER", 1, C + 11),
    (MR + "PATTERN (!(A)))", "INVALID_NEGATION", 1, C + 9),
    (MR + "PATTERN (A !))", "INVALID_NEGATION", 1, C + 11),
    (MR + "PATTERN (!A+))", "INVALID_NEGATION", 1, C + 11),
    (MR + "PATTERN (A {- B))", "UNBALANCED_PATTERN_EXCLUSION", 1, C + 11),
    (MR + "PATTERN (A B -}))", "UNBALANCED_PATTERN_EXCLUSION", 1, C + 13),
    (MR + "PATTERN (A**))", "INVALID_QUANTIFIER", 1, C + 11),
    (MR + "PATTERN (A{2))", "INVALID_QUANTIFIER", 1, C + 10),
    (MR + "PATTERN (A{x}))", "INVALID_QUANTIFIER", 1, C + 11),
    (MR + "PATTERN (A{}))", "INVALID_QUANTIFIER", 1, C + 10),
    (MR + "PATTERN (A|))", "PATTERN_SYNTAX_ERROR", 1, C + 11),
    (MR + "PATTERN (PERMUTE()))", "PATTERN_SYNTAX_ERROR", 1, C + 17),
    (MR + "PATTERN (A, B))", "PATTERN_SYNTAX_ERROR", 1, C + 10),
    (MR + "PATTERN A)", "PATTERN_SYNTAX_ERROR", 1, C + 8),
    (MR + "PATTERN (A) DEFINE A AS x > 1", "MATCH_RECOGNIZE_SYNTAX_ERROR", 1, C - 1),
    (MR + "PATTERN (A) FOO)", "MATCH_RECOGNIZE_SYNTAX_ERROR", 1, C + 12),
    ("SELECT * FROM t MATCH_RECOGNIZE PATTERN (A)", "MATCH_RECOGNIZE_SYNTAX_ERROR", 1, 33),
    (MR + "PATTERN (A) DEFINE A x > 1)", "INVALID_DEFINE", 1, C + 21),
    (MR + "PATTERN (A) DEFINE A AS )", "INVALID_DEFINE", 1, C + 24),
    (MR + "PATTERN (A) DEFINE A AS x > 1, )", "INVALID_DEFINE", 1, C + 31),
    (MR + "SKIP TO NEXT ROW PATTERN (A))", "INVALID_SELECTION_STRATEGY", 1, C + 5),
    (MR + "STRICT PATTERN (A))", "INVALID_SELECTION_STRATEGY", 1, C + 7),
    (MR + "SKIP TILL SOME MATCH PATTERN (A))", "INVALID_SELECTION_STRATEGY", 1, C + 10),
    (MR + "AFTER MATCH SKIP TILL NEXT MATCH PATTERN (A))", "INVALID_AFTER_MATCH_SKIP", 1, C + 17),
    (MR + "AFTER MATCH SKIP TO LAST PATTERN (A))", "INVALID_AFTER_MATCH_SKIP", 1, C + 25),
    (MR + "ONE ROW PER PATTERN (A))", "INVALID_ROWS_PER_MATCH", 1, C + 12),
    (MR + "ALL ROWS PER MATCH SHOW MATCHES PATTERN (A))", "INVALID_ROWS_PER_MATCH", 1, C + 24),
    (MR + "PATTERN (A) WITHIN 'x')", "INVALID_WITHIN", 1, C + 19),
    (MR + "PATTERN (A) SUBSET U = A, B)", "INVALID_SUBSET", 1, C + 23),
    (MR + "PATTERN (A) SUBSET U (A, B))", "INVALID_SUBSET", 1, C + 21),
    (MR + "MEASURES FINAL A.x AS y PATTERN (A))", "INVALID_RUNNING_FINAL", 1, C + 9),
    (MR + "MEASURES PREV(A.x, 1, 2) AS y PATTERN (A))", "INVALID_FUNCTION_ARGUMENTS", 1, C + 9),
    (MR + "MEASURES PREV() AS y PATTERN (A))", "INVALID_FUNCTION_ARGUMENTS", 1, C + 9),
    (MR + "MEASURES CLASSIFIER(1) AS c PATTERN (A))", "INVALID_FUNCTION_ARGUMENTS", 1, C + 20),
    (MR + "MEASURES MATCH_NUMBER(A) AS c PATTERN (A))", "INVALID_FUNCTION_ARGUMENTS", 1, C + 22),
    ("SELECT * FROM t WHERE x > 1 MATCH_RECOGNIZE (PATTERN (A))", "MISPLACED_MATCH_RECOGNIZE", 1, 29),
    # plain Spark syntax errors and tokenizer errors
    ("SELECT 'abc FROM t", "UNTERMINATED_STRING_LITERAL", 1, 8),
    ("SELECT `abc FROM t", "UNTERMINATED_QUOTED_IDENTIFIER", 1, 8),
    ("SELECT * FROM t /* unclosed", "UNTERMINATED_COMMENT", 1, 17),
    ("SELECT * FROM t WHERE (a > 1", "PARSE_SYNTAX_ERROR", 1, 29),
    ("SELECT * FROM t WHERE a >", "PARSE_SYNTAX_ERROR", 1, 26),
    ("SELECT * FROM t\nWHERE a > 1)", "PARSE_SYNTAX_ERROR", 2, 12),
    ("SELECT CAST(a AS) FROM t", "PARSE_SYNTAX_ERROR", 1, 17),
    # multi-line: positions are line/column of the offending token
    ("SELECT *\nFROM t MATCH_RECOGNIZE (\n  ORDER BY ts\n  PATTERN (A B+)\n  DEFINE A AS price >\n)",
     "PARSE_SYNTAX_ERROR", 6, 1),
    ("SELECT *\nFROM t\n  MATCH_RECOGNIZE (\n    PATTERN (A\n      {3,1})\n  )", "INVALID_QUANTIFIER_RANGE", 5, 7),
    ("SELECT *\nFROM t MATCH_RECOGNIZE (\n  PATTERN (A)\n  PATTERN (B)\n)", "DUPLICATE_CLAUSE", 4, 3),
    ("SELECT *\nFROM t MATCH_RECOGNIZE (\n\tMEASURES A.x\n  PATTERN (A)\n)", "MISSING_MEASURE_ALIAS", 3, 11),
    # parse_one
    ("", "EMPTY_STATEMENT", 1, 1),
    ("SELECT 1; SELECT 2", "MULTIPLE_STATEMENTS", 1, 11),
]


@pytest.mark.parametrize("sql,code,line,column", CASES)
def test_error_code_and_position(sql, code, line, column):
    with pytest.raises(ParseError) as info:
        dialect.parse_one(sql)
    error = info.value
    assert (error.code, error.line, error.column) == (code, line, column), error.render()
    assert isinstance(error, SparkCepError)
    assert error.message and "sqlglot" not in error.message.lower()
    assert error.code == error.code.upper()


def test_case_table_is_large_enough():
    assert len(CASES) >= 30


@pytest.mark.parametrize("sql,code,line,column", CASES[:10])
def test_sqlglot_entry_point_raises_sparkcep_errors(sql, code, line, column):
    with pytest.raises(ParseError) as info:
        sqlglot.parse_one(sql, read="sparkcep")
    assert info.value.code == code


def test_message_style():
    with pytest.raises(ParseError) as info:
        dialect.parse_one(MR + "PATTERN (A) DEFINE A AS x > 1 B AS y < 2)")
    assert info.value.message == "expected ')' to close MATCH_RECOGNIZE, found 'B'"
    rendered = str(info.value)
    assert rendered.splitlines()[0].startswith("[MATCH_RECOGNIZE_SYNTAX_ERROR]")
    assert rendered.splitlines()[-1].strip() == "^"


@pytest.mark.parametrize("typo,meant", [("PATERN", "PATTERN"), ("MESURES", "MEASURES"),
                                        ("DEFIEN", "DEFINE"), ("PARTITON", "PARTITION")])
def test_a_misspelt_clause_keyword_gets_a_suggestion(typo, meant):
    clauses = {"PARTITION": "PARTITION BY k", "MEASURES": "MEASURES A.x AS x",
               "PATTERN": "PATTERN (A)", "DEFINE": "DEFINE A AS A.x > 1"}
    text = " ".join(clause.replace(meant, typo, 1) if name == meant else clause
                    for name, clause in clauses.items())
    with pytest.raises(ParseError) as info:
        dialect.parse_one(f"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts {text})")
    assert info.value.message.endswith(f"found '{typo}'; did you mean {meant}?")
    assert text.index(typo) + len("SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts ") + 1 \
        == info.value.column


def test_a_word_far_from_every_keyword_gets_no_suggestion():
    with pytest.raises(ParseError) as info:
        dialect.parse_one(MR + "PATTERN (A) DEFINE A AS x > 1 banana)")
    assert info.value.message == "expected ')' to close MATCH_RECOGNIZE, found 'banana'"


def test_errors_in_every_statement_of_a_script():
    with pytest.raises(ParseError) as info:
        dialect.parse("SELECT 1;\nSELECT * FROM t MATCH_RECOGNIZE (PATTERN (A{2,1}))")
    assert (info.value.code, info.value.line, info.value.column) == ("INVALID_QUANTIFIER_RANGE", 2, 44)
