"""EXPLAIN ANALYZE without Spark: the instrumented simulation (``runtime.analyze``) and the report
(``compiler.explain_analyze``) on hand-made inputs whose explanation is known in advance."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pyarrow as pa
import pytest

from sparkcep.compiler import explain_analyze as ea
from sparkcep.compiler.explain import _clauses
from sparkcep.compiler.rewrite import compile_statement
from sparkcep.engines import rowpattern as rp
from sparkcep.engines.contract import Match, RowBlock
from sparkcep.engines.selection import make_engine
from sparkcep.engines.spec import MatchSpec, Strategy
from sparkcep.errors import SparkCepError
from sparkcep.runtime.analyze import VAR, AnalyzeRunner, Graph, Simulator

NEXT, ANY, STRICT = Strategy.SKIP_TILL_NEXT_MATCH, Strategy.SKIP_TILL_ANY_MATCH, Strategy.STRICT_CONTIGUITY


def seq(*items):
    return rp.Concat(tuple(items))


def L(v):
    return rp.Label(v)


def spec_of(pattern, n_vars, strategy, within=None):
    return MatchSpec(pattern, tuple("ABCDE"[:n_vars]), strategy=strategy, within=within)


def simulate(spec, masks, keys=None, conditions=None):
    masks = np.asarray(masks, dtype=bool)
    sim = Simulator(spec, conditions or {})
    sim.feed(RowBlock(masks, (), None if keys is None else np.asarray(keys)))
    sim.finish()
    return sim


def var_edges(spec, var):
    graph = Graph.of(spec)
    return [i for i, kind in enumerate(graph.kinds) if kind == (VAR, var)]


# -- the simulation -------------------------------------------------------------------------------


def test_a_variable_no_row_satisfies():
    spec = spec_of(seq(L(0), L(1), L(2)), 3, STRICT)
    #        rows:  0  1  2  3  4
    masks = [[1, 0, 1, 0, 0],   # A
             [0, 1, 0, 1, 0],   # B
             [0, 0, 0, 0, 0]]   # C: never
    sim = simulate(spec, masks)
    assert sim.row_local_true == [2, 2, 0]
    assert sim.completed == 0
    assert sim.started == 5  # strict contiguity: a run starts at every row
    assert sim.taken[var_edges(spec, 0)[0]] == 2 and sim.taken[var_edges(spec, 1)[0]] == 2
    assert sim.miss.labels == (0, 1) and sim.miss.rows == (0, 1)
    assert sim.miss.row == 2 and sim.miss.reason == "no_way_on" and sim.miss.waiting == (2,)


def test_a_run_cut_by_within():
    spec = spec_of(seq(L(0), L(1)), 2, NEXT, within=10)
    masks = [[1, 0, 0],   # A at key 0
             [0, 0, 1]]   # B only at key 20: past the window
    sim = simulate(spec, masks, keys=[0, 5, 20])
    assert sim.completed == 0
    after_a = Graph.of(spec).edges[var_edges(spec, 0)[0]][1]
    assert sim.died["within"][after_a] == 1
    assert sim.miss.reason == "within" and sim.miss.row == 2 and sim.miss.rows == (0,)
    assert sim.miss.keys == (0, 20) and sim.miss.waiting == (1,)


def test_a_run_killed_by_a_negation():
    spec = spec_of(seq(L(0), rp.Negation(2), L(1)), 3, NEXT)
    masks = [[1, 0, 0, 0],   # A
             [0, 0, 1, 0],   # B
             [0, 1, 0, 0]]   # C between A and B: no match
    sim = simulate(spec, masks, keys=[0, 1, 2, 3])
    engine = make_engine(spec, {})
    events = engine.feed(RowBlock(np.asarray(masks, bool), (), np.asarray([0, 1, 2, 3])))
    events += engine.finish()
    assert not [e for e in events if isinstance(e, Match)]
    assert sim.completed == 0
    assert sum(sim.died["negation"]) == 1
    assert sim.miss.reason == "negation" and sim.miss.row == 1 and sim.miss.negated == 2


def test_a_trailing_negation_kills_and_completes():
    spec = spec_of(seq(L(0), L(1), rp.Negation(2)), 3, NEXT, within=10)
    #       key:     0  1  2 | 20 21 40
    masks = [[1, 0, 0, 1, 0, 0],   # A
             [0, 1, 0, 0, 1, 0],   # B
             [0, 0, 1, 0, 0, 0]]   # C: inside the first window only
    sim = simulate(spec, masks, keys=[0, 1, 2, 20, 21, 40])
    assert sum(sim.died["negation"]) == 1  # A@0 B@1 then C@2
    assert sim.completed == 1  # A@20 B@21: the window closes at key 40 without a C


def _brute_force(masks, keys, within):
    """Every (rows, labels) of PATTERN (A B+ C) under SKIP TILL ANY MATCH, as prefixes: counts of
    partial matches ending with A, with the first B, with a later B, complete ones, and the
    incomplete ones (which all stay alive until their window closes or the partition ends)."""
    n = len(keys)
    counts = {"A": 0, "B1": 0, "Bn": 0, "C": 0}
    incomplete = 0
    label = {r: "ABC"[[masks[v][r] for v in range(3)].index(1)] for r in range(n)
             if any(masks[v][r] for v in range(3))}
    for size in range(1, n + 1):
        for rows in itertools.combinations(sorted(label), size):
            if keys[rows[-1]] - keys[rows[0]] >= within:
                continue
            word = "".join(label[r] for r in rows)
            if word[0] != "A" or "A" in word[1:]:
                continue
            body = word[1:]
            if body == "":
                counts["A"] += 1
                incomplete += 1
            elif set(body) == {"B"}:
                counts["B1" if len(body) == 1 else "Bn"] += 1
                incomplete += 1
            elif body[-1] == "C" and body[:-1] and set(body[:-1]) == {"B"}:
                counts["C"] += 1
    return counts, incomplete


@pytest.mark.parametrize("seed", range(6))
def test_skip_till_any_match_counts_against_brute_force(seed):
    rnd = random.Random(seed)
    n = 14
    which = [rnd.choice("AABBBCx") for _ in range(n)]
    masks = [[int(w == v) for w in which] for v in "ABC"]
    keys = sorted(rnd.sample(range(50), n))
    within = 35
    spec = spec_of(seq(L(0), rp.Quantified(L(1), 1, None), L(2)), 3, ANY, within=within)
    sim = simulate(spec, masks, keys)
    expected, incomplete = _brute_force(masks, keys, within)
    a, = var_edges(spec, 0)
    b_first, b_more = var_edges(spec, 1)
    c, = var_edges(spec, 2)
    assert sim.taken[a] == expected["A"] == sim.started
    assert sim.taken[b_first] == expected["B1"]
    assert sim.taken[b_more] == expected["Bn"]
    assert sim.taken[c] == expected["C"] == sim.completed
    assert sum(sim.died["within"]) + sum(sim.died["partition_end"]) == incomplete
    assert sim.stopped is None
    engine = make_engine(spec, {})
    events = engine.feed(RowBlock(np.asarray(masks, bool), (), np.asarray(keys))) + engine.finish()
    assert len([e for e in events if isinstance(e, Match)]) == expected["C"]


def test_the_budget_stops_the_simulation_and_says_so():
    spec = spec_of(seq(L(0), rp.Quantified(L(1), 1, None), L(2)), 3, ANY)
    n = 40
    masks = [[1] * n, [1] * n, [0] * n]
    sim = Simulator(spec, {}, step_budget=2_000)
    sim.feed(RowBlock(np.asarray(masks, bool), (), None))
    sim.finish()
    assert sim.stopped is not None and "steps" in sim.stopped


# -- one partition through the runner, with the values a DEFINE read -----------------------------

QUERY = """SELECT * FROM t MATCH_RECOGNIZE (
  PARTITION BY u ORDER BY k
  MEASURES FIRST(A.k) AS first_k
  PATTERN (A B+ C)
  DEFINE B AS B.price > PREV(B.price),
         C AS C.price < 10
)"""


def _batch(match, probes, prices):
    """The function's input for ``QUERY``: what Catalyst would compute, by hand."""
    n = len(prices)
    rises = [i > 0 and prices[i] > prices[i - 1] for i in range(n)]
    cheap = [p < 10 for p in prices]
    bits = [1 + 2 * r + 4 * c for r, c in zip(rises, cheap)]
    columns = {"u": ["x"] * n, "k": list(range(n)), match.plan.bitmask_columns[0]: bits}
    for sql, name in probes.columns:  # the conjuncts, then the operands
        if ">" in sql:
            columns[name] = [None] + [p > q for p, q in zip(prices[1:], prices)]
        elif "<" in sql:
            columns[name] = cheap
        elif "lag" in sql:
            columns[name] = [None] + prices[:-1]
        else:
            columns[name] = prices
    return pa.RecordBatch.from_pydict(columns)


