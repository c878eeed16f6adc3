"""EXPLAIN ANALYZE, the parts that need no Spark: the statement's syntax, the values each DEFINE
reads (for the closest misses), the analysis query of a clause, and the report (rows, text and
picture) made of the partitions' JSON reports (``sparkcep.runtime.analyze``). A clause with
UNCERTAIN TIME has no automaton: its report is ``explain_analyze_uncertain``'s, rendered as text
here with the others.

Syntax::

    EXPLAIN ANALYZE <query> [FOR PARTITION (<column> = <literal> [, <column> = <literal> ...])]

``FOR PARTITION`` names one partition (by the PARTITION BY columns of the clauses) whose closest
miss is shown whether or not it has matches; without it, the closest misses of partitions without
a match are shown (``MISSES_SHOWN`` at most, the longest first).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sqlglot import exp

from sparkcep import dialect
from sparkcep.errors import AnalysisError, ParseError

_ANALYZE = re.compile(r"\s*EXPLAIN\s+ANALYZE\b", re.IGNORECASE)
_FOR_PARTITION = re.compile(r"\bFOR\s+PARTITION\s*\(", re.IGNORECASE)
#: closest misses shown per clause
MISSES_SHOWN = 5

#: the report's rows: their columns, in order, with Spark types
COLUMNS = (("clause", "INT"), ("section", "STRING"), ("subject", "STRING"), ("metric", "STRING"),
           ("value", "BIGINT"), ("detail", "STRING"))


def is_explain_analyze(text: str) -> bool:
    return _ANALYZE.match(text) is not None


@dataclass(frozen=True)
class AnalyzeStatement:
    """``EXPLAIN ANALYZE <query> [FOR PARTITION (...)]`` taken apart. ``query`` is the statement
    with the EXPLAIN ANALYZE words and the FOR PARTITION part blanked (error positions stay those
    of the user's text); ``partition``: column (as written) -> (value, offset of the column)."""

    text: str
    query: str
    partition: dict[str, tuple[object, int]] | None
    partition_source: str | None = None  # the text partition offsets are in (default: text)


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


_TOKEN = re.compile(r"""\s*(?:(?P<name>`(?:[^`]|``)+`|[A-Za-z_][A-Za-z0-9_]*)\s*=\s*
    (?P<value>'(?:[^']|'')*'|"(?:[^"]|"")*"|-?\d+(?:\.\d+)?|TRUE|FALSE|NULL))\s*""",
                    re.IGNORECASE | re.VERBOSE)


def _literal(text: str):
    upper = text.upper()
    if upper in ("TRUE", "FALSE"):
        return upper == "TRUE"
    if upper == "NULL":
        return None
    if text[0] in "'\"":
        return text[1:-1].replace(text[0] * 2, text[0])
    return float(text) if "." in text else int(text)


def parse_statement(text: str, need_clause: bool = True) -> AnalyzeStatement:
    """Take ``EXPLAIN ANALYZE ... [FOR PARTITION (...)]`` apart (typed errors, located)."""
    head = _ANALYZE.match(text)
    if head is None:
        raise ParseError("EXPLAIN_ANALYZE_SYNTAX", "expected EXPLAIN ANALYZE <query>")
    query = _blank(text, 0, head.end())
    partition = None
    found = None
    for candidate in _FOR_PARTITION.finditer(text, head.end()):
        found = candidate  # the last one: a FOR PARTITION ends the statement
    if found is not None and not _inside_string(text, found.start()):
        partition = {}
        position = found.end()
        while True:
            token = _TOKEN.match(text, position)
            if token is None:
                raise ParseError.at_offset(
                    "EXPLAIN_ANALYZE_SYNTAX",
                    "FOR PARTITION takes (column = literal [, column = literal ...]), e.g. "
                    "FOR PARTITION (user_id = 'u42')", text, _skip_space(text, position))
            name = token.group("name").strip("`")
            partition[name] = (_literal(token.group("value")), token.start("name"))
            position = token.end()
            if text.startswith(",", position) or text[position:position + 3].upper() == "AND":
                position += 1 if text[position] == "," else 3
                continue
            if text.startswith(")", position):
                position += 1
                break
            raise ParseError.at_offset("EXPLAIN_ANALYZE_SYNTAX",
                                       "expected ',' or ')' in FOR PARTITION (...)", text, position)
        rest = text[position:].strip().rstrip(";").strip()
        if rest:
            at = position + len(text[position:]) - len(text[position:].lstrip())
            raise ParseError.at_offset("EXPLAIN_ANALYZE_SYNTAX",
                                       "FOR PARTITION (...) must end the statement", text, at)
        query = _blank(query, found.start(), position)
    if need_clause and not dialect.contains_match_recognize(query):
        raise AnalysisError.at_offset(
            "EXPLAIN_ANALYZE_WITHOUT_MATCH_RECOGNIZE",
            "EXPLAIN ANALYZE explains MATCH_RECOGNIZE clauses; this statement has none (for "
            "Spark's own plan use EXPLAIN)", text, head.start() + len(text[head.start():]) -
            len(text[head.start():].lstrip()), len("EXPLAIN ANALYZE"))
    return AnalyzeStatement(text, query, partition)


def statement_for(query: str, partition: str | None = None) -> AnalyzeStatement:
    """The statement for a query given without EXPLAIN ANALYZE (the command line), with its
    partition as the text inside FOR PARTITION (...) (``--partition "user_id = 'u42'"``)."""
    named = None
    source = None
    if partition:
        source = f"FOR PARTITION ({partition})"
        named = parse_statement("EXPLAIN ANALYZE " + " " * len("MATCH_RECOGNIZE") + " "
                                + source, need_clause=False).partition
        offset = len("EXPLAIN ANALYZE ") + len("MATCH_RECOGNIZE") + 1
        named = {k: (v, at - offset) for k, (v, at) in named.items()}
    if not dialect.contains_match_recognize(query):
        at = _skip_space(query, 0)
        word = re.match(r"\S*", query[at:]).group(0)
        raise AnalysisError.at_offset(
            "EXPLAIN_ANALYZE_WITHOUT_MATCH_RECOGNIZE",
            "EXPLAIN ANALYZE explains MATCH_RECOGNIZE clauses; this statement has none",
            query, at, len(word) or 1)
    return AnalyzeStatement(query, query, named, source)


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position


def _inside_string(text: str, offset: int) -> bool:
    return text.count("'", 0, offset) % 2 == 1


def check_partition(statement: AnalyzeStatement, partition_columns: list[tuple[str, ...]]) -> None:
    """Every FOR PARTITION column is a PARTITION BY column of some clause."""
    if not statement.partition:
        return
    known = {c.lower() for columns in partition_columns for c in columns}
    for name, (_value, offset) in statement.partition.items():
        if name.lower() not in known:
            listed = ", ".join(sorted({c for cs in partition_columns for c in cs})) or "none"
            raise AnalysisError.at_offset(
                "UNKNOWN_PARTITION_COLUMN",
                f"'{name}' is not a PARTITION BY column of the MATCH_RECOGNIZE clauses "
                f"(PARTITION BY columns: {listed})", statement.partition_source or statement.text,
                offset, len(name))


def partition_matches(wanted: dict | None, values: dict) -> bool:
    """Whether a partition's key ``values`` are those FOR PARTITION names (compared as text when
    the types differ, so ``d = '2026-03-02'`` names a DATE partition)."""
    if not wanted:
        return False
    lower = {k.lower(): v for k, v in values.items()}
    for name, (value, _offset) in wanted.items():
        if name.lower() not in lower:
            continue
        have = lower[name.lower()]
        if have == value or (have is not None and value is not None and str(have) == str(value)):
            continue
        if isinstance(have, (int, float)) and isinstance(value, (int, float)) and have == value:
            continue
        return False
    return any(name.lower() in lower for name in wanted)


# -- what each DEFINE reads ---------------------------------------------------------------------


@dataclass(frozen=True)
class Operand:
    """One value a DEFINE compares: its text as written, and either the probe column Catalyst
    computes it into (row-local) or the expression Python evaluates on a run (match-dependent)."""

    text: str
    column: str | None = None
    dependent: object = None


@dataclass(frozen=True)
class Conjunct:
    """One conjunct of a DEFINE (the whole condition when it is no AND): its text, where its
    truth comes from (a probe column, or the index of the match-dependent conjunct in the bound
    condition of the plan), and its operands."""

    text: str
    column: str | None
    dependent: int | None
    operands: tuple[Operand, ...]


@dataclass(frozen=True)
class DefineProbe:
    variable: str
    text: str
    conjuncts: tuple[Conjunct, ...]
    dependent_count: int = 0  # match-dependent conjuncts (the bound condition ANDs them)

    @property
    def operands(self) -> tuple[Operand, ...]:
        return tuple(o for c in self.conjuncts for o in c.operands)


@dataclass(frozen=True)
class Probes:
    """Per variable (upper-case name) its DEFINE's conjuncts and operands; the extra input
    columns: ``columns`` (SQL, name) and, by id, the names match-dependent operands read."""

    defines: dict = field(default_factory=dict)
    columns: tuple = ()
    dependent_columns: tuple = ()


_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.NullSafeEQ,
                exp.NullSafeNEQ, exp.Is, exp.Like, exp.ILike)


