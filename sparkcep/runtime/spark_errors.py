"""Spark's errors about a user's statement, restated as the user's errors.

sparkcep runs SQL it generated, so Spark's messages speak of that SQL: its line and position, its
internal column names, casts the user never wrote. This module turns them back into one
:class:`~sparkcep.errors.SparkCepError` with one code and one position in the user's text:

* :func:`restate` — an error Spark raised while analysing or optimising a clause's generated
  query (``registration`` probes the types of each clause before running it).
* :func:`recover` — an error a Python worker raised (``errors.for_worker``), which reaches the
  driver inside Spark's ``PythonException`` text after a Python traceback.
* :func:`install_recovery` — makes PySpark raise the recovered error itself (for ``spark.sql``
  and ``sparkcep.sql`` DataFrames, whose actions run long after sparkcep returned).
* :func:`stream_failure` — the error a failed streaming query stopped with (Spark's
  ``StreamingQueryException``, raised by ``awaitTermination``/``processAllAvailable`` or returned
  by ``query.exception()``): the executor's SparkCepError when it carries one, else one
  ``STREAM_FAILED`` error whose first line says what stopped the query.
* :func:`silence_duplicate_logging` — Spark logs each failure once more (a JSON log line with a
  Java stack trace, executor and task-set errors) before the exception reaches the caller.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from contextlib import contextmanager

from sparkcep.errors import (
    AnalysisError,
    MatchRuntimeError,
    ParseError,
    SparkCepError,
    from_worker_text,
    line_and_column,
)
from sparkcep.runtime.state_codec import incompatible

#: the JVM loggers that print a failed task's stack trace (the driver raises the same error)
_TASK_FAILURE_LOGGERS = (
    "org.apache.spark.executor.Executor",
    "org.apache.spark.scheduler.TaskSetManager",
    "org.apache.spark.scheduler.TaskSchedulerImpl",
    "org.apache.spark.api.python.PythonRunner",
    "org.apache.spark.sql.execution.python",
    # a streaming micro-batch's failed write (the query stops with the same error)
    "org.apache.spark.sql.execution.datasources.v2.DataWritingSparkTask",
    "org.apache.spark.sql.execution.datasources.v2.WriteToDataSourceV2Exec",
)
#: PySpark's Python loggers that print a captured exception as a JSON line before raising it
_PYSPARK_LOGGERS = ("SQLQueryContextLogger", "DataFrameQueryContextLogger")

_INTERNAL = re.compile(r"`?__sparkcep_\w+`?\.")
_CONDITION_PREFIX = re.compile(r"^\s*\[[A-Z0-9_.]+\]\s*")
_SQLSTATE = re.compile(r"\s*SQLSTATE: \w+\.?")
_GENERATED_POSITION = re.compile(r";?\s*line \d+ pos \d+;?")
_IDENTIFIER = re.compile(r"`([^`]+)`|([A-Za-z_][A-Za-z0-9_]*)")


#: the JVM logger that prints a failed streaming query's stack trace when it stops; a client that
#: reports the query's error itself (``sparkcep stream``) turns it off
STREAM_FAILURE_LOGGER = "org.apache.spark.sql.execution.streaming.runtime.MicroBatchExecution"


def silence_duplicate_logging(spark, loggers: tuple[str, ...] = _TASK_FAILURE_LOGGERS) -> None:
    """Turn off the log lines that repeat a failure the caller receives as an exception."""
    from pyspark.logger import PySparkLogger

    for name in _PYSPARK_LOGGERS:
        PySparkLogger.getLogger(name).disabled = True
    try:
        jvm = spark.sparkContext._jvm
        configurator = jvm.org.apache.logging.log4j.core.config.Configurator
        off = jvm.org.apache.logging.log4j.Level.OFF
        for name in loggers:
            configurator.setLevel(name, off)
    except Exception as error:  # Spark Connect (no JVM here) or another logging backend
        logging.getLogger("sparkcep.runtime").debug("cannot quiet Spark's task logging: %s", error)


def prepare(spark) -> None:
    """Once per session: recover workers' errors in PySpark and quiet Spark's duplicate logging."""
    install_recovery()
    context = getattr(spark, "sparkContext", None)
    if context is None or getattr(context, "_sparkcep_quiet", False):
        return
    silence_duplicate_logging(spark)
    try:
        context._sparkcep_quiet = True
    except AttributeError:  # pragma: no cover
        pass


def recover(error: BaseException) -> SparkCepError | None:
    """The SparkCepError a Python worker raised, found in Spark's exception ``error``."""
    if isinstance(error, SparkCepError):
        return error
    return from_worker_text(str(error))


