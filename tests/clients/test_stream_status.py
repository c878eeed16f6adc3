"""The status line of ``sparkcep stream`` (no Spark: Spark's progress reports as dicts)."""

from __future__ import annotations

from sparkcep.clients.stream_runner import Status


def _progress(batch, rows, matches, late, keys=9):
    return {"batchId": batch, "numInputRows": rows, "sink": {"numOutputRows": matches},
            "eventTime": {"watermark": "2026-03-02T10:13:00.000Z"},
            "stateOperators": [{"numRowsDroppedByWatermark": late, "numRowsTotal": keys,
                                "memoryUsedBytes": 2048}]}


def test_each_line_has_the_micro_batch_counts_then_the_totals():
    status = Status()
    first = status.line(_progress(0, 120, 3, 1), None)
    second = status.line(_progress(1, 60, 1, 0), None)
    assert first == ("sparkcep: batch 0: 120 rows in, 3 matches out, 1 late rows dropped, "
                     "state 9 entries (2 KiB), watermark 2026-03-02T10:13:00.000Z; since this "
                     "run started: 120 rows in, 3 matches out, 1 late rows dropped")
    assert second.startswith("sparkcep: batch 1: 60 rows in, 1 matches out, 0 late rows dropped,")
    assert second.endswith("since this run started: 180 rows in, 4 matches out, "
                           "1 late rows dropped")


def test_printed_matches_and_routed_late_rows():
    status = Status()
    status.add_routed(2)
    first = status.line(_progress(0, 10, -1, 0), printed_matches=5)
    status.add_routed(1)
    second = status.line(_progress(1, 10, -1, 0), printed_matches=7)
    assert "10 rows in, 5 matches out, 2 late rows routed," in first
    assert "10 rows in, 2 matches out, 1 late rows routed," in second
    assert second.endswith("20 rows in, 7 matches out, 3 late rows routed")
