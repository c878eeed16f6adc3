"""Several aggregate pattern queries over one input in one pass (``sparkcep.compiler.shared_pass``):
the rewrite (golden files in golden_shared/), what it leaves as the user wrote it, and why a
UNION ALL of aggregations is not shared (each branch then runs alone). The answers are checked on
Spark in tests/conformance/test_shared_pass_spark.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from sparkcep import dialect
from sparkcep.compiler.explain import explain_statement
from sparkcep.compiler.rewrite import compile_statement
from sparkcep.dialect import expressions as dx
from tests.compiler.golden_files import cases, check_golden

GOLDEN = Path(__file__).parent / "golden_shared"
CASES = cases(GOLDEN)


@pytest.mark.parametrize("source", CASES, ids=[p.stem for p in CASES])
def test_golden(source: Path) -> None:
    compiled = compile_statement(source.read_text())
    assert len(compiled.shared) == 1 and not compiled.shared_notes
    check_golden(source, compiled.sql)


@pytest.mark.parametrize("source", CASES, ids=[p.stem for p in CASES])
def test_only_the_clauses_and_the_aggregate_calls_change(source: Path) -> None:
    text = source.read_text()
    compiled = compile_statement(text)
    tree = dialect.parse_one(text)
    edits = [dialect.span(clause) for clause in tree.find_all(dx.MatchRecognize)]
    edits += [(s, e) for match in compiled.matches for s, e, _ in match.aggregate_calls]
    edits.append((dialect.span(tree)[0],) * 2)  # the CTE, inserted where the statement begins
    position, rest = 0, compiled.sql
    for start, end in sorted(edits):
        piece = text[position:start]
        at = rest.find(piece)
        assert at >= 0, piece
        rest = rest[at + len(piece):]
        position = end
    assert rest.endswith(text[position:])
    # one call of the shared function, none of the branches' own
    assert compiled.sql.count(compiled.shared[0].function_name) == 1
    assert not any(match.function_name in compiled.sql for match in compiled.matches)


BRANCH = """SELECT {partition}, COUNT(*) AS n, SUM(v) FROM {relation} MATCH_RECOGNIZE (
  PARTITION BY {partition} ORDER BY {order} MEASURES {measure} AS v SKIP TILL ANY MATCH
  PATTERN ({pattern}) DEFINE A AS kind = 'a', B AS kind = 'b') AS m {rest}GROUP BY {partition}"""


def _branch(relation="ev", partition="p", order="ts", measure="A.val", pattern="A B+", rest=""):
    return BRANCH.format(relation=relation, partition=partition, order=order, measure=measure,
                         pattern=pattern, rest=rest)


def test_branches_with_different_patterns_and_measures_share_one_pass():
    text = (_branch() + " UNION ALL " + _branch(measure="LAST(B.val)", pattern="B+ A")
            + " UNION ALL " + _branch(pattern="A B* C"))
    compiled = compile_statement(text)
    (shared,) = compiled.shared
    assert len(shared.branches) == 3
    # each branch's computed columns under its own name, the input columns once
    assert shared.input_sql.count("__sparkcep_in.`p`") == 1
    for number in range(3):
        assert f"`__sparkcep_s{number}_m0`" in shared.input_sql
        assert f"`__sparkcep_branch` = {number}" in compiled.sql
    explained = explain_statement(text)
    assert f"== shared pass: function {shared.function_name} ==" in explained
    assert ("MATCH_RECOGNIZE #1, #2, #3 (one per UNION ALL branch) read SELECT * FROM ev in one "
            "pass") in explained


@pytest.mark.parametrize("second, reason", [
    (_branch(relation="ev2"), "read different relations"),
    (_branch(partition="kind"), "partition differently"),
    (_branch(order="ts DESC"), "order differently"),
    (_branch(rest="WHERE v > 0 "), "not an aggregation pushed down"),
    ("SELECT p, COUNT(*), SUM(val) FROM ev GROUP BY p", "not an aggregation pushed down"),
])
def test_each_branch_runs_alone_with_a_reason(second, reason):
    # two branches pushed down (the first and the last) and ``second`` between them
    text = _branch() + " UNION ALL " + second + " UNION ALL " + _branch(pattern="B+ A")
    compiled = compile_statement(text)
    assert not compiled.shared
    (note,) = compiled.shared_notes
    assert note.startswith("UNION ALL of 3 aggregations: each branch runs alone (")
    assert reason in note
    assert all(match.function_name in compiled.sql for match in compiled.matches)
    assert f"sharing:    {note}" in explain_statement(text)


def test_a_with_clause_keeps_the_branches_alone():
    text = "WITH ev AS (SELECT * FROM events) " + _branch() + " UNION ALL " + _branch()
    compiled = compile_statement(text)
    assert not compiled.shared and "WITH clause" in compiled.shared_notes[0]


@pytest.mark.parametrize("text", [
    _branch() + " UNION " + _branch(),  # UNION DISTINCT: not a fan-out of one pass
    _branch(),  # one query
    _branch() + " UNION ALL SELECT 1, 2, 3",  # one aggregation
])
def test_no_sharing_and_no_note(text):
    compiled = compile_statement(text)
    assert not compiled.shared and not compiled.shared_notes
