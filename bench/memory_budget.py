"""Python worker memory when a query runs out of its budget (issue 11): the queries that used to
grow workers past 10 GB or run for minutes now stop with MATCH_BUDGET_EXCEEDED; this measures
how long that takes and the peak RSS of the Python workers meanwhile (polled from /proc, as in
``bench/memory_within.py``), with the default budgets.

    .venv/bin/python bench/memory_budget.py

Prints one JSON line per query: seconds to the error, the error's first line, the peak RSS of
one Python worker and of all of them.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from memory_within import RssPoller, jvm_pid  # noqa: E402

import sparkcep  # noqa: E402
from sparkcep.errors import SparkCepError  # noqa: E402

QUERIES = {
    # 2,000 rows that all qualify: 2^(rows between) matches per A/C pair, no WITHIN
    "ANY A B+ C, no WITHIN, 2,000 rows": (
        "SELECT * FROM VALUES {rows} AS t(id) MATCH_RECOGNIZE (ORDER BY id "
        "MEASURES FIRST(A.id) AS a, LAST(C.id) AS c SKIP TILL ANY MATCH PATTERN (A B+ C) "
        "DEFINE A AS true, B AS true, C AS true)", 2000),
    # nested quantifiers under strict contiguity, C never matches: exponential backtracking
    # without memoisation
    "strict (A+)+ C, C never, 400 rows": (
        "SELECT * FROM VALUES {rows} AS t(id) MATCH_RECOGNIZE (ORDER BY id "
        "MEASURES COUNT(*) AS n PATTERN ((A+)+ C) DEFINE A AS true, C AS false)", 400),
}


def main() -> None:
    # as the tests run: a Python worker stops at 2 GB instead of taking the machine
    spark = sparkcep.local_session("local[2]", "sparkcep-bench-budget",
                                   spark_executor_pyspark_memory="2g")
    try:
        sparkcep.sql(spark, "SELECT * FROM VALUES (1) AS t(id) MATCH_RECOGNIZE (ORDER BY id "
                            "MEASURES COUNT(*) AS n PATTERN (A) DEFINE A AS true)").collect()  # warm-up
        for name, (template, rows) in QUERIES.items():
            text = template.format(rows=", ".join(f"({i})" for i in range(rows)))
            poller = RssPoller(jvm_pid(spark))
            poller.start()
            started = time.perf_counter()
            outcome = "finished"
            try:
                sparkcep.sql(spark, text).count()
            except SparkCepError as error:
                outcome = str(error).splitlines()[0][:160]
            seconds = time.perf_counter() - started
            poller.stop.set()
            poller.join()
            print(json.dumps({"query": name, "seconds": round(seconds, 1), "outcome": outcome,
                              "peak_worker_rss_mb": round(poller.peak_one / 1024, 1),
                              "peak_workers_sum_rss_mb": round(poller.peak_sum / 1024, 1)}), flush=True)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
