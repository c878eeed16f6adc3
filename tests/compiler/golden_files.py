"""Golden files of the rewrite: ``<name>.sql`` compiles to ``<name>.spark.sql`` beside it.

Regenerate after an intended change with ``SPARKCEP_UPDATE_GOLDEN=1 pytest tests/compiler``,
then read the diff: a golden file is a snapshot to review, not an oracle."""

from __future__ import annotations

import os
from pathlib import Path


def cases(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.sql") if not p.name.endswith(".spark.sql"))


def check_golden(source: Path, compiled_sql: str) -> None:
    """``compiled_sql`` equals the golden file of ``source`` (rewritten first when updating)."""
    target = source.with_name(source.stem + ".spark.sql")
    if os.environ.get("SPARKCEP_UPDATE_GOLDEN"):
        target.write_text(compiled_sql + "\n")
    assert compiled_sql + "\n" == target.read_text()
