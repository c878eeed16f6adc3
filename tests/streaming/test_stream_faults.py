"""Exactly-once under hard faults: a streaming MATCH_RECOGNIZE writing to a Parquet file sink is
killed in the middle of a micro-batch and started again from its checkpoint; the sink, read back
through the file sink's log (``spark.read.parquet``, which reads only the files of committed
micro-batches listed in ``_spark_metadata``), must hold exactly the batch answer over the same
rows: no match lost, none twice.

The matching operator waits at a gate (``fault_driver.py``) when it receives a partition whose key
starts with ``~gate``, whose only row is in one chosen input file: the micro-batch of that file
has started (its offsets are logged) and cannot commit until the gate opens, which it never does.
The tests check that state in the checkpoint, then

* kill a Python worker: SIGKILL to the worker holding the gate (the one running the stateful
  operator for that task). With ``local[2]`` Spark makes one attempt per task, so the micro-batch
  fails and the query stops with the worker's crash as its error; the query started again from
  the checkpoint re-runs the micro-batch. With ``local[2,3]`` (three attempts per task) Spark
  retries the task on a new worker within the same micro-batch and the query goes on.
* kill the driver: SIGKILL to the JVM running the query (in its own process, ``fault_driver.py``,
  its own process group), then to the whole group, as a machine would lose them; the query
  started again from the checkpoint (in the test's session: another driver) re-runs the
  micro-batch from the offsets log, with the state store at its last committed version, and the
  file sink ignores the files the killed attempt may have written (its log lists only the files
  of committed micro-batches).

The reference is the batch query over the same files (``sparkcep.sql`` on a batch DataFrame),
which shares the engines but not the stream's checkpointing, state store or sink.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import sparkcep
import sparkcep.runtime.streaming as streaming
from tests.streaming import fault_driver
from tests.streaming.test_stream_equivalence import (CASES, CLAUSE, DELAY_SECONDS, SCHEMA,
                                                     _micro_batches, _write, random_rows)

pytestmark = [pytest.mark.spark, pytest.mark.streaming,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")]

DRIVER = Path(__file__).resolve().parent / "fault_driver.py"
ROOT = Path(__file__).resolve().parents[2]
#: every wait is bounded by this (a driver's start and first micro-batches took up to 80 s on a
#: two-core machine under a load of 12)
PATIENCE_SECONDS = 150


def _dataset(tmp_path: Path, seed: str, gates: dict[int, str]):
    """Four files of random partitions (as in the equivalence test); in file ``i`` the row of the
    partition ``gates[i]`` (at the newest time so far: not late); in the last one a far-future
    sentinel row that closes every segment. The statement (also written to a file)."""
    rng = random.Random(seed)
    files = _micro_batches(random_rows(rng, partitions=10), 4, rng.randint(0, 10**6))
    for i, key in gates.items():
        newest = max(r["t"] for f in files[: i + 1] for r in f)
        files[i].append({"user_id": key, "t": newest, "v": 0, "page": "home"})
    files[-1].append({"user_id": "~sentinel", "t": 10_000_000, "v": 0, "page": "home"})
    source = tmp_path / "in"
    source.mkdir()
    _write(str(source), files)
    statement = "SELECT * FROM events" + CLAUSE.format(**CASES["any_match"])
    (tmp_path / "statement.sql").write_text(statement)
    (tmp_path / "gate").mkdir()
    for key in gates.values():
        (tmp_path / "gate" / f"armed-{key}").touch()
    return statement


def _ours(rows):
    return sorted((tuple(r) for r in rows if not r["user_id"].startswith("~")), key=repr)


def _batch_answer(spark, tmp_path: Path, statement: str):
    frame = (spark.read.schema(fault_driver.SCHEMA).json(str(tmp_path / "in"))
             .selectExpr("user_id", "timestamp_seconds(t) AS ts", "v", "page"))
    frame.createOrReplaceTempView("events")
    return _ours(sparkcep.sql(spark, statement).collect())


class Driver:
    """One run of ``fault_driver.py`` in its own process group (killed whole in ``stop``)."""

    def __init__(self, tmp_path: Path, master: str, run: int) -> None:
        self.log = tmp_path / f"driver-{run}.log"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [sys.executable, str(DRIVER), str(tmp_path / "in"), str(tmp_path / "out"),
                 str(tmp_path / "checkpoint"), str(tmp_path / "gate"),
                 str(tmp_path / "statement.sql"), master],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def wait_until(self, condition, what: str) -> None:
        deadline = time.monotonic() + PATIENCE_SECONDS
        while not condition():
            if self.process.poll() is not None:
                raise AssertionError(f"the driver exited ({self.process.returncode}) before "
                                     f"{what}:\n{self.tail()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"no {what} within {PATIENCE_SECONDS} s:\n{self.tail()}")
            time.sleep(0.1)

    def jvm(self) -> int:
        """The process id of the driver's JVM (a descendant running ``java``)."""
        found = [pid for pid in _descendants(self.process.pid) if _name(pid) == "java"]
        assert len(found) == 1, found
        return found[0]

    def tail(self) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-15:])

    def stop(self) -> None:
        """SIGKILL the driver's process group and wait until none of it is alive (the JVM and
        the Python workers are not our children: they take a moment to go after the signal)."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(30)
        deadline = time.monotonic() + 30
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.2)

    def alive(self) -> list[int]:
        """The live processes of the driver's process group."""
        return [pid for pid, (_, group) in _processes().items() if group == self.process.pid]


