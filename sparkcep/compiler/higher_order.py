"""Lowering Spark's higher-order functions (``transform``, ``filter``, ``exists``, ``forall``,
``aggregate`` / ``reduce``, ``zip_with``, ``map_filter``, ``transform_values``,
``transform_keys``, ``map_zip_with``, ``array_sort`` with a comparator) whose lambda body or other arguments read more than one row of the match
(``exists(B.arr, x -> x > A.v)``): the function becomes a plan ``Operator`` whose lambda
operands are ``plan.Lambda`` nodes, evaluated in Python by
``sparkcep.evaluation.higher_order_functions`` (``array_sort`` with a comparator: the plan
operator ``array_sort_with_comparator``, by ``sparkcep.evaluation.comparator_sort``).

A mixin of ``sparkcep.compiler.lowering.Lowering``. While a lambda's body is lowered its
variables are in scope (``lambda_scope``, by lower-case name, as Spark resolves them
case-insensitively): a part of the body that reads one of them is match-dependent (``DEP``) and
is lowered operator by operator, down to ``plan.LambdaVariable`` leaves; a part that reads none
(``A.v``, ``upper(B.s)``) is lowered as anywhere else (a navigation, a value column Spark
computes per row). Outside a lambda being lowered, the variables are not in scope and a lambda
classifies as its body over the other names (the function may then be computed by Spark per
row, as before: ``Lowering.higher_order_kind``).
"""

from __future__ import annotations

from sqlglot import exp

from sparkcep.plan import expressions as p

# sqlglot's node (or the lower-case name of a function it does not model) -> the plan operator
HIGHER_ORDER_NODES = {exp.Transform: "transform", exp.ArrayFilter: "filter", exp.Exists: "exists",
                      exp.Reduce: "aggregate"}
HIGHER_ORDER_NAMES = {"transform": "transform", "filter": "filter", "exists": "exists", "forall": "forall",
                      "aggregate": "aggregate", "reduce": "aggregate", "zip_with": "zip_with",
                      "map_filter": "map_filter", "transform_values": "transform_values",
                      "transform_keys": "transform_keys", "map_zip_with": "map_zip_with"}
# the plan operator -> (number of arguments before the lambdas, the variables each lambda may
# take): Spark's ``bindInternal`` of each function
SIGNATURES = {
    "transform": (1, ((1, 2),)), "filter": (1, ((1, 2),)), "exists": (1, ((1,),)), "forall": (1, ((1,),)),
    "aggregate": (2, ((2,), (1,))), "zip_with": (2, ((2,),)), "map_filter": (1, ((2,),)),
    "transform_values": (1, ((2,),)), "transform_keys": (1, ((2,),)), "map_zip_with": (2, ((3,),)),
    "array_sort_with_comparator": (1, ((2,),)),  # array_sort(arr, (l, r) -> ...)
}


def higher_order_name(node: exp.Expression) -> str | None:
    """The plan operator of a higher-order function sparkcep evaluates between rows, or None."""
    name = HIGHER_ORDER_NODES.get(type(node))
    if name is None and isinstance(node, exp.Anonymous) and isinstance(node.this, str | exp.Identifier):
        name = HIGHER_ORDER_NAMES.get(node.name.lower())
    if name == "exists" and not isinstance(node.args.get("expression"), exp.Lambda):
        return None  # EXISTS (subquery)
    # -- array_sort with a comparator (begin) --
    if isinstance(node, exp.ArraySort) and isinstance(node.args.get("expression"), exp.Lambda):
        return "array_sort_with_comparator"  # sort_array(arr, lambda) is sqlglot's asc=: not this
    # -- array_sort with a comparator (end) --
    return name


