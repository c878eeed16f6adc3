"""The matcher's specialized DEFINE conditions (``codegen.specialize``) and its per-attempt
navigation state (``_Attempt.tracks``), against the interpreter and the brute-force oracle.

The conditions here are real plan expressions compiled by ``evaluation.make_condition`` (as the
executor does), so the matcher runs them in their specialized form, reading FIRST/LAST from the
tracks it maintains while the VM path grows, backtracks and is suspended between blocks. The
oracle evaluates the same expressions with the interpreter over its own context.
"""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sparkcep.plan import expressions as p
from sparkcep.engines import rowpattern as rp
from sparkcep.evaluation.codegen import specialize
from sparkcep.evaluation.conditions import make_condition
from sparkcep.evaluation.interpreter import compile_expression
from sparkcep.engines.standard.matcher import RowPatternMatcher
from sparkcep.engines.contract import RowBlock
from sparkcep.engines.spec import MatchSpec, RowsPerMatch, SkipMode

from tests.example_counts import examples
from .harness import run_matcher
from .oracle import Oracle, OracleTooBig
from .test_differential import random_pattern

NAMES = "ABCD"
SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=False)


def interpreted(expression, names):
    """The reference condition: the interpreter, TRUE only (no ``specialize`` attribute)."""
    function = compile_expression(expression, names)

    def condition(ctx):
        value = function(ctx)
        return value is not None and bool(value)

    return condition


# --------------------------------------------------------------------------- random expressions


def random_variables(rng, n_vars):
    """None (every row), one variable, or a SUBSET-like union of several."""
    k = int(rng.integers(0, 4))
    if k == 0:
        return None
    size = 1 if k < 3 else int(rng.integers(2, n_vars + 1))
    return frozenset(int(v) for v in rng.choice(n_vars, size=size, replace=False))


def random_value(rng, n_vars, depth, inlinable=True):
    k = int(rng.integers(0, 10 if depth < 2 else 6))
    if k in (0, 1, 2):
        return p.Navigation(random_variables(rng, n_vars), bool(rng.integers(0, 2)),
                            int(rng.integers(0, 3)), int(rng.integers(0, 2)))
    if k == 3:
        return p.CurrentRow(int(rng.integers(0, 2)))
    if k == 4:
        return p.Constant([None, 0, 1, 2, 3][int(rng.integers(0, 5))])
    if k == 5:
        if not inlinable and rng.integers(0, 2):
            return p.Aggregate("sum", random_variables(rng, n_vars), int(rng.integers(0, 2)))
        if rng.integers(0, 2):
            return p.Aggregate(["min", "max"][int(rng.integers(0, 2))], random_variables(rng, n_vars),
                               int(rng.integers(0, 2)), distinct=bool(rng.integers(0, 2)))
        return p.Aggregate("count", random_variables(rng, n_vars), None)
    if k == 6:
        return p.MatchNumber()
    # (no division: the oracle evaluates conditions on every derivation, the matcher only up to
    # the first match, so which rows raise DIVIDE_BY_ZERO would differ)
    name = ["add", "sub", "mul"][k - 7]
    return p.Operator(name, (random_value(rng, n_vars, depth + 1, inlinable),
                             random_value(rng, n_vars, depth + 1, inlinable)))


def random_condition(rng, n_vars, depth=0, inlinable=True):
    k = int(rng.integers(0, 10 if depth < 2 else 6))
    if k < 5:
        name = ["gt", "lt", "eq", "neq", "gte"][k]
        return p.Operator(name, (random_value(rng, n_vars, depth, inlinable),
                                 random_value(rng, n_vars, depth, inlinable)))
    if k == 5:
        return p.Operator("is", (random_value(rng, n_vars, depth, inlinable), p.Constant(None)))
    if k in (6, 7):
        items = tuple(random_condition(rng, n_vars, depth + 1, inlinable)
                      for _ in range(int(rng.integers(2, 4))))
        return p.Operator("and" if k == 6 else "or", items)
    if k == 8:
        return p.Operator("not", (random_condition(rng, n_vars, depth + 1, inlinable),))
    return p.Operator("paren", (random_condition(rng, n_vars, depth + 1, inlinable),))


def random_column(rng, n, kind):
    values = rng.integers(0, 5, size=n)
    if kind == "numpy":
        return values
    column = values.tolist()
    if kind == "nulls":
        for r in range(n):
            if rng.random() < 0.2:
                column[r] = None
    return column


