"""Java regular expressions, as Spark's ``RLIKE`` / ``REGEXP`` / ``regexp_like`` compiles them
(``java.util.regex.Pattern.compile(p)``, no flags, then ``find``), in Python's ``re``.

Only patterns whose meaning the two engines share exactly are translated; every other pattern is
refused with ``UNSUPPORTED_REGEX_PATTERN`` instead of being answered differently. What is kept,
and how it is carried over (the whole expression is compiled with ``re.ASCII``, which makes
Python's ``\\d \\w \\s`` and their negations Java's ASCII classes):

* literal characters (each escaped for Python), ``\\`` before an ASCII punctuation character,
  ``\\t \\n \\r \\f \\a \\e``, ``\\xhh``, ``\\uhhhh`` (not a surrogate);
* ``\\d \\D \\w \\W \\s \\S``, ``\\A`` and ``\\z`` (Python's ``\\Z``);
* ``.``: any character but Java's line terminators (``\\n \\r \\u0085 \\u2028 \\u2029``; Python's
  ``.`` only excludes ``\\n``);
* ``^`` (the start of the input) and ``$`` (the end of the input, or before a final line
  terminator, ``\\r\\n`` counting as one; Python's ``$`` only knows ``\\n``);
* ``|``, groups ``( )``, ``(?: )``, lookahead ``(?= )`` ``(?! )``, atomic ``(?> )``;
* quantifiers ``* + ? {n} {n,} {n,m}``, each greedy, lazy (``?``) or possessive (``+``)
  (atomic groups and possessive quantifiers need Python 3.11's ``re``; on 3.10 Python refuses
  them and so does ``compile_java_regex``, with ``UNSUPPORTED_REGEX_PATTERN``);
* character classes ``[...]`` / ``[^...]`` of single characters, ranges and the class escapes
  above.

Refused (``UNSUPPORTED_REGEX_PATTERN``): inline flags ``(?i)`` ..., lookbehind, named groups,
back references, ``\\b \\B`` (Unicode-aware in Java 17, ASCII in Java 19+), ``\\p{..}``,
``\\Q..\\E``, ``\\h \\v \\R \\X \\G \\Z``, octal escapes, nested classes and ``&&`` inside a class,
``]`` first in a class, and a ``-`` in a class that is neither a range nor at its ends. A pattern
Java itself rejects (a quantifier with nothing to repeat, an unbalanced parenthesis, an
unterminated class, ``{`` that is not a quantifier, a reversed range) is
``INVALID_REGEX_PATTERN``, as Spark raises its own error.

Replacement strings of ``regexp_replace`` are read as Java's ``Matcher.appendReplacement``
reads them (``java_replacement``): ``$n`` takes the longest run of digits that names a group,
``\\c`` is the character c; ``${name}`` is refused before any row is read
(``check_replacement``), as named groups are.
"""

from __future__ import annotations

import re
from functools import lru_cache

from sparkcep.errors import MatchRuntimeError

LINE_TERMINATORS = "\n\r\u0085\u2028\u2029"
_DOT = "[^\\n\\r\\u0085\\u2028\\u2029]"
# Java's $ without MULTILINE: at the end, or before a final \r\n, \n (not after \r), \r, \u0085,
# \u2028 or \u2029
_DOLLAR = "(?:\\Z|(?=\\r\\n\\Z)|(?<!\\r)(?=\\n\\Z)|(?=[\\r\\u0085\\u2028\\u2029]\\Z))"
_CONTROL = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "a": "\a", "e": "\x1b"}
_CLASS_ESCAPES = "dDwWsS"
_PUNCTUATION = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ ")
NOTHING, ATOM, ANCHOR = "nothing", "atom", "anchor"  # what precedes a quantifier
_INT_MAX = (1 << 31) - 1
_QUANTIFIER = re.compile(r"\{(\d+)(,(\d*))?\}")


def _unsupported(pattern: str, what: str) -> MatchRuntimeError:
    return MatchRuntimeError(
        "UNSUPPORTED_REGEX_PATTERN",
        f"the regular expression '{pattern}' uses {what}, whose Java meaning sparkcep does not "
        "reproduce exactly in a match-dependent DEFINE; apply RLIKE inside the navigation "
        "(LAST(A.s RLIKE '...')) so Spark evaluates it, or rewrite the pattern")


def _invalid(pattern: str, why: str) -> MatchRuntimeError:
    return MatchRuntimeError("INVALID_REGEX_PATTERN",
                             f"the regular expression '{pattern}' is invalid: {why}")


