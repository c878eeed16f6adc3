"""Rewriting a statement: every MATCH_RECOGNIZE clause becomes a call of a registered function.

The statement text is copied as the user wrote it; only the span of each ``<relation>
MATCH_RECOGNIZE (...) [AS alias]`` is replaced, by a subquery over a Python table function:

    (SELECT <output columns> FROM sparkcep_mr_<hash>(
        TABLE(SELECT __sparkcep_in.*, <DEFINE masks>, <value columns>, <order key>
              FROM <relation> AS __sparkcep_in)
        PARTITION BY (<partition columns>) ORDER BY (<order items>))) [AS alias]

Catalyst scans, shuffles and sorts the rows and computes the masks (the row-local part of each
DEFINE) and the value columns (the arguments of navigation and aggregates, PREV/NEXT as
lag/lead); the function runs the matching engine and returns the passthrough columns plus one
column per match-dependent measure component; the outer projection computes each measure with
the user's own expression text. Compilation is pure: no SparkSession is needed. The column types
the function returns are learned when it is registered (``sparkcep.runtime``).
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass, field

from sqlglot import exp

from sparkcep import dialect
from sparkcep.dialect import expressions as dx
from sparkcep.compiler import chunks as chunking_
from sparkcep.plan import expressions as p
from sparkcep.engines import rowpattern as rp
from sparkcep.compiler.analysis import Analysis, analyze
from sparkcep.errors import AnalysisError
from sparkcep.compiler.lowering import Lowering, ValueColumns
from sparkcep.engines.spec import MatchSpec, RowsPerMatch
from sparkcep.compiler.splice import Splicer, quote_identifier
from sparkcep.compiler.unrolling import unroll
from sparkcep.plan.match_plan import MASK_BITS, MatchPlan

PREFIX = "__sparkcep_"
INPUT_ALIAS = f"{PREFIX}in"
ORDER_KEY = f"{PREFIX}k"


def mask_name(index: int) -> str:
    return f"{PREFIX}m{index}"


def _bitmask_sql(masks: list[str | None]) -> list[str]:
    """The SQL of the bitmask columns: bit ``v % MASK_BITS`` of column ``v // MASK_BITS`` says
    whether row-local condition ``masks[v]`` holds (always set where it is None, i.e. TRUE).
    The column is the smallest integer type that holds its bits."""
    columns = []
    for low in range(0, len(masks), MASK_BITS):
        group = masks[low:low + MASK_BITS]
        constant = sum(1 << bit for bit, mask in enumerate(group) if mask is None)
        terms = [f"IF({mask}, {1 << bit}L, 0L)" for bit, mask in enumerate(group) if mask is not None]
        if constant or not terms:
            terms.append(f"{constant}L")
        width = len(group)
        kind = "TINYINT" if width <= 7 else "SMALLINT" if width <= 15 else "INT" if width <= 31 else "BIGINT"
        columns.append(f"CAST({' + '.join(terms)} AS {kind})")
    return columns


def value_name(column: int) -> str:
    return f"{PREFIX}v{column}"


def component_name(index: int) -> str:
    return f"{PREFIX}c{index}"


@dataclass(frozen=True)
class CompiledMatch:
    """One MATCH_RECOGNIZE clause, compiled.

    Attributes:
        function_name: the name the function is registered under (a hash of the compiled plan).
        plan: the executor-side plan; column types and passthrough columns are filled in at
            registration.
        table_sql: the query feeding the function (with inner clauses already rewritten).
        probe_prefix: ``WITH ...`` clauses the table query may refer to, or "".
        component_probes: per measure component, a Spark SQL aggregate over ``table_sql`` whose
            result type is the component's type.
    """

    function_name: str
    plan: MatchPlan
    table_sql: str
    probe_prefix: str
    component_probes: tuple[str, ...]
    source: str = ""


@dataclass(frozen=True)
class CompiledStatement:
    sql: str
    matches: tuple[CompiledMatch, ...] = field(default=())


@dataclass(frozen=True)
class ChunkOptions:
    """Splitting eligible clauses into chunks of their WITHIN key (``sparkcep.compiler.chunks``).

    Attributes:
        chunks: the number of chunks per partition (>= 2), or None: never chunk.
        partitioned: also chunk clauses with PARTITION BY (by default only a clause without
            PARTITION BY, a single partition, is chunked).
        shuffle_partitions: the session's number of shuffle partitions, when known: chunk ids
            are then chosen to land in distinct partitions (``chunking.spread_ids``).
    """

    chunks: int | None = None
    partitioned: bool = False
    shuffle_partitions: int | None = None


def compile_statement(sql: str, chunking: ChunkOptions | None = None) -> CompiledStatement:
    """Compile one statement; statements without MATCH_RECOGNIZE come back unchanged.

    ``chunking`` (default: none) splits eligible clauses into chunks matched in parallel; the
    runtime chooses it from the session (``sparkcep.runtime.chunk_options``), so compilation
    stays pure."""
    if not dialect.contains_match_recognize(sql):
        return CompiledStatement(sql)
    tree = dialect.parse_one(sql)
    clauses = [n for n in tree.walk(bfs=False) if isinstance(n, dx.MatchRecognize)]
    # Post-order: a clause nested in another clause's input is rewritten (and registered) first.
    clauses.sort(key=lambda n: -_depth(n))
    splicer = Splicer(sql)
    compiled: list[CompiledMatch] = []
    for clause in clauses:
        match, replacement = _compile_clause(clause, sql, splicer, chunking)
        start, end = dialect.span(clause)
        splicer.replace(start, end, replacement)
        compiled.append(match)
    return CompiledStatement(splicer.render(), tuple(compiled))


def _depth(node: exp.Expression) -> int:
    depth = 0
    while node.parent is not None:
        node, depth = node.parent, depth + 1
    return depth


def _plain_text(node: exp.Expression, sql: str, splicer: Splicer) -> str:
    """The node's text with any column qualifiers dropped (inside the generated query the input
    relation is called ``__sparkcep_in``)."""
    local = Splicer(sql, [e for e in splicer.edits])
    for column in node.find_all(exp.Column):
        if column.args.get("table") is not None and not isinstance(column.this, exp.Star):
            local.replace(*dialect.span(column), quote_identifier(column.this.name))
    return local.render(*dialect.span(node))


def _relation_text(relation: exp.Expression, sql: str, splicer: Splicer) -> str:
    """The input relation without its alias, with inner rewrites applied."""
    if isinstance(relation, exp.Table) and isinstance(relation.this, exp.Identifier):
        parts = [relation.args.get(k) for k in ("catalog", "db", "this")]
        return ".".join(quote_identifier(part.name) for part in parts if part is not None)
    if isinstance(relation, exp.Subquery):
        inner = relation.this
        return "(" + splicer.render(*dialect.span(inner)) + ")"
    alias = relation.args.get("alias")
    start, end = dialect.span(relation)
    if alias is not None:
        end = dialect.span(alias)[0]
        text = splicer.render(start, end).rstrip()
        if text.upper().endswith(" AS"):
            text = text[:-3]
        return text
    return splicer.render(start, end)


def _cte_text(cte: exp.CTE, splicer: Splicer) -> str:
    alias = cte.args["alias"]
    columns = alias.columns
    name = quote_identifier(alias.name)
    if columns:
        name += "(" + ", ".join(quote_identifier(c.name) for c in columns) + ")"
    return f"{name} AS ({splicer.render(*dialect.span(cte.this))})"


def _visible_ctes(clause: exp.Expression, splicer: Splicer) -> str:
    """``WITH ...`` holding the CTEs the clause's input may refer to, rewritten."""
    texts: list[str] = []
    child, node = clause, clause.parent
    while node is not None:
        with_ = node.args.get("with_") if isinstance(node, exp.Expression) else None
        if with_ is None and isinstance(node, exp.Expression):
            with_ = node.args.get("with")
        if isinstance(with_, exp.With) and child is not with_:
            texts = [_cte_text(cte, splicer) for cte in with_.expressions] + texts
        elif isinstance(node, exp.With):
            ctes = node.expressions
            position = ctes.index(child) if child in ctes else len(ctes)
            texts = [_cte_text(cte, splicer) for cte in ctes[:position]] + texts
        child, node = node, node.parent
    return ("WITH " + ", ".join(texts) + " ") if texts else ""


