"""How often Spark's math functions differ from Python's, bit for bit: the measurement behind the
table in docs/semantics.md ("Functions between rows in DEFINE") that decides which of them
sparkcep evaluates between rows of a match (only those that never differ).

    python -m tests.evaluation.measure_java_math [ROWS]      # default 300,000 DOUBLEs

One Spark query per ANSI setting computes every function over every row (random bit patterns,
subnormals, huge values, short decimals, ±0.0, NaN, ±Infinity; ``y``: exponents and bases);
each value is compared with two Python readings of Spark's rules below, written from Spark's
documentation and Java's ``Math`` specification: one over Python's ``math`` (the C library's),
one over ``sparkcep.evaluation.strict_math`` and ``strict_trig`` (fdlibm's algorithms, which
Java's ``StrictMath`` is), the NULL rules written here independently of
``sparkcep.evaluation.functions``. ``sin``, ``cos``, ``tan`` and ``cot`` (HotSpot intrinsics,
refused between rows) are compared with Python's ``math`` only.
Takes a few minutes on a quiet machine.
"""

from __future__ import annotations

import math
import random
import struct
import sys
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Context, Decimal

from sparkcep.evaluation import strict_math, strict_trig, trigonometric_functions

EDGES = [0.0, -0.0, 1.0, -1.0, 2.0, 0.5, -0.5, math.nan, math.inf, -math.inf, 5e-324, -5e-324,
         2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308, 709.782712893384,
         709.79, -745.1332191019412, -745.2, 1e-300, 1e300, 3.0, 8.0, -8.0, 27.0, 1e15, 1e16, -1e15,
         0.1, 0.2, 0.3, 1.005, 2.675, -2.675, 123.456, 9.999999999999999e14, 1e-5, -1e-5, 1e-16, 2.5,
         -2.5, 0.125]
EXPONENTS = [0.5, -0.5, 2.0, 3.0, -1.0, 1 / 3, 0.0, -0.0, math.nan, math.inf, -math.inf, 10.0, 0.1,
             1.5, 100.0, -3.0]


def draws(rows: int, seed: int = 23) -> tuple[list[float], list[float]]:
    rng = random.Random(seed)

    def bits() -> float:
        return struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]

    def x() -> float:
        k = rng.random()
        if k < .25:
            return bits()
        if k < .45:
            return rng.uniform(-10, 10)
        if k < .55:
            return rng.uniform(0, 1)
        if k < .65:
            return rng.uniform(-750, 750)
        if k < .75:
            return rng.uniform(-1, 1) * 10 ** rng.uniform(-20, 20)
        if k < .85:
            return round(rng.uniform(-1000, 1000), rng.randint(0, 6))
        if k < .90:
            return float(rng.randint(-100, 100))
        if k < .95:
            return 10 ** rng.uniform(-320, 308) * rng.choice([1, -1])
        return rng.choice(EDGES)

    def y() -> float:
        k = rng.random()
        if k < .3:
            return rng.choice(EXPONENTS)
        if k < .5:
            return rng.uniform(-5, 5)
        if k < .6:
            return float(rng.randint(-20, 20))
        if k < .7:
            return bits()
        if k < .8:
            return rng.choice(EDGES)
        return rng.uniform(-400, 400) / max(1e-3, abs(rng.uniform(-10, 10)))

    pairs = [(a, b) for a in EDGES for b in EXPONENTS + EDGES]
    pairs += [(x(), y()) for _ in range(max(0, rows - len(pairs)))]
    return [a for a, _ in pairs], [b for _, b in pairs]


# -- Spark's rules, read in Python ------------------------------------------------------------


def _positive(f, low=0.0):
    """A logarithm: NULL at or below ``low``, NaN and +Infinity kept."""
    return lambda x, y: None if x <= low else x if (x != x or x == math.inf) else f(x)


def _overflowing(f):
    def apply(x, y):
        try:
            return f(x)
        except OverflowError:
            return math.inf
    return apply


def _domain(f):
    """A function of a DOUBLE that is NaN outside its domain (Python's raises ValueError)."""
    def apply(x):
        try:
            return f(x)
        except ValueError:
            return math.nan
    return apply


def _signed_overflow(f, x: float) -> float:
    try:
        return f(x)
    except OverflowError:
        return math.copysign(math.inf, x)


def _odd_integer(y: float) -> bool:
    return math.isfinite(y) and y == math.floor(y) and abs(y) < 2 ** 53 and int(y) % 2 == 1


