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
import itertools
import math
from decimal import Decimal
from typing import Any, Callable, Sequence

from sparkcep.engines.contract import MatchContext
from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation import (base_functions, collection_builders, collection_functions, datetime_fields,
                                 datetime_functions, datetime_patterns, day_time_intervals, explicit_casts, functions,
                                 hash_functions, higher_order_functions, integral_functions, java_formatter,
                                 string_functions, trigonometric_functions, url_functions)
from sparkcep.evaluation import datetime_constructors, json_functions, map_functions
from sparkcep.evaluation import struct_functions  # structs
from sparkcep.evaluation import text_and_binary  # split, regexp_extract_all, base64, encode, soundex, ...
from sparkcep.evaluation import comparator_sort, row_formats  # array_sort with a comparator, format from a row
from sparkcep.evaluation.integral_functions import TRY_ARITHMETIC
from sparkcep.evaluation import operators as ops
from sparkcep.evaluation.operators import BINARY, null_safe_eq, truth
from sparkcep.evaluation.sql_types import DATETIME, SqlType, day_time_fields
from sparkcep.evaluation.sql_types import parse as parse_type
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
    if isinstance(expression, p.LambdaVariable):  # the value a higher-order function gives it
        return higher_order_functions.lambda_variable(expression)
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
    if aggregate.ordering is not None:  # min_by / max_by
        ordering = aggregate.ordering
        pick = extremum_by(aggregate)

        def evaluate_by(ctx):
            return pick([(ctx.value(column, row), ctx.value(ordering, row)) for row in ctx.mapped_rows(variables)])

        return evaluate_by
    if aggregate.type is not None:
        combine = typed_aggregate(aggregate)

        def evaluate_typed(ctx):
            return combine([ctx.value(column, row) for row in ctx.mapped_rows(variables)])

        return evaluate_typed

    def evaluate(ctx):
        values = [ctx.value(column, row) for row in ctx.mapped_rows(variables)]
        return aggregate_values(function, values, distinct)

    return evaluate


def extremum_by(aggregate: p.Aggregate):
    """Spark's ``min_by(x, y)`` / ``max_by(x, y)`` over (x, y) pairs in row order, as its
    aggregate buffer (``MaxMinBy.updateExpressions``) is updated row by row: a row whose y is
    NULL is skipped; the first row with a y is kept; a later row keeps the kept one only when
    the kept y is strictly less (min_by: ``predicate(kept, y) = kept < y``) or greater
    (max_by), so among equal y the *last* row wins; x may be NULL; no y at all gives NULL. y
    compares as Spark orders its type (DOUBLE/FLOAT: NaN above every number and equal to
    itself, -0.0 = 0.0)."""
    ordering = parse_type(aggregate.ordering_type)
    fractional = ordering.fractional if ordering is not None else False
    key = ops.nan_aware_key if fractional else (lambda v: v)
    if aggregate.count is not None:
        return top_by(aggregate, key)
    if aggregate.function == "min_by":
        def keeps(kept, new):
            return key(kept) < key(new)
    else:
        def keeps(kept, new):
            return key(kept) > key(new)

    def pick(pairs):
        kept, best = None, None
        for value, order in pairs:
            if order is None:
                continue
            if best is None or not keeps(best, order):
                kept, best = value, order
        return kept

    return pick


