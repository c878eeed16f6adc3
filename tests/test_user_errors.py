"""Errors a user sees (issues 11 and 12): Spark's errors about the user's query become the user's
errors — one code, one position in the user's text, the generated SQL never shown — and an error
raised on an executor reaches the driver as the typed error with ``[CODE] message (line L,
column C)`` as its first line. docs/errors.md lists the codes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap

import pytest

from sparkcep.errors import (AnalysisError, MatchRuntimeError, SparkCepError, for_worker,
                             from_worker_text)
from sparkcep.runtime.spark_errors import clean_message, fragment_offset

FIRST_LINE = re.compile(r"^\[([A-Z][A-Z0-9_]*)\] (.+) \(line (\d+), column (\d+)\)$")


def check_first_line(text: str, code: str, line: int, column: int) -> None:
    """One code, one position in the user's text, nothing of the generated SQL."""
    first = text.splitlines()[0]
    found = FIRST_LINE.match(first)
    assert found, first
    assert found.group(1) == code, first
    assert (int(found.group(3)), int(found.group(4))) == (line, column), first
    assert not re.search(r"\[[A-Z][A-Z0-9_.]+\]", found.group(2)), first  # one code
    assert "(line" not in found.group(2) and " pos " not in first, first
    for leak in ("__sparkcep", "SQLSTATE", "== SQL", "Traceback", "sparkcep_mr_", "CAST("):
        assert leak not in text, text


# -- pure: the pieces ----------------------------------------------------------------------------


def test_worker_error_round_trip_through_spark_text():
    source = "SELECT *\nFROM t MATCH_RECOGNIZE (ORDER BY ts PATTERN (A B) DEFINE B AS B.x > A.y)"
    error = MatchRuntimeError("DIVIDE_BY_ZERO", "division by zero in a DEFINE or MEASURES "
                              "expression", line=2, column=53, sql=source)
    raised = for_worker(error)
    assert str(raised).splitlines()[0] == str(error).splitlines()[0]
    # what the driver receives: Spark's prefix, a Python traceback, then the exception's text
    spark_text = ("[PYTHON_EXCEPTION] An exception was thrown from the Python worker:\n"
                  "Traceback (most recent call last):\n  File \"x.py\", line 3, in eval\n"
                  f"sparkcep.errors.MatchRuntimeError: {raised}\n SQLSTATE: 38000")
    recovered = from_worker_text(spark_text)
    assert isinstance(recovered, MatchRuntimeError)
    assert str(recovered) == str(error)
    assert from_worker_text("an unrelated failure") is None


def test_spark_message_cleaned_of_generated_sql():
    raw = ("[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function parameter with "
           "name `pricee` cannot be resolved. Did you mean one of the following? [`price`]. "
           "SQLSTATE: 42703; line 1 pos 331;\n'Project [...]")
    assert clean_message(raw) == ("A column, variable, or function parameter with name `pricee` "
                                  "cannot be resolved. Did you mean one of the following? "
                                  "[`price`].")
    assert "<internal>" in clean_message("[X] bad `__sparkcep_m0` column")


def test_fragment_found_in_the_users_text():
    sql = "SELECT * FROM t MATCH_RECOGNIZE (\n DEFINE B AS B.price < 'cheap')"
    offset = fragment_offset("(`price` < 'cheap')", sql)
    assert sql[offset:].startswith("B.price < 'cheap'")
    assert fragment_offset("`nowhere` + 1", sql) is None


# -- Spark: sparkcep.sql ---------------------------------------------------------------------------

TABLE = """CREATE OR REPLACE TEMP VIEW user_errors_t AS SELECT * FROM VALUES
  ('a', timestamp'2026-01-01 00:00:00', 1.0D, date'2026-01-01', 'de'),
  ('a', timestamp'2026-01-01 00:01:00', 2.0D, date'2026-01-02', 'fr')
  AS t(sym, ts, price, day, country)"""