_INTERVAL_MICROS = {
    "MICROSECOND": 1, "MICROSECONDS": 1,
    "MILLISECOND": 1_000, "MILLISECONDS": 1_000,
    "SECOND": 1_000_000, "SECONDS": 1_000_000,
    "MINUTE": 60_000_000, "MINUTES": 60_000_000,
    "HOUR": 3_600_000_000, "HOURS": 3_600_000_000,
    "DAY": 86_400_000_000, "DAYS": 86_400_000_000,
    "WEEK": 7 * 86_400_000_000, "WEEKS": 7 * 86_400_000_000,
}


def _within(analysis: Analysis) -> tuple[float | int | None, str | None]:
    within = analysis.within
    if within is None:
        return None, None
    value = within.this
    scope = analysis.scope
    if isinstance(value, exp.Interval):
        unit = value.args.get("unit")
        unit_name = unit.name.upper() if unit is not None else ""
        amount = value.this
        if unit_name not in _INTERVAL_MICROS or not isinstance(amount, exp.Literal):
            raise scope.error(
                "WITHIN_UNSUPPORTED_INTERVAL",
                "WITHIN takes an interval of one fixed-length unit (WEEK, DAY, HOUR, MINUTE, "
                "SECOND, MILLISECOND, MICROSECOND), e.g. INTERVAL '10' MINUTE",
                within,
            )
        try:
            number = float(amount.this)
        except ValueError:
            raise scope.error(
                "WITHIN_UNSUPPORTED_INTERVAL", "the WITHIN interval must be a number", within
            ) from None
        if number <= 0:
            raise scope.error("WITHIN_NOT_POSITIVE", "the WITHIN window must be positive", within)
        return round(number * _INTERVAL_MICROS[unit_name]), "interval"
    if isinstance(value, exp.Literal) and not value.is_string:
        number = float(value.this)
        if number <= 0:
            raise scope.error("WITHIN_NOT_POSITIVE", "the WITHIN window must be positive", within)
        return (int(number) if number.is_integer() else number), "number"
    if isinstance(value, exp.Neg):
        raise scope.error("WITHIN_NOT_POSITIVE", "the WITHIN window must be positive", within)
    raise scope.error(
        "WITHIN_UNSUPPORTED_INTERVAL",
        "WITHIN takes an INTERVAL literal or a positive number",
        within,
    )


