"""Spark stage progress for ``sparkcep run`` on stderr.

A daemon thread polls ``SparkContext.statusTracker()``. On a terminal it redraws one line:
``[=====>      ] stage 3: 12/40 tasks  7.2s`` (nothing for jobs that finish within ``delay``
seconds). In a pipe or a log it prints one line per finished stage instead,
``sparkcep: stage 3 done: 40 tasks, 7.2s``, so a long run shows it is alive. ``quiet`` prints
nothing.
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


def _stage_lines(spark, stream, interval: float, started: float):
    """Start a thread printing a line per finished stage; returns the function that stops it."""
    stop = threading.Event()
    seen: dict[int, object] = {}
    printed: set[int] = set()

    def report(ids_running: set[int]) -> None:
        for stage_id in sorted(seen):
            if stage_id in ids_running or stage_id in printed:
                continue
            info = seen[stage_id]
            printed.add(stage_id)
            click.echo(f"sparkcep: stage {stage_id} done: {info.numTasks} tasks, "
                       f"{time.monotonic() - started:.1f}s", file=stream)

    def run() -> None:
        tracker = spark.sparkContext.statusTracker()
        while True:
            stopping = stop.wait(interval)
            try:
                ids = list(tracker.getActiveStageIds())
                for stage_id in ids:
                    info = tracker.getStageInfo(stage_id)
                    if info is not None:
                        seen[stage_id] = info
            except Exception:  # the context is stopping
                return
            report(set() if stopping else set(ids))
            if stopping:
                return

    thread = threading.Thread(target=run, name="sparkcep-progress-lines", daemon=True)
    thread.start()

    def finish() -> None:
        stop.set()
        thread.join(5)

    return finish


@contextmanager
def progress(spark, delay: float = 1.0, interval: float = 0.25, stream=None, quiet: bool = False):
    stream = stream or sys.stderr
    if quiet or spark is None:
        yield
        return
    if not getattr(stream, "isatty", lambda: False)():
        finish_lines = _stage_lines(spark, stream, interval, time.monotonic())
        try:
            yield
        finally:
            finish_lines()
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
