"""End to end on Spark: a MATCH_RECOGNIZE whose DEFINE applies ``format_string`` / ``printf``,
``typeof`` and ``decode`` to values of two rows matches exactly where Spark's own evaluation of
the same condition, in a plain self-join, holds. The formatted strings are compared through
``md5`` (about half the rows pass, and any character that differs changes the answer): Java's
integer conversions and flags over negatives and the extremes, ``%h`` of a STRING (Spark's
UTF8String hash), precisions and widths in UTF-16 units over characters outside the BMP, ``%S``
of ``ß``, Spark Decimal's ``toString`` (``1E-7``), DATEs and TIMESTAMPs as the numbers Spark
passes, NULLs printing ``null``; ``decode``'s NULL-safe comparison; ``typeof`` of a sum.
"""

from __future__ import annotations

import pytest

from tests.evaluation.two_row_matches import kind_condition, kinds_table, matched_and_joined

pytestmark = pytest.mark.spark

ZONE = "Europe/Berlin"
COLUMNS = {"s": "STRING", "k": "INT", "b": "BIGINT", "d": "DECIMAL(20,8)", "dt": "DATE", "ts": "TIMESTAMP",
           "flag": "BOOLEAN"}
CONDITIONS = {
    "ints": "md5(format_string('%d|%x|%o|%08d|%,d|%(d|%+d|%#X|%h|%c|%-9d|', {A}.k, {B}.k, {A}.k, {B}.k, {A}.b, "
            "{B}.k, {A}.k, {B}.b, {A}.b, abs({B}.k % 1000) + 65, {A}.k)) < '8'",
    "strings": "md5(format_string('%s|%.2s|%5s|%-6S|%h|%b|%<H', {A}.s, {B}.s, {A}.s, {B}.s, {A}.s, {B}.s)) < '8'",
    "decimal": "md5(format_string('%s|%S|%12s|%.3s', {A}.d, {B}.d, {A}.d, {B}.d)) < '8'",
    "datetime": "md5(format_string('%s|%d|%x|%h', {A}.dt, {B}.ts, {A}.ts, {B}.dt)) < '8'",
    "boolean": "format_string('%b/%B', {A}.flag, {B}.flag) = 'true/FALSE'",
    "printf": "printf('%2$s%1$s', {A}.s, {B}.s) LIKE '%😀%'",
    "typeof": "typeof({A}.k + {B}.d) = 'decimal(21,8)' AND {B}.k > 0",
    "decode": "decode({A}.k, {B}.k, 'same', {B}.b, 'b', 'other') IN ('same', 'b')",
    "decode_null": "decode({A}.s, {B}.s, 1, 2) IS NULL",
}
# (A's row, B's row), SQL literals for some columns (the others NULL)
PAIRS = [
    ({"s": "'é😀x'", "k": "-7", "b": "-1", "d": "-0.0000001", "dt": "DATE'2024-03-05'",
      "ts": "TIMESTAMP'2024-03-31 03:30:00'", "flag": "true"},
     {"s": "'ßa'", "k": "1234567", "b": "9223372036854775807", "d": "1.5", "dt": "DATE'1969-12-31'",
      "ts": "TIMESTAMP'1969-12-31 23:59:59.999999'", "flag": "false"}),
    ({"s": "''", "k": "-2147483648", "b": "-9223372036854775808", "d": "0", "dt": "DATE'0001-01-01'",
      "ts": "TIMESTAMP'2024-10-27 02:30:00'", "flag": "false"},
     {"s": "'😀'", "k": "-2147483648", "b": "-2147483648", "d": "123456789012.12345678", "flag": "true"}),
    ({"k": "0", "b": "0", "d": "0.00000100"},
     {"s": "'a😀b'", "k": "65", "b": "7", "d": "-99999999999.99999999", "dt": "DATE'2024-02-29'",
      "ts": "TIMESTAMP'2024-02-29 12:00:00'", "flag": "false"}),
    ({"s": "'ΣΑΣ'", "k": "2147483647", "b": "3037000500", "d": "0.00000001", "flag": "true"},
     {"k": "2147483647", "b": "2147483647", "flag": "false"}),
    ({"s": "'a b'", "k": "12345", "b": "-10", "d": "-2.5", "dt": "DATE'2024-03-31'", "ts": "TIMESTAMP'2024-03-31 01:30:00'"},
     {"s": "'a b'", "k": "-12345", "b": "12345", "d": "2.5", "dt": "DATE'2024-03-31'",
      "ts": "TIMESTAMP'2024-03-31 01:30:00'", "flag": "false"}),
    ({"s": "'日本語'", "k": "-1", "b": "1", "d": "99999999999.99999999", "flag": "true"},
     {"s": "'😀😀'", "k": "1", "b": "-1", "d": "0.00001000", "dt": "DATE'9999-12-31'", "flag": "false"}),
]


