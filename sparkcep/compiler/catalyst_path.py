"""The Catalyst path: a whole MATCH_RECOGNIZE clause as plain Spark SQL, with no Python.

Where every DEFINE is row-local (Catalyst already computes the clause's bitmask column), the
pattern only has to be matched against one small integer per row. Per partition, Spark collects
those integers in ORDER BY order into one string, one character per row, and matches the pattern
as a ``java.util.regex`` regular expression over it (``regexp_replace``); the partition's rows
array is expanded back into the matched rows, each with its match number and variable, and the
measures are Spark aggregates over each match's rows (``GROUP BY`` the match for ONE ROW PER
MATCH, windows over it for ALL ROWS PER MATCH).

Why a regular expression: Java's backtracking matcher tries alternatives left first, greedy
quantifiers with more iterations first and reluctant ones with fewer first, and returns the first
successful way, which is SQL:2016's preferment (ISO/IEC 19075-5, 4.12) for the patterns admitted
here; the same argument as the Python regex fast path (``engines.standard.regex_path``), whose
eligibility rules this path keeps (no quantified sub-pattern that can match no rows, no nested
repetition or choice inside a repetition), plus one of its own: the rows each variable matched
must be readable from capture groups, so a variable inside a repeated group (``(A B)+``) is
refused (Java keeps only a group's last capture). Each variable occurrence, or a quantified
variable as a whole (``DOWN+``), is one capture group; a match's groups, in the order written,
then cover its rows one after the other, and their lengths classify every row.

One ``regexp_replace`` pass rewrites the partition's string into, per match, the rows skipped
before it and each group's rows, separated by two marker characters no row code uses; ``split``
reads the lengths back; ``\\G`` keeps each search where the previous one ended. AFTER MATCH SKIP PAST LAST ROW is Java's own resumption after a match;
SKIP TO NEXT ROW puts the pattern in a lookahead and consumes only the match's first row.

What stays on the Python path, and why, is ``ineligible_reason``'s answer (``explain`` prints
it). The partition's string is one value in one task: a clause without PARTITION BY (the whole
input one string) runs on the Python path unless the path is forced (``MODES``).
"""

from __future__ import annotations

from dataclasses import dataclass

from sparkcep.compiler.splice import quote_identifier, quote_string
from sparkcep.engines import rowpattern as rp
from sparkcep.engines.spec import MatchSpec, RowsPerMatch, SkipMode, Strategy
from sparkcep.engines.standard.regex_translation import PortableGroupedTranslation, groups_readable, regex_eligible
from sparkcep.plan import expressions as p

PREFIX = "__sparkcep_"
ROW_NUMBER = f"{PREFIX}rn"
MATCH_NUMBER = f"{PREFIX}mn"
VARIABLE = f"{PREFIX}var"
MAX_VARIABLES = 7  # row codes 0..127; codes 254 and 255 separate groups and matches
_GROUP_MARK, _MATCH_MARK = 254, 255
_AGGREGATES = {"count", "sum", "avg", "min", "max", "collect_list"}
# Which path a clause takes (``ChunkOptions.path``, from the session setting
# ``spark.sparkcep.path``): ``python`` (the default: the Arrow UDTF), ``auto`` (Catalyst where
# exact, the clause has PARTITION BY and its matches do not overlap), ``catalyst`` (Catalyst wherever exact, also without
# PARTITION BY). The Catalyst path is opt-in: its partitions are not bounded by the engines'
# budgets, its run-time errors in measures are Spark's, and it is not always the faster
# (docs/semantics.md, "The Catalyst path").
MODES = ("python", "auto", "catalyst")


