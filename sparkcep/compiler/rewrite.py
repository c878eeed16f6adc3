"""Rewriting a statement: every MATCH_RECOGNIZE clause becomes a call of a registered function.

The statement text is copied as the user wrote it; only the span of each ``<relation>
MATCH_RECOGNIZE (...) [AS alias]`` is replaced, by a subquery over a Python table function:

    (SELECT <output columns> FROM sparkcep_mr_<hash>(
        TABLE(SELECT __sparkcep_in.*, <DEFINE masks>, <value columns>, <order key>
              FROM (SELECT * FROM <relation as written>) AS __sparkcep_in)
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
from sparkcep.compiler import catalyst_path
from sparkcep.compiler import chunks as chunking_
from sparkcep.compiler.aggregation_pushdown import Pushdown, pushdown
from sparkcep.plan import expressions as p
from sparkcep.engines import rowpattern as rp
from sparkcep.compiler.analysis import INTERVAL_MICROS, Analysis, analyze
from sparkcep.errors import AnalysisError
from sparkcep.compiler.lowering import (
    LATE_ROW_COLUMN,
    RELEASE_COLUMN,
    Lowering,
    ValueColumns,
    shift_argument_name,
    shift_name,
)
from sparkcep.engines.spec import MatchSpec, RowsPerMatch
from sparkcep.compiler.scoping import check_input_name_hidden, check_subqueries, subquery_spans
from sparkcep.compiler import streaming_rules
from sparkcep.compiler.shared_pass import share
from sparkcep.compiler.splice import Splicer, aliased as _aliased, depth, quote_identifier
from sparkcep.compiler.unrolling import unroll
from sparkcep.compiler import window as window_
from sparkcep.engines.spec import PatternWindow
from sparkcep.plan.aggregation import output_name as aggregation_output_name
from sparkcep.plan.match_plan import MASK_BITS, MatchPlan
from sparkcep.plan.uncertain_time import UncertainTimePlan

PREFIX = "__sparkcep_"
INPUT_ALIAS = f"{PREFIX}in"
ORDER_KEY = f"{PREFIX}k"
TIME_LO = f"{PREFIX}tlo"  # UNCERTAIN TIME (lo, hi): each row's lo and hi as Spark computes them
TIME_HI = f"{PREFIX}thi"


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
    # (value column, start, end in ``source``): value columns a DEFINE reads as its condition;
    # registration checks that Spark types them BOOLEAN (ISO/IEC 19075-5, 4.11)
    truth_columns: tuple[tuple[int, int, int], ...] = ()
    # a query over the input relation giving the row-local DEFINE conjuncts whose type only
    # Spark knows (``DEFINE A AS flag``), one column each, and each conjunct's (start, end)
    truth_probe: str = ""
    truth_spans: tuple[tuple[int, int], ...] = ()
    # the WITHIN clause's (start, end) in ``source`` and the ORDER BY key it bounds as written:
    # registration reads the window in the key type's units and refuses a type it cannot take
    within_span: tuple[int, int] | None = None
    order_key_text: str = ""
    # aggregation over matches (``sparkcep.compiler.aggregation_pushdown``): the outer aggregate
    # calls' (start, end, replacement) when pushed down; why not, when aggregated but not pushed
    aggregate_calls: tuple[tuple[int, int, str], ...] = ()
    aggregation_note: str | None = None
    # the input query in parts (``sparkcep.compiler.shared_pass`` combines several clauses'):
    # the relation as written (inner clauses rewritten), the input columns passed on, and the
    # computed columns as (SQL, name)
    input_relation: str = ""
    input_passed: tuple[str, ...] = ()
    input_computed: tuple[tuple[str, str], ...] = ()
    # the input relation as written, as a query (``SELECT * FROM <relation>``): the runtime asks
    # Spark whether it is a stream; the clause's (start, end) of ORDER BY's first item
    relation_sql: str = ""
    order_span: tuple[int, int] | None = None
    # (column, descending, nulls first) per ORDER BY item, when every item is a column
    order_columns: tuple[tuple[str, bool, bool], ...] = ()
    # the (start, end) in ``source`` of each subquery in MEASURES / DEFINE: registration has
    # Spark analyse each alone, so an outer reference to the input's columns is found
    subquery_spans: tuple[tuple[int, int], ...] = ()
    # over a stream with PREV: the ordering operator's input query (the relation plus each PREV
    # argument), the view its output is registered under (``table_sql`` reads it), and per
    # shifted column (argument column, offset, shifted column)
    shift_input_sql: str = ""
    shift_view: str = ""
    shifts: tuple[tuple[str, int, str], ...] = ()
    # compiled for a stream (``compile_statement(..., streaming=True)``): the statement reads the
    # matches from the relation ``stream_view_name(function_name)`` instead of calling a function
    streaming: bool = False
    # compiled for a stream whose late rows are routed (``compile_statement(..., late_rows=True)``):
    # ``table_sql`` also carries ``LATE_ROW_COLUMN`` to the matching operator
    late_rows: bool = False
    # the clause runs as plain Spark SQL (``sparkcep.compiler.catalyst_path``), or why not
    catalyst: bool = False
    catalyst_reason: str = ""


def stream_view_name(function_name: str) -> str:
    """The temporary view a streaming clause's matches are registered under."""
    return function_name.replace("sparkcep_mr_", "sparkcep_stream_", 1)


