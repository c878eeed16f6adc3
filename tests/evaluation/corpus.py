"""A fixed corpus of match-dependent expressions and edge rows: every operator and function the
Python evaluator supports, over every type it supports, written out systematically (not drawn at
random), so that every run checks the same cases.

``tests/evaluation/spark_answers.json`` holds Spark's answers for it (written by
``record_spark_answers.py``, checked by ``test_recorded_spark_answers.py`` without Spark);
``test_spark_differential.py`` also checks it against a live Spark.

Each expression is a pair (qualified text, plain text), as in ``grammar``: the qualified text is
the DEFINE of B in ``PATTERN (A B)`` (an operator combining ``A.`` and ``B.`` operands is
evaluated by sparkcep's Python side); the plain text is what Spark evaluates over one row.
"""

from __future__ import annotations

import datetime as dt

from tests.evaluation.grammar import (_DATE_EDGES, _DECIMAL_EDGES, _DOUBLE_EDGES, _FLOAT_EDGES, _INT_EDGES,
                                      _STRING_EDGES, _TIME_EDGES, COLUMNS, _sql_value)

ROWS = 32
_dt = dt.datetime
_td = dt.timedelta
ZONE = "Europe/Berlin"  # daylight-saving changes on 2024-03-31 and 2024-10-27


def _edges(spark_type: str) -> list:
    if spark_type in _INT_EDGES:
        return _INT_EDGES[spark_type]
    if spark_type == "DOUBLE":
        return _DOUBLE_EDGES
    if spark_type == "FLOAT":
        return _FLOAT_EDGES
    if spark_type.startswith("DECIMAL"):
        return _DECIMAL_EDGES[spark_type]
    if spark_type == "STRING":
        return _STRING_EDGES
    if spark_type == "DATE":
        return _DATE_EDGES
    if spark_type.startswith("TIMESTAMP"):
        return _TIME_EDGES
    return [True, False]


# Columns of the corpus only, whose values are paired row by row (row r holds the edges r mod
# their count): quotients whose digits 39 and on decide a rounding. Spark divides DECIMALs to
# 38 places (HALF_UP), then rounds to the result's scale (HALF_UP): 0.0000004999...95 (39
# places, 5e-7 - 5e-39) first becomes 0.0000005, 0.0000000000499...95 (5e-11 - 5e-39) first
# 0.00000000005 and then 0.0000000001 as DECIMAL(38, 10), Spark's type of w1 / w2. And
# DECIMALs just inside and outside Spark's compact ones (precision 18 and 19) times a DOUBLE
# 1.0: a compact DECIMAL becomes a DOUBLE as its unscaled long / 10^scale, which differs from the
# exactly rounded conversion of a wider one for these values.
#
# And exact numbers equal (or a unit apart) at values no DOUBLE holds: 0.1 as DECIMAL(10, 2) and
# DECIMAL(38, 10), 2^53 + 1 as BIGINT and DECIMAL(38, 0). Spark compares them exactly (in a
# common DECIMAL type); through a DOUBLE they would compare otherwise. A DECIMAL(3, 3), whose
# remainders are DECIMAL(3, 3) (no integral digit) and hold a zero. And strings, NULL among them,
# for arrays compared element by element (a NULL element below every string, "" included).
# And LIKE patterns with the default escape character, a backslash (the edges are the text of
# SQL literals: Spark reads 'a\%' as a\%, 'a\\\\b' as a\\b, the value a\b).
PAIRED = {"w1": "DECIMAL(38,10)", "w2": "DECIMAL(38,0)", "g1": "DECIMAL(19,4)", "g2": "DECIMAL(18,4)",
          "e1": "DOUBLE", "p1": "STRING", "p2": "STRING", "x1": "DECIMAL(10,2)", "x2": "DECIMAL(38,10)",
          "u1": "BIGINT", "u2": "DECIMAL(38,0)", "y1": "DECIMAL(3,3)", "a1": "STRING", "a2": "STRING",
          "p3": "STRING", "p4": "STRING", "k1": "STRING", "k2": "STRING",
          "v1": "BIGINT", "v2": "BIGINT", "c1": "TIMESTAMP", "c2": "TIMESTAMP", "c3": "TIMESTAMP_NTZ",
          "c4": "TIMESTAMP_NTZ", "j1": "INTERVAL DAY TO SECOND", "j2": "INTERVAL MINUTE", "j3": "INTERVAL DAY",
          "j4": "INTERVAL HOUR TO SECOND", "c5": "TIMESTAMP"}
# ---- regular-expression functions between rows (regexp_extract, regexp_replace, regexp_count,
# regexp_substr, regexp_instr): PAIRED columns, one designed case per row -----------------------
PAIRED.update({"rx1": "STRING", "rx2": "STRING", "rxp": "STRING", "rxr": "STRING", "rxi": "INT", "rx3": "STRING"})
# per row: (subject start, subject end, Java pattern, replacement, group index), as values (the
# SQL text doubles each backslash): Java's empty matches (after a non-empty one, of a lazy
# quantifier), groups that took part in no match, replacement references ($n taking the longest
# run of digits naming a group, $ or \ wrong, \ escaping), $ before a final line terminator,
# characters outside the BMP (no empty match before one: see regex_functions), patterns Java
# rejects, NULLs
_REGEX_CASES = [
    ("ab", "c", "b", "[$0]", 0), ("x7y", "x88", "x(\\d+)", "<$1>", 1), ("", "", "", "-", 0),
    ("abc", "", "", "-", 1), ("abxd", "", "x*", "-", 0), ("a", "", "a??", "-", 0), ("aaa", "b", "a|", "$0$0", 0),
    ("abc", "", "(a)|(z)", "[$2]", 2), ("abc", "", "(b)", "$2", 1), ("abc", "", "(b)", "$x", 1),
    ("abc", "", "(b)", "x\\", 1), ("abc", "", "(b)", "\\$1", 1), ("abc", "", "(b)", "$12", 1),
    ("abc", "", "(b)(c)", "$12", 2), ("abc", "", "z", "$", 5), ("abc", "", "(b)", "$10", -1),
    ("a\nb", "\n", "$", "E", 0), ("a\r\n", "", ".$", "E", 0), ("😀a", "😀", "a", "X", 0),
    ("é日本", "é", "[é日]", "_", 0), ("x1y22", "z333", "\\d+", "#", 0), ("abab", "ab", "^a", "X", 0),
    ("a-c", "", "[a\\-c]+", "=", 0), ("aaa", "a", "a{2,}+a", "?", 0), ("ac", "abc", "(?>a|ab)c", "!", 0),
    ("abc", "", "[", "x", 0), (None, "x", "x", "y", 0), ("abc", "", None, "x", 0), ("abc", "", "b", None, None),
    ("aXbX", "", "X", "\\\\", 0), ("Hello world", " ", "(\\w+) (\\w+)", "$2 $1", 2),
    ("a.b", "", "\\.", "\\\\$0", 0),
]
assert len(_REGEX_CASES) == ROWS
# ---- end of the regular-expression columns ------------------------------------------------------
# conv's digits: non-ASCII letters whose upper case is an ASCII letter (dotless i, long s, the
# ligature st), which Spark reads as UTF-8 bytes, none of them a digit
PAIRED.update({"cv": "STRING"})
_PAIRED_EDGES = {
    "w1": ["9999999999999999999999.9999999999", "-9999999999999999999999.9999999999", "1", "0.0000000001",
           "999999999999999999.9999999999"],
    "w2": ["20000000000000000000000000000", "20000000000000000000000000000", "3", "7",
           "20000000000000000000000000000"],
    "g1": ["839958911683745.6607", "801863971533231.4491", "459535165001830.9042"],
    "g2": ["29494013383811.1012", "39005579441052.2616"],
    "e1": ["1.0"],
    # LIKE and ILIKE tell case apart; ESCAPE '/' makes '/%' a literal '%', without it '/' is literal
    "p1": ["Abc", "a%", "a/x", "abc"],
    "p2": ["a%", "a/%", "a/%", "A_C"],
    "x1": ["0.10", "-0.30", "0.70", "99999999.99", "0.10"],
    "x2": ["0.1", "-0.3", "0.7000000001", "99999999.99", "0.0999999999"],
    "u1": ["9007199254740993", "-9007199254740993", "9007199254740992", "3"],
    "u2": ["9007199254740993", "-9007199254740993", "9007199254740993", "3"],
    "y1": ["0.000", "0.125", "-0.500", "0.999", "-0.000"],
    "a1": [None, "", "b", None, "a", "ab", "é"],
    "a2": ["", None, "a", None, "ab", "a", "e"],
    "p3": ["a%", "ab", "a_", "a\\\\b", "A%"],
    "p4": ["a\\%", "a\\%", "a\\_", "a\\\\\\\\b", "a\\%"],
    # strings searched, trimmed and edited (k1) by strings (k2): spaces beside other white space,
    # empty operands, repeats, characters outside the BMP
    "k1": ["  a b  ", "\ta \t", "xxaxx", "", "aaa", "abcabc", "é日本é", "a😀b😀", " ", "ab"],
    "k2": [" ", "\t", "x", "", "a", "bc", "é", "😀", "", "ab"],
    # the one BIGINT quotient that overflows, -2^63 / -1, beside division by zero
    "v1": [str(-2**63), str(-2**63), "7", "-7", str(2**63 - 1)],
    "v2": ["-1", "0", "-2", "2", "-1"],
    # timestampdiff's starts and ends: across both daylight-saving changes (local wall-clock
    # hours), month ends and leap days, an end whose time of day is before the start's
    "c1": [_dt(2024, 3, 31, 1, 30), _dt(2024, 1, 31, 10), _dt(2024, 3, 31, 10), _dt(2024, 10, 27, 1, 30),
           _dt(2023, 12, 31, 23, 59, 59, 999999), _dt(2024, 2, 29, 12), _dt(2024, 5, 15, 8)],
    "c2": [_dt(2024, 3, 31, 3, 30), _dt(2024, 2, 29, 9), _dt(2024, 1, 31, 11), _dt(2024, 10, 27, 3, 30),
           _dt(2024, 1, 1), _dt(2025, 2, 28, 12), _dt(2024, 5, 14, 9), _dt(2021, 7, 1, 0, 0, 0, 1)],
    "c3": [_dt(2024, 3, 31, 1, 30), _dt(2024, 1, 31, 10), _dt(2024, 10, 27, 2, 30), _dt(2020, 2, 29)],
    "c4": [_dt(2024, 3, 31, 3, 30), _dt(2024, 2, 29, 9), _dt(2024, 10, 27, 2, 29, 59), _dt(2021, 2, 28, 23)],
    # day-time intervals: BIGINT's extreme microseconds (j1, at rows 4 and 5 beside a j2 that
    # pushes them over, or 0), and shifts that carry the c and ts columns across both
    # daylight-saving changes (j4) and month ends (j3)
    "j1": [_td(0), _td(microseconds=1), -_td(days=1, hours=3), _td(hours=2), _td(microseconds=2**63 - 1),
           _td(microseconds=-2**63), _td(hours=25), _td(microseconds=-1)],
    "j2": [_td(minutes=1), _td(minutes=-90), _td(0), _td(minutes=1440), _td(minutes=60), _td(0), _td(minutes=10)],
    "j3": [_td(days=1), _td(days=-1), _td(0), _td(days=366), _td(days=7), _td(days=-30)],
    "j4": [_td(hours=24), _td(hours=-1), _td(0), _td(minutes=90, seconds=30, microseconds=500000),
           _td(microseconds=1), _td(hours=-24), _td(hours=25), _td(hours=1)],
    # moved by whole days into Europe/Berlin's changes (with j3): from 10-28 02:30 (CET) a day
    # back into the overlap (row 25: the offset kept), from 03-30 02:30 a day on into the gap
    # (row 6: forward by the gap), from 10-26 02:30 a day on into the overlap (row 12)
    "c5": [_dt(2024, 10, 28, 2, 30), _dt(2024, 3, 30, 2, 30), _dt(2024, 10, 26, 2, 30), _dt(2024, 4, 1, 2, 30),
           _dt(2024, 10, 28, 2, 30, 0, 500000)],
    # ---- regular-expression functions between rows ----
    **{name: [None if case[k] is None else str(case[k]).replace("\\", "\\\\") for case in _REGEX_CASES]
       for k, name in enumerate(("rx1", "rx2", "rxp", "rxr", "rxi"))},
    # subjects of patterns that match the empty string, inside the BMP only
    "rx3": ["abxd", "a", "", "aaa", "xax", "b\n", "\r\n", "é日", None, "ab"],
    "cv": ["ı", "1ſ", "9ﬅ", "zz"],
    # ---- end of the regular-expression columns ----
}


# -- date arithmetic between rows (begin) --------------------------------------------------------
# dates and INT day / month counts paired row by row: the first and last dates Python holds, the
# INT extremes (Spark's INT addition wraps around far outside Python's dates), month ends for
# add_months' clamping (2024-01-31 + 1 month = 2024-02-29); make_date's fields (Feb 29 in a leap
# year and not, month 13 and 0, day 0, years 0, 10000 and beyond Java's); next_day's names
# (two letters, three, in full, any case; a trailing space and 'xx' are no names)
_D = dt.date
PAIRED.update({"dd": "DATE", "dn": "INT", "my": "INT", "mm": "INT", "md": "INT", "wd": "STRING"})
_PAIRED_EDGES.update({
    "dd": [_D(1970, 1, 1), _D(9999, 12, 31), _D(1, 1, 1), _D(2024, 1, 31), _D(2024, 2, 29), _D(2023, 12, 31),
           _D(1969, 12, 31), _D(2024, 3, 31)],
    "dn": [str(2**31 - 1), "1", "-1", "1", "12", str(-2**31), "2932896", "-1"],
    "my": ["2024", "2023", "2024", "2024", "0", "10000", "9999", str(2**31 - 1), "1"],
    "mm": ["2", "2", "13", "0", "1", "1", "12", "1", "1"],
    "md": ["29", "29", "1", "1", "1", "1", "31", "1", "0"],
    "wd": ["MO", "tue", "Wednesday", "thu ", "FRIDAY", "sa", "SUN", "xx"],
})


def _date_expressions() -> list[tuple[str, str]]:
    out = []
    for function in ("date_add", "date_sub", "dateadd"):
        out.append(_pair(function + "({}, {})", "dd", "dn"))
        out.append(_pair(function + "({}, {})", "dt1", "i1"))
        out.append(_pair(function + "({}, {})", "dt2", "t1"))
    out.append(_pair("date_add({}, {})", "dt1", "h1"))
    # a TIMESTAMP is cast to its local date (00:00 in Berlin is the day before in UTC), a
    # TIMESTAMP_NTZ to its date
    out.append(_pair("date_add(greatest({}, {}), {})", "ts1", "ts2", "t1"))
    out.append(_pair("date_sub(greatest({}, {}), {})", "tn1", "tn1", "t1"))
    for template in ("({} + {})", "({} - {})"):
        out.append(_pair(template, "dd", "dn"))
        out.append(_pair(template, "dt1", "t1"))
        out.append(_pair(template, "dt2", "i1"))
    out.append(_pair("({} + {})", "h1", "dt2"))
    out.append(_pair("({} > date_add({}, {}))", "dt2", "dt1", "t1"))
    out.append(_pair("(add_months({}, 1) <= {})", "dt1", "dt2"))
    for x, n in (("dd", "dn"), ("dt1", "t1"), ("dt2", "h1"), ("dt1", "i1")):
        out.append(_pair("add_months({}, {})", x, n))
    out.append(_pair("add_months(greatest({}, {}), {})", "ts1", "ts2", "t1"))
    for x, y in (("c1", "c2"), ("c2", "c1"), ("c3", "c4"), ("ts1", "ts2"), ("dt1", "dt2"), ("dt1", "ts2"),
                 ("tn1", "ts1"), ("dd", "dt2")):
        out.append(_pair("months_between({}, {})", x, y))
        out.append(_pair("months_between({}, {}, false)", x, y))
    out.append(_pair("months_between({}, {}, true)", "ts2", "ts1"))
    out.append(_pair("make_date({}, {}, {})", "my", "mm", "md"))
    out.append(_pair("make_date({}, {}, 1)", "my", "mm"))
    out.append(_pair("make_date({}, {}, {})", "t1", "h1", "t1"))
    for x, y in (("dd", "dt2"), ("dt1", "dt2")):
        out.append(_pair("last_day(greatest({}, {}))", x, y))
        out.append(_pair("unix_date(greatest({}, {}))", x, y))
    out.append(_pair("last_day(greatest({}, {}))", "ts1", "ts2"))
    out.append(_pair("last_day(date_add({}, {}))", "dt1", "i1"))
    for x, name in (("dd", "wd"), ("dt1", "wd"), ("dt2", "s1"), ("dd", "k1")):
        out.append(_pair("next_day({}, {})", x, name))
    out.append(_pair("date_from_unix_date({} + {})", "dn", "t1"))
    out.append(_pair("date_from_unix_date({} - {})", "i1", "i1"))
    out.append(_pair("date_from_unix_date(datediff({}, {}))", "dd", "dt2"))
    # a BIGINT where Spark takes an INT, cast to INT: CAST_OVERFLOW with ANSI on, else wrapped
    out.append(_pair("add_months({}, {})", "dd", "v1"))
    out.append(_pair("add_months({}, {})", "dt1", "l1"))
    out.append(_pair("make_date({}, {}, {})", "v1", "mm", "md"))
    out.append(_pair("date_from_unix_date(greatest({}, {}))", "l1", "l2"))
    return out
# -- date arithmetic between rows (end) ----------------------------------------------------------

# -- fields of dates and timestamps, truncation, seconds since the epoch (begin) ------------------
# TIMESTAMPs (fz) in Europe/Berlin: 02:30 of the night the clocks go back (Spark's literal takes
# the first pass, +02:00), just before the change, ISO weeks at a year's edge (2024-12-30 is in
# week 1 of 2025, 2021-01-03 in week 53 of 2020), half a second before 1970 in UTC (seconds since
# the epoch truncate toward zero, unix_seconds floors), 1893-03-31 in local mean time (+00:53:28:
# a MINUTE truncated on the local clock is not one truncated on the instant), a leap day, the
# first instant after the gap, the last microsecond of 9999; moved by the intervals fy (0, a
# microsecond each way, an hour, a day); TIMESTAMP_NTZs (fn) and DATEs (fd) at the same edges
PAIRED.update({"fz": "TIMESTAMP", "fy": "INTERVAL DAY TO SECOND", "fn": "TIMESTAMP_NTZ", "fd": "DATE",
               "fu": "STRING"})
_PAIRED_EDGES.update({
    "fz": [_dt(2024, 10, 27, 2, 30), _dt(2024, 10, 27, 1, 59, 59, 999999), _dt(2024, 12, 30, 12), _dt(2021, 1, 3, 23, 59),
           _dt(1970, 1, 1, 0, 59, 59, 500000), _dt(1893, 3, 31, 23, 59, 59), _dt(2024, 2, 29, 0, 0), _dt(2024, 3, 31, 3, 0),
           _dt(9999, 12, 31, 23, 59, 59, 999999)],
    "fy": [_td(0), _td(microseconds=1), -_td(microseconds=1), _td(hours=1), _td(days=1), -_td(hours=1)],
    "fn": [_dt(1969, 12, 31, 23, 59, 59, 500000), _dt(2024, 12, 30, 12), _dt(2021, 1, 3, 23, 59, 59, 999999),
           _dt(2024, 10, 27, 2, 30), _dt(2024, 2, 29, 0, 0, 0, 1), _dt(1, 1, 2, 0, 0), _dt(2024, 3, 31, 2, 30)],
    "fd": [_D(2024, 12, 30), _D(2021, 1, 3), _D(2020, 12, 31), _D(2024, 2, 29), _D(1969, 12, 31), _D(9999, 12, 31),
           _D(1, 1, 1), _D(2024, 3, 31)],
    "fu": ["MM", "mon", "week", "Q", "dd", "YEAR", "quarter", "yy", "Day", "hour"],
})
_TRUNC_UNITS = ("MICROSECOND", "millisecond", "SECOND", "MINUTE", "HOUR", "DAY", "dd", "WEEK", "MON", "month",
                "MM", "QUARTER", "YEAR", "yyyy", "YY", "Q", "days", "")
_FIELD_FUNCTIONS = ("year", "quarter", "month", "day", "dayofmonth", "dayofweek", "weekday", "dayofyear",
                    "weekofyear", "hour", "minute", "second", "unix_timestamp", "to_unix_timestamp")
_EXTRACT_FIELDS = ("YEAR", "y", "YEAROFWEEK", "QUARTER", "MONTH", "WEEK", "DAY", "DAYOFWEEK", "dow_iso", "DOY",
                   "HOUR", "MINUTE", "SECOND", "secs")


def _datetime_field_expressions() -> list[tuple[str, str]]:
    out = []
    moved, ntz, dates = ("({} + {})", "fz", "fy"), ("({} + {})", "fn", "fy"), ("(greatest({}, {}))", "fd", "fd")
    for function in _FIELD_FUNCTIONS:
        for template, x, y in (moved, ntz, dates):
            out.append(_pair(f"{function}{template}", x, y))
    for field in _EXTRACT_FIELDS:
        for template, x, y in (moved, ntz, dates):
            out.append(_pair(f"date_part('{field}', {template})", x, y))
    out.append(_pair("extract(SECOND FROM ({} + {}))", "fz", "fy"))
    out.append(_pair("extract(DOW FROM greatest({}, {}))", "fd", "fd"))
    out.append(_pair("datepart('hour', greatest({}, {}))", "ts1", "ts2"))
    for unit in _TRUNC_UNITS:
        out.append(_pair(f"date_trunc('{unit}', ({{}} + {{}}))", "fz", "fy"))
    for unit in ("HOUR", "DAY", "WEEK", "MONTH"):
        out.append(_pair(f"date_trunc('{unit}', ({{}} + {{}}))", "fn", "fy"))
        out.append(_pair(f"date_trunc('{unit}', greatest({{}}, {{}}))", "fd", "fd"))
    for x, y in (("fd", "fd"), ("fz", "fz"), ("dt1", "dt2")):
        out.append(_pair("trunc(greatest({}, {}), {})", x, y, "fu"))
    out.append(_pair("trunc(({} + {}), 'WEEK')", "fz", "fy"))
    # date_trunc's unit read from a row (the parser keeps it as written: sparkcep.dialect.parser)
    out.append(_pair("date_trunc({}, ({} + {}))", "fu", "fz", "fy"))
    out.append(_pair("date_trunc(upper({}), greatest({}, {}))", "fu", "fd", "fd"))
    # literal units sqlglot's Spark parser would normalize ('q' to QUARTER; Spark reads 'q' as no unit)
    for unit in ("q", "Q", "mon", "dd", "yy", "w"):
        out.append(_pair(f"trunc(greatest({{}}, {{}}), '{unit}')", "fd", "fd"))
        out.append(_pair(f"date_trunc('{unit}', greatest({{}}, {{}}))", "fd", "fd"))
    for function in ("unix_seconds", "unix_millis", "unix_micros"):
        out.append(_pair(function + "(({} + {}))", "fz", "fy"))
        out.append(_pair(function + "(({} + {}))", "fn", "fy"))
    out.append(_pair("unix_timestamp(({} + {}), 'yyyy')", "fz", "fy"))
    out.append(_pair("hour(greatest({}, {}))", "ts1", "ts2"))
    out.append(_pair("weekofyear(greatest({}, {}))", "dt1", "dt2"))
    return out
# -- fields of dates and timestamps (end) --------------------------------------------------------

# -- isnan, nanvl, width_bucket, elt, initcap between rows (begin) --------------------------------
# width_bucket's cases, one a row (value, min, max, buckets): inside, below, at max, past it, at
# min, a reversed range (and its ends), min = max, NaN value, infinite or NaN bounds, 0, -1 and
# the largest BIGINT buckets, v - min and max - min both rounding to 1.0 below max with n = 2^63 - 2
# (n * 1.0 is 2^63 as a DOUBLE: (long) saturates and + 1 wraps to the smallest BIGINT), NULL
# buckets
PAIRED.update({"bv": "DOUBLE", "bl": "DOUBLE", "bh": "DOUBLE", "bn": "BIGINT", "en": "INT", "ic": "STRING"})
_WIDTH_CASES = [
    ("5.3", "0.2", "10.6", "5"), ("-0.9", "5.2", "0.5", "2"), ("10.0", "0", "10", "4"), ("11", "0", "10", "4"),
    ("0", "0", "10", "4"), ("2.5", "10", "0", "4"), ("10", "10", "0", "4"), ("0", "10", "0", "4"),
    ("1", "3", "3", "4"), ("NaN", "0", "10", "4"), ("1", "-Infinity", "10", "4"), ("1", "0", "NaN", "4"),
    ("1", "0", "10", "0"), ("1", "0", "10", "-1"), ("1", "0", "10", str(2**63 - 1)), ("1", "0", "10", str(2**63 - 2)),
    ("0", "-1", "1E-17", str(2**63 - 2)),
    ("-0.0", "0.0", "1", "3"), ("0.999999999999", "0", "1", "1000000000000"), ("1", "0", "10", None),
]
_PAIRED_EDGES.update({
    "bv": [c[0] for c in _WIDTH_CASES], "bl": [c[1] for c in _WIDTH_CASES], "bh": [c[2] for c in _WIDTH_CASES],
    "bn": [c[3] for c in _WIDTH_CASES],
    "en": ["1", "2", "3", "0", "-1", None, str(2**31 - 1)],
    # initcap: full title-case mappings (ǆ, ß, ŉ, ligatures), a word after a space only (not a tab
    # or a hyphen), final sigma in lower case, İ's lower case of two code points, outside the BMP
    "ic": ["ǆa ßb  x-y ÿz iİ", "a\tb", "ΑΣ ΟΣ", "", " lead  two", "ŉx ﬀ ﬁx", "hello WORLD", "𐐨x 𐐀y", "ǈ Ǉ"],
})


def _scalar_function_expressions() -> list[tuple[str, str]]:
    out = []
    for x, y in (("d1", "d2"), ("f1", "f1"), ("i1", "d1"), ("f1", "i1"), ("m1", "d2"), ("bv", "bl")):
        out.append(_pair("nanvl({}, {})", x, y))
        out.append(_pair("isnan(({} * {}))", x, y))
    out.append(_pair("nanvl(({} / {}), {})", "d1", "d2", "d1"))
    out.append(_pair("nanvl(({} / {}), {})", "f1", "f1", "f1"))
    out.append(_pair("width_bucket({}, {}, {}, {})", "bv", "bl", "bh", "bn"))
    out.append(_pair("width_bucket({}, {}, {}, 3)", "d1", "d2", "i1"))
    out.append(_pair("width_bucket({}, {}, {}, {})", "i1", "n1", "m1", "t1"))
    out.append(_pair("elt({}, {}, {})", "en", "s1", "s2"))
    out.append(_pair("elt({}, {}, {}, 'x')", "t1", "s1", "s2"))
    out.append(_pair("elt(({} % 4), {})", "i1", "s2"))
    out.append(_pair("initcap(({} || {}))", "ic", "ic"))
    out.append(_pair("initcap(({} || {}))", "s1", "s2"))
    # degrees / radians: Java 9's one product with the constant (Java 8's quotient by pi differs
    # for -2.25, 0.1, 7 ... and 1.5, 3 ...)
    for x, y in (("d1", "d2"), ("i1", "i2"), ("m1", "n1"), ("f1", "f1"), ("bv", "bl")):
        out.append(_pair("degrees(({} + {}))", x, y))
        out.append(_pair("radians(({} - {}))", x, y))
    return out
