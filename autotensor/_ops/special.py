"""Special functions and the pointwise leftovers of the catalogue (issue 11): modified Bessel
functions (i0, i0e, i1, i1e), mvlgamma, the normal distribution's ndtr/ndtri/log_ndtr,
erfcx, entr, xlog1py, Hurwitz zeta, heaviside, nextafter, isposinf/isneginf/isreal and
prelu's kernel. ``autotensor.special`` re-exports these with the aliases of existing ops.

Kernels run in float64 (float32 inputs are computed in double and rounded once), without
SciPy: Bessel functions by their power series for |x| <= 30 and the asymptotic series
beyond (NumPy's i0 is Cephes', as PyTorch's); zeta by Cephes' Euler-Maclaurin sum with
Bernoulli numbers computed exactly. erfcx and log_ndtr are PyTorch's own algorithms in the
input's type (_erfcx.py: float32 bit for bit).
"""
import math
from fractions import Fraction

from .. import _dtypes
from .._backend import np
from .._tensor import Tensor
from . import _erfcx, _specfun
from .dispatch import check_broadcast, defop, view_errors_before_checks
from ._common import (_asarray, _check_tensor_arg, _finish, _inplace_unary, _state, _unary,
                      _unary_fn, refuse_complex)
from ..autograd.forward_ad import fallback_checks, refuse_unsupported
from .pointwise import (
    _float_args, _fw_not_implemented, _not_implemented, _refuse_complex_result, MUL_SCALAR,
    ADD_SCALAR, RRELU_, erf)


def _f64(x):
    return np.asarray(x, dtype=np.float64)


def _back(out, like):
    return _asarray(np.asarray(out, dtype=np.float64).astype(like.dtype, copy=False))


def _via(F, kernel, fn, *args):
    """A formula step that is an op of this family: its kernel on arrays, its public function
    on tensors (Note [One formula, two interpretations] in raw.py)."""
    return kernel(*args) if F.is_raw else fn(*args)


_NOT_YET = (" because it has not been implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so "
            "that we can prioritize its implementation or submit a PR adding the "
            "implementation to derivatives.yaml")


# ---- kernels --------------------------------------------------------------------------------
_ASYMPTOTIC_FROM = 30.0


def _bessel_series(x, nu):
    """I_nu(x) for nu in (0, 1) by its power series (all terms positive: no cancellation)."""
    h2 = (x / 2) ** 2
    term = (x / 2) ** nu / math.gamma(nu + 1) * np.ones_like(x)
    total = term.copy()
    for k in range(1, 120):
        term = term * h2 / (k * (k + nu))
        total += term
    return total


def _bessel_e_asymptotic(x, nu):
    """exp(-x) I_nu(x) for large x > 0: sum_k (-1)^k a_k(nu) / x^k / sqrt(2 pi x)."""
    mu = 4.0 * nu * nu
    term = np.ones_like(x)
    total = term.copy()
    for k in range(1, 40):
        term = -term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        total += term
    return total / np.sqrt(2 * np.pi * x)


def _i_e(x, nu):
    """exp(-|x|) I_nu(|x|)."""
    a = np.abs(_f64(x))
    small = a <= _ASYMPTOTIC_FROM
    out = np.empty_like(a)
    out[small] = _bessel_series(a[small], nu) * np.exp(-a[small])
    out[~small] = _bessel_e_asymptotic(a[~small], nu)
    return out


# Note [Float32 Bessel functions as PyTorch's]
# PyTorch computes i0, i0e, i1 and i1e of float32 (and of float16/bfloat16, upcast) with
# Cephes' Chebyshev series in float arithmetic (ATen's calc_i0 ... calc_i1e, Math.h; i1's
# float tables are shorter), each Clenshaw step x * b1 - b2 fused (its CPU kernels are
# built with FMA), times glibc's expf: a float64 result rounded would differ by an ulp now
# and then, and trunc, floor, == see it (i0(0) is 0.99999994 there, not 1). These are the
# same steps; equal to PyTorch's on 200,000 points in [-100, 100] and the special values.
_I0E_A = (-4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
          1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
          -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
          9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
          -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
          1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
          -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
          1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
          -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
          1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1)
_I0E_B = (-7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
          3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
          1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
          -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
          7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
          -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
          3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
          2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
          8.04490411014108831608E-1)
_I1E_A_FLOAT = (9.38153738649577178388E-9, -4.44505912879632808065E-8,
                2.00329475355213526229E-7, -8.56872026469545474066E-7,
                3.47025130813767847674E-6, -1.32731636560394358279E-5,
                4.78156510755005422638E-5, -1.61760815825896745588E-4,
                5.12285956168575772895E-4, -1.51357245063125314899E-3,
                4.15642294431288815669E-3, -1.05640848946261981558E-2,
                2.47264490306265168283E-2, -5.29459812080949914269E-2,
                1.02643658689847095384E-1, -1.76416518357834055153E-1,
                2.52587186443633654823E-1)
_I1E_B_FLOAT = (-3.83538038596423702205E-9, -2.63146884688951950684E-8,
                -2.51223623787020892529E-7, -3.88256480887769039346E-6,
                -1.10588938762623716291E-4, -9.76109749136146840777E-3,
                7.78576235018280120474E-1)


def _chbevl_float32(x, coeffs):
    """Cephes' chbevl in float32, each x * b1 - b2 fused (one rounding: the float32 product
    is exact in float64)."""
    f = np.float32
    x64 = x.astype(np.float64)
    b0, b1, b2 = np.full_like(x, f(coeffs[0])), np.zeros_like(x), None
    for c in coeffs[1:]:
        b2, b1 = b1, b0
        b0 = (x64 * b1 - b2).astype(f) + f(c)
    return f(0.5) * (b0 - b2)


def _bessel_float32(x, a_coeffs, b_coeffs):
    """|x|, its two series (|x| <= 8 and above) and sqrt(|x|), in float32."""
    f = np.float32
    a = np.abs(np.asarray(x, f))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return (a, a <= f(8), _chbevl_float32(a / f(2) - f(2), a_coeffs),
                _chbevl_float32(f(32) / a - f(2), b_coeffs), np.sqrt(a))


