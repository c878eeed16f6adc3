"""End to end on Spark: a MATCH_RECOGNIZE whose DEFINE casts a STRING built from two rows
(``CAST(A.s || B.s AS DATE) > A.d``, ``to_timestamp_ntz(A.s || B.s)``, ``CAST(... AS DOUBLE)``,
``CAST(... AS DECIMAL(5,2))``, ...) matches exactly where Spark's own evaluation of the same
condition, in a plain self-join, holds (ANSI off: a malformed string is NULL in both). The
strings are split between the rows, so sparkcep's Python side parses them: Europe/Berlin's
daylight-saving gap and overlap, zones in the string, times alone (today's date, which Spark
reads when it builds the rows and again when it matches: the same date but at midnight),
Java's number grammar beside Python's, DECIMAL rounding.
"""

from __future__ import annotations

import pytest

from tests.evaluation.two_row_matches import kind_condition, matched_and_joined

pytestmark = pytest.mark.spark

ZONE = "Europe/Berlin"
COLUMNS = {"kind": "STRING", "s": "STRING", "d": "DATE", "ts": "TIMESTAMP", "ntz": "TIMESTAMP_NTZ", "x": "DOUBLE",
           "f": "FLOAT", "n": "DECIMAL(5,2)"}
CONDITIONS = {
    "date": "CAST({A}.s || {B}.s AS DATE) = {A}.d",
    "to_date": "to_date({A}.s || {B}.s) > {A}.d",
    "timestamp": "CAST({A}.s || {B}.s AS TIMESTAMP) = {A}.ts",
    "try_to_timestamp": "try_to_timestamp({A}.s || {B}.s) <= {A}.ts",
    "to_timestamp": "to_timestamp({A}.s || {B}.s) IS NULL",
    "ntz": "to_timestamp_ntz({A}.s || {B}.s) = {A}.ntz",
    "double": "CAST({A}.s || {B}.s AS DOUBLE) = {A}.x",
    "float": "TRY_CAST({A}.s || {B}.s AS FLOAT) = {A}.f",
    "decimal": "CAST({A}.s || {B}.s AS DECIMAL(5,2)) = {A}.n",
    "binary": "CAST({A}.s || {B}.s AS BINARY) = CAST({A}.s AS BINARY)",
}
# (A's string, B's string): their concatenation is the string cast; A's other columns are what
# Spark casts the whole string to (so a condition of the form `= A.x` holds where both agree)
PAIRS = {
    "date": [("2024-", "02-29"), ("2024", ""), (" 2024-3-", "5T junk"), ("2023-02-", "29"), ("+2024-", "01-01"),
             ("2024/", "01/01"), ("", "")],
    "to_date": [("2024-", "12-31"), ("2024-01-", "01 x"), ("12", "3")],
    "timestamp": [("2024-03-31 ", "02:30"), ("2024-10-27 ", "02:30:00"), ("2024-01-01T10:00:00", "Z"),
                  ("2024-01-01 10:00:00 ", "UTC+1"), ("2024-06-30 10:00:00 ", "America/New_York"), ("10:", "15"),
                  ("1893-03-31 ", "23:59:59"), ("2024-06-30 10:00:00 ", "Foo/Bar"), ("2024-06-30 10:00:00.", "1234567")],
    "try_to_timestamp": [("2024-06-30 ", "12:00"), ("x", "y")],
    "to_timestamp": [("2024-06-30 ", "12:00"), ("2024-06-30 25", ":00")],
    "ntz": [("2024-03-31 ", "02:30"), ("2024-06-30 10:00:00", "+05:00"), ("T10", ":15"), ("2024-06-30 10:00:00 ", "Bad/Zone")],
    "double": [("1", "d"), ("0x1.8", "p1"), ("-", "NaN"), ("in", "f"), ("1_", "000"), ("1e", "400"), ("\t2.5", "\n")],
    "float": [("3.4028235", "e38"), ("3.4028236", "e38"), ("1.00000005960464477539062", "51"), ("0x1p-", "150")],
    "decimal": [("1.00", "5"), ("999.99", "5"), ("-0.00", "4"), ("1e", "2"), ("\uff11", "2"), ("1", "_0")],
    "binary": [("é", "😀"), ("", "")],
}


def _rows(kind: str, a: str, b: str) -> tuple[str, str]:
    whole = (a + b).replace("'", "''")

    def cell(name: str, t: str) -> str:
        return f"TRY_CAST('{whole}' AS {t})"

    cells = {"kind": f"'{kind}'", "s": "'" + a.replace("'", "''") + "'", "d": cell("d", "DATE"),
             "ts": cell("ts", "TIMESTAMP"), "ntz": cell("ntz", "TIMESTAMP_NTZ"), "x": cell("x", "DOUBLE"),
             "f": cell("f", "FLOAT"), "n": cell("n", "DECIMAL(5,2)")}
    if kind == "to_date":
        cells["d"] = "DATE'2024-06-30'"
    first = ", ".join(f"CAST({cells[c]} AS {t}) AS {c}" for c, t in COLUMNS.items())
    second = ", ".join(f"CAST({v} AS {t}) AS {c}" for c, t in COLUMNS.items()
                       for v in ["'" + b.replace("'", "''") + "'" if c == "s" else f"'{kind}'" if c == "kind"
                                 else "NULL"])
    return first, second


_condition = kind_condition(CONDITIONS)


def test_define_casting_strings_between_rows_matches_as_spark_evaluates_it(spark):
    rows, g = [], 0
    for kind, pairs in PAIRS.items():
        for a, b in pairs:
            first, second = _rows(kind, a, b)
            rows += [f"SELECT {g} AS g, 0 AS i, {first}", f"SELECT {g} AS g, 1 AS i, {second}"]
            g += 1
    settings = {"spark.sql.session.timeZone": ZONE, "spark.sql.ansi.enabled": "false"}
    previous = {k: spark.conf.get(k) for k in settings}
    for k, v in settings.items():
        spark.conf.set(k, v)
    try:
        spark.sql(" UNION ALL ".join(rows)).localCheckpoint().createOrReplaceTempView("sparkcep_string_cast_rows")
        ours, sparks = matched_and_joined(spark, "sparkcep_string_cast_rows", _condition)
    finally:
        for k, v in previous.items():
            spark.conf.set(k, v)
    assert ours == sparks
    assert len(sparks) >= 15 and len(sparks) <= g - 8, (sparks, g)  # the rows tell matches apart
