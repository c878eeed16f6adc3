"""Java's ``StrictMath`` in Python, bit for bit: ``log``, ``log10``, ``log1p``, ``exp``,
``expm1``, ``pow`` and ``cbrt``.

Spark computes its math functions of DOUBLEs with ``java.lang.StrictMath``, which Java specifies
to return exactly what fdlibm 5.3 (the "Freely Distributable Math Library") returns. fdlibm is
not correctly rounded, and Python's ``math`` (the C library's) differs from it in the last bit
for some values, so this module follows fdlibm 5.3's documented algorithms step by step: the
argument reduction on the high and low 32-bit words of the IEEE 754 double, the same
polynomial coefficients (given here by their bit patterns), and the same floating-point
operations in the same order. Python's floats are IEEE 754 doubles rounded to nearest, as
fdlibm assumes, so each operation rounds as it does in fdlibm and the results are Java's.

Special values follow fdlibm (which are Java's documented special cases): NaN in, NaN out;
``log`` of 0 is -Infinity and of a negative number NaN; ``exp`` overflows to Infinity above
about 709.78 and underflows to 0 below about -745.13; ``pow`` has its long list (``pow(x, 0)``
is 1 even for NaN, ``pow(±1, ±Infinity)`` NaN, a negative base to a non-integral power NaN, to
an odd integral power negative, ...). Where C divides by zero to make an infinity, Python would
raise, so those cases return the infinity directly.
"""

from __future__ import annotations

import math
import struct

_DOUBLE = struct.Struct("<d")
_BITS = struct.Struct("<q")
_pack_double, _unpack_double = _DOUBLE.pack, _DOUBLE.unpack
_pack_bits, _unpack_bits = _BITS.pack, _BITS.unpack
_LOW_CLEARED = -(1 << 32)  # the 64-bit mask that keeps the high word


def _words(x: float) -> tuple[int, int]:
    """The signed high and the unsigned low 32-bit word of ``x`` (fdlibm's ``__HI`` / ``__LO``)."""
    bits = _unpack_bits(_pack_double(x))[0]
    return bits >> 32, bits & 0xFFFFFFFF


def _high(x: float) -> int:
    return _unpack_bits(_pack_double(x))[0] >> 32


def _double(high: int, low: int) -> float:
    """The double of two 32-bit words (the high one taken modulo 2**32, as C's int store)."""
    high &= 0xFFFFFFFF
    if high & 0x80000000:
        high -= 1 << 32
    return _unpack_double(_pack_bits((high << 32) | (low & 0xFFFFFFFF)))[0]


def _with_high(x: float, high: int) -> float:
    """``x`` with its high word replaced (fdlibm's ``__HI(x) = high``)."""
    return _double(high, _unpack_bits(_pack_double(x))[0])


def _chopped(x: float) -> float:
    """``x`` with its low word cleared (fdlibm's ``__LO(x) = 0``)."""
    return _unpack_double(_pack_bits(_unpack_bits(_pack_double(x))[0] & _LOW_CLEARED))[0]


def divide(a: float, b: float) -> float:
    """IEEE 754 division, as Java and C divide doubles (Python raises on a zero divisor)."""
    if b:
        return a / b
    if a != a or a == 0:
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


_TWO54 = _double(0x43500000, 0)
_TWOM54 = _double(0x3C900000, 0)
_HUGE = 1.0e300
_TINY = 1.0e-300
_LN2_HI = _double(0x3FE62E42, 0xFEE00000)
_LN2_LO = _double(0x3DEA39EF, 0x35793C76)
_INVLN2 = _double(0x3FF71547, 0x652B82FE)

# log(1 + f) = f - s*(f - R), s = f / (2 + f): the minimax polynomial R(z) of z = s*s
_LG1 = _double(0x3FE55555, 0x55555593)
_LG2 = _double(0x3FD99999, 0x9997FA04)
_LG3 = _double(0x3FD24924, 0x94229359)
_LG4 = _double(0x3FCC71C5, 0x1D8E78AF)
_LG5 = _double(0x3FC74664, 0x96CB03DE)
_LG6 = _double(0x3FC39A09, 0xD078C69F)
_LG7 = _double(0x3FC2F112, 0xDF3E5244)


