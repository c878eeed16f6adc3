"""User-facing errors.

Every mistake a user can make in a query surfaces as a :class:`SparkCepError`: it carries a stable
``code`` (an upper-snake-case name in the style of Spark's error classes, e.g.
``UNDEFINED_PATTERN_VARIABLE``), a plain-text message, and the 1-based ``line`` and ``column`` of
the offending token in the user's SQL. ``str(error)`` renders all of it with the source line and a
caret under the position, so a notebook, the CLI and a JDBC client show the same thing, and the
first line stands alone (many BI tools show only that).

This module is pure Python: the dialect imports it without pyspark.
"""

from __future__ import annotations


class SparkCepError(Exception):
    """Base of every user-facing sparkcep error.

    Attributes:
        code: stable error code, e.g. ``"UNDEFINED_PATTERN_VARIABLE"``.
        message: the plain-text explanation, without position.
        line: 1-based line of the offending token, or ``None`` when the error has no position.
        column: 1-based column of the offending token, or ``None``.
        sql: the statement the position refers to, when known.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        sql: str | None = None,
        length: int = 1,
    ) -> None:
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.sql = sql
        self.length = max(1, length)
        super().__init__(self.render())

    @classmethod
    def at_offset(cls, code: str, message: str, sql: str, offset: int, length: int = 1) -> "SparkCepError":
        """Build the error for a 0-based character ``offset`` into ``sql``."""
        line, column = line_and_column(sql, offset)
        return cls(code, message, line=line, column=column, sql=sql, length=length)

    def render(self) -> str:
        head = f"[{self.code}] {self.message}"
        if self.line is None:
            return head
        head += f" (line {self.line}, column {self.column})"
        if not self.sql:
            return head
        lines = self.sql.splitlines() or [""]
        if not 1 <= self.line <= len(lines):
            return head
        source = lines[self.line - 1].replace("\t", " ")
        caret = " " * (self.column - 1) + "^" * min(self.length, max(1, len(source) - self.column + 1))
        return f"{head}\n{source}\n{caret}"


class ParseError(SparkCepError):
    """The text is not valid sparkcep SQL (syntax)."""


class AnalysisError(SparkCepError):
    """The query parses but breaks a rule of the standard or of the CEP extensions."""


class MatchRuntimeError(SparkCepError):
    """A rule that can only be checked while matching was broken (e.g. AFTER MATCH SKIP to the
    first row of the match), or a resource guard tripped."""

    # (start, end) offsets in the statement of the expression that raised it, when known (set by
    # the evaluator; turned into line and column where the statement's text is at hand)
    span: tuple[int, int] | None = None


class InternalError(Exception):
    """A bug in sparkcep, never a user mistake. Not a SparkCepError on purpose."""


def line_and_column(sql: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of a 0-based character offset."""
    offset = max(0, min(offset, len(sql)))
    line = sql.count("\n", 0, offset) + 1
    column = offset - (sql.rfind("\n", 0, offset) + 1) + 1
    return line, column


#: Marks the line an executor appends to a SparkCepError's text, so the driver can rebuild the
#: typed error from the Python worker's exception text (which Spark wraps in its own message and a
#: traceback; see ``sparkcep.runtime.spark_errors``).
WORKER_MARKER = "sparkcep-error-json: "

_KINDS = {"ParseError": ParseError, "AnalysisError": AnalysisError,
          "MatchRuntimeError": MatchRuntimeError}


def for_worker(error: SparkCepError) -> SparkCepError:
    """The same error, its text extended by one marked JSON line (raised on an executor)."""
    import json

    payload = {"kind": type(error).__name__, "code": error.code, "message": error.message,
               "line": error.line, "column": error.column, "length": error.length,
               "sql": error.sql}
    copy = type(error)(error.code, error.message, line=error.line, column=error.column,
                       sql=error.sql, length=error.length)
    copy.args = (f"{error.render()}\n{WORKER_MARKER}{json.dumps(payload)}",)
    return copy


def from_worker_text(text: str) -> SparkCepError | None:
    """The error an executor raised with :func:`for_worker`, found in ``text`` (the driver's
    exception message), or None."""
    import json

    at = text.rfind(WORKER_MARKER)
    if at < 0:
        return None
    line = text[at + len(WORKER_MARKER):].split("\n", 1)[0]
    try:
        payload = json.loads(line)
        kind = _KINDS.get(payload.get("kind"), MatchRuntimeError)
        return kind(str(payload["code"]), str(payload["message"]), line=payload.get("line"),
                    column=payload.get("column"), sql=payload.get("sql"),
                    length=int(payload.get("length") or 1))
    except (ValueError, KeyError, TypeError):
        return None
