"""Sustained throughput and match latency of a streaming MATCH_RECOGNIZE, sparkcep (Structured
Streaming) side by side with Flink SQL (streaming mode), fed the same files at the same rate.

The workload (docs/benchmarks.md, section 10): ``k`` partition keys, one event every ``1/rate``
seconds of event time (round robin over the keys), ``ev`` drawn from a (0.3), b (0.5), c (0.2);

    PARTITION BY k ORDER BY ts MEASURES FIRST(A.ts), LAST(C.ts), COUNT(B.ts)
    ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
    PATTERN (A B+ C) WITHIN INTERVAL '10' SECOND  DEFINE A AS ev='a', B AS ev='b', C AS ev='c'

with a watermark ``delay`` on ``ts`` (the pattern both engines support: Flink SQL has no SKIP TILL
NEXT MATCH). Event time runs at the speed of the wall clock: the events of event-time slice j
(``--slice`` seconds) are written to one CSV file beforehand and moved (an atomic rename) into the
folder the query watches at wall time ``start + (j+1) * slice``, the moment that slice of event
time is over. After the last slice a flush file (one row per key, ``ev='x'``, far in the future)
moves the watermark past everything, so every match is emitted.

Each engine runs as a child process (``--worker spark`` below, or ``peer_flink_stream.py`` in
bench/.venv-flink): it appends every match it receives to a file with the wall time it got it
(``time.time()``; the sink: sparkcep's ``foreachBatch`` after ``collect``; for Flink its
``print`` connector with ``CURRENT_ROW_TIMESTAMP()`` per row, or the ``collect()`` iterator). This process feeds the files, samples the CPU time of the child's whole process tree
(JVM, Python workers) from /proc, and afterwards reads the matches and computes, per match,

* latency = receipt time - publication time of the file holding its closing row (the C row),
* net latency = receipt time - publication time of the file holding the first row at or after
  the closing row's event time + delay (the earliest moment any engine can know that the
  watermark has passed the closing row); the difference is the watermark delay's share.

The matches are checked against an independent oracle (a regular expression ``ab+c`` per key
with the WITHIN filter; it shares no code with either engine): count and a SHA-256 checksum.
Before the timed feed a warm-up file (per key ``a b c`` 20 s before the data, an ``x`` 15 s
before it) is moved in, and the feed starts once every key's warm-up match has arrived: the job is
deployed, the Python workers run, the first micro-batch's planning is done. The latency figures
are over the steady state: the matches whose closing row was published after the first third of
the feed. A run *keeps up* when every expected match arrived before the drain limit and the net
latency does not grow: its 95th percentile over the matches closed in the last third of the feed
is at most 1.5 times the middle third's plus max(1 s, trigger).

    .venv/bin/python bench/streaming_latency.py --engines spark,flink --triggers 0.5,2,10 \\
        --rates 1000,4000,16000 --seconds 40
    .venv/bin/python bench/streaming_latency.py --engines spark --backlog --events 10000000 \\
        --per-file 200000 --rates 10000 --output bench/results/streaming_10m.jsonl

``--backlog``: every file is in the folder before the query starts and Spark reads one per
micro-batch as fast as it can (the state-size run: each micro-batch's ``stateOperators`` are
kept in the result).

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


def statement(delay: int, within: int) -> str:
    """The sparkcep statement over the streaming view ``events`` (watermark set on the view)."""
    return f"""
SELECT k, unix_millis(start_ts) AS s, unix_millis(end_ts) AS e, bs FROM events
MATCH_RECOGNIZE (
  PARTITION BY k ORDER BY ts
  MEASURES FIRST(A.ts) AS start_ts, LAST(C.ts) AS end_ts, COUNT(B.ts) AS bs
  ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A B+ C) WITHIN INTERVAL '{within}' SECOND
  DEFINE A AS A.ev = 'a', B AS B.ev = 'b', C AS C.ev = 'c'
) AS m"""


# -- the data and the oracle ---------------------------------------------------------------------


def events(n: int, rate: int, keys: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Event i: ts = BASE + i/rate seconds (ms), key i mod keys, ev by the fixed probabilities."""
    i = np.arange(n, dtype=np.int64)
    ts = BASE_MS + (i * 1000) // rate
    rng = np.random.default_rng(seed)
    ev = rng.choice(np.array(["a", "b", "c"]), size=n, p=[0.3, 0.5, 0.2])
    return (i % keys).astype(np.int32), ts, ev


