"""sparkcep on Spark side by side with its peers, on the same stock data, in one run.

    .venv/bin/python bench/peers.py                       # 1M rows, 1000 symbols
    .venv/bin/python bench/peers.py --rows 200000 --skip flink --json bench/results/peers.jsonl

Data: bench/common.stock_ticks (a random walk per symbol), written once to Parquet under
bench/data/ (gitignored) and read back by every engine:

* sparkcep on Spark (``--master``, default local[2]), with the pass-through Arrow UDTF floor and a
  Spark-only lag() window as references (input cached in memory, as in bench/stock_patterns.py);
* pandas-match-recognize in bench/.venv-pmr (a subprocess: bench/peer_pmr.py). It is pure Python;
  the row-local queries run on all rows (``--pmr-rows``), the match-dependent ones, where it runs at
  a few hundred to a few thousand rows/s, on the first symbols only (``--pmr-rows-md`` rows, whole
  partitions); its match count is compared with sparkcep's on exactly those symbols;
* Apache Flink SQL in bench/.venv-flink (a subprocess: bench/peer_flink.py), batch mode, local
  mini-cluster, parallelism ``--flink-parallelism`` (2), on all rows.

A peer whose venv is missing is skipped with a message (``bash bench/setup_peers.sh`` makes them).

Queries. Flink rejects PREV/NEXT in DEFINE and a greedy quantifier on the last pattern variable,
so each shape is run twice: in the form of bench/stock_patterns.py (sparkcep, pandas-match-
recognize) and in a "peer form" that Flink also accepts. The peer forms mean the same under SQL:2016
strict contiguity whatever way they are written (PREV(x) of a DOWN row is the previous DOWN row or
STRT; the E row of the rising streak is the first row that is not higher than the last B), and
their greedy quantifiers never compete with the next variable, where Flink's NFA (no backtracking)
deviates from the standard. Each row of the table says which text each engine ran.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import bench_session, noop, passthrough_floor  # noqa: E402
from stock_patterns import LAG_ONLY, RISING, V_SHAPE  # noqa: E402

import sparkcep  # noqa: E402

# --- the queries -------------------------------------------------------------------------------

V_PEER = """
SELECT * FROM ticks MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ts
  MEASURES FIRST(STRT.ts) AS start_ts, LAST(DOWN.price) AS bottom, LAST(UP.ts) AS end_ts
  ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
  PATTERN (STRT DOWN+ UP)
  DEFINE DOWN AS DOWN.price < PREV(DOWN.price), UP AS UP.price > PREV(UP.price))
"""

V_PEER_FLINK = """
SELECT * FROM ticks MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY rowtime
  MEASURES STRT.ts AS start_ts, LAST(DOWN.price) AS bottom, UP.ts AS end_ts
  ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
  PATTERN (STRT DOWN+ UP)
  DEFINE DOWN AS (LAST(DOWN.price, 1) IS NULL AND DOWN.price < STRT.price)
                 OR DOWN.price < LAST(DOWN.price, 1),
         UP AS UP.price > LAST(DOWN.price))
"""

RISING_PEER = """
SELECT * FROM ticks MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ts
  MEASURES FIRST(B.ts) AS start_ts, LAST(B.ts) AS end_ts, COUNT(B.ts) AS n
  ONE ROW PER MATCH AFTER MATCH SKIP TO NEXT ROW
  PATTERN (B{3,} E)
  DEFINE B AS LAST(B.price, 1) IS NULL OR B.price > LAST(B.price, 1),
         E AS E.price <= LAST(B.price))