def _conjuncts(condition: exp.Expression) -> list[exp.Expression]:
    return list(condition.flatten()) if isinstance(condition, exp.And) else [condition]


def _operand_nodes(conjunct: exp.Expression) -> list[exp.Expression]:
    node = conjunct
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, _COMPARISONS):
        parts = [node.this, node.expression]
    elif isinstance(node, exp.Between):
        parts = [node.this, node.args.get("low"), node.args.get("high")]
    elif isinstance(node, (exp.In, exp.Not)):
        parts = [node.this]
    else:
        parts = [node]
    return [part for part in parts
            if part is not None and not isinstance(part, (exp.Literal, exp.Boolean, exp.Null))]


def clause_probes(clause, text: str) -> Probes:
    """The conjuncts and operands of ``clause``'s DEFINE conditions, and the input columns that
    compute the row-local ones (``render`` of the compiler's lowering: PREV becomes lag, as in the
    masks). Best effort: a part the lowering refuses is left out."""
    from sparkcep.compiler.explain import _source
    from sparkcep.compiler.lowering import CONST, LOCAL, Lowering, ValueColumns
    from sparkcep.compiler.rewrite import _analyze, _plain_text, _window
    from sparkcep.compiler.splice import Splicer

    try:
        analysis = _analyze(clause, text)
    except Exception:  # noqa: BLE001 - the compiler already accepted it; no probes then
        return Probes()
    splicer = Splicer(text)
    partition_sql = [_plain_text(item, text, splicer) for item in analysis.partition_by]
    order_sql = [_plain_text(item, text, splicer) for item in analysis.order_by]
    values = ValueColumns()
    lowering = Lowering(analysis.scope, _window(partition_sql, order_sql), values)
    columns: list[tuple[str, str]] = []
    rendered: dict[str, str] = {}  # SQL -> probe column

    def probe_column(sql: str) -> str:
        if sql not in rendered:
            rendered[sql] = f"__sparkcep_probe{len(rendered)}"
            columns.append((sql, rendered[sql]))
        return rendered[sql]

    defines = {}
    names = list(analysis.scope.variables)
    for var, condition in analysis.definitions.items():
        lowering.current = var
        conjuncts = []
        dependent_count = 0
        for node in _conjuncts(condition):
            try:
                kind = lowering.classify(node)
            except Exception:  # noqa: BLE001
                continue
            column = dependent = None
            if kind.what in (CONST, LOCAL):
                try:
                    column = probe_column(lowering.render(node))
                except Exception:  # noqa: BLE001 - its truth is not shown
                    column = None
            else:
                dependent = dependent_count
                dependent_count += 1
            operands = []
            for part in _operand_nodes(node):
                try:
                    part_kind = lowering.classify(part)
                    if part_kind.what in (CONST, LOCAL):
                        operands.append(Operand(_source(part, text),
                                                column=probe_column(lowering.render(part))))
                    else:
                        operands.append(Operand(_source(part, text),
                                                dependent=lowering.lower_operand(part)))
                except Exception:  # noqa: BLE001 - not shown, the rest still is
                    continue
            conjuncts.append(Conjunct(_source(node, text), column, dependent, tuple(operands)))
        defines[names[var].upper()] = DefineProbe(names[var], _source(condition, text),
                                                  tuple(conjuncts), dependent_count)
    dependent = tuple(f"__sparkcep_probev{i}" for i in range(len(values.texts)))
    columns += [(sql, name) for sql, name in zip(values.texts, dependent)]
    return Probes(defines, tuple(columns), dependent)


