"""Row patterns as regular expressions over row codes (one character per row: the bit set of
the variables whose DEFINE the row satisfies), for the regex fast path
(``engines.standard.regex_path``, Python's ``regex`` module), its linear-time form
(``engines.standard.marked_regex``, RE2 through Arrow) and the Catalyst path
(``compiler.catalyst_path``, ``java.util.regex``).

Which patterns a backtracking engine may take (``regex_eligible``) is decided here, with the
reason in ``_eligible``; ``groups_readable`` adds the condition under which one capture group
holds all the rows of a variable occurrence, so that group lengths classify every row of a match.
"""

from __future__ import annotations

import itertools

import regex

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.spec import MatchSpec, Strategy

MAX_VARIABLES = 8


def _eligible(pattern: rp.Pattern, repeated: bool = False) -> bool:
    """``repeated``: ``pattern`` is the body of a quantifier that allows two or more iterations.
    Inside such a body a second repeating quantifier (``(A+)+``) or a choice (``(A | B)+``) gives
    a backtracking regex engine exponentially many ways to split the same rows (a row may satisfy
    several variables), and it has no failure memo: those patterns go to the general matcher,
    whose memo keeps them polynomial."""
    if isinstance(pattern, (rp.Label, rp.Empty, rp.Anchor)):
        return True
    if isinstance(pattern, (rp.Exclusion, rp.Negation)):
        return False
    if isinstance(pattern, (rp.Alternation, rp.Permute)) and repeated:
        return False
    if isinstance(pattern, (rp.Concat, rp.Alternation, rp.Permute)):
        return all(_eligible(item, repeated) for item in pattern.items)
    if isinstance(pattern, rp.Quantified):
        repeats = pattern.max is None or pattern.max > 1
        if repeats and repeated:
            return False
        return not rp.can_match_empty(pattern.pattern) and _eligible(pattern.pattern, repeated or repeats)
    return False


def regex_eligible(spec: MatchSpec, has_conditions: bool) -> bool:
    return (
        spec.strategy is Strategy.STRICT_CONTIGUITY
        and not has_conditions
        and spec.within is None
        and len(spec.variable_names) <= MAX_VARIABLES
        and _eligible(spec.pattern)
    )


class Translation:
    """The regular expression for a pattern; group ``i`` is one occurrence of a variable."""

    def __init__(self, n_vars: int) -> None:
        self.n_vars = n_vars
        self.group_vars: list[int] = []
        self.group_repeated: list[bool] = []  # per group: inside a quantifier allowing 2+ rounds
        self._repeat_depth = 0
        self.classes = [self._class(v) for v in range(n_vars)]

    def _class(self, var: int) -> str:
        codes = [c for c in range(1 << self.n_vars) if c >> var & 1]
        return "[" + "".join(regex.escape(chr(c)) for c in codes) + "]"

    def __call__(self, p: rp.Pattern) -> str:
        if isinstance(p, rp.Label):
            self.group_vars.append(p.var)
            self.group_repeated.append(self._repeat_depth > 0)
            return f"({self.classes[p.var]})"
        if isinstance(p, rp.Empty):
            return "(?:)"
        if isinstance(p, rp.Anchor):
            return r"\A" if p.start else r"\Z"
        if isinstance(p, rp.Concat):
            return "".join(self(item) for item in p.items)
        if isinstance(p, rp.Alternation):
            return "(?:" + "|".join(self(item) for item in p.items) + ")"
        if isinstance(p, rp.Permute):
            orders = itertools.permutations(p.items)
            return "(?:" + "|".join("".join(self(item) for item in order) for order in orders) + ")"
        if isinstance(p, rp.Quantified):
            high = "" if p.max is None else str(p.max)
            repeats = p.max is None or p.max > 1
            self._repeat_depth += repeats
            inner = self(p.pattern)
            self._repeat_depth -= repeats
            return f"(?:{inner}){{{p.min},{high}}}" + ("" if p.greedy else "?")
        raise TypeError(f"not supported by the regex fast path: {p!r}")



def groups_readable(pattern: rp.Pattern, repeated: bool = False) -> bool:
    """Every variable occurrence is outside any repetition, or is itself the quantified
    sub-pattern (``A{2,}``), so one capture group holds all of its rows."""
    if isinstance(pattern, (rp.Label, rp.Empty, rp.Anchor)):
        return not (repeated and isinstance(pattern, rp.Label))
    if isinstance(pattern, (rp.Concat, rp.Alternation, rp.Permute)):
        return all(groups_readable(item, repeated) for item in pattern.items)
    if isinstance(pattern, rp.Quantified):
        repeats = pattern.max is None or pattern.max > 1
        if isinstance(pattern.pattern, rp.Label):
            return not repeated
        return groups_readable(pattern.pattern, repeated or repeats)
    return False


class GroupedTranslation(Translation):
    """The translation with one group around a quantified variable (``A{2,}``), so that the group
    holds all of its rows where ``Translation``'s group inside the repetition holds one capture per
    row. Only for patterns whose groups are readable (``groups_readable``): every group is then a
    variable occurrence outside any repetition, and the groups, in the order written, tile each
    match. Capturing once per group is also about twice as fast in Python's ``regex``."""

    def __call__(self, pattern: rp.Pattern) -> str:
        if isinstance(pattern, rp.Quantified) and isinstance(pattern.pattern, rp.Label):
            bounds = "{%d,%s}" % (pattern.min, "" if pattern.max is None else pattern.max)
            self.group_vars.append(pattern.pattern.var)
            self.group_repeated.append(False)
            return f"({self.classes[pattern.pattern.var]}{bounds}{'' if pattern.greedy else '?'})"
        return super().__call__(pattern)


class PortableGroupedTranslation(GroupedTranslation):
    """``GroupedTranslation`` in the syntax ``java.util.regex`` (the Catalyst path) and RE2 (the
    marked form) share: ``\\x{..}`` code points and ``\\z`` for the end."""

    def _class(self, var: int) -> str:
        codes = [c for c in range(1 << self.n_vars) if c >> var & 1]
        return "[" + "".join(f"\\x{{{c:x}}}" for c in codes) + "]"

    def __call__(self, pattern: rp.Pattern) -> str:
        if isinstance(pattern, rp.Anchor):
            return r"\A" if pattern.start else r"\z"
        return super().__call__(pattern)
