"""EXPLAIN for sparkcep: the Spark SQL, the compiled pattern, how it will run, and a picture of
its automaton (``docs/explain.md`` reads one output line by line).

The text form shows each clause as the user wrote it (DEFINE and MEASURES in their SQL), the
selection strategy and what it means for AFTER MATCH SKIP, the WITHIN window in its units, where
each DEFINE is evaluated (Catalyst or Python), and which engine and fast paths will run, with the
reason.

The automaton is the textbook (Thompson) construction of the row pattern IR: one edge per
pattern variable, epsilon edges (ε: no row consumed) for concatenation, alternation and
quantifiers, numbered in preference order (ε1 is tried before ε2: greedy quantifiers prefer one
more round, reluctant ones prefer to stop, alternatives in the order written). It is for reading,
not for running: the engines compile their own programs.
"""

from __future__ import annotations

import dataclasses

import itertools
from dataclasses import dataclass, field

from sqlglot import exp

from sparkcep import dialect
from sparkcep.compiler import streaming_rules
from sparkcep.compiler import window as window_
from sparkcep.compiler.chunks import ineligible_reason
from sparkcep.compiler.rewrite import CompiledMatch, compile_statement
from sparkcep.compiler.splice import depth
from sparkcep.dialect import expressions as dx
from sparkcep.engines import rowpattern as rp
from sparkcep.engines.spec import SkipMode, Strategy
from sparkcep.engines.standard.marked_regex import marked_reason
from sparkcep.engines.standard.run_chain import run_chain_form
from sparkcep.engines.standard.regex_translation import MAX_VARIABLES, regex_eligible
from sparkcep.engines.standard.window_regex import window_fast_reason
from sparkcep.plan.match_plan import MatchPlan
from sparkcep.plan.summary_request import summary_request


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
            items = pattern.items
            for i, item in enumerate(items):
                if isinstance(item, rp.Negation) and all(
                        isinstance(later, rp.Negation) for later in items[i:]):
                    end = self.state()  # a trailing negation: nothing after it to be between
                    self.edge(source, end, f"no {self.names[item.var]} until the window closes")
                    source = end
                    continue
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


LEGEND = ("edge label = the pattern variable a row must satisfy; ε = no row consumed, "
          "ε1 is tried before ε2; double circle = match found")


def _quote(text: str) -> str:
    """A DOT string; ``\\n`` in ``text`` stays DOT's line break."""
    return '"' + text.replace('"', '\\"') + '"'


def _dot_body(plan: MatchPlan, prefix: str, indent: str) -> list[str]:
    machine, start, end = automaton(plan)
    lines = [f"{indent}{prefix}s{end} [shape=doublecircle, label=\"s{end}\"];",
             f"{indent}{prefix}start [shape=point]; {prefix}start -> {prefix}s{start};"]
    for state in range(machine.count):
        if state != end:
            lines.append(f'{indent}{prefix}s{state} [shape=circle, label="s{state}"];')
    for s, t, label in machine.edges:
        style = ", style=dashed" if label.startswith("ε") else ""
        lines.append(f"{indent}{prefix}s{s} -> {prefix}s{t} [label={_quote(label)}{style}];")
    return lines


def automaton_dot(plan: MatchPlan, title: str | None = None) -> str:
    """One clause's automaton as a Graphviz digraph."""
    lines = ["digraph pattern {", "  rankdir=LR; fontname=Helvetica;", "  node [fontname=Helvetica];",
             "  edge [fontname=Helvetica];"]
    caption = (title + "\\n" if title else "") + LEGEND
    lines.append(f"  labelloc=b; label={_quote(caption)};")
    lines += _dot_body(plan, "", "  ")
    lines.append("}")
    return "\n".join(lines)


def statement_dot(plans: list[tuple[str, MatchPlan]]) -> str:
    """Every clause of a statement in one digraph (a cluster per clause), for ``dot -Tpng``."""
    if len(plans) == 1:
        return automaton_dot(plans[0][1], plans[0][0])
    lines = ["digraph pattern {", "  rankdir=LR; fontname=Helvetica;", "  node [fontname=Helvetica];",
             "  edge [fontname=Helvetica];", f"  labelloc=b; label={_quote(LEGEND)};"]
    for number, (title, plan) in enumerate(plans, start=1):
        lines.append(f"  subgraph cluster_{number} {{")
        lines.append(f"    label={_quote(title)};")
        lines += _dot_body(plan, f"m{number}_", "    ")
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines)


