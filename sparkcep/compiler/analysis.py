"""Semantic analysis of one MATCH_RECOGNIZE clause.

Resolves pattern variables and SUBSETs, lowers PATTERN to the row pattern IR, reads the clause
options, and checks every rule of SQL:2016 (ISO/IEC TR 19075-5) and of the CEP extensions that can
be checked without data. Every violation is an ``AnalysisError`` pointing at the offending token.
Expression-level rules (navigation nesting, consistent references, ...) are checked while lowering
DEFINE and MEASURES (``sparkcep.compiler.lowering``), which shares this module's ``Scope``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlglot import exp

from sparkcep import dialect
from sparkcep.dialect import expressions as dx
from sparkcep.engines import rowpattern as rp
from sparkcep.errors import AnalysisError, InternalError
from sparkcep.engines.spec import RowsPerMatch, SkipMode, Strategy

# Variable names follow Spark's identifier rules: unquoted names are case-insensitive
# (canonical form upper case, as CLASSIFIER() returns them), quoted names are exact.


def canonical_name(identifier: exp.Identifier) -> str:
    return identifier.name if identifier.args.get("quoted") else identifier.name.upper()


@dataclass
class Scope:
    """The names visible inside one MATCH_RECOGNIZE clause and where errors point."""

    sql: str
    variables: list[str] = field(default_factory=list)
    variable_ids: dict[str, int] = field(default_factory=dict)
    subsets: dict[str, frozenset[int]] = field(default_factory=dict)
    # variable id -> the ids of all copies of that variable (``sparkcep.compiler.unrolling``); a name
    # stands for all of them
    aliases: dict[int, frozenset[int]] = field(default_factory=dict)

    def error(self, code: str, message: str, node: exp.Expression | None) -> AnalysisError:
        if node is None:
            return AnalysisError(code, message)
        start, end = dialect.span(node)
        return AnalysisError.at_offset(code, message, self.sql, start, max(1, end - start))

    def resolve(self, identifier: exp.Identifier) -> frozenset[int]:
        """The primary variable ids a pattern variable or SUBSET name stands for."""
        name = canonical_name(identifier)
        if name in self.variable_ids:
            return self.same_variable(self.variable_ids[name])
        if name in self.subsets:
            return frozenset().union(*(self.same_variable(v) for v in self.subsets[name]))
        raise self.error(
            "UNDEFINED_PATTERN_VARIABLE",
            f"'{identifier.name}' is neither a pattern variable of PATTERN nor a SUBSET name",
            identifier,
        )

    def same_variable(self, var: int) -> frozenset[int]:
        """``var`` and its copies."""
        return self.aliases.get(var, frozenset({var}))

    def is_variable_or_subset(self, identifier: exp.Identifier) -> bool:
        name = canonical_name(identifier)
        return name in self.variable_ids or name in self.subsets


@dataclass
class Analysis:
    node: dx.MatchRecognize
    scope: Scope
    pattern: rp.Pattern
    definitions: dict[int, exp.Expression]
    measures: list[tuple[str, exp.Expression, dx.Measure]]
    partition_by: list[exp.Expression]
    order_by: list[exp.Ordered]
    rows_per_match: RowsPerMatch
    skip: SkipMode
    skip_to: frozenset[int] | None
    strategy: Strategy
    within: dx.Within | None


_ROWS = {
    "ONE": RowsPerMatch.ONE,
    "ALL": RowsPerMatch.ALL_SHOW_EMPTY,
    "ALL_SHOW_EMPTY": RowsPerMatch.ALL_SHOW_EMPTY,
    "ALL_OMIT_EMPTY": RowsPerMatch.ALL_OMIT_EMPTY,
    "ALL_WITH_UNMATCHED": RowsPerMatch.ALL_WITH_UNMATCHED,
}
_STRATEGIES = {s.name: s for s in Strategy}


def _option(node: exp.Expression | None) -> str | None:
    if node is None:
        return None
    value = node.this
    return (value.name if isinstance(value, exp.Expression) else str(value)).upper()


def analyze(node: dx.MatchRecognize, sql: str) -> Analysis:
    scope = Scope(sql)
    pattern_node = node.args["pattern"]

    # Primary variables: in order of first appearance in PATTERN.
    for variable in pattern_node.find_all(dx.PatternVariable, bfs=False):
        name = canonical_name(variable.this)
        if name not in scope.variable_ids:
            scope.variable_ids[name] = len(scope.variables)
            scope.variables.append(name)

    for subset in node.args.get("subsets") or []:
        name = canonical_name(subset.this)
        if name in scope.variable_ids:
            raise scope.error(
                "SUBSET_NAME_CONFLICT",
                f"SUBSET name '{subset.this.name}' is already a pattern variable",
                subset.this,
            )
        if name in scope.subsets:
            raise scope.error(
                "DUPLICATE_SUBSET", f"SUBSET '{subset.this.name}' is defined twice", subset.this
            )
        members: set[int] = set()
        for member in subset.expressions:
            member_name = canonical_name(member)
            if member_name not in scope.variable_ids:
                raise scope.error(
                    "UNDEFINED_PATTERN_VARIABLE",
                    f"SUBSET member '{member.name}' is not a pattern variable of PATTERN",
                    member,
                )
            members.add(scope.variable_ids[member_name])
        scope.subsets[name] = frozenset(members)

    definitions: dict[int, exp.Expression] = {}
    for definition in node.args.get("define") or []:
        name = canonical_name(definition.this)
        if name in scope.subsets:
            raise scope.error(
                "DEFINE_SUBSET",
                f"'{definition.this.name}' is a SUBSET; DEFINE applies to primary pattern variables",
                definition.this,
            )
        if name not in scope.variable_ids:
            raise scope.error(
                "UNDEFINED_PATTERN_VARIABLE",
                f"DEFINE names '{definition.this.name}', which does not occur in PATTERN",
                definition.this,
            )
        var = scope.variable_ids[name]
        if var in definitions:
            raise scope.error(
                "DUPLICATE_DEFINITION",
                f"pattern variable '{definition.this.name}' is defined twice in DEFINE",
                definition.this,
            )
        definitions[var] = definition.args["condition"]

    rows_per_match = _ROWS[_option(node.args.get("rows_per_match")) or "ONE"]
    strategy = _STRATEGIES[_option(node.args.get("strategy")) or "STRICT_CONTIGUITY"]

    skip, skip_to = SkipMode.PAST_LAST_ROW, None
    after = node.args.get("after_match_skip")
    if after is not None:
        skip = SkipMode[_option(after)]
        target = after.args.get("variable")
        if target is not None:
            skip_to = scope.resolve(target)

    if after is not None and strategy is not Strategy.STRICT_CONTIGUITY:
        raise scope.error(
            "AFTER_MATCH_SKIP_WITH_SELECTION_STRATEGY",
            f"AFTER MATCH SKIP does not apply under {strategy.value}: every match is reported "
            "(see docs/semantics.md); remove the AFTER MATCH SKIP clause",
            after,
        )
    if strategy is not Strategy.STRICT_CONTIGUITY:
        for condition in definitions.values():
            number = condition.find(dx.MatchNumber)
            if number is not None:
                raise scope.error(
                    "MATCH_NUMBER_IN_DEFINE",
                    f"MATCH_NUMBER() cannot be used in DEFINE under {strategy.value}: a match's "
                    "number is only known when the match is reported",
                    number,
                )

    pattern = _lower_pattern(pattern_node, scope, strategy)
    if rows_per_match is RowsPerMatch.ALL_WITH_UNMATCHED:
        exclusion = pattern_node.find(dx.PatternExclusion)
        if exclusion is not None:
            raise scope.error(
                "EXCLUSION_WITH_UNMATCHED_ROWS",
                "pattern exclusion {- -} cannot be used with ALL ROWS PER MATCH WITH UNMATCHED ROWS",
                exclusion,
            )

    measures: list[tuple[str, exp.Expression, dx.Measure]] = []
    seen: dict[str, dx.Measure] = {}
    for measure in node.args.get("measures") or []:
        alias = measure.args["alias"]
        key = alias.name.lower()
        if key in seen:
            raise scope.error(
                "DUPLICATE_MEASURE_NAME", f"measure name '{alias.name}' is used twice", alias
            )
        seen[key] = measure
        measures.append((alias.name, measure.this, measure))

    partition_by = list(node.args.get("partition_by") or [])
    for item in partition_by:
        if not isinstance(item, exp.Column) or isinstance(item.this, exp.Star):
            raise scope.error(
                "PARTITION_BY_NOT_COLUMN", "PARTITION BY takes column names only", item
            )
        if item.table and scope.is_variable_or_subset(item.args["table"]):
            raise scope.error(
                "PATTERN_VARIABLE_OUTSIDE_MEASURES_OR_DEFINE",
                "pattern variables can only qualify columns in MEASURES and DEFINE",
                item,
            )
    order = node.args.get("order")
    order_by = list(order.expressions) if order is not None else []

    within = node.args.get("within")
    if within is not None and not order_by:
        raise scope.error("WITHIN_REQUIRES_ORDER_BY", "WITHIN needs an ORDER BY key", within)
    if within is not None and len(order_by) > 1:
        raise scope.error(
            "WITHIN_REQUIRES_SINGLE_ORDER_KEY",
            "WITHIN measures the window on the ORDER BY key, so ORDER BY must have one key",
            order_by[1],
        )

    return Analysis(
        node=node,
        scope=scope,
        pattern=pattern,
        definitions=definitions,
        measures=measures,
        partition_by=partition_by,
        order_by=order_by,
        rows_per_match=rows_per_match,
        skip=skip,
        skip_to=skip_to,
        strategy=strategy,
        within=within,
    )


def _lower_pattern(node: dx.RowPattern, scope: Scope, strategy: Strategy) -> rp.Pattern:
    strict = strategy is Strategy.STRICT_CONTIGUITY

    def lower(p: exp.Expression, top_level: bool) -> rp.Pattern:
        if isinstance(p, dx.PatternVariable):
            return rp.Label(scope.variable_ids[canonical_name(p.this)])
        if isinstance(p, dx.PatternEmpty):
            return rp.Empty()
        if isinstance(p, dx.PatternAnchor):
            return rp.Anchor(start=p.this == "^")
        if isinstance(p, dx.PatternGroup):
            return lower(p.this, top_level)
        if isinstance(p, dx.PatternConcat):
            return rp.Concat(tuple(lower(item, top_level) for item in p.expressions))
        if isinstance(p, dx.PatternAlternation):
            return rp.Alternation(tuple(lower(item, False) for item in p.expressions))
        if isinstance(p, dx.PatternPermute):
            return rp.Permute(tuple(lower(item, False) for item in p.expressions))
        if isinstance(p, dx.PatternExclusion):
            return rp.Exclusion(lower(p.this, False))
        if isinstance(p, dx.PatternQuantified):
            low, high = int(p.args["min"]), p.args.get("max")
            return rp.Quantified(
                lower(p.this, False),
                low,
                None if high is None else int(high),
                greedy=not p.args.get("reluctant"),
            )
        if isinstance(p, dx.PatternNegation):
            if strict:
                raise scope.error(
                    "NEGATION_REQUIRES_SKIP_STRATEGY",
                    "negation !X needs SKIP TILL NEXT MATCH or SKIP TILL ANY MATCH: under strict "
                    "contiguity no row lies between two neighbouring pattern elements",
                    p,
                )
            if not top_level:
                raise scope.error(
                    "NEGATION_NOT_IN_SEQUENCE",
                    "a negated variable !X must be an element of the top-level sequence of the "
                    "pattern (not under a quantifier, alternation, PERMUTE or exclusion)",
                    p,
                )
            variable = p.this
            return rp.Negation(scope.variable_ids[canonical_name(variable.this)])
        raise InternalError(f"unknown pattern node {type(p).__name__}")

    return lower(node, True)
