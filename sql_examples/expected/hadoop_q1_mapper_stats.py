"""Expected output of hadoop_q1_mapper_stats.sql: a direct simulation of the SKIP TILL NEXT MATCH
run of PATTERN (A B+ C) WITHIN 1 day (docs/semantics.md), no pattern engine.

Per job partition, a run starts at each JobStart row a. It reads the following rows in order:
a row at or after a.ts + 1 day closes it; a MapEnd is taken into B (it never qualifies for C, so
there is no take/proceed fork); a JobEnd proceeds to C, completing the match, once B has at least
one row (before that it is not selectable and is skipped); every other row is skipped.
"""

from datetime import timedelta

from _common import load, partitions, write

NAME = "hadoop_q1_mapper_stats"
COLUMNS = ["job_id", "job_start", "job_end", "mappers", "avg_map_s", "max_map_s",
           "map_output_bytes"]


def compute() -> list[tuple]:
    out = []
    for job, rows in partitions(load("hadoop_log"), "job_id", "ts"):
        for i, a in enumerate(rows):
            if a["event"] != "JobStart":
                continue
            bs = []
            for r in rows[i + 1:]:
                if r["ts"] >= a["ts"] + timedelta(days=1):
                    break
                if r["event"] == "MapEnd":
                    bs.append(r)
                elif r["event"] == "JobEnd" and bs:
                    periods = [b["period_s"] for b in bs]
                    out.append((job, a["ts"], r["ts"], len(bs), sum(periods) / len(bs),
                                max(periods), sum(b["bytes"] for b in bs)))
                    break
    return sorted(out, key=lambda t: t[0])


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
