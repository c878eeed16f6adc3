/* keep me */ SELECT m.symbol, m.bottom, c.name, nvl(m.top, 0) AS top_or_zero
FROM (SELECT `symbol`, (`__sparkcep_c0`) AS `top`, (`__sparkcep_c1`) AS `bottom`, (`__sparkcep_c2` - `__sparkcep_c0`) AS `gain` FROM sparkcep_mr_b786ee0442c44733(TABLE(SELECT __sparkcep_in.`symbol`, __sparkcep_in.`ts`, CAST(IF(coalesce((`price` < lag((`price`), 1) OVER (PARTITION BY symbol ORDER BY ts)), false), 1L, 0L) + IF(coalesce((`price` > lag((`price`), 1) OVER (PARTITION BY symbol ORDER BY ts)), false), 2L, 0L) AS TINYINT) AS `__sparkcep_m0`, (`price`) AS `__sparkcep_v0`, ((`price`) * 1.01) AS `__sparkcep_v1` FROM (SELECT * FROM ticks) AS __sparkcep_in) PARTITION BY (`symbol`) ORDER BY (ts))) AS m JOIN companies c ON m.symbol = c.symbol
WHERE c.name != 'x'   -- trailing comment

