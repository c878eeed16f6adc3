"""Spark's JSON functions between rows, as Spark 4.3 computes them (checked against Spark's
recorded answers in ``tests/evaluation/corpus.py``): ``get_json_object``,
``json_array_length`` and ``json_object_keys``.

Spark reads the JSON text with Jackson's streaming parser (single quotes and unescaped control
characters allowed, nothing else of Jackson's lenient features) and stops reading where it has
its answer, so text after the first complete value is not looked at (``'{"a":1} x'`` has the
key ``a``), while any error before that point makes the answer NULL. This module reads the text
the same way, token by token (``_Parser``), with Jackson's limits (a number of more than 1,000
characters, a field name of more than 50,000, nesting deeper than 1,000: NULL).

``get_json_object(json, path)``: Spark's path subset (``JsonPathParser``): ``$`` then any of
``.name``, ``['name']``, ``[n]``, ``[*]``, ``.*`` / ``['*']`` (which match nothing); a path Spark
does not parse is NULL. The matched value is written back as Jackson's generator writes it
(``_Generator``): a string alone without quotes, a string inside a structure quoted and escaped
(control characters ``\\uXXXX``, characters outside the BMP as two ``\\uXXXX`` escapes, but not
in the array a wildcard builds); integers in their canonical decimal form; numbers with a
fraction or exponent as Java's ``Double.toString`` prints the DOUBLE Jackson reads (``1e2`` is
``100.0``, ``1e400`` is the string ``"Infinity"``). Java 17's ``Double.toString`` does not always
print the shortest decimal (``2.1e22`` is ``2.0999999999999998E22``, ``4.9e-324`` stays
``4.9E-324``), so such a number is written (from Python's ``repr``, the shortest decimal) only when
it is 0 or its magnitude is from 1e-7 to below 2^53, where Spark printed the shortest decimal for
each of 185,549 values measured (1 to 17 digits, random bit patterns; past 2^53 and below 1e-7 it
did not for 1 to 9% of them), and is otherwise ``UNSUPPORTED_JSON_NUMBER``. A wildcard over an array writes the matches as an array, or the only
match alone; ``[*][*]`` flattens one level (Hive's rule).

``to_json(x)`` of an array or a map (no options), as Spark's ``JacksonGenerator`` writes it
through a character writer (characters outside the BMP as they are): see ``to_json``.
"""

from __future__ import annotations

import math
from decimal import Context, Decimal

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation import java_double_text

# Jackson's StreamReadConstraints defaults (2.16+)
MAX_NUMBER_LENGTH = 1000
MAX_NAME_LENGTH = 50_000
MAX_STRING_LENGTH = 20_000_000
MAX_DEPTH = 1000
# arrays [*][*] flattens, nested in one another: Spark recurses once per level (measured: 500
# levels answered, 1,000 overflow the default stack), sparkcep refuses past this
MAX_FLATTENED_DEPTH = 450
_EXACT = Context(prec=100)  # a DECIMAL's 38 digits exactly
_TWO_TO_53 = float(2 ** 53)


class _Invalid(Exception):
    """Jackson's JsonProcessingException: Spark answers NULL."""


START_OBJECT, END_OBJECT, START_ARRAY, END_ARRAY, FIELD_NAME = "{", "}", "[", "]", "name"
STRING, INT, FLOAT, TRUE, FALSE, NULL = "string", "int", "float", "true", "false", "null"
_SCALARS = (STRING, INT, FLOAT, TRUE, FALSE, NULL)
_WHITESPACE = " \t\n\r"
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "'": "'"}
_HEX = "0123456789abcdefABCDEF"


def _identifier_part(c: str) -> bool:
    """Java's ``Character.isJavaIdentifierPart`` for the character after a literal (``truex``)."""
    import unicodedata

    category = unicodedata.category(c)  # letters, digits Nd / Nl (not No: '²'), marks, _ and $, ...
    return category in ("Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Nd", "Nl", "Pc", "Sc", "Cf") or \
        ord(c) <= 8 or 0x0E <= ord(c) <= 0x1B or 0x7F <= ord(c) <= 0x9F


