"""The Python side of Spark's operators over single values, shared by the interpreter and the
generated code: arithmetic, comparison, NULL-safe equality and SQL's three-valued truth."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any, Callable

from sparkcep.errors import MatchRuntimeError


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


def truth(value) -> bool | None:
    return None if value is None else bool(value)


def null_safe_eq(a, b):
    if a is None or b is None:
        return a is None and b is None
    return BINARY["eq"](a, b)
