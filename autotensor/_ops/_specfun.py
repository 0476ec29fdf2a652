"""Array kernels of the special functions NumPy lacks (erf, erfc, erfinv, lgamma, digamma,
polygamma), vectorised; most compute in float64 and cast back. erf and erfc are fdlibm's
rational approximations (Note [Vectorised erf]); ``math`` supplies lgamma element by
element (exact to an ulp, and there is no SciPy to rely on); digamma and polygamma use
the recurrence up to x >= 10 and the asymptotic series there, erfinv refines a rational
first guess by Newton steps.
"""
import functools
import math

from .._backend import np



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


# Note [Vectorised erf]
# erf and erfc are the rational approximations of fdlibm's s_erf.c (Sun Microsystems,
# 1993; the coefficients below are its, "permission to use, copy, modify, and distribute
# this software is freely granted, provided that this notice is preserved"): on |x| in
# [0, 0.84375), [0.84375, 1.25), [1.25, 1/0.35), [1/0.35, 6 or 28) a different ratio of
# polynomials, each evaluated (Horner, in place) on the elements of its interval alone,
# gathered by a boolean mask. fdlibm's error bound is below an ulp in float64, as glibc's
# erf, which PyTorch calls. erf of a float32 array is computed in float64 and rounded
# (Note [Float32 transcendentals] in raw.py: PyTorch's float erf is MKL's, and the
# correctly rounded value is nearer it than these formulas in float32; GELU takes its own
# path, Note [Blockwise GELU]); erfc, whose tails need the relative accuracy, in float64
# with fdlibm's split of x * x.
_ERX = 8.45062911510467529297e-01
_PP = (-2.37630166566501626084e-05, -5.77027029648944159157e-03, -2.84817495755985104766e-02,
       -3.25042107247001499370e-01, 1.28379167095512558561e-01)
_QQ = (-3.96022827877536812320e-06, 1.32494738004321644526e-04, 5.08130628187576562776e-03,
       6.50222499887672944485e-02, 3.97917223959155352819e-01, 1.0)
_PA = (-2.16637559486879084300e-03, 3.54783043256182359371e-02, -1.10894694282396677476e-01,
       3.18346619901161753674e-01, -3.72207876035701323847e-01, 4.14856118683748331666e-01,
       -2.36211856075265944077e-03)
_QA = (1.19844998467991074170e-02, 1.36370839120290507362e-02, 1.26171219808761642112e-01,
       7.18286544141962662868e-02, 5.40397917702171048937e-01, 1.06420880400844228286e-01,
       1.0)
_RA = (-9.81432934416914548592e+00, -8.12874355063065934246e+01, -1.84605092906711035994e+02,
       -1.62396669462573470355e+02, -6.23753324503260060396e+01, -1.05586262253232909814e+01,
       -6.93858572707181764372e-01, -9.86494403484714822705e-03)
_SA = (-6.04244152148580987438e-02, 6.57024977031928170135e+00, 1.08635005541779435134e+02,
       4.29008140027567833386e+02, 6.45387271733267880336e+02, 4.34565877475229228821e+02,
       1.37657754143519042600e+02, 1.96512716674392571292e+01, 1.0)
_RB = (-4.83519191608651397019e+02, -1.02509513161107724954e+03, -6.37566443368389627722e+02,
       -1.60636384855821916062e+02, -1.77579549177547519889e+01, -7.99283237680523006574e-01,
       -9.86494292470009928597e-03)
_SB = (-2.24409524465858183362e+01, 4.74528541206955367215e+02, 2.55305040643316442583e+03,
       3.19985821950859553908e+03, 1.53672958608443695994e+03, 3.25792512996573918826e+02,
       3.03380607434824582924e+01, 1.0)


def _poly(t, coefs):
    """Horner's rule, highest degree first, in place on one fresh array."""
    acc = t * t.dtype.type(coefs[0])
    acc += coefs[1]
    for c in coefs[2:]:
        acc *= t
        acc += c
    return acc


def _ratio(t, p, q):
    num = _poly(t, p)
    num /= _poly(t, q)
    return num


def _erf_small(v):
    """erf(v) for |v| < 0.84375: v + v * P(v^2) / Q(v^2)."""
    r = _ratio(v * v, _PP, _QQ)
    r *= v
    r += v
    return r


def _erf_mid(a):
    """erf(a) - erx for 0.84375 <= a < 1.25: P(a - 1) / Q(a - 1)."""
    return _ratio(a - 1, _PA, _QA)


def _erfc_tail_exponent(a):
    """R/S of the tail (1.25 <= a): erfc(a) = exp(-a*a - 0.5625 + R/S) / a."""
    s = 1 / (a * a)
    near = a < 1 / 0.35
    if near.all():
        return _ratio(s, _RA, _SA)
    out = np.empty_like(a)
    i = np.flatnonzero(near)
    out[i] = _ratio(s.take(i), _RA, _SA)
    i = np.flatnonzero(~near)
    out[i] = _ratio(s.take(i), _RB, _SB)
    return out


# Elements per block of the blockwise kernels: the dozen temporaries of a block stay in
# the L2 cache (a 524,288-element erf runs 1.7 x faster in blocks than whole).
BLOCK = 1 << 15


def blocks(n):
    """Slices covering range(n) in BLOCK-sized pieces."""
    return [slice(i, i + BLOCK) for i in range(0, n, BLOCK)]


def erf(x):
    """erf in float64, rounded once to a float32 or half x (PyTorch's float erf is MKL's
    vsErf: that differs on 1.1% of inputs, fdlibm's formulas in float32 on 2.5%)."""
    x = np.asarray(x)
    if x.dtype != np.float64:
        return _back(erf(_float64(x)), x)
    if x.size <= BLOCK:
        return _erf(x)
    flat = x.ravel()
    out = np.empty_like(flat)
    for b in blocks(flat.size):
        out[b] = _erf(flat[b])
    return out.reshape(x.shape)


def _erf(x):
    """erf in x's dtype. The small-|x| formula runs on every element (gathering by a
    random mask costs more than the arithmetic it saves); the elements past 0.84375 are
    then gathered by index, computed by their interval's formula and put back."""
    flat = x.ravel()
    with np.errstate(all="ignore"):  # the small formula's overflow past its interval
        out = _erf_small(flat)
    a = np.abs(flat)
    big = np.flatnonzero(~(a < 0.84375))  # NaN included: it stays NaN below
    if big.size:
        b = a.take(big)
        r = np.empty_like(b)
        mid = b < 1.25
        i = np.flatnonzero(mid)
        r[i] = _erf_mid(b.take(i)) + _ERX
        i = np.flatnonzero(~mid)
        t = np.minimum(b.take(i), 6)  # erf is 1 to double precision from 6 on
        e = _erfc_tail_exponent(t)
        e -= t * t
        e -= 0.5625
        np.exp(e, out=e)
        e /= t
        r[i] = 1 - e
        out[big] = np.copysign(r, flat.take(big), out=r)
    return out.reshape(x.shape)


# Note [Float32 normal CDF as a logistic]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# GELU needs Phi(x) = (1 + erf(x / sqrt 2)) / 2 of float32 activations in as few NumPy
# passes as it can (Note [Blockwise GELU]). Phi is a logistic of an odd function:
# Phi(x) = 1 / (1 + exp(x * S(x * x))), S(z) = -2 atanh(erf(x / sqrt 2)) / x, and S is
# smooth in z = x * x, so a polynomial of degree 6 fits it. Its coefficients (below,
# float32) minimise the largest error of Phi itself (the fit's error is scaled by
# Phi (1 - Phi) x, which vanishes in the tails: the fit need only be good for |x| < ~5):
# 2.9e-8, under half an ulp of 0.5. Evaluated in float32 (Horner, one exp, one add): Phi
# within ~1.5e-7 |x| of the exact value (dense grid on [-8, 8]), where PyTorch's float32
# GELU (its vectorised erf) is within 3.6e-7 |x|; 17 passes against 26 for a ratio of
# two polynomials (Eigen's erf) and its clamp. S is negative for every z >= 0 and its
# leading coefficient too, so past |x| ~ 6 the exponent only grows: exp overflows to inf
# (Phi = 0) for x < 0 and underflows to 0 (Phi = 1) for x > 0, inf included, with no
# clamp; float64 keeps fdlibm's erf.
_PHI_LOGIT = (-3.5124125830066077e-09, 2.645290066993766e-07, -7.929515049909241e-06,
              0.00011061252007493749, 6.518967711599544e-05, -0.07266616821289062,
              -1.5957698822021484)


def normal_cdf_reciprocal(x):
    """(1 + exp(x * S(x * x)) = 1 / Phi(x), x * x) for a float32 array x, in float32
    (Note [Float32 normal CDF as a logistic]); run it under np.errstate(over="ignore")."""
    z = x * x
    d = _poly(z, _PHI_LOGIT)
    d *= x
    np.exp(d, out=d)
    d += 1
    return d, z


def erfc(x):
    x = np.asarray(x)
    v = _float64(x).ravel()
    a = np.abs(v)
    out = np.where(v > 0, 0.0, 2.0)  # |x| >= 28 (and the +-inf limits)
    out[np.isnan(v)] = np.nan
    m = a < 0.84375
    vs = v[m]
    y = _erf_small(vs) - vs  # x * P/Q
    out[m] = np.where(vs < 0.25, 1 - (vs + y), 0.5 - (vs - 0.5 + y))
    m = (a >= 0.84375) & (a < 1.25)
    d = _erf_mid(a[m])
    out[m] = np.where(v[m] > 0, (1 - _ERX) - d, 1 + (_ERX + d))
    m = (a >= 1.25) & (a < 28)
    t = a[m]
    # z: t with its low 32 bits cleared, so that z * z is exact (fdlibm)
    z = (t.view(np.uint64) & np.uint64(0xFFFFFFFF00000000)).view(np.float64)
    with np.errstate(under="ignore"):
        r = np.exp(-z * z - 0.5625) * np.exp((z - t) * (z + t) + _erfc_tail_exponent(t)) / t
    out[m] = np.where(v[m] > 0, r, 2 - r)
    return _back(out.reshape(x.shape), x)


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
        ec = erfc(xf)
        dens = k * np.exp(-xf * xf)
        step = np.where(tail, (np.log(1.0 - b) - np.log(ec)) * ec / dens,
                        (erf(xf) - b) / dens)
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


# Note [ndtri]: Cephes' ndtri as PyTorch's calc_ndtri (ATen's Math.h), in the input's own
# float type: a rational function of y - 1/2 in the middle, of 1/sqrt(-2 log y) in the
# tails. (sqrt(2) erfinv(2y - 1) loses y below 1e-16 in the rounding of 2y - 1: -inf.)
_NDTRI_P0 = (-5.99633501014107895267E1, 9.80010754185999661536E1, -5.66762857469070293439E1,
             1.39312609387279679503E1, -1.23916583867381258016E0)
_NDTRI_Q0 = (1.0, 1.95448858338141759834E0, 4.67627912898881538453E0, 8.63602421390890590575E1,
             -2.25462687854119370527E2, 2.00260212380060660359E2, -8.20372256168333339912E1,
             1.59056225126211695515E1, -1.18331621121330003142E0)
_NDTRI_P1 = (4.05544892305962419923E0, 3.15251094599893866154E1, 5.71628192246421288162E1,
             4.40805073893200834700E1, 1.46849561928858024014E1, 2.18663306850790267539E0,
             -1.40256079171354495875E-1, -3.50424626827848203418E-2, -8.57456785154685413611E-4)
_NDTRI_Q1 = (1.0, 1.57799883256466749731E1, 4.53907635128879210584E1, 4.13172038254672030440E1,
             1.50425385692907503408E1, 2.50464946208309415979E0, -1.42182922854787788574E-1,
             -3.80806407691578277194E-2, -9.33259480895457427372E-4)
_NDTRI_P2 = (3.23774891776946035970E0, 6.91522889068984211695E0, 3.93881025292474443415E0,
             1.33303460815807542389E0, 2.01485389549179081538E-1, 1.23716634817820021358E-2,
             3.01581553508235416007E-4, 2.65806974686737550832E-6, 6.23974539184983293730E-9)
_NDTRI_Q2 = (1.0, 6.02427039364742014255E0, 3.67983563856160859403E0, 1.37702099489081330271E0,
             2.16236993594496635890E-1, 1.34204006088543189037E-2, 3.28014464682127739104E-4,
             2.89247864745380683936E-6, 6.79019408009981274425E-9)


def ndtri(y0):
    """The inverse of the standard normal CDF (Note [ndtri])."""
    y0 = np.asarray(y0)
    T = y0.dtype.type
    exp_m2 = T(0.13533528323661269189)
    upper = y0 > 1 - exp_m2
    y = np.where(upper, 1 - y0, y0).astype(y0.dtype, copy=False)
    out = np.empty_like(y)
    mid = y > exp_m2
    if mid.any():
        ym = y[mid] - T(0.5)
        y2 = ym * ym
        out[mid] = (ym + ym * (y2 * _poly(y2, _NDTRI_P0) / _poly(y2, _NDTRI_Q0))) * T(
            2.50662827463100050242E0)
    tail = ~mid
    if tail.any():
        with np.errstate(divide="ignore", invalid="ignore"):
            x = np.sqrt(T(-2.0) * np.log(y[tail]))
            x0 = x - np.log(x) / x
            z = 1 / x
            x1 = np.where(x < 8, z * _poly(z, _NDTRI_P1) / _poly(z, _NDTRI_Q1),
                          z * _poly(z, _NDTRI_P2) / _poly(z, _NDTRI_Q2))
        r = x0 - x1
        out[tail] = np.where(upper[tail], r, -r)
    out = np.where(y0 == 0, -np.inf, np.where(y0 == 1, np.inf, out))
    return np.where((y0 < 0) | (y0 > 1), np.nan, out).astype(y0.dtype, copy=False)


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


def _digamma_float32(x):
    """PyTorch's calc_digamma<float>, operation for operation in float32 (the recurrence
    up to 10, the asymptotic series, the reflection through tan in double), with glibc's
    logf (Note [glibc's logf]): float64 rounded once differed on 61% of inputs, by up to
    10^4 ulps where the recurrence cancels."""
    f = np.float32
    neg = x < 0
    with np.errstate(all="ignore"):
        pi_over_tan = (math.pi / np.tan(math.pi * np.modf(x.astype(np.float64))[0])).astype(f)
        z = np.where(neg, f(1) - x, x)
        z = np.where(np.isfinite(z) & (z != 0), z, f(1)).astype(f)
        result = np.zeros_like(z)
        low = np.flatnonzero(z < 10)
        while low.size:
            zl = z[low]
            result[low] -= f(1) / zl
            z[low] = zl + f(1)
            low = low[z[low] < 10]
        zz = f(1) / (z * z)
        poly = np.zeros_like(z)
        for c in _DIGAMMA_A:
            poly *= zz
            poly += f(c)
        out = result + logf(z)
        out -= f(0.5) / z
        out -= np.where(z < f(1e17), zz * poly, f(0))
        out = np.where(z == 10, result + f(_PSI_10), out)
        out = np.where(neg, out - pi_over_tan, out)
    out = np.where(x == 0, np.copysign(f(np.inf), -x), out)
    out = np.where(neg & (x == np.trunc(x)), f(np.nan), out)
    out = np.where(x == np.inf, x, np.where(np.isnan(x), x, out))
    return out.astype(f, copy=False)


def digamma(x):
    x = np.asarray(x)
    if x.dtype == np.float32 or (x.dtype.itemsize == 2 and x.dtype.kind in "fV"):
        # (float16/bfloat16 in float, PyTorch's opmath)
        out = _digamma_float32(x.reshape(-1).astype(np.float32))
        return out.reshape(x.shape).astype(x.dtype, copy=False)
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


# Note [glibc's expf]
# PyTorch's scalar float kernels (calc_i0 and its family) call std::exp(float), glibc's
# expf: 2^(k/32) from a table times a cubic in the remainder, in double, rounded once to
# float. It is not correctly rounded (it differs from exp in double rounded to float on
# ~0.06% of float32 inputs), so where a float32 result must be PyTorch's bit for bit, it
# is computed here as glibc does (equal to libm's expf on 400,000 points in [-104, 89]).
_EXPF_N = 32
_EXPF_POLY = tuple(float.fromhex(c) / _EXPF_N ** k for c, k in (
    ("0x1.c6af84b912394p-5", 3), ("0x1.ebfce50fac4f3p-3", 2), ("0x1.62e42ff0c52d6p-1", 1)))
_EXPF_INVLN2N = float.fromhex("0x1.71547652b82fep+0") * _EXPF_N
_EXPF_RANGE = (-float.fromhex("0x1.9fe368p6"), float.fromhex("0x1.62e42ep6"))
_expf_table = []


def expf(x):
    """glibc's expf of a float32 array (Note [glibc's expf])."""
    if not _expf_table:  # 2^(i/32) rounded to double, less i/32 in the exponent field
        from decimal import Decimal, localcontext
        with localcontext() as ctx:
            ctx.prec = 40
            _expf_table.append(np.array([
                int(np.array(float(Decimal(2) ** (Decimal(i) / _EXPF_N))).view(np.uint64))
                - (i << 47) for i in range(_EXPF_N)], np.uint64))
    xd = np.asarray(x, np.float32).astype(np.float64)
    c0, c1, c2 = _EXPF_POLY
    with np.errstate(all="ignore"):
        z = _EXPF_INVLN2N * xd
        kd = np.rint(z)
        r = z - kd
        k = np.where(np.isfinite(kd), kd, 0).astype(np.int64)
        s = (_expf_table[0][k & 31] + (k.astype(np.uint64) << np.uint64(47))).view(np.float64)
        y = ((c0 * r + c1) * (r * r) + (c2 * r + 1)) * s
        lo, hi = _EXPF_RANGE  # (outside: 0, a subnormal, inf or NaN, as exp gives them)
        return np.where((xd > lo) & (xd < hi), y, np.exp(xd)).astype(np.float32)


# Note [glibc's logf]
# ~~~~~~~~~~~~~~~~~~~
# std::log(float) in PyTorch's scalar float kernels (calc_digamma) is glibc's logf: x =
# 2^k z with z in [0.7, 1.4), 1/c and log(c) from a 16-entry table for the subinterval of
# z, then log1p(z/c - 1) by a cubic, all in double and rounded once to float. Not
# correctly rounded (another float than log in double rounded on ~0.05% of inputs), so
# ported: glibc's e_logf.c and e_logf_data.c (Szabolcs Nagy, Arm, MIT licensed), equal
# to libm's logf on the inputs of tests/test_float32_ulp.py.
_LOGF_TABLE = np.array([(float.fromhex(a), float.fromhex(b)) for a, b in (
    ("0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2"),
    ("0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2"),
    ("0x1.49539f0f010bp+0", "-0x1.01eae7f513a67p-2"),
    ("0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3"),
    ("0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3"),
    ("0x1.25e227b0b8eap+0", "-0x1.1aa2bc79c81p-3"),
    ("0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4"),
    ("0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4"),
    ("0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5"),
    ("0x1p+0", "0x0p+0"),
    ("0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5"),
    ("0x1.ca4b31f026aap-1", "0x1.c5e53aa362eb4p-4"),
    ("0x1.b2036576afce6p-1", "0x1.526e57720db08p-3"),
    ("0x1.9c2d163a1aa2dp-1", "0x1.bc2860d22477p-3"),
    ("0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2"),
    ("0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2"))])
_LOGF_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
_LOGF_POLY = tuple(float.fromhex(c) for c in (
    "-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2"))


def logf(x):
    """glibc's logf of a float32 array (Note [glibc's logf])."""
    x = np.asarray(x, np.float32)
    if not x.ndim:
        return logf(x.reshape(1)).reshape(())
    ix = x.view(np.uint32).astype(np.int64)
    sub = (ix > 0) & (ix < 0x00800000)  # subnormal: scaled by 2^23 first
    if sub.any():
        ix = np.where(sub, (x * np.float32(2.0 ** 23)).view(np.uint32).astype(np.int64)
                      - (23 << 23), ix)
    tmp = ix - 0x3F330000
    i = (tmp >> 19) % 16
    k = tmp >> 23
    z = (ix - (tmp & (0x1FF << 23))).astype(np.uint32).view(np.float32).astype(np.float64)
    invc, logc = _LOGF_TABLE[i, 0], _LOGF_TABLE[i, 1]
    r = z * invc - 1
    y0 = logc + k * _LOGF_LN2
    r2 = r * r
    a0, a1, a2 = _LOGF_POLY
    y = a1 * r + a2
    y = a0 * r2 + y
    y = y * r2 + (y0 + r)
    special = ~((x > 0) & (x < np.inf)) | (ix == 0x3F800000)
    out = y.astype(np.float32)
    if special.any():  # (0, negatives, inf, NaN and 1: libm's values)
        out[special] = np.log(x[special].astype(np.float64)).astype(np.float32)
    return out