class _Parser:
    """Jackson's ``ReaderBasedJsonParser`` over a string, token by token: ``next_token`` gives
    the next token (None at the end of the input) or raises ``_Invalid``; ``value`` holds a
    scalar's value (a string's text, an int, a float's text) and ``name`` the current field name."""

    def __init__(self, text: str):
        self.text = text
        self.i = 0
        self.stack: list[list] = []  # [kind, count] per open structure: kind "[" or "{"
        self.token: str | None = None
        self.value = None
        self.name: str | None = None
        self._pending: str | None = None  # the value token read with its field name

    # -- characters --------------------------------------------------------------------------
    def _skip_ws(self) -> str | None:
        text, i = self.text, self.i
        while i < len(text):
            c = text[i]
            if c in _WHITESPACE:
                i += 1
                continue
            if c < " ":
                raise _Invalid("illegal character")
            self.i = i
            return c
        self.i = i
        return None

    def _string(self, quote: str) -> str:
        """The string starting after its quote, unescaped (UTF-16 surrogate escapes joined when
        they pair, kept alone otherwise)."""
        text, i = self.text, self.i
        units: list[str] = []
        while True:
            if i >= len(text):
                raise _Invalid("unexpected end of input in a string")
            c = text[i]
            i += 1
            if c == quote:
                break
            if c != "\\":
                units.append(c)
                continue
            if i >= len(text):
                raise _Invalid("unexpected end of input in an escape")
            e = text[i]
            i += 1
            if e == "u":
                digits = text[i:i + 4]
                if len(digits) < 4 or any(d not in _HEX for d in digits):
                    raise _Invalid("illegal \\u escape")
                units.append(chr(int(digits, 16)))
                i += 4
            elif e in _ESCAPES:
                units.append(_ESCAPES[e])
            else:
                raise _Invalid("unrecognized escape")
        self.i = i
        value = _join_surrogates("".join(units))
        if len(value) > MAX_STRING_LENGTH:
            raise _Invalid("string too long")
        return value

    def _number(self, at_root: bool) -> tuple[str, object]:
        text, i = self.text, self.i
        start = i
        if text[i] == "-":
            i += 1
        digits_start = i
        while i < len(text) and "0" <= text[i] <= "9":
            i += 1
        int_length = i - digits_start
        if int_length == 0:
            raise _Invalid("no digit after a minus sign")
        if int_length > 1 and text[digits_start] == "0":
            raise _Invalid("leading zeroes")
        fraction = exponent = 0
        is_float = False
        if i < len(text) and text[i] == ".":
            i += 1
            f0 = i
            while i < len(text) and "0" <= text[i] <= "9":
                i += 1
            fraction = i - f0
            if fraction == 0:
                raise _Invalid("decimal point not followed by a digit")
            is_float = True
        if i < len(text) and text[i] in "eE":
            i += 1
            if i < len(text) and text[i] in "+-":
                i += 1
            e0 = i
            while i < len(text) and "0" <= text[i] <= "9":
                i += 1
            exponent = i - e0
            if exponent == 0:
                raise _Invalid("exponent without digits")
            is_float = True
        if at_root and i < len(text) and text[i] not in _WHITESPACE:
            raise _Invalid("expected space separating root-level values")
        length = int_length + fraction + exponent
        if length > MAX_NUMBER_LENGTH:
            raise _Invalid("number too long")
        self.i = i
        token = text[start:i]
        return (FLOAT, token) if is_float else (INT, int(token))

    def _literal(self, word: str) -> None:
        text, i = self.text, self.i
        if text[i:i + len(word)] != word:
            raise _Invalid("unrecognized token")
        i += len(word)
        if i < len(text) and text[i] >= "0" and text[i] not in "]}" and _identifier_part(text[i]):
            raise _Invalid("unrecognized token")
        self.i = i

    def _value(self, c: str | None, at_root: bool) -> str:
        """The token of the value starting at ``c`` (a structure is opened by ``next_token``)."""
        if c is None:
            raise _Invalid("unexpected end of input")
        if c in "{[":
            self.i += 1
            return c
        if c in "\"'":
            self.i += 1
            self.value = self._string(c)
            return STRING
        if c == "-" or "0" <= c <= "9":
            token, self.value = self._number(at_root)
            return token
        for word, token in (("true", TRUE), ("false", FALSE), ("null", NULL)):
            if c == word[0]:
                self._literal(word)
                self.value = None
                return token
        raise _Invalid("unexpected character")

    # -- tokens ------------------------------------------------------------------------------
    def next_token(self) -> str | None:
        token = self._next()
        self.token = token
        if token in (START_OBJECT, START_ARRAY):
            if len(self.stack) >= MAX_DEPTH:
                raise _Invalid("nesting too deep")
            self.stack.append([token, 0])
        elif token in (END_OBJECT, END_ARRAY):
            self.stack.pop()
        return token

    def _next(self) -> str | None:
        if self._pending is not None:  # the value after a field name
            token, self._pending = self._pending, None
            return token
        if not self.stack:  # a value at the top level
            c = self._skip_ws()
            if c is None:
                return None
            self.name = None
            return self._value(c, at_root=True)
        frame = self.stack[-1]
        c = self._skip_ws()
        closing = "]" if frame[0] == START_ARRAY else "}"
        if c == closing:
            self.i += 1
            self.name = None
            return END_ARRAY if closing == "]" else END_OBJECT
        if frame[1] > 0:
            if c != ",":
                raise _Invalid("expected a comma or a closing bracket")
            self.i += 1
            c = self._skip_ws()
        frame[1] += 1
        if frame[0] == START_ARRAY:
            self.name = None
            return self._value(c, at_root=False)
        if c not in ("\"", "'"):
            raise _Invalid("expected a field name")
        self.i += 1
        name = self._string(c)
        if len(name) > MAX_NAME_LENGTH:
            raise _Invalid("name too long")
        if self._skip_ws() != ":":
            raise _Invalid("expected a colon")
        self.i += 1
        self._pending = self._value(self._skip_ws(), at_root=False)
        self.name = name
        return FIELD_NAME

    def skip_children(self) -> None:
        """Jackson's ``skipChildren``: past the end of the structure just opened (nothing for
        any other token)."""
        if self.token not in (START_OBJECT, START_ARRAY):
            return
        depth = 1
        while depth:
            token = self.next_token()
            if token is None:
                raise _Invalid("unexpected end of input")
            if token in (START_OBJECT, START_ARRAY):
                depth += 1
            elif token in (END_OBJECT, END_ARRAY):
                depth -= 1


