SELECT p, coalesce(any_value(`__sparkcep_g0`), CAST(0 AS BIGINT)) AS n, any_value(`__sparkcep_g1`) AS s, any_value(`__sparkcep_g2`) AS mean, any_value(`__sparkcep_g3`) AS lo, any_value(`__sparkcep_g4`) AS hi
FROM (SELECT `p`, `__sparkcep_g0`, `__sparkcep_g1`, `__sparkcep_g2`, `__sparkcep_g3`, `__sparkcep_g4` FROM sparkcep_mr_88789eff081cce70(TABLE(SELECT __sparkcep_in.`p`, __sparkcep_in.`ts`, CAST(IF(coalesce((`kind` = 'a'), false), 1L, 0L) + IF(coalesce((`kind` = 'b'), false), 2L, 0L) + IF(coalesce((`kind` = 'c'), false), 4L, 0L) + IF(coalesce((`kind` = 'd'), false), 8L, 0L) + IF(coalesce((`kind` = 'e'), false), 16L, 0L) AS TINYINT) AS `__sparkcep_m0`, (`val`) AS `__sparkcep_v0`, (ts) AS `__sparkcep_k` FROM (SELECT * FROM ev) AS __sparkcep_in) PARTITION BY (`p`) ORDER BY (ts)))
GROUP BY p
HAVING coalesce(any_value(`__sparkcep_g0`), CAST(0 AS BIGINT)) > 10
ORDER BY n DESC

