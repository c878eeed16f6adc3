SELECT * FROM (SELECT `symbol`, (`__sparkcep_c0`) AS `price` FROM sparkcep_mr_2b2c5b84399cdedc(TABLE(SELECT __sparkcep_in.`symbol`, __sparkcep_in.`ts`, CAST(IF(coalesce((`price` > 10), false), 1L, 0L) AS TINYINT) AS `__sparkcep_m0`, (`price`) AS `__sparkcep_v0` FROM (SELECT * FROM lake.ticks VERSION AS OF 3) AS __sparkcep_in) PARTITION BY (`symbol`) ORDER BY (ts)))

