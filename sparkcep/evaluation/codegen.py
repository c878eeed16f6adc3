"""Compiling match-dependent DEFINE conditions to Python source.

``sparkcep.evaluation`` interprets plan expressions as a tree of closures: clear, general, and
the reference semantics. A condition runs once per candidate row and tentative variable, so its
cost is the matcher's inner loop; this module turns the common shapes (column values at the
current row, FIRST/LAST navigation, comparisons, arithmetic, AND/OR/NOT, IS NULL) into one
straight-line Python function with SQL's NULL rules inlined. The expression is bound to Spark's
types (``sparkcep.evaluation.binding``): an operator is inlined only where Python's operator is
exactly Spark's for the bound type (comparisons other than of DOUBLE/FLOAT, DOUBLE + - *); the
others call their one definition in ``sparkcep.evaluation.operators``.

Two forms are generated from the same expression:

* ``generate``: a function of any ``MatchContext`` (``f(ctx)``). Anything the generator does not
  inline is delegated to the interpreter for that subtree.
* ``specialize``: the form ``sparkcep.engines.standard.matcher`` calls in its inner loop, for one variable (the one
  the condition is attached to, so whether the candidate row belongs to a navigated variable set
  is known statically). It reads the matcher's buffered columns by index and the matcher's
  per-attempt navigation state directly, with no context object:

      f(i, lo, cols, tracks, number) -> truthy iff the condition holds

  ``i`` = buffer index of the candidate row, ``lo`` = buffer index of the attempt's first row,
  ``cols`` = the buffered columns (``cols[c][i]`` is column ``c`` at the candidate),
  ``tracks[k]`` = the path indices (row - start of the attempt) of the rows mapped so far, before
  the candidate, to a variable of the k-th navigated variable set, in increasing order (see
  ``slots`` in ``specialize``), ``number`` = the match number under construction. Expressions
  with a part the specialized form does not inline (aggregates other than COUNT of rows and
  MIN/MAX, CLASSIFIER, CASE, ...) are not specialized; the matcher then calls the general form.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

from sparkcep.evaluation.interpreter import format_function, row_hash, typed_function
from sparkcep.evaluation.operators import BINARY, RIGHT_FIRST, order_key
from sparkcep.evaluation.sql_types import parse as parse_type
from sparkcep.plan import expressions as p

_COMPARE = {"eq": "==", "neq": "!=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<="}
_ARITHMETIC = {"add": "+", "sub": "-", "mul": "*"}


def _divide(a, b):
    return BINARY["div"](a, b)


def _extreme(pick):
    def aggregate(values):
        present = [v for v in values if v is not None]
        return pick(present) if present else None

    return aggregate


# DISTINCT does not change MIN/MAX
_min_or_max = {(name, distinct): _extreme(pick) for name, pick in (("min", min), ("max", max))
               for distinct in (False, True)}


def _navigate_generic(ctx, variables, from_start, offset):
    rows = ctx.mapped_rows(variables)
    position = offset if from_start else len(rows) - 1 - offset
    return rows[position] if 0 <= position < len(rows) else None


class _NotInlinable(Exception):
    """The specialized form cannot express a subtree (the caller keeps the general form)."""


class _Generator:
    """Python source for an expression.

    The general form reads through ``ctx`` (``value``, ``navigate``, ``row`` are locals bound from
    it); the specialized form (``var`` set) reads ``cols``/``tracks`` as described in the module
    docstring and binds each column and track it uses to a local in ``prologue``."""

    def __init__(self, names: Sequence[str], fallback: Callable | None,
                 var: int | None = None, slots: dict | None = None) -> None:
        self.names = names
        self.fallback = fallback
        self.namespace: dict[str, Any] = {}
        self.counter = 0
        self.var = var
        self.slots = slots
        # specialized form: local name -> its initialisation, in order (the columns and tracks
        # read, then each distinct column value / navigation leaf, computed once per call: leaves
        # are cheap and cannot raise, so evaluating them eagerly changes no result)
        self.prologue: dict[str, str] = {}
        self.leaves: dict[p.Expression, str] = {}  # leaf -> its local (specialized form)
        self.not_null: set[str] = set()  # names known not to be NULL (non-NULL constants)

    def temp(self) -> str:
        self.counter += 1
        return f"t{self.counter}"

    def bind(self, value) -> str:
        name = f"k{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def delegate(self, e: p.Expression) -> str:
        if self.var is not None:
            raise _NotInlinable(type(e).__name__)
        return f"{self.bind(self.fallback(e))}(ctx)"

    def __call__(self, e: p.Expression) -> str:
        if isinstance(e, p.Constant):
            name = self.bind(e.value)
            if e.value is not None:
                self.not_null.add(name)
            return name
        if self.var is not None:
            if isinstance(e, p.Operator):
                return self.operator(e)
            local = self.leaves.get(e)
            if local is None:
                local = self.leaves[e] = f"v{len(self.leaves)}"
                self.prologue[local] = self.specialized_leaf(e)
            return local
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
        return self.delegate(e)

    # -- the specialized form's leaves ---------------------------------------------------------

    def column(self, c: int) -> str:
        name = f"c{c}"
        self.prologue[name] = f"cols[{c}]"
        return name

    def track(self, variables: frozenset[int]) -> str:
        slot = self.slots.setdefault(variables, len(self.slots))
        name = f"m{slot}"
        self.prologue[name] = f"tracks[{slot}]"
        return name

    def specialized_leaf(self, e: p.Expression) -> str:
        if isinstance(e, p.CurrentRow):
            return f"{self.column(e.column)}[i]"
        if isinstance(e, p.MatchNumber):
            return "number"
        if isinstance(e, p.Navigation):
            return self.specialized_navigation(e)
        if isinstance(e, p.Aggregate) and e.function == "count" and e.column is None:
            # COUNT(*) / COUNT(S.*): the rows mapped so far (with the candidate) to S
            if e.variables is None:
                return "(i - lo + 1)"
            included = self.var in e.variables
            return f"(len({self.track(e.variables)}){' + 1' if included else ''})"
        if isinstance(e, p.Aggregate) and e.function in ("min", "max") and e.column is not None:
            # MIN/MAX(S.c) over the rows mapped so far (with the candidate) to S, NULLs skipped
            c = self.column(e.column)
            if e.variables is None:
                values = f"{c}[lo:i + 1]"
            else:
                candidate = f" + [{c}[i]]" if self.var in e.variables else ""
                values = f"[{c}[lo + j] for j in {self.track(e.variables)}]{candidate}"
            function = self.bind(_min_or_max[e.function, e.distinct])
            return f"{function}({values})"
        return self.delegate(e)

    def specialized_navigation(self, e: p.Navigation) -> str:
        """FIRST/LAST(S.c, k) in O(1). The rows visible are those mapped so far to S, then the
        candidate row when the condition's variable is in S (RUNNING semantics)."""
        c, k = self.column(e.column), e.offset
        if e.variables is None:
            # every row of the attempt: buffer indices lo .. i
            if e.from_start:
                return f"(None if lo + {k} > i else {c}[lo + {k}])"
            return f"{c}[i]" if k == 0 else f"(None if i - {k} < lo else {c}[i - {k}])"
        m = self.track(e.variables)

        def more_than(j: int) -> str:  # "the track has more than j entries"
            return m if j == 0 else f"len({m}) > {j}"

        if self.var in e.variables:
            if e.from_start:
                n = self.temp()
                return (f"({c}[lo + {m}[{k}]] if ({n} := len({m})) > {k} "
                        f"else ({c}[i] if {n} == {k} else None))")
            if k == 0:
                return f"{c}[i]"
            return f"({c}[lo + {m}[-{k}]] if {more_than(k - 1)} else None)"
        if e.from_start:
            return f"({c}[lo + {m}[{k}]] if {more_than(k)} else None)"
        return f"({c}[lo + {m}[-{k + 1}]] if {more_than(k)} else None)"

    # -- operators (both forms) ----------------------------------------------------------------

    def strict(self, operands, combine: Callable[..., str], right_first: bool = False,
               zero_is_null: bool = False) -> str:
        """NULL if an operand is NULL (operands evaluated left to right, stopping at the first
        NULL; ``right_first``: the second of two first, and ``zero_is_null``: NULL when it is
        zero too, as Spark's division and remainder), else ``combine(names of the operand
        values)``. An operand that is already a name (a constant, a leaf local) is used as is;
        a non-NULL constant needs no test."""
        names, tests = [], []
        for operand in operands:
            source = self(operand)
            if source.isidentifier():
                name = source
                test = None if name in self.not_null else f"{name} is None"
            else:
                name = self.temp()
                test = f"({name} := {source}) is None"
            names.append(name)
            tests.append(test)
        if right_first:
            tests.reverse()
            if zero_is_null:
                tests.insert(1, f"{names[1]} == 0")
        tests = [t for t in tests if t is not None]
        if not tests:
            return f"({combine(*names)})"
        return f"(None if {' or '.join(tests)} else {combine(*names)})"

    def typed_operator(self, e: p.Operator) -> str | None:
        """Source for a bound operator (``sparkcep.evaluation.binding``), or None when the
        untyped rules below are the same (AND, OR, NOT). Operators whose Python meaning is
        exactly Spark's for the bound type are inlined; the rest call the one definition in
        ``sparkcep.evaluation.operators``."""
        name, ops = e.name, e.operands
        if name in ("and", "or", "not", "paren"):
            return None
        if name == "is_null":
            return f"({self(ops[0])} is None)"
        if name in ("is_true", "is_false"):
            return f"({self(ops[0])} is {name == 'is_true'})"
        if name in ("hash", "xxhash64"):  # not strict: every operand's value, NULL or not
            combined = self.bind(row_hash(e))
            return f"{combined}({', '.join(self(o) for o in ops)})"
        if name == "format_string":  # not strict: a NULL argument prints 'null'
            formatted = self.bind(format_function(e))
            return f"{formatted}({', '.join(self(o) for o in ops)})"
        function = typed_function(e)
        if function is None:
            return self.delegate(e)
        operand = parse_type(dict(e.options).get("operand"))
        result = parse_type(e.type)
        if name in _COMPARE and operand is not None and order_key(operand) is None:
            # Python's comparison is Spark's (not DOUBLE/FLOAT: NaN; not arrays: NULL elements)
            return self.strict(ops[:2], lambda a, b: f"{a} {_COMPARE[name]} {b}")
        if name in _ARITHMETIC and result.name == "double":
            return self.strict(ops[:2], lambda a, b: f"{a} {_ARITHMETIC[name]} {b}")
        f = self.bind(function)
        if name in RIGHT_FIRST:  # Spark's division and remainder read the divisor first
            return self.strict(ops, lambda *names: f"{f}({', '.join(names)})", right_first=True,
                               zero_is_null=not dict(e.options).get("ansi", True))
        return self.strict(ops, lambda *names: f"{f}({', '.join(names)})")

    def operator(self, e: p.Operator) -> str:
        name, ops = e.name, e.operands
        if e.type is not None:
            source = self.typed_operator(e)
            if source is not None:
                return source
        if name in _COMPARE or name in _ARITHMETIC:
            symbol = _COMPARE.get(name) or _ARITHMETIC[name]
            return self.strict(ops[:2], lambda a, b: f"{a} {symbol} {b}")
        if name == "div":
            divide = self.bind(_divide)
            return self.strict(ops[:2], lambda a, b: f"{divide}({a}, {b})")
        if name in ("and", "or"):
            # Left to right: an operand whose truth value is the stopping value (FALSE for AND,
            # TRUE for OR) decides; otherwise NULL if any operand was NULL. With t the operand's
            # raw value (None = NULL): "t is TRUE" is just ``t`` (None is falsy), "t is FALSE" is
            # ``t is not None and not t``.
            done = "False" if name == "and" else "True"
            operands = []  # (name of the value, source that computes it into the name)
            for operand in ops:
                source = self(operand)
                if source.isidentifier():
                    operands.append((source, source))
                else:
                    t = self.temp()
                    operands.append((t, f"({t} := {source})"))
            names = [t for t, _ in operands]
            expression = f"(None if ({' or '.join(f'{t} is None' for t in names)}) else {'True' if name == 'and' else 'False'})"
            for t, source in reversed(operands):
                test = f"{source} is not None and not {t}" if name == "and" else source
                expression = f"({done} if {test} else {expression})"
            return expression
        if name == "not":
            source = self(ops[0])
            if source.isidentifier():
                return f"(None if {source} is None else not {source})"
            t = self.temp()
            return f"(None if ({t} := {source}) is None else not {t})"
        if name == "is":
            test = ops[1]
            if isinstance(test, p.Constant) and isinstance(test.value, bool):
                return self.delegate(e)  # IS TRUE / IS FALSE
            return f"({self(ops[0])} is None)"
        if name == "paren":
            return self(ops[0])
        return self.delegate(e)


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


