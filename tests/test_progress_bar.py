"""The ``sparkcep run`` progress bar: drawn on a terminal only."""

from __future__ import annotations

import io
import sys
from types import SimpleNamespace

from sparkcep.clients.progress import _line, progress


def test_line_shows_tasks_of_the_active_stages():
    stage = SimpleNamespace(stageId=3, numTasks=40, numCompletedTasks=10, numActiveTasks=2)
    line = _line([stage], 7.25, width=20)
    assert line == "[=====>              ] stage 3: 10/40 tasks (2 running)  7.2s"


def test_nothing_when_not_a_terminal():
    stream = io.StringIO()
    before = sys.stdout
    with progress(spark=None, stream=stream):  # never touches Spark when not a TTY
        assert sys.stdout is before
    assert stream.getvalue() == ""
