"""Plots of the benchmark results (JSON lines written with --json by bench/peers.py,
bench/scaling.py and bench/sase_spark.py) as PNGs under docs/img/.

    .venv/bin/pip install -e '.[bench]'          # matplotlib
    .venv/bin/python bench/plot.py                # reads bench/results/*.jsonl
    .venv/bin/python bench/plot.py --results bench/results --out docs/img
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402, F401 - the log axes' plain labels
import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent


def read(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def save(fig, out: Path, name: str) -> None:
    fig.tight_layout()
    fig.savefig(out / name, dpi=110)
    plt.close(fig)
    print("wrote", out / name)


def plot_peers(records: list[dict], out: Path) -> None:
    rows = [r for r in records if r.get("seconds")]
    if not rows:
        return
    # the last run only (a file may hold several)
    last_commit = rows[-1]["commit"]
    rows = [r for r in rows if r["commit"] == last_commit and r["total_rows"] == rows[-1]["total_rows"]]
    queries = [q for q in dict.fromkeys(r["query"] for r in rows) if not q.startswith(("pass", "Spark lag"))]
    engines = ["sparkcep", "pandas-match-recognize", "Flink SQL"]
    colors = {"sparkcep": "tab:blue", "pandas-match-recognize": "tab:orange", "Flink SQL": "tab:green"}
    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.26
    for i, engine in enumerate(engines):
        xs, ys = [], []
        for j, q in enumerate(queries):
            hit = next((r for r in rows if r["query"] == q and r["engine"] == engine), None)
            if hit:
                xs.append(j + (i - 1) * width)
                ys.append(hit["rows"] / hit["seconds"])
        ax.bar(xs, ys, width, label=engine, color=colors[engine])
    for name, style in (("pass-through Arrow UDTF (floor)", "--"), ("Spark lag() window", ":")):
        hit = next((r for r in rows if r["query"] == name), None)
        if hit:
            ax.axhline(hit["rows"] / hit["seconds"], color="gray", linestyle=style, label=name)
    ax.set_yscale("log")
    ax.set_xticks(range(len(queries)))
    ax.set_xticklabels([q.replace(" (peer form)", "\n(peer form)") for q in queries], fontsize=8)
    ax.set_ylabel("rows/s (log)")
    ax.set_title(f"sparkcep vs peers, {rows[-1]['total_rows']:,} stock rows "
                 f"(pandas-match-recognize on a sample), commit {last_commit}", fontsize=9)
    ax.legend(fontsize=7)
    save(fig, out, "peers.png")


def plot_scaling(records: list[dict], out: Path, suffix: str = "") -> None:
    rows = [r for r in records if r["experiment"] == "scaling_rows"]
    if rows:
        fig, ax = plt.subplots(figsize=(7, 4.2))
        series = defaultdict(dict)
        loads = defaultdict(dict)
        for r in rows:
            if r["master"] == "local[2]":
                series[r["variant"]][r["rows"]] = r["rows"] / r["seconds"]
                loads[r["variant"]][r["rows"]] = r["load"]
        for name, points in series.items():
            xs = sorted(points)
            ax.plot(xs, [points[x] for x in xs], marker="o", label=name)
            for x in xs:
                ax.annotate(f"load {loads[name][x]}", (x, points[x]), fontsize=6,
                            textcoords="offset points", xytext=(3, 4))
        ax.set_xscale("log")
        ax.set_xlabel("rows (1000 rows per symbol)")
        ax.set_ylabel("rows/s")
        ax.set_ylim(bottom=0)
        ax.set_title("throughput vs rows, local[2] (flat = linear scaling; load average per point)", fontsize=9)
        ax.legend(fontsize=8)
        save(fig, out, f"scaling_rows{suffix}.png")

        cores = defaultdict(dict)
        for r in rows:
            if r["rows"] == 1_000_000:
                cores[r["variant"]][r["master"]] = r["rows"] / r["seconds"]
        if any(len(v) > 1 for v in cores.values()):
            fig, ax = plt.subplots(figsize=(6, 4))
            names = list(cores)
            for i, master in enumerate(["local[1]", "local[2]"]):
                ax.bar([j + (i - 0.5) * 0.38 for j in range(len(names))],
                       [cores[n].get(master, 0) for n in names], 0.38, label=master)
            ax.set_xticks(range(len(names)))
            ax.set_xticklabels(names)
            ax.set_ylabel("rows/s")
            ax.set_title("1M rows: local[1] vs local[2]", fontsize=9)
            ax.legend(fontsize=8)
            save(fig, out, f"scaling_cores{suffix}.png")
    length = [r for r in records if r["experiment"] == "scaling_length" and r["variant"] != "floor"]
    if length:
        fig, ax = plt.subplots(figsize=(6, 4))
        length.sort(key=lambda r: int(r["variant"].split("=")[1]))
        legs = [int(r["variant"].split("=")[1]) for r in length]
        ax.plot([1 + 2 * k for k in legs], [r["rows"] / r["seconds"] for r in length], marker="o",
                label="zigzag STRT (D+ U+) x legs")
        floor = next((r for r in records if r["experiment"] == "scaling_length" and r["variant"] == "floor"), None)
        if floor:
            ax.axhline(floor["rows"] / floor["seconds"], color="gray", linestyle="--", label="floor")
        ax.set_xlabel("pattern variables")
        ax.set_ylabel("rows/s")
        ax.set_ylim(bottom=0)
        ax.set_title("throughput vs pattern length, 1M rows, local[2]", fontsize=9)
        ax.legend(fontsize=8)
        save(fig, out, "scaling_length.png")


def plot_sase(records: list[dict], out: Path) -> None:
    t1 = [r for r in records if r["experiment"] == "sase_table1"]
    if t1:
        fig, ax = plt.subplots(figsize=(7, 4.2))
        series = defaultdict(dict)
        failed = []
        for r in t1:
            key = f"{r['pred']} {r['strategy']}"
            if r["status"]:
                failed.append(f"{key} W={r['window']}: {r['status']}")
            else:
                series[key][r["window"]] = r["events"] / r["seconds"]
        for name, points in sorted(series.items()):
            xs = sorted(points)
            ax.plot(xs, [points[x] for x in xs], marker="o", label=name)
        ax.set_yscale("log")
        ax.set_xlabel("W (events per partition window)")
        ax.set_ylabel("events/s (log)")
        ax.set_title("SASE+ Table 1 shape on Spark: A1 A* B WITHIN W", fontsize=9)
        if failed:
            grouped = defaultdict(list)
            for f in failed:
                key, rest = f.split(" W=")
                w, status = rest.split(": ")
                grouped[(key, status)].append(w)
            text = "; ".join(f"{k} {st} at W={','.join(ws)}" for (k, st), ws in sorted(grouped.items()))
            ax.text(0.01, 0.01, "not plotted: " + text, transform=ax.transAxes, fontsize=6, va="bottom",
                    wrap=True)
        ax.legend(fontsize=7)
        save(fig, out, "sase_table1.png")
    f5 = [r for r in records if r["experiment"] == "sase_figure5" and not r["status"]]
    if f5:
        fig, ax = plt.subplots(figsize=(7, 4.2))
        series = defaultdict(dict)
        for r in f5:
            series[f"{r['pred']}, C {r['c_share'] * 100:.0f}%"][r["window"]] = r["events"] / r["seconds"]
        for name, points in sorted(series.items()):
            xs = sorted(points)
            ax.plot(xs, [points[x] for x in xs], marker="o", label=name)
        ax.set_yscale("log")
        ax.set_xlabel("W (events)")
        ax.set_ylabel("events/s (log)")
        ax.set_title("SASE++ Figure 5 shape on Spark: A B+ C, SKIP TILL ANY MATCH (postponing)", fontsize=9)
        ax.legend(fontsize=7)
        save(fig, out, "sase_figure5.png")


def plot_aggregation(records: list[dict], long_records: list[dict], spark_records: list[dict],
                     out: Path) -> None:
    """A-Seq's single-query experiment: enumerate-then-aggregate / aggregation time by pattern
    length and window (bench/aggregation_aseq.py), and rows/s of the pushdown on Spark by input
    size (bench/aggregation_spark.py)."""
    rows = records + long_records
    if rows:
        fig, ax = plt.subplots(figsize=(7, 4.2))
        for window in sorted({r["window"] for r in rows}):
            points = sorted((r["length"], r["ratio"]) for r in rows if r["window"] == window)
            ax.plot([x for x, _ in points], [y for _, y in points], marker="o", label=f"WITHIN {window}")
        ax.set_yscale("log")
        ax.set_xlabel("pattern length (E1 ... En, SKIP TILL ANY MATCH)")
        ax.set_ylabel("enumeration time / aggregation time")
        ax.set_title("COUNT and SUM without enumerating matches (10,000 events)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        save(fig, out, "aggregation_ratio.png")
    if spark_records:
        fig, ax = plt.subplots(figsize=(6, 4))
        xs = [r["rows"] / 1e6 for r in spark_records]
        ax.plot(xs, [r["seconds"] for r in spark_records], marker="o", label="COUNT/SUM of A B+ C D E (pushdown)")
        ax.plot(xs, [r["floor_seconds"] for r in spark_records], marker="s", linestyle="--",
                label="pass-through Arrow UDTF (floor)")
        ax.set_xlabel("input rows (millions), 1,000 partitions")
        ax.set_ylabel("seconds")
        ax.set_title("Aggregation pushdown on Spark, local[2]")
        ax.grid(True, alpha=0.3)
        ax.legend()
        save(fig, out, "aggregation_spark.png")


def plot_streaming_state(records: list[dict], out: Path) -> None:
    """bench/streaming_state.py: the key's serialized state after each micro-batch, by events
    processed (flat = bounded)."""
    if not records:
        return
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for record in records:
        events, sizes = zip(*record["state_bytes_at"])
        ax.plot([e / 1e6 for e in events], [b / 1e3 for b in sizes], marker=".",
                label=f"{record['events']:,} events, {record['per_batch']:,} per micro-batch")
    ax.set_xlabel("events processed (millions)")
    ax.set_ylabel("state of the key (kB)")
    ax.set_ylim(bottom=0)
    ax.set_title("streaming MATCH_RECOGNIZE: state per key, WITHIN 60 s")
    ax.legend(fontsize=8)
    save(fig, out, "streaming_state.png")


def plot_streaming_latency(records: list[dict], out: Path) -> None:
    """bench/streaming_latency.py: match latency (median, bar to the 95th percentile) against the
    input rate, net of the watermark delay, per engine and trigger; hollow markers: runs that
    did not keep up."""
    runs = [r for r in records if not r.get("backlog") and r.get("net_p50") is not None
            and r.get("parallelism", 2) == 2]
    if not runs:
        return
    fig, ax = plt.subplots(figsize=(6.5, 4))
    groups = defaultdict(list)
    for record in runs:
        label = ("sparkcep, trigger %g s" % record["trigger_s"]) if record["engine"] == "spark" \
            else "Flink SQL, %s sink" % record.get("sink", "collect()")
        groups[label].append(record)
    for label, rows in sorted(groups.items()):
        rows.sort(key=lambda r: r["rate"])
        rates = [r["rate"] for r in rows]
        p50 = [r["net_p50"] for r in rows]
        p95 = [r["net_p95"] for r in rows]
        line, = ax.plot(rates, p50, marker="o", label=label)
        ax.vlines(rates, p50, p95, color=line.get_color(), alpha=0.5)
        missed = [r for r in rows if not r["keeps_up"]]
        ax.scatter([r["rate"] for r in missed], [r["net_p50"] for r in missed], s=90,
                   facecolors="white", edgecolors=line.get_color(), zorder=3)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("input rate (events/s)")
    ax.set_ylabel("match latency net of the watermark delay (s)")
    ax.set_title("streaming A B+ C WITHIN 10 s, 64 keys (hollow: does not keep up)", fontsize=9)
    ax.grid(True, alpha=0.3, which="both")
    ax.legend(fontsize=8)
    save(fig, out, "streaming_latency.png")


def plot_streaming_10m(records: list[dict], out: Path) -> None:
    """bench/streaming_latency.py --backlog: the stateful operator's state after each micro-batch
    of the largest run, from the query progress (stateOperators)."""
    runs = [r for r in records if r.get("backlog") and r.get("progress")]
    if not runs:
        return
    record = max(runs, key=lambda r: r["events"])
    done, rows, flushed, sst, memory = [], [], [], [], []
    total = 0
    for progress in record["progress"]:
        total += progress["numInputRows"] or 0
        (op,) = progress["stateOperators"] or [None]
        if op is None:
            continue
        metrics = op.get("customMetrics") or {}
        done.append(min(total, record["events"]) / 1e6)
        rows.append(op["numRowsTotal"])
        flushed.append(metrics.get("rocksdbTotalBytesWrittenByFlush", 0) / 1e6)
        sst.append(metrics.get("rocksdbSstFileSize", 0) / 1e6)
        memory.append((op.get("memoryUsedBytes") or 0) / 1e6)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6.5, 5), sharex=True)
    top.plot(done, rows, marker=".")
    top.set_ylabel("state rows (numRowsTotal)")
    top.set_ylim(bottom=0)
    top.set_title(f"{record['events']:,} events, {record['keys']} keys, one file of "
                  f"{record['events'] // max(1, record['files'] - 1):,} per micro-batch, "
                  f"WITHIN {record['within_s']} s", fontsize=9)
    bottom.plot(done, flushed, marker=".", label="state written per micro-batch (RocksDB flush)")
    bottom.plot(done, sst, marker=".", label="RocksDB SST files")
    bottom.plot(done, memory, marker=".", label="memoryUsedBytes")
    bottom.set_ylabel("MB")
    bottom.set_xlabel("events read (millions)")
    bottom.set_ylim(bottom=0)
    bottom.legend(fontsize=7)
    for ax in (top, bottom):
        ax.grid(True, alpha=0.3)
    save(fig, out, "streaming_state_10m.png")


def plot_streaming_operator_api(records: list[dict], out: Path) -> None:
    """bench/streaming_operator_api.py: wall time and Python-worker CPU of the same streaming
    query through transformWithStateInPandas and the Row-based transformWithState, per stream
    size and number of keys; the consume-only processor (transport) next to the matching one."""
    runs = [r for r in records if not r.get("warmup") and r.get("kind") != "conversions"]
    if not runs:
        return
    configs = sorted({(r["events"], r["keys"]) for r in runs})
    variants = [("pandas", "consume"), ("row", "consume"), ("pandas", "match"), ("row", "match")]
    colors = {"pandas": "tab:blue", "row": "tab:orange"}
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.8))
    width = 0.8 / len(variants)
    for ax, metric, label in ((axes[0], "wall_s", "wall time of the query (s)"),
                              (axes[1], "python_cpu_s", "CPU of the Python workers (s)")):
        for j, (api, processor) in enumerate(variants):
            values = []
            for config in configs:
                found = [r[metric] for r in runs if (r["events"], r["keys"]) == config
                         and r["api"] == api and r["processor"] == processor]
                values.append(min(found) if found else 0)
            ax.bar([i + (j - 1.5) * width for i in range(len(configs))], values, width,
                   color=colors[api], hatch="" if processor == "match" else "//",
                   alpha=1.0 if processor == "match" else 0.55,
                   label=f"{'transformWithStateInPandas' if api == 'pandas' else 'transformWithState (Row)'}"
                         f", {processor}")
        ax.set_xticks(range(len(configs)))
        ax.set_xticklabels([f"{n // 1000:,}k ev\n{k:,} keys" for n, k in configs], fontsize=8)
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax.yaxis.set_minor_formatter(matplotlib.ticker.ScalarFormatter())
        ax.tick_params(axis="y", which="both", labelsize=7)
        ax.set_ylabel(label)
        ax.grid(True, alpha=0.3, axis="y", which="both")
    axes[0].legend(fontsize=7)
    fig.suptitle("streaming A B+ C WITHIN 10 s: the two Python stateful operator APIs, local[2]",
                 fontsize=9)
    save(fig, out, "streaming_operator_api.png")


#: commits of bench/results/streaming_late_rows.jsonl and the operator the runtime used at each
LATE_ROWS_OPERATOR = {"21ca741": "pandas", "bd1bf3f": "Row"}


def plot_streaming_late_rows(records: list[dict], out: Path) -> None:
    """bench/streaming_latency.py --backlog [--late-rows]: wall time and CPU of 1M events through
    the streaming query, late rows dropped or routed, per operator API (by commit: pandas is
    transformWithStateInPandas, Row the Row-based transformWithState)."""
    runs = [r for r in records if r.get("commit") in LATE_ROWS_OPERATOR]
    if not runs:
        return
    variants = [(c, routed) for c in LATE_ROWS_OPERATOR for routed in (False, True)]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    for ax, metric, label in ((axes[0], "wall_s", "wall time, 1M events (s)"),
                              (axes[1], "cpu_s", "CPU, JVM and Python workers (s)")):
        for i, (commit, routed) in enumerate(variants):
            values = sorted(r[metric] for r in runs if r["commit"] == commit
                            and bool(r.get("late_rows")) == routed)
            if not values:
                continue
            ax.bar(i, float(np.median(values)), 0.7, color="tab:orange" if routed else "tab:blue")
            ax.plot([i] * len(values), values, "k.", markersize=4)
        ax.set_xticks(range(len(variants)))
        ax.set_xticklabels([f"{LATE_ROWS_OPERATOR[c]}\n{'routed' if r else 'dropped'}"
                            for c, r in variants], fontsize=8)
        ax.set_ylabel(label)
        ax.grid(True, alpha=0.3, axis="y")
    fig.suptitle("streaming A B+ C, 1M events backlog, 64 keys: late rows dropped or routed "
                 "(bars: median; dots: runs)", fontsize=9)
    save(fig, out, "streaming_late_rows.png")


def _latency_bars(ax, x, picked: list, width: float, label: str) -> None:
    """Net latency bars: the median, an error bar up to the 95th percentile; hatched where the
    run's matches differ from the oracle (``picked``: a record or None per position)."""
    p50 = [r["net_p50"] if r else 0 for r in picked]
    p95 = [r["net_p95"] - r["net_p50"] if r else 0 for r in picked]
    bars = ax.bar(x, p50, width, yerr=[np.zeros(len(p50)), p95], capsize=3, label=label)
    for bar, r in zip(bars, picked):
        if r and not r["equal"]:
            bar.set_hatch("//")


