"""The Spark SQL parser extension: MATCH_RECOGNIZE in ``spark.sql``, the Thrift server and any
other SQL entry point of a session, through one rewrite path.

The JVM half (``sparkcep/clients/jvm/*.java``, shipped as ``sparkcep/clients/jars/sparkcep-extension.jar``) wraps
each session's parser: a statement with the MATCH_RECOGNIZE keyword (outside strings and comments)
is handed over Py4J to :class:`Rewriter` below, which compiles it, registers its functions on the
session being parsed for, and returns the Spark SQL to parse instead. Everything else goes to
Spark's parser untouched. User errors travel back as a marked string and become a
``ParseException`` whose message is sparkcep's ``[CODE] message (line L, column C)``.

The extension is a static Spark setting: it must be configured when the session's JVM starts
(:func:`spark_conf`, :func:`session`). :func:`install` then starts the Py4J callback server and
hands the rewriter to the JVM; ``sparkcep.enable`` calls it and falls back to wrapping
``spark.sql`` when the extension is not loaded.
"""

from __future__ import annotations

import logging
import re
import threading
import traceback
from collections import OrderedDict
from pathlib import Path

from sparkcep.errors import ParseError, SparkCepError

log = logging.getLogger("sparkcep.clients.extension")

JAR = Path(__file__).resolve().parent / "jars" / "sparkcep-extension.jar"
EXTENSIONS_CLASS = "sparkcep.jvm.MatchRecognizeExtensions"
PARSER_CLASS = "sparkcep.jvm.MatchRecognizeParser"
ERROR_MARKER = "\x00sparkcep-error\x00"
#: Spark conf (read by :func:`install`): how long a statement may wait for its rewrite.
TIMEOUT_CONF = "spark.sparkcep.rewriteTimeout"
DEFAULT_TIMEOUT_SECONDS = 120.0

_ROW_PATTERN = re.compile(r"\b(?:MATCH_RECOGNIZE|PATTERN)\b", re.IGNORECASE)
_ANALYZE = re.compile(r"\s*EXPLAIN\s+ANALYZE\b", re.IGNORECASE)
_EXPLAIN = re.compile(r"\s*EXPLAIN(?:\s+(?:EXTENDED|CODEGEN|COST|FORMATTED))?\s", re.IGNORECASE)


def jar_path() -> str:
    """The extension jar (for ``spark.jars`` / ``--jars``)."""
    return str(JAR)


def spark_conf(existing: dict | None = None) -> dict[str, str]:
    """The settings that load the extension, merged into ``existing`` (``spark.jars`` and
    ``spark.sql.extensions`` are comma-separated lists, so other entries are kept)."""
    conf = dict(existing or {})

    def append(key: str, value: str) -> None:
        items = [v for v in str(conf.get(key, "")).split(",") if v.strip()]
        if value not in items:
            items.append(value)
        conf[key] = ",".join(items)

    append("spark.jars", jar_path())
    append("spark.sql.extensions", EXTENSIONS_CLASS)
    return conf


def enable(spark) -> None:
    """Make ``spark.sql(text)`` itself accept the sparkcep dialect on this session.

    With the parser extension loaded (``clients.session.extension_session``) this installs the
    rewriter in the JVM, so every SQL entry point of the session accepts the dialect; otherwise
    it wraps ``spark.sql`` in Python and says so in one line at INFO level."""
    if getattr(spark, "_sparkcep_original_sql", None) is not None:
        return
    if install(spark):
        return
    # the documented path for a notebook or job (README): said once, briefly, at INFO
    log.info("sparkcep: spark.sql accepts MATCH_RECOGNIZE in this session (wrapped in Python; "
             "the parser extension is not loaded, so JDBC/Thrift clients do not get it: "
             "sparkcep.extension_session(), docs/clients.md)")
    from sparkcep.runtime.statement import run_statement

    spark._sparkcep_original_sql = spark.sql

    def sql_with_match_recognize(sqlQuery, args=None, **kwargs):
        return run_statement(spark, sqlQuery, args, **kwargs)

    spark.sql = sql_with_match_recognize


