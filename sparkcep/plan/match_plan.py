"""The compiled form of one MATCH_RECOGNIZE clause as the executors see it (``MatchPlan``): pure
data, pickled into the registered Spark function; it drives the engine and the evaluators."""

from __future__ import annotations

from dataclasses import dataclass, field

from sparkcep.engines.spec import MatchSpec
from sparkcep.plan.aggregation import AggregationPlan
from sparkcep.plan.expressions import Expression
from sparkcep.plan.uncertain_time import UncertainTimePlan

MASK_BITS = 63  # variables per bitmask column (a BIGINT at most)


@dataclass(frozen=True)
class MatchPlan:
    """Everything the executor-side function needs.

    Attributes:
        spec: the engine's view of the query.
        conditions: per variable id, the match-dependent part of its DEFINE (the row-local part
            arrives as a boolean column).
        components: the match-dependent values MEASURES need, one output column each; Spark
            combines them with the rest of each measure expression.
        component_types: Spark DDL type of each component (filled at registration time).
        all_rows: ALL ROWS PER MATCH (one output row per matched row) vs ONE ROW PER MATCH.
        output_empty_matches / output_unmatched_rows: the ALL ROWS options.
        bitmask_columns: the integer input columns Catalyst packs the row-local conditions into:
            variable ``v`` holds at a row iff bit ``v % MASK_BITS`` of column ``v // MASK_BITS``
            is set (a variable without a row-local condition has its bit always set).
        row_local: per variable id, whether it has a row-local condition (for EXPLAIN).
        value_columns: names of the input columns match-dependent expressions read, by id.
        order_key_column: the ORDER BY key used by WITHIN (as Spark computes it), or None.
        within_kind: how WITHIN was written: "interval" (``spec.within`` in microseconds until
            registration puts it in the key's units) or "number" (the key's own units).
        order_key_descending: the ORDER BY key is descending; the executor negates it, so a
            match's span is still last key - first key.
        aggregation: when the outer query only aggregates the matches
            (``sparkcep.plan.aggregation``), what to compute per partition instead of the
            matches; None otherwise.
        partition_columns: names of the input columns holding the partition key values.
        passthrough_columns: input columns copied to the output (ALL ROWS: every input column).
        uncertain_time: with UNCERTAIN TIME, the rows' time intervals
            (``sparkcep.plan.uncertain_time``): the imprecise-timestamp engine runs; else None.
        owned_column: when the partition is one chunk of a larger one (``sparkcep.compiler.chunks``),
            the boolean input column marking the rows this chunk owns; None otherwise.
    """

    spec: MatchSpec
    conditions: dict[int, Expression]
    components: tuple[Expression, ...]
    all_rows: bool
    output_empty_matches: bool
    output_unmatched_rows: bool
    bitmask_columns: tuple[str, ...]
    row_local: tuple[bool, ...]
    value_columns: tuple[str, ...]
    order_key_column: str | None
    partition_columns: tuple[str, ...]
    passthrough_columns: tuple[str, ...]
    component_types: tuple[str, ...] = field(default=())
    within_kind: str | None = None
    order_key_descending: bool = False
    aggregation: AggregationPlan | None = None
    # repr: keeps the digests of clauses without it stable; ``rewrite`` hashes it separately
    uncertain_time: UncertainTimePlan | None = field(default=None, repr=False)
    owned_column: str | None = field(default=None, repr=False)  # repr: keeps digests stable
