"""examples/superset/sparkcep_sqlglot.py, the sqlglot dialect Superset needs for MATCH_RECOGNIZE
(no Spark, no Superset: sqlglot as installed here).

Superset parses each statement with sqlglot and sends sqlglot's regenerated text, wrapped for
limits and virtual datasets. For every sql_examples query with a MATCH_RECOGNIZE clause or a
pattern in a WINDOW clause (SQL:2016 R020): the dialect parses it, keeps the clause's body (the
window specification) verbatim, still lists the tables it reads (Superset's access checks), and
sparkcep compiles what Superset would send to the same Spark SQL as the original.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
import sqlglot
from sqlglot import exp
from sqlglot.optimizer.scope import traverse_scope

import sparkcep

REPO = Path(__file__).resolve().parent.parent
# the examples with a MATCH_RECOGNIZE clause, and those with a pattern in a WINDOW (SQL:2016 R020)
EXAMPLES = sorted(path for path in (REPO / "sql_examples").glob("*.sql")
                  if re.search(r"\bMATCH_RECOGNIZE\s*\(", path.read_text(), flags=re.I))
WINDOW_EXAMPLES = sorted(path for path in (REPO / "sql_examples").glob("*.sql")
                         if re.search(r"\bWINDOW\s+\w+\s+AS\s*\((?s:.*)\bPATTERN\s*\(",
                                      path.read_text(), flags=re.IGNORECASE))


def _load():
    spec = importlib.util.spec_from_file_location(
        "sparkcep_sqlglot", REPO / "examples" / "superset" / "sparkcep_sqlglot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


DIALECT = _load().SparkCepPassthrough


def superset_text(sql: str) -> str:
    """What Superset's SQLStatement.format() sends: sqlglot's pretty regeneration."""
    return DIALECT().generate(sqlglot.parse_one(sql, read=DIALECT), copy=True, pretty=True)


def canonical(sql: str) -> str:
    """Spark SQL without comments, blanks, case and the function's hash (which covers positions)."""
    sql = re.sub(r"--[^\n]*|/\*.*?\*/", "", sql, flags=re.S)
    return re.sub(r"\s+|;|sparkcep_mr_\w+", "", sql).lower()


