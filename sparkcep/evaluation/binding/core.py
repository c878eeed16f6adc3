"""The binder's core: the leaves (constants, navigations, MATCH_NUMBER(), CLASSIFIER(),
aggregates), the casts it inserts, Spark's common types, CAST/TRY_CAST and CASE, and the typed
errors. The operator dispatch is ``Binder`` (``sparkcep.evaluation.binding``); each function
family's typing is a mixin of its own module over ``BinderBase``."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal
from typing import Sequence

from sparkcep.errors import AnalysisError
from sparkcep.evaluation import explicit_casts
from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.plan import expressions as p

BOOLEAN, INT, BIGINT, DOUBLE, STRING, VOID, BINARY, DATE, TIMESTAMP = (
    SqlType(n) for n in ("boolean", "int", "bigint", "double", "string", "void", "binary", "date", "timestamp"))
SYMBOLS = {"eq": "=", "neq": "<>", "gt": ">", "gte": ">=", "lt": "<", "lte": "<=", "null_safe_eq": "<=>",
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
            "expm1": "expm1", "power": "power", "cbrt": "cbrt",
            **{name: name for name in ("asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "hypot",
                                       "asinh", "acosh", "atanh")}}


# the non-numeric types whose Spark order Python's comparison of their values is: STRING
# (UTF8_BINARY: by code point, as UTF-8 bytes are), BINARY (unsigned bytes), BOOLEAN, dates and
# timestamps
ORDERED = ("string", "binary", "boolean", "date", "timestamp", "timestamp_ntz")


# the types of substring's position and length Python takes as they are (Spark casts a BIGINT
# to INT, with its own overflow rules: refused here)
INT_ARGUMENTS = ("tinyint", "smallint", "int", "void")


@dataclass(frozen=True)
class Semantics:
    """The session settings Spark's semantics depend on (read at registration)."""

    ansi: bool = True
    time_zone: str = "UTC"
    map_key_dedup_policy: str = "EXCEPTION"  # spark.sql.mapKeyDedupPolicy (map(...), map_from_arrays)
    # spark.sql.legacy.followThreeValuedLogicInArrayExists: exists(arr, x -> p) is NULL (true) or
    # FALSE (false) when no p is TRUE and some p is NULL
    exists_three_valued: bool = True
    # the JVM's feature version (java.specification.version: 17, 21, ...), which Double.toString's
    # digits depend on (java_double_text); None when unknown: what depends on it is refused
    java_version: int | None = 17
    # spark.sql.legacy.allowNullComparisonResultInArraySort: a NULL answer of array_sort's
    # comparator is 0 (true) or COMPARATOR_RETURNS_NULL (false)
    null_comparison_allowed: bool = False


class YearMonthInterval(Exception):
    """A year-month interval reached the Python side, which PySpark cannot hand it to (Arrow
    has no conversion for it): refused at the innermost operator over it."""

    def __init__(self, t: SqlType) -> None:
        super().__init__(str(t))
        self.type = t


