"""Which path ``spark.sparkcep.path`` gives a clause (``catalyst_path.ineligible_reason``): ``auto``
takes the Catalyst path where it is exact, the clause has PARTITION BY and its matches do not
overlap (the cost rule: under SKIP TO NEXT ROW every row of every match becomes a Spark row);
``catalyst`` forces it wherever it is exact; ``python`` never takes it."""

from __future__ import annotations

import pytest

from sparkcep.compiler.rewrite import ChunkOptions, compile_statement


def _clause(skip: str, partition: str = "PARTITION BY symbol") -> str:
    return (f"SELECT * FROM ticks MATCH_RECOGNIZE ({partition} ORDER BY ts "
            f"MEASURES FIRST(UP.ts) AS start_ts, COUNT(*) AS n ONE ROW PER MATCH "
            f"AFTER MATCH SKIP {skip} PATTERN (DOWN UP{{2,}}) "
            f"DEFINE DOWN AS price < PREV(price), UP AS price > PREV(price))")


@pytest.mark.parametrize(("mode", "skip", "partition", "catalyst", "reason"), [
    ("auto", "PAST LAST ROW", "PARTITION BY symbol", True, None),
    ("auto", "TO NEXT ROW", "PARTITION BY symbol", False, "overlapping matches"),
    ("auto", "PAST LAST ROW", "", False, "no PARTITION BY"),
    ("catalyst", "TO NEXT ROW", "PARTITION BY symbol", True, None),
    ("catalyst", "PAST LAST ROW", "", True, None),
    ("python", "PAST LAST ROW", "PARTITION BY symbol", False, "opt-in"),
    ("python", "TO NEXT ROW", "PARTITION BY symbol", False, "overlapping matches"),
])
def test_path_by_mode(mode, skip, partition, catalyst, reason) -> None:
    match = compile_statement(_clause(skip, partition), ChunkOptions(path=mode)).matches[0]
    assert match.catalyst is catalyst, match.catalyst_reason
    if reason is None:
        assert not match.catalyst_reason
    else:
        assert reason in match.catalyst_reason
