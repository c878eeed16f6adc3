"""min_by / max_by (also with a count k) in MEASURES (issue 23, "refused but valid"): Spark's own
aggregates over the match's rows, compared with Spark's GROUP BY over the same rows (Spark is the
reference; the ordering values are distinct, so ties cannot make either side arbitrary)."""

from __future__ import annotations

import random

import pytest

import sparkcep

pytestmark = pytest.mark.spark


def test_min_by_max_by_measures_agree_with_spark_group_by(spark):
    rng = random.Random(23)
    rows = []
    for p in range(6):
        orders = rng.sample(range(100), 7)
        for i, o in enumerate(orders):
            rows.append((p, i, o, None if rng.random() < 0.2 else rng.randint(-5, 5)))
    spark.createDataFrame(rows, "p INT, id INT, o INT, v INT").createOrReplaceTempView("mb")
    # one match per partition: every row (X has no DEFINE)
    matched = sparkcep.sql(spark, """
        SELECT * FROM mb MATCH_RECOGNIZE (PARTITION BY p ORDER BY id
          MEASURES max_by(v, o) AS a, min_by(v, o) AS b, max_by(v, o, 2) AS c, min_by(X.v, X.o, 3) AS d,
                   max_by(v, o) FILTER (WHERE v > 0) AS e
          ONE ROW PER MATCH PATTERN (X+))""")
    reference = spark.sql("""
        SELECT p, max_by(v, o) AS a, min_by(v, o) AS b, max_by(v, o, 2) AS c, min_by(v, o, 3) AS d,
               max_by(v, o) FILTER (WHERE v > 0) AS e
        FROM mb GROUP BY p""")
    got = sorted(tuple(r) for r in matched.collect())
    assert got == sorted(tuple(r) for r in reference.collect())
    assert len(got) == 6
