"""Spark's array and map functions between rows, over the values PyArrow makes of Spark's
arrays (Python lists, NULL elements as None) and maps (lists of (key, value) tuples, in Spark's
order), as Spark 4.3 computes them (checked against Spark's recorded answers, ANSI on and off,
in ``tests/evaluation/corpus.py``). The operands were cast to one element type by the binding
(``sparkcep.evaluation.binding``), as Spark casts them:

* ``array_contains(arr, v)``: TRUE when an element equals v; otherwise NULL when an element is
  NULL, else FALSE. ``array_position(arr, v)``: the 1-based place of the first element equal to
  v, 0 when none is (NULL elements are skipped), a BIGINT. ``arrays_overlap(a, b)``: TRUE when a
  non-NULL element of one equals one of the other; otherwise NULL when both are non-empty and
  either has a NULL element, else FALSE. ``map_contains_key(m, k)``: whether a key equals k.
  Equality is Spark's ordering's (``SQLOrderingUtil``): NaN equals NaN, -0.0 equals 0.0, two
  TIMESTAMPs are equal at the same instant.
* ``element_at(arr, i)``: 1-based, a negative i counting from the end; i = 0 is
  ``INVALID_INDEX_OF_ZERO`` (ANSI on or off, ``try_element_at`` too); past either end
  ``INVALID_ARRAY_INDEX_IN_ELEMENT_AT`` with ANSI on, NULL without (``try_element_at``: NULL).
  ``arr[i]``: 0-based, an index of any integral type taken as Java's ``Number.intValue`` (the
  low 32 bits); outside [0, size) ``INVALID_ARRAY_INDEX`` with ANSI on, NULL without.
  ``element_at(m, k)``, ``try_element_at(m, k)`` and ``m[k]``: the value of the first key equal
  to k, NULL when there is none (ANSI on or off).
* ``size(x)`` / ``cardinality(x)`` of an array or a map: its number of elements (entries), an
  INT; of NULL, NULL with ANSI on and -1 without (Spark's ``legacySizeOfNull``, which ANSI turns
  off): the binding writes that as ``IF(x IS NULL, -1, size(x))``.
* ``array_distinct(arr)``: the first of each set of equal elements, in order (one NULL if any);
  -0.0 is written 0.0. ``array_max(arr)`` / ``array_min(arr)``: the greatest / least non-NULL
  element in Spark's order (NaN above every number; the first of equal ones), NULL when there is
  none. ``slice(arr, start, length)``: ``length`` elements from the 1-based ``start`` (from the
  end when negative), fewer at the end, none when start is outside the array; start = 0 and
  length < 0 are ``INVALID_PARAMETER_VALUE`` (ANSI on or off).
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation.sql_types import SqlType, struct_fields

_UTC = dt.timezone.utc


def _nan_aware(value: float):
    """NaN equal to itself and above every number; -0.0 equal to 0.0 (Python's ``==`` and hash
    already have that)."""
    return (1, 0.0) if value != value else (0, value)


def _instant(value: dt.datetime):
    """A TIMESTAMP as its instant (Python's ``==`` between zones is False for a local time in a
    daylight-saving gap, PEP 495)."""
    return value.astimezone(_UTC)


def _same(value):
    return value


@lru_cache(maxsize=None)
def element_key(t: SqlType):
    """A function of a non-NULL value of type ``t`` whose results are equal (and hash equal)
    exactly when Spark's ordering finds the values equal, and order as Spark orders them."""
    if t.fractional:
        return _nan_aware
    if t.name == "timestamp":
        return _instant
    if t.name.startswith("struct<"):  # a STRUCT: field by field (sparkcep.evaluation.struct_functions)
        return _struct_key(t)
    return _same


def _struct_key(t: SqlType):
    """Spark's order of STRUCT values of type ``t`` (dicts, as PyArrow hands them over): field by
    field by position, a NULL field below every value; the names play no part."""
    keys = tuple(element_key(ft) for _name, ft in struct_fields(t))

    def key(value: dict) -> tuple:
        return tuple((0,) if v is None else (1, k(v)) for k, v in zip(keys, value.values()))

    return key


@lru_cache(maxsize=None)
def zero_normalizer(t: SqlType):
    """-0.0 written 0.0 (NaN stays NaN), as Spark's hash sets and map builders hold values of type
    ``t``: a FLOAT or DOUBLE, or a STRUCT's FLOAT and DOUBLE fields (measured on Spark 4.3)."""
    if t.fractional:
        return lambda value: 0.0 if value == 0 else value
    if t.name.startswith("struct<"):  # a STRUCT's fields, nested ones too (measured)
        normals = tuple((name, zero_normalizer(ft)) for name, ft in struct_fields(t))

        def normal(value: dict) -> dict:
            return {name: (None if v is None else f(v)) for (name, f), v in zip(normals, value.values())}

        return normal
    return _same


@lru_cache(maxsize=None)
def array_key(t: SqlType):
    """Spark's order of ARRAY values of element type ``t``: element by element, a NULL element
    below every value, then the shorter array first."""
    key = element_key(t)
    return lambda value: [(0,) if e is None else (1, key(e)) for e in value]


