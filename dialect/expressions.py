"""AST nodes the sparkcep dialect adds to sqlglot's.

``MatchRecognize`` is attached to a table reference (a table, a subquery, a join operand), unlike
sqlglot's own ``exp.MatchRecognize``, which is a SELECT-level modifier. Its PATTERN is a tree of
``RowPattern`` nodes, not a string.

Every node carries its source span in ``meta``: ``meta["start"]`` and ``meta["end"]`` are 0-based
character offsets into the statement text, ``end`` exclusive (``sql[start:end]`` is the node's
text), so errors can point at the user's SQL and the rewrite can splice by position.
Use :func:`dialect.spans.span` to read them.
"""

from __future__ import annotations

from sqlglot import exp


class StreamWatermark(exp.Expression):
    """``<this> WATERMARK <column> DELAY OF <interval> [[AS] alias]``: Spark 4.3's event-time
    watermark on a streaming relation (``STREAM(t) WATERMARK ts DELAY OF INTERVAL 10 SECONDS``).

    The rewrite copies its text as written; the node exists so that the clause is part of the
    relation a MATCH_RECOGNIZE clause reads, not mistaken for an alias.

    Args:
        this: the relation (``exp.Table``, e.g. ``STREAM(t)``).
        column: the event-time column (``exp.Column``).
        delay: the delay (``exp.Interval``).
        alias: ``exp.TableAlias`` or None.
    """

    arg_types = {"this": True, "column": True, "delay": True, "alias": False}


class MatchRecognize(exp.Expression):
    """``<this> MATCH_RECOGNIZE ( ... ) [AS] alias``.

    Args:
        this: the input relation (``exp.Table``, ``exp.Subquery``, ...).
        partition_by: list of expressions.
        order: ``exp.Order``.
        measures: list of ``Measure``.
        rows_per_match: ``RowsPerMatch`` or None (default ONE ROW PER MATCH).
        after_match_skip: ``AfterMatchSkip`` or None (default PAST LAST ROW).
        strategy: ``SelectionStrategy`` or None (default STRICT CONTIGUITY).
        pattern: a ``RowPattern`` node.
        within: ``Within`` or None.
        uncertain_time: ``UncertainTime`` or None (imprecise timestamps).
        minimum_confidence: ``MinimumConfidence`` or None.
        subsets: list of ``SubsetDefinition``.
        define: list of ``VariableDefinition``.
        alias: ``exp.TableAlias`` or None.
    """

    arg_types = {
        "this": True,
        "partition_by": False,
        "order": False,
        "measures": False,
        "rows_per_match": False,
        "after_match_skip": False,
        "strategy": False,
        "pattern": True,
        "within": False,
        "uncertain_time": False,
        "minimum_confidence": False,
        "subsets": False,
        "define": False,
        "alias": False,
    }


class Measure(exp.Expression):
    """``expression AS name`` in MEASURES. ``this`` is the expression, ``alias`` an Identifier."""

    arg_types = {"this": True, "alias": True}


class RunningFinal(exp.Expression):
    """``RUNNING f(...)`` or ``FINAL f(...)``: ``this`` is the navigation or aggregate call,
    ``final`` is True for FINAL. A call without the keyword is not wrapped (RUNNING by default)."""

    arg_types = {"this": True, "final": True}


class RowsPerMatch(exp.Expression):
    """``this`` is one of ``ONE``, ``ALL``, ``ALL_SHOW_EMPTY``, ``ALL_OMIT_EMPTY``,
    ``ALL_WITH_UNMATCHED`` (``ALL`` alone means SHOW EMPTY MATCHES); ``timed_out`` is True for
    ``... WITH TIMED OUT MATCHES`` (sparkcep: also the runs a WITHIN window closed)."""

    arg_types = {"this": True, "timed_out": False}


class AfterMatchSkip(exp.Expression):
    """``this`` is one of ``PAST_LAST_ROW``, ``TO_NEXT_ROW``, ``TO_FIRST``, ``TO_LAST``;
    ``variable`` is an Identifier for the TO FIRST/TO LAST forms (``SKIP TO v`` is ``TO_LAST``;
    ``explicit_last`` records whether the keyword LAST was written, for round trips)."""

    arg_types = {"this": True, "variable": False, "explicit_last": False}


