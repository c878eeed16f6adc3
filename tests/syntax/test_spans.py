import pytest
from sqlglot import exp

from sparkcep import dialect
from sparkcep.dialect import expressions as cx

from .corpus import CORPUS
from .spancheck import check_spans


@pytest.mark.parametrize("sql", CORPUS)
def test_every_span_reparses_to_its_node(sql):
    tree = dialect.parse_one(sql)
    assert check_spans(sql, tree) > 0


def test_spans_with_leading_statements_and_comments():
    sql = "SELECT 1;\n/* lead */ SELECT * FROM t MATCH_RECOGNIZE (\n  MEASURES /*x*/ LAST(A.v) /*y*/ AS v\n  PATTERN (A)\n) m;"
    statements = dialect.parse(sql)
    assert len(statements) == 2
    assert check_spans(sql, statements[1]) > 0


def _text(sql, node):
    s, e = dialect.span(node)
    return sql[s:e]


def test_exact_spans():
    sql = (
        "SELECT x FROM (SELECT * FROM t) AS src MATCH_RECOGNIZE (PARTITION BY (a + b) * 2 "
        "MEASURES PREV(A.price, 2) AS p, FINAL LAST(A.price)  AS  lp PATTERN ( A  B+? ) "
        "DEFINE A AS A.price > 0) AS mr JOIN u ON 1 = 1"
    )
    tree = dialect.parse_one(sql)
    mr = tree.find(cx.MatchRecognize)
    assert _text(sql, mr) == sql[sql.index("(SELECT *"): sql.index(" JOIN")]
    assert _text(sql, mr.this) == "(SELECT * FROM t) AS src"
    mul = mr.args["partition_by"][0]
    assert isinstance(mul, exp.Mul) and _text(sql, mul) == "(a + b) * 2"
    assert _text(sql, mul.this) == "(a + b)"
    prev = mr.args["measures"][0].this
    assert isinstance(prev, cx.Navigation) and _text(sql, prev) == "PREV(A.price, 2)"
    assert _text(sql, prev.this) == "A.price"
    assert _text(sql, prev.this.args["table"]) == "A"
    assert _text(sql, mr.args["measures"][1]) == "FINAL LAST(A.price)  AS  lp"
    assert _text(sql, mr.args["measures"][1].this) == "FINAL LAST(A.price)"
    assert _text(sql, mr.args["pattern"]) == "A  B+?"
    assert _text(sql, mr.args["pattern"].expressions[1]) == "B+?"
    assert _text(sql, mr.args["define"][0]) == "A AS A.price > 0"
    assert _text(sql, mr.args["alias"]) == "AS mr"


def test_empty_pattern_span():
    sql = "SELECT * FROM t MATCH_RECOGNIZE (PATTERN ( ))"
    mr = dialect.parse_one(sql).find(cx.MatchRecognize)
    s, e = dialect.span(mr.args["pattern"])
    assert s == e == sql.index("( )") + 1


def test_splice_replaces_clause_in_place():
    sql = "SELECT  a ,b FROM   t  MATCH_RECOGNIZE (PATTERN (A)) AS m -- keep\nWHERE  a > 1"
    mr = dialect.parse_one(sql).find(cx.MatchRecognize)
    s, e = dialect.span(mr)
    assert sql[:s] + "X" + sql[e:] == "SELECT  a ,b FROM   X -- keep\nWHERE  a > 1"


def test_span_of_unparsed_node():
    with pytest.raises(dialect.NoSpanError):
        dialect.span(exp.column("x"))
    assert dialect.find_span(exp.column("x")) is None


def test_spans_survive_copy():
    sql = "SELECT * FROM t MATCH_RECOGNIZE (PATTERN (A B))"
    mr = dialect.parse_one(sql).find(cx.MatchRecognize)
    assert dialect.span(mr.copy()) == dialect.span(mr)
