"""Evaluating match-dependent expressions in Python.

The expressions are ``sparkcep.plan`` trees. A compiled expression is a function of a
``MatchContext`` (``sparkcep.matching``): the same code serves DEFINE, where the context is the
engine's partial match plus the candidate row (RUNNING semantics), and MEASURES, where
``MatchView`` presents a finished match as of one of its rows (RUNNING) or as of its last row
(FINAL). Operators follow SQL's three-valued logic: NULL (None) propagates and a condition that is
NULL does not hold.
"""

from __future__ import annotations

import functools
import math
from decimal import Decimal
from typing import Any, Callable, Sequence

from sparkcep import plan as p
from sparkcep.errors import MatchRuntimeError
from sparkcep.matching import Match, MatchContext

Evaluator = Callable[[MatchContext], Any]


def _numeric_pair(a, b):
    if isinstance(a, Decimal) and isinstance(b, float):
        return float(a), b
    if isinstance(a, float) and isinstance(b, Decimal):
        return a, float(b)
    return a, b


def _arithmetic(operation):
    def apply(a, b):
        if a is None or b is None:
            return None
        a, b = _numeric_pair(a, b)
        return operation(a, b)

    return apply


def _division_by_zero():
    # Spark 4 runs in ANSI mode by default, where x / 0 raises; a match-dependent DEFINE does too.
    return MatchRuntimeError("DIVIDE_BY_ZERO", "division by zero in a DEFINE condition")


def _divide(a, b):
    if b == 0:
        raise _division_by_zero()
    if isinstance(a, int) and isinstance(b, int):
        return a / b  # Spark's '/' on integers yields a double
    return a / b


def _modulo(a, b):
    if b == 0:
        raise _division_by_zero()
    if isinstance(a, float) or isinstance(b, float):
        return math.fmod(a, b)
    remainder = abs(a) % abs(b)
    return -remainder if a < 0 else remainder


def _compare(operation):
    def apply(a, b):
        if a is None or b is None:
            return None
        a, b = _numeric_pair(a, b)
        return operation(a, b)

    return apply


BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "eq": _compare(lambda a, b: a == b),
    "neq": _compare(lambda a, b: a != b),
    "gt": _compare(lambda a, b: a > b),
    "gte": _compare(lambda a, b: a >= b),
    "lt": _compare(lambda a, b: a < b),
    "lte": _compare(lambda a, b: a <= b),
    "add": _arithmetic(lambda a, b: a + b),
    "sub": _arithmetic(lambda a, b: a - b),
    "mul": _arithmetic(lambda a, b: a * b),
    "div": _arithmetic(_divide),
    "mod": _arithmetic(_modulo),
}

OPERATORS = set(BINARY) | {
    "and", "or", "not", "neg", "abs", "paren", "null_safe_eq", "coalesce", "greatest", "least",
    "between", "in", "is", "if", "case", "list",
}


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


def _truth(value) -> bool | None:
    return None if value is None else bool(value)


def _connective(args: list[Evaluator], stop: bool) -> Evaluator:
    """AND (``stop=False``) or OR (``stop=True``) in three-valued logic, left to right: the
    first operand equal to ``stop`` decides; otherwise NULL if any operand was NULL."""

    def evaluate(ctx):
        unknown = False
        for arg in args:
            value = _truth(arg(ctx))
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
        return lambda ctx: None if (v := _truth(arg(ctx))) is None else not v
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
        return lambda ctx: _null_safe_eq(left(ctx), right(ctx))
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
        return lambda ctx: then(ctx) if _truth(condition(ctx)) else otherwise(ctx)
    if name == "case":
        subject, default, *branches = args
        has_subject = operator.operands[0] != p.Constant(None)
        pairs = list(zip(branches[0::2], branches[1::2]))

        def case(ctx):
            value = subject(ctx) if has_subject else None
            for when, then in pairs:
                test = BINARY["eq"](value, when(ctx)) if has_subject else when(ctx)
                if _truth(test):
                    return then(ctx)
            return default(ctx)

        return case
    raise ValueError(f"unknown operator {name}")


