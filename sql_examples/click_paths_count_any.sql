-- Path counting: for each user, how many ways a product view leads through one or more cart
-- views to a checkout within one hour, and the earliest and latest product view that starts
-- such a path. SKIP TILL ANY MATCH (SASE+): other clicks may lie in between, and every choice of
-- rows is a path, so a user with many cart views has exponentially many (2^carts - 1 per
-- product/checkout pair).
--
-- The outer query only aggregates the matches per partition, so sparkcep counts them without
-- building one (docs/semantics.md, "Aggregation over matches"; `sparkcep explain` shows
-- "aggregation without enumerating matches"). The answer is the one enumeration gives.
--  * WITHIN INTERVAL '1' HOUR: checkout ts - product ts < 1 hour (strict).
--  * A.ts is one row's value (the product view), so MIN/MAX of it are pushed down too.
--  * GROUP BY user_id is exactly PARTITION BY user_id: a group is one user. Users without a path
--    have no row, as with enumeration.
SELECT user_id,
       COUNT(*)          AS paths,
       MIN(product_ts)   AS first_product_view,
       MAX(product_ts)   AS last_product_view
FROM clicks
  MATCH_RECOGNIZE (
    PARTITION BY user_id
    ORDER BY ts
    MEASURES A.ts AS product_ts
    ONE ROW PER MATCH
    SKIP TILL ANY MATCH
    PATTERN (A B+ C) WITHIN INTERVAL '1' HOUR
    DEFINE
      A AS A.page = 'product',
      B AS B.page = 'cart',
      C AS C.page = 'checkout'
  ) AS paths
GROUP BY user_id
ORDER BY user_id;
