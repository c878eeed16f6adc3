"""EXPLAIN ANALYZE of a clause with UNCERTAIN TIME, the part that needs no Spark: the clause's
totals over its partitions' JSON reports (``sparkcep.runtime.analyze_uncertain``), as the report's
rows (``explain_analyze.COLUMNS``) and its part of the picture (``explain_analyze`` renders the rows
as text).

The imprecise-timestamp engine has no automaton, so instead of runs, states and edges the report
has: the MINIMUM CONFIDENCE and the rows' time intervals (``clause``, ``intervals``), the
confidences of the matches and of the signatures the threshold dropped (``confidence``), the
engine's own search counters (``search``), a row saying that runs, states and edges do not apply
(``automaton``), and closest misses made of signatures (``miss``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sparkcep.compiler.explain_analyze import (
    MISSES_SHOWN,
    _add,
    _at,
    _partition_text,
    _value_text,
    clause_defines,
    partition_matches,
)

#: the width of a confidence bucket is 1 / BUCKETS (as the executors count them)
BUCKETS = 10
#: the picture's legend for an UNCERTAIN TIME clause
LEGEND = ("UNCERTAIN TIME: box = a pattern element with the rows satisfying its DEFINE and the "
          "rows it has in matches; arrow = the element that may come next (no automaton)")
_KIND_RANK = {"below_minimum_confidence": 0, "zero_confidence": 1, "longest_partial_match": 2}


def _confidence_text(value: float, exact: str | None) -> str:
    text = f"{value:.6g}"
    shown = exact and not exact.endswith("/1")  # a fraction that is not a whole number
    return f"{text} ({exact})" if shown else text


class _Confidences:
    """Totals of the executors' confidence summaries (count, sum, min, max, buckets)."""

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.min = self.max = None
        self.buckets = [0] * BUCKETS

    def add(self, part: dict) -> None:
        self.count += part["count"]
        self.total += part["sum"]
        _add(self.buckets, part["buckets"])
        if part["min"] is not None and (self.min is None or part["min"][0] < self.min[0]):
            self.min = tuple(part["min"])
        if part["max"] is not None and (self.max is None or part["max"][0] > self.max[0]):
            self.max = tuple(part["max"])