def _null_safe_eq(a, b):
    if a is None or b is None:
        return a is None and b is None
    return BINARY["eq"](a, b)


def _compile_condition(expression: p.Expression, names: tuple[str, ...], _text: str = ""):
    """(interpreter, generated function) for a condition; ``_text`` (the expression's repr) is
    only part of the cache key, see below."""
    from sparkcep.codegen import generate

    interpret = compile_expression(expression, names)
    return interpret, generate(expression, names, lambda e: compile_expression(e, names))


# The interpreter closures and the generated function keep no state, so a plan's conditions are
# compiled once per process, not once per partition (compiling Python source costs ~0.3 ms).
# The key has the expression's repr besides the expression: constants that compare equal but
# differ in type (1, 1.0, True, Decimal(1)) must not share code.
_compiled_by_expression = functools.lru_cache(maxsize=256)(_compile_condition)


def _compiled_condition(expression: p.Expression, names: tuple[str, ...]):
    try:
        return _compiled_by_expression(expression, names, repr(expression))
    except TypeError:  # an unhashable constant (none is expected; then compile every time)
        return _compile_condition(expression, names)


def make_condition(expression: p.Expression, variable_names: Sequence[str]):
    """A DEFINE condition: True only when the expression is TRUE (NULL does not hold).

    It runs the generated fast version (``sparkcep.codegen``) and, when that meets operands of
    mixed types, the interpreter, which defines the semantics.

    The returned function also has ``condition.specialize(var, slots)``: the form
    ``sparkcep.matcher`` calls in its inner loop (``codegen.specialize``: no context object;
    navigation read from the matcher's per-attempt state), or None when the expression has a part
    that form does not inline. It raises TypeError where the general form would fall back to the
    interpreter; the caller then calls ``condition(ctx)`` itself for that row."""
    from sparkcep.codegen import specialize

    interpret, fast = _compiled_condition(expression, tuple(variable_names))

    def condition(ctx) -> bool:
        try:
            return _truth(fast(ctx)) is True
        except TypeError:
            pass
        try:
            return _truth(interpret(ctx)) is True
        except TypeError as error:
            raise MatchRuntimeError(
                "DEFINE_EVALUATION_ERROR",
                f"a DEFINE condition could not be evaluated: {error}",
            ) from None

    condition.specialize = lambda var, slots: specialize(expression, variable_names, var, slots)
    return condition


class MatchView:
    """A finished match seen as of one of its rows: the context MEASURES are evaluated in.

    ``upto`` is the number of the match's rows visible (RUNNING semantics at row ``upto - 1``; the
    whole match for FINAL)."""

    def __init__(self, match: Match, read: Callable[[int, int], Any]) -> None:
        self.match = match
        self.match_number = match.number
        self._read = read
        self._labels: dict[int, int] | None = None  # row -> variable, built on first label_of
        self.upto = len(match.rows)
        self.row = match.rows[-1] if match.rows else match.start

    def at(self, upto: int) -> "MatchView":
        self.upto = upto
        self.row = self.match.rows[upto - 1] if upto else self.match.start
        return self

    def mapped_rows(self, variables):
        rows = self.match.rows[: self.upto]
        if variables is None:
            return rows
        labels = self.match.labels
        return [row for row, label in zip(rows, labels) if label in variables]

    def navigate(self, variables, from_start: bool, offset: int) -> int | None:
        """The row FIRST/LAST(<variables>, offset) points to, as of ``upto``, or None."""
        rows, labels, upto = self.match.rows, self.match.labels, self.upto
        if variables is None:
            position = offset if from_start else upto - 1 - offset
            return rows[position] if 0 <= position < upto else None
        indices = range(upto) if from_start else range(upto - 1, -1, -1)
        for i in indices:
            if labels[i] in variables:
                if offset == 0:
                    return rows[i]
                offset -= 1
        return None

    def value(self, column: int, row: int):
        return self._read(column, row)

    def label_of(self, row: int) -> int:
        if self._labels is None:
            self._labels = dict(zip(self.match.rows, self.match.labels))
        return self._labels[row]
