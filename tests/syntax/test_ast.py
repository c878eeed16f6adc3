"""AST shapes produced by the dialect."""

import pytest
import sqlglot
from sqlglot import exp

from sparkcep import dialect
from sparkcep.dialect import expressions as cx


def mr_of(sql):
    return dialect.parse_one(sql).find(cx.MatchRecognize)


def test_registered_with_sqlglot():
    tree = sqlglot.parse_one("SELECT * FROM t MATCH_RECOGNIZE (PATTERN (A))", read="sparkcep")
    assert isinstance(tree.args["from_"].this, cx.MatchRecognize)
    assert tree.args.get("match") is None


def test_join_stays_outside():
    tree = dialect.parse_one(
        "SELECT * FROM t MATCH_RECOGNIZE (PATTERN (A)) AS m JOIN u MATCH_RECOGNIZE (PATTERN (B)) n ON m.k = n.k"
    )
    left = tree.args["from_"].this
    assert isinstance(left, cx.MatchRecognize) and left.this.name == "t" and left.alias == "m"
    join = tree.args["joins"][0]
    assert isinstance(join.this, cx.MatchRecognize) and join.this.this.name == "u"
    assert join.args["on"] is not None


def test_subquery_and_cte_inputs():
    tree = dialect.parse_one(
        "WITH c AS (SELECT * FROM t) SELECT * FROM c MATCH_RECOGNIZE (PATTERN (A)) AS m, "
        "(SELECT 1 AS x) AS s MATCH_RECOGNIZE (PATTERN (B)) AS n"
    )
    mrs = list(tree.find_all(cx.MatchRecognize))
    assert len(mrs) == 2
    inputs = {type(m.this) for m in mrs}
    assert inputs == {exp.Table, exp.Subquery}


def test_chained_match_recognize():
    mr = mr_of("SELECT * FROM t MATCH_RECOGNIZE (PATTERN (A)) AS a MATCH_RECOGNIZE (PATTERN (B)) AS b")
    assert mr.alias == "b" and isinstance(mr.this, cx.MatchRecognize) and mr.this.alias == "a"


def test_all_clauses():
    mr = mr_of(
        "SELECT * FROM t MATCH_RECOGNIZE (PARTITION BY k, j ORDER BY ts MEASURES A.x AS ax "
        "ALL ROWS PER MATCH OMIT EMPTY MATCHES AFTER MATCH SKIP TO FIRST B SKIP TILL ANY MATCH "
        "PATTERN (A B) WITHIN INTERVAL '5' SECOND SUBSET U = (A, B) DEFINE A AS A.x > 0) AS m"
    )
    assert [c.name for c in mr.args["partition_by"]] == ["k", "j"]
    assert isinstance(mr.args["order"], exp.Order)
    (measure,) = mr.args["measures"]
    assert isinstance(measure, cx.Measure) and measure.args["alias"].name == "ax"
    assert mr.args["rows_per_match"].this == "ALL_OMIT_EMPTY"
    skip = mr.args["after_match_skip"]
    assert skip.this == "TO_FIRST" and skip.args["variable"].name == "B"
    assert mr.args["strategy"].this == "SKIP_TILL_ANY_MATCH"
    assert isinstance(mr.args["within"].this, exp.Interval)
    (subset,) = mr.args["subsets"]
    assert subset.this.name == "U" and [v.name for v in subset.expressions] == ["A", "B"]
    (define,) = mr.args["define"]
    assert define.this.name == "A" and isinstance(define.args["condition"], exp.GT)
    assert isinstance(mr.args["alias"], exp.TableAlias)


@pytest.mark.parametrize(
    "text,value",
    [
        ("ONE ROW PER MATCH", "ONE"),
        ("ALL ROWS PER MATCH", "ALL"),
        ("ALL ROWS PER MATCH SHOW EMPTY MATCHES", "ALL_SHOW_EMPTY"),
        ("ALL ROWS PER MATCH OMIT EMPTY MATCHES", "ALL_OMIT_EMPTY"),
        ("ALL ROWS PER MATCH WITH UNMATCHED ROWS", "ALL_WITH_UNMATCHED"),
    ],
)
def test_rows_per_match(text, value):
    assert mr_of(f"SELECT * FROM t MATCH_RECOGNIZE ({text} PATTERN (A))").args["rows_per_match"].this == value


