"""``sparkcep serve``: the Spark Thrift server (HiveServer2 protocol) with MATCH_RECOGNIZE.

JDBC/ODBC clients, BI tools and PyHive/SQLAlchemy connect to it and send the sparkcep dialect
unmodified: the session runs with sparkcep's parser extension (``sparkcep.clients.extension``), so every
statement goes through the same rewrite path as ``spark.sql``. The server runs in this process
(``HiveThriftServer2.startWithContext``) with ``spark.sql.hive.thriftServer.singleSession=true``:
all connections share the driver's session and the functions the rewriter registers. The tables
(``--table``) are tables of the session's catalog in ``default`` over the files (not temp views),
so that a client's table browser lists them and ``DESCRIBE default.NAME`` finds them.

Safety: without ``--password-file`` the server only binds a loopback address in binary mode
(``hive.server2.authentication=NONE``). HTTP mode needs a password file too, because Spark's HTTP
transport listens on every interface whatever the bind host. Derby, warehouse, scratch and
operation-log files go to a temporary folder that is removed at shutdown.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import shutil
import signal
import socket
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from sparkcep.errors import SparkCepError

log = logging.getLogger("sparkcep.clients.server")


class ServerError(SparkCepError):
    """``sparkcep serve`` cannot start as asked."""


@dataclass
class ServerOptions:
    host: str = "127.0.0.1"
    port: int = 10000
    http: bool = False
    master: str = "local[2]"
    conf: dict[str, str] = field(default_factory=dict)
    tables: tuple[str, ...] = ()
    password_file: str | None = None
    app_name: str = "sparkcep-serve"
    #: Spark Connect instead of the Thrift server (``clients.connect_server``)
    connect: bool = False
    #: the Spark Connect bearer token's file (``--token-file``)
    token_file: str | None = None


def is_loopback(host: str) -> bool:
    """Whether every address ``host`` names is a loopback address."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(info[4][0]).is_loopback for info in infos)


