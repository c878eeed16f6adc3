"""Record Spark's answers for the functions it computes with Java's ``StrictMath`` in
``strict_math_answers.json``, so that the quick suite checks ``sparkcep.evaluation.strict_math``
and ``strict_trig`` bit for bit against Spark without starting Spark (``test_strict_math.py``). Rerun after changing
the inputs below or moving to another Spark or Java version, and review the difference:

    python -m tests.evaluation.record_strict_math

The inputs (``inputs()``, deterministic): every function's edges (±0, subnormals, the extremes,
±Infinity, NaN, 1 and its neighbours, the thresholds where fdlibm changes its method), the
cross product of bases and exponents that ``pow`` treats specially (negative bases with odd,
even and non-integral exponents, |x| = 1 with infinite exponents, exponents beyond 2**31 and
2**64, results at the edges of overflow and of the subnormals), random bit patterns and
ordinary values; then, appended (the rows before them unchanged), the inverse trigonometric and
hyperbolic functions' and hypot's: ``atan2``'s quadrants and ``hypot``'s scalings, 40 values
within 1/32 of every threshold where a method changes (``TRIG_THRESHOLDS``) and 16 in the first
unit of its high word (a threshold moved by one unit changes some), subnormal pairs,
and random values in each function's ranges. One Spark query per ANSI setting computes every function over every row
(the two settings must agree: these functions do not depend on it). The file holds the
doubles as base64 of their little-endian bytes, and the rows where Spark answered NULL.
"""

from __future__ import annotations

import base64
import json
import math
import random
import struct
from pathlib import Path

OUTPUT = Path(__file__).with_name("strict_math_answers.json")

# Spark SQL over the columns x and y -> the name the recording keeps
FUNCTIONS = {
    "ln(x)": "ln", "log10(x)": "log10", "log2(x)": "log2", "log1p(x)": "log1p", "log(y, x)": "log",
    "exp(x)": "exp", "expm1(x)": "expm1", "power(x, y)": "power", "cbrt(x)": "cbrt",
    # the inverse trigonometric and hyperbolic functions, hypot (sparkcep.evaluation.strict_trig)
    "asin(x)": "asin", "acos(x)": "acos", "atan(x)": "atan", "atan2(y, x)": "atan2", "sinh(x)": "sinh",
    "cosh(x)": "cosh", "tanh(x)": "tanh", "hypot(x, y)": "hypot", "asinh(x)": "asinh", "acosh(x)": "acosh",
    "atanh(x)": "atanh",
}


def _bits(value: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", value & 0xFFFFFFFFFFFFFFFF))[0]


def _neighbours(value: float) -> list[float]:
    return [math.nextafter(value, -math.inf), value, math.nextafter(value, math.inf)]


LN2 = 0.6931471805599453
X_EDGES = sorted({
    0.0, -0.0, 5e-324, -5e-324, 1e-320, 2.2250738585072009e-308, 2.2250738585072014e-308,
    1.7976931348623157e308, -1.7976931348623157e308, math.inf, -math.inf, math.nan,
    *_neighbours(1.0), *_neighbours(-1.0), 2.0, 0.5, -0.5, 3.0, 8.0, -8.0, 27.0, 10.0, 100.0, 1000.0,
    1e15, 1e16, 1e-5, 1e-16, 1e-300, 1e300, 0.1, 0.2, 0.3, 2.5, -2.5, 0.125, 184.0, math.e, math.pi,
    2 ** -28, 2 ** -29, 2 ** -30, 2 ** -54, 2 ** -55, -(2 ** -29), -(2 ** -54), 2 ** -20, 2 ** -21,
    0.41421, 0.41422, 0.41423, -0.2928, -0.2929, -0.293, -0.9999999999999999, -0.5,
    *_neighbours(LN2 / 2), *_neighbours(1.5 * LN2), *_neighbours(-LN2 / 2), *_neighbours(-1.5 * LN2),
    *_neighbours(56 * LN2), *_neighbours(-56 * LN2), 20 * LN2, 21 * LN2, -20 * LN2,
    *_neighbours(709.782712893384), 709.79, 710.0, *_neighbours(-745.1332191019411), -745.2,
    -708.5, -709.0, -720.0, -740.0, -744.0, 2 ** 52, 2 ** 53, 4.5e15,
    # where Python's math differs from Spark for expm1 and log1p (rarely: a few in 10,000)
    0.9276596203534726, 34.137077273069806, 14.92129854229141, 23.927668216783886, 12.62842560305738,
    1.0660710424425872, 20.27206286025148, 706.8915758571871, 372.0564955346237, 54.378348684060946,
    348.07435232826566, 94.22258851530405, 870.2549511794862,
}, key=lambda v: (math.isnan(v), v))

BASES = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 10.0,
         -8.0, 1.0000000000000002, 0.9999999999999999, 1 + 2 ** -25, 1 - 2 ** -25, 5e-324, -5e-324,
         2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308, 1.5, 0.1, 7.0]
