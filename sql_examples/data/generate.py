"""Generate the small input tables bundled with sql_examples/.

Deterministic: a fixed seed per table, no wall-clock input. Re-running it rewrites
data/*.csv and data/*.schema byte-for-byte identically (tests/test_examples_data.py checks this).

    .venv/bin/python sql_examples/data/generate.py [OUT_DIR]

Conventions (see sql_examples/README.md): CSV with a header row, ',' separator, '\n' line ends,
timestamps as 'YYYY-MM-DD HH:MM:SS' (naive, read them with spark.sql.session.timeZone=UTC),
doubles in Python's shortest round-trip form, NULL as an empty field (no table has NULLs today).
Each <table>.schema holds one Spark DDL schema string.

All names (tickers, users, cards, sensors, merchants) are fictional.
"""

from __future__ import annotations

import csv
import random
import sys
from datetime import date, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent

SCHEMAS = {
    "stock_ticks": "symbol STRING, ts TIMESTAMP, price DOUBLE",
    "companies": "symbol STRING, company STRING, sector STRING",
    "clicks": "user_id STRING, ts TIMESTAMP, page STRING",
    "users": "user_id STRING, country STRING, plan STRING",
    "card_txns": "txn_id BIGINT, card_id STRING, ts TIMESTAMP, amount DOUBLE, merchant STRING",
    "sensor_readings": "sensor_id STRING, ts TIMESTAMP, temp_c DOUBLE, vibration_mm_s DOUBLE",
    "hadoop_log": "event_id BIGINT, ts TIMESTAMP, job_id STRING, task_id STRING, node_id STRING, "
                  "event STRING, period_s DOUBLE, bytes BIGINT, val DOUBLE",
    "cluster_events": "event_id BIGINT, node STRING, t_lo TIMESTAMP, t_hi TIMESTAMP, kind STRING, "
                      "task STRING, cpu DOUBLE",
    "rfid_reads": "read_id BIGINT, item_tag STRING, ts TIMESTAMP, event STRING, location STRING",
}


def fmt(v):
    if v is None:
        return ""
    if isinstance(v, datetime):
        return v.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(v, float):
        return repr(round(v, 6))
    return str(v)


