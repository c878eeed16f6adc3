"""Golden tests for the rewrite: each golden/<name>.sql compiles to golden/<name>.spark.sql on
the Python path (the Arrow table function, the default), each golden_catalyst/<name>.sql on the
Catalyst path (``spark.sparkcep.path = catalyst``: ``sparkcep.compiler.catalyst_path``).

Regenerate after an intended change with ``SPARKCEP_UPDATE_GOLDEN=1 pytest tests/compiler``,
then read the diff. Independently of the golden text, the rewrite must leave everything outside
the MATCH_RECOGNIZE clauses byte for byte as the user wrote it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sparkcep import dialect
from sparkcep.dialect import expressions as dx
from sparkcep.compiler.rewrite import ChunkOptions, compile_statement
from tests.compiler.golden_files import cases, check_golden

GOLDEN = Path(__file__).parent / "golden"
CASES = cases(GOLDEN)
CATALYST_CASES = cases(Path(__file__).parent / "golden_catalyst")


@pytest.mark.parametrize("source", CASES, ids=[p.stem for p in CASES])
def test_golden(source: Path) -> None:
    check_golden(source, compile_statement(source.read_text()).sql)


@pytest.mark.parametrize("source", CATALYST_CASES, ids=[p.stem for p in CATALYST_CASES])
def test_golden_catalyst(source: Path) -> None:
    compiled = compile_statement(source.read_text(), ChunkOptions(path="catalyst"))
    assert all(match.catalyst for match in compiled.matches)
    check_golden(source, compiled.sql)


@pytest.mark.parametrize("source", CASES, ids=[p.stem for p in CASES])
def test_text_outside_the_clause_is_untouched(source: Path) -> None:
    text = source.read_text()
    compiled = compile_statement(text)
    tree = dialect.parse_one(text)
    clauses = sorted(dialect.span(n) for n in tree.find_all(dx.MatchRecognize))
    position, remaining = 0, compiled.sql
    for start, end in clauses:
        before = text[position:start]
        assert remaining.startswith(before)
        remaining = remaining[len(before):]
        position = end
        # skip the replacement: up to where the rest of the original text resumes
        rest = text[end:]
        assert remaining.endswith(rest) or rest == ""
        remaining = remaining[len(remaining) - len(rest):] if rest else ""
        position = len(text) - len(rest)
    assert remaining == text[position:]


def test_names_are_deterministic_and_quoted() -> None:
    text = (GOLDEN / "v_shape_join.sql").read_text()
    first, second = compile_statement(text), compile_statement(text)
    assert first.sql == second.sql
    assert first.matches[0].function_name.startswith("sparkcep_mr_")


def test_identifiers_cannot_escape_quoting() -> None:
    # A column name holding a back-quote stays one identifier in the generated SQL.
    text = ("SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY `p``x` ORDER BY id "
            "MEASURES LAST(A.`v``) FROM t; --`) AS y PATTERN (A+) DEFINE A AS A.`v``) FROM t; --` > 0)")
    sql = compile_statement(text).sql
    assert "`v``) FROM t; --`" in sql
    assert "`p``x`" in sql
