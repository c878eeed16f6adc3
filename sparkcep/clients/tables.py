"""Tables named on the command line (``--table NAME=PATH``) as temporary views, for ``sparkcep run``
and ``sparkcep serve``: Parquet files or folders, JSON, or CSV with a header (typed by a
``.schema`` file next to it when there is one)."""

from __future__ import annotations

from pathlib import Path

import click


def register_tables(spark, tables: tuple[str, ...]) -> None:
    for spec in tables:
        name, path = _split(spec)
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


def _split(spec: str) -> tuple[str, str]:
    name, sep, path = spec.partition("=")
    if not sep or not name.strip() or not path.strip():
        raise click.UsageError(f"--table takes NAME=PATH, got {spec!r}")
    return name.strip(), path.strip()


def check_tables(tables: tuple[str, ...], text: str | None = None) -> None:
    """Check ``--table`` arguments before Spark starts: ``NAME=PATH`` each, the path exists, and
    (given the statement ``text``) every unqualified table the statement reads is one of them or
    one of its CTEs (a local ``sparkcep run`` session has no other tables)."""
    names = set()
    for spec in tables:
        name, path = _split(spec)
        if not Path(path).exists():
            raise click.UsageError(f"--table {name}={path}: no such file or folder")
        names.add(name.lower())
    if text is not None:
        _check_references(text, names)


def _check_references(text: str, names: set[str]) -> None:
    from sparkcep.compiler.references import unqualified_tables
    from sparkcep.errors import AnalysisError

    for table in unqualified_tables(text):
        if table.name.lower() in names:
            continue
        given = ", ".join(sorted(names)) or "none"
        message = (f"the table or view `{table.name}` cannot be found: give it with "
                   f"--table {table.name}=PATH (tables given: {given})")
        if table.offset is None:
            raise AnalysisError("TABLE_OR_VIEW_NOT_FOUND", message)
        raise AnalysisError.at_offset("TABLE_OR_VIEW_NOT_FOUND", message, text, table.offset,
                                      len(table.name))
