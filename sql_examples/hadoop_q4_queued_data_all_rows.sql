-- Hadoop Q4 (SASE++ seed 000, §6.5, Table 5; Figure 7(c)/(d)): intermediate data queued between
-- the mappers and the reducers of each job, over time.
--   Paper:  PATTERN seq(JobStart a, DataIO+ b[])  WHERE [task_id]  WITHIN 1 day
--           RETURN a.timestamp, b[b.LEN].timestamp, sum(b[].size)
-- Shows, for every job, the JobStart and then every data-I/O record with the number of bytes
-- written by finished mappers but not yet fetched by the reducers at that moment.
--
-- Adaptation: the paper groups by [task_id], which a JobStart does not have (an inconsistency in the paper), so
-- this groups by job_id. A DataIO record is a MapEnd (its map output is queued: +bytes) or a
-- DataPull (a reducer fetched a share: -bytes); the CTE adds that signed delta. The paper's
-- sum(b[].size) at b[b.LEN] is, row by row, RUNNING SUM(B.delta): ALL ROWS PER MATCH prints the
-- curve of Figure 7(c), rising as mappers finish and falling back to 0 once every share was
-- fetched (job_04 was killed after its reducer fetched everything).
--
-- Strategy: SKIP TILL NEXT MATCH, trailing Kleene B+ with a window. The run from the JobStart
-- takes every MapEnd and DataPull of the job and skips the rest (MapStart, ReduceStart,
-- ReduceProgress, ...). B+ can always grow, so the match is reported once, maximal, when the run
-- closes: at the first row 1 day after the JobStart or at the end of the partition
-- (docs/semantics.md, "When a match is final"). One match per job, MATCH_NUMBER() = 1.
-- ALL ROWS PER MATCH: only the selected rows (skipped rows are not part of the match); the
-- measures are RUNNING: on the JobStart row the SUM over no B rows is NULL and COUNT is 0.
WITH io AS (
  SELECT job_id, ts, task_id, event, bytes,
         CASE WHEN event = 'MapEnd' THEN bytes WHEN event = 'DataPull' THEN -bytes ELSE 0 END
           AS delta
  FROM hadoop_log
)
SELECT job_id, ts, match_no, role, event, task_id, bytes, io_records, queued_bytes
FROM io
  MATCH_RECOGNIZE (
    PARTITION BY job_id
    ORDER BY ts
    MEASURES
      MATCH_NUMBER()       AS match_no,
      CLASSIFIER()         AS role,
      RUNNING COUNT(B.*)   AS io_records,
      RUNNING SUM(B.delta) AS queued_bytes
    ALL ROWS PER MATCH
    SKIP TILL NEXT MATCH
    PATTERN (A B+) WITHIN INTERVAL '1' DAY
    DEFINE
      A AS A.event = 'JobStart',
      B AS B.event IN ('MapEnd', 'DataPull')
  ) AS q4
ORDER BY job_id, ts;
