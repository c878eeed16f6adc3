"""Pattern matching over imprecise timestamps: each row occurred at one of the equally likely
integer time points of its interval ``[time_lo, time_hi]`` (Zhang, Diao, Immerman, "Recognizing
Patterns in Streams with Imprecise Timestamps", PVLDB 2010; Kleene closure and the confidence
threshold from Zhang, Diao, Immerman, "Optimizing Expensive Queries in Complex Event Processing",
section 5.3 and Appendix A). Semantics: ``docs/semantics.md``, "Imprecise timestamps".

Interface (used by the compiler and the runtime):

* ``UncertainMatch(Match)``: ``confidence: float``, ``time_start_lo``, ``time_start_hi``,
  ``time_end_lo``, ``time_end_hi`` (ints: the possible time points of the match's first and of its
  last event, over the worlds in which it is a match), ``confidence_exact: Fraction | None``.
  ``number`` is the match number in output order (1, 2, ...); ``start`` its first row.
* ``unsupported_reason(spec: MatchSpec) -> str | None``: why a pattern/options cannot run over
  imprecise timestamps (all three strategies are judged), or None.
* ``make_uncertain_engine(spec, conditions, *, min_confidence=0.0, window=None) -> Engine``
  (module ``engine``): the event-based engine. ``conditions``: the match-dependent DEFINE
  callables per variable id (a sequence or mapping, None for none), as the SASE engines take
  them -- they are supported, no flag needed. ``window``: WITHIN in time points (a world's match
  must satisfy ``last time - first time < window``; None = ``spec.within``). Rows are fed as
  ``RowBlock`` with ``time_lo``/``time_hi`` set, sorted by ``time_lo``; every ``feed``/``finish``
  returns ``UncertainMatch`` objects (never ``UnmatchedRow``/``MatchSummaries``). A match is
  reported when its confidence is > 0 and >= ``min_confidence``. Row indices are absolute
  positions in the partition.
* ``make_uncertain_engine(..., order="selectivity")``: selectivity-order evaluation (PVLDB 2010,
  section 5.3) for sequences of single rows under skip till any match without negation; same
  results as the default ``order="query"``, faster when the last components are rare (see
  ``UncertainEngine``).
* ``make_point_engine(...)``: the same contract, point-based evaluation (the paper's baseline;
  for benchmarks and cross-checks).

``UncertainMatch.rows`` lists the rows in match (time) order, which need not be increasing row
indices (a row that arrived later can have occurred earlier).

May import: ``sparkcep.engines`` (contract, spec, rowpattern, run_context, budgets),
``sparkcep.errors``.
"""

from sparkcep.engines.uncertain.engine import make_point_engine, make_uncertain_engine
from sparkcep.engines.uncertain.pattern import unsupported_reason
from sparkcep.engines.uncertain.result import UncertainMatch

__all__ = ["UncertainMatch", "make_point_engine", "make_uncertain_engine", "unsupported_reason"]
