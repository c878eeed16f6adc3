"""What the imprecise-timestamp engines report: a match with its confidence and time range."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from sparkcep.engines.contract import Match


@dataclass(frozen=True)
class UncertainMatch(Match):
    """A match signature (its rows and their variables) with:

    * ``confidence``: the probability, over the possible worlds, that the signature is a match;
    * ``confidence_exact``: the same as a Fraction when it was computed exactly (None when the
      numbers were too large and it was computed in floating point);
    * ``time_start_lo``/``time_start_hi``: the earliest and latest time point the match's first
      event occurs at, over the worlds in which the signature is a match;
    * ``time_end_lo``/``time_end_hi``: the same for its last event.

    The paper's "time range" of a match is ``[time_start_lo, time_end_hi]``.
    """

    confidence: float = 0.0
    time_start_lo: int = 0
    time_start_hi: int = 0
    time_end_lo: int = 0
    time_end_hi: int = 0
    confidence_exact: Fraction | None = field(default=None, compare=False)
