"""Expected output of click_paths_count_any.sql: brute force over the SKIP TILL ANY MATCH
definition (docs/semantics.md), no pattern engine and no counting.

Per user, in ts order: every product row a, every later checkout row c with c.ts - a.ts < 1 hour,
and every non-empty subset of the cart rows strictly between them is one match. The paths are
listed one by one (itertools.combinations) and counted; the min/max of a.ts over the matches.
"""

from datetime import timedelta
from itertools import combinations

from _common import load, partitions, write

NAME = "click_paths_count_any"
COLUMNS = ["user_id", "paths", "first_product_view", "last_product_view"]


def compute() -> list[tuple]:
    out = []
    for user, rows in partitions(load("clicks"), "user_id", "ts"):
        starts = []
        for i, a in enumerate(rows):
            for j in range(i + 1, len(rows)):
                c = rows[j]
                if a["page"] != "product" or c["page"] != "checkout":
                    continue
                if not c["ts"] - a["ts"] < timedelta(hours=1):
                    continue
                carts = [k for k in range(i + 1, j) if rows[k]["page"] == "cart"]
                for size in range(1, len(carts) + 1):
                    for _ in combinations(carts, size):
                        starts.append(a["ts"])
        if starts:
            out.append((user, len(starts), min(starts), max(starts)))
    return sorted(out)


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
