"""The pattern shapes the imprecise-timestamp engines run, and their flat form.

Supported (Zhang, Diao, Immerman, PVLDB 2010 support SEQ of single events; Kleene closure follows
"Optimizing Expensive Queries in Complex Event Processing", Appendix A; negation is ours, see
``docs/semantics.md``, "Imprecise timestamps"): a sequence of *components*, each a primary
variable matched once (``A``) or by Kleene closure (``B+``, greedy or reluctant: every match is
reported, so the two are the same), optionally inside ``{- -}``, with negations ``!N`` between
components. Every positive variable occurs once, the first and the last component are single
variables... except that a pattern may *start* with ``B+``; it may not *end* with one (no event
would close the match).
"""

from __future__ import annotations

from dataclasses import dataclass

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.spec import MatchSpec, RowsPerMatch, SkipMode
from sparkcep.errors import InternalError


@dataclass(frozen=True)
class Component:
    """One positive element: ``var`` selects one row, or (``kleene``) one or more rows."""

    var: int
    kleene: bool = False
    excluded: bool = False


@dataclass(frozen=True)
class UncertainPattern:
    """``components`` in pattern order; ``negations[k]`` are the variables negated between
    component ``k - 1`` and component ``k`` (``negations[0]`` is always empty)."""

    components: tuple[Component, ...]
    negations: tuple[tuple[int, ...], ...]

    @property
    def variables(self) -> tuple[int, ...]:
        return tuple(c.var for c in self.components)


class _Unsupported(Exception):
    pass


def _flatten(p: rp.Pattern, excluded: bool, out: list) -> None:
    if isinstance(p, rp.Concat):
        for item in p.items:
            _flatten(item, excluded, out)
    elif isinstance(p, rp.Label):
        out.append(Component(p.var, False, excluded))
    elif isinstance(p, rp.Negation):
        if excluded:
            raise _Unsupported("a negation inside {- -} selects no rows to exclude")
        out.append(("neg", p.var))
    elif isinstance(p, rp.Exclusion):
        _flatten(p.pattern, True, out)
    elif isinstance(p, rp.Quantified):
        inner, ex = p.pattern, excluded
        if isinstance(inner, rp.Exclusion):
            inner, ex = inner.pattern, True
        if not isinstance(inner, rp.Label):
            raise _Unsupported("a quantifier may only apply to a single pattern variable (B+)")
        if (p.min, p.max) != (1, None):
            raise _Unsupported(
                "the only quantifier supported with imprecise timestamps is Kleene closure (B+)"
            )
        out.append(Component(inner.var, True, ex))
    elif isinstance(p, rp.Alternation):
        raise _Unsupported("alternation (|) is not supported; write one query per alternative")
    elif isinstance(p, rp.Permute):
        raise _Unsupported("PERMUTE is not supported; write one query per order")
    elif isinstance(p, rp.Anchor):
        raise _Unsupported("anchors (^, $) are not supported")
    elif isinstance(p, rp.Empty):
        raise _Unsupported("the empty pattern () is not supported")
    else:
        raise InternalError(f"not a pattern node: {p!r}")


def _compile(pattern: rp.Pattern) -> UncertainPattern:
    items: list = []
    _flatten(pattern, False, items)
    comps: list[Component] = []
    negs: list[list[int]] = [[]]
    for item in items:
        if isinstance(item, Component):
            comps.append(item)
            negs.append([])
        else:
            negs[-1].append(item[1])
    if not comps:
        raise _Unsupported("the pattern must contain at least one pattern variable")
    if len({c.var for c in comps}) != len(comps):
        raise _Unsupported(
            "each pattern variable may appear only once in the PATTERN; "
            "define a second variable with the same condition"
        )
    if negs[0]:
        raise _Unsupported("a negation needs a pattern element before it")
    if negs[-1]:
        raise _Unsupported("a negation needs a pattern element after it")
    if comps[-1].kleene:
        raise _Unsupported(
            "the pattern may not end with Kleene closure (B+): no event would close the match; "
            "add the event that ends it"
        )
    return UncertainPattern(tuple(comps), tuple(tuple(v) for v in negs[: len(comps)]))


def compile_pattern(spec: MatchSpec) -> UncertainPattern:
    """The flat form of ``spec.pattern``; InternalError when unsupported (analysis calls
    :func:`unsupported_reason` first)."""
    try:
        return _compile(spec.pattern)
    except _Unsupported as exc:
        raise InternalError(f"unsupported pattern reached the uncertain engine: {exc}") from None


def unsupported_reason(spec: MatchSpec) -> str | None:
    """Why ``spec`` cannot run over imprecise timestamps, or None when it can (all three event
    selection strategies are judged; match-dependent DEFINE conditions are supported)."""
    where = f"PATTERN ({spec.pattern_text()}) over imprecise timestamps"
    if spec.skip in (SkipMode.TO_FIRST, SkipMode.TO_LAST):
        return (
            f"{where}: AFTER MATCH SKIP {spec.skip.value} is not supported: every match is "
            "reported with its confidence, so there is no single next match to skip to; use "
            "AFTER MATCH SKIP PAST LAST ROW or TO NEXT ROW (both report every match)"
        )
    if spec.rows_per_match is RowsPerMatch.ALL_WITH_UNMATCHED:
        return (
            f"{where}: WITH UNMATCHED ROWS is not supported: whether a row is matched depends on "
            "the possible world; use ONE ROW PER MATCH or ALL ROWS PER MATCH"
        )
    if spec.within is not None and (spec.within != int(spec.within) or spec.within < 1):
        return f"{where}: WITHIN must be a positive whole number of time points"
    try:
        _compile(spec.pattern)
    except _Unsupported as exc:
        return f"{where}: {exc}"
    return None
