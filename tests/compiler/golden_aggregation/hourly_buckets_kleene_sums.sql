-- per user and hour of the first click: how many paths, their per-path cart totals
SELECT user_id, date_trunc('HOUR', first_ts) AS hour, COUNT(*) AS paths,
       SUM(cart_total) AS total, AVG(cart_total) AS mean, MAX(cart_total) AS top,
       MIN(carts) AS fewest
FROM clicks MATCH_RECOGNIZE (
  PARTITION BY user_id ORDER BY ts
  MEASURES FIRST(A.ts) AS first_ts, SUM(B.price) AS cart_total, COUNT(B.price) AS carts
  ONE ROW PER MATCH SKIP TILL ANY MATCH
  PATTERN (A B+ C) WITHIN INTERVAL '1' HOUR
  DEFINE A AS A.page = 'product', B AS B.page = 'cart', C AS C.page = 'checkout') AS paths
GROUP BY user_id, date_trunc('HOUR', first_ts)
HAVING COUNT(*) > 1
ORDER BY hour
