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
import weakref

import pyarrow as pa

from sparkcep.errors import (AnalysisError, MatchRuntimeError, SparkCepError, for_worker,
                             line_and_column)
from sparkcep.compiler.chunks import chunk_count
from sparkcep.engines.budgets import BUDGETS
from sparkcep.engines.spec import MatchSpec
from sparkcep.evaluation import sql_types
from sparkcep.evaluation.binding import Semantics, bind
from sparkcep.evaluation.binding.string_coercion import string_target
from sparkcep.plan.aggregation import ComparisonCast, output_name
from sparkcep.runtime.subqueries import check_outer_references
from sparkcep.runtime.within_keys import WithinKeyTypeError, engine_window
from sparkcep.compiler.catalyst_path import MODES
from sparkcep.compiler.rewrite import PREFIX, ChunkOptions, CompiledMatch, component_name
from sparkcep.compiler.splice import quote_identifier


def _arrow_type(data_type, timezone: str):
    from pyspark.sql.pandas.types import to_arrow_type

    return to_arrow_type(data_type, timezone=timezone)


def _spark_error_to_user(error: Exception, match: CompiledMatch, query: str | None = None) -> SparkCepError:
    """A Spark error about the generated ``query``, restated against the user's SQL
    (``sparkcep.runtime.spark_errors``)."""
    from sparkcep.runtime.spark_errors import restate

    return restate(error, match, query)


def _probe(spark, query: str, match: CompiledMatch, args=None):
    try:
        # the statement's arguments bind parameter markers the clause contains
        frame = spark.sql(query) if args is None else spark.sql(query, args)
        schema = frame.schema
        # constant folding raises, before any row is read, what Catalyst would raise on every row
        # (e.g. a DEFINE comparing a DOUBLE column with 'cheap' under ANSI mode)
        query_execution = getattr(getattr(frame, "_jdf", None), "queryExecution", None)
        if query_execution is not None and not frame.isStreaming:  # a stream cannot be planned here
            query_execution().optimizedPlan()
        return schema
    except SparkCepError:
        raise
    except Exception as error:  # Spark's AnalysisException / ParseException
        raise _spark_error_to_user(error, match, query) from None


CHUNKS_CONF = "spark.sparkcep.withinChunks"
PATH_CONF = "spark.sparkcep.path"  # python | auto | catalyst (``sparkcep.compiler.catalyst_path``)


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
    return ChunkOptions(chunks, partitioned, partitions, _path_mode(spark))


def session_choice(spark, key: str, choices: tuple[str, ...], code: str) -> str:
    """The session's setting ``key``, one of ``choices`` (the first is the default, also for a
    session whose settings cannot be read, such as a pipeline's definitions), case and blanks
    ignored; any other value is the typed error ``code``."""
    try:
        setting = spark.conf.get(key, None)
    except Exception:  # a session without a readable conf
        setting = None
    mode = (setting or choices[0]).strip().lower()
    if mode not in choices:
        raise AnalysisError(code, f"{key} must be one of {', '.join(choices)}, not {setting!r}")
    return mode


def _path_mode(spark) -> str:
    """``spark.sparkcep.path``: ``python`` (the default), ``auto`` or ``catalyst``."""
    return session_choice(spark, PATH_CONF, MODES, "INVALID_PATH_SETTING")


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


def register(spark, match: CompiledMatch, args=None) -> None:
    """Register the function ``match.function_name`` on ``spark`` (``args``: the statement's
    ``SparkSession.sql`` arguments, for parameter markers in the clause)."""
    from pyspark.sql.functions import arrow_udtf

    plan, return_type, arrow_schema = typed_plan(spark, match, args)
    function = arrow_udtf(_function_class(plan, arrow_schema, match.source), returnType=return_type)
    spark.udtf.register(match.function_name, function)


