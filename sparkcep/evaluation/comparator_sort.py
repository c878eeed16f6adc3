"""Spark's ``array_sort(arr, (l, r) -> ...)`` between rows: an array sorted by a comparator
lambda whose body or array reads values of more than one row of the match
(``array_sort(A.arr, (l, r) -> l - r + B.v)``), as Spark 4.3's ``ArraySort`` evaluates it (the
plan operator ``array_sort_with_comparator``; typed by ``binding.comparator_sort``):

* NULL for a NULL array (the lambda is then not called);
* otherwise the elements (NULL ones too, passed to the lambda like any value) are sorted by
  ``java.util.Arrays.sort(Object[], Comparator)``, Java's TimSort
  (``sparkcep.evaluation.java_tim_sort``: the same comparator calls, in the same order, so an
  inconsistent comparator gives Java's order and an error in the body is raised at the call
  where Spark raises it), the body's INT answer compared with 0;
* an array of NULL type (``array(NULL, NULL)``) is not sorted (no call);
* a NULL answer is Spark's ``COMPARATOR_RETURNS_NULL`` (when the first element compared is
  NULL Spark fails building that message, with a ``NullPointerException`` without an error
  class: sparkcep raises ``COMPARATOR_RETURNS_NULL`` there too); under
  ``spark.sql.legacy.allowNullComparisonResultInArraySort`` a NULL answer is 0 (Scala's
  unboxing of null);
* answers TimSort finds contradictory are Java's ``IllegalArgumentException("Comparison method
  violates its general contract!")``, which Spark raises without an error class: sparkcep's
  ``COMPARATOR_CONTRACT_VIOLATION``.
"""

from __future__ import annotations

from typing import Any, Callable

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation import java_tim_sort
from sparkcep.evaluation.higher_order_functions import LambdaFrame
from sparkcep.plan import expressions as p

Evaluator = Callable[[Any], Any]

NAME = "array_sort_with_comparator"  # the plan operator


def compile_comparator_sort(operator: p.Operator, compile_operand: Callable[[p.Expression], Evaluator]) -> Evaluator:
    """The evaluator of a bound ``array_sort_with_comparator`` (``compile_operand``: the
    interpreter's compiler, for the array and the comparator's body)."""
    array_operand, function = operator.operands
    array = compile_operand(array_operand)
    body = compile_operand(function.body)
    first, second = (v.number for v in function.parameters)
    options = dict(operator.options)
    null_is_zero = options.get("null_comparison_allowed", False)
    unsorted = options.get("element_type") == "void"

    def evaluate(ctx):
        values = array(ctx)
        if values is None:
            return None
        if unsorted or len(values) < 2:
            return list(values)
        frame = LambdaFrame(ctx)
        bound = frame.lambda_values

        def compare(left, right) -> int:
            bound[first] = left
            bound[second] = right
            answer = body(frame)
            if answer is None:
                if null_is_zero:
                    return 0
                raise MatchRuntimeError(
                    "COMPARATOR_RETURNS_NULL",
                    f"The comparator has returned a NULL for a comparison between {_shown(left)} and "
                    f"{_shown(right)} (array_sort's comparator must return an INT for every pair of elements)")
            return answer

        try:
            return java_tim_sort.sort(values, compare)
        except java_tim_sort.ComparisonContractViolation:
            raise MatchRuntimeError(
                "COMPARATOR_CONTRACT_VIOLATION",
                f"{java_tim_sort.CONTRACT_MESSAGE} (Java's TimSort, which Spark's array_sort runs, found the "
                "comparator's answers contradictory)") from None

    return evaluate


def _shown(value) -> str:
    return "NULL" if value is None else str(value)