EXPONENTS = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 1 / 3, math.inf, -math.inf, math.nan,
             1.5, -1.5, 10.0, 0.1, 100.0, -1074.0, -1075.0, 1023.0, 1024.0, 2.0 ** 31 + 1, -(2.0 ** 31 + 1),
             2.0 ** 31, 2.0 ** 52 + 1, -(2.0 ** 52 + 1), 2.0 ** 53, 2.0 ** 21 + 1, 2.0 ** 20 + 1, 2.0 ** 64 * 1.5,
             -(2.0 ** 64) * 1.5, 1e300, -1e300, 5e-324, 0.5000000000000001, 4.5, 2.0000000000000004, 1e10]


# where the inverse trigonometric and hyperbolic functions change their method: |x| near 0.5,
# 0.975, 1 (asin, acos), 7/16, 11/16, 19/16, 39/16 and 2**66 (atan), 2**-27, 2**-28, 2**-29,
# 2**-55, 2**-57 (their tiny arguments), 1 and 22 (sinh, cosh, tanh), log(the largest double)
# and the overflow threshold 710.4758600739439 (sinh, cosh), 2 and 2**28 (Spark's asinh and
# acosh), sqrt of the largest double; and where Python's math differs from Spark for tanh,
# asinh and acosh (rarely: about one in 10,000)
TRIG_EDGES = [
    *_neighbours(0.5), *_neighbours(-0.5), *_neighbours(0.975), *_neighbours(-0.975), 0.97499, 0.97501,
    *_neighbours(7 / 16), *_neighbours(11 / 16), *_neighbours(19 / 16), *_neighbours(39 / 16), *_neighbours(-39 / 16),
    *_neighbours(2.0 ** 66), -(2.0 ** 66), *_neighbours(2.0 ** -27), 2.0 ** -57, 2.0 ** -56, 2.0 ** -58,
    *_neighbours(2.0 ** -55), *_neighbours(22.0), *_neighbours(-22.0), *_neighbours(710.4758600739439),
    *_neighbours(-710.4758600739439), 710.0, -710.0, 710.4, 711.0, *_neighbours(2.0), *_neighbours(-2.0),
    *_neighbours(2.0 ** 28), *_neighbours(-(2.0 ** 28)), *_neighbours(2.0 ** -28), -(2.0 ** -28), 1.3407807929942596e154,
    -1.3407807929942596e154, 1e154, 1e155, *_neighbours(1.0000000001), 0.9999999999, -0.9999999999,
    0.174823, 0.144179, 0.10601, -0.0944, -0.1655, 0.155, 0.10369431, 2.8, 2.099, 2.1785, 2.55, 4.9214,
    3.9, 4.6426105, 4.7422502,
]


TRIG_THRESHOLDS = [0.5, 0.975, 2.0 ** -27, 2.0 ** -57, 7 / 16, 11 / 16, 19 / 16, 39 / 16, 2.0 ** 66, 2.0 ** -29,
                   2.0 ** -28, LN2 / 2, 1.0, 22.0, 709.782712893384, 710.4758600739439, 2.0 ** -55, 2.0, 2.0 ** 28]


