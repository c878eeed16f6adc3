"""Semantic analysis of one MATCH_RECOGNIZE clause.

Resolves pattern variables and SUBSETs, lowers PATTERN to the row pattern IR, reads the clause
options, and checks every rule of SQL:2016 (ISO/IEC TR 19075-5) and of the CEP extensions that can
be checked without data. Every violation is an ``AnalysisError`` pointing at the offending token.
Expression-level rules (navigation nesting, consistent references, ...) are checked while lowering
DEFINE and MEASURES (``sparkcep.compiler.lowering``), which shares this module's ``Scope``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from sqlglot import exp

from sparkcep import dialect
from sparkcep.dialect import expressions as dx
from sparkcep.engines import rowpattern as rp
from sparkcep.engines.standard.program import MAX_PROGRAM_SIZE
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
        return self.error_at(code, message, *dialect.span(node))

    def error_at(self, code: str, message: str, start: int, end: int) -> AnalysisError:
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
    # UNCERTAIN TIME (imprecise timestamps): the clause, MINIMUM CONFIDENCE's value and the
    # GRANULARITY in microseconds (None where not written)
    uncertain_time: dx.UncertainTime | None = None
    minimum_confidence: float | None = None
    granularity: int | None = None
    # ROWS PER MATCH ... WITH TIMED OUT MATCHES: also the runs a WITHIN window closed
    timed_out: bool = False


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
    """Check one clause and gather what lowering needs, step by step in clause order."""
    scope = Scope(sql)
    pattern_node = node.args["pattern"]
    _check_input_columns(node, scope)
    _collect_variables(pattern_node, scope)
    _collect_subsets(node, scope)
    definitions = _collect_definitions(node, scope)
    rows_per_match = _ROWS[_option(node.args.get("rows_per_match")) or "ONE"]
    strategy = _STRATEGIES[_option(node.args.get("strategy")) or "STRICT_CONTIGUITY"]
    skip, skip_to = _after_match_skip(node, scope, strategy)
    _check_match_number_in_define(definitions, scope, strategy)
    _check_boolean_definitions(definitions, scope)
    _check_pattern_limits(pattern_node, scope)
    pattern = _lower_pattern(pattern_node, scope, strategy)
    if strategy is Strategy.STRICT_CONTIGUITY:  # the SASE engines count, they do not unroll
        _check_program_size(pattern, pattern_node, scope)
    _check_exclusion(pattern_node, scope, rows_per_match)
    measures = _collect_measures(node, scope)
    partition_by = _partition_by(node, scope)
    order = node.args.get("order")
    order_by = list(order.expressions) if order is not None else []
    _check_order_by(order_by, scope)
    uncertain_time = node.args.get("uncertain_time")
    minimum_confidence, granularity = _uncertain_time(node, scope, definitions)
    within = node.args.get("within") if uncertain_time is not None else _within(node, scope, order_by)
    _check_trailing_negation(node, scope, rows_per_match)
    timed_out = _check_timed_out(node, scope, strategy, rows_per_match, definitions)
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
        uncertain_time=uncertain_time,
        minimum_confidence=minimum_confidence,
        granularity=granularity,
        timed_out=timed_out,
    )


def _check_input_columns(node: dx.MatchRecognize, scope: Scope) -> None:
    """A derived column list may not name a column twice, also not in different case: Spark
    resolves names case-insensitively, so ``t(x, X)`` makes every reference to x ambiguous."""
    alias = node.this.args.get("alias") if isinstance(node.this, exp.Expression) else None
    columns = alias.columns if isinstance(alias, exp.TableAlias) else []
    seen: dict[str, exp.Identifier] = {}
    for column in columns:
        key = column.name.lower()
        if key in seen:
            raise scope.error(
                "DUPLICATE_INPUT_COLUMN",
                f"the input relation names column '{column.name}' twice (column names are "
                f"case-insensitive: '{seen[key].name}' is the same column)",
                column,
            )
        seen[key] = column


def _collect_variables(pattern_node: dx.RowPattern, scope: Scope) -> None:
    """Primary variables: in order of first appearance in PATTERN."""
    for variable in pattern_node.find_all(dx.PatternVariable, bfs=False):
        name = canonical_name(variable.this)
        if name not in scope.variable_ids:
            scope.variable_ids[name] = len(scope.variables)
            scope.variables.append(name)


def _collect_subsets(node: dx.MatchRecognize, scope: Scope) -> None:
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


def _collect_definitions(node: dx.MatchRecognize, scope: Scope) -> dict[int, exp.Expression]:
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
    return definitions


def _after_match_skip(
    node: dx.MatchRecognize, scope: Scope, strategy: Strategy
) -> tuple[SkipMode, frozenset[int] | None]:
    skip, skip_to = SkipMode.PAST_LAST_ROW, None
    after = node.args.get("after_match_skip")
    if after is None:
        return skip, skip_to
    skip = SkipMode[_option(after)]
    target = after.args.get("variable")
    if target is not None:
        skip_to = scope.resolve(target)
    if strategy is not Strategy.STRICT_CONTIGUITY:
        raise scope.error(
            "AFTER_MATCH_SKIP_WITH_SELECTION_STRATEGY",
            f"AFTER MATCH SKIP does not apply under {strategy.value}: every match is reported "
            "(see docs/semantics.md); remove the AFTER MATCH SKIP clause",
            after,
        )
    return skip, skip_to


def _check_match_number_in_define(
    definitions: dict[int, exp.Expression], scope: Scope, strategy: Strategy
) -> None:
    if strategy is Strategy.STRICT_CONTIGUITY:
        return
    for condition in definitions.values():
        number = condition.find(dx.MatchNumber)
        if number is not None:
            raise scope.error(
                "MATCH_NUMBER_IN_DEFINE",
                f"MATCH_NUMBER() cannot be used in DEFINE under {strategy.value}: a match's "
                "number is only known when the match is reported",
                number,
            )


# Expressions whose value is never a boolean, whatever their operands' types. A DEFINE
# condition is a <search condition> (ISO/IEC 19075-5, 4.11): it must be boolean. A condition
# whose type depends on a column (``DEFINE B AS A.flag``) is checked when Spark types it.
_NOT_BOOLEAN = (
    exp.Add, exp.Sub, exp.Mul, exp.Div, exp.IntDiv, exp.Mod, exp.Neg, exp.DPipe, exp.Concat,
    exp.BitwiseAnd, exp.BitwiseOr, exp.BitwiseXor, exp.BitwiseNot, exp.Interval,
    exp.Count, exp.Sum, exp.Avg, exp.ArrayAgg, dx.MatchNumber, dx.Classifier,
)


def _check_boolean_definitions(definitions: dict[int, exp.Expression], scope: Scope) -> None:
    for condition in definitions.values():
        for operand in _boolean_operands(condition):
            if _never_boolean(operand):
                raise scope.error(
                    "DEFINE_NOT_BOOLEAN",
                    "a DEFINE condition must be a boolean expression (a comparison, a predicate, "
                    "or a boolean column), not a value",
                    operand,
                )


def _boolean_operands(condition: exp.Expression):
    """``condition`` and, through AND/OR/NOT and parentheses, the operands that must be boolean."""
    yield condition
    if isinstance(condition, (exp.And, exp.Or)):
        for side in (condition.this, condition.expression):
            yield from _boolean_operands(side)
    elif isinstance(condition, (exp.Not, exp.Paren)):
        yield from _boolean_operands(condition.this)


def _never_boolean(node: exp.Expression) -> bool:
    inner = node.this if isinstance(node, dx.RunningFinal) else node
    if isinstance(inner, exp.Literal):
        return True
    return isinstance(inner, _NOT_BOOLEAN)


#: The largest quantifier bound: Spark's (and Java's) largest INT, as in other engines.
MAX_QUANTIFIER_BOUND = 2_147_483_647
#: PERMUTE lists every ordering of its elements (ISO/IEC 19075-5, 4.12.4): n! alternatives.
MAX_PERMUTE_WIDTH = 8


def _check_pattern_limits(pattern_node: dx.RowPattern, scope: Scope) -> None:
    """Quantifier bounds and PERMUTE width, before anything is built from them."""
    for node in pattern_node.walk():
        if isinstance(node, dx.PatternQuantified):
            low, high = int(node.args["min"]), node.args.get("max")
            quantifier = _quantifier_span(node, scope.sql)
            if high is not None and int(high) < 1:
                raise scope.error_at(
                    "INVALID_QUANTIFIER_BOUND",
                    "the upper bound of a quantifier must be at least 1",
                    *quantifier,
                )
            for bound in (low, None if high is None else int(high)):
                if bound is not None and bound > MAX_QUANTIFIER_BOUND:
                    raise scope.error_at(
                        "INVALID_QUANTIFIER_BOUND",
                        f"quantifier bound {bound} is larger than the limit "
                        f"{MAX_QUANTIFIER_BOUND}",
                        *quantifier,
                    )
        elif isinstance(node, dx.PatternPermute) and len(node.expressions) > MAX_PERMUTE_WIDTH:
            raise scope.error(
                "PATTERN_TOO_LARGE",
                f"PERMUTE of {len(node.expressions)} elements stands for "
                f"{math.factorial(len(node.expressions)):,} orderings; the limit is "
                f"{MAX_PERMUTE_WIDTH} elements",
                node,
            )


def _quantifier_span(node: dx.PatternQuantified, sql: str) -> tuple[int, int]:
    """Where the quantifier itself (``{0}``, ``+``) is written, after its operand."""
    end = dialect.span(node)[1]
    operand_end = dialect.span(node.this)[1]
    text = sql[operand_end:end]
    return operand_end + (len(text) - len(text.lstrip())), end


def program_size(pattern: rp.Pattern) -> int:
    """The number of instructions the standard matcher compiles ``pattern`` into
    (``sparkcep.engines.standard.program``), computed without building it."""
    if isinstance(pattern, (rp.Label, rp.Anchor)):
        return 1
    if isinstance(pattern, (rp.Empty, rp.Negation)):
        return 0
    if isinstance(pattern, rp.Exclusion):
        return program_size(pattern.pattern)
    if isinstance(pattern, rp.Concat):
        return sum(program_size(item) for item in pattern.items)
    if isinstance(pattern, rp.Alternation):
        return sum(program_size(item) for item in pattern.items) + 2 * (len(pattern.items) - 1)
    if isinstance(pattern, rp.Permute):
        orders = math.factorial(len(pattern.items))
        return orders * sum(program_size(item) for item in pattern.items) + 2 * (orders - 1)
    if isinstance(pattern, rp.Quantified):
        body = program_size(pattern.pattern)
        checks = 2 if rp.can_match_empty(pattern.pattern) else 0
        if pattern.max is None:
            return pattern.min * body + body + checks + 2
        return pattern.min * body + (pattern.max - pattern.min) * (body + checks + 1)
    raise InternalError(f"not a pattern node: {pattern!r}")


def _check_program_size(pattern: rp.Pattern, pattern_node: dx.RowPattern, scope: Scope) -> None:
    size = program_size(pattern)
    if size > MAX_PROGRAM_SIZE:
        raise scope.error(
            "PATTERN_TOO_LARGE",
            f"the pattern compiles to {size:,} matcher instructions; the limit is "
            f"{MAX_PROGRAM_SIZE:,} (large bounded quantifiers such as A{{1000000}} and wide "
            "PERMUTEs are unrolled; use an unbounded quantifier where possible)",
            pattern_node,
        )


def _check_exclusion(pattern_node: dx.RowPattern, scope: Scope, rows: RowsPerMatch) -> None:
    if rows is not RowsPerMatch.ALL_WITH_UNMATCHED:
        return
    exclusion = pattern_node.find(dx.PatternExclusion)
    if exclusion is not None:
        raise scope.error(
            "EXCLUSION_WITH_UNMATCHED_ROWS",
            "pattern exclusion {- -} cannot be used with ALL ROWS PER MATCH WITH UNMATCHED ROWS",
            exclusion,
        )


def trailing_negations(pattern_node: dx.RowPattern) -> list[dx.PatternNegation]:
    """The negations at the end of the pattern's top-level sequence (``PATTERN (A B !C)``)."""
    items: list = []

    def flatten(p) -> None:
        if isinstance(p, dx.PatternGroup):
            flatten(p.this)
        elif isinstance(p, dx.PatternConcat):
            for item in p.expressions:
                flatten(item)
        else:
            items.append(p)

    flatten(pattern_node)
    out: list = []
    while items and isinstance(items[-1], dx.PatternNegation):
        out.insert(0, items.pop())
    return out if items else []


