"""The Catalyst path (``sparkcep.compiler.catalyst_path``) against the Python path and against
the brute-force oracle (``oracle.py``, which shares no code with either), on real Spark.

Random patterns over three variables (hypothesis, the IR generator of ``test_differential``,
kept where the Catalyst path takes them) plus a fixed list covering each construct it admits,
over one table of random label strings (one partition per string, ``DEFINE A AS a, B AS b, C AS
c`` with random flags). Every clause of a batch is one branch of a single UNION ALL statement,
run once per path, so the whole batch costs a few Spark queries. The measures read every kind of
component the path computes: MATCH_NUMBER, CLASSIFIER, FIRST/LAST with and without offset,
COUNT/SUM, RUNNING and FINAL.
"""

from __future__ import annotations

import contextlib
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sparkcep
from sparkcep.compiler.rewrite import ChunkOptions, compile_statement
from sparkcep.engines import rowpattern as rp
from sparkcep.engines.spec import MatchSpec, RowsPerMatch, SkipMode

from .oracle import oracle_events
from .test_differential import _patterns

pytestmark = pytest.mark.spark

NAMES = "ABC"
PARTITIONS = 40

FIXED = [
    "A B+ C+", "A B* C", "A+? B", "A+ B", "(A | B) C", "(B | A) C{2,}", "A{2,3} B?",
    "A{2,3}? B", "PERMUTE(A, B) C", "^ A+", "A+ $", "(A B)? C", "A (B C | C){1} A",
    "B+? C+?", "A? B? C", "(A | B C){0,1} C+",
]


def _table(spark, seed: int):
    """``lab(part, id, a, b, c)``: PARTITIONS partitions of 1-12 rows with random flags; and the
    masks per partition (variable x row) for the oracle."""
    rng = random.Random(seed)
    rows, masks = [], {}
    for part in range(PARTITIONS):
        n = rng.randint(1, 12)
        density = rng.choice([0.3, 0.5, 0.8])
        mask = np.array([[rng.random() < density for _ in range(n)] for _ in NAMES], dtype=bool)
        masks[part] = mask
        rows += [(part, i + 1, *map(bool, mask[:, i])) for i in range(n)]
    spark.createDataFrame(rows, "part INT, id INT, a BOOLEAN, b BOOLEAN, c BOOLEAN") \
        .createOrReplaceTempView("lab")
    return masks


def _variables(pattern: rp.Pattern) -> tuple[str, str]:
    used = sorted(rp.variables_of(pattern))
    return NAMES[used[0]], NAMES[used[-1]]


def _clause(number: int, pattern: rp.Pattern, rows: RowsPerMatch, skip: SkipMode) -> str:
    x, y = _variables(pattern)
    text = rp.to_text(pattern, list(NAMES))
    defines = ", ".join(f"{v} AS {v.lower()}" for v in sorted({NAMES[i] for i in rp.variables_of(pattern)}))
    if rows is RowsPerMatch.ONE:
        measures = (f"MATCH_NUMBER() AS mn, FIRST(id) AS f, LAST(id) AS l, COUNT(*) AS n, "
                    f"COUNT({x}.*) AS nx, SUM({x}.id) AS sx, LAST({x}.id, 1) AS lx1, "
                    f"FIRST({y}.id) AS fy, CLASSIFIER() AS cls")
        select = f"{number} AS q, part, mn, f, l, n, nx, sx, lx1, fy, cls"
    else:
        measures = (f"MATCH_NUMBER() AS mn, CLASSIFIER() AS cls, COUNT(*) AS rc, "
                    f"FINAL LAST(id) AS fl, LAST({x}.id) AS lx, FINAL FIRST({y}.id, 1) AS fy1")
        select = f"{number} AS q, part, id, mn, cls, rc, fl, lx, fy1"
    return (f"SELECT {select} FROM lab MATCH_RECOGNIZE (PARTITION BY part ORDER BY id "
            f"MEASURES {measures} {rows.value} AFTER MATCH SKIP {skip.value} "
            f"PATTERN ({text}) DEFINE {defines})")


def _expected(number, pattern, rows, skip, masks) -> list[tuple]:
    """The clause's rows from the oracle's matches, measures worked out from the labels."""
    spec = MatchSpec(pattern=pattern, variable_names=tuple(NAMES), skip=skip, rows_per_match=rows)
    x, y = (NAMES.index(v) for v in _variables(pattern))
    out = []
    for part, mask in masks.items():
        events, code = oracle_events(spec, {}, mask)
        assert code is None
        for event in events:
            if not hasattr(event, "labels"):  # an unmatched row
                out.append((number, part, event.row + 1, None, None, None, None, None, None))
                continue
            ids = [r + 1 for r in event.rows]
            labels = list(event.labels)
            xs = [i for i, v in zip(ids, labels) if v == x]
            ys = [i for i, v in zip(ids, labels) if v == y]
            if rows is RowsPerMatch.ONE:
                out.append((number, part, event.number, ids[0], ids[-1], len(ids), len(xs),
                            sum(xs) if xs else None, xs[-2] if len(xs) > 1 else None,
                            ys[0] if ys else None, NAMES[labels[-1]]))
                continue
            for k, (i, v) in enumerate(zip(ids, labels)):
                seen = [r for r, w in zip(ids[:k + 1], labels[:k + 1]) if w == x]
                out.append((number, part, i, event.number, NAMES[v], k + 1, ids[-1],
                            seen[-1] if seen else None, ys[1] if len(ys) > 1 else None))
    return out


