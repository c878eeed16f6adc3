"""Compilation details the matcher relies on (``sparkcep.engines.standard.program``)."""

from __future__ import annotations

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.standard.program import CHECK, SAVE, compile_pattern

A, B = rp.Label(0), rp.Label(1)


def registers(pattern):
    program = compile_pattern(pattern)
    return program.n_regs, sum(op in (SAVE, CHECK) for op in program.ops)


def test_no_empty_iteration_check_around_bodies_that_consume_a_row():
    assert registers(rp.Quantified(A, 3, None, True)) == (0, 0)
    assert registers(rp.Quantified(rp.Alternation((A, rp.Concat((A, B)))), 0, 2, False)) == (0, 0)


def test_empty_iteration_check_kept_where_the_body_can_match_empty():
    assert registers(rp.Quantified(rp.Quantified(A, 0, 1, True), 0, None, True)) == (1, 2)
    assert registers(rp.Quantified(rp.Alternation((rp.Empty(), A)), 1, 3, True)) == (1, 4)
    assert registers(rp.Quantified(rp.Anchor(True), 0, None, True)) == (1, 2)
