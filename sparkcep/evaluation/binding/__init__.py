"""Binding match-dependent expressions to Spark's types, at registration, before any row is read.

Lowering (``sparkcep.compiler.lowering``) knows no types: it is pure and runs without Spark. At
registration Spark reports the type of every value column; ``bind`` then types each operator
the Python side evaluates with Spark's own rules (``sparkcep.evaluation.sql_types``): it makes
every implicit cast an explicit ``cast`` node, records the result type and the session's ANSI
setting and time zone on each operator, and refuses, with a typed error at the expression,
what Spark would reject at analysis or what sparkcep does not reproduce exactly (a DOUBLE
Spark turns into a STRING, whose digits depend on the Java version). So one definition of each
operator (``sparkcep.evaluation.operators``) serves the interpreter and the generated code, and
a type mistake in a match-dependent DEFINE fails like Spark's analysis does, not on some row.

This module holds ``bind`` and the dispatch over operator names (``Binder``) with the operators'
own typing (comparisons, arithmetic, AND/OR/NOT, IS, IN, BETWEEN, IF, COALESCE, ...); ``core``
the leaves, casts, common types and errors every family uses; one module per function family
(``numbers``, ``strings``, ``arrays_and_maps``, ``datetimes``) a mixin with its typing.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from sparkcep.errors import AnalysisError
from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation.base_functions import BASE_FUNCTIONS
from sparkcep.evaluation.binding.arrays_and_maps import CollectionBinding
from sparkcep.evaluation.binding.collection_builders import (COLLECTION_BUILDERS, CollectionBuilderBinding, constructed,
                                                              never_null)
from sparkcep.evaluation.binding.core import (BOOLEAN, DOUBLE, INT_ARGUMENTS, STRING, YEAR_MONTH_REFUSAL,
                                              Semantics, SqlType, YearMonthInterval, literal_type)
from sparkcep.evaluation.binding.datetime_constructors import CONSTRUCTORS, DatetimeConstructorBinding
from sparkcep.evaluation.binding.datetime_patterns import PATTERN_FUNCTIONS, DatetimePatternBinding
from sparkcep.evaluation.binding.higher_order import HigherOrderBinding
from sparkcep.evaluation.binding.comparator_sort import ComparatorSortBinding  # array_sort with a comparator
from sparkcep.evaluation.binding.row_formats import RowFormatBinding  # format_string's format read from a row
from sparkcep.evaluation.binding.json_functions import JSON_FUNCTIONS, JsonBinding  # JSON functions
from sparkcep.evaluation.binding.map_functions import MAP_FUNCTIONS, MapFunctionBinding  # str_to_map, map_concat
from sparkcep.evaluation.binding.formatting import FORMATTING, FormattingBinding
from sparkcep.evaluation.binding.datetimes import DATE_FIELDS, DATE_FUNCTIONS, EPOCH_FUNCTIONS, TIME_FIELDS, \
    DatetimeBinding, temporal
from sparkcep.evaluation.binding.numbers import INTEGRAL_FUNCTIONS, STRICT_MATH, NumberBinding
from sparkcep.evaluation.binding.string_coercion import StringCoercion
from sparkcep.evaluation.binding.strings import StringBinding
from sparkcep.evaluation.binding.structs import STRUCT_FUNCTIONS, StructBinding  # structs
from sparkcep.evaluation.binding.text_and_binary import TEXT_AND_BINARY, TextAndBinaryBinding  # split, base64, ...
from sparkcep.evaluation.collection_functions import COLLECTION_FUNCTIONS
from sparkcep.evaluation.higher_order_functions import HIGHER_ORDER_FUNCTIONS
from sparkcep.evaluation.comparator_sort import NAME as COMPARATOR_SORT
from sparkcep.evaluation.row_formats import NAME as ROW_FORMAT
from sparkcep.evaluation.integral_functions import TRY_ARITHMETIC
from sparkcep.evaluation.string_functions import STRING_FUNCTIONS
from sparkcep.plan import expressions as p

__all__ = ["Semantics", "bind", "literal_type"]

COMPARISONS = ("eq", "neq", "gt", "gte", "lt", "lte", "null_safe_eq", "null_safe_neq")
ARITHMETIC = ("add", "sub", "mul", "div", "mod")


def bind(expression: p.Expression, column_types: Sequence[str | None], semantics: Semantics,
         source: str = "", never_null_columns: frozenset = frozenset()) -> p.Expression:
    """``expression`` with every operator typed (see the module docstring). ``column_types``:
    the Spark type (``simpleString``) of each value column; ``source``: the statement the
    operators' spans refer to, for errors. Raises ``AnalysisError``."""
    try:
        return Binder(column_types, semantics, source, never_null_columns).bind(expression)[0]
    except YearMonthInterval as operand:
        raise AnalysisError("MATCH_DEPENDENT_TYPE_MISMATCH",
                            f"{str(operand.type).upper()} in a match-dependent expression: {YEAR_MONTH_REFUSAL}") from None


