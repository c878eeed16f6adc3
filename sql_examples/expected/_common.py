"""Shared plumbing for the expected-output scripts: load a bundled table with typed values,
split it into partitions, and render rows in the expected-CSV format of sql_examples/README.md.

Nothing here knows about row patterns: each sql_examples/expected/<name>.py computes its answer
with a hand-written scan for that one query.
"""

from __future__ import annotations

import csv
import io
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # sql_examples/
DATA = ROOT / "data"

_PARSERS = {
    "STRING": str,
    "BIGINT": int,
    "INT": int,
    "DOUBLE": float,
    "TIMESTAMP": lambda s: datetime.strptime(s, "%Y-%m-%d %H:%M:%S"),
}


def schema(table: str) -> list[tuple[str, str]]:
    ddl = (DATA / f"{table}.schema").read_text().strip()
    return [tuple(part.split()) for part in ddl.split(",")]


def load(table: str) -> list[dict]:
    """All rows of data/<table>.csv as dicts, typed per data/<table>.schema (empty -> None)."""
    cols = schema(table)
    with open(DATA / f"{table}.csv", newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        assert header == [c for c, _ in cols], (table, header)
        return [
            {c: (None if v == "" else _PARSERS[t.upper()](v)) for (c, t), v in zip(cols, rec)}
            for rec in reader
        ]


def partitions(rows: list[dict], key: str, order: str) -> list[tuple[object, list[dict]]]:
    """[(key value, rows of that partition sorted by `order`)], partitions in key order.
    Asserts that `order` has no ties inside a partition (the examples rely on that)."""
    parts: dict = {}
    for r in rows:
        parts.setdefault(r[key], []).append(r)
    out = []
    for k in sorted(parts):
        rs = sorted(parts[k], key=lambda r: r[order])
        assert len({r[order] for r in rs}) == len(rs), f"tie in {order} within {key}={k}"
        out.append((k, rs))
    return out


def fmt(v) -> str:
    """Expected-CSV cell: NULL -> '', TIMESTAMP -> 'YYYY-MM-DD HH:MM:SS', DOUBLE -> shortest
    round-trip repr after rounding to 6 decimals (so 101.0, 0.1, 28.9), BIGINT -> digits,
    BOOLEAN -> true/false."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, datetime):
        return v.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(v, float):
        return repr(round(v, 6) + 0.0)  # + 0.0 turns -0.0 into 0.0
    if isinstance(v, int):
        return str(v)
    assert isinstance(v, str) and v != "", repr(v)  # '' would be read back as NULL
    return v


def render(columns: list[str], rows: list[tuple]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for r in rows:
        assert len(r) == len(columns), (columns, r)
        w.writerow([fmt(v) for v in r])
    return buf.getvalue()


def expected_path(name: str) -> Path:
    return ROOT / f"{name}.expected.csv"


def write(name: str, columns: list[str], rows: list[tuple]) -> None:
    expected_path(name).write_text(render(columns, rows))
    print(f"wrote {expected_path(name).relative_to(ROOT.parent)} ({len(rows)} rows)")