def _trigonometric_pairs(rng: random.Random) -> list[tuple[float, float]]:
    """atan2's quadrants (signed zeros, infinities, |y / x| beyond 2**60 and below 2**-60, x = 1)
    and hypot's scalings (subnormals, beyond 2**500 and below 2**-500, a ratio near 2**60,
    NaN with Infinity), then each function's edges and random values in its ranges."""
    specials = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 2.5, -2.5, 5e-324, -5e-324,
                1.7976931348623157e308, 1e-310, 3e-308, 1e300, 1e-300, 2.0 ** 60, 2.0 ** -60, 2.0 ** 61, 2.0 ** 501,
                2.0 ** -501, 2.0 ** -600]
    pairs = [(x, y) for x in specials for y in specials]
    for _ in range(120):  # ratios near 2**60 and 2**-60, huge and tiny pairs
        x = rng.uniform(0.5, 2) * 2.0 ** rng.randint(-1074, 1023)
        pairs.append((x, x * rng.choice([-1, 1]) * 2.0 ** rng.choice([58, 59, 60, 61, 62, -59, -60, -61, -62])))
        pairs.append((x, x * rng.uniform(-4, 4)))
    pairs += [(x, rng.uniform(-3, 3)) for x in TRIG_EDGES]
    for low, high, count in ((-1, 1, 500), (-3, 3, 300), (-25, 25, 300), (-720, 720, 200)):
        pairs += [(rng.uniform(low, high), rng.uniform(low, high)) for _ in range(count)]
    for _ in range(300):  # every magnitude, for asinh, acosh, atan, atan2 and hypot
        pairs.append((rng.choice([1, -1]) * 10 ** rng.uniform(-320, 308), rng.choice([1, -1]) * 10 ** rng.uniform(-320, 308)))
    pairs += [(1 + rng.uniform(0, 3), rng.uniform(-1, 1)) for _ in range(200)]  # acosh's [1, 2] and (2, 4]
    # dense around every threshold where a method changes (within 1/32 of it, either sign), so
    # that a threshold moved a little changes some recorded answer
    for threshold in TRIG_THRESHOLDS:
        pairs += [(rng.choice([1, -1]) * threshold * rng.uniform(31 / 32, 33 / 32), rng.uniform(-3, 3)) for _ in range(40)]
    for _ in range(150):  # hypot and atan2 of a subnormal and a number within 2**62 of it
        b = rng.uniform(0, 1) * 2.0 ** -1022
        pairs.append((b * rng.uniform(1, 2) * 2.0 ** rng.randint(0, 62) * rng.choice([1, -1]), b))
    for threshold in TRIG_THRESHOLDS:  # in the first unit of the high word at or above it
        pairs += [(rng.choice([1, -1]) * threshold * (1 + rng.uniform(0, 2.0 ** -20)), rng.uniform(-3, 3)) for _ in range(16)]
    return pairs


def inputs() -> tuple[list[float], list[float]]:
    rng = random.Random(23)
    pairs = [(x, rng.choice(EXPONENTS + X_EDGES)) for x in X_EDGES]
    pairs += [(b, e) for b in BASES for e in EXPONENTS]
    # pow near overflow and the subnormals: 2**y, 10**y, e**y at the thresholds
    for y in (1023.9999999999999, 1024.0, -1074.0, -1074.5, -1075.0, -1022.0, -1022.5, -1060.3):
        pairs.append((2.0, y))
    for y in (308.2547, 308.25471555991675, 308.26, -323.3, -323.306, -307.9):
        pairs.append((10.0, y))
    for y in (709.78, 709.782712893384, 709.79, -744.4, -745.13, -745.2):
        pairs += [(math.e, y), (-math.e, y)]
    # x close to one with huge y (fdlibm's |1 - x| < 2**-20 branch), and negative bases
    for _ in range(80):
        x = 1 + rng.choice([1, -1]) * rng.uniform(0, 2 ** -20)
        pairs.append((x, rng.choice([1, -1]) * rng.uniform(2 ** 31, 2 ** 45)))
    for _ in range(150):
        pairs.append((-rng.uniform(0, 20), float(rng.randint(-300, 300))))
        pairs.append((-rng.uniform(0, 2), rng.choice([2.0 ** 40 + 1, 2.0 ** 40, 2.0 ** 22 + 3, 0.25 * rng.randint(-40, 40)])))
    # random bit patterns, ordinary values, and the neighbourhood of 1 and of 0
    for _ in range(900):
        pairs.append((_bits(rng.getrandbits(64)), _bits(rng.getrandbits(64))))
    for _ in range(900):
        k = rng.random()
        x = rng.uniform(-10, 10) if k < .3 else rng.uniform(-750, 750) if k < .5 else \
            rng.uniform(-1, 1) * 10 ** rng.uniform(-20, 20) if k < .75 else \
            1 + rng.uniform(-1e-6, 1e-6) if k < .85 else 10 ** rng.uniform(-320, 308)
        y = rng.uniform(-5, 5) if rng.random() < .5 else rng.uniform(-400, 400)
        pairs.append((x, y))
    for _ in range(200):
        pairs.append((rng.uniform(0, 1) * 2 ** rng.randint(-1074, -1022), rng.uniform(-2, 2)))
    for _ in range(400):  # every reduction k of exp and expm1 (|x| < 56 ln2 and beyond)
        pairs.append((rng.uniform(-60, 60), rng.uniform(-60, 60)))
    pairs += _trigonometric_pairs(random.Random(24))
    return [x for x, _ in pairs], [y for _, y in pairs]


