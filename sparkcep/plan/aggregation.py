"""What the executor computes per partition when the outer query only aggregates a clause's
matches (``sparkcep.compiler.aggregation_pushdown`` decides; ``sparkcep.runtime.aggregation_runner``
runs it): pure data, pickled into the registered Spark function with the ``MatchPlan``."""

from __future__ import annotations

from dataclasses import dataclass

from sparkcep.engines.sase.aggregation import MeasureRef
from sparkcep.engines.sase.trend_aggregation import RowComparison

OUTPUT_PREFIX = "__sparkcep_g"


@dataclass(frozen=True)
class AggregateOutput:
    """One column of the function's output: ``function`` of a measure over the partition's
    matches (``count_star``: the number of matches; ``count``: matches whose measure is not
    NULL). ``measure`` indexes ``AggregationPlan.measures`` (None for ``count_star``)."""

    function: str
    measure: int | None


@dataclass(frozen=True)
class ComparisonCast:
    """The two sides of a comparison between rows have different Spark types (``B.price >
    A.price * 1.05``: DOUBLE and DECIMAL, or INT and DECIMAL): Spark compares them in
    ``common``, so the executor casts both value columns to it first (filled at registration,
    from Spark's analysis of the value columns; ``sparkcep.evaluation.sql_types.common_type``)."""

    left: str  # Spark type of the tested row's value column
    right: str  # Spark type of the compared row's value column
    common: str
    ansi: bool
    time_zone: str


@dataclass(frozen=True)
class AggregationPlan:
    """Per partition, the aggregates of the matches, one output column each."""

    measures: tuple[MeasureRef, ...]
    outputs: tuple[AggregateOutput, ...]
    measure_names: tuple[str, ...] = ()  # as the user named them, for explain
    # the match-dependent DEFINE conditions, as comparisons the counters are keyed by
    # (``sparkcep.engines.sase.trend_aggregation``), and each one's text as written, for explain
    comparisons: tuple[RowComparison, ...] = ()
    comparison_texts: tuple[str, ...] = ()
    # GROUP BY buckets (``sparkcep.engines.sase.grouped_aggregation``): per bucket the slot the
    # counters are keyed by (the bucket computed per row as a value column, of the measure's
    # row) and its text as written; per bucketed measure (its name, the output holding its
    # least value in the group), which the function outputs under the measure's name
    keys: tuple[MeasureRef, ...] = ()
    key_texts: tuple[str, ...] = ()
    group_columns: tuple[tuple[str, int], ...] = ()

    @property
    def grouped(self) -> bool:
        """Whether the grouped engine runs it: buckets, or per-match sums over a variable."""
        return bool(self.keys) or any(m.which in ("sum", "count") for m in self.measures)
    # per comparison: the casts to one type when its sides' types differ (None: the same type)
    casts: tuple[ComparisonCast | None, ...] = ()
    # spark.sql.ansi.enabled at registration: overflow raises (True) or wraps / gives NULL
    ansi: bool = True


def output_name(index: int) -> str:
    """The name of output column ``index`` of a pushed-down aggregation."""
    return f"{OUTPUT_PREFIX}{index}"