def log(x: float) -> float:
    """``StrictMath.log``: the natural logarithm (fdlibm's ``__ieee754_log``)."""
    hx, lx = _words(x)
    k = 0
    if hx < 0x00100000:  # x < 2**-1022: zero, subnormal or negative
        if ((hx & 0x7FFFFFFF) | lx) == 0:
            return -math.inf
        if hx < 0:
            return math.nan
        k -= 54
        x *= _TWO54  # subnormal: scale up
        hx = _high(x)
    if hx >= 0x7FF00000:
        return x + x  # Infinity or NaN
    k += (hx >> 20) - 1023
    hx &= 0x000FFFFF
    i = (hx + 0x95F64) & 0x100000
    x = _with_high(x, hx | (i ^ 0x3FF00000))  # normalize x or x/2
    k += i >> 20
    f = x - 1.0
    if (0x000FFFFF & (2 + hx)) < 3:  # |f| < 2**-20
        if f == 0.0:
            if k == 0:
                return 0.0
            dk = float(k)
            return dk * _LN2_HI + dk * _LN2_LO
        r = f * f * (0.5 - 0.33333333333333333 * f)
        if k == 0:
            return f - r
        dk = float(k)
        return dk * _LN2_HI - ((r - dk * _LN2_LO) - f)
    s = f / (2.0 + f)
    dk = float(k)
    z = s * s
    i = hx - 0x6147A
    w = z * z
    j = 0x6B851 - hx
    t1 = w * (_LG2 + w * (_LG4 + w * _LG6))
    t2 = z * (_LG1 + w * (_LG3 + w * (_LG5 + w * _LG7)))
    i |= j
    r = t2 + t1
    if i > 0:
        hfsq = 0.5 * f * f
        if k == 0:
            return f - (hfsq - s * (hfsq + r))
        return dk * _LN2_HI - ((hfsq - (s * (hfsq + r) + dk * _LN2_LO)) - f)
    if k == 0:
        return f - s * (f - r)
    return dk * _LN2_HI - ((s * (f - r) - dk * _LN2_LO) - f)


_IVLN10 = _double(0x3FDBCB7B, 0x1526E50E)
_LOG10_2HI = _double(0x3FD34413, 0x509F6000)
_LOG10_2LO = _double(0x3D59FEF3, 0x11F12B36)


def log10(x: float) -> float:
    """``StrictMath.log10`` (fdlibm's ``__ieee754_log10``: n*log10(2) + log10(m), with
    log10(m) = log(m) / ln(10))."""
    hx, lx = _words(x)
    k = 0
    if hx < 0x00100000:
        if ((hx & 0x7FFFFFFF) | lx) == 0:
            return -math.inf
        if hx < 0:
            return math.nan
        k -= 54
        x *= _TWO54
        hx = _high(x)
    if hx >= 0x7FF00000:
        return x + x
    k += (hx >> 20) - 1023
    i = 1 if k < 0 else 0  # ((unsigned) k & 0x80000000) >> 31
    hx = (hx & 0x000FFFFF) | ((0x3FF - i) << 20)
    y = float(k + i)
    x = _with_high(x, hx)
    z = y * _LOG10_2LO + _IVLN10 * log(x)
    return z + y * _LOG10_2HI


_LP = (_LG1, _LG2, _LG3, _LG4, _LG5, _LG6, _LG7)  # log1p's coefficients are log's