def navigation_case(seed, inlinable=True, max_rows=12):
    rng = np.random.default_rng(seed)
    n_vars = int(rng.integers(2, 5))
    pattern = random_pattern(rng, n_vars, int(rng.integers(1, 9)), float(rng.choice([1 / 3, 0.6])))
    n = int(rng.integers(0, max_rows + 1))
    masks = rng.random((n_vars, n)) < float(rng.choice([0.5, 0.8, 0.95, 1.0]))
    kind = str(rng.choice(["numpy", "list", "nulls"]))
    columns = (random_column(rng, n, kind), random_column(rng, n, kind))
    expressions = {int(v): random_condition(rng, n_vars, inlinable=inlinable)
                   for v in rng.choice(n_vars, size=int(rng.integers(1, n_vars + 1)), replace=False)}
    skip = list(SkipMode)[int(rng.choice(4, p=[0.35, 0.35, 0.15, 0.15]))]
    skip_to = None
    if skip in (SkipMode.TO_FIRST, SkipMode.TO_LAST):
        skip_to = frozenset(int(v) for v in rng.choice(n_vars, size=int(rng.integers(1, 3)), replace=False))
    within = order_key = None
    if rng.integers(0, 5) == 0:
        within = int(rng.integers(1, 5))
        order_key = np.cumsum(rng.integers(0, 3, size=n))
    spec = MatchSpec(
        pattern=pattern,
        variable_names=tuple(NAMES[:n_vars]),
        skip=skip,
        skip_to=skip_to,
        rows_per_match=list(RowsPerMatch)[int(rng.integers(0, 4))],
        within=within,
    )
    cuts = sorted(int(c) for c in rng.integers(0, n + 1, size=int(rng.integers(0, 5))))
    return spec, expressions, masks, columns, order_key, cuts


def check_against_oracle(spec, expressions, masks, columns, order_key, cuts):
    names = spec.variable_names
    reference = {v: interpreted(e, names) for v, e in expressions.items()}
    try:
        expected = Oracle(spec, reference, masks, columns, order_key, limit=30_000).run()
    except OracleTooBig:
        return False
    conditions = {v: make_condition(e, names) for v, e in expressions.items()}
    for split in (cuts, list(range(masks.shape[1]))):  # random blocks, then one row per block
        assert run_matcher(spec, conditions, masks, columns, order_key, split) == expected
    return True


@settings(max_examples=examples(1500), **SETTINGS)
@given(st.integers(0, 2**63 - 1))
def test_specialized_conditions_match_oracle(seed):
    check_against_oracle(*navigation_case(seed))


@settings(max_examples=examples(400), **SETTINGS)
@given(st.integers(0, 2**63 - 1))
def test_mixed_specialized_and_general_conditions_match_oracle(seed):
    """Some conditions have parts the specialized form does not inline (SUM): those run with a
    context, the others specialized, in the same attempt."""
    check_against_oracle(*navigation_case(seed, inlinable=False))


def test_the_matcher_uses_the_specialized_form():
    last = p.Navigation(frozenset({0}), False, 1, 0)
    expression = p.Operator("gt", (p.CurrentRow(0), last))
    engine = RowPatternMatcher(MatchSpec(rp.Quantified(rp.Label(0), 1, None, True), ("A",)),
                               {0: make_condition(expression, "A")})
    assert engine._fast[0] is not None and engine._slots == {frozenset({0}): 0}
    total = p.Aggregate("sum", None, 0)
    engine = RowPatternMatcher(MatchSpec(rp.Label(0), ("A",)),
                               {0: make_condition(p.Operator("gt", (total, p.Constant(1))), "A")})
    assert engine._fast[0] is None and engine._slow[0] is not None


# --------------------------------------------------------------------------- the formulas


class _Context:
    """Rows 0..n-1 mapped to ``labels``; the candidate is row n, tentatively ``var``."""

    def __init__(self, labels, var, columns):
        self.labels, self.var, self.row, self.columns = list(labels), var, len(labels), columns
        self.match_number = 3

    def mapped_rows(self, variables):
        rows = [r for r, v in enumerate(self.labels) if variables is None or v in variables]
        if variables is None or self.var in variables:
            rows.append(self.row)
        return rows

    def value(self, column, row):
        return self.columns[column][row]

    def label_of(self, row):
        return self.var if row == self.row else self.labels[row]


