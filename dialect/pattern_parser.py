"""PATTERN text -> ``RowPattern`` tree.

The PATTERN language has its own small grammar, so it is not parsed by sqlglot: the dialect's
parser hands the raw SQL text that follows ``PATTERN (`` to :func:`parse_pattern_at`, which
tokenizes it here, tracking absolute offsets into the statement, and stops at the ``)`` that
closes the clause.

Grammar (precedence: quantifier > concatenation > alternation)::

    pattern     := alternation
    alternation := concat ( "|" concat )*
    concat      := factor factor*
    factor      := primary [ quantifier ]
                 | "!" variable                      -- negation (CEP extension)
    primary     := variable                          -- identifier or `quoted identifier`
                 | "(" ")"                           -- empty pattern
                 | "(" pattern ")"                   -- group
                 | PERMUTE "(" pattern ( "," pattern )* ")"
                 | "^" | "$"                         -- anchors
                 | "{-" pattern "-}"                 -- exclusion
    quantifier  := ( "*" | "+" | "?" | "{" n "}" | "{" [n] "," [m] "}" ) [ "?" ]

The reluctant ``?`` must directly follow its quantifier (``A*?``, ``A{2,}?``). Whitespace and
SQL comments (``--``, ``/* */``) may appear between tokens. ``PERMUTE`` is a keyword only when
followed by ``(``. The unquoted words DEFINE, SUBSET, WITHIN, MEASURES and PATTERN end the
pattern text (so a missing ``)`` is reported as such); quote them to use them as variables.

Every node gets an exact span (see :mod:`dialect.spans`); the quantifier ``text`` is stored
without inner whitespace (``{ 2 , }`` -> ``"{2,}"``).

Errors raise :class:`sparkcep.errors.ParseError` with these codes: ``INVALID_PATTERN_CHARACTER``,
``PATTERN_SYNTAX_ERROR``, ``UNBALANCED_PATTERN_PARENTHESES``, ``UNBALANCED_PATTERN_EXCLUSION``,
``QUANTIFIER_WITHOUT_OPERAND``, ``INVALID_QUANTIFIER``, ``INVALID_QUANTIFIER_RANGE``,
``INVALID_NEGATION``.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp

from sparkcep.dialect import expressions as cx
from sparkcep.dialect.spans import set_span
from sparkcep.errors import ParseError

# token kinds
IDENT = "IDENT"
NUMBER = "NUMBER"
LPAREN = "("
RPAREN = ")"
PIPE = "|"
COMMA = ","
STAR = "*"
PLUS = "+"
QMARK = "?"
LBRACE = "{"
RBRACE = "}"
EXCL_OPEN = "{-"
EXCL_CLOSE = "-}"
CARET = "^"
DOLLAR = "$"
BANG = "!"
STOP = "STOP"  # a clause keyword: the pattern text ended without its ')'
EOF = "EOF"

STOP_WORDS = frozenset({"DEFINE", "SUBSET", "WITHIN", "MEASURES", "PATTERN"})
_SINGLE = {"(": LPAREN, ")": RPAREN, "|": PIPE, ",": COMMA, "*": STAR, "+": PLUS, "?": QMARK,
           "}": RBRACE, "^": CARET, "$": DOLLAR, "!": BANG}
_SIMPLE_QUANTIFIERS = {STAR: (0, None), PLUS: (1, None), QMARK: (0, 1)}


@dataclass
class PToken:
    kind: str
    text: str  # as written (for IDENT: the name without quotes)
    start: int
    end: int  # exclusive
    quoted: bool = False

    raw: str = ""


class PatternTokenizer:
    """Tokenizes pattern text of ``sql`` from ``pos`` on; yields tokens lazily (the caller stops
    at the clause's closing parenthesis, so text after it is never looked at)."""

    def __init__(self, sql: str, pos: int, end: int | None = None) -> None:
        self.sql = sql
        self.pos = pos
        self.end = len(sql) if end is None else end

    def error(self, code: str, message: str, offset: int, length: int = 1) -> ParseError:
        return ParseError.at_offset(code, message, self.sql, offset, length)

    def _skip_blanks(self) -> None:
        sql, end = self.sql, self.end
        while self.pos < end:
            c = sql[self.pos]
            if c.isspace():
                self.pos += 1
            elif sql.startswith("--", self.pos):
                nl = sql.find("\n", self.pos, end)
                self.pos = end if nl < 0 else nl + 1
            elif sql.startswith("/*", self.pos):
                close = sql.find("*/", self.pos + 2, end)
                if close < 0:
                    raise self.error("UNTERMINATED_COMMENT", "comment '/*' is never closed", self.pos, 2)
                self.pos = close + 2
            else:
                break

    def next(self) -> PToken:
        self._skip_blanks()
        sql, start = self.sql, self.pos
        if start >= self.end:
            return PToken(EOF, "", start, start)
        c = sql[start]
        if c == "{":
            if sql.startswith("{-", start):
                self.pos = start + 2
                return PToken(EXCL_OPEN, "{-", start, start + 2, raw="{-")
            self.pos = start + 1
            return PToken(LBRACE, "{", start, start + 1, raw="{")
        if c == "-":
            if sql.startswith("-}", start):
                self.pos = start + 2
                return PToken(EXCL_CLOSE, "-}", start, start + 2, raw="-}")
            raise self.error("INVALID_PATTERN_CHARACTER", "unexpected character '-' in PATTERN", start)
        if c in _SINGLE:
            self.pos = start + 1
            return PToken(_SINGLE[c], c, start, start + 1, raw=c)
        if c == "`":
            i, text = start + 1, []
            while True:
                if i >= self.end:
                    raise self.error(
                        "UNTERMINATED_QUOTED_IDENTIFIER",
                        "quoted identifier is never closed with '`'",
                        start,
                    )
                if sql[i] == "`":
                    if i + 1 < self.end and sql[i + 1] == "`":
                        text.append("`")
                        i += 2
                        continue
                    break
                text.append(sql[i])
                i += 1
            self.pos = i + 1
            if not text:
                raise self.error("PATTERN_SYNTAX_ERROR", "empty quoted identifier in PATTERN", start, 2)
            return PToken(IDENT, "".join(text), start, i + 1, quoted=True, raw=sql[start : i + 1])
        if c.isdigit():
            i = start
            while i < self.end and sql[i].isdigit():
                i += 1
            if i < self.end and (sql[i].isalpha() or sql[i] == "_"):
                raise self.error(
                    "PATTERN_SYNTAX_ERROR",
                    "a pattern variable cannot start with a digit; quote it with backticks",
                    start,
                    i - start,
                )
            self.pos = i
            return PToken(NUMBER, sql[start:i], start, i, raw=sql[start:i])
        if c.isalpha() or c == "_":
            i = start
            while i < self.end and (sql[i].isalnum() or sql[i] == "_"):
                i += 1
            self.pos = i
            text = sql[start:i]
            kind = STOP if text.upper() in STOP_WORDS else IDENT
            return PToken(kind, text, start, i, raw=text)
        raise self.error("INVALID_PATTERN_CHARACTER", f"unexpected character '{c}' in PATTERN", start)


_PRIMARY_START = {IDENT, LPAREN, CARET, DOLLAR, EXCL_OPEN, BANG}
_QUANT_START = {STAR, PLUS, QMARK, LBRACE}


class PatternParser:
    def __init__(self, sql: str, pos: int, open_paren: int | None, end: int | None = None) -> None:
        self.sql = sql
        self.tokenizer = PatternTokenizer(sql, pos, end)
        self.open_paren = open_paren  # offset of PATTERN's '(' (None: whole text is a pattern)
        self.tok = self.tokenizer.next()
        self.peeked: PToken | None = None

    # -- helpers --------------------------------------------------------------------------
    def error(self, code: str, message: str, tok: PToken | int, length: int | None = None) -> ParseError:
        if isinstance(tok, PToken):
            offset, n = tok.start, max(1, tok.end - tok.start)
        else:
            offset, n = tok, 1
        return ParseError.at_offset(code, message, self.sql, offset, length or n)

    def advance(self) -> PToken:
        prev = self.tok
        if self.peeked is not None:
            self.tok, self.peeked = self.peeked, None
        else:
            self.tok = self.tokenizer.next()
        return prev

    def peek(self) -> PToken:
        if self.peeked is None:
            self.peeked = self.tokenizer.next()
        return self.peeked

    def node(self, node: exp.Expression, start: int, end: int) -> exp.Expression:
        set_span(node, start, end)
        return node

    # -- grammar ---------------------------------------------------------------------------
    def parse_top(self) -> tuple[cx.RowPattern, int]:
        """Parse up to the closing ')' (or end of text when there is no open paren).

        Returns the tree and the offset of the closing ')' (or of the end)."""
        tok = self.tok
        if (tok.kind == RPAREN and self.open_paren is not None) or (
            tok.kind == EOF and self.open_paren is None
        ):
            pos = self.open_paren + 1 if self.open_paren is not None else self._empty_pos()
            return self.node(cx.PatternEmpty(), pos, pos), tok.start
        tree = self.parse_alternation()
        tok = self.tok
        if self.open_paren is None:
            if tok.kind != EOF:
                self.unexpected(tok, context="top")
            return tree, tok.start
        if tok.kind == RPAREN:
            return tree, tok.start
        self.unexpected(tok, context="top")
        raise AssertionError  # pragma: no cover

    def _empty_pos(self) -> int:
        return self.tok.start

    def unexpected(self, tok: PToken, context: str, opener: PToken | None = None) -> None:
        """Raise the right error for a token that cannot continue the pattern here."""
        if tok.kind in (EOF, STOP):
            if opener is not None:
                what = {LPAREN: "'('", EXCL_OPEN: "'{-'"}.get(opener.kind, "'('")
                code = "UNBALANCED_PATTERN_EXCLUSION" if opener.kind == EXCL_OPEN else "UNBALANCED_PATTERN_PARENTHESES"
                closer = "'-}'" if opener.kind == EXCL_OPEN else "')'"
                raise self.error(code, f"{what} in PATTERN is never closed with {closer}", opener)
            if self.open_paren is not None:
                raise self.error(
                    "UNBALANCED_PATTERN_PARENTHESES",
                    "'(' after PATTERN is never closed with ')'",
                    self.open_paren,
                )
            raise self.error("PATTERN_SYNTAX_ERROR", "unexpected end of PATTERN", tok)
        if tok.kind == RPAREN:
            if opener is not None and opener.kind == EXCL_OPEN:
                raise self.error(
                    "UNBALANCED_PATTERN_EXCLUSION", "'{-' in PATTERN is never closed with '-}'", opener
                )
            raise self.error("UNBALANCED_PATTERN_PARENTHESES", "unmatched ')' in PATTERN", tok)
        if tok.kind == EXCL_CLOSE:
            raise self.error("UNBALANCED_PATTERN_EXCLUSION", "'-}' without a matching '{-' in PATTERN", tok)
        if tok.kind == RBRACE:
            raise self.error("PATTERN_SYNTAX_ERROR", "unexpected '}' in PATTERN", tok)
        if tok.kind in _QUANT_START:
            raise self.error(
                "INVALID_QUANTIFIER",
                f"unexpected quantifier '{tok.raw}': a pattern takes one quantifier; "
                "use parentheses, e.g. (A*)+",
                tok,
            )
        if tok.kind == COMMA:
            raise self.error("PATTERN_SYNTAX_ERROR", "unexpected ',' in PATTERN (only PERMUTE takes a list)", tok)
        if tok.kind == NUMBER:
            raise self.error("PATTERN_SYNTAX_ERROR", f"unexpected number '{tok.raw}' in PATTERN", tok)
        raise self.error("PATTERN_SYNTAX_ERROR", f"unexpected '{tok.raw}' in PATTERN", tok)

    def parse_alternation(self, opener: PToken | None = None) -> cx.RowPattern:
        items = [self.parse_concat(opener)]
        while self.tok.kind == PIPE:
            self.advance()
            items.append(self.parse_concat(opener, after="'|'"))
        if len(items) == 1:
            return items[0]
        return self.node(cx.PatternAlternation(expressions=items), _s(items[0]), _e(items[-1]))

    def parse_concat(self, opener: PToken | None, after: str | None = None) -> cx.RowPattern:
        items: list[cx.RowPattern] = []
        while self.tok.kind in _PRIMARY_START:
            items.append(self.parse_factor(opener))
        if not items:
            tok = self.tok
            if tok.kind in _QUANT_START:
                raise self.error(
                    "QUANTIFIER_WITHOUT_OPERAND",
                    f"quantifier '{tok.raw}' has nothing to repeat",
                    tok,
                )
            if tok.kind not in (EOF, STOP) and (tok.kind == PIPE or after):
                where = f"after {after}" if after else f"before '{tok.raw}'"
                raise self.error(
                    "PATTERN_SYNTAX_ERROR",
                    f"expected a pattern variable or '(' {where}, found {_describe(tok)}; "
                    "write () for the empty pattern",
                    tok,
                )
            self.unexpected(tok, context="concat", opener=opener)
        if len(items) == 1:
            return items[0]
        return self.node(cx.PatternConcat(expressions=items), _s(items[0]), _e(items[-1]))

    def parse_factor(self, opener: PToken | None) -> cx.RowPattern:
        tok = self.tok
        if tok.kind == BANG:
            self.advance()
            var = self.tok
            if var.kind != IDENT:
                raise self.error(
                    "INVALID_NEGATION",
                    f"'!' must be followed by a single pattern variable, found {_describe(var)}",
                    tok,
                )
            self.advance()
            inner = self.variable(var)
            node = self.node(cx.PatternNegation(this=inner), tok.start, var.end)
            if self.tok.kind in _QUANT_START:
                raise self.error(
                    "INVALID_NEGATION", "a negated variable (!X) cannot take a quantifier", self.tok
                )
            return node
        primary = self.parse_primary(opener)
        if self.tok.kind in _QUANT_START:
            primary = self.parse_quantifier(primary)
            if self.tok.kind in _QUANT_START:
                self.unexpected(self.tok, context="factor")
        return primary

    def variable(self, tok: PToken) -> cx.PatternVariable:
        ident = exp.Identifier(this=tok.text, quoted=tok.quoted)
        set_span(ident, tok.start, tok.end)
        return self.node(cx.PatternVariable(this=ident), tok.start, tok.end)

    def parse_primary(self, opener: PToken | None) -> cx.RowPattern:
        tok = self.tok
        kind = tok.kind
        if kind == IDENT:
            if tok.text.upper() == "PERMUTE" and not tok.quoted and self.peek().kind == LPAREN:
                return self.parse_permute()
            self.advance()
            return self.variable(tok)
        if kind in (CARET, DOLLAR):
            self.advance()
            return self.node(cx.PatternAnchor(this=tok.text), tok.start, tok.end)
        if kind == LPAREN:
            self.advance()
            if self.tok.kind == RPAREN:
                close = self.advance()
                return self.node(cx.PatternEmpty(), tok.start, close.end)
            inner = self.parse_alternation(opener=tok)
            if self.tok.kind != RPAREN:
                self.unexpected(self.tok, context="group", opener=tok)
            close = self.advance()
            return self.node(cx.PatternGroup(this=inner), tok.start, close.end)
        if kind == EXCL_OPEN:
            self.advance()
            if self.tok.kind == EXCL_CLOSE:
                raise self.error("PATTERN_SYNTAX_ERROR", "empty exclusion '{- -}' in PATTERN", tok)
            inner = self.parse_alternation(opener=tok)
            if self.tok.kind != EXCL_CLOSE:
                if self.tok.kind == RPAREN or self.tok.kind in (EOF, STOP):
                    raise self.error(
                        "UNBALANCED_PATTERN_EXCLUSION", "'{-' in PATTERN is never closed with '-}'", tok
                    )
                self.unexpected(self.tok, context="exclusion", opener=tok)
            close = self.advance()
            return self.node(cx.PatternExclusion(this=inner), tok.start, close.end)
        self.unexpected(tok, context="primary", opener=opener)
        raise AssertionError  # pragma: no cover

    def parse_permute(self) -> cx.RowPattern:
        kw = self.advance()
        lparen = self.advance()
        if self.tok.kind == RPAREN:
            raise self.error("PATTERN_SYNTAX_ERROR", "PERMUTE needs at least one pattern", self.tok)
        items = [self.parse_alternation(opener=lparen)]
        while self.tok.kind == COMMA:
            self.advance()
            if self.tok.kind in (RPAREN, COMMA):
                raise self.error("PATTERN_SYNTAX_ERROR", "expected a pattern after ',' in PERMUTE", self.tok)
            items.append(self.parse_alternation(opener=lparen))
        if self.tok.kind != RPAREN:
            self.unexpected(self.tok, context="permute", opener=lparen)
        close = self.advance()
        return self.node(cx.PatternPermute(expressions=items), kw.start, close.end)

    def parse_quantifier(self, operand: cx.RowPattern) -> cx.RowPattern:
        tok = self.advance()
        if tok.kind in _SIMPLE_QUANTIFIERS:
            lo, hi = _SIMPLE_QUANTIFIERS[tok.kind]
            text, end = tok.raw, tok.end
        else:  # '{'
            lo_tok = hi_tok = None
            comma = False
            if self.tok.kind == NUMBER:
                lo_tok = self.advance()
            if self.tok.kind == COMMA:
                comma = True
                self.advance()
                if self.tok.kind == NUMBER:
                    hi_tok = self.advance()
            if self.tok.kind != RBRACE:
                bad = self.tok
                if bad.kind in (EOF, STOP, RPAREN):
                    raise self.error(
                        "INVALID_QUANTIFIER", "quantifier '{' is never closed with '}'", tok
                    )
                raise self.error(
                    "INVALID_QUANTIFIER",
                    f"expected a number, ',' or '}}' in quantifier, found {_describe(bad)}",
                    bad,
                )
            close = self.advance()
            if lo_tok is None and not comma:
                raise self.error("INVALID_QUANTIFIER", "empty quantifier '{}'", tok, close.end - tok.start)
            lo = int(lo_tok.text) if lo_tok else 0
            if comma:
                hi = int(hi_tok.text) if hi_tok else None
            else:
                hi = lo
            text = "{" + (lo_tok.text if lo_tok else "") + ("," if comma else "")
            text += (hi_tok.text if hi_tok else "") + "}"
            end = close.end
            if hi is not None and hi < lo:
                raise self.error(
                    "INVALID_QUANTIFIER_RANGE",
                    f"quantifier '{text}' has a maximum smaller than its minimum",
                    tok,
                    close.end - tok.start,
                )
        reluctant = False
        if self.tok.kind == QMARK and self.tok.start == end:
            reluctant = True
            end = self.advance().end
            text += "?"
        node = cx.PatternQuantified(this=operand, min=lo, max=hi, reluctant=reluctant, text=text)
        return self.node(node, _s(operand), end)


def _s(node: exp.Expression) -> int:
    return node.meta["start"]


def _e(node: exp.Expression) -> int:
    return node.meta["end"]


def _describe(tok: PToken) -> str:
    if tok.kind == EOF:
        return "end of input"
    return f"'{tok.raw}'"


def parse_pattern_at(sql: str, open_paren: int) -> tuple[cx.RowPattern, int]:
    """Parse the PATTERN whose '(' is at ``sql[open_paren]``.

    Returns the tree (spans are absolute offsets into ``sql``) and the offset of the closing
    ')'. Raises :class:`sparkcep.errors.ParseError`."""
    parser = PatternParser(sql, open_paren + 1, open_paren)
    return parser.parse_top()


def parse_pattern(text: str) -> cx.RowPattern:
    """Parse a stand-alone pattern (the text between PATTERN's parentheses; ``""`` or ``"()"``
    is the empty pattern). Spans are offsets into ``text``."""
    parser = PatternParser(text, 0, None)
    tree, _ = parser.parse_top()
    return tree
