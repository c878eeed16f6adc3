"""Real SQL clients against ``sparkcep serve``: beeline (JDBC), PyHive (DB-API), SQLAlchemy.

One server (binary transport, loopback, no authentication, the sql_examples tables) serves the
module; its rows are compared with ``sparkcep.sql`` on the in-process session and with the
examples' expected CSV files. Set SPARKCEP_SOAK_SECONDS for a longer concurrency run.
"""

from __future__ import annotations

import os
import re
import subprocess
import threading
import time

import pytest

import sparkcep
from clients_support import (EXAMPLES, QUERIES, beeline, error_first_line, expected, norm_rows,
                             result_lines, statement)
from clients_support import (SPARKCEP, child_env, example_table_args, finish, launch_server,
                             stop_group, wait_ready)

pytestmark = pytest.mark.spark

hive = pytest.importorskip("pyhive.hive")
sqlalchemy = pytest.importorskip("sqlalchemy")

UNDEFINED = """SELECT * FROM stock_ticks MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ts
  MEASURES X.price AS p
  PATTERN (A B+) DEFINE B AS price > PREV(price))"""
UNDEFINED_FIRST_LINE = re.compile(
    r"^Error running query: \[UNDEFINED_PATTERN_VARIABLE\] 'X' is neither a pattern variable .*"
    r"\(line 3, column 1[12]\)$"
)
UNBALANCED = "SELECT * FROM stock_ticks MATCH_RECOGNIZE (PATTERN (A B+ DEFINE B AS price > 1)"
UNBALANCED_FIRST_LINE = re.compile(
    r"^Error running query: \[\w+\] .*\(line 1, column \d+\)$"
)


def no_leaks(message: str) -> None:
    assert "Traceback" not in message
    assert not re.search(r"/[\w.-]+\.py\b", message), message
    assert "site-packages" not in message


def pyhive_error(cursor, sql: str) -> str:
    with pytest.raises(hive.OperationalError) as caught:
        cursor.execute(sql)
    return caught.value.args[0].status.errorMessage


def connect(server, **kwargs):
    return hive.connect(host="127.0.0.1", port=server.port, username="tester", **kwargs)


def _pattern_queries():
    picks = [q for q in QUERIES if q.stem in {"stock_v_shape", "click_sessions", "sensor_spike_flags"}]
    return picks or QUERIES[:3]


PASSWORD = "s3cret"


@pytest.fixture(scope="module")
def servers(spark, tmp_path_factory):
    """Two ``sparkcep serve`` on free loopback ports, started together: binary without
    authentication, and binary with a password file; both with the example tables. While they
    start, the in-process session computes the reference rows."""
    from test_sql_examples import register_example_tables

    passwords = tmp_path_factory.mktemp("auth") / "users.txt"
    passwords.write_text("# users\nanalyst:" + PASSWORD + "\n")
    open_server = launch_server(example_table_args(), tmp_path_factory.mktemp("serve"))
    auth_server = launch_server(
        ["--password-file", str(passwords), "-t", f"stock_ticks={EXAMPLES / 'data' / 'stock_ticks.csv'}"],
        tmp_path_factory.mktemp("serve-auth"),
    )
    try:
        rows = {query.stem: expected(query) for query in QUERIES}
        register_example_tables(spark)
        for query in _pattern_queries():
            frame = sparkcep.sql(spark, query.read_text())
            assert (frame.columns, norm_rows(frame.collect())) == rows[query.stem], query.stem
        wait_ready(open_server)
        wait_ready(auth_server)
        yield open_server, auth_server, rows
    finally:
        # stop both before judging either: a failed first server must not leave the second behind
        for srv in (open_server, auth_server):
            stop_group(srv.process)
        for srv in (open_server, auth_server):
            finish(srv)  # the exit status and the working folder, each


@pytest.fixture(scope="module")
def server(servers):
    return servers[0]


@pytest.fixture(scope="module")
def reference(servers):
    """Expected (columns, rows) per example, normalised. The examples' CSV files hold what
    ``sparkcep.sql`` returns (tests/test_sql_examples.py checks all of them); the queries the
    clients run most are also run with ``sparkcep.sql`` on the in-process session."""
    return servers[2]


