-- comparisons with a different expression on each side: each side is a row-local expression of
-- one row, computed by Catalyst per input row as a value column (price * 1.05, price + 1)
SELECT p, COUNT(*) AS rallies, SUM(start_price) AS total_start
FROM ev MATCH_RECOGNIZE (
  PARTITION BY p
  ORDER BY ts
  MEASURES A.price AS start_price
  ONE ROW PER MATCH
  SKIP TILL ANY MATCH
  PATTERN (A B+ C)
  WITHIN 100
  DEFINE A AS kind = 'a',
         B AS kind = 'b' AND B.price > A.price * 1.05,
         C AS kind = 'c' AND C.price + 1 > LAST(B.price)
) AS m
GROUP BY p
