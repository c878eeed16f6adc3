"""Text edits by source position.

The rewrite never regenerates SQL it does not have to change: it copies the user's text and
replaces only the spans that need a new form. ``Splicer`` collects (start, end, replacement)
edits over one source string and applies them; edits must not overlap partially (an edit inside
another edit's span is dropped with the outer one, which owns the replacement text).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sparkcep import dialect
from sparkcep.errors import InternalError


@dataclass
class Splicer:
    source: str
    edits: list[tuple[int, int, str]] = field(default_factory=list)

    def replace(self, start: int, end: int, text: str) -> None:
        self.edits.append((start, end, text))

    def render(self, start: int = 0, end: int | None = None) -> str:
        """The source between ``start`` and ``end`` with the edits inside that range applied."""
        end = len(self.source) if end is None else end
        inside = sorted(
            (e for e in self.edits if e[0] >= start and e[1] <= end), key=lambda e: (e[0], -e[1])
        )
        out: list[str] = []
        position = start
        for edit_start, edit_end, text in inside:
            if edit_start < position:
                if edit_end <= position:
                    continue  # nested in an edit already applied
                raise InternalError(f"overlapping edits at {edit_start}..{edit_end}")
            out.append(self.source[position:edit_start])
            out.append(text)
            position = edit_end
        out.append(self.source[position:end])
        return "".join(out)


def quote_identifier(name: str) -> str:
    """A Spark SQL identifier for ``name``, always back-quoted (so no user text can escape it)."""
    return "`" + name.replace("`", "``") + "`"


def quote_string(value: str) -> str:
    """A Spark SQL string literal for ``value``."""
    escaped = value.replace("\\", "\\\\").replace("'", "\\'")
    return f"'{escaped}'"


def aliased(replacement: str, clause, splicer: Splicer) -> str:
    """``replacement`` under the alias of ``clause`` (a MATCH_RECOGNIZE clause) as the user wrote
    it, if any."""
    alias = clause.args.get("alias")
    if alias is not None:
        alias_text = splicer.render(*dialect.span(alias)).strip()
        if alias_text[:2].upper() == "AS" and alias_text[2:3].isspace():
            alias_text = alias_text[2:].strip()
        replacement += " AS " + alias_text
    return replacement


def depth(node) -> int:
    """How many ancestors ``node`` (a sqlglot expression) has: clauses and windows nested in
    another's input are compiled, and their text spliced, first (deepest first)."""
    levels = 0
    while node.parent is not None:
        node, levels = node.parent, levels + 1
    return levels
