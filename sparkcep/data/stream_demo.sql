-- V shapes in the bundled stock ticks, continuously: the ticks arrive as a stream of files and
-- each V shape is reported once the watermark (one minute behind the newest tick) has passed it.
-- WITHIN bounds how long a partial V may wait, so the state stays bounded (docs/streaming.md).
SELECT symbol, match_no, start_ts, top, bottom, end_ts, recovered
FROM ticks WATERMARK ts DELAY OF INTERVAL 1 MINUTE
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
    DOWN AS DOWN.price < PREV(DOWN.price),
    UP   AS UP.price > PREV(UP.price)
)
