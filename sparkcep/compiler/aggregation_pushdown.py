"""Aggregation over matches without enumerating them: finding the queries it applies to.

A statement whose outer query only aggregates the output of a ``MATCH_RECOGNIZE ... ONE ROW PER
MATCH SKIP TILL ANY MATCH`` clause (or SKIP TILL NEXT MATCH,
``sparkcep.engines.sase.next_aggregation``), one group per partition::

    SELECT p, COUNT(*) AS n, SUM(a_val), AVG(a_val), MIN(a_val), MAX(a_val)
    FROM ev MATCH_RECOGNIZE (PARTITION BY p ORDER BY ts MEASURES A.val AS a_val
         SKIP TILL ANY MATCH PATTERN (A B+ C) WITHIN 150 DEFINE ...)
    GROUP BY p HAVING COUNT(*) > 10

needs per partition only the number of matches and, per aggregated measure, the sum, count,
minimum and maximum of its values over the matches. Under SKIP TILL ANY MATCH those follow from
prefix counters updated row by row (A-Seq, Qi 2013; GRETA, Poppe et al., VLDB 2017), in time
polynomial in the rows, where enumerating the matches is exponential
(``sparkcep.engines.sase.aggregation``). The same text gives the same answer, only faster.

:func:`pushdown` decides whether a clause qualifies and, when it does, what the function outputs
and how each aggregate call of the outer query reads it. The rewrite then replaces the clause by
the function (one row per partition holding the partial aggregates) and each aggregate call by a
read of its column (``any_value``: a group is one partition), splicing the user's text by
source positions; everything else in the outer query stays as written. When a clause is
aggregated but does not qualify, the reason is kept for ``explain``, and the query runs by
enumeration under the usual budgets.

A match-dependent DEFINE qualifies when it is a conjunction of comparisons of the tested row
with an earlier row of the match whose value the counters can be keyed by (GRETA, Poppe et al.,
VLDB 2017; ``sparkcep.engines.sase.trend_aggregation``): ``x op LAST(X.x, 1)`` in X's own DEFINE
(the previous X row), ``x op FIRST(V.x)`` / ``x op LAST(V.x)`` of another variable V, either
optionally as ``LAST(...) IS NULL OR x op LAST(...)``, with op one of ``= <=> <> < <= > >=``.
Each side is a row-local expression of one row (``B.price > A.price * 1.05``, ``B.x + 1 >
LAST(B.x, 1)``): the lowering has already spliced each side's text into a value column that
Catalyst computes per input row (``LAST(B.x, 1) + 1`` is ``x + 1`` read at the previous B row),
so the counters are keyed by the compared row's value column and looked up with the tested
row's. When the two sides' Spark types differ, registration records the common type Spark
compares them in (``AggregationPlan.casts``) and the runner casts both columns to it, as the
enumerating path's binding does. :func:`row_comparisons` recognises them in the lowered DEFINE
tree; anything else keeps the query on enumeration, with the reason.

Two more shapes run on ``sparkcep.engines.sase.grouped_aggregation``: GROUP BY *buckets* -- a
deterministic row-local expression of one measure that is one row's value of a variable every
match has (``date_trunc('HOUR', first_ts)``) -- whose text is spliced with the measure replaced
by its argument into a value column Catalyst computes per row (:func:`_bucket`), the counters
keyed by it; the function then hands the outer query, under the measure's name, the least value
of the measure in each group, from which the untouched outer query computes the bucket again.
And measures ``SUM(X.col)`` / ``COUNT(X.col)`` over one positive variable's rows, aggregated
outside like any other measure.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp

from sparkcep import dialect
from sparkcep.compiler.splice import Splicer, quote_identifier
from sparkcep.engines.sase.aggregation import MeasureRef, aggregation_unsupported_reason
from sparkcep.engines.sase.pattern import compile_pattern
from sparkcep.engines.sase.trend_aggregation import FLIPPED, OPERATORS, RowComparison
from sparkcep.engines.spec import MatchSpec, RowsPerMatch, Strategy
from sparkcep.plan import expressions as p
from sparkcep.plan.aggregation import AggregateOutput, AggregationPlan, output_name

# the outer aggregates computed from prefix counters, by sqlglot node type
_FUNCTIONS = {exp.Count: "count", exp.Sum: "sum", exp.Avg: "avg", exp.Min: "min", exp.Max: "max"}


@dataclass(frozen=True)
class Pushdown:
    """A qualifying clause: the plan, and per outer aggregate call its (start, end) in the
    statement and the SQL that replaces it."""

    plan: AggregationPlan
    calls: tuple[tuple[int, int, str], ...]
    # row-local SQL to compute as more value columns (the GROUP BY buckets), in order: their
    # indices continue the clause's value columns
    value_texts: tuple[str, ...] = ()


def pushdown(
    clause: exp.Expression,
    spec: MatchSpec,
    conditions: dict[int, p.Expression],
    value_texts: list[str],
    source: str,
    partition_names: tuple[str, ...],
    measure_components: dict[str, p.Expression | None],
) -> tuple[Pushdown | None, str | None]:
    """``(Pushdown, None)`` when the query aggregating ``clause`` qualifies; ``(None, reason)``
    when it aggregates the clause but does not qualify; ``(None, None)`` when no outer query
    aggregates the clause. ``conditions``: the match-dependent DEFINE per variable; ``value_texts``:
    the clause's value columns' texts (a GROUP BY bucket may reuse one); ``source``:
    the statement (for the comparisons' text in explain). ``measure_components``: per measure name (lower case), the one
    component the measure is (None when it is more than one component's value)."""
    select = _aggregating_select(clause)
    if select is None:
        return None, None
    comparisons: tuple[RowComparison, ...] = ()
    texts: tuple[str, ...] = ()
    reason = _query_reason(select, spec, False, partition_names)
    buckets = _bucket_items(select, partition_names) if reason is None else []
    if reason is None and conditions and spec.strategy is not Strategy.SKIP_TILL_ANY_MATCH:
        reason = (f"a match-dependent DEFINE under {spec.strategy.value} (comparisons between rows "
                  "are counted under SKIP TILL ANY MATCH only)")
    if reason is None and conditions:
        found = row_comparisons(spec, conditions)
        if isinstance(found, str):
            reason = found
        else:
            comparisons = tuple(c for c, _span in found)
            texts = tuple(" ".join(source[a:b].split()) if a is not None else
                          _describe(c, spec.variable_names) for c, (a, b) in found)
    if reason is not None:
        return None, reason
    alias = clause.args.get("alias")
    alias_name = alias.name.lower() if alias is not None and alias.name else None
    partitions = {n.lower() for n in partition_names}
    measures: list[MeasureRef] = []
    names: list[str] = []
    outputs: list[AggregateOutput] = []
    calls: list[tuple[int, int, str]] = []
    # GROUP BY buckets of a selected row's value: the key each group is counted under, and per
    # measure bucketed its representative (the least value over the group's matches), which the
    # outer query reads under the measure's name to compute the bucket again
    keys: list[MeasureRef] = []
    key_texts: list[str] = []
    new_texts: list[str] = []
    grouped: dict[str, int] = {}  # measure name (lower case) -> output of its representative
    group_names: dict[str, str] = {}
    for item in buckets:
        found = _bucket(item, spec, alias_name, measure_components, partitions, value_texts,
                        new_texts, source)
        if isinstance(found, str):
            return None, f"GROUP BY {' '.join(_text(item, source).split())}: {found}"
        key, measure, column = found
        if key not in keys:
            keys.append(key)
            key_texts.append(" ".join(_text(item, source).split()))
        output = _register(AggregateOutput("min", None), measure, column.name, measures, names)
        if output not in outputs:
            outputs.append(output)
        grouped[column.name.lower()] = outputs.index(output)
        group_names.setdefault(column.name.lower(), column.name)
    for node in _outer_nodes(select):
        for column in _columns_outside_aggregates(node):
            name = column.name.lower()
            if (_names_clause(column, alias_name) and name in measure_components
                    and name not in partitions and name not in grouped):
                return None, f"the measure {column.name} is used outside COUNT/SUM/AVG/MIN/MAX"
        for call in _aggregate_calls(node):
            found = _call_output(call, alias_name, measure_components, measures, names)
            if isinstance(found, str):
                return None, found
            if found not in outputs:
                outputs.append(found)
            column = output_name(outputs.index(found))
            read = f"any_value(`{column}`)"
            if found.function in ("count_star", "count"):
                read = f"coalesce({read}, CAST(0 AS BIGINT))"
            calls.append((*dialect.span(call), read))
    if not calls:
        return None, "the outer query computes no COUNT/SUM/AVG/MIN/MAX of the matches"
    positive = {c.var for c in compile_pattern(spec).components}
    for reference, name in zip(measures, names):
        if reference.which in (SUM_KIND, COUNT_KIND) and reference.variable not in positive:
            return None, f"the measure {name} sums the rows of a negated variable"
    if spec.strategy is not Strategy.SKIP_TILL_ANY_MATCH:
        if keys:
            return None, (f"GROUP BY a bucket under {spec.strategy.value} (counted per bucket "
                          "under SKIP TILL ANY MATCH only)")
        if any(m.which in (SUM_KIND, COUNT_KIND) for m in measures):
            return None, (f"a per-match SUM/COUNT over a variable's rows under "
                          f"{spec.strategy.value} (summed under SKIP TILL ANY MATCH only)")
    plan = AggregationPlan(
        tuple(measures), tuple(outputs), tuple(names), comparisons, texts, tuple(keys),
        tuple(key_texts), tuple((group_names[n], i) for n, i in grouped.items()))
    return Pushdown(plan, tuple(calls), tuple(new_texts)), None


def _text(node: exp.Expression, source: str) -> str:
    start, end = dialect.span(node)
    return source[start:end]


def _register(output: AggregateOutput, reference: MeasureRef, name: str,
              measures: list[MeasureRef], names: list[str]) -> AggregateOutput:
    if reference not in measures:
        measures.append(reference)
        names.append(name)
    return AggregateOutput(output.function, measures.index(reference))


# ---------------------------------------------------------------------------------------------
# Match-dependent DEFINE conditions the counters can be keyed by
# ---------------------------------------------------------------------------------------------


def row_comparisons(spec: MatchSpec, conditions: dict[int, p.Expression]):
    """Every match-dependent DEFINE as ``RowComparison``s, each with the (start, end) of its text
    in the statement (``(None, None)`` when unknown); or why one is not such a conjunction."""
    pattern = compile_pattern(spec)
    positive = {c.var for c in pattern.components}
    negated = {v for _p, v in pattern.neg_list}
    names = spec.variable_names
    found = []
    for var in sorted(conditions):
        if var in negated:
            return (f"{names[var]} is negated in PATTERN and has a match-dependent DEFINE "
                    "(counting needs the negated rows' conditions row-local)")
        if var not in positive:
            continue
        for atom in _conjuncts(conditions[var]):
            comparison = _comparison(var, atom, positive)
            if isinstance(comparison, str):
                return (f"{names[var]}'s DEFINE: {comparison} (counting without enumerating takes "
                        "only x op LAST(X.x, 1) of its own variable and x op FIRST/LAST(V.x) of "
                        "another, joined by AND)")
            span = getattr(atom, "span", None) or (None, None)
            found.append((comparison, span))
    return found


_SYMBOLS = {"eq": "=", "null_safe_eq": "<=>", "neq": "<>", "lt": "<", "lte": "<=", "gt": ">",
            "gte": ">="}


def _describe(comparison: RowComparison, names) -> str:
    """A comparison in words, when its text in the statement is not known."""
    ref = comparison.ref
    if ref.variable == comparison.variable:
        other = f"LAST({names[ref.variable]}.x, 1)"
    else:
        other = f"{ref.which.upper()}({names[ref.variable]}.x)"
    text = f"{names[comparison.variable]}.x {_SYMBOLS[comparison.op]} {other}"
    return f"{other} IS NULL OR {text}" if comparison.holds_when_null else text


def _unwrap(node: p.Expression) -> p.Expression:
    while isinstance(node, p.Operator) and node.name == "paren":
        node = node.operands[0]
    return node


def _conjuncts(node: p.Expression) -> list[p.Expression]:
    node = _unwrap(node)
    if isinstance(node, p.Operator) and node.name == "and":
        return [atom for operand in node.operands for atom in _conjuncts(operand)]
    return [node]


def _comparison(var: int, node: p.Expression, positive: set[int]):
    """``node`` as a ``RowComparison`` of variable ``var``'s DEFINE, or why not."""
    node = _unwrap(node)
    holds_when_null = False
    if isinstance(node, p.Operator) and node.name == "or" and len(node.operands) == 2:
        first, second = (_unwrap(o) for o in node.operands)
        null_test, compared = (first, second) if _is_null_test(first) else (second, first)
        if not _is_null_test(null_test):
            return "an OR that is not LAST(...) IS NULL OR a comparison"
        holds_when_null = True
        node = compared
    if not (isinstance(node, p.Operator) and node.name in OPERATORS and len(node.operands) == 2):
        return "a condition that is not a comparison of two values"
    left, right = (_unwrap(o) for o in node.operands)
    op = node.name
    if isinstance(left, p.Navigation) and isinstance(right, p.CurrentRow):
        left, right, op = right, left, FLIPPED[op]
    if not (isinstance(left, p.CurrentRow) and isinstance(right, p.Navigation)):
        return "a comparison that is not of the row's value with another row's"
    if holds_when_null and _unwrap(null_test.operands[0]) != right:
        return "LAST(...) IS NULL of another row than the one compared"
    if right.final or right.variables is None or len(right.variables) != 1:
        return "a navigation that is not over one pattern variable"
    (target,) = right.variables
    if target not in positive:
        return "a navigation to a negated variable"
    if target == var:
        if right.from_start or right.offset != 1:
            return "a navigation over the variable's own rows other than LAST(X.x, 1)"
        which = "last"
    else:
        if right.offset != 0:
            return "a navigation with an offset to another variable"
        which = "first" if right.from_start else "last"
    ref = MeasureRef(target, which, right.column)
    return RowComparison(var, left.column, op, ref, holds_when_null)


def _is_null_test(node: p.Expression) -> bool:
    return (isinstance(node, p.Operator) and node.name == "is" and len(node.operands) == 2
            and isinstance(_unwrap(node.operands[0]), p.Navigation)
            and isinstance(node.operands[1], p.Constant) and node.operands[1].value is None)


def _aggregating_select(clause: exp.Expression) -> exp.Select | None:
    """The SELECT whose FROM is ``clause``, when it aggregates (GROUP BY or an aggregate call)."""
    from_ = clause.parent
    if not isinstance(from_, exp.From) or not isinstance(from_.parent, exp.Select):
        return None
    select = from_.parent
    if select.args.get("group") is not None:
        return select
    if any(_aggregate_calls(node) for node in _outer_nodes(select)):
        return select
    return None


def _query_reason(select: exp.Select, spec: MatchSpec, has_conditions: bool,
                  partition_names: tuple[str, ...]) -> str | None:
    if spec.rows_per_match is not RowsPerMatch.ONE:
        return "ALL ROWS PER MATCH"
    if spec.strategy is Strategy.STRICT_CONTIGUITY:
        return ("strict contiguity: each row starts at most one match (AFTER MATCH SKIP resumes "
                "after the match's first row), so at most one match per input row reaches Spark's "
                "aggregation and enumerating them is linear; counters pay only under SKIP TILL "
                "ANY / NEXT MATCH, whose matches can be exponentially many")
    engine_reason = aggregation_unsupported_reason(spec, has_conditions)
    if engine_reason is not None:
        return engine_reason
    if select.args.get("joins"):
        return "the outer query joins the matches with another relation"
    if select.args.get("where") is not None:
        return "the outer query filters the matches (WHERE) before aggregating them"
    for key in ("qualify", "laterals", "pivots"):
        if select.args.get(key):
            return f"the outer query has {key.upper()}"
    if any(isinstance(n, exp.Star) and not isinstance(n.parent, exp.Count) for n in select.expressions):
        return "the outer query selects *"
    if any(node.find(exp.Window) is not None for node in _outer_nodes(select)):
        return "the outer query uses a window function"
    group = select.args.get("group")
    grouped = []
    if group is not None:
        for key in ("grouping_sets", "cube", "rollup", "totals"):
            if group.args.get(key):
                return "GROUPING SETS, CUBE or ROLLUP"
        partitions = {n.lower() for n in partition_names}
        for item in group.expressions:
            if isinstance(item, exp.Column) and item.name.lower() in partitions:
                grouped.append(item.name.lower())
            elif isinstance(item, exp.Literal):
                return "GROUP BY a position or a constant"
    if set(grouped) != {n.lower() for n in partition_names}:
        return ("GROUP BY does not list every PARTITION BY column (each group must lie in one "
                "partition)")
    return None


def _bucket_items(select: exp.Select, partition_names: tuple[str, ...]) -> list[exp.Expression]:
    """The GROUP BY items that are not PARTITION BY columns: buckets of a selected row's value."""
    group = select.args.get("group")
    partitions = {n.lower() for n in partition_names}
    return [item for item in (group.expressions if group is not None else [])
            if not (isinstance(item, exp.Column) and item.name.lower() in partitions)]


# functions whose value is not one per input row (Spark's nondeterministic expressions)
_NONDETERMINISTIC = {"rand", "randn", "random", "uuid", "shuffle", "randstr", "uniform",
                     "monotonically_increasing_id", "spark_partition_id", "input_file_name",
                     "current_timestamp", "now", "current_date"}


def _bucket(item: exp.Expression, spec: MatchSpec, alias_name: str | None,
            measure_components: dict, partitions: set[str], value_texts: list[str],
            new_texts: list[str], source: str):
    """A GROUP BY item as ``(key, measure, column)``: the slot the counters are keyed by (the
    item computed per input row, as a value column), the measure it buckets and its column in
    the item; or why it is not such a bucket. ``new_texts`` gets the value column's SQL."""
    if item.find(exp.AggFunc, exp.Window, exp.Subquery, exp.Select) is not None:
        return "an aggregate, window function or subquery"
    for node in item.walk():
        name = (node.name if isinstance(node, exp.Anonymous) else
                node.sql_name() if isinstance(node, exp.Func) else "")
        if isinstance(node, (exp.Rand, exp.Randn)) or name.lower() in _NONDETERMINISTIC:
            return "a nondeterministic function"
    splicer = Splicer(source)
    measure_columns = []
    for column in item.find_all(exp.Column):
        name = column.name.lower()
        if _names_clause(column, alias_name) and name in measure_components and name not in partitions:
            measure_columns.append(column)
        elif name in partitions and _names_clause(column, alias_name):
            splicer.replace(*dialect.span(column), quote_identifier(column.name))
        else:
            return f"{column.sql()} is neither a measure nor a PARTITION BY column"
    if len({c.name.lower() for c in measure_columns}) != 1:
        return "a GROUP BY item must read exactly one measure (a bucket of its value)"
    column = measure_columns[0]
    reference = _measure_ref(measure_components[column.name.lower()])
    if reference is None or reference.which not in ("first", "last"):
        return (f"the measure {column.name} is not X.col, FIRST(X.col) or LAST(X.col) of one "
                "variable")
    pattern = compile_pattern(spec)
    if not any(c.var == reference.variable and c.min >= 1 for c in pattern.components):
        return (f"the measure {column.name} is of a variable some matches have no row for (its "
                "quantifier's minimum is 0)")
    value = value_texts[reference.column]
    for c in measure_columns:
        splicer.replace(*dialect.span(c), value)
    text = f"({splicer.render(*dialect.span(item))})"
    if text == f"({value})" or text == value:
        index = reference.column
    elif text in value_texts:
        index = value_texts.index(text)
    else:
        if text not in new_texts:
            new_texts.append(text)
        index = len(value_texts) + new_texts.index(text)
    return MeasureRef(reference.variable, reference.which, index), reference, column


def _outer_nodes(select: exp.Select) -> list[exp.Expression]:
    """The parts of the outer query that may read the clause's columns (not its FROM)."""
    nodes = list(select.expressions)
    for key in ("having", "order"):
        node = select.args.get(key)
        if node is not None:
            nodes.append(node)
    return nodes


def _aggregate_calls(node: exp.Expression) -> list[exp.Expression]:
    if isinstance(node, exp.AggFunc):
        return [node]
    return [n for n in node.find_all(exp.AggFunc) if not _inside_subquery(n, node)]


def _inside_subquery(node: exp.Expression, top: exp.Expression) -> bool:
    parent = node.parent
    while parent is not None and parent is not top:
        if isinstance(parent, (exp.Subquery, exp.Select)):
            return True
        parent = parent.parent
    return False


def _columns_outside_aggregates(node: exp.Expression) -> list[exp.Column]:
    found = []
    for column in node.find_all(exp.Column):
        parent, inside = column.parent, False
        while parent is not None and parent is not node.parent:
            if isinstance(parent, exp.AggFunc):
                inside = True
                break
            parent = parent.parent
        if not inside:
            found.append(column)
    return found


def _names_clause(column: exp.Column, alias_name: str | None) -> bool:
    table = column.table
    return not table or (alias_name is not None and table.lower() == alias_name)


def _call_output(call: exp.Expression, alias_name: str | None,
                 measure_components: dict[str, p.Expression | None],
                 measures: list[MeasureRef], names: list[str]) -> AggregateOutput | str:
    """The output an outer aggregate call reads, registering its measure; or why it cannot."""
    function = _FUNCTIONS.get(type(call))
    if function is None:
        return f"{call.sql_name().upper()} of the matches (pushdown computes COUNT, SUM, AVG, MIN, MAX)"
    argument = call.this
    if isinstance(argument, exp.Distinct):
        return f"{function.upper()}(DISTINCT ...)"
    if call.args.get("expressions"):
        return f"{function.upper()} with more than one argument"
    if function == "count" and (isinstance(argument, exp.Star) or
                                (isinstance(argument, exp.Literal) and not argument.is_string)):
        return AggregateOutput("count_star", None)
    if not isinstance(argument, exp.Column) or not _names_clause(argument, alias_name):
        return f"{function.upper()} of an expression (pushdown takes a measure's name)"
    component = measure_components.get(argument.name.lower(), "missing")
    if component == "missing":
        return f"{function.upper()}({argument.name}): not a measure"
    reference = _measure_ref(component)
    if reference is None:
        return (f"the measure {argument.name} is not X.col, FIRST(X.col), LAST(X.col), SUM(X.col) "
                "or COUNT(X.col) of one variable")
    return _register(AggregateOutput(function, None), reference, argument.name, measures, names)


SUM_KIND, COUNT_KIND = "sum", "count"


def _measure_ref(component) -> MeasureRef | None:
    if (isinstance(component, p.Aggregate) and component.function in (SUM_KIND, COUNT_KIND)
            and not component.distinct and component.column is not None
            and component.variables is not None and len(component.variables) == 1):
        (variable,) = component.variables
        return MeasureRef(variable=variable, which=component.function, column=component.column)
    if not isinstance(component, p.Navigation) or component.offset != 0:
        return None
    if component.variables is None or len(component.variables) != 1:
        return None
    (variable,) = component.variables
    return MeasureRef(variable=variable, which="first" if component.from_start else "last",
                      column=component.column)
