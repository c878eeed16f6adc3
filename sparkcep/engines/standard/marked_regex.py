"""The regex fast path's column-wise results in linear time: every match of a partition found by
one call to RE2, with no Python per match.

``regex_path`` matches with Python's ``regex`` module, a backtracking engine, and reads each
match's groups in Python. Where the pattern allows it, this module hands the whole partition to
RE2 instead (through Arrow's ``replace_substring_regex``), which
rewrites the partition's row codes so that every match is surrounded by marker characters:

    <match> <group> rows of group 1 <group> rows of group 2 ... <end>

Row codes are below 0x80 (at most 7 variables) and each marker is a two-byte character whose
lead byte 0xC3 no row code has, so NumPy finds the markers in the rewritten bytes at once. A
marker's row number is its position less the bytes of the markers before it; group lengths are
the differences between consecutive markers.

Why the answer is the backtracking engine's: RE2 in its default (leftmost-first) mode reports the
match and the submatches a backtracking engine would for patterns without back-references, and
its global replace resumes each search where the previous match ended, which is AFTER MATCH SKIP
PAST LAST ROW; both rest on the regex fast path's argument that leftmost-first with greedy and
reluctant quantifiers is SQL:2016's preferment (ISO/IEC 19075-5, 4.12). The form applies only
where, in addition to the fast path's conditions:

- the pattern cannot match no rows (a global replace and the standard resume differently after
  an empty match) and the skip is PAST LAST ROW (RE2 has no lookahead for TO NEXT ROW);
- every variable occurrence is its own group or a quantified variable as a whole
  (``regex_translation.groups_readable``), so that the groups, in the order written, tile each
  match and their lengths classify every row;
- at most 9 groups (RE2's rewrite strings reach ``\\1`` to ``\\9``) and RE2 compiles the pattern
  (at most 1,000 repetitions in a bound, a bounded program size).

Everything else stays on the backtracking engine; ``tests/matcher/test_marked_regex.py`` checks the
two against each other and the brute-force oracle.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sparkcep.engines import rowpattern as rp
from sparkcep.engines.budgets import budget_exceeded
from sparkcep.engines.contract import MatchSummaries, SummaryRequest
from sparkcep.engines.spec import MatchSpec, SkipMode
from sparkcep.engines.standard.regex_translation import PortableGroupedTranslation, groups_readable

MAX_VARIABLES = 7  # row codes below 0x80: a single byte, never a marker's lead byte
MAX_GROUPS = 9  # RE2 rewrite strings reference groups \1 to \9
_LEAD = 0xC3  # the first UTF-8 byte of the markers below
_MATCH, _GROUP, _END = "\u00ff", "\u00fe", "\u00fd"


@dataclass(frozen=True)
class MarkedRegex:
    """A pattern's RE2 form: ``pattern`` over row codes, ``replacement`` that surrounds each
    match with markers, and the variable of each group."""

    pattern: str
    replacement: str
    group_vars: tuple[int, ...]

    def summarize(self, codes: bytes, request: SummaryRequest, spec: MatchSpec) -> MatchSummaries:
        """All matches of one partition (``codes``: one byte per row), as ``regex_path``
        returns them column-wise."""
        rewritten = pc.replace_substring_regex(
            pa.array([codes], pa.large_binary()), pattern=self.pattern, replacement=self.replacement)
        out = np.frombuffer(rewritten[0].as_buffer(), dtype=np.uint8)
        leads = np.flatnonzero(out == _LEAD)
        # the row each marker stands before: its position less two bytes per earlier marker
        rows = leads - 2 * np.arange(len(leads), dtype=np.int64)
        per_match = len(self.group_vars) + 2
        matches = len(leads) // per_match
        if matches > spec.max_matches:
            raise budget_exceeded(spec, "max_matches")
        marks = rows.reshape(matches, per_match)
        return summaries_from_groups(marks[:, 0], marks[:, -1], marks[:, 1:-1],
                                     np.diff(marks[:, 1:], axis=1), self.group_vars, request)


def summaries_from_groups(start: np.ndarray, end: np.ndarray, group_start: np.ndarray,
                          group_length: np.ndarray, group_vars: tuple[int, ...],
                          request: SummaryRequest) -> MatchSummaries:
    """``MatchSummaries`` from each match's span and its groups' starts and lengths (one row per
    match, one column per group), where the groups, in the order written, tile each match (a
    group that took no part has length 0): ``groups_readable`` patterns translated with one
    group per variable occurrence."""
    matches = len(start)
    first, last, count = {}, {}, {}
    picked = np.arange(matches)
    for var in request.first | request.last | request.count:
        mine = np.array([v == var for v in group_vars], dtype=bool)
        rows_of_var = (group_length > 0) & mine
        count[var] = np.where(mine, group_length, 0).sum(axis=1)
        if not mine.any():  # also a pattern without groups (``PATTERN (())``)
            first[var] = last[var] = np.full(matches, -1, dtype=np.int64)
            continue
        # the first group of the variable with rows holds its first row, the last such its last
        first_group = np.argmax(rows_of_var, axis=1)
        last_group = rows_of_var.shape[1] - 1 - np.argmax(rows_of_var[:, ::-1], axis=1)
        has_rows = rows_of_var.any(axis=1)
        first[var] = np.where(has_rows, group_start[picked, first_group], -1)
        last_row = group_start[picked, last_group] + group_length[picked, last_group] - 1
        last[var] = np.where(has_rows, last_row, -1)
    labels = None
    if request.labels:
        every_group = np.tile(np.array(group_vars, dtype=np.int64), matches)
        labels = np.repeat(every_group, group_length.ravel())
    return MatchSummaries(
        number=np.arange(1, matches + 1, dtype=np.int64),
        start=start,
        end=end,
        first={v: first[v] for v in request.first},
        last={v: last[v] for v in request.last},
        count={v: count[v] for v in request.count},
        labels=labels,
    )


def marked_form(spec: MatchSpec) -> MarkedRegex | None:
    """The pattern's RE2 form, or None where it does not apply (``marked_reason``; the caller has
    checked the regex fast path's own conditions)."""
    if marked_reason(spec) is not None:
        return None
    return _compiled(spec.pattern, len(spec.variable_names))


