"""Discrete Fourier transforms: ``torch.fft`` (the public namespace is ``autotensor/fft.py``).

Note [FFT as three primitives]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
As in aten (SpectralOps.cpp), every transform is composed of three table entries:
``_fft_c2c`` (complex to complex, FftC2CBackward0), ``_fft_r2c`` (real to complex, full or
one-sided, FftR2CBackward0) and ``_fft_c2r`` (one-sided complex to real, FftC2RBackward0),
each over a list of dims with a normalization code (0: none, 1: 1/sqrt(n), 2: 1/n) that
its backward reuses. The public functions promote dtypes (``to``: ToCopyBackward0), trim
or zero-pad the input (SliceBackward0 / ConstantPadNdBackward0) and conjugate (ConjBackward0)
exactly where aten does, so graphs have PyTorch's nodes. The backward formulas are
FunctionsManual's ``fft_r2c_backward`` / ``fft_c2r_backward`` and the inverse c2c, written
with these same primitives (``_K(F)``), so double backward works; the three ops are linear,
so their forward rule is the op applied to the tangent (``jvp="linear"``).

Kernels are ``numpy.fft`` (pocketfft). NumPy 2 transforms complex64 / float32 in single
precision, as PyTorch's CPU kernels do; the two libraries round differently. Measured on a
4 x 1000 float32 signal: fft/rfft/ifft/ihfft differ from PyTorch's by at most 2.1 ulps of
max|X|, and are as close or closer to the float64 transform (0.5-1.9 ulps against
PyTorch's 1.5-2.0); float64 results agree to 5e-16 relative (tests/test_fft.py checks
both).
"""
import operator

from .. import _dtypes
from .._backend import np
from .._tensor import Tensor
from ._common import _check_tensor_arg, _finish
from ._out import write_out
from .complex_ops import conj, conj_physical, cx
from . import fft_mkl, layout
from .dispatch import defop
from .pointwise import _to_dtype
from .shape import narrow, roll

_NONE, _BY_ROOT_N, _BY_N = 0, 1, 2  # aten's fft_norm_mode
_COMPLEX = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128,
            np.dtype(np.complex64): np.complex64, np.dtype(np.complex128): np.complex128}
_REAL = {np.dtype(np.complex64): np.float32, np.dtype(np.complex128): np.float64,
         np.dtype(np.float32): np.float32, np.dtype(np.float64): np.float64}


def _np_norm(normalization, forward):
    """numpy.fft's norm= for aten's normalization code in the given direction."""
    if normalization == _BY_ROOT_N:
        return "ortho"
    if forward:
        return "backward" if normalization == _NONE else "forward"
    return "forward" if normalization == _NONE else "backward"


# ---- kernels (arrays) -------------------------------------------------------------------------
# Note [Overflow in single-precision DFTs]: pocketfft's float32 butterflies overflow on
# finite inputs near float32's largest value in other places than MKL's (irfft(rfft(x))
# of [1.76, 3.4028235e38, 0.98]: PyTorch [0, 3.4028233e38, 1.0e31], pocketfft
# [0, inf, nan]; of [1.764, 3.4028235e38]: PyTorch [0, inf]). A single-precision
# transform of finite values that comes out non-finite is recomputed by MKL's steps where
# fft_mkl fits them (Note [MKL's single-precision DFT near overflow]), else in double
# precision and rounded (inf only where the value itself overflows).
def _single(transform, x, out, mkl):
    """``out`` (``transform(x)`` in single precision), or where that overflowed ``mkl(out)``
    (None where not fitted) or ``transform`` in double precision rounded to out's dtype
    (Note [Overflow in single-precision DFTs])."""
    if out.dtype in (np.float32, np.complex64) and not np.isfinite(out).all() and \
            np.isfinite(x).all():
        fitted = mkl(out)
        if fitted is not None:
            return fitted
        wide = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
        with np.errstate(over="ignore", invalid="ignore"):
            return transform(wide).astype(out.dtype)
    return out


def _c2c(x, dim, normalization, forward):
    if not dim:
        return x.copy()
    f = np.fft.fftn if forward else np.fft.ifftn
    norm = _np_norm(normalization, forward)
    out = f(x, axes=dim, norm=norm).astype(x.dtype, copy=False)
    out = _single(lambda a: f(a, axes=dim, norm=norm), x, out,
                  lambda o: fft_mkl.c2c(x, o, dim, forward, normalization, overflow=True))
    # (Note [MKL's DFT on non-finite values])
    return fft_mkl.c2c(x, out, dim, forward, normalization)


