"""pandas-match-recognize worker for bench/peers.py. Runs in bench/.venv-pmr (its own venv: the
package pins pandas<3 and numpy<2.2), never imports sparkcep.

    bench/.venv-pmr/bin/python bench/peer_pmr.py TICKS.parquet < queries.json

stdin: a JSON list of {"name", "sql", "limit_rows"?}; the table is called ``ticks``. For each query,
prints one JSON line {"name", "seconds", "rows", "matches"} or {"name", "error"}. ``limit_rows``
(optional) runs the query on the first symbols only (whole partitions) so a slow engine can be
measured on a sample; ``rows`` says how many rows it actually read.
"""

from __future__ import annotations

import json
import sys
import time

import pandas as pd
from pandas_match_recognize import match_recognize


def main() -> None:
    frame = pd.read_parquet(sys.argv[1]).sort_values(["symbol", "ts"], kind="stable")
    frame = frame.reset_index(drop=True)
    for query in json.load(sys.stdin):
        data = frame
        limit = query.get("limit_rows")
        if limit and limit < len(frame):
            symbols = frame["symbol"].drop_duplicates()
            per_symbol = max(1, len(frame) // len(symbols))
            keep = symbols.iloc[: max(1, limit // per_symbol)]
            data = frame[frame["symbol"].isin(keep)].reset_index(drop=True)
        try:
            started = time.perf_counter()
            result = match_recognize(query["sql"], data)
            seconds = time.perf_counter() - started
            out = {"name": query["name"], "seconds": seconds, "rows": len(data),
                   "matches": int(len(result))}
        except Exception as error:  # report and go on with the next query
            out = {"name": query["name"], "error": f"{type(error).__name__}: {error}"[:500]}
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
