"""The ``sparkcep`` command line: run, explain, demo (and serve, for SQL clients).

Every user mistake ends as one message with its code and position on stderr and exit status 2;
a bug in sparkcep ends as one ``[INTERNAL_ERROR]`` line and exit status 1; nothing prints a Python
traceback. ``run`` checks its arguments and compiles the statement before Spark starts.
"""

from __future__ import annotations

import contextlib
import sys
import time
from importlib import resources
from pathlib import Path

import click

from sparkcep.clients.tables import check_tables, register_tables
from sparkcep.errors import SparkCepError


def _fail(error: Exception) -> None:
    click.secho(str(error), fg="red", err=True)
    sys.exit(2)


def _internal(error: Exception) -> None:
    """A bug, not a user mistake: one line naming it, exit status 1."""
    detail = str(error).strip().splitlines()
    click.secho(f"[INTERNAL_ERROR] sparkcep failed ({type(error).__name__}"
                + (f": {detail[0]}" if detail else "") + "); please report it with the statement",
                fg="red", err=True)
    sys.exit(1)


def _spark_failure(error: Exception, text: str) -> None:
    """An error Spark raised for the user's statement, restated against the user's text."""
    from sparkcep.runtime.spark_errors import restate_for_text

    _fail(restate_for_text(error, text))


@contextlib.contextmanager
def _reporting(text: str):
    """Around what runs the user's statement on Spark: a SparkCepError is reported as it is, any
    other error as Spark's about the statement, restated against the user's text."""
    try:
        yield
    except SparkCepError as error:
        _fail(error)
    except click.ClickException:
        raise
    except Exception as error:  # Spark's own errors about the statement
        _spark_failure(error, text)


def _statement(file: str | None, execute: str | None) -> str:
    if execute:
        return execute
    if file:
        return Path(file).read_text()
    raise click.UsageError("give a .sql file or -e 'SQL'")