@dataclass(frozen=True)
class CompiledStatement:
    sql: str
    matches: tuple[CompiledMatch, ...] = field(default=())
    # UNION ALL branches aggregating clauses over one input, run in one pass
    # (``sparkcep.compiler.shared_pass``); their clauses are in ``matches`` too (types are probed
    # per clause) but the statement calls only the shared functions
    shared: tuple = field(default=())
    shared_notes: tuple[str, ...] = field(default=())


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
    # not about chunks, but read from the session with them: which path clauses take
    # (``catalyst_path.MODES``: python, the default, auto, catalyst)
    path: str = "python"


def compile_statement(
    sql: str, chunking: ChunkOptions | None = None, streaming: bool = False,
    late_rows: bool = False,
) -> CompiledStatement:
    """Compile one statement; statements without MATCH_RECOGNIZE come back unchanged.

    ``chunking`` (default: none) splits eligible clauses into chunks matched in parallel; the
    runtime chooses it from the session (``sparkcep.runtime.chunk_options``), so compilation
    stays pure. ``streaming``: the clause reads a stream (the runtime found out): it is checked
    by ``streaming_rules`` and the statement reads its matches from a view the runtime registers
    over Spark's stateful operator (``stream_view_name``), with no unrolling, chunks or
    aggregation pushdown. ``late_rows`` (with ``streaming``): the clause's late rows are routed to
    a table (``runtime.stream_writer``), so its input query also carries each row whole
    (``LATE_ROW_COLUMN``)."""
    if not dialect.contains_match_recognize(sql):
        return CompiledStatement(sql)
    tree = dialect.parse_one(sql)
    clauses = [n for n in tree.walk(bfs=False)
               if isinstance(n, dx.MatchRecognize) and not isinstance(n, dx.RowPatternWindow)]
    # Post-order: a clause nested in another clause's input is rewritten (and registered) first.
    clauses.sort(key=lambda n: -depth(n))
    if streaming and len(clauses) > 1:
        raise streaming_rules.single_clause_error(clauses[0], sql)
    splicer = Splicer(sql)
    compiled: list[tuple[dx.MatchRecognize, CompiledMatch]] = []
    for clause in clauses:
        match, replacement = _compile_clause(clause, sql, splicer, chunking, streaming,
                                             streaming and late_rows)
        start, end = dialect.span(clause)
        splicer.replace(start, end, replacement)
        for call_start, call_end, text in match.aggregate_calls:
            splicer.replace(call_start, call_end, text)
        compiled.append((clause, match))
    # The CTEs a clause may read are known once every clause is rewritten (a CTE may hold a
    # clause of its own). A clause's input (its relation, the CTEs before it) ends before the
    # clause does, so registering in order of where the clauses end registers every function
    # before a probe can call it.
    compiled.sort(key=lambda item: dialect.span(item[0])[1])
    matches = tuple(
        dataclasses.replace(match, probe_prefix=_visible_ctes(clause, splicer))
        for clause, match in compiled
    )
    shared, notes = share(tree, [clause for clause, _ in compiled], matches, splicer)
    if window_.has_pattern_windows(tree):
        if streaming:
            first = next(n for n in tree.walk(bfs=False) if isinstance(n, (dx.RowPatternWindow, dx.PatternWindowCall)))
            raise window_.error("WINDOW_PATTERN_STREAM",
                                "a window with row pattern recognition cannot read a stream", first, sql)
        compiled_windows = window_.rewrite_windows(
            tree, sql, splicer,
            lambda node, relation, use, following: _compile_window(node, relation, use, following, sql, splicer))
        matches += tuple(dataclasses.replace(m, probe_prefix=_visible_ctes(node, splicer))
                         for node, m in compiled_windows)
    return CompiledStatement(splicer.render(), matches, tuple(shared), tuple(notes))