def analysis_call(function_name: str, match, probes: Probes, clause, text: str) -> str:
    """The query running the analysis function over the clause's input (its own columns plus the
    probe columns), partitioned and ordered as the clause is."""
    from sparkcep.compiler.rewrite import INPUT_ALIAS, _plain_text
    from sparkcep.compiler.splice import Splicer, quote_identifier
    from sparkcep.compiler.rewrite import _analyze

    select = list(match.input_passed)
    select += [f"{sql} AS {quote_identifier(name)}" for sql, name in match.input_computed]
    select += [f"{sql} AS {quote_identifier(name)}" for sql, name in probes.columns]
    if not select:
        select.append("true AS `__sparkcep_row`")
    input_sql = f"SELECT {', '.join(select)} FROM ({match.input_relation}) AS {INPUT_ALIAS}"
    analysis = _analyze(clause, text)
    splicer = Splicer(text)
    order_sql = [_plain_text(item, text, splicer) for item in analysis.order_by]
    if match.plan.uncertain_time is not None:  # the engine reads the rows sorted by lo first
        order_sql = [quote_identifier(match.plan.uncertain_time.lo_column), *order_sql]
    keys = [quote_identifier(n) for n in match.plan.partition_columns]
    distribution = f"PARTITION BY ({', '.join(keys)})" if keys else "WITH SINGLE PARTITION"
    ordering = f" ORDER BY ({', '.join(order_sql)})" if order_sql else ""
    return (f"{match.probe_prefix}SELECT report FROM "
            f"{function_name}(TABLE({input_sql}) {distribution}{ordering})")


