"""sparkcep: SQL:2016 MATCH_RECOGNIZE and complex event processing for Spark SQL.

    import sparkcep
    df = sparkcep.sql(spark, "SELECT * FROM ticks MATCH_RECOGNIZE (...)")
    sparkcep.enable(spark)            # from now on spark.sql(...) accepts the dialect too
    print(sparkcep.transpile(text))   # the Spark SQL it runs

Importing sparkcep does not import pyspark.
"""

from sparkcep.api import disable, enable, sql, transpile
from sparkcep.errors import AnalysisError, MatchRuntimeError, ParseError, SparkCepError

__all__ = [
    "sql",
    "transpile",
    "enable",
    "disable",
    "SparkCepError",
    "ParseError",
    "AnalysisError",
    "MatchRuntimeError",
]
