"""The interpreter (``sparkcep.evaluation.interpreter``) on matches of several rows, without
Spark: navigation, aggregates and the operators' NULL rules, each expected value worked out by
hand from ISO/IEC 19075-5 (navigation over a variable's rows), the SQL standard's three-valued
logic and Spark's aggregate rules (result types from ``Sum``/``Average``: SUM of integers in
BIGINT, of DECIMAL(p, s) in DECIMAL(p + 10, s); AVG of DECIMAL(p, s) in DECIMAL(p + 4, s + 4),
rounded half up; NULLs skipped; NULL over no value, COUNT 0).

Each case runs over two contexts that present the same match: ``MatchView`` (MEASURES, which
navigates by itself) and ``RunContext`` (the SASE engines' DEFINE, which has no ``navigate`` and
is served from the mapped rows)."""

from __future__ import annotations

import math
from decimal import Decimal

import pytest

from sparkcep.engines.contract import Match
from sparkcep.engines.run_context import RunContext
from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation.binding import Semantics, bind
from sparkcep.evaluation.interpreter import compile_expression
from sparkcep.evaluation.match_view import MatchView
from sparkcep.plan import expressions as p

NAMES = ("A", "B")
A, B, ANY = frozenset({0}), frozenset({1}), None
NAN = float("nan")

# The match: rows 10..14 mapped to A A B A B.
ROWS, LABELS = (10, 11, 12, 13, 14), (0, 0, 1, 0, 1)


class _Reader:
    def __init__(self, columns):
        self.columns = columns  # column -> [value of row 10, row 11, ...]

    def value(self, column, row):
        return self.columns[column][row - ROWS[0]]


def _contexts(*columns):
    """The match as MEASURES see it (``MatchView``) and as a SASE condition does (``RunContext``,
    the last row the candidate)."""
    reader = _Reader(columns)
    view = MatchView(Match(1, ROWS[0], ROWS, LABELS), reader.value)
    run = RunContext(reader, ROWS[:-1], LABELS[:-1], ROWS[-1], LABELS[-1])
    assert not hasattr(run, "navigate") and hasattr(view, "navigate")
    return {"MatchView": view, "RunContext": run}


def _values(expression, *columns):
    evaluate = compile_expression(expression, NAMES)
    return {name: evaluate(ctx) for name, ctx in _contexts(*columns).items()}


X = [1, 2, 3, 4, 5]


@pytest.mark.parametrize(("variables", "from_start", "offset", "expected"), [
    (A, True, 0, 1),  # FIRST(A.x)
    (A, True, 1, 2),  # FIRST(A.x, 1)
    (A, True, 2, 4),
    (A, True, 3, None),  # beyond A's three rows
    (A, False, 0, 4),  # LAST(A.x)
    (A, False, 2, 1),
    (A, False, 3, None),
    (B, False, 0, 5),
    (B, False, 1, 3),
    (B, True, 2, None),
    (ANY, True, 0, 1),  # FIRST(x): over every row of the match
    (ANY, False, 1, 4),
    (ANY, False, 5, None),
])
def test_navigation_picks_the_variables_row(variables, from_start, offset, expected):
    nav = p.Navigation(variables, from_start, offset, 0)
    assert _values(nav, X) == {"MatchView": expected, "RunContext": expected}


def _aggregate(function, variables, column=0, distinct=False):
    return p.Aggregate(function, variables, column, distinct)


WITH_NULLS = [3, None, 4, 3, 7]  # A: 3, NULL, 3; B: 4, 7


@pytest.mark.parametrize(("aggregate", "expected"), [
    (_aggregate("count", A), 2),  # NULL is not counted
    (_aggregate("count", A, None), 3),  # COUNT(A.*): rows
    (_aggregate("count", A, distinct=True), 1),
    (_aggregate("count", ANY, distinct=True), 3),
    (_aggregate("sum", A), 6),
    (_aggregate("sum", ANY), 17),
    (_aggregate("sum", A, distinct=True), 3),
    (_aggregate("avg", B), 5.5),
    (_aggregate("avg", ANY), 17 / 4),
    (_aggregate("min", ANY), 3),
    (_aggregate("max", ANY), 7),
    (_aggregate("min", B), 4),
    (_aggregate("max", A), 3),
    (_aggregate("collect_list", A), [3, 3]),
    (_aggregate("collect_list", ANY, distinct=True), [3, 4, 7]),
])
def test_untyped_aggregates_skip_nulls(aggregate, expected):
    assert _values(aggregate, WITH_NULLS) == {"MatchView": expected, "RunContext": expected}


