"""Compiling match-dependent DEFINE conditions to Python source.

``sparkcep.evaluation`` interprets plan expressions as a tree of closures: clear, general, and
the reference semantics. A condition runs once per candidate row and tentative variable, so its
cost is the matcher's inner loop; this module turns the common shapes (column values at the
current row, FIRST/LAST navigation, comparisons, arithmetic, AND/OR/NOT, IS NULL) into one
straight-line Python function with SQL's NULL rules inlined. Anything else is delegated to the
interpreter for that subtree. Operands of mixed numeric types (DECIMAL with DOUBLE) make Python
raise TypeError; the caller then evaluates that call with the interpreter, which converts.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from sparkcep import plan as p

_COMPARE = {"eq": "==", "neq": "!=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<="}
_ARITHMETIC = {"add": "+", "sub": "-", "mul": "*"}


def _divide(a, b):
    from sparkcep.evaluation import BINARY

    return BINARY["div"](a, b)


def _truth(value):
    return None if value is None else bool(value)


def _navigate_generic(ctx, variables, from_start, offset):
    rows = ctx.mapped_rows(variables)
    position = offset if from_start else len(rows) - 1 - offset
    return rows[position] if 0 <= position < len(rows) else None


class _Generator:
    def __init__(self, names: Sequence[str], fallback: Callable) -> None:
        self.names = names
        self.fallback = fallback
        self.namespace: dict[str, Any] = {"_truth": _truth}
        self.counter = 0

    def temp(self) -> str:
        self.counter += 1
        return f"t{self.counter}"

    def bind(self, value) -> str:
        name = f"k{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def __call__(self, e: p.Expression) -> str:
        if isinstance(e, p.Constant):
            return self.bind(e.value)
        if isinstance(e, p.CurrentRow):
            return f"value({e.column}, row)"
        if isinstance(e, p.MatchNumber):
            return "ctx.match_number"
        if isinstance(e, p.Navigation):
            r = self.temp()
            variables = self.bind(e.variables)
            return (f"(None if ({r} := navigate({variables}, {e.from_start}, {e.offset})) is None "
                    f"else value({e.column}, {r}))")
        if isinstance(e, p.Operator):
            return self.operator(e)
        return f"{self.bind(self.fallback(e))}(ctx)"

    def operator(self, e: p.Operator) -> str:
        name, ops = e.name, e.operands
        if name in _COMPARE or name in _ARITHMETIC:
            a, b = self.temp(), self.temp()
            symbol = _COMPARE.get(name) or _ARITHMETIC[name]
            return (f"(None if ({a} := {self(ops[0])}) is None or ({b} := {self(ops[1])}) is None "
                    f"else {a} {symbol} {b})")
        if name == "div":
            a, b = self.temp(), self.temp()
            divide = self.bind(_divide)
            return (f"(None if ({a} := {self(ops[0])}) is None or ({b} := {self(ops[1])}) is None "
                    f"else {divide}({a}, {b}))")
        if name in ("and", "or"):
            stop = "False" if name == "and" else "True"
            temps = [self.temp() for _ in ops]
            # Left to right: a stopping value wins; otherwise NULL if any operand was NULL.
            tail = f"(None if ({' or '.join(f'{t} is None' for t in temps)}) else {'True' if name == 'and' else 'False'})"
            expression = tail
            for t, operand in reversed(list(zip(temps, ops))):
                expression = f"({stop} if ({t} := _truth({self(operand)})) is {stop} else {expression})"
            return expression
        if name == "not":
            t = self.temp()
            return f"(None if ({t} := _truth({self(ops[0])})) is None else not {t})"
        if name == "is":
            return f"({self(ops[0])} is None)"
        if name == "paren":
            return self(ops[0])
        return f"{self.bind(self.fallback(e))}(ctx)"


def generate(expression: p.Expression, names: Sequence[str], fallback: Callable) -> Callable:
    """A function ``f(ctx)`` computing ``expression``; ``fallback(subtree)`` compiles what the
    generator does not inline (it must return a function of ctx)."""
    generator = _Generator(names, fallback)
    body = generator(expression)
    source = (
        "def evaluate(ctx):\n"
        "    value = ctx.value\n"
        "    row = ctx.row\n"
        "    navigate = getattr(ctx, 'navigate', None) or (lambda v, f, o: _generic(ctx, v, f, o))\n"
        f"    return {body}\n"
    )
    namespace = dict(generator.namespace, _generic=_navigate_generic)
    exec(compile(source, "<sparkcep condition>", "exec"), namespace)
    function = namespace["evaluate"]
    function.source = source
    return function
