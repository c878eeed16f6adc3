-- Imprecise timestamps (Zhang, Diao, Immerman, "Recognizing Patterns in Streams with Imprecise
-- Timestamps", PVLDB 2010): tasks that ran hot, although the nodes' clocks are only known to
-- within a few seconds. Each event of cluster_events occurred at one equally likely whole second
-- of [t_lo, t_hi] (UNCERTAIN TIME ... GRANULARITY INTERVAL '1' SECOND).
--
-- Finds, per node, every TaskStart, CPU sample above 95 % and TaskFinish of the same task that
-- happen in this order within 15 seconds, with the probability of the possible worlds in which
-- they do (CONFIDENCE()), and the earliest second the match can start and the latest it can end.
--   * SKIP TILL ANY MATCH: every hot sample of a task's run gives its own match (t-201 on
--     node-b has two, both certain: confidence 1).
--   * The order is decided per world: a sample that may lie before the TaskStart or after the
--     TaskFinish gets a confidence below 1 (t-101's sample: 0.6; t-102's sample 7000029 most
--     likely precedes the start: 1/36).
--   * WITHIN INTERVAL '15' SECOND: in each world, finish - start < 15 s. t-202 ran 16 s, so only
--     the worlds where the clock skew shortens it have a match (confidence 1/9); t-102 ran 14 s
--     (at most 2/3).
--   * MINIMUM CONFIDENCE 0.25 drops the matches less likely than 1 in 4 (4 of the 12).
--   * C.task = A.task compares two events of the match (a match-dependent DEFINE).
-- ONE ROW PER MATCH columns: the partition column, then the measures.
SELECT node, task, sample_id, cpu, confidence, earliest_start, latest_end
FROM cluster_events
  MATCH_RECOGNIZE (
    PARTITION BY node
    ORDER BY event_id
    UNCERTAIN TIME (t_lo, t_hi) GRANULARITY INTERVAL '1' SECOND
    MEASURES A.task AS task, B.event_id AS sample_id, B.cpu AS cpu, CONFIDENCE() AS confidence,
             MATCH_EARLIEST_START() AS earliest_start, MATCH_LATEST_END() AS latest_end
    SKIP TILL ANY MATCH
    PATTERN (A B C) WITHIN INTERVAL '15' SECOND
    MINIMUM CONFIDENCE 0.25
    DEFINE A AS A.kind = 'TaskStart',
           B AS B.kind = 'CpuSample' AND B.cpu > 95,
           C AS C.kind = 'TaskFinish' AND C.task = A.task
  ) AS m
ORDER BY node, task, sample_id;
