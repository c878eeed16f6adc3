WITH t(a, b) AS (VALUES (1, 1), (2, 3)), u AS (SELECT * FROM t)
SELECT * FROM (SELECT `a`, (`__sparkcep_c0`) AS `b`, * EXCEPT (`a`, `__sparkcep_c0`) FROM sparkcep_mr_e0a5fbbbe7bb0b7a(TABLE(SELECT __sparkcep_in.*, CAST(IF(coalesce((`b` > 0), false), 1L, 0L) AS TINYINT) AS `__sparkcep_m0`, (`b`) AS `__sparkcep_v0` FROM (SELECT * FROM u) AS __sparkcep_in) WITH SINGLE PARTITION ORDER BY (a)))