# Note [glibc's erfcf and log1pf]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# calc_log_ndtr's float kernel (Note [Faddeeva's erfcx] in _erfcx.py) calls std::erfc and
# std::log1p of a float: glibc's erfcf and log1pf, Sun's fdlibm formulas converted to float
# (s_erff.c, s_log1pf.c; Sun Microsystems 1993, "permission to use, copy, modify, and
# distribute this software is freely granted, provided that this notice is preserved";
# float conversion by Ian Lance Taylor, Cygnus Support) evaluated in float arithmetic, with
# float coefficients (their bit patterns below, as in the sources). Neither is correctly
# rounded: with erfc and log1p in float64, rounded, 16% of log_ndtr's values from x = -1 on
# differed from PyTorch's (erfcf alone ported: 0.7%), so both are ported operation by
# operation in float32: equal to libm's (glibc 2.36) on a million inputs each (390,000 in
# tests/test_fuzz_erf_stop33.py). glibc 2.41 replaced both by CORE-MATH's correctly
# rounded ones: on such a system these ports stop being PyTorch's.
def _words(*bits):
    return tuple(np.array(bits, np.uint32).view(np.float32))


_ERXF = _words(0x3F58560B)[0]  # (float) erf(1) - its low bits
_PPF = _words(0xB7C756B1, 0xBBBD1489, 0xBCE9528F, 0xBEA66BEB, 0x3E0375D4)
_QQF = _words(0xB684E21A, 0x390AEE49, 0x3BA68116, 0x3D852A63, 0x3ECBBBCE, 0x3F800000)
_PAF = _words(0xBB0DF9C0, 0x3D1151B3, 0xBDE31CC2, 0x3EA2FE54, 0xBEBE9208, 0x3ED46805,
              0xBB1ACDC6)
_QAF = _words(0x3C445AA3, 0x3C5F6E13, 0x3E013307, 0x3D931AE7, 0x3F0A5785, 0x3DD9F331,
              0x3F800000)
_RAF = _words(0xC11D077E, 0xC2A2932B, 0xC3389AE7, 0xC322658C, 0xC2798057, 0xC128F022,
              0xBF31A0B7, 0xBC21A093)
_SAF = _words(0xBD777F97, 0x40D23F7C, 0x42D9451F, 0x43D6810B, 0x442158C9, 0x43D9486F,
              0x4309A863, 0x419D35CE, 0x3F800000)
_RBF = _words(0xC3F1C275, 0xC480230B, 0xC41F6441, 0xC320A2EA, 0xC18E104B, 0xBF4C9DD4,
              0xBC21A092)
_SBF = _words(0xC1B38712, 0x43ED43A7, 0x451F90CE, 0x4547FDBB, 0x44C01759, 0x43A2E571,
              0x41F2B459, 0x3F800000)


def erfcf(x):
    """glibc's erfcf of a float32 array (Note [glibc's erfcf and log1pf])."""
    x = np.asarray(x, np.float32)
    flat = x.ravel()
    hx = flat.view(np.int32)
    ix = hx & 0x7FFFFFFF
    f1, half = np.float32(1), np.float32(0.5)
    out = np.where(hx < 0, np.float32(2), np.float32(0))  # |x| >= 28 and +-inf
    out[np.isnan(flat)] = np.nan
    with np.errstate(all="ignore"):
        m = ix < 0x3F580000  # |x| < 0.84375
        v = flat[m]
        y = _ratio(v * v, _PPF, _QQF)
        out[m] = np.where(ix[m] < 0x23800000, f1 - v, np.where(  # (|x| < 2^-56)
            hx[m] < 0x3E800000, f1 - (v + v * y), half - (v * y + (v - half))))
        m = (ix >= 0x3F580000) & (ix < 0x3FA00000)  # |x| < 1.25
        d = _ratio(np.abs(flat[m]) - f1, _PAF, _QAF)
        out[m] = np.where(hx[m] >= 0, (f1 - _ERXF) - d, f1 + (_ERXF + d))
        m = (ix >= 0x3FA00000) & (ix < 0x41E00000)  # |x| < 28
        t, im, hm = np.abs(flat[m]), ix[m], hx[m]
        s = f1 / (t * t)
        near = im < 0x4036DB6D  # |x| < 1/0.35
        rs = np.where(near, _ratio(s, _RAF, _SAF), _ratio(s, _RBF, _SBF))
        z = (im & np.int32(-0x2000)).view(np.float32)  # t with its low 13 bits cleared
        r = expf(-z * z - np.float32(0.5625)) * expf((z - t) * (z + t) + rs)
        out[m] = np.where(hm > 0, r / t, np.where(im >= 0x40C00000, np.float32(2),
                                                  np.float32(2) - r / t))
    return out.reshape(x.shape)


_LN2F = _words(0x3F317180, 0x3717F7D1)  # ln 2 = hi + lo
_LPF = _words(0x3E178897, 0x3E1CD04F, 0x3E3A3325, 0x3E638E29, 0x3E924925, 0x3ECCCCCD,
              0x3F2AAAAB)


def log1pf(x):
    """glibc's log1pf of a float32 array (Note [glibc's erfcf and log1pf]): log(1 + x) =
    k ln 2 + log1p(f), 1 + x = 2^k (1 + f) with sqrt(2)/2 <= 1 + f < sqrt(2) and a
    correction c for the rounding of 1 + x; log1p(f) = f - (hfsq - s (hfsq + R(s^2))), s =
    f / (2 + f). Every element takes every path, and np.where picks its own."""
    x = np.asarray(x, np.float32)
    hx = x.view(np.int32)
    ax = hx & 0x7FFFFFFF
    f1 = np.float32(1)
    with np.errstate(all="ignore"):
        # -0.2929 < x < 0.41422: f = x itself (k = 0)
        direct = (hx < 0x3ED413D7) & ((hx > 0) | (hx <= np.int32(-0x416A09E1)))
        u = f1 + x
        huge = hx >= 0x5A000000  # 1 + x is x: no correction
        hu = np.where(huge, x, u).view(np.int32)
        k = (hu >> 23) - 127
        c = np.where(huge | direct, np.float32(0),
                     np.where(k > 0, f1 - (u - x), x - (u - f1)) / u)
        hu = hu & 0x007FFFFF
        low = hu < 0x3504F7  # normalise 1 + x to [1, sqrt 2), else its half to [sqrt2/2, 1)
        k = np.where(direct, 0, np.where(low, k, k + 1))
        f = np.where(direct, x, np.where(low, hu | 0x3F800000, hu | 0x3F000000).view(
            np.float32) - f1)
        hu = np.where(direct, 1, np.where(low, hu, (0x00800000 - hu) >> 2))
        kf = k.astype(np.float32)
        hfsq = np.float32(0.5) * f * f
        klo = kf * _LN2F[1] + c
        # |f| < 2^-20: two terms (f == 0: k ln 2 + c)
        r0 = hfsq * (f1 - np.float32(0.66666666666666666) * f)
        tiny = np.where(k == 0, f - r0, kf * _LN2F[0] - ((r0 - klo) - f))
        tiny = np.where(f == 0, np.where(k == 0, np.float32(0), kf * _LN2F[0] + (
            c + kf * _LN2F[1])), tiny)
        s = f / (np.float32(2) + f)
        z = s * s
        r = _poly(z, _LPF) * z
        out = np.where(k == 0, f - (hfsq - s * (hfsq + r)),
                       kf * _LN2F[0] - ((hfsq - (s * (hfsq + r) + klo)) - f))
        out = np.where(hu == 0, tiny, out)
        out = np.where(ax < 0x31000000, np.where(  # |x| < 2^-29 (2^-54: x itself)
            ax < 0x24800000, x, x - x * x * np.float32(0.5)), out)
        out = np.where(hx >= 0x7F800000, x + x, out)  # +inf, NaN
        out = np.where((hx < 0x3ED413D7) & (ax >= 0x3F800000),  # x <= -1 (and -inf)
                       np.where(x == -1, -np.inf, np.nan), out)
    return np.asarray(out, np.float32)


# Note [SLEEF's expf]
# ~~~~~~~~~~~~~~~~~~~
# The kernels that call exp on vectors themselves (sigmoid's SIMD loop: Vectorized<float>
# ::exp) get SLEEF's expf (Sleef_expf16_u10 on AVX-512; the same algorithm on AVX2): q =
# rint(x / ln 2), the remainder s = x - q ln 2 in two steps, a degree-6 polynomial in s,
# then 2^q as two multiplications (so subnormal results round once, at the second). Each
# step is a fused multiply-add there; here a float64 product of two floats (exact) plus
# the third, rounded to float32: the fused result but for a float64 sum that lands on a
# float32 tie (none among the 264,000 inputs of tests/test_float32_ulp.py). It differs
# from the correctly rounded exp on ~9% of inputs, and sigmoid's 1 / (1 + exp(-x)) keeps
# that on 4% of them: ported, sigmoid is PyTorch's bit for bit.
_SLEEF_R_LN2F = np.float32(1.442695040888963407359924681001892137426645954152985934135449406931)
_SLEEF_L2UF, _SLEEF_L2LF = float(np.float32(0.693145751953125)), float(np.float32(
    1.428606765330187045e-06))
_SLEEF_EXPF_POLY = tuple(float(np.float32(c)) for c in (
    0.000198527617612853646278381, 0.00139304355252534151077271, 0.00833336077630519866943359,
    0.0416664853692054748535156, 0.166666671633720397949219, 0.5))


def _fma32(a, b, c):
    """a * b + c for float64 arrays holding float32 values: rounded once to float32 (the
    product is exact in float64), returned as float64 again."""
    r = a * b
    r += c
    return r.astype(np.float32).astype(np.float64)


def _pow2i(q):
    """2.0 ** q as float32, for int32 q in the normal range (SLEEF's vpow2i)."""
    return ((q + 0x7F) << 23).astype(np.int32).view(np.float32)


def torch_expf(x, simd):
    """PyTorch's float exp of a float32 array in a kernel of its own (sigmoid): SLEEF's
    where ``simd`` (simd_positions in raw.py; None: nowhere), glibc's elsewhere."""
    x = np.asarray(x, np.float32)
    if simd is None:
        return np.asarray(expf(x))
    out = sleef_expf(x)
    if not simd.all():
        rest = ~simd
        out[rest] = expf(x[rest])
    return out


def torch_logf(x, simd):
    """PyTorch's float log of a float32 array in a kernel of its own (logit): glibc's
    logf off ``simd`` (its scalar loop: Note [glibc's logf]), SLEEF's where ``simd``."""
    x = np.asarray(x, np.float32)
    out = np.asarray(logf(x))
    if simd is not None:
        out[simd] = sleef_logf(x[simd])
    return out


# Note [SLEEF's logf]
# ~~~~~~~~~~~~~~~~~~~
# Vectorized<float>::log (log_softmax's log of the row sums, logit's SIMD loop) is SLEEF's
# Sleef_logf16_u10 (xlogf_u1): x = m 2^e with m in [0.75, 1.5) (AVX-512's getexp and
# getmant), then 2 atanh((m - 1) / (m + 1)) + e ln 2 in double-float arithmetic (a float
# and its error term, SLEEF's df.h with fused multiply-adds), a cubic for the tail. Ported
# step for step, the FMAs emulated in float64 as in Note [SLEEF's expf]: equal to
# PyTorch's on the 20,000 log-sums of tests/test_float32_ulp.py (the correctly rounded log
# differs on 0.7% of them).
def _f32(v):
    return v.astype(np.float32)


def _fma_f(a, b, c):
    """float32 a * b + c, fused (float64 product exact, one rounding of the sum)."""
    return _f32(a.astype(np.float64) * b + c)


def _df_add2(x, y):
    """SLEEF's dfadd2_vf2_vf_vf: x + y as a float and its rounding error."""
    hi = x + y
    v = hi - x
    return hi, (x - (hi - v)) + (y - v)


def sleef_logf(x):
    """SLEEF's logf (u10) of a float32 array, bit for bit (Note [SLEEF's logf])."""
    d = np.asarray(x, np.float32).reshape(-1)
    f = np.float32
    with np.errstate(all="ignore"):
        p = d * f(1.0 / 0.75)
        e = _f32(np.frexp(p)[1] - 1)
        e[np.isinf(p)] = 128
        fr = np.frexp(d)[0].astype(f)
        m = np.where(fr < 0.75, fr * f(2), fr).astype(f)
        l2h, l2l = f(0.69314718246459960938), f(-1.904654323148236017e-09)
        sx = l2h * e  # dfmul_vf2_vf2_vf((l2h, l2l), e)
        sy = _fma_f(l2l, e, _f32(l2h.astype(np.float64) * e - sx))
        nx, ny = _df_add2(np.full_like(m, -1), m)
        dx, dy = _df_add2(np.full_like(m, 1), m)
        t = f(1) / dx  # dfdiv_vf2_vf2_vf2, the FMA variant
        qx = nx * t
        u = _f32(t.astype(np.float64) * nx - qx)
        qy = _f32(_f32(1 - dx.astype(np.float64) * t).astype(np.float64) - dy.astype(
            np.float64) * t)
        qy = _fma_f(qx, qy, _fma_f(ny, t, u))
        x2 = qx * qx
        tt = _fma_f(np.full_like(x2, f(0.3027294874)), x2, f(0.3996108174))
        tt = _fma_f(tt, x2, f(0.6666694880))
        ax, ay = qx * f(2), qy * f(2)  # dfadd_vf2_vf2_vf2(s, dfscale(x, 2))
        rx = sx + ax
        ry = (((sx - rx) + ax) + sy) + ay
        w = (x2 * qx) * tt  # dfadd_vf2_vf2_vf(s, x2 * x * t)
        hi = rx + w
        r = hi + (((rx - hi) + w) + ry)
        r[d == 0] = -np.inf
        r[d == np.inf] = np.inf
        r[(d < 0) | np.isnan(d)] = np.nan
    return r.reshape(np.shape(x))


_SLEEF_EXP2F_POLY = tuple(float(np.float32(c)) for c in (
    0.1535920892e-3, 0.1339262701e-2, 0.9618384764e-2, 0.5550347269e-1, 0.2402264476e+0,
    0.6931471825e+0, 1.0))


def sleef_exp2f(x):
    """SLEEF's exp2f (Sleef_exp2f16_u10) of a float32 array, as sleef_expf: q = rint(x),
    a degree-6 polynomial in x - q by fused multiply-adds, then 2^q."""
    d = np.asarray(x, np.float32).reshape(-1)
    q = np.rint(d)
    q[~(np.abs(q) < 256)] = 0  # (inf, NaN, |x| >= 256: set at the end)
    s = (d - q).astype(np.float64)  # (exact)
    c0, *cs = _SLEEF_EXP2F_POLY
    u = np.full_like(s, c0)
    for c in cs:
        u = _fma32(u, s, c)
    u = u.astype(np.float32)
    qi = q.astype(np.int32)
    h = qi >> 1
    u *= _pow2i(h)
    u *= _pow2i(qi - h)
    u[d >= 128] = np.inf
    u[d < -150] = 0
    return u.reshape(np.shape(x))


def sleef_expf(x):
    """SLEEF's expf of a float32 array, bit for bit (Note [SLEEF's expf]); blockwise, so
    that its float64 temporaries stay in cache."""
    x = np.asarray(x, np.float32)
    if x.size <= BLOCK:
        return _sleef_expf(x.reshape(-1)).reshape(x.shape)
    flat = x.ravel()
    out = np.empty_like(flat)
    for b in blocks(flat.size):
        out[b] = _sleef_expf(flat[b])
    return out.reshape(x.shape)


def _sleef_expf(d):
    q = np.rint(d * _SLEEF_R_LN2F)
    q[~(np.abs(q) < 256)] = 0  # (inf, NaN, |x| > 177: the result is set at the end)
    qd = q.astype(np.float64)
    s = _fma32(qd, -_SLEEF_L2UF, d.astype(np.float64))
    s = _fma32(qd, -_SLEEF_L2LF, s)
    c0, *cs = _SLEEF_EXPF_POLY
    u = np.full_like(s, c0)
    for c in cs:
        u = _fma32(u, s, c)
    u = _fma32((s * s).astype(np.float32).astype(np.float64), u, s).astype(np.float32)
    u += np.float32(1)
    qi = q.astype(np.int32)
    h = qi >> 1
    u *= _pow2i(h)
    u *= _pow2i(qi - h)
    u[d < -104] = 0
    u[d > 100] = np.inf
    return u


# Note [SLEEF's exp]
# ~~~~~~~~~~~~~~~~~~
# Vectorized<double>::exp (the softmax kernels' exp of x - max, log_softmax's backward) is
# SLEEF's Sleef_expd8_u10 (xexp): q = rint(x / ln 2), s = x - q ln 2 in two steps (q
# L2U exact), a degree-10 polynomial in s by Estrin's scheme (s^2, s^4, s^8), then three
# Horner steps to 1 + s + ..., and 2^q as two multiplications; each multiply-add fused.
# torch.exp is not it (MKL's vdExp: 5% of values differ from SLEEF's), nor NumPy's exp
# (7%) or glibc's (0.2%); the values are read off log_softmax's backward kernel
# (grad - exp(output) * sum(grad) with a one-hot grad). Ported with the FMAs that can
# change the result emulated exactly (Dekker's product, the sum by Fast2Sum: the addend
# is the larger): equal to PyTorch's on 3.1 million inputs, N(0, 1) to N(0, 300^2) and
# the special values. The others (the polynomial's high-order steps, below 1e-6 ulp of
# the result) are NumPy's two roundings: 0 differences among those inputs either way.
_SLEEF_R_LN2 = 1.442695040888963407359924681001892137426645954152985934135449406931
_SLEEF_L2U = .69314718055966295651160180568695068359375  # (41 bits: q * L2U exact)
_SLEEF_L2L = .28235290563031577122588448175013436025525412068e-12
_SLEEF_EXP_POLY = (0.2081276378237164457e-8, 0.2511210703042288022e-7,
                   0.2755762628169491192e-6, 0.2755723402025388239e-5,
                   0.2480158687479686264e-4, 0.1984126989855865850e-3,
                   0.1388888888914497797e-2, 0.8333333333314938210e-2,
                   0.4166666666666602598e-1, 0.1666666666666669072e+0)


def _fma_big_c(a, a_split, b, c, b_split=None):
    """a * b + c rounded once, for float64 arrays a (its Dekker split given), b and c at
    least as large in exponent as the product (so Fast2Sum adds them exactly)."""
    p = a * b
    ah, al = a_split
    bh, bl = (b_split if b_split is not None else _split(b) if b.__class__ is np.ndarray
              else _SPLIT_CONST[b])
    err = ah * bh
    err -= p
    t = ah * bl
    err += t
    np.multiply(al, bh, out=t)
    err += t
    np.multiply(al, bl, out=t)
    err += t  # a * b = p + err exactly
    s = p + c
    c = c - s
    c += p  # p + c = s + c' exactly
    c += err
    s += c
    return s


_SPLIT_CONST = {}


def sleef_exp(x):
    """SLEEF's exp (u10) of a float64 array, bit for bit (Note [SLEEF's exp]);
    blockwise, so that its temporaries stay in cache."""
    x = np.asarray(x, np.float64)
    if x.size <= BLOCK:
        return _sleef_exp(x.reshape(-1)).reshape(x.shape)
    flat = x.ravel()
    out = np.empty_like(flat)
    for b in blocks(flat.size):
        out[b] = _sleef_exp(flat[b])
    return out.reshape(x.shape)


