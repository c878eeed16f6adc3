"""Differential test: round/bround, floor/ceil (with and without a scale), sign/signum, sqrt, the
StrictMath functions (ln/log, log10, log2, log(b, x), log1p, exp, expm1, power/pow, cbrt), pmod,
concat_ws and array_join over values
that combine rows of a match (issue 23) agree with Spark's own evaluation: values, NULLs,
errors (ANSI on and off) and result types. Spark is the oracle (``spark_oracle.answer``: every
expression over every row in one query), sparkcep's interpreter, generated code and the
matcher's specialized code are compared with it.

``coalesce(A.x, B.x)`` is how a case makes its operand match-dependent (it reads two rows, so
Python evaluates it and everything around it; both rows hold the same values, so it is x);
Spark evaluates ``coalesce(x, x)``. The rows are random draws (seeded) from pools of edge
values: halves in decimal (1.005, 2.675, 0.125) that binary doubles do not hold exactly, NaN,
infinities, -0.0, the extremes of every integral type, DECIMAL(38, 0) values whose rounding
carries past 38 digits, NULL.
"""

from __future__ import annotations

import math
import random
import time
from decimal import Decimal

import pytest

from sparkcep.evaluation.binding import bind
from tests.evaluation.harness import evaluators
from tests.evaluation.spark_oracle import MISSING, SparkFailed, answer
from tests.evaluation.test_spark_differential import SEED, Tally, session  # noqa: F401 - the fixture

pytestmark = pytest.mark.spark

ROWS = 160
NINES = Decimal("9" * 38)
POOLS = {
    "d": ("DOUBLE", [1.005, 2.675, 0.125, 2.5, -2.5, 0.5, -0.5, 1.5, -0.4, 0.0, -0.0, 123.456, -987.65,
                     -9.223372036854775808e18, 9.223372036854775807e18, 9.2233720368547748e18,
                     1e300, -1.7976931348623157e308, 5e-324, 1.23456789e-7, 99.995, 1234567.891,
                     float("nan"), float("inf"), float("-inf"), 0.1 + 0.2, 4.35, None]),
    "f": ("FLOAT", [1.25, 2.5, -0.5, 0.1, 3.4028234663852886e38, -1.5, 1e-45, 123.45, float("nan"),
                    float("-inf"), 0.0, None]),
    "i": ("INT", [0, 1, -1, 15, 25, -25, 1250, -1251, 2147483647, -2147483648, 7, -7, None]),
    "l": ("BIGINT", [0, 9223372036854775807, -9223372036854775808, 155, -155, 10**18 + 5, None]),
    "t": ("TINYINT", [127, -128, 5, -5, 0, 45, None]),
    "sm": ("SMALLINT", [32767, -32768, 150, -150, 0, None]),
    "k": ("INT", [3, -3, 0, 1, -1, 7, 2147483647, -2147483648, None]),
    "n": ("DECIMAL(5,3)", [Decimal("1.005"), Decimal("-1.005"), Decimal("2.675"), Decimal("99.999"),
                           Decimal("-99.999"), Decimal("0.000"), Decimal("12.345"), Decimal("0.500"), None]),
    "w": ("DECIMAL(38,0)", [NINES, Decimal("-" + "9" * 38), Decimal(15), Decimal(-25), Decimal(0), Decimal(5), None]),
    "v": ("DECIMAL(38,10)", [Decimal("1234567890123456789012345678.0123456789"), Decimal("-0.0000000005"),
                             Decimal("2.5000000000"), Decimal("-2.5000000000"), None]),
    "s1": ("STRING", ["a", "", "é日", "x,y", None]),
    "s2": ("STRING", ["b", "", "-", "😀", None]),
}

# rows every run has, whatever the seed: pmod(-1, the least INT or BIGINT) wraps around in
# Java (r + n), the least values' remainders, negative zeros, carries past 38 digits
FIXED = [
    {"i": -2147483648, "k": -1, "l": -9223372036854775808, "t": -128, "sm": -32768, "d": -0.0, "f": -0.5,
     "n": Decimal("-99.999"), "w": NINES, "v": Decimal("-2.5000000000"), "s2": ""},
    {"i": -1, "k": -2147483648, "l": -1, "t": 127, "sm": 32767, "d": -0.4, "f": 0.0, "n": Decimal("99.999"),
     "w": Decimal("-" + "9" * 38), "s1": "", "s2": None},
]


def both(column: str) -> tuple[str, str]:
    """(sparkcep's, Spark's) text of a match-dependent operand equal to ``column``."""
    return f"coalesce(A.{column}, B.{column})", f"coalesce({column}, {column})"


