"""The SQL:2016 row pattern matcher (STRICT CONTIGUITY), batch by batch.

``RowPatternMatcher(spec, conditions)`` implements ``sparkcep.engines.contract.Engine`` for one partition:

    engine = RowPatternMatcher(spec, conditions)
    for block in blocks:            # consecutive RowBlocks of the partition, in ORDER BY order
        emit(engine.feed(block))    # the events that are already final
    emit(engine.finish())           # the rest

Algorithm (details in ``docs/matcher.md``): the pattern is compiled (``sparkcep.engines.standard.program``) to a
program run by a depth-first backtracking VM, which tries alternatives in preference order, so the
first match it finds from a start row is the most preferred one. An attempt that needs a row not
yet fed (or must know whether the partition ends, for ``$``) is suspended with its whole VM state
and resumed by the next ``feed``/``finish``; events after it wait. Failures of
(pc, row, live-register state) are memoized where no match-dependent condition lies ahead, so
patterns over row-local conditions stay polynomial; every VM step counts against
``spec.max_steps``.

Match-dependent conditions made by ``evaluation.make_condition`` run in their specialized form
(``codegen.specialize``): a function of (candidate's buffer index, start's buffer index, columns,
tracks, match number) that reads FIRST/LAST from the attempt's *tracks* (per navigated variable
set, the path indices of the rows mapped to it), which the VM appends to and truncates together
with the path, so navigation is O(1) and no context object is built. Other conditions get a
``_Context`` (the ``MatchContext`` protocol).

State kept between calls (fields on the instance):

* the buffered rows from ``next_start`` (the start row of the current or next attempt) onwards:
  masks (one ``bytes`` per variable), columns, order keys, and the candidate-start flags (``bytes``:
  rows where a variable that can map the first row of a match holds); every earlier row is dropped;
* ``next_start``, ``covered`` (rows below it belong to an earlier match), ``match_number``,
  ``steps`` (budget used), ``seen`` (rows fed), ``finished``;
* the suspended attempt, if any (``_Attempt``): its start row, VM position (pc, mapped path,
  registers), the backtracking stack, the navigation tracks and the memo of failed states. It is
  bounded by the rows of the attempt times the program size (times 2^live registers, in practice
  tiny). All of it is plain lists, tuples, dicts and ints.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from sparkcep.errors import InternalError, MatchRuntimeError
from sparkcep.engines.budgets import budget_exceeded
from sparkcep.engines.contract import Condition, Match, MatchEvent, RowBlock, UnmatchedRow
from sparkcep.engines.spec import MatchSpec, RowsPerMatch, SkipMode, Strategy
from sparkcep.engines.standard.program import BEGIN, CHECK, END, JUMP, LABEL, MATCH, SAVE, SPLIT, Program, compile_pattern

__all__ = ["RowPatternMatcher"]

_CHECK_EVERY = 1 << 14  # VM steps between checks of the live-runs budget (the stack size)
_MORE = object()  # the attempt needs rows (or the end of the partition) not yet seen
_FAIL = object()  # no match starts at the attempt's row


class _Attempt:
    """A (possibly suspended) VM run from one start row.

    Attributes:
        start: the start row (absolute).
        pc, regs: where the VM stands (registers: see ``sparkcep.engines.standard.program``).
        path: the LABEL pc of each row mapped so far (row = start + index).
        stack: choice points, ``(pc to resume at, path length, regs)``.
        tracks: navigation state for the specialized conditions: ``tracks[k]`` holds the path
            indices (row - start) of the rows mapped so far to a variable of the k-th navigated
            variable set (``RowPatternMatcher._slots``), increasing. Appended to with ``path``;
            truncated with it on backtracking (entries >= the restored path length are popped).
            So FIRST/LAST(S.x, k) is an index into one list.
        visited: the failure memo (below).
        start_key: the ORDER BY key of the start row (WITHIN), else None.
    """

    __slots__ = ("start", "pc", "path", "regs", "stack", "visited", "start_key", "tracks")

    def __init__(self, start: int, pc: int, path: list[int], regs: tuple, stack: list[tuple],
                 visited: dict, tracks: list[list[int]], start_key) -> None:
        self.start = start
        self.pc = pc
        self.path = path
        self.regs = regs
        self.stack = stack
        # memoized states by position: {row: {pc or (pc, live-register flags)}}. A state met again
        # has failed: the search stops at the first success, and a state is never reached again
        # inside its own subtree (every iteration past a quantifier's minimum consumes a row).
        self.visited = visited
        self.tracks = tracks
        self.start_key = start_key


class _Context:
    """The MatchContext handed to a match-dependent condition (RUNNING semantics) that has no
    specialized form (see ``RowPatternMatcher._compile_conditions``). One is made per attempt and its ``row``
    and ``var`` are set before each call: a condition must not keep it."""

    __slots__ = ("row", "var", "match_number", "_matcher", "_start", "_path")


    def __init__(self, matcher: "RowPatternMatcher", start: int, path: list[int], row: int, var: int, number: int):
        self._matcher = matcher
        self._start = start
        self._path = path
        self.row = row
        self.var = var
        self.match_number = number

    def mapped_rows(self, variables: frozenset[int] | None) -> Sequence[int]:
        labels = self._matcher._program.arg_a
        start = self._start
        if variables is None:
            rows = list(range(start, start + len(self._path)))
        else:
            rows = [start + i for i, pc in enumerate(self._path) if labels[pc] in variables]
        if variables is None or self.var in variables:
            rows.append(self.row)
        return rows

    def navigate(self, variables: frozenset[int] | None, from_start: bool, offset: int) -> int | None:
        """The row FIRST/LAST(<variables>, offset) points to, or None (without building
        ``mapped_rows``)."""
        labels = self._matcher._program.arg_a
        path, start = self._path, self._start
        include = variables is None or self.var in variables
        if from_start:
            if variables is None:
                if offset < len(path):
                    return start + offset
                return self.row if offset == len(path) else None
            for i, pc in enumerate(path):
                if labels[pc] in variables:
                    if offset == 0:
                        return start + i
                    offset -= 1
            return self.row if include and offset == 0 else None
        if include:
            if offset == 0:
                return self.row
            offset -= 1
        if variables is None:
            i = len(path) - 1 - offset
            return start + i if i >= 0 else None
        for i in range(len(path) - 1, -1, -1):
            if labels[path[i]] in variables:
                if offset == 0:
                    return start + i
                offset -= 1
        return None

    def value(self, column: int, row: int):
        return self._matcher._value(column, row)

    def label_of(self, row: int) -> int:
        if row == self.row:
            return self.var
        i = row - self._start
        if 0 <= i < len(self._path):
            return self._matcher._program.arg_a[self._path[i]]
        raise InternalError(f"label_of({row}): row is not mapped in the current match")


def _concat(old, new):
    if old is None or len(old) == 0:
        return new
    if isinstance(old, np.ndarray) and isinstance(new, np.ndarray):
        return np.concatenate([old, new])
    return list(old) + list(new)


class RowPatternMatcher:
    """SQL:2016 MATCH_RECOGNIZE matcher for one partition (``Strategy.STRICT_CONTIGUITY``).

    Args:
        spec: the query's MatchSpec.
        conditions: match-dependent conditions by variable id (a variable maps a row iff its mask
            is true and, when present, its condition returns a truthy value).
    """

    def __init__(self, spec: MatchSpec, conditions: dict[int, Condition] | None = None) -> None:
        if spec.strategy is not Strategy.STRICT_CONTIGUITY:
            raise InternalError(f"RowPatternMatcher implements STRICT CONTIGUITY, not {spec.strategy}")
        if spec.skip in (SkipMode.TO_FIRST, SkipMode.TO_LAST) and not spec.skip_to:
            raise InternalError("AFTER MATCH SKIP TO FIRST/LAST without target variables")
        self.spec = spec
        self.conditions = dict(conditions or {})
        self._program: Program = compile_pattern(spec.pattern, frozenset(self.conditions))
        self._first = (
            None if self._program.first_vars is None else sorted(self._program.first_vars)
        )
        self._unmatched = spec.rows_per_match is RowsPerMatch.ALL_WITH_UNMATCHED
        self._compile_conditions()
        # False when no state is ever memoized (every LABEL and SPLIT has a match-dependent
        # condition ahead): the memo then stays empty and needs no pruning
        prog = self._program
        self._uses_memo = any(ok for op, ok in zip(prog.ops, prog.memo_ok) if op in (LABEL, SPLIT))
        # per pc: True for a LABEL inside {- -} (Match.excluded)
        self._excluded = tuple(op == LABEL and bool(b) for op, b in zip(self._program.ops, self._program.arg_b))
        self._any_excluded = any(self._excluded)
        # buffered rows [base, seen)
        self._base = 0
        self._seen = 0
        self._masks: list[bytes] | None = None  # per variable: one byte (0/1) per buffered row
        self._columns: list | None = None
        self._order_key = None
        self._cand: bytes | None = None  # per buffered row: 1 if a first variable's mask holds
        # progress
        self._finished = False
        self._next_start = 0
        self._covered = 0
        self._match_number = 0
        self._steps = 0
        self._pending_rows = 0  # rows of the matches found in the current call (budget)
        self._attempt: _Attempt | None = None
        # failure memo carried from failed attempts to the next one (see _new_attempt)
        self._memo: dict[int, set] = {}
        self._memo_low = 0
        # in a window (R020, ``spec.window``): the row whose frame is searched, the first row
        # without an event yet, and per variable its masks near the frame's edges
        self._anchor = 0
        self._emitted = 0
        self._edges = _edge_tables(spec)

    def _compile_conditions(self) -> None:
        """Per variable id, how the VM checks its condition:

        * ``_fast[v]``: the specialized form (``codegen.specialize``, obtained through the
          condition's ``specialize`` attribute, which ``evaluation.make_condition`` provides),
          called as ``f(i, lo, cols, tracks, number)``; None when there is none;
        * ``_slow[v]``: the condition itself, called with a ``_Context`` when there is no fast
          form, and when the fast form raises TypeError (mixed numeric types: the general form
          falls back to the interpreter);
        * ``_slots``: navigated variable set -> index in ``_Attempt.tracks``; ``_tracks_of[v]``:
          the indices of the tracks a row mapped to ``v`` is appended to.
        """
        n_vars = len(self.spec.variable_names)
        for v in self.conditions:
            n_vars = max(n_vars, v + 1)
        self._fast: list = [None] * n_vars
        self._slow: list = [None] * n_vars
        self._slots: dict[frozenset[int], int] = {}
        for v, condition in sorted(self.conditions.items()):
            self._slow[v] = condition
            specialize = getattr(condition, "specialize", None)
            if specialize is not None:
                self._fast[v] = specialize(v, self._slots)
        self._tracks_of = [
            tuple(slot for variables, slot in self._slots.items() if v in variables) for v in range(n_vars)
        ]

    @property
    def buffered_rows(self) -> int:
        """Rows currently held (from the earliest row still needed to the last row fed)."""
        return self._seen - self._base

    @property
    def steps(self) -> int:
        """VM steps used so far in this partition (counted against ``spec.max_steps``)."""
        return self._steps

    # ------------------------------------------------------------------ Engine API

    def feed(self, block: RowBlock) -> list[MatchEvent]:
        """Consume the next rows; return the events that are final. A MatchRuntimeError carries
        the events decided in this call before it in its ``events`` attribute; the engine must
        not be used after one."""
        if self._finished:
            raise InternalError("feed() after finish()")
        n = len(block)
        if n == 0:
            return []
        masks = np.asarray(block.masks, dtype=bool)
        # One bytes object per variable (indexing bytes is much cheaper than indexing NumPy).
        rows = [masks[v].tobytes() for v in range(masks.shape[0])]
        cand = None
        if self._first is not None:
            cand = masks[self._first].any(axis=0).tobytes() if self._first else bytes(n)
        if self._masks is None:
            self._masks = rows
            self._cand = cand
            self._columns = list(block.columns)
            self._order_key = None if block.order_key is None else np.asarray(block.order_key)
        else:
            self._masks = [old + new for old, new in zip(self._masks, rows)]
            if cand is not None:
                self._cand += cand
            self._columns = [_concat(old, new) for old, new in zip(self._columns, block.columns)]
            if block.order_key is not None:
                self._order_key = _concat(self._order_key, np.asarray(block.order_key))
        if self.spec.within is not None and self._order_key is None:
            raise InternalError("WITHIN needs RowBlock.order_key")
        self._seen += n
        return self._advance()

    def finish(self) -> list[MatchEvent]:
        if self._finished:
            return []
        self._finished = True
        return self._advance()

    # ------------------------------------------------------------------ driver

    def _advance(self) -> list[MatchEvent]:
        events: list[MatchEvent] = []
        self._pending_rows = 0
        try:
            self._drain(events)
            if self.spec.window is not None:
                # rows before the searched frame's row without a match: unmatched or skipped
                last = self._seen if self._finished else self._anchor
                events.extend(UnmatchedRow(r) for r in range(self._emitted, last))
                self._emitted = max(self._emitted, last)
            if self.buffered_rows > self.spec.max_buffered_rows:
                raise budget_exceeded(self.spec, "max_buffered_rows", "rows of one pending match attempt")
        except MatchRuntimeError as error:
            # the events decided before the error (e.g. the match whose SKIP target is invalid)
            error.events = events
            raise
        return events

    def _drain(self, events: list[MatchEvent]) -> None:
        """Run attempts, in row order, until one needs rows (or the end of the partition) not yet
        seen, which is then suspended in ``self._attempt``, or no row is left to start at.

        One call runs many attempts (with SKIP TO NEXT ROW, one per row): the buffers and program
        are bound to locals once, and an attempt's VM state lives in locals, saved to an
        ``_Attempt`` only when it is suspended. The VM itself is described in ``docs/matcher.md``.
        """
        spec = self.spec
        prog = self._program
        ops, arg_a, arg_b, live, memo_ok = prog.ops, prog.arg_a, prog.arg_b, prog.live, prog.memo_ok
        regs0 = (-1,) * prog.n_regs
        masks = self._masks
        cols = self._columns
        cand = self._cand
        base = self._base
        avail = self._seen
        finished = self._finished
        unmatched = self._unmatched
        fast, slow, tracks_of = self._fast, self._slow, self._tracks_of
        n_tracks = len(self._slots)
        within = spec.within
        keys = self._order_key
        budget = spec.max_steps - self._steps
        steps = 0
        check = min(budget, _CHECK_EVERY)  # steps at which the budgets are checked next
        uses_memo = self._uses_memo
        window = spec.window
        edges = self._edges
        anchor = self._anchor
        frame_end = None
        if window is not None:
            cand = None  # a frame's first row may match where the row before could not
            seek, following = window.seek, window.following
        spare = None  # the tracks of the last attempt that ended, to reuse
        att = self._attempt
        next_start = self._next_start  # written back to self._next_start when the loop ends
        number = self._match_number + 1  # the number the next match gets
        try:
            while True:
                # -- the next attempt: the suspended one, or a new one at the next candidate row
                if att is not None:
                    start, pc, path, regs = att.start, att.pc, att.path, att.regs
                    stack, visited, tracks, start_key = att.stack, att.visited, att.tracks, att.start_key
                    self._attempt = att = None
                    pos = start + len(path)
                else:
                    start = next_start
                    if start >= avail:
                        if window is not None and finished and anchor + 1 < avail:
                            anchor += 1  # SEEK ran off the partition: the next row's frame
                            next_start = anchor
                            continue
                        break
                    if cand is not None:
                        # No match can start where no first variable's mask holds: jump to the
                        # next candidate row (the rows in between are unmatched).
                        hit = cand.find(1, start - base)
                        nxt = avail if hit < 0 else base + hit
                        if nxt > start:
                            if unmatched:
                                self._unmatched_between(start, nxt, events)
                            next_start = start = nxt
                            if start >= avail:
                                break
                    pc, path, regs, stack = 0, [], regs0, []
                    if window is not None:
                        visited = {}  # a frame's end and edges depend on its row: no carried memo
                    else:
                        visited = self._memo_from(start) if uses_memo else self._memo
                    if spare is None:
                        tracks = [[] for _ in range(n_tracks)]
                    else:  # reuse the lists of the last attempt that ended (cheaper than new ones)
                        tracks, spare = spare, None
                        for track in tracks:
                            track.clear()
                    start_key = None if within is None else keys[start - base]
                    pos = start
                lo = start - base  # buffer index of the start row
                if window is not None:
                    frame_end = None if following is None else anchor + following
                ctx = None  # the _Context for conditions without a fast form, made on first use

                # -- the VM: run until MATCH (result = path), failure (_FAIL) or suspension (_MORE)
                while True:
                    steps += 1
                    if steps > check:
                        self._check_budgets(steps, budget, stack)
                        check = min(budget, steps + _CHECK_EVERY)
                    op = ops[pc]
                    ok = True
                    if op == LABEL:
                        if frame_end is not None and pos > frame_end:
                            ok = False  # a match cannot leave the window frame
                        elif pos >= avail:
                            if not finished:
                                result = _MORE
                                break
                            ok = False
                        else:
                            if memo_ok[pc]:
                                lv = live[pc]
                                key = (pc, tuple([regs[r] == pos for r in lv])) if lv else pc
                                seen = visited.get(pos)
                                if seen is None:
                                    visited[pos] = {key}
                                elif key in seen:
                                    ok = False
                                else:
                                    seen.add(key)
                            if ok:
                                var = arg_a[pc]
                                i = pos - base
                                mask = masks[var]
                                if edges is not None and (edge := edges[var]) is not None:
                                    mask = masks[_edge_mask(edge, pos - anchor, frame_end, pos, var)]
                                if not mask[i]:
                                    ok = False
                                elif within is not None and not (keys[i] - start_key < within):
                                    ok = False
                                elif (condition := fast[var]) is not None:
                                    try:
                                        ok = condition(i, lo, cols, tracks, number)
                                    except TypeError:  # mixed numeric types: the general form converts
                                        ok = slow[var](_Context(self, start, path, pos, var, number))
                                elif slow[var] is not None:
                                    if ctx is None:
                                        ctx = _Context(self, start, path, pos, var, number)
                                    ctx.row, ctx.var = pos, var
                                    ok = slow[var](ctx)
                            if ok:
                                for slot in tracks_of[var]:
                                    tracks[slot].append(pos - start)
                                path.append(pc)
                                pos += 1
                                pc += 1
                                continue
                    elif op == SPLIT:
                        if memo_ok[pc]:
                            lv = live[pc]
                            key = (pc, tuple([regs[r] == pos for r in lv])) if lv else pc
                            seen = visited.get(pos)
                            if seen is None:
                                visited[pos] = {key}
                            elif key in seen:
                                ok = False
                            else:
                                seen.add(key)
                        if ok:
                            stack.append((arg_b[pc], len(path), regs))
                            pc = arg_a[pc]
                            continue
                    elif op == JUMP:
                        pc = arg_a[pc]
                        continue
                    elif op == SAVE:
                        r = arg_a[pc]
                        regs = regs[:r] + (pos,) + regs[r + 1:]
                        pc += 1
                        continue
                    elif op == CHECK:
                        if regs[arg_a[pc]] != pos:
                            pc += 1
                            continue
                        ok = False
                    elif op == BEGIN:
                        if pos == 0:
                            pc += 1
                            continue
                        ok = False
                    elif op == END:
                        if pos < avail:
                            ok = False
                        elif not finished:
                            result = _MORE
                            break
                        else:
                            pc += 1
                            continue
                    elif op == MATCH:
                        result = path
                        break
                    else:  # pragma: no cover
                        raise InternalError(f"bad opcode {op}")
                    # failure: backtrack to the latest choice point
                    if not stack:
                        result = _FAIL
                        break
                    pc, length, regs = stack.pop()
                    del path[length:]
                    pos = start + length
                    for track in tracks:
                        while track and track[-1] >= length:
                            track.pop()

                # -- the attempt's outcome
                if result is _MORE:
                    self._attempt = _Attempt(start, pc, path, regs, stack, visited, tracks, start_key)
                    break
                spare = tracks
                if result is _FAIL:  # the frequent outcome, kept inline
                    if within is not None:
                        self._memo = {}
                    if unmatched and start >= self._covered:
                        events.append(UnmatchedRow(start))
                    next_start = start + 1
                    if window is not None and not (seek and (frame_end is None or next_start <= frame_end)):
                        anchor += 1  # no match in this row's frame
                        next_start = anchor
                else:
                    self._anchor = anchor
                    next_start = self._concluded(start, result, events)
                    number = self._match_number + 1
                    anchor = next_start
        finally:
            self._steps += steps
            self._next_start = next_start
            self._anchor = anchor
        self._trim()

    def _unmatched_between(self, start: int, nxt: int, events: list[MatchEvent]) -> None:
        """Report the rows in [start, nxt) outside earlier matches as unmatched: no match starts
        there (no first variable's mask holds)."""
        events.extend(UnmatchedRow(r) for r in range(max(start, self._covered), nxt))

    def _concluded(self, start: int, path: list[int], events: list[MatchEvent]) -> int:
        """Record the match of the attempt at ``start`` (``path``: its LABEL pcs); return the row
        the next attempt starts at."""
        self._memo = {}
        return self._matched(start, path, events)

    def _memo_from(self, start: int) -> dict:
        """The failure memo for an attempt at ``start``. Without WITHIN, a memoized state's future
        depends only on (pc, row, live registers vs row), not on the start row, so the states of
        failed attempts (all of which failed) stay valid for the next attempt: a run of failing
        start rows costs O(program x rows), not O(program x rows^2). Memo entries for rows before
        ``start`` can never be met again and are dropped."""
        memo = self._memo
        if memo:
            if start - self._memo_low < len(memo):
                for row in range(self._memo_low, start):
                    memo.pop(row, None)
            else:
                for row in [r for r in memo if r < start]:
                    del memo[row]
        self._memo_low = start
        return memo

    def _matched(self, start: int, path: list[int], events: list[MatchEvent]) -> int:
        """Record the match of the attempt at ``start`` (``path``: its LABEL pcs); return the row
        the next attempt starts at (AFTER MATCH SKIP)."""
        spec = self.spec
        number = self._match_number + 1
        if number > spec.max_matches:
            raise budget_exceeded(spec, "max_matches")
        self._match_number = number
        labels = tuple(map(self._program.arg_a.__getitem__, path))
        n = len(path)
        end = start + n
        self._hold(n)
        excluded = tuple(map(self._excluded.__getitem__, path)) if self._any_excluded else (False,) * n
        if spec.window is not None:
            anchor = self._anchor
            events.extend(UnmatchedRow(r) for r in range(self._emitted, anchor))
            self._emitted = anchor + 1
            events.append(Match(number, start, tuple(range(start, end)), labels, excluded, anchor=anchor))
        else:
            events.append(Match(number, start, tuple(range(start, end)), labels, excluded))
        if not path:
            return start + 1
        if end > self._covered:
            self._covered = end
        skip = spec.skip
        if skip is SkipMode.TO_NEXT_ROW:
            return start + 1
        if skip is SkipMode.PAST_LAST_ROW:
            return end
        return self._skip_target(start, end, labels)

    def _skip_target(self, start: int, end: int, labels: list[int]) -> int:
        spec = self.spec
        if spec.skip is SkipMode.PAST_LAST_ROW:
            return end
        if spec.skip is SkipMode.TO_NEXT_ROW:
            return start + 1
        targets = spec.skip_to
        hits = [i for i, v in enumerate(labels) if v in targets]
        names = ", ".join(spec.variable_names[v] for v in sorted(targets))
        mode = "FIRST" if spec.skip is SkipMode.TO_FIRST else "LAST"
        if not hits:
            raise MatchRuntimeError(
                "SKIP_TO_VARIABLE_WITHOUT_ROWS",
                f"AFTER MATCH SKIP TO {mode} ({names}): match {self._match_number} starting at row "
                f"{start} maps no row to the target variable",
            )
        target = start + (hits[0] if spec.skip is SkipMode.TO_FIRST else hits[-1])
        if target == start:
            raise MatchRuntimeError(
                "SKIP_TO_FIRST_ROW_OF_MATCH",
                f"AFTER MATCH SKIP TO {mode} ({names}): match {self._match_number} would resume at "
                f"its own first row {start} (this would loop forever)",
            )
        return target

    def _trim(self) -> None:
        """Drop the buffered rows before the earliest row still needed."""
        keep = self._next_start if self._attempt is None else self._attempt.start
        if self.spec.window is not None:
            keep = min(keep, self._emitted)  # rows not yet output
        k = keep - self._base
        if k <= 0 or self._masks is None:
            return
        self._masks = [m[k:] for m in self._masks]
        self._columns = [col[k:] for col in self._columns]
        if self._order_key is not None:
            self._order_key = self._order_key[k:]
        if self._cand is not None:
            self._cand = self._cand[k:]
        self._base = keep

    def _value(self, column: int, row: int):
        i = row - self._base
        if i < 0 or row >= self._seen:
            raise InternalError(f"value({column}, {row}): row is not buffered")
        return self._columns[column][i]

    def _pattern_text(self) -> str:
        return self.spec.pattern_text()

    def _check_budgets(self, steps: int, budget: int, stack: list) -> None:
        """Raise MATCH_BUDGET_EXCEEDED when the attempt used more steps than left in
        ``max_steps`` or holds more choice points (its live partial matches) than
        ``max_live_runs``."""
        if steps > budget:
            raise budget_exceeded(self.spec, "max_steps")
        if len(stack) > self.spec.max_live_runs:
            raise budget_exceeded(self.spec, "max_live_runs", "backtracking choice points")

    def _hold(self, rows: int) -> None:
        """``rows`` more rows of matches wait for the output of this call: check them, with the
        buffered input rows, against ``max_buffered_rows``."""
        self._pending_rows += rows
        if self._pending_rows + self._seen - self._base > self.spec.max_buffered_rows:
            raise budget_exceeded(self.spec, "max_buffered_rows")


def _edge_tables(spec: MatchSpec) -> list | None:
    """Per variable id, how its row-local condition changes near a window frame's edges
    (``PatternWindow.edges``): None where it does not, else (largest PREV offset, largest NEXT
    offset, {(rows after the frame's first row, rows before its last row): mask row})."""
    window = spec.window
    if window is None or not window.edges:
        return None
    tables: list = [None] * len(spec.variable_names)
    for var, before, after, mask in window.edges:
        _, _, table = tables[var] or (0, 0, {})
        table[(before, after)] = mask
        tables[var] = (max(b for b, _ in table), max(a for _, a in table), table)
    return tables


def _edge_mask(edge: tuple, before: int, frame_end: int | None, pos: int, var: int) -> int:
    """The mask row of ``var`` at ``pos``, ``before`` rows after the frame's first row."""
    most_before, most_after, table = edge
    after = most_after if frame_end is None else min(frame_end - pos, most_after)
    return table.get((min(before, most_before), after), var)