def _sleef_exp(d):
    c9, c8, c7, c6, c5, c4, c3, c2, c1, c0 = _SLEEF_EXP_POLY
    if not _SPLIT_CONST:
        _SPLIT_CONST.update((c, _split(c)) for c in (c1,))
    with np.errstate(invalid="ignore", over="ignore"):
        q = np.rint(d * _SLEEF_R_LN2)
        special = d.size and not -1000 <= d.min() <= d.max() <= 709  # (or NaN)
        if special:
            np.copyto(q, 0.0, where=~(np.abs(q) < 4096))  # (the result is set at the end)
        s = q * -_SLEEF_L2U
        s += d
        t = q * -_SLEEF_L2L
        s += t
        ss = _split(s)
        s2 = s * s
        np.multiply(s2, s2, out=t)  # s^4
        hi = s * c7
        hi += c6
        hi *= s2
        lo = s * c5
        lo += c4
        hi += lo
        hi *= t
        np.multiply(s, c3, out=lo)
        lo += c2
        lo = _fma_big_c(lo, _split(lo), s2, _fma_big_c(s, ss, c1, np.full_like(s, c0)))
        hi += lo
        t *= t  # s^8
        u = s * c9
        u += c8
        u *= t
        u += hi
        for c in (0.5, 1.0, 1.0):
            u = _fma_big_c(u, _split(u), s, np.full_like(s, c))
        qi = q.astype(np.int64)
        h = qi >> 1
        u *= ((h + 1023) << 52).view(np.float64)
        qi -= h
        qi += 1023
        qi <<= 52
        u *= qi.view(np.float64)
        if special:
            np.copyto(u, d, where=np.isnan(d))
            np.copyto(u, np.inf, where=d > 709.78271114955742909217217426)
            np.copyto(u, 0.0, where=d < -1000)
    return u


# Note [SLEEF's log]
# ~~~~~~~~~~~~~~~~~~
# Vectorized<double>::log (log_softmax's log of the row sums) is SLEEF's Sleef_logd8_u10
# (xlog_u1, AVX-512: getexp and getmant give x = m 2^e, m in [0.75, 1.5)): 2 atanh((m -
# 1) / (m + 1)) + e ln 2 in double-double arithmetic (dd.h, fused multiply-adds), a
# degree-6 polynomial in the square of the quotient for the tail. Ported step for step,
# the FMAs that can move the result emulated (_fma_plain), the others NumPy's two
# roundings (0 differences either way); torch.log is MKL's, so the values are read off
# log_softmax (-out[0] of a row [0, ..., y] is log(sum)): equal on 180,000 row sums in
# [1, 200]; NumPy's log differs on 2.1% of them.
_SLEEF_LOG_POLY = (0.1532076988502701353e+0, 0.1525629051003428716e+0,
                   0.1818605932937785996e+0, 0.2222214519839380009e+0,
                   0.2857142932794299317e+0, 0.3999999999635251990e+0,
                   0.6666666666667333541e+0)
_SLEEF_LN2_DD = (0.693147180559945286226764, 2.319046813846299558417771e-17)


def _fma_plain(a, b, c):
    """a * b + c rounded once, for finite float64 arrays away from underflow (Dekker's
    product, TwoSum; the two error terms' sum rounds, which moves the result only when
    it lands within 2^-100 of a rounding boundary)."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    err = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    v = s - p
    e2 = (p - (s - v)) + (c - v)
    e2 += err
    s += e2
    return s


def sleef_log(x):
    """SLEEF's log (u10) of a float64 array, bit for bit (Note [SLEEF's log])."""
    fma = _fma_plain
    d = np.asarray(x, np.float64).reshape(-1)
    with np.errstate(all="ignore"):
        e = (np.frexp(d * (1.0 / 0.75))[1] - 1).astype(np.float64)  # (getexp)
        e[np.isinf(d)] = 1024.0
        fr = np.frexp(d)[0]
        m = np.where(np.abs(fr) < 0.75, fr * 2, fr)  # (getmant: [0.75, 1.5))
        nx = m - 1  # (ddadd2(-1, m): exact)
        dx = m + 1
        v = dx - 1
        dy = (1 - (dx - v)) + (m - v)
        t = 1 / dx  # dddiv((nx, 0), (dx, dy))
        qx = nx * t
        u = fma(t, nx, -qx)
        qy = fma(-dx, t, np.ones_like(t))
        qy -= dy * t
        qy = fma(qx, qy, u)  # (n.y = 0: fma(0, t, u) is u)
        x2 = qx * qx
        x4 = x2 * x2
        x8 = x4 * x4
        c6, c5, c4, c3, c2, c1, c0 = _SLEEF_LOG_POLY
        full = np.full_like
        tt = fma(x8, (x4 * c6 + (x2 * c5 + c4)),
                 x4 * (x2 * c3 + c2) + fma(x2, full(x2, c1), full(x2, c0)))
        l2h, l2l = _SLEEF_LN2_DD
        sx = l2h * e  # ddmul((l2h, l2l), e)
        sy = l2l * e + fma(full(e, l2h), e, -sx)
        ax, ay = qx * 2, qy * 2
        rx = sx + ax  # ddadd_vd2_vd2_vd2(s, (ax, ay))
        ry = (((sx - rx) + ax) + sy) + ay
        w = (x2 * qx) * tt
        hx = rx + w  # ddadd_vd2_vd2_vd(s, w)
        r = hx + (((rx - hx) + w) + ry)
        r[d == np.inf] = np.inf
        r[(d < 0) | np.isnan(d)] = np.nan
        r[d == 0] = -np.inf
    return r.reshape(np.shape(x))


# Note [SLEEF's pow]
# ~~~~~~~~~~~~~~~~~~
# PyTorch's float64 pow (both overloads with a non-special exponent) is cpu_kernel_vec's:
# std::pow, glibc's pow, in the scalar loop, and Vectorized<double>::pow, SLEEF's
# Sleef_powd8_u10 (xpow), in the SIMD loop (whole pairs of 8-lane vectors of contiguous
# operands). xpow is exp(y log|x|) in double-double arithmetic (dd.h with fused
# multiply-adds): logk (AVX-512's getexp and getmant give |x| = m 2^e, m in [0.75, 1.5);
# 2 atanh((m - 1) / (m + 1)) + e ln 2 with a degree-8 polynomial in the quotient's
# square for the tail), the product by y, expk (q = rint(d / ln 2), the remainder in two
# steps, a degree-9 polynomial, (1 + s) + s^2 u, 2^q as two multiplications), then the
# sign and the special values as a table of selects; the polynomials by Estrin's scheme
# (SLEEF 3.6's text, PyTorch's: the older Horner steps give another double on 0.8%). It
# is within an ulp of glibc's and gives another double on 1.6% of random inputs (NumPy's
# own AVX-512 power on 5.4%). Ported step for step: the error terms of products
# (fmapn(a, b, a * b)) are Dekker's exact ones, the polynomials' multiply-adds rounded
# once (_estrin), and the multiply-adds that only feed a low word (below 2^-100 of the
# result) are NumPy's two roundings: 0 of 1.2 million results differ from PyTorch's, NaN
# bits included. glibc's pow comes from ``math.pow`` element by element (86 ns each), on
# finite operands only: the special values are IEEE's (NumPy's), a negative base to a
# fraction glibc's -NaN.
_LOGK_POLY = (0.116255524079935043668677, 0.103239680901072952701192,
              0.117754809412463995466069, 0.13332981086846273921509,
              0.153846227114512262845736, 0.181818180850050775676507,
              0.222222222230083560345903, 0.285714285714249172087875,
              0.400000000000000077715612)
_LOGK_C = (0.666666666666666629659233, 3.80554962542412056336616e-17)
_EXPK_POLY = (2.51069683420950419527139e-08, 2.76286166770270649116855e-07,
              2.75572496725023574143864e-06, 2.48014973989819794114153e-05,
              0.000198412698809069797676111, 0.0013888888939977128960529,
              0.00833333333332371417601081, 0.0416666666665409524128449,
              0.166666666666666740681535, 0.500000000000000999200722)


def _prod_err(a, b, a_split=None, b_split=None):
    """a * b - fl(a * b), exactly (Dekker): SLEEF's vfmapn(a, b, a * b)."""
    ah, al = _split(a) if a_split is None else a_split
    bh, bl = _split(b) if b_split is None else b_split
    err = ah * bh
    err -= a * b
    err += ah * bl
    err += al * bh
    err += al * bl
    return err


def _mla(a, b, c, fused=True):
    """SLEEF's MLA (a fused multiply-add) where c outweighs a * b: _fma_big_c; NumPy's two
    roundings where not ``fused``."""
    if not fused:
        return a * b + c
    bs = _split(b) if b.__class__ is np.ndarray else _split(np.float64(b))
    return _fma_big_c(a, _split(a), b, c, b_split=bs)


def _estrin(x, x2, x4, x8, coefs):
    """SLEEF's POLY9/POLY10 (estrin.h): Estrin's scheme, highest coefficient first, each
    multiply-add fused (every constant outweighs its product: |x| is small). The fusing
    is emulated for the steps that make up the low-order terms and the last two; the
    high-order ones' second rounding lands below 2^-60 of the polynomial (0 of 10.5
    million powers changed against fusing all 17)."""
    def p4(c3, c2, c1, c0, fused):
        return _mla(x2, _mla(x, c3, c2, fused), _mla(x, c1, c0, fused), fused)
    p8 = _mla(x4, p4(*coefs[-8:-4], False), p4(*coefs[-4:], True))
    top = coefs[0] if len(coefs) == 9 else _mla(x, coefs[0], coefs[1], False)
    return _mla(x8, top, p8)


def _dd_add(xx, xy, yx, yy):
    """SLEEF's ddadd_vd2_vd2_vd2 (|x| >= |y|)."""
    rx = xx + yx
    return rx, (((xx - rx) + yx) + xy) + yy


def _sleef_logk(d):
    """SLEEF's logk of a positive finite float64 array: log(d) as a double-double."""
    p = d * (1.0 / 0.75)
    e = (np.frexp(p)[1] - 1).astype(np.float64)  # (getexp)
    e[np.isinf(p)] = 1024.0
    fr = np.frexp(d)[0]
    m = np.where(fr < 0.75, fr * 2, fr)  # (getmant: [0.75, 1.5))
    nx = m - 1  # ddadd2_vd2_vd_vd(-1, m): exact, no low word
    dx = m + 1  # ddadd2_vd2_vd_vd(1, m)
    v = dx - 1
    dy = (1 - (dx - v)) + (m - v)
    t = 1 / dx  # dddiv_vd2_vd2_vd2, FMA variant
    qx = nx * t
    u = _prod_err(t, nx)
    r = 1 - dx * t  # fmanp(dx, t, 1): 1 - dx * t exactly, rounded once
    r -= _prod_err(dx, t)
    qy = r - dy * t  # (multiply-adds into the low word: two roundings)
    qy = qx * qy + u
    qs = _split(qx)
    x2x = qx * qx  # ddsqu
    x2y = (qx + qx) * qy + _prod_err(qx, qx, qs, qs)
    x4 = x2x * x2x
    x8 = x4 * x4
    tt = _estrin(x2x, x4, x8, x8 * x8, _LOGK_POLY)
    l2h, l2l = _SLEEF_LN2_DD
    sx = l2h * e  # ddmul_vd2_vd2_vd((l2h, l2l), e)
    sy = l2l * e + _prod_err(np.full_like(e, l2h), e)
    sx, sy = _dd_add(sx, sy, qx * 2, qy * 2)
    x2s = _split(x2x)
    cx = x2x * qx  # ddmul_vd2_vd2_vd2(x2, x)
    cy = x2x * qy + (x2y * qx + _prod_err(x2x, qx, x2s, qs))
    c0, c1 = _LOGK_C
    ax = cx * c0  # ddmul_vd2_vd2_vd2(x, c)
    ay = cx * c1 + (cy * c0 + _prod_err(cx, np.full_like(cx, c0)))
    sx, sy = _dd_add(sx, sy, ax, ay)
    ex = x2x * cx  # ddmul_vd2_vd2_vd2(x2, x)
    ey = x2x * cy + (x2y * cx + _prod_err(x2x, cx, x2s))
    ax = ex * tt  # ddmul_vd2_vd2_vd(x, t)
    ay = ey * tt + _prod_err(ex, tt)
    return _dd_add(sx, sy, ax, ay)


def _sleef_expk(dx, dy):
    """SLEEF's expk of a double-double (dx, dy): exp(dx + dy), 0 below -1000."""
    dq = np.rint((dx + dy) * _SLEEF_R_LN2)
    np.copyto(dq, 0.0, where=~(np.abs(dq) < 2048))  # (NaN, inf, huge: set by the caller)
    w = dq * -_SLEEF_L2U  # ddadd2_vd2_vd2_vd
    sx = dx + w
    v = sx - dx
    sy = (dx - (sx - v)) + (w - v) + dy
    w = dq * -_SLEEF_L2L
    rx = sx + w
    v = rx - sx
    sy = (sx - (rx - v)) + (w - v) + sy
    sx = rx + sy  # ddnormalize
    sy = (rx - sx) + sy
    s2 = sx * sx
    s4 = s2 * s2
    u = _estrin(sx, s2, s4, s4 * s4, _EXPK_POLY)
    tx = 1 + sx  # ddadd_vd2_vd_vd2(1, s)
    ty = ((1 - tx) + sx) + sy
    qy = (sx + sx) * sy + _prod_err(sx, sx)  # ddsqu(s), then ddmul_vd2_vd2_vd(., u)
    mx = s2 * u
    my = qy * u + _prod_err(s2, u)
    tx, ty = _dd_add(tx, ty, mx, my)
    r = tx + ty
    q = dq.astype(np.int64)
    h = q >> 1
    r *= ((h + 1023) << 52).view(np.float64)  # vldexp2
    r *= ((q - h + 1023) << 52).view(np.float64)
    r[dx < -1000] = 0.0
    return r


def sleef_pow(x, y):
    """SLEEF's pow (u10) of float64 arrays, bit for bit (Note [SLEEF's pow]); blockwise."""
    x, y = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(y, np.float64))
    shape = x.shape
    x, y = x.reshape(-1), y.reshape(-1)
    out = np.empty(x.size)
    for b in blocks(x.size):
        out[b] = _sleef_pow(x[b], y[b])
    return out.reshape(shape)


def _sleef_pow(x, y):
    with np.errstate(all="ignore"):
        ax = np.abs(x)
        yisint = np.trunc(y) == y
        half = y * 0.5
        yisodd = (np.trunc(half) != half) & yisint
        lx, ly = _sleef_logk(np.where(np.isfinite(ax) & (ax != 0), ax, 1.0))
        dx = lx * y  # ddmul_vd2_vd2_vd
        err = _prod_err(lx, y)  # (NaN where Dekker's split of a y past 1e300 overflows: there
        err[np.isnan(err)] = 0.0  # lx is 0, or dx is out of range and the result set below)
        dy = ly * y + err
        r = _sleef_expk(dx, dy)
        r[dx > 709.78271114955742909217217426] = np.inf
        neg = ~(x > 0)
        if neg.any():
            r[neg & yisodd] *= -1.0
            r[neg & ~yisint] = np.nan  # (result * NaN: its NaN, 0x7ff8...)
        yinf = np.isinf(y)
        if yinf.any():
            efx = (ax - 1) * np.where(np.signbit(y), -1.0, 1.0)
            r = np.where(yinf, np.where(efx < 0, 0.0, np.where(efx == 0, 1.0, np.inf)), r)
        xs = np.isinf(x) | (x == 0)
        if xs.any():
            big = np.where(np.signbit(y) ^ (x == 0), 0.0, np.inf)
            r = np.where(xs, np.copysign(big, np.where(yisodd, x, 1.0)), r)
        nan = np.isnan(x) | np.isnan(y)
        if nan.any():
            r[nan] = np.array(-1, np.int64).view(np.float64)  # (all bits set)
        r[(y == 0) | (x == 1)] = 1.0
    return r


def torch_pow(x, y, simd):
    """PyTorch's float64 pow of x and y (broadcast): glibc's off ``simd`` (simd_positions
    in raw.py; None: nowhere), SLEEF's where ``simd`` (Note [SLEEF's pow])."""
    if simd is None:
        return glibc_pow(x, y)
    x, y = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(y, np.float64))
    if simd.all():
        return sleef_pow(x, y)
    out = np.empty(x.shape)
    out[simd] = sleef_pow(x[simd], y[simd])
    rest = ~simd
    out[rest] = glibc_pow(x[rest], y[rest])
    return out


def torch_powf(x, y, simd):
    """PyTorch's float32 pow of two float32 arrays (broadcast): glibc's powf off ``simd``,
    SLEEF's where ``simd`` (Note [SLEEF's powf])."""
    x, y = np.broadcast_arrays(np.asarray(x, np.float32), np.asarray(y, np.float32))
    if simd is not None and simd.all():
        return sleef_powf(x, y)
    if simd is None:
        return glibc_powf(x, y)
    out = np.empty(x.shape, np.float32)
    out[simd] = sleef_powf(x[simd], y[simd])
    rest = ~simd
    out[rest] = glibc_powf(x[rest], y[rest])
    return out


_POWF = []


def glibc_powf(x, y):
    """glibc's powf (std::pow of two floats) of float32 arrays, broadcast: the C library's
    through ctypes (~0.35 us an element); where it cannot be loaded, the float64 power
    rounded once (an ulp away on 0.06% of inputs: glibc's powf is not correctly rounded)."""
    if not _POWF:
        try:
            from .._random import _libm_float_fns
            _POWF.append(np.frompyfunc(_libm_float_fns()["powf"], 2, 1))
        except (OSError, AttributeError):
            _POWF.append(None)
    x, y = np.broadcast_arrays(np.asarray(x, np.float32), np.asarray(y, np.float32))
    if _POWF[0] is None or not x.size:
        with np.errstate(all="ignore"):
            return np.power(x.astype(np.float64), y.astype(np.float64)).astype(np.float32)
    return np.asarray(_POWF[0](x, y), np.float32).reshape(x.shape)


def _math_pow1(x, y):
    try:
        return math.pow(x, y)
    except OverflowError:
        return math.copysign(math.inf, x) if y % 2 == 1 else math.inf


_math_pow = np.frompyfunc(math.pow, 2, 1)


def glibc_pow(x, y):
    """glibc's pow (std::pow, PyTorch's scalar loop) of float64 arrays, broadcast:
    ``math.pow`` where both are finite, x is not 0 and the power is defined, IEEE's values
    (NumPy's) elsewhere; a negative x to a fractional y is glibc's NaN (sign bit set)."""
    x, y = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(y, np.float64))
    shape = x.shape
    x, y = x.reshape(-1), y.reshape(-1)
    with np.errstate(all="ignore"):
        out = np.power(x, y)
        fin = np.isfinite(x) & np.isfinite(y) & (x != 0)
        bad = fin & (x < 0) & (np.trunc(y) != y)
        out[bad] = -np.nan
        fin &= ~bad
        near = fin & ~(np.abs(out) < 1e300)  # (may overflow: math.pow raises there)
        fin &= ~near
        if fin.any():
            out[fin] = _math_pow(x[fin], y[fin]).astype(np.float64)
        for i in np.flatnonzero(near):
            out[i] = _math_pow1(float(x[i]), float(y[i]))
    return out.reshape(shape)


# Note [SLEEF's powf]
# ~~~~~~~~~~~~~~~~~~~
# Vectorized<float>::pow (float32 pow's SIMD loop, 32 elements a step on AVX-512) is
# SLEEF's Sleef_powf16_u10 (xpowf): Note [SLEEF's pow]'s algorithm in double-float
# arithmetic (df.h with fused multiply-adds; logkf's tail a quadratic, expkf's a quartic,
# 2^q by vldexp's four-and-one multiplications), ported step for step in float32. Each
# fused multiply-add is emulated exactly: the float64 product of two floats is exact, the
# float64 sum rounded to odd (_fma32_odd), so the rounding to float32 is the fused one.
def _fma32_odd(a, b, c):
    """float32 a * b + c rounded once: the float64 product of two floats is exact, and the
    float64 sum rounds as the fused one but where it lands on a float32 tie (its 29 bits
    past float32's 1000...0), where it is moved an ulp toward the exact sum (rounding to
    odd: then the tie cannot be one)."""
    p = np.multiply(a, b, dtype=np.float64)
    s = np.add(p, c, dtype=np.float64)
    bits = s.view(np.int64)
    tie = (bits & 0x1FFFFFFF) == 0x10000000
    if tie.any():
        i = np.flatnonzero(tie)
        pi, si = p.reshape(-1)[i], s.reshape(-1)[i]
        ci = np.broadcast_to(np.asarray(c, np.float64), s.shape).reshape(-1)[i]
        v = si - pi
        err = (pi - (si - v)) + (ci - v)  # p + c = s + err exactly
        bits.reshape(-1)[i] += np.where(err == 0, 0, np.where((err > 0) == (si > 0), 1, -1))
    return s.astype(np.float32)


