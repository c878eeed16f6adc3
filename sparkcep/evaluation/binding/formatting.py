"""Typing of ``format_string`` / ``printf`` (``sparkcep.evaluation.java_formatter``) and
``typeof``, as Spark types them. (``decode(x, s1, r1, ...)`` is lowered to Spark's CASE and
typed as CASE is.)

``format_string`` is a STRING of any arguments: Spark passes each as the Java object of its
internal value, and Java's ``Formatter`` decides, per conversion and per value, what it prints or
which exception it raises (``java_formatter``). The format is a literal, parsed here to see which
argument each conversion takes (the assignment depends on the format alone); refused, with a
typed error at the call, where Spark's answer is not reproduced: ``%t`` / ``%T`` (Java reads
the number as epoch milliseconds in the JVM's own default time zone), a DOUBLE or FLOAT taken by
``%e``, ``%f``, ``%g`` or ``%a`` (their digits depend on the Java version; ``%s`` prints its
``toString``, ``java_double_text`` on the session's Java version), ``%h`` of a DECIMAL (Scala's ``BigDecimal.hashCode``), and a BINARY, ARRAY, MAP or
STRUCT taken by any conversion (Java prints identity hashes or Spark's internal layout). A format
Java cannot parse is not refused: Java raises its exception when the function is evaluated, and
so does sparkcep (``ILLEGAL_FORMAT``).

``typeof(x)`` is Spark's ``catalogString`` of x's type, a constant: Spark does not evaluate x
(``typeof(1 / 0)`` is ``'double'``, ANSI on or off), so neither does sparkcep. Spark prints a
STRUCT's field names as they are (``struct<a b:int>``, ``struct<Y:string>``), and so do
sparkcep's types (``sql_types``); x over a column whose type text does not read back as itself
(a field name holding ``,``, ``:``, ``<`` or ``>``) is refused.
"""

from __future__ import annotations

import dataclasses

from sparkcep.errors import AnalysisError
from sparkcep.evaluation import java_formatter
from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation.binding.core import STRING, BinderBase
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.plan import expressions as p

FORMATTING = ("format_string", "typeof")

# conversions that print a DOUBLE's or FLOAT's digits with Java's FormattedFloatingDecimal (%s:
# its toString, java_double_text, on the session's Java version)
_DIGITS = "efga"


def _columns(e: p.Expression) -> set[int]:
    """The value columns ``e`` reads."""
    if isinstance(e, (p.Navigation, p.CurrentRow)):
        return {e.column}
    if isinstance(e, p.Operator):
        return set().union(*(_columns(o) for o in e.operands)) if e.operands else set()
    return set()


def java_class(t: SqlType) -> str | None:
    """The Java class Spark passes for a value of ``t`` (``java_formatter.JAVA_CLASSES``), "void"
    for the NULL type, None for the types refused (BINARY, ARRAY, MAP, STRUCT)."""
    if t.null:
        return "void"
    if st.day_time_fields(t):
        return java_formatter.JAVA_CLASSES["interval"]
    return java_formatter.JAVA_CLASSES.get(t.name)


def value_kind(t: SqlType) -> str:
    """How ``java_formatter.java_value`` converts a value of ``t``."""
    return "interval" if st.day_time_fields(t) else t.name


class FormattingBinding(BinderBase):
    def formatting(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        if e.name == "typeof":
            _x, t = self.bind(e.operands[0])
            texts = [self.column_types[c] for c in _columns(e.operands[0]) if c < len(self.column_types)]
            if any(text is not None and str(st.parse(text)) != text for text in texts):
                raise self.refuse(e, [t], "sparkcep does not read this STRUCT's field names back as Spark's "
                                          "typeof prints them")
            return p.Constant(str(t), "string"), STRING
        return self.format_string(e)

    def format_string(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``format_string(fmt, args...)``: the arguments keep their types (the ``classes``
        and ``kinds`` options); see the module docstring for what is refused."""
        options = dict(e.options)
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        try:
            parts = java_formatter.parse(options["format"])
        except java_formatter.JavaFormatError:
            parts = ()  # raised when evaluated, as Java raises it
        for specifier, position in java_formatter.argument_positions(parts, len(bound)):
            if position is None:
                continue
            t = types[position]
            if specifier.date_time:
                raise self._refuse_format(e, f"'{specifier}' (Java reads the number as epoch milliseconds in the "
                                             "JVM's default time zone, not Spark's session time zone)")
            if java_class(t) is None:
                raise self.refuse(e, types, f"'{specifier}' of {str(t).upper()}: Java prints an identity hash or "
                                            "Spark's internal layout for it")
            if t.name in ("double", "float") and specifier.conversion in _DIGITS:
                raise self.refuse(e, types, f"'{specifier}' of a {t.name.upper()} prints digits that depend on the "
                                            "Java version (format CAST(x AS DECIMAL(p, s)) with %s, or apply it "
                                            "inside the navigation)")
            if t.name in ("double", "float") and specifier.conversion == "s":
                self.java_version(e, types)
            if t.decimal and specifier.conversion == "h":
                raise self.refuse(e, types, "'%h' of a DECIMAL prints Scala's BigDecimal.hashCode, which sparkcep "
                                            "does not reproduce")
        typed = self.typed(e, "format_string", [x for x, _ in bound], STRING)
        extra = (("format", options["format"]),
                 ("classes", tuple(java_class(t) or "" for t in types)),
                 ("kinds", tuple(value_kind(t) for t in types)),
                 ("scales", tuple(t.scale if t.decimal else None for t in types)))
        return dataclasses.replace(typed, options=typed.options + extra), STRING

    def _refuse_format(self, e: p.Operator, what: str) -> AnalysisError:
        message = (f"'format_string' with {what} cannot combine values from different rows of a match in "
                   "DEFINE; apply it inside the navigation, where Spark computes it per row")
        start, end = dict(e.options).get("format_at") or e.span or (0, 0)
        if self.source:
            return AnalysisError.at_offset("UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION", message, self.source,
                                           start, max(1, end - start))
        return AnalysisError("UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION", message)