def _within_key_sql(item: exp.Expression, sql: str, splicer: Splicer, within_kind: str) -> str:
    """The WITHIN key of a row: a number whose differences are distances in ORDER BY order.

    The first ORDER BY item's expression (without ASC/DESC/NULLS) is converted exactly: an
    INTERVAL window measures TIMESTAMP keys in epoch microseconds (instants), TIMESTAMP_NTZ keys
    in wall-clock microseconds and DATE keys in whole days, neither through the session time
    zone; a numeric window keeps the key's own type (no DOUBLE: BIGINT keys stay exact above
    2^53). Under DESC the key is negated, so the distance from a match's first row is still the
    absolute difference of the keys (docs/semantics.md, "WITHIN")."""
    descending = isinstance(item, exp.Ordered) and bool(item.args.get("desc"))
    inner = item.this if isinstance(item, exp.Ordered) else item
    x = f"({_plain_text(inner, sql, splicer)})"
    if within_kind == "interval":
        day = "86400000000"
        days = f"CAST(unix_date(CAST({x} AS DATE)) AS BIGINT) * {day}"
        key = (
            f"CASE typeof({x}) WHEN 'date' THEN {days} "
            f"WHEN 'timestamp_ntz' THEN {days} + CAST(hour({x}) AS BIGINT) * 3600000000 "
            f"+ CAST(minute({x}) AS BIGINT) * 60000000 + CAST(extract(SECOND FROM {x}) * 1000000 AS BIGINT) "
            f"ELSE unix_micros(CAST({x} AS TIMESTAMP)) END"
        )
    else:
        key = x
    return f"(- ({key}))" if descending else f"({key})"


def _component_probe(component: p.Expression, value_columns: tuple[str, ...]) -> str:
    """An aggregate over the function's input whose type is the component's output type."""
    if isinstance(component, p.Navigation):
        return f"first({quote_identifier(value_columns[component.column])})"
    if isinstance(component, p.Aggregate):
        argument = "1" if component.column is None else quote_identifier(value_columns[component.column])
        return f"{component.function}({argument})"
    if isinstance(component, p.MatchNumber):
        return "max(CAST(1 AS BIGINT))"
    if isinstance(component, p.Classifier):
        return "max(CAST(NULL AS STRING))"
    raise TypeError(component)


