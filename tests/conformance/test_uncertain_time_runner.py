"""The executor side of UNCERTAIN TIME without Spark: ``PartitionRunner`` fed the streams of
``uncertain_worlds`` as Arrow batches, split at random places, returns exactly the matches of the
possible-worlds oracle (rows, confidence, time bounds), for A B C and A B+ C, with and without
MINIMUM CONFIDENCE. The Spark test (``test_uncertain_time_spark.py``) checks the same through
``sparkcep.sql``; this one also exercises batch boundaries."""

from __future__ import annotations

import dataclasses
import random

import pyarrow as pa
import pytest

from sparkcep.compiler.rewrite import compile_statement
from sparkcep.runtime.partition_runner import PartitionRunner
from sparkcep.runtime.uncertain_times import in_points
from uncertain_worlds import CASES, WINDOW, worlds_oracle

QUERY = """SELECT * FROM ev MATCH_RECOGNIZE (
  PARTITION BY case_id ORDER BY id
  UNCERTAIN TIME (lo, hi)
  MEASURES A.id AS a, COLLECT_LIST(B.id) AS bs, C.id AS c, CONFIDENCE() AS confidence,
           MATCH_EARLIEST_START() AS s_lo, MATCH_LATEST_START() AS s_hi,
           MATCH_EARLIEST_END() AS e_lo, MATCH_LATEST_END() AS e_hi
  SKIP TILL ANY MATCH
  PATTERN ({pattern}) WITHIN {window}{minimum}
  DEFINE A AS kind = 'a', B AS kind = 'b', C AS kind = 'c')"""

TYPES = [pa.int64(), pa.list_(pa.int64()), pa.int64(), pa.float64()] + [pa.int64()] * 4


def run(stream, pattern: str, minimum: str, splits: list[int]) -> dict:
    compiled = compile_statement(QUERY.format(pattern=pattern, window=WINDOW, minimum=minimum)).matches[0]
    plan = in_points(compiled.plan, "bigint", "bigint")
    plan = dataclasses.replace(plan, component_types=tuple(str(t) for t in TYPES))
    schema = pa.schema([("case_id", pa.int64())] + [(f"__sparkcep_c{i}", t) for i, t in enumerate(TYPES)])
    runner = PartitionRunner(plan, schema)
    ordered = sorted(stream, key=lambda row: (row[2], row[0]))  # as Spark sorts: lo, then ORDER BY
    bits = {"a": 1, "b": 2, "c": 4}
    batches = []
    for start, end in zip([0, *splits], [*splits, len(ordered)]):
        part = ordered[start:end]
        if part:
            batches.append(pa.record_batch({
                "case_id": pa.array([0] * len(part), pa.int64()),
                "id": pa.array([r[0] for r in part], pa.int64()),
                "__sparkcep_m0": pa.array([bits[r[1]] for r in part], pa.int8()),
                "__sparkcep_tlo": pa.array([r[2] for r in part], pa.int64()),
                "__sparkcep_thi": pa.array([r[3] for r in part], pa.int64()),
            }))
    out = [b for batch in batches for b in runner.feed(batch)] + list(runner.finish())
    found = {}
    for batch in out:
        for row in batch.to_pylist():
            values = [row[f"__sparkcep_c{i}"] for i in range(len(TYPES))]
            a, bs, c, confidence, *bounds = values
            found[(a, tuple(sorted(bs)), c)] = (confidence, *bounds)
    return found


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("pattern, minimum", [("A B C", 0.0), ("A B+ C", 0.0), ("A B C", 0.3)])
def test_runner_gives_the_possible_worlds_matches_across_batches(case, pattern, minimum):
    stream = CASES[case]
    rng = random.Random(case)
    splits = sorted(rng.sample(range(1, len(stream)), rng.randrange(0, len(stream) - 1)))
    got = run(stream, pattern, f" MINIMUM CONFIDENCE {minimum}" if minimum else "", splits)
    expected = worlds_oracle(stream, pattern.replace(" ", ""), WINDOW, minimum)
    assert set(got) == set(expected)
    for key, (confidence, *bounds) in expected.items():
        assert got[key][0] == pytest.approx(float(confidence), abs=1e-12)
        assert list(got[key][1:]) == bounds


def test_runner_keeps_only_the_rows_a_window_can_still_reach():
    """A long partition fed in small batches: with WITHIN, the executor drops every input batch
    the engine no longer needs (``buffered_rows``), so what it holds stays bounded instead of
    growing with the partition."""
    rng = random.Random(7)
    stream, t = [], 0
    for i in range(3000):
        t += rng.randrange(0, 3)
        stream.append((i, "abc"[i % 3], t, t + rng.randrange(0, 3)))
    compiled = compile_statement(QUERY.format(pattern="A B C", window=WINDOW, minimum="")).matches[0]
    plan = in_points(compiled.plan, "bigint", "bigint")
    plan = dataclasses.replace(plan, component_types=tuple(str(t) for t in TYPES))
    schema = pa.schema([("case_id", pa.int64())] + [(f"__sparkcep_c{i}", t) for i, t in enumerate(TYPES)])
    runner = PartitionRunner(plan, schema)
    bits = {"a": 1, "b": 2, "c": 4}
    held, matches = [], 0
    for start in range(0, len(stream), 20):
        part = stream[start:start + 20]
        batch = pa.record_batch({
            "case_id": pa.array([0] * len(part), pa.int64()),
            "id": pa.array([r[0] for r in part], pa.int64()),
            "__sparkcep_m0": pa.array([bits[r[1]] for r in part], pa.int8()),
            "__sparkcep_tlo": pa.array([r[2] for r in part], pa.int64()),
            "__sparkcep_thi": pa.array([r[3] for r in part], pa.int64()),
        })
        matches += sum(b.num_rows for b in runner.feed(batch))
        held.append(runner.buffer.size - runner.buffer.base)
    matches += sum(b.num_rows for b in runner.finish())
    assert matches > 500
    assert max(held) <= 60, max(held)  # a few 20-row batches, never the 3,000-row partition
