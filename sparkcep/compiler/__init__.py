"""Stages 2-4, compilation (pure: no pyspark, no SparkSession): analysis, scoping, lowering,
unrolling, the rewrite that splices Spark SQL into the user's text, chunk SQL, ``explain``, the
statement rules around a clause (``statement_rules``) and the tables a statement reads
(``references``).

May import: ``sparkcep.dialect``, ``sparkcep.plan``, ``sparkcep.engines``, ``sparkcep.errors``."""
