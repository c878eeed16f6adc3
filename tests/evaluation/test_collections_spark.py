"""End to end on Spark: a MATCH_RECOGNIZE whose DEFINE applies array and map functions to values
of two rows (``array_contains(A.tags, B.tag)``, ``element_at(A.prices, B.k)``, ``A.m[B.tag]``,
``arrays_overlap(A.nums, B.nums)``, ``array(A.d, B.d)``, ...) matches exactly where Spark's own
evaluation of the same condition, in a plain self-join, holds. The arrays and maps reach the
Python worker as Spark hands them over (PyArrow lists, maps as lists of key-value tuples, FLOAT,
DECIMAL and TIMESTAMP elements), so this also checks that path. The rows hold NULL elements and
NULL arrays, NaN and -0.0, an INT 16777217 against a FLOAT 16777216, timestamps in
Europe/Berlin's daylight-saving gap and overlap, and map keys that are missing. The functions
that build arrays and maps (``array_union(A.nums, B.nums)``, ``array_append(A.tags, B.tag)``
with a NULL tag, ``sort_array(concat(A.ds, B.ds))`` over NaN and -0.0, ``map(B.tag, ...)``,
``sequence(B.k, size(A.nums))``, ...) too, and ``map(...)`` with duplicate keys under
``spark.sql.mapKeyDedupPolicy`` LAST_WIN, which registration reads.
"""

from __future__ import annotations

import pytest

from tests.evaluation.two_row_matches import kind_condition, kinds_table, matched_and_joined, typed_row

pytestmark = pytest.mark.spark

ZONE = "Europe/Berlin"
COLUMNS = {"nums": "ARRAY<INT>", "k": "INT", "d": "DOUBLE", "ds": "ARRAY<DOUBLE>", "tag": "STRING",
           "tags": "ARRAY<STRING>", "m": "MAP<STRING,STRING>", "md": "MAP<DOUBLE,INT>", "fl": "ARRAY<FLOAT>",
           "dec": "ARRAY<DECIMAL(5,2)>", "x": "DECIMAL(3,1)", "ts": "TIMESTAMP", "tss": "ARRAY<TIMESTAMP>",
           "ntz": "ARRAY<TIMESTAMP_NTZ>", "aa": "ARRAY<ARRAY<INT>>"}
