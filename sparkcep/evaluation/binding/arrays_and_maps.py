"""Typing of the array and map functions (``sparkcep.evaluation.collection_functions``) and of
``array(...)``, as Spark 4.3 types them."""

from __future__ import annotations

from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation.binding.core import BIGINT, BOOLEAN, INT, VOID, BinderBase
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.plan import expressions as p


class CollectionBinding(BinderBase):
    def array_constructor(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``array(x, ...)`` of values of one type (Spark's CreateArray: their common type)."""
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        if any(not (st.collection_element(t) or t.null) for t in types):
            raise self.refuse(e, types, "numbers, STRINGs, BOOLEANs, DATEs and TIMESTAMPs are required")
        element = self.common(e, types) if types else VOID
        casts = [self.exact_cast(e, x, t, element, types) for x, t in bound]
        result = st.array_of(element)
        return self.typed(e, name, casts, result), result

    def collection_function(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """The array and map functions of ``collection_functions``, typed as Spark 4.3 types
        them: ``array_contains`` and ``map_contains_key`` cast the array's elements (the map's
        keys) and the value to ``wider_type_without_string_promotion`` of the two,
        ``array_position``, ``arrays_overlap`` and ``element_at`` / ``try_element_at`` of a map
        to their ``tightest_common_type``, ``m[k]`` casts k to the map's key type; an array
        index is an INT (or smaller) for ``element_at``, any integral number for ``arr[i]``.
        Arrays and maps of other element types (nested arrays, maps, structs, binaries,
        intervals) are refused, but for ``size``."""
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        folded = self.optimizer_fold(e, bound)  # map(...)[k], array(...)[0] as Spark's optimizer has them
        if folded is not None:
            return folded
        types = [t for _, t in bound]
        ansi = self.semantics.ansi
        arity = {"size": 1, "array_size": 1, "array_distinct": 1, "array_max": 1, "array_min": 1, "slice": 3}.get(name, 2)
        if len(bound) != arity:
            raise self.refuse(e, types, f"it takes {arity} argument{'s' if arity > 1 else ''}")
        (x, t) = bound[0]
        element, entries = st.element_type(t), st.map_types(t)
        if name in ("size", "array_size"):
            if element is None and (entries is None or name == "array_size") and not t.null:
                raise self.refuse(e, types, "an ARRAY" + (" or a MAP" if name == "size" else "") + " is required")
            typed = self.typed(e, "size", (x,), INT, t)
            if ansi or name == "array_size":
                return typed, INT
            # Spark's legacy size of NULL (spark.sql.legacy.sizeOfNull, on unless ANSI is): -1
            unknown = self.typed(e, "is_null", (x,), BOOLEAN)
            return self.typed(e, "if", (unknown, p.Constant(-1, "int"), typed), INT), INT
        if entries is not None and name in ("element_at", "try_element_at", "subscript", "map_contains_key"):
            key, value = entries
            (k, tk) = bound[1]
            if not (st.collection_element(key) and (st.collection_element(tk) or tk.null)):
                raise self.refuse(e, types, "a MAP with keys of a number, STRING, BOOLEAN, DATE or TIMESTAMP type "
                                            "and a key of a compatible type are required")
            if name == "subscript":  # GetMapValue: the key cast to the map's key type
                common = key if st.tightest_common_type(key, tk, ansi=ansi) == key else None
            elif name == "map_contains_key":
                common = None if tk.null else st.wider_type_without_string_promotion(key, tk, ansi=ansi)
            else:
                common = st.tightest_common_type(key, tk, ansi=ansi)
            if common is None:
                raise self.refuse(e, types, "Spark does not cast the map's keys and this key to one type")
            target = st.map_of(common, value)
            operands = (self.exact_cast(e, x, t, target, types), self.exact_cast(e, k, tk, common, types))
            if name == "map_contains_key":
                return self.typed(e, name, operands, BOOLEAN, common), BOOLEAN
            return self.typed(e, "map_value", operands, value, common), value
        if element is None and name != "arrays_overlap" or (element is not None and not st.collection_element(element)):
            raise self.refuse(e, types, "an ARRAY of numbers, STRINGs, BOOLEANs, DATEs or TIMESTAMPs is required")
        if name in ("array_contains", "array_position"):
            (v, tv) = bound[1]
            if name == "array_contains" and tv.null:
                raise self.refuse(e, types, "Spark refuses an untyped NULL here")
            if not (st.collection_element(tv) or tv.null):
                raise self.refuse(e, types, "a value of the array's element type is required")
            rule = st.wider_type_without_string_promotion if name == "array_contains" else st.tightest_common_type
            common = rule(element, tv, ansi=ansi)
            if common is None:
                raise self.refuse(e, types, "Spark does not cast the array's elements and this value to one type")
            operands = (self.exact_cast(e, x, t, st.array_of(common), types), self.exact_cast(e, v, tv, common, types))
            result = BOOLEAN if name == "array_contains" else BIGINT
            return self.typed(e, name, operands, result, common), result
        if name == "arrays_overlap":
            (y, ty) = bound[1]
            other = st.element_type(ty)
            if element is None or other is None or not st.collection_element(other):
                raise self.refuse(e, types, "two ARRAYs of numbers, STRINGs, BOOLEANs, DATEs or TIMESTAMPs are required")
            common = st.tightest_common_type(element, other, ansi=ansi)
            if common is None:
                raise self.refuse(e, types, "Spark does not cast the two arrays' elements to one type")
            target = st.array_of(common)
            operands = (self.exact_cast(e, x, t, target, types), self.exact_cast(e, y, ty, target, types))
            return self.typed(e, name, operands, BOOLEAN, common), BOOLEAN
        if name in ("element_at", "try_element_at", "subscript"):
            (i, ti) = bound[1]
            if not (ti.name in ("tinyint", "smallint", "int") or name == "subscript" and ti.integral):
                raise self.refuse(e, types, "an INT index is required" if name != "subscript"
                                  else "an integral index is required")
            return self.typed(e, name, (x, i), element, element), element
        if name == "slice":
            if any(tn.name not in ("tinyint", "smallint", "int", "void") for tn in types[1:]):
                raise self.refuse(e, types, "an ARRAY and an INT start and length are required")
            return self.typed(e, name, [o for o, _ in bound], t, element), t
        result = t if name == "array_distinct" else element  # array_max, array_min
        return self.typed(e, name, (x,), result, element), result

