"""``sparkcep.evaluation.java_double_text``: Java's ``Double.toString`` and ``Float.toString`` on
Java 17 and on Java 19+, checked against the JVMs' own answers (``java_double_text.json``,
written by ``record_java_double_text.py`` from ``JavaDoubleText.java`` run on both), against
values worked out by hand from the Java specification and JDK-4511638, and (spark-marked) over
a million values per kind against the JVM Spark runs on, and a newer one when
``SPARKCEP_NEWER_JAVA`` names its ``java`` executable."""

from __future__ import annotations

import json
import os
import shutil
import struct
from pathlib import Path

import pytest

from sparkcep.evaluation.java_double_text import double_text, float_text

HERE = Path(__file__).parent
RECORDED = json.loads((HERE / "java_double_text.json").read_text(encoding="utf-8"))


def _double(bits: str) -> float:
    return struct.unpack(">d", struct.pack(">Q", int(bits, 16)))[0]


def _float(bits: str) -> float:
    return struct.unpack(">f", struct.pack(">I", int(bits, 16)))[0]


def _differences(rows, read, text, java_version: int, column: int) -> list[str]:
    return [f"{bits}: Java {row[column]}, sparkcep {text(read(bits), java_version)}"
            for row in rows for bits in [row[0]] if text(read(bits), java_version) != row[column]]


@pytest.mark.parametrize("java_version, column", [(17, 1), (25, 2)])
def test_recorded_doubles_are_each_jvms_text(java_version, column):
    bad = _differences(RECORDED["doubles"], _double, double_text, java_version, column)
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("java_version, column", [(17, 1), (25, 2)])
def test_recorded_floats_are_each_jvms_text(java_version, column):
    bad = _differences(RECORDED["floats"], _float, float_text, java_version, column)
    assert not bad, "\n".join(bad[:20])


def test_the_recorded_sample_holds_what_tells_the_generations_apart():
    differing = sum(row[1] != row[2] for row in RECORDED["doubles"] + RECORDED["floats"])
    assert differing >= 1000


@pytest.mark.parametrize("x, java_17, java_19", [
    # Java's form: plain from 10^-3 to below 10^7 with at least one digit after the point
    (0.0, "0.0", "0.0"), (-0.0, "-0.0", "-0.0"), (100.0, "100.0", "100.0"), (0.001, "0.001", "0.001"),
    (1e7, "1.0E7", "1.0E7"), (9999999.999999998, "9999999.999999998", "9999999.999999998"),
    (float("nan"), "NaN", "NaN"), (float("-inf"), "-Infinity", "-Infinity"), (1e-5, "1.0E-5", "1.0E-5"),
    # JDK-4511638's examples: Java 17 prints more digits than read back
    (2.82879384806159e17, "2.82879384806159008E17", "2.82879384806159E17"),
    (5.684341886080802e-14, "5.6843418860808015E-14", "5.684341886080802E-14"),
    (2.0**60, "1.15292150460684698E18", "1.152921504606847E18"),  # 19 digits, the last dropped half up
    (1e23, "9.999999999999999E22", "1.0E23"),  # 1e23 + half an ulp is exactly 10^23: not strictly within
    # Double.MIN_VALUE: one digit would do, two are closer (Java 19+'s rule; Java 17 the same here)
    (5e-324, "4.9E-324", "4.9E-324"), (1e-323, "1.0E-323", "9.9E-324"),
])
def test_hand_worked_doubles(x, java_17, java_19):
    assert double_text(x, 17) == java_17
    assert double_text(x, 19) == java_19
    assert double_text(x, 25) == java_19


@pytest.mark.parametrize("x, java_17, java_19", [
    (1.1, "1.1", "1.1"), (1e10, "1.0E10", "1.0E10"), (2.0**-149, "1.4E-45", "1.4E-45"),
    (2.0**-126, "1.17549435E-38", "1.1754944E-38"), (16777216.0, "1.6777216E7", "1.6777216E7"),
    (struct.unpack(">f", bytes.fromhex("6a664443"))[0], "6.9593823E25", "6.9593824E25"),  # 64-bit overflow
])
def test_hand_worked_floats(x, java_17, java_19):
    assert float_text(x, 17) == java_17
    assert float_text(x, 21) == java_19


def _newer_java() -> str | None:
    return os.environ.get("SPARKCEP_NEWER_JAVA")


@pytest.mark.spark
@pytest.mark.parametrize("kind", ["double", "float"])
@pytest.mark.parametrize("which", ["spark", "newer"])
def test_a_million_values_against_the_jvm(kind, which):
    """``JavaDoubleText.java`` over a million values (``SPARKCEP_JAVA_TEXT_COUNT``) on Spark's
    JVM (``java`` on the PATH) or on a newer one: no difference."""
    from tests.evaluation.record_java_double_text import java_texts, java_version

    java = shutil.which("java") if which == "spark" else _newer_java()
    if java is None:
        pytest.skip("no such JVM (SPARKCEP_NEWER_JAVA names a Java 19+ executable)")
    version = int(java_version(java).split(".")[0])
    if which == "newer" and version < 19:
        pytest.skip(f"SPARKCEP_NEWER_JAVA is Java {version}")
    count = int(os.environ.get("SPARKCEP_JAVA_TEXT_COUNT", "1000000"))
    rows = java_texts(java, kind, count, 20261128)
    read, text = (_double, double_text) if kind == "double" else (_float, float_text)
    bad = [f"{bits}: Java {t}, sparkcep {text(read(bits), version)}" for bits, t in rows
           if text(read(bits), version) != t]
    print(f"\nJava {version} {kind}s: {len(rows)} values, {len(bad)} differ")
    assert len(rows) > count and not bad, "\n".join(bad[:20])



@pytest.mark.parametrize("text, version", [("17", 17), ("25", 25), ("1.8", 8), (None, None), ("x", None)])
def test_the_sessions_java_version_is_its_feature_version(text, version):
    from sparkcep.runtime.registration import _feature_version

    assert _feature_version(text) == version


def test_the_java_version_is_read_once_per_session_from_the_driver():
    from sparkcep.runtime import registration

    class Jvm:
        calls = 0

        class java:  # noqa: N801 - py4j's package path
            class lang:  # noqa: N801
                class System:
                    @staticmethod
                    def getProperty(name):  # noqa: N802 - Java's name
                        Jvm.calls += 1
                        assert name == "java.specification.version"
                        return "21"

    class Session:
        class sparkContext:  # noqa: N801
            _jvm = Jvm

    session = Session()
    assert registration._java_version(session) == 21
    assert registration._java_version(session) == 21
    assert Jvm.calls == 1
