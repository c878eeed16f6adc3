"""Spark's conversions between STRINGs and BINARY values over values that combine rows of a
match, as Python evaluates them: ``base64``, ``unbase64``, ``encode``, ``decode(bin, charset)``,
``to_binary``, ``try_to_binary``, ``to_base32`` and ``from_base32``. Each operand is non-NULL (the caller applies Spark's NULL
rules); a BINARY is ``bytes`` (or ``bytearray``), a STRING where Spark casts it to BINARY its
UTF-8 bytes.

* ``base64(bin)``: Java's MIME encoder (Spark's default, ``spark.sql.chunkBase64String.enabled``):
  the standard alphabet with ``=`` padding, a ``\\r\\n`` after every 76 characters (none at
  the end).
* ``unbase64(str)``: Java's MIME decoder (``Base64.getMimeDecoder().decode(String)``) over the
  string's UTF-16 units, each read as one ISO-8859-1 byte: characters outside the alphabet are
  skipped; a lone last character (``Last unit does not have enough valid bits``), a ``=`` where
  no padding may be or a single ``=`` after two characters at the end (``Input byte array has
  wrong 4-byte ending unit``), or a character of the alphabet after the padding (``Input byte
  array has incorrect ending byte at n``, n counted in UTF-16 units) is Java's
  ``IllegalArgumentException``, which Spark raises without an error class, ANSI on or off:
  ``INVALID_BASE64_INPUT`` here, with Java's message.
* ``to_binary(str, 'base64')`` checks the string first as Spark's ``UnBase64.isValidBase64``
  does (RFC 4648 ignoring white space as Java's ``Character.isWhitespace`` knows it: only
  ``A``-``Z``, ``a``-``z``, ``0``-``9``, ``+`` and ``/``, then at most two ``=`` and nothing
  after them, not even white space; a length that leaves no lone last character; one ``=`` only after three
  characters of a group, two only after two): otherwise Spark's ``CONVERSION_INVALID_INPUT``
  (ANSI on or off), NULL for ``try_to_binary``.
* ``to_binary(str, 'hex')`` (also the default): ``unhex`` (an odd length: a leading 0), a
  character that is no hex digit ``CONVERSION_INVALID_INPUT``; ``'utf-8'`` / ``'utf8'``: the
  UTF-8 bytes. The format is a case-insensitive literal (checked when lowering); with another
  one ``try_to_binary`` is NULL.
* ``to_base32(bin)``: RFC 4648's base32 with ``=`` padding, no line breaks.
  ``from_base32(str)``: Apache Commons Codec's lenient decoder (see ``from_base32``), which
  never fails.
* ``encode(str, charset)`` / ``decode(bin, charset)``: ``charset`` one of Spark's
  ``us-ascii``, ``iso-8859-1``, ``utf-8``, ``utf-16be``, ``utf-16le``, ``utf-16`` (encoding:
  big-endian after a byte-order mark ``FE FF``, none for the empty string; decoding:
  big-endian unless a mark says otherwise, the mark dropped) and ``utf-32`` (big-endian, a
  mark ``00 00 FE FF`` or ``FF FE 00 00`` read and dropped; a surrogate code point is a UTF-16
  unit of Java's string, ``?`` in Spark's UTF-8 unless two of them form a pair), in any case; another name is Spark's
  ``INVALID_PARAMETER_VALUE.CHARSET``, raised for each non-NULL value, ANSI on or off. A
  character the charset cannot encode, or bytes that are no valid encoding, is Spark's
  ``MALFORMED_CHARACTER_CODING`` (Java's coders report, they do not replace).
"""

from __future__ import annotations

import base64 as _base64
import binascii

from sparkcep.errors import MatchRuntimeError

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_VALUES = {c: k for k, c in enumerate(_ALPHABET)}
_LINE = 76


def _bytes(value) -> bytes:
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)


def base64(value) -> str:
    text = _base64.b64encode(_bytes(value)).decode("ascii")
    return "\r\n".join(text[k:k + _LINE] for k in range(0, len(text), _LINE))


def _invalid_base64(message: str) -> MatchRuntimeError:
    return MatchRuntimeError("INVALID_BASE64_INPUT", f"{message} (java.lang.IllegalArgumentException, which "
                             "Spark raises without an error class)")


