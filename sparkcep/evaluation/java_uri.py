"""The components of a URI as Java's ``new java.net.URI(String)`` parses it, which Spark's
``parse_url`` reads: RFC 2396 with the deviations Java documents (RFC 2732's IPv6 literals in
brackets, an empty authority before a path, query or fragment, an empty path), and its
fall-back from a server-based authority (``userinfo@host:port``) to a registry-based one, whose
host is undefined (``http://a_b.com/`` has no host: ``_`` is no hostname character).

``parse(text)`` gives the raw components, or None where Java throws ``URISyntaxException``. As
in Java, a character outside ASCII that is neither a space separator nor a control character
is allowed wherever an escaped octet (``%XX``) is; a ``%`` not followed by two hex digits is an
error wherever it is read.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

_DIGIT = frozenset("0123456789")
_ALPHA = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ALPHANUM = _DIGIT | _ALPHA
_HEX = _DIGIT | frozenset("abcdefABCDEF")
_MARK = frozenset("-_.!~*'()")
_UNRESERVED = _ALPHANUM | _MARK
_RESERVED = frozenset(";/?:@&=+$,[]")
_URIC = _RESERVED | _UNRESERVED  # and escaped octets
_PCHAR = _UNRESERVED | frozenset(":@&=+$,")  # and escaped octets
_PATH = _PCHAR | frozenset(";/")
_USERINFO = _UNRESERVED | frozenset(";:&=+$,")  # and escaped octets
_REG_NAME = _UNRESERVED | frozenset("$,;:@&=+")  # and escaped octets
_SERVER = _USERINFO | _ALPHANUM | frozenset("-.:@[]")  # and escaped octets
_SERVER_PERCENT = _SERVER | frozenset("%")
_SCHEME = _ALPHANUM | frozenset("+-.")
_SCOPE_ID = _ALPHANUM | frozenset("_.")
# the classes that take escaped octets (and the other characters Java allows with them)
_ESCAPED = (_URIC, _PCHAR, _PATH, _USERINFO, _REG_NAME, _SERVER, _SERVER_PERCENT)


class _Invalid(Exception):
    """Java's URISyntaxException."""


@dataclass
class Components:
    scheme: str | None = None
    authority: str | None = None
    user_info: str | None = None
    host: str | None = None
    path: str | None = None
    query: str | None = None
    fragment: str | None = None


def parse(text: str) -> Components | None:
    try:
        return _Parser(text).parse()
    except _Invalid:
        return None


def _other(c: str) -> bool:
    """Java's ``scanEscape`` lets a character above U+0080 pass where escapes are allowed,
    unless it is a space separator or an ISO control character."""
    return ord(c) > 128 and unicodedata.category(c) not in ("Zs", "Zl", "Zp") and not 0x7F <= ord(c) <= 0x9F


