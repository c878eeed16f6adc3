"""What a MATCH_RECOGNIZE clause over a stream may contain (pure; no SparkSession).

On a stream (``FROM STREAM(t) WATERMARK ts DELAY OF ...`` or a streaming view) the clause runs
on Spark's stateful operator (``sparkcep.runtime.streaming``): the rows of each partition are
held until the watermark passes them, then fed in ORDER BY order to the same engines as in a
batch query, and a partition's matching is closed when the watermark is past its last row by more
than the WITHIN window. The answer for the rows that are not late is then exactly the batch
answer. That argument needs the clause to be of the shape checked here; everything else is
refused at analysis with the reason (docs/streaming.md, "What is refused"):

* WITHIN is required: it bounds how long a partial match may wait for rows, so it bounds the
  state (Flink's documentation gives the same advice; without it a run may wait forever).
* The first ORDER BY item is the event-time column, ascending; the others are columns (the
  operator sorts the released rows by them itself).
* ONE ROW PER MATCH or ALL ROWS PER MATCH [SHOW EMPTY MATCHES | OMIT EMPTY MATCHES] (WITH
  UNMATCHED ROWS: refused, see ``check_clause``; under OMIT EMPTY MATCHES the operator numbers
  the matches by the runner's count, which includes the empty ones left out).
* PREV and NEXT are read from columns an ordering operator fills in
  (``runtime.streaming.OrderedRelease``); with NEXT a row is matched once its successors have
  arrived (not with UNCERTAIN TIME, ``check_navigation``), in each ROWS PER MATCH mode above.
* No anchors: a stream's partition never ends (``$``), and a partition's matching restarts after
  each gap longer than WITHIN, so ``^`` would not mean the partition's first row.
* MATCH_NUMBER() only as a measure of its own (the operator numbers the matches across restarts).
* UNCERTAIN TIME (lo, hi) only with lo a column that is also the first ORDER BY item (so the
  watermark is on lo): the engine needs its rows sorted by lo, and the operator can release rows
  in that order only when the watermark follows lo (``_check_uncertain_time``).
"""

from __future__ import annotations

from sqlglot import exp

from sparkcep import dialect
from sparkcep.compiler.analysis import Analysis
from sparkcep.dialect import expressions as dx
from sparkcep.engines import rowpattern as rp
from sparkcep.engines.spec import RowsPerMatch
from sparkcep.errors import AnalysisError
from sparkcep.plan import expressions as p

CODE = "STREAM_UNSUPPORTED"


def declares_stream(text: str) -> bool:
    """Whether a clause of the statement reads ``STREAM(t) WATERMARK ...`` in its own text (a
    streaming view is known only to Spark): such a statement can be compiled for a stream, and
    its refusals reported, before Spark starts (``sparkcep explain``, ``sparkcep stream``)."""
    try:
        statements = dialect.parse(text)
    except Exception:  # the syntax error surfaces where the statement is compiled
        return False
    return any(clause.this is not None and clause.this.find(dx.StreamWatermark) is not None
               for tree in statements if tree is not None
               for clause in tree.find_all(dx.MatchRecognize))


def check_clause(analysis: Analysis, within_kind: str | None) -> None:
    """Refuse what the stateful operator cannot answer exactly as the batch query would."""
    scope = analysis.scope
    node = analysis.node
    if analysis.within is None:
        raise scope.error(
            "STREAM_UNBOUNDED_STATE",
            "a MATCH_RECOGNIZE over a stream needs WITHIN: without it a partial match may wait for "
            "rows forever, so the rows it may still use would be kept in state without bound; add "
            "e.g. WITHIN INTERVAL '10' MINUTE after PATTERN (...)",
            node.args["pattern"],
        )
    if within_kind != "interval":
        raise scope.error(
            CODE, "over a stream, WITHIN takes an INTERVAL (the ORDER BY key is the event time)",
            analysis.within,
        )
    if not analysis.order_by:
        raise scope.error(
            CODE, "a MATCH_RECOGNIZE over a stream needs ORDER BY <event-time column>", node)
    for position, item in enumerate(analysis.order_by):
        inner = item.this if isinstance(item, exp.Ordered) else item
        if not isinstance(inner, exp.Column):
            raise scope.error(
                CODE, "over a stream, each ORDER BY item must be a column of the input", item)
        if position == 0 and isinstance(item, exp.Ordered) and item.args.get("desc"):
            raise scope.error(
                CODE, "over a stream, the first ORDER BY item is the event-time column, ascending "
                "(rows are released in the order the watermark passes them)", item)
    rows = analysis.rows_per_match
    if rows is RowsPerMatch.ALL_WITH_UNMATCHED:
        raise scope.error(
            CODE, "ALL ROWS PER MATCH WITH UNMATCHED ROWS is refused over a stream: it outputs every "
            "input row, so the operator would hold and re-emit the whole stream behind the "
            "watermark; select the unmatched rows from the source instead",
            node.args.get("rows_per_match") or node)
    if analysis.uncertain_time is not None:
        _check_uncertain_time(analysis)
    if rp.has_anchor(analysis.pattern):
        raise scope.error(
            CODE, "anchors (^, $) are refused over a stream: a stream's partition has no last row, "
            "and its matching restarts after every gap longer than WITHIN",
            node.args["pattern"])


