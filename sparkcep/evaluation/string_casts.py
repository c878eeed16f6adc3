"""Spark's ``CAST`` of a STRING that combines rows of a match to a DATE, TIMESTAMP,
TIMESTAMP_NTZ, DOUBLE, FLOAT, DECIMAL or BINARY, as Python evaluates it (non-NULL operands;
measured on Spark 4.3, ANSI on and off, session time zone Europe/Berlin). Where a string is no
value of the type, the cast is NULL without ANSI and Spark's ``CAST_INVALID_INPUT`` with ANSI
on (``explicit_casts`` makes ``TRY_CAST`` NULL).

* **DATE** (Spark's ``stringToDate``): the string trimmed of ASCII white space and control
  characters (U+0000 to U+0020 and U+007F) at both ends; an optional sign; a year of 4 to 7
  ASCII digits; then optionally ``-`` and a month of 1 or 2 digits, then optionally ``-`` and a
  day of 1 or 2 digits (``2024``, ``2024-3``, ``2024-03-05``); after a day, a space or ``T``
  ends the date and anything may follow (``2024-03-05T25:99``, ``2024-03-05 junk``); a month or
  a day that names no date (``2024-02-30``) is no date.
* **TIMESTAMP** (``stringToTimestamp``) and **TIMESTAMP_NTZ** (``stringToTimestampWithoutTimeZone``),
  trimmed the same way: a year of 4 to 6 digits (with an optional sign), ``-`` month, ``-``
  day as for a DATE; then a space or ``T`` and a time ``h[h]:m[m]:s[s]`` (hours alone, or
  hours and minutes, are enough: ``2024-03-05 7``), then ``.`` and a fraction (digits past the
  sixth are dropped, not rounded); after the seconds (or the fraction) a zone: ``Z``, an offset
  ``+h``, ``+hh``, ``+hh:mm``, ``+hhmm``, ``+hh:mm:ss``, ``+hhmmss`` (Spark also reads ``+h:mm``
  and ``+hh:m``), ``UTC``, ``GMT`` or ``UT`` alone or followed by such an offset (``UTC+1``),
  one of Java's short ids (``PST`` is ``America/Los_Angeles``, ``EST`` -05:00), or a region id
  (``Europe/Paris``, case as written; ``java_zone_ids``), with or without a space before it.
  A time alone (``10:15:00``, ``T10:15``) is a time of today, in the string's zone or the
  session's, as Spark reads it. A TIMESTAMP without a zone is the local date-time in the
  session time zone: in a daylight-saving gap it moves forward by the gap, in an overlap it
  takes the earlier offset (Java's ``ZonedDateTime.of``). A TIMESTAMP_NTZ keeps the local
  date-time and drops a valid zone (an invalid one makes it NULL); a time alone is NULL.
* **DOUBLE** / **FLOAT**: Java's ``Double.parseDouble`` / ``Float.parseFloat`` after Java's
  ``trim`` (U+0000 to U+0020, not U+007F): an optional sign, ASCII digits with at most one
  ``.``, an exponent ``e``/``E``, an optional suffix ``f``, ``F``, ``d`` or ``D`` (``1d``,
  ``2.5f``); hexadecimal ``0x1.8p1`` (the ``p`` exponent required); ``NaN`` and ``Infinity``
  with an optional sign, as written. Spark also takes ``inf``, ``infinity``, ``nan`` (with
  ``+`` or ``-`` for the infinities) in any case. Python's own spellings Java does not know are
  no numbers here (``1_000``, full-width digits, ``nan`` with a sign). Rounded once to the
  nearest DOUBLE or FLOAT (half to even); too large is an infinity.
* **DECIMAL(p, s)**: Java's ``new BigDecimal(s.trim())``: an optional sign, digits (any
  Unicode decimal digit of the BMP, as Java's ``Character.digit`` reads them) with at most one
  ``.``, an optional exponent; rounded half up to ``s`` places. More than ``p - s`` integral
  digits after rounding is NULL, or ``NUMERIC_VALUE_OUT_OF_RANGE`` with ANSI on; more than 38
  integral digits before it (``1e50``, ``0e50``) is NULL, or ``NUMERIC_OUT_OF_SUPPORTED_RANGE``.
* **BINARY**: the string's UTF-8 bytes.

What Python cannot hold is refused on the row rather than answered differently: a date or a
time outside 0001-01-01 .. 9999-12-31 (``DATETIME_OUT_OF_PYTHON_RANGE``), a region id the JVM
knows and Python's tz database does not (``TIME_ZONE_UNKNOWN_TO_PYTHON``).
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
import re
import unicodedata
from fractions import Fraction
from functools import lru_cache

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation import operators as ops
from sparkcep.evaluation.datetime_functions import epoch_micros_of_local, month_length
from sparkcep.evaluation.java_zone_ids import JAVA_REGION_IDS
from sparkcep.evaluation.sql_types import SqlType

_UTC = dt.timezone.utc
_LONG_MIN, _LONG_MAX = -(1 << 63), (1 << 63) - 1


def utf8_trimmed(value: str) -> str:
    """``value`` without the ASCII white space and ISO control characters (U+0000 to U+0020,
    U+007F) at its ends, as Spark's datetime parsers trim the UTF-8 bytes."""
    return value.strip("".join(chr(c) for c in range(0x21)) + "\x7f")


