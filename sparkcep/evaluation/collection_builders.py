"""Spark's functions that build arrays and maps, between rows, over the values PyArrow makes of
Spark's arrays (Python lists, NULL elements as None) and maps (lists of (key, value) tuples, in
Spark's order), as Spark 4.3 computes them (checked against Spark's recorded answers, ANSI on
and off, in ``tests/evaluation/corpus.py``). The binding
(``sparkcep.evaluation.binding.collection_builders``) cast the operands to one element type as
Spark casts them. Equality of elements and keys is Spark's ordering's
(``collection_functions.element_key``: NaN equals NaN, -0.0 equals 0.0, TIMESTAMPs at the same
instant are equal).

* ``array_union(a, b)``, ``array_intersect(a, b)``, ``array_except(a, b)``: the distinct
  elements of a then b / of a found in b / of a not in b, each the first of its equal ones, in
  the order of their first occurrence; one NULL when a (and, for ``array_intersect``, b; for
  ``array_except``, not b) has one; -0.0 written 0.0 (Spark's hash set normalizes it).
  ``array_remove(arr, v)``: arr without the elements equal to v, NULLs kept.
* ``array_compact(arr)``: arr without its NULLs. ``reverse(arr)``. ``concat(a, b, ...)`` of
  arrays and ``flatten(arr)`` of an array of arrays: NULL when an operand (an inner array) is.
* ``sort_array(arr[, asc])``: a stable sort in Spark's order (NaN above every number, -0.0
  equal to 0.0), NULL elements first ascending, last descending; ``array_sort(arr)``: ascending,
  NULLs last.
* ``array_append(arr, v)``, ``array_prepend(arr, v)``: v may be NULL (the result is NULL only
  for a NULL arr). ``array_insert(arr, pos, v)``: pos 1-based, or from the end when negative
  (-1 after the last element); past either end the gap is filled with NULLs; pos = 0 is
  ``INVALID_INDEX_OF_ZERO``. ``array_repeat(v, n)``: n copies of v (none for n <= 0; NULL only
  for a NULL n). Results past Spark's array size limit (2,147,483,632 elements) are Spark's
  ``COLLECTION_SIZE_LIMIT_EXCEEDED``; past ``MAX_RESULT_ELEMENTS`` sparkcep's
  ``MATCH_DEPENDENT_VALUE_TOO_LARGE`` (Spark would build them).
* ``map_keys(m)``, ``map_values(m)``. ``map(k1, v1, ...)`` and ``map_from_arrays(keys,
  values)``: the entries in order (a -0.0 key stays -0.0); a NULL key is ``NULL_MAP_KEY``; a
  key equal to an earlier one (0.0 and -0.0, NaN and NaN) is ``DUPLICATED_MAP_KEY``
  (``spark.sql.mapKeyDedupPolicy`` EXCEPTION, Spark's default), or its value replaces the
  earlier one's at the earlier key's place (LAST_WIN); arrays of different lengths are
  ``MAP_KEY_VALUE_LENGTH_MISMATCH`` (Spark's error has no class).
* ``get(arr, i)``: ``arr[i]`` without ANSI (``collection_functions.subscript``); a BIGINT i is
  cast to INT first (the binding: ``CAST_OVERFLOW`` with ANSI on, the low 32 bits without).
* ``sequence(start, stop[, step])`` of integral numbers: from start towards stop by step
  (default 1 or -1), stop included when reached; start = stop gives [start] whatever the step;
  a step of the wrong sign (or 0) is ``ILLEGAL_SEQUENCE_BOUNDARIES`` (Spark's
  ``requirement failed: Illegal sequence boundaries``, without a class). Of DATEs, by a whole
  number of days (default one); a step of 0 days is an error even when start = stop (Spark's
  ``sequence step must be an interval day to second of day granularity``, without a class).
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation import explicit_casts
from sparkcep.evaluation.collection_functions import element_key
from sparkcep.evaluation.sql_types import SqlType

# Spark's ByteArrayMethods.MAX_ROUNDED_ARRAY_LENGTH: no array holds more elements
SPARK_MAX_ELEMENTS = 2_147_483_632
# the most elements sparkcep's Python side builds in one value (as MAX_RESULT_CHARACTERS for strings)
MAX_RESULT_ELEMENTS = 1 << 20


def _spark_limit(function: str, elements: int, parameter: str | None) -> None:
    if elements > SPARK_MAX_ELEMENTS:
        what = (f"the value of parameter(s) `{parameter}` in the function `{function}` is invalid" if parameter
                else f"unsuccessful try to create arrays in the function `{function}`")
        raise MatchRuntimeError(
            "COLLECTION_SIZE_LIMIT_EXCEEDED",
            f"Can't create array with {elements} elements which exceeding the array size limit "
            f"{SPARK_MAX_ELEMENTS}, {what}")


def budget(function: str, elements: int, parameter: str | None = None) -> None:
    """Spark's array size limit, then sparkcep's (``MAX_RESULT_ELEMENTS``)."""
    _spark_limit(function, elements, parameter)
    if elements > MAX_RESULT_ELEMENTS:
        raise MatchRuntimeError(
            "MATCH_DEPENDENT_VALUE_TOO_LARGE",
            f"{function} would build an array of {elements:,} elements in a DEFINE or MEASURES expression; "
            f"sparkcep evaluates at most {MAX_RESULT_ELEMENTS:,} elements here (apply it inside the navigation, "
            "where Spark computes it, or bound the count)")


def _normalizer(t: SqlType):
    """-0.0 written 0.0 (NaN is NaN), as Spark's hash sets and map keys hold them."""
    if t.fractional:
        return lambda value: 0.0 if value == 0 else value
    if t.name.startswith("struct<"):  # a struct's fields (structs)
        from sparkcep.evaluation.collection_functions import zero_normalizer

        return zero_normalizer(t)
    return lambda value: value


