"""Stage 5 and the executor side: registering a compiled clause as a Spark Arrow UDTF, running a
statement, Spark's errors restated as the user's (``spark_errors``), and the partition runner
that feeds an engine and assembles output batches.

May import: ``sparkcep.compiler``, ``sparkcep.evaluation``, ``sparkcep.plan``, ``sparkcep.engines``,
``sparkcep.errors``, pyspark."""