_installed = False
#: PySpark's own conversion of a Java exception (before :func:`install_recovery` wrapped it)
_pyspark_convert = None


def restate_for_statement(java_exception, text: str) -> SparkCepError | None:
    """The Java exception a client's statement ``text`` raised while it ran (a server's client:
    ``clients.extension.Rewriter.restate``), restated against ``text`` itself: a worker's
    SparkCepError, or Spark's error whose query context stands in SQL sparkcep generated (for
    ``text``, or for a statement that compiles to the same SQL: the text differs only in layout,
    and the client's own decides the position). None when it is not sparkcep's."""
    install_recovery()
    error = _pyspark_convert(java_exception)
    found = from_worker_text(str(error)) if "sparkcep-error-json" in str(error) else None
    if found is not None:
        return found
    if _source_of(error) is None:
        return None
    return restate_for_text(error, text)

#: the Spark SQL of the statements sparkcep compiled in this process, newest last, each with the
#: user's text: an error Spark raises while a query runs (a malformed CAST, a division by zero in
#: a DEFINE) points into the generated SQL, and is restated against the user's text through this
_GENERATED: OrderedDict[str, str] = OrderedDict()
_GENERATED_LIMIT = 256
_generated_lock = threading.Lock()


def remember(generated: str, text: str) -> None:
    """Record that Spark will run ``generated``, compiled from the user's statement ``text``."""
    with _generated_lock:
        _GENERATED.pop(generated, None)
        _GENERATED[generated] = text
        while len(_GENERATED) > _GENERATED_LIMIT:
            _GENERATED.popitem(last=False)


def _source_of(error: Exception) -> str | None:
    """The user's statement whose generated SQL ``error``'s query context points into: its
    fragment stands at its start and stop index in a remembered generated statement (an error
    about any other SQL, or about a view's text, is not sparkcep's to restate)."""
    with _generated_lock:
        remembered = list(reversed(_GENERATED.items()))
    for fragment, start, stop in _context_spans(error):
        for generated, text in remembered:
            if generated[start:stop + 1] == fragment:
                return text
    return None


def _context_spans(error: Exception):
    """``(fragment, start, stop)`` of each SQL query context of Spark's ``error`` (none for
    another exception, or a DataFrame context)."""
    try:
        contexts = list(error.getQueryContext() or ())
    except Exception:  # not a PySparkException, or no context
        return
    for context in contexts:
        try:
            fragment, start, stop = context.fragment(), context.startIndex(), context.stopIndex()
        except Exception:  # pragma: no cover - a DataFrame context has no indices
            continue
        if fragment and start >= 0:
            yield fragment, start, stop


def restate_at_run_time(error: Exception) -> SparkCepError | None:
    """Spark's error raised while a sparkcep statement ran (``CAST_INVALID_INPUT``,
    ``DIVIDE_BY_ZERO``, ``ARITHMETIC_OVERFLOW``, ...), restated against the user's text like the
    CLI does; None when it is not about SQL sparkcep generated."""
    text = _source_of(error)
    return None if text is None else restate_for_text(error, text)


#: the query context Spark prints under its message: the generated SQL's line and 1-based
#: position, an excerpt of that line, and carets under the fragment
_SUMMARY = re.compile(r"== SQL[^\n]*?\(line (\d+), position (\d+)\) ==\n([^\n]*)\n( *)(\^+)")


#: a SparkCepError a Python worker raised, as Spark's message names it (after its own prefix)
_RAISED_INLINE = re.compile(r"sparkcep\.errors\.(?:ParseError|AnalysisError|MatchRuntimeError): "
                            r"(\[[A-Z0-9_]+\] [^\n]*\(line \d+, column \d+\))$", re.MULTILINE)


