"""Choosing the matching engine for a query.

Strict contiguity (the SQL standard) runs on ``sparkcep.regex_engine`` when every condition is
row-local and the pattern is one a regex engine runs with the standard's preferment, else on
``sparkcep.matcher``; the SASE event selection
strategies run on ``sparkcep.sase`` (NFA^b runs with a shared match buffer, or postponed result
construction for SKIP TILL ANY MATCH).
"""

from __future__ import annotations

from sparkcep.matching import Condition, Engine, MatchSpec, Strategy, SummaryRequest


def unsupported_reason(spec: MatchSpec) -> str | None:
    """Why the engine for ``spec``'s strategy cannot run its pattern, or None."""
    if spec.strategy is Strategy.STRICT_CONTIGUITY:
        return None
    from sparkcep import sase

    return sase.unsupported_reason(spec)


def make_engine(
    spec: MatchSpec, conditions: dict[int, Condition], summary: SummaryRequest | None = None
) -> Engine:
    """The engine for one partition. With ``summary``, an engine that can may return ONE ROW PER
    MATCH results column-wise (``MatchSummaries``) instead of one ``Match`` each."""
    if spec.strategy is Strategy.STRICT_CONTIGUITY:
        from sparkcep.regex_engine import RegexMatcher, regex_eligible

        if regex_eligible(spec, has_conditions=bool(conditions)):
            return RegexMatcher(spec, summary=summary)
        from sparkcep.matcher import RowPatternMatcher

        return RowPatternMatcher(spec, conditions)
    from sparkcep import sase

    return sase.make_engine(spec, conditions)
