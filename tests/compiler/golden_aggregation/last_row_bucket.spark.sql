-- per partition and bucket of the last row's time: rising runs counted without enumerating them
SELECT p, floor(m.last_ts / 3600) AS bucket, coalesce(any_value(`__sparkcep_g1`), CAST(0 AS BIGINT)) AS n, any_value(`__sparkcep_g2`) AS lo
FROM (SELECT `p`, `__sparkcep_g0`, `__sparkcep_g1`, `__sparkcep_g2`, `__sparkcep_g0` AS `last_ts` FROM sparkcep_mr_99ac27dd19606071(TABLE(SELECT __sparkcep_in.`p`, __sparkcep_in.`ts`, CAST(IF(coalesce((kind = 'a'), false), 1L, 0L) + IF(coalesce((kind = 'b'), false), 2L, 0L) + IF(coalesce((kind = 'c'), false), 4L, 0L) AS TINYINT) AS `__sparkcep_m0`, ((`val`)) AS `__sparkcep_v0`, (`val`) AS `__sparkcep_v1`, (floor((`ts`) / 3600)) AS `__sparkcep_v3` FROM (SELECT * FROM ev) AS __sparkcep_in) PARTITION BY (`p`) ORDER BY (ts))) AS m
GROUP BY floor(m.last_ts / 3600), p

