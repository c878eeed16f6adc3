"""Shared pieces of the Spark benchmarks: a session, data generators, a timer."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass


def bench_session(master: str = "local[2]", memory: str = "6g"):
    from sparkcep.clients.session import local_session

    os.environ.setdefault("SPARKCEP_BENCH", "1")
    return local_session(
        master,
        "sparkcep-bench",
        **{
            "spark_driver_memory": memory,
            "spark_sql_shuffle_partitions": "8",
            "spark_sql_execution_arrow_maxRecordsPerBatch": "10000",
            "spark_executor_pyspark_memory": "2g",  # a bound on each Python worker
        },
    )


def stock_ticks(spark, rows: int, symbols: int, seed: int = 42, name: str = "ticks"):
    """A random walk per symbol, as in the SASE+ experiments: ``symbol, ts, price, volume``.

    Steps are uniform in [-1, 1); prices start at 100. Cached and materialised before timing."""
    frame = spark.sql(f"""
        SELECT symbol, ts,
               100 + SUM(step) OVER (PARTITION BY symbol ORDER BY ts
                                     ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS price,
               volume
        FROM (SELECT CAST(id % {symbols} AS INT) AS symbol,
                     CAST(id DIV {symbols} AS BIGINT) AS ts,
                     rand({seed}) * 2 - 1 AS step,
                     CAST(rand({seed + 1}) * 1000 AS INT) AS volume
              FROM range({rows}))""")
    frame = frame.persist()
    frame.count()
    frame.createOrReplaceTempView(name)
    return frame


@dataclass
class Timing:
    name: str
    seconds: float
    rows: int

    @property
    def rows_per_second(self) -> float:
        return self.rows / self.seconds


def timed(name: str, rows: int, action, repeat: int = 1) -> Timing:
    """Best of ``repeat`` runs of ``action()``."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - started)
    return Timing(name, best, rows)


def noop(frame) -> None:
    frame.write.format("noop").mode("overwrite").save()


def passthrough_floor(spark, table: str, partition: str, order: str):
    """The floor any Python-executed engine on Spark pays: an Arrow UDTF over the same
    TABLE(...) PARTITION BY ... ORDER BY ... that reads every batch and returns one row."""
    import pyarrow as pa
    from pyspark.sql.functions import arrow_udtf

    @arrow_udtf(returnType="n BIGINT")
    class Floor:
        def __init__(self):
            self.n = 0

        def eval(self, batch: pa.RecordBatch):
            self.n += batch.num_rows
            return iter(())

        def terminate(self):
            yield pa.table({"n": pa.array([self.n], pa.int64())})

    spark.udtf.register("sparkcep_bench_floor", Floor)
    return spark.sql(
        f"SELECT * FROM sparkcep_bench_floor(TABLE({table}) PARTITION BY ({partition}) "
        f"ORDER BY ({order}))"
    )


def print_table(timings: list[Timing], baseline: str) -> None:
    base = next(t for t in timings if t.name == baseline)
    print(f"{'variant':<42} {'seconds':>9} {'rows/s':>12} {'x ' + baseline:>16}")
    for t in timings:
        print(f"{t.name:<42} {t.seconds:>9.2f} {t.rows_per_second:>12,.0f} "
              f"{t.seconds / base.seconds:>16.2f}")
