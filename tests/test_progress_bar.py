"""``sparkcep run`` progress: a bar on a terminal, a line per finished stage in a pipe or a log
(issue 12), nothing with ``--quiet``."""

from __future__ import annotations

import io
import sys
from types import SimpleNamespace

from sparkcep.clients.progress import _line, progress


def test_line_shows_tasks_of_the_active_stages():
    stage = SimpleNamespace(stageId=3, numTasks=40, numCompletedTasks=10, numActiveTasks=2)
    line = _line([stage], 7.25, width=20)
    assert line == "[=====>              ] stage 3: 10/40 tasks (2 running)  7.2s"


class _Tracker:
    """A status tracker whose active stages follow a script, one entry per poll."""

    def __init__(self, script):
        self.script = list(script)
        self.current = []

    def getActiveStageIds(self):
        if self.script:
            self.current = self.script.pop(0)
        return [stage.stageId for stage in self.current]

    def getStageInfo(self, stage_id):
        return next((s for s in self.current if s.stageId == stage_id), None)


def _spark(script):
    tracker = _Tracker(script)
    return SimpleNamespace(sparkContext=SimpleNamespace(statusTracker=lambda: tracker)), tracker


def _stage(stage_id, tasks):
    return SimpleNamespace(stageId=stage_id, numTasks=tasks, numCompletedTasks=0, numActiveTasks=1)


def test_quiet_prints_nothing():
    stream = io.StringIO()
    before = sys.stdout
    spark, _ = _spark([[_stage(1, 4)], []])
    with progress(spark=spark, stream=stream, quiet=True):
        assert sys.stdout is before
    assert stream.getvalue() == ""


def test_a_line_per_finished_stage_when_not_a_terminal():
    import time

    stream = io.StringIO()
    spark, tracker = _spark([[_stage(1, 4)], [_stage(1, 4), _stage(2, 8)], [_stage(2, 8)], []])
    before = sys.stdout
    with progress(spark=spark, stream=stream, interval=0.01):
        assert sys.stdout is before  # no bar: stdout is not wrapped
        deadline = time.monotonic() + 10
        while tracker.script and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.05)
    lines = stream.getvalue().splitlines()
    assert [line.split(",")[0] for line in lines] == [
        "sparkcep: stage 1 done: 4 tasks", "sparkcep: stage 2 done: 8 tasks"]
    assert all(line.endswith("s") for line in lines)
