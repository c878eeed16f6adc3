"""End to end on Spark: a MATCH_RECOGNIZE whose DEFINE applies higher-order functions with
lambdas to values of two rows (``exists(A.nums, x -> x > B.k)``, ``aggregate(A.nums, B.l,
(acc, x) -> ...)``, ``zip_with(A.nums, B.nums, ...)``, ``transform_keys(A.m, (k, v) -> ...)``,
``map_zip_with``, nested lambdas, ...) matches exactly where Spark's own evaluation of the same condition, in a
plain self-join, holds. The arrays and maps reach the Python worker as Spark hands them over
(PyArrow lists, maps as lists of key-value tuples). The rows hold NULL arrays, NULL elements,
empty arrays, arrays of unequal lengths, NaN and -0.0, and keys that collide once transformed.

The batch runs with two settings other than Spark's defaults, which registration reads:
``spark.sql.mapKeyDedupPolicy`` LAST_WIN (``transform_keys`` onto equal keys keeps the last
value instead of failing) and ``spark.sql.legacy.followThreeValuedLogicInArrayExists`` false
(``exists`` is FALSE, not NULL, when no element satisfies it and some gives NULL); the corpus
(``tests/evaluation/corpus.py``) checks the defaults.
"""

from __future__ import annotations

import pytest

from tests.evaluation.two_row_matches import kind_condition, kinds_table, matched_and_joined

pytestmark = pytest.mark.spark

COLUMNS = {"nums": "ARRAY<INT>", "k": "INT", "l": "BIGINT", "d": "DOUBLE", "ds": "ARRAY<DOUBLE>", "tag": "STRING",
           "tags": "ARRAY<STRING>", "m": "MAP<STRING,INT>"}
