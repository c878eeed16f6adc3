"""A Python worker module for ``fault_script.py`` (``spark.python.worker.module``; the daemon only
accepts module names that start with "pyspark"): pyspark's own worker, plus a handshake that
makes the fault deterministic.

While the folder named by SPARKCEP_FAULT_MARKERS holds a file ``armed``, the first task to start
claims the fault (creates ``claimed`` exclusively), writes its worker's pid to ``victim`` and
waits there, in the middle of its task, until it is killed. Every other task runs as usual. So
the killer needs neither a CPU heuristic nor a sleep: it waits for ``victim`` and kills that pid,
and the kill always lands while a task of the query is running."""

from __future__ import annotations

import os
import time

from pyspark.worker import main as _pyspark_main


def _claim(infile) -> None:
    folder = os.environ.get("SPARKCEP_FAULT_MARKERS")
    if not folder:
        return
    # a reused worker enters main() as soon as its previous task ends; its next task begins
    # when Spark sends it: wait for the first bytes (peek: nothing is consumed)
    data = infile.peek(1)
    if not data or not os.path.exists(os.path.join(folder, "armed")):
        return
    try:
        os.close(os.open(os.path.join(folder, "claimed"), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return  # another task is the victim
    victim = os.path.join(folder, "victim")
    with open(victim + ".tmp", "w") as out:
        out.write(str(os.getpid()))
    os.rename(victim + ".tmp", victim)
    deadline = time.monotonic() + 600  # never hang a broken run forever
    while time.monotonic() < deadline:
        time.sleep(0.05)  # waiting for SIGKILL


def main(infile, outfile):
    _claim(infile)
    return _pyspark_main(infile, outfile)
