"""UNCERTAIN TIME (lo, hi): the rows' time intervals as integer time points, and back.

A row with UNCERTAIN TIME (lo, hi) occurred at one of the equally likely time points of [lo, hi]
(inclusive; Zhang, Diao, Immerman, PVLDB 2010, §3.2). The engine counts in integer time points;
this module decides at registration, once Spark has typed lo and hi, what one point is, and
converts on the executor (docs/semantics.md, "Imprecise timestamps"):

==========================  ======================================  ==========================
type of lo and hi           time point                              WITHIN
==========================  ======================================  ==========================
TINYINT ... BIGINT          the integer itself                      ``WITHIN n``: n points
TIMESTAMP, TIMESTAMP_NTZ    GRANULARITY (default one millisecond):  ``WITHIN INTERVAL``, in
                            microseconds divided by it, rounded     points; ``WITHIN n`` on a
                            down (TIMESTAMP as an instant,          TIMESTAMP: n seconds
                            TIMESTAMP_NTZ as wall clock)
DATE                        one day                                 ``WITHIN INTERVAL`` in days
==========================  ======================================  ==========================

A match's rows satisfy ``t_last - t_first < W`` in points; a window that is not a whole number of
points is rounded up, which keeps that test exact (differences of points are integers).
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pyarrow as pa

from sparkcep.errors import MatchRuntimeError
from sparkcep.plan.match_plan import MatchPlan
from sparkcep.plan.uncertain_time import DEFAULT_GRANULARITY_MICROS
from sparkcep.runtime.within_keys import WithinKeyTypeError, engine_window

INTEGRAL = ("tinyint", "smallint", "int", "bigint")
TIME_TYPES = (*INTEGRAL, "timestamp", "timestamp_ntz", "date")


class UncertainTimeTypeError(ValueError):
    """lo and hi (or WITHIN, or GRANULARITY) do not fit the model; ``where`` names the part of
    the clause the message is about ("clause", "within" or "granularity")."""

    def __init__(self, message: str, where: str = "clause") -> None:
        super().__init__(message)
        self.where = where


def _family(type_name: str) -> str:
    return "integer" if type_name in INTEGRAL else type_name


def in_points(plan: MatchPlan, lo_type: str, hi_type: str) -> MatchPlan:
    """``plan`` with the time type, the granularity and the WITHIN window in time points, from
    the Spark types of lo and hi (simple names, e.g. ``bigint``, ``timestamp``)."""
    uncertain = plan.uncertain_time
    lo_type, hi_type = lo_type.lower(), hi_type.lower()
    for name in (lo_type, hi_type):
        if name not in TIME_TYPES:
            raise UncertainTimeTypeError(
                f"UNCERTAIN TIME (lo, hi) takes integers (time points), TIMESTAMP, TIMESTAMP_NTZ or "
                f"DATE values, not {name.upper()}")
    if _family(lo_type) != _family(hi_type):
        raise UncertainTimeTypeError(
            f"lo and hi of UNCERTAIN TIME must have the same kind of type, not {lo_type.upper()} "
            f"and {hi_type.upper()}; cast one of them")
    family = _family(lo_type)
    timestamp = family in ("timestamp", "timestamp_ntz")
    if uncertain.granularity is not None and not timestamp:
        raise UncertainTimeTypeError(
            f"GRANULARITY applies to TIMESTAMP intervals; {lo_type.upper()} values are time points "
            "already", "granularity")
    micros = (uncertain.granularity or DEFAULT_GRANULARITY_MICROS) if timestamp else 1
    window = plan.spec.within
    if window is not None:
        window = window_in_points(plan.within_kind, window, lo_type, micros)
    return dataclasses.replace(
        plan,
        spec=dataclasses.replace(plan.spec, within=window),
        uncertain_time=dataclasses.replace(uncertain, time_type=family, micros_per_point=micros),
    )


def window_in_points(kind: str, within: int | float, time_type: str, micros_per_point: int) -> int:
    """The WITHIN window in whole time points (rounded up: ``t_last - t_first < W`` over integer
    points is the same test)."""
    name = time_type.lower()
    if name in INTEGRAL and kind == "interval":
        raise UncertainTimeTypeError(
            "WITHIN INTERVAL needs TIMESTAMP or DATE times; integer times are time points, "
            "bounded by WITHIN <number of points>", "within")
    try:
        window = engine_window(kind, within, name, "UNCERTAIN TIME (lo, hi)")
    except WithinKeyTypeError as error:
        raise UncertainTimeTypeError(str(error), "within") from None
    amount = Fraction(str(window))
    if name in ("timestamp", "timestamp_ntz"):
        amount /= micros_per_point
    return max(1, math.ceil(amount))


def _as_integers(values: pa.Array, family: str, micros_per_point: int) -> pa.Array:
    if family in ("timestamp", "timestamp_ntz"):
        if values.type.unit != "us":
            values = values.cast(pa.timestamp("us", values.type.tz))
        return values.cast(pa.int64())
    if family == "date":
        return values.cast(pa.int32()).cast(pa.int64())
    return values.cast(pa.int64())


def block_times(batch: pa.RecordBatch, plan: MatchPlan) -> tuple[np.ndarray, np.ndarray]:
    """Each row's interval [lo, hi] in time points (int64). A NULL bound or lo after hi is an
    INVALID_UNCERTAIN_INTERVAL error: the row has no possible time."""
    uncertain = plan.uncertain_time
    family, micros = uncertain.time_type, uncertain.micros_per_point
    bounds = []
    for name in (uncertain.lo_column, uncertain.hi_column):
        values = batch.column(name)
        if values.null_count:
            raise _invalid(plan, "a row's UNCERTAIN TIME interval has a NULL bound, so the row has "
                                 "no possible time; filter such rows out before MATCH_RECOGNIZE")
        numbers = np.asarray(_as_integers(values, family, micros).to_numpy(zero_copy_only=False),
                             dtype=np.int64)
        bounds.append(numbers // micros if micros != 1 else numbers)
    lo, hi = bounds
    inverted = np.flatnonzero(lo > hi)
    if len(inverted):
        row = int(inverted[0])
        shown = [batch.column(name)[row].as_py() for name in (uncertain.lo_column, uncertain.hi_column)]
        raise _invalid(plan, f"a row's UNCERTAIN TIME interval is empty: lo ({shown[0]}) is after hi "
                             f"({shown[1]})")
    return lo, hi


def _invalid(plan: MatchPlan, message: str) -> MatchRuntimeError:
    error = MatchRuntimeError("INVALID_UNCERTAIN_INTERVAL", message)
    error.span = plan.uncertain_time.clause_span
    return error


def points_to_arrow(points: list, plan: MatchPlan, arrow_type: pa.DataType) -> pa.Array:
    """Time points (None: NULL) as values of the type of lo and hi (MATCH_TIME_RANGE_START/END):
    the first microsecond of a TIMESTAMP point, the day of a DATE point, an integer as itself."""
    uncertain = plan.uncertain_time
    integers = pa.array([None if p is None else int(p) * uncertain.micros_per_point for p in points],
                        pa.int64())
    family = uncertain.time_type
    if family in ("timestamp", "timestamp_ntz"):
        tz = arrow_type.tz if pa.types.is_timestamp(arrow_type) else None
        return integers.cast(pa.timestamp("us", tz)).cast(arrow_type)
    if family == "date":
        return integers.cast(pa.int32()).cast(pa.date32()).cast(arrow_type)
    return integers.cast(arrow_type)
