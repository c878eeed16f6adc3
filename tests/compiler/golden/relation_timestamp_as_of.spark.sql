SELECT * FROM (SELECT `symbol`, (`__sparkcep_c0`) AS `price` FROM sparkcep_mr_26c07f46695f31c6(TABLE(SELECT __sparkcep_in.`symbol`, __sparkcep_in.`ts`, CAST(IF(coalesce((`price` > 10), false), 1L, 0L) AS TINYINT) AS `__sparkcep_m0`, (`price`) AS `__sparkcep_v0` FROM (SELECT * FROM lake.ticks TIMESTAMP AS OF '2024-01-01 00:00:00' t) AS __sparkcep_in) PARTITION BY (`symbol`) ORDER BY (ts)))