def _check_trailing_negation(node: dx.MatchRecognize, scope: Scope, rows: RowsPerMatch) -> None:
    """A trailing negation (docs/semantics.md, "Trailing negation") needs WITHIN: a match is
    final only when its window has closed. Not with WITH UNMATCHED ROWS or UNCERTAIN TIME."""
    trailing = trailing_negations(node.args["pattern"])
    if not trailing:
        return
    if node.args.get("uncertain_time") is not None:
        raise scope.error(
            "UNCERTAIN_TIME_NOT_SUPPORTED",
            "a trailing negation is not supported with UNCERTAIN TIME: whether a row lies inside "
            "a match's window depends on the world, and the engine does not model it yet",
            trailing[0],
        )
    if node.args.get("within") is None:
        raise scope.error(
            "TRAILING_NEGATION_REQUIRES_WITHIN",
            "a trailing negation (a negated variable at the end of the PATTERN) needs WITHIN: a "
            "match is reported only once no row can break it any more, which without a window "
            "is never before the end of the partition (and never over a stream); add e.g. "
            "WITHIN INTERVAL '10' MINUTE after PATTERN (...)",
            trailing[0],
        )
    if rows is RowsPerMatch.ALL_WITH_UNMATCHED:
        raise scope.error(
            "TRAILING_NEGATION_NOT_SUPPORTED",
            "a trailing negation cannot be used with ALL ROWS PER MATCH WITH UNMATCHED ROWS yet "
            "(a row of a match that a negated row breaks would have to become unmatched)",
            node.args.get("rows_per_match"),
        )


