-- Rising streaks: at least three consecutive higher closes after a starting day, while the price
-- stays within 10% of the starting close. Every day that starts such a streak is reported, so
-- streaks overlap. One row per (symbol, starting day).
--
-- Standard rules this example relies on (ISO/IEC TR 19075-5:2016, Row Pattern Recognition in SQL):
--  * DEFINE uses RUNNING semantics over the rows matched so far plus the candidate row, which is
--    tentatively mapped to UP. So inside DEFINE UP, UP.price is the candidate row and
--    LAST(UP.price, 1) is the previous UP row (NULL for the first UP row, hence the COALESCE
--    with STRT.price). With strict contiguity this equals PREV(price); the cap against STRT.price
--    is what makes the condition depend on the match, not just on the neighbouring row.
--  * UP{3,} is greedy: a streak runs until a close is not higher or breaks the 10% cap.
--  * AFTER MATCH SKIP TO NEXT ROW: after a match starting on row r, the next attempt starts on
--    the row after r (inside the match), so a run of k >= 3 rising days yields up to k - 2
--    matches, one per starting day, each ending where its own run or its own cap ends (GLOBX from
--    2024-03-18 stops before 03-27, which is more than 10% above its start; from 03-19 it does not).
--  * MATCH_NUMBER() numbers these overlapping matches 1, 2, ... per symbol.
--  * ONE ROW PER MATCH output columns: the partition columns, then the measures in order.
SELECT *
FROM stock_ticks
  MATCH_RECOGNIZE (
    PARTITION BY symbol
    ORDER BY ts
    MEASURES
      MATCH_NUMBER()   AS match_no,
      STRT.ts          AS start_ts,
      STRT.price       AS start_price,
      LAST(UP.ts)      AS end_ts,
      LAST(UP.price)   AS end_price,
      COUNT(UP.*)      AS up_days
    ONE ROW PER MATCH
    AFTER MATCH SKIP TO NEXT ROW
    PATTERN (STRT UP{3,})
    DEFINE
      UP AS UP.price > COALESCE(LAST(UP.price, 1), STRT.price)
            AND UP.price <= STRT.price * 1.10
  ) AS r
ORDER BY symbol, match_no;
