-- imprecise timestamps: lo and hi become columns, the input is sorted by lo then by ORDER BY
SELECT * FROM cluster_events MATCH_RECOGNIZE (
  PARTITION BY node ORDER BY t_lo
  UNCERTAIN TIME (t_lo, t_lo + duration) GRANULARITY INTERVAL '1' SECOND
  MEASURES A.task AS task, CONFIDENCE() AS confidence,
           MATCH_EARLIEST_START() AS earliest_start, MATCH_LATEST_END() AS latest_end
  SKIP TILL ANY MATCH
  PATTERN (A B C) WITHIN INTERVAL '15' SECOND
  MINIMUM CONFIDENCE 0.5
  DEFINE A AS A.kind = 'TaskStart', B AS B.cpu > 95, C AS C.kind = 'TaskFinish'
) AS m
WHERE confidence > 0.6