def plot_streaming_issue22(records: list[dict], out: Path, name: str = "streaming_issue22.png",
                           note: str = "") -> None:
    """bench/streaming_latency.py --baseline-src (issue 22): net latency (median, bar to the 95th
    percentile) and micro-batch median per shape, before and after, in one run; a hatched bar's
    matches differ from the oracle."""
    rows = [r for r in records if r.get("source") and r.get("net_p50") is not None]
    if not rows:
        return
    shapes = sorted({r["shape"] for r in rows})
    sources = ["baseline", "current"]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    width = 0.38
    for i, source in enumerate(sources):
        picked = [next((r for r in rows if r["shape"] == s and r["source"] == source), None)
                  for s in shapes]
        x = np.arange(len(shapes)) + (i - 0.5) * width
        label = f"{'before' if source == 'baseline' else 'after'} "
        label += next((r["src_commit"] for r in picked if r), "")
        _latency_bars(axes[0], x, picked, width, label)
        axes[1].bar(x, [r.get("feed_batch_s_p50") or 0 if r else 0 for r in picked], width,
                    label=label)
    for ax, title in zip(axes, ["net latency (s), p50 and p95", "micro-batch p50 (s)"]):
        ax.set_xticks(np.arange(len(shapes)))
        ax.set_xticklabels(shapes)
        ax.set_title(title, fontsize=9)
    axes[0].legend(fontsize=8)
    fig.suptitle("streaming, 32 keys, 2,000 events/s, trigger 0.5 s (hatched: wrong matches)"
                 + note, fontsize=9)
    save(fig, out, name)


