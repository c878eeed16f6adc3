"""UNCERTAIN TIME, MINIMUM CONFIDENCE and the match functions of imprecise timestamps, without
Spark: parsing (round trip, spans), the analysis rules and their positions, the rewrite (the
interval columns, the input's order, no chunks), EXPLAIN, and the conversion of the rows'
times into time points (``sparkcep.runtime.uncertain_times``, pure PyArrow).

The results of real queries are checked against a possible-worlds oracle in
``tests/conformance/test_uncertain_time_spark.py``.
"""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest

import sparkcep
from sparkcep import dialect
from sparkcep.compiler.explain import explain_statement
from sparkcep.compiler.rewrite import ChunkOptions, compile_statement
from sparkcep.dialect import expressions as dx
from sparkcep.errors import MatchRuntimeError, SparkCepError, line_and_column
from sparkcep.plan import expressions as p
from sparkcep.runtime.uncertain_times import (UncertainTimeTypeError, block_times, in_points,
                                              points_to_arrow, window_in_points)


def query(
    uncertain: str = "UNCERTAIN TIME (lo, hi)",
    measures: str = "A.v AS a, CONFIDENCE() AS c",
    strategy: str = "SKIP TILL ANY MATCH",
    pattern: str = "A B",
    within: str = "WITHIN 4",
    minimum: str = "",
    define: str = "A AS A.kind = 'a', B AS B.kind = 'b'",
    rows: str = "",
    order: str = "ORDER BY id",
) -> str:
    parts = ["PARTITION BY p", order, uncertain, f"MEASURES {measures}" if measures else "", rows,
             strategy, f"PATTERN ({pattern})", within, minimum, f"DEFINE {define}" if define else ""]
    body = "\n  ".join(part for part in parts if part)
    return f"SELECT *\nFROM t MATCH_RECOGNIZE (\n  {body}\n) AS m"


# -- parsing ------------------------------------------------------------------------------------


def test_round_trip_and_spans() -> None:
    sql = query(uncertain="UNCERTAIN TIME (t.lo, lo + d) GRANULARITY INTERVAL '10' MILLISECOND",
                measures="MATCH_EARLIEST_START() AS s1, MATCH_LATEST_START() AS s2, "
                         "MATCH_EARLIEST_END() AS e1, MATCH_LATEST_END() AS e2, CONFIDENCE() AS c",
                minimum="MINIMUM CONFIDENCE 0.25")
    tree = dialect.parse_one(sql)
    assert dialect.parse_one(dialect.generate(tree)) == tree
    clause = tree.find(dx.MatchRecognize)
    uncertain, minimum = clause.args["uncertain_time"], clause.args["minimum_confidence"]
    assert sql[slice(*dialect.span(uncertain))] == \
        "UNCERTAIN TIME (t.lo, lo + d) GRANULARITY INTERVAL '10' MILLISECOND"
    assert sql[slice(*dialect.span(uncertain.expression))] == "lo + d"
    assert sql[slice(*dialect.span(minimum))] == "MINIMUM CONFIDENCE 0.25"
    functions = [f.this for f in clause.find_all(dx.UncertainMatchFunction)]
    assert functions == ["MATCH_EARLIEST_START", "MATCH_LATEST_START", "MATCH_EARLIEST_END",
                         "MATCH_LATEST_END", "CONFIDENCE"]


def test_clauses_in_any_order_and_confidence_outside_the_clause_is_a_name() -> None:
    sql = ("SELECT confidence() FROM t MATCH_RECOGNIZE (MINIMUM CONFIDENCE 1 PATTERN (A) "
           "UNCERTAIN TIME (a, b) SKIP TILL ANY MATCH MEASURES CONFIDENCE() AS c)")
    tree = dialect.parse_one(sql)
    assert tree.find(dx.MatchRecognize).args["minimum_confidence"] is not None
    assert len(list(tree.find_all(dx.UncertainMatchFunction))) == 1  # only the measure


def _position(sql: str, marker: str, occurrence: int = 1) -> tuple[int, int]:
    at = sql.index("MATCH_RECOGNIZE")
    for _ in range(occurrence):
        at = sql.index(marker, at + (0 if _ == 0 else 1))
    return line_and_column(sql, at)