def _r2c(x, dim, normalization, onesided):
    """aten's _fft_r2c: the one-sided transform; the full one is its other half filled by
    conjugate symmetry (_fft_fill_with_conjugate_symmetry_), not a complex transform (they
    differ where an inf makes nans)."""
    norm = _np_norm(normalization, True)
    half = np.fft.rfftn(x, axes=dim, norm=norm).astype(_COMPLEX[x.dtype], copy=False)
    half = _single(lambda a: np.fft.rfftn(a, axes=dim, norm=norm), x, half,
                   lambda o: fft_mkl.r2c(x, o, dim, normalization, overflow=True) if dim else None)
    if dim:  # (Note [MKL's DFT on non-finite values])
        half = fft_mkl.r2c(x, half, dim, normalization)
    if onesided or not dim:
        return half
    last = dim[-1]
    n, h = x.shape[last], half.shape[last]
    shape = list(half.shape)
    shape[last] = n
    out = np.empty(shape, dtype=half.dtype)
    index = [slice(None)] * out.ndim
    index[last] = slice(0, h)
    out[tuple(index)] = half
    if n > h:
        index[last] = slice(1, n - h + 1)
        mirror = np.flip(half[tuple(index)], last)  # out[..., k] = conj(half[-i..., n - k])
        for d in dim[:-1]:
            mirror = np.roll(np.flip(mirror, d), 1, d)
        index[last] = slice(h, n)
        out[tuple(index)] = np.conj(mirror)
    return out


def _c2r(x, dim, normalization, last_dim_size):
    s = [x.shape[d] for d in dim[:-1]] + [last_dim_size]
    norm = _np_norm(normalization, False)
    out = np.fft.irfftn(x, s=s, axes=dim, norm=norm).astype(_REAL[x.dtype], copy=False)
    out = _single(lambda a: np.fft.irfftn(a, s=s, axes=dim, norm=norm), x, out,
                  lambda o: fft_mkl.c2r(x, o, dim, normalization, overflow=True))
    # (Note [MKL's DFT on non-finite values])
    return fft_mkl.c2r(x, out, dim, normalization)


# ---- backward formulas (FunctionsManual.cpp) ---------------------------------------------------
def _K(F):
    return _K_RAW if F.is_raw else _K_TENSOR


def _c2c_backward(F, grad, dim, normalization, forward):
    return _K(F).c2c(grad, dim, normalization, not forward)


def _r2c_backward(F, grad, dim, normalization, onesided, self_sizes):
    """fft_r2c_backward: a one-sided transform is the full one with half its outputs
    dropped, so the gradient is zero-filled back to the full length first; the real part
    of the inverse c2c is the gradient of the real input."""
    if onesided:
        last = dim[-1]
        missing = self_sizes[last] - grad.shape[last]
        if missing > 0:
            shape = list(grad.shape)
            shape[last] = missing
            grad = F.cat([grad, F.zeros(tuple(shape), grad)], last)
    return cx(F).real(_K(F).c2c(grad, dim, normalization, False))


def _c2r_backward(F, grad, dim, normalization):
    """fft_c2r_backward: the r2c of the gradient, with the entries whose mirror images
    the one-sided input stands for (1 .. n - n_half) counted twice."""
    gI = _K(F).r2c(grad, dim, normalization, True)
    last = dim[-1]
    double = grad.shape[last] - gI.shape[last]
    if double > 0:
        scale = np.ones(gI.shape[last])
        scale[1:1 + double] = 2
        shape = [1] * len(gI.shape)
        shape[last] = -1
        gI = gI * F.constant(scale.reshape(shape), gI)
    return gI


FFT_C2C = defop("_fft_c2c", "FftC2CBackward0", _c2c, params=("dim", "normalization", "forward"),
                grads={"self": _c2c_backward}, jvp="linear", complex_aware=True,
                layout=layout.fft_c2c)
FFT_R2C = defop("_fft_r2c", "FftR2CBackward0", _r2c, params=("dim", "normalization", "onesided"),
                grads={"self": _r2c_backward}, jvp="linear", complex_aware=True,
                layout=layout.fft_r2c,
                saves={"self": ("self",)})  # (PyTorch's node saves its input: an in-place
#                                              change of it makes backward raise)
FFT_C2R = defop("_fft_c2r", "FftC2RBackward0", _c2r,
                params=("dim", "normalization", "last_dim_size"),
                grads={"self": _c2r_backward}, jvp="linear", complex_aware=True,
                layout=layout.fft_c2r)


def _check_batch(x, signal):
    """PyTorch's CPU FFT (MKL) refuses a non-empty signal over an empty batch: an input with
    no elements whose transformed sizes are all nonzero."""
    if x._data.size == 0 and signal and 0 not in signal:
        raise RuntimeError("MKL FFT error: Intel oneMKL DFTI ERROR: Inconsistent configuration "
                           "parameters")


def _fft_c2c(x, dim, normalization, forward):
    _check_batch(x, [x._data.shape[d] for d in dim])
    return _finish(FFT_C2C, (x,), (dim, normalization, forward),
                   _c2c(x._data, dim, normalization, forward))


