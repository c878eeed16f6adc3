"""UNCERTAIN TIME over a stream gives the batch answer (docs/streaming.md, docs/semantics.md
"Imprecise timestamps").

Random partitions of events with imprecise times (an interval [lo, lo + width] each, seconds,
strictly increasing lo so the batch order is not arbitrary, widths up to several seconds so the
intervals of neighbouring rows overlap, and some gaps far longer than window and watermark delay
so segments are closed and restarted) arrive as JSON files, one micro-batch each, out of order
within the watermark delay (on lo); a last file with a far-future row of a separate partition
moves the watermark past every other row. The stream's rows must equal the batch query's over the
same rows, confidence to 1e-12. The reference is the batch query (checked against the
possible-worlds oracle in tests/conformance): the stream shares its engine, not its release
order, segmenting or match numbering.
"""

from __future__ import annotations

import random

import pytest
import sparkcep

from tests.streaming.test_stream_equivalence import _micro_batches, stream_and_batch

pytestmark = [pytest.mark.spark, pytest.mark.streaming]

SCHEMA = "user_id STRING, id BIGINT, t BIGINT, width BIGINT, kind STRING"
COLUMNS = ("user_id", "id", "timestamp_seconds(t) AS lo",
           "timestamp_seconds(t + width) AS hi", "kind")

CLAUSE = """
  MATCH_RECOGNIZE (
    PARTITION BY user_id ORDER BY lo
    UNCERTAIN TIME (lo, hi) GRANULARITY INTERVAL '1' SECOND
    MEASURES MATCH_NUMBER() AS n, A.id AS a, LAST(B.id) AS b, COUNT(B.id) AS bs, C.id AS c,
             CONFIDENCE() AS confidence, MATCH_EARLIEST_START() AS s_lo,
             MATCH_LATEST_END() AS e_hi
    ONE ROW PER MATCH
    {strategy}
    PATTERN ({pattern}) WITHIN INTERVAL '10' SECOND{minimum}
    DEFINE A AS A.kind = 'a', B AS B.kind = 'b', C AS C.kind = 'c'
  ) AS m"""

CASES = {
    "any_match": dict(strategy="SKIP TILL ANY MATCH", pattern="A B+ C", minimum=""),
    "next_match": dict(strategy="SKIP TILL NEXT MATCH", pattern="A B C",
                       minimum=" MINIMUM CONFIDENCE 0.05"),
}


def random_rows(rng: random.Random, partitions: int):
    rows = []
    ident = 0
    for p in range(partitions):
        t = 1_000 + rng.randint(0, 60)
        for _ in range(rng.randint(6, 16)):
            t += rng.choice([1, 1, 2, 2, 3, 4, 6, 9, 400])
            ident += 1
            rows.append({"user_id": f"u{p:02d}", "id": ident, "t": t,
                         "width": rng.choice([0, 1, 2, 3, 5, 8]), "kind": rng.choice("abc")})
    return rows


def _stream_and_batch(spark, tmp_path, files, case):
    got, want, dropped = stream_and_batch(
        spark, tmp_path, files, "SELECT * FROM uevents" + CLAUSE.format(**CASES[case]),
        f"umatches_{case}", view="uevents", schema=SCHEMA, columns=COLUMNS, event_time="lo",
        sentinel={"user_id": "~sentinel", "id": 0, "t": 10_000_000, "width": 0, "kind": "x"})
    return [r.asDict() for r in got], [r.asDict() for r in want], dropped


def _keyed(rows):
    """Rows by everything but the confidence (unique: a match is its rows), with the confidence."""
    out = {}
    for row in rows:
        key = tuple((k, v) for k, v in sorted(row.items()) if k != "confidence")
        assert key not in out
        out[key] = row["confidence"]
    return out


@pytest.fixture()
def few_partitions(spark):
    before = spark.conf.get("spark.sql.shuffle.partitions")
    spark.conf.set("spark.sql.shuffle.partitions", "2")
    yield spark
    spark.conf.set("spark.sql.shuffle.partitions", before)


@pytest.mark.parametrize("case", sorted(CASES))
def test_uncertain_stream_equals_batch(few_partitions, tmp_path_factory, case):
    rng = random.Random(f"sparkcep-uncertain-stream-{case}")
    rows = random_rows(rng, partitions=16)
    files = _micro_batches(rows, rng.randint(5, 6), rng.randint(0, 10**6))
    got, want, dropped = _stream_and_batch(few_partitions, tmp_path_factory.mktemp(case), files, case)
    assert dropped == 0
    got, want = _keyed(got), _keyed(want)
    assert sorted(got, key=repr) == sorted(want, key=repr)
    for key, confidence in want.items():
        assert got[key] == pytest.approx(confidence, rel=0, abs=1e-12), key
    assert len(want) > 10  # the generated data does produce matches
    assert any(0 < c < 1 for c in want.values())  # and uncertain ones


# -- the operator's algorithm at the closing boundary ---------------------------------------------

MSCHEMA = "user_id STRING, id BIGINT, t BIGINT, width BIGINT, kind STRING"
MCOLUMNS = ("user_id", "id", "timestamp_micros(t) AS lo", "timestamp_micros(t + width) AS hi",
            "kind")