def pack(values: list[float]) -> str:
    return base64.b64encode(struct.pack(f"<{len(values)}d", *values)).decode("ascii")


def unpack(text: str) -> list[float]:
    data = base64.b64decode(text)
    return list(struct.unpack(f"<{len(data) // 8}d", data))


def dump(data: dict) -> str:
    """JSON with one line per input column and per function (compact, reviewable diffs)."""
    head = ", ".join(f"{json.dumps(k)}: {json.dumps(data[k])}" for k in ("spark", "rows", "functions"))
    lines = ["{", f" {head},", f' "x": {json.dumps(data["x"])},', f' "y": {json.dumps(data["y"])},', ' "answers": {']
    answers = list(data["answers"].items())
    for n, (name, answer) in enumerate(answers):
        comma = "," if n + 1 < len(answers) else ""
        lines.append(f"  {json.dumps(name)}: {json.dumps(answer, separators=(',', ':'))}{comma}")
    return "\n".join(lines + [" }", "}"]) + "\n"


def main() -> None:
    import pyarrow as pa
    import pyspark

    from sparkcep.clients.session import local_session

    xs, ys = inputs()
    spark = local_session("local[2]", "sparkcep-record-strict-math", spark_executor_pyspark_memory="1g")
    try:
        table = pa.table({"r": pa.array(range(len(xs)), pa.int64()),
                          "x": pa.array(xs, pa.float64(), from_pandas=False),  # NaN stays NaN
                          "y": pa.array(ys, pa.float64(), from_pandas=False)})
        spark.createDataFrame(table).localCheckpoint().createOrReplaceTempView("sparkcep_strict_math")
        settings = []
        for ansi in ("true", "false"):
            spark.conf.set("spark.sql.ansi.enabled", ansi)
            columns = ", ".join(f"{sql} AS e{i}" for i, sql in enumerate(FUNCTIONS))
            answers = spark.sql(f"SELECT r, {columns} FROM sparkcep_strict_math ORDER BY r").toArrow()
            settings.append({name: answers.column(f"e{i}").to_pylist() for i, name in enumerate(FUNCTIONS.values())})
        ansi, legacy = settings
        for name in ansi:  # NaN != NaN: compare the bytes
            assert [struct.pack("<d", v) if v is not None else None for v in ansi[name]] == \
                   [struct.pack("<d", v) if v is not None else None for v in legacy[name]], name
        data = {
            "spark": pyspark.__version__, "rows": len(xs), "functions": FUNCTIONS,
            "x": pack(xs), "y": pack(ys),
            "answers": {name: {"values": pack([0.0 if v is None else v for v in values]),
                               "nulls": [r for r, v in enumerate(values) if v is None]}
                        for name, values in ansi.items()},
        }
        OUTPUT.write_text(dump(data), encoding="utf-8")
        print(f"{len(xs)} rows, {len(FUNCTIONS)} functions recorded in {OUTPUT.name}")
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