PARSE_CASES = [
    ("INVALID_UNCERTAIN_TIME", query(uncertain="UNCERTAIN TIME lo, hi"), "lo,"),
    ("INVALID_UNCERTAIN_TIME", query(uncertain="UNCERTAIN TIME (lo)"), ")\n"),
    ("INVALID_UNCERTAIN_TIME", query(uncertain="UNCERTAIN TIME (lo, )"), ")\n"),
    ("INVALID_UNCERTAIN_TIME", query(uncertain="UNCERTAIN TIME (lo, hi GRANULARITY"), "GRANULARITY"),
    ("INVALID_UNCERTAIN_TIME", query(uncertain="UNCERTAIN TIME (lo, hi) GRANULARITY 5"), "5\n"),
    ("INVALID_MINIMUM_CONFIDENCE", query(minimum="MINIMUM CONFIDENCE high"), "high"),
    ("INVALID_MINIMUM_CONFIDENCE", query(minimum="MINIMUM CONFIDENCE"), "DEFINE"),
    ("INVALID_FUNCTION_ARGUMENTS", query(measures="CONFIDENCE(A.v) AS c"), "A.v)"),
    ("DUPLICATE_CLAUSE", query(minimum="MINIMUM CONFIDENCE 0.1 MINIMUM CONFIDENCE 0.2"),
     "MINIMUM CONFIDENCE 0.2"),
]

ANALYSIS_CASES = [
    ("UNCERTAIN_TIME_REQUIRED", query(uncertain=""), "CONFIDENCE()"),
    ("UNCERTAIN_TIME_REQUIRED", query(uncertain="", measures="MATCH_LATEST_END() + 1 AS e"),
     "MATCH_LATEST_END"),
    ("UNCERTAIN_TIME_REQUIRED", query(uncertain="", measures="A.v AS a", minimum="MINIMUM CONFIDENCE 0.5"),
     "MINIMUM"),
    ("INVALID_MINIMUM_CONFIDENCE", query(minimum="MINIMUM CONFIDENCE 1.5"), "1.5"),
    ("INVALID_MINIMUM_CONFIDENCE", query(minimum="MINIMUM CONFIDENCE -0.1"), "-0.1"),
    ("UNCERTAIN_FUNCTION_IN_DEFINE", query(define="A AS CONFIDENCE() > 0.5"), "CONFIDENCE() >"),
    ("INVALID_NAVIGATION_NESTING", query(measures="LAST(CONFIDENCE()) AS c"), "CONFIDENCE()"),
    ("INVALID_NAVIGATION_NESTING", query(measures="MAX(MATCH_LATEST_END()) AS c"), "MATCH_LATEST_END"),
    ("PATTERN_VARIABLE_OUTSIDE_MEASURES_OR_DEFINE", query(uncertain="UNCERTAIN TIME (A.lo, hi)"), "A.lo"),
    ("INVALID_UNCERTAIN_TIME", query(uncertain="UNCERTAIN TIME (min(lo), hi)"), "min(lo)"),
    ("INVALID_UNCERTAIN_TIME_GRANULARITY",
     query(uncertain="UNCERTAIN TIME (lo, hi) GRANULARITY INTERVAL '1' MONTH"), "INTERVAL '1' MONTH"),
    ("INVALID_UNCERTAIN_TIME_GRANULARITY",
     query(uncertain="UNCERTAIN TIME (lo, hi) GRANULARITY INTERVAL '0.5' MICROSECOND"), "INTERVAL"),
    # the imprecise-timestamp engine's own refusals (engines.uncertain.unsupported_reason)
    ("UNCERTAIN_TIME_NOT_SUPPORTED", query(pattern="A | B"), "A | B"),
    ("UNCERTAIN_TIME_NOT_SUPPORTED", query(pattern="A B+"), "A B+"),
    ("UNCERTAIN_TIME_NOT_SUPPORTED", query(rows="ALL ROWS PER MATCH WITH UNMATCHED ROWS"), "A B)"),
]


@pytest.mark.parametrize("code, sql, marker", PARSE_CASES + ANALYSIS_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(PARSE_CASES + ANALYSIS_CASES)])
def test_error_code_and_position(code: str, sql: str, marker: str) -> None:
    with pytest.raises(SparkCepError) as caught:
        sparkcep.transpile(sql)
    error = caught.value
    assert error.code == code, str(error)
    assert (error.line, error.column) == _position(sql, marker), str(error)
    assert "^" in str(error) and "__sparkcep" not in str(error)