def test_pyhive_runs_every_example(server, reference):
    connection = connect(server)
    cursor = connection.cursor()
    for query in QUERIES:
        cursor.execute(query.read_text())
        columns = [d[0].split(".")[-1] for d in cursor.description]
        assert (columns, norm_rows(cursor.fetchall())) == reference[query.stem], query.stem
    # a plain statement on the same connection: untouched by the extension
    cursor.execute("SELECT count(*) FROM stock_ticks WHERE symbol = 'MATCH_RECOGNIZE'")
    assert cursor.fetchall() == [(0,)]
    connection.close()


def test_beeline_runs_examples(server, reference, tmp_path):
    queries = _pattern_queries()
    script = tmp_path / "examples.sql"
    script.write_text("\n".join(q.read_text().strip() for q in queries) + "\n")
    code, out, err = beeline(server.jdbc_url, script)
    assert code == 0, err[-3000:]
    lines = result_lines(out)
    position = 0
    for query in queries:
        header, rows = reference[query.stem]
        assert lines[position].split("\t") == header, (query.stem, lines[position])
        block = lines[position + 1: position + 1 + len(rows)]
        assert norm_rows(line.split("\t") for line in block) == rows, query.stem
        position += 1 + len(rows)
    assert position == len(lines)


def test_sqlalchemy_hive_dialect(server, reference):
    engine = sqlalchemy.create_engine(f"hive://tester@127.0.0.1:{server.port}/default")
    try:
        with engine.connect() as connection:
            for query in _pattern_queries():
                result = connection.execute(sqlalchemy.text(statement(query)))
                columns = [c.split(".")[-1] for c in result.keys()]
                assert (columns, norm_rows(result.fetchall())) == reference[query.stem], query.stem
        inspector = sqlalchemy.inspect(engine)
        assert "default" in inspector.get_schema_names()
        columns = {c["name"]: str(c["type"]) for c in inspector.get_columns("stock_ticks")}
        assert set(columns) == {"symbol", "ts", "price"}
    finally:
        engine.dispose()


def test_sparkcep_dialect_browses_the_served_tables(server):
    """``hive+sparkcep://`` (sparkcep.clients.sqlalchemy_dialect), what table browsers such as
    Superset's call: the ``-t`` tables are listed by name in ``default`` and described there."""
    engine = sqlalchemy.create_engine(f"hive+sparkcep://tester@127.0.0.1:{server.port}/default")
    try:
        with engine.connect() as connection:
            connection.execute(sqlalchemy.text("CREATE OR REPLACE TEMP VIEW scratch AS SELECT 1 AS x"))
            rows = connection.execute(sqlalchemy.text("SHOW TABLES IN `default`")).fetchall()
            assert ("default", "stock_ticks", False) in rows and ("", "scratch", True) in rows, rows
            inspector = sqlalchemy.inspect(connection)
            tables = inspector.get_table_names("default")
            assert "stock_ticks" in tables and "scratch" not in tables and "default" not in tables
            assert inspector.get_view_names("default") == []
            columns = [c["name"] for c in inspector.get_columns("stock_ticks", schema="default")]
            assert columns == ["symbol", "ts", "price"]
            assert not inspector.has_table("no_such_table", schema="default")
            connection.execute(sqlalchemy.text("DROP VIEW scratch"))
    finally:
        engine.dispose()


def test_row_pattern_window_without_the_word_match_recognize(server, reference):
    """R020 (a pattern in a WINDOW clause) reaches the rewriter's session, which registers its
    function, though the statement never says MATCH_RECOGNIZE (the example's comments do)."""
    example = EXAMPLES / "stock_rally_window.sql"
    text = re.sub(r"--[^\n]*", "", example.read_text())
    assert "match_recognize" not in text.lower()
    cursor = connect(server).cursor()
    cursor.execute(text)
    columns = [d[0].split(".")[-1] for d in cursor.description]
    assert (columns, norm_rows(cursor.fetchall())) == reference[example.stem]


