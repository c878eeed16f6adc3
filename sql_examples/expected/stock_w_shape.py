"""Expected output of stock_w_shape.sql, by a direct scan (no pattern engine).

As in stock_v_shape.py, no row can be both DOWN (price < previous) and UP (price > previous), so
each greedy leg is exactly the maximal run of falling or rising rows, and shortening any leg would
leave a row the next leg cannot take. A match from row i therefore exists iff the four maximal runs
after i are down, up, down, up (each non-empty); the match ends where the last rising run ends.
"""

from _common import load, partitions, write

NAME = "stock_w_shape"
COLUMNS = ["symbol", "match_no", "start_ts", "start_price", "end_ts", "end_price",
           "lowest_price", "highest_up_price", "down_days", "up_days"]


def compute() -> list[tuple]:
    out = []
    for symbol, rows in partitions(load("stock_ticks"), "symbol", "ts"):
        p = [r["price"] for r in rows]
        n = len(rows)

        def ok(k, leg):
            return 0 < k < n and (p[k] < p[k - 1] if leg == "down" else p[k] > p[k - 1])

        match_no, i = 0, 0
        while i < n:
            legs, j = [], i + 1  # legs: list of (leg, first row, end row exclusive)
            for leg in ("down", "up", "down", "up"):
                start = j
                while ok(j, leg):
                    j += 1
                if j == start:
                    break
                legs.append((leg, start, j))
            if len(legs) < 4:
                i += 1  # no match starting at row i
                continue
            downs = [k for leg, a, b in legs if leg == "down" for k in range(a, b)]
            ups = [k for leg, a, b in legs if leg == "up" for k in range(a, b)]
            match_no += 1
            last = j - 1
            out.append((symbol, match_no, rows[i]["ts"], p[i], rows[last]["ts"], p[last],
                        min(p[k] for k in downs), max(p[k] for k in ups), len(downs), len(ups)))
            i = last  # AFTER MATCH SKIP TO LAST UP: resume at the last UP row (> i)
    return out


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
