"""``RunContext``, the MatchContext the SASE and imprecise-timestamp engines give match-dependent
conditions, against the contract's definition written out directly: ``mapped_rows(variables)``
is the selected rows whose label is among ``variables`` (every one for None), in the order the
run keeps them, then the candidate row when its variable is among them. The fast paths (every
label in the set, none in it) must agree with that filter."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sparkcep.engines.run_context import RunContext, normalize_conditions


class _Columns:
    """Values of column c at row r: (c, r), so a read shows which cell it asked for."""

    def value(self, column: int, row: int):
        return (column, row)


@st.composite
def _runs(draw):
    n = draw(st.integers(0, 8))
    rows = draw(st.lists(st.integers(0, 50), min_size=n, max_size=n, unique=True))
    labels = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    row = draw(st.integers(51, 60))
    var = draw(st.integers(0, 3))
    variables = draw(st.none() | st.frozensets(st.integers(0, 3)))
    return rows, labels, row, var, variables


@given(_runs())
def test_mapped_rows_is_the_label_filter(run):
    rows, labels, row, var, variables = run
    expected = [r for r, v in zip(rows, labels) if variables is None or v in variables]
    if variables is None or var in variables:
        expected.append(row)
    ctx = RunContext(_Columns(), tuple(rows), tuple(labels), row, var)
    assert list(ctx.mapped_rows(variables)) == expected
    assert ctx.match_number == 0


@given(_runs())
def test_label_of_and_value(run):
    rows, labels, row, var, _variables = run
    ctx = RunContext(_Columns(), rows, labels, row, var)
    assert ctx.label_of(row) == var
    for r, v in zip(rows, labels):
        assert ctx.label_of(r) == v
        assert ctx.value(2, r) == (2, r)
    try:
        ctx.label_of(100)
    except KeyError:
        pass
    else:
        raise AssertionError("label_of of a row the run has not selected")


def test_normalize_conditions_from_a_mapping_a_sequence_or_none():
    def c(_ctx):
        return True

    assert normalize_conditions(None, 3) == [None, None, None]
    assert normalize_conditions({2: c}, 3) == [None, None, c]
    assert normalize_conditions([c, None], 3) == [c, None, None]
