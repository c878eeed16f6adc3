-- Flag every reading as part of a temperature spike or not. A spike is two or more consecutive
-- readings above 85 °C. Every input row is returned exactly once, annotated.
--
-- Standard rules this example relies on (ISO/IEC TR 19075-5:2016, Row Pattern Recognition in SQL):
--  * ALL ROWS PER MATCH WITH UNMATCHED ROWS also returns the rows that are in no match, with all
--    measures NULL (MATCH_NUMBER() and CLASSIFIER() included). Together with AFTER MATCH SKIP
--    PAST LAST ROW this yields exactly one output row per input row.
--  * MATCH_NUMBER() counts matches only: unmatched rows do not consume numbers.
--  * A single hot reading is not a spike (HOT{2,}) and comes out as unmatched.
--  * RUNNING COUNT(*) is the position inside the spike; FINAL measures are constant per spike.
--  * ALL ROWS PER MATCH output columns: partition columns, ORDER BY columns, the measures in
--    order, then the remaining input columns (temp_c, vibration_mm_s); the outer SELECT appends
--    status after them.
SELECT *,
       CASE WHEN spike_no IS NULL THEN 'normal' ELSE 'in_spike' END AS status
FROM sensor_readings
  MATCH_RECOGNIZE (
    PARTITION BY sensor_id
    ORDER BY ts
    MEASURES
      MATCH_NUMBER()        AS spike_no,
      CLASSIFIER()          AS label,
      RUNNING COUNT(*)      AS reading_in_spike,
      FINAL COUNT(*)        AS spike_readings,
      FINAL MAX(HOT.temp_c) AS spike_max_temp_c
    ALL ROWS PER MATCH WITH UNMATCHED ROWS
    AFTER MATCH SKIP PAST LAST ROW
    PATTERN (HOT{2,})
    DEFINE
      HOT AS HOT.temp_c > 85
  ) AS s
ORDER BY sensor_id, ts;
