"""Stage 1, parsing: the sparkcep SQL dialect for sqlglot, Spark SQL + MATCH_RECOGNIZE (+ CEP
extensions), every node with its source span. Kept in the top-level ``dialect/`` folder and
installed as ``sparkcep.dialect``; importing it registers the ``"sparkcep"`` dialect with sqlglot.

May import: ``sparkcep.errors`` and sqlglot (no pyspark).

Public API:

* :class:`SparkCep` -- the sqlglot dialect class.
* :func:`parse` / :func:`parse_one` -- parse SQL text, raising :class:`sparkcep.errors.ParseError`.
* :func:`parse_expression` -- one expression as inside MEASURES / DEFINE.
* :func:`parse_pattern` -- a PATTERN text (what goes between PATTERN's parentheses).
* :func:`span` / :func:`find_span` -- a node's ``(start, end)`` in the parsed text.
* :func:`contains_match_recognize` -- fast token check.
* :func:`generate` / :func:`pattern_sql` -- SQL text for a tree / a pattern.

Module layout: ``expressions`` (AST classes), ``dialect`` (the dialect class), ``parser``,
``pattern_parser``, ``generator``, ``spans``, ``errors_map`` (sqlglot errors -> ParseError).
"""

from __future__ import annotations

import re

from sqlglot import exp
from sqlglot.errors import ParseError as SqlglotParseError
from sqlglot.tokens import TokenType

from sparkcep.dialect.dialect import SparkCep
from sparkcep.dialect.errors_map import convert_parse_error
from sparkcep.dialect.generator import pattern_sql
from sparkcep.dialect.pattern_parser import parse_pattern
from sparkcep.dialect.spans import NoSpanError, find_span, has_span, span
from sparkcep.errors import ParseError

__all__ = [
    "ParseError",
    "SparkCep",
    "parse",
    "parse_one",
    "parse_expression",
    "parse_pattern",
    "span",
    "find_span",
    "has_span",
    "NoSpanError",
    "contains_match_recognize",
    "generate",
    "pattern_sql",
]

_DIALECT = SparkCep()
_WORD = re.compile(r"match_recognize|pattern", re.IGNORECASE)


def parse(sql: str) -> list[exp.Expression]:
    """All statements of ``sql`` (empty statements dropped)."""
    return [s for s in _DIALECT.parse(sql) if s is not None]


def parse_one(sql: str) -> exp.Expression:
    """Exactly one statement; raises ParseError (``EMPTY_STATEMENT``/``MULTIPLE_STATEMENTS``)
    otherwise."""
    statements = parse(sql)
    if not statements:
        raise ParseError.at_offset("EMPTY_STATEMENT", "no SQL statement to parse", sql, 0)
    if len(statements) > 1:
        second = find_span(statements[1])
        offset = second[0] if second else 0
        raise ParseError.at_offset(
            "MULTIPLE_STATEMENTS", "expected one statement, found several", sql, offset
        )
    return statements[0]


def parse_expression(sql: str) -> exp.Expression:
    """One expression, parsed as inside MEASURES / DEFINE (RUNNING/FINAL, PREV, CLASSIFIER...)."""
    tokens = _DIALECT.tokenize(sql)
    parser = _DIALECT.parser()
    try:
        result = parser.parse_mr_expression(tokens, sql)
    except SqlglotParseError as error:
        raise convert_parse_error(error, sql) from None
    if result is None:
        raise ParseError.at_offset("PARSE_SYNTAX_ERROR", "expected an expression", sql, 0)
    return result


def contains_match_recognize(sql: str) -> bool:
    """Whether ``sql`` has a MATCH_RECOGNIZE keyword token (not in a string, quoted identifier
    or comment). If the text cannot be tokenized, falls back to a plain text search (so that the
    statement goes through the parser and gets a proper error)."""
    if not _WORD.search(sql):
        return False
    try:
        tokens = _DIALECT.tokenize(sql)
    except ParseError:
        return True
    if any(tok.token_type == TokenType.MATCH_RECOGNIZE for tok in tokens):
        return True
    # row pattern recognition in a window (SQL:2016 R020): OVER/WINDOW and a PATTERN ( clause
    windowed = any(tok.token_type in (TokenType.OVER, TokenType.WINDOW) for tok in tokens)
    return windowed and any(
        tok.token_type not in (TokenType.STRING, TokenType.IDENTIFIER) and tok.text.upper() == "PATTERN"
        and nxt.token_type == TokenType.L_PAREN
        for tok, nxt in zip(tokens, tokens[1:]))


def generate(node: exp.Expression, pretty: bool = False) -> str:
    """SQL text of ``node`` in the sparkcep dialect."""
    return _DIALECT.generate(node, pretty=pretty)