@settings(max_examples=examples(1500), **SETTINGS)
@given(st.integers(0, 2**63 - 1), st.integers(0, 3))
def test_specialized_form_agrees_with_interpreter(seed, lo):
    """Direct check of the navigation formulas (FIRST/LAST, offsets 0-2, the universal set, one
    variable, several variables, with or without the candidate's variable), with the attempt
    starting ``lo`` rows into the buffer."""
    rng = np.random.default_rng(seed)
    n_vars = 3
    expression = random_condition(rng, n_vars)
    labels = [int(v) for v in rng.integers(0, n_vars, size=int(rng.integers(0, 6)))]
    var = int(rng.integers(0, n_vars))
    n = len(labels) + 1
    columns = [[None if rng.random() < 0.15 else int(x) for x in rng.integers(0, 4, size=n)]
               for _ in range(2)]
    slots: dict = {}
    function = specialize(expression, NAMES[:n_vars], var, slots)
    assert function is not None
    tracks = [[j for j, v in enumerate(labels) if v in variables] for variables in slots]
    assert list(slots.values()) == list(range(len(slots)))
    padded = [[99] * lo + column for column in columns]  # rows of earlier attempts before lo
    ctx = _Context(labels, var, columns)
    expected = compile_expression(expression, NAMES[:n_vars])(ctx)
    got = function(lo + len(labels), lo, padded, tracks, ctx.match_number)
    assert (got is None, bool(got)) == (expected is None, bool(expected)), function.source


def test_slots_are_shared_between_conditions():
    nav = {v: p.Navigation(v, False, 1, 0) for v in (frozenset({0}), frozenset({0, 1}))}
    slots: dict = {}
    specialize(p.Operator("is", (nav[frozenset({0})], p.Constant(None))), "AB", 0, slots)
    specialize(p.Operator("gt", (nav[frozenset({0, 1})], nav[frozenset({0})])), "AB", 1, slots)
    assert slots == {frozenset({0}): 0, frozenset({0, 1}): 1}
    # a condition that cannot be specialized adds no slot
    total = p.Aggregate("sum", frozenset({2}), 0)
    assert specialize(p.Operator("gt", (total, nav[frozenset({0})])), "ABC", 0, slots) is None
    assert len(slots) == 2


# --------------------------------------------------------------------------- hand-worked cases


def run_rows(pattern, names, expressions, rows, values, cuts=None, **kw):
    spec = MatchSpec(pattern=pattern, variable_names=tuple(names), **kw)
    masks = np.array([[ch in cell for cell in rows.split()] for ch in names], dtype=bool)
    conditions = {v: make_condition(e, names) for v, e in expressions.items()}
    reference = {v: interpreted(e, names) for v, e in expressions.items()}
    expected = Oracle(spec, reference, masks, (values,)).run()
    got = run_matcher(spec, conditions, masks, (values,), None, cuts)
    assert got == expected
    return [(m.start, "".join(names[v] for v in m.labels)) for m in got[0] if hasattr(m, "labels")]


def nav(variables, from_start, offset):
    return p.Navigation(None if variables is None else frozenset(variables), from_start, offset, 0)


def gt(a, b):
    return p.Operator("gt", (a, b))


def first_or_greater(variables, offset=1):
    """LAST(S.x, offset) IS NULL OR x > LAST(S.x, offset)"""
    last = nav(variables, False, offset)
    return p.Operator("or", (p.Operator("is", (last, p.Constant(None))), gt(p.CurrentRow(0), last)))


@pytest.mark.parametrize("cuts", [None, [1, 2, 3, 4, 5, 6, 7]])
def test_tracks_are_truncated_on_backtracking(cuts):
    # (A B | A C)+ : the first alternative maps B, fails on a later row, backtracks and maps C:
    # LAST(B.x) must then not see the abandoned B.
    A, B, C = (rp.Label(v) for v in range(3))
    pattern = rp.Quantified(rp.Alternation((rp.Concat((A, B, rp.Quantified(B, 0, 1, True), C)),
                                            rp.Concat((A, C)))), 1, None, True)
    # C's condition: no B so far, or x > LAST(B.x). From row 0, A B B fails at row 3 (no C),
    # A B C fails (1 > 5 is false); then A C must see no B (the two abandoned B rows popped).
    expressions = {2: first_or_greater({1}, offset=0)}
    got = run_rows(pattern, "ABC", expressions, "A BC BC A C", [0, 5, 1, 0, 3], cuts=cuts)
    assert got == [(0, "AC"), (3, "AC")]