def _join_surrogates(text: str) -> str:
    """UTF-16 units as Python text: a high surrogate followed by a low one is one character;
    a lone surrogate stays (Java's String holds it)."""
    if not any("\ud800" <= c <= "\udfff" for c in text):
        return text
    out = []
    i = 0
    while i < len(text):
        c = text[i]
        if "\ud800" <= c <= "\udbff" and i + 1 < len(text) and "\udc00" <= text[i + 1] <= "\udfff":
            out.append(chr(0x10000 + ((ord(c) - 0xD800) << 10) + (ord(text[i + 1]) - 0xDC00)))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


# -- writing ------------------------------------------------------------------------------------

_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def quoted(text: str, utf8: bool) -> str:
    """A string as Jackson's generator writes it: ``"`` and ``\\`` escaped, control characters
    as ``\\b \\t \\n \\f \\r`` or ``\\u00XX``; the UTF-8 generator (``utf8``) also writes a
    character outside the BMP, and a lone surrogate, as ``\\uXXXX`` escapes of its UTF-16 units."""
    out = ['"']
    for c in text:
        code = ord(c)
        if c in _SHORT:
            out.append(_SHORT[c])
        elif code < 0x20:
            out.append(f"\\u{code:04X}")
        elif utf8 and code > 0xFFFF:
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04X}\\u{0xDC00 + (code & 0x3FF):04X}")
        elif utf8 and 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04X}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _raw(text: str) -> str:
    """Text written raw by the UTF-8 generator: a lone surrogate is Jackson's error (NULL)."""
    if any("\ud800" <= c <= "\udfff" for c in text):
        raise _Invalid("split surrogate in raw output")
    return text


def java_double(text: str, java_version: int | None = 17) -> str:
    """The JSON number ``text`` (a fraction or an exponent) as Jackson writes the DOUBLE it reads:
    Java's ``Double.toString`` on the session's Java version (``java_double_text``;
    ``"Infinity"`` quoted past the DOUBLE range). When the version is unknown (None), written
    only where Java 17 and Java 19+ print the same digits, as measured (see the module), and
    ``UNSUPPORTED_JSON_NUMBER`` otherwise."""
    x = float(text)
    if math.isinf(x):
        return '"Infinity"' if x > 0 else '"-Infinity"'
    if java_version is not None:
        return java_double_text.double_text(x, java_version)
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    shortest = Decimal(repr(abs(x))).normalize()
    if not 1e-7 <= abs(x) < _TWO_TO_53:
        raise MatchRuntimeError(
            "UNSUPPORTED_JSON_NUMBER",
            f"the JSON number {text} would be written as Java's Double.toString prints {x!r}, whose digits "
            "differ between Java versions (Java 17 does not always print the shortest decimal) and the "
            "session's Java version is unknown; apply the JSON function inside the navigation, where Spark "
            "computes it")
    sign = "-" if x < 0 else ""
    if 1e-3 <= abs(x) < 1e7:
        return sign + repr(abs(x))
    first, *rest = (str(d) for d in shortest.as_tuple().digits)
    return f"{sign}{first}.{''.join(rest) or '0'}E{shortest.adjusted()}"


