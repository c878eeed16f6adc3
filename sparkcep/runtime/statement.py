"""Running one statement of the sparkcep dialect on a session: compile it, register the functions
its clauses call (or, over a stream, the stateful operator's view), and hand the Spark SQL to
the session's own ``sql``."""

from __future__ import annotations

from sparkcep.compiler.explain_analyze import is_explain_analyze
from sparkcep.compiler.rewrite import compile_statement
from sparkcep.compiler.statement_rules import check_statement
from sparkcep.errors import SparkCepError
from sparkcep.runtime.registration import chunk_options, register, register_shared
from sparkcep.runtime.spark_errors import remember, restate_for_text
from sparkcep.runtime.streaming import reads_stream, register_stream


def prepare_statement(spark, compile, text: str, args=None):
    """Compile ``text`` (with ``compile(text, chunking, streaming=...)``) and register what its
    clauses need on ``spark``: a table function per clause (one for the branches of a shared
    pass, ``sparkcep.compiler.shared_pass``), or, when a clause reads a stream, the
    stateful operator's view (``sparkcep.runtime.streaming``). The compiled statement."""
    compiled = compile(text, chunk_options(spark))
    if any(reads_stream(spark, match, args) for match in compiled.matches):
        compiled = compile(text, None, streaming=True)
        for match in compiled.matches:
            register_stream(spark, match, args)
        return compiled
    shared = {name for one in compiled.shared for name in one.branches}
    for match in compiled.matches:
        if match.function_name not in shared:  # a shared branch runs in the shared function
            register(spark, match, args)
    for one in compiled.shared:
        register_shared(spark, one, compiled.matches, args)
    if compiled.matches:  # Spark's errors while it runs are restated against text
        remember(compiled.sql, text)
    return compiled


def run_statement(spark, text: str, args=None, **kwargs):
    """The DataFrame of ``text`` on ``spark`` (``args``/``kwargs`` as in ``SparkSession.sql``;
    the arguments also bind parameter markers inside a MATCH_RECOGNIZE clause)."""
    if is_explain_analyze(text):  # EXPLAIN ANALYZE: the report's rows (docs/explain.md)
        from sparkcep.runtime.explain_analyze import analyze_statement, report_frame

        return report_frame(spark, analyze_statement(spark, text, args))
    check_statement(text)
    compiled = prepare_statement(spark, compile_statement, text, args)
    run = getattr(spark, "_sparkcep_original_sql", spark.sql)
    try:
        if args is None and not kwargs:
            return run(compiled.sql)
        return run(compiled.sql, args, **kwargs)
    except SparkCepError:
        raise
    except Exception as error:  # Spark's analysis of the generated statement
        if not compiled.matches:
            raise  # not sparkcep's statement: Spark's error as it is
        raise restate_for_text(error, text) from None
