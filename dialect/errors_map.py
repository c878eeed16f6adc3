"""Turn sqlglot's ParseError / TokenError into :class:`sparkcep.errors.ParseError`.

The dialect's parser annotates every error it raises with the offending token's offset
(``errors[0]["cep_info"]``) so the position is the *start* of that token (sqlglot's own ``col``
is the end of the token); its own MATCH_RECOGNIZE errors travel as :class:`SignalError`.
"""

from __future__ import annotations

import re

from sqlglot.errors import ParseError as SqlglotParseError
from sqlglot.errors import TokenError
from sqlglot.tokens import TokenType

from sparkcep.errors import ParseError

_REQUIRED = re.compile(r"Required keyword: '(\w+)' missing for <class '[\w.]*\.(\w+)'>")


def _offset_from_line_col(sql: str, line: int | None, col: int | None) -> int:
    if not line:
        return 0
    offset = 0
    for _ in range(line - 1):
        nl = sql.find("\n", offset)
        if nl < 0:
            break
        offset = nl + 1
    return offset + max(0, (col or 1) - 1)


def _message(description: str, found: str) -> str:
    d = description.strip()
    if d.startswith("Expecting )") or d == "Expecting )":
        return f"expected ')', found {found}"
    if d.startswith("Expecting ("):
        return f"expected '(', found {found}"
    if d.startswith("Invalid expression / Unexpected token"):
        return f"unexpected {found}"
    m = _REQUIRED.match(d)
    if m:
        if m.group(1) in ("this", "expression", "expressions"):
            return f"expected an expression, found {found}"
        return f"incomplete {m.group(2)}: missing {m.group(1)}, found {found}"
    if d.startswith("Expected table name"):
        return f"expected a table name, found {found}"
    if d.startswith("Expected "):
        return f"{d[0].lower()}{d[1:].split(' but got')[0]}, found {found}"
    if d.startswith("Expecting "):
        return f"expected {d[len('Expecting '):]}, found {found}"
    return f"{d[0].lower()}{d[1:]} (at {found})" if d else f"syntax error at {found}"


def convert_parse_error(error: SqlglotParseError, sql: str) -> ParseError:
    cep = getattr(error, "cep", None)
    if isinstance(cep, ParseError):
        return cep
    entries = error.errors or [{}]
    entry = entries[0]
    if isinstance(entry.get("cep"), ParseError):
        return entry["cep"]
    # An error of ours swallowed by sqlglot's backtracking is the better explanation.
    info = entry.get("cep_info")
    description = entry.get("description") or str(error)
    if info is None:
        offset = _offset_from_line_col(sql, entry.get("line"), entry.get("col"))
        return ParseError.at_offset("PARSE_SYNTAX_ERROR", _message(description, "this point"), sql, offset)
    if info.get("token_type") == TokenType.MATCH_RECOGNIZE:
        return ParseError.at_offset(
            "MISPLACED_MATCH_RECOGNIZE",
            "MATCH_RECOGNIZE must directly follow a table reference (a table, a subquery or a "
            "join operand in FROM)",
            sql,
            info["offset"],
            info["length"],
        )
    return ParseError.at_offset(
        "PARSE_SYNTAX_ERROR", _message(description, info["found"]), sql, info["offset"], info["length"]
    )


def convert_token_error(error: TokenError, sql: str) -> ParseError:
    offset = getattr(error, "cep_offset", None)
    if offset is None:
        offset = error.start or 0
        return ParseError.at_offset("INVALID_TOKEN", "cannot read the statement here", sql, offset)
    head = sql[offset : offset + 2]
    if head[:1] in ("'", '"') or (head[:1] in "rRbBxX" and head[1:2] in ("'", '"')):
        return ParseError.at_offset(
            "UNTERMINATED_STRING_LITERAL", "string literal is never closed", sql, offset
        )
    if head[:1] == "`":
        return ParseError.at_offset(
            "UNTERMINATED_QUOTED_IDENTIFIER", "quoted identifier is never closed with '`'", sql, offset
        )
    if head == "/*":
        return ParseError.at_offset("UNTERMINATED_COMMENT", "comment '/*' is never closed", sql, offset, 2)
    return ParseError.at_offset("INVALID_TOKEN", f"cannot read the text starting at {head[:1]!r}", sql, offset)
