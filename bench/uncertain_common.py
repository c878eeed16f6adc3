"""Shared pieces of the imprecise-timestamp benchmarks (engines only, no Spark): a stream of
interval events, a throughput measurement under a time budget, JSON lines, the current commit."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import numpy as np

from sparkcep.engines.contract import RowBlock


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def throughput(make, spec, masks, lo, hi, *, budget: float, block: int = 50, **kw) -> dict:
    """Feed ``block`` rows at a time until ``budget`` seconds have passed (or the rows run out);
    events/s over the rows fed, by the wall clock and by the process's CPU time (the latter is
    what to compare on a shared machine; run with one BLAS thread, ``OPENBLAS_NUM_THREADS=1``).
    The engine finishes what it has (``finish``) inside the timing."""
    engine = make(spec, None, **kw)
    n = len(lo)
    fed = matches = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    while fed < n and time.perf_counter() - started < budget:
        b = min(n, fed + block)
        out = engine.feed(RowBlock(masks[:, fed:b], time_lo=lo[fed:b], time_hi=hi[fed:b]))
        matches += len(out)
        fed = b
    matches += len(engine.finish())
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    return {"events": fed, "seconds": seconds, "events_per_s": fed / seconds,
            "cpu_seconds": cpu, "events_per_cpu_s": fed / cpu, "matches": matches,
            "stats": dict(getattr(engine, "stats", {}))}


def emit(record: dict, out) -> None:
    line = json.dumps(record)
    print(line, file=out, flush=True)
    if out is not sys.stdout:
        print(line, file=sys.stderr, flush=True)


def as_arrays(masks, lo, hi):
    return (np.asarray(masks, dtype=bool), np.asarray(lo, dtype=np.int64),
            np.asarray(hi, dtype=np.int64))
