"""The driver JVM's standard error, read by sparkcep: what Spark's Python workers print for Spark's
own developers goes to the logger ``sparkcep.spark.workers`` (level DEBUG), every other line to
this process's standard error, as before.

Spark copies each Python worker's standard output and error, byte for byte, onto the JVM's
``System.err`` (the redirect threads of ``PythonWorkerFactory``), outside log4j, so no logging
setting reaches them. Two kinds of such lines are not for a user:

* PySpark 4.3's driver worker of its Python stateful operators (``transformWithState``, which
  sparkcep uses, and ``transformWithStateInPandas``; started once per stateful operator when a
  streaming query starts) ``print``s each step: ``Starting Streaming
  TransformWithStateInPandas Python worker.``, the UDF object and schemas it received, the state
  server's port, ``Starting``/``Completed execution of UDF``, each followed by an empty line;
* a Python worker started with ``spark.executor.pyspark.memory`` prints ``Current mem limits: ...``
  and ``Setting mem limits to ...``;

and the JVM itself notes ``WARNING: Using incubator modules: jdk.incubator.vector`` at start.

A session sparkcep starts (``clients.session``) launches the JVM with its standard error on a
pipe; :class:`JvmOutput` reads it line by line in a daemon thread and sends those lines to the
logger (``logging.getLogger("sparkcep.spark.workers").setLevel(logging.DEBUG)`` with a handler
shows them again), everything else — Spark's log lines, a worker's crash report — unchanged to
standard error.
"""

from __future__ import annotations

import logging
import os
import re
import threading

log = logging.getLogger("sparkcep.spark.workers")

#: the lines Spark's Python workers and the JVM print that are not for the user (see above)
CHATTER = re.compile(
    r"^(?:Starting )?Streaming TransformWithStateInPandas Python worker\b"
    r"|^Current mem limits: -?\d+ of max -?\d+$"
    r"|^Setting mem limits to \d+ of max \d+$"
    r"|^WARNING: Using incubator modules: ")


class JvmOutput:
    """Sorts the lines the JVM writes to a pipe: chatter to ``log`` at DEBUG, the rest to the file
    descriptor ``target`` (a copy of this process's standard error made at start)."""

    def __init__(self, read_fd: int, target: int) -> None:
        self.read_fd = read_fd
        self.target = target
        self.thread = threading.Thread(target=self._pump, name="sparkcep-jvm-stderr", daemon=True)

    def start(self) -> "JvmOutput":
        self.thread.start()
        return self

    def _pump(self) -> None:
        after_chatter = False
        with os.fdopen(self.read_fd, "rb", buffering=0) as pipe:
            for raw in iter(pipe.readline, b""):
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                if is_chatter(line, after_chatter):
                    after_chatter = bool(line.strip())  # its print's empty line follows
                    if after_chatter:
                        log.debug("%s", line)
                    continue
                after_chatter = False
                _write_all(self.target, raw)
        os.close(self.target)


def is_chatter(line: str, after_chatter: bool) -> bool:
    """Whether ``line`` is worker chatter: one of :data:`CHATTER`, or the empty line a chatter
    line's ``print`` adds after it (``after_chatter``: the line before was chatter)."""
    if not line.strip():
        return after_chatter
    return CHATTER.match(line) is not None


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except OSError:  # standard error closed: nothing left to show it on
            return
        view = view[written:]


def launch_gateway_with_sorted_output(conf):
    """PySpark's ``launch_gateway`` with the JVM's standard error on a pipe read by a
    :class:`JvmOutput` (the JVM, and the Python workers it starts, write to that pipe)."""
    from pyspark.java_gateway import launch_gateway

    read_fd, write_fd = os.pipe()
    target = os.dup(2)
    try:
        gateway = launch_gateway(conf, popen_kwargs={"stderr": write_fd})
    except BaseException:
        os.close(read_fd)
        os.close(target)
        raise
    finally:
        os.close(write_fd)
    JvmOutput(read_fd, target).start()
    return gateway


__all__ = ["CHATTER", "JvmOutput", "is_chatter", "launch_gateway_with_sorted_output"]
