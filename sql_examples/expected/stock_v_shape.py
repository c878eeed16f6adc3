"""Expected output of stock_v_shape.sql, by a direct scan (no pattern engine).

Why a plain scan is exact here: a DOWN row (price < previous) can never be an UP row, so giving
DOWN+ fewer rows can never let UP+ start; the only way to complete the match from row i is
"the whole run of falling rows after i, then at least one rising row", and greedy UP+ prefers the
whole run of rising rows. If that fails, the row is unmatched and the scan moves to i + 1.
"""

from _common import load, partitions, write

NAME = "stock_v_shape"
COLUMNS = ["symbol", "match_no", "start_ts", "start_price", "first_down_price", "bottom_ts",
           "bottom_price", "end_ts", "end_price", "down_days", "up_days"]


def compute() -> list[tuple]:
    out = []
    for symbol, rows in partitions(load("stock_ticks"), "symbol", "ts"):
        p = [r["price"] for r in rows]
        n = len(rows)

        def down(k):
            return k > 0 and p[k] < p[k - 1]

        def up(k):
            return k > 0 and p[k] > p[k - 1]

        match_no, i = 0, 0
        while i < n:
            j = i + 1  # rows i+1 .. j-1 will be DOWN
            while j < n and down(j):
                j += 1
            if j == i + 1 or j == n or not up(j):
                i += 1  # no match starting at row i
                continue
            k = j  # rows j .. k-1 will be UP
            while k < n and up(k):
                k += 1
            match_no += 1
            out.append((symbol, match_no, rows[i]["ts"], p[i], p[i + 1], rows[j - 1]["ts"],
                        p[j - 1], rows[k - 1]["ts"], p[k - 1], j - 1 - i, k - j))
            i = k  # AFTER MATCH SKIP PAST LAST ROW
    return out  # already in ORDER BY symbol, match_no


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
