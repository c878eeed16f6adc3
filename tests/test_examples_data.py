"""Consistency checks for sql_examples/ (no Spark, no sparkcep engine).

* every <name>.sql has <name>.expected.csv and expected/<name>.py, and the script reproduces the
  CSV byte for byte;
* every table a query reads exists as data/<table>.csv + data/<table>.schema, the data matches
  the schema, and data/generate.py reproduces the data;
* each query is one statement ending in a top-level ORDER BY;
* a second, independent derivation of the match spans of several examples with Python's
  backtracking `re` module (leftmost match, greedy/reluctant quantifiers, left alternative
  first, i.e. the SQL:2016 preference rules) over one letter per input row.
"""

from __future__ import annotations

import csv
import importlib.util
import re
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from sparkcep import dialect

ROOT = Path(__file__).resolve().parent.parent / "sql_examples"
DATA = ROOT / "data"
EXPECTED = ROOT / "expected"

EXAMPLES = sorted(p.stem for p in ROOT.glob("*.sql"))
TABLES = sorted(p.stem for p in DATA.glob("*.csv"))

# The ORDER BY key of each table's partitions in the examples: (partition column, order column).
ORDER_KEYS = {
    "stock_ticks": ("symbol", "ts"),
    "clicks": ("user_id", "ts"),
    "card_txns": ("card_id", "ts"),
    "sensor_readings": ("sensor_id", "ts"),
    "rfid_reads": ("item_tag", "ts"),
}


def _module(path: Path, name: str):
    if str(EXPECTED) not in sys.path:
        sys.path.insert(0, str(EXPECTED))  # the scripts do `from _common import ...`
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


common = _module(EXPECTED / "_common.py", "_examples_common")


def _sql_code(name: str) -> str:
    """The query without comments and string literals."""
    text = (ROOT / f"{name}.sql").read_text()
    text = re.sub(r"--[^\n]*", " ", text)
    return re.sub(r"'[^']*'", "''", text)


