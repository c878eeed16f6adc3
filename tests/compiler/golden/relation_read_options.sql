SELECT * FROM lake.ticks WITH ('mergeSchema' = 'true') AS t MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ts
  MEASURES LAST(A.price) AS price
  PATTERN (A)
  DEFINE A AS A.price > 10)