def _show(frame, output_format: str, output: str | None) -> int | None:
    """Print or write ``frame``; the number of rows (None when written as Parquet)."""
    if output_format == "parquet":
        if not output:
            raise click.UsageError("--format parquet needs --output PATH")
        frame.write.mode("overwrite").parquet(output)
        return None
    rows = frame.collect()
    columns = frame.columns
    if output_format == "csv":
        import csv

        stream = open(output, "w", newline="") if output else sys.stdout
        writer = csv.writer(stream)
        writer.writerow(columns)
        writer.writerows([["" if v is None else v for v in row] for row in rows])
        return len(rows)
    if output_format == "json":
        import json

        text = "\n".join(json.dumps(row.asDict(recursive=True), default=str) for row in rows)
        (Path(output).write_text(text + "\n") if output else click.echo(text))
        return len(rows)
    cells = [[("NULL" if v is None else str(v)) for v in row] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    line = "-+-".join("-" * w for w in widths)
    click.echo(" | ".join(c.ljust(w) for c, w in zip(columns, widths)))
    click.echo(line)
    for row in cells:
        click.echo(" | ".join(v.ljust(w) for v, w in zip(row, widths)))
    click.secho(f"({len(rows)} rows)", dim=True)
    return len(rows)


@click.group()
def main() -> None:
    """MATCH_RECOGNIZE and complex event processing for Spark SQL."""


@main.command()
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option("-e", "--execute", help="the SQL statement to run")
@click.option("-t", "--table", "tables", multiple=True, help="NAME=PATH (CSV, JSON, Parquet)")
@click.option("-f", "--format", "output_format", default="table",
              type=click.Choice(["table", "csv", "json", "parquet"]))
@click.option("-o", "--output", help="write the result to this path")
@click.option("--master", default="local[2]", show_default=True)
@click.option("-q", "--quiet", is_flag=True, help="no progress lines or bar on stderr")
def run(file, execute, tables, output_format, output, master, quiet) -> None:
    """Run a statement (a .sql file or -e) on Spark and print the result."""
    from sparkcep.compiler.rewrite import compile_statement
    from sparkcep.compiler.statement_rules import check_statement

    text = _statement(file, execute)
    if output_format == "parquet" and not output:
        raise click.UsageError("--format parquet needs --output PATH")
    try:
        # arguments, syntax and analysis errors before Spark starts
        check_tables(tables)
        check_statement(text)
        compile_statement(text)
        check_tables(tables, text)
    except SparkCepError as error:
        _fail(error)
    except click.ClickException:
        raise
    except Exception as error:  # noqa: BLE001 - a bug in sparkcep, reported in one line
        _internal(error)
    started = time.monotonic()
    with _reporting(text):
        from sparkcep.clients.progress import progress
        from sparkcep.clients.session import local_session
        from sparkcep.runtime.statement import run_statement

        spark = local_session(master)
        _note(quiet, f"sparkcep: Spark {spark.version} on {master} ready, "
                     f"{time.monotonic() - started:.1f}s")
        register_tables(spark, tables)
        with progress(spark, quiet=quiet):
            count = _show(run_statement(spark, text), output_format, output)
        if count is not None:
            _note(quiet, f"sparkcep: {count} rows, {time.monotonic() - started:.1f}s")


def _note(quiet: bool, line: str) -> None:
    """A progress line on stderr when it is not a terminal (a terminal shows the bar)."""
    if not quiet and not sys.stderr.isatty():
        click.echo(line, err=True)


def _spark_message(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


@main.command()
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option("-e", "--execute", help="the SQL statement to explain")
@click.option("--dot", is_flag=True,
              help="print only the automaton as Graphviz DOT (pipe it to: dot -Tpng -o a.png)")
@click.option("--png", "png", type=click.Path(dir_okay=False),
              help="render the automaton to this PNG file (needs Graphviz's dot)")
@click.option("--svg", "svg", type=click.Path(dir_okay=False),
              help="render the automaton to this SVG file (needs Graphviz's dot)")
@click.option("--analyze", is_flag=True,
              help="run the query on Spark and report, per clause, rows, matches, DEFINE counts, "
                   "runs per automaton state and the closest misses (docs/explain.md)")
@click.option("-t", "--table", "tables", multiple=True, help="with --analyze: NAME=PATH (CSV, JSON, Parquet)")
@click.option("--partition", help="with --analyze: the partition whose closest miss to show, "
                                  "e.g. \"user_id = 'u42'\" (as FOR PARTITION (...))")
@click.option("--master", default="local[2]", show_default=True)
def explain(file, execute, dot, png, svg, analyze, tables, partition, master) -> None:
    """Show the Spark SQL, the compiled pattern, how it will run, and its automaton (no Spark
    needed); with --analyze, run it and say where its runs die (why a result is empty)."""
    from sparkcep.compiler.explain import explain_dot, explain_statement

    text = _statement(file, execute)
    if analyze or tables or partition:
        _explain_analyze(text, tables, partition, master, dot, png, svg)
        return
    try:
        if dot or png or svg:
            graph = explain_dot(text)
            for path, kind in ((png, "png"), (svg, "svg")):
                if path:
                    _render(graph, kind, path)
            if dot or not (png or svg):
                click.echo(graph)
            return
        click.echo(explain_statement(text))
    except SparkCepError as error:
        _fail(error)
    except click.ClickException:
        raise
    except Exception as error:  # noqa: BLE001 - a bug in sparkcep, reported in one line
        _internal(error)


def _explain_analyze(text, tables, partition, master, dot, png, svg) -> None:
    """``explain --analyze``: the report of EXPLAIN ANALYZE as text, or its picture."""
    from sparkcep.compiler import explain_analyze as ea

    try:
        if ea.is_explain_analyze(text):
            statement = ea.parse_statement(text)
            if partition:
                raise click.UsageError("give the partition once: FOR PARTITION in the statement "
                                       "or --partition")
        else:
            statement = ea.statement_for(text, partition)
        check_tables(tables)
        check_statement_text(statement.query)
        check_tables(tables, statement.query)
    except SparkCepError as error:
        _fail(error)
    with _reporting(text):
        from sparkcep.clients.session import local_session
        from sparkcep.runtime.explain_analyze import analyze_statement

        spark = local_session(master)
        register_tables(spark, tables)
        result = analyze_statement(spark, statement.text, statement=statement)
        if dot or png or svg:
            graph = result.dot()
            for path, kind in ((png, "png"), (svg, "svg")):
                if path:
                    _render(graph, kind, path)
            if dot:
                click.echo(graph)
            if not (png or svg or dot):
                click.echo(graph)
            return
        click.echo(result.text())


def _render(graph: str, kind: str, path: str) -> None:
    import shutil
    import subprocess

    dot = shutil.which("dot")
    if dot is None:
        raise click.UsageError(f"--{kind} needs Graphviz's dot on PATH (or use --dot | dot -T{kind})")
    result = subprocess.run([dot, f"-T{kind}", "-o", path], input=graph, text=True,
                            capture_output=True)
    if result.returncode != 0:
        raise click.ClickException(f"dot failed: {result.stderr.strip()}")


@main.command()
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option("-e", "--execute", help="the SQL statement to run")
@click.option("-s", "--source", "sources", multiple=True,
              help="NAME=FOLDER: CSV (with a header), JSON or Parquet files read as a stream")
@click.option("--checkpoint", type=click.Path(file_okay=False),
              help="the query's checkpoint folder (progress and state; a restart resumes there); "
                   "default: a new temporary folder")
@click.option("-f", "--format", "output_format", default="table",
              type=click.Choice(["table", "csv", "json", "parquet"]))
@click.option("-o", "--output", help="append the matches as files to this folder")
@click.option("--late-rows", type=click.Path(file_okay=False),
              help="write the late rows (behind the watermark) to this folder as Parquet, one "
                   "folder per micro-batch, instead of dropping them (docs/streaming.md)")
@click.option("--files-per-trigger", default=1, show_default=True, type=int,
              help="files read per micro-batch")
@click.option("--until-idle", is_flag=True,
              help="stop once the files there now are processed (default: run until Ctrl-C)")
@click.option("--exchange", type=click.Choice(["rows", "pandas"]), default="rows",
              show_default=True,
              help="how rows reach the Python operators: pandas pays when a key brings hundreds "
                   "of rows per micro-batch (docs/streaming.md, \"How rows reach Python\")")
@click.option("--master", default="local[2]", show_default=True)
@click.option("-q", "--quiet", is_flag=True, help="no status lines on stderr")
def stream(file, execute, sources, checkpoint, output_format, output, late_rows,
           files_per_trigger, until_idle, exchange, master, quiet) -> None:
    """Run a statement over streams of files continuously: its matches as they are complete,
    and per micro-batch a line with rows in, matches out, state size, watermark, late rows."""
    from sparkcep.clients.stream_runner import check_sources

    text = _statement(file, execute)
    if output_format == "parquet" and not output:
        raise click.UsageError("--format parquet needs --output FOLDER")
    try:
        check_sources(sources)
        check_statement_text(text)
    except SparkCepError as error:
        _fail(error)
    _stream(text, sources, checkpoint, output_format, output, files_per_trigger, until_idle,
            master, quiet, late_rows, exchange)


def check_statement_text(text: str) -> None:
    """Syntax and the clause's own rules, before Spark starts; a stream's rules too when the
    statement reads ``STREAM(t) WATERMARK ...`` (a streaming view is known to Spark only)."""
    from sparkcep.compiler.rewrite import compile_statement
    from sparkcep.compiler.statement_rules import check_statement
    from sparkcep.compiler.streaming_rules import declares_stream

    check_statement(text)
    compile_statement(text, streaming=declares_stream(text))


def _stream(text, sources, checkpoint, output_format, output, files_per_trigger, until_idle,
            master, quiet, late_rows=None, exchange="rows") -> None:
    import tempfile

    started = time.monotonic()
    with _reporting(text):
        from sparkcep.clients.session import local_session
        from sparkcep.clients.stream_runner import register_sources, run_stream

        spark = local_session(master, streaming=True, spark_sparkcep_streamExchange=exchange)
        _note(quiet, f"sparkcep: Spark {spark.version} on {master} ready, "
                     f"{time.monotonic() - started:.1f}s")
        register_sources(spark, sources, files_per_trigger)
        with tempfile.TemporaryDirectory(prefix="sparkcep-checkpoint-") as scratch:
            count = run_stream(spark, text, output_format, output, checkpoint or scratch,
                               until_idle, quiet, late_rows=late_rows)
        if not quiet:
            click.echo(f"sparkcep: {count} matches, {time.monotonic() - started:.1f}s", err=True)


@main.command()
@click.option("--master", default="local[2]", show_default=True)
@click.option("--stream", "streaming", is_flag=True,
              help="the streaming demo: the ticks arrive as 8 files, V shapes reported live")
def demo(master, streaming) -> None:
    """Run a V-shape query over bundled stock ticks on local Spark (--stream: continuously)."""
    from sparkcep.clients.session import local_session
    from sparkcep.runtime.statement import run_statement

    data = resources.files("sparkcep") / "data"
    if streaming:
        _stream_demo(data, master)
        return
    text = (data / "demo.sql").read_text()
    click.secho(text.strip(), dim=True)
    try:
        spark = local_session(master)
        with resources.as_file(data / "ticks.csv") as path:
            register_tables(spark, (f"ticks={path}",))
            _show(run_statement(spark, text), "table", None)
    except SparkCepError as error:
        _fail(error)
    except Exception as error:  # noqa: BLE001 - the bundled query failing is a bug
        _internal(error)


def _stream_demo(data, master) -> None:
    """The bundled ticks split into 8 files of consecutive times, streamed one file per
    micro-batch through ``stream_demo.sql``; stops when the files are processed."""
    import tempfile

    from sparkcep.clients.stream_runner import split_demo_ticks

    text = (data / "stream_demo.sql").read_text()
    click.secho(text.strip(), dim=True)
    with tempfile.TemporaryDirectory(prefix="sparkcep-demo-") as scratch, \
            resources.as_file(data) as folder:
        source = Path(scratch) / "ticks"
        source.mkdir()
        split_demo_ticks(Path(folder), source)
        _stream(text, (f"ticks={source}",), None, "table", None, 1, True, master, False)
        click.secho("(V shapes of the last half hour stay open until later ticks move the "
                    "watermark past them)", dim=True)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="address to listen on (non-loopback needs --password-file, or --token-file "
                   "with --connect)")
@click.option("--port", type=int, help="port  [default: 10000; 15002 with --connect]")
@click.option("--http", is_flag=True, help="HTTP transport (path cliservice) instead of binary")
@click.option("--connect", is_flag=True,
              help="a Spark Connect server (sc://HOST:PORT) instead of the Thrift server")
@click.option("--master", default="local[2]", show_default=True)
@click.option("--conf", "confs", multiple=True, metavar="KEY=VALUE", help="a Spark setting (repeatable)")
@click.option("-t", "--table", "tables", multiple=True, help="NAME=PATH (CSV, JSON, Parquet)")
@click.option("--password-file", type=click.Path(exists=True, dir_okay=False),
              help="file of user:password lines; clients must log in with one of them")
@click.option("--token-file", type=click.Path(exists=True, dir_okay=False),
              help="with --connect: file holding the token every Spark Connect client must send")
def serve(host, port, http, connect, master, confs, tables, password_file, token_file) -> None:
    """Serve JDBC/ODBC clients and BI tools (Spark Thrift server), or Spark Connect clients
    (--connect), with MATCH_RECOGNIZE."""
    import logging

    from sparkcep.clients.connect_server import DEFAULT_PORT, ConnectListener
    from sparkcep.clients.server import ServerOptions, ThriftListener, parse_conf
    from sparkcep.clients.server import serve as run_server

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("py4j").setLevel(logging.WARNING)
    if port is None:
        port = DEFAULT_PORT if connect else ServerOptions.port
    try:
        options = ServerOptions(host=host, port=port, http=http, master=master,
                                conf=parse_conf(confs), tables=tables, password_file=password_file,
                                connect=connect, token_file=token_file)
        listener = ConnectListener() if connect else ThriftListener()
        status = run_server(options, echo=lambda line: click.echo(line), listener=listener)
    except SparkCepError as error:
        _fail(error)
    except Exception as error:  # Spark's own errors: first line only
        _fail(_spark_message(error))
    sys.stdout.flush()
    sys.exit(status)


if __name__ == "__main__":  # pragma: no cover
    main()
