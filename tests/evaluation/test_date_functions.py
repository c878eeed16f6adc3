"""Date arithmetic between rows of a match (``sparkcep.evaluation.datetime_functions``): the
errors Spark raises and the types it refuses.

The values, and the error classes Spark raised over the corpus (DATETIME_FIELD_OUT_OF_BOUNDS
of make_date, ILLEGAL_DAY_OF_WEEK of next_day, ARITHMETIC_OVERFLOW of add_months, CAST_OVERFLOW of
a BIGINT month count, year or day count beyond INT, and DATETIME_OUT_OF_PYTHON_RANGE where Spark's
DATE lies outside Python's dates), are checked against Spark's recorded answers by
``test_recorded_spark_answers.py``. Here: the refusals, at the operator, of what Spark refuses or
casts with rules not reproduced, and values worked out by hand.
"""

from __future__ import annotations

import datetime as dt

import pytest

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.errors import AnalysisError
from sparkcep.evaluation import datetime_functions as f
from sparkcep.evaluation.binding import Semantics, bind
from tests.evaluation.harness import lower

_TYPES = {"d": "date", "e": "date", "n": "int", "l": "bigint", "s": "string", "t": "timestamp", "x": "decimal(10,2)",
          "CAST(NULL AS INT": "int"}  # a value column Spark computes


def _bind(condition: str):
    values = ValueColumns()
    expression = lower(condition, values)
    return bind(expression, [_TYPES[t.strip("()`")] for t in values.texts],
                Semantics(ansi=True, time_zone="Europe/Berlin"), "")


@pytest.mark.parametrize("condition", [
    "date_add(A.d, B.l)",  # Spark: DATATYPE_MISMATCH (BIGINT days)
    "(A.d + B.l)",
    "date_sub(A.d, B.x)",
    "date_add(A.d, B.s)",  # Spark parses the STRING count
    "(B.n - A.d)",  # Spark refuses INT - DATE
    "(greatest(A.d, B.e) + NULL)",  # Spark: a TIMESTAMP (the NULL read as an interval)
    "(greatest(A.d, B.e) - NULL)",  # Spark: an INTERVAL DAY
    "make_date(A.n, B.x, 1)",  # Spark casts the DECIMAL to INT
    "next_day(A.d, B.n)",
    "unix_date(greatest(A.t, B.t))",  # Spark: DATE only
    "months_between(A.n, B.t)",
])
def test_refused_types(condition):
    with pytest.raises(AnalysisError) as error:
        _bind(condition)
    assert error.value.code == "MATCH_DEPENDENT_TYPE_MISMATCH"


@pytest.mark.parametrize("condition", [
    "months_between(A.t, B.t, B.n > 0)",  # roundOff must be a literal
    "dateadd(DAY, A.n, B.t)",  # three arguments: timestampadd, a TIMESTAMP
])
def test_refused_forms(condition):
    with pytest.raises(AnalysisError) as error:
        _bind(condition)
    assert error.value.code == "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION"


def test_result_types():
    assert _bind("(A.d + B.n)").type == "date" and _bind("(A.d - B.n)").name == "date_sub"
    assert _bind("(B.n + A.d)").name == "date_add"
    assert _bind("(greatest(A.d, B.e) + CAST(NULL AS INT))").type == "date"
    assert _bind("date_add(greatest(A.d, B.e), NULL)").type == "date"  # as Spark types it
    assert _bind("months_between(A.t, B.d)").type == "double"
    assert _bind("unix_date(greatest(A.d, B.e))").type == "int"
    # a STRING where Spark takes a DATE or a TIMESTAMP: cast as Spark's analysis casts it
    added = _bind("date_add(A.s, B.n)")
    assert added.type == "date" and added.operands[0].name == "converting_cast" and added.operands[0].type == "date"
    between = _bind("months_between(A.s, B.t)")
    assert between.type == "double" and between.operands[0].type == "timestamp"