def _low_float(x):
    return x.dtype.kind in "fV" and x.dtype.itemsize <= 4


def _float32_back(out, x):
    return _asarray(np.asarray(out, np.float32).astype(x.dtype, copy=False))


def i0_kernel(x):
    if _low_float(x):  # Note [Float32 Bessel functions as PyTorch's]
        a, small, ca, cb, sq = _bessel_float32(x, _I0E_A, _I0E_B)
        with np.errstate(invalid="ignore", over="ignore"):
            e = _specfun.expf(a)
            return _float32_back(np.where(small, e * ca, e * cb / sq), x)
    return _back(np.i0(_f64(x)), x)


def i0e_kernel(x):
    if _low_float(x):
        a, small, ca, cb, sq = _bessel_float32(x, _I0E_A, _I0E_B)
        with np.errstate(invalid="ignore", divide="ignore"):
            return _float32_back(np.where(small, ca, cb / sq), x)
    a = np.abs(_f64(x))
    big = a > 700
    out = np.asarray(np.i0(np.where(big, 0.0, a)) * np.exp(-a))  # (a 0-d array too)
    out[big] = _bessel_e_asymptotic(a[big], 0)
    return _back(out, x)


def _i1_float32(x, scaled):
    a, small, ca, cb, sq = _bessel_float32(x, _I1E_A_FLOAT, _I1E_B_FLOAT)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        if scaled:
            out = np.where(small, ca * a, cb / sq)
        else:
            e = _specfun.expf(a)
            out = np.where(small, e * a * ca, e * cb / sq)
    return _float32_back(np.where(np.asarray(x) < 0, -out, out), x)


def i1e_kernel(x):
    if _low_float(x):
        return _i1_float32(x, True)
    return _back(np.sign(_f64(x)) * _i_e(x, 1), x)


def i1_kernel(x):
    if _low_float(x):
        return _i1_float32(x, False)
    a = np.abs(_f64(x))
    with np.errstate(over="ignore"):
        out = np.sign(_f64(x)) * _i_e(x, 1) * np.exp(a)
    return _back(out, x)


_HALF_NAMES = {"float16": "Half", "bfloat16": "BFloat16"}


def _no_half_kernel(name, x):
    """PyTorch's CPU build has no float16/bfloat16 kernel for erfcx, ndtri and log_ndtr."""
    half = _HALF_NAMES.get(getattr(x, "dtype", x).name)
    if half is not None:
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{half}'")


def erfcx_kernel(x):
    _no_half_kernel("erfcx", x)
    return _asarray(_erfcx.erfcx(x))


def ndtri_kernel(p):
    _no_half_kernel("ndtri", p)
    return _specfun.ndtri(p)


def log_ndtr_kernel(x):
    _no_half_kernel("log_ndtr", x)
    return _asarray(_erfcx.log_ndtr(x))


