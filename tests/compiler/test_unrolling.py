"""Which DEFINEs ``sparkcep.compiler.unrolling`` rewrites, and what the plan looks like (no Spark; the
results are checked on Spark in tests/conformance/test_unrolling.py)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pyarrow as pa
import pytest

from sparkcep.engines import rowpattern as rp
from sparkcep.errors import MatchRuntimeError
from sparkcep.runtime.partition_runner import PartitionRunner
from sparkcep.compiler.rewrite import compile_statement


def plan_of(clause: str, order: str = "ORDER BY ts"):
    sql = f"SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY s {order} MEASURES COUNT(*) AS n {clause})"
    return compile_statement(sql).matches[0].plan


RISING = "PATTERN (B{3,}) DEFINE B AS LAST(B.x, 1) IS NULL OR B.x > LAST(B.x, 1)"


def test_rising_streak_is_unrolled_into_row_local_copies():
    plan = plan_of(RISING)
    spec = plan.spec
    assert spec.variable_names == ("B", "B")
    assert spec.pattern == rp.Concat((rp.Label(0), rp.Quantified(rp.Label(1), 2, None, True)))
    assert plan.conditions == {} and plan.row_local == (True, True)
    assert spec.source_pattern == "B{3,}" and spec.pattern_text() == "B{3,}"


@pytest.mark.parametrize("quantifier, expected", [
    ("B", "B"),                 # one row: LAST(B.x, 1) is always NULL
    ("B{0,}", "(B (B B*)?)?"),
    ("B{1,2}?", "B B??"),
    ("B{2,5}", "B B B{0,3}"),
])
def test_block_shapes(quantifier, expected):
    clause = f"PATTERN (A {quantifier} C) DEFINE B AS B.x >= LAST(B.x, 2), A AS A.x > 0, C AS C.x < 0"
    spec = plan_of(clause).spec
    block = rp.to_text(spec.pattern, list(spec.variable_names))
    assert block == f"A {expected} C"


@pytest.mark.parametrize("clause, order", [
    ("PATTERN ((A B+)+) DEFINE B AS B.x > LAST(B.x, 1)", "ORDER BY ts"),     # B's rows not one block
    ("PATTERN (B+ A B+) DEFINE B AS B.x > LAST(B.x, 1)", "ORDER BY ts"),     # B occurs twice
    ("PATTERN (PERMUTE(A, B+)) DEFINE B AS B.x > LAST(B.x, 1)", "ORDER BY ts"),
    ("PATTERN (B+) DEFINE B AS B.x > LAST(B.x, 5)", "ORDER BY ts"),          # offset above the cap
    ("PATTERN (B+) DEFINE B AS B.x > FIRST(B.x)", "ORDER BY ts"),            # depends on the start
    ("PATTERN (B+) DEFINE B AS B.x > LAST(B.x, 1) AND B.x > SUM(B.x)", "ORDER BY ts"),
    ("PATTERN (B+) DEFINE B AS B.x > LAST(B.x, 1)", ""),                     # no ORDER BY: no lag
    ("SKIP TILL NEXT MATCH PATTERN (A B+) DEFINE B AS B.x > LAST(B.x, 1)", "ORDER BY ts"),
])
def test_not_unrolled(clause, order):
    plan = plan_of(clause, order)
    assert plan.conditions, "the DEFINE stays match-dependent"
    assert len(set(plan.spec.variable_names)) == len(plan.spec.variable_names)


def test_errors_name_the_users_pattern():
    plan = plan_of(RISING)
    plan = dataclasses.replace(plan, spec=dataclasses.replace(plan.spec, max_matches=0),
                               passthrough_columns=("s",))
    schema = pa.schema([("s", pa.int64()), ("__sparkcep_c0", pa.int64())])
    runner = PartitionRunner(plan, schema)
    batch = pa.RecordBatch.from_pydict({"s": [1] * 4, "ts": list(range(4)),
                                        plan.bitmask_columns[0]: np.array([1, 3, 3, 3], np.int8)})
    with pytest.raises(MatchRuntimeError) as error:
        list(runner.feed(batch))
        list(runner.finish())
    assert "PATTERN (B{3,})" in str(error.value)