def _compile_window(
    node: dx.RowPatternWindow, relation: str, use: window_.PatternWindowUse, following: int | None,
    sql: str, splicer: Splicer,
) -> tuple[tuple[dx.RowPatternWindow, CompiledMatch], str]:
    """One window with row pattern recognition (R020, ``compiler.window``) over the query
    ``relation``: its compiled function and the query giving the relation's rows plus one column
    per measure and window function called over it. Measures are NULL where no match was
    found; window functions see an empty frame there (ISO/IEC 19075-5, 6.5)."""
    analysis = _analyze_window(node, sql)
    partition_sql = [_plain_text(item, sql, splicer) for item in analysis.partition_by]
    order_sql = [_plain_text(item, sql, splicer) for item in analysis.order_by]
    measures = [(name, expression, measure) for name, expression, measure in analysis.measures
                if name.lower() in use.measures]
    measures += [(column, call, None) for call, column in use.functions]
    analysis = dataclasses.replace(analysis, measures=measures)
    lowered, source_pattern, lowering = _lower_window(analysis, _window(partition_sql, order_sql), following)
    # MATCH_NUMBER (refused in the window's own text) is NULL where no match was found
    found = next((i for i, c in enumerate(lowered.components) if isinstance(c, p.MatchNumber)), None)
    if found is None:
        lowered.components.append(p.MatchNumber())
        found = len(lowered.components) - 1
    matched = quote_identifier(component_name(found))
    spec = _match_spec(analysis, None, source_pattern)
    # PREV/NEXT in MEASURES read NULL from rows outside the frame, as in DEFINE
    shifts = tuple((k, lowered.physical_columns[c.column]) for k, c in enumerate(lowered.components)
                   if isinstance(c, p.Navigation) and c.column in lowered.physical_columns)
    spec = dataclasses.replace(spec, window=PatternWindow(
        seek=node.args.get("search") == "SEEK", following=following, edges=tuple(lowering),
        shifts=shifts))
    passing = dataclasses.replace(analysis, rows_per_match=RowsPerMatch.ALL_WITH_UNMATCHED)
    table_sql, value_columns, parts = _input_query(passing, lowered, None, sql, splicer, relation)
    plan = _match_plan(passing, spec, lowered, value_columns, None)
    plan = dataclasses.replace(plan, output_unmatched_rows=True)
    function_name, input_sql, plan = _function_input(analysis, plan, table_sql, lowered, None, None)
    call = _function_call(function_name, input_sql, plan, order_sql)
    hidden = ", ".join(quote_identifier(component_name(i)) for i in range(len(lowered.components)))
    columns = []
    for name, text in lowered.measure_sql:
        if name.lower() in use.measures:
            columns.append(f"IF({matched} IS NULL, NULL, {text}) AS {quote_identifier(use.measures[name.lower()])}")
        else:
            columns.append(f"{text} AS {quote_identifier(name)}")
    query = f"SELECT * EXCEPT ({hidden}), {', '.join(columns)} FROM {call}" if columns else \
        f"SELECT * EXCEPT ({hidden}) FROM {call}"
    compiled = CompiledMatch(
        function_name=function_name,
        plan=plan,
        table_sql=table_sql,
        probe_prefix="",
        component_probes=tuple(
            _component_probe(c, plan.value_columns, lowered.spark_aggregates) for c in lowered.components),
        source=sql,
        subquery_spans=subquery_spans(analysis),
        truth_columns=tuple(lowered.truth_columns),
        truth_probe=(
            f"SELECT {', '.join(text for text, _, _ in lowered.truth_locals)} FROM ({relation}) AS {INPUT_ALIAS}"
            if lowered.truth_locals else ""),
        truth_spans=tuple((start, end) for _, start, end in lowered.truth_locals),
        relation_sql=relation,
        order_columns=_order_columns(analysis),
        input_relation=parts[0], input_passed=parts[1], input_computed=parts[2],
        catalyst_reason="a window with row pattern recognition (R020) searches a frame per row, "
                        "which only the Python matcher's window mode does",
    )
    return (node, compiled), query


def _analyze_window(node: dx.RowPatternWindow, sql: str) -> Analysis:
    analysis = analyze(node, sql)
    check_subqueries(analysis)
    return analysis


def _lower_window(analysis: Analysis, window: str | None, following: int | None):
    """``_lower_expressions`` for a window (no unrolling: a frame's first row reads no row
    before it), plus the row-local DEFINE masks near the frame's edges
    (``PatternWindow.edges``), appended after the variables' own masks."""
    lowered, source_pattern, _, _ = _lower_expressions(analysis, window, unrolling=False, shifting=False)
    scope = analysis.scope
    lowering = Lowering(scope, window, lowered.values)
    edges = []
    n_vars = len(scope.variables)
    for var in range(n_vars):
        condition = analysis.definitions.get(var)
        if condition is None:
            continue
        before, after = window_.edge_reach(lowering, condition)
        after = after if following is not None else 0
        if not before and not after:
            continue
        for b in range(before + 1):
            for a in range(after + 1):
                if (b, a) == (before, after):
                    edges.append((var, b, a, var))
                    continue
                lowering.frame_edge = (b, a if following is not None else None)
                mask, dependent = lowering.lower_define(var, condition)
                if dependent is not None and any(
                        window_.edge_reach(lowering, c) != (0, 0) for c in _dependent_conjuncts(condition, lowering)):
                    raise scope.error("WINDOW_PATTERN_NAVIGATION",
                                      "in a window, PREV/NEXT are supported in DEFINE only where they read "
                                      "the row being defined (e.g. UP.price > PREV(UP.price))", condition)
                edges.append((var, b, a, len(lowered.masks)))
                lowered.masks.append(mask)
    return lowered, source_pattern, edges


def _dependent_conjuncts(condition: exp.Expression, lowering: Lowering) -> list:
    conjuncts = list(condition.flatten()) if isinstance(condition, exp.And) else [condition]
    return [c for c in conjuncts if lowering.classify(c).what not in ("const", "local")]


def _plain_text(node: exp.Expression, sql: str, splicer: Splicer) -> str:
    """The node's text with any column qualifiers dropped (inside the generated query the input
    relation is called ``__sparkcep_in``)."""
    local = Splicer(sql, [e for e in splicer.edits])
    for column in node.find_all(exp.Column):
        if column.args.get("table") is not None and not isinstance(column.this, exp.Star):
            local.replace(*dialect.span(column), quote_identifier(column.this.name))
    return local.render(*dialect.span(node))


def _relation_text(relation: exp.Expression, splicer: Splicer) -> str:
    """The input relation exactly as the user wrote it (alias, derived column list, TABLESAMPLE,
    time travel and every other modifier included), with inner rewrites applied, as a query.

    It is never rebuilt from parts (a rebuilt relation silently loses what the parts do not
    model); the text is wrapped in ``SELECT * FROM`` so that the user's alias and column list
    name the columns and the generated query can still call the input ``__sparkcep_in``."""
    return f"SELECT * FROM {splicer.render(*dialect.span(relation))}"