def _processes() -> dict[int, tuple[int, int]]:
    """Every live process (zombies left out): its parent and its process group."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if fields[0] != "Z":
                found[int(entry.name)] = (int(fields[1]), int(fields[2]))
    return found


def _descendants(root: int) -> list[int]:
    parents = {pid: parent for pid, (parent, _) in _processes().items()}
    found, frontier = [], [root]
    while frontier:
        children = [pid for pid, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def _name(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "comm").read_text().strip()
    except OSError:
        return ""


def _batch_ids(folder: Path) -> set[int]:
    return {int(p.name) for p in folder.iterdir() if p.name.isdigit()} if folder.exists() else set()


def _wait_for_gate(tmp_path: Path, key: str, wait_until) -> tuple[int, int]:
    """Wait until a worker holds the gate ``key``; the micro-batch in flight (checked: started,
    neither committed nor in the sink's log) and the worker's process id."""
    held = tmp_path / "gate" / f"held-{key}"
    wait_until(held.exists, f"the gate {key} holding")
    checkpoint = tmp_path / "checkpoint"
    in_flight = max(_batch_ids(checkpoint / "offsets"))
    committed = max(_batch_ids(checkpoint / "commits"), default=-1)
    assert committed == in_flight - 1 >= 0, (committed, in_flight)
    assert in_flight not in _batch_ids(tmp_path / "out" / "_spark_metadata")
    return in_flight, int(held.read_text())


def _start(spark, tmp_path: Path, statement: str):
    """The query of ``fault_driver.py``, in the test's own session."""
    stream = (spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1)
              .json(str(tmp_path / "in"))
              .selectExpr("user_id", "timestamp_seconds(t) AS ts", "v", "page")
              .withWatermark("ts", f"{DELAY_SECONDS} seconds"))
    stream.createOrReplaceTempView("events")
    return (sparkcep.sql(spark, statement).writeStream.format("parquet")
            .option("path", str(tmp_path / "out")).outputMode("append")
            .option("checkpointLocation", str(tmp_path / "checkpoint"))
            .trigger(availableNow=True).start())


@pytest.fixture()
def gated_session(spark, tmp_path, monkeypatch):
    """The test's session with two shuffle partitions and the gate in the matching operator."""
    from pyspark import cloudpickle

    assert (fault_driver.SCHEMA, fault_driver.DELAY_SECONDS) == (SCHEMA, DELAY_SECONDS)
    monkeypatch.setattr(streaming, "_processor",
                        fault_driver.gated(streaming._processor, str(tmp_path / "gate")))
    cloudpickle.register_pickle_by_value(fault_driver)  # the workers cannot import tests/
    before = spark.conf.get("spark.sql.shuffle.partitions")
    spark.conf.set("spark.sql.shuffle.partitions", "2")
    yield spark
    spark.conf.set("spark.sql.shuffle.partitions", before)
    cloudpickle.unregister_pickle_by_value(fault_driver)


