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
* ``substring_index(str, delim, count)``: the part before the count-th ``delim`` (from the
  end when count < 0; occurrences may overlap, as ``UTF8String.subStringIndex`` searches from
  one character further each time); all of str when there are fewer; empty when delim is
  empty or count is 0.
* ``split_part(str, delim, n)``: the n-th part of str split at ``delim`` (from the end when n <
  0), empty past the last; an empty delim leaves str whole; n = 0 is Spark's
  ``INVALID_INDEX_OF_ZERO`` error.
* ``levenshtein(a, b[, threshold])``: the edit distance in characters; -1 when it exceeds the
  threshold (a negative threshold gives -1).
* ``ascii(str)``: the first character's code point, 0 for the empty string; ``chr(n)`` /
  ``char(n)``: the character of code point n mod 256, empty for a negative n;
  ``octet_length`` / ``bit_length``: the UTF-8 length in bytes / bits.
* ``translate(str, from, to)``: each character of str found in ``from`` replaced by the
  character at the same place in ``to``, or removed when ``to`` is shorter; a character
  repeated in ``from`` keeps its first place (as Spark's ``StringTranslate.buildDict``).
* ``lpad(str, len[, pad])`` / ``rpad(str, len[, pad])`` (pad a space by default): str cut to its
  first ``len`` characters when it has at least ``len`` (both keep the *start*: ``lpad('abc',
  2)`` is ``'ab'``), none when ``len`` <= 0; else padded on the left / right to ``len``
  characters with copies of pad, the last one cut short, and unchanged when pad is empty (as
  ``UTF8String.lpad`` / ``rpad``).
* ``repeat(str, n)``: str n times, empty when n <= 0.
* ``lpad``, ``rpad`` and ``repeat`` refuse to build a result of more than
  ``MAX_RESULT_CHARACTERS`` (2^20) characters: ``MATCH_DEPENDENT_VALUE_TOO_LARGE``. Spark would
  build it (up to 2 GiB, or fail allocating it); a condition evaluated per candidate row in the
  Python worker must not grow without bound on one row's count.
* ``regexp_extract``, ``regexp_replace``, ``regexp_count``, ``regexp_substr`` and
  ``regexp_instr`` are ``sparkcep.evaluation.regex_functions`` (Java's regular expressions),
  listed in ``STRING_FUNCTIONS`` with the others, as are ``url_encode``, ``url_decode`` and
  ``try_url_decode`` (``sparkcep.evaluation.url_functions``).
* ``md5``, ``sha1`` / ``sha``, ``sha2(str, bits)`` (224, 256 (also 0), 384 or 512; others give
  NULL) and ``crc32`` of the UTF-8 bytes (Spark casts a STRING to BINARY so): lower-case hex
  STRINGs, and a BIGINT for crc32.
* ``initcap(str)``: str in lower case, then the first character and each one after a space
  U+0020 (not after a tab or a hyphen) in title case, by the full Unicode mappings as Spark 4
  does (``initcap('ǆa ßb x-y')`` is ``'ǅa Ssb X-y'``).
* ``elt(n, str1, str2, ...)``: binding composes it as a CASE over n, whose ELSE is
  ``elt_out_of_range``: NULL, or with ANSI on Spark's ``INVALID_ARRAY_INDEX``.
"""

from __future__ import annotations

import hashlib
import zlib

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation.operators import substring
from sparkcep.evaluation.regex_functions import REGEX_FUNCTIONS
from sparkcep.evaluation.url_functions import URL_FUNCTIONS


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


def substring_index(value: str, delimiter: str, count: int) -> str:
    if not delimiter or count == 0:
        return ""
    if count > 0:
        found = -1
        for _ in range(count):
            found = value.find(delimiter, found + 1)
            if found < 0:
                return value
        return value[:found]
    found = len(value) - len(delimiter) + 1
    for _ in range(-count):
        found = value.rfind(delimiter, 0, found - 1 + len(delimiter)) if found >= 1 else -1
        if found < 0:
            return value
    return value[found + len(delimiter):]


def split_part(value: str, delimiter: str, part: int) -> str:
    if part == 0:
        raise MatchRuntimeError("INVALID_INDEX_OF_ZERO",
                                "split_part's part number is 0 in a DEFINE or MEASURES expression "
                                "(parts are numbered from 1, or from -1 at the end)")
    parts = value.split(delimiter) if delimiter else [value]
    index = part - 1 if part > 0 else len(parts) + part
    return parts[index] if 0 <= index < len(parts) else ""


def levenshtein(a: str, b: str, threshold: int | None = None) -> int:
    if threshold is not None and threshold < 0:
        return -1
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    distance = previous[-1]
    return -1 if threshold is not None and distance > threshold else distance


def translate(value: str, matching: str, replacing: str) -> str:
    table: dict[str, str] = {}
    for k, char in enumerate(matching):
        table.setdefault(char, replacing[k] if k < len(replacing) else "")
    return "".join(table.get(char, char) for char in value)


def find_in_set(value: str, members: str) -> int:
    """``find_in_set(str, strlist)``: the 1-based place of ``str`` among the comma-separated
    members of ``strlist`` (empty members count), 0 when it is none of them, as when it holds a
    comma itself (``UTF8String.findInSet``)."""
    for place, member in enumerate(members.split(","), 1):
        if member == value:
            return place
    return 0


def initcap(value: str) -> str:
    """Spark's ``initcap`` of a STRING (UTF8_BINARY)."""
    lowered = value.lower()
    return "".join(char.title() if k == 0 or lowered[k - 1] == " " else char for k, char in enumerate(lowered))


def elt_out_of_range(ansi: bool, inputs: int):
    """The value of ``elt(n, ...)`` with ``inputs`` strings when n is none of 1 .. inputs."""

    def out_of_range(index: int) -> None:
        if ansi:
            raise MatchRuntimeError(
                "INVALID_ARRAY_INDEX",
                f"The index {index} is out of bounds. The array has {inputs} elements. Use the SQL function "
                "get() to tolerate accessing element at invalid index and return NULL instead.")
        return None

    return out_of_range


def ascii_code(value: str) -> int:
    return ord(value[0]) if value else 0


def character(code: int) -> str:
    return "" if code < 0 else chr(code & 0xFF)


def octet_length(value: str) -> int:
    return len(value.encode("utf-8"))


def bit_length(value: str) -> int:
    return 8 * len(value.encode("utf-8"))


MAX_RESULT_CHARACTERS = 1 << 20


def _budget(function: str, characters: int) -> None:
    if characters > MAX_RESULT_CHARACTERS:
        raise MatchRuntimeError(
            "MATCH_DEPENDENT_VALUE_TOO_LARGE",
            f"{function} would build a string of {characters:,} characters in a DEFINE or MEASURES "
            f"expression; sparkcep evaluates at most {MAX_RESULT_CHARACTERS:,} characters here (apply "
            f"it inside the navigation, where Spark computes it, or bound the length)")


def _pad(function: str, left: bool):
    def pad(value: str, length: int, padding: str = " ") -> str:
        missing = length - len(value)
        if missing <= 0 or not padding:
            return value[:max(length, 0)]
        _budget(function, length)
        copies, rest = divmod(missing, len(padding))
        fill = padding * copies + padding[:rest]
        return fill + value if left else value + fill

    return pad


lpad = _pad("lpad", left=True)
rpad = _pad("rpad", left=False)


def repeat(value: str, times: int) -> str:
    if times <= 0 or not value:
        return ""
    _budget("repeat", len(value) * times)
    return value * times


def md5(value: str) -> str:
    return hashlib.md5(value.encode("utf-8")).hexdigest()


def sha1(value: str) -> str:
    return hashlib.sha1(value.encode("utf-8")).hexdigest()


_SHA2 = {0: hashlib.sha256, 224: hashlib.sha224, 256: hashlib.sha256, 384: hashlib.sha384, 512: hashlib.sha512}


def sha2(value: str, bits: int) -> str | None:
    digest = _SHA2.get(bits)
    return None if digest is None else digest(value.encode("utf-8")).hexdigest()


def crc32(value: str) -> int:
    return zlib.crc32(value.encode("utf-8"))


# the functions of the plan operators of the same name (``trim`` takes its side as an option)
STRING_FUNCTIONS = {
    "contains": contains, "startswith": startswith, "endswith": endswith, "locate": locate,
    "replace": replace, "left": left, "right": right, "reverse": reverse,
    "substring_index": substring_index, "translate": translate, "split_part": split_part, "levenshtein": levenshtein,
    "find_in_set": find_in_set, "ascii": ascii_code, "chr": character, "octet_length": octet_length, "bit_length": bit_length,
    "md5": md5, "sha1": sha1, "sha2": sha2, "crc32": crc32, "lpad": lpad, "rpad": rpad, "repeat": repeat,
    "initcap": initcap,
    **REGEX_FUNCTIONS,  # regexp_extract, regexp_replace, regexp_count, regexp_substr, regexp_instr
    **URL_FUNCTIONS,  # url_encode, url_decode, try_url_decode
}