def entr_kernel(x):
    """-x log(x), 0 at 0, -inf below. PyTorch's kernel runs in the tensor's type: log(x)
    is rounded to it before the product (float32, float16 and bfloat16 alike)."""
    if x.dtype.itemsize <= 4 and x.dtype.kind in "fV":
        x32 = x.astype(np.float32)
        with np.errstate(divide="ignore", invalid="ignore"):
            lg = np.log(np.where(x32 > 0, x32, 1).astype(np.float64)).astype(x.dtype).astype(
                np.float32)
            out = np.where(x32 > 0, -x32 * lg, np.where(x32 == 0, 0.0, -np.inf))
        return _asarray(np.where(np.isnan(x32), np.nan, out).astype(x.dtype))
    x64 = _f64(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(x64 > 0, -x64 * np.log(np.where(x64 > 0, x64, 1)),
                       np.where(x64 == 0, 0.0, -np.inf))
    return _back(np.where(np.isnan(x64), np.nan, out), x)


def xlog1py_kernel(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        out = a * np.log1p(b)
    return _asarray(np.where((a == 0) & ~np.isnan(b), 0, out).astype(out.dtype, copy=False))


def _bernoulli_ratios():
    """(2k)! / B_2k for k = 1..12, exactly (Cephes' table A of zeta); the Bernoulli numbers
    by the Akiyama-Tanigawa algorithm."""
    bern = []
    a = [Fraction(0)] * 26
    for m in range(26):
        a[m] = Fraction(1, m + 1)
        for j in range(m, 0, -1):
            a[j - 1] = j * (a[j - 1] - a[j])
        bern.append(a[0])
    return [float(math.factorial(2 * k) / bern[2 * k]) for k in range(1, 13)]


_ZETA_A = _bernoulli_ratios()
_MACHEP = 1.11022302462515654042e-16


def _zeta1(x, q):
    """Hurwitz zeta(x, q) = sum_k (k + q)^-x, Cephes' algorithm."""
    if x == 1.0:
        return math.inf
    if x < 1.0 or math.isnan(x) or math.isnan(q):
        return math.nan
    if math.isinf(q):  # (-inf: a pole; inf: Math.h's loops make 0 * inf in the tail)
        return math.inf if q < 0 else math.nan
    if q <= 0.0:
        if q == math.floor(q):
            return math.inf
        if x != math.floor(x):
            return math.nan
    s = q ** -x
    a = q
    i = 0
    b = 0.0
    while i < 9 or a <= 9.0:
        i += 1
        a += 1.0
        b = a ** -x
        s += b
        if -_MACHEP * s < b < _MACHEP * s:
            return s
    w = a
    s += b * w / (x - 1.0)
    s -= 0.5 * b
    a = 1.0
    k = 0.0
    for i in range(12):
        a *= x + k
        b /= w
        t = a * b / _ZETA_A[i]
        s += t
        if abs(t / s) < _MACHEP:
            return s
        k += 1.0
        a *= x + k
        b /= w
        k += 1.0
    return s


_zeta_u = np.frompyfunc(_zeta1, 2, 1)


def zeta_kernel(x, q):
    arrays = [a for a in (x, q) if isinstance(a, np.ndarray)]  # a Python number is weak
    dt = np.result_type(*arrays) if arrays else np.dtype(np.float64)
    if dt.itemsize == 2:  # (TensorIterator's shape check, before the dtype dispatch)
        from .dispatch import check_broadcast
        check_broadcast(np.shape(x), np.shape(q))
    _no_half_kernel("zeta", dt)
    if dt == np.float32:  # zeta<float>: its first term powf (Note [PyTorch's polygamma])
        shape = np.broadcast_shapes(np.shape(x), np.shape(q))
        x32, q32 = np.asarray(x, np.float32), np.asarray(q, np.float32)
        return _asarray(_specfun._zeta_cephes(x32, q32, np.float64, first_pow_single=True)
                        .astype(np.float32).reshape(shape))
    out = _zeta_u(_f64(x), _f64(q))
    return _asarray(np.asarray(out, dtype=np.float64).astype(dt, copy=False))


def mvlgamma_kernel(x, p):
    """(PyTorch's composite sums over a new last dim: its result is contiguous whatever
    the input's layout.)"""
    x64 = np.asarray(_f64(x), order="C")
    out = p * (p - 1) / 4 * math.log(math.pi)
    for j in range(p):
        out = out + _specfun.lgamma(x64 - j / 2)
    return _back(out, x)


# ---- table entries --------------------------------------------------------------------------
I0 = defop("i0", "I0Backward0", i0_kernel, jvp="elementwise",
           grads={"self": lambda F, grad, self: grad * _via(F, i1_kernel, i1, self)})
I0E = defop("special_i0e", "SpecialI0EBackward0", i0e_kernel, jvp="elementwise",
            grads={"self": lambda F, grad, self, result: grad * (
                _via(F, i1e_kernel, i1e, self) - F.sgn(self) * result)})
def _no_half_backward(name, x):
    """PyTorch's i1_backward/i1e_backward (its i1/i1e derivative, backward and forward) has
    no float16/bfloat16 kernel: its dispatch error (without _no_half_kernel's "_cpu")."""
    half = _HALF_NAMES.get(getattr(x, "_data", x).dtype.name)
    if half is not None:
        raise NotImplementedError(f"\"{name}\" not implemented for '{half}'")


def _not_tiny(F, self):
    """PyTorch's i1/i1e backward: |x| > eps, x elsewhere replaced by eps (a NaN is 'tiny':
    its gradient is the limit 0.5, as PyTorch's)."""
    eps = float(np.finfo(getattr(self, "_data", self).dtype).eps)
    not_tiny = F.abs(self) > eps
    return not_tiny, F.where(not_tiny, self, eps)


def _i1_backward(F, grad, self, result):
    _no_half_backward("i1_backward", self)
    not_tiny, safe = _not_tiny(F, self)
    return grad * F.where(not_tiny, _via(F, i0_kernel, i0, safe) - result * F.reciprocal(safe),
                          0.5)


def _i1e_backward(F, grad, self, result):
    _no_half_backward("i1e_backward", self)
    not_tiny, safe = _not_tiny(F, self)
    return grad * F.where(not_tiny, _via(F, i0e_kernel, special_i0e, safe) - result * (
        F.sgn(safe) + F.reciprocal(safe)), 0.5)


I1 = defop("special_i1", "SpecialI1Backward0", i1_kernel, jvp="elementwise",
           grads={"self": _i1_backward})
I1E = defop("special_i1e", "SpecialI1EBackward0", i1e_kernel, jvp="elementwise",
            grads={"self": _i1e_backward})
ERFCX = defop("special_erfcx", "SpecialErfcxBackward0", erfcx_kernel, jvp="elementwise",
              grads={"self": lambda F, grad, self, result: (
                  2.0 * self * result - 2.0 / math.sqrt(math.pi)) * grad})
NDTRI = defop("special_ndtri", "SpecialNdtriBackward0", ndtri_kernel, jvp="elementwise",
              grads={"self": lambda F, grad, result: F.mul(grad, math.sqrt(2 * math.pi)) * F.exp(
                  F.pow(result, 2) / 2)})
LOG_NDTR = defop("special_log_ndtr", "SpecialLogNdtrBackward0", log_ndtr_kernel,
                 jvp="elementwise",
                 # (C++'s grad / std::sqrt(2 * M_PI): div.Scalar)
                 grads={"self": lambda F, grad, self, result: F.div_scalar(
                     grad, math.sqrt(2 * math.pi)) * F.exp(-(result + F.pow(self, 2) / 2))})
ENTR = defop("special_entr", "SpecialEntrBackward0", entr_kernel, jvp="elementwise",
             grads={"self": lambda F, grad, self: grad * -(1 + F.log(self))})
XLOG1PY = defop("special_xlog1py", "SpecialXlog1PyBackward0", xlog1py_kernel,
                inputs=("self", "other"), jvp="elementwise",
                grads={"self": lambda F, grad, self, other: F.masked_fill(  # (as xlogy's)
                    F.xlog1py(grad, other), (self == 0) & (other <= -1), 0),
                       "other": lambda F, grad, self, other: grad * self / (other + 1)})
XLOG1PY.dense_zero_terms = {0: None}  # (as xlogy's: Note [Dense zero terms] in pointwise.py)
XLOG1PY.keeps_zero_tangent = "dense"  # (its masks materialize: Note [Zero-tensor tangents])
XLOG1PY_SCALAR_SELF = defop(
    "special_xlog1py", "SpecialXlog1PyBackward1", lambda b, a: xlog1py_kernel(
        np.asarray(a, b.dtype), b), inputs=("other",), params=("self",), jvp="elementwise",
    grads={"other": lambda F, grad, self, other: grad * self / (other + 1)})
XLOG1PY_SCALAR_OTHER = defop(
    "special_xlog1py", "SpecialXlog1PyBackward2", lambda a, b: xlog1py_kernel(
        a, np.asarray(b, a.dtype)), params=("other",), jvp="elementwise",
    grads={"self": lambda F, grad, self, other: F.xlog1py(grad, other) if other > -1 else
           F.masked_fill(F.xlog1py(grad, other), self == 0, 0)})
XLOG1PY_SCALAR_OTHER.keeps_zero_tangent = "dense"  # (as xlogy's Scalar_Other)
MVLGAMMA = defop("mvlgamma", "MvlgammaBackward0", mvlgamma_kernel, params=("p",),
                 jvp="elementwise",
                 grads={"self": lambda F, grad, self, p: grad * _sum_digamma(F, self, p)},
                 layout="contiguous")


def _zeta_self(F, grad):
    # (derivatives.yaml's ``self: not_implemented("zeta")``: NotImplementedError, in its words)
    raise NotImplementedError("the derivative for 'zeta' is not implemented.")


ZETA = defop("special_zeta", "SpecialZetaBackward0", zeta_kernel, inputs=("self", "other"),
             jvp=_fw_not_implemented("special_zeta", _NOT_YET),
             grads={"self": _zeta_self,
                    "other": lambda F, grad, self, other: grad * -self * _via(
                        F, zeta_kernel, special_zeta, self + 1.0, other)})
ZETA_SCALAR_OTHER = defop("special_zeta", "SpecialZetaBackward2", zeta_kernel,
                          params=("other",), jvp=_fw_not_implemented("special_zeta", _NOT_YET),
                          grads={"self": _zeta_self})
ZETA_SCALAR_SELF = defop("special_zeta", "SpecialZetaBackward1",
                         lambda q, x: zeta_kernel(x, q), inputs=("other",), params=("self",),
                         jvp=_fw_not_implemented("special_zeta", _NOT_YET),
                         grads={"other": lambda F, grad, self, other: grad * -self * _via(
                             F, zeta_kernel, special_zeta, self + 1.0, other)})
HEAVISIDE = defop("heaviside", "torch::autograd::NotImplemented",
                  lambda a, b: _asarray(np.where(a == 0, b, (a > 0).astype(a.dtype))
                                        .astype(a.dtype, copy=False)),
                  inputs=("self", "values"),
                  grads={"self": _not_implemented("heaviside"),
                         "values": _not_implemented("heaviside")},
                  jvp=_fw_not_implemented("aten::heaviside"))
# PyTorch 2.13 (found by experiment): the gradient passes to self except where self equals
# other (0 there), other gets zeros; the tangent is self's, 0 where self equals other, and
# none without self_t (its rule reads self_t only, in self_t's dtype)
def nextafter_kernel(a, b):
    """std::nextafter: np.nextafter for float32/64; float16 and bfloat16 (NumPy has no
    bfloat16 loop, and its float16 one returns x, not y, where x == y: nextafter(0, -0) is -0)
    stepped on their bits."""
    if a.dtype.itemsize != 2 or a.dtype.kind not in "fV":
        return np.nextafter(a, b)
    a, b = np.broadcast_arrays(a, b)
    bits = a.view(np.uint16).astype(np.int32)
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    away = (b32 > a32) == (a32 > 0)  # one step away from zero, else towards it
    step = np.where(a32 == 0, (b32 < 0).astype(np.int32) << 15 | 1,
                    bits + np.where(away, 1, -1)).astype(np.uint16).view(a.dtype)
    out = np.where(a32 == b32, b, step)
    return np.where(np.isnan(a32) | np.isnan(b32), np.float32("nan"), out.astype(np.float32)
                    ).astype(a.dtype)


NEXTAFTER = defop("nextafter", "NextafterBackward0", nextafter_kernel, inputs=("self", "other"),
                  # (PyTorch's at::where(self != other, grad, 0))
                  grads={"self": lambda F, grad, self, other: F.where(self != other, grad, 0),
                         "other": lambda F, grad: F.zeros_like(grad)},
                  jvp=lambda F, self, self_t, other: None if self_t is None else F.where(
                      self != other, self_t, 0))


def _sum_digamma(F, x, p):
    """PyTorch's mvlgamma_backward: digamma of x + arange(-p/2 + 1/2, 1/2, 1/2) (x in a new
    last dim), summed over it (so a graph of it is Sum(Digamma(Add(Unsqueeze))))."""
    args = F.constant(np.arange(-p / 2 + 0.5, 0.5, 0.5), x) + F.unsqueeze(x, -1)
    return F.sum(F.digamma(args), (-1,))


# ---- public functions -----------------------------------------------------------------------
i0 = _unary_fn(I0, "The modified Bessel function of the first kind, order 0.")
special_i0e = _unary_fn(I0E, "exp(-|x|) i0(x).")
i1 = _unary_fn(I1, "The modified Bessel function of the first kind, order 1.")
i1e = _unary_fn(I1E, "exp(-|x|) i1(x).")
erfcx = _unary_fn(ERFCX, "The scaled complementary error function exp(x^2) erfc(x).")
ndtri = _unary_fn(NDTRI, "The inverse of the standard normal CDF.")
log_ndtr = _unary_fn(LOG_NDTR, "log of the standard normal CDF, accurate in the far tail.")
entr = _unary_fn(ENTR, "-x log(x) (0 at 0, -inf below).")


def i0_(self):
    return _inplace_unary(I0, self, (), float_op=True)


def ndtr(input):
    """The standard normal CDF, as PyTorch composes it: (1 + erf(x / sqrt 2)) * 0.5."""
    (x,) = _float_args(input)
    t = _scalar_op(MUL_SCALAR, x, (math.sqrt(0.5),))
    t = _scalar_op(ADD_SCALAR, erf(t), (1, 1))
    return _scalar_op(MUL_SCALAR, t, (0.5,))


def _scalar_op(op, x, params):
    """x op number, recorded as the Scalar overload (MulBackward1...) as PyTorch's C++ does."""
    out = _asarray(op.kernel(x._data, *params))
    return _finish(op, (x,), params, out)


def xlog1py(input, other):
    """input * log1p(other), 0 where input is 0 (unless other is NaN)."""
    if not isinstance(input, Tensor) or not isinstance(other, Tensor):
        _refuse_complex_result("special_xlog1py", input, other)  # (a complex number, or a
    if not isinstance(input, Tensor):  # number with a complex tensor)
        (o,) = _float_args(other)
        out = xlog1py_kernel(np.asarray(input, o._data.dtype), o._data)
        return _finish(XLOG1PY_SCALAR_SELF, (o,), (input,), out)
    if not isinstance(other, Tensor):
        (a,) = _float_args(input)
        out = xlog1py_kernel(a._data, np.asarray(other, a._data.dtype))
        return _finish(XLOG1PY_SCALAR_OTHER, (a,), (other,), out)
    from ._common import _binary
    return _binary(XLOG1PY, *_float_args(input, other))


def special_zeta(input, other):
    """The Hurwitz zeta function sum_k (k + other)^-input."""
    if _state.fw:  # (no forward rule: refused before the kernel)
        refuse_unsupported(ZETA, input, other)
    if not isinstance(input, Tensor) or not isinstance(other, Tensor):
        _refuse_complex_result("special_zeta", input, other)  # (as xlog1py's)
    if not isinstance(input, Tensor):
        (q,) = _float_args(other)
        out = zeta_kernel(np.asarray(input, q._data.dtype), q._data)
        return _finish(ZETA_SCALAR_SELF, (q,), (input,), out)
    if not isinstance(other, Tensor):
        (x,) = _float_args(input)
        out = zeta_kernel(x._data, np.asarray(other, x._data.dtype))
        return _finish(ZETA_SCALAR_OTHER, (x,), (other,), out)
    from ._common import _binary
    return _binary(ZETA, *_float_args(input, other))


def _mvlgamma_check(input, p):
    """PyTorch's mvlgamma_check, then its composite's arange (no complex kernel)."""
    d = input._data.dtype
    if d == np.bool_:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    if d.kind == "c":
        raise NotImplementedError("\"arange_cpu\" not implemented for "
                                  f"'{_dtypes.scalar_name(_dtypes.from_numpy(d))}'")


@view_errors_before_checks
def mvlgamma(input, p):
    """The multivariate log-gamma function of dimension p."""
    _mvlgamma_check(input, p)
    return _unary(MVLGAMMA, input, True, (p,))


def mvlgamma_(self, p):
    from ..autograd import inplace
    inplace.check_inplace(self, (self,), inference=False)  # (autograd's checks first)
    _mvlgamma_check(self, p)
    d = self._data.dtype
    if d.kind in "iu":  # (its own message: the dtypes named the other way round)
        raise RuntimeError(f"mvlgamma: result type "
                           f"{_dtypes.scalar_name(_dtypes.from_numpy(d))} can't be cast to "
                           f"the desired output type {_dtypes.scalar_name(_dtypes.default_float)}")
    return _inplace_unary(MVLGAMMA, self, (p,), float_op=True)


def _heaviside_check(input, values):
    """heaviside's own checks, in its order: complex operands, then differing dtypes."""
    if input._data.dtype.kind == "c" or values._data.dtype.kind == "c":
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    if input._data.dtype != values._data.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different "
                           "dtypes.")


def heaviside(input, values):
    _check_tensor_arg("heaviside", "input", input, 1)  # (the argument parser's: no Scalar
    _check_tensor_arg("heaviside", "values", values, 2)  # overload)
    fallback_checks("heaviside", input, values)
    _heaviside_check(input, values)
    from ._common import _binary
    return _binary(HEAVISIDE, input, values)


def heaviside_(self, values):
    from ._common import _inplace_binary
    fallback_checks("heaviside_", self, values)
    from ..autograd import inplace
    inplace.check_inplace(self, (self, values))  # (autograd's checks before the kernel's)
    _heaviside_check(self, values)
    return _inplace_binary(HEAVISIDE, self, values)


def nextafter(input, other):
    from ._common import _binary
    if input._data.dtype.kind not in "fcV" and other._data.dtype.kind not in "fcV":
        check_broadcast(input._data.shape, other._data.shape)
        rt = _dtypes.result_type(input, other)
        raise NotImplementedError(f"\"nextafter_cpu\" not implemented for "
                                  f"'{_dtypes.legacy_type_name(rt)[6:-6]}'")
    return _binary(NEXTAFTER, input, other)


def nextafter_(self, other):
    from ._common import _inplace_binary, inplace_float_kernel
    if self._data.dtype.kind not in "fV" or other._data.dtype.kind not in "fV":
        inplace_float_kernel(self, other, "nextafter_cpu")
    return _inplace_binary(NEXTAFTER, self, other)


def isposinf(input):
    from .._tensor import _make
    d = input._data
    if d.dtype.kind == "c":
        refuse_complex("isposinf", d.dtype)
    return _make(_asarray(d == np.inf))  # (bfloat16 included: NumPy kind "V")


def isneginf(input):
    from .._tensor import _make
    d = input._data
    if d.dtype.kind == "c":
        refuse_complex("isneginf", d.dtype)
    return _make(_asarray(d == -np.inf))  # (bfloat16 included: NumPy kind "V")


def isreal(input):
    from .._tensor import _make
    d = input._data
    return _make(_asarray(d.imag == 0 if d.dtype.kind == "c" else np.ones(d.shape, bool)))



def _prelu_kernel(a, w):
    return _asarray(np.where(a > 0, a, a * w))


def _prelu_jvp(F, self, self_t, weight, weight_t):
    """PyTorch's ``where(self_p >= 0, self_t, weight_p * self_t + weight_t * self_p)`` (at
    self = 0 the tangent is self_t, where the backward takes weight): a missing tangent is a
    zero tensor, its product one too (the sum is the other term, which keeps -0.0), and
    where's zeros +0.0; the tangent still reads the primals of the zero terms (its graph)."""
    from .pointwise import _plus_zero_reads
    if self_t is None:
        pos, neg = F.zeros_like(self), _plus_zero_reads(weight_t * self, (weight,))
    elif weight_t is None:
        pos, neg = self_t, _plus_zero_reads(weight * self_t, (self,))
    else:
        pos, neg = self_t, weight * self_t + weight_t * self
    return F.where(self >= 0, pos, neg)


def _prelu_backward_kernel(grad, self, weight):
    """aten's _prelu_kernel_backward: (x > 0 ? g : w * g, x > 0 ? 0 : x * g) (no g * 0: an
    infinite gradient gives 0 where x > 0)."""
    pos = self > 0
    with np.errstate(invalid="ignore", over="ignore"):
        gi = np.where(pos, grad, weight * grad)
        gw = np.where(pos, 0, self * grad)
    dt = np.result_type(self, weight)
    return (_asarray(gi.astype(dt, copy=False)), _asarray(gw.astype(dt, copy=False)))


def _prelu_double_backward(F, grads, grad_output, self, weight):
    """derivatives.yaml's _prelu_kernel_backward (grad_output, self, weight) formulas."""
    g0, g1 = grads
    zero = 0  # (at::zeros({}): a where() of a 0-d zero, +0.0)
    nonneg = self >= 0
    if g0 is not None:
        go = F.where(nonneg, g0, g0 * weight + g1 * self if g1 is not None else g0 * weight)
    elif g1 is not None:
        go = F.where(nonneg, zero, g1 * self)
    else:
        go = None
    gs = F.where(nonneg, zero, grad_output * g1) if g1 is not None else F.zeros_like(self)
    gw = F.where(nonneg, zero, grad_output * g0) if g0 is not None else F.zeros_like(self)
    return _fit(F, (go, gs, gw), (grad_output, self, weight))


def _prelu_backward_jvp(F, grad_output, grad_output_t, self, self_t, weight, weight_t):
    """result0 / result1 of _prelu_kernel_backward; absent tangents are zero tensors (their
    products vanish, where() materializes +0.0)."""
    nonneg = self >= 0
    neg0 = [] if grad_output_t is None else [grad_output_t * weight]
    if weight_t is not None:
        neg0.append(grad_output * weight_t)
    neg1 = [] if self_t is None else [grad_output * self_t]
    if grad_output_t is not None:
        neg1.append(grad_output_t * self)

    def total(terms):
        return 0 if not terms else terms[0] if len(terms) == 1 else terms[0] + terms[1]
    r0 = F.where(nonneg, 0 if grad_output_t is None else grad_output_t, total(neg0))
    r1 = F.where(nonneg, 0, total(neg1))
    # (a zero tangent's product with a primal that requires grad records: AddBackward0)
    from .pointwise import _plus_zero_reads
    reads0 = ([weight] if grad_output_t is None else []) + ([grad_output] if weight_t is None
                                                            else [])
    reads1 = ([grad_output] if self_t is None else []) + ([self] if grad_output_t is None
                                                          else [])
    return _plus_zero_reads(r0, reads0), _plus_zero_reads(r1, reads1)


# (Note [Activation backward ops]: PreluKernelBackwardBackward0 under create_graph)
PRELU_BACKWARD = defop(
    "_prelu_kernel_backward", "PreluKernelBackwardBackward0", _prelu_backward_kernel,
    inputs=("grad_output", "self", "weight"), outputs=("result0", "result1"),
    backward_all=_prelu_double_backward, jvp=_prelu_backward_jvp)
PRELU = defop("_prelu_kernel", "PreluKernelBackward0", _prelu_kernel, inputs=("self", "weight"),
              jvp=_prelu_jvp, layout="like",  # (at::empty_like(self): an empty one too)
              backward_all=lambda F, grad, self, weight: _fit(
                  F, F.prelu_kernel_backward(grad, self, weight), (self, weight)))


def _fit(F, outs, inputs):
    """Each gradient summed to its input's shape (the engine's validate_outputs: the weight
    viewed to broadcast gets the broadcast shape's gradient)."""
    return tuple(g if g is None or tuple(g.shape) == tuple(x.shape) else
                 F.sum_to(g, tuple(x.shape)) for g, x in zip(outs, inputs))
PRELU.promotes_tangent = True


def prelu(input, weight):
    """max(0, x) + weight * min(0, x), weight per channel (dim 1), as PyTorch: weight viewed
    to broadcast, then one _prelu_kernel node."""
    from ._common import _binary
    from .shape import reshape
    d, w = input._data, weight._data
    if d.dtype != w.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got "
                           f"{_dtypes.scalar_name(input.dtype)} and "
                           f"{_dtypes.scalar_name(weight.dtype)}")
    if w.size != 1:
        if d.ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = d.shape[1] if d.ndim > 1 else 1
        if channels != w.size:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                               f"parameter numbers = {w.size} and channel size = {channels}.")
    if w.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {w.ndim}")
    if d.dtype.kind in "biu":  # (aten's prelu checks, then _prelu_kernel's dispatch)
        raise NotImplementedError(f"\"prelu_cpu\" not implemented for "
                                  f"'{_dtypes.legacy_type_name(input.dtype)[6:-6]}'")
    if d.ndim != w.ndim:
        shape = [1] * d.ndim
        if d.ndim > 1:
            shape[1] = w.size
        weight = reshape(weight, tuple(shape))
    return _binary(PRELU, input, weight)


