"""Typing of Spark's higher-order functions between rows (``transform``, ``filter``, ``exists``,
``forall``, ``aggregate``, ``zip_with``, ``map_filter``, ``transform_values``,
``transform_keys``, ``map_zip_with``; evaluated by ``sparkcep.evaluation.higher_order_functions``), as Spark
4.3's analyzer types them (each function's ``bindInternal``, ``dataType`` and
``checkInputDataTypes``):

* each lambda variable has the type Spark binds it to: an array's element type, INT for an
  index, a map's key and value types, ``aggregate``'s start type for the accumulator (of
  ``merge`` and ``finish``); the body is typed over them like any expression;
* the first argument must be an ARRAY (``zip_with``: both; the map functions: a MAP), else
  Spark's ``DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE`` (here ``MATCH_DEPENDENT_TYPE_MISMATCH``);
* ``filter``, ``exists``, ``forall`` and ``map_filter`` need a BOOLEAN (or NULL) body: Spark
  casts nothing there;
* ``aggregate``'s merge must have exactly the start's type (``aggregate(arr_of_bigint, 0,
  (acc, x) -> acc + x)`` is an error in Spark: write ``0L``), no coercion;
* ``map_zip_with``'s maps must have keys of one type (Spark casts them to a common type: refused
  here) of an orderable atomic type; its lambda takes the key and both maps' values;
* results: ``transform`` and ``zip_with`` ARRAY<body's type>, ``map_zip_with`` MAP<key, body's type>, ``filter`` and ``map_filter`` the
  argument's type, ``exists`` and ``forall`` BOOLEAN, ``aggregate`` the finish's type (the
  start's without one), ``transform_values`` MAP<key, body's type>, ``transform_keys``
  MAP<body's type, value> (a MAP body is refused: Spark does not allow map keys of MAP type).
"""

from __future__ import annotations

import dataclasses

from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation.binding.core import BOOLEAN, ORDERED, BinderBase, SqlType
from sparkcep.plan import expressions as p

INT = SqlType("int")


class HigherOrderBinding(BinderBase):
    """The higher-order functions' typing (a mixin of ``Binder``)."""

    def lambda_variable(self, e: p.LambdaVariable) -> tuple[p.Expression, SqlType]:
        t = getattr(self, "lambda_types", {})[e.number]
        return dataclasses.replace(e, type=str(t)), t

    def bound_lambda(self, function: p.Lambda, types: list[SqlType]) -> tuple[p.Lambda, SqlType]:
        """``function`` with its variables of ``types`` and its body typed over them."""
        saved = getattr(self, "lambda_types", {})
        self.lambda_types = {**saved, **{v.number: t for v, t in zip(function.parameters, types)}}
        try:
            body, t = self.bind(function.body)
        finally:
            self.lambda_types = saved
        parameters = tuple(dataclasses.replace(v, type=str(x)) for v, x in zip(function.parameters, types))
        return p.Lambda(parameters, body), t

    def higher_order(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        name = e.name
        arguments = [o for o in e.operands if not isinstance(o, p.Lambda)]
        functions = [o for o in e.operands if isinstance(o, p.Lambda)]
        bound = [self.bind(a) for a in arguments]
        types = [t for _, t in bound]
        operands: list[p.Expression] = [x for x, _ in bound]
        options = self.options
        if name == "map_zip_with":
            entries = [st.map_types(t) for t in types]
            if any(entry is None for entry in entries):
                raise self.refuse(e, types, "two MAPs are required")
            (key, left), (other_key, right) = entries
            if key != other_key:  # Spark casts the keys to a common type, which sparkcep does not here
                raise self.refuse(e, types, "the keys of both maps must have one type (cast one map's keys "
                                            "inside the navigation)")
            if not (key.numeric or key.name in ORDERED):
                raise self.refuse(e, types, "map keys of an orderable atomic type are required")
            function, body = self.bound_lambda(functions[0], [key, left, right])
            result = SqlType(f"map<{key},{body}>")
            return p.Operator(name, (*operands, function), str(result), options, e.span), result
        if name in ("map_filter", "transform_values", "transform_keys"):
            entry = st.map_types(types[0])
            if entry is None:
                raise self.refuse(e, types, "a MAP is required")
            key, value = entry
            function, body = self.bound_lambda(functions[0], [key, value])
            if name == "map_filter":
                self.predicate(e, body, types)
                result = types[0]
            elif name == "transform_values":
                result = SqlType(f"map<{key},{body}>")
            else:
                if st.map_types(body) is not None:
                    raise self.refuse(e, types + [body], "Spark does not allow map keys of MAP type")
                result = SqlType(f"map<{body},{value}>")
                options = options + (("dedup", self.semantics.map_key_dedup_policy),)
            return p.Operator(name, (*operands, function), str(result), options, e.span), result
        elements = [st.element_type(t) for t in types[:2 if name == "zip_with" else 1]]
        if any(element is None for element in elements):
            raise self.refuse(e, types, "an ARRAY is required")
        element = elements[0]
        if name in ("transform", "filter"):
            variables = [element, INT][:len(functions[0].parameters)]
            function, body = self.bound_lambda(functions[0], variables)
            if name == "filter":
                self.predicate(e, body, types)
            result = types[0] if name == "filter" else SqlType(f"array<{body}>")
            return p.Operator(name, (*operands, function), str(result), options, e.span), result
        if name in ("exists", "forall"):
            function, body = self.bound_lambda(functions[0], [element])
            self.predicate(e, body, types)
            options = options + (("three_valued", self.semantics.exists_three_valued),)
            return p.Operator(name, (*operands, function), str(BOOLEAN), options, e.span), BOOLEAN
        if name == "zip_with":
            function, body = self.bound_lambda(functions[0], elements)
            result = SqlType(f"array<{body}>")
            return p.Operator(name, (*operands, function), str(result), options, e.span), result
        # aggregate(arr, start, (acc, x) -> merge[, acc -> finish])
        start = types[1]
        merge, merged = self.bound_lambda(functions[0], [start, element])
        if merged != start:
            raise self.refuse(e, types + [merged], f"the merge function must return the start value's type, "
                                                   f"{str(start).upper()} (Spark casts nothing here: cast the start value)")
        lambdas = [merge]
        result = start
        if len(functions) > 1:
            finish, result = self.bound_lambda(functions[1], [start])
            lambdas.append(finish)
        return p.Operator(name, (*operands, *lambdas), str(result), options, e.span), result

    def predicate(self, e: p.Operator, body: SqlType, types: list[SqlType]) -> None:
        if body.name not in ("boolean", "void"):
            raise self.refuse(e, types + [body], "the lambda function must return a BOOLEAN")
