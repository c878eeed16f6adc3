"""Apache Flink SQL MATCH_RECOGNIZE worker for bench/peers.py. Runs in bench/.venv-flink
(PyFlink, local mini-cluster), never imports sparkcep.

    bench/.venv-flink/bin/python bench/peer_flink.py TICKS.parquet [--parallelism 2] < queries.json

stdin: a JSON list of {"name", "sql"}; the table is called ``ticks`` with columns
``symbol INT, ts BIGINT, price DOUBLE, volume INT, rowtime TIMESTAMP(3)`` (rowtime = ts ms after
the epoch; Flink orders MATCH_RECOGNIZE by a time column only). Before timing, the Parquet file is
converted once to a headerless CSV (Flink's bundled formats have no Parquet reader). Every column
is nullable (a NOT NULL column breaks ``LAST(x, 1) IS NULL`` in Flink).

Each query is run as ``SELECT COUNT(*) FROM (<query>)`` in batch mode, ``--repeat`` times in the
same JVM (the later runs are JIT-warm); the timing is the wall time of the job (CSV scan, sort,
match, count), JVM start excluded. Prints one JSON line per query:
{"name", "seconds", "seconds_all", "rows", "matches"} or {"name", "error"}.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq


def to_csv(parquet: str, directory: str) -> tuple[str, int]:
    table = pq.read_table(parquet, columns=["symbol", "ts", "price", "volume"])
    stamp = pc.strftime(pc.cast(pc.cast(table["ts"], pa.int64()), pa.timestamp("ms")),
                        format="%Y-%m-%d %H:%M:%S")
    table = table.append_column("rowtime", stamp)
    path = os.path.join(directory, "ticks.csv")
    pacsv.write_csv(table, path, pacsv.WriteOptions(include_header=False, quoting_style="none"))
    return path, table.num_rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("parquet")
    parser.add_argument("--parallelism", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    queries = json.load(sys.stdin)
    from pyflink.table import EnvironmentSettings, TableEnvironment

    with tempfile.TemporaryDirectory(prefix="sparkcep-flink-") as directory:
        csv_path, rows = to_csv(args.parquet, directory)
        env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
        env.get_config().set("parallelism.default", str(args.parallelism))
        env.execute_sql(f"""CREATE TEMPORARY TABLE ticks (
              symbol INT, ts BIGINT, price DOUBLE, volume INT, rowtime TIMESTAMP(3))
            WITH ('connector' = 'filesystem', 'path' = '{csv_path}', 'format' = 'csv')""")
        for query in queries:
            times = []
            try:
                for _ in range(args.repeat):
                    started = time.perf_counter()
                    result = env.execute_sql(f"SELECT COUNT(*) FROM ({query['sql']}) AS mr")
                    with result.collect() as rows_out:
                        matches = int(next(iter(rows_out))[0])
                    times.append(time.perf_counter() - started)
                out = {"name": query["name"], "seconds": min(times), "seconds_all": times,
                       "rows": rows, "matches": matches}
            except Exception as error:  # report the innermost Java cause in one line
                text = str(error).strip().splitlines()
                cause = next((line for line in reversed(text) if "Exception" in line), text[-1] if text else "")
                out = {"name": query["name"], "error": cause[:500]}
            print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
