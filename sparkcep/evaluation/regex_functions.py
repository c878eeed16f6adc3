"""Spark's regular-expression functions over values that combine rows of a match, as Python
evaluates them: ``regexp_extract``, ``regexp_replace``, ``regexp_count``, ``regexp_substr`` and
``regexp_instr``. (``RLIKE`` / ``REGEXP`` / ``regexp_like`` is ``java_regex.rlike``.)

Each pattern is Java's syntax, translated by ``sparkcep.plan.java_regex`` (which refuses what
it does not reproduce exactly); each operand is non-NULL (the caller applies Spark's NULL
rules). Spark runs ``java.util.regex.Matcher.find`` over the string; so does this module
(``java_matches``): after a non-empty match the next search starts where it ended (an empty
match there is allowed), after an empty match one character further, so a match never starts
at the position of an empty match found just before (Python's ``re.finditer`` and ``re.sub``
would still find a non-empty one there: ``a??`` over ``a``). Java counts that "one
character" in UTF-16 units: after an empty match just before a character outside the Basic
Multilingual Plane it searches between the halves of its surrogate pair (Spark then counts and
replaces inside the pair), which Python cannot: ``UNSUPPORTED_REGEX_PATTERN`` there.

* ``regexp_extract(str, regexp[, idx])`` (idx 1 when omitted): group idx of the first match
  (0: the whole match), empty when nothing matches or the group took part in no match;
  when something matches, idx below 0 or above the pattern's group count is Spark's
  ``INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX`` (``INVALID_REGEX_GROUP_INDEX`` here).
* ``regexp_replace(str, regexp, rep[, position])``: every match at or after the character
  ``position`` (from 1, a literal, checked when compiling) replaced, as Java's
  ``Matcher.appendReplacement`` reads ``rep``: ``\\c`` is the character c, ``$n`` the group n
  (the longest run of digits that names a group, the first digit alone must name one), any
  other ``$`` an error; an error raised only when something matches, as in Java
  (``INVALID_REGEXP_REPLACE``, Spark's class). The search starts at ``position`` as Java's
  ``Matcher.region`` does, with ``^`` and ``\\A`` matching there; ``str`` is returned
  unchanged when ``position`` is past its last character (but an empty ``str`` is searched
  at position 1). Java's ``$`` still reads the character before the position (no ``$``
  between the ``\\r`` and ``\\n`` of a final ``\\r\\n``): a position just between them, with
  a ``$`` in the pattern, is refused (``UNSUPPORTED_REGEX_PATTERN``). ``${name}`` is refused
  (``UNSUPPORTED_REGEX_REPLACEMENT``): named groups are refused in patterns, and Spark 4
  answers an empty string for ``${name}`` where Java's ``appendReplacement`` raises.
* ``regexp_count(str, regexp)``: the number of matches (an empty pattern matches at every
  position, the end included: length + 1).
* ``regexp_substr(str, regexp)``: the first match, NULL when nothing or only the empty string
  matches (Spark's ``nullif(regexp_extract(str, regexp, 0), '')``).
* ``regexp_instr(str, regexp[, idx])``: the 1-based position of the first match (0 when none),
  in characters; idx does not change it (Spark reads it only for its NULL).
* ``regexp_extract_all(str, regexp[, idx])`` (idx 1 when omitted): group idx of every match
  ``Matcher.find`` finds, an empty string for a group that took part in no match; idx is
  checked as ``regexp_extract`` checks it, only when something matches.
* ``split(str, regex[, limit])``: Spark's ``UTF8String.split``. An empty regex splits a
  non-empty str into its characters (code points), at most ``limit`` pieces when ``limit`` is
  positive (the last one the rest of str), no trailing empty piece. Otherwise Java's
  ``String.split(regex, limit)`` with ``limit`` 0 read as -1 (Spark keeps trailing empty
  strings): the pieces between the matches ``Matcher.find`` finds, no empty leading piece for
  an empty match at the start, at most ``limit`` pieces when it is positive (the last one the
  rest of str), str itself when nothing matches.
"""

from __future__ import annotations

import re

from sparkcep.errors import MatchRuntimeError
from sparkcep.plan.java_regex import compile_java_regex, java_replacement

_BMP_END = 0xFFFF