def test_the_define_that_was_false_on_one_row_with_its_values():
    match = compile_statement(QUERY).matches[0]
    probes = ea.clause_probes(_clauses(QUERY)[0], QUERY)
    assert [o.text for o in probes.defines["B"].operands] == ["B.price", "PREV(B.price)"]
    assert [o.text for o in probes.defines["C"].operands] == ["C.price"]
    #         row: 0   1   2   3   4   5
    prices = [20, 21, 22, 23, 12, 30]  # rises to 23, then 12: neither higher (B) nor < 10 (C)
    runner = AnalyzeRunner(match.plan, probes)
    runner.feed(_batch(match, probes, prices))
    runner.finish()
    report = json.loads(json.dumps(runner.report()))
    assert report["matches"] == 0 and report["rows"] == 6 and report["covered"] == 0
    miss = report["miss"]
    assert miss["labels"] == ["A", "B", "B", "B"] and miss["rows"] == [0, 1, 2, 3]
    assert miss["row"] == 4 and miss["reason"] == "no_way_on"
    assert miss["waiting"] == ["B", "C"]
    assert miss["values"] == {
        "B": [["B.price > PREV(B.price)", False, [["B.price", 12], ["PREV(B.price)", 23]]]],
        "C": [["C.price < 10", False, [["C.price", 12]]]]}
    assert miss["row_values"] == {"k": 4}

    clause = ea.new_clause_report(1, "MATCH_RECOGNIZE #1", match.plan, _clauses(QUERY)[0], QUERY)
    clause.add(report, None)
    rows = ea.report_rows([clause], 0, 0.1, None)
    assert all(len(row) == len(ea.COLUMNS) for row in rows)
    defines = [row[5] for row in rows if row[1] == "miss" and row[3] == "define"]
    assert defines == ["B AS B.price > PREV(B.price) was false: B.price = 12, PREV(B.price) = 23",
                       "C AS C.price < 10 was false: C.price = 12"]
    text = ea.report_text(rows)
    assert "C AS C.price < 10   <- no row satisfies it" in text
    assert "u = 'x': longest partial match: 4 rows A@0 B@1 B@2 B@3" in text
    dot = ea.analyzed_dot([clause])
    assert dot.startswith("digraph") and "B (3)" in dot  # the three runs that took B at row 1