def register_shared(spark, shared, matches, args=None) -> None:
    """Register a shared pass's function (``sparkcep.compiler.shared_pass``): each branch's
    plan prepared as its own clause's (types from Spark's analysis of its own input), reading
    the shared input's columns under their shared names; the output is the partition columns,
    the branch number and every branch's aggregates (NULL in the other branches' rows)."""
    from pyspark.sql.functions import arrow_udtf
    from pyspark.sql.types import IntegerType, StructField, StructType

    from sparkcep.compiler.shared_pass import BRANCH_COLUMN, shared_column

    by_name = {match.function_name: match for match in matches}
    plans, schemas = [], []
    fields: list = []
    timezone = spark.conf.get("spark.sql.session.timeZone")
    for number, (name, rename) in enumerate(zip(shared.branches, shared.renames)):
        plan, return_type, arrow_schema = typed_plan(spark, by_name[name], args)
        renamed = dict(rename)
        plan = dataclasses.replace(
            plan,
            bitmask_columns=tuple(renamed.get(c, c) for c in plan.bitmask_columns),
            value_columns=tuple(renamed.get(c, c) for c in plan.value_columns),
            order_key_column=renamed.get(plan.order_key_column, plan.order_key_column),
        )
        plans.append(plan)
        schemas.append(arrow_schema)
        keys = len(plan.passthrough_columns)
        if number == 0:
            fields += list(return_type.fields[:keys])
            fields.append(StructField(BRANCH_COLUMN, IntegerType(), True))
        fields += [StructField(shared_column(number, f.name), f.dataType, True)
                   for f in return_type.fields[keys:]]
    return_type = StructType(fields)
    arrow_schema = pa.schema(
        [pa.field(f.name, _arrow_type(f.dataType, timezone), True) for f in return_type.fields])
    source = by_name[shared.branches[0]].source
    function = arrow_udtf(_shared_class(plans, schemas, arrow_schema, source),
                          returnType=return_type)
    spark.udtf.register(shared.function_name, function)


def typed_plan(spark, match: CompiledMatch, args=None):
    """The clause's plan completed from Spark's analysis of its input (types, passthrough columns,
    budgets, WITHIN in key units), the Spark type of the rows it outputs, and the same as an
    Arrow schema. Nothing runs; a user mistake fails here, located in the clause."""
    from pyspark.sql.types import StructField, StructType

    from sparkcep.runtime.spark_errors import prepare

    prepare(spark)
    prefix = match.probe_prefix
    if match.subquery_spans:  # first: other probes would read the subqueries too
        # all the input's columns, also those the clause does not read
        relation = _probe(spark, f"{prefix}{match.relation_sql or 'SELECT * FROM (' + match.table_sql + ')'}",
                          match, args)
        check_outer_references(spark, match, relation.names, args)
    _check_truth_locals(spark, match, args)
    rows = _probe(spark, f"{prefix}SELECT * FROM ({match.table_sql})", match, args)
    input_fields = [f for f in rows.fields if not f.name.startswith(PREFIX)]
    by_name = {f.name: f for f in rows.fields}
    plan = match.plan
    _check_truth_columns(match, by_name)

    component_fields = []
    if plan.aggregation is not None:
        component_fields = _aggregation_fields(spark, match, by_name, args)
    elif plan.components:
        probes = ", ".join(f"{probe} AS `c{i}`" for i, probe in enumerate(match.component_probes))
        types = _probe(spark, f"{prefix}SELECT {probes} FROM ({match.table_sql})", match, args)
        component_fields = [
            StructField(component_name(i), field.dataType, True) for i, field in enumerate(types.fields)
        ]

    # PARTITION BY names as the user wrote them, resolved to the input's own column names the
    # way Spark resolves them (an exact match first, else case-insensitively).
    lower = {f.name.lower(): f.name for f in reversed(input_fields)}
    partition = tuple(n if n in by_name else lower.get(n.lower(), n) for n in plan.partition_columns)
    timezone = spark.conf.get("spark.sql.session.timeZone")
    semantics = Semantics(ansi=_ansi_enabled(spark), time_zone=timezone,
                          map_key_dedup_policy=_map_key_dedup_policy(spark),
                          exists_three_valued=_setting(
                              spark, "spark.sql.legacy.followThreeValuedLogicInArrayExists", "true").lower() != "false",
                          java_version=_java_version(spark),
                          null_comparison_allowed=_setting(
                              spark, "spark.sql.legacy.allowNullComparisonResultInArraySort", "false").lower() == "true")
    plan = _bound(plan, by_name, semantics, match.source)
    plan = _comparison_casts(plan, by_name, semantics)
    plan = _within_in_key_units(plan, by_name, match)
    plan = _uncertain_in_points(plan, by_name, match)

    if plan.all_rows and plan.aggregation is None:
        passthrough = [f.name for f in input_fields]
    else:
        passthrough = list(partition)
    passthrough_fields = [StructField(n, by_name[n].dataType, True) for n in passthrough]
    return_type = StructType(passthrough_fields + component_fields)
    plan = dataclasses.replace(
        plan,
        partition_columns=partition,
        spec=budgeted(spark, plan.spec),
        passthrough_columns=tuple(passthrough),
        component_types=tuple(f.dataType.simpleString() for f in component_fields),
    )
    arrow_schema = pa.schema(
        [pa.field(f.name, _arrow_type(f.dataType, timezone), True) for f in return_type.fields]
    )
    return plan, return_type, arrow_schema


