"""The regex fast path's RE2 form (``engines.standard.marked_regex``) against the brute-force
oracle: every match, its span and each variable's first row, last row, row count and rows, for
patterns generated inside the form's conditions; and the conditions themselves."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.contract import RowBlock, SummaryRequest
from sparkcep.engines.spec import RowsPerMatch, SkipMode
from sparkcep.engines.standard.marked_regex import marked_form
from sparkcep.engines.standard.regex_path import RegexMatcher
from sparkcep.engines.standard.regex_translation import regex_eligible
from sparkcep.errors import MatchRuntimeError
from tests.example_counts import examples

from .harness import masks_from, spec_of
from .oracle import oracle_events

NAMES = "ABCD"


def _labels(n_vars):
    return st.integers(0, n_vars - 1).map(rp.Label)


def _item(n_vars):
    """A readable item: a variable, a quantified variable (greedy or reluctant), a choice of
    short sequences, or an optional sequence; never a variable inside a repetition."""
    label = _labels(n_vars)
    quantified = st.tuples(label, st.integers(0, 3), st.one_of(st.none(), st.integers(1, 4)),
                           st.booleans()).map(
        lambda t: rp.Quantified(t[0], t[1], None if t[2] is None else max(t[1], t[2]), t[3]))
    short = st.lists(st.one_of(label, quantified), min_size=1, max_size=2).map(
        lambda items: items[0] if len(items) == 1 else rp.Concat(tuple(items)))
    choice = st.lists(short, min_size=2, max_size=3).map(lambda items: rp.Alternation(tuple(items)))
    optional = short.map(lambda body: rp.Quantified(body, 0, 1, True))
    return st.one_of(label, quantified, quantified, choice, optional)


@st.composite
def cases(draw):
    n_vars = draw(st.integers(1, len(NAMES)))
    items = draw(st.lists(_item(n_vars), min_size=1, max_size=4))
    if draw(st.booleans()):
        items = [rp.Anchor(True)] + items
    if draw(st.integers(0, 4)) == 0:
        items = items + [rp.Anchor(False)]
    pattern = rp.Concat(tuple(items))
    n_rows = draw(st.integers(0, 40))
    density = draw(st.sampled_from([0.3, 0.5, 0.8]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    masks = rng.random((n_vars, n_rows)) < density
    return pattern, NAMES[:n_vars], masks


def _expected(spec, masks):
    """Per match: (number, start, end, first, last, count per variable, labels), from the oracle."""
    events, code = oracle_events(spec, {}, masks)
    assert code is None
    n_vars = len(spec.variable_names)
    out = []
    for e in events:
        mapped = {v: [r for r, label in zip(e.rows, e.labels) if label == v] for v in range(n_vars)}
        out.append((e.number, e.start, e.start + len(e.rows),
                    tuple(mapped[v][0] if mapped[v] else -1 for v in range(n_vars)),
                    tuple(mapped[v][-1] if mapped[v] else -1 for v in range(n_vars)),
                    tuple(len(mapped[v]) for v in range(n_vars)), tuple(e.labels)))
    return out


def _marked(spec, masks, cut, marked=True):
    """The fast path's column-wise answer with the RE2 form (``marked``) or with the backtracking
    engine over ``GroupedTranslation``'s groups, the rows fed in two blocks (as ALL ROWS PER
    MATCH, which also asks for each row's variable; the matches are ONE ROW's)."""
    spec = dataclasses.replace(spec, rows_per_match=RowsPerMatch.ALL_OMIT_EMPTY)
    every = frozenset(range(len(spec.variable_names)))
    engine = RegexMatcher(spec, summary=SummaryRequest(every, every, every, labels=True))
    assert engine._grouped  # one group per variable occurrence
    if marked:
        assert engine._marked is not None  # the form under test, not the backtracking engine
    else:
        engine._marked = engine._runs = None  # the backtracking engine (run chains: test_run_chain)
    engine.feed(RowBlock(masks=masks[:, :cut]))
    engine.feed(RowBlock(masks=masks[:, cut:]))
    return _summary_rows(engine.finish(), len(spec.variable_names))


def _summary_rows(out, n_vars: int) -> list[tuple]:
    """An engine's column-wise answer (``finish``: no summaries or one) in ``_expected``'s form."""
    if not out:
        return []
    (s,) = out
    labels = iter(s.labels.tolist())
    return [(int(s.number[i]), int(s.start[i]), int(s.end[i]),
             tuple(int(s.first[v][i]) for v in range(n_vars)),
             tuple(int(s.last[v][i]) for v in range(n_vars)),
             tuple(int(s.count[v][i]) for v in range(n_vars)),
             tuple(next(labels) for _ in range(int(s.end[i] - s.start[i]))))
            for i in range(len(s))]


@settings(max_examples=examples(600), deadline=None, suppress_health_check=list(HealthCheck))
@given(cases(), st.integers(0, 40))
def test_marked_form_equals_the_oracle(case, cut):
    pattern, names, masks = case
    # ALL ROWS PER MATCH asks for each row's variable; the matches are the same as ONE ROW's
    spec = spec_of(pattern, names)
    if not regex_eligible(spec, False) or marked_form(spec) is None:
        return  # an empty match is possible, or more than 9 groups: not this form's
    assert _marked(spec, masks, min(cut, masks.shape[1])) == _expected(spec, masks)


@settings(max_examples=examples(400), deadline=None, suppress_health_check=list(HealthCheck))
@given(cases(), st.integers(0, 40), st.sampled_from([SkipMode.PAST_LAST_ROW, SkipMode.TO_NEXT_ROW]))
def test_grouped_backtracking_equals_the_oracle(case, cut, skip):
    """Where RE2 does not apply (TO NEXT ROW) or is set aside, Python's regex over the same
    groups: spans read per match instead of one capture per row."""
    pattern, names, masks = case
    spec = spec_of(pattern, names, skip=skip)
    if not regex_eligible(spec, False) or marked_form(dataclasses.replace(spec, skip=SkipMode.PAST_LAST_ROW)) is None:
        return
    assert _marked(spec, masks, min(cut, masks.shape[1]), marked=False) == _expected(spec, masks)


def test_generated_cases_mostly_take_the_form():
    """The generator above is not vacuous: most of its cases are the form's."""
    taken = []

    @settings(max_examples=examples(200), deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(cases())
    def count(case):
        spec = spec_of(case[0], case[1])
        taken.append(regex_eligible(spec, False) and marked_form(spec) is not None)

    count()
    assert sum(taken) >= len(taken) // 2


def test_v_shape_by_hand():
    # STRT DOWN+ UP+ over  S D D U U - S D U : rows 0-4 and 6-8; DOWN's last rows 2 and 7
    s, d, u = rp.Label(0), rp.Label(1), rp.Label(2)
    spec = spec_of(rp.Concat((s, rp.Quantified(d, 1, None), rp.Quantified(u, 1, None))), "SDU")
    masks = masks_from("S D D U U - S D U", "SDU")
    masks[0] = True  # STRT has no DEFINE
    assert _marked(spec, masks, 4) == [
        (1, 0, 5, (0, 1, 3), (0, 2, 4), (1, 2, 2), (0, 1, 1, 2, 2)),
        (2, 6, 9, (6, 7, 8), (6, 7, 8), (1, 1, 1), (0, 1, 2)),
    ]


def test_greedy_and_reluctant_preference_by_hand():
    # A+? B* over A A A B: the reluctant A+? takes one A and B* then matches no row, so each
    # A starts a one-row match, until the last A, followed by B; greedy A+ takes all four rows
    a, b = rp.Label(0), rp.Label(1)
    reluctant = spec_of(rp.Concat((rp.Quantified(a, 1, None, False), rp.Quantified(b, 0, None))), "AB")
    masks = masks_from("A A A B", "AB")
    assert [m[1:3] for m in _marked(reluctant, masks, 2)] == [(0, 1), (1, 2), (2, 4)]
    greedy = spec_of(rp.Concat((rp.Quantified(a, 1, None), rp.Quantified(b, 0, None))), "AB")
    assert [m[1:3] for m in _marked(greedy, masks, 2)] == [(0, 4)]


def test_where_the_form_does_not_apply():
    a, b = rp.Label(0), rp.Label(1)
    plus = rp.Concat((a, rp.Quantified(b, 1, None)))
    assert marked_form(spec_of(plus, "AB")) is not None
    # TO NEXT ROW: RE2 has no lookahead
    assert marked_form(spec_of(plus, "AB", skip=SkipMode.TO_NEXT_ROW)) is None
    # a variable inside a repetition: only its last capture would be readable
    assert marked_form(spec_of(rp.Quantified(rp.Concat((a, b)), 1, None), "AB")) is None
    # an empty match is possible
    assert marked_form(spec_of(rp.Quantified(a, 0, None), "A")) is None
    # more than 9 groups, and a bound RE2 refuses (over 1,000 repetitions)
    assert marked_form(spec_of(rp.Concat((a,) * 10), "A")) is None
    assert marked_form(spec_of(rp.Quantified(a, 1, 1001), "A")) is None
    # 8 variables: a row code reaches 0x80
    assert marked_form(spec_of(a, "ABCDEFGH")) is None


def test_match_budget_is_the_same_error():
    a = rp.Label(0)
    spec = spec_of(a, "A", max_matches=3)
    engine = RegexMatcher(spec, summary=SummaryRequest(frozenset({0}), frozenset(), frozenset()))
    engine.feed(RowBlock(masks=np.ones((1, 4), dtype=bool)))
    try:
        engine.finish()
    except MatchRuntimeError as error:
        assert error.code == "MATCH_BUDGET_EXCEEDED"
    else:
        raise AssertionError("four matches passed a budget of three")
