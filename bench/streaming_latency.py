"""Sustained throughput and match latency of a streaming MATCH_RECOGNIZE, sparkcep (Structured
Streaming) side by side with Flink SQL (streaming mode), fed the same files at the same rate;
several query shapes (issue 22), and a baseline build of sparkcep in the same run.

The workload (docs/benchmarks.md, section 10): ``k`` partition keys, one event every ``1/rate``
seconds of event time (round robin over the keys), ``ev`` drawn from a (0.3), b (0.5), c (0.2),
and (for the shapes that read it) ``price``, a random walk per key from 1000 in integer steps
-1 / 0 / +1 (0.45 / 0.1 / 0.45; its own random stream, so ``ev`` does not depend on it). The
rows of one key must have distinct times (ORDER BY ts a total order): rates above 1000 * keys
are refused. ``--shapes`` (comma list), each ``PARTITION BY k ORDER BY ts``, a watermark ``delay``
on ``ts``, output ``k, s, e, x`` (start and end of the match in ms, a shape's integer measure):

* ``abc`` (the default; the one Flink runs too): ``PATTERN (A B+ C) WITHIN --within``, ONE ROW
  PER MATCH AFTER MATCH SKIP PAST LAST ROW, ``DEFINE A AS ev='a', B AS ev='b', C AS ev='c'``,
  x = COUNT(B.ts);
* ``next_match``: ``PATTERN (A B C)`` under SKIP TILL NEXT MATCH WITHIN 5 s, same DEFINE (no AFTER
  MATCH clause: sparkcep refuses one with a strategy), x = B.ts;
* ``prev``: ``PATTERN (UP{3,})``, ``UP AS UP.price > PREV(UP.price)``, WITHIN 10 s, ONE ROW PER
  MATCH AFTER MATCH SKIP PAST LAST ROW, s = FIRST(UP.ts), e = LAST(UP.ts), x = COUNT(*);
* ``next``: ``PATTERN (UP{2,})``, ``UP AS UP.price < NEXT(UP.price)``, otherwise as ``prev``.

Each shape has its own oracle, a brute-force computation from the documented semantics that
shares no code with either engine, run over the whole stream (warm-up, data and flush rows):
``abc`` a regular expression ``ab+c`` per key with the WITHIN filter (leftmost matches, resumed
past each); ``next_match`` per ``a`` row the first ``b`` after it and the first ``c`` after that,
both before its time + WITHIN (docs/semantics.md, "SKIP TILL NEXT MATCH": a run starts at every A,
ignores rows it cannot select, is closed by the first row at or past its window; every match is
reported); ``prev`` / ``next`` the greedy longest run of UP rows from each start, cut at the
first row not below start + WITHIN (WITHIN is checked row by row under strict contiguity,
docs/matcher.md), a match when long enough, the search resumed past it, else at the next row
(PREV of a key's first row and NEXT of its last are NULL: not UP). The record compares the
matches received with the oracle's (count, SHA-256 checksum, missing, unexpected, duplicates).
``--check-batch``: the worker first runs the same statement as a batch query (``sparkcep.sql``
over a batch DataFrame of every file of the run) and the record says whether it equals the oracle
(``batch_equal_oracle``): the smoke check of the oracles.

Event time runs at the speed of the wall clock: the events of event-time slice j (``--slice``
seconds) are written to one CSV file beforehand and moved (an atomic rename) into the folder the
query watches at wall time ``start + (j+1) * slice``, the moment that slice of event time is over.
After the last slice a flush file moves the watermark past everything: three rows per key, ``ev
= 'x'``, price -10^9 (not UP, and no row before them is), the first far past every window, each
further one more than WITHIN + delay after the one before, so that the rows NEXT needs (the
successor of each row that decides a match) are there and the watermark passes them.

Each engine runs as a child process (``--worker spark`` below, or ``peer_flink_stream.py`` in
bench/.venv-flink): it appends every match it receives to a file with the wall time it got it
(``time.time()``; the sink: sparkcep's ``foreachBatch`` after ``collect``; for Flink its
``print`` connector with ``CURRENT_ROW_TIMESTAMP()`` per row, or the ``collect()`` iterator). This
process feeds the files, samples the CPU time of the child's whole process tree (JVM, Python
workers) from /proc, and afterwards computes, per match the oracle has:

* latency = receipt time - publication time of the file holding the match's last row;
* net latency = receipt time - publication time of the file holding the first row (any key) at or
  after the match's *decision time* + delay: the earliest moment any engine can know that the
  watermark has passed every row that decides the match. The decision time is the smallest event
  time T such that the rows up to T decide the match (its existence and its extent):
  - ``abc``, ``next_match``: the match's last row (a C ends the match; the run reports there);
  - ``prev``: a greedy ``UP{3,}`` ends at the first row that is not UP, so the row after the
    match's last row (its price decides), or, when that row is past the window, the window's end
    (first row's time + WITHIN - 1 ms: every row that could extend the match is known);
  - ``next``: a row's DEFINE needs its successor, so the match ends when the row after its last
    row is known not to be UP, which takes *that* row's successor: two rows after the match's
    last row; when the row after the last is past the window, that row itself (the last UP row
    needs its price). sparkcep's NEXT operator also holds a row until its successor has passed
    the watermark (docs/streaming.md, "NEXT"), which is this same moment.
  The difference between latency and net latency is the watermark delay's share (plus, for
  ``prev`` and ``next``, the wait for the deciding rows). ``net_min_all`` (the least net latency
  of the run) is a check of this attribution: a negative one would be a match received before
  the rows that decide it could have been known.

Before the timed feed a warm-up file is moved in (per key, 20 s before the data, a few rows that
make one match of the shape: ``a b c`` or prices rising then falling, and a row 15 s before the
data that moves the watermark past them), and the feed starts once every key's warm-up match has
arrived: the job is deployed, the Python workers run, the first micro-batch's planning is done.
The latency figures are over the steady state: the matches whose last row was published after the
first third of the feed. A run *keeps up* when every expected match arrived before the drain limit
(``drained``) and the net latency does not grow: its 95th percentile over the matches closed in
the last third of the feed is at most 1.5 times the middle third's plus max(1 s, trigger).

The micro-batch profile of a sparkcep run (``profile`` in the result file; not printed): over the
micro-batches that started during the timed feed, how many there were (and how many read rows),
the p50 of each ``durationMs`` component (addBatch, getBatch, latestOffset, queryPlanning,
walCommit, commitOffsets, triggerExecution) and, per stateful operator in plan order, the p50 of
its numeric metrics (``commitTimeMs``, ``allUpdatesTimeMs``, ``allRemovalsTimeMs``, rows, memory)
and of its timing and timer custom metrics (RocksDB commit latencies, ``timerProcessingTimeMs``,
registered/expired/deleted timers). ``feed_batch_s_p50``: the p50 of triggerExecution over the
same micro-batches (``batch_s_p50`` is over every micro-batch of the run, warm-up included).
``cpu_by_command_s``: the CPU seconds after start-up per command (``java``: the JVM; ``python``:
Spark's Python workers; ``driver``: the worker process).

The JVM's options (``java_options`` in the record): by default those the checkout measured sets
for a session that runs streams (``sparkcep.clients.session.STREAM_JAVA_OPTIONS``, none before
it existed), else ``--java-options`` ('' for the JVM's defaults); and the Hadoop settings it sets
for streams (``STREAM_HADOOP_SETTINGS``, ``hadoop_settings`` in the record). ``--background-load N`` runs N
busy processes beside every run (the record's ``background_load``): the "under load" figures.

``--baseline-src DIR``: another checkout of this repository (e.g. ``git worktree add --detach
../sparkcep-base <commit>``). Every sparkcep run is then made twice, with the current checkout and with
DIR, one after the other on the same data (the order alternating from run to run): the worker
process and Spark's Python workers import sparkcep from the checkout measured (first on
PYTHONPATH; the worker runs in the run's own folder, so no checkout shadows it). Each record says
``source`` (current / baseline), ``src_commit`` (``git rev-parse --short HEAD`` of the checkout,
``-dirty`` when its sparkcep/ has uncommitted changes) and ``src_imported`` (the driver and a
Python worker both imported sparkcep from it); ``commit`` is the benchmark's own.

    .venv/bin/python bench/streaming_latency.py --engines spark,flink --triggers 0.5,2,10 \\
        --rates 1000,4000,16000 --seconds 40
    .venv/bin/python bench/streaming_latency.py --engines spark --shapes next_match,prev,next \\
        --keys 32 --rates 2000,27000 --triggers 0.5 --seconds 40 --baseline-src ../sparkcep-base
    .venv/bin/python bench/streaming_latency.py --engines spark --shapes prev --keys 32 \\
        --rates 500 --triggers 0.5 --seconds 10 --check-batch --output bench/results/smoke.jsonl
    .venv/bin/python bench/streaming_latency.py --engines spark --backlog --events 10000000 \\
        --per-file 200000 --rates 10000 --output bench/results/streaming_10m.jsonl

Flink (bench/.venv-flink, bench/setup_peers.sh) runs ``abc`` only (Flink SQL has no SKIP TILL
NEXT MATCH and no NEXT in DEFINE); the other shapes, and Flink altogether when it is not
installed, are skipped with a line on stderr.

``--backlog``: every file is in the folder before the query starts and Spark reads one per
micro-batch as fast as it can, without a trigger (one run per rate, whatever ``--triggers``
says; the state-size run: each micro-batch's ``stateOperators`` are kept in the result, and the
profile is over every micro-batch).

``--late-rows``: sparkcep routes late rows to a folder (``sparkcep.start_stream(...,
late_rows=...)``, docs/streaming.md "Routing late rows") instead of dropping them: the cost of
carrying each row whole to the operator and of the writer's per-micro-batch split. Every file's
rows are in time order, so no row is late; the matches must still equal the oracle.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

HERE = Path(__file__).resolve().parent
BASE_MS = 1_767_225_600_000  # 2026-01-01 00:00:00 UTC
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
FLUSH_PRICE = -1e9  # the flush rows' price: below every price, so no UP row precedes or is one

# -- the shapes: statement, WITHIN, columns, warm-up rows ----------------------------------------

#: per shape: the pattern part of the statement (``{within}`` filled in), its MEASURES (the
#: output is always k, s = start ms, e = end ms, x = a shape-specific integer), WITHIN in seconds
#: (None: --within), whether the rows carry a price, and the warm-up rows of each key
#: (milliseconds before the data, ev, price)
SHAPES = {
    "abc": dict(
        measures="FIRST(A.ts) AS s_ts, LAST(C.ts) AS e_ts, COUNT(B.ts) AS x",
        clause="ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW\n  PATTERN (A B+ C) WITHIN "
               "INTERVAL '{within}' SECOND\n  DEFINE A AS A.ev = 'a', B AS B.ev = 'b', C AS C.ev = 'c'",
        x="x", within=None, price=False,
        warm=[(20_000, "a", 0), (19_999, "b", 0), (19_998, "c", 0), (15_000, "x", 0)]),
    "next_match": dict(
        measures="A.ts AS s_ts, C.ts AS e_ts, B.ts AS b_ts",
        clause="ONE ROW PER MATCH\n  SKIP TILL NEXT MATCH\n  PATTERN (A B C) WITHIN INTERVAL "
               "'{within}' SECOND\n  DEFINE A AS A.ev = 'a', B AS B.ev = 'b', C AS C.ev = 'c'",
        x="unix_millis(b_ts)", within=5, price=False,
        warm=[(20_000, "a", 0), (19_999, "b", 0), (19_998, "c", 0), (15_000, "x", 0)]),
    "prev": dict(
        measures="FIRST(UP.ts) AS s_ts, LAST(UP.ts) AS e_ts, COUNT(*) AS x",
        clause="ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW\n  PATTERN (UP{{3,}}) WITHIN "
               "INTERVAL '{within}' SECOND\n  DEFINE UP AS UP.price > PREV(UP.price)",
        x="x", within=10, price=True,
        warm=[(20_000, "x", 10), (19_999, "x", 11), (19_998, "x", 12), (19_997, "x", 13),
              (19_996, "x", 0), (15_000, "x", 0)]),
    "next": dict(
        measures="FIRST(UP.ts) AS s_ts, LAST(UP.ts) AS e_ts, COUNT(*) AS x",
        clause="ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW\n  PATTERN (UP{{2,}}) WITHIN "
               "INTERVAL '{within}' SECOND\n  DEFINE UP AS UP.price < NEXT(UP.price)",
        x="x", within=10, price=True,
        warm=[(20_000, "x", 10), (19_999, "x", 11), (19_998, "x", 12), (19_997, "x", 0),
              (15_000, "x", 0)]),
}
FLINK_SHAPES = {"abc"}  # Flink SQL has no SKIP TILL NEXT MATCH and no NEXT; the peer runs A B+ C


def shape_within(shape: str, args) -> int:
    return SHAPES[shape]["within"] or args.within


def schema(shape: str) -> str:
    return "k INT, ts TIMESTAMP, ev STRING" + (", price DOUBLE" if SHAPES[shape]["price"] else "")


def statement(shape: str, within: int, view: str = "events") -> str:
    """The sparkcep statement over the view ``view`` (over a stream: the watermark set on it)."""
    spec = SHAPES[shape]
    clause = spec["clause"].format(within=within)
    return f"""