def _trailing_names(pattern: rp.Pattern, names) -> list[str]:
    """The variables negated at the end of the pattern (``PATTERN (A B !C)``)."""
    items = list(pattern.items) if isinstance(pattern, rp.Concat) else [pattern]
    out: list[str] = []
    while items and isinstance(items[-1], rp.Negation):
        out.insert(0, names[items.pop().var])
    return out if items else []


def display_names(names: tuple[str, ...]) -> list[str]:
    """Variable names, with ``#1``, ``#2``, ... on the copies of an unrolled variable
    (``sparkcep.compiler.unrolling``): B{3,} unrolled shows as ``B#1 B#2{2,}``."""
    shown = []
    for var, name in enumerate(names):
        copies = [v for v, other in enumerate(names) if other == name]
        shown.append(name if len(copies) == 1 else f"{name}#{copies.index(var) + 1}")
    return shown


# -- the clauses as written ---------------------------------------------------------------------


def _clauses(text: str) -> list[dx.MatchRecognize]:
    """The statement's clauses in the order ``compile_statement`` compiles them (inner first),
    then its windows with row pattern recognition (R020) that get a function."""
    tree = dialect.parse_one(text)
    clauses = [n for n in tree.walk(bfs=False)
               if isinstance(n, dx.MatchRecognize) and not isinstance(n, dx.RowPatternWindow)]
    clauses.sort(key=lambda n: -depth(n))
    return clauses + window_.compiled_windows(tree)


def _source(node: exp.Expression | None, text: str) -> str:
    """The user's text of ``node``, on one line."""
    if node is None:
        return ""
    found = dialect.find_span(node)
    if found is None:
        return dialect.generate(node)
    return " ".join(text[found[0]:found[1]].split())


def _position(node: exp.Expression, text: str) -> str:
    found = dialect.find_span(node)
    if found is None:
        return ""
    line = text.count("\n", 0, found[0]) + 1
    return f"line {line}"


_UNITS = ((7 * 86_400_000_000, "week"), (86_400_000_000, "day"), (3_600_000_000, "hour"),
          (60_000_000, "minute"), (1_000_000, "second"), (1_000, "millisecond"),
          (1, "microsecond"))


def duration_text(micros: int | float) -> str:
    """A number of microseconds in the largest units that divide it: ``1 hour``,
    ``1 hour 30 minutes``, ``1.5 microseconds``."""
    if micros != int(micros):
        return f"{micros} microseconds"
    rest, parts = int(micros), []
    for size, unit in _UNITS:
        if rest >= size:
            count, rest = divmod(rest, size)
            parts.append(f"{count} {unit}{'s' if count != 1 else ''}")
    return " ".join(parts) or "0 microseconds"


def _within_lines(plan: MatchPlan, clause: dx.MatchRecognize, text: str) -> list[str]:
    within = plan.spec.within
    if within is None:
        return []
    if plan.uncertain_time is not None:
        written = _source(clause.args.get("within"), text)
        return [f"within:     {written}: in every possible world, the last row's time point - "
                "the first row's < the window in time points (registration converts it, "
                "rounding up to whole points)"]
    node = clause.args.get("within")
    order = clause.args.get("order")
    key = _source(order.expressions[0].this, text) if order is not None else "?"
    written = _source(node, text) or f"WITHIN {within}"
    bound = (f"{duration_text(within)} ({within} microseconds) on the TIMESTAMP value of {key}"
             if isinstance(node.this, exp.Interval) else
             f"{within} in the units of the ORDER BY key {key} (a number, not a duration)")
    return [f"within:     {written} = last row's {key} - first row's {key} < {bound}"]


# -- how it runs --------------------------------------------------------------------------------


