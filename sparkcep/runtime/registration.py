"""Registering compiled MATCH_RECOGNIZE clauses as Spark table functions.

Compilation (``sparkcep.compiler.rewrite``) is pure; this module is where a SparkSession comes in. For each
compiled clause it asks Spark for the types of the rows the function receives and of each measure
component (analysis only, nothing runs), then registers a PyArrow-native UDTF under the clause's
deterministic name. The function class is built per clause and carries its plan; on the executors
it drives a ``PartitionRunner`` per partition.
"""

from __future__ import annotations

import dataclasses
import re

import pyarrow as pa

from sparkcep.errors import AnalysisError, MatchRuntimeError, SparkCepError, line_and_column
from sparkcep.compiler.chunks import chunk_count
from sparkcep.engines.budgets import BUDGETS
from sparkcep.engines.spec import MatchSpec
from sparkcep.compiler.rewrite import PREFIX, ChunkOptions, CompiledMatch, component_name


def _arrow_type(data_type, timezone: str):
    from pyspark.sql.pandas.types import to_arrow_type

    return to_arrow_type(data_type, timezone=timezone)


def _spark_error_to_user(error: Exception, match: CompiledMatch) -> SparkCepError:
    """A Spark analysis error about the generated query, restated against the user's SQL."""
    text = str(error)
    condition = None
    get_condition = getattr(error, "getCondition", None) or getattr(error, "getErrorClass", None)
    if get_condition is not None:
        try:
            condition = get_condition()
        except Exception:  # pragma: no cover - depends on the Spark version
            condition = None
    first_line = text.strip().splitlines()[0] if text.strip() else "analysis failed"
    first_line = re.sub(r"`?__sparkcep_in`?\.", "", first_line)
    first_line = re.sub(r"\s*SQLSTATE: \w+", "", first_line)
    first_line = re.sub(r"__sparkcep_\w+", "<internal>", first_line)
    names = re.findall(r"`([^`]+)`", first_line)
    sql = match.source
    offset = None
    for name in names:
        found = re.search(r"\b" + re.escape(name.split(".")[-1]) + r"\b", sql)
        if found:
            offset = found.start()
            break
    code = (condition or "SPARK_ANALYSIS_ERROR").split(".")[0]
    message = first_line
    if offset is None:
        return AnalysisError(code, message)
    line, column = line_and_column(sql, offset)
    return AnalysisError(code, message, line=line, column=column, sql=sql)


def _probe(spark, query: str, match: CompiledMatch):
    try:
        return spark.sql(query).schema
    except SparkCepError:
        raise
    except Exception as error:  # Spark's AnalysisException / ParseException
        raise _spark_error_to_user(error, match) from None


CHUNKS_CONF = "spark.sparkcep.withinChunks"


def _coalescing_merges_chunks(spark) -> bool:
    """Whether AQE's partition coalescing is on (Spark's default): the chunks' shuffle partitions
    are small in bytes, so it merges them into one task and chunking would only add work."""
    def enabled(key: str) -> bool:
        try:
            return str(spark.conf.get(key, "true")).strip().lower() != "false"
        except Exception:  # pragma: no cover - a session without a readable conf
            return True

    return enabled("spark.sql.adaptive.enabled") and enabled("spark.sql.adaptive.coalescePartitions.enabled")


def chunk_options(spark) -> ChunkOptions:
    """How to chunk eligible clauses on this session (``sparkcep.compiler.chunks``), from the session
    setting ``spark.sparkcep.withinChunks``: ``auto`` (the default: 4 x the default parallelism,
    for clauses without PARTITION BY, when AQE partition coalescing is off), ``off``, or a number
    of chunks (every eligible clause, per partition)."""
    try:
        setting = spark.conf.get(CHUNKS_CONF, None)
    except Exception:  # pragma: no cover - a session without a readable conf
        setting = None
    parallelism = 1
    if (setting or "auto").strip().lower() in ("auto", ""):
        try:
            parallelism = spark.sparkContext.defaultParallelism
        except Exception:  # Spark Connect: no SparkContext
            parallelism = 1
    try:
        chunks, partitioned = chunk_count(setting, parallelism)
    except ValueError as error:
        raise AnalysisError("INVALID_WITHIN_CHUNKS", str(error)) from None
    if chunks is not None and not partitioned and _coalescing_merges_chunks(spark):
        chunks = None  # "auto": AQE would put the chunks back into one task (all cost, no gain)
    partitions = None
    if chunks is not None:
        try:
            initial = spark.conf.get("spark.sql.adaptive.coalescePartitions.initialPartitionNum", None)
            partitions = int(initial or spark.conf.get("spark.sql.shuffle.partitions"))
        except (Exception,):  # "auto" partitions on Databricks, or no readable conf
            partitions = None
    return ChunkOptions(chunks, partitioned, partitions)


