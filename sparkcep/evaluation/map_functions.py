"""Spark's ``str_to_map`` and ``map_concat`` between rows, as Spark 4.3 computes them (checked
against Spark's recorded answers in ``tests/evaluation/corpus.py``). A map is a list of (key,
value) pairs in Spark's order, as PyArrow hands it over; keys are built as
``collection_builders.map_builder`` builds them (``spark.sql.mapKeyDedupPolicy``: a key equal to
an earlier one is ``DUPLICATED_MAP_KEY``, or gives its value to the earlier key, in its place,
under LAST_WIN).

* ``str_to_map(text[, pairDelim[, keyValueDelim]])`` (``,`` and ``:`` by default): ``text``
  split at each match of the regular expression ``pairDelim`` (Java's ``String.split(regex,
  -1)``: trailing empty parts kept, no empty first part for an empty match at the start), each
  part split at the first match of ``keyValueDelim`` into its key and value (NULL when it does
  not match). An empty delimiter splits into characters (Spark's ``UTF8String.split``: no
  trailing empty part, and a part of one character has no value). The delimiters are Java's
  regular expressions (``sparkcep.plan.java_regex``: one it does not reproduce exactly is
  ``UNSUPPORTED_REGEX_PATTERN``, one Java rejects ``INVALID_REGEX_PATTERN``).
* ``map_concat(m1, m2, ...)``: the entries of m1, then m2, ...; NULL when any map is; a -0.0
  key written 0.0.
"""

from __future__ import annotations

from functools import lru_cache

from sparkcep.evaluation.collection_builders import map_builder
from sparkcep.evaluation.regex_functions import java_matches
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.plan.java_regex import compile_java_regex

_STRING = SqlType("string")


@lru_cache(maxsize=256)
def _compiled(pattern: str):
    return compile_java_regex(pattern)


def java_split(value: str, pattern: str, limit: int) -> list[str]:
    """Spark's ``UTF8String.split(pattern, limit)`` (``limit`` -1: no limit)."""
    if value and not pattern:  # Spark's own split into characters
        count = len(value) if limit <= 0 or limit > len(value) else limit
        return list(value[:count - 1]) + [value[count - 1:]]
    parts: list[str] = []
    index = 0
    for found in java_matches(_compiled(pattern), value, pattern):
        if limit > 0 and len(parts) >= limit - 1:
            break
        if index == 0 and found.start() == 0 and found.end() == 0:
            continue  # no empty first part for an empty match at the start (Java 8+)
        parts.append(value[index:found.start()])
        index = found.end()
    if index == 0 and not parts:
        return [value]
    parts.append(value[index:])
    return parts


@lru_cache(maxsize=None)
def str_to_map(last_wins: bool):
    build = map_builder(_STRING, last_wins)

    def to_map(text: str, pair_delimiter: str = ",", key_value_delimiter: str = ":") -> list:
        pairs = []
        for part in java_split(text, pair_delimiter, -1):
            key_value = java_split(part, key_value_delimiter, 2)
            pairs.append((key_value[0], key_value[1] if len(key_value) > 1 else None))
        return build(pairs)

    return to_map


@lru_cache(maxsize=None)
def map_concat(key: SqlType, last_wins: bool):
    """``map_concat`` of maps with keys of type ``key``: a -0.0 key is written 0.0 (Spark's map
    builder normalizes FLOAT and DOUBLE keys as it puts them; measured)."""
    build = map_builder(key, last_wins)
    if key.fractional:
        return lambda *maps: build((0.0 if k == 0 else k, v) for entries in maps for k, v in entries)
    return lambda *maps: build(entry for entries in maps for entry in entries)


MAP_FUNCTIONS = ("str_to_map", "map_concat")
