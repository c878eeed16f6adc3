-- Rally then pullback (an inverted V): one or more rising days followed by one or more falling
-- days. ALL ROWS PER MATCH returns every day of every rally, labelled with its phase, and shows
-- the difference between RUNNING and FINAL measures.
--
-- Standard rules this example relies on (ISO/IEC TR 19075-5:2016, Row Pattern Recognition in SQL):
--  * ALL ROWS PER MATCH output columns: partition columns, ORDER BY columns, the measures in order,
--    then the remaining input columns (here: price). SELECT * shows that order.
--  * RUNNING (the default) evaluates a measure "as of" the output row: on the k-th row of a match
--    RUNNING COUNT(*) is k and RUNNING MAX(price) is the highest price among rows 1..k.
--    FINAL evaluates over the whole match, so it has the same value on every row of the match.
--  * RUNNING FIRST(DOWN.ts) is NULL on rows before the first DOWN row of the match.
--  * CLASSIFIER() is the name of the variable the row is mapped to, in upper case
--    ('STRT', 'UP' or 'DOWN').
--  * Greedy quantifiers, AFTER MATCH SKIP PAST LAST ROW (default): matches do not overlap, so
--    (symbol, ts) is unique in the output. Unmatched rows are not returned.
SELECT *
FROM stock_ticks
  MATCH_RECOGNIZE (
    PARTITION BY symbol
    ORDER BY ts
    MEASURES
      MATCH_NUMBER()           AS match_no,
      CLASSIFIER()             AS phase,
      RUNNING COUNT(*)         AS day_in_match,
      FINAL COUNT(*)           AS match_days,
      RUNNING MAX(price)       AS high_so_far,
      FINAL MAX(price)         AS peak_price,
      RUNNING FIRST(DOWN.ts)   AS pullback_start,
      FINAL LAST(price)        AS exit_price
    ALL ROWS PER MATCH
    AFTER MATCH SKIP PAST LAST ROW
    PATTERN (STRT UP+ DOWN+)
    DEFINE
      UP   AS price > PREV(price),
      DOWN AS price < PREV(price)
  ) AS r
ORDER BY symbol, ts;
