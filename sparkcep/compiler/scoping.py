"""Which names a MATCH_RECOGNIZE clause hides and which subqueries it may contain.

* The row pattern input table's name (its correlation name, else its table name) is visible
  only inside the clause; outside it, the output table is the only relation and is named by the
  clause's own alias (ISO/IEC 19075-5 4.3: the row pattern input table's range variable is
  in scope in the clause, the output table replaces it in the FROM). ``SELECT Ticker.x FROM t Ticker
  MATCH_RECOGNIZE (...) AS M`` is therefore a user error, located at ``Ticker.x``.
* A subquery in MEASURES or DEFINE is evaluated by Spark as written (an uncorrelated scalar
  subquery is a constant). It may not see the match: a subquery that refers to a pattern
  variable, or uses a row pattern function (PREV, NEXT, CLASSIFIER, MATCH_NUMBER, RUNNING,
  FINAL), is refused, as is a subquery holding a MATCH_RECOGNIZE of its own (Oracle refuses
  both: correlated subqueries and nested MATCH_RECOGNIZE in the clause). A name without a
  qualifier may be the subquery's own column or the input's (an implicit reference to the
  universal row pattern variable): that needs the schema, so the subqueries' places are
  recorded (``subquery_spans``) and registration decides (``sparkcep.runtime.subqueries``).
"""

from __future__ import annotations

from collections.abc import Iterator

from sqlglot import exp

from sparkcep import dialect
from sparkcep.dialect import expressions as dx
from sparkcep.compiler.analysis import Analysis, Scope


def is_subquery(node: exp.Expression) -> bool:
    """A query nested in an expression (scalar subquery, IN/EXISTS/ARRAY operand)."""
    return isinstance(node, exp.Query)


def walk_outside_subqueries(node: exp.Expression) -> Iterator[exp.Expression]:
    """``node`` and its descendants, not descending into subqueries (a subquery itself is
    yielded; what it holds is Spark's to resolve)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if current is not node and is_subquery(current):
            continue
        stack.extend(reversed(list(current.iter_expressions())))


# ----------------------------------------------------------------------------------------------
# Subqueries in MEASURES and DEFINE
# ----------------------------------------------------------------------------------------------


def check_subqueries(analysis: Analysis) -> None:
    """Refuse subqueries in MEASURES / DEFINE that would need the match (see the module doc)."""
    expressions = [*analysis.definitions.values(), *(e for _, e, _ in analysis.measures)]
    for expression in expressions:
        for node in walk_outside_subqueries(expression):
            if node is not expression and is_subquery(node):
                _check_subquery(node, analysis.scope)


def subquery_spans(analysis: Analysis) -> tuple[tuple[int, int], ...]:
    """The (start, end) of each outermost subquery in MEASURES / DEFINE, in the statement: a
    name in one that resolves to no table of its own (an outer reference) reads the row pattern
    input, which only Spark's analysis can tell without the schema (``runtime.subqueries``)."""
    spans = []
    expressions = [*analysis.definitions.values(), *(e for _, e, _ in analysis.measures)]
    for expression in expressions:
        for node in walk_outside_subqueries(expression):
            if node is not expression and is_subquery(node):
                spans.append(dialect.span(node))
    return tuple(sorted(set(spans)))


def _check_subquery(query: exp.Expression, scope: Scope) -> None:
    for node in query.walk():
        if isinstance(node, dx.MatchRecognize):
            raise scope.error(
                "MATCH_RECOGNIZE_IN_SUBQUERY",
                "a subquery in MEASURES or DEFINE cannot contain MATCH_RECOGNIZE",
                node,
            )
        if isinstance(node, (dx.Classifier, dx.MatchNumber, dx.RunningFinal)) or (
            isinstance(node, dx.Navigation) and node.args["kind"] in ("PREV", "NEXT")
        ):
            raise scope.error(
                "CORRELATED_SUBQUERY",
                "a subquery in MEASURES or DEFINE cannot use row pattern functions: it is "
                "evaluated independently of the match",
                node,
            )
        if isinstance(node, exp.Column):
            table = node.args.get("table")
            if table is not None and node.args.get("db") is None and scope.is_variable_or_subset(table):
                if not _bound_inside(node, query, table.name):
                    raise scope.error(
                        "CORRELATED_SUBQUERY",
                        f"a subquery in MEASURES or DEFINE cannot refer to the pattern variable "
                        f"'{table.name}': it is evaluated independently of the match",
                        node,
                    )


