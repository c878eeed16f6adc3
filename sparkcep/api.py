"""The public entry points: ``sql``, ``transpile``, ``enable``."""

from __future__ import annotations

from sparkcep.rewrite import compile_statement


def transpile(text: str) -> str:
    """The Spark SQL sparkcep runs for ``text`` (pure: no SparkSession needed).

    The functions it calls are registered by :func:`sql`; a statement without MATCH_RECOGNIZE
    comes back unchanged."""
    return compile_statement(text).sql


def sql(spark, text: str, args=None, **kwargs):
    """Run one statement of the sparkcep dialect on ``spark`` and return its DataFrame."""
    from sparkcep.runtime import chunk_options, register

    compiled = compile_statement(text, chunk_options(spark))
    for match in compiled.matches:
        register(spark, match)
    run = getattr(spark, "_sparkcep_original_sql", spark.sql)
    if args is None and not kwargs:
        return run(compiled.sql)
    return run(compiled.sql, args, **kwargs)


def enable(spark) -> None:
    """Make ``spark.sql(text)`` itself accept the sparkcep dialect on this session.

    With the parser extension loaded (``sparkcep.session.extension_session``) this installs the
    rewriter in the JVM, so every SQL entry point of the session accepts the dialect; otherwise
    it logs why and wraps ``spark.sql`` in Python."""
    if getattr(spark, "_sparkcep_original_sql", None) is not None:
        return
    from sparkcep import extension

    if extension.install(spark):
        return
    extension.log.warning(
        "sparkcep: the parser extension is not loaded in this session (it must be configured "
        "when the session starts: sparkcep.session.extension_session(), or spark.jars=%s and "
        "spark.sql.extensions=%s); wrapping spark.sql in Python instead, so MATCH_RECOGNIZE "
        "works in spark.sql() of this session only, not over JDBC/Thrift",
        extension.jar_path(), extension.EXTENSIONS_CLASS,
    )
    original = spark.sql
    spark._sparkcep_original_sql = original

    def sql_with_match_recognize(sqlQuery, args=None, **kwargs):
        return sql(spark, sqlQuery, args, **kwargs)

    spark.sql = sql_with_match_recognize


def disable(spark) -> None:
    """Undo :func:`enable`."""
    from sparkcep import extension

    extension.uninstall(spark)
    original = getattr(spark, "_sparkcep_original_sql", None)
    if original is not None:
        spark.sql = original
        del spark._sparkcep_original_sql