SELECT k, unix_millis(s_ts) AS s, unix_millis(e_ts) AS e, {spec['x']} AS x FROM {view}
MATCH_RECOGNIZE (
  PARTITION BY k ORDER BY ts
  MEASURES {spec['measures']}
  {clause}
) AS m"""


# -- the data and the oracles --------------------------------------------------------------------


def events(n: int, rate: int, keys: int, seed: int):
    """Event i: ts = BASE + i/rate seconds (ms), key i mod keys, ev by the fixed probabilities
    (a 0.3, b 0.5, c 0.2), price a random walk per key from 1000 in integer steps -1 (0.45), 0
    (0.1), +1 (0.45) (its own random stream: ev is the same with or without it)."""
    i = np.arange(n, dtype=np.int64)
    ts = BASE_MS + (i * 1000) // rate
    rng = np.random.default_rng(seed)
    ev = rng.choice(np.array(["a", "b", "c"]), size=n, p=[0.3, 0.5, 0.2])
    steps = np.random.default_rng([seed, 1]).choice(np.array([-1, 0, 1]), size=n,
                                                    p=[0.45, 0.1, 0.45])
    rows = -(-n // keys) * keys  # whole rounds of the keys: row i is at (i // keys, i % keys)
    walk = np.concatenate([steps, np.zeros(rows - n, dtype=steps.dtype)]).reshape(-1, keys)
    price = (1000 + np.cumsum(walk, axis=0)).reshape(-1)[:n].astype(np.float64)
    return (i % keys).astype(np.int32), ts, ev, price


def oracle_abc(ts, ev, price, within_ms):
    """Strict contiguity, SKIP PAST LAST ROW, leftmost ``a b+ c`` (the variables are exclusive,
    so B+ is forced); a span (last ts - first ts) not below WITHIN rules that start out, and the
    next start is a later row, which cannot be inside ``b+ c``. Per match: (first, last, x = the
    number of B, decision time = the C's time: C cannot grow)."""
    out = []
    for found in re.finditer("ab+c", "".join(ev)):
        first, last = found.start(), found.end() - 1
        if ts[last] - ts[first] < within_ms:
            out.append((first, last, last - first - 1, ts[last]))
    return out


def oracle_next_match(ts, ev, price, within_ms):
    """SKIP TILL NEXT MATCH ``A B C`` (docs/semantics.md: a run starts at every row that qualifies
    for A; a row that is not selectable is ignored; a row at or past first + WITHIN closes the
    run; every match is reported, no AFTER MATCH SKIP): each ``a`` takes the first ``b`` after it
    and then the first ``c`` after that ``b``, if both are before its time + WITHIN. Per match:
    (first, last, x = the B's time, decision time = the C's time: the run ends there)."""
    n = len(ev)
    next_b, next_c = np.full(n + 1, n), np.full(n + 1, n)  # first b / c at or after i
    for i in range(n - 1, -1, -1):
        next_b[i] = i if ev[i] == "b" else next_b[i + 1]
        next_c[i] = i if ev[i] == "c" else next_c[i + 1]
    out = []
    for i in np.flatnonzero(np.asarray(ev) == "a"):
        b = next_b[i + 1]
        if b == n or ts[b] - ts[i] >= within_ms:
            continue
        c = next_c[b + 1]
        if c == n or ts[c] - ts[i] >= within_ms:
            continue
        out.append((int(i), int(c), int(ts[b]), ts[c]))
    return out


def _runs(up, ts, within_ms, minimum):
    """Strict contiguity, SKIP PAST LAST ROW, ``UP{minimum,}`` greedy, WITHIN: from row i, the
    longest run of UP rows whose times are below ts[i] + WITHIN (WITHIN is checked row by row,
    so a greedy run stops at the window); at least ``minimum`` rows is a match and the search
    resumes after it, otherwise at i + 1. Yields (i, j): the match is rows i .. j - 1, j the first
    row that is not UP or outside the window (j = n: the end)."""
    n, i = len(up), 0
    while i < n:
        j = i
        while j < n and up[j] and ts[j] - ts[i] < within_ms:
            j += 1
        if j - i >= minimum:
            yield i, j
            i = j
        else:
            i += 1


def oracle_prev(ts, ev, price, within_ms):
    """``UP{3,}``, ``UP AS UP.price > PREV(UP.price)`` (the first row: PREV is NULL, not UP).
    Decision time: the greedy run ends at row j, known when row j is (its price decides UP), or
    when the window is over (every row before ts[i] + WITHIN known: ts[i] + WITHIN - 1 ms)."""
    n = len(price)
    up = [False] + [price[r] > price[r - 1] for r in range(1, n)]
    out = []
    for i, j in _runs(up, ts, within_ms, 3):
        if j == n:
            decide = None  # the end of the partition: never, over a stream
        elif ts[j] - ts[i] < within_ms:
            decide = ts[j]
        else:
            decide = ts[i] + within_ms - 1
        out.append((i, j - 1, j - i, decide))
    return out


def oracle_next(ts, ev, price, within_ms):
    """``UP{2,}``, ``UP AS UP.price < NEXT(UP.price)`` (the last row: NEXT is NULL, not UP).
    A row's DEFINE needs its successor, so the decision time is one row later than for PREV:
    the run ends at row j (not UP, or outside the window); if j is inside the window its UP needs
    row j + 1, so the match is decided when row j + 1 is known; if j is outside the window, when
    row j is known (the last UP row, j - 1, needs row j's price)."""
    n = len(price)
    up = [price[r] < price[r + 1] for r in range(n - 1)] + [False]
    out = []
    for i, j in _runs(up, ts, within_ms, 2):
        if j == n:
            decide = None
        elif ts[j] - ts[i] < within_ms:
            decide = ts[j + 1] if j + 1 < n else None
        else:
            decide = ts[j]
        out.append((i, j - 1, j - i, decide))
    return out


ORACLES = {"abc": oracle_abc, "next_match": oracle_next_match, "prev": oracle_prev,
           "next": oracle_next}


def oracle(shape: str, key, ts, ev, price, keys: int, within_ms: int) -> dict[tuple, tuple]:
    """The shape's answer over the whole stream (warm-up, data and flush rows, in time order),
    per key: {(k, start ms, end ms, x): (index of the match's last row, decision time ms or
    None)}, the indexes into the stream's arrays."""
    out = {}
    for k in range(keys):
        rows = np.flatnonzero(key == k)
        times = ts[rows].tolist()
        found = ORACLES[shape](times, ev[rows].tolist(), price[rows].tolist(), within_ms)
        for first, last, x, decide in found:
            out[(k, int(times[first]), int(times[last]), int(x))] = (
                int(rows[last]), None if decide is None else int(decide))
    return out


def checksum(matches) -> str:
    text = "\n".join(",".join(map(str, m)) for m in sorted(matches))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def write_csv(path: Path, key, ts, ev, price=None) -> None:
    stamps = np.array(ts, dtype="datetime64[ms]").astype(str)
    stamps = np.char.replace(stamps.astype("U23"), "T", " ")
    columns = {"k": pa.array(key, pa.int32()), "ts": pa.array(stamps), "ev": pa.array(ev)}
    if price is not None:
        columns["price"] = pa.array(np.asarray(price, dtype=np.float64))
    pacsv.write_csv(pa.table(columns), path,
                    pacsv.WriteOptions(include_header=False, quoting_style="none"))


PRINTED = re.compile(r"\+I\[(.*)\]")


def stamp(text: str) -> int:
    """Milliseconds after the epoch of a printed TIMESTAMP(3) (UTC, ISO form)."""
    return round(datetime.fromisoformat(text.strip()).replace(tzinfo=timezone.utc).timestamp() * 1000)


def count_matches(path: Path) -> int:
    if not path.exists():
        return 0
    with open(path) as handle:
        return sum(1 for line in handle if line.startswith("[") or "+I[" in line)


def received_matches(path: Path) -> list[tuple]:
    """(receipt time, k, start ms, end ms, x) per line of a worker's matches file (x: the shape's
    integer measure, the count of B for ``abc``): JSON lines, or the lines of Flink's print sink
    (its last column is the time it printed the row)."""
    rows = []
    if not path.exists():
        return rows
    for line in open(path):
        if line.startswith("["):
            rows.append(tuple(json.loads(line)))
            continue
        found = PRINTED.search(line)
        if found:
            k, start, end, bs, printed = found.group(1).split(",")
            rows.append((stamp(printed) / 1000, int(k), stamp(start), stamp(end), int(bs)))
    return rows


# -- CPU time of a process tree ------------------------------------------------------------------


def process_tree(root: int) -> dict[int, tuple[str, float]]:
    """Per process of the tree under ``root`` (``root`` included): its command name and CPU
    seconds (user + system) so far, from /proc."""
    parents, info = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                text = handle.read()
        except OSError:
            continue
        fields = text.rsplit(")", 1)[1].split()
        parents[int(entry)] = int(fields[1])
        info[int(entry)] = (text[text.index("(") + 1:text.rindex(")")],
                            (int(fields[11]) + int(fields[12])) / CLOCK_TICKS)
    tree, grew = {root}, True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in tree and pid not in tree:
                tree.add(pid)
                grew = True
    return {pid: info[pid] for pid in tree if pid in info}


class TreeCpu:
    """CPU seconds (user + system) of a process and all its descendants, sampled from /proc; a
    process's last sample counts after it exits (Spark's Python workers live for the run)."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.seen: dict[int, float] = {}
        self.names: dict[int, str] = {}

    def sample(self) -> None:
        times = process_tree(self.root)
        for pid, (name, seconds) in times.items():
            self.seen[pid] = max(self.seen.get(pid, 0.0), seconds)
            self.names[pid] = name

    @property
    def seconds(self) -> float:
        return sum(self.seen.values())

    def by_command(self) -> dict[str, float]:
        """CPU seconds per command name (``java``: the JVM, ``python...``: Spark's Python
        workers), the root process (the Python driver) as ``driver``."""
        out: dict[str, float] = {}
        for pid, seconds in self.seen.items():
            name = "driver" if pid == self.root else self.names[pid]
            out[name] = out.get(name, 0.0) + seconds
        return out


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    with open("/proc/stat") as handle:
        values = [int(v) for v in handle.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


# -- one run -------------------------------------------------------------------------------------


def source_commit(src: Path) -> str:
    """The short commit of the checkout ``src``, with ``-dirty`` when its sparkcep/ differs."""
    commit = subprocess.run(["git", "-C", str(src), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(src), "status", "--porcelain", "--untracked-files=no",
                            "--", "sparkcep"], capture_output=True, text=True).stdout.strip()
    return commit + ("-dirty" if dirty else "")


def pct(values, q):
    values = np.asarray(values, dtype=np.float64)
    values = values[~np.isnan(values)]
    return round(float(np.percentile(values, q)), 3) if len(values) else None


def progress_time(progress: dict) -> float:
    """Wall time (s) at which a micro-batch started (its progress's ``timestamp``)."""
    text = progress.get("timestamp")
    if not text:
        return progress.get("wall", 0.0)
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


#: the custom metrics of a stateful operator the profile keeps: timings and timer counts
CUSTOM_METRIC = re.compile(r"(Ms|Latency)$|Timers$|^rocksdb(Put|Get)Count$")


def batch_profile(progress: list[dict]) -> dict:
    """p50 over the micro-batches of each ``durationMs`` component and of each stateful
    operator's timing and size metrics (top level and ``customMetrics``), per operator in plan
    order; plus how many micro-batches there were and how many read input rows."""
    def med(values):
        values = [v for v in values if isinstance(v, (int, float))]
        return round(float(np.median(values)), 1) if values else None

    components = sorted({key for p in progress for key in (p.get("durationMs") or {})})
    profile = {"batches": len(progress),
               "data_batches": sum(1 for p in progress if (p.get("numInputRows") or 0) > 0),
               "durationMs_p50": {key: med([(p.get("durationMs") or {}).get(key) for p in progress])
                                  for key in components},
               "stateOperators_p50": []}
    operators = max((len(p.get("stateOperators") or []) for p in progress), default=0)
    for index in range(operators):
        ops = [p["stateOperators"][index] for p in progress
               if len(p.get("stateOperators") or []) > index]
        fields = sorted({key for op in ops for key, value in op.items()
                         if isinstance(value, (int, float)) and not isinstance(value, bool)})
        custom = sorted({key for op in ops for key, value in (op.get("customMetrics") or {}).items()
                         if isinstance(value, (int, float)) and CUSTOM_METRIC.search(key)})
        profile["stateOperators_p50"].append({
            "operatorName": ops[0].get("operatorName"),
            **{key: med([op.get(key) for op in ops]) for key in fields},
            "customMetrics": {key: med([(op.get("customMetrics") or {}).get(key) for op in ops])
                              for key in custom}})
    return profile


def run_one(engine: str, args, shape: str, rate: int, trigger: float | None, seed: int,
            src: Path) -> dict:
    slice_ms = int(args.slice * 1000)
    within = shape_within(shape, args)
    delay_ms = args.delay * 1000
    n = args.events if args.backlog else rate * args.seconds
    keys = args.keys
    key, ts, ev, price = events(n, rate, keys, seed)
    end_ms = int(ts[-1]) + 1
    # the stream: the warm-up rows, the data, three flush rows per key (the first far past every
    # window, each further one past the watermark delay and WITHIN: the flush rows' successors
    # are there too, for NEXT, and the watermark passes the first two; the last waits forever)
    gap_ms = (max(shape_within(s, args) for s in SHAPES) + args.delay + 1) * 1000
    flush_at = [end_ms + gap_ms + 4000 + m * gap_ms for m in range(3)]
    warm_spec = SHAPES[shape]["warm"]
    flush_keys = np.arange(keys, dtype=np.int32)
    warm_key = np.tile(flush_keys, len(warm_spec))
    warm_ts = np.repeat(np.array([BASE_MS - before for before, _, _ in warm_spec], dtype=np.int64),
                        keys)
    warm_ev = np.repeat(np.array([e for _, e, _ in warm_spec]), keys)
    warm_price = np.repeat(np.array([p for _, _, p in warm_spec], dtype=np.float64), keys)
    order = np.argsort(warm_ts, kind="stable")  # warm-up rows in time order
    warm_key, warm_ts = warm_key[order], warm_ts[order]
    warm_ev, warm_price = warm_ev[order], warm_price[order]
    w = len(warm_ts)
    all_key = np.concatenate([warm_key, key, np.tile(flush_keys, 3)])
    all_ts = np.concatenate([warm_ts, ts, np.repeat(np.array(flush_at, dtype=np.int64), keys)])
    all_ev = np.concatenate([warm_ev, ev, np.full(3 * keys, "x")])
    all_price = np.concatenate([warm_price, price, np.full(3 * keys, FLUSH_PRICE)])
    answer = oracle(shape, all_key, all_ts, all_ev, all_price, keys, within * 1000)
    warm = {m: v for m, v in answer.items() if m[1] < BASE_MS}
    want = {m: v for m, v in answer.items() if m[1] >= BASE_MS}

    work = Path(tempfile.mkdtemp(prefix=f"sparkcep-stream-{engine}-"))
    staged, watch, control = work / "staged", work / "watch", work / "control"
    for folder in (staged, watch, control):
        folder.mkdir()
    priced = SHAPES[shape]["price"]

    def write(name, lo, hi):
        write_csv(staged / name, all_key[lo:hi], all_ts[lo:hi], all_ev[lo:hi],
                  all_price[lo:hi] if priced else None)

    # the files, written before the run: event-time slices (or fixed-size files for a backlog),
    # as (name, first row, end row) over the stream's arrays; files[0] the warm-up, files[-1] the
    # flush
    if args.backlog:
        bounds = [w + b for b in list(range(0, n, args.per_file)) + [n]]
    else:
        cuts = np.searchsorted(ts, BASE_MS + np.arange(0, end_ms - BASE_MS + slice_ms, slice_ms))
        bounds = sorted(set((w + cuts).tolist()) | {w + n})
    files = [("part-warm.csv", 0, w)]
    for j, (lo, hi) in enumerate(zip(bounds, bounds[1:])):
        if hi > lo:
            files.append((f"part-{j:06d}.csv", lo, hi))
    files.append(("part-flush.csv", w + n, len(all_ts)))
    for name, lo, hi in files:
        write(name, lo, hi)
    if args.backlog:  # the warm-up rows too: the data's first rows are their successors (PREV)
        for name, _, _ in files[:-1]:
            os.rename(staged / name, watch / name)

    out_file = control / "matches.jsonl"
    progress_file = control / "progress.jsonl"
    batch_file = control / "batch.jsonl"
    info_file = control / "info.json"
    config = {"watch": str(watch), "out": str(out_file), "progress": str(progress_file),
              "stop": str(control / "stop"), "checkpoint": str(work / "checkpoint"),
              "delay": args.delay, "within": within, "trigger": trigger,
              "backlog": args.backlog, "parallelism": args.parallelism,
              "monitor_ms": args.monitor_ms, "partitions": args.partitions,
              "java_options": args.java_options, "sink": args.flink_sink, "conf": args.conf,
              "late_rows": str(work / "late") if args.late_rows else None,
              "shape": shape, "schema": schema(shape), "statement": statement(shape, within),
              "src": str(src), "info": str(info_file),
              "batch": ({"files": [str(staged / name) for name, _, _ in files],
                         "statement": statement(shape, within, "events_batch"), "out": str(batch_file)}
                        if args.check_batch and engine == "spark" else None)}
    log = open(control / "worker.log", "w")
    env = None
    if engine == "spark":
        command = [sys.executable, str(Path(__file__).resolve()), "--worker", "spark", json.dumps(config)]
        # the worker (driver) and Spark's Python workers import sparkcep from src
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(src)] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else [])))
    else:
        command = [args.flink_python, str(HERE / "peer_flink_stream.py"), json.dumps(config)]
    launched = time.time()
    # the working directory is the run's own: Spark's Python workers (``python -m pyspark.daemon``)
    # have it first on sys.path, so a checkout there would shadow src
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True, env=env,
                             cwd=control)
    cpu = TreeCpu(child.pid)
    published = np.zeros(len(files))
    try:
        ready = child.stdout.readline().strip()
        ready_at = time.time()
        if ready != "READY":
            child.wait(timeout=60)
            raise RuntimeError(f"{engine} worker did not start: {ready!r}; see {control / 'worker.log'}")
        if not args.backlog:
            os.rename(staged / "part-warm.csv", watch / "part-warm.csv")
            published[0] = time.time()
            warm_limit = time.time() + 300
            while time.time() < warm_limit and child.poll() is None:
                cpu.sample()
                if count_matches(out_file) >= len(warm):
                    break
                time.sleep(0.25)
        warmed = time.time()
        cpu.sample()
        cpu_at_ready = cpu.seconds
        cpu_by_command_at_ready = cpu.by_command()
        busy0 = machine_busy()
        load0 = os.getloadavg()[0]

        started = time.time()
        if args.backlog:
            published[:-1] = started
            os.rename(staged / "part-flush.csv", watch / "part-flush.csv")  # read last (newest file)
            published[-1] = time.time()
        else:
            sampled = started
            for j, (name, _, _) in enumerate(files[1:], start=1):
                due = started + j * args.slice
                while True:
                    now = time.time()
                    if now >= due:
                        break
                    if now - sampled > 0.5:
                        cpu.sample()
                        sampled = now
                    time.sleep(min(0.05, due - now))
                os.rename(staged / name, watch / name)
                published[j] = time.time()
        feed_end = time.time()

        # wait for the expected matches (or the drain limit)
        limit = feed_end + args.drain
        while time.time() < limit and child.poll() is None:
            cpu.sample()
            if count_matches(out_file) >= len(want) + len(warm):
                break
            time.sleep(0.5)
        done = time.time()
        drained = count_matches(out_file) >= len(want) + len(warm)
        cpu.sample()
        busy1 = machine_busy()
    finally:  # the worker stops (its JVM with it) whatever happened here
        (control / "stop").touch()
        try:
            child.wait(timeout=120)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
    log.close()

    # analysis
    got_rows = received_matches(out_file)
    first_seen: dict[tuple, float] = {}
    for t, k, s, e, x in got_rows:
        first_seen.setdefault((int(k), int(s), int(e), int(x)), t)
    got = sorted(set(first_seen) - set(warm))
    file_of = np.zeros(len(all_ts), dtype=np.int64)
    for j, (_, lo, hi) in enumerate(files):
        file_of[lo:hi] = j
    # per match received that the oracle has: the file of its last row, and the file of the first
    # row (any key) at or after its decision time + the delay: the earliest moment any engine can
    # know that the watermark has passed every row that decides the match
    known = [m for m in got if m in want]
    receipt = np.array([first_seen[m] for m in known])
    last_row = np.array([want[m][0] for m in known], dtype=np.int64)
    decide = np.array([np.nan if want[m][1] is None else want[m][1] for m in known],
                      dtype=np.float64)
    passing = np.searchsorted(all_ts, np.nan_to_num(decide, nan=np.inf) + delay_ms, side="left")
    passing_ok = passing < len(all_ts)
    closing = published[file_of[last_row]] if len(known) else np.zeros(0)
    latency = receipt - closing if len(known) else np.zeros(0)
    passing_file = file_of[np.minimum(passing, len(all_ts) - 1)]
    net = (np.where(passing_ok, receipt - published[passing_file], np.nan) if len(known)
           else np.zeros(0))
    # steady state: the matches closed after the first third of the feed
    steady = closing >= started + (feed_end - started) / 3 if not args.backlog else closing >= 0

    thirds = None
    keeps_up = len(got) >= len(want)
    if len(net) and not args.backlog:
        span = feed_end - started
        middle = net[(closing >= started + span / 3) & (closing < started + 2 * span / 3)]
        last = net[closing >= started + 2 * span / 3]
        thirds = [pct(middle, 95), pct(last, 95)]
        if thirds[0] is not None and thirds[1] is not None:
            keeps_up = keeps_up and thirds[1] <= 1.5 * thirds[0] + max(1.0, trigger or 0.0)
    progress = [json.loads(line) for line in open(progress_file)] if progress_file.exists() else []
    busy = (busy1[0] - busy0[0]) / max(1, busy1[1] - busy0[1]) * os.cpu_count()
    record = {
        "engine": engine, "shape": shape,
        "sink": "foreachBatch" if engine == "spark" else args.flink_sink,
        "late_rows": bool(args.late_rows) if engine == "spark" else False,
        "parallelism": 2 if engine == "spark" else args.parallelism,
        "trigger_s": trigger, "partitions": args.partitions,
        "rate": rate, "events": n, "keys": keys,
        "delay_s": args.delay, "within_s": within, "slice_s": args.slice, "backlog": args.backlog,
        "files": len(files) - 1, "expected": len(want), "matches": len(got),
        "drained": drained, "duplicates": len(got_rows) - len(first_seen),
        "missing": len(set(want) - set(got)), "unexpected": len(set(got) - set(want)),
        "checksum": checksum(got), "expected_checksum": checksum(want), "equal": got == sorted(want),
        "keeps_up": bool(keeps_up), "p95_net_thirds": thirds,
        "latency_p50": pct(latency[steady], 50), "latency_p95": pct(latency[steady], 95),
        "latency_max": pct(latency[steady], 100), "net_p50": pct(net[steady], 50),
        "net_p95": pct(net[steady], 95), "net_max": pct(net[steady], 100),
        "net_p95_all": pct(net, 95), "net_min_all": pct(net, 0), "warmup_s": round(warmed - ready_at, 1),
        "feed_s": round(feed_end - started, 2), "wall_s": round(done - started, 2),
        "drain_s": round(done - feed_end, 2), "startup_s": round(ready_at - launched, 2),
        "cpu_s": round(cpu.seconds - cpu_at_ready, 1), "cpu_startup_s": round(cpu_at_ready, 1),
        # after start-up, per command (the JVM, the Python driver and workers)
        "cpu_by_command_s": {name: round(seconds - cpu_by_command_at_ready.get(name, 0.0), 1)
                             for name, seconds in cpu.by_command().items()},
        "machine_busy_cores": round(busy, 2), "load1_start": round(load0, 2),
        "load1_end": round(os.getloadavg()[0], 2), "batches": len(progress),
    }
    if engine == "spark":
        info = json.loads(info_file.read_text()) if info_file.exists() else {}
        package = str(src.resolve() / "sparkcep")
        record["src_commit"] = source_commit(src)
        record["java_options"] = info.get("java_options")
        record["hadoop_settings"] = info.get("hadoop_settings", {})
        record["conf"] = args.conf
        record["src_imported"] = bool(info) and all(
            str(Path(info.get(where) or "/").resolve()).startswith(package)
            for where in ("driver", "executor"))
        if args.check_batch:
            batch = ([tuple(json.loads(line)) for line in open(batch_file)]
                     if batch_file.exists() else None)
            record["batch_equal_oracle"] = (batch is not None and len(batch) == len(answer)
                                            and sorted(set(batch)) == sorted(answer))
            record["batch_matches"] = None if batch is None else len(batch)
    if engine == "spark" and progress:
        durations = [p["durationMs"].get("triggerExecution", 0) / 1000 for p in progress]
        record["batch_s_p50"] = round(float(np.median(durations)), 2)
        record["batch_s_max"] = round(max(durations), 2)
        # the micro-batches that started during the timed feed (a backlog: all of them)
        feed = progress if args.backlog else [
            p for p in progress if started <= progress_time(p) <= feed_end]
        feed_s = [p["durationMs"].get("triggerExecution", 0) / 1000 for p in feed]
        record["feed_batch_s_p50"] = round(float(np.median(feed_s)), 2) if feed else None
        record["profile"] = batch_profile(feed)
        if args.backlog:
            record["progress"] = [slim(p) for p in progress]
    if record["equal"] and record.get("batch_equal_oracle", True) \
            and record.get("src_imported", True):
        shutil.rmtree(work, ignore_errors=True)
    else:
        # the worker's log and matches, to look at (named on stderr only: a result file holds no
        # path of the machine it ran on)
        print(f"{engine} {shape}: matches differ from the oracle (or the batch answer, or sparkcep "
              f"was not imported from {src}); kept {work}", file=sys.stderr)
    return record


