"""``sparkcep serve --connect``: a Spark Connect server whose sessions accept MATCH_RECOGNIZE.

Spark Connect clients (``pyspark-client``, ``pyspark`` with ``.remote(...)``, the Scala, Go and
Rust clients) send SQL text to the server, where each client session is a session of the
driver's JVM created from its root session (``SparkConnectSessionManager``), so it carries the
root session's extensions: sparkcep's parser (``clients.extension``) parses its statements, and
the Python rewriter registers a statement's functions on that client's own session. The server
runs in this Python driver (``SparkConnectService.start`` on its SparkContext, after the
rewriter is installed), because the parser calls back into it over Py4J.

Safety, as for the Thrift server: without ``--token-file`` it listens on a loopback address only;
with it every call must carry the token (Spark's pre-shared-key interceptor,
``spark.connect.authenticate.token``). Spark Connect has no TLS of its own: a client sends its
token over TLS, or in plain text only to ``localhost`` (gRPC local credentials); a remote client
reaches the server through a TLS-terminating proxy or an SSH tunnel (docs/clients.md).
"""

from __future__ import annotations

from pathlib import Path

from sparkcep.clients.server import (
    ServerError,
    ServerOptions,
    check_conf,
    check_port,
    client_host,
    is_loopback,
    spark_settings,
    wait_for_port,
)

DEFAULT_PORT = 15002
SERVICE = "org.apache.spark.sql.connect.service.SparkConnectService"
#: restates run-time errors against the client's text (``sparkcep/clients/jvm``)
INTERCEPTOR = "sparkcep.jvm.ConnectErrorInterceptor"
#: the shortest token accepted: a pre-shared key is all that stands between the network and a
#: server that runs its clients' Python
MIN_TOKEN_LENGTH = 16


def read_token_file(path: str) -> str:
    """The token in ``path``: its first line that is neither blank nor a ``#`` comment."""
    try:
        lines = Path(path).read_text().splitlines()
    except OSError as error:
        raise ServerError("BAD_TOKEN_FILE", f"cannot read {path}: {error.strerror}") from None
    tokens = [line.strip() for line in lines if line.strip() and not line.strip().startswith("#")]
    if not tokens:
        raise ServerError("BAD_TOKEN_FILE", f"{path} has no token line")
    token = tokens[0]
    if len(token) < MIN_TOKEN_LENGTH or any(c.isspace() for c in token):
        raise ServerError(
            "BAD_TOKEN_FILE",
            f"the token in {path} must be at least {MIN_TOKEN_LENGTH} characters without blanks "
            "(python -c 'import secrets; print(secrets.token_urlsafe(32))' makes one)",
        )
    return token


def check_connect_options(options: ServerOptions) -> None:
    """Refuse unsafe or impossible settings of the Connect server before anything starts."""
    check_conf(options)
    if options.http or options.password_file:
        raise ServerError(
            "BAD_OPTION",
            "--http and --password-file are for the Thrift server; Spark Connect takes "
            "--token-file",
        )
    if options.token_file is not None:
        read_token_file(options.token_file)
    elif not is_loopback(options.host):
        raise ServerError(
            "INSECURE_BIND",
            f"--host {options.host} is not a loopback address; serving other machines over "
            "Spark Connect needs --token-file (clients then send the token)",
        )
    check_port(options.host, options.port)


def connect_settings(options: ServerOptions) -> dict[str, str]:
    """The Spark Connect service's settings: where it listens and who may connect."""
    settings = {
        "spark.connect.grpc.binding.address": options.host,
        "spark.connect.grpc.binding.port": str(options.port),
        # the port checked and announced, not the next free one
        "spark.connect.grpc.port.maxRetries": "0",
        # a failed statement's message is the client's first line; the server's stack trace
        # (its classes and files) stays in the server's log
        "spark.sql.connect.serverStacktrace.enabled": "false",
        # an error raised while a statement runs is restated against the client's text
        "spark.connect.grpc.interceptor.classes": INTERCEPTOR,
    }
    if options.token_file is not None:
        settings["spark.connect.authenticate.token"] = read_token_file(options.token_file)
    return settings


def connect_url(host: str, port: int, token: bool) -> str:
    """The URL a client on this machine connects with. With a token the client must name
    ``localhost`` (PySpark's client sends a token in plain text to ``localhost`` only; to any
    other host over TLS, which Spark Connect does not serve)."""
    if token:
        return f"sc://localhost:{port}/;token=TOKEN"
    return f"sc://{client_host(host)}:{port}"


class ConnectListener:
    """Spark Connect in the driver's JVM (``serve(options, listener=ConnectListener())``)."""

    def check(self, options: ServerOptions) -> None:
        check_connect_options(options)

    def settings(self, options: ServerOptions, workdir: str) -> dict[str, str]:
        return spark_settings(options, workdir, connect_settings(options))

    def start(self, spark, options: ServerOptions):
        """Start listening (the rewriter is installed already); returns a function that stops."""
        jvm = spark.sparkContext._jvm
        service = getattr(jvm, SERVICE)
        service.start(spark.sparkContext._jsc.sc())

        def stop() -> None:
            service.stop(jvm.scala.Option.empty(), jvm.scala.Option.empty())

        if not wait_for_port(client_host(options.host), options.port, 60):
            stop()
            raise ServerError(
                "SERVER_NOT_LISTENING",
                f"Spark Connect did not start listening on {options.host}:{options.port}",
            )
        return stop

    def describe(self, spark, options: ServerOptions) -> list[str]:
        token = options.token_file is not None
        auth = f"token from {options.token_file}" if token else "none (loopback only)"
        return [
            f"sparkcep serve: Spark {spark.version} on {spark.sparkContext.master}, "
            f"Spark Connect (authentication: {auth}) on {options.host}:{options.port}",
            f"Connect URL: {connect_url(options.host, options.port, token)}",
        ]


__all__ = ["ConnectListener", "DEFAULT_PORT", "check_connect_options", "connect_settings",
           "connect_url", "read_token_file"]
