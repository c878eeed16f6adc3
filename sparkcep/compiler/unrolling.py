"""Unrolling a Kleene block: ``LAST(X.e, k)`` inside X's own DEFINE made row-local.

Under strict contiguity, when pattern variable X occurs once in PATTERN, as ``X`` or ``X{n,m}``
with no repeated group, PERMUTE or exclusion around it, the rows a match maps to X are one block
of consecutive rows. At the block's i-th row (1-based), RUNNING ``LAST(X.e, k)`` with k >= 1 is
the row k rows back when k < i, and NULL when k >= i: ``PREV(e, k)`` or NULL. So

    X{n,m}   becomes   X#1 X#2 ... X#K X#rest{max(n-K, 0), m-K}

(K the largest such offset in X's DEFINE; the copies past the n-th are optional, nested so that
greedy and reluctant preferment stay as they were), every copy keeps the name X, and each
copy's DEFINE is X's with ``LAST(X.e, k)`` replaced by ``lag(e, k)`` or a NULL of e's type. When
that leaves X's DEFINE row-local, Catalyst computes it as a mask and the pattern can run on the
regex fast path. Example: the rising streak ``B{3,}`` with ``B.price > LAST(B.price, 1)``
becomes ``B#1 B#rest{2,}`` with DEFINE ``TRUE`` for B#1 (``LAST`` is NULL there) and
``price > lag(price, 1)`` for B#rest.

Names resolve to all copies (``Scope.aliases``), so MEASURES, SUBSET, CLASSIFIER, AFTER MATCH
SKIP TO and the other variables' DEFINE see X as before. The rewrite is applied only when X's
DEFINE becomes row-local by it; other cases keep the general matcher.
"""

from __future__ import annotations

from sqlglot import exp

from sparkcep.engines import rowpattern as rp
from sparkcep.compiler.analysis import Analysis
from sparkcep.compiler.lowering import CONST, LOCAL, Lowering
from sparkcep.engines.spec import Strategy

MAX_OFFSET = 4  # a larger K would add more variables than it saves work
REST = None  # block position of the copy that takes the rows after the K-th


def unroll(analysis: Analysis, lowering: Lowering) -> None:
    """Unroll every eligible variable of ``analysis`` in place (pattern, scope, definitions,
    skip target) and tell ``lowering`` each copy's position in its block."""
    if analysis.strategy is not Strategy.STRICT_CONTIGUITY or lowering.window is None:
        return
    for var in range(len(analysis.scope.variables)):
        block = _block_of(analysis.pattern, var)
        condition = analysis.definitions.get(var)
        if block is None or condition is None:
            continue
        offsets = _own_last_offsets(lowering, var, condition)
        if not offsets or max(offsets) > MAX_OFFSET:
            continue
        depth = max(offsets) if block.max is None else min(max(offsets), block.max)
        if not _row_local_when_unrolled(lowering, var, condition):
            continue
        _apply(analysis, lowering, var, block, depth)


def _block_of(pattern: rp.Pattern, var: int) -> rp.Quantified | None:
    """The quantifier ``X{n,m}`` around the only occurrence of ``var`` (``X`` alone counts as
    ``X{1,1}``), if no repeated group, PERMUTE or exclusion encloses it; else None."""
    found: list[tuple[rp.Label, tuple[rp.Pattern, ...]]] = []

    def walk(p: rp.Pattern, ancestors: tuple[rp.Pattern, ...]) -> None:
        if isinstance(p, rp.Label):
            if p.var == var:
                found.append((p, ancestors))
            return
        for child in getattr(p, "items", ()) or ((p.pattern,) if isinstance(p, (rp.Quantified, rp.Exclusion)) else ()):
            walk(child, ancestors + (p,))

    walk(pattern, ())
    if len(found) != 1:
        return None
    label, ancestors = found[0]
    block = rp.Quantified(label, 1, 1, True)
    if ancestors and isinstance(ancestors[-1], rp.Quantified) and ancestors[-1].pattern == label:
        block, ancestors = ancestors[-1], ancestors[:-1]
    for ancestor in ancestors:
        if isinstance(ancestor, (rp.Permute, rp.Exclusion, rp.Negation)):
            return None
        if isinstance(ancestor, rp.Quantified) and (ancestor.max is None or ancestor.max > 1):
            return None
    return block


def _own_last_offsets(lowering: Lowering, var: int, condition: exp.Expression) -> set[int]:
    """The offsets k >= 1 of ``LAST(X.e, k)`` calls over exactly ``var`` in its DEFINE."""
    offsets = set()
    for node in condition.walk():
        call = lowering.call(node)
        if call is None or call.name != "LAST" or call.offset < 1 or call.argument is None:
            continue
        if lowering.references(call.argument) == {frozenset({var})}:
            offsets.add(call.offset)
    return offsets


def _row_local_when_unrolled(lowering: Lowering, var: int, condition: exp.Expression) -> bool:
    saved = lowering.current, dict(lowering.block_position)
    lowering.current, lowering.block_position[var] = var, REST
    try:
        return lowering.classify(condition).what in (CONST, LOCAL)
    except Exception:  # a user error in the DEFINE: lowering reports it later, unrolled or not
        return False
    finally:
        lowering.current, lowering.block_position = saved


def _apply(analysis: Analysis, lowering: Lowering, var: int, block: rp.Quantified, depth: int) -> None:
    scope = analysis.scope
    name = scope.variables[var]
    copies = [var]  # X#1 keeps X's id
    for _ in range(depth - 1 + (block.max is None or block.max > depth)):
        scope.variables.append(name)
        copies.append(len(scope.variables) - 1)
    rest = copies[depth] if len(copies) > depth else None
    everything = frozenset(copies)
    for copy in copies:
        scope.aliases[copy] = everything
        analysis.definitions[copy] = analysis.definitions[var]
        lowering.block_position[copy] = REST if copy == rest else copies.index(copy) + 1
    if analysis.skip_to is not None and var in analysis.skip_to:
        analysis.skip_to = analysis.skip_to | everything

    def from_position(i: int) -> rp.Pattern:
        """The pattern for the block's rows from its i-th on (1-based)."""
        if i > depth:
            low = max(block.min - depth, 0)
            high = None if block.max is None else block.max - depth
            return rp.Quantified(rp.Label(rest), low, high, block.greedy)
        here: rp.Pattern = rp.Label(copies[i - 1])
        if i < depth or rest is not None:
            here = rp.Concat((here, from_position(i + 1)))
        return here if i <= block.min else rp.Quantified(here, 0, 1, block.greedy)

    analysis.pattern = _replace(analysis.pattern, block, from_position(1))


def _replace(pattern: rp.Pattern, old: rp.Pattern, new: rp.Pattern) -> rp.Pattern:
    if pattern is old:
        return new
    if isinstance(pattern, rp.Label) and isinstance(old, rp.Quantified) and old.pattern is pattern:
        return new  # X alone (its block is X{1,1})
    if isinstance(pattern, (rp.Concat, rp.Alternation, rp.Permute)):
        return type(pattern)(tuple(_replace(item, old, new) for item in pattern.items))
    if isinstance(pattern, rp.Quantified):
        return rp.Quantified(_replace(pattern.pattern, old, new), pattern.min, pattern.max, pattern.greedy)
    if isinstance(pattern, rp.Exclusion):
        return rp.Exclusion(_replace(pattern.pattern, old, new))
    return pattern