def test_errors_reach_every_client_with_code_and_position(server, tmp_path):
    connection = connect(server)
    cursor = connection.cursor()
    message = pyhive_error(cursor, UNDEFINED)
    assert UNDEFINED_FIRST_LINE.match(error_first_line(message)), message
    no_leaks(message)
    message = pyhive_error(cursor, UNBALANCED)
    assert UNBALANCED_FIRST_LINE.match(error_first_line(message)), message
    no_leaks(message)
    cursor.execute("SELECT 1")  # the connection stays usable
    assert cursor.fetchall() == [(1,)]
    connection.close()

    engine = sqlalchemy.create_engine(f"hive://tester@127.0.0.1:{server.port}/default")
    try:
        with engine.connect() as conn, pytest.raises(sqlalchemy.exc.DBAPIError) as caught:
            conn.execute(sqlalchemy.text(UNDEFINED))
        message = caught.value.orig.args[0].status.errorMessage
        assert UNDEFINED_FIRST_LINE.match(error_first_line(message)), message
    finally:
        engine.dispose()

    script = tmp_path / "bad.sql"
    script.write_text(UNDEFINED + ";\n")
    code, out, err = beeline(server.jdbc_url, script)
    assert code != 0
    first = next(line for line in err.splitlines() if line.startswith("Error: "))
    assert re.search(r"Error running query: \[UNDEFINED_PATTERN_VARIABLE\] .*\(line 3, column \d+\)$",
                     first), first
    assert "(state=42000" in err
    no_leaks(err)


def test_bi_metadata_calls(server, tmp_path):
    """What DBeaver/Tableau ask through JDBC DatabaseMetaData, and the raw Thrift calls."""
    from TCLIService import ttypes

    connection = connect(server)
    client, session = connection.client, connection.sessionHandle

    def fetch(response):
        assert response.status.statusCode == ttypes.TStatusCode.SUCCESS_STATUS, response.status
        cursor = connection.cursor()
        cursor._operationHandle = response.operationHandle
        cursor._state = cursor._STATE_RUNNING
        return cursor.fetchall()

    schemas = fetch(client.GetSchemas(ttypes.TGetSchemasReq(sessionHandle=session)))
    assert any(row[0] == "default" for row in schemas)
    tables = fetch(client.GetTables(ttypes.TGetTablesReq(sessionHandle=session, schemaName="%",
                                                         tableName="%")))
    assert "stock_ticks" in {row[2] for row in tables}
    columns = fetch(client.GetColumns(ttypes.TGetColumnsReq(sessionHandle=session, schemaName="%",
                                                            tableName="stock_ticks")))
    assert [row[3] for row in columns] == ["symbol", "ts", "price"]
    types = fetch(client.GetTypeInfo(ttypes.TGetTypeInfoReq(sessionHandle=session)))
    assert {"STRING", "TIMESTAMP", "DOUBLE"} <= {row[0] for row in types}
    connection.close()

    script = tmp_path / "meta.sql"
    script.write_text("!tables\n!columns stock_ticks\n!metadata getTypeInfo\n")
    code, out, err = beeline(server.jdbc_url, script)
    assert code == 0, err[-2000:]
    assert "stock_ticks" in out and "TIMESTAMP" in out