class _Parser:
    def __init__(self, text: str) -> None:
        self.text, self.n = text, len(text)
        self.uri = Components()
        self.ipv6_bytes = 0

    # -- scanning ----------------------------------------------------------------------------

    def at(self, p: int, end: int, s: str) -> bool:
        """Whether ``s`` is at ``p``, before ``end``."""
        return len(s) <= end - p and self.text.startswith(s, p)

    def scan_stop(self, start: int, end: int, err: str, stop: str) -> int:
        """The first position at or after ``start`` of a character of ``stop``, else ``end``;
        -1 when a character of ``err`` comes first."""
        p = start
        while p < end:
            c = self.text[p]
            if c in err:
                return -1
            if c in stop:
                break
            p += 1
        return p

    def scan(self, start: int, end: int, allowed: frozenset) -> int:
        """The end of the run of ``allowed`` characters (with escaped octets and other
        characters where the class takes them) from ``start``."""
        p = start
        escaped = any(allowed is e for e in _ESCAPED)
        while p < end:
            c = self.text[p]
            if c in allowed:
                p += 1
            elif escaped and c == "%":
                if p + 3 <= end and self.text[p + 1] in _HEX and self.text[p + 2] in _HEX:
                    p += 3
                else:
                    raise _Invalid("Malformed escape pair")
            elif escaped and _other(c):
                p += 1
            else:
                break
        return p

    def check(self, start: int, end: int, allowed: frozenset) -> None:
        if self.scan(start, end, allowed) < end:
            raise _Invalid("Illegal character")

    def scan_char(self, p: int, end: int, c: str) -> int:
        return p + 1 if p < end and self.text[p] == c else p

    # -- the grammar ---------------------------------------------------------------------------

    def parse(self) -> Components:
        n, uri = self.n, self.uri
        p = self.scan_stop(0, n, "/?#", ":")
        if p >= 0 and self.at(p, n, ":"):
            if p == 0 or self.text[0] not in _ALPHA:
                raise _Invalid("Expected scheme name")
            self.check(1, p, _SCHEME)
            uri.scheme = self.text[:p]
            p += 1
            if self.at(p, n, "/"):
                p = self.hierarchical(p)
            else:  # opaque: no authority, path or query
                q = self.scan_stop(p, n, "", "#")
                if q <= p:
                    raise _Invalid("Expected scheme-specific part")
                self.check(p, q, _URIC)
                p = q
        else:
            p = self.hierarchical(0)
        if self.at(p, n, "#"):
            self.check(p + 1, n, _URIC)
            uri.fragment = self.text[p + 1:]
            p = n
        if p < n:
            raise _Invalid("end of URI")
        return uri

    def hierarchical(self, start: int) -> int:
        n, p = self.n, start
        if self.at(p, n, "//"):
            p += 2
            q = self.scan_stop(p, n, "", "/?#")
            if q > p:
                p = self.authority(p, q)
            elif q >= n:  # an empty authority only before a path, query or fragment
                raise _Invalid("Expected authority")
        q = self.scan_stop(p, n, "", "?#")
        self.check(p, q, _PATH)
        self.uri.path = self.text[p:q]
        p = q
        if self.at(p, n, "?"):
            p += 1
            q = self.scan_stop(p, n, "", "#")
            self.check(p, q, _URIC)
            self.uri.query = self.text[p:q]
            p = q
        return p

    def authority(self, p: int, n: int) -> int:
        text = self.text
        if self.scan_stop(p, n, "", "]") > p:  # an IPv6 literal: '%' is allowed
            server_chars = self.scan(p, n, _SERVER_PERCENT) == n
        else:
            server_chars = self.scan(p, n, _SERVER) == n
        registry_chars = self.scan(p, n, _REG_NAME) == n
        if registry_chars and not server_chars:
            self.uri.authority = text[p:n]
            return n
        q, failure = p, None
        if server_chars:
            try:
                q = self.server(p, n)
                if q < n:
                    raise _Invalid("Expected end of authority")
                self.uri.authority = text[p:n]
            except _Invalid as error:  # undone: perhaps a registry-based authority
                self.uri.user_info = self.uri.host = None
                failure, q = error, p
        if q < n:
            if registry_chars:
                self.uri.authority = text[p:n]
            elif failure is not None:
                raise failure
            else:
                raise _Invalid("Illegal character in authority")
        return n

    def server(self, start: int, n: int) -> int:
        text, p = self.text, start
        q = self.scan_stop(p, n, "/?#", "@")
        if q >= p and self.at(q, n, "@"):
            self.check(p, q, _USERINFO)
            self.uri.user_info = text[p:q]
            p = q + 1
        if self.at(p, n, "["):
            p += 1
            q = self.scan_stop(p, n, "/?#", "]")
            if q > p and self.at(q, n, "]"):
                r = self.scan_stop(p, q, "", "%")
                if r > p and r < q:
                    self.ipv6_reference(p, r)
                    if r + 1 == q:
                        raise _Invalid("scope id expected")
                    self.check(r + 1, q, _SCOPE_ID)
                else:
                    self.ipv6_reference(p, q)
                self.uri.host = text[p - 1:q + 1]
                p = q + 1
            else:
                raise _Invalid("Expected closing bracket for IPv6 address")
        else:
            q = self.ipv4_address(p, n)
            if q <= p:
                q = self.hostname(p, n)
            p = q
        if self.at(p, n, ":"):
            p += 1
            q = self.scan(p, n, _DIGIT)
            if q > p:
                if int(text[p:q]) > 2**31 - 1:  # Integer.parseInt
                    raise _Invalid("Malformed port number")
                p = q
        if p < n:
            raise _Invalid("Expected port number")
        return p

    def ipv4_address(self, start: int, n: int) -> int:
        try:
            p = self.scan_ipv4(start, n, strict=False)
        except _Invalid:
            return -1
        if start < p < n and self.text[p] != ":":  # an IPv4 address followed by something but a port
            p = -1
        if p > start:
            self.uri.host = self.text[start:p]
        return p

    def scan_ipv4(self, start: int, n: int, strict: bool) -> int:
        m = self.scan(start, n, _DIGIT | frozenset("."))
        if m <= start or (strict and m != n):
            return -1
        p = start
        for k in range(4):
            q = self.scan_byte(p, m)
            if q <= p:
                break
            p = q
            if k == 3:
                if q < m:
                    break
                return q
            q = self.scan_char(p, m, ".")
            if q <= p:
                break
            p = q
        raise _Invalid("Expected IPv4 address")

    def scan_byte(self, start: int, n: int) -> int:
        q = self.scan(start, n, _DIGIT)
        if q > start and int(self.text[start:q]) > 255:  # (Java: a NumberFormatException past INT)
            raise _Invalid("Malformed IPv4 address")
        return q

    def hostname(self, start: int, n: int) -> int:
        text, p, last = self.text, start, -1
        while True:
            q = self.scan(p, n, _ALPHANUM)
            if q <= p:
                break
            last, p = p, q
            q = self.scan(p, n, _ALPHANUM | frozenset("-"))
            if q > p:
                if text[q - 1] == "-":
                    raise _Invalid("Illegal character in hostname")
                p = q
            q = self.scan_char(p, n, ".")
            if q <= p:
                break
            p = q
            if p >= n:
                break
        if p < n and not self.at(p, n, ":"):
            raise _Invalid("Illegal character in hostname")
        if last < 0:
            raise _Invalid("Expected hostname")
        if last > start and text[last] not in _ALPHA:  # a qualified name's last label starts with a letter
            raise _Invalid("Illegal character in hostname")
        self.uri.host = text[start:p]
        return p

    # -- IPv6 literals (RFC 2732) ----------------------------------------------------------------

    def ipv6_reference(self, start: int, n: int) -> None:
        p, compressed = start, False
        q = self.hex_sequence(p, n)
        if q > p:
            p = q
            if self.at(p, n, "::"):
                compressed = True
                p = self.hex_post(p + 2, n)
            elif self.at(p, n, ":"):
                p = self.take_ipv4(p + 1, n)
                self.ipv6_bytes += 4
        elif self.at(p, n, "::"):
            compressed = True
            p = self.hex_post(p + 2, n)
        if p < n:
            raise _Invalid("Malformed IPv6 address")
        if self.ipv6_bytes > 16:
            raise _Invalid("IPv6 address too long")
        if not compressed and self.ipv6_bytes < 16:
            raise _Invalid("IPv6 address too short")
        if compressed and self.ipv6_bytes == 16:
            raise _Invalid("Malformed IPv6 address")

    def hex_post(self, start: int, n: int) -> int:
        p = start
        if p == n:
            return p
        q = self.hex_sequence(p, n)
        if q > p:
            p = q
            if self.at(p, n, ":"):
                p = self.take_ipv4(p + 1, n)
                self.ipv6_bytes += 4
        else:
            p = self.take_ipv4(p, n)
            self.ipv6_bytes += 4
        return p

    def hex_sequence(self, start: int, n: int) -> int:
        p = start
        q = self.scan(p, n, _HEX)
        if q <= p or self.at(q, n, "."):  # none, or the start of an IPv4 address
            return -1
        if q > p + 4:
            raise _Invalid("IPv6 hexadecimal digit sequence too long")
        self.ipv6_bytes += 2
        p = q
        while p < n:
            if not self.at(p, n, ":") or self.at(p + 1, n, ":"):
                break
            p += 1
            q = self.scan(p, n, _HEX)
            if q <= p:
                raise _Invalid("Expected digits for an IPv6 address")
            if self.at(q, n, "."):  # the start of an IPv4 address
                p -= 1
                break
            if q > p + 4:
                raise _Invalid("IPv6 hexadecimal digit sequence too long")
            self.ipv6_bytes += 2
            p = q
        return p

    def take_ipv4(self, start: int, n: int) -> int:
        p = self.scan_ipv4(start, n, strict=True)
        if p <= start:
            raise _Invalid("Expected IPv4 address")
        return p
