-- Hadoop Q5 (SASE++ seed 000, §6.5, Table 5): a reducer that throws a balanced cluster out of
-- balance.
--   Paper:  PATTERN seq(Balance a, ReducerStart b, Imbalance+ c[], ReducerEnd d, Balance e)
--           WHERE [task_id]  WITHIN 10 minutes  RETURN a.task_id
-- Finds reducers that start while the cluster is balanced, during whose run the cluster is
-- imbalanced, and after whose end it is balanced again, all within 10 minutes.
--
-- Adaptation: Balance and Imbalance are Ganglia LoadStd samples (one a minute; val = standard
-- deviation of the CPU load across the nodes) below / at or above 1.0. Samples are cluster-wide
-- and carry no task_id, so the query reads the whole merged stream (no PARTITION BY) and [task_id]
-- becomes D.task_id = B.task_id. The negation !X (X: any LoadStd sample) makes A the last sample
-- before the ReduceStart: "the cluster was balanced when the reducer started". Without it, every
-- balanced sample of the preceding minutes would start its own match.
-- The paper returns a.task_id; a sample has none, so the reducer's task_id is returned.
--
-- Strategy: SKIP TILL NEXT MATCH. A run starts at every balanced sample; it takes the first
-- ReduceStart after it (a run never skips a usable row), and only if no sample came in between
-- (a sample in the gap is recorded and blocks the proceed over !X; docs/semantics.md). It then
-- takes every imbalanced sample (balanced ones in between are skipped), the ReduceEnd of the same
-- task, and the next balanced sample, which completes the match. No row can be used two ways, so
-- runs never fork.
--  * job_01_r_1 (started 09:02:52) and job_01_r_0 (09:03:07) both match, from the samples of
--    09:02 and 09:03; the cluster is balanced again only at 09:10 (job_02 runs meanwhile), so
--    both complete at the same row and are numbered by their first row.
--  * job_05_r_0 matches; job_05_r_1 starts 6 s after it, in the same minute: the run from the
--    09:32 sample takes only the first ReduceStart after it, so job_05_r_1 has no match.
--  * job_02: the last sample before its ReduceStarts (09:05, 1.34) is imbalanced.
--  * job_03_r_1: the cluster is balanced again (09:25) 12 minutes after the 09:13 sample: outside
--    the window. job_03_r_0 starts after job_03_r_1 in the same minute. job_04 was killed.
-- MATCH_NUMBER(): matches numbered in order of completion point (the E row), then first row.
-- ONE ROW PER MATCH columns: the measures in order (no partition columns).
SELECT *
FROM hadoop_log
  MATCH_RECOGNIZE (
    ORDER BY ts
    MEASURES
      MATCH_NUMBER()   AS match_no,
      B.task_id        AS task_id,
      B.node_id        AS node_id,
      A.ts             AS balanced_ts,
      A.val            AS balanced_val,
      B.ts             AS reduce_start,
      COUNT(C.*)       AS imbalanced_samples,
      MAX(C.val)       AS max_imbalance,
      D.ts             AS reduce_end,
      E.ts             AS rebalanced_ts,
      E.val            AS rebalanced_val
    ONE ROW PER MATCH
    SKIP TILL NEXT MATCH
    PATTERN (A !X B C+ D E) WITHIN INTERVAL '10' MINUTE
    DEFINE
      A AS A.event = 'LoadStd' AND A.val < 1.0,
      X AS X.event = 'LoadStd',
      B AS B.event = 'ReduceStart',
      C AS C.event = 'LoadStd' AND C.val >= 1.0,
      D AS D.event = 'ReduceEnd' AND D.task_id = B.task_id,
      E AS E.event = 'LoadStd' AND E.val < 1.0
  ) AS q5
ORDER BY match_no;