def test_the_engine_matches_and_the_rows_they_cover():
    match = compile_statement(QUERY).matches[0]
    probes = ea.clause_probes(_clauses(QUERY)[0], QUERY)
    runner = AnalyzeRunner(match.plan, probes)
    runner.feed(_batch(match, probes, [20, 21, 22, 5, 30, 31, 1]))
    runner.finish()
    report = runner.report()
    assert report["matches"] == 2 and report["covered"] == 7
    assert report["selected"] == [2, 3, 2]


# -- the statement ---------------------------------------------------------------------------------


def test_for_partition_is_parsed_with_positions_kept():
    text = f"EXPLAIN ANALYZE {QUERY}\nFOR PARTITION (u = 'it''s', `n` = 3)"
    statement = ea.parse_statement(text)
    assert statement.partition == {"u": ("it's", text.index("u = ")), "n": (3, text.index("`n`"))}
    assert len(statement.query) == len(text) and "FOR" not in statement.query
    assert compile_statement(statement.query).matches
    assert ea.partition_matches(statement.partition, {"u": "it's", "n": 3})
    assert not ea.partition_matches(statement.partition, {"u": "x", "n": 3})


@pytest.mark.parametrize("text, code, caret", [
    ("EXPLAIN ANALYZE SELECT 1", "EXPLAIN_ANALYZE_WITHOUT_MATCH_RECOGNIZE", "EXPLAIN"),
    (f"EXPLAIN ANALYZE {QUERY} FOR PARTITION (u 'x')", "EXPLAIN_ANALYZE_SYNTAX", "u 'x'"),
    (f"EXPLAIN ANALYZE {QUERY} FOR PARTITION (u = 'x') LIMIT 1", "EXPLAIN_ANALYZE_SYNTAX", "LIMIT"),
])
def test_statement_mistakes_are_typed_and_located(text, code, caret):
    with pytest.raises(SparkCepError) as caught:
        ea.parse_statement(text)
    error = caught.value
    assert error.code == code and error.line is not None
    line = text.splitlines()[error.line - 1]
    assert line[error.column - 1:].startswith(caret)
    assert "^" in str(error)