class _Generator:
    """Jackson's generator, as text: commas between the values of a structure, a space between
    root-level values; ``utf8``: the UTF-8 generator (Spark's result), else the writer-based one
    (the buffer of a wildcard)."""

    def __init__(self, utf8: bool, java_version: int | None = 17):
        self.utf8 = utf8
        self.java_version = java_version
        self.out: list[str] = []
        self.stack: list[list] = [["root", 0]]

    def _before_value(self) -> None:
        frame = self.stack[-1]
        if frame[0] == "{":
            if frame[1] % 2 == 1:  # after a name
                frame[1] += 1
                return
            raise _Invalid("a value where a field name is expected")
        if frame[1] > 0:
            self.out.append("," if frame[0] == "[" else " ")
        frame[1] += 1

    def start(self, kind: str) -> None:
        self._before_value()
        if len(self.stack) > MAX_DEPTH:
            raise _Invalid("nesting too deep")
        self.out.append(kind)
        self.stack.append([kind, 0])

    def end(self) -> None:
        kind, _ = self.stack.pop()
        self.out.append("]" if kind == "[" else "}")

    def name(self, name: str) -> None:
        frame = self.stack[-1]
        if frame[1] > 0:
            self.out.append(",")
        frame[1] += 1
        self.out.append(quoted(name, self.utf8) + ":")

    def scalar(self, token: str, value) -> None:
        self._before_value()
        if token == STRING:
            self.out.append(quoted(value, self.utf8))
        elif token == INT:
            self.out.append(str(value))
        elif token == FLOAT:
            self.out.append(java_double(value, self.java_version))
        else:
            self.out.append(token)

    def raw(self, text: str) -> None:  # writeRaw: no separator
        self.out.append(_raw(text) if self.utf8 else text)

    def raw_value(self, text: str) -> None:  # writeRawValue
        self._before_value()
        self.out.append(_raw(text) if self.utf8 else text)

    def copy(self, p: _Parser) -> None:
        """``copyCurrentStructure``: the current token and, for a structure, all it holds
        (iteratively: a value may be nested 1,000 deep)."""
        token = p.token
        if token == FIELD_NAME:
            self.name(p.name)
            token = p.next_token()
        if token in _SCALARS:
            self.scalar(token, p.value)
            return
        if token not in (START_OBJECT, START_ARRAY):
            raise _Invalid("no current event to copy")
        self.start(token)
        depth = 1
        while depth:
            token = p.next_token()
            if token in (START_OBJECT, START_ARRAY):
                self.start(token)
                depth += 1
            elif token in (END_OBJECT, END_ARRAY):
                self.end()
                depth -= 1
            elif token == FIELD_NAME:
                self.name(p.name)
            elif token in _SCALARS:
                self.scalar(token, p.value)
            else:
                raise _Invalid("unexpected end of input")

    def text(self) -> str:
        return "".join(self.out)


# -- paths -------------------------------------------------------------------------------------

SUBSCRIPT, WILDCARD, KEY = ("subscript",), ("wildcard",), ("key",)
_JAVA_SPACE = " \t\n\x0b\f\r"


