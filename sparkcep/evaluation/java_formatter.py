"""Spark's ``format_string`` / ``printf`` over values that combine rows of a match: Java's
``java.util.Formatter`` (Java 17, ``Locale.US``), given the Java objects Spark passes for
Catalyst's values (``FormatString.eval``).

Spark passes each argument as its internal value, boxed: a TINYINT a ``Byte``, a SMALLINT a
``Short``, an INT and a DATE (days since 1970-01-01) an ``Integer``, a BIGINT, a TIMESTAMP, a
TIMESTAMP_NTZ and a day-time interval (microseconds) a ``Long``, a BOOLEAN a ``Boolean``, a
STRING a ``UTF8String`` (printed by its ``toString``), a DECIMAL Spark's own ``Decimal`` (not a
``BigDecimal``: only ``%s``, ``%b`` and ``%h`` take it, ``%s`` printing Java's
``BigDecimal.toString`` of the exact value, ``1E-10`` for 0.0000000001), a DOUBLE a ``Double``,
a FLOAT a ``Float``, NULL ``null``. What this module does with them is Java's:

* ``parse`` reads the format as ``Formatter.parse`` does: fixed text, and specifiers
  ``%[index$][flags][width][.precision]conversion`` (Java's regular expression, ASCII digits),
  each checked as Java checks it when parsing (flags a conversion does not take, ``-`` or ``0``
  without a width, a precision for ``%d`` or ``%c``, a duplicate flag, ...). Its errors are
  raised when the format is applied, as Java raises them before printing anything.
* ``apply`` prints the specifiers in order; an argument is taken by an ordinary specifier (the
  next one), by an explicit index (``%2$s``, which leaves the ordinary count as it is) or by
  ``<`` (the last one taken). A missing argument is ``MissingFormatArgumentException`` when its
  specifier is reached. NULL prints ``null`` (``false`` for ``%b``) whatever the conversion,
  before any check of the argument's class; otherwise an argument of a class the conversion
  does not take is ``IllegalFormatConversionException``.
* Lengths are Java's: widths and precisions count UTF-16 code units, so a precision can cut a
  character outside the BMP in half, and the lone surrogate left becomes ``?`` when Spark makes
  the result a ``UTF8String`` (two halves printed side by side by ``%c`` join again).
  ``%S`` upper-cases with the full mappings (``ß`` is ``SS``) after the precision cut.
* ``%h`` prints ``Integer.toHexString(arg.hashCode())``: a STRING's is Spark's
  ``UTF8String.hashCode``, Murmur3 of its UTF-8 bytes with seed 42 (``hash_functions``).

Every Java exception is sparkcep's ``ILLEGAL_FORMAT`` (Java's ``IllegalFormatException``, the
superclass of all of them; Spark raises it without an error class), its message Java's. The
binding refuses what is not reproduced (``binding.formatting``): a format that is not a literal,
``%t`` / ``%T`` (Java reads the number as epoch milliseconds in the JVM's default time zone),
a DOUBLE or FLOAT taken by ``%e``, ``%f``, ``%g`` or ``%a`` (their digits depend on the Java
version; ``%s`` prints ``Double.toString`` / ``Float.toString`` with ``java_double_text``),
``%h`` of a DECIMAL (Scala's ``BigDecimal.hashCode``), and BINARY, ARRAY, MAP and STRUCT
arguments (Java prints an identity hash for them).
"""

from __future__ import annotations

import datetime as dt
import math
import re
import struct
from dataclasses import dataclass
from decimal import Context, Decimal
from functools import lru_cache

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation import java_double_text
from sparkcep.evaluation.hash_functions import SEED, murmur3_bytes

_EXACT = Context(prec=100)  # a DECIMAL(38, s) quantized to its own scale, never rounded
# the longest result sparkcep builds (a width read from the format makes the padding)
MAX_RESULT = 1 << 20

