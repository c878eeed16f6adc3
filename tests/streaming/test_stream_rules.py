"""What a clause over a stream may contain: each refusal is a typed error with its position
(pure: ``compile_statement(..., streaming=True)``, no Spark)."""

from __future__ import annotations

import pytest

from sparkcep import dialect
from sparkcep.compiler.rewrite import compile_statement, stream_view_name
from sparkcep.errors import AnalysisError

BASE = """SELECT * FROM STREAM(clicks) WATERMARK ts DELAY OF INTERVAL 10 SECONDS
  MATCH_RECOGNIZE (
    PARTITION BY user_id ORDER BY ts
    MEASURES MATCH_NUMBER() AS n, LAST(B.ts) AS e
    ONE ROW PER MATCH
    PATTERN (A B+) WITHIN INTERVAL '1' MINUTE
    DEFINE B AS B.v > FIRST(A.v)
  ) AS m"""


def _refused(text: str) -> AnalysisError:
    with pytest.raises(AnalysisError) as caught:
        compile_statement(text, streaming=True)
    return caught.value


def test_the_streaming_statement_reads_the_operator_view():
    compiled = compile_statement(BASE, streaming=True)
    (match,) = compiled.matches
    assert f"FROM `{stream_view_name(match.function_name)}`" in compiled.sql
    assert "TABLE(" not in compiled.sql  # no table function call
    assert "OVER (" not in match.table_sql  # nothing a stream cannot compute row by row
    assert match.relation_sql == \
        "SELECT * FROM STREAM(clicks) WATERMARK ts DELAY OF INTERVAL 10 SECONDS"
    assert match.order_columns == (("ts", False, True),)


def test_the_watermark_clause_is_part_of_the_relation_not_an_alias():
    tree = dialect.parse_one(
        "SELECT * FROM STREAM(e) WATERMARK ts DELAY OF INTERVAL 10 SECONDS AS x")
    relation = tree.find(dialect.expressions.StreamWatermark)
    assert relation is not None and relation.args["alias"].name == "x"
    assert relation.args["column"].name == "ts"
    # WATERMARK is still an ordinary alias where no clause follows
    plain = dialect.parse_one("SELECT * FROM t watermark")
    assert plain.find(dialect.expressions.StreamWatermark) is None


@pytest.mark.parametrize("old, new, code, marked", [
    ("PATTERN (A B+) WITHIN INTERVAL '1' MINUTE", "PATTERN (A B+)", "STREAM_UNBOUNDED_STATE", "A B+"),
    ("ONE ROW PER MATCH", "ALL ROWS PER MATCH WITH UNMATCHED ROWS", "STREAM_UNSUPPORTED",
     "ALL ROWS PER MATCH WITH UNMATCHED ROWS"),
    ("PATTERN (A B+)", "PATTERN (A B+ $)", "STREAM_UNSUPPORTED", "A B+ $"),
    ("ORDER BY ts", "ORDER BY ts DESC", "STREAM_UNSUPPORTED", "ts DESC"),
    ("ORDER BY ts", "ORDER BY ts + INTERVAL 1 SECOND", "STREAM_UNSUPPORTED",
     "ts + INTERVAL 1 SECOND"),
    ("B.v > FIRST(A.v)", "B.v > MATCH_NUMBER()", "STREAM_UNSUPPORTED", "MATCH_NUMBER()"),
    ("WITHIN INTERVAL '1' MINUTE", "WITHIN 60", "STREAM_UNSUPPORTED", "WITHIN 60"),
    ("ORDER BY ts", "ORDER BY ts UNCERTAIN TIME (t0, ts + INTERVAL 1 SECOND)", "STREAM_UNSUPPORTED",
     "t0, ts"),
    ("ORDER BY ts", "ORDER BY ts UNCERTAIN TIME (ts - INTERVAL 1 SECOND, ts)", "STREAM_UNSUPPORTED",
     "ts - INTERVAL"),
])
def test_refused_with_reason_and_position(old, new, code, marked):
    text = BASE.replace(old, new)
    error = _refused(text)
    assert error.code == code
    line = text.splitlines()[error.line - 1]
    assert line[error.column - 1:].startswith(marked), (line, error.column)
    assert "stream" in error.message.lower()