@pytest.mark.parametrize("cuts", [None, [2], [1, 2, 3, 4, 5]])
def test_rising_streak_across_blocks(cuts):
    B = rp.Label(0)
    got = run_rows(rp.Quantified(B, 3, None, True), "B", {0: first_or_greater({0})},
                   "B B B B B B B", [1, 2, 3, 4, 2, 3, 4], cuts=cuts, skip=SkipMode.TO_NEXT_ROW)
    assert got == [(0, "BBBB"), (1, "BBB"), (4, "BBB")]


def test_first_and_last_with_offsets_and_subsets():
    A, B = rp.Label(0), rp.Label(1)
    pattern = rp.Concat((rp.Quantified(rp.Alternation((A, B)), 1, None, True), rp.Label(2)))
    # C holds when FIRST(A.x, 1) < LAST(U.x, 2) with U = {A, B}, and the 3rd row overall is <= 2
    condition = p.Operator("and", (
        p.Operator("lt", (nav({0}, True, 1), nav({0, 1}, False, 2))),
        p.Operator("lte", (nav(None, True, 2), p.Constant(2))),
    ))
    # greedy (A|B)+ takes rows 0-5, C fails at 6 (no row) and at row 5 (1 < 1), holds at row 4
    got = run_rows(pattern, "ABC", {2: condition}, "AC BC AC AC BC AC", [0, 3, 1, 4, 2, 5])
    assert got == [(0, "ABAAC")]


def test_decimal_and_double_bound_to_spark_types_in_the_specialized_form():
    # x + y with a DECIMAL and a DOUBLE: the binding casts the DECIMAL to DOUBLE as Spark does
    # (Spark SQL reference, type promotion), so the specialized form computes it directly.
    from sparkcep.evaluation.binding import Semantics, bind

    expression = bind(gt(p.Operator("add", (p.CurrentRow(0), p.CurrentRow(1))), p.Constant(1)),
                      ["decimal(2,1)", "double"], Semantics())
    spec = MatchSpec(pattern=rp.Quantified(rp.Label(0), 1, None, True), variable_names=("A",))
    masks = np.ones((1, 3), dtype=bool)
    columns = ([Decimal("1.5"), Decimal("0.5"), Decimal("2")], [0.25, 0.25, 0.5])
    engine = RowPatternMatcher(spec, {0: make_condition(expression, "A")})
    assert engine._fast[0] is not None
    got = run_matcher(spec, {0: make_condition(expression, "A")}, masks, columns)
    assert [(m.start, len(m.rows)) for m in got[0]] == [(0, 1), (2, 1)]


def test_compiled_conditions_are_cached_but_not_across_constant_types():
    one, true = (p.Operator("eq", (p.CurrentRow(0), p.Constant(c))) for c in (1, True))
    assert specialize(one, "A", 0, {}) is specialize(one, "A", 0, {})
    assert specialize(one, "A", 0, {}) is not specialize(true, "A", 0, {})
    assert make_condition(one, "A").specialize(0, {}) is specialize(one, "A", 0, {})


def test_a_cached_specialization_still_adds_its_slots():
    for _ in range(2):
        slots = {frozenset({1}): 0}
        specialize(first_or_greater({0}), "AB", 0, slots)
        assert slots == {frozenset({1}): 0, frozenset({0}): 1}


def test_a_suspended_attempt_keeps_its_tracks_and_pickles():
    import pickle

    B = rp.Label(0)
    spec = MatchSpec(pattern=rp.Quantified(B, 3, None, True), variable_names=("B",))
    engine = RowPatternMatcher(spec, {0: make_condition(first_or_greater({0}), "B")})
    values = [5, 1, 2, 3, 4, 0]
    feed = lambda lo, hi: engine.feed(RowBlock(masks=np.ones((1, hi - lo), bool), columns=(values[lo:hi],)))
    assert feed(0, 3) == []  # 5 fails at row 1; the attempt at row 1 maps rows 1, 2 and waits
    attempt = pickle.loads(pickle.dumps(engine._attempt))
    assert (attempt.start, attempt.path, attempt.tracks) == (1, [0, 1], [[0, 1]])
    assert engine.buffered_rows == 2  # rows before the suspended attempt are dropped
    assert [(m.start, m.rows) for m in feed(3, 6)] == [(1, (1, 2, 3, 4))]  # resumed: 3, 4 rise
    assert engine.finish() == []
