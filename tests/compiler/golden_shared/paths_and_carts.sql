-- Two aggregate pattern queries over the clicks, one pass: per user the product -> cart(s) ->
-- checkout paths within an hour, and the product -> cart(s) runs without a window.
SELECT user_id, 'paths' AS what, COUNT(*) AS n, MIN(product_ts) AS first_ts
FROM clicks MATCH_RECOGNIZE (
    PARTITION BY user_id ORDER BY ts
    MEASURES A.ts AS product_ts
    SKIP TILL ANY MATCH
    PATTERN (A B+ C) WITHIN INTERVAL '1' HOUR
    DEFINE A AS A.page = 'product', B AS B.page = 'cart', C AS C.page = 'checkout'
) AS paths
GROUP BY user_id
UNION ALL
SELECT user_id, 'carts', COUNT(*), MAX(cart_ts)
FROM clicks MATCH_RECOGNIZE (
    PARTITION BY user_id ORDER BY ts
    MEASURES LAST(B.ts) AS cart_ts
    SKIP TILL ANY MATCH
    PATTERN (A B+)
    DEFINE A AS A.page = 'product', B AS B.page = 'cart'
)
GROUP BY user_id
HAVING COUNT(*) > 1
ORDER BY user_id
