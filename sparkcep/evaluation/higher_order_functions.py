"""Spark's higher-order functions between rows: a lambda applied to the elements of an array or
the entries of a map, whose body or other arguments read values of more than one row of the
match (``exists(B.arr, x -> x > A.v)``), as Spark 4.3 evaluates them (``ArrayTransform``,
``ArrayFilter``, ``ArrayExists``, ``ArrayForAll``, ``ArrayAggregate``, ``ZipWith``,
``MapFilter``, ``TransformValues``, ``TransformKeys``, ``MapZipWith``), checked against Spark's recorded
answers (``tests/evaluation/corpus.py``, ANSI on and off).

Arrays are Python lists (NULL elements None), maps lists of (key, value) tuples in Spark's order,
as everywhere in ``sparkcep.evaluation``. The binding (``sparkcep.evaluation.binding.
higher_order``) typed each lambda variable as Spark's analyzer does and the body's operators
over it; here the body is a compiled evaluator called once per element, in order, with the
element (and index, entry, accumulator) bound to its variables:

* every function is NULL for a NULL array or map (its first argument, evaluated first; for
  ``zip_with`` either array, the second evaluated only when the first is not NULL), and then
  evaluates nothing else (``aggregate``'s start value neither);
* NULL elements are passed to the lambda like any other value;
* ``transform(arr, x -> f)`` / ``(x, i) -> f``: ``[f(x0, 0), f(x1, 1), ...]``;
* ``filter(arr, x -> p)`` / ``(x, i) -> p``: the elements for which p is TRUE (not NULL);
* ``exists(arr, x -> p)``: TRUE at the first element for which p is TRUE (the later ones are
  not evaluated: an error there is not raised); otherwise NULL if p was NULL for some element
  (``spark.sql.legacy.followThreeValuedLogicInArrayExists``, default true; FALSE when it is
  false), else FALSE; FALSE for an empty array;
* ``forall(arr, x -> p)``: FALSE at the first element for which p is FALSE; otherwise NULL if p
  was NULL for some element, else TRUE; TRUE for an empty array;
* ``aggregate(arr, start, (acc, x) -> merge[, acc -> finish])`` (and ``reduce``): acc = start,
  then acc = merge(acc, x) for each element in order, then finish(acc) (acc itself without a
  finish);
* ``zip_with(a, b, (x, y) -> f)``: as long as the longer array, the shorter one's missing
  elements NULL;
* ``map_filter(m, (k, v) -> p)``: the entries for which p is TRUE, in order;
* ``transform_values(m, (k, v) -> f)``: the same keys, values f(k, v);
* ``map_zip_with(m1, m2, (k, v1, v2) -> f)``: see ``_map_zip_with``;
* ``transform_keys(m, (k, v) -> f)``: keys f(k, v) with the same values, built as Spark's
  ``ArrayBasedMapBuilder`` builds a map (``collection_builders.map_builder``): a NULL key is
  ``NULL_MAP_KEY``, a key equal to an earlier one ``DUPLICATED_MAP_KEY``, or under
  ``spark.sql.mapKeyDedupPolicy`` LAST_WIN its value replaces the earlier one's.

A lambda body reads its variables from a ``LambdaFrame``: the match's context (every attribute
is the context's) with the values of the variables in scope, one frame per call of the
function, so no evaluator holds state between calls.
"""

from __future__ import annotations

from typing import Any, Callable

from sparkcep.evaluation import collection_builders, sql_types
from sparkcep.evaluation.collection_functions import element_key
from sparkcep.evaluation.sql_types import parse as parse_type
from sparkcep.plan import expressions as p

Evaluator = Callable[[Any], Any]

# the plan operators of this module (sparkcep.evaluation.operators.OPERATORS lists them too)
HIGHER_ORDER_FUNCTIONS = ("transform", "filter", "exists", "forall", "aggregate", "zip_with", "map_filter",
                          "transform_values", "transform_keys", "map_zip_with")


_MISSING = object()  # an attribute the context lacks


