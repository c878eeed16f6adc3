"""UNCERTAIN TIME on Spark (issue 14), checked against the possible-worlds definition.

Zhang, Diao, Immerman (PVLDB 2010, §3.3): every row occurred at one equally likely time point of
its interval; a world fixes one point per row; a match (a signature: the rows and their
variables) has as confidence the probability of the worlds in which it is a match, and as time
range the tightest range covering it in those worlds. ``uncertain_worlds.worlds_oracle``
enumerates the worlds literally (it shares no code with sparkcep) for SKIP TILL ANY MATCH.

The paper's Figure 1 (SEQ(A, B, C) WITHIN 4 over a1 [1,5], c2 [3,5], b3 [3,7], c4 [4,6]) must give
exactly (a1, b3, c2) with confidence 15/225, time range [1, 5], and (a1, b3, c4) with 24/225,
[1, 6]; under SKIP TILL NEXT MATCH 14/225 and 22/225 (the worlds enumerated with ties counting as
"first", as the paper's Eq. 2/3 with open exclusion intervals).
"""

from __future__ import annotations

import csv
import datetime as dt

import pytest
from click.testing import CliRunner

import sparkcep
from sparkcep.errors import SparkCepError
from uncertain_worlds import CASES, FIGURE_1, WINDOW, worlds_oracle

pytestmark = pytest.mark.spark

CLAUSE = """SELECT '{name}' AS q, case_id, a, bs, c, confidence, s_lo, s_hi, e_lo, e_hi
FROM {table} MATCH_RECOGNIZE (
  PARTITION BY case_id ORDER BY id
  UNCERTAIN TIME ({lo}, {hi}){granularity}
  MEASURES A.id AS a, {bs} AS bs, C.id AS c, CONFIDENCE() AS confidence,
           MATCH_EARLIEST_START() AS s_lo, MATCH_LATEST_START() AS s_hi,
           MATCH_EARLIEST_END() AS e_lo, MATCH_LATEST_END() AS e_hi
  {strategy}
  PATTERN ({pattern}) WITHIN {within}{minimum}
  DEFINE A AS A.kind = 'a', B AS B.kind = 'b', C AS C.kind = 'c')"""


def clause(name, pattern="A B C", strategy="SKIP TILL ANY MATCH", minimum="", table="uncertain_ev",
           lo="lo", hi="hi", granularity="", within=str(WINDOW)):
    bs = "array(B.id)" if pattern == "A B C" else "array_sort(collect_list(B.id))"
    return CLAUSE.format(name=name, pattern=pattern, strategy=strategy, bs=bs, table=table, lo=lo,
                         hi=hi, within=within, granularity=granularity,
                         minimum=f"\n  MINIMUM CONFIDENCE {minimum}" if minimum else "")


BASE = dt.datetime(2024, 3, 1, 12, 0, 0)
DAY = dt.date(2024, 3, 1)


@pytest.fixture(scope="module")
def events(spark):
    rows = [(case, row_id, kind, lo, hi) for case, stream in CASES.items()
            for row_id, kind, lo, hi in stream]
    frame = spark.createDataFrame(rows, "case_id INT, id INT, kind STRING, lo BIGINT, hi BIGINT")
    frame.createOrReplaceTempView("uncertain_ev")
    # the same intervals as TIMESTAMPs: points are seconds (GRANULARITY) or milliseconds (default);
    # lo and hi lie inside their point, so rounding down gives the integer times back
    stamps = [(case, row_id, kind,
               BASE + dt.timedelta(seconds=lo, milliseconds=300), BASE + dt.timedelta(seconds=hi, milliseconds=999),
               BASE + dt.timedelta(milliseconds=lo, microseconds=250), BASE + dt.timedelta(milliseconds=hi, microseconds=999))
              for case, row_id, kind, lo, hi in rows if case == 0]
    spark.createDataFrame(stamps, "case_id INT, id INT, kind STRING, lo_s TIMESTAMP, hi_s TIMESTAMP, "
                                  "lo_ms TIMESTAMP, hi_ms TIMESTAMP").createOrReplaceTempView("uncertain_ts")
    days = [(case, row_id, kind, DAY + dt.timedelta(days=lo), DAY + dt.timedelta(days=hi),
             BASE + dt.timedelta(seconds=lo, milliseconds=1), BASE + dt.timedelta(seconds=hi, milliseconds=999))
            for case, row_id, kind, lo, hi in rows if case == 0]
    spark.createDataFrame(days, "case_id INT, id INT, kind STRING, lo_d DATE, hi_d DATE, "
                                "lo_ntz TIMESTAMP_NTZ, hi_ntz TIMESTAMP_NTZ").createOrReplaceTempView("uncertain_days")
    return rows