def log1p(x: float) -> float:
    """``StrictMath.log1p``: log(1 + x), accurate for small x (fdlibm's ``log1p``)."""
    hx = _high(x)
    ax = hx & 0x7FFFFFFF
    k = 1
    hu = 0
    f = c = 0.0
    if hx < 0x3FDA827A:  # x < 0.41422
        if ax >= 0x3FF00000:  # x <= -1.0
            return -math.inf if x == -1.0 else math.nan
        if ax < 0x3E200000:  # |x| < 2**-29
            if _TWO54 + x > 0.0 and ax < 0x3C900000:  # |x| < 2**-54
                return x
            return x - x * x * 0.5
        if hx > 0 or hx <= 0xBFD2BEC3 - (1 << 32):  # -0.2929 < x < 0.41422
            k = 0
            f = x
            hu = 1
    if hx >= 0x7FF00000:
        return x + x
    if k != 0:
        if hx < 0x43400000:
            u = 1.0 + x
            hu = _high(u)
            k = (hu >> 20) - 1023
            c = 1.0 - (u - x) if k > 0 else x - (u - 1.0)  # correction term
            c /= u
        else:
            u = x
            hu = _high(u)
            k = (hu >> 20) - 1023
            c = 0.0
        hu &= 0x000FFFFF
        if hu < 0x6A09E:
            u = _with_high(u, hu | 0x3FF00000)  # normalize u
        else:
            k += 1
            u = _with_high(u, hu | 0x3FE00000)  # normalize u/2
            hu = (0x00100000 - hu) >> 2
        f = u - 1.0
    hfsq = 0.5 * f * f
    if hu == 0:  # |f| < 2**-20
        if f == 0.0:
            if k == 0:
                return 0.0
            c += k * _LN2_LO
            return k * _LN2_HI + c
        r = hfsq * (1.0 - 0.66666666666666666 * f)
        if k == 0:
            return f - r
        return k * _LN2_HI - ((r - (k * _LN2_LO + c)) - f)
    s = f / (2.0 + f)
    z = s * s
    p1, p2, p3, p4, p5, p6, p7 = _LP
    r = z * (p1 + z * (p2 + z * (p3 + z * (p4 + z * (p5 + z * (p6 + z * p7))))))
    if k == 0:
        return f - (hfsq - s * (hfsq + r))
    return k * _LN2_HI - ((hfsq - (s * (hfsq + r) + (k * _LN2_LO + c))) - f)


_O_THRESHOLD = _double(0x40862E42, 0xFEFA39EF)  # 709.78..., above it exp overflows
_U_THRESHOLD = _double(0xC0874910, 0xD52D3051)  # -745.13..., below it exp underflows to 0
_TWOM1000 = _double(0x01700000, 0)
# exp(r) = 1 + r + r*c / (2 - c), c = r - r**2 * P(r**2): the minimax polynomial P
_P1 = _double(0x3FC55555, 0x5555553E)
_P2 = _double(0xBF66C16C, 0x16BEBD93)
_P3 = _double(0x3F11566A, 0xAF25DE2C)
_P4 = _double(0xBEBBBD41, 0xC5D26BF1)
_P5 = _double(0x3E663769, 0x72BEA4D0)


def exp(x: float) -> float:
    """``StrictMath.exp`` (fdlibm's ``__ieee754_exp``: x = k*ln2 + r, exp(x) = 2**k * exp(r))."""
    hx, lx = _words(x)
    negative = hx < 0
    hx &= 0x7FFFFFFF
    if hx >= 0x40862E42:  # |x| >= 709.78...
        if hx >= 0x7FF00000:
            if ((hx & 0xFFFFF) | lx) != 0:
                return x + x  # NaN
            return 0.0 if negative else x  # exp(-Infinity) = 0, exp(Infinity) = Infinity
        if x > _O_THRESHOLD:
            return math.inf
        if x < _U_THRESHOLD:
            return 0.0
    hi = lo = 0.0
    if hx > 0x3FD62E42:  # |x| > 0.5 ln2: reduce
        if hx < 0x3FF0A2B2:  # and |x| < 1.5 ln2
            if negative:
                hi, lo, k = x + _LN2_HI, -_LN2_LO, -1
            else:
                hi, lo, k = x - _LN2_HI, _LN2_LO, 1
        else:
            k = int(_INVLN2 * x + (-0.5 if negative else 0.5))
            t = float(k)
            hi = x - t * _LN2_HI  # t*ln2_hi is exact here
            lo = t * _LN2_LO
        x = hi - lo
    elif hx < 0x3E300000:  # |x| < 2**-28
        return 1.0 + x
    else:
        k = 0
    t = x * x
    c = x - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
    if k == 0:
        return 1.0 - ((x * c) / (c - 2.0) - x)
    y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi)
    if k >= -1021:
        return _with_high(y, _high(y) + (k << 20))  # add k to y's exponent
    return _with_high(y, _high(y) + ((k + 1000) << 20)) * _TWOM1000


