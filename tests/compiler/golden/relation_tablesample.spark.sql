SELECT * FROM (SELECT `symbol`, (`__sparkcep_c0`) AS `n` FROM sparkcep_mr_26f914745dcdf56d(TABLE(SELECT __sparkcep_in.`symbol`, __sparkcep_in.`ts`, CAST(IF(coalesce((`price` > 10), false), 1L, 0L) AS TINYINT) AS `__sparkcep_m0` FROM (SELECT * FROM ticks TABLESAMPLE (BUCKET 1 OUT OF 4) AS s) AS __sparkcep_in) PARTITION BY (`symbol`) ORDER BY (ts)))

