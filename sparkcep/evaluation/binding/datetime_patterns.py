"""Typing of the functions with Spark's datetime patterns (``sparkcep.evaluation.datetime_patterns``):
the pattern, a literal (lowering keeps its text and offsets), is compiled here once, so a pattern
Spark refuses fails when the query is compiled, at the pattern, with Spark's error class.

* ``date_format(x, fmt)`` (also ``to_char`` / ``to_varchar`` of a date or timestamp): x a
  TIMESTAMP, or a DATE or TIMESTAMP_NTZ, which Spark casts to one (``format_instant`` reads
  them so, without a cast node: the cast's UTC instant is out of Python's range at year 1's
  first hour east of Greenwich), a STRING;
* ``from_unixtime(n [, fmt])``: n an integral number (cast to BIGINT), a STRING;
* ``to_timestamp`` / ``to_timestamp_ltz`` / ``try_to_timestamp`` (TIMESTAMP), ``to_timestamp_ntz``
  (TIMESTAMP_NTZ), ``to_date`` / ``try_to_date`` (DATE), ``unix_timestamp`` /
  ``to_unix_timestamp`` (BIGINT) of a STRING.

``date_format`` of a STRING casts it to TIMESTAMP first, as Spark does (``CAST(x AS
TIMESTAMP)``, ``string_casts``). Spark also accepts a STRING (cast to BIGINT) and DOUBLE or
DECIMAL seconds for ``from_unixtime``, and a DATE or TIMESTAMP for the parsing functions (the
pattern then unread): refused here (``MATCH_DEPENDENT_TYPE_MISMATCH``), except
``unix_timestamp`` of a DATE or TIMESTAMP, which ``datetime_field`` types.
"""

from __future__ import annotations

import dataclasses

from sparkcep.errors import AnalysisError
from sparkcep.evaluation.binding.core import BIGINT, DATE, STRING, TIMESTAMP, BinderBase
from sparkcep.evaluation.datetime_patterns import (DEFAULT_PATTERN, ZONE_NAMES, PatternError, UnsupportedPattern,
                                                   compile_pattern)
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.plan import expressions as p

PATTERN_FUNCTIONS = ("date_format", "from_unixtime", "to_timestamp", "to_timestamp_ntz", "to_date", "unix_timestamp")
_PARSED = {"to_timestamp": TIMESTAMP, "to_timestamp_ntz": SqlType("timestamp_ntz"), "to_date": DATE,
           "unix_timestamp": BIGINT}
_INTEGRAL = ("tinyint", "smallint", "int", "bigint")


class DatetimePatternBinding(BinderBase):
    def datetime_pattern(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        options = dict(e.options)
        function = options.get("function", e.name)
        (x, tx), = (self.bind(o) for o in e.operands)
        if e.name == "unix_timestamp" and tx.name in ("date", "timestamp", "timestamp_ntz"):
            return self.datetime_field(e)  # the pattern is not read (Spark's UnixTimestamp of a datetime)
        parsing = e.name in _PARSED
        if e.name == "date_format":
            if tx.name == "string" and function == "date_format":  # Spark's CAST(x AS TIMESTAMP) first
                x, tx = self.converting_cast(e, x, tx, TIMESTAMP), TIMESTAMP
            if not (tx.null or tx.name in ("date", "timestamp", "timestamp_ntz")):
                raise self.refuse(e, [tx], f"'{function}' formats a DATE, TIMESTAMP or TIMESTAMP_NTZ here (to_char "
                                           "formats numbers and STRINGs with another pattern language)")
            operand, result = (TIMESTAMP if tx.null else tx), STRING  # formatted as its TIMESTAMP (format_instant)
        elif e.name == "from_unixtime":
            if not (tx.null or tx.name in _INTEGRAL):
                raise self.refuse(e, [tx], "whole seconds (an integral number) are required")
            operand, result = BIGINT, STRING
        else:
            if not (tx.null or tx.name == "string"):
                raise self.refuse(e, [tx], f"'{function}' parses a STRING here (of a DATE or TIMESTAMP Spark "
                                           "ignores the pattern: CAST it instead)")
            operand, result = STRING, _PARSED[e.name]
        pattern = options.get("pattern")
        compiled = self._compiled(e, DEFAULT_PATTERN if pattern is None else pattern, parsing, options)
        name = "unix_timestamp_of_string" if e.name == "unix_timestamp" else e.name
        typed = self.typed(e, name, (self.cast(x, tx if not tx.null else operand, operand),), result, operand)
        extra = (("pattern", compiled.text), ("try", function.startswith("try_")), ("function", function))
        return dataclasses.replace(typed, options=typed.options + extra), result

    def _compiled(self, e: p.Operator, pattern: str, parsing: bool, options: dict):
        start, end = options.get("pattern_at") or e.span or (0, 0)
        try:
            compiled = compile_pattern(pattern, parsing)
            if compiled.zone_names() and self.semantics.time_zone not in ZONE_NAMES:
                raise UnsupportedPattern(f"the zone names z and v are known for the session time zones "
                                         f"{', '.join(sorted(ZONE_NAMES))}, not for {self.semantics.time_zone}")
            return compiled
        except PatternError as error:
            code, message = error.code, error.message
        except UnsupportedPattern as error:
            code = "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION"
            message = (f"the datetime pattern '{pattern}' of '{options.get('function', e.name)}' cannot be evaluated "
                       f"between rows of a match: {error}; apply the function inside the navigation, where Spark "
                       "computes it per row")
        if self.source:
            raise AnalysisError.at_offset(code, message, self.source, start, max(1, end - start))
        raise AnalysisError(code, message)
