SELECT * FROM (SELECT `symbol`, (`__sparkcep_c0`) AS `price` FROM sparkcep_mr_058d763327784606(TABLE(SELECT __sparkcep_in.`symbol`, __sparkcep_in.`ts`, CAST(IF(coalesce((`price` > 10), false), 1L, 0L) AS TINYINT) AS `__sparkcep_m0`, (`price`) AS `__sparkcep_v0` FROM (SELECT * FROM lake.ticks WITH ('mergeSchema' = 'true') AS t) AS __sparkcep_in) PARTITION BY (`symbol`) ORDER BY (ts)))

