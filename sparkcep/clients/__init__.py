"""How users reach sparkcep: local sessions, the Spark SQL parser extension (``jvm/``, ``jars/``),
the Thrift server, the command line and its progress display.

May import: ``sparkcep.runtime``, ``sparkcep.compiler``, ``sparkcep.errors``, pyspark, click."""