def _utf16_units(value: str) -> list[str]:
    """``value``'s UTF-16 code units as characters (a character outside the BMP is two)."""
    units = []
    for character in value:
        if ord(character) > 0xFFFF:
            units += ["\ud800", "\udc00"]  # two units, neither of them in the alphabet
        else:
            units.append(character)
    return units


def unbase64(value: str) -> bytes:
    units = _utf16_units(value)
    out = bytearray()
    bits, shift, n, position = 0, 18, len(units), 0
    while position < n:
        unit = units[position]
        position += 1
        if unit == "=":  # padding: it ends the data
            if shift == 6:  # after two characters of a group a second '=' must follow at once
                second = units[position] if position < n else None
                position += 1
                if second != "=":
                    raise _invalid_base64("Input byte array has wrong 4-byte ending unit")
            elif shift == 18:
                raise _invalid_base64("Input byte array has wrong 4-byte ending unit")
            break
        digit = _VALUES.get(unit)
        if digit is None:
            continue  # the MIME decoder skips what is not in the alphabet
        bits |= digit << shift
        shift -= 6
        if shift < 0:
            out += bytes(((bits >> 16) & 0xFF, (bits >> 8) & 0xFF, bits & 0xFF))
            bits, shift = 0, 18
    if shift == 6:
        out.append((bits >> 16) & 0xFF)
    elif shift == 0:
        out += bytes(((bits >> 16) & 0xFF, (bits >> 8) & 0xFF))
    elif shift == 12:
        raise _invalid_base64("Last unit does not have enough valid bits")
    while position < n:
        position += 1
        if units[position - 1] in _VALUES:
            raise _invalid_base64(f"Input byte array has incorrect ending byte at {position}")
    return bytes(out)


def _java_whitespace(character: str) -> bool:
    """Java's ``Character.isWhitespace``: a Unicode space separator other than the no-break
    spaces (U+00A0, U+2007, U+202F), a line or paragraph separator, or one of U+0009-U+000D and
    U+001C-U+001F."""
    import unicodedata

    if character in "\t\n\u000b\f\r\u001c\u001d\u001e\u001f":
        return True
    if character in "\u00a0\u2007\u202f":
        return False
    return unicodedata.category(character) in ("Zs", "Zl", "Zp")


def valid_base64(value: str) -> bool:
    """Spark's ``UnBase64.isValidBase64`` (see the module)."""
    characters, padding = 0, 0
    for character in value:
        if character == "=":
            padding += 1
        elif padding:
            return False  # after the padding nothing but padding, not even white space
        elif _java_whitespace(character):
            continue
        elif character not in _VALUES:
            return False
        else:
            characters += 1
    rest = characters % 4
    if padding == 0:
        return rest != 1
    return (padding == 1 and rest == 3) or (padding == 2 and rest == 2)


def _conversion_error(value: str, fmt: str) -> MatchRuntimeError:
    return MatchRuntimeError(
        "CONVERSION_INVALID_INPUT",
        f"The value '{value}' ('{fmt}') cannot be converted to \"BINARY\" because it is malformed. Correct the "
        "value as per the syntax, or change its format. Use `try_to_binary` to tolerate malformed input and "
        "return NULL instead.")


def _unhex(value: str) -> bytes | None:
    digits = "0" + value if len(value) % 2 else value
    try:
        return binascii.unhexlify(digits) if all(c in "0123456789abcdefABCDEF" for c in digits) else None
    except binascii.Error:
        return None


def to_binary(fmt: str, tolerant: bool):
    """The function of ``to_binary(str, fmt)`` (``try_to_binary`` when ``tolerant``); ``fmt``
    lower case: ``hex``, ``utf-8``, ``utf8`` or ``base64`` (lowering checks it)."""

    def convert(value: str) -> bytes | None:
        if fmt in ("utf-8", "utf8"):
            return value.encode("utf-8")
        if fmt == "hex":
            data = _unhex(value)
        else:
            data = unbase64(value) if valid_base64(value) else None
        if data is None and not tolerant:
            raise _conversion_error(value, fmt.upper())
        return data

    return convert


_BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_M64, _M40 = (1 << 64) - 1, (1 << 40) - 1
_BASE32_VALUES = {**{c: k for k, c in enumerate(_BASE32)}, **{c.lower(): k for k, c in enumerate(_BASE32[:26])}}


def to_base32(value) -> str:
    return _base64.b32encode(_bytes(value)).decode("ascii")


