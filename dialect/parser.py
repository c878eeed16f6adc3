"""The sparkcep parser: Spark's parser plus MATCH_RECOGNIZE on table references.

AST produced inside ``MATCH_RECOGNIZE ( ... )`` (classes in :mod:`dialect.expressions`):

* ``MatchRecognize(this=<input relation>, partition_by=[expr], order=exp.Order,
  measures=[Measure], rows_per_match=RowsPerMatch, after_match_skip=AfterMatchSkip,
  strategy=SelectionStrategy, pattern=RowPattern, within=Within,
  uncertain_time=UncertainTime, minimum_confidence=MinimumConfidence,
  subsets=[SubsetDefinition], define=[VariableDefinition], alias=exp.TableAlias)``. It replaces
  the table reference in the FROM / JOIN tree (``exp.From.this``, ``exp.Join.this``), so joins
  stay outside it. sqlglot's own SELECT-modifier ``exp.MatchRecognize`` is never produced.
* In MEASURES and DEFINE expressions (and only there):

  - ``PREV(x[, n])``, ``NEXT(x[, n])``, ``FIRST(x[, n])``, ``LAST(x[, n])`` ->
    ``Navigation(this=x, kind="PREV"|"NEXT"|"FIRST"|"LAST", offset=n or None)``. (Spark's
    ``FIRST``/``LAST`` aggregates would silently drop the offset; outside MATCH_RECOGNIZE
    they keep their Spark meaning.)
  - ``CLASSIFIER()`` / ``CLASSIFIER(v)`` -> ``Classifier(this=None | exp.Identifier)``.
  - ``MATCH_NUMBER()`` -> ``MatchNumber()``; ``MATCH_STATUS()`` -> ``MatchStatus()``.
  - ``CONFIDENCE()``, ``MATCH_EARLIEST_START()``, ``MATCH_LATEST_START()``,
    ``MATCH_EARLIEST_END()``, ``MATCH_LATEST_END()`` ->
    ``UncertainMatchFunction(this=<name>)`` (imprecise timestamps).
  - ``RUNNING call`` / ``FINAL call`` -> ``RunningFinal(this=call, final=False|True)``; a call
    without the keyword is not wrapped.
  - ``COUNT(*)`` -> ``exp.Count(this=exp.Star())``; ``COUNT(A.*)`` ->
    ``exp.Count(this=exp.Column(this=exp.Star(), table=Identifier("A")))`` (sqlglot's shape);
    ``A.price`` -> ``exp.Column(this=price, table=A)``.
* PATTERN -> ``RowPattern`` tree (see :mod:`dialect.pattern_parser`).

Clauses may come in any order; a repeated clause is ``DUPLICATE_CLAUSE``. Errors are raised as
:class:`SignalError` (a sqlglot ``ParseError`` so sqlglot's backtracking still works) carrying
the :class:`sparkcep.errors.ParseError`; :mod:`dialect.errors_map` converts everything.

Spans: see :mod:`dialect.spans`.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.dialects.spark import Spark
from sqlglot.errors import ParseError as SqlglotParseError
from sqlglot.helper import seq_get
from sqlglot.tokens import Token, TokenType

from sparkcep.dialect import expressions as cx
from sparkcep.dialect.pattern_parser import parse_pattern_at
from sparkcep.dialect.spans import RANGE_KEY, finalize_spans, record
from sparkcep.errors import ParseError as CepParseError

NAVIGATION = frozenset({"PREV", "NEXT", "FIRST", "LAST"})
UNCERTAIN_MATCH_FUNCTIONS = frozenset({
    "CONFIDENCE", "MATCH_EARLIEST_START", "MATCH_LATEST_START", "MATCH_EARLIEST_END", "MATCH_LATEST_END",
})
SPECIAL_CALLS = NAVIGATION | {"CLASSIFIER", "MATCH_NUMBER", "MATCH_STATUS"} | UNCERTAIN_MATCH_FUNCTIONS

CLAUSE_NAMES = {
    "PARTITION_BY": "PARTITION BY",
    "ORDER_BY": "ORDER BY",
    "MEASURES": "MEASURES",
    "ROWS_PER_MATCH": "ROWS PER MATCH",
    "AFTER_MATCH_SKIP": "AFTER MATCH SKIP",
    "STRATEGY": "event selection strategy",
    "PATTERN": "PATTERN",
    "WITHIN": "WITHIN",
    "UNCERTAIN_TIME": "UNCERTAIN TIME",
    "MINIMUM_CONFIDENCE": "MINIMUM CONFIDENCE",
    "SUBSET": "SUBSET",
    "DEFINE": "DEFINE",
}



#: the words that start a clause of MATCH_RECOGNIZE (for "did you mean" after a misspelling)
CLAUSE_KEYWORDS = ("PARTITION", "ORDER", "MEASURES", "ONE", "ALL", "ROWS", "AFTER", "PATTERN",
                   "SUBSET", "DEFINE", "WITHIN", "SKIP", "UNCERTAIN", "MINIMUM")

class SignalError(SqlglotParseError):
    """A sqlglot ParseError that carries a sparkcep ParseError (``.cep``)."""

    def __init__(self, cep: CepParseError) -> None:
        super().__init__(
            str(cep),
            errors=[
                {
                    "description": cep.message,
                    "line": cep.line,
                    "col": cep.column,
                    "start_context": "",
                    "highlight": "",
                    "end_context": "",
                    "into_expression": None,
                    "cep": cep,
                }
            ],
        )
        self.cep = cep


def token_text(sql: str, tok: Token | None) -> str:
    if not tok or tok.token_type == TokenType.SENTINEL:
        return "end of input"
    return f"'{sql[tok.start : tok.end + 1]}'"


def _build_date_trunc(args: list) -> exp.Expr:
    """``date_trunc(unit, x)``. sqlglot's Spark builder keeps only the unit's name (``'Q'`` as
    QUARTER), so a unit read from a column (``date_trunc(B.unit, B.ts)``, which Spark evaluates
    per row) would lose its reference: such a call stays an anonymous function of its arguments
    as written."""
    unit = seq_get(args, 0)
    if len(args) == 2 and isinstance(unit, exp.Literal) and unit.is_string:
        return Spark.Parser.FUNCTIONS["DATE_TRUNC"](args)
    return exp.Anonymous(this="date_trunc", expressions=args)


def _build_trunc(args: list) -> exp.Expr:
    """``trunc(date, unit)`` as written. sqlglot's Spark builder normalizes a literal unit
    (``'q'`` becomes ``'QUARTER'``, which Spark does not accept: NULL) and turns an unqualified
    column unit into a string literal of its name."""
    return exp.Anonymous(this="trunc", expressions=args)


def _build_named_struct(args: list) -> exp.Expr:
    """``named_struct(name, value, ...)``. sqlglot's builder keeps only each name's text, so a
    name that is not a string literal (a column, an IF) would vanish from the tree with its
    references: such a call stays an anonymous function of its arguments as written (Spark
    requires the names to be constants, and says so)."""
    names = args[0::2]
    if len(args) % 2 == 0 and all(isinstance(n, exp.Literal) and n.is_string for n in names):
        return Spark.Parser.FUNCTIONS["NAMED_STRUCT"](args)
    return exp.Anonymous(this="named_struct", expressions=args)


class SparkCepParser(Spark.Parser):
    # builders of sqlglot's Spark dialect that drop an argument's references (see each)
    FUNCTIONS = {**Spark.Parser.FUNCTIONS, "DATE_TRUNC": _build_date_trunc, "TRUNC": _build_trunc,
                 "NAMED_STRUCT": _build_named_struct}

    QUERY_MODIFIER_PARSERS = {
        k: v for k, v in Spark.Parser.QUERY_MODIFIER_PARSERS.items() if k != TokenType.MATCH_RECOGNIZE
    }

    def __init__(self, *args: t.Any, **kwargs: t.Any) -> None:
        super().__init__(*args, **kwargs)
        self._cep_ctx = 0
        self._cep_errors: list[CepParseError] = []

    def reset(self) -> None:
        super().reset()
        self._cep_ctx = 0
        self._cep_errors = []

    # ------------------------------------------------------------------------------------
    # entry points: finalize spans
    # ------------------------------------------------------------------------------------
    def parse(self, raw_tokens: list[Token], sql: str) -> list[exp.Expr | None]:
        statements = super().parse(raw_tokens, sql)
        for statement in statements:
            if statement is not None:
                finalize_spans(statement)
        return statements

    def parse_into(self, expression_types: t.Any, raw_tokens: list[Token], sql: str | None = None):
        statements = super().parse_into(expression_types, raw_tokens, sql)
        for statement in statements:
            if statement is not None:
                finalize_spans(statement)
        return statements

    def parse_mr_expression(self, raw_tokens: list[Token], sql: str) -> exp.Expr | None:
        """Parse one expression as if inside MEASURES/DEFINE (RUNNING/FINAL, PREV, ...)."""

        def method(parser: SparkCepParser) -> exp.Expr | None:
            parser._cep_ctx += 1
            try:
                return parser._parse_assignment()
            finally:
                parser._cep_ctx -= 1

        result = self._parse(method, raw_tokens, sql)[0]
        if result is not None:
            finalize_spans(result)
        return result

    def expression(self, instance: t.Any, token: Token | None = None, comments: list[str] | None = None) -> t.Any:
        result = super().expression(instance, token, comments)
        if type(result) is exp.Interval:
            unit = result.args.get("unit")
            prev = self._prev
            if isinstance(unit, exp.Var) and not unit._meta and prev and prev.text.upper() == unit.name.upper():
                record(unit, prev.start, prev.end + 1)
        if type(result) is exp.If and self._prev and self._prev.token_type != TokenType.R_PAREN:
            # CASE ... WHEN cond THEN value: the If spans 'WHEN cond THEN value'
            cond = result.this
            rng = cond._meta.get(RANGE_KEY) if isinstance(cond, exp.Expr) and cond._meta else None
            if rng is not None:
                idx = self._index - 1
                while idx > 0 and self._tokens[idx].start > rng[0]:
                    idx -= 1
                if idx > 0 and self._tokens[idx - 1].token_type == TokenType.WHEN:
                    record(result, self._tokens[idx - 1].start, self._prev.end + 1)
        return result

    def _values_to_select(self, values: exp.Values) -> exp.Select:
        # sqlglot wraps a CTE's VALUES body in a synthesized ``SELECT *``: the nodes it builds
        # carry positions of its own parse of "*" (offset 0), not of the user's text. Only the
        # VALUES itself has source text.
        select = super()._values_to_select(values)
        inside = {id(node) for node in values.walk()}
        for node in select.walk():
            if id(node) not in inside and node._meta:
                node._meta.pop("start", None)
                node._meta.pop("end", None)
        return select

    # ------------------------------------------------------------------------------------
    # errors
    # ------------------------------------------------------------------------------------
    def _cep_fail(self, code: str, message: str, tok: Token | int | None = None, length: int | None = None) -> t.NoReturn:
        if tok is None:
            tok = self._curr if self._curr else None
        if isinstance(tok, Token) and tok.token_type != TokenType.SENTINEL:
            offset, n = tok.start, tok.end - tok.start + 1
        elif isinstance(tok, int):
            offset, n = tok, 1
        else:  # end of input
            offset = self._prev.end + 1 if self._prev else len(self.sql)
            n = 1
        err = CepParseError.at_offset(code, message, self.sql, offset, length or n)
        self._cep_errors.append(err)
        raise SignalError(err)

    def _cep_did_you_mean(self) -> str:
        """"; did you mean PATTERN?" when the word found is a misspelt clause keyword."""
        import difflib

        if self._curr is None or self._curr.token_type == TokenType.SENTINEL:
            return ""
        word = self.sql[self._curr.start:self._curr.end + 1].upper()
        if not word.isalpha() or word in CLAUSE_KEYWORDS:
            return ""
        close = difflib.get_close_matches(word, CLAUSE_KEYWORDS, n=1, cutoff=0.75)
        return f"; did you mean {close[0]}?" if close else ""

    def _found(self, tok: Token | None = None) -> str:
        return token_text(self.sql, self._curr if tok is None else tok)

    def raise_error(self, message: str, token: Token | None = None) -> None:
        tok = token or (self._curr if self._curr else None)
        if tok is not None and tok.token_type != TokenType.SENTINEL:
            info = {"offset": tok.start, "length": tok.end - tok.start + 1, "found": self._found(tok),
                    "token_type": tok.token_type}
        else:
            end = self._prev.end + 1 if self._prev else len(self.sql)
            info = {"offset": end, "length": 1, "found": "end of input", "token_type": None}
        before = len(self.errors)
        try:
            if token:
                super().raise_error(message, token)
            else:
                super().raise_error(message)
        except SqlglotParseError as e:
            e.errors[0]["cep_info"] = info
            raise
        if len(self.errors) > before:
            self.errors[-1].errors[0]["cep_info"] = info

    # ------------------------------------------------------------------------------------
    # helpers
    # ------------------------------------------------------------------------------------
    def _cep_record_from(self, node: exp.Expr, start_index: int) -> exp.Expr:
        if self._index > start_index:
            record(node, self._tokens[start_index].start, self._tokens[self._index - 1].end + 1)
        return node

    def _cep_word(self, offset: int = 0) -> str:
        idx = self._index + offset
        if idx < self._tokens_size:
            tok = self._tokens[idx]
            if tok.token_type in (TokenType.STRING, TokenType.IDENTIFIER):
                return ""
            return tok.text.upper()
        return ""

    def _cep_tok(self, offset: int = 0) -> Token | None:
        idx = self._index + offset
        return self._tokens[idx] if idx < self._tokens_size else None

    def _cep_clause(self, strict: bool) -> str | None:
        """Which MATCH_RECOGNIZE clause starts at the current token (None if none).

        ``strict`` requires the clause's second word too (used to tell a clause keyword from
        an identifier, e.g. an alias named ``skip``)."""
        tt = self._curr.token_type
        if tt == TokenType.PARTITION_BY:
            return "PARTITION_BY"
        if tt == TokenType.ORDER_BY:
            return "ORDER_BY"
        w0, w1 = self._cep_word(), self._cep_word(1)
        if w0 in ("MEASURES", "SUBSET", "DEFINE", "WITHIN"):
            if strict and w0 == "WITHIN":
                nxt = self._cep_tok(1)
                if not nxt or nxt.token_type not in (TokenType.INTERVAL, TokenType.NUMBER):
                    return None
            if strict and w0 in ("SUBSET", "DEFINE"):
                # DEFINE <var> AS ... / SUBSET <name> = ...
                after = self._cep_tok(2)
                want = TokenType.ALIAS if w0 == "DEFINE" else TokenType.EQ
                if not after or after.token_type != want:
                    return None
            if strict and w0 == "MEASURES":
                nxt = self._cep_tok(1)
                if not nxt or nxt.token_type in (TokenType.COMMA, TokenType.R_PAREN, TokenType.DOT, TokenType.ALIAS):
                    return None
                if self._cep_word(1) in ("PATTERN", "DEFINE", "SUBSET", "WITHIN", "ONE", "ALL", "AFTER",
                                         "STRICT", "SKIP", "UNCERTAIN", "MINIMUM"):
                    return None
            return w0
        if w0 == "UNCERTAIN" and (not strict or w1 == "TIME"):
            return "UNCERTAIN_TIME"
        if w0 == "MINIMUM" and (not strict or w1 == "CONFIDENCE"):
            return "MINIMUM_CONFIDENCE"
        if w0 == "PATTERN" and (not strict or w1 == "("):
            return "PATTERN"
        if (w0 == "ONE" and (not strict or w1 == "ROW")) or (w0 == "ALL" and (not strict or w1 == "ROWS")):
            return "ROWS_PER_MATCH"
        if w0 == "AFTER" and (not strict or w1 == "MATCH"):
            return "AFTER_MATCH_SKIP"
        if (w0 == "STRICT" and (not strict or w1 == "CONTIGUITY")) or (w0 == "SKIP" and (not strict or w1 == "TILL")):
            return "STRATEGY"
        return None

    def _cep_expect_words(self, words: t.Sequence[str], code: str, what: str) -> None:
        for word in words:
            if self._cep_word() == word:
                self._advance()
            else:
                self._cep_fail(code, f"expected '{word}' in {what}, found {self._found()}")

    # ------------------------------------------------------------------------------------
    # table references
    # ------------------------------------------------------------------------------------
    def _parse_table(self, *args: t.Any, **kwargs: t.Any) -> exp.Expr | None:
        start_index = self._index
        this = super()._parse_table(*args, **kwargs)
        if kwargs.get("schema") or kwargs.get("is_db_reference"):
            return this
        if isinstance(this, exp.Table) and not this.args.get("alias") and any(
            isinstance(hint, exp.WithTableHint) and hint.meta.get("spark_options")
            for hint in this.args.get("hints") or []
        ):
            # Spark: <table> [temporal] WITH (options) [TABLESAMPLE (...)] [alias]
            if not this.args.get("sample"):
                this.set("sample", self._parse_table_sample())
            alias = self._parse_table_alias(alias_tokens=self.TABLE_ALIAS_TOKENS)
            if alias:
                this.set("alias", alias)
        if this is not None and self._cep_watermark_follows():
            this = self._cep_parse_watermark(this, start_index)
        while this is not None and self._curr.token_type == TokenType.MATCH_RECOGNIZE:
            self._cep_record_from(this, start_index)
            this = self._cep_parse_match_recognize(this, start_index)
        return this

    def _cep_watermark_follows(self) -> bool:
        """Does ``WATERMARK <column> ... DELAY OF`` (Spark 4.3, streaming relations) start here?"""
        if self._curr is None or self._cep_word() != "WATERMARK":
            return False
        for offset in range(2, 8):  # the column may be qualified: a.b.ts
            if self._cep_word(offset) == "DELAY" and self._cep_word(offset + 1) == "OF":
                return True
        return False

    def _parse_table_alias(self, *args: t.Any, **kwargs: t.Any) -> exp.Expr | None:
        if self._cep_watermark_follows():
            return None  # WATERMARK is the watermark clause here, not an alias
        return super()._parse_table_alias(*args, **kwargs)

    def _cep_parse_watermark(self, this: exp.Expr, start_index: int) -> exp.Expr:
        """``<relation> WATERMARK <column> DELAY OF <interval> [[AS] alias]``."""
        self._advance()  # WATERMARK
        column = self._parse_column()
        self._cep_expect_words(("DELAY", "OF"), "PARSE_SYNTAX_ERROR", "the WATERMARK clause")
        delay = self._parse_bitwise()
        if column is None or delay is None:
            self._cep_fail("PARSE_SYNTAX_ERROR",
                           f"expected WATERMARK <column> DELAY OF <interval>, found {self._found()}")
        node = cx.StreamWatermark(this=this, column=column, delay=delay)
        alias = super()._parse_table_alias(alias_tokens=self.TABLE_ALIAS_TOKENS)
        if alias:
            node.set("alias", alias)
        return self._cep_record_from(node, start_index)

    def _parse_table_hints(self) -> list[exp.Expr] | None:
        # Spark's read options on a table: t WITH ('key' [=] value, ...) (sqlglot reads WITH (
        # after a table as a T-SQL hint list). Kept as written: the rewrite splices the text.
        if self._curr and self._curr.token_type == TokenType.WITH and self._next \
                and self._next.token_type == TokenType.L_PAREN:
            start = self._index
            self._advance(2)
            options = self._parse_csv(self._cep_table_option)
            if options and all(options) and self._match(TokenType.R_PAREN):
                node = exp.WithTableHint(expressions=options)
                node.meta["spark_options"] = True
                record(node, self._tokens[start].start, self._prev.end + 1)
                return [node]
            self._retreat(start)
        return super()._parse_table_hints()

    def _cep_table_option(self) -> exp.Expr | None:
        """``key [=] value`` of Spark's option list: a key is a string or dotted identifiers."""
        start = self._index
        key: exp.Expr | None = self._parse_string()
        if key is None:
            parts = [self._parse_id_var(any_token=False)]
            while parts[-1] is not None and self._match(TokenType.DOT):
                parts.append(self._parse_id_var(any_token=True))
            if any(part is None for part in parts):
                self._retreat(start)
                return None
            key = exp.Var(this=".".join(part.name for part in parts))
        self._match(TokenType.EQ)
        value = self._parse_unary()
        if value is None:
            self._retreat(start)
            return None
        return self._cep_record_from(exp.Property(this=key, value=value), start)

    def _cep_parse_match_recognize(self, this: exp.Expr, start_index: int) -> cx.MatchRecognize:
        mr_token = self._curr
        self._advance()
        if not self._match(TokenType.L_PAREN):
            self._cep_fail(
                "MATCH_RECOGNIZE_SYNTAX_ERROR", f"expected '(' after MATCH_RECOGNIZE, found {self._found()}"
            )
        open_paren = self._prev
        args: dict[str, t.Any] = {}
        seen: dict[str, Token] = {}
        parsers = {
            "PARTITION_BY": self._cep_parse_partition_by,
            "ORDER_BY": self._cep_parse_order_by,
            "MEASURES": self._cep_parse_measures,
            "ROWS_PER_MATCH": self._cep_parse_rows_per_match,
            "AFTER_MATCH_SKIP": self._cep_parse_after_match_skip,
            "STRATEGY": self._cep_parse_strategy,
            "PATTERN": self._cep_parse_pattern,
            "WITHIN": self._cep_parse_within,
            "UNCERTAIN_TIME": self._cep_parse_uncertain_time,
            "MINIMUM_CONFIDENCE": self._cep_parse_minimum_confidence,
            "SUBSET": self._cep_parse_subset,
            "DEFINE": self._cep_parse_define,
        }
        while not self._match(TokenType.R_PAREN):
            if not self._curr:
                self._cep_fail(
                    "MATCH_RECOGNIZE_SYNTAX_ERROR",
                    "'(' after MATCH_RECOGNIZE is never closed with ')'",
                    open_paren,
                )
            clause = self._cep_clause(strict=False)
            if clause is None:
                if seen:
                    msg = f"expected ')' to close MATCH_RECOGNIZE, found {self._found()}"
                else:
                    msg = (
                        "expected a MATCH_RECOGNIZE clause (PARTITION BY, ORDER BY, MEASURES, "
                        f"ROWS PER MATCH, AFTER MATCH SKIP, PATTERN, DEFINE, ...), found {self._found()}"
                    )
                self._cep_fail("MATCH_RECOGNIZE_SYNTAX_ERROR", msg + self._cep_did_you_mean())
            if clause in seen:
                first = seen[clause]
                line = self.sql.count("\n", 0, first.start) + 1
                col = first.start - (self.sql.rfind("\n", 0, first.start) + 1) + 1
                self._cep_fail(
                    "DUPLICATE_CLAUSE",
                    f"duplicate {CLAUSE_NAMES[clause]} clause in MATCH_RECOGNIZE "
                    f"(first one at line {line}, column {col})",
                )
            seen[clause] = self._curr
            key, value = parsers[clause]()
            args[key] = value

        close_paren = self._prev
        if "pattern" not in args:
            self._cep_fail(
                "MISSING_PATTERN",
                "MATCH_RECOGNIZE requires a PATTERN clause",
                mr_token,
            )
        # A clause keyword right after ')' means the clause was closed too early; ORDER BY is
        # exempt: after the table reference it is the enclosing query's ORDER BY.
        if self._cep_clause(strict=True) not in (None, "ORDER_BY"):
            self._cep_fail(
                "MATCH_RECOGNIZE_SYNTAX_ERROR",
                f"')' closes MATCH_RECOGNIZE before the clause {self._found()}; "
                "check the parentheses",
                close_paren,
            )
        alias = self._parse_table_alias()
        node = cx.MatchRecognize(this=this, alias=alias, **args)
        self._cep_record_from(node, start_index)
        return node

    # -- clauses -------------------------------------------------------------------------
    def _cep_expr(self, what: str, ctx: bool = False) -> exp.Expr:
        before = self._curr
        if ctx:
            self._cep_ctx += 1
        try:
            expression = self._parse_assignment()
        finally:
            if ctx:
                self._cep_ctx -= 1
        if expression is None:
            self._cep_fail("MATCH_RECOGNIZE_SYNTAX_ERROR", f"expected {what}, found {self._found(before)}", before)
        return expression

    def _cep_parse_partition_by(self) -> tuple[str, t.Any]:
        self._advance()
        items = [self._cep_expr("an expression after PARTITION BY")]
        while self._match(TokenType.COMMA):
            items.append(self._cep_expr("an expression after ','"))
        return "partition_by", items

    def _cep_parse_order_by(self) -> tuple[str, t.Any]:
        start = self._index
        if self._cep_tok(1) is None or self._cep_clause_after(1):
            self._advance()
            self._cep_fail("MATCH_RECOGNIZE_SYNTAX_ERROR", f"expected a sort key after ORDER BY, found {self._found()}")
        order = self._parse_order()
        if not order or not order.expressions:
            self._cep_fail("MATCH_RECOGNIZE_SYNTAX_ERROR", f"expected a sort key after ORDER BY, found {self._found()}")
        self._cep_record_from(order, start)
        return "order", order

    def _cep_clause_after(self, offset: int) -> bool:
        tok = self._cep_tok(offset)
        return bool(tok and tok.token_type == TokenType.R_PAREN)

    def _cep_parse_measures(self) -> tuple[str, t.Any]:
        self._advance()
        items = [self._cep_parse_measure("MEASURES")]
        while self._match(TokenType.COMMA):
            items.append(self._cep_parse_measure("','"))
        return "measures", items

    def _cep_parse_measure(self, after: str) -> cx.Measure:
        start = self._index
        first = self._curr
        expression = self._cep_expr(f"a measure expression after {after}", ctx=True)
        if self._match(TokenType.ALIAS):
            if self._cep_clause(strict=True) is not None:
                self._cep_fail("MISSING_MEASURE_ALIAS", f"expected a measure name after AS, found {self._found()}")
            name = self._parse_id_var(any_token=False)
            if name is None:
                name = self._parse_id_var(any_token=True)
            if name is None:
                self._cep_fail("MISSING_MEASURE_ALIAS", f"expected a measure name after AS, found {self._found()}")
        elif (
            self._curr.token_type in self.ID_VAR_TOKENS or self._curr.token_type == TokenType.IDENTIFIER
        ) and self._cep_clause(strict=True) is None:
            name = self._parse_id_var(any_token=False)
        else:
            name = None
        if name is None:
            text = self.sql[first.start : self._prev.end + 1]
            self._cep_fail(
                "MISSING_MEASURE_ALIAS",
                f"measure '{text}' needs a name: write '{text} AS name'",
                first,
                self._prev.end + 1 - first.start,
            )
        measure = cx.Measure(this=expression, alias=name)
        return t.cast(cx.Measure, self._cep_record_from(measure, start))

    def _cep_parse_rows_per_match(self) -> tuple[str, t.Any]:
        start = self._index
        code = "INVALID_ROWS_PER_MATCH"
        if self._cep_word() == "ONE":
            self._cep_expect_words(("ONE", "ROW", "PER", "MATCH"), code, "ONE ROW PER MATCH")
            kind = "ONE"
        else:
            self._cep_expect_words(("ALL", "ROWS", "PER", "MATCH"), code, "ALL ROWS PER MATCH")
            kind = "ALL"
            word = self._cep_word()
            if word == "SHOW":
                self._cep_expect_words(("SHOW", "EMPTY", "MATCHES"), code, "SHOW EMPTY MATCHES")
                kind = "ALL_SHOW_EMPTY"
            elif word == "OMIT":
                self._cep_expect_words(("OMIT", "EMPTY", "MATCHES"), code, "OMIT EMPTY MATCHES")
                kind = "ALL_OMIT_EMPTY"
            elif word == "WITH" and self._cep_word(1) != "TIMED":
                self._cep_expect_words(("WITH", "UNMATCHED", "ROWS"), code, "WITH UNMATCHED ROWS")
                kind = "ALL_WITH_UNMATCHED"
        timed_out = None
        if self._cep_word() == "WITH":  # sparkcep: runs a WITHIN window closed before they completed
            self._cep_expect_words(("WITH", "TIMED", "OUT", "MATCHES"), code, "WITH TIMED OUT MATCHES")
            timed_out = True
        node = cx.RowsPerMatch(this=kind, timed_out=timed_out)
        return "rows_per_match", self._cep_record_from(node, start)

    def _cep_variable(self, code: str, what: str) -> exp.Identifier:
        if self._cep_clause(strict=True) is None:
            ident = self._parse_id_var(any_token=False)
            if isinstance(ident, exp.Identifier):
                return ident
        self._cep_fail(code, f"expected a pattern variable {what}, found {self._found()}")

    def _cep_parse_after_match_skip(self) -> tuple[str, t.Any]:
        start = self._index
        code = "INVALID_AFTER_MATCH_SKIP"
        self._cep_expect_words(("AFTER", "MATCH", "SKIP"), code, "AFTER MATCH SKIP")
        if self._match_text_seq("PAST", "LAST", "ROW"):
            node = cx.AfterMatchSkip(this="PAST_LAST_ROW")
        elif self._match_text_seq("TO", "NEXT", "ROW"):
            node = cx.AfterMatchSkip(this="TO_NEXT_ROW")
        elif self._match_text_seq("TO", "FIRST"):
            node = cx.AfterMatchSkip(this="TO_FIRST", variable=self._cep_variable(code, "after SKIP TO FIRST"))
        elif self._match_text_seq("TO", "LAST"):
            node = cx.AfterMatchSkip(
                this="TO_LAST", variable=self._cep_variable(code, "after SKIP TO LAST"), explicit_last=True
            )
        elif self._match_text_seq("TO"):
            node = cx.AfterMatchSkip(this="TO_LAST", variable=self._cep_variable(code, "after SKIP TO"))
        else:
            self._cep_fail(
                code,
                "expected PAST LAST ROW, TO NEXT ROW, TO FIRST <variable>, TO LAST <variable> or "
                f"TO <variable> after AFTER MATCH SKIP, found {self._found()}",
            )
        return "after_match_skip", self._cep_record_from(node, start)

    def _cep_parse_strategy(self) -> tuple[str, t.Any]:
        start = self._index
        code = "INVALID_SELECTION_STRATEGY"
        if self._cep_word() == "STRICT":
            self._cep_expect_words(("STRICT", "CONTIGUITY"), code, "STRICT CONTIGUITY")
            kind = "STRICT_CONTIGUITY"
        else:
            self._advance()  # SKIP
            if self._cep_word() != "TILL":
                self._cep_fail(
                    code,
                    f"expected TILL NEXT MATCH or TILL ANY MATCH after SKIP, found {self._found()} "
                    "(AFTER MATCH SKIP needs the words AFTER MATCH)",
                )
            self._advance()
            word = self._cep_word()
            if word not in ("NEXT", "ANY"):
                self._cep_fail(code, f"expected NEXT or ANY after SKIP TILL, found {self._found()}")
            self._advance()
            self._cep_expect_words(("MATCH",), code, f"SKIP TILL {word} MATCH")
            kind = f"SKIP_TILL_{word}_MATCH"
        node = cx.SelectionStrategy(this=kind)
        return "strategy", self._cep_record_from(node, start)

    def _cep_parse_pattern(self) -> tuple[str, t.Any]:
        self._advance()  # PATTERN
        if self._curr.token_type != TokenType.L_PAREN:
            self._cep_fail("PATTERN_SYNTAX_ERROR", f"expected '(' after PATTERN, found {self._found()}")
        open_paren = self._curr
        try:
            tree, close_offset = parse_pattern_at(self.sql, open_paren.start)
        except CepParseError as err:
            self._cep_errors.append(err)
            raise SignalError(err) from None
        while self._curr and self._curr.start < close_offset:
            self._advance()
        if not (self._curr and self._curr.token_type == TokenType.R_PAREN and self._curr.start == close_offset):
            self._cep_fail("PATTERN_SYNTAX_ERROR", "cannot find the end of the PATTERN clause", close_offset)
        self._advance()
        return "pattern", tree

    def _cep_parse_within(self) -> tuple[str, t.Any]:
        start = self._index
        self._advance()
        if self._curr.token_type == TokenType.INTERVAL:
            value = self._cep_parse_interval()
        elif self._curr.token_type == TokenType.NUMBER:
            value = self._parse_primary()
        else:
            value = None
        if value is None:
            self._cep_fail(
                "INVALID_WITHIN",
                f"expected an interval (e.g. INTERVAL '10' MINUTE) or a number after WITHIN, found {self._found()}",
            )
        node = cx.Within(this=value)
        return "within", self._cep_record_from(node, start)

    def _cep_parse_uncertain_time(self) -> tuple[str, t.Any]:
        start = self._index
        code = "INVALID_UNCERTAIN_TIME"
        self._cep_expect_words(("UNCERTAIN", "TIME"), code, "UNCERTAIN TIME")
        if not self._match(TokenType.L_PAREN):
            self._cep_fail(code, f"expected '(' after UNCERTAIN TIME, found {self._found()}")
        low = self._cep_expr_or_fail(code, "the earliest time of a row (UNCERTAIN TIME (lo, hi))")
        if not self._match(TokenType.COMMA):
            self._cep_fail(
                code, f"expected ',' and the latest time after UNCERTAIN TIME (lo, found {self._found()}"
            )
        high = self._cep_expr_or_fail(code, "the latest time of a row after ','")
        if not self._match(TokenType.R_PAREN):
            self._cep_fail(code, f"expected ')' to close UNCERTAIN TIME (lo, hi), found {self._found()}")
        granularity = None
        if self._cep_word() == "GRANULARITY":
            self._advance()
            if self._curr.token_type != TokenType.INTERVAL:
                self._cep_fail(
                    code,
                    f"expected an interval (e.g. INTERVAL '1' SECOND) after GRANULARITY, found {self._found()}",
                )
            granularity = self._cep_parse_interval(code)
        node = cx.UncertainTime(this=low, expression=high, granularity=granularity)
        return "uncertain_time", self._cep_record_from(node, start)

    def _cep_expr_or_fail(self, code: str, what: str) -> exp.Expr:
        before = self._curr
        empty = before.token_type in (TokenType.COMMA, TokenType.R_PAREN)
        expression = None if empty else self._parse_assignment()
        if expression is None:
            self._cep_fail(code, f"expected {what}, found {self._found(before)}", before)
        return expression

    def _cep_parse_minimum_confidence(self) -> tuple[str, t.Any]:
        start = self._index
        code = "INVALID_MINIMUM_CONFIDENCE"
        self._cep_expect_words(("MINIMUM", "CONFIDENCE"), code, "MINIMUM CONFIDENCE")
        value = None
        if self._curr.token_type == TokenType.NUMBER or (
            self._curr.token_type in (TokenType.DASH, TokenType.PLUS)
            and self._next is not None and self._next.token_type == TokenType.NUMBER
        ):
            value = self._parse_unary()
        if value is None:
            self._cep_fail(
                code, f"expected a number between 0 and 1 after MINIMUM CONFIDENCE, found {self._found()}"
            )
        node = cx.MinimumConfidence(this=value)
        return "minimum_confidence", self._cep_record_from(node, start)

    def _cep_parse_interval(self, code: str = "INVALID_WITHIN") -> exp.Expr | None:
        # An INTERVAL without a unit must not swallow the next clause keyword as its unit.
        start = self._index
        value = self._parse_interval()
        if isinstance(value, exp.Interval):
            unit = value.args.get("unit")
            if unit is not None and self._index - start == 3:
                self._retreat(start + 2)
                if self._cep_clause(strict=True) is not None or self._cep_word() in ("DEFINE", "SUBSET"):
                    value.set("unit", None)
                    return value
                self._retreat(start + 3)
        if value is None or not isinstance(value, (exp.Interval, exp.Add)):
            self._retreat(start)
            self._advance()
            self._cep_fail(code, f"expected an interval value after INTERVAL, found {self._found()}")
        return value

    def _cep_parse_subset(self) -> tuple[str, t.Any]:
        self._advance()
        items = [self._cep_parse_subset_item()]
        while self._match(TokenType.COMMA):
            items.append(self._cep_parse_subset_item())
        return "subsets", items

    def _cep_parse_subset_item(self) -> cx.SubsetDefinition:
        start = self._index
        code = "INVALID_SUBSET"
        name = self._cep_variable(code, "name in SUBSET")
        if not self._match(TokenType.EQ):
            self._cep_fail(code, f"expected '=' after SUBSET {name.sql(dialect='spark')}, found {self._found()}")
        if not self._match(TokenType.L_PAREN):
            self._cep_fail(code, f"expected '(' to open the SUBSET variable list, found {self._found()}")
        members = [self._cep_variable(code, "in the SUBSET list")]
        while self._match(TokenType.COMMA):
            members.append(self._cep_variable(code, "after ',' in the SUBSET list"))
        if not self._match(TokenType.R_PAREN):
            self._cep_fail(code, f"expected ',' or ')' in the SUBSET list, found {self._found()}")
        node = cx.SubsetDefinition(this=name, expressions=members)
        return t.cast(cx.SubsetDefinition, self._cep_record_from(node, start))

    def _cep_parse_define(self) -> tuple[str, t.Any]:
        self._advance()
        items = [self._cep_parse_definition()]
        while self._match(TokenType.COMMA):
            items.append(self._cep_parse_definition())
        return "define", items

    def _cep_parse_definition(self) -> cx.VariableDefinition:
        start = self._index
        code = "INVALID_DEFINE"
        name = self._cep_variable(code, "name in DEFINE")
        if not self._match(TokenType.ALIAS):
            self._cep_fail(code, f"expected AS after DEFINE {self._found(self._prev)}, found {self._found()}")
        before = self._curr
        self._cep_ctx += 1
        try:
            condition = self._parse_assignment()
        finally:
            self._cep_ctx -= 1
        if condition is None:
            self._cep_fail(code, f"expected a condition after '{name.name} AS', found {self._found(before)}", before)
        node = cx.VariableDefinition(this=name, condition=condition)
        return t.cast(cx.VariableDefinition, self._cep_record_from(node, start))

    # ------------------------------------------------------------------------------------
    # MEASURES / DEFINE expressions
    # ------------------------------------------------------------------------------------
    def _parse_column(self) -> exp.Expr | None:
        if self._cep_ctx and self._curr.token_type == TokenType.VAR and self._curr.text.upper() in ("RUNNING", "FINAL"):
            nxt, after = self._cep_tok(1), self._cep_tok(2)
            if nxt is not None and nxt.token_type not in (TokenType.L_PAREN, TokenType.DOT) and after is not None:
                if after.token_type == TokenType.L_PAREN and nxt.token_type != TokenType.STRING:
                    kw = self._curr
                    start = self._index
                    self._advance()
                    call = self._parse_function()
                    if call is None:
                        self._cep_fail(
                            "INVALID_RUNNING_FINAL",
                            f"{kw.text.upper()} must be followed by a function call, found {self._found(nxt)}",
                            nxt,
                        )
                    node = cx.RunningFinal(this=call, final=kw.text.upper() == "FINAL")
                    self._cep_record_from(node, start)
                    return self._parse_column_ops(node)
                if after.token_type == TokenType.DOT and nxt.token_type in (TokenType.VAR, TokenType.IDENTIFIER):
                    self._cep_fail(
                        "INVALID_RUNNING_FINAL",
                        f"{self._curr.text.upper()} applies to a function call such as "
                        f"{self._curr.text.upper()} LAST(A.price), not to a column reference",
                    )
        column = super()._parse_column()
        if (isinstance(column, exp.Column) and not column.args.get("table") and self._curr
                and self._curr.token_type == TokenType.OVER and not self._cep_ctx):
            # a row pattern measure called over a window (SQL:2016 R020): ``m OVER w``
            return self._parse_window(column)
        return column

    def _parse_function_call(self, *args: t.Any, **kwargs: t.Any) -> exp.Expr | None:
        if (
            self._cep_ctx
            and self._next.token_type == TokenType.L_PAREN
            and self._curr.token_type not in (TokenType.IDENTIFIER, TokenType.STRING)
            and self._prev.token_type != TokenType.DOT
            and self._curr.text.upper() in SPECIAL_CALLS
        ):
            return self._cep_parse_special_call()
        name = self._curr
        start = self._index
        try:
            call = super()._parse_function_call(*args, **kwargs)
        except ValueError:  # a builder of sqlglot's refusing its arguments
            # (datediff(x, s, e) whose unit is no name, date_trunc()): Spark's parser refuses
            # them too; a typed error at the function's name, never a traceback
            self._cep_fail("PARSE_SYNTAX_ERROR", f"invalid arguments to {name.text if name else 'a function'}(...)",
                           name)
        if self._cep_ctx and call is not None:
            self._cep_check_references_kept(call, start)
        return call

    def _cep_check_references_kept(self, call: exp.Expr, start: int) -> None:
        """Every column written in a call's arguments must be in the tree sqlglot built for the
        call. A builder that keeps only an argument's name (sqlglot's ``date_trunc``) or makes a
        string literal of it (its ``trunc``) drops the reference: the rewrite, which splices the
        user's text, would leave a qualified one unresolved and read an unqualified one as a
        constant. The dialect builds the calls known to do so as written (``_build_trunc``); any
        other is a typed error at the reference. Checked between the call's own parentheses:
        a qualified name anywhere (``A.price``), an unqualified one where it is a whole argument
        (``trunc(d, unit)``; elsewhere names may be keywords: ``RUNNING``, ``BOTH``)."""
        tokens = self._tokens[start:self._index]
        if len(tokens) < 3 or tokens[1].token_type != TokenType.L_PAREN:
            return
        depth, end = 0, len(tokens)
        for i, token in enumerate(tokens[1:], start=1):
            depth += {TokenType.L_PAREN: 1, TokenType.R_PAREN: -1}.get(token.token_type, 0)
            if depth == 0:
                end = i
                break
        arguments = tokens[:end + 1]  # the name, '(' ... ')'
        names = (TokenType.VAR, TokenType.IDENTIFIER)
        qualified = set()
        for column in call.find_all(exp.Column):  # A.s.f: (A, s) and (s, f)
            parts = [part.name.lower() for part in column.parts]
            qualified.update(zip(parts, parts[1:]))
        for dot in call.find_all(exp.Dot):  # x.f of a lambda variable, (A.s).f
            left = dot.this.parts[-1] if isinstance(dot.this, exp.Column) else dot.this
            qualified.add((left.name.lower(), dot.name.lower()))
        unqualified = {node.name.lower() for node in call.find_all(exp.Identifier, exp.Var)}
        lost = None
        depth = 0
        for i in range(1, len(arguments) - 1):
            before, token, after = arguments[i - 1], arguments[i], arguments[i + 1]
            depth += {TokenType.L_PAREN: 1, TokenType.R_PAREN: -1}.get(before.token_type, 0)
            if token.token_type not in names or before.token_type == TokenType.DOT:
                continue
            if after.token_type == TokenType.DOT and i + 2 < len(arguments):
                column = arguments[i + 2]
                beyond = arguments[i + 3] if i + 3 < len(arguments) else None
                if (column.token_type in names and (beyond is None or beyond.token_type != TokenType.L_PAREN)
                        and (token.text.lower(), column.text.lower()) not in qualified):
                    lost = (token, column)
            elif (depth == 1 and before.token_type in (TokenType.L_PAREN, TokenType.COMMA)
                  and after.token_type in (TokenType.COMMA, TokenType.R_PAREN)
                  and token.text.lower() not in unqualified):
                lost = (token, token)
            if lost:
                first, last = lost
                self._cep_fail(
                    "UNSUPPORTED_ARGUMENT_SYNTAX",
                    f"sparkcep cannot read the reference {self.sql[first.start:last.end + 1]} in this call of "
                    f"{tokens[0].text}(...): its parser keeps only a name there; compute the argument in a "
                    "subquery of the input", first, length=last.end - first.start + 1)

    def _cep_parse_special_call(self) -> exp.Expr:
        name_tok = self._curr
        name = name_tok.text.upper()
        self._advance(2)
        code = "INVALID_FUNCTION_ARGUMENTS"
        node: exp.Expr
        if name in NAVIGATION:
            call_args: list[exp.Expr] = []
            if self._curr.token_type != TokenType.R_PAREN:
                call_args.append(self._cep_expr(f"an expression in {name}(", ctx=True))
                while self._match(TokenType.COMMA):
                    call_args.append(self._cep_expr(f"an expression after ',' in {name}(", ctx=True))
            if len(call_args) not in (1, 2):
                self._cep_fail(
                    code,
                    f"{name} takes one or two arguments (expression[, offset]), got {len(call_args)}",
                    name_tok,
                )
            node = cx.Navigation(this=call_args[0], kind=name, offset=call_args[1] if len(call_args) > 1 else None)
        elif name == "CLASSIFIER":
            var = None
            if self._curr.token_type != TokenType.R_PAREN:
                var = self._parse_id_var(any_token=False)
                if not isinstance(var, exp.Identifier):
                    self._cep_fail(code, f"CLASSIFIER takes at most one pattern variable, found {self._found()}")
            node = cx.Classifier(this=var)
        else:
            if self._curr.token_type != TokenType.R_PAREN:
                self._cep_fail(code, f"{name} takes no arguments, found {self._found()}")
            if name == "MATCH_NUMBER":
                node = cx.MatchNumber()
            elif name == "MATCH_STATUS":
                node = cx.MatchStatus()
            else:
                node = cx.UncertainMatchFunction(this=name)
        if not self._match(TokenType.R_PAREN):
            self._cep_fail("PARSE_SYNTAX_ERROR", f"expected ')' to close {name}(, found {self._found()}")
        return node

    def _parse_window(self, this: exp.Expr | None, *args: t.Any, **kwargs: t.Any) -> exp.Expr | None:
        # A function call's node only carries its name token's position; its text ends at the
        # ')' just consumed.
        if isinstance(this, exp.Expr) and self._prev and self._prev.token_type == TokenType.R_PAREN:
            meta = this._meta
            if meta and isinstance(meta.get("start"), int) and RANGE_KEY not in meta and not meta.get("span"):
                record(this, meta["start"], self._prev.end + 1)
        alias = bool(kwargs.get("alias", args[0] if args else False))
        if self._cep_pattern_window_ahead(alias):
            return self._cep_parse_pattern_window(this, alias)
        if not alias and isinstance(this, exp.Expr) and self._curr and self._next \
                and self._curr.text.upper() in ("IGNORE", "RESPECT") and self._next.text.upper() == "NULLS":
            # first_value(x) RESPECT NULLS OVER (... PATTERN ...): the null treatment first
            before = self._index
            wrapped = self._parse_respect_or_ignore_nulls(this)
            if wrapped is not this and self._cep_pattern_window_ahead(False):
                start = (this.meta.get(RANGE_KEY) or (this.meta.get("start"),))[0]
                if isinstance(start, int):
                    record(wrapped, start, self._prev.end + 1)
                return self._cep_parse_pattern_window(wrapped, False)
            self._retreat(before)
        return super()._parse_window(this, *args, **kwargs)

    # -- row pattern recognition in a window (SQL:2016 feature R020) ---------------------------
    def _cep_pattern_window_ahead(self, alias: bool) -> bool:
        """Is the next thing ``OVER (...)`` (``AS (...)`` in the WINDOW clause) whose
        parentheses hold a PATTERN clause?"""
        head = self._cep_tok()
        opening = self._cep_tok(1)
        if head is None or opening is None or opening.token_type != TokenType.L_PAREN:
            return False
        if head.token_type != (TokenType.ALIAS if alias else TokenType.OVER):
            return False
        depth = 0
        index = self._index + 1
        while index < self._tokens_size:
            tok = self._tokens[index]
            if tok.token_type == TokenType.L_PAREN:
                depth += 1
            elif tok.token_type == TokenType.R_PAREN:
                depth -= 1
                if depth == 0:
                    return False
            elif depth == 1 and tok.text.upper() == "PATTERN" and tok.token_type != TokenType.STRING:
                following = self._tokens[index + 1] if index + 1 < self._tokens_size else None
                if following is not None and following.token_type == TokenType.L_PAREN:
                    return True
            index += 1
        return False

    def _cep_parse_pattern_window(self, this: exp.Expr | None, alias: bool) -> exp.Expr:
        start_index = self._index
        self._advance()  # OVER, or AS of the WINDOW clause
        open_paren = self._curr
        self._advance()
        args: dict[str, t.Any] = {}
        seen: dict[str, Token] = {}
        misplaced: list[exp.Expr] = []
        parsers = {
            "PARTITION_BY": self._cep_parse_partition_by,
            "ORDER_BY": self._cep_parse_order_by,
            "MEASURES": self._cep_parse_measures,
            "AFTER_MATCH_SKIP": self._cep_parse_after_match_skip,
            "PATTERN": self._cep_parse_pattern,
            "SUBSET": self._cep_parse_subset,
            "DEFINE": self._cep_parse_define,
            "FRAME": self._cep_parse_frame,
            "SEARCH": self._cep_parse_search,
            # MATCH_RECOGNIZE's own clauses: parsed to be refused with their position
            "ROWS_PER_MATCH": self._cep_parse_rows_per_match,
            "STRATEGY": self._cep_parse_strategy,
            "WITHIN": self._cep_parse_within,
            "UNCERTAIN_TIME": self._cep_parse_uncertain_time,
            "MINIMUM_CONFIDENCE": self._cep_parse_minimum_confidence,
        }
        while not self._match(TokenType.R_PAREN):
            if not self._curr:
                self._cep_fail("WINDOW_PATTERN_SYNTAX_ERROR", "'(' of the window is never closed with ')'",
                               open_paren)
            word = self._cep_word()
            if word in ("ROWS", "RANGE", "GROUPS"):
                clause = "FRAME"
            elif word in ("INITIAL", "SEEK"):
                clause = "SEARCH"
            else:
                clause = self._cep_clause(strict=False)
            if clause is None:
                self._cep_fail(
                    "WINDOW_PATTERN_SYNTAX_ERROR",
                    "expected a clause of a window with row pattern recognition (PARTITION BY, "
                    "ORDER BY, MEASURES, ROWS BETWEEN, AFTER MATCH SKIP, INITIAL, SEEK, PATTERN, "
                    f"SUBSET, DEFINE), found {self._found()}",
                )
            if clause in seen:
                self._cep_fail("DUPLICATE_CLAUSE", f"duplicate {self._found()} clause in the window")
            seen[clause] = self._curr
            before = self._index
            key, value = parsers[clause]()
            if clause in ("ROWS_PER_MATCH", "STRATEGY", "WITHIN", "UNCERTAIN_TIME", "MINIMUM_CONFIDENCE"):
                misplaced.append(self._cep_record_from(value, before))
                continue
            args[key] = value
        if "pattern" not in args:  # pragma: no cover - the look-ahead found PATTERN (
            self._cep_fail("MISSING_PATTERN", "the window requires a PATTERN clause", open_paren)
        search = args.pop("search", None)
        node = cx.RowPatternWindow(
            name=this if alias else None, search=search.this if search is not None else "INITIAL",
            search_node=search, misplaced=misplaced or None, **args)
        self._cep_record_from(node, start_index)
        if alias:
            if isinstance(this, exp.Expr) and this.meta.get("start") is not None:
                record(node, this.meta["start"], self._prev.end + 1)
            return node
        call = cx.PatternWindowCall(this=this, window=node)
        self._cep_record_from(call, start_index)
        if isinstance(this, exp.Expr):
            found = this.meta.get(RANGE_KEY) or (
                (this.meta["start"], this.meta.get("end", this.meta["start"]))
                if isinstance(this.meta.get("start"), int) else None)
            if found:
                record(call, found[0], self._prev.end + 1)
        return call

    def _cep_parse_frame(self) -> tuple[str, t.Any]:
        start = self._index
        kind = self._cep_word()
        self._advance()
        between = self._match(TokenType.BETWEEN)
        low = self._cep_frame_bound()
        high = None
        if between:
            if not self._match(TokenType.AND):
                self._cep_fail("WINDOW_PATTERN_SYNTAX_ERROR", f"expected AND in the frame, found {self._found()}")
            high = self._cep_frame_bound()
        node = cx.WindowFrame(kind=kind, start=low, end=high)
        return "frame", self._cep_record_from(node, start)

    def _cep_frame_bound(self) -> exp.Expr:
        start = self._index
        for words in (("CURRENT", "ROW"), ("UNBOUNDED", "PRECEDING"), ("UNBOUNDED", "FOLLOWING")):
            if self._match_text_seq(*words):
                return self._cep_record_from(cx.FrameBound(this=" ".join(words)), start)
        offset = self._cep_expr("a frame bound (CURRENT ROW, UNBOUNDED FOLLOWING, <n> FOLLOWING, ...)")
        word = self._cep_word()
        if word not in ("PRECEDING", "FOLLOWING"):
            self._cep_fail("WINDOW_PATTERN_SYNTAX_ERROR",
                           f"expected PRECEDING or FOLLOWING after the frame offset, found {self._found()}")
        self._advance()
        return self._cep_record_from(cx.FrameBound(this=word, offset=offset), start)

    def _cep_parse_search(self) -> tuple[str, t.Any]:
        start = self._index
        word = self._cep_word()
        self._advance()
        return "search", self._cep_record_from(cx.SearchMode(this=word), start)


