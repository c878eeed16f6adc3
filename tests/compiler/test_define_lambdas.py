"""Lambdas (Spark's higher-order functions) in DEFINE (issue 23, "The last corners of R010").

A lambda is not a subquery: ``exists(B.arr, x -> x > 2)`` is a deterministic scalar function of
one row's values, which Spark computes per row like any other row-local expression (pushed into
the navigation that reads that row: LAST(exists(arr, ...)) over B's rows). Spark's higher-order
functions are NULL for a NULL array or map, so pushing is exact only when the array (or map)
argument reads the same row as everything else. A lambda body or another argument that reads
another row (or a row that may not exist: ``transform(array(1, 2), x -> x + A.v)`` is
``[NULL, NULL]`` when there is no A row, not NULL) is evaluated in Python
(``sparkcep.evaluation.higher_order_functions``; ``array_sort`` with a comparator by
``sparkcep.evaluation.comparator_sort``, Java's TimSort call for call). The answers of the per-row forms are checked on Spark in
``tests/conformance/test_standard_features_spark.py``, those Python computes in
``tests/evaluation/corpus.py`` and ``tests/evaluation/test_higher_order_spark.py``.
"""

from __future__ import annotations

import pytest

from sparkcep.compiler.rewrite import compile_statement
from sparkcep.errors import AnalysisError

CLAUSE = ("SELECT * FROM t MATCH_RECOGNIZE (ORDER BY id MEASURES {m} AS c "
          "PATTERN (A? B) DEFINE A AS v > 0, B AS {d})")


@pytest.mark.parametrize("define, value_column", [
    # the current row (B) only: row-local, in the mask
    ("exists(B.arr, x -> x > B.v)", "exists(`arr`, x -> x > `v`)"),
    ("exists(arr, v -> v > 2)", "exists(arr, v -> v > 2)"),
    ("size(filter(arr, x -> x >= PREV(v))) > 0", "filter(arr, x -> x >= "),
    # one other row, whose array the function reads: pushed into LAST(A. ...)
    ("exists(A.arr, x -> x > A.v) IS NULL", "exists(`arr`, x -> x > `v`)"),
    ("zip_with(A.arr, A.arr, (x, y) -> x + y) IS NULL", "zip_with(`arr`, `arr`, (x, y) -> x + y)"),
    ("aggregate(A.arr, A.v, (acc, x) -> coalesce(acc, 0) + x) > B.v",
     "aggregate(`arr`, `v`, (acc, x) -> coalesce(acc, 0) + x)"),
])
def test_lambdas_over_one_row_reach_spark(define, value_column) -> None:
    assert value_column in compile_statement(CLAUSE.format(m="1", d=define)).sql


@pytest.mark.parametrize("define, function", [
    ("exists(B.arr, x -> x > A.v)", "exists"),
    # no A row: the lambda sees NULL and still gives [NULL, NULL] (size 2), so this cannot be
    # LAST(A.transform(...)), which is NULL: Python evaluates it over the navigation's value
    ("size(transform(array(1, 2), x -> x + A.v)) = 2", "transform"),
    ("aggregate(array(1, 2), A.v, (acc, x) -> coalesce(acc, 0) + x) = 3", "aggregate"),
    ("zip_with(A.arr, B.arr, (x, y) -> x + y) IS NULL", "zip_with"),
    ("B.v > 1 OR exists(A.arr, x -> x > B.v)", "exists"),
    ("forall(A.arr, x -> x > B.v)", "forall"),
    ("size(filter(B.arr, (x, i) -> x > A.v + i)) = 1", "filter"),
    ("size(map_zip_with(A.m, B.m, (k, x, y) -> x)) = 1", "map_zip_with"),
    # a comparator: Java's TimSort's calls (sparkcep.evaluation.java_tim_sort)
    ("array_sort(A.arr, (l, r) -> l - r - B.v)[0] = 1", "array_sort_with_comparator"),
    ("array_sort(A.arr, (l, r) -> B.v)[0] = 1", "array_sort_with_comparator"),
])
def test_lambdas_reading_other_rows_are_evaluated_in_python(define, function) -> None:
    """sparkcep.evaluation.higher_order_functions evaluates them (tests/evaluation/corpus.py
    checks the values against Spark): the function is a plan operator over Lambda nodes, and
    no value column holds it."""
    (match,) = compile_statement(CLAUSE.format(m="1", d=define)).matches
    (condition,) = match.plan.conditions.values()
    assert f"Operator(name='{function}'" in repr(condition) and "LambdaVariable" in repr(condition)
    assert not any(f"{function}(" in text for text in match.plan.value_columns)


def test_a_comparator_reading_only_its_arrays_row_is_pushed() -> None:
    """array_sort(A.arr, (l, r) -> l - r) reads one row: Spark computes it per row (NULL for a
    NULL array, so pushing is exact)."""
    compiled = compile_statement(CLAUSE.format(m="1", d="array_sort(A.arr, (l, r) -> r - l)[0] = 1"))
    (condition,) = compiled.matches[0].plan.conditions.values()
    assert "array_sort(`arr`, (l, r) -> r - l)" in compiled.sql and "Operator" not in repr(condition)


