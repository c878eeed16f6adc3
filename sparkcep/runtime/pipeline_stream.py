"""A streaming MATCH_RECOGNIZE statement as one self-contained DataFrame, for a Spark Declarative
Pipelines dataset defined in Python (and any Spark Connect session).

``sparkcep.sql`` over a stream registers the stateful operator's output as a temporary view that
the rewritten statement reads (``runtime.streaming.register_stream``). A pipeline cannot use that:
its definitions may not create temporary views (``pyspark.pipelines`` blocks
``createOrReplaceTempView``), and its flow analysis resolves every relation a flow reads as a
pipeline dataset or a catalog table, qualified with the pipeline's catalog and database, so a
session's temporary view is never found (docs/streaming.md, "Spark Declarative Pipelines").
Here the operator's DataFrame is handed to ``spark.sql`` as an argument instead
(``spark.sql("... FROM {matches}", matches=frame)``), which Spark Connect sends inside the plan:
the result carries the whole query and needs nothing registered in the session.

Call it where the pipeline allows analysis: at the top level of the pipeline's Python file, not
inside the dataset's function (which may not analyze), and return the DataFrame from there::

    vshapes_frame = stream_dataframe(spark, TEXT)

    @dp.table(name="vshapes")
    def vshapes():
        return vshapes_frame

The stream must come from a catalog table (``STREAM(ticks)``) that exists when the file is
loaded, since the statement's input is analyzed then; the state store must already be RocksDB
(the pipeline spec's ``configuration``), since a pipeline may not change settings.
"""

from __future__ import annotations

import re

from sparkcep.compiler.rewrite import compile_statement, stream_view_name
from sparkcep.compiler.statement_rules import check_statement
from sparkcep.errors import SparkCepError
from sparkcep.runtime.streaming import (PROVIDER_CONF, ROCKSDB_PROVIDER, match_operator,
                                        operator_input)

_PREV = re.compile(r"\bPREV\s*\(", re.IGNORECASE)


def stream_dataframe(spark, text: str, args=None):
    """The streaming DataFrame of the statement ``text`` (which reads a stream), with each
    clause's stateful operator inside its plan rather than behind a temporary view."""
    check_statement(text)
    compiled = compile_statement(text, None, streaming=True)
    if not compiled.matches:
        return spark.sql(text) if args is None else spark.sql(text, args)
    _check_state_store(spark)
    sql = compiled.sql.replace("{", "{{").replace("}", "}}")  # the rest is the user's text
    frames = {}
    for match in compiled.matches:
        if match.shifts:
            found = _PREV.search(text)
            raise SparkCepError.at_offset(
                "STREAM_UNSUPPORTED",
                "PREV over a stream is not supported yet in a self-contained DataFrame (a "
                "pipeline dataset): it needs a first stateful operator read through a temporary "
                "view; LAST(X.col, k) reads the k-th row before within the match",
                text, found.start() if found else 0, 4)
        stream_plan, frame, keys, return_type = operator_input(spark, match, args)
        output = match_operator(frame, keys, stream_plan, return_type)
        name = stream_view_name(match.function_name)
        quoted = f"`{name}`"
        if quoted not in sql:  # the rewrite names the operator's relation exactly so
            raise AssertionError(f"the rewritten statement does not read {quoted}")
        sql = sql.replace(quoted, "{" + name + "}")
        frames[name] = output
    if args is None:
        return spark.sql(sql, **frames)
    return spark.sql(sql, args, **frames)


def _check_state_store(spark) -> None:
    if spark.conf.get(PROVIDER_CONF, None) == ROCKSDB_PROVIDER:
        return
    try:
        spark.conf.set(PROVIDER_CONF, ROCKSDB_PROVIDER)
    except Exception:  # a pipeline's definitions may not change settings
        raise SparkCepError(
            "STREAM_UNSUPPORTED",
            f"a streaming MATCH_RECOGNIZE needs the RocksDB state store, and this session may not "
            f"change settings: set {PROVIDER_CONF} to {ROCKSDB_PROVIDER} in the pipeline spec's "
            f"configuration") from None


__all__ = ["stream_dataframe"]
