"""PATTERN parser: hypothesis round trips of random pattern trees, spans, precedence."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlglot import exp

from sparkcep import dialect
from sparkcep.dialect import expressions as cx
from sparkcep.dialect.generator import pattern_sql

from tests.example_counts import examples
from .spancheck import strict

NAMES = st.sampled_from(["A", "b", "Up", "x_1", "`odd name`", "`q``t`", "PERMUTEX"])
QUANTIFIERS = st.sampled_from(
    ["*", "+", "?", "{2}", "{1,}", "{,3}", "{0,2}", "{,}", "*?", "+?", "??", "{2}?", "{1,3}?"]
)


def _var(name):
    quoted = name.startswith("`")
    text = name[1:-1].replace("``", "`") if quoted else name
    return cx.PatternVariable(this=exp.Identifier(this=text, quoted=quoted))


def _quant(node, text):
    core = text[:-1] if len(text) > 1 and text.endswith("?") else text
    reluctant = core != text
    if core == "*":
        lo, hi = 0, None
    elif core == "+":
        lo, hi = 1, None
    elif core == "?":
        lo, hi = 0, 1
    else:
        body = core[1:-1]
        if "," in body:
            a, b = body.split(",")
            lo, hi = int(a or 0), (int(b) if b else None)
        else:
            lo = hi = int(body)
    return cx.PatternQuantified(this=node, min=lo, max=hi, reluctant=reluctant, text=text)


def _primary(children):
    # the shapes the parser produces: compound operands are always grouped
    return st.one_of(
        children.map(lambda c: cx.PatternGroup(this=c)),
        children.map(lambda c: cx.PatternExclusion(this=c)),
        st.lists(children, min_size=1, max_size=3).map(lambda cs: cx.PatternPermute(expressions=cs)),
    )


def _flat(cls, items):
    out = []
    for item in items:
        out.extend(item.expressions if isinstance(item, cls) else [item])
    return out


def _extend(children):
    factor = st.one_of(
        _primary(children),
        st.tuples(_primary(children), QUANTIFIERS).map(lambda t: _quant(*t)),
    )
    term = st.one_of(factor, st.lists(factor, min_size=2, max_size=3).map(
        lambda fs: cx.PatternConcat(expressions=_flat(cx.PatternConcat, fs))))
    return st.one_of(
        term,
        st.lists(term, min_size=2, max_size=3).map(lambda ts: cx.PatternAlternation(expressions=ts)),
    )


LEAVES = st.one_of(
    NAMES.map(_var),
    st.tuples(NAMES, QUANTIFIERS).map(lambda t: _quant(_var(t[0]), t[1])),
    NAMES.map(lambda n: cx.PatternNegation(this=_var(n))),
    st.sampled_from(["^", "$"]).map(lambda a: cx.PatternAnchor(this=a)),
    st.just(cx.PatternEmpty()),
)
PATTERNS = st.recursive(LEAVES, _extend, max_leaves=12)


def _all_spans_reparse(text, tree):
    for node in tree.walk():
        s, e = dialect.span(node)
        if isinstance(node, exp.Identifier):
            continue
        assert strict(dialect.parse_pattern(text[s:e])) == strict(node), (text, text[s:e])


@settings(max_examples=examples(300), deadline=None)
@given(PATTERNS)
def test_random_pattern_round_trip(tree):
    text = pattern_sql(tree)
    parsed = dialect.parse_pattern(text)
    assert strict(parsed) == strict(tree), text
    assert pattern_sql(parsed) == text
    _all_spans_reparse(text, parsed)


@settings(max_examples=examples(100), deadline=None)
@given(PATTERNS)
def test_random_pattern_in_a_query(tree):
    body = pattern_sql(tree)
    sql = f"SELECT * FROM t MATCH_RECOGNIZE (\n  PATTERN (\n    {body}\n  ) DEFINE A AS TRUE)"
    mr = dialect.parse_one(sql).find(cx.MatchRecognize)
    assert strict(mr.args["pattern"]) == strict(dialect.parse_pattern(body))
    again = dialect.parse_one(dialect.generate(mr.parent_select or mr.root()))
    assert strict(again.find(cx.MatchRecognize).args["pattern"]) == strict(mr.args["pattern"])
    for node in mr.args["pattern"].walk():
        s, e = dialect.span(node)
        if not isinstance(node, exp.Identifier):
            assert strict(dialect.parse_pattern(sql[s:e])) == strict(node)


@pytest.mark.parametrize(
    "text,shape",
    [
        ("A B | C", "Alt(Concat(A,B),C)"),
        ("A | B C", "Alt(A,Concat(B,C))"),
        ("A B*", "Concat(A,Q*(B))"),
        ("(A B)*", "Q*(Group(Concat(A,B)))"),
        ("A | B | C", "Alt(A,B,C)"),
        ("", "Empty"),
        ("()", "Empty"),
        ("!A B", "Concat(Not(A),B)"),
    ],
)
def test_precedence(text, shape):
    def show(n):
        if isinstance(n, cx.PatternVariable):
            return n.name
        if isinstance(n, cx.PatternEmpty):
            return "Empty"
        if isinstance(n, cx.PatternAlternation):
            return "Alt(" + ",".join(show(e) for e in n.expressions) + ")"
        if isinstance(n, cx.PatternConcat):
            return "Concat(" + ",".join(show(e) for e in n.expressions) + ")"
        if isinstance(n, cx.PatternQuantified):
            return f"Q{n.args['text']}({show(n.this)})"
        if isinstance(n, cx.PatternGroup):
            return f"Group({show(n.this)})"
        if isinstance(n, cx.PatternNegation):
            return f"Not({show(n.this)})"
        raise AssertionError(n)

    assert show(dialect.parse_pattern(text)) == shape


def test_quantifier_whitespace_is_normalized():
    q = dialect.parse_pattern("A{ 2 , 5 }?")
    assert (q.args["min"], q.args["max"], q.args["reluctant"], q.args["text"]) == (2, 5, True, "{2,5}?")


def test_reluctant_mark_must_touch_quantifier():
    with pytest.raises(dialect.ParseError) as info:
        dialect.parse_pattern("A* ?")
    assert info.value.code == "INVALID_QUANTIFIER"


def test_permute_is_a_variable_without_parenthesis():
    p = dialect.parse_pattern("PERMUTE B")
    assert [e.name for e in p.expressions] == ["PERMUTE", "B"]
