"""Generated DEFINE conditions agree with the interpreter (the reference semantics)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from sparkcep.plan import expressions as p
from sparkcep.evaluation.codegen import generate
from sparkcep.errors import SparkCepError
from sparkcep.evaluation.interpreter import compile_expression
from tests.example_counts import examples

NAMES = ("A", "B")
VALUES = st.one_of(st.none(), st.integers(-3, 3), st.sampled_from([0.5, -1.5, 2.0]),
                   st.booleans())


class Context:
    """A partial match: rows 0..n-1 mapped to ``labels``, the candidate is row n as ``var``."""

    def __init__(self, labels, var, columns):
        self.labels = list(labels)
        self.row = len(labels)
        self.var = var
        self.match_number = 1
        self.columns = columns

    def mapped_rows(self, variables):
        rows = [r for r, label in enumerate(self.labels) if variables is None or label in variables]
        if variables is None or self.var in variables:
            rows.append(self.row)
        return rows

    def value(self, column, row):
        return self.columns[column][row]

    def label_of(self, row):
        return self.var if row == self.row else self.labels[row]


class NavigatingContext(Context):
    def navigate(self, variables, from_start, offset):
        rows = self.mapped_rows(variables)
        position = offset if from_start else len(rows) - 1 - offset
        return rows[position] if 0 <= position < len(rows) else None


def leaves():
    variables = st.sampled_from([None, frozenset({0}), frozenset({1}), frozenset({0, 1})])
    return st.one_of(
        st.builds(p.Constant, VALUES),
        st.builds(p.CurrentRow, st.integers(0, 1)),
        st.builds(p.Navigation, variables, st.booleans(), st.integers(0, 2), st.integers(0, 1)),
        st.builds(p.Aggregate, st.sampled_from(["count", "sum", "max"]), variables,
                  st.integers(0, 1)),
        st.just(p.MatchNumber()),
    )


OPERATORS = ["and", "or", "not", "eq", "neq", "gt", "gte", "lt", "lte", "add", "sub", "mul",
             "div", "is", "paren", "coalesce", "neg"]
ARITY = {"not": 1, "is": 2, "paren": 1, "neg": 1}


def expressions():
    def extend(children):
        def build(name, operands):
            arity = ARITY.get(name, 2)
            if name == "is":
                return p.Operator("is", (operands[0], p.Constant(None)))
            return p.Operator(name, tuple(operands[:arity]))

        return st.builds(build, st.sampled_from(OPERATORS), st.lists(children, min_size=2, max_size=3))

    return st.recursive(leaves(), extend, max_leaves=8)


def outcome(function, ctx):
    try:
        return ("value", function(ctx))
    except TypeError:
        return ("type error", None)
    except (ArithmeticError, SparkCepError) as error:
        return ("error", getattr(error, "code", type(error).__name__))


@settings(max_examples=examples(1200), deadline=None)
@given(expressions(), st.lists(st.integers(0, 1), max_size=4), st.integers(0, 1),
       st.lists(st.lists(VALUES, min_size=5, max_size=5), min_size=2, max_size=2),
       st.booleans())
def test_generated_code_agrees_with_interpreter(expression, labels, var, columns, navigating):
    cls = NavigatingContext if navigating else Context
    ctx = cls(labels, var, columns)
    interpreted = compile_expression(expression, NAMES)
    generated = generate(expression, NAMES, lambda e: compile_expression(e, NAMES))
    expected = outcome(interpreted, ctx)
    got = outcome(generated, ctx)
    if got[0] == "type error":
        return  # the caller falls back to the interpreter for exactly this call
    assert got == expected, generated.source


def test_decimal_and_double_are_cast_as_spark_casts_them():
    # Spark casts DECIMAL to DOUBLE for DECIMAL + DOUBLE (Spark SQL reference, type promotion);
    # the bound tree makes that cast explicit, so no evaluator meets mixed Python types
    from sparkcep.evaluation.binding import Semantics, bind
    from sparkcep.evaluation.conditions import make_condition

    expression = p.Operator("gt", (p.Operator("add", (p.CurrentRow(0), p.CurrentRow(1))), p.Constant(1)))
    bound = bind(expression, ["decimal(2,1)", "double"], Semantics())
    ctx = Context([], 0, [[Decimal("1.5")], [0.25]])
    assert make_condition(bound, NAMES)(ctx) is True
    assert generate(bound, NAMES, lambda e: compile_expression(e, NAMES))(ctx) is True


def test_null_left_operand_does_not_evaluate_the_right_one():
    """NULL = MATCH_NUMBER() / 0 is NULL in Spark (a null-intolerant binary expression does not
    evaluate its right side when the left is NULL); interpreter and generated code both agree."""
    expression = p.Operator("eq", (p.Constant(None), p.Operator("div", (p.MatchNumber(), p.Constant(0)))))
    ctx = Context([], 0, [[None] * 5, [None] * 5])
    assert compile_expression(expression, NAMES)(ctx) is None
    assert generate(expression, NAMES, lambda e: compile_expression(e, NAMES))(ctx) is None