@pytest.mark.parametrize("define, culprit", [
    # sort_array's second argument is the order (Spark requires a constant BOOLEAN), not a comparator
    ("sort_array(A.arr, (l, r) -> l - r - B.v)[0] = 1", "(l, r) -> l - r - B.v"),
])
def test_lambdas_python_does_not_evaluate_are_refused_at_the_function(define, culprit) -> None:
    sql = CLAUSE.format(m="1", d=define)
    with pytest.raises(AnalysisError) as caught:
        compile_statement(sql)
    error = caught.value
    assert error.code == "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION"
    assert (error.line, error.column) == (1, sql.index(culprit) + 1)


@pytest.mark.parametrize("define, code", [
    ("exists(A.arr, (x, i) -> x > B.v)", "INVALID_LAMBDA_FUNCTION_CALL"),  # exists takes one variable
    ("size(transform(A.arr, (x, i, j) -> x + B.v)) = 1", "INVALID_LAMBDA_FUNCTION_CALL"),
    ("size(transform(A.arr, (x, x) -> x + B.v)) = 1", "INVALID_LAMBDA_FUNCTION_CALL"),  # duplicate names
    ("array_sort(A.arr, l -> B.v)[0] = 1", "INVALID_LAMBDA_FUNCTION_CALL"),  # a comparator takes two
    ("array_sort(A.arr, (l, r, x) -> B.v)[0] = 1", "INVALID_LAMBDA_FUNCTION_CALL"),
])
def test_lambdas_spark_rejects_are_refused_with_sparks_class(define, code) -> None:
    with pytest.raises(AnalysisError) as caught:
        compile_statement(CLAUSE.format(m="1", d=define))
    assert caught.value.code == code


def test_lambdas_in_measures_are_spark_expressions_over_the_components() -> None:
    # MEASURES are Spark expressions over navigation values: the lambda reads LAST(A.v) as
    # Spark computes it, NULL when there is no A row, as the standard's A.v is.
    compiled = compile_statement(CLAUSE.format(m="transform(array(1, 2), x -> x + A.v)", d="true"))
    assert "transform(array(1, 2), x -> x + `__sparkcep_c0`)" in compiled.sql


@pytest.mark.parametrize("define, culprit", [
    # Spark gives a value for a NULL operand (a NULL field is kept in a struct), so f(A.x) with
    # no A row is not LAST(A.f(x)), which is NULL: Python evaluates the struct over the
    # navigation's value (structs between rows, evaluation/struct_functions.py)
    ("named_struct('a', A.v) IS NOT NULL", "named_struct"),  # TRUE
    ("map_from_entries(array(struct(1, A.v)))[1] IS NULL", "named_struct"),  # {1: NULL}
    # (size(A.arr), -1 with ANSI off, is not pushed either: Python evaluates it over the
    # navigation's value, tests/evaluation/test_collection_functions.py)
])
def test_functions_that_are_not_null_for_null_are_not_pushed(define, culprit) -> None:
    (match,) = compile_statement(CLAUSE.format(m="1", d=define)).matches
    (condition,) = match.plan.conditions.values()
    assert f"'{culprit}'" in repr(condition) and "Navigation" in repr(condition)


def test_equal_null_of_a_missing_row_is_evaluated_over_the_navigation() -> None:
    # equal_null(NULL, 1) is false (not NULL): with no A row, LAST(A.v) is NULL and the
    # condition must see false, so equal_null is <=> over the navigation's value, not pushed
    # into the navigation's column (where it would read as NULL)
    (match,) = compile_statement(CLAUSE.format(m="1", d="equal_null(A.v, 1) = false")).matches
    (condition,) = match.plan.conditions.values()
    assert repr(condition).count("null_safe_eq") == 1 and "Navigation" in repr(condition.operands[0])


@pytest.mark.parametrize("define, function", [
    ("elt(2, A.s, 'x') = 'x'", "elt("),  # elt(2, NULL, 'x') is 'x'
    ("isnan(A.d)", "isnan("),  # isnan(NULL) is false
    ("map(1, A.v)[1] IS NULL", "map("),  # {1: NULL}
    ("array_append(array(1), A.v)[1] IS NULL", "array_append("),  # [1, NULL]
    ("array_repeat(A.v, 2)[0] IS NULL", "array_repeat("),  # [NULL, NULL]
    ("format_string('%s', A.v) = 'null'", "format_string("),  # 'null'
    ("typeof(A.v) = 'int'", "typeof("),  # 'int'
    ("decode(A.v, 1, 'a', 'b') = 'b'", "decode("),  # 'b'
])
def test_functions_python_evaluates_over_a_missing_row_are_not_pushed(define, function) -> None:
    """Python evaluates these between rows, so over another row's value they are evaluated
    there, over the navigation's value (NULL when there is no A row), not computed per row by
    Spark and navigated (which would give NULL)."""
    compiled = compile_statement(CLAUSE.format(m="1", d=define))
    assert function not in compiled.sql.lower()
