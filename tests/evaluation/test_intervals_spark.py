"""End to end on Spark: a MATCH_RECOGNIZE whose DEFINE subtracts timestamps of two rows and
compares or shifts by day-time intervals (``B.ts - A.ts < INTERVAL '90' MINUTE``, ``B.ts <=
A.ts + B.slack``) matches exactly where Spark's own evaluation of the same condition, in a plain
self-join, holds. The rows straddle Europe/Berlin's daylight-saving changes, where Spark's
local-time arithmetic and elapsed time disagree, so a Python side that subtracted instants would
match other groups.
"""

from __future__ import annotations

import datetime as dt

import pytest

from tests.evaluation.two_row_matches import kind_condition, matched_and_joined

pytestmark = pytest.mark.spark

ZONE = "Europe/Berlin"
# (A's local time, B's local time, B's slack): each pair once per condition kind below
PAIRS = [
    ("2024-03-31 01:30:00", "2024-03-31 03:10:00", "0 01:00:00"),    # 40 min elapsed, 100 local
    ("2024-03-31 01:00:00", "2024-03-31 03:00:00", "0 02:00:00"),    # 1 h elapsed, 2 h local
    ("2024-10-27 01:45:00", "2024-10-27 03:00:00", "0 02:00:00"),    # 2 h 15 elapsed, 75 min local
    ("2024-10-26 02:30:00", "2024-10-27 02:20:00", "1 00:00:00"),    # a day on lands in the overlap
    ("2024-03-30 02:30:00", "2024-03-31 03:20:00", "1 00:00:00"),    # a day on lands in the gap
    ("2024-03-30 12:00:00", "2024-03-31 12:30:00", "1 00:00:00"),    # a day on is 23 hours here
    ("2024-06-01 10:00:00", "2024-06-01 11:29:59", "0 01:29:59"),    # no change: equal
    ("2024-06-01 10:00:00", "2024-06-02 09:00:00", "0 23:00:00"),
]
CONDITIONS = {
    "within": "{B}.ts - {A}.ts < INTERVAL '90' MINUTE",
    "slack": "{B}.ts <= {A}.ts + {B}.slack",
    "days": "{B}.d - {A}.d >= INTERVAL '1' DAY AND {B}.ts - {B}.slack >= {A}.ts - INTERVAL '1' HOUR",
}


_condition = kind_condition(CONDITIONS)


def test_define_with_day_time_intervals_between_rows_matches_as_spark_evaluates_it(spark):
    rows = []
    for g, (kind, (a, b, slack)) in enumerate((k, p) for k in CONDITIONS for p in PAIRS):
        for i, (local, day) in enumerate(((a, a[:10]), (b, b[:10]))):
            rows.append(f"({g}, {i}, '{kind}', TIMESTAMP'{local}', DATE'{day}', INTERVAL '{slack}' DAY TO SECOND)")
    previous = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", ZONE)
    try:
        spark.sql("SELECT * FROM VALUES " + ", ".join(rows) + " AS t(g, i, kind, ts, d, slack)") \
            .localCheckpoint().createOrReplaceTempView("sparkcep_interval_rows")
        ours, sparks = matched_and_joined(spark, "sparkcep_interval_rows", _condition)
        joined = spark.sql("""
            SELECT A.g, A.ts AS a, B.ts AS b, B.slack FROM sparkcep_interval_rows A
            JOIN sparkcep_interval_rows B ON A.g = B.g AND A.i = 0 AND B.i = 1""").collect()
    finally:
        spark.conf.set("spark.sql.session.timeZone", previous)
    assert ours == sparks
    # the data tells local-time arithmetic from elapsed time: on instants (PySpark's datetimes
    # are the same instants) the 'within' and 'slack' kinds would match other groups
    elapsed = set()
    for r in joined:
        kind = list(CONDITIONS)[r.g // len(PAIRS)]
        if kind == "within" and r.b - r.a < dt.timedelta(minutes=90) or kind == "slack" and r.b <= r.a + r.slack:
            elapsed.add(r.g)
    differing = elapsed.symmetric_difference(sparks) & set(range(2 * len(PAIRS)))
    assert len(differing) >= 4, differing
