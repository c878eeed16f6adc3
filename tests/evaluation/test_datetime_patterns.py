"""Spark's datetime patterns between rows (``sparkcep.evaluation.datetime_patterns``), without
Spark: against Spark's recorded answers (``datetime_pattern_answers.json``, written by
``record_datetime_patterns.py``: every letter 1 to 6 times, the patterns Spark refuses with their
error classes, formatting and parsing at the edges of six session time zones), and the refusals
sparkcep adds (a pattern that is not a literal, zone names, forms not reproduced), each at its
place in the statement. ``corpus.py`` checks the same functions through the whole evaluator,
ANSI on and off, against ``spark_answers.json``."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.errors import AnalysisError, MatchRuntimeError
from sparkcep.evaluation import datetime_patterns as dp
from sparkcep.evaluation.binding import Semantics, bind
from tests.evaluation.harness import lower

RECORDED = json.loads(Path(__file__).with_name("datetime_pattern_answers.json").read_text(encoding="utf-8"))
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
_MIN_MICROS, _MAX_MICROS = -62135596800000000, 253402300799999999


def _compiled(pattern: str, parsing: bool):
    try:
        return dp.compile_pattern(pattern, parsing)
    except dp.PatternError as error:
        return ["error", f"{error.code}.{error.subclass}"]
    except dp.UnsupportedPattern:
        return None


def _format(zone: str, micros: int, pattern: str):
    compiled = _compiled(pattern, False)
    if not isinstance(compiled, dp.CompiledPattern):
        return compiled
    try:
        instant = _EPOCH + dt.timedelta(microseconds=micros)
        return ["value", dp.formatter(pattern, zone)(instant)]
    except (OverflowError, MatchRuntimeError):  # Python holds no such instant or local date-time
        return "out of range"


def _ntz_string(value: dt.datetime) -> str:
    text = value.isoformat(sep=" ")
    return text.rstrip("0") if "." in text else text


def _parse(zone: str, function: str, text: str, pattern: str):
    compiled = _compiled(pattern, True)
    if not isinstance(compiled, dp.CompiledPattern):
        return compiled
    name = "unix_timestamp_of_string" if function == "unix_timestamp" else function
    try:
        value = dp.parser(name, pattern, zone, False, False, function)(text)
    except MatchRuntimeError as error:
        assert error.code == "DATETIME_OUT_OF_PYTHON_RANGE"
        return "out of range"
    if value is None:
        return ["value", None]
    if function == "to_timestamp":
        return ["value", (value - _EPOCH) // dt.timedelta(microseconds=1)]
    if function == "to_date":
        return ["value", value.isoformat()]
    if function == "to_timestamp_ntz":
        return ["value", _ntz_string(value)]
    return ["value", value]


def _beyond_python(key: list, spark) -> bool:
    """Spark's answer lies outside 0001-01-01 .. 9999-12-31 (or its instant near an end of it),
    where sparkcep raises DATETIME_OUT_OF_PYTHON_RANGE."""
    if key[0] == "format":  # the local year, as Spark formats the same instant in the same zone
        local = RECORDED["answers"].get(json.dumps(["format", key[1], key[2], "yyyy-MM-dd HH:mm:ss.SSSSSS"]))
        return local is not None and not ("0001" <= local[1][:4] <= "9999" and local[1][4] == "-")
    if key[2] == "unix_timestamp":  # computed for any year: out of range only where Spark's BIGINT overflows
        return spark[0] == "error"
    value = spark[1]
    if isinstance(value, int) and key[2] == "to_timestamp":
        return not _MIN_MICROS <= value <= _MAX_MICROS
    return isinstance(value, str) and not ("0001" <= value[:4] <= "9999" and value[4] == "-")


def test_python_gives_sparks_recorded_answers_for_every_letter_zone_and_refusal():
    compared, refused, out_of_range, wrong = 0, 0, 0, []
    for text, spark in RECORDED["answers"].items():
        key = json.loads(text)
        ours = _format(*key[1:]) if key[0] == "format" else _parse(*key[1:])
        if ours is None:  # a form sparkcep refuses (none of the recorded ones)
            refused += 1
            continue
        if ours == "out of range":
            assert _beyond_python(key, spark), (key, spark)
            out_of_range += 1
            continue
        compared += 1
        if ours != spark:
            wrong.append(f"{key}: Spark {spark}, sparkcep {ours}")
    assert not wrong, "\n".join(wrong[:40])
    assert compared >= 2_500 and refused == 0 and out_of_range <= 300, (compared, refused, out_of_range)


def test_every_letter_spark_formats_is_formatted():
    """Of the letter grid (in Europe/Berlin), sparkcep refuses none that Spark formats."""
    refused = set()
    for text, spark in RECORDED["answers"].items():
        key = json.loads(text)
        if key[0] == "format" and key[2] == 1709654889123456 and key[1] == "Europe/Berlin" and \
                len(set(key[3])) == 1 and spark[0] == "value" and _compiled(key[3], False) is None:
            refused.add(key[3])
    assert not refused


def test_zone_names_are_sparks_every_15_days_from_1890_to_2041_in_24_zones():
    """``z``, ``zzzz``, ``v``, ``vvvv`` as Spark printed them (Java 17's CLDR names, standard or
    daylight as Java's offset rules say) in every session time zone of ``ZONE_NAMES``; a zone
    outside it (Europe/Dublin, whose winter tzdata calls daylight saving) is refused."""
    from tests.evaluation.record_datetime_patterns import NAME_INSTANTS, NAME_PATTERN

    start, stop, step = NAME_INSTANTS
    compared, wrong = 0, []
    for zone, runs in RECORDED["zone_names"].items():
        if zone not in dp.ZONE_NAMES:
            assert zone == "Europe/Dublin"
            continue
        format_timestamp = dp.formatter(NAME_PATTERN, zone)
        run = 0
        for micros in range(start, stop + 1, step):
            while run + 1 < len(runs) and runs[run + 1][0] <= micros:
                run += 1
            ours = format_timestamp(_EPOCH + dt.timedelta(microseconds=micros))
            compared += 1
            if ours != runs[run][1]:
                wrong.append(f"{zone} {micros}: Spark {runs[run][1]}, sparkcep {ours}")
    assert not wrong, "\n".join(wrong[:20])
    assert compared >= 24 * 3_600 and set(RECORDED["zone_names"]) - set(dp.ZONE_NAMES) == {"Europe/Dublin"}


# ---- refusals and errors at their place in the statement -------------------------------------------

def _statement(qualified: str) -> str:
    return f"SELECT * FROM t MATCH_RECOGNIZE (ORDER BY r PATTERN (A B) DEFINE B AS ({qualified}) IS NULL)"


def _error(qualified: str, types: list[str]):
    try:
        expression = lower(qualified, ValueColumns())
        bind(expression, types, Semantics(ansi=True, time_zone="Europe/Berlin"), source=_statement(qualified))
    except AnalysisError as error:
        return error
    raise AssertionError(f"{qualified} was accepted")


@pytest.mark.parametrize("qualified, types, code, at", [
    ("date_format(greatest(A.ts, B.ts), 'YYYY-MM')", ["timestamp"], "INCONSISTENT_BEHAVIOR_CROSS_VERSION", "'YYYY-MM'"),
    ("date_format(greatest(A.ts, B.ts), 'yyyy-ee')", ["timestamp"], "INCONSISTENT_BEHAVIOR_CROSS_VERSION", "'yyyy-ee'"),
    ("to_char(greatest(A.ts, B.ts), 'b')", ["timestamp"], "INVALID_DATETIME_PATTERN", "'b'"),
    ("to_timestamp(A.s || B.s, 'QQ yyyy')", ["string"], "INVALID_DATETIME_PATTERN", "'QQ yyyy'"),
    ("to_date(A.s || B.s, 'E yyyy')", ["string"], "INCONSISTENT_BEHAVIOR_CROSS_VERSION", "'E yyyy'"),
    ("date_format(greatest(A.ts, B.ts), A.s)", ["timestamp"], "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION", "A.s"),
    ("to_timestamp(A.s || B.s, 'yyyy''T''MM')", ["string"], "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION", "'yyyy''T''MM'"),
    ("to_timestamp(A.s || B.s, 'HH:mm z')", ["string"], "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION", "'HH:mm z'"),
    ("to_timestamp(A.s || B.s, 'yyyy-MM-dd zzzz')", ["string"], "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION",
     "'yyyy-MM-dd zzzz'"),
    ("to_timestamp(A.s || B.s, 'DDD')", ["string"], "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION", "'DDD'"),
    ("to_timestamp(A.s || B.s, 'HHmmssS')", ["string"], "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION", "'HHmmssS'"),
    ("to_char(A.n + B.n, '999')", ["int"], "MATCH_DEPENDENT_TYPE_MISMATCH", "to_char(A.n + B.n, '999')"),
    ("from_unixtime(A.x + B.x)", ["double"], "MATCH_DEPENDENT_TYPE_MISMATCH", "from_unixtime(A.x + B.x)"),
    ("to_date(greatest(A.ts, B.ts), 'yyyy')", ["timestamp"], "MATCH_DEPENDENT_TYPE_MISMATCH",
     "to_date(greatest(A.ts, B.ts), 'yyyy')"),
    ("to_varchar(A.s || B.s)", ["string"], "WRONG_NUM_ARGS", "to_varchar(A.s || B.s)"),
])
def test_refusals_are_typed_errors_at_the_pattern_when_compiling(qualified, types, code, at):
    error = _error(qualified, types)
    sql = _statement(qualified)
    assert error.code == code, error.render()
    assert (error.line, error.column) == (1, sql.index(at) + 1), error.render()


def test_zone_names_in_a_zone_outside_the_table_are_refused_at_the_pattern():
    qualified = "date_format(greatest(A.ts, B.ts), 'HH:mm zzzz')"
    expression = lower(qualified, ValueColumns())
    with pytest.raises(AnalysisError) as raised:
        bind(expression, ["timestamp"], Semantics(ansi=True, time_zone="Europe/Dublin"), source=_statement(qualified))
    assert raised.value.code == "UNSUPPORTED_MATCH_DEPENDENT_EXPRESSION"
    assert raised.value.column == _statement(qualified).index("'HH:mm zzzz'") + 1
    bind(expression, ["timestamp"], Semantics(ansi=True, time_zone="Asia/Kolkata"))  # in the table


def test_a_quote_is_written_with_a_backslash_or_inside_a_double_quoted_literal():
    for qualified in ("to_timestamp(A.s || B.s, 'yyyy\\'T\\'MM')", "to_timestamp(A.s || B.s, \"yyyy'T'MM\")"):
        expression = lower(qualified, ValueColumns())
        typed = bind(expression, ["string"], Semantics(ansi=True, time_zone="UTC"))
        while typed.name != "to_timestamp":
            typed = typed.operands[0]
        assert ("pattern", "yyyy'T'MM") in typed.options


# ---- hand-worked values the recorded answers also hold (each for one rule) ---------------------------

def test_twelve_hour_clocks_at_midnight_and_noon():
    midnight = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)
    assert dp.formatter("h hh K KK k kk H HH a", "UTC")(midnight) == "12 12 0 00 24 24 0 00 AM"
    noon = midnight + dt.timedelta(hours=12)
    assert dp.formatter("h hh K KK k kk H HH a", "UTC")(noon) == "12 12 0 00 12 12 12 12 PM"


def test_parsing_reads_ascii_digits_only_and_whole_text():
    parse = dp.parser("to_timestamp", "yyyy", "UTC", False, False, "to_timestamp")
    assert parse("٢٠٢٤") is None  # Arabic-Indic digits: Java's DecimalStyle.STANDARD reads 0-9 only
    assert parse("2024 ") is None
    assert parse("2024") == dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)


def test_ansi_raises_cannot_parse_and_try_forms_do_not():
    with pytest.raises(MatchRuntimeError) as raised:
        dp.parser("to_date", "yyyy-MM-dd", "UTC", True, False, "to_date")("2024-02-30")
    assert raised.value.code == "CANNOT_PARSE_TIMESTAMP" and "try_to_date" in raised.value.message
    assert dp.parser("to_date", "yyyy-MM-dd", "UTC", True, True, "try_to_date")("2024-02-30") is None


@pytest.mark.parametrize("text, seconds", [
    # Spark 4.3's unix_timestamp(text, 'yyyy-MM-dd HH:mm VV'), session zone Europe/Berlin
    ("2024-03-05 10:11 America/Argentina/Buenos_Aires", 1709644260),  # the longest id, not America/Argentina
    ("2024-03-05 10:11 GMT+03:00", 1709622660), ("2024-03-05 10:11 uTc+02:00", 1709626260),
    ("2024-03-05 10:11 UT", 1709633460), ("2024-03-05 10:11 GB-Eire", 1709633460),
    ("2024-03-05 10:11 EST5EDT", 1709651460), ("2024-03-05 10:11 GMT+18:00", 1709568660),
    ("2024-03-05 10:11 Europe/Berlinx", None), ("2024-03-05 10:11 UTC+1:00", None), ("2024-03-05 10:11 Z+01:00", None),
    ("2024-03-05 10:11 America/New_York ", None), ("2024-03-05 10:11 +5", None),
])
def test_zone_ids_are_read_as_javas_zone_id_parser_reads_them(text, seconds):
    assert dp.parser("unix_timestamp_of_string", "yyyy-MM-dd HH:mm VV", "Europe/Berlin", False, False,
                     "unix_timestamp")(text) == seconds


def test_a_region_id_python_lacks_is_a_typed_error_on_its_row():
    parse = dp.parser("to_timestamp", "yyyy-MM-dd HH:mm VV", "Europe/Berlin", False, False, "to_timestamp")
    with pytest.raises(MatchRuntimeError) as raised:
        parse("2024-03-05 10:11 SystemV/EST5")  # Spark: 2024-03-05 15:11 UTC
    assert raised.value.code == "TIME_ZONE_UNKNOWN_TO_PYTHON" and "SystemV/EST5" in raised.value.message


def test_a_zone_id_is_matched_with_javas_case_insensitive_char_equality():
    # Java's charEquals: the upper cases equal or the lower cases; the Kelvin sign's lower case is k,
    # a long s's upper case S (Python's lower case of it is itself)
    parse = dp.parser("unix_timestamp_of_string", "yyyy-MM-dd HH:mm VV", "UTC", False, False, "unix_timestamp")
    assert parse("2024-03-05 10:11 Asia/\u212aarachi") == parse("2024-03-05 10:11 Asia/Karachi") == 1709615460
    assert parse("2024-03-05 10:11 Europe/Pari\u017f") == parse("2024-03-05 10:11 Europe/Paris") == 1709629860
