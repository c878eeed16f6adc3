/* keep me */ SELECT m.symbol, m.bottom, c.name, nvl(m.top, 0) AS top_or_zero
FROM ticks MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ts
  MEASURES FIRST(DOWN.price) AS top, LAST(DOWN.price) AS bottom, LAST(UP.price) - FIRST(DOWN.price) AS gain
  AFTER MATCH SKIP TO LAST UP
  PATTERN (DOWN{2,} UP+?)
  DEFINE DOWN AS DOWN.price < PREV(DOWN.price), UP AS UP.price > PREV(UP.price) AND UP.price > LAST(DOWN.price) * 1.01
) AS m JOIN companies c ON m.symbol = c.symbol
WHERE c.name != 'x'   -- trailing comment
