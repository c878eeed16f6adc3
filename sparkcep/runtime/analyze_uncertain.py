"""EXPLAIN ANALYZE of a clause with UNCERTAIN TIME, on the executors: one partition run by the
real imprecise-timestamp engine, observed, and once more by an observing copy of it without the
confidence threshold, which says what MINIMUM CONFIDENCE dropped and where the search stopped.

Nothing here is on the normal query path (``sparkcep.runtime.analyze`` builds this runner only
for a plan with UNCERTAIN TIME, and only EXPLAIN ANALYZE registers the analysis function).

The imprecise-timestamp engine (``sparkcep.engines.uncertain``) has no automaton: it searches
*signatures* (rows with their variables, in pattern order) from each row that can start a match,
extending a partial signature one row at a time while a time-point dynamic program says its rows
can still occur in pattern order within the window, and computes each complete signature's
confidence (the probability of the possible worlds in which it is a match). So there are no runs,
states or edges to count; what is counted instead:

* from the engine the query runs (``UncertainEngine`` with the clause's MINIMUM CONFIDENCE): its
  matches, their confidences, the rows they cover, its own counters (start rows, candidate rows
  tried, partial signatures pruned by the confidence bound, complete signatures), and how often
  each match-dependent DEFINE was evaluated and true (the conditions are wrapped in counters);
* from the observer (:class:`_Observer`: the same engine with no threshold, so nothing is pruned):
  every complete signature and its confidence. A signature with ``0 < confidence < MINIMUM
  CONFIDENCE`` is one the threshold dropped; one with confidence 0 fits the DEFINEs and the time
  order but is broken in every world (a negated row, or a row it should have taken, lies between
  its rows). Its matches at or above the threshold are the engine's (the engine's pruning is
  sound); the report shows both counts. The observer also keeps the longest partial signature
  its search extended (:class:`_ObservedRules`), for partitions where no signature was complete.

Per partition the closest misses are, in this order: the ``MISSES_KEPT`` most confident dropped
signatures; else the first signature of confidence 0; else the longest partial signature with the
last row whose match-dependent DEFINE was false for it.
"""

from __future__ import annotations

import heapq
import math
import time
from fractions import Fraction

import numpy as np
import pyarrow as pa

from sparkcep.engines.contract import RowBlock
from sparkcep.engines.uncertain.engine import UncertainEngine, make_uncertain_engine
from sparkcep.engines.uncertain.result import UncertainMatch
from sparkcep.engines.uncertain.store import Rules
from sparkcep.errors import SparkCepError
from sparkcep.runtime.analyze import engine_step

#: dropped signatures kept per partition (the most confident)
MISSES_KEPT = 3
#: confidence buckets of width 1 / BUCKETS
BUCKETS = 10


class _Counted:
    """A match-dependent condition that counts how often it was evaluated and true."""

    __slots__ = ("condition", "evaluated", "true")

    def __init__(self, condition) -> None:
        self.condition = condition
        self.evaluated = 0
        self.true = 0

    def __call__(self, context):
        self.evaluated += 1
        value = self.condition(context)
        if value:
            self.true += 1
        return value


class _ObservedRules(Rules):
    """The engine's rules, noting the longest partial signature the search tried to extend (a
    row is tried as the next one of ``rows`` only once ``rows`` is consistent) and the last row
    whose DEFINE was false as its next row although its row-local part held."""

    def __init__(self, spec, pat, conditions, note) -> None:
        super().__init__(spec, pat, conditions)
        self.note = note

    def qualifies(self, buf, rows, labels, row, var) -> bool:
        ok = super().qualifies(buf, rows, labels, row, var)
        self.note(rows, labels, row, var, ok, bool(buf.masks[var, row - buf.base]))
        return ok


class _Observer(UncertainEngine):
    """The engine without a threshold, handing every complete signature (confidence 0 included)
    to ``sink(rows, labels, confidence)`` instead of making matches (no match budget: nothing
    is kept but what the sink keeps)."""

    def __init__(self, spec, conditions, window, sink, note) -> None:
        super().__init__(spec, conditions, min_confidence=0.0, window=window)
        self.rules = _ObservedRules(spec, self.pat, conditions, note)
        self.sink = sink

    def _keep(self, conf) -> bool:
        return True

    def _emit(self, rows, labels, conf, rng) -> None:
        self.sink(tuple(rows), tuple(labels), conf)


def _exact(conf) -> str | None:
    return f"{conf.numerator}/{conf.denominator}" if isinstance(conf, Fraction) else None


def _bucket(conf) -> int:
    scaled = conf * BUCKETS if isinstance(conf, Fraction) else float(conf) * BUCKETS
    return min(BUCKETS - 1, max(0, math.floor(scaled)))


