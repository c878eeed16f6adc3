"""Helpers for the span property: every span re-parses to the node it belongs to."""

from __future__ import annotations

from sqlglot import exp

from sparkcep import dialect
from sparkcep.dialect import expressions as cx

MR_TEMPLATE = "SELECT * FROM t MATCH_RECOGNIZE ({clause} {pattern})"


def strict(node):
    """A case-sensitive structural dump (sqlglot's == ignores case of strings)."""
    if isinstance(node, exp.Expr):
        return (type(node).__name__, tuple(sorted((k, strict(v)) for k, v in node.args.items() if v is not None and v is not False and v != [])))
    if isinstance(node, list):
        return tuple(strict(v) for v in node)
    return node


def _mr(text: str, with_pattern: bool = True) -> cx.MatchRecognize:
    tree = dialect.parse_one(MR_TEMPLATE.format(clause=text, pattern="PATTERN (A)" if with_pattern else ""))
    return tree.find(cx.MatchRecognize)


def reparse(node: exp.Expr, text: str):
    """Parse ``text`` as the same kind of thing as ``node``; None when the kind is not checked."""
    if isinstance(node, cx.RowPattern):
        return dialect.parse_pattern(text)
    if isinstance(node, cx.MatchRecognize):
        return dialect.parse_one("SELECT * FROM " + text).args["from_"].this
    if isinstance(node, cx.Measure):
        return _mr("MEASURES " + text).args["measures"][0]
    if isinstance(node, cx.VariableDefinition):
        return _mr("DEFINE " + text).args["define"][0]
    if isinstance(node, cx.SubsetDefinition):
        return _mr("SUBSET " + text).args["subsets"][0]
    if isinstance(node, (cx.RowsPerMatch, cx.AfterMatchSkip, cx.SelectionStrategy, cx.Within)):
        key = {cx.RowsPerMatch: "rows_per_match", cx.AfterMatchSkip: "after_match_skip",
               cx.SelectionStrategy: "strategy", cx.Within: "within"}[type(node)]
        if isinstance(node, cx.Within):
            return _mr("PATTERN (A) " + text, with_pattern=False).args[key]
        return _mr(text).args[key]
    if isinstance(node, (cx.UncertainTime, cx.MinimumConfidence)):
        key = "uncertain_time" if isinstance(node, cx.UncertainTime) else "minimum_confidence"
        return _mr(text).args[key]
    if isinstance(node, exp.Order) and isinstance(node.parent, cx.MatchRecognize):
        return _mr(text).args["order"]
    if isinstance(node, exp.Ordered):
        return _mr("ORDER BY " + text).args["order"].expressions[0]
    if isinstance(node, exp.TableAlias):
        return dialect.parse_one("SELECT * FROM t " + text).args["from_"].this.args["alias"]
    if isinstance(node, (exp.Table, exp.Subquery)) and node.arg_key == "this" and isinstance(node.parent, cx.MatchRecognize):
        return dialect.parse_one("SELECT * FROM " + text).args["from_"].this
    if isinstance(node, exp.If) and isinstance(node.parent, exp.Case):
        return dialect.parse_expression("CASE " + text + " END").args["ifs"][0]
    if isinstance(node, exp.DataType):
        return exp.DataType.build(text, dialect="sparkcep")
    if isinstance(node, exp.Identifier):
        parsed = dialect.parse_expression(text)
        if isinstance(parsed, exp.Column) and not parsed.table:
            return parsed.this
        return parsed
    if isinstance(node, exp.Var) and isinstance(node.parent, exp.Interval):
        return None
    if isinstance(node, (exp.Query, exp.Select)) or node.find_ancestor(exp.Subquery):
        return None
    return dialect.parse_expression(text)


def check_spans(sql: str, root: exp.Expr) -> int:
    """Assert the span property for every node under each MatchRecognize of ``root``.

    Returns how many nodes were checked."""
    checked = 0
    for mr in root.find_all(cx.MatchRecognize):
        for node in mr.walk():
            s = dialect.span(node)  # every node must have one
            text = sql[s[0]:s[1]]
            assert text == text.strip() or isinstance(node, cx.PatternEmpty), (node, text)
            got = reparse(node, text)
            if got is None:
                continue
            # nodes sqlglot synthesizes around or inside the same text (x IS NOT NULL ->
            # Not(Is(..)), DECIMAL(10, 2) -> DataTypeParam(Literal)) share one span
            candidates = [node]
            up = node
            while up.parent is not None and dialect.find_span(up.parent) == s:
                up = up.parent
                candidates.append(up)
            candidates += [d for d in node.walk() if d is not node and dialect.find_span(d) == s]
            want = strict(got)
            assert any(strict(c) == want for c in candidates), (
                f"{type(node).__name__} span {s} -> {text!r}: {got!r} != {node!r}"
            )
            checked += 1
    return checked
