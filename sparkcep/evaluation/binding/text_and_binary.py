"""Typing of ``split``, ``regexp_extract_all``, the STRING and BINARY conversions (``base64``,
``unbase64``, ``encode``, ``decode``, ``to_binary``, ``try_to_binary``, ``to_base32``,
``from_base32``), ``soundex``, ``luhn_check``, ``mask``, ``quote``, ``factorial``, ``rint`` and
``positive`` (``sparkcep.evaluation.text_and_binary``), as Spark types them: a value of another
atomic type cast to STRING where Spark casts it (``BinderBase.as_string``), refused where Spark
refuses it (``soundex``, ``mask``, ``base64`` of a number) or casts it in a way sparkcep does not
reproduce (``factorial`` of a BIGINT, ``positive`` of a STRING)."""

from __future__ import annotations

import dataclasses

from sparkcep.evaluation.binding.core import BIGINT, BOOLEAN, DOUBLE, INT, INT_ARGUMENTS, STRING, BinderBase
from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.plan import expressions as p

BINARY = SqlType("binary")
STRING_ARRAY = SqlType("array<string>")
# the operators and their numbers of operands (lowering gives split its limit, -1, and
# regexp_extract_all its group, 1, when they are not written)
TEXT_AND_BINARY = {"split": (3, 3), "regexp_extract_all": (3, 3), "base64": (1, 1), "unbase64": (1, 1),
                   "encode": (2, 2), "decode": (2, 2), "to_binary": (1, 1), "soundex": (1, 1),
                   "luhn_check": (1, 1), "quote": (1, 1), "factorial": (1, 1), "rint": (1, 1),
                   "positive": (1, 1), "to_base32": (1, 1), "from_base32": (1, 1),
                   "mask": (1, 1)}
_STRINGS = ("string", "void")
_BINARIES = ("binary", "string", "void")  # Spark casts a STRING to BINARY (its UTF-8 bytes)
# functions of a STRING that Spark does not cast another type for (DATATYPE_MISMATCH)
_STRING_ONLY = ("soundex", "from_base32", "mask")


class TextAndBinaryBinding(BinderBase):
    def text_or_binary(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        low, high = TEXT_AND_BINARY[name]
        if not low <= len(bound) <= high:
            raise self.refuse(e, types, f"it takes {low} argument{'s' if low > 1 else ''}")
        if name in ("split", "regexp_extract_all"):  # STRINGs (others cast), an INT limit or group
            if types[2].name not in INT_ARGUMENTS:
                raise self.refuse(e, types, "STRINGs and an INT are required")
            operands = [self.as_string(e, x, t, types) for x, t in bound[:2]] + [self.cast(*bound[2], INT)]
            return self.typed(e, name, operands, STRING_ARRAY), STRING_ARRAY
        (a, ta) = bound[0]
        if name in ("base64", "decode", "to_base32"):  # a BINARY (or a STRING's bytes), decode's charset a STRING
            if ta.name not in _BINARIES or any(t.name not in _STRINGS for t in types[1:]):
                raise self.refuse(e, types, "a BINARY (or STRING) is required" + (" and a STRING charset"
                                                                                  if name == "decode" else ""))
            result = STRING
            return self.typed(e, name, [x for x, _ in bound], result), result
        if name == "positive":  # the operand itself (Spark's UnaryPositive)
            if not (ta.numeric or st.day_time_fields(ta)):
                raise self.refuse(e, types, "a number or a day-time interval is required (CAST inside the "
                                            "navigation)")
            return a, ta
        if name == "factorial":
            if ta.name not in INT_ARGUMENTS:
                raise self.refuse(e, types, "an INT is required (Spark casts other types to INT first: CAST inside "
                                            "the navigation)")
            return self.typed(e, name, (self.cast(a, ta, INT),), BIGINT), BIGINT
        if name == "rint":
            if not (ta.numeric or ta.null):
                raise self.refuse(e, types, "a number is required")
            return self.typed(e, name, (self.cast(a, ta, DOUBLE),), DOUBLE), DOUBLE
        if name in _STRING_ONLY and ta.name not in _STRINGS:
            raise self.refuse(e, types, "a STRING is required (Spark casts no other type here)")
        # STRING arguments (a value of another atomic type cast to STRING, as Spark does)
        operands = [self.as_string(e, x, t, types) for x, t in bound]
        result = {"unbase64": BINARY, "encode": BINARY, "to_binary": BINARY, "from_base32": BINARY,
                  "luhn_check": BOOLEAN}.get(name, STRING)
        typed = self.typed(e, name, operands, result)
        return dataclasses.replace(typed, options=typed.options + e.options), result