def test_concurrent_sessions(server, reference):
    """8 connections, all open before any queries, each issue ROUNDS pattern queries (and go on
    for SPARKCEP_SOAK_SECONDS when set): every result right, no errors. A count, not a time
    window, decides how much runs, so a loaded machine makes the test slower, never red."""
    queries = _pattern_queries()
    rounds = 2
    deadline = time.monotonic() + float(os.environ.get("SPARKCEP_SOAK_SECONDS", "0"))
    clients = 8
    together = threading.Barrier(clients, timeout=600)
    done, failures = [], []

    def client(number: int) -> None:
        try:
            connection = connect(server)
            together.wait()  # every session is open: the queries below overlap
            cursor = connection.cursor()
            iteration = 0
            while iteration < rounds or time.monotonic() < deadline:
                query = queries[(number + iteration) % len(queries)]
                # a distinct text each time: every statement goes through the rewriter
                cursor.execute(f"/* client {number} run {iteration} */\n" + statement(query))
                rows = norm_rows(cursor.fetchall())
                if rows != reference[query.stem][1]:
                    failures.append((number, query.stem, "wrong rows"))
                done.append(query.stem)
                iteration += 1
            connection.close()
        except Exception as error:  # noqa: BLE001 - reported below, whole: the server's own
            # message sits in the middle of a long Thrift status (e.g. a refused OpenSession)
            together.abort()
            failures.append((number, type(error).__name__, str(error)))

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, "\n\n".join(f"client {n}: {kind}: {text}" for n, kind, text in failures)
    assert len(done) >= clients * rounds
    assert {stem for stem in done} == {q.stem for q in queries}