def from_base32(value: str) -> bytes:
    """Apache Commons Codec's lenient ``Base32.decode`` of the UTF-8 bytes: letters in either
    case and ``2``-``7`` read, any other byte skipped, the first ``=`` ends the data; a last
    group of n < 8 characters gives its 5n bits' first whole bytes (``MZX``: one byte); a lone
    last character, with the last 3 bits of the group before it (none: zeros), the byte of
    those 8 bits (``M``: 0x03; Commons Codec never clears its bit buffer between groups)."""
    out = bytearray()
    bits, count = 0, 0
    for character in value:
        if character == "=":
            break
        digit = _BASE32_VALUES.get(character)
        if digit is None:
            continue
        bits = ((bits << 5) | digit) & _M64  # Commons Codec's long, never cleared between groups
        count += 1
        if count == 8:
            out += (bits & _M40).to_bytes(5, "big")
            count = 0
    if count == 1:  # its 5 bits and the last 3 of the group before, if any
        out.append((bits >> 2) & 0xFF)
    elif count:
        whole = 5 * count // 8
        out += ((bits >> (5 * count - 8 * whole)) & ((1 << 8 * whole) - 1)).to_bytes(whole, "big")
    return bytes(out)


CHARSETS = ("iso-8859-1", "us-ascii", "utf-16", "utf-16be", "utf-16le", "utf-32", "utf-8")


def _charset(function: str, charset: str) -> str:
    name = charset.lower()
    if name not in CHARSETS:
        raise MatchRuntimeError(
            "INVALID_PARAMETER_VALUE",
            f"The value of parameter(s) `charset` in `{function}` is invalid: expects one of the "
            f"{', '.join(CHARSETS)}, but got {charset} (Spark's INVALID_PARAMETER_VALUE.CHARSET)")
    return name


def _malformed(function: str, charset: str) -> MatchRuntimeError:
    return MatchRuntimeError("MALFORMED_CHARACTER_CODING",
                             f"Invalid value found when performing `{function}` with {charset}")


def encode(value: str, charset: str) -> bytes:
    name = _charset("encode", charset)
    try:
        if name == "utf-16":  # no byte-order mark for no characters, as Java's encoder
            return b"\xfe\xff" + value.encode("utf-16-be") if value else b""
        if name == "utf-32":
            return value.encode("utf-32-be")
        return value.encode(name)
    except UnicodeEncodeError:
        raise _malformed("encode", charset) from None


def decode(value, charset: str) -> str:
    name = _charset("decode", charset)
    data = _bytes(value)
    try:
        if name == "utf-16":
            if data[:2] == b"\xff\xfe":
                return data[2:].decode("utf-16-le")
            return (data[2:] if data[:2] == b"\xfe\xff" else data).decode("utf-16-be")
        if name == "utf-32":
            return _utf32(data, charset)
        return data.decode(name)
    except UnicodeDecodeError:
        raise _malformed("decode", charset) from None


def _utf32(data: bytes, charset: str) -> str:
    """Java's UTF-32 decoder, then Java's String to UTF-8: a byte-order mark read and dropped
    (big-endian without one); a code point past U+10FFFF or an incomplete last unit is
    malformed; a surrogate code point becomes that UTF-16 unit, so two in a row that form a
    pair are one character and any other one ``?`` (as ``String.getBytes(UTF_8)`` replaces
    it)."""
    order = "big"
    if data[:4] == b"\xff\xfe\x00\x00":
        order, data = "little", data[4:]
    elif data[:4] == b"\x00\x00\xfe\xff":
        data = data[4:]
    if len(data) % 4:
        raise _malformed("decode", charset)
    units: list[int] = []
    for k in range(0, len(data), 4):
        code = int.from_bytes(data[k:k + 4], order)
        if code > 0x10FFFF:
            raise _malformed("decode", charset)
        if code > 0xFFFF:
            code -= 0x10000
            units += [0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)]
        else:
            units.append(code)
    out = []
    k = 0
    while k < len(units):
        unit = units[k]
        if 0xD800 <= unit <= 0xDBFF and k + 1 < len(units) and 0xDC00 <= units[k + 1] <= 0xDFFF:
            out.append(chr(0x10000 + ((unit - 0xD800) << 10) + (units[k + 1] - 0xDC00)))
            k += 2
            continue
        out.append("?" if 0xD800 <= unit <= 0xDFFF else chr(unit))
        k += 1
    return "".join(out)