def disable(spark) -> None:
    """Undo :func:`enable`."""
    uninstall(spark)
    original = getattr(spark, "_sparkcep_original_sql", None)
    if original is not None:
        spark.sql = original
        del spark._sparkcep_original_sql


def is_loaded(spark) -> bool:
    """Whether ``spark``'s SQL parser is sparkcep's (the extension was configured at start-up)."""
    from py4j.protocol import Py4JError

    session = getattr(spark, "_jsparkSession", None)
    if session is None:  # Spark Connect: no JVM session in this process
        return False
    try:
        parser = session.sessionState().sqlParser()
        return parser.getClass().getName() == PARSER_CLASS
    except Py4JError:  # the JVM is gone or unreachable
        return False


def install(spark, timeout: float | None = None) -> bool:
    """Hand the rewriter to the JVM if ``spark`` has the extension; False (nothing done) otherwise.

    One rewriter serves every session of the JVM (Thrift connections included): it registers a
    statement's functions on the session the statement is parsed for."""
    if not is_loaded(spark):
        return False
    from pyspark.java_gateway import ensure_callback_server_started

    gateway = spark.sparkContext._gateway
    # Thrift handler threads (any JVM thread Python did not start) call back through this server.
    ensure_callback_server_started(gateway)
    if timeout is None:
        timeout = float(spark.conf.get(TIMEOUT_CONF, str(DEFAULT_TIMEOUT_SECONDS)).rstrip("s"))
    rewriter = Rewriter(spark)
    gateway.jvm.sparkcep.jvm.MatchRecognizeParser.setRewriter(rewriter, int(timeout * 1000))
    spark._sparkcep_rewriter = rewriter
    return True


def uninstall(spark) -> None:
    """Take the rewriter out of the JVM (MATCH_RECOGNIZE then fails with a clear error there).

    The Py4J callback server is left running on purpose: shutting it down while the JVM holds
    callback connections deadlocks in py4j."""
    if getattr(spark, "_sparkcep_rewriter", None) is None:
        return
    from py4j.protocol import Py4JError

    try:
        spark.sparkContext._gateway.jvm.sparkcep.jvm.MatchRecognizeParser.setRewriter(None, 0)
    except Py4JError:  # the JVM is already gone
        pass
    spark._sparkcep_rewriter = None


def rewrite_statement(text: str, chunking=None, streaming: bool = False):
    """Compile one whole statement as the parser receives it: ``EXPLAIN`` around a query is
    handled here (error positions stay those of ``text``). Returns a ``CompiledStatement``.
    ``chunking``: ``compiler.rewrite.ChunkOptions`` (default: no chunking); ``streaming``: the
    statement reads a stream (``compiler.rewrite.compile_statement``)."""
    from sparkcep.compiler.rewrite import CompiledStatement, compile_statement
    from sparkcep.compiler.statement_rules import check_statement

    check_statement(text)
    explain = _EXPLAIN.match(text)
    if explain is None:
        return compile_statement(text, chunking, streaming)
    prefix = text[: explain.end()]
    blanked = re.sub(r"[^\n]", " ", prefix) + text[explain.end():]
    compiled = compile_statement(blanked, chunking, streaming)
    return CompiledStatement(prefix + compiled.sql[len(prefix):], compiled.matches)


def error_reply(error: Exception, state: str | None = None) -> str:
    """The string the JVM turns into a ``MatchRecognizeParseException`` (or, from
    :meth:`Rewriter.restate`, a Thrift client's run-time error; ``state``: its SQLSTATE)."""
    if isinstance(error, SparkCepError):
        code = error.code
        state = state or ("42601" if isinstance(error, ParseError) else "42000")
        text = str(error)
    else:
        code = "MATCH_RECOGNIZE_INTERNAL_ERROR"
        state = "XX000"
        detail = str(error).strip().splitlines()
        text = f"[{code}] sparkcep failed on this statement ({type(error).__name__}" + (
            f": {detail[0]})" if detail else ")"
        ) + "; the server log has the details"
    return f"{ERROR_MARKER}{code}\n{state}\n{text}"