def _fft_r2c(x, dim, normalization, onesided):
    _check_batch(x, [x._data.shape[d] for d in dim])
    return _finish(FFT_R2C, (x,), (dim, normalization, onesided),
                   _r2c(x._data, dim, normalization, onesided))


def _fft_c2r(x, dim, normalization, last_dim_size):
    _check_batch(x, [x._data.shape[d] for d in dim[:-1]] + [last_dim_size])
    return _finish(FFT_C2R, (x,), (dim, normalization, last_dim_size),
                   _c2r(x._data, dim, normalization, last_dim_size))


class _Kernels:
    __slots__ = ("c2c", "r2c", "c2r")

    def __init__(self, c2c, r2c, c2r):
        self.c2c, self.r2c, self.c2r = c2c, r2c, c2r


_K_RAW = _Kernels(_c2c, _r2c, _c2r)
_K_TENSOR = _Kernels(_fft_c2c, _fft_r2c, _fft_c2r)


# ---- argument handling (SpectralOps.cpp) ------------------------------------------------------
def _norm_code(norm, forward):
    """norm_from_string: the normalization code of a forward or inverse transform."""
    if norm is None or norm == "backward":
        return _NONE if forward else _BY_N
    if norm == "forward":
        return _BY_N if forward else _NONE
    if norm == "ortho":
        return _BY_ROOT_N
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _type_name(d):
    return _dtypes.scalar_name(_dtypes.from_numpy(d))


def _promote(x, require_complex=False):
    """promote_tensor_fft: integers to the default float dtype, float32/64 (to complex when
    required); other dtypes raise."""
    d = x._data.dtype
    if d.kind == "c":
        return x
    target = np.dtype(_dtypes.default_float.np) if d.kind in "biu" else d
    if target not in (np.float32, np.float64):
        raise RuntimeError(f"Unsupported dtype {_type_name(target)}")
    if require_complex:
        target = np.dtype(_COMPLEX[target])
    if target == d:
        return x
    return _to_dtype(x, _dtypes.from_numpy(target))


def _wrap(dim, ndim):
    """maybe_wrap_dim without wrapping scalars."""
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if dim < -ndim or dim >= ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, "
                         f"{ndim - 1}], but got {dim})")
    return dim + ndim if dim < 0 else dim


def _resize(x, dims, sizes):
    """resize_fft_input: trim (slice) or zero-pad (constant_pad_nd) each dim to its size."""
    shape = x._data.shape
    pad = [0] * (2 * len(shape))
    must_pad = False
    for d, n in zip(dims, sizes):
        if n == -1:
            continue
        if shape[d] < n:
            must_pad = True
            pad[len(pad) - 2 * d - 1] = n - shape[d]
        if shape[d] > n:
            x = narrow(x, d, 0, n)
    if must_pad:
        from ..nn.functional import pad as _pad
        x = _pad(x, pad)
    return x


def _check_n(n):
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")


def _int_arg(fname, name, value, position=None):
    if value is None or isinstance(value, int):
        return value
    try:
        return operator.index(value)
    except TypeError:
        where = f" (position {position})" if position else ""
        raise TypeError(f"{fname}(): argument '{name}'{where} must be int, not "
                        f"{type(value).__name__}") from None


def _check_out(function_name, out, want_complex):
    if out is None:
        return
    kind = out._data.dtype.kind
    if want_complex and kind != "c":
        raise RuntimeError(f"{function_name} expects a complex output tensor, but got "
                           f"{_type_name(out._data.dtype)}")
    if not want_complex and kind != "f":
        raise RuntimeError(f"{function_name} expects a floating point output tensor, but got "
                           f"{_type_name(out._data.dtype)}")


def _finish_out(op_name, result, out):
    return result if out is None else write_out(op_name, result, out)


# ---- one-dimensional transforms ----------------------------------------------------------------
def _fft_r2c_fn(fname, input, n, dim, norm, forward, onesided, out):
    if input._data.dtype.kind == "c":
        raise RuntimeError(f"{fname} expects a real input tensor, but got "
                           f"{_type_name(input._data.dtype)}")
    _check_out(fname, out, True)
    input = _promote(input)
    dim = _wrap(dim, input._data.ndim)
    _check_n(input._data.shape[dim] if n is None else n)
    if n is not None:
        input = _resize(input, (dim,), (n,))
    ret = _fft_r2c(input, (dim,), _norm_code(norm, forward), onesided)
    if not forward:
        if out is not None:
            return write_out("conj_physical", conj_physical(ret), out)
        return conj(ret)
    return _finish_out("_fft_r2c", ret, out)