EPS, VAR, NEG, TRAIL, START, END = "eps", "var", "neg", "trail", "^", "$"


# -- the automaton, with the kind of each edge ---------------------------------------------------


@dataclass
class Graph:
    """The automaton of ``explain.automaton`` with each edge's kind: ``(kind, var)``."""

    count: int
    start: int
    accept: int
    edges: list[tuple[int, int, str]]
    kinds: list[tuple[str, int | None]]
    out: list[list[int]] = field(default_factory=list)  # state -> edge indices

    @classmethod
    def of(cls, spec) -> "Graph":
        from sparkcep.compiler.explain import Automaton, display_names

        names = display_names(spec.variable_names)
        machine = Automaton(names)
        start = machine.state()
        end = machine.build(spec.pattern, start)
        by_label = {name: var for var, name in enumerate(names)}
        kinds: list[tuple[str, int | None]] = []
        for _s, _t, label in machine.edges:
            if label in by_label:
                kinds.append((VAR, by_label[label]))
            elif label.startswith("no ") and label.endswith(" in between"):
                kinds.append((NEG, by_label[label[3:-len(" in between")]]))
            elif label.startswith("no ") and label.endswith(" until the window closes"):
                kinds.append((TRAIL, by_label[label[3:-len(" until the window closes")]]))
            elif label.startswith("^"):
                kinds.append((START, None))
            elif label.startswith("$"):
                kinds.append((END, None))
            else:
                kinds.append((EPS, None))
        out: list[list[int]] = [[] for _ in range(machine.count)]
        for index, (s, _t, _label) in enumerate(machine.edges):
            out[s].append(index)
        return cls(machine.count, start, end, machine.edges, kinds, out)


# -- the report ---------------------------------------------------------------------------------


@dataclass
class ClauseReport:
    """One clause's totals over its partitions."""

    number: int
    title: str
    pattern: str
    strategy: str
    names: list[str]
    defines: dict  # display name -> DEFINE text
    edges: list  # (source, target, label)
    start: int
    accept: int
    partitions: int = 0
    rows: int = 0
    matches: int = 0
    covered: int = 0
    engine_seconds: float = 0.0
    simulation_seconds: float = 0.0
    started: int = 0
    completed: int = 0
    ended_after_completing: int = 0
    entered: list = field(default_factory=list)
    died: dict = field(default_factory=dict)
    taken: list = field(default_factory=list)
    selected: list = field(default_factory=list)
    row_local_true: list = field(default_factory=list)
    condition_evaluated: list = field(default_factory=list)
    condition_true: list = field(default_factory=list)
    stopped: list = field(default_factory=list)  # (partition, why)
    engine_errors: list = field(default_factory=list)
    unmatched_partitions: int = 0
    misses: list = field(default_factory=list)  # (partition, matches, miss), chosen
    named: bool = False  # misses are of the FOR PARTITION partition
    within: str = ""  # the WITHIN clause as written

    def add(self, report: dict, wanted: dict | None) -> None:
        sim = report["simulation"]
        self.partitions += 1
        self.rows += report["rows"]
        self.matches += report["matches"]
        self.covered += report["covered"]
        self.engine_seconds += report["engine_seconds"]
        self.simulation_seconds += report["simulation_seconds"]
        self.started += sim["started"]
        self.completed += sim["completed"]
        self.ended_after_completing += sim["ended_after_completing"]
        _add(self.entered, sim["entered"])
        _add(self.taken, sim["taken"])
        _add(self.selected, report["selected"])
        _add(self.row_local_true, sim["row_local_true"])
        _add(self.condition_evaluated, sim["condition_evaluated"])
        _add(self.condition_true, sim["condition_true"])
        for reason, counts in sim["died"].items():
            _add(self.died.setdefault(reason, []), counts)
        if sim["stopped"]:
            self.stopped.append((report["partition"], sim["stopped"]))
        if report["engine_error"]:
            self.engine_errors.append((report["partition"], report["engine_error"]))
        if report["matches"] == 0:
            self.unmatched_partitions += 1
        miss = report["miss"]
        if wanted:
            if partition_matches(wanted, report["partition"]):
                self.named = True
                self.misses.append((report["partition"], report["matches"], miss))
            return
        if report["matches"] == 0 and miss is not None:
            self.misses.append((report["partition"], 0, miss))
            self.misses.sort(key=lambda m: -len(m[2]["rows"]))
            del self.misses[MISSES_SHOWN:]