def test_python_worker_killed_mid_batch_fails_the_query_and_restart_is_exact(gated_session,
                                                                            tmp_path):
    spark = gated_session
    statement = _dataset(tmp_path, "sparkcep-fault-worker", {1: "~gate-worker"})
    query = _start(spark, tmp_path, statement)
    try:
        def wait_until(condition, what):
            deadline = time.monotonic() + PATIENCE_SECONDS
            while not condition():
                assert query.isActive, f"the query ended before {what}: {query.exception()}"
                assert time.monotonic() < deadline, f"no {what} within {PATIENCE_SECONDS} s"
                time.sleep(0.1)

        in_flight, worker = _wait_for_gate(tmp_path, "~gate-worker", wait_until)
        assert worker in _descendants(os.getpid())  # a Python worker of this session's JVM
        os.kill(worker, signal.SIGKILL)
        with pytest.raises(Exception) as failed:  # local[2]: one attempt per task
            query.awaitTermination(PATIENCE_SECONDS)
        assert "Python worker exited unexpectedly" in str(failed.value)
    finally:
        query.stop()
    assert in_flight not in _batch_ids(tmp_path / "checkpoint" / "commits")
    before = _ours(spark.read.parquet(str(tmp_path / "out")).collect())
    query = _start(spark, tmp_path, statement)
    try:
        query.awaitTermination(PATIENCE_SECONDS)
        assert not query.isActive and query.exception() is None
    finally:
        query.stop()
    assert in_flight in _batch_ids(tmp_path / "checkpoint" / "commits")
    got = _ours(spark.read.parquet(str(tmp_path / "out")).collect())
    want = _batch_answer(spark, tmp_path, statement)
    assert len(before) < len(want)  # the restart had matches left to find
    assert got == want


def test_worker_retried_then_driver_killed_mid_batch_restart_is_exact(gated_session, tmp_path):
    spark = gated_session
    statement = _dataset(tmp_path, "sparkcep-fault-driver", {1: "~gate-worker", 2: "~gate-driver"})
    first = Driver(tmp_path, "local[2,3]", 1)  # three attempts per task
    try:
        retried, worker = _wait_for_gate(tmp_path, "~gate-worker", first.wait_until)
        assert worker in _descendants(first.process.pid)
        os.kill(worker, signal.SIGKILL)
        # the task is retried on a new worker, the micro-batch commits, the query goes on
        in_flight, _ = _wait_for_gate(tmp_path, "~gate-driver", first.wait_until)
        assert retried in _batch_ids(tmp_path / "checkpoint" / "commits")
        os.kill(first.jvm(), signal.SIGKILL)  # the driver, with the query in its micro-batch
    finally:
        first.stop()  # and everything it started
    assert first.alive() == []
    # the driver's session is one for streams, whose offset and commit logs have no checksum
    # files (``session.STREAM_HADOOP_SETTINGS``); this test's session, which resumes them, writes
    # them
    for log in ("offsets", "commits"):
        assert _batch_ids(tmp_path / "checkpoint" / log)
        assert not list((tmp_path / "checkpoint" / log).glob(".*.crc")), log
    before = _ours(spark.read.parquet(str(tmp_path / "out")).collect())
    # the same query started again from the checkpoint (in this test's session: a new driver)
    query = _start(spark, tmp_path, statement)
    try:
        query.awaitTermination(PATIENCE_SECONDS)
        assert not query.isActive and query.exception() is None
    finally:
        query.stop()
    assert in_flight in _batch_ids(tmp_path / "checkpoint" / "commits")  # the re-run committed it
    got = _ours(spark.read.parquet(str(tmp_path / "out")).collect())
    want = _batch_answer(spark, tmp_path, statement)
    assert len(before) < len(want)  # the restart had matches left to find
    assert got == want
