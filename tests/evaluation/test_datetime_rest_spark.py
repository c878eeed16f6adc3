"""End to end on Spark: a MATCH_RECOGNIZE whose DEFINE applies the rest of the datetime functions
to values of two rows matches exactly where Spark's own evaluation of the same condition, in a
plain self-join, holds: STRING days and times where Spark takes a DATE or a TIMESTAMP
(``datediff(B.day, A.day)`` over days read from a CSV file, ``hour``, ``months_between``,
``date_trunc``, ``date_format``, ``trunc``, ``dayname`` of strings that Spark's analysis casts),
``to_timestamp_ltz`` / ``try_to_date`` without a pattern, ``timestamp_seconds`` /
``timestamp_millis`` of sums and products of two rows' numbers, ``from_utc_timestamp`` /
``to_utc_timestamp`` / ``convert_timezone`` with a zone read from a row, and
``make_dt_interval`` of two rows' fields. In Europe/Berlin, with STRINGs in its daylight-saving
gap and overlap, zones as offsets, short ids and region ids, and DOUBLE seconds with fractions
(one batched query each way).
"""

from __future__ import annotations

import pytest

from tests.evaluation.two_row_matches import kind_condition, kinds_table, matched_and_joined

pytestmark = pytest.mark.spark

ZONE = "Europe/Berlin"
COLUMNS = {"day": "STRING", "k": "INT", "n": "BIGINT", "x": "DOUBLE", "dec": "DECIMAL(20,7)", "z": "STRING",
           "t": "TIMESTAMP", "u": "TIMESTAMP_NTZ"}