# -- isnan, nanvl, width_bucket, elt, initcap between rows (end) ----------------------------------

# -- values of other types where Spark expects a STRING (begin) -----------------------------------
# Spark casts an integral, DECIMAL, BOOLEAN, DATE or TIMESTAMP[_NTZ] argument of a string function
# to STRING implicitly, ANSI on or off (DECIMAL plainly or as BigDecimal.toString without ANSI,
# timestamps local with the fraction trimmed); not where it expects a BINARY (the hashes) or in
# array_join's delimiter, which stay Spark's analysis errors.


def _implicit_string_cast_expressions() -> list[tuple[str, str]]:
    out = []
    for x, y in (("i1", "s2"), ("l1", "n1"), ("m1", "b1"), ("dt1", "ts2"), ("tn1", "s1"), ("q2", "z1"),
                 ("t1", "h1"), ("ts1", "dt2")):
        out.append(_pair("concat({}, {})", x, y))
    out.append(_pair("({} || {})", "i1", "i2"))
    for x, y in (("i1", "i2"), ("l1", "l2"), ("n1", "q1"), ("t1", "h1")):
        out.append(_pair("length(({} + {}))", x, y))
        out.append(_pair("substring(({} * {}), 2, 3)", x, y))
    out.append(_pair("upper(coalesce({}, {}))", "ts1", "ts2"))
    out.append(_pair("lower(coalesce({}, {}))", "tn1", "tn1"))
    out.append(_pair("initcap(({} OR {}))", "b1", "b2"))
    out.append(_pair("({} LIKE concat({}, '%'))", "s1", "i1"))
    out.append(_pair("(concat({}, 'x') LIKE {})", "i1", "s2"))
    out.append(_pair("({} RLIKE {})", "s1", "t1"))
    out.append(_pair("({} ILIKE concat({}, '%'))", "dt1", "dt2"))
    out.append(_pair("concat_ws(({} + {}), 'a', 'b')", "i1", "i2"))
    out.append(_pair("concat_ws('-', {}, {}, {})", "dt1", "b2", "z1"))
    out.append(_pair("elt(2, {}, {})", "i1", "dt2"))
    out.append(_pair("locate({}, {})", "i1", "s2"))
    out.append(_pair("replace({}, {}, 'x')", "z1", "i1"))
    out.append(_pair("lpad({}, 12, {})", "b1", "t1"))
    out.append(_pair("regexp_replace({}, '1', {})", "l1", "i1"))
    out.append(_pair("startswith({}, {})", "tn1", "dt1"))
    out.append(_pair("find_in_set({}, {})", "i1", "s1"))
    out.append(_pair("trim(({} - {}))", "n1", "q1"))
    out.append(_pair("md5(({} + {}))", "i1", "i2"))  # Spark takes a BINARY: refused
    out.append(_pair("array_join(array({}, {}), 1)", "s1", "s2"))  # Spark casts no delimiter: refused
    # a STRING where Spark expects a DOUBLE (the math functions): CAST(s AS DOUBLE) in the session's mode
    for function in ("sqrt", "ln", "exp", "cbrt", "asin", "tanh", "sign", "degrees"):
        out.append(_pair(f"{function}(coalesce({{}}, {{}}))", "cs", "cs"))
    for template in ("atan2({}, {})", "hypot({}, {})", "power({}, {})", "log({}, {})"):
        out.append(_pair(template, "cs", "cd"))
    return out
# -- values of other types where Spark expects a STRING (end) -------------------------------------

# -- a STRING with another type in comparisons, arithmetic, IN, COALESCE, IF (begin) --------------
# Spark's type coercion (binding/string_coercion.py): ANSI on, a STRING with an integral number
# is read as a BIGINT, with a FLOAT, DOUBLE or DECIMAL as a DOUBLE, with a DATE, TIMESTAMP or
# BOOLEAN as that type; ANSI off, as the other type in a comparison, as a DOUBLE in arithmetic,
# and IN, COALESCE and IF compare and give STRINGs. The STRING edges hold numbers with spaces,
# fractions, exponents, NaN, Infinity, 2^63, dates, a timestamp in the spring gap, 'true'.


def _string_coercion_expressions() -> list[tuple[str, str]]:
    out = []
    for template, x, y in (("({} = {})", "s1", "i1"), ("({} < {})", "s1", "l2"), ("({} > {})", "t1", "s2"),
                           ("({} <=> {})", "s1", "h1"), ("({} = {})", "s1", "d2"), ("({} = {})", "f1", "s2"),
                           ("({} < {})", "s1", "n1"), ("({} >= {})", "m1", "s2"), ("({} = {})", "s1", "b2"),
                           ("({} = {})", "s1", "dt2"), ("({} < {})", "ts1", "s2"), ("({} = {})", "s1", "tn1"),
                           ("({} IS DISTINCT FROM {})", "s1", "i2"), ("({} + {})", "s1", "i2"),
                           ("({} - {})", "l1", "s2"), ("({} * {})", "s1", "d2"), ("({} / {})", "n1", "s2"),
                           ("({} % {})", "s1", "t1"), ("({} * {})", "s1", "q2"), ("({} IN ({}, 7))", "s1", "i2"),
                           ("({} IN ({}, '1'))", "i1", "s2"), ("({} IN ({}))", "s1", "dt2"),
                           ("coalesce({}, {})", "s1", "i2"), ("coalesce({}, {})", "dt1", "s2"),
                           ("nullif({}, {})", "s1", "i2"), ("({} BETWEEN {} AND 100)", "s1", "i2")):
        out.append(_pair(template, x, y))
    out.append(_pair("IF({}, {}, {})", "b1", "s2", "i1"))
    out.append(_pair("CASE WHEN {} THEN {} ELSE {} END", "b1", "s2", "ts1"))
    out.append(_pair("nvl2({}, {}, {})", "i1", "s2", "l1"))
    out.append(_pair("(({} + {}) > '10')", "i1", "i2"))
    # a DECIMAL of scale 0: without ANSI the STRING is cast to it ('Infinity' to NULL), not to DOUBLE
    for template, x, y in (("({} < {})", "z1", "s2"), ("({} = {})", "s1", "w2"), ("({} BETWEEN {} AND 100)", "s1", "u2"),
                           ("nullif({}, {})", "s1", "z1"), ("({} <=> {})", "s1", "z1")):
        out.append(_pair(template, x, y))
    # Spark knows <=> is never NULL and folds IS [NOT] NULL over it without casting the STRING
    out.append(_pair("(CAST(({} <=> {}) AS INT) IS NOT NULL)", "s1", "q2"))
    out.append(_pair("((NOT ({} <=> {})) IS NULL)", "s1", "i1"))
    out.append(_pair("(CAST(({} <=> {}) AS STRING) IS NULL)", "s1", "d2"))
    # ... and that a CASE whose results are never NULL is never NULL (decode too: a CASE of <=>)
    out.append(_pair("(decode({}, {}, 'x', 'other') IS NULL)", "n1", "s2"))
    out.append(_pair("(CASE WHEN {} = {} THEN 1 ELSE 2 END IS NOT NULL)", "s1", "i1"))
    out.append(_pair("(CASE WHEN {} = {} THEN 1 END IS NULL)", "s1", "i1"))
    return out
# -- a STRING with another type in comparisons, arithmetic, IN, COALESCE, IF (end) ----------------

# -- url_encode, url_decode, try_url_decode between rows (begin) -----------------------------------
# one case a row, (A.ue1 || B.ue2): a space and '~' (kept by Python's quote_plus, not by Java's
# URLEncoder), signs after '%' (Integer.parseInt reads '+1' and '-0'; '-1' is negative), a '%'
# with fewer than two characters after it, malformed UTF-8 (truncated, overlong, surrogates,
# past U+10FFFF, stray continuation bytes) decoded run by run, digits of other scripts and
# full-width letters (Character.digit), lower-case hex, NULL
PAIRED.update({"ue1": "STRING", "ue2": "STRING"})
_URL_CASES = [
    ("a b", "~c"), ("%+1", "x"), ("%-0", ""), ("%-1", ""), ("%4", ""), ("abc", "%"), ("%%", "41"),
    ("%C3", "%A9"), ("%C3", "%28"), ("%ED%A0", "%80"), ("%C0", "%80"), ("%F4%90", "%80%80"),
    ("%F0%9F", "%98"), ("%E2%82", "x"), ("%80", "%80"), ("%\u0663", "1"), ("%\uff21", "1"), ("%4", "1%42"),
    ("+", "+"), ("é😀", " /?"), ("", ""), (None, "x"), ("%2", "B"), ("%ff", "%FE"), ("%e2%82%ac", ""),
    ("%+a", "b"), ("%1", "+"), ("a%", "20b"), ("%F0%9F%98", "%80"), ("%\uff41", "0"),
    ("%ED%A0", "A"), ("%ED%BF", "%BF%ED%9F%BF"),
]
_PAIRED_EDGES.update({"ue1": [c[0] for c in _URL_CASES], "ue2": [c[1] for c in _URL_CASES]})


# parse_url's cases, one a row, (A.pu1 || B.pu2), as java.net.URI reads them: a server-based
# authority (user info, port), registry-based ones (no host: '_', a last label starting with a
# digit, a label starting or ending with '-', a non-ASCII name, a port past INT, a port with a
# letter), IPv4 and IPv6 literals (a scope id, an embedded IPv4, too many or too few groups), an empty
# authority, an opaque URI, no scheme, a scheme starting with a digit, malformed escapes,
# spaces (also U+3000), non-ASCII characters in the path, query and fragment, an empty query
# and fragment, a query's key in the fragment, NULL
PAIRED.update({"pu1": "STRING", "pu2": "STRING"})
_PARSE_URL_CASES = [
    ("http://user:pw@host.com:8080", "/p/a?x=1&y=2#frag"), ("http://a_b.com", "/p"), ("http://[1:2:3]:80", "/p"),
    ("not a url", ""), ("http://h/p", "%zz"), ("mailto:", "a@b"), ("http://1.2.3", "/x"), ("http://bücher.de", "/"),
    ("http:", "///p"), ("http:", "//"), ("http://1.2.3.4:80", "/x"), ("http://256.1.1.1", "/"),
    ("http://[fe80::1%eth0]", "/"), ("http://[::ffff:1.2.3.4]", "/a"), ("http://[1:2:3:4:5:6:7:8:9]", ""),
    ("http://h:99999999999", "/"), ("http://h:8a", "/"), ("//host", "/path?q#f"), ("1http:", "//h"),
    ("HTTP://Host.COM", "/Ä?ä=ö#ü"), ("http://h", "/a b"), ("http://h/?a=1&b=", "2&a=3"), ("http://h/", "?x=1#&a=2"),
    ("http://-h.com", "/"), ("http://h-.com", "/"), ("http://h.com.", "/"), ("http://u@", "h:1/p"),
    ("file:", "/C:/x y"), ("http://h", "#"), ("http://h?", ""), (None, "x"), ("http://h\u3000", "/"),
]
_PAIRED_EDGES.update({"pu1": [c[0] for c in _PARSE_URL_CASES], "pu2": [c[1] for c in _PARSE_URL_CASES]})


def _url_expressions() -> list[tuple[str, str]]:
    out = []
    for function in ("url_encode", "url_decode", "try_url_decode"):
        out.append(_pair(function + "(({} || {}))", "ue1", "ue2"))
    out.append(_pair("url_decode(url_encode(({} || {})))", "s1", "s2"))
    for part in ("HOST", "PATH", "QUERY", "REF", "PROTOCOL", "FILE", "AUTHORITY", "USERINFO", "host"):
        out.append(_pair("parse_url(({} || {}), '" + part + "')", "pu1", "pu2"))
    for part, key in (("QUERY", "a"), ("QUERY", "x"), ("HOST", "a"), ("QUERY", "a|x")):
        out.append(_pair("parse_url(({} || {}), '" + part + "', '" + key + "')", "pu1", "pu2"))
    out.append(_pair("try_parse_url(({} || {}), 'HOST')", "pu1", "pu2"))
    return out
# -- url_encode, url_decode, try_url_decode between rows (end) -------------------------------------

# -- format_string / printf, typeof and decode between rows (begin) -------------------------------
# (A.fi1, B.fi2): INTs for Java's integer conversions and %c (code points outside Unicode, both
# halves of a surrogate pair, negatives, the extremes, NULL); (A.fs1, B.fs2): STRINGs for %s and
# its precision and width in UTF-16 units (a character outside the BMP cut in half), %S's full
# upper case (ß), %h (Spark's UTF8String hash), NULL; A.fd1: DECIMAL(20, 8) for Spark Decimal's
# toString (scientific below 1E-6, 0E-8), BigDecimal's scale kept
PAIRED.update({"fi1": "INT", "fi2": "INT", "fs1": "STRING", "fs2": "STRING", "fd1": "DECIMAL(20,8)"})
_FORMAT_CASES = [
    (65, 97, "a", "b", "1.5"), (0x1F600, 0x1F601, "é😀x", "😀", "-0.0000001"), (0xD83D, 0xDE00, "ßa", "ß", "0"),
    (-1, 0, "", "", "0.000001"), (0x110000, 0x10FFFF, None, "x", "-2.5"), (None, 65, "abcdef", None, None),
    (2**31 - 1, -2**31, "a b", "%", "123456789012.12345678"), (-7, 1234567, "Σσς", "İ", "-0.00000001"),
    (0xDFFF, 0xD800, "日本語", "a😀b", "0.00001000"), (12345, -12345, "null", "NULL", "99999999999.99999999"),
]
_PAIRED_EDGES.update({name: [case[k] for case in _FORMAT_CASES]
                      for k, name in enumerate(("fi1", "fi2", "fs1", "fs2", "fd1"))})


def _format_string_expressions() -> list[tuple[str, str]]:
    out = []
    integer = ("%1$d|%1$x|%1$o|%1$X|%1$08d|%1$,d|%1$(d|%1$+d|%1$ d|%1$-12d|%1$#x|%1$#o|%1$h|%1$b|%1$s|%1$S|"
               "%1$5s|%<.2s|%2$d|%2$,015d|%2$(,d|%2$#X|%%|%n")
    for x, y in (("fi1", "fi2"), ("l1", "fi2"), ("t1", "h1"), ("h1", "t1"), ("i1", "l2")):
        out.append(_pair("format_string('" + integer + "', {}, {})", x, y))
    out.append(_pair("format_string('%c%c', {}, {})", "fi1", "fi2"))  # code points, surrogates
    out.append(_pair("printf('%C|%5c|%-3c|', {}, {}, {})", "fi2", "t1", "fi2"))
    text = "%1$s|%2$.2s|%1$5s|%2$-5s|%1$S|%2$.1S|%1$b|%2$h|%1$10.3s|%2$H|%1$.0s|%2$B"
    out.append(_pair("format_string('" + text + "', {}, {})", "fs1", "fs2"))
    out.append(_pair("format_string('%s|%S|%b|%15s|%.3s|%s', {}, {}, {}, {}, {}, {})",
                     "fd1", "m2", "fd1", "n1", "fd1", "z1"))
    out.append(_pair("format_string('%s|%d|%x|%h|%s|%d|%o|%h|%s', {}, {}, {}, {}, {}, {}, {}, {}, {})",
                     "dt1", "dt2", "dt1", "dt2", "ts1", "ts2", "ts1", "ts2", "tn1"))
    out.append(_pair("format_string('%s|%b|%B|%h|%5.2b|%S', {}, {}, {}, {}, {}, {})", "b1", "b2", "b1", "b2", "b1", "b2"))
    out.append(_pair("format_string('%b|%h|%B|%H', {}, {}, {}, {})", "d1", "f1", "d1", "f1"))
    out.append(_pair("format_string('%s/%d', {}, {})", "j1", "j2"))  # day-time intervals: microseconds
    out.append(_pair("format_string('%s-%s', {}, {} + {})", "fs1", "fi2", "fi1"))
    # DECIMALs computed between rows (printed at their result type's scale), NULL literals
    out.append(_pair("format_string('%s|%s|%S', {} * {}, {} + {}, {} / {})", "fd1", "fi2", "n1", "fd1", "fd1", "fi2"))
    out.append(_pair("format_string('%s|%d|%b|%5.2s|%s', NULL, NULL, NULL, NULL, {} || {})", "fs1", "fs2"))
    # Java's exceptions: when the specifier is reached (MissingFormatArgument), when the value is
    # not NULL (IllegalFormatConversion, %(x's mismatch), when parsing (before anything prints)
    for template in ("'%d', {} || {}", "'%s %s %s', {}, {}", "'%q', {}, {}", "'%e', {} + {}", "'%d', {} + {}",
                     "'%(x|% o', {}, {}", "'%#s', {}, {}", "'%-d', {}, {}", "'%05s', {}, {}", "'%.2d', {}, {}",
                     "'%c', {} + {}", "'%s %<s %3$s', {}, {}", "'%,x', {}, {}", "'%+ d', {}, {}", "'%-08d', {}, {}",
                     "'%--5d', {}, {}", "'%5n%s', {}, {}", "'%.1c', {}, {}", "'ab%', {}, {}", "'%tq', {}, {}",
                     "'%99999999999s', {}, {}", "'%00$s', {}, {}"):
        columns = ("fs1", "fs2") if "||" in template else ("fd1", "fi2") if "'%e'" in template or "'%d', {} +" in template \
            else ("l1", "fi2") if "'%c'" in template else ("fi1", "fi2")
        out.append(_pair("format_string(" + template + ")", *columns))
    out.append(_pair("format_string('%s', {}, {})", "d1", "fi2"))  # refused: Java's digits of a DOUBLE
    out.append(_pair("format_string('%tY', {}, {})", "ts1", "fi2"))  # refused: the JVM's time zone
    out.append(_pair("format_string('%h', {}, {})", "fd1", "fi2"))  # refused: Scala's BigDecimal hash
    out.append(_pair("format_string(NULL, {}, {})", "fi1", "fi2"))
    # typeof: Spark's catalogString, a constant (its operand is not evaluated: 1 / 0 is no error)
    for template in ("{} + {}", "{} * {}", "array({}, {})", "{} - {}", "map({}, {})", "concat({}, {})",
                     "{} / ({} - {})", "coalesce({}, {})", "{} || {}", "{} = {}", "if({} > 0, NULL, {})"):
        columns = {"{} * {}": ("n1", "q2"), "{} - {}": ("ts1", "ts2"), "map({}, {})": ("s1", "fd1"),
                   "concat({}, {})": ("dt1", "s2"), "{} / ({} - {})": ("i1", "i2", "i2"),
                   "coalesce({}, {})": ("tn1", "dt2"), "{} || {}": ("fs1", "fi2"), "{} = {}": ("j1", "j2"),
                   "if({} > 0, NULL, {})": ("i1", "m2")}.get(template, ("i1", "l2"))
        out.append(_pair("typeof(" + template + ")", *columns))
    # decode(x, s1, r1, ..., [default]): CASE WHEN x <=> s1 ..., without a default a NULL STRING
    # (so a STRING result with ANSI off: the numbers below read back as text)
    # (A.fi1 % 2 <=> B.fi2 % 2: equal parities, a 0, a NULL among the designed rows; a BOOLEAN
    # result without a default is Spark's analysis error with ANSI off, so the last has one)
    for template, columns in (("decode({}, {} - 32, 'same', 'other')", ("fi1", "fi2")),
                              ("decode({} % 2, {} % 2, 1, 0, 2.5)", ("fi1", "fi2")),
                              ("decode({} % 2, {} % 2, 1, 0, 2)", ("fi1", "fi2")),
                              ("decode({}, {}, 1, 2, 2, 3)", ("i1", "i2")),
                              ("decode({}, NULL, 'null', {}, 'equal', 'other')", ("fs1", "fs2")),
                              ("decode({}, {}, 'a', 'b')", ("s1", "i2")),
                              ("decode({} % 3, {} % 3, {})", ("fi1", "fi2", "fd1")),
                              ("decode({} % 2, {} % 2, {})", ("fi1", "fi2", "dt1")),
                              ("decode({} % 2, {} % 2, {}, NULL, {}, FALSE)", ("fi1", "fi2", "b1", "b2")),
                              ("decode({}, {}, {}, {})", ("dt1", "dt2", "ts1", "s2")),
                              ("decode({} + {}, 0, 'zero', 1, 'one')", ("t1", "h1")),
                              ("typeof(decode({}, {}, 1, 2, 2.5))", ("i1", "i2")),
                              ("typeof(decode({}, {}, {}, {}))", ("dt1", "dt2", "ts1", "s2"))):
        out.append(_pair(template, *columns))
    return out
# -- format_string / printf, typeof and decode between rows (end) ---------------------------------
# -- datetime patterns between rows: date_format, to_char, from_unixtime, to_timestamp, ... (begin) ---
# TIMESTAMPs (dp, local in Europe/Berlin) moved by the intervals dq: year 1 at 01:00 (local mean time,
# +00:53:28, an offset in seconds), the last microsecond of 9999 (its UTC instant is in 9999, so
# Berlin's local year 10000 is out of Python's range only after + 1 hour), the first instant
# after the gap, 02:30 of the overlap (+ 1 hour: its second pass, +01:00), midnight and noon for
# the 12-hour clocks, a leap year's day 366, fractions of 1 to 6 digits, years 10 and 999 (yy,
# yyy), a Sunday, the first of each quarter's months; BIGINT seconds (du) for from_unixtime: the
# last second of 9999 in Berlin, two seconds before year 1 in UTC but in year 1 in Berlin's local
# mean time (-62135599999, -62135596801), 2^31 and -2^31 (a second whose local date-time is
# past 9999, which Spark prints as +10000-..., is DATETIME_OUT_OF_PYTHON_RANGE here: not in it)
PAIRED.update({"dp": "TIMESTAMP", "dq": "INTERVAL DAY TO SECOND", "du": "BIGINT"})
_PAIRED_EDGES.update({
    "dp": [_dt(1, 1, 1, 1, 0), _dt(9999, 12, 31, 23, 59, 59, 999999), _dt(2024, 3, 31, 3, 0, 0, 1),
           _dt(2024, 10, 27, 2, 30), _dt(2024, 1, 1, 0, 0), _dt(2024, 6, 15, 12, 0), _dt(2024, 12, 31, 23, 59, 59, 100000),
           _dt(1893, 3, 31, 23, 59, 59, 120000), _dt(2021, 1, 3, 13, 5, 7, 123456), _dt(1970, 1, 1, 0, 59, 59, 1),
           _dt(2024, 9, 9, 9, 9, 9, 90000), _dt(2000, 2, 29, 11, 59, 59, 999000), _dt(1999, 7, 4, 23, 0),
           _dt(10, 5, 17, 1, 2, 3, 4500), _dt(999, 12, 31, 12, 30, 0, 12000), _dt(2024, 4, 1, 0, 0, 0, 100)],
    "dq": [_td(0), _td(0), _td(0), _td(hours=1), _td(0), _td(0), _td(0), _td(0), _td(0), _td(0), _td(0)],
    "du": ["0", "-1", "1711846799", "1711846800", "-62135596800", "253402297199", "-62135599999", "-62135596801",
           "1729989000", str(2**31), str(-2**31), "951782399", "-2208988800", "1000000000"],
})
_FORMATS = [
    "yyyy-MM-dd HH:mm:ss.SSSSSS", "y yy yyy yyyy yyyyy yyyyyy", "G GGGG y yy yyyy", "M MM MMM MMMM L LL LLL LLLL",
    "d dd D DD DDD F", "Q QQ QQQ QQQQ q qq qqq qqqq", "E EE EEE EEEE", "a h hh K KK k kk H HH", "m mm s ss",
    "S SS SSS SSSS SSSSS SSSSSS SSSSSSS SSSSSSSS SSSSSSSSS", "VV O OOOO X XX XXX XXXX XXXXX",
    "x xx xxx xxxx xxxxx Z ZZ ZZZ ZZZZ ZZZZZ", "g gggggggg", "'quoted ''text'' y' yyyy '' [MM][ dd]",
    "[yyyy-MM-dd'T'HH:mm[:ss][.SSS]]", "EEEE, MMMM d, yyyy h:mm a", "yyyyMMddHHmmssSSS",
    "yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "é日 -/:,.;!<>yyyy", "", "z zz zzz zzzz v vvvv",
]
# STRINGs parsed, one column a family of patterns (each text designed for one of them, the
# others failing): the default 'yyyy-MM-dd HH:mm:ss' (pa: the gap and the overlap, years 1, 0,
# -1, 9999 and 12024, invalid days and times, a signed year, other digits, white space);
# fractions (pb); the 12-hour clocks (pc); month names (pd); compact forms, adjacent values and
# offsets (pe); short years, days of year, missing fields (pf); zone ids and localized offsets
# (pg); eras and modified Julian days (ph)
PAIRED.update({"pa": "STRING", "pb": "STRING", "pc": "STRING", "pd": "STRING", "pe": "STRING", "pf": "STRING",
               "pg": "STRING", "ph": "STRING"})
