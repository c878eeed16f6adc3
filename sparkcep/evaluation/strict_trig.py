"""Java's ``StrictMath`` in Python, bit for bit: the inverse trigonometric functions ``asin``,
``acos``, ``atan`` and ``atan2``, the hyperbolic ``sinh``, ``cosh`` and ``tanh``, and
``hypot``.

The sibling of ``sparkcep.evaluation.strict_math`` (logarithms and exponentials), on the same
ground: Java specifies ``StrictMath`` to return exactly what fdlibm 5.3 returns, Spark computes
these functions with ``java.lang.Math``, whose ``asin``, ``acos``, ``atan``, ``atan2``,
``sinh``, ``cosh``, ``tanh`` and ``hypot`` are ``StrictMath``'s on Java 17 (no HotSpot intrinsic;
measured against Spark, see docs/semantics.md), and Python's ``math`` differs from fdlibm in the
last bit for some values. So each function follows fdlibm's documented algorithm step by step:
the same branches on the high and low 32-bit words of the IEEE 754 double, the same
coefficients (given by their bit patterns) and the same floating-point operations in the same
order, each rounded to nearest as in fdlibm. The hyperbolic functions are built on
``strict_math``'s ``exp`` and ``expm1``, as fdlibm builds them.

Special values are fdlibm's (Java's documented special cases): NaN in, NaN out; ``asin`` and
``acos`` of |x| > 1 NaN; ``atan2`` of signed zeros and infinities its table of quadrants;
``sinh`` and ``cosh`` overflow to Infinity beyond about 710.48; ``tanh`` is ±1 beyond 22;
``hypot`` is Infinity when either argument is infinite, even if the other is NaN. Where C
divides zero by zero to make a NaN, Python would raise, so those cases return NaN directly.
"""

from __future__ import annotations

import math

from sparkcep.evaluation.strict_math import _chopped, _double, _high, _words, exp, expm1

_HUGE = 1.0e300
_TINY = 1.0e-300
_PI = _double(0x400921FB, 0x54442D18)
_PIO2_HI = _double(0x3FF921FB, 0x54442D18)  # pi/2, high part
_PIO2_LO = _double(0x3C91A626, 0x33145C07)  # and its tail
_PIO4_HI = _double(0x3FE921FB, 0x54442D18)  # pi/4
_PI_LO = _double(0x3CA1A626, 0x33145C07)  # pi's tail

# asin(x) = x + x*R(x**2) on [0, 0.5]: R(t) = P(t) / Q(t), a rational minimax approximation
_PS0 = _double(0x3FC55555, 0x55555555)
_PS1 = _double(0xBFD4D612, 0x03EB6F7D)
_PS2 = _double(0x3FC9C155, 0x0E884455)
_PS3 = _double(0xBFA48228, 0xB5688F3B)
_PS4 = _double(0x3F49EFE0, 0x7501B288)
_PS5 = _double(0x3F023DE1, 0x0DFDF709)
_QS1 = _double(0xC0033A27, 0x1C8A2D4B)
_QS2 = _double(0x40002AE5, 0x9C598AC8)
_QS3 = _double(0xBFE6066C, 0x1B8D0159)
_QS4 = _double(0x3FB3B8C5, 0xB12E9282)


def _p(t: float) -> float:
    return t * (_PS0 + t * (_PS1 + t * (_PS2 + t * (_PS3 + t * (_PS4 + t * _PS5)))))


def _q(t: float) -> float:
    return 1.0 + t * (_QS1 + t * (_QS2 + t * (_QS3 + t * _QS4)))


def asin(x: float) -> float:
    """``StrictMath.asin`` (fdlibm's ``__ieee754_asin``: the rational approximation near 0,
    else asin(x) = pi/2 - 2*asin(sqrt((1 - |x|) / 2)))."""
    hx, lx = _words(x)
    ix = hx & 0x7FFFFFFF
    if ix >= 0x3FF00000:  # |x| >= 1
        if ((ix - 0x3FF00000) | lx) == 0:
            return x * _PIO2_HI + x * _PIO2_LO  # asin(±1) = ±pi/2
        return math.nan  # |x| > 1, NaN
    if ix < 0x3FE00000:  # |x| < 0.5
        if ix < 0x3E400000:  # |x| < 2**-27
            return x
        t = x * x
        w = _p(t) / _q(t)
        return x + x * w
    # 0.5 <= |x| < 1
    w = 1.0 - abs(x)
    t = w * 0.5
    p, q = _p(t), _q(t)
    s = math.sqrt(t)
    if ix >= 0x3FEF3333:  # |x| > 0.975
        w = p / q
        t = _PIO2_HI - (2.0 * (s + s * w) - _PIO2_LO)
    else:
        w = _chopped(s)
        c = (t - w * w) / (s + w)
        r = p / q
        p = 2.0 * s * r - (_PIO2_LO - 2.0 * c)
        q = _PIO4_HI - 2.0 * w
        t = _PIO4_HI - (p - q)
    return t if hx > 0 else -t


