"""Stream = batch for NEXT with ALL ROWS PER MATCH (docs/streaming.md, "NEXT"): SHOW EMPTY
MATCHES under AFTER MATCH SKIP TO NEXT ROW, OMIT EMPTY MATCHES under PAST LAST ROW, and SKIP
TILL NEXT MATCH with WITHIN (WITH TIMED OUT MATCHES: the runs a window closes are output too);
NEXT (with PREV) in DEFINE and in MEASURES, where under ALL ROWS PER MATCH a measure is RUNNING
unless FINAL: ``NEXT(v)`` reads the row after the current row, ``NEXT(B.v)`` the row after the
last B row so far, ``NEXT(FINAL LAST(C.v))`` the row after the match's last C row (ISO/IEC
19075-5, 5.6; docs/semantics.md).

Each case is one streaming query over 20 random partitions (the generator of
``test_stream_equivalence``, rows out of order within the watermark delay). Every partition is
followed by ``TAIL`` rows, each far more than WITHIN after the one before, so the generated rows'
NEXT successors arrive and their last segment is closed by the first tail row; the last tail
rows wait forever for successors (docs/streaming.md), so the rows compared are those of the
generated rows (no match can hold a tail row and a generated one: they are farther apart than
WITHIN). The reference is the batch query over the same rows, where Spark computes NEXT as
``lead`` over the sorted partition.

WITH UNMATCHED ROWS is refused over a stream (``compiler.streaming_rules``): checked here with
NEXT too, by its code and position.
"""

from __future__ import annotations

import random

import pytest
import sparkcep
from sparkcep.errors import AnalysisError

from tests.streaming.test_stream_equivalence import (
    CLAUSE,
    SCHEMA,
    _micro_batches,
    few_partitions,  # noqa: F401 - a fixture
    random_rows,
    stream_and_batch,
)

pytestmark = [pytest.mark.spark, pytest.mark.streaming]

TAIL = 3  # the largest NEXT offset plus one
TAIL_PAGE = "tail"  # the page of the tail rows, which are left out of the comparison

# NEXT and PREV in DEFINE: B and C look one or two rows ahead (past the match, across gaps and
# micro-batches) and one row back
DEFINE = ("B AS B.v > PREV(B.v) OR B.page = NEXT(B.page), "
          "C AS C.page = 'buy' OR COALESCE(NEXT(C.v, 2) > PREV(C.v), false)")
# NEXT in MEASURES, RUNNING (the default under ALL ROWS PER MATCH) and FINAL
MEASURES = (", CLASSIFIER() AS cls, NEXT(v) AS next_v, NEXT(B.v) AS b_next, "
            "NEXT(RUNNING LAST(B.page), 2) AS b_next2, NEXT(FINAL LAST(C.v)) AS c_next_final, "
            "NEXT(FIRST(B.v)) AS first_b_next, NEXT(FINAL FIRST(B.v), 2) AS first_b_next2, "
            "NEXT(FIRST(CLASSIFIER())) AS second_cls, PREV(B.v) AS b_prev, "
            "FINAL COUNT(*) AS final_rows")
EMPTY_PATTERN = "B* C?"  # zero rows where the row is neither B nor C

CASES = {
    "show_empty_next_row": dict(strategy="", pattern=EMPTY_PATTERN,
                                skip="AFTER MATCH SKIP TO NEXT ROW",
                                rows="ALL ROWS PER MATCH SHOW EMPTY MATCHES"),
    "omit_empty_past_last": dict(strategy="", pattern=EMPTY_PATTERN,
                                 skip="AFTER MATCH SKIP PAST LAST ROW",
                                 rows="ALL ROWS PER MATCH OMIT EMPTY MATCHES"),
    # the runs a window closes are output too (docs/semantics.md, "Timed-out partial matches")
    "skip_till_next_match": dict(strategy="SKIP TILL NEXT MATCH", pattern="A B+ C", skip="",
                                 rows="ALL ROWS PER MATCH WITH TIMED OUT MATCHES",
                                 measures=MEASURES + ", MATCH_STATUS() AS status"),
}
for _case in CASES.values():
    _case.setdefault("measures", MEASURES)
    _case["define"] = DEFINE


