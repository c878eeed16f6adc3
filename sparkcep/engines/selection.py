"""Choosing the matching engine for a query.

Strict contiguity (the SQL standard) runs on ``engines.standard.regex_path`` when every condition
is row-local and the pattern is one a regex engine runs with the standard's preferment (in a
window, R020: ``engines.standard.window_regex`` where it finds the window's matches exactly), else
on ``engines.standard.matcher``; the SASE event selection strategies run on ``engines.sase``: NFA^b
runs with a shared match buffer (SKIP TILL NEXT MATCH), postponed result construction (SKIP TILL
ANY MATCH); a trailing negation (``PATTERN (A B !C) WITHIN ...``) wraps either in
``engines.sase.trailing``.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from sparkcep.engines.contract import Condition, Engine, SummaryRequest
from sparkcep.engines.spec import MatchSpec, Strategy
from sparkcep.errors import InternalError

_SASE = (Strategy.SKIP_TILL_NEXT_MATCH, Strategy.SKIP_TILL_ANY_MATCH)


def unsupported_reason(spec: MatchSpec) -> str | None:
    """Why the engine for ``spec``'s strategy cannot run its pattern, or None."""
    if spec.strategy is Strategy.STRICT_CONTIGUITY:
        return None
    from sparkcep.engines.sase.pattern import unsupported_reason as sase_unsupported_reason

    return sase_unsupported_reason(spec)


def make_engine(
    spec: MatchSpec, conditions: dict[int, Condition], summary: SummaryRequest | None = None
) -> Engine:
    """The engine for one partition. With ``summary``, an engine that can may return ONE ROW PER
    MATCH results column-wise (``MatchSummaries``) instead of one ``Match`` each."""
    if spec.strategy is Strategy.STRICT_CONTIGUITY:
        from sparkcep.engines.standard.regex_path import RegexMatcher
        from sparkcep.engines.standard.regex_translation import regex_eligible

        if spec.window is None and regex_eligible(spec, has_conditions=bool(conditions)):
            return RegexMatcher(spec, summary=summary)
        if spec.window is not None:
            from sparkcep.engines.standard.window_regex import WindowRegexMatcher, window_fast_reason

            if window_fast_reason(spec, has_conditions=bool(conditions)) is None:
                return WindowRegexMatcher(spec, summary=summary)
        from sparkcep.engines.standard.matcher import RowPatternMatcher

        return RowPatternMatcher(spec, conditions)
    return make_sase_engine(spec, conditions)


def make_sase_engine(
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
    from sparkcep.engines.sase.nfa import NfaEngine
    from sparkcep.engines.sase.postponing import PostponingEngine

    if spec.strategy not in _SASE:
        raise InternalError(f"make_sase_engine handles the SASE strategies, not {spec.strategy}")
    if engine is None:
        engine = "postpone" if spec.strategy is Strategy.SKIP_TILL_ANY_MATCH else "nfa"
    if engine == "nfa":
        inner = NfaEngine(spec, conditions, merge=merge)
    elif engine == "postpone":
        if spec.strategy is not Strategy.SKIP_TILL_ANY_MATCH:
            raise InternalError("the postponing engine implements SKIP TILL ANY MATCH only")
        inner = PostponingEngine(spec, conditions)
    else:
        raise InternalError(f"unknown engine {engine!r}")
    if inner.pat.trailing:  # PATTERN (A B !C): the positive part's matches, filtered
        from sparkcep.engines.sase.trailing import TrailingNegationEngine

        return TrailingNegationEngine(inner, spec)
    return inner
