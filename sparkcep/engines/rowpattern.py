"""The row pattern IR: a frozen, location-free tree over variable ids.

Analysis lowers the dialect's PATTERN tree (``dialect.expressions.RowPattern``) to this IR after
every user-facing check has passed; from here on a malformed tree is a bug, not a user error.
PERMUTE is kept as its own node (engines expand it in lexicographic order of its items, as
SQL:2016 prescribes); groups are gone.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True)
class Label:
    """Match one row as primary variable ``var`` (an id into the variable table)."""

    var: int


@dataclass(frozen=True)
class Empty:
    """The empty pattern ``()``: matches no rows."""


@dataclass(frozen=True)
class Anchor:
    """``^`` (``start=True``: before the first row of the partition) or ``$`` (after the last)."""

    start: bool


@dataclass(frozen=True)
class Concat:
    items: tuple["Pattern", ...]


@dataclass(frozen=True)
class Alternation:
    """Alternatives in preference order (left first)."""

    items: tuple["Pattern", ...]


@dataclass(frozen=True)
class Permute:
    """``PERMUTE(items)``: every ordering, preferred in lexicographic order of item positions."""

    items: tuple["Pattern", ...]


@dataclass(frozen=True)
class Exclusion:
    """``{- pattern -}``: rows matched inside are not output under ALL ROWS PER MATCH."""

    pattern: "Pattern"


@dataclass(frozen=True)
class Quantified:
    pattern: "Pattern"
    min: int
    max: int | None  # None = unbounded
    greedy: bool = True


@dataclass(frozen=True)
class Negation:
    """``!X`` (CEP): no row satisfying variable ``var``'s condition lies between the rows matched
    by the neighbouring pattern elements."""

    var: int


Pattern = Union[Label, Empty, Anchor, Concat, Alternation, Permute, Exclusion, Quantified, Negation]


def variables_of(pattern: Pattern) -> set[int]:
    """The variable ids that can label a row in ``pattern`` (negated variables excluded)."""
    if isinstance(pattern, Label):
        return {pattern.var}
    if isinstance(pattern, (Concat, Alternation, Permute)):
        return set().union(*(variables_of(item) for item in pattern.items))
    if isinstance(pattern, (Exclusion, Quantified)):
        return variables_of(pattern.pattern)
    return set()


def can_match_empty(pattern: Pattern) -> bool:
    """True when ``pattern`` can match zero rows (anchors and negations consume none)."""
    if isinstance(pattern, Label):
        return False
    if isinstance(pattern, (Empty, Anchor, Negation)):
        return True
    if isinstance(pattern, (Concat, Permute)):
        return all(can_match_empty(item) for item in pattern.items)
    if isinstance(pattern, Alternation):
        return any(can_match_empty(item) for item in pattern.items)
    if isinstance(pattern, Exclusion):
        return can_match_empty(pattern.pattern)
    if isinstance(pattern, Quantified):
        return pattern.min == 0 or can_match_empty(pattern.pattern)
    raise TypeError(f"not a pattern node: {pattern!r}")


def to_text(pattern: Pattern, names: list[str] | None = None) -> str:
    """Render the IR in PATTERN syntax (for messages, EXPLAIN and golden tests)."""

    def name(var: int) -> str:
        return names[var] if names else f"v{var}"

    def render(p: Pattern) -> str:
        if isinstance(p, Label):
            return name(p.var)
        if isinstance(p, Empty):
            return "()"
        if isinstance(p, Anchor):
            return "^" if p.start else "$"
        if isinstance(p, Negation):
            return "!" + name(p.var)
        if isinstance(p, Concat):
            return " ".join(wrap(i, Alternation) for i in p.items)
        if isinstance(p, Alternation):
            return " | ".join(render(i) for i in p.items)
        if isinstance(p, Permute):
            return "PERMUTE(" + ", ".join(render(i) for i in p.items) + ")"
        if isinstance(p, Exclusion):
            return "{- " + render(p.pattern) + " -}"
        if isinstance(p, Quantified):
            inner = render(p.pattern)
            if not isinstance(p.pattern, (Label, Empty, Permute, Exclusion)):
                inner = f"({inner})"
            if (p.min, p.max) == (0, None):
                q = "*"
            elif (p.min, p.max) == (1, None):
                q = "+"
            elif (p.min, p.max) == (0, 1):
                q = "?"
            elif p.max is None:
                q = f"{{{p.min},}}"
            elif p.min == p.max:
                q = f"{{{p.min}}}"
            else:
                q = f"{{{p.min},{p.max}}}"
            return inner + q + ("" if p.greedy else "?")
        raise TypeError(f"not a pattern node: {p!r}")

    def wrap(p: Pattern, parenthesize: type) -> str:
        text = render(p)
        return f"({text})" if isinstance(p, parenthesize) else text

    return render(pattern)


def has_anchor(pattern) -> bool:
    """Whether ``^`` or ``$`` occurs anywhere in ``pattern``."""
    if isinstance(pattern, Anchor):
        return True
    for value in vars(pattern).values():
        for item in value if isinstance(value, tuple) else (value,):
            if dataclasses.is_dataclass(item) and type(item).__module__ == __name__ and has_anchor(item):
                return True
    return False
