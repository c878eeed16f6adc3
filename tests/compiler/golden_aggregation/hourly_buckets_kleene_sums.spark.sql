-- per user and hour of the first click: how many paths, their per-path cart totals
SELECT user_id, date_trunc('HOUR', first_ts) AS hour, coalesce(any_value(`__sparkcep_g1`), CAST(0 AS BIGINT)) AS paths,
       any_value(`__sparkcep_g2`) AS total, any_value(`__sparkcep_g3`) AS mean, any_value(`__sparkcep_g4`) AS top,
       any_value(`__sparkcep_g5`) AS fewest
FROM (SELECT `user_id`, `__sparkcep_g0`, `__sparkcep_g1`, `__sparkcep_g2`, `__sparkcep_g3`, `__sparkcep_g4`, `__sparkcep_g5`, `__sparkcep_g0` AS `first_ts` FROM sparkcep_mr_1617db3737292005(TABLE(SELECT __sparkcep_in.`user_id`, __sparkcep_in.`ts`, CAST(IF(coalesce((`page` = 'product'), false), 1L, 0L) + IF(coalesce((`page` = 'cart'), false), 2L, 0L) + IF(coalesce((`page` = 'checkout'), false), 4L, 0L) AS TINYINT) AS `__sparkcep_m0`, (`price`) AS `__sparkcep_v1`, (date_trunc('HOUR', (`ts`))) AS `__sparkcep_v2`, (ts) AS `__sparkcep_k` FROM (SELECT * FROM clicks) AS __sparkcep_in) PARTITION BY (`user_id`) ORDER BY (ts))) AS paths
GROUP BY user_id, date_trunc('HOUR', first_ts)
HAVING coalesce(any_value(`__sparkcep_g1`), CAST(0 AS BIGINT)) > 1
ORDER BY hour

