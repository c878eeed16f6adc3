import pytest
import sqlglot

from sparkcep import dialect
from sparkcep.dialect import expressions as cx

from .corpus import CORPUS
from .spancheck import strict


@pytest.mark.parametrize("sql", CORPUS)
def test_round_trip(sql):
    tree = dialect.parse_one(sql)
    assert tree.find(cx.MatchRecognize) is not None
    out = dialect.generate(tree)
    again = dialect.parse_one(out)
    assert again == tree
    assert strict(again) == strict(tree)
    # generation is stable
    assert dialect.generate(again) == out


@pytest.mark.parametrize("sql", CORPUS[:8])
def test_round_trip_pretty(sql):
    tree = dialect.parse_one(sql)
    assert strict(dialect.parse_one(dialect.generate(tree, pretty=True))) == strict(tree)


@pytest.mark.parametrize("sql", CORPUS[:5])
def test_sqlglot_entry_points(sql):
    tree = sqlglot.parse_one(sql, read="sparkcep")
    assert strict(tree) == strict(dialect.parse_one(sql))
    assert sqlglot.transpile(sql, read="sparkcep", write="sparkcep")[0] == dialect.generate(tree)


def test_pattern_text_is_kept():
    sql = "SELECT * FROM t MATCH_RECOGNIZE (PATTERN (A{2,}? (B | C){,3} {- D -} PERMUTE(E, F) !G ^ $))"
    out = dialect.generate(dialect.parse_one(sql))
    assert "PATTERN (A{2,}? (B | C){,3} {- D -} PERMUTE(E, F) !G ^ $)" in out


def test_plain_spark_untouched():
    sql = "SELECT FIRST(x), LAST(y, TRUE), pattern, define FROM t AS measures WHERE subset > 1"
    assert dialect.generate(dialect.parse_one(sql)) == sqlglot.transpile(sql, read="spark", write="spark")[0]
