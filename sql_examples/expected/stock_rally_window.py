"""Expected output of stock_rally_window.sql, by a direct scan (no pattern engine).

Per symbol, rows in ts order, starting at row i = 0: the frame is rows i .. i+4; UP+ is greedy,
so the run is the longest j with p[k] > p[k-1] for i < k <= j inside the frame. With j > i the
row gets the run (up days j - i, peak p[j], j - i + 1 rows, their average) and rows i+1 .. j get
NULL / 0 (skipped: SKIP PAST LAST ROW), and the next row searched is j + 1; else row i gets NULL
/ 0 and the next row searched is i + 1.
"""

from _common import load, partitions, write

NAME = "stock_rally_window"
COLUMNS = ["symbol", "ts", "price", "up_days", "peak_price", "run_rows", "run_avg_price", "day_no"]


def compute() -> list[tuple]:
    out = []
    for symbol, rows in partitions(load("stock_ticks"), "symbol", "ts"):
        p = [r["price"] for r in rows]
        result = [(None, None, 0, None)] * len(rows)
        i = 0
        while i < len(rows):
            last = min(i + 4, len(rows) - 1)
            j = i
            while j < last and p[j + 1] > p[j]:
                j += 1
            if j > i:
                run = p[i:j + 1]
                result[i] = (j - i, p[j], len(run), sum(run) / len(run))
                i = j + 1
            else:
                i += 1
        for number, (row, values) in enumerate(zip(rows, result), start=1):
            out.append((symbol, row["ts"], row["price"], *values, number))
    return out


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