"""

NO_FLINK_PREV = "Flink: PREV in DEFINE and a greedy last variable (UP+) are rejected"
NO_FLINK_GREEDY = "Flink: a greedy last variable (B{3,}) is rejected"

# name -> (kind, sparkcep text, pandas-match-recognize text, Flink text or the reason for none)
QUERIES = {
    "V shape STRT DOWN+ UP+": ("row-local", V_SHAPE, V_SHAPE, NO_FLINK_PREV),
    "V shape STRT DOWN+ UP (peer form)": ("row-local", V_PEER, V_PEER, V_PEER_FLINK),
    "rising B{3,}": ("match-dependent", RISING, RISING, NO_FLINK_GREEDY),
    "rising B{3,} E (peer form)": (
        "match-dependent", RISING_PEER, RISING_PEER, RISING_PEER.replace("ORDER BY ts", "ORDER BY rowtime")),
}

FLOOR = "pass-through Arrow UDTF (floor)"
LAG = "Spark lag() window"


def load() -> str:
    return "%.2f %.2f %.2f" % os.getloadavg()


def git_commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True,
                             text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "sparkcep"], cwd=HERE,
                               capture_output=True, text=True).stdout.strip()
        return out + ("+dirty-sparkcep" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def best_of(action, repeat: int) -> tuple[float, str]:
    best, loads = float("inf"), []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - started)
        loads.append(os.getloadavg()[0])
    return best, "%.2f" % max(loads)


def ticks_parquet(spark, rows: int, symbols: int, seed: int, data_dir: Path) -> Path:
    """The ticks of bench/common.stock_ticks, written once per (rows, symbols, seed)."""
    from common import stock_ticks

    path = data_dir / f"ticks_r{rows}_s{symbols}_seed{seed}.parquet"
    if not (path / "_SUCCESS").exists():
        shutil.rmtree(path, ignore_errors=True)
        frame = stock_ticks(spark, rows, symbols, seed=seed, name="ticks_gen")
        frame.orderBy("symbol", "ts").coalesce(1).write.parquet(str(path))
        frame.unpersist()
    return path


def add_ticks_arguments(parser, default_rows: list[int]) -> None:
    """The options of a benchmark over the Parquet ticks: sizes, symbols, repeats, seed, driver
    memory, the data folder and the JSON lines output."""
    parser.add_argument("--rows", type=int, nargs="+", default=default_rows)
    parser.add_argument("--symbols", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--memory", default="6g")
    parser.add_argument("--data-dir", default=str(HERE / "data"))
    parser.add_argument("--json", help="append results as JSON lines to this file")


def append_records(path: str | None, records: list[dict]) -> None:
    """Append ``records`` as JSON lines to ``path`` (nothing when None)."""
    if path:
        with open(path, "a") as out:
            for rec in records:
                out.write(json.dumps(rec) + "\n")


def floor_seconds(records: list[dict], rows: int) -> tuple[list[dict], float]:
    """The records of one size and that size's Arrow UDTF floor in seconds."""
    mine = [r for r in records if r["rows"] == rows]
    return mine, next(r["seconds"] for r in mine if r["variant"] == "Arrow UDTF floor")


def cached_ticks(spark, rows: int, symbols: int, seed: int, data_dir: Path):
    """The Parquet ticks (``ticks_parquet``) read, cached, counted and registered as ``ticks``;
    returns the Parquet path and the cached frame (``unpersist`` it when done)."""
    data = ticks_parquet(spark, rows, symbols, seed, data_dir)
    ticks = spark.read.parquet(str(data)).persist()
    ticks.count()
    ticks.createOrReplaceTempView("ticks")
    return data, ticks