@lru_cache(maxsize=None)
def array_contains(t: SqlType):
    key = element_key(t)

    def contains(array: list, value) -> bool | None:
        wanted = key(value)
        unknown = False
        for e in array:
            if e is None:
                unknown = True
            elif key(e) == wanted:
                return True
        return None if unknown else False

    return contains


@lru_cache(maxsize=None)
def array_position(t: SqlType):
    key = element_key(t)

    def position(array: list, value) -> int:
        wanted = key(value)
        for i, e in enumerate(array):
            if e is not None and key(e) == wanted:
                return i + 1
        return 0

    return position


@lru_cache(maxsize=None)
def arrays_overlap(t: SqlType):
    key = element_key(t)

    def overlap(a: list, b: list) -> bool | None:
        if not a or not b:
            return False
        seen = {key(e) for e in a if e is not None}
        if any(e is not None and key(e) in seen for e in b):
            return True
        return None if None in a or None in b else False

    return overlap


@lru_cache(maxsize=None)
def map_contains_key(t: SqlType):
    key = element_key(t)

    def contains_key(entries: list, wanted) -> bool:
        wanted = key(wanted)
        return any(key(k) == wanted for k, _v in entries)

    return contains_key


@lru_cache(maxsize=None)
def map_value(t: SqlType):
    """``element_at(m, k)``, ``try_element_at(m, k)`` and ``m[k]`` of a map whose keys have type
    ``t`` (k cast to it)."""
    key = element_key(t)

    def value_of(entries: list, wanted):
        wanted = key(wanted)
        for k, v in entries:
            if key(k) == wanted:
                return v
        return None

    return value_of


def _index_of_zero() -> MatchRuntimeError:
    return MatchRuntimeError("INVALID_INDEX_OF_ZERO",
                             "The index 0 is invalid. An index shall be either < 0 or > 0 (the first element "
                             "has index 1)")


@lru_cache(maxsize=None)
def element_at(ansi: bool, tolerant: bool = False):
    """``element_at(arr, i)`` (``tolerant``: ``try_element_at``)."""
    strict = ansi and not tolerant

    def at(array: list, index: int):
        if index == 0:
            raise _index_of_zero()
        size = len(array)
        if index > size or -index > size:
            if strict:
                raise MatchRuntimeError(
                    "INVALID_ARRAY_INDEX_IN_ELEMENT_AT",
                    f"The index {index} is out of bounds. The array has {size} elements. Use `try_element_at` "
                    "to tolerate accessing element at invalid index and return NULL instead")
            return None
        return array[index - 1] if index > 0 else array[size + index]

    return at


def java_int(value: int) -> int:
    """Java's ``Number.intValue`` of an integral value: its low 32 bits, two's complement."""
    return (value + (1 << 31)) % (1 << 32) - (1 << 31)


@lru_cache(maxsize=None)
def subscript(ansi: bool):
    """``arr[i]``: 0-based (Spark's ``GetArrayItem``)."""

    def item(array: list, index: int):
        position = java_int(index)
        if 0 <= position < len(array):
            return array[position]
        if ansi:
            raise MatchRuntimeError(
                "INVALID_ARRAY_INDEX",
                f"The index {position} is out of bounds. The array has {len(array)} elements. Use the SQL "
                "function `get()` to tolerate accessing element at invalid index and return NULL instead")
        return None

    return item


def size(value: list) -> int:
    return len(value)


@lru_cache(maxsize=None)
def array_distinct(t: SqlType):
    key, normal = element_key(t), zero_normalizer(t)

    def distinct(array: list) -> list:
        seen: set = set()
        out = []
        null = False
        for e in array:
            if e is None:
                if not null:
                    null = True
                    out.append(None)
                continue
            k = key(e)
            if k not in seen:
                seen.add(k)
                out.append(normal(e))  # -0.0 written 0.0 (in a struct's fields too), as Spark
        return out

    return distinct


@lru_cache(maxsize=None)
def array_extreme(name: str, t: SqlType):
    """``array_max`` / ``array_min``: the first greatest / least non-NULL element."""
    key = element_key(t)
    pick = max if name == "array_max" else min

    def extreme(array: list):
        present = [e for e in array if e is not None]
        return pick(present, key=key) if present else None

    return extreme


def array_slice(array: list, start: int, length: int) -> list:
    """``slice(arr, start, length)`` (Spark's ``Slice``: start is checked before length)."""
    if start == 0:
        raise MatchRuntimeError(
            "INVALID_PARAMETER_VALUE",
            "The value of parameter(s) `start` in `slice` is invalid: Expects a positive or a negative value "
            "for `start`, but got 0")
    if length < 0:
        raise MatchRuntimeError(
            "INVALID_PARAMETER_VALUE",
            f"The value of parameter(s) `length` in `slice` is invalid: Expects `length` greater than or "
            f"equal to 0, but got {length}")
    begin = start - 1 if start > 0 else len(array) + start
    if begin < 0 or begin >= len(array):
        return []
    return array[begin:begin + length]


# the plan operators of this module
COLLECTION_FUNCTIONS = ("array_contains", "array_position", "arrays_overlap", "map_contains_key", "element_at",
                        "try_element_at", "subscript", "size", "array_distinct", "array_max", "array_min", "slice")
