"""Several aggregate pattern queries over one input, in one pass.

A statement ``Q1 UNION ALL Q2 UNION ALL ...`` whose every branch only aggregates one
MATCH_RECOGNIZE clause per partition (``sparkcep.compiler.aggregation_pushdown``), the clauses
reading the same relation (the same text) with the same PARTITION BY and ORDER BY (the patterns,
DEFINE, MEASURES and WITHIN may differ), runs every branch's counters over each partition's rows
in one function call: A-Seq's observation (Qi, WPI 2013, Chapter 4) that several aggregate
sequence queries over one stream should share the pass over it. The function's input carries the
union of the branches' computed columns (each branch's bitmask, value and WITHIN key columns under
a name of its own); per partition it emits one row per branch that has matches, tagged with the
branch number, holding that branch's partial aggregates.

The rewrite puts the call in a CTE spliced in front of the statement and replaces each branch's
clause by that CTE filtered by its branch number; the rest of each branch (its aggregate calls,
already rewritten by the pushdown, HAVING, ORDER BY) is the user's text. Spark does not
materialise a CTE read several times: it plans each read with a shuffle on top, and its exchange
reuse (``spark.sql.exchange.reuse``, on by default) runs the identical exchanges once, so the
input is scanned and the function runs once per partition (measured in ``docs/benchmarks.md``
8c; with exchange reuse off the answer is the same, computed once per branch).

The branches' counters are independent here (each branch's own engine); sub-patterns shared
between the branches are not counted once (A-Seq's Chop-Connect,
``sparkcep.engines.sase.chop_connect``, takes only COUNT(*) of single-variable sequences).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from sqlglot import exp

from sparkcep import dialect
from sparkcep.compiler.splice import Splicer, aliased, quote_identifier
from sparkcep.dialect import expressions as dx
from sparkcep.plan.aggregation import output_name

PREFIX = "__sparkcep_"
BRANCH_COLUMN = f"{PREFIX}branch"


def shared_column(branch: int, name: str) -> str:
    """The name branch ``branch``'s column ``name`` has in the shared input or output."""
    return f"{PREFIX}s{branch}_{name[len(PREFIX):] if name.startswith(PREFIX) else name}"


@dataclass(frozen=True)
class SharedPass:
    """One function call running several clauses' aggregations.

    Attributes:
        function_name: the shared function's registered name.
        branches: the ``function_name`` of each branch's own compiled clause, in branch order.
        renames: per branch, the input columns it reads under another name (old -> new).
        input_sql: the query feeding the function.
        cte_name: the CTE the branches read.
        relation: the input relation as written (for explain).
    """

    function_name: str
    branches: tuple[str, ...]
    renames: tuple[tuple[tuple[str, str], ...], ...]
    input_sql: str
    cte_name: str
    relation: str


def share(tree: exp.Expression, clauses: list, matches: tuple, splicer: Splicer):
    """The shared passes of the statement ``tree`` (at most one: the top-level UNION ALL) and, for
    explain, why a UNION ALL of aggregated clauses is not shared. Edits ``splicer``: the CTE in
    front of the statement and each shared branch's clause."""
    by_clause = {id(clause): match for clause, match in zip(clauses, matches)}
    branches = _union_all_branches(tree)
    if branches is None:
        return [], []
    pushed = []
    for branch in branches:
        clause = _aggregated_clause(branch)
        match = by_clause.get(id(clause)) if clause is not None else None
        pushed.append((clause, match) if match is not None and match.plan.aggregation is not None
                      else None)
    if sum(item is not None for item in pushed) < 2:
        return [], []
    reason = None
    if any(item is None for item in pushed):
        reason = "a branch of the UNION ALL is not an aggregation pushed down"
    elif _with(tree) is not None:
        reason = "the statement has a WITH clause"
    else:
        first_clause, first = pushed[0]
        for clause, match in pushed[1:]:
            if match.input_relation != first.input_relation:
                reason = "the branches' MATCH_RECOGNIZE clauses read different relations"
            elif (_items(clause, "partition_by", splicer)
                  != _items(first_clause, "partition_by", splicer)):
                reason = "the branches partition differently"
            elif _items(clause, "order", splicer) != _items(first_clause, "order", splicer):
                reason = "the branches order differently"
            if reason is not None:
                break
    if reason is not None:
        return [], [f"UNION ALL of {len(branches)} aggregations: each branch runs alone ({reason})"]
    return [_splice(tree, pushed, splicer)], []


