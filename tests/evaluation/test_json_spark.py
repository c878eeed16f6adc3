"""End to end on Spark: a MATCH_RECOGNIZE whose DEFINE applies JSON and map functions to values
of two rows (``get_json_object(A.j, B.p)``, ``json_array_length``, ``json_object_keys``,
``to_json(array(A.ts, B.ts))``, ``str_to_map(concat(A.s, ',', B.s))``, ``map_concat(A.m, B.m)``)
matches exactly where Spark's own evaluation of the same condition, in a plain self-join, holds,
in Europe/Berlin and under ``spark.sql.mapKeyDedupPolicy`` LAST_WIN (which registration reads):
one batched query of every kind over every pair of rows. The rows hold paths read from the row,
JSON text after the first value, NULL values of keys, characters outside the BMP, wildcards,
timestamps either side of a daylight-saving change, decimals Java writes as ``1E-7``, and equal
map keys.
"""

from __future__ import annotations

import pytest

from tests.evaluation.two_row_matches import kind_condition, kinds_table, matched_and_joined

pytestmark = pytest.mark.spark

ZONE = "Europe/Berlin"
COLUMNS = {"j": "STRING", "p": "STRING", "s": "STRING", "k": "INT", "m": "MAP<STRING,INT>", "ts": "TIMESTAMP",
           "x": "DECIMAL(9,8)"}
CONDITIONS = {
    "get": "get_json_object({A}.j, {B}.p) = {B}.s",
    "get_concat": "get_json_object(concat({A}.j, {B}.s), '$.a') = '1'",
    "get_wildcard": "get_json_object({A}.j, '$.b[*]') = {B}.s",
    "get_null": "get_json_object(concat({A}.s, {B}.j), {B}.p) IS NULL",
    "length": "json_array_length(get_json_object({A}.j, {B}.p)) = {B}.k",
    "keys": "array_contains(json_object_keys(concat({A}.j, {B}.s)), 'b')",
    "to_json_map": "to_json(map({B}.s, {A}.k)) LIKE concat('%', {B}.s, '%')",
    "to_json_time": "to_json(array({A}.ts, {B}.ts)) LIKE '%+02:00\"]'",
    "to_json_decimal": "to_json(array({A}.x, {B}.x)) LIKE '%E-%'",
    "to_json_keys": "to_json(json_object_keys({A}.j)) = concat('[\"', {B}.s, '\"]')",
    "str_to_map": "element_at(str_to_map(concat({A}.s, ',', {B}.s)), 'a') = '1'",
    "str_to_map_regex": "size(str_to_map(concat({A}.s, ';', {B}.s), '[;,]', '=')) = 2",
    "map_concat": "element_at(map_concat({A}.m, {B}.m), 'a') = 2",
    "map_concat_size": "size(map_concat({A}.m, map({B}.s, {B}.k))) = 2",
}
# (A's row, B's row), each a dict of SQL literals for some columns (the others NULL)
PAIRS = [
    ({"j": """'{"a":1,"b":["x","y"]}'""", "s": "'a:1'", "k": "1", "m": "map('a', 1)",
      "ts": "TIMESTAMP'2024-03-31 01:30:00'", "x": "0.00000010"},
     {"p": "'$.a'", "s": "'1'", "k": "2", "m": "map('a', 2)", "ts": "TIMESTAMP'2024-03-31 03:30:00'", "x": "1.5"}),
    ({"j": """'{"a":null,"a":1} trailing'""", "s": "'b=1'", "k": "7", "m": "map('b', 1)",
      "ts": "TIMESTAMP'2024-10-27 02:30:00'", "x": "0.5"},
     {"p": "'$.b'", "s": "'a=2'", "k": "0", "m": "map('a', 2)", "ts": "TIMESTAMP'2024-10-27 03:30:00'", "x": "0.00000001"}),
    ({"j": """'{"b":["😀"],"c":[1,[2,3]]}'""", "s": "'a:2'", "k": "3", "m": "map()",
      "ts": "TIMESTAMP'2024-06-01 00:00:00'", "x": "0"},
     {"p": "'$.c'", "s": "'b'", "k": "2", "m": "map('b', 3)", "ts": "TIMESTAMP'2024-06-01 00:00:00'", "x": "0"}),
    ({"j": """'[1,2,3]'""", "s": "'a:1,a:3'", "k": "2", "m": "map('a', 5, 'c', 1)",
      "ts": "TIMESTAMP'2024-01-01 00:00:00'", "x": "-0.00000020"},
     {"p": "'$'", "s": "'a'", "k": "3", "m": "map('a', 2)", "ts": "TIMESTAMP'2024-07-01 12:00:00'", "x": "2"}),
    ({"j": """'{"b":"y","a":[{"b":1}]}'""", "s": "''", "k": "-1", "m": "CAST(NULL AS MAP<STRING,INT>)",
      "ts": "TIMESTAMP'2024-03-31 02:59:59.999'", "x": "0.1"},
     {"p": "'$[ 0]'", "s": "'y'", "k": "1", "m": "map('a', 2)", "ts": "CAST(NULL AS TIMESTAMP)", "x": "NULL"}),
    ({"j": """'{"b":["x"]'""", "s": "'a:1;b:2'", "k": "4", "m": "map('b', 2)",
      "ts": "TIMESTAMP'2024-10-27 01:59:59'", "x": "0.0000001"},
     {"p": "'$.b[0]'", "s": "'x'", "k": "1", "m": "map('a', 2)", "ts": "TIMESTAMP'2024-10-27 01:00:00'", "x": "1"}),
    ({"j": """'{"a":1,"b":["x"]}'""", "s": "'c=1'", "k": "2", "m": "map('a', 1)",
      "ts": "TIMESTAMP'2024-08-01 00:00:00'", "x": "1"},
     {"p": "'$.b'", "s": "'x'", "k": "1", "m": "map('c', 2)", "ts": "TIMESTAMP'2024-08-01 00:00:00.5'", "x": "0.00000123"}),
]


_condition = kind_condition(CONDITIONS)


def test_define_with_json_and_map_functions_between_rows_matches_as_spark_evaluates_it(spark):
    pairs = len(PAIRS)
    table = kinds_table(COLUMNS, PAIRS, CONDITIONS)
    settings = {"spark.sql.session.timeZone": ZONE, "spark.sql.mapKeyDedupPolicy": "LAST_WIN"}
    previous = {key: spark.conf.get(key) for key in settings}
    for key, value in settings.items():
        spark.conf.set(key, value)
    try:
        spark.sql(table).localCheckpoint().createOrReplaceTempView("sparkcep_json_rows")
        ours, sparks = matched_and_joined(spark, "sparkcep_json_rows", _condition)
    finally:
        for key, value in previous.items():
            spark.conf.set(key, value)
    assert ours == sparks
    # the rows tell the cases apart: some pairs match and some do not, in most kinds
    kinds_matching = {g // pairs for g in sparks}
    assert len(kinds_matching) >= 10, (sparks, kinds_matching)
    assert len(sparks) <= len(CONDITIONS) * pairs - 20, sparks
