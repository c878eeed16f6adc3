-- W shape (double bottom): down, up, down, up on consecutive days. One row per W, per symbol.
-- Consecutive W's may share a leg: the last rising day of one W can start the next one.
--
-- Standard rules this example relies on (ISO/IEC TR 19075-5:2016, Row Pattern Recognition in SQL):
--  * A variable may occur several times in a pattern; DOWN and UP each denote the union of the
--    rows of both occurrences. So MIN(DOWN.price) ranges over both down legs, LAST(UP.*) is the
--    final rising day and COUNT(UP.*) counts the days of both rising legs.
--  * All quantifiers are greedy, so each leg is a maximal run of falling or rising days.
--  * AFTER MATCH SKIP TO LAST UP: the next match attempt starts on the last row mapped to UP,
--    i.e. the final peak of this W, which then plays STRT in the next W. (That row is never the
--    first row of the match, so the skip is always legal.)
--  * ONE ROW PER MATCH output columns: the partition columns, then the measures in order.
SELECT *
FROM stock_ticks
  MATCH_RECOGNIZE (
    PARTITION BY symbol
    ORDER BY ts
    MEASURES
      MATCH_NUMBER()  AS match_no,
      STRT.ts         AS start_ts,
      STRT.price      AS start_price,
      LAST(UP.ts)     AS end_ts,
      LAST(UP.price)  AS end_price,
      MIN(DOWN.price) AS lowest_price,
      MAX(UP.price)   AS highest_up_price,
      COUNT(DOWN.*)   AS down_days,
      COUNT(UP.*)     AS up_days
    ONE ROW PER MATCH
    AFTER MATCH SKIP TO LAST UP
    PATTERN (STRT DOWN+ UP+ DOWN+ UP+)
    DEFINE
      DOWN AS price < PREV(price),
      UP   AS price > PREV(price)
  ) AS w
ORDER BY symbol, match_no;