def clause(order: str, define: str, extra: str = "", table: str = "user_errors_t") -> str:
    return (f"SELECT * FROM {table} MATCH_RECOGNIZE (\n"
            f"  ORDER BY {order}\n"
            f"  MEASURES COUNT(*) AS n\n"
            f"  PATTERN (A B){extra}\n"
            f"  DEFINE {define})")


# (query, code, line, column): the position is the user's token the error is about
MISTAKES = {
    "unknown table": (clause("ts", "B AS B.price > 0", table="nosuch"),
                      "TABLE_OR_VIEW_NOT_FOUND", 1, 15),
    "unknown column": (clause("ts", "B AS B.pricee > 0"), "UNRESOLVED_COLUMN", 5, 17),
    "unknown column outside the clause": (clause("ts", "B AS B.price > 0")
                                          .replace("SELECT *", "SELECT nosuch, n", 1),
                                          "UNRESOLVED_COLUMN", 1, 8),
    "type error in a row-local DEFINE": (clause("ts", "B AS B.price < 'cheap'"),
                                         "CAST_INVALID_INPUT", 5, 15),
    "WITHIN number on a DATE key": (clause("day", "B AS B.price > 0", "\n  WITHIN 5"),
                                    "WITHIN_KEY_TYPE", 5, 3),
    "types across rows": (clause("ts", "B AS B.price + LAST(A.ts) > 0"),
                          "MATCH_DEPENDENT_TYPE_MISMATCH", 5, 15),
    "division by zero while matching": (clause("ts", "B AS B.price / (LAST(A.price) - LAST(A.price)) > 0"),
                                        "DIVIDE_BY_ZERO", 5, 15),
    "skip to the first row": (clause("ts", "B AS B.price > 0", "\n  AFTER MATCH SKIP TO FIRST A")
                              .replace("  PATTERN (A B)\n  AFTER MATCH SKIP TO FIRST A",
                                       "  AFTER MATCH SKIP TO FIRST A\n  PATTERN (A B)"),
                              "SKIP_TO_FIRST_ROW_OF_MATCH", 4, 3),
}


@pytest.mark.spark
@pytest.mark.parametrize("name", list(MISTAKES))
def test_sparkcep_sql_raises_the_users_error(spark, name):
    import sparkcep

    spark.sql(TABLE)
    query, code, line, column = MISTAKES[name]
    with pytest.raises(SparkCepError) as caught:
        sparkcep.sql(spark, query).collect()
    check_first_line(str(caught.value), code, line, column)
    assert caught.value.sql == query


# -- Spark: the CLI, stderr as the user sees it ----------------------------------------------------

CLI_SCRIPT = textwrap.dedent('''
    import sys
    from sparkcep.clients.cli import main
    try:  # start Spark first: its start-up lines are not about any mistake
        main(["run", "-q", "-e", "SELECT 1 AS one"], standalone_mode=False)
    except SystemExit:
        pass
    for name, query in CASES:
        print("=== " + name, file=sys.stderr, flush=True)
        try:
            main(["run", "-q", "-e", query, "-t", "user_errors_t=" + DATA],
                 standalone_mode=False)
        except SystemExit as stop:
            print("=== exit %s" % stop.code, file=sys.stderr, flush=True)
''')


