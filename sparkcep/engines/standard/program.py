"""Compilation of the row pattern IR to a program for the backtracking matcher.

The program is a flat list of instructions; the matcher (``sparkcep.engines.standard.matcher``) runs it depth-first,
trying the first target of a ``SPLIT`` before the second, so the first ``MATCH`` it reaches is the
most preferred match of SQL:2016 (lexicographic preferment along the pattern).

Instructions (``ops[pc]``, arguments in ``arg_a[pc]`` / ``arg_b[pc]``):

* ``LABEL var excluded``: map the row at the current position to ``var`` (``excluded`` = 1 inside
  ``{- -}``) and advance by one row; fails when the row does not satisfy ``var``.
* ``SPLIT first second``: continue at ``first``; on backtracking, at ``second``.
* ``JUMP target``.
* ``SAVE reg`` / ``CHECK reg``: record the position at the start of an optional iteration of a
  quantifier; fail at its end if the iteration consumed no row (the empty-iteration rule, see
  ``docs/matcher.md``). Only emitted when the quantified pattern can match empty (otherwise every
  iteration consumes a row and the check cannot fail).
* ``BEGIN`` (``^``: position is 0) / ``END`` (``$``: position is the partition's row count).
* ``MATCH``: success.

Compilation: alternation is a chain of SPLITs (left first); ``PERMUTE`` is expanded into the
alternation of its permutations in lexicographic order of item positions; ``{m,n}`` is unrolled
into ``m`` mandatory copies followed by ``n-m`` nested optional copies (``{m,}``: a loop);
exclusion is a static flag on the LABELs it contains.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from sparkcep.engines import rowpattern as rp
from sparkcep.errors import InternalError

LABEL, SPLIT, JUMP, SAVE, CHECK, BEGIN, END, MATCH = range(8)
OP_NAMES = ("LABEL", "SPLIT", "JUMP", "SAVE", "CHECK", "BEGIN", "END", "MATCH")

#: Refuse to build programs larger than this (a pathological ``{m,n}`` nesting or PERMUTE).
MAX_PROGRAM_SIZE = 1_000_000


@dataclass(frozen=True)
class Program:
    """A compiled pattern.

    Attributes:
        ops, arg_a, arg_b: the instructions (see the module docstring).
        live: per pc, the registers of the quantifier iterations that enclose it (their SAVE ran,
            their CHECK has not): the only registers the rest of the run can read.
        memo_ok: per pc, True when no LABEL reachable from pc has a match-dependent condition, so
            the future of a run at pc depends only on (pc, position, live registers vs position)
            and a failure there can be memoized.
        first_vars: the variables that can map the first row of a match, or None when the
            pattern may match without consuming a row (then every row is a candidate start).
        n_regs: number of registers.
    """

    ops: tuple[int, ...]
    arg_a: tuple[int, ...]
    arg_b: tuple[int, ...]
    live: tuple[tuple[int, ...], ...]
    memo_ok: tuple[bool, ...]
    first_vars: frozenset[int] | None
    n_regs: int

    def successors(self, pc: int) -> tuple[int, ...]:
        return _successors(self.ops, self.arg_a, self.arg_b, pc)

    def dump(self) -> str:
        """Human-readable listing (debugging, docs)."""
        lines = []
        for pc, op in enumerate(self.ops):
            a, b = self.arg_a[pc], self.arg_b[pc]
            if op == LABEL:
                args = f"v{a}" + (" excluded" if b else "")
            elif op == SPLIT:
                args = f"{a}, {b}"
            elif op in (JUMP, SAVE, CHECK):
                args = str(a)
            else:
                args = ""
            lines.append(f"{pc:4d} {OP_NAMES[op]} {args}".rstrip())
        return "\n".join(lines)


def _successors(ops, arg_a, arg_b, pc: int) -> tuple[int, ...]:
    op = ops[pc]
    if op == SPLIT:
        return (arg_a[pc], arg_b[pc])
    if op == JUMP:
        return (arg_a[pc],)
    if op == MATCH:
        return ()
    return (pc + 1,)


class _Compiler:
    def __init__(self) -> None:
        self.ops: list[int] = []
        self.arg_a: list[int] = []
        self.arg_b: list[int] = []
        self.live: list[tuple[int, ...]] = []
        self.open: list[int] = []
        self.n_regs = 0

    def emit(self, op: int, a: int = 0, b: int = 0) -> int:
        pc = len(self.ops)
        if pc >= MAX_PROGRAM_SIZE:
            raise InternalError("row pattern program too large (analysis should have bounded it)")
        self.ops.append(op)
        self.arg_a.append(a)
        self.arg_b.append(b)
        self.live.append(tuple(self.open))
        return pc

    def here(self) -> int:
        return len(self.ops)

    def node(self, p: rp.Pattern, excluded: bool) -> None:
        if isinstance(p, rp.Label):
            self.emit(LABEL, p.var, int(excluded))
        elif isinstance(p, rp.Empty):
            pass
        elif isinstance(p, rp.Anchor):
            self.emit(BEGIN if p.start else END)
        elif isinstance(p, rp.Concat):
            for item in p.items:
                self.node(item, excluded)
        elif isinstance(p, rp.Alternation):
            self.alternation(p.items, excluded)
        elif isinstance(p, rp.Permute):
            n = len(p.items)
            orders = itertools.permutations(range(n))  # lexicographic order of item positions
            self.alternation([rp.Concat(tuple(p.items[i] for i in order)) for order in orders], excluded)
        elif isinstance(p, rp.Exclusion):
            self.node(p.pattern, True)
        elif isinstance(p, rp.Quantified):
            self.quantified(p, excluded)
        elif isinstance(p, rp.Negation):
            raise InternalError("Negation is not allowed under STRICT CONTIGUITY")
        else:
            raise InternalError(f"not a pattern node: {p!r}")

    def alternation(self, items, excluded: bool) -> None:
        if not items:
            raise InternalError("empty alternation")
        jumps = []
        for i, item in enumerate(items):
            if i == len(items) - 1:
                self.node(item, excluded)
                break
            split = self.emit(SPLIT)
            self.arg_a[split] = self.here()
            self.node(item, excluded)
            jumps.append(self.emit(JUMP))
            self.arg_b[split] = self.here()
        for j in jumps:
            self.arg_a[j] = self.here()

    def optional_iteration(self, body: rp.Pattern, excluded: bool, reg: int | None) -> None:
        """One iteration past the quantifier's minimum. ``reg`` is None when the body cannot
        match empty: then the empty-iteration check could never fail and is left out."""
        if reg is None:
            self.node(body, excluded)
            return
        self.open.append(reg)
        self.emit(SAVE, reg)
        self.node(body, excluded)
        self.emit(CHECK, reg)
        self.open.pop()

    def quantified(self, p: rp.Quantified, excluded: bool) -> None:
        if p.min < 0 or (p.max is not None and p.max < p.min):
            raise InternalError(f"bad quantifier bounds {p.min}, {p.max}")
        for _ in range(p.min):
            self.node(p.pattern, excluded)
        if p.max == p.min:
            return
        reg = None
        if rp.can_match_empty(p.pattern):
            reg = self.n_regs
            self.n_regs += 1
        if p.max is None:
            head = self.emit(SPLIT)
            body = self.here()
            self.optional_iteration(p.pattern, excluded, reg)
            self.emit(JUMP, head)
            out = self.here()
            self.arg_a[head], self.arg_b[head] = (body, out) if p.greedy else (out, body)
            return
        splits = []
        for _ in range(p.max - p.min):
            split = self.emit(SPLIT)
            splits.append((split, self.here()))
            self.optional_iteration(p.pattern, excluded, reg)
        out = self.here()
        for split, body in splits:
            self.arg_a[split], self.arg_b[split] = (body, out) if p.greedy else (out, body)


def compile_pattern(pattern: rp.Pattern, conditioned: frozenset[int] | set[int] = frozenset()) -> Program:
    """Compile ``pattern``; ``conditioned`` = the variables with a match-dependent condition."""
    c = _Compiler()
    c.node(pattern, False)
    c.emit(MATCH)
    ops, arg_a, arg_b = tuple(c.ops), tuple(c.arg_a), tuple(c.arg_b)
    size = len(ops)

    # memo_ok: no conditioned LABEL reachable from pc (reverse reachability from those LABELs).
    preds: list[list[int]] = [[] for _ in range(size)]
    for pc in range(size):
        for nxt in _successors(ops, arg_a, arg_b, pc):
            preds[nxt].append(pc)
    dependent = [False] * size
    work = [pc for pc in range(size) if ops[pc] == LABEL and arg_a[pc] in conditioned]
    for pc in work:
        dependent[pc] = True
    while work:
        pc = work.pop()
        for prev in preds[pc]:
            if not dependent[prev]:
                dependent[prev] = True
                work.append(prev)

    # first_vars: LABELs reachable from pc 0 without consuming a row.
    seen = {0}
    work = [0]
    first: set[int] = set()
    empty = False
    while work:
        pc = work.pop()
        op = ops[pc]
        if op == LABEL:
            first.add(arg_a[pc])
            continue
        if op == MATCH:
            empty = True
            continue
        for nxt in _successors(ops, arg_a, arg_b, pc):
            if nxt not in seen:
                seen.add(nxt)
                work.append(nxt)

    return Program(
        ops=ops,
        arg_a=arg_a,
        arg_b=arg_b,
        live=tuple(c.live),
        memo_ok=tuple(not d for d in dependent),
        first_vars=None if empty else frozenset(first),
        n_regs=c.n_regs,
    )
