"""The public entry points: ``sql``, ``transpile``, ``enable``/``disable`` and the two ways to start
a local session. ``transpile`` is pure; the others import pyspark when called."""

from __future__ import annotations

from sparkcep.compiler.rewrite import compile_statement


def transpile(text: str) -> str:
    """The Spark SQL sparkcep runs for ``text`` (pure: no SparkSession needed).

    The functions it calls are registered by :func:`sql`; a statement without MATCH_RECOGNIZE
    comes back unchanged."""
    return compile_statement(text).sql


def sql(spark, text: str, args=None, **kwargs):
    """Run one statement of the sparkcep dialect on ``spark`` and return its DataFrame."""
    from sparkcep.runtime.statement import run_statement

    return run_statement(spark, text, args, **kwargs)


def start_stream(spark, text: str, *, checkpoint: str, late_rows: str, output: str | None = None,
                 output_format: str = "parquet", on_matches=None, on_late_rows=None,
                 available_now: bool = False, processing_time: str | None = None, args=None):
    """Start ``text``, a statement whose MATCH_RECOGNIZE reads a stream, with its late rows routed
    to ``late_rows`` instead of dropped: one streaming query writes the matches to ``output`` (or
    hands each micro-batch's to ``on_matches``) and every late row, whole, to ``late_rows``, each
    exactly once. Each is a folder (a path; one folder ``micro_batch=<id>`` per micro-batch) or a
    table name (partitioned by ``micro_batch``, created if missing) (docs/streaming.md, "Routing
    late rows"); ``on_late_rows`` is given each micro-batch's number
    of late rows. The trigger: ``available_now=True`` (what is there now, then stop), a
    ``processing_time`` such as ``"10 seconds"``, or Spark's default. The started
    ``StreamingQuery``."""
    from sparkcep.runtime.stream_writer import start_stream as start

    return start(spark, text, checkpoint=checkpoint, late_rows=late_rows, output=output,
                 output_format=output_format, on_matches=on_matches, on_late_rows=on_late_rows,
                 available_now=available_now, processing_time=processing_time, args=args)


def query_error(failure, sql: str | None = None):
    """The typed :class:`~sparkcep.errors.SparkCepError` a failed streaming query stopped with,
    or None when it has not failed.

    ``failure`` is a ``StreamingQuery`` (its ``exception()``) or an exception PySpark raised for
    one (``StreamingQueryException``); ``sql`` the statement, for the position of an error that
    has none of its own. The error raised on an executor (``MATCH_BUDGET_EXCEEDED``,
    ``INVALID_UNCERTAIN_INTERVAL``, ...) comes back as itself; any other failure as
    ``STREAM_FAILED`` with its cause on the first line (docs/streaming.md, "Errors")."""
    from sparkcep.runtime.spark_errors import stream_failure

    if hasattr(failure, "exception") and callable(failure.exception):
        failure = failure.exception()
    return None if failure is None else stream_failure(failure, sql)


def await_stream(query, timeout: float | None = None, sql: str | None = None):
    """``query.awaitTermination(timeout)``, raising the typed error (:func:`query_error`) when
    the query stopped with one instead of Spark's ``StreamingQueryException``."""
    try:
        return query.awaitTermination() if timeout is None else query.awaitTermination(timeout)
    except Exception as failure:  # noqa: BLE001 - restated as the typed error
        raise query_error(failure, sql) from None


def enable(spark) -> None:
    """Make ``spark.sql(text)`` itself accept the sparkcep dialect on this session: through the
    parser extension when the session has it (every SQL entry point, JDBC/Thrift included),
    else by wrapping ``spark.sql`` in Python (logged)."""
    from sparkcep.clients import extension

    extension.enable(spark)


def disable(spark) -> None:
    """Undo :func:`enable`."""
    from sparkcep.clients import extension

    extension.disable(spark)


def local_session(master: str = "local[2]", app_name: str = "sparkcep", streaming: bool = False,
                  **conf):
    """A local SparkSession with sparkcep's recommended settings (checks for Java 17+ first);
    ``streaming=True`` for a session that runs streams: its JVM compiles with the quick JIT
    compiler only, which halves a micro-batch's time, and a local checkpoint is written without
    checksum files (docs/streaming.md, "Latency")."""
    from sparkcep.clients.session import local_session as start

    return start(master, app_name, streaming, **conf)


def extension_session(master: str = "local[2]", app_name: str = "sparkcep", conf: dict | None = None):
    """A local SparkSession with the parser extension loaded and enabled: ``spark.sql`` accepts
    MATCH_RECOGNIZE."""
    from sparkcep.clients.session import extension_session as start

    return start(master, app_name, conf)