def _cte_text(cte: exp.CTE, splicer: Splicer) -> str:
    """A CTE exactly as written (``name [(columns)] AS (query)``), inner rewrites applied."""
    return splicer.render(*dialect.span(cte))


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
        if unit_name not in INTERVAL_MICROS or not isinstance(amount, exp.Literal):
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
        return round(number * INTERVAL_MICROS[unit_name]), "interval"
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


def _within_key_sql(item: exp.Expression, sql: str, splicer: Splicer) -> str:
    """The WITHIN key of a row: the first ORDER BY item's expression as the user wrote it
    (without ASC/DESC/NULLS). Its type is known only to Spark, so the conversion to a number is
    decided at registration (``sparkcep.runtime.within_keys``: TIMESTAMP as instants,
    TIMESTAMP_NTZ as wall clock, DATE as days, numbers as themselves, with the window in the same
    units) and applied on the executor, exactly; DESC is applied there too (docs/within.md)."""
    inner = item.this if isinstance(item, exp.Ordered) else item
    return f"({_plain_text(inner, sql, splicer)})"


def _component_probe(
    component: p.Expression, value_columns: tuple[str, ...], spark_aggregates: dict | None = None
) -> str:
    """An aggregate over the function's input whose type is the component's output type. For
    match rows, the Spark aggregates applied to them are analysed too (over the value columns),
    so a mistake in them (``max_by(A.v)``) is reported at registration."""
    if isinstance(component, p.Navigation):
        return f"first({quote_identifier(value_columns[component.column])})"
    if isinstance(component, p.Aggregate):
        argument = "1" if component.column is None else quote_identifier(value_columns[component.column])
        return f"{component.function}({argument})"
    if isinstance(component, p.MatchNumber):
        return "max(CAST(1 AS BIGINT))"
    if isinstance(component, p.Classifier):
        return "max(CAST(NULL AS STRING))"
    if isinstance(component, p.NavigatedLabel):
        return _LABEL_TYPES[component.what]
    if isinstance(component, p.MatchStatus):
        return "max(CAST(NULL AS STRING))"
    if isinstance(component, p.Confidence):
        return "max(CAST(NULL AS DOUBLE))"
    if isinstance(component, p.MatchTimeRange):  # a time point, in the type of the row times
        return f"first({quote_identifier(TIME_HI if component.end else TIME_LO)})"
    if isinstance(component, p.MatchRows):
        values = [_LABEL_VALUES[field] if isinstance(field, str)
                  else quote_identifier(value_columns[field]) for field in component.fields]
        fields = ", ".join(f"'f{i}', {value}" for i, value in enumerate(values))
        rows = f"collect_list(named_struct({fields}))"
        checks = [
            "".join(piece if isinstance(piece, str) else values[piece] for piece in segments)
            for segments in (spark_aggregates or {}).get(component, [])
        ]
        if not checks:
            return rows
        analysed = " OR ".join(f"(({check}) IS NULL)" for check in checks)
        return f"IF({analysed} OR true, {rows}, NULL)"
    raise TypeError(component)


_LABEL_VALUES = {"classifier": "CAST(NULL AS STRING)", "match_number": "CAST(NULL AS BIGINT)"}
_LABEL_TYPES = {"classifier": "max(CAST(NULL AS STRING))", "match_number": "max(CAST(1 AS BIGINT))"}


@dataclass
class _Lowered:
    """A clause's DEFINE and MEASURES, split between Catalyst and Python.

    Attributes:
        masks: per variable, the SQL of its row-local condition (None: TRUE).
        conditions: per variable, its match-dependent condition (Python), if any.
        components: the match-dependent parts of the measures, one function output column each.
        measure_sql: (name, Spark SQL over the function's output) per measure.
        values: the value columns Catalyst computes for the matcher.
        spark_aggregates: per match-rows component, the Spark aggregates applied to it
            (``Lowering.spark_aggregates``), analysed at registration.
        truth_columns: value columns a DEFINE reads as its condition (``Lowering.truth_columns``).
        truth_locals: row-local DEFINE conjuncts whose type only Spark knows (text, start, end)
            (``Lowering.truth_locals``).
    """

    masks: list[str | None]
    conditions: dict[int, p.Expression]
    components: list[p.Expression]
    measure_sql: list[tuple[str, str]]
    values: ValueColumns
    spark_aggregates: dict
    truth_columns: list
    truth_locals: list
    physical_columns: dict = dataclasses.field(default_factory=dict)


