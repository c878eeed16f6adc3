"""Source spans of AST nodes.

A span is ``(start, end)``: 0-based character offsets into the text that was parsed (the whole
string given to :func:`dialect.parse`, so offsets stay valid for every statement of a script),
``end`` exclusive, so ``sql[start:end]`` is exactly the node's text (comments and whitespace
*inside* the node are part of it; none outside it are).

Storage: ``node.meta["start"]`` / ``node.meta["end"]`` plus ``node.meta["span"] = True``. The
marker distinguishes our exclusive spans from the positions sqlglot itself writes on a few
leaves (whose ``end`` is inclusive); :func:`span` only trusts marked nodes. Spans survive
``node.copy()`` (meta is copied) and are not part of node equality.

How they are computed (see :mod:`dialect.parser`): while parsing, the parser's expression entry
points (``_parse_primary``, ``_parse_function_call``, ``_parse_bitwise``, ``_parse_table`` ...)
are wrapped to record the token range each returned node consumed; after the statement is
parsed :func:`finalize_spans` walks the tree bottom-up and gives every node the union of its
recorded range, sqlglot's own token position (leaves) and its children's spans. Nodes sqlglot
synthesizes from the same text as their parent (e.g. the ``Is`` inside the ``Not`` of
``x IS NOT NULL``) share the parent's span. Nodes without any source text (built by a rewrite)
have no span.
"""

from __future__ import annotations

from sqlglot import exp

RANGE_KEY = "_cep_range"  # transient, while parsing: (start, end exclusive)


class NoSpanError(LookupError):
    """The node carries no sparkcep source span."""


def set_span(node: exp.Expr, start: int, end: int) -> exp.Expr:
    meta = node.meta
    meta["start"] = start
    meta["end"] = end
    meta["span"] = True
    return node


def has_span(node: exp.Expr) -> bool:
    meta = node._meta
    return bool(meta and meta.get("span"))


def span(node: exp.Expr) -> tuple[int, int]:
    """``(start, end)`` of ``node`` in the parsed text, end exclusive.

    Raises :class:`NoSpanError` (a ``LookupError``) when the node has no source span (e.g. it
    was built programmatically)."""
    meta = node._meta
    if not meta or not meta.get("span"):
        raise NoSpanError(f"{type(node).__name__} node has no source span")
    return meta["start"], meta["end"]


def find_span(node: exp.Expr) -> tuple[int, int] | None:
    """Like :func:`span` but returns None when there is none."""
    meta = node._meta
    if not meta or not meta.get("span"):
        return None
    return meta["start"], meta["end"]


def record(node: exp.Expr, start: int, end: int) -> None:
    """Record (union) a consumed token range on ``node`` while parsing."""
    meta = node.meta
    old = meta.get(RANGE_KEY)
    if old is None:
        meta[RANGE_KEY] = (start, end)
    else:
        meta[RANGE_KEY] = (min(old[0], start), max(old[1], end))


def finalize_spans(root: exp.Expr) -> None:
    """Turn recorded ranges + leaf positions into exact spans for every node under ``root``."""
    # post-order without recursion
    order: list[exp.Expr] = []
    stack: list[exp.Expr] = [root]
    while stack:
        node = stack.pop()
        order.append(node)
        for child in node.iter_expressions():
            stack.append(child)

    for node in reversed(order):
        meta = node._meta
        start = end = None
        if meta:
            if meta.get("span"):
                start, end = meta["start"], meta["end"]
            else:
                rng = meta.pop(RANGE_KEY, None)
                if rng is not None:
                    start, end = rng
                elif isinstance(meta.get("start"), int) and isinstance(meta.get("end"), int):
                    # sqlglot's own token position, end inclusive
                    start, end = meta["start"], meta["end"] + 1
        if not (meta and meta.get("span")):
            for child in node.iter_expressions():
                cmeta = child._meta
                if cmeta and cmeta.get("span"):
                    cs, ce = cmeta["start"], cmeta["end"]
                    if start is None or cs < start:
                        start = cs
                    if end is None or ce > end:
                        end = ce
            if start is not None and end is not None:
                set_span(node, start, end)
            elif meta:
                meta.pop("start", None)
                meta.pop("end", None)

    # Nodes synthesized without text of their own (e.g. the Literal '10' sqlglot makes of
    # INTERVAL 10 SECONDS) share their parent's span.
    for node in order:
        if not has_span(node) and node.parent is not None and has_span(node.parent):
            pmeta = node.parent.meta
            set_span(node, pmeta["start"], pmeta["end"])
