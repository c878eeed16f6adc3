WITH ev AS (SELECT * FROM events WHERE kind <> 'noise')
SELECT a, c, nb FROM ev MATCH_RECOGNIZE (
  ORDER BY ts
  MEASURES FIRST(A.id) AS a, LAST(C.id) AS c, COUNT(B.*) AS nb
  ONE ROW PER MATCH
  SKIP TILL ANY MATCH
  PATTERN (A B+ C) WITHIN INTERVAL '10' MINUTE
  DEFINE A AS kind = 'a', B AS kind = 'b', C AS kind = 'c') AS m
WHERE nb > 1