def plot_stream_exchange(records: list[dict], out: Path, name: str = "streaming_issue22d.png",
                         note: str = "") -> None:
    """bench/streaming_latency.py --conf spark.sparkcep.streamExchange=rows|pandas (issue 22,
    10h): per workload (shape, keys, events/s), net latency (median, bar to the 95th
    percentile) and the Python workers' CPU seconds, for the Row exchange, the pandas exchange
    and the baseline checkout; a hatched bar's matches differ from the oracle."""
    def variant(r):
        if r.get("source") == "baseline":
            return f"baseline {r.get('src_commit', '')}"
        conf = dict(c.split("=", 1) for c in r.get("conf") or [])
        return conf.get("spark.sparkcep.streamExchange", "rows")

    rows = [r for r in records if r.get("net_p50") is not None]
    if not rows:
        return
    groups = list(dict.fromkeys((r["shape"], r["keys"], r["rate"]) for r in rows))
    variants = list(dict.fromkeys(variant(r) for r in rows))
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    width = 0.8 / len(variants)
    for i, v in enumerate(variants):
        picked = [next((r for r in rows if (r["shape"], r["keys"], r["rate"]) == g
                        and variant(r) == v), None) for g in groups]
        x = np.arange(len(groups)) + (i - (len(variants) - 1) / 2) * width
        _latency_bars(axes[0], x, picked, width, v)
        axes[1].bar(x, [(r.get("cpu_by_command_s") or {}).get("python", 0) if r else 0
                        for r in picked], width, label=v)
    labels = [f"{shape}\n{keys} keys, {rate:,}/s" for shape, keys, rate in groups]
    for ax, title in zip(axes, ["net latency (s), p50 and p95 (log scale)",
                                "Python workers' CPU (s) over the run"]):
        ax.set_xticks(np.arange(len(groups)))
        ax.set_xticklabels(labels, fontsize=8)
        ax.set_title(title, fontsize=9)
    axes[0].set_yscale("log")
    axes[0].legend(fontsize=8)
    fig.suptitle("streaming: rows reach Python as Rows or as pandas DataFrames carried exactly"
                 + note, fontsize=9)
    save(fig, out, name)


