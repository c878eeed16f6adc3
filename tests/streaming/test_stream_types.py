"""Values keep their type through the streaming operators, by either exchange of rows with Python
(``spark.sparkcep.streamExchange``: Rows, or pandas DataFrames carried exactly,
``runtime.stream_exchange``): a BIGINT beyond 2^53 beside NULLs (which pandas alone would carry as
float64 and round), TIMESTAMPs in the years 1 and 9999 (beyond pandas' nanosecond range),
DECIMAL(38, 3), doubles NaN, -0.0 and NULL, a non-UTC session time zone. The stream's rows must
equal the batch query's over the same rows, in DEFINE, in MEASURES and in the rows ALL ROWS PER
MATCH passes through."""

from __future__ import annotations

import pytest

from .test_stream_equivalence import few_partitions, stream_and_batch  # noqa: F401 (fixture)

pytestmark = [pytest.mark.spark, pytest.mark.streaming]

SCHEMA = "user_id STRING, t BIGINT, v BIGINT, d STRING, m STRING, page STRING"
COLUMNS = ("user_id", "timestamp_seconds(t) AS ts", "v", "to_timestamp(d) AS d",
           "CAST(m AS DECIMAL(38, 3)) AS m", "page")
BIG = 2 ** 60 + 1  # float64 would make it 2 ** 60


def test_exact_values_through_a_stream(few_partitions, tmp_path):
    """Through the Row exchange (the default); ``test_every_flat_type_through_both_operators``
    streams the same kinds of values through the pandas exchange."""
    spark = few_partitions
    exchange = "rows"
    rows = []
    for p in range(4):
        for i in range(8):
            rows.append({"user_id": f"u{p}", "t": 1_000 + 3 * i, "page": "home",
                         "v": None if i % 3 == 1 else BIG + 2 * i + p,
                         "d": ["0001-01-02 03:04:05", "9999-12-30 23:59:59", None][i % 3],
                         "m": None if i % 4 == 3 else f"{10 ** 34 + i}.125"})
    files = [rows[:10], rows[10:20], rows[20:]]
    statement = f"""SELECT * FROM events MATCH_RECOGNIZE (
        PARTITION BY user_id ORDER BY ts
        MEASURES LAST(B.v) AS last_v, FIRST(B.d) AS first_d, SUM(B.m) AS sum_m, MATCH_NUMBER() AS n
        ALL ROWS PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B+) WITHIN INTERVAL '30' SECOND
        DEFINE B AS B.v IS NULL OR B.v = {BIG + 2} + (B.v - {BIG + 2}) AND B.v > A.v)"""
    before = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", "America/New_York")
    spark.conf.set("spark.sparkcep.streamExchange", exchange)
    plans = []
    try:
        sentinel = {"user_id": "~sentinel", "t": 10_000_000, "v": 0, "d": None, "m": None,
                    "page": "home"}
        got, want, dropped = stream_and_batch(spark, tmp_path, files, statement, "types",
                                              schema=SCHEMA, columns=COLUMNS, sentinel=sentinel,
                                              plans=plans)
    finally:
        spark.conf.set("spark.sql.session.timeZone", before)
        spark.conf.unset("spark.sparkcep.streamExchange")
    assert ("EventTime, pandas" in plans[0]) == (exchange == "pandas")
    assert dropped == 0
    assert got == want
    assert any(r["last_v"] is not None and r["last_v"] > 2 ** 53 and r["last_v"] % 2 == 1
               for r in got)  # an odd value beyond 2^53 came through exactly
    assert {r["d"].year for r in got if r["d"] is not None} == {1, 9999}


@pytest.fixture()
def pandas_exchange(few_partitions):
    """The session's stream operators exchange rows through pandas where exact
    (``spark.sparkcep.streamExchange``, ``runtime.stream_exchange``)."""
    spark = few_partitions
    spark.conf.set("spark.sparkcep.streamExchange", "pandas")
    yield spark
    spark.conf.unset("spark.sparkcep.streamExchange")


FLAT_SCHEMA = ("user_id STRING, t BIGINT, v BIGINT, x DOUBLE, f STRING, i INT, s SMALLINT, "
               "b BOOLEAN, d STRING, bin STRING, at STRING, m STRING, page STRING")
FLAT_COLUMNS = ("user_id", "timestamp_seconds(t) AS ts", "v",
                "CASE WHEN f = 'nan' THEN double('NaN') WHEN f = '-0' THEN -0.0D "
                "WHEN f = 'inf' THEN double('-Infinity') ELSE x END AS x",
                "CAST(x AS FLOAT) AS f", "i", "s", "b", "to_date(d) AS d", "unhex(bin) AS bin",
                "to_timestamp(at) AS at", "CAST(m AS DECIMAL(38, 3)) AS m", "page")