def parse_path(path: str) -> list | None:
    """Spark's ``JsonPathParser`` (Scala's RegexParsers: white space is skipped before a string
    or regular-expression token, not before a single character): the instructions, or None
    when Spark does not parse it."""
    if not path.startswith("$"):
        return None
    i, n = 1, len(path)
    out: list = []

    def skip(j: int) -> int:
        while j < n and path[j] in _JAVA_SPACE:
            j += 1
        return j

    while True:
        j = skip(i)
        if path.startswith(".*", j) or path.startswith("['*']", j):  # wildcard (".*", "['*']")
            out.append(WILDCARD)
            i = j + (2 if path.startswith(".*", j) else 5)
            continue
        if i < n and path[i] == ".":  # '.' then a name [^.\[]+ (white space skipped before it)
            k = skip(i + 1)
            e = k
            while e < n and path[e] not in ".[":
                e += 1
            if e > k:
                out += [KEY, ("named", path[k:e])]
                i = e
                continue
        if path.startswith("['", j):  # "['" then [^']+ then "']"
            k = skip(j + 2)
            e = k
            while e < n and path[e] != "'":
                e += 1
            if e > k:
                close = skip(e)
                if path.startswith("']", close):
                    out += [KEY, ("named", path[k:e])]
                    i = close + 2
                    continue
        if i < n and path[i] == "[":  # '[' then '*' or \d+ then ']'
            if i + 1 < n and path[i + 1] == "*" and i + 2 < n and path[i + 2] == "]":
                out += [SUBSCRIPT, WILDCARD]
                i += 3
                continue
            k = skip(i + 1)
            e = k
            while e < n and "0" <= path[e] <= "9":
                e += 1
            if e > k and e < n and path[e] == "]":
                index = int(path[k:e])
                if index > 2**63 - 1:  # Scala's toLong fails: Spark gives NULL
                    return None
                out += [SUBSCRIPT, ("index", index)]
                i = e + 1
                continue
        break
    return out if skip(i) == n else None


# -- the functions ------------------------------------------------------------------------------

RAW, QUOTED, FLATTEN = "raw", "quoted", "flatten"


def _array_index(p: _Parser, index: int, evaluate) -> bool:
    while True:
        if p.token == END_ARRAY:
            return False
        if index == 0:
            dirty = evaluate()
            while p.next_token() != END_ARRAY:
                p.skip_children()
            return dirty
        p.skip_children()
        p.next_token()
        index -= 1


def _evaluate(p: _Parser, g: _Generator, style: str, path: list) -> bool:
    """Spark's ``GetJsonObjectEvaluator.evaluatePath``: whether anything was written."""
    token = p.token
    if not path:
        if token == STRING and style == RAW:
            g.raw(p.value)
            return True
        if token == START_ARRAY and style == FLATTEN:  # every array inside flattened too
            dirty = False
            depth = 1
            while depth:
                token = p.next_token()
                if token == START_ARRAY:
                    depth += 1
                    if depth > MAX_FLATTENED_DEPTH:
                        raise MatchRuntimeError(
                            "JSON_NESTING_TOO_DEEP",
                            f"get_json_object's [*][*] would flatten arrays nested more than {MAX_FLATTENED_DEPTH} "
                            "deep in a DEFINE expression: Spark flattens them by recursion, and fails with Java's "
                            "StackOverflowError at a depth that depends on its JVM (1,000 on the default stack); "
                            "apply it inside the navigation, where Spark computes it")
                elif token == END_ARRAY:
                    depth -= 1
                else:
                    g.copy(p)
                    dirty = True
            return dirty
        g.copy(p)
        return True
    head, rest = path[0], path[1:]
    if token == START_OBJECT and head == KEY:
        dirty = False
        while p.next_token() != END_OBJECT:
            if dirty:
                p.skip_children()
            else:
                dirty = _evaluate(p, g, style, rest)
        return dirty
    if token == START_ARRAY and head == SUBSCRIPT and rest[0] == WILDCARD:
        after = rest[1:]
        if after[:2] == [SUBSCRIPT, WILDCARD]:  # Hive's [*][*]: one level flattened
            dirty = False
            g.start(START_ARRAY)
            while p.next_token() != END_ARRAY:
                dirty |= _evaluate(p, g, FLATTEN, after[2:])
            g.end()
            return dirty
        if style != QUOTED:
            buffer = _Generator(utf8=False, java_version=g.java_version)
            buffer.start(START_ARRAY)
            count = 0
            while p.next_token() != END_ARRAY:
                count += 1 if _evaluate(p, buffer, QUOTED if style == RAW else FLATTEN, after) else 0
            buffer.end()
            text = buffer.text()
            if count > 1:
                g.raw_value(text)
            elif count == 1:
                g.raw_value(text[1:-1])
            return count > 0
        dirty = False
        g.start(START_ARRAY)
        while p.next_token() != END_ARRAY:
            dirty |= _evaluate(p, g, QUOTED, after)
        g.end()
        return dirty
    if token == START_ARRAY and head == SUBSCRIPT and rest[0][0] == "index":
        index, after = rest[0][1], rest[1:]
        p.next_token()
        inner = QUOTED if after[:2] == [SUBSCRIPT, WILDCARD] else style
        return _array_index(p, index, lambda: _evaluate(p, g, inner, after))
    if token == FIELD_NAME and head[0] == "named" and p.name == head[1]:
        if p.next_token() != NULL:
            return _evaluate(p, g, style, rest)
        return False
    if token == FIELD_NAME and head == WILDCARD:
        p.next_token()
        return _evaluate(p, g, style, rest)
    p.skip_children()
    return False