def _check_timed_out(node: dx.MatchRecognize, scope: Scope, strategy: Strategy,
                     rows: RowsPerMatch, definitions: dict[int, exp.Expression]) -> bool:
    """The rules of ``WITH TIMED OUT MATCHES`` and ``MATCH_STATUS()`` (docs/semantics.md,
    "Timed-out partial matches"); whether the clause asks for timed-out runs."""
    option = node.args.get("rows_per_match")
    timed_out = bool(option is not None and option.args.get("timed_out"))
    for condition in definitions.values():
        status = condition.find(dx.MatchStatus)
        if status is not None:
            raise scope.error(
                "MATCH_STATUS_IN_DEFINE",
                "MATCH_STATUS() is known only once a run has completed or timed out; it can be "
                "used in MEASURES, not in DEFINE",
                status,
            )
    if not timed_out:
        status = next((s for m in node.args.get("measures") or [] for s in m.find_all(dx.MatchStatus)),
                      None)
        if status is not None:
            raise scope.error(
                "MATCH_STATUS_REQUIRES_TIMED_OUT_MATCHES",
                "MATCH_STATUS() tells matches from timed-out runs: add WITH TIMED OUT MATCHES "
                "after ONE ROW PER MATCH or ALL ROWS PER MATCH (without it every row is a "
                "complete match)",
                status,
            )
        return False
    if strategy is not Strategy.SKIP_TILL_NEXT_MATCH:
        why = ("under strict contiguity a match attempt ends at the first row that does not "
               "fit, not when a window closes" if strategy is Strategy.STRICT_CONTIGUITY else
               "under SKIP TILL ANY MATCH every combination of a window's rows that could still "
               "grow into a match is a partial match: their number is exponential in the rows "
               "of the window")
        raise scope.error(
            "TIMED_OUT_MATCHES_NOT_SUPPORTED",
            f"WITH TIMED OUT MATCHES needs SKIP TILL NEXT MATCH: {why}",
            option,
        )
    if node.args.get("within") is None:
        raise scope.error(
            "TIMED_OUT_MATCHES_REQUIRES_WITHIN",
            "WITH TIMED OUT MATCHES reports the runs a WITHIN window closed before they "
            "completed: add WITHIN after PATTERN (...)",
            option,
        )
    if node.args.get("uncertain_time") is not None:
        raise scope.error(
            "UNCERTAIN_TIME_NOT_SUPPORTED",
            "WITH TIMED OUT MATCHES is not supported with UNCERTAIN TIME (whether a run's window "
            "has closed depends on the world)",
            option,
        )
    if rows is RowsPerMatch.ALL_WITH_UNMATCHED:
        raise scope.error(
            "TIMED_OUT_MATCHES_NOT_SUPPORTED",
            "WITH TIMED OUT MATCHES cannot be combined with WITH UNMATCHED ROWS",
            option,
        )
    return True