def test_sessions_open_while_others_close(server):
    """8 clients each open, query and close a session 5 times, so sessions open while others
    close: every OpenSession succeeds (Hive removes a closing session's folders; none may be
    shared with another session)."""
    failures = []

    def client(number: int) -> None:
        for _ in range(5):
            try:
                connection = connect(server)
                cursor = connection.cursor()
                cursor.execute(f"SELECT {number}")
                assert cursor.fetchall() == [(number,)]
                connection.close()
            except Exception as error:  # noqa: BLE001 - reported below, whole
                failures.append((number, type(error).__name__, str(error)))

    threads = [threading.Thread(target=client, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert not failures, "\n\n".join(f"client {n}: {kind}: {text}" for n, kind, text in failures)


LONG_QUERY = """SELECT count(*) FROM (
  SELECT id % 4 AS k, id AS ts, (id * 7919) % 1000 AS v FROM range(1000000000))
MATCH_RECOGNIZE (PARTITION BY k ORDER BY ts MEASURES COUNT(*) AS n
                 PATTERN (A B+) DEFINE B AS v > PREV(v))"""


def test_cancel_long_query(server):
    """A query that would run for hours is cancelled while it runs; the server is free again.
    The test waits for the server's own word that the query runs (its operation state), not for
    a fixed time."""
    from TCLIService import ttypes

    states = ttypes.TOperationState
    connection = connect(server)
    cursor = connection.cursor()
    cursor.execute(LONG_QUERY, async_=True)
    guard = time.monotonic() + 600  # against a hang only: a loaded machine just takes longer
    state = cursor.poll().operationState
    while state in (states.INITIALIZED_STATE, states.PENDING_STATE):
        assert time.monotonic() < guard, "the query never started"
        time.sleep(0.1)
        state = cursor.poll().operationState
    assert state == states.RUNNING_STATE, states._VALUES_TO_NAMES.get(state, state)
    cursor.cancel()
    state = cursor.poll().operationState
    while state == states.RUNNING_STATE:
        assert time.monotonic() < guard, "cancel did not take effect"
        time.sleep(0.1)
        state = cursor.poll().operationState
    assert state == states.CANCELED_STATE, states._VALUES_TO_NAMES.get(state, state)
    # the server is free again: a quick query (under a second) answers, where the cancelled one
    # (a billion rows, hours of matching) would hold both cores had its tasks not been killed;
    # the bound only tells those two apart, with minutes of margin for a loaded machine
    other = connection.cursor()
    began = time.monotonic()
    other.execute("SELECT count(*) FROM stock_ticks")
    assert other.fetchall()[0][0] > 0
    assert time.monotonic() - began < 180
    connection.close()


def test_serve_refuses_unauthenticated_remote_binds():
    for args in (["--host", "0.0.0.0"], ["--http"]):
        result = subprocess.run([*SPARKCEP, "serve", *args], capture_output=True, text=True,
                                env=child_env(), timeout=120)
        assert result.returncode == 2
        assert result.stderr.startswith("[INSECURE_BIND] "), result.stderr


def test_password_file(servers, tmp_path):
    srv = servers[1]
    query = next(q for q in QUERIES if q.stem == "stock_v_shape")
    good = hive.connect(host="127.0.0.1", port=srv.port, username="analyst", password=PASSWORD,
                        auth="CUSTOM")
    cursor = good.cursor()
    cursor.execute(statement(query))
    assert norm_rows(cursor.fetchall()) == expected(query)[1]
    good.close()
    for user, password in (("analyst", "wrong"), ("nobody", PASSWORD)):
        with pytest.raises(Exception, match="Error validating the login"):
            hive.connect(host="127.0.0.1", port=srv.port, username=user, password=password,
                         auth="CUSTOM")
    script = tmp_path / "q.sql"
    script.write_text(query.read_text())
    code, out, err = beeline(srv.jdbc_url, script, "-p", PASSWORD, user="analyst")
    assert code == 0, err[-2000:]
    assert len(result_lines(out)) == 1 + len(expected(query)[1])
    code, out, err = beeline(srv.jdbc_url, script, "-p", "wrong", user="analyst")
    assert code != 0


def test_server_starts_quietly(server):
    # issue 12: no "Warning: Ignoring non-Spark config property: hive.*" lines at start-up
    logs = server.logs()
    assert "Ignoring non-Spark config property" not in logs, logs[-3000:]


RUNTIME_ERROR = """SELECT * FROM stock_ticks MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ts
  MEASURES COUNT(*) AS n
  PATTERN (A B)
  DEFINE B AS B.price / (LAST(A.price) - LAST(A.price)) > 0)"""


def test_executor_error_reaches_the_client(server):
    # issue 11: an error raised on an executor reaches a Thrift client with its code and position
    connection = connect(server)
    cursor = connection.cursor()
    message = pyhive_error(cursor, RUNTIME_ERROR)
    # sparkcep's error comes first (after the Thrift server's "Error running query: ")
    first = error_first_line(message)
    assert re.search(r": \[DIVIDE_BY_ZERO\] division by zero .*\(line 5, column 15\)$",
                     first), message[:3000]
    no_leaks(message)
    connection.close()


def test_explain_analyze_reaches_a_client_as_rows(server):
    """Issue 24: EXPLAIN ANALYZE through the Thrift server, as rows with stable column names; the
    counts against Spark's own over the same table, on the same connection."""
    connection = connect(server)
    cursor = connection.cursor()
    cursor.execute("SELECT count(*), count(DISTINCT symbol) FROM stock_ticks")
    (rows_in, symbols), = cursor.fetchall()
    cursor.execute("""EXPLAIN ANALYZE SELECT * FROM stock_ticks MATCH_RECOGNIZE (
        PARTITION BY symbol ORDER BY ts MEASURES COUNT(*) AS n
        PATTERN (S UP+ TOP) DEFINE UP AS UP.price > PREV(UP.price), TOP AS TOP.price < 0)""")
    columns = [d[0].split(".")[-1] for d in cursor.description]
    assert columns == ["clause", "section", "subject", "metric", "value", "detail"]
    report = {(r[1], r[2], r[3]): r[4] for r in cursor.fetchall()}
    assert report[("statement", "result", "rows")] == 0  # TOP: no price is negative
    assert report[("variable", "TOP", "never_satisfied")] == 0
    clause = next(subject for section, subject, _ in report if section == "clause")
    assert report[("clause", clause, "rows_in")] == rows_in
    assert report[("clause", clause, "partitions")] == symbols
    assert report[("clause", clause, "partitions_without_match")] == symbols
    connection.close()


def test_sigint_stops_the_server_with_status_zero(servers):
    """docs/clients.md: Ctrl-C stops `sparkcep serve` with exit status 0. The server with the
    password file is the one stopped (no other test uses it after test_password_file, which
    comes earlier in this file); the module's teardown then finds it stopped with status 0."""
    import signal

    srv = servers[1]
    assert srv.process.poll() is None, "the server stopped before the signal"
    srv.process.send_signal(signal.SIGINT)
    status = srv.process.wait(120)
    assert status == 0, srv.logs()[-3000:]
    assert "sparkcep serve: stopping" in srv.stdout.read_text()
    assert "Aborted!" not in srv.logs()


def _run_time_families() -> dict[str, tuple[str, str, int]]:
    """(statement, code, column in line 5) per family of errors raised while a query runs:
    Spark's (cast, division, overflow: a DEFINE Spark evaluates over the rows it scans) and
    sparkcep's own, raised by the matcher on an executor."""
    from test_user_errors import RUN_TIME, clause

    families = {name: (clause("ts", define, table="user_errors_scan"), code, column)
                for name, (define, code, column) in RUN_TIME.items()}
    families["executor"] = (clause("ts", "B AS B.price / (LAST(A.price) - LAST(A.price)) > 0",
                                   table="user_errors_scan"), "DIVIDE_BY_ZERO", 15)
    return families


def _check_run_time_error(message: str, sql: str, code: str, column: int) -> None:
    """The client's text: sparkcep's first line at the user's line 5, then that line and a caret
    under the column; nothing of the generated SQL or of the server."""
    lines = message.strip("\n").splitlines()
    assert re.fullmatch(rf"Error running query: \[{code}\] \S.* \(line 5, column {column}\)",
                        lines[0]), message[:2000]
    assert lines[1] == sql.splitlines()[4], message[:2000]
    assert lines[2].index("^") == column - 1, message[:2000]
    assert "== SQL" not in message and "__sparkcep" not in message, message[:2000]
    assert "PYTHON_EXCEPTION" not in message and "\tat " not in message, message[:2000]
    no_leaks(message)


def test_run_time_errors_reach_thrift_clients_in_the_users_text(server, tmp_path):
    """Issue 25: an error raised while the query runs (Spark's CAST_INVALID_INPUT, DIVIDE_BY_ZERO,
    ARITHMETIC_OVERFLOW about a DEFINE, and sparkcep's own executor error) reaches a Thrift
    client as sparkcep's code, message and position in the statement it sent: PyHive in the
    foreground (the ExecuteStatement reply) and in the background (GetOperationStatus, as JDBC
    polls), and beeline."""
    from TCLIService.ttypes import TOperationState
    from test_user_errors import SCANNED

    families = _run_time_families()
    connection = connect(server)
    cursor = connection.cursor()
    cursor.execute(SCANNED)
    for name, (sql, code, column) in families.items():
        message = pyhive_error(cursor, sql)
        _check_run_time_error(message, sql, code, column)

        cursor.execute(sql, async_=True)
        deadline = time.monotonic() + 120
        status = cursor.poll()
        while status.operationState in (TOperationState.INITIALIZED_STATE, TOperationState.PENDING_STATE,
                                        TOperationState.RUNNING_STATE):
            assert time.monotonic() < deadline, name
            time.sleep(0.2)
            status = cursor.poll()
        assert status.operationState == TOperationState.ERROR_STATE, (name, status)
        _check_run_time_error(status.errorMessage, sql, code, column)
        assert status.sqlState.startswith("22"), (name, status.sqlState)  # data exception
    # the same error in a statement without MATCH_RECOGNIZE stays Spark's
    message = pyhive_error(cursor, "SELECT price / (price - price) FROM user_errors_scan")
    assert error_first_line(message).startswith("Error running query: [DIVIDE_BY_ZERO] "), message
    assert "== SQL (line 1, position 8) ==" in message, message
    cursor.execute("SELECT 1")  # the connection stays usable
    assert cursor.fetchall() == [(1,)]
    connection.close()

    script = tmp_path / "run_time.sql"
    script.write_text(SCANNED + ";\n" + "".join(sql + ";\n" for sql, _, _ in families.values()))
    _, _, err = beeline(server.jdbc_url, script, "--force=true")
    firsts = [line for line in err.splitlines() if line.startswith("Error: ")]
    assert len(firsts) == len(families), err[-3000:]
    for first, (sql, code, column) in zip(firsts, families.values()):
        # beeline strips the two leading blanks of the script's line 5 before sending it
        assert re.fullmatch(rf"Error: Error running query: \[{code}\] \S.* \(line 5, column "
                            rf"{column - 2}\)", first), first
    no_leaks(err)
