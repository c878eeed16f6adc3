-- Hadoop Q2 (SASE++ seed 000, §6.5, Table 5): reducer lifetime statistics per job, for jobs
-- whose tasks all succeeded at the first attempt.
--   Paper:  PATTERN seq(JobStart a, Reducer+ b[], JobEnd c)  WHERE [job_id]  WITHIN 1 day
--           RETURN avg(b[].period), max(b[].period)
--
-- Adaptation: [job_id] becomes PARTITION BY job_id; "Reducer" is a ReduceEnd record (period_s =
-- the reducer's run time). The query runs with the default strategy, STRICT CONTIGUITY (written
-- out here), over a CTE that keeps only the job's lifecycle records: JobStart, ReduceEnd,
-- JobEnd and every failed task attempt (*Failed). This is SASE's partition contiguity: the
-- selected events must be adjacent in the sub-stream, so everything the CTE drops (MapStart,
-- MapEnd, DataPull, progress, Ganglia samples) may lie in between, but a failed attempt may not.
--  * job_01, job_03, job_05: JobStart, ReduceEnd, ReduceEnd, JobEnd are adjacent -> one row each.
--  * job_02: a MapFailed record (a map attempt failed and was retried) lies between JobStart and
--    the first ReduceEnd -> no match (SKIP TILL NEXT MATCH would skip it and match).
--  * job_04 was killed: no JobEnd -> no match.
-- WITHIN INTERVAL '1' DAY under strict contiguity: last row - first row < 1 day (the same rule as
-- under the SASE strategies; docs/semantics.md). Standard AFTER MATCH SKIP PAST LAST ROW.
-- ONE ROW PER MATCH columns: the partition column, then the measures in order.
WITH lifecycle AS (
  SELECT job_id, ts, event, task_id, period_s
  FROM hadoop_log
  WHERE event IN ('JobStart', 'ReduceEnd', 'JobEnd') OR event LIKE '%Failed'
)
SELECT *
FROM lifecycle
  MATCH_RECOGNIZE (
    PARTITION BY job_id
    ORDER BY ts
    MEASURES
      A.ts              AS job_start,
      C.ts              AS job_end,
      COUNT(B.*)        AS reducers,
      AVG(B.period_s)   AS avg_reduce_s,
      MAX(B.period_s)   AS max_reduce_s,
      LAST(B.task_id)   AS last_reducer
    ONE ROW PER MATCH
    STRICT CONTIGUITY
    PATTERN (A B+ C) WITHIN INTERVAL '1' DAY
    DEFINE
      A AS A.event = 'JobStart',
      B AS B.event = 'ReduceEnd',
      C AS C.event = 'JobEnd'
  ) AS q2
ORDER BY job_id;