class _Confidences:
    """Count, min, max, sum and buckets of confidences (exact text kept for min and max)."""

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.min = self.max = None  # (float, exact text or None)
        self.buckets = [0] * BUCKETS

    def add(self, conf) -> None:
        value = float(conf)
        self.count += 1
        self.total += value
        self.buckets[_bucket(conf)] += 1
        if self.min is None or value < self.min[0]:
            self.min = (value, _exact(conf))
        if self.max is None or value > self.max[0]:
            self.max = (value, _exact(conf))

    def as_json(self) -> dict:
        return {"count": self.count, "sum": self.total, "min": self.min, "max": self.max,
                "buckets": self.buckets}


class UncertainAnalyzeRunner:
    """One partition of an UNCERTAIN TIME clause under EXPLAIN ANALYZE (see the module
    docstring); ``report()`` is its JSON report."""

    def __init__(self, plan) -> None:
        from sparkcep.evaluation.conditions import make_condition

        self.plan = plan
        spec = plan.spec
        names = spec.variable_names
        self.threshold = float(plan.uncertain_time.minimum_confidence or 0.0)
        conditions = {v: make_condition(e, names) for v, e in plan.conditions.items()}
        self.counted = {v: _Counted(c) for v, c in conditions.items()}
        self.engine = make_uncertain_engine(spec, self.counted, min_confidence=self.threshold,
                                            window=spec.within)
        self.observer = _Observer(spec, conditions, spec.within, self._signature, self._tried)
        self.partition_values: dict | None = None
        self.rows = 0
        self.matches = 0
        self.covered = bytearray()
        self.selected = [0] * len(names)
        self.row_local_true = [0] * len(names)
        self.confidences = _Confidences()
        self.engine_seconds = 0.0
        self.analysis_seconds = 0.0
        self.engine_error: str | None = None
        self.analysis_error: str | None = None
        self.widths = [None, None, 0]  # min, max, sum of the rows' time points
        # the observer's findings
        self.signatures = _Confidences()  # every signature with confidence > 0
        self.dropped = _Confidences()  # those below the threshold
        self.zero = 0
        self.observed_matches = 0
        self._dropped: list = []  # heap of (confidence, -order, miss) of the most confident
        self._order = 0
        self.zero_miss: dict | None = None
        self.partial: tuple | None = None  # (rows, labels) of the longest partial signature
        self.partial_miss: dict | None = None
        self.rejected: dict | None = None
        # the rows' input values, lo and hi, for the rows a miss may still show
        self.context_names: list[str] = []
        self.store = None

    # -- input ----------------------------------------------------------------------------------

    def _block(self, batch: pa.RecordBatch) -> RowBlock:
        from sparkcep.runtime.partition_runner import decode_masks
        from sparkcep.runtime.uncertain_times import block_times

        plan = self.plan
        masks, packed = decode_masks(plan, batch)
        columns: tuple = ()
        if plan.conditions:
            columns = tuple(batch.column(name).to_pylist() for name in plan.value_columns)
        lo, hi = block_times(batch, plan)
        return RowBlock(masks=masks, columns=columns, codes=packed, time_lo=lo, time_hi=hi)

    def feed(self, batch: pa.RecordBatch) -> None:
        from sparkcep.runtime.analyze import _Store

        if batch.num_rows == 0:
            return
        if self.partition_values is None:
            self.partition_values = {name: batch.column(name)[0].as_py()
                                     for name in self.plan.partition_columns}
            hidden = set(self.plan.partition_columns)
            self.context_names = [name for name in batch.schema.names
                                  if not name.startswith("__sparkcep") and name not in hidden]
            self.store = _Store()
        block = self._block(batch)
        base = self.rows
        self.rows += batch.num_rows
        self.covered.extend(bytes(batch.num_rows))
        for v in range(block.masks.shape[0]):
            self.row_local_true[v] += int(np.count_nonzero(block.masks[v]))
        widths = block.time_hi - block.time_lo + 1
        low, high = int(widths.min()), int(widths.max())
        self.widths = [low if self.widths[0] is None else min(self.widths[0], low),
                       high if self.widths[1] is None else max(self.widths[1], high),
                       self.widths[2] + int(widths.sum())]
        bounds = self.plan.uncertain_time.lo_column, self.plan.uncertain_time.hi_column
        self.store.add(base, (*(batch.column(n).to_pylist() for n in self.context_names),
                              *(batch.column(n).to_pylist() for n in bounds),
                              (block.time_hi - block.time_lo + 1).tolist()))
        self._engine(lambda: self.engine.feed(block))
        self._observe(lambda: self.observer.feed(block))
        self.store.prune(min(self.observer.buf.base, self.rows))

    def finish(self) -> None:
        self._engine(self.engine.finish)
        self._observe(self.observer.finish)

    def _engine(self, step) -> None:
        for match in engine_step(self, step):
            if not isinstance(match, UncertainMatch):
                continue
            self.matches += 1
            conf = match.confidence_exact if match.confidence_exact is not None \
                else match.confidence
            self.confidences.add(conf)
            for row, var in zip(match.rows, match.labels):
                self.covered[row] = 1
                self.selected[var] += 1

    def _observe(self, step) -> None:
        if self.analysis_error is not None:
            return
        started = time.perf_counter()
        try:
            step()
        except SparkCepError as error:
            self.analysis_error = f"[{error.code}] {error.message}"
        finally:
            self.analysis_seconds += time.perf_counter() - started

    # -- what the observer sees ---------------------------------------------------------------

    def _signature(self, rows: tuple, labels: tuple, conf) -> None:
        if (conf.numerator if isinstance(conf, Fraction) else conf) <= 0:
            self.zero += 1
            if self.zero_miss is None:
                self.zero_miss = self._miss("zero_confidence", rows, labels, 0)
            return
        self.signatures.add(conf)
        if self.threshold == 0 or conf >= self.threshold:
            self.observed_matches += 1
            return
        self.dropped.add(conf)
        self._order += 1
        entry = (float(conf), -self._order)
        if len(self._dropped) < MISSES_KEPT or entry > self._dropped[0][:2]:
            item = (*entry, self._miss("below_minimum_confidence", rows, labels, conf))
            if len(self._dropped) < MISSES_KEPT:
                heapq.heappush(self._dropped, item)
            else:
                heapq.heapreplace(self._dropped, item)

    def _tried(self, rows, labels, row, var, ok, row_local) -> None:
        """The observer's search tried ``row`` as ``var`` after the partial signature ``rows``."""
        length = len(rows) or int(ok)
        if length == 0:
            return
        best = -1 if self.partial is None else len(self.partial[0])
        if length > best:
            self.partial = (tuple(rows), tuple(labels)) if rows else ((row,), (var,))
            self.partial_miss = self._miss("longest_partial_match", *self.partial, None)
            self.rejected = None
        if rows and not ok and row_local and self.partial == (tuple(rows), tuple(labels)):
            self.rejected = {"row": row, "variable": self.plan.spec.variable_names[var],
                             "row_values": self._values(row)}

    def _values(self, row: int) -> dict:
        from sparkcep.runtime.analyze import _jsonable

        n = len(self.context_names)
        values = {name: _jsonable(self.store.value(i, row))
                  for i, name in enumerate(self.context_names)}
        # lo and hi as Spark computed them, and how many time points lie between
        values["interval"] = [_jsonable(self.store.value(n, row)),
                              _jsonable(self.store.value(n + 1, row)), self.store.value(n + 2, row)]
        return values

    def _miss(self, kind: str, rows, labels, conf) -> dict:
        names = self.plan.spec.variable_names
        return {"kind": kind, "rows": list(rows), "labels": [names[v] for v in labels],
                "confidence": None if conf is None else float(conf),
                "exact": None if conf is None else _exact(conf),
                "row_values": [self._values(row) for row in rows]}

    # -- the report ---------------------------------------------------------------------------

    def _misses(self) -> list:
        if self._dropped:
            return [item[2] for item in sorted(self._dropped, reverse=True)]
        if self.zero_miss is not None:
            return [self.zero_miss]
        if self.partial_miss is not None:
            return [dict(self.partial_miss, rejected=self.rejected)]
        return []

    def report(self) -> dict:
        from sparkcep.runtime.analyze import _jsonable

        counted = [self.counted.get(v) for v in range(len(self.selected))]
        return {
            "uncertain": True,
            "partition": {k: _jsonable(v) for k, v in (self.partition_values or {}).items()},
            "rows": self.rows, "matches": self.matches, "covered": sum(self.covered),
            "selected": self.selected, "row_local_true": self.row_local_true,
            "condition_evaluated": [c.evaluated if c else 0 for c in counted],
            "condition_true": [c.true if c else 0 for c in counted],
            "confidences": self.confidences.as_json(),
            "engine_stats": {k: self.engine.stats[k] for k in ("starts", "nodes", "pruned",
                                                                 "signatures")},
            "engine_seconds": self.engine_seconds, "analysis_seconds": self.analysis_seconds,
            "engine_error": self.engine_error, "analysis_error": self.analysis_error,
            "widths": self.widths,
            "signatures": self.signatures.as_json(), "dropped": self.dropped.as_json(),
            "zero": self.zero, "observed_matches": self.observed_matches,
            "misses": self._misses(),
        }
