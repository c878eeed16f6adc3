"""``sparkcep serve --connect`` with real Spark Connect clients (issue 25).

One server per module, on a free loopback port, without authentication. Two client sessions
run at once, each a separate process (``connect_client_script.py``) with the project's pyspark
as a Connect client (``SparkSession.builder.remote``); each registers its own temp view under the
same name with its own prices and matches over it in ``spark.sql``, a temp view, ``spark.table``
and EXPLAIN. The thin ``pyspark-client`` runs the same script from its own environment:
the one ``SPARKCEP_THIN_CLIENT_PYTHON`` names, else ``.venv-thin-client``, made from the package
index on first use (``examples/connect/thin_client.sh`` does the same by hand); it is skipped only
where the index cannot be reached. A Java program
(``examples/connect_jdbc``) runs against the same server with the two JVM clients in the pyspark
wheel: Spark Connect's JDBC driver and the Scala/Java ``SparkSession.builder().remote``.

The answers are worked out by hand: PATTERN (DOWN+ UP) over the prices, skipping past each
match. 10, 8, 7, 9, 6, 5, 11: DOWN 8, 7, UP 9; DOWN 6, 5, UP 11. 5, 4, 6, 3: DOWN 4, UP 6 (3 falls
again, and nothing rises after it)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clients_support import EXAMPLES, REPO, child_env, finish, launch_server, stop_group, wait_ready

pytestmark = pytest.mark.spark

SCRIPT = Path(__file__).resolve().parent / "connect_client_script.py"
TICKS = EXAMPLES / "data" / "stock_ticks.csv"
SESSIONS = {
    "first": ("10,8,7,9,6,5,11", [["A", 8.0, 9.0, 1], ["A", 6.0, 11.0, 2]]),
    "second": ("5,4,6,3", [["A", 4.0, 6.0, 1]]),
}
SCHEMA = [["symbol", "string"], ["first_down", "double"], ["up", "double"], ["m", "bigint"]]
ERROR_FIRST_LINE = ("[UNDEFINED_PATTERN_VARIABLE] 'X' is neither a pattern variable of PATTERN "
                    "nor a SUBSET name (line 3, column 12)")
THIN_CLIENT = os.environ.get("SPARKCEP_THIN_CLIENT_PYTHON")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = launch_server(["--connect", "--conf", "spark.executor.pyspark.memory=1g",
                         "-t", f"stock_ticks={TICKS}"],
                        tmp_path_factory.mktemp("serve-connect"))
    try:
        wait_ready(srv, marker="Connect URL: ")
        yield srv
    finally:
        finish(srv)


def client(python: str, url: str, prices: str, *table: str) -> subprocess.Popen:
    env = child_env()
    env.pop("SPARK_HOME", None)  # a Connect client needs no Spark installation
    return subprocess.Popen([python, str(SCRIPT), url, prices, *table], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, start_new_session=True)


def outcome(process: subprocess.Popen, timeout: float = 240) -> dict:
    try:
        out, err = process.communicate(timeout=timeout)
    finally:
        stop_group(process, grace=5)
    assert process.returncode == 0, err[-3000:]
    return json.loads(out.strip().splitlines()[-1])


def url(server) -> str:
    return f"sc://127.0.0.1:{server.port}"


@pytest.fixture(scope="module")
def sessions(server):
    """Both sessions at once, each with its own temp view ``events``."""
    running = {name: client(sys.executable, url(server), prices, "stock_ticks")
               for name, (prices, _) in SESSIONS.items()}
    return {name: outcome(process) for name, process in running.items()}


@pytest.mark.parametrize("name", SESSIONS)
def test_rows_and_types_of_each_concurrent_session(sessions, name):
    seen = sessions[name]
    assert seen["server_version"].startswith("4.")
    assert seen["schema"] == SCHEMA
    assert seen["rows"] == SESSIONS[name][1]


@pytest.mark.parametrize("name", SESSIONS)
def test_a_temp_view_over_the_clause_read_with_spark_table(sessions, name):
    assert sessions[name]["view_rows"] == SESSIONS[name][1]


def test_explain_shows_the_plan_that_runs(sessions):
    plan = sessions["first"]["explain"]
    assert "== Physical Plan ==" in plan and "ArrowEvalPythonUDTF" in plan, plan


def assert_typed_error(error: dict) -> None:
    assert error is not None, "the wrong statement ran"
    assert error["class"] == "ParseException", error
    lines = error["text"].splitlines()
    assert lines[0] == ERROR_FIRST_LINE, error["text"]
    assert lines[1:3] == ["  MEASURES X.price AS p", "           ^"], error["text"]
    # nothing of the server: no stack trace, no class or file names
    assert "JVM stacktrace" not in error["text"] and "Traceback" not in error["text"]
    assert not re.search(r"sparkcep\.jvm|\.java\b|\.py\b|site-packages", error["text"]), error


def test_a_wrong_statement_is_sparkceps_typed_error_at_its_position(sessions):
    assert_typed_error(sessions["first"]["error"])


#: (code, the DEFINE's line in the client's text) per family of ``connect_client_script.RUN_TIME``;
#: each error is about the DEFINE at line 5, column 15
RUN_TIME_CODES = {"cast": "CAST_INVALID_INPUT", "division": "DIVIDE_BY_ZERO",
                  "overflow": "ARITHMETIC_OVERFLOW", "executor": "DIVIDE_BY_ZERO"}


def assert_run_time_errors(seen: dict) -> None:
    """Issue 25: errors raised while the query runs reach the Connect client as sparkcep's code,
    message and position in the client's text (not Spark's quoting the generated SQL)."""
    from connect_client_script import RUN_TIME, run_time_statement

    errors = seen["run_time_errors"]
    assert set(errors) == set(RUN_TIME_CODES), errors
    for name, code in RUN_TIME_CODES.items():
        error = errors[name]
        assert error is not None, f"{name}: the statement ran"
        lines = error["text"].splitlines()
        assert re.fullmatch(rf"\[{code}\] \S.* \(line 5, column 15\)", lines[0]), (name, error)
        assert lines[1] == run_time_statement(RUN_TIME[name]).splitlines()[4], (name, error)
        assert lines[2].index("^") == 14, (name, error)
        assert error["condition"] == code, (name, error)
        assert error["class"] != "PythonException", (name, error)
        for leak in ("== SQL", "__sparkcep", "PYTHON_EXCEPTION", "JVM stacktrace", "Traceback",
                     "sparkcep-error-json"):
            assert leak not in error["text"], (name, leak, error)
        assert not re.search(r"sparkcep\.jvm|\.java\b|\.py\b|site-packages", error["text"]), error
    plain = seen["plain_run_time_error"]
    assert plain is not None and plain["text"].startswith("[DIVIDE_BY_ZERO] Division by zero"), plain
    assert "== SQL (line 1, position 8) ==" in plain["text"], plain  # Spark's, about its own text


def test_run_time_errors_are_sparkceps_at_the_users_position(sessions):
    assert_run_time_errors(sessions["first"])


def test_other_statements_are_spark_s(sessions):
    assert sessions["second"]["plain"] == [[0]]


def test_every_session_sees_the_servers_tables(sessions):
    lines = len(TICKS.read_text().strip().splitlines()) - 1  # less the header
    assert sessions["first"]["table_rows"] == sessions["second"]["table_rows"] == lines


@pytest.fixture(scope="module")
def thin_client_python() -> str:
    """The Python of an environment with the thin ``pyspark-client`` (no JVM): the one
    ``SPARKCEP_THIN_CLIENT_PYTHON`` names, else ``.venv-thin-client`` in the repository, made
    from the package index on first use (as ``examples/connect/thin_client.sh`` does); skipped,
    saying why, where the index cannot be reached."""
    if THIN_CLIENT:
        return THIN_CLIENT
    folder = REPO / ".venv-thin-client"
    python = folder / "bin" / "python"
    check = [str(python), "-c", "import pyspark.sql.connect.session"]
    if python.exists() and subprocess.run(check, capture_output=True).returncode == 0:
        return str(python)
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    try:
        installed = subprocess.run([str(python), "-m", "pip", "install", "-q", "pyspark-client>=4.1,<5"],
                                   capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        pytest.skip("pyspark-client: the package index did not answer within 15 minutes")
    if installed.returncode != 0:
        pytest.skip(f"pyspark-client could not be installed: {installed.stderr.strip()[-300:]}")
    return str(python)


def test_the_thin_pyspark_client(server, thin_client_python):
    version = subprocess.run([thin_client_python, "-c", "import pyspark; print(pyspark.__version__)"],
                             capture_output=True, text=True, check=True).stdout.strip()
    print(f"thin client: pyspark-client {version} against the server's Spark")
    seen = outcome(client(thin_client_python, url(server), SESSIONS["first"][0]))
    assert (seen["schema"], seen["rows"], seen["view_rows"]) == (SCHEMA, *[SESSIONS["first"][1]] * 2)
    assert_typed_error(seen["error"])
    assert_run_time_errors(seen)


# --- Java: the JVM Spark Connect clients the pyspark wheel carries, against the same server ---

JAVA_CLIENT = REPO / "examples" / "connect_jdbc" / "run.sh"
#: java.sql.Types of the JDBC driver's ResultSetMetaData.getColumnType
VARCHAR, DOUBLE, TIMESTAMP, BIGINT = 12, 8, 93, -5
#: the V shapes of prices 10, 8, 7, 9, 6, 5, 11 at 09:01..09:07 (see the module's docstring),
#: with LAST(UP.ts) and COUNT(DOWN.price): DOWN 8, 7 UP 9 at 09:04; DOWN 6, 5 UP 11 at 09:07
JAVA_COLUMNS = [("symbol", VARCHAR, "STRING"), ("first_down", DOUBLE, "DOUBLE"),
                ("up", DOUBLE, "DOUBLE"), ("up_at", TIMESTAMP, "TIMESTAMP"),
                ("downs", BIGINT, "BIGINT"), ("m", BIGINT, "BIGINT")]
JAVA_ROWS = [["A", "8.0", "9.0", "2024-03-04 09:04:00.0", "2", "1"],
             ["A", "6.0", "11.0", "2024-03-04 09:07:00.0", "2", "2"]]
JAVA_DIVISION_LINE = "  DEFINE B AS B.price / (B.price - B.price) > 0)"


def java_output(text: str) -> dict:
    """``MatchRecognizeOverJdbc``'s tab-separated lines, per client ("jdbc", "session")."""
    seen: dict = {}
    for line in text.splitlines():
        client, _, rest = line.partition("\t")
        if client not in ("jdbc", "session"):
            continue  # the JVM's own warnings
        mine = seen.setdefault(client, {"columns": [], "rows": [], "errors": {}})
        kind, _, rest = rest.partition("\t")
        if kind == "column":
            mine["columns"].append(rest.split("\t"))
        elif kind == "row":
            mine["rows"].append(rest.split("\t"))
        elif kind == "error":
            label, kind_of, state = rest.split("\t")
            mine["errors"][label] = {"class": kind_of, "state": state, "lines": []}
        elif kind == "message":
            label, _, text_line = rest.partition("\t")
            mine["errors"][label]["lines"].append(text_line)
    return seen


