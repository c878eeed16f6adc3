"""Names hidden by a MATCH_RECOGNIZE clause and subqueries inside it (issue 10 §4), without Spark.

* ISO/IEC 19075-5 4.3: the input table's range variable is in scope only inside the clause; the
  output table takes its place in the FROM, under the clause's own correlation name.
* A subquery in MEASURES / DEFINE is evaluated by Spark as written; one that needs the match
  (a pattern variable, PREV/NEXT/CLASSIFIER/MATCH_NUMBER/RUNNING/FINAL) or holds a
  MATCH_RECOGNIZE of its own is refused (Oracle: correlated subqueries and nested
  MATCH_RECOGNIZE are not allowed in the clause).
"""

from __future__ import annotations

import re

import pytest

from sparkcep.compiler.rewrite import compile_statement
from sparkcep.errors import AnalysisError

BODY = "MATCH_RECOGNIZE (ORDER BY id MEASURES A.v AS x ALL ROWS PER MATCH PATTERN (A) DEFINE A AS true)"


def error_of(sql: str) -> AnalysisError:
    with pytest.raises(AnalysisError) as caught:
        compile_statement(sql)
    return caught.value


@pytest.mark.parametrize("sql, reference", [
    (f"SELECT Ticker.v FROM t Ticker {BODY} AS M", "Ticker.v"),
    (f"SELECT t.v FROM t {BODY}", "t.v"),
    (f"SELECT M.x FROM t AS Ticker {BODY} AS M WHERE ticker.v > 1", "ticker.v"),
    (f"SELECT M.x FROM t AS Ticker {BODY} AS M ORDER BY Ticker.id", "Ticker.id"),
])
def test_the_input_name_is_hidden_outside_the_clause(sql: str, reference: str) -> None:
    error = error_of(sql)
    assert error.code == "INPUT_TABLE_NOT_VISIBLE"
    assert (error.line, error.column) == (1, sql.index(reference) + 1)


_GENERATED = re.compile(r"\(SELECT `id`, .*?FROM \(SELECT \* FROM (.*?)\) AS __sparkcep_in\) "
                        r"WITH SINGLE PARTITION ORDER BY \(id\)\)\)")


@pytest.mark.parametrize("sql, outside", [
    (f"SELECT M.v, M.x FROM t Ticker {BODY} AS M", "SELECT M.v, M.x FROM <t Ticker> AS M"),
    # the output table took the input's name
    (f"SELECT t.v FROM t {BODY} AS t", "SELECT t.v FROM <t> AS t"),
    (f"SELECT M.v FROM t {BODY} AS M WHERE EXISTS (SELECT 1 FROM u t WHERE t.v = M.v)",
     "SELECT M.v FROM <t> AS M WHERE EXISTS (SELECT 1 FROM u t WHERE t.v = M.v)"),
    # t is the left join operand
    (f"SELECT t.v FROM t JOIN t2 {BODY} AS M ON t.v = M.v", "SELECT t.v FROM t JOIN <t2> AS M ON t.v = M.v"),
    # t.x is the enclosing query's t (a correlated subquery), not the hidden input
    (f"SELECT * FROM t WHERE EXISTS (SELECT 1 FROM t {BODY} AS M WHERE M.x = t.v)",
     "SELECT * FROM t WHERE EXISTS (SELECT 1 FROM <t> AS M WHERE M.x = t.v)"),
    # A names the first clause's input, and is a pattern variable inside the second one
    (f"SELECT m1.x FROM t A {BODY} AS m1 JOIN u {BODY} AS m2 ON m1.x = m2.x",
     "SELECT m1.x FROM <t A> AS m1 JOIN <u> AS m2 ON m1.x = m2.x"),
])
def test_other_names_are_untouched(sql: str, outside: str) -> None:
    """Every name outside the clause is left as written, and each clause reads its own input
    under the input's own name: the compiled statement, with each generated clause shown as
    <its input>, is the statement as written."""
    assert _GENERATED.sub(lambda found: f"<{found.group(1)}>", compile_statement(sql).sql) == outside


