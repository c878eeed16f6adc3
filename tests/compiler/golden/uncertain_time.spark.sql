-- imprecise timestamps: lo and hi become columns, the input is sorted by lo then by ORDER BY
SELECT * FROM (SELECT `node`, (`__sparkcep_c0`) AS `task`, (`__sparkcep_c1`) AS `confidence`, (`__sparkcep_c2`) AS `earliest_start`, (`__sparkcep_c3`) AS `latest_end` FROM sparkcep_mr_60228c46127da493(TABLE(SELECT __sparkcep_in.`node`, __sparkcep_in.`t_lo`, CAST(IF(coalesce((`kind` = 'TaskStart'), false), 1L, 0L) + IF(coalesce((`cpu` > 95), false), 2L, 0L) + IF(coalesce((`kind` = 'TaskFinish'), false), 4L, 0L) AS TINYINT) AS `__sparkcep_m0`, (`task`) AS `__sparkcep_v0`, (t_lo) AS `__sparkcep_tlo`, (t_lo + duration) AS `__sparkcep_thi` FROM (SELECT * FROM cluster_events) AS __sparkcep_in) PARTITION BY (`node`) ORDER BY (`__sparkcep_tlo`, t_lo))) AS m
WHERE confidence > 0.6

