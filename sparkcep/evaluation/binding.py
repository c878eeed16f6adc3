"""Binding match-dependent expressions to Spark's types, at registration, before any row is read.

Lowering (``sparkcep.compiler.lowering``) knows no types: it is pure and runs without Spark. At
registration Spark reports the type of every value column; ``bind`` then types each operator
the Python side evaluates with Spark's own rules (``sparkcep.evaluation.sql_types``): it makes
every implicit cast an explicit ``cast`` node, records the result type and the session's ANSI
setting and time zone on each operator, and refuses, with a typed error at the expression,
what Spark would reject at analysis or what sparkcep does not reproduce exactly (strings mixed
with numbers or datetimes, which Spark casts with its string parsers). So one definition of each
operator (``sparkcep.evaluation.operators``) serves the interpreter and the generated code, and
a type mistake in a match-dependent DEFINE fails like Spark's analysis does, not on some row.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal
from typing import Sequence

from sparkcep.errors import AnalysisError
from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation.base_functions import BASE_FUNCTIONS
from sparkcep.evaluation import explicit_casts
from sparkcep.evaluation.collection_functions import COLLECTION_FUNCTIONS
from sparkcep.evaluation.datetime_fields import DATE_FIELDS, EPOCH_FUNCTIONS, TIME_FIELDS
from sparkcep.evaluation.hash_functions import HASHABLE
from sparkcep.evaluation.integral_functions import BITS, BITWISE, SHIFTS, TRY_ARITHMETIC
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.evaluation.string_functions import STRING_FUNCTIONS
from sparkcep.plan import expressions as p

BOOLEAN, INT, BIGINT, DOUBLE, STRING, VOID, BINARY, DATE, TIMESTAMP = (
    SqlType(n) for n in ("boolean", "int", "bigint", "double", "string", "void", "binary", "date", "timestamp"))
COMPARISONS = ("eq", "neq", "gt", "gte", "lt", "lte", "null_safe_eq", "null_safe_neq")
ARITHMETIC = ("add", "sub", "mul", "div", "mod")
_SYMBOLS = {"eq": "=", "neq": "<>", "gt": ">", "gte": ">=", "lt": "<", "lte": "<=", "null_safe_eq": "<=>",
            "null_safe_neq": "IS DISTINCT FROM", "add": "+", "sub": "-", "mul": "*", "div": "/", "mod": "%",
            "neg": "unary -", "abs": "ABS", "and": "AND", "or": "OR", "not": "NOT", "coalesce": "COALESCE",
            "greatest": "GREATEST", "least": "LEAST", "between": "BETWEEN", "in": "IN", "if": "IF",
            "case": "CASE", "lower": "lower", "upper": "upper", "length": "length", "substring": "substring",
            "like": "LIKE", "ilike": "ILIKE", "rlike": "RLIKE", "concat": "concat", "nullif": "NULLIF", "nvl2": "NVL2", "is": "IS",
            "round": "round", "bround": "bround", "sign": "sign", "pmod": "pmod", "concat_ws": "concat_ws",
            "array_join": "array_join", "array": "array", "floor": "floor", "ceil": "ceil", "sqrt": "sqrt",
            "intdiv": "div", "bitwise_and": "&", "bitwise_or": "|", "bitwise_xor": "^", "bitwise_not": "~",
            "try_add": "try_add", "try_sub": "try_subtract", "try_mul": "try_multiply", "try_div": "try_divide",
            "try_mod": "try_mod",
            "ln": "ln", "log": "log", "log10": "log10", "log2": "log2", "log1p": "log1p", "exp": "exp",
            "expm1": "expm1", "power": "power", "cbrt": "cbrt"}


# the non-numeric types whose Spark order Python's comparison of their values is: STRING
# (UTF8_BINARY: by code point, as UTF-8 bytes are), BINARY (unsigned bytes), BOOLEAN, dates and
# timestamps
_ORDERED = ("string", "binary", "boolean", "date", "timestamp", "timestamp_ntz")


# the types of substring's position and length Python takes as they are (Spark casts a BIGINT
# to INT, with its own overflow rules: refused here)
_INT_ARGUMENTS = ("tinyint", "smallint", "int", "void")

INTEGRAL_FUNCTIONS = ("intdiv", *BITWISE, *SHIFTS, *BITS)
# string functions whose operands from this position on are INTs (positions, counts, a threshold)
_FIRST_INT_OPERAND = {"locate": 2, "left": 1, "right": 1, "substring_index": 2, "split_part": 2,
                      "levenshtein": 2, "sha2": 1, "repeat": 1, "regexp_extract": 2, "regexp_replace": 3,
                      "regexp_instr": 2}
# the number of operands of the string functions that take more than one
_ARITY = {"contains": (2, 2), "startswith": (2, 2), "endswith": (2, 2), "locate": (2, 3), "trim": (1, 2),
          "replace": (2, 3), "left": (2, 2), "right": (2, 2), "substring_index": (3, 3), "split_part": (3, 3),
          "levenshtein": (2, 3), "sha2": (2, 2), "translate": (3, 3),
          "lpad": (2, 3), "rpad": (2, 3), "repeat": (2, 2),
          # lowering gives regexp_extract its default group and regexp_replace its position
          "regexp_extract": (3, 3), "regexp_replace": (4, 4), "regexp_count": (2, 2), "regexp_substr": (2, 2),
          "regexp_instr": (2, 3), "find_in_set": (2, 2)}
_INT_RESULTS = ("locate", "levenshtein", "ascii", "octet_length", "bit_length", "regexp_count", "regexp_instr",
                "find_in_set")


@dataclass(frozen=True)
class Semantics:
    """The session settings Spark's semantics depend on (read at registration)."""

    ansi: bool = True
    time_zone: str = "UTC"


def bind(expression: p.Expression, column_types: Sequence[str | None], semantics: Semantics,
         source: str = "") -> p.Expression:
    """``expression`` with every operator typed (see the module docstring). ``column_types``:
    the Spark type (``simpleString``) of each value column; ``source``: the statement the
    operators' spans refer to, for errors. Raises ``AnalysisError``."""
    try:
        return _Binder(column_types, semantics, source).bind(expression)[0]
    except _YearMonthInterval as operand:
        raise AnalysisError("MATCH_DEPENDENT_TYPE_MISMATCH",
                            f"{str(operand.type).upper()} in a match-dependent expression: {_YEAR_MONTH_REFUSAL}") from None


class _YearMonthInterval(Exception):
    """A year-month interval reached the Python side, which PySpark cannot hand it to (Arrow
    has no conversion for it): refused at the innermost operator over it."""

    def __init__(self, t: SqlType) -> None:
        super().__init__(str(t))
        self.type = t


_YEAR_MONTH_REFUSAL = ("PySpark passes no year-month interval to Python (Arrow has no conversion for "
                       "them), so sparkcep cannot combine one between rows; convert it inside the "
                       "navigation, e.g. CAST(B.ym AS INT) > CAST(A.ym AS INT) for INTERVAL MONTH "
                       "values, which Spark computes per row")


