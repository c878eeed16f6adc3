"""A key's runner stored as data (``sparkcep.runtime.state_codec``): through the state store
after every micro-batch, the operator's algorithm gives the batch query's answer, the stored
value holds no code (the standard ``pickle`` writes it, program objects as numbers), and a
decoded runner uses the worker's own compiled conditions.

The reference is the batch query over the same rows (``sparkcep.sql``); each clause is one of
the equivalence test's, with match-dependent DEFINEs (compiled to Python closures), over the
SASE strategies. Only analysis runs on Spark: the clause's input rows
are computed by a batch query and fed to ``SegmentMatcher`` directly, one key at a time.
"""

from __future__ import annotations

import random
import types

import pyarrow as pa
import pyarrow.compute as pc
import pytest

import sparkcep
from sparkcep.compiler.rewrite import compile_statement
from sparkcep.runtime import state_codec
from sparkcep.runtime.streaming import _EVENT_KEY, SegmentMatcher, SegmentState, operator_input
from tests.streaming.state_store import KeyStore
from tests.streaming.test_stream_equivalence import CASES, CLAUSE, COLUMNS, SCHEMA, random_rows

pytestmark = [pytest.mark.spark, pytest.mark.streaming]


@pytest.mark.parametrize("case", ["strict", "next_match", "any_match"])
def test_runner_as_data_through_the_state_store(spark, tmp_path, monkeypatch, case):
    code_pickled = []
    monkeypatch.setattr(state_codec, "_CodeEncoder",
                        lambda *args: code_pickled.append(1) or pytest.fail("code pickled"))
    rng = random.Random(f"sparkcep-state-codec-{case}")
    rows = random_rows(rng, partitions=12)
    text = "SELECT * FROM events" + CLAUSE.format(**CASES[case])
    empty = tmp_path / "empty"
    empty.mkdir()
    (spark.readStream.schema(SCHEMA).json(str(empty)).selectExpr(*COLUMNS)
     .withWatermark("ts", "30 seconds").createOrReplaceTempView("events"))
    (match,) = compile_statement(text, streaming=True).matches
    stream_plan, _, _, _ = operator_input(spark, match)
    spark.createDataFrame(rows, schema=SCHEMA).selectExpr(*COLUMNS).createOrReplaceTempView("events")
    table = spark.sql(match.table_sql).toArrow().select(stream_plan.input_schema.names)
    table = table.append_column(_EVENT_KEY, table.column(stream_plan.event_time)
                                .cast(pa.timestamp("us", "UTC")).cast(pa.int64()))
    want = sparkcep.sql(spark, text).toArrow()

    matcher = SegmentMatcher(stream_plan)
    closures = [o for o in matcher.codec.objects if isinstance(o, types.FunctionType)]
    assert closures, "the program holds the compiled conditions"
    out, blobs = [], 0
    for key in pc.unique(table.column("user_id")).to_pylist():
        part = table.filter(pc.equal(table.column("user_id"), key))
        part = part.take(pc.sort_indices(part, sort_keys=[(_EVENT_KEY, "ascending")]))
        state, store = SegmentState(), KeyStore(matcher.codec)
        for start in range(0, part.num_rows, 2):  # two rows per micro-batch, then the end
            chunk = part.slice(start, 2)
            out += matcher.advance(state, [chunk], pc.max(chunk.column(_EVENT_KEY)).as_py())
            state = store.round_trip(state)
            if state.runner is not None:
                blobs += 1
                assert _shares_program(state.runner, closures)
        out += matcher.advance(state, [], 10**18)
    got = pa.Table.from_batches(out).rename_columns(want.column_names) if out else want.slice(0, 0)
    assert sorted(got.to_pylist(), key=repr) == sorted(want.to_pylist(), key=repr)
    assert len(want) > 0 and blobs > 10 and not code_pickled


def _shares_program(runner, closures) -> bool:
    """Whether the decoded runner's conditions are the worker's own objects, not copies."""
    seen, stack = set(), [runner.engine]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, types.FunctionType):
            if any(obj is c for c in closures):
                return True
            continue
        if isinstance(obj, dict):
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple)):
            stack.extend(obj)
        elif hasattr(obj, "__dict__"):
            stack.extend(vars(obj).values())
    return False
