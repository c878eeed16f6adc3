-- Hadoop Q6 (SASE++ seed 000, §2.1 and §6.5, Tables 1 and 5): load imbalance that keeps growing
-- while a reducer runs.
--   Paper:  PATTERN seq(ReducerStart a, LoadStd+ b[], ReducerEnd c)
--           WHERE [task_id] AND b[i].val >= b[i-1].val           (option 1)
--                           (or b[i].val >= max(b[1..i-1].val))   (option 2)
--           WITHIN 10 minutes  RETURN a.task_id
-- Finds, for every reducer that ran less than 10 minutes, every non-decreasing sequence of the
-- Ganglia load-imbalance samples (LoadStd) taken during its run.
--
-- Adaptation: LoadStd samples are cluster-wide (no task_id), so the query reads the whole merged
-- stream and [task_id] becomes C.task_id = A.task_id. Option 1, b[i].val >= b[i-1].val, becomes
-- B.val >= LAST(B.val, 1): in DEFINE, LAST(B.val, 1) is the previously *selected* B (RUNNING),
-- and it is NULL for the first B, hence the COALESCE. (Option 2 selects the same sequences: a
-- sequence where each value is >= the previous one is non-decreasing, so >= all previous ones.)
--
-- Strategy: SKIP TILL ANY MATCH, as in the paper's own comparison (§2.1): NEXT would select, per
-- reducer, only the greedy sequence that skips a sample lower than the last one taken; ANY
-- reports every choice of samples. job_01_r_1's samples 0.45, 1.35, 1.34 give 5 matches: (0.45),
-- (1.35), (1.34), (0.45 1.35), (0.45 1.34); NEXT would give only (0.45 1.35). job_02's reducers
-- see 4 rising samples: 2^4 - 1 = 15 matches each.
-- WITHIN INTERVAL '10' MINUTE: ReduceEnd - ReduceStart < 10 minutes, so job_03's reducers (about
-- 11 and 12 minutes) have no match; job_04_r_0 has no ReduceEnd.
-- MATCH_NUMBER(): all matches of the stream are numbered in order of completion point (the C
-- row), then first row, then the rows (docs/semantics.md).
-- ONE ROW PER MATCH columns: the measures in order (no partition columns).
SELECT *
FROM hadoop_log
  MATCH_RECOGNIZE (
    ORDER BY ts
    MEASURES
      MATCH_NUMBER()  AS match_no,
      A.task_id       AS task_id,
      A.ts            AS reduce_start,
      C.ts            AS reduce_end,
      COUNT(B.*)      AS samples,
      FIRST(B.ts)     AS first_sample_ts,
      LAST(B.ts)      AS last_sample_ts,
      FIRST(B.val)    AS first_val,
      LAST(B.val)     AS last_val
    ONE ROW PER MATCH
    SKIP TILL ANY MATCH
    PATTERN (A B+ C) WITHIN INTERVAL '10' MINUTE
    DEFINE
      A AS A.event = 'ReduceStart',
      B AS B.event = 'LoadStd' AND B.val >= COALESCE(LAST(B.val, 1), B.val),
      C AS C.event = 'ReduceEnd' AND C.task_id = A.task_id
  ) AS q6
ORDER BY match_no;
