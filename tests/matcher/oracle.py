"""A brute-force SQL:2016 row pattern matcher, written from the definitions (test oracle).

It shares no code with ``sparkcep.engines.standard.matcher``/``sparkcep.engines.standard.program``: only the IR and contract types.
It works on a whole partition at once and is meant to be obviously correct, not fast.

Definitions implemented:

* A *derivation* of a pattern from a position is one way the pattern's syntax can produce a
  sequence of labelled rows, together with its *choice sequence*: every decision taken, in the
  order the decisions appear along the pattern:
    - alternation: the index of the chosen alternative (0 = leftmost = most preferred);
    - PERMUTE: the index of the chosen ordering among all orderings of the items listed in
      lexicographic order of item positions;
    - quantifier, before iteration ``i`` when both "one more iteration" and "stop" are allowed
      (``min <= i < max``): 0 for the preferred option (iterate if greedy, stop if reluctant), 1 for
      the other. When only one option is allowed, nothing is recorded.
  ``^`` derives nothing and requires position 0; ``$`` requires position = row count.
* Empty-iteration rule: an iteration ``i >= min`` of a quantifier whose body derives no rows is not
  a derivation (this is what makes ``()*``, ``(A?)*``, ``(A*)*`` finite).
* A derivation is *valid* when every row, in order, satisfies its variable: mask true and the
  match-dependent condition (if any) truthy with RUNNING semantics (the rows derived before it,
  plus itself); and, with WITHIN, ``key[last] - key[first] < within``.
* Preferment: derivations compare lexicographically by choice sequence (the choice sequences of
  two different derivations are never prefixes of one another, since each decision point is
  determined by the earlier choices). The match from a row is the least valid derivation.
* Then AFTER MATCH SKIP, empty matches, unmatched rows, match numbering, guards.

Restricting the enumeration to derivations whose prefix is valid is only an optimisation: the
validity of a row depends only on the rows derived before it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from sparkcep.engines import rowpattern as rp
from sparkcep.errors import MatchRuntimeError
from sparkcep.engines.contract import Match, UnmatchedRow
from sparkcep.engines.spec import MatchSpec, RowsPerMatch, SkipMode


class OracleTooBig(Exception):
    """The enumeration exceeded the oracle's limit (tests discard such inputs)."""


@dataclass
class _Ctx:
    row: int
    var: int
    match_number: int
    mapped: tuple  # ((row, var, excluded), ...) before the candidate
    columns: tuple

    def mapped_rows(self, variables):
        rows = [r for r, v, _ in self.mapped if variables is None or v in variables]
        if variables is None or self.var in variables:
            rows.append(self.row)
        return rows

    def value(self, column, row):
        return self.columns[column][row]

    def label_of(self, row):
        if row == self.row:
            return self.var
        for r, v, _ in self.mapped:
            if r == row:
                return v
        raise KeyError(row)


