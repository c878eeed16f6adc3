"""Record Spark's answers for datetime patterns (``datetime_pattern_answers.json``), checked
without Spark by ``test_datetime_patterns.py``:

* every letter A-Z, a-z, 1 to 6 times, formatting one timestamp: Spark's text or error class;
* patterns Spark refuses, in formatting and in parsing: their error class and sub-class;
* formatting instants chosen at the edges of several session time zones (year 1, the last
  instant of 9999, daylight-saving gaps and overlaps, half-hour and local-mean-time offsets,
  negative offsets) with patterns that together use every letter sparkcep formats;
* parsing texts with patterns in those zones (the gaps and overlaps of each, offsets in the
  text, fields out of range), ANSI off: ``to_timestamp`` (as ``unix_micros``), ``to_date`` and
  ``to_timestamp_ntz`` (as strings), ``unix_timestamp``;
* the zone names ``z|zzzz|v|vvvv`` in 25 session time zones every 15 days from 1890 to 2041
  (``zone_names``: runs of equal answers, each from its first instant).

    python -m tests.evaluation.record_datetime_patterns

The corpus (``corpus.py``) checks the same functions through the whole evaluator in one zone,
ANSI on and off; this file reaches more zones and every letter at the unit level.
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

OUTPUT = Path(__file__).with_name("datetime_pattern_answers.json")

ZONES = ["UTC", "Europe/Berlin", "America/Los_Angeles", "Asia/Kolkata", "Australia/Lord_Howe", "America/St_Johns"]
GRID_MICROS = 1709654889123456  # 2024-03-05 16:08:09.123456 UTC

# instants (microseconds since 1970-01-01 00:00 UTC)
INSTANTS = [
    -62135596800000000, -62135596799999999, 253402300799999999, 253402297199999999, 0, -1, 1, -500000,
    1710064799999999, 1710064800000000,  # Los Angeles' gap (2024-03-10 02:00 PST)
    1730622600000000, 1730626200000000,  # 01:30 of Los Angeles' overlap, both passes
    1711846799999999, 1711846800000000, 1729989000000000, 1729992600000000,  # Berlin
    1712415600000000, 1712417400000000, 1728142200000000,  # Lord Howe's half-hour changes
    -2208988800000000, -1104537600000000, -1577923200000000,  # 1900, 1935, 1920: local mean times
    951782399999000, 1234567890123456, 4102444800000000, -30610224000000000,
]
FORMATS = [
    "yyyy-MM-dd HH:mm:ss.SSSSSS", "y yy yyy yyyy yyyyy yyyyyy", "G GGGG y yy yyyy", "M MM MMM MMMM L LL LLL LLLL",
    "d dd D DD DDD F g", "Q QQ QQQ QQQQ q qq qqq qqqq", "E EE EEE EEEE", "a h hh K KK k kk H HH", "m mm s ss",
    "S SS SSS SSSS SSSSS SSSSSS SSSSSSS SSSSSSSS SSSSSSSSS",
    "VV O OOOO X XX XXX XXXX XXXXX x xx xxx xxxx xxxxx Z ZZ ZZZ ZZZZ ZZZZZ",
    "'it''s' [yyyy[-MM]] ''", "EEEE, MMMM d, yyyy h:mm:ss.SSS a XXX",
]
TEXTS = [
    ("2024-03-10 02:30:00", "yyyy-MM-dd HH:mm:ss"), ("2024-11-03 01:30:00", "yyyy-MM-dd HH:mm:ss"),
    ("2024-03-31 02:30:00", "yyyy-MM-dd HH:mm:ss"), ("2024-10-27 02:30:00", "yyyy-MM-dd HH:mm:ss"),
    ("2024-10-06 02:15:00", "yyyy-MM-dd HH:mm:ss"), ("2024-04-07 01:45:00", "yyyy-MM-dd HH:mm:ss"),
    ("0001-01-01 00:00:00", "yyyy-MM-dd HH:mm:ss"), ("9999-12-31 23:59:59", "yyyy-MM-dd HH:mm:ss"),
    ("1900-01-01 00:00:00", "yyyy-MM-dd HH:mm:ss"), ("1935-01-01 12:00:00", "yyyy-MM-dd HH:mm:ss"),
    ("2024-03-05 10:11:12.5 -08:00", "yyyy-MM-dd HH:mm:ss.SSS XXX"), ("2024-03-05 10:11 +0530", "yyyy-MM-dd HH:mm Z"),
    ("2024-03-05 10:11 +05:30:15", "yyyy-MM-dd HH:mm XXXXX"), ("2024-03-05 10:11 -00", "yyyy-MM-dd HH:mm x"),
    ("2024-03-05 10:11 Z", "yyyy-MM-dd HH:mm[ XXX]"), ("2024-03-05", "yyyy-MM-dd[ HH:mm][ XXX]"),
    ("12:00 AM", "hh:mm a"), ("12:00 PM", "hh:mm a"), ("Mar 5 2024 7:05 pm", "MMM d yyyy h:mm a"),
    ("2024 366", "yyyy D"), ("2024-02-30", "yyyy-MM-dd"), ("24:00", "kk:mm"), ("24:00", "HH:mm"),
    ("0000-06-01 00:00:00 +01:00", "yyyy-MM-dd HH:mm:ss XXX"), ("9999-12-31 23:30 -01:00", "yyyy-MM-dd HH:mm XXX"),
    # a literal matched case-insensitively as Java's charEquals: the Kelvin sign's lower case is k
    ("2024\u212a03", "yyyy'k'MM"), ("2024\u212a03", "yyyy'K'MM"), ("2024\u017f03", "yyyy's'MM"),
    # years whose microseconds pass a BIGINT (Spark's unix_timestamp fails) or nearly
    ("+300000-01-01", "yyyy-MM-dd"), ("+200000-01-01", "yyyy-MM-dd"), ("-300000-01-01", "yyyy-MM-dd"),
    # past 9999: the zone's rules of 400 years earlier (the same calendar), summer time included
    ("+10000-06-15 12:00:00", "yyyy-MM-dd HH:mm:ss"), ("+10400-01-15 12:00:00", "yyyy-MM-dd HH:mm:ss"),
    # a parsing pattern with S is rebuilt from its parts between quotes (Java's split drops the
    # trailing empty ones); a fraction needs a digit before a literal (Java's FractionPrinterParser)
    ("10:05:06.12x", "HH:mm:ss.SS'x'"), ("10:05:06.12'", "HH:mm:ss.SS''"), ("10:05:06.12", "HH:mm:ss.SS''"),
    ("2024T10:05:06.123", "yyyy'T'HH:mm:ss.SSS"), ("T2024", "'T'yyyy"), ("x", "SS'x'"), ("1x", "SS'x'"),
]
PARSERS = {
    "to_timestamp": "unix_micros(to_timestamp('{t}', '{p}'))",
    "to_date": "CAST(to_date('{t}', '{p}') AS STRING)",
    "to_timestamp_ntz": "CAST(to_timestamp_ntz('{t}', '{p}') AS STRING)",
    "unix_timestamp": "unix_timestamp('{t}', '{p}')",
}
# patterns Spark refuses, or whose class tells Spark's rules apart (formatting or parsing)
REFUSED = [
    "YYYY", "yyyy-ww", "W", "u", "e", "c", "nnnn c", "c n", "yyyy g u", "A", "B", "n", "N", "p", "b", "aa", "{", "yyyy #",
    "yyyy]", "[yyyy]]", "yyyy 'x", "'", "QQQQQ", "qqqqq", "MMMMM", "LLLLL", "EEEEE", "GGGGG", "yyyyyyy",
    "SSSSSSSSSS", "DDDD", "FF", "dd ddd", "HHH", "OO", "OOO", "V", "VVV", "XXXXXX", "xxxxxx", "ZZZZZZ", "zzzzz",
    "vv", "T", "yyyy-MM-dd'T'HH:mm", "é", "E", "F", "q", "Q", "EEEE yyyy", "yyyy-MM-dd HH:mm:ss.SSSSSSSSSS",
    "'x'b", "'a'XXXX", "'a''b'OO",  # the letter right after a quoted literal, as the legacy formatter reads it
]


NAME_ZONES = ["UTC", "Etc/UTC", "GMT", "Europe/Berlin", "Europe/London", "Europe/Paris", "Europe/Moscow", "Europe/Dublin",
              "America/New_York", "America/Chicago", "America/Denver", "America/Phoenix", "America/Los_Angeles",
              "America/Sao_Paulo", "America/St_Johns", "Asia/Kolkata", "Asia/Shanghai", "Asia/Tokyo", "Asia/Singapore",
              "Asia/Dubai", "Australia/Sydney", "Australia/Lord_Howe", "Pacific/Auckland", "Africa/Johannesburg",
              "Pacific/Honolulu"]
NAME_INSTANTS = (-2524521600000000, 2240524800000000, 1296000000000)  # 1890-01-01 to 2041, every 15 days
NAME_PATTERN = "z|zzzz|v|vvvv"


def zone_names(spark) -> dict:
    """{zone: [[first instant, Spark's answer], ...]}: the runs of equal answers."""
    start, stop, step = NAME_INSTANTS
    out = {}
    for zone in NAME_ZONES:
        spark.conf.set("spark.sql.session.timeZone", zone)
        rows = spark.sql(f"SELECT m, date_format(timestamp_micros(m), '{NAME_PATTERN}') AS t FROM "
                         f"(SELECT explode(sequence({start}L, {stop}L, {step}L)) AS m) ORDER BY m").collect()
        runs: list = []
        for row in rows:
            if not runs or runs[-1][1] != row.t:
                runs.append([row.m, row.t])
        out[zone] = runs
    return out


def probes() -> dict:
    """Every probe: {key: (zone, SQL expression)}; the key is what the test evaluates."""
    out = {}
    for c in string.ascii_letters:
        for n in range(1, 7):
            out[json.dumps(["format", "Europe/Berlin", GRID_MICROS, c * n])] = \
                ("Europe/Berlin", f"date_format(timestamp_micros({GRID_MICROS}), '{_sql(c * n)}')")
    for pattern in REFUSED:
        out[json.dumps(["format", "UTC", GRID_MICROS, pattern])] = \
            ("UTC", f"date_format(timestamp_micros({GRID_MICROS}), '{_sql(pattern)}')")
        out[json.dumps(["parse", "UTC", "to_timestamp", "2024", pattern])] = \
            ("UTC", PARSERS["to_timestamp"].format(t="2024", p=_sql(pattern)))
    for zone in ZONES:
        for micros in INSTANTS:
            for pattern in FORMATS:
                out[json.dumps(["format", zone, micros, pattern])] = \
                    (zone, f"date_format(timestamp_micros({micros}), '{_sql(pattern)}')")
        for text, pattern in TEXTS:
            for function, template in PARSERS.items():
                out[json.dumps(["parse", zone, function, text, pattern])] = \
                    (zone, template.format(t=_sql(text), p=_sql(pattern)))
    return out


def _sql(text: str) -> str:
    return text.replace("\\", "\\\\").replace("'", "\\'")


def _answer(spark, expression: str):
    try:
        value = spark.sql(f"SELECT {expression} AS v").collect()[0]["v"]
    except Exception as error:  # noqa: BLE001 - Spark's errors, recorded by class
        found = re.search(r"\[([A-Z_]+(?:\.[A-Z_]+)?)\]", str(error))
        return ["error", found.group(1) if found else str(error).splitlines()[0][:200]]
    return ["value", value]


def main() -> None:
    import pyspark

    import sparkcep

    spark = sparkcep.local_session("local[2]", "sparkcep-record-datetime-patterns", spark_executor_pyspark_memory="1g")
    spark.conf.set("spark.sql.ansi.enabled", "false")
    answers = {}
    by_zone: dict[str, list] = {}
    for key, (zone, expression) in probes().items():
        by_zone.setdefault(zone, []).append((key, expression))
    for zone, items in by_zone.items():
        spark.conf.set("spark.sql.session.timeZone", zone)
        for start in range(0, len(items), 100):  # a batch; its expressions one by one if one of them fails
            chunk = items[start:start + 100]
            select = ", ".join(f"{expression} AS c{k}" for k, (_, expression) in enumerate(chunk))
            try:
                row = spark.sql(f"SELECT {select}").collect()[0]
                answers.update({key: ["value", row[f"c{k}"]] for k, (key, _) in enumerate(chunk)})
            except Exception:  # noqa: BLE001
                answers.update({key: _answer(spark, expression) for key, expression in chunk})
    names = zone_names(spark)
    spark.stop()
    lines = ["{", f'  "spark": {json.dumps(pyspark.__version__)},', '  "zone_names": {']
    lines += [f"    {json.dumps(zone)}: {json.dumps(runs, ensure_ascii=False)}," for zone, runs in names.items()]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["  },", '  "answers": {']
    lines += [f"    {json.dumps(key)}: {json.dumps(answers[key], ensure_ascii=False)}," for key in sorted(answers)]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["  }", "}"]
    OUTPUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(answers)} answers written to {OUTPUT.name}")


if __name__ == "__main__":
    main()