def _check_uncertain_time(analysis: Analysis) -> None:
    """Over imprecise timestamps the engine reads rows sorted by ``lo`` (a match's start row is
    resolved once a row with a larger ``lo`` than its ``hi`` plus the window arrives). The
    operator releases rows in the order of the watermark's column, so that column must be
    ``lo``: the first ORDER BY item (the event-time column the watermark is on) must be the very
    column ``lo`` names. Then the released rows are in the batch query's order (``lo``, then
    ORDER BY), and a segment is closed once the watermark is past its largest ``hi`` plus the
    window (``runtime.streaming``)."""
    uncertain = analysis.uncertain_time
    lo = uncertain.this
    first = analysis.order_by[0]
    first = first.this if isinstance(first, exp.Ordered) else first
    if not isinstance(lo, exp.Column) or lo.name.lower() != first.name.lower() \
            or (lo.table and first.table and lo.table.lower() != first.table.lower()):
        raise analysis.scope.error(
            CODE, "over a stream, UNCERTAIN TIME (lo, hi) needs lo to be the event-time column "
            "the watermark is on, the first ORDER BY item (e.g. ORDER BY lo ... UNCERTAIN TIME "
            "(lo, hi) with STREAM(t) WATERMARK lo DELAY OF ...): the engine reads the rows "
            "sorted by lo, and the operator releases them in the order the watermark passes them",
            lo)


def check_navigation(analysis: Analysis, window_calls: list[exp.Expression],
                     shifts: list[tuple[str, int]] = ()) -> None:
    """A batch query computes PREV and NEXT as ``lag`` and ``lead`` over the ordered partition;
    over a stream both are read from columns an ordering operator fills in
    (``runtime.streaming.OrderedRelease``), so no window function may remain. NEXT makes a row
    wait for its successors; under UNCERTAIN TIME the segments close by ``hi``, which that
    operator does not know, so the two together are refused (not yet)."""
    if window_calls:  # pragma: no cover - every PREV/NEXT is a shift over a stream
        raise analysis.scope.error(
            CODE, "this navigation over a stream is not supported: a batch query computes it as "
            "a window function over the ordered partition", window_calls[0])
    if analysis.uncertain_time is not None and any(offset < 0 for _, offset in shifts):
        raise analysis.scope.error(
            CODE, "NEXT with UNCERTAIN TIME over a stream is not supported yet: a row would wait "
            "for its successors, and segments close by the intervals' ends",
            analysis.uncertain_time)


def check_plan(analysis: Analysis, conditions: dict, components: list) -> None:
    """MATCH_NUMBER() is renumbered by the operator across restarts, which it can do for a measure
    that is MATCH_NUMBER() itself, not for one inside DEFINE or a navigation."""
    offending = [e for e in conditions.values() if p.uses_match_number(e)]
    offending += [c for c in components if not isinstance(c, p.MatchNumber) and p.uses_match_number(c)]
    if offending:
        found = analysis.node.find(dx.MatchNumber)
        raise analysis.scope.error(
            CODE, "over a stream, MATCH_NUMBER() is supported only as a measure of its own "
            "(MEASURES MATCH_NUMBER() AS n), not in DEFINE or with navigation",
            found or analysis.node)


def single_clause_error(clause: exp.Expression, sql: str) -> AnalysisError:
    """A second clause in a streaming statement (several stateful operators: not yet)."""
    start, _ = dialect.span(clause)
    keyword = sql.upper().find("MATCH_RECOGNIZE", start)
    return AnalysisError.at_offset(
        CODE, "a statement over a stream may hold one MATCH_RECOGNIZE clause (not yet several, "
        "nor one over another's output)", sql, keyword if keyword >= 0 else start,
        len("MATCH_RECOGNIZE"))
