"""Java's ``Double.toString`` and ``Float.toString``, as Spark prints a DOUBLE or FLOAT
(``CAST(x AS STRING)`` and every implicit cast to STRING, ``to_json``, ``format_string``'s
``%s``) and reads one as a decimal (``BigDecimal(Double.toString(x))`` in ``round``, ``bround``
and the cast to DECIMAL). The digits depend on the JVM's generation, a session setting
(``Semantics.java_version``):

* **Java 19 and later** (Raffaello Giulietti's algorithm, "The Schubfach way to render
  doubles"): of the decimals that round to x (IEEE 754 round to nearest, ties to even, so a
  bound halfway to a neighbour belongs to x when x's significand is even) those with the fewest
  digits, and of them the closest to x (a tie: the even digit string). When one digit is
  enough, the closest of those of one or two digits: ``Double.MIN_VALUE`` is ``4.9E-324``, not
  ``5.0E-324``, and ``1e23`` is ``1.0E23``.
* **Java 17 and 18** (``FloatingDecimal``), as measured:

  - an integral x below 2^63: its exact digits; from 2^(p + 2) on (p the significand's 53 or
    24 bits, e x's binary exponent) the last floor((e - p - 1) * log10(2)) digits are dropped,
    rounded half up (2^60 is ``1.15292150460684698E18``: 18 digits where 16 read back);
  - any other: Steele and White's free-format digit generation. The margin is half an ulp on
    either side of x, a quarter of one at a power of two (on both sides, although only the
    lower neighbour is nearer). Digits are produced until the remainder is strictly within the
    margin of the decimal below or strictly within it of the one above (a bound exactly at the
    margin does not stop it: ``1e23`` is ``9.999999999999999E22``); the last digit is then
    rounded up when only the upper one is, or when both are and the remainder is above one
    half of the last digit (exactly one half: up when the digit is odd). The first digit's
    position is floor of an estimate of log10(x) (the tangent of log10 at 1.5, in DOUBLE
    arithmetic) that can be one too high: the leading zero digit is then dropped. In
    E-notation (position below -3 or from 7 on, as estimated) the first digit never stops
    the generation, unless the estimate was one too high. The generation runs in 32-bit or
    64-bit integers when the scaled values' estimated sizes fit (the JVM's wrapping
    arithmetic: a margin that overflows to a negative value stops the generation as if both
    decimals were within it), else exactly.

  A FLOAT is generated the same way with its own 24-bit significand.

Both print the digits as Java does: ``NaN``, ``Infinity``, ``-Infinity``, ``0.0``, ``-0.0``;
for 10^-3 <= |x| < 10^7 plainly with at least one digit after the point (``100.0``,
``0.001``); otherwise one digit, the point, at least one more digit and ``E`` with the exponent
(``1.0E7``, ``1.234E-5``).

Checked against the JVMs (tests/evaluation/JavaDoubleText.java writes their answers): over
1,054,258 DOUBLEs and 1,010,554 FLOATs (powers of ten and of two and their neighbours, the
E-notation thresholds, random bit patterns, subnormals, short decimals, integers) on Java
17.0.15 and on Java 25.0.3, no difference; tests/evaluation/java_double_text.json keeps a
sample for the quick tests.
"""

from __future__ import annotations

import math
import struct
from decimal import Decimal

#: the first Java feature version with the shortest decimal (JDK-4511638, fixed in Java 19)
SHORTEST_SINCE = 19


def double_text(x: float, java_version: int) -> str:
    """Java's ``Double.toString(x)`` on a JVM of ``java_version`` (17, 21, ...)."""
    return _text(struct.unpack(">Q", struct.pack(">d", x))[0], 52, 11, java_version)


def float_text(x: float, java_version: int) -> str:
    """Java's ``Float.toString(x)`` of a FLOAT value ``x`` (a Python float holding it)."""
    return _text(struct.unpack(">I", struct.pack(">f", x))[0], 23, 8, java_version)


# -- bits to decimal -----------------------------------------------------------------------


