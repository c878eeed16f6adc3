"""End to end on Spark: a MATCH_RECOGNIZE whose DEFINE formats and parses values of two rows
with datetime patterns (``date_format(greatest(A.ts, B.ts), 'h:mm a XXX')``,
``to_timestamp(concat(A.s, B.s), 'yyyy-MM-dd HH:mm')``, ``from_unixtime(A.n + B.n)``, ...)
matches exactly where Spark's own evaluation of the same condition, in a plain self-join,
holds. The session time zone is America/Los_Angeles (the corpus's is Europe/Berlin): texts in
its gap and overlap, negative offsets, midnight and noon on the 12-hour clock, text months in
any case, adjacent numbers, offsets in the text, and texts no pattern reads (``try_`` forms)."""

from __future__ import annotations

import pytest

from tests.evaluation.two_row_matches import kind_condition, matched_and_joined, typed_row

pytestmark = pytest.mark.spark

ZONE = "America/Los_Angeles"
COLUMNS = {"ts": "TIMESTAMP", "s": "STRING", "n": "BIGINT", "d": "DATE"}
CONDITIONS = {
    "format": "date_format(greatest({A}.ts, {B}.ts), 'yyyy-MM-dd h:mm a XXX') = {B}.s",
    "format_date": "date_format(greatest({A}.d, {B}.d), 'EEE d MMM yy O') = {B}.s",
    "parse": "to_timestamp(concat({A}.s, {B}.s), 'yyyy-MM-dd HH:mm') = {B}.ts",
    "parse_try": "try_to_timestamp(concat({A}.s, {B}.s), 'yyyyMMddHHmm[XXX]') < {B}.ts",
    "parse_ntz": "CAST(to_timestamp_ntz(concat({A}.s, {B}.s), 'yyyy-MM-dd HH:mm') AS STRING) LIKE '%:30:00'",
    "to_date": "try_to_date(concat({A}.s, {B}.s), 'd MMM yyyy h:mm a') = {B}.d",
    "unix": "unix_timestamp(concat({A}.s, {B}.s), 'yyyy-MM-dd HH:mm') - {A}.n > 0",
    "from_unixtime": "from_unixtime({A}.n + {B}.n) = {B}.s",
}
# (A's row, B's row), each SQL literals for some columns (the others NULL)
PAIRS = [
    ({"s": "'2024-03-10 '", "n": "1710064800", "ts": "TIMESTAMP'2024-03-10 01:59:00'", "d": "DATE'2024-03-10'"},
     {"s": "'02:30'", "ts": "TIMESTAMP'2024-03-10 03:30:00'", "n": "0", "d": "DATE'2024-03-09'"}),
    ({"s": "'2024-11-03 '", "n": "1730622600", "ts": "TIMESTAMP'2024-11-03 01:30:00'", "d": "DATE'2024-11-03'"},
     {"s": "'01:30'", "ts": "TIMESTAMP'2024-11-03 01:30:00'", "n": "3600", "d": "DATE'2024-11-01'"}),
    ({"s": "'2024-01-01 '", "n": "1704096000", "ts": "TIMESTAMP'2024-01-01 00:00:00'", "d": "DATE'2024-01-01'"},
     {"s": "'2024-01-01 12:00 AM -08:00'", "ts": "TIMESTAMP'2023-12-31 23:59:59'", "n": "-28800",
      "d": "DATE'2023-12-31'"}),
    ({"s": "'5 MAR 2024 '", "n": "0", "ts": "TIMESTAMP'2024-06-15 12:00:00'", "d": "DATE'2024-03-05'"},
     {"s": "'12:30 pm'", "ts": "TIMESTAMP'2024-06-15 11:00:00'", "n": "0", "d": "DATE'2024-03-05'"}),
    ({"s": "'20240305'", "n": "1", "ts": "TIMESTAMP'2024-06-15 12:00:00'", "d": "DATE'2024-03-05'"},
     {"s": "'1030+05:30'", "ts": "TIMESTAMP'2024-03-05 00:00:00'", "n": "-1", "d": "DATE'2024-03-04'"}),
    ({"s": "'2024-02-30 '", "n": "0", "ts": "TIMESTAMP'2024-06-15 12:00:00'", "d": "DATE'2024-06-15'"},
     {"s": "'10:00'", "ts": "TIMESTAMP'2024-06-15 00:00:00'", "n": "0", "d": "DATE'2024-06-15'"}),
    ({"s": "'0001-01-01 '", "n": "-62135596800", "ts": "TIMESTAMP'0001-01-02 00:00:00'", "d": "DATE'0001-01-02'"},
     {"s": "'00:00'", "ts": "TIMESTAMP'0001-01-01 00:00:00'", "n": "28800", "d": "DATE'0001-01-01'"}),
    ({"s": "'2024-07-04 '", "n": "1720076400", "ts": "TIMESTAMP'2024-07-04 00:00:00'", "d": "DATE'2024-07-04'"},
     {"s": "'2024-07-04 00:00:00'", "ts": "TIMESTAMP'2024-07-04 00:00:00'", "n": "0", "d": "DATE'2024-07-04'"}),
]


_condition = kind_condition(CONDITIONS)


def _row(g: int, i: int, kind: str, cells: dict) -> str:
    return typed_row(COLUMNS, g, i, cells, kind)


def test_define_with_datetime_patterns_between_rows_matches_as_spark_evaluates_it(spark):
    rows, g = [], 0
    for kind in CONDITIONS:
        for a, b in PAIRS:
            rows += [_row(g, 0, kind, a), _row(g, 1, kind, b)]
            g += 1
    previous = (spark.conf.get("spark.sql.session.timeZone"), spark.conf.get("spark.sql.ansi.enabled"))
    spark.conf.set("spark.sql.session.timeZone", ZONE)
    spark.conf.set("spark.sql.ansi.enabled", "false")  # to_timestamp of 2024-02-30 is NULL, not an error
    try:
        spark.sql(" UNION ALL ".join(rows)).localCheckpoint().createOrReplaceTempView("sparkcep_pattern_rows")
        ours, sparks = matched_and_joined(spark, "sparkcep_pattern_rows", _condition)
    finally:
        spark.conf.set("spark.sql.session.timeZone", previous[0])
        spark.conf.set("spark.sql.ansi.enabled", previous[1])
    assert ours == sparks
    kinds_matching = {group // len(PAIRS) for group in sparks}
    assert len(sparks) >= 10 and len(kinds_matching) >= 6, (sparks, kinds_matching)
    assert len(sparks) <= g - 12
