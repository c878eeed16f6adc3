"""Chunked WITHIN execution without Spark: the rewrite (golden SQL, eligibility), the executor's
owned-row filter, and the executor's memory bound (input batches are dropped as the engine's
window moves on).

Golden files: golden_chunked/<name>.sql compiles, with ``ChunkOptions(8, partitioned=True)``, to
golden_chunked/<name>.spark.sql (``SPARKCEP_UPDATE_GOLDEN=1`` regenerates them)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from sparkcep.compiler.chunks import (
    CHUNK_COLUMN, OWNED_COLUMN, chunk_count, spark_hash_long, spread_ids,
)
from sparkcep.runtime.chunk_filter import OwnedRows
from sparkcep.runtime.partition_runner import PartitionRunner
from sparkcep.engines.contract import Match, UnmatchedRow
from sparkcep.compiler.rewrite import ChunkOptions, compile_statement
from tests.compiler.golden_files import cases, check_golden
from tests.example_counts import examples

GOLDEN = Path(__file__).parent / "golden_chunked"
CASES = cases(GOLDEN)
OPTIONS = ChunkOptions(8, partitioned=True)


@pytest.mark.parametrize("source", CASES, ids=[p.stem for p in CASES])
def test_golden(source: Path) -> None:
    compiled = compile_statement(source.read_text(), OPTIONS)
    check_golden(source, compiled.sql)
    assert CHUNK_COLUMN in compiled.sql


@pytest.mark.parametrize("source", CASES, ids=[p.stem for p in CASES])
def test_text_outside_the_clause_is_untouched(source: Path) -> None:
    text = source.read_text()
    sql = compile_statement(text, OPTIONS).sql
    start = text.index("MATCH_RECOGNIZE")
    prefix = text[: text.rindex("FROM", 0, start)]
    assert sql.startswith(prefix)


def query(clause: str, partition: str = "", order: str = "ts", within: str = "WITHIN INTERVAL '1' MINUTE") -> str:
    return (f"SELECT * FROM ev MATCH_RECOGNIZE ({partition} ORDER BY {order} "
            f"MEASURES FIRST(A.id) AS a {clause.split('|')[0]} PATTERN ({clause.split('|')[1]}) {within} "
            "DEFINE A AS kind = 'a', B AS kind = 'b', C AS kind = 'c')")


ELIGIBLE = {
    "any": query("ONE ROW PER MATCH SKIP TILL ANY MATCH|A B+ C"),
    "next": query("ALL ROWS PER MATCH SKIP TILL NEXT MATCH|A !C B+ C"),
    "strict_to_next_row": query("ALL ROWS PER MATCH WITH UNMATCHED ROWS AFTER MATCH SKIP TO NEXT ROW|A B* C"),
    "number_window": query("ONE ROW PER MATCH SKIP TILL NEXT MATCH|A B C", within="WITHIN 2.5"),
}
INELIGIBLE = {
    "strict_past_last_row": query("ONE ROW PER MATCH|A B* C"),
    "strict_to_last": query("ONE ROW PER MATCH AFTER MATCH SKIP TO LAST B|A B* C"),
    "anchor": query("ONE ROW PER MATCH AFTER MATCH SKIP TO NEXT ROW|A B* C $"),
    "no_within": query("ONE ROW PER MATCH SKIP TILL ANY MATCH|A B C", within=""),
    "match_number": query(", MATCH_NUMBER() AS m ONE ROW PER MATCH SKIP TILL ANY MATCH|A B C"),
    "match_number_in_define": (
        "SELECT * FROM ev MATCH_RECOGNIZE (ORDER BY ts MEASURES A.id AS a ONE ROW PER MATCH "
        "AFTER MATCH SKIP TO NEXT ROW PATTERN (A B) WITHIN INTERVAL '1' MINUTE "
        "DEFINE A AS kind = 'a', B AS MATCH_NUMBER() > 2)"),
}


@pytest.mark.parametrize("name", sorted(ELIGIBLE))
def test_eligible_clauses_are_chunked(name: str) -> None:
    text = ELIGIBLE[name]
    chunked = compile_statement(text, ChunkOptions(8))
    assert f"PARTITION BY (`{CHUNK_COLUMN}`)" in chunked.sql
    assert chunked.matches[0].plan.owned_column == OWNED_COLUMN
    plain = compile_statement(text)
    assert "WITH SINGLE PARTITION" in plain.sql and CHUNK_COLUMN not in plain.sql
    assert plain.matches[0].plan.owned_column is None
    assert plain.matches[0].function_name != chunked.matches[0].function_name


@pytest.mark.parametrize("name", sorted(INELIGIBLE))
def test_ineligible_clauses_are_not_chunked(name: str) -> None:
    text = INELIGIBLE[name]
    compiled = compile_statement(text, ChunkOptions(8, partitioned=True))
    assert CHUNK_COLUMN not in compiled.sql
    assert compiled.sql == compile_statement(text).sql


def test_partitioned_clauses_only_when_asked() -> None:
    text = query("ONE ROW PER MATCH SKIP TILL ANY MATCH|A B C", partition="PARTITION BY p")
    assert CHUNK_COLUMN not in compile_statement(text, ChunkOptions(8)).sql
    sql = compile_statement(text, ChunkOptions(8, partitioned=True)).sql
    assert f"PARTITION BY (`p`, `{CHUNK_COLUMN}`)" in sql
    assert "__sparkcep_s.`p` <=> __sparkcep_r.`__sparkcep_p0`" in sql


def test_unmatched_rows_copy_the_end_of_each_chunk_forward() -> None:
    with_unmatched = compile_statement(ELIGIBLE["strict_to_next_row"], ChunkOptions(8)).sql
    assert "`__sparkcep_c` + 1" in with_unmatched
    assert "`__sparkcep_c` + 1" not in compile_statement(ELIGIBLE["any"], ChunkOptions(8)).sql


def test_chunk_count_setting() -> None:
    assert chunk_count(None, 2) == (8, False)
    assert chunk_count("auto", 16) == (64, False)
    assert chunk_count("off", 2) == (None, False)
    assert chunk_count("1", 2) == (None, True)
    assert chunk_count("12", 2) == (12, True)
    with pytest.raises(ValueError):
        chunk_count("many", 2)


# -- executor: owned rows ------------------------------------------------------------------------

NEXT_AB = ("SELECT * FROM ev MATCH_RECOGNIZE (ORDER BY t MEASURES CLASSIFIER() AS cls "
           "ALL ROWS PER MATCH WITH UNMATCHED ROWS SKIP TILL NEXT MATCH PATTERN (A B) WITHIN 3 "
           "DEFINE A AS kind = 'a', B AS kind = 'b')")

OUTPUT = pa.schema([pa.field("id", pa.int64()), pa.field("cls", pa.string())])


def runner(text: str = NEXT_AB, chunked: bool = True) -> PartitionRunner:
    plan = compile_statement(text, ChunkOptions(4) if chunked else None).matches[0].plan
    plan = dataclasses.replace(plan, passthrough_columns=("id",), component_types=("string",))
    return PartitionRunner(plan, OUTPUT)


def batch(kinds: str, owned: list[bool] | None, first: int = 0) -> pa.RecordBatch:
    n = len(kinds)
    ids = list(range(first, first + n))
    columns = {
        "id": pa.array(ids, pa.int64()),
        # the bitmask column: bit 0 = A holds, bit 1 = B holds
        "__sparkcep_m0": pa.array([{"a": 1, "b": 2}.get(k, 0) for k in kinds], pa.int8()),
        "__sparkcep_k": pa.array([float(i) for i in ids]),
    }
    if owned is not None:
        columns[OWNED_COLUMN] = pa.array(owned)
        columns[CHUNK_COLUMN] = pa.array([0] * n, pa.int64())
    return pa.RecordBatch.from_pydict(columns)


def rows(runner: PartitionRunner, batches: list[pa.RecordBatch]) -> list[tuple]:
    out = []
    for b in batches:
        out += [tuple(r.values()) for o in runner.feed(b) for r in o.to_pylist()]
    out += [tuple(r.values()) for o in runner.finish() for r in o.to_pylist()]
    return out


KINDS = "abxabxxbab"  # ids 0..9; NEXT (A B) WITHIN 3 matches (0, 1), (3, 4), (8, 9)


def test_all_owned_is_the_sequential_output() -> None:
    plain = sorted(rows(runner(chunked=False), [batch(KINDS, None)]))
    owned = sorted(rows(runner(), [batch(KINDS, [True] * 10)]))
    assert owned == plain
    assert plain == [(0, "A"), (1, "B"), (2, None), (3, "A"), (4, "B"), (5, None), (6, None),
                     (7, None), (8, "A"), (9, "B")]


def test_only_events_of_owned_rows_are_output() -> None:
    # The chunk owns ids 2..7: the match (0, 1) starts before it, (3, 4) is owned, the match
    # (8, 9) starts after it; unmatched rows 2, 5, 6, 7 are owned.
    owned = [False, False] + [True] * 6 + [False, False]
    got = rows(runner(), [batch(KINDS[:4], owned[:4]), batch(KINDS[4:], owned[4:], first=4)])
    assert sorted(got) == [(2, None), (3, "A"), (4, "B"), (5, None), (6, None), (7, None)]


def test_a_match_is_kept_by_its_first_row_even_when_it_ends_in_a_copied_row() -> None:
    owned = [True] * 9 + [False]
    got = rows(runner(), [batch(KINDS, owned)])
    assert (8, "A") in got and (9, "B") in got
    owned = [True] * 8 + [False] * 2
    assert (8, "A") not in rows(runner(), [batch(KINDS, owned)])


def test_owned_rows_filter_and_drop() -> None:
    filt = OwnedRows(OWNED_COLUMN)
    filt.append(pa.RecordBatch.from_pydict({OWNED_COLUMN: pa.array([False, True, None])}))
    filt.append(pa.RecordBatch.from_pydict({OWNED_COLUMN: pa.array([True, False])}))
    events = [Match(1, 0, (0, 1), (0, 1)), Match(2, 1, (1, 3), (0, 1)), UnmatchedRow(2),
              UnmatchedRow(3), Match(3, 4, (4,), (0,)), Match(4, 3, (), ())]
    assert filt.keep(events) == [events[1], UnmatchedRow(3), events[5]]
    filt.drop_before(3)
    assert filt.starts == [3] and filt.keep([UnmatchedRow(3), UnmatchedRow(4)]) == [UnmatchedRow(3)]


# -- executor: memory is bounded by the window ---------------------------------------------------


@pytest.mark.parametrize("strategy, pattern", [
    ("SKIP TILL NEXT MATCH", "A B+"), ("SKIP TILL ANY MATCH", "A B"),
    ("AFTER MATCH SKIP TO NEXT ROW", "A B+")])
def test_input_batches_are_dropped_behind_the_window(strategy: str, pattern: str) -> None:
    text = ("SELECT * FROM ev MATCH_RECOGNIZE (ORDER BY t MEASURES CLASSIFIER() AS cls "
            f"ALL ROWS PER MATCH WITH UNMATCHED ROWS {strategy} PATTERN ({pattern}) WITHIN 20 "
            "DEFINE A AS kind = 'a', B AS kind = 'b')")
    run = runner(text, chunked=False)
    rng = np.random.default_rng(5)
    held, out = [], 0
    batches = examples(200)  # 200 batches of 500 rows; the quick run feeds the first 20
    for i in range(batches):
        kinds = "".join(rng.choice(list("abxx"), size=500))
        for o in run.feed(batch(kinds, None, first=500 * i)):
            out += o.num_rows
        held.append(len(run.buffer.batches))
    for o in run.finish():
        out += o.num_rows
    assert out >= 500 * batches  # every row is output once at least (matched or unmatched)
    assert max(held) <= 2, max(held)


def test_spark_hash_and_spread_ids() -> None:
    # pmod(hash(CAST(id AS BIGINT)), 8) for id in -1..8, as Spark 4 computes it
    assert [spark_hash_long(v) % 8 for v in range(-1, 9)] == [1, 5, 5, 0, 3, 4, 4, 5, 3, 4]
    ids = spread_ids(8, 8)
    assert sorted(ids) == list(range(-1, 9)) and len(set(ids.values())) == 10
    assert [spark_hash_long(ids[c]) % 8 for c in range(8)] == list(range(8))
    sql = compile_statement(ELIGIBLE["any"], ChunkOptions(8, shuffle_partitions=8)).sql
    assert f"WHEN 0 THEN CAST({ids[0]} AS BIGINT)" in sql


class _Session:
    """What ``chunk_options`` reads of a SparkSession."""

    def __init__(self, **conf: str) -> None:
        self.conf = self
        self.values = conf
        self.sparkContext = self
        self.defaultParallelism = 2

    def get(self, key, default=None):
        return self.values.get(key, default)


def test_auto_stays_sequential_when_aqe_would_merge_the_chunks():
    from sparkcep.runtime.registration import chunk_options

    off = "spark.sql.adaptive.coalescePartitions.enabled"
    assert chunk_options(_Session()).chunks is None  # Spark's defaults: coalescing on
    assert chunk_options(_Session(**{off: "false"})).chunks == 8
    assert chunk_options(_Session(**{"spark.sql.adaptive.enabled": "false"})).chunks == 8
    assert chunk_options(_Session(**{"spark.sparkcep.withinChunks": "6"})).chunks == 6