def _round_decimals(a, decimals):
    if decimals == 0:
        return _asarray(np.round(a))
    scale = 10.0 ** abs(decimals)
    if decimals > 0:
        return _asarray(np.round(a * scale) / scale).astype(a.dtype, copy=False)
    return _asarray(np.round(a / scale) * scale).astype(a.dtype, copy=False)


ROUND_DECIMALS = defop("round", "RoundBackward1", _round_decimals, params=("decimals",),
                       grads={"self": lambda F, grad: F.zeros_like(grad)}, jvp="elementwise")


def special_round(input, *, decimals=0):
    """torch.special.round: round(x, decimals=...) (one RoundBackward1 node)."""
    if input._data.dtype.kind in "biu":
        raise NotImplementedError(f"\"round_cpu\" not implemented for "
                                  f"'{_dtypes.legacy_type_name(input.dtype)[6:-6]}'")
    return _unary(ROUND_DECIMALS, input, False, (decimals,))


# ---- rrelu in training mode -------------------------------------------------------------------
# PyTorch's rrelu_with_noise_backward (grad where self > 0, grad * noise elsewhere; noise
# is 1 there): an op reading self (Note [Activation backward ops] in pointwise.py)
_NOISE_GRAD = {"self": lambda F, grad, self, noise: F.rrelu_with_noise_backward(grad, self,
                                                                                 noise)}
