"""first_value, last_value and nth_value over a window with row pattern recognition (SQL:2016
R020) on Spark: one batched query, three windows (three passes).

Expected rows are worked out by hand from ISO/IEC 19075-5 (6.5), not from sparkcep's output: a
window function over a pattern window sees only the rows of the match found for the current
row (its reduced frame), in order; where no match was found, or an earlier match skipped the
row, the frame is empty (NULL, COUNT 0); an empty match is an empty frame too. The functions
RESPECT NULLS (the standard's and Spark's default): a NULL at the first row is the first value.

Rows (cust, ts, tag, v): c1 = (1 s 10) (2 x NULL) (3 x 30) (4 y 40) (5 s NULL) (6 x 60)
(7 s 70); c2 = (1 s 1) (2 x 2).
"""

from __future__ import annotations

import pytest

import sparkcep

pytestmark = pytest.mark.spark

QUERY = """
SELECT cust, ts,
       first_value(v) OVER wa AS fa, last_value(v) OVER wa AS la, nth_value(v, 2) OVER wa AS n2a,
       nth_value(v, 3) RESPECT NULLS OVER wa AS n3a, count(*) OVER wa AS ca,
       first_value(ts) OVER wb AS fb, last_value(ts) OVER wb AS lb, nth_value(ts, 2) OVER wb AS n2b,
       count(*) OVER wb AS cb,
       nx OVER wc AS nx, last_value(v) OVER wc AS lc, nth_value(v, 2) OVER wc AS n2c
FROM ev
WINDOW wa AS (PARTITION BY cust ORDER BY ts
              ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING
              AFTER MATCH SKIP PAST LAST ROW INITIAL
              PATTERN (S X*) DEFINE S AS tag = 's', X AS tag = 'x'),
       wb AS (PARTITION BY cust ORDER BY ts
              ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING
              AFTER MATCH SKIP TO NEXT ROW SEEK
              PATTERN (X+) DEFINE X AS tag = 'x'),
       wc AS (PARTITION BY cust ORDER BY ts
              MEASURES COUNT(X.*) AS nx
              ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING
              AFTER MATCH SKIP PAST LAST ROW INITIAL
              PATTERN (X*) DEFINE X AS tag = 'x')
ORDER BY cust, ts
"""

_ = None
NONE_A = (_, _, _, _, 0)  # wa: no match, or skipped: empty frame
NONE_B = (_, _, _, 0)
# wa: INITIAL, S then the x rows after it, SKIP PAST LAST ROW
# wb: SEEK in 3 rows, the first run of x rows there; SKIP TO NEXT ROW skips the rows up to one
#     past the match's first row (also the rows before a match found later in the frame)
# wc: INITIAL, X* (an empty match where the row is not x: nx 0, the frame empty)
EXPECTED = [
    # cust ts | fa la n2a n3a ca | fb lb n2b cb | nx lc n2c
    ("c1", 1, 10, 30, _, 30, 3, 2, 3, 3, 2, 0, _, _),  # wa 1 2 3; wb 2 3 (from 2); wc empty
    ("c1", 2, *NONE_A, *NONE_B, 2, 30, 30),  # skipped by wa and wb; wc 2 3 (v NULL, 30)
    ("c1", 3, *NONE_A, 3, 3, _, 1, _, _, _),  # wb 3 (4 is y); skipped by wc
    ("c1", 4, *NONE_A, 6, 6, _, 1, 0, _, _),  # wa no S; wb: 4 y, 5 s, 6 x; wc empty
    ("c1", 5, _, 60, 60, _, 2, *NONE_B, 0, _, _),  # wa 5 6: first v is NULL; wb skipped (to 7)
    ("c1", 6, *NONE_A, *NONE_B, 1, 60, _),  # skipped by wa and wb; wc 6
    ("c1", 7, 70, 70, _, _, 1, *NONE_B, 0, _, _),  # wa 7 alone; wb's frame holds only 7 (s)
    ("c2", 1, 1, 2, 2, _, 2, 2, 2, _, 1, 0, _, _),  # the partition's end bounds wb's frame
    ("c2", 2, *NONE_A, *NONE_B, 1, 2, _),
]


def test_first_last_nth_value_over_the_match(spark):
    spark.createDataFrame(
        [("c1", 1, "s", 10), ("c1", 2, "x", None), ("c1", 3, "x", 30), ("c1", 4, "y", 40),
         ("c1", 5, "s", None), ("c1", 6, "x", 60), ("c1", 7, "s", 70), ("c2", 1, "s", 1), ("c2", 2, "x", 2)],
        "cust STRING, ts INT, tag STRING, v INT").createOrReplaceTempView("ev")
    frame = sparkcep.sql(spark, QUERY)
    assert [f.dataType.simpleString() for f in frame.schema.fields[2:6]] == ["int"] * 4
    rows = [tuple(r) for r in frame.collect()]
    assert rows == EXPECTED