def _prod_err32(a, b, r):
    """a * b - r for r = fl32(a * b), exactly (SLEEF's vfmapn_vf_vf_vf_vf(a, b, r))."""
    return np.subtract(np.multiply(a, b, dtype=np.float64), r, dtype=np.float64).astype(
        np.float32)


_LOGKF_POLY = tuple(np.float32(c) for c in (0.240320354700088500976562,
                                             0.285112679004669189453125,
                                             0.400007992982864379882812))
_LOGKF_C = (np.float32(0.66666662693023681640625), np.float32(3.69183861259614332084311e-09))
_LN2F_DF = (np.float32(0.69314718246459960938), np.float32(-1.904654323148236017e-09))
_EXPKF_POLY = tuple(np.float32(c) for c in (
    0.00136324646882712841033936, 0.00836596917361021041870117, 0.0416710823774337768554688,
    0.166665524244308471679688, 0.499999850988388061523438))


def _sleef_logkf(d):
    """SLEEF's logkf of a positive finite float32 array: log(d) as a double-float."""
    f = np.float32
    fma = _fma32_odd
    p = d * f(1.0 / 0.75)
    e = (np.frexp(p)[1] - 1).astype(f)  # (getexp)
    e[np.isinf(p)] = 128
    fr = np.frexp(d)[0]
    m = np.where(fr < 0.75, fr * f(2), fr).astype(f)  # (getmant: [0.75, 1.5))
    nx = m - f(1)  # dfadd2_vf2_vf_vf(-1, m): exact, no low word
    dx = m + f(1)  # dfadd2_vf2_vf_vf(1, m)
    v = dx - f(1)
    dy = (f(1) - (dx - v)) + (m - v)
    t = f(1) / dx  # dfdiv_vf2_vf2_vf2
    qx = nx * t
    u = _prod_err32(t, nx, qx)
    qy = fma(-dy, t, fma(-dx, t, f(1)))
    qy = fma(qx, qy, u)
    x2x = qx * qx  # dfsqu
    x2y = fma(qx + qx, qy, _prod_err32(qx, qx, x2x))
    c2, c1, c0 = _LOGKF_POLY
    tt = fma(fma(np.full_like(x2x, c2), x2x, c1), x2x, c0)
    l2h, l2l = _LN2F_DF
    sx = l2h * e  # dfmul_vf2_vf2_vf((l2h, l2l), e)
    sy = fma(l2l, e, _prod_err32(l2h, e, sx))
    rx = sx + qx * f(2)  # dfadd_vf2_vf2_vf2(s, dfscale(x, 2))
    ry = (((sx - rx) + qx * f(2)) + sy) + qy * f(2)
    ax = x2x * tt  # dfmul_vf2_vf2_vf(x2, t)
    ay = fma(x2y, tt, _prod_err32(x2x, tt, ax))
    k0, k1 = _LOGKF_C
    bx = ax + k0  # dfadd2_vf2_vf2_vf2(., c)
    v = bx - ax
    by = ((ax - (bx - v)) + (k0 - v)) + (ay + k1)
    cx = x2x * qx  # dfmul_vf2_vf2_vf2(x2, x)
    cy = fma(x2x, qy, fma(x2y, qx, _prod_err32(x2x, qx, cx)))
    ex = cx * bx  # dfmul_vf2_vf2_vf2(., .)
    ey = fma(cx, by, fma(cy, bx, _prod_err32(cx, bx, ex)))
    sx = rx + ex  # dfadd_vf2_vf2_vf2
    return sx, (((rx - sx) + ex) + ry) + ey


def _ldexpf(x, q):
    """SLEEF's vldexp_vf_vf_vi2: x 2^q by four multiplications by 2^m, then 2^(q - 4m)."""
    m = q >> 31  # (int32 arithmetic, wrapping as SIMD lanes do)
    m = (((m + q) >> 6) - m) << 4
    q = q - (m << 2)
    m = np.clip(m + np.int32(0x7F), 0, 0xFF)
    u = (m << 23).view(np.float32)
    x = x * u * u * u * u
    return x * ((q + np.int32(0x7F)) << 23).view(np.float32)


def _sleef_expkf(dx, dy):
    """SLEEF's expkf of a double-float (dx, dy): exp(dx + dy), 0 below -104."""
    f = np.float32
    fma = _fma32_odd
    qf = np.rint((dx + dy) * _SLEEF_R_LN2F)
    big = ~(np.abs(qf) < 2 ** 31)  # (vrint_vi2_vf: INT_MIN for NaN, inf and past int32)
    q = np.where(big, 0, qf).astype(np.int32)
    q[big] = np.iinfo(np.int32).min
    w = qf * f(-_SLEEF_L2UF)  # dfadd2_vf2_vf2_vf
    sx = dx + w
    v = sx - dx
    sy = ((dx - (sx - v)) + (w - v)) + dy
    w = qf * f(-_SLEEF_L2LF)
    rx = sx + w
    v = rx - sx
    sy = ((sx - (rx - v)) + (w - v)) + sy
    sx = rx + sy  # dfnormalize
    sy = (rx - sx) + sy
    c4, *cs = _EXPKF_POLY
    u = np.full_like(sx, c4)
    for c in cs:
        u = fma(u, sx, c)
    qx = sx * sx  # dfsqu
    qy = fma(sx + sx, sy, _prod_err32(sx, sx, qx))
    mx = qx * u  # dfmul_vf2_vf2_vf
    my = fma(qy, u, _prod_err32(qx, u, mx))
    tx = sx + mx  # dfadd_vf2_vf2_vf2
    ty = (((sx - tx) + mx) + sy) + my
    ux = f(1) + tx  # dfadd_vf2_vf_vf2
    uy = ((f(1) - ux) + tx) + ty
    r = _ldexpf(ux + uy, q)
    r[dx < -104] = 0
    return r


def sleef_powf(x, y):
    """SLEEF's powf (u10) of float32 arrays, broadcast (Note [SLEEF's powf])."""
    x, y = np.broadcast_arrays(np.asarray(x, np.float32), np.asarray(y, np.float32))
    shape = x.shape
    x, y = x.reshape(-1), y.reshape(-1)
    out = np.empty(x.size, np.float32)
    for b in blocks(x.size):
        out[b] = _sleef_powf(x[b], y[b])
    return out.reshape(shape)


def _sleef_powf(x, y):
    f = np.float32
    with np.errstate(all="ignore"):
        ax = np.abs(x)
        ay = np.abs(y)
        yisint = (np.trunc(y) == y) | (ay > f(1 << 24))
        yint = np.where(ay < f(1 << 24), y, 0).astype(np.int32)
        yisodd = ((yint & 1) == 1) & yisint & (ay < f(1 << 24))
        lx, ly = _sleef_logkf(np.where(np.isfinite(ax) & (ax != 0), ax, f(1)))
        dx = lx * y  # dfmul_vf2_vf2_vf
        dy = _fma32_odd(ly, y, np.nan_to_num(_prod_err32(lx, y, dx)))
        r = _sleef_expkf(dx, dy)
        r[np.isnan(r)] = np.inf
        neg = ~(x > 0)
        if neg.any():
            r[neg & yisodd] *= f(-1)
            r[neg & ~yisint] = np.nan
        yinf = np.isinf(y)
        if yinf.any():
            efx = (ax - f(1)) * np.where(np.signbit(y), f(-1), f(1))
            r = np.where(yinf, np.where(efx < 0, f(0), np.where(efx == 0, f(1), f(np.inf))),
                         r).astype(f)
        xs = np.isinf(x) | (x == 0)
        if xs.any():
            big = np.where(np.signbit(y) ^ (x == 0), f(0), f(np.inf))
            r = np.where(xs, np.copysign(big, np.where(yisodd, x, f(1))), r).astype(f)
        nan = np.isnan(x) | np.isnan(y)
        if nan.any():
            r[nan] = np.array(-1, np.int32).view(f)  # (all bits set)
        r[(y == 0) | (x == 1)] = 1
    return r


def _trigamma_float32(a):
    """PyTorch's trigamma(float) (ATen's Math.h), operation for operation in float32: its
    series constants are float (1.f/6, ...) and the compiler fuses the series' three
    multiply-adds (-ffp-contract). sinf is the float64 sine rounded (glibc's is within an
    ulp of it). Near a pole (sin(pi x) tiny) float32's rounding dominates the value, so
    float64 rounded to float32 would be far from what PyTorch computes (-4.0 gives 8.07e13
    there, not inf)."""
    f = np.float32
    neg = a < f(0.5)
    pi = f(math.pi)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        sin_pi_x = np.sin((pi * a).astype(np.float64)).astype(f)
        result = np.where(neg, -(pi * pi) / (sin_pi_x * sin_pi_x), f(0)).astype(f)
        z = np.where(neg, f(1) - a, a).astype(f)
        for _ in range(6):
            result = (result + f(1) / (z * z)).astype(f)
            z = (z + f(1)).astype(f)
        ixx = (f(1) / (z * z)).astype(f)
        head = (f(1) + f(1) / (f(2) * z)).astype(f)
        series = _fma(-ixx, np.full_like(ixx, f(1) / f(42)), np.full_like(ixx, f(1) / f(30)))
        series = _fma(-ixx, series, np.full_like(ixx, f(1) / f(6)))
        series = _fma(ixx, series, head)
        result = (result + series / z).astype(f)
    return np.where(neg, -result, result)


def trigamma(x):
    a = np.asarray(x)
    if a.dtype == np.float32:
        return _trigamma_float32(a)
    if a.dtype.itemsize == 2 and a.dtype.kind in "fV":  # (half types: trigamma(float))
        return _trigamma_float32(a.astype(np.float32)).astype(a.dtype)
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


# Note [PyTorch's polygamma]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~
# aten's polygamma for n >= 2 is Math.h's calc_polygamma<scalar_t>: (+-1) *
# exp(lgamma(n + 1)) * zeta<scalar_t>(n + 1, x), zeta being Cephes' Hurwitz zeta in
# acc_type<scalar_t> (CPU: float for float16/bfloat16, double for float32 and float64),
# its result rounded to scalar_t before the product. So a float16 polygamma(2, 5336) is -0.0
# (zeta(3, 5336) = 1.8e-8 rounds to a float16 zero) and the product of the float
# exp(lgammaf(3)) and the rounded zeta is rounded again; float32's first term is powf(q, -x)
# (float arguments), the others pow in double; the factor exp(lgamma(n + 1)) is libm's, not
# n! (glibc's: 5040.000000000002 for n = 7; called through ctypes). Here the same steps on
# arrays, each element leaving the loops where Cephes returns; libm's pow is NumPy's float64
# power (rounded to float32 for powf), float64's the correctly rounded power (_pow_neg_int:
# NumPy's SIMD power is an ulp off glibc's on ~5% of arguments). Measured against PyTorch
# 2.13 on 8,230 points, n in 2..10: float16 and bfloat16 0 differ (were 5-41%); float64
# 0.07% (glibc's own misroundings of pow; were 69-100% with the former asymptotic
# series); float32 0.02% (libm's powf; were 7-100%). float32 special_zeta is the same
# zeta<float> (1 of 3004 off, was 193).
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
           7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
           -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18)
_ZETA_LOOP_MAX = 4096   # (elements whose first loop is longer: their terms' running sum)


@functools.lru_cache(maxsize=64)
def _exp_lgamma(n, single):
    """libm's exp(lgamma(n + 1)) (expf(lgammaf(n + 1)) when ``single``), which PyTorch's
    factor is (measured: glibc's, e.g. 5040.000000000002 for n = 6, not n!); n! rounded
    where no libm can be called."""
    import ctypes
    t = ctypes.c_float if single else ctypes.c_double
    try:
        libm = ctypes.CDLL("libm.so.6")
        lg, ex = (libm.lgammaf, libm.expf) if single else (libm.lgamma, libm.exp)
        for f in (lg, ex):
            f.restype, f.argtypes = t, [t]
        return ex(lg(n + 1.0))
    except (OSError, AttributeError):
        r = float(math.factorial(n)) if n < 171 else math.inf
        return float(np.float32(r)) if single else r


def _two_prod(a, b):
    """a * b = p + e exactly (Dekker)."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _dd_mul(h1, l1, h2, l2):
    p, e = _two_prod(h1, h2)
    e = e + (h1 * l2 + l1 * h2)
    h = p + e
    return h, e - (h - p)


def _pow_neg_int(a, m):
    """a ** -m of a float64 array, m a positive integer, correctly rounded (a^m in
    double-double, its reciprocal refined once): glibc's pow but for its rare misroundings
    (0.07% of a^-3 at random), where NumPy's SIMD power is an ulp off on ~5%; NumPy's power
    where a^m leaves the normal range."""
    with np.errstate(all="ignore"):
        rh, rl = np.ones_like(a), np.zeros_like(a)
        bh, bl = a.copy(), np.zeros_like(a)
        k = m
        while k:
            if k & 1:
                rh, rl = _dd_mul(rh, rl, bh, bl)
            k >>= 1
            if k:
                bh, bl = _dd_mul(bh, bl, bh, bl)
        r = 1.0 / rh
        p, e = _two_prod(r, rh)
        out = r + r * (((1.0 - p) - e) - r * rl)
        bad = ~np.isfinite(out) | ~(np.abs(rh) > 1e-290) | ~(np.abs(rh) < 1e290)
        if bad.any():
            out[bad] = np.power(a[bad], -float(m))
    return out


def _zeta_cephes(x, q, acc, first_pow_single=False, exact_pow=False):
    """Math.h's zeta(x, q) on arrays (elementwise), in ``acc`` (np.float32 or np.float64)
    arithmetic; ``first_pow_single``: its first term pow(q, -x) in float (float32's
    zeta, whose q and x are float); ``exact_pow``: an integer x's powers correctly rounded
    (float64's, where NumPy's power is an ulp off)."""
    f = acc
    x = np.asarray(x, f)
    q = np.asarray(q, f)
    x, q = np.broadcast_arrays(x, q)
    x, q = x.ravel().copy(), q.ravel().copy()
    M = f(1.11022302462515654042e-16)
    one, half, nine = f(1), f(0.5), f(9)

    m = int(x[0]) if exact_pow and x.size and (x == x[0]).all() and (
        x[0] == math.floor(x[0])) and 1 <= x[0] <= 64 else None   # (polygamma's n + 1)

    def pw(a, e):
        if m is not None:
            return _pow_neg_int(a.astype(np.float64), m).astype(f)
        with np.errstate(all="ignore"):
            r = np.power(a.astype(np.float64), e.astype(np.float64))
        return r.astype(f)
    out = np.full(x.shape, np.nan, f)
    done = np.zeros(x.shape, bool)
    with np.errstate(all="ignore"):
        flq = np.floor(q)
        out[x == one] = np.inf
        done |= (x == one) | (x < one)
        pole = ~done & (q <= 0) & (q == flq)
        out[pole] = np.inf
        done |= pole
        done |= (q <= 0) & (x != np.floor(x))
        if first_pow_single:
            s = pw(q, -x).astype(np.float32).astype(f)   # (powf)
        else:
            s = pw(q, -x)
        a = q.copy()
        b = np.zeros_like(s)
        # the first loop: i < 9 or a <= 9 (steps = max(9, floor(9 - q) + 1))
        steps = np.where(done | ~(q <= nine), 9, np.maximum(9, np.floor(nine - q) + 1))
        steps = np.where(np.isnan(q), 9, steps).astype(np.int64)
        long_ = ~done & (steps > _ZETA_LOOP_MAX)
        for j in np.flatnonzero(long_):
            k = int(steps[j])
            terms = pw(q[j] + np.arange(1, k + 1, dtype=f), np.full(k, -x[j], f))
            run = np.cumsum(np.concatenate([[s[j]], terms]))[1:].astype(f)
            hit = np.flatnonzero((-M * run < terms) & (terms < M * run))
            if hit.size:
                out[j] = run[hit[0]]
                done[j] = True
            else:
                s[j], a[j], b[j] = run[-1], q[j] + f(k), terms[-1]
        live = ~done & ~long_
        nx = -x
        for i in range(int(steps[live].max()) if live.any() else 0):
            if i < 9:   # (every element steps: whole-array operations)
                a += one
                b = pw(a, nx)
                s += b
                hit = live & (-M * s < b) & (b < M * s)
            else:
                act = live & (steps > i)
                if not act.any():
                    break
                a[act] += one
                b[act] = pw(a[act], nx[act])
                s[act] += b[act]
                hit = act & (-M * s < b) & (b < M * s)
            if hit.any():
                out[hit] = s[hit]
                live &= ~hit
                done |= hit
        rest = ~done
        if rest.any():
            xr, br, sr = x[rest], b[rest], s[rest]
            w = a[rest]
            sr = sr + br * w / (xr - one)
            sr = sr - half * br
            ar = np.ones_like(sr)
            k = np.zeros_like(sr)
            res = np.full(sr.shape, np.nan, f)
            fin = np.zeros(sr.shape, bool)
            for i in range(12):
                ar = ar * (xr + k)
                br = br / w
                t = ar * br / f(_ZETA_A[i])
                sr = sr + t
                hit = ~fin & (np.abs(t / sr) < M)
                res[hit] = sr[hit]
                fin |= hit
                k = k + one
                ar = ar * (xr + k)
                br = br / w
                k = k + one
            res[~fin] = sr[~fin]
            out[rest] = res
    return out


def polygamma(n, x):
    """The n-th derivative of digamma (n >= 1), as PyTorch computes it (Note [PyTorch's
    polygamma])."""
    if n == 0:
        return digamma(x)
    if n == 1:
        return trigamma(x)
    a = np.asarray(x)
    dt = a.dtype if a.dtype.kind in "fV" else np.dtype(np.float64)
    half = dt.itemsize == 2
    sign = 1.0 if n % 2 else -1.0
    if half:   # zeta<Half> in float, rounded to the half type; the product in float
        z = _zeta_cephes(float(n + 1), a.astype(np.float32), np.float32).astype(dt)
        fact = np.float32(sign) * np.float32(_exp_lgamma(n, True))
        with np.errstate(all="ignore"):
            out = (fact * z.astype(np.float32)).astype(dt)
    elif dt == np.float32:   # zeta<float> in double, rounded to float; the product in float
        z = _zeta_cephes(float(n + 1), a, np.float64, first_pow_single=True).astype(np.float32)
        fact = np.float32(sign) * np.float32(_exp_lgamma(n, True))
        with np.errstate(all="ignore"):
            out = fact * z
    else:
        z = _zeta_cephes(float(n + 1), a.astype(np.float64), np.float64, exact_pow=True)
        with np.errstate(all="ignore"):
            out = sign * _exp_lgamma(n, False) * z
    return np.asarray(out).reshape(a.shape).astype(dt, copy=False)


# ---- Bessel functions of the first and second kind, orders 0 and 1 (torch.special) ----------
# Note [Cephes Bessel J and Y as PyTorch's]
# bessel_j0/j1/y0/y1 are aten's bessel_*_forward (Math.h, from Cephes' j0.c and j1.c): for
# |x| <= 5 a ratio of polynomials in x^2 (y adds 2/pi log(x) j(x)), beyond Hankel's P and Q
# as ratios in 25/x^2 times cos/sin(x - pi/4 or 3pi/4). PyTorch evaluates them in the
# tensor's own type (float32 stays float32: an int64 input is made float32 first, and a
# float32 x - pi/4 of x = 1.1e12 is not float64's), with each a * b + c of its loops fused
# (its CPU kernels are built with FMA): reproduced here, a float32 fma exactly (the float32
# product is exact in float64), a float64 one by error-free transformations. float64 agrees
# bit for bit with PyTorch's on 37,000 points; float32 within an ulp (glibc's sinf/cosf/logf
# are not NumPy's float64 results rounded, on ~0.5% of points beyond 5).
# K_0, K_1 (and the Airy function through K_1/3) are int_0^inf exp(-x cosh t) cosh(nu t) dt
# by the trapezoidal rule, whose error decays like exp(-pi^2 / h) for this integrand
# (analytic in the strip |Im t| < pi/2); past 25 their asymptotic expansion.
_HANKEL_FROM = 25.0
_J0_PP = (7.96936729297347051624e-04, 8.28352392107440799803e-02, 1.23953371646414299388e+00,
          5.44725003058768775090e+00, 8.74716500199817011941e+00, 5.30324038235394892183e+00,
          9.99999999999999997821e-01)
_J0_PQ = (9.24408810558863637013e-04, 8.56288474354474431428e-02, 1.25352743901058953537e+00,
          5.47097740330417105182e+00, 8.76190883237069594232e+00, 5.30605288235394617618e+00,
          1.00000000000000000218e+00)
_J0_QP = (-1.13663838898469149931e-02, -1.28252718670509318512e+00, -1.95539544257735972385e+01,
          -9.32060152123768231369e+01, -1.77681167980488050595e+02, -1.47077505154951170175e+02,
          -5.14105326766599330220e+01, -6.05014350600728481186e+00)
_J0_QQ = (6.43178256118178023184e+01, 8.56430025976980587198e+02, 3.88240183605401609683e+03,
          7.24046774195652478189e+03, 5.93072701187316984827e+03, 2.06209331660327847417e+03,
          2.42005740240291393179e+02)
_J0_RP = (-4.79443220978201773821e+09, 1.95617491946556577543e+12, -2.49248344360967716204e+14,
          9.70862251047306323952e+15)
_J0_RQ = (4.99563147152651017219e+02, 1.73785401676374683123e+05, 4.84409658339962045305e+07,
          1.11855537045356834862e+10, 2.11277520115489217587e+12, 3.10518229857422583814e+14,
          3.18121955943204943306e+16, 1.71086294081043136091e+18)
_Y0_YP = (1.55924367855235737965e+04, -1.46639295903971606143e+07, 5.43526477051876500413e+09,
          -9.82136065717911466409e+11, 8.75906394395366999549e+13, -3.46628303384729719441e+15,
          4.42733268572569800351e+16, -1.84950800436986690637e+16)
_Y0_YQ = (1.04128353664259848412e+03, 6.26107330137134956842e+05, 2.68919633393814121987e+08,
          8.64002487103935000337e+10, 2.02979612750105546709e+13, 3.17157752842975028269e+15,
          2.50596256172653059228e+17)
_J1_PP = (7.62125616208173112003e-04, 7.31397056940917570436e-02, 1.12719608129684925192e+00,
          5.11207951146807644818e+00, 8.42404590141772420927e+00, 5.21451598682361504063e+00,
          1.00000000000000000254e+00)
_J1_PQ = (5.71323128072548699714e-04, 6.88455908754495404082e-02, 1.10514232634061696926e+00,
          5.07386386128601488557e+00, 8.39985554327604159757e+00, 5.20982848682361821619e+00,
          9.99999999999999997461e-01)
_J1_QP = (5.10862594750176621635e-02, 4.98213872951233449420e+00, 7.58238284132545283818e+01,
          3.66779609360150777800e+02, 7.10856304998926107277e+02, 5.97489612400613639965e+02,
          2.11688757100572135698e+02, 2.52070205858023719784e+01)
_J1_QQ = (7.42373277035675149943e+01, 1.05644886038262816351e+03, 4.98641058337653607651e+03,
          9.56231892404756170795e+03, 7.99704160447350683650e+03, 2.82619278517639096600e+03,
          3.36093607810698293419e+02)
_J1_RP = (-8.99971225705559398224e+08, 4.52228297998194034323e+11, -7.27494245221818276015e+13,
          3.68295732863852883286e+15)
_J1_RQ = (6.20836478118054335476e+02, 2.56987256757748830383e+05, 8.35146791431949253037e+07,
          2.21511595479792499675e+10, 4.74914122079991414898e+12, 7.84369607876235854894e+14,
          8.95222336184627338078e+16, 5.32278620332680085395e+18)
_Y1_YP = (1.26320474790178026440e+09, -6.47355876379160291031e+11, 1.14509511541823727583e+14,
          -8.12770255501325109621e+15, 2.02439475713594898196e+17, -7.78877196265950026825e+17)
_Y1_YQ = (5.94301592346128195359e+02, 2.35564092943068577943e+05, 7.34811944459721705660e+07,
          1.87601316108706159478e+10, 3.88231277496238566008e+12, 6.20557727146953693363e+14,
          6.87141087355300489866e+16, 3.97270608116560655612e+18)
_PIO4, _3PIO4 = 0.785398163397448309615660845819875721, 2.356194490192344928846982537459627163
_SQ2OPI, _TWOOPI = 0.797884560802865355879892119868763737, 0.636619772367581343075535053490057448


def _fma(a, b, c):
    """a * b + c rounded once, in a's type (float32 or float64 arrays)."""
    if a.dtype == np.float32:
        return (a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)).astype(
            np.float32)
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    err = ((ah * bh - p) + ah * bl + al * bh) + al * bl  # a * b = p + err exactly
    s = p + c
    v = s - p
    e2 = (p - (s - v)) + (c - v)  # p + c = s + e2 exactly
    return np.where(np.isfinite(s) & np.isfinite(err), s + (err + e2), s)


