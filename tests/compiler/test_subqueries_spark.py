"""Subqueries in MEASURES and DEFINE that read a column of the row pattern input table without a
qualifier (issue 23), through ``sparkcep.sql`` on local Spark. Such a reference is an implicit
reference to the universal row pattern variable (ISO/IEC 19075-5), as correlated as the qualified
``B.k`` the compiler refuses: ``CORRELATED_SUBQUERY`` at the reference, found at registration
(Spark analyses each subquery alone; nothing runs). Before, DEFINE computed it per row over the
current row, ALL ROWS PER MATCH per output row, and ONE ROW PER MATCH failed with Spark's
UNRESOLVED_COLUMN. A subquery whose names are its own is Spark's, as written.

Most cases fail at registration (analysis only, no job); one valid statement runs."""

from __future__ import annotations

import pytest

import sparkcep
from sparkcep.errors import SparkCepError

pytestmark = pytest.mark.spark


def _statement(define="B AS B.v > 0", measures="B.id AS b", rows="ONE ROW PER MATCH", before=""):
    return (f"{before}SELECT * FROM sq_t MATCH_RECOGNIZE (PARTITION BY k ORDER BY id\n"
            f"  MEASURES {measures}\n  {rows}\n  PATTERN (A B)\n  DEFINE {define})")


# (statement, code, the text the caret stands at: its last occurrence in the statement)
REFUSED = {
    "DEFINE scalar": (_statement(define="B AS B.v > (SELECT max(w) FROM sq_u WHERE sq_u.kk = k)"),
                      "CORRELATED_SUBQUERY", "k)"),
    "DEFINE IN": (_statement(define="B AS 25 IN (SELECT w FROM sq_u WHERE kk = k)"),
                  "CORRELATED_SUBQUERY", "k)"),
    "DEFINE EXISTS": (_statement(define="B AS EXISTS (SELECT 1 FROM sq_u WHERE v < w)"),
                      "CORRELATED_SUBQUERY", "v <"),
    "MEASURES, ONE ROW PER MATCH": (_statement(measures="(SELECT max(w) FROM sq_u WHERE sq_u.kk = k) AS m"),
                                    "CORRELATED_SUBQUERY", "k)"),
    "MEASURES, ALL ROWS PER MATCH": (_statement(measures="(SELECT max(w) FROM sq_u WHERE sq_u.kk = k) AS m",
                                                rows="ALL ROWS PER MATCH"), "CORRELATED_SUBQUERY", "k)"),
    "the input table's name as qualifier": (
        _statement(define="B AS B.v < (SELECT max(w) FROM sq_u WHERE sq_u.kk = sq_t.k)"),
        "CORRELATED_SUBQUERY", "sq_t.k"),
    "a CTE in the subquery": (
        _statement(measures="(SELECT max(w) FROM c WHERE kk = k) AS m", before="WITH c AS (SELECT * FROM sq_u)\n"),
        "CORRELATED_SUBQUERY", "k)"),
    # nobody's column, whose name is first a measure's: Spark's error, at the second occurrence
    "an unknown name written twice": (_statement(measures="B.v AS zz, (SELECT max(w) FROM sq_u WHERE sq_u.kk = zz) AS m"),
                                      "UNRESOLVED_COLUMN", "zz)"),
}


def _views(spark):
    spark.sql("CREATE OR REPLACE TEMP VIEW sq_t AS SELECT * FROM VALUES "
              "(1, 1, 10), (2, 1, 20), (3, 2, 5), (4, 2, 30) AS t(id, k, v)")
    spark.sql("CREATE OR REPLACE TEMP VIEW sq_u AS SELECT * FROM VALUES (1, 15), (2, 25) AS u(kk, w)")


def test_outer_references_to_the_input_are_refused_at_the_reference(spark):
    from sparkcep.runtime.spark_errors import remember

    _views(spark)
    # a statement sparkcep ran before, with "k" at every place: the analysis of a subquery alone
    # must see Spark's own error, not one restated against that statement because its fragment
    # ("k") stands at the same index there (``spark_errors.raw_errors``)
    remember("k" * 400, "SELECT 1")
    wrong = []
    for name, (sql, code, culprit) in REFUSED.items():
        try:
            sparkcep.sql(spark, sql)
            wrong.append(f"{name}: accepted")
            continue
        except SparkCepError as error:
            caught = error
        at = sql.rindex(culprit)
        line = sql.count("\n", 0, at) + 1
        column = at - (sql.rfind("\n", 0, at) + 1) + 1
        if (caught.code, caught.line, caught.column) != (code, line, column):
            wrong.append(f"{name}: {caught.code} at {caught.line}:{caught.column}, not {code} at {line}:{column}")
    assert not wrong, "\n".join(wrong)


def test_subqueries_over_their_own_names_are_sparks_as_written(spark):
    _views(spark)
    sql = _statement(
        define="B AS B.v > (SELECT min(w) FROM sq_u WHERE kk = 1) - 10",
        measures="B.id AS b, (SELECT max(w) FROM sq_u WHERE kk IN (SELECT kk FROM sq_u x WHERE x.w = sq_u.w)) AS m")
    # per partition k: (1: ids 1, 2) B = 2 (20 > 5); (2: ids 3, 4) B = 4 (30 > 5); m = 25
    assert sorted(tuple(r) for r in sparkcep.sql(spark, sql).collect()) == [(1, 2, 25), (2, 4, 25)]