def _rows_with_tails(rng: random.Random, partitions: int):
    rows = random_rows(rng, partitions=partitions)
    for user in sorted({r["user_id"] for r in rows}):
        last = max(r["t"] for r in rows if r["user_id"] == user)
        rows += [{"user_id": user, "t": last + 100 * k, "v": rng.randint(0, 4), "page": TAIL_PAGE}
                 for k in range(1, TAIL + 1)]
    return rows


def _successor_in_later_file(files, rows) -> bool:
    """Whether some matched row's successor in its partition arrived in a later micro-batch
    (its NEXT values were filled in after it had been released)."""
    arrival = {(r["user_id"], r["t"]): i for i, f in enumerate(files) for r in f}
    times = {}
    for user, t in sorted(arrival):
        times.setdefault(user, []).append(t)
    successor = {(u, a): b for u, ts in times.items() for a, b in zip(ts, ts[1:])}
    for row in rows:
        key = (row["user_id"], int(row["ts"].timestamp()))
        if row["cls"] is not None and key in successor \
                and arrival[(key[0], successor[key])] > arrival[key]:
            return True
    return False


def _generated(rows):
    """The output rows of generated input rows (ALL ROWS PER MATCH outputs the input columns)."""
    return [r for r in rows if r["page"] != TAIL_PAGE]


@pytest.mark.parametrize("case", sorted(CASES))
def test_next_with_all_rows_per_match(few_partitions, tmp_path, case):  # noqa: F811
    rng = random.Random(f"sparkcep-stream-next-rows-{case}")
    files = _micro_batches(_rows_with_tails(rng, partitions=20), 4, rng.randint(0, 10**6))
    statement = "SELECT * FROM events" + CLAUSE.format(**CASES[case])
    got, want, dropped = stream_and_batch(few_partitions, tmp_path, files, statement, "next_rows")
    assert dropped == 0
    got, want = _generated(got), _generated(want)
    assert got == want
    # the data exercises what the case is about
    assert any(r["cls"] == "B" for r in want) and any(r["cls"] == "C" for r in want)
    assert any(r["next_v"] is not None and r["b_next"] is not None for r in want)
    assert any(r["c_next_final"] is not None and r["cls"] != "C" for r in want)  # FINAL: ahead
    assert _successor_in_later_file(files, want)
    if "SHOW" in CASES[case]["rows"]:  # an empty match: one row, its measures NULL
        assert any(r["cls"] is None and r["rows_"] == 0 for r in want)
    if "TIMED OUT" in CASES[case]["rows"]:
        assert {r["status"] for r in want} == {"COMPLETE", "TIMED_OUT"}
    if "OMIT" in CASES[case]["rows"]:  # the empty matches left out took numbers
        numbers = {}
        for row in want:
            numbers.setdefault(row["user_id"], set()).add(row["n"])
        assert any(max(n) > len(n) for n in numbers.values())


def test_with_unmatched_rows_is_refused_with_next(spark, tmp_path):
    """The refusal holds with NEXT as without: typed code, caret at the ROWS PER MATCH clause."""
    source = tmp_path / "in"
    source.mkdir()
    (source / "part-000.json").write_text('{"user_id": "u", "t": 1, "v": 0, "page": "home"}\n')
    (spark.readStream.schema(SCHEMA).json(str(source))
     .selectExpr("user_id", "timestamp_seconds(t) AS ts", "v", "page")
     .withWatermark("ts", "30 seconds").createOrReplaceTempView("events_unmatched"))
    marked = "ALL ROWS PER MATCH WITH UNMATCHED ROWS"
    statement = "SELECT * FROM events_unmatched" + CLAUSE.format(
        strategy="", pattern="A B+ C", skip="AFTER MATCH SKIP PAST LAST ROW", rows=marked,
        define=DEFINE, measures=MEASURES)
    with pytest.raises(AnalysisError) as caught:
        sparkcep.sql(spark, statement)
    error = caught.value
    assert error.code == "STREAM_UNSUPPORTED"
    line = statement.splitlines()[error.line - 1]
    assert line[error.column - 1:].startswith(marked), (line, error.column)
    assert "WITH UNMATCHED ROWS" in error.message