def _split(a):
    """Dekker's split: a = hi + lo, each with 26 significant bits."""
    t = 134217729.0 * a
    hi = t - (t - a)
    return hi, a - hi


def _poly_fma(z, coeffs):
    """aten's loops: acc = acc * z + c from acc = 0, each step fused."""
    dt = z.dtype.type
    acc = np.zeros_like(z)
    for c in coeffs:
        acc = _fma(acc, z, np.full_like(z, dt(c)))
    return acc


def _libm(fn, x):
    """std::sin/cos/log in x's type (float32: the float64 value rounded, Note [Cephes
    Bessel J and Y as PyTorch's])."""
    return fn(x.astype(np.float64)).astype(np.float32) if x.dtype == np.float32 else fn(x)


def _hankel_part(x, order, second):
    """The x > 5 branch of j0/j1 (``second``: y0/y1)."""
    dt = x.dtype.type
    if order == 0:
        z = dt(25.0) / (x * x)
        pp, pq, qp, qq = (_poly_fma(z, c) for c in (_J0_PP, _J0_PQ, _J0_QP, _J0_QQ))
        xn = x - dt(_PIO4)
    else:
        z = dt(5.0) / x * (dt(5.0) / x)
        pp, pq, qp, qq = (_poly_fma(z, c) for c in (_J1_PP, _J1_PQ, _J1_QP, _J1_QQ))
        xn = x - dt(_3PIO4)
    p, q = pp / pq, dt(5.0) / x * (qp / qq)
    c, s = _libm(np.cos, xn), _libm(np.sin, xn)
    r = _fma(p, s, q * c) if second else _fma(p, c, -(q * s))  # (the first product fused)
    return r * dt(_SQ2OPI) / np.sqrt(x)


def bessel_j0(x):
    dt = x.dtype.type
    x = np.abs(x)
    with np.errstate(all="ignore"):
        xx = x * x
        small = (xx - dt(5.78318596294678452118e+00)) * (xx - dt(3.04712623436620863991e+01)) \
            * _poly_fma(xx, _J0_RP) / _poly_fma(xx, _J0_RQ)
        small = np.where(x < dt(1e-5), dt(1.0) - xx / dt(4.0), small)
        return np.where(x <= dt(5.0), small, _hankel_part(x, 0, False))


def bessel_j1(x):
    dt = x.dtype.type
    a = np.abs(x)
    with np.errstate(all="ignore"):
        xx = a * a
        small = _poly_fma(xx, _J1_RP) / _poly_fma(xx, _J1_RQ) * a \
            * (xx - dt(1.46819706421238932572e+01)) * (xx - dt(4.92184563216946036703e+01))
        out = np.where(a <= dt(5.0), small, _hankel_part(a, 1, False))
    return np.where(x < 0, -out, out)


def bessel_y0(x):
    dt = x.dtype.type
    with np.errstate(all="ignore"):
        xx = x * x
        small = _fma(dt(_TWOOPI) * _libm(np.log, x), bessel_j0(x),
                     _poly_fma(xx, _Y0_YP) / _poly_fma(xx, _Y0_YQ))
        small = np.where(x == 0, -np.inf, np.where(x < 0, np.nan, small))
        return np.where(x <= dt(5.0), small, _hankel_part(x, 0, True)).astype(x.dtype)


def bessel_y1(x):
    dt = x.dtype.type
    with np.errstate(all="ignore"):
        xx = x * x
        inner = _fma(bessel_j1(x), _libm(np.log, x), -(dt(1.0) / x))
        small = _fma(x, _poly_fma(xx, _Y1_YP) / _poly_fma(xx, _Y1_YQ), dt(_TWOOPI) * inner)
        small = np.where(x == 0, -np.inf, np.where(x < 0, np.nan, small))
        return np.where(x <= dt(5.0), small, _hankel_part(x, 1, True)).astype(x.dtype)


for _f in (bessel_j0, bessel_j1, bessel_y0, bessel_y1):
    _f.typed = True  # (computed in the result's type: special.py's _nondiff)


def _k_integral(x, nu, scaled):
    """int_0^inf exp(-x (cosh t - 1)) cosh(nu t) dt (times exp(-x) unless scaled), x > 0."""
    h = 0.125
    xmin = float(np.min(x)) if x.size else 1.0
    top = math.acosh(max(45.0 / xmin, 1.0)) + 2 * h if xmin > 0 else 0.0
    t = np.arange(0.0, top + h, h)
    w = np.full(t.shape, h)
    w[0] = h / 2
    e = np.exp(-x[:, None] * (np.cosh(t)[None, :] - 1.0)) * np.cosh(nu * t)[None, :]
    out = e @ w
    return out if scaled else out * np.exp(-x)


def _k(x, nu, scaled):
    x64 = _float64(x)
    flat = x64.reshape(-1)
    out = np.full(flat.shape, np.nan)
    pos = (flat > 0) & (flat <= _HANKEL_FROM)
    if pos.any():
        out[pos] = _k_integral(flat[pos], nu, scaled)
    big = (flat > _HANKEL_FROM) & np.isfinite(flat)
    if big.any():  # exp(x) K_nu(x) = sqrt(pi / 2x) sum_k a_k(nu) / x^k, terms while shrinking
        xb = flat[big]
        mu = 4.0 * nu * nu
        term = np.ones_like(xb)
        total = term.copy()
        last = np.full_like(xb, np.inf)
        for k in range(1, 80):
            term = term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * xb)
            small = np.abs(term) < last
            last = np.abs(term)
            total = total + np.where(small, term, 0.0)
        val = np.sqrt(math.pi / (2 * xb)) * total
        with np.errstate(under="ignore"):
            out[big] = val if scaled else val * np.exp(-xb)
    out[flat == 0] = np.inf
    out[flat == np.inf] = 0.0
    return out.reshape(x64.shape)


def modified_bessel_k0(x):
    return _back(_k(x, 0.0, False), x)


def modified_bessel_k1(x):
    return _back(_k(x, 1.0, False), x)


def scaled_modified_bessel_k0(x):
    return _back(_k(x, 0.0, True), x)


def scaled_modified_bessel_k1(x):
    return _back(_k(x, 1.0, True), x)


def spherical_bessel_j0(x):
    """aten's spherical_bessel_j0_forward in x's type: sin(x) / x, near 0 its Taylor series
    (1 + x^2 (-1/6 + x^2 (1/120 + ...)), each step fused), 0 at +-inf."""
    dt = x.dtype.type
    xx = x * x
    series = np.full_like(x, dt(1.0) / dt(6227020800.0))
    for c in (-39916800.0, 362880.0, -5040.0, 120.0, -6.0):
        series = _fma(xx, series, np.full_like(x, dt(np.sign(c)) / dt(abs(c))))
    series = _fma(xx, series, np.ones_like(x))
    with np.errstate(invalid="ignore", divide="ignore"):
        big = _libm(np.sin, x) / x
    out = np.where(np.abs(x) < dt(0.5), series, big)
    return np.where(np.isinf(x), dt(0.0), out)


spherical_bessel_j0.typed = True


# ---- the Airy function Ai ---------------------------------------------------------------------
_AI0 = 0.355028053887817239260  # Ai(0) = 1 / (3^(2/3) Gamma(2/3))
_AI0P = 0.258819403792806798405  # -Ai'(0) = 1 / (3^(1/3) Gamma(1/3))


def _airy_series(x):
    """Ai(x) = Ai(0) f(x) + Ai'(0) g(x) by the Maclaurin series of f and g."""
    x3 = x ** 3
    f = np.ones_like(x)
    g = x.copy()
    tf, tg = f.copy(), g.copy()
    for k in range(1, 90):
        tf = tf * x3 / ((3 * k - 1) * (3 * k))
        tg = tg * x3 / ((3 * k) * (3 * k + 1))
        f = f + tf
        g = g + tg
    return _AI0 * f - _AI0P * g


