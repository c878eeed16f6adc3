"""Spark's ``factorial`` and ``rint`` over values that combine rows of a match, as Python
evaluates them; each operand is non-NULL (the caller applies Spark's NULL rules). (``positive``
is its operand: binding drops it.)

* ``factorial(n)`` of an INT: n! as a BIGINT for 0 <= n <= 20, NULL otherwise (21! is past
  BIGINT), ANSI on or off.
* ``rint(x)`` of a DOUBLE: Java's ``Math.rint``, the nearest integral DOUBLE, a tie to the even
  one, the sign kept (``rint(-0.4)`` is -0.0); NaN and infinities unchanged.
"""

from __future__ import annotations

import math


def factorial(n: int) -> int | None:
    return math.factorial(n) if 0 <= n <= 20 else None


def rint(x: float) -> float:
    if math.isnan(x) or math.isinf(x):
        return x
    return math.copysign(float(round(x)), x)