def specialize(expression: p.Expression, names: Sequence[str], var: int, slots: dict) -> Callable | None:
    """The matcher's form of ``expression`` as the DEFINE condition of variable ``var`` (see the
    module docstring), or None when the expression has a part this form does not inline.

    ``slots`` maps each navigated variable set to its index in the matcher's ``tracks``; sets not
    yet there are added (with the next index), so one dict shared by all the conditions of a
    matcher gives the list of tracks it must maintain. The result of the function is the value of
    the expression (None for NULL): the condition holds iff it is truthy, as with ``generate``.

    Results are cached by (expression, its repr, names, var, slots): the generated functions keep
    no state, and a plan is run for many partitions (compiling Python source costs ~0.3 ms). The
    repr tells apart constants that compare equal but differ in type (1, 1.0, True, Decimal(1)).
    """
    key = (expression, tuple(names), var, tuple(slots.items()))
    try:
        function, added = _specialized(*key, repr(expression))
    except TypeError:  # an unhashable constant (none is expected; then compile every time)
        function, added = _specialize(*key)
    slots.update(added)
    return function


def _specialize(expression: p.Expression, names: tuple[str, ...], var: int, slots: tuple, _text: str = ""):
    """``specialize`` without the cache: (function or None, the slots it added, as items).
    ``slots`` is the slots dict as items; ``_text`` (the expression's repr) is only part of the
    cache key."""
    known = dict(slots)
    trial = dict(slots)
    generator = _Generator(names, None, var=var, slots=trial)
    try:
        body = generator(expression)
    except _NotInlinable:
        return None, ()
    prologue = "".join(f"    {name} = {init}\n" for name, init in generator.prologue.items())
    source = (
        "def condition(i, lo, cols, tracks, number):\n"
        f"{prologue}"
        f"    return {body}\n"
    )
    namespace = dict(generator.namespace)
    exec(compile(source, f"<sparkcep condition of {names[var]}>", "exec"), namespace)
    function = namespace["condition"]
    function.source = source
    return function, tuple(item for item in trial.items() if item[0] not in known)


_specialized = functools.lru_cache(maxsize=256)(_specialize)
