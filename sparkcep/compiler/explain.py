"""EXPLAIN for sparkcep: the Spark SQL, the compiled pattern and a picture of its automaton.

The automaton is the textbook (Thompson) construction of the row pattern IR: one edge per
pattern variable, epsilon edges for concatenation, alternation and quantifiers, numbered in
preference order (a lower number is tried first). It is for reading, not for running: the
engines compile their own programs.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from sparkcep.engines import rowpattern as rp
from sparkcep.plan.match_plan import MatchPlan
from sparkcep.compiler.rewrite import compile_statement


@dataclass
class Automaton:
    names: list[str]
    edges: list[tuple[int, int, str]] = field(default_factory=list)
    count: int = 0

    def state(self) -> int:
        self.count += 1
        return self.count - 1

    def edge(self, source: int, target: int, label: str = "ε") -> None:
        self.edges.append((source, target, label))

    def build(self, pattern: rp.Pattern, source: int) -> int:
        """Add ``pattern`` starting at ``source``; return its end state."""
        if isinstance(pattern, rp.Label):
            end = self.state()
            self.edge(source, end, self.names[pattern.var])
            return end
        if isinstance(pattern, rp.Negation):
            end = self.state()
            self.edge(source, end, f"no {self.names[pattern.var]} in between")
            return end
        if isinstance(pattern, rp.Anchor):
            end = self.state()
            self.edge(source, end, "^ (partition start)" if pattern.start else "$ (partition end)")
            return end
        if isinstance(pattern, rp.Empty):
            return source
        if isinstance(pattern, rp.Concat):
            for item in pattern.items:
                source = self.build(item, source)
            return source
        if isinstance(pattern, rp.Exclusion):
            return self.build(pattern.pattern, source)
        if isinstance(pattern, (rp.Alternation, rp.Permute)):
            items = pattern.items
            branches = (
                [rp.Concat(order) for order in itertools.permutations(items)]
                if isinstance(pattern, rp.Permute) else list(items)
            )
            end = self.state()
            for rank, branch in enumerate(branches, start=1):
                start = self.state()
                self.edge(source, start, f"ε{rank}")
                self.edge(self.build(branch, start), end)
            return end
        if isinstance(pattern, rp.Quantified):
            for _ in range(pattern.min):
                source = self.build(pattern.pattern, source)
            end = self.state()
            more, stop = ("ε1", "ε2") if pattern.greedy else ("ε2", "ε1")
            if pattern.max is None:
                loop, body = self.state(), self.state()
                self.edge(source, loop)
                self.edge(loop, body, more)
                self.edge(self.build(pattern.pattern, body), loop)
                self.edge(loop, end, stop)
                return end
            for _ in range(pattern.max - pattern.min):
                self.edge(source, end, stop)
                start = self.state()
                self.edge(source, start, more)
                source = self.build(pattern.pattern, start)
            self.edge(source, end)
            return end
        raise TypeError(pattern)


def automaton(plan: MatchPlan) -> tuple[Automaton, int, int]:
    machine = Automaton(list(plan.spec.variable_names))
    start = machine.state()
    end = machine.build(plan.spec.pattern, start)
    return machine, start, end


def automaton_text(plan: MatchPlan) -> str:
    machine, start, end = automaton(plan)
    lines = [f"start: s{start}   accept: s{end}"]
    lines += [f"  s{s} --{label}--> s{t}" for s, t, label in machine.edges]
    return "\n".join(lines)


def automaton_dot(plan: MatchPlan) -> str:
    machine, start, end = automaton(plan)
    lines = ["digraph pattern {", "  rankdir=LR;", f"  s{end} [shape=doublecircle];",
             f'  start [shape=point]; start -> s{start};']
    for s, t, label in machine.edges:
        escaped = label.replace('"', '\\"')
        lines.append(f'  s{s} -> s{t} [label="{escaped}"];')
    lines.append("}")
    return "\n".join(lines)


def display_names(names: tuple[str, ...]) -> list[str]:
    """Variable names, with ``#1``, ``#2``, ... on the copies of an unrolled variable
    (``sparkcep.compiler.unrolling``): B{3,} unrolled shows as ``B#1 B#2{2,}``."""
    shown = []
    for var, name in enumerate(names):
        copies = [v for v, other in enumerate(names) if other == name]
        shown.append(name if len(copies) == 1 else f"{name}#{copies.index(var) + 1}")
    return shown


def explain_statement(text: str, dot: bool = False) -> str:
    compiled = compile_statement(text)
    parts = ["== Spark SQL ==", compiled.sql]
    for number, match in enumerate(compiled.matches, start=1):
        plan = match.plan
        names = display_names(plan.spec.variable_names)
        parts.append(f"\n== MATCH_RECOGNIZE #{number}: function {match.function_name} ==")
        parts.append(f"pattern:    {rp.to_text(plan.spec.pattern, names)}")
        parts.append(f"strategy:   {plan.spec.strategy.value}")
        parts.append(f"skip:       AFTER MATCH SKIP {plan.spec.skip.value}"
                     + (f" {{{', '.join(names[v] for v in sorted(plan.spec.skip_to))}}}"
                        if plan.spec.skip_to else ""))
        parts.append(f"rows:       {plan.spec.rows_per_match.value}")
        if plan.spec.within is not None:
            parts.append(f"within:     {plan.spec.within} (ORDER BY key units)")
        for var, name in enumerate(names):
            where = []
            if plan.row_local[var]:
                where.append("row-local mask (Catalyst)")
            if var in plan.conditions:
                where.append(f"match-dependent: {plan.conditions[var]}")
            parts.append(f"  {name}: " + ("; ".join(where) if where else "TRUE (no DEFINE)"))
        for index, component in enumerate(plan.components):
            parts.append(f"  component c{index}: {component}")
        parts.append("automaton:")
        parts.append(automaton_dot(plan) if dot else automaton_text(plan))
    return "\n".join(parts)
