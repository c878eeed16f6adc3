"""Apache Superset against `sparkcep serve`, end to end, in headless Chromium.

Starts `sparkcep serve` (Thrift, loopback) with the bundled ticks and a Superset web server
configured by superset_config.py (beside this file) in a temporary folder; then, through
Superset's REST API: adds the database (`hive://superset@127.0.0.1:PORT/default`), lists the
tables of `default` as the table browser does, reads ticks' columns and makes a physical dataset
of it, runs a MATCH_RECOGNIZE statement, a mistake (sparkcep's message, no Java stack trace) and
a pattern in a WINDOW clause (SQL:2016 R020) in SQL Lab, saves the statement as a virtual
dataset, builds a bar chart on it and fetches the chart's data; then, in headless Chromium
(Playwright driving Debian's chromium): signs in, opens ticks in SQL Lab's table browser, runs
the three statements in SQL Lab's editor and opens the chart, and takes a screenshot of each.
Everything it started is stopped at the end, also on failure.

Run it with the Python of Superset's environment (examples/superset/setup.sh makes one), from
the repository, whose own environment (.venv) has sparkcep:

    ../venv-superset/bin/python examples/superset/run_demo.py [--out docs/img]

Options: --sparkcep (the `sparkcep` command; default .venv/bin/sparkcep), --chromium (default:
`chromium` on PATH), --out (folder of the PNGs), --keep (keep the temporary folder and print it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

import requests

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

QUERY = """SELECT symbol, match_no, start_ts, top, bottom,
       round(100 * (top - bottom) / top, 2) AS drop_pct, minutes
FROM ticks MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ts
  MEASURES MATCH_NUMBER() AS match_no, PEAK.ts AS start_ts, PEAK.price AS top,
           LAST(DOWN.price) AS bottom, COUNT(*) AS minutes
  ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
  PATTERN (PEAK DOWN{2,} UP+)
  DEFINE DOWN AS DOWN.price < PREV(DOWN.price),
         UP   AS UP.price > PREV(UP.price))"""

# a mistake sparkcep rejects: its typed error reaches SQL Lab
MISTAKE = """SELECT * FROM ticks MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ts
  MEASURES LAST(C.price) AS p
  PATTERN (A B+) DEFINE B AS B.price > PREV(B.price))"""

# row pattern recognition in a WINDOW clause (SQL:2016 R020): every row, with the rising run that
# starts on it within the next 4 ticks
WINDOW_QUERY = """SELECT symbol, ts, price,
       up_ticks OVER w AS up_ticks, peak OVER w AS peak_price, count(*) OVER w AS run_rows
FROM ticks
WINDOW w AS (
  PARTITION BY symbol ORDER BY ts
  MEASURES COUNT(UP.*) AS up_ticks, LAST(UP.price) AS peak
  ROWS BETWEEN CURRENT ROW AND 4 FOLLOWING
  AFTER MATCH SKIP PAST LAST ROW
  INITIAL
  PATTERN (STRT UP+)
  DEFINE UP AS UP.price > PREV(UP.price))
