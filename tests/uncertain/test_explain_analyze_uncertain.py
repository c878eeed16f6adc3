"""EXPLAIN ANALYZE of UNCERTAIN TIME clauses without Spark: the executors' runner
(``runtime.analyze_uncertain``) and the report (``compiler.explain_analyze_uncertain``) on
hand-made partitions, checked against a brute-force count of possible worlds written here (it
shares no code with the engine: every world is enumerated, every signature tried)."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import pyarrow as pa
import pytest

from sparkcep.compiler import explain_analyze as ea
from sparkcep.compiler.explain import _clauses
from sparkcep.compiler.explain_analyze_uncertain import new_uncertain_report
from sparkcep.compiler.rewrite import compile_statement
from sparkcep.runtime.analyze_uncertain import UncertainAnalyzeRunner
from sparkcep.runtime.uncertain_times import in_points

NEGATED = """SELECT * FROM t MATCH_RECOGNIZE (
  PARTITION BY u ORDER BY k UNCERTAIN TIME (lo, hi)
  MEASURES CONFIDENCE() AS c
  SKIP TILL ANY MATCH PATTERN (A !N B C) WITHIN 4 MINIMUM CONFIDENCE 0.5
  DEFINE A AS kind = 'a', N AS kind = 'n', B AS kind = 'b', C AS kind = 'c')"""

DEPENDENT = """SELECT * FROM t MATCH_RECOGNIZE (
  PARTITION BY u ORDER BY k UNCERTAIN TIME (lo, hi)
  MEASURES CONFIDENCE() AS c
  SKIP TILL ANY MATCH PATTERN (A B) MINIMUM CONFIDENCE 0.5
  DEFINE A AS A.kind = 'a', B AS B.kind = 'b' AND B.x > A.x)"""

KINDS = "anbc"  # the variables' order in NEGATED: A N B C


def _plan(query):
    match = compile_statement(query).matches[0]
    return match, in_points(match.plan, "bigint", "bigint")


def _batch(plan, rows):
    """The function's input for the queries above (what Catalyst computes, by hand): rows are
    (lo, hi, kind, x), sorted by lo as the analysis query sorts them."""
    names = plan.spec.variable_names
    columns = {"u": ["p"] * len(rows), "k": list(range(len(rows))),
               "__sparkcep_tlo": [r[0] for r in rows], "__sparkcep_thi": [r[1] for r in rows]}
    columns[plan.bitmask_columns[0]] = [
        sum(1 << v for v, name in enumerate(names) if r[2] == name.lower()) for r in rows]
    for column in plan.value_columns:
        columns[column] = [r[3] for r in rows]
    return pa.RecordBatch.from_pydict(columns)


def _analyze(query, rows, split=None):
    match, plan = _plan(query)
    runner = UncertainAnalyzeRunner(plan)
    cut = split or len(rows)
    for part in (rows[:cut], rows[cut:]):
        if part:
            runner.feed(_batch(plan, part))
    runner.finish()
    return match, plan, json.loads(json.dumps(runner.report()))


def brute_force(rows, window, threshold):
    """Every signature (a, b, c) of A !N B C and its confidence: the share of the possible
    worlds (one time point per row, all equally likely) with t_a < t_b < t_c, t_c - t_a < window
    and no N row strictly between a and b. Returns {signature: confidence} for the signatures
    that fit the time order in some world (confidence 0 included)."""
    by_kind = {kind: [i for i, r in enumerate(rows) if r[2] == kind] for kind in KINDS}
    points = [range(lo, hi + 1) for lo, hi, _kind, _x in rows]
    worlds = list(itertools.product(*points))
    out = {}
    for a, b, c in itertools.product(by_kind["a"], by_kind["b"], by_kind["c"]):
        ordered = matched = 0
        for t in worlds:
            if not (t[a] < t[b] < t[c] and t[c] - t[a] < window):
                continue
            ordered += 1
            if not any(t[a] < t[n] < t[b] for n in by_kind["n"]):
                matched += 1
        if ordered:
            out[(a, b, c)] = Fraction(matched, len(worlds))
    return out


def _random_rows(rng):
    """An A, a B, a C and up to four more rows (N among them), on overlapping intervals."""
    kinds = ["a", "b", "c"] + [rng.choice("abcnnn") for _ in range(rng.randint(2, 4))]
    rows = []
    for kind in kinds:
        lo = rng.randint(0, 4)
        rows.append((lo, lo + rng.choice((0, 0, 1, 2)), kind, 0))
    return sorted(rows, key=lambda r: r[0])


@pytest.mark.parametrize("seed", range(30))
def test_confidences_drops_and_misses_against_possible_worlds(seed):
    rng = random.Random(seed)
    rows = _random_rows(rng)
    expected = brute_force(rows, 4, Fraction(1, 2))
    *_, report = _analyze(NEGATED, rows, split=rng.randint(1, len(rows)))
    matches = sorted(c for c in expected.values() if c >= Fraction(1, 2))
    dropped = sorted(c for c in expected.values() if 0 < c < Fraction(1, 2))
    zero = [s for s, c in expected.items() if c == 0]
    assert report["matches"] == len(matches) == report["observed_matches"]
    assert report["dropped"]["count"] == len(dropped)
    assert report["zero"] == len(zero)
    if matches:
        assert Fraction(report["confidences"]["min"][1]) == matches[0]
        assert Fraction(report["confidences"]["max"][1]) == matches[-1]
    if dropped:
        assert Fraction(report["dropped"]["max"][1]) == dropped[-1]
    positive = [c for c in expected.values() if c > 0]
    assert report["signatures"]["buckets"] == [
        sum(1 for c in positive if k <= c * 10 < k + 1 or (k == 9 and c == 1)) for k in range(10)]
    covered = {row for s, c in expected.items() if c >= Fraction(1, 2) for row in s}
    assert report["covered"] == len(covered)
    # the closest misses: the most confident dropped signatures, each with its own confidence
    misses = report["misses"]
    if dropped:
        assert [Fraction(m["exact"]) for m in misses] == sorted(dropped, reverse=True)[:3]
        for miss in misses:
            assert miss["kind"] == "below_minimum_confidence"
            assert expected[tuple(miss["rows"])] == Fraction(miss["exact"])
            assert miss["labels"] == ["A", "B", "C"]
    elif zero:
        assert misses[0]["kind"] == "zero_confidence" and tuple(misses[0]["rows"]) in zero


def test_the_closest_misses_are_the_most_confident_dropped_signatures():
    query = NEGATED.replace(" WITHIN 4", "")
    # A at one of 0..9, B surely at k, C surely at 10: (A, B@k, C) has confidence k / 10
    rows = [(0, 9, "a", 0)] + [(k, k, "b", 0) for k in range(1, 10)] + [(10, 10, "c", 0)]
    expected = brute_force(rows, 11, Fraction(1, 2))
    assert sorted(expected.values()) == [Fraction(k, 10) for k in range(1, 10)]
    *_, report = _analyze(query, rows, split=4)
    assert report["matches"] == 5 and report["dropped"]["count"] == 4
    assert [m["exact"] for m in report["misses"]] == ["2/5", "3/10", "1/5"]
    assert [m["rows"] for m in report["misses"]] == [[0, 4, 10], [0, 3, 10], [0, 2, 10]]
    assert report["signatures"]["buckets"] == [0] + [1] * 9


def test_a_signature_a_negation_breaks_in_every_world():
    rows = [(0, 0, "a", 0), (1, 1, "n", 0), (2, 2, "b", 0), (3, 3, "c", 0),  # N surely between
            (1, 2, "b", 0)]  # between A and this B only when it is at 2: confidence 1/2
    expected = brute_force(sorted(rows, key=lambda r: r[0]), 4, Fraction(1, 2))
    assert sorted(expected.values()) == [0, Fraction(1, 2)]
    _match, plan, report = _analyze(NEGATED, sorted(rows, key=lambda r: r[0]))
    assert report["zero"] == 1 and report["matches"] == 1 and report["dropped"]["count"] == 0
    assert report["confidences"]["min"] == [0.5, "1/2"]  # at the threshold: a match
    clause = new_uncertain_report(1, "#1", plan, _clauses(NEGATED)[0], NEGATED)
    clause.add(report, ea.parse_statement(f"EXPLAIN ANALYZE {NEGATED} FOR PARTITION (u = 'p')")
               .partition)
    out = ea.report_rows([clause], 1, 0.1, None)
    zero = [r for r in out if r[3] == "zero_confidence"]
    assert zero[0][5] == ("rows A@0 B@3 C@4: confidence 0, broken in every possible world "
                          "(a row of a negated variable lies between them)")


def test_a_hand_made_partition_read_by_a_match_dependent_define():
    # (lo, hi, kind, x), sorted by lo; A at 0 or 1
    rows = [(0, 1, "a", 1),
            (0, 1, "b", 5),   # after A in 1 of 4 worlds (A at 0, B at 1): 1/4 < 0.5, dropped
            (1, 2, "b", 5),   # after A in 3 of 4 worlds: a match of confidence 3/4
            (5, 5, "b", 0),   # surely after A, but B.x > A.x is false: no signature
            (6, 6, "b", 2)]   # surely after A and B.x > A.x: a match of confidence 1
    _match, plan, report = _analyze(DEPENDENT, rows)
    assert report["matches"] == 2 and report["covered"] == 3
    assert report["confidences"]["min"] == [0.75, "3/4"]
    assert report["confidences"]["max"] == [1.0, "1/1"]
    assert report["dropped"]["count"] == 1 and report["dropped"]["max"][1] == "1/4"
    assert report["row_local_true"] == [1, 4]
    assert report["condition_evaluated"] == [0, 4] and report["condition_true"] == [0, 3]
    assert report["engine_stats"]["pruned"] == 1  # the B at [0, 1]: bound 1/4 < 0.5
    miss = report["misses"][0]
    assert miss["rows"] == [0, 1] and miss["labels"] == ["A", "B"] and miss["exact"] == "1/4"
    assert miss["row_values"][1] == {"k": 1, "interval": [0, 1, 2]}

    clause = new_uncertain_report(1, "MATCH_RECOGNIZE #1", plan, _clauses(DEPENDENT)[0], DEPENDENT)
    clause.add(report, None)
    out = ea.report_rows([clause], 2, 0.1, None)
    assert all(len(row) == len(ea.COLUMNS) for row in out)

    def find(section, metric, subject=None):
        return [r for r in out if r[1] == section and r[3] == metric
                and (subject is None or r[2] == subject)]

    assert find("clause", "matches")[0][4] == 2
    assert find("confidence", "signatures", "below minimum")[0][4] == 1
    assert find("confidence", "max", "below minimum")[0][5] == "0.25 (1/4)"
    assert find("confidence", "min", "matches")[0][5] == "0.75 (3/4)"
    assert find("confidence", "signatures", "[0.7, 0.8)")[0][4] == 1
    assert find("confidence", "signatures", "[0.9, 1.0]")[0][4] == 1
    assert find("variable", "match_dependent_true", "B")[0][4] == 3
    assert find("automaton", "not_applicable")  # said, not left out
    assert not [r for r in out if r[1] in ("runs", "state", "edge")]
    assert find("miss", "below_minimum_confidence")[0][5] == (
        "rows A@0 B@1, confidence 0.25 (1/4) < 0.5 (MINIMUM CONFIDENCE)")
    assert [r[5] for r in find("miss", "row")] == ["A: interval [0, 1] (2 time points), k = 0",
                                                   "B: interval [0, 1] (2 time points), k = 1"]
    assert [r[4] for r in find("miss", "row")] == [0, 1]
    text = ea.report_text(out)
    assert "automaton:  not applicable" in text
    assert "below minimum (signatures): 1 signatures with 0 < confidence < 0.5" in text
    assert "u = 'p': below minimum confidence: 2 rows A@0 B@1, confidence 0.25 (1/4)" in text
    assert ("no automaton (imprecise timestamps): 3 signatures of confidence > 0 (2 matches, "
            "1 below MINIMUM CONFIDENCE), 0 of confidence 0") in ea.analyzed_dot([clause])


def test_the_longest_partial_signature_and_the_row_its_define_refused():
    rows = [(0, 0, "a", 3), (2, 2, "b", 1), (4, 4, "c", 0)]  # B.x > A.x false: nothing follows A
    _match, plan, report = _analyze(DEPENDENT, rows)
    assert report["matches"] == 0 and report["dropped"]["count"] == 0
    miss = report["misses"][0]
    assert miss["kind"] == "longest_partial_match" and miss["rows"] == [0]
    assert miss["rejected"]["row"] == 1 and miss["rejected"]["variable"] == "B"
    clause = new_uncertain_report(1, "MATCH_RECOGNIZE #1", plan, _clauses(DEPENDENT)[0], DEPENDENT)
    clause.add(report, None)
    defines = [r[5] or "" for r in ea.report_rows([clause], 0, 0.1, None) if r[1] == "miss"]
    assert "rows A@0: no row could extend it" in defines
    assert "waiting for B AS B.kind = 'b' AND B.x > A.x (a row satisfying it that may occur " \
           "after the last row, within the window)" in defines
    assert any(d.startswith("B AS B.kind = 'b' AND B.x > A.x was false there") for d in defines)

    # no row can start a match: said so, with no partial signature
    _match, plan, report = _analyze(DEPENDENT, [(0, 0, "b", 1)])
    assert report["misses"] == []
    clause = new_uncertain_report(1, "#1", plan, _clauses(DEPENDENT)[0], DEPENDENT)
    clause.add(report, None)
    no_run = [r for r in ea.report_rows([clause], 0, 0.1, None) if r[3] == "no_run"]
    assert no_run[0][5] == "no row satisfies A's DEFINE here: no match can start"


KLEENE = """SELECT * FROM t MATCH_RECOGNIZE (
  PARTITION BY u ORDER BY k UNCERTAIN TIME (lo, hi)
  MEASURES CONFIDENCE() AS c
  {strategy} PATTERN (A B+ !N C) WITHIN 5 MINIMUM CONFIDENCE 0.3
  DEFINE A AS kind = 'a', N AS kind = 'n', B AS kind = 'b', C AS kind = 'c')"""


@pytest.mark.parametrize("strategy", ["SKIP TILL ANY MATCH", "SKIP TILL NEXT MATCH", ""])
def test_the_analysis_without_threshold_finds_the_engines_matches(strategy):
    """A consistency check (not an oracle): the signatures at or above MINIMUM CONFIDENCE that
    the analysis finds without pruning are as many as the engine's matches, under each strategy
    (strict contiguity: without the negation, which it refuses)."""
    query = KLEENE.format(strategy=strategy)
    if not strategy:
        query = query.replace(" !N", "").replace(" N AS kind = 'n',", "")
    seen = 0
    for seed in range(15):
        rows = _random_rows(random.Random(seed))
        *_, report = _analyze(query, rows, split=3)
        assert report["matches"] == report["observed_matches"], seed
        assert report["analysis_error"] is None and report["engine_error"] is None
        seen += report["matches"] + report["dropped"]["count"] + report["zero"]
    assert seen > 0