def java_trimmed(value: str) -> str:
    """``value`` as Java's ``String.trim`` leaves it: without U+0000 .. U+0020 at its ends."""
    return value.strip("".join(chr(c) for c in range(0x21)))


def invalid_input(value: str, target: SqlType) -> MatchRuntimeError:
    return MatchRuntimeError(
        "CAST_INVALID_INPUT",
        f"The value '{value}' of the type \"STRING\" cannot be cast to \"{str(target).upper()}\" because it "
        "is malformed. Correct the value as per the syntax, or change its target type. Use `try_cast` to "
        "tolerate malformed input and return NULL instead.")


def _out_of_python_range(what: str) -> MatchRuntimeError:
    return MatchRuntimeError(
        "DATETIME_OUT_OF_PYTHON_RANGE",
        f"CAST of a STRING to {what} between rows of a match: the value lies outside 0001-01-01 .. 9999-12-31, "
        "which Spark holds and sparkcep's Python side does not; cast it inside the navigation")


# -- the proleptic Gregorian calendar of Java's LocalDate, for any year ---------------------------

def _valid_date(year: int, month: int, day: int) -> bool:
    """Whether Java's ``LocalDate.of(year, month, day)`` accepts the fields."""
    if not 1 <= month <= 12 or day < 1:
        return False
    return day <= month_length(year, month)


# -- DATE ---------------------------------------------------------------------------------------

def parse_date(value: str) -> tuple[int, int, int] | None:
    """(year, month, day) of ``value`` as Spark's ``stringToDate`` reads it, None for no date."""
    text = utf8_trimmed(value)
    if not text:
        return None
    sign, j = 1, 0
    if text[0] in "+-":
        sign, j = (-1 if text[0] == "-" else 1), 1
    segments, i, number, digits = [1, 1, 1], 0, 0, 0

    def valid(segment: int, count: int) -> bool:
        return 4 <= count <= 7 if segment == 0 else 1 <= count <= 2

    while j < len(text) and text[j] not in " T":
        char = text[j]
        if i < 2 and char == "-":
            if not valid(i, digits):
                return None
            segments[i], number, digits, i = number, 0, 0, i + 1
        elif "0" <= char <= "9":
            number, digits = number * 10 + ord(char) - 48, digits + 1
        else:
            return None
        j += 1
    if not valid(i, digits) or (i < 2 and j < len(text)):
        return None
    segments[i] = number
    year, month, day = sign * segments[0], segments[1], segments[2]
    return (year, month, day) if _valid_date(year, month, day) else None


def string_to_date(target: SqlType, ansi: bool):
    def cast(value: str) -> dt.date | None:
        fields = parse_date(value)
        if fields is None:
            if ansi:
                raise invalid_input(value, target)
            return None
        if not 1 <= fields[0] <= 9999:
            raise _out_of_python_range("DATE")
        return dt.date(*fields)

    return cast


# -- zones ----------------------------------------------------------------------------------------