def oracle(key: np.ndarray, ts: np.ndarray, ev: np.ndarray, keys: int, within_ms: int) -> list[tuple]:
    """The standard's answer, from the semantics alone: per key, in event-time order, SKIP PAST
    LAST ROW takes the leftmost match ``a b+ c`` (the variables are exclusive, so B+ is forced);
    a span (last ts - first ts) not below WITHIN rules that start out, and the next start is a
    later row, which cannot be inside ``b+ c``. Rows (k, start_ms, end_ms, number of B)."""
    out = []
    for k in range(keys):
        rows = np.flatnonzero(key == k)
        text = "".join(ev[rows].tolist())
        times = ts[rows]
        for found in re.finditer("ab+c", text):
            first, last = found.start(), found.end() - 1
            if times[last] - times[first] < within_ms:
                out.append((k, int(times[first]), int(times[last]), last - first - 1))
    return out


def checksum(matches: list[tuple]) -> str:
    text = "\n".join(",".join(map(str, m)) for m in sorted(matches))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def write_csv(path: Path, key, ts, ev) -> None:
    stamps = np.array(ts, dtype="datetime64[ms]").astype(str)
    stamps = np.char.replace(stamps.astype("U23"), "T", " ")
    table = pa.table({"k": pa.array(key, pa.int32()), "ts": pa.array(stamps), "ev": pa.array(ev)})
    pacsv.write_csv(table, path, pacsv.WriteOptions(include_header=False, quoting_style="none"))


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
    """(receipt time, k, start ms, end ms, count of B) per line of a worker's matches file: JSON
    lines, or the lines of Flink's print sink (its last column is the time it printed the row)."""
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

    def sample(self) -> None:
        times = process_tree(self.root)
        for pid, (_, seconds) in times.items():
            self.seen[pid] = max(self.seen.get(pid, 0.0), seconds)

    @property
    def seconds(self) -> float:
        return sum(self.seen.values())


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    with open("/proc/stat") as handle:
        values = [int(v) for v in handle.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


# -- one run -------------------------------------------------------------------------------------


def run_one(engine: str, args, rate: int, trigger: float | None, seed: int) -> dict:
    slice_ms = int(args.slice * 1000)
    n = args.events if args.backlog else rate * args.seconds
    key, ts, ev = events(n, rate, args.keys, seed)
    want = oracle(key, ts, ev, args.keys, args.within * 1000)
    end_ms = int(ts[-1]) + 1
    flush_ms = end_ms + (args.within + args.delay + 5) * 1000
    work = Path(tempfile.mkdtemp(prefix=f"sparkcep-stream-{engine}-"))
    staged, watch, control = work / "staged", work / "watch", work / "control"
    for folder in (staged, watch, control):
        folder.mkdir()
    # the files, written before the run: event-time slices (or fixed-size files for a backlog)
    if args.backlog:
        bounds = list(range(0, n, args.per_file)) + [n]
    else:
        cuts = np.searchsorted(ts, BASE_MS + np.arange(0, end_ms - BASE_MS + slice_ms, slice_ms))
        bounds = sorted(set(cuts.tolist()) | {n})
    files = []
    for j, (lo, hi) in enumerate(zip(bounds, bounds[1:])):
        if hi > lo:
            name = f"part-{j:06d}.csv"
            write_csv(staged / name, key[lo:hi], ts[lo:hi], ev[lo:hi])
            files.append((name, lo, hi))
    flush_keys = np.arange(args.keys, dtype=np.int32)
    # warm-up: per key a b c 20 s before the data and an x 15 s before it, so every key has one
    # match out before the timed feed starts (the job deployed, the Python workers started)
    warm_ts = np.concatenate([np.full(args.keys, BASE_MS - 20_000 + d) for d in (0, 1, 2)]
                             + [np.full(args.keys, BASE_MS - 15_000)])
    warm_ev = np.repeat(np.array(["a", "b", "c", "x"]), args.keys)
    write_csv(staged / "part-warm.csv", np.tile(flush_keys, 4), warm_ts, warm_ev)
    warm = [(int(k), BASE_MS - 20_000, BASE_MS - 19_998, 1) for k in flush_keys]
    write_csv(staged / "part-flush.csv", flush_keys, np.full(args.keys, flush_ms), np.full(args.keys, "x"))
    files.append(("part-flush.csv", n, n + args.keys))
    if args.backlog:
        for name, _, _ in files[:-1]:
            os.rename(staged / name, watch / name)

    out_file = control / "matches.jsonl"
    progress_file = control / "progress.jsonl"
    config = {"watch": str(watch), "out": str(out_file), "progress": str(progress_file),
              "stop": str(control / "stop"), "checkpoint": str(work / "checkpoint"),
              "delay": args.delay, "within": args.within, "trigger": trigger,
              "backlog": args.backlog, "parallelism": args.parallelism,
              "monitor_ms": args.monitor_ms, "partitions": args.partitions, "sink": args.flink_sink,
              "late_rows": str(work / "late") if args.late_rows else None}
    log = open(control / "worker.log", "w")
    if engine == "spark":
        command = [sys.executable, str(Path(__file__).resolve()), "--worker", "spark", json.dumps(config)]
    else:
        command = [args.flink_python, str(HERE / "peer_flink_stream.py"), json.dumps(config)]
    launched = time.time()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True)
    cpu = TreeCpu(child.pid)
    ready = child.stdout.readline().strip()
    ready_at = time.time()
    if ready != "READY":
        child.wait(timeout=60)
        raise RuntimeError(f"{engine} worker did not start: {ready!r}; see {control / 'worker.log'}")
    try:
        if not args.backlog:
            os.rename(staged / "part-warm.csv", watch / "part-warm.csv")
            warm_limit = time.time() + 300
            while time.time() < warm_limit and child.poll() is None:
                cpu.sample()
                if count_matches(out_file) >= len(warm):
                    break
                time.sleep(0.25)
        else:
            warm = []
        warmed = time.time()
        cpu.sample()
        cpu_at_ready = cpu.seconds
        busy0 = machine_busy()
        load0 = os.getloadavg()[0]

        published = np.zeros(len(files))
        started = time.time()
        if args.backlog:
            published[:-1] = started
            os.rename(staged / "part-flush.csv", watch / "part-flush.csv")  # read last (newest file)
            published[-1] = time.time()
        else:
            sampled = started
            for j, (name, _, _) in enumerate(files):
                due = started + (j + 1) * args.slice
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
        received = 0
        while time.time() < limit and child.poll() is None:
            cpu.sample()
            received = count_matches(out_file)
            if received >= len(want) + len(warm):
                break
            time.sleep(0.5)
        done = time.time()
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
    for t, k, s, e, bs in got_rows:
        first_seen.setdefault((k, s, e, bs), t)
    got = sorted(set(first_seen) - set(warm))
    file_of = np.zeros(n + args.keys, dtype=np.int64)
    for j, (_, lo, hi) in enumerate(files):
        file_of[lo:hi] = j
    all_ts = np.concatenate([ts, np.full(args.keys, flush_ms)])
    key_all = np.concatenate([key, flush_keys])
    # each match's closing row by (key, event time), which is unique per key (rate <= 1000 * keys)
    row_code = (key_all.astype(np.int64) << 42) | (all_ts - BASE_MS)
    order = np.argsort(row_code, kind="stable")
    seen = np.array([[k, e, t] for (k, _, e, _), t in first_seen.items()], dtype=np.float64).reshape(-1, 3)
    match_code = (seen[:, 0].astype(np.int64) << 42) | (seen[:, 1].astype(np.int64) - BASE_MS)
    at = np.minimum(np.searchsorted(row_code[order], match_code), len(order) - 1)
    found = row_code[order][at] == match_code
    closing_file = file_of[order[at[found]]]
    passing = np.searchsorted(all_ts, seen[found, 1].astype(np.int64) + args.delay * 1000, side="left")
    passing_file = file_of[np.minimum(passing, len(all_ts) - 1)]
    latency = seen[found, 2] - published[closing_file]
    net = seen[found, 2] - published[passing_file]
    closing = published[closing_file]
    # steady state: the matches closed after the first third of the feed
    steady = closing >= started + (feed_end - started) / 3 if not args.backlog else closing >= 0

    def pct(values, q):
        return round(float(np.percentile(values, q)), 3) if len(values) else None

    thirds = None
    keeps_up = len(got) >= len(want)
    if len(net) and not args.backlog:
        span = feed_end - started
        middle = net[(closing >= started + span / 3) & (closing < started + 2 * span / 3)]
        last = net[closing >= started + 2 * span / 3]
        thirds = [pct(middle, 95), pct(last, 95)]
        if len(middle) and len(last):
            keeps_up = keeps_up and thirds[1] <= 1.5 * thirds[0] + max(1.0, trigger or 0.0)
    progress = [json.loads(line) for line in open(progress_file)] if progress_file.exists() else []
    busy = (busy1[0] - busy0[0]) / max(1, busy1[1] - busy0[1]) * os.cpu_count()
    record = {
        "engine": engine, "sink": "foreachBatch" if engine == "spark" else args.flink_sink,
        "late_rows": bool(args.late_rows) if engine == "spark" else False,
        "parallelism": 2 if engine == "spark" else args.parallelism,
        "trigger_s": trigger, "rate": rate, "events": n, "keys": args.keys,
        "delay_s": args.delay, "within_s": args.within, "slice_s": args.slice, "backlog": args.backlog,
        "files": len(files), "expected": len(want), "matches": len(got),
        "checksum": checksum(got), "expected_checksum": checksum(want), "equal": got == sorted(want),
        "keeps_up": bool(keeps_up), "p95_net_thirds": thirds,
        "latency_p50": pct(latency[steady], 50), "latency_p95": pct(latency[steady], 95),
        "latency_max": pct(latency[steady], 100), "net_p50": pct(net[steady], 50),
        "net_p95": pct(net[steady], 95), "net_max": pct(net[steady], 100),
        "net_p95_all": pct(net, 95), "warmup_s": round(warmed - ready_at, 1),
        "feed_s": round(feed_end - started, 2), "wall_s": round(done - started, 2),
        "drain_s": round(done - feed_end, 2), "startup_s": round(ready_at - launched, 2),
        "cpu_s": round(cpu.seconds - cpu_at_ready, 1), "cpu_startup_s": round(cpu_at_ready, 1),
        "machine_busy_cores": round(busy, 2), "load1_start": round(load0, 2),
        "load1_end": round(os.getloadavg()[0], 2), "batches": len(progress),
    }
    if engine == "spark" and progress:
        durations = [p["durationMs"].get("triggerExecution", 0) / 1000 for p in progress]
        record["batch_s_p50"] = round(float(np.median(durations)), 2)
        record["batch_s_max"] = round(max(durations), 2)
        if args.backlog:
            record["progress"] = [slim(p) for p in progress]
    if record["equal"]:
        shutil.rmtree(work, ignore_errors=True)
    else:
        # the worker's log and matches, to look at (named on stderr only: a result file holds no
        # path of the machine it ran on)
        print(f"{engine}: matches differ from the oracle; kept {work}", file=sys.stderr)
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
    sys.path.insert(0, str(HERE.parent))
    import sparkcep
    from sparkcep.clients.session import local_session

    settings = {"spark_driver_memory": "4g", "spark_executor_pyspark_memory": "2g",
                "spark_sql_shuffle_partitions": str(config["partitions"]),
                "spark_sql_execution_arrow_maxRecordsPerBatch": "10000",
                "spark_sql_session_timeZone": "UTC"}
    if os.environ.get("SB_JAVA"):
        settings["spark_driver_extraJavaOptions"] = os.environ["SB_JAVA"]
    spark = local_session("local[2]", "sparkcep-bench", **settings)
    out = open(config["out"], "a")
    progress_out = open(config["progress"], "a")
    try:
        reader = (spark.readStream.schema("k INT, ts TIMESTAMP, ev STRING")
                  .option("timestampFormat", "yyyy-MM-dd HH:mm:ss.SSS"))
        if config["backlog"]:
            reader = reader.option("maxFilesPerTrigger", 1)
        (reader.csv(config["watch"]).withWatermark("ts", f"{config['delay']} seconds")
         .createOrReplaceTempView("events"))
        text = statement(config["delay"], config["within"])

        def received(rows) -> None:
            now = time.time()
            for row in rows:
                out.write(json.dumps([now, row.k, row.s, row.e, row.bs]) + "\n")
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
    parser.add_argument("--output", default=str(HERE / "results" / "streaming_latency.jsonl"))
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=HERE).stdout.strip()
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    rates = [int(r) for r in args.rates.split(",")]
    plan = []
    for engine in args.engines.split(","):
        triggers = [float(t) for t in args.triggers.split(",")] if engine == "spark" else [None]
        plan += [(engine, trigger) for trigger in triggers]
    for engine, trigger in plan:
        for seed, rate in enumerate(rates):
            record = run_one(engine, args, rate, None if args.backlog and engine == "spark" else trigger, seed)
            record["commit"] = commit
            summary = {k: v for k, v in record.items() if k != "progress"}
            print(json.dumps(summary), flush=True)
            with open(args.output, "a") as log:
                log.write(json.dumps(record) + "\n")
            if args.stop_after_miss and not record["keeps_up"]:
                break


if __name__ == "__main__":
    main()
