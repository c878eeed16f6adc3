"""The context MEASURES are evaluated in: a finished match seen as of one of its rows."""

from __future__ import annotations

from typing import Any, Callable

from sparkcep.engines.contract import Match


class MatchView:
    """A finished match seen as of one of its rows: the context MEASURES are evaluated in.

    ``upto`` is the number of the match's rows visible (RUNNING semantics at row ``upto - 1``; the
    whole match for FINAL)."""

    def __init__(self, match: Match, read: Callable[[int, int], Any]) -> None:
        self.match = match
        self.match_number = match.number
        self._read = read
        self._labels: dict[int, int] | None = None  # row -> variable, built on first label_of
        self.upto = len(match.rows)
        self.row = match.rows[-1] if match.rows else match.start

    def at(self, upto: int) -> "MatchView":
        self.upto = upto
        self.row = self.match.rows[upto - 1] if upto else self.match.start
        return self

    def mapped_rows(self, variables):
        rows = self.match.rows[: self.upto]
        if variables is None:
            return rows
        labels = self.match.labels
        return [row for row, label in zip(rows, labels) if label in variables]

    def navigate(self, variables, from_start: bool, offset: int) -> int | None:
        """The row FIRST/LAST(<variables>, offset) points to, as of ``upto``, or None."""
        rows, labels, upto = self.match.rows, self.match.labels, self.upto
        if variables is None:
            position = offset if from_start else upto - 1 - offset
            return rows[position] if 0 <= position < upto else None
        indices = range(upto) if from_start else range(upto - 1, -1, -1)
        for i in indices:
            if labels[i] in variables:
                if offset == 0:
                    return rows[i]
                offset -= 1
        return None

    def value(self, column: int, row: int):
        return self._read(column, row)

    def label_of(self, row: int) -> int:
        if self._labels is None:
            self._labels = dict(zip(self.match.rows, self.match.labels))
        return self._labels[row]
