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



def _engine_lines(window: str, measures: str = "n OVER w AS n, count(*) OVER w AS c") -> list[str]:
    text = explain_statement(f"SELECT {measures} FROM t WINDOW w AS {window}")
    return [line.strip() for line in text.splitlines()
            if line.strip().split(":")[0] in ("engine", "why", "regex", "output")]


def test_explain_names_the_window_engine_and_why():
    """The regex fast path where it finds the window's matches exactly (RE2 under PAST LAST ROW,
    column-wise output where the measures allow), the general matcher with the reason elsewhere."""
    unbounded = WINDOW.replace("2 FOLLOWING SEEK", "UNBOUNDED FOLLOWING AFTER MATCH SKIP PAST LAST ROW SEEK")
    lines = _engine_lines(unbounded)
    assert lines[0].startswith("engine:     regular expression over the bitmask column in window mode")
    assert lines[2].startswith("regex:      RE2, linear time")
    assert lines[3].startswith("output:     column-wise")
    bounded_initial = WINDOW.replace("SEEK", "INITIAL")
    lines = _engine_lines(bounded_initial, "n OVER w AS n, sum(v) OVER w AS s")
    assert "window_regex" in lines[0] and "not RE2: AFTER MATCH SKIP TO NEXT ROW" in lines[2]
    assert lines[3].startswith("output:     row by row")
    assert "window_regex" in _engine_lines(WINDOW)[0]  # SEEK in a bounded frame: a search per row
    lines = _engine_lines(WINDOW.replace("SEEK", "AFTER MATCH SKIP TO LAST A SEEK"))
    assert lines[0].startswith("engine:     backtracking row pattern matcher")
    assert lines[1] == "why:      not the regex path: AFTER MATCH SKIP TO LAST"
    dependent = WINDOW.replace("DEFINE A AS v > 0", "DEFINE A AS v > FIRST(A.v)").replace("SEEK", "INITIAL")
    assert "depends on the match" in _engine_lines(dependent)[1]
    leading_prev = WINDOW.replace("DEFINE A AS v > 0", "DEFINE A AS v > PREV(v)").replace("SEEK", "INITIAL")
    assert _engine_lines(leading_prev)[1].endswith("A can map one of a match's first 1 row(s)")