@pytest.mark.parametrize("function", ["sum", "avg", "min", "max"])
def test_untyped_aggregates_of_no_value_are_null(function):
    only_nulls = [None, None, 1, None, 1]  # A has no value
    assert _values(_aggregate(function, A), only_nulls) == {"MatchView": None, "RunContext": None}
    assert _values(_aggregate("count", A), only_nulls) == {"MatchView": 0, "RunContext": 0}


def test_untyped_average_of_decimals_is_exact():
    values = [Decimal("0.1"), Decimal("0.2"), None, Decimal("0.4"), None]
    expected = Decimal("0.7") / 3
    assert _values(_aggregate("avg", A), values) == {"MatchView": expected, "RunContext": expected}


def _typed(function, column_type, variables, ansi=True, distinct=False):
    aggregate = p.Aggregate(function, variables, 0, distinct)
    return bind(aggregate, [column_type], Semantics(ansi=ansi))


def _typed_values(function, column_type, variables, values, ansi=True, distinct=False):
    evaluate = compile_expression(_typed(function, column_type, variables, ansi, distinct), NAMES)
    out = {}
    for name, ctx in _contexts(values).items():
        try:
            out[name] = evaluate(ctx)
        except MatchRuntimeError as error:
            out[name] = error.code
    return out


BIG = 2**63 - 1


@pytest.mark.parametrize(("function", "column_type", "variables", "values", "ansi", "expected"), [
    ("sum", "int", A, [1, 2, 9, None, 9], True, 3),  # A: 1, 2, NULL
    ("sum", "bigint", A, [BIG, 1, 0, -5, 0], True, "ARITHMETIC_OVERFLOW"),  # BIG + 1 first
    ("sum", "bigint", A, [BIG, 1, 0, -5, 0], False, BIG - 4),  # wraps, and back
    ("sum", "bigint", A, [BIG, -1, 0, 1, 0], True, BIG),  # every partial sum fits
    ("sum", "bigint", B, [1, 1, None, 1, None], True, None),
    ("count", "bigint", B, [1, 1, None, 1, 2], True, 1),
    ("count", "double", ANY, [0.0, -0.0, NAN, NAN, 1.0], True, 5),
    ("min", "double", ANY, [2.0, NAN, -1.5, None, 0.5], True, -1.5),
    ("max", "double", ANY, [2.0, NAN, -1.5, None, 0.5], True, NAN),  # NaN above every number
    ("min", "double", A, [NAN, NAN, 0.0, NAN, 0.0], True, NAN),
    ("max", "int", A, [-3, -7, 9, None, 9], True, -3),
    ("min", "int", ANY, [None, None, None, None, None], True, None),
    ("avg", "int", ANY, [1, 2, None, 2, 1], True, 1.5),  # DOUBLE
    ("sum", "double", ANY, [0.1, 0.2, None, 0.3, 0.0], True, (0.1 + 0.2) + 0.3),  # row order
    ("avg", "double", A, [1e308, 1e308, 0.0, -1e308, 0.0], True, math.inf),  # 2e308 overflows
    ("sum", "decimal(5,2)", A, [Decimal("999.99")] * 5, True, Decimal("2999.97")),  # DECIMAL(15,2)
    ("sum", "decimal(38,0)", A, [Decimal(10**37 * 9)] * 5, True, "NUMERIC_VALUE_OUT_OF_RANGE"),
    ("sum", "decimal(38,0)", A, [Decimal(10**37 * 9)] * 5, False, None),
    ("sum", "decimal(38,0)", A,
     [Decimal(10**37 * 9), Decimal(10**37 * 9), 0, Decimal(-10**37 * 9), 0],
     True, Decimal(10**37 * 9)),  # added exactly, checked once
    ("avg", "decimal(5,2)", A, [Decimal("1.00"), Decimal("1.00"), 0, Decimal("0.01"), 0], True,
     Decimal("0.670000")),  # 2.01 / 3 = 0.67 exactly, in DECIMAL(9, 6)
    ("avg", "decimal(5,2)", A, [Decimal("0.01"), Decimal("0.01"), 0, Decimal("0.00"), 0], True,
     Decimal("0.006667")),  # 0.02 / 3 = 0.00666..., half up at 6 places
    ("avg", "decimal(5,2)", B, [Decimal("0.01")] * 5, True, Decimal("0.010000")),
    ("avg", "decimal(5,2)", B, [0, 0, None, 0, None], True, None),
    ("collect_list", "int", ANY, [1, None, 2, None, 1], True, [1, 2, 1]),
])
def test_typed_aggregates_follow_sparks_rules(function, column_type, variables, values, ansi,
                                              expected):
    got = _typed_values(function, column_type, variables, values, ansi)
    for name, value in got.items():
        if isinstance(expected, float) and math.isnan(expected):
            assert isinstance(value, float) and math.isnan(value), (name, value)
        else:
            assert value == expected and type(value) is type(expected), (name, value)