@pytest.mark.spark
def test_cli_stderr_has_only_the_users_error(tmp_path):
    # One CLI process runs every mistake (one Spark start); its whole stderr is checked: after
    # start-up, each mistake prints exactly its error, no JSON log line, no Java stack trace.
    data = tmp_path / "t.csv"
    data.write_text("sym,ts,price,day,country\na,2026-01-01 00:00:00,1.0,2026-01-01,de\n"
                    "a,2026-01-01 00:01:00,2.0,2026-01-02,fr\n")
    (tmp_path / "t.schema").write_text("sym STRING, ts TIMESTAMP, price DOUBLE, day DATE, "
                                       "country STRING")
    cases = [(name, query) for name, (query, *_ ) in MISTAKES.items()]
    script = f"CASES = {cases!r}\nDATA = {str(data)!r}\n" + CLI_SCRIPT
    env = dict(os.environ)
    # conftest's bound on each Python worker's memory, for this process's session too
    env["PYSPARK_SUBMIT_ARGS"] = "--conf spark.executor.pyspark.memory=2g pyspark-shell"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=600, cwd=tmp_path, env=env)
    sections = result.stderr.split("=== ")[1:]
    outputs = {}
    for header_and_body in sections:
        header, _, body = header_and_body.partition("\n")
        if header.startswith("exit "):
            assert header == "exit 2", result.stderr[-3000:]
            continue
        outputs[header] = body
    assert set(outputs) == set(MISTAKES), result.stderr[-3000:]
    for name, body in outputs.items():
        _, code, line, column = MISTAKES[name]
        # PySpark's worker reports the memory bound set above on stderr: not a log line
        lines = [text for text in body.splitlines()
                 if text.strip() and "mem limits" not in text]
        check_first_line("\n".join(lines), code, line, column)
        assert len(lines) == 3, (name, body)  # the message, the source line, the caret
        assert not any(text.lstrip().startswith(("{", "at ", "\tat")) for text in lines), body
    assert '{"ts"' not in result.stderr and "\tat org.apache" not in result.stderr


# -- statements around the clause (issue 11) ------------------------------------------------------

CLAUSE = ("SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts MEASURES COUNT(*) AS n PATTERN (A) "
          "DEFINE A AS A.x > 0)")


@pytest.mark.parametrize("create", ["CREATE VIEW v AS ", "CREATE OR REPLACE VIEW v AS "])
def test_permanent_view_is_refused_with_what_to_do(create):
    # a permanent view cannot refer to the session's temporary function (Spark's rule)
    from sparkcep.compiler.statement_rules import check_statement

    with pytest.raises(AnalysisError) as caught:
        check_statement(create + CLAUSE)
    error = caught.value
    assert error.code == "PERMANENT_VIEW_WITH_MATCH_RECOGNIZE"
    assert "CREATE TEMPORARY VIEW" in error.message
    assert (create + CLAUSE)[error.column - 1:].startswith("VIEW")


@pytest.mark.parametrize("create", ["CREATE TEMPORARY VIEW v AS ", "CREATE OR REPLACE TEMP VIEW v AS ",
                                    "CREATE GLOBAL TEMPORARY VIEW v AS ", ""])
def test_temporary_views_and_queries_pass(create):
    """No error for a temporary view or a plain query, and the statement compiles with its
    CREATE ... AS kept as written around the rewritten clause."""
    from sparkcep.compiler.rewrite import compile_statement
    from sparkcep.compiler.statement_rules import check_statement

    assert check_statement(create + CLAUSE) is None
    compiled = compile_statement(create + CLAUSE)
    assert len(compiled.matches) == 1
    assert compiled.sql.startswith(create + "SELECT * FROM (SELECT ")
    assert f"{compiled.matches[0].function_name}(TABLE(" in compiled.sql
    assert "MATCH_RECOGNIZE" not in compiled.sql


PARAMETER_QUERY = """SELECT * FROM (SELECT * FROM VALUES (1, 5), (2, 1), (3, 7), (4, 9) AS t(ts, x))
  MATCH_RECOGNIZE (ORDER BY ts MEASURES FIRST(A.ts) AS start, COUNT(*) AS n
                   ONE ROW PER MATCH PATTERN (A B+) DEFINE B AS B.x > PREV(B.x) + {marker})"""


@pytest.mark.spark
def test_parameter_markers_inside_the_clause(spark):
    # SparkSession.sql(text, args): the type probes bind the same arguments as the statement
    import sparkcep

    named = sparkcep.sql(spark, PARAMETER_QUERY.format(marker=":step"), args={"step": 1})
    positional = sparkcep.sql(spark, PARAMETER_QUERY.format(marker="?"), args=[1])
    # B rows rise by more than 1: 1 -> 7 -> 9 (ts 2..4); plain Spark gives the same rises
    rises = spark.sql("SELECT count(*) FROM VALUES (5, 1), (1, 7), (7, 9) AS r(a, b) "
                      "WHERE b > a + :step", args={"step": 1}).collect()[0][0]
    assert rises == 2
    assert [tuple(r) for r in named.collect()] == [(2, 3)]
    assert [tuple(r) for r in positional.collect()] == [(2, 3)]


