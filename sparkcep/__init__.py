"""sparkcep: SQL:2016 MATCH_RECOGNIZE and complex event processing for Spark SQL.

    import sparkcep
    spark = sparkcep.local_session()   # or your own SparkSession
    df = sparkcep.sql(spark, "SELECT * FROM ticks MATCH_RECOGNIZE (...)")
    sparkcep.enable(spark)            # from now on spark.sql(...) accepts the dialect too
    print(sparkcep.transpile(text))   # the Spark SQL it runs

Importing sparkcep does not import pyspark.
"""

from sparkcep.api import disable, enable, extension_session, local_session, sql, transpile
from sparkcep.errors import AnalysisError, MatchRuntimeError, ParseError, SparkCepError

__all__ = [
    "sql",
    "transpile",
    "enable",
    "disable",
    "local_session",
    "extension_session",
    "SparkCepError",
    "ParseError",
    "AnalysisError",
    "MatchRuntimeError",
]
