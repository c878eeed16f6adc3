-- Scan & Go shop: items that left the store and were not paid within 15 minutes of the pick.
-- Each item's RFID tag is read when it is picked from a shelf (PICK), by ceiling antennas
-- ('seen', skipped), at the exit gate (GONE), and the app logs the item's payment (PAID), which
-- may arrive a few minutes after the customer walked out. An item is flagged when it was picked,
-- left through a gate with no payment in between, and no payment follows within the window.
--
-- Features: trailing negation `!PAID` at the end of the PATTERN (docs/semantics.md, "Trailing
-- negation") next to a negation between components; SKIP TILL NEXT MATCH (the ceiling reads
-- between the pick and the exit are skipped; a run takes the first exit after its pick); WITHIN.
--  * The window is the match's: from the PICK row, strict (< 15 minutes). A payment 15 minutes
--    or more after the pick is outside it: tag_03 (paid 16 min after the pick) and tag_04 (paid
--    exactly 15 min after) are flagged; tag_01 (paid 3.5 min after leaving) and the first
--    purchase of tag_08 (paid 4:59 after the pick) are not.
--  * tag_05 was paid before it left: `PICK !PAID GONE` has no match (the middle negation).
--  * tag_06 left 16 minutes after its pick: no match of PICK GONE within the window at all.
--  * tag_07 was picked twice (put back, picked again): a run starts at every pick, both take the
--    same exit: two matches. Every match here is decided at the end of its partition (no later
--    read of its tag lies beyond its window), so both complete together and are numbered by
--    their first row.
--  * tag_02 was never paid; tag_08 was bought, then picked again and taken out unpaid.
SELECT *
FROM rfid_reads MATCH_RECOGNIZE (
  PARTITION BY item_tag
  ORDER BY ts
  MEASURES MATCH_NUMBER() AS match_no,
           PICK.location AS shelf,
           PICK.ts AS pick_ts,
           GONE.location AS gate,
           GONE.ts AS exit_ts
  ONE ROW PER MATCH
  SKIP TILL NEXT MATCH
  PATTERN (PICK !PAID GONE !PAID) WITHIN INTERVAL '15' MINUTE
  DEFINE PICK AS PICK.event = 'pick',
         GONE AS GONE.event = 'exit',
         PAID AS PAID.event = 'paid'
)
ORDER BY item_tag, pick_ts;
