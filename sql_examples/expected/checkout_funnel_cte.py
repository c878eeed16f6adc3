"""Expected output of checkout_funnel_cte.sql, by a direct scan over the filtered events.

Each variable is "page = <its page>", so no row satisfies two variables: greedy PRODUCT+ and
CART+ take the maximal runs (a shorter run would leave a row the next variable cannot take),
CHECKOUT must be the next row, and greedy PURCHASE? takes the row after it iff it is a purchase.
"""

from _common import load, partitions, write

NAME = "checkout_funnel_cte"
COLUMNS = ["user_id", "funnel_no", "first_product_ts", "product_views", "cart_events",
           "checkout_ts", "purchase_ts", "last_step"]
STEPS = ("product", "cart", "checkout", "purchase")


def compute() -> list[tuple]:
    out = []
    shopping = [r for r in load("clicks") if r["page"] in STEPS]  # the CTE
    for user, rows in partitions(shopping, "user_id", "ts"):
        pages = [r["page"] for r in rows]
        n = len(pages)

        def run(j, page):
            while j < n and pages[j] == page:
                j += 1
            return j

        funnel_no, i = 0, 0
        while i < n:
            c = run(i, "product")  # PRODUCT rows: i .. c-1
            k = run(c, "cart") if c > i else c  # CART rows: c .. k-1
            if c == i or k == c or k == n or pages[k] != "checkout":
                i += 1
                continue
            purchase = k + 1 if k + 1 < n and pages[k + 1] == "purchase" else None
            funnel_no += 1
            out.append((user, funnel_no, rows[i]["ts"], c - i, k - c, rows[k]["ts"],
                        rows[purchase]["ts"] if purchase else None,
                        "PURCHASE" if purchase else "CHECKOUT"))
            i = (purchase or k) + 1  # AFTER MATCH SKIP PAST LAST ROW
    return out


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
