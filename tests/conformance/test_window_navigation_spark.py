"""PREV and NEXT in the MEASURES of a window with row pattern recognition (SQL:2016 R020) on
Spark: one batched query, three windows (three passes).

Expected rows are worked out by hand from ISO/IEC 19075-5 (6): the row pattern is matched in
the current row's frame ``ROWS BETWEEN CURRENT ROW AND ...``, and navigation does not leave it:
a PREV (NEXT) whose row lies before (after) the frame is NULL, even where the partition has
that row (MATCH_RECOGNIZE's PREV/NEXT may leave the match but not the partition; a window's
may leave the match but not the frame, the rule DEFINE already follows here). Measures are
FINAL; rows without a match or skipped get NULL.

Prices of c1 (ts 1..7): 5 6 7 3 4 2 8.
"""

from __future__ import annotations

import pytest

import sparkcep

pytestmark = pytest.mark.spark

QUERY = """
SELECT ts, bs OVER w1 AS bs, pl OVER w1 AS pl, nl OVER w1 AS nl, nl2 OVER w1 AS nl2,
       nx OVER w2 AS nx, px2 OVER w2 AS px2, pd OVER w3 AS pd, pd2 OVER w3 AS pd2
FROM prices
WINDOW w1 AS (PARTITION BY cust ORDER BY ts
              MEASURES PREV(FIRST(S.v)) AS bs, PREV(LAST(UP.v)) AS pl, NEXT(LAST(UP.v)) AS nl,
                       NEXT(UP.v, 2) AS nl2
              ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING
              AFTER MATCH SKIP PAST LAST ROW INITIAL
              PATTERN (S UP+) DEFINE UP AS UP.v > PREV(UP.v)),
       w2 AS (PARTITION BY cust ORDER BY ts
              MEASURES NEXT(LAST(UP.v)) AS nx, PREV(UP.v, 2) AS px2
              ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING
              AFTER MATCH SKIP TO NEXT ROW INITIAL
              PATTERN (S UP+) DEFINE UP AS UP.v > PREV(UP.v)),
       w3 AS (PARTITION BY cust ORDER BY ts
              MEASURES PREV(DN.v) AS pd, PREV(DN.v, 2) AS pd2
              ROWS BETWEEN CURRENT ROW AND 3 FOLLOWING
              AFTER MATCH SKIP PAST LAST ROW SEEK
              PATTERN (DN) DEFINE DN AS DN.v < PREV(DN.v))
ORDER BY ts
"""

_ = None
# w1 (frame to the end, INITIAL): the row before the match's start is before the frame (bs
#    always NULL); rows 1-3, 4-5, 6-7 match, the others are skipped
# w2 (3 rows, SKIP TO NEXT ROW): rows 1, 2, 4, 6 match (3 and 5: no UP; 7: no UP in its frame)
# w3 (4 rows, SEEK): row 1 finds DN at ts 4 (rows 2-4 skipped), row 5 at ts 6 (row 6 skipped);
#    PREV(DN.v) at the frame's first row would be NULL, so DN never holds there
EXPECTED = [
    # ts | bs pl nl nl2 | nx px2 | pd pd2
    (1, _, 6, 3, 4, _, 5, 7, 6),  # w1 5 6 7 (ts 0 is no row); w2 5 6 7: ts 4 is past the frame
    (2, _, _, _, _, 3, _, _, _),  # w2 6 7: NEXT reads ts 4 (in the frame), PREV(.., 2) ts 1 (before it)
    (3, _, _, _, _, _, _, _, _),
    (4, _, 3, 2, 8, 2, _, _, _),  # w1 3 4: PREV(FIRST(S.v)) is ts 3, before the frame; w2 3 4
    (5, _, _, _, _, _, _, 4, _),  # w3 from ts 5: DN at ts 6 (2 < 4); ts 4 is before the frame
    (6, _, 2, _, _, _, _, _, _),  # w1 2 8: no ts 8; w2 2 8: ts 4, two before 8, before the frame
    (7, _, _, _, _, _, _, _, _),
]


def test_prev_next_in_window_measures_stay_in_the_frame(spark):
    spark.createDataFrame([("c1", ts, v) for ts, v in enumerate([5, 6, 7, 3, 4, 2, 8], start=1)],
                          "cust STRING, ts INT, v INT").createOrReplaceTempView("prices")
    rows = [tuple(r) for r in sparkcep.sql(spark, QUERY).collect()]
    assert rows == EXPECTED
