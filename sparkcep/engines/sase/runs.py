"""What both SASE engines share at run time: the row store of rows a run may still read and
``EngineBase`` (guards, match numbering, output order, unmatched rows). The condition context
over a run's selected rows is ``sparkcep.engines.run_context.RunContext``, shared with the
imprecise-timestamp engines."""

from __future__ import annotations

from bisect import bisect_right

from sparkcep.engines.budgets import budget_exceeded
from sparkcep.engines.contract import Match, MatchEvent, RowBlock, UnmatchedRow
from sparkcep.engines.run_context import normalize_conditions
from sparkcep.engines.sase.pattern import compile_pattern
from sparkcep.engines.spec import MatchSpec, RowsPerMatch
from sparkcep.errors import InternalError, MatchRuntimeError



class RowStore:
    """The columns and ORDER BY keys of the rows an engine may still read (batches are kept by
    reference and dropped once every row in them is older than the oldest row still needed)."""

    def __init__(self) -> None:
        self.offsets: list[int] = []
        self.blocks: list[RowBlock] = []
        self.keys: list = []  # per block: list of keys (Python numbers) or None

    def add(self, offset: int, block: RowBlock) -> None:
        self.offsets.append(offset)
        self.blocks.append(block)
        self.keys.append(None if block.order_key is None else block.order_key.tolist())

    def _locate(self, row: int) -> tuple[int, int]:
        i = bisect_right(self.offsets, row) - 1
        return i, row - self.offsets[i]

    def value(self, column: int, row: int):
        i, j = self._locate(row)
        return self.blocks[i].columns[column][j]

    def key(self, row: int):
        i, j = self._locate(row)
        keys = self.keys[i]
        return 0 if keys is None else keys[j]

    def prune(self, oldest_needed: int) -> None:
        """Forget blocks whose rows are all older than ``oldest_needed``."""
        drop = 0
        while drop + 1 < len(self.offsets) and self.offsets[drop + 1] <= oldest_needed:
            drop += 1
        if drop:
            del self.offsets[:drop], self.blocks[:drop], self.keys[:drop]


class EngineBase:
    """What both SASE engines share: pattern, conditions, row store, guards, numbering, output
    order, unmatched rows.

    Output order: a match is *final* at its completion row -- its last row, or for a SKIP TILL
    NEXT MATCH match ending in an open quantifier, the row that closed it (first row out of the
    window) or the end of the partition. Matches are numbered 1, 2, ... in order of (completion,
    first row, rows, components of the rows), which does not depend on how the partition is split
    into batches.
    """

    name = "sase"

    def __init__(self, spec: MatchSpec, conditions=None) -> None:
        self.spec = spec
        self.pat = compile_pattern(spec)
        self.conds = normalize_conditions(conditions, len(spec.variable_names))
        self.store = RowStore()
        self.n_rows = 0
        self.within = spec.within
        self.matches_out = 0
        self.steps = 0
        self.stats = {"runs": 0, "steps": 0, "matches": 0, "peak_runs": 0}
        self.unmatched = spec.rows_per_match is RowsPerMatch.ALL_WITH_UNMATCHED
        self._undecided = 0  # first row not yet reported as matched/unmatched
        self._covered: set[int] = set()
        self._excluded = tuple(c.excluded for c in self.pat.components)
        self._comp_of_var = {c.var: i for i, c in enumerate(self.pat.components)}
        self._pattern_text = spec.pattern_text()
        self._pending_rows = 0  # rows of matches found in the current call, not yet output
        self._held_input = 0  # buffered input rows, as of the last _check_buffer

    # -- guards ---------------------------------------------------------------------------------

    def _budget(self, field: str) -> MatchRuntimeError:
        """MATCH_BUDGET_EXCEEDED for budget ``field`` (``sparkcep.engines.budgets``)."""
        return budget_exceeded(
            self.spec, field,
            "the number of matches and partial matches can grow exponentially with the number of "
            "rows in the window; SKIP TILL NEXT MATCH selects fewer",
        )

    def _add_steps(self, k: int) -> None:
        self.steps += k
        if self.steps > self.spec.max_steps:
            raise self._budget("max_steps")

    def _begin_call(self) -> None:
        """A feed/finish call starts: no match rows are pending output yet."""
        self._pending_rows = 0

    def _hold(self, rows: int) -> None:
        """``rows`` more rows of found matches wait for the output of this call: check them, with
        the buffered input rows (as of the last ``_check_buffer``), against ``max_buffered_rows``."""
        self._pending_rows += rows
        if self._pending_rows + self._held_input > self.spec.max_buffered_rows:
            raise self._budget("max_buffered_rows")

    def _check_buffer(self, held: int | None = None) -> None:
        """Check the buffered input rows (``held``, default ``buffered_rows``) against
        ``max_buffered_rows``."""
        self._held_input = held = self.buffered_rows if held is None else held
        if held + self._pending_rows > self.spec.max_buffered_rows:
            raise self._budget("max_buffered_rows")

    # -- output -----------------------------------------------------------------------------------

    def _emit(self, raw: list[tuple], out: list[MatchEvent]) -> None:
        """Number and append the matches completed at one completion point: ``(rows, labels)``,
        or ``(rows, labels, True)`` for a run its window closed (WITH TIMED OUT MATCHES)."""
        if not raw:
            return
        comp_of = self._comp_of_var
        if len(raw) > 1:
            raw.sort(key=lambda m: (m[0][0], m[0], tuple(comp_of[v] for v in m[1])))
        if self.matches_out + len(raw) > self.spec.max_matches:
            raise self._budget("max_matches")
        ex = self._excluded
        any_ex = any(ex)
        for found in raw:
            rows, labels = found[0], found[1]
            self.matches_out += 1
            excl = tuple(ex[comp_of[v]] for v in labels) if any_ex else ()
            out.append(Match(self.matches_out, rows[0], rows, labels, excl,
                             timed_out=len(found) > 2))
            if self.unmatched:
                self._covered.update(rows)
        self.stats["matches"] = self.matches_out

    def _emit_unmatched(self, bound: int, out: list[MatchEvent]) -> None:
        """Report rows below ``bound`` that no reported match covers (no future match can)."""
        if not self.unmatched:
            return
        for r in range(self._undecided, bound):
            if r in self._covered:
                self._covered.discard(r)
            else:
                out.append(UnmatchedRow(r))
        self._undecided = max(self._undecided, bound)

    # -- helpers ----------------------------------------------------------------------------------

    def _check_block(self, block: RowBlock) -> None:
        if self.within is not None and block.order_key is None and len(block):
            raise InternalError("WITHIN needs RowBlock.order_key")