def _add(total: list, counts: list) -> None:
    if len(total) < len(counts):
        total.extend([0] * (len(counts) - len(total)))
    for i, c in enumerate(counts):
        total[i] += c


def clause_defines(clause, text: str) -> dict:
    """Each DEFINE's condition as written, by the variable's upper-case name."""
    from sparkcep.compiler.explain import _source

    defines = {}
    for definition in clause.args.get("define") or []:
        name = definition.this.name if hasattr(definition.this, "name") else str(definition.this)
        defines[name.upper()] = _source(definition.args["condition"], text)
    return defines


def new_clause_report(number: int, title: str, plan, clause, text: str) -> ClauseReport:
    """The empty report of a clause the automaton explains (an UNCERTAIN TIME clause has
    ``explain_analyze_uncertain.new_uncertain_report``)."""
    from sparkcep.compiler.explain import _source, display_names

    defines = clause_defines(clause, text)
    graph = Graph.of(plan.spec)
    names = display_names(plan.spec.variable_names)
    return ClauseReport(number, title, plan.spec.pattern_text(), plan.spec.strategy.value, names,
                        defines, graph.edges, graph.start, graph.accept,
                        within=_source(clause.args.get("within"), text))


def _partition_text(values: dict) -> str:
    if not values:
        return "(the whole input: no PARTITION BY)"
    return ", ".join(f"{k} = {_value_text(v)}" for k, v in values.items())


def _value_text(value) -> str:
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    if value is None:
        return "NULL"
    return str(value)


_REASONS = {"no_way_on": "no way on (the next row satisfied no DEFINE it could take)",
            "within": "cut by WITHIN", "negation": "killed by a negation",
            "partition_end": "still incomplete at the partition's end",
            "budget": "dropped by the budget"}


def report_rows(reports: list[ClauseReport], result_rows: int | None, seconds: float,
                partition: dict | None) -> list[tuple]:
    """The report as rows of ``COLUMNS``: (clause, section, subject, metric, value, detail)."""
    rows: list[tuple] = []
    if result_rows is not None:
        rows.append((0, "statement", "result", "rows", result_rows, "rows the query returned"))
    rows.append((0, "statement", "result", "ms", int(seconds * 1000), "wall time of the query"))
    for r in reports:
        if not isinstance(r, ClauseReport):  # UNCERTAIN TIME (explain_analyze_uncertain)
            rows += r.report_rows(partition)
            continue
        n = r.number
        sample = " (a sample: the simulation stopped early in " \
                 f"{len(r.stopped)} partition(s))" if r.stopped else ""
        rows += [
            (n, "clause", r.title, "pattern", None, r.pattern),
            (n, "clause", r.title, "strategy", None, r.strategy),
            (n, "clause", r.title, "rows_in", r.rows, "rows the clause read"),
            (n, "clause", r.title, "partitions", r.partitions, None),
            (n, "clause", r.title, "partitions_without_match", r.unmatched_partitions, None),
            (n, "clause", r.title, "matches", r.matches, "matches the engine found"),
            (n, "clause", r.title, "rows_in_a_match", r.covered, None),
            (n, "clause", r.title, "rows_in_no_match", r.rows - r.covered, None),
            (n, "clause", r.title, "engine_ms", int(r.engine_seconds * 1000),
             "time in the matching engine, summed over partitions"),
            (n, "clause", r.title, "analysis_ms", int(r.simulation_seconds * 1000),
             "time in the instrumented simulation, summed over partitions"),
        ]
        for partition_values, message in r.engine_errors[:MISSES_SHOWN]:
            rows.append((n, "clause", r.title, "engine_error", None,
                         f"{_partition_text(partition_values)}: {message}"))
        for partition_values, why in r.stopped[:MISSES_SHOWN]:
            rows.append((n, "clause", r.title, "sampled", None,
                         f"{_partition_text(partition_values)}: {why}"))
        for var, name in enumerate(r.names):
            define = r.defines.get(name.split("#")[0].upper())
            detail = f"{name} AS {define}" if define else f"{name} (no DEFINE: every row)"
            rows.append((n, "variable", name, "rows_satisfying_row_local",
                         _at(r.row_local_true, var), detail))
            if _at(r.condition_evaluated, var):
                rows.append((n, "variable", name, "match_dependent_evaluated",
                             _at(r.condition_evaluated, var), "times evaluated on a run" + sample))
                rows.append((n, "variable", name, "match_dependent_true",
                             _at(r.condition_true, var), None))
            rows.append((n, "variable", name, "rows_in_matches", _at(r.selected, var), None))
            if _at(r.row_local_true, var) == 0:
                rows.append((n, "variable", name, "never_satisfied", 0,
                             f"no row satisfied {name}'s DEFINE: no match can use {name}"))
        rows.append((n, "runs", "all", "started", r.started, "runs the simulation started" + sample))
        rows.append((n, "runs", "all", "completed", r.completed, "runs that reached the accepting "
                     "state (a run may complete and go on)" + sample))
        rows.append((n, "runs", "all", "ended_after_completing", r.ended_after_completing,
                     "completed runs that then could not go on (not counted as died)"))
        for state in range(len(r.entered)):
            subject = f"s{state}" + (" (accept)" if state == r.accept else "")
            if r.entered[state]:
                rows.append((n, "state", subject, "entered", r.entered[state], None))
            for reason, counts in r.died.items():
                if _at(counts, state):
                    rows.append((n, "state", subject, f"died_{reason}", counts[state],
                                 _REASONS[reason]))
        for index, (s, t, label) in enumerate(r.edges):
            if not label.startswith("ε"):
                rows.append((n, "edge", f"s{s} -> s{t}", "taken", _at(r.taken, index), label))
        for partition_values, matches, miss in r.misses:
            rows += _miss_rows(n, r, partition_values, matches, miss)
        if partition and not r.named:
            rows.append((n, "miss", _partition_text({k: v for k, (v, _) in partition.items()}),
                         "not_found", None, "no such partition in this clause's input"))
        elif not partition and r.unmatched_partitions > len(r.misses):
            rows.append((n, "miss", "", "shown", len(r.misses),
                         f"closest misses of {len(r.misses)} of the {r.unmatched_partitions} "
                         "partitions without a match (the longest partial matches)"))
    return rows