def _stream_lines(plan: MatchPlan, clause: dx.MatchRecognize, match: CompiledMatch,
                  text: str) -> list[str]:
    """How a clause over ``STREAM(t) WATERMARK ...`` runs (docs/streaming.md, "How it runs")."""
    source = clause.this.find(dx.StreamWatermark) if clause.this is not None else None
    keys = ", ".join(plan.partition_columns) or "one key (no PARTITION BY)"
    within = duration_text(plan.spec.within)
    nexts = max((-offset for _, offset, _ in match.shifts if offset < 0), default=0)
    prevs = any(offset > 0 for _, offset, _ in match.shifts)
    lines = [f"stream:     {_source(source, text)}: the rows are matched by Spark's stateful "
             f"operators, per key ({keys}), exactly as the batch query would match them "
             "(docs/streaming.md)"]
    if match.shifts:
        what = "PREV and NEXT" if nexts and prevs else "NEXT" if nexts else "PREV"
        lines.append(f"  operators: ordering ({what}: releases each key's rows in ORDER BY order "
                     "once the watermark passes them, with the values read from the rows "
                     + {"PREV": "before", "NEXT": "after"}.get(what, "before and after")
                     + (f"; a row leaves once its {nexts} next row(s) have arrived"
                        if nexts else "") + ") -> matching")
    else:
        lines.append("  operators: matching (releases each key's rows in ORDER BY order once "
                     "the watermark passes them, and feeds them to the engine below)")
    lines.append("  state:     per key: the rows the watermark has not passed, the open "
                 "segment's runs and the rows its matches may still read, counters, one "
                 "event-time timer")
    if nexts:
        lines.append(f"  segment:   closed (its open matches decided) when the next row arrives "
                     f"more than WITHIN ({within}) after its last row")
    else:
        lines.append(f"  segment:   closed (its open matches decided) when the watermark is "
                     f"WITHIN ({within}) past its last row; a quiet key is woken by its timer")
    lines.append("  rows:      reach Python as Rows, or as pandas DataFrames with "
                 "spark.sparkcep.streamExchange=pandas (docs/streaming.md, "
                 "\"How rows reach Python\")")
    return lines



def _uncertain_lines(plan: MatchPlan, clause: dx.MatchRecognize, text: str) -> list[str]:
    """The model and the engine of a clause with UNCERTAIN TIME (imprecise timestamps)."""
    uncertain = plan.uncertain_time
    node = clause.args["uncertain_time"]
    lo, hi = _source(node.this, text), _source(node.expression, text)
    point = ("one time point = " + duration_text(uncertain.granularity) + " (GRANULARITY)"
             if uncertain.granularity is not None else
             "one time point = the integer itself, or 1 millisecond of a TIMESTAMP (the default "
             "GRANULARITY), or 1 day of a DATE")
    lines = [f"time:       UNCERTAIN TIME ({lo}, {hi}): each row occurred at one of the equally likely "
             f"time points lo..hi (inclusive); {point}",
             "  model:    possible worlds (Zhang, Diao, Immerman, PVLDB 2010): a match is a set of "
             "rows with their variables; CONFIDENCE() = the probability of the worlds in which it "
             "is a match; the rows reach the engine sorted by lo, then by the ORDER BY"]
    if uncertain.minimum_confidence is not None:
        lines.append(f"  minimum:  MINIMUM CONFIDENCE {uncertain.minimum_confidence:g}: less likely "
                     "matches are dropped, and partial matches that cannot reach it are pruned")
    return lines


def _path_lines(match: CompiledMatch) -> list[str]:
    """Which path runs the clause: plain Spark SQL (``catalyst_path``) or the Arrow UDTF."""
    if match.catalyst:
        return ["path:       Catalyst only, no Python: the rows' bitmask codes as one string per "
                "partition, the pattern as a Java regex over it (regexp_replace), measures as "
                "Spark aggregates per match (compiler/catalyst_path)",
                "  why:      contiguous matches, every DEFINE row-local, a pattern whose regex "
                "groups classify every row, no empty match, AFTER MATCH SKIP PAST LAST ROW or TO "
                "NEXT ROW, measures FIRST/LAST/aggregates/CLASSIFIER/MATCH_NUMBER",
                "  (the engine below is what the Python path would run: spark.sparkcep.path = python)"]
    return [f"path:       Python (Arrow UDTF); not the Catalyst path: {match.catalyst_reason}"]