class Oracle:
    def __init__(self, spec: MatchSpec, conditions, masks, columns=(), order_key=None, limit=200_000):
        self.spec = spec
        self.conditions = dict(conditions or {})
        self.masks = masks
        self.n = masks.shape[1]
        self.columns = columns
        self.order_key = order_key
        self.limit = limit
        self.count = 0

    # ---------------------------------------------------------------- derivations

    def row_ok(self, row, var, mapped, number):
        if row >= self.n or not self.masks[var, row]:
            return False
        cond = self.conditions.get(var)
        if cond is None:
            return True
        return bool(cond(_Ctx(row, var, number, mapped, self.columns)))

    def derive(self, p, pos, mapped, excluded, number):
        """Yield (end position, mapped rows, choice tuple) for every derivation of ``p``."""
        self.count += 1
        if self.count > self.limit:
            raise OracleTooBig()
        if isinstance(p, rp.Label):
            if self.row_ok(pos, p.var, mapped, number):
                yield pos + 1, mapped + ((pos, p.var, excluded),), ()
        elif isinstance(p, rp.Empty):
            yield pos, mapped, ()
        elif isinstance(p, rp.Anchor):
            if (p.start and pos == 0) or (not p.start and pos == self.n):
                yield pos, mapped, ()
        elif isinstance(p, rp.Concat):
            yield from self.derive_seq(list(p.items), pos, mapped, excluded, number)
        elif isinstance(p, rp.Alternation):
            for i, item in enumerate(p.items):
                for end, m, ch in self.derive(item, pos, mapped, excluded, number):
                    yield end, m, (i,) + ch
        elif isinstance(p, rp.Permute):
            orders = list(itertools.permutations(range(len(p.items))))
            assert orders == sorted(orders)
            for i, order in enumerate(orders):
                items = [p.items[k] for k in order]
                for end, m, ch in self.derive_seq(items, pos, mapped, excluded, number):
                    yield end, m, (i,) + ch
        elif isinstance(p, rp.Exclusion):
            yield from self.derive(p.pattern, pos, mapped, True, number)
        elif isinstance(p, rp.Quantified):
            yield from self.derive_iter(p, 0, pos, mapped, excluded, number)
        else:
            raise AssertionError(f"oracle: unsupported node {p!r}")

    def derive_seq(self, items, pos, mapped, excluded, number):
        if not items:
            yield pos, mapped, ()
            return
        for end, m, ch in self.derive(items[0], pos, mapped, excluded, number):
            for end2, m2, ch2 in self.derive_seq(items[1:], end, m, excluded, number):
                yield end2, m2, ch + ch2

    def derive_iter(self, q, i, pos, mapped, excluded, number):
        """Derivations of the iterations ``i, i+1, ...`` of quantifier ``q``."""
        may_stop = i >= q.min
        may_iterate = q.max is None or i < q.max
        both = may_stop and may_iterate
        iterate_tag = (0 if q.greedy else 1,) if both else ()
        stop_tag = (1 if q.greedy else 0,) if both else ()
        if may_iterate:
            for end, m, ch in self.derive(q.pattern, pos, mapped, excluded, number):
                if i >= q.min and end == pos:
                    continue  # empty-iteration rule
                for end2, m2, ch2 in self.derive_iter(q, i + 1, end, m, excluded, number):
                    yield end2, m2, iterate_tag + ch + ch2
        if may_stop:
            yield pos, mapped, stop_tag

    def best_match(self, start, number):
        valid = []
        for end, mapped, choices in self.derive(self.spec.pattern, start, (), False, number):
            if mapped and self.spec.within is not None:
                if not (self.order_key[mapped[-1][0]] - self.order_key[mapped[0][0]] < self.spec.within):
                    continue
            valid.append((choices, mapped))
        if not valid:
            return None
        valid.sort()
        for (a, _), (b, _) in zip(valid, valid[1:]):
            # sorted: if a is a prefix of any later sequence, it is a prefix of its successor
            assert b[: len(a)] != a, "choice sequences must be distinct and prefix-free"
        return valid[0][1]

    # ---------------------------------------------------------------- the partition

    def run(self):
        """(events, error code or None)."""
        spec = self.spec
        events = []
        number = 0
        covered = 0  # rows below belong to an earlier match
        start = 0
        try:
            while start < self.n:
                self.count = 0
                mapped = self.best_match(start, number + 1)
                if mapped is None:
                    if spec.rows_per_match is RowsPerMatch.ALL_WITH_UNMATCHED and start >= covered:
                        events.append(UnmatchedRow(start))
                    start += 1
                    continue
                number += 1
                if number > spec.max_matches:
                    raise MatchRuntimeError("MATCH_BUDGET_EXCEEDED", "too many matches")
                rows = tuple(r for r, _, _ in mapped)
                assert rows == tuple(range(start, start + len(rows)))
                events.append(
                    Match(
                        number=number,
                        start=start,
                        rows=rows,
                        labels=tuple(v for _, v, _ in mapped),
                        excluded=tuple(e for _, _, e in mapped),
                    )
                )
                if not rows:
                    start += 1
                    continue
                covered = max(covered, rows[-1] + 1)
                if spec.skip is SkipMode.PAST_LAST_ROW:
                    start = rows[-1] + 1
                elif spec.skip is SkipMode.TO_NEXT_ROW:
                    start = start + 1
                else:
                    targets = [r for r, v, _ in mapped if v in spec.skip_to]
                    if not targets:
                        raise MatchRuntimeError("SKIP_TO_VARIABLE_WITHOUT_ROWS", "no rows")
                    target = targets[0] if spec.skip is SkipMode.TO_FIRST else targets[-1]
                    if target == start:
                        raise MatchRuntimeError("SKIP_TO_FIRST_ROW_OF_MATCH", "first row")
                    start = target
        except MatchRuntimeError as e:
            return events, e.code
        return events, None


def oracle_events(spec, conditions, masks, columns=(), order_key=None, limit=200_000):
    return Oracle(spec, conditions, masks, columns, order_key, limit).run()
