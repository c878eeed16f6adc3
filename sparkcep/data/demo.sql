-- V shapes in bundled stock ticks: a start row, then falling prices, then rising prices.
SELECT symbol, match_no, start_ts, bottom_price, end_ts, rows_in_match
FROM ticks MATCH_RECOGNIZE (
  PARTITION BY symbol
  ORDER BY ts
  MEASURES
    MATCH_NUMBER()   AS match_no,
    STRT.ts          AS start_ts,
    LAST(DOWN.price) AS bottom_price,
    LAST(UP.ts)      AS end_ts,
    COUNT(*)         AS rows_in_match
  ONE ROW PER MATCH
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (STRT DOWN{3,} UP{3,})
  DEFINE
    DOWN AS DOWN.price < PREV(DOWN.price),
    UP   AS UP.price > PREV(UP.price)
)
ORDER BY symbol, match_no