def _by_query(rows) -> dict:
    found: dict = {}
    for row in rows:
        key = (row.case_id, row.a, tuple(row.bs), row.c)
        found.setdefault(row.q, {})[key] = (row.confidence, row.s_lo, row.s_hi, row.e_lo, row.e_hi)
    return found


def test_possible_worlds_figure_1_random_streams_and_minimum_confidence(spark, events):
    statement = " UNION ALL ".join([
        clause("seq"), clause("kleene", pattern="A B+ C"), clause("seq_min", minimum="0.3"),
        clause("next", strategy="SKIP TILL NEXT MATCH"),
    ])
    result = _by_query(sparkcep.sql(spark, statement).collect())
    for name, pattern, minimum in [("seq", "ABC", 0.0), ("kleene", "AB+C", 0.0), ("seq_min", "ABC", 0.3)]:
        expected = {}
        for case, stream in CASES.items():
            for (a, bs, c), value in worlds_oracle(stream, pattern, WINDOW, minimum).items():
                expected[(case, a, bs, c)] = value
        got = result.get(name, {})
        assert set(got) == set(expected), name
        for key, (conf, *bounds) in expected.items():
            assert got[key][0] == pytest.approx(float(conf), abs=1e-12), (name, key)
            assert list(got[key][1:]) == bounds, (name, key)
    figure = {k[1:]: v for k, v in result["seq"].items() if k[0] == 0}
    assert figure == {(1, (3,), 2): (pytest.approx(15 / 225), 1, 3, 4, 5),
                      (1, (3,), 4): (pytest.approx(24 / 225), 1, 4, 4, 6)}
    assert result["kleene"] and len(result["seq_min"]) < len(result["seq"])  # both are exercised
    next_figure = {k[1:]: v[0] for k, v in result["next"].items() if k[0] == 0}
    assert next_figure == {(1, (3,), 2): pytest.approx(14 / 225), (1, (3,), 4): pytest.approx(22 / 225)}


def test_timestamp_intervals_with_granularity_and_the_default(spark, events):
    seconds = clause("seconds", table="uncertain_ts", lo="lo_s", hi="hi_s",
                     granularity=" GRANULARITY INTERVAL '1' SECOND", within="INTERVAL '4' SECOND")
    millis = clause("millis", table="uncertain_ts", lo="lo_ms", hi="hi_ms",
                    within="INTERVAL '4' MILLISECOND")
    result = _by_query(sparkcep.sql(spark, f"{seconds} UNION ALL {millis}").collect())
    for name, unit in [("seconds", dt.timedelta(seconds=1)), ("millis", dt.timedelta(milliseconds=1))]:
        assert {k[1:]: v for k, v in result[name].items()} == {
            (1, (3,), 2): (pytest.approx(15 / 225), BASE + 1 * unit, BASE + 3 * unit, BASE + 4 * unit, BASE + 5 * unit),
            (1, (3,), 4): (pytest.approx(24 / 225), BASE + 1 * unit, BASE + 4 * unit, BASE + 4 * unit, BASE + 6 * unit),
        }, name


def test_date_and_timestamp_ntz_intervals(spark, events):
    dates = clause("days", table="uncertain_days", lo="lo_d", hi="hi_d", within="INTERVAL '4' DAY")
    wall = clause("ntz", table="uncertain_days", lo="lo_ntz", hi="hi_ntz",
                  granularity=" GRANULARITY INTERVAL '1' SECOND", within="INTERVAL '4' SECOND")
    for query, start, unit in [(dates, DAY, dt.timedelta(days=1)), (wall, BASE, dt.timedelta(seconds=1))]:
        result = _by_query(sparkcep.sql(spark, query).collect())
        (name,) = result
        assert {k[1:]: v for k, v in result[name].items()} == {
            (1, (3,), 2): (pytest.approx(15 / 225), start + 1 * unit, start + 3 * unit, start + 4 * unit, start + 5 * unit),
            (1, (3,), 4): (pytest.approx(24 / 225), start + 1 * unit, start + 4 * unit, start + 4 * unit, start + 6 * unit),
        }, name


