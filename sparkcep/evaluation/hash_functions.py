"""Spark's ``hash(e1, e2, ...)`` (Murmur3 x86_32, an INT) and ``xxhash64(e1, e2, ...)`` (xxHash64,
a BIGINT) over values that combine rows of a match, as Python evaluates them, bit for bit.

Both start from the seed 42 and fold the arguments left to right: each argument's hash, taken
with the running value as its seed, becomes the seed of the next. A NULL argument leaves the
running value unchanged (so the result is never NULL: ``hash(NULL)`` is 42). Spark hashes each
type its own way (``InterpretedHashFunction.hash``):

* BOOLEAN as the int 1 or 0; TINYINT, SMALLINT, INT and DATE (days since 1970-01-01) as an int;
  BIGINT, TIMESTAMP and TIMESTAMP_NTZ (microseconds since 1970-01-01 00:00, UTC for TIMESTAMP)
  as a long.
* FLOAT as the int of its bits (``Float.floatToIntBits``: every NaN is 0x7fc00000) and DOUBLE
  as the long of its bits (``Double.doubleToLongBits``: 0x7ff8000000000000), except that -0.0
  is hashed as 0 (the int or long 0, the bits of +0.0).
* DECIMAL(p, s) with p <= 18 (Spark's compact decimals) as the long of its unscaled value (the
  value times 10^s); a wider one as the bytes of that unscaled value (Java's
  ``BigInteger.toByteArray``: big-endian two's complement, as few bytes as hold the sign bit).
* STRING as its UTF-8 bytes, BINARY as its bytes.
* ARRAY as its elements in order, each element's hash seeding the next (a NULL element leaves
  the running value unchanged): ``hash(array(1, 2), 3)`` is ``hash(1, 2, 3)``; arrays of arrays
  alike (Spark refuses maps).

The byte hashes are Spark's own. For Murmur3, Spark's ``hashUnsafeBytes`` mixes the bytes after
the last whole 4-byte word one at a time, each *signed* byte as a full 32-bit block (through
``mixK1`` and ``mixH1``), where standard Murmur3 packs the 1 to 3 tail bytes into one block: so
``hash('a')`` is Spark's, not MurmurHash3_x86_32 of b'a' with seed 42. Words are read
little-endian. xxHash64 is the standard algorithm (stripes of 32 bytes, then 8-, 4- and 1-byte
steps). The arithmetic is Java's: 32-bit (Murmur3) or 64-bit (xxHash64) words that wrap around;
the results are signed.
"""

from __future__ import annotations

import datetime as dt
import math
import struct
from decimal import Decimal
from functools import lru_cache

from sparkcep.evaluation.sql_types import SqlType, element_type

_M32 = 0xFFFFFFFF
_M64 = 0xFFFFFFFFFFFFFFFF
SEED = 42


