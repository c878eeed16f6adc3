"""The ``SparkCep`` sqlglot dialect: Spark SQL plus MATCH_RECOGNIZE (registered as
``"sparkcep"``, so ``sqlglot.parse_one(sql, read="sparkcep")`` works once :mod:`dialect` is
imported).

Differences from ``Spark``:

* the tokenizer maps ``MATCH_RECOGNIZE`` to ``TokenType.MATCH_RECOGNIZE`` (so it cannot be used
  as an unquoted identifier) and reports an unclosed ``/*`` comment;
* the parser (:mod:`dialect.parser`) attaches ``MatchRecognize`` to table references and
  records source spans (:mod:`dialect.spans`);
* the generator (:mod:`dialect.generator`) prints the new nodes;
* ``SparkCep().parse`` / ``parse_into`` / ``tokenize`` raise :class:`sparkcep.errors.ParseError`
  instead of sqlglot's ``ParseError`` / ``TokenError``.
"""

from __future__ import annotations

import typing as t

from sqlglot.dialects.spark import Spark
from sqlglot.errors import ParseError as SqlglotParseError
from sqlglot.errors import TokenError
from sqlglot.tokens import TokenType

from sparkcep.dialect.errors_map import convert_parse_error, convert_token_error
from sparkcep.dialect.generator import SparkCepGenerator
from sparkcep.dialect.parser import SparkCepParser


def _check_unclosed_comment(sql: str, pos: int) -> None:
    """sqlglot lets an unclosed ``/*`` run to the end of the text; Spark rejects it. Such a
    comment can only start after the last token."""
    size = len(sql)
    while pos < size:
        if sql[pos].isspace():
            pos += 1
        elif sql.startswith("--", pos):
            nl = sql.find("\n", pos)
            pos = size if nl < 0 else nl + 1
        elif sql.startswith("/*", pos):
            depth, i = 1, pos + 2
            while i < size and depth:
                if sql.startswith("*/", i):
                    depth -= 1
                    i += 2
                elif sql.startswith("/*", i):
                    depth += 1
                    i += 2
                else:
                    i += 1
            if depth:
                error = TokenError("comment '/*' is never closed")
                error.cep_offset = pos  # type: ignore[attr-defined]
                raise error
            pos = i
        else:
            return


class SparkCep(Spark):
    class Tokenizer(Spark.Tokenizer):
        KEYWORDS = {
            **Spark.Tokenizer.KEYWORDS,
            "MATCH_RECOGNIZE": TokenType.MATCH_RECOGNIZE,
        }

        def tokenize(self, sql: str) -> list:
            try:
                tokens = super().tokenize(sql)
            except TokenError as error:
                if getattr(error, "cep_offset", None) is None:
                    core = getattr(self, "_core", self)
                    error.cep_offset = getattr(core, "_start", None)  # type: ignore[attr-defined]
                raise
            _check_unclosed_comment(sql, tokens[-1].end + 1 if tokens else 0)
            return tokens

    Parser = SparkCepParser

    Generator = SparkCepGenerator

    def parse(self, sql: str, **opts: t.Any) -> list:
        try:
            return super().parse(sql, **opts)
        except SqlglotParseError as error:
            raise convert_parse_error(error, sql) from None
        except TokenError as error:
            raise convert_token_error(error, sql) from None

    def parse_into(self, expression_type: t.Any, sql: str, **opts: t.Any) -> list:
        try:
            return super().parse_into(expression_type, sql, **opts)
        except SqlglotParseError as error:
            raise convert_parse_error(error, sql) from None
        except TokenError as error:
            raise convert_token_error(error, sql) from None

    def tokenize(self, sql: str, dialect: t.Any = None) -> list:
        try:
            return super().tokenize(sql, dialect=dialect)
        except TokenError as error:
            raise convert_token_error(error, sql) from None
