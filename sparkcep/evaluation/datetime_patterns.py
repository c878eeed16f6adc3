"""Spark's datetime patterns (``date_format``, ``to_char`` / ``to_varchar`` of dates and
timestamps, ``from_unixtime``, ``to_date``, ``to_timestamp``, ``to_timestamp_ntz``,
``try_to_timestamp``, ``unix_timestamp`` / ``to_unix_timestamp`` of a STRING) over values that
combine rows of a match, as Python evaluates them (measured on Spark 4.3, Java 17, locale US).

Spark 4 formats and parses with Java's ``DateTimeFormatter`` built from the pattern (its
``DateTimeFormatterHelper``): case-insensitive parsing, the STRICT resolver, the ISO chronology,
and a pattern first checked and rewritten by Spark (``y`` read as the proleptic year ``u`` when
the pattern has no ``G``; in parsing, a run of ``S`` accepts 1 to that many digits).

``compile_pattern(text, parsing)`` reads a pattern once, when the expression is bound: a
pattern Spark refuses raises ``PatternError`` with Spark's error class
(``INVALID_DATETIME_PATTERN`` or ``INCONSISTENT_BEHAVIOR_CROSS_VERSION``, see ``_spark_refusal``),
a form sparkcep does not reproduce raises ``UnsupportedPattern``. The compiled pattern is a list
of elements as Java's builder makes them:

* letters with a number: fixed (``dd``: exactly 2 digits) or variable width, Java's sign
  styles, and *adjacent value parsing* (``yyyyMMdd``: a variable-width number followed by
  fixed-width ones leaves them their digits);
* ``yy``: the two last digits of the year, read as 2000 to 2099;
* ``S``: the fraction of the second, truncated to the count in formatting, 1 to the count
  digits in parsing;
* text: ``G`` (AD), ``MMM`` / ``LLL`` (Jan), ``MMMM`` (January), ``E`` (Tue / Tuesday), ``QQQ``
  (Q1), ``QQQQ`` (1st quarter), ``a`` (AM / PM), in English;
* offsets: ``X`` / ``x`` / ``Z`` (Java's ``+HHmm`` ... ``+HH:MM:ss`` forms), ``O`` / ``ZZZZ``
  (``GMT+1``, ``GMT+01:00``); ``VV`` the session time zone's id; ``z`` / ``zzzz`` and ``v`` /
  ``vvvv`` its names (``ZONE_NAMES``);
* literals (quoted text, ``''`` a quote) and optional sections ``[...]`` (always printed; in
  parsing, skipped when they do not match).

Formatting covers every letter Spark accepts; the zone names ``z`` and ``v`` (Java's CLDR names,
which Python does not have) for the session time zones of ``ZONE_NAMES`` only. Parsing covers
the numeric fields, text months, eras and AM/PM, the modified Julian day ``g``, offsets ``X`` /
``x`` / ``Z`` and ``O`` / ``ZZZZ``, and zone ids ``VV`` (the JVM's region ids, ``java_zone_ids``);
the zone names ``z`` and ``v``, a one-letter ``S`` next to a number and a day of year without a
year are refused in a pattern that parses. A parsed value is resolved as Java's
STRICT resolver and Spark's defaults do (1970-01-01 for missing date fields, midnight for a
missing time, AM for an hour of AM/PM without ``a``, no year for a year of era without an era),
then placed in the parsed zone id, else the parsed offset, else the session time zone (Java's
``ZonedDateTime.of``: a time in a gap moves forward by the gap, one in an overlap takes the
earlier offset). ``unix_timestamp`` and ``to_date`` are computed from the
fields for any year Java holds (``parsed_epoch_micros``: Spark's BIGINT of seconds for year -1 or
12024, and ``to_date`` of an instant in year 0 whose local date is in year 1); a TIMESTAMP, a
TIMESTAMP_NTZ, a DATE or a formatted date-time Python's ``datetime`` cannot hold raises
``DATETIME_OUT_OF_PYTHON_RANGE``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import lru_cache

from sparkcep.evaluation.datetime_functions import date_of_epoch_days, epoch_micros_of_local, month_length

_UTC = dt.timezone.utc
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=_UTC)


class PatternError(Exception):
    """A pattern Spark refuses: ``code`` is Spark's error class, ``subclass`` its sub-class."""

    def __init__(self, code: str, subclass: str, message: str):
        super().__init__(message)
        self.code, self.subclass, self.message = code, subclass, message


class UnsupportedPattern(Exception):
    """A pattern Spark accepts whose result sparkcep does not reproduce."""


# ---- Spark's checks of a pattern -----------------------------------------------------------

_LEGACY_LETTERS = set("GyMdkHmsSEDFwWahKzZYuXL")  # what Spark's legacy formatter (SimpleDateFormat) reads
_WEEK_BASED = set("YWwuec")
_ILLEGAL = set("AnNpB")
_ILLEGAL_FOR_PARSING = set("EFqQ")
_TOO_LONG = ["GGGGG", "MMMMM", "LLLLL", "EEEEE", "QQQQQ", "qqqqq", "yyyyyyy"]


def _letter(c: str) -> bool:
    return "A" <= c <= "Z" or "a" <= c <= "z"


def _runs(pattern: str):
    """(quoted, text) parts of ``pattern`` split at its quotes, as Spark splits it."""
    return [(index % 2 == 1, part) for index, part in enumerate((pattern + " ").split("'"))]


def _legacy_accepts(pattern: str) -> bool:
    """Whether Java's SimpleDateFormat (Spark's legacy formatter) accepts ``pattern``: closed
    quotes, its letters only, and at most three ``X``."""
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "'":
            close = pattern.find("'", i + 1)
            if close < 0:
                return False
            i = close + 1
            continue
        if _letter(c):
            j = i
            while j < n and pattern[j] == c:
                j += 1
            if c not in _LEGACY_LETTERS or (c == "X" and j - i > 3):
                return False
            i = j
            continue
        i += 1
    return True


def _spark_refusal(pattern: str, parsing: bool, java_reason: str | None) -> PatternError | None:
    """The error Spark raises for ``pattern`` (None if it accepts it). Spark first applies its
    own checks (week-based letters, illegal letters, too many letters), then builds Java's
    formatter; when either fails, the pattern is ``DATETIME_PATTERN_RECOGNITION`` if the legacy
    formatter would have read it, else Spark's own reason or Java's (``WITH_SUGGESTION``)."""
    reason = None
    for quoted, part in _runs(pattern):
        if quoted:
            continue
        if any(c in _WEEK_BASED for c in part):
            reason = reason or ("INCONSISTENT_BEHAVIOR_CROSS_VERSION", "DATETIME_WEEK_BASED_PATTERN")
        elif any(c in _ILLEGAL or (parsing and c in _ILLEGAL_FOR_PARSING) for c in part):
            reason = reason or ("INVALID_DATETIME_PATTERN", "ILLEGAL_CHARACTER")
        elif any(run in part for run in _TOO_LONG):
            reason = reason or ("INVALID_DATETIME_PATTERN", "LENGTH")
    if reason is None and java_reason is not None:
        reason = ("INVALID_DATETIME_PATTERN", "WITH_SUGGESTION")
    if reason is None:
        return None
    if _legacy_accepts(pattern):
        reason = ("INCONSISTENT_BEHAVIOR_CROSS_VERSION", "DATETIME_PATTERN_RECOGNITION")
    code, sub = reason
    why = java_reason or {"DATETIME_WEEK_BASED_PATTERN": "week-based letters (Y, W, w, u, e, c) are not supported",
                          "ILLEGAL_CHARACTER": "an illegal pattern letter",
                          "LENGTH": "too many pattern letters"}.get(sub, "a pattern Java 8's formatter rejects")
    return PatternError(code, sub, f"[{code}.{sub}] Spark refuses the datetime pattern '{pattern}': {why}")