_PAIRED_EDGES.update({
    "pa": ["2024-03-31 02:30:00", "2024-10-27 02:30:00", "0001-01-01 00:00:00", "9999-12-31 23:59:59",
           "2024-02-30 00:00:00", "2023-02-29 12:00:00", "2024-13-01 00:00:00", "2024-03-05 24:00:00",
           "2024-03-05 23:60:00", "2024-03-05 10:05:60", "2024-3-5 10:05:06", " 2024-03-05 10:05:06",
           "2024-03-05 10:05:06 ", "2024-03-05T10:05:06", "12024-03-05 00:00:00", "+2024-03-05 00:00:00",
           "-0001-03-05 00:00:00", "0000-02-29 00:00:00", "٢٠٢٤-03-05 10:05:06", "", None, "1969-12-31 23:59:59",
           "1970-01-01 00:59:59", "2024-03-05 10:05:06.5", "2024-03-05 1:05:06", "1893-03-31 23:59:59",
           "2024-10-27 03:00:00", "2024-03-31 03:00:00", "2024-03-31 01:59:59", "9999-12-31 23:59:60",
           "0001-01-01 00:53:28", "+12024-03-05 00:00:00"],
    "pb": ["2024-03-05 10:05:06.1", "2024-03-05 10:05:06.12", "2024-03-05 10:05:06.123", "2024-03-05 10:05:06.1234",
           "2024-03-05 10:05:06.", "2024-03-05 10:05:06", "1969-12-31 23:59:59.999", "2024-03-05 10:05:06.123456789",
           "2024-03-05 10:05:06.1234567891", "2024-03-05 10:05:06.000001", "2024-03-05 10:05:06.x",
           "1970-01-01 00:59:59.9999999"],
    "pc": ["12:30 AM", "12:30 PM", "12:30 pm", "00:30 AM", "11:30 PM", "13:30 PM", "13:30 AM", "24:30 AM",
           "1:30 AM", "01:30 XM", "12:00 am", "11:59 P", "07:05 Am", "12:30"],
    "pd": ["5 Mar 2024", "5 mar 2024", "5 MAR 2024", "5 March 2024", "March 5, 2024", "march 5, 2024",
           "Sept 5, 2024", "31 Feb 2024", "29 Feb 2023", "05-Mar-24", "5-Mar-24", "05-Mar-2024", "1 Jan 0001",
           "December 31, 9999", "5 Mär 2024", "29 Feb 2024"],
    "pe": ["20240305", "240305", "20240305101112", "2024-03-05 10:11 +05:30", "2024-03-05 10:11 Z",
           "2024-03-05 10:11 z", "2024-03-05 10:11 +0530", "2024-03-05 10:11 -08:00", "2024-03-05 10:11 +24:00",
           "2024-03-05", "2024-03-05 10:11", "0001-01-01 00:30 +01:00", "9999-12-31 23:30 -01:00",
           "2024-03-05 10:11 +00:00", "2024-03-05 10:11 +05", "2024-03-05 10:11 +053045", "2024035",
           "2024-03-05 10:11 -00:30", "2024-03-05 10:11 +0000", "99991231235959"],
    "pf": ["1-3-5", "024-03-05", "2024 065", "2024 366", "2023 366", "2024-03 065", "2024-04 065", "02-29",
           "03-05", "2024", "-5-1-1", "2024-03-05 065", "2024-03-06 065", "2024 0", "05", "1-1-1"],
    "pg": ["2024-03-05 10:11 Europe/London", "2024-03-05 10:11 europe/london", "2024-03-31 02:30 Europe/Berlin",
           "2024-10-27 02:30 Europe/Berlin", "2024-03-05 10:11 UTC+01:00", "2024-03-05 10:11 UT-05:30:15",
           "2024-03-05 10:11 GMT0", "2024-03-05 10:11 GMT+0", "2024-03-05 10:11 Z", "2024-03-05 10:11 Zulu",
           "2024-03-05 10:11 +05:30", "2024-03-05 10:11 -08", "2024-03-05 10:11 America/Argentina",
           "2024-03-05 10:11 Etc/GMT+5", "2024-03-05 10:11 EST", "2024-03-05 10:11 GMT+18:01",
           "2024-03-05 10:11 GMT+1", "2024-03-05 10:11 GMT+01:00", "2024-03-05 10:11 gmt-8:30",
           "2024-03-05 10:11 GMT+12:99", "2024-03-05 10:11 GMT+19", "2024-03-05 10:11 GMT",
           "2024-03-05 10:11 GMT+1:5", "2024-03-05 10:11", "0001-01-01 00:30 Asia/Tokyo", "2024-03-05 10:11 +24:00",
           "2024-03-05 10:11 +01:00 Europe/London", "2024-03-05 10:11 GMT+01:30:15", "2024-03-05 10:11 UTC0",
           "2024-03-05 10:11 GMT+12:34:56"],
    "ph": ["2024-03-05 AD", "2024-03-05 BC", "0001-03-05 BC", "0000-03-05 BC", "2024-03-05 Anno Domini",
           "0005-03-05 Before Christ", "60374", "-678942", "2973484", "60374 04", "60374 03", "+5", "2024-03-05",
           "2024-03-05 ad", "-5-03-05 AD", "5 AD", "24 BC"],

})
_PARSINGS = [  # (function, column, pattern): to_... raise under ANSI, try_... never
    ("to_timestamp", "pa", "yyyy-MM-dd HH:mm:ss"), ("to_date", "pa", "yyyy-MM-dd HH:mm:ss"),
    ("try_to_timestamp", "pa", "yyyy-MM-dd HH:mm:ss"), ("to_timestamp_ntz", "pa", "yyyy-MM-dd HH:mm:ss"),
    ("unix_timestamp", "pa", None), ("to_unix_timestamp", "pa", "yyyy-MM-dd HH:mm:ss"),
    ("try_to_date", "pa", "y-M-d H:m:s"), ("to_timestamp_ltz", "pa", "yyyy-MM-dd HH:mm:ss[.S]"),
    ("to_timestamp", "pb", "yyyy-MM-dd HH:mm:ss.SSS"), ("try_to_timestamp", "pb", "yyyy-MM-dd HH:mm:ss.SSSSSSSSS"),
    ("unix_timestamp", "pb", "yyyy-MM-dd HH:mm:ss.SSSSSSS"), ("try_to_timestamp", "pb", "yyyy-MM-dd HH:mm:ss[.SS]"),
    ("try_to_timestamp", "pb", "yyyy-MM-dd HH:mm:ss.SS'x'"),
    ("to_timestamp", "pc", "hh:mm a"), ("try_to_timestamp", "pc", "h:mm a"), ("try_to_timestamp", "pc", "KK:mm a"),
    ("try_to_timestamp", "pc", "HH:mm a"), ("try_to_timestamp", "pc", "kk:mm a"), ("try_to_timestamp", "pc", "hh:mm"),
    ("try_to_timestamp", "pc", "a"),
    ("to_date", "pd", "d MMM yyyy"), ("try_to_date", "pd", "MMMM d, yyyy"), ("try_to_timestamp", "pd", "dd-LLL-yy"),
    ("try_to_date", "pd", "d LLLL yyyy"),
    ("try_to_timestamp", "pe", "yyyyMMdd"), ("try_to_timestamp", "pe", "yyMMdd"),
    ("try_to_timestamp", "pe", "yyyyMMddHHmmss"), ("to_timestamp", "pe", "yyyy-MM-dd HH:mm XXX"),
    ("try_to_timestamp", "pe", "yyyy-MM-dd HH:mm Z"), ("try_to_timestamp", "pe", "yyyy-MM-dd HH:mm xxx"),
    ("try_to_timestamp", "pe", "yyyy-MM-dd[ HH:mm][ XXX]"), ("try_to_timestamp", "pe", "yyyy-MM-dd HH:mm X"),
    ("try_to_timestamp", "pe", "yyyy-MM-dd HH:mm XXXXX"), ("to_timestamp_ntz", "pe", "yyyy-MM-dd[ HH:mm][ XXX]"),
    ("try_to_date", "pe", "yyyy-MM-dd HH:mm XXX"), ("unix_timestamp", "pe", "yyyy-MM-dd[ HH:mm][ XXX]"),
    ("try_to_timestamp", "pe", "yyyyMMd"), ("try_to_timestamp", "pe", "yyyy-MM-dd HH:mm x"),
    ("try_to_timestamp", "pf", "y-M-d"), ("try_to_timestamp", "pf", "yyy-MM-dd"), ("try_to_timestamp", "pf", "yyyy DDD"),
    ("try_to_timestamp", "pf", "yyyy-MM DDD"), ("try_to_timestamp", "pf", "MM-dd"), ("to_timestamp", "pf", "yyyy"),
    ("try_to_timestamp", "pf", "yyyy-MM-dd DDD"), ("try_to_timestamp", "pf", "dd"), ("try_to_timestamp", "pf", "yyyy D"),
    ("to_timestamp", "pg", "yyyy-MM-dd HH:mm VV"), ("try_to_timestamp", "pg", "yyyy-MM-dd HH:mm[ VV]"),
    ("unix_timestamp", "pg", "yyyy-MM-dd HH:mm VV"), ("to_timestamp_ntz", "pg", "yyyy-MM-dd HH:mm VV"),
    ("try_to_timestamp", "pg", "yyyy-MM-dd HH:mm O"), ("try_to_timestamp", "pg", "yyyy-MM-dd HH:mm OOOO"),
    ("unix_timestamp", "pg", "yyyy-MM-dd HH:mm ZZZZ"), ("try_to_date", "pg", "yyyy-MM-dd HH:mm[ O]"),
    ("try_to_date", "ph", "yyyy-MM-dd G"), ("try_to_timestamp", "ph", "yyyy-MM-dd GGGG"),
    ("unix_timestamp", "ph", "yyyy-MM-dd G"), ("try_to_date", "ph", "g"), ("try_to_date", "ph", "g MM"),
    ("unix_timestamp", "ph", "g"), ("try_to_date", "ph", "yyyy-MM-dd[ G]"), ("try_to_date", "ph", "y G"),
    ("try_to_date", "ph", "yy G"),
    # Java's parser throws (an index past the text, an offset hour past 23): no optional skips it
    ("try_to_timestamp", "pg", "yyyy-MM-dd HH:mm [OOOO][O]"), ("try_to_timestamp", "pg", "yyyy-MM-dd HH:mm [XXX]['+24:00']"),
    ("try_to_timestamp", "pg", "yyyy-MM-dd HH:mm XXX VV"),  # the zone id wins over the offset
]


def _datetime_pattern_expressions() -> list[tuple[str, str]]:
    out = []
    for pattern in _FORMATS:
        literal = "'" + pattern.replace("'", "\\'") + "'"
        out.append(_pair(f"date_format(({{}} + {{}}), {literal})", "dp", "dq"))
    for function, pattern in (("to_char", "yyyy-MM-dd HH:mm XXX"), ("to_varchar", "EEE dd MMM yyyy hh:mm a")):
        out.append(_pair(f"{function}(({{}} + {{}}), '{pattern}')", "dp", "dq"))
    out.append(_pair("date_format(greatest({}, {}), 'yyyy-MM-dd HH:mm:ss XXX E D')", "fd", "fd"))  # a DATE: its midnight
    out.append(_pair("date_format(({} + {}), 'yyyy-MM-dd HH:mm:ss.SSS XXX')", "fn", "fy"))  # NTZ: in the gap, forward
    out.append(_pair("date_format(({} + {}), 'yyyy-MM-dd HH:mm:ss.SSS VV O')", "fz", "fy"))
    out.append(_pair("to_char(greatest({}, {}), 'dd.MM.yyyy')", "dt1", "dt2"))
    out.append(_pair("from_unixtime(greatest({}, {}))", "du", "du"))
    out.append(_pair("from_unixtime(greatest({}, {}), 'yyyy-MM-dd HH:mm:ss XXX')", "du", "du"))
    out.append(_pair("from_unixtime(greatest({}, {}), 'G y D a h K k')", "du", "du"))
    out.append(_pair("from_unixtime(({} + {}), 'yyyy')", "i1", "i2"))
    out.append(_pair("from_unixtime((({} + {}) % 100000), 'yy-MM-dd HH:mm')", "l1", "l2"))
    for function, column, pattern in _PARSINGS:
        if pattern is None:
            out.append(_pair(f"{function}(coalesce({{}}, {{}}))", column, column))
        else:
            literal = "'" + pattern.replace("'", "\\'") + "'"
            out.append(_pair(f"{function}(coalesce({{}}, {{}}), {literal})", column, column))
    out.append(_pair("date_format(to_timestamp(coalesce({}, {}), 'yyyy-MM-dd HH:mm:ss.SSS'), 'yyyy-MM-dd HH:mm XXX')",
                     "pb", "pb"))
    return out
# -- datetime patterns between rows (end) -----------------------------------------------------------

# -- CAST / TRY_CAST between rows beyond widening (begin) ----------------------------------------
# strings Spark parses as integral numbers or BOOLEANs (ASCII white space and control characters
# trimmed, not U+00A0; a fraction dropped without ANSI; the types' bounds; signs alone; full-width
# and exponent forms that are no numbers), DOUBLEs at the integral types' bounds (floor/ceil
# tests, 2^63 itself, NaN, infinities, -0.0), DECIMALs whose Java toString is scientific (an
# exponent below -6) or not
PAIRED.update({"cs": "STRING", "cd": "DOUBLE", "ce": "DECIMAL(20,10)", "cb": "DECIMAL(20,1)", "cq": "STRING"})
_PAIRED_EDGES.update({
    "cs": [" 12 ", "1.9", ".5", "1.", "\t7\n", "2147483648", "-2147483648", "+", "-", "", "300", "-129", " yes ",
           "TRUE", "No", "2", "0", "\uff11", "1e3", "0x1F", "9223372036854775807", "-9223372036854775809", "+.",
           " ", "1 2", "\x7f5\x01", "\u00a05", "-0", "32768", "t", None],
    "cd": ["300.7", "-128.5", "-129.5", "1e10", "9.223372036854775807E18", "-9.223372036854775808E18",
           "9.2233720368547748E18", "2147483647.9", "-2147483648.9", "-2147483649.0", "NaN", "Infinity", "-0.0",
           "0.5", "-0.5", "32767.5", "-Infinity", "127.99999999999999"],
    "ce": ["0.0000001", "0", "-0.0000000001", "123.45", "0.000001", "-0.000001", "99999.9999999999", "1E-10"],
    # DECIMALs truncating to each integral type's bounds and one past them; strings around the
    # trimmed characters ('!' and '"', U+0021 and U+0022, are the first ones kept)
    "cb": ["127.9", "-128.9", "32767.5", "-32768.5", "2147483647.9", "-2147483648.9", "9223372036854775807.9",
           "-9223372036854775808.9", "128.0", "-2147483649.0"],
    "cq": ["5!", "\"7\"", "!5", "\x205\x20", "\x1f5", "5\x21"],
})


def _cast_expressions() -> list[tuple[str, str]]:
    out = []
    integral = ("TINYINT", "SMALLINT", "INT", "BIGINT")
    for target in integral + ("BOOLEAN",):
        out.append(_pair(f"CAST(coalesce({{}}, {{}}) AS {target})", "cs", "cs"))
        out.append(_pair(f"TRY_CAST(coalesce({{}}, {{}}) AS {target})", "cs", "cs"))
    for target in integral:
        out.append(_pair(f"CAST(greatest({{}}, {{}}) AS {target})", "cb", "cb"))
        out.append(_pair(f"CAST(greatest({{}}, {{}}) AS {target})", "cd", "cd"))
        out.append(_pair(f"CAST(greatest({{}}, {{}}) AS {target})", "z1", "z1"))
        out.append(_pair(f"CAST(({{}} + {{}}) AS {target})", "m1", "m2"))
        out.append(_pair(f"CAST(({{}} * {{}}) AS {target})", "d1", "d2"))
        out.append(_pair(f"CAST(greatest({{}}, {{}}) AS {target})", "f1", "f1"))
        out.append(_pair(f"CAST((({{}} OR {{}})) AS {target})", "b1", "b2"))
    out.append(_pair("TRY_CAST(greatest({}, {}) AS INT)", "cd", "cd"))
    out.append(_pair("CAST(coalesce({}, {}) AS INT)", "cq", "cq"))
    out.append(_pair("CAST(coalesce({}, {}) AS BOOLEAN)", "cq", "cq"))
    out.append(_pair("TRY_CAST(({} + {}) AS TINYINT)", "m1", "m2"))
    for target in ("INT", "SMALLINT", "TINYINT"):
        out.append(_pair(f"CAST(({{}} + {{}}) AS {target})", "l1", "l2"))
        out.append(_pair(f"TRY_CAST(({{}} * {{}}) AS {target})", "i1", "i2"))
    for template, x, y in (("({} + {})", "i1", "i2"), ("({} - {})", "l1", "l2"), ("({} + {})", "m1", "m2"),
                           ("({} * {})", "q1", "q2"), ("({} - {})", "n1", "n1"), ("greatest({}, {})", "ce", "ce"),
                           ("({} AND {})", "b1", "b2"), ("greatest({}, {})", "dt1", "dt2"),
                           ("greatest({}, {})", "ts1", "ts2"), ("({} + {})", "fz", "fy"), ("({} + {})", "fn", "fy"),
                           ("greatest({}, {})", "fd", "fd"), ("greatest({}, {})", "t1", "h1")):
        out.append(_pair(f"CAST({template} AS STRING)", x, y))
    for template, x, y in (("({} * {})", "d1", "d2"), ("({} - {})", "m1", "m2"), ("({} + {})", "i1", "i2"),
                           ("greatest({}, {})", "cd", "cd"), ("greatest({}, {})", "f1", "f1")):
        out.append(_pair(f"CAST({template} AS BOOLEAN)", x, y))
    for target in ("DECIMAL(5,2)", "DOUBLE", "FLOAT", "BIGINT"):
        out.append(_pair(f"CAST(({{}} OR {{}}) AS {target})", "b1", "b2"))
    return out
# -- CAST / TRY_CAST between rows beyond widening (end) ------------------------------------------

# -- string casts: a STRING to DATE, TIMESTAMP, TIMESTAMP_NTZ, DOUBLE, FLOAT, DECIMAL, BINARY (begin) --
# one designed string a row (PAIRED; cast from coalesce(A.x, B.x), the row's own value): the
# shapes Spark's parsers accept and the ones next to them they refuse, trimmed characters
# (U+0000 .. U+0020 and U+007F for datetimes, U+0020 and below only for numbers: Java's trim),
# years of 3 to 8 digits and signs, zones (offsets, prefixes, short ids, regions in and out of
# Java's list, case), Berlin's daylight-saving gap and overlap and local mean time (1893), Java's
# number grammar (suffixes, hexadecimal, NaN / Infinity as written) beside Spark's own
# spellings and Python's (1_000, full-width digits), DECIMAL rounding and overflow
PAIRED.update({"sd": "STRING", "st1": "STRING", "st2": "STRING", "sj": "STRING", "sf1": "STRING",
               "sf2": "STRING", "sn": "STRING", "sn2": "STRING"})
_PAIRED_EDGES.update({
    "sd": ["2024", "2024-3", "2024-03-05", " 2024-3-5T junk", "2024-02-30", "+2024-01-01", "20245-01-01",
           "2024-1-1 ", "2024 ", "2024-01 x", "-0001-01-01", "2024-02-29", "2023-02-29", "2024-13-01", "2024-00-10",
           "2024-01-00", "202-01-01", "12345678-01-01", "2024-001-01", "2024-01-5T10:00", "2024-01-05 25:99:99",
           "\t2024-06-30\n", "\x7f2024-06-30\x01", "\u00a02024-06-30", "\uff12\uff10\uff12\uff14-01-01", "2024-01-01Z",
           "2024/01/01", "T2024-01-01", "", "0001-01-01", "9999-12-31", None],
    "st1": ["2024-03-31 02:30", "2024-10-27 02:30:00", "2024-01-01T10:00:00Z", "2024-01-01 10:00:00 UTC+1",
            "2024-01-01 10:00:00.1234567+01:00", "2024-01-01 10:00:00 Europe/Paris", "2024-01-01 10:00:00PST",
            "2024-01-01 10:00:00 Foo/Bar", "2024-01-01 7", "2024-01-01T", "2024-01-01 10:00:00+1:00",
            "2024-01-01 10:00:00+18:01", "2024-01-01 10:00:00+18:00", "999999-01-01", "2024-01-01 10:00:00.",
            "2024-06-30 23:59:59.999999-05:30", "2024-06-30 24:00:00", "2024-06-30 12:60", "2024-06-30 1:2:3",
            "2024-06-30T10:00:00 GMT-08", "2024-06-30 10:00:00 UT+0530", "2024-06-30 10:00:00 utc",
            "2024-06-30 10:00:00 europe/berlin", "2024-06-30 10:00:00 America/Coyhaique", "2024-06-30 10:00:00 ROC",
            "2024-06-30 10:00:00 Z", "2024-06-30 10:00:00z", "2024-06-30 10:00Z", "2024", "2024-06",
            "+2024-06-30 10:00:00+01:00:30", "0001-01-01 00:30:00+01:00"],
    "st2": ["1893-03-31 23:59:59", "2024-06-30 10:00:00 EST", "2024-06-30 10:00:00 CST", "2024-06-30 10:00:00+0130",
            "2024-06-30 10:00:00+013045", "2024-06-30 10:00:00-01:30:45", "2024-06-30 10:00:00+1",
            "2024-06-30 10:00:00+01:3", "2024-06-30 10:00:00+01:", "2024-06-30 10:00:00 GMT0",
            "2024-06-30 10:00:00 Etc/GMT+5", "2024-06-30 10:00:00 US/Pacific", "2024-06-30 10:00:00 CET",
            "2024-06-30T10:00:00.5", "2024-06-30T10:00:00.000001", "2024-06-30 10:00:00.1234565", "2024-6-3 4:5:6",
            "2024-06-30 10:00:00 +01:00", "2024-06-30 10:00:00  Europe/Berlin  ", "2024-06-30 10:00:00 Europe/Berlin x",
            "2024-06-30 10:00:00 UTC+01:00:30", "2024-06-30 10:00:00 UTC+19", "2024-06-30 10:00:00 UTC-0",
            "2024-06-30 10:00:00 GMT+0", "2024-06-30 10:00:00 UT", "2024-06-30 10:00:00 UTCX", "-2024-06-30 10:00:00",
            "10000-01-01 00:00:00", "9999-12-31 23:59:59.999999", "2024-06-30 10:00:00-18:00",
            "2024-06-30T10:00:00+01:00[Europe/Paris]", "\x7f2024-06-30 10:00:00\x01"],
    # times alone (today's date for a TIMESTAMP: cast only to DATE and TIMESTAMP_NTZ here, NULL)
    "sj": ["10:15", "T10:15:30", " T10:15", "10:15:30Z", "1:2", "10:15:30.5", "T10", "10"],
    "sf1": ["1d", "1.1f", "0x1.8p1", "0x1p-150", "1e39", "3.4028235e38", "3.4028236e38", "-NaN", "-nan", "INF",
            " -Infinity ", "1_000", "\x7f1", "1e", ".", "1.e5", "0x1p", "1e400", "4.9e-324", "2.4703282292062328e-324",
            "0x1.fffffffffffff8p1023", "\u00a01", "\uff11", "+inf", "Infinityx", "nan ", "0.1", "16777217",
            "1.000000059604644775390625", "1.0000000596046447753906251", "-0", "0x.8p1"],
    "sf2": ["1e-46", "7.006492321624085e-46", "1.401298464324817e-45", "2.2250738585072011e-308", "+NaN", "NaNd",
            "Infinityf", "1D", "1F", "1.5dd", "1 5", "1e+5", "1E-5", "-.5e-3f", "0X1P4", "0x1P-1074", "0x1p-1075",
            "0x1.8", "1e0x", "\t2.5\n", "++1", "9007199254740993", "123456789012345678901234567890",
            "0.30000000000000004", "1e-400", "-1e400", "+Infinity", "-INF", "Nan", "infinity", "", None],
    "sn": ["1.005", "-0.004", "999.995", "1e2", "0e50", "1e-2147483648", "1e-2147483647", "\uff11\uff12", "1e\u0662",
           " 1.5 ", "1_0", "+.5", "1e00000000002", "123.456", "-999.994", "999.994", "1.", ".", "1e", "1E+1",
           "-1.5e-1", "0.005", "-0.005", "12345678901234567890123456789012345678",
           "123456789012345678901234567890123456789", "\t7\n", "\x7f7", "NaN", "Infinity", "0x10", "1d",
           "\U0001d7cf"],
    # integral digits around 38 (zeros never too long), rounding into a 39th digit
    "sn2": ["1e38", "9.99e37", "1e37", "-0e100", "0.000e39", "1e-39", "99999999999999999999999999999999999999.5",
            "-99999999999999999999999999999999999999.4", "0.0000000000000000005", "00000000000000000000000000000000000000001",
            "1e2147483647", "-1e-2147483647", "5e-1", "-5e-1", "0.999", "1.2345e3"],
})


def _string_cast_expressions() -> list[tuple[str, str]]:
    out = []
    one = "coalesce({}, {})"
    for column in ("sd", "st1", "st2", "sj"):
        for cast in ("CAST({} AS DATE)", "TRY_CAST({} AS DATE)", "to_date({})"):
            out.append(_pair(cast.format(one), column, column))
    for column in ("st1", "st2"):
        for cast in ("CAST({} AS TIMESTAMP)", "TRY_CAST({} AS TIMESTAMP)", "to_timestamp({})",
                     "try_to_timestamp({})"):
            out.append(_pair(cast.format(one), column, column))
    for column in ("sd", "st1", "st2", "sj"):
        for cast in ("CAST({} AS TIMESTAMP_NTZ)", "TRY_CAST({} AS TIMESTAMP_NTZ)", "to_timestamp_ntz({})"):
            out.append(_pair(cast.format(one), column, column))
    out.append(_pair("CAST(coalesce({}, {}) AS TIMESTAMP)", "sd", "sd"))
    for column in ("sf1", "sf2"):
        for cast in ("CAST({} AS DOUBLE)", "TRY_CAST({} AS DOUBLE)", "CAST({} AS FLOAT)", "TRY_CAST({} AS FLOAT)",
                     "double({})", "float({})"):
            out.append(_pair(cast.format(one), column, column))
    for column in ("sn", "sn2", "sf1", "sf2"):
        for target in ("DECIMAL(5,2)", "DECIMAL(38,0)", "DECIMAL(38,18)", "DECIMAL(3,3)", "DECIMAL"):
            out.append(_pair(f"CAST({one} AS {target})", column, column))
        out.append(_pair(f"TRY_CAST({one} AS DECIMAL(5,2))", column, column))
    # built from two rows, compared with a row's value; BINARY (as its hex digits)
    out.append(_pair("(CAST(concat({}, {}) AS DATE) > {})", "s1", "s2", "dt1"))
    out.append(_pair("CAST(concat(CAST({} AS STRING), '-01-', CAST({} AS STRING)) AS DATE)", "my", "md"))
    out.append(_pair("(CAST(concat({}, ' ', {}) AS TIMESTAMP) < {})", "sd", "sj", "ts1"))
    out.append(_pair("(CAST(concat({}, {}) AS DOUBLE) + {})", "s1", "s2", "d1"))
    out.append(_pair("(CAST(concat({}, {}) AS DECIMAL(10,2)) * {})", "s1", "s2", "n1"))
    for x, y in (("k1", "k2"), ("s1", "s2"), ("a1", "a2")):
        out.append(_pair("hex(CAST(concat({}, {}) AS BINARY))", x, y))
    out.append(_pair("(CAST(concat({}, {}) AS BINARY) < unhex(concat({}, {})))", "k1", "k2", "s1", "s2"))
    return out
# -- string casts (end) ---------------------------------------------------------------------------

# -- an interval times or divided by a number (begin) ---------------------------------------------
# designed rows (interval xi, DOUBLE xr, INT xk, DECIMAL(38,30) xq): halves rounded away from zero
# both ways, the extremes of a BIGINT of microseconds (times 1, -1, 2; divided by -1), zeros of
# every type as divisors (0.0, -0.0, a DECIMAL zero), a DECIMAL quotient whose 38th place decides
# the rounding, NaN and infinite DOUBLEs, a DOUBLE product past a BIGINT
PAIRED.update({"xi": "INTERVAL DAY TO SECOND", "xr": "DOUBLE", "xk": "INT", "xq": "DECIMAL(38,30)",
               "xc": "INTERVAL DAY TO SECOND", "xe": "DECIMAL(38,30)"})
