"""Faults (issue 11): a Python worker killed in the middle of a query. Spark retries the lost
task (a local master with task retries, in its own process: ``fault_script.py``); the answer must
be the undisturbed one, row for row. The victim is picked by a handshake (the task's worker
announces itself and waits to be killed), not by timing, so the test holds on a loaded machine."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from clients_support import child_env

HERE = Path(__file__).resolve().parent


@pytest.mark.spark
def test_killed_python_worker_gives_identical_rows(tmp_path):
    result = subprocess.run(
        [sys.executable, str(HERE / "fault_script.py")], capture_output=True, text=True,
        env=child_env(), timeout=600, cwd=tmp_path, start_new_session=True,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    outcome = json.loads(result.stdout.strip().splitlines()[-1])
    assert outcome["killed"], outcome             # a worker was killed inside a running task
    assert outcome["failed_tasks"] >= 1, outcome  # and Spark saw its task fail and retried it
    assert outcome["rows"] > 0 and outcome["equal"], outcome