def test_errors_need_the_right_clause() -> None:
    # CONFIDENCE() in a DEFINE without UNCERTAIN TIME: the missing clause is the mistake
    with pytest.raises(SparkCepError) as caught:
        sparkcep.transpile(query(uncertain="", measures="A.v AS a", define="A AS CONFIDENCE() > 0"))
    assert caught.value.code == "UNCERTAIN_TIME_REQUIRED"


# -- rewrite ------------------------------------------------------------------------------------


def test_rewrite_feeds_lo_and_hi_sorted_by_lo_then_order_by() -> None:
    compiled = compile_statement(query(uncertain="UNCERTAIN TIME (lo, lo + d)", order="ORDER BY id DESC"))
    sql = compiled.sql
    assert "(lo) AS `__sparkcep_tlo`, (lo + d) AS `__sparkcep_thi`" in sql
    assert "ORDER BY (`__sparkcep_tlo`, id DESC)" in sql
    plan = compiled.matches[0].plan
    assert plan.uncertain_time.lo_column == "__sparkcep_tlo"
    assert plan.order_key_column is None and plan.aggregation is None
    assert plan.components[1] == p.Confidence()


def test_prev_navigates_in_the_engine_order() -> None:
    sql = compile_statement(query(define="A AS A.kind = 'a', B AS PREV(B.kind) = 'a'")).sql
    assert "lag((`kind`), 1) OVER (PARTITION BY p ORDER BY (lo), id)" in sql


def test_without_order_by_the_input_is_sorted_by_lo() -> None:
    sql = compile_statement(query(order="")).sql
    assert "ORDER BY (`__sparkcep_tlo`)" in sql


def test_minimum_confidence_granularity_and_the_function_name() -> None:
    plans = [compile_statement(query(minimum=m, uncertain=u)).matches[0]
             for m, u in [("", "UNCERTAIN TIME (lo, hi)"), ("MINIMUM CONFIDENCE 0.5", "UNCERTAIN TIME (lo, hi)"),
                          ("MINIMUM CONFIDENCE 0.5",
                           "UNCERTAIN TIME (lo, hi) GRANULARITY INTERVAL '2' SECOND")]]
    assert [m.plan.uncertain_time.minimum_confidence for m in plans] == [None, 0.5, 0.5]
    assert [m.plan.uncertain_time.granularity for m in plans] == [None, None, 2_000_000]
    assert len({m.function_name for m in plans}) == 3  # registered under distinct names


def test_no_chunks_and_no_aggregation_pushdown() -> None:
    chunked = compile_statement(query(within="WITHIN 4").replace("PARTITION BY p\n  ", ""),
                                ChunkOptions(chunks=4))
    assert chunked.matches[0].plan.owned_column is None
    aggregated = compile_statement(
        "SELECT p, count(*) FROM t MATCH_RECOGNIZE (PARTITION BY p ORDER BY id UNCERTAIN TIME (lo, hi) "
        "MEASURES A.v AS v SKIP TILL ANY MATCH PATTERN (A B) WITHIN 4 "
        "DEFINE A AS A.kind = 'a', B AS B.kind = 'b') GROUP BY p")
    assert aggregated.matches[0].plan.aggregation is None


def test_explain_names_the_model_and_the_engine() -> None:
    text = explain_statement(query(minimum="MINIMUM CONFIDENCE 0.5"))
    assert "UNCERTAIN TIME (lo, hi): each row occurred at one of the equally likely" in text
    assert "engines/uncertain" in text and "MINIMUM CONFIDENCE 0.5" in text
    assert "chunks:     no (UNCERTAIN TIME" in text


# -- time points (registration and executor conversions) ----------------------------------------


def _plan(granularity=None, within=None, kind=None):
    sql = query(uncertain="UNCERTAIN TIME (lo, hi)" + (
        f" GRANULARITY INTERVAL '{granularity}' MILLISECOND" if granularity else ""),
        within=within or "")
    return compile_statement(sql).matches[0].plan


