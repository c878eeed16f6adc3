-- Sessionisation: a session is a maximal run of one user's clicks in which each click follows the
-- previous one by less than 30 minutes. One row per session.
--
-- Standard rules this example relies on (ISO/IEC TR 19075-5:2016, Row Pattern Recognition in SQL):
--  * A has no DEFINE condition (TRUE), so every click that does not continue a session starts one:
--    every input row ends up in exactly one session.
--  * In DEFINE B, B.ts is the candidate row and PREV(B.ts) the row just before it (which may be
--    the A row). The comparison is strict: a gap of exactly 30:00 starts a new session, a gap of
--    29:59 does not (both occur in the data, for u02 and u04).
--  * B* is greedy, so a session extends as far as the gap rule allows.
--  * Unqualified columns in MEASURES (ts, page) refer to all rows of the match, so LAST(ts) is the
--    last click of the session; under ONE ROW PER MATCH RUNNING and FINAL coincide.
--  * ONE ROW PER MATCH output columns: the partition columns, then the measures in order.
SELECT *
FROM clicks
  MATCH_RECOGNIZE (
    PARTITION BY user_id
    ORDER BY ts
    MEASURES
      MATCH_NUMBER() AS session_no,
      A.ts           AS session_start,
      LAST(ts)       AS session_end,
      COUNT(*)       AS events,
      A.page         AS landing_page,
      LAST(page)     AS exit_page,
      SUM(CASE WHEN page = 'purchase' THEN 1 ELSE 0 END) AS purchases
    ONE ROW PER MATCH
    AFTER MATCH SKIP PAST LAST ROW
    PATTERN (A B*)
    DEFINE
      B AS B.ts < PREV(B.ts) + INTERVAL '30' MINUTE
  ) AS s
ORDER BY user_id, session_no;
