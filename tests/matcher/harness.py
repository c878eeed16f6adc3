"""Shared helpers: build specs and blocks, run the matcher batch by batch, run the oracle."""

from __future__ import annotations

import numpy as np

from sparkcep.errors import MatchRuntimeError
from sparkcep.engines.standard.matcher import RowPatternMatcher
from sparkcep.engines.contract import RowBlock
from sparkcep.engines.spec import MatchSpec

from .oracle import oracle_events


def masks_from(rows: str, names: str) -> np.ndarray:
    """Masks from a compact notation: ``rows`` = space-separated cells, each the set of variable
    letters true at that row (``-`` = none). ``names`` = the variable letters in id order."""
    cells = rows.split()
    out = np.zeros((len(names), len(cells)), dtype=bool)
    for r, cell in enumerate(cells):
        for ch in cell:
            if ch != "-":
                out[names.index(ch), r] = True
    return out


def spec_of(pattern, names, **kw) -> MatchSpec:
    return MatchSpec(pattern=pattern, variable_names=tuple(names), **kw)


def run_matcher(spec, conditions, masks, columns=(), order_key=None, cuts=None):
    """Feed the partition in blocks split at ``cuts`` (sorted row indices); return
    (events, error code or None)."""
    n = masks.shape[1]
    cuts = [] if cuts is None else sorted(set(c for c in cuts if 0 <= c <= n))
    bounds = [0] + cuts + [n]
    engine = RowPatternMatcher(spec, conditions)
    events = []
    try:
        for lo, hi in zip(bounds, bounds[1:]):
            block = RowBlock(
                masks=masks[:, lo:hi],
                columns=tuple(col[lo:hi] for col in columns),
                order_key=None if order_key is None else order_key[lo:hi],
            )
            events.extend(engine.feed(block))
        events.extend(engine.finish())
    except MatchRuntimeError as e:
        return events + e.events, e.code
    return events, None


def compare(spec, conditions, masks, columns=(), order_key=None, cuts=None):
    expected, expected_code = oracle_events(spec, conditions, masks, columns, order_key)
    got, code = run_matcher(spec, conditions, masks, columns, order_key, cuts)
    assert (got, code) == (expected, expected_code)
    return expected, expected_code


def brief(events):
    """Compact rendering: Match -> (number, start, labels string); UnmatchedRow -> row."""
    out = []
    for e in events:
        if hasattr(e, "labels"):
            out.append((e.number, e.start, "".join("ABCDEFG"[v] for v in e.labels)))
        else:
            out.append(e.row)
    return out