class _MessageContext:
    """A SQL query context read back from Spark's message (see :func:`restate_message`)."""

    def __init__(self, fragment: str, start: int) -> None:
        self._fragment, self._start = fragment, start

    def fragment(self) -> str:
        return self._fragment

    def startIndex(self) -> int:
        return self._start

    def stopIndex(self) -> int:
        return self._start + len(self._fragment) - 1


class _MessageError(Exception):
    """Spark's error known only by its error class and message (as Spark Connect sends it)."""

    def __init__(self, condition: str | None, message: str, contexts: list) -> None:
        super().__init__(message)
        self._condition, self._contexts = condition, contexts

    def getCondition(self) -> str | None:
        return self._condition

    def getQueryContext(self) -> list:
        return self._contexts


def _line_start(text: str, line: int) -> int | None:
    at = 0
    for _ in range(line - 1):
        at = text.find("\n", at)
        if at < 0:
            return None
        at += 1
    return at


def restate_message(condition: str | None, message: str) -> str | None:
    """sparkcep's rendering (``[CODE] message (line L, column C)``, the source line, a caret) of
    an error known only by its error class and message, as a Spark Connect client receives it,
    or None when it is not sparkcep's to restate: an error a Python worker raised with sparkcep's
    marked line, or Spark's error whose query context (``== SQL (line L, position P) ==`` and the
    fragment under carets) stands at that place in SQL sparkcep generated in this process."""
    found = from_worker_text(message)
    if found is not None:
        return str(found)
    printed = list(_RAISED_INLINE.finditer(message))
    if printed:  # the marked line was cut off (Spark abbreviates): the printed error and caret
        lines = message[printed[-1].start(1):].splitlines()
        keep = lines[:3] if len(lines) >= 3 and lines[2].strip().startswith("^") else lines[:1]
        return "\n".join(keep)
    summary = _SUMMARY.search(message)
    if summary is None:
        return None
    line, position = int(summary.group(1)), int(summary.group(2))
    excerpt, indent, carets = summary.group(3), len(summary.group(4)), len(summary.group(5))
    fragment = excerpt[indent:indent + carets]
    if not fragment:
        return None
    # Spark's excerpt: the fragment with some text either side, "..." where the line was cut
    lead = 3 if excerpt.startswith("...") else 0
    around = excerpt[lead:-3] if excerpt.endswith("...") else excerpt[lead:]
    with _generated_lock:
        remembered = list(reversed(_GENERATED.items()))
    candidates = []
    for generated, text in remembered:  # the most recent first
        at = _line_start(generated, line)
        if at is None:
            continue
        start = at + position - 1
        if generated[start:start + len(fragment)] == fragment:
            begin = start - (indent - lead)
            whole = begin >= at and generated[begin:begin + len(around)] == around
            candidates.append((not whole, start, text))
    if not candidates:
        return None
    # statements that share the fragment's place (concurrent ones, from several clients) are
    # told apart by the text around it; among equals, the most recent
    _, start, text = min(candidates, key=lambda candidate: candidate[0])
    error = _MessageError(condition or None, message, [_MessageContext(fragment, start)])
    return str(restate_for_text(error, text))


_raw = threading.local()


@contextmanager
def raw_errors():
    """Within it, PySpark raises Spark's errors as they are in this thread, none restated: for
    SQL sparkcep asks about that is no statement of the user's (``runtime.subqueries``), whose
    query context could otherwise stand, by chance, where a remembered statement has the same
    fragment."""
    before = getattr(_raw, "on", False)
    _raw.on = True
    try:
        yield
    finally:
        _raw.on = before


