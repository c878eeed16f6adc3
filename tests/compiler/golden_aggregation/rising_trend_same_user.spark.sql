-- the shape of GRETA's running example: rising runs of B between an A and a C of the same user,
-- counted without enumerating them (DEFINE compares rows of the match)
SELECT p, coalesce(any_value(`__sparkcep_g0`), CAST(0 AS BIGINT)) AS trends, any_value(`__sparkcep_g1`) AS highest
FROM (SELECT `p`, `__sparkcep_g0`, `__sparkcep_g1` FROM sparkcep_mr_eb5acfb688cd30a2(TABLE(SELECT __sparkcep_in.`p`, __sparkcep_in.`ts`, CAST(IF(coalesce((kind = 'a'), false), 1L, 0L) + IF(coalesce((kind = 'b'), false), 2L, 0L) + IF(coalesce((kind = 'c'), false), 4L, 0L) AS TINYINT) AS `__sparkcep_m0`, ((`val`)) AS `__sparkcep_v0`, (`val`) AS `__sparkcep_v1`, (`u`) AS `__sparkcep_v2`, (ts) AS `__sparkcep_k` FROM (SELECT * FROM ev) AS __sparkcep_in) PARTITION BY (`p`) ORDER BY (ts))) AS m
GROUP BY p