def test_spot_values():
    """A few values worked out by hand from Spark's documented rules."""
    assert f.add_months(dt.date(2024, 1, 31), 1) == dt.date(2024, 2, 29)
    assert f.add_months(dt.date(2024, 3, 31), -1) == dt.date(2024, 2, 29)
    assert f.date_sub(dt.date(2024, 3, 1), 1) == dt.date(2024, 2, 29)
    assert f.next_day(True)(dt.date(2024, 2, 12), "mon") == dt.date(2024, 2, 19)  # never the day itself
    assert f.last_day(dt.date(2100, 2, 3)) == dt.date(2100, 2, 28)
    berlin = __import__("zoneinfo").ZoneInfo("Europe/Berlin")
    between = f.months_between(True, "Europe/Berlin")
    # 1997-02-28 10:30 to 1996-10-30: 4 months, then (28 - 30 days + 10.5 hours) / 31 days
    assert between(dt.datetime(1997, 2, 28, 10, 30, tzinfo=berlin), dt.datetime(1996, 10, 30, tzinfo=berlin)) \
        == 3.94959677
    assert f.months_between(False, "Europe/Berlin")(
        dt.datetime(1997, 2, 28, 10, 30, tzinfo=berlin), dt.datetime(1996, 10, 30, tzinfo=berlin)) \
        == 4 + (-2 * 86400 + 37800) / (31 * 86400)
    # both last days of their months: whole months, the times of day ignored
    assert between(dt.datetime(2024, 2, 29, 23, tzinfo=berlin), dt.datetime(2024, 1, 31, 1, tzinfo=berlin)) == 1.0
    # 03:30 on the night the clocks go forward is 2.5 hours after midnight
    assert f.months_between(False, "Europe/Berlin")(
        dt.datetime(2024, 3, 31, 3, 30, tzinfo=berlin), dt.datetime(2024, 3, 30, tzinfo=berlin)) \
        == (86400 + 9000) / (31 * 86400)


def test_add_months_at_the_int_bound_of_days():
    """add_months overflows only past INT's day count: +5881580-07-11 is day 2^31 - 1 (worked out
    by hand: 10957 days to 2000-01-01, then 14698 Gregorian cycles of 146097 days reach
    5881200-01-01, and 138984 days more, as from 2000-01-01 to 2380-07-11). Spark holds that date,
    Python's date does not; the next day is Spark's ARITHMETIC_OVERFLOW."""
    from sparkcep.errors import MatchRuntimeError

    cases = [(dt.date(2024, 7, 11), "DATETIME_OUT_OF_PYTHON_RANGE"), (dt.date(2024, 7, 12), "ARITHMETIC_OVERFLOW")]
    for start, code in cases:
        with pytest.raises(MatchRuntimeError) as raised:
            f.add_months(start, (5881580 - 2024) * 12)
        assert raised.value.code == code, start
    # and day -2^31 is -5877641-06-23: 10957 days to 2000-01-01 back, 14700 cycles back reach
    # -5878000-01-01, then 131295 days, as from 2000-01-01 to 2359-06-23; the day before overflows
    cases = [(dt.date(2024, 6, 23), "DATETIME_OUT_OF_PYTHON_RANGE"), (dt.date(2024, 6, 22), "ARITHMETIC_OVERFLOW")]
    for start, code in cases:
        with pytest.raises(MatchRuntimeError) as raised:
            f.add_months(start, (-5877641 - 2024) * 12)
        assert raised.value.code == code, start


