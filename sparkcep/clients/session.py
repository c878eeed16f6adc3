"""Starting a local Spark session the way sparkcep needs it, with or without the parser extension
(``clients.extension``). Java 17 or newer is checked first (``clients.java``); the JVM's standard
error is read by ``clients.jvm_output`` (Spark's Python workers' chatter goes to logging)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from sparkcep.clients import extension
from sparkcep.clients.java import require_java

#: sparkcep's local settings; the caller's entries win.
LOCAL_SETTINGS = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.shuffle.partitions": "4",
    "spark.driver.memory": "2g",
    "spark.sql.session.timeZone": "UTC",
}


#: the JVM of a session sparkcep starts to run streams (``sparkcep stream``, the stream demo,
#: ``local_session(streaming=True)``) compiles hot code with the quick JIT compiler only (C1):
#: a stream runs the same small plan every micro-batch, and the optimising compiler (C2) spent
#: more CPU compiling Spark's code than it saved, on a 2-core machine about half the JVM's CPU
#: for minutes after the start, which doubled every micro-batch's time (docs/streaming.md,
#: "Latency"). It is a JVM option, so it applies to a JVM sparkcep starts only.
STREAM_JAVA_OPTIONS = "-XX:TieredStopAtLevel=1"

#: Hadoop settings of a session sparkcep starts to run streams. Spark writes a stream's offset
#: and commit logs, the file source's log and every state store's changelog through Hadoop's
#: ``FileContext``; for a local path (``file:``) its default wraps the local file system in a
#: checksum layer that writes a ``.crc`` file beside each file and renames both, which took
#: about half of those writes' time in each micro-batch (docs/streaming.md, "Latency"). Only the
#: ``FileContext`` binding changes: the ``FileSystem`` one (``fs.file.impl``) must stay
#: Hadoop's checksummed ``LocalFileSystem``, which RocksDB's snapshot upload requires. A
#: checkpoint written either way is read either way (a file without a ``.crc`` is read
#: unchecked), and the rename that makes each write atomic is the same.
STREAM_HADOOP_SETTINGS = {
    "spark.hadoop.fs.AbstractFileSystem.file.impl": "org.apache.hadoop.fs.local.RawLocalFs",
}
EXECUTOR_JAVA_OPTIONS = "spark.executor.extraJavaOptions"

#: errors only, and no second report of a failed task (see the file)
LOG_CONFIG = Path(__file__).resolve().parent / "log4j2.properties"
JAVA_OPTIONS = "spark.driver.extraJavaOptions"


def quiet_logging(settings: dict[str, str]) -> dict[str, str]:
    """``settings`` with sparkcep's log4j2 configuration for the driver, unless they name one."""
    options = settings.get(JAVA_OPTIONS, "")
    if "log4j2.configurationFile" in options or "log4j.configuration" in options:
        return settings
    quiet = dict(settings)
    quiet[JAVA_OPTIONS] = f"-Dlog4j2.configurationFile={LOG_CONFIG.as_uri()} {options}".strip()
    return quiet


def _start(master: str, app_name: str, settings: dict[str, str]):
    require_java()
    settings = quiet_logging(settings)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark import SparkConf, SparkContext
    from pyspark.sql import SparkSession

    if SparkContext._gateway is None:  # the JVM starts here: its stderr sorted (clients.jvm_output)
        from sparkcep.clients.jvm_output import launch_gateway_with_sorted_output

        conf = SparkConf(loadDefaults=True).setMaster(master).setAppName(app_name)
        for key, value in settings.items():
            conf.set(key, value)
        SparkContext._ensure_initialized(gateway=launch_gateway_with_sorted_output(conf), conf=conf)
    builder = SparkSession.builder.master(master).appName(app_name)
    for key, value in settings.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def local_session(master: str = "local[2]", app_name: str = "sparkcep", streaming: bool = False,
                  **conf):
    """A local SparkSession with sparkcep's recommended settings (``conf``: Spark settings with
    ``_`` for ``.``, e.g. ``spark_sql_shuffle_partitions="8"``); ``streaming``: with the JVM
    options and Hadoop settings for streams (``for_streams``), when this call starts the JVM."""
    settings = dict(LOCAL_SETTINGS)
    settings.update({key.replace("_", "."): str(value) for key, value in conf.items()})
    if streaming:
        settings = for_streams(settings)
    return _start(master, app_name, settings)


def for_streams(settings: dict[str, str]) -> dict[str, str]:
    """``settings`` with ``STREAM_JAVA_OPTIONS`` added to the driver's and executors' Java
    options (in local mode the executor is the driver's JVM), unless they set the JIT already,
    and ``STREAM_HADOOP_SETTINGS`` where they set nothing else."""
    out = {**STREAM_HADOOP_SETTINGS, **settings}
    for key in (JAVA_OPTIONS, EXECUTOR_JAVA_OPTIONS):
        options = out.get(key, "")
        if "TieredStopAtLevel" not in options:
            out[key] = f"{options} {STREAM_JAVA_OPTIONS}".strip()
    return out


def extension_session(master: str = "local[2]", app_name: str = "sparkcep", conf: dict | None = None):
    """Like :func:`local_session`, with sparkcep's Spark SQL parser extension loaded and the
    rewriter installed, so that ``spark.sql`` and anything else parsing SQL in the session (the
    Thrift server) accepts MATCH_RECOGNIZE. ``conf`` maps Spark setting names to values; its
    entries win. If a SparkSession already exists in this process, Spark returns it as it is: the
    extension then cannot be loaded and ``spark.sql`` is wrapped instead (logged)."""
    settings = dict(LOCAL_SETTINGS)
    settings.update({key: str(value) for key, value in (conf or {}).items()})
    spark = _start(master, app_name, extension.spark_conf(settings))
    extension.enable(spark)
    return spark
