"""Running one statement of the sparkcep dialect on a session: compile it, register the functions
its clauses call, and hand the Spark SQL to the session's own ``sql``."""

from __future__ import annotations

from sparkcep.compiler.rewrite import compile_statement
from sparkcep.compiler.statement_rules import check_statement
from sparkcep.errors import SparkCepError
from sparkcep.runtime.registration import chunk_options, register, register_shared
from sparkcep.runtime.spark_errors import restate_for_text


def run_statement(spark, text: str, args=None, **kwargs):
    """The DataFrame of ``text`` on ``spark`` (``args``/``kwargs`` as in ``SparkSession.sql``;
    the arguments also bind parameter markers inside a MATCH_RECOGNIZE clause)."""
    check_statement(text)
    compiled = compile_statement(text, chunk_options(spark))
    shared = {name for one in compiled.shared for name in one.branches}
    for match in compiled.matches:
        if match.function_name not in shared:  # a shared branch runs in the shared function
            register(spark, match, args)
    for one in compiled.shared:
        register_shared(spark, one, compiled.matches, args)
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