def test_uncertain_time_on_the_watermark_column_is_accepted():
    """lo is the first ORDER BY column (the one the watermark is on): the operator releases rows
    sorted by lo, as the engine needs them (docs/streaming.md)."""
    text = BASE.replace("ORDER BY ts", "ORDER BY TS UNCERTAIN TIME (ts, ts + INTERVAL 1 SECOND)") \
        .replace("PATTERN (A B+)", "PATTERN (A B)")
    compiled = compile_statement(text, streaming=True)
    (match,) = compiled.matches
    assert match.plan.uncertain_time is not None
    assert match.order_columns[0][0].lower() == "ts"


def test_prev_reads_a_column_the_ordering_operator_fills_in():
    text = BASE.replace("B.v > FIRST(A.v)", "B.v > PREV(B.v) AND B.v > PREV(B.v, 2) AND B.ts > PREV(B.ts)")
    (match,) = compile_statement(text, streaming=True).matches
    assert match.shifts == (("__sparkcep_a0", 1, "__sparkcep_p0"), ("__sparkcep_a1", 2, "__sparkcep_p1"),
                            ("__sparkcep_a2", 1, "__sparkcep_p2"))
    assert match.shift_input_sql.startswith("SELECT __sparkcep_in.*, (`v`) AS `__sparkcep_a0`, ")
    assert f"FROM `{match.shift_view}`" in match.table_sql
    assert "`__sparkcep_p0`" in match.table_sql and "OVER (" not in match.table_sql
    # the same clause in a batch query keeps lag
    assert "lag(" in compile_statement(text).matches[0].table_sql


def test_next_reads_a_column_the_ordering_operator_fills_in():
    text = BASE.replace("B.v > FIRST(A.v)", "B.v > PREV(B.v) AND B.v < NEXT(B.v, 2)") \
        .replace("LAST(B.ts) AS e", "NEXT(B.ts) AS e")
    (match,) = compile_statement(text, streaming=True).matches
    assert match.shifts == (("__sparkcep_a0", 1, "__sparkcep_p0"), ("__sparkcep_a1", -2, "__sparkcep_p1"),
                            ("__sparkcep_a2", -1, "__sparkcep_p2"))
    # the matching operator is watermarked on the time the row could leave the ordering one
    assert "__sparkcep_in.`__sparkcep_release`" in match.table_sql
    assert "OVER (" not in match.table_sql
    assert "lead(" in compile_statement(text).matches[0].table_sql
    uncertain = text.replace("ORDER BY ts", "ORDER BY ts UNCERTAIN TIME (ts, ts)")
    error = _refused(uncertain.replace("PATTERN (A B+)", "PATTERN (A B)"))
    assert error.code == "STREAM_UNSUPPORTED" and "NEXT with UNCERTAIN TIME" in error.message


def test_one_clause_per_streaming_statement():
    text = BASE + " JOIN (SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts MEASURES 1 AS x " \
                  "PATTERN (A) WITHIN INTERVAL '1' SECOND DEFINE A AS true)) ON true"
    error = _refused(text)
    assert error.code == "STREAM_UNSUPPORTED" and "one MATCH_RECOGNIZE" in error.message


def test_a_batch_compilation_is_unchanged_by_the_streaming_mode_existing():
    batch = compile_statement(BASE)
    assert "TABLE(" in batch.sql and not batch.matches[0].streaming


def test_a_stream_always_numbers_its_matches_but_does_not_show_the_number():
    text = BASE.replace("MATCH_NUMBER() AS n, ", "").replace("ONE ROW PER MATCH", "ALL ROWS PER MATCH")
    compiled = compile_statement(text, streaming=True)
    (match,) = compiled.matches
    names = [type(c).__name__ for c in match.plan.components]
    assert names.count("MatchNumber") == 1
    hidden = f"__sparkcep_c{names.index('MatchNumber')}"
    assert f"EXCEPT (`user_id`, `ts`, `__sparkcep_c0`, `__sparkcep_c1`)" in compiled.sql, compiled.sql
    assert f"AS `{hidden}`" not in compiled.sql
