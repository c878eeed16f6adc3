-- Rally starting today (row pattern recognition in a window, SQL:2016 feature R020): every
-- trading day of every symbol, with the rising run that starts on it within the next 4 trading
-- days: how many higher closes follow, the close it peaks at, and aggregates over the run's rows.
--
-- Standard rules this example relies on (ISO/IEC 9075-2:2016, 7.11 <window clause>, and
-- ISO/IEC TR 19075-5:2016, Row Pattern Recognition in SQL, clause 6):
--  * Every input row is output, once (unlike MATCH_RECOGNIZE's ONE ROW PER MATCH).
--  * A row's frame is ROWS BETWEEN CURRENT ROW AND 4 FOLLOWING: the match, if any, lies in it, so
--    a run is cut after 4 higher closes even when the prices keep rising.
--  * INITIAL: the match must start at the current row (STRT, no DEFINE, so any row).
--  * AFTER MATCH SKIP PAST LAST ROW: the rows inside a run found for an earlier row get no match
--    of their own: NULL measures and an empty frame (COUNT(*) OVER w = 0, AVG NULL), as do rows
--    where no higher close follows.
--  * PREV never reads before the frame; here UP's PREV reads the previous row of the run.
--  * The plain window (row_number) sees every row, as without pattern recognition.
SELECT symbol, ts, price,
       up_days OVER w     AS up_days,
       peak OVER w        AS peak_price,
       count(*) OVER w    AS run_rows,
       avg(price) OVER w  AS run_avg_price,
       row_number() OVER (PARTITION BY symbol ORDER BY ts) AS day_no
FROM stock_ticks
WINDOW w AS (
  PARTITION BY symbol
  ORDER BY ts
  MEASURES COUNT(UP.*) AS up_days, LAST(UP.price) AS peak
  ROWS BETWEEN CURRENT ROW AND 4 FOLLOWING
  AFTER MATCH SKIP PAST LAST ROW
  INITIAL
  PATTERN (STRT UP+)
  DEFINE UP AS UP.price > PREV(UP.price))
ORDER BY symbol, ts;