def cases() -> list[tuple[str, str]]:
    forms: list[tuple[str, str]] = []

    def add(template: str, *columns: str):
        pairs = [both(c) for c in columns]
        forms.append((template.format(*(q for q, _ in pairs)), template.format(*(s for _, s in pairs))))

    for column in ("d", "f", "i", "l", "t", "sm", "n", "w", "v"):
        for function in ("round", "bround"):
            add(f"{function}({{0}})", column)
            for scale in (2, -1, -2, 1, 5, -20, 40):
                add(f"{function}({{0}}, {scale})", column)
    add("round({0} * {1}, 2)", "d", "d")
    add("bround({0} / 3, 3)", "n")
    add("round(({0}), -(1))", "i")
    for column in ("d", "f", "i", "l", "sm", "n", "w", "v"):
        add("floor({0})", column)
        add("ceil({0})", column)
    add("ceiling({0} * {1})", "d", "d")
    # with a scale: the argument cast to DECIMAL (a DOUBLE to DECIMAL(30, 15): NaN and the
    # infinities NULL, beyond 10**15 an error under ANSI), rounded towards -inf / +inf
    for column in ("d", "f", "i", "l", "t", "sm", "n", "w", "v"):
        add("floor({0}, 2)", column)
        add("ceil({0}, -1)", column)
    add("floor({0}, -2)", "d")
    add("floor({0}, -2)", "v")
    add("ceiling({0}, 1)", "d")
    add("ceiling({0}, 1)", "n")
    add("ceil({0}, 0)", "d")
    add("floor({0}, 16)", "d")
    add("floor({0}, 20)", "f")
    add("ceil({0}, -40)", "i")  # past 38 digits: an error, with ANSI on or off
    add("floor({0} / {1}, 3)", "n", "k")
    add("(floor({0}, 1) < ceil({1}, 1))", "d", "n")
    # sqrt: Math.sqrt of the value as a DOUBLE (negative: NaN, -0.0 stays)
    for column in ("d", "f", "i", "n"):
        add("sqrt({0})", column)
    add("sqrt({0} * {1})", "d", "d")
    # StrictMath (fdlibm): the logarithms NULL for x <= 0 (log1p: x <= -1), NaN kept; any
    # number cast to DOUBLE
    for column in ("d", "f", "i", "l", "n", "w"):
        for function in ("ln", "log", "log10", "log2", "log1p", "exp", "expm1", "cbrt"):
            add(f"{function}({{0}})", column)
    for base, column in (("d", "d"), ("i", "d"), ("d", "n"), ("k", "i"), ("f", "l")):
        add("log({0}, {1})", base, column)
        add("power({0}, {1})", column, base)
        add("pow({1}, {0})", column, base)
    add("log(2, {0} * {1})", "d", "d")
    add("ln({0} + {1}) > 1", "d", "i")
    add("power({0}, 0.5)", "d")
    add("power({0}, -0.5)", "d")
    add("pow({0}, 1.0E308) + cbrt({1})", "d", "t")
    for column in ("d", "f", "i", "t", "n", "v"):
        add("sign({0})", column)
        add("signum({0})", column)
    for column in ("i", "l", "t", "sm", "d", "f", "n", "w"):
        add("pmod({0}, {1})", column, "k")
        add("pmod({1}, {0})", column, "k")
    add("pmod({0}, {1})", "d", "f")
    add("pmod({0}, 3)", "t")
    add("pmod({0}, {1})", "n", "v")
    add("concat_ws({0}, {1}, {0})", "s1", "s2")
    add("concat_ws(',', {0}, NULL, {1})", "s1", "s2")
    add("concat_ws({0})", "s1")
    add("concat_ws('-', {0}, array('p', NULL), {1})", "s1", "s2")
    add("concat_ws({1}, array({0}, {1}, NULL), {0})", "s1", "s2")
    add("array_join(array({0}, NULL, {1}), {1})", "s1", "s2")
    add("array_join(array({0}, NULL, {1}), '/', {0})", "s1", "s2")
    add("(array({0}, {1}) < array({1}, {0}))", "s1", "s2")  # NULL elements first
    add("(array({0}, NULL) >= array({1}))", "s1", "s2")
    add("(array({0}, {1}) = array({1}, {0}))", "s1", "s2")
    add("(array({0}, NULL) <=> array({0}, {1}))", "s1", "s2")
    forms.append(("concat_ws(coalesce(A.s2, B.s2), collect_list(A.s1), 'z')",
                  "concat_ws(coalesce(s2, s2), filter(array(s1), x -> x IS NOT NULL), 'z')"))
    forms.append(("array_join(collect_list(A.s1), coalesce(A.s2, B.s2))",
                  "array_join(filter(array(s1), x -> x IS NOT NULL), coalesce(s2, s2))"))
    forms.append(("array_join(collect_list(A.s1), ',', coalesce(A.s2, B.s2))",
                  "array_join(filter(array(s1), x -> x IS NOT NULL), ',', coalesce(s2, s2))"))
    return forms