# Java's regular expression for a specifier (Formatter's formatSpecifier); [0-9], as Java's \d
_SPECIFIER = re.compile(r"%([0-9]+\$)?([-#+ 0,(<]*)?([0-9]+)?(\.[0-9]+)?([tT])?([a-zA-Z%])")
# Conversion.isValid: the conversions read by the one-character fast path
_VALID = frozenset("bBhHsScCdoxXeEgGfaA%n")
# DateTime.isValid: the conversions after %t / %T
_DATE_TIME = frozenset("HIklMSLNpzZsQBbhAaCYyjmdeRTrDFc")
_FLAG_ORDER = "-^#+ 0,(<"  # Flags.toString's order ('^' is UPPERCASE, never written by a user)
_INT_MAX = (1 << 31) - 1

# the Java class Spark passes for a Spark type (the name in IllegalFormatConversionException)
JAVA_CLASSES = {
    "tinyint": "java.lang.Byte", "smallint": "java.lang.Short", "int": "java.lang.Integer",
    "date": "java.lang.Integer", "bigint": "java.lang.Long", "timestamp": "java.lang.Long",
    "timestamp_ntz": "java.lang.Long", "interval": "java.lang.Long", "boolean": "java.lang.Boolean",
    "string": "org.apache.spark.unsafe.types.UTF8String", "decimal": "org.apache.spark.sql.types.Decimal",
    "double": "java.lang.Double", "float": "java.lang.Float",
}
_INTEGRAL_BITS = {"java.lang.Byte": 8, "java.lang.Short": 16, "java.lang.Integer": 32, "java.lang.Long": 64}