def acos(x: float) -> float:
    """``StrictMath.acos`` (fdlibm's ``__ieee754_acos``: pi/2 - asin(x) near 0, else
    2*asin(sqrt((1 - |x|) / 2)) or pi minus it)."""
    hx, lx = _words(x)
    ix = hx & 0x7FFFFFFF
    if ix >= 0x3FF00000:  # |x| >= 1
        if ((ix - 0x3FF00000) | lx) == 0:
            return 0.0 if hx > 0 else _PI + 2.0 * _PIO2_LO  # acos(1) = 0, acos(-1) = pi
        return math.nan  # |x| > 1, NaN
    if ix < 0x3FE00000:  # |x| < 0.5
        if ix <= 0x3C600000:  # |x| <= 2**-57
            return _PIO2_HI + _PIO2_LO
        z = x * x
        r = _p(z) / _q(z)
        return _PIO2_HI - (x - (_PIO2_LO - x * r))
    if hx < 0:  # x < -0.5
        z = (1.0 + x) * 0.5
        p, q = _p(z), _q(z)
        s = math.sqrt(z)
        r = p / q
        w = r * s - _PIO2_LO
        return _PI - 2.0 * (s + w)
    z = (1.0 - x) * 0.5  # x > 0.5
    s = math.sqrt(z)
    df = _chopped(s)
    c = (z - df * df) / (s + df)
    r = _p(z) / _q(z)
    w = r * s + c
    return 2.0 * (df + w)


# atan(c) for the reduction points c = 0.5, 1, 1.5 and Infinity, each as a high part and a tail
_ATAN_HI = (_double(0x3FDDAC67, 0x0561BB4F), _double(0x3FE921FB, 0x54442D18),
            _double(0x3FEF730B, 0xD281F69B), _double(0x3FF921FB, 0x54442D18))
_ATAN_LO = (_double(0x3C7A2B7F, 0x222F65E2), _double(0x3C81A626, 0x33145C07),
            _double(0x3C700788, 0x7AF0CBBD), _double(0x3C91A626, 0x33145C07))
# atan(x) = x - x*(aT0*z + aT1*z**2 + ... + aT10*z**11), z = x*x, on |x| < 7/16
_AT = (_double(0x3FD55555, 0x5555550D), _double(0xBFC99999, 0x9998EBC4),
       _double(0x3FC24924, 0x920083FF), _double(0xBFBC71C6, 0xFE231671),
       _double(0x3FB745CD, 0xC54C206E), _double(0xBFB3B0F2, 0xAF749A6D),
       _double(0x3FB10D66, 0xA0D03D51), _double(0xBFADDE2D, 0x52DEFD9A),
       _double(0x3FA97B4B, 0x24760DEB), _double(0xBFA2B444, 0x2C6A6C2F),
       _double(0x3F90AD3A, 0xE322DA11))