# ---- compiled elements -----------------------------------------------------------------------

NORMAL, NOT_NEGATIVE, EXCEEDS_PAD = "normal", "not_negative", "exceeds_pad"


@dataclass
class Literal:
    text: str


@dataclass
class Number:
    field: str
    min_width: int
    max_width: int
    sign: str
    subsequent: int = 0  # Java's subsequentWidth: -1 fixed, > 0 the widths of adjacent fixed numbers
    reduced: bool = False  # yy: two digits of a year from 2000

    @property
    def fixed(self) -> bool:
        return self.min_width == self.max_width and self.sign == NOT_NEGATIVE


@dataclass
class Fraction:
    min_width: int
    max_width: int


@dataclass
class Text:
    field: str
    full: bool


@dataclass
class Offset:
    style: int  # index into Java's OffsetIdPrinterParser PATTERNS
    no_offset: str


@dataclass
class LocalizedOffset:
    full: bool


@dataclass
class ZoneId:
    """``VV``: the zone's id (it has no settings)."""


@dataclass
class ZoneText:
    letter: str


@dataclass
class Optional:
    elements: list


# the forms of Java's OffsetIdPrinterParser that X, x and Z use, by their index in its PATTERNS (an
# even index has colons; mm: minutes printed only when not zero, ss: seconds only when not zero)
_OFFSET_STYLES = {"+HHmm": 1, "+HHMM": 3, "+HH:MM": 4, "+HHMMss": 5, "+HH:MM:ss": 6}

# the chrono field of each letter (y already read as u = the proleptic year unless G is present)
_FIELDS = {"G": "era", "u": "year", "y": "year_of_era", "Q": "quarter", "q": "quarter", "M": "month", "L": "month",
           "D": "day_of_year", "d": "day", "F": "aligned_day_of_week_in_month", "E": "day_of_week", "a": "ampm",
           "H": "hour", "k": "clock_hour", "K": "hour_of_ampm", "h": "clock_hour_of_ampm", "m": "minute",
           "s": "second", "S": "nano", "g": "modified_julian_day"}


_ADJACENT_FRACTION = ("a one-letter fraction S next to a number in a parsing pattern (Java's adjacent value "
                      "parsing of a fraction) is not reproduced; put a separator between them or write SS")


class _Builder:
    """Java's ``DateTimeFormatterBuilder`` for the letters Spark allows: the elements and the
    adjacent-value-parsing bookkeeping (``valueParserIndex``)."""

    def __init__(self) -> None:
        self.stack: list[list] = [[]]
        self.active_value: list[int | None] = [None]

    @property
    def elements(self) -> list:
        return self.stack[-1]

    def internal(self, element) -> None:
        self.elements.append(element)
        self.active_value[-1] = None

    def value(self, number: Number) -> None:
        active = self.active_value[-1]
        if active is not None:
            base = self.elements[active]
            if isinstance(base, Fraction):
                raise UnsupportedPattern(_ADJACENT_FRACTION)
            if number.fixed:
                base.subsequent = (base.subsequent if base.subsequent > 0 else 0) + number.max_width
                number.subsequent = -1
                self.elements.append(number)
                return
            if base.subsequent != -1:
                base.subsequent = -1
        self.elements.append(number)
        self.active_value[-1] = len(self.elements) - 1

    def open_optional(self) -> None:
        self.active_value[-1] = None
        self.stack.append([])
        self.active_value.append(None)

    def close_optional(self) -> None:
        if len(self.stack) == 1:
            raise ValueError("Pattern invalid as it contains ] without previous [")
        inner = self.stack.pop()
        self.active_value.pop()
        self.internal(Optional(inner))

    def done(self) -> list:
        while len(self.stack) > 1:
            self.close_optional()
        return self.elements


def _letter_element(builder: _Builder, c: str, count: int, parsing: bool) -> None:
    """Java's ``DateTimeFormatterBuilder.parsePattern`` for one run of a letter (Java 17)."""
    if c == "G":
        if count > 4:
            raise ValueError(f"Too many pattern letters: {c}")
        builder.internal(Text("era", count == 4))
    elif c in "uy":
        field = "year" if c == "u" else "year_of_era"
        if count == 2:
            builder.value(Number(field, 2, 2, NOT_NEGATIVE, reduced=True))
        elif count < 4:
            builder.value(Number(field, count, 19, NORMAL))
        else:
            builder.value(Number(field, count, 19, EXCEEDS_PAD))
    elif c in "QqML":
        field = "quarter" if c in "Qq" else "month"
        if count > 5:
            raise ValueError(f"Too many pattern letters: {c}")
        if count == 1:
            builder.value(Number(field, 1, 19, NORMAL))
        elif count == 2:
            builder.value(Number(field, 2, 2, NOT_NEGATIVE))
        else:  # 3 short, 4 full (5, narrow, Spark refuses)
            builder.internal(Text(field, count == 4))
    elif c == "E":
        if count > 5:
            raise ValueError(f"Too many pattern letters: {c}")
        builder.internal(Text("day_of_week", count == 4))
    elif c == "a":
        if count > 1:
            raise ValueError(f"Too many pattern letters: {c}")
        builder.internal(Text("ampm", False))
    elif c in "dhHkKms":
        if count > 2:
            raise ValueError(f"Too many pattern letters: {c}")
        builder.value(Number(_FIELDS[c], 1, 19, NORMAL) if count == 1 else Number(_FIELDS[c], 2, 2, NOT_NEGATIVE))
    elif c == "D":
        if count > 3:
            raise ValueError(f"Too many pattern letters: {c}")
        builder.value(Number("day_of_year", 1, 19, NORMAL) if count == 1 else
                      Number("day_of_year", count, 3, NOT_NEGATIVE) if count == 2 else
                      Number("day_of_year", 3, 3, NOT_NEGATIVE))
    elif c == "F":
        if count > 1:
            raise ValueError(f"Too many pattern letters: {c}")
        builder.value(Number("aligned_day_of_week_in_month", 1, 19, NORMAL))
    elif c == "S":
        if count > 9:
            raise ValueError("Maximum width must be from 1 to 9 inclusive")
        if parsing and count == 1:  # appendFraction(1, 1): a fixed-width value, in adjacent value parsing
            if builder.active_value[-1] is not None:
                raise UnsupportedPattern(_ADJACENT_FRACTION)
            builder.internal(Fraction(1, 1))
            builder.active_value[-1] = len(builder.elements) - 1
        elif parsing:  # Spark's variable-length fraction: 1 to count digits
            builder.internal(Fraction(1, count))
        elif count == 1:
            builder.value(Number("fraction1", 1, 1, NOT_NEGATIVE))  # appendFraction(1, 1) joins adjacent values
        else:
            builder.internal(Fraction(count, count))
    elif c == "g":
        builder.value(Number("modified_julian_day", count, 19, NORMAL))
    elif c == "V":
        if count != 2:
            raise ValueError("Pattern letter count must be 2: V")
        builder.internal(ZoneId())
    elif c in "zv":
        if (c == "z" and count > 4) or (c == "v" and count not in (1, 4)):
            raise ValueError(f"Wrong number of pattern letters: {c}")
        builder.internal(ZoneText(c * count))
    elif c == "O":
        if count not in (1, 4):
            raise ValueError("Pattern letter count must be 1 or 4: O")
        builder.internal(LocalizedOffset(count == 4))
    elif c == "X":
        if count > 5:
            raise ValueError(f"Too many pattern letters: {c}")
        builder.internal(Offset(_OFFSET_STYLES[["+HHmm", "+HHMM", "+HH:MM", "+HHMMss", "+HH:MM:ss"][count - 1]], "Z"))
    elif c == "x":
        if count > 5:
            raise ValueError(f"Too many pattern letters: {c}")
        style = ["+HHmm", "+HHMM", "+HH:MM", "+HHMMss", "+HH:MM:ss"][count - 1]
        builder.internal(Offset(_OFFSET_STYLES[style], ["+00", "+0000", "+00:00", "+0000", "+00:00"][count - 1]))
    elif c == "Z":
        if count > 5:
            raise ValueError(f"Too many pattern letters: {c}")
        if count == 4:
            builder.internal(LocalizedOffset(True))
        elif count == 5:
            builder.internal(Offset(_OFFSET_STYLES["+HH:MM:ss"], "Z"))
        else:
            builder.internal(Offset(_OFFSET_STYLES["+HHMM"], "+0000"))
    else:
        raise ValueError(f"Unknown pattern letter: {c}")