def budgeted(spark, spec: MatchSpec) -> MatchSpec:
    """``spec`` with the resource budgets of this session (``sparkcep.engines.budgets``: e.g.
    ``spark.sparkcep.maxSteps``; unset = the default), read when the clause is registered, so a
    ``SET`` before a query applies to that query."""
    values = {}
    for budget in BUDGETS:
        try:
            setting = spark.conf.get(budget.setting, None)
        except Exception:  # pragma: no cover - a session without a readable conf
            setting = None
        if setting is None or not str(setting).strip():
            continue
        text = str(setting).strip().replace("_", "")
        if not text.isdigit() or int(text) <= 0:
            raise AnalysisError(
                "INVALID_BUDGET_SETTING",
                f"{budget.setting} must be a positive whole number ({budget.counts} per partition, "
                f"default {budget.default}), not {setting!r}",
            )
        values[budget.field] = int(text)
    return dataclasses.replace(spec, **values) if values else spec


def register(spark, match: CompiledMatch) -> None:
    """Register the function ``match.function_name`` on ``spark``."""
    from pyspark.sql.functions import arrow_udtf
    from pyspark.sql.types import StructField, StructType

    prefix = match.probe_prefix
    rows = _probe(spark, f"{prefix}SELECT * FROM ({match.table_sql})", match)
    input_fields = [f for f in rows.fields if not f.name.startswith(PREFIX)]
    by_name = {f.name: f for f in rows.fields}
    plan = match.plan


    component_fields = []
    if plan.components:
        probes = ", ".join(f"{probe} AS `c{i}`" for i, probe in enumerate(match.component_probes))
        types = _probe(spark, f"{prefix}SELECT {probes} FROM ({match.table_sql})", match)
        component_fields = [
            StructField(component_name(i), field.dataType, True) for i, field in enumerate(types.fields)
        ]

    if plan.all_rows:
        passthrough = [f.name for f in input_fields]
    else:
        passthrough = list(plan.partition_columns)
    passthrough_fields = [StructField(n, by_name[n].dataType, True) for n in passthrough]
    return_type = StructType(passthrough_fields + component_fields)
    plan = dataclasses.replace(
        plan,
        spec=budgeted(spark, plan.spec),
        passthrough_columns=tuple(passthrough),
        component_types=tuple(f.dataType.simpleString() for f in component_fields),
    )
    timezone = spark.conf.get("spark.sql.session.timeZone")
    arrow_schema = pa.schema(
        [pa.field(f.name, _arrow_type(f.dataType, timezone), True) for f in return_type.fields]
    )
    function = arrow_udtf(_function_class(plan, arrow_schema, match.source), returnType=return_type)
    spark.udtf.register(match.function_name, function)


def _function_class(plan, arrow_schema: pa.Schema, source: str):
    """A UDTF handler class bound to one plan (pickled by value to the executors)."""

    class MatchRecognizeFunction:
        def __init__(self) -> None:
            from sparkcep.runtime.partition_runner import PartitionRunner

            self.runner = PartitionRunner(plan, arrow_schema)

        def eval(self, batch: pa.RecordBatch):
            try:
                yield from self.runner.feed(batch)
            except SparkCepError as error:
                raise _located(error, source) from None

        def terminate(self):
            try:
                yield from self.runner.finish()
            except SparkCepError as error:
                raise _located(error, source) from None

    return MatchRecognizeFunction


def _located(error: SparkCepError, source: str) -> SparkCepError:
    """A run-time error pointing at the clause that raised it (its AFTER MATCH SKIP or PATTERN)."""
    if error.line is not None:
        return error
    keyword = "AFTER MATCH SKIP" if error.code.startswith("SKIP_TO") else "PATTERN"
    found = re.search(re.escape(keyword).replace(r"\ ", r"\s+"), source, re.IGNORECASE)
    if found is None:
        return error
    line, column = line_and_column(source, found.start())
    return type(error)(error.code, error.message, line=line, column=column, sql=source,
                       length=len(keyword))


__all__ = ["register", "MatchRuntimeError"]
