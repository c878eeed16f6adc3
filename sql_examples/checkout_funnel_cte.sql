-- Checkout funnel: among each user's shopping events only (product views, cart updates, checkout,
-- purchase), find runs "one or more product views, one or more cart events, a checkout, and
-- optionally a purchase". The input of MATCH_RECOGNIZE is a CTE that filters the clickstream,
-- so pages like 'home', 'search' or 'help' between the steps do not break the funnel.
--
-- Standard rules this example relies on (ISO/IEC TR 19075-5:2016, Row Pattern Recognition in SQL):
--  * MATCH_RECOGNIZE can read any table expression: here a named subquery (CTE).
--    The funnel deliberately ignores session boundaries (u03's and u05's funnels span several
--    sessions of click_sessions.sql).
--  * Strict contiguity is over the CTE's rows: u04's 'compare' visit (product, cart, product,
--    cart, cart, checkout, purchase) does not match from its first product view (a product view
--    follows the first cart event) but does match from its second one.
--  * PURCHASE? is greedy: the purchase is included whenever the next shopping event is one.
--    When it is absent, PURCHASE.ts is NULL.
--  * In ONE ROW PER MATCH, CLASSIFIER() is evaluated on the last row of the match: 'PURCHASE'
--    or 'CHECKOUT'.
--  * ONE ROW PER MATCH output columns: the partition columns, then the measures in order.
WITH shopping AS (
  SELECT user_id, ts, page
  FROM clicks
  WHERE page IN ('product', 'cart', 'checkout', 'purchase')
)
SELECT *
FROM shopping
  MATCH_RECOGNIZE (
    PARTITION BY user_id
    ORDER BY ts
    MEASURES
      MATCH_NUMBER()    AS funnel_no,
      FIRST(PRODUCT.ts) AS first_product_ts,
      COUNT(PRODUCT.*)  AS product_views,
      COUNT(CART.*)     AS cart_events,
      CHECKOUT.ts       AS checkout_ts,
      PURCHASE.ts       AS purchase_ts,
      CLASSIFIER()      AS last_step
    ONE ROW PER MATCH
    AFTER MATCH SKIP PAST LAST ROW
    PATTERN (PRODUCT+ CART+ CHECKOUT PURCHASE?)
    DEFINE
      PRODUCT  AS page = 'product',
      CART     AS page = 'cart',
      CHECKOUT AS page = 'checkout',
      PURCHASE AS page = 'purchase'
  ) AS f
ORDER BY user_id, funnel_no;
