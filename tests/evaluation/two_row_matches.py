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
