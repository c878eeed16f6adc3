"""DEFINE conditions for the engines: the generated fast form of a match-dependent expression
(``evaluation.codegen``) with the interpreter (``evaluation.interpreter``) as the definition of its
semantics and the fallback for operands of mixed types."""

from __future__ import annotations

import functools
from typing import Sequence

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation.codegen import generate, specialize
from sparkcep.evaluation.interpreter import compile_expression
from sparkcep.evaluation.operators import truth
from sparkcep.plan import expressions as p


def _compile_condition(expression: p.Expression, names: tuple[str, ...], _text: str = ""):
    """(interpreter, generated function) for a condition; ``_text`` (the expression's repr) is
    only part of the cache key, see below."""
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

    It runs the generated fast version (``sparkcep.evaluation.codegen``) and, when that meets operands of
    mixed types, the interpreter, which defines the semantics.

    The returned function also has ``condition.specialize(var, slots)``: the form
    ``sparkcep.engines.standard.matcher`` calls in its inner loop (``codegen.specialize``: no context object;
    navigation read from the matcher's per-attempt state), or None when the expression has a part
    that form does not inline. It raises TypeError where the general form would fall back to the
    interpreter; the caller then calls ``condition(ctx)`` itself for that row."""
    interpret, fast = _compiled_condition(expression, tuple(variable_names))

    def condition(ctx) -> bool:
        try:
            return truth(fast(ctx)) is True
        except TypeError:
            pass
        try:
            return truth(interpret(ctx)) is True
        except TypeError as error:
            raise MatchRuntimeError(
                "DEFINE_EVALUATION_ERROR",
                f"a DEFINE condition could not be evaluated: {error}",
            ) from None

    condition.specialize = lambda var, slots: specialize(expression, variable_names, var, slots)
    return condition
