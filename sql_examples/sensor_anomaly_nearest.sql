-- An overheating reading (temp_c > 85) and a vibration reading (vibration_mm_s > 7) at most four
-- readings apart, in either order, pairing each anomaly with the NEAREST anomaly of the other kind
-- that follows it. One row per pair.
--
-- Standard rules this example relies on (ISO/IEC TR 19075-5:2016, Row Pattern Recognition in SQL):
--  * Strict contiguity: the readings in between must be mapped to a variable too. GAP has no
--    DEFINE condition (TRUE), so any reading, anomalous or not, can fill the gap.
--  * GAP{0,3}? is reluctant: it prefers 0, then 1, 2, 3 gap rows, so the match ends on the first
--    suitable reading: press-02's hot reading at 09:16 pairs with the shaky reading at 09:31,
--    not with the one at 09:36. A greedy GAP{0,3} would prefer the farthest one (09:36).
--  * Alternation prefers its left branch: a reading that is both hot and shaky is first tried as
--    HOT in "HOT ... SHAKY" (all gap lengths), and only then as SHAKY in "SHAKY ... HOT".
--    press-02 at 08:41 is hot and shaky: "HOT ... SHAKY" finds no shaky reading in the next four,
--    so the right branch pairs it, as SHAKY, with the hot reading at 08:46.
--  * If no gap length works, the starting row is unmatched and matching resumes on the next row
--    (press-02's hot reading at 10:06 has its shaky partner 5 readings later: no pair).
--  * COUNT(GAP.*) is 0 when the gap is empty; FIRST(ts) / LAST(ts) use all rows of the match.
--  * AFTER MATCH SKIP PAST LAST ROW (default): pairs do not overlap.
--  * ONE ROW PER MATCH output columns: the partition columns, then the measures in order.
SELECT *
FROM sensor_readings
  MATCH_RECOGNIZE (
    PARTITION BY sensor_id
    ORDER BY ts
    MEASURES
      MATCH_NUMBER()  AS match_no,
      FIRST(ts)       AS window_start,
      LAST(ts)        AS window_end,
      CASE WHEN HOT.ts < SHAKY.ts THEN 'heat_first' ELSE 'vibration_first' END AS sequence,
      HOT.ts          AS hot_ts,
      SHAKY.ts        AS shaky_ts,
      COUNT(GAP.*)    AS readings_between
    ONE ROW PER MATCH
    AFTER MATCH SKIP PAST LAST ROW
    PATTERN (HOT GAP{0,3}? SHAKY | SHAKY GAP{0,3}? HOT)
    DEFINE
      HOT   AS HOT.temp_c > 85,
      SHAKY AS SHAKY.vibration_mm_s > 7
  ) AS a
ORDER BY sensor_id, match_no;
