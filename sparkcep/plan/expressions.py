"""The match-dependent expressions of a compiled clause, as the executors evaluate them.

They hold no SQL: the SQL parts of DEFINE and MEASURES were compiled into columns that Catalyst
computes before the rows reach Python (``MatchPlan.value_columns``), and into the projection Spark
applies to the function's output.

Match-dependent expressions are small trees of the nodes below. ``Ref`` leaves read the match:
``Navigation`` (FIRST/LAST, with PREV/NEXT folded into the column it reads), ``Aggregate``,
``MatchNumber``, ``Classifier``, ``CurrentRow``; ``Operator`` nodes combine them with SQL's
three-valued logic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union


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
    # min_by / max_by (DEFINE): the value column of the ordering (the rows' ``column`` value at
    # the least / greatest ordering is the result); None for other aggregates
    ordering: int | None = None
    # min_by / max_by with a count k (DEFINE): the k values of the k least / greatest orderings, an
    # ARRAY; None for one value
    count: int | None = None
    # the call's (start, end) in the statement, for run-time errors (min_by / max_by with k:
    # equal orderings that leave Spark's answer open)
    span: tuple[int, int] | None = field(default=None, repr=False, compare=False)
    # filled in at registration (``sparkcep.evaluation.binding``): the Spark type of the value
    # column (and of the ordering) and of the result, and the session's semantics (see
    # ``Operator``)
    argument_type: str | None = field(default=None, repr=False)
    ordering_type: str | None = field(default=None, repr=False)
    type: str | None = field(default=None, repr=False)
    options: tuple = field(default=(), repr=False)


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
    # the Spark type of a literal (``int``, ``bigint``, ``decimal(2,1)``, ``string``, ``boolean``;
    # None: derived from the Python value by ``sparkcep.evaluation.binding``)
    type: str | None = field(default=None, repr=False)


# the units of the plan operator ``timestampdiff`` (its option ``unit``), as Spark names them
TIMESTAMPDIFF_UNITS = ("microsecond", "millisecond", "second", "minute", "hour", "day", "week", "month",
                       "quarter", "year")

# the fields of ``date_part(field, x)`` / ``extract(field FROM x)`` as Spark names them
# (``DatePart.parseExtractField``), upper case -> the plan operator that computes the field
EXTRACT_FIELDS = {
    **dict.fromkeys(("YEAR", "Y", "YEARS", "YR", "YRS"), "year"),
    "YEAROFWEEK": "yearofweek",
    **dict.fromkeys(("QUARTER", "QTR"), "quarter"),
    **dict.fromkeys(("MONTH", "MON", "MONS", "MONTHS"), "month"),
    **dict.fromkeys(("WEEK", "W", "WEEKS"), "weekofyear"),
    **dict.fromkeys(("DAY", "D", "DAYS"), "day"),
    **dict.fromkeys(("DAYOFWEEK", "DOW"), "dayofweek"),
    **dict.fromkeys(("DAYOFWEEK_ISO", "DOW_ISO"), "dayofweek_iso"),
    "DOY": "dayofyear",
    **dict.fromkeys(("HOUR", "H", "HOURS", "HR", "HRS"), "hour"),
    **dict.fromkeys(("MINUTE", "M", "MIN", "MINS", "MINUTES"), "minute"),
    **dict.fromkeys(("SECOND", "S", "SEC", "SECONDS", "SECS"), "second_with_fraction"),
}


@dataclass(frozen=True)
class Operator:
    """A SQL operator or function over match-dependent operands, evaluated in Python.

    ``name`` is one of the keys of ``sparkcep.evaluation.operators.OPERATORS``."""

    name: str
    operands: tuple["Expression", ...]
    # Filled in at registration by ``sparkcep.evaluation.binding`` from Spark's analysis of the
    # value columns: ``type`` is the Spark type of the result (DDL, e.g. ``decimal(38,9)``) and
    # ``options`` the (key, value) pairs the operator's semantics depend on (``operand``: the
    # type the operands were cast to; ``ansi``; ``zone``: the session time zone). None / () =
    # not bound (unit tests that build trees by hand).
    type: str | None = field(default=None, repr=False)
    options: tuple = field(default=(), repr=False)
    # where the operator is in the user's statement (start, end offsets), for errors
    span: tuple[int, int] | None = field(default=None, repr=False, compare=False)




@dataclass(frozen=True)
class LambdaVariable:
    """A variable of a lambda function (``x`` in ``x -> x + A.v``): the value the higher-order
    function (``transform``, ``exists``, ...) gives it for the element (entry, accumulator, index)
    at hand. ``number`` tells the variables of one DEFINE condition apart (nested lambdas may
    reuse a name); ``name`` is as written, for messages."""

    number: int
    name: str = ""
    # filled in at registration (``sparkcep.evaluation.binding``): the variable's Spark type
    type: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Lambda:
    """``(x, i) -> body``, an operand of a higher-order function ``Operator`` (only there): its
    variables, in the order the function passes values to them, and its body."""

    parameters: tuple[LambdaVariable, ...]
    body: "Expression"


@dataclass(frozen=True)
class NavigatedLabel:
    """CLASSIFIER() or MATCH_NUMBER() (``what``: "classifier" / "match_number") at the row a
    navigation points to: the row ``FIRST/LAST(<variables>, offset)`` points to, then ``shift``
    rows further in the partition (PREV: negative, NEXT: positive). NULL when that row is not
    among the rows of the match visible (RUNNING: up to the current row; FINAL: all).
    E.g. ``PREV(CLASSIFIER())``, ``FIRST(CLASSIFIER(), 2)``, ``NEXT(LAST(CLASSIFIER(A)), 1)``."""

    what: str
    variables: frozenset[int] | None
    from_start: bool
    offset: int
    shift: int = 0
    final: bool = False


@dataclass(frozen=True)
class LabelAggregate:
    """``function`` (as ``Aggregate``) over CLASSIFIER() or MATCH_NUMBER() (``what``) of the
    rows mapped to ``variables`` (None = all rows of the match). DEFINE only: in MEASURES Spark
    aggregates the match's rows (``MatchRows``)."""

    function: str
    variables: frozenset[int] | None
    what: str
    distinct: bool = False