class LambdaLowering:
    """The higher-order functions' part of ``Lowering`` (which provides ``scope``, ``classify``,
    ``lower_operand``)."""

    lambda_scope: dict[str, p.LambdaVariable | None]
    lambda_count: int

    def lambda_reference(self, node: exp.Expression) -> tuple[bool, p.LambdaVariable | None]:
        """Whether ``node`` names a lambda variable in scope, and which (None: a variable of the
        lambda being classified, which reads no row). A bare name (sqlglot's Identifier) or an
        unqualified column whose name is a variable's in another case (Spark resolves lambda
        variables case-insensitively, before columns)."""
        scope = getattr(self, "lambda_scope", None)
        if not scope:
            return False, None
        if isinstance(node, exp.Identifier):
            if isinstance(node.parent, exp.Lambda) and node.arg_key == "expressions":
                return False, None  # a lambda's own parameter list
            name = node.name.lower()
        elif isinstance(node, exp.Column) and not node.table and isinstance(node.this, exp.Identifier):
            name = node.name.lower()
        else:
            return False, None
        return (name in scope), scope.get(name)

    def lambda_variable_in_scope(self, node: exp.Expression) -> p.LambdaVariable | None:
        """The lambda variable (of a lambda being lowered) ``node`` names, or None."""
        return self.lambda_reference(node)[1]

    def lambda_kind(self, node: exp.Lambda):
        """How a lambda depends on the match: as its body, where its own variables (which hide
        any of an enclosing lambda with the same name) read no row."""
        scope = getattr(self, "lambda_scope", None) or {}
        saved = scope
        self.lambda_scope = {**scope, **{i.name.lower(): None for i in node.expressions}}
        try:
            return self.classify(node.this)
        finally:
            self.lambda_scope = saved

    def lower_higher_order(self, node: exp.Expression, name: str, written: str) -> p.Operator:
        """``node`` (a higher-order function reading more than one row) as a plan operator:
        its arguments, then its lambdas (``plan.Lambda``)."""
        if isinstance(node, exp.Anonymous):
            operands = list(node.expressions)
        elif isinstance(node, exp.Reduce):
            operands = [node.this, node.args.get("initial"), node.args.get("merge")] + \
                ([node.args["finish"]] if node.args.get("finish") is not None else [])
        else:
            operands = [node.this, node.expression]
        count, arities = SIGNATURES[name]
        arguments, lambdas = operands[:count], operands[count:]
        if len(arguments) < count or not 1 <= len(lambdas) <= len(arities) or \
                (name != "aggregate" and len(lambdas) != 1) or any(o is None for o in operands):
            raise self.scope.error("WRONG_NUM_ARGS", f"`{written}` is called with a wrong number of arguments", node)
        for function, allowed in zip(lambdas, arities):
            if not isinstance(function, exp.Lambda):
                raise self.scope.error(
                    "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
                    f"the argument of '{written}' here must be a lambda function (x -> ...) when it is "
                    "evaluated between rows of a match in DEFINE", function)
            names = [i.name.lower() for i in function.expressions]
            if len(names) not in allowed:
                raise self.scope.error(
                    "INVALID_LAMBDA_FUNCTION_CALL",
                    f"Invalid lambda function call. A higher order function expects {len(names)} arguments, "
                    f"but got {allowed[0]}", function)
            if len(set(names)) != len(names):
                raise self.scope.error(
                    "INVALID_LAMBDA_FUNCTION_CALL",
                    "Invalid lambda function call. The lambda function has duplicate arguments", function)
        lowered: list[p.Expression] = [self.lower_operand(a) for a in arguments]
        lowered += [self.lower_lambda(function) for function in lambdas]
        return p.Operator(name, tuple(lowered), span=_span(node))

    def lower_lambda(self, node: exp.Lambda) -> p.Lambda:
        scope = getattr(self, "lambda_scope", None) or {}
        parameters = []
        for identifier in node.expressions:
            self.lambda_count = getattr(self, "lambda_count", 0) + 1
            parameters.append(p.LambdaVariable(self.lambda_count, identifier.name))
        saved = scope
        self.lambda_scope = {**scope, **{v.name.lower(): v for v in parameters}}
        try:
            body = self.lower_operand(node.this)
        finally:
            self.lambda_scope = saved
        return p.Lambda(tuple(parameters), body)


def _span(node: exp.Expression):
    from sparkcep import dialect

    return dialect.span(node)