def ineligible_reason(
    spec: MatchSpec, conditions: dict, components: list, mask_columns: int, has_partition: bool,
    has_order: bool, mode: str = "python",
) -> str | None:
    """Why the clause cannot take the Catalyst path (None: it can)."""
    if spec.strategy is not Strategy.STRICT_CONTIGUITY:
        return f"{spec.strategy.value}: only contiguous matches (SQL:2016) have a regex form"
    if spec.within is not None:
        return "WITHIN bounds a match by its ORDER BY key, not by its rows"
    if conditions:
        return "a DEFINE depends on the match (it reads other rows of the match)"
    if len(spec.variable_names) > MAX_VARIABLES or mask_columns != 1:
        return f"more than {MAX_VARIABLES} pattern variables"
    if not has_order:
        return "no ORDER BY"
    if rp.can_match_empty(spec.pattern):
        return "the pattern can match no rows (empty matches)"
    if not regex_eligible(spec, False) or not groups_readable(spec.pattern):
        return ("the pattern has no regex form whose groups classify every row (a variable "
                "inside a repeated group, a choice inside a repetition, exclusion, ...)")
    if spec.skip not in (SkipMode.PAST_LAST_ROW, SkipMode.TO_NEXT_ROW):
        return f"AFTER MATCH SKIP {spec.skip.value}: resuming inside a match"
    if spec.skip is SkipMode.TO_NEXT_ROW and spec.rows_per_match is RowsPerMatch.ALL_WITH_UNMATCHED:
        return "WITH UNMATCHED ROWS under SKIP TO NEXT ROW (overlapping matches)"
    all_rows = spec.rows_per_match is not RowsPerMatch.ONE
    for component in components:
        reason = _component_reason(component, all_rows)
        if reason is not None:
            return reason
    if not has_partition and mode in ("auto", "python"):
        return "no PARTITION BY: the whole input would be one string in one task"
    if spec.skip is SkipMode.TO_NEXT_ROW and mode in ("auto", "python"):
        # the cost rule: matches overlap, and the Catalyst path expands every row of every match
        # where the Python path reads each match's first and last rows column-wise; measured
        # slower here (docs/benchmarks.md, sections 11 and 11b)
        return ("AFTER MATCH SKIP TO NEXT ROW: overlapping matches make every row of every match "
                "one Spark row, slower than the Python path (SET spark.sparkcep.path = catalyst "
                "forces it)")
    if mode == "python":
        return ("it would apply, but it is opt-in (SET spark.sparkcep.path = auto) and this "
                "session uses the Python path")
    return None


def _component_reason(component, all_rows: bool) -> str | None:
    if isinstance(component, (p.Navigation, p.MatchNumber, p.Classifier)):
        return None
    if isinstance(component, p.Aggregate):
        if component.function not in _AGGREGATES:
            return f"the MEASURES aggregate {component.function}"
        if component.distinct and (all_rows or component.function == "collect_list"):
            return "a DISTINCT aggregate in ALL ROWS PER MATCH or over a list"
        return None
    kind = type(component).__name__
    return f"a MEASURES component Spark's aggregates do not compute here ({kind})"


def java_regex(spec: MatchSpec) -> tuple[str, list[int]]:
    """The regex over a partition's row codes and the variable of each pattern group: group 1
    is the rows skipped before the match; PAST LAST ROW consumes the match, TO NEXT ROW only its first
    row (the pattern in a lookahead, so the next search starts one row later)."""
    translate = PortableGroupedTranslation(len(spec.variable_names))
    body = translate(spec.pattern)
    # \G: each search continues where the last one ended (the rows between are group 1);
    # without it, a search that fails would be retried from every later row (quadratic)
    if spec.skip is SkipMode.TO_NEXT_ROW:
        return f"(?s)\\G(.*?)(?={body}).", translate.group_vars
    return f"(?s)\\G(.*?){body}", translate.group_vars


