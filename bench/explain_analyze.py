"""What EXPLAIN ANALYZE costs, and that a normal query pays nothing for it (issue 24).

The V shape of ``bench/stock_patterns.py`` over random-walk ticks on local Spark: the normal query
(written with the noop sink), then the same statement under EXPLAIN ANALYZE (the query, then each
clause once more through its analysis function). Run it once on this checkout and once on a
checkout without EXPLAIN ANALYZE (e.g. ``git archive <commit> | tar -x -C DIR`` and
``PYTHONPATH=DIR``): the line ``code`` says which sparkcep the driver and the Python workers ran.

    .venv/bin/python bench/explain_analyze.py --rows 2000000 --symbols 100 --repeat 3
    .venv/bin/python bench/explain_analyze.py --rows 2000000 --no-analyze   # the query only
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import sparkcep  # noqa: E402
from common import bench_session, noop, stock_ticks  # noqa: E402
from stock_patterns import V_SHAPE  # noqa: E402


def _worker_code(spark) -> str:
    from pyspark.sql.functions import udf

    @udf("string")
    def where(_):
        import sparkcep as imported

        return os.path.dirname(os.path.dirname(imported.__file__))

    return spark.range(1).select(where("id")).first()[0]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--symbols", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-analyze", action="store_true")
    parser.add_argument("--memory", default="2g")
    options = parser.parse_args()
    spark = bench_session(memory=options.memory)
    try:
        code = {"driver": os.path.dirname(os.path.dirname(sparkcep.__file__)),
                "workers": _worker_code(spark)}
        try:
            from sparkcep.compiler.explain_analyze import is_explain_analyze  # noqa: F401
            present = True
        except ImportError:
            present = False
        code["explain_analyze_present"] = present
        analyze = present and not options.no_analyze
        print(json.dumps({"code": code}), flush=True)
        stock_ticks(spark, options.rows, options.symbols)
        noop(sparkcep.sql(spark, V_SHAPE))  # warm-up: Python workers, registration
        for _ in range(options.repeat):
            started = time.perf_counter()
            noop(sparkcep.sql(spark, V_SHAPE))
            seconds = time.perf_counter() - started
            print(json.dumps({"what": "query", "rows": options.rows, "seconds": round(seconds, 2),
                              "rows_per_second": round(options.rows / seconds)}), flush=True)
        if analyze:
            from sparkcep.runtime.explain_analyze import analyze_statement

            for _ in range(options.repeat):
                started = time.perf_counter()
                result = analyze_statement(spark, "EXPLAIN ANALYZE " + V_SHAPE)
                seconds = time.perf_counter() - started
                facts = {r[3]: r[4] for r in result.rows if r[1] == "clause"}
                print(json.dumps({"what": "explain analyze", "rows": options.rows,
                                  "seconds": round(seconds, 2),
                                  "engine_ms": facts["engine_ms"], "analysis_ms": facts["analysis_ms"],
                                  "matches": facts["matches"]}), flush=True)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