RRELU_WITH_NOISE = defop("rrelu_with_noise", "RreluWithNoiseBackward0",
                         lambda a, noise: _asarray(a * noise), params=("noise",),
                         grads=_NOISE_GRAD, jvp="elementwise", layout="contiguous")
RRELU_WITH_NOISE_ = defop("rrelu_with_noise_", "RreluWithNoiseBackward1",
                          lambda a, noise: _asarray(a * noise), params=("noise",),
                          grads=_NOISE_GRAD, jvp=RRELU_.jvp)  # (PyTorch has none)


def _rrelu_noise(d, lower, upper):
    """PyTorch's CPU kernel: one uniform_real_distribution<double>(lower, upper) draw (one
    64-bit word) per element <= 0, in order; 1 elsewhere."""
    from .. import _random
    neg = d <= 0
    n = int(neg.sum())
    noise = np.ones(d.shape, dtype=d.dtype)
    if n:
        g = _random._gen(None)
        with g._lock:
            w = g._raw64(n) & np.uint64((1 << 53) - 1)
        lo, hi = (float(d.dtype.type(v)) for v in (lower, upper))  # (as opmath_t first)
        r = w.astype(np.float64) * (2.0 ** -53) * (hi - lo) + lo
        noise[neg] = r.astype(d.dtype)
    return noise


