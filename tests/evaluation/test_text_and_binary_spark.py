"""End to end on Spark: a MATCH_RECOGNIZE whose DEFINE applies ``split``, ``regexp_extract_all``,
the STRING and BINARY conversions, ``soundex``, ``luhn_check``, ``quote``, ``factorial``,
``rint``, ``positive``, ``mask``, ``to_base32`` / ``from_base32`` and ``hash`` / ``xxhash64`` of
arrays to values of two rows matches
exactly where Spark's own evaluation of the same condition, in a plain self-join, holds. BINARY
values reach the Python worker as Spark hands them over (``bytes`` or ``bytearray``), so this
also checks that path."""

from __future__ import annotations

import pytest

from tests.evaluation.two_row_matches import kind_condition, kinds_table, matched_and_joined

pytestmark = pytest.mark.spark

COLUMNS = {"s": "STRING", "p": "STRING", "n": "INT", "bin": "BINARY", "cs": "STRING", "d": "DOUBLE"}
# (kind, condition over rows {A} and {B}): each kind is tried on every pair of rows below
CONDITIONS = {
    "split": "size(split({A}.s || {B}.s, {B}.p)) = 3",
    "split_limit": "element_at(split({A}.s || {B}.s, {B}.p, {B}.n), -1) = {A}.s",
    "split_empty": "array_contains(split({A}.s || {B}.s, ''), 'é')",
    "extract_all": "size(regexp_extract_all({A}.s || {B}.s, '([a-zé])', 1)) > 2",
    "base64": "base64(coalesce({A}.bin, {B}.bin)) LIKE '%=%'",
    "unbase64": "try_to_binary(base64({A}.bin) || {B}.s, 'base64') IS NULL",
    "to_binary": "to_binary({A}.s || {B}.s, 'utf-8') = coalesce({B}.bin, {A}.bin)",
    "encode": "hex(encode({A}.s || {B}.s, {B}.cs)) LIKE '%00%'",
    "decode": "decode(coalesce({B}.bin, {A}.bin), 'iso-8859-1') = {A}.s",
    "soundex": "soundex({A}.s || {B}.s) LIKE 'A%'",
    "luhn": "luhn_check({A}.p || {B}.p)",
    "quote": "quote({A}.s || {B}.s) = '\\'a\\''",
    "factorial": "factorial(({A}.n + {B}.n) % 25) > 100",
    "rint": "rint({A}.d + {B}.d) = 2.0D",
    "positive": "positive({A}.d - {B}.d) > 0",
    "hash": "hash(array({A}.s, {B}.s)) % 2 = 0",
    "xxhash64": "xxhash64(array({A}.n, {B}.n, NULL)) % 3 = 0",
    "mask": "mask({A}.s || {B}.s, 'U', NULL, 'd') LIKE '%x%'",
    "base32": "from_base32(to_base32(coalesce({A}.bin, {B}.bin))) = {B}.bin",
}
# (A's row, B's row), each a dict of SQL literals for some columns (the others NULL)
PAIRS = [
    ({"s": "'a,b'", "p": "'7992'", "n": "3", "bin": "X'616263'", "d": "0.75D"},
     {"s": "',c'", "p": "','", "n": "2", "bin": "X'FF'", "cs": "'utf-16'", "d": "1.25D"}),
    ({"s": "'aé'", "p": "'79927398'", "n": "20", "bin": "X'E9'", "d": "1.5D"},
     {"s": "'x1y'", "p": "'\\\\d'", "n": "-1", "bin": "X''", "cs": "'utf-8'", "d": "0.5D"}),
    ({"s": "'Ash'", "p": "'713'", "n": "4", "bin": "X'00'", "d": "-0.0D"},
     {"s": "'craft'", "p": "'713'", "n": "1", "bin": "X'4142'", "cs": "'UTF-32'", "d": "2.5D"}),
    ({"s": "''", "p": "'0'", "n": "10", "bin": "X'6869'", "d": "1.0D"},
     {"s": "'a'", "p": "''", "n": "0", "bin": "X'21'", "cs": "'us-ascii'", "d": "1.0D"}),
    ({"s": "CAST(NULL AS STRING)", "p": "'x'", "n": "CAST(NULL AS INT)", "d": "CAST('NaN' AS DOUBLE)"},
     {"s": "'b'", "p": "'b'", "n": "5", "bin": "X'C3A9'", "cs": "'iso-8859-1'", "d": "1.0D"}),
]


_condition = kind_condition(CONDITIONS)


def test_define_with_text_and_binary_functions_between_rows_matches_as_spark_evaluates_it(spark):
    pairs = len(PAIRS)
    table = kinds_table(COLUMNS, PAIRS, CONDITIONS)
    spark.sql(table).localCheckpoint().createOrReplaceTempView("sparkcep_text_binary_rows")
    ours, sparks = matched_and_joined(spark, "sparkcep_text_binary_rows", _condition)
    assert ours == sparks
    kinds_matching = {g // pairs for g in sparks}
    assert len(kinds_matching) >= 12, (sparks, kinds_matching)
    assert len(sparks) <= len(CONDITIONS) * pairs - 20


def test_java_classes_of_every_code_point_as_spark_masks_them(spark):
    """``mask(s, 'U', 'l', 'd', 'o')`` over every code point but the surrogates, in one string
    (handed to Spark as a DataFrame): each character sparkcep classifies (``java_characters``)
    is masked as Spark masks it; the others are the ones it refuses."""
    from sparkcep.errors import SparkCepError
    from sparkcep.evaluation.java_characters import java_class

    characters = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
    masked = spark.createDataFrame([(characters,)], "s string").selectExpr("mask(s, 'U', 'l', 'd', 'o')").first()[0]
    assert len(masked) == len(characters)
    letters = {"upper": "U", "lower": "l", "digit": "d", "other": "o"}
    wrong, refused = [], 0
    for character, spark_class in zip(characters, masked):
        try:
            ours = letters[java_class(character, "mask")]
        except SparkCepError:
            refused += 1
            continue
        if ours != spark_class:
            wrong.append(f"U+{ord(character):04X}: Spark {spark_class}, sparkcep {ours}")
    assert not wrong, wrong[:20]
    assert refused < 900_000  # the code points Python does not know, and the 122 Unicode 14 additions
