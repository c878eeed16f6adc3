"""The executors' plan of a clause with UNCERTAIN TIME (imprecise timestamps).

Each row occurred at one of the equally likely time points of the inclusive interval
[lo, hi] (Zhang, Diao, Immerman, PVLDB 2010, §3.2). Catalyst computes lo and hi per row into two
columns; the executor converts them into time points (``sparkcep.runtime.uncertain_times``) and
feeds them to the imprecise-timestamp engine with the rows' masks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: The time point of a TIMESTAMP interval when GRANULARITY is not written: one millisecond.
DEFAULT_GRANULARITY_MICROS = 1_000


@dataclass(frozen=True)
class UncertainTimePlan:
    """How the rows' time intervals reach the engine.

    Attributes:
        lo_column / hi_column: the input columns holding each row's lo and hi, as Spark computes
            them from the user's expressions.
        minimum_confidence: MINIMUM CONFIDENCE (matches less likely are dropped), or None.
        granularity: the length of one time point of a TIMESTAMP interval in microseconds, as
            written (GRANULARITY); None: ``DEFAULT_GRANULARITY_MICROS``.
        time_type: the Spark type of lo and hi (filled at registration): ``bigint`` (and the other
            integral types: the integers are the time points), ``timestamp``, ``timestamp_ntz``
            (microseconds divided by the granularity, rounded down) or ``date`` (days).
        micros_per_point: the granularity applied (timestamps only; 1 otherwise).
        clause_span: (start, end) of the UNCERTAIN TIME clause in the statement, where run-time
            errors about the intervals point.
    """

    lo_column: str
    hi_column: str
    minimum_confidence: float | None = None
    granularity: int | None = None
    time_type: str = ""
    micros_per_point: int = 1
    clause_span: tuple[int, int] | None = field(default=None, compare=False)
