"""SASE event selection strategies: SKIP TILL NEXT MATCH and SKIP TILL ANY MATCH.

Public API (the semantics are specified in ``docs/semantics.md``, section "Event selection
strategies"):

* :func:`unsupported_reason` -- the analysis layer calls it to reject pattern shapes these strategies
  do not support, with a message for the user.
* :func:`make_engine` -- build the engine for one partition (:class:`NfaEngine` for SKIP TILL NEXT
  MATCH, :class:`PostponingEngine` for SKIP TILL ANY MATCH by default).
* :func:`compile_pattern` -- the flat form both engines run on (:class:`SasePattern`).

Supported shape: a sequence of *components*, each a primary variable matched once (``A``) or
quantified (``A+``, ``A*``, ``A?``, ``A{n,m}``, greedy or reluctant, optionally inside ``{- -}``),
with negations ``!B`` between components. Every positive variable occurs once.

The engines live in :mod:`sparkcep.sase_nfa` (SASE+ NFA^b: runs over a shared, structurally shared
match buffer, run merging, window pruning) and :mod:`sparkcep.sase_postpone` (SASE++ postponing:
one shared per-variable candidate structure over the window, match-dependent conditions checked
while enumerating).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

import numpy as np

from sparkcep.errors import InternalError, MatchRuntimeError
from sparkcep.matching import (
    Condition,
    Match,
    MatchEvent,
    MatchSpec,
    RowBlock,
    RowsPerMatch,
    SkipMode,
    Strategy,
    UnmatchedRow,
)
from sparkcep import rowpattern as rp

__all__ = [
    "SaseComponent",
    "SasePattern",
    "compile_pattern",
    "unsupported_reason",
    "make_engine",
    "NfaEngine",
    "PostponingEngine",
]

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
        if p == len(comps) or not any(c.min > 0 for c in comps[p:]):
            raise _Unsupported(
                "a negation needs a mandatory (not optional) pattern element after it; "
                "a trailing negation would keep every match pending until the window closes"
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
        _compile(spec.pattern)
    except _Unsupported as exc:
        return f"{where}: {exc}"
    return None


# ---------------------------------------------------------------------------------------------
# Shared runtime pieces
# ---------------------------------------------------------------------------------------------


class RowStore:
    """The columns and ORDER BY keys of the rows an engine may still read (batches are kept by
    reference and dropped once every row in them is older than the oldest row still needed)."""

    def __init__(self) -> None:
        self.offsets: list[int] = []
        self.blocks: list[RowBlock] = []
        self.keys: list = []  # per block: list of keys (Python numbers) or None

    def add(self, offset: int, block: RowBlock) -> None:
        self.offsets.append(offset)
        self.blocks.append(block)
        self.keys.append(None if block.order_key is None else block.order_key.tolist())

    def _locate(self, row: int) -> tuple[int, int]:
        i = bisect_right(self.offsets, row) - 1
        return i, row - self.offsets[i]

    def value(self, column: int, row: int):
        i, j = self._locate(row)
        return self.blocks[i].columns[column][j]

    def key(self, row: int):
        i, j = self._locate(row)
        keys = self.keys[i]
        return 0 if keys is None else keys[j]

    def prune(self, oldest_needed: int) -> None:
        """Forget blocks whose rows are all older than ``oldest_needed``."""
        drop = 0
        while drop + 1 < len(self.offsets) and self.offsets[drop + 1] <= oldest_needed:
            drop += 1
        if drop:
            del self.offsets[:drop], self.blocks[:drop], self.keys[:drop]


class Ctx:
    """A MatchContext over a run's selected rows (``rows``/``labels``, in row order) plus the
    candidate ``row`` tentatively mapped to ``var``. ``match_number`` is 0 under NEXT/ANY: the
    number of a match is only known once it is reported."""

    __slots__ = ("row", "var", "match_number", "_rows", "_labels", "_store")

    def __init__(self, store: RowStore, rows: Sequence[int], labels: Sequence[int], row: int, var: int):
        self._store = store
        self._rows = rows
        self._labels = labels
        self.row = row
        self.var = var
        self.match_number = 0

    def mapped_rows(self, variables: frozenset[int] | None) -> Sequence[int]:
        if variables is None:
            return [*self._rows, self.row]
        present = set(self._labels)
        if present <= variables:
            out = list(self._rows)
        elif present.isdisjoint(variables):
            out = []
        else:
            out = [r for r, v in zip(self._rows, self._labels) if v in variables]
        if self.var in variables:
            out.append(self.row)
        return out

    def value(self, column: int, row: int):
        return self._store.value(column, row)

    def label_of(self, row: int) -> int:
        if row == self.row:
            return self.var
        for r, v in zip(self._rows, self._labels):
            if r == row:
                return v
        raise KeyError(row)


def normalize_conditions(
    conditions: Mapping[int, Condition | None] | Sequence[Condition | None] | None, n_vars: int
) -> list[Condition | None]:
    out: list[Condition | None] = [None] * n_vars
    if conditions is None:
        return out
    if isinstance(conditions, Mapping):
        for v, c in conditions.items():
            out[v] = c
    else:
        for v, c in enumerate(conditions):
            out[v] = c
    return out


class EngineBase:
    """What both SASE engines share: pattern, conditions, row store, guards, numbering, output
    order, unmatched rows.

    Output order: a match is *final* at its completion row -- its last row, or for a SKIP TILL
    NEXT MATCH match ending in an open quantifier, the row that closed it (first row out of the
    window) or the end of the partition. Matches are numbered 1, 2, ... in order of (completion,
    first row, rows, components of the rows), which does not depend on how the partition is split
    into batches.
    """

    name = "sase"

    def __init__(self, spec: MatchSpec, conditions=None) -> None:
        self.spec = spec
        self.pat = compile_pattern(spec)
        self.conds = normalize_conditions(conditions, len(spec.variable_names))
        self.store = RowStore()
        self.n_rows = 0
        self.within = spec.within
        self.matches_out = 0
        self.steps = 0
        self.stats = {"runs": 0, "steps": 0, "matches": 0, "peak_runs": 0}
        self.unmatched = spec.rows_per_match is RowsPerMatch.ALL_WITH_UNMATCHED
        self._undecided = 0  # first row not yet reported as matched/unmatched
        self._covered: set[int] = set()
        self._excluded = tuple(c.excluded for c in self.pat.components)
        self._comp_of_var = {c.var: i for i, c in enumerate(self.pat.components)}
        self._pattern_text = spec.pattern_text()

    # -- guards ---------------------------------------------------------------------------------

    def _budget(self, what: str, limit: int) -> MatchRuntimeError:
        return MatchRuntimeError(
            "MATCH_BUDGET_EXCEEDED",
            f"PATTERN ({self._pattern_text}) with {self.spec.strategy.value} needed more than "
            f"{limit:,} {what} in one partition; the number of matches and partial matches can grow "
            "exponentially with the number of rows in the window. Use a tighter WITHIN, a more "
            "selective DEFINE, or SKIP TILL NEXT MATCH.",
        )

    def _add_steps(self, k: int) -> None:
        self.steps += k
        if self.steps > self.spec.max_steps:
            raise self._budget("steps (runs x rows)", self.spec.max_steps)

    # -- output -----------------------------------------------------------------------------------

    def _emit(self, raw: list[tuple[tuple[int, ...], tuple[int, ...]]], out: list[MatchEvent]) -> None:
        """Number and append the matches completed at one completion point."""
        if not raw:
            return
        comp_of = self._comp_of_var
        if len(raw) > 1:
            raw.sort(key=lambda m: (m[0][0], m[0], tuple(comp_of[v] for v in m[1])))
        if self.matches_out + len(raw) > self.spec.max_matches:
            raise self._budget("matches", self.spec.max_matches)
        ex = self._excluded
        any_ex = any(ex)
        for rows, labels in raw:
            self.matches_out += 1
            excl = tuple(ex[comp_of[v]] for v in labels) if any_ex else ()
            out.append(Match(self.matches_out, rows[0], rows, labels, excl))
            if self.unmatched:
                self._covered.update(rows)
        self.stats["matches"] = self.matches_out

    def _emit_unmatched(self, bound: int, out: list[MatchEvent]) -> None:
        """Report rows below ``bound`` that no reported match covers (no future match can)."""
        if not self.unmatched:
            return
        for r in range(self._undecided, bound):
            if r in self._covered:
                self._covered.discard(r)
            else:
                out.append(UnmatchedRow(r))
        self._undecided = max(self._undecided, bound)

    # -- helpers ----------------------------------------------------------------------------------

    def _check_block(self, block: RowBlock) -> None:
        if self.within is not None and block.order_key is None and len(block):
            raise InternalError("WITHIN needs RowBlock.order_key")


def make_engine(
    spec: MatchSpec,
    conditions: Mapping[int, Condition | None] | Sequence[Condition | None] | None = None,
    *,
    engine: str | None = None,
    merge: bool | None = None,
):
    """The engine for one partition of a SKIP TILL NEXT MATCH / SKIP TILL ANY MATCH query.

    Args:
        spec: the query (``spec.strategy`` must be one of the two SASE strategies).
        conditions: the match-dependent condition of each variable id (a sequence indexed by
            variable id, or a mapping), None where a variable has only its row-local mask.
        engine: force ``"nfa"`` (SASE+ NFA^b runs) or ``"postpone"`` (SASE++ postponing; SKIP TILL
            ANY MATCH only). Default: NFA^b for NEXT, postponing for ANY.
        merge: NFA^b run merging (default: on when no variable has a match-dependent condition,
            the only case in which two runs in the same state are provably equivalent).
    """
    from sparkcep.sase_nfa import NfaEngine
    from sparkcep.sase_postpone import PostponingEngine

    if spec.strategy not in _SASE:
        raise InternalError(f"make_engine handles the SASE strategies, not {spec.strategy}")
    if engine is None:
        engine = "postpone" if spec.strategy is Strategy.SKIP_TILL_ANY_MATCH else "nfa"
    if engine == "nfa":
        return NfaEngine(spec, conditions, merge=merge)
    if engine == "postpone":
        if spec.strategy is not Strategy.SKIP_TILL_ANY_MATCH:
            raise InternalError("the postponing engine implements SKIP TILL ANY MATCH only")
        return PostponingEngine(spec, conditions)
    raise InternalError(f"unknown engine {engine!r}")


def __getattr__(name: str):  # lazy re-exports (the engine modules import this one)
    if name == "NfaEngine":
        from sparkcep.sase_nfa import NfaEngine

        return NfaEngine
    if name == "PostponingEngine":
        from sparkcep.sase_postpone import PostponingEngine

        return PostponingEngine
    raise AttributeError(name)
