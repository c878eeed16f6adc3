"""Expected output of stock_rally_pullback_all_rows.sql, by a direct scan (no pattern engine).

Same argument as stock_v_shape.py with UP and DOWN swapped: a match from row i is row i, the
maximal run of rising rows after it (non-empty), then the maximal run of falling rows (non-empty).
Each matched row is then emitted with its RUNNING measures computed over the rows of the match up
to and including it, and its FINAL measures computed over the whole match.
"""

from _common import load, partitions, write

NAME = "stock_rally_pullback_all_rows"
COLUMNS = ["symbol", "ts", "match_no", "phase", "day_in_match", "match_days", "high_so_far",
           "peak_price", "pullback_start", "exit_price", "price"]


def compute() -> list[tuple]:
    out = []
    for symbol, rows in partitions(load("stock_ticks"), "symbol", "ts"):
        p = [r["price"] for r in rows]
        n = len(rows)

        def run(j, rising):
            while 0 < j < n and (p[j] > p[j - 1] if rising else p[j] < p[j - 1]):
                j += 1
            return j

        match_no, i = 0, 0
        while i < n:
            j = run(i + 1, True)  # UP rows: i+1 .. j-1
            k = run(j, False) if j > i + 1 else j  # DOWN rows: j .. k-1
            if j == i + 1 or k == j:
                i += 1
                continue
            match_no += 1
            labels = ["STRT"] + ["UP"] * (j - i - 1) + ["DOWN"] * (k - j)
            match = list(range(i, k))
            for pos, (row, label) in enumerate(zip(match, labels)):
                seen = match[: pos + 1]  # RUNNING: rows of the match up to this one
                pullback = rows[j]["ts"] if row >= j else None
                out.append((symbol, rows[row]["ts"], match_no, label, len(seen), len(match),
                            max(p[x] for x in seen), max(p[x] for x in match), pullback,
                            p[k - 1], p[row]))
            i = k  # AFTER MATCH SKIP PAST LAST ROW
    return out  # in ORDER BY symbol, ts


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