def run_worker(venv: Path, script: str, args: list[str], queries: list[dict], timeout: float):
    python = venv / "bin" / "python"
    if not python.exists():
        where = venv.relative_to(HERE.parent) if venv.is_relative_to(HERE.parent) else venv.name
        return None, f"skipped: {where} is missing (bash bench/setup_peers.sh makes it)"
    try:
        proc = subprocess.run([str(python), str(HERE / script), *args], input=json.dumps(queries),
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as error:
        lines = (error.stdout or b"")
        lines = lines.decode() if isinstance(lines, bytes) else lines
        done = [json.loads(x) for x in lines.splitlines() if x.startswith("{")]
        return done, f"timed out after {timeout:.0f} s"
    done = [json.loads(x) for x in proc.stdout.splitlines() if x.startswith("{")]
    if proc.returncode != 0 and not done:
        return None, f"failed: {proc.stderr.strip().splitlines()[-1:]}"
    return done, ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--symbols", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--pmr-rows", type=int, default=1_000_000,
                        help="rows (whole symbols) given to pandas-match-recognize, row-local queries")
    parser.add_argument("--pmr-rows-md", type=int, default=20_000,
                        help="the same for the match-dependent queries (pandas-match-recognize "
                             "runs them at a few hundred to a few thousand rows/s)")
    parser.add_argument("--pmr-timeout", type=float, default=900)
    parser.add_argument("--flink-parallelism", type=int, default=2)
    parser.add_argument("--flink-timeout", type=float, default=900)
    parser.add_argument("--skip", nargs="*", default=[], choices=["pmr", "flink"])
    parser.add_argument("--queries", nargs="*", default=list(QUERIES), help="subset of query names")
    parser.add_argument("--data-dir", default=str(HERE / "data"))
    parser.add_argument("--json", help="append results as JSON lines to this file")
    args = parser.parse_args()

    commit = git_commit()
    records: list[dict] = []

    def record(query, engine, text_form, rows, seconds, matches=None, check="", note="", load_max=""):
        records.append({"experiment": "peers", "query": query, "engine": engine, "form": text_form,
                        "rows": rows, "seconds": seconds, "matches": matches, "check": check,
                        "note": note, "total_rows": args.rows, "symbols": args.symbols,
                        "master": args.master, "load": load_max or load(), "commit": commit})

    spark = bench_session(args.master)
    data = ticks_parquet(spark, args.rows, args.symbols, args.seed, Path(args.data_dir))
    ticks = spark.read.parquet(str(data)).persist()
    ticks.count()
    ticks.createOrReplaceTempView("ticks")
    print(f"data: {data} ({args.rows:,} rows, {args.symbols} symbols); load before: {load()}")

    floor = passthrough_floor(spark, "ticks", "symbol", "ts")
    noop(floor)  # warm-up (Python workers, UDTF registration), untimed
    seconds, ld = best_of(lambda: noop(floor), args.repeat)
    record(FLOOR, "Spark", "", args.rows, seconds, load_max=ld)
    seconds, ld = best_of(lambda: noop(spark.sql(LAG_ONLY)), args.repeat)
    record(LAG, "Spark", "", args.rows, seconds, load_max=ld)

    per_symbol = max(1, args.rows // args.symbols)
    pmr_symbols = {}
    spark_counts, sample_counts = {}, {}
    for name in args.queries:
        kind, text, _pmr, _flink = QUERIES[name]
        frame = sparkcep.sql(spark, text)
        seconds, ld = best_of(lambda: noop(frame), args.repeat)
        spark_counts[name] = frame.count()
        limit = args.pmr_rows if kind == "row-local" else args.pmr_rows_md
        pmr_symbols[name] = k = max(1, min(args.symbols, limit // per_symbol))
        spark.sql(f"SELECT * FROM ticks WHERE symbol < {k}").createOrReplaceTempView("ticks_sample")
        sample_counts[name] = (spark_counts[name] if k == args.symbols else
                               sparkcep.sql(spark, text.replace("FROM ticks ", "FROM ticks_sample ")).count())
        record(name, "sparkcep", kind, args.rows, seconds, spark_counts[name], load_max=ld)
    spark.stop()

    peer_notes = []
    if "pmr" not in args.skip:
        queries = [{"name": n, "sql": QUERIES[n][2], "limit_rows": pmr_symbols[n] * per_symbol}
                   for n in args.queries]
        started_load = load()
        results, message = run_worker(HERE / ".venv-pmr", "peer_pmr.py", [str(data)], queries,
                                      args.pmr_timeout)
        if message:
            peer_notes.append(f"pandas-match-recognize: {message}")
        for res in results or []:
            if "error" in res:
                record(res["name"], "pandas-match-recognize", "", 0, None, note=res["error"])
                continue
            expected = sample_counts[res["name"]]
            check = "same" if res["matches"] == expected else f"DIFFERS (sparkcep {expected:,})"
            record(res["name"], "pandas-match-recognize", "same text", res["rows"], res["seconds"],
                   res["matches"], check,
                   "all symbols" if pmr_symbols[res["name"]] == args.symbols
                   else f"first {pmr_symbols[res['name']]} symbols", started_load)
    else:
        peer_notes.append("pandas-match-recognize: skipped (--skip pmr)")
    if "flink" not in args.skip:
        queries = [{"name": n, "sql": QUERIES[n][3]} for n in args.queries
                   if QUERIES[n][3].lstrip().upper().startswith("SELECT")]
        started_load = load()
        results, message = run_worker(
            HERE / ".venv-flink", "peer_flink.py",
            [str(data), "--parallelism", str(args.flink_parallelism), "--repeat", str(args.repeat)],
            queries, args.flink_timeout)
        if message:
            peer_notes.append(f"Flink: {message}")
        for res in results or []:
            if "error" in res:
                record(res["name"], "Flink SQL", "", 0, None, note=res["error"])
                continue
            expected = spark_counts[res["name"]]
            check = "same" if res["matches"] == expected else f"DIFFERS (sparkcep {expected:,})"
            form = "same text" if QUERIES[res["name"]][3] == QUERIES[res["name"]][1].replace(
                "ORDER BY ts", "ORDER BY rowtime") else "LAST() form"
            record(res["name"], "Flink SQL", form, res["rows"], res["seconds"], res["matches"], check,
                   f"batch, parallelism {args.flink_parallelism}, incl. CSV scan", started_load)
        for n in args.queries:
            if not QUERIES[n][3].lstrip().upper().startswith("SELECT"):
                record(n, "Flink SQL", "", 0, None, note="not expressible: " + QUERIES[n][3])
    else:
        peer_notes.append("Flink: skipped (--skip flink)")

    print_report(records, args, peer_notes, commit)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        with open(args.json, "a") as handle:
            for rec in records:
                handle.write(json.dumps(rec) + "\n")


def rate(rec) -> float | None:
    return rec["rows"] / rec["seconds"] if rec["seconds"] else None


def print_report(records, args, notes, commit) -> None:
    floor = next(r for r in records if r["query"] == FLOOR)
    floor_rate = rate(floor)
    print(f"\nrows={args.rows:,} symbols={args.symbols} master={args.master} commit={commit}")
    head = (f"{'query':<36}{'engine':<24}{'rows':>10}{'seconds':>9}{'rows/s':>11}{'x floor':>9}"
            f"{'matches':>10}  check / note")
    print(head)
    print("-" * len(head))
    for rec in records:
        r = rate(rec)
        if r is None:
            print(f"{rec['query']:<36}{rec['engine']:<24}{'':>10}{'':>9}{'-':>11}{'':>9}{'':>10}  {rec['note']}")
            continue
        matches = f"{rec['matches']:,}" if rec["matches"] is not None else ""
        extra = "  ".join(x for x in (rec["check"], rec["note"], f"load {rec['load']}") if x)
        print(f"{rec['query']:<36}{rec['engine']:<24}{rec['rows']:>10,}{rec['seconds']:>9.2f}{r:>11,.0f}"
              f"{floor_rate / r:>9.2f}{matches:>10}  {extra}")
    print("x floor = (seconds per row) / (floor's seconds per row); > 1 is slower than the floor")
    print("\nsparkcep speed-up over each peer (rows/s ratio; > 1 = sparkcep faster):")
    for name in args.queries:
        ours = next((r for r in records if r["query"] == name and r["engine"] == "sparkcep"), None)
        if not ours:
            continue
        parts = []
        for peer in ("pandas-match-recognize", "Flink SQL"):
            theirs = next((r for r in records if r["query"] == name and r["engine"] == peer), None)
            if theirs and rate(theirs):
                parts.append(f"{rate(ours) / rate(theirs):.1f}x vs {peer}")
            else:
                parts.append(f"n/a vs {peer}")
        print(f"  {name:<36}" + ", ".join(parts))
    for note in notes:
        print("note:", note)


if __name__ == "__main__":
    main()
