"""Spark's integer division, bitwise operators and shifts, and its ``try_`` arithmetic, over
values that combine rows of a match, as Python evaluates them. Each takes non-NULL operands
already cast to the operand type binding chose (``sparkcep.evaluation.binding`` gives the
types, with Spark's rules):

* ``a div b`` (Spark's IntegralDivide) of BIGINTs: the quotient truncated toward zero, a
  BIGINT. By zero: ``DIVIDE_BY_ZERO`` under ANSI, else NULL. The one quotient a BIGINT cannot
  hold, -2^63 div -1, is ``ARITHMETIC_OVERFLOW`` under ANSI, else -2^63 (the JVM's wrap-around).
* ``a & b``, ``a | b``, ``a ^ b`` and ``~a`` of integral values of one type: two's complement
  bits, which Python's unbounded integers give exactly for values in the type's range.
* ``shiftleft(a, n)`` (``a << n``), ``shiftright(a, n)`` (``a >> n``, the sign copied in) and
  ``shiftrightunsigned(a, n)`` (zeros shifted in) of an INT or a BIGINT: as Java's ``<<``,
  ``>>`` and ``>>>``, whose shift distance is n modulo 32 (INT) or 64 (BIGINT), and whose
  result keeps the low 32 or 64 bits.
* ``bit_count(a)`` of an integral value or a BOOLEAN: the bits set in the value sign-extended
  to 64 bits (``Long.bitCount``: ``bit_count(-1)`` is 64 for every integral type), 1 or 0 for
  TRUE or FALSE; an INT.
* ``getbit(a, pos)`` / ``bit_get(a, pos)``: bit ``pos`` of ``a``'s two's complement, a TINYINT;
  ``pos`` outside ``[0, bits of a's type)`` is Spark's ``INVALID_PARAMETER_VALUE``, ANSI on or off.
* ``try_add``, ``try_subtract``, ``try_multiply``, ``try_divide`` and ``try_mod``: typed as
  ``+ - * / %`` are, evaluated as under ANSI, and NULL where ANSI would raise (overflow,
  division by zero, a DECIMAL out of range), whatever the session's ANSI setting.
"""

from __future__ import annotations

from functools import lru_cache

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation import operators as ops
from sparkcep.evaluation.sql_types import INTEGRAL_BITS, SqlType

_LONG_MIN = -(1 << 63)


def integral_divide(ansi: bool):
    """``a div b`` of two non-NULL BIGINTs."""

    def divide(a: int, b: int) -> int | None:
        if b == 0:
            if ansi:
                raise MatchRuntimeError("DIVIDE_BY_ZERO", "division by zero in a DEFINE or MEASURES expression")
            return None
        if a == _LONG_MIN and b == -1:
            if ansi:
                raise MatchRuntimeError("ARITHMETIC_OVERFLOW",
                                        "'div' overflowed BIGINT in a DEFINE or MEASURES expression")
            return _LONG_MIN
        quotient = abs(a) // abs(b)
        return quotient if (a < 0) == (b < 0) else -quotient

    return divide


BITWISE = {
    "bitwise_and": lambda a, b: a & b,
    "bitwise_or": lambda a, b: a | b,
    "bitwise_xor": lambda a, b: a ^ b,
    "bitwise_not": lambda a: ~a,
}

SHIFTS = ("shiftleft", "shiftright", "shiftrightunsigned")
BITS = ("bit_count", "bit_get")


def bit_count(value: int | bool) -> int:
    return (int(value) & 0xFFFF_FFFF_FFFF_FFFF).bit_count()


@lru_cache(maxsize=None)
def bit_get(operand: SqlType):
    """``getbit(a, pos)`` of an ``operand`` (TINYINT ... BIGINT) value ``a``."""
    bits = INTEGRAL_BITS[operand.name]

    def get(value: int, position: int) -> int:
        if not 0 <= position < bits:
            raise MatchRuntimeError(
                "INVALID_PARAMETER_VALUE",
                f"the value of parameter `pos` in `getbit` is invalid: expects an integer value in [0, {bits}), "
                f"but got {position}")
        return (value >> position) & 1

    return get

# the plan operators try_add ... try_mod, and the arithmetic operator each is typed as
TRY_ARITHMETIC = {"try_add": "add", "try_sub": "sub", "try_mul": "mul", "try_div": "div", "try_mod": "mod"}


@lru_cache(maxsize=None)
def shift(name: str, operand: SqlType):
    """Java's ``<<``, ``>>`` or ``>>>`` (``name``) of an ``operand`` (INT or BIGINT) value."""
    bits = INTEGRAL_BITS[operand.name]
    mask, low = (1 << bits) - 1, 1 << (bits - 1)

    def signed(value: int) -> int:  # the low ``bits`` bits as a two's complement number
        value &= mask
        return value - (1 << bits) if value & low else value

    if name == "shiftleft":
        return lambda a, n: signed(a << (n & (bits - 1)))
    if name == "shiftright":
        return lambda a, n: a >> (n & (bits - 1))
    return lambda a, n: signed((a & mask) >> (n & (bits - 1)))


@lru_cache(maxsize=None)
def try_arithmetic(name: str, operand: SqlType, result: SqlType):
    """``try_add`` ... ``try_mod`` (``name`` add, sub, mul, div or mod): the ANSI operator,
    NULL instead of its error."""
    operator = ops.arithmetic(name, operand, result, True)

    def attempt(a, b):
        try:
            return operator(a, b)
        except MatchRuntimeError:
            return None

    return attempt
