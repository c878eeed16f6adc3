"""Chunking one logical partition by its WITHIN key, so that a huge partition uses every core.

A MATCH_RECOGNIZE clause without PARTITION BY runs as one Python task: one core, however large
the input. When every match is decided by its own first row and the rows in that row's WITHIN
window, and by nothing else, the ordered stream can be cut into chunks that are matched
independently, with results identical to the sequential run. Eligibility
(:func:`ineligible_reason`; the reasons are in ``docs/semantics.md``, "Parallel chunks"):

* WITHIN is present, the ORDER BY key is ascending;
* SKIP TILL NEXT MATCH or SKIP TILL ANY MATCH, or strict contiguity with AFTER MATCH SKIP TO
  NEXT ROW and no anchor (``^``/``$`` look at the partition's ends, which a chunk moves);
* no MATCH_NUMBER() (numbers count every earlier match of the partition).

The chunking is SQL, so Catalyst does the work (:func:`chunked_table_sql`). With ``k`` the
placement key (the WITHIN key ``__sparkcep_k`` as epoch microseconds for INTERVAL windows, as a
DOUBLE for numeric ones; the matcher itself compares exact keys, ``sparkcep.runtime.within_keys``),
``lo = min(k)``, ``w`` the window and ``n`` the number of chunks, every row is *owned* by
chunk ``c = floor((k - lo) / W)`` with ``W = greatest(w, (max(k) - lo) / n)``
(``W >= 2w`` for DOUBLE keys, see below). A match starting at a row of chunk c contains only rows
with ``k' - k < w`` (the WITHIN bound is strict), which lie in chunk c or in the first ``w`` of
chunk c + 1. So each row with ``k - lo - cW < w`` is also copied, not owned, into chunk c - 1.
With ALL ROWS PER MATCH WITH UNMATCHED ROWS a row is unmatched only if no match *from any
chunk* contains it; a match that contains an owned row of chunk c starts at most ``w`` before
it, so each row in the last ``w`` of chunk c is also copied, not owned, into chunk c + 1. The
function partitions by (user keys..., ``__sparkcep_chunk``); the executor reports only matches
whose first row is owned, and unmatched rows only when owned (:class:`OwnedRows`). Every row is
owned by exactly one chunk, so every match and every unmatched row is reported exactly once.

Exactness: INTERVAL windows use BIGINT arithmetic (``pmod``, exact floor division), with a copy
margin where the placement key is not the matcher's key (DATE and TIMESTAMP_NTZ keys are placed
as instants in the session time zone: two days covers any change of a zone's offset). DOUBLE keys
use ``floor`` and a copy margin of ``1e-9 * (|lo| + |max k| + W)``, far above the rounding error
of the subtraction; copying a few more rows than needed changes nothing (rows beyond a window
are never part of a match of an owned row). A group holding a NULL, NaN or infinite key is not
chunked (every row goes to chunk 0, owned): a missing key has no window.
"""

from __future__ import annotations

from typing import Iterable

from sparkcep.plan import expressions as p
from sparkcep.engines import rowpattern as rp
from sparkcep.engines.spec import MatchSpec, SkipMode, Strategy
from sparkcep.compiler.splice import quote_identifier

PREFIX = "__sparkcep_"
CHUNK_COLUMN = f"{PREFIX}chunk"
OWNED_COLUMN = f"{PREFIX}owned"
ORDER_KEY = f"{PREFIX}k"


# -- eligibility -------------------------------------------------------------------------------


def ineligible_reason(
    spec: MatchSpec,
    components: Iterable[p.Expression],
    conditions: Iterable[p.Expression],
    ascending: bool,
) -> str | None:
    """Why a clause may not be split into chunks, or None when chunking is exact."""
    if spec.within is None:
        return "no WITHIN: a match may span the whole partition"
    if not ascending:
        return "the ORDER BY key is descending"
    if spec.strategy is Strategy.STRICT_CONTIGUITY:
        if spec.skip is not SkipMode.TO_NEXT_ROW:
            return (f"AFTER MATCH SKIP {spec.skip.value}: where a match starts depends on where "
                    "the previous one ended")
        if rp.has_anchor(spec.pattern):
            return "an anchor (^ or $) refers to the ends of the partition"
    if any(p.uses_match_number(e) for e in [*components, *conditions]):
        return "MATCH_NUMBER() counts every earlier match of the partition"
    return None