def _flat_rows():
    rows = []
    for p in range(3):
        for i in range(9):
            rows.append({"user_id": f"u{p}", "t": 2_000 + 2 * i, "page": "home",
                         "v": None if i % 4 == 2 else -(2 ** 62) + 2 * i + p,
                         "x": None if i % 3 == 1 else 0.1 * i - 0.35,
                         "f": ["nan", "-0", "inf", None][i % 4],
                         "i": None if i % 2 else i - 2 ** 31 + 1,
                         "s": None if i % 5 == 4 else -(2 ** 15) + i,
                         "b": [True, None, False][i % 3],
                         "d": ["0001-01-01", "9999-12-31", None][i % 3],
                         "bin": [None, "00FF", ""][i % 3],
                         "at": ["0001-01-02 03:04:05", "9999-12-30 23:59:59", None][i % 3],
                         "m": None if i % 4 == 3 else f"{10 ** 34 + i}.125"})
    return [rows[:9], rows[9:18], rows[18:]]


def test_every_flat_type_through_both_operators(pandas_exchange, tmp_path):
    """Every type the pandas exchange carries (``runtime.stream_exchange``), with NULLs, NaN,
    -0.0, -Infinity, BIGINTs beyond 2^53, DATEs and TIMESTAMPs of the years 1 and 9999,
    DECIMAL(38, 3), in a non-UTC session time zone, through the ordering operator (PREV: every
    column in and out) and the matching operator, equal to the batch query's rows; both
    operators took the pandas path."""
    spark = pandas_exchange
    statement = """SELECT * FROM events MATCH_RECOGNIZE (
        PARTITION BY user_id ORDER BY ts
        MEASURES FIRST(B.x) AS first_x, LAST(B.f) AS last_f, LAST(B.v) AS last_v,
                 FIRST(B.i) AS first_i, LAST(B.s) AS last_s, LAST(B.b) AS last_b,
                 LAST(B.d) AS last_d, FIRST(B.bin) AS first_bin, FIRST(B.at) AS first_at,
                 SUM(B.m) AS sum_m, MATCH_NUMBER() AS n
        ALL ROWS PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B+) WITHIN INTERVAL '30' SECOND
        DEFINE B AS PREV(B.v) IS NULL OR B.v IS NULL OR B.v > PREV(B.v))"""
    sentinel = {"user_id": "~sentinel", "t": 10_000_000, "v": 0, "x": None, "f": None,
                "i": None, "s": None, "b": None, "d": None, "bin": None, "at": None, "m": None,
                "page": "home"}
    plans = []
    before = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", "America/New_York")
    try:
        got, want, dropped = stream_and_batch(spark, tmp_path, _flat_rows(), statement, "flat",
                                              schema=FLAT_SCHEMA, columns=FLAT_COLUMNS,
                                              sentinel=sentinel, plans=plans)
    finally:
        spark.conf.set("spark.sql.session.timeZone", before)
    assert dropped == 0
    assert [repr(r) for r in got] == [repr(r) for r in want]  # NaN compares by its repr
    assert len(want) > 10
    assert plans[0].count("EventTime, pandas") == 2  # both operators exchanged through pandas
    seen = {repr(r["x"]) for r in got} | {repr(r["f"]) for r in got}
    assert {"nan", "-0.0", "-inf", "None"} <= seen
    assert any(r["last_v"] is not None and r["last_v"] < -(2 ** 53) for r in got)
    assert {r["d"].year for r in got if r["d"] is not None} == {1, 9999}
    assert {r["at"].year for r in got if r["at"] is not None} == {1, 9999}
    assert any(r["sum_m"] is not None and r["sum_m"] > 10 ** 34 for r in got)


def test_a_nullable_integer_key_keys_the_state_by_its_text(pandas_exchange, tmp_path):
    """A nullable INT partition column (as every file source's is) would reach pandas as float64: the
    state is keyed by its text instead, so the NULL partition and each number keep their own
    state, through both operators, as in the batch query."""
    spark = pandas_exchange
    statement = """SELECT * FROM events MATCH_RECOGNIZE (
        PARTITION BY user_id ORDER BY ts
        MEASURES FIRST(A.v) AS a_v, LAST(B.v) AS b_v, COUNT(*) AS c, MATCH_NUMBER() AS n
        ONE ROW PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B+) WITHIN INTERVAL '30' SECOND
        DEFINE B AS B.v > PREV(B.v))"""
    keys = [None, 0, 1, -(2 ** 31), 2 ** 31 - 1]
    rows = [{"user_id": "x", "g": keys[p], "t": 4_000 + i, "v": (i * 5 + p) % 7, "page": "p"}
            for p in range(len(keys)) for i in range(10)]
    plans = []
    got, want, dropped = stream_and_batch(
        spark, tmp_path, [rows[:25], rows[25:]], statement, "intkey",
        schema="user_id STRING, g INT, t BIGINT, v BIGINT, page STRING",
        columns=("g AS user_id", "timestamp_seconds(t) AS ts", "v"),
        sentinel={"user_id": "~sentinel", "g": 99, "t": 10_000_000, "v": 0, "page": "x"},
        plans=plans)
    got = [r for r in got if r["user_id"] != 99]  # the sentinel's partition
    want = [r for r in want if r["user_id"] != 99]
    assert dropped == 0 and got == want
    assert {r["user_id"] for r in want} == set(keys)
    assert plans[0].count("EventTime, pandas") == 2
