-- Hadoop Q3 (SASE++ seed 000, §6.5, Table 5): data-pull stragglers.
--   Paper:  PATTERN seq(ReducerStart a, DataPull+ b[])
--           WHERE [task_id] AND b[b.len].period > 2 * avg(b[].period)  WITHIN 10 minutes
--           RETURN a.(task_id, period)
-- Finds, per reduce task, the shuffle fetches (DataPull) of its first 10 minutes, and flags the
-- task as a straggler when its last fetch took more than twice the average fetch.
--
-- Strategy: SKIP TILL NEXT MATCH with a trailing Kleene component and a window. The run from the
-- ReduceStart takes every DataPull of the task (ReduceProgress records in between are skipped)
-- and, because B+ can still grow, is reported once, maximal, when it closes: at the first row of
-- the partition at or after ReduceStart + 10 minutes, or at the end of the partition
-- (docs/semantics.md, "When a match is final"). So each reducer has exactly one match, holding
-- the DataPulls that came less than 10 minutes after its start.
-- Adaptation: [task_id] becomes PARTITION BY task_id (only reduce tasks have a ReduceStart).
-- The paper's condition is on the whole match (its last element against the average of all),
-- which DEFINE cannot express for a trailing Kleene (DEFINE sees the rows selected so far), so
-- LAST(B.period_s) and AVG(B.period_s) are measures and the outer query computes the flag.
--  * job_02_r_1 and job_05_r_0: the last fetch is slow (31.0 s, 39.6 s) -> straggler.
--  * job_03_r_1: its last fetch (32.6 s) waits for a straggling mapper and comes 10:29 after the
--    reducer started: outside the window, so it is not part of the match and the task is not
--    flagged (with it, the average would be 11.15 s and the task a straggler). job_03_r_0's last
--    fetch comes 10:13 after its start: also outside. Both matches close at that fetch's row.
--  * job_04_r_0 (killed job, no ReduceEnd) still has its match: the pattern ends with B+.
-- ONE ROW PER MATCH columns: the partition column, then the measures in order.
SELECT task_id, node_id, reduce_start, pulls, avg_pull_s, last_pull_s, last_pull_ts,
       last_pull_s > 2 * avg_pull_s AS straggler
FROM hadoop_log
  MATCH_RECOGNIZE (
    PARTITION BY task_id
    ORDER BY ts
    MEASURES
      A.node_id         AS node_id,
      A.ts              AS reduce_start,
      COUNT(B.*)        AS pulls,
      AVG(B.period_s)   AS avg_pull_s,
      LAST(B.period_s)  AS last_pull_s,
      LAST(B.ts)        AS last_pull_ts
    ONE ROW PER MATCH
    SKIP TILL NEXT MATCH
    PATTERN (A B+) WITHIN INTERVAL '10' MINUTE
    DEFINE
      A AS A.event = 'ReduceStart',
      B AS B.event = 'DataPull'
  ) AS q3
ORDER BY task_id;