# -- SQL -----------------------------------------------------------------------------------------


def _literal(value) -> str:
    if isinstance(value, int):
        return str(value)
    return repr(float(value))


def chunked_table_sql(
    table_sql: str,
    partition_names: tuple[str, ...],
    within: float | int,
    within_kind: str,
    chunks: int,
    unmatched: bool,
    partitions: int | None = None,
) -> str:
    """The function's input query over ``table_sql`` (which holds ``__sparkcep_k``) with two more
    columns: ``__sparkcep_chunk`` (BIGINT) and ``__sparkcep_owned`` (BOOLEAN); rows near a chunk
    boundary appear once per chunk that needs them. With ``partitions`` (the number of shuffle
    partitions), chunk ids are chosen by :func:`spread_ids` so that chunk c lands in shuffle
    partition ``c mod partitions`` (plain hashing of 0..7 into 8 partitions fills only 4)."""
    q = quote_identifier
    k = q(PREFIX + "pk")  # the placement key (see the module docstring), computed first
    s, r = f"{PREFIX}s", f"{PREFIX}r"
    lo, width, margin, bad = (q(PREFIX + n) for n in ("lo", "wd", "m", "nb"))
    c, o = q(PREFIX + "c"), q(PREFIX + "o")
    keys = [q(name) for name in partition_names]
    group_keys = [q(f"{PREFIX}p{i}") for i in range(len(keys))]
    w = _literal(within)
    key = q(ORDER_KEY)
    if within_kind == "interval":
        # microseconds; exact for TIMESTAMP keys, off by at most the change of the session time
        # zone's offset between two rows for DATE and TIMESTAMP_NTZ keys (two days covers every
        # zone), by at most a microsecond for numbers (read as seconds)
        placement = f"unix_micros(try_cast({key} AS TIMESTAMP))"
        slack = (f"CASE typeof({key}) WHEN 'timestamp' THEN CAST(0 AS BIGINT) "
                 f"WHEN 'date' THEN CAST(172800000000 AS BIGINT) "
                 f"WHEN 'timestamp_ntz' THEN CAST(172800000000 AS BIGINT) ELSE CAST(2 AS BIGINT) END")
        # width >= w + margin: a match of an owned row reaches at most into the next chunk
        stats = [
            f"min({k}) AS {lo}",
            f"greatest(CAST({w} AS BIGINT), (max({k}) - min({k})) DIV {chunks} + 1) + max({slack}) AS {width}",
            f"max({slack}) AS {margin}",
            f"count_if({k} IS NULL) AS {bad}",
        ]
        offset = f"pmod({s}.{k} - {r}.{lo}, {r}.{width})"
        chunk = f"({s}.{k} - {r}.{lo} - {offset}) DIV {r}.{width}"
    else:
        # TIMESTAMP keys as seconds (the window's units), numbers as themselves
        placement = f"CAST({key} AS DOUBLE)"
        slack = (f"1.0E-9 * (abs(min({k})) + abs(max({k})) + greatest(2 * {w}, (max({k}) - min({k})) / "
                 f"{chunks}))")
        stats = [
            f"min({k}) AS {lo}",
            f"greatest(2 * {w}, (max({k}) - min({k})) / {chunks}) + 2 * {slack} AS {width}",
            f"{slack} AS {margin}",
            f"count_if({k} IS NULL OR NOT ({k} BETWEEN -1.0E300 AND 1.0E300)) AS {bad}",
        ]
        chunk = f"CAST(floor(({s}.{k} - {r}.{lo}) / {r}.{width}) AS BIGINT)"
        offset = f"{s}.{k} - {r}.{lo} - {chunk} * {r}.{width}"
    table_sql = f"SELECT *, {placement} AS {k} FROM ({table_sql}) AS {q(PREFIX + 'in')}"
    select = [f"{key} AS {g}" for key, g in zip(keys, group_keys)] + stats
    group = f" GROUP BY {', '.join(keys)}" if keys else ""
    stats_sql = f"SELECT {', '.join(select)} FROM ({table_sql}) AS {s}{group}"
    if keys:
        join = "JOIN ({}) AS {} ON {}".format(
            stats_sql, r, " AND ".join(f"{s}.{key} <=> {r}.{g}" for key, g in zip(keys, group_keys))
        )
    else:
        join = f"CROSS JOIN ({stats_sql}) AS {r}"
    placed = (
        f"SELECT {s}.*, CASE WHEN {r}.{bad} > 0 THEN CAST(0 AS BIGINT) ELSE {chunk} END AS {c}, "
        f"CASE WHEN {r}.{bad} > 0 THEN NULL ELSE {offset} END AS {o}, "
        f"{r}.{width} AS {width}, {r}.{margin} AS {margin} FROM ({table_sql}) AS {s} {join}"
    )

    x = q(PREFIX + "x")
    target = x
    if partitions:  # a chunk id Spark's hash partitioning places in its own partition
        cases = " ".join(f"WHEN {i} THEN CAST({v} AS BIGINT)" for i, v in spread_ids(chunks, partitions).items())
        target = f"CASE {x} {cases} ELSE {x} * {SPREAD} END"
    none = "CAST(array() AS ARRAY<BIGINT>)"
    copies = [f"array({c})", f"IF({o} < {w} + {margin}, array({c} - 1), {none})"]
    if unmatched:
        copies.append(f"IF({o} >= {width} - {w} - {margin}, array({c} + 1), {none})")
    # explode (code-generated) rather than a lambda over structs (interpreted)
    return (
        f"SELECT * EXCEPT ({k}, {c}, {o}, {width}, {margin}, {x}), {target} AS {q(CHUNK_COLUMN)}, "
        f"{x} = {c} AS {q(OWNED_COLUMN)} FROM ({placed}) AS {q(PREFIX + 'p')} "
        f"LATERAL VIEW explode(concat({', '.join(copies)})) {q(PREFIX + 'e')} AS {x}"
    )