def _compile_clause(
    clause: dx.MatchRecognize, sql: str, splicer: Splicer, chunking: ChunkOptions | None = None,
    streaming: bool = False, late_rows: bool = False,
) -> tuple[CompiledMatch, str]:
    """One clause: its function's plan and input query, and the text that replaces it."""
    analysis = _analyze(clause, sql)
    partition_sql = [_plain_text(item, sql, splicer) for item in analysis.partition_by]
    order_sql = [_plain_text(item, sql, splicer) for item in analysis.order_by]
    window_order = order_sql
    uncertain = analysis.uncertain_time
    if uncertain is not None:
        # the rows reach the engine sorted by lo, then by the ORDER BY (which breaks ties)
        window_order = [f"({_plain_text(uncertain.this, sql, splicer)})", *order_sql]
        order_sql = [quote_identifier(TIME_LO), *order_sql]
    within, within_kind = _within(analysis)
    if streaming:
        streaming_rules.check_clause(analysis, within_kind)
        chunking = None
    lowered, source_pattern, window_calls, shifts = _lower_expressions(
        analysis, _window(partition_sql, window_order), unrolling=not streaming)
    if streaming:
        streaming_rules.check_navigation(analysis, window_calls, shifts)
        streaming_rules.check_plan(analysis, lowered.conditions, lowered.components)
    spec = _match_spec(analysis, within, source_pattern)
    relation = _relation_text(analysis.node.this, splicer)
    shift_input_sql, shift_view = "", ""
    if shifts:  # over a stream: PREV, NEXT are filled in by the ordering operator (runtime.streaming)
        arguments = ", ".join(f"{text} AS {quote_identifier(shift_argument_name(j))}"
                              for j, (text, _) in enumerate(shifts))
        shift_input_sql = f"SELECT {INPUT_ALIAS}.*, {arguments} FROM ({relation}) AS {INPUT_ALIAS}"
        shift_view = "sparkcep_ordered_" + hashlib.sha256(
            repr((shift_input_sql, shifts)).encode()).hexdigest()[:16]
        relation = f"SELECT * FROM {quote_identifier(shift_view)}"
    release = any(offset < 0 for _, offset in shifts)  # NEXT: rows wait for their successors
    late_row = None  # the row whole, for routed late rows
    if late_rows and not shifts:
        late_row = f"struct({INPUT_ALIAS}.*) AS {quote_identifier(LATE_ROW_COLUMN)}"
    elif late_rows and analysis.rows_per_match is RowsPerMatch.ONE:
        # built by the ordering operator (ALL ROWS passes all of its columns, this one too)
        late_row = f"{INPUT_ALIAS}.{quote_identifier(LATE_ROW_COLUMN)}"
    table_sql, value_columns, parts = _input_query(
        analysis, lowered, within_kind, sql, splicer, relation, release, late_row)
    plan = _match_plan(analysis, spec, lowered, value_columns, within_kind)
    pushed, aggregation_note = None, None
    if uncertain is not None:
        # the counters know no probabilities
        times = UncertainTimePlan(TIME_LO, TIME_HI, analysis.minimum_confidence, analysis.granularity,
                                  clause_span=dialect.find_span(uncertain))
        plan = dataclasses.replace(plan, uncertain_time=times)
    elif not streaming:
        pushed, aggregation_note = pushdown(
            clause, spec, lowered.conditions, lowered.values.texts, sql, plan.partition_columns,
            _measure_components(lowered))
    if pushed is not None:
        if pushed.value_texts:  # GROUP BY buckets, computed per row by Catalyst
            for text in pushed.value_texts:
                lowered.values.add(text)
            table_sql, value_columns, parts = _input_query(
                analysis, lowered, within_kind, sql, splicer, relation, release)
            plan = _match_plan(analysis, spec, lowered, value_columns, within_kind)
        plan = dataclasses.replace(plan, aggregation=pushed.plan)
        chunking = None  # one result row per partition: chunks would split the counters
    function_name, input_sql, plan = _function_input(analysis, plan, table_sql, lowered, within_kind, chunking)
    call = _function_call(function_name, input_sql, plan, order_sql)
    catalyst_reason = _catalyst_reason(analysis, spec, lowered, plan, chunking, streaming, pushed)
    if streaming:
        call = quote_identifier(stream_view_name(function_name))
    elif catalyst_reason is None:
        window = _window(partition_sql, window_order)
        computed = tuple(name for _, name in parts[2])
        # the row number in the same SELECT as the lag/lead of the DEFINEs: one window operator
        row_number = f"row_number() OVER ({window}) AS {quote_identifier(catalyst_path.ROW_NUMBER)}"
        numbered_sql = _input_query(analysis, lowered, within_kind, sql, splicer, relation, release,
                                    late_row, leading=row_number)[0]
        call = catalyst_path.catalyst_query(spec, lowered.components, catalyst_path.ClauseInput(
            numbered_sql, window, plan.partition_columns, plan.bitmask_columns[0],
            plan.value_columns, computed))
    if pushed is not None:
        replacement = _aggregation_replacement(analysis, pushed, call, splicer)
    else:
        replacement = _replacement(analysis, lowered, call, splicer)
    compiled = CompiledMatch(
        function_name=function_name,
        plan=plan,
        table_sql=table_sql,
        probe_prefix="",  # filled in by compile_statement
        component_probes=tuple(
            _component_probe(c, plan.value_columns, lowered.spark_aggregates) for c in lowered.components
        ),
        source=sql,
        subquery_spans=subquery_spans(analysis),
        truth_columns=tuple(lowered.truth_columns),
        truth_probe=(
            f"SELECT {', '.join(text for text, _, _ in lowered.truth_locals)} "
            f"FROM ({relation}) AS {INPUT_ALIAS}"
            if lowered.truth_locals else ""
        ),
        truth_spans=tuple((start, end) for _, start, end in lowered.truth_locals),
        within_span=dialect.find_span(analysis.within) if analysis.within is not None else None,
        order_key_text=_order_key_text(analysis.order_by[0], sql) if analysis.order_by else "",
        aggregate_calls=pushed.calls if pushed is not None else (),
        aggregation_note=aggregation_note,
        relation_sql=_relation_text(analysis.node.this, splicer),
        order_span=dialect.find_span(analysis.order_by[0]) if analysis.order_by else None,
        order_columns=_order_columns(analysis),
        shift_input_sql=shift_input_sql,
        shift_view=shift_view,
        shifts=tuple((shift_argument_name(j), offset, shift_name(j))
                     for j, (_, offset) in enumerate(shifts)),
        streaming=streaming,
        late_rows=late_rows,
        input_relation=parts[0],
        input_passed=parts[1],
        input_computed=parts[2],
        catalyst=catalyst_reason is None,
        catalyst_reason=catalyst_reason or "",
    )
    return compiled, replacement


