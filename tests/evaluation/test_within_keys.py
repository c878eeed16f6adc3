"""WITHIN keys on Spark (issue 11; docs/semantics.md, "WITHIN w": key(last) - key(first) < w,
strict, in ORDER BY order): every ORDER BY form and key type, with expected rows written out."""

from __future__ import annotations

import pytest

import sparkcep

pytestmark = pytest.mark.spark


@pytest.fixture
def berlin(spark):
    previous = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", "Europe/Berlin")  # DST change on 2024-03-31
    yield spark
    spark.conf.set("spark.sql.session.timeZone", previous)


def _matches(spark, rows_sql, order, within):
    spark.sql(f"SELECT * FROM VALUES {rows_sql} AS t(id, k)").createOrReplaceTempView("t_within")
    sql = f"""SELECT * FROM t_within MATCH_RECOGNIZE (ORDER BY {order}
        MEASURES FIRST(A.id) AS a, LAST(B.id) AS b ONE ROW PER MATCH AFTER MATCH SKIP TO NEXT ROW
        PATTERN (A B) WITHIN {within} DEFINE A AS true, B AS true)"""
    return sorted(tuple(r) for r in sparkcep.sql(spark, sql).collect())


def test_asc_key_is_valid_sql(berlin):
    rows = "(1, TIMESTAMP'2024-01-01 10:00:00'), (2, TIMESTAMP'2024-01-01 10:00:30'), (3, TIMESTAMP'2024-01-01 12:00:00')"
    assert _matches(berlin, rows, "k ASC", "INTERVAL '1' MINUTE") == [(1, 2)]
    assert _matches(berlin, rows, "k ASC NULLS LAST", "INTERVAL '1' MINUTE") == [(1, 2)]


def test_desc_key_bounds_the_span_of_the_match(berlin):
    rows = "(1, TIMESTAMP'2024-01-01 10:00:00'), (2, TIMESTAMP'2024-01-01 10:00:30'), (3, TIMESTAMP'2024-01-01 12:00:00')"
    # in DESC order the rows are 3, 2, 1: only 2 -> 1 lies within a minute (3 -> 2 is 2 hours)
    assert _matches(berlin, rows, "k DESC", "INTERVAL '1' MINUTE") == [(2, 1)]


def test_timestamp_ntz_key_is_wall_clock_time(berlin):
    # 00:00 to 23:30 on the day clocks go forward is 23.5 hours of wall clock (22.5 real hours)
    rows = "(1, TIMESTAMP_NTZ'2024-03-31 00:00:00'), (2, TIMESTAMP_NTZ'2024-03-31 23:30:00')"
    assert _matches(berlin, rows, "k", "INTERVAL '23' HOUR") == []
    assert _matches(berlin, rows, "k", "INTERVAL '24' HOUR") == [(1, 2)]


def test_timestamp_key_is_instants(berlin):
    rows = "(1, TIMESTAMP'2024-03-31 00:00:00'), (2, TIMESTAMP'2024-03-31 23:30:00')"
    assert _matches(berlin, rows, "k", "INTERVAL '23' HOUR") == [(1, 2)]  # 22.5 real hours


def test_date_key_is_whole_days(berlin):
    rows = "(1, DATE'2024-03-31'), (2, DATE'2024-04-01')"
    assert _matches(berlin, rows, "k", "INTERVAL '1' DAY") == []  # exactly one day: not < 1 day
    assert _matches(berlin, rows, "k", "INTERVAL '25' HOUR") == [(1, 2)]


def test_bigint_key_is_exact_above_2_to_the_53(berlin):
    big = 2 ** 53
    rows = f"(1, CAST({big} AS BIGINT)), (2, CAST({big + 1} AS BIGINT)), (3, CAST({big + 3} AS BIGINT))"
    assert _matches(berlin, rows, "k", "1") == []  # through DOUBLE, 2^53 + 1 would equal 2^53
    assert _matches(berlin, rows, "k", "2") == [(1, 2)]
    assert _matches(berlin, rows, "k DESC", "3") == [(2, 1), (3, 2)]