def get_json_object(json: str, path, java_version: int | None = 17) -> str | None:
    """``get_json_object(json, path)``; ``path`` a string or instructions parsed once; numbers
    with a fraction or an exponent written as the JVM of ``java_version`` prints them."""
    instructions = parse_path(path) if isinstance(path, str) else path
    if instructions is None:
        return None
    p = _Parser(json)
    g = _Generator(utf8=True, java_version=java_version)
    try:
        p.next_token()
        matched = _evaluate(p, g, RAW, instructions)
    except _Invalid:
        return None
    return g.text() if matched else None


def json_array_length(json: str) -> int | None:
    p = _Parser(json)
    try:
        if p.next_token() != START_ARRAY:
            return None
        length = 0
        while p.next_token() != END_ARRAY:
            length += 1
            p.skip_children()
        return length
    except _Invalid:
        return None


def json_object_keys(json: str) -> list | None:
    p = _Parser(json)
    try:
        if p.next_token() != START_OBJECT:
            return None
        keys = []
        while True:  # Jackson's nextValue: the value after a field name, its name current
            token = p.next_token()
            if token == FIELD_NAME:
                name = p.name
                p.next_token()
                keys.append(name)
                p.skip_children()
            elif token is None or token == END_OBJECT:
                return keys
    except _Invalid:
        return None


JSON_FUNCTIONS = {"get_json_object": get_json_object, "json_array_length": json_array_length,
                  "json_object_keys": json_object_keys}


# -- to_json ---------------------------------------------------------------------------------------

def writable(t) -> bool:
    """Whether ``to_json`` writes values of type ``t`` exactly: arrays and maps (nested too) of
    numbers, STRINGs, BOOLEANs, DATEs, TIMESTAMPs and TIMESTAMP_NTZs (a FLOAT or DOUBLE as
    Java's ``Float.toString`` / ``Double.toString`` on the session's Java version)."""
    from sparkcep.evaluation import sql_types as st

    inner = st.element_type(t)
    if inner is not None:
        return writable(inner) or inner.null
    entries = st.map_types(t)
    if entries is not None:
        return _key_text(entries[0]) is not None and (writable(entries[1]) or entries[1].null)
    fields = st.struct_fields(t)  # -- structs (one line): a STRUCT of such fields --
    if fields is not None:
        return st.struct_element(t) and all(writable(ft) or ft.null for _name, ft in fields)
    return t.numeric or t.name in ("string", "boolean", "date", "timestamp", "timestamp_ntz")


def _number_text(t, java_version: int):
    """A DOUBLE's or FLOAT's text: Java's ``Double.toString`` / ``Float.toString``."""
    if t.name == "double":
        return lambda value: java_double_text.double_text(value, java_version)
    return lambda value: java_double_text.float_text(value, java_version)


def _big_decimal(scale: int):
    """A DECIMAL of scale ``scale`` as Java's ``BigDecimal.toString`` (Python's ``str`` of a
    Decimal follows the same rules: ``1E-7``, ``0E-7``, ``0.0000010``), never ``-0``."""
    exponent = Decimal(1).scaleb(-scale)

    def text(value: Decimal) -> str:
        exact = value.quantize(exponent, context=_EXACT) if value else Decimal(0).scaleb(-scale)
        return str(exact)

    return text


