"""Evaluating match-dependent expressions in Python.

The expressions are ``sparkcep.plan`` trees. A compiled expression is a function of a
``MatchContext`` (``sparkcep.engines.contract``): the same code serves DEFINE, where the context is the
engine's partial match plus the candidate row (RUNNING semantics), and MEASURES, where
``MatchView`` presents a finished match as of one of its rows (RUNNING) or as of its last row
(FINAL). Operators follow SQL's three-valued logic: NULL (None) propagates and a condition that is
NULL does not hold.
"""

from __future__ import annotations

import bisect
import math
from decimal import Decimal
from typing import Any, Callable, Sequence

from sparkcep.engines.contract import MatchContext
from sparkcep.evaluation.operators import BINARY, null_safe_eq, truth
from sparkcep.plan import expressions as p

Evaluator = Callable[[MatchContext], Any]


def compile_expression(expression: p.Expression, variable_names: Sequence[str]) -> Evaluator:
    """Compile a plan expression into a function of a MatchContext."""
    if isinstance(expression, p.Constant):
        value = expression.value
        return lambda ctx: value
    if isinstance(expression, p.CurrentRow):
        column = expression.column
        return lambda ctx: ctx.value(column, ctx.row)
    if isinstance(expression, p.Navigation):
        return _navigation(expression)
    if isinstance(expression, p.Aggregate):
        return _aggregate(expression)
    if isinstance(expression, p.MatchNumber):
        return lambda ctx: ctx.match_number
    if isinstance(expression, p.Classifier):
        variables = expression.variables

        def classifier(ctx):
            rows = ctx.mapped_rows(variables)
            return variable_names[ctx.label_of(rows[-1])] if rows else None

        return classifier
    if isinstance(expression, p.Operator):
        return _operator(expression, variable_names)
    if isinstance(expression, p.NavigatedLabel):
        return _navigated_label(expression, variable_names)
    if isinstance(expression, p.LabelAggregate):
        return _label_aggregate(expression, variable_names)
    if isinstance(expression, p.MatchRows):
        return _match_rows(expression, variable_names)
    raise TypeError(f"not a plan expression: {expression!r}")


def _navigation(nav: p.Navigation) -> Evaluator:
    variables, column, offset, from_start = nav.variables, nav.column, nav.offset, nav.from_start

    def navigate(ctx):
        target = ctx.navigate(variables, from_start, offset)
        return None if target is None else ctx.value(column, target)

    return _with_fallback(navigate, _navigation_by_rows(nav))


def _with_fallback(fast: Evaluator, slow: Evaluator) -> Evaluator:
    def evaluate(ctx):
        return fast(ctx) if hasattr(ctx, "navigate") else slow(ctx)

    return evaluate


def _navigation_by_rows(nav: p.Navigation) -> Evaluator:
    variables, column, offset = nav.variables, nav.column, nav.offset
    if nav.from_start:
        def first(ctx):
            rows = ctx.mapped_rows(variables)
            return ctx.value(column, rows[offset]) if offset < len(rows) else None

        return first

    def last(ctx):
        rows = ctx.mapped_rows(variables)
        return ctx.value(column, rows[-1 - offset]) if offset < len(rows) else None

    return last


def aggregate_values(function: str, values: list, distinct: bool):
    """SQL aggregate semantics over ``values`` (None is NULL)."""
    present = [v for v in values if v is not None]
    if distinct:
        unique: list = []
        for v in present:
            if v not in unique:
                unique.append(v)
        present = unique
    if function in DEFINE_ONLY_AGGREGATES:
        return DEFINE_ONLY_AGGREGATES[function](values, present)
    if function == "count":
        return len(present)
    if function == "collect_list":
        return present
    if not present:
        return None
    if function == "sum":
        total = present[0]
        for v in present[1:]:
            total = total + v
        return total
    if function == "avg":
        if all(isinstance(v, Decimal) for v in present):
            return sum(present, Decimal(0)) / len(present)
        return math.fsum(float(v) for v in present) / len(present)
    if function == "min":
        return min(present)
    if function == "max":
        return max(present)
    raise ValueError(f"unknown aggregate {function}")


def _aggregate(aggregate: p.Aggregate) -> Evaluator:
    variables, column = aggregate.variables, aggregate.column
    function, distinct = aggregate.function, aggregate.distinct
    if column is None:  # COUNT(*) / COUNT(A.*)
        return lambda ctx: len(ctx.mapped_rows(variables))

    def evaluate(ctx):
        values = [ctx.value(column, row) for row in ctx.mapped_rows(variables)]
        return aggregate_values(function, values, distinct)

    return evaluate


def _connective(args: list[Evaluator], stop: bool) -> Evaluator:
    """AND (``stop=False``) or OR (``stop=True``) in three-valued logic, left to right: the
    first operand equal to ``stop`` decides; otherwise NULL if any operand was NULL."""

    def evaluate(ctx):
        unknown = False
        for arg in args:
            value = truth(arg(ctx))
            if value is stop:
                return stop
            unknown = unknown or value is None
        return None if unknown else not stop

    return evaluate


