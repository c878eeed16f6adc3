"""End to end on Spark: a MATCH_RECOGNIZE whose DEFINE builds and reads STRUCT values from two
rows (``named_struct('k', A.k, 'tag', B.tag).tag``, ``struct(A.k, B.k) < struct(B.k, A.k)``,
``A.s = B.s`` over STRUCT columns, ``array_contains(A.ss, B.s)``, ``map_from_entries``,
``arrays_zip``, ...) matches exactly where Spark's own evaluation of the same condition, in a
plain self-join, holds. STRUCT columns reach the Python worker as Spark hands them over (PyArrow
structs, read as dicts), so this also checks that path. The rows hold NULL structs and NULL
fields, NaN and -0.0 fields, TIMESTAMP fields in Europe/Berlin's overlap, fields that divide by
zero where a field access does not read them, structs in arrays and map values, and ``to_json``
of structs (NULL fields left out, TIMESTAMPs in the session time zone)."""

from __future__ import annotations

import pytest

from tests.evaluation.two_row_matches import kind_condition, kinds_table, matched_and_joined

pytestmark = pytest.mark.spark

ZONE = "Europe/Berlin"
COLUMNS = {"k": "INT", "tag": "STRING", "d": "DOUBLE", "ts": "TIMESTAMP", "s": "STRUCT<k:INT,Tag:STRING>",
           "sd": "STRUCT<d:DOUBLE,ts:TIMESTAMP>", "ss": "ARRAY<STRUCT<k:INT,Tag:STRING>>", "nums": "ARRAY<INT>",
           "m": "MAP<STRING,INT>"}
