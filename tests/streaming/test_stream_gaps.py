"""Stream = batch for what a stream refused before: ALL ROWS PER MATCH OMIT EMPTY MATCHES, and
NEXT in DEFINE and MEASURES (docs/streaming.md). Random partitions arrive as files out of order
within the watermark delay (the generator of ``test_stream_equivalence``); a last file with a
row of a separate partition far in the future moves the watermark past every other row. The
reference is the batch query over the same rows.

With NEXT a row is matched only once its successors have arrived, so the stream answers for
the rows whose successors arrived: each partition ends with ``TAIL`` rows, each far more than
WITHIN after the one before (so no match can hold one), which are the successors of the last
generated rows; the last tail rows themselves wait forever, which changes no match.
"""

from __future__ import annotations

import random

import pytest

from tests.streaming.test_stream_equivalence import (
    CLAUSE,
    _micro_batches,
    few_partitions,  # noqa: F401 - a fixture
    random_rows,
    stream_and_batch,
)

pytestmark = [pytest.mark.spark, pytest.mark.streaming]

CASES = {
    # empty matches (B* C? matches zero rows where no row is B or C) are numbered, not output
    "omit_empty": dict(strategy="", pattern="B* C?", skip="AFTER MATCH SKIP TO NEXT ROW",
                       rows="ALL ROWS PER MATCH OMIT EMPTY MATCHES",
                       define="B AS B.v > 1 OR B.page = 'cart', C AS C.page = 'buy'",
                       measures=", CLASSIFIER() AS cls"),
    # NEXT (and PREV) in DEFINE and in MEASURES; gaps close and reopen segments
    "next": dict(strategy="", pattern="A B+ C", skip="AFTER MATCH SKIP TO NEXT ROW",
                 rows="ONE ROW PER MATCH",
                 define="B AS B.v > PREV(B.v) OR B.page = NEXT(B.page), "
                        "C AS C.page <> LAST(B.page) AND COALESCE(NEXT(C.v, 2) >= C.v, true)",
                 measures=", NEXT(C.v) AS next_v, NEXT(A.page, 2) AS a_next2, "
                          "PREV(B.v) AS b_prev"),
}
TAIL = 3  # the largest NEXT offset plus one


def test_omit_empty_matches(few_partitions, tmp_path):  # noqa: F811
    rng = random.Random("sparkcep-stream-omit-empty")
    files = _micro_batches(random_rows(rng, partitions=16), 4, rng.randint(0, 10**6))
    statement = "SELECT * FROM events" + CLAUSE.format(**CASES["omit_empty"])
    got, want, dropped = stream_and_batch(few_partitions, tmp_path, files, statement, "gaps")
    assert dropped == 0
    assert got == want and want
    numbers = {}
    for row in want:
        numbers.setdefault(row["user_id"], set()).add(row["n"])
    # the empty matches left out took numbers: some partition's numbers have holes
    assert any(max(n) > len(n) for n in numbers.values())


def test_next_in_define_and_measures(few_partitions, tmp_path):  # noqa: F811
    rng = random.Random("sparkcep-stream-next")
    rows = random_rows(rng, partitions=16)
    for user in sorted({r["user_id"] for r in rows}):
        last = max(r["t"] for r in rows if r["user_id"] == user)
        rows += [{"user_id": user, "t": last + 100 * k, "v": 0, "page": "home"}
                 for k in range(1, TAIL + 1)]
    files = _micro_batches(rows, 4, rng.randint(0, 10**6))
    statement = "SELECT * FROM events" + CLAUSE.format(**CASES["next"])
    got, want, dropped = stream_and_batch(few_partitions, tmp_path, files, statement, "gaps")
    assert dropped == 0
    assert got == want and want
    # NEXT read rows that came in later micro-batches, and some matches end a partition's data
    assert any(r["next_v"] == 0 and r["a_next2"] is not None for r in want)
