"""Typing of the functions that make a TIMESTAMP or a day-time interval from numbers and move
timestamps between time zones (``sparkcep.evaluation.datetime_constructors``), with the casts
Spark's analysis inserts (read from its analysed plans):

* ``timestamp_seconds(x)``: any number (Spark casts nothing: a STRING or a NULL literal is
  refused, as Spark refuses them); ``timestamp_millis`` / ``timestamp_micros``: an integral
  number. A TIMESTAMP.
* ``make_dt_interval(days, hours, mins, secs)``: INTs (a BIGINT or a STRING cast to INT) and a
  DECIMAL(18, 6) of seconds (an integral number, a DECIMAL or a STRING cast to it; a DOUBLE or
  FLOAT is refused: Spark's cast of a DOUBLE to DECIMAL is not reproduced); an INTERVAL DAY TO
  SECOND.
* ``from_utc_timestamp(ts, zone)`` / ``to_utc_timestamp(ts, zone)``: a TIMESTAMP (a DATE or
  TIMESTAMP_NTZ cast to it, a STRING as ``CAST(x AS TIMESTAMP)``) and a STRING; a TIMESTAMP.
* ``convert_timezone([source,] target, ntz)``: STRINGs and a TIMESTAMP_NTZ (a DATE cast to it, a
  STRING as ``CAST(x AS TIMESTAMP_NTZ)``; a TIMESTAMP is refused: its cast to TIMESTAMP_NTZ is not
  reproduced); the session time zone when the source is left out; a TIMESTAMP_NTZ.
"""

from __future__ import annotations

from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation.binding.core import INT, INT_ARGUMENTS, STRING, TIMESTAMP, BinderBase
from sparkcep.evaluation.datetime_constructors import CONSTRUCTORS
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.plan import expressions as p

__all__ = ["CONSTRUCTORS", "DatetimeConstructorBinding"]

_NTZ = SqlType("timestamp_ntz")
_SECONDS = st.decimal_type(18, 6)
_INTERVAL = st.day_time_interval(0, 3)


class DatetimeConstructorBinding(BinderBase):
    def datetime_constructor(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        if name in ("timestamp_seconds", "timestamp_millis", "timestamp_micros"):
            if len(bound) != 1:
                raise self.refuse(e, types, "it takes one argument")
            (x, t), = bound
            if not (t.integral or (name == "timestamp_seconds" and t.numeric)):
                raise self.refuse(e, types, "a number is required" if name == "timestamp_seconds"
                                  else "an integral number is required")
            return self.typed(e, name, (x,), TIMESTAMP, t), TIMESTAMP
        if name == "make_dt_interval":
            if len(bound) > 4:
                raise self.refuse(e, types, "it takes at most four arguments")
            defaults = [(p.Constant(0, "int"), INT)] * 3 + [(p.Constant(0, str(_SECONDS)), _SECONDS)]
            bound = bound + defaults[len(bound):]
            operands = [self._count(e, x, t, types) for x, t in bound[:3]] + [self._seconds(e, *bound[3], types)]
            return self.typed(e, name, operands, _INTERVAL), _INTERVAL
        if name in ("from_utc_timestamp", "to_utc_timestamp"):
            if len(bound) != 2:
                raise self.refuse(e, types, "it takes two arguments")
            (x, t), (zone, tz) = bound
            if t.name not in ("timestamp", "date", "timestamp_ntz", "string", "void") or \
                    tz.name not in ("string", "void"):
                raise self.refuse(e, types, "a TIMESTAMP and a STRING zone are required")
            moment = self.converting_cast(e, x, t, TIMESTAMP) if t.name == "string" else self.cast(x, t, TIMESTAMP)
            return self.typed(e, name, (moment, self.cast(zone, tz, STRING)), TIMESTAMP), TIMESTAMP
        # convert_timezone([source,] target, ntz)
        if len(bound) == 2:
            bound = [(p.Constant(self.semantics.time_zone, "string"), STRING)] + bound
        if len(bound) != 3:
            raise self.refuse(e, types, "it takes two or three arguments")
        (source, ts), (target, tt), (x, t) = bound
        if t.name not in ("timestamp_ntz", "date", "string", "void") or \
                ts.name not in ("string", "void") or tt.name not in ("string", "void"):
            raise self.refuse(e, types, "STRING zones and a TIMESTAMP_NTZ are required (Spark's cast of a "
                                        "TIMESTAMP to TIMESTAMP_NTZ is not reproduced between rows)")
        local = self.converting_cast(e, x, t, _NTZ) if t.name == "string" else self.cast(x, t, _NTZ)
        operands = (self.cast(source, ts, STRING), self.cast(target, tt, STRING), local)
        return self.typed(e, name, operands, _NTZ), _NTZ

    def _count(self, e: p.Operator, x: p.Expression, t: SqlType, types) -> p.Expression:
        """A day, hour or minute count of ``make_dt_interval``: Spark casts it to INT."""
        if t.name in INT_ARGUMENTS:
            return self.cast(x, t, INT)
        if t.name == "bigint":
            return self.cast(x, t, INT)  # CAST_OVERFLOW with ANSI on, else wrapped
        if t.name == "string":
            return self.converting_cast(e, x, t, INT)
        raise self.refuse(e, types, "TINYINT, SMALLINT, INT or BIGINT counts are required")

    def _seconds(self, e: p.Operator, x: p.Expression, t: SqlType, types) -> p.Expression:
        """The seconds of ``make_dt_interval``: Spark casts them to DECIMAL(18, 6)."""
        if t.integral or t.decimal or t.null:
            return self.cast(x, t, _SECONDS)
        if t.name == "string":
            return self.converting_cast(e, x, t, _SECONDS)
        raise self.refuse(e, types, "the seconds must be an integral number, a DECIMAL or a STRING (Spark's cast "
                                    "of a DOUBLE to DECIMAL(18, 6) is not reproduced between rows)")