# Java's ZoneId.SHORT_IDS, which Spark passes to ZoneId.of
_SHORT_IDS = {
    "ACT": "Australia/Darwin", "AET": "Australia/Sydney", "AGT": "America/Argentina/Buenos_Aires",
    "ART": "Africa/Cairo", "AST": "America/Anchorage", "BET": "America/Sao_Paulo", "BST": "Asia/Dhaka",
    "CAT": "Africa/Harare", "CNT": "America/St_Johns", "CST": "America/Chicago", "CTT": "Asia/Shanghai",
    "EAT": "Africa/Addis_Ababa", "ECT": "Europe/Paris", "EST": "-05:00", "HST": "-10:00",
    "IET": "America/Indiana/Indianapolis", "IST": "Asia/Kolkata", "JST": "Asia/Tokyo", "MIT": "Pacific/Apia",
    "MST": "-07:00", "NET": "Asia/Yerevan", "NST": "Pacific/Auckland", "PLT": "Asia/Karachi",
    "PNT": "America/Phoenix", "PRT": "America/Puerto_Rico", "PST": "America/Los_Angeles",
    "SST": "Pacific/Guadalcanal", "VST": "Asia/Ho_Chi_Minh",
}
_REGION_SYNTAX = re.compile(r"[A-Za-z][A-Za-z0-9~/._+-]+")
_SINGLE_HOUR = re.compile(r"([+-])([0-9]):")
_SINGLE_MINUTE = re.compile(r"([+-])([0-9][0-9]):([0-9])\Z")


class NoZone(Exception):
    """Java's ZoneId.of rejects the id (Spark: no timestamp)."""


def _two_digits(text: str, position: int, after_colon: bool) -> int:
    if after_colon and text[position - 1] != ":":
        raise NoZone
    pair = text[position:position + 2]
    if len(pair) != 2 or not all("0" <= c <= "9" for c in pair):
        raise NoZone
    return int(pair)


def _zone_offset(text: str) -> dt.timezone:
    """Java's ``ZoneOffset.of``: ``Z``, ``+h``, ``+hh``, ``+hhmm``, ``+hh:mm``, ``+hhmmss``,
    ``+hh:mm:ss``, at most 18 hours."""
    if text == "Z":
        return _UTC
    if len(text) == 2:
        text = text[0] + "0" + text[1]
    fields = {3: ((1, False),), 5: ((1, False), (3, False)), 6: ((1, False), (4, True)),
              7: ((1, False), (3, False), (5, False)), 9: ((1, False), (4, True), (7, True))}.get(len(text))
    if fields is None or text[0] not in "+-":
        raise NoZone
    hours, minutes, seconds = (*(_two_digits(text, p, c) for p, c in fields), 0, 0)[:3]
    if hours > 18 or minutes > 59 or seconds > 59 or (hours == 18 and (minutes or seconds)):
        raise NoZone
    total = dt.timedelta(hours=hours, minutes=minutes, seconds=seconds)
    return dt.timezone(-total if text[0] == "-" else total)


@lru_cache(maxsize=256)
def java_zone(text: str):
    """The zone Spark's ``getZoneId`` reads from a string's zone part (a tzinfo); raises
    ``NoZone`` where Java's ``ZoneId.of`` rejects it, TIME_ZONE_UNKNOWN_TO_PYTHON for a region
    id the JVM knows and Python's tz database lacks."""
    text = java_trimmed(text)
    text = _SINGLE_HOUR.sub(r"\g<1>0\2:", text, count=1)
    text = _SINGLE_MINUTE.sub(r"\1\2:0\3", text, count=1)
    zone_id = _SHORT_IDS.get(text, text)
    if len(zone_id) <= 1 or zone_id[0] in "+-":
        return _zone_offset(zone_id)
    prefix = 3 if zone_id.startswith(("UTC", "GMT")) else 2 if zone_id.startswith("UT") else 0
    if prefix:
        if len(zone_id) == prefix:
            return _UTC
        if zone_id[prefix] in "+-":
            return _zone_offset(zone_id[prefix:])
    if not _REGION_SYNTAX.fullmatch(zone_id) or zone_id not in JAVA_REGION_IDS:
        raise NoZone
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(zone_id)
    except (ZoneInfoNotFoundError, ValueError):
        raise MatchRuntimeError(
            "TIME_ZONE_UNKNOWN_TO_PYTHON",
            f"CAST of a STRING to TIMESTAMP between rows of a match: the zone '{zone_id}' is known to Spark's JVM "
            "and not to Python's tz database; cast it inside the navigation") from None


# -- TIMESTAMP and TIMESTAMP_NTZ ------------------------------------------------------------------