def _engine_lines(plan: MatchPlan, clause: dx.MatchRecognize, match: CompiledMatch) -> list[str]:
    spec = plan.spec
    names = display_names(spec.variable_names)
    dependent = [names[v] for v in sorted(plan.conditions)]
    lines = []
    if plan.uncertain_time is not None:
        lines.append("engine:     event-based search over the rows' intervals, confidence by a "
                     "time-point dynamic program (engines/uncertain/engine)")
        lines.append(f"  why:      UNCERTAIN TIME; {spec.strategy.value} is judged in every possible "
                     "world")
        lines.append("chunks:     no (UNCERTAIN TIME: the order of the rows differs between possible "
                     "worlds, so a match may span any cut)")
        return lines
    if spec.window is not None:
        return _window_engine_lines(plan)
    if spec.strategy is Strategy.STRICT_CONTIGUITY:
        if regex_eligible(spec, has_conditions=bool(plan.conditions)):
            lines.append("engine:     regular expression over the bitmask column "
                         "(engines/standard/regex_path), results built column-wise with NumPy")
            lines.append("  why:      strict contiguity, every DEFINE is row-local, no WITHIN, "
                         "and the pattern has a regex form with the standard's preferment")
            not_re2 = marked_reason(spec)
            if not_re2 is None:
                lines.append("regex:      RE2, linear time: a partition's matches in one call, read "
                             "back with NumPy (engines/standard/marked_regex)")
            elif run_chain_form(spec) is not None:
                lines.append("regex:      a chain of runs: every row's match at once in NumPy "
                             "(engines/standard/run_chain) in a partition where adjacent classes "
                             "are disjoint; else Python's regex module (backtracking); not RE2: "
                             f"{not_re2}")
            else:
                lines.append(f"regex:      Python's regex module (backtracking); not RE2: {not_re2}")
        else:
            why = []
            if dependent:
                why.append("match-dependent DEFINE for " + ", ".join(dependent))
            if spec.within is not None:
                why.append("WITHIN")
            if len(spec.variable_names) > MAX_VARIABLES:
                why.append(f"more than {MAX_VARIABLES} pattern variables")
            if not why:
                why.append("the pattern has no regex form with the standard's preferment "
                           "(exclusion, or a quantified part that can match empty)")
            lines.append("engine:     backtracking row pattern matcher "
                         "(engines/standard/matcher)"
                         + (", DEFINE conditions in generated specialized code" if dependent else ""))
            lines.append("  why:      not the regex path: " + "; ".join(why))
    elif spec.strategy is Strategy.SKIP_TILL_NEXT_MATCH and plan.aggregation is not None:
        computed = ", ".join(_aggregate_text(o, plan) for o in plan.aggregation.outputs)
        lines.append("engine:     aggregation without enumerating matches (SKIP TILL NEXT MATCH "
                     "runs counted per automaton state"
                     + (", per start key in the window; a run is counted when its window closes"
                        if spec.within is not None else "")
                     + ", engines/sase/next_aggregation)")
        lines.append("  why:      the outer query only aggregates the matches per partition: "
                     f"{computed} come from run counts updated row by row; no match is built")
    elif spec.strategy is Strategy.SKIP_TILL_NEXT_MATCH:
        merge = not plan.conditions
        lines.append("engine:     NFA^b runs with a shared match buffer (SASE+, engines/sase/nfa)")
        lines.append("  why:      SKIP TILL NEXT MATCH; runs in the same state are merged: "
                     + ("no (WITH TIMED OUT MATCHES reports each run)" if spec.timed_out else
                        "yes (no match-dependent DEFINE)" if merge else
                        "no (match-dependent DEFINE for " + ", ".join(dependent) + ")"))
    elif plan.aggregation is not None:
        computed = ", ".join(_aggregate_text(o, plan) for o in plan.aggregation.outputs)
        comparisons = plan.aggregation.comparison_texts
        if plan.aggregation.grouped:
            lines.append("engine:     aggregation without enumerating matches (counters per "
                         "automaton state keyed by the rows' values they group or compare by, "
                         "per-match sums carried along, engines/sase/grouped_aggregation)")
        elif comparisons:
            lines.append("engine:     aggregation without enumerating matches (GRETA: counters per "
                         "automaton state keyed by the compared rows' values, "
                         "engines/sase/trend_aggregation)")
        else:
            lines.append("engine:     aggregation without enumerating matches (A-Seq prefix "
                         "counters, engines/sase/aggregation)")
        per = "partition and bucket" if plan.aggregation.keys else "partition"
        lines.append(f"  why:      the outer query only aggregates the matches per {per}: "
                     f"{computed} come from counters updated row by row; no match is built")
        if comparisons:
            lines.append("  keyed by:  " + "; ".join(comparisons))
        for text, key in zip(plan.aggregation.key_texts, plan.aggregation.keys):
            lines.append(f"  grouped by: {text}, computed per input row; a match counts in the "
                         f"bucket of {names[key.variable]}'s {key.which} row")
        sums = [n for m, n in zip(plan.aggregation.measures, plan.aggregation.measure_names)
                if m.which in ("sum", "count")]
        if sums:
            lines.append("  per-match sums: " + ", ".join(sums) + " (count, sum and least/"
                         "greatest sum carried per counter)")
    else:
        lines.append("engine:     postponed result construction (SASE++, engines/sase/postponing)")
        lines.append("  why:      SKIP TILL ANY MATCH: every combination of rows is a match; "
                     "they are built only once the last row of a match is known")
    if spec.strategy is not Strategy.STRICT_CONTIGUITY and plan.uncertain_time is None:
        trailing = _trailing_names(spec.pattern, names)
        if trailing:
            lines.append(f"trailing negation: {', '.join('!' + n for n in trailing)}: a match is "
                         "reported when its window closes (the first row at or past its first "
                         "row's key + WITHIN, or the end of the partition), unless a row "
                         f"qualifying for {' or '.join(trailing)} lies after its last row inside "
                         "the window (engines/sase/trailing)")
    if match.aggregation_note is not None:
        lines.append(f"aggregation: not pushed down ({match.aggregation_note}); the matches are "
                     "enumerated, then aggregated by Spark")
    if spec.source_pattern is not None:
        lines.append(f"fast path:  LAST(X.e, k) over X's own rows read through lag(e, k) "
                     f"computed by Catalyst; pattern unrolled to "
                     f"{rp.to_text(spec.pattern, names)}")
    order = clause.args.get("order")
    ascending = order is None or all(not o.args.get("desc") for o in order.expressions)
    reason = ineligible_reason(spec, plan.components, plan.conditions.values(), ascending)
    if plan.aggregation is not None:
        lines.append("chunks:     no (one result row per partition: the counters cannot be split)")
    elif plan.owned_column is not None:
        lines.append("chunks:     yes, the partition is split into overlapping WITHIN chunks")
    elif reason is None:
        lines.append("chunks:     eligible: spark.sparkcep.withinChunks splits each partition into "
                     "overlapping WITHIN chunks matched in parallel (auto: only without "
                     "PARTITION BY and with AQE partition coalescing off)")
    else:
        lines.append(f"chunks:     no ({reason})")
    return lines