@dataclass(frozen=True)
class ClauseInput:
    """What the Catalyst query reads of a compiled clause.

    Attributes:
        numbered_sql: the input query as for the function (input columns, bitmask, value
            columns) with the row number (``ROW_NUMBER``, ``row_number()`` over ``window``) as
            its first column, in the same SELECT as the DEFINEs' lag/lead (one window operator).
        window: ``PARTITION BY ... ORDER BY ...`` as written (the window of lag/lead).
        partition: the PARTITION BY column names.
        mask_column: the bitmask column.
        value_columns: the name of each value column in ``numbered_sql``.
        computed: the columns ``numbered_sql`` adds to the input's (hidden from ALL ROWS output).
    """

    numbered_sql: str
    window: str
    partition: tuple[str, ...]
    mask_column: str
    value_columns: tuple[str, ...]
    computed: tuple[str, ...]


def catalyst_query(spec: MatchSpec, components: list, clause: ClauseInput) -> str:
    """The subquery standing where the function call would: the same columns the function
    returns (partition columns, or every input column for ALL ROWS PER MATCH, then one column
    per component, ``__sparkcep_c<i>``), computed by Spark alone.

    One shuffle and one sort (the window of row_number, lag and lead): per partition the rows
    are collected in order into one array (a sort aggregate over the sorted rows), the array's
    codes into one string, the regex's matches read back as lengths, and the array expanded
    into one row per matched row with its match number and variable. The measures are then
    aggregates over (partition, match number), which the partitioning already satisfies."""
    q = quote_identifier
    regex, group_vars = java_regex(spec)
    keys = [q(name) for name in clause.partition]
    copies = [q(f"{PREFIX}p{i}") for i in range(len(keys))]
    rn, mn, var, char = q(ROW_NUMBER), q(MATCH_NUMBER), q(VARIABLE), q(f"{PREFIX}ch")
    rows, lengths, codes, index = (q(f"{PREFIX}{n}") for n in ("rows", "l", "codes", "at"))
    # the row number first: each collected row is one flat struct ordered by it
    numbered = (f"SELECT *, chr({q(clause.mask_column)}) AS {char} "
                f"FROM ({clause.numbered_sql}) AS {PREFIX}t")
    copy_select = "".join(f"{k} AS {c}, " for k, c in zip(keys, copies))
    group_by = f" GROUP BY {', '.join(keys)}" if keys else ""
    collected = (f"SELECT {copy_select}collect_list(struct(*)) AS {rows} "
                 f"FROM ({numbered}) AS {PREFIX}n{group_by}")
    collected = (f"SELECT {''.join(f'{c}, ' for c in copies)}{in_row_order(rows)} AS {rows} "
                 f"FROM ({collected}) AS {PREFIX}u")
    # one string per partition (row i's code as character i), rewritten by the regex into, per
    # match, the skipped rows' and each group's codes between markers; read back as lengths
    text = f"array_join({rows}.{char}, '')"
    replacement = ", chr(254), ".join(f"'${g}'" for g in range(1, len(group_vars) + 2))
    text = f"regexp_replace({text}, {quote_string(regex)}, concat({replacement}, chr({_MATCH_MARK})))"
    keep = "".join(f"{c}, " for c in copies)
    marked = f"SELECT {keep}{rows}, {text} AS {PREFIX}s FROM ({collected}) AS {PREFIX}c"
    if spec.skip is SkipMode.TO_NEXT_ROW:
        pieces = f"split({PREFIX}s, chr({_MATCH_MARK}))"
        read = (f"transform(slice({pieces}, 1, size({pieces}) - 1), "
                f"m -> transform(split(m, chr({_GROUP_MARK})), x -> length(x)))")
        measured = f"SELECT {keep}{rows}, {read} AS {lengths} FROM ({marked}) AS {PREFIX}m"
        # per matched row, one code: match number * 8 + variable (per match, no per-row lambda)
        labels = ", ".join(f"array_repeat(CAST(i + 1 AS BIGINT) * 8 + {v}, l[{g}])"
                           for g, v in enumerate(group_vars, 1))
        # matches overlap: per matched row, its row's index; a match starts one row after the
        # previous match's start plus the rows skipped before it
        starts = (f"filter(transform(flatten(transform({lengths}, l -> concat(array_repeat(false, l[0]), "
                  f"array(true)))), (b, i) -> IF(b, i, -1)), x -> x >= 0)")
        spans = f"flatten(zip_with({lengths}, {q(PREFIX + 'starts')}, (l, b) -> sequence(b, b + {_sum_lengths(group_vars)} - 1)))"
        located = (f"SELECT {keep}{rows}, {lengths}, {starts} AS {q(PREFIX + 'starts')} "
                   f"FROM ({measured}) AS {PREFIX}d")
        coded = (f"SELECT {keep}{rows}, flatten(transform({lengths}, (l, i) -> concat({labels}))) AS {codes}, "
                 f"{spans} AS {q(PREFIX + 'spans')} FROM ({located}) AS {PREFIX}o")
        flat = (f"SELECT {keep}{rows}[{q(PREFIX + 'spans')}[{index}]] AS {q(PREFIX + 'row')}, "
                f"{codes}[{index}] AS {q(PREFIX + 'code')} FROM ({coded}) AS {PREFIX}e "
                f"LATERAL VIEW posexplode({q(PREFIX + 'spans')}) {PREFIX}x AS {index}, {PREFIX}unused")
    else:
        # matches follow one another, so the marked string splits at every marker into pieces
        # of rows, len(group_vars) + 1 per match (the rows skipped before it, then each group),
        # and one last piece (the rows after the last match); every row of piece j gets one
        # code: 0 for skipped rows, else match number * 8 + the group's variable; rows past
        # the codes (the last piece) get 0 too
        width = len(group_vars) + 1
        variables = f"array({', '.join(str(v) for v in group_vars)})"
        pieces = f"split({PREFIX}s, concat('[', chr({_GROUP_MARK}), chr({_MATCH_MARK}), ']'))"
        piece_code = f"IF(j % {width} = 0, CAST(0 AS BIGINT), CAST(j DIV {width} + 1 AS BIGINT) * 8 + {variables}[j % {width} - 1])"
        read = f"flatten(transform(slice({pieces}, 1, size({pieces}) - 1), (x, j) -> array_repeat({piece_code}, length(x))))"
        coded = f"SELECT {keep}{rows}, {read} AS {codes} FROM ({marked}) AS {PREFIX}o"
        flat = (f"SELECT {keep}{PREFIX}x AS {q(PREFIX + 'row')}, "
                f"coalesce(try_element_at({codes}, {index} + 1), 0) AS {q(PREFIX + 'code')} "
                f"FROM ({coded}) AS {PREFIX}e LATERAL VIEW posexplode({rows}) {PREFIX}y AS {index}, {PREFIX}x")
    code, row = q(PREFIX + "code"), q(PREFIX + "row")
    flat = (f"SELECT {keep}{row}, IF({code} = 0, NULL, {code} DIV 8) AS {mn}, "
            f"IF({code} = 0, NULL, CAST({code} % 8 AS INT)) AS {var} FROM ({flat}) AS {PREFIX}g")
    with_unmatched = spec.rows_per_match is RowsPerMatch.ALL_WITH_UNMATCHED
    where = "" if with_unmatched else f" WHERE {mn} IS NOT NULL"
    matched = f"(SELECT {keep}{row}.*, {mn}, {var} FROM ({flat}) AS {PREFIX}f{where}) AS {PREFIX}r"
    names = spec.variable_names
    if spec.rows_per_match is RowsPerMatch.ONE:
        columns = [f"{_aggregate(c, names, clause.value_columns)} AS {q(_component(i))}"
                   for i, c in enumerate(components)]
        key_select = "".join(f"{c} AS {k}, " for k, c in zip(keys, copies))
        group = ", ".join([*copies, mn])
        return f"(SELECT {key_select}{', '.join(columns)} FROM {matched} GROUP BY {group})"
    frame = f"PARTITION BY {', '.join([*copies, mn])} ORDER BY {rn} ROWS BETWEEN UNBOUNDED PRECEDING AND "
    columns = []
    for i, component in enumerate(components):
        final = getattr(component, "final", False)
        over = f" OVER ({frame}{'UNBOUNDED FOLLOWING' if final else 'CURRENT ROW'})"
        expression = _aggregate(component, names, clause.value_columns, over)
        if with_unmatched:
            expression = f"IF({mn} IS NULL, NULL, {expression})"
        columns.append(f"{expression} AS {q(_component(i))}")
    hidden = [*clause.computed, ROW_NUMBER, MATCH_NUMBER, VARIABLE, f"{PREFIX}ch",
              *(f"{PREFIX}p{i}" for i in range(len(keys)))]
    passed = f"* EXCEPT ({', '.join(q(name) for name in dict.fromkeys(hidden))})"
    return f"(SELECT {passed}, {', '.join(columns)} FROM {matched})"