def rrelu_train(input, lower, upper, inplace):
    """F.rrelu(training=True): x * r for x <= 0, r ~ U(lower, upper) from the global
    generator as PyTorch draws it (the same masks given the seed)."""
    from ..autograd import inplace as _inplace
    d = input._data
    noise = _rrelu_noise(d, float(lower), float(upper))
    if inplace:
        return _inplace.record_inplace(RRELU_WITH_NOISE_, input, (input,), (noise,),
                                       _asarray(d * noise))
    return _finish(RRELU_WITH_NOISE, (input,), (noise,), _asarray(d * noise))


# ---- torch.special: Bessel functions, Airy Ai, orthogonal polynomials, incomplete gamma --------
# Note [Special functions PyTorch does not differentiate]
# PyTorch declares no derivative for the Bessel, Airy and polynomial functions of
# torch.special: their outputs never require grad (no node, no error at backward). They are
# kernels here and no table entries. Kernels: _specfun.py (Note [Bessel kernels without
# SciPy]); accuracy against mpmath in tests/test_special_functions.py.
def _nondiff(kernel, *args, name=None):
    """A float result from tensors or numbers (at least one tensor): PyTorch's promotion
    (integers and bool to the default float), computed in float64 (or, for a ``typed``
    kernel, in the result's type), no autograd. PyTorch's
    CPU kernels of these functions have no float16/bfloat16 types (``name``: its kernel)."""
    from .._tensor import _make
    tensors = [a for a in args if isinstance(a, Tensor)]
    dt = _dtypes.result_type(*args)
    if not dt.is_floating_point:
        dt = _dtypes.default_float
    if len(tensors) > 1:  # (TensorIterator's shape check, before the dtype dispatch)
        from .dispatch import check_broadcast
        check_broadcast(*(t._data.shape for t in tensors))
    if name is not None:
        _no_half_kernel(name, dt.np)
    # (a ``typed`` kernel computes in the result's type, as PyTorch's: float32 stays float32)
    wide = dt.np if getattr(kernel, "typed", False) else np.float64
    arrays = [np.asarray(a._data if isinstance(a, Tensor) else a, dtype=wide) for a in args]
    out = np.asarray(kernel(*arrays), dtype=wide)
    shape = np.broadcast_shapes(*[np.shape(a) for a in arrays])
    del tensors
    return _make(_asarray(np.broadcast_to(out, shape).astype(dt.np)))