_PAIRED_EDGES.update({
    "xi": [_td(microseconds=1), -_td(microseconds=1), _td(microseconds=3), -_td(microseconds=3),
           _td(microseconds=2**63 - 1), -_td(microseconds=2**63), _td(seconds=1), _td(days=1), _td(0),
           _td(microseconds=5)],
    "xr": ["0.5", "-0.5", "0.5", "2", "1", "-1", "3.0", "NaN", "-0.0", "Infinity", "1e300", "0.1"],
    "xk": ["2", "2", "-2", "2", "2", "-1", "3", "0", "7", "-4", "1"],
    "xq": ["0.5", "-0.5", "0.333333333333333333333333333333", "0", "2.000000000000000000000000000001",
           "-1", "0.000000000000000000000000000001", "3", "1.5"],
    # a product (row 0: 9000000003 us times xe is ...730999999.4999..., thirty 9s) and a quotient
    # (row 1: 9000000040 us / xe is 178.4999..., thirty-eight 9s) just below a half, where a first
    # rounding to 38 significant digits (Decimal's MathContext in some Spark versions) would round
    # up; Spark 4.3 rounds both down
    "xc": [_td(microseconds=9000000003), _td(microseconds=9000000040)],
    "xe": ["49999999.842333333330333333334333333333", "50420168.291316526610644257703081232493"],
})


def _interval_product_expressions() -> list[tuple[str, str]]:
    out = []
    for template, x, y in (("({} * {})", "xi", "xr"), ("({} * {})", "xk", "xi"), ("({} * {})", "xi", "xq"),
                           ("({} / {})", "xi", "xr"), ("({} / {})", "xi", "xk"), ("({} / {})", "xi", "xq"),
                           ("({} * {})", "j1", "i1"), ("({} * {})", "j1", "l1"), ("({} * {})", "j2", "d1"),
                           ("({} * {})", "f1", "j1"), ("({} * {})", "j4", "m1"), ("({} / {})", "j1", "t1"),
                           ("({} / {})", "j1", "l1"), ("({} / {})", "j2", "d2"), ("({} / {})", "j3", "q2"),
                           ("({} / {})", "j4", "f1"), ("({} * {})", "j3", "z1"), ("({} / {})", "j1", "n1"),
                           ("({} * {})", "xc", "xe"), ("({} / {})", "xc", "xe")):
        out.append(_pair(template, x, y))
    out.append(_pair("(- greatest({}, {}))", "xi", "xi"))  # the smallest interval negated
    out.append(_pair("abs(greatest({}, {}))", "xi", "xi"))
    out.append(_pair("(({} - {}) * {} > INTERVAL '1' HOUR)", "c2", "c1", "xr"))
    out.append(_pair("(({} - {}) / {})", "c2", "c1", "xk"))
    return out
# -- an interval times or divided by a number (end) -----------------------------------------------


# -- arrays and maps between rows (begin) ------------------------------------------------------
# PAIRED columns, one designed case per row (16 cases, each twice): arrays with NULL elements,
# empty and NULL arrays; values and indexes at INT's ends, BIGINT subscripts whose low 32 bits
# are in range (Spark takes Number.intValue), 0 (INVALID_INDEX_OF_ZERO) and negative indexes;
# NaN, -0.0 and 0.0 elements and keys (Spark's ordering finds NaN = NaN and -0.0 = 0.0); an INT
# 16777217 against a FLOAT 16777216 (Spark casts the INT to FLOAT, where they are equal);
# DECIMALs of two scales; strings outside the BMP; dates against timestamps in Europe/Berlin,
# TIMESTAMP_NTZs in its daylight-saving gap and overlap; maps with NULL values and NaN keys
_NAN, _INF = "NaN", "Infinity"
_COLLECTION_TYPES = {
    "ai": "ARRAY<INT>", "ai2": "ARRAY<INT>", "vi": "INT", "vl": "BIGINT", "ad": "ARRAY<DOUBLE>", "vd": "DOUBLE",
    "af": "ARRAY<FLOAT>", "ax": "ARRAY<DECIMAL(5,2)>", "vx": "DECIMAL(3,1)", "as1": "ARRAY<STRING>", "vs": "STRING",
    "ab": "ARRAY<BOOLEAN>", "vb": "BOOLEAN", "adt": "ARRAY<DATE>", "vdt": "DATE", "ats": "ARRAY<TIMESTAMP>",
    "vts": "TIMESTAMP", "ant": "ARRAY<TIMESTAMP_NTZ>", "mi": "MAP<INT,STRING>", "ms": "MAP<STRING,INT>",
    "mdk": "MAP<DOUBLE,INT>", "aai": "ARRAY<ARRAY<INT>>",
}
assert not set(_COLLECTION_TYPES) & set(PAIRED), "a PAIRED column's name is taken"
PAIRED.update(_COLLECTION_TYPES)
_MIN, _MAX = str(-2**31), str(2**31 - 1)
_COLLECTION_EDGES = {
    "ai": [["1", "2", "3"], [], None, [None], ["1", None, "3"], [_MAX, _MIN], ["7"], ["0", "0", "1"], ["16777217"],
           ["3", "2", "1"], ["5"], [None, "5"], ["1", "2"], ["-1"], ["4", "4"], ["2"]],
    "ai2": [["3", "9"], [None], ["1"], [None], ["2"], [_MIN], None, [], ["16777217"], [None, "4"], ["5", None], ["5"],
            [None], ["1"], ["4"], ["2"]],
    "vi": ["2", "1", "1", "1", "3", _MIN, None, "0", "16777217", "0", "-1", "2", "-3", _MIN, "4", _MAX],
    "vl": ["1", "0", "0", "0", "4294967298", "-1", "2", "4294967296", "0", "2", "0", "1", "1", "-4294967295", "1",
           str(2**63 - 1)],
    "ad": [[_NAN], ["0.0"], ["-0.0"], ["1.5", _NAN, None], [], None, ["-0.0", "0.0"], ["0.0", "-0.0"], [_INF, "-" + _INF],
           [_NAN, "1.0"], ["1.0E300"], ["0.1"], [None], ["2.0", "2.0"], ["-1.0", _NAN], ["3.0"]],
    "vd": [_NAN, "-0.0", "0.0", "2.0", "1.0", "1.0", "0.0", "-0.0", "-" + _INF, _NAN, "1.0E300", "0.1", None, "2.0",
           "1.0", "16777217"],
    "af": [["1.5"], [], [_NAN], [None], ["3.0"], ["-0.0"], ["7.0"], ["0.0"], ["16777216"], ["1.0", "2.0"], ["5.0"],
           [None, "5.0"], ["0.1"], ["-1.0"], ["4.0"], ["2.0"]],
    "ax": [["1.10"], ["0.00", "-1.50"], ["999.99"], None, [None, "1.00"], [], ["1.05"], ["-999.99"], ["3.00"],
           ["0.10", "0.01"], ["5.00"], ["2.50"], ["-0.50"], ["99.90"], ["4.00"], ["2.00"]],
    "vx": ["1.1", "-1.5", "99.9", "1.0", "1.0", "0.0", "1.1", None, "3.0", "0.1", "5.0", "2.5", "-0.5", "99.9", "4.0",
           "2.0"],
    "as1": [["a", "b"], [], None, [None], ["", None], ["é"], ["a"], ["A"], ["b", "a", "b"], ["😀"], ["x", "y"],
            [None, "z"], ["abc"], ["a b"], ["ß"], ["1"]],
    "vs": ["b", "", "a", "a", "", "e\u0301", "a", "a", "b", "😀", None, "z", "ab", "a b", "SS", "1"],
    "ab": [["true"], ["false", None], [], None, ["true", "true"], ["false"], [None], ["true", "false"], ["false"],
           ["true"], [None, "false"], ["true"], ["false"], [], ["true"], ["false", "true"]],
    "vb": ["true", "true", "false", "true", "false", "false", "true", "true", None, "false", "false", "true", "false",
           "true", "true", "false"],
    "adt": [[_D(2024, 3, 31)], [_D(2024, 10, 27), None], [], None, [_D(1970, 1, 1)], [_D(2024, 3, 30)],
            [_D(2000, 2, 29)], [_D(2024, 3, 31), _D(2024, 3, 30)], [_D(1969, 12, 31)], [None], [_D(2024, 1, 1)],
            [_D(2024, 10, 27)], [_D(2024, 3, 31)], [_D(2024, 6, 1)], [_D(2023, 12, 31)], [_D(2024, 2, 29)]],
    "vdt": [_D(2024, 3, 31), _D(2024, 10, 27), _D(2024, 1, 1), _D(2024, 1, 1), _D(1970, 1, 1), _D(2024, 3, 31),
            _D(2000, 2, 29), None, _D(1969, 12, 31), _D(2024, 1, 1), _D(2024, 1, 1), _D(2024, 10, 27),
            _D(2024, 3, 31), _D(2024, 6, 1), _D(2023, 12, 31), _D(2024, 2, 29)],
    "ats": [[_dt(2024, 3, 31, 0, 0)], [_dt(2024, 10, 27, 0, 0)], [_dt(2024, 3, 31, 3, 0)], None, [],
            [_dt(2024, 10, 27, 2, 30), None], [_dt(2000, 2, 29, 0, 0)], [_dt(2024, 3, 31, 3, 30)],
            [_dt(1969, 12, 31, 23, 59, 59, 999999)], [None], [_dt(2024, 1, 1, 0, 0, 0, 1)], [_dt(2024, 10, 27, 2, 30)],
            [_dt(2024, 3, 31, 1, 30)], [_dt(2024, 6, 1)], [_dt(2023, 12, 31, 23)], [_dt(2024, 2, 29)]],
    "vts": [_dt(2024, 3, 31, 0, 0), _dt(2024, 10, 27, 0, 0), _dt(2024, 3, 31, 3, 0), _dt(2024, 1, 1), None,
            _dt(2024, 10, 27, 2, 30), _dt(2000, 2, 29), _dt(2024, 3, 31, 2, 30), _dt(1970, 1, 1), _dt(2024, 1, 1),
            _dt(2024, 1, 1), _dt(2024, 10, 27, 2, 30), _dt(2024, 3, 31, 1, 30), _dt(2024, 6, 1), _dt(2024, 1, 1),
            _dt(2024, 2, 29)],
    # local times: in Berlin's gap (02:30 on 2024-03-31 is 03:30 CEST) and overlap (02:30 on 2024-10-27
    # takes the earlier offset, CEST)
    "ant": [[_dt(2024, 3, 31, 0, 0)], [_dt(2024, 10, 27, 0, 0)], [_dt(2024, 3, 31, 2, 30)], [None], None,
            [_dt(2024, 10, 27, 2, 30)], [_dt(2000, 2, 29)], [_dt(2024, 3, 31, 3, 30)], [], [_dt(2024, 1, 1)],
            [_dt(2024, 1, 1)], [_dt(2024, 10, 27, 2, 30), _dt(2024, 10, 27, 3, 30)], [_dt(2024, 3, 31, 1, 30)],
            [_dt(2024, 6, 1)], [_dt(2024, 1, 1)], [_dt(2024, 2, 29)]],
    "mi": [[("1", "a"), ("2", None)], [], None, [("1", "x")], [(_MIN, "min")], [(_MIN, "m"), (_MAX, "M")], [("0", "z")],
           [("0", "zero")], [("16777217", "f")], [("0", "a")], [("-1", "n")], [("2", "b"), ("1", "a")], [("3", "c")],
           [("0", "x")], [("4", None)], [(_MAX, "max")]],
    "ms": [[("b", "1")], [("", "0")], [("a", None)], None, [], [("e\u0301", "5"), ("é", "6")], [("A", "1")],
           [("a", "2")], [("b", "3"), ("a", "4")], [("😀", "9")], [("x", "1")], [("z", None)], [("a", "1")],
           [("a b", "7")], [("ß", "8")], [("1", "1")]],
    "mdk": [[(_NAN, "1")], [("0.0", "2")], [("-0.0", "3")], [("2.0", "4")], [], None, [("0.0", "5")], [(_NAN, "6")],
           [("-" + _INF, "7")], [(_NAN, "8"), ("1.0", "9")], [("1.0E300", None)], [("0.1", "10")], [("1.0", "11")],
           [("2.0", "12")], [("1.0", "13")], [("16777217", "14")]],
    "aai": [[["1"], None], [], None, [[None]], [["1", "2"]], [[_MIN]], [[]], [["0"]], [["16777217"]], [["3"]],
            [["5"]], [["5"]], [["1"]], [["-1"]], [["4"]], [["2"]]],
}
assert not set(_COLLECTION_EDGES) & set(_PAIRED_EDGES), "a PAIRED column's name is taken"
_PAIRED_EDGES.update(_COLLECTION_EDGES)


def _collection_expressions() -> list[tuple[str, str]]:
    """Array and map functions between rows (``sparkcep.evaluation.collection_functions``)."""
    out = []
    for arr, value in (("ai", "vi"), ("ai", "vl"), ("ad", "vd"), ("ad", "vi"), ("af", "vi"), ("af", "vd"),
                       ("ax", "vx"), ("ax", "vi"), ("ax", "vd"), ("as1", "vs"), ("ab", "vb"), ("adt", "vdt"),
                       ("adt", "vts"), ("ats", "vdt"), ("ats", "vts"), ("ant", "vts"), ("ant", "vdt"), ("ai", "vx"),
                       ("ai", "vd"), ("ai", "vs"), ("aai", "ai")):
        out.append(_pair("array_contains({}, {})", arr, value))
        out.append(_pair("array_position({}, {})", arr, value))
    for arr, other in (("ai", "ai2"), ("ai", "af"), ("ad", "af"), ("ai", "ad"), ("as1", "as1"), ("adt", "ats"),
                       ("ant", "ats"), ("ax", "ai"), ("ab", "ab")):
        out.append(_pair("arrays_overlap({}, {})", arr, other))
    out.append(_pair("arrays_overlap({}, array({}, {}))", "ad", "vd", "vd"))
    out.append(_pair("arrays_overlap({}, array({}, {}))", "as1", "vs", "vs"))
    for arr in ("ai", "ad", "as1", "ax", "adt", "ats", "ab"):
        out.append(_pair("element_at({}, {})", arr, "vi"))
        out.append(_pair("try_element_at({}, {})", arr, "vi"))
        out.append(_pair("{}[{}]", arr, "vl"))
        out.append(_pair("{}[{}]", arr, "vi"))
    out.append(_pair("element_at({}, {})", "ai", "vl"))  # refused: Spark takes an INT index only
    out.append(_pair("element_at({}, CAST({} AS TINYINT) + CAST({} AS TINYINT))", "ai", "vx", "vx"))
    for arr in ("ai", "ad", "as1", "mi", "ms"):
        out.append(_pair("(size({}) + {})", arr, "vi"))
        out.append(_pair("(cardinality({}) - {})", arr, "vi"))
    out.append(_pair("(array_size({}) + {})", "ai", "vi"))
    for m, key in (("mi", "vi"), ("mi", "vl"), ("mi", "vd"), ("ms", "vs"), ("mdk", "vd"), ("mdk", "vi"), ("mi", "vs")):
        out.append(_pair("element_at({}, {})", m, key))
        out.append(_pair("try_element_at({}, {})", m, key))
        out.append(_pair("{}[{}]", m, key))
        out.append(_pair("map_contains_key({}, {})", m, key))
    # (coalesce(A.x, B.x) is a value between rows: a function of it is evaluated in Python)
    for arr in ("ai", "ad", "af", "ax", "as1", "ab", "adt", "ats", "ant"):
        out.append(_pair("array_distinct(coalesce({}, {}))", arr, arr))
        out.append(_pair("array_max(coalesce({}, {}))", arr, arr))
        out.append(_pair("array_min(coalesce({}, {}))", arr, arr))
    for x, y in (("ad", "ad"), ("ai", "ai2"), ("af", "af")):
        out.append(_pair("array_distinct(concat({}, {}))", x, y))  # concat of arrays
    out.append(_pair("array_distinct(array({}, {}, {}))", "vd", "vd", "vd"))
    out.append(_pair("array_distinct(array({}, {}, {}, {}))", "vd", "vi", "vd", "vi"))
    out.append(_pair("array_max(array({}, {}))", "vd", "vd"))
    out.append(_pair("array_min(array({}, {}))", "vd", "vd"))
    for arr in ("ai", "as1", "ad"):
        out.append(_pair("slice({}, {}, 2)", arr, "vi"))
        out.append(_pair("slice({}, -1, {})", arr, "vi"))
        out.append(_pair("slice({}, {}, {})", arr, "vi", "vi"))
    # the array constructor: Spark's common type of the elements (INT and FLOAT: DOUBLE with ANSI
    # on, FLOAT without)
    for x, y in (("vi", "vl"), ("vi", "vd"), ("vi", "vx"), ("vdt", "vts"), ("vi", "f1"), ("l1", "f1"), ("vx", "vd"),
                 ("vs", "vs"), ("vb", "vb"), ("vi", "vs"), ("vdt", "tn1")):
        out.append(_pair("array({}, {})", x, y))
        out.append(_pair("element_at(array({}, {}), 2)", x, y))
    # arrays compared: element by element in the element type's order, NULL elements first
    for x, y in (("ai", "ai2"), ("ad", "ad"), ("ai", "ai"), ("as1", "as1"), ("ats", "ats"), ("ax", "ax")):
        for op in ("=", "<", "<=>"):
            out.append(_pair("({} " + op + " {})", x, y))
        out.append(_pair("greatest({}, {})", x, y))
    out.append(_pair("({} = {})", "mi", "mi"))  # refused: Spark does not compare maps
    return out
# -- arrays and maps between rows (end) ----------------------------------------------------------


# -- array-building and map functions between rows (begin) ---------------------------------------
# PAIRED columns, one designed case per row (16 cases, each twice): arrays for the set operations
# (bd1 with bd2: NaN, -0.0 against 0.0, NULLs, duplicates, empty and NULL arrays, the order of
# first occurrences); positions and counts (vn: 0, both ends, past either end by one and more,
# past Spark's array size limit); sequence bounds and steps (sq1, sq2, sq3: the wrong sign, 0,
# BIGINT's and INT's ends, counts past Spark's limit); DATE bounds and INTERVAL DAY steps; map keys
# (mk1, mk2: NaN twice, 0.0 and -0.0, NULL, equal keys) and values (mv); key and value arrays
# (bd1 with bs1: equal and unequal lengths)
_NINF = "-" + _INF
_BUILDER_TYPES = {"bd1": "ARRAY<DOUBLE>", "bd2": "ARRAY<DOUBLE>", "bs1": "ARRAY<STRING>", "vn": "INT",
                  "sq1": "BIGINT", "sq2": "BIGINT", "sq3": "INT", "sd1": "DATE", "sd2": "DATE", "sdj": "INTERVAL DAY",
                  "mk1": "DOUBLE", "mk2": "DOUBLE", "mv": "STRING"}
assert not set(_BUILDER_TYPES) & set(PAIRED), "a PAIRED column's name is taken"
PAIRED.update(_BUILDER_TYPES)
_LONG_MIN, _LONG_MAX = str(-2**63), str(2**63 - 1)
_BUILDER_EDGES = {
    "bd1": [["1.0", "-0.0", _NAN, None, "1.0", _NAN], ["-0.0"], ["0.0"], [None, None], [], None, ["3.0", "1.0", "2.0", "1.0"],
            [_NAN], ["1.0", None], [_INF, _NINF], ["2.0", "2.0"], ["-0.0", "1.0"], ["1.0E300", _NAN, "-0.0"], [None], ["0.5", "-0.5", "0.5"],
            []],
    "bd2": [["0.0", _NAN, None, "2.0", "-0.0"], ["0.0"], ["-0.0"], [None], ["1.0"], ["1.0"], ["1.0", "3.0"], [], ["2.0"], [_NINF],
            None, ["1.0"], [_NAN, "0.0"], [], ["0.5"], []],
    "bs1": [["a", "b", "c", "d", "e", "f"], ["x"], ["y"], ["p", None], [], ["z"], ["a", "b", "c", "d"], [None], ["a", "b"],
            ["i", "j"], ["u"], ["v", "w"], ["", "é", "😀"], None, ["a", "b", "c"], ["q"]],
    "vn": ["1", "0", "-1", "5", "-5", "4", "-4", None, str(2**31 - 1), str(-2**31 + 1), "3", "-3", "2", "6", "-6", "-2"],
    "sq1": ["1", "5", "1", "1", "1", "1", "5", "2147483646", "-2147483648", str(2**63 - 2), _LONG_MIN, "0", None, "3", "-3",
            "10"],
    "sq2": ["5", "1", "5", "5", "1", "2", "1", "2147483647", "2147483647", _LONG_MAX, _LONG_MAX, _LONG_MAX, "1", "3", "3",
            "-10"],
    "sq3": ["1", "-1", "2", "-1", "0", "0", "-2", "5", "2147483647", "3", "2147483647", "2147483647", "1", "-1", "3", "-7"],
    "sd1": [_D(2024, 1, 1), _D(2024, 1, 5), _D(2024, 2, 27), _D(2024, 1, 1), _D(2024, 1, 1), None, _D(2024, 3, 30),
            _D(2023, 12, 30), _D(2024, 10, 26), _D(2024, 1, 1), _D(2000, 2, 28), _D(2024, 3, 1), _D(2024, 3, 1),
            _D(1970, 1, 1), _D(2024, 2, 29), _D(2024, 1, 31)],
    "sd2": [_D(2024, 1, 5), _D(2024, 1, 1), _D(2024, 3, 2), _D(2024, 1, 4), _D(2024, 1, 1), _D(2024, 1, 1), _D(2024, 4, 1),
            _D(2024, 1, 2), _D(2024, 10, 28), _D(2023, 12, 1), _D(2000, 3, 1), _D(2024, 2, 1), _D(2024, 3, 1),
            _D(1969, 12, 29), None, _D(2024, 3, 1)],
    "sdj": [_td(days=1), _td(days=-1), _td(days=2), _td(0), _td(0), _td(days=1), _td(days=1), _td(days=1), _td(days=1),
            _td(days=-7), _td(days=1), _td(days=1), _td(days=-1), _td(days=-1), _td(days=1), _td(days=29)],
    "mk1": ["1.0", _NAN, "0.0", "-0.0", None, "1.0", _INF, "1.0", "2.0", "-0.0", "1.0E300", "0.1", _NINF, "3.0", "4.0", "5.0"],
    "mk2": ["2.0", _NAN, "-0.0", "1.0", "1.0", None, _NINF, "1.0", "2.5", "-0.0", "1.0E-300", "0.2", _NINF, "-3.0", "4.5", "5.5"],
    "mv": ["a", None, "b", "c", "d", "e", None, "f", "g", "h", "i", "j", "k", "", "é", "😀"],
}
assert not set(_BUILDER_EDGES) & set(_PAIRED_EDGES), "a PAIRED column's name is taken"
_PAIRED_EDGES.update(_BUILDER_EDGES)


def _collection_builder_expressions() -> list[tuple[str, str]]:
    """Array-building and map functions between rows (``sparkcep.evaluation.collection_builders``)."""
    out = []
    for function in ("array_union", "array_intersect", "array_except"):
        for x, y in (("bd1", "bd2"), ("bd2", "bd1"), ("ai", "ai2"), ("ai", "af"), ("ai", "ad"), ("as1", "bs1"),
                     ("adt", "ats"), ("ant", "ats"), ("ax", "ai"), ("ab", "ab"), ("ax", "ax")):
            out.append(_pair(function + "({}, {})", x, y))
    for arr, value in (("bd1", "vd"), ("bd2", "mk1"), ("ai", "vi"), ("ai", "vd"), ("ad", "vi"), ("as1", "vs"),
                       ("ats", "vts"), ("adt", "vts"), ("ax", "vx"), ("ab", "vb"), ("ai", "vs")):
        out.append(_pair("array_remove({}, {})", arr, value))
        out.append(_pair("array_append({}, {})", arr, value))
        out.append(_pair("array_prepend({}, {})", arr, value))
    for arr, value in (("ai", "vi"), ("bd1", "vd"), ("as1", "vs"), ("ai", "vd"), ("ats", "vdt")):
        out.append(_pair("array_insert({}, {}, {})", arr, "vn", value))
    out.append(_pair("array_insert({}, {}, {})", "ai", "vl", "vi"))  # refused: Spark takes an INT position only
    for value in ("vs", "vd", "vi", "vts", "mv"):
        out.append(_pair("array_repeat({}, {})", value, "vn"))
    out.append(_pair("array_repeat({}, {})", "vi", "vl"))  # refused: Spark takes an INT count only
    for arr in ("ai", "ad", "bd1", "af", "ax", "as1", "ab", "adt", "ats", "ant"):
        out.append(_pair("array_compact(coalesce({}, {}))", arr, arr))
        out.append(_pair("sort_array(coalesce({}, {}))", arr, arr))
        out.append(_pair("sort_array(coalesce({}, {}), false)", arr, arr))
        out.append(_pair("array_sort(coalesce({}, {}))", arr, arr))
        out.append(_pair("reverse(coalesce({}, {}))", arr, arr))
    out.append(_pair("sort_array(concat({}, {}))", "bd1", "bd2"))
    out.append(_pair("array_sort(concat({}, {}))", "bd1", "bd2"))
    out.append(_pair("sort_array(concat({}, {}), false)", "bd1", "bd2"))
    for x, y in (("bd1", "bd2"), ("ai", "ai2"), ("ai", "ad"), ("ai", "af"), ("ai", "vl"), ("ax", "ai"), ("adt", "ats"),
                 ("ant", "ats"), ("as1", "bs1"), ("ai", "as1")):
        out.append(_pair("concat({}, {})", x, y))
    out.append(_pair("({} || {})", "ai", "ai2"))
    out.append(_pair("concat({}, {}, {})", "ai", "ai2", "ai"))
    out.append(_pair("flatten(coalesce({}, {}))", "aai", "aai"))
    for m in ("mi", "ms", "mdk"):
        out.append(_pair("map_keys(coalesce({}, {}))", m, m))
        out.append(_pair("map_values(coalesce({}, {}))", m, m))
    out.append(_pair("map({}, {}, {}, {})", "mk1", "mv", "mk2", "mv"))
    out.append(_pair("map({}, {})", "mk1", "mv"))
    out.append(_pair("map({}, {}, {}, {})", "vi", "vs", "vl", "vs"))  # an INT key and a BIGINT key
    out.append(_pair("map({}, {}, {}, {})", "vdt", "vi", "vts", "vl"))
    out.append(_pair("map_keys(map({}, {}, {}, {}))", "mk1", "mv", "mk2", "mv"))
    out.append(_pair("map({}, {}, {}, {})", "vi", "vs", "vs", "vi"))  # refused: Spark casts a STRING key
    for keys, values in (("bd1", "bs1"), ("ai", "as1"), ("bd2", "bd1"), ("ai", "ai2"), ("as1", "ai")):
        out.append(_pair("map_from_arrays({}, {})", keys, values))
    for arr in ("ai", "as1", "ad"):
        out.append(_pair("get({}, {})", arr, "vl"))
        out.append(_pair("get({}, {})", arr, "vn"))
    for start, stop in (("sq1", "sq2"), ("vn", "sq3"), ("sq3", "vn"), ("sd1", "sd2")):
        out.append(_pair("sequence({}, {})", start, stop))
    out.append(_pair("sequence({}, {}, {})", "sq1", "sq2", "sq3"))
    out.append(_pair("sequence({}, {}, {})", "sd1", "sd2", "sdj"))
    out.append(_pair("sequence({}, {})", "vd", "vd"))  # refused: Spark takes integral numbers (or datetimes)
    for arr in ("ai", "ax", "ab", "adt", "ats", "ant", "ad"):
        out.append(_pair("array_join({}, {})", arr, "vs"))
    out.append(_pair("array_join({}, ',', {})", "ai", "vs"))
    out.append(_pair("array_join({}, {}, 'null')", "adt", "vs"))
    # what Spark's optimizer makes of map(...) and array(...): map(..)[k] the first equal key's
    # value (the map is not built, so no DUPLICATED_MAP_KEY or NULL_MAP_KEY), map(..) / array(..)
    # IS NULL false, array(..)[0] its first element alone (no division by zero in the second),
    # array(..)[5] NULL without ANSI (no INVALID_INDEX_OF_ZERO in an element); element_at builds
    # the map; size(map(..)) is refused (Spark counts the entries written for some operands only)
    out.append(_pair("isnan(cardinality(map({}, {}, {}, {})))", "mk1", "mv", "mk2", "mv"))  # refused
    out.append(_pair("size(coalesce(map({}, {}, {}, {}), map(1.0D, 'z')))", "mk1", "mv", "mk2", "mv"))  # refused
    out.append(_pair("size(map_keys(map({}, {}, {}, {})))", "mk1", "mv", "mk2", "mv"))
    out.append(_pair("array({}, element_at({}, {}))[5]", "vi", "ai", "vn"))
    out.append(_pair("array({}, element_at({}, {}))[0]", "vi", "ai", "vn"))
    out.append(_pair("map({}, {}, {}, {})[{}]", "mk1", "mv", "mk2", "mv", "mk2"))
    out.append(_pair("element_at(map({}, {}, {}, {}), {})", "mk1", "mv", "mk2", "mv", "mk2"))
    out.append(_pair("(map({}, {}) IS NULL)", "mk1", "mv"))
    out.append(_pair("isnotnull(map({}, {}, {}, {}))", "mk1", "mv", "mk2", "mv"))
    out.append(_pair("array({}, {} / {})[0]", "vi", "vi", "vn"))
    out.append(_pair("array({}, {} / {})[1]", "vi", "vi", "vn"))
    out.append(_pair("(array({}, {} / {}) IS NULL)", "vi", "vi", "vn"))
    # ... and what it knows is never NULL: IS NOT NULL folded to TRUE, nothing built
    out.append(_pair("(cardinality(map_keys(map({}, {}, {}, {}))) IS NOT NULL)", "mk1", "mv", "mk2", "mv"))
    out.append(_pair("(array_union(map_values(map({}, {}, {}, {})), {}) IS NULL)", "mk1", "mv", "mk2", "mv", "bs1"))
    out.append(_pair("(array_repeat({}, {}) IS NULL)", "vi", "vn"))
    # Spark reads the array (and array_insert's position) first: NULL there, and the element that
    # would raise NULL_MAP_KEY is not read (found by random seed 11); q1 NULL makes both
    out.append(_pair("element_at(array_insert(array(1), CAST({} AS INT), CAST(map_contains_key(map({}, 1, {}, 2), {}) AS INT)), 1)",
                     "q1", "i2", "q1", "i1"))
    out.append(_pair("array_append(IF({} IS NULL, NULL, array({})), size(map_keys(map({}, 1, {}, 2))))", "q1", "i1", "i2", "q1"))
    out.append(_pair("array_prepend(IF({} IS NULL, NULL, array({})), size(map_keys(map({}, 1, {}, 2))))", "q1", "i1", "i2", "q1"))
    return out