def literal_type(value) -> SqlType:
    """The Spark type of a SQL literal as lowering stores it (NULL, boolean, integer, decimal
    without exponent, string): Spark types an integer literal as INT, else BIGINT, else
    DECIMAL, and ``1.50`` as DECIMAL(3,2)."""
    if value is None:
        return VOID
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, int):
        if -(1 << 31) <= value < (1 << 31):
            return SqlType("int")
        if -(1 << 63) <= value < (1 << 63):
            return BIGINT
        return st.decimal_type(len(str(abs(value))), 0)
    if isinstance(value, Decimal):
        sign, digits, exponent = value.as_tuple()
        scale = max(0, -exponent)
        return st.decimal_type(max(len(digits), scale, 1), scale)
    if isinstance(value, float):
        return DOUBLE
    if isinstance(value, str):
        return STRING
    return SqlType(type(value).__name__)


class _Binder:
    def __init__(self, column_types, semantics: Semantics, source: str) -> None:
        self.column_types = list(column_types)
        self.semantics = semantics
        self.source = source
        self.options = (("ansi", semantics.ansi), ("zone", semantics.time_zone))

    # -- errors ----------------------------------------------------------------------------------

    def refuse(self, operator: p.Operator, types: Sequence[SqlType], why: str = "") -> AnalysisError:
        shown = ", ".join(str(t).upper() for t in types)
        symbol = _SYMBOLS.get(operator.name, operator.name.upper())
        message = (
            f"'{symbol}' cannot be applied to {shown} in a match-dependent expression"
            + (f": {why}" if why else "")
            + "; convert one side with CAST inside the navigation so both sides have one type"
        )
        span = operator.span
        if span is not None and self.source:
            return AnalysisError.at_offset("MATCH_DEPENDENT_TYPE_MISMATCH", message, self.source,
                                           span[0], max(1, span[1] - span[0]))
        return AnalysisError("MATCH_DEPENDENT_TYPE_MISMATCH", message)

    # -- leaves ----------------------------------------------------------------------------------

    def column_type(self, column: int) -> SqlType:
        text = self.column_types[column] if column < len(self.column_types) else None
        parsed = st.parse(text)
        if parsed is None:
            raise AnalysisError("MATCH_DEPENDENT_TYPE_MISMATCH", f"the type of value column {column} is unknown")
        if parsed.name.startswith("interval") and not st.day_time_fields(parsed):
            raise _YearMonthInterval(parsed)
        return parsed

    def bind(self, e: p.Expression) -> tuple[p.Expression, SqlType]:
        if isinstance(e, p.Constant):
            t = st.parse(e.type) if e.type else literal_type(e.value)
            value = Decimal(e.value) if t.decimal and isinstance(e.value, int) else e.value
            return p.Constant(value, str(t)), t
        if isinstance(e, (p.CurrentRow, p.Navigation)):
            return e, self.column_type(e.column)
        if isinstance(e, p.MatchNumber):
            return e, BIGINT
        if isinstance(e, p.Classifier):
            return e, STRING
        if isinstance(e, p.Aggregate):
            return self.aggregate(e)
        if isinstance(e, p.Operator):
            return self.operator(e)
        if isinstance(e, p.NavigatedLabel):
            return e, STRING if e.what == "classifier" else BIGINT
        if isinstance(e, p.LabelAggregate):
            return e, self.label_aggregate(e)
        if isinstance(e, p.MatchStatus):  # a whole component: 'COMPLETE' / 'TIMED_OUT'
            return e, STRING
        if isinstance(e, (p.Confidence, p.MatchTimeRange)):  # whole components (UNCERTAIN TIME)
            return e, SqlType("double" if isinstance(e, p.Confidence) else "bigint")
        if isinstance(e, p.MatchRows):  # only a whole component: Spark aggregates the rows
            return e, SqlType("array<struct>")
        raise TypeError(f"not a plan expression: {e!r}")

    @staticmethod
    def label_aggregate(e: p.LabelAggregate) -> SqlType:
        """The type of an aggregate over CLASSIFIER() (STRING) or MATCH_NUMBER() (BIGINT)."""
        label = STRING if e.what == "classifier" else BIGINT
        if e.function == "count":
            return BIGINT
        if e.function == "collect_list":
            return SqlType(f"array<{label}>")
        return label  # min, max, any_value; sum of MATCH_NUMBER() is a BIGINT too

    def aggregate(self, e: p.Aggregate) -> tuple[p.Expression, SqlType]:
        if e.ordering is not None:  # min_by / max_by: the type of x; y must be orderable here
            argument, ordering = self.column_type(e.column), self.column_type(e.ordering)
            if not (ordering.numeric or ordering.null or ordering.name in _ORDERED):
                raise AnalysisError(
                    "MATCH_DEPENDENT_TYPE_MISMATCH",
                    f"{e.function.upper()} in DEFINE cannot order by {str(ordering).upper()} (sparkcep "
                    f"orders numbers, STRING, BOOLEAN, BINARY, DATE and TIMESTAMP values here)")
            result = argument if e.count is None else SqlType(f"array<{argument}>")
            return dataclasses.replace(e, argument_type=str(argument), ordering_type=str(ordering),
                                       type=str(result), options=self.options), result
        if e.function in ("count_if", "bool_and", "bool_or"):
            argument = self.column_type(e.column)
            if argument.name not in ("boolean", "void"):
                raise AnalysisError("MATCH_DEPENDENT_TYPE_MISMATCH",
                                    f"{e.function.upper()} needs a BOOLEAN argument, not {str(argument).upper()}")
            result = BIGINT if e.function == "count_if" else BOOLEAN
            return dataclasses.replace(e, argument_type=str(argument), type=str(result), options=self.options), result
        if e.function == "any_value":
            argument = self.column_type(e.column)
            return dataclasses.replace(e, argument_type=str(argument), type=str(argument), options=self.options), argument
        if e.column is None or e.function == "count":
            argument = None if e.column is None else self.column_type(e.column)
            return dataclasses.replace(e, argument_type=argument and str(argument), type="bigint",
                                       options=self.options), BIGINT
        argument = self.column_type(e.column)
        result: SqlType | None
        if e.function in ("min", "max"):
            result = argument
        elif e.function == "sum":
            result = (BIGINT if argument.integral else st.bounded(argument.precision + 10, argument.scale)
                      if argument.decimal else DOUBLE if argument.fractional else None)
        elif e.function == "avg":
            result = (st.bounded(argument.precision + 4, argument.scale + 4) if argument.decimal
                      else DOUBLE if argument.numeric else None)
        else:
            result = SqlType(f"array<{argument}>")
        if result is None:
            raise AnalysisError("MATCH_DEPENDENT_TYPE_MISMATCH",
                                f"{e.function.upper()} cannot be applied to {str(argument).upper()}")
        return dataclasses.replace(e, argument_type=str(argument), type=str(result), options=self.options), result

    # -- operators ---------------------------------------------------------------------------

    def cast(self, e: p.Expression, source: SqlType, target: SqlType) -> p.Expression:
        if source == target or source.null:
            if source.null and isinstance(e, p.Constant):
                return p.Constant(None, str(target))
            return e
        return p.Operator("cast", (e,), str(target), (("source", str(source)),) + self.options)

    def explicit_cast(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``CAST(x AS t)`` / ``TRY_CAST(x AS t)`` of a value that combines rows: the casts whose
        Spark semantics Python has (checked against Spark): the widening ones of
        ``operators.cast`` (a number to a wider integral type, to DECIMAL (rounded half up; out
        of range an error under ANSI CAST, else NULL) or to DOUBLE, INT or smaller to FLOAT,
        FLOAT to DOUBLE, DATE to TIMESTAMP[_NTZ], TIMESTAMP_NTZ to TIMESTAMP), and those of
        ``explicit_casts`` (to a narrower integral type, to and from BOOLEAN, to STRING, a
        STRING to an integral type), the operator ``converting_cast``. Others are refused (apply
        them inside the navigation, where Spark computes them per row)."""
        options = dict(e.options)
        operand, source = self.bind(e.operands[0])
        target = st.parse(options["to"])
        if not _exact_cast(source, target) and explicit_casts.supported(source, target):
            typed = self.typed(e, "converting_cast", (operand,), target, source)
            return dataclasses.replace(typed, options=typed.options + (("try", options["try"]),)), target
        if not _exact_cast(source, target):
            what = "TRY_CAST" if options["try"] else "CAST"
            message = (f"'{what}' from {str(source).upper()} to {str(target).upper()} cannot be "
                       "evaluated between rows of a match in DEFINE; apply it inside the "
                       "navigation (CAST(B.s AS INT) > A.n, LAST(CAST(A.s AS INT))), where Spark "
                       "computes it per row")
            if e.span is not None and self.source:
                raise AnalysisError.at_offset("MATCH_DEPENDENT_TYPE_MISMATCH", message, self.source,
                                              e.span[0], max(1, e.span[1] - e.span[0]))
            raise AnalysisError("MATCH_DEPENDENT_TYPE_MISMATCH", message)
        cast = self.cast(operand, source, target)
        if isinstance(cast, p.Operator) and cast is not operand:  # TRY_CAST tolerates the cast's own errors only
            cast_options = tuple((k, False if k == "ansi" and options["try"] else v)
                                 for k, v in cast.options)
            cast = dataclasses.replace(cast, options=cast_options, span=e.span)
        return cast, target

    def typed(self, e: p.Operator, name: str, operands, result: SqlType, operand: SqlType | None = None):
        options = self.options + ((("operand", str(operand)),) if operand is not None else ())
        return p.Operator(name, tuple(operands), str(result), options, e.span)

    def common(self, e: p.Operator, types: Sequence[SqlType]) -> SqlType:
        t = st.common_type(types, ansi=self.semantics.ansi)
        if t is None:
            raise self.refuse(e, types)
        return t

    def comparable(self, e: p.Operator, types: Sequence[SqlType]) -> SqlType:
        """The common type of values compared (=, <, IN, GREATEST, CASE x WHEN ...): not a MAP
        (Spark refuses to compare maps), and an ARRAY only of the element types
        ``collection_functions`` orders as Spark does."""
        t = self.common(e, types)
        if st.map_types(t) is not None or (st.element_type(t) is not None
                                           and not st.collection_element(st.element_type(t))):
            raise self.refuse(e, types, "maps, and arrays of arrays, maps or structs, are not compared here")
        return t

    def boolean(self, e: p.Operator, operand: p.Expression) -> p.Expression:
        bound, t = self.bind(operand)
        if t.name not in ("boolean", "void"):
            raise self.refuse(e, [t], "a BOOLEAN is required")
        return self.cast(bound, t, BOOLEAN)

    def operator(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        try:
            return self._operator(e)
        except _YearMonthInterval as operand:  # refused at the innermost operator over it
            raise self.refuse(e, [operand.type], _YEAR_MONTH_REFUSAL) from None

    def _operator(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        name = e.name
        if name == "paren":
            return self.bind(e.operands[0])
        if name in COMPARISONS:
            (a, ta), (b, tb) = (self.bind(o) for o in e.operands)
            t = self.comparable(e, [ta, tb])
            return self.typed(e, name, (self.cast(a, ta, t), self.cast(b, tb, t)), BOOLEAN, t), BOOLEAN
        if name in ARITHMETIC:
            (a, ta), (b, tb) = (self.bind(o) for o in e.operands)
            if st.day_time_fields(ta) or st.day_time_fields(tb) or (_temporal(ta) and _temporal(tb)):
                return self.datetime_arithmetic(e, (a, ta), (b, tb))  # intervals, datetime - datetime
            if name in ("add", "sub") and "date" in (ta.name, tb.name):
                return self.date_arithmetic(e, (a, ta), (b, tb))  # a DATE and a number of days
            if _temporal(ta) or _temporal(tb):
                return self.datetime_arithmetic(e, (a, ta), (b, tb))  # refused there
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
        if name == "concat":  # of strings (Spark casts other types to STRING first: not here)
            bound = [self.bind(o) for o in e.operands]
            if any(t.name not in ("string", "void") for _, t in bound):
                raise self.refuse(e, [t for _, t in bound], "STRINGs are required (CAST(x AS STRING))")
            return self.typed(e, name, [x for x, _ in bound], STRING), STRING
        if name in ("like", "ilike", "rlike"):  # Spark casts other types to STRING first; not here
            (a, ta), (b, tb) = (self.bind(o) for o in e.operands)
            if any(t.name not in ("string", "void") for t in (ta, tb)):
                raise self.refuse(e, [ta, tb], f"a STRING is required (CAST(x AS STRING) {_SYMBOLS[name]} ...)")
            typed = self.typed(e, name, (a, b), BOOLEAN, STRING)
            return dataclasses.replace(typed, options=typed.options + e.options), BOOLEAN
        if name in ("lower", "upper", "length", "substring"):  # of a STRING (no implicit casts here)
            bound = [self.bind(o) for o in e.operands]
            (a, ta), rest = bound[0], bound[1:]
            if ta.name not in ("string", "void") or any(t.name not in _INT_ARGUMENTS for _, t in rest):
                raise self.refuse(e, [t for _, t in bound], "a STRING (and INT positions) is required")
            result = SqlType("int") if name == "length" else STRING
            return self.typed(e, name, [x for x, _ in bound], result), result
        if name in ("round", "bround", "sign", "pmod", "concat_ws", "array_join", "array", "floor", "ceil",
                    "sqrt", "format_number") or name in _STRICT_MATH:
            return self.function(e)
        if name in ("hash", "xxhash64"):
            return self.hash_function(e)
        if name in COLLECTION_FUNCTIONS or name == "array_size":
            return self.collection_function(e)
        if name in BASE_FUNCTIONS:
            return self.base_function(e)
        if name in STRING_FUNCTIONS or name == "trim":
            return self.string_function(e)
        if name in INTEGRAL_FUNCTIONS or name in TRY_ARITHMETIC:
            return self.integral_function(e)
        if name in ("datediff", "timestampdiff"):
            return self.datetime_difference(e)
        if name in DATE_FUNCTIONS:
            return self.date_function(e)
        if name in DATE_FIELDS or name in TIME_FIELDS or name in EPOCH_FUNCTIONS or name in ("date_trunc", "trunc"):
            return self.datetime_field(e)
        if name in ("isnan", "nanvl"):
            return self.not_a_number(e)
        if name == "width_bucket":
            return self.width_bucket(e)
        if name == "elt":
            return self.elt(e)
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
            return self.typed(e, "is_null", (bound,), BOOLEAN), BOOLEAN
        if name in ("coalesce", "greatest", "least"):
            bound = [self.bind(o) for o in e.operands]
            t = self.common(e, [b for _, b in bound]) if name == "coalesce" else \
                self.comparable(e, [b for _, b in bound])
            return self.typed(e, name, [self.cast(x, tx, t) for x, tx in bound], t, t), t
        if name == "nullif":  # NULLIF(a, b) = IF(a = b, NULL, a), typed as a
            (a, ta), (b, tb) = (self.bind(o) for o in e.operands)
            t = self.comparable(e, [ta, tb])
            equal = self.typed(e, "eq", (self.cast(a, ta, t), self.cast(b, tb, t)), BOOLEAN, t)
            return self.typed(e, "if", (equal, p.Constant(None, str(ta)), a), ta), ta
        if name == "nvl2":  # NVL2(a, b, c) = IF(a IS NOT NULL, b, c)
            (a, _ta), (b, tb), (c, tc) = (self.bind(o) for o in e.operands)
            t = self.common(e, [tb, tc])
            present = self.typed(e, "not", (self.typed(e, "is_null", (a,), BOOLEAN),), BOOLEAN)
            return self.typed(e, "if", (present, self.cast(b, tb, t), self.cast(c, tc, t)), t), t
        if name == "between":  # x >= low AND x <= high, each comparison coerced on its own
            x, low, high = e.operands
            lower = self.operator(p.Operator("gte", (x, low), span=e.span))[0]
            upper = self.operator(p.Operator("lte", (x, high), span=e.span))[0]
            return self.typed(e, "and", (lower, upper), BOOLEAN), BOOLEAN
        if name == "in":
            subject, options = e.operands
            bound = [self.bind(subject)] + [self.bind(o) for o in options.operands]
            t = self.comparable(e, [b for _, b in bound])
            casts = [self.cast(x, tx, t) for x, tx in bound]
            listed = p.Operator("list", tuple(casts[1:]), str(t))
            return self.typed(e, "in", (casts[0], listed), BOOLEAN, t), BOOLEAN
        if name == "if":
            condition, then, otherwise = e.operands
            test = self.boolean(e, condition)
            (a, ta), (b, tb) = self.bind(then), self.bind(otherwise)
            t = self.common(e, [ta, tb])
            return self.typed(e, "if", (test, self.cast(a, ta, t), self.cast(b, tb, t)), t), t
        if name == "case":
            return self.case(e)
        raise self.refuse(e, [])

    def function(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """The scalar functions of ``sparkcep.evaluation.functions``, typed as Spark types them."""
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        if name in ("round", "bround"):  # Spark's RoundBase: the scale is an option (a literal)
            (a, t), = bound
            if not (t.numeric or t.null):
                raise self.refuse(e, types, "a number is required")
            argument = DOUBLE if t.null else t  # NULL is cast to DOUBLE
            result = st.rounded_type(argument, dict(e.options)["scale"])
            typed = self.typed(e, name, (self.cast(a, t, argument),), result, argument)
            return dataclasses.replace(typed, options=typed.options + e.options), result
        if name in ("floor", "ceil") and "scale" in dict(e.options):  # Spark's RoundFloor / RoundCeil
            (a, t), = bound
            if not (t.numeric or t.null):
                raise self.refuse(e, types, "a number is required")
            # the argument is cast to DECIMAL: DECIMAL(30, 15) from a DOUBLE, (14, 7) from a
            # FLOAT, (38, 18) from NULL, an integral type's own precision
            argument = st.as_decimal(t) or _DECIMAL_OF.get(t.name, _DOUBLE_DECIMAL)
            result = st.rounded_type(argument, dict(e.options)["scale"])
            typed = self.typed(e, name, (self.cast(a, t, argument),), result, argument)
            return dataclasses.replace(typed, options=typed.options + e.options), result
        if name == "sqrt" or name in _STRICT_MATH:  # Math.sqrt / StrictMath of the values as DOUBLEs
            if not all(t.numeric or t.null for t in types):
                raise self.refuse(e, types, "a number is required")
            cast = [self.cast(a, t, DOUBLE) for a, t in bound]
            return self.typed(e, name, cast, DOUBLE, DOUBLE), DOUBLE
        if name in ("floor", "ceil"):  # a DECIMAL(p - s + 1, 0) of a DECIMAL, else a BIGINT
            (a, t), = bound
            if not (t.numeric or t.null):
                raise self.refuse(e, types, "a number is required")
            argument = DOUBLE if t.null else BIGINT if t.integral else t
            result = st.decimal_type(min(t.precision - t.scale + 1, st.MAX_PRECISION), 0) if t.decimal else BIGINT
            return self.typed(e, name, (self.cast(a, t, argument),), result, argument), result
        if name == "sign":  # Math.signum of the value cast to DOUBLE
            (a, t), = bound
            if not (t.numeric or t.null):
                raise self.refuse(e, types, "a number is required")
            return self.typed(e, name, (self.cast(a, t, DOUBLE),), DOUBLE, DOUBLE), DOUBLE
        if name == "pmod":  # typed as % is
            (a, ta), (b, tb) = bound
            result = st.arithmetic_type("mod", ta, tb, self.semantics.ansi)
            if result is None:
                raise self.refuse(e, types, "a number is required")
            operand = st.operand_type("mod", ta, result)
            if result.null:  # pmod(NULL, NULL)
                return p.Constant(None, "void"), result
            ca = self.cast(a, ta, operand)
            cb = self.cast(b, tb, st.operand_type("mod", tb, result))
            return self.typed(e, name, (ca, cb), result, operand), result
        if name == "format_number":  # of an exact number (DecimalFormat of a DOUBLE: refused), INT decimals
            if len(bound) != 2 or not (types[0].integral or types[0].decimal or types[0].null) or \
                    types[1].name != "int":  # Spark takes exactly an INT (no implicit casts)
                raise self.refuse(e, types, "an integral or DECIMAL number and INT decimals are required "
                                            "(a DOUBLE is not formatted here)")
            return self.typed(e, name, [x for x, _ in bound], STRING, types[0]), STRING
        if name == "array":  # of values of one type (Spark's CreateArray: their common type)
            if any(not (st.collection_element(t) or t.null) for t in types):
                raise self.refuse(e, types, "numbers, STRINGs, BOOLEANs, DATEs and TIMESTAMPs are required")
            element = self.common(e, types) if types else VOID
            casts = [self.exact_cast(e, x, t, element, types) for x, t in bound]
            result = st.array_of(element)
            return self.typed(e, name, casts, result), result
        # concat_ws(sep, STRING or ARRAY<STRING>, ...) / array_join(ARRAY<STRING>, STRING[, STRING])
        arrays = types[:1] if name == "array_join" else types[1:] if name == "concat_ws" else []
        strings = types[1:] if name == "array_join" else types[:1]
        if any(t.name not in ("string", "void") for t in strings) or \
                any(t.name not in ("array<string>", "array<void>", "void") and (name == "array_join" or t.name != "string")
                    for t in arrays):
            raise self.refuse(e, types, "STRINGs (and ARRAY<STRING>) are required (CAST(x AS STRING))")
        return self.typed(e, name, [x for x, _ in bound], STRING), STRING

    def string_function(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``sparkcep.evaluation.string_functions``: STRINGs, and INT positions and lengths (no
        implicit casts: Spark's casts of other types to STRING are not reproduced)."""
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        if name == "chr":  # of an integral number, cast to BIGINT
            (a, t), = bound
            if not (t.integral or t.null):
                raise self.refuse(e, [t], "an integral number is required")
            return self.typed(e, name, (self.cast(a, t, BIGINT),), STRING, BIGINT), STRING
        low, high = _ARITY.get(name, (1, len(bound)))
        if not low <= len(bound) <= high:
            raise self.refuse(e, [t for _, t in bound], f"it takes {low} to {high} arguments" if low < high
                              else f"it takes {low} argument{'s' if low > 1 else ''}")
        first_int = _FIRST_INT_OPERAND.get(name, len(bound))
        if name in ("lpad", "rpad"):  # lpad(str, len[, pad]): the length is the only INT
            strings = [t for k, (_, t) in enumerate(bound) if k != 1]
            ints = [bound[1][1]]
        else:
            strings = [t for _, t in bound[:first_int]]
            ints = [t for _, t in bound[first_int:]]
        if any(t.name not in ("string", "void") for t in strings) or any(t.name not in _INT_ARGUMENTS for t in ints):
            why = "STRINGs are required (CAST(x AS STRING))" if first_int == len(bound) else \
                "a STRING and INT positions are required"
            raise self.refuse(e, [t for _, t in bound], why)
        result = BOOLEAN if name in ("contains", "startswith", "endswith") else \
            INT if name in _INT_RESULTS else BIGINT if name == "crc32" else STRING
        typed = self.typed(e, name, [x for x, _ in bound], result)
        typed = dataclasses.replace(typed, options=typed.options + e.options)
        if name == "locate" and len(bound) == 3:  # a NULL position gives 0, not NULL (Spark's StringLocate)
            position = bound[2][0]
            unknown = self.typed(e, "is_null", (position,), BOOLEAN)
            return self.typed(e, "if", (unknown, p.Constant(0, "int"), typed), INT), INT
        return typed, result

    def hash_function(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``hash(e1, ...)`` (an INT) and ``xxhash64(e1, ...)`` (a BIGINT) of one or more values of
        the types ``hash_functions`` hashes as Spark does (not arrays, maps, structs or
        intervals); each operand keeps its own type (the ``types`` option)."""
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        if not bound:
            raise self.refuse(e, types, "it takes at least one argument")
        if any(t.name not in HASHABLE for t in types):
            raise self.refuse(e, types, "numbers, STRING, BINARY, BOOLEAN, DATE and TIMESTAMP values are hashed here")
        result = INT if e.name == "hash" else BIGINT
        typed = self.typed(e, e.name, [x for x, _ in bound], result)
        return dataclasses.replace(typed, options=typed.options + (("types", tuple(str(t) for t in types)),)), result

    def exact_cast(self, e: p.Operator, x: p.Expression, source: SqlType, target: SqlType,
                   types: Sequence[SqlType]) -> p.Expression:
        """``x`` cast from ``source`` to ``target`` (an array's elements, a map's keys, one by
        one), refusing ``e`` when ``operators.cast`` does not compute Spark's cast exactly."""
        inner_source, inner_target = source, target
        if st.element_type(source) is not None and st.element_type(target) is not None:
            inner_source, inner_target = st.element_type(source), st.element_type(target)
        elif st.map_types(source) is not None and st.map_types(target) is not None:
            (inner_source, values), (inner_target, target_values) = st.map_types(source), st.map_types(target)
            if values != target_values:
                raise self.refuse(e, types)
        if not _exact_cast(inner_source, inner_target):
            raise self.refuse(e, types, f"Spark casts {str(inner_source).upper()} to {str(inner_target).upper()} "
                                        "here, which sparkcep does not reproduce between rows")
        return self.cast(x, source, target)

    def collection_function(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """The array and map functions of ``collection_functions``, typed as Spark 4.3 types
        them: ``array_contains`` and ``map_contains_key`` cast the array's elements (the map's
        keys) and the value to ``wider_type_without_string_promotion`` of the two,
        ``array_position``, ``arrays_overlap`` and ``element_at`` / ``try_element_at`` of a map
        to their ``tightest_common_type``, ``m[k]`` casts k to the map's key type; an array
        index is an INT (or smaller) for ``element_at``, any integral number for ``arr[i]``.
        Arrays and maps of other element types (nested arrays, maps, structs, binaries,
        intervals) are refused, but for ``size``."""
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        ansi = self.semantics.ansi
        arity = {"size": 1, "array_size": 1, "array_distinct": 1, "array_max": 1, "array_min": 1, "slice": 3}.get(name, 2)
        if len(bound) != arity:
            raise self.refuse(e, types, f"it takes {arity} argument{'s' if arity > 1 else ''}")
        (x, t) = bound[0]
        element, entries = st.element_type(t), st.map_types(t)
        if name in ("size", "array_size"):
            if element is None and (entries is None or name == "array_size") and not t.null:
                raise self.refuse(e, types, "an ARRAY" + (" or a MAP" if name == "size" else "") + " is required")
            typed = self.typed(e, "size", (x,), INT, t)
            if ansi or name == "array_size":
                return typed, INT
            # Spark's legacy size of NULL (spark.sql.legacy.sizeOfNull, on unless ANSI is): -1
            unknown = self.typed(e, "is_null", (x,), BOOLEAN)
            return self.typed(e, "if", (unknown, p.Constant(-1, "int"), typed), INT), INT
        if entries is not None and name in ("element_at", "try_element_at", "subscript", "map_contains_key"):
            key, value = entries
            (k, tk) = bound[1]
            if not (st.collection_element(key) and (st.collection_element(tk) or tk.null)):
                raise self.refuse(e, types, "a MAP with keys of a number, STRING, BOOLEAN, DATE or TIMESTAMP type "
                                            "and a key of a compatible type are required")
            if name == "subscript":  # GetMapValue: the key cast to the map's key type
                common = key if st.tightest_common_type(key, tk, ansi=ansi) == key else None
            elif name == "map_contains_key":
                common = None if tk.null else st.wider_type_without_string_promotion(key, tk, ansi=ansi)
            else:
                common = st.tightest_common_type(key, tk, ansi=ansi)
            if common is None:
                raise self.refuse(e, types, "Spark does not cast the map's keys and this key to one type")
            target = st.map_of(common, value)
            operands = (self.exact_cast(e, x, t, target, types), self.exact_cast(e, k, tk, common, types))
            if name == "map_contains_key":
                return self.typed(e, name, operands, BOOLEAN, common), BOOLEAN
            return self.typed(e, "map_value", operands, value, common), value
        if element is None and name != "arrays_overlap" or (element is not None and not st.collection_element(element)):
            raise self.refuse(e, types, "an ARRAY of numbers, STRINGs, BOOLEANs, DATEs or TIMESTAMPs is required")
        if name in ("array_contains", "array_position"):
            (v, tv) = bound[1]
            if name == "array_contains" and tv.null:
                raise self.refuse(e, types, "Spark refuses an untyped NULL here")
            if not (st.collection_element(tv) or tv.null):
                raise self.refuse(e, types, "a value of the array's element type is required")
            rule = st.wider_type_without_string_promotion if name == "array_contains" else st.tightest_common_type
            common = rule(element, tv, ansi=ansi)
            if common is None:
                raise self.refuse(e, types, "Spark does not cast the array's elements and this value to one type")
            operands = (self.exact_cast(e, x, t, st.array_of(common), types), self.exact_cast(e, v, tv, common, types))
            result = BOOLEAN if name == "array_contains" else BIGINT
            return self.typed(e, name, operands, result, common), result
        if name == "arrays_overlap":
            (y, ty) = bound[1]
            other = st.element_type(ty)
            if element is None or other is None or not st.collection_element(other):
                raise self.refuse(e, types, "two ARRAYs of numbers, STRINGs, BOOLEANs, DATEs or TIMESTAMPs are required")
            common = st.tightest_common_type(element, other, ansi=ansi)
            if common is None:
                raise self.refuse(e, types, "Spark does not cast the two arrays' elements to one type")
            target = st.array_of(common)
            operands = (self.exact_cast(e, x, t, target, types), self.exact_cast(e, y, ty, target, types))
            return self.typed(e, name, operands, BOOLEAN, common), BOOLEAN
        if name in ("element_at", "try_element_at", "subscript"):
            (i, ti) = bound[1]
            if not (ti.name in ("tinyint", "smallint", "int") or name == "subscript" and ti.integral):
                raise self.refuse(e, types, "an INT index is required" if name != "subscript"
                                  else "an integral index is required")
            return self.typed(e, name, (x, i), element, element), element
        if name == "slice":
            if any(tn.name not in ("tinyint", "smallint", "int", "void") for tn in types[1:]):
                raise self.refuse(e, types, "an ARRAY and an INT start and length are required")
            return self.typed(e, name, [o for o, _ in bound], t, element), t
        result = t if name == "array_distinct" else element  # array_max, array_min
        return self.typed(e, name, (x,), result, element), result

    def base_function(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``base_functions``: ``conv(num, from_base, to_base)`` of a STRING (or an integral
        number, which Spark casts to its decimal digits) and INT bases; ``hex`` of an integral
        number (as a BIGINT), a STRING or a BINARY; ``unhex`` of a STRING (a BINARY); ``bin`` of an
        integral number (as a BIGINT)."""
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        arity = 3 if name == "conv" else 1
        if len(bound) != arity:
            raise self.refuse(e, types, f"it takes {arity} argument{'s' if arity > 1 else ''}")
        (a, t) = bound[0]
        if name == "conv":
            if not (t.name in ("string", "void") or t.integral) or any(b.name not in _INT_ARGUMENTS for b in types[1:]):
                raise self.refuse(e, types, "a STRING (or an integral number) and INT bases are required")
            typed = self.typed(e, name, [x for x, _ in bound], STRING, STRING if t.null else t)
            return typed, STRING
        if name == "unhex":
            if t.name not in ("string", "void"):
                raise self.refuse(e, types, "a STRING is required")
            return self.typed(e, name, (a,), BINARY, STRING), BINARY
        if name == "hex" and t.name in ("string", "binary"):
            return self.typed(e, name, (a,), STRING, t), STRING
        if not (t.integral or t.null):
            raise self.refuse(e, types, "an integral number" + (" or a STRING" if name == "hex" else "") + " is required")
        return self.typed(e, name, (self.cast(a, t, BIGINT),), STRING, BIGINT), STRING

    def integral_function(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``sparkcep.evaluation.integral_functions``, typed as Spark types them."""
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        if name in TRY_ARITHMETIC:  # typed as the operator, with the session's coercion rules
            (a, ta), (b, tb) = bound
            operator = TRY_ARITHMETIC[name]
            result = st.arithmetic_type(operator, ta, tb, self.semantics.ansi)
            if result is None:
                raise self.refuse(e, types, "numbers are required")
            if result.null:
                return p.Constant(None, "void"), result
            ca = self.cast(a, ta, st.operand_type(operator, ta, result))
            cb = self.cast(b, tb, st.operand_type(operator, tb, result))
            return self.typed(e, name, (ca, cb), result), result
        if name == "bit_count":  # of an integral value or a BOOLEAN, as it is
            (a, ta), = bound
            if not (ta.integral or ta.name in ("boolean", "void")):
                raise self.refuse(e, types, "an integral number or a BOOLEAN is required")
            return self.typed(e, name, (a,), INT, ta), INT
        if any(not (t.integral or t.null) for t in types):
            raise self.refuse(e, types, "integral numbers are required")
        if name == "bit_get":  # bit pos of a, a TINYINT; pos an INT (or smaller)
            (a, ta), (n, tn) = bound
            if tn.name not in _INT_ARGUMENTS:
                raise self.refuse(e, types, "the bit position must be an INT")
            operand = INT if ta.null else ta
            return self.typed(e, name, (self.cast(a, ta, operand), n), _TINYINT, operand), _TINYINT
        if name == "intdiv":  # Spark's IntegralDivide: both operands cast to BIGINT
            return self.typed(e, name, [self.cast(x, t, BIGINT) for x, t in bound], BIGINT, BIGINT), BIGINT
        if name in SHIFTS:  # an INT or a BIGINT (smaller types widen to INT), shifted by an INT
            (a, ta), (n, tn) = bound
            if tn.name not in _INT_ARGUMENTS:
                raise self.refuse(e, types, "the shift distance must be an INT")
            operand = BIGINT if ta.name == "bigint" else INT
            return self.typed(e, name, (self.cast(a, ta, operand), self.cast(n, tn, INT)), operand, operand), operand
        t = self.common(e, types)  # & | ^ ~ in the operands' common type
        if t.null:
            t = INT
        return self.typed(e, name, [self.cast(x, tx, t) for x, tx in bound], t, t), t

    def datetime_arithmetic(self, e: p.Operator, left, right) -> tuple[p.Expression, SqlType]:
        """``+`` and ``-`` over dates, timestamps and day-time intervals, typed as Spark types
        them (``sparkcep.evaluation.day_time_intervals``): datetime - datetime, datetime ±
        interval, interval + datetime, interval ± interval, interval * number, number *
        interval, interval / number. Year-month intervals and the rest (``%``, an interval
        times an interval) are refused."""
        (a, ta), (b, tb) = left, right
        name = e.name
        interval_a, interval_b = st.day_time_fields(ta), st.day_time_fields(tb)
        datetime_a, datetime_b = ta.name in st.DATETIME, tb.name in st.DATETIME
        if name in ("add", "sub") and interval_a and interval_b:
            t = st.common_type([ta, tb], ansi=self.semantics.ansi)
            return self.typed(e, name, (self.cast(a, ta, t), self.cast(b, tb, t)), t, t), t
        if name == "sub" and datetime_a and datetime_b:
            if ta.name == tb.name == "date":
                return self.typed(e, name, (a, b), _INTERVAL_DAY, ta), _INTERVAL_DAY
            operand = SqlType(max(ta.name, tb.name, "timestamp_ntz", key=st.DATETIME.index))
            return self.typed(e, name, (self.cast(a, ta, operand), self.cast(b, tb, operand)),
                              _INTERVAL_DAY_TO_SECOND, operand), _INTERVAL_DAY_TO_SECOND
        if (name in ("add", "sub") and datetime_a and interval_b) or (name == "add" and interval_a and datetime_b):
            moment, interval = (ta, interval_b) if datetime_a else (tb, interval_a)
            if moment.name == "date" and interval == (0, 0):  # a DATE plus whole days
                return self.typed(e, name, (a, b), moment, moment), moment
            operand = SqlType("timestamp") if moment.name == "date" else moment
            ca = self.cast(a, ta, operand) if datetime_a else a
            cb = b if datetime_a else self.cast(b, tb, operand)
            return self.typed(e, name, (ca, cb), operand, operand), operand
        if (name == "mul" and ((interval_a and tb.numeric) or (interval_b and ta.numeric))) or \
                (name == "div" and interval_a and tb.numeric):
            number = tb if interval_a else ta
            operator = "interval_multiply" if name == "mul" else "interval_divide"
            return self.typed(e, operator, (a, b), _INTERVAL_DAY_TO_SECOND, number), _INTERVAL_DAY_TO_SECOND
        raise self.refuse(e, [ta, tb], "between rows sparkcep subtracts dates and timestamps, adds or "
                                       "subtracts day-time intervals, multiplies or divides them by numbers, "
                                       "and nothing else over them")

    def datetime_difference(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``datediff(end, start)`` of DATEs (an INT); ``timestampdiff(unit, start, end)`` of two
        TIMESTAMPs or two TIMESTAMP_NTZs, a DATE cast to the other's type (a BIGINT)."""
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        if e.name == "datediff":
            if any(t.name not in ("date", "void") for t in types):
                raise self.refuse(e, types, "DATEs are required (CAST(x AS DATE) inside the navigation)")
            return self.typed(e, "datediff", [x for x, _ in bound], INT), INT
        kinds = {t.name for t in types} - {"void", "date"}
        if not all(t.name in ("date", "timestamp", "timestamp_ntz", "void") for t in types) or len(kinds) > 1:
            raise self.refuse(e, types, "two TIMESTAMPs or two TIMESTAMP_NTZs are required")
        operand = SqlType(kinds.pop() if kinds else "timestamp")
        typed = self.typed(e, "timestampdiff", [self.cast(x, t, operand) for x, t in bound], BIGINT, operand)
        return dataclasses.replace(typed, options=typed.options + e.options), BIGINT

    def date_arithmetic(self, e: p.Operator, left, right) -> tuple[p.Expression, SqlType]:
        """``d + n`` and ``n + d`` are Spark's ``date_add(d, n)``, ``d - n`` its ``date_sub(d, n)``,
        for a DATE d and a TINYINT, SMALLINT or INT n (``d1 - d2`` is ``datetime_arithmetic``'s);
        every other mix is refused."""
        (a, ta), (b, tb) = left, right
        if e.name == "add" and ta.name != "date":
            (a, ta), (b, tb) = (b, tb), (a, ta)
        if ta.name != "date" or tb.name not in _INT_ARGUMENTS or tb.null:
            why = ("Spark reads an untyped NULL here as an interval (DATE + NULL is a TIMESTAMP); "
                   "write CAST(NULL AS INT)" if tb.null
                   else "a DATE and a TINYINT, SMALLINT or INT number of days are required")
            raise self.refuse(e, [ta, tb], why)
        name = "date_add" if e.name == "add" else "date_sub"
        return self.typed(e, name, (a, b), DATE), DATE

    def date_function(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """The date functions of ``sparkcep.evaluation.datetime_functions``, with the operand
        types Spark takes (``DATE_FUNCTIONS``): a TIMESTAMP or TIMESTAMP_NTZ where Spark takes a
        DATE is cast to it (the local date, a TIMESTAMP's in the session time zone), a DATE or
        TIMESTAMP_NTZ where it takes a TIMESTAMP to that; day and month counts must be TINYINT,
        SMALLINT or INT (Spark casts a BIGINT, DECIMAL or STRING to INT, with its own overflow
        and parsing rules: refused here, as is a STRING date)."""
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        wanted = DATE_FUNCTIONS[name]
        if len(bound) != len(wanted):
            raise self.refuse(e, types, f"it takes {len(wanted)} argument{'s' if len(wanted) > 1 else ''}")
        operands = []
        for (x, t), kind in zip(bound, wanted):
            if t.null:
                operands.append(x)
            elif kind == "int" and t.name in _INT_ARGUMENTS:
                operands.append(x)
            elif kind == "int" and t.name == "bigint" and name in _BIGINT_CAST_TO_INT:
                operands.append(self.cast(x, t, INT))  # CAST_OVERFLOW with ANSI on, else wrapped
            elif kind == "string" and t.name == "string":
                operands.append(x)
            elif kind == "date" and t.name in ("date", "timestamp", "timestamp_ntz") or \
                    kind == "timestamp" and t.name in ("date", "timestamp", "timestamp_ntz") or \
                    kind == "date only" and t.name == "date":
                target = DATE if kind != "timestamp" else TIMESTAMP
                operands.append(self.cast(x, t, target))
            else:
                expected = {"int": "TINYINT, SMALLINT or INT", "string": "STRING", "date only": "DATE",
                            "date": "DATE (or TIMESTAMP)", "timestamp": "TIMESTAMP (or DATE)"}[kind]
                raise self.refuse(e, types, f"{name} takes {', '.join(expected_of(k) for k in wanted)} "
                                            f"(not {str(t).upper()} where {expected} is expected)")
        result = DOUBLE if name == "months_between" else INT if name == "unix_date" else DATE
        typed = self.typed(e, name, operands, result)
        return dataclasses.replace(typed, options=typed.options + e.options), result

    def datetime_field(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``sparkcep.evaluation.datetime_fields``, with the operand types Spark takes: a
        TIMESTAMP or TIMESTAMP_NTZ where Spark takes a DATE is cast to its local date; a DATE
        where it takes a time of day is its local midnight (a TIMESTAMP); ``date_trunc`` casts a
        TIMESTAMP_NTZ to a TIMESTAMP, while the seconds since the epoch count a TIMESTAMP_NTZ
        from its own 1970-01-01 00:00; ``unix_seconds`` / ``unix_millis`` / ``unix_micros``
        refuse a DATE, as Spark does. A STRING date or time is refused (Spark parses it;
        CAST it inside the navigation)."""
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        if name in ("date_trunc", "trunc"):
            (x, tx), (unit, tu) = bound[::-1] if name == "date_trunc" else bound
            if tu.name not in ("string", "void"):
                raise self.refuse(e, types, "the unit must be a STRING")
        else:
            (x, tx), = bound
        allowed = ("timestamp", "timestamp_ntz") if name in ("unix_seconds", "unix_millis", "unix_micros") else \
            ("date", "timestamp", "timestamp_ntz")
        if not (tx.null or tx.name in allowed):
            raise self.refuse(e, types, f"{' or '.join(a.upper() for a in allowed)} is required")
        if tx.null:
            tx = DATE if name in DATE_FIELDS or name == "trunc" else TIMESTAMP
        if name in DATE_FIELDS or name == "trunc":
            operand = DATE
        elif name in TIME_FIELDS or name in EPOCH_FUNCTIONS:
            operand = TIMESTAMP if tx.name == "date" else tx
        else:  # date_trunc
            operand = TIMESTAMP
        x = self.cast(x, tx, operand)
        result = {"trunc": DATE, "date_trunc": TIMESTAMP, "second_with_fraction": st.decimal_type(8, 6)}.get(
            name, BIGINT if name in EPOCH_FUNCTIONS else INT)
        operands = (unit, x) if name == "date_trunc" else (x, unit) if name == "trunc" else (x,)
        return self.typed(e, name, operands, result, operand), result

    def not_a_number(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``isnan(x)``: ``coalesce(is_nan(x), FALSE)``; ``nanvl(a, b)``: ``if(is_nan(a), b, a)``
        (NULL when a is). Numbers are cast to DOUBLE, or both kept as FLOATs (Spark's
        ``NaNvl`` of two FLOATs is a FLOAT)."""
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        if any(not (t.numeric or t.null) for t in types):
            raise self.refuse(e, types, "numbers are required")
        floats = all(t.name in ("float", "void") for t in types) and any(t.name == "float" for t in types)
        t = SqlType("float") if floats else DOUBLE
        (a, ta), *rest = bound
        a = self.cast(a, ta, t)
        test = self.typed(e, "is_nan", (a,), BOOLEAN, t)
        if e.name == "isnan":
            return self.typed(e, "coalesce", (test, p.Constant(False, "boolean")), BOOLEAN, BOOLEAN), BOOLEAN
        (b, tb), = rest
        return self.typed(e, "if", (test, self.cast(b, tb, t), a), t), t

    def width_bucket(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``width_bucket(v, min, max, n)``: v, min and max cast to DOUBLE, n to BIGINT (Spark's
        interval forms are refused)."""
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        if any(not (t.numeric or t.null) for t in types[:3]) or not (types[3].integral or types[3].null):
            raise self.refuse(e, types, "three numbers and an integral number of buckets are required")
        operands = [self.cast(x, t, DOUBLE) for x, t in bound[:3]] + [self.cast(bound[3][0], types[3], BIGINT)]
        return self.typed(e, "width_bucket", operands, BIGINT), BIGINT

    def elt(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``elt(n, s1, s2, ...)`` of an INT (or smaller) n and STRINGs: ``CASE WHEN n = 1 THEN s1
        WHEN n = 2 THEN s2 ... ELSE elt_out_of_range(n) END``, which reads only the chosen
        string (as Spark's ``Elt``); Spark casts other inputs to STRING, not reproduced here."""
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        (n, tn), inputs = bound[0], bound[1:]
        if tn.name not in _INT_ARGUMENTS or any(t.name not in ("string", "void") for _, t in inputs):
            raise self.refuse(e, types, "an INT index and STRINGs are required (CAST(x AS STRING))")
        index = self.cast(n, tn, INT)
        out_of_range = self.typed(e, "elt_out_of_range", (index,), STRING, INT)
        flat: list[p.Expression] = [p.Constant(None), dataclasses.replace(
            out_of_range, options=out_of_range.options + (("inputs", len(inputs)),))]
        for k, (x, t) in enumerate(inputs, 1):
            flat += [self.typed(e, "eq", (index, p.Constant(k, "int")), BOOLEAN, INT), self.cast(x, t, STRING)]
        return self.typed(e, "case", flat, STRING), STRING

    def case(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        subject, default, *branches = e.operands
        whens, thens = branches[0::2], branches[1::2]
        bound_thens = [self.bind(o) for o in [default, *thens]]
        t = self.common(e, [b for _, b in bound_thens])
        results = [self.cast(x, tx, t) for x, tx in bound_thens]
        if subject == p.Constant(None):
            tests = [self.boolean(e, w) for w in whens]
        else:  # CASE x WHEN v ...: x = v, x and every v cast to one type
            keys = [self.bind(subject)] + [self.bind(w) for w in whens]
            k = self.comparable(e, [b for _, b in keys])
            x = self.cast(keys[0][0], keys[0][1], k)
            tests = [self.typed(e, "eq", (x, self.cast(w, tw, k)), BOOLEAN, k) for w, tw in keys[1:]]
        flat: list[p.Expression] = [p.Constant(None), results[0]]
        for test, then in zip(tests, results[1:]):
            flat += [test, then]
        return self.typed(e, "case", flat, t), t


_INTERVAL_DAY, _INTERVAL_DAY_TO_SECOND = st.day_time_interval(0, 0), st.day_time_interval(0, 3)
_TINYINT = SqlType("tinyint")


def _temporal(t: SqlType) -> bool:
    """A DATE, a TIMESTAMP[_NTZ] or an interval: its arithmetic is ``datetime_arithmetic``'s."""
    return t.name in st.DATETIME or t.name.startswith("interval")


# the date functions (``sparkcep.evaluation.datetime_functions``) and the kinds of their operands
DATE_FUNCTIONS = {
    "date_add": ("date", "int"), "date_sub": ("date", "int"), "add_months": ("date", "int"),
    "months_between": ("timestamp", "timestamp"), "make_date": ("int", "int", "int"),
    "last_day": ("date",), "next_day": ("date", "string"), "unix_date": ("date only",),
    "date_from_unix_date": ("int",),
}


# the date functions whose INT operands Spark also takes as BIGINTs, cast to INT (date_add and
# date_sub refuse a BIGINT)
_BIGINT_CAST_TO_INT = ("add_months", "make_date", "date_from_unix_date")


def expected_of(kind: str) -> str:
    return {"int": "an INT", "string": "a STRING", "date only": "a DATE", "date": "a DATE",
            "timestamp": "a TIMESTAMP"}[kind]


# the functions Spark computes with Java's StrictMath (``sparkcep.evaluation.strict_math``)
_STRICT_MATH = ("ln", "log", "log10", "log2", "log1p", "exp", "expm1", "power", "cbrt")

_INTEGRAL_BYTES = {"tinyint": 1, "smallint": 2, "int": 4, "bigint": 8}

# the DECIMAL Spark casts a DOUBLE, a FLOAT and NULL to where a DECIMAL is expected
_DOUBLE_DECIMAL = st.decimal_type(30, 15)
_DECIMAL_OF = {"float": st.decimal_type(14, 7), "void": st.decimal_type(38, 18)}


def _exact_cast(source: SqlType, target: SqlType | None) -> bool:
    """Whether ``operators.cast`` computes Spark's CAST from ``source`` to ``target`` exactly."""
    if target is None:
        return False
    if source == target or source.null:
        return True
    if source.integral and target.integral:
        return _INTEGRAL_BYTES[target.name] >= _INTEGRAL_BYTES[source.name]
    if (source.integral or source.decimal) and (target.decimal or target.name == "double"):
        return True
    if target.name == "float":
        return source.name in ("tinyint", "smallint", "int")
    if target.name == "double":
        return source.name == "float"
    return (source.name, target.name) in {("date", "timestamp"), ("date", "timestamp_ntz"),
                                           ("timestamp_ntz", "timestamp")}