def slim(progress: dict) -> dict:
    """The parts of a query progress the state plot needs."""
    return {
        "batchId": progress["batchId"], "wall": progress.get("wall"),
        "numInputRows": progress.get("numInputRows"),
        "durationMs": progress.get("durationMs", {}).get("triggerExecution"),
        "watermark": (progress.get("eventTime") or {}).get("watermark"),
        "stateOperators": [
            {key: op.get(key) for key in ("operatorName", "numRowsTotal", "numRowsUpdated",
                                          "memoryUsedBytes", "numRowsDroppedByWatermark",
                                          "customMetrics")}
            for op in progress.get("stateOperators") or []],
    }


# -- the sparkcep worker (a child process) -------------------------------------------------------


def spark_worker(config: dict) -> None:
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, config["src"])  # the checkout measured (PYTHONPATH too, for Spark's workers)
    import sparkcep
    from sparkcep.clients.session import local_session

    settings = {"spark_driver_memory": "4g", "spark_executor_pyspark_memory": "2g",
                "spark_sql_shuffle_partitions": str(config["partitions"]),
                "spark_sql_execution_arrow_maxRecordsPerBatch": "10000",
                "spark_sql_session_timeZone": "UTC"}
    java = config["java_options"]
    if java is None:  # sparkcep's choice for streams, in the checkout measured
        try:
            from sparkcep.clients.session import STREAM_JAVA_OPTIONS as java
        except ImportError:  # a checkout before it: the JVM's defaults
            java = ""
    settings["spark_driver_extraJavaOptions"] = java
    settings["spark_executor_extraJavaOptions"] = java
    try:  # the Hadoop settings sparkcep sets for streams, in the checkout measured
        from sparkcep.clients.session import STREAM_HADOOP_SETTINGS
    except ImportError:  # a checkout before them
        STREAM_HADOOP_SETTINGS = {}
    for key, value in STREAM_HADOOP_SETTINGS.items():
        settings[key.replace(".", "_")] = value
    for setting in config.get("conf") or []:  # --conf KEY=VALUE
        key, _, value = setting.partition("=")
        settings[key.replace(".", "_")] = value
    spark = local_session("local[2]", "sparkcep-bench", **settings)
    out = open(config["out"], "a")
    progress_out = open(config["progress"], "a")
    try:
        # where sparkcep was imported from, in this process and in a Python worker
        executor = spark.sparkContext.parallelize([0], 1).map(
            lambda _: __import__("sparkcep").__file__).collect()[0]
        with open(config["info"], "w") as handle:
            json.dump({"driver": sparkcep.__file__, "executor": executor, "java_options": java,
                       "hadoop_settings": STREAM_HADOOP_SETTINGS}, handle)
        if config.get("batch"):  # the batch query over every file of the run (for the smoke check)
            (spark.read.schema(config["schema"])
             .option("timestampFormat", "yyyy-MM-dd HH:mm:ss.SSS")
             .csv(config["batch"]["files"]).createOrReplaceTempView("events_batch"))
            with open(config["batch"]["out"], "w") as handle:
                for row in sparkcep.sql(spark, config["batch"]["statement"]).collect():
                    handle.write(json.dumps([row.k, row.s, row.e, row.x]) + "\n")
        reader = (spark.readStream.schema(config["schema"])
                  .option("timestampFormat", "yyyy-MM-dd HH:mm:ss.SSS"))
        if config["backlog"]:
            reader = reader.option("maxFilesPerTrigger", 1)
        (reader.csv(config["watch"]).withWatermark("ts", f"{config['delay']} seconds")
         .createOrReplaceTempView("events"))
        text = config["statement"]

        def received(rows) -> None:
            now = time.time()
            for row in rows:
                out.write(json.dumps([now, row.k, row.s, row.e, row.x]) + "\n")
            out.flush()

        def sink(batch, batch_id) -> None:
            try:
                rows = batch.collect()
            except Exception as error:  # Spark's own report of it can overflow its regex
                print(f"sink failed in batch {batch_id}: {str(error)[:3000]}", file=sys.stderr, flush=True)
                raise
            received(rows)

        trigger = f"{config['trigger']} seconds" if config["trigger"] else None
        if config.get("late_rows"):
            query = sparkcep.start_stream(spark, text, checkpoint=config["checkpoint"],
                                          late_rows=config["late_rows"], on_matches=received,
                                          processing_time=trigger)
        else:
            writer = sparkcep.sql(spark, text).writeStream.foreachBatch(sink) \
                .option("checkpointLocation", config["checkpoint"])
            if trigger:
                writer = writer.trigger(processingTime=trigger)
            query = writer.start()
        print("READY", flush=True)
        seen = -1
        while not os.path.exists(config["stop"]) and query.isActive:
            for progress in query.recentProgress:
                if progress["batchId"] > seen:
                    seen = progress["batchId"]
                    data = json.loads(progress.json) if hasattr(progress, "json") else dict(progress)
                    progress_out.write(json.dumps({**data, "wall": time.time()}) + "\n")
                    progress_out.flush()
            time.sleep(0.25)
        query.stop()
    finally:
        spark.stop()


