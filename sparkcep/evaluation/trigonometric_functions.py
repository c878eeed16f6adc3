"""Spark's inverse trigonometric and hyperbolic functions and ``hypot`` over DOUBLE values that
combine rows of a match, as Python evaluates them: ``asin``, ``acos``, ``atan``, ``atan2``,
``sinh``, ``cosh``, ``tanh``, ``hypot``, ``asinh``, ``acosh`` and ``atanh``.

Spark casts the arguments to DOUBLE (binding does) and computes, for non-NULL values (NULL in,
NULL out; no error, ANSI on or off):

* ``asin``, ``acos``, ``atan``, ``sinh``, ``cosh``, ``tanh`` and ``hypot``: ``java.lang.Math``'s,
  which are ``StrictMath``'s on Java 17 (``sparkcep.evaluation.strict_trig``, bit for bit).
* ``atan2(y, x)``: ``Math.atan2(y + 0.0, x + 0.0)``: adding 0.0 turns -0.0 into 0.0, so
  ``atan2(-0.0, -1)`` is pi, not -pi, and ``atan2(-0.0, -0.0)`` is 0.0.
* ``asinh`` and ``acosh``: Spark's own formulas over ``StrictMath.log``, ``StrictMath.log1p``
  and ``Math.sqrt`` (Spark 4's ``ExpressionImplUtils``, which avoid the overflow of x*x):
  ``asinh(x)`` is |x| below 2**-28, ``log(|x|) + log(2)`` above 2**28, ``log(2|x| + 1 /
  (sqrt(x*x + 1) + |x|))`` above 2, else ``log1p(|x| + x*x / (1 + sqrt(1 + x*x)))``, with x's
  sign (±Infinity and NaN stay); ``acosh(x)`` is NaN below 1, ``log(x) + log(2)`` from 2**28,
  0 at 1, ``log(2x - 1 / (x + sqrt(x*x - 1)))`` above 2, else ``log1p(t + sqrt(2t + t*t))``
  with t = x - 1.
* ``atanh(x)``: ``0.5 * (StrictMath.log1p(x) - StrictMath.log1p(-x))``: NaN outside [-1, 1],
  ±Infinity at ±1.

``sin``, ``cos``, ``tan``, ``cot``, ``sec`` and ``csc`` are not here: Spark computes them with
``Math.sin``, ``cos`` and ``tan``, HotSpot intrinsics whose results are not fdlibm's.
"""

from __future__ import annotations

import math

from sparkcep.evaluation import strict_math, strict_trig

_TWO_M28 = 2.0 ** -28
_TWO_P28 = 2.0 ** 28
_LN_2 = strict_math.log(2.0)


def arc_tangent_2(y: float, x: float) -> float:
    """``atan2(y, x)``: ``Math.atan2(y + 0.0, x + 0.0)`` (no negative zero reaches it)."""
    return strict_trig.atan2(y + 0.0, x + 0.0)


def _square_root(value: float) -> float:
    """Java's ``Math.sqrt``: NaN for a negative value (Python's raises)."""
    return math.nan if value < 0 else math.sqrt(value)


def inverse_hyperbolic_sine(x: float) -> float:
    """``asinh(x)`` as Spark 4 computes it (``ExpressionImplUtils.asinh``)."""
    a = abs(x)
    if math.isinf(a) or a != a or a < _TWO_M28:
        r = a
    elif a > _TWO_P28:
        r = strict_math.log(a) + _LN_2
    elif a > 2.0:
        r = strict_math.log(2.0 * a + 1.0 / (_square_root(x * x + 1.0) + a))
    else:
        t = x * x
        r = strict_math.log1p(a + t / (1.0 + _square_root(1.0 + t)))
    return math.copysign(r, x)


def inverse_hyperbolic_cosine(x: float) -> float:
    """``acosh(x)`` as Spark 4 computes it (``ExpressionImplUtils.acosh``)."""
    if x < 1.0:
        return math.nan
    if x >= _TWO_P28:
        return strict_math.log(x) + _LN_2
    if x == 1.0:
        return 0.0
    if x > 2.0:
        return strict_math.log(2.0 * x - 1.0 / (x + _square_root(x * x - 1.0)))
    t = x - 1.0  # NaN too
    return strict_math.log1p(t + _square_root(2.0 * t + t * t))


def inverse_hyperbolic_tangent(x: float) -> float:
    """``atanh(x)``: ``0.5 * (StrictMath.log1p(x) - StrictMath.log1p(-x))``."""
    return 0.5 * (strict_math.log1p(x) - strict_math.log1p(-x))


# the plan operator -> its function of non-NULL DOUBLEs
TRIGONOMETRIC = {
    "asin": strict_trig.asin, "acos": strict_trig.acos, "atan": strict_trig.atan, "atan2": arc_tangent_2,
    "sinh": strict_trig.sinh, "cosh": strict_trig.cosh, "tanh": strict_trig.tanh, "hypot": strict_trig.hypot,
    "asinh": inverse_hyperbolic_sine, "acosh": inverse_hyperbolic_cosine, "atanh": inverse_hyperbolic_tangent,
}
