-- V shapes per sector: the V shapes of stock_v_shape.sql, computed in a derived table, LEFT
-- JOINed from the companies table and aggregated per sector. Sectors whose companies have no
-- ticks (Healthcare) still appear, with zero V shapes and NULL averages.
--
-- Standard rules this example relies on (ISO/IEC TR 19075-5:2016, Row Pattern Recognition in SQL):
--  * Same matching as stock_v_shape.sql: greedy DOWN+ UP+, AFTER MATCH SKIP PAST LAST ROW.
--  * ONE ROW PER MATCH output columns: symbol, then the measures; the derived table exposes
--    exactly those.
--  * COUNT(*) in MEASURES counts all rows of the match (STRT, DOWN and UP rows).
SELECT c.sector,
       COUNT(DISTINCT c.symbol) AS companies,
       COUNT(v.symbol)          AS v_shapes,
       AVG(v.days)              AS avg_days,
       MAX(100 * (v.start_price - v.bottom_price) / v.start_price) AS deepest_drop_pct
FROM companies AS c
  LEFT JOIN (
    SELECT *
    FROM stock_ticks
      MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY ts
        MEASURES
          STRT.price       AS start_price,
          LAST(DOWN.price) AS bottom_price,
          COUNT(*)         AS days
        ONE ROW PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (STRT DOWN+ UP+)
        DEFINE
          DOWN AS price < PREV(price),
          UP   AS price > PREV(price)
      )
  ) AS v
    ON v.symbol = c.symbol
GROUP BY c.sector
ORDER BY c.sector;
