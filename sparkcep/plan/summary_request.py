"""What the output of a match needs of each match when it can be built column-wise
(``engines.contract.SummaryRequest``): decided from the plan's measure components, for the
runner (``runtime.partition_runner``) and for ``explain``."""

from __future__ import annotations

from sparkcep.engines.contract import SummaryRequest
from sparkcep.plan.expressions import Aggregate, Classifier, MatchNumber, Navigation
from sparkcep.plan.match_plan import MatchPlan


def summary_request(plan: MatchPlan) -> SummaryRequest | None:
    """What the output needs of each match, if it can be built column-wise: ONE ROW PER MATCH
    when every component is answered by a match's span and its variables' first/last rows and
    counts (``runtime.partition_runner._summary_rows``), and so in a window (R020), each match on
    its row; ALL ROWS PER MATCH when every component is a navigation,
    MATCH_NUMBER, COUNT or CLASSIFIER, answered from each row's variable (``partition_runner.PerRow``). Else None
    (also in a chunk, whose events are filtered one by one by the rows it owns, and over imprecise
    timestamps, whose engine reports ``UncertainMatch`` objects)."""
    if plan.owned_column is not None or plan.uncertain_time is not None:
        return None
    if plan.spec.window is not None:
        # in a window (R020): per match as for ONE ROW PER MATCH, placed on the match's row
        # (``_window_summary_batch``); not where a measure's PREV/NEXT is NULLed at the frame's edge
        if plan.spec.window.shifts:
            return None
        return _one_row_request(plan)
    if plan.all_rows:
        per_row = all(
            isinstance(c, (Navigation, MatchNumber, Classifier)) or is_count_rows(c)
            for c in plan.components
        )
        return SummaryRequest(labels=True) if per_row else None
    return _one_row_request(plan)


def _one_row_request(plan: MatchPlan) -> SummaryRequest | None:
    """ONE ROW PER MATCH's request (see ``summary_request``), or None."""
    first: set[int] = set()
    last: set[int] = set()
    count: set[int] = set()
    for component in plan.components:
        if isinstance(component, MatchNumber):
            continue
        if isinstance(component, Navigation):
            if component.variables is None:
                continue
            if component.offset != 0:
                return None
            (first if component.from_start else last).update(component.variables)
        elif is_count_rows(component):
            count.update(component.variables or ())
        else:
            return None
    return SummaryRequest(frozenset(first), frozenset(last), frozenset(count))


def is_count_rows(component) -> bool:
    """COUNT(*) or COUNT(X.*)."""
    return (isinstance(component, Aggregate) and component.function == "count"
            and component.column is None and not component.distinct)
