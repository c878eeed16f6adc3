"""Fixtures for the client tests: ``sparkcep serve`` (and a standalone cluster) as subprocesses.

Every process is started in its own process group and stopped in a finalizer (SIGTERM, then
SIGKILL of the whole group), so no server outlives the test run.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "sql_examples"
SPARKCEP = [sys.executable, "-m", "sparkcep"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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


def wait_ready(server: Server, timeout: float = 300.0) -> Server:
    """Wait until the server logged its JDBC URL; stop it and fail when it does not."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if "JDBC URL: " in server.stdout.read_text():
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
    return [arg for csv in sorted((EXAMPLES / "data").glob("*.csv")) for arg in ("-t", f"{csv.stem}={csv}")]


def finish(srv: Server) -> None:
    status = stop_group(srv.process)
    assert status == 0, f"sparkcep serve exited with {status}:\n{srv.logs()[-3000:]}"
    # nothing left behind in the working directory
    assert not {"derby.log", "metastore_db", "spark-warehouse"} & {p.name for p in srv.log_dir.iterdir()}