def _aggregate_text(output, plan: MatchPlan) -> str:
    if output.measure is None:
        return "COUNT(*)"
    return f"{output.function.upper()}({plan.aggregation.measure_names[output.measure]})"


def _selection_lines(plan: MatchPlan, clause: dx.MatchRecognize) -> list[str]:
    spec = plan.spec
    names = display_names(spec.variable_names)
    written = clause.args.get("strategy") is not None
    strategy = spec.strategy.value + ("" if written else " (the default)")
    if spec.strategy is Strategy.STRICT_CONTIGUITY:
        lines = [f"selection:  {strategy}: the rows of a match are consecutive rows of the "
                 "partition (SQL:2016)"]
        target = (f" {{{', '.join(names[v] for v in sorted(spec.skip_to))}}}"
                  if spec.skip_to else "")
        explicit = clause.args.get("after_match_skip") is not None
        lines.append(f"skip:       AFTER MATCH SKIP {spec.skip.value}{target}"
                     + ("" if explicit else " (the default)"))
        return lines
    meaning = ("a run may skip rows that do not fit, and each row extends a run in one way"
               if spec.strategy is Strategy.SKIP_TILL_NEXT_MATCH else
               "a run may skip any row, so every combination of fitting rows is a match")
    return [f"selection:  {strategy}: {meaning} (SASE; docs/semantics.md)",
            "skip:       none: every match of the strategy is reported, overlapping matches "
            "included (AFTER MATCH SKIP does not apply to SASE strategies)"]