def _collect_measures(node: dx.MatchRecognize, scope: Scope) -> list[tuple[str, exp.Expression, dx.Measure]]:
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
    return measures


# row pattern functions as the dialect parses them, and as plain calls where it does not
_ROW_PATTERN_NODES = (dx.Navigation, dx.Classifier, dx.MatchNumber, dx.RunningFinal, dx.MatchStatus,
                      dx.UncertainMatchFunction)
_ROW_PATTERN_NAMES = {"PREV", "NEXT", "FIRST", "LAST", "CLASSIFIER", "MATCH_NUMBER"}


def _check_order_by(order_by: list[exp.Expression], scope: Scope) -> None:
    """The clause's ORDER BY sorts the input rows before any match exists (ISO/IEC 19075-5,
    4.3): each row's own value, no aggregate, window function or row pattern function, no
    pattern variable (Spark would refuse most of these in the rewritten text, without a
    position in the user's; CLASSIFIER() there would sort by nothing)."""
    stack = list(reversed(order_by))  # depth first, left to right: the first offender is reported
    while stack:
        node = stack.pop()
        if isinstance(node, (exp.Subquery, exp.Query)):
            continue  # Spark's, as written
        stack.extend(reversed(list(node.iter_expressions())))
        name = node.name.upper() if isinstance(node, exp.Anonymous) else ""
        if isinstance(node, _ROW_PATTERN_NODES) or name in _ROW_PATTERN_NAMES:
            what = "a row pattern function"
        elif isinstance(node, (exp.AggFunc, exp.Window)):
            what = "an aggregate or window function"
        elif isinstance(node, exp.Column) and node.args.get("table") is not None \
                and scope.is_variable_or_subset(node.args["table"]):
            raise scope.error(
                "PATTERN_VARIABLE_OUTSIDE_MEASURES_OR_DEFINE",
                "pattern variables can only qualify columns in MEASURES and DEFINE", node)
        else:
            continue
        raise scope.error(
            "INVALID_ORDER_BY",
            f"ORDER BY sorts the input rows before matching: it cannot contain {what}", node)


