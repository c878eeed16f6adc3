"""Row pattern recognition in a window (SQL:2016 feature R020, ISO/IEC 19075-5, 6).

A query's windows with row pattern recognition (``WINDOW w AS (... PATTERN ... DEFINE ...)``,
``f(...) OVER (... PATTERN ...)``) are rewritten here; the clauses inside each are compiled as
MATCH_RECOGNIZE's are (``rewrite``, which passes its clause compiler in), with the engine in
window mode (``engines.spec.PatternWindow``): one output row per input row, a row's measures and
window functions computed over the match found in its frame.

The query's FROM relation and WHERE condition, as written, become the input of the first
window's function; each further window reads the previous one's output (one pass per window);
the relation is replaced by the last output under the relation's name, every ``m OVER w`` and
``count(*) OVER w`` by the column computed for it, and the pattern windows leave the WINDOW
clause (plain windows stay, Spark evaluates them over the same rows).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from sqlglot import exp

from sparkcep import dialect
from sparkcep.dialect import expressions as dx
from sparkcep.compiler.splice import Splicer, depth, quote_identifier
from sparkcep.errors import AnalysisError, line_and_column

PREFIX = "__sparkcepw"  # not "__sparkcep_": a later window passes these columns on

#: the aggregate window functions computed over the rows of a row's match
WINDOW_AGGREGATES = (exp.Count, exp.Sum, exp.Avg, exp.Min, exp.Max)
#: the value window functions computed over the rows of a row's match (its reduced frame):
#: the value at its first, last or n-th row (``lowering.MATCH_FRAME_VALUES``)
WINDOW_VALUES = (exp.FirstValue, exp.LastValue, exp.NthValue)


def error(code: str, message: str, node: exp.Expression, sql: str) -> AnalysisError:
    start, end = dialect.span(node)
    return AnalysisError.at_offset(code, message, sql, start, max(1, end - start))


@dataclass
class PatternWindowUse:
    """One window with row pattern recognition and what the query calls over it."""

    node: dx.RowPatternWindow
    index: int
    measures: dict[str, str] = field(default_factory=dict)  # measure name (lower) -> column
    functions: list[tuple[exp.Expression, str]] = field(default_factory=list)  # call, column


def column_name(window: int, what: str) -> str:
    return f"{PREFIX}{window}_{what}"


def frame_rows(window: dx.RowPatternWindow, sql: str) -> int | None:
    """The rows after the current row the frame holds (None: UNBOUNDED FOLLOWING); refuses
    every other frame (ISO/IEC 19075-5, 6.4: ROWS, starting at CURRENT ROW)."""
    frame = window.args.get("frame")
    rule = ("a window with row pattern recognition needs the frame ROWS BETWEEN CURRENT ROW AND "
            "UNBOUNDED FOLLOWING, or ... AND <n> FOLLOWING")
    if frame is None:
        raise error("WINDOW_PATTERN_FRAME", rule + " (none was written)", window.args["pattern"], sql)
    start, end = frame.args["start"], frame.args.get("end")
    if frame.args["kind"] != "ROWS" or start.this != "CURRENT ROW" or end is None:
        raise error("WINDOW_PATTERN_FRAME", rule, frame, sql)
    if end.this == "UNBOUNDED FOLLOWING":
        return None
    if end.this == "CURRENT ROW":
        return 0
    offset = end.args.get("offset")
    if end.this == "FOLLOWING" and isinstance(offset, exp.Literal) and not offset.is_string \
            and offset.this.isdigit():
        return int(offset.this)
    raise error("WINDOW_PATTERN_FRAME", rule + " (n a non-negative integer literal)", end, sql)


def check_window(window: dx.RowPatternWindow, sql: str) -> None:
    """What R020 refuses that MATCH_RECOGNIZE allows (ISO/IEC 19075-5, 6): ROWS PER MATCH and
    the CEP clauses, anchors, MATCH_NUMBER, and row pattern recognition nested inside."""
    for misplaced in window.args.get("misplaced") or []:
        raise error("WINDOW_PATTERN_CLAUSE_NOT_ALLOWED",
                    "this clause belongs to MATCH_RECOGNIZE; a window with row pattern recognition "
                    "outputs one row per input row and matches with strict contiguity", misplaced, sql)
    for anchor in window.args["pattern"].find_all(dx.PatternAnchor):
        raise error("WINDOW_PATTERN_ANCHOR", "the anchors ^ and $ cannot be used in a window's PATTERN",
                    anchor, sql)
    for number in window.find_all(dx.MatchNumber):
        raise error("WINDOW_PATTERN_MATCH_NUMBER",
                    "MATCH_NUMBER() cannot be used in a window with row pattern recognition", number, sql)
    for node in window.find_all(dx.RowPatternWindow, dx.PatternWindowCall):
        if node is not window:
            raise error("NESTED_PATTERN_RECOGNITION", "row pattern recognition cannot be nested in another",
                        node, sql)


def check_window_names(select: exp.Select, sql: str) -> None:
    """ISO/IEC 9075-2, 7.11 (<window clause>), Syntax Rule 2: the names of a WINDOW clause's
    windows are distinct. Spark compares identifiers case-insensitively, so ``w`` and ``W`` (or
    a pattern window and a plain one of the same name) are one name defined twice; refused at
    the second definition rather than letting one of them silently win."""
    seen: dict[str, exp.Identifier] = {}
    for window in select.args.get("windows") or []:
        name = window.args.get("name") if isinstance(window, dx.RowPatternWindow) else window.this
        if not isinstance(name, exp.Identifier):
            continue
        first = seen.setdefault(name.name.lower(), name)
        if first is not name:
            line, column = line_and_column(sql, dialect.span(first)[0])
            raise error("DUPLICATE_WINDOW_NAME",
                        f"the window '{name.name}' is already defined in this WINDOW clause (line "
                        f"{line}, column {column}); give each window its own name", name, sql)


def windows_of(select: exp.Select) -> tuple[list[dx.RowPatternWindow], list]:
    """The pattern windows of ``select`` (named ones first) and its calls over them (not looking
    into subqueries): ``(windows, [(call node, window, called expression)])``."""
    named = [w for w in select.args.get("windows") or [] if isinstance(w, dx.RowPatternWindow)]
    by_name = {w.args["name"].name.lower(): w for w in named}
    windows = list(named)
    calls = []
    for node in _walk_here(select):
        if isinstance(node, dx.PatternWindowCall):
            windows.append(node.args["window"])
            calls.append((node, node.args["window"], node.this))
        elif isinstance(node, exp.Window) and isinstance(node.args.get("alias"), exp.Identifier) \
                and not node.args.get("partition_by") and not node.args.get("order"):
            window = by_name.get(node.args["alias"].name.lower())
            if window is not None:
                calls.append((node, window, node.this))
    return windows, calls


def _walk_here(select: exp.Select):
    stack = [e for key, e in select.args.items() if key != "windows" for e in
             (e if isinstance(e, list) else [e]) if isinstance(e, exp.Expression)]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (exp.Query, dx.RowPatternWindow)):
            continue
        stack.extend(node.iter_expressions())


def has_pattern_windows(tree: exp.Expression) -> bool:
    return any(isinstance(n, (dx.RowPatternWindow, dx.PatternWindowCall)) for n in tree.walk())


CompileWindow = Callable[..., tuple[object, str]]


def _selects(tree: exp.Expression) -> list[exp.Select]:
    """The SELECTs with pattern windows, innermost first (the order they are rewritten in)."""
    selects = [s for s in tree.find_all(exp.Select) if windows_of(s)[0]]
    selects.sort(key=lambda s: -depth(s))
    return selects


def compiled_windows(tree: exp.Expression) -> list[dx.RowPatternWindow]:
    """The pattern windows that get a function, in the order ``rewrite_windows`` compiles
    them (a window nothing is called over costs no pass); for ``explain``."""
    out = []
    for select in _selects(tree):
        windows, calls = windows_of(select)
        called = {id(window) for _, window, _ in calls}
        out += [w for w in windows if id(w) in called]
    return out


def rewrite_windows(tree: exp.Expression, sql: str, splicer: Splicer, compile_window: CompileWindow) -> list:
    """Rewrite every SELECT with pattern windows (innermost first); return the compiled
    windows in the order their functions must be registered. ``compile_window(window, relation,
    extra measures, following, use)`` compiles one window over the query text ``relation``."""
    selects = _selects(tree)
    compiled = []
    for select in selects:
        compiled += _rewrite_select(select, sql, splicer, compile_window)
    return compiled


def _value_function(called: exp.Expression, sql: str) -> exp.Expression | None:
    """first_value, last_value or nth_value called over a pattern window (``RESPECT NULLS``,
    Spark's default, allowed): the call; None for any other function. IGNORE NULLS and an
    nth_value position that is not a positive integer literal are refused."""
    if isinstance(called, exp.IgnoreNulls) and isinstance(called.this, WINDOW_VALUES):
        raise error("WINDOW_FUNCTION_NOT_SUPPORTED",
                    "IGNORE NULLS is not supported over a window with row pattern recognition yet: "
                    "first_value, last_value and nth_value read the match's rows as they are "
                    "(RESPECT NULLS)", called, sql)
    target = called.this if isinstance(called, exp.RespectNulls) else called
    if not isinstance(target, WINDOW_VALUES):
        return None
    if isinstance(target, exp.NthValue):
        offset = target.args.get("offset")
        if not (isinstance(offset, exp.Literal) and not offset.is_string and offset.this.isdigit()
                and int(offset.this) > 0):
            raise error("WINDOW_NTH_VALUE_POSITION",
                        "the position of nth_value must be a positive integer literal (1 is the "
                        "match's first row)", offset, sql)
    return target


def _rewrite_select(select: exp.Select, sql: str, splicer: Splicer, compile_window) -> list:
    check_window_names(select, sql)
    windows, calls = windows_of(select)
    source = select.args.get("from_") or select.args.get("from")
    if source is None:
        raise error("WINDOW_PATTERN_UNSUPPORTED_QUERY", "a window with row pattern recognition needs a FROM clause",
                    windows[0], sql)
    for key in ("joins", "group", "having", "laterals", "qualify"):
        part = select.args.get(key)
        if part:
            node = part[0] if isinstance(part, list) else part
            raise error("WINDOW_PATTERN_UNSUPPORTED_QUERY",
                        "a query with a window with row pattern recognition cannot have JOIN, GROUP BY, "
                        "HAVING, LATERAL VIEW or QUALIFY yet (compute them in a subquery in FROM)", node, sql)
    uses = []
    for index, window in enumerate(windows):
        check_window(window, sql)
        uses.append(PatternWindowUse(window, index))
    by_window = {id(use.node): use for use in uses}
    replacements = []  # (node, column)
    for node, window, called in calls:
        use = by_window[id(window)]
        if isinstance(called, exp.Column) and not called.args.get("table"):
            names = {m.args["alias"].name.lower() for m in window.args.get("measures") or []}
            if called.name.lower() not in names:
                raise error("WINDOW_MEASURE_UNKNOWN",
                            f"'{called.name}' is not a measure of the window (MEASURES ... AS {called.name})",
                            called, sql)
            column = column_name(use.index, f"m_{called.name.lower()}")
            use.measures[called.name.lower()] = column
        elif isinstance(called, WINDOW_AGGREGATES) or _value_function(called, sql) is not None:
            column = column_name(use.index, f"f{len(use.functions)}")
            use.functions.append((_value_function(called, sql) or called, column))  # RESPECT NULLS off
        else:
            raise error("WINDOW_FUNCTION_NOT_SUPPORTED",
                        "over a window with row pattern recognition, sparkcep computes a measure "
                        "(m OVER w), COUNT, SUM, AVG, MIN, MAX, first_value, last_value or nth_value "
                        "over the match", called, sql)
        replacements.append((node, column))

    relation = source.this
    where = select.args.get("where")
    relation_text = f"SELECT * FROM {splicer.render(*dialect.span(relation))}"
    if where is not None:
        where_span = (_keyword_start(sql, dialect.span(where)[0], "WHERE"), dialect.span(where)[1])
        where_text = splicer.render(*where_span)
        relation_text += " " + (where_text if where_text[:5].upper() == "WHERE" else "WHERE " + where_text)
    compiled = []
    for use in uses:
        following = frame_rows(use.node, sql)
        if not use.measures and not use.functions:
            continue  # checked, but nothing is called over it: no pass
        match, relation_text = compile_window(use.node, relation_text, use, following)
        compiled.append(match)
    alias = relation.alias_or_name or "__sparkcep_w"
    splicer.replace(*dialect.span(relation), f"({relation_text}) AS {quote_identifier(alias)}")
    if where is not None:
        splicer.replace(*where_span, "")
    for node, column in replacements:
        splicer.replace(*dialect.span(node), quote_identifier(column))
    _hide_columns(select, splicer, [c for use in uses for c in
                                    [*use.measures.values(), *(column for _, column in use.functions)]])
    _drop_windows(select, sql, splicer)
    return compiled


def _hide_columns(select: exp.Select, splicer: Splicer, columns: list[str]) -> None:
    """``*`` and ``t.*`` in the select list stand for the relation's columns as written, not
    the columns computed for the windows: ``* EXCEPT (...)`` (added to the user's EXCEPT list)."""
    if not columns:
        return
    hidden = ", ".join(quote_identifier(c) for c in columns)
    for projection in select.expressions:
        star = projection.this if isinstance(projection, exp.Column) else projection
        if not isinstance(star, exp.Star):
            continue
        excepted = star.args.get("except_") or star.args.get("except")
        if excepted:
            end = dialect.span(excepted[-1])[1]
            splicer.replace(end, end, ", " + hidden)
        else:
            end = dialect.span(projection)[1]
            splicer.replace(end, end, f" EXCEPT ({hidden})")


def _drop_windows(select: exp.Select, sql: str, splicer: Splicer) -> None:
    """Remove the pattern windows from the WINDOW clause (the whole clause when none is left)."""
    defined = select.args.get("windows") or []
    patterns = [w for w in defined if isinstance(w, dx.RowPatternWindow)]
    if not patterns:
        return
    if len(patterns) == len(defined):
        first = dialect.span(defined[0])[0]
        splicer.replace(_keyword_start(sql, first, "WINDOW"), dialect.span(defined[-1])[1], "")
        return
    for position, window in enumerate(defined):
        if not isinstance(window, dx.RowPatternWindow):
            continue
        start, end = dialect.span(window)
        if position + 1 < len(defined):  # up to the next window: its comma goes too
            end = dialect.span(defined[position + 1])[0]
        else:  # the last one: from the comma after the previous window
            start = dialect.span(defined[position - 1])[1]
        splicer.replace(start, end, "")


def edge_reach(lowering, condition: exp.Expression) -> tuple[int, int]:
    """The largest PREV and NEXT offsets in a DEFINE condition."""
    before = after = 0
    for node in condition.walk():
        call = lowering.call(node)
        if call is not None and call.name == "PREV":
            before = max(before, call.offset)
        elif call is not None and call.name == "NEXT":
            after = max(after, call.offset)
    return before, after


def _keyword_start(sql: str, start: int, word: str) -> int:
    """Where the keyword ``word`` right before ``start`` begins (``start`` if it is not there)."""
    found = re.search(word + r"\s*$", sql[:start], re.IGNORECASE)
    return found.start() if found else start