ORDER BY symbol, ts"""

ADMIN = ("admin", "admin-demo-only")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def log(message: str, start: float) -> None:
    print(f"[{time.monotonic() - start:6.1f} s] {message}", flush=True)


def stop(process: subprocess.Popen | None, grace: float = 30.0) -> None:
    """SIGTERM to the process group `process` leads (started with start_new_session), then SIGKILL."""
    if process is None or process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def wait_for_line(path: Path, marker: str, process: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if marker in path.read_text(errors="replace"):
            return
        if process.poll() is not None:
            raise SystemExit(f"{process.args[0]} exited early:\n{path.read_text()[-3000:]}")
        time.sleep(0.5)
    raise SystemExit(f"timed out waiting for {marker!r} in {path}")


def wait_http(url: str, process: subprocess.Popen, log_path: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if requests.get(url, timeout=5).ok:
                return
        except requests.RequestException:
            pass
        if process.poll() is not None:
            raise SystemExit(f"superset exited early:\n{log_path.read_text()[-3000:]}")
        time.sleep(1)
    raise SystemExit(f"timed out waiting for {url}")


class Api:
    """Superset's REST API as the admin (JWT plus the CSRF token its POSTs need)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = requests.Session()
        token = self.post("/api/v1/security/login", {"username": ADMIN[0], "password": ADMIN[1],
                                                      "provider": "db", "refresh": True})
        self.http.headers["Authorization"] = "Bearer " + token["access_token"]
        self.http.headers["X-CSRFToken"] = self.get("/api/v1/security/csrf_token/")["result"]
        self.http.headers["Referer"] = base

    def get(self, path: str) -> dict:
        response = self.http.get(self.base + path, timeout=300)
        response.raise_for_status()
        return response.json()

    def get_any(self, *paths: str) -> dict:
        """The first of ``paths`` Superset answers (endpoints moved between versions)."""
        for path in paths[:-1]:
            response = self.http.get(self.base + path, timeout=300)
            if response.ok:
                return response.json()
        return self.get(paths[-1])

    def post(self, path: str, body: dict, ok: tuple[int, ...] = (200, 201)) -> dict:
        response = self.http.post(self.base + path, json=body, timeout=300)
        if response.status_code not in ok:
            raise SystemExit(f"POST {path}: HTTP {response.status_code}\n{response.text[:3000]}")
        return response.json()


def superset_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(SUPERSET_HOME=str(home), SUPERSET_CONFIG_PATH=str(HERE / "superset_config.py"),
               FLASK_APP="superset", PYTHONUNBUFFERED="1")
    return env


def prepare_superset(home: Path, superset: str) -> None:
    """The metadata database, the admin user, the roles (about a minute)."""
    env = superset_env(home)
    with open(home / "setup.log", "w") as out:
        for args in (["db", "upgrade"],
                     ["fab", "create-admin", "--username", ADMIN[0], "--password", ADMIN[1],
                      "--firstname", "Demo", "--lastname", "Admin", "--email", "admin@example.invalid"],
                     ["init"]):
            subprocess.run([superset, *args], env=env, stdout=out, stderr=subprocess.STDOUT, check=True)


