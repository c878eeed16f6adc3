"""A real Spark cluster: a standalone master and two workers on loopback (``bin/spark-class``
from the pyspark wheel). The sql_examples run against ``spark://127.0.0.1:PORT`` through plain
``spark.sql`` (with the parser extension) and through ``sparkcep serve --master``; both must
return the local-mode rows (the examples' expected CSV files, which tests/test_sql_examples.py
checks against local mode)."""

from __future__ import annotations

import hashlib
import subprocess
import time
from pathlib import Path

import pyspark
import pytest

from clients_support import QUERIES, expected, norm_rows
from clients_support import child_env, free_port, start_server, stop_group
from test_extension_sql import run_script

pytestmark = [pytest.mark.spark, pytest.mark.cluster]

SPARK_CLASS = Path(pyspark.__file__).resolve().parent / "bin" / "spark-class"
EXECUTOR_CONF = {"spark.driver.host": "127.0.0.1", "spark.executor.memory": "1g"}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    work = tmp_path_factory.mktemp("cluster")
    env = child_env()
    env["SPARK_HOME"] = str(SPARK_CLASS.parent.parent)
    env["SPARK_WORKER_DIR"] = str(work / "worker")
    env["SPARK_LOG_DIR"] = str(work / "logs")
    env.pop("PYSPARK_SUBMIT_ARGS", None)
    port = free_port()
    url = f"spark://127.0.0.1:{port}"
    processes = []

    def launch(name: str, *args: str) -> None:
        log = open(work / f"{name}.log", "w")
        processes.append(subprocess.Popen([str(SPARK_CLASS), *args], env=env, cwd=work,
                                          stdout=log, stderr=subprocess.STDOUT,
                                          start_new_session=True))

    try:
        launch("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
               "--port", str(port), "--webui-port", str(free_port()))
        for number in (1, 2):
            launch(f"worker{number}", "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                   "--cores", "1", "--memory", "2g", "--webui-port", str(free_port()), url)
        deadline = time.monotonic() + 180
        while (work / "master.log").read_text().count("Registering worker") < 2:
            assert all(p.poll() is None for p in processes), (work / "master.log").read_text()[-3000:]
            assert time.monotonic() < deadline, (work / "master.log").read_text()[-3000:]
            time.sleep(0.5)
        yield url
    finally:
        for process in reversed(processes):
            stop_group(process, grace=15)


def test_examples_through_spark_sql_on_cluster(cluster, tmp_path):
    conf = [arg for k, v in EXECUTOR_CONF.items() for arg in ("--conf", f"{k}={v}")]
    result = run_script(cluster, tmp_path / "out.json", *conf)
    assert result["parser"] == "sparkcep.jvm.MatchRecognizeParser"
    assert set(result["examples"]) == {q.stem for q in QUERIES}
    for query in QUERIES:
        columns, rows = result["examples"][query.stem]
        assert (columns, [tuple(r) for r in rows]) == expected(query), query.stem


def test_examples_through_serve_on_cluster(cluster, tmp_path):
    hive = pytest.importorskip("pyhive.hive")
    from clients_support import example_table_args

    # HTTP transport with a password file here (the binary transport is covered by
    # test_thrift_clients.py), so each transport is exercised once without an extra server.
    passwords = tmp_path / "users.txt"
    passwords.write_text("analyst:sha256:" + hashlib.sha256(b"s3cret").hexdigest() + "\n")
    conf = [arg for k, v in EXECUTOR_CONF.items() for arg in ("--conf", f"{k}={v}")]
    srv = start_server(["--master", cluster, "--http", "--password-file", str(passwords), *conf,
                        *example_table_args()], tmp_path / "serve")
    try:
        assert f"on {cluster}" in srv.stdout.read_text()
        assert srv.jdbc_url.endswith(";transportMode=http;httpPath=cliservice")
        with pytest.raises(Exception):
            hive.connect(host="127.0.0.1", port=srv.port, scheme="http", username="analyst",
                         password="wrong", auth="BASIC").cursor().execute("SELECT 1")
        connection = hive.connect(host="127.0.0.1", port=srv.port, scheme="http",
                                  username="analyst", password="s3cret", auth="BASIC")
        cursor = connection.cursor()
        for query in QUERIES:
            cursor.execute(query.read_text())
            columns = [d[0].split(".")[-1] for d in cursor.description]
            assert (columns, norm_rows(cursor.fetchall())) == expected(query), query.stem
        connection.close()
    finally:
        assert stop_group(srv.process) == 0