def top_by(aggregate: p.Aggregate, key):
    """Spark's ``min_by(x, y, k)`` / ``max_by(x, y, k)`` over (x, y) pairs: the x of the k rows of
    the least (min_by) / greatest (max_by) y, as an ARRAY ordered by y (ascending / descending);
    rows whose y is NULL are skipped, x may be NULL, no y at all gives NULL (not an empty array).
    Spark keeps its k rows in a heap and sorts them at the end, so which of several rows with
    equal y it keeps, and in which order it lists them, is its implementation's choice: when
    rows with equal y carry different x values and at least one of them is kept, the answer is
    not determined and evaluation raises ``AMBIGUOUS_MIN_MAX_BY`` at the call; equal y with
    equal x, and ties among rows past the k-th only, are determined."""
    k, descending = aggregate.count, aggregate.function == "max_by"
    span = aggregate.span

    def pick(pairs):
        ranked = sorted(((key(y), x) for x, y in pairs if y is not None),
                        key=lambda pair: pair[0], reverse=descending)
        if not ranked:
            return None
        taken = 0
        for _y, run in itertools.groupby(ranked, key=lambda pair: pair[0]):
            if taken >= k:
                break  # rows past the k-th, of other y than the kept: they decide nothing
            # every row of this y, also those past the k-th (which of them Spark keeps is open)
            tied = [x for _y, x in run]
            taken += len(tied)
            if len(tied) > 1 and len({_identity(x) for x in tied}) > 1:
                error = MatchRuntimeError(
                    "AMBIGUOUS_MIN_MAX_BY",
                    f"{aggregate.function}(x, y, {k}) over rows with equal y but different x: Spark "
                    "leaves open which of the rows with equal y values it keeps and in which order "
                    "it lists them, so the answer is not determined; make the y values distinct")
                error.span = span
                raise error
        return [x for _y, x in ranked[:k]]

    return pick


