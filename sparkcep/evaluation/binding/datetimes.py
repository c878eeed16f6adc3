"""Typing of dates, timestamps and day-time intervals: their arithmetic, differences, the date
functions (``sparkcep.evaluation.datetime_functions``) and the fields and truncations
(``sparkcep.evaluation.datetime_fields``), as Spark types them."""

from __future__ import annotations

import dataclasses

from sparkcep.evaluation import sql_types as st
from sparkcep.evaluation.binding.core import BIGINT, DATE, DOUBLE, INT, INT_ARGUMENTS, STRING, TIMESTAMP, BinderBase
from sparkcep.evaluation.sql_types import SqlType
from sparkcep.evaluation.datetime_fields import DATE_FIELDS, EPOCH_FUNCTIONS, NAME_FIELDS, TIME_FIELDS
from sparkcep.plan import expressions as p


class DatetimeBinding(BinderBase):
    def datetime_arithmetic(self, e: p.Operator, left, right) -> tuple[p.Expression, SqlType]:
        """``+`` and ``-`` over dates, timestamps and day-time intervals, typed as Spark types
        them (``sparkcep.evaluation.day_time_intervals``): datetime - datetime, datetime ±
        interval, interval + datetime, interval ± interval, interval * number, number *
        interval, interval / number. Year-month intervals and the rest (``%``, an interval
        times an interval) are refused."""
        (a, ta), (b, tb) = left, right
        name = e.name
        interval_a, interval_b = st.day_time_fields(ta), st.day_time_fields(tb)
        datetime_a, datetime_b = ta.name in st.DATETIME, tb.name in st.DATETIME
        if name in ("add", "sub") and interval_a and interval_b:
            t = st.common_type([ta, tb], ansi=self.semantics.ansi)
            return self.typed(e, name, (self.cast(a, ta, t), self.cast(b, tb, t)), t, t), t
        if name == "sub" and datetime_a and datetime_b:
            if ta.name == tb.name == "date":
                return self.typed(e, name, (a, b), _INTERVAL_DAY, ta), _INTERVAL_DAY
            operand = SqlType(max(ta.name, tb.name, "timestamp_ntz", key=st.DATETIME.index))
            return self.typed(e, name, (self.cast(a, ta, operand), self.cast(b, tb, operand)),
                              _INTERVAL_DAY_TO_SECOND, operand), _INTERVAL_DAY_TO_SECOND
        if (name in ("add", "sub") and datetime_a and interval_b) or (name == "add" and interval_a and datetime_b):
            moment, interval = (ta, interval_b) if datetime_a else (tb, interval_a)
            if moment.name == "date" and interval == (0, 0):  # a DATE plus whole days
                return self.typed(e, name, (a, b), moment, moment), moment
            operand = SqlType("timestamp") if moment.name == "date" else moment
            ca = self.cast(a, ta, operand) if datetime_a else a
            cb = b if datetime_a else self.cast(b, tb, operand)
            return self.typed(e, name, (ca, cb), operand, operand), operand
        if (name == "mul" and ((interval_a and tb.numeric) or (interval_b and ta.numeric))) or \
                (name == "div" and interval_a and tb.numeric):
            number = tb if interval_a else ta
            operator = "interval_multiply" if name == "mul" else "interval_divide"
            return self.typed(e, operator, (a, b), _INTERVAL_DAY_TO_SECOND, number), _INTERVAL_DAY_TO_SECOND
        raise self.refuse(e, [ta, tb], "between rows sparkcep subtracts dates and timestamps, adds or "
                                       "subtracts day-time intervals, multiplies or divides them by numbers, "
                                       "and nothing else over them")

    def datetime_difference(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``datediff(end, start)`` of DATEs (an INT); ``timestampdiff(unit, start, end)`` of two
        TIMESTAMPs or two TIMESTAMP_NTZs, a DATE cast to the other's type (a BIGINT)."""
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        if e.name == "datediff":  # Spark casts a TIMESTAMP[_NTZ] or a STRING to DATE
            if any(t.name not in ("date", "timestamp", "timestamp_ntz", "string", "void") for t in types):
                raise self.refuse(e, types, "DATEs are required (CAST(x AS DATE) inside the navigation)")
            return self.typed(e, "datediff", [self.as_datetime(e, x, t, DATE) for x, t in bound], INT), INT
        kinds = {t.name for t in types} - {"void", "date"}
        if not all(t.name in ("date", "timestamp", "timestamp_ntz", "void") for t in types) or len(kinds) > 1:
            raise self.refuse(e, types, "two TIMESTAMPs or two TIMESTAMP_NTZs are required")
        operand = SqlType(kinds.pop() if kinds else "timestamp")
        typed = self.typed(e, "timestampdiff", [self.cast(x, t, operand) for x, t in bound], BIGINT, operand)
        return dataclasses.replace(typed, options=typed.options + e.options), BIGINT

    def date_arithmetic(self, e: p.Operator, left, right) -> tuple[p.Expression, SqlType]:
        """``d + n`` and ``n + d`` are Spark's ``date_add(d, n)``, ``d - n`` its ``date_sub(d, n)``,
        for a DATE d and a TINYINT, SMALLINT or INT n (``d1 - d2`` is ``datetime_arithmetic``'s);
        every other mix is refused."""
        (a, ta), (b, tb) = left, right
        if e.name == "add" and ta.name != "date":
            (a, ta), (b, tb) = (b, tb), (a, ta)
        if ta.name != "date" or tb.name not in INT_ARGUMENTS or tb.null:
            why = ("Spark reads an untyped NULL here as an interval (DATE + NULL is a TIMESTAMP); "
                   "write CAST(NULL AS INT)" if tb.null
                   else "a DATE and a TINYINT, SMALLINT or INT number of days are required")
            raise self.refuse(e, [ta, tb], why)
        name = "date_add" if e.name == "add" else "date_sub"
        return self.typed(e, name, (a, b), DATE), DATE

    def date_function(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """The date functions of ``sparkcep.evaluation.datetime_functions``, with the operand
        types Spark takes (``DATE_FUNCTIONS``): a TIMESTAMP or TIMESTAMP_NTZ where Spark takes a
        DATE is cast to it (the local date, a TIMESTAMP's in the session time zone), a DATE or
        TIMESTAMP_NTZ where it takes a TIMESTAMP to that; day and month counts must be TINYINT,
        SMALLINT or INT (Spark casts a BIGINT, DECIMAL or STRING to INT, with its own overflow
        and parsing rules: refused here). A STRING where Spark takes a DATE or a TIMESTAMP is
        cast to it as ``CAST(x AS DATE)`` / ``CAST(x AS TIMESTAMP)`` (``as_datetime``)."""
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        wanted = DATE_FUNCTIONS[name]
        if len(bound) != len(wanted):
            raise self.refuse(e, types, f"it takes {len(wanted)} argument{'s' if len(wanted) > 1 else ''}")
        operands = []
        for (x, t), kind in zip(bound, wanted):
            if t.null:
                operands.append(x)
            elif kind == "int" and t.name in INT_ARGUMENTS:
                operands.append(x)
            elif kind == "int" and t.name == "bigint" and name in _BIGINT_CAST_TO_INT:
                operands.append(self.cast(x, t, INT))  # CAST_OVERFLOW with ANSI on, else wrapped
            elif kind == "string" and t.name == "string":
                operands.append(x)
            elif kind == "date" and t.name in ("date", "timestamp", "timestamp_ntz", "string") or \
                    kind == "timestamp" and t.name in ("date", "timestamp", "timestamp_ntz", "string") or \
                    kind == "date only" and t.name == "date":
                target = DATE if kind != "timestamp" else TIMESTAMP
                operands.append(self.as_datetime(e, x, t, target))
            else:
                expected = {"int": "TINYINT, SMALLINT or INT", "string": "STRING", "date only": "DATE",
                            "date": "DATE (or TIMESTAMP)", "timestamp": "TIMESTAMP (or DATE)"}[kind]
                raise self.refuse(e, types, f"{name} takes {', '.join(expected_of(k) for k in wanted)} "
                                            f"(not {str(t).upper()} where {expected} is expected)")
        result = DOUBLE if name == "months_between" else INT if name == "unix_date" else DATE
        typed = self.typed(e, name, operands, result)
        return dataclasses.replace(typed, options=typed.options + e.options), result

    def datetime_field(self, e: p.Operator) -> tuple[p.Expression, SqlType]:
        """``sparkcep.evaluation.datetime_fields``, with the operand types Spark takes: a
        TIMESTAMP or TIMESTAMP_NTZ where Spark takes a DATE is cast to its local date; a DATE
        where it takes a time of day is its local midnight (a TIMESTAMP); ``date_trunc`` casts a
        TIMESTAMP_NTZ to a TIMESTAMP, while the seconds since the epoch count a TIMESTAMP_NTZ
        from its own 1970-01-01 00:00; ``unix_seconds`` / ``unix_millis`` / ``unix_micros``
        refuse a DATE, as Spark does. A STRING is cast as Spark casts it (its analysed plans):
        to DATE for the fields of the date and ``trunc``, to TIMESTAMP for the fields of the
        time of day and ``date_trunc`` (``as_datetime``); the seconds since the epoch refuse
        it, as Spark does."""
        name = e.name
        bound = [self.bind(o) for o in e.operands]
        types = [t for _, t in bound]
        if name in ("date_trunc", "trunc"):
            (x, tx), (unit, tu) = bound[::-1] if name == "date_trunc" else bound
            if tu.name not in ("string", "void"):
                raise self.refuse(e, types, "the unit must be a STRING")
        else:
            (x, tx), = bound
        allowed = ("timestamp", "timestamp_ntz") if name in ("unix_seconds", "unix_millis", "unix_micros") else \
            ("date", "timestamp", "timestamp_ntz") if name in EPOCH_FUNCTIONS else \
            ("date", "timestamp", "timestamp_ntz", "string")
        if not (tx.null or tx.name in allowed):
            raise self.refuse(e, types, f"{' or '.join(a.upper() for a in allowed)} is required")
        if tx.null:
            tx = DATE if name in DATE_FIELDS or name == "trunc" else TIMESTAMP
        if name in DATE_FIELDS or name == "trunc":
            operand = DATE
        elif name in TIME_FIELDS or name in EPOCH_FUNCTIONS:
            operand = TIMESTAMP if tx.name in ("date", "string") else tx
        else:  # date_trunc
            operand = TIMESTAMP
        x = self.as_datetime(e, x, tx, operand)
        result = {"trunc": DATE, "date_trunc": TIMESTAMP, "second_with_fraction": st.decimal_type(8, 6)}.get(
            name, BIGINT if name in EPOCH_FUNCTIONS else STRING if name in NAME_FIELDS else INT)
        operands = (unit, x) if name == "date_trunc" else (x, unit) if name == "trunc" else (x,)
        return self.typed(e, name, operands, result, operand), result

    def as_datetime(self, e: p.Operator, x: p.Expression, t: SqlType, target: SqlType) -> p.Expression:
        """``x`` of type ``t`` where Spark takes a ``target`` DATE or TIMESTAMP: a STRING is cast
        as Spark's analysis casts it there, ``CAST(x AS DATE)`` / ``CAST(x AS TIMESTAMP)`` with the
        session's ANSI setting (``string_casts``: NULL, or CAST_INVALID_INPUT with ANSI on, for a
        string that is no date); a datetime by ``cast``."""
        if t.name == "string":
            return self.converting_cast(e, x, t, target)
        return self.cast(x, t, target)


_INTERVAL_DAY, _INTERVAL_DAY_TO_SECOND = st.day_time_interval(0, 0), st.day_time_interval(0, 3)


def temporal(t: SqlType) -> bool:
    """A DATE, a TIMESTAMP[_NTZ] or an interval: its arithmetic is ``datetime_arithmetic``'s."""
    return t.name in st.DATETIME or t.name.startswith("interval")


# the date functions (``sparkcep.evaluation.datetime_functions``) and the kinds of their operands
DATE_FUNCTIONS = {
    "date_add": ("date", "int"), "date_sub": ("date", "int"), "add_months": ("date", "int"),
    "months_between": ("timestamp", "timestamp"), "make_date": ("int", "int", "int"),
    "last_day": ("date",), "next_day": ("date", "string"), "unix_date": ("date only",),
    "date_from_unix_date": ("int",),
}


# the date functions whose INT operands Spark also takes as BIGINTs, cast to INT (date_add and
# date_sub refuse a BIGINT)
_BIGINT_CAST_TO_INT = ("add_months", "make_date", "date_from_unix_date")


def expected_of(kind: str) -> str:
    return {"int": "an INT", "string": "a STRING", "date only": "a DATE", "date": "a DATE",
            "timestamp": "a TIMESTAMP"}[kind]