def _union_all_branches(tree: exp.Expression) -> list[exp.Expression] | None:
    """The branches of a top-level ``... UNION ALL ...`` chain, or None."""
    if not isinstance(tree, exp.Union) or tree.args.get("distinct"):
        return None
    branches = []
    for side in (tree.this, tree.expression):
        if isinstance(side, exp.Union) and _with(side) is None:
            inner = _union_all_branches(side)
            if inner is None:
                return None
            branches += inner
        else:
            branches.append(side)
    return branches


def _with(node: exp.Expression):
    return node.args.get("with") or node.args.get("with_")


def _aggregated_clause(branch: exp.Expression):
    if not isinstance(branch, exp.Select) or _with(branch) is not None:
        return None
    from_ = branch.args.get("from") or branch.args.get("from_")
    if from_ is None or not isinstance(from_.this, dx.MatchRecognize):
        return None
    return from_.this


def _items(clause, key: str, splicer: Splicer) -> list[str]:
    node = clause.args.get(key)
    items = node.expressions if isinstance(node, exp.Order) else (node or [])
    return [" ".join(splicer.render(*dialect.span(item)).split()) for item in items]


def _splice(tree: exp.Expression, pushed, splicer: Splicer) -> SharedPass:
    first_clause, first = pushed[0]
    passed: list[str] = []
    computed: list[str] = []
    renames = []
    for number, (_clause, match) in enumerate(pushed):
        passed += [c for c in match.input_passed if c not in passed]
        rename = tuple((name, shared_column(number, name)) for _sql, name in match.input_computed)
        computed += [f"{sql} AS {quote_identifier(new)}"
                     for (sql, _), (_, new) in zip(match.input_computed, rename)]
        renames.append(rename)
    input_sql = (f"SELECT {', '.join(passed + computed)} "
                 f"FROM ({first.input_relation}) AS {PREFIX}in")
    names = tuple(match.function_name for _, match in pushed)
    digest = hashlib.sha256(repr((names, input_sql)).encode()).hexdigest()[:16]
    function_name = f"sparkcep_shared_{digest}"
    keys = [quote_identifier(n) for n in first.plan.partition_columns]
    distribution = f"PARTITION BY ({', '.join(keys)})" if keys else "WITH SINGLE PARTITION"
    order = _items(first_clause, "order", splicer)
    ordering = f" ORDER BY ({', '.join(order)})" if order else ""
    cte_name = f"{PREFIX}shared"
    call = f"{function_name}(TABLE({input_sql}) {distribution}{ordering})"
    start = dialect.span(tree)[0]
    splicer.replace(start, start, f"WITH {quote_identifier(cte_name)} AS (SELECT * FROM {call})\n")
    for number, (clause, match) in enumerate(pushed):
        columns = [quote_identifier(n) for n in match.plan.partition_columns]
        columns += [f"{quote_identifier(shared_column(number, output_name(i)))} AS "
                    f"{quote_identifier(output_name(i))}"
                    for i in range(len(match.plan.aggregation.outputs))]
        columns += [f"{quote_identifier(shared_column(number, output_name(i)))} AS "
                    f"{quote_identifier(name)}" for name, i in match.plan.aggregation.group_columns]
        text = (f"(SELECT {', '.join(columns)} FROM {quote_identifier(cte_name)} "
                f"WHERE {quote_identifier(BRANCH_COLUMN)} = {number})")
        span = dialect.span(clause)
        splicer.edits[:] = [e for e in splicer.edits if (e[0], e[1]) != span]
        splicer.replace(*span, aliased(text, clause, splicer))
    return SharedPass(function_name, names, tuple(renames), input_sql, cte_name,
                      " ".join(first.input_relation.split()))