def _at(values: list, index: int) -> int:
    return values[index] if index < len(values) else 0


def _miss_rows(n: int, r: ClauseReport, values: dict, matches: int, miss) -> list[tuple]:
    subject = _partition_text(values)
    if miss is None:
        return [(n, "miss", subject, "no_run", matches, "no run started in this partition")]
    rows = [(n, "miss", subject, "matches", matches, None)]
    picked = " ".join(f"{label}@{row}" for label, row in zip(miss["labels"], miss["rows"]))
    rows.append((n, "miss", subject, "longest_partial_match", len(miss["rows"]),
                 f"rows {picked}" if picked else "no row selected"))
    rows.append((n, "miss", subject, "ended_at_row", miss["row"],
                 _REASONS[miss["reason"]] + f", in state s{miss['state']}"))
    if miss.get("row_values"):
        rows.append((n, "miss", subject, "row", miss["row"], ", ".join(
            f"{k} = {_value_text(v)}" for k, v in miss["row_values"].items())))
    if miss.get("first_row_values"):
        rows.append((n, "miss", subject, "first_row", miss["rows"][0], ", ".join(
            f"{k} = {_value_text(v)}" for k, v in miss["first_row_values"].items())))
    if miss["reason"] == "within":
        rows.append((n, "miss", subject, "within", None,
                     f"the row is at or past the run's first row + the window ({r.within})"))
    if miss["negated"]:
        rows.append((n, "miss", subject, "negation", None,
                     f"the row satisfied the negated variable {miss['negated']}"))
    rejected = miss.get("rejected")
    if rejected:
        name = rejected["variable"]
        define = r.defines.get(name.upper())
        shown = _conjuncts_text(rejected["values"])
        where = ", ".join(f"{k} = {_value_text(v)}" for k, v in rejected["row_values"].items())
        rows.append((n, "miss", subject, "rejected_row", rejected["row"],
                     (f"{name} AS {define}" if define else name) + " was false there"
                     + (f": {shown}" if shown else "") + (f" (row: {where})" if where else "")))
    for name in miss["waiting"]:
        define = r.defines.get(name.upper())
        shown = _conjuncts_text(miss["values"].get(name) or [])
        detail = f"{name} AS {define}" if define else name
        if miss["reason"] == "no_way_on":
            detail += " was false" + (f": {shown}" if shown else "")
        else:
            detail = "waiting for " + detail
        rows.append((n, "miss", subject, "define", None, detail))
    return rows


