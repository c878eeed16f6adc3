"""The quick run scales every property test down and the full run keeps its count
(``tests/example_counts.py``, ``docs/contributing.md`` "The quick run and the full run")."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import settings

from tests import example_counts
from tests.example_counts import examples

TESTS = Path(__file__).resolve().parent


def test_no_literal_count_overrides_the_profile():
    """A literal count (``max_examples`` set to a number) would run that many examples in the
    quick run too. Spark tests are not in the quick run and keep theirs; conftest.py sets the
    profiles' own counts."""
    literal = re.compile(r"max_examples\s*=\s*\d")
    offenders = [f"{path.relative_to(TESTS)}:{number}"
                 for path in sorted(TESTS.rglob("*.py"))
                 if not path.stem.endswith("_spark") and path.name != "conftest.py"
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if literal.search(line)]
    assert offenders == []


def test_examples_is_the_count_in_the_full_run_and_a_tenth_in_the_quick_run():
    counts = (1, 5, 50, 100, 300, 1500, 5000)
    full, quick = settings.get_profile("default"), settings.get_profile("quick")
    assert (full.max_examples, quick.max_examples) == (100, 10)
    assert [examples(n, full) for n in counts] == list(counts)
    assert [examples(n, quick) for n in counts] == [1, 5, 10, 10, 30, 30, 30]
    assert (example_counts.FLOOR, example_counts.CAP) == (10, 30)
