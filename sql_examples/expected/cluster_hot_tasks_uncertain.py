"""Expected result of cluster_hot_tasks_uncertain.sql, from the possible-worlds definition of
imprecise timestamps (Zhang, Diao, Immerman, PVLDB 2010, §3.3), without any pattern engine.

Every event occurred at one equally likely whole second of [t_lo, t_hi] (GRANULARITY 1 second).
A possible world fixes one second per event. Under SKIP TILL ANY MATCH with PATTERN (A B C), a
world has the match (a, b, c) iff a, b, c satisfy their DEFINE conditions and their seconds
satisfy t_a < t_b < t_c and t_c - t_a < 15 (WITHIN INTERVAL '15' SECOND). Only the three events'
own seconds decide that, so the probability of the worlds with the match is the sum, over the
triples of seconds (t_a, t_b, t_c) that satisfy it, of 1/|a| * 1/|b| * 1/|c| (the other events'
seconds sum to 1). The time bounds are the smallest t_a and the largest t_c over those triples.
A match is reported when its confidence is at least MINIMUM CONFIDENCE 0.25.
"""

from __future__ import annotations

import itertools
from datetime import timedelta
from fractions import Fraction

from _common import load, write

NAME = "cluster_hot_tasks_uncertain"
WINDOW_S = 15
MINIMUM = Fraction(1, 4)
COLUMNS = ["node", "task", "sample_id", "cpu", "confidence", "earliest_start", "latest_end"]


def seconds(event) -> range:
    return range(0, int((event["t_hi"] - event["t_lo"]).total_seconds()) + 1)


def compute() -> list[tuple]:
    events = load("cluster_events")
    out = []
    for node in sorted({e["node"] for e in events}):
        rows = [e for e in events if e["node"] == node]
        starts = [e for e in rows if e["kind"] == "TaskStart"]
        samples = [e for e in rows if e["kind"] == "CpuSample" and e["cpu"] > 95]
        finishes = [e for e in rows if e["kind"] == "TaskFinish"]
        for a, b, c in itertools.product(starts, samples, finishes):
            if c["task"] != a["task"]:
                continue
            weight = Fraction(1, len(seconds(a)) * len(seconds(b)) * len(seconds(c)))
            confidence, times = Fraction(0), []
            for da, db, dc in itertools.product(seconds(a), seconds(b), seconds(c)):
                ta = a["t_lo"] + timedelta(seconds=da)
                tb = b["t_lo"] + timedelta(seconds=db)
                tc = c["t_lo"] + timedelta(seconds=dc)
                if ta < tb < tc and (tc - ta).total_seconds() < WINDOW_S:
                    confidence += weight
                    times.append((ta, tc))
            assert confidence != MINIMUM, "a confidence on the threshold: choose another one"
            if confidence > 0 and confidence >= MINIMUM:
                out.append((node, a["task"], b["event_id"], b["cpu"], float(confidence),
                            min(t for t, _ in times), max(t for _, t in times)))
    out.sort(key=lambda r: (r[0], r[1], r[2]))
    return out


def main() -> None:
    write(NAME, COLUMNS, compute())


if __name__ == "__main__":
    main()
