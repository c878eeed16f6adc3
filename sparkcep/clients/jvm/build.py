"""Build ``sparkcep/clients/jars/sparkcep-extension.jar`` from the Java sources next to this file.

    python -m sparkcep.clients.jvm.build            # rebuild the jar (needs a JDK 17+: javac)
    python -m sparkcep.clients.jvm.build --check    # exit 1 when the jar is missing or older than the sources

Compiles with ``javac --release 17`` against the jars of the installed pyspark; no downloads.
The jar is written with ``zipfile`` (fixed timestamps, so the same sources give the same bytes)
and records the SHA-256 of the sources it was built from, which ``--check`` and the tests compare.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
JAR = HERE.parent / "jars" / "sparkcep-extension.jar"
SOURCE_HASH_ENTRY = "META-INF/sparkcep-sources.sha256"
_EPOCH = (1980, 1, 1, 0, 0, 0)


def sources() -> list[Path]:
    return sorted(HERE.glob("*.java"))


def source_hash() -> str:
    digest = hashlib.sha256()
    for path in sources():
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def jar_source_hash(jar: Path = JAR) -> str | None:
    if not jar.exists():
        return None
    with zipfile.ZipFile(jar) as archive:
        try:
            return archive.read(SOURCE_HASH_ENTRY).decode().strip()
        except KeyError:
            return None


def pyspark_jars() -> Path:
    import pyspark

    return Path(pyspark.__file__).resolve().parent / "jars"


def _javac() -> str:
    java_home = os.environ.get("JAVA_HOME")
    candidate = Path(java_home, "bin", "javac") if java_home else None
    if candidate is not None and candidate.exists():
        return str(candidate)
    found = shutil.which("javac")
    if not found:
        raise SystemExit("javac not found: building the extension jar needs a JDK 17+ "
                         "(running it needs only a JRE)")
    return found


def build(output: Path = JAR) -> Path:
    with tempfile.TemporaryDirectory(prefix="sparkcep-jvm-") as tmp:
        classes = Path(tmp, "classes")
        classes.mkdir()
        command = [
            _javac(), "--release", "17", "-nowarn", "-encoding", "UTF-8",
            "-cp", str(pyspark_jars() / "*"), "-d", str(classes),
            *[str(p) for p in sources()],
        ]
        subprocess.run(command, check=True)
        output.parent.mkdir(parents=True, exist_ok=True)
        partial = output.with_suffix(".jar.tmp")
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
            def add(name: str, data: bytes) -> None:
                info = zipfile.ZipInfo(name, _EPOCH)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                archive.writestr(info, data)

            add("META-INF/MANIFEST.MF", b"Manifest-Version: 1.0\r\nCreated-By: sparkcep.jvm.build\r\n\r\n")
            add(SOURCE_HASH_ENTRY, (source_hash() + "\n").encode())
            for path in sorted(classes.rglob("*.class")):
                add(path.relative_to(classes).as_posix(), path.read_bytes())
        partial.replace(output)
    return output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sparkcep.clients.jvm.build", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that the jar is up to date")
    args = parser.parse_args(argv)
    if args.check:
        if jar_source_hash() != source_hash():
            print(f"{JAR} is missing or out of date: run python -m sparkcep.clients.jvm.build", file=sys.stderr)
            return 1
        print(f"{JAR} is up to date")
        return 0
    print(build())
    return 0


if __name__ == "__main__":
    sys.exit(main())