def read_password_file(path: str) -> dict[str, str]:
    """The ``user:password`` entries of a password file (checked before Spark starts)."""
    users: dict[str, str] = {}
    for number, raw in enumerate(Path(path).read_text().splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        user, sep, secret = line.partition(":")
        if not sep or not user or not secret:
            raise ServerError(
                "BAD_PASSWORD_FILE",
                f"{path} line {number}: expected 'user:password' or 'user:sha256:<hex digest>'",
            )
        users[user] = secret
    if not users:
        raise ServerError("BAD_PASSWORD_FILE", f"{path} has no 'user:password' line")
    return users


def jdbc_url(host: str, port: int, http: bool) -> str:
    url = f"jdbc:hive2://{host}:{port}/default"
    if http:
        url += ";transportMode=http;httpPath=cliservice"
    return url


def sqlalchemy_url(host: str, port: int, http: bool, user: str = "USER") -> str:
    if http:
        return f"hive+http://{user}@{host}:{port}/default"
    return f"hive://{user}@{host}:{port}/default"


#: HiveServer2 settings that decide where the server listens and who may connect. sparkcep sets
#: them from --host, --port, --http and --password-file; a ``--conf`` (under any of the prefixes
#: Spark copies into the Hive configuration) could otherwise open a listener on every interface
#: without authentication, so they are refused.
LISTENER_SETTINGS = (
    "hive.server2.thrift.bind.host",
    "hive.server2.thrift.http.bind.host",
    "hive.server2.bind.host",
    "hive.server2.transport.mode",
    "hive.server2.thrift.port",
    "hive.server2.thrift.http.port",
    "hive.server2.authentication",
    "hive.server2.custom.authentication.class",
    "hive.server2.thrift.sasl.qop",
)
#: Spark settings that open or move a Spark Connect listener or set who may connect to it (a
#: ``spark.plugins`` naming SparkConnectPlugin starts one on every interface); sparkcep sets them
#: from --connect, --host, --port and --token-file only. ``spark.remote`` / ``spark.api.mode``
#: would make the driver a Connect client (or start PySpark's own local Connect server).
SPARK_LISTENER_SETTINGS = (
    "spark.connect.grpc.binding.address",
    "spark.connect.grpc.binding.port",
    "spark.connect.grpc.port.maxRetries",
    "spark.connect.authenticate.token",
    "spark.connect.grpc.interceptor.classes",
    "spark.remote",
    "spark.api.mode",
)
_CONF_PREFIXES = ("spark.hadoop.", "spark.hive.", "spark.")
HIVE_PREFIX = "spark.hadoop."
#: environment variables HiveServer2 prefers to its configuration
LISTENER_ENVIRONMENT = ("HIVE_SERVER2_THRIFT_BIND_HOST", "HIVE_SERVER2_THRIFT_PORT",
                        "HIVE_SERVER2_TRANSPORT_MODE", "HIVE_SERVER2_THRIFT_HTTP_PORT",
                        # Spark Connect's token (set by --token-file only) and PySpark's switch
                        # that would make the driver a Connect client
                        "SPARK_CONNECT_AUTHENTICATE_TOKEN", "SPARK_REMOTE", "SPARK_CONNECT_MODE_ENABLED")


def listener_setting(key: str, value: str = "") -> str | None:
    """The HiveServer2 or Spark Connect listener/authentication setting ``key`` names, if any
    (case-insensitive, HiveServer2's with or without Spark's ``spark.hadoop.`` / ``spark.hive.``
    prefixes); ``spark.plugins`` counts when ``value`` names Spark Connect's plugin."""
    name = key.strip().lower()
    if name in SPARK_LISTENER_SETTINGS:
        return name
    if name == "spark.plugins" and "connect" in value.lower():
        return name
    for prefix in _CONF_PREFIXES:
        if name.startswith(prefix) and name[len(prefix):].startswith("hive."):
            name = name[len(prefix):]
            break
    for setting in LISTENER_SETTINGS:
        if name == setting or name.startswith(setting + "."):
            return setting
    return None


def check_conf(options: ServerOptions) -> None:
    """No ``--conf`` may move or open a listener (either mode)."""
    for key, value in options.conf.items():
        setting = listener_setting(key, value)
        if setting is not None:
            raise ServerError(
                "INSECURE_BIND",
                f"--conf {key} is not accepted: where the server listens and who may connect are "
                "set by --connect, --host, --port, --http, --password-file and --token-file only "
                "(a non-loopback listener needs authentication)",
            )


def check_options(options: ServerOptions) -> None:
    """Refuse unsafe or impossible settings of the Thrift server before anything starts."""
    check_conf(options)
    if options.token_file is not None:
        raise ServerError("BAD_OPTION", "--token-file is for Spark Connect (--connect); the "
                          "Thrift server takes --password-file")
    if options.password_file is None:
        if options.http:
            raise ServerError(
                "INSECURE_BIND",
                "--http needs --password-file: Spark's HTTP transport listens on every network "
                "interface whatever --host says, so it must not run without authentication",
            )
        if not is_loopback(options.host):
            raise ServerError(
                "INSECURE_BIND",
                f"--host {options.host} is not a loopback address; serving other machines needs "
                "--password-file (user:password lines)",
            )
    else:
        read_password_file(options.password_file)
    check_port("0.0.0.0" if options.http else options.host, options.port)


def check_port(host: str, port: int) -> None:
    """``port`` is a port number and free on ``host``."""
    if not 0 < port < 65536:
        raise ServerError("BAD_PORT", f"--port must be between 1 and 65535, got {port}")
    probe = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        probe.bind((host, port))
    except OSError as error:
        raise ServerError("PORT_IN_USE", f"cannot listen on {host}:{port}: {error.strerror}") from None
    finally:
        probe.close()


def spark_settings(options: ServerOptions, workdir: str, listener: dict | None = None) -> dict[str, str]:
    """The Spark (and, for the Thrift server, HiveServer2) settings for the session; ``listener``:
    the Spark Connect listener's settings. ``--conf`` entries win."""
    work = Path(workdir)
    for name in ("warehouse", "operation_logs", "scratch", "local_scratch", "resources"):
        (work / name).mkdir(exist_ok=True)
    auth = "CUSTOM" if options.password_file else "NONE"
    hive = {
        "hive.server2.thrift.bind.host": options.host,
        "hive.server2.transport.mode": "http" if options.http else "binary",
        "hive.server2.thrift.port": str(options.port),
        "hive.server2.thrift.http.port": str(options.port),
        "hive.server2.authentication": auth,
        "hive.server2.logging.operation.log.location": str(work / "operation_logs"),
        "hive.exec.scratchdir": str(work / "scratch"),
        "hive.exec.local.scratchdir": str(work / "local_scratch"),
        # Hive deletes this folder when a session closes: one per session (Hive's own default
        # pattern), or a closing session removes it under a session that is opening
        "hive.downloaded.resources.dir": str(work / "resources" / "${hive.session.id}_resources"),
    }
    settings = {
        # a client sees a failed query's message, never the server's files: an error raised in
        # a Python worker is sent as its text alone (its first line then carries sparkcep's
        # "[CODE] message (line L, column C)"), without a traceback of server paths
        "spark.sql.execution.pyspark.udf.hideTraceback.enabled": "true",
        "spark.sql.warehouse.dir": str(work / "warehouse"),
    }
    if not options.connect:
        settings["spark.sql.hive.thriftServer.singleSession"] = "true"
        # Spark copies spark.hadoop.* into the Hadoop configuration the Thrift server's HiveConf
        # is built from; plain hive.* keys would work too, but spark-submit prints a warning for
        # each ("Ignoring non-Spark config property")
        settings.update({HIVE_PREFIX + key: value for key, value in hive.items()})
    java_options = [f"-Dderby.stream.error.file={work / 'derby.log'}"]
    if options.password_file:
        password_file = str(Path(options.password_file).resolve())
        # Hive's authentication factory reads a fresh HiveConf (system properties), not the
        # session's: set the class there too.
        authenticator = "sparkcep.jvm.PasswordFileAuthenticator"
        settings[HIVE_PREFIX + "hive.server2.custom.authentication.class"] = authenticator
        java_options.append(f"-Dhive.server2.custom.authentication.class={authenticator}")
        java_options.append(f"-Dsparkcep.passwordFile={password_file}")
    user = dict(options.conf)
    if user.get("spark.sql.catalogImplementation") == "hive":
        settings["spark.hadoop.javax.jdo.option.ConnectionURL"] = (
            f"jdbc:derby:;databaseName={work / 'metastore_db'};create=true"
        )
    # on the driver's system class path as well, for classes Hive loads by name (authenticator)
    from sparkcep.clients.extension import jar_path

    class_path = [p for p in user.pop("spark.driver.extraClassPath", "").split(os.pathsep) if p]
    settings["spark.driver.extraClassPath"] = os.pathsep.join([jar_path(), *class_path])
    extra = user.pop("spark.driver.extraJavaOptions", "")
    settings["spark.driver.extraJavaOptions"] = " ".join([*java_options, extra]).strip()
    settings.update(listener or {})
    settings.update(user)
    return settings


def wait_for_port(host: str, port: int, seconds: float) -> bool:
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=1):
                return True
        except OSError:
            time.sleep(0.2)
    return False