class Binder(StringCoercion, NumberBinding, StringBinding, CollectionBinding, CollectionBuilderBinding,
             DatetimeBinding, DatetimePatternBinding, HigherOrderBinding, JsonBinding, MapFunctionBinding,
             FormattingBinding, StructBinding, TextAndBinaryBinding, DatetimeConstructorBinding,
             ComparatorSortBinding, RowFormatBinding):
    """Every family's typing, and the dispatch over operator names."""

    def operator(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        try:
            return self._operator(e)
        except YearMonthInterval as operand:  # refused at the innermost operator over it
            raise self.refuse(e, [operand.type], YEAR_MONTH_REFUSAL) from None

    def _operator(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        name = e.name
        if name == "paren":
            return self.bind(e.operands[0])
        if name in COMPARISONS:
            t, operands = self.one_type(e, [self.bind(o) for o in e.operands], "comparison", compared=True)
            return self.typed(e, name, operands, BOOLEAN, t), BOOLEAN
        if name in ARITHMETIC:
            (a, ta), (b, tb) = (self.bind(o) for o in e.operands)
            if st.day_time_fields(ta) or st.day_time_fields(tb) or (temporal(ta) and temporal(tb)):
                return self.datetime_arithmetic(e, (a, ta), (b, tb))  # intervals, datetime - datetime
            if name in ("add", "sub") and "date" in (ta.name, tb.name):
                return self.date_arithmetic(e, (a, ta), (b, tb))  # a DATE and a number of days
            if temporal(ta) or temporal(tb):
                return self.datetime_arithmetic(e, (a, ta), (b, tb))  # refused there
            coerced = self.string_coercion(e, [(a, ta), (b, tb)], "arithmetic")
            if coerced is not None:  # a STRING and a number: both of one numeric type first
                t, (a, b) = coerced
                ta = tb = t
            result = st.arithmetic_type(name, ta, tb, self.semantics.ansi)
            if result is None:
                raise self.refuse(e, [ta, tb], "a number is required")
            ca = self.cast(a, ta, st.operand_type(name, ta, result))
            cb = self.cast(b, tb, st.operand_type(name, tb, result))
            return self.typed(e, name, (ca, cb), result), result
        if name == "explicit_cast":
            return self.explicit_cast(e)
        if name in ("neg", "abs"):
            a, t = self.bind(e.operands[0])
            if not (t.numeric or t.null or st.day_time_fields(t)):
                raise self.refuse(e, [t], "a number is required")
            if t.null:
                t = DOUBLE
            return self.typed(e, name, (a,), t, t), t
        if name == "concat":  # of strings (other types cast to STRING, as Spark does)
            bound = [self.bind(o) for o in e.operands]
            types = [t for _, t in bound]
            if any(st.element_type(t) is not None for t in types):
                return self.concat_arrays(e, bound)  # of arrays
            return self.typed(e, name, [self.as_string(e, x, t, types) for x, t in bound], STRING), STRING
        if name in ("like", "ilike", "rlike"):  # of strings (other types cast to STRING)
            (a, ta), (b, tb) = (self.bind(o) for o in e.operands)
            operands = (self.as_string(e, a, ta, [ta, tb]), self.as_string(e, b, tb, [ta, tb]))
            typed = self.typed(e, name, operands, BOOLEAN, STRING)
            return dataclasses.replace(typed, options=typed.options + e.options), BOOLEAN
        if name in ("lower", "upper", "length", "substring"):  # of a STRING (or another type cast to it), INT positions
            bound = [self.bind(o) for o in e.operands]
            types = [t for _, t in bound]
            (a, ta), rest = bound[0], bound[1:]
            if any(t.name not in INT_ARGUMENTS for _, t in rest):
                raise self.refuse(e, types, "a STRING and INT positions are required")
            result = SqlType("int") if name == "length" else STRING
            return self.typed(e, name, [self.as_string(e, a, ta, types)] + [x for x, _ in rest], result), result
        if name in ("round", "bround", "sign", "pmod", "floor", "ceil", "sqrt", "degrees", "radians",
                    "format_number") or name in STRICT_MATH:
            return self.numeric_function(e)
        if name in ("concat_ws", "array_join"):
            return self.joined_string(e)
        if name == "array":
            return self.array_constructor(e)
        if name in ("hash", "xxhash64"):
            return self.hash_function(e)
        if name in STRUCT_FUNCTIONS:  # named_struct, struct, s.f, map_entries, ... (structs)
            return self.struct_function(e)
        if name == "subscript":  # s['f'] of a STRUCT (structs)
            field = self.struct_subscript(e)
            if field is not None:
                return field
        if name in COLLECTION_FUNCTIONS or name == "array_size":
            return self.collection_function(e)
        if name in COLLECTION_BUILDERS:
            return self.collection_builder(e)
        if name in JSON_FUNCTIONS or name == "to_json":  # get_json_object, json_array_length, json_object_keys
            return self.json_function(e)
        if name in MAP_FUNCTIONS:  # str_to_map, map_concat
            return self.map_function(e)
        if name in BASE_FUNCTIONS:
            return self.base_function(e)
        if name in TEXT_AND_BINARY:  # split, regexp_extract_all, base64, encode, soundex, factorial, ...
            return self.text_or_binary(e)
        if name in STRING_FUNCTIONS or name in ("trim", "parse_url", "try_parse_url"):
            return self.string_function(e)
        if name in INTEGRAL_FUNCTIONS or name in TRY_ARITHMETIC:
            return self.integral_function(e)
        if name in ("datediff", "timestampdiff"):
            return self.datetime_difference(e)
        if name in DATE_FUNCTIONS:
            return self.date_function(e)
        if name in PATTERN_FUNCTIONS:
            return self.datetime_pattern(e)
        if name in CONSTRUCTORS:  # timestamp_seconds, make_dt_interval, from_utc_timestamp, ...
            return self.datetime_constructor(e)
        if name in DATE_FIELDS or name in TIME_FIELDS or name in EPOCH_FUNCTIONS or name in ("date_trunc", "trunc"):
            return self.datetime_field(e)
        if name in ("isnan", "nanvl"):
            return self.not_a_number(e)
        if name == "width_bucket":
            return self.width_bucket(e)
        if name == "elt":
            return self.elt(e)
        if name in FORMATTING:  # format_string / printf, typeof
            return self.formatting(e)
        if name in ("and", "or"):
            return self.typed(e, name, [self.boolean(e, o) for o in e.operands], BOOLEAN), BOOLEAN
        if name == "not":
            return self.typed(e, name, (self.boolean(e, e.operands[0]),), BOOLEAN), BOOLEAN
        if name == "is":
            subject, test = e.operands
            if isinstance(test, p.Constant) and isinstance(test.value, bool):
                operand = self.boolean(e, subject)
                return self.typed(e, "is_true" if test.value else "is_false", (operand,), BOOLEAN), BOOLEAN
            bound, _t = self.bind(subject)
            if never_null(bound, self.semantics.ansi, self.never_null_columns):  # map(...), ...: Spark folds the test
                return p.Constant(False, "boolean"), BOOLEAN
            return self.typed(e, "is_null", (bound,), BOOLEAN), BOOLEAN
        if name == "coalesce":
            bound = [self.bind(o) for o in e.operands]
            t, operands = self.one_type(e, bound, "common", compared=False)
            if constructed(bound[0][0]) and bound[0][1] == t:
                return bound[0]  # never NULL: Spark's optimizer drops the rest (size(coalesce(map(..), m)))
            return self.typed(e, name, operands, t, t), t
        if name in ("greatest", "least"):  # Spark refuses a STRING with another type here
            bound = [self.bind(o) for o in e.operands]
            t = self.comparable(e, [b for _, b in bound])
            return self.typed(e, name, [self.cast(x, tx, t) for x, tx in bound], t, t), t
        if name == "nullif":  # NULLIF(a, b) = IF(a = b, NULL, a), typed as a
            (a, ta), (b, tb) = bound = [self.bind(o) for o in e.operands]
            t, operands = self.one_type(e, bound, "comparison", compared=True)
            equal = self.typed(e, "eq", operands, BOOLEAN, t)
            return self.typed(e, "if", (equal, p.Constant(None, str(ta)), a), ta), ta
        if name == "nvl2":  # NVL2(a, b, c) = IF(a IS NOT NULL, b, c)
            (a, _ta), *bound = (self.bind(o) for o in e.operands)
            t, operands = self.one_type(e, bound, "common", compared=False)
            present = self.typed(e, "not", (self.typed(e, "is_null", (a,), BOOLEAN),), BOOLEAN)
            return self.typed(e, "if", (present, *operands), t), t
        if name == "between":  # x >= low AND x <= high, each comparison coerced on its own
            x, low, high = e.operands
            lower = self.operator(p.Operator("gte", (x, low), span=e.span))[0]
            upper = self.operator(p.Operator("lte", (x, high), span=e.span))[0]
            return self.typed(e, "and", (lower, upper), BOOLEAN), BOOLEAN
        if name == "in":
            subject, options = e.operands
            bound = [self.bind(subject)] + [self.bind(o) for o in options.operands]
            t, casts = self.one_type(e, bound, "common", compared=True)
            listed = p.Operator("list", tuple(casts[1:]), str(t))
            return self.typed(e, "in", (casts[0], listed), BOOLEAN, t), BOOLEAN
        if name == "if":
            condition, then, otherwise = e.operands
            test = self.boolean(e, condition)
            t, operands = self.one_type(e, [self.bind(then), self.bind(otherwise)], "common", compared=False)
            return self.typed(e, "if", (test, *operands), t), t
        if name == "case":
            return self.case(e)
        if name in HIGHER_ORDER_FUNCTIONS:  # transform(arr, x -> ...), exists, aggregate, ...
            return self.higher_order(e)
        if name == COMPARATOR_SORT:  # array_sort(arr, (l, r) -> ...)
            return self.comparator_sort(e)
        if name == ROW_FORMAT:  # format_string(A.fmt, ...)
            return self.row_format(e)
        raise self.refuse(e, [])

