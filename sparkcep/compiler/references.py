"""The tables a statement reads by plain name (for ``sparkcep run``, which knows every table its
session has before Spark starts: those given with ``--table``)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp

from sparkcep import dialect
from sparkcep.dialect.spans import find_span


@dataclass(frozen=True)
class TableReference:
    name: str
    offset: int | None  # 0-based, into the statement


def unqualified_tables(text: str) -> list[TableReference]:
    """Every table the statement reads by an unqualified name that is not one of its CTEs, in
    text order. Qualified names (``db.t``, ``parquet.`path```) and table functions (``range(3)``)
    are left to Spark."""
    tree = dialect.parse_one(text)
    ctes = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
    found = []
    for table in tree.find_all(exp.Table):
        if table.args.get("db") or table.args.get("catalog") or not table.name:
            continue
        if not isinstance(table.this, exp.Identifier) or table.name.lower() in ctes:
            continue
        span = find_span(table)
        found.append(TableReference(table.name, None if span is None else span[0]))
    return sorted(found, key=lambda ref: -1 if ref.offset is None else ref.offset)
