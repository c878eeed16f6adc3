"""DEFINE conditions for the engines: the generated fast form of a match-dependent expression
(``evaluation.codegen``), which shares each operator's definition with the interpreter
(``evaluation.interpreter``, ``evaluation.operators``)."""

from __future__ import annotations

import functools
from typing import Sequence

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

    ``expression`` is bound to Spark's types at registration (``sparkcep.evaluation.binding``):
    every implicit cast is explicit and each operator carries its types, so the generated fast
    version (``sparkcep.evaluation.codegen``) and the interpreter compute the same function from
    the one definition in ``sparkcep.evaluation.operators``; there is no fallback between them.

    The returned function also has ``condition.specialize(var, slots)``: the form
    ``sparkcep.engines.standard.matcher`` calls in its inner loop (``codegen.specialize``: no context object;
    navigation read from the matcher's per-attempt state), or None when the expression has a part
    that form does not inline (the matcher then calls ``condition(ctx)``)."""
    _interpret, fast = _compiled_condition(expression, tuple(variable_names))

    def condition(ctx) -> bool:
        return truth(fast(ctx)) is True

    condition.specialize = lambda var, slots: specialize(expression, variable_names, var, slots)
    return condition