def _catalyst_reason(analysis: Analysis, spec: MatchSpec, lowered: _Lowered, plan: MatchPlan,
                     chunking: ChunkOptions | None, streaming: bool, pushed) -> str | None:
    """Why the clause does not run as plain Spark SQL (``catalyst_path``), or None."""
    if streaming:
        return "the input is a stream (Spark's stateful operator runs the engine)"
    if analysis.uncertain_time is not None:
        return "UNCERTAIN TIME"
    if pushed is not None:
        return "the matches are only aggregated (counted without enumerating them)"
    if plan.owned_column is not None:
        return "the partition is matched in chunks"
    return catalyst_path.ineligible_reason(
        spec, lowered.conditions, lowered.components, len(plan.bitmask_columns),
        bool(analysis.partition_by), bool(analysis.order_by),
        chunking.path if chunking is not None else ChunkOptions.path)


def _measure_components(lowered: _Lowered) -> dict[str, p.Expression | None]:
    """Per measure name (lower case), the component it is when it is exactly one component's
    value (``(`__sparkcep_c3`)``), else None."""
    by_text = {f"({quote_identifier(component_name(i))})": c for i, c in enumerate(lowered.components)}
    return {name.lower(): by_text.get(text.strip()) for name, text in lowered.measure_sql}


def _aggregation_replacement(analysis: Analysis, pushed: Pushdown, call: str, splicer: Splicer) -> str:
    """The text replacing a pushed-down clause: per partition, the partition columns and the
    partial aggregates the outer query's calls read (``aggregation_pushdown``)."""
    columns = [quote_identifier(item.name) for item in analysis.partition_by]
    columns += [quote_identifier(aggregation_output_name(i)) for i in range(len(pushed.plan.outputs))]
    # a bucketed measure: its least value in the group, from which the outer query computes the
    # bucket again as written
    columns += [f"{quote_identifier(aggregation_output_name(i))} AS {quote_identifier(name)}"
                for name, i in pushed.plan.group_columns]
    return _aliased(f"(SELECT {', '.join(columns)} FROM {call})", analysis.node, splicer)


def _order_columns(analysis: Analysis) -> tuple[tuple[str, bool, bool], ...]:
    """(column, descending, nulls first) per ORDER BY item, or () when an item is not a column.
    Spark sorts NULLs first ascending and last descending unless told otherwise."""
    columns = []
    for item in analysis.order_by:
        inner = item.this if isinstance(item, exp.Ordered) else item
        if not isinstance(inner, exp.Column):
            return ()
        descending = _descending(item)
        nulls_first = item.args.get("nulls_first") if isinstance(item, exp.Ordered) else None
        columns.append((inner.name, descending, (not descending) if nulls_first is None else bool(nulls_first)))
    return tuple(columns)


def _order_key_text(item: exp.Expression, sql: str) -> str:
    inner = item.this if isinstance(item, exp.Ordered) else item
    found = dialect.find_span(inner)
    return sql[found[0]:found[1]] if found else inner.sql()


def _analyze(clause: dx.MatchRecognize, sql: str) -> Analysis:
    """The clause's names and rules (``analysis``), and the names it hides (``scoping``)."""
    analysis = analyze(clause, sql)
    check_input_name_hidden(clause, analysis.scope)
    check_subqueries(analysis)
    return analysis


def _window(partition_sql: list[str], order_sql: list[str]) -> str | None:
    """The window of lag/lead (PREV/NEXT), or None without ORDER BY."""
    if not order_sql:
        return None
    return (f"PARTITION BY {', '.join(partition_sql)} " if partition_sql else "") + (
        f"ORDER BY {', '.join(order_sql)}"
    )


def _lower_expressions(
    analysis: Analysis, window: str | None, unrolling: bool = True, shifting: bool | None = None,
) -> tuple[_Lowered, tuple[rp.Pattern, str], list]:
    """Split DEFINE and MEASURES (``lowering``), after unrolling; also the pattern as written
    (before unrolling rewrote it), the navigation calls that became window functions, and (over
    a stream, ``unrolling`` off) the PREV calls read from shifted columns instead."""
    scope = analysis.scope
    values = ValueColumns()
    lowering = Lowering(scope, window, values)
    if (not unrolling) if shifting is None else shifting:  # over a stream
        lowering.shifts = []
    source_pattern = analysis.pattern, rp.to_text(analysis.pattern, list(scope.variables))
    if unrolling:
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
    if one_row and not analysis.partition_by and not components:
        # Only constant measures: the function still returns one row per match, and Spark needs
        # it to have a column (a table function without output columns fails analysis).
        components.append(p.MatchNumber())
    if not unrolling and not any(isinstance(c, p.MatchNumber) for c in components):
        # a stream (compiled without unrolling): the operator numbers matches across segments by
        # this column (``runtime.streaming``); the statement's projection does not show it
        components.append(p.MatchNumber())
    lowered = _Lowered(masks, conditions, components, measure_sql, values,
                       lowering.spark_aggregates, lowering.truth_columns, lowering.truth_locals,
                       lowering.physical_columns)
    return lowered, source_pattern, lowering.window_calls, lowering.shifts or []