def install_recovery() -> None:
    """Make PySpark raise sparkcep's typed error instead of Spark's: a worker's SparkCepError
    instead of ``PythonException``, and an error Spark raised while running a statement sparkcep
    generated, restated against the user's text (:func:`restate_at_run_time`). Wraps PySpark's
    conversion of Java exceptions (idempotent; every other error is left as it was)."""
    global _installed, _pyspark_convert
    if _installed:
        return
    from pyspark.errors.exceptions import captured

    original = captured.convert_exception
    _pyspark_convert = original

    def convert_exception(java_exception):
        converted = original(java_exception)
        if getattr(_raw, "on", False):
            return converted
        found = from_worker_text(str(converted)) if "sparkcep-error-json" in str(converted) else None
        if found is None:
            found = restate_at_run_time(converted)
        return converted if found is None else found

    captured.convert_exception = convert_exception
    _installed = True


def _condition(error: Exception) -> str | None:
    get_condition = getattr(error, "getCondition", None) or getattr(error, "getErrorClass", None)
    if get_condition is None:
        return None
    try:
        return get_condition()
    except Exception:  # pragma: no cover - depends on the Spark version
        return None


def _fragments(error: Exception) -> list[str]:
    """The generated-SQL fragments Spark's query context points at (innermost first)."""
    try:
        contexts = error.getQueryContext()
    except Exception:  # not a PySparkException, or no context
        return []
    found = []
    for context in contexts or ():
        try:
            fragment = context.fragment()
        except Exception:  # pragma: no cover
            continue
        if fragment:
            found.append(fragment)
    return found


def clean_message(text: str) -> str:
    """Spark's first line without its condition prefix, SQLSTATE, generated-SQL position and
    sparkcep's internal names."""
    first = text.strip().splitlines()[0] if text.strip() else "analysis failed"
    first = _CONDITION_PREFIX.sub("", first)
    first = _SQLSTATE.sub("", first)
    first = _GENERATED_POSITION.sub("", first)
    first = _INTERNAL.sub("", first)
    first = re.sub(r"__sparkcep_\w+", "<internal>", first)
    return first.strip().rstrip(";").strip()


def fragment_offset(fragment: str, sql: str) -> int | None:
    """Where a generated-SQL ``fragment`` (e.g. ``(`price` < 'cheap')``) was written in the user's
    ``sql`` (e.g. ``B.price < 'cheap'``): its tokens in order, identifiers with an optional
    qualifier, any spacing and outer parentheses."""
    text = _INTERNAL.sub("", fragment).strip()
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    parts = []
    for token in re.finditer(r"`[^`]+`|'(?:[^']|'')*'|[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|\S",
                             text):
        value = token.group(0)
        if value.startswith("`"):
            value = value[1:-1]
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
            parts.append(r"(?:\w+\s*\.\s*)?`?" + re.escape(value) + r"`?")
        else:
            parts.append(re.escape(value))
    if not parts:
        return None
    found = re.search(r"\s*".join(parts), sql, re.IGNORECASE)
    return None if found is None else found.start()


def _name_offset(message: str, sql: str, around: tuple[str, int, int] | None = None) -> int | None:
    """Where the first backquoted name of the message that the user's text contains was written.
    A name may occur several times (``PARTITION BY k`` and, unresolved, ``u.kk = k`` in a
    subquery): with ``around`` (the generated SQL and the start and stop of the fragment Spark
    points at, :func:`_generated_around`), the occurrence whose neighbouring tokens match the
    fragment's there; otherwise, or among equals, the first."""
    for name in re.findall(r"`([^`]+)`", message):
        last = name.split(".")[-1]
        if last.startswith("__sparkcep"):
            continue
        found = list(re.finditer(r"(?<![\w.])(?:\w+\.)?" + re.escape(last) + r"\b", sql))
        if not found:
            continue
        best = found[0]
        if around is not None and len(found) > 1:
            generated, start, stop = around
            before, after = _tokens(generated[:start])[::-1], _tokens(generated[stop + 1:])
            best = max(found, key=lambda m: _agreement(before, _tokens(sql[:m.start()])[::-1])
                       + _agreement(after, _tokens(sql[m.end():])))
        return best.start() + (len(best.group(0)) - len(last))
    return None


#: tokens of SQL text, compared between the generated SQL and the user's: quoted identifiers,
#: strings, words, numbers, single characters
_TOKEN = re.compile(r"`[^`]+`|'(?:[^']|'')*'|[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|\S")
_AROUND_TOKENS = 8