@pytest.mark.spark
def test_permanent_view_through_sparkcep_sql(spark):
    import sparkcep

    spark.sql(TABLE)
    with pytest.raises(AnalysisError) as caught:
        sparkcep.sql(spark, "CREATE VIEW user_errors_v AS " + clause("ts", "B AS B.price > 0"))
    assert caught.value.code == "PERMANENT_VIEW_WITH_MATCH_RECOGNIZE"
    sparkcep.sql(spark, "CREATE TEMPORARY VIEW user_errors_v AS " + clause("ts", "B AS B.price > 0"))
    assert spark.table("user_errors_v").collect()[0].n == 2


def test_run_time_errors_point_at_the_part_that_failed():
    from types import SimpleNamespace

    from sparkcep.runtime.registration import _located

    source = ("SELECT * FROM t MATCH_RECOGNIZE (\n  ORDER BY ts\n  PATTERN (A B)\n"
              "  AFTER MATCH SKIP TO FIRST A\n  DEFINE A AS A.x > 0, B AS B.s > LAST(A.ts))")

    def where(code, python_defines):
        plan = SimpleNamespace(spec=SimpleNamespace(variable_names=("A", "B")),
                               conditions=dict.fromkeys(python_defines))
        error = _located(MatchRuntimeError(code, "m"), source, plan)
        return error.line, error.column, error.length

    divided = MatchRuntimeError("DIVIDE_BY_ZERO", "m")
    divided.span = (source.index("B.s > "), source.index("B.s > ") + 15)  # set by the evaluator
    located = _located(divided, source, None)
    assert (located.line, located.column, located.length) == (5, 29, 15)  # the operator
    assert where("SKIP_TO_FIRST_ROW_OF_MATCH", []) == (4, 3, 16)     # AFTER MATCH SKIP
    assert where("MATCH_BUDGET_EXCEEDED", []) == (3, 3, 7)           # PATTERN


# -- Spark's errors while the query runs (issue 25): restated against the user's text -------------


class _Context:
    def __init__(self, fragment, start):
        self._fragment, self._start = fragment, start

    def fragment(self):
        return self._fragment

    def startIndex(self):
        return self._start

    def stopIndex(self):
        return self._start + len(self._fragment) - 1


class _SparkError(Exception):
    """What PySpark raises for an error in a running query: a condition and a query context."""

    def __init__(self, message, condition, contexts):
        super().__init__(message)
        self._condition, self._contexts = condition, contexts

    def getCondition(self):
        return self._condition

    def getQueryContext(self):
        return self._contexts


def test_run_time_error_restated_only_for_generated_sql():
    from sparkcep.runtime.spark_errors import remember, restate_at_run_time

    user = ("SELECT * FROM t MATCH_RECOGNIZE (\n  ORDER BY ts\n  MEASURES COUNT(*) AS n\n"
            "  PATTERN (A B)\n  DEFINE B AS B.price > 'abc')")
    generated = "SELECT * FROM f(TABLE(SELECT CAST(IF(coalesce((`price` > 'abc'), false), 2L, 0L)))"
    remember(generated, user)
    start = generated.index("`price`")
    message = ("[CAST_INVALID_INPUT] The value 'abc' of the type \"STRING\" cannot be cast to "
               "\"DOUBLE\" because it is malformed. SQLSTATE: 22018\n== SQL (line 1, position 50) ==")
    error = restate_at_run_time(_SparkError(message, "CAST_INVALID_INPUT",
                                            [_Context("`price` > 'abc'", start)]))
    check_first_line(str(error), "CAST_INVALID_INPUT", 5, 15)
    assert error.sql == user
    # the same fragment elsewhere (another statement's SQL, or another position) is Spark's
    assert restate_at_run_time(_SparkError(message, "CAST_INVALID_INPUT",
                                           [_Context("`price` > 'abc'", start + 1)])) is None
    assert restate_at_run_time(_SparkError(message, "CAST_INVALID_INPUT", [])) is None
    assert restate_at_run_time(ValueError("no context")) is None