def _match_spec(analysis: Analysis, within, source_pattern: tuple[rp.Pattern, str]) -> MatchSpec:
    """What the engine matches; refused when no engine runs it under the clause's strategy."""
    from sparkcep.engines import selection as engines  # the engines' own static checks

    scope = analysis.scope
    spec = MatchSpec(
        pattern=analysis.pattern,
        variable_names=tuple(scope.variables),
        skip=analysis.skip,
        skip_to=analysis.skip_to,
        rows_per_match=analysis.rows_per_match,
        strategy=analysis.strategy,
        within=within,
        source_pattern=None if analysis.pattern == source_pattern[0] else source_pattern[1],
        timed_out=analysis.timed_out,
    )
    if analysis.uncertain_time is not None:
        from sparkcep.engines import uncertain  # the imprecise-timestamp engine's static checks

        # WITHIN is in time points only at registration, where it is rounded up to whole points
        reason = uncertain.unsupported_reason(dataclasses.replace(spec, within=None))
        if reason is not None:
            raise scope.error("UNCERTAIN_TIME_NOT_SUPPORTED", reason, analysis.node.args["pattern"])
        return spec
    reason = engines.unsupported_reason(spec)
    if reason is not None:
        raise scope.error("UNSUPPORTED_PATTERN_FOR_STRATEGY", reason, analysis.node.args["pattern"])
    return spec


def _input_query(
    analysis: Analysis, lowered: _Lowered, within_kind: str | None, sql: str, splicer: Splicer,
    relation: str, release: bool = False, late_row: str | None = None, leading: str | None = None,
) -> tuple[str, list[str], tuple]:
    """The query feeding the function (input columns, bitmask, value and order key columns over
    the relation as written), the name the function reads each value column under, and the
    query's parts (relation, passed columns, computed (SQL, name) columns). ``release``: over a
    stream with NEXT, the ordering operator's ``RELEASE_COLUMN`` is passed on too; ``late_row``:
    the select item carrying ``LATE_ROW_COLUMN`` (routed late rows); ``leading``: a select item
    put first (the Catalyst path's row number)."""
    if analysis.rows_per_match is RowsPerMatch.ONE:
        # ONE ROW PER MATCH outputs no input columns but the partition key: pass only the columns
        # the partitioning and ordering refer to (less data through Arrow to Python).
        passed: list[str] = []
        for item in [*analysis.partition_by, *analysis.order_by]:
            for column in item.find_all(exp.Column):
                if column.name.lower() not in {name.lower() for name in passed}:
                    passed.append(column.name)
        select = [f"{INPUT_ALIAS}.{quote_identifier(name)}" for name in passed]
        if release:
            select.append(f"{INPUT_ALIAS}.{quote_identifier(RELEASE_COLUMN)}")
    else:
        passed = []
        select = [f"{INPUT_ALIAS}.*"]
    passed_select = tuple(select)
    computed: list[tuple[str, str]] = []
    bitmasks = _bitmask_sql(lowered.masks)
    computed += [(sql, mask_name(i)) for i, sql in enumerate(bitmasks)]
    # A value column that is just an input column already passed on is read under its own name.
    texts = lowered.values.texts
    value_columns = [
        next((name for name in passed if text == f"({quote_identifier(name)})"), value_name(i))
        for i, text in enumerate(texts)
    ]
    computed += [(text, name) for i, (text, name) in enumerate(zip(texts, value_columns))
                 if name == value_name(i)]
    uncertain = analysis.uncertain_time
    if uncertain is not None:
        for bound, name in ((uncertain.this, TIME_LO), (uncertain.expression, TIME_HI)):
            computed.append((f"({_plain_text(bound, sql, splicer)})", name))
    elif within_kind is not None:
        computed.append((_within_key_sql(analysis.order_by[0], sql, splicer), ORDER_KEY))
    select += [f"{text} AS {quote_identifier(name)}" for text, name in computed]
    if late_row is not None:
        select.append(late_row)
    if not select:
        select.append(f"true AS {quote_identifier(PREFIX + 'row')}")  # a SELECT needs a column
    if leading is not None:
        select.insert(0, leading)
    return (f"SELECT {', '.join(select)} FROM ({relation}) AS {INPUT_ALIAS}", value_columns,
            (relation, passed_select, tuple(computed)))


def _descending(item: exp.Expression) -> bool:
    return isinstance(item, exp.Ordered) and bool(item.args.get("desc"))


