SELECT * FROM hadoop_log MATCH_RECOGNIZE (
  PARTITION BY job_id ORDER BY ts
  MEASURES A.ts AS job_start, COUNT(B.*) AS mappers, AVG(B.duration) AS avg_map, C.ts AS job_end
  ONE ROW PER MATCH
  SKIP TILL NEXT MATCH
  PATTERN (A B+ C) WITHIN INTERVAL '1' DAY
  DEFINE A AS A.kind = 'JobStart', B AS B.kind = 'MapEnd', C AS C.kind = 'JobEnd')
