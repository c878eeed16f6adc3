"""A streaming statement whose late rows are routed to a table the user names.

Over a stream, a row is *late* when the watermark has already passed it: the operator can no
longer put it in ORDER BY order among the rows it released. By default Spark drops such rows
before the operator sees them and counts them (docs/streaming.md, "Watermark and late rows").
``start_stream(..., late_rows=FOLDER)`` keeps them instead, each exactly once:

* The clause is compiled with ``late_rows=True``: its input carries each row whole
  (``LATE_ROW_COLUMN``), and the watermark mark is taken off the operator's input, so Spark's own
  late-row filter no longer drops rows; the first operator calls late a row at or before the
  current watermark, or without an event time (``runtime.streaming._release``), and emits it
  beside the matches, in the same output.
* One streaming query runs: Spark's ``foreachBatch`` hands each micro-batch of that output to
  ``_MicroBatchWriter``, which writes the late rows to ``FOLDER/micro_batch=<id>`` (or to that
  partition of a table) and runs the rest of the statement (the user's projection, filters,
  joins with tables) over the matches, writing them the same way or handing them to a callback.
* Exactly once: Spark replays a micro-batch whose commit it did not record (a crash, a kill)
  with the same id, the same input and the operator's state of the batch before, so the writer
  *replaces* the batch's folders (or partitions) rather than appending: after a restart from the
  checkpoint every row is in exactly one of them, once.

The rest of the statement runs per micro-batch, so it must be row by row over the matches:
projections, filters, joins with tables. An aggregation, DISTINCT, ORDER BY, LIMIT, window
function or a second stream would mean something else per micro-batch, and is refused
(``LATE_ROWS_UNSUPPORTED``).
"""

from __future__ import annotations

import functools
import re

from sparkcep.compiler.lowering import LATE_ROW_COLUMN
from sparkcep.compiler.rewrite import compile_statement, stream_view_name
from sparkcep.compiler.statement_rules import check_statement
from sparkcep.errors import AnalysisError, SparkCepError, for_worker
from sparkcep.runtime.streaming import state_partitions

#: the partition column of the folders written per micro-batch
MICRO_BATCH_COLUMN = "micro_batch"

# Logical plan nodes that evaluate row by row (or read a table): the statement over the matches
# may use these only, since it runs once per micro-batch.
_ROW_BY_ROW = frozenset({
    "Project", "Filter", "SubqueryAlias", "View", "LocalRelation", "LogicalRDD", "Relation",
    "HiveTableRelation", "Generate", "ResolvedHint", "Join", "Range", "OneRowRelation",
    "LogicalRelation", "DataSourceV2Relation",
})
_ROW_JOIN = re.compile(r"^Join (Inner|Cross)\b")  # an outer or anti join differs per micro-batch
_NODE = re.compile(r"^[\s:|+\-]*([A-Za-z][A-Za-z0-9]*)")


def start_stream(spark, text: str, *, checkpoint: str, late_rows: str, output: str | None = None,
                 output_format: str = "parquet", on_matches=None, on_late_rows=None,
                 available_now: bool = False, processing_time: str | None = None, args=None):
    """Start ``text`` (a statement whose MATCH_RECOGNIZE reads a stream) as a streaming query that
    writes its late rows to ``late_rows`` and its matches to ``output`` in ``output_format``, or
    hands each micro-batch's matches (a list of Rows) to ``on_matches``. ``late_rows`` and
    ``output`` are each a folder (a path: Parquet, one folder ``micro_batch=<id>`` per
    micro-batch) or a table name (a table partitioned by ``micro_batch``, created if missing);
    either way a replayed micro-batch replaces its own part. ``on_late_rows`` is
    given each micro-batch's number of late rows. ``checkpoint`` keeps the query's progress and
    state. The trigger: ``available_now`` (read what is there, then stop), or a
    ``processing_time`` interval such as ``"10 seconds"``, or Spark's default (a micro-batch as
    soon as the previous one is done). The started ``StreamingQuery``."""
    from sparkcep.runtime.statement import prepare_statement

    if output is None and on_matches is None:
        raise ValueError("start_stream needs output (a folder) or on_matches (a function)")
    check_statement(text)
    compiled = prepare_statement(spark, functools.partial(compile_statement, late_rows=True),
                                 text, args)
    match = next((m for m in compiled.matches if m.streaming), None)
    if match is None:
        raise SparkCepError("LATE_ROWS_UNSUPPORTED",
                            "late rows are routed for a MATCH_RECOGNIZE over a stream, and this "
                            "statement reads no stream")
    if match.shifts and match.plan.uncertain_time is not None:
        raise _unsupported(text, match, "late rows cannot be routed yet for a clause with both "
                                        "UNCERTAIN TIME and PREV or NEXT")
    view = stream_view_name(match.function_name)
    frame = spark.table(f"`{view}`")
    writer = _MicroBatchWriter(compiled.sql, view, late_rows, output, output_format, on_matches,
                               on_late_rows)
    writer.check(spark, frame, text, match)
    stream = (frame.writeStream.outputMode("append").option("checkpointLocation", checkpoint)
              .foreachBatch(writer))
    if available_now:
        stream = stream.trigger(availableNow=True)
    elif processing_time:
        stream = stream.trigger(processingTime=processing_time)
    with state_partitions(spark):
        return stream.start()


