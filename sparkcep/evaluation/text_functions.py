"""Spark's ``soundex``, ``luhn_check``, ``quote`` and ``mask`` over values that combine rows of a match, as
Python evaluates them; each operand is a non-NULL STRING (the caller applies Spark's NULL rules).

* ``soundex(str)``: Spark's ``UTF8String.soundex``, over the UTF-8 bytes: str itself when it is
  empty or does not start with an ASCII letter; else that letter in upper case and the codes
  (``BFPV`` 1, ``CGJKQSXZ`` 2, ``DT`` 3, ``L`` 4, ``MN`` 5, ``R`` 6) of the following letters,
  a code not repeated while only ``H`` and ``W`` come between, vowels (and ``Y``) and any byte
  that is no ASCII letter separating equal codes, up to three codes, padded with ``0``.
* ``luhn_check(str)``: whether str is a non-empty run of decimal digits (Java's
  ``Character.isDigit``: ``٣`` too, each its value) whose Luhn checksum (every second digit
  from the right doubled, its digits summed) is a multiple of 10 (``java_characters`` refuses
  the digits Java's versions tell apart).
* ``mask(str, upper, lower, digit, other)``: each upper-case letter replaced by ``upper``, each
  lower-case letter by ``lower``, each decimal digit by ``digit`` and any other character by
  ``other`` (Java's ``Character.getType``, ``java_characters``), a NULL replacement leaving
  those characters as they are.
* ``quote(str)``: str between single quotes, each single quote escaped by a backslash (a
  backslash is kept as it is).
"""

from __future__ import annotations

import unicodedata

from sparkcep.evaluation.java_characters import DIGIT, LOWER, UPPER, java_class, version_dependent

# A..Z: its soundex code; '0' a vowel (or Y), '7' H and W (skipped without separating codes)
_CODES = "01230127022455012623017202"


def soundex(value: str) -> str:
    data = value.encode("utf-8")
    if not data:
        return value
    first = data[0] - 32 if 0x61 <= data[0] <= 0x7A else data[0]
    if not 0x41 <= first <= 0x5A:
        return value
    out = [chr(first)]
    last = _CODES[first - 0x41]
    for byte in data[1:]:
        letter = byte - 32 if 0x61 <= byte <= 0x7A else byte
        if not 0x41 <= letter <= 0x5A:
            last = "0"
            continue
        code = _CODES[letter - 0x41]
        if code == "7":
            continue
        if code != "0" and code != last:
            out.append(code)
            if len(out) > 3:
                break
        last = code
    return "".join(out).ljust(4, "0")


def luhn_check(value: str) -> bool:
    if not value or any(not version_dependent(c) and java_class(c, "luhn_check") != DIGIT for c in value):
        return False  # a character that is no digit in any Java version (before one that depends on it)
    if any(java_class(c, "luhn_check") != DIGIT for c in value):  # raises for one that depends on it
        return False
    total = 0
    for k, character in enumerate(reversed(value)):
        digit = unicodedata.decimal(character)
        if k % 2:
            digit *= 2
            digit = digit - 9 if digit > 9 else digit
        total += digit
    return total % 10 == 0


def quote(value: str) -> str:
    return "'" + value.replace("'", "\\'") + "'"


def mask(upper: str | None, lower: str | None, digit: str | None, other: str | None):
    """The function of ``mask(str, upper, lower, digit, other)`` with those literals."""
    replacements = {UPPER: upper, LOWER: lower, DIGIT: digit}

    def masked(value: str) -> str:
        out = []
        for character in value:
            replacement = replacements.get(java_class(character, "mask"), other)
            out.append(character if replacement is None else replacement)
        return "".join(out)

    return masked