# -- array-building and map functions between rows (end) -----------------------------------------


# -- higher-order functions between rows (begin) -------------------------------------------------
# The PAIRED array and map columns above (NULL arrays and maps, NULL elements and values, empty
# ones, INT's ends, NaN and -0.0, strings outside the BMP, arrays of unequal lengths), with lambdas
# whose bodies read the other row: NULL elements through the body, three-valued exists / forall
# (NULL predicates), errors in the body (overflow, division by zero) before and after the element
# that decides exists / forall, aggregate's merge and finish, zip_with's padding, map keys
# transformed to NULL or to equal keys (NaN twice, 0.0 and -0.0), nested and shadowing lambdas
def _higher_order_expressions() -> list[tuple[str, str]]:
    """transform, filter, exists, forall, aggregate / reduce, zip_with, map_filter,
    transform_values, transform_keys, map_zip_with between rows (``sparkcep.evaluation.higher_order_functions``)."""
    out = []
    for arr, value in (("ai", "vi"), ("ai", "vl"), ("ad", "vd"), ("ax", "vx"), ("ai", "vx"), ("ai", "vd"),
                       ("af", "vd"), ("ad", "vi")):
        out.append(_pair("transform({}, x -> x + {})", arr, value))
        out.append(_pair("transform({}, (x, i) -> x * i - {})", arr, value))
        out.append(_pair("filter({}, x -> x > {})", arr, value))
        out.append(_pair("filter({}, (x, i) -> i < {} OR x IS NULL)", arr, value))
        out.append(_pair("exists({}, x -> x = {})", arr, value))
        out.append(_pair("exists({}, x -> x > {})", arr, value))
        out.append(_pair("forall({}, x -> x > {})", arr, value))
        out.append(_pair("forall({}, x -> x <=> {})", arr, value))
    for arr, value in (("as1", "vs"), ("adt", "vdt"), ("ats", "vts"), ("ab", "vb")):
        out.append(_pair("transform({}, x -> x = {})", arr, value))
        out.append(_pair("filter({}, x -> x < {})", arr, value))
        out.append(_pair("exists({}, x -> x = {})", arr, value))
        out.append(_pair("forall({}, x -> x >= {})", arr, value))
    out.append(_pair("transform({}, x -> concat(x, {}))", "as1", "vs"))
    out.append(_pair("exists({}, x -> x LIKE {})", "as1", "vs"))
    out.append(_pair("exists({}, x -> x AND {})", "ab", "vb"))
    out.append(_pair("forall({}, x -> x OR {})", "ab", "vb"))
    # errors in the body: an overflow, a division by zero; exists / forall stop at the element
    # that decides them (an error after it is not raised)
    out.append(_pair("transform({}, x -> x * {})", "ai", "vi"))
    out.append(_pair("transform({}, x -> {} / x)", "ai", "vi"))
    out.append(_pair("exists({}, x -> {} % x = 0)", "ai", "vi"))
    out.append(_pair("forall({}, x -> {} div x > 0)", "ai", "vi"))
    out.append(_pair("exists({}, x -> x > 0 AND {} / (x - 1) > 0)", "ai", "vi"))
    out.append(_pair("exists({}, x -> {} / (x - 3) <> 0)", "ai", "vi"))  # [1, 2, 3]: TRUE before x = 3
    out.append(_pair("forall({}, x -> {} / (x - 3) = 0)", "ai", "vi"))
    out.append(_pair("transform({}, (x, i) -> i + {})", "ai", "vl"))
    out.append(_pair("transform({}, x -> {})", "ai", "vi"))  # the body reads no variable
    out.append(_pair("transform({}, X -> x + {})", "ai", "vi"))  # names are case-insensitive
    out.append(_pair("transform({}, x -> x + {} - {})", "ai", "vi", "vi"))  # both rows in the body
    out.append(_pair("transform({}, x -> exists({}, y -> y = x))", "ai", "ai2"))  # nested
    out.append(_pair("transform({}, x -> transform({}, x -> x + 1))", "ai", "ai2"))  # shadowed
    out.append(_pair("transform({}, x -> transform({}, y -> x * y))", "ai", "ai2"))
    out.append(_pair("transform({}, x -> filter(x, y -> y <> {}))", "aai", "vi"))
    # aggregate: the merge's type must be the start's (Spark casts nothing)
    out.append(_pair("aggregate({}, {}, (acc, x) -> acc + x)", "ai", "vl"))
    out.append(_pair("aggregate({}, {}, (acc, x) -> acc + x)", "ai", "vi"))
    out.append(_pair("reduce({}, {}, (acc, x) -> acc + x, acc -> acc * 2)", "ai", "vl"))
    out.append(_pair("aggregate({}, {}, (acc, x) -> acc + coalesce(x, 0D), acc -> acc / 2)", "ad", "vd"))
    out.append(_pair("aggregate({}, {}, (acc, x) -> concat(acc, x))", "as1", "vs"))
    out.append(_pair("aggregate({}, {}, (acc, x) -> acc + x, acc -> acc > {})", "ai", "vl", "vl"))
    out.append(_pair("aggregate({}, 0L, (acc, x) -> acc + x + {})", "ai", "vl"))
    out.append(_pair("aggregate({}, {}, (acc, x) -> x)", "ai", "vl"))  # refused: INT merge, BIGINT start
    out.append(_pair("aggregate({}, {}, (acc, x) -> acc + x)", "ax", "vx"))  # refused: a wider DECIMAL
    out.append(_pair("aggregate({}, {}, (acc, x) -> IF(x > acc, x, acc))", "ai", "vi"))
    # zip_with: the shorter array padded with NULLs
    for x, y in (("ai", "ai2"), ("ai", "ad"), ("ai", "as1"), ("as1", "ai"), ("ad", "af")):
        out.append(_pair("zip_with({}, {}, (x, y) -> coalesce(x, y))", x, y))
        out.append(_pair("zip_with({}, {}, (x, y) -> concat(x, '|', y))", x, y))
    out.append(_pair("zip_with({}, {}, (x, y) -> x + y)", "ai", "ai2"))
    out.append(_pair("zip_with({}, {}, (x, y) -> x IS NULL)", "ai", "ai2"))
    # maps
    for m, value in (("mi", "vi"), ("mi", "vs"), ("ms", "vi"), ("ms", "vs"), ("mdk", "vd")):
        out.append(_pair("map_filter({}, (k, v) -> k > {})", m, value))
        out.append(_pair("map_filter({}, (k, v) -> v < {})", m, value))
        out.append(_pair("transform_values({}, (k, v) -> concat(v, k, {}))", m, value))
    out.append(_pair("transform_values({}, (k, v) -> k + {})", "mi", "vi"))
    out.append(_pair("transform_values({}, (k, v) -> v IS NULL OR v = {})", "ms", "vi"))
    out.append(_pair("transform_keys({}, (k, v) -> k + {})", "mi", "vi"))
    out.append(_pair("transform_keys({}, (k, v) -> k * {})", "mi", "vi"))  # equal keys when vi = 0
    out.append(_pair("transform_keys({}, (k, v) -> concat(k, {}))", "ms", "vs"))
    out.append(_pair("transform_keys({}, (k, v) -> v + {})", "ms", "vi"))  # NULL values: NULL keys
    out.append(_pair("transform_keys({}, (k, v) -> k * {})", "mdk", "vd"))  # NaN, 0.0 and -0.0 keys
    out.append(_pair("transform_keys({}, (k, v) -> {})", "mi", "vs"))
    out.append(_pair("transform_keys({}, (k, v) -> map(k, {}))", "mi", "vi"))  # refused: a MAP key
    # map_zip_with: keys of both maps in order, once each (NaN to NaN, -0.0 to 0.0, written 0.0)
    out.append(_pair("map_zip_with({}, map_filter({}, (k, v) -> k > 0), (k, x, y) -> concat(coalesce(x, '-'), coalesce(y, '-')))",
                     "mi", "mi"))
    out.append(_pair("map_zip_with({}, transform_keys({}, (k, v) -> -k), (k, x, y) -> coalesce(x, 0) * 10 + coalesce(y, 0))",
                     "mdk", "mdk"))
    out.append(_pair("map_zip_with({}, map_filter({}, (k, v) -> v IS NULL OR v > 3), (k, x, y) -> y IS NULL)", "ms", "ms"))
    out.append(_pair("map_zip_with({}, {}, (k, x, y) -> concat(k, {}))", "ms", "ms", "vs"))
    out.append(_pair("map_zip_with({}, {}, (k, x, y) -> x)", "mi", "ms"))  # refused: keys of two types
    out.append(_pair("map_zip_with({}, transform_keys({}, (k, v) -> CAST(k + {} AS BIGINT)), (k, x, y) -> x)",
                     "mi", "mi", "vi"))  # refused: Spark casts the INT keys to BIGINT
    # functions of the results, and the results as DEFINE conditions
    out.append(_pair("size(filter({}, x -> x IS NOT NULL AND x <> {}))", "as1", "vs"))
    out.append(_pair("element_at(transform({}, x -> x - {}), 1)", "ai", "vi"))
    out.append(_pair("(exists({}, x -> x > {}) IS NULL)", "ai", "vi"))
    out.append(_pair("array_contains(transform({}, x -> x + {}), 3)", "ai", "vi"))
    out.append(_pair("transform(array({}, {}), x -> x + 1)", "vi", "vi"))
    out.append(_pair("filter({}, x -> concat(x, {}))", "ai", "vs"))  # refused: a STRING predicate
    out.append(_pair("transform({}, x -> x + {})", "vi", "vi"))  # refused: not an array
    # Spark knows these are never NULL (their map or arrays never are): IS NULL is FALSE without
    # building the map (mk1 NULL: no NULL_MAP_KEY) or evaluating the lambda
    out.append(_pair("(transform_values(map({}, {}), (k, v) -> concat(v, {})) IS NULL)", "mk1", "mv", "vs"))
    out.append(_pair("(size(filter(array({}, {}), x -> x > 1 / (x - {}))) IS NULL)", "vi", "vi", "vi"))
    out.append(_pair("(zip_with(array({}, {}), array({}, {}), (x, y) -> x / y) IS NOT NULL)", "vi", "vn", "vn", "vi"))
    return out
# -- higher-order functions between rows (end) ---------------------------------------------------


# -- array_sort with a comparator between rows (begin) ----------------------------------------
# (A.so1, B.so2): INT arrays sorted by comparators that read B's INT, call for call as Java's
# TimSort (sparkcep.evaluation.java_tim_sort): short arrays (binary insertion only), 40 to 130
# elements (runs, merges, galloping), duplicates (stability), NULL elements (a NULL answer:
# COMPARATOR_RETURNS_NULL, or Spark's NullPointerException when the first element compared is
# NULL), INT's ends (overflow in the body at some call), one array whose comparator below is
# inconsistent enough for TimSort's contract violation (row 5), a NULL parameter (every answer
# NULL); A.sos: STRING arrays (NULL elements, outside the BMP, 40 strings of few letters).
PAIRED.update({"so1": "ARRAY<INT>", "so2": "INT", "sos": "ARRAY<STRING>"})
_SORT_CONTRACT = [10, 5, 15, 15, 5, 1, 8, 0, 11, 12, 0, 17, 13, 11, 12, 18, 0, 14, 1, 5, 19, 6, 3, 7, 14, 11, 16, 11,
                  16, 8, 14, 3, 18, 11, 9, 1, 13, 2, 6, 10, 16, 19, 11, 4, 10, 8, 17, 2]
_SORT_RUNS = [k for run in range(10) for k in (range(run * 3, run * 3 + 13) if run % 2 else range(run * 5 + 12, run * 5, -1))]
_SORT_CASES = [
    ([3, 1, 2], 0, ["b", "a", "c"]), ([], 1, []), (None, 0, None), ([None, 5, None, 1], 0, [None, "a", None]),
    ([5, 5, 5, 1, 5], 5, ["é", "e", "😀", "z", "e"]), (_SORT_CONTRACT, 0, ["a", "a"]),
    ([(i * 7919 + 13) % 21 for i in range(100)], 3, ["".join("abc"[(i * k) % 3] for k in range(1 + i % 3)) for i in range(40)]),
    (_SORT_RUNS, 1, ["x", None]), ([2**31 - 1, -2**31, 0, 1], 1, ["", "a", ""]), (list(range(70, 0, -1)), 0, ["b"]),
    ([7], None, ["a", "b"]), ([(i % 9) * (1 if i % 2 else -1) for i in range(64)], -1, [None, None]),
    ([1, 2], None, ["ab", "a", "abc", "b"]), ([(i * 613 + 7) % 1000 for i in range(40)], 2, ["zz", "😀", "y"]),
    ([None], 0, [None]), ([4, 4], 0, ["c", "b", "a", "c", "b", "a"]),
]
_PAIRED_EDGES.update({
    "so1": [None if c[0] is None else [None if x is None else str(x) for x in c[0]] for c in _SORT_CASES],
    "so2": [None if c[1] is None else str(c[1]) for c in _SORT_CASES],
    "sos": [c[2] for c in _SORT_CASES],
})


def _comparator_sort_expressions() -> list[tuple[str, str]]:
    """array_sort(arr, (l, r) -> ...) between rows (``sparkcep.evaluation.comparator_sort``)."""
    out = []
    for body in ("l - r + {}", "(l * 31 + r * 17 + {}) % 5 - 2", "IF(l = {}, NULL, coalesce(l, 0) - coalesce(r, 0))",
                 "CASE WHEN l IS NULL AND r IS NULL THEN 0 WHEN l IS NULL THEN {0} WHEN r IS NULL THEN -{0} "
                 "WHEN l < r THEN 1 WHEN l > r THEN -1 ELSE 0 END",
                 "CAST(l DIV (r - {}) AS INT)", "{}", "IF(l < r, {0}, -{0})", "(r - l) * {}",
                 # two errors, which is raised depends on which pair TimSort compares first
                 "IF(l = {0} + 1, CAST(l DIV 0 AS INT), IF(r = {0}, l * 2147483647, r - l))"):
        qualified = "array_sort(A.so1, (l, r) -> " + body.replace("{}", "{0}").format("B.so2") + ")"
        out.append((qualified, qualified.replace("A.", "").replace("B.", "")))
    for body in ("length(l) - length(r) + {}", "IF(l < r, {0}, -{0})", "IF(l = r, 0, IF(l || 'x' > r, {0}, -{0}))",
                 "coalesce(ascii(l), 0) - coalesce(ascii(r), {0})"):
        qualified = "array_sort(A.sos, (l, r) -> " + body.replace("{}", "{0}").format("B.so2") + ")"
        out.append((qualified, qualified.replace("A.", "").replace("B.", "")))
    # the result used; nested and in other lambdas (an outer lambda's variable in the comparator)
    out.append(_pair("element_at(array_sort({}, (l, r) -> r - l + {}), 1)", "so1", "so2"))
    out.append(_pair("size(array_sort({}, (l, r) -> {}))", "so1", "so2"))
    out.append(_pair("transform(array_sort({}, (l, r) -> (r - l) * {}), x -> x * 2)", "so1", "so2"))
    out.append(_pair("array_sort(transform({}, x -> x + {}), (l, r) -> l - r)", "so1", "so2"))
    out.append(_pair("transform(array(1, -1), k -> array_sort({}, (l, r) -> (l - r) * k + {}))", "so1", "so2"))
    out.append(_pair("array_sort({}, (l, r) -> size(array_sort(array(l, r, {}), (x, y) -> y - x)) - 3)", "so1", "so2"))
    # other element types: DOUBLEs with NaN and -0.0, dates, arrays of arrays
    out.append(_pair("array_sort({}, (l, r) -> CAST(signum(l - r) AS INT) * {})", "ad", "so2"))
    out.append(_pair("array_sort({}, (l, r) -> datediff(l, r) * {})", "adt", "so2"))
    out.append(_pair("array_sort({}, (l, r) -> size(l) - size(r) + {})", "aai", "so2"))
    # refused as Spark refuses them: the comparator must return exactly an INT
    out.append(_pair("array_sort({}, (l, r) -> CAST(l - r AS BIGINT) + {})", "so1", "so2"))
    out.append(_pair("array_sort({}, (l, r) -> CAST(l - r + {} AS SMALLINT))", "so1", "so2"))
    out.append(_pair("array_sort({}, (l, r) -> l < {})", "so1", "so2"))  # a BOOLEAN
    out.append(_pair("array_sort({}, (l, r) -> l - r + {})", "so2", "so2"))  # not an array
    # Spark knows it is never NULL when its array is: IS NULL is FALSE without sorting (no error)
    out.append(_pair("(array_sort(array({}, {}), (l, r) -> CAST(l DIV (r - r) AS INT)) IS NULL)", "so2", "so2"))
    return out
# -- array_sort with a comparator between rows (end) ------------------------------------------


# -- format_string / printf with a format read from a row (begin) -------------------------------
# A.rf: formats parsed per row (sparkcep.evaluation.row_formats) over B's INT, STRING, DOUBLE and
# DECIMAL(10,2) arguments: a NULL format (NULL, the arguments not evaluated: no division by zero
# from A.rfi DIV B.rfz), formats Java rejects (%q, %0$s), a missing argument, a conversion the
# argument's class does not take (%e and %f of an INT or a Spark Decimal), and the specifiers
# sparkcep refuses on the row (a DOUBLE under %s, %e or %f; %tY; %h of a DECIMAL) next to NULL
# values, which print "null" whatever the conversion
PAIRED.update({"rf": "STRING", "rfi": "INT", "rfs": "STRING", "rfd": "DOUBLE", "rfx": "DECIMAL(10,2)", "rfz": "INT"})
_ROW_FORMAT_CASES = [
    ("%d|%s", 5, "a", "1.5", "1.25", 1), ("%s", 7, "é😀", "0.1", "0.00", 0), (None, 1, "x", "2.0", "3.50", 0),
    ("%q", 2, "b", "-0.0", "1.00", 1), ("%d", 3, "c", "1.0E300", "2.00", 1), ("%s %s %s %s", 4, "d", "NaN", "9.99", 1),
    ("%0$s", 6, "e", "1.0", "0.10", 1), ("%1$s|%1$x|%2$S", 255, "abc", "2.5", "-1.50", 1), ("%e", 8, "f", "3.0", "4.00", 1),
    ("%tY", 9, "g", "4.0", "5.00", 1), ("%%|%n|%-6s|", 10, "h", "5.0", "6.00", 1), ("%c", 0x1F600, "i", "6.0", "7.00", 1),
    ("%h", 12, "j", "7.0", "8.00", 1), ("%b|%B", 13, None, None, None, 1), ("%s|%s", None, None, None, None, 1),
    ("%08.3f", 15, "k", "8.0", "9.00", 1),
]
_PAIRED_EDGES.update({name: [None if c[k] is None else str(c[k]) if k in (1, 5) else c[k] for c in _ROW_FORMAT_CASES]
                      for k, name in enumerate(("rf", "rfi", "rfs", "rfd", "rfx", "rfz"))})


def _row_format_expressions() -> list[tuple[str, str]]:
    out = []
    for template, columns in (("format_string({}, {}, {})", ("rf", "rfi", "rfs")),
                              ("format_string({}, {}, {})", ("rf", "rfd", "rfi")),
                              ("printf({}, {}, {})", ("rf", "rfx", "rfs")),
                              ("format_string({}, {} DIV {}, {})", ("rf", "rfi", "rfz", "rfs")),
                              ("format_string(concat({}, {}), {})", ("rf", "rfs", "rfi")),
                              ("format_string({})", ("rf",)),
                              ("length(format_string({}, {}, {}))", ("rf", "rfs", "rfi")),
                              ("format_string({}, {}, {})", ("rf", "ai", "rfi")),  # an ARRAY: refused where printed
                              ("format_string({}, {})", ("rfi", "rfs")),  # refused: Spark casts an INT format
                              # never NULL when its format is not: IS NULL is FALSE without formatting
                              ("(format_string(IF({} > {}, '%d', '%s'), {}) IS NULL)", ("rfi", "rfz", "rfs")),
                              # a literal format: never NULL, no MissingFormatArgumentException (random seed 303)
                              ("(printf('%s %s %s', {}, {}) IS NULL)", ("rfs", "rfs"))):
        out.append(_pair(template, *columns))
    return out
# -- format_string / printf with a format read from a row (end) ---------------------------------