def _conjuncts_text(conjuncts: list) -> str:
    """``[[conjunct, truth, [[operand, value], ...]], ...]`` as ``X > Y is FALSE (X = 1, Y = 2)``
    (only the conjunct when the DEFINE is no AND)."""
    parts = []
    for text, truth, operands in conjuncts:
        values = ", ".join(f"{o} = {_value_text(v)}" for o, v in operands)
        if len(conjuncts) == 1:
            parts.append(values)
            continue
        verdict = {True: "TRUE", False: "FALSE", None: "NULL"}.get(truth, "?")
        parts.append(f"{text} is {verdict}" + (f" ({values})" if values else ""))
    return "; ".join(p for p in parts if p)


def report_text(rows: list[tuple]) -> str:
    """The rows as text for the command line (the same facts as the rows, grouped)."""
    lines: list[str] = []
    by_clause: dict[int, list[tuple]] = {}
    for row in rows:
        by_clause.setdefault(row[0], []).append(row)
    for clause, items in by_clause.items():
        if clause == 0:
            facts = {r[3]: r[4] for r in items}
            shown = (f"{facts['rows']} rows, " if facts.get("rows") is not None else "")
            lines.append(f"== statement: {shown}{facts.get('ms', 0) / 1000:.1f} s ==")
            continue
        lines += _clause_text(items)
    return "\n".join(lines)


def _clause_text(items: list[tuple]) -> list[str]:
    clause = [r for r in items if r[1] == "clause"]
    facts = {r[3]: r for r in clause}
    lines = [f"\n== {clause[0][2]} =="]
    lines.append(f"pattern:    {facts['pattern'][5]}   ({facts['strategy'][5]})")

    def value(metric):
        return facts[metric][4] if metric in facts else 0

    lines.append(f"rows:       {value('rows_in')} in, {value('rows_in_a_match')} in a match, "
                 f"{value('rows_in_no_match')} in no match")
    lines.append(f"partitions: {value('partitions')}, {value('partitions_without_match')} "
                 "without a match")
    lines.append(f"matches:    {value('matches')}")
    lines.append(f"time:       engine {value('engine_ms')} ms, analysis {value('analysis_ms')} ms "
                 "(summed over partitions)")
    for row in clause:
        if row[3] in ("engine_error", "sampled"):
            lines.append(f"{row[3] + ':':<11} {row[5]}")
    lines += _time_model_text(items)
    variables: dict[str, dict] = {}
    for row in items:
        if row[1] == "variable":
            variables.setdefault(row[2], {})[row[3]] = row
    if variables:
        lines.append("variables:  rows satisfying DEFINE (row-local part) | match-dependent part "
                     "true/evaluated | rows in matches")
        width = max(len(name) for name in variables)
        for name, metrics in variables.items():
            satisfied = metrics["rows_satisfying_row_local"]
            dependent = ""
            if "match_dependent_evaluated" in metrics:
                dependent = (f"{metrics['match_dependent_true'][4]}/"
                             f"{metrics['match_dependent_evaluated'][4]}")
            mark = "   <- no row satisfies it" if "never_satisfied" in metrics else ""
            lines.append(f"  {name:<{width}} {satisfied[4]:>9} | {dependent:>11} | "
                         f"{metrics['rows_in_matches'][4]:>7}   {satisfied[5]}{mark}")
    lines += _confidence_text(items)
    runs = {r[3]: r for r in items if r[1] == "runs"}
    if runs:
        lines.append(f"runs:       {runs['started'][4]} started, {runs['completed'][4]} reached "
                     f"the accepting state, {runs['ended_after_completing'][4]} of them then "
                     "ended (a run is one partial match; docs/explain.md)"
                     + (" [a sample]" if "sample" in (runs["started"][5] or "") else ""))
    states: dict[str, list] = {}
    for row in items:
        if row[1] == "state":
            states.setdefault(row[2], []).append(row)
    if states:
        lines.append("states:     runs that entered | died there (why)")
        for state, metrics in states.items():
            entered = next((m[4] for m in metrics if m[3] == "entered"), 0)
            died = ", ".join(f"{m[4]} {m[3][len('died_'):].replace('_', ' ')}" for m in metrics
                             if m[3].startswith("died_"))
            lines.append(f"  {state:<12} {entered:>9}" + (f" | died: {died}" if died else ""))
    edges = [r for r in items if r[1] == "edge"]
    if edges:
        lines.append("edges:      runs that took each")
        for row in edges:
            lines.append(f"  {row[2]:<14} {row[5]:<12} {row[4]:>9}")
    misses = [r for r in items if r[1] == "miss"]
    if misses:
        lines.append("closest misses:")
        for row in misses:
            if row[3] == "shown":
                lines.append(f"  ({row[5]})")
                continue
            shown = "" if row[4] is None else f"{row[4]} "
            lines.append(f"  {row[2]}: {row[3].replace('_', ' ')}: {shown}{row[5] or ''}".rstrip())
    return lines


