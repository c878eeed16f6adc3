"""End-to-end checks of a DEFINE between two rows against Spark's own evaluation of the same
condition: the groups a MATCH_RECOGNIZE matches with ``PATTERN (A B) DEFINE B AS condition``,
and the groups a plain self-join keeps under that condition (its two sides named A and B too).
The rows are numbered ``i`` = 0 (A) and 1 (B) in each group ``g``."""

from __future__ import annotations

from typing import Callable

import sparkcep


def matched_and_joined(spark, view: str, condition: Callable[[str, str], str]) -> tuple[list[int], list[int]]:
    """(the groups sparkcep matches, the groups Spark's self-join keeps), each sorted;
    ``condition(a, b)`` writes the condition over rows named ``a`` and ``b``."""
    matched = sparkcep.sql(spark, f"""
        SELECT g FROM {view} MATCH_RECOGNIZE (
            PARTITION BY g ORDER BY i MEASURES A.i AS ai ONE ROW PER MATCH
            PATTERN (A B) DEFINE B AS {condition('A', 'B')})""").collect()
    joined = spark.sql(f"""
        SELECT A.g FROM {view} A JOIN {view} B
        ON A.g = B.g AND A.i = 0 AND B.i = 1 WHERE {condition('A', 'B')}""").collect()
    return sorted(r.g for r in matched), sorted(r.g for r in joined)


def kind_condition(conditions: dict[str, str]) -> Callable[[str, str], str]:
    """The ``condition`` of ``matched_and_joined`` that tests, on each group, the condition its
    B row's ``kind`` names: ``conditions`` maps a kind to a template over ``{A}`` and ``{B}``."""

    def condition(a: str, b: str) -> str:
        branches = " ".join(f"WHEN '{k}' THEN {c.format(A=a, B=b)}" for k, c in conditions.items())
        return f"CASE {b}.kind {branches} END"

    return condition


def typed_row(columns: dict[str, str], g: int, i: int, cells: dict, kind: str | None = None) -> str:
    """One row of group ``g`` (``i`` 0 for A, 1 for B) as a SELECT of literals: each of
    ``columns`` (name -> SQL type) cast to its type, NULL where ``cells`` has no value, and the
    row's ``kind`` when given."""
    values = ", ".join(f"CAST({cells.get(name, 'NULL')} AS {t}) AS {name}" for name, t in columns.items())
    return f"SELECT {g} AS g, {i} AS i, " + (f"'{kind}' AS kind, " if kind is not None else "") + values


def kinds_table(columns: dict[str, str], pairs, conditions: dict[str, str]) -> str:
    """The rows of every pair of ``pairs`` ((A's cells, B's cells)) once under each kind of
    ``conditions``: group ``g`` = kind number * len(pairs) + pair number, as ``kind_condition``
    reads them (a UNION of every pair under every kind is too long for Spark's parser)."""
    rows = [typed_row(columns, p, i, cells) for p, (a, b) in enumerate(pairs) for i, cells in ((0, a), (1, b))]
    kinds = ", ".join(f"('{kind}', {n})" for n, kind in enumerate(conditions))
    return (f"SELECT k.n * {len(pairs)} + r.g AS g, r.i, k.kind, {', '.join('r.' + c for c in columns)} "
            f"FROM ({' UNION ALL '.join(rows)}) r CROSS JOIN (SELECT * FROM VALUES {kinds} AS t(kind, n)) k")
