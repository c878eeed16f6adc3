-- Two different anomalies on consecutive readings of a machine, in either order: an overheating
-- reading (temp_c > 85) and a vibration reading (vibration_mm_s > 7). One row per pair.
--
-- Standard rules this example relies on (ISO/IEC TR 19075-5:2016, Row Pattern Recognition in SQL):
--  * PERMUTE(HOT, SHAKY) is the alternation (HOT SHAKY | SHAKY HOT), tried in that order
--    (permutations in the lexicographic order of the PERMUTE list; left alternatives preferred).
--  * A row may satisfy both conditions; the pattern decides its label. press-01 at 09:40 is hot
--    and shaky and the next reading only shaky: HOT SHAKY (tried first) matches. press-02 at
--    08:41 is hot and shaky and the next reading only hot: HOT SHAKY fails, SHAKY HOT matches,
--    so the 08:41 row is labelled SHAKY.
--  * SUBSET ANOMALY = (HOT, SHAKY) is the union of both variables: FIRST(ANOMALY.ts) is the first
--    row of the pair whatever its label, MAX(ANOMALY.temp_c) ranges over both rows.
--  * HOT.ts in a measure is LAST(HOT.ts): here the single HOT row.
--  * AFTER MATCH SKIP PAST LAST ROW (default): pairs do not overlap.
--  * ONE ROW PER MATCH output columns: the partition columns, then the measures in order.
SELECT *
FROM sensor_readings
  MATCH_RECOGNIZE (
    PARTITION BY sensor_id
    ORDER BY ts
    MEASURES
      MATCH_NUMBER()         AS match_no,
      FIRST(ANOMALY.ts)      AS first_ts,
      CASE WHEN HOT.ts < SHAKY.ts THEN 'heat_first' ELSE 'vibration_first' END AS sequence,
      HOT.ts                 AS hot_ts,
      HOT.temp_c             AS hot_temp_c,
      SHAKY.ts               AS shaky_ts,
      SHAKY.vibration_mm_s   AS shaky_vibration_mm_s,
      MAX(ANOMALY.temp_c)    AS max_temp_c
    ONE ROW PER MATCH
    AFTER MATCH SKIP PAST LAST ROW
    PATTERN (PERMUTE(HOT, SHAKY))
    SUBSET ANOMALY = (HOT, SHAKY)
    DEFINE
      HOT   AS HOT.temp_c > 85,
      SHAKY AS SHAKY.vibration_mm_s > 7
  ) AS a
ORDER BY sensor_id, match_no;
