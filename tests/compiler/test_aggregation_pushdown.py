"""Aggregation over matches without enumerating them: which queries the compiler pushes down, the
rewrite it makes (golden files in golden_aggregation/), and why a query is not pushed down
(``sparkcep.compiler.aggregation_pushdown``; the answers are checked on Spark in
tests/conformance/test_aggregation_spark.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sparkcep import dialect
from sparkcep.compiler.explain import explain_statement
from sparkcep.compiler.rewrite import compile_statement
from sparkcep.dialect import expressions as dx
from tests.compiler.golden_files import cases, check_golden

GOLDEN = Path(__file__).parent / "golden_aggregation"
CASES = cases(GOLDEN)


@pytest.mark.parametrize("source", CASES, ids=[p.stem for p in CASES])
def test_golden(source: Path) -> None:
    compiled = compile_statement(source.read_text())
    assert compiled.matches[0].plan.aggregation is not None
    check_golden(source, compiled.sql)


@pytest.mark.parametrize("source", CASES, ids=[p.stem for p in CASES])
def test_only_the_clause_and_the_aggregate_calls_change(source: Path) -> None:
    text = source.read_text()
    compiled = compile_statement(text)
    tree = dialect.parse_one(text)
    clause = next(tree.find_all(dx.MatchRecognize))
    edits = sorted([dialect.span(clause)] + [(s, e) for s, e, _ in compiled.matches[0].aggregate_calls])
    # every piece of the user's text between the edits appears in order in the output
    position, rest = 0, compiled.sql
    for start, end in edits:
        piece = text[position:start]
        at = rest.find(piece)
        assert at >= 0, piece
        rest = rest[at + len(piece):]
        position = end
    assert rest.endswith(text[position:])


BASE = """SELECT {select} FROM ev MATCH_RECOGNIZE (
  {partition} ORDER BY ts MEASURES A.val AS a_val, B.val + 1 AS b_plus, FIRST(B.val, 1) AS b2
  {rows} {strategy} PATTERN ({pattern}) DEFINE A AS kind = 'a', B AS kind = 'b'{define}) AS m
  {rest}"""


def _compile(select="p, COUNT(*)", partition="PARTITION BY p", rows="ONE ROW PER MATCH",
             strategy="SKIP TILL ANY MATCH", pattern="A B+", define="", rest="GROUP BY p"):
    text = BASE.format(select=select, partition=partition, rows=rows, strategy=strategy,
                       pattern=pattern, define=define, rest=rest)
    return compile_statement(text).matches[0]


def test_pushdown_applies_to_every_supported_aggregate():
    match = _compile(select="p, COUNT(*), COUNT(1), COUNT(a_val), SUM(m.a_val), AVG(a_val), "
                            "MIN(a_val), MAX(a_val), SUM(a_val) / COUNT(*) AS mean")
    outputs = match.plan.aggregation.outputs
    # COUNT(*) and COUNT(1) share a column; the repeated SUM and COUNT(*) too
    assert [o.function for o in outputs] == ["count_star", "count", "sum", "avg", "min", "max"]
    assert match.aggregation_note is None


@pytest.mark.parametrize("change, reason", [
    (dict(strategy="SKIP TILL NEXT MATCH", define=" AND B.val > LAST(B.val, 1)"),
     "match-dependent DEFINE under SKIP TILL NEXT MATCH"),
    (dict(strategy=""), "strict contiguity: each row starts at most one match"),
    (dict(rows="ALL ROWS PER MATCH"), "ALL ROWS PER MATCH"),
    (dict(rest=""), "GROUP BY does not list every PARTITION BY column"),
    (dict(rest="WHERE a_val > 0 GROUP BY p"), "filters the matches"),
    (dict(select="p, SUM(b_plus)"), "is not X.col"),
    (dict(select="p, SUM(b2)"), "is not X.col"),
    (dict(select="p, SUM(DISTINCT a_val)"), "DISTINCT"),
    (dict(select="p, stddev(a_val)"), "STDDEV"),
    (dict(select="p, COUNT(*)", rest="GROUP BY p, 2"), "a position or a constant"),
    (dict(select="p, COUNT(*)", rest="GROUP BY p, floor(b_plus)"), "is not X.col"),
    (dict(select="p, COUNT(*)", rest="GROUP BY p, a_val + b_plus"), "exactly one measure"),
    (dict(select="p, COUNT(*)", rest="GROUP BY p, a_val + rand()"), "nondeterministic"),
    (dict(select="p, COUNT(*)", rest="GROUP BY p, a_val + q"), "neither a measure"),
    (dict(select="p, COUNT(*)", rest="GROUP BY p, floor(a_val)", pattern="A? B+"),
     "quantifier's minimum is 0"),
    (dict(select="p, COUNT(*)", rest="GROUP BY p, floor(a_val)", strategy="SKIP TILL NEXT MATCH"),
     "a bucket under SKIP TILL NEXT MATCH"),
    (dict(define=" AND B.val > LAST(B.val, 2)"), "other than LAST(X.x, 1)"),
    (dict(define=" AND (B.val > LAST(B.val, 1) OR B.val < 0)"), "an OR that is not"),
    (dict(define=" AND (LAST(A.val) IS NULL OR B.val > LAST(B.val, 1))"), "another row than"),
    (dict(define=" AND B.val > LAST(A.val, 1)"), "an offset to another variable"),
    (dict(define=" AND B.val > AVG(B.val)"), "not of the row's value with another row's"),
    (dict(pattern="A !C B+", define=", C AS C.val > A.val"), "negated"),
])
def test_pushdown_refused_with_a_reason(change, reason):
    match = _compile(**change)
    assert match.plan.aggregation is None
    assert reason.lower() in (match.aggregation_note or "").lower(), match.aggregation_note


def test_no_note_when_the_matches_are_not_aggregated():
    text = BASE.format(select="*", partition="PARTITION BY p", rows="ONE ROW PER MATCH",
                       strategy="SKIP TILL ANY MATCH", pattern="A B+", define="", rest="")
    match = compile_statement(text).matches[0]
    assert match.plan.aggregation is None and match.aggregation_note is None


def test_explain_says_whether_the_pushdown_applies():
    pushed = explain_statement((GOLDEN / "count_sum_by_partition.sql").read_text())
    assert "aggregation without enumerating matches" in pushed
    assert "COUNT(*), SUM(a_val), AVG(a_val), MIN(last_b), MAX(last_b)" in pushed
    text = BASE.format(select="p, COUNT(*)", partition="PARTITION BY p", rows="ONE ROW PER MATCH",
                       strategy="SKIP TILL ANY MATCH", pattern="A B+", define="",
                       rest="WHERE a_val > 0 GROUP BY p")
    refused = explain_statement(text)
    assert "aggregation: not pushed down (the outer query filters the matches" in refused


@pytest.mark.parametrize("define, comparisons", [
    # (variable, op, referenced variable, first/last, holds when NULL)
    (" AND B.val > LAST(B.val, 1)", [(1, "gt", 1, "last", False)]),
    (" AND (LAST(B.val, 1) IS NULL OR B.val >= LAST(B.val, 1))", [(1, "gte", 1, "last", True)]),
    (" AND (B.val < LAST(B.val, 1) OR LAST(B.val, 1) IS NULL)", [(1, "lt", 1, "last", True)]),
    (" AND LAST(B.val, 1) < B.val", [(1, "gt", 1, "last", False)]),  # flipped
    (" AND B.val + 1 <> LAST(B.val + 1, 1)", [(1, "neq", 1, "last", False)]),
    (" AND B.u = A.u AND B.u <=> FIRST(A.u)",
     [(1, "eq", 0, "last", False), (1, "null_safe_eq", 0, "first", False)]),
    # an unqualified column in B's DEFINE is B's row; back-quotes do not change the column
    (" AND val > A.val AND `u` = A.u", [(1, "gt", 0, "last", False), (1, "eq", 0, "last", False)]),
])
def test_comparisons_between_rows_are_pushed_down(define, comparisons):
    match = _compile(define=define)
    assert match.aggregation_note is None
    found = match.plan.aggregation.comparisons
    assert [(c.variable, c.op, c.ref.variable, c.ref.which, c.holds_when_null) for c in found] == comparisons
    texts = match.plan.value_columns
    for c in found:  # both sides read the same expression
        assert c.column != c.ref.column or texts[c.column] == texts[c.ref.column]


def test_explain_names_the_comparisons_the_counters_are_keyed_by():
    text = explain_statement((GOLDEN / "rising_trend_same_user.sql").read_text())
    assert "engines/sase/trend_aggregation" in text
    assert ("keyed by:  LAST(B.val, 1) IS NULL OR B.val > LAST(B.val, 1); C.u = A.u; "
            "C.val >= LAST(B.val)") in text


def test_a_comparison_without_source_text_is_described_in_words():
    from sparkcep.compiler.aggregation_pushdown import _describe
    from sparkcep.engines.sase.aggregation import MeasureRef
    from sparkcep.engines.sase.trend_aggregation import RowComparison

    rising = RowComparison(1, 0, "gt", MeasureRef(1, "last", 0), holds_when_null=True)
    same_user = RowComparison(2, 3, "eq", MeasureRef(0, "first", 3))
    assert _describe(rising, "ABC") == "LAST(B.x, 1) IS NULL OR B.x > LAST(B.x, 1)"
    assert _describe(same_user, "ABC") == "C.x = FIRST(A.x)"


def test_skip_till_next_match_is_pushed_down_with_and_without_within():
    match = _compile(strategy="SKIP TILL NEXT MATCH", select="p, COUNT(*), SUM(a_val)")
    assert match.aggregation_note is None and match.plan.aggregation is not None
    text = BASE.format(select="p, COUNT(*)", partition="PARTITION BY p", rows="ONE ROW PER MATCH",
                       strategy="SKIP TILL NEXT MATCH", pattern="A B+", define="", rest="GROUP BY p")
    explained = explain_statement(text)
    assert "engines/sase/next_aggregation" in explained and "window closes" not in explained
    windowed_text = text.replace("PATTERN (A B+)", "PATTERN (A B+) WITHIN 10")
    windowed = compile_statement(windowed_text).matches[0]
    assert windowed.aggregation_note is None and windowed.plan.aggregation is not None
    assert windowed.plan.spec.within == 10
    assert "per start key in the window; a run is counted when its window closes" in \
        explain_statement(windowed_text)


def test_explain_says_why_strict_contiguity_enumerates():
    text = BASE.format(select="p, COUNT(*)", partition="PARTITION BY p", rows="ONE ROW PER MATCH",
                       strategy="", pattern="A B+", define="", rest="GROUP BY p")
    explained = explain_statement(text)
    assert ("aggregation: not pushed down (strict contiguity: each row starts at most one match"
            in explained)
    assert "enumerating them is linear" in explained


@pytest.mark.parametrize("define, value_columns", [
    (" AND B.val > LAST(B.ts, 1)", ["(`val`)", "((`ts`))"]),
    (" AND B.val > LAST(B.val, 1) + 1", ["(`val`)", "((`val`) + 1)"]),
    (" AND B.val + 1 > LAST(B.val, 1)", ["(`val` + 1)", "((`val`))"]),
    (" AND B.val > A.val * 1.05", ["(`val`)", "(`val` * 1.05)"]),
])
def test_different_expressions_on_both_sides_are_value_columns(define, value_columns):
    # each side is a row-local expression of one row: Catalyst computes it per input row as a
    # value column, the counters are keyed by the compared side's column
    match = _compile(define=define)
    assert match.aggregation_note is None, match.aggregation_note
    (comparison,) = match.plan.aggregation.comparisons
    texts = {name: text for text, name in match.input_computed}
    names = match.plan.value_columns
    assert [texts[names[comparison.column]], texts[names[comparison.ref.column]]] == value_columns


SUMS = """SELECT p, COUNT(*), SUM(s), AVG(s), MIN(s), MAX(s), SUM(n) FROM ev MATCH_RECOGNIZE (
  PARTITION BY p ORDER BY ts MEASURES {measures}
  {strategy} PATTERN ({pattern}) DEFINE A AS kind = 'a', B AS kind = 'b', C AS kind = 'c') AS m
  GROUP BY p"""


def _sums(measures="SUM(B.val) AS s, COUNT(B.val) AS n", strategy="SKIP TILL ANY MATCH",
          pattern="A B* C"):
    return compile_statement(SUMS.format(measures=measures, strategy=strategy,
                                         pattern=pattern)).matches[0]


def test_per_match_sums_over_a_kleene_variable_are_pushed_down():
    match = _sums()
    assert match.aggregation_note is None
    aggregation = match.plan.aggregation
    assert [(m.variable, m.which) for m in aggregation.measures] == [(1, "sum"), (1, "count")]
    assert aggregation.grouped and not aggregation.keys


@pytest.mark.parametrize("change, reason", [
    (dict(measures="MIN(B.val) AS s, COUNT(B.val) AS n"), "is not X.col"),
    (dict(measures="SUM(DISTINCT B.val) AS s, COUNT(B.val) AS n"), "is not X.col"),
    (dict(measures="SUM(val) AS s, COUNT(B.val) AS n"), "is not X.col"),  # every row of the match
    (dict(measures="SUM(B.val) AS s, COUNT(C.val) AS n", pattern="A !C B+"), "negated"),
    (dict(strategy="SKIP TILL NEXT MATCH"), "per-match SUM/COUNT over a variable's rows under"),
])
def test_per_match_sums_refused_with_a_reason(change, reason):
    match = _sums(**change)
    assert match.plan.aggregation is None
    assert reason.lower() in (match.aggregation_note or "").lower(), match.aggregation_note


def test_a_bucket_is_computed_per_row_from_the_users_text():
    text = (GOLDEN / "hourly_buckets_kleene_sums.sql").read_text()
    match = compile_statement(text).matches[0]
    aggregation = match.plan.aggregation
    (key,) = aggregation.keys
    assert (key.variable, key.which) == (0, "first")
    # the bucket's value column is the GROUP BY item with the measure replaced by its argument
    assert "(date_trunc('HOUR', (`ts`))) AS `__sparkcep_v2`" in match.table_sql
    assert match.plan.value_columns[key.column] == "__sparkcep_v2"
    # the function hands the group's least first_ts to the outer query, under the measure's name
    ((name, output),) = aggregation.group_columns
    assert name == "first_ts" and aggregation.outputs[output].function == "min"
    explained = explain_statement(text)
    assert "engines/sase/grouped_aggregation" in explained
    assert "grouped by: date_trunc('HOUR', first_ts), computed per input row" in explained
    assert "per-match sums: cart_total, carts" in explained


def test_grouping_by_the_measure_itself_needs_no_new_column():
    text = BASE.format(select="p, a_val, COUNT(*)", partition="PARTITION BY p",
                       rows="ONE ROW PER MATCH", strategy="SKIP TILL ANY MATCH", pattern="A B+",
                       define="", rest="GROUP BY p, a_val")
    match = compile_statement(text).matches[0]
    (key,) = match.plan.aggregation.keys
    assert key == match.plan.aggregation.measures[0]
