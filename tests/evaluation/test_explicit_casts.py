"""CAST between rows: the first words of Spark 4.3's own messages for a cast's overflow, as
Spark printed them (``CAST(1e10D AS INT)``, ``CAST(3000000000.5BD AS INT)`` with ANSI on): a
DOUBLE is written as Java's ``Double.toString`` with a ``D`` suffix, a DECIMAL with ``BD``.
Which rows raise, and with which class, is the recorded-answers tests'."""

from __future__ import annotations

from decimal import Decimal

import pytest

from sparkcep.errors import MatchRuntimeError
from sparkcep.evaluation.explicit_casts import explicit_cast
from sparkcep.evaluation.sql_types import parse


@pytest.mark.parametrize("source, value, target, message", [
    ("double", 1e10, "int", 'The value 1.0E10D of the type "DOUBLE" cannot be cast to "INT" due to an overflow'),
    ("double", 1e20, "bigint", 'The value 1.0E20D of the type "DOUBLE" cannot be cast to "BIGINT" due to an overflow'),
    ("double", 300.7, "tinyint", 'The value 300.7D of the type "DOUBLE" cannot be cast to "TINYINT" due to an overflow'),
    ("decimal(20,1)", Decimal("3000000000.5"), "int",
     'The value 3000000000.5BD of the type "DECIMAL(20,1)" cannot be cast to "INT" due to an overflow'),
])
def test_overflow_messages_are_sparks(source, value, target, message):
    cast = explicit_cast(parse(source), parse(target), ansi=True, zone="UTC")
    with pytest.raises(MatchRuntimeError) as caught:
        cast(value)
    assert caught.value.code == "CAST_OVERFLOW"
    assert caught.value.message.startswith(message)
