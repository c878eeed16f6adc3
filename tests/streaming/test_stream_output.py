"""What a user sees on standard error while a stream runs: sparkcep's status lines and Spark's
log lines, not the lines Spark's Python workers print for Spark's developers
(``clients.jvm_output``: those go to the logger ``sparkcep.spark.workers`` at DEBUG)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import pytest

from sparkcep.clients.jvm_output import JvmOutput, is_chatter

# written by PySpark 4.3's transform_with_state_driver_worker and worker_util (their print calls
# end in "\n" and print adds one: an empty line follows each), and by the JVM at start
CHATTER = [
    "WARNING: Using incubator modules: jdk.incubator.vector",
    "Starting Streaming TransformWithStateInPandas Python worker.", "",
    "Streaming TransformWithStateInPandas Python worker finish init stage of Python runner. "
    "Received UDF from JVM: <bound method X of <Y object at 0x7f>>, received return type of UDF: "
    "StructType([StructField('k', StringType(), True)]).", "",
    "Streaming TransformWithStateInPandas Python worker received parameters for UDF. State server "
    "port/path: 43331, key schema: StructType([StructField('k', StringType(), True)]).", "",
    "Current mem limits: -1 of max -1", "",
    "Setting mem limits to 1073741824 of max 1073741824", "",
]
KEPT = [
    "26/11/24 20:25:08 ERROR Utils: Aborting task",
    "",  # an empty line that follows no chatter line is kept
    "Traceback (most recent call last):",
    "Streaming is fun",  # not the worker's sentence
]


def test_chatter_goes_to_the_log_and_everything_else_to_stderr(caplog):
    read_fd, write_fd = os.pipe()
    out_read, out_write = os.pipe()
    with caplog.at_level(logging.DEBUG, logger="sparkcep.spark.workers"):
        pump = JvmOutput(read_fd, out_write).start()
        lines = [CHATTER[0], KEPT[0], *CHATTER[1:7], KEPT[1], KEPT[2], *CHATTER[7:], KEPT[3]]
        os.write(write_fd, ("\n".join(lines) + "\n").encode())
        os.close(write_fd)
        pump.thread.join(10)
    with os.fdopen(out_read, "rb") as shown:
        assert shown.read().decode().splitlines() == KEPT
    assert [r.getMessage() for r in caplog.records] == [line for line in CHATTER if line]


def test_is_chatter():
    assert is_chatter("", after_chatter=True) and not is_chatter("", after_chatter=False)
    assert not is_chatter("Current mem limits: lots", after_chatter=False)


@pytest.mark.spark
@pytest.mark.streaming
def test_sparkcep_stream_stderr_and_late_rows_routed_to_a_folder(tmp_path):
    """One ``sparkcep stream`` process (one JVM start) checks both: its standard error holds
    sparkcep's status lines only, and ``--late-rows`` routes the late row to a folder."""
    # a process of its own: the JVM it starts writes to the pipe clients.jvm_output reads
    source = tmp_path / "ev"
    source.mkdir()
    (source / "ev.schema").write_text("k STRING, ts TIMESTAMP, v INT")
    files = {"a.csv": "x,2026-01-01 00:00:00,1\nx,2026-01-01 00:00:01,2\n",
             "b.csv": "x,2026-01-01 00:01:00,3\n",
             "c.csv": "x,2026-01-01 00:00:30,9\nx,2026-01-01 00:01:01,4\n"}  # 00:00:30 is late
    for i, (name, rows) in enumerate(files.items()):
        (source / name).write_text("k,ts,v\n" + rows)
        os.utime(source / name, (1_000_000 + i, 1_000_000 + i))
    statement = """SELECT * FROM STREAM(ev) WATERMARK ts DELAY OF INTERVAL 5 SECONDS
        MATCH_RECOGNIZE (PARTITION BY k ORDER BY ts MEASURES LAST(B.v) AS b
        PATTERN (A B) WITHIN INTERVAL '10' SECOND DEFINE B AS B.v > A.v)"""
    done = subprocess.run(
        [sys.executable, "-m", "sparkcep", "stream", "-e", statement, "-s", f"ev={source}",
         "-f", "csv", "--until-idle", "--checkpoint", str(tmp_path / "checkpoint"),
         "--late-rows", str(tmp_path / "late")],
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["k, b", "x, 2"]  # (3 then 4 waits for the watermark)
    shown = done.stderr.splitlines()
    assert shown and all(line.startswith("sparkcep: ") for line in shown), done.stderr
    assert shown[-2].endswith("1 late rows routed"), done.stderr
    import pyarrow.parquet as pq

    late = pq.read_table(str(tmp_path / "late")).to_pylist()
    assert [(row["k"], row["v"], int(row["micro_batch"])) for row in late] == [("x", 9, 2)]