def _define_lines(plan: MatchPlan, clause: dx.MatchRecognize, text: str) -> list[str]:
    names = display_names(plan.spec.variable_names)
    written = {}
    for definition in clause.args.get("define") or []:
        written[definition.this.name.upper() if hasattr(definition.this, "name")
                else str(definition.this).upper()] = definition.args["condition"]
    lines = ["DEFINE:"]
    for var, name in enumerate(names):
        base = plan.spec.variable_names[var]
        condition = written.get(base.upper())
        shown = f"{name} AS {_source(condition, text)}" if condition is not None else name
        if plan.row_local[var] and var in plan.conditions:
            where = "row-local part by Catalyst (bitmask column), the rest in Python while matching"
        elif plan.row_local[var]:
            where = "row-local: Catalyst computes it into the bitmask column"
        elif var in plan.conditions:
            where = "match-dependent: Python evaluates it while matching"
        else:
            where = "TRUE (no DEFINE): every row qualifies"
        lines.append(f"  {shown}")
        lines.append(f"      -> {where}")
    return lines


def _measure_lines(clause: dx.MatchRecognize, text: str) -> list[str]:
    measures = clause.args.get("measures") or []
    if not measures:
        return []
    lines = ["MEASURES:"]
    for measure in measures:
        lines.append(f"  {_source(measure.args['alias'], text)} = {_source(measure.this, text)}")
    return lines


def _title(number: int, clause: dx.MatchRecognize, text: str) -> str:
    where = _position(clause, text)
    if isinstance(clause, dx.RowPatternWindow):
        name = clause.args.get("name")
        kind = f"WINDOW {_source(name, text)}" if name is not None else "OVER (...)"
        return f"{kind} #{number}" + (f" ({where})" if where else "")
    return f"MATCH_RECOGNIZE #{number}" + (f" ({where})" if where else "")


def _window_engine_lines(plan: MatchPlan) -> list[str]:
    """Which engine a window with row pattern recognition (R020) runs on, and why."""
    spec = plan.spec
    not_fast = window_fast_reason(spec, has_conditions=bool(plan.conditions))
    if not_fast is not None:
        lines = ["engine:     backtracking row pattern matcher (engines/standard/matcher), "
                 "window mode: a frame per row, measures evaluated row by row",
                 f"  why:      not the regex path: {not_fast}"]
    else:
        clause = dataclasses.replace(spec, window=None, skip=spec.skip if spec.window.following is None
                                     else SkipMode.TO_NEXT_ROW)
        lines = ["engine:     regular expression over the bitmask column in window mode "
                 "(engines/standard/window_regex): the partition's matches placed on their rows",
                 "  why:      every DEFINE is row-local, the pattern has a regex form with the "
                 "standard's preferment, AFTER MATCH SKIP PAST LAST ROW or TO NEXT ROW, no PREV/NEXT in DEFINE that "
                 "the frame's edges could change"]
        not_re2 = marked_reason(clause)
        if not_re2 is None:
            lines.append("regex:      RE2, linear time: a partition's matches in one call, read "
                         "back with NumPy (engines/standard/marked_regex)")
        else:
            lines.append(f"regex:      Python's regex module (backtracking); not RE2: {not_re2}")
        if summary_request(plan) is not None:
            lines.append("output:     column-wise with NumPy: every row, each match's measures on its row")
        else:
            lines.append("output:     row by row (a measure's PREV/NEXT is NULL outside the frame, or "
                         "a measure or function other than FIRST/LAST, COUNT and the frame's values)")
    lines.append("chunks:     no (a frame may reach the partition's end)")
    return lines


def _window_lines(clause: dx.MatchRecognize, text: str) -> list[str]:
    """What a window with row pattern recognition (R020) outputs and searches."""
    if not isinstance(clause, dx.RowPatternWindow):
        return []
    search = clause.args.get("search") or "INITIAL"
    starts = ("the match starts at the row" if search == "INITIAL" else
              "the match starts at the first row of the frame where one starts")
    lines = [
        "rows:       every input row once, with the measures and window functions of the match "
        "found in its frame (row pattern recognition in a window, SQL:2016 R020); NULL measures "
        "and an empty frame where none was found or an earlier match skipped the row",
        f"frame:      {_source(clause.args.get('frame'), text)}, {search}: {starts}",
    ]
    select = clause.parent
    while select is not None and not isinstance(select, exp.Select):
        select = select.parent
    if select is not None:
        calls = sorted((called for _, window, called in window_.windows_of(select)[1]
                        if window is clause and not isinstance(called, exp.Column)),
                       key=lambda called: dialect.span(called)[0])
        functions = [_source(called, text) for called in calls]
        if functions:
            lines.append(f"functions:  {', '.join(functions)}: over the rows of the row's match (its frame)")
    return lines