def _text(bits: int, fraction_bits: int, exponent_bits: int, java_version: int) -> str:
    negative = bits >> (fraction_bits + exponent_bits) & 1
    biased = bits >> fraction_bits & ((1 << exponent_bits) - 1)
    fraction = bits & ((1 << fraction_bits) - 1)
    sign = "-" if negative else ""
    if biased == (1 << exponent_bits) - 1:
        return "NaN" if fraction else sign + "Infinity"
    if biased == 0 and fraction == 0:
        return sign + "0.0"
    bias = (1 << (exponent_bits - 1)) - 1 + fraction_bits
    if biased == 0:  # subnormal
        significand, exponent = fraction, 1 - bias
    else:
        significand, exponent = fraction | (1 << fraction_bits), biased - bias
    # the value is significand * 2^exponent
    lower_closer = biased > 1 and fraction == 0  # a power of two: the neighbour below is nearer
    if java_version >= SHORTEST_SINCE:
        if fraction_bits == 52:
            digits, power = _shortest_double(struct.unpack(">d", struct.pack(">Q", bits))[0], significand,
                                             exponent, lower_closer)
        else:
            digits, power = _shortest(significand, exponent, lower_closer)
    else:
        digits, power = _floating_decimal(significand, exponent, fraction_bits + 1)
    return sign + _java_form(digits, power)


def _compare(digits: int, power: int, numerator: int, binary: int) -> int:
    """The sign of digits * 10^power - numerator * 2^binary."""
    left = digits * 10 ** max(power, 0) << max(-binary, 0)
    right = numerator * 10 ** max(-power, 0) << max(binary, 0)
    return (left > right) - (left < right)


def _shortest_double(x: float, significand: int, exponent: int, lower_closer: bool) -> tuple[int, int]:
    """Java 19+'s digits of a DOUBLE: Python's ``repr`` is the shortest decimal that reads back,
    the closest to x; one digit is redone with two allowed."""
    _, digits, power = Decimal(repr(abs(x))).as_tuple()
    text = "".join(map(str, digits)).rstrip("0")
    if len(text) == 1:
        return _shortest(significand, exponent, lower_closer, 2)
    return int(text), power + len(digits) - len(text)


def _shortest(significand: int, exponent: int, lower_closer: bool, minimum: int = 1) -> tuple[int, int]:
    """Java 19+'s decimal ``(digits, power)`` of significand * 2^exponent: the fewest digits
    (at least ``minimum``; one is redone with two) that round to the value, the closest of
    them (a tie: the even one)."""
    value, binary = 4 * significand, exponent - 2  # the value and its bounds are integers * 2^binary
    low, high = value - (1 if lower_closer else 2), value + 2
    inclusive = significand % 2 == 0  # a bound halfway rounds to the even significand
    top = math.floor((significand.bit_length() - 1 + exponent) * 0.30102999566398119521)
    while _compare(1, top + 1, value, binary) <= 0:
        top += 1
    while _compare(1, top, value, binary) > 0:
        top -= 1
    count = minimum
    while True:
        power = top - count + 1
        below = (value * 10 ** max(-power, 0) << max(binary, 0)) // (10 ** max(power, 0) << max(-binary, 0))
        within = []
        for digits in (below, below + 1):
            if digits == 0:
                continue
            above_low = _compare(digits, power, low, binary)
            below_high = _compare(digits, power, high, binary)
            if (above_low > 0 or (inclusive and above_low == 0)) and \
                    (below_high < 0 or (inclusive and below_high == 0)):
                within.append(digits)
        if within and count == 1:
            return _shortest(significand, exponent, lower_closer, 2)
        if len(within) == 2:  # the closer; halfway: the even one
            side = _compare(2 * below + 1, power, 2 * value, binary)
            return (below if side > 0 or (side == 0 and below % 2 == 0) else below + 1), power
        if within:
            return within[0], power
        count += 1


# Java 17's FloatingDecimal, as measured (see the module's description)

_FIVE_BITS = [(5 ** i).bit_length() for i in range(27)]


def _estimate(normalized: int, binary_exponent: int) -> int:
    """floor of the tangent estimate of log10(x) at 1.5, in DOUBLE arithmetic (x =
    1.f * 2^binary_exponent, ``normalized`` its 53-bit significand)."""
    d2 = 1.0 + (normalized & ((1 << 52) - 1)) / 4503599627370496.0
    return math.floor((d2 - 1.5) * 0.289529654 + 0.176091259 + binary_exponent * 0.301029995663981)


