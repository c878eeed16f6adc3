"""Typing of the numeric functions: rounding, ``floor``/``ceil``, ``sqrt`` and Java's StrictMath
functions, ``sign``, ``pmod``, ``format_number``, integral and bitwise functions, the ``try_``
arithmetic, bases (``conv``, ``hex``, ``unhex``, ``bin``), ``isnan``/``nanvl`` and
``width_bucket``, as Spark types them."""

from __future__ import annotations

import dataclasses

from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation.binding.core import BIGINT, BINARY, BOOLEAN, DOUBLE, INT, INT_ARGUMENTS, STRING, BinderBase
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.evaluation.integral_functions import BITS, BITWISE, SHIFTS, TRY_ARITHMETIC
from sparkcep.evaluation.trigonometric_functions import TRIGONOMETRIC
from sparkcep.plan import expressions as p

INTEGRAL_FUNCTIONS = ("intdiv", *BITWISE, *SHIFTS, *BITS)

# the functions Spark computes with Java's StrictMath (``sparkcep.evaluation.strict_math``,
# ``trigonometric_functions``): DOUBLEs of arguments cast to DOUBLE
STRICT_MATH = ("ln", "log", "log10", "log2", "log1p", "exp", "expm1", "power", "cbrt", *TRIGONOMETRIC)

# the DECIMAL Spark casts a DOUBLE, a FLOAT and NULL to where a DECIMAL is expected
_DOUBLE_DECIMAL = st.decimal_type(30, 15)
_DECIMAL_OF = {"float": st.decimal_type(14, 7), "void": st.decimal_type(38, 18)}

_TINYINT = SqlType("tinyint")


class NumberBinding(BinderBase):
    def numeric_function(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """The numeric scalar functions of ``sparkcep.evaluation.functions`` and
        ``strict_math``, typed as Spark types them."""
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        if name in ("round", "bround"):  # Spark's RoundBase: the scale is an option (a literal)
            (a, t), = bound
            if not (t.numeric or t.null):
                raise self.refuse(e, types, "a number is required")
            argument = DOUBLE if t.null else t  # NULL is cast to DOUBLE
            if argument.fractional:  # rounded through Double.toString's decimal
                self.java_version(e, types)
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
            if t.fractional:  # cast through Double.toString's decimal
                self.java_version(e, types)
            result = st.rounded_type(argument, dict(e.options)["scale"])
            typed = self.typed(e, name, (self.cast(a, t, argument),), result, argument)
            return dataclasses.replace(typed, options=typed.options + e.options), result
        if name in ("sqrt", "degrees", "radians") or name in STRICT_MATH:  # Math / StrictMath of DOUBLEs
            if not all(t.numeric or t.null or t.name == "string" for t in types):
                raise self.refuse(e, types, "a number is required")
            cast = [self.to_double(e, a, t) for a, t in bound]
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
            if not (t.numeric or t.null or t.name == "string"):
                raise self.refuse(e, types, "a number is required")
            return self.typed(e, name, (self.to_double(e, a, t),), DOUBLE, DOUBLE), DOUBLE
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

    def to_double(self, e: p.Operator, x: p.Expression, t: SqlType) -> p.Expression:
        """An argument of a function of DOUBLEs (Spark's ``ImplicitCastInputTypes``): a number is
        widened; a STRING is cast as ``CAST(x AS DOUBLE)`` is in the session's ANSI mode
        (Java's number grammar; a malformed one NULL, or CAST_INVALID_INPUT with ANSI on)."""
        if t.name == "string":
            return self.converting_cast(e, x, t, DOUBLE)
        return self.cast(x, t, DOUBLE)

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
            if not (t.name in ("string", "void") or t.integral) or any(b.name not in INT_ARGUMENTS for b in types[1:]):
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
            if tn.name not in INT_ARGUMENTS:
                raise self.refuse(e, types, "the bit position must be an INT")
            operand = INT if ta.null else ta
            return self.typed(e, name, (self.cast(a, ta, operand), n), _TINYINT, operand), _TINYINT
        if name == "intdiv":  # Spark's IntegralDivide: both operands cast to BIGINT
            return self.typed(e, name, [self.cast(x, t, BIGINT) for x, t in bound], BIGINT, BIGINT), BIGINT
        if name in SHIFTS:  # an INT or a BIGINT (smaller types widen to INT), shifted by an INT
            (a, ta), (n, tn) = bound
            if tn.name not in INT_ARGUMENTS:
                raise self.refuse(e, types, "the shift distance must be an INT")
            operand = BIGINT if ta.name == "bigint" else INT
            return self.typed(e, name, (self.cast(a, ta, operand), self.cast(n, tn, INT)), operand, operand), operand
        t = self.common(e, types)  # & | ^ ~ in the operands' common type
        if t.null:
            t = INT
        return self.typed(e, name, [self.cast(x, tx, t) for x, tx in bound], t, t), t

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