@lru_cache(maxsize=None)
def array_set_operation(name: str, t: SqlType):
    """``array_union`` / ``array_intersect`` / ``array_except`` of arrays of element type ``t``."""
    key, normal = element_key(t), _normalizer(t)

    def distinct(values, keep) -> list:
        seen: set = set()
        out = []
        for e in values:
            k = None if e is None else (1, key(e))
            if k not in seen and keep(k):
                seen.add(k)
                out.append(None if e is None else normal(e))
        return out

    def keys_of(values) -> set:
        return {None if e is None else (1, key(e)) for e in values}

    if name == "array_union":
        return lambda a, b: distinct(a + b, lambda k: True)
    if name == "array_intersect":
        return lambda a, b: distinct(a, keys_of(b).__contains__)

    def difference(a: list, b: list) -> list:
        other = keys_of(b)
        return distinct(a, lambda k: k not in other)

    return difference


@lru_cache(maxsize=None)
def array_remove(t: SqlType):
    key = element_key(t)

    def remove(array: list, value) -> list:
        wanted = key(value)
        return [e for e in array if e is None or key(e) != wanted]

    return remove


def array_compact(array: list) -> list:
    return [e for e in array if e is not None]


def reverse(array: list) -> list:
    return array[::-1]


def concat(*arrays: list) -> list:
    out: list = []
    for array in arrays:
        out += array
    return out


def flatten(arrays: list) -> list | None:
    if any(inner is None for inner in arrays):
        return None
    return concat(*arrays)


@lru_cache(maxsize=None)
def sort_array(t: SqlType, ascending: bool, nulls_first: bool):
    """A stable sort in Spark's order of ``t`` (``sort_array``: NULLs first ascending, last
    descending; ``array_sort``: ascending, NULLs last)."""
    key = element_key(t)

    def sort(array: list) -> list:
        present = sorted((e for e in array if e is not None), key=key, reverse=not ascending)
        nulls = [None] * (len(array) - len(present))
        return nulls + present if nulls_first else present + nulls

    return sort


def array_append(array, value):
    """``array_append(arr, v)``: NULL only for a NULL arr."""
    return None if array is None else array + [value]


def array_prepend(array, value):
    return None if array is None else [value] + array


def array_insert(array, position, value):
    """``array_insert(arr, pos, v)``: NULL for a NULL arr or pos."""
    if array is None or position is None:
        return None
    if position == 0:
        raise MatchRuntimeError("INVALID_INDEX_OF_ZERO",
                                "The index 0 is invalid. An index shall be either < 0 or > 0 (the first element "
                                "has index 1)")
    size = len(array)
    index = position - 1 if position > 0 else size + position + 1
    if index > size:  # past the end: NULLs up to the new element
        budget("array_insert", index + 1)
        return array + [None] * (index - size) + [value]
    if index < 0:  # before the start: the new element, then NULLs up to the array
        budget("array_insert", size + 1 - index)
        return [value] + [None] * (-index) + array
    budget("array_insert", size + 1)
    return array[:index] + [value] + array[index:]


def array_repeat(value, count):
    """``array_repeat(v, n)``: NULL only for a NULL n."""
    if count is None:
        return None
    if count <= 0:
        return []
    budget("array_repeat", count, "count")
    return [value] * count


