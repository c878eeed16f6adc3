"""Row pattern recognition in a window (SQL:2016 R020) on Spark, one query for every case.

Expected rows are worked out by hand from ISO/IEC 19075-5 (6) as documented for Trino's "row
pattern recognition in window": per row, at most one match in its frame ``ROWS BETWEEN CURRENT
ROW AND ...``; rows skipped by an earlier match and rows without a match get NULL measures and
an empty frame (COUNT 0, SUM NULL); navigation does not leave the frame.

Prices: c1 = 5 6 7 3 4 2 (ts 1..6), c2 = 1 2, one row with a NULL price that WHERE removes.
"""

from __future__ import annotations

import pytest

import sparkcep

pytestmark = pytest.mark.spark

QUERY = """
SELECT cust, ts, price,
       run_len OVER w1 AS run_len, peak OVER w1 AS peak, count(*) OVER w1 AS n1,
       sum(price) OVER w2 AS s2,
       up_price OVER (PARTITION BY cust ORDER BY ts MEASURES LAST(UP.price) AS up_price
                      ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING AFTER MATCH SKIP TO NEXT ROW SEEK
                      PATTERN (UP) DEFINE UP AS UP.price > PREV(UP.price)) AS up_price,
       row_number() OVER (PARTITION BY cust ORDER BY ts) AS rn
FROM orders
WHERE price IS NOT NULL
WINDOW w1 AS (PARTITION BY cust ORDER BY ts
              MEASURES COUNT(UP.*) AS run_len, LAST(UP.price) AS peak
              ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING
              AFTER MATCH SKIP PAST LAST ROW INITIAL
              PATTERN (START UP+)
              DEFINE UP AS UP.price > PREV(UP.price)),
       w2 AS (PARTITION BY cust ORDER BY ts
              ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING
              AFTER MATCH SKIP TO NEXT ROW
              PATTERN (START UP+)
              DEFINE UP AS UP.price > PREV(UP.price))
ORDER BY cust, ts
"""

# cust, ts, price | w1: run_len, peak, count(*) | w2: sum(price) | inline SEEK: up_price | rn
EXPECTED = [
    ("c1", 1, 5, 2, 7, 3, 11, 6, 1),          # w1: 5 6 7; w2: 5 6 (frame of 2); SEEK: 6 at ts 2
    ("c1", 2, 6, None, None, 0, 13, None, 2),  # w1 skipped; w2: 6 7; SEEK: skipped
    ("c1", 3, 7, None, None, 0, None, None, 3),  # SEEK: 7 is its frame's first row: PREV is NULL
    ("c1", 4, 3, 1, 4, 2, 7, 4, 4),
    ("c1", 5, 4, None, None, 0, None, None, 5),
    ("c1", 6, 2, None, None, 0, None, None, 6),  # START, then no UP: no match
    ("c2", 1, 1, 1, 2, 2, 3, 2, 1),
    ("c2", 2, 2, None, None, 0, None, None, 2),
]


def test_windows_with_row_pattern_recognition(spark):
    spark.createDataFrame(
        [("c1", 1, 5), ("c1", 2, 6), ("c1", 3, 7), ("c1", 4, 3), ("c1", 5, 4), ("c1", 6, 2),
         ("c2", 1, 1), ("c2", 2, 2), ("c2", 3, None)],
        "cust STRING, ts INT, price INT").createOrReplaceTempView("orders")
    rows = [tuple(r) for r in sparkcep.sql(spark, QUERY).collect()]
    assert rows == EXPECTED
