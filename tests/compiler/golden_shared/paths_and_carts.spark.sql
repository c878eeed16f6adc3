-- Two aggregate pattern queries over the clicks, one pass: per user the product -> cart(s) ->
-- checkout paths within an hour, and the product -> cart(s) runs without a window.
WITH `__sparkcep_shared` AS (SELECT * FROM sparkcep_shared_383828525e1767fe(TABLE(SELECT __sparkcep_in.`user_id`, __sparkcep_in.`ts`, CAST(IF(coalesce((`page` = 'product'), false), 1L, 0L) + IF(coalesce((`page` = 'cart'), false), 2L, 0L) + IF(coalesce((`page` = 'checkout'), false), 4L, 0L) AS TINYINT) AS `__sparkcep_s0_m0`, (ts) AS `__sparkcep_s0_k`, CAST(IF(coalesce((`page` = 'product'), false), 1L, 0L) + IF(coalesce((`page` = 'cart'), false), 2L, 0L) AS TINYINT) AS `__sparkcep_s1_m0` FROM (SELECT * FROM clicks) AS __sparkcep_in) PARTITION BY (`user_id`) ORDER BY (ts)))
SELECT user_id, 'paths' AS what, coalesce(any_value(`__sparkcep_g0`), CAST(0 AS BIGINT)) AS n, any_value(`__sparkcep_g1`) AS first_ts
FROM (SELECT `user_id`, `__sparkcep_s0_g0` AS `__sparkcep_g0`, `__sparkcep_s0_g1` AS `__sparkcep_g1` FROM `__sparkcep_shared` WHERE `__sparkcep_branch` = 0) AS paths
GROUP BY user_id
UNION ALL
SELECT user_id, 'carts', coalesce(any_value(`__sparkcep_g0`), CAST(0 AS BIGINT)), any_value(`__sparkcep_g1`)
FROM (SELECT `user_id`, `__sparkcep_s1_g0` AS `__sparkcep_g0`, `__sparkcep_s1_g1` AS `__sparkcep_g1` FROM `__sparkcep_shared` WHERE `__sparkcep_branch` = 1)
GROUP BY user_id
HAVING coalesce(any_value(`__sparkcep_g0`), CAST(0 AS BIGINT)) > 1
ORDER BY user_id