def _tokens(text: str) -> list[str]:
    """The tokens of ``text`` as both texts share them: lower case, without backquotes,
    parentheses and qualifiers (the generated SQL adds parentheses and drops pattern variables)."""
    tokens = [t.strip("`").lower() for t in _TOKEN.findall(text)]
    kept = []
    for i, token in enumerate(tokens):
        if token in ("(", ")", ".") or (i + 1 < len(tokens) and tokens[i + 1] == "."):
            continue
        kept.append(token)
    return kept


def _agreement(ours: list[str], theirs: list[str]) -> int:
    """How many leading tokens (up to ``_AROUND_TOKENS``) the two lists share."""
    count = 0
    for a, b in zip(ours[:_AROUND_TOKENS], theirs[:_AROUND_TOKENS]):
        if a != b:
            break
        count += 1
    return count


def _generated_around(error: Exception, sql: str, generated: str | None = None) -> tuple[str, int, int] | None:
    """The generated SQL (``generated``, else one remembered for the user's ``sql``) that Spark's
    query context points into, with the fragment's start and stop index, or None."""
    with _generated_lock:
        remembered = [text for text, source in reversed(_GENERATED.items()) if source == sql]
    if generated is not None:
        remembered.insert(0, generated)
    for fragment, start, stop in _context_spans(error):
        for candidate in remembered:
            if candidate[start:stop + 1] == fragment:
                return candidate, start, stop
    return None


def _keyword_offset(keyword: str, sql: str) -> int | None:
    found = re.search(r"\b" + keyword.replace(" ", r"\s+") + r"\b", sql, re.IGNORECASE)
    return None if found is None else found.start()


def restate(error: Exception, match, generated: str | None = None) -> SparkCepError:
    """A Spark error about ``match``'s generated query (``generated``, when known), restated
    against the user's SQL."""
    return restate_for_text(error, match.source, generated)


def restate_for_text(error: Exception, sql: str, generated: str | None = None) -> SparkCepError:
    """A Spark error about the SQL sparkcep generated for the user's statement ``sql``, restated
    against ``sql``: one code (Spark's error class without its sub-class), Spark's message without
    the generated SQL, and one position — the name or expression it is about, else the
    MATCH_RECOGNIZE keyword (else the statement's start)."""
    recovered = recover(error)
    if recovered is not None:
        return recovered
    condition = _condition(error)
    message = clean_message(str(error))
    code = (condition or "SPARK_ANALYSIS_ERROR").split(".")[0]
    offset = _name_offset(message, sql, _generated_around(error, sql, generated))
    length = 1
    if offset is None:
        for fragment in _fragments(error):
            offset = fragment_offset(fragment, sql)
            if offset is not None:
                break
    if offset is None:
        offset = _keyword_offset("MATCH_RECOGNIZE", sql)
        length = len("MATCH_RECOGNIZE")
    if offset is None:
        offset = len(sql) - len(sql.lstrip())
        length = 1
    line, column = line_and_column(sql, offset)
    return AnalysisError(code, message, line=line, column=column, sql=sql, length=length)


#: a SparkCepError as Python prints it in a traceback (``foreachBatch`` functions' failures reach
#: Spark as their traceback's text, without the worker's marked line)
_PRINTED = re.compile(
    r"^sparkcep\.errors\.(ParseError|AnalysisError|MatchRuntimeError): \[([A-Z0-9_]+)\] (.*?)"
    r"(?: \(line (\d+), column (\d+)\))?\s*$", re.MULTILINE)
#: the last exception line of a Python traceback in Spark's message
_PYTHON_RAISED = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)): (.*)$", re.MULTILINE)
_QUERY_PREFIX = re.compile(r"^\s*(?:\[STREAM_FAILED\]\s*)?Query (?:\S+ )?\[id = [^\]]*\] "
                           r"terminated with exception:\s*")


