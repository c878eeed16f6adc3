"""What a match-dependent condition sees of a run, for the engines that keep each run's selected
rows as two sequences (rows, labels): the SASE engines (``sase/``) and the imprecise-timestamp
engines (``uncertain/``), which do not import each other.

``RunContext`` is the ``MatchContext`` (``sparkcep.engines.contract``) over those rows plus the
candidate row, tentatively mapped to a variable; it reads values through the engine's row store.
``normalize_conditions`` puts the match-dependent conditions, given as a mapping or a sequence,
into one list indexed by variable id.
"""

from __future__ import annotations

from typing import Mapping, Protocol, Sequence

from sparkcep.engines.contract import Condition


class ColumnReader(Protocol):
    """Where a run's values are read: the engine's store of the rows it may still need."""

    def value(self, column: int, row: int):
        """The value of column ``column`` at absolute ``row``."""


class RunContext:
    """A ``MatchContext`` over a run's selected rows (``rows``/``labels``, in the run's order: row
    order for the SASE runs, match order -- the time order in every world where they match, not
    necessarily row order -- over imprecise timestamps) plus the candidate ``row`` tentatively
    mapped to ``var``. ``match_number`` is 0: under SKIP TILL NEXT/ANY MATCH the number of a match
    is only known once it is reported."""

    __slots__ = ("row", "var", "match_number", "_rows", "_labels", "_reader")

    def __init__(self, reader: ColumnReader, rows: Sequence[int], labels: Sequence[int], row: int,
                 var: int):
        self._reader = reader
        self._rows = rows
        self._labels = labels
        self.row = row
        self.var = var
        self.match_number = 0

    def mapped_rows(self, variables: frozenset[int] | None) -> Sequence[int]:
        if variables is None:
            return [*self._rows, self.row]
        present = set(self._labels)
        if present <= variables:
            out = list(self._rows)
        elif present.isdisjoint(variables):
            out = []
        else:
            out = [r for r, v in zip(self._rows, self._labels) if v in variables]
        if self.var in variables:
            out.append(self.row)
        return out

    def value(self, column: int, row: int):
        return self._reader.value(column, row)

    def label_of(self, row: int) -> int:
        if row == self.row:
            return self.var
        for r, v in zip(self._rows, self._labels):
            if r == row:
                return v
        raise KeyError(row)


def normalize_conditions(
    conditions: Mapping[int, Condition | None] | Sequence[Condition | None] | None, n_vars: int
) -> list[Condition | None]:
    """The condition of each variable id (None: only its row-local mask), from a mapping or a
    sequence of them, or None for none."""
    out: list[Condition | None] = [None] * n_vars
    if conditions is None:
        return out
    items = conditions.items() if isinstance(conditions, Mapping) else enumerate(conditions)
    for v, c in items:
        out[v] = c
    return out
