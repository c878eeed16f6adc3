"""Spark's string search and edit functions over values that combine rows of a match, as Python
evaluates them: ``contains``, ``startswith``, ``endswith``, ``instr`` / ``locate`` /
``position``, ``trim`` / ``ltrim`` / ``rtrim`` (with or without the characters to remove),
``replace``, ``left``, ``right`` and ``reverse``.

Each takes non-NULL operands (the caller applies Spark's NULL rules) of Spark's default
collation, UTF8_BINARY: strings compare by their code points, and a position or a length
counts characters, that is code points (Python's ``str`` indexes the same way). Where
Spark's ``UTF8String`` treats an empty operand specially, so does this module:

* ``locate(substr, str[, pos])``: 0 when pos < 1 (and, see binding, when pos is NULL); an
  empty substr is found at 1 whatever pos is (``UTF8String.indexOf`` returns 0 for it);
  otherwise the 1-based position of the first occurrence at or after pos, 0 if none.
  ``instr(str, substr)`` and ``position(substr IN str)`` are ``locate`` from 1.
* ``replace(str, search[, replacement])``: str unchanged when search is empty (Python's
  ``str.replace`` would insert the replacement between every two characters).
* ``trim``: without characters it removes the space U+0020 only (not tabs or other white
  space); with them, any of their characters, from both ends, the start (LEADING, ``ltrim``)
  or the end (TRAILING, ``rtrim``).
* ``right(str, n)``: empty when n <= 0, else the last n characters; ``left(str, n)`` is
  ``substring(str, 1, n)``.
"""

from __future__ import annotations

from sparkcep.evaluation.operators import substring


def contains(value: str, search: str) -> bool:
    return search in value


def startswith(value: str, prefix: str) -> bool:
    return value.startswith(prefix)


def endswith(value: str, suffix: str) -> bool:
    return value.endswith(suffix)


def locate(search: str, value: str, position: int = 1) -> int:
    """Spark's ``locate(substr, str, pos)`` of non-NULL operands."""
    if position < 1:
        return 0
    if not search:
        return 1
    return value.find(search, position - 1) + 1


_SIDES = {"both": str.strip, "leading": str.lstrip, "trailing": str.rstrip}


def trim(side: str):
    """``trim`` from ``side`` (both, leading, trailing): a function of the string and,
    optionally, the characters to remove (default: the space)."""
    strip = _SIDES[side]
    return lambda value, characters=" ": strip(value, characters)


def replace(value: str, search: str, replacement: str = "") -> str:
    return value.replace(search, replacement) if search else value


def left(value: str, count: int) -> str:
    return substring(value, 1, count)


def right(value: str, count: int) -> str:
    return "" if count <= 0 else substring(value, -count, count)


def reverse(value: str) -> str:
    return value[::-1]


# the functions of the plan operators of the same name (``trim`` takes its side as an option)
STRING_FUNCTIONS = {
    "contains": contains, "startswith": startswith, "endswith": endswith, "locate": locate,
    "replace": replace, "left": left, "right": right, "reverse": reverse,
}