def _power(x: float, y: float) -> float:
    """Java's ``Math.pow`` special cases (which C's ``pow`` does not share: pow(1, NaN) is NaN,
    pow(-1, ±Infinity) NaN), else the C library's ``pow``."""
    if y == 0:
        return 1.0
    if y != y or x != x or (abs(x) == 1 and math.isinf(y)):
        return math.nan
    try:
        return math.pow(x, y)
    except ValueError:  # 0 to a negative power, or a negative base to a non-integer power
        if x == 0:
            return -math.inf if math.copysign(1, x) < 0 and _odd_integer(y) else math.inf
        return math.nan
    except OverflowError:
        return -math.inf if x < 0 and _odd_integer(y) else math.inf


def _logarithm(x: float, base: float) -> float | None:
    """``log(base, x)``: NULL when either is <= 0, else ln(x) / ln(base)."""
    if base <= 0 or x <= 0:
        return None
    if x != x or base != base:
        return math.nan
    top, bottom = (math.inf if v == math.inf else math.log(v) for v in (x, base))
    if bottom == 0:
        return math.nan if top == 0 else math.copysign(math.inf, top)
    return top / bottom


_EXACT = Context(prec=2500, Emax=999999, Emin=-999999)


def _rounded(mode, scale: int, precision: int = 30, digits: int = 15):
    """``floor`` / ``ceil`` with a scale of a DOUBLE: cast to DECIMAL(30, 15) through Java's
    decimal (NULL when NaN, infinite or out of range), rounded in ``mode``."""

    def apply(x, y):
        if not math.isfinite(x):
            return None
        value = Decimal(repr(x)).quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP, _EXACT)
        if value and len(value.as_tuple().digits) - digits > precision - digits:
            return None
        if scale >= 0:
            return value.quantize(Decimal(1).scaleb(-min(scale, digits)), mode, _EXACT)
        return value.quantize(Decimal(1).scaleb(-scale), mode, _EXACT).quantize(Decimal(1), context=_EXACT)

    return apply


FUNCTIONS = {  # Spark SQL -> its reading in Python
    "sqrt(x)": lambda x, y: math.nan if x < 0 else math.sqrt(x),
    "ln(x)": _positive(math.log),
    "log10(x)": _positive(math.log10),
    "log2(x)": _positive(lambda v: math.log(v) / math.log(2)),
    "log1p(x)": _positive(math.log1p, -1.0),
    "log(y, x)": lambda x, y: _logarithm(x, y),
    "exp(x)": _overflowing(math.exp),
    "expm1(x)": _overflowing(math.expm1),
    "power(x, y)": _power,
    "cbrt(x)": lambda x, y: math.cbrt(x),
    "asin(x)": lambda x, y: _domain(math.asin)(x),
    "acos(x)": lambda x, y: _domain(math.acos)(x),
    "atan(x)": lambda x, y: math.atan(x),
    "atan2(y, x)": lambda x, y: math.atan2(y + 0.0, x + 0.0),
    "sinh(x)": lambda x, y: _signed_overflow(math.sinh, x),
    "cosh(x)": lambda x, y: _overflowing(math.cosh)(x, y),
    "tanh(x)": lambda x, y: math.tanh(x),
    "hypot(x, y)": lambda x, y: math.hypot(x, y),
    "asinh(x)": lambda x, y: math.asinh(x),
    "acosh(x)": lambda x, y: _domain(math.acosh)(x),
    "atanh(x)": lambda x, y: math.copysign(math.inf, x) if abs(x) == 1 else _domain(math.atanh)(x),
    # Math.sin, cos, tan (HotSpot intrinsics) and cot = 1 / Math.tan: refused between rows
    "sin(x)": lambda x, y: _domain(math.sin)(x),
    "cos(x)": lambda x, y: _domain(math.cos)(x),
    "tan(x)": lambda x, y: _domain(math.tan)(x),
    "cot(x)": lambda x, y: strict_math.divide(1.0, _domain(math.tan)(x)),
    "floor(x, 2)": _rounded(ROUND_FLOOR, 2),
    "ceil(x, -1)": _rounded(ROUND_CEILING, -1),
    "floor(x, 16)": _rounded(ROUND_FLOOR, 16),
}


def _strict_logarithm(x: float, base: float) -> float | None:
    """``log(base, x)`` over StrictMath: NULL when either is <= 0, else log(x) / log(base) with
    Java's division (a zero divisor gives an infinity or NaN)."""
    if base <= 0 or x <= 0:
        return None
    top, bottom = strict_math.log(x), strict_math.log(base)
    if bottom == 0:
        return math.nan if top == 0 or top != top else math.copysign(math.inf, top)
    return top / bottom


