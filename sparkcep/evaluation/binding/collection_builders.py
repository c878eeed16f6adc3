"""Typing of the functions that build arrays and maps (``sparkcep.evaluation.collection_builders``),
as Spark 4.3 types them: the rule by which each casts its operands to one element (key, value)
type was measured on every pair of operand types, ANSI on and off
(``tests/evaluation/collection_types.json``, checked by ``test_collection_builders.py``):

* ``array_union``, ``array_intersect``, ``array_except`` (two arrays), ``array_remove``,
  ``array_append``, ``array_prepend``, ``array_insert`` (an array and a value): Spark's
  ``tightest_common_type`` of the element types (Spark refuses two different DECIMALs, or a
  DECIMAL with a FLOAT or DOUBLE, ...); ``concat`` of arrays, ``map(...)``'s keys and values:
  their common type, as ``array(...)``'s elements.
* ``sequence``: integral numbers, cast to the widest of them; DATEs with an optional INTERVAL
  DAY step.
* ``array_repeat(v, n)``: an INT n (Spark takes no other type, not even a TINYINT);
  ``array_insert``'s position: an INT (or smaller); ``get(arr, i)``: any integral i, a BIGINT
  cast to INT (``CAST_OVERFLOW`` with ANSI on, wrapped without).
* ``array_join`` of an ARRAY<T> of a type ``explicit_casts`` casts to STRING exactly (integral
  numbers, DECIMAL, BOOLEAN, DATE, TIMESTAMP[_NTZ]): its elements cast to STRING, as Spark
  casts them implicitly; of FLOAT or DOUBLE elements refused (Java's ``Double.toString``).

Arrays (and maps) of element types ``collection_functions`` does not compare (nested arrays but
for ``flatten``, maps, structs, binaries, intervals) are refused at the call. Where Spark's
optimizer does not build a ``map(...)`` or ``array(...)`` (``map(...)[k]``, ``IS NULL``,
``array(...)[literal]``) the binding writes what it computes instead (``optimizer_fold``);
``size(map(...))`` is refused. Spark's ``containsNull`` (whether an array type admits NULL
elements) is not tracked: no intermediate array's type reaches Spark from a DEFINE condition.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from sparkcep.evaluation import explicit_casts
from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation.binding.core import INT_ARGUMENTS, STRING, VOID, BinderBase
from sparkcep.evaluation.collection_builders import COLLECTION_BUILDERS
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.plan import expressions as p

_ELEMENTS = "numbers, STRINGs, BOOLEANs, DATEs or TIMESTAMPs"
_TWO_ARRAYS = ("array_union", "array_intersect", "array_except")
_ARRAY_AND_VALUE = ("array_remove", "array_append", "array_prepend")
_ONE_ARRAY = ("array_compact", "sort_array", "array_sort", "flatten")
_ARITY = {"array_union": (2, 2), "array_intersect": (2, 2), "array_except": (2, 2), "array_remove": (2, 2),
          "array_append": (2, 2), "array_prepend": (2, 2), "array_insert": (3, 3), "array_repeat": (2, 2),
          "array_compact": (1, 1), "sort_array": (1, 1), "array_sort": (1, 1), "flatten": (1, 1),
          "map_keys": (1, 1), "map_values": (1, 1), "map_from_arrays": (2, 2), "get": (2, 2), "sequence": (2, 3),
          "create_map": (0, 1 << 30)}

__all__ = ["COLLECTION_BUILDERS", "CollectionBuilderBinding", "constructed", "never_null"]


def constructed(x: p.Expression) -> bool:
    """``map(...)`` or ``array(...)``: never NULL (Spark's ``CreateMap`` and ``CreateArray``)."""
    return isinstance(x, p.Operator) and x.name in ("create_map", "array")


# operators NULL only when their first operand is (Spark's nullability: the child's), when any
# operand is, and when the given ones are
_NULL_WITH_FIRST = ("map_keys", "map_values", "array_compact", "reverse_array", "sort_array", "array_sort",
                    "array_distinct", "elements_cast", "array_append", "array_prepend")
_NULL_WITH_ANY = ("array_union", "array_intersect", "array_except", "array_remove", "concat_arrays", "sequence",
                  "map_from_arrays",
                  "map_concat", "str_to_map")  # JSON and map functions (map_functions; measured)


# Operators Spark computes NULL for only when an operand is NULL (their ``nullable`` is their
# operands'), checked against Spark's analysed nullability of every corpus expression over
# never-NULL columns (tests/evaluation/test_spark_differential.py)
_NULL_ONLY_WITH_AN_OPERAND = (
    "eq", "neq", "lt", "lte", "gt", "gte", "and", "or", "concat", "upper", "lower", "md5", "sha1", "crc32",
    "length", "octet_length", "bit_length", "reverse", "initcap", "hex", "bitwise_and", "bitwise_or",
    "bitwise_xor", "bitwise_not", "shiftleft", "shiftright", "shiftrightunsigned", "bit_count", "startswith",
    "endswith", "contains", "like", "ilike", "rlike", "levenshtein", "translate", "repeat", "year", "month",
    "day", "hour", "minute", "quarter", "dayofweek", "dayofyear", "weekofyear", "weekday", "yearofweek",
    "dayofweek_iso", "unix_date", "unix_seconds", "unix_millis", "unix_micros", "datediff", "date_add",
    "date_sub", "add_months", "last_day")
# ... and these unless their result is a DECIMAL without ANSI (an overflow is NULL then)
_NULL_ONLY_WITH_AN_OPERAND_EXACT_TYPES = ("add", "sub", "mul", "neg", "abs")


def never_null(x: p.Expression, ansi: bool, columns: bool | frozenset = False) -> bool:
    """Whether Spark's optimizer knows ``x`` is never NULL (its ``nullable`` is false), so that it
    folds ``x IS NULL`` to FALSE without evaluating x (measured: ``map(...) IS NULL``,
    ``cardinality(map_keys(map(...))) IS NOT NULL``, ``CAST(a <=> b AS INT) IS NOT NULL``): a
    non-NULL literal, ``map(...)``, ``array(...)``, ``<=>``, ``IS [NOT] NULL``, ``size`` without
    ANSI (-1 for NULL), NOT and a CAST of a BOOLEAN over such operands, IF and CASE whose results are, and the array functions
    over such operands (NULL when their operands are). Any other value, a row's included, may be
    NULL."""
    if isinstance(x, p.Constant):
        return x.value is not None
    if not isinstance(x, p.Operator):
        # a value column: of the current row, never NULL where Spark's analysis says so
        # (``columns``: the set of such columns; a constant such as concat('%', '1') is one);
        # any other row may not exist. ``columns`` True: every leaf (the oracle test's columns)
        if isinstance(columns, frozenset):
            return isinstance(x, p.CurrentRow) and x.column in columns
        return columns
    name, operands = x.name, x.operands
    if name in ("create_map", "array"):
        return True
    if name in ("null_safe_eq", "null_safe_neq", "is_null", "is_true", "is_false", "hash", "xxhash64"):
        return True  # <=>, IS [NOT] DISTINCT FROM, IS [NOT] NULL, IS TRUE / FALSE, hashes (seed for NULL)
    if name == "paren":
        return never_null(operands[0], ansi, columns)
    if name in _NULL_ONLY_WITH_AN_OPERAND or (name in _NULL_ONLY_WITH_AN_OPERAND_EXACT_TYPES and not (
            not ansi and x.type is not None and x.type.startswith("decimal"))):
        return all(never_null(o, ansi, columns) for o in operands)
    if name == "format_string":  # its format a literal, in the options (a NULL one is lowered to NULL)
        return True
    if name == "concat_ws":  # NULL only for a NULL separator
        return never_null(operands[0], ansi, columns)
    if name in ("greatest", "least"):  # NULL only when every operand is
        return any(never_null(o, ansi, columns) for o in operands)
    if name == "not":
        return never_null(operands[0], ansi, columns)
    options = dict(x.options)
    if name in ("cast", "converting_cast") and options.get("operand") == "boolean" and not options.get("try"):
        return never_null(operands[0], ansi, columns)  # Spark's Cast of a BOOLEAN is NULL only for NULL (not TRY_CAST)
    if name == "size":
        return not ansi or never_null(operands[0], ansi, columns)
    if name == "if":  # size without ANSI: IF(x IS NULL, -1, size(x))
        return never_null(operands[1], ansi, columns) and never_null(operands[2], ansi, columns)
    if name == "case":  # (subject, default, when1, then1, ...): NULL only where a result may be
        return all(never_null(o, ansi, columns) for o in (operands[1], *operands[3::2]))
    if name == "coalesce":
        return any(never_null(o, ansi, columns) for o in operands)
    if name in _NULL_WITH_FIRST:
        return never_null(operands[0], ansi, columns)
    if name in _NULL_WITH_ANY:
        return all(never_null(o, ansi, columns) for o in operands)
    if name == "array_insert":
        return never_null(operands[0], ansi, columns) and never_null(operands[1], ansi, columns)
    if name == "array_repeat":
        return never_null(operands[1], ansi, columns)
    # -- higher-order functions (begin): NULL only when their array or map is (Spark's
    # HigherOrderFunction.nullable); exists, forall and aggregate also when the lambda may be
    # NULL, which sparkcep does not work out (docs/semantics.md, "Higher-order functions")
    if name in ("transform", "filter", "map_filter", "transform_values", "transform_keys"):
        return never_null(operands[0], ansi, columns)
    if name in ("zip_with", "map_zip_with"):
        return never_null(operands[0], ansi, columns) and never_null(operands[1], ansi, columns)
    # -- higher-order functions (end) --
    # -- structs (begin): named_struct(...) and struct(...) are never NULL (CreateNamedStruct);
    # map_entries NULL only with its map, arrays_zip with any of its arrays
    if name == "named_struct":
        return True
    if name == "map_entries":
        return never_null(operands[0], ansi, columns)
    if name == "arrays_zip":
        return all(never_null(o, ansi, columns) for o in operands)
    # -- structs (end) --
    # -- array_sort with a comparator, format_string (begin): NULL only when the array / the
    # format is (ArraySort's and FormatString's nullable)
    if name in ("array_sort_with_comparator", "format_string_row_format"):
        return never_null(operands[0], ansi, columns)
    # -- array_sort with a comparator, format_string with a format read from a row (end) --
    return False


class CollectionBuilderBinding(BinderBase):
    def _element(self, e: p.Operator, t: SqlType, types: Sequence[SqlType]) -> SqlType:
        """The element type of ARRAY ``t`` (VOID for an untyped NULL), refusing other types."""
        element = VOID if t.null else st.element_type(t)
        if element is None or not (st.collection_element(element) or element.null):
            raise self.refuse(e, types, f"an ARRAY of {_ELEMENTS} is required")
        return element

    def _tightest(self, e: p.Operator, a: SqlType, b: SqlType, types: Sequence[SqlType]) -> SqlType:
        common = st.tightest_common_type(a, b, ansi=self.semantics.ansi)
        if common is None or not (st.collection_element(common) or common.null):
            raise self.refuse(e, types, "Spark does not cast these elements to one type")
        return common

    def collection_builder(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        low, high = _ARITY[name]
        if not low <= len(bound) <= high or name == "create_map" and len(bound) % 2:
            raise self.refuse(e, types, "a wrong number of arguments")
        if name in _TWO_ARRAYS:
            (a, ta), (b, tb) = bound
            common = self._tightest(e, self._element(e, ta, types), self._element(e, tb, types), types)
            target = st.array_of(common)
            operands = (self.exact_cast(e, a, ta, target, types), self.exact_cast(e, b, tb, target, types))
            return self.typed(e, name, operands, target, common), target
        if name in _ARRAY_AND_VALUE or name == "array_insert":
            (a, ta), *rest = bound
            if name == "array_insert":
                (position, tp), (v, tv) = rest
                if tp.name not in INT_ARGUMENTS or tp.null:  # Spark refuses a BIGINT and an untyped NULL
                    raise self.refuse(e, types, "an INT position is required")
            else:
                (v, tv), = rest
            if not (st.collection_element(tv) or tv.null):
                raise self.refuse(e, types, f"a value of {_ELEMENTS} is required")
            common = self._tightest(e, self._element(e, ta, types), tv, types)
            target = st.array_of(common)
            cast = (self.exact_cast(e, a, ta, target, types), self.exact_cast(e, v, tv, common, types))
            operands = (cast[0], position, cast[1]) if name == "array_insert" else cast
            return self.typed(e, name, operands, target, common), target
        if name in _ONE_ARRAY:
            (a, ta), = bound
            if name == "flatten":
                inner = None if ta.null else st.element_type(ta)
                if inner is None:
                    raise self.refuse(e, types, f"an ARRAY of ARRAYs of {_ELEMENTS} is required")
                element = self._element(e, inner, types)
                result = st.array_of(element)
                return self.typed(e, name, (a,), result, element), result
            element = self._element(e, ta, types)
            result = st.array_of(element)
            typed = self.typed(e, name, (a,), result, element)
            return dataclasses.replace(typed, options=typed.options + e.options), result
        if name == "array_repeat":
            (v, tv), (n, tn) = bound
            if not (st.collection_element(tv) or tv.null) or tn.name not in ("int", "void"):  # not even a TINYINT
                raise self.refuse(e, types, f"a value of {_ELEMENTS} and an INT count are required")
            result = st.array_of(tv)
            return self.typed(e, name, (v, n), result, tv), result
        if name in ("map_keys", "map_values"):
            (m, tm), = bound
            entries = st.map_types(tm)
            if entries is None:
                raise self.refuse(e, types, "a MAP is required")
            part = entries[0] if name == "map_keys" else entries[1]
            if not (st.collection_element(part) or part.null):
                raise self.refuse(e, types, f"a MAP of {_ELEMENTS} is required")
            result = st.array_of(part)
            return self.typed(e, name, (m,), result, part), result
        if name == "create_map":
            keys, values = bound[0::2], bound[1::2]
            key = self._common_elements(e, [t for _, t in keys], types)
            value = self._common_elements(e, [t for _, t in values], types)
            operands = []
            for (k, tk), (v, tv) in zip(keys, values):
                operands += [self.exact_cast(e, k, tk, key, types), self.exact_cast(e, v, tv, value, types)]
            result = st.map_of(key, value)
            return self._map_operator(e, name, operands, result, key), result
        if name == "map_from_arrays":
            (k, tk), (v, tv) = bound
            key, value = self._element(e, tk, types), self._element(e, tv, types)
            if key.null:
                raise self.refuse(e, types, "Spark refuses a map of untyped NULL keys")
            result = st.map_of(key, value)
            return self._map_operator(e, name, (k, v), result, key), result
        if name == "get":
            (a, ta), (i, ti) = bound
            element = self._element(e, ta, types)
            if not (ti.integral or ti.null):
                raise self.refuse(e, types, "an integral index is required")
            index = self.cast(i, ti, SqlType("int"))  # Spark casts a BIGINT to INT (CAST_OVERFLOW with ANSI)
            return self.typed(e, name, (a, index), element, element), element
        return self.sequence(e, bound, types)

    def _common_elements(self, e: p.Operator, element_types: list[SqlType], types) -> SqlType:
        if any(not (st.collection_element(t) or t.null) for t in element_types):
            raise self.refuse(e, types, f"{_ELEMENTS} are required")
        return self.common(e, element_types) if element_types else VOID

    def _map_operator(self, e: p.Operator, name: str, operands, result: SqlType, key: SqlType) -> p.Operator:
        typed = self.typed(e, name, operands, result, key)
        policy = ("dedup", self.semantics.map_key_dedup_policy)
        return dataclasses.replace(typed, options=typed.options + (policy,))

    def sequence(self, e: p.Operator, bound, types) -> tuple[p.Expression, SqlType]:
        """``sequence(start, stop[, step])`` of integral numbers (cast to the widest of them), or
        of DATEs by an INTERVAL DAY step."""
        if all(t.null for t in types[:2]):
            raise self.refuse(e, types, "Spark refuses an untyped NULL start and stop")
        if all(t.name == "date" or t.null for t in types[:2]):
            if len(types) == 3 and types[2] != st.day_time_interval(0, 0):
                raise self.refuse(e, types, "DATEs and an INTERVAL DAY step are required")
            date = SqlType("date")
            return self.typed(e, "sequence", [x for x, _ in bound], st.array_of(date), date), st.array_of(date)
        if not all(t.integral or t.null for t in types):
            raise self.refuse(e, types, "integral numbers (or DATEs) are required")
        widest = st.common_type(types, ansi=self.semantics.ansi)
        if widest.null:
            widest = SqlType("int")
        result = st.array_of(widest)
        operands = [self.cast(x, t, widest) for x, t in bound]
        return self.typed(e, "sequence", operands, result, widest), result

    # -- Spark's optimizer over map(...) and array(...) -----------------------------------------
    def optimizer_fold(self, e: p.Operator, bound) -> tuple[p.Expression, SqlType] | None:
        """What Spark's optimizer (``SimplifyExtractValueOps``) makes of ``map(k1, v1, ...)[k]``:
        ``CASE WHEN k = k1 THEN v1 ... END``, the first equal key's value, nothing built (so no
        ``DUPLICATED_MAP_KEY`` or ``NULL_MAP_KEY``); and of ``array(e0, e1, ...)[i]`` with a
        literal INT i: ``ei`` alone when i is inside the array (the other elements are not
        evaluated), NULL outside it without ANSI (with ANSI the array is built, and i is
        ``INVALID_ARRAY_INDEX``). All measured on Spark 4.3, ANSI on and off; ``element_at`` and
        the other functions build the map or array. ``size(map(...))`` is refused: Spark counts
        the entries written without building the map for some operands (columns) and builds it
        for others (``lower(s)``, a cast with ANSI on). None for any other call."""
        name = e.name
        if name == "size" and len(bound) == 1 and isinstance(bound[0][0], p.Operator) and \
                bound[0][0].name == "create_map":
            raise self.refuse(e, [bound[0][1]], "Spark's optimizer counts the entries written without building the "
                                                "map (and raising DUPLICATED_MAP_KEY or NULL_MAP_KEY) for some operands "
                                                "and not for others; write size(map_keys(map(...)))")
        if name != "subscript" or len(bound) != 2:
            return None
        (m, tm), (k, tk) = bound
        if isinstance(m, p.Operator) and m.name == "create_map":
            key, value = st.map_types(tm)
            if st.tightest_common_type(key, tk, ansi=self.semantics.ansi) != key:
                raise self.refuse(e, [tm, tk], "Spark does not cast this key to the map's key type")
            wanted = self.exact_cast(e, k, tk, key, [tm, tk])
            flat: list[p.Expression] = [p.Constant(None), p.Constant(None, str(value))]
            for ki, vi in zip(m.operands[0::2], m.operands[1::2]):
                flat += [self.typed(e, "eq", (wanted, ki), SqlType("boolean"), key), vi]
            return self.typed(e, "case", flat, value), value
        if isinstance(m, p.Operator) and m.name == "array" and isinstance(k, p.Constant) and tk.name == "int" \
                and isinstance(k.value, int) and not isinstance(k.value, bool):
            element = st.element_type(tm)
            if 0 <= k.value < len(m.operands):  # (a COALESCE of one operand: the element, typed)
                return self.typed(e, "coalesce", (m.operands[k.value],), element, element), element
            if not self.semantics.ansi:
                return p.Constant(None, str(element)), element
        return None

    # -- hooks of other families' operators over arrays ------------------------------------------

    def concat_arrays(self, e: p.Operator, bound) -> tuple[p.Expression, SqlType]:
        """``concat(a, b, ...)`` / ``a || b`` of arrays: their elements' common type."""
        types = [t for _, t in bound]
        element = self._common_elements(e, [self._element(e, t, types) for t in types], types)
        target = st.array_of(element)
        operands = [self.exact_cast(e, x, t, target, types) for x, t in bound]
        return self.typed(e, "concat_arrays", operands, target, element), target

    def reverse_array(self, e: p.Operator, bound) -> tuple[p.Expression, SqlType]:
        (a, ta), = bound
        element = self._element(e, ta, [ta])
        return self.typed(e, "reverse_array", (a,), ta, element), ta

    def array_join_of_values(self, e: p.Operator, bound) -> tuple[p.Expression, SqlType]:
        """``array_join(arr, sep[, null_replacement])`` of a non-STRING array: its elements cast
        to STRING first, as Spark casts an ARRAY<T> implicitly."""
        types = [t for _, t in bound]
        (a, ta), *rest = bound
        element = self._element(e, ta, types)
        if any(t.name not in ("string", "void") for t in types[1:]) or \
                not explicit_casts.supported(element, STRING):
            raise self.refuse(e, types, "an ARRAY of numbers, BOOLEANs, DATEs or TIMESTAMPs and STRING "
                                        "separators are required")
        if element.fractional:  # Java's Double.toString
            self.java_version(e, types)
        strings = st.array_of(STRING)
        cast = self.typed(e, "elements_cast", (a,), strings, element)
        return self.typed(e, "array_join", [cast] + [x for x, _ in rest], STRING), STRING