def plot_stream_microbatch(records: list[dict], out: Path,
                           name: str = "streaming_microbatch.png") -> None:
    """bench/streaming_microbatch.py (issue 22, 10i): a micro-batch's median time per component
    (planning, the offset and commit logs, the source listing, the stateful operators' updates
    and state commits; each operator's are summed over its tasks), stacked, per variant and file
    system, one bar per run in the order they ran."""
    if not records:
        return
    parts = [("planning", lambda r: _durations(r).get("queryPlanning", 0)),
             ("offset + commit log", lambda r: _durations(r).get("walCommit", 0)
              + _durations(r).get("commitOffsets", 0)),
             ("source listing", lambda r: _durations(r).get("latestOffset", 0)),
             ("operator updates", lambda r: sum(op.get("allUpdatesTimeMs", 0) for op in _operators(r))),
             ("state commits", lambda r: sum(op.get("commitTimeMs", 0) for op in _operators(r)))]
    labels = [f"{r['variant']}\n{r['file_context']}\nrun {i + 1}" for i, r in enumerate(records)]
    fig, ax = plt.subplots(figsize=(max(6, 0.75 * len(records)), 4))
    bottom = np.zeros(len(records))
    for label, value in parts:
        heights = np.array([value(r) for r in records], dtype=float)
        ax.bar(np.arange(len(records)), heights, 0.7, bottom=bottom, label=label)
        bottom += heights
    ax.plot(np.arange(len(records)), [_durations(r).get("triggerExecution", 0) for r in records],
            "k_", markersize=18, label="micro-batch (p50)")
    ax.set_xticks(np.arange(len(records)))
    ax.set_xticklabels(labels, fontsize=7)
    ax.set_ylabel("ms (medians over the micro-batches);\nan operator's tasks run side by side,\n"
                  "its updates and commits are their sum", fontsize=8)
    ax.legend(fontsize=7, ncol=2)
    ax.set_title("one micro-batch at 2,000 events/s over 32 keys (1,000 rows): floor = a "
                 "pass-through transformWithState", fontsize=9)
    save(fig, out, name)