# (kind, condition over rows {A} and {B}): each kind is tried on every pair of rows below
CONDITIONS = {
    "exists": "exists({A}.nums, x -> x > {B}.k)",
    "exists_null": "exists({A}.nums, x -> x > {B}.k) IS NULL",
    "exists_false": "NOT exists({A}.nums, x -> x > {B}.k)",
    "forall": "forall({B}.nums, x -> x >= {A}.k)",
    "forall_null": "forall({B}.nums, x -> x >= {A}.k) IS NULL",
    "transform": "array_contains(transform({A}.nums, (x, i) -> x * i + {B}.k), 3)",
    "transform_size": "size(transform({A}.nums, x -> x + {B}.k)) = 2",
    "filter": "size(filter({A}.tags, x -> x <> {B}.tag)) = 1",
    "filter_index": "size(filter({B}.nums, (x, i) -> i < {A}.k OR x IS NULL)) = 1",
    "aggregate": "aggregate({A}.nums, {B}.l, (acc, x) -> acc + coalesce(x, 0), acc -> acc > 5)",
    "aggregate_strings": "aggregate({A}.tags, coalesce({B}.tag, ''), (acc, x) -> concat(acc, coalesce(x, '-'))) LIKE 'b%'",
    "zip_with": "size(zip_with({A}.nums, {B}.nums, (x, y) -> x + y)) = 3",
    "zip_pad": "element_at(zip_with({A}.nums, {B}.nums, (x, y) -> coalesce(x, y)), 2) = 4",
    "nan": "exists({A}.ds, x -> x = {B}.d)",
    "map_filter": "cardinality(map_filter({A}.m, (k, v) -> v > {B}.k)) = 1",
    "transform_values": "element_at(transform_values({A}.m, (k, v) -> v + {B}.k), 'a') = 3",
    "transform_keys": "array_contains(map_keys(transform_keys({A}.m, (k, v) -> concat(k, coalesce({B}.tag, '?')))), 'ab')",
    # LAST_WIN: every key becomes B.tag, the last entry's value stays
    "dedup": "element_at(transform_keys({A}.m, (k, v) -> coalesce({B}.tag, '?')), coalesce({B}.tag, '?')) = 2",
    "nested": "exists({A}.nums, x -> exists({B}.nums, y -> y = x))",
    "closure": "exists({A}.nums, x -> x = {B}.k + {A}.k)",
    "map_zip_with": "map_zip_with({A}.m, map_filter({A}.m, (k, v) -> v > {B}.k), (k, x, y) -> coalesce(y, x * 10))['a'] = 10",
}
NAN = "CAST('NaN' AS DOUBLE)"
# (A's row, B's row), each a dict of SQL literals for some columns (the others NULL)
PAIRS = [
    ({"nums": "array(1, 2, 3)", "k": "0", "tags": "array('a', 'b')", "m": "map('a', 1, 'b', 2)", "ds": "array(0.0D)"},
     {"k": "2", "l": "1", "nums": "array(3)", "tag": "'b'", "d": "-0.0D"}),
    ({"nums": "array(1, NULL)", "k": "1", "tags": "array('a', NULL)", "m": "map('a', NULL, 'c', 2)",
      "ds": "array(1.0D, NULL)"},
     {"k": "5", "l": "7", "nums": "array(4, NULL)", "tag": "'a'", "d": "0.0D"}),
    ({"nums": "CAST(NULL AS ARRAY<INT>)", "k": "2", "tags": "CAST(array() AS ARRAY<STRING>)",
      "m": "CAST(map() AS MAP<STRING,INT>)", "ds": f"array({NAN})"},
     {"k": "1", "l": "2", "nums": "array(NULL)", "tag": "CAST(NULL AS STRING)", "d": NAN}),
    ({"nums": "array(7, 2)", "k": "-1", "tags": "array('x', 'a')", "m": "map('a', 2, 'b', 1)",
      "ds": "CAST(array() AS ARRAY<DOUBLE>)"},
     {"k": "-1", "l": "0", "nums": "array(2, NULL, 9)", "tag": "'b'", "d": "2.5D"}),
    ({"nums": "CAST(array() AS ARRAY<INT>)", "k": "3", "tags": "array('b', 'b')", "m": "CAST(NULL AS MAP<STRING,INT>)",
      "ds": "array(-0.0D, 1.0D)"},
     {"k": "3", "l": "6", "nums": "CAST(NULL AS ARRAY<INT>)", "tag": "'c'", "d": "0.0D"}),
    ({"nums": "array(NULL, 4, 1)", "k": "2", "tags": "array('b', NULL, 'a')", "m": "map('b', 5, 'a', 1)",
      "ds": f"array(1.0D, {NAN}, NULL)"},
     {"k": "1", "l": "-3", "nums": "array(1, 4, 3)", "tag": "'z'", "d": "1.0D"}),
]


_condition = kind_condition(CONDITIONS)


def test_define_with_lambdas_between_rows_matches_as_spark_evaluates_it(spark):
    pairs = len(PAIRS)
    table = kinds_table(COLUMNS, PAIRS, CONDITIONS)
    settings = {"spark.sql.mapKeyDedupPolicy": "LAST_WIN", "spark.sql.legacy.followThreeValuedLogicInArrayExists": "false"}
    previous = {key: spark.conf.get(key, None) for key in settings}
    for key, value in settings.items():
        spark.conf.set(key, value)
    try:
        spark.sql(table).localCheckpoint().createOrReplaceTempView("sparkcep_lambda_rows")
        ours, sparks = matched_and_joined(spark, "sparkcep_lambda_rows", _condition)
    finally:
        for key, value in previous.items():
            if value is None:
                spark.conf.unset(key)
            else:
                spark.conf.set(key, value)
    assert ours == sparks
    # the rows tell the cases apart: some groups match and some do not, in most kinds
    kinds_matching = {g // pairs for g in sparks}
    assert len(sparks) >= 20 and len(kinds_matching) >= 14, (sparks, kinds_matching)
    assert len(sparks) <= len(CONDITIONS) * pairs - 20