def _append_pattern(builder: _Builder, pattern: str, parsing: bool) -> None:
    """Java's ``appendPattern``: letters, quoted literals, optional sections, other characters."""
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if _letter(c):
            j = i
            while j < n and pattern[j] == c:
                j += 1
            count = j - i
            if c == "p":
                raise ValueError("pad letter")  # Spark refuses it before Java sees it
            _letter_element(builder, c, count, parsing)
            i = j
        elif c == "'":
            j = i + 1
            text = []
            while True:
                if j >= n:
                    raise ValueError(f"Pattern ends with an incomplete string literal: {pattern}")
                if pattern[j] == "'":
                    if j + 1 < n and pattern[j + 1] == "'":
                        text.append("'")
                        j += 2
                        continue
                    break
                text.append(pattern[j])
                j += 1
            builder.internal(Literal("".join(text) if text else "'"))
            i = j + 1
        elif c == "[":
            builder.open_optional()
            i += 1
        elif c == "]":
            builder.close_optional()
            i += 1
        elif c in "{}#":
            raise ValueError(f"Pattern includes reserved character: '{c}'")
        else:
            builder.internal(Literal(c))
            i += 1


def _spark_builder(pattern: str, parsing: bool) -> list:
    """The elements of Spark's formatter for its rewritten ``pattern``. With a fraction ``S`` in
    a parsing pattern Spark builds it piecewise (``createBuilderWithVarLengthSecondFraction``):
    the parts between quotes, each split at its runs of ``S``."""
    builder = _Builder()
    if not (parsing and "S" in pattern):
        _append_pattern(builder, pattern, parsing)
        return builder.done()
    parts = pattern.split("'")
    while parts and parts[-1] == "":  # Java's String.split drops trailing empty strings: a final
        parts.pop()  # quoted literal's closing quote, or a final '' (a quote), is not appended
    for index, part in enumerate(parts):
        if part == "" and index != 0:
            builder.internal(Literal("'"))
        elif index % 2 == 0:
            i = 0
            while i < len(part):
                j = i
                while j < len(part) and part[j] != "S":
                    j += 1
                _append_pattern(builder, part[i:j], parsing)
                k = j
                while k < len(part) and part[k] == "S":
                    k += 1
                if k > j:
                    _letter_element(builder, "S", k - j, parsing)
                i = k
        else:
            builder.internal(Literal(part))
    return builder.done()


@dataclass(frozen=True)
class CompiledPattern:
    text: str
    parsing: bool
    elements: tuple

    def zone_names(self) -> bool:
        """Whether the pattern prints a zone name (``z``, ``v``), which needs ``ZONE_NAMES``."""
        return any(name.startswith("ZoneText") for name in self.letters())

    def letters(self) -> set:
        found = set()

        def walk(elements):
            for e in elements:
                if isinstance(e, Optional):
                    walk(e.elements)
                else:
                    found.add(type(e).__name__ + ":" + getattr(e, "field", ""))
        walk(self.elements)
        return found


def _rewrite(pattern: str) -> str:
    """Spark's ``convertIncompatiblePattern``: ``y`` read as ``u`` outside quotes unless the
    pattern has an era ``G``."""
    parts = pattern.split("'")
    era = any(index % 2 == 0 and "G" in part for index, part in enumerate(parts))
    if era:
        return pattern
    return "'".join(part.replace("y", "u") if index % 2 == 0 else part for index, part in enumerate(parts))


@lru_cache(maxsize=256)
def compile_pattern(pattern: str, parsing: bool) -> CompiledPattern:
    """``pattern`` compiled for formatting or parsing; raises ``PatternError`` (Spark's) or
    ``UnsupportedPattern`` (sparkcep's)."""
    refusal = _spark_refusal(pattern, parsing, None)
    if refusal is not None:
        raise refusal
    try:
        elements = _spark_builder(_rewrite(pattern), parsing)
    except ValueError as java:
        raise _spark_refusal(pattern, parsing, str(java)) from None
    compiled = CompiledPattern(pattern, parsing, tuple(elements))
    _check_supported(compiled)
    return compiled


def _check_supported(compiled: CompiledPattern) -> None:
    def walk(elements):
        for e in elements:
            if isinstance(e, Optional):
                walk(e.elements)
                continue
            if compiled.parsing and isinstance(e, ZoneText):
                raise UnsupportedPattern("parsing a zone name (z, v) is not reproduced")
    walk(compiled.elements)
    if compiled.parsing:
        fields = compiled.letters()
        if "Number:day_of_year" in fields and not ({"Number:year"} & fields):
            raise UnsupportedPattern("parsing a day of year (D) without a year (y) is not reproduced")


# ---- formatting ---------------------------------------------------------------------------------