def map_keys(entries: list) -> list:
    return [k for k, _v in entries]


def map_values(entries: list) -> list:
    return [v for _k, v in entries]


def _null_map_key() -> MatchRuntimeError:
    return MatchRuntimeError("NULL_MAP_KEY", "Cannot use null as map key")


@lru_cache(maxsize=None)
def map_builder(t: SqlType, last_wins: bool):
    """The entries of a map of keys of type ``t`` from (key, value) pairs, in order
    (``spark.sql.mapKeyDedupPolicy``: EXCEPTION, or LAST_WIN when ``last_wins``)."""
    key = element_key(t)

    def build(pairs) -> list:
        places: dict = {}
        entries: list = []
        for k, v in pairs:
            if k is None:
                raise _null_map_key()
            found = places.get(key(k))
            if found is None:
                places[key(k)] = len(entries)
                entries.append((k, v))
            elif last_wins:
                entries[found] = (entries[found][0], v)
            else:
                raise MatchRuntimeError("DUPLICATED_MAP_KEY",
                                        f"Duplicate map key {k} was found, please check the input data")
        return entries

    return build


@lru_cache(maxsize=None)
def create_map(t: SqlType, last_wins: bool):
    """``map(k1, v1, k2, v2, ...)``: never NULL (NULL values kept, a NULL key an error)."""
    build = map_builder(t, last_wins)
    return lambda *operands: build(zip(operands[0::2], operands[1::2]))


@lru_cache(maxsize=None)
def map_from_arrays(t: SqlType, last_wins: bool):
    build = map_builder(t, last_wins)

    def from_arrays(keys: list, values: list) -> list:
        if len(keys) != len(values):
            raise MatchRuntimeError("MAP_KEY_VALUE_LENGTH_MISMATCH",
                                    "The key array and value array of MapData must have the same length")
        return build(zip(keys, values))

    return from_arrays


def _illegal_boundaries(start, stop, step) -> MatchRuntimeError:
    return MatchRuntimeError("ILLEGAL_SEQUENCE_BOUNDARIES",
                             f"requirement failed: Illegal sequence boundaries: {start} to {stop} by {step}")


def sequence(start: int, stop: int, step: int | None = None) -> list:
    """``sequence`` of integral numbers (exact: no element lies outside [start, stop])."""
    if step is None:
        step = 1 if start <= stop else -1
    if start == stop:
        return [start]
    if not (step > 0 and start <= stop or step < 0 and start >= stop):
        raise _illegal_boundaries(start, stop, step)
    count = (stop - start) // step + 1
    budget("sequence", count, "count")
    return list(range(start, stop + (1 if step > 0 else -1), step))


def date_sequence(start: dt.date, stop: dt.date, step: dt.timedelta | None = None) -> list:
    """``sequence`` of DATEs by whole days (the binding admits only INTERVAL DAY steps)."""
    days = None if step is None else step.days
    if days == 0:  # Spark checks a DATE sequence's step before its bounds (start = stop too)
        raise MatchRuntimeError("ILLEGAL_SEQUENCE_BOUNDARIES",
                                "sequence step must be an interval day to second of day granularity if start and "
                                "end values are dates")
    first, last = start.toordinal(), stop.toordinal()
    return [dt.date.fromordinal(d) for d in sequence(first, last, days)]


@lru_cache(maxsize=None)
def elements_cast(source: SqlType, target: SqlType, ansi: bool, zone: str, java_version: int = 17):
    """An array's elements cast one by one (``explicit_casts``: Spark's implicit cast of an
    ARRAY<T> where an ARRAY<STRING> is expected, as ``array_join`` casts it; a DOUBLE's digits
    those of the JVM of ``java_version``)."""
    each = explicit_casts.explicit_cast(source, target, ansi, zone, java_version=java_version)
    return lambda array: [None if e is None else each(e) for e in array]


# the plan operators of this module whose result is NULL when an operand is
STRICT_BUILDERS = ("array_union", "array_intersect", "array_except", "array_remove", "array_compact",
                   "reverse_array", "concat_arrays", "flatten", "sort_array", "array_sort", "map_keys",
                   "map_values", "map_from_arrays", "get", "sequence", "elements_cast")
# those that take NULL operands themselves (``array_append(arr, NULL)`` is not NULL)
NOT_STRICT_BUILDERS = ("array_append", "array_prepend", "array_insert", "array_repeat", "create_map")
COLLECTION_BUILDERS = (*STRICT_BUILDERS, *NOT_STRICT_BUILDERS)
