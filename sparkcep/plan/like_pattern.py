"""Spark's LIKE patterns as Python regular expressions (``StringUtils.escapeLikeRegex``).

Shared by the compiler, which refuses an invalid literal pattern at its position before any row
is read, and by the evaluator (``sparkcep.evaluation.operators``), which matches with it; like
``java_regex`` for RLIKE, it is part of what a plan's expressions mean, so both stages read it
from here."""

from __future__ import annotations

import re
from functools import lru_cache

from sparkcep.errors import MatchRuntimeError


@lru_cache(maxsize=256)
def like_regex(pattern: str, escape: str = "\\"):
    """Spark's LIKE pattern as a Python regular expression, by Spark's rules
    (``StringUtils.escapeLikeRegex``; the escape character is ``\\`` unless ``ESCAPE`` names
    another): ``_`` one character, ``%`` any characters (newlines too), the escape before ``_``,
    ``%`` or itself that character itself, before anything else or at the end an error; the
    whole value must match."""
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == escape:
            if i + 1 == len(pattern):
                raise MatchRuntimeError("INVALID_LIKE_PATTERN", "the escape character is not "
                                        f"allowed to end the LIKE pattern '{pattern}'")
            following = pattern[i + 1]
            if following not in ("_", "%", escape):
                raise MatchRuntimeError("INVALID_LIKE_PATTERN", "the escape character is not "
                                        f"allowed to precede '{following}' in the LIKE "
                                        f"pattern '{pattern}'")
            out.append(re.escape(following))
            i += 2
            continue
        out.append("." if c == "_" else ".*" if c == "%" else re.escape(c))
        i += 1
    return re.compile("".join(out), re.DOTALL)