def _operator(operator: p.Operator, names: Sequence[str]) -> Evaluator:
    name = operator.name
    args = [compile_expression(o, names) for o in operator.operands]
    if name in BINARY:
        function, left, right = BINARY[name], args[0], args[1]
        # NULL on the left: NULL, without evaluating the right (as Spark's null-intolerant binary
        # expressions do, so NULL = 1/0 is NULL, not DIVIDE_BY_ZERO; the generated code agrees)
        return lambda ctx: None if (value := left(ctx)) is None else function(value, right(ctx))
    if name in ("and", "or"):
        return _connective(args, stop=name == "or")
    if name == "not":
        (arg,) = args
        return lambda ctx: None if (v := truth(arg(ctx))) is None else not v
    if name == "neg":
        (arg,) = args
        return lambda ctx: None if (v := arg(ctx)) is None else -v
    if name == "abs":
        (arg,) = args
        return lambda ctx: None if (v := arg(ctx)) is None else abs(v)
    if name == "paren":
        return args[0]
    if name == "null_safe_eq":
        left, right = args
        return lambda ctx: null_safe_eq(left(ctx), right(ctx))
    if name == "coalesce":
        def coalesce(ctx):
            for arg in args:
                value = arg(ctx)
                if value is not None:
                    return value
            return None

        return coalesce
    if name in ("greatest", "least"):
        pick = max if name == "greatest" else min

        def extreme(ctx):  # Spark's greatest/least skip NULLs
            values = [v for v in (arg(ctx) for arg in args) if v is not None]
            return pick(values) if values else None

        return extreme
    if name == "between":
        subject, low, high = args

        def between(ctx):
            value = subject(ctx)
            lower = BINARY["gte"](value, low(ctx))
            upper = BINARY["lte"](value, high(ctx))
            if lower is False or upper is False:
                return False
            return None if lower is None or upper is None else True

        return between
    if name == "list":
        return lambda ctx: [arg(ctx) for arg in args]
    if name == "in":
        subject, options = args

        def membership(ctx):
            value = subject(ctx)
            if value is None:
                return None
            unknown = False
            for option in options(ctx):
                equal = BINARY["eq"](value, option)
                if equal:
                    return True
                unknown = unknown or equal is None
            return None if unknown else False

        return membership
    if name == "is":
        subject, _null = args
        return lambda ctx: subject(ctx) is None
    if name == "if":
        condition, then, otherwise = args
        return lambda ctx: then(ctx) if truth(condition(ctx)) else otherwise(ctx)
    if name == "case":
        subject, default, *branches = args
        has_subject = operator.operands[0] != p.Constant(None)
        pairs = list(zip(branches[0::2], branches[1::2]))

        def case(ctx):
            value = subject(ctx) if has_subject else None
            for when, then in pairs:
                test = BINARY["eq"](value, when(ctx)) if has_subject else when(ctx)
                if truth(test):
                    return then(ctx)
            return default(ctx)

        return case
    raise ValueError(f"unknown operator {name}")




# -- CLASSIFIER() and MATCH_NUMBER() as values of rows: in navigation, aggregates, match rows ----


def _row_label(what: str, names: Sequence[str]) -> Callable:
    """A function (ctx, row) -> CLASSIFIER() or MATCH_NUMBER() of a mapped row."""
    if what == "classifier":
        return lambda ctx, row: names[ctx.label_of(row)]
    return lambda ctx, row: ctx.match_number


def _navigated_label(nav: p.NavigatedLabel, names: Sequence[str]) -> Evaluator:
    """ISO/IEC 19075-5, 5.6: the logical navigation picks a row of the match, the physical
    offset moves from it in the partition; a row outside the (visible) match has no
    classifier, so the value is NULL there."""
    label = _row_label(nav.what, names)
    variables, from_start, offset, shift = nav.variables, nav.from_start, nav.offset, nav.shift

    def evaluate(ctx):
        rows = ctx.mapped_rows(variables)
        if offset >= len(rows):
            return None
        target = (rows[offset] if from_start else rows[-1 - offset]) + shift
        if shift:
            visible = ctx.mapped_rows(None)
            position = bisect.bisect_left(visible, target)
            if position == len(visible) or visible[position] != target:
                return None
        return label(ctx, target)

    return evaluate


def _label_aggregate(aggregate: p.LabelAggregate, names: Sequence[str]) -> Evaluator:
    label = _row_label(aggregate.what, names)
    variables, function, distinct = aggregate.variables, aggregate.function, aggregate.distinct

    def evaluate(ctx):
        values = [label(ctx, row) for row in ctx.mapped_rows(variables)]
        return aggregate_values(function, values, distinct)

    return evaluate


def _match_rows(rows: p.MatchRows, names: Sequence[str]) -> Evaluator:
    readers = [
        _row_label(field, names) if isinstance(field, str)
        else (lambda column: lambda ctx, row: ctx.value(column, row))(field)
        for field in rows.fields
    ]
    keys = [f"f{i}" for i in range(len(readers))]
    variables = rows.variables

    def evaluate(ctx):
        return [
            {key: read(ctx, row) for key, read in zip(keys, readers)}
            for row in ctx.mapped_rows(variables)
        ]

    return evaluate


# Aggregates only DEFINE computes in Python (MEASURES leaves them to Spark), as Spark defines
# them: count_if counts TRUE; bool_and/bool_or skip NULLs and are NULL over no value;
# any_value is Spark's first(x): the first row's value, NULL included.
def _bool_and(values, present):
    return all(present) if present else None


def _bool_or(values, present):
    return any(present) if present else None


DEFINE_ONLY_AGGREGATES = {
    "count_if": lambda values, present: sum(1 for v in present if v is True),
    "bool_and": _bool_and,
    "bool_or": _bool_or,
    "any_value": lambda values, present: values[0] if values else None,
}
