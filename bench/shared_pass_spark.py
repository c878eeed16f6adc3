"""Does Spark read the input once when several UNION ALL branches read one table function?

The shape a one-pass form of several aggregate pattern queries would compile to (issue 13;
A-Seq's Chop-Connect, Qi, WPI 2013, counts shared sub-patterns once, but only if the queries run
in one pass): one Arrow UDTF call that emits, per partition, one row per branch tagged with the
branch number, and a UNION ALL whose branches each read their own rows. This script counts how
often the UDTF's ``terminate`` runs (one file per run, so it counts across Python workers; local
master only) and times each form:

* ``two calls``: each branch calls the function itself (what the compiler emits today);
* ``CTE``: ``WITH s AS (SELECT * FROM f(TABLE(...) PARTITION BY ...))`` read by both branches,

each with ``spark.sql.exchange.reuse`` on (Spark's default) and off, AQE on (the default).

    .venv/bin/python bench/shared_pass_spark.py --rows 200000 --partitions 20

Prints one JSON line per (form, reuse): rows out, UDTF runs, seconds.

``--sparkcep``: the rewrite itself (``sparkcep.compiler.shared_pass``): three aggregate pattern
queries over one clicks table as one UNION ALL, timed with exchange reuse on (one pass) and off
(the function runs once per branch, as three separate queries would), best of ``--repeats``;
both answers are asserted equal.

    .venv/bin/python bench/shared_pass_spark.py --sparkcep --rows 1000000 --partitions 200
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import bench_session  # noqa: E402


def _function(spark, directory: str) -> None:
    from pyspark.sql.functions import arrow_udtf

    @arrow_udtf(returnType="p long, branch int, n long")
    class TwoBranches:
        """Per partition: the number of rows, as two tagged rows (branch 0 and 1)."""

        def __init__(self) -> None:
            self.rows, self.key = 0, None

        def eval(self, batch: pa.RecordBatch):
            if batch.num_rows and self.key is None:
                self.key = batch.column("p")[0].as_py()
            self.rows += batch.num_rows
            yield from ()

        def terminate(self):
            handle, _ = tempfile.mkstemp(dir=directory)
            os.close(handle)
            yield pa.RecordBatch.from_pydict({
                "p": pa.array([self.key] * 2, pa.int64()),
                "branch": pa.array([0, 1], pa.int32()),
                "n": pa.array([self.rows, 2 * self.rows], pa.int64()),
            })

    spark.udtf.register("two_branches", TwoBranches)


BRANCHES = [
    ("A B+ C", "WITHIN 3600", "A AS page = 'product', B AS page = 'cart', C AS page = 'checkout'"),
    ("A B+", "WITHIN 2000", "A AS page = 'product', B AS page = 'cart'"),
    ("A C", "WITHIN 600", "A AS page = 'cart', C AS page = 'checkout'"),
]


def _sparkcep(spark, args) -> None:
    import sparkcep

    spark.range(args.rows).selectExpr(
        f"id % {args.partitions} AS user_id", "id AS ts",
        "element_at(array('product', 'cart', 'cart', 'view', 'checkout', 'view'), "
        "CAST(hash(id) % 6 + 7 AS INT) % 6 + 1) AS page").cache().createOrReplaceTempView("clicks")
    spark.table("clicks").count()
    query = "\nUNION ALL\n".join(
        f"SELECT user_id, {i} AS q, COUNT(*) AS n, MIN(a) AS first FROM clicks MATCH_RECOGNIZE ("
        f"PARTITION BY user_id ORDER BY ts MEASURES A.ts AS a SKIP TILL ANY MATCH "
        f"PATTERN ({pattern}) {within} DEFINE {define}) GROUP BY user_id"
        for i, (pattern, within, define) in enumerate(BRANCHES))
    assert "sparkcep_shared_" in sparkcep.transpile(query)
    answers, best = {}, {}
    for _ in range(args.repeats):
        for reuse in ("true", "false"):
            spark.conf.set("spark.sql.exchange.reuse", reuse)
            start = time.perf_counter()
            answers[reuse] = sorted(tuple(r) for r in sparkcep.sql(spark, query).collect())
            best[reuse] = min(best.get(reuse, float("inf")), time.perf_counter() - start)
    if answers["true"] != answers["false"]:
        raise AssertionError("the answers differ")
    print(json.dumps({"rows": args.rows, "partitions": args.partitions, "branches": len(BRANCHES),
                      "coalesce": not args.no_coalesce,
                      "one_pass_seconds": round(best["true"], 2),
                      "pass_per_branch_seconds": round(best["false"], 2),
                      "ratio": round(best["false"] / best["true"], 2),
                      "groups": len(answers["true"])}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--partitions", type=int, default=20)
    parser.add_argument("--sparkcep", action="store_true")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--no-coalesce", action="store_true",
                        help="spark.sql.adaptive.coalescePartitions.enabled=false")
    args = parser.parse_args()
    spark = bench_session()
    if args.no_coalesce:
        spark.conf.set("spark.sql.adaptive.coalescePartitions.enabled", "false")
    if args.sparkcep:
        try:
            _sparkcep(spark, args)
        finally:
            spark.stop()
        return
    directory = tempfile.mkdtemp(prefix="sparkcep_shared_pass_")
    try:
        spark.range(args.rows).selectExpr(f"id % {args.partitions} AS p", "id AS ts") \
            .createOrReplaceTempView("ev")
        _function(spark, directory)
        call = "two_branches(TABLE(SELECT p, ts FROM ev) PARTITION BY (p) ORDER BY (ts))"
        forms = {
            "two calls": (f"SELECT p, n FROM {call} WHERE branch = 0 "
                          f"UNION ALL SELECT p, n FROM {call} WHERE branch = 1"),
            "CTE": (f"WITH s AS (SELECT * FROM {call}) SELECT p, n FROM s WHERE branch = 0 "
                    "UNION ALL SELECT p, n FROM s WHERE branch = 1"),
        }
        for form, query in forms.items():
            for reuse in ("true", "false"):
                spark.conf.set("spark.sql.exchange.reuse", reuse)
                for name in os.listdir(directory):
                    os.remove(os.path.join(directory, name))
                start = time.perf_counter()
                rows = spark.sql(query).collect()
                seconds = time.perf_counter() - start
                if sorted(r.n for r in rows) != sorted(
                        [args.rows // args.partitions] * args.partitions
                        + [2 * (args.rows // args.partitions)] * args.partitions):
                    raise AssertionError(f"{form}: wrong rows")
                print(json.dumps({"form": form, "exchange_reuse": reuse, "rows": len(rows),
                                  "udtf_runs": len(os.listdir(directory)),
                                  "partitions": args.partitions,
                                  "seconds": round(seconds, 2)}), flush=True)
    finally:
        spark.stop()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