def parse_timestamp(value: str) -> tuple[list[int], str | None, bool] | None:
    """Spark's ``parseTimestampString``: (year, month, day, hour, minute, second, microsecond),
    the zone's text (None without one) and whether the string is a time alone; None for no
    timestamp. The zone's text is not checked here."""
    text = utf8_trimmed(value)
    if not text:
        return None
    segments = [1, 1, 1, 0, 0, 0, 0, 0, 0]
    i = number = digits = fraction_digits = 0
    zone = None
    just_time = False
    year_sign = None
    start = len(value) - len(value.lstrip("".join(chr(c) for c in range(0x21)) + "\x7f"))  # Spark's j of `text[0]`
    j = 0
    if text[0] in "+-":
        year_sign = -1 if text[0] == "-" else 1
        j = 1

    def valid(segment: int, count: int) -> bool:
        if segment == 6:
            return True
        if segment == 0:
            return 4 <= count <= 6
        if segment == 7:
            return count <= 2
        return 1 <= count <= 2

    while j < len(text):
        char = text[j]
        if not "0" <= char <= "9":
            if j + start == 0 and char == "T":
                just_time = True
                i += 3
            elif i < 2:
                if char == "-":
                    if not valid(i, digits):
                        return None
                    segments[i], number, digits, i = number, 0, 0, i + 1
                elif i == 0 and char == ":" and year_sign is None:
                    just_time = True
                    if not valid(3, digits):
                        return None
                    segments[3], number, digits, i = number, 0, 0, 4
                else:
                    return None
            elif i == 2:
                if char not in " T" or not valid(i, digits):
                    return None
                segments[i], number, digits, i = number, 0, 0, i + 1
            elif i in (3, 4):
                if char != ":" or not valid(i, digits):
                    return None
                segments[i], number, digits, i = number, 0, 0, i + 1
            elif i in (5, 6):
                if not valid(i, digits):
                    return None
                segments[i], number, digits, i = number, 0, 0, i + 1
                if not (char == "." and i == 6):
                    zone = text[j:]
                    j = len(text) - 1
                if i == 6 and char != ".":
                    i += 1
            else:
                if i < len(segments) and char in ": ":
                    if not valid(i, digits):
                        return None
                    segments[i], number, digits, i = number, 0, 0, i + 1
                else:
                    return None
        else:
            if i == 6:
                fraction_digits += 1
            if i != 6 or digits < 6:
                number = number * 10 + ord(char) - 48
            digits += 1
        j += 1
    if not valid(i, digits):
        return None
    segments[i] = number
    while fraction_digits < 6:
        segments[6] *= 10
        fraction_digits += 1
    if year_sign is not None:
        segments[0] *= year_sign
    return segments[:7], zone, just_time


def _fields_valid(fields: list[int]) -> bool:
    year, month, day, hour, minute, second, _micros = fields
    return _valid_date(year, month, day) and 0 <= hour <= 23 and 0 <= minute <= 59 and 0 <= second <= 59


def string_to_timestamp(target: SqlType, ansi: bool, zone: str):
    """The cast to TIMESTAMP (an aware datetime in the session time zone ``zone``), read in
    ``zone`` where the string names none."""
    from zoneinfo import ZoneInfo

    session = ZoneInfo(zone)

    def cast(value: str) -> dt.datetime | None:
        instant = _timestamp(value, session)
        if instant is None:
            if ansi:
                raise invalid_input(value, target)
            return None
        try:  # in the session's zone, as the TIMESTAMPs PyArrow hands over: Python compares
            return instant.astimezone(session)  # those by their local time, but an instant in an
        except OverflowError:  # overlap with one in UTC never equal (PEP 495)
            return instant  # (its local date-time lies after 9999-12-31)

    return cast


def _timestamp(value: str, session) -> dt.datetime | None:
    parsed = parse_timestamp(value)
    if parsed is None:
        return None
    fields, zone_text, just_time = parsed
    try:
        tz = session if zone_text is None else java_zone(zone_text)
    except NoZone:
        return None
    if just_time:
        today = dt.datetime.now(tz).date()  # Spark's LocalDate.now(zone): today in that zone
        fields = [today.year, today.month, today.day, *fields[3:]]
    if not _fields_valid(fields):
        return None
    instant = epoch_micros_of_local(*fields, tz)
    if not _LONG_MIN <= instant <= _LONG_MAX:
        return None  # Spark's instantToMicros overflows: no timestamp
    try:
        return dt.datetime(1970, 1, 1, tzinfo=_UTC) + dt.timedelta(microseconds=instant)
    except OverflowError:
        raise _out_of_python_range("TIMESTAMP") from None


