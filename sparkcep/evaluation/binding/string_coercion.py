"""A STRING mixed with values of another type in a comparison, in arithmetic, in IN and in the
branches of COALESCE / IF / CASE / NVL2: the types Spark 4.3's type coercion casts them to, read
from its analysed plans for every pair (``docs/semantics.md``, "Functions between rows in
DEFINE"), and the casts that get them there (a STRING through its Spark parser, an
implicit cast, so with the session's ANSI setting).

| where | ANSI on | ANSI off |
| --- | --- | --- |
| comparison (``= < <=> ...``, BETWEEN, NULLIF) | integral: BIGINT; FLOAT, DOUBLE, DECIMAL: DOUBLE; DATE, TIMESTAMP[_NTZ], BOOLEAN, BINARY: that type | DECIMAL of a scale above 0: DOUBLE; any other: that type (``'1.5' = i`` reads '1.5' as an INT, 1; ``'Infinity' > d`` of a DECIMAL(38, 0) d is NULL) |
| arithmetic (``+ - * / %``) | integral: BIGINT; FLOAT, DOUBLE, DECIMAL: DOUBLE | numbers: DOUBLE |
| IN, COALESCE, IF, CASE, NVL2 | as a comparison | STRING (BOOLEAN and BINARY: Spark's analysis error) |

Anything else mixed with a STRING (an interval, an array, ``greatest`` / ``least``) stays
refused, as Spark refuses most of it.
"""

from __future__ import annotations

from typing import Sequence

from sparkcep.errors import AnalysisError, MatchRuntimeError
from sparkcep.evaluation import explicit_casts
from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation.binding.core import BIGINT, DOUBLE, STRING, BinderBase, exact_spark_cast
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.plan import expressions as p

_CAST_AS_ITSELF = ("date", "timestamp", "timestamp_ntz", "boolean", "binary")


def string_target(other: SqlType, where: str, ansi: bool) -> SqlType | None:
    """The type a STRING and a value of type ``other`` are both cast to (the table above)."""
    if where == "arithmetic":
        if not other.numeric:
            return None
        return BIGINT if ansi and other.integral else DOUBLE
    if where == "common" and not ansi:
        return None if other.name in ("boolean", "binary") else STRING
    if other.integral:
        return BIGINT if ansi else other
    if other.fractional or other.decimal:
        # without ANSI a DECIMAL of scale 0 is compared as itself (the STRING cast to it), others as DOUBLEs
        return other if not ansi and (other.name in ("float", "double") or other.scale == 0) else DOUBLE
    return other if other.name in _CAST_AS_ITSELF else None


class StringCoercion(BinderBase):
    def string_coercion(self, e: p.Operator, bound: Sequence[tuple[p.Expression, SqlType]],
                        where: str) -> tuple[SqlType, list[p.Expression]] | None:
        """The common type and the cast operands of ``bound`` when it mixes a STRING with another
        type (``where``: "comparison", "arithmetic" or "common"), else None."""
        types = [t for _, t in bound]
        others = [t for t in types if t.name not in ("string", "void")]
        if not others or len(others) == len([t for t in types if not t.null]):
            return None
        other = st.common_type(others, ansi=self.semantics.ansi)
        target = None if other is None else string_target(other, where, self.semantics.ansi)
        if target is None:
            raise self.refuse(e, types, "Spark does not cast a STRING and this type to one type here")
        return target, [self.coerced(e, x, t, target, types) for x, t in bound]

    def one_type(self, e: p.Operator, bound: Sequence[tuple[p.Expression, SqlType]], where: str,
                 compared: bool) -> tuple[SqlType, list[p.Expression]]:
        """The one type of ``bound`` and each operand cast to it: Spark's coercion of a STRING
        with another type (``string_coercion``), else their common type (``compared``: one
        whose values Python compares as Spark does)."""
        coerced = self.string_coercion(e, bound, where)
        if coerced is not None:
            return coerced
        types = [t for _, t in bound]
        t = self.comparable(e, types) if compared else self.common(e, types)
        return t, [self.cast(x, tx, t) for x, tx in bound]

    def coerced(self, e: p.Operator, x: p.Expression, t: SqlType, target: SqlType,
                types: Sequence[SqlType]) -> p.Expression:
        if t.name == "string" and target.name != "string":
            self.check_constant(e, x, target)
            return self.converting_cast(e, x, t, target)
        if target.name == "string":
            return self.as_string(e, x, t, types)
        if not exact_spark_cast(t, target):
            raise self.refuse(e, types, f"Spark casts {str(t).upper()} to {str(target).upper()} here, which "
                                        "sparkcep does not reproduce between rows")
        return self.cast(x, t, target)

    def check_constant(self, e: p.Operator, x: p.Expression, target: SqlType) -> None:
        """A STRING literal Spark casts is cast when Spark folds constants, before any row is
        read: a malformed one fails the statement then (ANSI on), not when it is evaluated."""
        if not (isinstance(x, p.Constant) and isinstance(x.value, str)):
            return
        cast = explicit_casts.explicit_cast(STRING, target, self.semantics.ansi, self.semantics.time_zone)
        try:
            cast(x.value)
        except MatchRuntimeError as error:
            if e.span is not None and self.source:
                raise AnalysisError.at_offset(error.code, error.message, self.source, e.span[0],
                                              max(1, e.span[1] - e.span[0])) from None
            raise AnalysisError(error.code, error.message) from None
