"""A sqlglot dialect for Superset: Spark SQL with sparkcep's MATCH_RECOGNIZE clause kept verbatim.

Superset parses every SQL Lab statement and every virtual dataset with sqlglot (engine ``hive``:
sqlglot's Hive dialect), then sends sqlglot's *regenerated* text, not yours. sqlglot's Hive and
Spark dialects do not know MATCH_RECOGNIZE (``FROM ticks MATCH_RECOGNIZE (`` reads as a table
alias with a column list, so Superset answers "Error parsing near ..."), and the generic
MATCH_RECOGNIZE of other sqlglot dialects knows neither sparkcep's extensions (WITHIN, SKIP TILL
NEXT MATCH, negation, ...) nor all of SQL:2016.

This dialect is sqlglot's Spark dialect plus two rules: after ``MATCH_RECOGNIZE`` the text up to
the balanced closing parenthesis is kept as one opaque node and written back exactly as typed;
the table or subquery before it, the optional alias after it and the rest of the statement are
ordinary Spark SQL to Superset (tables, limits, subqueries, row-level security). Likewise a
named window of the WINDOW clause whose specification has row pattern recognition (SQL:2016
R020: ``WINDOW w AS (PARTITION BY ... ORDER BY ... MEASURES ... PATTERN (...) DEFINE ...)``, its
measures read as ``m OVER w``): its specification is kept as typed, the rest of the statement
is parsed as usual. sparkcep on the server then checks and compiles the clause.

It imports nothing but sqlglot (Superset 6.1 pins sqlglot 28; sparkcep uses 30: both work), so it
lives beside ``superset_config.py``, which registers it::

    from sparkcep_sqlglot import SparkCepPassthrough
    SQLGLOT_DIALECTS_EXTENSIONS = {"hive": SparkCepPassthrough}
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.dialects.spark import Spark
from sqlglot.tokens import TokenType


class OpaqueMatchRecognize(exp.Expression):
    """``MATCH_RECOGNIZE (<body>) [AS] [alias]`` with ``body`` the text as typed."""

    # not "alias": sqlglot's Spark generator would move a pivot's alias onto a wrapping subquery
    arg_types = {"this": True, "match_alias": False}


class OpaqueWindowSpecification(exp.Expression):
    """``name AS (<body>)`` in a WINDOW clause, ``body`` a window specification with row pattern
    recognition (SQL:2016 R020: ``MEASURES``, ``PATTERN``, ``DEFINE``) as typed."""

    arg_types = {"this": True, "body": True}


def _opaque_window_sql(generator, expression: OpaqueWindowSpecification) -> str:
    return f"{generator.sql(expression, 'this')} AS ({expression.args['body'].name})"


def _opaque_sql(generator, expression: OpaqueMatchRecognize) -> str:
    alias = generator.sql(expression, "match_alias")
    return generator.seg(f"MATCH_RECOGNIZE ({expression.this.name})" + (f" {alias}" if alias else ""))


class SparkCepPassthrough(Spark):
    class Tokenizer(Spark.Tokenizer):
        KEYWORDS = {**Spark.Tokenizer.KEYWORDS, "MATCH_RECOGNIZE": TokenType.MATCH_RECOGNIZE}

    class Parser(Spark.Parser):
        # The clause is stored among the pivots of the table or subquery it follows: sqlglot
        # writes those right after it (before any join), and its scopes keep the table a source
        # (Superset's table list and access checks see it).
        def _parse_pivots(self):
            if self._curr and self._curr.token_type == TokenType.MATCH_RECOGNIZE:
                return [self._parse_match_recognize()]
            return super()._parse_pivots()

        def _parse_column(self):
            # a measure of a window with row pattern recognition: ``m OVER w`` (a name, no call)
            this = super()._parse_column()
            if isinstance(this, exp.Column) and self._curr and self._curr.token_type == TokenType.OVER:
                return self._parse_window(this)
            return this

        def _parse_named_window(self):
            start = self._index
            name = self._parse_id_var()
            if name is not None and self._match(TokenType.ALIAS) and self._match(TokenType.L_PAREN):
                body = self._balanced_text(self._prev, "a window specification", row_pattern=True)
                if body is not None:
                    return OpaqueWindowSpecification(this=name, body=exp.var(body))
            self._retreat(start)
            return super()._parse_named_window()

        def _balanced_text(self, opening, what: str, row_pattern: bool = False):
            """The text after ``opening`` (a "(" just matched) up to its balanced ")", which is
            consumed. With ``row_pattern``: None, and nothing consumed, unless a ``PATTERN (``
            stands at the top level of that text (row pattern recognition in a window)."""
            start, depth, pattern = self._index, 1, False
            while self._curr:
                kind = self._curr.token_type
                if (depth == 1 and self._curr.text.upper() == "PATTERN" and self._next
                        and self._next.token_type == TokenType.L_PAREN):
                    pattern = True
                depth += kind == TokenType.L_PAREN
                depth -= kind == TokenType.R_PAREN
                if depth == 0:
                    break
                self._advance()
            if row_pattern and not pattern:
                self._retreat(start)
                return None
            if depth:
                self.raise_error(f"Expecting ) to close {what}")
            body = self.sql[opening.end + 1 : self._curr.start]  # as typed, blanks and comments too
            self._advance()  # the closing parenthesis
            return body

        def _parse_match_recognize(self):
            if not self._match(TokenType.MATCH_RECOGNIZE):
                return None
            if not self._match(TokenType.L_PAREN):
                self.raise_error("Expecting ( after MATCH_RECOGNIZE")
            body = self._balanced_text(self._prev, "MATCH_RECOGNIZE (")
            # built directly: Parser.expression() changed its signature between sqlglot 28 and 30
            return OpaqueMatchRecognize(this=exp.var(body), match_alias=self._parse_table_alias())

    class Generator(Spark.Generator):
        TRANSFORMS = {**Spark.Generator.TRANSFORMS, OpaqueMatchRecognize: _opaque_sql,
                      OpaqueWindowSpecification: _opaque_window_sql}
