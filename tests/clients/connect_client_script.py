"""A Spark Connect client session against ``sparkcep serve --connect``, run as a script file by
tests/clients/test_connect_server.py with any client Python: the project's pyspark
(``SparkSession.builder.remote``) or the thin ``pyspark-client`` from its own environment. (The
thin client must run from a file: imported from ``python -c`` it takes the run for a doctest and
exits.)

``python connect_client_script.py sc://HOST:PORT PRICES [TABLE]`` registers its own temp view ``events``
(symbol 'A', t = 1, 2, ... with the comma-separated PRICES), matches V shapes over it in
``spark.sql``, in a temp view and through ``spark.table``, runs EXPLAIN, a wrong statement and a
plain one, counts the rows of the server's TABLE (``--table``), and prints what it saw as one JSON
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
    out["plain"] = rows(spark.sql("SELECT count(*) FROM events WHERE symbol = 'MATCH_RECOGNIZE'"))
    if table:
        out["table_rows"] = spark.table(table).count()
    spark.stop()
    print(json.dumps(out))


if __name__ == "__main__":
    main(*sys.argv[1:])