CLAUSE = "SELECT * FROM t MATCH_RECOGNIZE (ORDER BY id MEASURES {m} AS c PATTERN (A B+) DEFINE B AS {d})"


@pytest.mark.parametrize("measure, define, culprit, code", [
    ("1", "B.v < (SELECT max(x.v) FROM u x WHERE x.id > A.id)", "A.id", "CORRELATED_SUBQUERY"),
    ("(SELECT B.v)", "true", "B.v", "CORRELATED_SUBQUERY"),
    ("1", "EXISTS (SELECT 1 FROM u WHERE u.k = PREV(u.k))", "PREV(u.k)", "CORRELATED_SUBQUERY"),
    ("(SELECT CLASSIFIER())", "true", "CLASSIFIER()", "CORRELATED_SUBQUERY"),
    ("(SELECT count(*) FROM u MATCH_RECOGNIZE (ORDER BY k MEASURES 1 AS o PATTERN (Z) "
     "DEFINE Z AS true))", "true", "u MATCH_RECOGNIZE", "MATCH_RECOGNIZE_IN_SUBQUERY"),
])
def test_subqueries_that_need_the_match_are_refused(measure, define, culprit, code) -> None:
    sql = CLAUSE.format(m=measure, d=define)
    error = error_of(sql)
    assert error.code == code
    assert (error.line, error.column) == (1, sql.index(culprit) + 1)


@pytest.mark.parametrize("measure, define, kept", [
    ("(SELECT 'x')", "true", "((SELECT 'x')) AS `c`"),
    ("(SELECT max(v) FROM u)", "true", "((SELECT max(v) FROM u)) AS `c`"),
    ("1", "B.v < (SELECT max(x.v) FROM u x)", "(`v` < (SELECT max(x.v) FROM u x))"),
    ("1", "1 IN (SELECT 1) AND EXISTS (SELECT 1)", "(1 IN (SELECT 1))"),
    ("1", "LAST(A.v) > (SELECT 1)", "((`v`) > (SELECT 1)) AS"),
    # a subquery binding a pattern variable's name as its own alias is not correlated
    ("(SELECT max(A.v) FROM u A)", "true", "((SELECT max(A.v) FROM u A)) AS `c`"),
])
def test_uncorrelated_subqueries_reach_spark_as_written(measure, define, kept) -> None:
    assert kept in compile_statement(CLAUSE.format(m=measure, d=define)).sql


def test_count_without_argument_counts_rows() -> None:
    # COUNT() is COUNT(*) (Trino's count()): the same component as COUNT(*).
    with_star = compile_statement(CLAUSE.format(m="COUNT(*)", d="true"))
    bare = compile_statement(CLAUSE.format(m="count()", d="true"))
    assert bare.matches[0].plan.components == with_star.matches[0].plan.components


def test_only_constant_measures_still_give_the_function_a_column() -> None:
    compiled = compile_statement(
        "SELECT * FROM t MATCH_RECOGNIZE (ORDER BY id MEASURES 'foo' AS foo PATTERN (Y+) DEFINE Y AS true)")
    assert len(compiled.matches[0].plan.components) == 1
    assert "SELECT ('foo') AS `foo` FROM sparkcep_mr_" in compiled.sql


def test_repeated_partition_and_order_columns_are_output_again() -> None:
    # ISO/IEC 19075-5 4.17: partitioning columns, ordering columns, measures, the rest; the
    # * EXCEPT names each column once (Spark refuses overlapping EXCEPT lists).
    compiled = compile_statement(
        "SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY p, P ORDER BY id, p, id "
        "MEASURES 1 AS one ALL ROWS PER MATCH PATTERN (A) DEFINE A AS true)")
    assert "SELECT `p`, `P`, `id`, `p`, `id`, (1) AS `one`, * EXCEPT (`p`, `id`) FROM" in compiled.sql
    assert compiled.matches[0].plan.partition_columns == ("p",)


# -- unqualified outer references in subqueries (issue 23): decided at registration -------------