@pytest.mark.parametrize(("function", "column_type", "variables", "values", "expected"), [
    ("count", "double", ANY, [0.0, -0.0, NAN, NAN, 1.0], 3),  # -0.0 = 0.0 and NaN = NaN in Spark
    ("count", "int", ANY, [1, 1, 2, None, None], 2),
    ("sum", "int", A, [5, 5, 0, 7, 0], 12),
    ("sum", "decimal(5,2)", A, [Decimal("1.50"), Decimal("1.5"), 0, Decimal("2"), 0],
     Decimal("3.50")),
    ("avg", "int", A, [4, 4, 0, 1, 0], 2.5),
])
def test_typed_distinct_aggregates_compare_as_spark_does(function, column_type, variables, values,
                                                         expected):
    got = _typed_values(function, column_type, variables, values, distinct=True)
    assert got == {"MatchView": expected, "RunContext": expected}


# -- untyped operators: the SQL standard's three-valued logic ---------------------------------


def _c(value):
    return p.Constant(value)


def _op(name, *operands):
    return p.Operator(name, tuple(operands))


def _evaluate(expression):
    return _values(expression, X)["MatchView"]


@pytest.mark.parametrize(("value", "low", "high", "expected"), [
    (1, 0, 2, True),
    (1, 1, 1, True),
    (1, 2, 3, False),
    (4, 2, 3, False),
    (1, None, 2, None),  # NULL <= 1 unknown, 1 <= 2 true
    (1, 0, None, None),
    (1, None, 0, False),  # 1 <= 0 false decides
    (1, 2, None, False),
    (None, 0, 2, None),
    (1, None, None, None),
])
def test_untyped_between_is_two_comparisons_anded(value, low, high, expected):
    assert _evaluate(_op("between", _c(value), _c(low), _c(high))) is expected


@pytest.mark.parametrize(("value", "options", "expected"), [
    (1, [1, 2], True),
    (1, [2, 3], False),
    (1, [None, 1], True),
    (1, [2, None], None),
    (None, [1], None),
    (None, [], None),
])
def test_untyped_in_list(value, options, expected):
    expression = _op("in", _c(value), _op("list", *(_c(o) for o in options)))
    assert _evaluate(expression) is expected


TRUTH = [True, False, None]


@pytest.mark.parametrize("a", TRUTH)
@pytest.mark.parametrize("b", TRUTH)
def test_untyped_connectives_follow_three_valued_logic(a, b):
    and_ = False if False in (a, b) else None if None in (a, b) else True
    or_ = True if True in (a, b) else None if None in (a, b) else False
    assert _evaluate(_op("and", _c(a), _c(b))) is and_
    assert _evaluate(_op("or", _c(a), _c(b))) is or_
    assert _evaluate(_op("not", _c(a))) is (None if a is None else not a)


