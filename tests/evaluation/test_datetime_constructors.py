"""The rest of the datetime functions between rows, without Spark: what the corpus's recorded
answers (``corpus.py``'s block "the rest of the datetime functions") cannot hold. The typed
refusals (a STRING where Spark refuses one, a TIMESTAMP for ``convert_timezone``, DOUBLE seconds
for ``make_dt_interval``, the TIME functions, with their message), sparkcep's own refusal of a
date Python cannot hold where Spark answers a field of it, a zone the JVM knows and Python's tz
database does not, and values worked out by hand (Spark's order of ``make_dt_interval``'s
partial sums, a FLOAT's seconds, ``to_utc_timestamp`` in a gap)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.errors import SparkCepError
from sparkcep.evaluation.binding import Semantics
from tests.evaluation.harness import Refused, _Error, evaluate_all, lower

BERLIN = Semantics(ansi=True, time_zone="Europe/Berlin")
_UTC = dt.timezone.utc


def _values(qualified: str, types: list[str], values: list, semantics: Semantics = BERLIN) -> set:
    expression = lower(qualified, ValueColumns())
    return {repr(v) if isinstance(v, _Error) else v
            for v in evaluate_all(expression, values, types, semantics).values()}


def _refusal(qualified: str, types: list[str]) -> str:
    try:
        expression = lower(qualified, ValueColumns())
        _values(qualified, types, [None] * len(types))
    except SparkCepError as error:
        return f"{error.code}: {error}"
    except Refused as refused:
        return str(refused)
    raise AssertionError(f"{qualified} was accepted: {expression}")


@pytest.mark.parametrize("qualified, types", [
    ("unix_seconds(coalesce(A.x, B.x))", ["string"]),  # Spark: DATATYPE_MISMATCH
    ("unix_date(coalesce(A.x, B.x))", ["string"]),
    ("timestamp_seconds(coalesce(A.x, B.x))", ["string"]),
    ("timestamp_millis(coalesce(A.x, B.x))", ["double"]),
    ("to_char(coalesce(A.x, B.x), 'yyyy')", ["string"]),  # Spark reads it as a number format
    ("convert_timezone('UTC', 'Asia/Seoul', coalesce(A.x, B.x))", ["timestamp"]),
    ("make_dt_interval(1, 2, 3, coalesce(A.x, B.x))", ["double"]),
    ("from_utc_timestamp(coalesce(A.x, B.x), 'UTC')", ["int"]),
])
def test_what_spark_refuses_or_sparkcep_does_not_reproduce_is_refused_when_binding(qualified, types):
    assert _refusal(qualified, types) == "MATCH_DEPENDENT_TYPE_MISMATCH"


@pytest.mark.parametrize("call", ["make_time(A.h, B.h, 0)", "to_time(coalesce(A.s, B.s))",
                                  "time_diff('HOUR', A.t, B.t)", "time_trunc('HOUR', coalesce(A.t, B.t))",
                                  "time_to_seconds(coalesce(A.t, B.t))", "time_from_micros(A.n + B.n)"])
def test_the_time_functions_are_refused_at_the_call_saying_why(call):
    message = _refusal(f"{call} IS NULL", [])
    assert message.startswith("UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION"), message
    assert "TIME value" in message and "UNSUPPORTED_TIME_TYPE" in message and "inside the navigation" in message
    assert "(line 1, column 72)" in message  # at the call


def test_a_string_date_python_cannot_hold_is_refused_where_spark_answers_a_field_of_it():
    # Spark: year(CAST('20245-01-01' AS DATE)) is 20245; Python's dates end at 9999
    for text in ("20245-01-01", "-0001-01-01"):
        assert _values("year(coalesce(A.s, B.s))", ["string"], [text]) == {"<error DATETIME_OUT_OF_PYTHON_RANGE>"}
    assert _values("year(coalesce(A.s, B.s))", ["string"], ["2024-02-30"], Semantics(False, "Europe/Berlin")) == {None}
    assert _values("year(coalesce(A.s, B.s))", ["string"], ["2024-02-30"]) == {"<error CAST_INVALID_INPUT>"}


def test_make_dt_interval_adds_as_spark_does_seconds_then_days_hours_minutes():
    # the sum fits a BIGINT of microseconds, but seconds + days does not: Spark's addExact
    # after the seconds fails first (INTERVAL_ARITHMETIC_OVERFLOW, recorded in the corpus too)
    seconds = Decimal("999999999999.999999")
    qualified = "make_dt_interval(A.d, B.h, 0, coalesce(A.s, B.s))"
    assert _values(qualified, ["int", "int", "decimal(18,6)"], [106751991, -2147483647, seconds]) == \
        {"<error INTERVAL_ARITHMETIC_OVERFLOW>"}
    assert _values(qualified, ["int", "int", "decimal(18,6)"], [-1, 25, Decimal("61.5")]) == \
        {dt.timedelta(hours=1, seconds=61.5)}


def test_timestamp_seconds_truncates_a_float_times_a_million_in_double_arithmetic():
    # 1.0000001F is 1.00000011920928955078125: times 1e6 is 1000000.119..., truncated to 1 second
    assert _values("timestamp_seconds(coalesce(A.x, B.x))", ["float"], [1.00000011920928955078125]) == \
        {dt.datetime(1970, 1, 1, 0, 0, 1, tzinfo=_UTC)}
    assert _values("timestamp_seconds(coalesce(A.x, B.x))", ["double"], [float("nan")]) == {None}
    assert _values("timestamp_seconds(coalesce(A.x, B.x))", ["decimal(20,7)"], [Decimal("1.0000001")]) == \
        {"<error FRACTION_BELOW_MICROSECONDS>"}


def test_to_utc_timestamp_reads_a_time_in_the_gap_forward_and_in_the_overlap_the_earlier_offset():
    # the UTC date-time of ts, read in Berlin: 02:30 on 2024-03-31 does not exist (03:30 CEST),
    # on 2024-10-27 it is the first pass (CEST)
    qualified = "to_utc_timestamp(coalesce(A.t, B.t), 'Europe/Berlin')"
    gap, overlap = dt.datetime(2024, 3, 31, 2, 30, tzinfo=_UTC), dt.datetime(2024, 10, 27, 2, 30, tzinfo=_UTC)
    assert _values(qualified, ["timestamp"], [gap]) == {dt.datetime(2024, 3, 31, 1, 30, tzinfo=_UTC)}
    assert _values(qualified, ["timestamp"], [overlap]) == {dt.datetime(2024, 10, 27, 0, 30, tzinfo=_UTC)}


def test_a_zone_the_jvm_knows_and_python_does_not_is_refused_on_the_row():
    qualified = "from_utc_timestamp(A.t, coalesce(A.z, B.z))"
    moment = dt.datetime(2024, 1, 1, tzinfo=_UTC)
    assert _values(qualified, ["timestamp", "string"], [moment, "SystemV/EST5"]) == \
        {"<error TIME_ZONE_UNKNOWN_TO_PYTHON>"}
    for zone in ("europe/berlin", " UTC", "Foo/Bar", "+19:00"):
        assert _values(qualified, ["timestamp", "string"], [moment, zone]) == {"<error INVALID_TIMEZONE>"}, zone
