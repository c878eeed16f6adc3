"""WITHIN keys as numbers: the window in the units of the ORDER BY key, and the key of each row.

The compiler passes the first ORDER BY expression through unchanged (its type is Spark's to
know); this module decides, once the type is known at registration, how the key becomes a number
and what the window is in those units (docs/within.md):

============================  ===========================  ====================================
ORDER BY key type             key as a number              ``WITHIN INTERVAL`` / ``WITHIN n``
============================  ===========================  ====================================
TIMESTAMP                     microseconds since the epoch  microseconds / ``n`` seconds
TIMESTAMP_NTZ                 wall-clock microseconds       microseconds / refused
DATE                          days since the epoch          whole days (a fraction if the
                                                            interval is not whole days) / refused
integral, decimal, floating   the value itself              seconds / the key's own units
============================  ===========================  ====================================

No conversion goes through the session time zone or through DOUBLE for integral keys, so a
window is exact at its boundary (``last - first < w``, strict). Under ``DESC`` the key is negated
on the executor, so a match's span is still last key - first key.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pyarrow as pa

MICROS_PER_SECOND = 1_000_000
MICROS_PER_DAY = 86_400 * MICROS_PER_SECOND


class WithinKeyTypeError(ValueError):
    """The window cannot be read on a key of this type; the message says what to write."""


def _exact(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def engine_window(kind: str, within: int | float, key_type: str, key_text: str) -> int | float:
    """The window in the units ``order_key_numbers`` gives the key of type ``key_type`` (Spark's
    simple type name), for a window written as an INTERVAL (``kind`` "interval", ``within`` in
    microseconds) or as a plain number (``kind`` "number")."""
    name = key_type.lower()
    numeric = name in ("tinyint", "smallint", "int", "bigint", "float", "double", "void") \
        or name.startswith("decimal")
    amount = Fraction(str(within))
    if kind == "interval":
        if name in ("timestamp", "timestamp_ntz"):
            return _exact(amount)
        if name == "date":
            return _exact(amount / MICROS_PER_DAY)
        if numeric:  # the key read as seconds since the epoch
            return _exact(amount / MICROS_PER_SECOND)
        raise WithinKeyTypeError(
            f"WITHIN INTERVAL needs a TIMESTAMP, TIMESTAMP_NTZ, DATE or numeric ORDER BY key, but "
            f"{key_text} is {key_type.upper()} (docs/within.md)")
    if name == "timestamp":  # a number on an instant means seconds
        return _exact(amount * MICROS_PER_SECOND)
    if numeric:
        return within
    if name in ("date", "timestamp_ntz"):
        raise WithinKeyTypeError(
            f"WITHIN with a number needs a numeric or TIMESTAMP ORDER BY key, but {key_text} is "
            f"{key_type.upper()}; write WITHIN INTERVAL '...' <unit> (docs/within.md)")
    raise WithinKeyTypeError(
        f"WITHIN needs a TIMESTAMP, TIMESTAMP_NTZ, DATE or numeric ORDER BY key, but {key_text} is "
        f"{key_type.upper()} (docs/within.md)")


def order_key_numbers(key: pa.Array, descending: bool = False) -> np.ndarray:
    """The WITHIN key of each row as NumPy, in the units of ``engine_window``: int64 for
    timestamps (microseconds), dates (days) and integers without NULLs (exact above 2^53);
    float64 otherwise, with NaN for a NULL (a row without a key is within no window)."""
    if isinstance(key, pa.ChunkedArray):
        key = key.combine_chunks()
    if pa.types.is_timestamp(key.type):
        if key.type.unit != "us":
            key = key.cast(pa.timestamp("us", key.type.tz))
        key = key.cast(pa.int64())
    elif pa.types.is_date(key.type):
        key = key.cast(pa.date32()).cast(pa.int32()).cast(pa.int64())
    elif pa.types.is_null(key.type):
        key = pa.array([None] * len(key), pa.float64())
    if pa.types.is_integer(key.type) and key.null_count == 0:
        numbers = np.asarray(key.cast(pa.int64()).to_numpy(zero_copy_only=False))
    else:
        numbers = np.asarray(key.cast(pa.float64()).fill_null(np.nan).to_numpy(zero_copy_only=False))
    if descending and numbers.dtype == np.int64 and len(numbers) and numbers.min() == np.iinfo(np.int64).min:
        numbers = numbers.astype(np.float64)  # -(-2^63) does not fit in 64 bits
    return -numbers if descending else numbers


def drop_keyless_rows(masks: np.ndarray, codes: np.ndarray | None, order_key: np.ndarray) -> np.ndarray | None:
    """Under WITHIN, a row without a key (NULL: NaN here) lies in no window, so no variable may
    select it (docs/semantics.md, "WITHIN w"): its masks are cleared in place. Spark
    sorts NULL keys first or last, so such a row is never between two rows a match selects and
    clearing it changes no negation. Returns the bit sets (a cleared copy when rows were
    cleared)."""
    if order_key.dtype.kind != "f":
        return codes
    keyless = np.isnan(order_key)
    if keyless.any():
        masks[:, keyless] = False
        if codes is not None:
            codes = np.where(keyless, 0, codes)
    return codes


def block_order_key(batch: pa.RecordBatch, column: str | None, descending: bool,
                    masks: np.ndarray, codes: np.ndarray | None) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The WITHIN key of a batch's rows (``order_key_numbers``; None without WITHIN) and the bit
    sets, with the rows that have no key selected by no variable (``drop_keyless_rows``)."""
    if column is None:
        return None, codes
    order_key = order_key_numbers(batch.column(column), descending)
    return order_key, drop_keyless_rows(masks, codes, order_key)