_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_QUARTERS = ["1st quarter", "2nd quarter", "3rd quarter", "4th quarter"]
# The zone names of ``z`` / ``zzzz`` (standard, daylight) and ``v`` / ``vvvv`` (generic): Java 17's
# CLDR names in locale US, as Spark 4.3 prints them (``record_datetime_patterns.py`` records them
# every 15 days from 1890 to 2041). Java names the daylight form when the offset is not the
# zone's standard one; Python's ``dst()`` agrees for each zone here at every such instant (not for
# Europe/Dublin, whose daylight saving tzdata writes as a negative one in winter: not here).
# zone -> (standard short, standard long, daylight short, daylight long, generic short, generic long)
ZONE_NAMES = {
    "UTC": ("UTC", "Coordinated Universal Time", None, None, "UTC", "Coordinated Universal Time"),
    "Etc/UTC": ("UTC", "Coordinated Universal Time", None, None, "UTC", "Coordinated Universal Time"),
    "GMT": ("GMT", "Greenwich Mean Time", None, None, "GMT", "Greenwich Mean Time"),
    "Europe/Berlin": ("CET", "Central European Standard Time", "CEST", "Central European Summer Time", "CET", "Central European Time"),
    "Europe/London": ("GMT", "Greenwich Mean Time", "BST", "British Summer Time", "BT", "British Time"),
    "Europe/Paris": ("CET", "Central European Standard Time", "CEST", "Central European Summer Time", "CET", "Central European Time"),
    "Europe/Moscow": ("MSK", "Moscow Standard Time", "MSD", "Moscow Summer Time", "MT", "Moscow Time"),
    "America/New_York": ("EST", "Eastern Standard Time", "EDT", "Eastern Daylight Time", "ET", "Eastern Time"),
    "America/Chicago": ("CST", "Central Standard Time", "CDT", "Central Daylight Time", "CT", "Central Time"),
    "America/Denver": ("MST", "Mountain Standard Time", "MDT", "Mountain Daylight Time", "MT", "Mountain Time"),
    "America/Phoenix": ("MST", "Mountain Standard Time", "MDT", "Mountain Daylight Time", "MT", "Mountain Time"),
    "America/Los_Angeles": ("PST", "Pacific Standard Time", "PDT", "Pacific Daylight Time", "PT", "Pacific Time"),
    "America/Sao_Paulo": ("BRT", "Brasilia Standard Time", "BRST", "Brasilia Summer Time", "BRT", "Brasilia Time"),
    "America/St_Johns": ("NST", "Newfoundland Standard Time", "NDT", "Newfoundland Daylight Time", "NT", "Newfoundland Time"),
    "Asia/Kolkata": ("IST", "India Standard Time", "IDT", "India Daylight Time", "IT", "India Time"),
    "Asia/Shanghai": ("CST", "China Standard Time", "CDT", "China Daylight Time", "CT", "China Time"),
    "Asia/Tokyo": ("JST", "Japan Standard Time", "JDT", "Japan Daylight Time", "JT", "Japan Time"),
    "Asia/Singapore": ("SGT", "Singapore Standard Time", "SGST", "Singapore Summer Time", "SGT", "Singapore Time"),
    "Asia/Dubai": ("GST", "Gulf Standard Time", None, None, "GT", "Gulf Time"),
    "Australia/Sydney": ("AEST", "Australian Eastern Standard Time", "AEDT", "Australian Eastern Daylight Time", "AET", "Eastern Australia Time"),
    "Australia/Lord_Howe": ("LHST", "Lord Howe Standard Time", "LHDT", "Lord Howe Daylight Time", "LHT", "Lord Howe Time"),
    "Pacific/Auckland": ("NZST", "New Zealand Standard Time", "NZDT", "New Zealand Daylight Time", "NZT", "New Zealand Time"),
    "Africa/Johannesburg": ("SAST", "South Africa Standard Time", "SAST", "South Africa Summer Time", "SAT", "South Africa Time"),
    "Pacific/Honolulu": ("HST", "Hawaii-Aleutian Standard Time", "HDT", "Hawaii-Aleutian Daylight Time", "HST", "Hawaii-Aleutian Time"),
}
_MJD_EPOCH = dt.date(1858, 11, 17)


def _field_value(field: str, local: dt.datetime) -> int:
    if field in ("year", "year_of_era"):
        return local.year
    if field == "month":
        return local.month
    if field == "quarter":
        return (local.month - 1) // 3 + 1
    if field == "day":
        return local.day
    if field == "day_of_year":
        return local.timetuple().tm_yday
    if field == "aligned_day_of_week_in_month":  # Java 17 maps F to it
        return (local.day - 1) % 7 + 1
    if field == "hour":
        return local.hour
    if field == "clock_hour":
        return local.hour or 24
    if field == "hour_of_ampm":
        return local.hour % 12
    if field == "clock_hour_of_ampm":
        return local.hour % 12 or 12
    if field == "minute":
        return local.minute
    if field == "second":
        return local.second
    if field == "fraction1":
        return local.microsecond // 100_000
    if field == "modified_julian_day":
        return (local.date() - _MJD_EPOCH).days
    raise AssertionError(field)


def _format_number(e: Number, value: int) -> str:
    """Java's ``NumberPrinterParser.format``: zero-padded to the minimum width, ``-`` for a
    negative value (a modified Julian day before 1858-11-17). EXCEEDS_PAD's ``+`` (a value of
    more digits than ``yyyy``'s four or more letters) needs a year past 9999, which Python's
    dates do not reach."""
    if e.reduced:
        value = abs(value) % 100
    digits = str(abs(value))
    return ("-" if value < 0 else "") + "0" * (e.min_width - len(digits)) + digits


def _format_offset(e: Offset, seconds: int) -> str:
    if seconds == 0:
        return e.no_offset
    hours, minutes, secs = abs(seconds) // 3600 % 100, abs(seconds) // 60 % 60, abs(seconds) % 60
    style = e.style
    colon = style % 2 == 0
    out = ("-" if seconds < 0 else "+") + f"{hours:02d}"
    output = hours
    if style >= 3 or minutes > 0:
        out += (":" if colon else "") + f"{minutes:02d}"
        output += minutes
        if style >= 5 and secs > 0:
            out += (":" if colon else "") + f"{secs:02d}"
            output += secs
    return e.no_offset if output == 0 else out


def _format_localized_offset(e: LocalizedOffset, seconds: int) -> str:
    if seconds == 0:
        return "GMT"
    hours, minutes, secs = abs(seconds) // 3600 % 100, abs(seconds) // 60 % 60, abs(seconds) % 60
    out = "GMT" + ("-" if seconds < 0 else "+")
    if e.full:
        out += f"{hours:02d}:{minutes:02d}" + (f":{secs:02d}" if secs else "")
    else:
        out += str(hours) + ((f":{minutes:02d}" + (f":{secs:02d}" if secs else "")) if minutes or secs else "")
    return out


def _format_text(e: Text, local: dt.datetime) -> str:
    if e.field == "era":
        return "Anno Domini" if e.full else "AD"  # years 1 to 9999 only
    if e.field == "month":
        name = _MONTHS[local.month - 1]
        return name if e.full else name[:3]
    if e.field == "quarter":
        quarter = (local.month - 1) // 3
        return _QUARTERS[quarter] if e.full else f"Q{quarter + 1}"
    if e.field == "day_of_week":
        name = _DAYS[local.weekday()]
        return name if e.full else name[:3]
    if e.field == "ampm":
        return "PM" if local.hour >= 12 else "AM"
    raise AssertionError(e.field)