# (kind, condition over rows {A} and {B}): each kind is tried on every pair of rows below
CONDITIONS = {
    "contains": "array_contains({A}.tags, {B}.tag)",
    "contains_null": "array_contains({A}.nums, {B}.k) IS NULL",
    "position": "array_position({A}.nums, {B}.k) = 2",
    "element_at": "try_element_at({A}.nums, {B}.k) > 1",
    # (an index past the end raises with ANSI on, in Spark's self-join as here: kept out by CASE)
    "subscript": "CASE WHEN {B}.k >= 0 AND size({A}.tags) > {B}.k THEN {A}.tags[{B}.k] = {B}.tag END",
    "size": "size({A}.nums) < {B}.k",
    "overlap": "arrays_overlap({A}.nums, {B}.nums)",
    "overlap_null": "arrays_overlap({A}.ds, {B}.ds) IS NULL",
    "map": "element_at({A}.m, {B}.tag) = 'x'",
    "map_subscript": "{A}.m[{B}.tag] IS NULL",
    "map_key": "map_contains_key({A}.m, {B}.tag)",
    "nan_key": "{A}.md[{B}.d] = 1",
    "float": "array_contains({A}.fl, {B}.k)",
    "decimal": "array_contains({A}.dec, {B}.x)",
    "instant": "array_contains({A}.tss, {B}.ts)",
    "local": "array_contains({A}.ntz, {B}.ts)",
    "constructor": "array_contains(array({A}.d, {B}.d), 0.0D)",
    "distinct": "size(array_distinct(array({A}.d, {B}.d))) = 1",
    "extreme": "array_max(array({A}.d, {B}.d)) > 1.0D",
    "slice": "size(slice({A}.nums, {B}.k, 2)) = 2",
    # array-building and map functions (collection_builders); counts and positions from B.k
    # guarded to small ones (B.k = 16777217 would build 16 million elements)
    "union": "size(array_union({A}.nums, {B}.nums)) = 3",
    "intersect": "size(array_intersect({A}.ds, {B}.ds)) = 1",
    "except": "array_except({A}.tags, array({B}.tag)) = array('a')",
    "remove": "size(array_remove({A}.nums, {B}.k)) = 2",
    "repeat": "CASE WHEN abs({B}.k) < 10 THEN size(array_repeat({A}.d, {B}.k)) = 2 END",
    "append": "element_at(array_append({A}.nums, {B}.k), -1) = 2",
    "append_null": "element_at(array_append({A}.tags, {B}.tag), -1) IS NULL",
    "prepend": "element_at(array_prepend({A}.tags, {B}.tag), 1) = 'b'",
    "insert": "CASE WHEN abs({B}.k) BETWEEN 1 AND 9 THEN size(array_insert({A}.nums, {B}.k, 0)) = 4 END",
    "compact": "size(array_compact(concat({A}.ds, {B}.ds))) = 2",
    "sort": "sort_array(concat({A}.ds, {B}.ds)) = array_sort(concat({B}.ds, {A}.ds))",
    "sort_desc": "try_element_at(sort_array(concat({A}.ds, {B}.ds), false), 1) = 1.0D",
    "reverse": "try_element_at(reverse({A}.tags), 1) = {B}.tag",
    "concat": "size({A}.nums || {B}.nums) = 4",
    "flatten": "size(flatten(coalesce({A}.aa, {B}.aa))) > {B}.k",
    "map_keys": "array_contains(map_keys({A}.m), {B}.tag)",
    "map_values": "array_contains(map_values({A}.m), 'x') AND {B}.tag = 'b'",
    "map_built": "CASE WHEN {B}.tag IS NOT NULL THEN element_at(map({B}.tag, size({A}.tags)), 'b') = 2 END",
    "map_from_arrays": "CASE WHEN size(array_distinct(array_compact({A}.tags))) = size({B}.nums) "
                       "AND size({A}.tags) = size({B}.nums) THEN map_from_arrays({A}.tags, {B}.nums)['x'] = 2 END",
    # map(...)[k] is Spark's CASE over the keys written (the first equal one), nothing built: equal
    # keys (B.tag 'b' and A's second tag 'b') and NULL keys raise nothing
    "map_first_key": "map({B}.tag, 1, try_element_at({A}.tags, 2), 2)['b'] = 1",
    "get": "get({A}.nums, {B}.k) = 2",
    "sequence": "CASE WHEN abs({B}.k) < 100 THEN array_contains(sequence({B}.k, size({A}.nums)), 2) END",
    "array_join": "array_join({A}.nums, {B}.tag, 'n') LIKE '1%'",
}
NAN, NINF = "CAST('NaN' AS DOUBLE)", "CAST('-Infinity' AS DOUBLE)"
# (A's row, B's row), each a dict of SQL literals for some columns (the others NULL)
PAIRS = [
    ({"tags": "array('a', 'b')", "nums": "array(1, 2, 3)", "m": "map('a', 'x')", "ds": "array(0.0D)"},
     {"tag": "'b'", "k": "2", "nums": "array(3)", "ds": "array(-0.0D)", "d": "-0.0D"}),
    ({"tags": "array('a', NULL)", "nums": "array(1, NULL)", "m": "map('a', NULL)", "ds": "array(1.0D, NULL)"},
     {"tag": "'c'", "k": "5", "nums": "array(4)", "ds": "array(2.0D)", "d": "0.0D"}),
    ({"tags": "CAST(array() AS ARRAY<STRING>)", "nums": "CAST(NULL AS ARRAY<INT>)", "m": "CAST(map() AS MAP<STRING,STRING>)",
      "ds": f"array({NAN})"},
     {"tag": "'a'", "k": "1", "nums": "array(NULL)", "ds": f"array({NAN})", "d": NAN}),
    ({"tags": "array('x', 'a')", "nums": "array(7, 2)", "m": "map('a', 'y', 'b', 'x')", "ds": "CAST(array() AS ARRAY<DOUBLE>)"},
     {"tag": "'b'", "k": "-1", "nums": "array(2, NULL)", "ds": "array(NULL)", "d": "2.5D"}),
    ({"tags": "array('😀', 'é')", "nums": "array(2, 2, 9)", "m": "map('😀', 'x')", "ds": "array(-0.0D, 1.0D)",
      "aa": "array(array(1, 2), array(3))"},
     {"tag": "'😀'", "k": "1", "nums": "array(9, 8)", "ds": "array(0.0D)", "d": NINF}),
    ({"tags": "array('a', 'b', 'a')", "nums": "array(3, NULL, 3)", "m": "map('b', 'x', 'a', 'z')",
      "ds": f"array(1.0D, {NAN}, NULL)", "aa": "array(array(7), NULL)"},
     {"tag": "CAST(NULL AS STRING)", "k": "-3", "nums": "array(NULL, 4, 3)", "ds": f"array({NAN}, -0.0D)", "d": "1.0D",
      "aa": "array(array(1))"}),
]
EXTRA = [  # pairs for the kinds over the other columns
    ({"md": f"map({NAN}, 1)", "fl": "array(CAST(16777216 AS FLOAT))", "dec": "array(CAST(1.10 AS DECIMAL(5,2)))",
      "tss": "array(TIMESTAMP'2024-03-31 03:30:00')", "ntz": "array(TIMESTAMP_NTZ'2024-03-31 02:30:00')"},
     {"d": NAN, "k": "16777217", "x": "CAST(1.1 AS DECIMAL(3,1))", "ts": "TIMESTAMP'2024-03-31 03:30:00'"}),
    ({"md": "map(0.0D, 1)", "fl": "array(CAST(1.5 AS FLOAT), NULL)", "dec": "array(CAST(-1.50 AS DECIMAL(5,2)))",
      "tss": "array(TIMESTAMP'2024-10-27 02:30:00')", "ntz": "array(TIMESTAMP_NTZ'2024-10-27 02:30:00')"},
     {"d": "-0.0D", "k": "2", "x": "CAST(-1.5 AS DECIMAL(3,1))", "ts": "TIMESTAMP'2024-10-27 02:30:00'"}),
    ({"md": "map(1.0D, 2)", "fl": "array(CAST(16777217 AS FLOAT))", "dec": "array(CAST(1.05 AS DECIMAL(5,2)), NULL)",
      "tss": "array(TIMESTAMP'2024-03-31 01:30:00', NULL)", "ntz": "array(TIMESTAMP_NTZ'2024-03-31 01:30:00')"},
     {"d": "1.0D", "k": "16777216", "x": "CAST(1.1 AS DECIMAL(3,1))", "ts": "TIMESTAMP'2024-03-31 03:30:00'"}),
    ({"md": "map(1.0D, 1)", "fl": "CAST(NULL AS ARRAY<FLOAT>)", "dec": "CAST(array() AS ARRAY<DECIMAL(5,2)>)",
      "tss": "array(TIMESTAMP'2024-10-27 01:30:00')", "ntz": "array(TIMESTAMP_NTZ'2024-10-27 03:30:00')"},
     {"d": "2.0D", "k": "0", "x": "CAST(NULL AS DECIMAL(3,1))", "ts": "TIMESTAMP'2024-10-27 03:30:00'"}),
]


