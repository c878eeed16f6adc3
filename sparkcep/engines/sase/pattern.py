"""SASE event selection strategies (SKIP TILL NEXT MATCH, SKIP TILL ANY MATCH): the pattern shapes
they run, and the flat form both engines run on.

* :func:`unsupported_reason` -- the compiler calls it to reject pattern shapes these strategies
  do not support, with a message for the user (semantics: ``docs/semantics.md``, "Event selection
  strategies").
* :func:`compile_pattern` -- the flat form (:class:`SasePattern`).

Supported shape: a sequence of *components*, each a primary variable matched once (``A``) or
quantified (``A+``, ``A*``, ``A?``, ``A{n,m}``, greedy or reluctant, optionally inside ``{- -}``),
with negations ``!B`` between components. Every positive variable occurs once.

The engines live in :mod:`sparkcep.engines.sase.nfa` (SASE+ NFA^b: runs over a shared,
structurally shared match buffer, run merging, window pruning) and
:mod:`sparkcep.engines.sase.postponing` (SASE++ postponing: one shared per-variable candidate
structure over the window, match-dependent conditions checked while enumerating);
:mod:`sparkcep.engines.selection` chooses between them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.spec import MatchSpec, SkipMode, Strategy
from sparkcep.errors import InternalError

_SASE = (Strategy.SKIP_TILL_NEXT_MATCH, Strategy.SKIP_TILL_ANY_MATCH)


# ---------------------------------------------------------------------------------------------
# Pattern compilation
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SaseComponent:
    """One positive pattern element: ``var`` selects between ``min`` and ``max`` rows
    (``max=None``: unbounded). A singleton is ``min == max == 1``."""

    var: int
    min: int = 1
    max: int | None = 1
    excluded: bool = False

    @property
    def kleene(self) -> bool:
        return self.max is None or self.max > 1

    def can_take(self, n: int) -> bool:
        return self.max is None or n < self.max


@dataclass(frozen=True)
class SasePattern:
    """The flat form of a supported pattern.

    ``negations[p]`` are the variables negated between component ``p - 1`` and component ``p``
    (``p`` in ``1 .. len(components) - 1``)."""

    components: tuple[SaseComponent, ...]
    negations: tuple[tuple[int, ...], ...]
    # derived ------------------------------------------------------------------------------
    accepting_from: tuple[bool, ...] = field(default=())  # all components after k are optional
    start_components: tuple[int, ...] = field(default=())  # components a match can start with
    neg_list: tuple[tuple[int, int], ...] = field(default=())  # (position p, var), flag bit = index
    neg_bits_between: dict = field(default_factory=dict)  # (k, j) -> bitmask of negations in (k, j]
    neg_watch: tuple[tuple[tuple[int, int], ...], ...] = field(default=())  # k -> ((bit, var), ...)
    # variables negated after the last component (``PATTERN (A B !C)``): the engines match the
    # positive part, ``sparkcep.engines.sase.trailing`` applies these
    trailing: tuple[int, ...] = ()

    @property
    def has_negation(self) -> bool:
        return bool(self.neg_list)


class _Unsupported(Exception):
    pass


def _components_of(pattern: rp.Pattern) -> list:
    """Flatten to a list of SaseComponent | ('neg', var); raise _Unsupported with a reason."""
    items = list(pattern.items) if isinstance(pattern, rp.Concat) else [pattern]
    out: list = []
    for item in items:
        out.extend(_element(item))
    return out


def _element(p: rp.Pattern, excluded: bool = False) -> list:
    if isinstance(p, rp.Concat):
        out: list = []
        for item in p.items:
            out.extend(_element(item, excluded))
        return out
    if isinstance(p, rp.Label):
        return [SaseComponent(p.var, 1, 1, excluded)]
    if isinstance(p, rp.Negation):
        if excluded:
            raise _Unsupported("a negation inside {- -} selects no rows to exclude")
        return [("neg", p.var)]
    if isinstance(p, rp.Exclusion):
        return _element(p.pattern, True)
    if isinstance(p, rp.Quantified):
        inner = p.pattern
        ex = excluded
        if isinstance(inner, rp.Exclusion):
            ex, inner = True, inner.pattern
        if not isinstance(inner, rp.Label):
            raise _Unsupported(
                "a quantifier may only apply to a single pattern variable (e.g. B+), not to a group"
            )
        if p.max == 0:
            raise _Unsupported("a quantifier with an upper bound of 0 selects nothing")
        return [SaseComponent(inner.var, p.min, p.max, ex)]
    if isinstance(p, rp.Alternation):
        raise _Unsupported("alternation (|) is not supported; write one query per alternative")
    if isinstance(p, rp.Permute):
        raise _Unsupported("PERMUTE is not supported; write one query per order")
    if isinstance(p, rp.Anchor):
        raise _Unsupported("anchors (^, $) are not supported")
    if isinstance(p, rp.Empty):
        raise _Unsupported("the empty pattern () is not supported")
    raise InternalError(f"not a pattern node: {p!r}")


def _compile(pattern: rp.Pattern) -> SasePattern:
    elems = _components_of(pattern)
    comps: list[SaseComponent] = []
    negs: list[list[int]] = [[]]
    for e in elems:
        if isinstance(e, SaseComponent):
            comps.append(e)
            negs.append([])
        else:
            negs[-1].append(e[1])
    # negs[i] = negations before component i (i = 0 .. len(comps)); negs[len] = trailing
    if not comps:
        raise _Unsupported("the pattern must contain at least one pattern variable")
    seen: set[int] = set()
    for c in comps:
        if c.var in seen:
            raise _Unsupported(
                "each pattern variable may appear only once in the PATTERN; "
                "define a second variable with the same condition"
            )
        seen.add(c.var)
    if all(c.min == 0 for c in comps):
        raise _Unsupported("the pattern can match zero rows; at least one element must be mandatory")
    for p, vs in enumerate(negs):
        if not vs:
            continue
        if p == 0 or not any(c.min > 0 for c in comps[:p]):
            raise _Unsupported(
                "a negation needs a mandatory (not optional) pattern element before it; "
                "a leading negation has no row to measure 'between' from"
            )
        if p == len(comps):
            continue  # a trailing negation (the pattern's last elements)
        if not any(c.min > 0 for c in comps[p:]):
            raise _Unsupported(
                "a negation needs a mandatory (not optional) pattern element after it, or must "
                "be the last element of the pattern (a trailing negation, with WITHIN)"
            )
    n = len(comps)
    accepting = tuple(all(c.min == 0 for c in comps[k + 1 :]) for k in range(n))
    starts = []
    for j in range(n):
        starts.append(j)
        if comps[j].min > 0:
            break
    neg_list = tuple((p, v) for p in range(n) for v in negs[p])
    between: dict = {}
    for k in range(-1, n):
        for j in range(k + 1, n):
            mask = 0
            for bit, (p, _v) in enumerate(neg_list):
                if k < p <= j:
                    mask |= 1 << bit
            between[(k, j)] = mask
    watch = []
    for k in range(n):
        # negations a run at component k must watch: positions up to the next mandatory component
        m = next((j for j in range(k + 1, n) if comps[j].min > 0), n - 1)
        watch.append(tuple((bit, v) for bit, (p, v) in enumerate(neg_list) if k < p <= m))
    return SasePattern(
        tuple(comps),
        tuple(tuple(v) for v in negs[: n]),
        accepting,
        tuple(starts),
        neg_list,
        between,
        tuple(watch),
        tuple(negs[n]),
    )


def compile_pattern(spec: MatchSpec) -> SasePattern:
    """The flat form of ``spec.pattern``; raises InternalError when unsupported (analysis should
    have called :func:`unsupported_reason` first)."""
    try:
        return _compile(spec.pattern)
    except _Unsupported as exc:
        raise InternalError(f"unsupported SASE pattern reached the engine: {exc}") from None


def unsupported_reason(spec: MatchSpec) -> str | None:
    """Why ``spec`` cannot run under its event selection strategy, or None when it can.

    Only SKIP TILL NEXT MATCH and SKIP TILL ANY MATCH are judged here (strict contiguity is the
    standard matcher's business: None)."""
    if spec.strategy not in _SASE:
        return None
    text = spec.pattern_text()
    where = f"PATTERN ({text}) with {spec.strategy.value}"
    if spec.skip in (SkipMode.TO_FIRST, SkipMode.TO_LAST):
        return (
            f"AFTER MATCH SKIP {spec.skip.value} is not supported with {spec.strategy.value}: "
            "this strategy reports every match (runs start at every row), so there is no single "
            "next match to skip to; use AFTER MATCH SKIP PAST LAST ROW or TO NEXT ROW "
            "(both report every match)"
        )
    try:
        pat = _compile(spec.pattern)
    except _Unsupported as exc:
        return f"{where}: {exc}"
    if pat.trailing and spec.within is None:
        return (f"{where}: a trailing negation needs WITHIN: a match is reported only once no "
                "row can break it any more, which without a window is never before the end of "
                "the partition (and never over a stream)")
    return None