class ThriftListener:
    """The Spark Thrift server (HiveServer2 protocol) in the driver's JVM, sharing its session."""

    def check(self, options: ServerOptions) -> None:
        check_options(options)

    def settings(self, options: ServerOptions, workdir: str) -> dict[str, str]:
        return spark_settings(options, workdir)

    def start(self, spark, options: ServerOptions):
        """Start listening; returns a function that stops the server."""
        jvm = spark.sparkContext._jvm
        if options.password_file:
            jvm.sparkcep.jvm.PasswordFileAuthenticator.setPasswordFile(
                str(Path(options.password_file).resolve())
            )
        thrift = jvm.org.apache.spark.sql.hive.thriftserver.HiveThriftServer2
        server = thrift.startWithContext(spark._jsparkSession.sqlContext())
        # statements whose run-time errors are restated against the client's text
        jvm.sparkcep.jvm.SparkCepOperationManager.install(server)
        if not wait_for_port(client_host(options.host), options.port, 60):
            server.stop()
            raise ServerError(
                "SERVER_NOT_LISTENING",
                f"the Thrift server did not start listening on {options.host}:{options.port}",
            )
        return server.stop

    def describe(self, spark, options: ServerOptions) -> list[str]:
        mode = "http" if options.http else "binary"
        auth = "password file" if options.password_file else "none (loopback only)"
        host = client_host(options.host)
        return [
            f"sparkcep serve: Spark {spark.version} on {spark.sparkContext.master}, "
            f"Thrift server ({mode}, authentication: {auth}) on {options.host}:{options.port}",
            f"JDBC URL: {jdbc_url(host, options.port, options.http)}",
            f"SQLAlchemy URL: {sqlalchemy_url(host, options.port, options.http)}",
        ]


