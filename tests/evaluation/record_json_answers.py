"""Record Spark's ``get_json_object``, ``json_array_length`` and ``json_object_keys`` of designed
JSON texts and paths, and of numbers written back, in ``json_answers.json``, so that the quick
suite checks ``sparkcep.evaluation.json_functions`` against Spark without starting Spark
(``test_json_functions.py``). Rerun after changing the inputs below or moving to another Spark
version, and review the difference:

    python -m tests.evaluation.record_json_answers

The inputs (``inputs()``, deterministic) are handed to Spark as a DataFrame of (json, path)
STRINGs, so they hold any character (no SQL escapes): Jackson's syntax at each place a token
may go wrong, what it reads past the first value and what it does not, its limits (numbers of
1,000 and 1,001 characters, names of 50,000 and 50,001, nesting 1,000 and 1,001 deep), the
escapes its generator writes, Spark's path parser (white space, quotes, wildcards, indexes), and
numbers written back: every power of two and 6,000 random decimals of 1 to 17 digits with
exponents from -330 to 310, which Spark writes with Java 17's ``Double.toString``; and
``to_json`` of TIMESTAMPs in four session time zones (``Z``, half hours, local mean time).
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

OUTPUT = Path(__file__).with_name("json_answers.json")

_DESIGNED = [
    ('{"a":1e2}', "$.a"), ('{"a":1E+2}', "$.a"), ('{"a":1.0E10}', "$.a"), ('{"a":-0}', "$.a"), ('{"a":1.50}', "$.a"),
    ('{"a":123456789012345678901234567890}', "$.a"), ('[-9223372036854775808, 9223372036854775808, 2147483647]', "$"),
    ('{"a":"😀","b":["😀"]}', "$.b"), ('{"a":"😀","b":["😀","x"]}', "$.b[*]"), ('{"a":"😀"}', "$.a"),
    ('{"a":"\\ud800"}', "$.a"), ('{"a":["\\ud800"]}', "$.a"), ('{"a":["\\udc00x"]}', "$.a[*]"),
    ('{"a":"x\\u0001\\n\\t\\b\\f\\r\\u007f/\\"\\\\"}', "$"), ('{"a":"x\\u0001\\n\\t\\b\\f\\r\\u007f/\\"\\\\"}', "$.a"),
    ('{"a":"x\x01y\ty"}', "$"), ('{"a":"x\x01y"}', "$.a"), ("[\"\x1f\u2028\u00e9\"]", "$"),
    ("", "$"), (" ", "$"), ('{"a":1} x', "$.a"), ('{"a":1,} ', "$.a"), ("{'a':'b\\'c'}", "$"), ('{"a":"b\\\'c"}', "$.a"),
    ("true.", "$"), ("true_", "$"), ("[truex]", "$"), ("[1a]", "$"), ("1a", "$"), ("01", "$"), ("-01", "$"),
    ('{"a":null,"a":2}', "$.a"), ('{"a":null}', "$.a"), ('{"a":null}', "$"), ("null", "$"), ("[null]", "$[0]"),
    ("[null,1]", "$[*]"), ("[[1,2],[3]]", "$[*][*]"), ("[[1,2],3]", "$[*][*]"), ('[{"a":[1,2]},{"a":[3]}]', "$[*].a"),
    ('[{"a":[1,2]},{"a":[3]}]', "$[*].a[*]"), ('[{"a":[1,2]}]', "$[*].a[*]"), ('{"a":{"b":"c"}}', "$.*"),
    ('{"a":{"b":"c"}}', "$.*.b"), ('{"a b":1}', "$['a b']"), ('{"a":1}', "a"), ('{"a":1}', "$a"), ('{"a":1}', "$."),
    ('{"a":1}', "$..a"), ('{"a":1}', "$['*']"), ("[1,2]", "$[-1]"), ("[1,2]", "$[ 1]"), ("[1,2]", "$[1]"),
    ("[1,2]", "$[9999999999999999999]"), ("[1,2]", "$[9223372036854775807]"), ('{"a": 1 , "b" : [ 1 , 2 ] }', "$"),
    ('{"a":1\t}', "$"), ('{"a":1\x0b}', "$"), ('{"a":NaN}', "$.a"), ('{"a":1.}', "$.a"), ('{"a":+1}', "$.a"),
    ("{a:1}", "$.a"), ('/*c*/{"a":1}', "$.a"), ('{"a":"\\x"}', "$.a"), ('{"a":tru}', "$.a"), ('"abc"', "$"),
    ('["a",{"b":"c"}]', "$[*]"), ('["a"]', "$[*]"), ("[]", "$[*]"), ('{"a":1}', "$.a.b"), ('{"a":[1]}', "$.a[0][0]"),
    ('{"a.b":1}', "$['a.b']"), ('{"a":1}', "$.a "), ('{"":1}', "$['']"), ("[1,2]", "$[1] "), ('{"a":1}', " $.a"),
    ('{"a":1}', "$ .a"), ('{"a":1}', "$ ['a']"), ('{"a":1}', "$. a"), ('{"a":1}', "$[' a']"), ('{"a":1}', "$['a' ]"),
    ('{"a":1}', "$['a'] "), ('{"a":{"b":1}}', "$.a .b"), ('{"a]":1}', "$.a]"), ('{"*":1}', "$. *"), ("[1,2]", "$[01]"),
    ("[1,2]", "$[1"), ("[1,2]", "$[1]["), ('{"a":1}', "$"), ('{"a":1}', ""), ("[1,2]", "$[\t1]"), ("[1,2]", "$[1]\n"),
    ('{"a":1}', "$.a\u00a0"), ("[1,2]", "$[\u0661]"), ('{"a":1}', "$['a']['b']"), ('{"a":{"b":2}}', "$['a'].b"),
    ('[1e400,-1e400]', "$"), ('{"a":1e400}', "$.a"), ('["a\\u0000b"]', "$"), ('"a\\u0000b"', "$"),
    ('["a\\u001fb","é\\u2028"]', "$[0]"), ('["a\\u001fb","é\\u2028"]', "$"), ('{"a":"x"}', "$.a[0]"),
    ("[[1],[2,3]]", "$[1][*]"), ("[[1],[2,3]]", "$[*][0]"), ("[[1,[5]],[2,3]]", "$[*][*][*]"),
    ("[[[1,2]],[[3]]]", "$[*][*][*]"), ("[[[1,2]],[[3]]]", "$[0][*][*]"), ('[["a"],["b"]]', "$[*][*]"), ('[["a"]]', "$[*][*]"),
    ('[{"a":"x"},{"a":"y"},{"b":1}]', "$[*].a"), ('[{"a":"x"},{"b":1}]', "$[*].a"), ('{"a":[{"b":"x"},{"b":"y"}]}', "$.a[*].b"),
    ('{"a":[{"b":["x"]},{"b":["y","z"]}]}', "$.a[*].b[*]"), ('{"a":"x"}', "$[0]"), ('[{"a":1}]', "$.a"),
    ('{"a":{"a":1}}', "$.a.a"), ('{"b":1,"a":2,"a":3}', "$.a"), ('{"a":1,"a":[}', "$.a"), ("[1,2,}", "$[0]"),
    ("[1,[2,}", "$[0]"), ("{'a':1}", "$.a"), ('{"a":1', "$.a"), ('{"a":1 "b":2}', "$.a"), ("[1 2]", "$[0]"),
    ('"abc', "$"), ('["abc]', "$[1]"), ("tru", "$"), ("null x", "$"), ("1 2", "$"), ("-", "$"), ("-a", "$"), ("1e", "$"),
    ('{"a":"\\uZZZZ"}', "$.a"), ('{"a":"\\u00e9"}', "$.a"), ('{"a":"\\/"}', "$.a"), ('["\\/"]', "$"),
    ("[true,false,null]", "$"), ("[true,false,null]", "$[*]"), ('{"a":truee}', "$.a"), ('{"a":true1}', "$.a"),
    ("[true]x", "$"), ("[1]]", "$"), ('{"a":1}}', "$.a"), ("1.5x", "$"), ("1.5 x", "$"), ('"a"x', "$"),
    ("\u00a01", "$"), ("\x001", "$"), ("\ufeff[1]", "$"), ('{"a":[1,2]}', "$.a[1]"), ("[0.1,-0.0,1E-7,100.25,1.0E15,12345.678]", "$"),
    ('{"a":{"b":[1,{"c":"d"}]},"e":2}', "$.a.b[1].c"), ('{"a":[[1,2],[3,4]]}', "$.a[*][1]"), ('{"a":[[1,2],[3,4]]}', "$.a[1][*]"),
    ("[[1,2],[3,4]]", "$[*][*][0]"), ('[{"a":1},{"a":2}]', "$[*].a"), ('{"a":[]}', "$.a[*]"), ('{"a":{}}', "$.a"),
    ('{"a" :1, "b":"\\u00e9\\ud83d\\ude00"}', "$"), ("[1,]", "$"), ("[,1]", "$"), ("[1,,2]", "$"), ("{,}", "$"),
    ('{"a":1,"b":{"c":[1,2,3]}}', "$.b.c[2]"), ('{"a":[1,{"b":2}]}', "$.a[1].b"), ("  [1]  ", "$[0]"), ("\n\r\t[1]", "$[0]"),
    ('{"a":\'x\'}', "$.a"), ("['a',\"b\"]", "$"), ('{"a":"\\u00"}', "$.a"), ('{"a":"\\', "$.a"), ('{"a":-}', "$.a"),
    ('{"a":0.0e0}', "$.a"), ('{"a":1e-0}', "$.a"), ('{"a":-1.5E-3}', "$.a"), ('{"a":1e7}', "$.a"), ('{"a":1e-3}', "$.a"),
    ('{"a":9999999.0}', "$.a"), ('{"a":0.00099}', "$.a"), ('{"a":[0.5,0.25]}', "$.a[*]"),
    ("[" + "9" * 1000 + "]", "$[0]"), ("[" + "9" * 1001 + "]", "$[0]"), ("[-" + "9" * 1000 + "]", "$"),
    ("[1." + "5" * 999 + "]", "$"), ("[1." + "5" * 1000 + "]", "$"), ("[1e" + "0" * 999 + "1]", "$"), ("[1e" + "0" * 1000 + "1]", "$"),
    ('{"' + "k" * 50000 + '":1}', "$"), ('{"' + "k" * 50001 + '":1}', "$"), ("[" * 1000 + "]" * 1000, "$"),
    ("[" * 1001 + "]" * 1001, "$"), ("[1," + "[" * 999 + "]" * 999 + "]", "$[0]"), ("[1," + "[" * 1000 + "]" * 1000 + "]", "$[0]"),
    ('{"a":' + '{"b":' * 998 + "1" + "}" * 999, "$.a"), ("[" * 300 + "1" + "]" * 300, "$[*][*]"),
    ("[[" + "[" * 400 + "1" + "]" * 400 + "]]", "$[*][*]"),  # 400 arrays flattened (more: see test_json_functions)
]


def inputs() -> list[tuple[str, str]]:
    rng = random.Random(20261128)
    cases = list(_DESIGNED)
    for n in range(-1074, 1024, 7):  # powers of two (Java's digits differ most often here)
        x = math.ldexp(1.0, n)
        cases.append((f"[{x!r}]", "$[0]"))
    for _ in range(6000):
        k = rng.randint(1, 17)
        digits = str(rng.randint(10 ** (k - 1), 10 ** k - 1))
        exponent = rng.choice([rng.randint(-330, 310), rng.randint(-8, 17)])
        sign = rng.choice(["", "-"])
        cases.append((f'{{"n":{sign}{digits[0]}.{digits[1:] or "0"}e{exponent}}}', "$.n"))
    return cases


# to_json of TIMESTAMPs (instants in UTC) in session time zones with a zero offset (Java's XXX
# writes Z), offsets of half hours and local mean times with seconds (Berlin before 1893)
TIMESTAMP_ZONES = ["UTC", "Europe/Berlin", "America/St_Johns", "Asia/Kolkata"]
TIMESTAMPS = ["1850-06-01 12:00:00", "1893-03-31 23:00:00", "1970-01-01 00:00:00", "2024-03-31 01:30:00.123999",
              "2024-10-27 00:30:00", "0001-01-01 12:00:00", "1969-12-31 23:59:59.9995"]


def _to_json_of_timestamps(spark) -> list[dict]:
    out = []
    previous = spark.conf.get("spark.sql.session.timeZone")
    try:
        for zone in TIMESTAMP_ZONES:
            spark.conf.set("spark.sql.session.timeZone", zone)
            texts = ", ".join(f"to_timestamp('{t}+00:00', 'yyyy-MM-dd HH:mm:ss[.SSSSSS]XXX')" for t in TIMESTAMPS)
            written = spark.sql(f"SELECT to_json(array({texts}))").collect()[0][0]
            out.append({"zone": zone, "utc": TIMESTAMPS, "to_json": written})
    finally:
        spark.conf.set("spark.sql.session.timeZone", previous)
    return out


def main() -> None:
    import pyspark

    import sparkcep

    cases = inputs()
    spark = sparkcep.local_session("local[2]", "sparkcep-record-json", spark_executor_pyspark_memory="1g")
    try:
        spark.sparkContext.setLogLevel("ERROR")
        frame = spark.createDataFrame([(i, j, p) for i, (j, p) in enumerate(cases)], "i INT, j STRING, p STRING")
        frame.createOrReplaceTempView("sparkcep_json")
        rows = spark.sql("SELECT i, get_json_object(j, p), json_array_length(j), json_object_keys(j) "
                         "FROM sparkcep_json ORDER BY i").collect()
        timestamps = _to_json_of_timestamps(spark)
    finally:
        spark.stop()
    answers = [{"json": j, "path": p, "get": row[1], "length": row[2], "keys": row[3]}
               for (j, p), row in zip(cases, rows)]
    data = {"spark": pyspark.__version__, "to_json_timestamps": timestamps, "cases": answers}
    text = "{\n" + f'  "spark": {json.dumps(data["spark"])},\n' + \
        f'  "to_json_timestamps": {json.dumps(timestamps, ensure_ascii=False)},\n  "cases": [\n' + ",\n".join(
        "    " + json.dumps(a, ensure_ascii=False) for a in answers) + "\n  ]\n}\n"
    assert json.loads(text) == data
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT.name}: {len(answers)} cases")


if __name__ == "__main__":
    main()