def _aggregation_fields(spark, match: CompiledMatch, fields_by_name: dict, args) -> list:
    """The output columns of a pushed-down aggregation (``sparkcep.compiler.aggregation_pushdown``),
    each in the type Spark gives the same aggregate over the measure's values: COUNT BIGINT, SUM
    and AVG as Spark analyses ``sum``/``avg`` of the value column, MIN/MAX the value's type."""
    from pyspark.sql.types import LongType, StructField

    aggregation = match.plan.aggregation
    fields: list = []
    probes: list[tuple[int, str]] = []
    per_match = []  # per-match SUM/COUNT measures: their value per match, over the input
    for index, output in enumerate(aggregation.outputs):
        if output.function in ("count_star", "count"):
            fields.append(StructField(output_name(index), LongType(), True))
            continue
        measure = aggregation.measures[output.measure]
        column = match.plan.value_columns[measure.column]
        if measure.which in ("sum", "count"):
            # the type Spark gives the aggregate of the per-match SUM/COUNT (also MIN/MAX: the
            # per-match value's type)
            inner = f"{measure.which}({quote_identifier(column)})"
            if inner not in per_match:
                per_match.append(inner)
            probes.append((index, f"{output.function}(`s{per_match.index(inner)}`)"))
            fields.append(None)
            continue
        if output.function in ("min", "max"):
            fields.append(StructField(output_name(index), fields_by_name[column].dataType, True))
            continue
        probes.append((index, f"{output.function}({quote_identifier(column)})"))
        fields.append(None)
    if probes:
        select = ", ".join(f"{sql} AS `c{i}`" for i, (_, sql) in enumerate(probes))
        source = f"({match.table_sql})"
        if per_match:  # the per-match values as columns (a window aggregate has its type)
            values = ", ".join(f"{sql} OVER () AS `s{i}`" for i, sql in enumerate(per_match))
            source = f"(SELECT *, {values} FROM {source})"
        types = _probe(spark, f"{match.probe_prefix}SELECT {select} FROM {source}", match, args)
        for (index, _), field in zip(probes, types.fields):
            fields[index] = StructField(output_name(index), field.dataType, True)
    return fields


def _check_truth_columns(match: CompiledMatch, fields: dict) -> None:
    """A DEFINE condition that is a value of a row (``DEFINE B AS A.flag``) must be BOOLEAN
    (ISO/IEC 19075-5, 4.11: a <search condition>); its type is known only now."""
    from pyspark.sql.types import BooleanType, NullType

    for column, start, end in match.truth_columns:
        field = fields.get(match.plan.value_columns[column])
        if field is None or isinstance(field.dataType, (BooleanType, NullType)):
            continue
        raise AnalysisError.at_offset(
            "DEFINE_NOT_BOOLEAN",
            f"a DEFINE condition must be boolean; this one is {field.dataType.simpleString()}",
            match.source, start, end - start,
        )


def _check_truth_locals(spark, match: CompiledMatch, args=None) -> None:
    """Row-local DEFINE conjuncts whose type only Spark knows must be BOOLEAN (4.11); checked
    before the masks are built from them, so the error points at the condition."""
    if not match.truth_probe:
        return
    from pyspark.sql.types import BooleanType, NullType

    schema = _probe(spark, f"{match.probe_prefix}{match.truth_probe}", match, args)
    for field, (start, end) in zip(schema.fields, match.truth_spans):
        if not isinstance(field.dataType, (BooleanType, NullType)):
            raise AnalysisError.at_offset(
                "DEFINE_NOT_BOOLEAN",
                f"a DEFINE condition must be boolean; this one is {field.dataType.simpleString()}",
                match.source, start, end - start,
            )


def _within_in_key_units(plan, fields_by_name, match: CompiledMatch):
    """The plan with its WITHIN window in the units of the ORDER BY key's type, which only Spark's
    analysis tells (``sparkcep.runtime.within_keys``); a window the key type cannot take is a
    WITHIN_KEY_TYPE error at WITHIN, before any row is read."""
    if plan.order_key_column is None or plan.spec.within is None:
        return plan
    key = fields_by_name[plan.order_key_column].dataType.simpleString()
    try:
        window = engine_window(plan.within_kind, plan.spec.within, key, match.order_key_text or "the key")
    except WithinKeyTypeError as error:
        start = match.within_span[0] if match.within_span else 0
        raise AnalysisError.at_offset("WITHIN_KEY_TYPE", str(error), match.source, start,
                                      len("WITHIN")) from None
    return dataclasses.replace(plan, spec=dataclasses.replace(plan.spec, within=window))


