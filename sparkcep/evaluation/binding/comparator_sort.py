"""Typing of ``array_sort(arr, (l, r) -> ...)`` between rows (the plan operator
``array_sort_with_comparator``, evaluated by ``sparkcep.evaluation.comparator_sort``), as Spark
4.3's ``ArraySort`` types it (its ``bindInternal`` and ``checkInputDataTypes``, measured on
Spark):

* the first argument must be an ARRAY (else Spark's ``DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE``,
  here ``MATCH_DEPENDENT_TYPE_MISMATCH``);
* both lambda variables have the array's element type;
* the body must be exactly INT: Spark casts nothing there, so a BIGINT (``l - r`` of BIGINTs),
  SMALLINT, TINYINT, DECIMAL, BOOLEAN, STRING or a bare NULL (VOID) body is Spark's
  ``DATATYPE_MISMATCH.UNEXPECTED_RETURN_TYPE`` (``MATCH_DEPENDENT_TYPE_MISMATCH`` here), ANSI on
  or off;
* the result has the array's type;
* the operator carries ``spark.sql.legacy.allowNullComparisonResultInArraySort`` (a NULL answer
  is 0 when true) and whether the element type is NULL's (such an array is not sorted).
"""

from __future__ import annotations

import dataclasses

from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation.binding.core import BinderBase, SqlType
from sparkcep.evaluation.comparator_sort import NAME
from sparkcep.plan import expressions as p

INT = SqlType("int")


class ComparatorSortBinding(BinderBase):
    """The typing of ``array_sort`` with a comparator (a mixin of ``Binder``; it uses
    ``HigherOrderBinding.bound_lambda``)."""

    def comparator_sort(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        array, function = e.operands
        shown = dataclasses.replace(e, name="array_sort")  # the name in a refusal
        operand, t = self.bind(array)
        element = st.element_type(t)
        if element is None:
            raise self.refuse(shown, [t], "an ARRAY is required")
        bound, body = self.bound_lambda(function, [element, element])
        if body != INT:
            raise self.refuse(shown, [t, body], f"the comparator must return an INT, not {str(body).upper()} "
                                            "(Spark casts nothing here: CAST the comparator's result AS INT)")
        options = self.options + (("null_comparison_allowed", self.semantics.null_comparison_allowed),
                                   ("element_type", str(element)))
        return p.Operator(NAME, (operand, bound), str(t), options, e.span), t