# ---------------------------------------------------------------------------------------------
# span recording: wrap the expression entry points
# ---------------------------------------------------------------------------------------------

SPAN_METHODS = (
    "_parse_statement",
    "_parse_cte",
    "_parse_select",
    "_parse_table",
    "_parse_table_parts",
    "_parse_expression",
    "_parse_assignment",
    "_parse_disjunction",
    "_parse_conjunction",
    "_parse_equality",
    "_parse_comparison",
    "_parse_range",
    "_parse_is",
    "_parse_in",
    "_parse_between",
    "_parse_bitwise",
    "_parse_term",
    "_parse_factor",
    "_parse_unary",
    "_parse_type",
    "_parse_types",
    "_parse_atom",
    "_parse_column",
    "_parse_column_reference",
    "_parse_column_ops",
    "_parse_primary",
    "_parse_paren",
    "_parse_field",
    "_parse_function",
    "_parse_function_call",
    "_parse_bracket",
    "_parse_window",
    "_parse_ordered",
    "_parse_order",
    "_parse_interval",
    "_parse_lambda",
    "_parse_case",
    "_parse_id_var",
    "_parse_var",
    "_parse_identifier",
    "_parse_string",
    "_parse_number",
    "_parse_null",
    "_parse_boolean",
    "_parse_star",
    "_parse_placeholder",
    "_parse_table_alias",
    "_parse_subquery",
    "_parse_select_or_expression",
    "_parse_respect_or_ignore_nulls",
)


def _make_span_wrapper(method: t.Callable) -> t.Callable:
    def wrapper(self: SparkCepParser, *args: t.Any, **kwargs: t.Any) -> t.Any:
        start = self._index
        tokens = self._tokens
        result = method(self, *args, **kwargs)
        end = self._index
        if end > start and isinstance(result, exp.Expr) and tokens is self._tokens:
            record(result, tokens[start].start, tokens[end - 1].end + 1)
        return result

    wrapper.__name__ = method.__name__
    wrapper.__qualname__ = getattr(method, "__qualname__", method.__name__)
    wrapper.__doc__ = method.__doc__
    wrapper.__wrapped__ = method  # type: ignore[attr-defined]
    return wrapper


for _name in SPAN_METHODS:
    _method = getattr(SparkCepParser, _name, None)
    if _method is not None:
        setattr(SparkCepParser, _name, _make_span_wrapper(_method))