class _Translator:
    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.i = 0
        self.out: list[str] = []

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.pattern[j] if j < len(self.pattern) else ""

    def unsupported(self, what: str) -> MatchRuntimeError:
        return _unsupported(self.pattern, what)

    def invalid(self, why: str) -> MatchRuntimeError:
        return _invalid(self.pattern, why)

    def hex_escape(self, letter: str) -> str:
        """The character of ``\\xhh`` / ``\\uhhhh`` (the backslash and letter already read)."""
        width = 2 if letter == "x" else 4
        digits = self.pattern[self.i:self.i + width]
        if len(digits) != width or not all(c in "0123456789abcdefABCDEF" for c in digits):
            raise self.unsupported(f"'\\{letter}' not followed by {width} hexadecimal digits")
        code = int(digits, 16)
        if 0xD800 <= code <= 0xDFFF:
            raise self.unsupported("a surrogate escape")
        self.i += width
        return chr(code)

    def escape(self, in_class: bool) -> tuple[str, bool]:
        """After a backslash: (Python text, whether it is one character)."""
        if self.i >= len(self.pattern):
            raise self.invalid("it ends with a backslash")
        c = self.pattern[self.i]
        self.i += 1
        if c in _CLASS_ESCAPES:
            return "\\" + c, False
        if c in _CONTROL:
            return re.escape(_CONTROL[c]), True
        if c in "xu":
            return re.escape(self.hex_escape(c)), True
        if c in _PUNCTUATION:
            return re.escape(c), True
        if not in_class and c == "A":
            return "\\A", False
        if not in_class and c == "z":
            return "\\Z", False
        raise self.unsupported(f"'\\{c}'")

    def translate(self) -> str:
        groups: list[str] = []  # the kinds of the open groups
        last = NOTHING  # what a quantifier here would repeat
        pattern = self.pattern
        while self.i < len(pattern):
            c = pattern[self.i]
            self.i += 1
            if c in "*+?{":
                if c == "{":
                    found = _QUANTIFIER.match(pattern, self.i - 1)
                    if found is None:
                        raise self.invalid("'{' does not start a quantifier {n}, {n,} or {n,m}")
                    low, high = found.group(1), found.group(3)
                    if max(int(low), int(high or 0)) > _INT_MAX:  # Java counts in an int
                        raise self.invalid("a quantifier's bound is above 2147483647")
                    if found.group(2) and high and int(high) < int(low):
                        raise self.invalid("a quantifier's maximum is below its minimum")
                    self.i = found.end()
                    text = found.group(0)
                else:
                    text = c
                if last == NOTHING:
                    raise self.invalid(f"'{c}' has nothing to repeat")
                if last == ANCHOR:
                    raise self.unsupported("a quantifier on an anchor or a lookahead")
                if self.peek() in ("?", "+"):  # lazy or possessive
                    text += self.peek()
                    self.i += 1
                self.out.append(text)
                last = NOTHING
            elif c == "\\":
                text, _single = self.escape(in_class=False)
                self.out.append(text)
                last = ANCHOR if text in ("\\A", "\\Z") else ATOM
            elif c == ".":
                self.out.append(_DOT)
                last = ATOM
            elif c == "^":
                self.out.append("^")
                last = ANCHOR
            elif c == "$":
                self.out.append(_DOLLAR)
                last = ANCHOR
            elif c == "|":
                self.out.append("|")
                last = NOTHING
            elif c == "(":
                if self.peek() == "?":
                    kind = pattern[self.i:self.i + 2]
                    if kind in ("?:", "?=", "?!", "?>"):
                        self.out.append("(" + kind)
                        groups.append(ANCHOR if kind in ("?=", "?!") else ATOM)
                        self.i += 2
                    elif kind == "?<" and self.peek(2) in ("=", "!"):
                        raise self.unsupported("a lookbehind")
                    elif kind == "?<":
                        raise self.unsupported("a named group")
                    else:
                        raise self.unsupported("an inline flag or group construct '(?'")
                else:
                    self.out.append("(")
                    groups.append(ATOM)
                last = NOTHING
            elif c == ")":
                if not groups:
                    raise self.invalid("an unmatched ')'")
                last = groups.pop()
                self.out.append(")")
            elif c == "[":
                self.out.append(self.character_class())
                last = ATOM
            else:
                self.out.append(re.escape(c))
                last = ATOM
        if groups:
            raise self.invalid("an unclosed '('")
        return "".join(self.out)

    def character_class(self) -> str:
        pattern = self.pattern
        negated = self.peek() == "^"
        if negated:
            self.i += 1
        if self.peek() == "]":
            raise self.unsupported("']' first in a character class")
        items: list[str] = []
        # each member: (Python text, the character when it is a single character, else None)
        members: list[tuple[str, str | None]] = []
        while True:
            if self.i >= len(pattern):
                raise self.invalid("an unclosed character class")
            c = pattern[self.i]
            self.i += 1
            if c == "]":
                break
            if c == "[":
                raise self.unsupported("a nested character class")
            if c == "&" and self.peek() == "&":
                raise self.unsupported("a character class intersection '&&'")
            if c == "-" and members and self.peek() != "]":
                low_text, low = members[-1]
                if low is None or items[-1] != low_text:
                    raise self.unsupported("a '-' in a character class that is not a range")
                high_char = pattern[self.i] if self.i < len(pattern) else ""
                self.i += 1
                if high_char == "\\":
                    high_text, single = self.escape(in_class=True)
                    if not single:
                        raise self.unsupported("a range ending in a class escape")
                    high = re.sub(r"^\\(.)$", r"\1", high_text, flags=re.DOTALL)
                elif high_char in ("[", ""):
                    raise self.unsupported("a range ending in '[' or at the end of the pattern")
                else:
                    high = high_char
                if ord(high) < ord(low):
                    raise self.invalid(f"the range {low}-{high} is reversed")
                items[-1] = f"{re.escape(low)}-{re.escape(high)}"
                members[-1] = (items[-1], None)
                continue
            if c == "\\":
                text, single = self.escape(in_class=True)
                char = re.sub(r"^\\(.)$", r"\1", text, flags=re.DOTALL) if single else None
            else:
                text, char = re.escape(c), c
            items.append(text)
            members.append((text, char))
        if not items:
            raise self.unsupported("an empty character class")
        return "[" + ("^" if negated else "") + "".join(items) + "]"