def _unary_special(kernel, doc):
    def fn(input, *, out=None):
        if out is not None:  # Note [out= arguments] in _out.py
            from ._out import write_out
            return write_out(fn.__name__, fn(input), out)
        return _nondiff(kernel, input, name=fn.__name__)
    fn.__doc__ = doc
    return fn


def _poly_special(kernel, doc, shifted=False):
    def fn(input, n, *, out=None):
        if out is not None:  # Note [out= arguments] in _out.py
            from ._out import write_out
            return write_out(fn.__name__, fn(input, n), out)
        if shifted:
            return _nondiff(lambda x, k: kernel(2 * x - 1, k), input, n, name=fn.__name__)
        return _nondiff(kernel, input, n, name=fn.__name__)
    fn.__doc__ = doc
    return fn


airy_ai = _unary_special(_specfun.airy_ai, "The Airy function Ai(x).")
bessel_j0 = _unary_special(_specfun.bessel_j0, "The Bessel function of the first kind, order 0.")
bessel_j1 = _unary_special(_specfun.bessel_j1, "The Bessel function of the first kind, order 1.")
bessel_y0 = _unary_special(_specfun.bessel_y0, "The Bessel function of the second kind, "
                           "order 0.")
bessel_y1 = _unary_special(_specfun.bessel_y1, "The Bessel function of the second kind, "
                           "order 1.")
modified_bessel_i0 = _unary_special(lambda x: np.i0(x), "The modified Bessel function I_0.")
modified_bessel_i1 = _unary_special(i1_kernel, "The modified Bessel function I_1.")
modified_bessel_k0 = _unary_special(_specfun.modified_bessel_k0, "The modified Bessel "
                                    "function K_0.")
modified_bessel_k1 = _unary_special(_specfun.modified_bessel_k1, "The modified Bessel "
                                    "function K_1.")
