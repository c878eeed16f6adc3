"""``explain`` of windows with row pattern recognition (R020), and what the rewrite leaves to
Spark around them: pure compilation, no Spark."""

from __future__ import annotations

from sparkcep.compiler.explain import explain_statement
from sparkcep.compiler.rewrite import compile_statement

WINDOW = ("(PARTITION BY p ORDER BY ts MEASURES COUNT(A.*) AS n "
          "ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING SEEK PATTERN (A+) DEFINE A AS v > 0)")


def test_explain_names_each_window_after_the_clauses():
    sql = (f"SELECT *, n OVER w AS n, count(*) OVER {WINDOW} AS c\n"
           "FROM (SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY p ORDER BY ts MEASURES A.v AS v, A.ts AS ts\n"
           "  ALL ROWS PER MATCH PATTERN (A) DEFINE A AS v > 1)) AS m\n"
           f"WINDOW w AS {WINDOW.replace('SEEK', 'INITIAL')}, unused AS {WINDOW}")
    text = explain_statement(sql)
    titles = [line for line in text.splitlines() if line.startswith("== ") and "function" in line]
    assert [t.split(":")[0] for t in titles] == [
        "== MATCH_RECOGNIZE #1 (line 2)", "== WINDOW w #2 (line 4)", "== OVER (...) #3 (line 1)"]
    assert "frame:      ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING, INITIAL" in text
    assert "frame:      ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING, SEEK" in text
    assert "window mode" in text
    compiled = compile_statement(sql)
    assert len(compiled.matches) == 3  # the unused window costs no pass
    assert [m.function_name for m in compiled.matches] == [t.split("function ")[1].rstrip(" =") for t in titles]


def test_star_leaves_out_the_window_columns():
    sql = f"SELECT *, t.*, * EXCEPT (v), n OVER w AS n FROM t WINDOW w AS {WINDOW}"
    head = compile_statement(sql).sql.split(" FROM (")[0]
    assert head == ("SELECT * EXCEPT (`__sparkcepw0_m_n`), t.* EXCEPT (`__sparkcepw0_m_n`), "
                    "* EXCEPT (v, `__sparkcepw0_m_n`), `__sparkcepw0_m_n` AS n")


def test_explain_lists_the_window_functions_and_why_python():
    sql = (f"SELECT n OVER w AS n, first_value(v) OVER w AS f, nth_value(v, 2) OVER w AS s, "
           f"count(*) OVER w AS c FROM t WINDOW w AS {WINDOW}")
    text = explain_statement(sql)
    assert "functions:  first_value(v), nth_value(v, 2), count(*): over the rows of the row's match" in text
    path = next(line for line in text.splitlines() if line.startswith("path:"))
    assert path.endswith("which only the Python matcher's window mode does")  # was an empty reason