def string_to_timestamp_ntz(target: SqlType, ansi: bool):
    def cast(value: str) -> dt.datetime | None:
        local = _timestamp_ntz(value)
        if local is None and ansi:
            raise invalid_input(value, target)
        return local

    return cast


def _timestamp_ntz(value: str) -> dt.datetime | None:
    parsed = parse_timestamp(value)
    if parsed is None or parsed[2]:
        return None
    fields, zone_text, _just_time = parsed
    if zone_text is not None:
        try:
            java_zone(zone_text)  # checked, then dropped
        except NoZone:
            return None
    if not _fields_valid(fields):
        return None
    if not 1 <= fields[0] <= 9999:
        if not _LONG_MIN <= epoch_micros_of_local(*fields, _UTC) <= _LONG_MAX:
            return None
        raise _out_of_python_range("TIMESTAMP_NTZ")
    return dt.datetime(*fields)


# -- DOUBLE and FLOAT -------------------------------------------------------------------------------

_JAVA_DECIMAL = re.compile(r"([+-]?)(?:([0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE]([+-]?[0-9]+))?)[fFdD]?\Z")
_JAVA_HEX = re.compile(r"([+-]?)0[xX](?:([0-9a-fA-F]+)\.?|([0-9a-fA-F]*)\.([0-9a-fA-F]+))[pP]([+-]?[0-9]+)[fFdD]?\Z")
_SPECIAL = {"inf": math.inf, "+inf": math.inf, "infinity": math.inf, "+infinity": math.inf,
            "-inf": -math.inf, "-infinity": -math.inf, "nan": math.nan}
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _round_binary(q: Fraction, significand_bits: int, min_exponent: int, max_exponent: int) -> float:
    """The non-negative rational ``q`` rounded (half to even) to the nearest binary floating-point
    number with that many significand bits, quantum at least 2^min_exponent; inf past the
    largest (its exponent below 2^max_exponent)."""
    if q == 0:
        return 0.0
    exponent = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** exponent > q:
        exponent -= 1
    quantum = max(exponent - (significand_bits - 1), min_exponent)
    scaled = q / Fraction(2) ** quantum
    whole = scaled.numerator // scaled.denominator
    rest = scaled - whole
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and whole % 2 == 1):
        whole += 1
    if whole and whole.bit_length() + quantum > max_exponent:
        return math.inf
    return math.ldexp(float(whole), quantum)


_FORMATS = {"double": (53, -1074, 1024), "float": (24, -149, 128)}


def _java_floating(text: str, kind: str) -> float | None:
    """Java's ``Double.parseDouble`` / ``Float.parseFloat`` of a trimmed string, None where it
    throws."""
    bits, low, high = _FORMATS[kind]
    if (m := re.fullmatch(r"([+-]?)(NaN|Infinity)", text)) is not None:
        value = math.nan if m.group(2) == "NaN" else math.inf
        return -value if m.group(1) == "-" else value
    if (m := _JAVA_DECIMAL.match(text)) is not None:
        sign, digits, exponent = m.groups()
        whole, _point, fraction = digits.partition(".")
        mantissa = int(whole + fraction or "0")
        power = int(exponent or "0") - len(fraction)  # value = mantissa * 10^power
        if mantissa == 0:
            magnitude = 0.0
        elif len(str(mantissa)) + power > 400:  # past any DOUBLE or FLOAT
            magnitude = math.inf
        elif len(str(mantissa)) + power < -400:  # below half the smallest
            magnitude = 0.0
        else:
            magnitude = _round_binary(Fraction(mantissa) * Fraction(10) ** power, bits, low, high)
        return -magnitude if sign == "-" else magnitude
    if (m := _JAVA_HEX.match(text)) is not None:
        sign, whole, integral, fraction, exponent = m.groups()
        hex_digits = (whole or integral or "") + (fraction or "")
        mantissa = int(hex_digits, 16) if hex_digits else 0
        power = int(exponent) - 4 * len(fraction or "")
        if mantissa == 0:
            magnitude = 0.0
        elif power + mantissa.bit_length() > 2000:
            magnitude = math.inf
        elif power + mantissa.bit_length() < -2000:
            magnitude = 0.0
        else:
            magnitude = _round_binary(Fraction(mantissa) * Fraction(2) ** power, bits, low, high)
        return -magnitude if sign == "-" else magnitude
    return None


