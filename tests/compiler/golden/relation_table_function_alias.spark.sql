SELECT * FROM (SELECT (`__sparkcep_c0`) AS `first_even` FROM sparkcep_mr_511de88fe09700fa(TABLE(SELECT __sparkcep_in.`n`, CAST(IF(coalesce((`n` % 2 = 0), false), 1L, 0L) AS TINYINT) AS `__sparkcep_m0` FROM (SELECT * FROM range(1, 10) AS r(n)) AS __sparkcep_in) WITH SINGLE PARTITION ORDER BY (n)))