class Rewriter:
    """The Py4J callback object implementing ``sparkcep.jvm.Rewriter``."""

    def __init__(self, spark) -> None:
        self.spark = spark
        self._sessions: OrderedDict[int, object] = OrderedDict()
        self._lock = threading.Lock()

    def rewrite(self, sql: str, jsession) -> str:
        try:
            from sparkcep.runtime.statement import prepare_statement

            if _ANALYZE.match(sql):  # EXPLAIN ANALYZE: run it here, hand Spark the report's rows
                from sparkcep.runtime.explain_analyze import analyze_statement, values_sql

                return values_sql(analyze_statement(self._session(jsession), sql))
            # the session only for statements that may need it: row pattern recognition, in a
            # MATCH_RECOGNIZE clause or in a WINDOW clause (R020), always has PATTERN
            if _ROW_PATTERN.search(sql) is None:
                return rewrite_statement(sql).sql
            target = self._session(jsession)
            return prepare_statement(target, rewrite_statement, sql).sql
        except SparkCepError as error:
            return error_reply(error)
        except Exception as error:  # a bug: log it here, never send a traceback to a client
            log.error("sparkcep: rewriting a statement failed\n%s", traceback.format_exc())
            return error_reply(error)

    def restate(self, sql: str, jerror) -> str:
        """Spark's exception ``jerror``, raised while a client's statement ``sql`` ran, as the
        marked reply of :func:`error_reply` when it is sparkcep's to restate (an error a worker
        raised, or Spark's error about SQL sparkcep generated for ``sql``), else ``""``."""
        try:
            from sparkcep.runtime.spark_errors import restate_for_statement

            found = restate_for_statement(jerror, sql)
            if found is None:
                return ""
            state = None
            if "PythonException" not in str(jerror.getClass().getName()):
                try:  # Spark's own error: its SQLSTATE (22018 for a malformed CAST, ...)
                    state = jerror.getSqlState()
                except Exception:  # not a SparkThrowable
                    state = None
            # else a worker's error: a data exception (the query was right, a row made it fail)
            return error_reply(found, state or "22000")
        except Exception:  # a bug: Spark's error goes to the client as it was
            log.error("sparkcep: restating a run-time error failed\n%s", traceback.format_exc())
            return ""

    def restateMessage(self, condition: str, message: str) -> str:
        """The same as :meth:`restate` for an error known only by its error class and message
        (Spark Connect's gRPC status, ``ConnectErrorInterceptor``)."""
        try:
            from sparkcep.runtime.spark_errors import restate_message

            text = restate_message(condition or None, message or "")
            if not text:
                return ""
            code = re.match(r"\[([A-Z0-9_]+)\]", text)
            state = re.search(r"SQLSTATE: (\w+)", message or "")
            return (f"{ERROR_MARKER}{code.group(1) if code else 'MATCH_RUNTIME_ERROR'}\n"
                    f"{state.group(1) if state else '22000'}\n{text}")
        except Exception:  # a bug: Spark's error goes to the client as it was
            log.error("sparkcep: restating a run-time error failed\n%s", traceback.format_exc())
            return ""

    def _session(self, jsession):
        """The PySpark session object for the JVM session a statement is parsed for."""
        from pyspark.sql import SparkSession

        if jsession is None:
            return self.spark
        if jsession.equals(self.spark._jsparkSession):
            return self.spark
        key = self.spark.sparkContext._jvm.System.identityHashCode(jsession)
        with self._lock:
            found = self._sessions.get(key)
            if found is not None and found._jsparkSession.equals(jsession):
                self._sessions.move_to_end(key)
                return found
            wrapped = SparkSession(self.spark.sparkContext, jsession)
            self._sessions[key] = wrapped
            while len(self._sessions) > 64:
                self._sessions.popitem(last=False)
            return wrapped

    class Java:
        implements = ["sparkcep.jvm.Rewriter"]
