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
                start = resume_at(spec, start, rows, tuple(v for _, v, _ in mapped))
        except MatchRuntimeError as e:
            return events, e.code
        return events, None


def oracle_events(spec, conditions, masks, columns=(), order_key=None, limit=200_000):
    return Oracle(spec, conditions, masks, columns, order_key, limit).run()


# ---------------------------------------------------------------- measures and label functions
#
# The values of match-dependent expressions, written from ISO/IEC 19075-5 (5.6 navigation, 5.8
# aggregates, 5.6.5 RUNNING/FINAL) over "the visible rows": the match's rows as (row, variable)
# pairs up to the current row (RUNNING; in DEFINE with the candidate row mapped) or all of them
# (FINAL). Only the plan's node types are shared with the engine; the evaluation is separate.


def _set_rows(visible, variables):
    """Rows of the visible rows mapped to ``variables`` (None: all), in row order."""
    return [row for row, var in visible if variables is None or var in variables]


def _label_value(what, row, visible, number, names):
    """CLASSIFIER() / MATCH_NUMBER() of ``row``: defined only for a visible row of the match."""
    labels = dict(visible)
    if row not in labels:
        return None
    return names[labels[row]] if what == "classifier" else number


def _logical_row(visible, variables, from_start, offset):
    chosen = _set_rows(visible, variables)
    if not from_start:
        chosen = chosen[::-1]
    return chosen[offset] if offset < len(chosen) else None


def oracle_value(expr, visible, number, names, raw, current=None):
    """The value of plan expression ``expr``. ``visible``: ((row, var), ...); ``raw``: the
    partition's columns; a Navigation reads ``raw[column][row + shift]`` where the test encodes
    a nested PREV/NEXT as ``expr.column = (column, shift)``."""
    from sparkcep.plan import expressions as p

    if isinstance(expr, p.Constant):
        return expr.value
    if isinstance(expr, p.CurrentRow):
        return raw[expr.column][current]
    if isinstance(expr, p.MatchNumber):
        return number
    if isinstance(expr, p.NavigatedLabel):
        row = _logical_row(visible, expr.variables, expr.from_start, expr.offset)
        if row is None:
            return None
        return _label_value(expr.what, row + expr.shift, visible, number, names)
    if isinstance(expr, p.Navigation):
        row = _logical_row(visible, expr.variables, expr.from_start, expr.offset)
        column, shift = expr.column if isinstance(expr.column, tuple) else (expr.column, 0)
        if row is None or not 0 <= row + shift < len(raw[column]):
            return None
        return raw[column][row + shift]
    if isinstance(expr, p.LabelAggregate):
        values = [_label_value(expr.what, row, visible, number, names)
                  for row in _set_rows(visible, expr.variables)]
        if expr.distinct:
            values = sorted(set(values), key=str)
        if expr.function == "count":
            return len(values)
        if expr.function == "collect_list":
            return values
        if not values:
            return None
        return {"min": min, "max": max}[expr.function](values)
    if isinstance(expr, p.MatchRows):
        out = []
        for row in _set_rows(visible, expr.variables):
            item = {}
            for i, field in enumerate(expr.fields):
                item[f"f{i}"] = (_label_value(field, row, visible, number, names)
                                 if isinstance(field, str) else raw[field][row])
            out.append(item)
        return out
    if isinstance(expr, p.Operator):
        args = [oracle_value(o, visible, number, names, raw, current) for o in expr.operands]
        if expr.name == "and":
            if any(a is False for a in args):
                return False
            return None if any(a is None for a in args) else True
        if expr.name == "or":
            if any(a is True for a in args):
                return True
            return None if any(a is None for a in args) else False
        if expr.name == "not":
            return None if args[0] is None else not args[0]
        if expr.name == "is":
            return args[0] is None
        left, right = args
        if left is None or right is None:
            return None
        if expr.name == "eq":
            return left == right
        if expr.name == "neq":
            return left != right
        return left < right if expr.name == "lt" else left >= right
    raise AssertionError(f"oracle: unsupported expression {expr!r}")


def oracle_condition(expr, names, raw):
    """A DEFINE condition for ``Oracle``: RUNNING, with the candidate row mapped (5.6.5)."""

    def condition(ctx):
        visible = tuple((r, v) for r, v, _ in ctx.mapped) + ((ctx.row, ctx.var),)
        return oracle_value(expr, visible, ctx.match_number, names, raw, ctx.row) is True

    return condition


def oracle_measures(match, components, names, raw, all_rows):
    """Output rows (row, values) of one match: ALL ROWS PER MATCH: one per non-excluded row,
    components RUNNING (as of that row) unless FINAL; ONE ROW PER MATCH: one, FINAL. An empty
    match gives one row at its start, nothing visible."""
    pairs = tuple(zip(match.rows, match.labels))
    if not all_rows or not match.rows:
        return [(match.start, [oracle_value(c, pairs, match.number, names, raw) for c in components])]
    out = []
    excluded = match.excluded or (False,) * len(pairs)
    for i, (row, _) in enumerate(pairs):
        if excluded[i]:
            continue
        values = [oracle_value(c, pairs if getattr(c, "final", False) else pairs[: i + 1],
                               match.number, names, raw) for c in components]
        out.append((row, values))
    return out


def resume_at(spec, start: int, rows: tuple, labels: tuple) -> int:
    """Where the search resumes after a non-empty match at ``start`` over ``rows`` (their
    variables ``labels``): SQL:2016's AFTER MATCH SKIP, with its two run-time errors."""
    if spec.skip is SkipMode.PAST_LAST_ROW:
        return rows[-1] + 1
    if spec.skip is SkipMode.TO_NEXT_ROW:
        return start + 1
    targets = [r for r, v in zip(rows, labels) if v in spec.skip_to]
    if not targets:
        raise MatchRuntimeError("SKIP_TO_VARIABLE_WITHOUT_ROWS", "no rows")
    target = targets[0] if spec.skip is SkipMode.TO_FIRST else targets[-1]
    if target == start:
        raise MatchRuntimeError("SKIP_TO_FIRST_ROW_OF_MATCH", "first row")
    return target