def _format(elements, local: dt.datetime, offset_seconds: int, zone: str, out: list, daylight: bool = False) -> None:
    for e in elements:
        if isinstance(e, Literal):
            out.append(e.text)
        elif isinstance(e, Number):
            out.append(_format_number(e, _field_value(e.field, local)))
        elif isinstance(e, Fraction):
            out.append(f"{local.microsecond:06d}000"[:e.max_width])
        elif isinstance(e, Text):
            out.append(_format_text(e, local))
        elif isinstance(e, Offset):
            out.append(_format_offset(e, offset_seconds))
        elif isinstance(e, LocalizedOffset):
            out.append(_format_localized_offset(e, offset_seconds))
        elif isinstance(e, ZoneId):
            out.append(zone)
        elif isinstance(e, ZoneText):  # the zone is in ZONE_NAMES (checked when binding)
            names = ZONE_NAMES[zone]
            if e.letter[0] == "v":
                out.append(names[5] if len(e.letter) == 4 else names[4])
            else:
                out.append(names[(2 if daylight else 0) + (1 if len(e.letter) == 4 else 0)])
        elif isinstance(e, Optional):  # every field of a zoned date-time is there: always printed
            _format(e.elements, local, offset_seconds, zone, out, daylight)
        else:  # pragma: no cover - refused when compiled
            raise AssertionError(e)


def format_instant(compiled: CompiledPattern, value, zone: str) -> str:
    """``value`` formatted in the time zone ``zone``: an aware ``datetime`` (a TIMESTAMP) at its
    instant's local date-time; a naive one (a TIMESTAMP_NTZ) or a ``date`` (a DATE, its
    midnight) as Spark casts them to a TIMESTAMP, their wall-clock time in ``zone`` (in a gap
    moved forward by the gap, in an overlap the earlier offset), without converting them to UTC
    where Python cannot (the first hours of year 1 east of Greenwich)."""
    from zoneinfo import ZoneInfo

    from sparkcep.evaluation.day_time_intervals import resolve_local

    tz = ZoneInfo(zone)
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        # through UTC: an aware value in this zone at a wall-clock time of its gap is its
        # instant's local time only once normalized
        zoned = value.astimezone(_UTC).astimezone(tz)
    else:
        local = value if isinstance(value, dt.datetime) else dt.datetime(value.year, value.month, value.day)
        zoned = resolve_local(local, tz, None)
        try:
            zoned = zoned.astimezone(_UTC).astimezone(tz)  # a time in a gap, moved forward
        except OverflowError:  # at the ends of Python's calendar: no gap there
            pass
    offset = zoned.utcoffset()
    out: list[str] = []
    _format(compiled.elements, zoned.replace(tzinfo=None), offset.days * 86400 + offset.seconds, zone, out,
            bool(zoned.dst()))
    return "".join(out)


# ---- parsing ------------------------------------------------------------------------------------

class _Parse:
    """Java's ``DateTimeParseContext`` for one text: the parsed fields (case-insensitive, strict)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.fields: dict[str, int] = {}

    def set(self, fields: dict, field: str, value: int, error: int, success: int) -> int:
        old = fields.get(field)
        fields[field] = value
        return ~error if old is not None and old != value else success


def _same(a: str, b: str) -> bool:
    """Java's case-insensitive ``charEquals`` / ``subSequenceEquals`` of two strings."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x != y and not (len(x.upper()) == len(y.upper()) == 1 and x.upper() == y.upper()) and \
                not (len(x.lower()) == len(y.lower()) == 1 and x.lower() == y.lower()):
            return False
    return True


def _digit(c: str) -> int:
    return ord(c) - 48 if "0" <= c <= "9" else -1


def _parse_number(e: Number, text: str, position: int, fields: dict, ctx: _Parse) -> int:
    length = len(text)
    if position == length:
        return ~position
    sign = text[position]
    negative = positive = False
    if sign == "+":
        if not (e.sign == EXCEEDS_PAD):  # NORMAL refuses '+' when strict; NOT_NEGATIVE always
            return ~position
        positive = True
        position += 1
    elif sign == "-":
        if e.sign != NORMAL and e.sign != EXCEEDS_PAD:
            return ~position
        negative = True
        position += 1
    min_end = position + e.min_width
    if min_end > length:
        return ~position
    max_width = e.max_width + max(e.subsequent, 0)
    total = 0
    pos = position
    for attempt in range(2):
        max_end = min(pos + max_width, length)
        while pos < max_end:
            d = _digit(text[pos])
            pos += 1
            if d < 0:
                pos -= 1
                if pos < min_end:
                    return ~position
                break
            total = total * 10 + d
        if e.subsequent > 0 and attempt == 0:
            parsed = pos - position
            max_width = max(e.min_width, parsed - e.subsequent)
            pos, total = position, 0
        else:
            break
    if negative:
        if total == 0:
            return ~(position - 1)
        total = -total
    elif e.sign == EXCEEDS_PAD:
        parsed = pos - position
        if positive:
            if parsed <= e.min_width:
                return ~(position - 1)
        elif parsed > e.min_width:
            return ~position
    if e.reduced and pos - position == e.min_width and total >= 0:
        total += 2000
    return ctx.set(fields, e.field, total, position, pos)


def _parse_fraction(e: Fraction, text: str, position: int, fields: dict, ctx: _Parse) -> int:
    length = len(text)
    if position == length:
        return ~position
    min_end = position + e.min_width
    if min_end > length:
        return ~position
    max_end = min(position + e.max_width, length)
    total, pos = 0, position
    while pos < max_end:
        d = _digit(text[pos])
        if d < 0:  # at least the minimum of digits (1 in Spark's fractions)
            if pos < min_end:
                return ~position
            break
        pos += 1
        total = total * 10 + d
    digits = pos - position
    nanos = total * 10 ** (9 - digits) if digits else 0
    return ctx.set(fields, "nano", nanos, position, pos)


def _texts(e: Text) -> list[tuple[str, int]]:
    if e.field == "month":
        names = _MONTHS if e.full else [m[:3] for m in _MONTHS]
        pairs = [(name, k + 1) for k, name in enumerate(names)]
    elif e.field == "ampm":
        pairs = [("AM", 0), ("PM", 1)]
    elif e.field == "era":
        pairs = [("Anno Domini", 1), ("Before Christ", 0)] if e.full else [("AD", 1), ("BC", 0)]
    else:  # pragma: no cover - refused for parsing
        raise AssertionError(e.field)
    return sorted(pairs, key=lambda pair: -len(pair[0]))


def _parse_text(e: Text, text: str, position: int, fields: dict, ctx: _Parse) -> int:
    if position > len(text):
        return ~position
    for name, value in _texts(e):
        if _same(text[position:position + len(name)], name):
            return ctx.set(fields, e.field, value, position, position + len(name))
    return ~position


def _parse_offset(e: Offset, text: str, position: int, fields: dict, ctx: _Parse) -> int:
    length = len(text)
    if position == length:
        return ~position
    no_offset = e.no_offset
    if _same(text[position:position + len(no_offset)], no_offset):
        return ctx.set(fields, "offset", 0, position, position + len(no_offset))
    sign = text[position]
    if sign not in "+-":
        return ~position
    negative = -1 if sign == "-" else 1
    colon = e.style % 2 == 0
    array = [position + 1, 0, 0, 0]

    def digits(index: int) -> bool:
        pos = array[0]
        if pos < 0:
            return True
        if colon and index != 1:
            if pos + 1 > length or text[pos] != ":":
                return False
            pos += 1
        if pos + 2 > length:
            return False
        a, b = _digit(text[pos]), _digit(text[pos + 1])
        if a < 0 or b < 0:
            return False
        value = a * 10 + b
        if value > 59:
            return False
        array[index] = value
        array[0] = pos + 2
        return True

    def mandatory(ok: bool) -> None:
        if not ok:
            array[0] = ~array[0]

    style = e.style
    mandatory(digits(1))  # the padded hour
    if style in (1, 2):
        digits(2)
    elif style in (3, 4):
        mandatory(digits(2))
    else:  # 5, 6
        mandatory(digits(2))
        digits(3)
    if array[0] > 0:
        if array[1] > 23:
            raise _ParseAborted  # Java throws "Value out of range": the whole parse fails
        seconds = negative * (array[1] * 3600 + array[2] * 60 + array[3])
        return ctx.set(fields, "offset", seconds, position, array[0])
    return ~position