# expm1's scaled coefficients
_Q1 = _double(0xBFA11111, 0x111110F4)
_Q2 = _double(0x3F5A01A0, 0x19FE5585)
_Q3 = _double(0xBF14CE19, 0x9EAADBB7)
_Q4 = _double(0x3ED0CFCA, 0x86E65239)
_Q5 = _double(0xBE8AFDB7, 0x6E09C32D)


def expm1(x: float) -> float:
    """``StrictMath.expm1``: exp(x) - 1, accurate for small x (fdlibm's ``expm1``)."""
    hx, lx = _words(x)
    negative = hx < 0
    hx &= 0x7FFFFFFF
    if hx >= 0x4043687A:  # |x| >= 56*ln2
        if hx >= 0x40862E42:  # |x| >= 709.78...
            if hx >= 0x7FF00000:
                if ((hx & 0xFFFFF) | lx) != 0:
                    return x + x  # NaN
                return -1.0 if negative else x
            if x > _O_THRESHOLD:
                return math.inf
        if negative and x + _TINY < 0.0:  # x < -56*ln2
            return _TINY - 1.0
    if hx > 0x3FD62E42:  # |x| > 0.5 ln2
        if hx < 0x3FF0A2B2:  # and |x| < 1.5 ln2
            if not negative:
                hi, lo, k = x - _LN2_HI, _LN2_LO, 1
            else:
                hi, lo, k = x + _LN2_HI, -_LN2_LO, -1
        else:
            k = int(_INVLN2 * x + (0.5 if not negative else -0.5))
            t = float(k)
            hi = x - t * _LN2_HI  # t*ln2_hi is exact here
            lo = t * _LN2_LO
        x = hi - lo
        c = (hi - x) - lo
    elif hx < 0x3C900000:  # |x| < 2**-54: x
        t = _HUGE + x
        return x - (t - (_HUGE + x))
    else:
        k = 0
        c = 0.0
    hfx = 0.5 * x
    hxs = x * hfx
    r1 = 1.0 + hxs * (_Q1 + hxs * (_Q2 + hxs * (_Q3 + hxs * (_Q4 + hxs * _Q5))))
    t = 3.0 - r1 * hfx
    e = hxs * ((r1 - t) / (6.0 - x * t))
    if k == 0:
        return x - (x * e - hxs)  # c is 0
    e = x * (e - c) - c
    e -= hxs
    if k == -1:
        return 0.5 * (x - e) - 0.5
    if k == 1:
        if x < -0.25:
            return -2.0 * (e - (x + 0.5))
        return 1.0 + 2.0 * (x - e)
    if k <= -2 or k > 56:  # exp(x) - 1 suffices
        y = 1.0 - (e - x)
        y = _with_high(y, _high(y) + (k << 20))
        return y - 1.0
    if k < 20:
        t = _double(0x3FF00000 - (0x200000 >> k), 0)  # 1 - 2**-k
        y = t - (e - x)
        return _with_high(y, _high(y) + (k << 20))
    t = _double((0x3FF - k) << 20, 0)  # 2**-k
    y = x - (e + t)
    y += 1.0
    return _with_high(y, _high(y) + (k << 20))