def _airy_negative_asymptotic(x):
    """Ai(-x), x > 0 large: x^(-1/4)/sqrt(pi) (sin(z + pi/4) P - cos(z + pi/4) Q)."""
    z = 2.0 / 3.0 * x ** 1.5
    p = np.ones_like(x)
    q = np.zeros_like(x)
    u = 1.0
    last = np.full_like(x, np.inf)
    for k in range(1, 60):
        u = u * (6 * k - 5) * (6 * k - 3) * (6 * k - 1) / ((2 * k - 1) * 216 * k)
        term = u / z ** k
        small = term < last
        last = term
        term = np.where(small, term, 0.0)
        sign = -1.0 if (k // 2) % 2 else 1.0
        if k % 2:
            q = q + sign * term
        else:
            p = p + sign * term
    chi = z + math.pi / 4
    return (np.sin(chi) * p - np.cos(chi) * q) / (math.sqrt(math.pi) * x ** 0.25)


def airy_ai(x):
    x64 = _float64(x)
    flat = x64.reshape(-1)
    out = np.full(flat.shape, np.nan)
    mid = (flat >= -9.0) & (flat <= 2.0)
    out[mid] = _airy_series(flat[mid])
    pos = (flat > 2.0) & np.isfinite(flat)
    if pos.any():
        xp = flat[pos]
        z = 2.0 / 3.0 * xp ** 1.5
        with np.errstate(under="ignore"):
            out[pos] = np.sqrt(xp / 3) / math.pi * _k(z, 1.0 / 3.0, True) * np.exp(-z)
    neg = (flat < -9.0) & np.isfinite(flat)
    if neg.any():
        out[neg] = _airy_negative_asymptotic(-flat[neg])
    return _back(out.reshape(x64.shape), x)  # (NaN at +-inf, as PyTorch's)


# ---- orthogonal polynomials of integer degree n (n truncated to an integer; n < 0 gives 0) ---
def _three_term(x, n, p0, p1, step):
    """p_n(x) by the recurrence p_{k+1} = step(k, x, p_k, p_{k-1}), elementwise in n."""
    nmax = int(np.max(n)) if n.size else 0
    prev, cur = p0, p1
    out = np.where(n == 0, p0, p1)
    for k in range(1, nmax):
        prev, cur = cur, step(k, x, cur, prev)
        out = np.where(n == k + 1, cur, out)
    return np.where(n < 0, 0.0, out)


def _poly_args(x, n):
    x64, n64 = np.broadcast_arrays(_float64(x), _float64(n))
    with np.errstate(invalid="ignore"):
        ni = np.where(np.isfinite(n64), np.trunc(n64), -1.0)
    return np.array(x64), ni


def chebyshev_t(x, n):
    x, n = _poly_args(x, n)
    out = _three_term(x, n, np.ones_like(x), x, lambda k, x, c, p: 2 * x * c - p)
    trig = (np.abs(x) < 1) & (n > 6)  # cos(n acos x): no error growth for large n
    with np.errstate(invalid="ignore"):
        out = np.where(trig, np.cos(n * np.arccos(np.clip(x, -1, 1))), out)
    return out


def chebyshev_u(x, n):
    x, n = _poly_args(x, n)
    out = _three_term(x, n, np.ones_like(x), 2 * x, lambda k, x, c, p: 2 * x * c - p)
    th = np.arccos(np.clip(x, -1, 1))
    trig = (np.abs(x) < 1) & (n > 8) & (np.sin(th) != 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(trig, np.sin((n + 1) * th) / np.sin(th), out)
    return out


def chebyshev_v(x, n):
    x, n = _poly_args(x, n)
    return _three_term(x, n, np.ones_like(x), 2 * x - 1, lambda k, x, c, p: 2 * x * c - p)


def chebyshev_w(x, n):
    x, n = _poly_args(x, n)
    return _three_term(x, n, np.ones_like(x), 2 * x + 1, lambda k, x, c, p: 2 * x * c - p)


def hermite_h(x, n):
    x, n = _poly_args(x, n)
    return _three_term(x, n, np.ones_like(x), 2 * x,
                       lambda k, x, c, p: 2 * x * c - 2 * k * p)


def hermite_he(x, n):
    x, n = _poly_args(x, n)
    return _three_term(x, n, np.ones_like(x), x.copy(), lambda k, x, c, p: x * c - k * p)


def laguerre_l(x, n):
    x, n = _poly_args(x, n)
    return _three_term(x, n, np.ones_like(x), 1 - x,
                       lambda k, x, c, p: ((2 * k + 1 - x) * c - k * p) / (k + 1))


def legendre_p(x, n):
    x, n = _poly_args(x, n)
    return _three_term(x, n, np.ones_like(x), x.copy(),
                       lambda k, x, c, p: ((2 * k + 1) * x * c - k * p) / (k + 1))


# ---- the regularized incomplete gamma functions P(a, x) and Q(a, x) ---------------------------
# Note [igamma as PyTorch's]
# aten's calc_igamma/calc_igammac (Math.h; SciPy's igam.c, from Cephes and Boost), in the
# tensor's type (float16/bfloat16 through float32), each branch vectorized with masks: the
# boundary table first; Temme's uniform asymptotic expansion (DLMF 8.12.3/4, SciPy's 25 x 25
# coefficient table below, BSD-3-Clause) for a > 20 with x near a; otherwise the power series
# of P (DLMF 8.11.4), the series of Q for small x (8.7.3) or its continued fraction (8.9.2),
# P = 1 - Q and Q = 1 - P where aten subtracts. Its C++ mixes float and double literals
# (0.4 * fabs(a), std::pow(x, int), exp of a double sum): those steps are double here too,
# and its a * b + c are fused (FMA builds), as in Note [Cephes Bessel J and Y as PyTorch's].
# float64 agrees with PyTorch's to ~4e-13 (the old series/Lentz code: 2e-9 for a > 20);
# float32 depends on glibc's lgammaf (fdlibm's float algorithm, 31% of its values an ulp
# from the float64 lgamma rounded, which is used here): ~3% of float32 values beyond 2e-6.
_IGAM_D = (
    (-0.3333333333333333, 0.08333333333333333, -0.014814814814814815, 0.0011574074074074073,
     0.0003527336860670194, -0.0001787551440329218, 3.919263178522438e-05,
     -2.1854485106799924e-06, -1.85406221071516e-06, 8.296711340953087e-07,
     -1.7665952736826078e-07, 6.707853543401498e-09, 1.0261809784240309e-08,
     -4.382036018453353e-09, 9.14769958223679e-10, -2.551419399494625e-11, -5.830772132550426e-11,
     2.4361948020667415e-11, -5.0276692801141755e-12, 1.1004392031956135e-13,
     3.3717632624009856e-13, -1.392388722418162e-13, 2.8534893807047445e-14,
     -5.139111834242572e-16, -1.9752288294349442e-15),
    (-0.001851851851851852, -0.003472222222222222, 0.0026455026455026454, -0.0009902263374485596,
     0.00020576131687242798, -4.018775720164609e-07, -1.8098550334489977e-05,
     7.64916091608111e-06, -1.6120900894563446e-06, 4.647127802807434e-09, 1.378633446915721e-07,
     -5.752545603517705e-08, 1.1951628599778148e-08, -1.7543241719747647e-11,
     -1.0091543710600413e-09, 4.162792991842583e-10, -8.56390702649298e-11, 6.067215101604758e-14,
     7.1624989648114856e-12, -2.933186643771437e-12, 5.996696365683689e-13,
     -2.1671786527323313e-16, -4.978339972369262e-14, 2.0291628823713425e-14,
     -4.13125571381061e-15),
    (0.004133597883597883, -0.0026813271604938273, 0.0007716049382716049, 2.0093878600823047e-06,
     -0.00010736653226365161, 5.2923448829120125e-05, -1.2760635188618728e-05,
     3.423578734096138e-08, 1.3721957309062932e-06, -6.298992138380055e-07,
     1.4280614206064242e-07, -2.0477098421990866e-10, -1.409252991086752e-08,
     6.228974084922022e-09, -1.3670488396617112e-09, 9.428356159014678e-13,
     1.2872252400089318e-10, -5.5645956134363323e-11, 1.197593554636698e-11,
     -4.1689782251838634e-15, -1.0940640427884595e-12, 4.662239946390136e-13,
     -9.905105763906907e-14, 1.8931876768373515e-17, 8.859221872591127e-15),
    (0.0006494341563786008, 0.00022947209362139917, -0.0004691894943952557,
     0.00026772063206283885, -7.561801671883977e-05, -2.396505113867297e-07,
     1.1082654115347302e-05, -5.6749528269915965e-06, 1.4230900732435883e-06,
     -2.7861080291528143e-11, -1.6958404091930278e-07, 8.099464905388083e-08,
     -1.9111168485973655e-08, 2.3928620439808118e-12, 2.0620131815488797e-09,
     -9.460496661855133e-10, 2.1541049775774907e-10, -1.388823336813903e-14,
     -2.1894761681963938e-11, 9.790998951171684e-12, -2.178219188018096e-12,
     6.208819573407901e-17, 2.126978363279737e-13, -9.344688791517433e-14, 2.045367122678285e-14),
    (-0.0008618882909167117, 0.0007840392217200666, -0.0002990724803031902,
     -1.4638452578843418e-06, 6.641498215465122e-05, -3.968365047179435e-05,
     1.1375726970678419e-05, 2.507497226237533e-10, -1.6954149536558305e-06,
     8.907507532205309e-07, -2.292934834000805e-07, 2.956794137544049e-11, 2.8865829742708783e-08,
     -1.4189739437803219e-08, 3.4463580499464896e-09, -2.3024517174528067e-13,
     -3.9409233028046403e-10, 1.86023389685045e-10, -4.356323005056618e-11, 1.278600101629623e-15,
     4.67927502665792e-12, -2.149246470613483e-12, 4.908815614809652e-13, -6.33859148489156e-18,
     -5.045332069080094e-14),
    (-0.00033679855336635813, -6.972813758365858e-05, 0.0002772753244959392,
     -0.00019932570516188847, 6.797780477937208e-05, 1.419062920643967e-07,
     -1.3594048189768693e-05, 8.018470256334202e-06, -2.291481176508095e-06,
     -3.252473551298454e-10, 3.4652846491085265e-07, -1.8447187191171344e-07,
     4.8240967037894184e-08, -1.7989466721743514e-14, -6.306194500013523e-09,
     3.162417628774568e-09, -7.840924253697429e-10, 5.192679165254041e-15, 9.358944242306784e-11,
     -4.513426216163278e-11, 1.0799129993116828e-11, -3.661886712685252e-17,
     -1.210902069055155e-12, 5.680743584990564e-13, -1.3249659916340829e-13),
    (0.0005313079364639922, -0.0005921664373536939, 0.0002708782096718045, 7.902353232660328e-07,
     -8.153969367561969e-05, 5.61168275310625e-05, -1.8329116582843375e-05,
     -3.0796134506033047e-09, 3.465155368803609e-06, -2.0291327396058603e-06,
     5.788792863149004e-07, 2.338630673826657e-13, -8.828600746330484e-08, 4.7435958880408125e-08,
     -1.2545415020710382e-08, 8.649648858010293e-14, 1.6846058979264062e-09,
     -8.575492823577594e-10, 2.1598224929232125e-10, -7.613230520476153e-16,
     -2.6639822008536144e-11, 1.3065700536611057e-11, -3.1799163902367977e-12,
     4.710976121367431e-18, 3.6902800842763465e-13),
    (0.00034436760689237765, 5.171790908260592e-05, -0.00033493161081142234,
     0.0002812695154763237, -0.00010976582244684731, -1.2741009095484485e-07,
     2.7744451511563645e-05, -1.8263488805711332e-05, 5.7876949497350525e-06,
     4.93875893393627e-10, -1.0595367014026043e-06, 6.166714376110408e-07,
     -1.7562973359060463e-07, -1.297447328701544e-12, 2.695423606288966e-08,
     -1.4578352908731272e-08, 3.887645959386175e-09, -3.881002251019412e-17,
     -5.327994173877286e-10, 2.7437977643314844e-10, -6.995796092070568e-11,
     2.589986387486848e-17, 8.856689099669639e-12, -4.403168815871311e-12, 1.0865561947091654e-12),
    (-0.0006526239185953094, 0.0008394987206720873, -0.000438297098541721, -6.969091458420552e-07,
     0.00016644846642067547, -0.00012783517679769218, 4.629953263691304e-05,
     4.557909867922708e-09, -1.0595271125805195e-05, 6.783342904865167e-06,
     -2.1075476666258803e-06, -1.7213731432817144e-11, 3.773587741611098e-07,
     -2.1867506700122867e-07, 6.220228804018927e-08, 6.597703826733e-16, -9.590386497425686e-09,
     5.213214492280807e-09, -1.3991589583935709e-09, 5.382058999060575e-16,
     1.9484714275467745e-10, -1.0127287556389682e-10, 2.6077347197254926e-11,
     -5.090418699993299e-18, -3.3721464474854593e-12),
    (-0.0005967612901927463, -7.204895416020011e-05, 0.0006782308837667328,
     -0.0006401475260262758, 0.00027750107634328704, 1.819700838046515e-07,
     -8.479507117068503e-05, 6.105192082501531e-05, -2.1073920183404862e-05,
     -8.858589014125599e-10, 4.5284535953805374e-06, -2.8427815022504407e-06,
     8.708234177864641e-07, 3.6886101871706966e-12, -1.534469519070206e-07, 8.862466778790695e-08,
     -2.5184812301826817e-08, -1.0225912098215092e-14, 3.896947075815478e-09,
     -2.1267304792235634e-09, 5.737013552805138e-10, -1.887749850169741e-19,
     -8.093153869465787e-11, 4.23827232834492e-11, -1.1002224534207727e-11),
    (0.0013324454494800656, -0.0019144384985654776, 0.0011089369134596636, 9.9324041226423e-07,
     -0.0005087450129309319, 0.00042735056665392886, -0.000168588537679108, -8.1301893922785e-09,
     4.5284402370562144e-05, -3.127053674781734e-05, 1.044986828530338e-05,
     4.8435226265680926e-11, -2.148256587345626e-06, 1.329369701097492e-06,
     -4.029569309210103e-07, -1.756787766632329e-13, 7.014504316366825e-08,
     -4.040787734999483e-08, 1.1474026743371962e-08, 3.9642746853563326e-18,
     -1.7804938269892715e-09, 9.748026254873165e-10, -2.6405338676507616e-10,
     5.794875163403742e-18, 3.764774955354384e-11),
    (0.001579727660730835, 0.00016251626278391583, -0.0020633421035543276, 0.00213896861856891,
     -0.0010108559391263003, -3.99127055299192e-07, 0.0003623502508476469,
     -0.00028143901463712157, 0.00010449513336495887, 2.12114184918303e-09,
     -2.5779417251947842e-05, 1.7281818956040464e-05, -5.641377387290428e-06,
     -1.1024320105776174e-11, 1.1223224418895176e-06, -6.869339637952674e-07,
     2.0653236975414888e-07, 4.6714772409838506e-14, -3.5609886164949055e-08,
     2.0470855345905963e-08, -5.809173863328336e-09, -1.332821287582869e-16,
     9.035460439133513e-10, -4.959878251733084e-10, 1.3481607129399748e-10),
    (-0.004072512119514016, 0.00640336283380807, -0.004041016108167662, -2.183732802866233e-06,
     0.002174044180125464, -0.001970044051841889, 0.0008359546974796246, 1.9445447567109655e-08,
     -0.000257793871204217, 0.00019009987368139304, -6.769649993743896e-05,
     -1.4440629666426571e-10, 1.5712512518742267e-05, -1.0304008744776892e-05,
     3.304517767401387e-06, 7.982976024232571e-13, -6.4097794149313e-07, 3.8894624761300054e-07,
     -1.161834764494887e-07, -2.816808630596451e-15, 1.9878012911297094e-08,
     -1.1407719956357511e-08, 3.2355857064185554e-09, 4.175946829345594e-20,
     -5.042311271810582e-10),
    (-0.0059475779383993, -0.0005401647678926045, 0.00879104135507679, -0.009857631558785612,
     0.005013469503102154, 1.2807521786221875e-06, -0.0020626019342754685, 0.0017109128573523059,
     -0.000676953127141338, -6.901154567656214e-09, 0.00018855128143995903,
     -0.0001339521566349197, 4.626318303352804e-05, 4.003423061332135e-11,
     -1.0255652921494033e-05, 6.612086372797651e-06, -2.0913022027253007e-06,
     -2.0951775649603836e-13, 3.975602904199325e-07, -2.395621197881589e-07,
     7.118288338214586e-08, 8.925574873053455e-16, -1.2101547235064675e-08, 6.935061824833439e-09,
     -1.96614644538561e-09),
    (0.01740202778752271, -0.029527880945699123, 0.020045875571402798, 7.0289515966903405e-06,
     -0.012375421071343148, 0.011976293444235253, -0.0054156038466518525, -6.329089339641862e-08,
     0.0018855118129005065, -0.001473473274825001, 0.0005551581009770838, 5.240683441255066e-10,
     -0.00014357913535784837, 9.91812932249433e-05, -3.346083474947831e-05,
     -3.575583729109899e-12, 7.1560851960630075e-06, -4.551680262815553e-06,
     1.4236576649271474e-06, 1.8803149082089665e-14, -2.662340389892921e-07,
     1.5950642189595716e-07, -4.71875146738411e-08, -6.510787295875518e-17, 7.979509102674624e-09),
    (0.03024912416090589, 0.0024817436002649977, -0.049939134373457025, 0.05991564300930787,
     -0.03248320760162339, -5.721296865210344e-06, 0.015085251778569354, -0.013261324005088445,
     0.0055515262632426145, 3.026318225703001e-08, -0.0017229548406756724, 0.0012893570099929638,
     -0.00046845138348319875, -1.830259937893045e-10, 0.00011449739014822654,
     -7.737856522124447e-05, 2.5625836246985202e-05, 1.0766165333192815e-12,
     -5.324680928242262e-06, 3.349634863064464e-06, -1.0381253128684019e-06,
     -5.608909920621128e-15, 1.9150821930676592e-07, -1.1418365800203487e-07,
     3.3654425209171787e-08),
    (-0.09905102088015905, 0.17954011706123485, -0.12989606383463778, -3.1478872752284355e-05,
     0.09051063527684813, -0.0928288244111844, 0.04441211283987781, 2.7779236316835886e-07,
     -0.017229543805449696, 0.014182925050891573, -0.005621416163374734, -2.39598509186381e-09,
     0.0016029634366079909, -0.0011606784674435774, 0.00041001337768153875, 1.836580075409066e-11,
     -9.58442565636559e-05, 6.364306233776471e-05, -2.076250624489065e-05,
     -1.1806020912804483e-13, 4.213180823912065e-06, -2.626224133701247e-06,
     8.077062049493066e-07, 6.012591212363273e-16, -1.472973737401884e-07),
    (-0.19994542198219728, -0.015056113040026424, 0.36470239469348487, -0.4643519231173355,
     0.26640934719197895, 3.403826602714719e-05, -0.13784338709329624, 0.1276467178337056,
     -0.056213828755200985, -1.753150885483011e-07, 0.019235592956768112, -0.015088821281095314,
     0.005740185445135012, 1.0622382710310225e-09, -0.0015335082692563998, 0.0010819320643228215,
     -0.0003737251019394566, -6.617090972903199e-12, 8.426361738090962e-05,
     -5.515070682748348e-05, 1.776953644834807e-05, 3.882792321020553e-14, -3.53513697488768e-06,
     2.186583213004527e-06, -6.68128494476256e-07),
    (0.7243860850402943, -1.3918010932653375, 1.0654143352413967, 0.0001876173868950258,
     -0.827055011761527, 0.8935243334782842, -0.44971003995291337, -1.6107401567546651e-06,
     0.1923559016527109, -0.1659770216004261, 0.06888222268181433, 1.3910091724608687e-08,
     -0.02146911561508663, 0.016228980898865892, -0.005979601617258426, -1.1287469112826745e-10,
     0.0015167451119784856, -0.00104786342935539, 0.0003553907288912642, 8.170432211180152e-13,
     -7.77730134424524e-05, 5.029141389700772e-05, -1.6035083867000518e-05,
     1.2469354315487606e-14, 3.1369106244517616e-06),
    (1.6668949727276812, 0.1165462765994632, -3.3288393225018904, 4.469232548286404,
     -2.6977693045875806, -0.0002600667859891061, 1.5389017615694538, -1.4937962361134611,
     0.6888196463323315, 1.3077482004552384e-06, -0.2576296332559629, 0.21097676102125448,
     -0.08371440835921988, -7.792042888135476e-09, 0.0242679230648336, -0.017813678334552312,
     0.006397033038890006, 4.943080709048052e-11, -0.0015554602758465635, 0.0010561196919903215,
     -0.000352771844604729, 9.300233464502246e-14, 7.528585502655717e-05, -4.818651556915635e-05,
     1.5227271505597605e-05),
    (-6.618829886137293, 13.397985455142589, -10.789350606845145, -0.0014352254537875018,
     9.23336945961898, -10.456552819547769, 5.510552602903347, 1.2024439690716742e-05,
     -2.5762961164755818, 2.320744274538718, -1.0045728797216285, -1.0207833290021913e-07,
     0.3397509217116947, -0.2672051745075747, 0.10235252851562705, 8.432973048487163e-10,
     -0.027998284958442594, 0.020066274144976814, -0.007055436891508624, 1.9402238183698188e-12,
     0.0016562888105449611, -0.0011082898580743682, 0.0003654545161310169, -5.129003202697179e-11,
     -7.634010369686903e-05),
    (-17.112706061976095, -1.1208044642899115, 37.131966511885445, -52.29827102534896,
     33.058589696624615, 0.002479129897620022, -20.61089403411526, 20.88672775145582,
     -10.045703956517752, -1.2238783449063012e-05, 4.077013427422114, -3.473667358470195,
     1.4329352617312006, 7.135991441187971e-08, -0.4479725715911561, 0.3411266608064446,
     -0.12699786326594922, -2.895367726908153e-10, 0.03312577627825986, -0.023274087021036102,
     0.008039999350364889, -1.177805216235265e-09, -0.001832162489107167, 0.0012108282933588664,
     -0.0003947994124682252),
    (73.89033153567425, -156.80141270402274, 132.2177542759164, 0.013692876877324546,
     -123.66496885920151, 146.2068939106273, -80.36558772486535, -0.00011259851148881298,
     40.77013219617994, -38.21034001327303, 17.19522294277362, 9.351970795516835e-07,
     -6.271615990774704, 5.116899907185264, -2.0319658112299095, -4.950721558276154e-09,
     0.596263972943326, -0.44220765337238094, 0.16079998700166273, -2.4733786203223403e-08,
     -0.040307574759979765, 0.02784905074709787, -0.009475185899205422, 6.419922235909132e-06,
     0.002125018077469946),
    (212.1683709838252, 13.107863022633868, -496.9828593287175, 731.215952669692,
     -482.1382172089085, -0.028817248692894887, 326.167203029471, -343.8934028008712,
     171.95193870816232, 0.00014038077378096157, -75.2594195897599, 66.51969984520935,
     -28.447519748152462, -7.613702615875392e-07, 9.540223710530437, -7.517530111331138,
     2.894399756887196, -4.66121949995382e-07, -0.8061514959879409, 0.5848300657063102,
     -0.20845408972964957, 0.00014765818959305816, 0.05100043386375302, -0.03306625214188366,
     0.015109265210467774),
    (-989.5964309832236, 2192.555536090523, -1928.3586782723355, -0.15925738122215252,
     1956.9985945919857, -2407.2514765081555, 1375.6149959336497, 0.0012920735237496668,
     -752.5941715948055, 731.7166874220871, -341.37023466220063, -9.985739026060805e-06,
     133.56313181291574, -112.76295161252794, 46.31039609820446, -7.923738713361476e-06,
     -14.510726927018647, 11.111771248100563, -4.169081794527089, 0.0031008219800117806,
     1.1220095449981469, -0.7605237992614992, 0.36262236505085255, 0.2216867741940747,
     0.48683443692930506),
)
_LANCZOS_NUM = (0.006061842346248906525783753964555936883222,
                0.5098416655656676188125178644804694509993,
                19.51992788247617482847860966235652136208,
                449.9445569063168119446858607650988409623,
                6955.999602515376140356310115515198987526,
                75999.29304014542649875303443598909137092,
                601859.6171681098786670226533699352302507,
                3481712.15498064590882071018964774556468,
                14605578.08768506808414169982791359218571,
                43338889.32467613834773723740590533316085,
                86363131.28813859145546927288977868422342,
                103794043.1163445451906271053616070238554,
                56906521.91347156388090791033559122686859)
_LANCZOS_DEN = (1., 66., 1925., 32670., 357423., 2637558., 13339535., 45995730., 105258076.,
                150917976., 120543840., 39916800., 0.)


def _lgamma_t(x):
    """std::lgamma in x's type (float32: the float64 value rounded)."""
    return np.asarray(_lgamma(x.astype(np.float64)), np.float64).astype(x.dtype)


def _exp_t(x):
    return expf(x) if x.dtype == np.float32 else np.exp(x)


def _igam_eps(dt):
    return dt(1.11022302462515654042E-16 if dt is np.float64 else 5.9604644775390625E-8)


def _ratevl(x, num, den):
    """Boost's ratio of polynomials; |x| > 1 in 1/x, then times std::pow(x, N - M), a
    double (an integer power)."""
    dt = x.dtype.type
    big = np.abs(x) > 1
    with np.errstate(all="ignore"):
        y = np.where(big, dt(1) / x, x)
    outs = []
    for coeffs in (num, den):
        fwd, bwd = np.full_like(x, dt(coeffs[0])), np.full_like(x, dt(coeffs[-1]))
        for c_f, c_b in zip(coeffs[1:], coeffs[-2::-1]):
            fwd = _fma(fwd, y, np.full_like(x, dt(c_f)))
            bwd = _fma(bwd, y, np.full_like(x, dt(c_b)))
        outs.append(np.where(big, bwd, fwd))
    n, d = outs
    with np.errstate(all="ignore"):
        far = (np.power(x.astype(np.float64), float(len(den) - len(num))) *
               n.astype(np.float64) / d.astype(np.float64)).astype(dt)
        return np.where(big, far, n / d)


def _igam_fac(a, x):
    """x^a exp(-x) / Gamma(a), aten's _igam_helper_fac."""
    dt, f64 = a.dtype.type, np.float64
    maxlog = dt(709.782712893383996843 if dt is np.float64 else 88.72283905206835)
    e1, g = dt(2.718281828459045), dt(6.024680040776729583740234375)
    with np.errstate(all="ignore"):
        far = np.abs(a - x).astype(f64) > 0.4 * np.abs(a).astype(f64)
        ax = _fma(a, _libm(np.log, x), -x) - _lgamma_t(a)
        r_far = np.where(ax < -maxlog, dt(0), _exp_t(ax))
        fac = ((a + g).astype(f64) - 0.5).astype(dt)
        res = np.sqrt(fac / e1) / _ratevl(a, _LANCZOS_NUM, _LANCZOS_DEN)
        r_pow = res * (_exp_t(a - x) * _libm(lambda v: np.power(v, a.astype(f64)), x / fac))
        numfac = ((x - a - g).astype(f64) + 0.5).astype(dt) / fac
        inner = (a * (_libm(np.log1p, numfac) - numfac)).astype(f64) + \
            x.astype(f64) * (0.5 - float(g)) / fac.astype(f64)
        r_log = (res.astype(f64) * np.exp(inner)).astype(dt)
        return np.where(far, r_far, np.where((a < 200) & (x < 200), r_pow, r_log))


def _igam_series(a, x):
    """P by DLMF 8.11.4 (aten's _igam_helper_series)."""
    dt = a.dtype.type
    ax = _igam_fac(a, x)
    r, c, ans = a.copy(), np.ones_like(a), np.ones_like(a)
    live, eps = ax != 0, _igam_eps(dt)
    with np.errstate(all="ignore"):
        for _ in range(2000):
            if not live.any():
                break
            r = np.where(live, r + dt(1), r)
            c = np.where(live, c * (x / r), c)
            ans = np.where(live, ans + c, ans)
            live &= ~(c <= eps * ans)
        return np.where(ax == 0, dt(0), ans * ax / a)


def _igamc_series(a, x):
    """Q by DLMF 8.7.3 (aten's _igamc_helper_series)."""
    dt = a.dtype.type
    fac, total = np.ones_like(a), np.zeros_like(a)
    live, eps = np.ones(a.shape, bool), _igam_eps(dt)
    with np.errstate(all="ignore"):
        for n in range(1, 2000):
            if not live.any():
                break
            fac = np.where(live, fac * (-x / dt(n)), fac)
            term = fac / (a + dt(n))
            total = np.where(live, total + term, total)
            live &= ~(np.abs(term) <= eps * np.abs(total))
        logx = _libm(np.log, x)
        term = -_libm(np.expm1, _fma(a, logx, -_lgamma_t(dt(1) + a)))
        return _fma(-_exp_t(_fma(a, logx, -_lgamma_t(a))), total, term)


def _igam_asymptotic(a, x, igam):
    """P (``igam``) or Q by Temme's expansion (aten's _igam_helper_asymptotic_series)."""
    dt, f64 = a.dtype.type, np.float64
    sgn = -1 if igam else 1
    eps = _igam_eps(dt)
    with np.errstate(all="ignore"):
        sigma = (x - a) / a
        root = np.sqrt(dt(-2) * (_libm(np.log1p, sigma) - sigma))
        lam = x / a
        eta = np.where(lam > 1, root, np.where(lam < 1, -root, dt(0)))
        res = (0.5 * _libm(erfc, dt(sgn) * eta * np.sqrt(a / dt(2))).astype(f64)).astype(dt)
        etapow = [np.ones_like(a)]
        for _ in range(1, 25):
            etapow.append(eta * etapow[-1])
        total, afac = np.zeros_like(a), np.ones_like(a)
        absold = np.full_like(a, np.inf)
        live = np.ones(a.shape, bool)
        for row in _IGAM_D:
            ck = np.full_like(a, dt(row[0]))
            open_ = np.ones(a.shape, bool)
            for n in range(1, 25):
                term = dt(row[n]) * etapow[n]
                ck = np.where(open_, ck + term, ck)
                open_ &= ~(np.abs(term) < eps * np.abs(ck))
            term = ck * afac
            absterm = np.abs(term)
            live &= ~(absterm > absold)
            total = np.where(live, total + term, total)
            live &= ~(absterm < eps * np.abs(total))
            absold = np.where(live, absterm, absold)
            afac = np.where(live, afac / a, afac)
            if not live.any():
                break
        pi = dt(np.float32(math.pi))  # (c10::pi<float>, whatever the type)
        tail = sgn * np.exp(-0.5 * a.astype(f64) * eta.astype(f64) * eta.astype(f64)) * \
            total.astype(f64) / np.sqrt(dt(2) * pi * a).astype(f64)
        return (res.astype(f64) + tail).astype(dt)


def _igamc_fraction(a, x):
    """Q by DLMF 8.9.2 (aten's _igamc_helper_continued_fraction)."""
    dt = a.dtype.type
    ax = _igam_fac(a, x)
    big = dt(4.503599627370496e15 if dt is np.float64 else 16777216.)
    biginv = dt(2.22044604925031308085e-16 if dt is np.float64 else 5.9604644775390625E-8)
    eps = _igam_eps(dt)
    with np.errstate(all="ignore"):
        y = dt(1) - a
        z = x + y + dt(1)
        c = np.zeros_like(a)
        pkm2, qkm2, pkm1, qkm1 = np.ones_like(a), x.copy(), x + dt(1), z * x
        ans = pkm1 / qkm1
        live = ax != 0
        for _ in range(2000):
            if not live.any():
                break
            c, y, z = c + dt(1), y + dt(1), z + dt(2)
            yc = y * c
            pk = _fma(pkm1, z, -(pkm2 * yc))
            qk = _fma(qkm1, z, -(qkm2 * yc))
            r = pk / qk
            t = np.where(qk != 0, np.abs((ans - r) / r), dt(1))
            ans = np.where(live & (qk != 0), r, ans)
            pkm2, pkm1 = np.where(live, pkm1, pkm2), np.where(live, pk, pkm1)
            qkm2, qkm1 = np.where(live, qkm1, qkm2), np.where(live, qk, qkm1)
            scale = live & (np.abs(pk) > big)
            pkm2, pkm1, qkm2, qkm1 = (np.where(scale, v * biginv, v)
                                      for v in (pkm2, pkm1, qkm2, qkm1))
            live &= ~(t <= eps)
        return np.where(ax == 0, dt(0), ans * ax)


def _igam_operands(a, x):
    """a and x broadcast, in the kernel's type (float16/bfloat16 compute as float32)."""
    dt = np.result_type(a, x)
    if dt.kind != "f" or dt.itemsize < 4:
        dt = np.dtype(np.float32)
    a, x = np.broadcast_arrays(np.asarray(a, dt), np.asarray(x, dt))
    return np.array(a), np.array(x)


def _igam_temme(a, x):
    """Where aten takes the asymptotic expansion: 20 < a < 200 with |x - a| / a < 0.3, or
    a > 200 with |x - a| / a < 4.5 / sqrt(a)."""
    dt = a.dtype.type
    with np.errstate(all="ignore"):
        r = np.abs(x - a) / a
        return ((a > dt(20)) & (a < dt(200)) & (r < dt(0.3))) | \
            ((a > dt(200)) & (r < dt(4.5) / np.sqrt(a)))


def _gamma_boundaries(a, x, p, upper):
    """calc_igamma/calc_igammac's boundary values (aten Math.h, SciPy's), tested in their
    order before any series: x < 0 or a < 0 NaN; a = 0: P = 1 where x > 0, else NaN; x = 0:
    P = 0; a = inf: NaN where x is infinite, else P = 0 (even for x NaN); x = inf: P = 1.
    ``upper``: the values of Q = 1 - P."""
    a, x = np.broadcast_arrays(_float64(a), _float64(x))
    nan = np.nan
    one, zero = (0.0, 1.0) if upper else (1.0, 0.0)
    return np.select(
        [(x < 0) | (a < 0), a == 0, x == 0, np.isinf(a), np.isinf(x)],
        [nan, np.where(x > 0, one, nan), zero, np.where(np.isinf(x), nan, zero), one], p)


def _igam_branches(a, x, branches):
    """Each element's value from the first branch whose mask holds it, computed on those
    elements alone (the series and fractions iterate until all of theirs converge)."""
    out = np.full(a.shape, np.nan, a.dtype)
    todo = ~(np.isnan(a) | np.isnan(x) | (a <= 0) | (x <= 0) | np.isinf(a) | np.isinf(x))
    for mask, fn in branches:
        m = todo & mask
        if m.any():
            out[m] = fn(a[m], x[m])
        todo &= ~m
    return out


def _gammaincc_t(a, x):
    f64 = np.float64
    with np.errstate(all="ignore"):
        x64, a64 = x.astype(f64), a.astype(f64)
        one_minus_p = np.where(x64 > 1.1, x < a, np.where(
            x64 <= 0.5, -0.4 / np.log(x64) < a64, x64 * 1.1 < a64))
    return _igam_branches(a, x, [
        (_igam_temme(a, x), lambda a, x: _igam_asymptotic(a, x, False)),
        (one_minus_p, lambda a, x: a.dtype.type(1) - _igam_series(a, x)),
        (x64 > 1.1, _igamc_fraction), (np.ones(a.shape, bool), _igamc_series)])


def gammainc(a, x):
    """P(a, x), aten's calc_igamma (Note [igamma as PyTorch's])."""
    a, x = _igam_operands(a, x)
    out = _igam_branches(a, x, [
        (_igam_temme(a, x), lambda a, x: _igam_asymptotic(a, x, True)),
        ((x > 1) & (x > a), lambda a, x: (1.0 - _gammaincc_t(a, x).astype(np.float64))
         .astype(a.dtype)),
        (np.ones(a.shape, bool), _igam_series)])
    return _gamma_boundaries(a, x, out, False).astype(a.dtype)


def gammaincc(a, x):
    """Q(a, x), aten's calc_igammac."""
    a, x = _igam_operands(a, x)
    return _gamma_boundaries(a, x, _gammaincc_t(a, x), True).astype(a.dtype)


# Note [oneDNN's GELU]
# ~~~~~~~~~~~~~~~~~~~~
# PyTorch's CPU gelu (approximate="none") of a contiguous float32 tensor of more than one
# element is oneDNN's eltwise_gelu_erf (aten's gelu_out_cpu / gelu_backward_out_cpu take
# it whenever use_mkldnn(self)), not aten's own kernel: a JIT kernel whose AVX-512 forward
# is a piecewise minimax polynomial in |x| (25 degree-5 polynomials picked by x's exponent
# and two mantissa bits, erf(x / sqrt 2) = sign(x) P(|x|), then x (1 + erf) / 2), and whose
# backward is Abramowitz and Stegun's 7.1.26 erf with oneDNN's own exp (q = floor(x log2 e
# + 1/2), a degree-5 polynomial in the remainder, times 2^(q-1) times 2). Ported here
# instruction for instruction, each vfmadd a float64 product plus sum rounded once (Note
# [SLEEF's expf]): equal to PyTorch's on all 200,020 inputs of linspace(-20, 20, 200001)
# with zeros, infinities, NaN and subnormals, forward and backward (23% and 42% of them
# differed with the logistic approximation before). Constants are oneDNN's table entries.
# ~6 x the logistic approximation's time (1024 x 512 forward + backward: 1.9 -> 12 ms), so
# it runs up to raw.PORTED_MAX elements (Note [Size of the ported kernels] in raw.py).
def _f32bits(*h):
    return np.array(h, np.uint32).view(np.float32)


_GELU_ERF_POLY = _f32bits(  # (6 degrees x 25 polynomials; index 0 is never picked)
    0xa6f2cb94, 0x32827792, 0x3381cc0c, 0x34523d4a, 0x351ac44d, 0x35f36d88, 0x36ee8229,
    0x37b8a3bb, 0x3867a213, 0x3940033b, 0x3a2a5a1d, 0x3ae35863, 0x3b7828f2, 0x3c08b14b,
    0x3c515ed3, 0xbb503236, 0xbd8d8e5e, 0xbe8abcd9, 0xbf0c19a2, 0xbeccb328, 0x3e176ced,
    0x3f470d99, 0x3f7abb28, 0x3f800000, 0,
    0x3f4c422a, 0x3f4c421f, 0x3f4c4207, 0x3f4c41cb, 0x3f4c413b, 0x3f4c3fad, 0x3f4c3a2f,
    0x3f4c2d40, 0x3f4c146a, 0x3f4bc341, 0x3f4ad08c, 0x3f48f8cf, 0x3f45fac7, 0x3f404e07,
    0x3f3b980f, 0x3f48dff3, 0x3f78b21b, 0x3fbb0704, 0x40019c32, 0x3fe536d6, 0x3f81331e,
    0x3e6c8684, 0x3c98f936, 0, 0x3f800000,
    0xb62173f4, 0x3735e4cf, 0x37f2ff89, 0x388c23be, 0x3917535c, 0x39ab2ab0, 0x3a60fadb,
    0x3af9b960, 0x3b6e5491, 0x3c0a4ec5, 0x3ca5aa8c, 0x3d2138d9, 0x3d8737d4, 0x3ddfb660,
    0x3e0f27ab, 0x3d94004b, 0xbe0efdeb, 0xbf1d96c3, 0xbf89db58, 0xbf6d9897, 0xbef69fb8,
    0xbdc4f8a8, 0xbbde6422, 0, 0,
    0xbe081a19, 0xbe084570, 0xbe08639b, 0xbe089837, 0xbe08f409, 0xbe09ab95, 0xbe0b66d0,
    0xbe0e400a, 0xbe124df8, 0xbe1bde02, 0xbe2f19c9, 0xbe4931bf, 0xbe685fbc, 0xbe89c95f,
    0xbe96cbca, 0xbe8044aa, 0xbe0550f2, 0x3dcfd6a1, 0x3e94c826, 0x3e79345f, 0x3decec91,
    0x3ca46568, 0x3aa1e00a, 0, 0,
    0xba3d61db, 0x39f097a3, 0x3a5845dc, 0x3ab1fa35, 0x3b0cefb8, 0x3b653ab6, 0x3bcae527,
    0x3c221712, 0x3c6c5840, 0x3cc0a703, 0x3d1dcc19, 0x3d63656d, 0x3d955907, 0x3dbf9910,
    0x3dd53f69, 0x3db7dcef, 0x3d639ebe, 0xba6ede48, 0xbd22be69, 0xbd041cf1, 0xbc64f5ab,
    0xbb097a32, 0xb8ebf380, 0, 0,
    0x3cb7d80c, 0x3c9b6050, 0x3c978d11, 0x3c92e850, 0x3c8d058b, 0x3c848454, 0x3c6cd623,
    0x3c4c824b, 0x3c2a7935, 0x3be0b390, 0x3b0651ac, 0xbb232f53, 0xbbd42fa0, 0xbc2c5366,
    0xbc492c9e, 0xbc2a7aa6, 0xbbd55d04, 0xba823a76, 0x3b102aa8, 0x3ae25a7e, 0x3a31f792,
    0x38b84375, 0x3689bb5a, 0, 0).reshape(6, 25).astype(np.float64)
_GELU_ERF_RBOUND = _f32bits(0x40b15cee)[0]
_AS_P = tuple(float(c) for c in _f32bits(0x3ea7ba05, 0x3f3504f3, 0x3f106eba))
_AS_POLY = tuple(float(c) for c in _f32bits(0x3f87dc22, 0xbfba00e3, 0x3fb5f0e3, 0xbe91a98e,
                                            0x3e827906))
_DNNL_EXP_POLY = tuple(float(c) for c in _f32bits(0x3c07cfce, 0x3d2b9d0d, 0x3e2aad40,
                                                  0x3efffee3, 0x3f7ffffb))
_DNNL_LN_FLT_MIN, _DNNL_LN_FLT_MAX, _DNNL_LOG2E, _DNNL_LN2 = _f32bits(
    0xc2aeac50, 0x42b17218, 0x3fb8aa3b, 0x3f317218)


def _blockwise(kernel, *arrays):
    """kernel over BLOCK-sized pieces of same-shaped float32 arrays (their float64
    temporaries stay in cache), into a new float32 array of their shape."""
    flats = [np.asarray(a, np.float32).reshape(-1) for a in arrays]
    out = np.empty(flats[0].size, np.float32)
    with np.errstate(all="ignore"):
        for b in blocks(out.size):
            out[b] = kernel(*(f[b] for f in flats))
    return out.reshape(np.shape(arrays[0]))


def _xor_sign(a, s):
    """a with s's sign bit xor-ed in, in place (vxorps with s & sign_mask)."""
    a.view(np.int32)[...] ^= s.view(np.int32) & np.int32(-0x80000000)


def _onednn_gelu(x):
    xp = np.abs(x)
    idx = (xp.view(np.int32) + np.int32(-0x3de00001)) >> 21  # (vpaddd wraps: NaN -> 24)
    np.clip(idx, 1, 24, out=idx)
    idx[xp > _GELU_ERF_RBOUND] = 23
    idx = idx.astype(np.intp)
    xd = xp.astype(np.float64)
    pol = np.take(_GELU_ERF_POLY[5], idx)
    c = np.empty_like(pol)
    for d in range(4, -1, -1):  # (fused multiply-adds, rounded to float32 in place)
        pol *= xd
        pol += np.take(_GELU_ERF_POLY[d], idx, out=c)
        xp[...] = pol
        pol[...] = xp
    pol = xp
    _xor_sign(pol, x)
    pol += np.float32(1)
    pol *= x
    pol *= np.float32(0.5)
    return pol


def onednn_gelu(x):
    """oneDNN's AVX-512 gelu_erf forward of a float32 array (Note [oneDNN's GELU])."""
    return _blockwise(_onednn_gelu, x)


def _fma32_inplace(acc, b, c, buf):
    """acc = fl32(acc * b + c) in place, acc float64 holding float32 values (the product
    exact), ``buf`` a float32 array of acc's shape for the rounding."""
    acc *= b
    acc += c
    buf[...] = acc
    acc[...] = buf


def _onednn_expf(x):
    """oneDNN's JIT exp of a float32 array (exp_compute_vector_fwd)."""
    under = x < _DNNL_LN_FLT_MIN
    x = np.minimum(x, _DNNL_LN_FLT_MAX)  # (vminps: NaN -> the bound)
    x[np.isnan(x)] = _DNNL_LN_FLT_MAX
    np.maximum(x, _DNNL_LN_FLT_MIN, out=x)
    fx = x * _DNNL_LOG2E
    fx += np.float32(0.5)
    np.floor(fx, out=fx)
    r = fx.astype(np.float64)
    _fma32_inplace(r, -float(_DNNL_LN2), x, x)
    y = np.full_like(r, _DNNL_EXP_POLY[0])
    for c in _DNNL_EXP_POLY[1:] + (1.0,):
        _fma32_inplace(y, r, c, x)
    p = ((fx - np.float32(1)).astype(np.int32) + 127) << 23
    p[under] = 0
    x[...] = y
    x *= p.view(np.float32)
    x *= np.float32(2)
    return x


def _onednn_gelu_backward(x, g):
    f = np.float32
    r = x * f(_AS_P[1])
    q = _onednn_expf(-(r * r))
    t = r * f(_AS_P[2])
    t *= q
    buf = np.abs(r)
    w = buf.astype(np.float64)
    _fma32_inplace(w, _AS_P[0], 1.0, buf)
    np.divide(f(1), buf, out=buf)
    w[...] = buf
    q *= buf
    np.negative(q, out=q)
    p = np.full_like(w, _AS_POLY[0])
    for c in _AS_POLY[1:]:
        _fma32_inplace(p, w, c, buf)
    p *= q
    p += 1.0
    e = p.astype(f)
    _xor_sign(e, r)
    t += f(0.5)
    p[...] = e
    p *= 0.5
    p += t
    out = p.astype(f)
    out *= g
    return out


def onednn_gelu_backward(x, g):
    """oneDNN's AVX-512 gelu_erf backward, g * GELU'(x), of float32 arrays (Note [oneDNN's
    GELU])."""
    return _blockwise(_onednn_gelu_backward, x, g)


# Note [SLEEF's log1pf and tanhf]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# Vectorized<float>::log1p and ::tanh (softplus', log_sigmoid's and mish's SIMD loops) are
# SLEEF's Sleef_log1pf16_u10 and Sleef_tanhf16_u10. log1pf: e = getexp((1 + x) / 0.75),
# m = x 2^-e + (2^-e - 1) fused, then 2 atanh(m / (2 + m)) + e ln 2 in double-float
# arithmetic with a cubic tail (as Note [SLEEF's logf]). tanhf: e^|x| as a double-float
# (expk2f: q = rint(|x| / ln 2), the remainder in two steps, a polynomial in double-float,
# 2^q in two multiplications), then (e - 1/e) / (e + 1/e) in double-float, 1 beyond
# 8.664339742. Ported step for step with SLEEF's df.h (its FMA variants: the AVX-512
# build has ENABLE_FMA_SP), each fused multiply-add a float64 product plus sum rounded
# once; float32 temporaries (float64 ones only inside _fma_f).
def _fms_f(a, b, c):
    """float32 a * b - c, fused (vfmapn)."""
    return _f32(a.astype(np.float64) * b - c)


def _fnma_f(a, b, c):
    """float32 c - a * b, fused (vfmanp)."""
    return _f32(c - a.astype(np.float64) * b)


def _df_mul_f(xx, xy, y):
    """dfmul_vf2_vf2_vf."""
    s = xx * y
    return s, _fma_f(xy, y, _fms_f(xx, y, s))


def _df_mul_ff(xx, xy, yx, yy):
    """dfmul_vf2_vf2_vf2."""
    s = xx * yx
    return s, _fma_f(xx, yy, _fma_f(xy, yx, _fms_f(xx, yx, s)))


def _df_squ(xx, xy):
    """dfsqu_vf2_vf2."""
    s = xx * xx
    return s, _fma_f(xx + xx, xy, _fms_f(xx, xx, s))


def _df_div(nx, ny, dx, dy):
    """dfdiv_vf2_vf2_vf2 (FMA variant)."""
    t = np.float32(1) / dx
    s = nx * t
    u = _fms_f(t, nx, s)
    v = _fnma_f(dy, t, _fnma_f(dx, t, np.float32(1)))
    return s, _fma_f(s, v, _fma_f(ny, t, u))


def _df_rec(dx, dy):
    """dfrec_vf2_vf2 (FMA variant)."""
    s = np.float32(1) / dx
    return s, s * _fnma_f(dy, s, _fnma_f(dx, s, np.float32(1)))


def _df_add2_ff(xx, xy, yx, yy):
    """dfadd2_vf2_vf2_vf2."""
    s = xx + yx
    v = s - xx
    t = (xx - (s - v)) + (yx - v)
    return s, t + (xy + yy)


def _df_add2_fv(xx, xy, y):
    """dfadd2_vf2_vf2_vf."""
    s = xx + y
    v = s - xx
    return s, ((xx - (s - v)) + (y - v)) + xy


def _df_add_ff(xx, xy, yx, yy):
    """dfadd_vf2_vf2_vf2 (|x| >= |y|)."""
    s = xx + yx
    return s, (((xx - s) + yx) + xy) + yy


_ALL_ONES_NAN = np.array(-1, np.int32).view(np.float32)  # (a mask or-ed in: all bits set)


def sleef_log1pf(x):
    """SLEEF's log1pf (u10) of a float32 array, bit for bit (Note [SLEEF's log1pf and
    tanhf])."""
    d = np.asarray(x, np.float32).reshape(-1)
    f = np.float32
    with np.errstate(all="ignore"):
        dp1 = d + f(1)
        p = dp1 * f(1 / 0.75)
        e = _f32(np.frexp(p)[1] - 1)  # (vgetexp)
        e[p == 0] = -np.inf
        e[np.isinf(p)] = 128
        ei = np.where(np.isfinite(e), e, 0).astype(np.int32)
        t = ((np.int32(0x3F800000) - (ei << 23)).astype(np.int32)).view(f)  # 2^-e
        m = _fma_f(d, t, t - f(1))
        sx, sy = _df_mul_f(np.full_like(e, f(0.69314718246459960938)),
                           np.full_like(e, f(-1.904654323148236017e-09)), e)
        dx = f(2) + m  # dfadd_vf2_vf_vf(2, m)
        dy = (f(2) - dx) + m
        qx, qy = _df_div(m, np.zeros_like(m), dx, dy)
        x2 = qx * qx
        tt = _fma_f(np.full_like(x2, f(0.3027294874)), x2, f(0.3996108174))
        tt = _fma_f(tt, x2, f(0.6666694880))
        sx, sy = _df_add_ff(sx, sy, qx * f(2), qy * f(2))
        w = (x2 * qx) * tt  # dfadd_vf2_vf2_vf(s, w)
        hi = sx + w
        r = hi + (((sx - hi) + w) + sy)
        r[d > f(1e38)] = np.inf
        r[f(-1) > d] = _ALL_ONES_NAN  # (vor with the mask)
        r[d == f(-1)] = -np.inf
        r[(d == 0) & np.signbit(d)] = -0.0
    return r.reshape(np.shape(x))


_SLEEF_EXPK2F_POLY = tuple(float(np.float32(c)) for c in (
    0.1980960224e-3, 0.1394256484e-2, 0.8333456703e-2, 0.4166637361e-1))


def _sleef_ldexp2(d, q):
    """vldexp2_vf_vf_vi2: d 2^(q >> 1) 2^(q - (q >> 1)), two roundings."""
    h = q >> 1
    return d * _pow2i(h) * _pow2i(q - h)


def _sleef_expk2f(y):
    """SLEEF's expk2f of (y, 0) for a float32 array y >= 0: e^y as a double-float."""
    f = np.float32
    u = y * _SLEEF_R_LN2F
    q = np.rint(u)
    q[~(np.abs(q) < 256)] = 0  # (inf and NaN and |y| > 177: the caller replaces them)
    qf = q.astype(f)
    qi = q.astype(np.int32)
    sx, sy = _df_add2_fv(y, np.zeros_like(y), qf * f(-_SLEEF_L2UF))
    sx, sy = _df_add2_fv(sx, sy, qf * f(-_SLEEF_L2LF))
    c0, *cs = _SLEEF_EXPK2F_POLY
    u = np.full_like(sx, f(c0))
    for c in cs:
        u = _fma_f(u, sx, f(c))
    tx, ty = _df_mul_f(sx, sy, u)
    tx, ty = _df_add2_fv(tx, ty, f(0.166666659414234244790680580464))
    tx, ty = _df_mul_ff(sx, sy, tx, ty)
    tx, ty = _df_add2_fv(tx, ty, f(0.5))
    qx, qy = _df_squ(sx, sy)
    tx, ty = _df_mul_ff(qx, qy, tx, ty)
    tx, ty = _df_add2_ff(sx, sy, tx, ty)
    hx = f(1) + tx  # dfadd_vf2_vf_vf2(1, t)
    hy = ((f(1) - hx) + tx) + ty
    return _sleef_ldexp2(hx, qi), _sleef_ldexp2(hy, qi)


def sleef_tanhf(x):
    """SLEEF's tanhf (u10) of a float32 array, bit for bit (Note [SLEEF's log1pf and
    tanhf])."""
    a = np.asarray(x, np.float32).reshape(-1)
    with np.errstate(all="ignore"):
        y = np.abs(a)
        dx, dy = _sleef_expk2f(y)
        ex, ey = _df_rec(dx, dy)
        nx, ny = _df_add_ff(dx, dy, -ex, -ey)
        mx, my = _df_add_ff(dx, dy, ex, ey)
        qx, qy = _df_div(nx, ny, mx, my)
        r = qx + qy
        r[(y > np.float32(8.664339742)) | np.isnan(r)] = 1
        _xor_sign(r, a)
        r[np.isnan(a)] = _ALL_ONES_NAN  # (vor with the mask)
    return r.reshape(np.shape(x))


# Note [glibc's log1pf, expm1f and tanhf]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# The scalar loops of those kernels (the tail of a contiguous run past its last whole pair
# of vectors, a strided inner dim, a tensor of fewer than 32 elements) call std::log1p and
# std::tanh on floats: glibc's log1pf and tanhf (tanhf through expm1f), fdlibm's float
# algorithms in glibc 2.36, compiled without FMA. They differ from the correctly rounded
# float on 3% (log1pf of exp(x)) and 8% (tanhf) of inputs; ported here branch for branch
# over whole arrays (each branch computed where it applies, selected by masks).
def _bits(x):
    return np.asarray(x, np.float32).view(np.int32)


def _from_bits(i):
    return np.asarray(i, np.int32).view(np.float32)


def glibc_log1pf(x):
    """glibc's log1pf of a float32 array (Note [glibc's log1pf, expm1f and tanhf])."""
    f = np.float32
    x = np.asarray(x, f).reshape(-1)
    hx = _bits(x)
    ax = hx & 0x7FFFFFFF
    ln2_hi, ln2_lo = f(6.9313812256e-01), f(9.0580006145e-06)
    lp = [f(c) for c in (6.6666668653e-01, 4.0000000596e-01, 2.8571429849e-01,
                         2.2222198546e-01, 1.8183572590e-01, 1.5313838422e-01,
                         1.4798198640e-01)]
    with np.errstate(all="ignore"):
        small = hx < 0x3ED413D7
        k0 = small & ((hx > 0) | (hx <= np.int32(-0x416A09E1)))  # (0xbe95f61f)
        # the k != 0 reduction
        big = hx >= 0x5A000000
        u = np.where(big, x, f(1) + x)
        hu = _bits(u)
        k = (hu >> 23) - 127
        c = np.where(k > 0, f(1) - (u - x), x - (u - f(1))) / u
        c[big] = 0
        hu = hu & 0x007FFFFF
        up = hu >= 0x3504F7
        u = _from_bits(np.where(up, hu | 0x3F000000, hu | 0x3F800000))
        k = np.where(up, k + 1, k)
        hu = np.where(up, (0x00800000 - hu) >> 2, hu)
        fr = u - f(1)
        fr = np.where(k0, x, fr)
        k = np.where(k0, 0, k)
        hu = np.where(k0, 1, hu)
        c = np.where(k0, f(0), c)
        kf = k.astype(f)
        hfsq = f(0.5) * fr * fr
        # hu == 0 (|f| < 2^-20)
        r_z = np.where(k == 0, f(0), kf * ln2_hi + (c + kf * ln2_lo))
        rr = hfsq * (f(1) - f(0.66666666666666666) * fr)
        r_h = np.where(k == 0, fr - rr, kf * ln2_hi - ((rr - (kf * ln2_lo + c)) - fr))
        r_h = np.where(fr == 0, r_z, r_h)
        sq = fr / (f(2) + fr)
        z = sq * sq
        rr = lp[6]
        for cf in lp[5::-1]:
            rr = cf + z * rr
        rr = z * rr
        r = np.where(k == 0, fr - (hfsq - sq * (hfsq + rr)),
                     kf * ln2_hi - ((hfsq - (sq * (hfsq + rr) + (kf * ln2_lo + c))) - fr))
        r = np.where(hu == 0, r_h, r)
        r = np.where(hx >= 0x7F800000, x + x, r)
        tiny = small & (ax < 0x31000000)
        r = np.where(tiny, np.where(ax < 0x24800000, x, x - x * x * f(0.5)), r)
        neg1 = small & (ax >= 0x3F800000)
        r = np.where(neg1, np.where(x == f(-1), f(-np.inf), f(np.nan)), r)
    return r.astype(f)


def glibc_expm1f(x):
    """glibc's expm1f of a float32 array (Note [glibc's log1pf, expm1f and tanhf])."""
    f = np.float32
    x = np.asarray(x, f).reshape(-1)
    hx = _bits(x)
    neg = hx < 0
    hx = hx & 0x7FFFFFFF
    ln2_hi, ln2_lo, invln2 = f(6.9313812256e-01), f(9.0580006145e-06), f(1.4426950216e+00)
    q = [f(c) for c in (-3.3333335072e-02, 1.5873016091e-03, -7.9365076090e-05,
                        4.0082177293e-06, -2.0109921195e-07)]
    with np.errstate(all="ignore"):
        near = (hx > 0x3EB17218) & (hx < 0x3F851592)
        far = hx >= 0x3F851592
        kk = (invln2 * x + np.where(neg, f(-0.5), f(0.5)))
        kk = np.where(far & np.isfinite(kk), kk, 0).astype(np.int32)  # (C truncation)
        tk = kk.astype(f)
        hi = np.where(near, np.where(neg, x + ln2_hi, x - ln2_hi), x - tk * ln2_hi)
        lo = np.where(near, np.where(neg, -ln2_lo, ln2_lo), tk * ln2_lo)
        k = np.where(near, np.where(neg, -1, 1), kk)
        red = hx > 0x3EB17218
        xr = np.where(red, hi - lo, x)
        c = np.where(red, (hi - xr) - lo, f(0))
        k = np.where(red, k, 0)
        hfx = f(0.5) * xr
        hxs = xr * hfx
        r1 = q[4]
        for cf in q[3::-1]:
            r1 = cf + hxs * r1
        r1 = f(1) + hxs * r1
        t = f(3) - r1 * hfx
        e = hxs * ((r1 - t) / (f(6) - xr * t))
        r_k0 = xr - (xr * e - hxs)
        e = (xr * (e - c) - c) - hxs
        r_m1 = f(0.5) * (xr - e) - f(0.5)
        r_p1 = np.where(xr < f(-0.25), -f(2) * (e - (xr + f(0.5))), f(1) + f(2) * (xr - e))
        sh = (k << 23).astype(np.int32)
        y = f(1) - (e - xr)
        r_far = _from_bits(_bits(y) + sh) - f(1)
        kc = np.clip(k, 0, 31)
        t1 = _from_bits(0x3F800000 - (0x1000000 >> kc))
        r_lt23 = _from_bits(_bits(t1 - (e - xr)) + sh)
        t2 = _from_bits(((0x7F - np.clip(k, 0, 127)) << 23).astype(np.int32))
        r_ge23 = _from_bits(_bits((xr - (e + t2)) + f(1)) + sh)
        r = np.where(k < 23, r_lt23, r_ge23)
        r = np.where((k <= -2) | (k > 56), r_far, r)
        r = np.where(k == 1, r_p1, r)
        r = np.where(k == -1, r_m1, r)
        r = np.where(k == 0, r_k0, r)
        r = np.where(~red & (hx < 0x33000000), x, r)
        huge = hx >= 0x4195B844
        r = np.where(huge & neg, f(-1), r)
        r = np.where((hx >= 0x42B17218) & (x > f(8.8721679688e+01)), f(np.inf), r)
        r = np.where(hx == 0x7F800000, np.where(neg, f(-1), x), r)
        r = np.where(hx > 0x7F800000, x + x, r)
    return r.astype(f)


def glibc_tanhf(x):
    """glibc's tanhf of a float32 array (Note [glibc's log1pf, expm1f and tanhf])."""
    f = np.float32
    x = np.asarray(x, f).reshape(-1)
    jx = _bits(x)
    ix = jx & 0x7FFFFFFF
    with np.errstate(all="ignore"):
        ax = np.abs(x)
        ge1 = ix >= 0x3F800000
        t = glibc_expm1f(np.where(ge1, f(2) * ax, -f(2) * ax))
        z = np.where(ge1, f(1) - f(2) / (t + f(2)), -t / (t + f(2)))
        z = np.where(ix < 0x24000000, ax * (f(1) + ax), z)  # (x (1 + x), sign applied below)
        z = np.where(ix >= 0x41B00000, f(1), z)
        r = np.where(jx >= 0, z, -z)
        r = np.where(ix < 0x24000000, x * (f(1) + x), r)
        r = np.where(ix == 0, x, r)
        r = np.where(ix >= 0x7F800000, np.where(jx >= 0, f(1) / x + f(1), f(1) / x - f(1)), r)
    return r.astype(f)


def torch_log1pf(x, simd):
    """PyTorch's float log1p of a float32 array in a kernel of its own: SLEEF's where
    ``simd`` (its SIMD loop), glibc's elsewhere (its scalar loop)."""
    return _simd_or_scalar(x, simd, sleef_log1pf, glibc_log1pf)


def torch_tanhf(x, simd):
    """PyTorch's float tanh of a float32 array in a kernel of its own, as torch_log1pf."""
    return _simd_or_scalar(x, simd, sleef_tanhf, glibc_tanhf)


def _simd_or_scalar(x, simd, sleef, glibc):
    x = np.asarray(x, np.float32)
    if simd is not None and simd.all():
        return sleef(x)
    out = glibc(x).reshape(x.shape)
    if simd is not None:
        out[simd] = sleef(x[simd])
    return out


_ERFF = {k: tuple(np.float32(c) for c in v) for k, v in dict(
    pp=(1.2837916613e-01, -3.2504209876e-01, -2.8481749818e-02, -5.7702702470e-03,
        -2.3763017452e-05),
    qq=(1.0, 3.9791721106e-01, 6.5022252500e-02, 5.0813062117e-03, 1.3249473704e-04,
        -3.9602282413e-06),
    pa=(-2.3621185683e-03, 4.1485610604e-01, -3.7220788002e-01, 3.1834661961e-01,
        -1.1089469492e-01, 3.5478305072e-02, -2.1663755178e-03),
    qa=(1.0, 1.0642088205e-01, 5.4039794207e-01, 7.1828655899e-02, 1.2617121637e-01,
        1.3637083583e-02, 1.1984500103e-02),
    ra=(-9.8649440333e-03, -6.9385856390e-01, -1.0558626175e+01, -6.2375331879e+01,
        -1.6239666748e+02, -1.8460508728e+02, -8.1287437439e+01, -9.8143291473e+00),
    sa=(1.0, 1.9651271820e+01, 1.3765776062e+02, 4.3456588745e+02, 6.4538726807e+02,
        4.2900814819e+02, 1.0863500214e+02, 6.5702495575e+00, -6.0424413532e-02),
    rb=(-9.8649431020e-03, -7.9928326607e-01, -1.7757955551e+01, -1.6063638306e+02,
        -6.3756646729e+02, -1.0250950928e+03, -4.8351919556e+02),
    sb=(1.0, 3.0338060379e+01, 3.2579251099e+02, 1.5367296143e+03, 3.1998581543e+03,
        2.5530502930e+03, 4.7452853394e+02, -2.2440952301e+01)).items()}


def _horner_f(cs, z):
    """cs[0] + z * (cs[1] + z * (...)) in float32, unfused (fdlibm's nesting)."""
    r = np.full_like(z, cs[-1])
    for c in cs[-2::-1]:
        r = c + z * r
    return r


def glibc_erff(x):
    """glibc 2.36's erff (fdlibm's float erf, no FMA) of a float32 array: the scalar loop
    of aten's float32 GELU (std::erf)."""
    f = np.float32
    x = np.asarray(x, f).reshape(-1)
    hx = _bits(x)
    ix = hx & 0x7FFFFFFF
    efx, erx = f(1.2837916613e-01), f(8.4506291151e-01)
    c = _ERFF
    with np.errstate(all="ignore"):
        z = x * x
        small = x + x * (_horner_f(c["pp"], z) / _horner_f(c["qq"], z))
        tiny = np.where(ix < 0x04000000, f(0.0625) * (f(16) * x + (f(16) * efx) * x),
                        x + efx * x)
        s = np.abs(x) - f(1)
        pq = _horner_f(c["pa"], s) / _horner_f(c["qa"], s)
        mid = np.where(hx >= 0, erx + pq, -erx - pq)
        ax = np.abs(x)
        s = f(1) / (ax * ax)
        lo = ix < 0x4036DB6E
        rs = np.where(lo, _horner_f(c["ra"], s) / _horner_f(c["sa"], s),
                      _horner_f(c["rb"], s) / _horner_f(c["sb"], s))
        zz = _from_bits(_bits(ax) & np.int32(-0x1000))
        r = expf(-zz * zz - f(0.5625)) * expf((zz - ax) * (zz + ax) + rs)
        big = np.where(hx >= 0, f(1) - r / ax, r / ax - f(1))
        out = np.where(ix < 0x40C00000, big, np.where(hx >= 0, f(1), f(-1)))
        out = np.where(ix < 0x3FA00000, mid, out)
        out = np.where(ix < 0x3F580000, np.where(ix < 0x31800000, tiny, small), out)
        out = np.where(ix >= 0x7F800000, np.where(hx >= 0, f(1), f(-1)) + f(1) / x, out)
    return out.astype(f)


def aten_erff(x):
    """Vectorized<float>::erf on AVX-512 (vec512_float.h) of a float32 array: Abramowitz
    and Stegun's 7.1.26 with fused multiply-adds and SLEEF's expf of -x^2."""
    f = np.float32
    x = np.asarray(x, f)
    with np.errstate(all="ignore"):
        a = np.abs(x).astype(np.float64)
        t = f(1) / _f32(a * float(f(0.3275911)) + 1.0)
        td = t.astype(np.float64)
        r = np.full_like(td, float(f(1.061405429)))
        for cf in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
            r = _fma32(r, td, float(f(cf)))
        e = sleef_expf(-(x * x))
        e = -e
        e *= t
        out = _f32(e.astype(np.float64) * r + 1.0)
        _xor_sign(out, x)
    return out
