"""Typing of ``str_to_map`` and ``map_concat`` between rows (``sparkcep.evaluation.map_functions``),
as Spark 4.3 types them: ``str_to_map`` of STRINGs (Spark casts no other type to STRING here,
ANSI on or off) is a MAP<STRING, STRING>; ``map_concat`` of maps is a map of their keys' and
values' common types (Spark's ``DATA_DIFF_TYPES`` when there is none; an untyped NULL map is
Spark's ``MAP_CONCAT_DIFF_TYPES``). Keys are cast to the common key type as ``exact_cast``
casts them; maps whose values would need a cast are refused (not reproduced). Both carry
``spark.sql.mapKeyDedupPolicy`` (read at registration). ``map_concat()`` is an empty
MAP<STRING, STRING>, as in Spark.
"""

from __future__ import annotations

import dataclasses

from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation.binding.core import STRING, BinderBase
from sparkcep.evaluation.map_functions import MAP_FUNCTIONS
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.plan import expressions as p

__all__ = ["MAP_FUNCTIONS", "MapFunctionBinding"]


class MapFunctionBinding(BinderBase):
    def _with_policy(self, e: p.Operator, name: str, operands, result: SqlType, key: SqlType) -> p.Operator:
        typed = self.typed(e, name, operands, result, key)
        return dataclasses.replace(typed, options=typed.options + (("dedup", self.semantics.map_key_dedup_policy),))

    def map_function(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        if name == "str_to_map":
            if not 1 <= len(bound) <= 3:
                raise self.refuse(e, types, "a wrong number of arguments")
            if any(t.name not in ("string", "void") for t in types):  # Spark casts nothing here
                raise self.refuse(e, types, "STRINGs are required (Spark's DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE)")
            operands = [x for x, _ in bound]
            result = st.map_of(STRING, STRING)
            return self._with_policy(e, name, operands, result, STRING), result
        entries = [st.map_types(t) for t in types]
        if any(m is None for m in entries):
            raise self.refuse(e, types, "MAPs are required (Spark refuses an untyped NULL here)")
        if not bound:
            result = st.map_of(STRING, STRING)
            return self._with_policy(e, name, (), result, STRING), result
        keys, values = [k for k, _ in entries], [v for _, v in entries]
        if any(not st.collection_element(t) for t in keys + values):
            raise self.refuse(e, types, "maps of numbers, STRINGs, BOOLEANs, DATEs or TIMESTAMPs are required")
        key, value = self.common(e, keys), self.common(e, values)
        if any(v != value and not v.null for v in values):  # an untyped NULL value needs no cast
            raise self.refuse(e, types, "Spark casts these maps' values to one type, which sparkcep does not "
                                        "reproduce between rows (cast the values inside the navigation)")
        result = st.map_of(key, value)
        operands = [self.exact_cast(e, x, t, st.map_of(key, v), types) for (x, t), v in zip(bound, values)]
        return self._with_policy(e, name, operands, result, key), result
