"""Expected output of hadoop_q4_queued_data_all_rows.sql: a direct simulation of the SKIP TILL
NEXT MATCH run of PATTERN (A B+) WITHIN 1 day (docs/semantics.md), no pattern engine.

Per job partition, a run starts at each JobStart row a and takes every MapEnd or DataPull row
after it, until the first row with ts >= a.ts + 1 day or the end of the partition; it is then
reported once, maximal (if B is non-empty). ALL ROWS PER MATCH lists a and the B rows, with
RUNNING measures: the number of B rows so far and the SUM of their signed deltas (+bytes for a
MapEnd, -bytes for a DataPull; NULL while there is no B row). Matches are numbered per partition
in order of completion; there is one per job here.
"""

from datetime import timedelta

from _common import load, partitions, write

NAME = "hadoop_q4_queued_data_all_rows"
COLUMNS = ["job_id", "ts", "match_no", "role", "event", "task_id", "bytes", "io_records",
           "queued_bytes"]


def compute() -> list[tuple]:
    out = []
    for job, rows in partitions(load("hadoop_log"), "job_id", "ts"):
        starts = [i for i, r in enumerate(rows) if r["event"] == "JobStart"]
        assert len(starts) <= 1  # so numbering is trivial: match 1
        for i in starts:
            a = rows[i]
            bs = [r for r in rows[i + 1:]
                  if r["ts"] < a["ts"] + timedelta(days=1) and r["event"] in ("MapEnd", "DataPull")]
            if not bs:
                continue
            out.append((job, a["ts"], 1, "A", a["event"], a["task_id"], a["bytes"], 0, None))
            queued = 0
            for k, b in enumerate(bs, start=1):
                queued += b["bytes"] if b["event"] == "MapEnd" else -b["bytes"]
                out.append((job, b["ts"], 1, "B", b["event"], b["task_id"], b["bytes"], k, queued))
    return sorted(out, key=lambda t: (t[0], t[1]))


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