@pytest.mark.parametrize(
    "text,kind,var,explicit",
    [
        ("PAST LAST ROW", "PAST_LAST_ROW", None, None),
        ("TO NEXT ROW", "TO_NEXT_ROW", None, None),
        ("TO FIRST B", "TO_FIRST", "B", None),
        ("TO LAST B", "TO_LAST", "B", True),
        ("TO B", "TO_LAST", "B", None),
    ],
)
def test_after_match_skip(text, kind, var, explicit):
    skip = mr_of(f"SELECT * FROM t MATCH_RECOGNIZE (AFTER MATCH SKIP {text} PATTERN (A B))").args["after_match_skip"]
    assert skip.this == kind
    assert (skip.args.get("variable").name if var else skip.args.get("variable")) == var
    assert skip.args.get("explicit_last") == explicit


def test_skip_strategy_not_confused_with_after_match_skip():
    mr = mr_of("SELECT * FROM t MATCH_RECOGNIZE (AFTER MATCH SKIP TO NEXT ROW SKIP TILL NEXT MATCH PATTERN (A))")
    assert mr.args["after_match_skip"].this == "TO_NEXT_ROW"
    assert mr.args["strategy"].this == "SKIP_TILL_NEXT_MATCH"
    assert mr_of("SELECT * FROM t MATCH_RECOGNIZE (STRICT CONTIGUITY PATTERN (A))").args["strategy"].this == "STRICT_CONTIGUITY"


@pytest.mark.parametrize(
    "within,cls",
    [("INTERVAL '10' MINUTE", exp.Interval), ("INTERVAL '1' DAY", exp.Interval),
     ("INTERVAL 10 SECONDS", exp.Interval), ("100", exp.Literal)],
)
def test_within(within, cls):
    mr = mr_of(f"SELECT * FROM t MATCH_RECOGNIZE (PATTERN (A) WITHIN {within} DEFINE A AS TRUE)")
    assert isinstance(mr.args["within"], cx.Within) and isinstance(mr.args["within"].this, cls)
    assert len(mr.args["define"]) == 1


def test_interval_without_unit_does_not_eat_define():
    mr = mr_of("SELECT * FROM t MATCH_RECOGNIZE (PATTERN (A) WITHIN INTERVAL '10 minutes' DEFINE A AS TRUE)")
    assert mr.args["define"][0].this.name == "A"


def test_navigation_nodes():
    e = dialect.parse_expression("PREV(A.price, 2) - NEXT(A.price) + FIRST(A.x) * LAST(A.x, 3)")
    navs = {n.args["kind"]: n for n in e.find_all(cx.Navigation)}
    assert set(navs) == {"PREV", "NEXT", "FIRST", "LAST"}
    assert navs["PREV"].args["offset"] == exp.Literal.number(2)
    assert navs["NEXT"].args.get("offset") is None
    assert navs["LAST"].args["offset"] == exp.Literal.number(3)
    assert isinstance(navs["PREV"].this, exp.Column) and navs["PREV"].this.table == "A"


def test_running_final_classifier_match_number():
    e = dialect.parse_expression("FINAL LAST(A.price)")
    assert isinstance(e, cx.RunningFinal) and e.args["final"] is True and isinstance(e.this, cx.Navigation)
    e = dialect.parse_expression("RUNNING COUNT(*)")
    assert isinstance(e, cx.RunningFinal) and e.args["final"] is False and isinstance(e.this, exp.Count)
    e = dialect.parse_expression("FINAL COUNT(A.*)")
    assert isinstance(e.this.this, exp.Column) and isinstance(e.this.this.this, exp.Star)
    assert dialect.parse_expression("CLASSIFIER()") == cx.Classifier()
    assert dialect.parse_expression("CLASSIFIER(A)").this.name == "A"
    assert isinstance(dialect.parse_expression("MATCH_NUMBER()"), cx.MatchNumber)
    # RUNNING / FINAL as plain column names
    assert isinstance(dialect.parse_expression("final + running"), exp.Add)