def _microsecond_rows(rng: random.Random, partitions: int):
    """Times in microseconds (GRANULARITY one second, so a row may start anywhere inside a time
    point, also between the watermark's milliseconds), gaps around the window plus the widths, so that segments close just before or just
    after the next row could still overlap."""
    rows = []
    ident = 0
    for p in range(partitions):
        t = 1_000_000 + rng.randint(0, 60_000)
        for _ in range(rng.randint(5, 14)):
            t += rng.choice([rng.randint(1, 4_000), rng.randint(6_000, 20_000)])
            ident += 1
            rows.append({"user_id": f"u{p:02d}", "id": ident, "t": t * 1000 + rng.randint(0, 999),
                         "width": rng.randint(0, 6_000_000), "kind": rng.choice("abc")})
    return rows


def _schedule(rng: random.Random, event: list[int]):
    """Calls of the operator for one key (rows in lo order; ``event`` their lo in micros): chunks
    of the next rows, shuffled, each with a watermark (whole milliseconds, never decreasing, never
    at or past a row still to come, so no row is late), often the largest allowed one; some calls
    bring no rows (a timer)."""
    order = list(range(len(event)))
    calls = []
    watermark = -(2 ** 63)
    i = 0
    while i < len(order):
        k = rng.choice([0, 1, 1, 2, 3])
        chunk = order[i:i + k]
        rng.shuffle(chunk)
        i += len(chunk)
        if i < len(order):
            highest = (event[order[i]] - 1) // 1000 * 1000
            lowest = max(watermark, highest - 12_000_000)
            choice = highest if rng.random() < 0.5 else rng.randint(lowest // 1000, highest // 1000) * 1000
            watermark = max(watermark, choice)
        calls.append((chunk, watermark))
    return calls


PAIR = """
  MATCH_RECOGNIZE (
    PARTITION BY user_id ORDER BY lo
    UNCERTAIN TIME (lo, hi) GRANULARITY INTERVAL '1' SECOND
    MEASURES MATCH_NUMBER() AS n, A.id AS a, B.id AS b, CONFIDENCE() AS confidence
    ONE ROW PER MATCH
    {strategy}
    PATTERN (A B) WITHIN INTERVAL '10' SECOND
    DEFINE A AS A.kind = 'a', B AS B.kind <> 'a'
  ) AS m"""


@pytest.mark.parametrize("strategy", ["SKIP TILL ANY MATCH", "SKIP TILL NEXT MATCH"])
def test_segments_close_exactly_when_no_row_can_still_overlap(spark, tmp_path, strategy):
    """The operator's algorithm (``SegmentMatcher``, state round-tripped as the state store does)
    driven directly with adversarial watermarks, many schedules per key: the batch answer.
    PATTERN (A B): a row starting in the last time point of the window of the segment's latest
    ``hi`` can still complete a match (with A at that ``hi``), so closing one time point early loses
    matches (checked by changing ``StreamPlan.closes_at``)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from sparkcep.compiler.rewrite import compile_statement
    from sparkcep.runtime.streaming import _EVENT_KEY, SegmentMatcher, SegmentState, operator_input
    from tests.streaming.state_store import KeyStore

    rng = random.Random(f"sparkcep-uncertain-boundary-{strategy}")
    rows = _microsecond_rows(rng, partitions=60)
    text = "SELECT * FROM uevents" + PAIR.format(strategy=strategy)
    empty = tmp_path / "empty"
    empty.mkdir()
    (spark.readStream.schema(MSCHEMA).json(str(empty)).selectExpr(*MCOLUMNS)
     .withWatermark("lo", "10 seconds").createOrReplaceTempView("uevents"))
    (match,) = compile_statement(text, streaming=True).matches
    stream_plan, _, _, _ = operator_input(spark, match)
    (spark.createDataFrame(rows, schema=MSCHEMA).selectExpr(*MCOLUMNS)
     .createOrReplaceTempView("uevents"))
    table = spark.sql(match.table_sql).toArrow()
    table = table.select(stream_plan.input_schema.names)
    table = table.append_column(_EVENT_KEY, table.column(stream_plan.event_time)
                                .cast(pa.timestamp("us", "UTC")).cast(pa.int64()))
    want = sparkcep.sql(spark, text).toArrow()
    expected = _keyed(want.to_pylist())
    assert len(expected) > 20 and any(0 < c < 1 for c in expected.values())

    matcher = SegmentMatcher(stream_plan)
    for attempt in range(6):
        out = []
        for key in pc.unique(table.column("user_id")).to_pylist():
            part = table.filter(pc.equal(table.column("user_id"), key))
            part = part.take(pc.sort_indices(part, sort_keys=[(_EVENT_KEY, "ascending")]))
            event = part.column(_EVENT_KEY).to_pylist()
            state, store = SegmentState(), KeyStore(matcher.codec)
            for chunk, watermark in _schedule(rng, event):
                out += matcher.advance(state, [part.take(pa.array(chunk, pa.int64()))], watermark)
                state = store.round_trip(state)
            out += matcher.advance(state, [], event[-1] + 10 ** 12)
            assert state.runner is None
        got = pa.Table.from_batches(out).rename_columns(want.column_names)
        got = _keyed(got.to_pylist())
        assert sorted(got, key=repr) == sorted(expected, key=repr), attempt
        for key, confidence in expected.items():
            assert got[key] == pytest.approx(confidence, rel=0, abs=1e-12), key
