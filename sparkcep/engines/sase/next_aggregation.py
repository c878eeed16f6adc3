"""Counting SKIP TILL NEXT MATCH matches without building them.

Under SKIP TILL NEXT MATCH (``docs/semantics.md``; SASE+, Agrawal et al., SIGMOD 2008) a run
never skips a row it can use: a *selectable* row -- one it can take or proceed with -- is always
consumed, in every way it can be (the run forks on take and proceed), and a row it cannot use is
ignored. The number of runs still grows exponentially with the rows (each fork doubles them),
but, as under SKIP TILL ANY MATCH, with row-local conditions two runs in the same automaton state
have the same futures, so counting them per state suffices (the counting view of the strategy
that COGRA, Poppe et al., SIGMOD 2019, takes for its "skip-till-next-match" semantics).

The engine is ``AggregationEngine`` with two changes, made through its hooks (its states,
programs, negation levels, start vectors, measures and per-row moves are reused):

* a row moves the whole count of every state it is selectable in -- nothing stays behind
  (``CONSUMES``) -- to the states of its takes and proceeds (a fork adds the count to each);
  states it is not selectable in keep their count (the row is ignored), and negated rows lower
  their level;
* entering an accepting state completes nothing (``_entry_completes``): a run is a match when it
  is in an accepting state when it *closes*: when its start vector leaves the window (WITHIN),
  or when the partition ends. A run at the last component's maximum can do nothing more and
  waits there; a run that can still grow keeps selecting and is counted once, maximal -- the
  NEXT rule "reported once, maximal, when it closes". ``totals()`` counts the runs still open as
  if the partition ended now.

**WITHIN** (the parent's start event marking: one count vector per start key). Whether a row is
selectable for a run depends only on the run's state (component, rows taken, negation level),
never on where it started, so the runs of different starts in one state move alike, as NFA^b's
merged runs do. Rule 1 of the strategy closes a run at the first row whose key is ``>= start key
+ w``, before that row is read: here the start key's vector leaves the window before the row is
applied to the others, and its accepting runs are counted then (``_expire``). A row whose key
is NaN lies in no window: it moves no count and only lowers negation levels, as NFA^b ignores
it (``NfaEngine._keyless_row``).
"""

from __future__ import annotations

import copy

from sparkcep.engines.sase.aggregation import AggregateTotals, AggregationEngine, _add, _less


def _add_part(tot, part) -> None:
    """Add a partial aggregate (non-null count, sum, min, max) to one measure's totals."""
    nn, sm, mn, mx = part
    tot.nn += nn
    if tot.summable:
        try:
            tot.sm = _add(tot.sm, sm)
        except TypeError:  # values of mixed kinds: no sum
            tot.summable, tot.sm = False, 0
    if tot.mn is None or _less(mn, tot.mn):
        tot.mn = mn
    if tot.mx is None or _less(tot.mx, mx):
        tot.mx = mx


class NextMatchAggregationEngine(AggregationEngine):
    """Counts the SKIP TILL NEXT MATCH matches of one partition, and aggregates ``measures`` over
    them, without building them (module docstring). Row-local DEFINE only."""

    CONSUMES = True  # a selectable row is consumed: the runs it moves leave their states
    # Every row takes the measured way, also without measures: the parent's count-only shortcut
    # leaves the moved runs behind in their source states.
    _apply = AggregationEngine._apply_measured

    def _entry_completes(self) -> list[bool]:
        """No state completes a match on entry: a run is counted when it closes (``_close``)."""
        return [False] * len(self.auto.accepting)


    def _expire(self, vec) -> None:
        self.matches += self._close(vec, self._totals)

    def _close(self, vec, totals) -> int:
        """Add the accepting runs of ``vec`` to ``totals``; return how many there are."""
        done = 0
        for s, accepting in enumerate(self.auto.accepting):
            if accepting and vec.cnt[s]:
                done += vec.cnt[s]
                for i, part in enumerate(self._snapshot(vec, s)):
                    if part is not None:
                        _add_part(totals[i], part)
        return done

    def totals(self) -> AggregateTotals:
        totals = copy.deepcopy(self._totals)
        matches = self.matches
        vectors = [self._global] if self.within is None else list(self._active)
        for vec in vectors:
            matches += self._close(vec, totals)
        return AggregateTotals(matches, tuple(t.result() for t in totals))