# (kind, condition over rows {A} and {B}): each kind is tried on every pair of rows below
CONDITIONS = {
    "field": "named_struct('k', {A}.k, 'tag', {B}.tag).tag = 'b'",
    "field_case": "named_struct('k', {A}.k, 'tag', {B}.tag)['TAG'] IS NULL",
    "unread_field": "named_struct('k', {A}.k, 'q', {B}.k DIV {A}.k).k > 0",
    "is_null": "named_struct('q', {B}.k DIV {A}.k) IS NOT NULL",
    "struct_lt": "struct({A}.k, {B}.k AS k2) < struct({B}.k, {A}.k AS k2)",
    "columns_eq": "{A}.s = {B}.s",
    "columns_null_safe": "{A}.s <=> {B}.s",
    "columns_lt": "{A}.sd < {B}.sd",
    "columns_field": "coalesce({A}.s, {B}.s).Tag = 'a'",
    "in": "{B}.s IN ({A}.s, named_struct('k', 1, 'Tag', 'z'))",
    "contains": "array_contains({A}.ss, {B}.s)",
    "distinct": "size(array_distinct(array({A}.sd, {B}.sd))) = 1",
    "sort": "sort_array(concat({A}.ss, {B}.ss))[0].k = 1",
    "greatest": "greatest({A}.s, {B}.s).k = 2",
    "entries": "map_entries(coalesce({A}.m, {B}.m))[0].key = {B}.tag",
    # (a NULL key raises NULL_MAP_KEY, in Spark's self-join as here: kept out by CASE)
    "from_entries": "CASE WHEN {B}.tag IS NOT NULL THEN "
                    "map_from_entries(array(named_struct('a', {B}.tag, 'b', {A}.k)))['b'] = 1 END",
    "zip": "arrays_zip({A}.nums, array({B}.k))[0].nums = 1",
    "cast": "CAST(named_struct('a', {A}.k, 'b', {B}.tag) AS STRUCT<x: BIGINT, y: STRING>).x = 1",
    "map_value": "map({B}.tag, {A}.s)['b'].k = 1",
    "to_json": "to_json(named_struct('k', {A}.k, 'tag', {B}.tag, 'ts', {A}.ts)) LIKE '{{\"k\":1%'",
    "to_json_nested": "to_json(array({A}.s, {B}.s)) = '[{{\"k\":1,\"Tag\":\"a\"}},{{\"k\":1,\"Tag\":\"a\"}}]'",
}
NAN = "CAST('NaN' AS DOUBLE)"
# (A's row, B's row), each a dict of SQL literals for some columns (the others NULL)
PAIRS = [
    ({"k": "1", "tag": "'a'", "s": "named_struct('k', 1, 'Tag', 'a')", "sd": f"named_struct('d', {NAN}, 'ts', "
      "TIMESTAMP'2024-10-27 02:30:00')", "ss": "array(named_struct('k', 1, 'Tag', 'a'))", "nums": "array(1, 2)",
      "m": "map('b', 1)"},
     {"k": "2", "tag": "'b'", "s": "named_struct('k', 1, 'Tag', 'a')", "sd": f"named_struct('d', {NAN}, 'ts', "
      "TIMESTAMP'2024-10-27 02:30:00')", "ss": "array(named_struct('k', 3, 'Tag', 'c'))", "nums": "array(5)"}),
    ({"k": "0", "tag": "'b'", "s": "named_struct('k', CAST(NULL AS INT), 'Tag', 'a')",
      "sd": "named_struct('d', -0.0D, 'ts', CAST(NULL AS TIMESTAMP))", "ss": "array(NULL, named_struct('k', 2, 'Tag', 'b'))",
      "nums": "array(NULL, 1)", "m": "map('a', 2, 'b', 3)"},
     {"k": "5", "tag": "CAST(NULL AS STRING)", "s": "named_struct('k', CAST(NULL AS INT), 'Tag', 'a')",
      "sd": "named_struct('d', 0.0D, 'ts', CAST(NULL AS TIMESTAMP))", "ss": "array(named_struct('k', 1, 'Tag', 'x'))"}),
    ({"k": "2", "tag": "'c'", "s": "CAST(NULL AS STRUCT<k:INT,Tag:STRING>)", "sd": "named_struct('d', 1.0D, 'ts', "
      "TIMESTAMP'2024-03-31 03:30:00')", "ss": "CAST(array() AS ARRAY<STRUCT<k:INT,Tag:STRING>>)", "nums": "array(1)"},
     {"k": "2", "tag": "'a'", "s": "named_struct('k', 2, 'Tag', 'b')", "sd": "named_struct('d', 1.0D, 'ts', "
      "TIMESTAMP'2024-03-31 03:30:00')", "ss": "array(named_struct('k', 1, 'Tag', 'a'))", "nums": "array(1)"}),
    ({"k": "-1", "tag": "'é'", "s": "named_struct('k', 2, 'Tag', 'b')", "sd": "CAST(NULL AS STRUCT<d:DOUBLE,ts:TIMESTAMP>)",
      "ss": "array(named_struct('k', 2, 'Tag', 'b'), named_struct('k', 1, 'Tag', 'a'))", "m": "map('é', 4)"},
     {"k": "1", "tag": "'é'", "s": "named_struct('k', 1, 'Tag', 'z')", "sd": f"named_struct('d', {NAN}, 'ts', "
      "TIMESTAMP'2024-10-27 03:30:00')", "ss": "array(named_struct('k', 2, 'Tag', 'b'))", "nums": "array(1, 2)"}),
]


_condition = kind_condition(CONDITIONS)


def test_define_with_structs_between_rows_matches_as_spark_evaluates_it(spark):
    pairs = len(PAIRS)
    g = len(CONDITIONS) * pairs
    table = kinds_table(COLUMNS, PAIRS, CONDITIONS)
    previous = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", ZONE)
    try:
        spark.sql(table).localCheckpoint().createOrReplaceTempView("sparkcep_struct_rows")
        ours, sparks = matched_and_joined(spark, "sparkcep_struct_rows", _condition)
    finally:
        spark.conf.set("spark.sql.session.timeZone", previous)
    assert ours == sparks
    # the rows tell the cases apart: some groups match and some do not, in most kinds
    kinds_matching = {m // pairs for m in sparks}
    assert len(sparks) >= 15 and len(kinds_matching) >= 12, (sparks, kinds_matching)
    assert len(sparks) <= g - 15
