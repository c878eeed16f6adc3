"""Building specs, blocks and conditions for the uncertain-engine tests, and running an engine."""

from __future__ import annotations

import numpy as np

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.contract import RowBlock
from sparkcep.engines.spec import MatchSpec, Strategy

from .oracle import Comp, Pat

STRATEGIES = {
    "ANY": Strategy.SKIP_TILL_ANY_MATCH,
    "NEXT": Strategy.SKIP_TILL_NEXT_MATCH,
    "STRICT": Strategy.STRICT_CONTIGUITY,
}
NAMES = ("A", "B", "C", "D", "N", "M")


def spec_of(pat: Pat, strategy: str, within=None) -> MatchSpec:
    items: list = []
    for k, comp in enumerate(pat.comps):
        items.extend(rp.Negation(v) for v in pat.negs[k])
        label = rp.Label(comp.var)
        items.append(rp.Quantified(label, 1, None) if comp.kleene else label)
    return MatchSpec(rp.Concat(tuple(items)), NAMES, strategy=STRATEGIES[strategy], within=within)


def run(make, spec, rows, conditions=None, *, window=None, min_confidence=0.0, cuts=()):
    """Feed ``rows`` = (masks (vars x n), lo, hi, values) in blocks split at ``cuts``."""
    masks, lo, hi, values = rows
    masks = np.asarray(masks, dtype=bool).reshape(len(masks), len(lo))
    masks = np.vstack([masks, np.zeros((len(NAMES) - len(masks), len(lo)), dtype=bool)])
    engine = make(spec, conditions, window=window, min_confidence=min_confidence)
    out = []
    bounds = [0, *sorted(set(c for c in cuts if 0 < c < len(lo))), len(lo)]
    for a, b in zip(bounds, bounds[1:]):
        out += engine.feed(RowBlock(
            np.asarray(masks)[:, a:b], columns=(np.asarray(values[a:b]),),
            time_lo=np.asarray(lo[a:b], dtype=np.int64), time_hi=np.asarray(hi[a:b], dtype=np.int64),
        ))
    out += engine.finish()
    return out


def as_dict(matches) -> dict:
    return {
        (m.rows, m.labels): (m.confidence_exact, (m.time_start_lo, m.time_start_hi, m.time_end_lo, m.time_end_hi))
        for m in matches
    }
