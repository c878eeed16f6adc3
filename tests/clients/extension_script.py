"""Run the sql_examples through plain ``spark.sql`` on a session with sparkcep's parser extension
(a subprocess of the tests: one SparkContext per process).

    python extension_script.py MASTER OUT.json [--few] [--edges] [--explain-analyze WRONG]
                               [--conf k=v ...]

Writes {"parser": ..., "examples": {stem: [columns, rows]}, "edges": {...},
"explain_analyze": {...}} with rows normalised as in clients_support.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from clients_support import QUERIES, norm_rows, statement  # noqa: E402

UNDEFINED = """SELECT * FROM stock_ticks MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ts
  MEASURES X.price AS p
  PATTERN (A B+) DEFINE B AS price > PREV(price))"""


def edges(spark, jvm) -> dict:
    v_shape = statement(next(q for q in QUERIES if q.stem == "stock_v_shape"))
    out = {}
    plan = spark.sql("EXPLAIN " + v_shape).collect()[0][0]
    out["explain"] = "Physical Plan" in plan and "sparkcep_mr_" in plan
    spark.sql("CREATE OR REPLACE TEMP VIEW v_shapes AS " + v_shape)
    out["view_rows"] = spark.sql("SELECT count(*) FROM v_shapes").collect()[0][0]
    before = jvm.sparkcep.jvm.MatchRecognizeParser.rewriteCalls()
    row = spark.sql("SELECT 'MATCH_RECOGNIZE' AS s /* MATCH_RECOGNIZE */ -- match_recognize").collect()
    out["keyword_in_string"] = [row[0][0], jvm.sparkcep.jvm.MatchRecognizeParser.rewriteCalls() - before]
    out["lower_case"] = len(spark.sql(v_shape.replace("MATCH_RECOGNIZE", "match_recognize")).collect())
    out["cte_count"] = spark.sql(f"WITH m AS ({v_shape}) SELECT count(*) FROM m").collect()[0][0]
    # row pattern recognition in a window (R020): routed by the extension, also in a view
    rally = statement(next(q for q in QUERIES if q.stem == "stock_rally_window"))
    spark.sql("CREATE OR REPLACE TEMP VIEW rallies AS " + rally)
    out["window_view"] = [r[0] for r in spark.sql(
        "SELECT count(*) FROM rallies WHERE up_days IS NOT NULL").collect()]
    out["window_explain"] = "sparkcep_mr_" in spark.sql("EXPLAIN " + rally).collect()[0][0]
    before = jvm.sparkcep.jvm.MatchRecognizeParser.rewriteCalls()
    spark.sql("SELECT 'PATTERN (' AS s, row_number() OVER (ORDER BY 1) AS pattern").collect()
    out["window_words_unrouted"] = jvm.sparkcep.jvm.MatchRecognizeParser.rewriteCalls() - before
    try:
        spark.sql(UNDEFINED)
        out["error"] = None
    except Exception as error:  # pyspark.errors.ParseException
        out["error"] = [type(error).__name__, str(error), error.getCondition(), error.getSqlState()]
    try:
        spark.sql("SELEC 1")
    except Exception as error:
        out["spark_error"] = [type(error).__name__, error.getCondition()]
    # an error raised while matching, on an executor: the typed error, not PythonException
    runtime_error = ("SELECT * FROM (SELECT * FROM VALUES ('a', 1), ('b', 2) AS t(s, ts))\n"
                     "MATCH_RECOGNIZE (\n"
                     "  ORDER BY ts MEASURES COUNT(*) AS n PATTERN (A B)\n"
                     "  DEFINE B AS B.ts / (LAST(A.ts) - LAST(A.ts)) > 0)")
    try:
        spark.sql(runtime_error).collect()
        out["runtime_error"] = None
    except Exception as error:
        out["runtime_error"] = [type(error).__name__, str(error).splitlines()[0]]
    # issue 25: an error Spark raises while it runs the generated SQL over a scan
    spark_runtime_error = ("SELECT * FROM (SELECT id AS ts, CAST(id AS DOUBLE) AS p FROM range(4))\n"
                           "MATCH_RECOGNIZE (\n"
                           "  ORDER BY ts MEASURES COUNT(*) AS n PATTERN (A B)\n"
                           "  DEFINE B AS B.p > 'abc')")
    try:
        spark.sql(spark_runtime_error).collect()
        out["spark_runtime_error"] = None
    except Exception as error:
        out["spark_runtime_error"] = [type(error).__name__, str(error).splitlines()[0]]
    out["dataframe_api"] = [r[0] for r in spark.range(3).selectExpr("id * 2").collect()]
    # UNION ALL of aggregate queries over one input: one shared function, registered by the
    # rewriter; each branch's answer equals the branch run alone
    branch = ("SELECT '{n}' AS q, symbol, COUNT(*) AS c FROM stock_ticks MATCH_RECOGNIZE ("
              "PARTITION BY symbol ORDER BY ts MEASURES A.price AS p SKIP TILL ANY MATCH "
              "PATTERN (A B{n}) DEFINE A AS price < 50, B AS price > A.price) GROUP BY symbol")
    union = " UNION ALL ".join(branch.format(n=n) for n in ("", "+"))
    out["shared"] = sorted(map(list, spark.sql(union).collect()))
    out["shared_alone"] = sorted(list(r) for n in ("", "+") for r in spark.sql(branch.format(n=n)).collect())
    out["shared_plan"] = "sparkcep_shared" in spark.sql("EXPLAIN " + union).collect()[0][0]
    # a clause over a stream: the rewriter registers the stateful operator's view
    import tempfile

    (spark.readStream.schema("k STRING, ts TIMESTAMP, v INT").json(tempfile.mkdtemp())
     .withWatermark("ts", "5 seconds").createOrReplaceTempView("stream_events"))
    streaming = spark.sql(
        "SELECT * FROM stream_events MATCH_RECOGNIZE (PARTITION BY k ORDER BY ts "
        "MEASURES COUNT(*) AS n PATTERN (A B) WITHIN INTERVAL '1' MINUTE DEFINE B AS B.v > A.v)")
    out["stream"] = [streaming.isStreaming, streaming.columns]
    # A hung rewriter: the statement fails after the timeout with our code; later ones work.
    import time

    from sparkcep.clients import extension

    class Slow(extension.Rewriter):
        def rewrite(self, sql, jsession):
            time.sleep(3)
            return super().rewrite(sql, jsession)

    parser_class = jvm.sparkcep.jvm.MatchRecognizeParser
    parser_class.setRewriter(Slow(spark), 500)
    try:
        spark.sql(v_shape)
        out["timeout"] = None
    except Exception as error:
        out["timeout"] = [error.getCondition(), str(error).splitlines()[0]]
    finally:
        parser_class.setRewriter(spark._sparkcep_rewriter, 120_000)
    out["after_timeout_rows"] = len(spark.sql(v_shape).collect())
    # Every ParserInterface method (abstract or default) must be ours: a method Spark adds later
    # would otherwise skip the delegate (AbstractMethodError, or a lost SparkSqlParser override).
    ours = spark._jsparkSession.sessionState().sqlParser().getClass()
    interface = jvm.java.lang.Class.forName("org.apache.spark.sql.catalyst.parser.ParserInterface")
    out["not_overridden"] = sorted(
        m.getName() for m in interface.getMethods()
        if not jvm.java.lang.reflect.Modifier.isStatic(m.getModifiers())
        and not ours.getMethod(m.getName(), m.getParameterTypes()).getDeclaringClass().equals(ours)
    )
    return out


def explain_analyze(spark, wrong: str) -> dict:
    """EXPLAIN ANALYZE through plain ``spark.sql``: the report's columns and rows over a small
    view, and the error that ``wrong`` (a mistaken EXPLAIN ANALYZE statement) raises."""
    spark.createDataFrame([("a", i, p) for i, p in enumerate([10, 11, 12, 13, 9, 14])],
                          "s STRING, k INT, price INT").createOrReplaceTempView("prices")
    frame = spark.sql("""EXPLAIN ANALYZE SELECT * FROM prices MATCH_RECOGNIZE (
      PARTITION BY s ORDER BY k MEASURES COUNT(*) AS n
      PATTERN (S UP+ TOP) DEFINE UP AS UP.price > PREV(UP.price), TOP AS TOP.price > 100)""")
    out = {"columns": frame.columns, "rows": [list(r) for r in frame.collect()], "error": None}
    try:
        spark.sql(wrong)
    except Exception as error:  # pyspark.errors.ParseException
        out["error"] = [type(error).__name__, str(error).splitlines()[0]]
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("master")
    parser.add_argument("out")
    parser.add_argument("--few", action="store_true")
    parser.add_argument("--edges", action="store_true")
    parser.add_argument("--explain-analyze", metavar="WRONG")
    parser.add_argument("--conf", action="append", default=[])
    args = parser.parse_args()

    from test_sql_examples import register_example_tables

    from sparkcep.clients.session import extension_session

    conf = dict(item.split("=", 1) for item in args.conf)
    spark = extension_session(args.master, "sparkcep-extension-test", conf)
    jvm = spark.sparkContext._jvm
    result = {"parser": spark._jsparkSession.sessionState().sqlParser().getClass().getName()}
    register_example_tables(spark)
    queries = [q for q in QUERIES if q.stem in {"stock_v_shape", "click_sessions", "stock_rally_window"}] if args.few else QUERIES
    result["examples"] = {}
    for query in queries:
        frame = spark.sql(query.read_text())  # the file as written, trailing semicolon included
        result["examples"][query.stem] = [frame.columns, norm_rows(frame.collect())]
    if args.explain_analyze is not None:
        result["explain_analyze"] = explain_analyze(spark, args.explain_analyze)
    if args.edges:
        result["edges"] = edges(spark, jvm)
    result["rewrite_calls"] = jvm.sparkcep.jvm.MatchRecognizeParser.rewriteCalls()
    Path(args.out).write_text(json.dumps(result))
    spark.stop()


if __name__ == "__main__":
    main()