def _bound_inside(column: exp.Column, query: exp.Expression, name: str) -> bool:
    """Whether a relation named ``name`` in a FROM between ``column`` and ``query`` binds it."""
    node = column.parent
    while node is not None:
        if isinstance(node, exp.Select) and name.lower() in _relation_names(node):
            return True
        if node is query:
            return False
        node = node.parent
    return False


# ----------------------------------------------------------------------------------------------
# The input table's name is hidden outside the clause
# ----------------------------------------------------------------------------------------------


def _relation_name(relation: exp.Expression) -> str | None:
    alias = relation.args.get("alias")
    if isinstance(alias, exp.TableAlias) and alias.this is not None:
        return alias.name
    if isinstance(relation, exp.Table) and isinstance(relation.this, exp.Identifier):
        return relation.name
    return None


def _relation_names(select: exp.Select) -> set[str]:
    """The names of the relations in ``select``'s FROM and JOINs, lower case."""
    relations: list[exp.Expression] = []
    from_ = select.args.get("from_") or select.args.get("from")
    if from_ is not None:
        relations.append(from_.this)
    relations += [join.this for join in select.args.get("joins") or []]
    return {name.lower() for name in map(_relation_name, relations) if name}


def check_input_name_hidden(clause: dx.MatchRecognize, scope: Scope) -> None:
    """Refuse a reference to the input table's name, or to a pattern variable or SUBSET name,
    in the query around the clause: neither is visible there (ISO/IEC 19075-5, 4.4: pattern
    variables are in scope only in MEASURES and DEFINE), and Spark would report the unresolved
    name without a position in the user's text (``A.*``: "Can only star expand ...")."""
    output = _relation_name(clause)
    select = clause.parent
    while select is not None and not isinstance(select, exp.Select):
        select = select.parent
    if select is None:
        return
    hidden: dict[str, str] = {}  # lower-case name -> what it names
    table = _relation_name(clause.this)
    if table is not None:
        hidden[table.lower()] = "input"
    for name in scope.variables:
        hidden.setdefault(name.lower(), "a pattern variable")
    for name in scope.subsets:
        hidden.setdefault(name.lower(), "a SUBSET name")
    for measure in clause.args.get("measures") or []:  # a STRUCT measure's fields: up.x
        alias = measure.args.get("alias")
        if alias is not None and hidden.get(alias.name.lower()) != "input":
            hidden.pop(alias.name.lower(), None)
    if output is not None:
        hidden.pop(output.lower(), None)  # the output table took the same name
    hidden = {name: what for name, what in hidden.items() if not _bound_around(select, name)}
    if not hidden:
        return  # (a name another relation of the same FROM, or of an enclosing query, binds)
    for column in select.find_all(exp.Column):
        qualifier = column.args.get("table")
        if qualifier is None or qualifier.name.lower() not in hidden or _in_a_clause(column, select):
            continue
        if column.args.get("db") is not None or _bound_inside(column, select, qualifier.name):
            continue
        named = f"name the output table (MATCH_RECOGNIZE (...) AS {output or 'M'})"
        if hidden[qualifier.name.lower()] == "input":
            raise scope.error(
                "INPUT_TABLE_NOT_VISIBLE",
                f"'{qualifier.name}' names the input of MATCH_RECOGNIZE, which is not visible "
                f"outside the clause; {named} and qualify with that name",
                column,
            )
        raise scope.error(
            "PATTERN_VARIABLE_OUTSIDE_MEASURES_OR_DEFINE",
            f"'{qualifier.name}' is {hidden[qualifier.name.lower()]} of MATCH_RECOGNIZE, visible only in its "
            f"MEASURES and DEFINE; compute the value as a measure (MEASURES LAST({qualifier.name}.x) "
            "AS x) and read the measure",
            column,
        )


def _bound_around(select: exp.Select, name: str) -> bool:
    """Whether a FROM of ``select`` or of a query enclosing it binds ``name`` (a reference in
    ``select`` then resolves to that relation, as in any correlated subquery)."""
    node: exp.Expression | None = select
    while node is not None:
        if isinstance(node, exp.Select) and name.lower() in _relation_names(node):
            return True
        node = node.parent
    return False


def _in_a_clause(node: exp.Expression, select: exp.Select) -> bool:
    """Whether ``node`` lies inside a MATCH_RECOGNIZE clause below ``select`` (where columns
    are qualified by that clause's pattern variables, not by relations)."""
    while node is not None and node is not select:
        if isinstance(node, dx.MatchRecognize):
            return True
        node = node.parent
    return False
