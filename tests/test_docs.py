"""The documentation runs as written (issue 12): README's "Use it" snippet, the recipes in
docs/recipes.md (against a brute-force answer in plain Python), each row of the WITHIN units
table in docs/within.md (on Spark), and the explain guide's output (docs/explain.md)."""

from __future__ import annotations

import datetime as dt
import random
import re
from pathlib import Path

import pytest

from sparkcep.errors import SparkCepError

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def code_blocks(path: Path, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", path.read_text(), re.DOTALL)


def recipes() -> dict[str, str]:
    found = {}
    for block in code_blocks(DOCS / "recipes.md", "sql"):
        marker = re.match(r"-- recipe: (\w+)\n", block)
        if marker:
            found[marker.group(1)] = block[marker.end():]
    return found


# -- pure ---------------------------------------------------------------------------------------


def test_no_absolute_paths_of_a_build_machine():
    texts = [ROOT / "README.md", ROOT / "sql_examples" / "README.md", *DOCS.glob("*.md")]
    for path in texts:
        found = re.findall(r"(?<![\w.])/(?:work|home|Users|tmp|root)/[\w./-]+", path.read_text())
        assert not found, (path.name, found)


def test_explain_guide_shows_what_explain_prints():
    from click.testing import CliRunner

    from sparkcep.clients.cli import main

    text = (DOCS / "explain.md").read_text()
    query = code_blocks(DOCS / "explain.md", "sql")[0]
    shown = code_blocks(DOCS / "explain.md", "text")[0]
    result = CliRunner().invoke(main, ["explain", "-e", query])
    assert result.exit_code == 0, result.output

    def clause_part(text: str) -> str:
        # from the clause's section on; the generated Spark SQL above it and the function's hash
        # follow the rewrite's details (the guide explains their parts, not every character)
        text = re.sub(r"sparkcep_mr_[0-9a-f]+", "sparkcep_mr_<hash>", text)
        return text[text.index("== MATCH_RECOGNIZE"):]

    assert shown.startswith("== Spark SQL ==\nSELECT * FROM (SELECT `user_id`")
    # regenerate the block with: sparkcep explain -e "<the query above>"
    assert clause_part(result.output) == clause_part(shown)
    assert "img/explain_funnel.png" in text and (DOCS / "img" / "explain_funnel.png").exists()


def test_recipes_are_marked():
    assert {"funnel_per_user", "funnel_rate"} <= set(recipes())


# -- Spark ---------------------------------------------------------------------------------------


@pytest.mark.spark
def test_readme_use_it_snippet_runs_as_written(spark, capsys):
    import sparkcep

    snippet = next(block for block in code_blocks(ROOT / "README.md", "python")
                   if "MATCH_RECOGNIZE" in block and "local_session" in block)
    scope: dict = {}
    try:
        exec(compile(snippet, "README.md", "exec"), scope)  # noqa: S102 - the README's own code
    finally:
        sparkcep.disable(spark)
    rows = scope["df"].collect()
    assert rows, "the snippet finds V shapes in the bundled ticks"
    # PEAK is the row before the fall: its price is above the bottom and DOWN{2,} fell from it
    assert all(row.top > row.bottom and row.recovered > row.bottom for row in rows)
    assert "sparkcep_mr_" in capsys.readouterr().out  # transpile printed the Spark SQL


def _clicks(seed: int = 7) -> list[tuple[int, dt.datetime, str]]:
    """Random click streams: 40 users, 12 events each, minutes apart (distinct per user)."""
    rng = random.Random(seed)
    start = dt.datetime(2026, 3, 1, 9, 0, 0)
    rows = []
    for user in range(40):
        minute = rng.randrange(0, 120)
        for _ in range(12):
            minute += rng.choice([1, 5, 10, 20, 45])
            action = rng.choice(["view", "view", "cart", "purchase", "search"])
            rows.append((user, start + dt.timedelta(minutes=minute), action))
    return rows


def _converted_first_views(rows) -> dict[int, tuple[dt.datetime, int]]:
    """Brute force: per user, the views followed by a cart and then a purchase, all less than an
    hour after the view (docs/recipes.md); (first such view, number of such views)."""
    by_user: dict[int, list] = {}
    for user, ts, action in sorted(rows):
        by_user.setdefault(user, []).append((ts, action))
    answer = {}
    for user, events in by_user.items():
        starts = []
        for i, (ts_v, a) in enumerate(events):
            if a != "view":
                continue
            if any(events[j][1] == "cart" and events[k][1] == "purchase"
                   and events[k][0] - ts_v < dt.timedelta(hours=1)
                   for j in range(i + 1, len(events)) for k in range(j + 1, len(events))):
                starts.append(ts_v)
        if starts:
            answer[user] = (min(starts), len(starts))
    return answer


@pytest.mark.spark
def test_funnel_recipes_agree_with_brute_force(spark):
    import sparkcep

    rows = _clicks()
    spark.createDataFrame(rows, "user_id INT, ts TIMESTAMP, action STRING") \
        .createOrReplaceTempView("clicks")
    expected = _converted_first_views(rows)
    assert 5 < len(expected) < 40  # the data has both converting and other users

    per_user = sparkcep.sql(spark, recipes()["funnel_per_user"]).collect()
    assert {r.user_id: (r.first_view, r.journeys) for r in per_user} == expected

    rate = sparkcep.sql(spark, recipes()["funnel_rate"]).collect()[0]
    viewers = {user for user, _, action in rows if action == "view"}
    assert (rate.converted_users, rate.viewers) == (len(expected), len(viewers))
    assert rate.conversion == pytest.approx(round(len(expected) / len(viewers), 4))


def _pair_query(key: str, within: str) -> str:
    return (f"SELECT n FROM within_pairs MATCH_RECOGNIZE (PARTITION BY pair ORDER BY {key} "
            f"MEASURES A.pair AS n PATTERN (A B) WITHIN {within} DEFINE B AS true)")


# docs/within.md, one row per key type: (key column, WITHIN, pair inside, pair exactly w apart)
WITHIN_ROWS = [
    ("ts", "INTERVAL '1' HOUR"),
    ("ts", "90"),
    ("ntz", "INTERVAL '1' HOUR"),
    ("seq", "10"),
    ("seq", "INTERVAL '10' SECOND"),
    ("day", "INTERVAL '2' DAY"),
]


@pytest.mark.spark
def test_within_units_table(spark):
    import sparkcep

    t0 = dt.datetime(2026, 3, 29, 0, 30)
    d0 = dt.date(2026, 3, 1)
    # pair 1: just inside every window, pair 2: exactly the window apart (excluded: strict)
    data = [
        # pair, ts, seq, day
        (1, t0, 100, d0), (1, t0 + dt.timedelta(minutes=59, seconds=59), 109, d0 + dt.timedelta(1)),
        (2, t0, 100, d0), (2, t0 + dt.timedelta(hours=1), 110, d0 + dt.timedelta(2)),
        (3, t0, 100, d0), (3, t0 + dt.timedelta(seconds=89), 109, d0 + dt.timedelta(1)),
        (4, t0, 100, d0), (4, t0 + dt.timedelta(seconds=90), 110, d0 + dt.timedelta(2)),
    ]
    spark.createDataFrame(data, "pair INT, ts TIMESTAMP, seq BIGINT, day DATE") \
        .selectExpr("*", "CAST(ts AS TIMESTAMP_NTZ) AS ntz") \
        .createOrReplaceTempView("within_pairs")
    expected = {
        ("ts", "INTERVAL '1' HOUR"): {1, 3, 4},   # 59:59, 89 s and 90 s are under an hour
        ("ts", "90"): {3},                        # 90 means seconds: only the 89 s pair
        ("ntz", "INTERVAL '1' HOUR"): {1, 3, 4},  # TIMESTAMP_NTZ: the same
        ("seq", "10"): {1, 3},                    # 9 apart yes, 10 apart no
        ("seq", "INTERVAL '10' SECOND"): {1, 3},  # a number key read as seconds
        ("day", "INTERVAL '2' DAY"): {1, 3},      # next day yes, two days no
    }
    for key, within in WITHIN_ROWS:
        got = {row.n for row in sparkcep.sql(spark, _pair_query(key, within)).collect()}
        assert got == expected[(key, within)], (key, within, got)

    # the refused cells of the table: a typed error at WITHIN, not Spark's message about a CAST
    for key, within in (("day", "2"), ("ntz", "90")):
        with pytest.raises(SparkCepError) as caught:
            sparkcep.sql(spark, _pair_query(key, within)).collect()
        first = str(caught.value).splitlines()[0]
        assert first.startswith("[WITHIN_KEY_TYPE] ") and "CAST(" not in first, first


def test_new_error_codes_are_listed():
    # common rules: new error codes are listed in docs/errors.md
    listed = (DOCS / "errors.md").read_text()
    for code in ("WITHIN_KEY_TYPE", "PERMANENT_VIEW_WITH_MATCH_RECOGNIZE", "INTERNAL_ERROR",
                 "INSECURE_BIND", "TABLE_OR_VIEW_NOT_FOUND", "MATCH_DEPENDENT_TYPE_MISMATCH",
                 "STREAM_UNBOUNDED_STATE", "STREAM_UNSUPPORTED", "STREAM_ORDER_NOT_EVENT_TIME",
                 "STREAM_STATE_INCOMPATIBLE", "BAD_TOKEN_FILE", "BAD_OPTION"):
        assert f"`{code}`" in listed, code
