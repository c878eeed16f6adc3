"""Stage 6, matching: the engines that find row pattern matches in one partition, given label ids
and booleans, never SQL (contract, spec, pattern IR; ``standard/`` for SQL:2016 strict contiguity,
``sase/`` for the SASE strategies; ``selection`` picks one).

May import: ``sparkcep.errors`` only (no SQL, no pyspark)."""