def row_values() -> list[dict]:
    """ROWS rows; column k walks its type's edges, shifted by k + 1 more at each pass, so two
    columns meet in many pairs of edges; each column is NULL in a few rows. The PAIRED columns
    walk their edges together."""
    rows = []
    for r in range(ROWS):
        row = {}
        for k, (name, spark_type) in enumerate(COLUMNS.items()):
            edges = _edges(spark_type)
            if (r + 3 * k) % 13 == 12:
                row[name] = None
            else:
                row[name] = edges[(r + (r // len(edges)) * (k + 1) + k) % len(edges)]
        for name, edges in _PAIRED_EDGES.items():
            row[name] = edges[r % len(edges)]
        rows.append(row)
    return rows


def table_sql() -> str:
    """The rows as one SQL query (columns ``r``, COLUMNS, then PAIRED)."""
    types = {**COLUMNS, **PAIRED}
    texts = []
    for r, row in enumerate(row_values()):
        cells = [f"{r} AS r"] + [f"{_sql_value(types[name], value)} AS {name}" for name, value in row.items()]
        texts.append("SELECT " + ", ".join(cells))
    return " UNION ALL ".join(texts)


FIRST = ["i1", "l1", "t1", "h1", "d1", "f1", "m1", "n1", "q1", "q2", "z1"]
SECOND = ["i2", "l2", "t1", "h1", "d2", "f1", "m2", "n1", "q1", "q2", "z1"]


def _pair(template: str, *columns):
    """(qualified, plain): the columns qualified A, B, A, ... in order."""
    qualified = template.format(*(f"{'AB'[i % 2]}.{c}" for i, c in enumerate(columns)))
    return qualified, template.format(*columns)


def expressions() -> list[tuple[str, str]]:
    out = []
    for op in ("+", "-", "*", "/", "%"):
        for x in FIRST:
            for y in SECOND:
                out.append(_pair("({} " + op + " {})", x, y))
    for op in ("<", "=", "<=>"):
        for x in FIRST:
            for y in SECOND:
                out.append(_pair("({} " + op + " {})", x, y))
    for op in (">", ">=", "<=", "<>"):
        for x, y in (("d1", "d2"), ("f1", "d2"), ("i1", "d2"), ("m1", "q2"), ("l1", "l2"), ("z1", "m2")):
            out.append(_pair("({} " + op + " {})", x, y))
    for op in ("=", "<", ">=", "<=>", "<>"):
        for x, y in (("s1", "s2"), ("dt1", "dt2"), ("ts1", "ts2"), ("tn1", "ts1"), ("dt1", "ts2"),
                     ("dt2", "tn1"), ("b1", "b2")):
            out.append(_pair("({} " + op + " {})", x, y))
    for x, y in zip(FIRST, SECOND):
        out.append(_pair("(- ({} + {}))", x, x))
        out.append(_pair("abs({} - {})", x, y))
        out.append(_pair("(- ({} * {}))", x, y))
        out.append(_pair("abs(-({} % {}))", x, y))
    triples = [("i1", "l2", "t1"), ("d1", "d2", "f1"), ("m1", "n1", "q1"), ("q2", "z1", "i2"),
               ("d1", "m2", "i1"), ("s1", "s2", "s1"), ("dt1", "ts2", "tn1"), ("f1", "h1", "q1"),
               ("ts1", "ts2", "ts1"), ("b1", "b2", "b1")]
    for function in ("greatest", "least", "coalesce"):
        for triple in triples:
            out.append(_pair(function + "({}, {}, {})", *triple))
    for x, y in (("i1", "i2"), ("d1", "d2"), ("m1", "n1"), ("s1", "s2"), ("dt1", "dt2"), ("f1", "d2"),
                 ("q1", "q2"), ("l1", "i2")):
        out.append(_pair("nullif({}, {})", x, y))
        out.append(_pair("({} IS DISTINCT FROM {})", x, y))
        out.append(_pair("({} IS NOT DISTINCT FROM {})", x, y))
    for triple in triples:
        out.append(_pair("nvl2({}, {}, {})", *triple))
        out.append(_pair("({} IN ({}, {}))", *triple))
        out.append(_pair("({} NOT IN ({}, {}))", *triple))
        out.append(_pair("({} BETWEEN {} AND {})", *triple))
        out.append(_pair("IF({} = {}, {}, NULL)", *triple))
        out.append(_pair("CASE {} WHEN {} THEN {} END", *triple))
    for b in ("b1", "b2"):
        for x, y in (("i1", "l2"), ("m1", "d2"), ("q1", "z1"), ("s1", "s2"), ("ts1", "dt2")):
            out.append(_pair("IF({}, {}, {})", b, x, y))
            out.append(_pair("CASE WHEN {} THEN {} ELSE {} END", b, x, y))
    for op in ("AND", "OR"):
        out.append(_pair("({} " + op + " {})", "b1", "b2"))
        out.append(_pair("(({} " + op + " {}) " + op + " ({} < {}))", "b1", "b2", "d1", "d2"))
    for test in ("IS TRUE", "IS FALSE", "IS NOT TRUE", "IS NOT FALSE", "IS NULL", "IS NOT NULL"):
        out.append(_pair("(({} < {}) " + test + ")", "d1", "d2"))
        out.append(_pair("(({} = {}) " + test + ")", "b1", "b2"))
    out.append(_pair("(NOT ({} < {}))", "d1", "d2"))
    out.append(_pair("(NOT ({} AND {}))", "b1", "b2"))
    # nested: rounding and overflow inside a larger expression
    for x, y in (("m1", "m2"), ("q1", "q2"), ("n1", "z1"), ("i1", "l2"), ("d1", "f1")):
        out.append(_pair("(({} * {}) + ({} / {}))", x, y, x, y))
        out.append(_pair("greatest(({} % {}), ({} - {}))", x, y, x, y))
    # DECIMAL division whose 39th digit decides the rounding (PAIRED)
    out.append(_pair("({} / {})", "w1", "w2"))
    out.append(_pair("({} / {})", "w2", "w1"))
    out.append(_pair("({} * {})", "g1", "e1"))
    out.append(_pair("({} * {})", "g2", "e1"))
    out.append(_pair("({} = {})", "g1", "e1"))
    out.append(_pair("({} LIKE {})", "p1", "p2"))
    out.append(_pair("({} LIKE {} ESCAPE '/')", "p1", "p2"))
    out.append(_pair("({} ILIKE {})", "p1", "p2"))
    # substring with and without a length, at INT's extreme positions and lengths
    out.append(_pair("substring(concat({}, {}), {})", "s1", "s2", "i1"))
    out.append(_pair("substring(concat({}, {}), {}, {})", "s1", "s2", "i1", "i2"))
    # exact numbers compared exactly (PAIRED)
    for x, y in (("x1", "x2"), ("u1", "u2")):
        for op in ("=", "<", ">=", "<=>", "<>"):
            out.append(_pair("({} " + op + " {})", x, y))
    # a DECIMAL(3, 3) remainder (PAIRED y1; q1 is DECIMAL(5, 3))
    out.append(_pair("({} % {})", "y1", "q1"))
    out.append(_pair("({} % {})", "y1", "y1"))
    # arrays of strings compared (PAIRED a1, a2): element by element, then the shorter first
    for op in ("<", "=", ">="):
        out.append(_pair("(array({}, {}) " + op + " array({}, {}))", "a1", "a2", "a2", "a1"))
        out.append(_pair("(array({}) " + op + " array({}, {}))", "a1", "a1", "a2"))
    out.append(_pair("greatest(array({}, {}), array({}, {}))", "a1", "a2", "a2", "a1"))
    # LIKE and ILIKE without ESCAPE: the backslash escapes (PAIRED p3, p4)
    out.append(_pair("({} LIKE {})", "p3", "p4"))
    out.append(_pair("({} ILIKE {})", "p3", "p4"))
    # string search and edit functions (PAIRED k1, k2; INT positions and lengths at the extremes)
    for x, y in (("k1", "k2"), ("s1", "s2"), ("k1", "k1")):
        for function in ("contains", "startswith", "endswith", "instr", "replace"):
            out.append(_pair(function + "({}, {})", x, y))
        out.append(_pair("locate({}, {})", y, x))
        out.append(_pair("position({} IN {})", y, x))
        out.append(_pair("trim(BOTH {} FROM {})", y, x))
        out.append(_pair("trim(LEADING {} FROM {})", y, x))
        out.append(_pair("trim(TRAILING {} FROM {})", y, x))
    for position in ("i1", "t1", "h1"):
        out.append(_pair("locate({}, {}, {})", "k2", "k1", position))
        out.append(_pair("left({}, {})", "k1", position))
        out.append(_pair("right({}, {})", "k1", position))
    out.append(_pair("replace({}, {}, {})", "k1", "k2", "s1"))
    for x, y in (("k1", "k2"), ("s1", "s2")):
        for count in ("i1", "t1"):
            out.append(_pair("substring_index({}, {}, {})", x, y, count))
            out.append(_pair("split_part({}, {}, {})", x, y, count))
        out.append(_pair("levenshtein({}, {})", x, y))
        out.append(_pair("levenshtein({}, {}, {})", x, y, "t1"))
    out.append(_pair("substring_index({}, {}, {})", "k1", "k1", "i2"))  # the delimiter is the string
    out.append(_pair("translate({}, {}, {})", "k1", "k2", "s1"))
    out.append(_pair("translate({}, {}, {})", "s1", "k1", "k2"))
    out.append(_pair("translate({}, concat({}, {}), {})", "k1", "k2", "k2", "s2"))  # a repeated character
    for function in ("ascii", "octet_length", "bit_length", "md5", "sha1", "sha", "crc32"):
        out.append(_pair(function + "(concat({}, {}))", "k1", "s2"))
    for bits in ("i1", "i2"):  # the INT edges hold 0 and none of 224 ... 512: NULL but for 0
        out.append(_pair("sha2(concat({}, {}), {})", "k1", "s2", bits))
    out.append(_pair("sha2(concat({}, {}), 384 + {} - {})", "k1", "s2", "i1", "i1"))
    for code in ("i1", "l1", "t1", "h1"):
        out.append(_pair("chr({} + {})", code, code))
        out.append(_pair("char({} - {})", code, "t1"))
    for function in ("trim", "ltrim", "rtrim", "reverse"):
        out.append(_pair(function + "(concat({}, {}))", "k1", "k2"))
    # integral division, bitwise operators, shifts (Java's distance modulo 32 or 64)
    for x, y in (("i1", "i2"), ("l1", "l2"), ("t1", "h1"), ("l1", "i2"), ("h1", "t1")):
        for op in ("div", "&", "|", "^"):
            out.append(_pair("({} " + op + " {})", x, y))
        out.append(_pair("(~ ({} & {}))", x, y))
    for x, n in (("i1", "i2"), ("l1", "i2"), ("t1", "i1"), ("h1", "t1"), ("l2", "h1")):
        for function in ("shiftleft", "shiftright", "shiftrightunsigned"):
            out.append(_pair(function + "({}, {})", x, n))
    # try_ arithmetic: NULL where the ANSI operator raises
    for x, y in zip(FIRST, SECOND):
        for function in ("try_add", "try_subtract", "try_multiply", "try_divide", "try_mod"):
            out.append(_pair(function + "({}, {})", x, y))
    for function in ("({} div {})", "try_divide({}, {})", "try_mod({}, {})", "try_multiply({}, {})",
                     "shiftright({} div {}, 1)"):
        out.append(_pair(function, "v1", "v2"))
    for unit in ("MICROSECOND", "MILLISECOND", "SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "QUARTER",
                 "YEAR"):
        out.append(_pair("timestampdiff(" + unit + ", {}, {})", "c1", "c2"))
        out.append(_pair("timestampdiff(" + unit + ", {}, {})", "c2", "c1"))
        out.append(_pair("timestampdiff(" + unit + ", {}, {})", "c3", "c4"))
    out.append(_pair("timestampdiff(HOUR, {}, {})", "ts1", "ts2"))
    out.append(_pair("timestampdiff(MONTH, {}, {})", "ts2", "ts1"))
    out.append(_pair("timestampdiff(DAY, {}, {})", "dt1", "ts2"))
    out.append(_pair("timestampdiff(WEEK, {}, {})", "dt1", "dt2"))
    out.append(_pair("datediff(HOUR, {}, {})", "c1", "c2"))
    out.append(_pair("datediff({}, {})", "dt1", "dt2"))
    out.append(_pair("datediff({}, {})", "dt2", "dt1"))
    # day-time intervals (PAIRED c, j): datetime - datetime on local date-times, datetime +
    # interval on the local wall clock, interval arithmetic to BIGINT's microseconds
    for x, y in (("c2", "c1"), ("c4", "c3"), ("c2", "c3"), ("ts1", "ts2"), ("tn1", "ts1"), ("dt1", "dt2"),
                 ("dt1", "ts2"), ("tn1", "dt1")):
        out.append(_pair("({} - {})", x, y))
    out.append(_pair("(({} - {}) < INTERVAL '2' HOUR)", "c2", "c1"))
    out.append(_pair("(({} - {}) = INTERVAL '2' HOUR)", "c4", "c3"))
    out.append(_pair("(({} - {}) >= INTERVAL '1' DAY)", "dt1", "dt2"))
    out.append(_pair("(({} - {}) BETWEEN INTERVAL '1' HOUR AND INTERVAL '3' HOUR)", "c2", "c1"))
    for x, y in (("c1", "j4"), ("c2", "j3"), ("c3", "j4"), ("ts1", "j4"), ("dt1", "j3"), ("dt1", "j4"),
                 ("dt2", "j2"), ("tn1", "j3")):
        out.append(_pair("({} + {})", x, y))
        out.append(_pair("({} - {})", x, y))
    out.append(_pair("({} + {})", "j4", "c1"))
    out.append(_pair("({} + {})", "j3", "dt2"))
    for x, y in (("j1", "j2"), ("j2", "j3"), ("j4", "j3"), ("j1", "j4")):
        for op in ("+", "-", "<", "=", "<=>"):
            out.append(_pair("({} " + op + " {})", x, y))
    out.append(_pair("(- ({} - {}))", "j1", "j2"))
    out.append(_pair("abs({} - {})", "j1", "j2"))
    out.append(_pair("abs({} + {})", "j2", "j3"))
    out.append(_pair("greatest({}, {}, {})", "j1", "j2", "j3"))
    out.append(_pair("coalesce({}, {}, {})", "j2", "j3", "j4"))
    out.append(_pair("(({} + {}) - ({} - {}))", "c2", "j4", "c1", "j3"))
    for y in ("j3", "j4"):
        out.append(_pair("({} + {})", "c5", y))
        out.append(_pair("({} - {})", "c5", y))
    out.append(_pair("({} * {})", "j2", "i1"))  # refused: the interval times a number
    # functions that are another operator (lower_synonym), and find_in_set
    for x, y in (("i1", "l2"), ("d1", "d2"), ("s1", "s2"), ("ts1", "dt2"), ("a1", "a2")):
        out.append(_pair("equal_null({}, {})", x, y))
        out.append(_pair("isnull(nullif({}, {}))", x, y))
        out.append(_pair("isnotnull(coalesce({}, {}))", x, y))
    for x, y in (("i1", "i2"), ("l1", "l2"), ("d1", "d2"), ("m1", "n1"), ("t1", "h1")):
        out.append(_pair("negative({} - {})", x, y))
        out.append(_pair("nullifzero({} - {})", x, y))
        out.append(_pair("zeroifnull(nullif({}, {}))", x, y))
    for x, y in (("k1", "k2"), ("a1", "a2")):
        out.append(_pair("btrim(concat({}, {}))", x, y))
        out.append(_pair("btrim({}, {})", x, y))
        out.append(_pair("find_in_set({}, {})", x, y))
        out.append(_pair("find_in_set({}, concat({}, ',', {}))", y, x, y))
    out.append(_pair("find_in_set(concat({}, ','), {})", "a1", "a2"))
    # bit_count (64-bit two's complement of every integral type) and getbit (positions out of
    # the type's range: INVALID_PARAMETER_VALUE)
    for x, y in (("i1", "i2"), ("l1", "l2"), ("t1", "t1"), ("h1", "h1"), ("i1", "l2")):
        out.append(_pair("bit_count({} ^ {})", x, y))
        out.append(_pair("getbit({} | {}, {})", x, y, "t1"))
        out.append(_pair("bit_get({} & {}, {} % 8)", x, y, "h1"))
    out.append(_pair("bit_count(({} < {}))", "d1", "d2"))
    for x, y, position in (("i1", "i2", 31), ("i1", "i2", 32), ("t1", "t1", 8), ("l1", "l2", 63), ("l1", "l2", 64)):
        out.append(_pair("getbit({} | {}, " + str(position) + ")", x, y))
    out += _hash_pad_conv_expressions()
    out += _date_expressions()  # date arithmetic between rows
    out += _regex_expressions()
    out += _datetime_field_expressions()
    out += _scalar_function_expressions()
    out += _implicit_string_cast_expressions()
    out += _url_expressions()
    out += _string_coercion_expressions()
    out += _datetime_pattern_expressions()
    out += _cast_expressions()
    out += _string_cast_expressions()  # string casts
    out += _interval_product_expressions()
    out += _collection_expressions()
    out += _collection_builder_expressions()
    out += _trigonometric_expressions()  # inverse trigonometric and hyperbolic functions, hypot
    out += _higher_order_expressions()  # -- higher-order functions (one line) --
    out += _json_expressions()  # JSON and map functions
    out += _map_function_expressions()
    out += _to_json_expressions()
    out += _format_string_expressions()
    out += _struct_expressions()  # structs
    out += _java_double_text_expressions()  # -- Java's Double.toString between rows (one line) --
    out += _text_and_binary_expressions()  # split, regexp_extract_all, base64, encode, soundex, ... (one line)
    out += _datetime_rest_expressions()  # the rest of the datetime functions
    out += _comparator_sort_expressions()  # -- array_sort with a comparator (one line) --
    out += _row_format_expressions()  # -- format_string with a format read from a row (one line) --
    return out


def _regex_expressions() -> list[tuple[str, str]]:
    """regexp_extract, regexp_replace, regexp_count, regexp_substr and regexp_instr between rows:
    patterns read from a row (rxp) and written as literals (SQL text: each backslash doubled)."""
    out = []
    subject = "concat({}, {})"
    for template, columns in (
            ("regexp_extract(" + subject + ", {}, {})", ("rx1", "rx2", "rxp", "rxi")),
            ("regexp_extract(" + subject + ", {})", ("rx1", "rx2", "rxp")),
            ("regexp_extract(" + subject + ", {}, 0)", ("rx1", "rx2", "rxp")),
            ("regexp_replace(" + subject + ", {}, {})", ("rx1", "rx2", "rxp", "rxr")),
            ("regexp_replace(" + subject + ", {}, {}, 2)", ("rx1", "rx2", "rxp", "rxr")),
            ("regexp_replace(" + subject + ", {}, {}, 4)", ("rx1", "rx2", "rxp", "rxr")),
            ("regexp_count(" + subject + ", {})", ("rx1", "rx2", "rxp")),
            ("regexp_substr(" + subject + ", {})", ("rx1", "rx2", "rxp")),
            ("regexp_instr(" + subject + ", {})", ("rx1", "rx2", "rxp")),
            ("regexp_instr(" + subject + ", {}, {})", ("rx1", "rx2", "rxp", "rxi")),
            ("regexp_replace({}, '(b)', {})", ("rx1", "rxr")),
            ("regexp_extract({}, {}, 1)", ("rx1", "rxp"))):
        out.append(_pair(template, *columns))
    for call in ("regexp_extract({}, '(\\\\d+)', 1)", "regexp_extract({}, '([a-c])([a-c])?', 2)",
                 "regexp_replace({}, '[aeiou]', '<$0>')", "regexp_replace({}, '(\\\\w)(\\\\w)', '$2$1', 2)",
                 "regexp_count({}, '[a-z]')", "regexp_count({}, '.')", "regexp_substr({}, '\\\\d+')",
                 "regexp_instr({}, '[b-d]')", "regexp_instr({}, '\\\\d', 1)"):
        out.append(_pair(call.replace("{}", subject, 1), "rx1", "rx2"))
    for call in ("regexp_count({}, '')", "regexp_count({}, 'x*')", "regexp_count({}, 'a??')",
                 "regexp_replace({}, '', '-')", "regexp_replace({}, 'x*', '-')", "regexp_replace({}, 'a??', '-')",
                 "regexp_replace({}, '$', '!', 3)", "regexp_substr({}, 'x*')", "regexp_instr({}, 'x*|b')",
                 "regexp_extract({}, '', 0)"):
        out.append(_pair(call.replace("{}", subject, 1), "rx3", "rx3"))
    return out


# ---- hash, xxhash64, lpad, rpad, repeat, conv, hex, unhex, bin, format_number (begin) ----
def _hash_pad_conv_expressions() -> list[tuple[str, str]]:
    """hash and xxhash64 of every type (one argument seeding the next, NULL among them), lpad /
    rpad / repeat at TINYINT lengths (truncating, padding, negative; empty and multi-character
    pads, characters outside the BMP), conv between bases (invalid digits, signs, overflow past
    2^64, negative to_base, invalid bases), hex / unhex / bin, format_number of exact numbers."""
    out = []
    for function in ("hash", "xxhash64"):
        for x, y in zip(FIRST, SECOND):
            out.append(_pair(function + "({}, {})", x, y))
        for x, y in (("s1", "s2"), ("k1", "k2"), ("dt1", "dt2"), ("ts1", "ts2"), ("tn1", "ts1"), ("b1", "b2"),
                     ("g1", "g2"), ("w1", "w2"), ("d1", "f1")):
            out.append(_pair(function + "({}, {})", x, y))
        out.append(_pair(function + "({}, NULL, {}, {})", "s1", "i1", "d2"))
        out.append(_pair(function + "(concat({}, {}))", "k1", "s2"))
        out.append(_pair(function + "(unhex(concat({}, {})), {})", "s1", "s2", "k1"))
    for function in ("lpad", "rpad"):
        out.append(_pair(function + "({}, {}, {})", "k1", "t1", "k2"))
        out.append(_pair(function + "({}, {}, {})", "s1", "t1", "s2"))
        out.append(_pair(function + "({}, {})", "k1", "t1"))
        out.append(_pair(function + "(concat({}, {}), 3, {})", "k1", "s2", "k2"))
    out.append(_pair("repeat({}, {})", "k1", "t1"))
    out.append(_pair("repeat(concat({}, {}), 3)", "k2", "s2"))
    for x, y in (("s1", "s2"), ("k1", "s1")):
        for bases in ("10, 16", "10, -16", "16, 10", "36, -10", "2, 10", "10, 2"):
            out.append(_pair("conv(concat({}, {}), " + bases + ")", x, y))
    out.append(_pair("conv(concat({}, {}), 10, {} % 37)", "s1", "s2", "t1"))
    out.append(_pair("conv(concat({}, {}), {} % 37, 10)", "k1", "s2", "t1"))
    out.append(_pair("conv(concat({}, {}), {}, 10)", "s1", "s2", "i1"))
    out.append(_pair("conv(concat({}, {}), 37, 10)", "s1", "s2"))  # bases beyond 36: NULL
    out.append(_pair("conv(concat({}, {}), 10, -37)", "s1", "s2"))
    out.append(_pair("conv(concat({}, {}), 36, 10)", "cv", "cv"))
    out.append(_pair("conv(concat({}, {}, {}), 10, 16)", "s1", "s2", "s1"))  # past 2^64
    out.append(_pair("conv(concat({}, {}, {}), 10, -10)", "s1", "s2", "s1"))
    out.append(_pair("conv(concat('-', {}, {}), 10, 16)", "s1", "s2"))
    out.append(_pair("conv(concat('-', {}, {}), 10, -16)", "s1", "s2"))
    out.append(_pair("conv(concat('-', {}, {}, {}), 10, 16)", "s1", "s2", "s1"))
    out.append(_pair("conv(concat('ffffffffffffff', {}, {}), 16, -10)", "k2", "s2"))
    out.append(_pair("conv(concat('7fffffffffffffff', {}, {}), 16, -10)", "k2", "s2"))
    out.append(_pair("conv(({} ^ {}), 10, 16)", "l1", "l2"))
    out.append(_pair("conv(({} | {}), 10, -36)", "i1", "t1"))
    for x, y in (("l1", "l2"), ("i1", "i2"), ("t1", "h1")):
        out.append(_pair("hex(({} ^ {}))", x, y))
        out.append(_pair("bin(({} ^ {}))", x, y))
    out.append(_pair("hex(concat({}, {}))", "k1", "s2"))
    out.append(_pair("hex(unhex(concat({}, {})))", "s1", "s2"))
    out.append(_pair("hex(unhex(concat({}, {})))", "k1", "k2"))
    out.append(_pair("(unhex(concat({}, {})) IS NULL)", "s1", "s2"))
    # format_number of exact numbers (HALF_EVEN; negative values that round to zero)
    for x in ("i1", "l1", "t1", "h1", "m1", "n1", "q1", "q2", "z1"):
        out.append(_pair("format_number({}, {} % 8)", x, "i1"))
    for x, y in (("n1", "q1"), ("q2", "n1"), ("y1", "q1")):
        out.append(_pair("format_number(({} * {}), 2)", x, y))
        out.append(_pair("format_number(({} - {}), 0)", x, y))
    out.append(_pair("format_number(({} + {}), 3)", "g1", "g2"))
    out.append(_pair("format_number(({} - {}), {})", "n1", "q1", "t1"))  # Spark: the decimals must be an INT
    return out
# ---- hash, xxhash64, lpad, rpad, repeat, conv, hex, unhex, bin, format_number (end) ----


# -- inverse trigonometric and hyperbolic functions, hypot (begin) --------------------------------
# one case a row: the argument tg1 (plus tz, 0.0 or -0.0) where fdlibm changes its method (asin
# and acos at 0.5, 0.975 and 1; atan at 7/16 and 39/16; sinh, cosh and tanh at 22 and the
# overflow threshold 710.4758600739439; Spark's asinh and acosh at 2 and 2**28), where Python's
# math differs from Java's (tanh 0.174823, asinh 2.8, acosh 4.9214), signed zeros, NaN, the
# infinities, subnormals; and (tg1, tg2) points for atan2 and hypot: the quadrants of signed zeros
# and infinities, |y / x| beyond 2**60, subnormal and huge pairs
PAIRED.update({"tg1": "DOUBLE", "tg2": "DOUBLE", "tz": "DOUBLE"})
_TRIG_CASES = [
    ("NaN", "1.0", "0.0"), ("Infinity", "Infinity", "0.0"), ("-Infinity", "Infinity", "0.0"),
    ("0.0", "-0.0", "0.0"), ("-0.0", "-1.0", "-0.0"), ("0.5", "0.5", "0.0"), ("-0.5", "-2.0", "0.0"),
    ("0.975", "0.975", "0.0"), ("0.9999999999999999", "-Infinity", "0.0"), ("1.0", "NaN", "0.0"),
    ("-1.0", "-0.0", "0.0"), ("1.0000000000000002", "1.0E-310", "0.0"), ("0.174823", "0.0", "0.0"),
    ("2.8", "3.0E-300", "0.0"), ("4.9214", "1.0E20", "0.0"), ("22.0", "-22.0", "0.0"),
    ("710.4758600739439", "710.4758600739439", "0.0"), ("710.5", "-1.0E300", "0.0"), ("-711.0", "0.0", "0.0"),
    ("3.725290298461914E-9", "4.9E-324", "0.0"), ("2.68435456E8", "-2.68435456E8", "0.0"), ("1.0E-300", "1.0E-300", "0.0"),
    ("4.9E-324", "-4.9E-324", "0.0"), ("1.7976931348623157E308", "1.7976931348623157E308", "0.0"),
    ("0.6", "-0.8", "0.0"), ("-0.7", "1.0E-30", "0.0"), ("3.0", "4.0", "0.0"), ("1.3E154", "1.3E154", "0.0"),
    ("0.4375", "-Infinity", "0.0"), ("2.4375", "-1.0", "0.0"), (None, "1.0", "0.0"), ("-2.5", None, "0.0"),
]
assert len(_TRIG_CASES) == ROWS
_PAIRED_EDGES.update({name: [case[k] for case in _TRIG_CASES] for k, name in enumerate(("tg1", "tg2", "tz"))})


def _trigonometric_expressions() -> list[tuple[str, str]]:
    out = []
    for function in ("asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"):
        out.append(_pair(function + "(({} + {}))", "tg1", "tz"))
    out.append(_pair("atan2({}, {})", "tg1", "tg2"))
    out.append(_pair("atan2({}, {})", "tg2", "tg1"))
    out.append(_pair("hypot({}, {})", "tg1", "tg2"))
    # every numeric type is cast to DOUBLE; the edges of the grammar's columns, NULLs among them
    out.append(_pair("atan(({} + {}))", "i1", "i2"))
    out.append(_pair("tanh(({} - {}))", "m1", "m2"))
    out.append(_pair("acosh(({} * {}))", "f1", "f1"))
    out.append(_pair("asinh(({} / {}))", "d1", "d2"))
    out.append(_pair("sinh(({} - {}))", "n1", "q1"))
    out.append(_pair("cosh(({} + {}))", "t1", "h1"))
    out.append(_pair("asin(({} / {}))", "i1", "l2"))
    out.append(_pair("atanh(({} / {}))", "q1", "q2"))
    out.append(_pair("hypot({}, {})", "d1", "d2"))
    out.append(_pair("atan2({}, {})", "l1", "q2"))
    out.append(_pair("atan2({}, {})", "d1", "d2"))
    out.append(_pair("acos(({} - {}))", "z1", "z1"))
    return out
# -- inverse trigonometric and hyperbolic functions, hypot (end) ----------------------------------
# -- JSON and map functions between rows (begin) -------------------------------------------------
# PAIRED columns, one designed case per row: the JSON text js1 || js2 (SQL text: each backslash
# doubled) and a path jp read from the row. Jackson's escapes written back (\u00XX, surrogate
# pairs as \uXXXX escapes in Spark's UTF-8 generator but not in a wildcard's buffer, a lone
# surrogate), text after the first value (not read), trailing commas, single quotes and \',
# literals followed by letters, NULL values of repeated keys, wildcards (one match alone, [*][*]
# flattened), the white space Spark's path parser skips (before a name, an index, "['", not
# before '.', '[' or after the name inside ['...']), nesting 1,000 and 1,001 deep, a number of
# 1,001 digits, numbers written back (1e2 as 100.0, -0 as 0, 1e400 as "Infinity"; only the
# DOUBLEs Java 17 prints as Python does: test_json_functions checks the others are refused)
_JSON_TYPES = {"js1": "STRING", "js2": "STRING", "jp": "STRING"}
assert not set(_JSON_TYPES) & set(PAIRED), "a PAIRED column's name is taken"
PAIRED.update(_JSON_TYPES)
_JSON_CASES = [
    ('{"a":1e2,', '"b":[1,2]}', "$.b[1]"),
    ("[1.50,-0.0,-0,", "12345678901234567890123]", "$[*]"),
    ('{"a":"😀","b":["😀"', ',"x"]}', "$.b"),
    (r'{"a":["\\ud800"],', r'"c":"\\ud83d\\ude00"}', "$.a"),
    (r'{"a":"x\\u0001\\n\\t', r'\\b\\f\\r\\u007f/\\"\\\\","b":["\\u001f"]}', "$.a"),
    ('{"a":1} x', "", "$.a"),
    ('{"a":1,', "}", "$.a"),
    (r"{'a':'b\\'c'", "}", "$"),
    ("true", ".", "$"),
    ("[truex", "]", "$"),
    ('{"a":null,', '"a":2}', "$.a"),
    ("[[1,2],", "[3]]", "$[*][*]"),
    ('[{"a":[1,2]},', '{"a":[3]}]', "$[*].a[*]"),
    ('{"a b":1,', '"a.b":2}', "$['a.b']"),
    ("[1," + "[" * 999, "]" * 999 + "]", "$[ 1]"),
    ("[1,2]", "", "$[1] "),
    ('{"a":1}', "", " $.a"),
    ('{"a":1}', "", "$ ['a']"),
    ('{"a":1}', "", "$. a"),
    ('{"*":1}', "", "$.*"),
    ('{"a":{"b":"c"}}', "", "$..b"),
    ('{"a":NaN}', "", "$"),
    ("[" * 1001, "]" * 1001, "$"),
    ("-0", " x", "$"),
    ('"abc', '"', "$"),
    ('{"a":[{"b":"x"},{"b":"y"}]}', "", "$.a[*].b"),
    ("[[[1,2]],[[3]]]", "", "$[*][*][*]"),
    ("[1e400,-1e400,0.1,1E-7,1.0E15]", "", "$"),
    (None, "[]", "$"),
    (r'{"a":"\\x"}', "", "$.a"),
    ("[" + "9" * 1001, "]", None),
    ('\t{"b" : [ 1 , 2 ] ,"a":[{"b":"z"}]}', " ", "$.b"),
]
assert len(_JSON_CASES) == ROWS
_PAIRED_EDGES.update({"js1": [c[0] for c in _JSON_CASES], "js2": [c[1] for c in _JSON_CASES],
                      "jp": [c[2] for c in _JSON_CASES]})


def _json_expressions() -> list[tuple[str, str]]:
    """get_json_object, json_array_length and json_object_keys between rows
    (``sparkcep.evaluation.json_functions``): the path read from a row and written as literals."""
    text = "({} || {})"
    out = [_pair("get_json_object(" + text + ", {})", "js1", "js2", "jp")]
    # ([*][*] over every row: see test_json_functions, rows 14 and 22 are too deep to flatten)
    for path in ("$", "$.a", "$[*]", "$[0]", "$.a[*].b", "$.b[*]"):
        out.append(_pair("get_json_object(" + text + ", '" + path + "')", "js1", "js2"))
    out.append(_pair("json_array_length(" + text + ")", "js1", "js2"))
    out.append(_pair("json_object_keys(" + text + ")", "js1", "js2"))
    out.append(_pair("get_json_object(({} + {}), '$')", "vi", "vi"))  # refused: Spark casts no INT here
    return out


# str_to_map's text sm1 || sm2 and its delimiters (Java regular expressions; SQL text: each
# backslash doubled): empty parts, a key without a value, a second delimiter in the value, empty
# delimiters (Spark splits into characters), empty matches (x*, $), a lookahead, a pattern Java
# rejects, duplicate keys (DUPLICATED_MAP_KEY), characters outside the BMP, NULLs
_MAP_TYPES = {"sm1": "STRING", "sm2": "STRING", "smp": "STRING", "smk": "STRING"}
assert not set(_MAP_TYPES) & set(PAIRED), "a PAIRED column's name is taken"
PAIRED.update(_MAP_TYPES)
_MAP_CASES = [
    ("a:1,b", ":2", ",", ":"), ("a:1,b:2,", "a:3", ",", ":"), ("a=1;b", "", ";", "="), ("", "", ",", ":"),
    ("a:1,,b:2", ":3", ",", ":"), ("a1b2", "c", "[0-9]", "x"), ("a.b", "", ".", ":"), ("a:1|b:2", "", "|", ":"),
    ("a1b", "", "", ""), ("ab", "", "", ":"), ("a:1", "", "[", ":"), ("a::1", "", ",", ":"),
    ("k1:v1 k2", ":v2", r"\\s+", ":"), ("😀:1,é", ":2", ",", ":"), ("a:1", "", ",", ""), ("a", "", ",", "x*"),
    ("ab:cd", "", ",", "x*"), (None, "a:1", ",", ":"), ("a:1", "", None, ":"), ("a:1", "", ",", None),
    ("x-1-y-2", "", "-(?=[a-z])", "-"), ("a1b22c", "", "", ""), (",a:1", ",", ",", ":"), ("aXbXc", "", "X", "b"),
    (r"a:1\nb:2", "", r"\\n", ":"), ("a:1", ",b:2", ",", ":"), ("ä:1,Ä", ":2", ",", ":"), ("a-1", "", "-", "-"),
    ("aaa", "", "a", ":"), ("a:1;b=2", ",c:3", "[,;]", "[:=]"), ("a:1;b:2", ",c:3", "[,;]", ":"), ("a:1", "", "$", ":"),
]
assert len(_MAP_CASES) == ROWS
_PAIRED_EDGES.update({name: [c[i] for c in _MAP_CASES] for i, name in enumerate(_MAP_TYPES)})


def _map_function_expressions() -> list[tuple[str, str]]:
    """str_to_map and map_concat between rows (``sparkcep.evaluation.map_functions``)."""
    text = "({} || {})"
    out = [_pair("str_to_map(" + text + ", {}, {})", "sm1", "sm2", "smp", "smk"),
           _pair("str_to_map(" + text + ")", "sm1", "sm2"),
           _pair("str_to_map(" + text + ", ';')", "sm1", "sm2"),
           _pair("str_to_map(" + text + ", ',', '=')", "sm1", "sm2"),
           _pair("element_at(str_to_map(" + text + "), 'a')", "sm1", "sm2"),
           _pair("map_concat(str_to_map(" + text + "), str_to_map(" + text + ", ',', '='))", "sm1", "sm2", "sm2",
                 "sm1"),
           _pair("str_to_map({}, {})", "sm1", "vi")]  # refused: Spark casts no INT here
    for m, key, value in (("mi", "vi", "vs"), ("ms", "vs", "vi"), ("mdk", "vd", "vi"), ("mi", "vl", "vs"),
                          ("mi", "vs", "vs")):  # (the last refused: Spark finds no common key type)
        out.append(_pair("map_concat({}, map({}, {}))", m, key, value))
    out.append(_pair("map_concat({}, map({}, {}), {})", "mi", "vi", "vs", "mi"))
    out.append(_pair("map_keys(map_concat(map({}, {}), {}))", "vd", "vi", "mdk"))
    return out


def _to_json_expressions() -> list[tuple[str, str]]:
    """to_json of arrays and maps between rows (``json_functions.to_json``): every element type
    it writes (DECIMALs in Java's BigDecimal notation, 1E-10; TIMESTAMPs in Europe/Berlin with
    their offsets, milliseconds truncated; map keys of DATEs and TIMESTAMPs as numbers), strings
    with Jackson's escapes, nested arrays; FLOAT and DOUBLE refused."""
    out = []
    for column in ("ai", "as1", "ax", "ab", "adt", "ats", "ant", "mi", "ms", "aai", "ad", "af", "mdk"):
        out.append(_pair("to_json(coalesce({}, {}))", column, column))
    for template, columns in (("to_json(map({}, {}))", ("vdt", "vi")), ("to_json(map({}, {}))", ("vts", "vs")),
                              ("to_json(array({}, {}))", ("vts", "vts")), ("to_json(array({}, {}))", ("w1", "w1")),
                              ("to_json(array({}, {}))", ("y1", "x1")), ("to_json(array(({} || {})))", ("js1", "js2")),
                              ("to_json(json_object_keys(({} || {})))", ("js1", "js2")),
                              ("to_json(str_to_map(({} || {}), {}, {}))", ("sm1", "sm2", "smp", "smk")),
                              ("to_json(map({}, array({}, {})))", ("vs", "vb", "vb")),  # refused: map()'s values
                              ("to_json(array({}, chr({})))", ("vs", "vi"))):  # control characters (chr(1), chr(0))
        out.append(_pair(template, *columns))
    return out
# -- JSON and map functions between rows (end) ---------------------------------------------------


# -- structs between rows (begin) ----------------------------------------------------------------
# PAIRED columns, one designed case per row: structs with NULL fields, NULL structs, fields at
# INT's ends, NaN / -0.0 / 0.0 fields and TIMESTAMPs in Berlin's overlap (Spark orders structs
# field by field, a NULL field first, NaN = NaN, -0.0 = 0.0, TIMESTAMPs by instant), field names
# of both cases (Spark resolves s['g'] to G), arrays of structs with NULL elements and duplicates
_STRUCT_TYPES = {"su1": "STRUCT<f:INT,G:STRING>", "su2": "STRUCT<f:INT,G:STRING>", "sud": "STRUCT<d:DOUBLE,t:TIMESTAMP>",
                 "aus": "ARRAY<STRUCT<f:INT,G:STRING>>"}
assert not set(_STRUCT_TYPES) & set(PAIRED), "a PAIRED column's name is taken"
PAIRED.update(_STRUCT_TYPES)
_STRUCT_EDGES = {
    "su1": [{"f": "1", "G": "a"}, {"f": None, "G": "a"}, None, {"f": "2", "G": None}, {"f": _MIN, "G": ""},
           {"f": "1", "G": "b"}, {"f": None, "G": None}, {"f": "1", "G": "a"}, {"f": _MAX, "G": "é"}],
    "su2": [{"f": "1", "G": "a"}, {"f": None, "G": "a"}, {"f": "1", "G": "a"}, None, {"f": "-1", "G": "z"},
           {"f": "1", "G": "a"}, {"f": None, "G": None}, {"f": "0", "G": "é"}, {"f": _MAX, "G": None},
           {"f": "1", "G": "a"}, {"f": "2", "G": ""}],
    "sud": [{"d": _NAN, "t": _dt(2024, 10, 27, 2, 30)}, {"d": "-0.0", "t": None}, {"d": "0.0", "t": _dt(2024, 3, 31, 3)},
           None, {"d": None, "t": _dt(2024, 1, 1)}, {"d": "1.5", "t": _dt(2024, 10, 27, 2, 30)},
           {"d": _NAN, "t": None}],
    "aus": [[{"f": "1", "G": "a"}, {"f": "1", "G": "b"}], [], None, [None], [{"f": "1", "G": "a"}, {"f": "1", "G": "a"}],
            [{"f": None, "G": "x"}, None], [{"f": "2", "G": "c"}], [{"f": "3", "G": None}, {"f": "3", "G": "d"}]],
}
assert not set(_STRUCT_EDGES) & set(_PAIRED_EDGES), "a PAIRED column's name is taken"
_PAIRED_EDGES.update(_STRUCT_EDGES)


def _struct_expressions() -> list[tuple[str, str]]:
    """STRUCT values between rows (``sparkcep.evaluation.struct_functions``)."""
    out = []
    for x, y in (("vi", "vs"), ("vd", "vts"), ("vx", "vdt"), ("vb", "vl"), ("vs", "ant")):
        out.append(_pair("named_struct('a', {}, 'Bc', {})", x, y))
    out += [_pair("struct({}, {})", "vi", "vs"), _pair("struct({}, ({} + 1), {} AS z)", "vi", "vi", "vl"),
            _pair("struct({}['f'], {}, {}['G'])", "su1", "vi", "su2"), _pair("typeof(struct({}, {}))", "vi", "vs"),
            _pair("named_struct('a', {}, 'b', {}).b", "vi", "vs"), _pair("named_struct('a', {}, 'b', {})['B']", "vi", "vs"),
            _pair("named_struct('a', {}, 'a', {})", "vi", "vi"),  # refused: two fields of one name
            _pair("named_struct('a', {}, 'A', {}).a", "vi", "vi"),  # refused: ambiguous
            _pair("named_struct('a', {}, 'b', {}).c", "vi", "vi"),  # refused: no such field
            _pair("named_struct('a', {}, 'b', ({} DIV {})) IS NULL", "vi", "vi", "vi"),
            _pair("named_struct('a', {}, 'b', ({} DIV {})).a", "vi", "vi", "vi"),
            _pair("struct({}, ({} DIV {})) IS NOT NULL", "vi", "vi", "vi"),
            _pair("coalesce({}, {})", "su1", "su2"), _pair("coalesce({}, {}).f", "su1", "su2"),
            _pair("coalesce({}, {})['g']", "su1", "su2"), _pair("coalesce({}, {}).G IS NULL", "su1", "su2"),
            _pair("coalesce({}, {}).d", "sud", "sud")]
    for x, y in (("su1", "su2"), ("sud", "sud"), ("su2", "su1")):
        for op in ("=", "<", "<=>", ">=", "<>"):
            out.append(_pair("({} " + op + " {})", x, y))
        out.append(_pair("greatest({}, {})", x, y))
        out.append(_pair("least({}, {})", x, y))
        out.append(_pair("({} IN ({}, {}))", x, y, y))
    for x, y in (("vi", "vl"), ("vi", "vi"), ("vd", "vd"), ("vdt", "vts"), ("vi", "vx"), ("vi", "vd"), ("vs", "vs")):
        # (each struct over both rows: a struct of one row's values is Spark's value column)
        out.append(_pair("(named_struct('a', {}, 'b', {}) = named_struct('a', {}, 'b', {}))", x, y, y, x))
        out.append(_pair("(named_struct('a', {}, 'b', {}) < named_struct('a', {}, 'b', {}))", x, y, x, y))
    out += [_pair("(named_struct('a', {}, 'c', {}) = named_struct('b', {}, 'c', {}))", "vi", "vi", "vi", "vi"),  # refused
            _pair("(named_struct('a', {}) IN (named_struct('a', {}), named_struct('a', 2)))", "vi", "vi"),
            _pair("if(({} > 0), {}, {})", "vi", "su1", "su2"),
            _pair("CASE {} WHEN {} THEN 1 WHEN {} THEN 2 ELSE 3 END", "su1", "su2", "su1"),
            _pair("coalesce(named_struct('a', {}, 'b', {}), named_struct('a', {}, 'b', {}))", "vi", "vs", "vl", "vs"),
            _pair("array(named_struct('a', {}), named_struct('a', {}))", "vi", "vl"),
            _pair("array({}, {})", "su1", "su2"),
            _pair("array_contains(array(named_struct('a', {})), named_struct('a', {}))", "vi", "vi"),
            _pair("array_contains(array(named_struct('a', {}), named_struct('a', {})), named_struct('a', coalesce({}, {})))",
                  "vi", "vi", "vl", "vl"),  # Spark refuses
            _pair("array_distinct(array(named_struct('a', {}), named_struct('a', {})))", "vd", "vd"),
            _pair("array_distinct(array({}, {}, {}))", "sud", "sud", "sud"),
            _pair("array_distinct(concat({}, {}))", "aus", "aus"),
            _pair("array_union({}, {})", "aus", "aus"), _pair("array_intersect({}, {})", "aus", "aus"),
            _pair("array_except({}, {})", "aus", "aus"),
            _pair("sort_array(array({}, {}, {}))", "su1", "su2", "su1"),
            _pair("sort_array(array({}, {}, {}), false)", "su1", "su2", "su1"),
            _pair("array_sort(array({}, {}, {}))", "su1", "su2", "su1"),
            _pair("sort_array(array({}, {}))", "sud", "sud"),
            _pair("array_max(array({}, {}))", "su1", "su2"), _pair("array_min(array({}, {}))", "sud", "sud"),
            _pair("element_at(coalesce({}, {}), 1)", "aus", "aus"), _pair("coalesce({}, {})[{}]", "aus", "aus", "vi"),
            _pair("element_at(coalesce({}, {}), 1).G", "aus", "aus"),
            _pair("array_contains({}, {})", "aus", "su1"), _pair("array_position({}, {})", "aus", "su2"),
            _pair("element_at(map({}, {}), {})", "vi", "su1", "vi"), _pair("map({}, {})", "vs", "sud"),
            _pair("map_values(map({}, {}))", "vi", "su2"),
            _pair("CAST(named_struct('a', {}, 'b', {}) AS STRUCT<x: BIGINT, y: STRING>)", "vi", "vs"),
            _pair("CAST(coalesce({}, {}) AS STRUCT<p: BIGINT, q: STRING>)", "su1", "su2"),
            _pair("CAST(coalesce({}, {}) AS STRUCT<p: BIGINT>)", "su1", "su2")]  # Spark refuses: field counts
    for m in ("mi", "ms", "mdk"):
        out.append(_pair("map_entries(coalesce({}, {}))", m, m))
        out.append(_pair("map_from_entries(map_entries(coalesce({}, {})))", m, m))
    out += [_pair("map_from_entries(array(named_struct('k', {}, 'v', {}), named_struct('k', {}, 'v', {})))",
                  "vi", "vs", "vi", "vs"),
            _pair("map_from_entries(coalesce({}, {}))", "aus", "aus"),
            _pair("map_from_entries(array(named_struct('k', {}, 'v', {}, 'w', 1)))", "vi", "vs"),  # Spark refuses
            _pair("map_entries(map({}, {}, {}, {}))", "vs", "vi", "vs", "vi")]
    for x, y in (("ai", "as1"), ("ai", "ai2"), ("ad", "adt"), ("ax", "ab")):
        out.append(_pair("arrays_zip({}, {})", x, y))
    out += [_pair("arrays_zip({}, array({}, {}))", "ai", "vi", "vi"), _pair("arrays_zip({}, {}, {})", "ai", "as1", "ai2"),
            _pair("arrays_zip({}, {})", "ai", "ai"),  # refused: two fields named ai
            _pair("element_at(arrays_zip({}, {}), 1).as1", "ai", "as1")]
    # to_json of structs (json_functions): an object, NULL fields left out; DOUBLE fields refused
    out += [_pair("to_json(named_struct('a', {}, 'b', {}))", "vi", "vs"),
            _pair("to_json(named_struct('a', {}, 'b', {}))", "vx", "vdt"),
            _pair("to_json(named_struct('a', {}, 'b', {}))", "vts", "vb"),
            _pair("to_json(named_struct('a', {}, 'b', {}))", "vl", "vts"),
            _pair("to_json(coalesce({}, {}))", "su1", "su2"), _pair("to_json(coalesce({}, {}))", "aus", "aus"),
            _pair("to_json(map({}, {}))", "vi", "su1"),
            _pair("to_json(named_struct('a', {}, 'b', named_struct('c', {})))", "vi", "vs"),
            _pair('to_json(named_struct(\'a b"\', {}, \'é\\tx\', {}))', "vi", "vs"),  # escaped names
            _pair("to_json(named_struct('a', {}, 'n', NULL))", "vi"),
            _pair("to_json(named_struct('a', {}, 'b', {}))", "vd", "vi")]  # refused: a DOUBLE field
    return out
# -- structs between rows (end) ------------------------------------------------------------------
# -- Java's Double.toString and Float.toString between rows (begin) ------------------------------
# one value a row, coalesce(A.jd1, B.jd2) and coalesce(A.jf1, B.jf2) (jd2 and jf2 NULL): values
# whose digits differ between Java 17 (FloatingDecimal) and Java 19+ (the shortest decimal):
# integers past 2^56 (2^60 prints 18 digits on Java 17), 1e23 and 2e23 (a bound exactly at the
# margin), powers of two (a quarter-ulp margin), subnormals (2 * Double.MIN_VALUE: 1.0E-323 on
# Java 17, 9.9E-324 on Java 19+), round's documented example (-3.705988134436395E17 at -3), the
# E-notation thresholds 1e-3 and 1e7 and their neighbours, FLOATs whose 64-bit generation
# overflows on Java 17 (6.9593824E25), NaN, the infinities, -0.0
PAIRED.update({"jd1": "DOUBLE", "jd2": "DOUBLE", "jf1": "FLOAT", "jf2": "FLOAT"})
_JAVA_DOUBLES = [
    "1.0E23", "2.0E23", "1152921504606846976", "2.82879384806159E17", "5.684341886080802E-14",
    "1.9400994884341945E25", "4.8726570057E288", "4.9E-324", "9.9E-324", "1.6E-322", "0.0039062499999999987",
    "-3.705988134436395E17", "0.001", "9.999999999999998E-4", "9999999.999999998", "1.0E7", "-0.0", "NaN",
    "-Infinity", "9.223372036854776E18", "4.611686018427388E18", "2.739761686260504E-194",
    "-7.512889411776185E18", "2.1811806088432458E18", "0.1", "8.41E21", "1.7976931348623157E308",
    "2.2250738585072014E-308", "100.0", "1.0E-5", "12345.678", None,
]
_JAVA_FLOATS = [
    "1.1754944E-38", "1.4E-45", "9.9E-44", "9.999998E7", "1.0E11", "6.9593824E25", "9.671407E24",
    "0.036902655", "4.4408937E-16", "3.4028235E38", "1.0000001E8", "1.0000001E9", "1.0000001E12",
    "-4.8338185E25", "1.0E10", "0.1", "1.1", "16777216", "0.001", "9.999999E-4", "1.0E7", "9999999.0",
    "1.0E-5", "33554432", "-0.0", "NaN", "Infinity", "2.8E-45", "100.0", "1.0E-3", "123.456", None,
]
assert len(_JAVA_DOUBLES) == len(_JAVA_FLOATS) == ROWS
_PAIRED_EDGES.update({"jd1": _JAVA_DOUBLES, "jd2": [None], "jf1": _JAVA_FLOATS, "jf2": [None]})
# JSON numbers Jackson reads as DOUBLEs and writes with Double.toString, (A.jn1 || B.jn2)
PAIRED.update({"jn1": "STRING", "jn2": "STRING"})
_JSON_NUMBERS = ["1e23", "2e23", "1152921504606846976.0", "4.9e-324", "1e-7", "2.1e22", "9007199254740993.5",
                 "1E7", "0.001", "2.82879384806159E17", "5.684341886080802e-14", "1e-323", "0.00099999999999999998",
                 "-4.8726570057E288", "1e400", "-0.0", "3.0e0"]
_PAIRED_EDGES.update({"jn1": ['{"a":' + n + ',"b":[' + n + ',1.5]' for n in _JSON_NUMBERS], "jn2": ["}"]})


def _java_double_text_expressions() -> list[tuple[str, str]]:
    """CAST of a DOUBLE or FLOAT to STRING and the functions that cast one implicitly (Spark's
    ``Double.toString`` / ``Float.toString``), round / bround / floor(x, d) (``BigDecimal(
    Double.toString(x))``), to_json, format_string's %s, get_json_object's numbers."""
    out = []
    for x, y in (("jd1", "jd2"), ("jf1", "jf2")):
        value = "coalesce({}, {})"
        for template in ("CAST(" + value + " AS STRING)", "TRY_CAST(" + value + " AS STRING)",
                         "concat(" + value + ", '|')", "(" + value + " || '')", "length(" + value + ")",
                         "upper(" + value + ")", "lower(" + value + ")", "(" + value + " LIKE '%E%')",
                         "substring(" + value + ", 2, 4)", "instr(" + value + ", 'E')", "reverse(" + value + ")",
                         "replace(" + value + ", '.', ',')", "concat_ws('/', " + value + ", 'a')",
                         "lpad(" + value + ", 24, '*')", "left(" + value + ", 3)", "initcap(" + value + ")",
                         "ascii(" + value + ")", "startswith(" + value + ", '1')", "contains(" + value + ", 'E')",
                         "trim(" + value + ")", "split_part(" + value + ", 'E', 2)", "md5(" + value + ")",
                         "(" + value + " IN ('1.0E23', '9.999999999999999E22', 'NaN'))",
                         "coalesce(" + value + ", 'none')", "format_string('%s', " + value + ")",
                         "format_string('[%12.5S]', " + value + ")", "to_json(array(" + value + "))",
                         "to_json(map('k', " + value + "))", "to_json(map(" + value + ", 1))",
                         "array_join(array(" + value + ", 0.5D), ';')", "sha1(" + value + ")"):
            out.append(_pair(template, x, y))
        for digits in (-3, -2, 0, 1, 2, 5, 16):
            out.append(_pair("round(" + value + ", " + str(digits) + ")", x, y))
            out.append(_pair("bround(" + value + ", " + str(digits) + ")", x, y))
        out.append(_pair("floor(" + value + ", 3)", x, y))
        out.append(_pair("ceil(" + value + ", -2)", x, y))
    for x, y in (("d1", "d2"), ("f1", "f1"), ("d1", "f1")):
        out.append(_pair("CAST(({} * {}) AS STRING)", x, y))
        out.append(_pair("CAST(({} / {}) AS STRING)", x, y))
        out.append(_pair("concat({}, {})", x, y))
    out.append(_pair("CAST(({} + {}) AS STRING)", "f1", "f1"))
    out.append(_pair("get_json_object(({} || {}), '$.a')", "jn1", "jn2"))
    out.append(_pair("get_json_object(({} || {}), '$.b[*]')", "jn1", "jn2"))
    return out
# -- Java's Double.toString and Float.toString between rows (end) --------------------------------
# -- split, regexp_extract_all, STRING and BINARY conversions, soundex, luhn_check, quote,
# factorial, rint, positive between rows (begin) ----------------------------------------------
# split, one case a row: (A.sp1 || B.sp2, A.spp, B.spl), the pattern as SQL text (each
# backslash doubled): limits positive, 0 (trailing empty strings kept, as Spark reads 0 as -1),
# 1 and negative; the empty pattern (UTF8String.split's own case: characters, no trailing empty
# piece); an empty match at the start (no empty leading piece); matches at the start and end;
# a lookahead; a pattern Java rejects; NULLs
PAIRED.update({"sp1": "STRING", "sp2": "STRING", "spp": "STRING", "spl": "INT"})
_SPLIT_CASES = [
    ("oneAtwoB", "threeC", "[ABC]", -1), ("oneAtwoB", "threeC", "[ABC]", 2), ("oneAtwoB", "threeC", "[ABC]", 0),
    ("oneAtwoB", "threeC", "[ABC]", 1), ("a,b,", ",", ",", 0), ("abc", "", "", 2), ("abc", "", "", 0),
    ("ab", "c", "", 5), ("", "", "", -1), ("", "", "x", 1), ("aXb", "X", "X", -1), ("Xa", "Xb", "X", 3),
    ("abc", "", "x*", -1), ("abc", "", "x*", 2), ("a😀b", "", "", 2), ("a😀b", "", "😀", -1),
    ("a.b", ".c", "\\\\.", -1), ("a1b22c", "333", "\\\\d+", -1), ("a1b22c", "333", "\\\\d+", 2), ("aaa", "", "a", -1),
    ("aaa", "", "a", 0), ("abab", "", "(?=b)", -1), ("abc", "", "b|", -1), ("a  b", " c", "\\\\s+", -1),
    ("x", "y", "[", -1), (None, "a", ",", -1), ("a,b", "", None, -1), ("a,b", "", ",", None),
    ("é,ü", ",ß", ",", -1), ("a", "", "a", -1), ("abc", "", "^", -1), ("ab", "", "$", -1),
]
_PAIRED_EDGES.update({name: [c[k] for c in _SPLIT_CASES] for k, name in enumerate(("sp1", "sp2", "spp", "spl"))})

# base64 text, one case a row, (A.b64a || B.b64b): padded, unpadded, white space (tab, newline,
# an em space Java counts as white space, a no-break space it does not), characters outside the
# alphabet (the MIME decoder skips them, isValidBase64 refuses them), a lone last character,
# '=' too early, too many or after the wrong number of characters, characters after the padding
# (Java's position counts UTF-16 units: after 'é' and '😀'), NULL
PAIRED.update({"b64a": "STRING", "b64b": "STRING"})
_BASE64_CASES = [
    ("U3Bh", "cms="), ("U3Bhcms", ""), ("U3B ", "hcms"), ("U3Bhcms=", "="), ("!!!", ""), ("U3Bh", "cm"), ("U3Bh", "c"),
    ("U", ""), ("", ""), ("U3Bh\n", "cms="), ("U3Bhcms=", "x"), ("==", "=="), ("U3Bhcms=", "U3Bh"), ("U3Bh", "-_"),
    ("U3Bh", "+/=="), ("U3B=", "hcms"), ("U3Bhcm", "="), ("éU3Bhcms=", "x"), ("😀U3Bhcms=", "x"), ("U3Bh\t", "cms"),
    ("U3Bh\u00a0", "cms"), ("U3Bh\u2003", "cms"), ("U3Bhcms", "=x"), ("U3Bhcm==", "  "), ("U3Bhcm=", "\n="),
    ("U3Bhc", "m=="), ("YWJj", "ZA=="), ("YWJjZA", "="), ("/+/+", ""), (None, "x"), ("U3Bh", "cms==="),
    ("U3Bhcm=", "=x"),
]
_PAIRED_EDGES.update({"b64a": [c[0] for c in _BASE64_CASES], "b64b": [c[1] for c in _BASE64_CASES]})

# encode and decode, one case a row: (A.ch1 || B.ch2) encoded, unhex(A.hx1 || B.hx2) decoded,
# both with A.cs: every charset Spark allows, in other cases, names Java knows but Spark refuses,
# characters a charset cannot hold, byte-order marks (UTF-16 and UTF-32 read and drop one;
# UTF-8, UTF-16BE and UTF-16LE keep it as U+FEFF), malformed bytes (truncated, overlong,
# surrogates, past U+10FFFF, an odd UTF-16 length, a lone surrogate), NULLs
PAIRED.update({"ch1": "STRING", "ch2": "STRING", "chs": "STRING", "hx1": "STRING", "hx2": "STRING"})
_CHARSET_CASES = [
    ("abc", "", "utf-8", "C3", "28"), ("é", "😀", "UTF-16", "FEFF", "0041"), ("é", "😀", "utf-16be", "D83D", ""),
    ("é", "😀", "utf-16le", "41", "00"), ("é", "", "us-ascii", "FF", ""), ("é", "", "iso-8859-1", "80", ""),
    ("é", "😀", "utf-32", "0000FEFF", "00000041"), ("a", "", "utf8", "41", ""), ("a", "", "latin1", "41", ""),
    ("a", "", "bogus", "41", ""), ("é", "", "windows-1252", "41", ""), ("a", "b", "US-ASCII", "4142", ""),
    ("", "", "utf-16", "", ""), ("ab", "", "utf-16", "FFFE", "4100"), ("x", "", "utf-16", "00", ""),
    ("x", "", "utf-32", "FFFE0000", "41000000"), ("x", "", "utf-32", "0000D800", ""), ("x", "", "utf-32", "00110000", ""),
    ("x", "", "utf-8", "EDA080", ""), ("x", "", "utf-8", "F4908080", ""), ("x", "", "utf-8", "E282", ""),
    ("x", "", "utf-8", "C0AF", ""), ("x", "", "utf-16be", "DC00", "0041"), ("x", "", "utf-16le", "3DD8", "00DE"),
    (None, "", "utf-8", "41", ""), ("x", "", None, "41", ""), ("x", "", "UTF-8", "EFBBBF41", ""),
    ("x", "", "utf-16be", "FEFF0041", ""), ("😀", "", "us-ascii", "7F", ""), ("ÿ", "Ā", "iso-8859-1", "FF", ""),
    ("a\u0000", "", "utf-16", "0041D800", ""), ("x", "", "utf-32", "000041", ""),
]
_PAIRED_EDGES.update({name: [c[k] for c in _CHARSET_CASES]
                      for k, name in enumerate(("ch1", "ch2", "chs", "hx1", "hx2"))})

# soundex, luhn_check and quote, one case a row, (A.tx1 || B.tx2): Soundex's rules (H and W
# between equal codes, vowels separating them, a first byte that is no ASCII letter, a letter
# after a non-ASCII one), Luhn numbers (valid, invalid, other scripts' digits, signs, spaces),
# quotes (SQL text: \u0027) and backslashes (SQL text: each backslash doubled), NULL
PAIRED.update({"tx1": "STRING", "tx2": "STRING"})
_TEXT_CASES = [
    ("Mil", "ler"), ("", ""), ("1a", "bc"), ("Ash", "craft"), ("Tym", "czak"), ("Pfis", "ter"), ("é", "a"), ("a", ""),
    ("ll", "oyd"), ("Ab-", "c"), ("H", "W"), (" a", "bc"), ("7992739", "8713"), ("8112", "189876"), ("0", ""),
    ("٠", ""), ("0٠", "0"), ("Don\\u0027", "t"), ("a\\\\", "b"), ("\\u0027", "\\u0027"), ("4111111111", "111111"),
    ("12", "34"),
    ("-1", "8"), ("1 ", "8"), ("Rob", "ert"), ("Bxéb", "b"), ("Gutier", "rez"), ("Jack", "son"), ("bbbb", "bbb"),
    ("Hon", "eyman"), ("ß", "x"), (None, "x"),
]
_PAIRED_EDGES.update({"tx1": [c[0] for c in _TEXT_CASES], "tx2": [c[1] for c in _TEXT_CASES]})


# base32 text, one case a row, (A.b32a || B.b32b): Apache Commons Codec's lenient decoder (both
# cases, bytes outside the alphabet skipped, the first '=' ends the data, every length of a last
# group, one lone character), NULL
PAIRED.update({"b32a": "STRING", "b32b": "STRING"})
_BASE32_CASES = [
    ("MZXW6YTB", "OI======"), ("mzxw6", "ytboi"), ("MZ", "="), ("M", ""), ("MZX", ""), ("MZXW", ""), ("MZXW6", ""),
    ("MZXW6Y", ""), ("MZXW6YT", ""), ("MZ=", "XW6"), ("1089!", "é"), ("", ""), (None, "x"), ("MZXW6YTB OI", ""),
    ("MZXW6YTBOI=", "=x"), ("7777777", "7"), ("A", "A"), ("ABCDEFGH", "IJKLMNOP"), ("QRSTUVWX", "YZ234567"),
    ("mZxW6yTb", "Oi"), ("MZXW6YTB\n", "OI"), ("ZZZZZZZZ", "Z"),
]
_PAIRED_EDGES.update({"b32a": [c[0] for c in _BASE32_CASES], "b32b": [c[1] for c in _BASE32_CASES]})


def _text_and_binary_expressions() -> list[tuple[str, str]]:
    out = [_pair("split(({} || {}), {}, {})", "sp1", "sp2", "spp", "spl"),
           _pair("split(({} || {}), {})", "sp1", "sp2", "spp"),
           _pair("split(concat({}, {}), ',')", "s1", "s2"),
           _pair("split(concat({}, {}), '', 3)", "s1", "s2"),
           _pair("split(({} || {}), {}, 2)", "sp1", "sp2", "spp"),
           _pair("size(split(({} || {}), {}, -1))", "sp1", "sp2", "spp")]
    subject = "concat({}, {})"
    for template, columns in (("regexp_extract_all(" + subject + ", {}, {})", ("rx1", "rx2", "rxp", "rxi")),
                              ("regexp_extract_all(" + subject + ", {})", ("rx1", "rx2", "rxp")),
                              ("regexp_extract_all(" + subject + ", {}, 0)", ("rx1", "rx2", "rxp"))):
        out.append(_pair(template, *columns))
    out.append(_pair("regexp_extract_all(concat({}, {}), '(\\\\d+)-(\\\\d+)', 2)", "s1", "s2"))
    out.append(_pair("regexp_extract_all(concat({}, {}), '([a-c])([a-c])?', 2)", "rx1", "rx2"))
    for call in ("hex(unbase64(({} || {})))", "hex(to_binary(({} || {}), 'base64'))",
                 "hex(try_to_binary(({} || {}), 'BASE64'))", "base64(unbase64(({} || {})))",
                 "base64(({} || {}))"):
        out.append(_pair(call, "b64a", "b64b"))
    for call in ("base64(concat({}, {}))", "base64(concat({}, {}, repeat('a', 60)))",
                 "base64(concat({}, {}, repeat('xy', 150)))", "hex(to_binary(concat({}, {}), 'utf-8'))",
                 "hex(to_binary(concat({}, {}), 'utf8'))", "hex(try_to_binary(concat({}, {})))",
                 "hex(to_binary(concat({}, {})))", "hex(to_binary(concat({}, {}), 'Hex'))",
                 "(try_to_binary(concat({}, {}), 'bogus') IS NULL)", "hex(to_binary(concat({}, {}), NULL))",
                 "base64(unhex(concat({}, {})))", "decode(unhex(concat({}, {})), 'utf-8')",
                 "hex(encode(concat({}, {}), 'utf-16'))", "hex(encode(concat({}, {}), 'UTF-32'))",
                 "decode(encode(concat({}, {}), 'utf-16le'), 'utf-16le')", "hex(encode(concat({}, {}), 'us-ascii'))",
                 "decode(concat({}, {}), 'utf-8')", "soundex(concat({}, {}))", "luhn_check(concat({}, {}))",
                 "quote(concat({}, {}))", "hex(unbase64(concat({}, {})))"):
        out.append(_pair(call, "s1", "s2"))
    out.append(_pair("hex(encode(({} || {}), {}))", "ch1", "ch2", "chs"))
    out.append(_pair("decode(unhex(({} || {})), {})", "hx1", "hx2", "chs"))
    out.append(_pair("decode(encode(({} || {}), {}), {})", "ch1", "ch2", "chs", "chs"))
    out.append(_pair("hex(encode(({} || {}), 'utf-8'))", "ch1", "ch2"))
    out.append(_pair("hex(encode(({} + {}), 'utf-8'))", "i1", "i2"))
    for function in ("soundex", "luhn_check", "quote"):
        out.append(_pair(function + "(({} || {}))", "tx1", "tx2"))
    out.append(_pair("hex(from_base32(({} || {})))", "b32a", "b32b"))
    out.append(_pair("to_base32(from_base32(({} || {})))", "b32a", "b32b"))
    out.append(_pair("to_base32(concat({}, {}))", "s1", "s2"))
    out.append(_pair("to_base32(({} || {}))", "b64a", "b64b"))
    out.append(_pair("hex(from_base32(concat({}, {})))", "s1", "s2"))
    out.append(_pair("from_base32(to_base32(concat({}, {}))) = CAST(concat({}, {}) AS BINARY)", "s1", "s2", "s1", "s2"))
    for call in ("mask(({} || {}))", "mask(({} || {}), 'Q', NULL, '#', '*')", "mask(({} || {}), '😀', 'q', 'd', 'o')",
                 "mask(({} || {}), NULL, NULL, NULL, NULL)"):
        out.append(_pair(call, "tx1", "tx2"))
        out.append(_pair(call, "s1", "s2"))
    out.append(_pair("mask(concat({}, {}, 'ǅǈ٣ⅷ'))", "ch1", "ch2"))
    out.append(_pair("luhn_check(({} + {}))", "i1", "i2"))
    out.append(_pair("quote(({} + {}))", "i1", "i2"))
    out.append(_pair("hex(unbase64(({} + {})))", "i1", "i2"))
    out.append(_pair("hex(to_binary(({} + {})))", "i1", "i2"))
    out.append(_pair("soundex(({} + {}))", "i1", "i2"))
    for x, y in (("t1", "t1"), ("h1", "t1"), ("i1", "i2")):
        out.append(_pair("factorial(({} % 23) + ({} % 3))", x, y))
    out.append(_pair("factorial(({} + {}))", "l1", "l2"))  # a BIGINT: refused
    for x, y in (("d1", "d2"), ("f1", "d2"), ("m1", "n1"), ("i1", "i2"), ("q1", "q2"), ("l1", "l2")):
        out.append(_pair("rint(({} * {}))", x, y))
        out.append(_pair("positive(({} - {}))", x, y))
    out.append(_pair("rint((({} + {}) / 4))", "i1", "i2"))
    out.append(_pair("rint((({} + {}) / 2))", "d1", "d2"))
    out.append(_pair("array(rint(({} * {})), rint((({} + {}) / 4)))", "d1", "d2", "i1", "i2"))  # an array keeps -0.0
    out.append(_pair("positive(({} - {}))", "ts1", "ts2"))
    out.append(_pair("positive(concat({}, {}))", "s1", "s2"))  # Spark casts to DOUBLE: refused
    # hash and xxhash64 of arrays: the elements in order, a NULL one skipped
    for function in ("hash", "xxhash64"):
        for template, columns in (("array({}, {})", ("i1", "i2")), ("array({}, {}, NULL)", ("s1", "s2")),
                                  ("array({}, {})", ("d1", "f1")), ("array({}, {})", ("m1", "n1")),
                                  ("array({}, {})", ("dt1", "ts2")), ("array({}, NULL, {})", ("l1", "l2")),
                                  ("array({}, {}), {}", ("b1", "b2", "t1")), ("array({}, {})", ("q1", "z1"))):
            out.append(_pair(function + "(" + template + ")", *columns))
    out.append(_pair("hash(split(({} || {}), {}))", "sp1", "sp2", "spp"))
    return out
# -- split, regexp_extract_all, STRING and BINARY conversions, ... (end) ------------------------
# -- the rest of the datetime functions between rows (begin) --------------------------------------
# timestamp_seconds / _millis / _micros of numbers (PAIRED, one designed case a row): DOUBLE and
# FLOAT fractions, NaN and the infinities (NULL), the first and last instants Python holds and one
# past them, BIGINT products past 2^63 (DATETIME_OVERFLOW), DECIMAL digits below the microsecond
# (Java's 'Rounding necessary'); make_dt_interval's fields at the edge of a BIGINT of
# microseconds, one of them where only a partial sum overflows (the order Spark adds them in);
# zones as Spark's getZoneId reads them (short ids, offsets, prefixes, case, blanks, invalid ones)
# for from_utc_timestamp / to_utc_timestamp / convert_timezone, TIMESTAMPs and TIMESTAMP_NTZs in
# daylight-saving gaps and overlaps and at the ends of Python's range
PAIRED.update({"dsd": "STRING", "dst": "STRING", "dcs": "DOUBLE", "dcf": "FLOAT", "dcn": "DECIMAL(20,7)",
               "dcl": "BIGINT", "dmd": "INT", "dmh": "INT", "dmm": "INT", "dms": "DECIMAL(18,6)", "dmb": "BIGINT",
               "dcz": "STRING", "dct": "TIMESTAMP", "dcu": "TIMESTAMP_NTZ"})
_PAIRED_EDGES.update({
    # strings cast to DATE and TIMESTAMP by Spark's analysis: the shapes of the string casts' sd,
    # st1, st2 whose values Python's datetime holds (a year outside 0001..9999 is sparkcep's
    # DATETIME_OUT_OF_PYTHON_RANGE where Spark answers a field of it: checked by
    # test_datetime_constructors.py, not here)
    "dsd": ["2024", "2024-3", "2024-03-05", " 2024-3-5T junk", "2024-02-30", "+2024-01-01", "2024-1-1 ", "2024 ",
            "2024-01 x", "2024-02-29", "2023-02-29", "2024-13-01", "2024-01-00", "2024-01-5T10:00",
            "2024-01-05 25:99:99", "\t2024-06-30\n", "\x7f2024-06-30\x01", "\u00a02024-06-30", "2024-01-01Z",
            "2024/01/01", "T2024-01-01", "", "0001-01-02", "9999-12-31", None, "2024-12-30", "2021-01-03",
            "2024-03-31 02:30", "2024-10-27 02:30:00", "2024-06-30 10:00:00 Europe/Paris", "abc", "2020-12-31"],
    "dst": ["2024-03-31 02:30", "2024-10-27 02:30:00", "2024-01-01T10:00:00Z", "2024-01-01 10:00:00 UTC+1",
            "2024-01-01 10:00:00.1234567+01:00", "2024-01-01 10:00:00 Europe/Paris", "2024-01-01 10:00:00PST",
            "2024-01-01 10:00:00 Foo/Bar", "2024-01-01 7", "2024-01-01T", "2024-01-01 10:00:00+18:00",
            "2024-06-30 23:59:59.999999-05:30", "2024-06-30 24:00:00", "2024-06-30 1:2:3",
            "2024-06-30T10:00:00 GMT-08", "2024-06-30 10:00:00 europe/berlin", "2024-06-30 10:00:00 Z",
            "1893-03-31 23:59:59", "2024-06-30 10:00:00 EST", "2024-06-30 10:00:00+0130",
            "2024-06-30 10:00:00 US/Pacific", "2024-06-30T10:00:00.5", "2024-6-3 4:5:6",
            "2024-06-30 10:00:00  Europe/Berlin  ", "2024-06-30 10:00:00 Europe/Berlin x", "9999-12-31 21:59:59.999999",
            "2024-12-30 12:00", "2021-01-03 23:59", None, "2024-06-30T10:00:00+01:00[Europe/Paris]",
            "\x7f2024-06-30 10:00:00\x01", "0001-01-01 12:00:00+01:00"],
    "dcs": ["-1.5", "1.23456789", "NaN", "Infinity", "-Infinity", "1e20", "-62135596800.0", "253402300799.999999",
            "0.0", "-0.0", "1e-7", "2147483647.5", "-62135596800.000001", "253402300800.0", "0.9999995"],
    "dcf": ["1.0000001", "0.1", "NaN", "-1.5", "Infinity", "16777217", "-0.0"],
    "dcn": ["1.0000001", "1.5", "-1.5000000", "9223372036855", "-62135596800", "253402300799.9999990", "0",
            "0.0000010", "-9223372036854.7758080", "9223372036854.7758070", "-0.0000001", "-62135596800.0000010"],
    "dcl": ["9223372036855", "-9223372036855", "0", "1230219000123", "-62135596800", "253402300800",
            "9223372036854775807", "-9223372036854775808", "253402300799", "-1", "9223372036854776",
            "-62135596800000"],
    "dmd": ["106751991", "106751991", "106751992", "-106751991", "106751991", "2147483647", "-1", "0", "1", None,
            "-106751991"],
    "dmh": ["4", "4", "0", "-4", "-2147483647", "0", "25", "-2147483648", "2", "1", "-5"],
    "dmm": ["0", "0", "0", "0", "0", "0", "61", "0", "3", "1", "0"],
    "dms": ["54.775807", "54.775808", "0", "-54.775808", "999999999999.999999", "0", "61.5", "0", "4.5", "1",
            "-54.775809"],
    "dmb": ["2147483648", "-2147483649", "1", "9223372036854775807"],
    "dcz": ["Asia/Seoul", "+05:30", "PST", "bad", "", "GMT+1", "UTC+01:30", "europe/berlin", " Asia/Seoul",
            "Europe/Berlin", "Z", "+1:00", "America/New_York", "EST", "UT", "Etc/GMT+5", "+18:00", "-18:01", "GMT0",
            "ROC", "Asia/Seoul ", "UTC", "+0530", "America/Coyhaique", "GMT+01:00:30", "-05", "CET", "US/Pacific"],
    "dct": [_dt(2024, 3, 31, 3, 30), _dt(2024, 10, 27, 2, 30), _dt(2024, 1, 1, 10, 0), _dt(1, 1, 1, 1, 0),
            _dt(9999, 12, 31, 23, 0), _dt(2024, 3, 10, 8, 30), _dt(1893, 3, 31, 23, 59, 59), _dt(2024, 11, 3, 7, 30)],
    "dcu": [_dt(2021, 12, 6, 0, 0), _dt(2024, 3, 31, 2, 30), _dt(2024, 10, 27, 2, 30), _dt(1, 1, 1, 0, 0),
            _dt(9999, 12, 31, 23, 59, 59, 999999), _dt(2024, 3, 10, 2, 30), _dt(2024, 11, 3, 1, 30)],
})


# STRINGs where Spark takes a DATE or a TIMESTAMP: Spark's analysis casts them (CAST(x AS DATE) for
# the fields of the date, last_day, next_day, add_months, date_add / date_sub, datediff and trunc;
# CAST(x AS TIMESTAMP) for the fields of the time of day, months_between, date_trunc and
# date_format), over designed strings (dsd dates, dst timestamps: junk after a day, zones, the
# gap and the overlap in Berlin)
def _datetime_rest_expressions() -> list[tuple[str, str]]:
    out = []
    one = "coalesce({}, {})"
    for function in ("year", "quarter", "month", "day", "dayofmonth", "dayofweek", "weekday", "dayofyear",
                     "weekofyear", "last_day"):
        for column in ("dsd", "dst"):
            out.append(_pair(f"{function}({one})", column, column))
    for function in ("hour", "minute", "second"):
        for column in ("dsd", "dst"):
            out.append(_pair(f"{function}({one})", column, column))
    for field in ("YEAR", "YEAROFWEEK", "DOW", "dow_iso", "DOY", "HOUR", "SECOND"):
        out.append(_pair(f"date_part('{field}', {one})", "dst", "dst"))
    out.append(_pair(f"extract(MONTH FROM {one})", "dsd", "dsd"))
    for function in ("date_add", "date_sub", "dateadd", "add_months"):
        out.append(_pair(function + "({}, {})", "dsd", "dn"))
    out.append(_pair("add_months({}, {})", "dst", "t1"))
    out.append(_pair("next_day({}, {})", "dsd", "wd"))
    out.append(_pair("next_day({}, {})", "dst", "wd"))
    for function, x, y in (("datediff", "dsd", "dst"), ("date_diff", "dst", "dsd"), ("datediff", "dt1", "dsd"),
                           ("datediff", "dsd", "ts1"), ("datediff", "tn1", "dst"), ("datediff", "ts1", "tn1")):
        out.append(_pair(function + "({}, {})", x, y))
    for x, y in (("dst", "dst"), ("dsd", "dt1"), ("ts1", "dst")):
        out.append(_pair("months_between({}, {})", x, y))
    out.append(_pair("months_between({}, {}, false)", "dst", "dsd"))
    out.append(_pair(f"trunc({one}, {{}})", "dsd", "dsd", "fu"))
    out.append(_pair(f"trunc({one}, 'WEEK')", "dst", "dst"))
    for unit in ("HOUR", "DAY", "MONTH", "MINUTE"):
        out.append(_pair(f"date_trunc('{unit}', {one})", "dst", "dst"))
    out.append(_pair(f"date_trunc('QUARTER', {one})", "dst", "dst"))
    for column in ("dsd", "dst"):
        out.append(_pair(f"date_format({one}, 'yyyy-MM-dd HH:mm:ss.SSSSSS XXX')", column, column))
    # dayname, monthname; to_timestamp_ltz and try_to_date without a pattern (Spark's casts)
    for function in ("dayname", "monthname"):
        for column in ("fd", "dsd"):
            out.append(_pair(f"{function}({one})", column, column))
        out.append(_pair(f"{function}(({{}} + {{}}))", "fz", "fy"))
        out.append(_pair(f"{function}(({{}} + {{}}))", "fn", "fy"))
    for column in ("dst", "dsd"):
        out.append(_pair(f"to_timestamp_ltz({one})", column, column))
        out.append(_pair(f"try_to_date({one})", column, column))
    # from numbers and zones
    for column in ("dcs", "dcf", "dcn", "dcl", "i1", "t1", "h1", "m1"):
        out.append(_pair(f"timestamp_seconds({one})", column, column))
    for column in ("dcl", "i1", "t1"):
        out.append(_pair(f"timestamp_millis({one})", column, column))
        out.append(_pair(f"timestamp_micros({one})", column, column))
    out.append(_pair("make_dt_interval({}, {}, {}, {})", "dmd", "dmh", "dmm", "dms"))
    out.append(_pair("make_dt_interval({}, {})", "dmd", "dmh"))
    out.append(_pair("make_dt_interval({}, {}, {}, {})", "dmb", "t1", "h1", "n1"))
    out.append(_pair("make_dt_interval({}, 0, {}, {})", "t1", "dmm", "s1"))
    out.append(_pair("(make_dt_interval({}, {}, {}, {}) + {})", "dmd", "dmh", "dmm", "dms", "j1"))
    for function in ("from_utc_timestamp", "to_utc_timestamp"):
        out.append(_pair(f"{function}({{}}, {{}})", "dct", "dcz"))
        out.append(_pair(f"{function}({{}}, {{}})", "ts1", "dcz"))
        out.append(_pair(f"{function}({one}, 'America/New_York')", "dct", "dct"))
        out.append(_pair(f"{function}({one}, 'Asia/Kolkata')", "dst", "dst"))
        out.append(_pair(f"{function}({{}}, {{}})", "dt1", "dcz"))
        out.append(_pair(f"{function}({{}}, {{}})", "tn1", "dcz"))
    out.append(_pair("convert_timezone({}, 'Europe/Berlin', {})", "dcz", "dcu"))
    out.append(_pair("convert_timezone('America/New_York', {}, {})", "dcz", "dcu"))
    out.append(_pair("convert_timezone({}, {})", "dcz", "dcu"))
    out.append(_pair("convert_timezone({}, {})", "dcz", "tn1"))
    out.append(_pair(f"convert_timezone('Europe/Berlin', 'UTC', {one})", "dcu", "dcu"))
    out.append(_pair(f"convert_timezone('UTC', 'Europe/Berlin', {one})", "dst", "dst"))
    out.append(_pair("convert_timezone({}, 'Asia/Seoul', {})", "dcz", "dt1"))
    # found by the random differential (seed 20261128): Spark knows these are never NULL and
    # folds IS [NOT] NULL without formatting (a format missing an argument raises nothing)
    out.append(_pair("(CAST((md5(printf('%s %s %s', {}, {})) < '8') AS STRING) IS NULL)", "m1", "t1"))
    out.append(_pair("((md5(format_string('%d %x %o %X', {}, {})) = {}) IS NOT NULL)", "z1", "m2", "s1"))
    return out
# -- the rest of the datetime functions between rows (end) ----------------------------------------