def _summary(generated: str, fragment: str, start: int, window: int = 25) -> str:
    """Spark's query-context summary of ``fragment`` at ``start`` in a one-line ``generated``:
    an excerpt of the line cut with "..." and carets under the fragment."""
    begin = max(0, start - window)
    excerpt = ("..." if begin else "") + generated[begin:start + len(fragment) + window] + "..."
    indent = start - begin + (3 if begin else 0)
    return (f"== SQL (line 1, position {start + 1}) ==\n{excerpt}\n"
            f"{' ' * indent}{'^' * len(fragment)}\n")


def test_run_time_error_restated_from_its_message_alone():
    """Spark Connect's clients get the error class and message only (``ConnectErrorInterceptor``):
    the query context is read back from the message's summary."""
    from sparkcep.errors import for_worker
    from sparkcep.runtime.spark_errors import remember, restate_message

    user = ("SELECT * FROM t MATCH_RECOGNIZE (\n  ORDER BY ts\n  MEASURES COUNT(*) AS n\n"
            "  PATTERN (A B)\n  DEFINE B AS B.price / (B.price - B.price) > 0)")
    generated = ("SELECT * FROM f(TABLE(SELECT __sparkcep_in.`ts`, CAST(IF(coalesce((`price` / "
                 "(`price` - `price`) > 0), false), 2L, 0L) + 1L AS TINYINT) FROM x))")
    remember(generated, user)
    fragment = "`price` / (`price` - `price`) > 0"
    start = generated.index(fragment)
    spark = ("[DIVIDE_BY_ZERO] Division by zero. Use `try_divide` to tolerate divisor being 0. "
             "SQLSTATE: 22012\n")
    text = restate_message("DIVIDE_BY_ZERO", spark + _summary(generated, fragment, start))
    check_first_line(text, "DIVIDE_BY_ZERO", 5, 15)
    lines = text.splitlines()
    assert lines[1:] == ["  DEFINE B AS B.price / (B.price - B.price) > 0)", " " * 14 + "^"], text
    # a fragment that is not where the summary says, or no summary: not sparkcep's
    assert restate_message("DIVIDE_BY_ZERO", spark + _summary(generated, fragment, start)
                           .replace(f"position {start + 1}", f"position {start}")) is None
    assert restate_message("DIVIDE_BY_ZERO", spark) is None
    # another statement, compiled later, with the fragment at the same place but other text
    # around it (another client's): the error's excerpt still names the first statement
    other_user = user.replace("  PATTERN (A B)\n", "  PATTERN (A B)\n  -- another client\n")
    other = generated.replace("coalesce((", "ifnull((((")
    assert other.index(fragment) == start and other != generated
    remember(other, other_user)
    first = restate_message("DIVIDE_BY_ZERO", spark + _summary(generated, fragment, start))
    assert first == text
    second = restate_message("DIVIDE_BY_ZERO", spark + _summary(other, fragment, start))
    check_first_line(second, "DIVIDE_BY_ZERO", 6, 15)
    # a worker's error: its marked line; cut off, its printed lines
    worker = for_worker(MatchRuntimeError("DIVIDE_BY_ZERO", "division by zero", line=5,
                                          column=15, sql=user, length=3))
    wrapped = ("[PYTHON_EXCEPTION] An exception was thrown from the Python worker: "
               f"sparkcep.errors.MatchRuntimeError: {worker}")
    assert restate_message("", wrapped) == str(MatchRuntimeError(
        "DIVIDE_BY_ZERO", "division by zero", line=5, column=15, sql=user, length=3))
    cut = restate_message("", wrapped[:wrapped.index("sparkcep-error-json") + 30])
    assert cut.splitlines() == str(worker).splitlines()[:3], cut


