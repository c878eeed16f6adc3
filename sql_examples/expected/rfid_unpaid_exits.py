"""Expected output of rfid_unpaid_exits.sql: a direct scan of each tag's reads, written from
docs/semantics.md, no pattern engine.

Per tag (partition), rows in time order. A SKIP TILL NEXT MATCH run starts at every pick p; it
ignores every row until the first exit e after p (an exit is the only row it can select). If a
payment lies strictly between p and e, the proceed over the middle `!PAID` is blocked for good (p
is a singleton: the run can select nothing else), so there is no match; likewise if e is not
within the window (e.ts - p.ts < 15 min). Otherwise (p, e) is a match of the positive part, and
it is reported unless a payment row after e has ts - p.ts < 15 min (the trailing `!PAID`). Its
completion point is the first row at or after p.ts + 15 min, or the end of the partition;
matches are numbered per tag by (completion point, first row).
"""

from datetime import timedelta

from _common import load, partitions, write

NAME = "rfid_unpaid_exits"
COLUMNS = ["item_tag", "match_no", "shelf", "pick_ts", "gate", "exit_ts"]
WINDOW = timedelta(minutes=15)


def compute() -> list[tuple]:
    out = []
    for tag, rows in partitions(load("rfid_reads"), "item_tag", "ts"):
        found = []  # (completion index, pick index, row)
        for i, p in enumerate(rows):
            if p["event"] != "pick":
                continue
            exit_at = None
            for k in range(i + 1, len(rows)):
                if rows[k]["event"] == "paid":
                    break
                if rows[k]["event"] == "exit":
                    exit_at = k
                    break
            if exit_at is None or rows[exit_at]["ts"] - p["ts"] >= WINDOW:
                continue
            end = p["ts"] + WINDOW
            later = rows[exit_at + 1:]
            if any(r["event"] == "paid" and r["ts"] < end for r in later):
                continue
            completion = next((k for k in range(exit_at + 1, len(rows)) if rows[k]["ts"] >= end),
                              len(rows))
            e = rows[exit_at]
            found.append((completion, i, (p["location"], p["ts"], e["location"], e["ts"])))
        found.sort(key=lambda m: m[:2])
        out += [(tag, n) + m[2] for n, m in enumerate(found, start=1)]
    out.sort(key=lambda r: (r[0], r[3]))
    return out


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
