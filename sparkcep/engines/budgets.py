"""Per-partition resource budgets of the matching engines and the error raised when one runs out.

Every engine counts its work against four budgets carried in ``MatchSpec`` (documented in
``docs/semantics.md``, "Resource budgets"); the runtime fills them from Spark session settings
(``sparkcep.runtime.registration``), so ``SET spark.sparkcep.maxSteps = ...`` before a query
changes them for that query:

* ``max_steps``: engine steps (VM instructions, runs x rows, nodes visited while building matches);
* ``max_matches``: matches reported;
* ``max_live_runs``: partial matches alive at once (NFA^b runs, choice points of the backtracking
  matcher, open branches of the postponing search);
* ``max_buffered_rows``: rows held at once -- buffered input rows a pending match may still use,
  plus the rows of matches found and not yet handed to the output.
"""

from __future__ import annotations

from dataclasses import dataclass

from sparkcep.errors import MatchRuntimeError


@dataclass(frozen=True)
class Budget:
    """One budget: the ``MatchSpec`` field, the session setting, its default, what it counts."""

    field: str
    setting: str
    default: int
    counts: str


BUDGETS = (
    Budget("max_steps", "spark.sparkcep.maxSteps", 200_000_000, "engine steps"),
    Budget("max_matches", "spark.sparkcep.maxMatches", 10_000_000, "matches"),
    Budget("max_live_runs", "spark.sparkcep.maxLiveRuns", 1_000_000, "live partial matches"),
    Budget("max_buffered_rows", "spark.sparkcep.maxBufferedRows", 5_000_000,
           "buffered rows (input rows kept for pending matches plus rows of matches not yet output)"),
)
BY_FIELD = {b.field: b for b in BUDGETS}


def budget_exceeded(spec, field: str, detail: str = "") -> MatchRuntimeError:
    """The MATCH_BUDGET_EXCEEDED error for budget ``field`` of ``spec`` (a ``MatchSpec``): it names
    the pattern, the budget that ran out and the setting that raises it."""
    budget = BY_FIELD[field]
    limit = getattr(spec, field)
    strategy = spec.strategy.value
    where = f"PATTERN ({spec.pattern_text()}) with {strategy}"
    extra = f" ({detail})" if detail else ""
    return MatchRuntimeError(
        "MATCH_BUDGET_EXCEEDED",
        f"{where} needed more than {limit:,} {budget.counts} in one partition{extra}; "
        f"raise the budget with SET {budget.setting} = <n>, or use a tighter WITHIN or a more "
        "selective DEFINE",
    )
