"""sparkcep: SQL:2016 MATCH_RECOGNIZE and complex event processing for Spark SQL.

    import sparkcep
    spark = sparkcep.local_session()   # or your own SparkSession
    df = sparkcep.sql(spark, "SELECT * FROM ticks MATCH_RECOGNIZE (...)")
    sparkcep.enable(spark)            # from now on spark.sql(...) accepts the dialect too
    print(sparkcep.transpile(text))   # the Spark SQL it runs
    sparkcep.await_stream(query)      # a streaming query's failure as the typed error

Importing sparkcep does not import pyspark.
"""

from sparkcep.api import (
    await_stream,
    disable,
    enable,
    extension_session,
    local_session,
    query_error,
    sql,
    start_stream,
    transpile,
)
from sparkcep.errors import AnalysisError, MatchRuntimeError, ParseError, SparkCepError

__all__ = [
    "sql",
    "transpile",
    "enable",
    "disable",
    "local_session",
    "extension_session",
    "await_stream",
    "query_error",
    "start_stream",
    "SparkCepError",
    "ParseError",
    "AnalysisError",
    "MatchRuntimeError",
]