@pytest.mark.parametrize(("expression", "expected"), [
    (_op("is", _c(None), _c(None)), True),  # IS NULL
    (_op("is", _c(0), _c(None)), False),
    (_op("is", _c(None), _c(True)), False),  # NULL IS TRUE
    (_op("is", _c(None), _c(False)), False),
    (_op("is", _c(False), _c(False)), True),
    (_op("is", _c(True), _c(False)), False),
    (_op("if", _c(None), _c(1), _c(2)), 2),  # an unknown condition does not hold
    (_op("if", _c(True), _c(1), _c(2)), 1),
    (_op("coalesce", _c(None), _c(None), _c(3), _c(4)), 3),
    (_op("coalesce", _c(None), _c(None)), None),
    (_op("greatest", _c(1), _c(None), _c(3), _c(2)), 3),  # Spark's greatest skips NULLs
    (_op("least", _c(None), _c(3), _c(2)), 2),
    (_op("greatest", _c(None), _c(None)), None),
    (_op("neg", _c(None)), None),
    (_op("neg", _c(3)), -3),
    (_op("abs", _c(-3)), 3),
    (_op("abs", _c(None)), None),
    (_op("concat", _c("a"), _c("b"), _c("c")), "abc"),
    (_op("concat", _c("a"), _c(None), _c("c")), None),
    (_op("null_safe_eq", _c(None), _c(None)), True),
    (_op("null_safe_eq", _c(1), _c(None)), False),
    (_op("paren", _c(7)), 7),
    (_op("add", _c(None), _op("div", _c(1), _c(0))), None),  # NULL on the left: NULL
    # CASE x WHEN 1 THEN 'one' WHEN 2 THEN 'two' ELSE 'other' END
    (_op("case", _c(2), _c("other"), _c(1), _c("one"), _c(2), _c("two")), "two"),
    (_op("case", _c(3), _c("other"), _c(1), _c("one"), _c(2), _c("two")), "other"),
    (_op("case", _c(None), _c("other"), _c(None), _c("null")), "other"),  # NULL = NULL is unknown
    # CASE WHEN NULL THEN 'a' WHEN 1 < 2 THEN 'b' END
    (_op("case", _c(None), _c(None), _c(None), _c("a"), _op("lt", _c(1), _c(2)), _c("b")), "b"),
    # ... ELSE 'other' END, and CASE 2 WHEN 1 THEN 'one' WHEN 2 THEN 'two' END (no ELSE)
    (_op("case", _c(None), _c("other"), _c(None), _c("a"), _op("lt", _c(1), _c(2)), _c("b")), "b"),
    (_op("case", _c(2), _c(None), _c(1), _c("one"), _c(2), _c("two")), "two"),
])
def test_untyped_operators(expression, expected):
    assert _evaluate(expression) == expected
    assert type(_evaluate(expression)) is type(expected)


def test_current_row_constant_classifier_and_match_number():
    ctx = _contexts(X)
    classifier = compile_expression(p.Classifier(ANY), NAMES)
    assert classifier(ctx["MatchView"]) == "B" and classifier(ctx["RunContext"]) == "B"
    assert compile_expression(p.Classifier(A), NAMES)(ctx["MatchView"]) == "A"
    assert compile_expression(p.CurrentRow(0), NAMES)(ctx["MatchView"]) == 5
    assert compile_expression(p.MatchNumber(), NAMES)(ctx["MatchView"]) == 1


# -- aggregates only DEFINE computes in Python, min_by/max_by, AVG over an out-of-range sum -----


@pytest.mark.parametrize(("function", "variables", "values", "expected"), [
    ("count_if", ANY, [True, None, False, True, True], 3),  # TRUE only
    ("count_if", B, [True, True, False, True, None], 0),
    ("bool_and", A, [True, None, False, True, False], True),  # NULL skipped
    ("bool_and", ANY, [True, None, False, True, True], False),
    ("bool_and", A, [None, None, True, None, True], None),  # no value: NULL
    ("bool_or", A, [False, None, True, False, True], False),
    ("bool_or", ANY, [False, None, True, False, False], True),
    ("bool_or", A, [None, None, True, None, True], None),
    ("any_value", A, [None, True, False, False, True], None),  # first(x): NULL included
    ("any_value", B, [None, True, False, False, True], False),
])
def test_define_only_aggregates(function, variables, values, expected):
    untyped = p.Aggregate(function, variables, 0)
    assert _values(untyped, values) == {"MatchView": expected, "RunContext": expected}
    assert _typed_values(function, "boolean", variables, values) == {"MatchView": expected,
                                                                     "RunContext": expected}


@pytest.mark.parametrize(("function", "variables", "orderings", "expected"), [
    ("min_by", A, [3, 1, 0, 1, 0], "d"),  # equal orderings: the last row (Spark's update rule)
    ("max_by", A, [3, 1, 9, 3, 0], "d"),
    ("max_by", ANY, [3, 1, 9, 3, 0], "c"),
    ("min_by", B, [None, None, None, None, 5], "e"),  # a NULL ordering is skipped
    ("min_by", B, [0, 0, None, 0, None], None),  # no ordering: NULL
])
def test_min_by_and_max_by_over_the_variables_rows(function, variables, orderings, expected):
    by = p.Aggregate(function, variables, 0, ordering=1)
    aggregate = bind(by, ["string", "int"], Semantics())
    values = ["a", "b", "c", "d", "e"]
    assert _values(aggregate, values, orderings) == {"MatchView": expected,
                                                               "RunContext": expected}


def test_average_of_an_out_of_range_decimal_sum():
    big = Decimal(9 * 10**37)  # A: big, big: the sum leaves DECIMAL(38, 0)
    values = [big, big, 0, 0, 0]
    assert _typed_values("avg", "decimal(38,0)", A, values, ansi=False) == {"MatchView": None,
                                                                             "RunContext": None}
    assert _typed_values("avg", "decimal(38,0)", A, values, ansi=True) == {
        "MatchView": "NUMERIC_VALUE_OUT_OF_RANGE", "RunContext": "NUMERIC_VALUE_OUT_OF_RANGE"}


