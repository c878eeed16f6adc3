"""The input relation reaches Spark exactly as the user wrote it (issue 10 §1).

ISO/IEC 19075-5 4.3: the row pattern input table is a table primary with everything a table
primary may carry (correlation name, derived column list, sampling, time travel in Spark's
grammar). The rewrite copies its text verbatim (``docs/architecture.md``, stage 4: "everything
else reaches Spark exactly as written"); these tests check the copy, independently of the golden
snapshots.
"""

from __future__ import annotations

import pytest

from sparkcep import dialect
from sparkcep.compiler.rewrite import compile_statement

CLAUSE = "MATCH_RECOGNIZE (ORDER BY id MEASURES LAST(A.v) AS v PATTERN (A) DEFINE A AS A.v > 0)"

RELATIONS = [
    "(VALUES (1, 90), (2, 80)) t(id, v)",
    "VALUES (1, 90), (2, 80) AS t(id, v)",
    "ticks TABLESAMPLE (50 PERCENT)",
    "ticks TABLESAMPLE (0 ROWS) AS s",
    "ticks TABLESAMPLE (BUCKET 1 OUT OF 4 ON id) s",
    "lake.ticks VERSION AS OF 3",
    "lake.ticks FOR VERSION AS OF 3",
    "lake.ticks TIMESTAMP AS OF '2024-01-01' AS t",
    "cat.db.ticks /* keep */ AS x(id, v, w)",
    "range(1, 10) AS r(id)",
    "IDENTIFIER('ticks')",
    "(SELECT id, v FROM ticks WHERE v > 0) AS q",
    "`my ticks` `odd alias`",
    # Spark's read options: <table> [temporal] WITH (options) [sample] [alias]
    "ticks WITH ('mergeSchema' = 'true')",
    "ticks WITH (k = 'v', a.b 1, 'x' true) AS x",
    "lake.ticks VERSION AS OF 1 WITH ('k' = -1) TABLESAMPLE (10 PERCENT) x(id, v, w)",
]


@pytest.mark.parametrize("relation", RELATIONS)
def test_relation_text_is_copied_verbatim(relation: str) -> None:
    compiled = compile_statement(f"SELECT * FROM {relation} {CLAUSE}")
    (match,) = compiled.matches
    assert f"FROM (SELECT * FROM {relation}) AS __sparkcep_in" in match.table_sql


def test_cte_with_column_list_parses_and_is_copied() -> None:
    # A CTE's derived column list (SQL:2016 <with list element>) and a VALUES body.
    ctes = "WITH t(id, v) AS (VALUES (1, 1), (2, 3)), u AS (SELECT * FROM t)"
    compiled = compile_statement(f"{ctes} SELECT * FROM u {CLAUSE}")
    (match,) = compiled.matches
    assert match.probe_prefix == ctes + " "
    assert compiled.sql.startswith(ctes + " SELECT * FROM (SELECT ")


def test_cte_spans_cover_name_columns_and_body() -> None:
    text = "WITH t(a, b) AS (VALUES (1, 1)), u AS (SELECT * FROM t) SELECT * FROM u"
    tree = dialect.parse_one(text)
    ctes = [text[slice(*dialect.span(cte))] for cte in tree.args["with_"].expressions]
    assert ctes == ["t(a, b) AS (VALUES (1, 1))", "u AS (SELECT * FROM t)"]


def test_a_clause_in_a_cte_is_registered_before_the_clause_reading_it() -> None:
    inner = "SELECT * FROM ticks " + CLAUSE
    text = (f"WITH m AS ({inner}) SELECT * FROM m MATCH_RECOGNIZE (ORDER BY v MEASURES COUNT(*) AS n "
            "PATTERN (B) DEFINE B AS true)")
    compiled = compile_statement(text)
    first, second = compiled.matches
    assert "MATCH_RECOGNIZE" not in second.probe_prefix
    assert first.function_name in second.probe_prefix