class _ParseAborted(Exception):
    """Java's parser threw (an index past the text, an offset hour past 23): the whole text fails
    to parse, also inside an optional section (``DateTimeFormatter.parse`` wraps the exception)."""


def _digit_at(text: str, index: int) -> int:
    """Java's ``getDigit(text, index)``, whose ``charAt`` throws past the text."""
    if index >= len(text):
        raise _ParseAborted
    return _digit(text[index])


def _two_digits(text: str, index: int) -> int | None:
    """The number of the two ASCII digits at ``index`` (both there), else None."""
    if index + 2 > len(text):
        return None
    a, b = _digit(text[index]), _digit(text[index + 1])
    return a * 10 + b if a >= 0 and b >= 0 else None


def _parse_localized_offset(e: LocalizedOffset, text: str, position: int, fields: dict, ctx: _Parse) -> int:
    """``O`` / ``OOOO`` / ``ZZZZ``: Java's ``LocalizedOffsetIdPrinterParser`` (locale US): ``GMT``
    (case-insensitive) alone is offset 0; then ``+H``, ``+HH``, ``+H:MM`` or ``+H:MM:SS`` (short)
    or ``+HH:MM`` and ``+HH:MM:SS`` (full). The minutes and seconds are not range-checked; the
    total is (``ZoneOffset``'s 18 hours, when resolving)."""
    if not _same(text[position:position + 3], "GMT"):
        return ~position
    pos = position + 3
    if pos == len(text) or text[pos] not in "+-":
        return ctx.set(fields, "offset", 0, position, pos)
    sign = -1 if text[pos] == "-" else 1
    pos += 1
    minutes = seconds = 0
    if e.full:
        first, second = _digit_at(text, pos), _digit_at(text, pos + 1)
        if pos + 2 >= len(text):
            raise _ParseAborted
        if first < 0 or second < 0 or text[pos + 2] != ":":
            return ~position
        hours = first * 10 + second
        first, second = _digit_at(text, pos + 3), _digit_at(text, pos + 4)
        if first < 0 or second < 0:
            return ~position
        minutes = first * 10 + second
        pos += 5
        if text[pos:pos + 1] == ":" and (value := _two_digits(text, pos + 1)) is not None:
            seconds, pos = value, pos + 3
    else:
        hours = _digit_at(text, pos)
        if hours < 0:
            return ~position
        pos += 1
        if pos < len(text):
            if (more := _digit(text[pos])) >= 0:
                hours, pos = hours * 10 + more, pos + 1
            if text[pos:pos + 1] == ":" and (value := _two_digits(text, pos + 1)) is not None:
                minutes, pos = value, pos + 3
                if text[pos:pos + 1] == ":" and (value := _two_digits(text, pos + 1)) is not None:
                    seconds, pos = value, pos + 3
    return ctx.set(fields, "offset", sign * (hours * 3600 + minutes * 60 + seconds), position, pos)


_ZONE_ID_OFFSET = Offset(6, "Z")  # Java's OffsetIdPrinterParser "+HH:MM:ss" after a zone id's prefix


def _parse_zone_id(text: str, position: int, fields: dict) -> int:
    """``VV``: Java's ``ZoneIdPrinterParser`` (case-insensitive): an offset (``+HH:MM[:ss]``),
    ``UT`` / ``UTC`` / ``GMT`` with or without such an offset, ``GMT0``, the longest region id
    of the JVM (``java_zone_ids``) the text starts with, or ``Z``. The zone is kept as a tzinfo
    (``fields["zone"]``, the last one parsed)."""
    length = len(text)
    if position >= length:
        return ~position
    first = text[position]
    if first in "+-":
        return _parse_prefixed_offset(text, position, position, fields, mandatory=True)
    if length >= position + 2:
        second = text[position + 1]
        if _same(first, "U") and _same(second, "T"):
            if length >= position + 3 and _same(text[position + 2], "C"):
                return _parse_prefixed_offset(text, position, position + 3, fields)
            return _parse_prefixed_offset(text, position, position + 2, fields)
        if _same(first, "G") and length >= position + 3 and _same(second, "M") and _same(text[position + 2], "T"):
            if length >= position + 4 and _same(text[position + 3], "0"):
                fields["zone"] = _UTC  # GMT0
                return position + 4
            return _parse_prefixed_offset(text, position, position + 3, fields)
    for size in _REGION_ID_LENGTHS:  # the longest id first
        if position + size > length:
            continue
        region = _region_ids_by_key().get(_case_key(text[position:position + size]))
        if region is not None:
            fields["zone"] = _region_zone(region)
            return position + size
    if _same(first, "Z"):
        fields["zone"] = _UTC
        return position + 1
    return ~position


def _parse_prefixed_offset(text: str, prefix_start: int, position: int, fields: dict, mandatory: bool = False) -> int:
    """Java's ``parseOffsetBased``: the prefix (``UTC``, ``GMT``, ``UT`` or none) alone, or with
    an offset ``+HH:MM[:ss]`` that ``ZoneOffset`` accepts (at most 18 hours)."""
    if position >= len(text) or text[position] == "0" or _same(text[position], "Z"):
        fields["zone"] = _UTC
        return position
    scratch: dict = {}
    end = _parse_offset(_ZONE_ID_OFFSET, text, position, scratch, _Parse(text))
    if end < 0:
        if mandatory:
            return ~prefix_start
        fields["zone"] = _UTC
        return position
    if abs(scratch["offset"]) > _MAX_OFFSET_SECONDS:
        return ~prefix_start
    fields["zone"] = dt.timezone(dt.timedelta(seconds=scratch["offset"]))
    return end


_MAX_OFFSET_SECONDS = 18 * 3600  # ZoneOffset's range


def _case_key(text: str) -> str:
    """A key equal for texts Java's case-insensitive ``charEquals`` finds equal, char by char
    (the upper cases equal or the lower cases: the Kelvin sign is k, a long s is s)."""
    return "".join(c.upper().lower() if len(c.upper()) == 1 else c.lower() for c in text)


@lru_cache(maxsize=1)
def _region_ids_by_key() -> dict[str, str]:
    from sparkcep.evaluation.java_zone_ids import JAVA_REGION_IDS

    return {_case_key(region): region for region in JAVA_REGION_IDS}


def _region_id_lengths() -> tuple[int, ...]:
    from sparkcep.evaluation.java_zone_ids import JAVA_REGION_IDS

    return tuple(sorted({len(region) for region in JAVA_REGION_IDS}, reverse=True))


_REGION_ID_LENGTHS = _region_id_lengths()


