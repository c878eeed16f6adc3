"""Every match whose rows the watermark has passed reaches the sink without more input.

A quiet key is the normal case for alerts: its last rows are released by event-time timers only,
in the micro-batches Spark runs because the watermark moved (no-data micro-batches), never by
rows of its own. Here each key's rows arrive in the first file, beside a row of another key that
puts the watermark exactly 1 ms (key ``a``), 0.5 ms (``b``) or 0 ms (``c``) before the key's
first row, the positions where a timer fires while its row is still after the watermark; the
last file holds one row of yet another key far in the future. Nothing else arrives: every match
of the quiet keys must come out (the reference is the batch query over the same rows), for
each shape of operator: one stateful operator (no PREV or NEXT), an ordering operator before it
(PREV), and the ordering operator holding rows for their successors (NEXT).
"""

from __future__ import annotations

import pytest

from tests.streaming.test_stream_equivalence import (
    DELAY_SECONDS,
    few_partitions,  # noqa: F401 - a fixture
    stream_and_batch,
)

pytestmark = [pytest.mark.spark, pytest.mark.streaming]

SCHEMA = "user_id STRING, t BIGINT, v BIGINT, page STRING"
COLUMNS = ("user_id", "timestamp_micros(t) AS ts", "v", "page")
SECOND = 1_000_000
WATERMARK = 101_999_000  # micros: the watermark after the first file
FIRST_ROWS = {"a": WATERMARK + 1_000, "b": WATERMARK + 500, "c": WATERMARK}
SENTINEL = {"user_id": "~sentinel", "t": 10_000 * SECOND, "v": 0, "page": "home"}


def quiet_keys():
    """Per key, six rows one second apart, values rising then one falling, and a row of the
    separate key ``w`` whose event time puts the watermark at ``WATERMARK``."""
    rows = []
    for key, first in FIRST_ROWS.items():
        for i, v in enumerate([1, 2, 3, 4, 0, 5]):
            rows.append({"user_id": key, "t": first + i * SECOND, "v": v,
                         "page": "cart" if v % 2 else "home"})
    rows.append({"user_id": "w", "t": WATERMARK + DELAY_SECONDS * SECOND, "v": 0, "page": "home"})
    return rows


CLAUSE = """SELECT * FROM events MATCH_RECOGNIZE (
    PARTITION BY user_id ORDER BY ts
    MEASURES MATCH_NUMBER() AS n, FIRST(ts) AS first_ts, LAST(ts) AS last_ts, COUNT(*) AS rows_
    ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
    PATTERN ({pattern}) WITHIN INTERVAL '10' SECOND
    DEFINE {define}) AS m"""

SHAPES = {
    "one_operator": dict(pattern="A B+", define="A AS A.v < 2, B AS B.v > 0"),
    "prev": dict(pattern="UP{2,}", define="UP AS UP.v > PREV(UP.v)"),
    "next": dict(pattern="UP{2,}", define="UP AS UP.v < NEXT(UP.v)"),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_quiet_keys_release_every_match(few_partitions, tmp_path, shape):  # noqa: F811
    got, want, dropped = stream_and_batch(
        few_partitions, tmp_path, [quiet_keys()], CLAUSE.format(**SHAPES[shape]),
        f"quiet_{shape}", schema=SCHEMA, columns=COLUMNS, sentinel=SENTINEL)
    assert dropped == 0
    assert {r["user_id"] for r in want} == set(FIRST_ROWS)  # every quiet key has a match
    assert got == want
