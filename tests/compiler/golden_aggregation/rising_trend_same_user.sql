-- the shape of GRETA's running example: rising runs of B between an A and a C of the same user,
-- counted without enumerating them (DEFINE compares rows of the match)
SELECT p, COUNT(*) AS trends, MAX(peak) AS highest
FROM ev MATCH_RECOGNIZE (
  PARTITION BY p
  ORDER BY ts
  MEASURES LAST(B.val) AS peak
  ONE ROW PER MATCH
  SKIP TILL ANY MATCH
  PATTERN (A B+ C)
  WITHIN INTERVAL '1' HOUR
  DEFINE A AS kind = 'a',
         B AS kind = 'b' AND (LAST(B.val, 1) IS NULL OR B.val > LAST(B.val, 1)),
         C AS kind = 'c' AND C.u = A.u AND C.val >= LAST(B.val)
) AS m
GROUP BY p
