SELECT p, COUNT(*) AS n, SUM(a_val) AS s, AVG(a_val) AS mean, MIN(last_b) AS lo, MAX(last_b) AS hi
FROM ev MATCH_RECOGNIZE (
  PARTITION BY p ORDER BY ts
  MEASURES A.val AS a_val, LAST(B.val) AS last_b
  ONE ROW PER MATCH
  SKIP TILL ANY MATCH
  PATTERN (A B+ C D E) WITHIN 150
  DEFINE A AS A.kind = 'a', B AS B.kind = 'b', C AS C.kind = 'c', D AS D.kind = 'd', E AS E.kind = 'e')
GROUP BY p
HAVING COUNT(*) > 10
ORDER BY n DESC
