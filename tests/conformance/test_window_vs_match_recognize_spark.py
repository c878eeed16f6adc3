"""A window with row pattern recognition (R020) against the MATCH_RECOGNIZE + LEFT JOIN it
replaces (the pair bench/r020_window.py times): one batched query, both skip forms.

ISO/IEC 19075-5, 6: with INITIAL and the frame ``ROWS BETWEEN CURRENT ROW AND UNBOUNDED
FOLLOWING``, a row's match is the match MATCH_RECOGNIZE tries at that row. Under AFTER MATCH SKIP
PAST LAST ROW the rows inside a match start none (R020: NULL measures, an empty frame, so
``count(*) OVER w`` is 0; the join finds no match starting there); under TO NEXT ROW every row
is tried by both. The rows are worked out by hand, the same for both forms.

Prices (ts 1, 2, ...): a = 5 6 7 3 4 2 8; b = 9 9 (never rising: no match).
"""

from __future__ import annotations

import pytest

import sparkcep

pytestmark = pytest.mark.spark

WINDOW = """
SELECT part, ts, price, ups OVER w AS ups, peak OVER w AS peak, count(*) OVER w AS n
FROM prices
WINDOW w AS (PARTITION BY part ORDER BY ts
  MEASURES COUNT(UP.*) AS ups, LAST(UP.price) AS peak
  ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING
  AFTER MATCH SKIP {skip} INITIAL
  PATTERN (STRT UP+) DEFINE UP AS UP.price > PREV(UP.price))
"""

JOIN = """
SELECT t.part, t.ts, t.price, m.ups, m.peak, COALESCE(m.n, 0) AS n
FROM prices t LEFT JOIN (
  SELECT * FROM prices MATCH_RECOGNIZE (
    PARTITION BY part ORDER BY ts
    MEASURES FIRST(STRT.ts) AS start_ts, COUNT(UP.*) AS ups, LAST(UP.price) AS peak, COUNT(*) AS n
    ONE ROW PER MATCH AFTER MATCH SKIP {skip}
    PATTERN (STRT UP+) DEFINE UP AS UP.price > PREV(UP.price))) m
ON t.part = m.part AND t.ts = m.start_ts
"""

QUERY = " UNION ALL ".join(
    f"SELECT '{how}' AS how, '{skip}' AS skip, * FROM ({text.format(skip=skip)})"
    for skip in ("PAST LAST ROW", "TO NEXT ROW")
    for how, text in (("window", WINDOW), ("join", JOIN))
) + " ORDER BY skip, how, part, ts"

_ = None
# part ts price | ups peak n
PAST_LAST_ROW = [
    ("a", 1, 5, 2, 7, 3),  # STRT 5, UP 6 7 (3 is not higher)
    ("a", 2, 6, _, _, 0),  # inside the match of ts 1: skipped
    ("a", 3, 7, _, _, 0),  # skipped
    ("a", 4, 3, 1, 4, 2),  # STRT 3, UP 4
    ("a", 5, 4, _, _, 0),  # skipped
    ("a", 6, 2, 1, 8, 2),  # STRT 2, UP 8
    ("a", 7, 8, _, _, 0),  # skipped
    ("b", 1, 9, _, _, 0),  # 9 is not higher than 9: no match
    ("b", 2, 9, _, _, 0),
]
TO_NEXT_ROW = [
    ("a", 1, 5, 2, 7, 3),
    ("a", 2, 6, 1, 7, 2),  # tried on its own: STRT 6, UP 7
    ("a", 3, 7, _, _, 0),  # 3 is lower: no match
    ("a", 4, 3, 1, 4, 2),
    ("a", 5, 4, _, _, 0),  # 2 is lower
    ("a", 6, 2, 1, 8, 2),
    ("a", 7, 8, _, _, 0),  # the partition's last row: no UP
    ("b", 1, 9, _, _, 0),
    ("b", 2, 9, _, _, 0),
]


def test_window_equals_match_recognize_joined_back(spark):
    spark.createDataFrame(
        [("a", 1, 5), ("a", 2, 6), ("a", 3, 7), ("a", 4, 3), ("a", 5, 4), ("a", 6, 2), ("a", 7, 8),
         ("b", 1, 9), ("b", 2, 9)],
        "part STRING, ts INT, price INT").createOrReplaceTempView("prices")
    rows = [tuple(r) for r in sparkcep.sql(spark, QUERY).collect()]
    expected = [("join", "PAST LAST ROW", *r) for r in PAST_LAST_ROW] \
        + [("window", "PAST LAST ROW", *r) for r in PAST_LAST_ROW] \
        + [("join", "TO NEXT ROW", *r) for r in TO_NEXT_ROW] \
        + [("window", "TO NEXT ROW", *r) for r in TO_NEXT_ROW]
    assert rows == expected