scaled_modified_bessel_k0 = _unary_special(_specfun.scaled_modified_bessel_k0, "exp(x) K_0(x).")
scaled_modified_bessel_k1 = _unary_special(_specfun.scaled_modified_bessel_k1, "exp(x) K_1(x).")
spherical_bessel_j0 = _unary_special(_specfun.spherical_bessel_j0, "sin(x) / x.")
chebyshev_polynomial_t = _poly_special(_specfun.chebyshev_t, "Chebyshev polynomial T_n(x).")
chebyshev_polynomial_u = _poly_special(_specfun.chebyshev_u, "Chebyshev polynomial U_n(x).")
chebyshev_polynomial_v = _poly_special(_specfun.chebyshev_v, "Chebyshev polynomial V_n(x).")
chebyshev_polynomial_w = _poly_special(_specfun.chebyshev_w, "Chebyshev polynomial W_n(x).")
shifted_chebyshev_polynomial_t = _poly_special(_specfun.chebyshev_t, "T_n(2x - 1).", True)
shifted_chebyshev_polynomial_u = _poly_special(_specfun.chebyshev_u, "U_n(2x - 1).", True)
shifted_chebyshev_polynomial_v = _poly_special(_specfun.chebyshev_v, "V_n(2x - 1).", True)
shifted_chebyshev_polynomial_w = _poly_special(_specfun.chebyshev_w, "W_n(2x - 1).", True)
hermite_polynomial_h = _poly_special(_specfun.hermite_h, "The physicists' Hermite "
                                     "polynomial H_n(x).")
hermite_polynomial_he = _poly_special(_specfun.hermite_he, "The probabilists' Hermite "
                                      "polynomial He_n(x).")
laguerre_polynomial_l = _poly_special(_specfun.laguerre_l, "The Laguerre polynomial L_n(x).")
legendre_polynomial_p = _poly_special(_specfun.legendre_p, "The Legendre polynomial P_n(x).")
for _f, _n in list((v, k) for k, v in globals().items()
                   if callable(v) and getattr(v, "__qualname__", "").startswith(
                       ("_unary_special.", "_poly_special."))):
    _f.__name__ = _f.__qualname__ = _n


# igamma / igammac (torch.special.gammainc / gammaincc): differentiable in x only
def _igamma_self(name):
    def formula(F, grad):
        raise NotImplementedError(f"the derivative for '{name}: input' is not implemented.")
    return formula


def _igamma_kernel(which):
    def kernel(a, x):
        dt = np.result_type(a, x)
        return _asarray(np.asarray(which(a, x), dtype=np.float64).astype(dt, copy=False))
    return kernel


def _igamma_density(F, self, other):
    """x^(a-1) exp(-x) / Gamma(a), the x-derivative of P(a, x) (PyTorch's formula)."""
    from .pointwise import lgamma
    return F.exp((self - 1) * F.log(other) - other - _via(F, _specfun.lgamma, lgamma, self))


_NOT_YET_ = (" because it has not been implemented yet.\nPlease file an issue to PyTorch at "
             "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so "
             "that we can prioritize its implementation.")  # (the in-place ops' wording)


def _igamma_entry(name, node, which, upper, not_yet):
    """The table entry of igamma/igammac (``upper``: Q = 1 - P, so other's derivative is the
    density negated) or of its in-place form, which differs only in the forward-AD message."""
    return defop(name, node, _igamma_kernel(which), inputs=("self", "other"),
                 jvp=_fw_not_implemented(name, not_yet),
                 grads={"self": _igamma_self(name.rstrip("_")),
                        "other": lambda F, grad, self, other: (-grad if upper else grad) *
                        _igamma_density(F, self, other)})


IGAMMA = _igamma_entry("igamma", "IgammaBackward0", _specfun.gammainc, False, _NOT_YET)
IGAMMAC = _igamma_entry("igammac", "IgammacBackward0", _specfun.gammaincc, True, _NOT_YET)
IGAMMA_ = _igamma_entry("igamma_", "IgammaBackward0", _specfun.gammainc, False, _NOT_YET_)
IGAMMAC_ = _igamma_entry("igammac_", "IgammacBackward0", _specfun.gammaincc, True, _NOT_YET_)


def _igamma_check(name, input, other, method=False, api=None):
    """Torch's argument and dtype errors; ``api`` names the call in the argument error
    (``igamma_``) where it differs from the kernel's name (``"igamma_cpu"``)."""
    for a, arg, pos in ((input, "input", 1), (other, "other", 1 if method else 2)):
        if not isinstance(a, Tensor):
            raise TypeError(f"{api or name}(): argument '{arg}' (position {pos}) must be "
                            f"Tensor, not {type(a).__name__}")
    rt = _dtypes.result_type(input, other)
    if not rt.is_floating_point or rt.np.kind == "c":
        check_broadcast(input._data.shape, other._data.shape)
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for "
                                  f"'{_dtypes.scalar_name(rt)}'")


def _igamma_call(name, op, input, other, out):
    if out is not None:  # Note [out= arguments] in _out.py
        from ._out import write_out
        return write_out(name, _igamma_call(name, op, input, other, None), out)
    from ._common import _binary
    _igamma_check(name, input, other)
    if _state.fw:  # (no forward rule: refused before the kernel)
        refuse_unsupported(op, input, other)
    return _binary(op, input, other)


def igamma(input, other, *, out=None):
    """The regularized lower incomplete gamma function P(input, other)."""
    return _igamma_call("igamma", IGAMMA, input, other, out)


def igammac(input, other, *, out=None):
    """The regularized upper incomplete gamma function Q(input, other)."""
    return _igamma_call("igammac", IGAMMAC, input, other, out)


def _igamma_inplace(op, name, self, other):
    from ._common import _check_tensor_arg, _inplace_binary, inplace_iter_checks
    _check_tensor_arg(name + "_", "other", other, 1)
    inplace_iter_checks(self, (self, other), _dtypes.result_type(self, other))
    _igamma_check(name, self, other, True, api=name + "_")  # (the kernel's dtype error)
    return _inplace_binary(op, self, other)  # (no forward rule: refused after the write)


def igamma_(self, other):
    return _igamma_inplace(IGAMMA_, "igamma", self, other)


def igammac_(self, other):
    return _igamma_inplace(IGAMMAC_, "igammac", self, other)


def special_gammainc(input, other, *, out=None):
    _igamma_check("special_gammainc", input, other)
    return igamma(input, other, out=out)


def special_gammaincc(input, other, *, out=None):
    _igamma_check("special_gammaincc", input, other)
    return igammac(input, other, out=out)


def _igamma_method(f, name):
    def method(self, other):
        _igamma_check(name, self, other, True)
        return f(self, other)
    method.__name__ = method.__qualname__ = name
    return method


igamma_method = _igamma_method(igamma, "igamma")
igammac_method = _igamma_method(igammac, "igammac")