def string_to_floating(target: SqlType, ansi: bool):
    """The cast to DOUBLE or FLOAT: Java's parser, then Spark's spellings of the infinities
    and NaN."""

    def cast(value: str) -> float | None:
        text = java_trimmed(value)
        number = _java_floating(text, target.name)
        if number is None:
            number = _SPECIAL.get(text.translate(_ASCII_LOWER))
        if number is None and ansi:
            raise invalid_input(value, target)
        return number

    return cast


# -- DECIMAL ------------------------------------------------------------------------------------

def _java_digit(char: str) -> int | None:
    """Java's ``Character.digit(c, 10)`` for a BMP character: its decimal digit value."""
    if "0" <= char <= "9":
        return ord(char) - 48
    if ord(char) > 0xFFFF or unicodedata.category(char) != "Nd":
        return None
    return unicodedata.decimal(char)


def java_big_decimal(text: str) -> decimal.Decimal | None:
    """Java's ``new BigDecimal(text)`` (``text`` trimmed): None where it throws."""
    sign = ""
    if text[:1] in ("+", "-"):
        sign, text = text[0], text[1:]
    mantissa, marker, exponent_text = text.replace("E", "e").partition("e")
    if marker and ("e" in exponent_text):
        return None
    whole, point, fraction = mantissa.partition(".")
    digits = [_java_digit(c) for c in whole + fraction]
    if not digits or None in digits:
        return None
    exponent = 0
    if marker:
        exponent_sign = -1 if exponent_text[:1] == "-" else 1
        exponent_text = exponent_text[1:] if exponent_text[:1] in ("+", "-") else exponent_text
        exponent_digits = [_java_digit(c) for c in exponent_text]
        while len(exponent_digits) > 10 and exponent_digits[0] == 0:  # Java skips leading zeros past ten
            exponent_digits.pop(0)
        if not exponent_digits or None in exponent_digits or len(exponent_digits) > 10:
            return None
        exponent = exponent_sign * int("".join(map(str, exponent_digits)))
        if not -(1 << 31) <= exponent <= (1 << 31) - 1:
            return None
    scale = len(fraction) - exponent
    if not -(1 << 31) <= scale <= (1 << 31) - 1:
        return None
    unscaled = int("".join(map(str, digits)))
    return decimal.Decimal((1 if sign == "-" else 0, tuple(int(c) for c in str(unscaled)), -scale))


def string_to_decimal(target: SqlType, ansi: bool):
    """The cast to DECIMAL(p, s): ``Decimal.fromString`` (``fromStringANSI``), then
    ``changePrecision`` (half up)."""

    def cast(value: str) -> decimal.Decimal | None:
        number = java_big_decimal(java_trimmed(value))
        if number is None:
            if ansi:
                raise invalid_input(value, target)
            return None
        digits, exponent = len(number.as_tuple().digits), number.as_tuple().exponent
        if digits + exponent > 38 and not number.is_zero():  # Spark's fast failure: more than 38 integral digits
            if ansi:
                raise MatchRuntimeError(
                    "NUMERIC_OUT_OF_SUPPORTED_RANGE",
                    f"The value {value} cannot be interpreted as a numeric since it has more than 38 digits.")
            return None
        rounded = ops.to_decimal(number, target, ansi)
        return abs(rounded) if rounded is not None and rounded.is_zero() else rounded  # no -0.00 in Java

    return cast


def string_to_binary(value: str) -> bytes:
    return value.encode("utf-8", "surrogatepass")


def supported(target: SqlType) -> bool:
    """Whether this module casts a STRING to ``target``."""
    return target.decimal or target.name in ("date", "timestamp", "timestamp_ntz", "double", "float", "binary")


def string_cast(target: SqlType, ansi: bool, zone: str):
    """The function of ``CAST(s AS target)`` of a non-NULL STRING ``s``."""
    if target.name == "date":
        return string_to_date(target, ansi)
    if target.name == "timestamp":
        return string_to_timestamp(target, ansi, zone)
    if target.name == "timestamp_ntz":
        return string_to_timestamp_ntz(target, ansi)
    if target.name in ("double", "float"):
        return string_to_floating(target, ansi)
    if target.decimal:
        return string_to_decimal(target, ansi)
    return string_to_binary
