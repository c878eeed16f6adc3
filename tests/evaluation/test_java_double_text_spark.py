"""End to end on Spark: a MATCH_RECOGNIZE whose DEFINE prints a DOUBLE or FLOAT that combines two
rows (``CAST(A.d + B.d AS STRING)``, ``concat``, ``format_string('%s', ..)``, ``to_json``) or
rounds one (``round(A.d + B.d, -3)``) matches exactly where Spark's own evaluation of the same
condition, in a plain self-join, holds. Each value is compared with the text Java 17 prints for
it and with the text Java 19+ prints (written here as the JVMs printed them): on Spark's Java
17 the first matches and the second does not, so the test also checks that registration read
the session's Java version (``Semantics.java_version``) and that the values reach the Python
worker as Spark hands them over (FLOATs through Arrow)."""

from __future__ import annotations

import pytest

from tests.evaluation.two_row_matches import kind_condition, kinds_table, matched_and_joined

pytestmark = pytest.mark.spark

COLUMNS = {"d": "DOUBLE", "f": "FLOAT", "s": "STRING", "r": "DOUBLE"}
CONDITIONS = {
    "cast": "CAST({A}.d + {B}.d AS STRING) = {B}.s",
    "float": "CAST({A}.f + {B}.f AS STRING) = {B}.s",
    "concat": "concat({A}.d + {B}.d, '') = {B}.s",
    "format": "format_string('%s', {A}.d + {B}.d) = {B}.s",
    "json": "to_json(array({A}.d + {B}.d)) = concat('[', {B}.s, ']')",
    "round": "round({A}.d + {B}.d, -3) = {B}.r",
}
# (A's d or f, B's d or f, B's s: Java 17's text or Java 19+'s, B's r), as SQL literals
_D = "CAST('{}' AS DOUBLE)"
_F = "CAST('{}' AS FLOAT)"
VALUES = [
    ({"d": _D.format("1.0E23")}, {"d": "0.0D", "s": "'9.999999999999999E22'"}),  # Java 17
    ({"d": _D.format("1.0E23")}, {"d": "0.0D", "s": "'1.0E23'"}),  # Java 19+
    ({"d": _D.format("1152921504606846976")}, {"d": "0.0D", "s": "'1.15292150460684698E18'"}),
    ({"d": _D.format("1152921504606846976")}, {"d": "0.0D", "s": "'1.152921504606847E18'"}),
    ({"d": _D.format("9.9E-324")}, {"d": "0.0D", "s": "'1.0E-323'"}),
    ({"d": _D.format("9.9E-324")}, {"d": "0.0D", "s": "'9.9E-324'"}),
    ({"d": "0.1D"}, {"d": "0.2D", "s": "'0.30000000000000004'"}),
    ({"d": _D.format("-3.705988134436395E17")},
     {"d": "0.0D", "s": "'-3.7059881344363949E17'", "r": _D.format("-3.70598813443639E17")}),
    ({"d": _D.format("-3.705988134436395E17")},
     {"d": "0.0D", "s": "'-3.705988134436395E17'", "r": _D.format("-3.7059881344364E17")}),
    ({"d": _D.format("NaN")}, {"d": "0.0D", "s": "'NaN'"}),
    ({"d": "-0.0D"}, {"d": "-0.0D", "s": "'-0.0'"}),
    ({"d": _D.format("9999999.999999998")}, {"d": "0.0D", "s": "'9999999.999999998'"}),
    ({"d": _D.format("1.0E7")}, {"d": "0.0D", "s": "'1.0E7'"}),
    ({"f": _F.format("1.1754944E-38")}, {"f": _F.format("0"), "s": "'1.17549435E-38'"}),
    ({"f": _F.format("1.1754944E-38")}, {"f": _F.format("0"), "s": "'1.1754944E-38'"}),
    ({"f": _F.format("6.9593824E25")}, {"f": _F.format("0"), "s": "'6.9593823E25'"}),  # 64-bit overflow
    ({"f": _F.format("9.999998E7")}, {"f": _F.format("0"), "s": "'9.9999984E7'"}),
    ({"f": _F.format("1.1")}, {"f": _F.format("0"), "s": "'1.1'"}),
]


_condition = kind_condition(CONDITIONS)


def test_define_printing_doubles_between_rows_matches_as_spark_evaluates_it(spark):
    pairs = len(VALUES)
    table = kinds_table(COLUMNS, VALUES, CONDITIONS)
    spark.sql(table).localCheckpoint().createOrReplaceTempView("sparkcep_double_text_rows")
    ours, sparks = matched_and_joined(spark, "sparkcep_double_text_rows", _condition)
    assert ours == sparks
    java_17 = {0, 2, 4, 6, 7}  # pairs whose text is Java 17's (and differs from Java 19+'s but for 6)
    cast = {g for g in sparks if g < pairs}
    assert java_17 <= cast and not cast & {1, 3, 5, 8}, cast
    assert {pairs * 5 + 7} <= set(sparks) and pairs * 5 + 8 not in sparks  # round: Java 17's decimal
    assert {pairs + 13, pairs + 15, pairs + 16, pairs + 17} <= set(sparks) and pairs + 14 not in sparks