STRICT_FUNCTIONS = {  # the functions Spark computes with StrictMath, read over strict_math
    "ln(x)": lambda x, y: None if x <= 0 else strict_math.log(x),
    "log10(x)": lambda x, y: None if x <= 0 else strict_math.log10(x),
    "log2(x)": lambda x, y: None if x <= 0 else strict_math.log(x) / strict_math.log(2.0),
    "log1p(x)": lambda x, y: None if x <= -1 else strict_math.log1p(x),
    "log(y, x)": lambda x, y: _strict_logarithm(x, y),
    "exp(x)": lambda x, y: strict_math.exp(x),
    "expm1(x)": lambda x, y: strict_math.expm1(x),
    "power(x, y)": lambda x, y: strict_math.pow(x, y),
    "cbrt(x)": lambda x, y: strict_math.cbrt(x),
    "asin(x)": lambda x, y: strict_trig.asin(x),
    "acos(x)": lambda x, y: strict_trig.acos(x),
    "atan(x)": lambda x, y: strict_trig.atan(x),
    "atan2(y, x)": lambda x, y: strict_trig.atan2(y + 0.0, x + 0.0),  # Spark adds 0.0 to both
    "sinh(x)": lambda x, y: strict_trig.sinh(x),
    "cosh(x)": lambda x, y: strict_trig.cosh(x),
    "tanh(x)": lambda x, y: strict_trig.tanh(x),
    "hypot(x, y)": lambda x, y: strict_trig.hypot(x, y),
    # Spark's own formulas over StrictMath.log, log1p and Math.sqrt
    "asinh(x)": lambda x, y: trigonometric_functions.inverse_hyperbolic_sine(x),
    "acosh(x)": lambda x, y: trigonometric_functions.inverse_hyperbolic_cosine(x),
    "atanh(x)": lambda x, y: 0.5 * (strict_math.log1p(x) - strict_math.log1p(-x)),
}


def _same(python, spark) -> bool:
    if python is None or spark is None:
        return python is None and spark is None
    if isinstance(python, float) and isinstance(spark, float):
        return struct.pack("<d", python) == struct.pack("<d", spark) or (python != python and spark != spark)
    return python == spark


def main(rows: int) -> None:
    import pyarrow as pa

    from sparkcep.clients.session import local_session

    xs, ys = draws(rows)
    spark = local_session("local[2]", "sparkcep-measure-java-math", spark_executor_pyspark_memory="1g")
    try:
        table = pa.table({"r": pa.array(range(len(xs)), pa.int64()),
                          "x": pa.array(xs, pa.float64(), from_pandas=False),  # NaN stays NaN
                          "y": pa.array(ys, pa.float64(), from_pandas=False)})
        spark.createDataFrame(table).localCheckpoint().createOrReplaceTempView("sparkcep_math")
        for ansi in ("true", "false"):
            spark.conf.set("spark.sql.ansi.enabled", ansi)

            def guarded(sql: str) -> str:  # under ANSI a DOUBLE beyond DECIMAL(30, 15) raises
                return f"CASE WHEN abs(x) < 1e15 THEN {sql} END" if ansi == "true" and "," in sql \
                    and sql.startswith(("floor", "ceil")) else sql

            columns = ", ".join(f"{guarded(sql)} AS e{i}" for i, sql in enumerate(FUNCTIONS))
            answers = spark.sql(f"SELECT r, {columns} FROM sparkcep_math ORDER BY r").toArrow()
            print(f"ANSI {ansi}, {len(xs):,} rows:")
            for i, (sql, python) in enumerate(FUNCTIONS.items()):
                spark_values = answers.column(f"e{i}").to_pylist()
                compared = [(x, y, s) for x, y, s in zip(xs, ys, spark_values)
                            if not (guarded(sql) != sql and not abs(x) < 1e15)]
                differ = [(x, y, s) for x, y, s in compared if not _same(python(x, y), s)]
                example = f", e.g. x={differ[0][0]!r} y={differ[0][1]!r}: Spark {differ[0][2]!r}, " \
                          f"Python {python(differ[0][0], differ[0][1])!r}" if differ else ""
                print(f"  {sql:14} math: {len(differ):>7,} of {len(compared):,} differ{example}")
                strict = STRICT_FUNCTIONS.get(sql)
                if strict is not None:
                    differ = [(x, y, s) for x, y, s in compared if not _same(strict(x, y), s)]
                    example = f", e.g. x={differ[0][0]!r} y={differ[0][1]!r}: Spark {differ[0][2]!r}, " \
                              f"strict_math {strict(differ[0][0], differ[0][1])!r}" if differ else ""
                    print(f"  {sql:14} strict_math: {len(differ):>7,} of {len(compared):,} differ{example}")
    finally:
        spark.stop()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300_000)
