"""Typing of the string functions (``sparkcep.evaluation.string_functions``), ``concat_ws`` and
``array_join``, the hashes and ``elt``, as Spark types them (a value of another type cast to
STRING where Spark casts it: ``BinderBase.as_string``)."""

from __future__ import annotations

import dataclasses

from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation.binding.core import BIGINT, BOOLEAN, INT, INT_ARGUMENTS, STRING, VOID, BinderBase
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.evaluation.hash_functions import hashable
from sparkcep.plan import expressions as p

# string functions whose operands from this position on are INTs (positions, counts, a threshold)
_FIRST_INT_OPERAND = {"locate": 2, "left": 1, "right": 1, "substring_index": 2, "split_part": 2,
                      "levenshtein": 2, "sha2": 1, "repeat": 1, "regexp_extract": 2, "regexp_replace": 3,
                      "regexp_instr": 2}
# the number of operands of the string functions that take more than one
_ARITY = {"contains": (2, 2), "startswith": (2, 2), "endswith": (2, 2), "locate": (2, 3), "trim": (1, 2),
          "replace": (2, 3), "left": (2, 2), "right": (2, 2), "substring_index": (3, 3), "split_part": (3, 3),
          "levenshtein": (2, 3), "sha2": (2, 2), "translate": (3, 3),
          "lpad": (2, 3), "rpad": (2, 3), "repeat": (2, 2),
          # lowering gives regexp_extract its default group and regexp_replace its position
          "regexp_extract": (3, 3), "regexp_replace": (4, 4), "regexp_count": (2, 2), "regexp_substr": (2, 2),
          "regexp_instr": (2, 3), "find_in_set": (2, 2), "parse_url": (2, 3), "try_parse_url": (2, 3)}
# the hashes of a BINARY (Spark casts a STRING to its UTF-8 bytes, and no other type)
_BINARY_INPUT = ("md5", "sha1", "sha2", "crc32")
_INT_RESULTS = ("locate", "levenshtein", "ascii", "octet_length", "bit_length", "regexp_count", "regexp_instr",
                "find_in_set")


class StringBinding(BinderBase):
    def string_function(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``sparkcep.evaluation.string_functions``: STRINGs (a value of another type cast to
        STRING, as Spark does, but where Spark expects a BINARY: the hashes take a STRING only),
        and INT positions and lengths."""
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        if name == "reverse" and len(bound) == 1 and st.element_type(bound[0][1]) is not None:
            return self.reverse_array(e, bound)  # of an array (collection_builders)
        if name == "chr":  # of an integral number, cast to BIGINT
            (a, t), = bound
            if not (t.integral or t.null):
                raise self.refuse(e, [t], "an integral number is required")
            return self.typed(e, name, (self.cast(a, t, BIGINT),), STRING, BIGINT), STRING
        low, high = _ARITY.get(name, (1, len(bound)))
        if not low <= len(bound) <= high:
            raise self.refuse(e, [t for _, t in bound], f"it takes {low} to {high} arguments" if low < high
                              else f"it takes {low} argument{'s' if low > 1 else ''}")
        types = [t for _, t in bound]
        # lpad(str, len[, pad]): the length is the only INT
        ints = (1,) if name in ("lpad", "rpad") else range(_FIRST_INT_OPERAND.get(name, len(bound)), len(bound))
        if any(types[k].name not in INT_ARGUMENTS for k in ints):
            raise self.refuse(e, types, "a STRING and INT positions are required")
        if name in _BINARY_INPUT and types[0].name not in ("string", "void"):
            raise self.refuse(e, types, "a STRING is required (Spark takes a BINARY, and casts only a STRING to it)")
        operands = [x if k in ints else self.as_string(e, x, t, types) for k, (x, t) in enumerate(bound)]
        result = BOOLEAN if name in ("contains", "startswith", "endswith") else \
            INT if name in _INT_RESULTS else BIGINT if name == "crc32" else STRING
        typed = self.typed(e, name, operands, result)
        typed = dataclasses.replace(typed, options=typed.options + e.options)
        if name == "locate" and len(bound) == 3:  # a NULL position gives 0, not NULL (Spark's StringLocate)
            position = bound[2][0]
            unknown = self.typed(e, "is_null", (position,), BOOLEAN)
            return self.typed(e, "if", (unknown, p.Constant(0, "int"), typed), INT), INT
        return typed, result

    def hash_function(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``hash(e1, ...)`` (an INT) and ``xxhash64(e1, ...)`` (a BIGINT) of one or more values of
        the types ``hash_functions`` hashes as Spark does (and arrays of them; not maps,
        structs or intervals); each operand keeps its own type (the ``types`` option)."""
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        if not bound:
            raise self.refuse(e, types, "it takes at least one argument")
        if not all(hashable(t) for t in types):
            raise self.refuse(e, types, "numbers, STRING, BINARY, BOOLEAN, DATE and TIMESTAMP values (and arrays "
                                        "of them) are hashed here")
        result = INT if e.name == "hash" else BIGINT
        typed = self.typed(e, e.name, [x for x, _ in bound], result)
        return dataclasses.replace(typed, options=typed.options + (("types", tuple(str(t) for t in types)),)), result

    def joined_string(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``concat_ws(sep, STRING or ARRAY<STRING>, ...)`` (a separator or a value of another
        atomic type cast to STRING, as Spark does) and ``array_join(ARRAY<STRING>, STRING[,
        STRING])`` (Spark casts nothing there)."""
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        string_arrays = ("array<string>", "array<void>", "void")
        if name == "array_join" and types and st.element_type(types[0]) not in (None, STRING, VOID):
            return self.array_join_of_values(e, bound)  # elements cast to STRING (collection_builders)
        if name == "array_join":
            if types[0].name not in string_arrays or any(t.name not in ("string", "void") for t in types[1:]):
                raise self.refuse(e, types, "an ARRAY<STRING> and STRINGs are required")
            return self.typed(e, name, [x for x, _ in bound], STRING), STRING
        if any(st.element_type(t) is not None and t.name not in string_arrays for t in types[1:]):
            raise self.refuse(e, types, "STRINGs and ARRAY<STRING>s are required")
        operands = [x if st.element_type(t) is not None else self.as_string(e, x, t, types) for x, t in bound]
        return self.typed(e, name, operands, STRING), STRING

    def elt(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``elt(n, s1, s2, ...)`` of an INT (or smaller) n and STRINGs: ``CASE WHEN n = 1 THEN s1
        WHEN n = 2 THEN s2 ... ELSE elt_out_of_range(n) END``, which reads only the chosen
        string (as Spark's ``Elt``); an input of another atomic type is cast to STRING, as Spark
        does."""
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        (n, tn), inputs = bound[0], bound[1:]
        if tn.name not in INT_ARGUMENTS:
            raise self.refuse(e, types, "an INT index is required")
        index = self.cast(n, tn, INT)
        out_of_range = self.typed(e, "elt_out_of_range", (index,), STRING, INT)
        flat: list[p.Expression] = [p.Constant(None), dataclasses.replace(
            out_of_range, options=out_of_range.options + (("inputs", len(inputs)),))]
        for k, (x, t) in enumerate(inputs, 1):
            flat += [self.typed(e, "eq", (index, p.Constant(k, "int")), BOOLEAN, INT), self.as_string(e, x, t, types)]
        return self.typed(e, "case", flat, STRING), STRING