_condition = kind_condition(CONDITIONS)


def test_define_with_format_string_typeof_and_decode_between_rows_matches_as_spark_evaluates_it(spark):
    pairs = len(PAIRS)
    table = kinds_table(COLUMNS, PAIRS, CONDITIONS)
    previous = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", ZONE)
    try:
        spark.sql(table).localCheckpoint().createOrReplaceTempView("sparkcep_format_rows")
        ours, sparks = matched_and_joined(spark, "sparkcep_format_rows", _condition)
    finally:
        spark.conf.set("spark.sql.session.timeZone", previous)
    assert ours == sparks
    # the rows tell the cases apart: some groups match and some do not, in most kinds
    kinds_matching = {g // pairs for g in sparks}
    assert len(sparks) >= 12 and len(kinds_matching) >= 6, (sparks, kinds_matching)
    assert len(sparks) <= len(CONDITIONS) * pairs - 12


# Java's exceptions: (format, the one-row table's columns it formats); Spark's task failure names
# the exception and its message, which sparkcep's ILLEGAL_FORMAT repeats
FAILING = [("%d", "s"), ("%c", "b"), ("%q", "i"), ("%s %s", "i"), ("%-d", "i"), ("%05s", "i"), ("%(x", "ni"),
           ("%#s", "n"), ("%f", "d"), ("%99999999999s", "i"), ("%00$s", "i"), ("%+ d", "i"), ("%c", "ni"),
           ("%<s", "i"), ("%.2d", "i")]
ONE_ROW = {"i": ("INT", "1", 1), "ni": ("INT", "-1", -1), "n": ("INT", "NULL", None), "s": ("STRING", "'x'", "x"),
           "b": ("BIGINT", "-1", -1), "d": ("DECIMAL(3,2)", "1.50", "1.50")}


def test_the_java_exceptions_are_the_ones_spark_raises(spark):
    import re
    from decimal import Decimal

    from sparkcep.errors import MatchRuntimeError
    from sparkcep.evaluation.binding.formatting import java_class
    from sparkcep.evaluation.java_formatter import apply
    from sparkcep.evaluation.sql_types import parse

    cells = ", ".join(f"CAST({sql} AS {t}) AS {name}" for name, (t, sql, _) in ONE_ROW.items())
    spark.sql(f"SELECT {cells}").localCheckpoint().createOrReplaceTempView("sparkcep_format_row")
    for fmt, column in FAILING:
        with pytest.raises(Exception) as failed:
            spark.sql(f"SELECT format_string('{fmt}', {column}) FROM sparkcep_format_row").collect()
        sparks = re.search(r"java\.util\.\w+Exception: [^\n]*", str(failed.value)).group(0).strip()
        t, _, value = ONE_ROW[column]
        with pytest.raises(MatchRuntimeError) as raised:
            apply(fmt, (java_class(parse(t.lower())),), [Decimal(value) if t.startswith("DECIMAL") else value])
        assert raised.value.code == "ILLEGAL_FORMAT"
        assert f"{sparks} (" in str(raised.value), (fmt, sparks, str(raised.value))