class JavaFormatError(Exception):
    """A ``java.util.IllegalFormatException``: ``name`` its class's simple name."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"java.util.{name}: {message}")
        self.name = name


def _flags_text(flags: str) -> str:
    return "".join(f for f in _FLAG_ORDER if f in flags)


@dataclass(frozen=True)
class Specifier:
    """One ``%...`` of the format (Java's ``FormatSpecifier``); ``index``: -2 for ``%n`` and
    ``%%`` (no argument), -1 for ``<``, 0 for the next ordinary argument, n > 0 for ``n$``.
    ``flags`` holds Java's flag characters, ``^`` for an upper-case conversion."""

    index: int
    flags: str
    width: int
    precision: int
    conversion: str  # lower case
    date_time: bool = False

    def __str__(self) -> str:  # FormatSpecifier.toString, as Java's messages show it
        text = "%" + _flags_text(self.flags.replace("^", ""))
        if self.index > 0:
            text += f"{self.index}$"
        if self.width != -1:
            text += str(self.width)
        if self.precision != -1:
            text += f".{self.precision}"
        if self.date_time:
            text += "T" if "^" in self.flags else "t"
        return text + (self.conversion.upper() if "^" in self.flags else self.conversion)


def _mismatch(flag: str, conversion: str) -> JavaFormatError:
    return JavaFormatError("FormatFlagsConversionMismatchException", f"Conversion = {conversion}, Flags = {flag}")


def _bad_flags(flags: str, bad: str, conversion: str) -> None:
    for flag in bad:  # checkBadFlags: in the order given
        if flag in flags:
            raise _mismatch(flag, conversion)


def _java_int(text: str, error: str) -> int:
    value = int(text)
    if value > _INT_MAX:  # Integer.parseInt fails: Java 17 reports the smallest int
        raise JavaFormatError(error, "Format argument index: (not representable as int)"
                              if error == "IllegalFormatArgumentIndexException" else str(-(1 << 31)))
    return value


def _specifier(match: re.Match) -> Specifier:
    """FormatSpecifier(String, Matcher): the parts read in order, then checked per conversion."""
    index_text, flag_text, width_text, precision_text, date_time, conversion = match.groups()
    index = 0
    if index_text is not None:
        index = _java_int(index_text[:-1], "IllegalFormatArgumentIndexException")
        if index <= 0:
            raise JavaFormatError("IllegalFormatArgumentIndexException", f"Illegal format argument index = {index}")
    flags = ""
    for flag in flag_text or "":
        if flag in flags:
            raise JavaFormatError("DuplicateFormatFlagsException", f"Flags = '{flag}'")
        flags += flag
    if "<" in flags:
        index = -1
    width = -1 if width_text is None else _java_int(width_text, "IllegalFormatWidthException")
    precision = -1 if precision_text is None else _java_int(precision_text[1:], "IllegalFormatPrecisionException")
    if date_time is not None:
        if conversion not in _DATE_TIME:
            raise JavaFormatError("UnknownFormatConversionException", f"Conversion = '{date_time}{conversion}'")
        if date_time == "T":
            flags += "^"
        return Specifier(index, flags, width, precision, conversion, True)  # refused at binding
    if conversion not in _VALID:
        raise JavaFormatError("UnknownFormatConversionException", f"Conversion = '{conversion}'")
    if conversion.isupper():
        flags += "^"
        conversion = conversion.lower()
    if conversion in "n%":
        index = -2
    spec = Specifier(index, flags, width, precision, conversion)
    _check(spec)
    return spec


def _check(s: Specifier) -> None:
    c, f = s.conversion, s.flags
    if c in "bhs":  # checkGeneral
        if c in "bh" and "#" in f:
            raise _mismatch("#", c)
        if s.width == -1 and "-" in f:
            raise JavaFormatError("MissingFormatWidthException", str(s))
        _bad_flags(f, "+ 0,(", c)
    elif c == "c":  # checkCharacter
        if s.precision != -1:
            raise JavaFormatError("IllegalFormatPrecisionException", str(s.precision))
        _bad_flags(f, "#+ 0,(", c)
        if s.width == -1 and "-" in f:
            raise JavaFormatError("MissingFormatWidthException", str(s))
    elif c in "doxefga":  # checkInteger / checkFloat, both checkNumeric first
        if s.width == -1 and ("-" in f or "0" in f):
            raise JavaFormatError("MissingFormatWidthException", str(s))
        if ("+" in f and " " in f) or ("-" in f and "0" in f):
            raise JavaFormatError("IllegalFormatFlagsException", f"Flags = '{_flags_text(f)}'")
        if c in "dox":
            if s.precision != -1:
                raise JavaFormatError("IllegalFormatPrecisionException", str(s.precision))
            _bad_flags(f, "#" if c == "d" else ",", c)
        elif c == "a":
            _bad_flags(f, "(,", c)
        elif c == "e":
            _bad_flags(f, ",", c)
        elif c == "g":
            _bad_flags(f, "#", c)
    else:  # checkText: %% and %n
        if s.precision != -1:
            raise JavaFormatError("IllegalFormatPrecisionException", str(s.precision))
        if c == "%":
            if f.replace("^", "") not in ("", "-"):
                raise JavaFormatError("IllegalFormatFlagsException", f"Flags = '{_flags_text(f)}'")
            if s.width == -1 and "-" in f:
                raise JavaFormatError("MissingFormatWidthException", str(s))
        else:
            if s.width != -1:
                raise JavaFormatError("IllegalFormatWidthException", str(s.width))
            if f:
                raise JavaFormatError("IllegalFormatFlagsException", f"Flags = '{_flags_text(f)}'")


@lru_cache(maxsize=256)
def parse(format_text: str) -> tuple[str | Specifier, ...]:
    """The format's fixed texts and specifiers (``Formatter.parse``); raises
    ``JavaFormatError`` as Java does."""
    parts: list[str | Specifier] = []
    i, end = 0, len(format_text)
    while i < end:
        n = format_text.find("%", i)
        if n < 0:
            parts.append(format_text[i:])
            break
        if n != i:
            parts.append(format_text[i:n])
        i = n + 1
        if i >= end:
            raise JavaFormatError("UnknownFormatConversionException", "Conversion = '%'")
        c = format_text[i]
        if c in _VALID:  # the fast path: no flags, width or precision
            upper = c.isupper()
            lower = c.lower()
            parts.append(Specifier(-2 if lower in "n%" else 0, "^" if upper else "", -1, -1, lower))
            i += 1
            continue
        match = _SPECIFIER.match(format_text, n)
        if match is None:
            raise JavaFormatError("UnknownFormatConversionException", f"Conversion = '{c}'")
        parts.append(_specifier(match))
        i = match.end()
    return tuple(parts)


def _position(part: Specifier, last: int, lasto: int) -> tuple[int, int, int]:
    """The argument ``part`` prints (0-based), and Java's ``last`` (the one printed last) and
    ``lasto`` (the last ordinary one) after it: ``%<s`` the last again, ``%s`` the next
    ordinary one, ``%2$s`` the second (which does not move the ordinary count)."""
    if part.index == -1:
        return last, last, lasto
    if part.index == 0:
        return lasto + 1, lasto + 1, lasto + 1
    return part.index - 1, part.index - 1, lasto


def argument_positions(parts: tuple[str | Specifier, ...], count: int) -> list[tuple[Specifier, int | None]]:
    """Each specifier with the argument it prints (0-based; None for ``%n`` / ``%%``), as
    ``Formatter.format`` assigns them, up to the first missing one (which Java reports when it
    reaches it). The assignment depends on the format alone, not on the values."""
    out: list[tuple[Specifier, int | None]] = []
    last = lasto = -1
    for part in parts:
        if isinstance(part, str):
            continue
        if part.index == -2:
            out.append((part, None))
            continue
        position, last, lasto = _position(part, last, lasto)
        if position < 0 or position > count - 1:
            break
        out.append((part, position))
    return out


# -- printing -------------------------------------------------------------------------------

def _units(text: str) -> int:
    """The length of ``text`` in UTF-16 code units (Java's ``String.length``)."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def _cut(text: str, units: int) -> str:
    """Java's ``substring(0, units)``: a character outside the BMP cut in half leaves its high
    surrogate."""
    out, used = [], 0
    for ch in text:
        size = 2 if ord(ch) > 0xFFFF else 1
        if used + size > units:
            if used < units:  # half of a pair
                out.append(chr(0xD800 + ((ord(ch) - 0x10000) >> 10)))
            break
        out.append(ch)
        used += size
    return "".join(out)


def _justified(s: Specifier, text: str) -> str:
    if s.width == -1:
        return text
    pad = " " * max(0, s.width - _units(text))
    return text + pad if "-" in s.flags else pad + text


def _print_text(s: Specifier, text: str) -> str:
    """FormatSpecifier.print(String): the precision cut, upper case, the width."""
    if s.precision != -1 and s.precision < _units(text):
        text = _cut(text, s.precision)
    if "^" in s.flags:
        text = text.upper()
    return _justified(s, text)


def _illegal_conversion(s: Specifier, java_class: str) -> JavaFormatError:
    return JavaFormatError("IllegalFormatConversionException", f"{s.conversion} != {java_class}")


def _grouped(digits: str) -> str:
    head = len(digits) % 3 or 3
    return ",".join([digits[:head]] + [digits[k:k + 3] for k in range(head, len(digits), 3)])


def _print_integer(s: Specifier, value: int, bits: int) -> str:
    """FormatSpecifier.print(byte / short / int / long) for %d, %o, %x."""
    f = s.flags
    if s.conversion == "d":
        negative = value < 0
        out = ("(" if "(" in f else "-") if negative else ("+" if "+" in f else " " if " " in f else "")
        digits = str(abs(value))
        out += _grouped(digits) if "," in f else digits
        width = s.width - 1 if s.width != -1 and negative and "(" in f else s.width
        if width != -1 and "0" in f and len(out) < width:
            sign = 1 if out[:1] in ("-", "(", "+", " ") else 0
            out = out[:sign] + "0" * (width - len(out)) + out[sign:]
        if negative and "(" in f:
            out += ")"
        return _justified(s, out)
    _bad_flags(f, "( +", s.conversion)  # checked only when a value is printed
    if value < 0:  # Java adds 2^8, 2^16 or 2^32 to a negative Byte, Short or Integer; a Long's bits
        value += 1 << bits
    digits = format(value, "o" if s.conversion == "o" else "x")
    prefix = ("0" if s.conversion == "o" else ("0X" if "^" in f else "0x")) if "#" in f else ""
    zeros = "0" * max(0, s.width - len(prefix) - len(digits)) if "0" in f else ""
    if "^" in f:
        digits = digits.upper()
    return _justified(s, prefix + zeros + digits)


def _hash_code(java_class: str, value) -> int:
    """``arg.hashCode()`` of the Java object Spark passes, as an unsigned 32-bit number (what
    ``Integer.toHexString`` prints)."""
    if java_class == "java.lang.Boolean":
        return 1231 if value else 1237
    if java_class in ("java.lang.Byte", "java.lang.Short", "java.lang.Integer"):
        return value & 0xFFFFFFFF
    if java_class in ("java.lang.Long", "java.lang.Double"):  # (int) (bits ^ bits >>> 32)
        bits = value if java_class == "java.lang.Long" else (  # doubleToLongBits: NaN canonical
            0x7FF8000000000000 if math.isnan(value) else struct.unpack("<q", struct.pack("<d", value))[0])
        bits &= 0xFFFFFFFFFFFFFFFF
        return (bits ^ (bits >> 32)) & 0xFFFFFFFF
    if java_class == "java.lang.Float":  # floatToIntBits: NaN canonical
        return 0x7FC00000 if math.isnan(value) else struct.unpack("<I", struct.pack("<f", value))[0]
    if java_class == JAVA_CLASSES["string"]:
        return murmur3_bytes(value.encode("utf-8"), SEED) & 0xFFFFFFFF
    raise ValueError(java_class)  # DECIMAL: refused at binding


def _print(s: Specifier, java_class: str, value, java_version: int = 17) -> str:
    """FormatSpecifier.print of one non-NULL argument (a Double's or Float's ``toString`` as
    the JVM of ``java_version`` prints it)."""
    c = s.conversion
    if c == "b":
        return _print_text(s, ("true" if value else "false") if java_class == "java.lang.Boolean" else "true")
    if c == "h":
        return _print_text(s, format(_hash_code(java_class, value), "x"))
    if c == "s":
        if "#" in s.flags:  # none of Spark's values is Formattable
            raise _mismatch("#", "s")
        return _print_text(s, _to_string(java_class, value, java_version))
    if c == "c":
        if java_class not in ("java.lang.Byte", "java.lang.Short", "java.lang.Integer"):
            raise _illegal_conversion(s, java_class)
        if not 0 <= value <= 0x10FFFF:
            raise JavaFormatError("IllegalFormatCodePointException", f"Code point = 0x{value & 0xFFFFFFFF:x}")
        return _print_text(s, chr(value))
    if c in "dox":
        bits = _INTEGRAL_BITS.get(java_class)
        if bits is None:
            raise _illegal_conversion(s, java_class)
        return _print_integer(s, value, bits)
    # %e %f %g %a: only a Double or Float (refused at binding) or a BigDecimal (never passed)
    raise _illegal_conversion(s, java_class)


def _to_string(java_class: str, value, java_version: int) -> str:
    if java_class == "java.lang.Boolean":
        return "true" if value else "false"
    if java_class == "java.lang.Double":
        return java_double_text.double_text(value, java_version)
    if java_class == "java.lang.Float":
        return java_double_text.float_text(value, java_version)
    if java_class == JAVA_CLASSES["decimal"]:
        return str(value)  # BigDecimal.toString's scientific form is Python's (General Decimal Arithmetic)
    return str(value)  # integers, a UTF8String's text


def _spark_string(text: str) -> str:
    """``UTF8String.fromString`` of Java's result: surrogate halves printed next to each other
    join, a lone one becomes ``?`` (Java's UTF-8 encoder's replacement)."""
    if not any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        return text
    joined = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return "".join("?" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in joined)


def java_value(spark_type: str, value):
    """The number Spark boxes for a DATE (days), TIMESTAMP, TIMESTAMP_NTZ or day-time interval
    (microseconds); any other value as it is."""
    if value is None:
        return None
    if spark_type == "date":
        return (value - dt.date(1970, 1, 1)).days
    if spark_type in ("timestamp", "timestamp_ntz"):
        if value.tzinfo is not None:
            value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
        return (value - dt.datetime(1970, 1, 1)) // dt.timedelta(microseconds=1)
    if spark_type == "interval":
        return value // dt.timedelta(microseconds=1)
    if spark_type == "decimal" and isinstance(value, int):
        return Decimal(value)
    return value


def apply(format_text: str, java_classes: tuple[str, ...], values: list, java_version: int = 17,
          check=None) -> str:
    """``String.format(Locale.US, format_text, values...)`` made a Spark STRING on a JVM of
    ``java_version``; ``values`` are the Java values (``java_value``), NULL as None, of the
    classes ``java_classes``. Raises ``MatchRuntimeError`` (``ILLEGAL_FORMAT``) where Java raises.
    ``check(specifier, position)``, if given, is called before a specifier prints a value that is
    not NULL (a format read from a row: ``row_formats`` raises there for what sparkcep does not
    reproduce)."""
    try:
        parts = parse(format_text)
        out: list[str] = []
        size = 0
        last = lasto = -1
        for part in parts:
            if isinstance(part, str):
                text = part
            elif part.width > MAX_RESULT:
                raise MatchRuntimeError(
                    "MATCH_DEPENDENT_VALUE_TOO_LARGE",
                    f"format_string would pad a value to {part.width:,} characters in a DEFINE or MEASURES "
                    f"expression; sparkcep builds at most {MAX_RESULT:,} (format it inside the navigation)")
            elif part.index == -2:
                text = "\n" if part.conversion == "n" else _print_text(part, "%")
            else:
                position, last, lasto = _position(part, last, lasto)
                if position < 0 or position > len(values) - 1:
                    raise JavaFormatError("MissingFormatArgumentException", f"Format specifier '{part}'")
                value = values[position]
                if value is None:
                    text = _print_text(part, "false" if part.conversion == "b" else "null")
                    if part.conversion == "s" and "#" in part.flags:
                        raise _mismatch("#", "s")
                else:
                    if check is not None:
                        check(part, position)
                    text = _print(part, java_classes[position], value, java_version)
            size += len(text)
            if size > MAX_RESULT:
                raise MatchRuntimeError(
                    "MATCH_DEPENDENT_VALUE_TOO_LARGE",
                    f"format_string would build more than {MAX_RESULT:,} characters in a DEFINE or MEASURES "
                    "expression (format it inside the navigation)")
            out.append(text)
        return _spark_string("".join(out))
    except JavaFormatError as error:
        raise MatchRuntimeError("ILLEGAL_FORMAT", f"{error} (Java's Formatter, as Spark's format_string raises it)") \
            from None


def formatter(format_text: str, java_classes: tuple[str, ...], kinds: tuple[str, ...],
              scales: tuple[int | None, ...], java_version: int = 17, check=None):
    """The function of the arguments' values (NULLs among them) of a bound ``format_string``:
    each value made the Java value Spark passes (a DECIMAL with its type's scale, which
    ``toString`` shows), then ``apply``."""
    exponents = tuple(None if s is None else Decimal(1).scaleb(-s) for s in scales)

    def formatted(*values) -> str:
        converted = []
        for kind, exponent, value in zip(kinds, exponents, values):
            value = java_value(kind, value)
            if exponent is not None and value is not None:
                value = value.quantize(exponent, context=_EXACT)
            converted.append(value)
        return apply(format_text, java_classes, converted, java_version, check)

    return formatted
