"""A Spark Connect client session against ``sparkcep serve --connect``, run as a script file by
tests/clients/test_connect_server.py with any client Python: the project's pyspark
(``SparkSession.builder.remote``) or the thin ``pyspark-client`` from its own environment. (The
thin client must run from a file: imported from ``python -c`` it takes the run for a doctest and
exits.)

``python connect_client_script.py sc://HOST:PORT PRICES [TABLE]`` registers its own temp view ``events``
(symbol 'A', t = 1, 2, ... with the comma-separated PRICES), matches V shapes over it in
``spark.sql``, in a temp view and through ``spark.table``, runs EXPLAIN, a wrong statement, four
that fail while they run (``RUN_TIME``) and a plain one, counts the rows of the server's TABLE (``--table``), and prints what it saw as one JSON
object."""

from __future__ import annotations

import json
import sys

from pyspark.sql import SparkSession

QUERY = """SELECT * FROM events MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY t
  MEASURES FIRST(DOWN.price) AS first_down, LAST(UP.price) AS up, MATCH_NUMBER() AS m
  ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
  PATTERN (DOWN+ UP)
  DEFINE DOWN AS DOWN.price < PREV(DOWN.price), UP AS UP.price > PREV(UP.price))"""

#: MEASURES names a variable the PATTERN does not have: line 3, column 12 of this text
WRONG = """SELECT * FROM events MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY t
  MEASURES X.price AS p
  PATTERN (DOWN+) DEFINE DOWN AS DOWN.price < PREV(DOWN.price))"""


#: rows Spark reads with a scan (a range is not folded at analysis, unlike VALUES), so the errors
#: below are raised while the query runs
SCANNED = ("CREATE OR REPLACE TEMP VIEW scanned AS SELECT 'a' AS sym, "
           "timestamp_seconds(id * 60) AS ts, CAST(id AS DOUBLE) AS price, "
           "CAST(id + 2147483600 AS INT) AS volume FROM range(0, 40, 1, 2)")

#: errors raised while a query runs, each about the DEFINE at line 5, column 15: Spark's (a DEFINE
#: Spark evaluates over the rows it scans) and sparkcep's own (the matcher, on an executor)
RUN_TIME = {
    "cast": "B AS B.price > 'abc'",
    "division": "B AS B.price / (B.price - B.price) > 0",
    "overflow": "B AS B.volume + 100 > 0",
    "executor": "B AS B.price / (LAST(A.price) - LAST(A.price)) > 0",
}


def run_time_statement(define: str) -> str:
    return ("SELECT * FROM scanned MATCH_RECOGNIZE (\n"
            "  ORDER BY ts\n"
            "  MEASURES COUNT(*) AS n\n"
            "  PATTERN (A B)\n"
            f"  DEFINE {define})")


def rows(frame) -> list[list]:
    return [list(row) for row in frame.collect()]


def main(url: str, prices: str, table: str | None = None) -> None:
    spark = SparkSession.builder.remote(url).getOrCreate()
    values = [float(p) for p in prices.split(",")]
    spark.createDataFrame(
        [("A", t, p) for t, p in enumerate(values, start=1)], "symbol STRING, t INT, price DOUBLE"
    ).createOrReplaceTempView("events")
    out: dict = {"server_version": spark.version}
    frame = spark.sql(QUERY)
    out["schema"] = [[f.name, f.dataType.simpleString()] for f in frame.schema.fields]
    out["rows"] = rows(frame)
    spark.sql("CREATE OR REPLACE TEMP VIEW v_shapes AS " + QUERY)
    out["view_rows"] = rows(spark.table("v_shapes"))
    out["explain"] = rows(spark.sql("EXPLAIN " + QUERY))[0][0]
    try:
        spark.sql(WRONG).collect()
        out["error"] = None
    except Exception as error:  # the client's own exception class, as a user sees it
        out["error"] = {"class": type(error).__name__, "text": str(error)}
    spark.sql(SCANNED)
    out["run_time_errors"] = {}
    for name, define in RUN_TIME.items():
        try:
            spark.sql(run_time_statement(define)).collect()
            out["run_time_errors"][name] = None
        except Exception as error:
            condition = getattr(error, "getCondition", lambda: None)()
            out["run_time_errors"][name] = {"class": type(error).__name__, "text": str(error),
                                            "condition": condition}
    try:  # the same error in a statement without MATCH_RECOGNIZE stays Spark's
        spark.sql("SELECT price / (price - price) FROM scanned").collect()
        out["plain_run_time_error"] = None
    except Exception as error:
        out["plain_run_time_error"] = {"class": type(error).__name__, "text": str(error)}
    out["plain"] = rows(spark.sql("SELECT count(*) FROM events WHERE symbol = 'MATCH_RECOGNIZE'"))
    if table:
        out["table_rows"] = spark.table(table).count()
    spark.stop()
    print(json.dumps(out))


if __name__ == "__main__":
    main(*sys.argv[1:])