def marked_reason(spec: MatchSpec) -> str | None:
    """Why a regex fast path pattern stays on the backtracking engine (None: RE2 takes it)."""
    if spec.skip is not SkipMode.PAST_LAST_ROW:
        return f"AFTER MATCH SKIP {spec.skip.value}: RE2 resumes only past the last row"
    if rp.can_match_empty(spec.pattern):
        return "the pattern can match no rows"
    if len(spec.variable_names) > MAX_VARIABLES:
        return f"more than {MAX_VARIABLES} pattern variables"
    if not groups_readable(spec.pattern):
        return "a variable inside a repeated group (only its last row would be readable)"
    if _compiled(spec.pattern, len(spec.variable_names)) is None:
        return (f"more than {MAX_GROUPS} variable occurrences, or a bound RE2 refuses (over "
                "1,000 repetitions)")
    return None


@functools.lru_cache(maxsize=256)
def _compiled(pattern: rp.Pattern, n_vars: int) -> MarkedRegex | None:
    translate = PortableGroupedTranslation(n_vars)
    body = translate(pattern)
    groups = len(translate.group_vars)
    if groups > MAX_GROUPS:
        return None
    replacement = _MATCH + "".join(f"{_GROUP}\\{g}" for g in range(1, groups + 1)) + _END
    form = MarkedRegex(f"(?s){body}", replacement, tuple(translate.group_vars))
    try:  # RE2 compiles the pattern once here; a bound over 1,000 or a program too large fails
        pc.replace_substring_regex(pa.array([b""], pa.large_binary()), pattern=form.pattern,
                                   replacement=form.replacement)
    except pa.ArrowInvalid:
        return None
    return form
