"""The compiled form of one MATCH_RECOGNIZE clause, as the executors see it.

A ``MatchPlan`` is location-free and pure data: it is pickled into the registered Spark function
and drives the engine and the evaluators on the executors. It holds no SQL: the SQL parts of
DEFINE and MEASURES were compiled into columns that Catalyst computes before the rows reach
Python (``value_columns``), and into the projection Spark applies to the function's output.

Match-dependent expressions are small trees of the nodes below. ``Ref`` leaves read the match:
``Navigation`` (FIRST/LAST, with PREV/NEXT folded into the column it reads), ``Aggregate``,
``MatchNumber``, ``Classifier``, ``CurrentRow``; ``Operator`` nodes combine them with SQL's
three-valued logic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

from sparkcep.matching import MatchSpec


@dataclass(frozen=True)
class Navigation:
    """The value of value column ``column`` at the row ``FIRST/LAST(<variables>, offset)`` points to.

    ``variables`` None means the universal row pattern variable (every row of the match).
    ``from_start`` True for FIRST. ``final`` True for FINAL semantics (MEASURES only)."""

    variables: frozenset[int] | None
    from_start: bool
    offset: int
    column: int
    final: bool = False


@dataclass(frozen=True)
class Aggregate:
    """``function`` over value column ``column`` (None for COUNT(*) / COUNT(A.*)) of the rows
    mapped to ``variables`` (None = all rows of the match)."""

    function: str  # count, sum, avg, min, max, collect_list
    variables: frozenset[int] | None
    column: int | None
    distinct: bool = False
    final: bool = False


@dataclass(frozen=True)
class MatchNumber:
    """MATCH_NUMBER(): the match's sequential number in its partition."""


@dataclass(frozen=True)
class Classifier:
    """The variable of the last row mapped to ``variables`` (None = the last row of the match)."""

    variables: frozenset[int] | None
    final: bool = False


@dataclass(frozen=True)
class CurrentRow:
    """Value column ``column`` at the row being tested (DEFINE only)."""

    column: int


@dataclass(frozen=True)
class Constant:
    value: Any


@dataclass(frozen=True)
class Operator:
    """A SQL operator or function over match-dependent operands, evaluated in Python.

    ``name`` is one of the keys of ``sparkcep.evaluation.OPERATORS``."""

    name: str
    operands: tuple["Expression", ...]


Ref = Union[Navigation, Aggregate, MatchNumber, Classifier, CurrentRow]
Expression = Union[Navigation, Aggregate, MatchNumber, Classifier, CurrentRow, Constant, Operator]


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
        order_key_column: the numeric ORDER BY key used by WITHIN, or None.
        partition_columns: names of the input columns holding the partition key values.
        passthrough_columns: input columns copied to the output (ALL ROWS: every input column).
        owned_column: when the partition is one chunk of a larger one (``sparkcep.chunking``),
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
    owned_column: str | None = field(default=None, repr=False)  # repr: keeps digests stable
