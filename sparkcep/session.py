"""Starting a local Spark session the way sparkcep needs it.

Java 17 or newer is the one system requirement; ``require_java`` checks it up front so a missing
or old JVM is a one-line message, not a Py4J stack trace.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

from sparkcep.errors import SparkCepError


class EnvironmentProblem(SparkCepError):
    """The machine lacks something sparkcep needs (e.g. Java 17+)."""


def java_version() -> int | None:
    """The major version of the ``java`` on PATH (or JAVA_HOME), or None when there is none."""
    java_home = os.environ.get("JAVA_HOME")
    java = os.path.join(java_home, "bin", "java") if java_home else shutil.which("java")
    if not java or not os.path.exists(java):
        return None
    try:
        output = subprocess.run(
            [java, "-version"], capture_output=True, text=True, timeout=30
        ).stderr
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r'version "(\d+)(?:\.(\d+))?', output)
    if not found:
        return None
    major = int(found.group(1))
    return int(found.group(2)) if major == 1 and found.group(2) else major


def require_java(minimum: int = 17) -> None:
    version = java_version()
    if version is None:
        raise EnvironmentProblem(
            "JAVA_NOT_FOUND",
            f"Spark needs Java {minimum} or newer, and no 'java' was found on PATH or in JAVA_HOME; "
            f"install a JDK or JRE {minimum}+ (e.g. 'apt-get install openjdk-17-jre-headless')",
        )
    if version < minimum:
        raise EnvironmentProblem(
            "JAVA_TOO_OLD",
            f"Spark needs Java {minimum} or newer; found Java {version}",
        )


def local_session(master: str = "local[2]", app_name: str = "sparkcep", **conf):
    """A local SparkSession with sparkcep's recommended settings."""
    require_java()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master(master)
        .appName(app_name)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.memory", "2g")
        .config("spark.sql.session.timeZone", "UTC")
    )
    for key, value in conf.items():
        builder = builder.config(key.replace("_", "."), value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def extension_session(master: str = "local[2]", app_name: str = "sparkcep", conf: dict | None = None):
    """Like :func:`local_session`, with sparkcep's Spark SQL parser extension loaded, so that
    ``spark.sql`` and anything else parsing SQL in the session (the Thrift server) accepts
    MATCH_RECOGNIZE. ``conf`` maps Spark setting names to values."""
    from sparkcep.extension import session

    return session(master, app_name, conf)
