"""Row pattern recognition in a window (SQL:2016 R020) on Spark: one batched query, every case.

Expected rows are worked out by hand from ISO/IEC 19075-5 (6), not from sparkcep's output: per
row, at most one match in its frame ``ROWS BETWEEN CURRENT ROW AND ...``, starting at the row
(INITIAL) or at the first row of the frame where one starts (SEEK); rows without a match and
rows an earlier match skipped get NULL measures and an empty frame (COUNT 0, SUM/MAX/AVG NULL);
an empty match is a match (its COUNT measure is 0, not NULL); navigation does not leave the
frame (PREV at the frame's first row is NULL). The matcher's corners are checked against a
brute-force oracle in tests/matcher/test_window_differential.py; here, the compiled SQL, the
edge masks computed by Spark and the function's output, once per window (4 passes).

Prices (ts 1, 2, ...): c1 = 5 6 7 3 4 2 8; c2 = 1 2 (and a NULL price that WHERE removes);
c3 = 9 9 9 9.
"""

from __future__ import annotations

import pytest

import sparkcep

pytestmark = pytest.mark.spark

QUERY = """
SELECT *,
       ups OVER w1 AS ups, su OVER w1 AS su, cls OVER w1 AS cls, count(*) OVER w1 AS n1,
       max(price) OVER w1 AS mx1, min(price) OVER w1 AS mn1, avg(price) OVER w1 AS av1,
       his OVER w2 AS his, count(*) OVER w2 AS n2, sum(price) OVER w2 AS s2,
       up OVER (PARTITION BY cust ORDER BY ts MEASURES LAST(UP.price) AS up
                ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING AFTER MATCH SKIP TO NEXT ROW SEEK
                PATTERN (UP) DEFINE UP AS UP.price > PREV(UP.price)) AS up,
       dn1 OVER (PARTITION BY cust ORDER BY ts MEASURES FIRST(DN.price) AS dn1
                 ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING AFTER MATCH SKIP TO FIRST DN SEEK
                 PATTERN (PK DN+) DEFINE DN AS DN.price < PREV(DN.price)) AS dn1,
       row_number() OVER (PARTITION BY cust ORDER BY ts) AS rn
FROM orders
WHERE price IS NOT NULL
WINDOW w1 AS (PARTITION BY cust ORDER BY ts
              MEASURES COUNT(UP.*) AS ups, SUM(U.price) AS su, CLASSIFIER() AS cls
              ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING
              AFTER MATCH SKIP TO LAST UP INITIAL
              PATTERN (START UP+ DOWN?)
              SUBSET U = (START, UP)
              DEFINE UP AS UP.price > PREV(UP.price), DOWN AS DOWN.price < PREV(DOWN.price)),
       w2 AS (PARTITION BY cust ORDER BY ts
              MEASURES COUNT(HI.*) AS his
              ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING
              AFTER MATCH SKIP PAST LAST ROW
              PATTERN (HI*)
              DEFINE HI AS HI.price >= 5)
ORDER BY cust, ts
"""

COLUMNS = ["cust", "ts", "price", "ups", "su", "cls", "n1", "mx1", "mn1", "av1", "his", "n2", "s2",
           "up", "dn1", "rn"]
_ = None
NO_W1 = (_, _, _, 0, _, _, _)  # no match in w1's frame (or skipped): NULL measures, empty frame
# w1: INITIAL, to the partition's end, SKIP TO LAST UP; U = START and UP rows
# w2: INITIAL, 3 rows, SKIP PAST LAST ROW; HI* matches empty where price < 5 (his 0, not NULL)
# up: SEEK, 2 rows, SKIP TO NEXT ROW; UP never holds at the frame's first row (PREV is NULL)
# dn1: SEEK, 3 rows, SKIP TO FIRST DN; the match may start after the current row
EXPECTED = [
    # cust ts price | ups su cls n1 mx1 mn1 av1 | his n2 s2 | up | dn1 | rn
    ("c1", 1, 5, 2, 18, "DOWN", 4, 7, 3, 5.25, 3, 3, 18, 6, _, 1),  # w1 5 6 7 3; w2 5 6 7; up: 6
    ("c1", 2, 6, *NO_W1, _, 0, _, _, 3, 2),  # skipped by w1 (to row 3), w2, up; dn1: 7 3 from row 3
    ("c1", 3, 7, *NO_W1, _, 0, _, _, _, 3),  # w1 no UP; up: 7 > 6 but 6 is outside the frame
    ("c1", 4, 3, 1, 7, "DOWN", 3, 4, 2, 3.0, 0, 0, _, 4, 2, 4),  # w1 3 4 2; w2 empty; dn1 4 2
    ("c1", 5, 4, *NO_W1, 0, 0, _, _, _, 5),
    ("c1", 6, 2, 1, 10, "UP", 2, 8, 2, 5.0, 0, 0, _, 8, _, 6),
    ("c1", 7, 8, *NO_W1, 1, 1, 8, _, _, 7),
    ("c2", 1, 1, 1, 3, "UP", 2, 2, 1, 1.5, 0, 0, _, 2, _, 1),
    ("c2", 2, 2, *NO_W1, 0, 0, _, _, _, 2),
    ("c3", 1, 9, *NO_W1, 3, 3, 27, _, _, 1),  # w2's frame stops HI* at 3 rows
    ("c3", 2, 9, *NO_W1, _, 0, _, _, _, 2),
    ("c3", 3, 9, *NO_W1, _, 0, _, _, _, 3),
    ("c3", 4, 9, *NO_W1, 1, 1, 9, _, _, 4),
]


def test_windows_with_row_pattern_recognition(spark):
    spark.createDataFrame(
        [("c1", 1, 5), ("c1", 2, 6), ("c1", 3, 7), ("c1", 4, 3), ("c1", 5, 4), ("c1", 6, 2), ("c1", 7, 8),
         ("c2", 1, 1), ("c2", 2, 2), ("c2", 3, None), ("c3", 1, 9), ("c3", 2, 9), ("c3", 3, 9), ("c3", 4, 9)],
        "cust STRING, ts INT, price INT").createOrReplaceTempView("orders")
    frame = sparkcep.sql(spark, QUERY)
    assert frame.columns == COLUMNS  # SELECT * is the relation's columns, no internal ones
    rows = [tuple(r) for r in frame.collect()]
    assert rows == EXPECTED
