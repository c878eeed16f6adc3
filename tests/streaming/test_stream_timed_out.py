"""Timed-out partial matches over a stream give the batch answer (docs/streaming.md): the
generator, micro-batches and comparison of ``test_stream_equivalence`` (16 random partitions, 5-6
micro-batches out of order within the delay, gaps that close and reopen segments), with
``ONE ROW PER MATCH WITH TIMED OUT MATCHES`` and ``MATCH_STATUS()`` under SKIP TILL NEXT MATCH,
together with a trailing negation: a run is reported as timed out when the watermark has passed
its window, at the row that closes it or when its segment closes."""

from __future__ import annotations

import random

import pytest

from .test_stream_equivalence import _micro_batches, few_partitions, random_rows, stream_and_batch

pytestmark = [pytest.mark.spark, pytest.mark.streaming]

__all__ = ["few_partitions"]  # the fixture, imported for the test below

STATEMENT = """SELECT * FROM events
  MATCH_RECOGNIZE (
    PARTITION BY user_id ORDER BY ts
    MEASURES MATCH_NUMBER() AS n, MATCH_STATUS() AS status, FIRST(ts) AS first_ts,
             LAST(C.ts) AS c_ts, COUNT(B.*) AS nb, SUM(v) AS total
    ONE ROW PER MATCH WITH TIMED OUT MATCHES
    SKIP TILL NEXT MATCH
    PATTERN (A B+ C !C) WITHIN INTERVAL '20' SECOND
    DEFINE A AS A.page = 'home', B AS B.page = 'cart' OR B.v > A.v, C AS C.page = 'buy'
  ) AS m"""


def test_timed_out_stream_equals_batch(few_partitions, tmp_path_factory):
    rng = random.Random("sparkcep-timed-out")
    rows = random_rows(rng, partitions=16)
    files = _micro_batches(rows, rng.randint(5, 6), rng.randint(0, 10**6))
    got, want, _dropped = stream_and_batch(few_partitions, tmp_path_factory.mktemp("timed_out"),
                                           files, STATEMENT, "timed_out")
    assert got == want
    assert {r[2] for r in want} == {"COMPLETE", "TIMED_OUT"}
