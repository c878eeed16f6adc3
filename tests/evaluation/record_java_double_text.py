"""Record a sample of Java's ``Double.toString`` and ``Float.toString`` on Java 17 and on Java
19+ in ``java_double_text.json``, for ``test_java_double_text.py`` to check
``sparkcep.evaluation.java_double_text`` against without a JVM:

    python -m tests.evaluation.record_java_double_text JAVA_17 JAVA_19_OR_LATER

(the two ``java`` executables). Each JVM runs ``JavaDoubleText.java`` over the same values; the
sample keeps the first 300 (the extremes, powers of ten and two and their neighbours), 1,000
drawn at random, and 700 where the two JVMs print different digits, per kind.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

PROGRAM = Path(__file__).with_name("JavaDoubleText.java")
OUTPUT = Path(__file__).with_name("java_double_text.json")


def java_texts(java: str, kind: str, count: int, seed: int) -> list[tuple[str, str]]:
    """``[(raw bits in hex, text)]`` from ``JavaDoubleText.java`` run on ``java``."""
    out = subprocess.run([java, str(PROGRAM), kind, str(count), str(seed)], check=True, capture_output=True,
                         text=True).stdout
    return [tuple(line.split(" ")) for line in out.splitlines()]


def java_version(java: str) -> str:
    out = subprocess.run([java, "-XshowSettings:properties", "-version"], capture_output=True, text=True).stderr
    return next(line.split("=")[1].strip() for line in out.splitlines() if "java.version =" in line)


def main(old: str, new: str) -> None:
    rng = random.Random(23)
    data: dict = {"java_17": java_version(old), "java_19_or_later": java_version(new)}
    for kind in ("double", "float"):
        a, b = java_texts(old, kind, 200_000, 23), java_texts(new, kind, 200_000, 23)
        assert [x for x, _ in a] == [x for x, _ in b]
        rows = [(bits, t17, t19) for (bits, t17), (_, t19) in zip(a, b)]
        differing = [r for r in rows[300:] if r[1] != r[2]]
        sample = rows[:300] + rng.sample(rows[300:], 1000) + rng.sample(differing, min(700, len(differing)))
        data[kind + "s"] = sample
    lines = ["{", f'  "java_17": {json.dumps(data["java_17"])},',
             f'  "java_19_or_later": {json.dumps(data["java_19_or_later"])},']
    for n, kind in enumerate(("doubles", "floats")):
        lines.append(f'  "{kind}": [')
        lines += [f"    {json.dumps(list(r))}," for r in data[kind][:-1]] + [f"    {json.dumps(list(data[kind][-1]))}"]
        lines.append("  ]" + ("," if n == 0 else ""))
    lines.append("}")
    OUTPUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUTPUT.name}: {len(data['doubles'])} doubles, {len(data['floats'])} floats")


if __name__ == "__main__":
    main(*sys.argv[1:3])