class LambdaFrame:
    """A ``MatchContext`` for a lambda body: the enclosing context's attributes, and
    ``lambda_values`` (variable number -> value) for the variables in scope (those of enclosing
    lambdas too)."""

    # the context's attributes a body reads per element, copied once per call (the others are
    # read through ``__getattr__``); one the context lacks stays unset here too
    _COPIED = ("value", "row", "navigate", "mapped_rows", "match_number")
    __slots__ = ("_context", "lambda_values", *_COPIED)

    def __init__(self, context) -> None:
        self._context = context
        outer = getattr(context, "lambda_values", None)
        self.lambda_values: dict[int, Any] = dict(outer) if outer else {}
        for name in self._COPIED:
            value = getattr(context, name, _MISSING)
            if value is not _MISSING:
                setattr(self, name, value)

    def __getattr__(self, name: str):
        return getattr(self._context, name)


def lambda_variable(variable: p.LambdaVariable) -> Evaluator:
    number = variable.number
    return lambda ctx: ctx.lambda_values[number]


def compile_higher_order(operator: p.Operator, compile_operand: Callable[[p.Expression], Evaluator]) -> Evaluator:
    """The evaluator of a bound higher-order function ``operator`` (a name of
    ``HIGHER_ORDER_FUNCTIONS``); ``compile_operand`` compiles its other operands and the lambda
    bodies (``interpreter.compile_expression``)."""
    name = operator.name
    arguments = [o for o in operator.operands if not isinstance(o, p.Lambda)]
    lambdas = [o for o in operator.operands if isinstance(o, p.Lambda)]
    values = [compile_operand(o) for o in arguments]
    bodies = [compile_operand(f.body) for f in lambdas]
    numbers = [tuple(v.number for v in f.parameters) for f in lambdas]
    if name in ("transform", "filter"):
        return _element_wise(name, values[0], bodies[0], numbers[0])
    if name in ("exists", "forall"):
        three_valued = dict(operator.options).get("three_valued", True)
        return _quantifier(name == "exists", values[0], bodies[0], numbers[0][0], three_valued)
    if name == "aggregate":
        return _aggregate(values[0], values[1], bodies, numbers)
    if name == "zip_with":
        return _zip_with(values[0], values[1], bodies[0], numbers[0])
    if name in ("map_filter", "transform_values"):
        return _map_entries(name, values[0], bodies[0], numbers[0])
    if name == "transform_keys":
        key_type, _value_type = sql_types.map_types(parse_type(operator.type))
        last_wins = dict(operator.options).get("dedup") == "LAST_WIN"
        return _transform_keys(values[0], bodies[0], numbers[0], collection_builders.map_builder(key_type, last_wins))
    if name == "map_zip_with":
        key_type, _value_type = sql_types.map_types(parse_type(operator.type))
        return _map_zip_with(values[0], values[1], bodies[0], numbers[0], key_type)
    raise ValueError(f"unknown higher-order function {name}")


def _element_wise(name: str, array: Evaluator, body: Evaluator, numbers: tuple[int, ...]) -> Evaluator:
    element = numbers[0]
    index = numbers[1] if len(numbers) > 1 else None
    keep_only = name == "filter"

    def evaluate(ctx):
        values = array(ctx)
        if values is None:
            return None
        frame = LambdaFrame(ctx)
        bound = frame.lambda_values
        out = []
        for i, x in enumerate(values):
            bound[element] = x
            if index is not None:
                bound[index] = i
            result = body(frame)
            if not keep_only:
                out.append(result)
            elif result is True:
                out.append(x)
        return out

    return evaluate


def _quantifier(exists: bool, array: Evaluator, body: Evaluator, element: int, three_valued: bool) -> Evaluator:
    """``exists`` (``exists`` True) or ``forall``: the first element whose predicate is the
    deciding value (TRUE / FALSE) decides; otherwise NULL if some predicate was NULL."""
    deciding = exists

    def evaluate(ctx):
        values = array(ctx)
        if values is None:
            return None
        frame = LambdaFrame(ctx)
        bound = frame.lambda_values
        found_null = False
        for x in values:
            bound[element] = x
            result = body(frame)
            if result is None:
                found_null = True
            elif result is deciding:
                return deciding
        if found_null and (three_valued or not exists):
            return None
        return not deciding

    return evaluate


