"""EXPLAIN ANALYZE on a session: run the query, then each clause once more through its analysis
function (``sparkcep.runtime.analyze``; ``analyze_uncertain`` for an UNCERTAIN TIME clause), and
merge the partitions' reports (``sparkcep.compiler.explain_analyze``, ``explain_analyze_uncertain``).
Only this path registers the analysis functions; a
normal query never runs them."""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass

from sparkcep.compiler import explain_analyze as ea
from sparkcep.errors import AnalysisError, SparkCepError


@dataclass
class AnalyzeResult:
    """The report: ``rows`` (``explain_analyze.COLUMNS``), ``clauses`` (for the picture)."""

    rows: list
    clauses: list

    def text(self) -> str:
        return ea.report_text(self.rows)

    def dot(self) -> str:
        return ea.analyzed_dot(self.clauses)


def analyze_statement(spark, text: str, args=None, run_query: bool = True,
                      statement: ea.AnalyzeStatement | None = None) -> AnalyzeResult:
    """EXPLAIN ANALYZE ``text`` on ``spark`` (typed errors for the statement's mistakes), or
    ``statement`` (a query with its partition, ``explain_analyze.statement_for``)."""
    from sparkcep.compiler.explain import _clauses, _title
    from sparkcep.compiler.rewrite import compile_statement
    from sparkcep.compiler.statement_rules import check_statement
    from sparkcep.runtime.registration import typed_plan
    from sparkcep.runtime.spark_errors import restate_for_text
    from sparkcep.runtime.streaming import reads_stream

    if statement is None:
        statement = ea.parse_statement(text)
    query = statement.query
    check_statement(query)
    compiled = compile_statement(query)
    for match in compiled.matches:
        if reads_stream(spark, match, args):
            raise _stream_error(text, match)
    clauses = _clauses(query)
    ea.check_partition(statement, [m.plan.partition_columns for m in compiled.matches])
    run = getattr(spark, "_sparkcep_original_sql", spark.sql)
    started = time.monotonic()
    result_rows = None
    try:
        _register(spark, compiled, args)
        if run_query:
            frame = run(compiled.sql) if args is None else run(compiled.sql, args)
            result_rows = frame.count()
    except SparkCepError:
        raise
    except Exception as error:  # noqa: BLE001 - Spark's own error about the statement
        raise restate_for_text(error, query) from None
    seconds = time.monotonic() - started
    reports = []
    try:
        for number, (clause, match) in enumerate(zip(clauses, compiled.matches), start=1):
            reports.append(_analyze_clause(spark, run, number, _title(number, clause, text),
                                           clause, match, query, statement.partition, args,
                                           typed_plan))
    except SparkCepError:
        raise
    except Exception as error:  # noqa: BLE001 - e.g. a DEFINE failing on a row, on an executor
        raise restate_for_text(error, query) from None
    rows = ea.report_rows(reports, result_rows, seconds, statement.partition)
    return AnalyzeResult(rows, reports)


def _register(spark, compiled, args) -> None:
    """The functions the statement calls (as ``runtime.statement.prepare_statement`` registers
    them for a batch query, unchunked: the analysis reads each clause's partitions whole)."""
    from sparkcep.runtime.registration import register, register_shared

    shared = {name for one in compiled.shared for name in one.branches}
    for match in compiled.matches:
        if match.function_name not in shared:
            register(spark, match, args)
    for one in compiled.shared:
        register_shared(spark, one, compiled.matches, args)


def _stream_error(text: str, match) -> AnalysisError:
    at = text.upper().find("ANALYZE")
    return AnalysisError.at_offset(
        "EXPLAIN_ANALYZE_ON_STREAM",
        "EXPLAIN ANALYZE runs the query once, as a batch query; this MATCH_RECOGNIZE reads a "
        "stream. Possible: EXPLAIN (without ANALYZE) for the plan; EXPLAIN ANALYZE over a batch "
        "read of the same data (spark.read instead of spark.readStream, or a table of it); the "
        "stream's own status (sparkcep stream prints rows in, matches out, state and late rows "
        "per micro-batch)", text, max(at, 0), len("ANALYZE"))


def _analyze_clause(spark, run, number, title, clause, match, query, partition, args, typed_plan):
    from pyspark.sql.functions import arrow_udtf

    from sparkcep.runtime.analyze import REPORT_SCHEMA, analyze_function_class

    plan, _return_type, _schema = typed_plan(spark, match, args)
    # the matches are enumerated (an aggregation pushed down counts them without runs)
    plan = dataclasses.replace(plan, aggregation=None, owned_column=None)
    if plan.uncertain_time is None:
        probes = ea.clause_probes(clause, query)  # the values a miss's DEFINE read
        make_runner = None
        report = ea.new_clause_report(number, title, plan, clause, query)
    else:  # no automaton: a runner and a report of their own (the misses are signatures)
        from sparkcep.compiler.explain_analyze_uncertain import new_uncertain_report
        from sparkcep.runtime.analyze_uncertain import UncertainAnalyzeRunner

        probes = ea.Probes()

        def make_runner():
            return UncertainAnalyzeRunner(plan)

        report = new_uncertain_report(number, title, plan, clause, query)
    name = match.function_name + "_analyze"
    function = arrow_udtf(analyze_function_class(plan, probes, make_runner),
                          returnType=REPORT_SCHEMA)
    spark.udtf.register(name, function)
    sql = ea.analysis_call(name, match, probes, clause, query)
    frame = run(sql) if args is None else run(sql, args)
    for row in frame.toLocalIterator():
        report.add(json.loads(row[0]), partition)
    return report


def report_frame(spark, result: AnalyzeResult):
    """The report's rows as a DataFrame (columns ``explain_analyze.COLUMNS``)."""
    schema = ", ".join(f"{name} {kind}" for name, kind in ea.COLUMNS)
    return spark.createDataFrame(result.rows, schema=schema)


def values_sql(result: AnalyzeResult) -> str:
    """The report as one Spark SQL statement (``SELECT * FROM VALUES ...``) with the report's
    columns: what the parser extension hands Spark for ``EXPLAIN ANALYZE`` (``spark.sql`` with the
    extension, the Thrift server), so every SQL client gets the rows."""
    def literal(value, kind: str) -> str:
        if value is None:
            return f"CAST(NULL AS {kind})"
        if kind == "STRING":
            text = str(value).replace("\\", "\\\\").replace("'", "\\'")
            return f"'{text}'"
        return f"CAST({int(value)} AS {kind})"

    kinds = [kind for _name, kind in ea.COLUMNS]
    names = ", ".join(f"`{name}`" for name, _kind in ea.COLUMNS)
    rows = [f"({', '.join(literal(v, k) for v, k in zip(row, kinds))})" for row in result.rows]
    return f"SELECT * FROM VALUES {', '.join(rows)} AS t({names})"