def _read_csv(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_there_are_examples():
    assert len(EXAMPLES) >= 9
    readme = (ROOT / "README.md").read_text()
    for name in EXAMPLES:
        assert f"`{name}`" in readme, f"{name} is not listed in sql_examples/README.md"


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_files_exist(name):
    assert (ROOT / f"{name}.expected.csv").is_file()
    assert (EXPECTED / f"{name}.py").is_file()


@pytest.mark.parametrize("name", EXAMPLES)
def test_expected_script_reproduces_csv(name):
    mod = _module(EXPECTED / f"{name}.py", f"_expected_{name}")
    assert mod.NAME == name
    want = (ROOT / f"{name}.expected.csv").read_text()
    got = common.render(mod.COLUMNS, mod.compute())
    assert got == want, f"expected/{name}.py no longer reproduces {name}.expected.csv"
    assert want.count("\n") >= 2, "an example should return at least one row"


@pytest.mark.parametrize("name", EXAMPLES)
def test_query_shape(name):
    code = _sql_code(name).strip()
    assert code.endswith(";") and code.count(";") == 1, "exactly one statement, ';'-terminated"
    assert dialect.contains_match_recognize(code), "row pattern recognition (MATCH_RECOGNIZE or a window's PATTERN)"
    tail = code[code.rfind(")") + 1:]
    assert re.search(r"\bORDER\s+BY\b", tail, re.I), "needs a top-level ORDER BY"


@pytest.mark.parametrize("name", EXAMPLES)
def test_referenced_tables_exist(name):
    code = _sql_code(name)
    ctes = set(re.findall(r"(?:\bWITH|,)\s+([A-Za-z_]\w*)\s+AS\s*\(", code, re.I))
    tables = set(re.findall(r"\b(?:FROM|JOIN)\s+([A-Za-z_]\w*)", code, re.I)) - ctes
    assert tables, "no table found"
    for t in tables:
        assert (DATA / f"{t}.csv").is_file(), f"{name}.sql reads {t}: data/{t}.csv missing"
        assert (DATA / f"{t}.schema").is_file(), f"{name}.sql reads {t}: data/{t}.schema missing"


@pytest.mark.parametrize("table", TABLES)
def test_data_matches_schema(table):
    cols = common.schema(table)
    assert all(t.upper() in ("STRING", "BIGINT", "INT", "DOUBLE", "TIMESTAMP") for _, t in cols)
    with open(DATA / f"{table}.csv", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == [c for c, _ in cols]
    assert 1 <= len(rows) - 1 <= 200
    for rec in rows[1:]:
        assert len(rec) == len(cols)
        for (c, t), v in zip(cols, rec):
            assert v != "", f"{table}.{c}: no NULLs in input data"
            t = t.upper()
            if t == "TIMESTAMP":
                assert datetime.strptime(v, "%Y-%m-%d %H:%M:%S").strftime("%Y-%m-%d %H:%M:%S") == v
            elif t in ("BIGINT", "INT"):
                assert str(int(v)) == v
            elif t == "DOUBLE":
                assert repr(round(float(v), 6)) == v
    typed = common.load(table)  # also checks the header
    if table in ORDER_KEYS:
        part, order = ORDER_KEYS[table]
        keys = [(r[part], r[order]) for r in typed]
        assert len(set(keys)) == len(keys), f"ties in ({part}, {order})"
        assert len({r[part] for r in typed}) >= 3, "a few partitions per table"


def test_generate_reproduces_data(tmp_path):
    gen = _module(DATA / "generate.py", "_examples_generate")
    gen.main(str(tmp_path))
    produced = sorted(p.name for p in tmp_path.iterdir())
    bundled = sorted(p.name for p in DATA.iterdir() if p.suffix in (".csv", ".schema"))
    assert produced == bundled
    for fname in produced:
        assert (tmp_path / fname).read_bytes() == (DATA / fname).read_bytes(), fname


# ---------------------------------------------------------------------------------------------
# Independent re-derivation of match spans with Python's `re` (one character per row).


def _parts(table: str) -> list[tuple[str, list[dict]]]:
    part, order = ORDER_KEYS[table]
    return common.partitions(common.load(table), part, order)


def _ts(r) -> str:
    return r["ts"].strftime("%Y-%m-%d %H:%M:%S")


def _price_moves(rows) -> str:
    p = [r["price"] for r in rows]
    return "x" + "".join("u" if b > a else "d" if b < a else "f" for a, b in zip(p, p[1:]))


def _expected(name: str) -> list[dict]:
    return _read_csv(ROOT / f"{name}.expected.csv")


def test_regex_v_shape():
    got = []
    for sym, rows in _parts("stock_ticks"):
        for m in re.finditer(r".d+u+", _price_moves(rows)):
            got.append((sym, _ts(rows[m.start()]), _ts(rows[m.end() - 1])))
    want = [(r["symbol"], r["start_ts"], r["end_ts"]) for r in _expected("stock_v_shape")]
    assert got == want


def test_regex_w_shape_skip_to_last_up():
    got, rx = [], re.compile(r".d+u+d+u+")
    for sym, rows in _parts("stock_ticks"):
        s, pos = _price_moves(rows), 0
        while (m := rx.search(s, pos)) is not None:
            got.append((sym, _ts(rows[m.start()]), _ts(rows[m.end() - 1])))
            pos = m.end() - 1  # SKIP TO LAST UP
    want = [(r["symbol"], r["start_ts"], r["end_ts"]) for r in _expected("stock_w_shape")]
    assert got == want


def test_regex_rally_all_rows_labels():
    got = []
    for sym, rows in _parts("stock_ticks"):
        for m in re.finditer(r"(.)(u+)(d+)", _price_moves(rows)):
            labels = ["STRT"] + ["UP"] * len(m.group(2)) + ["DOWN"] * len(m.group(3))
            got += [(sym, _ts(rows[m.start() + k]), lab) for k, lab in enumerate(labels)]
    want = [(r["symbol"], r["ts"], r["phase"]) for r in _expected("stock_rally_pullback_all_rows")]
    assert got == want


def test_regex_sessions():
    got = []
    for user, rows in _parts("clicks"):
        s = "a" + "".join("b" if b["ts"] - a["ts"] < timedelta(minutes=30) else "a"
                          for a, b in zip(rows, rows[1:]))
        for m in re.finditer(r".b*", s):
            got.append((user, _ts(rows[m.start()]), _ts(rows[m.end() - 1]), m.end() - m.start()))
    want = [(r["user_id"], r["session_start"], r["session_end"], int(r["events"]))
            for r in _expected("click_sessions")]
    assert got == want


def _anomalies(rows) -> str:
    return "".join({(False, False): "n", (True, False): "h", (False, True): "s",
                    (True, True): "b"}[(r["temp_c"] > 85, r["vibration_mm_s"] > 7)] for r in rows)


def test_regex_permute_pairs():
    got = []
    for sensor, rows in _parts("sensor_readings"):
        for m in re.finditer(r"[hb][sb]|[sb][hb]", _anomalies(rows)):  # PERMUTE order
            got.append((sensor, _ts(rows[m.start()]), _ts(rows[m.end() - 1])))
    want = [(r["sensor_id"], r["first_ts"], max(r["hot_ts"], r["shaky_ts"]))
            for r in _expected("sensor_anomaly_pair_permute")]
    assert got == want


def test_regex_nearest_reluctant():
    got = []
    for sensor, rows in _parts("sensor_readings"):
        for m in re.finditer(r"[hb].{0,3}?[sb]|[sb].{0,3}?[hb]", _anomalies(rows)):
            got.append((sensor, _ts(rows[m.start()]), _ts(rows[m.end() - 1]),
                        m.end() - m.start() - 2))
    want = [(r["sensor_id"], r["window_start"], r["window_end"], int(r["readings_between"]))
            for r in _expected("sensor_anomaly_nearest")]
    assert got == want


def test_regex_spike_flags():
    got = []
    for sensor, rows in _parts("sensor_readings"):
        s = "".join("h" if r["temp_c"] > 85 else "n" for r in rows)
        in_spike = {k for m in re.finditer(r"h{2,}", s) for k in range(m.start(), m.end())}
        got += [(sensor, _ts(r), k in in_spike) for k, r in enumerate(rows)]
    want = [(r["sensor_id"], r["ts"], r["spike_no"] != "") for r in _expected("sensor_spike_flags")]
    assert got == want


def test_regex_checkout_funnel():
    code = {"product": "p", "cart": "c", "checkout": "k", "purchase": "o"}
    shopping = [r for r in common.load("clicks") if r["page"] in code]
    got = []
    for user, rows in common.partitions(shopping, "user_id", "ts"):
        for m in re.finditer(r"p+c+ko?", "".join(code[r["page"]] for r in rows)):
            got.append((user, _ts(rows[m.start()]), _ts(rows[m.end() - 1])))
    want = [(r["user_id"], r["first_product_ts"], r["purchase_ts"] or r["checkout_ts"])
            for r in _expected("checkout_funnel_cte")]
    assert got == want
