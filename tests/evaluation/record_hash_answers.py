"""Record Spark's ``hash`` (Murmur3) and ``xxhash64`` of a few thousand values of every type they
take between rows of a match in ``hash_answers.json``, so that the quick suite checks
``sparkcep.evaluation.hash_functions`` bit for bit against Spark without starting Spark
(``test_hash_functions.py``). Rerun after changing the inputs below or moving to another Spark
version, and review the difference:

    python -m tests.evaluation.record_hash_answers

The inputs (``inputs()``, deterministic: a seeded generator) are each type's edges and random
values: integers over their whole range, FLOAT and DOUBLE from random bit patterns (NaNs with
other payloads, subnormals, -0.0 among them), DECIMALs of compact (precision <= 18) and wide
types at their extremes, STRINGs of every length up to 100 UTF-8 bytes and more (each tail
length of Murmur3's words and of xxHash64's 32-byte stripes, characters of 1 to 4 bytes),
BINARYs of random bytes (bytes above 127 in the tail, which Spark's Murmur3 sign-extends), DATEs,
TIMESTAMPs and TIMESTAMP_NTZs from year 1 to 9999, and NULLs. One Spark query hashes every
column and a few chains of several columns (the hash of one argument seeding the next); the
answers do not depend on the ANSI setting. The file holds each expression's answers as base64
of little-endian ints (INT for hash, BIGINT for xxhash64).
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import random
import struct
from decimal import Decimal
from pathlib import Path

OUTPUT = Path(__file__).with_name("hash_answers.json")
ROWS = 2000

# column -> Spark type
COLUMNS = {
    "b": "BOOLEAN", "t": "TINYINT", "h": "SMALLINT", "i": "INT", "l": "BIGINT", "f": "FLOAT", "d": "DOUBLE",
    "s": "STRING", "n": "DECIMAL(10,2)", "q": "DECIMAL(18,4)", "g": "DECIMAL(19,4)", "m": "DECIMAL(38,10)",
    "z": "DECIMAL(38,0)", "dt": "DATE", "ts": "TIMESTAMP", "tn": "TIMESTAMP_NTZ", "y": "BINARY",
}
# several arguments: each hash seeds the next; NULL leaves the running value as it is
CHAINS = [("s", "i", "d", "z"), ("b", "dt", "ts", "q", "f"), ("tn", "s", "s", "l", "m", "h", "t", "n", "g"),
          ("y", "s", "y")]


def expressions() -> list[str]:
    out = []
    for function in ("hash", "xxhash64"):
        out += [f"{function}({c})" for c in COLUMNS]
        out += [f"{function}({', '.join(chain)})" for chain in CHAINS]
        out.append(f"{function}(s, NULL, i)")
    return out


_INTEGRAL = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}
_CHARACTERS = ["a", "Z", "0", " ", "~", "\u00e9", "\u00df", "\u0416", "\u65e5", "\u20ac", "\U0001f600", "\U00010348"]


def _integer(rng: random.Random, bits: int) -> int:
    low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    k = rng.random()
    if k < 0.1:
        return rng.choice([low, high, 0, 1, -1, low + 1, high - 1])
    if k < 0.4:
        return rng.randint(max(low, -1000), min(high, 1000))
    return rng.randint(low, high)


def _bits_to(form: str, bits: int) -> float:
    size = struct.calcsize(form)
    return struct.unpack("<" + form, struct.pack("<" + ("I" if size == 4 else "Q"), bits))[0]


def _fractional(rng: random.Random, single: bool) -> float:
    form, bits = ("f", 32) if single else ("d", 64)
    k = rng.random()
    if k < 0.15:
        return rng.choice([0.0, -0.0, float("nan"), float("inf"), float("-inf"), 1.0, -1.0, 0.5,
                           _bits_to(form, 1), _bits_to(form, (1 << (bits - 1)) | 1)])
    if k < 0.25:  # NaNs with other payloads and signs: Java hashes the canonical NaN's bits
        exponent_bits = 8 if single else 11
        fraction = rng.getrandbits(bits - 1 - exponent_bits) | 1
        return _bits_to(form, (rng.getrandbits(1) << (bits - 1)) | (((1 << exponent_bits) - 1) << (bits - 1 - exponent_bits)) | fraction)
    if k < 0.5:
        value = rng.uniform(-1000, 1000)
        return _bits_to(form, struct.unpack("<I", struct.pack("<f", value))[0]) if single else value
    return _bits_to(form, rng.getrandbits(bits))


def _decimal(rng: random.Random, precision: int, scale: int) -> Decimal:
    k = rng.random()
    largest = 10 ** precision - 1
    if k < 0.1:
        unscaled = rng.choice([0, largest, -largest, 1, -1, 2 ** 63 - 1, -(2 ** 63), 2 ** 63, 127, 128, -128, -129, 255, 256])
        unscaled = max(-largest, min(largest, unscaled))
    else:
        digits = rng.randint(1, precision)
        unscaled = rng.randint(0, 10 ** digits - 1) * rng.choice([1, -1])
    return Decimal(f"{unscaled}E-{scale}")  # exact (scaleb would round to 28 digits)


def _string(rng: random.Random, row: int) -> str:
    length = row % 41 if rng.random() < 0.7 else rng.randint(0, 100)
    pool = _CHARACTERS[:5] if rng.random() < 0.5 else _CHARACTERS
    return "".join(rng.choice(pool) for _ in range(length))


def _value(rng: random.Random, column: str, row: int):
    spark_type = COLUMNS[column]
    if rng.random() < 0.03:
        return None
    if spark_type == "BOOLEAN":
        return rng.random() < 0.5
    if spark_type in _INTEGRAL:
        return _integer(rng, _INTEGRAL[spark_type])
    if spark_type in ("FLOAT", "DOUBLE"):
        return _fractional(rng, spark_type == "FLOAT")
    if spark_type == "STRING":
        return _string(rng, row)
    if spark_type == "BINARY":  # every byte value, every tail length
        return bytes(rng.getrandbits(8) for _ in range(row % 37 if rng.random() < 0.7 else rng.randint(0, 80)))
    if spark_type.startswith("DECIMAL"):
        precision, scale = (int(x) for x in spark_type[8:-1].split(","))
        return _decimal(rng, precision, scale)
    if spark_type == "DATE":
        return dt.date(1970, 1, 1) + dt.timedelta(days=rng.randint(-719162, 2932896))
    micros = rng.randint(-62135596800 * 10 ** 6, 253402300799 * 10 ** 6 + 999999) if rng.random() < 0.5 else \
        rng.randint(-10 ** 15, 4 * 10 ** 15)
    local = dt.datetime(1970, 1, 1) + dt.timedelta(microseconds=micros)
    return local.replace(tzinfo=dt.timezone.utc) if spark_type == "TIMESTAMP" else local


def inputs() -> list[dict]:
    """ROWS rows of values of COLUMNS (TIMESTAMPs aware, in UTC; TIMESTAMP_NTZs naive)."""
    rng = random.Random(4242)
    return [{c: _value(rng, c, r) for c in COLUMNS} for r in range(ROWS)]


def pack(values: list[int], bits: int) -> str:
    return base64.b64encode(struct.pack(f"<{len(values)}{'i' if bits == 32 else 'q'}", *values)).decode("ascii")


def unpack(text: str, bits: int) -> list[int]:
    data = base64.b64decode(text)
    size = bits // 8
    return list(struct.unpack(f"<{len(data) // size}{'i' if bits == 32 else 'q'}", data))


def main() -> None:
    import pyspark
    from pyspark.sql import types as T

    from sparkcep.clients.session import local_session

    spark_types = {"BOOLEAN": T.BooleanType(), "TINYINT": T.ByteType(), "SMALLINT": T.ShortType(),
                   "INT": T.IntegerType(), "BIGINT": T.LongType(), "FLOAT": T.FloatType(), "DOUBLE": T.DoubleType(),
                   "STRING": T.StringType(), "BINARY": T.BinaryType(), "DATE": T.DateType(), "TIMESTAMP": T.TimestampType(),
                   "TIMESTAMP_NTZ": T.TimestampNTZType()}

    def spark_type(text: str):
        if text.startswith("DECIMAL"):
            return T.DecimalType(*(int(x) for x in text[8:-1].split(",")))
        return spark_types[text]

    schema = T.StructType([T.StructField("r", T.IntegerType())] +
                          [T.StructField(c, spark_type(t)) for c, t in COLUMNS.items()])
    rows = [(r, *(row[c] for c in COLUMNS)) for r, row in enumerate(inputs())]
    spark = local_session("local[2]", "sparkcep-record-hash", spark_executor_pyspark_memory="1g")
    try:
        spark.conf.set("spark.sql.session.timeZone", "UTC")
        spark.createDataFrame(rows, schema).localCheckpoint().createOrReplaceTempView("sparkcep_hash")
        # the inputs as Spark holds them (a FLOAT's bits, a TIMESTAMP's instant): they must be the
        # values the test hashes
        check = spark.sql("SELECT r, unix_micros(ts) AS ts, unix_micros(CAST(tn AS TIMESTAMP)) AS tn, "
                          "unix_date(dt) AS dt, CAST(m AS STRING) AS m FROM sparkcep_hash ORDER BY r").collect()
        epoch = dt.datetime(1970, 1, 1)
        for row, original in zip(check, inputs()):
            for c in ("ts", "tn"):
                if original[c] is not None:
                    assert row[c] == (original[c].replace(tzinfo=None) - epoch) // dt.timedelta(microseconds=1), (c, row)
            if original["dt"] is not None:
                assert row["dt"] == (original["dt"] - epoch.date()).days, row
            if original["m"] is not None:
                assert Decimal(row["m"]) == original["m"], row
        texts = expressions()
        answers = {}
        for ansi in ("true", "false"):
            spark.conf.set("spark.sql.ansi.enabled", ansi)
            columns = ", ".join(f"{e} AS e{k}" for k, e in enumerate(texts))
            result = spark.sql(f"SELECT r, {columns} FROM sparkcep_hash ORDER BY r").collect()
            answers[ansi] = {e: [row[f"e{k}"] for row in result] for k, e in enumerate(texts)}
        assert answers["true"] == answers["false"]
        data = {"spark": pyspark.__version__, "rows": ROWS,
                "answers": {e: pack(v, 32 if e.startswith("hash") else 64) for e, v in answers["true"].items()}}
        lines = ["{", f' "spark": {json.dumps(data["spark"])}, "rows": {ROWS},', ' "answers": {']
        items = list(data["answers"].items())
        for n, (e, text) in enumerate(items):
            lines.append(f"  {json.dumps(e)}: {json.dumps(text)}{',' if n + 1 < len(items) else ''}")
        OUTPUT.write_text("\n".join(lines + [" }", "}"]) + "\n", encoding="utf-8")
        print(f"{ROWS} rows, {len(texts)} expressions recorded in {OUTPUT.name}")
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
