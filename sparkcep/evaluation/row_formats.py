"""Spark's ``format_string(fmt, args...)`` / ``printf`` whose format is read from a row of the
match (``format_string(A.fmt, B.n)``; the plan operator ``format_string_row_format``, typed by
``binding.row_formats``), as Spark 4.3's ``FormatString`` evaluates it:

* a NULL format is NULL, and the arguments are then not evaluated (an error there is not
  raised);
* otherwise the format is parsed per row by Java's rules (``java_formatter.parse``), so a format
  Java rejects, a missing argument or a value of a class its conversion does not take is
  ``ILLEGAL_FORMAT`` on that row only (Spark raises Java's exception without an error class),
  and the arguments are printed as ``java_formatter.apply`` prints them;
* where a specifier reached on that row would print a non-NULL value that sparkcep does not
  reproduce, the row raises ``UNSUPPORTED_MATCH_DEPENDENT_FORMAT`` (a typed error instead of an
  answer that might differ from Spark's): a DOUBLE or FLOAT printed by ``%s``, ``%e``, ``%f``,
  ``%g`` or ``%a`` (their digits depend on the Java version), ``%t`` / ``%T`` (Java reads the
  number as epoch milliseconds in the JVM's default time zone), ``%h`` of a DECIMAL (Scala's
  ``BigDecimal.hashCode``), a BINARY, ARRAY, MAP or STRUCT (Java prints an identity hash or
  Spark's internal layout). Java prints the specifiers in order, so an exception of an earlier
  specifier is raised first, as in Spark; a NULL value prints ``null`` (``false`` for ``%b``)
  whatever its type, as Java prints it, and is never refused.

With a format written as a literal the same refusals are made once, at registration
(``binding.formatting``).
"""

from __future__ import annotations

from typing import Any, Callable

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation import java_formatter
from sparkcep.plan import expressions as p

Evaluator = Callable[[Any], Any]

NAME = "format_string_row_format"  # the plan operator

# conversions that print a DOUBLE's or FLOAT's digits (Java's FormattedFloatingDecimal / toString)
DIGITS = "sefga"


def refusal(specifier: java_formatter.Specifier, spark_type: str, java_class: str) -> str | None:
    """Why sparkcep does not print a non-NULL value of ``spark_type`` (Spark's type name, lower
    case) with ``specifier``, or None."""
    if specifier.date_time:
        return (f"'{specifier}' reads the number as epoch milliseconds in the JVM's default time zone, not "
                "Spark's session time zone")
    if not java_class:
        return f"'{specifier}' of {spark_type.upper()}: Java prints an identity hash or Spark's internal layout for it"
    if spark_type in ("double", "float") and specifier.conversion in DIGITS:
        return (f"'{specifier}' of a {spark_type.upper()} prints digits that depend on the Java version (format "
                "CAST(x AS DECIMAL(p, s)) with %s)")
    if spark_type.startswith("decimal") and specifier.conversion == "h":
        return "'%h' of a DECIMAL prints Scala's BigDecimal.hashCode, which sparkcep does not reproduce"
    return None


def compile_row_format(operator: p.Operator, compile_operand: Callable[[p.Expression], Evaluator]) -> Evaluator:
    """The evaluator of a bound ``format_string_row_format``: its operands are the format, then
    the arguments; its options the arguments' Java classes, kinds, scales and type names."""
    evaluators = [compile_operand(o) for o in operator.operands]
    text_of, arguments = evaluators[0], evaluators[1:]
    options = dict(operator.options)
    classes, kinds, scales, names = options["classes"], options["kinds"], options["scales"], options["type_names"]
    span = operator.span

    def check(specifier: java_formatter.Specifier, position: int) -> None:
        why = refusal(specifier, names[position], classes[position])
        if why is not None:
            error = MatchRuntimeError(
                "UNSUPPORTED_MATCH_DEPENDENT_FORMAT",
                f"format_string / printf with a format read from a row: {why}; sparkcep raises instead of "
                "answering (apply the function inside the navigation, where Spark computes it per row)")
            error.span = span
            raise error

    def evaluate(ctx):
        text = text_of(ctx)
        if text is None:
            return None
        values = [argument(ctx) for argument in arguments]
        try:
            return java_formatter.formatter(text, classes, kinds, scales, check=check)(*values)
        except MatchRuntimeError as error:
            if error.span is None:
                error.span = span
            raise

    return evaluate
