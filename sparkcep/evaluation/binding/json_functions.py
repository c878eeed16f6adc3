"""Typing of the JSON functions between rows (``sparkcep.evaluation.json_functions``), as Spark
4.3 types them: ``get_json_object(json, path)`` a STRING, ``json_array_length(json)`` an INT,
``json_object_keys(json)`` an ARRAY<STRING>, of STRINGs only: Spark casts no other type to
STRING here (``DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE``, ANSI on or off), nor does sparkcep.
A path Spark does not parse gives NULL (``parse_path``, cached per path text).
``to_json(x)`` (a STRING) of an ARRAY, a MAP or a STRUCT whose elements, keys, values and fields
``json_functions.writable`` writes (a FLOAT or DOUBLE as Java's ``Double.toString`` on the session's
Java version: refused when it is unknown).
"""

from __future__ import annotations

from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation.binding.core import STRING, BinderBase
from sparkcep.evaluation.json_functions import JSON_FUNCTIONS, writable
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.plan import expressions as p

__all__ = ["JSON_FUNCTIONS", "JsonBinding"]

_ARITY = {"get_json_object": 2, "json_array_length": 1, "json_object_keys": 1, "to_json": 1}
_RESULTS = {"get_json_object": STRING, "json_array_length": SqlType("int"),
            "json_object_keys": st.array_of(STRING)}


class JsonBinding(BinderBase):
    def json_function(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        if name == "to_json":
            (x, t), = bound
            if st.element_type(t) is None and st.map_types(t) is None and st.struct_fields(t) is None:
                raise self.refuse(e, types, "an ARRAY, a MAP or a STRUCT is required (Spark's "
                                            "DATATYPE_MISMATCH.INVALID_JSON_SCHEMA)")
            if not writable(t):
                raise self.refuse(e, types, "a type not written here (apply to_json inside the navigation)")
            if any(name in str(t) for name in ("double", "float")):  # Java's Double.toString
                self.java_version(e, types)
            return self.typed(e, name, (x,), STRING, t), STRING
        if len(bound) != _ARITY[name]:
            raise self.refuse(e, types, "a wrong number of arguments")
        if any(t.name not in ("string", "void") for t in types):  # Spark casts nothing here, ANSI on or off
            raise self.refuse(e, types, "STRINGs are required (Spark's DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE)")
        operands = [x for x, _ in bound]
        result = _RESULTS[name]
        return self.typed(e, name, operands, result, STRING), result