def _region_zone(region: str) -> dt.tzinfo:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    from sparkcep.errors import MatchRuntimeError

    try:
        return ZoneInfo(region)
    except (ZoneInfoNotFoundError, ValueError):
        raise MatchRuntimeError(
            "TIME_ZONE_UNKNOWN_TO_PYTHON",
            f"a datetime pattern's zone id (VV) between rows of a match read '{region}', which Spark's JVM knows and "
            "Python's tz database does not; parse it inside the navigation") from None


def _parse(elements, text: str, position: int, fields: dict, ctx: _Parse) -> int:
    for e in elements:
        if isinstance(e, Literal):
            piece = e.text
            if not _same(text[position:position + len(piece)], piece):
                return ~position
            position += len(piece)
            continue
        if isinstance(e, Optional):
            trial = dict(fields)
            result = _parse(e.elements, text, position, trial, ctx)
            if result >= 0:
                fields.clear()
                fields.update(trial)
                position = result
            continue
        if isinstance(e, Number):
            position = _parse_number(e, text, position, fields, ctx)
        elif isinstance(e, Fraction):
            position = _parse_fraction(e, text, position, fields, ctx)
        elif isinstance(e, Text):
            position = _parse_text(e, text, position, fields, ctx)
        elif isinstance(e, Offset):
            position = _parse_offset(e, text, position, fields, ctx)
        elif isinstance(e, LocalizedOffset):
            position = _parse_localized_offset(e, text, position, fields, ctx)
        elif isinstance(e, ZoneId):
            position = _parse_zone_id(text, position, fields)
        else:  # pragma: no cover - refused when compiled
            raise AssertionError(e)
        if position < 0:
            return position
    return position


_RANGES = {"year": (-999_999_999, 999_999_999), "month": (1, 12), "day": (1, 31), "day_of_year": (1, 366),
           "hour": (0, 23), "clock_hour": (1, 24), "hour_of_ampm": (0, 11), "clock_hour_of_ampm": (1, 12),
           "ampm": (0, 1), "minute": (0, 59), "second": (0, 59), "nano": (0, 999_999_999)}


class _Invalid(Exception):
    """The parsed fields do not make a date-time (Java's ``DateTimeException``)."""


def _valid(field: str, value: int) -> int:
    low, high = _RANGES[field]
    if not low <= value <= high:
        raise _Invalid(field)
    return value


def _ymd(year: int, month: int, day: int) -> tuple[int, int, int]:
    """``LocalDate.of``: a proleptic-Gregorian date of any year Java holds."""
    _valid("year", year)
    _valid("month", month)
    _valid("day", day)
    if day > month_length(year, month):
        raise _Invalid("date")
    return year, month, day


def _year_day(year: int, day_of_year: int) -> tuple[int, int, int]:
    _valid("year", year)
    _valid("day_of_year", day_of_year)
    if day_of_year == 366 and month_length(year, 2) == 28:
        raise _Invalid("date")
    month = 1
    while day_of_year > month_length(year, month):
        day_of_year -= month_length(year, month)
        month += 1
    return year, month, day_of_year


def _put(fields: dict, field: str, value: int) -> None:
    old = fields.get(field)
    if old is not None and old != value:
        raise _Invalid("conflict")
    fields[field] = value


def _resolve(fields: dict) -> tuple[tuple[int, int, int], tuple[int, int, int, int], dt.tzinfo | None]:
    """Java's STRICT resolution of the parsed fields, then Spark's defaults
    (``DateTimeFormatterHelper.toLocalDate`` / ``toLocalTime``): ((y, m, d), (h, min, s, nanos),
    the zone: the parsed zone id, else the parsed offset, else None). Raises ``_Invalid``."""
    f = dict(fields)
    offset = f.pop("offset", None)
    if offset is not None and abs(offset) > _MAX_OFFSET_SECONDS:
        raise _Invalid("offset")
    zone = f.pop("zone", None)  # Spark asks for the zone: a zone id wins over an offset
    if zone is None and offset is not None:
        zone = dt.timezone(dt.timedelta(seconds=offset))
    date = None
    if "modified_julian_day" in f:  # JulianFields.MODIFIED_JULIAN_DAY: an epoch day, LocalDate's range
        epoch_day = f.pop("modified_julian_day") - _MJD_OF_EPOCH
        if not _MIN_EPOCH_DAY <= epoch_day <= _MAX_EPOCH_DAY:
            raise _Invalid("modified_julian_day")
        date = date_of_epoch_days(epoch_day)
    if "era" in f and "year_of_era" in f:  # IsoChronology.resolveYearOfEra (STRICT)
        era, year_of_era = f.pop("era"), f.pop("year_of_era")
        if not 1 <= year_of_era <= 1_000_000_000:
            raise _Invalid("year_of_era")
        _put(f, "year", year_of_era if era == 1 else 1 - year_of_era)
    # a year of era without an era stays unresolved (STRICT invents no era): no year
    if "clock_hour" in f:
        v = _valid("clock_hour", f.pop("clock_hour"))
        _put(f, "hour", 0 if v == 24 else v)
    if "clock_hour_of_ampm" in f:
        v = _valid("clock_hour_of_ampm", f.pop("clock_hour_of_ampm"))
        _put(f, "hour_of_ampm", 0 if v == 12 else v)
    if "ampm" in f and "hour_of_ampm" in f:
        ap, hap = _valid("ampm", f.pop("ampm")), _valid("hour_of_ampm", f.pop("hour_of_ampm"))
        _put(f, "hour", ap * 12 + hap)
    time = None
    if "hour" in f:
        minute, second, nano = f.get("minute"), f.get("second"), f.get("nano")
        if not ((minute is None and (second is not None or nano is not None)) or
                (minute is not None and second is None and nano is not None)):
            time = (_valid("hour", f.pop("hour")), _valid("minute", minute or 0), _valid("second", second or 0),
                    _valid("nano", nano or 0))
            f.pop("minute", None), f.pop("second", None), f.pop("nano", None)
    if date is None and "year" in f:
        if "month" in f and "day" in f:
            date = _ymd(f.pop("year"), f.pop("month"), f.pop("day"))
        elif "day_of_year" in f:
            date = _year_day(f.pop("year"), f.pop("day_of_year"))
    # cross-check what is left against what was resolved (Java's Parsed.crossCheck)
    if date is not None:
        year, month, day = date
        for field, value in (("month", month), ("day", day), ("year", year)):
            if field in f and f.pop(field) != value:
                raise _Invalid("conflict")
        if "day_of_year" in f:
            doy = sum(month_length(year, k) for k in range(1, month)) + day
            if f.pop("day_of_year") != doy:
                raise _Invalid("conflict")
        if "year_of_era" in f and f.pop("year_of_era") != (year if year >= 1 else 1 - year):
            raise _Invalid("conflict")
        if "era" in f and f.pop("era") != (1 if year >= 1 else 0):
            raise _Invalid("conflict")
    if time is not None:
        if "ampm" in f and f.pop("ampm") != time[0] // 12:
            raise _Invalid("conflict")
        if "hour_of_ampm" in f and f.pop("hour_of_ampm") != time[0] % 12:
            raise _Invalid("conflict")
    if date is None:
        date = _ymd(_valid("year", f["year"]) if "year" in f else 1970, _valid("month", f.get("month", 1)),
                    _valid("day", f.get("day", 1)))
    if time is None:
        if "hour" in f:
            hour = _valid("hour", f["hour"])
        elif "hour_of_ampm" in f:
            hour = _valid("hour_of_ampm", f["hour_of_ampm"])
        elif f.get("ampm") == 1:
            hour = 12
        else:
            hour = 0
        time = (hour, _valid("minute", f.get("minute", 0)), _valid("second", f.get("second", 0)),
                _valid("nano", f.get("nano", 0)))
    return date, time, zone


