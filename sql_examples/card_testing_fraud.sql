-- Card testing: a card makes three or more small charges (< 10.00) in a row, whose total stays
-- under 30.00, immediately followed by a large charge (>= 200.00) that comes within 10 minutes of
-- the first small charge and within 5 minutes of the last one. One row per suspicious burst.
--
-- Standard rules this example relies on (ISO/IEC TR 19075-5:2016, Row Pattern Recognition in SQL):
--  * DEFINE is evaluated with RUNNING semantics: inside DEFINE BIG, COUNT(SMALL.*),
--    SUM(SMALL.amount), FIRST(SMALL.ts) and LAST(SMALL.ts) range over the SMALL rows matched so
--    far, i.e. the small charges of this attempt only.
--  * Strict contiguity: an ordinary charge between the small ones breaks the pattern
--    (card-1001's second burst does not match).
--  * A failed attempt makes its first row unmatched and matching restarts on the next row. So a
--    burst that is too long or too slow from its first small charge can still match from a later
--    one: card-1002 (5 small over 12 minutes) matches from its 3rd small charge, card-1004's last
--    burst (4 small totalling 38.40) from its 2nd.
--  * SMALL+ is greedy, so a match always takes the whole run of small charges from its start.
--  * ONE ROW PER MATCH output columns: the partition columns, then the measures in order.
SELECT *
FROM card_txns
  MATCH_RECOGNIZE (
    PARTITION BY card_id
    ORDER BY ts
    MEASURES
      MATCH_NUMBER()      AS match_no,
      FIRST(SMALL.txn_id) AS first_small_txn,
      FIRST(SMALL.ts)     AS first_small_ts,
      COUNT(SMALL.*)      AS small_count,
      SUM(SMALL.amount)   AS small_total,
      BIG.txn_id          AS big_txn,
      BIG.ts              AS big_ts,
      BIG.amount          AS big_amount,
      BIG.merchant        AS big_merchant
    ONE ROW PER MATCH
    AFTER MATCH SKIP PAST LAST ROW
    PATTERN (SMALL+ BIG)
    DEFINE
      SMALL AS SMALL.amount < 10.00,
      BIG   AS BIG.amount >= 200.00
               AND COUNT(SMALL.*) >= 3
               AND SUM(SMALL.amount) < 30.00
               AND BIG.ts <= FIRST(SMALL.ts) + INTERVAL '10' MINUTE
               AND BIG.ts <= LAST(SMALL.ts) + INTERVAL '5' MINUTE
  ) AS f
ORDER BY card_id, match_no;