def _signed(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


# -- Murmur3 x86_32, as Spark's Murmur3_x86_32 -----------------------------------------------------

def _rotl32(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & _M32


def _mix_k1(k1: int) -> int:
    k1 = (k1 * 0xCC9E2D51) & _M32
    return (_rotl32(k1, 15) * 0x1B873593) & _M32


def _mix_h1(h1: int, k1: int) -> int:
    h1 = _rotl32(h1 ^ k1, 13)
    return (h1 * 5 + 0xE6546B64) & _M32


def _fmix32(h1: int, length: int) -> int:
    h1 ^= length
    h1 ^= h1 >> 16
    h1 = (h1 * 0x85EBCA6B) & _M32
    h1 ^= h1 >> 13
    h1 = (h1 * 0xC2B2AE35) & _M32
    return h1 ^ (h1 >> 16)


def murmur3_int(value: int, seed: int) -> int:
    """``Murmur3_x86_32.hashInt``: an int (any sign) hashed with ``seed``; a signed int."""
    h1 = _mix_h1(seed & _M32, _mix_k1(value & _M32))
    return _signed(_fmix32(h1, 4), 32)


def murmur3_long(value: int, seed: int) -> int:
    """``Murmur3_x86_32.hashLong``: the low, then the high 32 bits of a long."""
    value &= _M64
    h1 = _mix_h1(seed & _M32, _mix_k1(value & _M32))
    h1 = _mix_h1(h1, _mix_k1(value >> 32))
    return _signed(_fmix32(h1, 8), 32)


def murmur3_bytes(data: bytes, seed: int) -> int:
    """``Murmur3_x86_32.hashUnsafeBytes``: whole little-endian words, then each remaining byte,
    sign-extended, as a block of its own (Spark's tail, not standard Murmur3's)."""
    h1 = seed & _M32
    aligned = len(data) - len(data) % 4
    for (word,) in struct.iter_unpack("<I", data[:aligned]):
        h1 = _mix_h1(h1, _mix_k1(word))
    for byte in data[aligned:]:
        h1 = _mix_h1(h1, _mix_k1(byte - 256 if byte > 127 else byte))
    return _signed(_fmix32(h1, len(data)), 32)


# -- xxHash64, as Spark's XXH64 ----------------------------------------------------------------------

_P1, _P2, _P3 = 0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9
_P4, _P5 = 0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5


def _rotl64(x: int, r: int) -> int:
    return ((x << r) | (x >> (64 - r))) & _M64


def _fmix64(h: int) -> int:
    h ^= h >> 33
    h = (h * _P2) & _M64
    h ^= h >> 29
    h = (h * _P3) & _M64
    return h ^ (h >> 32)


def _round64(acc: int, lane: int) -> int:
    acc = (acc + lane * _P2) & _M64
    return (_rotl64(acc, 31) * _P1) & _M64


def _eight_bytes(h: int, lane: int) -> int:
    h ^= _round64(0, lane)
    return (_rotl64(h, 27) * _P1 + _P4) & _M64


def _four_bytes(h: int, lane: int) -> int:
    h ^= (lane * _P1) & _M64
    return (_rotl64(h, 23) * _P2 + _P3) & _M64


def xxhash64_int(value: int, seed: int) -> int:
    """``XXH64.hashInt``: an int's 4 bytes."""
    h = (seed + _P5 + 4) & _M64
    return _signed(_fmix64(_four_bytes(h, value & _M32)), 64)


def xxhash64_long(value: int, seed: int) -> int:
    """``XXH64.hashLong``: a long's 8 bytes."""
    h = (seed + _P5 + 8) & _M64
    return _signed(_fmix64(_eight_bytes(h, value & _M64)), 64)


def xxhash64_bytes(data: bytes, seed: int) -> int:
    """``XXH64.hashUnsafeBytes``: standard xxHash64 of ``data``, little-endian lanes."""
    seed &= _M64
    length, offset = len(data), 0
    if length >= 32:
        v = [(seed + _P1 + _P2) & _M64, (seed + _P2) & _M64, seed, (seed - _P1) & _M64]
        while offset <= length - 32:
            lanes = struct.unpack_from("<4Q", data, offset)
            v = [_round64(acc, lane) for acc, lane in zip(v, lanes)]
            offset += 32
        h = (_rotl64(v[0], 1) + _rotl64(v[1], 7) + _rotl64(v[2], 12) + _rotl64(v[3], 18)) & _M64
        for acc in v:
            h = ((h ^ _round64(0, acc)) * _P1 + _P4) & _M64
    else:
        h = (seed + _P5) & _M64
    h = (h + length) & _M64
    while offset <= length - 8:
        h = _eight_bytes(h, struct.unpack_from("<Q", data, offset)[0])
        offset += 8
    if offset <= length - 4:
        h = _four_bytes(h, struct.unpack_from("<I", data, offset)[0])
        offset += 4
    while offset < length:
        h ^= (data[offset] * _P5) & _M64
        h = (_rotl64(h, 11) * _P1) & _M64
        offset += 1
    return _signed(_fmix64(h), 64)


# -- Spark's per-type rules ---------------------------------------------------------------------------

_ALGORITHMS = {"hash": (murmur3_int, murmur3_long, murmur3_bytes),
               "xxhash64": (xxhash64_int, xxhash64_long, xxhash64_bytes)}

# the types hash and xxhash64 take between rows (others are refused at binding)
HASHABLE = ("boolean", "tinyint", "smallint", "int", "bigint", "float", "double", "decimal", "string",
            "binary", "date", "timestamp", "timestamp_ntz", "void")



def hashable(t: SqlType) -> bool:
    """Whether ``hash`` and ``xxhash64`` take a value of ``t`` between rows: a ``HASHABLE`` type
    or an ARRAY of one (arrays of arrays too)."""
    element = element_type(t)
    return t.name in HASHABLE or (element is not None and hashable(element))


_EPOCH_DATE = dt.date(1970, 1, 1)
_EPOCH = dt.datetime(1970, 1, 1)
_MICROSECOND = dt.timedelta(microseconds=1)
_COMPACT_DIGITS = 18  # Spark's Decimal.MAX_LONG_DIGITS


def _float_bits(value: float) -> int:
    return 0x7FC00000 if math.isnan(value) else struct.unpack("<i", struct.pack("<f", value))[0]


def _double_bits(value: float) -> int:
    return 0x7FF8000000000000 if math.isnan(value) else struct.unpack("<q", struct.pack("<d", value))[0]


def big_integer_bytes(value: int) -> bytes:
    """Java's ``BigInteger.toByteArray``: big-endian two's complement in as few bytes as hold
    the value and its sign bit (0 is one zero byte)."""
    magnitude_bits = value.bit_length() if value >= 0 else (~value).bit_length()
    return value.to_bytes(magnitude_bits // 8 + 1, "big", signed=True)


def _unscaled(value: Decimal, scale: int) -> int:
    """The DECIMAL value times 10^scale, an integer (exact: no context rounding)."""
    sign, digits, exponent = value.as_tuple()
    number = int("".join(map(str, digits)) or "0")
    shift = exponent + scale
    number = number * 10 ** shift if shift >= 0 else number // 10 ** -shift
    return -number if sign else number


def _micros(value: dt.datetime) -> int:
    """Microseconds since 1970-01-01 00:00 (UTC for an aware TIMESTAMP)."""
    if value.tzinfo is not None:
        value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return (value - _EPOCH) // _MICROSECOND


def _hasher(algorithm: str, t: SqlType):
    """The function (value, seed) -> hash of a non-NULL value of type ``t``."""
    hash_int, hash_long, hash_bytes = _ALGORITHMS[algorithm]
    name = t.name
    if name in ("tinyint", "smallint", "int"):
        return hash_int
    if name == "bigint":
        return hash_long
    if name == "boolean":
        return lambda v, seed: hash_int(1 if v else 0, seed)
    if name == "date":
        return lambda v, seed: hash_int((v - _EPOCH_DATE).days, seed)
    if name in ("timestamp", "timestamp_ntz"):
        return lambda v, seed: hash_long(_micros(v), seed)
    if name == "float":  # -0.0 (== 0.0) is hashed as the int 0
        return lambda v, seed: hash_int(0 if v == 0 else _float_bits(v), seed)
    if name == "double":
        return lambda v, seed: hash_long(0 if v == 0 else _double_bits(v), seed)
    if name == "string":
        return lambda v, seed: hash_bytes(v.encode("utf-8"), seed)
    if name == "binary":
        return lambda v, seed: hash_bytes(bytes(v), seed)
    if name == "decimal":
        scale = t.scale
        if t.precision <= _COMPACT_DIGITS:
            return lambda v, seed: hash_long(_unscaled(v, scale), seed)
        return lambda v, seed: hash_bytes(big_integer_bytes(_unscaled(v, scale)), seed)
    if name == "void":
        return lambda v, seed: seed
    element = element_type(t)
    if element is not None:  # the elements in order, a NULL one skipped
        inner = _hasher(algorithm, element)

        def hash_array(v, seed):
            for item in v:
                if item is not None:
                    seed = inner(item, seed)
            return seed

        return hash_array
    raise ValueError(f"{algorithm} of {t}")


@lru_cache(maxsize=None)
def row_hash(algorithm: str, types: tuple[SqlType, ...]):
    """``hash`` or ``xxhash64`` (``algorithm``) of values of ``types``, NULLs among them: a
    function of the values, never NULL."""
    hashers = tuple(_hasher(algorithm, t) for t in types)

    def combined(*values) -> int:
        seed = SEED
        for hasher, value in zip(hashers, values):
            if value is not None:
                seed = hasher(value, seed)
        return seed

    return combined