def test_each_outermost_subquery_of_measures_and_define_is_recorded_for_registration() -> None:
    """Without a schema the compiler cannot tell ``k`` in ``u.kk = k`` (the input's column: an
    outer reference, refused) from a column of ``u`` (fine): it records where each subquery was
    written, and registration has Spark analyse each alone (``runtime.subqueries``)."""
    sql = CLAUSE.format(m="(SELECT max(w) FROM u WHERE u.kk = k)",
                        d="B.v IN (SELECT w FROM u WHERE kk IN (SELECT kk FROM u x WHERE x.w = w))")
    (match,) = compile_statement(sql).matches
    assert [sql[start:end] for start, end in match.subquery_spans] == [
        "SELECT max(w) FROM u WHERE u.kk = k",  # the nested one is analysed with its parent
        "SELECT w FROM u WHERE kk IN (SELECT kk FROM u x WHERE x.w = w)"]
    (plain,) = compile_statement(CLAUSE.format(m="1", d="B.v > A.v")).matches
    assert plain.subquery_spans == ()


class _Unresolved(Exception):
    """Spark's UNRESOLVED_COLUMN for a name at an offset of the analysed text, as PySpark raises it."""

    def __init__(self, name: str, at: int, condition: str = "UNRESOLVED_COLUMN.WITH_SUGGESTION"):
        super().__init__(f"[{condition}] A column ... with name `{name}` cannot be resolved.")
        self.name, self.at, self.condition = name, at, condition

    def getCondition(self):
        return self.condition

    def getQueryContext(self):
        error = self

        class Context:
            def fragment(self):
                return error.name

            def startIndex(self):
                return error.at

        return [Context()]


class _AnalysingSession:
    """A SparkSession's ``sql`` for the analysis of a subquery alone: the names of ``tables``
    resolve; any other name in a WHERE is Spark's UNRESOLVED_COLUMN at its place."""

    def __init__(self, tables: dict[str, set[str]]):
        self.tables, self.asked = tables, []

    def sql(self, query, args=None):
        self.asked.append(query)
        table = re.search(r"FROM (\w+)", query).group(1)
        for found in re.finditer(r"(?<![\w.])([a-z]+)\b(?!\s*\()", query.split("WHERE", 1)[-1]):
            name = found.group(1)
            if name not in self.tables[table] and name not in ("u", "where", "and") \
                    and "WHERE" in query:
                raise _Unresolved(name, query.index("WHERE") + 5 + found.start())
        return type("Frame", (), {"schema": None})()


@pytest.mark.parametrize("measure, culprit", [
    ("(SELECT max(w) FROM u WHERE u.kk = k)", "k)"),  # k: the input's, not u's
    ("(SELECT max(w) FROM u WHERE kk = 1 AND v > w)", "v >"),
])
def test_an_unqualified_outer_reference_to_the_input_is_refused_at_it(measure, culprit) -> None:
    from sparkcep.runtime.subqueries import check_outer_references

    sql = CLAUSE.format(m=measure, d="B.v > 0").replace("ORDER BY id", "PARTITION BY k ORDER BY id")
    (match,) = compile_statement(sql).matches
    with pytest.raises(AnalysisError) as caught:
        check_outer_references(_AnalysingSession({"u": {"kk", "w"}}), match, ["id", "k", "v"])
    assert caught.value.code == "CORRELATED_SUBQUERY"
    # the reference inside the subquery, not the earlier "k" of PARTITION BY
    assert (caught.value.line, caught.value.column) == (1, sql.index(culprit) + 1)


def test_names_of_the_subquerys_own_tables_and_unknown_names_are_left_to_spark() -> None:
    from sparkcep.runtime.subqueries import check_outer_references

    session = _AnalysingSession({"u": {"kk", "w"}})
    for measure in ("(SELECT max(w) FROM u WHERE kk = 1)", "(SELECT max(w) FROM u WHERE kk = nosuch)"):
        (match,) = compile_statement(CLAUSE.format(m=measure, d="true")).matches
        check_outer_references(session, match, ["id", "k", "v"])  # no error: Spark's own later
    assert session.asked == ["SELECT max(w) FROM u WHERE kk = 1", "SELECT max(w) FROM u WHERE kk = nosuch"]