def _identity(value):
    """A key under which two values are the same exactly when Spark would output them the same
    way (0.0 and -0.0 differ; NaN is one value), for values of any type in a row."""
    if isinstance(value, float):
        return ("nan",) if value != value else (value, math.copysign(1.0, value))
    if isinstance(value, (list, tuple)):
        return tuple(_identity(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((repr(k), _identity(v)) for k, v in value.items()))
    return (type(value).__name__, value)


def typed_aggregate(aggregate: p.Aggregate):
    """Spark's aggregate over the values of the rows (a bound ``Aggregate``): SUM of integers in
    BIGINT (overflow: ANSI raises, otherwise wraps), of decimals exact and then DECIMAL(p + 10, s)
    (out of range: ANSI raises, otherwise NULL); AVG of decimals the exact total divided by the
    count, rounded half up to DECIMAL(p + 4, s + 4); doubles summed in row order; MIN/MAX with NaN
    above every number."""
    function, distinct = aggregate.function, aggregate.distinct
    argument, result = parse_type(aggregate.argument_type), parse_type(aggregate.type)
    ansi = dict(aggregate.options).get("ansi", True)

    def present(values):
        kept = [v for v in values if v is not None]
        if distinct:
            unique: list = []
            for v in kept:
                if not any(ops.comparison("eq", argument)(v, u) for u in unique):
                    unique.append(v)
            kept = unique
        return kept

    if function in DEFINE_ONLY_AGGREGATES:
        define_only = DEFINE_ONLY_AGGREGATES[function]
        return lambda values: define_only(values, present(values))
    if function == "count":
        return lambda values: len(present(values))
    if function == "collect_list":
        return present
    if function in ("min", "max"):
        pick = min if function == "min" else max
        key = ops.nan_aware_key if argument.fractional else None

        def extreme(values):
            kept = present(values)
            if not kept:
                return None
            return pick(kept, key=key) if key else pick(kept)

        return extreme
    if function == "sum" and argument.integral:
        add = ops.arithmetic("add", result, result, ansi)

        def sum_integral(values):
            kept = present(values)
            if not kept:
                return None
            total = 0
            for v in kept:
                total = add(total, v)
            return total

        return sum_integral
    if argument.decimal:
        # Spark adds without an overflow check and checks the total against the sum type
        sum_type = parse_type(f"decimal({min(38, argument.precision + 10)},{argument.scale})")

        def exact_sum(kept):
            total = Decimal(0)
            for v in kept:
                total = ops.exact_add(total, v)
            return ops.to_decimal(total, sum_type, ansi)

        if function == "sum":
            def sum_decimal(values):
                kept = present(values)
                return exact_sum(kept) if kept else None

            return sum_decimal
        def average_decimal(values):
            kept = present(values)
            if not kept:
                return None
            total = exact_sum(kept)
            if total is None:
                return None
            # the total divided by the count, rounded half up to AVG's type (as Spark answers)
            return ops.to_decimal(ops.exact_divide(total, Decimal(len(kept))), result, ansi)

        return average_decimal
    # DOUBLE (and AVG of integers): summed in DOUBLE in row order, as Spark's Sum/Average do
    convert = (lambda v: ops.decimal_to_double(v, argument)) if argument.decimal else float

    def sum_or_average(values):
        kept = present(values)
        if not kept:
            return None
        total = 0.0
        for v in kept:
            total += convert(v)
        return total if function == "sum" else total / len(kept)

    return sum_or_average


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
    if operator.name in higher_order_functions.HIGHER_ORDER_FUNCTIONS:  # transform(arr, x -> ...), ...
        return higher_order_functions.compile_higher_order(operator, lambda e: compile_expression(e, names))
    if operator.name == comparator_sort.NAME:  # array_sort(arr, (l, r) -> ...)
        return comparator_sort.compile_comparator_sort(operator, lambda e: compile_expression(e, names))
    if operator.name == row_formats.NAME:  # format_string(A.fmt, ...): not strict, the format read first
        return row_formats.compile_row_format(operator, lambda e: compile_expression(e, names))
    if operator.type is not None:
        return _typed_operator(operator, [compile_expression(o, names) for o in operator.operands])
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
    if name in ops.STRING_MATCHES:
        return _strict_binary(ops.like_function(name, dict(operator.options).get("escape")), *args)
    if name in ops.STRING_FUNCTIONS:
        return _strict(ops.STRING_FUNCTIONS[name], args)
    if name == "concat":
        return _concat(args)
    if name == "paren":
        return args[0]
    if name == "null_safe_eq":
        left, right = args
        return lambda ctx: null_safe_eq(left(ctx), right(ctx))
    if name == "coalesce":
        return _coalesce(args)
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
    if name == "is":  # IS NULL, or IS TRUE / IS FALSE (the second operand a boolean constant)
        subject, _test = args
        test = operator.operands[1]
        if isinstance(test, p.Constant) and isinstance(test.value, bool):
            wanted = test.value
            return lambda ctx: truth(subject(ctx)) is wanted
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


def _coalesce(args: list[Evaluator]) -> Evaluator:
    def coalesce(ctx):
        for arg in args:
            value = arg(ctx)
            if value is not None:
                return value
        return None

    return coalesce


def _strict_binary(function, left: Evaluator, right: Evaluator) -> Evaluator:
    # NULL on the left: NULL, without evaluating the right (as Spark's null-intolerant binary
    # expressions do, so NULL = 1/0 is NULL, not DIVIDE_BY_ZERO; the generated code agrees)
    def evaluate(ctx):
        a = left(ctx)
        if a is None:
            return None
        b = right(ctx)
        return None if b is None else function(a, b)

    return evaluate


def _concat(args: list[Evaluator]) -> Evaluator:
    """Spark's concat (and ||) of strings: NULL if any operand is NULL, left to right."""

    def concat(ctx):
        parts = []
        for arg in args:
            value = arg(ctx)
            if value is None:
                return None
            parts.append(value)
        return "".join(parts)

    return concat


def _right_first(function, left: Evaluator, right: Evaluator, ansi: bool) -> Evaluator:
    """Spark's division and remainder (``ops.RIGHT_FIRST``): the divisor first; NULL (or, ANSI
    off, zero) gives NULL without evaluating the dividend."""

    def evaluate(ctx):
        b = right(ctx)
        if b is None or (not ansi and b == 0):
            return None
        a = left(ctx)
        return None if a is None else function(a, b)

    return evaluate


def _strict(function, args: list[Evaluator]) -> Evaluator:
    """``function`` of the operands' values, NULL if one is NULL (operands evaluated left to
    right, stopping at the first NULL, as Spark's null-intolerant expressions do)."""
    if len(args) == 1:
        return _strict_unary(function, args[0])
    if len(args) == 2:
        return _strict_binary(function, *args)

    def evaluate(ctx):
        values = []
        for arg in args:
            value = arg(ctx)
            if value is None:
                return None
            values.append(value)
        return function(*values)

    return evaluate


def _strict_unary(function, arg: Evaluator) -> Evaluator:
    return lambda ctx: None if (v := arg(ctx)) is None else function(v)


def typed_function(operator: p.Operator):
    """The function of the operand values (non-NULL) of a bound strict operator, or None for
    operators with their own NULL rules. One definition, shared with the generated code."""
    name, options = operator.name, dict(operator.options)
    result = parse_type(operator.type)
    operand = parse_type(options.get("operand"))
    ansi = options.get("ansi", True)
    zone = options.get("zone", "UTC")
    java_version = options.get("java") or 17  # Double.toString's generation (binding refuses an unknown one)
    # the zone a TIMESTAMP operand is read in; a TIMESTAMP_NTZ's local date-time is its own
    local_zone = zone if operand is not None and operand.name == "timestamp" else None
    if name in ("eq", "neq", "gt", "gte", "lt", "lte"):
        return ops.comparison(name, operand)
    if name == "cast":
        function = ops.cast(parse_type(options["source"]), result, ansi, zone, java_version)
    elif name == "interval_multiply":
        function = day_time_intervals.multiply(operand)
    elif name == "interval_divide":
        function = day_time_intervals.divide(operand)
    elif name == "converting_cast":
        function = explicit_casts.explicit_cast(operand, result, ansi, zone, options["try"], java_version)
    elif name in ("add", "sub") and (result.name in DATETIME or day_time_fields(result)):
        function = _datetime_arithmetic(name, operand, result, zone)
    elif name in ("add", "sub", "mul", "div", "mod"):
        function = ops.arithmetic(name, operand or result, result, ansi)
    elif name == "neg":
        function = ops.negate(result, ansi)
    elif name == "abs":
        function = ops.absolute(result, ansi)
    elif name in ops.STRING_MATCHES:
        function = ops.like_function(name, options.get("escape"))
    elif name in ops.STRING_FUNCTIONS:
        function = ops.STRING_FUNCTIONS[name]
    elif name in ("round", "bround") or (name in ("floor", "ceil") and "scale" in options):
        function = functions.rounding(operand, result, options["scale"], options["mode"], ansi, java_version)
    elif name == "sqrt":
        function = functions.square_root
    elif name in functions.ANGLES:
        function = functions.ANGLES[name]
    elif name in functions.STRICT_MATH:
        function = functions.STRICT_MATH[name]
    elif name in trigonometric_functions.TRIGONOMETRIC:
        function = trigonometric_functions.TRIGONOMETRIC[name]
    elif name == "sign":
        function = functions.signum
    elif name in ("floor", "ceil"):
        function = functions.floor_or_ceiling(name, operand, result, ansi)
    elif name == "pmod":
        function = functions.positive_modulo(operand, result, ansi)
    elif name == "array_join":
        function = functions.array_join
    elif name == "format_number":
        function = functions.format_number
    elif name in string_functions.STRING_FUNCTIONS:
        function = string_functions.STRING_FUNCTIONS[name]
    elif name in text_and_binary.FUNCTIONS:  # split, regexp_extract_all, base64, encode, soundex, ...
        function = text_and_binary.function(name, options)
    elif name == "get_json_object":  # numbers written as the JVM prints them (None: refused where it matters)
        java = options.get("java", 17)
        function = lambda json, path: json_functions.get_json_object(json, path, java)  # noqa: E731
    elif name in json_functions.JSON_FUNCTIONS:  # json_array_length, json_object_keys
        function = json_functions.JSON_FUNCTIONS[name]
    elif name == "to_json":
        function = json_functions.to_json(operand, zone, java_version)
    elif name == "str_to_map":
        function = map_functions.str_to_map(options.get("dedup") == "LAST_WIN")
    elif name == "map_concat":
        function = map_functions.map_concat(operand, options.get("dedup") == "LAST_WIN")
    elif name == "trim":
        function = string_functions.trim(options.get("side", "both"))
    elif name == "conv":
        function = base_functions.conversion(operand, ansi)
    elif name in base_functions.BASE_FUNCTIONS:
        function = base_functions.BASE_FUNCTIONS[name]
    elif name in TRY_ARITHMETIC:
        function = integral_functions.try_arithmetic(TRY_ARITHMETIC[name], operand or result, result)
    elif name == "intdiv":
        function = integral_functions.integral_divide(ansi)
    elif name == "bit_count":
        function = integral_functions.bit_count
    elif name == "bit_get":
        function = integral_functions.bit_get(operand)
    elif name in integral_functions.BITWISE:
        function = integral_functions.BITWISE[name]
    elif name in integral_functions.SHIFTS:
        function = integral_functions.shift(name, result)
    elif name == "datediff":
        function = datetime_functions.datediff
    elif name == "timestampdiff":
        function = datetime_functions.timestampdiff(options["unit"], local_zone)
    elif name in ("date_add", "date_sub", "add_months", "last_day", "unix_date", "date_from_unix_date"):
        function = getattr(datetime_functions, name)
    elif name == "months_between":
        function = datetime_functions.months_between(options.get("round_off", True), zone)
    elif name in ("make_date", "next_day"):
        function = getattr(datetime_functions, name)(ansi)
    elif name in datetime_fields.DATE_FIELDS:
        function = datetime_fields.DATE_FIELDS[name]
    elif name in datetime_fields.TIME_FIELDS:
        function = datetime_fields.time_field(name, local_zone)
    elif name == "date_trunc":
        function = datetime_fields.date_trunc(zone)
    elif name == "trunc":
        function = datetime_fields.trunc
    elif name in datetime_fields.EPOCH_FUNCTIONS:
        function = datetime_fields.EPOCH_FUNCTIONS[name]
    elif name == "date_format":
        function = datetime_patterns.formatter(options["pattern"], zone, options["function"])
    elif name == "from_unixtime":
        function = datetime_patterns.unixtime_formatter(options["pattern"], zone)
    elif name in ("to_timestamp", "to_timestamp_ntz", "to_date", "unix_timestamp_of_string"):
        function = datetime_patterns.parser(name, options["pattern"], zone, ansi, options["try"], options["function"])
    elif name == "is_nan":
        function = functions.is_nan
    elif name == "width_bucket":
        function = functions.width_bucket
    elif name in ("parse_url", "try_parse_url"):
        function = url_functions.parse_url(ansi and name == "parse_url")
    elif name == "elt_out_of_range":
        function = string_functions.elt_out_of_range(ansi, options["inputs"])
    elif name in _COLLECTION_FUNCTIONS:
        function = _collection_function(name, operand, ansi)
    elif name in collection_builders.STRICT_BUILDERS:
        function = _collection_builder(name, operand, options, zone)
    # -- structs (begin) --
    elif name == "get_field":
        function = struct_functions.get_field(options["field"])
    elif name == "map_entries":
        function = struct_functions.map_entries
    elif name == "map_from_entries":
        function = struct_functions.map_from_entries(operand, options.get("dedup") == "LAST_WIN")
    elif name == "arrays_zip":
        function = struct_functions.arrays_zip(tuple(options["names"]))
    # -- structs (end) --
    elif name in datetime_constructors.CONSTRUCTORS:  # the rest of the datetime functions
        function = datetime_constructors.function(name, operand)
    else:
        return None
    return _located(function, operator.span) if operator.span is not None else function


_COLLECTION_FUNCTIONS = (*collection_functions.COLLECTION_FUNCTIONS, "map_value")


def _collection_function(name: str, operand: SqlType, ansi: bool):
    """A bound array or map function (``collection_functions``); ``operand`` is the element (or
    key) type its operands were cast to."""
    if name in ("array_contains", "array_position", "arrays_overlap", "map_contains_key", "map_value",
                "array_distinct"):
        return getattr(collection_functions, name)(operand)
    if name in ("array_max", "array_min"):
        return collection_functions.array_extreme(name, operand)
    if name in ("element_at", "try_element_at"):
        return collection_functions.element_at(ansi, tolerant=name == "try_element_at")
    if name == "subscript":
        return collection_functions.subscript(ansi)
    if name == "slice":
        return collection_functions.array_slice
    return collection_functions.size


def _collection_builder(name: str, operand: SqlType, options: dict, zone: str):
    """A bound array-building or map function (``collection_builders``); ``operand`` is the
    element (or key) type its operands were cast to."""
    last_wins = options.get("dedup") == "LAST_WIN"
    if name in ("array_union", "array_intersect", "array_except"):
        return collection_builders.array_set_operation(name, operand)
    if name == "array_remove":
        return collection_builders.array_remove(operand)
    if name in ("sort_array", "array_sort"):
        ascending = options.get("ascending", True)
        return collection_builders.sort_array(operand, ascending, nulls_first=name == "sort_array" and ascending)
    if name in ("create_map", "map_from_arrays"):
        return getattr(collection_builders, name)(operand, last_wins)
    if name == "get":
        return collection_functions.subscript(False)
    if name == "sequence":
        return collection_builders.date_sequence if operand.name == "date" else collection_builders.sequence
    if name == "elements_cast":
        return collection_builders.elements_cast(operand, SqlType("string"), options.get("ansi", True), zone,
                                                 options.get("java") or 17)
    return getattr(collection_builders, {"reverse_array": "reverse", "concat_arrays": "concat"}.get(name, name))


def _datetime_arithmetic(name: str, operand: SqlType, result: SqlType, zone: str):
    """``+`` / ``-`` bound by ``binding.datetime_arithmetic``: of two intervals, of two
    datetimes (an interval), of a datetime and an interval (a datetime)."""
    if day_time_fields(operand):
        return day_time_intervals.interval_arithmetic(name)
    if day_time_fields(result):
        return day_time_intervals.subtract_datetimes(operand, zone)
    return day_time_intervals.shift_datetime(name, operand, zone)
def row_hash(operator: p.Operator):
    """The function of a bound ``hash`` / ``xxhash64`` over its operands' values, NULLs among
    them (shared with the generated code)."""
    types = tuple(parse_type(t) for t in dict(operator.options)["types"])
    return hash_functions.row_hash(operator.name, types)


def format_function(operator: p.Operator):
    """The function of a bound ``format_string`` over its arguments' values, NULLs among them
    (shared with the generated code)."""
    options = dict(operator.options)
    function = java_formatter.formatter(options["format"], options["classes"], options["kinds"], options["scales"],
                                        options.get("java") or 17)
    return _located(function, operator.span) if operator.span is not None else function


def _located(function, span: tuple[int, int]):
    """``function``, with the errors it raises (overflow, division by zero) pointing at the
    operator's text in the statement."""

    def located(*values):
        try:
            return function(*values)
        except MatchRuntimeError as error:
            if error.span is None:
                error.span = span
            raise

    return located


def _element_last(build, args: list[Evaluator]) -> Evaluator:
    """``array_append`` / ``array_prepend`` / ``array_insert``: Spark reads the array (then the
    position) first, and a NULL there is NULL without reading the element (measured: an element
    that raises is not raised)."""
    *leading, element = args

    def evaluate(ctx):
        values = []
        for arg in leading:
            value = arg(ctx)
            if value is None:
                return None
            values.append(value)
        return build(*values, element(ctx))

    return evaluate


def _typed_operator(operator: p.Operator, args: list[Evaluator]) -> Evaluator:
    """A bound operator (``sparkcep.evaluation.binding``): Spark's semantics for its types."""
    name = operator.name
    function = typed_function(operator)
    if function is not None and name in ops.RIGHT_FIRST:
        return _right_first(function, *args, dict(operator.options).get("ansi", True))
    if function is not None:
        return _strict(function, args)
    options = dict(operator.options)
    operand = parse_type(options.get("operand"))
    if name in ("null_safe_eq", "null_safe_neq"):
        equal = ops.comparison("eq", operand)
        left, right = args
        negate = name == "null_safe_neq"

        def null_safe(ctx):
            a, b = left(ctx), right(ctx)
            same = (a is None and b is None) if a is None or b is None else equal(a, b)
            return same is not negate

        return null_safe
    if name in ("and", "or"):
        return _connective(args, stop=name == "or")
    if name == "not":
        (arg,) = args
        return lambda ctx: None if (v := arg(ctx)) is None else not v
    if name == "is_null":
        (arg,) = args
        return lambda ctx: arg(ctx) is None
    if name in ("is_true", "is_false"):
        (arg,) = args
        wanted = name == "is_true"
        return lambda ctx: arg(ctx) is wanted
    if name == "coalesce":
        return _coalesce(args)
    if name == "concat":
        return _concat(args)
    if name == "array":  # not strict: NULL elements are kept
        return lambda ctx: [arg(ctx) for arg in args]
    if name == "named_struct":  # not strict: NULL fields are kept (structs)
        build = struct_functions.named_struct(tuple(options["names"]))
        return lambda ctx: build(*(arg(ctx) for arg in args))
    if name in collection_builders.NOT_STRICT_BUILDERS:  # array_append(arr, NULL) is not NULL, ...
        build = _collection_builder(name, operand, options, options.get("zone", "UTC"))
        build = _located(build, operator.span) if operator.span is not None else build
        if name in ("array_append", "array_prepend", "array_insert"):
            return _element_last(build, args)
        return lambda ctx: build(*(arg(ctx) for arg in args))
    if name in ("hash", "xxhash64"):  # not strict: a NULL leaves the running hash as it is
        combined = row_hash(operator)
        return lambda ctx: combined(*(arg(ctx) for arg in args))
    if name == "format_string":  # not strict: a NULL argument prints 'null'
        formatted = format_function(operator)
        return lambda ctx: formatted(*(arg(ctx) for arg in args))
    if name == "concat_ws":  # not strict: NULL parts are skipped
        return lambda ctx: functions.concat_ws(*(arg(ctx) for arg in args))
    if name in ("greatest", "least"):
        pick = max if name == "greatest" else min
        key = None if operand is None else ops.order_key(operand)

        def extreme(ctx):  # Spark's greatest/least skip NULLs; NaN is above every number, a
            # NULL element of an array below every string
            values = [v for v in (arg(ctx) for arg in args) if v is not None]
            if not values:
                return None
            return pick(values, key=key) if key else pick(values)

        return extreme
    if name == "list":
        return lambda ctx: [arg(ctx) for arg in args]
    if name == "in":
        subject, options_list = args
        equal = ops.comparison("eq", operand)

        def membership(ctx):
            value = subject(ctx)
            if value is None:
                return None
            unknown = False
            for option in options_list(ctx):
                if option is None:
                    unknown = True
                elif equal(value, option):
                    return True
            return None if unknown else False

        return membership
    if name == "if":
        condition, then, otherwise = args
        return lambda ctx: then(ctx) if condition(ctx) is True else otherwise(ctx)
    if name == "case":  # bound CASE: no subject; (None, default, when1, then1, ...)
        _subject, default, *branches = args
        pairs = list(zip(branches[0::2], branches[1::2]))

        def case(ctx):
            for when, then in pairs:
                if when(ctx) is True:
                    return then(ctx)
            return default(ctx)

        return case
    raise ValueError(f"unknown operator {name}")