@dataclass
class UncertainClauseReport:
    """One UNCERTAIN TIME clause's totals over its partitions."""

    number: int
    title: str
    pattern: str
    strategy: str
    names: list[str]
    defines: dict  # display name -> DEFINE text
    minimum_confidence: float
    follows: dict  # variable -> the variables that may come next in a signature
    breaks: str  # what breaks a signature between its rows (strategy, negation)
    partitions: int = 0
    rows: int = 0
    matches: int = 0
    covered: int = 0
    engine_seconds: float = 0.0
    simulation_seconds: float = 0.0
    selected: list = field(default_factory=list)
    row_local_true: list = field(default_factory=list)
    condition_evaluated: list = field(default_factory=list)
    condition_true: list = field(default_factory=list)
    stats: dict = field(default_factory=dict)
    widths: list = field(default_factory=lambda: [None, None, 0])
    confidences: _Confidences = field(default_factory=_Confidences)
    signatures: _Confidences = field(default_factory=_Confidences)
    dropped: _Confidences = field(default_factory=_Confidences)
    zero: int = 0
    observed_matches: int = 0
    engine_errors: list = field(default_factory=list)
    stopped: list = field(default_factory=list)  # (partition, why the analysis stopped)
    unmatched_partitions: int = 0
    misses: list = field(default_factory=list)  # (partition, matches, misses, row_local_true)
    named: bool = False
    legend: str = LEGEND  # the picture's
    with_misses: int = 0  # partitions without a match or with a dropped signature

    def add(self, report: dict, wanted: dict | None) -> None:
        self.partitions += 1
        self.rows += report["rows"]
        self.matches += report["matches"]
        self.covered += report["covered"]
        self.engine_seconds += report["engine_seconds"]
        self.simulation_seconds += report["analysis_seconds"]
        for name in ("selected", "row_local_true", "condition_evaluated", "condition_true"):
            _add(getattr(self, name), report[name])
        for key, count in report["engine_stats"].items():
            self.stats[key] = self.stats.get(key, 0) + count
        low, high, total = report["widths"]
        if low is not None:
            self.widths = [low if self.widths[0] is None else min(self.widths[0], low),
                           high if self.widths[1] is None else max(self.widths[1], high),
                           self.widths[2] + total]
        self.confidences.add(report["confidences"])
        self.signatures.add(report["signatures"])
        self.dropped.add(report["dropped"])
        self.zero += report["zero"]
        self.observed_matches += report["observed_matches"]
        if report["engine_error"]:
            self.engine_errors.append((report["partition"], report["engine_error"]))
        if report["analysis_error"]:
            self.stopped.append((report["partition"], report["analysis_error"]))
        if report["matches"] == 0:
            self.unmatched_partitions += 1
        entry = (report["partition"], report["matches"], report["misses"],
                 report["row_local_true"])
        if wanted:
            if partition_matches(wanted, report["partition"]):
                self.named = True
                self.misses.append(entry)
            return
        dropped = report["dropped"]["count"]
        if report["matches"] == 0 or dropped:  # a dropped signature is a miss where matches are
            self.with_misses += 1
            self.misses.append(entry)
            self.misses.sort(key=_closeness)
            del self.misses[MISSES_SHOWN:]

    # -- rows -----------------------------------------------------------------------------------

    def report_rows(self, partition: dict | None) -> list[tuple]:
        n, title = self.number, self.title
        sample = " (a sample: the analysis stopped early in " \
                 f"{len(self.stopped)} partition(s))" if self.stopped else ""
        threshold = self.minimum_confidence
        rows = [
            (n, "clause", title, "pattern", None, self.pattern),
            (n, "clause", title, "strategy", None, self.strategy),
            (n, "clause", title, "time_model", None,
             "UNCERTAIN TIME: each row occurred at one of the equally likely time points of its "
             "[lo, hi]; matched by the imprecise-timestamp engine (a search over signatures with "
             "a time-point dynamic program; no automaton)"),
            (n, "clause", title, "minimum_confidence", None,
             f"MINIMUM CONFIDENCE {threshold:g}: less likely signatures are dropped" if threshold
             else "none: every signature of confidence > 0 is a match"),
            (n, "clause", title, "rows_in", self.rows, "rows the clause read"),
            (n, "clause", title, "partitions", self.partitions, None),
            (n, "clause", title, "partitions_without_match", self.unmatched_partitions, None),
            (n, "clause", title, "matches", self.matches, "matches the engine found"),
            (n, "clause", title, "rows_in_a_match", self.covered, None),
            (n, "clause", title, "rows_in_no_match", self.rows - self.covered, None),
            (n, "clause", title, "engine_ms", int(self.engine_seconds * 1000),
             "time in the matching engine, summed over partitions"),
            (n, "clause", title, "analysis_ms", int(self.simulation_seconds * 1000),
             "time in the analysis (the engine again, without the threshold), summed over "
             "partitions"),
        ]
        for values, message in self.engine_errors[:MISSES_SHOWN]:
            rows.append((n, "clause", title, "engine_error", None,
                         f"{_partition_text(values)}: {message}"))
        for values, why in self.stopped[:MISSES_SHOWN]:
            rows.append((n, "clause", title, "sampled", None,
                         f"{_partition_text(values)}: the analysis stopped: {why}"))
        low, high, total = self.widths
        if low is not None:
            subject = "time points per row"
            rows += [(n, "intervals", subject, "min", low, "the narrowest row interval"),
                     (n, "intervals", subject, "max", high, "the widest row interval"),
                     (n, "intervals", subject, "mean", None, f"{total / self.rows:.6g}")]
        for var, name in enumerate(self.names):
            define = self.defines.get(name.upper())
            detail = f"{name} AS {define}" if define else f"{name} (no DEFINE: every row)"
            rows.append((n, "variable", name, "rows_satisfying_row_local",
                         _at(self.row_local_true, var), detail))
            if _at(self.condition_evaluated, var):
                rows.append((n, "variable", name, "match_dependent_evaluated",
                             _at(self.condition_evaluated, var),
                             "times the engine evaluated it (on a partial signature)"))
                rows.append((n, "variable", name, "match_dependent_true",
                             _at(self.condition_true, var), None))
            rows.append((n, "variable", name, "rows_in_matches", _at(self.selected, var), None))
            if _at(self.row_local_true, var) == 0:
                rows.append((n, "variable", name, "never_satisfied", 0,
                             f"no row satisfied {name}'s DEFINE: no match can use {name}"))
        rows += self._confidence_rows(sample)
        stats = self.stats
        rows += [
            (n, "search", "engine", "start_rows", stats.get("starts", 0),
             "rows whose first variable's row-local DEFINE holds, each searched from as a "
             "match's first row"),
            (n, "search", "engine", "candidates_tried", stats.get("nodes", 0),
             "rows satisfying their DEFINE that the search tried to add to a partial signature"),
            (n, "search", "engine", "pruned_by_minimum_confidence", stats.get("pruned", 0),
             "partial signatures whose confidence bound was below MINIMUM CONFIDENCE, dropped "
             "with all their extensions"),
            (n, "search", "engine", "signatures", stats.get("signatures", 0),
             "complete signatures whose confidence the engine computed"),
            (n, "automaton", "runs, states, edges", "not_applicable", None,
             "the imprecise-timestamp engine has no automaton (it searches signatures, see "
             "'search'): runs, states and edges are not counted"),
        ]
        for values, matches, misses, local in self.misses:
            rows += self._miss_rows(values, matches, misses, local)
        if partition and not self.named:
            rows.append((n, "miss", _partition_text({k: v for k, (v, _) in partition.items()}),
                         "not_found", None, "no such partition in this clause's input"))
        elif not partition and self.with_misses > len(self.misses):
            rows.append((n, "miss", "", "shown", len(self.misses),
                         f"closest misses of {len(self.misses)} of the {self.with_misses} "
                         "partitions without a match or with a signature below MINIMUM "
                         "CONFIDENCE (the most confident first)"))
        return rows

    def _confidence_rows(self, sample: str) -> list[tuple]:
        n = self.number
        rows = []
        found = self.confidences
        if found.count:
            rows += [(n, "confidence", "matches", "min", None, _confidence_text(*found.min)),
                     (n, "confidence", "matches", "max", None, _confidence_text(*found.max)),
                     (n, "confidence", "matches", "mean", None,
                      f"{found.total / found.count:.6g}")]
        threshold = self.minimum_confidence
        dropped = self.dropped
        if threshold:
            rows.append((n, "confidence", "below minimum", "signatures", dropped.count,
                         f"signatures with 0 < confidence < {threshold:g} (MINIMUM CONFIDENCE): "
                         "dropped, not reported" + sample))
            if dropped.count:
                rows.append((n, "confidence", "below minimum", "max", None,
                             _confidence_text(*dropped.max)))
        rows.append((n, "confidence", "zero", "signatures", self.zero,
                     "signatures whose rows satisfy their DEFINEs and fit the time order, but "
                     f"that are broken in every possible world ({self.breaks}): never a match"
                     + sample))
        for bucket, count in enumerate(self.signatures.buckets):
            if not count:
                continue
            low, high = bucket / BUCKETS, (bucket + 1) / BUCKETS
            shown = f"[{low:.1f}, {high:.1f}" + ("]" if bucket == BUCKETS - 1 else ")")
            below = dropped.buckets[bucket]
            detail = f"{count - below} at or above the minimum, {below} below" if threshold \
                else f"{count} matches"
            rows.append((n, "confidence", shown, "signatures", count, detail))
        return rows

    def _miss_rows(self, values: dict, matches: int, misses: list, local: list) -> list[tuple]:
        n = self.number
        subject = _partition_text(values)
        if not misses:
            first = next(iter(self.follows))
            why = f"no row satisfies {first}'s DEFINE here: no match can start" \
                if _at(local, self.names.index(first)) == 0 else "no signature was started"
            return [(n, "miss", subject, "no_run", matches, why)]
        rows = [(n, "miss", subject, "matches", matches, None)]
        for miss in misses:
            picked = " ".join(f"{label}@{row}" for label, row in zip(miss["labels"], miss["rows"]))
            kind = miss["kind"]
            if kind == "below_minimum_confidence":
                detail = (f"rows {picked}, confidence "
                          f"{_confidence_text(miss['confidence'], miss['exact'])} < "
                          f"{self.minimum_confidence:g} (MINIMUM CONFIDENCE)")
            elif kind == "zero_confidence":
                detail = f"rows {picked}: confidence 0, broken in every possible world " \
                         f"({self.breaks})"
            else:
                detail = f"rows {picked}: no row could extend it"
            rows.append((n, "miss", subject, kind, len(miss["rows"]), detail))
            for label, row, shown in zip(miss["labels"], miss["rows"], miss["row_values"]):
                rows.append((n, "miss", subject, "row", row, f"{label}: " + _row_text(shown)))
            if kind == "longest_partial_match":
                for name in self.follows.get(miss["labels"][-1], ()):
                    define = self.defines.get(name.upper())
                    rows.append((n, "miss", subject, "define", None, "waiting for " + (
                        f"{name} AS {define}" if define else name) + " (a row satisfying it "
                        "that may occur after the last row, within the window)"))
                rejected = miss.get("rejected")
                if rejected:
                    name = rejected["variable"]
                    define = self.defines.get(name.upper())
                    rows.append((n, "miss", subject, "rejected_row", rejected["row"],
                                 (f"{name} AS {define}" if define else name) + " was false there "
                                 "(its match-dependent part; the row-local part held) (row: "
                                 + _row_text(rejected["row_values"]) + ")"))
        return rows

    # -- the picture ----------------------------------------------------------------------------

    def dot_lines(self) -> list[str]:
        """A cluster for the picture: the pattern's elements with the rows satisfying each, and
        a note that there is no automaton."""
        from sparkcep.compiler.explain import _quote

        prefix = f"m{self.number}_"
        lines = [f"  subgraph cluster_{self.number} {{",
                 f"    label={_quote(self.title + ': ' + str(self.matches) + ' matches')};"]
        order = list(self.follows) or self.names
        for name in order:
            var = self.names.index(name)
            label = f"{name}\\n{_at(self.row_local_true, var)} rows satisfy\\n" \
                    f"{_at(self.selected, var)} in matches"
            lines.append(f'    {prefix}{name} [shape=box, label="{label}"];')
        for name, after in self.follows.items():
            for other in after:
                lines.append(f"    {prefix}{name} -> {prefix}{other};")
        note = (f"no automaton (imprecise timestamps): {self.signatures.count} signatures of "
                f"confidence > 0 ({self.matches} matches, {self.dropped.count} below MINIMUM "
                f"CONFIDENCE), {self.zero} of confidence 0")
        lines.append(f"    {prefix}note [shape=note, label={_quote(note)}];")
        lines.append("  }")
        return lines