#: Spark refusing a checkpoint of state format 1 or 2, whose ``progress`` state variable held five
#: BIGINT counters (``streaming.STATE_VARIABLE``)
_OLD_STATE_FORMAT = re.compile(
    r"STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE.*Existing value_schema=StructType\(StructField\("
    r"released,LongType.*new value_schema=StructType\(StructField\(state,BinaryType", re.DOTALL)

#: Spark refusing a checkpoint whose stateful operators exchanged rows the other way (the Row
#: path's ``transformWithState``, the pandas path's ``transformWithStateInPandas``,
#: ``runtime.stream_exchange``): written by a sparkcep that chose the other path for the clause
_OTHER_EXCHANGE = re.compile(
    r"STREAMING_STATEFUL_OPERATOR_NOT_MATCH_IN_STATE_METADATA.*in the metadata: \[[^\]]*"
    r"transformWithStateIn(?:PySpark|Pandas)Exec.*in current batch: \[[^\]]*"
    r"transformWithStateIn(?:PySpark|Pandas)Exec", re.DOTALL)


def _printed_error(text: str, sql: str | None) -> SparkCepError | None:
    """The last SparkCepError printed in a Python traceback inside ``text`` (its length, when the
    caret line follows, from the caret)."""
    printed = list(_PRINTED.finditer(text))
    if not printed:
        return None
    found = printed[-1]
    kind = {"ParseError": ParseError, "AnalysisError": AnalysisError}.get(found.group(1),
                                                                        MatchRuntimeError)
    line = int(found.group(4)) if found.group(4) else None
    column = int(found.group(5)) if found.group(5) else None
    following = text[found.end():].lstrip("\n").splitlines()[1:2]
    length = following[0].count("^") if following and following[0].strip().startswith("^") else 1
    return kind(found.group(2), found.group(3), line=line, column=column, sql=sql,
                length=length)


def stream_failure(error: BaseException, sql: str | None = None) -> SparkCepError:
    """The typed error a streaming query stopped with. ``error`` is what PySpark gives for a
    failed query (``StreamingQueryException``, or the error its ``awaitTermination`` raised);
    ``sql`` the statement, for the position. In order: the SparkCepError an executor raised (its
    marked line), one a ``foreachBatch`` function raised (printed in Spark's message), else
    ``STREAM_FAILED`` with the failure's own first line — the Python exception a worker raised,
    or Spark's message without its query ids — at the MATCH_RECOGNIZE keyword."""
    recovered = recover(error)
    if recovered is not None:
        return recovered
    text = str(error)
    if _OLD_STATE_FORMAT.search(text):
        return incompatible("by an earlier sparkcep (state format 1 or 2)")
    if _OTHER_EXCHANGE.search(text):
        return incompatible("by an earlier sparkcep, whose operators received the rows another "
                            "way (docs/streaming.md, \"How rows reach Python\")")
    printed = _printed_error(text, sql)
    if printed is not None:
        return printed
    traceback_at = text.rfind("Traceback (most recent call last)")
    raised = None
    if traceback_at >= 0:  # the exception line: the first unindented line after the frames
        frames = text[traceback_at:].splitlines()[1:]
        first = next((line for line in frames if line and not line[0].isspace()), "")
        raised = _PYTHON_RAISED.match(first)
    if raised is not None:
        message = f"the streaming query stopped: Python raised {raised.group(1)}: " \
                  f"{raised.group(2).strip()}"
    else:
        message = "the streaming query stopped: " + clean_message(_QUERY_PREFIX.sub("", text))
    if not sql:
        return MatchRuntimeError("STREAM_FAILED", message)
    offset = _keyword_offset("MATCH_RECOGNIZE", sql)
    length = len("MATCH_RECOGNIZE")
    if offset is None:
        offset, length = len(sql) - len(sql.lstrip()), 1
    line, column = line_and_column(sql, offset)
    return MatchRuntimeError("STREAM_FAILED", message, line=line, column=column, sql=sql,
                             length=length)


__all__ = ["prepare", "stream_failure", "restate", "restate_for_text", "recover", "install_recovery",
           "remember", "restate_at_run_time", "restate_message", "restate_for_statement", "silence_duplicate_logging", "clean_message",
           "fragment_offset"]
