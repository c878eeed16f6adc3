"""Tables named on the command line (``--table NAME=PATH``) as temporary views, for ``sparkcep run``
and ``sparkcep serve``: Parquet files or folders, JSON, or CSV with a header (typed by a
``.schema`` file next to it when there is one)."""

from __future__ import annotations

from pathlib import Path

import click


def register_tables(spark, tables: tuple[str, ...], shared: bool = False) -> None:
    """Temp views of ``spark``; with ``shared``, tables of its catalog (current database) over the
    files instead, as ``sparkcep serve`` registers them: every session of the application sees
    them (a Spark Connect client's session is a new session: the driver's temp views are not its
    own), and catalog browsers find them (a temp view has no database: ``SHOW TABLES IN default``
    lists it with an empty one, and ``DESCRIBE default.NAME`` does not find it)."""
    for spec in tables:
        name, path = _split(spec)
        source, options, schema = _format(path)
        reader = spark.read.format(source).options(**options)
        frame = reader.schema(schema).load(path) if schema else reader.load(path)
        if shared:
            options.pop("inferSchema", None)
            spark.catalog.createTable(name, path=path, source=source, schema=frame.schema, **options)
        else:
            frame.createOrReplaceTempView(name)


def _format(path: str) -> tuple[str, dict[str, str], str | None]:
    """The data source, its options and the schema (None: the files' own or inferred) of ``path``."""
    if path.endswith(".parquet") or Path(path).is_dir():
        return "parquet", {}, None
    if path.endswith(".json"):
        return "json", {}, None
    schema_file = Path(path).with_suffix(".schema")
    if schema_file.exists():
        return "csv", {"header": "true"}, schema_file.read_text().strip()
    return "csv", {"header": "true", "inferSchema": "true"}, None


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