YEAR_MONTH_REFUSAL = ("PySpark passes no year-month interval to Python (Arrow has no conversion for "
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


class BinderBase:
    """What every family's typing uses: ``bind`` of a subexpression, the casts, the common
    types, the errors."""

    def __init__(self, column_types, semantics: Semantics, source: str,
                 never_null_columns: frozenset = frozenset()) -> None:
        self.column_types = list(column_types)
        # the value columns Spark's analysis knows are never NULL (``never_null``)
        self.never_null_columns = frozenset(never_null_columns)
        self.semantics = semantics
        self.source = source
        self.options = (("ansi", semantics.ansi), ("zone", semantics.time_zone), ("java", semantics.java_version))

    # -- errors ----------------------------------------------------------------------------------

    def refuse(self, operator: p.Operator, types: Sequence[SqlType], why: str = "") -> AnalysisError:
        shown = ", ".join(str(t).upper() for t in types)
        symbol = SYMBOLS.get(operator.name, operator.name.upper())
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
            raise YearMonthInterval(parsed)
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
        if isinstance(e, p.LambdaVariable):  # in a higher-order function's lambda (binding.higher_order)
            return self.lambda_variable(e)
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
            if not (ordering.numeric or ordering.null or ordering.name in ORDERED):
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
        if not exact_spark_cast(source, target) and explicit_casts.supported(source, target):
            return self.converting_cast(e, operand, source, target, options["try"]), target
        if not exact_spark_cast(source, target):
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
        if st.struct_fields(t) is not None and not all(exact_spark_cast(x, t) for x in types):  # structs
            raise self.refuse(e, types, "sparkcep does not widen these fields exactly between rows")
        return t

    def comparable(self, e: p.Operator, types: Sequence[SqlType]) -> SqlType:
        """The common type of values compared (=, <, IN, GREATEST, CASE x WHEN ...): not a MAP
        (Spark refuses to compare maps), and an ARRAY only of the element types
        ``collection_functions`` orders as Spark does."""
        t = self.common(e, types)
        if st.map_types(t) is not None or (st.element_type(t) is not None
                                           and not st.collection_element(st.element_type(t))):
            raise self.refuse(e, types, "maps, and arrays of arrays or maps, are not compared here")
        if st.struct_fields(t) is not None and not st.struct_element(t):  # structs
            raise self.refuse(e, types, "structs of numbers, STRINGs, BOOLEANs, DATEs, TIMESTAMPs and such structs "
                                        "are compared here")
        return t

    def boolean(self, e: p.Operator, operand: p.Expression) -> p.Expression:
        bound, t = self.bind(operand)
        if t.name not in ("boolean", "void"):
            raise self.refuse(e, [t], "a BOOLEAN is required")
        return self.cast(bound, t, BOOLEAN)

    def java_version(self, e: p.Operator, types: Sequence[SqlType]) -> int:
        """The session's Java version, which a DOUBLE's or FLOAT's decimal digits depend on
        (``java_double_text``); ``e`` refused when it is unknown."""
        if self.semantics.java_version is None:
            raise self.refuse(e, types, "Spark prints a DOUBLE or FLOAT here with Java's Double.toString, whose "
                                        "digits depend on the Java version, which sparkcep could not read from "
                                        "the session (apply it inside the navigation)")
        return self.semantics.java_version

    def converting_cast(self, e: p.Operator, x: p.Expression, source: SqlType, target: SqlType,
                        tried: bool = False) -> p.Expression:
        """``x`` cast from ``source`` to ``target`` by ``explicit_casts`` (``TRY_CAST`` when
        ``tried``), which must support the pair."""
        if target.name == "string" and source.name in ("double", "float"):
            self.java_version(e, [source])
        typed = self.typed(e, "converting_cast", (x,), target, source)
        return dataclasses.replace(typed, options=typed.options + (("try", tried),))

    def as_string(self, e: p.Operator, x: p.Expression, t: SqlType, types: Sequence[SqlType]) -> p.Expression:
        """``x`` where Spark expects a STRING (an argument of ``concat``, LIKE, ``lower``, ...):
        Spark casts a value of any other atomic type to STRING implicitly, ANSI on or off
        (``concat(1, 'a')`` is ``'1a'``), as ``CAST(x AS STRING)``; sparkcep does so for the
        types ``explicit_casts`` casts to STRING exactly (integral, DECIMAL, BOOLEAN, DATE,
        TIMESTAMP, TIMESTAMP_NTZ) and refuses the others (``e`` with all its operands'
        ``types``)."""
        if t.name in ("string", "void"):
            return x
        if t.name != "binary" and explicit_casts.supported(t, STRING):
            return self.converting_cast(e, x, t, STRING)
        raise self.refuse(e, types, f"Spark casts {str(t).upper()} to STRING here, which sparkcep does not "
                                    "reproduce between rows (CAST(x AS STRING) inside the navigation)")

    def operator(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """The dispatch over operator names: ``Binder.operator``."""
        raise NotImplementedError

    def one_type(self, e: p.Operator, bound: Sequence[tuple[p.Expression, SqlType]], where: str,
                 compared: bool) -> tuple[SqlType, list[p.Expression]]:
        """The one type of ``bound`` and each operand cast to it: ``StringCoercion.one_type``."""
        raise NotImplementedError

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
        if not exact_spark_cast(inner_source, inner_target):
            raise self.refuse(e, types, f"Spark casts {str(inner_source).upper()} to {str(inner_target).upper()} "
                                        "here, which sparkcep does not reproduce between rows")
        return self.cast(x, source, target)

    def case(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        subject, default, *branches = e.operands
        whens, thens = branches[0::2], branches[1::2]
        t, results = self.one_type(e, [self.bind(o) for o in [default, *thens]], "common", compared=False)
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


_INTEGRAL_BYTES = {"tinyint": 1, "smallint": 2, "int": 4, "bigint": 8}


def exact_spark_cast(source: SqlType, target: SqlType | None) -> bool:
    """Whether ``operators.cast`` computes Spark's CAST from ``source`` to ``target`` exactly."""
    if target is None:
        return False
    if source == target or source.null:
        return True
    if st.struct_fields(source) is not None and st.struct_fields(target) is not None:  # field by field (structs)
        fs, ft = st.struct_fields(source), st.struct_fields(target)
        return len(fs) == len(ft) and st.struct_element(target) and \
            all(exact_spark_cast(a, b) for (_n, a), (_m, b) in zip(fs, ft))
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