def test_spark_sql_after_enable_and_the_cli(spark, events, tmp_path):
    query = clause("seq").replace("FROM uncertain_ev", "FROM fig1")
    spark.createDataFrame([(0, *row) for row in FIGURE_1], "case_id INT, id INT, kind STRING, lo BIGINT, hi BIGINT") \
        .createOrReplaceTempView("fig1")
    sparkcep.enable(spark)
    try:
        rows = spark.sql(query + " ORDER BY c").collect()
    finally:
        sparkcep.disable(spark)
    assert [(r.a, r.c, round(r.confidence * 225, 9)) for r in rows] == [(1, 2, 15.0), (1, 4, 24.0)]

    from sparkcep.clients.cli import main

    data = tmp_path / "fig1.csv"
    data.write_text("case_id,id,kind,lo,hi\n" + "".join(f"0,{i},{k},{lo},{hi}\n" for i, k, lo, hi in FIGURE_1))
    data.with_suffix(".schema").write_text("case_id INT, id INT, kind STRING, lo BIGINT, hi BIGINT")
    out = tmp_path / "out.csv"
    result = CliRunner().invoke(main, ["run", "-e", query + " ORDER BY c", "-t", f"fig1={data}",
                                       "-f", "csv", "-o", str(out)])
    assert result.exit_code == 0, result.output
    header, *lines = list(csv.reader(out.read_text().splitlines()))
    assert header[:6] == ["q", "case_id", "a", "bs", "c", "confidence"] and len(lines) == 2
    assert [float(line[5]) * 225 for line in lines] == pytest.approx([15, 24])


def test_errors_on_spark(spark, events):
    inverted = clause("bad", lo="hi", hi="lo")  # every row with lo < hi becomes empty
    with pytest.raises(SparkCepError) as caught:
        sparkcep.sql(spark, inverted).collect()
    assert caught.value.code == "INVALID_UNCERTAIN_INTERVAL"
    assert (caught.value.line, caught.value.column) == (4, 3), str(caught.value)
    typed = clause("bad", lo="CAST(lo AS DOUBLE)", hi="hi")
    with pytest.raises(SparkCepError) as caught:
        sparkcep.sql(spark, typed)
    assert caught.value.code == "UNCERTAIN_TIME_TYPE" and caught.value.line == 4
    interval = clause("bad", within="INTERVAL '4' SECOND")  # integer times count points
    with pytest.raises(SparkCepError) as caught:
        sparkcep.sql(spark, interval)
    assert caught.value.code == "UNCERTAIN_TIME_TYPE"
    line = interval.splitlines()[caught.value.line - 1]
    assert line[caught.value.column - 1:].startswith("WITHIN"), str(caught.value)


def test_all_rows_per_match(spark, events):
    query = """SELECT * FROM (SELECT * FROM uncertain_ev WHERE case_id = 0) MATCH_RECOGNIZE (
  PARTITION BY case_id ORDER BY id
  UNCERTAIN TIME (lo, hi)
  MEASURES MATCH_NUMBER() AS n, CLASSIFIER() AS cl, CONFIDENCE() AS confidence
  ALL ROWS PER MATCH
  SKIP TILL ANY MATCH
  PATTERN (A B C) WITHIN 4
  DEFINE A AS A.kind = 'a', B AS B.kind = 'b', C AS C.kind = 'c')"""
    matches: dict = {}
    for row in sparkcep.sql(spark, query).collect():
        rows, confidences = matches.setdefault(row.n, (set(), set()))
        rows.add((row.id, row.cl, row.lo, row.hi))
        confidences.add(round(row.confidence * 225, 9))
    assert sorted((sorted(rows), sorted(c)) for rows, c in matches.values()) == [
        ([(1, "A", 1, 5), (2, "C", 3, 5), (3, "B", 3, 7)], [15.0]),
        ([(1, "A", 1, 5), (3, "B", 3, 7), (4, "C", 4, 6)], [24.0]),
    ]