def _wrapped(value: int, width: int | None) -> int:
    if width is None:
        return value
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def _floating_decimal(significand: int, exponent: int, precision: int) -> tuple[int, int]:
    significant_bits = significand.bit_length()  # fewer than the precision for a subnormal
    binary_exponent = exponent + significand.bit_length() - 1
    normalized = significand << (53 - significand.bit_length())
    trailing = (normalized & -normalized).bit_length() - 1
    fraction_bits = 53 - trailing  # the bits from the leading one to the last one
    odd = normalized >> trailing
    tiny_bits = max(0, fraction_bits - binary_exponent - 1)  # bits after the binary point
    if tiny_bits == 0 and binary_exponent <= 62:  # an integral value below 2^63
        value = odd << (binary_exponent - fraction_bits + 1)
        dropped = binary_exponent - precision - 1
        insignificant = math.floor(dropped * 0.30102999566398119521) if dropped > 1 else 0
        if insignificant:
            value, rest = divmod(value, 10 ** insignificant)
            if rest >= 10 ** insignificant // 2:
                value += 1
        return value, insignificant
    position = _estimate(normalized, binary_exponent)
    # B / S is x / 10^position and M / S the margin, as powers of 2 and 5
    b5 = max(0, -position)
    b2 = b5 + tiny_bits + binary_exponent
    s5 = max(0, position)
    s2 = s5 + tiny_bits
    m5, m2 = b5, b2 - significant_bits
    b2 -= fraction_bits - 1
    common = min(b2, s2)
    b2, s2, m2 = b2 - common, s2 - common, m2 - common
    if fraction_bits == 1:  # a power of two: a quarter of an ulp
        m2 -= 1
    if m2 < 0:
        b2, s2, m2 = b2 - m2, s2 - m2, 0
    b_size = fraction_bits + b2 + (_FIVE_BITS[b5] if b5 < len(_FIVE_BITS) else b5 * 3)
    ten_s_size = s2 + 1 + (_FIVE_BITS[s5 + 1] if s5 + 1 < len(_FIVE_BITS) else (s5 + 1) * 3)
    width = None
    if b_size < 64 and ten_s_size < 64:
        width = 32 if b_size < 32 and ten_s_size < 32 else 64
    b = _wrapped(odd * 5 ** b5 << b2, width)
    s = _wrapped(5 ** s5 << s2, width)
    m = _wrapped(5 ** m5 << m2, width)
    tens = _wrapped(10 * s, width)
    digits: list[int] = []
    q = b // s
    b = _wrapped(10 * (b % s), width)
    m = _wrapped(10 * m, width)
    low, high = b < m, _wrapped(b + m, width) > tens
    if q == 0 and not high:  # the estimate was one too high
        position -= 1
    else:
        digits.append(q)
    if position + 1 < -3 or position + 1 >= 8:  # E-notation: at least two digits
        low = high = False
    while not low and not high:
        q = b // s
        b = _wrapped(10 * (b % s), width)
        m = _wrapped(10 * m, width)
        if width is None or m > 0:
            low, high = b < m, _wrapped(b + m, width) > tens
        else:  # the margin overflowed
            low = high = True
        digits.append(q)
    difference = _wrapped(2 * b - tens, width)
    up = high and (not low or difference > 0 or (difference == 0 and digits[-1] % 2 == 1))
    value = int("".join(map(str, digits)))
    return value + up, position + 1 - len(digits)


def _java_form(digits: int, power: int) -> str:
    """digits * 10^power (positive) as Java prints it."""
    text = str(digits)
    stripped = text.rstrip("0")
    power += len(text) - len(stripped)
    exponent = power + len(stripped) - 1  # of the first digit
    if -3 <= exponent < 7:
        if exponent >= 0:
            whole = stripped[:exponent + 1].ljust(exponent + 1, "0")
            return whole + "." + (stripped[exponent + 1:] or "0")
        return "0." + "0" * (-exponent - 1) + stripped
    return stripped[0] + "." + (stripped[1:] or "0") + "E" + str(exponent)
