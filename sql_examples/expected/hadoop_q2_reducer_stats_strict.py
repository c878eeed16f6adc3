"""Expected output of hadoop_q2_reducer_stats_strict.sql: a direct scan under strict contiguity
(SQL:2016), no pattern engine.

Over the CTE's rows (JobStart, ReduceEnd, JobEnd, *Failed) of each job, in ts order: from a
start row i that is a JobStart, greedy B+ takes the maximal run of ReduceEnd rows i+1 .. j-1
(B and C are disjoint, so a shorter run cannot help: the row after it would be a ReduceEnd, never
a JobEnd); row j must be a JobEnd, and rows[j].ts - rows[i].ts < 1 day. On a match, resume after
it (AFTER MATCH SKIP PAST LAST ROW), otherwise at i + 1.
"""

from datetime import timedelta

from _common import load, partitions, write

NAME = "hadoop_q2_reducer_stats_strict"
COLUMNS = ["job_id", "job_start", "job_end", "reducers", "avg_reduce_s", "max_reduce_s",
           "last_reducer"]


def compute() -> list[tuple]:
    out = []
    kept = [r for r in load("hadoop_log")
            if r["event"] in ("JobStart", "ReduceEnd", "JobEnd") or r["event"].endswith("Failed")]
    for job, rows in partitions(kept, "job_id", "ts"):
        n, i = len(rows), 0
        while i < n:
            if rows[i]["event"] == "JobStart":
                j = i + 1
                while j < n and rows[j]["event"] == "ReduceEnd":
                    j += 1
                bs = rows[i + 1:j]
                if (bs and j < n and rows[j]["event"] == "JobEnd"
                        and rows[j]["ts"] - rows[i]["ts"] < timedelta(days=1)):
                    periods = [b["period_s"] for b in bs]
                    out.append((job, rows[i]["ts"], rows[j]["ts"], len(bs),
                                sum(periods) / len(bs), max(periods), bs[-1]["task_id"]))
                    i = j + 1
                    continue
            i += 1
    return sorted(out, key=lambda t: t[0])


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