def test_an_unknown_partition_column_is_located():
    text = f"EXPLAIN ANALYZE {QUERY} FOR PARTITION (user_id = 'u42')"
    statement = ea.parse_statement(text)
    with pytest.raises(SparkCepError) as caught:
        ea.check_partition(statement, [("u",)])
    assert caught.value.code == "UNKNOWN_PARTITION_COLUMN"
    line = text.splitlines()[caught.value.line - 1]
    assert line[caught.value.column - 1:].startswith("user_id")


# -- the command line checks before Spark starts ------------------------------------------------


@pytest.mark.parametrize("arguments, code", [
    (["-e", QUERY, "--partition", "u 'x'"], "EXPLAIN_ANALYZE_SYNTAX"),
    (["-e", "SELECT 1"], "EXPLAIN_ANALYZE_WITHOUT_MATCH_RECOGNIZE"),
    (["-e", f"EXPLAIN ANALYZE {QUERY} FOR PARTITION (u = 1)", "--partition", "u = 2"], None),
])
def test_cli_analyze_refuses_mistakes_before_spark(arguments, code, monkeypatch):
    from click.testing import CliRunner

    from sparkcep.clients import cli, session

    def no_spark(*args, **kwargs):
        raise AssertionError("Spark must not start")

    monkeypatch.setattr(session, "local_session", no_spark)
    result = CliRunner().invoke(cli.main, ["explain", "--analyze", *arguments])
    assert result.exit_code == 2, result.output
    if code is not None:
        assert f"[{code}]" in result.output and "^" in result.output
    else:
        assert "give the partition once" in result.output


def test_the_error_codes_are_listed():
    from pathlib import Path

    listed = (Path(__file__).resolve().parents[2] / "docs" / "errors.md").read_text()
    for code in ("EXPLAIN_ANALYZE_SYNTAX", "EXPLAIN_ANALYZE_WITHOUT_MATCH_RECOGNIZE",
                 "UNKNOWN_PARTITION_COLUMN", "EXPLAIN_ANALYZE_ON_STREAM"):
        assert f"`{code}`" in listed, code