def _compile_clause(
    clause: dx.MatchRecognize, sql: str, splicer: Splicer, chunking: ChunkOptions | None = None
) -> tuple[CompiledMatch, str]:
    from sparkcep.engines import selection as engines  # the engines' own static checks

    analysis = analyze(clause, sql)
    scope = analysis.scope

    partition_sql = [_plain_text(item, sql, splicer) for item in analysis.partition_by]
    order_sql = [_plain_text(item, sql, splicer) for item in analysis.order_by]
    window = None
    if order_sql:
        window = (f"PARTITION BY {', '.join(partition_sql)} " if partition_sql else "") + (
            f"ORDER BY {', '.join(order_sql)}"
        )

    values = ValueColumns()
    lowering = Lowering(scope, window, values)
    source_pattern = analysis.pattern, rp.to_text(analysis.pattern, list(scope.variables))
    unroll(analysis, lowering)  # LAST(X.e, k) in X's own DEFINE -> lag(e, k) where exact
    masks: list[str | None] = []
    conditions: dict[int, p.Expression] = {}
    for var in range(len(scope.variables)):
        condition = analysis.definitions.get(var)
        if condition is None:
            masks.append(None)
            continue
        mask, dependent = lowering.lower_define(var, condition)
        masks.append(mask)
        if dependent is not None:
            conditions[var] = dependent

    one_row = analysis.rows_per_match is RowsPerMatch.ONE
    components: list[p.Expression] = []
    measure_sql = [
        (name, lowering.lower_measure(expression, components, one_row))
        for name, expression, _ in analysis.measures
    ]

    within, within_kind = _within(analysis)
    spec = MatchSpec(
        pattern=analysis.pattern,
        variable_names=tuple(scope.variables),
        skip=analysis.skip,
        skip_to=analysis.skip_to,
        rows_per_match=analysis.rows_per_match,
        strategy=analysis.strategy,
        within=within,
        source_pattern=None if analysis.pattern == source_pattern[0] else source_pattern[1],
    )
    reason = engines.unsupported_reason(spec)
    if reason is not None:
        raise scope.error("UNSUPPORTED_PATTERN_FOR_STRATEGY", reason, clause.args["pattern"])

    # The query feeding the function.
    if one_row:
        # ONE ROW PER MATCH outputs no input columns but the partition key: pass only the columns
        # the partitioning and ordering refer to (less data through Arrow to Python).
        needed: list[str] = []
        for item in [*analysis.partition_by, *analysis.order_by]:
            for column in item.find_all(exp.Column):
                if column.name not in needed:
                    needed.append(column.name)
        select = [f"{INPUT_ALIAS}.{quote_identifier(name)}" for name in needed]
    else:
        select = [f"{INPUT_ALIAS}.*"]
    bitmasks = _bitmask_sql(masks)
    select += [f"{sql} AS {quote_identifier(mask_name(i))}" for i, sql in enumerate(bitmasks)]
    # A value column that is just an input column already passed on is read under its own name.
    passed = needed if one_row else []
    value_columns = [
        next((name for name in passed if text == f"({quote_identifier(name)})"), value_name(i))
        for i, text in enumerate(values.texts)
    ]
    select += [f"{text} AS {quote_identifier(name)}"
               for i, (text, name) in enumerate(zip(values.texts, value_columns)) if name == value_name(i)]
    if within_kind is not None:
        select.append(f"{_within_key_sql(analysis.order_by[0], sql, splicer, within_kind)} AS {quote_identifier(ORDER_KEY)}")
    if not select:
        select.append(f"true AS {quote_identifier(PREFIX + 'row')}")  # a SELECT needs a column
    relation = _relation_text(clause.this, sql, splicer)
    table_sql = f"SELECT {', '.join(select)} FROM {relation} AS {INPUT_ALIAS}"

    partition_names = tuple(item.name for item in analysis.partition_by)
    order_items = [item for item in analysis.order_by]
    order_names = tuple(
        o.this.name for o in order_items if isinstance(o.this, exp.Column)
        and o.this.name not in partition_names
    )
    all_rows = not one_row
    plan = MatchPlan(
        spec=spec,
        conditions=conditions,
        components=tuple(components),
        all_rows=all_rows,
        output_empty_matches=analysis.rows_per_match is not RowsPerMatch.ALL_OMIT_EMPTY,
        output_unmatched_rows=analysis.rows_per_match is RowsPerMatch.ALL_WITH_UNMATCHED,
        bitmask_columns=tuple(mask_name(i) for i in range(len(bitmasks))),
        row_local=tuple(mask is not None for mask in masks),
        value_columns=tuple(value_columns),
        order_key_column=ORDER_KEY if within_kind else None,
        partition_columns=partition_names,
        passthrough_columns=partition_names,
    )
    digest_text = repr((plan, table_sql, measure_sql))
    input_sql, keys = table_sql, [quote_identifier(n) for n in partition_names]
    chunked = _chunked_input(analysis, plan, table_sql, within_kind, chunking)
    if chunked is not None:
        input_sql, plan = chunked, dataclasses.replace(plan, owned_column=chunking_.OWNED_COLUMN)
        keys.append(quote_identifier(chunking_.CHUNK_COLUMN))
        digest_text += input_sql
    digest = hashlib.sha256(digest_text.encode()).hexdigest()[:16]
    function_name = f"sparkcep_mr_{digest}"

    distribution = f"PARTITION BY ({', '.join(keys)})" if keys else "WITH SINGLE PARTITION"
    ordering = f" ORDER BY ({', '.join(order_sql)})" if order_sql else ""
    call = f"{function_name}(TABLE({input_sql}) {distribution}{ordering})"

    output = [quote_identifier(n) for n in partition_names]
    if all_rows:
        output += [quote_identifier(n) for n in order_names]
    output += [f"{text} AS {quote_identifier(name)}" for name, text in measure_sql]
    if all_rows:
        hidden = [*partition_names, *order_names] + [component_name(i) for i in range(len(components))]
        output.append(f"* EXCEPT ({', '.join(quote_identifier(n) for n in hidden)})" if hidden else "*")
    if not output:
        raise scope.error(
            "NO_OUTPUT_COLUMNS",
            "ONE ROW PER MATCH without PARTITION BY needs at least one measure",
            clause,
        )
    replacement = f"(SELECT {', '.join(output)} FROM {call})"
    alias = clause.args.get("alias")
    if alias is not None:
        alias_text = splicer.render(*dialect.span(alias)).strip()
        if alias_text[:2].upper() == "AS" and alias_text[2:3].isspace():
            alias_text = alias_text[2:].strip()
        replacement += " AS " + alias_text

    compiled = CompiledMatch(
        function_name=function_name,
        plan=plan,
        table_sql=table_sql,
        probe_prefix=_visible_ctes(clause, splicer),
        component_probes=tuple(_component_probe(c, plan.value_columns) for c in components),
        source=sql,
    )
    return compiled, replacement


def _chunked_input(
    analysis: Analysis, plan: MatchPlan, table_sql: str, within_kind: str | None,
    chunking: ChunkOptions | None,
) -> str | None:
    """The chunked input query when ``chunking`` asks for it and the clause is eligible."""
    if chunking is None or chunking.chunks is None or chunking.chunks < 2 or within_kind is None:
        return None
    if analysis.partition_by and not chunking.partitioned:
        return None
    first = analysis.order_by[0]
    ascending = not (isinstance(first, exp.Ordered) and first.args.get("desc"))
    reason = chunking_.ineligible_reason(
        plan.spec, plan.components, plan.conditions.values(), ascending
    )
    if reason is not None:
        return None
    return chunking_.chunked_table_sql(
        table_sql, plan.partition_columns, plan.spec.within, within_kind, chunking.chunks,
        unmatched=plan.output_unmatched_rows, partitions=chunking.shuffle_partitions,
    )


def transpile(sql: str) -> str:
    """The Spark SQL for ``sql`` (functions it calls must be registered before it runs)."""
    return compile_statement(sql).sql


__all__ = ["ChunkOptions", "CompiledMatch", "CompiledStatement", "compile_statement", "transpile", "AnalysisError"]
