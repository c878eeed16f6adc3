"""How CLASSIFIER()/MATCH_NUMBER() in navigation and aggregates, nested RUNNING/FINAL and Spark
aggregates in MEASURES are compiled (issue 10 §2). The answers are checked on Spark in
``tests/conformance/test_standard_features_spark.py`` and against the oracle in
``tests/matcher/test_label_functions.py``; here: which plan nodes, and that a hidden
MATCH_NUMBER() keeps a clause out of parallel chunks."""

from __future__ import annotations

import pytest

from sparkcep.compiler.chunks import CHUNK_COLUMN
from sparkcep.compiler.rewrite import ChunkOptions, compile_statement
from sparkcep.plan import expressions as p


def clause(measures: str = "LAST(A.id) AS a", define: str = "A AS v > 0",
           rows: str = "ONE ROW PER MATCH", pattern: str = "A B") -> str:
    return (f"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY id MEASURES {measures} {rows} "
            f"PATTERN ({pattern}) DEFINE {define})")


def plan_of(text: str):
    return compile_statement(text).matches[0].plan


A, B = frozenset({0}), frozenset({1})


@pytest.mark.parametrize("measure, expected", [
    # ISO/IEC 19075-5, 5.6: PREV/NEXT are physical offsets from the row the (implicit or
    # explicit) logical navigation picks; ONE ROW PER MATCH is FINAL.
    ("PREV(CLASSIFIER())", p.NavigatedLabel("classifier", None, False, 0, -1, True)),
    ("NEXT(CLASSIFIER(A), 2)", p.NavigatedLabel("classifier", A, False, 0, 2, True)),
    ("FIRST(CLASSIFIER(), 2)", p.NavigatedLabel("classifier", None, True, 2, 0, True)),
    ("PREV(LAST(MATCH_NUMBER(), 1), 3)", p.NavigatedLabel("match_number", None, False, 1, -3, True)),
    ("NEXT(FIRST(CLASSIFIER(B)))", p.NavigatedLabel("classifier", B, True, 0, 1, True)),
])
def test_navigated_labels(measure, expected):
    assert plan_of(clause(f"{measure} AS x")).components == (expected,)


def test_running_and_final_on_nested_navigation():
    # 5.6.4/5.6.5: RUNNING/FINAL qualify the logical navigation inside PREV/NEXT
    running = plan_of(clause("PREV(RUNNING LAST(A.v), 2) AS x", rows="ALL ROWS PER MATCH"))
    final = plan_of(clause("PREV(FINAL LAST(A.v), 2) AS x", rows="ALL ROWS PER MATCH"))
    (r,), (f,) = running.components, final.components
    assert (r.variables, r.final, f.final) == (A, False, True)
    assert running.value_columns == final.value_columns


def test_spark_aggregates_read_match_rows():
    compiled = compile_statement(clause("max_by(B.v, B.id) AS top, array_agg(CLASSIFIER()) AS c"))
    plan = compiled.matches[0].plan
    assert [type(c) for c in plan.components] == [p.MatchRows, p.MatchRows]
    top, labels = plan.components
    assert (top.variables, len(top.fields), top.final) == (B, 2, True)
    assert (labels.variables, labels.fields) == (None, ("classifier",))
    assert "max_by(`__sparkcep_r`.`f0`, `__sparkcep_r`.`f1`)" in compiled.sql
    assert "explode(`__sparkcep_c0`)" in compiled.sql


def test_python_aggregates_stay_in_python():
    plan = plan_of(clause("sum(B.v) AS s, count(*) AS n"))
    assert [type(c) for c in plan.components] == [p.Aggregate, p.Aggregate]


def test_define_label_functions():
    plan = plan_of(clause(define="A AS v > 0, B AS PREV(CLASSIFIER()) = 'A' AND "
                                 "count(DISTINCT CLASSIFIER(A)) < 2"))
    condition = plan.conditions[1]
    assert condition.operands[0].operands[0] == p.NavigatedLabel(
        "classifier", None, False, 0, -1, False)
    assert condition.operands[1].operands[0] == p.LabelAggregate("count", A, "classifier", True)


@pytest.mark.parametrize("measure, define", [
    ("PREV(MATCH_NUMBER()) AS m", "B AS true"),
    ("max(MATCH_NUMBER()) AS m", "B AS true"),
    ("LAST(A.id) AS a", "B AS count(MATCH_NUMBER()) > 0"),
])
def test_hidden_match_number_keeps_clause_sequential(measure, define):
    # docs/semantics.md, "Parallel chunks": numbers count every earlier match of the partition
    text = (f"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY id MEASURES {measure} ONE ROW PER MATCH "
            f"AFTER MATCH SKIP TO NEXT ROW PATTERN (A B) WITHIN 10 DEFINE A AS v > 0, {define})")
    assert CHUNK_COLUMN not in compile_statement(text, ChunkOptions(8)).sql
    control = text.replace(measure, "LAST(A.id) AS a").replace(define, "B AS true")
    assert CHUNK_COLUMN in compile_statement(control, ChunkOptions(8)).sql


def test_filtered_aggregates_go_to_spark_whole():
    # agg(...) FILTER (WHERE ...) (ISO/IEC 9075-2, <filter clause>) over the match's rows
    compiled = compile_statement(clause("count(*) FILTER (WHERE B.v > 12) AS n"))
    (rows,) = compiled.matches[0].plan.components
    assert isinstance(rows, p.MatchRows) and rows.variables == B
    assert "count(*) FILTER (WHERE `__sparkcep_r`.`f0` > 12) FROM explode" in compiled.sql