def _offset_text(offset) -> str:
    """Java's ``XXX``: ``Z`` for UTC, ``+HH:MM``, ``+HH:MM:ss`` when the offset has seconds."""
    seconds = int(offset.total_seconds())
    if seconds == 0:
        return "Z"
    sign = "+" if seconds > 0 else "-"
    hours, rest = divmod(abs(seconds), 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{sign}{hours:02d}:{minutes:02d}" + (f":{seconds:02d}" if seconds else "")


def _datetime_text(value, with_offset: str | None) -> str:
    text = (f"{value.year:04d}-{value.month:02d}-{value.day:02d}T{value.hour:02d}:{value.minute:02d}:"
            f"{value.second:02d}.{value.microsecond // 1000:03d}")
    return text + with_offset if with_offset is not None else text


def _value_writer(t, zone: str, java_version: int):
    """The JSON text of a non-NULL value of type ``t``, as Spark's ``JacksonGenerator`` writes it
    with no options: dates ``yyyy-MM-dd``, TIMESTAMPs ``yyyy-MM-dd'T'HH:mm:ss.SSSXXX`` in the
    session time zone, TIMESTAMP_NTZs ``yyyy-MM-dd'T'HH:mm:ss.SSS`` (milliseconds truncated)."""
    from zoneinfo import ZoneInfo

    from sparkcep.evaluation import sql_types as st

    inner = st.element_type(t)
    if inner is not None:
        each = _value_writer(inner, zone, java_version)
        return lambda values: "[" + ",".join("null" if v is None else each(v) for v in values) + "]"
    entries = st.map_types(t)
    if entries is not None:
        key, item = _key_text(entries[0], java_version), _value_writer(entries[1], zone, java_version)
        return lambda pairs: "{" + ",".join(
            quoted(key(k), utf8=False) + ":" + ("null" if v is None else item(v)) for k, v in pairs) + "}"
    if t.null:
        return lambda value: "null"
    fields = st.struct_fields(t)
    if fields is not None:  # -- structs: an object, NULL fields left out (ignoreNullFields, Spark's default) --
        writers = tuple((quoted(name, utf8=False) + ":", _value_writer(ft, zone, java_version)) for name, ft in fields)
        return lambda value: "{" + ",".join(name + w(v) for (name, w), v in zip(writers, value.values())
                                            if v is not None) + "}"
    if t.integral:
        return str
    if t.decimal:
        return _big_decimal(t.scale)
    if t.fractional:  # Jackson's writeNumber; NaN and the infinities quoted (QUOTE_NON_NUMERIC_NUMBERS)
        text = _number_text(t, java_version)
        return lambda value: text(value) if math.isfinite(value) else '"' + text(value) + '"'
    if t.name == "boolean":
        return lambda value: "true" if value else "false"
    if t.name == "string":
        return lambda value: quoted(value, utf8=False)
    if t.name == "date":
        return lambda value: '"' + value.isoformat() + '"'
    if t.name == "timestamp_ntz":
        return lambda value: '"' + _datetime_text(value, None) + '"'
    tz = ZoneInfo(zone)

    def timestamp(value) -> str:
        try:
            local = value.astimezone(tz)
        except OverflowError:
            raise MatchRuntimeError(
                "DATETIME_OUT_OF_PYTHON_RANGE",
                "to_json of a TIMESTAMP whose local date-time lies after 9999-12-31 in a DEFINE expression, which "
                "Spark holds and sparkcep's Python side does not; apply it inside the navigation") from None
        return '"' + _datetime_text(local, _offset_text(local.utcoffset())) + '"'

    return timestamp


def _key_text(t, java_version: int = 17):
    """A map key as Spark writes it (``toString`` of its internal value): a DATE as its days since
    1970-01-01, a TIMESTAMP as its microseconds since 1970-01-01 00:00 UTC, a TIMESTAMP_NTZ as
    those of its local date-time; None for the types not written here."""
    import datetime as dt

    if t.integral:
        return str
    if t.decimal:
        return _big_decimal(t.scale)
    if t.fractional:
        return _number_text(t, java_version)
    if t.name == "string":
        return lambda value: value
    if t.name == "boolean":
        return lambda value: "true" if value else "false"
    if t.name == "date":
        return lambda value: str((value - dt.date(1970, 1, 1)).days)
    epoch = dt.datetime(1970, 1, 1)
    if t.name == "timestamp":
        utc = dt.timezone.utc
        return lambda value: str((value.astimezone(utc).replace(tzinfo=None) - epoch) // dt.timedelta(microseconds=1))
    if t.name == "timestamp_ntz":
        return lambda value: str((value - epoch) // dt.timedelta(microseconds=1))
    return None


def to_json(t, zone: str, java_version: int = 17):
    """``to_json(x)`` of an array, a map or a struct of type ``t`` (``writable``), without options."""
    return _value_writer(t, zone, java_version)