def bodies(sql: str) -> list[str]:
    """The text between MATCH_RECOGNIZE's parentheses, each clause."""
    tree = sqlglot.parse_one(sql, read=DIALECT)
    return [node.this.name for node in tree.find_all(exp.Expression)
            if type(node).__name__ == "OpaqueMatchRecognize"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_superset_text_compiles_like_the_original(path):
    sql = path.read_text()
    sent = superset_text(sql)
    assert bodies(sql), "the clause was not recognised"
    flat = " ".join(sent.split())
    for body in bodies(sql):
        # verbatim, comments too (sqlglot re-indents the lines of a nested subquery)
        assert " ".join(body.split()) in flat
    assert canonical(sparkcep.transpile(sent)) == canonical(sparkcep.transpile(sql))
    # SQL Lab's limit (FORCE_LIMIT) and a chart over a virtual dataset (a subquery)
    wrapped = superset_text(f"SELECT * FROM ({sent}) AS virtual_table LIMIT 1001")
    assert canonical(sparkcep.transpile(wrapped)).endswith("asvirtual_tablelimit1001")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_tables_stay_visible_to_superset(path):
    """Superset lists a statement's tables with sqlglot's scopes (for its access checks)."""
    tree = sqlglot.parse_one(path.read_text(), read=DIALECT)
    found = {source.name for scope in traverse_scope(tree) for source in scope.sources.values()
             if isinstance(source, exp.Table)}
    named = set(re.findall(r"\bFROM\s+(\w+)|\bJOIN\s+(\w+)", path.read_text()))
    expected = {name for pair in named for name in pair if name}
    ctes = set(re.findall(r"(\w+)\s+AS\s*\(", path.read_text(), flags=re.I))
    assert expected - ctes - {"TABLE"} <= found


def test_clause_stays_before_a_join():
    sql = ("SELECT u.plan, s.n FROM clicks MATCH_RECOGNIZE (PARTITION BY user_id ORDER BY ts "
           "MEASURES COUNT(*) AS n PATTERN (A B*) DEFINE B AS B.ts > PREV(B.ts)) AS s "
           "JOIN users AS u ON u.user_id = s.user_id")
    sent = " ".join(superset_text(sql).split())
    assert "FROM clicks MATCH_RECOGNIZE (PARTITION BY" in sent
    assert sent.index("MATCH_RECOGNIZE") < sent.index("JOIN users")
    assert "B.ts > PREV(B.ts)) s JOIN users AS u" in sent


def test_sase_extensions_pass_through():
    sql = ("SELECT * FROM events MATCH_RECOGNIZE (PARTITION BY k ORDER BY ts "
           "MEASURES A.ts AS s ONE ROW PER MATCH SKIP TILL NEXT MATCH "
           "PATTERN (A B C) WITHIN INTERVAL '5' SECOND "
           "DEFINE A AS A.ev = 'a', B AS B.ev = ')', C AS C.ev = 'c') AS m")
    sent = superset_text(sql)
    assert "SKIP TILL NEXT MATCH" in sent and "WITHIN INTERVAL '5' SECOND" in sent
    assert "B.ev = ')'" in sent  # a parenthesis in a string does not end the clause
    assert canonical(sparkcep.transpile(sent)) == canonical(sparkcep.transpile(sql))


@pytest.mark.parametrize("read", ["hive", "spark"])
def test_sqlglot_own_dialects_refuse_the_clause(read):
    """Why Superset needs the setting: its Hive dialect reads MATCH_RECOGNIZE as a table alias."""
    with pytest.raises(sqlglot.errors.ParseError):
        sqlglot.parse_one(EXAMPLES[0].read_text(), read=read)


def test_unbalanced_clause_is_a_parse_error():
    with pytest.raises(sqlglot.errors.ParseError):
        sqlglot.parse_one("SELECT * FROM t MATCH_RECOGNIZE (PATTERN (A B+)", read=DIALECT)


def window_bodies(sql: str) -> list[str]:
    """The window specifications kept as typed (row pattern recognition in a WINDOW clause)."""
    tree = sqlglot.parse_one(sql, read=DIALECT)
    return [node.args["body"].name for node in tree.find_all(exp.Expression)
            if type(node).__name__ == "OpaqueWindowSpecification"]


def test_there_is_a_window_example():
    assert WINDOW_EXAMPLES


@pytest.mark.parametrize("path", WINDOW_EXAMPLES, ids=lambda p: p.stem)
def test_row_pattern_window_compiles_like_the_original(path):
    """R020: ``WINDOW w AS (... MEASURES ... PATTERN (...) DEFINE ...)`` and ``m OVER w``."""
    sql = path.read_text()
    sent = superset_text(sql)
    assert window_bodies(sql), "the window specification was not recognised"
    flat = " ".join(sent.split())
    for body in window_bodies(sql):
        assert " ".join(body.split()) in flat
    assert canonical(sparkcep.transpile(sent)) == canonical(sparkcep.transpile(sql))
    wrapped = superset_text(f"SELECT * FROM ({sent}) AS virtual_table LIMIT 1001")
    assert canonical(sparkcep.transpile(wrapped)).endswith("asvirtual_tablelimit1001")
    # the table stays a source for Superset's access checks
    tree = sqlglot.parse_one(sql, read=DIALECT)
    assert "stock_ticks" in {source.name for scope in traverse_scope(tree)
                             for source in scope.sources.values() if isinstance(source, exp.Table)}


@pytest.mark.parametrize("read", ["hive", "spark"])
def test_sqlglot_own_dialects_refuse_a_row_pattern_window(read):
    with pytest.raises(sqlglot.errors.ParseError):
        sqlglot.parse_one(WINDOW_EXAMPLES[0].read_text(), read=read)


def test_plain_windows_stay_sqlglots():
    """Only a specification with ``PATTERN (`` at its top level is kept as typed; an ordinary
    named window (even over a column named pattern) is parsed and written by sqlglot."""
    sql = ("SELECT sum(x) OVER w, sum(pattern) OVER v FROM t "
           "WINDOW w AS (PARTITION BY k ORDER BY pattern ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), "
           "v AS (ORDER BY ts)")
    assert window_bodies(sql) == []
    assert superset_text(sql) == sqlglot.transpile(sql, read="spark", write="spark", pretty=True)[0]
    mixed = ("SELECT m OVER w, sum(x) OVER v FROM t WINDOW v AS (ORDER BY ts), "
             "w AS (ORDER BY ts MEASURES A.x AS m ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING "
             "PATTERN (A B*) DEFINE B AS B.x > PREV(B.x))")
    assert window_bodies(mixed) == [("ORDER BY ts MEASURES A.x AS m ROWS BETWEEN CURRENT ROW AND "
                                     "UNBOUNDED FOLLOWING PATTERN (A B*) DEFINE B AS B.x > PREV(B.x)")]
    assert "v AS (ORDER BY ts)" in " ".join(superset_text(mixed).split())


def test_unbalanced_row_pattern_window_is_a_parse_error():
    with pytest.raises(sqlglot.errors.ParseError):
        sqlglot.parse_one("SELECT m OVER w FROM t WINDOW w AS (ORDER BY ts PATTERN (A B+)",
                          read=DIALECT)