class SelectionStrategy(exp.Expression):
    """``this`` is one of ``STRICT_CONTIGUITY``, ``SKIP_TILL_NEXT_MATCH``, ``SKIP_TILL_ANY_MATCH``."""

    arg_types = {"this": True}


class Within(exp.Expression):
    """``WITHIN <interval or number>``: ``this`` is an ``exp.Interval`` or an ``exp.Literal``."""

    arg_types = {"this": True}


class UncertainTime(exp.Expression):
    """``UNCERTAIN TIME (lo, hi) [GRANULARITY <interval>]`` (imprecise timestamps, after Zhang,
    Diao, Immerman, PVLDB 2010): each row occurred at one of the equally likely time points of
    the inclusive interval [lo, hi]. ``this`` and ``expression`` are the row expressions lo and
    hi; ``granularity`` an ``exp.Interval`` (the length of one time point of a TIMESTAMP
    interval) or None (the default, one millisecond)."""

    arg_types = {"this": True, "expression": True, "granularity": False}


class MinimumConfidence(exp.Expression):
    """``MINIMUM CONFIDENCE <number>``: ``this`` is the number as written (an ``exp.Literal``,
    or ``exp.Neg`` of one, refused at analysis)."""

    arg_types = {"this": True}


class SubsetDefinition(exp.Expression):
    """``SUBSET name = (v1, v2, ...)``: ``this`` Identifier, ``expressions`` Identifiers."""

    arg_types = {"this": True, "expressions": True}


class VariableDefinition(exp.Expression):
    """``name AS condition`` in DEFINE: ``this`` Identifier, ``condition`` expression."""

    arg_types = {"this": True, "condition": True}


# ---------------------------------------------------------------------------------------------
# PATTERN
# ---------------------------------------------------------------------------------------------


class RowPattern(exp.Expression):
    """Base class of the PATTERN tree."""


class PatternVariable(RowPattern):
    """A primary pattern variable; ``this`` is an Identifier (case as written, see analysis for
    name resolution)."""

    arg_types = {"this": True}

    @property
    def name(self) -> str:
        return self.this.name


class PatternEmpty(RowPattern):
    """The empty pattern ``()``."""

    arg_types = {}


class PatternAnchor(RowPattern):
    """``^`` (``this="^"``, partition start) or ``$`` (``this="$"``, partition end)."""

    arg_types = {"this": True}


class PatternConcat(RowPattern):
    """Concatenation; ``expressions`` has two or more elements."""

    arg_types = {"expressions": True}


class PatternAlternation(RowPattern):
    """``a | b | ...``; ``expressions`` has two or more elements, in preference order."""

    arg_types = {"expressions": True}


class PatternPermute(RowPattern):
    """``PERMUTE(a, b, ...)``; ``expressions`` in the order written."""

    arg_types = {"expressions": True}


class PatternExclusion(RowPattern):
    """``{- pattern -}``."""

    arg_types = {"this": True}


class PatternGroup(RowPattern):
    """``( pattern )`` kept for faithful round trips; semantically transparent."""

    arg_types = {"this": True}


class PatternQuantified(RowPattern):
    """``this`` followed by a quantifier.

    Args:
        this: the quantified pattern.
        min: int, the minimum number of iterations.
        max: int or None for unbounded.
        reluctant: bool.
        text: the quantifier as written (``"+"``, ``"{2,}"``, ``"*?"``, ...) for round trips.
    """

    arg_types = {"this": True, "min": True, "max": False, "reluctant": True, "text": True}


class PatternNegation(RowPattern):
    """``!X`` (CEP extension): no row satisfying X's DEFINE lies between the rows matched by the
    neighbours. ``this`` is a PatternVariable."""

    arg_types = {"this": True}


# ---------------------------------------------------------------------------------------------
# Row pattern navigation and MATCH_RECOGNIZE-only functions (added by the dialect)
# ---------------------------------------------------------------------------------------------