@pytest.mark.parametrize(("expression", "expected"), [
    (_op("like", _c("abc"), _c("a%")), True),
    (_op("like", _c("abc"), _c("b%")), False),
    (_op("like", _c(None), _c("a%")), None),
    (_op("like", _c("abc"), _c(None)), None),
    (_op("upper", _c("abc")), "ABC"),
    (_op("length", _c(None)), None),
    (_op("substring", _c("abcdef"), _c(2), _c(3)), "bcd"),  # 1-based position, length
    (_op("substring", _c("abcdef"), _c(None), _c(3)), None),
])
def test_untyped_string_operators(expression, expected):
    assert _evaluate(expression) is expected or _evaluate(expression) == expected


# -- bound operators (``_typed_operator``) ------------------------------------------------------


def _bound_value(expression, column_type, value):
    """``expression`` over a column of ``column_type`` whose value at the current row is
    ``value``, bound as registration binds it."""
    typed = bind(expression, [column_type], Semantics())
    return _values(typed, [None, None, None, None, value])["MatchView"]


@pytest.mark.parametrize(("name", "value", "expected"), [
    ("floor", 2.5, 2), ("floor", -2.5, -3), ("ceil", 2.5, 3), ("ceil", -2.5, -2),  # BIGINT
    ("floor", None, None),
])
def test_floor_and_ceil_without_a_scale(name, value, expected):
    got = _bound_value(_op(name, p.CurrentRow(0)), "double", value)
    assert got == expected and type(got) is type(expected)


def _searched_case(*branches):
    """CASE WHEN ... THEN ... [WHEN ...] ELSE 'other' END over the current row's x."""
    return _op("case", _c(None), _c("other"), *branches)


def _x_below(n):
    return _op("lt", p.CurrentRow(0), _c(n))


@pytest.mark.parametrize(("value", "expected"), [
    (1, "small"), (3, "medium"), (5, "large"), (7, "other"), (None, "other"),
])
def test_bound_searched_case_takes_the_first_true_branch(value, expected):
    case = _searched_case(_x_below(2), _c("small"), _x_below(4), _c("medium"),
                          _x_below(6), _c("large"))
    assert _bound_value(case, "int", value) == expected


def test_a_bound_operators_error_points_at_the_operator():
    """An overflow raised by a bound operator carries the operator's span in the statement (the
    caret of the error): ``docs/errors.md`` puts arithmetic errors at the operator."""
    column = p.CurrentRow(0)
    addition = p.Operator("add", (column, column), span=(17, 22))
    typed = bind(addition, ["int"], Semantics())
    evaluate = compile_expression(typed, NAMES)
    with pytest.raises(MatchRuntimeError) as caught:
        evaluate(_contexts([0, 0, 0, 0, 2**31 - 1])["MatchView"])
    assert (caught.value.code, caught.value.span) == ("ARITHMETIC_OVERFLOW", (17, 22))


@pytest.mark.parametrize("column_type",
                         ["int", "double", "decimal(5,2)", "string", "array<string>"])
@pytest.mark.parametrize(("left", "right", "expected"), [
    ("value", None, False), (None, "value", False), (None, None, True), ("value", "value", True),
])
def test_bound_null_safe_equality_of_a_value_and_null(column_type, left, right, expected):
    """``x <=> y`` (IS NOT DISTINCT FROM): TRUE for two NULLs, FALSE for one, never NULL."""
    value = {"int": 1, "double": 1.5, "decimal(5,2)": Decimal("1.50"), "string": "a",
             "array<string>": ["a", None]}[column_type]
    pick = {"value": value, None: None}
    null_safe = _op("null_safe_eq", p.CurrentRow(0), p.CurrentRow(1))
    typed = bind(null_safe, [column_type, column_type], Semantics())
    got = _values(typed, [None] * 4 + [pick[left]], [None] * 4 + [pick[right]])
    assert got == {"MatchView": expected, "RunContext": expected}
    negated = bind(_op("null_safe_neq", p.CurrentRow(0), p.CurrentRow(1)), [column_type] * 2,
                   Semantics())
    got = _values(negated, [None] * 4 + [pick[left]], [None] * 4 + [pick[right]])
    assert got == {"MatchView": not expected, "RunContext": not expected}
