-- Session statistics per subscription plan: sessionise the clickstream (as in click_sessions.sql),
-- join the sessions to the users table and aggregate. Shows that a MATCH_RECOGNIZE result is an
-- ordinary relation: it can be aliased, joined, grouped and ordered like any other.
--
-- Standard rules this example relies on (ISO/IEC TR 19075-5:2016, Row Pattern Recognition in SQL):
--  * The MATCH_RECOGNIZE output here has the partition column user_id followed by the measures;
--    the input columns ts and page are not visible outside it (ONE ROW PER MATCH).
--  * Sessions follow click_sessions.sql: gap < 30 minutes, every click in exactly one session.
--  * The inner join drops users without clicks (u06).
-- Session durations are computed with unix_timestamp, so they do not depend on the session time
-- zone as long as it has no DST change on these dates (the README says: run with UTC).
SELECT u.plan,
       COUNT(*)                  AS sessions,
       COUNT(DISTINCT s.user_id) AS users,
       SUM(s.events)             AS events,
       AVG(s.events)             AS avg_events_per_session,
       MAX(unix_timestamp(s.session_end) - unix_timestamp(s.session_start)) AS longest_session_s,
       SUM(s.purchases)          AS purchases
FROM clicks
  MATCH_RECOGNIZE (
    PARTITION BY user_id
    ORDER BY ts
    MEASURES
      A.ts       AS session_start,
      LAST(ts)   AS session_end,
      COUNT(*)   AS events,
      SUM(CASE WHEN page = 'purchase' THEN 1 ELSE 0 END) AS purchases
    ONE ROW PER MATCH
    AFTER MATCH SKIP PAST LAST ROW
    PATTERN (A B*)
    DEFINE
      B AS B.ts < PREV(B.ts) + INTERVAL '30' MINUTE
  ) AS s
  JOIN users AS u
    ON u.user_id = s.user_id
GROUP BY u.plan
ORDER BY u.plan;
