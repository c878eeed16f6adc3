-- V shape: a stock's daily close falls on one or more consecutive days, then rises on one or more
-- consecutive days. One output row per V, per symbol.
--
-- Standard rules this example relies on (ISO/IEC TR 19075-5:2016, Row Pattern Recognition in SQL):
--  * STRT has no DEFINE condition, so it is TRUE for every row: any row can start a match.
--  * DOWN+ and UP+ are greedy: a match runs through the last rising day, not just the first one.
--  * A flat day (price = PREV(price)) is neither DOWN nor UP, so it ends a run.
--  * PREV(price) on the first row of a partition is NULL: that row is never DOWN or UP.
--  * AFTER MATCH SKIP PAST LAST ROW (the default, written out): the next attempt starts on the row
--    after the peak, so the peak never starts the next V (compare stock_w_shape.sql).
--  * MATCH_NUMBER() counts matches per partition, from 1.
--  * ONE ROW PER MATCH output columns: the partition columns, then the measures in order.
SELECT *
FROM stock_ticks
  MATCH_RECOGNIZE (
    PARTITION BY symbol
    ORDER BY ts
    MEASURES
      MATCH_NUMBER()    AS match_no,
      STRT.ts           AS start_ts,
      STRT.price        AS start_price,
      FIRST(DOWN.price) AS first_down_price,
      LAST(DOWN.ts)     AS bottom_ts,
      LAST(DOWN.price)  AS bottom_price,
      LAST(UP.ts)       AS end_ts,
      LAST(UP.price)    AS end_price,
      COUNT(DOWN.*)     AS down_days,
      COUNT(UP.*)       AS up_days
    ONE ROW PER MATCH
    AFTER MATCH SKIP PAST LAST ROW
    PATTERN (STRT DOWN+ UP+)
    DEFINE
      DOWN AS price < PREV(price),
      UP   AS price > PREV(price)
  ) AS v
ORDER BY symbol, match_no;