@dataclass(frozen=True)
class MatchRows:
    """The rows of the match mapped to ``variables`` (None = every row), RUNNING or FINAL, as a
    list of structs ``{f0, f1, ...}``: field i is value column ``fields[i]`` (an int) or the
    row's CLASSIFIER() / MATCH_NUMBER() ("classifier" / "match_number"). A MEASURES aggregate
    Python does not compute is applied by Spark to this list (``docs/semantics.md``)."""

    variables: frozenset[int] | None
    fields: tuple
    final: bool = False


@dataclass(frozen=True)
class Confidence:
    """CONFIDENCE(): the probability of the match under UNCERTAIN TIME (a DOUBLE in [0, 1])."""


@dataclass(frozen=True)
class MatchStatus:
    """MATCH_STATUS(): 'COMPLETE' for a match, 'TIMED_OUT' for a run a WITHIN window closed before
    it completed (ROWS PER MATCH ... WITH TIMED OUT MATCHES; a STRING)."""


@dataclass(frozen=True)
class MatchTimeRange:
    """MATCH_EARLIEST_START() (``bound`` "start_lo"), MATCH_LATEST_START() ("start_hi"),
    MATCH_EARLIEST_END() ("end_lo") or MATCH_LATEST_END() ("end_hi"): the earliest or latest time
    point of the match's first or last row over the possible worlds that have the match
    (UNCERTAIN TIME), in the type of the row times."""

    bound: str

    @property
    def end(self) -> bool:
        return self.bound.startswith("end")


Ref = Union[
    Navigation, Aggregate, MatchNumber, Classifier, CurrentRow, NavigatedLabel, LabelAggregate,
    MatchRows,
]
Expression = Union[
    Navigation, Aggregate, MatchNumber, Classifier, CurrentRow, Constant, Operator, NavigatedLabel,
    LabelAggregate, MatchRows, Confidence, MatchTimeRange, MatchStatus, LambdaVariable, Lambda,
]


def uses_match_number(expression) -> bool:
    """Whether ``expression`` reads MATCH_NUMBER() (itself, navigated, aggregated or as a field
    of the match's rows)."""
    if isinstance(expression, MatchNumber):
        return True
    if isinstance(expression, (NavigatedLabel, LabelAggregate)):
        return expression.what == "match_number"
    if isinstance(expression, MatchRows):
        return "match_number" in expression.fields
    if isinstance(expression, Operator):
        return any(uses_match_number(e) for e in expression.operands)
    if isinstance(expression, Lambda):
        return uses_match_number(expression.body)
    return False