def atan(x: float) -> float:
    """``StrictMath.atan`` (fdlibm's ``atan``: |x| reduced to |t| < 7/16 around 0, 0.5, 1, 1.5
    or Infinity, atan(x) = atan(c) + atan(t), and the odd polynomial split in two)."""
    hx, lx = _words(x)
    ix = hx & 0x7FFFFFFF
    if ix >= 0x44100000:  # |x| >= 2**66
        if ix > 0x7FF00000 or (ix == 0x7FF00000 and lx != 0):
            return x + x  # NaN
        return _ATAN_HI[3] + _ATAN_LO[3] if hx > 0 else -_ATAN_HI[3] - _ATAN_LO[3]
    if ix < 0x3FDC0000:  # |x| < 0.4375
        if ix < 0x3E200000:  # |x| < 2**-29
            return x
        k = -1
    else:
        x = abs(x)
        if ix < 0x3FF30000:  # |x| < 1.1875
            if ix < 0x3FE60000:  # 7/16 <= |x| < 11/16
                k, x = 0, (2.0 * x - 1.0) / (2.0 + x)
            else:  # 11/16 <= |x| < 19/16
                k, x = 1, (x - 1.0) / (x + 1.0)
        elif ix < 0x40038000:  # |x| < 2.4375
            k, x = 2, (x - 1.5) / (1.0 + 1.5 * x)
        else:  # 2.4375 <= |x| < 2**66
            k, x = 3, -1.0 / x
    z = x * x
    w = z * z
    a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10 = _AT
    s1 = z * (a0 + w * (a2 + w * (a4 + w * (a6 + w * (a8 + w * a10)))))  # the odd terms
    s2 = w * (a1 + w * (a3 + w * (a5 + w * (a7 + w * a9))))  # the even ones
    if k < 0:
        return x - x * (s1 + s2)
    z = _ATAN_HI[k] - ((x * (s1 + s2) - _ATAN_LO[k]) - x)
    return -z if hx < 0 else z


def atan2(y: float, x: float) -> float:
    """``StrictMath.atan2(y, x)``: the angle of the point (x, y) (fdlibm's ``__ieee754_atan2``:
    the quadrant's special cases, else atan(|y / x|) moved to the quadrant)."""
    hx, lx = _words(x)
    hy, ly = _words(y)
    ix = hx & 0x7FFFFFFF
    iy = hy & 0x7FFFFFFF
    if x != x or y != y:
        return x + y  # NaN
    if ((hx - 0x3FF00000) | lx) == 0:  # x is 1.0
        return atan(y)
    m = (1 if hy < 0 else 0) | (2 if hx < 0 else 0)  # 2*sign(x) + sign(y)
    if (iy | ly) == 0:  # y is ±0
        if m < 2:
            return y  # atan2(±0, +anything) = ±0
        return _PI + _TINY if m == 2 else -_PI - _TINY  # atan2(±0, -anything) = ±pi
    if (ix | lx) == 0:  # x is ±0
        return -_PIO2_HI - _TINY if hy < 0 else _PIO2_HI + _TINY
    if ix == 0x7FF00000:  # x is ±Infinity
        if iy == 0x7FF00000:
            return (_PIO4_HI + _TINY, -_PIO4_HI - _TINY,
                    3.0 * _PIO4_HI + _TINY, -3.0 * _PIO4_HI - _TINY)[m]
        return (0.0, -0.0, _PI + _TINY, -_PI - _TINY)[m]
    if iy == 0x7FF00000:  # y is ±Infinity
        return -_PIO2_HI - _TINY if hy < 0 else _PIO2_HI + _TINY
    k = (iy - ix) >> 20
    if k > 60:  # |y / x| > 2**60
        z = _PIO2_HI + 0.5 * _PI_LO
    elif hx < 0 and k < -60:  # |y| / x < -2**60
        z = 0.0
    else:
        z = atan(abs(y / x))
    if m == 0:
        return z
    if m == 1:
        return -z
    if m == 2:
        return _PI - (z - _PI_LO)
    return (z - _PI_LO) - _PI


_SHUGE = 1.0e307


def sinh(x: float) -> float:
    """``StrictMath.sinh`` (fdlibm's ``__ieee754_sinh``: from expm1(|x|) below 22, exp(|x|)/2
    below about 709.78, exp(|x|/2)**2/2 up to the overflow threshold)."""
    jx, lx = _words(x)
    ix = jx & 0x7FFFFFFF
    if ix >= 0x7FF00000:
        return x + x  # ±Infinity or NaN
    h = -0.5 if jx < 0 else 0.5
    if ix < 0x40360000:  # |x| < 22
        if ix < 0x3E300000:  # |x| < 2**-28
            return x
        t = expm1(abs(x))
        if ix < 0x3FF00000:
            return h * (2.0 * t - t * t / (t + 1.0))
        return h * (t + t / (t + 1.0))
    if ix < 0x40862E42:  # |x| < log(the largest double)
        return h * exp(abs(x))
    if ix < 0x408633CE or (ix == 0x408633CE and lx <= 0x8FB9F87D):  # up to the overflow threshold
        w = exp(0.5 * abs(x))
        t = h * w
        return t * w
    return x * _SHUGE  # overflow


