"""WITHIN windows in the units of the ORDER BY key (docs/within.md), without Spark: the window a
key type takes, the key of each row as a number, and the keys that lie in no window. The Spark
side (the same rules on real queries) is tests/evaluation/test_within_keys.py."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import numpy as np
import pyarrow as pa
import pytest

from sparkcep.runtime.within_keys import (WithinKeyTypeError, drop_keyless_rows, engine_window,
                                          order_key_numbers)

HOUR = 3_600_000_000  # microseconds


@pytest.mark.parametrize("kind, within, key_type, expected", [
    ("interval", HOUR, "timestamp", HOUR),            # instants in microseconds
    ("interval", HOUR, "timestamp_ntz", HOUR),        # wall clock in microseconds
    ("interval", 2 * 24 * HOUR, "date", 2),           # whole days
    ("interval", 36 * HOUR, "date", 1.5),             # 36 hours admits dates one day apart
    ("interval", 10_000_000, "bigint", 10),           # a number read as seconds
    ("interval", 500_000, "int", 0.5),
    ("number", 90, "timestamp", 90_000_000),          # a number on an instant means seconds
    ("number", 1.5, "timestamp", 1_500_000),
    ("number", 100, "bigint", 100),                   # a number key: its own units
    ("number", 2.5, "decimal(10,2)", 2.5),
    ("number", 7, "double", 7),
])
def test_window_in_the_units_of_the_key(kind, within, key_type, expected):
    window = engine_window(kind, within, key_type, "k")
    assert window == expected and type(window) is type(expected)


@pytest.mark.parametrize("kind, key_type", [
    ("number", "date"), ("number", "timestamp_ntz"), ("number", "string"),
    ("interval", "string"), ("interval", "boolean"),
])
def test_windows_a_key_type_cannot_take(kind, key_type):
    with pytest.raises(WithinKeyTypeError, match="docs/within.md"):
        engine_window(kind, 10, key_type, "k")


def test_keys_as_exact_numbers():
    utc = pa.array([dt.datetime(2024, 3, 31, 0, 0), dt.datetime(2024, 3, 31, 0, 0, 0, 1)],
                   pa.timestamp("us", "UTC"))
    assert order_key_numbers(utc).tolist() == [1711843200000000, 1711843200000001]
    wall = pa.array([dt.datetime(2024, 3, 31, 23, 30)], pa.timestamp("us"))
    assert order_key_numbers(wall).tolist() == [1711927800000000]
    days = pa.array([dt.date(1970, 1, 2), dt.date(2024, 1, 1)], pa.date32())
    assert order_key_numbers(days).tolist() == [1, 19723]
    big = pa.array([2 ** 53, 2 ** 53 + 1], pa.int64())
    numbers = order_key_numbers(big)
    assert numbers.dtype == np.int64 and numbers[1] - numbers[0] == 1  # not through DOUBLE
    assert order_key_numbers(big, descending=True).tolist() == [-(2 ** 53), -(2 ** 53) - 1]
    extreme = pa.array([-(2 ** 63), 0], pa.int64())
    assert order_key_numbers(extreme, descending=True).tolist() == [2.0 ** 63, 0.0]  # no wrap
    with_null = order_key_numbers(pa.array([1, None], pa.int32()))
    assert with_null[0] == 1 and np.isnan(with_null[1])
    assert order_key_numbers(pa.array([Decimal("1.5")], pa.decimal128(10, 2))).tolist() == [1.5]


def test_rows_without_a_key_are_selected_by_no_variable():
    masks = np.ones((2, 3), dtype=bool)
    codes = np.array([3, 3, 3], dtype=np.int64)
    codes.setflags(write=False)  # as Arrow hands it over
    codes = drop_keyless_rows(masks, codes, np.array([np.nan, 1.0, np.nan]))
    assert masks.tolist() == [[False, True, False], [False, True, False]]
    assert codes.tolist() == [0, 3, 0]
    integral = np.array([1, 2, 3], dtype=np.int64)
    assert drop_keyless_rows(np.ones((1, 3), dtype=bool), None, integral) is None
