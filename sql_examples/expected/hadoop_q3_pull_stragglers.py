"""Expected output of hadoop_q3_pull_stragglers.sql: a direct simulation of the SKIP TILL NEXT
MATCH run of PATTERN (A B+) WITHIN 10 minutes (docs/semantics.md), no pattern engine.

Per task partition, a run starts at each ReduceStart row a and takes every DataPull row after
it (the only rows it can select: A is done, B+ has no maximum); it closes at the first row with
ts >= a.ts + 10 min or at the end of the partition, and is then reported once, maximal, if B has
at least one row. So B = every DataPull of the partition after a and less than 10 minutes after
it. The outer SELECT's flag is computed on that match.
"""

from datetime import timedelta

from _common import load, partitions, write

NAME = "hadoop_q3_pull_stragglers"
COLUMNS = ["task_id", "node_id", "reduce_start", "pulls", "avg_pull_s", "last_pull_s",
           "last_pull_ts", "straggler"]


def compute() -> list[tuple]:
    out = []
    for task, rows in partitions(load("hadoop_log"), "task_id", "ts"):
        for i, a in enumerate(rows):
            if a["event"] != "ReduceStart":
                continue
            bs = []
            for r in rows[i + 1:]:
                if r["ts"] >= a["ts"] + timedelta(minutes=10):
                    break
                if r["event"] == "DataPull":
                    bs.append(r)
            if bs:
                avg = sum(b["period_s"] for b in bs) / len(bs)
                last = bs[-1]["period_s"]
                out.append((task, a["node_id"], a["ts"], len(bs), avg, last, bs[-1]["ts"],
                            last > 2 * avg))
    return sorted(out, key=lambda t: t[0])


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