def _time_model_text(items: list[tuple]) -> list[str]:
    """An UNCERTAIN TIME clause's time model, threshold and intervals, as text."""
    lines = []
    facts = {r[3]: r for r in items if r[1] == "clause"}
    if "time_model" in facts:
        lines.append(f"time model: {facts['time_model'][5]}")
        lines.append(f"minimum:    {facts['minimum_confidence'][5]}")
    intervals = {r[3]: r for r in items if r[1] == "intervals"}
    if intervals:
        lines.append(f"intervals:  {intervals['min'][4]} to {intervals['max'][4]} time points per "
                     f"row (mean {intervals['mean'][5]})")
    return lines


def _confidence_text(items: list[tuple]) -> list[str]:
    """An UNCERTAIN TIME clause's confidence, search and automaton sections, as text."""
    lines = []
    confidence = [r for r in items if r[1] == "confidence"]
    if confidence:
        lines.append("confidence:")
        for row in confidence:
            if row[2] == "matches":
                lines.append(f"  matches {row[3]}: {row[5]}")
            elif row[2] in ("below minimum", "zero"):
                shown = "" if row[4] is None else f"{row[4]} "
                lines.append(f"  {row[2]} ({row[3]}): {shown}{row[5]}")
            else:
                lines.append(f"  {row[2]:<11} {row[4]:>7} signatures ({row[5]})")
    search = [r for r in items if r[1] == "search"]
    if search:
        lines.append("search:     " + ", ".join(f"{r[4]} {r[3].replace('_', ' ')}" for r in search)
                     + " (the engine's counters; docs/explain.md)")
    for row in items:
        if row[1] == "automaton":
            lines.append(f"automaton:  not applicable: {row[5]}")
    return lines


def analyzed_dot(reports: list[ClauseReport]) -> str:
    """The automata with each edge labelled by the runs that took it (thicker when more did) and
    each state by the runs that died there."""
    from sparkcep.compiler.explain import LEGEND, _quote

    legends = []
    if any(isinstance(r, ClauseReport) for r in reports):
        legends.append(LEGEND + "\\nedge: runs that took it; red: runs that died in the state")
    legends += sorted({r.legend for r in reports if not isinstance(r, ClauseReport)})
    legend = "\\n".join(legends)
    lines = ["digraph pattern {", "  rankdir=LR; fontname=Helvetica;", "  node [fontname=Helvetica];",
             "  edge [fontname=Helvetica];", f"  labelloc=b; label={_quote(legend)};"]
    for r in reports:
        if not isinstance(r, ClauseReport):  # UNCERTAIN TIME: no automaton to draw
            lines += r.dot_lines()
            continue
        prefix = f"m{r.number}_"
        lines.append(f"  subgraph cluster_{r.number} {{")
        lines.append(f"    label={_quote(r.title + ': ' + str(r.matches) + ' matches')};")
        most = max([c for c in r.taken] + [1])
        # the states a row leads to (or the start): the others are passed through on ε edges
        counted = {r.start} | {t for (_s, t, label) in r.edges if not label.startswith("ε")}
        for state in range(len(r.entered)):
            died = sum(_at(c, state) for c in r.died.values())
            label = f"s{state}" + (f"\\n{r.entered[state]} in" if state in counted else "") \
                + (f"\\n{died} died" if died else "") \
                + (f"\\n{r.completed} completed" if state == r.accept else "")
            shape = "doublecircle" if state == r.accept else "circle"
            color = ', color=red, fontcolor=red' if died else ""
            lines.append(f'    {prefix}s{state} [shape={shape}, label="{label}"{color}];')
        lines.append(f"    {prefix}start [shape=point]; {prefix}start -> {prefix}s{r.start};")
        for index, (s, t, label) in enumerate(r.edges):
            if label.startswith("ε"):
                lines.append(f"    {prefix}s{s} -> {prefix}s{t} [label={_quote(label)}, style=dashed];")
                continue
            count = _at(r.taken, index)
            width = 1 + 4 * count / most
            shade = "gray70" if count == 0 else "black"
            lines.append(f"    {prefix}s{s} -> {prefix}s{t} [label={_quote(f'{label} ({count})')}, "
                         f"penwidth={width:.1f}, color={shade}];")
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines)
