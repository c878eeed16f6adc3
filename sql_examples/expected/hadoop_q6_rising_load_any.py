"""Expected output of hadoop_q6_rising_load_any.sql: brute-force enumeration of the SKIP TILL ANY
MATCH matches of PATTERN (A B+ C) WITHIN 10 minutes over the whole stream (docs/semantics.md,
the declarative definition), no pattern engine.

A match is every choice of a row a (ReduceStart), a row c after it (ReduceEnd of a's task) with
c.ts - a.ts < 10 min, and a non-empty increasing sequence of LoadStd rows strictly between them
(every subset of those rows is tried) whose values never decrease (each B row's value >= that of the previously chosen B row: the
RUNNING LAST(B.val, 1); the first B compares with itself). All index combinations are tried.
Matches are numbered by completion point (the c row), then first row (a), then the rows (the
tuple of row positions, compared lexicographically).
"""

from datetime import timedelta
from itertools import combinations

from _common import load, write

NAME = "hadoop_q6_rising_load_any"
COLUMNS = ["match_no", "task_id", "reduce_start", "reduce_end", "samples", "first_sample_ts",
           "last_sample_ts", "first_val", "last_val"]


def compute() -> list[tuple]:
    rows = sorted(load("hadoop_log"), key=lambda r: r["ts"])
    assert len({r["ts"] for r in rows}) == len(rows)
    n = len(rows)
    matches = []
    for i in range(n):
        for j in range(i + 1, n):
            a, c = rows[i], rows[j]
            if not (a["event"] == "ReduceStart" and c["event"] == "ReduceEnd"
                    and c["task_id"] == a["task_id"]
                    and c["ts"] - a["ts"] < timedelta(minutes=10)):
                continue
            # only LoadStd rows qualify for B: choose among those strictly between a and c
            between = [k for k in range(i + 1, j) if rows[k]["event"] == "LoadStd"]
            for size in range(1, len(between) + 1):
                for pick in combinations(between, size):
                    bs = [rows[k] for k in pick]
                    if any(bs[m]["val"] < bs[m - 1]["val"] for m in range(1, len(bs))):
                        continue
                    matches.append(((j, i, (i,) + pick + (j,)),
                                    (a["task_id"], a["ts"], c["ts"], len(bs), bs[0]["ts"],
                                     bs[-1]["ts"], bs[0]["val"], bs[-1]["val"])))
    matches.sort(key=lambda m: m[0])
    return [(k,) + m[1] for k, m in enumerate(matches, start=1)]


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
