"""Helpers shared by the client tests: expected rows, normalisation, clients, and
``sparkcep serve`` as a subprocess.

Every process is started in its own process group and stopped by the tests' fixtures (SIGTERM,
then SIGKILL of the whole group), so no server outlives the test run."""

from __future__ import annotations

import csv
import datetime as dt
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pyspark

EXAMPLES = Path(__file__).resolve().parents[2] / "sql_examples"
QUERIES = sorted(q for q in EXAMPLES.glob("*.sql") if q.with_suffix(".expected.csv").exists())
BEELINE = Path(pyspark.__file__).resolve().parent / "bin" / "beeline"
_TIMESTAMP = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(\.0+)?$")


def statement(query: Path) -> str:
    """A query file's text without its trailing semicolon (one statement for DB-API clients)."""
    return query.read_text().strip().rstrip(";").strip()


def norm(value) -> str:
    """One rendering for values from Spark, beeline, PyHive and SQLAlchemy."""
    if value is None or value == "NULL":
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dt.datetime, dt.date)):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, float):
        return repr(round(value, 6))
    text = str(value)
    stamp = _TIMESTAMP.match(text)
    if stamp:
        return stamp.group(1)
    if re.fullmatch(r"-?\d+\.\d*([eE][-+]?\d+)?|-?\d+[eE][-+]?\d+", text):
        return repr(round(float(text), 6))
    return text


def norm_rows(rows) -> list[tuple[str, ...]]:
    return sorted(tuple(norm(v) for v in row) for row in rows)


def expected(query: Path) -> tuple[list[str], list[tuple[str, ...]]]:
    with open(query.with_suffix(".expected.csv"), newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        return header, norm_rows(reader)


def beeline(url: str, script: Path, *extra: str, user: str = "tester", timeout: float = 240):
    """Run beeline (from the pyspark wheel) on a script file; (returncode, stdout, stderr)."""
    env = dict(os.environ)
    env["SPARK_HOME"] = str(BEELINE.parent.parent)
    env.pop("PYSPARK_SUBMIT_ARGS", None)
    result = subprocess.run(
        [str(BEELINE), "-u", url, "-n", user, "--outputformat=tsv2", "--showWarnings=false", *extra,
         "-f", str(script)],
        capture_output=True, text=True, timeout=timeout, env=env, stdin=subprocess.DEVNULL,
    )
    return result.returncode, result.stdout, result.stderr


def error_first_line(message: str) -> str:
    """The first line of an HS2 error message (as BI tools show it)."""
    return message.strip().splitlines()[0]


_PROMPT = re.compile(r"^(?:\d+: jdbc:hive2://[^>]*> ?|(?:\. )+\.?> ?)+")


def result_lines(out: str) -> list[str]:
    """beeline's tsv2 output lines (header and rows), without its echoed prompts."""
    lines = (_PROMPT.sub("", line) for line in out.splitlines())
    return [line for line in lines if line.strip()]


REPO = Path(__file__).resolve().parents[2]
SPARKCEP = [sys.executable, "-m", "sparkcep"]


_HANDED_OUT: set[int] = set()


def _ephemeral_low() -> int:
    """The lowest port the kernel hands out for port 0 (Linux: ip_local_port_range)."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as ranges:
            return int(ranges.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port() -> int:
    """A free loopback port below the kernel's ephemeral range. A server started on it binds it
    seconds later (a JVM starting); a port from the ephemeral range could meanwhile be handed to
    any socket of this machine opened with port 0 (the Spark drivers' own ports are), which once
    made a Thrift server fail with "Could not create ServerSocket"."""
    import random

    high = min(_ephemeral_low(), 65536)
    for _ in range(1000):
        port = random.randrange(20000, high)
        if port in _HANDED_OUT:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        _HANDED_OUT.add(port)
        return port
    raise RuntimeError("no free loopback port below the ephemeral range")


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("PYSPARK_PYTHON", sys.executable)
    env.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    env["SPARK_LOCAL_IP"] = "127.0.0.1"
    return env


def stop_group(process: subprocess.Popen, grace: float = 30.0) -> int | None:
    """SIGTERM the process, wait, then SIGKILL its whole process group."""
    if process.poll() is None:
        try:
            process.send_signal(signal.SIGTERM)
            process.wait(grace)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:  # pragma: no cover
        pass
    return process.returncode


class Server:
    """A running ``sparkcep serve``."""

    def __init__(self, process: subprocess.Popen, port: int, log_dir: Path, stdout: Path) -> None:
        self.process = process
        self.port = port
        self.log_dir = log_dir
        self.stdout = stdout

    @property
    def jdbc_url(self) -> str:
        for line in self.stdout.read_text().splitlines():
            if line.startswith("JDBC URL: "):
                return line[len("JDBC URL: "):]
        raise AssertionError("no JDBC URL logged")

    def logs(self) -> str:
        return self.stdout.read_text() + (self.log_dir / "stderr.log").read_text()


def launch_server(args: list[str], log_dir: Path) -> Server:
    """Start ``sparkcep serve`` on a free loopback port without waiting for it."""
    port = free_port()
    log_dir.mkdir(parents=True, exist_ok=True)
    stdout = log_dir / "stdout.log"
    process = subprocess.Popen(
        [*SPARKCEP, "serve", "--port", str(port), *args],
        cwd=log_dir, env=child_env(), start_new_session=True,
        stdout=open(stdout, "w"), stderr=open(log_dir / "stderr.log", "w"),
    )
    return Server(process, port, log_dir, stdout)


def wait_ready(server: Server, timeout: float = 300.0, marker: str = "JDBC URL: ") -> Server:
    """Wait until the server logged its URL (``marker``: "Connect URL: " for Spark Connect); stop
    it and fail when it does not."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if marker in server.stdout.read_text():
            return server
        if server.process.poll() is not None:
            break
        time.sleep(0.5)
    logs = server.logs()[-4000:]
    stop_group(server.process)
    raise AssertionError(f"sparkcep serve did not start:\n{logs}")


def start_server(args: list[str], log_dir: Path, timeout: float = 300.0) -> Server:
    return wait_ready(launch_server(args, log_dir), timeout)


def example_table_args() -> list[str]:
    return [arg for data in sorted((EXAMPLES / "data").glob("*.csv")) for arg in ("-t", f"{data.stem}={data}")]


def finish(srv: Server) -> None:
    status = stop_group(srv.process)
    assert status == 0, f"sparkcep serve exited with {status}:\n{srv.logs()[-3000:]}"
    # nothing left behind in the working directory
    assert not {"derby.log", "metastore_db", "spark-warehouse"} & {p.name for p in srv.log_dir.iterdir()}
