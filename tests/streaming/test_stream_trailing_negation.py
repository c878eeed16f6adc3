"""Trailing negation over a stream gives the batch answer (docs/streaming.md): the generator,
micro-batches and comparison of ``test_stream_equivalence`` (16 random partitions, 5-6
micro-batches out of order within the delay, gaps that close and reopen segments), with
``PATTERN (A B+ !C)`` under SKIP TILL NEXT MATCH: a match is reported once the watermark is past its
window, and the stream must report exactly the batch query's matches, numbered the same way."""

from __future__ import annotations

import random

import pytest
import sparkcep

from .test_stream_equivalence import _micro_batches, few_partitions, random_rows, stream_and_batch

pytestmark = [pytest.mark.spark, pytest.mark.streaming]

__all__ = ["few_partitions"]  # the fixture, imported for the tests below

CLAUSE = """
  MATCH_RECOGNIZE (
    PARTITION BY user_id ORDER BY ts
    MEASURES MATCH_NUMBER() AS n, FIRST(ts) AS first_ts, LAST(ts) AS last_ts, COUNT(*) AS rows_,
             SUM(v) AS total
    {rows}
    {strategy}
    PATTERN ({pattern}) WITHIN INTERVAL '20' SECOND
    DEFINE A AS A.page = 'home', B AS B.page = 'cart' OR B.v > A.v, C AS C.page = 'buy'
  ) AS m"""

# one streaming query per case costs about a minute here: one case, the one whose matches
# complete only when their window closes under both the positive part and the negation
CASES = {
    "next_one": dict(strategy="SKIP TILL NEXT MATCH", pattern="A B+ !C", rows="ONE ROW PER MATCH"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_trailing_negation_stream_equals_batch(few_partitions, tmp_path_factory, case):
    rng = random.Random(f"sparkcep-trailing-{case}")
    rows = random_rows(rng, partitions=16)
    files = _micro_batches(rows, rng.randint(5, 6), rng.randint(0, 10**6))
    statement = "SELECT * FROM events" + CLAUSE.format(**CASES[case])
    got, want, _dropped = stream_and_batch(few_partitions, tmp_path_factory.mktemp(case), files,
                                           statement, "trailing")
    assert got == want
    positive = sparkcep.sql(few_partitions, statement.replace(" !C)", ")")
                            .replace(", C AS C.page = 'buy'", "")).count()
    assert 0 < len(want) < positive  # the negation does break some matches of A B+