_BP = (1.0, 1.5)
_DP_H = (0.0, _double(0x3FE2B803, 0x40000000))  # log2(1.5), high part
_DP_L = (0.0, _double(0x3E4CFDEB, 0x43CFD006))  # and its tail
_TWO53 = _double(0x43400000, 0)
# (3/2) * (log(x) - 2s - (2/3) s**3): the polynomial in s**2
_L1 = _double(0x3FE33333, 0x33333303)
_L2 = _double(0x3FDB6DB6, 0xDB6FABFF)
_L3 = _double(0x3FD55555, 0x518F264D)
_L4 = _double(0x3FD17460, 0xA91D4101)
_L5 = _double(0x3FCD864A, 0x93C9DB65)
_L6 = _double(0x3FCA7E28, 0x4A454EEF)
_LG2_FULL = _double(0x3FE62E42, 0xFEFA39EF)  # ln 2
_LG2_H = _double(0x3FE62E43, 0)
_LG2_L = _double(0xBE205C61, 0x0CA86C39)
_OVT = 8.0085662595372944372e-17  # -(1024 - log2(overflow + 0.5 ulp))
_CP = _double(0x3FEEC709, 0xDC3A03FD)  # 2 / (3 ln 2)
_CP_H = _double(0x3FEEC709, 0xE0000000)
_CP_L = _double(0xBE3E2FE0, 0x145B01F5)
_IVLN2 = _double(0x3FF71547, 0x652B82FE)
_IVLN2_H = _double(0x3FF71547, 0x60000000)
_IVLN2_L = _double(0x3E54AE0B, 0xF85DDF44)


def _scalbn(x: float, n: int) -> float:
    """fdlibm's ``scalbn``: x * 2**n, rounded once (pow's subnormal results)."""
    hx, lx = _words(x)
    k = (hx & 0x7FF00000) >> 20
    if k == 0:
        if (lx | (hx & 0x7FFFFFFF)) == 0:
            return x
        x *= _TWO54
        hx = _high(x)
        k = ((hx & 0x7FF00000) >> 20) - 54
        if n < -50000:
            return _TINY * x
    if k == 0x7FF:
        return x + x
    k += n
    if k > 0x7FE:
        return _HUGE * math.copysign(_HUGE, x)
    if k > 0:
        return _with_high(x, (hx & 0x800FFFFF) | (k << 20))
    if k <= -54:
        if n > 50000:
            return _HUGE * math.copysign(_HUGE, x)
        return _TINY * math.copysign(_TINY, x)
    k += 54
    return _with_high(x, (hx & 0x800FFFFF) | (k << 20)) * _TWOM54


