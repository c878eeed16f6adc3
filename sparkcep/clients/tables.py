"""Tables named on the command line (``--table NAME=PATH``) as temporary views, for ``sparkcep run``
and ``sparkcep serve``: Parquet files or folders, JSON, or CSV with a header (typed by a
``.schema`` file next to it when there is one)."""

from __future__ import annotations

from pathlib import Path

import click


def register_tables(spark, tables: tuple[str, ...]) -> None:
    for spec in tables:
        if "=" not in spec:
            raise click.UsageError(f"--table takes NAME=PATH, got {spec!r}")
        name, path = spec.split("=", 1)
        if path.endswith(".parquet") or Path(path).is_dir():
            frame = spark.read.parquet(path)
        elif path.endswith(".json"):
            frame = spark.read.json(path)
        else:
            schema_file = Path(path).with_suffix(".schema")
            reader = spark.read.option("header", True)
            if schema_file.exists():
                reader = reader.schema(schema_file.read_text().strip())
            else:
                reader = reader.option("inferSchema", True)
            frame = reader.csv(path)
        frame.createOrReplaceTempView(name)
