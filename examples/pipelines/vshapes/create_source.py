"""Create the pipeline's source: the catalog table ``ticks`` over a folder of tick CSV files (by
default the ticks bundled with sparkcep), in the Hive metastore of the current folder (Derby,
``metastore_db/``), which the pipeline then reads with ``STREAM(ticks)`` (run it with
``--conf spark.sql.catalogImplementation=hive`` from the same folder).

    python create_source.py [FOLDER]

A pipeline's definitions may not create tables of their own, and a self-contained streaming
MATCH_RECOGNIZE analyzes its input when the pipeline loads it, so the source must exist first.
It also writes the pipeline spec ``spark-pipeline.yml`` next to this file from
``spark-pipeline.template.yml``: ``spark-pipelines`` wants the checkpoints' folder (``storage``)
as an absolute URI, here ``pipeline-storage/`` beside the spec.
"""

import sys
from importlib import resources
from pathlib import Path

from sparkcep.clients.session import local_session

folder = sys.argv[1] if len(sys.argv) > 1 else str(resources.files("sparkcep") / "data")
here = Path(__file__).resolve().parent
spec = (here / "spark-pipeline.template.yml").read_text()
(here / "spark-pipeline.yml").write_text(
    spec.replace("{storage}", (here / "pipeline-storage").as_uri()))
spark = local_session("local[1]", "vshapes-source", spark_sql_catalogImplementation="hive")
try:
    spark.sql("DROP TABLE IF EXISTS ticks")
    spark.sql(f"""
        CREATE TABLE ticks (symbol STRING, ts TIMESTAMP, price DOUBLE, volume INT)
        USING csv OPTIONS (header 'true', pathGlobFilter '*.csv') LOCATION '{folder}'""")
    print(f"ticks: {spark.table('ticks').count()} rows from {folder}")
finally:
    spark.stop()
