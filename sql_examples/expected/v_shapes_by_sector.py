"""Expected output of v_shapes_by_sector.sql: V shapes found by the same direct scan as
stock_v_shape.py (repeated here so this script stands alone), left-joined from companies and
aggregated per sector."""

from _common import load, partitions, write

NAME = "v_shapes_by_sector"
COLUMNS = ["sector", "companies", "v_shapes", "avg_days", "deepest_drop_pct"]


def v_shapes(p: list[float]) -> list[tuple[float, float, int]]:
    """(start price, bottom price, rows in match) of each V, greedy, skip past last row."""
    n, i, out = len(p), 0, []
    while i < n:
        j = i + 1
        while j < n and p[j] < p[j - 1]:
            j += 1
        if j == i + 1 or j == n or not p[j] > p[j - 1]:
            i += 1
            continue
        k = j
        while k < n and p[k] > p[k - 1]:
            k += 1
        out.append((p[i], p[j - 1], k - i))
        i = k
    return out


def compute() -> list[tuple]:
    shapes = {sym: v_shapes([r["price"] for r in rows])
              for sym, rows in partitions(load("stock_ticks"), "symbol", "ts")}
    sectors: dict[str, list[str]] = {}
    for c in load("companies"):
        sectors.setdefault(c["sector"], []).append(c["symbol"])
    out = []
    for sector in sorted(sectors):
        vs = [v for sym in sectors[sector] for v in shapes.get(sym, [])]
        out.append((sector, len(set(sectors[sector])), len(vs),
                    sum(d for _, _, d in vs) / len(vs) if vs else None,
                    max(100 * (s - b) / s for s, b, _ in vs) if vs else None))
    return out


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
