"""``sparkcep stream``: a statement over file streams, run continuously with a live status line.

Each ``--source NAME=FOLDER`` is a folder of CSV, JSON or Parquet files read with Spark's file
source (one or more files per micro-batch; a file added to the folder later is picked up) and
registered as the streaming view NAME, which the statement reads with
``FROM NAME WATERMARK ts DELAY OF INTERVAL ...`` or ``FROM STREAM(NAME) WATERMARK ...``. The
matches are appended to the sink: printed (``table``, ``csv``, ``json``) or written as files to
``--output``. After each micro-batch one line on stderr says how many rows came in, how many
matches went out, how large the operator's state is, where the watermark is and how many late
rows were dropped (with ``--late-rows FOLDER``: routed there, ``runtime.stream_writer``).
``--checkpoint`` keeps the query's progress and state, so a stopped query
resumes where it stopped (docs/streaming.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

_FORMATS = {".csv": "csv", ".json": "json", ".parquet": "parquet"}


def source_format(folder: Path) -> str:
    """The format of a source folder's files (by their suffix)."""
    found = {_FORMATS[p.suffix] for p in folder.iterdir() if p.suffix in _FORMATS}
    if len(found) != 1:
        raise click.UsageError(
            f"--source {folder}: the folder must hold files of one format (.csv with a header, "
            f".json or .parquet), found {', '.join(sorted(found)) or 'none'}")
    return found.pop()


def register_sources(spark, sources: tuple[str, ...], files_per_trigger: int) -> None:
    """Each ``NAME=FOLDER`` as a streaming view NAME. A stream needs its schema up front: a CSV
    folder's is the ``.schema`` file in the folder or next to it (``FOLDER.schema``), else the
    one Spark infers from the files there now."""
    for spec in sources:
        name, _, path = spec.partition("=")
        folder = Path(path.strip())
        kind = source_format(folder)
        batch = spark.read.option("header", True)
        schema = None
        if kind == "csv":
            for candidate in [*sorted(folder.glob("*.schema")), folder.with_suffix(".schema")]:
                if candidate.exists():
                    schema = candidate.read_text().strip()
                    break
        if schema is None:
            schema = batch.option("inferSchema", True).format(kind).load(str(folder)).schema
        reader = (spark.readStream.schema(schema).option("header", True)
                  .option("maxFilesPerTrigger", files_per_trigger)
                  .option("pathGlobFilter", f"*.{kind}"))
        reader.format(kind).load(str(folder)).createOrReplaceTempView(name.strip())


def check_sources(sources: tuple[str, ...]) -> None:
    if not sources:
        raise click.UsageError("give at least one --source NAME=FOLDER")
    for spec in sources:
        name, sep, path = spec.partition("=")
        if not sep or not name.strip() or not path.strip():
            raise click.UsageError(f"--source takes NAME=FOLDER, got {spec!r}")
        folder = Path(path.strip())
        if not folder.is_dir():
            raise click.UsageError(f"--source {name}={path}: no such folder")
        source_format(folder)


class Status:
    """What the status line shows, from Spark's progress reports: the micro-batch's own counts,
    then the totals since this run started (a restart from a checkpoint starts them again; the
    state shown is what a restart resumes)."""

    def __init__(self) -> None:
        self.rows_in = 0
        self.matches_out = 0
        self.late = 0
        self.routed: int | None = None  # late rows routed to a folder, when they are
        self.routed_before = 0  # routed as of the previous status line
        self.batches = 0

    def add_routed(self, count: int) -> None:
        self.routed = (self.routed or 0) + count

    def line(self, progress: dict, printed_matches: int | None) -> str:
        self.batches += 1
        rows = int(progress.get("numInputRows") or 0)
        self.rows_in += rows
        operators = progress.get("stateOperators") or []
        late = sum(int(o.get("numRowsDroppedByWatermark") or 0) for o in operators)
        self.late += late
        sink = int((progress.get("sink") or {}).get("numOutputRows", -1) or 0)
        before = self.matches_out
        self.matches_out = printed_matches if printed_matches is not None else \
            self.matches_out + max(sink, 0)
        state_keys = sum(int(o.get("numRowsTotal") or 0) for o in operators)
        state_bytes = sum(int(o.get("memoryUsedBytes") or 0) for o in operators)
        watermark = (progress.get("eventTime") or {}).get("watermark", "-")
        if self.routed is None:
            now, total = f"{late} late rows dropped", f"{self.late} late rows dropped"
        else:
            now = f"{self.routed - self.routed_before} late rows routed"
            total = f"{self.routed} late rows routed"
            self.routed_before = self.routed
        return (f"sparkcep: batch {progress.get('batchId')}: {rows} rows in, "
                f"{self.matches_out - before} matches out, {now}, state {state_keys} entries "
                f"({state_bytes / 1024:.0f} KiB), watermark {watermark}; since this run "
                f"started: {self.rows_in} rows in, {self.matches_out} matches out, {total}")


