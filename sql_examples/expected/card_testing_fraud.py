"""Expected output of card_testing_fraud.sql, by a direct scan (no pattern engine).

From a start row i that is small, greedy SMALL+ first takes the maximal run of small rows
i .. j-1; BIG must then hold on row j with the SMALL aggregates over rows i .. j-1. Taking fewer
SMALL rows cannot help: the row after them would be small (< 10) and so can never be BIG (>= 200).
So the attempt at i succeeds iff that single candidate works; otherwise try i + 1.
"""

from datetime import timedelta

from _common import load, partitions, write

NAME = "card_testing_fraud"
COLUMNS = ["card_id", "match_no", "first_small_txn", "first_small_ts", "small_count",
           "small_total", "big_txn", "big_ts", "big_amount", "big_merchant"]


def compute() -> list[tuple]:
    out = []
    for card, rows in partitions(load("card_txns"), "card_id", "ts"):
        n = len(rows)
        match_no, i = 0, 0
        while i < n:
            j = i
            while j < n and rows[j]["amount"] < 10.0:
                j += 1
            small = rows[i:j]
            if small and j < n:
                big = rows[j]
                if (big["amount"] >= 200.0
                        and len(small) >= 3
                        and sum(r["amount"] for r in small) < 30.0
                        and big["ts"] <= small[0]["ts"] + timedelta(minutes=10)
                        and big["ts"] <= small[-1]["ts"] + timedelta(minutes=5)):
                    match_no += 1
                    out.append((card, match_no, small[0]["txn_id"], small[0]["ts"], len(small),
                                sum(r["amount"] for r in small), big["txn_id"], big["ts"],
                                big["amount"], big["merchant"]))
                    i = j + 1  # AFTER MATCH SKIP PAST LAST ROW
                    continue
            i += 1
    return out


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
