"""Expected output of stock_rising_streak.sql, by a direct scan (no pattern engine).

For each start row i (SKIP TO NEXT ROW tries every row, matched or not, in order): UP holds on
row j iff price[j] > price[j-1] (the previous UP row, or STRT for the first UP) and
price[j] <= price[i] * 1.10. The condition on row j does not depend on later rows, so the greedy
UP{3,} takes the longest prefix of rows i+1, i+2, ... on which it holds; a match needs >= 3.
"""

from _common import load, partitions, write

NAME = "stock_rising_streak"
COLUMNS = ["symbol", "match_no", "start_ts", "start_price", "end_ts", "end_price", "up_days"]


def compute() -> list[tuple]:
    out = []
    for symbol, rows in partitions(load("stock_ticks"), "symbol", "ts"):
        p = [r["price"] for r in rows]
        match_no = 0
        for i in range(len(rows)):
            cap = p[i] * 1.10
            j = i + 1
            while j < len(rows) and p[j] > p[j - 1] and p[j] <= cap:
                assert abs(p[j] - cap) > 1e-6  # the data keeps clear of the boundary
                j += 1
            if j < len(rows) and p[j] > p[j - 1]:
                assert abs(p[j] - cap) > 1e-6
            if j - (i + 1) >= 3:
                match_no += 1
                out.append((symbol, match_no, rows[i]["ts"], p[i], rows[j - 1]["ts"], p[j - 1],
                            j - (i + 1)))
    return out


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