def chunk_count(setting: str | None, default_parallelism: int) -> tuple[int | None, bool]:
    """``(chunks, also_partitioned)`` for the value of ``spark.sparkcep.withinChunks``.

    ``auto`` (or unset): ``4 x default parallelism`` chunks, only for clauses without PARTITION
    BY (their partitions already spread the work); a number N >= 2: N chunks per partition for
    every eligible clause; ``0``, ``1``, ``off``, ``false``: never chunk."""
    text = (setting or "auto").strip().lower()
    if text in ("auto", ""):
        n = 4 * max(1, int(default_parallelism))
        return (n if n >= 2 else None), False
    if text in ("off", "false", "none", "no"):
        return None, False
    try:
        n = int(text)
    except ValueError:
        raise ValueError(
            f"spark.sparkcep.withinChunks must be 'auto', 'off' or a number of chunks, not {setting!r}"
        ) from None
    return (n if n >= 2 else None), True


# -- spreading chunks over shuffle partitions ----------------------------------------------------

_MASK = 0xFFFFFFFF


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & _MASK


def _mix_k1(k1: int) -> int:
    return (_rotl((k1 * 0xCC9E2D51) & _MASK, 15) * 0x1B873593) & _MASK


def _mix_h1(h1: int, k1: int) -> int:
    return (_rotl(h1 ^ k1, 13) * 5 + 0xE6546B64) & _MASK


def spark_hash_long(value: int, seed: int = 42) -> int:
    """Spark's ``hash()`` of a BIGINT (Murmur3 x86_32, seed 42), as a signed 32-bit int: what
    its hash partitioning uses to place a row."""
    v = value & 0xFFFFFFFFFFFFFFFF
    h1 = _mix_h1(seed, _mix_k1(v & _MASK))
    h1 = _mix_h1(h1, _mix_k1(v >> 32))
    h1 ^= 8
    h1 ^= h1 >> 16
    h1 = (h1 * 0x85EBCA6B) & _MASK
    h1 ^= h1 >> 13
    h1 = (h1 * 0xC2B2AE35) & _MASK
    h1 ^= h1 >> 16
    return h1 - (1 << 32) if h1 & 0x80000000 else h1


SPREAD = 1024


def spread_ids(chunks: int, partitions: int) -> dict[int, int]:
    """For chunks -1 .. chunks: a distinct BIGINT id per chunk that Spark's hash partitioning
    over ``partitions`` partitions places in partition ``c mod partitions`` (``c * 1024 + j``
    for the smallest such j), so that the chunks do not pile up in a few tasks."""
    out = {}
    for c in range(-1, chunks + 1):
        target = c % partitions
        out[c] = c * SPREAD
        for j in range(SPREAD):
            if spark_hash_long(c * SPREAD + j) % partitions == target:
                out[c] = c * SPREAD + j
                break
    return out
