"""Array kernels of the special functions NumPy lacks (erf, erfc, erfinv, lgamma, digamma,
polygamma), in double precision, vectorised; float32 inputs are computed in float64 and
cast back. ``math`` supplies erf/erfc/lgamma element by element (exact to an ulp, and
there is no SciPy to rely on); digamma and polygamma use the recurrence up to x >= 10
and the asymptotic series there, erfinv refines a rational first guess by Newton steps.
"""
import math

from .._backend import np

_erf = np.frompyfunc(math.erf, 1, 1)
_erfc = np.frompyfunc(math.erfc, 1, 1)


def _lgamma1(v):
    try:
        return math.lgamma(v)
    except ValueError:  # a pole (0, -1, -2, ...): PyTorch gives +inf
        return math.inf


_lgamma = np.frompyfunc(_lgamma1, 1, 1)


def _float64(x):
    return np.asarray(x, dtype=np.float64)


def _back(out, like):
    return np.asarray(out, dtype=np.float64).astype(np.asarray(like).dtype, copy=False)


def erf(x):
    return _back(_erf(_float64(x)), x)


def erfc(x):
    return _back(_erfc(_float64(x)), x)


def lgamma(x):
    return _back(_lgamma(_float64(x)), x)


def erfinv(y):
    a = _float64(y)
    # first guess (Giles, "Approximating the erfinv function"), then Newton on erf
    w = -np.log((1.0 - a) * (1.0 + a))
    small = w < 5.0
    ws = np.where(small, w - 2.5, np.sqrt(np.where(small, 5.0, w)) - 3.0)
    cs = ([2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
           -0.00125372503, -0.00417768164, 0.246640727, 1.50140941],
          [-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
           -0.0076224613, 0.00943887047, 1.00167406, 2.83297682])
    p = np.zeros_like(a)
    for c_small, c_big in zip(*cs):
        p = np.where(small, c_small, c_big) + p * ws
    x = np.abs(p * a)
    b = np.abs(a)
    k = 2.0 / math.sqrt(math.pi)
    tail = b > 0.5  # there Newton on log(erfc): 1 - b is exact, erf(x) near 1 is not
    for _ in range(4):
        fine = np.isfinite(x)
        xf = np.where(fine, x, 0.0)
        ec = np.asarray(_erfc(xf), dtype=np.float64)
        dens = k * np.exp(-xf * xf)
        step = np.where(tail, (np.log(1.0 - b) - np.log(ec)) * ec / dens,
                        (np.asarray(_erf(xf), dtype=np.float64) - b) / dens)
        x = np.where(fine & (step == step), x - step, x)
    x = np.copysign(x, a)
    x = np.where(a == 1.0, np.inf, np.where(a == -1.0, -np.inf, x))
    x = np.where(np.abs(a) > 1.0, np.nan, x)
    return _back(x, y)


# digamma and trigamma follow PyTorch's calc_digamma / calc_trigamma (ATen's Math.h) step
# by step, so that results agree with it to the last bits (its trigamma series is
# truncated: ~1e-9 relative).
_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)


def _digamma_pos(x):
    """calc_digamma for x > 0 (x a float64 array)."""
    acc = np.zeros_like(x)
    z = x.copy()
    while True:
        low = z < 10
        if not low.any():
            break
        acc = acc - np.where(low, 1.0 / np.where(low, z, 1.0), 0.0)
        z = np.where(low, z + 1, z)
    zz = 1.0 / (z * z)
    poly = np.zeros_like(z)
    for c in _DIGAMMA_A:
        poly = poly * zz + c
    y = np.where(z < 1.0e17, zz * poly, 0.0)
    out = acc + np.log(z) - 0.5 / z - y
    return np.where(z == 10, acc + _PSI_10, out)


def digamma(x):
    a = _float64(x)
    neg = a < 0
    fin = np.isfinite(a)
    safe = np.where(fin & (a != 0), a, 1.0)
    refl_arg = np.where(neg, 1.0 - safe, safe)
    out = _digamma_pos(refl_arg)
    r = np.modf(safe)[0]
    out = np.where(neg, out - math.pi / np.tan(math.pi * r), out)
    out = np.where(a == 0, np.copysign(np.inf, -a), out)
    out = np.where(neg & (a == np.trunc(a)), np.nan, out)
    out = np.where(a == np.inf, np.inf, np.where(np.isnan(a) | (a == -np.inf), np.nan, out))
    return _back(out, x)


def trigamma(x):
    a = _float64(x)
    sign = np.where(a < 0.5, -1.0, 1.0)
    sin_pi_x = np.sin(math.pi * a)
    result = np.where(a < 0.5, -(math.pi * math.pi) / (sin_pi_x * sin_pi_x), 0.0)
    z = np.where(a < 0.5, 1 - a, a)
    for _ in range(6):
        result = result + 1 / (z * z)
        z = z + 1
    ixx = 1 / (z * z)
    result = result + (1 + 1 / (2 * z) + ixx * (1. / 6 - ixx * (1. / 30 - ixx * (1. / 42)))) / z
    return _back(sign * result, x)


# Bernoulli numbers B_2k, k = 1..8, for the asymptotic series of polygamma
_B2K = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)


def polygamma(n, x):
    """The n-th derivative of digamma (n >= 1)."""
    if n == 0:
        return digamma(x)
    if n == 1:
        return trigamma(x)
    a = _float64(x)
    fact = math.factorial(n)
    sign = 1.0 if n % 2 else -1.0  # (-1) ** (n + 1)
    z = np.where(np.isfinite(a), a, 20.0)
    acc = np.zeros_like(z)
    # sum_{k} 1 / (z + k) ** (n + 1) until z >= 20, then the asymptotic series
    steps = int(max(0, math.ceil(20.0 - float(np.min(z))))) if z.size else 0
    for _ in range(steps):
        low = z < 20.0
        acc = acc + np.where(low, 1.0 / np.where(low, z, 1.0) ** (n + 1), 0.0)
        z = np.where(low, z + 1.0, z)
    tail = math.factorial(n - 1) / z ** n + fact / (2.0 * z ** (n + 1))
    for k, b in enumerate(_B2K, 1):
        tail = tail + b * math.factorial(2 * k + n - 1) / math.factorial(2 * k) / z ** (2 * k + n)
    out = sign * (fact * acc + tail)
    out = np.where(a == np.inf, 0.0, out)
    out = np.where(np.isnan(a) | (a == -np.inf), np.nan, out)
    pole = (a <= 0) & (a == np.floor(a))
    out = np.where(pole, np.inf if n % 2 else np.nan, out)
    return _back(out, x)