def _fft_c2r_fn(fname, input, n, dim, norm, forward, out):
    _check_out(fname, out, False)
    input = _promote(input, True)
    dim = _wrap(dim, input._data.ndim)
    n = 2 * (input._data.shape[dim] - 1) if n is None else n
    _check_n(n)
    input = _resize(input, (dim,), (n // 2 + 1,))
    norm = _norm_code(norm, forward)
    if forward:
        input = conj(input)
    return _finish_out("_fft_c2r", _fft_c2r(input, (dim,), norm, n), out)


def _fft_c2c_fn(fname, input, n, dim, norm, forward, out):
    dim = _wrap(dim, input._data.ndim)
    _check_n(input._data.shape[dim] if n is None else n)
    if n is not None:
        input = _resize(input, (dim,), (n,))
    code = _norm_code(norm, forward)
    _check_out(fname, out, True)
    return _finish_out("_fft_c2c", _fft_c2c(input, (dim,), code, forward), out)


def _one_dim(fname, input, n, dim):
    _check_tensor_arg(f"fft_{fname}", "input", input, 1)
    return _int_arg(f"fft_{fname}", "n", n, 2), _int_arg(f"fft_{fname}", "dim", dim)


def fft(input, n=None, dim=-1, norm=None, *, out=None):
    n, dim = _one_dim("fft", input, n, dim)
    if input._data.dtype.kind == "c":
        return _fft_c2c_fn("fft", input, n, dim, norm, True, out)
    return _fft_r2c_fn("fft", input, n, dim, norm, True, False, out)


def ifft(input, n=None, dim=-1, norm=None, *, out=None):
    n, dim = _one_dim("ifft", input, n, dim)
    if input._data.dtype.kind == "c":
        return _fft_c2c_fn("ifft", input, n, dim, norm, False, out)
    return _fft_r2c_fn("ifft", input, n, dim, norm, False, False, out)


def rfft(input, n=None, dim=-1, norm=None, *, out=None):
    n, dim = _one_dim("rfft", input, n, dim)
    return _fft_r2c_fn("rfft", input, n, dim, norm, True, True, out)


def irfft(input, n=None, dim=-1, norm=None, *, out=None):
    n, dim = _one_dim("irfft", input, n, dim)
    return _fft_c2r_fn("irfft", input, n, dim, norm, False, out)


def hfft(input, n=None, dim=-1, norm=None, *, out=None):
    n, dim = _one_dim("hfft", input, n, dim)
    return _fft_c2r_fn("hfft", input, n, dim, norm, True, out)


def ihfft(input, n=None, dim=-1, norm=None, *, out=None):
    n, dim = _one_dim("ihfft", input, n, dim)
    return _fft_r2c_fn("ihfft", input, n, dim, norm, False, True, out)


# ---- n-dimensional transforms ------------------------------------------------------------------
def _int_list(fname, name, value):
    if value is None:
        return None
    if isinstance(value, (int, np.integer)):
        return (int(value),)
    if isinstance(value, Tensor):
        return tuple(int(v) for v in value._data.reshape(-1))
    try:
        return tuple(operator.index(v) for v in value)
    except TypeError:
        raise TypeError(f"{fname}(): argument '{name}' must be tuple of ints, not "
                        f"{type(value).__name__}") from None


def _shape_and_dims(input, s, dim):
    """canonicalize_fft_shape_and_dim_args: (sizes, dims) in the given order."""
    ndim = input._data.ndim
    sizes_in = input._data.shape
    dims = None
    if dim is not None:
        dims = [_wrap(d, ndim) for d in dim]
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
    if s is not None:
        if dim is not None and len(dim) != len(s):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        if len(s) > ndim:
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has "
                               f"{ndim} dimensions.")
        if dims is None:
            dims = list(range(ndim - len(s), ndim))
        shape = [sizes_in[d] if n == -1 else n for d, n in zip(dims, s)]
    elif dims is None:
        dims = list(range(ndim))
        shape = list(sizes_in)
    else:
        shape = [sizes_in[d] for d in dims]
    for n in shape:
        _check_n(n)
    return shape, dims


def _c2r_shape_and_dims(fname, input, s, dim):
    """canonicalize_fft_c2r_shape_and_dim_args: also the output's last-dim size."""
    shape, dims = _shape_and_dims(input, s, dim)
    if not shape:
        raise RuntimeError(f"{fname} must transform at least one axis")
    if s is None or s[-1] == -1:
        last = 2 * (input._data.shape[dims[-1]] - 1)
    else:
        last = shape[-1]
    _check_n(last)
    shape[-1] = last // 2 + 1
    return shape, dims, last


def _n_dim(fname, input, s, dim):
    _check_tensor_arg(f"fft_{fname}", "input", input, 1)
    return _int_list(f"fft_{fname}", "s", s), _int_list(f"fft_{fname}", "dim", dim)


def _fftn_c2c(input, s, dim, norm, forward, out):
    shape, dims = _shape_and_dims(input, s, dim)
    input = _promote(input, True)
    x = _resize(input, dims, shape)
    code = _norm_code(norm, forward)
    _check_out("fftn", out, True)
    return _finish_out("_fft_c2c", _fft_c2c(x, tuple(dims), code, forward), out)


def fftn(input, s=None, dim=None, norm=None, *, out=None):
    s, dim = _n_dim("fftn", input, s, dim)
    return _fftn_c2c(input, s, dim, norm, True, out)


def ifftn(input, s=None, dim=None, norm=None, *, out=None):
    s, dim = _n_dim("ifftn", input, s, dim)
    return _fftn_c2c(input, s, dim, norm, False, out)


def rfftn(input, s=None, dim=None, norm=None, *, out=None):
    s, dim = _n_dim("rfftn", input, s, dim)
    return _rfftn(input, s, dim, norm, out)


def _rfftn(input, s, dim, norm, out):
    if input._data.dtype.kind == "c":
        raise RuntimeError(f"rfftn expects a real-valued input tensor, but got "
                           f"{_type_name(input._data.dtype)}")
    shape, dims = _shape_and_dims(input, s, dim)
    if not shape:
        raise RuntimeError("rfftn must transform at least one axis")
    input = _promote(input)
    x = _resize(input, dims, shape)
    code = _norm_code(norm, True)
    _check_out("rfftn", out, True)
    return _finish_out("_fft_r2c", _fft_r2c(x, tuple(dims), code, True), out)


def irfftn(input, s=None, dim=None, norm=None, *, out=None):
    s, dim = _n_dim("irfftn", input, s, dim)
    return _irfftn(input, s, dim, norm, out)


def _irfftn(input, s, dim, norm, out):
    shape, dims, last = _c2r_shape_and_dims("irfftn", input, s, dim)
    input = _promote(input, True)
    x = _resize(input, dims, shape)
    code = _norm_code(norm, False)
    _check_out("irfftn", out, False)
    return _finish_out("_fft_c2r", _fft_c2r(x, tuple(dims), code, last), out)


def hfftn(input, s=None, dim=None, norm=None, *, out=None):
    s, dim = _n_dim("hfftn", input, s, dim)
    return _hfftn(input, s, dim, norm, out)


def _hfftn(input, s, dim, norm, out):
    shape, dims, last = _c2r_shape_and_dims("hfftn", input, s, dim)
    input = _promote(input, True)
    x = _resize(input, dims, shape)
    code = _norm_code(norm, True)
    tmp = _fft_c2c(x, tuple(dims[:-1]), code, True) if len(dims) > 1 else x
    tmp = conj(tmp)
    _check_out("hfftn", out, False)
    return _finish_out("_fft_c2r", _fft_c2r(tmp, (dims[-1],), code, last), out)


def ihfftn(input, s=None, dim=None, norm=None, *, out=None):
    s, dim = _n_dim("ihfftn", input, s, dim)
    return _ihfftn(input, s, dim, norm, out)


def _ihfftn(input, s, dim, norm, out):
    shape, dims = _shape_and_dims(input, s, dim)
    if not shape:
        raise RuntimeError("ihfftn must transform at least one axis")
    input = _promote(input)
    x = _resize(input, dims, shape)
    code = _norm_code(norm, False)
    _check_out("ihfftn", out, True)
    if x._data.dtype.kind == "c":  # (aten's _fft_r2c check)
        raise RuntimeError(f"Only supports floating-point dtypes, but found: "
                           f"{_type_name(x._data.dtype)}")
    tmp = _fft_r2c(x, (dims[-1],), code, True)
    if len(dims) == 1:
        if out is not None:
            return write_out("conj_physical", conj_physical(tmp), out)
        return conj(tmp)
    tmp = conj_physical(tmp)
    return _finish_out("_fft_c2c", _fft_c2c(tmp, tuple(dims[:-1]), code, False), out)


def fft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    s, dim = _n_dim("fft2", input, s, dim)
    return _fftn_c2c(input, s, dim, norm, True, out)


def ifft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    s, dim = _n_dim("ifft2", input, s, dim)
    return _fftn_c2c(input, s, dim, norm, False, out)


def rfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    s, dim = _n_dim("rfft2", input, s, dim)
    return _rfftn(input, s, dim, norm, out)


def irfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    s, dim = _n_dim("irfft2", input, s, dim)
    return _irfftn(input, s, dim, norm, out)


def hfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    s, dim = _n_dim("hfft2", input, s, dim)
    return _hfftn(input, s, dim, norm, out)


def ihfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    s, dim = _n_dim("ihfft2", input, s, dim)
    return _ihfftn(input, s, dim, norm, out)


# ---- helpers: frequencies and shifts -----------------------------------------------------------
def _freq(fname, values, n, d, out, dtype, requires_grad):
    from .. import _creation
    if out is not None:
        dt = out._data.dtype
    else:
        dt = (dtype or _dtypes.default_float).np
        dt = np.dtype(dt)
    if dt.kind not in "fc":
        raise RuntimeError(f"{fname} requires a floating point or complex dtype")
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    if dt.kind == "c":
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{_type_name(dt)}'")
    # arange in the dtype, then times 1 / (n d) rounded to it (aten's mul_ by a scalar)
    with np.errstate(divide="ignore", invalid="ignore"):  # n = 0 or d = 0: inf / nan
        arr = np.asarray(values, dtype=dt) * dt.type(np.float64(1.0) / np.float64(n * d))
    if out is not None:
        return write_out(fname, _creation.tensor(arr), out)
    t = _creation.tensor(arr)
    if requires_grad:
        t.requires_grad_()
    return t


def fftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    n = _int_arg("fft_fftfreq", "n", n, 1)
    values = np.concatenate([np.arange((n + 1) // 2), np.arange(-(n // 2), 0)]) if n > 0 else []
    return _freq("fftfreq", values, n, d, out, dtype, requires_grad)


def rfftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False):
    n = _int_arg("fft_rfftfreq", "n", n, 1)
    values = np.arange(n // 2 + 1) if n >= 0 else []
    return _freq("rfftfreq", values, n, d, out, dtype, requires_grad)


def _all_dims(fname, x, dim):
    if dim is None:
        return tuple(range(x._data.ndim))
    dims = _int_list(fname, "dim", dim)
    return tuple(_wrap(d, x._data.ndim) for d in dims)


def fftshift(input, dim=None):
    _check_tensor_arg("fft_fftshift", "input", input, 1)
    dims = _all_dims("fft_fftshift", input, dim)
    return roll(input, tuple(input._data.shape[d] // 2 for d in dims), dims)


def ifftshift(input, dim=None):
    _check_tensor_arg("fft_ifftshift", "input", input, 1)
    dims = _all_dims("fft_ifftshift", input, dim)
    return roll(input, tuple((input._data.shape[d] + 1) // 2 for d in dims), dims)



# ---- short-time Fourier transform ---------------------------------------------------------------
_STFT_NO_RETURN_COMPLEX = ("stft requires the return_complex parameter be given for real "
                           "inputs, and will further require that return_complex=True in a "
                           "future PyTorch release.")


_WARNED = set()


def _warn_once(what):
    """aten's TORCH_WARN_ONCE: the first time in the process only."""
    if what in _WARNED:
        return False
    _WARNED.add(what)
    return True


def _type_str(t):
    """at::toString of a tensor's type: torch.FloatTensor, or CPUComplexFloatType where
    there is no legacy name."""
    name = _dtypes.scalar_name(t.dtype)
    if name in ("Byte", "Char", "Short", "Int", "Long", "Half", "Float", "Double", "Bool"):
        return f"torch.{name}Tensor"
    return f"CPU{name}Type"


def _shape_str(t):
    return ", ".join(map(str, t._data.shape))


def _opt_flag(v):
    return "None" if v is None else str(int(bool(v)))


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="reflect", normalized=False, onesided=None, return_complex=None,
         align_to_window=None):
    """torch.stft as torch/functional.py and aten compose it: (reflect) pad, frames by
    as_strided, window product, one r2c / c2c over the frames, transpose_ and squeeze_."""
    import warnings
    from ..nn.functional import pad as _pad
    from .complex_ops import view_as_real
    from .pointwise import mul
    from .shape import as_strided, squeeze_, transpose_, unsqueeze, view
    _check_tensor_arg("stft", "input", input, 1)
    if align_to_window is not None:
        if center:
            raise RuntimeError("stft align_to_window should only be set when center = false")
    if return_complex is None:
        if input._data.dtype.kind != "c" and (window is None or
                                               window._data.dtype.kind != "c"):
            raise RuntimeError(_STFT_NO_RETURN_COMPLEX)
        return_complex = True
    if not return_complex and _warn_once("return_complex"):
        warnings.warn("stft with return_complex=False is deprecated. In a future pytorch "
                      "release, stft will return complex tensors for all inputs, and "
                      "return_complex=False will raise an error.\nNote: you can still call "
                      "torch.view_as_real on the complex output to recover the old return "
                      "format.", UserWarning, stacklevel=2)
    if center:
        nd = input._data.ndim
        extended = (1,) * (3 - nd) + tuple(input._data.shape)
        p = int(n_fft // 2)
        input = _pad(view(input, extended), [p, p], pad_mode)
        input = view(input, input._data.shape[-nd:] if nd else ())
    d = input._data
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    wdesc = "None" if window is None else f"{_type_str(window)}{{[{_shape_str(window)}]}}"
    prefix = (f"stft({_type_str(input)}[{_shape_str(input)}], "
              f"n_fft={n_fft}, hop_length={hop}, win_length={win}, window={wdesc}, "
              f"normalized={int(bool(normalized))}, onesided={_opt_flag(onesided)}, "
              f"return_complex={int(bool(return_complex))}, align_to_window="
              f"{_opt_flag(align_to_window)}) : ")
    if d.ndim not in (1, 2):
        raise RuntimeError(prefix + "expected a 1D or 2D tensor")
    if d.dtype.kind not in "fcV":
        raise RuntimeError(prefix + "expected a tensor of floating point or complex values")
    length = d.shape[-1]
    if not 0 < n_fft <= length:
        raise RuntimeError(prefix + f"expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    if hop <= 0:
        raise RuntimeError(prefix + f"expected hop_length > 0, but got hop_length={hop}")
    if not 0 < win <= n_fft:
        raise RuntimeError(prefix + f"expected 0 < win_length <= n_fft, but got "
                           f"win_length={win}")
    if window is not None and (window._data.ndim != 1 or window._data.shape[0] != win):
        raise RuntimeError(prefix + f"expected a 1D window tensor of size equal to "
                           f"win_length={win}, but got window with size "
                           f"[{', '.join(map(str, window._data.shape))}]")
    if window is None and _warn_once("window"):
        warnings.warn("A window was not provided. A rectangular window will be applied,which "
                      "is known to cause spectral leakage. Other windows such as "
                      "torch.hann_window or torch.hamming_window are recommended to reduce "
                      "spectral leakage.To suppress this warning and use a rectangular window, "
                      "explicitly set `window=torch.ones(n_fft, device=<device>)`.",
                      UserWarning, stacklevel=2)
    x = unsqueeze(input, 0) if d.ndim == 1 else input
    w = window
    if win < n_fft:  # the window centred in n_fft zeros (aten: zeros().narrow().copy_())
        from .. import _creation
        w = _creation.zeros(n_fft, dtype=input.dtype)
        left = (n_fft - win) // 2
        if window is not None:
            narrow(w, 0, left, win).copy_(window)
        else:
            narrow(w, 0, left, win).fill_(1)
    batch, length = x._data.shape
    frames = 1 + (length - n_fft) // hop
    if align_to_window:
        # frames of win_length from every hop, each centred in its n_fft: the signal is
        # zero-padded by (n_fft - win) // 2 on both sides (aten's constant_pad_nd; for an
        # odd difference the last frame overruns the padding there too: its error)
        frames = 1 + (length - win) // hop
        left = (n_fft - win) // 2
        x = _pad(x, [left, left])
    st = x.stride()
    x = as_strided(x, (batch, frames, n_fft), (st[0], hop * st[1], st[1]))
    if w is not None:
        x = mul(x, w)
    if x._data.dtype.itemsize == 2:  # (float16 / bfloat16 frames: the FFT backend's refusal)
        raise RuntimeError(f"MKL FFT doesn't support tensors of type: "
                           f"{_dtypes.scalar_name(_dtypes.from_numpy(x._data.dtype))}")
    complex_fft = x._data.dtype.kind == "c"
    onesided = (not complex_fft) if onesided is None else onesided
    code = _BY_ROOT_N if normalized else _NONE
    if complex_fft:
        if onesided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        out = _fft_c2c(x, (2,), code, True)
    else:
        out = _fft_r2c(x, (2,), code, onesided)
    transpose_(out, 1, 2)
    if d.ndim == 1:
        squeeze_(out, 0)
    return out if return_complex else view_as_real(out)


def _unfold_backward(g, input_sizes, dim, size, step):
    """Overlap-add: the frames along ``dim`` (window last) summed back into a signal of
    ``input_sizes`` (aten's unfold_backward, the adjoint of unfold)."""
    out = np.zeros(input_sizes, dtype=g.dtype)
    frames = np.moveaxis(g, dim, -2)
    signal = np.moveaxis(out, dim, -1)
    for i in range(frames.shape[-2]):
        signal[..., i * step:i * step + size] += frames[..., i, :]
    return out


def _unfold_formula(F, grad, dim, size, step):
    """unfold_backward's backward: unfold (frames as a strided view, copied)."""
    if F.is_raw:
        w = np.lib.stride_tricks.sliding_window_view(grad, size, axis=dim)
        return np.ascontiguousarray(w[(slice(None),) * dim + (slice(None, None, step),)])
    from .shape import unfold
    return unfold(grad, dim, size, step)


UNFOLD_BACKWARD = defop("unfold_backward", "UnfoldBackwardBackward0", _unfold_backward,
                        params=("input_sizes", "dim", "size", "step"),
                        grads={"self": _unfold_formula}, jvp="linear")


def _overlap_add(frames, input_sizes, dim, size, step):
    return _finish(UNFOLD_BACKWARD, (frames,), (tuple(input_sizes), dim, size, step),
                   _unfold_backward(frames._data, tuple(input_sizes), dim, size, step))


def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True,
          normalized=False, onesided=None, length=None, return_complex=False):
    """torch.istft as aten composes it: one inverse c2r / c2c over the frames, the window
    product, overlap-add of the frames and of the squared window (unfold_backward:
    UnfoldBackwardBackward0), trimming, and the division by the window envelope."""
    import warnings
    from ..nn.functional import pad as _pad
    from .complex_ops import resolve_conj, view_as_complex, view_as_real
    from .pointwise import div, mul
    from .pointwise import pow as _pow
    from .shape import _slice, expand, squeeze, transpose, unsqueeze, view
    _check_tensor_arg("istft", "input", input, 1)
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    wdesc = "None" if window is None else f"{_type_str(window)}{{[{_shape_str(window)}]}}"
    prefix = (f"istft({_type_str(input)}[{_shape_str(input)}], n_fft={n_fft}, "
              f"hop_length={hop}, win_length={win}, window={wdesc}, center={int(bool(center))}, "
              f"normalized={int(bool(normalized))}, onesided={_opt_flag(onesided)}, "
              f"length={'None' if length is None else length}, "
              f"return_complex={int(bool(return_complex))})")
    if window is None and _warn_once("istft window"):
        warnings.warn("A window was not provided. A rectangular window will be applied.Please "
                      "provide the same window used by stft to make the inversion lossless.To "
                      "suppress this warning and use a rectangular window, explicitly set "
                      "`window=torch.ones(n_fft, device=<device>)`.", UserWarning, stacklevel=2)
    if input._data.dtype.kind != "c":
        raise RuntimeError("istft requires a complex-valued input tensor matching the output "
                           "from stft with return_complex=True.")
    x = view_as_real(resolve_conj(input))
    shape = x._data.shape
    nd = len(shape)
    n_frames = shape[_wrap(-2, nd)]
    fft_size = shape[_wrap(-3, nd)]
    total = n_fft + hop * (n_frames - 1)
    if x._data.size == 0:
        raise RuntimeError(prefix + " : input tensor cannot be empty.")
    if nd not in (3, 4):
        raise RuntimeError(prefix + f" : expected a tensor with 3 or 4 dimensions, but got {nd}")
    onesided = fft_size != n_fft if onesided is None else onesided
    if onesided and n_fft // 2 + 1 != fft_size:
        raise RuntimeError(prefix + " : expected the frequency dimension (3rd to the last) of "
                           "the input tensor to match n_fft / 2 + 1 when onesided=True, but "
                           f"got {fft_size}")
    if not onesided and n_fft != fft_size:
        raise RuntimeError(prefix + " : expected the frequency dimension (3rd to the last) of "
                           "the input tensor to match n_fft when onesided=False, but got "
                           f"{fft_size}")
    if not 0 < hop <= win:
        raise RuntimeError(prefix + " : expected 0 < hop_length <= win_length")
    if not 0 < win <= n_fft:
        raise RuntimeError(prefix + " : expected 0 < win_length <= n_fft")
    if window is not None and (window._data.ndim != 1 or window._data.shape[0] != win):
        raise RuntimeError(prefix + " : Invalid window shape. window has to be 1D and length of "
                           "`win_length`")
    if window is None:
        from .. import _creation
        w = _creation.ones(win, dtype=x.dtype)
    else:
        w = window
    if win != n_fft:  # the window centred in zeros (constant_pad_nd)
        left = (n_fft - win) // 2
        w = _pad(w, (left, n_fft - win - left))
    if nd == 3:
        x = unsqueeze(x, 0)
    x = view_as_complex(transpose(x, 1, 2))  # (channel, n_frames, fft_size)
    code = _BY_ROOT_N if normalized else _BY_N
    if return_complex:
        if onesided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        x = _fft_c2c(x, (2,), code, False)
    else:
        if window is not None and window._data.dtype.kind == "c":
            raise RuntimeError("Complex windows are incompatible with return_complex=False")
        if not onesided:
            x = narrow(x, -1, 0, n_fft // 2 + 1)
        x = _fft_c2r(x, (2,), code, n_fft)
    frames = mul(x, view(w, (1, 1, n_fft)))
    y = _overlap_add(frames, (frames._data.shape[0], total), 1, n_fft, hop)
    env = _overlap_add(expand(_pow(w, 2), (1, n_frames, n_fft)), (1, total), 1, n_fft, hop)
    start = n_fft // 2 if center else 0
    if length is not None:
        end = start + length
    else:
        end = -(n_fft // 2) if center else total
    stop = min(end if end >= 0 else end + total, total)
    y = _slice(y, 1, start, stop, 1)
    env = _slice(env, 1, start, stop, 1)
    if env._data.size and np.abs(env._data).min() < 1e-11:
        raise RuntimeError(prefix + " window overlap add min: 1\n[ CPUBoolType{} ]")
    y = div(y, env)
    if nd == 3:
        y = squeeze(y, 0)
    if end > total:
        if _warn_once("istft length"):
            warnings.warn("The length of signal is shorter than the length parameter. Result "
                          "is being padded with zeros in the tail. Please check your center "
                          "and hop_length settings.", UserWarning, stacklevel=2)
        y = _pad(y, (0, end - total))
    return y
