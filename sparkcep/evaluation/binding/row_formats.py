"""Typing of ``format_string`` / ``printf`` with a format read from a row (the plan operator
``format_string_row_format``, evaluated by ``sparkcep.evaluation.row_formats``), as Spark types
``FormatString``: a STRING of a STRING format (Spark would cast another type to STRING: refused
here, cast it inside the navigation; a NULL-typed format is always NULL) and arguments of any
type, each kept with its Java class, kind, scale and type name for the evaluation (which refuses,
on the row, what it does not reproduce: the checks ``binding.formatting`` makes at registration
for a literal format)."""

from __future__ import annotations

import dataclasses

from sparkcep.evaluation.binding.core import STRING, BinderBase, SqlType
from sparkcep.evaluation.binding.formatting import java_class, value_kind
from sparkcep.evaluation.row_formats import NAME
from sparkcep.plan import expressions as p


class RowFormatBinding(BinderBase):
    """The typing of a format read from a row (a mixin of ``Binder``)."""

    def row_format(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        if types[0] != STRING and not types[0].null:
            raise self.refuse(dataclasses.replace(e, name="format_string"), types[:1],
                              "the format must be a STRING (CAST it AS STRING inside the navigation)")
        arguments = types[1:]
        typed = p.Operator(NAME, tuple(x for x, _ in bound), str(STRING), self.options + (
            ("classes", tuple(java_class(t) or "" for t in arguments)),
            ("kinds", tuple(value_kind(t) for t in arguments)),
            ("scales", tuple(t.scale if t.decimal else None for t in arguments)),
            ("type_names", tuple(t.name for t in arguments)),
            ("format_at", dict(e.options).get("format_at"))), e.span)
        return typed, STRING