@pytest.fixture(scope="module")
def java_client(server, tmp_path_factory):
    """The example program, compiled into a temporary folder and run once with both clients."""
    if not (shutil.which("javac") and shutil.which("java")):
        pytest.skip("no JDK (javac) on the PATH")
    env = child_env()
    env.pop("SPARK_REMOTE", None)  # the clients read it as their default URL
    env.update(PYTHON=sys.executable, CLASSES_DIR=str(tmp_path_factory.mktemp("java-classes")))
    process = subprocess.Popen(["bash", str(JAVA_CLIENT), url(server), "both"], env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, err = process.communicate(timeout=300)
    finally:
        stop_group(process, grace=5)
    assert process.returncode == 0, (out[-3000:], err[-3000:])
    return java_output(out)


def test_java_jdbc_rows_and_column_types(java_client):
    jdbc = java_client["jdbc"]
    assert jdbc["columns"] == [[name, str(kind), type_name] for name, kind, type_name in JAVA_COLUMNS]
    assert jdbc["rows"] == JAVA_ROWS


def test_java_connect_session_rows_and_types(java_client):
    session = java_client["session"]
    assert session["columns"] == [[name, type_name.lower(), ""]
                                  for name, _, type_name in JAVA_COLUMNS]
    assert session["rows"] == JAVA_ROWS


def assert_java_errors(errors: dict, exception: str, states: dict) -> None:
    """Both wrong statements come back as sparkcep's error at its place in the client's text."""
    wrong = errors["undefined_variable"]
    assert (wrong["class"], wrong["state"]) == (exception, states["undefined_variable"]), wrong
    assert wrong["lines"][:3] == [ERROR_FIRST_LINE, "  MEASURES X.price AS p", "           ^"], wrong
    division = errors["division"]
    assert (division["class"], division["state"]) == (exception, states["division"]), division
    lines = division["lines"]
    assert re.fullmatch(r"\[DIVIDE_BY_ZERO\] Division by zero\. .* \(line 5, column 15\)", lines[0]), lines
    assert lines[1] == JAVA_DIVISION_LINE and lines[2].index("^") == 14, lines
    for error in (wrong, division):
        text = "\n".join(error["lines"])
        for leak in ("INTERNAL_ERROR", "== SQL", "__sparkcep", "JVM stacktrace", "sparkcep-error"):
            assert leak not in text, (leak, text)


def assert_plain_spark_error(error: dict, exception: str, state: str) -> None:
    """A statement without MATCH_RECOGNIZE fails with Spark's error, as Spark words it."""
    assert (error["class"], error["state"]) == (exception, state), error
    assert error["lines"][0].startswith("[DIVIDE_BY_ZERO] Division by zero. "), error
    assert "(line " not in error["lines"][0], error


def test_java_jdbc_errors_are_sparkceps_at_the_users_position(java_client):
    # the SQLException's SQLSTATE: sparkcep's for its own error, Spark's for a division by zero
    assert_java_errors(java_client["jdbc"]["errors"], "java.sql.SQLException",
                       {"undefined_variable": "42000", "division": "22012"})
    assert_plain_spark_error(java_client["jdbc"]["errors"]["plain_division"],
                             "java.sql.SQLException", "22012")


def test_java_connect_session_errors_carry_sparkceps_code(java_client):
    # SparkThrowable.getCondition() is the code
    assert_java_errors(java_client["session"]["errors"], "org.apache.spark.SparkException",
                       {"undefined_variable": "UNDEFINED_PATTERN_VARIABLE", "division": "DIVIDE_BY_ZERO"})
    assert_plain_spark_error(java_client["session"]["errors"]["plain_division"],
                             "org.apache.spark.SparkArithmeticException", "DIVIDE_BY_ZERO")
