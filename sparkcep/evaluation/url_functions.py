"""Spark's URL encoding functions over values that combine rows of a match, as Python evaluates
them. Spark computes them with Java's ``java.net.URLEncoder`` / ``URLDecoder`` over UTF-8
(``UrlCodec``); each operand here is non-NULL (the caller applies Spark's NULL rules).

* ``url_encode(str)``: ``a``-``z``, ``A``-``Z``, ``0``-``9``, ``.``, ``-``, ``*`` and ``_`` kept, a
  space ``+``, every other character its UTF-8 bytes as ``%XX`` (upper-case hex): ``~`` is
  ``%7E`` (Python's ``quote_plus`` would keep it).
* ``url_decode(str)``: ``+`` a space; a run of ``%XX`` escapes the bytes they name, decoded as
  UTF-8 together (a malformed sequence becomes U+FFFD, as Java's decoder replaces it); any
  other character itself (Java's UTF-8 decoder reads ``ED A0``-``ED BF`` as the start of an
  encoded surrogate: three such bytes are one U+FFFD, where Python's decoder replaces each
  byte). As Java's ``URLDecoder``, the two characters after ``%`` are read by
  ``Integer.parseInt(.., 16)``: a sign is allowed (``%+1`` is the byte 1, ``%-0`` the byte 0, a
  negative value an error) and so are the digits ``Character.digit`` knows (other scripts'
  decimal digits, full-width Latin letters). Fewer than two characters after a ``%``, or
  characters that are no hex number, are Spark's ``CANNOT_DECODE_URL`` (ANSI on or off);
  ``try_url_decode`` gives NULL there.
* ``parse_url(url, part[, key])``: a component of ``url`` as Java's ``java.net.URI`` parses it
  (``sparkcep.evaluation.java_uri``): ``HOST`` (NULL for a registry-based authority),
  ``PATH``, ``QUERY``, ``REF`` (the fragment), ``PROTOCOL`` (the scheme), ``FILE`` (the path
  and ``?query``), ``AUTHORITY``, ``USERINFO``, all raw (escapes kept); another part (the
  names are case-sensitive) is NULL. With a key, the value of ``key=`` in the query: group 2 of
  Java's regular expression ``(&|^)key=([^&]*)`` (the key is a regular expression, as in
  Spark), NULL for a part other than ``QUERY`` (the URL unread). A URL Java rejects is
  Spark's ``INVALID_URL`` with ANSI on, NULL without (and under ``try_parse_url``).
"""

from __future__ import annotations

import codecs
import unicodedata

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation import java_uri
from sparkcep.plan.java_regex import compile_java_regex

# the characters URLEncoder keeps as they are (a space becomes '+')
_KEPT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-*_")


def _java_replacement(error: UnicodeDecodeError) -> tuple[str, int]:
    """The bytes Java's UTF-8 decoder (``String(bytes, UTF_8)``) replaces by one U+FFFD where
    Python's stops: after ``ED`` a byte ``A0``-``BF`` (a surrogate's code point) is taken with
    it, and a third continuation byte too; elsewhere both replace the same maximal subpart."""
    data, start = error.object, error.start
    if data[start] == 0xED and start + 1 < len(data) and 0xA0 <= data[start + 1] <= 0xBF:
        return "\ufffd", start + (3 if start + 2 < len(data) and data[start + 2] & 0xC0 == 0x80 else 2)
    return "\ufffd", error.end


codecs.register_error("sparkcep_java_utf8", _java_replacement)


def url_encode(value: str) -> str:
    out = []
    for character in value:
        if character in _KEPT:
            out.append(character)
        elif character == " ":
            out.append("+")
        else:
            out.append("".join(f"%{byte:02X}" for byte in character.encode("utf-8")))
    return "".join(out)


def _java_digit(character: str) -> int:
    """Java's ``Character.digit(c, 16)``, or -1: ASCII hex digits, any Unicode decimal digit
    below 16, and the full-width Latin letters A-F and a-f."""
    if character in "0123456789abcdefABCDEF":
        return int(character, 16)
    if "\uff21" <= character <= "\uff26" or "\uff41" <= character <= "\uff46":
        return (ord(character) & 0x1F) + 9
    return unicodedata.decimal(character, -1)


def _escaped_byte(text: str) -> int | None:
    """``Integer.parseInt(text, 16)`` of two characters, None where Java raises (a sign not
    followed by a digit, a character that is no digit) or the value is negative."""
    sign, digits = (text[0], text[1:]) if text[0] in "+-" else ("+", text)
    value = 0
    for character in digits:
        digit = _java_digit(character)
        if digit < 0:
            return None
        value = value * 16 + digit
    if sign == "-" and value != 0:
        return None
    return value


def _cannot_decode(value: str) -> MatchRuntimeError:
    return MatchRuntimeError("CANNOT_DECODE_URL", f"The provided URL cannot be decoded: {value}. Please "
                             "ensure that the URL is properly formatted and try again.")


def url_decode(value: str) -> str:
    out = []
    i, n = 0, len(value)
    while i < n:
        character = value[i]
        if character == "+":
            out.append(" ")
            i += 1
        elif character == "%":
            run = bytearray()
            while i + 2 < n and value[i] == "%":  # URLDecoder reads escapes while two characters follow
                byte = _escaped_byte(value[i + 1:i + 3])
                if byte is None:
                    raise _cannot_decode(value)
                run.append(byte)
                i += 3
            if i < n and value[i] == "%":  # an incomplete trailing escape
                raise _cannot_decode(value)
            out.append(run.decode("utf-8", "sparkcep_java_utf8"))
        else:
            out.append(character)
            i += 1
    return "".join(out)


def try_url_decode(value: str) -> str | None:
    try:
        return url_decode(value)
    except MatchRuntimeError:
        return None


# parse_url's parts: the attribute of java_uri.Components each is
_PARTS = {"HOST": "host", "PATH": "path", "QUERY": "query", "REF": "fragment", "PROTOCOL": "scheme",
          "AUTHORITY": "authority", "USERINFO": "user_info"}


def parse_url(fail_on_error: bool):
    """The function of ``parse_url(url, part[, key])`` (``try_parse_url`` and ``parse_url``
    without ANSI: ``fail_on_error`` False)."""

    def parse(url: str, part: str, key: str | None = None) -> str | None:
        if key is not None and part != "QUERY":  # NULL before the URL is read (no INVALID_URL)
            return None
        components = java_uri.parse(url)
        if components is None:
            if fail_on_error:
                raise MatchRuntimeError("INVALID_URL", f"The url is invalid: {url}. Use `try_parse_url` to "
                                        "tolerate invalid URL and return NULL instead.")
            return None
        if part == "FILE":
            value = components.path
            if components.query is not None:
                value = f"{value}?{components.query}"
        else:
            value = getattr(components, _PARTS[part]) if part in _PARTS else None
        if key is None or value is None:
            return value
        found = compile_java_regex(f"(&|^){key}=([^&]*)").search(value)
        return found.group(2) if found is not None else None

    return parse


URL_FUNCTIONS = {"url_encode": url_encode, "url_decode": url_decode, "try_url_decode": try_url_decode}
