-- per partition and bucket of the last row's time: rising runs counted without enumerating them
SELECT p, floor(m.last_ts / 3600) AS bucket, COUNT(*) AS n, MIN(run_sum) AS lo
FROM ev MATCH_RECOGNIZE (
  PARTITION BY p ORDER BY ts
  MEASURES LAST(C.ts) AS last_ts, SUM(B.val) AS run_sum
  SKIP TILL ANY MATCH PATTERN (A B* C)
  DEFINE A AS kind = 'a', B AS kind = 'b' AND (LAST(B.val, 1) IS NULL OR B.val > LAST(B.val, 1)),
         C AS kind = 'c') AS m
GROUP BY floor(m.last_ts / 3600), p
