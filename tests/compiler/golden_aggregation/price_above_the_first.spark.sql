-- comparisons with a different expression on each side: each side is a row-local expression of
-- one row, computed by Catalyst per input row as a value column (price * 1.05, price + 1)
SELECT p, coalesce(any_value(`__sparkcep_g0`), CAST(0 AS BIGINT)) AS rallies, any_value(`__sparkcep_g1`) AS total_start
FROM (SELECT `p`, `__sparkcep_g0`, `__sparkcep_g1` FROM sparkcep_mr_dbb20afcff9e34ca(TABLE(SELECT __sparkcep_in.`p`, __sparkcep_in.`ts`, CAST(IF(coalesce((kind = 'a'), false), 1L, 0L) + IF(coalesce((kind = 'b'), false), 2L, 0L) + IF(coalesce((kind = 'c'), false), 4L, 0L) AS TINYINT) AS `__sparkcep_m0`, (`price`) AS `__sparkcep_v0`, (`price` * 1.05) AS `__sparkcep_v1`, (`price` + 1) AS `__sparkcep_v2`, ((`price`)) AS `__sparkcep_v3`, (ts) AS `__sparkcep_k` FROM (SELECT * FROM ev) AS __sparkcep_in) PARTITION BY (`p`) ORDER BY (ts))) AS m
GROUP BY p

