"""Typing of STRUCT values between rows (``sparkcep.evaluation.struct_functions``), as Spark 4.3
types them (measured):

* ``named_struct(n1, v1, ...)``: ``struct<n1:t1,...>``, the names as written;
  ``struct(v1, ...)``: the names lowering gave (Spark's ``CreateStruct``). Fields of the types
  ``sql_types.collection_element`` takes (numbers, STRING, BOOLEAN, DATE, TIMESTAMP[_NTZ]),
  NULL, and such structs; two fields of one name, or a name holding ``:``, ``,``, ``<``, ``>`` or
  a backquote, are refused (``sql_types.plain_field_names``).
* ``s.f`` and ``s['f']`` (a string literal): the field's type; of ``named_struct(...)`` the
  field's own operand (a COALESCE of one operand), as Spark's optimizer
  (``SimplifyExtractValueOps``) writes it: the other fields are not evaluated. The name is matched without
  regard to case (Spark's default ``spark.sql.caseSensitive`` false): none is Spark's
  ``FIELD_NOT_FOUND``, two are ``AMBIGUOUS_REFERENCE_TO_FIELDS`` (both refused at the call).
* ``map_entries(m)``: ``array<struct<key:K,value:V>>``; ``map_from_entries(arr)`` of an array of
  two-field structs: ``map<K,V>`` (Spark's ``UNEXPECTED_INPUT_TYPE`` for other arrays);
  ``arrays_zip(a, ...)``: ``array<struct<n1:e1,...>>``, each name a column's own name or the
  0-based position (lowering).
* Comparisons, IN, COALESCE, IF, CASE, ``array``: the structs' common type is
  ``sql_types.wider_struct`` (by ``common_type``), ordered by ``struct_functions.struct_key``.
* ``named_struct(...) IS NULL`` is FALSE without evaluating the fields (Spark's
  ``CreateNamedStruct`` is never NULL and its optimizer folds the test: measured with a field
  that divides by zero).
"""

from __future__ import annotations

from sparkcep.errors import AnalysisError
from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation.binding.core import BinderBase
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.plan import expressions as p

STRUCT_FUNCTIONS = ("named_struct", "get_field", "map_entries", "map_from_entries", "arrays_zip")
_FIELDS = "numbers, STRINGs, BOOLEANs, DATEs, TIMESTAMPs or such STRUCTs"


def _field_value(t: SqlType) -> bool:
    return st.collection_element(t) or t.null


class StructBinding(BinderBase):
    def struct_function(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        name = e.name
        options = dict(e.options)
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        if name == "named_struct":
            names = tuple(options["names"])
            if not st.plain_field_names(names):
                raise self.refuse(e, types, "a STRUCT with two fields of one name, or a name holding ':', ',', '<', "
                                            "'>' or '`', is not built here")
            if not all(_field_value(t) for t in types):
                raise self.refuse(e, types, f"fields of {_FIELDS} are required")
            result = st.struct_of(zip(names, types))
            typed = self.typed(e, name, [x for x, _ in bound], result)
            return p.Operator(name, typed.operands, typed.type, typed.options + (("names", names),), e.span), result
        if name == "get_field":
            (x, t), = bound
            return self.field_of(e, x, t, options["field"])
        if name == "map_entries":
            (m, tm), = bound
            entries = st.map_types(tm)
            if entries is None or not all(_field_value(part) for part in entries):
                raise self.refuse(e, types, f"a MAP of {_FIELDS} is required")
            result = st.array_of(st.struct_of((("key", entries[0]), ("value", entries[1]))))
            return self.typed(e, name, (m,), result), result
        if name == "map_from_entries":
            (a, ta), = bound
            element = st.element_type(ta)
            fields = st.struct_fields(element) if element is not None else None
            if fields is None or len(fields) != 2 or not st.struct_element(element) or fields[0][1].null:
                raise self.refuse(e, types, "an ARRAY of STRUCTs of two fields (a key of a number, STRING, BOOLEAN, "
                                            "DATE or TIMESTAMP type, and a value) is required")
            key, value = fields[0][1], fields[1][1]
            result = st.map_of(key, value)
            typed = self.typed(e, name, (a,), result, key)
            policy = ("dedup", self.semantics.map_key_dedup_policy)
            return p.Operator(name, typed.operands, typed.type, typed.options + (policy,), e.span), result
        # arrays_zip
        names = tuple(options["names"])
        elements = [None if t.null else st.element_type(t) for t in types]
        if not bound or any(el is None or not _field_value(el) for el in elements):
            raise self.refuse(e, types, f"ARRAYs of {_FIELDS} are required")
        if not st.plain_field_names(names):
            raise self.refuse(e, types, f"Spark names the fields {', '.join(names)}; a STRUCT with two fields of one "
                                        "name is not built here (write CAST(LAST(A.x) AS ...) or alias-free "
                                        "expressions of distinct columns)")
        result = st.array_of(st.struct_of(zip(names, elements)))
        typed = self.typed(e, name, [x for x, _ in bound], result)
        return p.Operator(name, typed.operands, typed.type, typed.options + (("names", names),), e.span), result

    def field_of(self, e: p.Operator, x: p.Expression, t: SqlType, wanted: str) -> tuple[p.Expression, SqlType]:
        """``x.wanted`` of a STRUCT ``x`` of type ``t`` (Spark's case-insensitive resolution)."""
        fields = st.struct_fields(t)
        if fields is None or not st.struct_element(t):
            raise self.refuse(e, [t], f"a STRUCT of {_FIELDS} is required")
        found = [(n, ft) for n, ft in fields if n.lower() == wanted.lower()]
        if len(found) != 1:
            code = "FIELD_NOT_FOUND" if not found else "AMBIGUOUS_REFERENCE_TO_FIELDS"
            message = (f"No such struct field `{wanted}` in {', '.join(f'`{n}`' for n, _ in fields)}" if not found
                       else f"Ambiguous reference to the field `{wanted}`. It appears {len(found)} times in the schema")
            if e.span is not None and self.source:
                raise AnalysisError.at_offset(code, message, self.source, e.span[0], max(1, e.span[1] - e.span[0]))
            raise AnalysisError(code, message)
        (name, field_type), = found
        if isinstance(x, p.Operator) and x.name == "named_struct":  # Spark's optimizer: the field alone
            index = [n for n, _ in fields].index(name)
            return self.typed(e, "coalesce", (x.operands[index],), field_type, field_type), field_type
        typed = self.typed(e, "get_field", (x,), field_type, t)
        return p.Operator("get_field", typed.operands, typed.type, typed.options + (("field", name),), e.span), \
            field_type

    def struct_subscript(self, e: p.Operator) -> tuple[p.Expression, SqlType] | None:
        """``s['f']`` of a STRUCT s and a string literal (Spark's field access), else None."""
        if e.name != "subscript" or len(e.operands) != 2:
            return None
        key = e.operands[1]
        x, t = self.bind(e.operands[0])
        if st.struct_fields(t) is None:
            return None
        if not (isinstance(key, p.Constant) and isinstance(key.value, str)):
            raise self.refuse(e, [t], "a STRUCT's field is named by a string literal")
        return self.field_of(e, x, t, key.value)