class Navigation(exp.Expression):
    """``PREV(x[, n])``, ``NEXT(x[, n])``, ``FIRST(x[, n])``, ``LAST(x[, n])`` inside MEASURES or
    DEFINE.

    Args:
        this: the navigated expression (e.g. ``exp.Column`` ``A.price``).
        kind: ``"PREV"``, ``"NEXT"``, ``"FIRST"`` or ``"LAST"`` (upper case).
        offset: the offset expression as written, or None when omitted (then 1 for PREV/NEXT,
            0 for FIRST/LAST).

    Outside MATCH_RECOGNIZE these names keep their Spark meaning (``FIRST``/``LAST`` aggregates).
    """

    arg_types = {"this": True, "kind": True, "offset": False}


class Classifier(exp.Expression):
    """``CLASSIFIER()`` or ``CLASSIFIER(var)``; ``this`` is an Identifier or None."""

    arg_types = {"this": False}


class MatchNumber(exp.Expression):
    """``MATCH_NUMBER()``."""

    arg_types = {}


class MatchStatus(exp.Expression):
    """``MATCH_STATUS()`` (sparkcep): ``'COMPLETE'`` for a match, ``'TIMED_OUT'`` for a run a
    WITHIN window closed before it completed (``ROWS PER MATCH ... WITH TIMED OUT MATCHES``)."""

    arg_types = {}


class UncertainMatchFunction(exp.Expression):
    """A measure of a match under UNCERTAIN TIME, without arguments: ``this`` is
    ``"CONFIDENCE"`` (the match's probability) or one of ``"MATCH_EARLIEST_START"``,
    ``"MATCH_LATEST_START"``, ``"MATCH_EARLIEST_END"``, ``"MATCH_LATEST_END"`` (the possible
    times of the match's first and last rows over the possible worlds that have it)."""

    arg_types = {"this": True}


class RowPatternWindow(MatchRecognize):
    """A window specification with row pattern recognition (SQL:2016 feature R020), in
    ``WINDOW name AS (...)`` or ``OVER (...)``: the clauses of ``MatchRecognize`` that a window
    may hold (PARTITION BY, ORDER BY, MEASURES, AFTER MATCH SKIP, PATTERN, SUBSET, DEFINE) under
    the same names, so that analysis reads it as it reads MATCH_RECOGNIZE.

    Args (besides ``MatchRecognize``'s; ``this`` is None: the window reads the query's rows):
        name: the window's name (``exp.Identifier``) in the WINDOW clause, or None inline.
        frame: ``WindowFrame`` or None when no frame was written.
        search: ``"INITIAL"`` (the default) or ``"SEEK"``.
        search_node: the ``SearchMode`` node as written, or None.
        misplaced: clauses of MATCH_RECOGNIZE a window cannot hold (ONE/ALL ROWS PER MATCH,
            WITHIN, ...), as written, refused by the compiler with their position.
    """

    arg_types = {**MatchRecognize.arg_types, "this": False, "name": False, "frame": False,
                 "search": False, "search_node": False, "misplaced": False}


class WindowFrame(exp.Expression):
    """``ROWS|RANGE|GROUPS [BETWEEN] <start> [AND <end>]`` of a window with row pattern
    recognition. ``kind`` is the unit's word; ``start`` and ``end`` are ``FrameBound`` nodes
    (``end`` None when only the start was written)."""

    arg_types = {"kind": True, "start": True, "end": False}


class FrameBound(exp.Expression):
    """One frame bound: ``this`` is ``CURRENT ROW``, ``UNBOUNDED PRECEDING``, ``UNBOUNDED
    FOLLOWING``, ``PRECEDING`` or ``FOLLOWING``; ``offset`` the expression of the last two."""

    arg_types = {"this": True, "offset": False}


class SearchMode(exp.Expression):
    """``INITIAL`` or ``SEEK`` (``this``) in a window with row pattern recognition."""

    arg_types = {"this": True}


class PatternWindowCall(exp.Expression):
    """``<function or measure name> OVER (<window with row pattern recognition>)``: ``this`` is
    the call (or a column naming a measure), ``window`` the ``RowPatternWindow``."""

    arg_types = {"this": True, "window": True}
