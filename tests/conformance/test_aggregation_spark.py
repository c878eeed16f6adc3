"""Aggregation over matches without enumerating them, on Spark (issue 13): the pushed-down query
gives exactly the answer of enumerate-then-aggregate, which the same clause gives when it is
read through ``SELECT *`` (the outer query then aggregates Spark rows, and the matches are built
by the postponing engine). Also exact counts where enumeration is impossible, checked against
closed forms."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

import sparkcep
from sparkcep.compiler.explain import explain_statement

pytestmark = pytest.mark.spark

AGGREGATES = ("p, COUNT(*) AS n, COUNT(a_val) AS n_a, SUM(a_val) AS s_a, AVG(a_val) AS avg_a, "
              "MIN(a_val) AS min_a, MAX(a_val) AS max_a, SUM(b_dec) AS s_dec, AVG(b_dec) AS avg_dec, "
              "MIN(c_dbl) AS min_c, MAX(c_dbl) AS max_c, SUM(c_dbl) AS s_c, MAX(first_b) AS max_fb")

CLAUSE = """ev_agg MATCH_RECOGNIZE (
  PARTITION BY p ORDER BY ts
  MEASURES A.i AS a_val, LAST(B.d) AS b_dec, C.x AS c_dbl, FIRST(B.i) AS first_b
  ONE ROW PER MATCH SKIP TILL ANY MATCH
  PATTERN ({pattern}) {within}
  DEFINE A AS kind = 'a', B AS kind = 'b', C AS kind = 'c'{negated})"""

PATTERNS = [
    ("A B+ C", ""),
    ("A B* C", "WITHIN 6"),
    ("A B{2,3} C", "WITHIN 9"),
    ("A B+ !N C", ""),
    ("A C? B+", "WITHIN 5"),
]


def _clause(pattern: str, within: str = "") -> str:
    negated = ", N AS kind = 'n'" if "!N" in pattern else ""
    return CLAUSE.format(pattern=pattern, within=within, negated=negated)


@pytest.fixture(scope="module")
def events(spark):
    rng = random.Random(13)
    rows = []
    for p in range(4):
        ts = 0
        for _ in range(24):
            ts += rng.choice([0, 1, 1, 2])  # ties too
            kind = rng.choice("aabbbcn")
            i = rng.choice([None, -3, 0, 7, 2 ** 40])
            d = rng.choice([None, Decimal("1.25"), Decimal("-99999.99"), Decimal("0.01")])
            x = rng.choice([None, 0.5, -2.0, float("nan"), 1e300])
            rows.append((p, ts, kind, i, d, x))
    spark.createDataFrame(rows, "p INT, ts BIGINT, kind STRING, i BIGINT, d DECIMAL(20,2), x DOUBLE") \
        .createOrReplaceTempView("ev_agg")
    return rows


def _rows(spark, sql):
    return sorted((tuple(r) for r in sparkcep.sql(spark, sql).collect()), key=repr)


@pytest.mark.parametrize("pattern, within", PATTERNS, ids=[p for p, _ in PATTERNS])
def test_pushdown_equals_enumeration(spark, events, pattern, within):
    clause = _clause(pattern, within)
    pushed_sql = f"SELECT {AGGREGATES} FROM {clause} GROUP BY p"
    enumerated_sql = f"SELECT {AGGREGATES} FROM (SELECT * FROM {clause}) GROUP BY p"
    assert sparkcep.transpile(pushed_sql) != sparkcep.transpile(enumerated_sql)
    assert "aggregation without enumerating" in explain_statement(pushed_sql)
    pushed, enumerated = _rows(spark, pushed_sql), _rows(spark, enumerated_sql)
    assert len(enumerated) >= 1
    assert _comparable(pushed) == _comparable(enumerated)
    # the result columns have Spark's types for the same aggregates
    assert sparkcep.sql(spark, pushed_sql).schema == sparkcep.sql(spark, enumerated_sql).schema


def _comparable(rows):
    """NaN equal to NaN; a DOUBLE sum compared to 12 significant digits (Spark adds the matches'
    values one by one, the counters add them per prefix: the same real number, rounded in
    another order)."""
    def value(v):
        if isinstance(v, float):
            return "nan" if v != v else float(f"{v:.12g}")
        return v
    return [tuple(value(v) for v in row) for row in rows]


def test_global_aggregate_and_having(spark, events):
    # one partition's rows, without PARTITION BY: a global aggregate
    clause = _clause("A B+ C").replace("PARTITION BY p ", "").replace(
        "ev_agg MATCH_RECOGNIZE", "(SELECT * FROM ev_agg WHERE p = 1) MATCH_RECOGNIZE")
    pushed = f"SELECT COUNT(*), SUM(a_val) FROM {clause}"
    enumerated = f"SELECT COUNT(*), SUM(a_val) FROM (SELECT * FROM {clause})"
    assert _rows(spark, pushed) == _rows(spark, enumerated)
    never = clause.replace("C AS kind = 'c'", "C AS kind = 'zz'")
    none = f"SELECT COUNT(*), SUM(a_val) FROM {never}"
    assert _rows(spark, none) == [(0, None)]  # no match: one row, COUNT 0, SUM NULL (as Spark)
    clause = _clause("A B+ C")
    having = f"SELECT p, COUNT(*) AS n FROM {clause} GROUP BY p HAVING COUNT(*) > 20 ORDER BY n DESC"
    enumerated = (f"SELECT p, COUNT(*) AS n FROM (SELECT * FROM {clause}) GROUP BY p "
                  f"HAVING COUNT(*) > 20 ORDER BY n DESC")
    assert [tuple(r) for r in sparkcep.sql(spark, having).collect()] == \
        [tuple(r) for r in sparkcep.sql(spark, enumerated).collect()]


def test_counts_beyond_enumeration_are_exact(spark):
    # per partition p: n A rows, then m B rows, then k C rows; under SKIP TILL ANY MATCH
    # `A B+ C` has n * (2^m - 1) * k matches (every non-empty subset of the Bs) -- about 10^14
    # here, far beyond any enumeration -- and SUM(A.v) = k * (2^m - 1) * (sum of the A values)
    sizes = {0: (10, 40, 10), 1: (3, 47, 7), 2: (1, 1, 1), 3: (20, 36, 25)}
    rows = []
    for p, (n, m, k) in sizes.items():
        kinds = ["a"] * n + ["b"] * m + ["c"] * k
        rows += [(p, t, kind, t) for t, kind in enumerate(kinds)]
    spark.createDataFrame(rows, "p INT, t INT, kind STRING, v INT").createOrReplaceTempView("ev_big")
    sql = """SELECT p, COUNT(*) AS n, SUM(a) AS s FROM ev_big MATCH_RECOGNIZE (
        PARTITION BY p ORDER BY t MEASURES A.v AS a SKIP TILL ANY MATCH PATTERN (A B+ C)
        DEFINE A AS kind = 'a', B AS kind = 'b', C AS kind = 'c') GROUP BY p"""
    got = {r.p: (r.n, r.s) for r in sparkcep.sql(spark, sql).collect()}
    expected = {p: (n * (2 ** m - 1) * k, k * (2 ** m - 1) * sum(range(n))) for p, (n, m, k) in sizes.items()}
    assert got == expected
    assert max(n for n, _ in got.values()) > 10 ** 14


def test_rows_without_a_key_lie_in_no_window(spark):
    # docs/semantics.md, "WITHIN w": a row whose key is NULL lies in no window, so it is never
    # selected; Spark sorts it first (ASC) or last (DESC). Only (a@1, b@2) is within 5.
    spark.sql("SELECT * FROM VALUES (0, CAST(NULL AS BIGINT), 'a'), (0, 1, 'a'), (0, 2, 'b'), "
              "(0, 10, 'b'), (0, CAST(NULL AS BIGINT), 'b') AS t(p, ts, kind)") \
        .createOrReplaceTempView("ev_nullkey")
    for order in ("ts", "ts DESC"):
        clause = f"""ev_nullkey MATCH_RECOGNIZE (PARTITION BY p ORDER BY {order}
            MEASURES A.ts AS a_ts SKIP TILL ANY MATCH PATTERN (A B) WITHIN 5
            DEFINE A AS kind = 'a', B AS kind = 'b')"""
        pushed = f"SELECT p, COUNT(*), MIN(a_ts) FROM {clause} GROUP BY p"
        enumerated = f"SELECT p, COUNT(*), MIN(a_ts) FROM (SELECT * FROM {clause}) GROUP BY p"
        expected = [(0, 1, 1)] if order == "ts" else []  # DESC: b@2 then a@1 -- no A before a B
        assert _rows(spark, pushed) == expected, order
        assert _rows(spark, enumerated) == expected, order


# -- DEFINE comparing rows of the match (GRETA; engines/sase/trend_aggregation) ----------------

TREND_AGGREGATES = ("COUNT(*) AS n, SUM(a_v) AS s_a, MIN(lb) AS min_lb, MAX(lb) AS max_lb, "
                    "COUNT(lb) AS n_lb, AVG(lb) AS avg_lb, SUM(fbx) AS s_fbx, MAX(fbx) AS max_fbx, "
                    "MIN(cu) AS min_cu")

def _pushed_and_enumerated(spark, clauses, engine: str, select: str = AGGREGATES):
    """Each clause aggregated by ``SELECT <number> AS q, <select> ... GROUP BY p``, all in one
    query each way: pushed down (``explain`` must name ``engine``) and read through ``SELECT *``
    (enumerated, aggregated by Spark). (pushed rows, enumerated rows, the explanations)."""
    pushed, enumerated, explanations = [], [], []
    for number, clause in enumerate(clauses):
        pushed_one = f"SELECT {number} AS q, {select} FROM {clause} GROUP BY p"
        explained = explain_statement(pushed_one)
        assert engine in explained, (clause, explained)
        explanations.append(explained)
        pushed.append(pushed_one)
        enumerated.append(f"SELECT {number} AS q, {select} FROM (SELECT * FROM {clause}) "
                          "GROUP BY p")
    return (_rows(spark, " UNION ALL ".join(pushed)),
            _rows(spark, " UNION ALL ".join(enumerated)), explanations)


TREND_CLAUSE = """ev_trend MATCH_RECOGNIZE (
  PARTITION BY p ORDER BY ts
  MEASURES A.v AS a_v, LAST(B.v) AS lb, FIRST(B.x) AS fbx, C.u AS cu
  ONE ROW PER MATCH SKIP TILL ANY MATCH
  PATTERN ({pattern}) {within}
  DEFINE A AS kind = 'a', B AS kind = 'b'{b}, C AS kind = 'c'{c}{n})"""

TRENDS = [  # pattern, WITHIN, B's DEFINE beyond its kind, C's
    ("A B+ C", "", " AND (LAST(B.v, 1) IS NULL OR B.v > LAST(B.v, 1))", ""),
    ("A B+ C", "WITHIN 8", " AND (B.x >= LAST(B.x, 1) OR LAST(B.x, 1) IS NULL)", ""),
    ("A B* C", "WITHIN 6", "", " AND C.u = A.u"),
    ("A B{1,3} C", "", " AND (LAST(B.v, 1) IS NULL OR B.v <> LAST(B.v, 1))", " AND C.v < LAST(B.v)"),
    ("A B+ !N C", "WITHIN 10", " AND B.u <=> A.u", " AND C.x > FIRST(A.x)"),
    ("A B* C", "", " AND B.v > LAST(B.v, 1)", " AND C.x >= A.x"),
]


@pytest.fixture(scope="module")
def trend_events(spark):
    rng = random.Random(2017)
    rows = []
    for p in range(3):
        ts = 0
        for _ in range(18):
            ts += rng.choice([0, 1, 1, 2])
            rows.append((p, ts, rng.choice("aabbbbcn"), rng.choice([None, 0, 1, 2, 3, 3]),
                         rng.choice([None, -0.0, 0.0, 1.5, float("nan"), 2.0]),
                         rng.choice([None, "u", "v", "w"])))
    spark.createDataFrame(rows, "p INT, ts BIGINT, kind STRING, v INT, x DOUBLE, u STRING") \
        .createOrReplaceTempView("ev_trend")
    return rows


def test_comparisons_between_rows_equal_enumeration(spark, trend_events):
    # every shape in one query each way: the pushed-down clauses, and the same clauses read
    # through SELECT * (enumerated by the postponing engine, aggregated by Spark)
    clauses = [TREND_CLAUSE.format(pattern=pattern, within=within, b=b, c=c,
                                   n=", N AS kind = 'n'" if "!N" in pattern else "")
               for pattern, within, b, c in TRENDS]
    got, want, _ = _pushed_and_enumerated(spark, clauses, "engines/sase/trend_aggregation",
                                          f"p, {TREND_AGGREGATES}")
    assert {row[0] for row in want} >= {0, 1, 2, 3, 4}  # the shapes have matches
    assert _comparable(got) == _comparable(want)


NEXT_PATTERNS = ["A B+ C", "A B* C", "A B{1,3} C", "A B+ !N C", "A C? B+"]


def test_skip_till_next_match_counts_equal_enumeration(spark, events):
    # SKIP TILL NEXT MATCH without WITHIN (engines/sase/next_aggregation): every shape in one
    # query each way, pushed down and read through SELECT * (enumerated by the NFA^b engine)
    clauses = [_clause(pattern).replace("SKIP TILL ANY MATCH", "SKIP TILL NEXT MATCH")
               for pattern in NEXT_PATTERNS]
    got, want, _ = _pushed_and_enumerated(spark, clauses, "engines/sase/next_aggregation")
    assert {row[0] for row in want} == set(range(len(NEXT_PATTERNS)))
    assert _comparable(got) == _comparable(want)


NEXT_WINDOWED = [  # pattern, WITHIN, ORDER BY
    ("A B* C", "WITHIN 4", "ts"),
    ("A B{1,3} C", "WITHIN 9", "ts DESC"),
    ("A B+ !N C", "WITHIN 7", "ts"),
    ("A B+ C?", "WITHIN 3.5", "ts DESC"),
]


def test_skip_till_next_match_with_within_counts_equal_enumeration(spark, events):
    # SKIP TILL NEXT MATCH with WITHIN (one count vector per start key; a run counted when its
    # window closes), over a DOUBLE key with NULL and NaN keys (in no window) and ties; every
    # shape in one query each way, pushed down and enumerated by NFA^b
    spark.sql("SELECT p, CASE WHEN i IS NULL AND kind = 'b' THEN CAST('NaN' AS DOUBLE) "
              "WHEN i = -3 AND kind = 'a' THEN NULL ELSE ts * 0.5 END AS ts, kind, i, d, x "
              "FROM ev_agg").createOrReplaceTempView("ev_next_win")
    clauses = [_clause(pattern, within).replace("SKIP TILL ANY MATCH", "SKIP TILL NEXT MATCH")
               .replace("ev_agg MATCH", "ev_next_win MATCH")
               .replace("ORDER BY ts", f"ORDER BY {order}")
               for pattern, within, order in NEXT_WINDOWED]
    got, want, explanations = _pushed_and_enumerated(spark, clauses,
                                                     "engines/sase/next_aggregation")
    assert all("when its window closes" in explained for explained in explanations)
    assert {row[0] for row in want} == set(range(len(NEXT_WINDOWED)))
    assert _comparable(got) == _comparable(want)


DIFFERENT_SIDES = [  # pattern, WITHIN, B's DEFINE beyond its kind, C's: each side its own type
    ("A B+ C", "WITHIN 8", " AND B.i > A.i * 1.05", ""),  # BIGINT vs DECIMAL
    ("A B* C", "WITHIN 8", " AND (LAST(B.x, 1) IS NULL OR B.x + 1 > LAST(B.x, 1))",
     " AND C.d >= LAST(B.i)"),  # DOUBLE vs DOUBLE; DECIMAL vs BIGINT
    ("A B+ C", "WITHIN 10", " AND B.x < A.d", ""),  # DOUBLE vs DECIMAL
    ("A B{1,3} C", "WITHIN 9", " AND (LAST(B.i, 1) + 7 IS NULL OR B.i <> LAST(B.i, 1) + 7)",
     " AND C.i <= FIRST(A.x)"),  # BIGINT vs BIGINT; BIGINT vs DOUBLE
    ("A B+ C", "WITHIN 8", " AND B.i >= CAST(A.i AS STRING)", ""),  # BIGINT vs STRING (read as a BIGINT)
]


def test_different_expressions_on_both_sides_equal_enumeration(spark, events):
    # comparisons whose two sides are different row-local expressions, of different Spark types:
    # the executor casts both to the type Spark compares them in (as the enumerating path does)
    clauses = [_clause(pattern, within).replace("B AS kind = 'b'", f"B AS kind = 'b'{b}")
               .replace("C AS kind = 'c'", f"C AS kind = 'c'{c}")
               for pattern, within, b, c in DIFFERENT_SIDES]
    got, want, _ = _pushed_and_enumerated(spark, clauses, "engines/sase/trend_aggregation")
    assert {row[0] for row in want} == set(range(len(DIFFERENT_SIDES)))
    assert _comparable(got) == _comparable(want)
