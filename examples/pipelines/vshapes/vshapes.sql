-- V shapes in the stock ticks, continuously (the statement of sparkcep/data/stream_demo.sql, with
-- LAST(X.price, 1) for PREV, which a pipeline dataset does not support yet): each V is reported
-- once the watermark (one minute behind the newest tick) has passed it.
SELECT symbol, match_no, start_ts, top, bottom, end_ts, recovered
FROM STREAM(ticks) WATERMARK ts DELAY OF INTERVAL 1 MINUTE
MATCH_RECOGNIZE (
  PARTITION BY symbol
  ORDER BY ts
  MEASURES
    MATCH_NUMBER()   AS match_no,
    PEAK.ts          AS start_ts,
    PEAK.price       AS top,
    LAST(DOWN.price) AS bottom,
    LAST(UP.ts)      AS end_ts,
    LAST(UP.price)   AS recovered
  ONE ROW PER MATCH
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (PEAK DOWN{3,} UP{3,}) WITHIN INTERVAL '30' MINUTE
  DEFINE
    DOWN AS DOWN.price < COALESCE(LAST(DOWN.price, 1), PEAK.price),
    UP   AS UP.price > COALESCE(LAST(UP.price, 1), LAST(DOWN.price))
)