@lru_cache(maxsize=256)
def compile_java_regex(pattern: str) -> re.Pattern:
    """``pattern`` (Java's syntax) as a compiled Python expression with the same matches, or a
    ``MatchRuntimeError`` (``UNSUPPORTED_REGEX_PATTERN`` / ``INVALID_REGEX_PATTERN``)."""
    translated = _Translator(pattern).translate()
    try:
        return re.compile(translated, re.ASCII)
    except re.error as error:  # a construct the translator let through that Python refuses
        raise _unsupported(pattern, f"a construct Python's re rejects ({error})") from None


def rlike(value: str, pattern: str) -> bool:
    """``value RLIKE pattern`` of two non-NULL strings, as Spark: some substring matches."""
    return compile_java_regex(pattern).search(value) is not None


# -- replacement strings (Matcher.appendReplacement), for regexp_replace ----------------------

def check_replacement(replacement: str) -> None:
    """Refuse ``${name}`` in ``replacement`` (``UNSUPPORTED_REGEX_REPLACEMENT``) before any row
    is read; other mistakes depend on the pattern's groups and on a match (Java's rules)."""
    j = 0
    while j < len(replacement):
        c = replacement[j]
        if c == "\\":
            j += 2
            continue
        if c == "$" and replacement[j + 1:j + 2] == "{":
            raise MatchRuntimeError(
                "UNSUPPORTED_REGEX_REPLACEMENT",
                f"the replacement '{replacement}' refers to a named group with '${{...}}', which "
                "sparkcep does not reproduce (named groups are refused in patterns; Spark answers "
                "an empty string for it); use $n")
        j += 1


@lru_cache(maxsize=256)
def java_replacement(replacement: str, groups: int):
    """``replacement`` as Java's ``appendReplacement`` reads it for a pattern of ``groups``
    groups: a tuple of literal strings and group numbers, or the ``MatchRuntimeError`` Java's
    rules give it (raised by the caller only when something matches)."""
    check_replacement(replacement)
    pieces: list = []
    literal: list[str] = []
    j = 0
    while j < len(replacement):
        c = replacement[j]
        if c == "\\":
            if j + 1 >= len(replacement):
                return _invalid_replacement("it ends with a backslash, which escapes nothing")
            literal.append(replacement[j + 1])
            j += 2
        elif c == "$":
            if j + 1 >= len(replacement):
                return _invalid_replacement("it ends with '$', which names no group")
            digit = replacement[j + 1]
            if digit not in "0123456789":
                return _invalid_replacement(f"'${digit}' is not a group reference")
            number = int(digit)
            if number > groups:
                return _invalid_replacement(f"there is no group {number}")
            j += 2
            while j < len(replacement) and replacement[j] in "0123456789":
                longer = number * 10 + int(replacement[j])
                if longer > groups:
                    break
                number = longer
                j += 1
            if literal:
                pieces.append("".join(literal))
                literal = []
            pieces.append(number)
        else:
            literal.append(c)
            j += 1
    if literal:
        pieces.append("".join(literal))
    return tuple(pieces)


def _invalid_replacement(why: str) -> MatchRuntimeError:
    return MatchRuntimeError("INVALID_REGEXP_REPLACE", f"the replacement is invalid in Java: {why}")
