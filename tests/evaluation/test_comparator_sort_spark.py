"""End to end on Spark: a MATCH_RECOGNIZE whose DEFINE sorts one row's array by a comparator
reading another row (``array_sort(A.nums, (l, r) -> (r - l) * B.k)``), and formats values with
a format read from a row (``format_string(A.fmt, B.n, B.s)``), matches exactly where Spark's own
evaluation of the same condition, in a plain self-join, holds. The arrays reach the Python
worker as Spark hands them over; they hold NULL elements, duplicates, and 80 elements (TimSort
merges runs there); comparators are consistent, inconsistent (small arrays: Java's binary
insertion decides the order) or answer NULL.

The batch runs with ``spark.sql.legacy.allowNullComparisonResultInArraySort`` true (a NULL
answer is 0; registration reads it), so NULL answers give an order instead of failing the
query; the corpus (``tests/evaluation/corpus.py``) checks the default, where they fail.
"""

from __future__ import annotations

import pytest

from tests.evaluation.two_row_matches import kind_condition, kinds_table, matched_and_joined

pytestmark = pytest.mark.spark

COLUMNS = {"nums": "ARRAY<INT>", "tags": "ARRAY<STRING>", "fmt": "STRING", "k": "INT", "n": "INT", "s": "STRING"}
CONDITIONS = {
    "descending": "element_at(array_sort({A}.nums, (l, r) -> (r - l) * {B}.k), 1) = 3",
    "by_k": "array_join(array_sort({A}.nums, (l, r) -> IF(l < r, {B}.k, -{B}.k)), ',') LIKE '1,%'",
    "null_is_zero": "element_at(array_sort({A}.nums, (l, r) -> IF(l = {B}.k, NULL, l - r)), 2) = 2",
    "long": "try_element_at(array_sort({A}.nums, (l, r) -> (l % 7) * {B}.k - (r % 7) * {B}.k), 40) = 5",
    "long_stable": "element_at(array_sort({A}.nums, (l, r) -> IF(l % 2 = r % 2, 0, (l % 2) * 2 - 1) * {B}.k), 2) = 4",
    "strings": "array_join(array_sort({A}.tags, (l, r) -> coalesce(length(l), {B}.k) - coalesce(length(r), 0)), ',') = 'a,bb'",
    "inconsistent": "element_at(array_sort({A}.nums, (l, r) -> IF(l > {B}.k, 1, -1)), 1) = 1",
    "nested": "element_at(transform(array_sort({A}.nums, (l, r) -> r - l + {B}.k), x -> x * 2), 1) = 6",
    "format": "format_string({A}.fmt, {B}.n, {B}.s) = '3|x'",
    "format_null": "format_string({A}.fmt, {B}.n, {B}.s) IS NULL",
    "format_row": "printf(concat({A}.fmt, '/%s'), {B}.n, {B}.s, {B}.s) LIKE '%x%'",
}
LONG = "sequence(80, 1, -1)"
# (A's row, B's row), each a dict of SQL literals for some columns (the others NULL)
PAIRS = [
    ({"nums": "array(1, 2, 3)", "tags": "array('bb', 'a')", "fmt": "'%d|%s'"}, {"k": "1", "n": "3", "s": "'x'"}),
    ({"nums": "array(3, NULL, 1, 2)", "tags": "array(NULL, 'a', 'bb')", "fmt": "'%2$s-%1$05d'"},
     {"k": "-1", "n": "7", "s": "'y'"}),
    ({"nums": LONG, "tags": "array('bb', 'a', 'ccc')", "fmt": "CAST(NULL AS STRING)"}, {"k": "2", "n": "1", "s": "'x'"}),
    ({"nums": "CAST(NULL AS ARRAY<INT>)", "tags": "CAST(array() AS ARRAY<STRING>)", "fmt": "'%x|%S'"},
     {"k": "0", "n": "255", "s": "'x'"}),
    ({"nums": "array(2, 2, 1, 3)", "tags": "array('a', 'bb')", "fmt": "'%s%%'"}, {"k": "2", "n": "3", "s": "NULL"}),
    ({"nums": LONG, "tags": "array('bb', NULL)", "fmt": "'%b %h'"}, {"k": "-3", "n": "NULL", "s": "'x'"}),
    ({"nums": "array(5, 4, 3, 2, 1)", "tags": "array('a')", "fmt": "'%d|%s'"}, {"k": "3", "n": "3", "s": "'x'"}),
]


_condition = kind_condition(CONDITIONS)


def test_define_with_comparators_and_row_formats_matches_as_spark_evaluates_it(spark):
    pairs = len(PAIRS)
    table = kinds_table(COLUMNS, PAIRS, CONDITIONS)
    settings = {"spark.sql.legacy.allowNullComparisonResultInArraySort": "true"}
    previous = {key: spark.conf.get(key, None) for key in settings}
    for key, value in settings.items():
        spark.conf.set(key, value)
    try:
        spark.sql(table).localCheckpoint().createOrReplaceTempView("sparkcep_comparator_rows")
        ours, sparks = matched_and_joined(spark, "sparkcep_comparator_rows", _condition)
    finally:
        for key, value in previous.items():
            if value is None:
                spark.conf.unset(key)
            else:
                spark.conf.set(key, value)
    assert ours == sparks
    # the rows tell the cases apart: some groups match and some do not, in most kinds
    kinds_matching = {g // pairs for g in sparks}
    assert len(sparks) >= 12 and len(kinds_matching) >= 8, (sparks, kinds_matching)
    assert len(sparks) <= len(CONDITIONS) * pairs - 20