def run_stream(spark, text: str, output_format: str, output: str | None, checkpoint: str,
               until_idle: bool, quiet: bool, echo=click.echo, late_rows: str | None = None) -> int:
    """Start the statement as a streaming query; print its matches and a status line per
    micro-batch until it is stopped (Ctrl-C) or, with ``until_idle``, until the files there now
    are processed; with ``late_rows``, the late rows are written to that folder
    (``sparkcep.start_stream``). The number of matches output."""
    from sparkcep.errors import SparkCepError, for_worker
    from sparkcep.runtime.spark_errors import (
        STREAM_FAILURE_LOGGER,
        silence_duplicate_logging,
        stream_failure,
    )
    from sparkcep.runtime.statement import run_statement

    printed = {"count": 0, "header": False}
    status = Status()

    def print_rows(rows) -> None:
        printed["count"] += len(rows)
        for row in rows:
            if output_format == "json":
                echo(json.dumps(row.asDict(recursive=True), default=str))
                continue
            values = ["" if v is None else str(v) for v in row]
            if not printed["header"]:
                echo((", " if output_format == "csv" else " | ").join(row.__fields__))
                printed["header"] = True
            echo((", " if output_format == "csv" else " | ").join(values))

    def count_rows(rows) -> None:  # written to --output by the late-row writer
        printed["count"] += len(rows)

    def print_batch(batch, batch_id) -> None:
        try:
            print_rows(batch.collect())
        except SparkCepError as error:  # marked, so the query's exception carries it
            raise for_worker(error) from None

    file_format = "parquet" if output_format == "table" else output_format
    if late_rows:
        from sparkcep.runtime.stream_writer import start_stream

        status.routed = 0
        # folders, also when named without a slash (a bare name would be a table)
        query = start_stream(spark, text, checkpoint=checkpoint,
                             late_rows=str(Path(late_rows).absolute()),
                             output=str(Path(output).absolute()) if output else None,
                             output_format=file_format,
                             on_matches=count_rows if output else print_rows,
                             on_late_rows=status.add_routed, available_now=until_idle)
    else:
        frame = run_statement(spark, text)
        if not frame.isStreaming:
            raise click.UsageError("the statement reads no stream: use `sparkcep run` for tables")
        writer = frame.writeStream.outputMode("append").option("checkpointLocation", checkpoint)
        if output:
            writer = writer.format(file_format).option("path", output)
        else:
            writer = writer.foreachBatch(print_batch)
        if until_idle:
            writer = writer.trigger(availableNow=True)
        from sparkcep.runtime.streaming import state_partitions

        with state_partitions(spark):
            query = writer.start()
    silence_duplicate_logging(spark, (STREAM_FAILURE_LOGGER,))  # printed below, typed
    seen = -1
    try:
        while True:
            try:
                finished = query.awaitTermination(0.5)
            except Exception as error:  # the query stopped with an error: the typed one
                raise stream_failure(error, text) from None
            for progress in [p for p in query.recentProgress if p["batchId"] > seen]:
                seen = progress["batchId"]
                line = status.line(progress, printed["count"] if late_rows or not output else None)
                if not quiet:
                    click.echo(line, err=True)
            if finished:
                break
    except KeyboardInterrupt:
        if not quiet:
            click.echo("sparkcep: stopping (the checkpoint keeps the state)", err=True)
    finally:
        query.stop()
    return status.matches_out


def split_demo_ticks(data: Path, folder: Path, files: int = 8) -> None:
    """The bundled ticks as ``files`` CSV files of consecutive times (a stream's arrivals), each
    file's rows shuffled within it, with increasing modification times (the file source reads
    them in that order)."""
    import os
    import random

    lines = (data / "ticks.csv").read_text().splitlines()
    header, rows = lines[0], sorted(lines[1:], key=lambda line: line.split(",")[1])
    size = -(-len(rows) // files)
    rng = random.Random(0)
    for i in range(files):
        part = rows[i * size:(i + 1) * size]
        rng.shuffle(part)
        path = folder / f"ticks-{i:02d}.csv"
        path.write_text("\n".join([header, *part]) + "\n")
        os.utime(path, (1_000_000 + i, 1_000_000 + i))
    (folder / "ticks.schema").write_text((data / "ticks.schema").read_text())


__all__ = ["check_sources", "register_sources", "run_stream", "split_demo_ticks"]