CONDITIONS = {
    "datediff": "datediff({B}.day, {A}.day) > 1",
    "date_diff_ts": "date_diff({B}.t, {A}.day) < 100",
    "year": "year(coalesce({A}.day, {B}.day)) = 2024",
    "hour": "hour(greatest({A}.day, {B}.day)) >= 2",
    "months_between": "months_between({B}.day, {A}.day) > 0.5",
    "date_add": "date_add({A}.day, {B}.k) >= DATE'2024-03-31'",
    "trunc": "trunc(greatest({A}.day, {B}.day), 'MM') = DATE'2024-10-01'",
    "date_trunc": "date_trunc('HOUR', greatest({A}.day, {B}.day)) > {B}.t",
    "date_format": "date_format(greatest({A}.day, {B}.day), 'yyyy-MM-dd HH:mm XXX') LIKE '%+02:00'",
    "dayname": "dayname(greatest({A}.day, {B}.day)) IN ('Sun', 'Mon')",
    "monthname": "monthname(least({A}.day, {B}.day)) = 'Mar'",
    "ltz": "to_timestamp_ltz(greatest({A}.day, {B}.day)) > {B}.t",
    "try_date": "try_to_date(concat({A}.day, {B}.z)) IS NULL",
    "seconds": "timestamp_seconds({A}.n + {B}.n) > {B}.t",
    "seconds_double": "timestamp_seconds({A}.x + {B}.x) < {A}.t",
    "seconds_decimal": "timestamp_seconds({A}.dec - {B}.dec) >= TIMESTAMP'1970-01-01 01:00:01'",
    "millis": "timestamp_millis({A}.n * {B}.k) > {B}.t",
    "from_utc": "from_utc_timestamp({A}.t, {B}.z) > {B}.t",
    "to_utc": "to_utc_timestamp(greatest({A}.t, {B}.t), {A}.z) < {B}.t",
    "to_utc_string": "to_utc_timestamp(coalesce({A}.day, {B}.day), {B}.z) < {A}.t",
    "convert": "convert_timezone({A}.z, {B}.z, {A}.u) > {B}.u",
    "convert_session": "convert_timezone({B}.z, greatest({A}.u, {B}.u)) < {A}.u",
    "interval": "make_dt_interval({A}.k, {B}.k, 0, {B}.dec) > INTERVAL '1 12:00:00' DAY TO SECOND",
}
# (A's row, B's row), SQL literals per column (the others NULL); every day a valid date, every
# zone a valid one (Spark's ANSI casts and zone ids would fail the whole query otherwise)
PAIRS = [
    ({"day": "'2024-03-31 02:30'", "k": "1", "n": "1711846800", "x": "1711846800.5D", "dec": "1.0000000",
      "z": "'Asia/Seoul'", "t": "TIMESTAMP'2024-03-31 03:30:00'", "u": "TIMESTAMP_NTZ'2024-03-31 02:30:00'"},
     {"day": "'2024-10-27 02:30:00'", "k": "2", "n": "0", "x": "-0.25D", "dec": "0.0000010", "z": "'+05:30'",
      "t": "TIMESTAMP'2024-03-31 01:30:00'", "u": "TIMESTAMP_NTZ'2024-10-27 02:30:00'"}),
    ({"day": "'2024-01-01'", "k": "40", "n": "-1", "x": "0.1D", "dec": "-1.5000000", "z": "'America/New_York'",
      "t": "TIMESTAMP'2024-10-27 02:30:00'", "u": "TIMESTAMP_NTZ'2024-03-10 02:30:00'"},
     {"day": "' 2024-3-5T23:59:59Z'", "k": "-3", "n": "1730000000", "x": "1.23456789D", "dec": "2.5000000",
      "z": "'PST'", "t": "TIMESTAMP'2024-10-27 02:30:00'", "u": "TIMESTAMP_NTZ'2024-03-10 02:30:00'"}),
    ({"day": "'2024-02-29 12:00:00+05:30'", "k": "0", "n": "1709208000", "x": "-1.5D", "dec": "0.0000010",
      "z": "'UTC'", "t": "TIMESTAMP'2024-01-01 00:00:00'", "u": "TIMESTAMP_NTZ'2024-11-03 01:30:00'"},
     {"day": "'2024-03-31'", "k": "1", "n": "3600", "x": "3600.999999D", "dec": "1.0000000",
      "z": "'Europe/Berlin'", "t": "TIMESTAMP'2024-02-29 08:00:00'", "u": "TIMESTAMP_NTZ'2024-11-03 01:30:00'"}),
    ({"day": "'2024-10-27 01:59:59.999999'", "k": "3", "n": "86400", "x": "1e9D", "dec": "-0.0000050",
      "z": "'GMT-3'", "t": "TIMESTAMP'2024-10-27 01:00:00'", "u": "TIMESTAMP_NTZ'2021-12-06 00:00:00'"},
     {"day": "'2024-10-28T04:05:06.7'", "k": "12", "n": "-86400", "x": "-1e9D", "dec": "0.5000000",
      "z": "'Asia/Kolkata'", "t": "TIMESTAMP'1970-01-01 00:00:00'", "u": "TIMESTAMP_NTZ'2021-12-06 00:00:00'"}),
    ({"day": "'2023-12-31T23:30:00-01:00'", "k": "1", "n": "0", "x": "0.0D", "dec": "0.0000000",
      "z": "'Z'", "t": "TIMESTAMP'2024-03-31 02:00:00'", "u": "TIMESTAMP_NTZ'2024-03-31 01:59:59'"},
     {"day": "'2024-12-30 10:00'", "k": "1", "n": "1", "x": "0.0000005D", "dec": "-1.0000000",
      "z": "'Europe/London'", "t": "TIMESTAMP'2023-12-31 23:00:00'", "u": "TIMESTAMP_NTZ'2024-03-31 02:00:00'"}),
]


_condition = kind_condition(CONDITIONS)


def test_define_with_the_rest_of_the_datetime_functions_matches_as_spark_evaluates_it(spark):
    pairs = len(PAIRS)
    table = kinds_table(COLUMNS, PAIRS, CONDITIONS)
    previous = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", ZONE)
    try:
        spark.sql(table).localCheckpoint().createOrReplaceTempView("sparkcep_datetime_rest_rows")
        ours, sparks = matched_and_joined(spark, "sparkcep_datetime_rest_rows", _condition)
    finally:
        spark.conf.set("spark.sql.session.timeZone", previous)
    assert ours == sparks
    # the rows tell the cases apart: some groups match and some do not, in most kinds
    kinds_matching = {g // pairs for g in sparks}
    assert len(sparks) >= 20 and len(kinds_matching) >= 12, (sparks, kinds_matching)
    assert len(sparks) <= len(CONDITIONS) * pairs - 20
