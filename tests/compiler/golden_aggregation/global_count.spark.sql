SELECT coalesce(any_value(`__sparkcep_g0`), CAST(0 AS BIGINT)) AS sequences, coalesce(any_value(`__sparkcep_g1`), CAST(0 AS BIGINT)) AS with_b
FROM (SELECT `__sparkcep_g0`, `__sparkcep_g1` FROM sparkcep_mr_c584f081c8949776(TABLE(SELECT __sparkcep_in.`ts`, CAST(IF(coalesce((kind = 'a'), false), 1L, 0L) + IF(coalesce((kind = 'b'), false), 2L, 0L) + IF(coalesce((kind = 'c'), false), 4L, 0L) AS TINYINT) AS `__sparkcep_m0`, (`val`) AS `__sparkcep_v0` FROM (SELECT * FROM ev) AS __sparkcep_in) WITH SINGLE PARTITION ORDER BY (ts))) AS m