def explain_dot(text: str) -> str:
    """Only the automata of ``text``'s clauses, as one Graphviz digraph (``--dot``)."""
    compiled = compile_statement(text)
    if not compiled.matches:
        return "digraph pattern {\n  label=\"no MATCH_RECOGNIZE in this statement\";\n}"
    clauses = _clauses(text)
    return statement_dot([(_title(n, clause, text), match.plan) for n, (clause, match)
                          in enumerate(zip(clauses, compiled.matches), start=1)])


def explain_statement(text: str, dot: bool = False) -> str:
    """The text explain of ``text`` (``dot=True``: only the DOT, as :func:`explain_dot`)."""
    if dot:
        return explain_dot(text)
    streaming = streaming_rules.declares_stream(text)
    compiled = compile_statement(text, streaming=streaming)
    parts = ["== Spark SQL ==", compiled.sql]
    clauses = _clauses(text) if compiled.matches else []
    for number, (clause, match) in enumerate(zip(clauses, compiled.matches), start=1):
        plan = match.plan
        names = display_names(plan.spec.variable_names)
        parts.append(f"\n== {_title(number, clause, text)}: function {match.function_name} ==")
        parts.append(f"pattern:    {plan.spec.pattern_text()}"
                     + ("" if plan.spec.source_pattern is None else
                        f"   (runs as {rp.to_text(plan.spec.pattern, names)})"))
        if plan.partition_columns:
            parts.append(f"partition:  {', '.join(plan.partition_columns)}")
        order = clause.args.get("order")
        if order is not None:
            parts.append(f"order:      {', '.join(_source(o, text) for o in order.expressions)}")
        parts += _selection_lines(plan, clause)
        parts += _window_lines(clause, text) or [f"rows:       {plan.spec.rows_per_match.value}"]
        if plan.spec.timed_out:
            parts.append("timed out:  WITH TIMED OUT MATCHES: also every run whose WITHIN window "
                         "closes (or whose partition ends) before it completes, with the rows it "
                         "selected, MATCH_STATUS() = 'TIMED_OUT' (runs are not merged)")
        if plan.uncertain_time is not None:
            parts += _uncertain_lines(plan, clause, text)
        parts += _within_lines(plan, clause, text)
        parts += _define_lines(plan, clause, text)
        parts += _measure_lines(clause, text)
        if streaming:
            parts += _stream_lines(plan, clause, match, text)
        parts += _path_lines(match)
        parts += _engine_lines(plan, clause, match)
        parts.append("automaton:  (" + LEGEND + ")")
        parts.append(automaton_text(plan))
    parts += _shared_lines(compiled)
    return "\n".join(parts)


def _shared_lines(compiled) -> list[str]:
    """The passes several UNION ALL branches share (``sparkcep.compiler.shared_pass``), or why
    a UNION ALL of aggregations does not share one."""
    lines = []
    numbers = {match.function_name: n for n, match in enumerate(compiled.matches, start=1)}
    for shared in compiled.shared:
        branches = ", ".join(f"#{numbers[name]}" for name in shared.branches)
        lines += [
            f"\n== shared pass: function {shared.function_name} ==",
            f"branches:   MATCH_RECOGNIZE {branches} (one per UNION ALL branch) read "
            f"{shared.relation} in one pass",
            "shared:     the scan, the shuffle by PARTITION BY and the sort by ORDER BY; per "
            "partition each branch's counters run over the same rows, one result row per branch",
            "counted once: no sub-pattern (each branch keeps its own counters; A-Seq's "
            "Chop-Connect is not applied)",
            f"spark:      the branches read the CTE {shared.cte_name}; Spark runs the function "
            "once through exchange reuse (spark.sql.exchange.reuse, on by default)",
        ]
    for note in compiled.shared_notes:
        lines.append(f"\nsharing:    {note}")
    return lines