_condition = kind_condition(CONDITIONS)


def _row(g: int, i: int, kind: str, cells: dict) -> str:
    return typed_row(COLUMNS, g, i, cells, kind)


def test_define_with_array_and_map_functions_between_rows_matches_as_spark_evaluates_it(spark):
    # each pair of rows once, crossed with every kind (a UNION of them all is too long for Spark's parser)
    pairs = len(PAIRS + EXTRA)
    g = len(CONDITIONS) * pairs
    table = kinds_table(COLUMNS, PAIRS + EXTRA, CONDITIONS)
    previous = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", ZONE)
    try:
        spark.sql(table).localCheckpoint().createOrReplaceTempView("sparkcep_collection_rows")
        ours, sparks = matched_and_joined(spark, "sparkcep_collection_rows", _condition)
    finally:
        spark.conf.set("spark.sql.session.timeZone", previous)
    assert ours == sparks
    # the rows tell the cases apart: some groups match and some do not, in most kinds
    kinds_matching = {g // pairs for g in sparks}
    assert len(sparks) >= 25 and len(kinds_matching) >= 15, (sparks, kinds_matching)
    assert len(sparks) <= g - 25


# mapKeyDedupPolicy LAST_WIN: a key equal to an earlier one (0.0 and -0.0, NaN and NaN) replaces
# its value instead of failing the query (read at registration)
DEDUP = "CASE WHEN try_element_at({A}.ds, 1) IS NOT NULL AND {B}.d IS NOT NULL THEN " \
        "map_values(map(try_element_at({A}.ds, 1), 1, {B}.d, 2)) = array(2) END"


def test_map_keys_last_win_as_spark_deduplicates_them(spark):
    rows = []
    for g, (a, b) in enumerate(PAIRS + EXTRA):
        rows += [_row(g, 0, "dedup", a), _row(g, 1, "dedup", b)]
    previous = spark.conf.get("spark.sql.mapKeyDedupPolicy")
    spark.conf.set("spark.sql.mapKeyDedupPolicy", "LAST_WIN")
    try:
        spark.sql(" UNION ALL ".join(rows)).localCheckpoint().createOrReplaceTempView("sparkcep_dedup_rows")
        ours, sparks = matched_and_joined(spark, "sparkcep_dedup_rows", lambda a, b: DEDUP.format(A=a, B=b))
    finally:
        spark.conf.set("spark.sql.mapKeyDedupPolicy", previous)
    assert ours == sparks
    assert 2 <= len(sparks) < len(PAIRS + EXTRA), sparks  # the NaN and the -0.0 pair deduplicated