def in_row_order(rows: str) -> str:
    """``rows`` (a partition's collected rows, structs whose first field is the row number
    1..n) in row-number order.

    collect_list keeps the order its input arrives in, which is the window's (rows 1, 2, ...)
    whenever the aggregate reads the sorted window output directly; Spark does not promise it,
    so the order is checked (one pass over the row numbers) and only a list out of order is
    sorted, by a comparator on the row number alone (the other columns need not be orderable:
    ``sort_array`` would refuse a map among them)."""
    rn = quote_identifier(ROW_NUMBER)
    by_number = f"(x, y) -> IF(x.{rn} < y.{rn}, -1, IF(x.{rn} > y.{rn}, 1, 0))"
    return f"IF({rows}.{rn} = sequence(1, size({rows})), {rows}, array_sort({rows}, {by_number}))"


def _sum_lengths(group_vars: list[int]) -> str:
    return "(" + " + ".join(f"l[{g}]" for g in range(1, len(group_vars) + 1)) + ")"


def _component(index: int) -> str:
    return f"{PREFIX}c{index}"


def _condition(variables) -> str:
    if variables is None:
        return "true"
    return f"{quote_identifier(VARIABLE)} IN ({', '.join(str(v) for v in sorted(variables))})"


def _aggregate(component, names: tuple[str, ...], value_columns: tuple[str, ...], over: str = "") -> str:
    """The Spark aggregate computing ``component`` over one match's rows: grouped by the match
    (``over`` empty) or a window over it (``over``: `` OVER (...)``, after each aggregate call)."""
    rn = quote_identifier(ROW_NUMBER)
    if isinstance(component, p.MatchNumber):
        return quote_identifier(MATCH_NUMBER)
    if isinstance(component, p.Classifier):
        labels = ", ".join(quote_string(name) for name in names)
        last = f"max_by({quote_identifier(VARIABLE)}, IF({_condition(component.variables)}, {rn}, NULL)){over}"
        return f"try_element_at(array({labels}), {last} + 1)"
    cond = _condition(component.variables)
    if isinstance(component, p.Navigation):
        column = quote_identifier(value_columns[component.column])
        if component.offset == 0:
            by = "min_by" if component.from_start else "max_by"
            return f"{by}({column}, IF({cond}, {rn}, NULL)){over}"
        index = component.offset + 1 if component.from_start else -(component.offset + 1)
        rows = f"array_sort(collect_list(IF({cond}, named_struct('r', {rn}, 'v', {column}), NULL)){over})"
        return f"try_element_at({rows}, {index}).v"
    if isinstance(component, p.Aggregate):
        argument = "1" if component.column is None else quote_identifier(value_columns[component.column])
        if component.function == "collect_list":
            kept = f"{cond} AND {argument} IS NOT NULL"
            rows = f"array_sort(collect_list(IF({kept}, named_struct('r', {rn}, 'v', {argument}), NULL)){over})"
            return f"transform({rows}, x -> x.v)"
        distinct = "DISTINCT " if component.distinct else ""
        return f"{component.function}({distinct}IF({cond}, {argument}, NULL)){over}"
    raise TypeError(component)