@contextlib.contextmanager
def _path(spark, mode: str):
    spark.conf.set("spark.sparkcep.path", mode)
    try:
        yield
    finally:
        spark.conf.unset("spark.sparkcep.path")


def _run(spark, cases, masks, modes=("catalyst", "python")) -> None:
    """One UNION ALL statement per rows-per-match kind, through each path of ``modes``; each
    against the oracle."""
    for one_row in (True, False):
        chosen = [(n, c) for n, c in enumerate(cases) if (c[1] is RowsPerMatch.ONE) == one_row]
        if not chosen:
            continue
        statement = " UNION ALL ".join(_clause(n, *case) for n, case in chosen)
        compiled = compile_statement(statement, ChunkOptions(path="catalyst"))
        assert all(match.catalyst for match in compiled.matches), [
            m.catalyst_reason for m in compiled.matches if not m.catalyst]
        expected = sorted((row for n, case in chosen for row in _expected(n, *case, masks)), key=repr)
        for mode in modes:
            with _path(spark, mode):
                got = sorted((tuple(r) for r in sparkcep.sql(spark, statement).collect()), key=repr)
            assert got == expected, mode


def _catalyst_eligible(pattern, rows, skip) -> bool:
    if not rp.variables_of(pattern):
        return False
    try:
        compiled = compile_statement(_clause(0, pattern, rows, skip), ChunkOptions(path="catalyst"))
    except sparkcep.SparkCepError:
        return False
    return compiled.matches[0].catalyst


ROWS = [RowsPerMatch.ONE, RowsPerMatch.ALL_SHOW_EMPTY, RowsPerMatch.ALL_WITH_UNMATCHED]
SKIPS = [SkipMode.PAST_LAST_ROW, SkipMode.TO_NEXT_ROW]


def test_fixed_patterns_both_paths_match_the_oracle(spark):
    from sparkcep.dialect import parse_one
    from sparkcep.compiler.analysis import analyze
    from sparkcep.dialect import expressions as dx

    masks = _table(spark, 7)
    cases = []
    for i, text in enumerate(FIXED):
        clause = f"SELECT * FROM lab MATCH_RECOGNIZE (ORDER BY id MEASURES 1 AS x PATTERN ({text}))"
        node = next(n for n in parse_one(clause).walk() if isinstance(n, dx.MatchRecognize))
        analysis = analyze(node, clause)
        names = list(analysis.scope.variables)
        # the analysis numbers variables as they first appear: renumber to A=0, B=1, C=2
        pattern = _renumber(analysis.pattern, [NAMES.index(n) for n in names])
        rows = ROWS[i % 3]  # WITH UNMATCHED ROWS only where matches do not overlap
        cases.append((pattern, rows, SKIPS[0 if rows is ROWS[2] else (i // 3) % 2]))
    _run(spark, cases, masks, modes=("catalyst",))  # the Python path: the random test below


def _renumber(pattern, ids):
    import dataclasses

    if isinstance(pattern, rp.Label):
        return rp.Label(ids[pattern.var])
    if isinstance(pattern, (rp.Concat, rp.Alternation, rp.Permute)):
        return type(pattern)(tuple(_renumber(i, ids) for i in pattern.items))
    if isinstance(pattern, rp.Quantified):
        return dataclasses.replace(pattern, pattern=_renumber(pattern.pattern, ids))
    return pattern


@settings(max_examples=1, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=st.integers(0, 2**31))
def test_random_patterns_both_paths_match_the_oracle(spark, data, seed):
    cases = []
    while len(cases) < 16:
        pattern = data.draw(_patterns(3, max_leaves=5))
        rows, skip = data.draw(st.sampled_from(ROWS)), data.draw(st.sampled_from(SKIPS))
        if _catalyst_eligible(pattern, rows, skip):
            cases.append((pattern, rows, skip))
    _run(spark, cases, _table(spark, seed))


def test_collected_rows_out_of_order_are_sorted_by_row_number(spark):
    """The path relies on the collected rows being in row-number order and sorts them when they
    are not (Spark does not promise collect_list's order). In the queries above they always
    arrive in order, so the sorting branch is checked here on lists built out of order, with a
    map among the columns (a type ``sort_array`` cannot order)."""
    from sparkcep.compiler.catalyst_path import ROW_NUMBER, in_row_order

    rn = f"`{ROW_NUMBER}`"

    def row(number: int, value: str) -> str:
        return f"named_struct('{ROW_NUMBER}', {number}, 'v', '{value}', 'm', map('k', {number}))"

    lists = {
        "shuffled": [(3, "c"), (1, "a"), (4, "d"), (2, "b")],
        "reversed": [(2, "b"), (1, "a")],
        "in order": [(1, "a"), (2, "b"), (3, "c")],
        "one row": [(1, "a")],
    }
    branches = " UNION ALL ".join(
        f"SELECT '{name}' AS name, array({', '.join(row(n, v) for n, v in rows)}) AS rows"
        for name, rows in lists.items())
    got = {r["name"]: (list(r["numbers"]), list(r["values"]), [m["k"] for m in r["maps"]])
           for r in spark.sql(f"SELECT name, sorted.{rn} AS numbers, sorted.v AS values, "
                              f"sorted.m AS maps FROM (SELECT name, {in_row_order('rows')} AS sorted "
                              f"FROM ({branches}))").collect()}
    for name, rows in lists.items():
        ordered = sorted(rows)
        assert got[name] == ([n for n, _ in ordered], [v for _, v in ordered],
                             [n for n, _ in ordered]), name