def write_table(out: Path, name: str, rows: list[tuple]) -> None:
    cols = [c.strip().split()[0] for c in SCHEMAS[name].split(",")]
    with open(out / f"{name}.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(cols)
        for r in rows:
            assert len(r) == len(cols), (name, r)
            w.writerow([fmt(v) for v in r])
    (out / f"{name}.schema").write_text(SCHEMAS[name] + "\n")


# ---------------------------------------------------------------------------------------------
# stock_ticks: daily closing prices (16:00) for 3 tickers over 40 trading days.
# A random walk in whole cents, with a few designed stretches so that every stock example has
# matches (V and W shapes, long rising runs, a flat day that breaks a run).


def trading_days(start: date, n: int) -> list[date]:
    out, d = [], start
    while len(out) < n:
        if d.weekday() < 5:
            out.append(d)
        d += timedelta(days=1)
    return out


def stock_ticks() -> list[tuple]:
    rng = random.Random(20240304)
    days = trading_days(date(2024, 3, 4), 40)
    # Per ticker: start price (cents) and an optional designed move script: a string of
    # 'u' (up), 'd' (down), 'f' (flat) used for the first len(script) moves; the rest random.
    tickers = {
        # V, then a W, then a long rally, a flat day inside a decline
        "ACME": (10250, "ddduu" "dduudu" "uuuuuu" "ddfdduu"),
        # choppy: many short V's, a long slide, then a strong rally that breaks the 10% cap
        "GLOBX": (4310, "dudu" "dddddd" "uuuuuuu" "duddu"),
        # mostly random
        "INITC": (18875, "uuu" "ddd" "uuuu"),
    }
    rows = []
    for sym, (start, script) in tickers.items():
        price = start
        for i, d in enumerate(days):
            if i > 0:
                move = script[i - 1] if i - 1 < len(script) else rng.choice("uuudddf")
                step = rng.randint(max(1, price // 200), max(2, price // 45))  # ~0.5%..2.2%
                if move == "u":
                    price += step
                elif move == "d":
                    price -= step
                # 'f' (or ' ') keeps the price: a flat day is neither UP nor DOWN
            rows.append((sym, datetime(d.year, d.month, d.day, 16, 0, 0), price / 100))
    return rows


def companies() -> list[tuple]:
    return [
        ("ACME", "Acme Anvils plc", "Industrials"),
        ("GLOBX", "Globex Logistics", "Industrials"),
        ("INITC", "Initech Software", "Technology"),
        ("UMBR", "Umbrella Health", "Healthcare"),  # no ticks: drops out of inner joins
    ]


# ---------------------------------------------------------------------------------------------
# clicks: web clickstream of 5 users over two days. Sessions are built from page templates;
# the gaps inside a session are < 30 minutes, the gaps between sessions >= 30 minutes, with two
# designed boundary cases: a gap of exactly 30:00 (new session) and 29:59 (same session).

TEMPLATES = {
    "browse": ["home", "search", "product", "product", "home"],
    "buy": ["home", "product", "cart", "checkout", "purchase"],
    "abandon": ["search", "product", "product", "cart", "checkout", "help"],
    "quick": ["product"],
    "support": ["help", "help", "home"],
    "compare": ["search", "product", "cart", "product", "cart", "cart", "checkout", "purchase"],
}


def clicks() -> list[tuple]:
    rng = random.Random(7)
    # (user, first event, [(template, gap before this session in minutes or None, special)])
    plan = {
        "u01": (datetime(2024, 6, 3, 8, 12, 5), ["buy", "browse", "quick"]),
        "u02": (datetime(2024, 6, 3, 9, 40, 30), ["abandon", "compare"]),
        "u03": (datetime(2024, 6, 3, 11, 2, 0), ["browse", "support", "buy", "quick"]),
        "u04": (datetime(2024, 6, 3, 19, 55, 10), ["compare"]),
        "u05": (datetime(2024, 6, 3, 22, 30, 45), ["quick", "browse", "abandon"]),
    }
    rows = []
    for user, (t, sessions) in plan.items():
        for si, tmpl in enumerate(sessions):
            if si > 0:
                t += timedelta(minutes=rng.randint(45, 600))
            for pi, page in enumerate(TEMPLATES[tmpl]):
                if pi > 0:
                    t += timedelta(minutes=rng.randint(1, 20), seconds=rng.randint(0, 59))
                rows.append((user, t, page))
    # Boundary cases, appended to u02 and u04 after their last event.
    last = {u: max(r[1] for r in rows if r[0] == u) for u in ("u02", "u04")}
    t = last["u02"] + timedelta(minutes=30)  # exactly 30:00 later -> starts a new session
    rows.append(("u02", t, "home"))
    rows.append(("u02", t + timedelta(minutes=29, seconds=59), "product"))  # 29:59 -> same session
    rows.append(("u02", t + timedelta(minutes=59, seconds=58), "cart"))  # 29:59 again
    t = last["u04"] + timedelta(minutes=29, seconds=59)  # same session as the 'compare' one
    rows.append(("u04", t, "help"))
    rows.sort(key=lambda r: (r[0], r[1]))
    return rows


def users() -> list[tuple]:
    return [
        ("u01", "DE", "pro"),
        ("u02", "FR", "free"),
        ("u03", "DE", "free"),
        ("u04", "US", "pro"),
        ("u05", "US", "free"),
        ("u06", "JP", "pro"),  # never clicked
    ]


# ---------------------------------------------------------------------------------------------
# card_txns: card transactions. Normal spending (10.00..180.00, 20 min..9 h apart) with designed
# "card testing" bursts: several small (< 10.00) charges followed by a large (>= 200.00) one.

MERCHANTS = ["GroceryMart", "CityFuel", "BookNook", "CafeLuna", "PharmaPlus", "StreamFlix",
             "TransitPass", "HardwareHub"]
SHADY = ["gift-cards-24", "e-vouchers.example", "topup-now", "digital-goods-x"]


def card_txns() -> list[tuple]:
    rng = random.Random(4242)

    def normal(t0: datetime, n: int) -> tuple[list[tuple], datetime]:
        out, t = [], t0
        for _ in range(n):
            t += timedelta(minutes=rng.randint(20, 540), seconds=rng.randint(0, 59))
            out.append((t, rng.randint(1000, 18000) / 100, rng.choice(MERCHANTS)))
        return out, t

    def burst(t0: datetime, offsets_s: list[int], amounts: list[float]) -> tuple[list, datetime]:
        out = [(t0 + timedelta(seconds=o), a, rng.choice(SHADY)) for o, a in zip(offsets_s, amounts)]
        return out, out[-1][0]

    # Each card: a script of ("n", count) normal stretches and ("b", offsets_s, amounts) bursts.
    scripts = {
        # 3 small in 4 minutes, big 6:40 after the first small -> fraud match
        "card-1001": [("n", 5), ("b", [0, 70, 235, 400], [3.5, 1.0, 7.25, 849.99]), ("n", 4),
                      # small, small, normal(!), small, big: the normal charge breaks contiguity
                      ("b", [0, 50, 130, 200, 260], [2.0, 4.99, 35.0, 1.5, 420.0]), ("n", 2)],
        # 5 small spanning 12 min, big at +14 min: starts at the 1st and 2nd small fail the
        # 10-minute window; the match starts at the 3rd small (3 small + big)
        "card-1002": [("n", 3), ("b", [0, 180, 360, 540, 720, 840],
                                   [1.0, 2.0, 3.0, 4.0, 5.0, 999.0]), ("n", 6)],
        # 2 small then big -> too few small; later 4 small then a 150.00 -> not big;
        # later 3 small then big at 9:50 -> match
        "card-1003": [("n", 2), ("b", [0, 60, 120], [9.99, 9.99, 500.0]), ("n", 3),
                      ("b", [0, 30, 60, 90, 120], [0.99, 0.99, 0.99, 0.99, 150.0]), ("n", 2),
                      ("b", [0, 200, 400, 590], [6.0, 8.0, 5.0, 1200.0]), ("n", 2)],
        # 3 small then big 12 min after the first small -> no match; then two bigs in a row;
        # later 4 small summing to 38.40 (>= 30) then big: the start at the 1st small fails the
        # SUM condition, the start at the 2nd small (3 small, 28.90) matches
        "card-1004": [("n", 4), ("b", [0, 240, 480, 720], [4.0, 4.5, 5.0, 300.0]),
                      ("b", [1500, 1560], [250.0, 260.0]), ("n", 3),
                      ("b", [0, 60, 120, 180, 300], [9.5, 9.75, 9.25, 9.9, 640.0]), ("n", 2)],
    }
    rows, txn_id = [], 50001
    for ci, (card, script) in enumerate(scripts.items()):
        t = datetime(2024, 5, 6, 7, 0, 0) + timedelta(minutes=37 * ci)
        for step in script:
            if step[0] == "n":
                part, t = normal(t, step[1])
            else:
                part, t_end = burst(t + timedelta(minutes=rng.randint(30, 180)), step[1], step[2])
                t = t_end
            for ts, amount, merchant in part:
                rows.append([None, card, ts, amount, merchant])
    rows.sort(key=lambda r: (r[2], r[1]))  # txn ids increase with time across all cards
    for r in rows:
        r[0] = txn_id
        txn_id += 1
    rows.sort(key=lambda r: (r[1], r[2]))
    return [tuple(r) for r in rows]


# ---------------------------------------------------------------------------------------------
# sensor_readings: 3 machines, one reading every 5 minutes for 40 readings each.
# Normal: temp_c in [52, 72], vibration_mm_s in [1.2, 4.8]. HOT means temp_c > 85,
# SHAKY means vibration_mm_s > 7 (the examples' thresholds); injected values stay far from them.

SENSOR_EVENTS = {
    # index -> set of anomalies injected at that reading
    "press-01": {5: "H", 6: "S", 12: "S", 13: "H", 20: "HS", 21: "S", 30: "H", 31: "H", 32: "H"},
    "press-02": {8: "HS", 9: "H", 15: "H", 18: "S", 19: "S", 25: "H", 30: "S",
                 33: "H", 34: "H", 37: "H"},
    "pump-07": {4: "S", 6: "H", 7: "S", 10: "H", 11: "H", 12: "H", 13: "H",
                20: "H", 21: "H", 22: "S", 36: "S", 37: "HS"},
}


def sensor_readings() -> list[tuple]:
    rng = random.Random(99)
    rows = []
    for si, (sensor, events) in enumerate(SENSOR_EVENTS.items()):
        t0 = datetime(2024, 7, 1, 8, 0, 0) + timedelta(minutes=si)  # offsets keep it realistic
        for i in range(40):
            temp = round(rng.uniform(52, 72), 1)
            vib = round(rng.uniform(1.2, 4.8), 1)
            ev = events.get(i, "")
            if "H" in ev:
                temp = round(rng.uniform(86, 97), 1)
            if "S" in ev:
                vib = round(rng.uniform(7.6, 11.5), 1)
            rows.append((sensor, t0 + timedelta(minutes=5 * i), temp, vib))
    return rows


# ---------------------------------------------------------------------------------------------
# hadoop_log: one merged monitoring stream of a small Hadoop cluster (4 worker nodes), 09:00 to
# ~09:50: the Hadoop job/task log of 4 concurrent jobs plus a Ganglia sample every minute.
# Layout after seed 000 §6.5 (SASE++ Hadoop case study); the jobs, sizes and timings are
# invented. Columns that do not apply to an event are 0 / 0.0 (the table has no NULLs):
#  * job events (JobStart, JobEnd, JobKilled): task_id = job_id, node_id 'master';
#  * map attempts: MapStart, MapEnd (period_s = run time, bytes = map output), MapFailed;
#  * reduce tasks: ReduceStart, DataPull (one shuffle fetch per map output: period_s = fetch
#    time, bytes = fetched), ReduceProgress (val = fraction done), ReduceEnd (period_s = run
#    time, bytes = reduce output);
#  * Ganglia: one LoadStd sample a minute (job_id 'cluster', task_id 'ganglia', node_id
#    'gmeta'; val = standard deviation of the CPU load across the nodes). A sample is
#    "balanced" below 1.0. Reducers marked skewed push it up while they run.
# Every timestamp is unique in the whole table (so in every partition too), and event_id
# increases with ts.

HADOOP_JOBS = [
    # job_id, start (s after 09:00), maps, reducers: (skewed, slow last fetch), fate
    ("job_01", 70, 5, [(True, False), (False, False)], "JobEnd"),
    ("job_02", 250, 4, [(False, False), (True, True)], "JobEnd"),
    ("job_03", 700, 4, [(False, False), (True, True)], "JobEnd"),
    ("job_04", 1500, 3, [(True, False)], "JobKilled"),
    ("job_05", 1830, 4, [(False, True), (True, False)], "JobEnd"),
]


def hadoop_log() -> list[tuple]:
    rng = random.Random(650)
    t0 = datetime(2024, 9, 16, 9, 0, 0)
    ev = []  # [seconds, job, task, node, event, period_s, bytes, val]
    nodes = ["n01", "n02", "n03", "n04"]
    reducers = []  # (start_s, end_s, skewed) for the load model

    for job, start, n_maps, reds, fate in HADOOP_JOBS:
        ev.append([start, job, job, "master", "JobStart", 0.0, 0, 0.0])
        map_ends = []
        for m in range(n_maps):
            task, node = f"{job}_m_{m}", nodes[(m + len(job)) % 4]
            s = start + rng.randint(5, 40)
            if job == "job_02" and m == 1:  # a failed first attempt, retried on another node
                run = rng.randint(30, 60)
                ev.append([s, job, task, node, "MapStart", 0.0, 0, 0.0])
                ev.append([s + run, job, task, node, "MapFailed", float(run), 0, 0.0])
                s, node = s + run + rng.randint(3, 9), nodes[(m + 1) % 4]
            run = rng.randint(60, 170)
            if job == "job_03" and m == 3:  # a straggling mapper: its output comes 9 min later
                run += 600
            out = rng.randint(40, 160) * 1_000_000
            ev.append([s, job, task, node, "MapStart", 0.0, 0, 0.0])
            ev.append([s + run, job, task, node, "MapEnd", float(run), out, 0.0])
            map_ends.append((s + run, out))
        map_ends.sort()
        for r, (skewed, slow_last) in enumerate(reds):
            task, node = f"{job}_r_{r}", nodes[(r + 2 + len(job)) % 4]
            rs = map_ends[0][0] + rng.randint(8, 30)
            ev.append([rs, job, task, node, "ReduceStart", 0.0, 0, 0.0])
            t = rs
            for k, (m_end, out) in enumerate(map_ends):
                t = max(t, m_end) + rng.randint(4, 25)
                fetch = rng.randint(20, 90) / 10  # 2.0 .. 9.0 s
                if slow_last and k == len(map_ends) - 1:
                    fetch = rng.randint(300, 400) / 10  # a fetch from an overloaded node
                share = out // len(reds)  # the last reducer fetches the rest
                if r == len(reds) - 1:
                    share = out - (len(reds) - 1) * share
                ev.append([t, job, task, node, "DataPull", fetch, share, 0.0])
                if k == 1:
                    ev.append([t + rng.randint(3, 15), job, task, node, "ReduceProgress", 0.0, 0,
                               round(0.33 + rng.random() * 0.1, 2)])
            if fate == "JobKilled":
                reducers.append((rs, t + 60, skewed))
                continue
            re_ = t + rng.randint(30, 100)
            ev.append([re_, job, task, node, "ReduceEnd", float(re_ - rs),
                       rng.randint(5, 30) * 1_000_000, 0.0])
            reducers.append((rs, re_, skewed))
        last = max(e[0] for e in ev if e[1] == job)
        ev.append([last + rng.randint(5, 20), job, job, "master", fate, 0.0, 0, 0.0])

    # Unique timestamps: each event moves to the next free second that is not a whole minute
    # (whole minutes are the Ganglia samples'). Each task's events keep their order.
    ev.sort(key=lambda e: e[0])
    used = set()
    for e in ev:
        while e[0] in used or e[0] % 60 == 0:
            e[0] += 1
        used.add(e[0])
    end = max(e[0] for e in ev) + 120
    for minute in range(0, end // 60 + 1):
        s = 60 * minute
        load = 0.25 + rng.random() * 0.45
        for rs, re_, skewed in reducers:
            if rs <= s < re_:
                load += min(1.9, 0.2 * (s - rs) / 60 + 0.5) if skewed else 0.1
        ev.append([s, "cluster", "ganglia", "gmeta", "LoadStd", 0.0, 0, round(load, 2)])
    ev.sort(key=lambda e: e[0])
    return [(9_000_001 + i, t0 + timedelta(seconds=s), job, task, node, event, period, nbytes, val)
            for i, (s, job, task, node, event, period, nbytes, val) in enumerate(ev)]


# ---------------------------------------------------------------------------------------------
# cluster_events: task and CPU events of 3 nodes whose clocks are only known to within a few
# seconds (imprecise timestamps, Zhang, Diao, Immerman, PVLDB 2010): each event carries the
# interval [t_lo, t_hi] of the whole seconds it may have occurred at. A task's TaskStart and
# TaskFinish are logged by the scheduler (+-1 s of skew); a CpuSample (kind 'CpuSample', task
# '-') reports the CPU load of some second of the 2 to 4 s before it is written. Columns that do
# not apply are '-' / 0.0 (no NULLs). Rows are in event_id order, which increases with t_lo.

CLUSTER_TASKS = {
    # node: [(task, start s, run time s)], seconds after 10:00:00
    "node-a": [("t-101", 3, 9), ("t-102", 30, 14), ("t-103", 60, 5)],
    "node-b": [("t-201", 5, 12), ("t-202", 26, 16)],
    "node-c": [("t-301", 10, 7), ("t-302", 40, 11)],
}


def cluster_events() -> list[tuple]:
    rng = random.Random(1414)
    t0 = datetime(2024, 10, 7, 10, 0, 0)
    events = []  # (t_lo s, t_hi s, node, kind, task, cpu)
    for node, tasks in CLUSTER_TASKS.items():
        busy = []
        for task, start, run in tasks:
            events.append((start - 1, start + 1, node, "TaskStart", task, 0.0))
            events.append((start + run - 1, start + run + 1, node, "TaskFinish", task, 0.0))
            busy.append((start, start + run))
        for t in range(2, 76, 4):  # one sample written every 4 s
            hot = any(s <= t <= e for s, e in busy) and rng.random() < 0.5
            cpu = round(rng.uniform(95.5, 99.9) if hot else rng.uniform(20.0, 90.0), 1)
            width = rng.choice([2, 3, 4])
            events.append((t - width, t, node, "CpuSample", "-", cpu))
    events.sort(key=lambda e: (e[0], e[2], e[3], e[4], e[1]))
    return [(7_000_001 + i, node, t0 + timedelta(seconds=lo), t0 + timedelta(seconds=hi), kind, task, cpu)
            for i, (lo, hi, node, kind, task, cpu) in enumerate(events)]


# Scan & Go store: each item's RFID tag is read when it is picked from a shelf ('pick', the shelf),
# by ceiling antennas ('seen', the zone), at the exit gate ('exit'); the app's payment for it is
# logged as 'paid' (it may arrive minutes after the customer walked out). Per tag, (minute,
# second, event, location) from 10:00.
RFID_STORIES = {
    "tag_01": [(0, 0, "pick", "shelf_a1"), (3, 10, "seen", "zone_2"), (5, 0, "exit", "gate_1"),
               (8, 30, "paid", "app")],  # paid after leaving, within 15 min: fine
    "tag_02": [(2, 0, "pick", "shelf_b4"), (6, 0, "exit", "gate_2")],  # never paid
    "tag_03": [(10, 0, "pick", "shelf_c2"), (20, 0, "exit", "gate_1"),
               (26, 0, "paid", "app")],  # paid 16 min after the pick: too late
    "tag_04": [(30, 0, "pick", "shelf_a3"), (40, 0, "exit", "gate_2"),
               (45, 0, "paid", "app")],  # paid exactly 15 min after the pick: outside the window
    "tag_05": [(60, 0, "pick", "shelf_d1"), (63, 0, "paid", "app"),
               (66, 0, "exit", "gate_1")],  # paid before leaving
    "tag_06": [(70, 0, "pick", "shelf_b1"), (86, 0, "exit", "gate_2")],  # left 16 min after pick
    "tag_07": [(120, 0, "pick", "shelf_c4"), (124, 0, "pick", "shelf_c4"),
               (126, 0, "seen", "zone_3"), (128, 0, "exit", "gate_1")],  # picked twice, unpaid
    "tag_08": [(130, 0, "pick", "shelf_a2"), (131, 0, "exit", "gate_2"), (134, 59, "paid", "app"),
               (150, 0, "pick", "shelf_a2"), (152, 0, "exit", "gate_1")],  # bought, then again
}


def rfid_reads() -> list[tuple]:
    rng = random.Random(1515)
    t0 = datetime(2024, 11, 2, 10, 0, 0)
    reads = []
    for tag, story in RFID_STORIES.items():
        for minute, second, event, location in story:
            reads.append((t0 + timedelta(minutes=minute, seconds=second), tag, event, location))
        first = story[0][0] * 60 + story[0][1]
        for _ in range(3):  # ceiling antennas read the tag now and then while it is in the store
            at = first + rng.randint(20, 200)
            reads.append((t0 + timedelta(seconds=at), tag, "seen",
                          rng.choice(["zone_1", "zone_2", "zone_3"])))
    reads.sort()
    seen = set()
    unique = []
    for r in reads:  # one read per tag and second (the ORDER BY key has no ties)
        if (r[1], r[0]) not in seen:
            seen.add((r[1], r[0]))
            unique.append(r)
    return [(9_000_001 + i, tag, ts, event, location)
            for i, (ts, tag, event, location) in enumerate(unique)]


TABLES = {
    "stock_ticks": stock_ticks,
    "companies": companies,
    "clicks": clicks,
    "users": users,
    "card_txns": card_txns,
    "sensor_readings": sensor_readings,
    "hadoop_log": hadoop_log,
    "cluster_events": cluster_events,
    "rfid_reads": rfid_reads,
}


def main(out_dir: str | None = None) -> None:
    out = Path(out_dir) if out_dir else HERE
    out.mkdir(parents=True, exist_ok=True)
    for name, fn in TABLES.items():
        write_table(out, name, fn())


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
