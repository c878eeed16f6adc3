"""Spark's STRUCT values between rows, over the values PyArrow makes of Spark's structs: a
``dict`` of field name to value, in the fields' order (NULL fields as None), as Spark 4.3
computes them (checked against Spark's recorded answers, ANSI on and off, in
``tests/evaluation/corpus.py``). The binding (``sparkcep.evaluation.binding.structs``) typed
every operand and resolved every field name:

* ``named_struct(n1, v1, ...)`` / ``struct(v1, ...)``: never NULL, NULL fields kept, every field
  evaluated; but ``named_struct(...).f`` is the field's value alone (the binding writes it so, as
  Spark's optimizer does: ``named_struct('a', A.x, 'b', B.y DIV 0).a`` is A.x, measured).
* ``array_distinct`` and the set operations write -0.0 as 0.0 in a struct's fields too.
* ``s.f`` / ``s['f']``: the field, NULL for a NULL struct.
* Spark's order of structs (``struct_key``): field by field, in each field type's order, a NULL
  field below every value (so ``named_struct('a', NULL) = named_struct('a', NULL)`` is TRUE,
  measured); the field names play no part (``struct<a:int>`` = ``struct<b:int>``).
* ``map_entries(m)``: the entries as ``struct<key, value>``; ``map_from_entries(arr)``: a map of
  an array of two-field structs, NULL when an entry is NULL, ``NULL_MAP_KEY`` for a NULL key, a
  -0.0 key written 0.0,
  duplicates as ``spark.sql.mapKeyDedupPolicy`` says (``collection_builders.map_builder``);
  ``arrays_zip(a, b, ...)``: structs of the i-th elements, as long as the longest array (NULL
  fields past a shorter one's end), NULL when an array is NULL.
"""

from __future__ import annotations

from functools import lru_cache

from sparkcep.evaluation.collection_builders import map_builder
from sparkcep.evaluation.collection_functions import element_key, zero_normalizer
from sparkcep.evaluation.sql_types import SqlType


def struct_key(t: SqlType):
    """Spark's order of STRUCT values of type ``t``: field by field (by position), a NULL field
    below every value; equal (and hash equal) exactly when Spark finds the structs equal."""
    return element_key(t)


def zero_normalized(t: SqlType):
    """A struct of type ``t`` with -0.0 written 0.0 in its FLOAT and DOUBLE fields (nested ones
    too), as Spark's ``array_distinct`` and set operations write them (measured)."""
    return zero_normalizer(t)


def named_struct(names: tuple[str, ...]):
    """``named_struct`` of the fields' values (every one evaluated, NULLs kept)."""
    return lambda *values: dict(zip(names, values))


def get_field(name: str):
    """``s.f`` of a non-NULL struct (the binding resolved ``f`` to the field's own name)."""
    return lambda value: value[name]


def map_entries(entries: list) -> list:
    return [{"key": k, "value": v} for k, v in entries]


@lru_cache(maxsize=None)
def map_from_entries(t: SqlType, last_wins: bool):
    """``map_from_entries`` of an array of two-field structs whose first field has type ``t``."""
    build, normal = map_builder(t, last_wins), zero_normalizer(t)

    def from_entries(entries: list) -> list | None:
        if any(e is None for e in entries):
            return None  # a NULL entry: a NULL map (measured)
        pairs = (tuple(e.values()) for e in entries)  # a -0.0 key written 0.0 (measured)
        return build((None if k is None else normal(k), v) for k, v in pairs)

    return from_entries


def arrays_zip(names: tuple[str, ...]):
    """``arrays_zip`` of arrays (NULL when one is NULL: the binding's strict operator)."""
    def zipped(*arrays: list) -> list:
        longest = max((len(a) for a in arrays), default=0)
        return [dict(zip(names, (a[i] if i < len(a) else None for a in arrays))) for i in range(longest)]

    return zipped