def run_api_steps(api: Api, thrift_port: int, start: float) -> dict:
    database = api.post("/api/v1/database/", {
        "database_name": "sparkcep", "sqlalchemy_uri": f"hive://superset@127.0.0.1:{thrift_port}/default",
        "expose_in_sqllab": True})["id"]
    log(f"database {database}: hive://superset@127.0.0.1:{thrift_port}/default", start)

    # the table browser: what SQL Lab's left pane and Datasets -> + ask
    tables = api.get(f"/api/v1/database/{database}/tables/?q=(force:!t,schema_name:default)")["result"]
    names = sorted(table["value"] for table in tables)
    log(f"table browser, schema default: {names}", start)
    if "ticks" not in names:
        raise SystemExit(f"the table browser does not list ticks: {tables}")
    metadata = api.get_any(f"/api/v1/database/{database}/table_metadata/?name=ticks&schema=default",
                           f"/api/v1/database/{database}/table/ticks/default/")
    log("table ticks: " + ", ".join(f"{c['name']}:{c['type']}" for c in metadata["columns"]), start)
    physical = api.post("/api/v1/dataset/", {"database": database, "schema": "default", "table_name": "ticks"})
    physical_columns = api.get(f"/api/v1/dataset/{physical['id']}")["result"]["columns"]
    log(f"physical dataset {physical['id']} (default.ticks): "
        + ", ".join(c["column_name"] + ":" + str(c["type"]) for c in physical_columns), start)

    result = api.post("/api/v1/sqllab/execute/", {"database_id": database, "sql": QUERY, "runAsync": False,
                                                   "schema": "default", "client_id": "mr1", "queryLimit": 1000})
    rows = result["data"]
    log(f"SQL Lab: {len(rows)} rows, first {rows[0]}", start)
    log("SQL Lab sent:\n" + result["query"]["executedSql"], start)

    error = api.post("/api/v1/sqllab/execute/", {"database_id": database, "sql": MISTAKE, "runAsync": False,
                                                  "schema": "default", "client_id": "mr2"}, ok=(400, 422, 500))
    messages = [e.get("message", "") for e in error.get("errors", [])] or [json.dumps(error)]
    log("SQL Lab, a mistake: " + messages[0], start)
    if "UNDEFINED_PATTERN_VARIABLE" not in messages[0] or "\tat " in messages[0] or "org.apache" in messages[0]:
        raise SystemExit(f"SQL Lab's error is not sparkcep's message alone: {messages[0]}")

    window = api.post("/api/v1/sqllab/execute/", {"database_id": database, "sql": WINDOW_QUERY,
                                                   "runAsync": False, "schema": "default",
                                                   "client_id": "mr3", "queryLimit": 1000})
    log(f"SQL Lab, R020 window: {len(window['data'])} rows, first {window['data'][0]}", start)

    dataset = api.post("/api/v1/dataset/", {"database": database, "schema": "default",
                                            "table_name": "v_shapes", "sql": QUERY})
    columns = [c["column_name"] + ":" + str(c["type"]) for c in dataset["data"]["columns"]]
    log(f"virtual dataset {dataset['id']}: {', '.join(columns)}", start)

    metrics = [
        {"expressionType": "SIMPLE", "column": {"column_name": "match_no"}, "aggregate": "COUNT",
         "label": "V shapes"},
        {"expressionType": "SIMPLE", "column": {"column_name": "drop_pct"}, "aggregate": "MAX",
         "label": "deepest drop (%)"},
    ]
    form = {"datasource": f"{dataset['id']}__table", "viz_type": "echarts_timeseries_bar",
            "x_axis": "symbol", "metrics": metrics, "groupby": [], "adhoc_filters": [],
            "row_limit": 1000, "orientation": "vertical", "show_legend": True, "show_value": True,
            "x_axis_title": "symbol", "x_axis_title_margin": 30, "x_axis_sort_asc": True,
            "truncate_metric": True}
    query_context = {"datasource": {"id": dataset["id"], "type": "table"}, "force": True,
                     "form_data": form, "result_format": "json", "result_type": "full",
                     "queries": [{"columns": ["symbol"], "metrics": metrics, "filters": [],
                                  "orderby": [[metrics[0], False]], "row_limit": 1000}]}
    chart = api.post("/api/v1/chart/", {
        "slice_name": "V shapes per symbol (MATCH_RECOGNIZE over sparkcep serve)",
        "viz_type": "echarts_timeseries_bar", "datasource_id": dataset["id"],
        "datasource_type": "table", "params": json.dumps(form),
        "query_context": json.dumps(query_context)})["id"]
    data = api.post("/api/v1/chart/data", query_context)["result"][0]
    log(f"chart {chart}: Superset sent\n{data['query']}", start)
    log(f"chart data: {data['data']}", start)
    return {"database": database, "chart": chart, "chart_rows": data["data"]}