def test_navigation_only_inside_match_recognize():
    tree = dialect.parse_one("SELECT FIRST(x, TRUE), LAST(y) FROM t")
    assert not list(tree.find_all(cx.Navigation))
    assert tree.find(exp.First) is not None


def test_keywords_remain_identifiers_outside():
    tree = dialect.parse_one(
        "SELECT pattern, define, measures, subset, within, permute, final, running FROM measures AS define"
    )
    assert [c.name for c in tree.expressions] == [
        "pattern", "define", "measures", "subset", "within", "permute", "final", "running"
    ]
    mr = mr_of("SELECT * FROM t MATCH_RECOGNIZE (MEASURES A.pattern AS define PATTERN (A) DEFINE A AS A.define > 0)")
    assert mr.args["measures"][0].args["alias"].name == "define"


def test_measure_alias_without_as_and_keyword_like_names():
    mr = mr_of("SELECT * FROM t MATCH_RECOGNIZE (MEASURES A.x ax, A.y AS pattern PATTERN (A))")
    assert [m.args["alias"].name for m in mr.args["measures"]] == ["ax", "pattern"]


def test_pattern_tree():
    mr = mr_of("SELECT * FROM t MATCH_RECOGNIZE (PATTERN (A B+? | (C D){2,} | PERMUTE(E, F) {- G -} !H ^ $))")
    p = mr.args["pattern"]
    assert isinstance(p, cx.PatternAlternation) and len(p.expressions) == 3
    first = p.expressions[0]
    assert isinstance(first, cx.PatternConcat)
    q = first.expressions[1]
    assert isinstance(q, cx.PatternQuantified)
    assert (q.args["min"], q.args.get("max"), q.args["reluctant"], q.args["text"]) == (1, None, True, "+?")
    grp = p.expressions[1]
    assert isinstance(grp, cx.PatternQuantified) and isinstance(grp.this, cx.PatternGroup)
    assert (grp.args["min"], grp.args.get("max")) == (2, None)
    third = p.expressions[2].expressions
    assert [type(n) for n in third] == [
        cx.PatternPermute, cx.PatternExclusion, cx.PatternNegation, cx.PatternAnchor, cx.PatternAnchor
    ]
    assert third[3].this == "^" and third[4].this == "$"


def test_quoted_variable_keeps_case_and_quotes():
    mr = mr_of("SELECT * FROM t MATCH_RECOGNIZE (PATTERN (`Up Move` dOwN))")
    a, b = mr.args["pattern"].expressions
    assert a.this.quoted and a.name == "Up Move"
    assert not b.this.quoted and b.name == "dOwN"


@pytest.mark.parametrize(
    "sql,expected",
    [
        ("SELECT * FROM t MATCH_RECOGNIZE (PATTERN (A))", True),
        ("select * from t match_recognize (pattern (a))", True),
        ("SELECT 'MATCH_RECOGNIZE' FROM t", False),
        ("SELECT x FROM t -- MATCH_RECOGNIZE\n", False),
        ("SELECT x /* MATCH_RECOGNIZE ( */ FROM t", False),
        ("SELECT `match_recognize` FROM t", False),
        ("SELECT 1", False),
        ("SELECT 'unterminated MATCH_RECOGNIZE", True),
    ],
)
def test_contains_match_recognize(sql, expected):
    assert dialect.contains_match_recognize(sql) is expected


def test_parse_returns_all_statements():
    statements = dialect.parse("SELECT 1; SELECT * FROM t MATCH_RECOGNIZE (PATTERN (A));")
    assert len(statements) == 2 and statements[1].find(cx.MatchRecognize)


def test_query_order_by_directly_after_the_clause():
    # No alias: the ORDER BY after ')' belongs to the enclosing query, not to MATCH_RECOGNIZE.
    tree = dialect.parse_one(
        "SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts MEASURES COUNT(*) AS n PATTERN (A+) "
        "DEFINE A AS x > 0) ORDER BY n"
    )
    assert tree.find(cx.MatchRecognize).args.get("alias") is None
    assert [o.this.name for o in tree.args["order"].expressions] == ["n"]


