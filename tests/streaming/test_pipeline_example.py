"""The Spark Declarative Pipelines example (``examples/pipelines/vshapes``) run by
``spark-pipelines``: its streaming table ``vshapes`` must hold exactly the answer of the same
MATCH_RECOGNIZE statement as a batch query over the same ticks.

The pipeline runs in its own process group (killed whole in ``finally``), on the bundled ticks
plus one far-future tick of a separate symbol, which moves the watermark past every other tick so
that every V is reported. The reference is the batch query (``sparkcep.sql`` over the CSV files),
which shares the engines but not the pipeline, the stateful operator or the file sink.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import sparkcep
from sparkcep.errors import SparkCepError

pytestmark = [pytest.mark.spark, pytest.mark.streaming]

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "pipelines" / "vshapes"
DATA = ROOT / "sparkcep" / "data"
SCHEMA = "symbol STRING, ts TIMESTAMP, price DOUBLE, volume INT"
PATIENCE_SECONDS = 300  # each step took 1.5-2 minutes on a loaded two-core machine


def _run(tmp_path: Path, command: list[str], name: str) -> tuple[int, str]:
    """Run one step of the example in ``tmp_path`` (the metastore and the tables go there), in its
    own process group; its exit code and its output."""
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, SPARK_LOCAL_IP="127.0.0.1")
    log = tmp_path / f"{name}.log"
    with open(log, "w") as out:
        process = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        try:
            code = process.wait(PATIENCE_SECONDS)
        finally:
            try:
                os.killpg(process.pid, signal.SIGKILL)  # whatever it left behind
            except ProcessLookupError:
                pass
            process.wait(30)
    return code, log.read_text(errors="replace")


def test_pipeline_streaming_table_equals_batch_answer(spark, tmp_path):
    pytest.importorskip("yaml", reason="spark-pipelines needs pyspark[pipelines]")
    pytest.importorskip("grpc", reason="spark-pipelines needs pyspark[pipelines]")
    shutil.copytree(EXAMPLE, tmp_path / "vshapes")
    (tmp_path / "ticks").mkdir()
    shutil.copy(DATA / "ticks.csv", tmp_path / "ticks" / "ticks.csv")
    (tmp_path / "ticks" / "zz-sentinel.csv").write_text(
        "symbol,ts,price,volume\n~sentinel,2030-01-01 00:00:00,1.0,1\n")
    code, output = _run(tmp_path, [sys.executable, str(tmp_path / "vshapes" / "create_source.py"),
                                    str(tmp_path / "ticks")], "source")
    assert code == 0, output[-3000:]
    spec = (tmp_path / "vshapes" / "spark-pipeline.yml").read_text()  # written by the step
    assert f"storage: {(tmp_path / 'vshapes' / 'pipeline-storage').as_uri()}\n" in spec
    code, output = _run(tmp_path, [str(Path(sys.executable).parent / "spark-pipelines"), "run",
                                   "--spec", str(tmp_path / "vshapes" / "spark-pipeline.yml"),
                                   "--conf", "spark.sql.catalogImplementation=hive",
                                   "--conf", "spark.executor.pyspark.memory=1g"], "pipeline")
    tail = "\n".join(output.splitlines()[-25:])
    assert code == 0, tail
    assert "Flow spark_catalog.default.vshapes has COMPLETED" in output, tail
    table = tmp_path / "spark-warehouse" / "vshapes"  # read through the file sink's log
    got = sorted(tuple(r) for r in spark.read.parquet(str(table)).collect()
                 if r["symbol"] != "~sentinel")

    text = (EXAMPLE / "vshapes.sql").read_text()
    streaming_from = "FROM STREAM(ticks) WATERMARK ts DELAY OF INTERVAL 1 MINUTE"
    assert streaming_from in text
    (spark.read.option("header", True).schema(SCHEMA).csv(str(tmp_path / "ticks"))
     .createOrReplaceTempView("ticks"))
    want = sorted(tuple(r) for r in sparkcep.sql(spark, text.replace(streaming_from, "FROM ticks"))
                  .collect() if r["symbol"] != "~sentinel")
    assert len(want) > 3
    assert got == want


def test_prev_is_refused_with_its_position(spark, tmp_path):
    from sparkcep.runtime.pipeline_stream import stream_dataframe

    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "a.csv").write_text("symbol,ts,price,volume\nA,2026-03-02 09:30:00,1.0,1\n")
    (spark.readStream.schema(SCHEMA).option("header", True).csv(str(tmp_path / "t"))
     .createOrReplaceTempView("prev_ticks"))
    text = ("SELECT * FROM prev_ticks WATERMARK ts DELAY OF INTERVAL 1 MINUTE MATCH_RECOGNIZE (\n"
            "  PARTITION BY symbol ORDER BY ts MEASURES LAST(B.ts) AS t\n"
            "  PATTERN (A B) WITHIN INTERVAL '1' MINUTE\n"
            "  DEFINE B AS B.price < PREV(B.price))")
    with pytest.raises(SparkCepError) as error:
        stream_dataframe(spark, text)
    assert error.value.code == "STREAM_UNSUPPORTED"
    assert (error.value.line, error.value.column) == (4, text.splitlines()[3].index("PREV") + 1)
