"""SQL generation for the sparkcep nodes (Spark's generator plus MATCH_RECOGNIZE).

The output re-parses to an equal AST (round trip). Clauses are printed in the standard order
(PARTITION BY, ORDER BY, UNCERTAIN TIME, MEASURES, rows per match, AFTER MATCH SKIP, selection
strategy, PATTERN, WITHIN, MINIMUM CONFIDENCE, SUBSET, DEFINE); the pattern is printed from its
tree with the quantifier texts
as written and explicit groups kept. :func:`pattern_sql` prints a pattern on its own.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.dialects.spark import Spark

from sparkcep.dialect import expressions as cx

ROWS_PER_MATCH_SQL = {
    "ONE": "ONE ROW PER MATCH",
    "ALL": "ALL ROWS PER MATCH",
    "ALL_SHOW_EMPTY": "ALL ROWS PER MATCH SHOW EMPTY MATCHES",
    "ALL_OMIT_EMPTY": "ALL ROWS PER MATCH OMIT EMPTY MATCHES",
    "ALL_WITH_UNMATCHED": "ALL ROWS PER MATCH WITH UNMATCHED ROWS",
}

STRATEGY_SQL = {
    "STRICT_CONTIGUITY": "STRICT CONTIGUITY",
    "SKIP_TILL_NEXT_MATCH": "SKIP TILL NEXT MATCH",
    "SKIP_TILL_ANY_MATCH": "SKIP TILL ANY MATCH",
}


def _identifier(ident: exp.Expr) -> str:
    if isinstance(ident, exp.Identifier):
        if ident.quoted:
            return "`" + ident.this.replace("`", "``") + "`"
        return ident.this
    return ident.sql(dialect="spark")


def pattern_sql(node: cx.RowPattern) -> str:
    """The PATTERN text of a RowPattern tree (without PATTERN's own parentheses).

    Parentheses are added only where a programmatically built tree needs them to keep its
    shape (an alternation inside a concatenation, a compound operand of a quantifier)."""
    if isinstance(node, cx.PatternVariable):
        return _identifier(node.this)
    if isinstance(node, cx.PatternEmpty):
        return "()"
    if isinstance(node, cx.PatternAnchor):
        return node.this
    if isinstance(node, cx.PatternGroup):
        return f"({pattern_sql(node.this)})"
    if isinstance(node, cx.PatternExclusion):
        return f"{{- {pattern_sql(node.this)} -}}"
    if isinstance(node, cx.PatternPermute):
        return "PERMUTE(" + ", ".join(pattern_sql(e) for e in node.expressions) + ")"
    if isinstance(node, cx.PatternNegation):
        return "!" + pattern_sql(node.this)
    if isinstance(node, cx.PatternConcat):
        parts = []
        for e in node.expressions:
            s = pattern_sql(e)
            parts.append(f"({s})" if isinstance(e, (cx.PatternAlternation, cx.PatternConcat)) else s)
        return " ".join(parts)
    if isinstance(node, cx.PatternAlternation):
        parts = []
        for e in node.expressions:
            s = pattern_sql(e)
            parts.append(f"({s})" if isinstance(e, cx.PatternAlternation) else s)
        return " | ".join(parts)
    if isinstance(node, cx.PatternQuantified):
        operand = node.this
        s = pattern_sql(operand)
        if isinstance(operand, (cx.PatternConcat, cx.PatternAlternation, cx.PatternQuantified, cx.PatternNegation)):
            s = f"({s})"
        return s + quantifier_text(node)
    raise ValueError(f"not a row pattern node: {type(node).__name__}")


def quantifier_text(node: cx.PatternQuantified) -> str:
    text = node.args.get("text")
    if text:
        return text
    lo, hi = node.args.get("min") or 0, node.args.get("max")
    if (lo, hi) == (0, None):
        q = "*"
    elif (lo, hi) == (1, None):
        q = "+"
    elif (lo, hi) == (0, 1):
        q = "?"
    elif hi is None:
        q = f"{{{lo},}}"
    elif lo == hi:
        q = f"{{{lo}}}"
    else:
        q = f"{{{lo},{hi}}}"
    return q + ("?" if node.args.get("reluctant") else "")


def _match_recognize_sql(self: "SparkCepGenerator", e: cx.MatchRecognize) -> str:
    clauses: list[str] = []
    partition = e.args.get("partition_by")
    if partition:
        clauses.append("PARTITION BY " + ", ".join(self.sql(p) for p in partition))
    order = e.args.get("order")
    if order is not None:
        clauses.append(self.sql(order).strip())
    if e.args.get("uncertain_time") is not None:
        clauses.append(self.sql(e, "uncertain_time"))
    measures = e.args.get("measures")
    if measures:
        clauses.append("MEASURES " + ", ".join(self.sql(m) for m in measures))
    for key in ("rows_per_match", "after_match_skip", "strategy"):
        if e.args.get(key) is not None:
            clauses.append(self.sql(e, key))
    pattern = e.args.get("pattern")
    clauses.append(f"PATTERN ({pattern_sql(pattern) if pattern is not None and not isinstance(pattern, cx.PatternEmpty) else ''})")
    if e.args.get("within") is not None:
        clauses.append(self.sql(e, "within"))
    if e.args.get("minimum_confidence") is not None:
        clauses.append(self.sql(e, "minimum_confidence"))
    subsets = e.args.get("subsets")
    if subsets:
        clauses.append("SUBSET " + ", ".join(self.sql(s) for s in subsets))
    define = e.args.get("define")
    if define:
        clauses.append("DEFINE " + ", ".join(self.sql(d) for d in define))
    this = self.sql(e, "this")
    alias = self.sql(e, "alias")
    alias = f" AS {alias}" if alias else ""
    if self.pretty:
        body = self.indent("\n".join(clauses), pad=self._indent)
        return f"{this} MATCH_RECOGNIZE (\n{body}\n){alias}"
    return f"{this} MATCH_RECOGNIZE ({' '.join(clauses)}){alias}"


def _stream_watermark_sql(self: "SparkCepGenerator", e: cx.StreamWatermark) -> str:
    alias = self.sql(e, "alias")
    return (f"{self.sql(e, 'this')} WATERMARK {self.sql(e, 'column')} DELAY OF "
            f"{self.sql(e, 'delay')}" + (f" AS {alias}" if alias else ""))


def _measure_sql(self: "SparkCepGenerator", e: cx.Measure) -> str:
    return f"{self.sql(e, 'this')} AS {self.sql(e, 'alias')}"


def _running_final_sql(self: "SparkCepGenerator", e: cx.RunningFinal) -> str:
    return f"{'FINAL' if e.args.get('final') else 'RUNNING'} {self.sql(e, 'this')}"


def _navigation_sql(self: "SparkCepGenerator", e: cx.Navigation) -> str:
    args = [self.sql(e, "this")]
    if e.args.get("offset") is not None:
        args.append(self.sql(e, "offset"))
    return f"{e.args['kind'].upper()}({', '.join(args)})"


def _classifier_sql(self: "SparkCepGenerator", e: cx.Classifier) -> str:
    return f"CLASSIFIER({self.sql(e, 'this')})"


def _after_match_skip_sql(self: "SparkCepGenerator", e: cx.AfterMatchSkip) -> str:
    kind = e.this
    if kind == "PAST_LAST_ROW":
        return "AFTER MATCH SKIP PAST LAST ROW"
    if kind == "TO_NEXT_ROW":
        return "AFTER MATCH SKIP TO NEXT ROW"
    var = self.sql(e, "variable")
    if kind == "TO_FIRST":
        return f"AFTER MATCH SKIP TO FIRST {var}"
    if e.args.get("explicit_last"):
        return f"AFTER MATCH SKIP TO LAST {var}"
    return f"AFTER MATCH SKIP TO {var}"


def _uncertain_time_sql(self: "SparkCepGenerator", e: cx.UncertainTime) -> str:
    text = f"UNCERTAIN TIME ({self.sql(e, 'this')}, {self.sql(e, 'expression')})"
    if e.args.get("granularity") is not None:
        text += f" GRANULARITY {self.sql(e, 'granularity')}"
    return text


def _subset_sql(self: "SparkCepGenerator", e: cx.SubsetDefinition) -> str:
    members = ", ".join(self.sql(m) for m in e.expressions)
    return f"{self.sql(e, 'this')} = ({members})"


def _variable_definition_sql(self: "SparkCepGenerator", e: cx.VariableDefinition) -> str:
    return f"{self.sql(e, 'this')} AS {self.sql(e, 'condition')}"


def _pattern_node_sql(self: "SparkCepGenerator", e: cx.RowPattern) -> str:
    return pattern_sql(e)


class SparkCepGenerator(Spark.Generator):  # type: ignore[misc,valid-type]
    TRANSFORMS: t.ClassVar[dict] = {
        **Spark.Generator.TRANSFORMS,
        cx.MatchRecognize: _match_recognize_sql,
        cx.StreamWatermark: _stream_watermark_sql,
        cx.Measure: _measure_sql,
        cx.RunningFinal: _running_final_sql,
        cx.Navigation: _navigation_sql,
        cx.Classifier: _classifier_sql,
        cx.MatchNumber: lambda self, e: "MATCH_NUMBER()",
        cx.RowsPerMatch: lambda self, e: ROWS_PER_MATCH_SQL[e.this]
        + (" WITH TIMED OUT MATCHES" if e.args.get("timed_out") else ""),
        cx.MatchStatus: lambda self, e: "MATCH_STATUS()",
        cx.AfterMatchSkip: _after_match_skip_sql,
        cx.SelectionStrategy: lambda self, e: STRATEGY_SQL[e.this],
        cx.Within: lambda self, e: f"WITHIN {self.sql(e, 'this')}",
        cx.UncertainTime: _uncertain_time_sql,
        cx.MinimumConfidence: lambda self, e: f"MINIMUM CONFIDENCE {self.sql(e, 'this')}",
        cx.UncertainMatchFunction: lambda self, e: f"{e.this}()",
        cx.SubsetDefinition: _subset_sql,
        cx.VariableDefinition: _variable_definition_sql,
        **{
            cls: _pattern_node_sql
            for cls in (
                cx.PatternVariable,
                cx.PatternEmpty,
                cx.PatternAnchor,
                cx.PatternConcat,
                cx.PatternAlternation,
                cx.PatternPermute,
                cx.PatternExclusion,
                cx.PatternGroup,
                cx.PatternQuantified,
                cx.PatternNegation,
            )
        },
    }