def _durations(record: dict) -> dict:
    return record["profile"]["durationMs_p50"]


def _operators(record: dict) -> list[dict]:
    return record["profile"]["stateOperators_p50"]


def plot_catalyst_path(records: list[dict], out: Path, name: str = "catalyst_path.png") -> None:
    """Issue 26: seconds per variant relative to the Arrow UDTF floor, one group of bars per run
    and size (bench/catalyst_path.py; a run starts at its first "Spark sort only"), labelled with
    the run's commit."""
    runs: list[list[dict]] = []
    for r in records:
        if r["variant"] == "Spark sort only" and (not runs or any(x["rows"] == r["rows"] for x in runs[-1])):
            runs.append([])
        if runs and r.get("seconds") == r.get("seconds"):  # NaN: a skipped peer
            runs[-1].append(r)
    groups = [(n, size, [r for r in run if r["rows"] == size]) for n, run in enumerate(runs, 1)
              for size in sorted({r["rows"] for r in run})]
    if not groups:
        return
    variants = list(dict.fromkeys(r["variant"] for _, _, rows in groups for r in rows))
    fig, ax = plt.subplots(figsize=(11, 4.8))
    width = 0.8 / len(groups)
    for i, (number, size, rows) in enumerate(groups):
        mine = {r["variant"]: r for r in rows}
        floor = mine["Arrow UDTF floor"]
        xs = [j + (i - (len(groups) - 1) / 2) * width for j, v in enumerate(variants) if v in mine]
        ys = [mine[v]["seconds"] / floor["seconds"] for v in variants if v in mine]
        load = floor["load"].split()[0]
        bars = ax.bar(xs, ys, width, label=f"run {number}, {floor['commit']}, {size:,} rows "
                                           f"(load {load} at the floor)")
        ax.bar_label(bars, fmt="%.2f", fontsize=6)
    ax.axhline(1.0, color="gray", linestyle="--")
    ax.set_xticks(range(len(variants)))
    ax.set_xticklabels([v.replace(", ", "\n") for v in variants], fontsize=7)
    ax.set_ylabel("seconds / Arrow UDTF floor (lower is faster)")
    ax.set_title(f"Catalyst path vs Python path, floor and pandas-match-recognize, commit "
                 f"{groups[-1][2][0]['commit']} (2-core machine shared with other runs)", fontsize=9)
    ax.legend(fontsize=7)
    save(fig, out, name)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--results", default=str(HERE / "results"))
    parser.add_argument("--out", default=str(HERE.parent / "docs" / "img"))
    args = parser.parse_args()
    results, out = Path(args.results), Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    plot_peers(read(results / "peers.jsonl"), out)
    plot_catalyst_path(read(results / "catalyst_path.jsonl"), out)
    plot_scaling(read(results / "scaling.jsonl"), out)
    if (results / "scaling2.jsonl").exists():  # session 2, at one commit on a quiet machine
        plot_scaling(read(results / "scaling2.jsonl"), out, "_session2")
    plot_sase(read(results / "sase.jsonl"), out)
    plot_aggregation(read(results / "aggregation_aseq.jsonl"), read(results / "aggregation_aseq_long.jsonl"),
                     read(results / "aggregation_spark.jsonl"), out)
    plot_streaming_state(read(results / "streaming_state.jsonl"), out)
    plot_streaming_latency(read(results / "streaming_latency.jsonl"), out)
    plot_streaming_10m(read(results / "streaming_10m.jsonl"), out)
    plot_streaming_operator_api(read(results / "streaming_operator_api.jsonl"), out)
    plot_streaming_late_rows(read(results / "streaming_late_rows.jsonl"), out)
    plot_streaming_issue22([r for r in read(results / "streaming_latency_issue22.jsonl")
                            if r["keys"] == 32 and r["rate"] == 2000 and r.get("partitions", 4) == 4],
                           out)
    plot_streaming_issue22([r for r in read(results / "streaming_latency_issue22b.jsonl")
                            if r["keys"] == 32 and r["rate"] == 2000
                            and not r.get("background_load")], out, "streaming_issue22b.png",
                           "\nstate format 3 and the quick JIT; machine load 4-7 (other work)")
    plot_streaming_issue22(read(results / "streaming_latency_issue22c.jsonl"), out,
                           "streaming_issue22c.png",
                           "\nstate format 3 and the quick JIT; quiet machine (load 1-3)")
    plot_stream_exchange(read(results / "streaming_latency_issue22d.jsonl"), out)
    if (results / "streaming_microbatch.jsonl").exists():
        plot_stream_microbatch(read(results / "streaming_microbatch.jsonl"), out)
    if (results / "streaming_latency_issue22e.jsonl").exists():
        plot_streaming_issue22(read(results / "streaming_latency_issue22e.jsonl"), out,
                               "streaming_issue22e.png",
                               "\ncheckpoint without checksum files; quiet machine (load 2)")


if __name__ == "__main__":
    main()
