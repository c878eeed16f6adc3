"""The streaming table ``vshapes``: the MATCH_RECOGNIZE statement of ``vshapes.sql``.

A pipeline's SQL files cannot hold the statement itself (docs/streaming.md, "Spark Declarative
Pipelines"), so it is built here with ``stream_dataframe``: at the top level of the file, where
the pipeline allows analysis, into one DataFrame that carries the stateful operator in its plan."""

from pathlib import Path

from pyspark import pipelines as dp

from sparkcep.runtime.pipeline_stream import stream_dataframe

matches = stream_dataframe(spark, (Path(__file__).parents[1] / "vshapes.sql").read_text())


@dp.table(name="vshapes", comment="V shapes of the ticks, by MATCH_RECOGNIZE")
def vshapes():
    return matches
