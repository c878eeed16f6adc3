"""CAST of a STRING between rows where Spark's recorded answers cannot check it: a time alone
cast to TIMESTAMP (today's date, as Spark's ``LocalDate.now(zone)`` reads it: the answer changes
every day), a zone the JVM knows and Python's tz database does not (``SystemV/EST5``), and
sparkcep's own refusals under ``TRY_CAST`` (a value Spark has is never answered as NULL). The
shapes themselves are checked against Spark's answers in ``corpus.py`` (``sd``, ``st1``, ...)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation.explicit_casts import explicit_cast
from sparkcep.evaluation.java_zone_ids import JAVA_REGION_IDS
from sparkcep.evaluation.sql_types import parse

STRING = parse("string")
BERLIN = "Europe/Berlin"


def _cast(target: str, ansi: bool = False, tried: bool = False):
    return explicit_cast(STRING, parse(target), ansi, BERLIN, tried)


@pytest.mark.parametrize("text, zone, time", [
    ("10:15", BERLIN, dt.time(10, 15)), ("T10:15:30", BERLIN, dt.time(10, 15, 30)),
    ("10:15:30Z", "UTC", dt.time(10, 15, 30)), ("23:59:59.5-12:00", "-12:00", dt.time(23, 59, 59, 500000)),
])
def test_a_time_alone_is_today_in_its_zone(text, zone, time):
    tz = dt.timezone(-dt.timedelta(hours=12)) if zone == "-12:00" else ZoneInfo(zone)
    before = dt.datetime.now(tz).date()
    value = _cast("timestamp")(text)
    after = dt.datetime.now(tz).date()
    local = value.astimezone(tz)
    assert local.time() == time and local.date() in (before, after)


def test_a_time_alone_is_no_timestamp_ntz_and_no_date():
    assert _cast("timestamp_ntz")("10:15") is None and _cast("date")("10:15") is None
    with pytest.raises(MatchRuntimeError) as raised:
        _cast("timestamp_ntz", ansi=True)("10:15")
    assert raised.value.code == "CAST_INVALID_INPUT"


def test_a_leading_blank_before_t_makes_no_time():
    """Spark reads a leading ``T`` as a time only at the string's very first byte."""
    assert _cast("timestamp")(" T10:15") is None and _cast("timestamp")("T10:15") is not None


@pytest.mark.parametrize("tried", [False, True])
def test_a_zone_the_jvm_knows_and_python_does_not_is_refused_not_null(tried):
    assert "SystemV/EST5" in JAVA_REGION_IDS
    cast = _cast("timestamp", ansi=False, tried=tried)
    with pytest.raises(MatchRuntimeError) as raised:
        cast("2024-06-30 10:00:00 SystemV/EST5")
    assert raised.value.code == "TIME_ZONE_UNKNOWN_TO_PYTHON"


@pytest.mark.parametrize("target, text", [("date", "10000-01-01"), ("timestamp_ntz", "-0001-01-01 00:00:00"),
                                          ("timestamp", "0000-12-31 23:00:00Z")])
def test_try_cast_raises_a_date_python_cannot_hold(target, text):
    with pytest.raises(MatchRuntimeError) as raised:
        _cast(target, tried=True)(text)
    assert raised.value.code == "DATETIME_OUT_OF_PYTHON_RANGE"


def test_java_zone_ids_are_javas():
    assert {"Europe/Berlin", "US/Pacific", "Etc/GMT+5", "GMT0", "SystemV/PST8"} <= JAVA_REGION_IDS
    assert not {"Factory", "ROC", "localtime", "EST", "America/Coyhaique"} & JAVA_REGION_IDS


def test_the_invalid_input_message_is_sparks():
    """Spark 4.3's message (recorded: ``CAST(coalesce(A.sn, B.sn) AS DECIMAL(5,2))``, ANSI on)."""
    with pytest.raises(MatchRuntimeError) as raised:
        _cast("decimal(5,2)", ansi=True)("1_0")
    assert raised.value.message.startswith(
        'The value \'1_0\' of the type "STRING" cannot be cast to "DECIMAL(5,2)" because it is malformed.')


def test_binary_is_utf8():
    assert _cast("binary")("é😀") == "é😀".encode("utf-8")


def test_a_timestamp_in_an_overlap_equals_the_one_pyarrow_hands_over():
    """PyArrow gives a TIMESTAMP column's values in the session's zone (a ZoneInfo); Python's ==
    between such a value in Berlin's overlap and the same instant in UTC is False (PEP 495), so
    the cast answers in the session's zone (found by test_string_casts_spark.py), and between
    two values of that zone Python compares local times (the first and the second 02:30 equal),
    so the comparison operators compare instants."""
    import pyarrow as pa

    from sparkcep.evaluation.operators import comparison

    eq, lt = comparison("eq", parse("timestamp")), comparison("lt", parse("timestamp"))
    first, second = pa.array([1729989000000000, 1729992600000000], pa.timestamp("us", tz=BERLIN)).to_pylist()
    for text in ("2024-10-27 02:30:00", "2024-10-27T00:30:00Z", "2024-10-27 02:30:00+02:00"):
        assert eq(_cast("timestamp")(text), first) and not eq(_cast("timestamp")(text), second), text
    later = _cast("timestamp")("2024-10-27 02:30:00+01:00")
    assert eq(later, second) and not eq(later, first) and lt(first, later)
    assert not eq(first, second) and lt(first, second)
