"""Expected output of hadoop_q5_imbalance_negation.sql: a direct simulation of the SKIP TILL NEXT
MATCH runs of PATTERN (A !X B C+ D E) WITHIN 10 minutes over the whole stream
(docs/semantics.md), no pattern engine.

A run starts at every balanced sample a (LoadStd, val < 1.0) and reads the following rows; a row
with ts >= a.ts + 10 min closes it (E is mandatory, so nothing is reported then).
  * waiting for B: a LoadStd sample qualifies for X and is recorded (it is not selectable: A is
    done); a ReduceStart is selectable only if no X row was recorded (the proceed over !X), and
    then it is B. Once an X row is recorded only B could be selected next and it never can: the
    run is dead.
  * waiting for the first C: an imbalanced sample (val >= 1.0) is C; all else is skipped.
  * in C+: an imbalanced sample is taken into C; the ReduceEnd of B's task proceeds to D.
  * waiting for E: a balanced sample is E and completes the match.
No row qualifies for two of these moves at once, so runs never fork. Matches are numbered by
completion point (the E row), then first row.
"""

from datetime import timedelta

from _common import load, write

NAME = "hadoop_q5_imbalance_negation"
COLUMNS = ["match_no", "task_id", "node_id", "balanced_ts", "balanced_val", "reduce_start",
           "imbalanced_samples", "max_imbalance", "reduce_end", "rebalanced_ts", "rebalanced_val"]


def compute() -> list[tuple]:
    rows = sorted(load("hadoop_log"), key=lambda r: r["ts"])
    assert len({r["ts"] for r in rows}) == len(rows)
    sample = lambda r: r["event"] == "LoadStd"  # noqa: E731
    matches = []  # (E index, A index, row tuple without match_no)
    for i, a in enumerate(rows):
        if not (sample(a) and a["val"] < 1.0):
            continue
        b, cs, d, x_seen = None, [], None, False
        for k in range(i + 1, len(rows)):
            r = rows[k]
            if r["ts"] >= a["ts"] + timedelta(minutes=10):
                break
            if b is None:
                if sample(r):
                    x_seen = True
                elif r["event"] == "ReduceStart" and not x_seen:
                    b = r
            elif d is None:
                if sample(r) and r["val"] >= 1.0:
                    cs.append(r)
                elif cs and r["event"] == "ReduceEnd" and r["task_id"] == b["task_id"]:
                    d = r
            elif sample(r) and r["val"] < 1.0:
                matches.append((k, i, (b["task_id"], b["node_id"], a["ts"], a["val"], b["ts"],
                                       len(cs), max(c["val"] for c in cs), d["ts"], r["ts"],
                                       r["val"])))
                break
    matches.sort(key=lambda m: (m[0], m[1]))
    return [(n,) + m[2] for n, m in enumerate(matches, start=1)]


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