_MJD_OF_EPOCH = 40587  # the modified Julian day of 1970-01-01
_MIN_EPOCH_DAY, _MAX_EPOCH_DAY = -365243219162, 365241780471  # LocalDate.MIN and MAX


def parse_fields(compiled: CompiledPattern, text: str):
    """``text`` read with the pattern: ((year, month, day), (hour, minute, second, nanos), the
    parsed zone or offset as a tzinfo or None) of any year Java holds, or None when Spark's
    parser fails."""
    ctx = _Parse(text)
    fields: dict = {}
    try:
        end = _parse(compiled.elements, text, 0, fields, ctx)
    except _ParseAborted:
        return None
    if end < 0 or end != len(text):
        return None
    try:
        return _resolve(fields)
    except _Invalid:
        return None


def parsed_epoch_micros(parsed, zone: str) -> int:
    """The microseconds since 1970-01-01 00:00 UTC of parsed fields (``parse_fields``) of any
    year: in the parsed zone or offset, or else the session time zone ``zone``, at that local
    date-time (``epoch_micros_of_local``)."""
    from zoneinfo import ZoneInfo

    (year, month, day), (hour, minute, second, nano), parsed_zone = parsed
    tz = ZoneInfo(zone) if parsed_zone is None else parsed_zone
    return epoch_micros_of_local(year, month, day, hour, minute, second, nano // 1000, tz)


def local_of_instant(micros: int, zone: str) -> dt.datetime:
    """The local date-time (naive) in ``zone`` of an instant, also where Python's UTC cannot
    hold the instant but can its local date-time (the first hours of year 1 east of Greenwich,
    the last of 9999 west of it: read with the zone's offset at that end of the calendar).
    Raises ``OverflowError``."""
    from zoneinfo import ZoneInfo

    tz = ZoneInfo(zone)
    try:
        return (_EPOCH + dt.timedelta(microseconds=micros)).astimezone(tz).replace(tzinfo=None)
    except OverflowError:
        edge = dt.datetime(1, 1, 2) if micros < 0 else dt.datetime(9999, 12, 30)
        return dt.datetime(1970, 1, 1) + (dt.timedelta(microseconds=micros) + tz.utcoffset(edge))


# ---- the functions, over non-NULL values (interpreter.typed_function) -------------------------------

DEFAULT_PATTERN = "yyyy-MM-dd HH:mm:ss"  # from_unixtime's and unix_timestamp's default


def _out_of_range(function: str):
    from sparkcep.errors import MatchRuntimeError

    return MatchRuntimeError(
        "DATETIME_OUT_OF_PYTHON_RANGE",
        f"{function} in a DEFINE expression reads or makes a date-time before 0001-01-01 or after 9999-12-31 "
        "in the session time zone: Spark holds such values, sparkcep's Python side does not; compute it inside "
        "the navigation, where Spark does")


@lru_cache(maxsize=None)
def formatter(pattern: str, zone: str, function: str = "date_format"):
    """``date_format(x, pattern)`` of a TIMESTAMP, TIMESTAMP_NTZ or DATE (``format_instant``), in
    the session time zone ``zone``."""
    compiled = compile_pattern(pattern, False)

    def format_timestamp(value: dt.datetime) -> str:
        try:
            return format_instant(compiled, value, zone)
        except OverflowError:
            raise _out_of_range(function) from None

    return format_timestamp


@lru_cache(maxsize=None)
def unixtime_formatter(pattern: str, zone: str):
    """``from_unixtime(seconds, pattern)`` of a BIGINT."""
    from zoneinfo import ZoneInfo

    format_timestamp = formatter(pattern, zone, "from_unixtime")
    compiled = compile_pattern(pattern, False)

    def from_unixtime(seconds: int) -> str:
        try:
            return format_timestamp(_EPOCH + dt.timedelta(seconds=seconds))
        except OverflowError:
            pass
        try:  # an instant Python's UTC cannot hold whose local date-time it can
            local = local_of_instant(seconds * 1_000_000, zone)
            offset = (local - dt.datetime(1970, 1, 1)) - dt.timedelta(seconds=seconds)
            out: list[str] = []
            daylight = bool(ZoneInfo(zone).dst(local))  # a naive local date-time: its offset's
            _format(compiled.elements, local, offset.days * 86400 + offset.seconds, zone, out, daylight)
            return "".join(out)
        except OverflowError:
            raise _out_of_range("from_unixtime") from None

    return from_unixtime


@lru_cache(maxsize=None)
def parser(name: str, pattern: str, zone: str, ansi: bool, tolerant: bool, function: str):
    """``to_timestamp`` (an aware TIMESTAMP), ``to_timestamp_ntz`` (naive), ``to_date`` (the
    instant's date in ``zone``) or ``unix_timestamp_of_string`` (seconds, toward zero) of a
    STRING read with ``pattern``. Text Spark's parser does not read gives NULL, or with ANSI on
    (and not a ``try_`` form) Spark's ``CANNOT_PARSE_TIMESTAMP``."""
    from zoneinfo import ZoneInfo

    from sparkcep.errors import MatchRuntimeError

    from sparkcep.evaluation.day_time_intervals import resolve_local

    compiled = compile_pattern(pattern, True)
    tz = ZoneInfo(zone)
    hint = "try_to_date" if name == "to_date" else "try_to_timestamp"

    def failed(text: str):
        if ansi and not tolerant:
            raise MatchRuntimeError(
                "CANNOT_PARSE_TIMESTAMP",
                f"Text '{text}' could not be parsed with the pattern '{pattern}' by {function}. Use `{hint}` to "
                "tolerate invalid input string and return NULL instead")
        return None

    def parse(text: str):
        parsed = parse_fields(compiled, text)
        if parsed is None:
            return failed(text)
        try:
            if name in ("unix_timestamp_of_string", "to_date"):
                micros = parsed_epoch_micros(parsed, zone)
                if name == "to_date":  # the instant's date in the session time zone
                    return local_of_instant(micros, zone).date()
                if not -2**63 <= micros < 2**63:  # Spark's microseconds overflow (a Java error)
                    raise OverflowError
                return abs(micros) // 1_000_000 * (1 if micros >= 0 else -1)  # Java's / : toward zero
            (year, month, day), (hour, minute, second, nano), parsed_zone = parsed
            if not 1 <= year <= 9999:
                raise OverflowError
            local = dt.datetime(year, month, day, hour, minute, second, nano // 1000)
            if name == "to_timestamp_ntz":  # a zone or offset in the text is read and ignored
                return local
            return resolve_local(local, tz if parsed_zone is None else parsed_zone, None).astimezone(_UTC)
        except OverflowError:
            raise _out_of_range(function) from None

    return parse
