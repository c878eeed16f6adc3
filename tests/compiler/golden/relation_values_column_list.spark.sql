-- ISO/IEC 19075-5 4.3: the row pattern input table is any table primary; its derived column
-- list names the columns that PARTITION BY, ORDER BY, MEASURES and DEFINE refer to.
SELECT * FROM (SELECT (`__sparkcep_c0`) AS `first_value`, (`__sparkcep_c1`) AS `last_value` FROM sparkcep_mr_cbefddf26c94675a(TABLE(SELECT __sparkcep_in.`id`, CAST(IF(coalesce((`value` < lag((`value`), 1) OVER (ORDER BY id)), false), 2L, 0L) + 1L AS TINYINT) AS `__sparkcep_m0`, (`value`) AS `__sparkcep_v0` FROM (SELECT * FROM (VALUES (1, 90), (2, 80), (3, 70)) t(id, value)) AS __sparkcep_in) WITH SINGLE PARTITION ORDER BY (id)))