def _uncertain_in_points(plan, fields_by_name, match: CompiledMatch):
    """With UNCERTAIN TIME: the plan with the time points, the granularity and the WITHIN window
    in points, from the types Spark gives lo and hi (``sparkcep.runtime.uncertain_times``); a type
    that does not fit is UNCERTAIN_TIME_TYPE, located at the clause it is about."""
    if plan.uncertain_time is None:
        return plan
    from sparkcep.runtime.uncertain_times import UncertainTimeTypeError, in_points

    uncertain = plan.uncertain_time
    types = [fields_by_name[name].dataType.simpleString()
             for name in (uncertain.lo_column, uncertain.hi_column)]
    try:
        return in_points(plan, *types)
    except UncertainTimeTypeError as error:
        span = uncertain.clause_span or (0, 1)
        if error.where == "within" and match.within_span is not None:
            span = (match.within_span[0], match.within_span[0] + len("WITHIN"))
        elif error.where == "granularity":
            at = match.source.upper().find("GRANULARITY", span[0], span[1])
            span = (at, span[1]) if at >= 0 else span
        else:
            span = (span[0], span[0] + len("UNCERTAIN TIME"))
        raise AnalysisError.at_offset("UNCERTAIN_TIME_TYPE", str(error), match.source, span[0],
                                      span[1] - span[0]) from None


def _setting(spark, key: str, default: str) -> str:
    """The session's setting ``key`` as written, trimmed; ``default`` when unset or unreadable."""
    try:
        return str(spark.conf.get(key, default)).strip()
    except Exception:  # pragma: no cover - a session without a readable conf
        return default


def _ansi_enabled(spark) -> bool:
    return _setting(spark, "spark.sql.ansi.enabled", "true").lower() == "true"


_JAVA_VERSIONS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _java_version(spark) -> int | None:
    """The feature version of the session's JVM (``java.specification.version``: 17, 21, ...),
    which the digits of Java's ``Double.toString`` depend on (``java_double_text``): the
    driver's JVM when PySpark reaches it, else (Spark Connect) Spark's own ``java_method`` call
    in one query; read once per session. The driver and the executors are assumed to run the
    same Java. None when it cannot be read (what depends on it is then refused)."""
    try:
        return _JAVA_VERSIONS[spark]
    except (KeyError, TypeError):
        pass
    text = None
    try:
        text = spark.sparkContext._jvm.java.lang.System.getProperty("java.specification.version")
    except Exception:
        try:
            text = spark.sql("SELECT java_method('java.lang.System', 'getProperty', "
                             "'java.specification.version')").first()[0]
        except Exception:
            text = None
    version = _feature_version(text)
    try:
        _JAVA_VERSIONS[spark] = version
    except TypeError:  # pragma: no cover - a session object without weak references
        pass
    return version


def _feature_version(text) -> int | None:
    """``17`` for "17", ``8`` for "1.8"; None for anything else."""
    parts = str(text).split(".") if text is not None else []
    if parts and parts[0] == "1" and len(parts) > 1:
        parts = parts[1:]
    return int(parts[0]) if parts and parts[0].isdigit() else None


def _map_key_dedup_policy(spark) -> str:
    """``spark.sql.mapKeyDedupPolicy``: EXCEPTION (Spark's default) or LAST_WIN, for ``map(...)``
    and ``map_from_arrays`` between rows (``collection_builders``)."""
    return _setting(spark, "spark.sql.mapKeyDedupPolicy", "EXCEPTION").upper()


def _bound(plan, fields_by_name, semantics: Semantics, source: str):
    """The plan with its match-dependent expressions typed from Spark's analysis of the value
    columns (``sparkcep.evaluation.binding``): a type mistake fails here, before any row is read,
    located at the expression."""
    value_types = [
        fields_by_name[name].dataType.simpleString() if name in fields_by_name else None
        for name in plan.value_columns
    ]
    # Spark's analysis knows these never NULL (a constant, a NOT NULL column): IS NULL over them
    # is folded as Spark folds it
    never_null = frozenset(i for i, name in enumerate(plan.value_columns)
                           if name in fields_by_name and not fields_by_name[name].nullable)
    conditions = {v: bind(e, value_types, semantics, source, never_null) for v, e in plan.conditions.items()}
    components = tuple(bind(c, value_types, semantics, source, never_null) for c in plan.components)
    return dataclasses.replace(plan, conditions=conditions, components=components)


