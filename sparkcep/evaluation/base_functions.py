"""Spark's conversions between number bases over values that combine rows of a match, as Python
evaluates them (non-NULL operands; the caller applies Spark's NULL rules):

* ``conv(num, from_base, to_base)``, as Spark's ``NumberConverter``: ``num``'s spaces (U+0020)
  at both ends are trimmed; an optional leading ``-``; then the longest prefix of digits of
  ``from_base`` (``0-9``, ``a-z`` / ``A-Z``) is read as an *unsigned* 64-bit number (no digits:
  0). A value past 2^64 - 1 overflows: ``ARITHMETIC_OVERFLOW`` under ANSI, else 2^64 - 1
  (MySQL's answer). A ``-`` negates the value modulo 2^64 when ``to_base`` is positive (the
  result is the two's complement, read as unsigned: ``conv('-1', 10, 16)`` is
  ``FFFFFFFFFFFFFFFF``), except an overflowed one, which stays 2^64 - 1. A negative
  ``to_base`` prints the value as a *signed* 64-bit number instead (``conv('-1', 10, -16)`` is
  ``-1``, ``conv('FFFFFFFFFFFFFFFF', 16, -10)`` is ``-1``). Digits above 9 are upper case. NULL
  when a base is outside 2 to 36 (by absolute value for ``to_base``) or ``num`` is empty after
  trimming. An integral ``num`` is read as its decimal digits (Spark casts it to STRING).
* ``hex(x)``: a BIGINT as Java's ``Long.toHexString`` (a negative one as its 64-bit two's
  complement), a STRING's UTF-8 bytes or a BINARY's bytes two hex digits each; upper case.
* ``unhex(s)``: the bytes two hex digits each (an odd length: the first digit alone is the
  first byte); NULL when a character is not a hex digit. A BINARY.
* ``bin(x)``: a BIGINT as Java's ``Long.toBinaryString`` (two's complement when negative).
"""

from __future__ import annotations

from functools import lru_cache

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation.sql_types import SqlType

_U64 = (1 << 64) - 1
_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_HEX = frozenset("0123456789abcdefABCDEF")


def _digit(character: str, base: int) -> int:
    """Java's ``Character.digit`` for an ASCII character, -1 for any other or past ``base``."""
    value = _DIGITS.find(character.upper()) if character.isascii() and character.isalnum() else -1
    return value if value < base else -1


def _format(value: int, base: int) -> str:
    """A non-negative ``value`` in ``base``, upper case."""
    if value == 0:
        return "0"
    digits = []
    while value:
        value, remainder = divmod(value, base)
        digits.append(_DIGITS[remainder])
    return "".join(reversed(digits))


@lru_cache(maxsize=None)
def conversion(operand: SqlType, ansi: bool):
    """``conv(num, from_base, to_base)`` of a non-NULL ``num`` of type ``operand`` (a STRING or
    an integral number) and non-NULL bases."""
    as_text = (lambda n: n) if operand.name == "string" else str

    def convert(number, from_base: int, to_base: int) -> str | None:
        if not (2 <= from_base <= 36 and 2 <= abs(to_base) <= 36):
            return None
        text = as_text(number).strip(" ")
        if not text:
            return None
        negative = text.startswith("-")
        value = 0
        for character in text[1:] if negative else text:
            digit = _digit(character, from_base)
            if digit < 0:
                break
            value = value * from_base + digit
            if value > _U64:
                if ansi:
                    raise MatchRuntimeError("ARITHMETIC_OVERFLOW",
                                            "conv overflowed 64 bits in a DEFINE or MEASURES expression")
                value = _U64  # MySQL's answer, -1 as a signed long
                break
        signed = value - (1 << 64) if value >> 63 else value  # the long Spark holds
        if negative and to_base > 0:
            signed = -1 if signed < 0 else -signed
        if to_base < 0 and signed < 0:
            signed, negative = -signed, True
        digits = _format(signed & _U64, abs(to_base))
        return "-" + digits if negative and to_base < 0 else digits

    return convert


def hexadecimal(value) -> str:
    """``hex`` of a BIGINT (an int), a STRING or a BINARY (bytes)."""
    if isinstance(value, int):
        return _format(value & _U64, 16)
    data = value.encode("utf-8") if isinstance(value, str) else bytes(value)
    return data.hex().upper()


def unhexadecimal(value: str) -> bytes | None:
    """``unhex`` of a STRING: its bytes, NULL when a character is not a hex digit."""
    if any(character not in _HEX for character in value):
        return None
    return bytes.fromhex("0" + value if len(value) % 2 else value)


def binary(value: int) -> str:
    """``bin`` of a BIGINT."""
    return format(value & _U64, "b")


# the plan operators of this module (conv, whose function depends on the operand's type and the
# ANSI setting, is built by ``conversion``)
BASE_FUNCTIONS = {"conv": None, "hex": hexadecimal, "unhex": unhexadecimal, "bin": binary}