def test_timestampdiff_counts_as_chronounit_between():
    """A week is 7 days of 86,400,000,000 microseconds (ChronoUnit.WEEKS): one microsecond short
    of it is 0 weeks."""
    weeks = f.timestampdiff("week", None)
    start = dt.datetime(2024, 1, 1)
    assert weeks(start, dt.datetime(2024, 1, 7, 23, 59, 59, 999999)) == 0
    assert weeks(start, dt.datetime(2024, 1, 8)) == 1
    assert weeks(dt.datetime(2024, 1, 8), start) == -1
    assert f.timestampdiff("day", None)(start, dt.datetime(2024, 1, 1, 23, 59, 59, 999999)) == 0
    # MONTH: LocalDateTime.until moves an end whose time of day is before the start's back one
    # day: 2024-02-16 09:00 is 1 month after 2024-01-15 10:00 (2024-02-15 counts), not 2 days
    assert f.timestampdiff("month", None)(dt.datetime(2024, 1, 15, 10), dt.datetime(2024, 2, 16, 9)) == 1
    assert f.timestampdiff("month", None)(dt.datetime(2024, 1, 15, 10), dt.datetime(2024, 2, 15, 10)) == 1  # same time
    # and an end before the start whose time of day is after the start's moves one day forward
    assert f.timestampdiff("month", None)(dt.datetime(2024, 2, 16, 9), dt.datetime(2024, 1, 15, 10)) == -1


def test_months_between_counts_the_real_seconds_of_a_25_hour_day():
    """Spark's monthsBetween takes the seconds since the local midnight as real time, truncated:
    2024-10-27 23:59:59.999999 in Berlin (the clocks went back that night) is 24 h 59 min
    59.999999 s after its midnight, 89999 whole seconds. From 2024-09-01 00:00: 1 month plus
    ((27 - 1) days of 86400 s + 89999 s) / (31 days of 86400 s) = 1 + 2336399 / 2678400 =
    1.8723114546..., rounded to 8 places."""
    berlin = __import__("zoneinfo").ZoneInfo("Europe/Berlin")
    end = dt.datetime(2024, 10, 27, 23, 59, 59, 999999, tzinfo=berlin)
    assert f.months_between(True, "Europe/Berlin")(end, dt.datetime(2024, 9, 1, tzinfo=berlin)) == 1.87231145
    # 23:00 that day is exactly 24 hours after its midnight: 1 + (26 + 1) / 31 = 1.870967741...
    end = dt.datetime(2024, 10, 27, 23, tzinfo=berlin)
    assert f.months_between(True, "Europe/Berlin")(end, dt.datetime(2024, 9, 1, tzinfo=berlin)) == 1.87096774


@pytest.mark.parametrize("year", [-999_999_999, 999_999_999, -1_000_000_000, 1_000_000_000])
def test_make_date_years_at_javas_bounds(year):
    """Java's LocalDate takes years -999,999,999 to 999,999,999 (ChronoField.YEAR): inside, a
    date far outside Python's (DATETIME_OUT_OF_PYTHON_RANGE, never a value); outside, Spark's
    invalid field: NULL, or DATETIME_FIELD_OUT_OF_BOUNDS with ANSI on."""
    from sparkcep.errors import MatchRuntimeError

    valid = abs(year) <= 999_999_999
    for ansi in (True, False):
        if not valid and not ansi:
            assert f.make_date(ansi)(year, 1, 1) is None
            continue
        with pytest.raises(MatchRuntimeError) as raised:
            f.make_date(ansi)(year, 1, 1)
        assert raised.value.code == ("DATETIME_OUT_OF_PYTHON_RANGE" if valid else "DATETIME_FIELD_OUT_OF_BOUNDS")


@pytest.mark.parametrize(("fields", "message"), [
    ((2023, 2, 29), "Invalid date 'February 29' as '2023' is not a leap year"),  # Spark's recorded message
    # Java's LocalDate.of names any other day past the month's end with the month's constant
    ((2024, 2, 30), "Invalid date 'FEBRUARY 30'"),
    ((2024, 4, 31), "Invalid date 'APRIL 31'"),
    ((2023, 11, 31), "Invalid date 'NOVEMBER 31'"),
    ((2024, 1, 32), "Invalid value for DayOfMonth (valid values 1 - 28/31): 32"),  # as Spark's recorded 127
])
def test_make_date_messages_are_javas(fields, message):
    from sparkcep.errors import MatchRuntimeError

    with pytest.raises(MatchRuntimeError) as raised:
        f.make_date(True)(*fields)
    assert raised.value.code == "DATETIME_FIELD_OUT_OF_BOUNDS" and raised.value.message == message