def _sign_bit_agrees(python, spark) -> bool:
    """-0.0 and 0.0 told apart (the oracle's comparison takes them as equal, as Spark's = does)."""
    if isinstance(python, float) and isinstance(spark, float) and python == 0 and spark == 0:
        return math.copysign(1, python) == math.copysign(1, spark)
    return True


@pytest.mark.parametrize("session", [True, False], ids=["ansi", "legacy"], indirect=True)
def test_scalar_functions_between_rows_agree_with_spark(session):  # noqa: F811 - the imported fixture
    spark, semantics = session
    started = time.monotonic()
    rng = random.Random(SEED)
    rows = [(r, *(fixed.get(c, None) for c in POOLS)) for r, fixed in enumerate(FIXED)]
    rows += [(r, *(rng.choice(pool) for _t, pool in POOLS.values())) for r in range(len(FIXED), ROWS)]
    # decimals as text, cast by Spark (PySpark would round a 38-digit Decimal to 28 digits)
    rows = [tuple(str(v) if isinstance(v, Decimal) else v for v in row) for row in rows]
    schema = "r INT, " + ", ".join(f"{c} {'STRING' if t.startswith('DECIMAL') else t}" for c, (t, _p) in POOLS.items())
    spark.createDataFrame(rows, schema).selectExpr("r", *(f"CAST({c} AS {t}) AS {c}" for c, (t, _p) in POOLS.items())) \
        .localCheckpoint().createOrReplaceTempView("sparkcep_scalar")
    expressions = cases()
    tally = Tally()
    batch = answer(spark, "sparkcep_scalar", ROWS, expressions, semantics, error_cells=6, rng=rng)
    tally.add(batch, semantics, ROWS)
    tally.report(f"round/bround/floor/ceil/sign/sqrt/StrictMath/pmod/concat_ws/array_join, ANSI={semantics.ansi}, seed {SEED}")
    assert not tally.disagreements
    assert batch.refused == [] and batch.value_failed == []
    assert tally.agreed + tally.both_failed + tally.not_asked == tally.cases
    assert tally.both_failed >= 6 if semantics.ansi else tally.both_failed >= 1
    # the signs of zeros, and the result types (Spark's analysis of every expression, one query)
    signs = []
    spark_types = [f.dataType.simpleString() for f in spark.sql(
        "SELECT " + ", ".join(f"{case.plain} AS e{k}" for k, case in enumerate(batch.cases))
        + " FROM sparkcep_scalar").schema.fields]
    types = []
    for case, spark_type in zip(batch.cases, spark_types):
        bound_type = bind(case.expression, case.column_types, semantics).type
        if bound_type != spark_type:
            types.append(f"{case.qualified}: sparkcep {bound_type}, Spark {spark_type}")
        interpreter = evaluators(case.expression, case.column_types, semantics)["interpreter"]
        for row, reference in zip(case.rows, case.answers):
            if reference is not MISSING and not isinstance(reference, SparkFailed):
                python = interpreter(row)
                if not _sign_bit_agrees(python, reference):
                    signs.append(f"{case.qualified} @ {row}: sparkcep {python!r}, Spark {reference!r}")
    assert not types, types
    assert not signs, signs[:10]
    # every expression where Python raised and Spark was not asked: Spark raises at one such
    # row too (a query each; the oracle only samples the rows where Python raised)
    unasked = {case.plain: case.answers.index(MISSING) for case in batch.cases if MISSING in case.answers}
    if unasked:
        from pyspark.logger import PySparkLogger

        from tests.evaluation.spark_oracle import Batch, _rows_of

        logger = PySparkLogger.getLogger("SQLQueryContextLogger")  # logs every failing query, whole
        disabled, logger.disabled = logger.disabled, True
        scratch = Batch()
        try:
            answered = {plain: _rows_of(spark, f"SELECT ({plain}) AS e FROM sparkcep_scalar WHERE r = {r}", scratch)
                        for plain, r in unasked.items()}
        finally:
            logger.disabled = disabled
        not_raised = [f"{plain} @ row {unasked[plain]}: Spark {result.column('e')[0].as_py()!r}"
                      for plain, result in answered.items() if not isinstance(result, SparkFailed)]
        assert not not_raised, not_raised
    print(f"{len(unasked)} expressions raised in Python at unsampled rows; Spark raised at one row of each")
    print(f"{len(expressions)} expressions x {ROWS} rows in {time.monotonic() - started:.1f} s")