def _match_plan(
    analysis: Analysis, spec: MatchSpec, lowered: _Lowered, value_columns: list[str],
    within_kind: str | None,
) -> MatchPlan:
    """The executors' plan (column types and passthrough columns are filled in at registration)."""
    partition_names = _distinct(item.name for item in analysis.partition_by)
    masks = lowered.masks
    keyed = within_kind is not None and analysis.uncertain_time is None  # WITHIN on the ORDER BY key
    return MatchPlan(
        spec=spec,
        conditions=lowered.conditions,
        components=tuple(lowered.components),
        all_rows=analysis.rows_per_match is not RowsPerMatch.ONE,
        output_empty_matches=analysis.rows_per_match is not RowsPerMatch.ALL_OMIT_EMPTY,
        output_unmatched_rows=analysis.rows_per_match is RowsPerMatch.ALL_WITH_UNMATCHED,
        bitmask_columns=tuple(mask_name(i) for i in range(len(_bitmask_sql(masks)))),
        row_local=tuple(mask is not None for mask in masks),
        value_columns=tuple(value_columns),
        order_key_column=ORDER_KEY if keyed else None,
        within_kind=within_kind,
        order_key_descending=_descending(analysis.order_by[0]) if keyed else False,
        partition_columns=partition_names,
        passthrough_columns=partition_names,
    )


def _function_input(
    analysis: Analysis, plan: MatchPlan, table_sql: str, lowered: _Lowered,
    within_kind: str | None, chunking: ChunkOptions | None,
) -> tuple[str, str, MatchPlan]:
    """The function's name (a hash of everything it computes), its input query (chunked when
    eligible) and the plan (with the chunk ownership column when chunked)."""
    digest_text = repr((plan, table_sql, lowered.measure_sql))
    if plan.uncertain_time is not None:
        digest_text += repr(plan.uncertain_time)
    input_sql = table_sql
    chunked = _chunked_input(analysis, plan, table_sql, within_kind, chunking)
    if chunked is not None:
        input_sql, plan = chunked, dataclasses.replace(plan, owned_column=chunking_.OWNED_COLUMN)
        digest_text += input_sql
    digest = hashlib.sha256(digest_text.encode()).hexdigest()[:16]
    return f"sparkcep_mr_{digest}", input_sql, plan


def _function_call(function_name: str, input_sql: str, plan: MatchPlan, order_sql: list[str]) -> str:
    """``f(TABLE(input) PARTITION BY (keys) ORDER BY (...))``; chunks are partitions too."""
    keys = [quote_identifier(n) for n in plan.partition_columns]
    if plan.owned_column is not None:
        keys.append(quote_identifier(chunking_.CHUNK_COLUMN))
    distribution = f"PARTITION BY ({', '.join(keys)})" if keys else "WITH SINGLE PARTITION"
    ordering = f" ORDER BY ({', '.join(order_sql)})" if order_sql else ""
    return f"{function_name}(TABLE({input_sql}) {distribution}{ordering})"


def _replacement(analysis: Analysis, lowered: _Lowered, call: str, splicer: Splicer) -> str:
    """The text replacing the clause: the output columns over the call, under the clause's alias."""
    clause = analysis.node
    output = _output_columns(analysis, lowered.measure_sql, len(lowered.components))
    if not output:
        raise analysis.scope.error(
            "NO_OUTPUT_COLUMNS",
            "ONE ROW PER MATCH without PARTITION BY needs at least one measure",
            clause,
        )
    return _aliased(f"(SELECT {', '.join(output)} FROM {call})", clause, splicer)


def _distinct(names) -> tuple[str, ...]:
    """``names`` without repetitions, compared as Spark resolves them (case-insensitively)."""
    seen: dict[str, str] = {}
    for name in names:
        seen.setdefault(name.lower(), name)
    return tuple(seen.values())


def _ordering_columns(analysis: Analysis) -> list[str]:
    """The ORDER BY items that are columns, as written (a repeated one too)."""
    return [o.this.name for o in analysis.order_by if isinstance(o.this, exp.Column)]


def _output_columns(analysis: Analysis, measure_sql: list[tuple[str, str]], components: int) -> list[str]:
    """The select list over the function's output, in the order ISO/IEC 19075-5 (4.17, "the row
    pattern output table") gives: ONE ROW PER MATCH, the partitioning columns then the measures;
    ALL ROWS PER MATCH, the partitioning columns, the ordering columns, the measures, then the
    remaining input columns. Every PARTITION BY and ORDER BY item appears as written, also when
    it repeats a column; the internal component columns never appear."""
    partition = [item.name for item in analysis.partition_by]
    output = [quote_identifier(n) for n in partition]
    all_rows = analysis.rows_per_match is not RowsPerMatch.ONE
    ordering = _ordering_columns(analysis) if all_rows else []
    output += [quote_identifier(n) for n in ordering]
    output += [f"{text} AS {quote_identifier(name)}" for name, text in measure_sql]
    if all_rows:
        hidden = _distinct([*partition, *ordering, *(component_name(i) for i in range(components))])
        output.append(f"* EXCEPT ({', '.join(quote_identifier(n) for n in hidden)})" if hidden else "*")
    return output


def _chunked_input(
    analysis: Analysis, plan: MatchPlan, table_sql: str, within_kind: str | None,
    chunking: ChunkOptions | None,
) -> str | None:
    """The chunked input query when ``chunking`` asks for it and the clause is eligible."""
    if chunking is None or chunking.chunks is None or chunking.chunks < 2 or within_kind is None:
        return None
    if plan.uncertain_time is not None:
        return None  # a match may span any cut: its rows' order differs between possible worlds
    if analysis.partition_by and not chunking.partitioned:
        return None
    ascending = not _descending(analysis.order_by[0])
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
