SELECT COUNT(*) AS sequences, COUNT(m.first_b) AS with_b
FROM ev MATCH_RECOGNIZE (
  ORDER BY ts
  MEASURES FIRST(B.val) AS first_b
  SKIP TILL ANY MATCH
  PATTERN (A B* C)
  DEFINE A AS kind = 'a', B AS kind = 'b', C AS kind = 'c') AS m