SCANNED = ("CREATE OR REPLACE TEMP VIEW user_errors_scan AS SELECT 'a' AS sym, "
           "timestamp_seconds(id * 60) AS ts, CAST(id AS DOUBLE) AS price, "
           "CAST(id + 2147483600 AS INT) AS volume FROM range(0, 40, 1, 2)")

# (DEFINE, code, column of the expression in line 5): data-dependent, so Spark raises them only
# while it scans the rows (a range, unlike VALUES, is not folded at analysis)
RUN_TIME = {
    "cast": ("B AS B.price > 'abc'", "CAST_INVALID_INPUT", 15),
    "division": ("B AS B.price / (B.price - B.price) > 0", "DIVIDE_BY_ZERO", 15),
    "overflow": ("B AS B.volume + 100 > 0", "ARITHMETIC_OVERFLOW", 15),
}


@pytest.mark.spark
@pytest.mark.parametrize("entry", ["sparkcep.sql", "spark.sql after enable"])
@pytest.mark.parametrize("family", list(RUN_TIME))
def test_spark_errors_while_running_are_the_users(spark, entry, family):
    import sparkcep

    define, code, column = RUN_TIME[family]
    query = clause("ts", define, table="user_errors_scan")
    spark.sql(SCANNED)
    with pytest.raises(SparkCepError) as caught:
        if entry == "sparkcep.sql":
            sparkcep.sql(spark, query).collect()
        else:
            sparkcep.enable(spark)
            try:
                spark.sql(query).collect()
            finally:
                sparkcep.disable(spark)
    check_first_line(str(caught.value), code, 5, column)
    assert caught.value.sql == query


@pytest.mark.spark
def test_plain_spark_errors_stay_sparks(spark):
    """The same error in a statement without MATCH_RECOGNIZE is Spark's, unchanged."""
    from pyspark.errors import ArithmeticException

    spark.sql(SCANNED)
    with pytest.raises(ArithmeticException):
        spark.sql("SELECT price / (price - price) FROM user_errors_scan").collect()


def test_a_name_written_twice_is_located_where_spark_points():
    """``_name_offset`` used to take the first occurrence of the name Spark's message is about;
    here ``zz`` is first a measure's name, then (unresolved) a column inside a subquery. Spark's
    query context points into the generated SQL; the occurrence in the user's text with the same
    tokens around it is the one."""
    from sparkcep.runtime.spark_errors import (_MessageContext, _MessageError, remember,
                                               restate_for_text)

    text = ("SELECT * FROM t MATCH_RECOGNIZE (ORDER BY id\n"
            "  MEASURES B.v AS zz, (SELECT max(w) FROM u WHERE u.kk = zz) AS m\n"
            "  PATTERN (A B) DEFINE B AS B.v > 0)")
    generated = ("SELECT * FROM (SELECT (`__sparkcep_c0`) AS `zz`, ((SELECT max(w) FROM u WHERE "
                 "u.kk = zz)) AS `m` FROM sparkcep_mr_0 (TABLE(...)))")
    remember(generated, text)
    at = generated.index("= zz") + 2
    error = _MessageError("UNRESOLVED_COLUMN.WITH_SUGGESTION",
                          "[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function "
                          "parameter with name `zz` cannot be resolved. SQLSTATE: 42703",
                          [_MessageContext("zz", at)])
    restated = restate_for_text(error, text)
    assert restated.code == "UNRESOLVED_COLUMN"
    assert (restated.line, restated.column) == (2, text.splitlines()[1].index("= zz") + 3)
    # without the generated SQL (not remembered), the first occurrence, as before
    alone = restate_for_text(error, text.replace("SELECT *", "SELECT  *"))
    assert (alone.line, alone.column) == (2, text.splitlines()[1].index("zz") + 1)
