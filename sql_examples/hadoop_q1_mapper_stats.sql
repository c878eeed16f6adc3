-- Hadoop Q1 (SASE++ seed 000, §6.5, Tables 1 and 5): mapper lifetime statistics per job.
--   Paper:  PATTERN seq(JobStart a, Mapper+ b[], JobEnd c)
--           WHERE a.job_id = b[i].job_id AND a.job_id = c.job_id  WITHIN 1 day
--           RETURN avg(b[].period), max(b[].period)
-- Finds, for every job that ended, the number of mappers that finished, their average and
-- longest run time, and their total output.
--
-- Adaptation: the equality predicates on job_id become PARTITION BY job_id; "Mapper" is a
-- MapEnd record (period_s = the map attempt's run time); avg/max over b[] become AVG/MAX in
-- MEASURES. A failed map attempt (MapFailed, job_02) is not a Mapper.
--
-- Strategy: SKIP TILL NEXT MATCH. The job's MapStart, DataPull, ReduceStart, ... records lie
-- between the MapEnds, so strict contiguity finds nothing. SKIP TILL ANY MATCH would report every
-- non-empty subset of the mappers (2^5 - 1 = 31 matches for job_01) with meaningless averages;
-- NEXT never skips a row it can use, so its single run per JobStart takes every MapEnd
-- (docs/semantics.md: "a run never skips a row it could use"). A MapEnd never qualifies for C,
-- so the run never forks: one match per job that has a JobEnd. job_04 was killed (JobKilled, no
-- JobEnd): its run never completes and it has no row.
-- WITHIN INTERVAL '1' DAY: last row - first row < 1 day (never binding here, as in the paper).
-- ONE ROW PER MATCH columns: the partition column, then the measures in order.
SELECT *
FROM hadoop_log
  MATCH_RECOGNIZE (
    PARTITION BY job_id
    ORDER BY ts
    MEASURES
      A.ts               AS job_start,
      C.ts               AS job_end,
      COUNT(B.*)         AS mappers,
      AVG(B.period_s)    AS avg_map_s,
      MAX(B.period_s)    AS max_map_s,
      SUM(B.bytes)       AS map_output_bytes
    ONE ROW PER MATCH
    SKIP TILL NEXT MATCH
    PATTERN (A B+ C) WITHIN INTERVAL '1' DAY
    DEFINE
      A AS A.event = 'JobStart',
      B AS B.event = 'MapEnd',
      C AS C.event = 'JobEnd'
  ) AS q1
ORDER BY job_id;