# -- the command line ----------------------------------------------------------------------------


def main() -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # `timeout` stops the worker cleanly
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        spark_worker(json.loads(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engines", default="spark,flink")
    parser.add_argument("--triggers", default="0.5,2,10", help="sparkcep's processing-time triggers (s)")
    parser.add_argument("--rates", default="1000,4000,16000", help="events per second")
    parser.add_argument("--seconds", type=int, default=40, help="feed duration")
    parser.add_argument("--keys", type=int, default=64)
    parser.add_argument("--delay", type=int, default=2, help="watermark delay (s)")
    parser.add_argument("--within", type=int, default=10)
    parser.add_argument("--slice", type=float, default=0.5, help="event-time seconds per file")
    parser.add_argument("--drain", type=float, default=60, help="seconds to wait after the feed")
    parser.add_argument("--partitions", type=int, default=4, help="sparkcep shuffle partitions")
    parser.add_argument("--java-options", default=None,
                        help="the JVM's options for sparkcep (default: what the checkout measured "
                             "sets for streams, sparkcep.clients.session.STREAM_JAVA_OPTIONS, if "
                             "it has it; '' for the JVM's defaults); recorded")
    parser.add_argument("--parallelism", type=int, default=2, help="Flink parallelism")
    parser.add_argument("--monitor-ms", type=int, default=200, help="Flink's folder monitor interval")
    parser.add_argument("--flink-python", default=str(HERE / ".venv-flink" / "bin" / "python"))
    parser.add_argument("--flink-sink", default="print", choices=["print", "collect"])
    parser.add_argument("--backlog", action="store_true")
    parser.add_argument("--late-rows", action="store_true",
                        help="sparkcep routes late rows to a folder (sparkcep.start_stream)")
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--per-file", type=int, default=200_000)
    parser.add_argument("--stop-after-miss", action="store_true",
                        help="skip higher rates once a rate is not kept up")
    parser.add_argument("--shapes", default="abc", help=f"comma list of {', '.join(SHAPES)}")
    parser.add_argument("--conf", action="append", default=[],
                        help="a Spark setting KEY=VALUE for sparkcep's session (repeatable; "
                             "e.g. spark.sparkcep.streamExchange=pandas); recorded")
    parser.add_argument("--baseline-src", default=None,
                        help="another checkout of the repository (e.g. a git worktree of an older "
                             "commit): every sparkcep run is made with it too, alternating")
    parser.add_argument("--check-batch", action="store_true",
                        help="the worker also runs the batch query over the run's files first; "
                             "the record says whether it equals the oracle")
    parser.add_argument("--background-load", type=int, default=0,
                        help="busy processes (a Python loop each) running beside every run: 2 on "
                             "a 2-core machine is a load of about 4 with the stream")
    parser.add_argument("--output", default=str(HERE / "results" / "streaming_latency.jsonl"))
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=HERE).stdout.strip()
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    rates = [int(r) for r in args.rates.split(",")]
    shapes = args.shapes.split(",")
    unknown = [shape for shape in shapes if shape not in SHAPES]
    if unknown:
        parser.error(f"unknown shape(s) {unknown}: choose from {', '.join(SHAPES)}")
    # the rows of one key must have distinct event times (ORDER BY ts is then a total order and
    # the oracle's order is the engine's): consecutive rows of a key are keys / rate s apart
    crowded = [rate for rate in rates if rate > 1000 * args.keys]
    if crowded:
        parser.error(f"rates {crowded} exceed 1000 * keys = {1000 * args.keys}: the rows of a key "
                     "would share millisecond timestamps (ORDER BY ts ambiguous); use more keys")
    sources = [("current", HERE.parent)]
    if args.baseline_src:
        baseline = Path(args.baseline_src).resolve()
        if not (baseline / "sparkcep" / "__init__.py").exists():
            parser.error(f"--baseline-src {baseline}: no sparkcep package there")
        sources.append(("baseline", baseline))
    plan = []
    for shape in shapes:
        for engine in args.engines.split(","):
            if engine == "flink" and not Path(args.flink_python).exists():
                print(f"skipped: flink (no {args.flink_python}; bench/setup_peers.sh installs it)",
                      file=sys.stderr)
                continue
            if engine != "spark" and shape not in FLINK_SHAPES:
                print(f"skipped: {engine} cannot run the shape {shape} "
                      f"(only {sorted(FLINK_SHAPES)})", file=sys.stderr)
                continue
            triggers = ([float(t) for t in args.triggers.split(",")]
                        if engine == "spark" and not args.backlog else [None])
            plan += [(shape, engine, trigger) for trigger in triggers]
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(args.background_load)]
    try:
        run_plan(args, plan, rates, sources, commit)
    finally:
        for process in busy:
            process.kill()
            process.wait()


def run_plan(args, plan, rates, sources, commit) -> None:
    cell = 0
    for shape, engine, trigger in plan:
        for seed, rate in enumerate(rates):
            # sparkcep: each source in turn, the first one alternating from cell to cell
            runs = sources if engine == "spark" else sources[:1]
            if cell % 2:
                runs = runs[::-1]
            cell += 1
            missed = False
            for source, src in runs:
                record = run_one(engine, args, shape, rate, trigger, seed, src)
                record["commit"] = commit
                record["background_load"] = args.background_load
                if engine == "spark":
                    record["source"] = source
                summary = {k: v for k, v in record.items() if k not in ("progress", "profile")}
                print(json.dumps(summary), flush=True)
                with open(args.output, "a") as log:
                    log.write(json.dumps(record) + "\n")
                missed = missed or not record["keeps_up"]
            if args.stop_after_miss and missed:
                break


if __name__ == "__main__":
    main()