def _comparison_casts(plan, fields_by_name, semantics: Semantics):
    """A pushed-down aggregation with the session's ANSI mode (``AggregationPlan.ansi``), and, when
    its comparisons between rows have sides of different types, the common type Spark compares
    each such pair in (``AggregationPlan.casts``; a STRING with another type as
    ``binding.string_coercion`` says). A pair without one was already refused, located, by
    ``_bound`` (the enumerating path refuses it alike)."""
    aggregation = plan.aggregation
    if aggregation is None:
        return plan
    if aggregation.ansi != semantics.ansi:
        aggregation = dataclasses.replace(aggregation, ansi=semantics.ansi)
        plan = dataclasses.replace(plan, aggregation=aggregation)
    if not aggregation.comparisons:
        return plan
    def type_of(column: int) -> str:
        return fields_by_name[plan.value_columns[column]].dataType.simpleString()

    casts = []
    for c in aggregation.comparisons:
        left, right = type_of(c.column), type_of(c.ref.column)
        common = sql_types.common_type([sql_types.parse(left), sql_types.parse(right)],
                                       ansi=semantics.ansi)
        if common is None and (left == "string") != (right == "string"):  # Spark parses the STRING
            common = string_target(sql_types.parse(right if left == "string" else left), "comparison",
                                   semantics.ansi)
        if left == right or common is None:
            casts.append(None)
            continue
        casts.append(ComparisonCast(left, right, str(common), semantics.ansi, semantics.time_zone))
    return dataclasses.replace(plan, aggregation=dataclasses.replace(aggregation, casts=tuple(casts)))


def _function_class(plan, arrow_schema: pa.Schema, source: str):
    """A UDTF handler class bound to one plan (pickled by value to the executors)."""

    class MatchRecognizeFunction:
        def __init__(self) -> None:
            if plan.aggregation is not None:
                from sparkcep.runtime.aggregation_runner import AggregationRunner

                self.runner = AggregationRunner(plan, arrow_schema)
            else:
                from sparkcep.runtime.partition_runner import PartitionRunner

                self.runner = PartitionRunner(plan, arrow_schema)

        def eval(self, batch: pa.RecordBatch):
            try:
                yield from self.runner.feed(batch)
            except SparkCepError as error:
                raise for_worker(_located(error, source, plan)) from None

        def terminate(self):
            try:
                yield from self.runner.finish()
            except SparkCepError as error:
                raise for_worker(_located(error, source, plan)) from None

    return MatchRecognizeFunction


def _shared_class(plans, schemas, arrow_schema: pa.Schema, source: str):
    """A UDTF handler class running several clauses' aggregations over one partition's rows."""

    class SharedAggregationFunction:
        def __init__(self) -> None:
            from sparkcep.runtime.aggregation_runner import SharedAggregationRunner

            self.runner = SharedAggregationRunner(plans, schemas, arrow_schema)

        def eval(self, batch: pa.RecordBatch):
            try:
                yield from self.runner.feed(batch)
            except SparkCepError as error:
                raise for_worker(_located(error, source, plans[0])) from None

        def terminate(self):
            try:
                yield from self.runner.finish()
            except SparkCepError as error:
                raise for_worker(_located(error, source, plans[0])) from None

    return SharedAggregationFunction


def _located(error: SparkCepError, source: str, plan=None) -> SparkCepError:
    """A run-time error pointing at the part of the clause that raised it."""
    if error.line is not None:
        return error
    span = getattr(error, "span", None)
    if span is not None and 0 <= span[0] < span[1] <= len(source):
        line, column = line_and_column(source, span[0])
        return type(error)(error.code, error.message, line=line, column=column, sql=source,
                           length=span[1] - span[0])
    found = _run_time_anchor(error.code, source, plan)
    if found is None:
        return error
    line, column = line_and_column(source, found.start())
    return type(error)(error.code, error.message, line=line, column=column, sql=source,
                       length=len(found.group(0)))


def _run_time_anchor(code: str, source: str, plan) -> re.Match | None:
    """Where a run-time error points: AFTER MATCH SKIP for the SKIP_TO codes, PATTERN otherwise."""
    if code.startswith("SKIP_TO"):
        return re.search(r"\bAFTER\s+MATCH\s+SKIP\b", source, re.IGNORECASE)
    return re.search(r"\bPATTERN\b", source, re.IGNORECASE)


__all__ = ["register", "register_shared", "MatchRuntimeError"]