def _partition_by(node: dx.MatchRecognize, scope: Scope) -> list[exp.Expression]:
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
    return partition_by


def _within(node: dx.MatchRecognize, scope: Scope, order_by: list) -> dx.Within | None:
    within = node.args.get("within")
    if within is not None and not order_by:
        raise scope.error("WITHIN_REQUIRES_ORDER_BY", "WITHIN needs an ORDER BY key", within)
    if within is not None and len(order_by) > 1:
        raise scope.error(
            "WITHIN_REQUIRES_SINGLE_ORDER_KEY",
            "WITHIN measures the window on the ORDER BY key, so ORDER BY must have one key",
            order_by[1],
        )
    return within


#: Microseconds per unit of a GRANULARITY interval (units of a fixed length only).
INTERVAL_MICROS = {
    "MICROSECOND": 1, "MICROSECONDS": 1,
    "MILLISECOND": 1_000, "MILLISECONDS": 1_000,
    "SECOND": 1_000_000, "SECONDS": 1_000_000,
    "MINUTE": 60_000_000, "MINUTES": 60_000_000,
    "HOUR": 3_600_000_000, "HOURS": 3_600_000_000,
    "DAY": 86_400_000_000, "DAYS": 86_400_000_000,
    "WEEK": 7 * 86_400_000_000, "WEEKS": 7 * 86_400_000_000,
}