def java_matches(regex: re.Pattern, value: str, pattern: str):
    """The matches ``Matcher.find`` finds one after another in ``value`` (see the module);
    ``pattern``: the Java text of ``regex``, for the message."""
    start = 0
    while start <= len(value):
        found = regex.search(value, start)
        if found is None:
            return
        yield found
        end = found.end()
        if found.start() == end:
            if end < len(value) and ord(value[end]) > _BMP_END:
                raise MatchRuntimeError(
                    "UNSUPPORTED_REGEX_PATTERN",
                    f"the regular expression '{pattern}' matches the empty string just before a "
                    "character outside the Basic Multilingual Plane, where Java's matcher goes on "
                    "between the halves of its UTF-16 surrogate pair; sparkcep does not reproduce that")
            end += 1
        start = end


def regexp_extract(value: str, pattern: str, index: int = 1) -> str:
    regex = compile_java_regex(pattern)
    found = regex.search(value)
    if found is None:
        return ""
    if index < 0 or index > regex.groups:
        raise MatchRuntimeError(
            "INVALID_REGEX_GROUP_INDEX",
            f"regexp_extract's group index is {index}, but the regular expression '{pattern}' "
            f"has groups 0 to {regex.groups} (Spark's INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX)")
    return found.group(index) or ""


def regexp_count(value: str, pattern: str) -> int:
    return sum(1 for _ in java_matches(compile_java_regex(pattern), value, pattern))


def regexp_substr(value: str, pattern: str) -> str | None:
    found = compile_java_regex(pattern).search(value)
    return (found.group(0) or None) if found is not None else None


def regexp_instr(value: str, pattern: str, _index: int | None = None) -> int:
    found = compile_java_regex(pattern).search(value)
    return found.start() + 1 if found is not None else 0


def regexp_replace(value: str, pattern: str, replacement: str, position: int = 1) -> str:
    regex = compile_java_regex(pattern)
    start = position - 1
    if not (start == 0 or start < len(value)):
        return value
    region = value[start:]
    if region == "\n" and start > 0 and value[start - 1] == "\r" and "$" in pattern:
        # Java's $ looks before the region for the \r of a final \r\n; the region alone hides it
        raise MatchRuntimeError(
            "UNSUPPORTED_REGEX_PATTERN",
            f"regexp_replace of '{pattern}' from a position between the \\r and the \\n that end the "
            "string: Java's $ reads the \\r before the position, which sparkcep does not reproduce")
    template = None
    pieces = [value[:start]]
    last = 0
    for found in java_matches(regex, region, pattern):
        if template is None:
            template = java_replacement(replacement, regex.groups)
            if isinstance(template, MatchRuntimeError):
                raise MatchRuntimeError(
                    template.code, f"regexp_replace of '{pattern}' by '{replacement}': {template.message}")
        pieces.append(region[last:found.start()])
        for piece in template:
            if isinstance(piece, int):
                pieces.append(found.group(piece) or "")
            else:
                pieces.append(piece)
        last = found.end()
    pieces.append(region[last:])
    return "".join(pieces)


def regexp_extract_all(value: str, pattern: str, index: int = 1) -> list[str]:
    regex = compile_java_regex(pattern)
    out = []
    for found in java_matches(regex, value, pattern):
        if index < 0 or index > regex.groups:
            raise MatchRuntimeError(
                "INVALID_REGEX_GROUP_INDEX",
                f"regexp_extract_all's group index is {index}, but the regular expression '{pattern}' "
                f"has groups 0 to {regex.groups} (Spark's INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX)")
        out.append(found.group(index) or "")
    return out


def split(value: str, pattern: str, limit: int = -1) -> list[str]:
    if value and not pattern:  # UTF8String.split's own case: the characters
        count = len(value) if limit <= 0 or limit > len(value) else limit
        return list(value[:count - 1]) + [value[count - 1:]]
    # a limit of 0 or less: no limit, trailing empty strings kept (Spark passes 0 on as -1, so
    # Java's removal of trailing empty strings for 0 never happens)
    pieces: list[str] = []
    index = 0
    for found in java_matches(compile_java_regex(pattern), value, pattern):
        if limit > 0 and len(pieces) >= limit - 1:
            break  # Pattern.split: the rest of the string is the last piece
        if index == 0 and found.start() == 0 and found.end() == 0:
            continue  # no empty leading piece for an empty match at the start
        pieces.append(value[index:found.start()])
        index = found.end()
    if index == 0 and not pieces:
        return [value]
    pieces.append(value[index:])
    return pieces


REGEX_FUNCTIONS = {
    "regexp_extract": regexp_extract, "regexp_replace": regexp_replace, "regexp_count": regexp_count,
    "regexp_substr": regexp_substr, "regexp_instr": regexp_instr,
}