def client_host(host: str) -> str:
    """The address a client on this machine uses for a server listening on ``host``."""
    return "127.0.0.1" if host in ("0.0.0.0", "::") else host


def serve(options: ServerOptions, echo=print, stop: threading.Event | None = None,
          listener=None) -> int:
    """Run the server until SIGINT/SIGTERM (or ``stop`` is set); the exit status. ``listener``:
    :class:`ThriftListener` (default) or ``clients.connect_server.ConnectListener``."""
    listener = listener or ThriftListener()
    listener.check(options)
    stop = stop or threading.Event()
    workdir = tempfile.mkdtemp(prefix="sparkcep-serve-")
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for number in (signal.SIGINT, signal.SIGTERM):
            previous[number] = signal.signal(number, lambda *_: stop.set())
    spark = stop_listener = None
    # the JVM inherits this process's environment, and HiveServer2 (Spark Connect, PySpark)
    # prefers these variables to its configuration: they must not move the listener sparkcep
    # checked
    for name in LISTENER_ENVIRONMENT:
        os.environ.pop(name, None)
    try:
        from sparkcep.clients import extension
        from sparkcep.clients.session import extension_session
        from sparkcep.clients.tables import register_tables

        spark = extension_session(options.master, options.app_name, listener.settings(options, workdir))
        # PySpark's SparkContext installs its own SIGINT handler (cancel jobs, raise
        # KeyboardInterrupt): Ctrl-C must stop the server cleanly instead
        for number in previous:
            signal.signal(number, lambda *_: stop.set())
        if not extension.is_loaded(spark):
            raise ServerError(
                "EXTENSION_NOT_LOADED",
                "the sparkcep parser extension did not load, so clients could not use "
                f"MATCH_RECOGNIZE (is {extension.jar_path()} readable?)",
            )
        register_tables(spark, options.tables, shared=True)
        if stop.is_set():
            return 0
        stop_listener = listener.start(spark, options)
        for line in listener.describe(spark, options):
            echo(line)
        echo("press Ctrl-C to stop")
        while not stop.wait(1.0):
            try:
                stopped = spark.sparkContext._jsc.sc().isStopped()
            except Exception:  # the JVM is gone
                stopped = True
            if stopped:
                log.error("sparkcep serve: the Spark context stopped; shutting down")
                return 1
        echo("sparkcep serve: stopping")
        return 0
    except KeyboardInterrupt:  # Ctrl-C while Spark was starting
        echo("sparkcep serve: stopping")
        return 0
    finally:
        if stop_listener is not None:
            try:
                stop_listener()
            except Exception:  # the JVM may be gone already
                pass
        if spark is not None:
            try:
                from sparkcep.clients import extension

                extension.uninstall(spark)
                spark.stop()
            except Exception:
                pass
        for number, handler in previous.items():
            signal.signal(number, handler)
        shutil.rmtree(workdir, ignore_errors=True)


def parse_conf(items: tuple[str, ...]) -> dict[str, str]:
    conf = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ServerError("BAD_CONF", f"--conf takes KEY=VALUE, got {item!r}")
        conf[key.strip()] = value
    return conf


__all__ = ["ServerOptions", "serve", "ThriftListener", "jdbc_url", "sqlalchemy_url", "is_loopback", "ServerError"]