def pow(x: float, y: float) -> float:  # noqa: A001 - Java's name
    """``StrictMath.pow``: x**y (fdlibm's ``__ieee754_pow``: log2(x) in extra precision,
    times y, then 2 to that power)."""
    hx, lx = _words(x)
    hy, ly = _words(y)
    ix = hx & 0x7FFFFFFF
    iy = hy & 0x7FFFFFFF

    if (iy | ly) == 0:  # x**0 = 1, even for NaN
        return 1.0
    if ix > 0x7FF00000 or (ix == 0x7FF00000 and lx != 0) or \
            iy > 0x7FF00000 or (iy == 0x7FF00000 and ly != 0):
        return x + y  # NaN

    # yisint: 0 y is not an integer, 1 an odd integer, 2 an even integer (only for x < 0)
    yisint = 0
    if hx < 0:
        if iy >= 0x43400000:
            yisint = 2  # |y| >= 2**53: even
        elif iy >= 0x3FF00000:
            k = (iy >> 20) - 0x3FF  # exponent
            if k > 20:
                j = ly >> (52 - k)
                if ((j << (52 - k)) & 0xFFFFFFFF) == ly:
                    yisint = 2 - (j & 1)
            elif ly == 0:
                j = iy >> (20 - k)
                if (j << (20 - k)) == iy:
                    yisint = 2 - (j & 1)

    if ly == 0:  # special values of y
        if iy == 0x7FF00000:  # y is ±Infinity
            if ((ix - 0x3FF00000) | lx) == 0:
                return y - y  # (±1)**±Infinity is NaN
            if ix >= 0x3FF00000:  # (|x| > 1)**±Infinity = Infinity, 0
                return y if hy >= 0 else 0.0
            return -y if hy < 0 else 0.0  # (|x| < 1)**∓Infinity = Infinity, 0
        if iy == 0x3FF00000:  # y is ±1
            return divide(1.0, x) if hy < 0 else x
        if hy == 0x40000000:  # y is 2
            return x * x
        if hy == 0x3FE00000 and hx >= 0:  # y is 0.5 and x >= +0
            return math.sqrt(x)

    ax = abs(x)
    if lx == 0 and (ix == 0x7FF00000 or ix == 0 or ix == 0x3FF00000):  # x is ±0, ±Infinity, ±1
        z = ax
        if hy < 0:
            z = divide(1.0, z)  # 1/|x|
        if hx < 0:
            if ((ix - 0x3FF00000) | yisint) == 0:
                return math.nan  # (-1)**non-integer
            if yisint == 1:
                z = -z  # (x < 0)**odd = -(|x|**odd)
        return z

    negative = hx < 0
    if negative and yisint == 0:
        return math.nan  # (x < 0)**non-integer
    s = -1.0 if negative and yisint == 1 else 1.0  # the sign of the result

    if iy > 0x41E00000:  # |y| > 2**31
        if iy > 0x43F00000:  # |y| > 2**64: overflows or underflows
            if ix <= 0x3FEFFFFF:
                return math.inf if hy < 0 else 0.0
            if ix >= 0x3FF00000:
                return math.inf if hy > 0 else 0.0
        # over- or underflows unless x is close to one
        if ix < 0x3FEFFFFF:
            return s * _HUGE * _HUGE if hy < 0 else s * _TINY * _TINY
        if ix > 0x3FF00000:
            return s * _HUGE * _HUGE if hy > 0 else s * _TINY * _TINY
        # |1 - x| <= 2**-20: log(x) by x - x**2/2 + x**3/3 - x**4/4
        t = ax - 1.0  # t has 20 trailing zeros
        w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25))
        u = _IVLN2_H * t  # ivln2_h has 21 significant bits
        v = t * _IVLN2_L - w * _IVLN2
        t1 = _chopped(u + v)
        t2 = v - (t1 - u)
    else:
        n = 0
        if ix < 0x00100000:  # subnormal x
            ax *= _TWO53
            n -= 53
            ix = _high(ax)
        n += (ix >> 20) - 0x3FF
        j = ix & 0x000FFFFF
        ix = j | 0x3FF00000  # normalize
        if j <= 0x3988E:  # |x| < sqrt(3/2)
            k = 0
        elif j < 0xBB67A:  # |x| < sqrt(3)
            k = 1
        else:
            k = 0
            n += 1
            ix -= 0x00100000
        ax = _with_high(ax, ix)

        # ss = s_h + s_l = (x - 1) / (x + 1) or (x - 1.5) / (x + 1.5)
        bp = _BP[k]
        u = ax - bp
        v = 1.0 / (ax + bp)
        ss = u * v
        s_h = _chopped(ss)
        t_h = _double(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18), 0)  # ax + bp[k], high
        t_l = ax - (t_h - bp)
        s_l = v * ((u - s_h * t_h) - s_h * t_l)
        # log(ax)
        s2 = ss * ss
        r = s2 * s2 * (_L1 + s2 * (_L2 + s2 * (_L3 + s2 * (_L4 + s2 * (_L5 + s2 * _L6)))))
        r += s_l * (s_h + ss)
        s2 = s_h * s_h
        t_h = _chopped(3.0 + s2 + r)
        t_l = r - ((t_h - 3.0) - s2)
        # u + v = ss * (1 + ...)
        u = s_h * t_h
        v = s_l * t_h + t_l * ss
        # 2 / (3 log2) * (ss + ...)
        p_h = _chopped(u + v)
        p_l = v - (p_h - u)
        z_h = _CP_H * p_h  # cp_h + cp_l = 2 / (3 log2)
        z_l = _CP_L * p_h + p_l * _CP + _DP_L[k]
        # log2(ax) = (ss + ...) * 2 / (3 log2) = n + dp_h + z_h + z_l
        t = float(n)
        t1 = _chopped(((z_h + z_l) + _DP_H[k]) + t)
        t2 = z_l - (((t1 - t) - _DP_H[k]) - z_h)

    # y = y1 + y2, times t1 + t2
    y1 = _chopped(y)
    p_l = (y - y1) * t1 + y * t2
    p_h = y1 * t1
    z = p_l + p_h
    j, i = _words(z)
    if j >= 0x40900000:  # z >= 1024
        if ((j - 0x40900000) | i) != 0:
            return s * _HUGE * _HUGE  # overflow
        if p_l + _OVT > z - p_h:
            return s * _HUGE * _HUGE
    elif (j & 0x7FFFFFFF) >= 0x4090CC00:  # z <= -1075
        if (((j & 0xFFFFFFFF) - 0xC090CC00) | i) != 0:
            return s * _TINY * _TINY  # underflow
        if p_l <= z - p_h:
            return s * _TINY * _TINY

    # 2**(p_h + p_l)
    i = j & 0x7FFFFFFF
    k = (i >> 20) - 0x3FF
    n = 0
    if i > 0x3FE00000:  # |z| > 0.5: n = [z + 0.5]
        n = j + (0x00100000 >> (k + 1))
        k = ((n & 0x7FFFFFFF) >> 20) - 0x3FF  # the new k for n
        t = _double(n & ~(0x000FFFFF >> k), 0)
        n = ((n & 0x000FFFFF) | 0x00100000) >> (20 - k)
        if j < 0:
            n = -n
        p_h -= t
    t = _chopped(p_l + p_h)
    u = t * _LG2_H
    v = (p_l - (t - p_h)) * _LG2_FULL + t * _LG2_L
    z = u + v
    w = v - (z - u)
    t = z * z
    t1 = z - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
    r = (z * t1) / (t1 - 2.0) - (w + z * w)
    z = 1.0 - (r - z)
    j = _high(z)
    j += n << 20
    if (j >> 20) <= 0:
        z = _scalbn(z, n)  # subnormal result
    else:
        z = _with_high(z, _high(z) + (n << 20))
    return s * z