def _closeness(entry) -> tuple:
    misses = entry[2]
    if not misses:
        return (3, 0.0, 0)
    first = misses[0]
    return (_KIND_RANK[first["kind"]], -(first["confidence"] or 0.0), -len(first["rows"]))


def _row_text(values: dict) -> str:
    parts = []
    for name, value in values.items():
        if name == "interval":
            points = "1 time point" if value[2] == 1 else f"{value[2]} time points"
            parts.insert(0, f"interval [{value[0]}, {value[1]}] ({points})")
        else:
            parts.append(f"{name} = {_value_text(value)}")
    return ", ".join(parts)


def new_uncertain_report(number: int, title: str, plan, clause, text: str) -> UncertainClauseReport:
    """The empty report of an UNCERTAIN TIME clause (``explain_analyze.new_clause_report`` for
    the others)."""
    from sparkcep.compiler.explain import display_names
    from sparkcep.engines.spec import Strategy
    from sparkcep.engines.uncertain.pattern import compile_pattern

    spec = plan.spec
    names = display_names(spec.variable_names)
    pat = compile_pattern(spec)
    follows = {}
    last = len(pat.components) - 1
    for c, component in enumerate(pat.components):
        nxt = [component.var] if component.kleene else []
        if c < last:
            nxt.append(pat.components[c + 1].var)
        follows[names[component.var]] = [names[v] for v in nxt]
    breaks = []
    if spec.strategy is Strategy.STRICT_CONTIGUITY:
        breaks.append("strict contiguity: another row lies between them")
    elif spec.strategy is Strategy.SKIP_TILL_NEXT_MATCH:
        breaks.append("SKIP TILL NEXT MATCH: a row it should have taken next lies between them")
    if any(pat.negations):
        breaks.append("a row of a negated variable lies between them")
    return UncertainClauseReport(
        number, title, spec.pattern_text(), spec.strategy.value, names,
        clause_defines(clause, text),
        float(plan.uncertain_time.minimum_confidence or 0.0), follows,
        "; ".join(breaks) or "nothing can break a signature under SKIP TILL ANY MATCH "
        "without negation")
