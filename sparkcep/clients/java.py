"""Java 17 or newer is the one system requirement (Spark runs on the JVM); ``require_java`` checks
it up front so a missing or old JVM is a one-line message, not a Py4J stack trace."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

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