def browse(base: str, chromium: str, ids: dict, out: Path, start: float) -> list[Path]:
    from playwright.sync_api import sync_playwright

    shots = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 860})
            page.goto(base + "/login/")
            page.fill("#username", ADMIN[0])
            page.fill("#password", ADMIN[1])
            page.click("button[type=submit]")
            page.wait_for_url(lambda url: "/login" not in url, timeout=60_000)
            log("Chromium: signed in", start)

            def sql_lab(sql: str, expect_ok: bool = True):
                """A new SQL Lab tab with ``sql`` (the sql and dbid URL parameters), then Run."""
                page.goto(base + "/sqllab/?" + urllib.parse.urlencode({"dbid": ids["database"], "sql": sql}))
                run = page.get_by_role("button", name="Run")
                run.wait_for(timeout=120_000)
                with page.expect_response(lambda r: "/api/v1/sqllab/execute/" in r.url,
                                          timeout=300_000) as response:
                    run.click()
                if response.value.ok != expect_ok:
                    raise SystemExit(f"SQL Lab in Chromium: HTTP {response.value.status} "
                                     f"{response.value.text()[:2000]}")

            def shoot(name: str, what: str) -> None:
                page.mouse.move(700, 600)  # away from the Run button's tooltip
                page.wait_for_timeout(1500)
                shots.append(out / name)
                page.screenshot(path=str(shots[-1]))
                log(f"Chromium: {what}, {shots[-1]}", start)

            # the table browser: SQL Lab's left pane lists schema default's tables; ticks' columns
            page.goto(base + "/sqllab/?" + urllib.parse.urlencode({"dbid": ids["database"], "sql": "SELECT 1"}))
            page.get_by_role("button", name="Run").wait_for(timeout=120_000)
            page.get_by_text("default", exact=True).last.click()  # the schema's folder in the pane
            page.get_by_text("ticks", exact=True).first.click(timeout=120_000)
            page.get_by_text("volume", exact=True).first.wait_for(timeout=120_000)
            shoot("superset_tables.png", "SQL Lab's table browser lists ticks and its columns")

            sql_lab(QUERY)
            page.get_by_text("INITECH").first.wait_for(timeout=60_000)  # a value in the result grid
            shoot("superset_sqllab.png", "SQL Lab ran the statement")

            sql_lab(MISTAKE, expect_ok=False)
            page.get_by_text("UNDEFINED_PATTERN_VARIABLE").first.wait_for(timeout=60_000)
            shoot("superset_sqllab_error.png", "SQL Lab shows sparkcep's error")

            sql_lab(WINDOW_QUERY)
            page.get_by_text("peak_price").first.wait_for(timeout=60_000)
            shoot("superset_sqllab_window.png", "SQL Lab ran the R020 window")

            with page.expect_response(lambda r: "/api/v1/chart/data" in r.url and r.request.method == "POST",
                                      timeout=300_000) as response:
                page.goto(f"{base}/explore/?slice_id={ids['chart']}")
            if not response.value.ok:
                raise SystemExit(f"chart in Chromium: HTTP {response.value.status} {response.value.text()[:2000]}")
            page.locator(".chart-container canvas").first.wait_for(timeout=60_000)  # ECharts draws on a canvas
            page.wait_for_timeout(3000)  # the bars' animation
            shots.append(out / "superset_chart.png")
            page.screenshot(path=str(shots[-1]))
            log(f"Chromium: chart drawn, {shots[-1]}", start)
        finally:
            browser.close()
    return shots


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sparkcep", default=str(REPO / ".venv" / "bin" / "sparkcep"))
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--out", default=str(REPO / "docs" / "img"))
    parser.add_argument("--keep", action="store_true")
    options = parser.parse_args()
    start = time.monotonic()
    out = Path(options.out)
    out.mkdir(parents=True, exist_ok=True)
    superset = str(Path(sys.executable).parent / "superset")
    home = Path(tempfile.mkdtemp(prefix="sparkcep-superset-"))
    thrift_port, web_port = free_port(), free_port()
    server = web = None
    try:
        serve_log = home / "serve.log"
        with open(serve_log, "w") as handle:
            server = subprocess.Popen(
                [options.sparkcep, "serve", "--port", str(thrift_port),
                 "-t", f"ticks={REPO / 'sparkcep' / 'data' / 'ticks.csv'}"],
                stdout=handle, stderr=subprocess.STDOUT, start_new_session=True, cwd=home)
        log(f"sparkcep serve starting on 127.0.0.1:{thrift_port}; Superset's metadata database in {home}", start)
        prepare_superset(home, superset)  # while Spark starts
        log("Superset: database upgraded, admin created, roles set", start)
        web_log = home / "web.log"
        with open(web_log, "w") as handle:
            web = subprocess.Popen(
                [superset, "run", "-h", "127.0.0.1", "-p", str(web_port), "--with-threads"],
                env=superset_env(home), stdout=handle, stderr=subprocess.STDOUT,
                start_new_session=True, cwd=home)
        base = f"http://127.0.0.1:{web_port}"
        wait_for_line(serve_log, "JDBC URL: ", server, 300)
        log("sparkcep serve ready", start)
        wait_http(base + "/health", web, web_log, 300)
        log(f"Superset ready at {base}", start)

        ids = run_api_steps(Api(base), thrift_port, start)
        browse(base, options.chromium, ids, out, start)
        log("done", start)
        return 0
    finally:
        stop(web)
        stop(server)
        if options.keep:
            print(f"kept {home}")
        else:
            shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
