"""Stages 2-4, compilation (pure: no pyspark, no SparkSession): analysis, scoping, lowering,
unrolling, the rewrite that splices Spark SQL into the user's text, chunk SQL, and ``explain``.

May import: ``sparkcep.dialect``, ``sparkcep.plan``, ``sparkcep.engines``, ``sparkcep.errors``."""