def _uncertain_time(
    node: dx.MatchRecognize, scope: Scope, definitions: dict[int, exp.Expression]
) -> tuple[float | None, int | None]:
    """The rules of UNCERTAIN TIME, MINIMUM CONFIDENCE and the match functions of imprecise
    timestamps (docs/semantics.md, "Imprecise timestamps"); returns MINIMUM CONFIDENCE's value
    and the GRANULARITY in microseconds (None where not written)."""
    uncertain = node.args.get("uncertain_time")
    minimum = node.args.get("minimum_confidence")
    functions = [f for measure in node.args.get("measures") or []
                 for f in measure.find_all(dx.UncertainMatchFunction)]
    if uncertain is None:
        if functions:
            raise scope.error(
                "UNCERTAIN_TIME_REQUIRED",
                f"{functions[0].this}() is a measure of matches over imprecise timestamps: add "
                "UNCERTAIN TIME (lo, hi) after ORDER BY",
                functions[0],
            )
        if minimum is not None:
            raise scope.error(
                "UNCERTAIN_TIME_REQUIRED",
                "MINIMUM CONFIDENCE applies to matches over imprecise timestamps: add "
                "UNCERTAIN TIME (lo, hi) after ORDER BY",
                minimum,
            )
        for condition in definitions.values():
            function = condition.find(dx.UncertainMatchFunction)
            if function is not None:
                raise scope.error("UNCERTAIN_TIME_REQUIRED",
                                  f"{function.this}() needs UNCERTAIN TIME (lo, hi)", function)
        return None, None
    for condition in definitions.values():
        function = condition.find(dx.UncertainMatchFunction)
        if function is not None:
            raise scope.error(
                "UNCERTAIN_FUNCTION_IN_DEFINE",
                f"{function.this}() is known only for a whole match; it can be used in MEASURES, "
                "not in DEFINE",
                function,
            )
    for bound in (uncertain.this, uncertain.expression):
        for column in bound.find_all(exp.Column):
            if column.table and scope.is_variable_or_subset(column.args["table"]):
                raise scope.error(
                    "PATTERN_VARIABLE_OUTSIDE_MEASURES_OR_DEFINE",
                    "pattern variables can only qualify columns in MEASURES and DEFINE; "
                    "UNCERTAIN TIME reads the row's own columns",
                    column,
                )
        for found in bound.find_all(exp.AggFunc, exp.Window, dx.UncertainMatchFunction, dx.Navigation):
            raise scope.error(
                "INVALID_UNCERTAIN_TIME",
                "UNCERTAIN TIME (lo, hi) takes expressions of the row (columns and functions of "
                "them), not aggregates, window functions or row pattern functions",
                found,
            )
    return _minimum_confidence(minimum, scope), _granularity(uncertain, scope)


def _minimum_confidence(minimum: dx.MinimumConfidence | None, scope: Scope) -> float | None:
    if minimum is None:
        return None
    value = minimum.this
    number = float(value.this) if isinstance(value, exp.Literal) and not value.is_string else None
    if isinstance(value, exp.Neg) and isinstance(value.this, exp.Literal):
        number = -float(value.this.this)
    if number is None or not 0.0 <= number <= 1.0:
        raise scope.error(
            "INVALID_MINIMUM_CONFIDENCE",
            "MINIMUM CONFIDENCE is a probability: a number from 0 to 1",
            value,
        )
    return number


def _granularity(uncertain: dx.UncertainTime, scope: Scope) -> int | None:
    interval = uncertain.args.get("granularity")
    if interval is None:
        return None
    unit = interval.args.get("unit")
    unit_name = unit.name.upper() if unit is not None else ""
    amount = interval.this
    micros = None
    if unit_name in INTERVAL_MICROS and isinstance(amount, exp.Literal):
        try:
            micros = float(amount.this) * INTERVAL_MICROS[unit_name]
        except ValueError:
            micros = None
    if micros is None or micros < 1 or micros != int(micros):
        raise scope.error(
            "INVALID_UNCERTAIN_TIME_GRANULARITY",
            "GRANULARITY is a positive whole number of microseconds written as an interval of "
            "one fixed-length unit, e.g. INTERVAL '1' SECOND or INTERVAL '10' MILLISECOND",
            interval,
        )
    return int(micros)


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
