"""A one-line Spark stage progress bar for ``sparkcep run`` (on a terminal only).

A daemon thread polls ``SparkContext.statusTracker()`` and redraws one line on stderr:
``[=====>      ] stage 3: 12/40 tasks  7.2s``. It draws nothing when stderr is not a TTY, and
nothing for jobs that finish within ``delay`` seconds, so scripts and short queries see no noise.
"""

from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager

import click


def _line(stages, elapsed: float, width: int = 30) -> str:
    total = sum(s.numTasks for s in stages) or 1
    done = sum(s.numCompletedTasks for s in stages)
    running = sum(s.numActiveTasks for s in stages)
    filled = int(width * done / total)
    bar = "=" * filled + (">" if filled < width else "") + " " * max(0, width - filled - 1)
    names = ",".join(str(s.stageId) for s in stages)
    return f"[{bar}] stage {names}: {done}/{total} tasks ({running} running)  {elapsed:.1f}s"


@contextmanager
def progress(spark, delay: float = 1.0, interval: float = 0.25, stream=None):
    stream = stream or sys.stderr
    if not getattr(stream, "isatty", lambda: False)():
        yield
        return
    stop = threading.Event()
    started = time.monotonic()
    drawn = [False]

    def run() -> None:
        tracker = spark.sparkContext.statusTracker()
        while not stop.wait(interval):
            elapsed = time.monotonic() - started
            if elapsed < delay:
                continue
            try:
                stages = [tracker.getStageInfo(i) for i in tracker.getActiveStageIds()]
            except Exception:  # the context is stopping
                return
            stages = [s for s in stages if s is not None]
            if not stages:
                continue
            click.echo("\r" + click.style(_line(stages, elapsed), fg="cyan") + "\x1b[K",
                       file=stream, nl=False)
            drawn[0] = True

    lock = threading.Lock()

    def finish() -> None:
        with lock:
            if stop.is_set():
                return
            stop.set()
        thread.join(2)
        if drawn[0]:
            click.echo("\r\x1b[K", file=stream, nl=False)

    class ClearFirst:
        """stdout that removes the bar before the first result line is written."""

        def __init__(self, inner) -> None:
            self._inner = inner

        def write(self, text):
            finish()
            return self._inner.write(text)

        def __getattr__(self, name):
            return getattr(self._inner, name)

    thread = threading.Thread(target=run, name="sparkcep-progress", daemon=True)
    thread.start()
    stdout = sys.stdout
    sys.stdout = ClearFirst(stdout)
    try:
        yield
    finally:
        sys.stdout = stdout
        finish()