def cosh(x: float) -> float:
    """``StrictMath.cosh`` (fdlibm's ``__ieee754_cosh``: 1 + expm1(|x|)**2 / (2 exp(|x|)) below
    ln(2)/2, (exp(|x|) + 1/exp(|x|)) / 2 below 22, then as ``sinh``)."""
    ix, lx = _words(x)
    ix &= 0x7FFFFFFF
    if ix >= 0x7FF00000:
        return x * x  # Infinity or NaN
    if ix < 0x3FD62E43:  # |x| < ln(2)/2
        t = expm1(abs(x))
        w = 1.0 + t
        if ix < 0x3C800000:  # |x| < 2**-55
            return w
        return 1.0 + (t * t) / (w + w)
    if ix < 0x40360000:  # |x| < 22
        t = exp(abs(x))
        return 0.5 * t + 0.5 / t
    if ix < 0x40862E42:  # |x| < log(the largest double)
        return 0.5 * exp(abs(x))
    if ix < 0x408633CE or (ix == 0x408633CE and lx <= 0x8FB9F87D):  # up to the overflow threshold
        w = exp(0.5 * abs(x))
        t = 0.5 * w
        return t * w
    return _HUGE * _HUGE  # overflow


def tanh(x: float) -> float:
    """``StrictMath.tanh`` (fdlibm's ``tanh``: from expm1(±2|x|) below 22, else ±1)."""
    jx = _high(x)
    ix = jx & 0x7FFFFFFF
    if ix >= 0x7FF00000:
        return 1.0 / x + 1.0 if jx >= 0 else 1.0 / x - 1.0  # ±1 for ±Infinity, NaN
    if ix < 0x40360000:  # |x| < 22
        if ix < 0x3C800000:  # |x| < 2**-55
            return x * (1.0 + x)
        if ix >= 0x3FF00000:  # |x| >= 1
            t = expm1(2.0 * abs(x))
            z = 1.0 - 2.0 / (t + 2.0)
        else:
            t = expm1(-2.0 * abs(x))
            z = -t / (t + 2.0)
    else:
        z = 1.0 - _TINY  # 1
    return z if jx >= 0 else -z


_TWO_M600 = _double(0x1A700000, 0)  # 2**-600
_TWO_P600 = _double(0x65700000, 0)  # 2**600
_TWO_P1022 = _double(0x7FD00000, 0)
_SCALED_ABOVE = _double(0x5F300000, 0xFFFFFFFF)  # a little above 2**500
_TWO_M500 = _double(0x20B00000, 0)
_MIN_NORMAL = _double(0x00100000, 0)  # 2**-1022


def hypot(x: float, y: float) -> float:
    """``StrictMath.hypot``: sqrt(x**2 + y**2) without undue overflow or underflow (fdlibm's
    ``__ieee754_hypot`` as Java ports it: |x| and |y| ordered by value, scaled by 2**±600 or
    2**1022 into range, and the sum of squares in extra precision from their high words)."""
    a, b = abs(x), abs(y)
    if not (math.isfinite(a) and math.isfinite(b)):
        return math.inf if math.inf in (a, b) else a + b  # NaN
    if b > a:
        a, b = b, a
    ha, hb = _high(a), _high(b)
    if ha - hb > 0x3C00000:  # a / b > 2**60
        return a + b
    k = 0
    if a > _SCALED_ABOVE:  # a > 2**500: scale both by 2**-600
        ha -= 0x25800000
        hb -= 0x25800000
        a *= _TWO_M600
        b *= _TWO_M600
        k += 600
    if b < _TWO_M500:
        if b < _MIN_NORMAL:  # subnormal b, or zero
            if b == 0.0:
                return a
            b *= _TWO_P1022  # ha and hb stay those of the unscaled values, as in fdlibm
            a *= _TWO_P1022
            k -= 1022
        else:  # scale both by 2**600
            ha += 0x25800000
            hb += 0x25800000
            a *= _TWO_P600
            b *= _TWO_P600
            k -= 600
    w = a - b
    if w > b:
        t1 = _double(ha, 0)
        t2 = a - t1
        w = math.sqrt(t1 * t1 - (b * (-b) - t2 * (a + t1)))
    else:
        a += a
        y1 = _double(hb, 0)
        y2 = b - y1
        t1 = _double(ha + 0x00100000, 0)
        t2 = a - t1
        w = math.sqrt(t1 * y1 - (w * (-w) - (t1 * y2 + t2 * b)))
    if k:
        return _double(0x3FF00000 + (k << 20), 0) * w  # 2**k * w
    return w
