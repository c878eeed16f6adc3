-- ISO/IEC 19075-5 4.3: the row pattern input table is any table primary; its derived column
-- list names the columns that PARTITION BY, ORDER BY, MEASURES and DEFINE refer to.
SELECT * FROM (VALUES (1, 90), (2, 80), (3, 70)) t(id, value) MATCH_RECOGNIZE (
  ORDER BY id
  MEASURES FIRST(A.value) AS first_value, LAST(B.value) AS last_value
  PATTERN (A B+)
  DEFINE B AS B.value < PREV(B.value))