class _MicroBatchWriter:
    """``foreachBatch``'s function: one micro-batch of the operator's output, split into its late
    rows and its matches, each written to the micro-batch's own folder (replaced when Spark
    replays the micro-batch)."""

    def __init__(self, statement_sql: str, view: str, late_rows: str, output: str | None,
                 output_format: str, on_matches, on_late_rows=None) -> None:
        self.batch_view = f"{view}_batch"
        quoted = f"`{view}`"
        if quoted not in statement_sql:  # the rewrite names the operator's relation exactly so
            raise AssertionError(f"the rewritten statement does not read {quoted}")
        self.sql = statement_sql.replace(quoted, f"`{self.batch_view}`")
        self.late_rows, self.output = late_rows, output
        self.output_format, self.on_matches = output_format, on_matches
        self.on_late_rows = on_late_rows

    def check(self, spark, frame, text: str, match) -> None:
        """The statement over the matches runs per micro-batch: it must read no other stream and
        work row by row (analysed over an empty table with the matches' columns)."""
        empty = spark.createDataFrame([], frame.drop(LATE_ROW_COLUMN).schema)
        empty.createOrReplaceTempView(self.batch_view)
        run = getattr(spark, "_sparkcep_original_sql", spark.sql)
        statement = run(self.sql)
        if statement.isStreaming:
            raise _unsupported(text, match, "with late rows routed, the statement may read one "
                                            "stream only, the one MATCH_RECOGNIZE reads")
        plan = statement._jdf.queryExecution().analyzed().treeString()
        for line in plan.splitlines():
            node = _NODE.match(line)
            if node is None:
                continue
            name = node.group(1)
            if name not in _ROW_BY_ROW or (name == "Join" and not _ROW_JOIN.match(
                    line.lstrip(" :|+-"))):
                raise _unsupported(
                    text, match, f"with late rows routed, the statement runs over each "
                                 f"micro-batch's matches, so it may only select, filter and join "
                                 f"them with tables, row by row ({_what(name)} would be computed "
                                 f"per micro-batch)")

    def __call__(self, batch, batch_id: int) -> None:
        from pyspark.sql import functions as F

        batch = batch.persist()  # read twice below; the operator runs once
        try:
            late = batch.filter(F.col(LATE_ROW_COLUMN).isNotNull()).select(f"{LATE_ROW_COLUMN}.*")
            _replace(late, self.late_rows, batch_id, "parquet")
            if self.on_late_rows is not None:
                self.on_late_rows(late.count())
            matches = batch.filter(F.col(LATE_ROW_COLUMN).isNull()).drop(LATE_ROW_COLUMN)
            matches.createOrReplaceTempView(self.batch_view)
            result = batch.sparkSession.sql(self.sql)
            if self.output is not None:
                _replace(result, self.output, batch_id, self.output_format)
            if self.on_matches is not None:
                self.on_matches(result.collect())
        except SparkCepError as error:  # marked, so the query's exception carries it
            raise for_worker(error) from None
        finally:
            batch.unpersist()


def is_folder(target: str) -> bool:
    """Whether ``late_rows``/``output`` names a folder (a path or URI) rather than a table."""
    return "/" in target or "\\" in target or target.startswith(".")


def _replace(frame, target: str, batch_id: int, output_format: str) -> None:
    """The micro-batch's rows as the folder ``target/micro_batch=<id>``, or as the partition
    ``micro_batch = <id>`` of the table ``target`` (created, partitioned by ``micro_batch``, if it
    does not exist), replacing what an earlier attempt at the same micro-batch wrote."""
    if not is_folder(target):
        from pyspark.sql import functions as F

        rows = frame.withColumn(MICRO_BATCH_COLUMN, F.lit(batch_id).cast("bigint"))
        if not frame.sparkSession.catalog.tableExists(target):
            rows.limit(0).write.format(output_format).partitionBy(MICRO_BATCH_COLUMN) \
                .saveAsTable(target)
        # only the partitions written (this micro-batch's); the setting is that of the stream's
        # own session (``foreachBatch`` hands each micro-batch over in a copy of the session)
        frame.sparkSession.conf.set("spark.sql.sources.partitionOverwriteMode", "dynamic")
        rows.write.insertInto(target, overwrite=True)
        return
    target = f"{target.rstrip('/')}/{MICRO_BATCH_COLUMN}={batch_id}"
    writer = frame.write.mode("overwrite").format(output_format)
    if output_format == "csv":
        writer = writer.option("header", True)
    writer.save(target)


def _what(node: str) -> str:
    return {"Aggregate": "an aggregation", "Deduplicate": "DISTINCT", "Distinct": "DISTINCT",
            "Sort": "ORDER BY", "GlobalLimit": "LIMIT", "LocalLimit": "LIMIT", "Offset": "OFFSET",
            "Window": "a window function", "Union": "a set operation",
            "Join": "an outer, semi or anti join"}.get(node, f"this statement ({node})")


def _unsupported(text: str, match, message: str) -> AnalysisError:
    start = text.upper().find("MATCH_RECOGNIZE")
    return AnalysisError.at_offset("LATE_ROWS_UNSUPPORTED", message, text, max(0, start),
                                   len("MATCH_RECOGNIZE"))


__all__ = ["MICRO_BATCH_COLUMN", "start_stream"]