def _aggregate(array: Evaluator, start: Evaluator, bodies: list[Evaluator], numbers: list[tuple[int, ...]]) -> Evaluator:
    merge = bodies[0]
    accumulator, element = numbers[0]
    finish = bodies[1] if len(bodies) > 1 else None
    finish_variable = numbers[1][0] if len(bodies) > 1 else None

    def evaluate(ctx):
        values = array(ctx)
        if values is None:
            return None
        frame = LambdaFrame(ctx)
        bound = frame.lambda_values
        acc = start(ctx)
        for x in values:
            bound[accumulator] = acc
            bound[element] = x
            acc = merge(frame)
        if finish is None:
            return acc
        bound[finish_variable] = acc
        return finish(frame)

    return evaluate


def _zip_with(left: Evaluator, right: Evaluator, body: Evaluator, numbers: tuple[int, ...]) -> Evaluator:
    first, second = numbers

    def evaluate(ctx):
        a = left(ctx)
        if a is None:
            return None
        b = right(ctx)
        if b is None:
            return None
        frame = LambdaFrame(ctx)
        bound = frame.lambda_values
        out = []
        for i in range(max(len(a), len(b))):
            bound[first] = a[i] if i < len(a) else None
            bound[second] = b[i] if i < len(b) else None
            out.append(body(frame))
        return out

    return evaluate


def _map_entries(name: str, entries: Evaluator, body: Evaluator, numbers: tuple[int, ...]) -> Evaluator:
    key, value = numbers
    keep_only = name == "map_filter"

    def evaluate(ctx):
        m = entries(ctx)
        if m is None:
            return None
        frame = LambdaFrame(ctx)
        bound = frame.lambda_values
        out = []
        for k, v in m:
            bound[key] = k
            bound[value] = v
            result = body(frame)
            if not keep_only:
                out.append((k, result))
            elif result is True:
                out.append((k, v))
        return out

    return evaluate


def _transform_keys(entries: Evaluator, body: Evaluator, numbers: tuple[int, ...], build) -> Evaluator:
    key, value = numbers

    def evaluate(ctx):
        m = entries(ctx)
        if m is None:
            return None
        frame = LambdaFrame(ctx)
        bound = frame.lambda_values
        keys = []
        for k, v in m:
            bound[key] = k
            bound[value] = v
            keys.append(body(frame))
        return build(zip(keys, (v for _k, v in m)))

    return evaluate


def _map_zip_with(left: Evaluator, right: Evaluator, body: Evaluator, numbers: tuple[int, ...], key_type) -> Evaluator:
    """Spark's ``MapZipWith`` with its Java collections (``spark.sql.mapZipWithUsesJavaCollections``,
    default true): the keys of the left map, then the right map's others, in order, each once
    (equal as Spark's ordering has them: NaN to NaN, -0.0 to 0.0), a DOUBLE or FLOAT key
    normalized (-0.0 becomes 0.0); the value of a key's first entry in each map, NULL where a map
    has none."""
    key_variable, first, second = numbers
    same = element_key(key_type)
    fractional = key_type.name in ("double", "float")

    def evaluate(ctx):
        a = left(ctx)
        if a is None:
            return None
        b = right(ctx)
        if b is None:
            return None
        places: dict = {}  # key as compared -> [key, value in a, value in b, seen in a, seen in b]
        for side, entries in ((0, a), (1, b)):
            for k, v in entries:
                place = places.get(same(k))
                if place is None:
                    place = places[same(k)] = [0.0 if fractional and k == 0 else k, None, None, False, False]
                if not place[3 + side]:
                    place[1 + side], place[3 + side] = v, True
        frame = LambdaFrame(ctx)
        bound = frame.lambda_values
        out = []
        for k, v1, v2, _seen_a, _seen_b in places.values():
            bound[key_variable], bound[first], bound[second] = k, v1, v2
            out.append((k, body(frame)))
        return out

    return evaluate