def test_window_in_points() -> None:
    assert window_in_points("number", 4, "bigint", 1) == 4
    assert window_in_points("number", 4.5, "int", 1) == 5  # diff < 4.5 <=> diff < 5 for integers
    assert window_in_points("interval", 15_000_000, "timestamp", 1_000) == 15_000
    assert window_in_points("interval", 1_500, "timestamp", 1_000) == 2
    assert window_in_points("number", 2, "timestamp", 1_000_000) == 2  # a number on a TIMESTAMP: s
    assert window_in_points("interval", 2 * 86_400_000_000, "date", 1) == 2
    with pytest.raises(UncertainTimeTypeError):
        window_in_points("interval", 1_000_000, "bigint", 1)
    with pytest.raises(UncertainTimeTypeError):
        window_in_points("number", 3, "date", 1)


def test_in_points_checks_the_types() -> None:
    plan = _plan(within="WITHIN INTERVAL '3' SECOND")
    ts = in_points(plan, "timestamp", "timestamp")
    assert (ts.uncertain_time.time_type, ts.uncertain_time.micros_per_point, ts.spec.within) == \
        ("timestamp", 1_000, 3_000)
    coarse = in_points(_plan(granularity=500, within="WITHIN INTERVAL '3' SECOND"), "timestamp_ntz", "timestamp_ntz")
    assert (coarse.uncertain_time.micros_per_point, coarse.spec.within) == (500_000, 6)
    assert in_points(_plan(within="WITHIN 4"), "int", "bigint").spec.within == 4
    for lo, hi in [("double", "double"), ("string", "string"), ("bigint", "timestamp")]:
        with pytest.raises(UncertainTimeTypeError):
            in_points(_plan(), lo, hi)
    with pytest.raises(UncertainTimeTypeError) as caught:
        in_points(_plan(granularity=10), "bigint", "bigint")
    assert caught.value.where == "granularity"


def test_block_times_and_back() -> None:
    plan = in_points(_plan(granularity=10), "timestamp", "timestamp")
    base = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)
    stamps = [base + dt.timedelta(milliseconds=ms) for ms in (0, 9, 10, 25)]
    batch = pa.record_batch({"__sparkcep_tlo": pa.array(stamps, pa.timestamp("us", "UTC")),
                             "__sparkcep_thi": pa.array(stamps[1:] + stamps[-1:], pa.timestamp("us", "UTC"))})
    lo, hi = block_times(batch, plan)
    epoch = int(base.timestamp() * 1000) // 10
    assert list(lo - epoch) == [0, 0, 1, 2] and list(hi - epoch) == [0, 1, 2, 2]
    back = points_to_arrow([int(epoch) + 1, None], plan, pa.timestamp("us", "UTC"))
    assert back.to_pylist() == [base + dt.timedelta(milliseconds=10), None]
    integers = in_points(_plan(), "int", "int")
    assert points_to_arrow([3, 4], integers, pa.int32()).to_pylist() == [3, 4]


def test_an_empty_or_null_interval_is_a_located_run_time_error() -> None:
    plan = in_points(_plan(), "bigint", "bigint")
    for lo, hi in [([1, 5], [2, 4]), ([1, None], [2, 3])]:
        batch = pa.record_batch({"__sparkcep_tlo": pa.array(lo, pa.int64()),
                                 "__sparkcep_thi": pa.array(hi, pa.int64())})
        with pytest.raises(MatchRuntimeError) as caught:
            block_times(batch, plan)
        assert caught.value.code == "INVALID_UNCERTAIN_INTERVAL"
        sql = query()
        start, end = caught.value.span
        assert sql[start:end] == "UNCERTAIN TIME (lo, hi)"


def test_the_new_codes_are_documented() -> None:
    from pathlib import Path

    listed = (Path(__file__).resolve().parents[2] / "docs" / "errors.md").read_text()
    for code in ("INVALID_UNCERTAIN_TIME", "INVALID_MINIMUM_CONFIDENCE", "UNCERTAIN_TIME_REQUIRED",
                 "UNCERTAIN_FUNCTION_IN_DEFINE", "INVALID_UNCERTAIN_TIME_GRANULARITY",
                 "UNCERTAIN_TIME_NOT_SUPPORTED", "UNCERTAIN_TIME_TYPE", "INVALID_UNCERTAIN_INTERVAL"):
        assert f"`{code}`" in listed, code
