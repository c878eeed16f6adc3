"""``hash`` (Murmur3) and ``xxhash64`` as sparkcep evaluates them between rows of a match, against
Spark's recorded answers (``hash_answers.json``, written by ``record_hash_answers.py``), bit for
bit, without Spark: a few thousand values of every type they take, alone and chained (each
hash seeding the next, NULLs skipped), through ``sparkcep.evaluation.hash_functions`` and
through the interpreter, the generated code and the specialized code of a match-dependent
expression. Standard Murmur3's tail handling (which Spark's ``hashUnsafeBytes`` does not
follow) must give other answers for the strings, or the recording would not tell them apart.
"""

from __future__ import annotations

import json
import struct
from functools import lru_cache
from pathlib import Path

import pytest

from sparkcep.compiler.lowering import ValueColumns
from sparkcep.evaluation import hash_functions as hf
from sparkcep.evaluation.binding import Semantics
from sparkcep.evaluation.sql_types import parse
from tests.evaluation.harness import evaluators, lower
from tests.evaluation.record_hash_answers import CHAINS, COLUMNS, ROWS, expressions, inputs, unpack

RECORDED = json.loads(Path(__file__).with_name("hash_answers.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _rows() -> list[dict]:
    return inputs()


def _arguments(expression: str) -> list[str]:
    return [a.strip() for a in expression[expression.index("(") + 1:-1].split(",")]


def _answers(expression: str) -> list[int]:
    return unpack(RECORDED["answers"][expression], 32 if expression.startswith("hash") else 64)


def test_the_recording_covers_the_expressions():
    assert RECORDED["rows"] == ROWS and set(RECORDED["answers"]) == set(expressions())
    assert len(CHAINS) >= 3


@pytest.mark.parametrize("expression", expressions())
def test_hash_functions_give_sparks_answers(expression):
    arguments = _arguments(expression)
    types = tuple(parse("void" if a == "NULL" else COLUMNS[a]) for a in arguments)
    combined = hf.row_hash(expression.split("(")[0], types)
    wrong = []
    for r, (row, answer) in enumerate(zip(_rows(), _answers(expression))):
        got = combined(*(None if a == "NULL" else row[a] for a in arguments))
        if got != answer:
            wrong.append(f"row {r} {[row.get(a) for a in arguments]!r}: {got} != Spark's {answer}")
    assert not wrong, "\n".join(wrong[:10])


@pytest.mark.parametrize("function", ["hash", "xxhash64"])
def test_match_dependent_hash_gives_sparks_answers(function):
    """``hash(A.s, B.i, A.d, B.z)`` in a DEFINE: each evaluator over the recorded rows."""
    chain = CHAINS[0]
    qualified = f"{function}({', '.join(f'{ab}.{c}' for ab, c in zip('ABAB', chain))})"
    values = ValueColumns()
    tree = lower(qualified, values)
    assert len(values.texts) == len(chain)
    forms = evaluators(tree, [COLUMNS[c].lower() for c in chain], Semantics(ansi=True, time_zone="UTC"))
    assert set(forms) == {"interpreter", "generated", "specialized"}
    answers = _answers(f"{function}({', '.join(chain)})")
    for r in range(0, ROWS, 7):
        row = _rows()[r]
        for form, evaluate in forms.items():
            assert evaluate([row[c] for c in chain]) == answers[r], (form, r)


def _standard_murmur3(data: bytes, seed: int) -> int:
    """MurmurHash3_x86_32 as published: the 1 to 3 tail bytes packed into one block."""
    h1 = seed & 0xFFFFFFFF
    aligned = len(data) - len(data) % 4
    for (word,) in struct.iter_unpack("<I", data[:aligned]):
        h1 = hf._mix_h1(h1, hf._mix_k1(word))
    tail = data[aligned:]
    if tail:
        h1 ^= hf._mix_k1(int.from_bytes(tail, "little"))
    return hf._signed(hf._fmix32(h1, len(data)), 32)


def test_the_recording_tells_sparks_tail_from_standard_murmur3():
    answers = _answers("hash(s)")
    differ = sum(1 for row, answer in zip(_rows(), answers)
                 if row["s"] is not None and len(row["s"].encode()) % 4
                 and _standard_murmur3(row["s"].encode(), hf.SEED) != answer)
    assert differ > 100


def test_negative_zero_hashes_as_zero():
    """-0.0 is hashed as 0.0 is (Spark normalizes it); other bit patterns differ."""
    for function in ("hash", "xxhash64"):
        for t in ("double", "float"):
            combined = hf.row_hash(function, (parse(t),))
            assert combined(-0.0) == combined(0.0)
            assert combined(float("nan")) == combined(-float("nan"))
    assert any(row["d"] is not None and struct.pack("<d", row["d"]) == struct.pack("<d", -0.0) for row in _rows())


def test_big_integer_bytes_are_javas():
    """``BigInteger.toByteArray``: the fewest bytes that hold the sign bit."""
    assert hf.big_integer_bytes(0) == b"\x00"
    assert hf.big_integer_bytes(127) == b"\x7f"
    assert hf.big_integer_bytes(128) == b"\x00\x80"
    assert hf.big_integer_bytes(-128) == b"\x80"
    assert hf.big_integer_bytes(-129) == b"\xff\x7f"
    assert hf.big_integer_bytes(-1) == b"\xff"


@pytest.mark.parametrize("function", ["hash", "xxhash64"])
@pytest.mark.parametrize("column", ["n", "q", "g", "m", "z"])
def test_decimals_hash_by_value_whatever_their_exponent(function, column):
    """A DECIMAL is hashed by its value at the type's scale (the unscaled long or its bytes): the
    recorded values written with the fewest digits (441.00 as 4.41E+2) or with more zeros
    (441.000, 441.00000) give Spark's recorded answers too."""
    from decimal import Context, Decimal

    combined = hf.row_hash(function, (parse(COLUMNS[column]),))
    for row, answer in zip(_rows(), _answers(f"{function}({column})")):
        value = row[column]
        if value is None:
            continue
        sign, digits, exponent = value.as_tuple()
        for written in (value.normalize(Context(prec=60)), Decimal((sign, digits + (0,), exponent - 1)),
                        Decimal((sign, digits + (0, 0, 0), exponent - 3))):
            assert written == value and combined(written) == answer, (value, written)