@pytest.mark.parametrize("call, references", [
    # sqlglot's Spark builders keep only the name of date_trunc's unit and of named_struct's
    # names; the dialect keeps such arguments as written when they are not literals
    ("date_trunc(B.unit, B.ts)", {"B.unit", "B.ts"}),
    ("date_trunc(unit, ts)", {"unit", "ts"}),
    ("date_trunc(upper(A.unit), B.ts)", {"A.unit", "B.ts"}),
    ("named_struct(A.name, 1, 'b', B.x)", {"A.name", "B.x"}),
    ("named_struct(IF(A.flag, 'a', 'b'), 1)", {"A.flag"}),
    ("trunc(B.day, unit) IS NULL OR TRUE", {"B.day", "unit"}),  # sqlglot: unit as the literal 'UNIT'
])
def test_every_column_reference_of_a_call_survives_parsing(call, references):
    tree = dialect.parse_one(f"SELECT * FROM t MATCH_RECOGNIZE (PATTERN (A B) DEFINE B AS {call} IS NOT NULL)")
    condition = tree.find(cx.MatchRecognize).find(cx.VariableDefinition).args["condition"]
    assert {c.sql() for c in condition.find_all(exp.Column)} == references


def test_date_trunc_of_a_literal_unit_keeps_sqlglot_node():
    tree = dialect.parse_one("SELECT date_trunc('Q', ts)")
    assert isinstance(tree.expressions[0], exp.TimestampTrunc)


def test_a_builder_that_drops_a_reference_is_a_typed_error(monkeypatch):
    # a builder that keeps only its argument's name, as sqlglot's date_trunc builder does
    from sparkcep.dialect.parser import SparkCepParser
    from sparkcep.errors import ParseError

    monkeypatch.setitem(SparkCepParser.FUNCTIONS, "KEEPS_A_NAME",
                        lambda args: exp.Anonymous(this="keeps_a_name", expressions=[exp.var(args[0].name)]))
    sql = "SELECT * FROM t MATCH_RECOGNIZE (PATTERN (A B) DEFINE B AS keeps_a_name(A.unit) IS NOT NULL)"
    with pytest.raises(ParseError) as raised:
        dialect.parse_one(sql)
    assert raised.value.code == "UNSUPPORTED_ARGUMENT_SYNTAX"
    assert sql[raised.value.column - 1:].startswith("A.unit") and raised.value.length == len("A.unit")


def test_a_builder_that_turns_a_column_into_a_literal_is_a_typed_error(monkeypatch):
    from sparkcep.dialect.parser import SparkCepParser
    from sparkcep.errors import ParseError

    monkeypatch.setitem(SparkCepParser.FUNCTIONS, "KEEPS_A_NAME",
                        lambda args: exp.Anonymous(this="keeps_a_name", expressions=[exp.Literal.string(args[0].name)]))
    sql = "SELECT * FROM t MATCH_RECOGNIZE (PATTERN (A B) DEFINE B AS keeps_a_name(unit) IS NOT NULL)"
    with pytest.raises(ParseError) as raised:
        dialect.parse_one(sql)
    assert raised.value.code == "UNSUPPORTED_ARGUMENT_SYNTAX"
    assert sql[raised.value.column - 1:].startswith("unit")


@pytest.mark.parametrize("call", ["upper(A.s.f)", "upper(A.s.f.g)", "transform(A.arr, x -> x.f) IS NOT NULL",
                                  "transform(A.arr, x -> x.f.g) IS NOT NULL", "upper(A.m['k'].f)",
                                  "coalesce(`A`.`x`, 1)", "upper(a.X)", "trim(BOTH 'x' FROM B.s) = ''",
                                  "overlay(B.s PLACING 'a' FROM 1) = ''", "extract(YEAR FROM B.ts) > 1",
                                  "datediff(DAY, A.ts, B.ts) > 1", "B.ts - INTERVAL '1' DAY > A.ts"])
def test_field_access_and_lambda_variables_are_kept_references(call):
    dialect.parse_one(f"SELECT * FROM t MATCH_RECOGNIZE (PATTERN (A B) DEFINE B AS {call} IS NOT NULL)")