_B1 = 715094163  # (682 - 0.03306235651) * 2**20
_B2 = 696219795  # (664 - 0.03306235651) * 2**20
_C = _double(0x3FE15F15, 0xF15F15F1)  # 19/35
_D = _double(0xBFE691DE, 0x2532C834)  # -864/1225
_E = _double(0x3FF6A0EA, 0x0EA0EA0F)  # 99/70
_F = _double(0x3FF9B6DB, 0x6DB6DB6E)  # 45/28
_G = _double(0x3FD6DB6D, 0xB6DB6DB7)  # 5/14


def cbrt(x: float) -> float:
    """``StrictMath.cbrt``: the cube root (fdlibm's ``cbrt``: a 5-bit guess from the exponent,
    a rational step to 23 bits, chopped, and one Newton step)."""
    hx, lx = _words(x)
    sign = hx & 0x80000000
    hx &= 0x7FFFFFFF
    if hx >= 0x7FF00000:
        return x + x  # NaN, ±Infinity
    if (hx | lx) == 0:
        return x  # ±0
    x = _double(hx, lx)  # |x|
    if hx < 0x00100000:  # subnormal
        t = _double(0x43500000, 0) * x  # 2**54 * x
        t = _with_high(t, _high(t) // 3 + _B2)
    else:
        t = _double(hx // 3 + _B1, 0)
    # to 23 bits
    r = t * t / x
    s = _C + r * t
    t *= _G + _F / (s + _E + _D / s)
    # chop to 20 bits and make it larger than cbrt(x)
    t = _double(_high(t) + 1, 0)
    # one Newton step, to 53 bits
    s = t * t  # exact
    r = x / s
    w = t + t
    r = (r - t) / (w + r)
    t = t + t * r
    return _with_high(t, _high(t) | sign)
