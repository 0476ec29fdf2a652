"""Array-level kernels: the forward of every op, and the namespace backward formulas use
when no graph of the backward is needed.

Note [One formula, two interpretations]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
Each backward formula of the op table is written once, against a namespace ``F`` and
the arithmetic operators. The engine passes this module's namespace (``RAW``) and plain
ndarrays when ``create_graph=False``: the backward then allocates no Tensor and records
nothing. With ``create_graph=True`` it passes ``namespace.TENSOR`` and Tensors: the very
same formula then records its own graph, so every op has a double backward. Both
namespaces offer the same names with the same signatures (a test checks this).
"""
from types import SimpleNamespace

import builtins

import math

from .._backend import np
from . import layout
from .sum_kernel import mean_array, sum_array
from .._zero_grad import ZeroGrad, zero_grad

builtins_sum = builtins.sum

ndarray = np.ndarray


def asarray(x):
    """ufuncs return NumPy scalars for 0-d results; tensors always hold ndarrays (a
    zero-tensor gradient, an ndarray subclass, kept: Note [Zero-tensor gradients])."""
    return x if x.__class__ is ndarray or x.__class__ is ZeroGrad else np.asarray(x)


def sum_to(x, shape):
    """Sum a broadcast gradient back to ``shape`` (the un-broadcast of every binary op)."""
    if x.shape == shape:
        return x
    if not shape:  # (at::sum_to's special case: a sum, not a view of one)
        return asarray(sum_array(x))
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, s in enumerate(shape) if s == 1 and x.shape[i + lead] != 1)
    if axes:
        x = sum_array(x, axes, True)
    if lead:
        x = x.reshape(shape)
    return x


def expand(x, shape):
    """A writable broadcast view (np.broadcast_to's is read-only; PyTorch's is not)."""
    shape = tuple(shape)
    if not x.size:
        x = layout.view_source(x)  # (Note [Empty strides])
    lead = len(shape) - x.ndim
    strides = (0,) * lead + tuple(0 if s == 1 and want != 1 else st for s, want, st in
                                  zip(x.shape, shape[lead:], x.strides))
    # (subok: an expand of a zero-tensor gradient is one, Note [Zero-tensor gradients])
    return np.lib.stride_tricks.as_strided(x, shape, strides, subok=True)


def reshape(x, shape):
    """A view of x (a NumPy scalar, 0-d arithmetic's result, made an array first: PyTorch's
    reshape of a gradient is a view, which the engine does not sum into in place)."""
    if x.__class__ is not ndarray and x.__class__ is not ZeroGrad:
        x = np.asarray(x)
    return x.reshape(shape)


view = reshape


def sum(x, dim=None, keepdim=False):
    return asarray(sum_array(x, dim, keepdim))


def mean(x, dim=None, keepdim=False):
    return asarray(mean_array(x, dim, keepdim))


def unsqueeze(x, dim):
    if not x.size:  # (PyTorch's stride, size * stride of the dim it precedes: Note [Empty
        x = layout.view_source(x)  # strides] in layout.py)
        dim %= x.ndim + 1
        new = x.shape[dim] * x.strides[dim] if dim < x.ndim else x.itemsize
        return np.lib.stride_tricks.as_strided(x, x.shape[:dim] + (1,) + x.shape[dim:],
                                               x.strides[:dim] + (new,) + x.strides[dim:],
                                               subok=True)
    return np.expand_dims(x, dim)


def squeeze(x, dim=None):
    if dim is not None:  # (PyTorch squeezes only the given dims of size 1)
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        dim = tuple(d for d in dims if x.shape[d] == 1)
    return np.squeeze(x, axis=dim)


def transpose(x, dim0, dim1):
    if not x.size:
        x = layout.view_source(x)  # (Note [Empty strides] in layout.py)
    return np.swapaxes(x, dim0, dim1) if x.ndim else _alias(x)  # (a 0-d tensor's
    #                                                                transpose(0, 0))


def t(x):
    if not x.size:
        x = layout.view_source(x)
    return x.T if x.ndim == 2 else _alias(x)


def _alias(x):
    """A new view of x: PyTorch's t() / transpose of a tensor under 2-d is a view, a new
    tensor (a gradient made so is stolen into .grad, not copied: Note [Stealing
    gradients])."""
    return x.view() if isinstance(x, ndarray) else np.asarray(x)


def permute(x, dims):
    if not x.size:
        x = layout.view_source(x)
    return np.transpose(x, dims)


def _blas(x):
    """x, or a contiguous copy where a stride is 0 (a gradient expanded from a sum's):
    NumPy does not hand such operands to BLAS and its own loop is ~3 x slower than the
    copy plus the GEMM."""
    return np.ascontiguousarray(x) if 0 in x.strides and x.size > 1 else x


# Note [Signed zeros of matrix products]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# A product's zero element is -0.0 only when every term it sums is -0.0 and nothing else
# (a +0.0 start, a +0.0 bias) enters the sum. PyTorch's CPU kernels (found by experiment):
# mm is MKL's gemm with beta = 0, whose inner dimension of 1 with at least two rows and
# two columns writes the one product itself (-0.0 kept); every other shape (and gemv, dot)
# sums from +0.0. bmm below 400 multiply-adds per matrix runs aten's loop (from +0.0);
# above, float32/float64 go to MKL's batched gemm (from +0.0) unless there is one matrix
# (gemm's rule) or an operand's matrices are neither row- nor column-major (one mm per
# matrix); float16/bfloat16 sum from +0.0 everywhere. NumPy sums from +0.0 in every case.
_GEMM = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128))


def mm(a, b):
    if a.shape[1] == 1 and a.shape[0] > 1 and b.shape[1] > 1 and a.dtype in _GEMM:
        return np.multiply(a, b, order="C")  # (Note [Signed zeros of matrix products])
    out = _blas(a) @ _blas(b)
    # bfloat16 products come back from ml_dtypes as float32, accumulated in float32 as
    # PyTorch's are: rounded once (Note [bfloat16 accumulation] in _common.py)
    return out if out.dtype == a.dtype else out.astype(a.dtype)


def matmul(a, b):
    if a.ndim == 3 and b.ndim == 3:
        return bmm(a, b)
    if a.ndim == 2 and b.ndim == 2:
        return mm(a, b)
    if a.ndim > 1 and b.ndim > 1 and a.shape[-1] == 1 and b.shape[-2] == 1:
        return _inner_one(a, b, False)
    out = asarray(np.matmul(_blas(a), _blas(b)))
    return out if out.dtype == a.dtype else out.astype(a.dtype)


def _inner_one(a, b, keep_signs):
    """A matrix product with an inner dimension of 1: one product per element, the same
    bits as the GEMM's; NumPy's batched matmul runs such shapes (einsum's backward: (b, n,
    1) @ (b, 1, 1)) in its own loop, 4-7 x slower than the broadcast multiply (laid out
    row-major as a GEMM's result, not as the operands). A sum from +0.0 turns -0.0 into
    +0.0 unless ``keep_signs`` (Note [Signed zeros of matrix products])."""
    out = asarray(np.multiply(a, b, order="C"))
    if out.dtype != a.dtype:
        out = out.astype(a.dtype)
    if not keep_signs and out.dtype.kind in "fcV":
        out += 0.0
    return out


def _mkl_items(t):
    """aten's batch_items_contiguous_or_transposed (strides in elements)."""
    _, r, c = t.shape
    it = t.itemsize
    s1, s2 = t.strides[1] // it, t.strides[2] // it
    return (s2 == 1 and (r == 1 or s1 >= c)) or (s1 == 1 and (c == 1 or s2 >= r))


def bmm(a, b):
    """aten's bmm (Note [Signed zeros of matrix products]; Note [Small bmm])."""
    if a.shape[2] != 1:
        if a.shape[1] * a.shape[2] * b.shape[2] < 400 and a.dtype.kind in "fV" and \
                a.dtype == b.dtype:
            return _small_bmm(a, b)
        out = asarray(np.matmul(_blas(a), _blas(b)))
        return out if out.dtype == a.dtype else out.astype(a.dtype)
    n, m, p = a.shape[0], a.shape[1], b.shape[2]
    keep = (m > 1 and p > 1 and m * p >= 400 and a.dtype in _GEMM and
            (n == 1 or not (_mkl_items(a) and _mkl_items(b))))
    return _inner_one(a, b, keep)


# Note [Small bmm]
# ~~~~~~~~~~~~~~~~
# aten's bmm runs its own loop (baddbmm_cpu_kernel) when contraction x rows x cols < 400:
# for each entry, products summed in order from 0 in the op-math type (float32 for
# float16/bfloat16), each product and each sum rounded; OpenBLAS's GEMM fuses and reorders
# them (a (1, 2, 3) @ (1, 3, 2) float32 entry differed by an ulp). Larger products go to
# the GEMM in both.
def _small_bmm(a, b):
    dt = a.dtype
    if dt.itemsize == 2:
        a, b = a.astype(np.float32), b.astype(np.float32)
    if a.shape[2] <= 16:
        n = builtins.max(a.shape[0], b.shape[0])  # (matmul broadcasts a batch of one)
        acc = np.zeros((n, a.shape[1], b.shape[2]), a.dtype)
        for k in range(a.shape[2]):
            acc += a[:, :, k, None] * b[:, None, k, :]
    else:  # (the same sums, in order, in one call: 4 x faster for a long contraction)
        products = a.transpose(2, 0, 1)[:, :, :, None] * b.transpose(1, 0, 2)[:, :, None, :]
        acc = np.add.accumulate(products, axis=0)[-1]
        acc += 0.0  # (a sum from +0.0: -0.0 becomes +0.0)
    return acc if acc.dtype == dt else acc.astype(dt)


def where(cond, a, b):
    if b.__class__ is int and b == 0 and a.__class__ is ndarray and cond.__class__ is ndarray:
        out = _mask_bits(cond, a)  # ReluBackward0, threshold/clamp/masked gradients
        if out is not None:
            return out
    return asarray(np.where(cond, a, b))


# Note [Masking by bits]
# ~~~~~~~~~~~~~~~~~~~~~~
# ``np.where(cond, grad, 0)`` is the backward of relu and of every mask-like op, and NumPy
# runs it without SIMD: ~6 ns an element, 10 x a multiply (a 128 x 512 float32 gradient:
# 0.37 ms against 0.03 ms). Multiplying by the mask is not the same (inf * 0 = nan, and a
# negative gradient times 0 gives -0.0), but ANDing the float's bits with an all-ones or
# all-zeros integer mask is, bit for bit: where ``cond`` the bits pass unchanged, elsewhere
# they become +0.0. Used for same-shape real floating arrays; everything else takes
# np.where.
_INT_OF_SIZE = {2: np.int16, 4: np.int32, 8: np.int64}


def _mask_bits(cond, a, zero_where=False):
    """``where(cond, a, 0)``; with ``zero_where``, ``where(cond, 0, a)`` (no pass to
    negate cond)."""
    dt = a.dtype
    if dt.kind != "f" or cond.dtype != np.bool_ or cond.shape != a.shape:
        return None
    it = _INT_OF_SIZE.get(dt.itemsize)
    if it is None:
        return None
    out = np.empty_like(a)  # (an array of its own, not a view: the engine may sum into it
    m = out.view(it)        # in place, as PyTorch's buffer: Note [Gradient versions])
    np.copyto(m, cond, casting="unsafe")
    if zero_where:
        m -= 1  # True -> 0, False -> all bits set
    else:
        np.negative(m, out=m)  # True -> all bits set, False -> 0
    np.bitwise_and(a.view(it), m, out=m)
    return out


def zeros(shape, like):
    return np.zeros(shape, dtype=like.dtype)


def zeros_like(x):
    return np.zeros_like(x)


def zero_tensor_like(x):
    """PyTorch's _efficientzerotensor of x's shape and dtype (Note [Zero-tensor
    gradients] in zero_grad.py)."""
    return zero_grad(x.shape, x.dtype)


def ones_like(x):
    return np.ones_like(x)


def cast(x, dtype):
    """dtype is a NumPy dtype here (the tensor namespace takes our dtype objects). A complex
    gradient of a real input keeps its real part (PyTorch's handle_r_to_c)."""
    if x.dtype.kind == "c" and np.dtype(dtype).kind != "c":
        if not isinstance(x, ndarray):  # (a NumPy scalar's real part is no view: PyTorch's
            x = np.asarray(x)           # at::real is, which its buffers never add into)
        x = (x if x.size else layout.view_source(x)).real
    out = x.astype(dtype, copy=False)
    if not x.size and out is not x:  # (an empty one keeps its strides, zeros included:
        return layout.with_strides(out, layout.like_strides(x))  # Note [Empty strides])
    return out


def masked_fill(x, mask, value):
    return asarray(np.where(mask, value, x)).astype(x.dtype, copy=False)


def clone(x):
    return x.copy()


def contiguous(x):
    return np.ascontiguousarray(x)


# Note [Float32 transcendentals]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's float32 exp, log, sin, tanh... are MKL's VML in its high-accuracy mode (the
# ops ATen's vml.h hands to MKL), SLEEF's 1-ulp vector functions or glibc's: each within
# an ulp, and equal to the correctly rounded value on all but ~0.1-10% of inputs. NumPy's
# float32 SIMD kernels are faster and less accurate: 10-48% of float32 inputs got another
# float than PyTorch's (tanh(9.4) was 0.99999994, PyTorch's 1.0, so its tangent
# t * (1 - y * y) was -1.2e-6 instead of -0.0). So the ops of ``_VIA_FLOAT64`` compute a
# float32 array in float64 and round once (float16 and bfloat16, which PyTorch computes
# in float32, are rounded to float32 on the way): the correctly rounded value, which
# PyTorch's is on 90-99.9% of inputs (README "Numerics", measured by ``python -m
# tests.ulp``). Where PyTorch computes a float formula of its own (sigmoid, digamma...),
# its kernel is ported operation for operation instead. Blockwise, so that the float64
# copy stays in cache: 2-4 x NumPy's float32 time on large arrays (README "Numerics").
_WIDE_BLOCK = 16384
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)

# Note [Size of the ported kernels]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's own float32 kernels ported operation for operation on SLEEF's vector functions
# (sigmoid, SiLU and its backward, softmax and log_softmax and their backward, exp2's and
# logit's SIMD loops, softplus, log_sigmoid, mish and GELU: Note [SLEEF's expf], Note
# [SLEEF's logf], Note [PyTorch's float32 softmax], Note [SLEEF's log1pf and tanhf], Note
# [oneDNN's GELU]) emulate each fused multiply-add in float64: 10-25 x the time of the NumPy
# float32 expression they replace (2^18 elements: SiLU 0.2 -> 4.2 ms, softmax 0.2 -> 5
# ms). They run on tensors of up to PORTED_MAX elements, which covers the tests, fuzzing
# and small models, where bits are compared; above it the NumPy expression stays, a few
# ulps away (README "Numerics"), where training spends its time.
PORTED_MAX = 1 << 16


def in_float64(ufunc, x):
    """ufunc(x) for a float32, float16 or bfloat16 array x, computed in float64 and
    rounded once to float32 (then to x's dtype): Note [Float32 transcendentals]."""
    dt = x.dtype
    if x.size <= _WIDE_BLOCK:
        out = ufunc(x.astype(np.float64)).astype(np.float32)
    else:
        out = np.empty(x.shape, np.float32)
        src, dst = x.reshape(-1), out.reshape(-1)  # (a copy only where x is strided)
        buf = np.empty(_WIDE_BLOCK, np.float64)
        for i in range(0, src.size, _WIDE_BLOCK):
            b = buf[:min(_WIDE_BLOCK, src.size - i)]
            b[...] = src[i:i + _WIDE_BLOCK]
            ufunc(b, out=b)
            dst[i:i + _WIDE_BLOCK] = b
    return asarray(out if dt == _F32 else out.astype(dt))


# Note [Half NaN bits]
# ~~~~~~~~~~~~~~~~~~~~
# A float16/bfloat16 NaN that PyTorch's kernel makes in float32 keeps bits of that NaN and
# of the conversion that rounds it: SLEEF's powf makes +NaN, glibc's powf the x86 default
# -NaN, SLEEF's log1pf all ones; the SIMD conversion to float16 keeps the sign and top
# payload bits, the scalar one the sign (0x7e00 | sign); the SIMD conversion to bfloat16
# gives 0xffff for every NaN, the scalar one 0x7fc0. So pow of a negative base by a
# non-integer is 0x7e00 (float16) / 0xffff (bfloat16) in the SIMD loop, 0xfe00 / 0x7fc0
# in its scalar tail, and log1p below -1 and bfloat16's sqrt of a negative (vml maps:
# vectors throughout) 0xffff (measured; NumPy gave 0xfe00 / 0xffc0 everywhere). Only NaNs
# the op made are set (a NaN input's payload passes through); other ops' NaNs keep
# NumPy's bits (README "Numerics").
_HALF_NAN = {"pow": ((0x7E00, 0xFE00), (0xFFFF, 0x7FC0)), "log1p": ((0xFFFF,) * 2,) * 2,
             "sqrt": ((0xFE00,) * 2, (0xFFFF,) * 2)}


def half_nan_bits(out, made, op, simd):
    """out (float16/bfloat16) with the NaNs at ``made`` set to op's bits in PyTorch's SIMD
    loop (``simd``: simd_positions, None: nowhere) and its scalar loop: Note [Half NaN
    bits]."""
    if not made.any():
        return out
    vec, scalar = _HALF_NAN[op][out.dtype.kind == "V"]
    bits = np.full(out.shape, scalar, np.uint16)
    if simd is not None:
        bits[simd] = vec
    out = np.array(out)
    view = out.view(np.uint16)
    view[made] = bits[made]
    return out


def _float_kernel(ufunc):
    """The kernel of an elementwise op whose float32 value is computed in float64 (Note
    [Float32 transcendentals]); other dtypes take NumPy's own loop."""
    def kernel(x):
        dt = x.dtype
        if dt == _F32 or (dt.itemsize == 2 and dt.kind in "fV"):
            return in_float64(ufunc, x)
        return asarray(ufunc(x))
    kernel.__name__ = kernel.__qualname__ = ufunc.__name__
    return kernel


# The ops computed so, by NumPy ufunc (ops whose PyTorch float kernel is its own formula:
# sigmoid, erf, digamma, sinc, logit... have kernels of their own below and in
# _specfun.py; asinh and acosh are glibc's float algorithms in PyTorch, which float64
# matches no better than NumPy's float32: README "Numerics").
_VIA_FLOAT64 = dict(
    exp=np.exp, exp2=np.exp2, expm1=np.expm1, log=np.log, log2=np.log2, log10=np.log10,
    log1p=np.log1p, sin=np.sin, cos=np.cos, tan=np.tan, tanh=np.tanh, sinh=np.sinh,
    cosh=np.cosh, asin=np.arcsin, acos=np.arccos, atan=np.arctan, atanh=np.arctanh)
FLOAT_KERNELS = {name: _float_kernel(f) for name, f in _VIA_FLOAT64.items()}
_log1p_wide = FLOAT_KERNELS["log1p"]


def _log1p(x):
    """log1p; float16/bfloat16 NaNs below -1 as PyTorch's (Note [Half NaN bits])."""
    out = _log1p_wide(x)
    if x.dtype.itemsize == 2 and x.dtype.kind in "fV":
        with np.errstate(invalid="ignore"):
            made = x.astype(np.float32) < -1
        out = half_nan_bits(out, made, "log1p", None)
    return out


FLOAT_KERNELS["log1p"] = _log1p
FLOAT_KERNELS.update(asinh=lambda x: asarray(np.arcsinh(x)),
                     acosh=lambda x: asarray(np.arccosh(x)))
_exp2_wide = FLOAT_KERNELS["exp2"]
_log2_kernel = FLOAT_KERNELS["log2"]


def _log2(x):
    """log2; complex: log(z) with each part divided by ln 2 (in the part's dtype), as
    PyTorch's both loops (NumPy's complex log2 differs by an ulp in half the values)."""
    if x.dtype.kind != "c":
        return _log2_kernel(x)
    out = np.log(x)
    ln2 = out.real.dtype.type(math.log(2.0))
    with np.errstate(all="ignore"):
        r = np.empty(out.shape, x.dtype)
        r.real = out.real / ln2
        r.imag = out.imag / ln2
    return r


FLOAT_KERNELS["log2"] = _log2


def _exp2_float(x):
    """exp2: float64 rounded, but SLEEF's exp2f (ported) where PyTorch's SIMD loop runs
    (its float exp2 is cpu_kernel_vec's: glibc's exp2f, nearly correctly rounded, in the
    scalar loop; SLEEF's in the SIMD loop, another float on 6% of inputs)."""
    out = _exp2_wide(x)
    if x.dtype == _F32 and out.ndim and x.size <= PORTED_MAX:
        simd = simd_positions(x.shape, x, unroll=2)
        if simd is not None:
            from ._specfun import sleef_exp2f
            out[simd] = sleef_exp2f(x[simd])
    return out


FLOAT_KERNELS["exp2"] = _exp2_float


def _binary_float_kernel(ufunc):
    """A two-input op's kernel, float32/float16/bfloat16 results computed in float64 and
    rounded once (Note [Float32 transcendentals])."""
    def kernel(a, b):
        dt = np.result_type(a, b)
        if dt == _F32 or (dt.itemsize == 2 and dt.kind in "fV"):
            out = ufunc(np.asarray(a, np.float64), np.asarray(b, np.float64))
            return asarray(np.asarray(out).astype(np.float32).astype(dt, copy=False))
        return asarray(ufunc(a, b))
    kernel.__name__ = kernel.__qualname__ = ufunc.__name__
    return kernel


# atan2: 38% of float32 inputs gave another float than PyTorch's with NumPy's float32 loop,
# 2.3% in float64 (its SIMD loop is SLEEF's atan2f, its scalar loop glibc's)
FLOAT_KERNELS["atan2"] = _binary_float_kernel(np.arctan2)
exp, log, sin, cos, tanh = (FLOAT_KERNELS[k] for k in ("exp", "log", "sin", "cos", "tanh"))
log1p, expm1, sinh, cosh = (FLOAT_KERNELS[k] for k in ("log1p", "expm1", "sinh", "cosh"))


def exp2(x):
    """exp2 of a float array; of an integer one in the default dtype, as PyTorch's."""
    if x.dtype.kind not in "fcV":
        from .. import _dtypes
        x = x.astype(_dtypes.default_float.np)
    return FLOAT_KERNELS["exp2"](x)


def reciprocal(x):
    """1 / x (PyTorch's reciprocal: c10::complex's quotient for complex x)."""
    if x.dtype.kind == "c":
        return asarray(true_divide(x.dtype.type(1), x))
    return asarray(np.reciprocal(x))


def sqrt(x):
    out = np.sqrt(x)
    if x.__class__ is ndarray and x.dtype.kind == "V":  # (bfloat16: Note [Half NaN bits])
        with np.errstate(invalid="ignore"):
            made = x.astype(np.float32) < 0
        if made.any():
            out = half_nan_bits(out, made, "sqrt", None)
    return asarray(out)


def sgn(x):
    """sign for real arrays, z / |z| (0 at 0) for complex ones."""
    if x.dtype.kind != "c":
        return sign(x)
    return complex_sgn(x)


def abs(x):
    if x.dtype.kind == "c":
        return asarray(complex_abs(x))
    return asarray(np.abs(x))


def pow(x, e):
    """x ** e as PyTorch's pow: pow.Tensor_Scalar for a number, pow.Tensor_Tensor for an
    array."""
    if not isinstance(x, (ndarray, np.generic)) or x.__class__ is np.float32:
        # a number's power: pow.Scalar, pow.Tensor_Tensor's kernel with a 0-d base
        base = np.asarray(x, e.dtype)
        if e.dtype == np.float64 and base.dtype == np.float64:
            out = pow64(base, e, (base, e))
            if out is not None:
                return asarray(out)
        if e.dtype == _F32:
            if e.size <= PORTED_MAX:
                from ._specfun import torch_powf
                simd = simd_positions(e.shape, base, e, unroll=2)
                return asarray(torch_powf(base, e, simd))
            with np.errstate(all="ignore"):  # (past PORTED_MAX: in double, rounded once)
                return asarray(np.power(np.float64(base), e.astype(np.float64)).astype(_F32))
        return asarray(np.power(base, e))
    if isinstance(e, (ndarray, np.generic)):
        return pow_tensor(x, e)
    return pow_scalar(x, e)


# Note [Fused add]
# ~~~~~~~~~~~~~~~~
# aten's add/sub with alpha (ufunc add: ``self + alpha * other``, vectorized as
# ``fmadd(other, alpha, self)``) rounds once: the vector loop calls fmadd, and the compiler
# contracts the scalar loop's float/double expression into the same fused multiply-add
# (checked: 0 differences over 40,000 float32/float64 values). NumPy's ``a + alpha * b``
# rounds twice (5 of 22 numbers gave another float32 for x.add(y, alpha=...)). float16 and
# bfloat16 take alpha and other in the tensor's dtype, fused in float32 in the vector loop
# but with c10::Half's operators (alpha * other rounded to the dtype, then the sum) in the
# scalar loop: its tail past the last 64-byte vector, and strided or 0-d tensors (Note
# [SIMD tie picks] locates them). float32 and float64 tensors past PORTED_MAX elements
# keep the two-rounding NumPy expression (the exact FMA costs 4-10 x: Note [Size of the
# ported kernels]).
def _fma(x, y, z, ct):
    """Correctly rounded x * y + z in ct (float32 or float64), broadcast: _random's exact
    FMAs (x a ct scalar or array; they take the product's shape for the result's)."""
    from .._random import _fma32, _fma64
    fma = _fma64 if ct is np.float64 else _fma32
    y = np.asarray(y, ct)
    shape = np.broadcast_shapes(np.shape(x), y.shape, np.shape(z))
    if not shape:
        return np.asarray(fma(np.atleast_1d(x), np.atleast_1d(y), np.atleast_1d(z)),
                          ct).reshape(())
    if y.shape != shape:
        y = np.broadcast_to(y, shape)
    return np.asarray(fma(x, y, z), ct)


def add_alpha(a, b, alpha):
    """a + alpha * b of a floating array a as aten's add kernel (Note [Fused add])."""
    dt = a.dtype
    b = np.asarray(b, dt)
    if dt.itemsize == 2:
        f = _F32.type
        al, fa, fb = f(np.asarray(alpha, dt)), a.astype(_F32), b.astype(_F32)
        out = (fa + (al * fb).astype(dt).astype(_F32)).astype(dt)  # (the scalar loop)
        simd = simd_positions(np.broadcast_shapes(a.shape, b.shape), a, b)
        if simd is not None:
            out = np.where(simd, _fma(al, fb, fa, np.float32).astype(dt), out)
        return asarray(out)
    if a.size > PORTED_MAX or b.size > PORTED_MAX:  # (Note [Size of the ported kernels])
        return asarray(a + alpha * b)
    return asarray(_fma(dt.type(alpha), b, a, dt.type))


def complex_pow(x, e):
    """x ** e of complex arrays as PyTorch's std::pow (glibc's cpow): exp(e * log(x)) in
    x's dtype, with no shortcut for integral exponents (NumPy multiplies those out: (1+1j)
    ** 1 is exactly 1+1j there, 0.99999994+0.99999994j in PyTorch's complex64; 0j ** 0 is
    nan+nanj, 0j ** -4 inf+nanj). Matches PyTorch on all 182 values checked."""
    return asarray(np.exp(e * np.log(x)))


def pow64(x, e, operands):
    """float64 x ** e (arrays, broadcast) as PyTorch's cpu_kernel_vec computes it, over
    ``operands`` (x alone for a number's power): glibc's pow in the scalar loop, SLEEF's
    in the SIMD loop (Note [SLEEF's pow] in _specfun.py); None past PORTED_MAX elements
    (Note [Size of the ported kernels]), where NumPy's power (its own AVX-512 kernel,
    another double on ~6% of elements) stays."""
    shape = np.broadcast_shapes(np.shape(x), np.shape(e))
    if math.prod(shape) > PORTED_MAX:
        return None
    from ._specfun import torch_pow
    return torch_pow(x, e, simd_positions(shape, *operands, unroll=2))


def _sleef_powf_at(out, x, e, simd):
    """``out`` with SLEEF's powf of float32 x and e (broadcast) where ``simd``: PyTorch's
    SIMD loop (Note [SLEEF's powf] in _specfun.py); past PORTED_MAX the NumPy power
    stays."""
    if simd is None:
        return out
    from ._specfun import sleef_powf
    xb, eb = np.broadcast_arrays(x, e)
    if simd.all():
        return sleef_powf(xb, eb).reshape(out.shape)
    out = np.array(out, _F32)
    out[simd] = sleef_powf(xb[simd], eb[simd])
    return out


def pow_tensor(x, e):
    """x ** e for an array e, as PyTorch's pow.Tensor_Tensor: cpu_kernel_vec's std::pow
    (glibc's pow, powf) in its scalar loop, SLEEF's pow (powf) in its SIMD loop, for every
    exponent (pow64; float32: _specfun.torch_powf). Past PORTED_MAX elements (Note [Size of
    the ported kernels]) NumPy's power stays, which computes a scalar (or broadcast)
    exponent 0.5 as sqrt, whose -0.0 and -inf differ from pow's (+0.0, +inf): those two
    values are put back. float16/bfloat16: NumPy's power in float32."""
    if x.dtype.kind == "c":
        return complex_pow(x, e)
    if x.dtype == np.float64 and e.dtype == np.float64:
        out = pow64(x, e, (x, e))
        if out is not None:
            return asarray(out)
    shape = np.broadcast_shapes(x.shape, e.shape)
    if x.dtype == _F32 and e.dtype == _F32 and math.prod(shape) <= PORTED_MAX:
        from ._specfun import torch_powf
        out = torch_powf(x, e, simd_positions(shape, x, e, unroll=2))
    else:
        out = np.power(x, e)
    if e.dtype.kind == "f" and x.dtype.kind == "f":
        half = e == 0.5
        if half.any():
            fix = half & ((x == 0) | (x == -np.inf))
            if fix.any():
                out = np.where(fix, np.where(x == 0, 0, np.inf).astype(out.dtype), out)
    if out.dtype.itemsize == 2 and out.dtype.kind in "fV" and x.dtype == out.dtype:
        with np.errstate(invalid="ignore"):
            made = np.isnan(np.asarray(out, np.float32)) & ~np.isnan(x.astype(np.float32)) & \
                ~np.isnan(np.asarray(e).astype(np.float32))
        if made.any():  # (Note [Half NaN bits])
            out = half_nan_bits(out, made, "pow", simd_positions(out.shape, x, e, unroll=2))
    return asarray(out)


def pow_scalar(x, e):
    """x ** e for a number e, computed as PyTorch's CPU kernel does (Note [Exact float
    kernels]): e = 0.5, -0.5, -1, 2, 3, -2 by sqrt, 1/sqrt, 1/x, x*x, x*x*x, 1/(x*x) in x's
    dtype; any other e on float32 in double precision, rounded once (PyTorch's scalar loop;
    its SIMD loop calls SLEEF's powf, within 2 ulp of that). float16 has no fast paths
    (std::pow in float32: pow(-0.0, 0.5) is +0.0, pow(-inf, 0.5) +inf); bfloat16 takes
    them, each operation in float32 and rounded to bfloat16 (sqrt(-0.0) is -0.0)."""
    k = x.dtype.kind
    if x.dtype.itemsize == 2 and k in "fV" and (e.__class__ is int or e.__class__ is float):
        f = x.astype(np.float32)
        if k == "V" and e in (0.5, -0.5, -1, 2, 3, -2):
            with np.errstate(all="ignore"):
                if e in (0.5, -0.5):
                    r = np.sqrt(f)
                elif e == -1:
                    r = np.float32(1) / f
                else:
                    r = f * f
                if e in (-0.5, 2, 3, -2):  # 1 / sqrt(x), x * x * x, ...: rounded per step
                    r1 = r
                    r = r.astype(x.dtype).astype(np.float32)
                    r = (r * f if e == 3 else np.float32(1) / r if e in (-0.5, -2) else r)
                    simd = simd_positions(x.shape, x, unroll=2) if e == -0.5 else None
                    if simd is not None:  # (its SIMD loop's rsqrt: 1 / sqrt in float32)
                        r = np.where(simd, np.float32(1) / r1, r)
            return asarray(np.asarray(r).astype(x.dtype))
        # the exponent read in x's dtype (Scalar.to<Half>()); an exponent array of x's shape
        # (at least 1-d) keeps NumPy from its sqrt/square fast paths
        f1 = f.reshape(-1) if f.ndim == 0 else f
        ex = np.full(f1.shape, e, np.float64).astype(x.dtype).astype(np.float32)
        with np.errstate(invalid="ignore"):
            r = np.power(f1, ex).reshape(x.shape).astype(x.dtype)
        made = np.isnan(r.astype(np.float32)) & ~np.isnan(f)  # (Note [Half NaN bits])
        if e == e and made.any():  # (a NaN exponent's NaNs are not the kernel's own)
            r = half_nan_bits(r, made, "pow", simd_positions(x.shape, x, unroll=2))
        return asarray(r)
    if k == "c" and e.__class__ is not bool and e in (2, 3, -1, -2, -0.5):
        # (PyTorch's fast paths, with its complex products and quotients: Note [Complex
        # kernels]; unary kernels run two vectors a step)
        one = x.dtype.type(1)
        if e == -1:
            return asarray(true_divide(one, x))
        if e == -0.5:
            return asarray(true_divide(one, np.sqrt(x)))
        sq = mul(x, x, unroll=2)
        if e == 2:
            return asarray(sq)
        if e == 3:  # (complex64's scalar loop leaves its last elements' second product unfused)
            simd, odd = complex_loops(x.shape, x, unroll=2, kind="pow3")
            out = np.multiply(sq, x)
            if simd is None and odd is None:
                return asarray(out)
            if out.__class__ is not ndarray:
                out = np.asarray(out).copy()
            np.copyto(out, complex_mul_unfused(sq, x, x.dtype),
                      where=(simd if odd is None else odd if simd is None else simd | odd))
            return out
        return asarray(true_divide(one, sq))
    if k in "fc" and x.dtype.itemsize >= 4 and e.__class__ is not bool:
        if e == 2:
            return asarray(x * x)  # (a 0-d product is a NumPy scalar)
        if e == 0.5:
            return asarray(np.sqrt(x))
        if e == -1:
            return asarray(np.reciprocal(x))
        if e == 3:
            return asarray(x * x * x)
        if e == -0.5:
            return asarray(np.reciprocal(np.sqrt(x)))
        if e == -2:
            return asarray(np.reciprocal(x * x))
        if x.dtype == np.float32 and e.__class__ is not complex:
            r = np.power(x.astype(np.float64), e).astype(np.float32)
            if x.size <= PORTED_MAX:  # (its SIMD loop's powf takes the exponent in float: an
                # odd 2**40 + 1 is an even 2**40 there, the sign of a negative base's power)
                with np.errstate(over="ignore"):
                    e32 = np.float32(e)
                r = _sleef_powf_at(r, x, e32, simd_positions(x.shape, x, unroll=2))
            return asarray(r)
        if k == "c" and e != 0 and e != 1:  # (0 and 1 fill and copy in PyTorch)
            return complex_pow(x, np.asarray(e, x.dtype))
        if x.dtype == np.float64 and e.__class__ in (int, float) and e != 0 and e != 1:
            try:
                ex = np.float64(e)  # (the kernel's scalar_t(exp))
            except OverflowError:
                ex = None
            out = None if ex is None else pow64(x, ex, (x,))
            if out is not None:  # (a unary kernel: the exponent is no operand)
                return asarray(out)
    return asarray(x ** e)


def int_pow(x, e):
    """Integer power as PyTorch: a negative exponent gives 1 for base 1, +-1 for base -1,
    and 0 otherwise (NumPy refuses negative integer powers); overflow wraps."""
    neg = e < 0
    if not np.any(neg):
        return asarray(np.power(x, e))
    out = np.power(x, np.where(neg, 0, e))
    odd = (e % 2) != 0
    special = np.where(x == 1, 1, np.where(x == -1, np.where(odd, -1, 1), 0))
    return asarray(np.where(neg, special, out).astype(out.dtype, copy=False))


def div_trunc(a, b):
    """Quotient rounded toward zero; exact for integers (no float detour). float16/bfloat16:
    PyTorch's div_trunc_kernel (Note [Half scalars in float32])."""
    if isinstance(a, ndarray):
        k = a.dtype.kind
        if k in "iu" and np.asarray(b).dtype.kind in "biu":
            q = np.floor_divide(a, b)
            r = a - q * b  # floor's remainder: trunc is one more where it rounded a negative down
            return asarray(q + ((r != 0) & ((a < 0) != (np.asarray(b) < 0))).astype(q.dtype))
        if a.itemsize == 2 and k in "fV" and np.size(b) == 1:
            return asarray(np.trunc(np.true_divide(a.astype(_F32), _f32(b))).astype(a.dtype))
    return asarray(np.trunc(np.true_divide(a, b)))


def div_floor(a, b):
    """a / b rounded down as PyTorch's div_floor (NumPy's floor_divide: the quotient of
    fmod's remainder, so -1.5 // inf is -1 and inf // 1.5 is nan, not floor(a / b)).
    float16/bfloat16: Note [Half scalars in float32] (a single divisor) and Note [Reduced
    float floor division] (an array of divisors)."""
    if a.__class__ is ndarray and a.itemsize == 2 and a.dtype.kind in "fV":
        if np.size(b) == 1:
            return asarray(np.floor_divide(a.astype(_F32), _f32(b)).astype(a.dtype))
        return _reduced_div_floor(a, b)
    return asarray(np.floor_divide(a, b))


def _f32(b):
    """A single divisor as PyTorch's opmath float: a Python number or a 1-element array
    read in its own dtype, rounded once to float32 (iter.original_scalar_value<float>)."""
    return np.float32(b) if b.__class__ is not ndarray else b.astype(_F32)


# Note [Reduced float floor division]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's float16/bfloat16 floor division of two tensors (div_floor_floating_vec on
# Vectorized<Half/BFloat16>) runs CPython's algorithm -- mod = fmod(a, b), div = (a - mod)
# / b, minus one where mod's sign differs from b's, floor, plus one past a half -- with
# every operation computed in float32 and rounded back to the tensor's dtype: 188 of 22,029
# float16 quotients (243 bfloat16) differed from NumPy's floor_divide, which rounds once
# (4.125 // -0.003025: -1365 in PyTorch, -1364 in NumPy). A single divisor (a Python
# number, a 0-d or one-element tensor: TensorIterator's is_scalar(2)) takes the float32
# kernel instead, rounded once (Note [Half scalars in float32] in _common.py).
def _reduced_div_floor(a, b):
    dt = a.dtype
    b = b if b.__class__ is ndarray else np.asarray(b, dt)

    def rnd(v):
        return v.astype(dt).astype(_F32)
    f, g = a.astype(_F32), b.astype(_F32)
    mod = np.fmod(f, g)  # (exact: an fmod of two dt values is a dt value)
    div = rnd(rnd(f - mod) / g)
    div = np.where((mod != 0) & ((g < 0) != (mod < 0)), rnd(div - 1), div)
    floor = np.floor(div)
    floor = np.where(div - floor > 0.5, rnd(floor + 1), floor)
    basic = rnd(f / g)
    floor = np.where(div == 0, np.copysign(_F32.type(0), basic), floor)
    return asarray(np.where(g == 0, basic, floor).astype(dt))


def sign(x):
    """PyTorch's ``(0 < x) - (x < 0)``: 0 for nan and for -0.0; bools are their own sign."""
    if x.dtype.kind in "fV":
        return asarray(((x > 0).astype(x.dtype) - (x < 0).astype(x.dtype)))
    if x.dtype == np.bool_:
        return x.copy()
    return asarray(np.sign(x))


def gather(x, dim, index):
    """out[i][j] = x[index[i][j]][j] (dim 0): index may be smaller than x off dim."""
    if x.ndim == 0:  # (a 0-d x is one element along dim 0: every index is 0)
        return np.full(index.shape, x, dtype=x.dtype)
    if index.shape != x.shape:
        x = x[tuple(slice(None) if d == dim else slice(0, s)
                    for d, s in enumerate(index.shape))]
    return np.take_along_axis(x, index, axis=dim)


def _scatter_shapes(kernel):
    """aten's scatter kernels: nothing to do for an empty index; a 0-d self, index or src
    is one element along one dim."""
    def run(x, dim, index, src):
        if index.size == 0:
            return x.copy()
        if x.ndim == 0 or index.ndim == 0 or (isinstance(src, ndarray) and src.ndim == 0):
            one = (lambda a: a.reshape(1) if a.ndim == 0 else a)
            out = kernel(one(x), dim if x.ndim else 0, one(index),
                         one(src) if isinstance(src, ndarray) else src)
            # (a new array, not a view: a 0-d self's result is a copy of its one element)
            return out.reshape(()).copy() if not x.ndim else out
        return kernel(x, dim, index, src)
    return run


def scatter_add(x, dim, index, src):
    # (src is a tensor's array, or a 0-d gradient of the raw engine: a NumPy scalar)
    return _scatter_add(x, dim, index, asarray(src))


@_scatter_shapes
def _scatter_add(x, dim, index, src):
    out = x.copy()
    if out.ndim == 0:  # (index values are 0: every selected src element is added)
        for v in np.asarray(src)[tuple(slice(0, s) for s in index.shape)].reshape(-1):
            out[()] += v
        return out
    _scatter_add_into(out, dim, index, src)
    return out


def _scatter_add_into(out, dim, index, src):
    idx = list(np.indices(index.shape, sparse=True))
    idx[dim] = index
    np.add.at(out, tuple(idx), src[tuple(slice(0, s) for s in index.shape)])


@_scatter_shapes
def scatter(x, dim, index, src):
    out = x.copy()
    if out.ndim == 0:  # (index values are 0: the last selected src element is written)
        if index.size:
            out[()] = np.asarray(src)[tuple(slice(0, s) for s in index.shape)].reshape(-1)[-1] \
                if isinstance(src, ndarray) else src
        return out
    idx = list(np.indices(index.shape, sparse=True))
    idx[dim] = index
    if isinstance(src, ndarray):
        src = src[tuple(slice(0, s) for s in index.shape)]
    out[tuple(idx)] = src
    return out


def index_select(x, dim, index):
    return np.take(x, index, axis=dim)


def index_add(x, dim, index, src, alpha=1):
    out = x.copy()
    if x.ndim == 0:  # a 0-d self is one element along dim 0 (index_select's backward)
        out += np.sum(src * alpha if alpha != 1 else src, dtype=x.dtype) * np.asarray(index).size
        return out
    src = src * alpha if alpha != 1 else src
    if dim == 0 and src.dtype == out.dtype and src.ndim >= 2 and _index_add_rounds(
            out, np.asarray(index), src):
        return out
    key = (slice(None),) * dim + (index,)
    np.add.at(out, key, src)
    return out


def _index_add_rounds(out, index, src):
    """out[index[k]] += src[k] for every k in order, as ``np.add.at`` but by rounds: round
    r adds the r-th occurrence of each distinct index with one fancy-index add (distinct
    rows, so no conflicts), so each row sums in add.at's order, bit for bit. NumPy's
    add.at walks element by element (~10 x slower for rows of 100+, an embedding's
    backward); with few rows per round the rounds cost more, so then returns False."""
    n = index.size
    width = src.size // max(n, 1)
    if index.ndim != 1 or n < 64 or width < 32 or index.dtype.kind not in "iu" or \
            src.shape[0] != n:
        return False
    order = np.argsort(index, kind="stable")
    sidx = index[order]
    if sidx[0] < 0:
        return False
    new = np.empty(n, bool)
    new[0] = True
    np.not_equal(sidx[1:], sidx[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    rank = np.arange(n) - starts[np.cumsum(new) - 1]       # k-th occurrence of its index
    counts = np.bincount(rank)
    if counts.size * 4096 > n * width:                        # rounds too small to pay
        return False
    by_rank = order[np.argsort(rank, kind="stable")]
    pos = 0
    for c in counts.tolist():
        rows = by_rank[pos:pos + c]
        pos += c
        out[index[rows]] += src[rows]
    return True


def getitem(x, key):
    return asarray(x[key])


def getitem_backward(grad, shape, key):
    """Gradient of ``x[key]`` for a basic index: zeros of x's shape with grad at key."""
    out = np.zeros(shape, dtype=grad.dtype)
    out[key] = grad
    return out


select_backward = getitem_backward


def masked_select_backward(grad, shape, mask):
    return index_backward(grad, shape, (mask,))


def index_backward(grad, shape, key):
    """Gradient of advanced indexing ``x[key]``: repeated indices accumulate."""
    out = np.zeros(shape, dtype=grad.dtype)
    np.add.at(out, key, grad)
    return out


def cat(arrays, dim=0):
    return np.concatenate(arrays, axis=dim)


def stack(arrays, dim=0):
    return np.stack(arrays, axis=dim)


def narrow(x, dim, start, length):
    return x[(slice(None),) * dim + (slice(start, start + length),)]


def select(x, dim, index):
    return x[(slice(None),) * dim + (index, Ellipsis)]  # a view even when 0-d


# Note [PyTorch's float32 softmax]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's softmax over the last dim of a float32 or float64 tensor
# (_vec_softmax_lastdim) takes each row's max, SLEEF's exp of x - max (ported: Note
# [SLEEF's expf], Note [SLEEF's exp]), sums the row in its SIMD lanes (vec::reduce_all:
# 16 float or 8 double lanes accumulated vector by vector, the tail added into the first
# lanes, then for float lanes i and i + 8, i + 4, i + 2, i + 1, for double the lanes left
# to right (its VecReduceAllSIMD is float's only); a row shorter than a vector left to
# right) and multiplies by 1 / sum. _softmax_exact does the same, bit for bit; NumPy's
# exp and sum order left 42-77% of the float32 outputs another float, 96% of the float64
# rows. Over another dim (_vec_softmax, float64 here) each column of 8 is a vector: the
# max, then the sum of exp(x - max) from 0 along the dim, then x / sum (a division, not
# the reciprocal); the columns past the last full vector of the inner size are its scalar
# loop, glibc's exp (math.exp) and the same order. log_softmax (_vec_log_softmax_lastdim,
# _vec_logsoftmax) sums the same way and gives (x - max) - log(sum), the log SLEEF's
# (Vectorized::log on the sums: Note [SLEEF's logf], Note [SLEEF's log]). Up to
# PORTED_MAX elements (Note [Size of the ported kernels]: the float64 exp costs 25 x
# NumPy's); above, the fast path (Note [log_softmax without the shift]). float32 over
# other dims takes the port up to 8,192 elements (the fuzzer's and tests' sizes: 64 x 64
# softmax 12 -> 66 us, log_softmax 10 -> 106 us; 4,071 of 18,216 swept outputs differed,
# now 0) and the fast path beyond (25 x cheaper). With
# several threads PyTorch splits _vec_softmax's columns otherwise (tests/fuzz/
# OPEN_FINDINGS.md, stop 33): this is its one-thread result.


def _lanes(dtype):
    """Elements of ``dtype`` in one of PyTorch's SIMD vectors here (AVX-512: 64 bytes)."""
    return (_vector_bytes() or 64) // dtype.itemsize


def lane_sum(e, factors=None):
    """Row sums of a 2-d float32/float64 array in PyTorch's vec::reduce_all order, Note
    [PyTorch's float32 softmax]. ``factors``: e is their product, summed as
    vec::map2_reduce_all does, whose float tail's multiply-add GCC fuses (Note [PyTorch's
    softmax backward])."""
    n, width = e.shape
    lanes = _lanes(e.dtype)
    if width < lanes:
        acc = e[:, 0].copy()
        for i in range(1, width):
            acc += e[:, i]
        return acc
    full = width - width % lanes
    # (NumPy sums a middle axis vector by vector, in order: checked bit for bit; but
    # from +0.0, where PyTorch starts from the first vector: -0.0s sum to -0.0 there)
    acc = e[:, :full].reshape(n, full // lanes, lanes).sum(axis=1)
    if not acc.all():
        acc = e[:, :lanes].copy()
        for d in range(lanes, full, lanes):
            acc += e[:, d:d + lanes]
    if full < width and factors is not None and e.dtype == _F32:
        a, b = factors
        t = a[:, full:].astype(np.float64)
        t *= b[:, full:]
        t += acc[:, :width - full]
        acc[:, :width - full] = t
    elif full < width:
        acc[:, :width - full] += e[:, full:]
    if e.dtype != _F32:  # (double: lane 0 + lane 1 + ... in order)
        out = acc[:, 0].copy()
        for i in range(1, lanes):
            out += acc[:, i]
        return out
    w = lanes // 2
    while w:
        acc = acc[:, :w] + acc[:, w:2 * w]
        w //= 2
    return acc[:, 0]


def _exact_softmax(x, dim):
    """Whether softmax/log_softmax of ``x`` over ``dim`` runs PyTorch's kernel here: float64,
    float32 over the last dim (over others the port, exact too, would cost float32 25 x)."""
    return ((x.dtype == _F64 or x.dtype == _F32 and (dim in (-1, x.ndim - 1) or
                                                     x.size <= _SOFTMAX_F32_OTHER_DIM_MAX))
            and x.size <= PORTED_MAX and x.ndim and x.size)


_SOFTMAX_F32_OTHER_DIM_MAX = 8192  # (Note [PyTorch's float32 softmax]: the port's cost)


def _kernel_exp(x, lanes=None):
    """PyTorch's exp in its softmax kernels: SLEEF's; with ``lanes`` (a (outer, dim,
    inner) array), glibc's on the inner columns past the last full vector."""
    from ._specfun import expf, sleef_exp, sleef_expf
    sleef = sleef_expf if x.dtype == _F32 else sleef_exp
    if lanes is None or x.shape[-1] % lanes == 0:
        return sleef(x)
    vec = x.shape[-1] - x.shape[-1] % lanes
    out = np.empty_like(x)
    out[..., :vec] = sleef(x[..., :vec])
    tail = x[..., vec:]
    out[..., vec:] = expf(tail) if x.dtype == _F32 else np.array(
        [_glibc_exp(v) for v in tail.ravel().tolist()], np.float64).reshape(tail.shape)
    return out


def _glibc_exp(v):
    """glibc's exp of a float (math.exp), inf where it overflows."""
    try:
        return math.exp(v)
    except OverflowError:
        return math.inf


def _kernel_log(s):
    """Vectorized::log: SLEEF's (Note [SLEEF's logf], Note [SLEEF's log])."""
    from ._specfun import sleef_log, sleef_logf
    return sleef_logf(s) if s.dtype == _F32 else sleef_log(s)


def _along(x, dim):
    """x as (outer, dim, inner)."""
    return x.reshape(math.prod(x.shape[:dim]), x.shape[dim], -1)


def _seq_sum(v):
    """Sum over axis 1 of a 3-d array from +0.0, in order (NumPy sums a middle axis in
    order where the inner size is 2 or more: checked bit for bit; pairwise otherwise)."""
    if v.shape[2] > 1:
        return v.sum(axis=1, keepdims=True)
    return np.cumsum(v, axis=1)[:, -1:] + v.dtype.type(0)  # (from +0.0: -0.0s give +0.0)


def _owned(a, shape):
    """``a`` reshaped, as an array of its own (the engine takes a gradient with a base
    for a view of what it was made from: engine.py)."""
    if a.shape != shape:
        a = a.reshape(shape)
    return a if a.base is None else a.copy()


def _softmax_exact(x, dim, log=False):
    """PyTorch's float32/float64 softmax (``log``: log_softmax) over dim, bit for bit
    (Note [PyTorch's float32 softmax])."""
    if dim in (-1, x.ndim - 1):
        rows = x.reshape(-1, x.shape[-1])
        e = rows - rows.max(axis=1, keepdims=True)
        if log:
            e -= _kernel_log(lane_sum(_kernel_exp(e)))[:, None]
            return _owned(e, x.shape)
        e = _kernel_exp(e)
        e *= (x.dtype.type(1) / lane_sum(e))[:, None]
        return _owned(e, x.shape)
    v = _along(x, dim % x.ndim)
    e = v - v.max(axis=1, keepdims=True)
    if log:
        e -= _kernel_log(_seq_sum(_kernel_exp(e, _lanes(x.dtype))))
        return _owned(e, x.shape)
    e = _kernel_exp(e, _lanes(x.dtype))
    e /= _seq_sum(e)
    return _owned(e, x.shape)


def softmax(x, dim):
    if x.size == 0:
        return x.copy()
    if _exact_softmax(x, dim):
        return _softmax_exact(x, dim)
    tiny = _LSE_TINY.get(x.dtype)
    if tiny is not None and dim in (-1, x.ndim - 1) and x.ndim:
        # (Note [log_softmax without the shift]: exp(x) / sum(exp(x)) where safe)
        with np.errstate(over="ignore"):
            e = np.exp(x)
        s = _sum_last(e, keepdims=True)
        if s.min() >= tiny and np.isfinite(s).all():
            e /= s
            return e
    e = x - x.max(axis=dim, keepdims=True)
    if e.__class__ is not ndarray:  # (a 0-d x gives a NumPy scalar)
        e = np.asarray(e)
    np.exp(e, out=e)
    e /= _sum_last(e, keepdims=True) if dim in (-1, x.ndim - 1) else e.sum(dim, keepdims=True)
    return e


def _sum_last(x, keepdims=False):
    """Sums over the last axis of a real floating array as one GEMV (NumPy's reduction
    over short contiguous rows is ~4 x slower: a softmax over 64 keys, a layer norm over
    128 features)."""
    if (x.dtype != np.float32 and x.dtype != np.float64) or x.ndim == 0:
        return x.sum(-1, keepdims=keepdims)
    s = _blas(x) @ np.ones(x.shape[-1], x.dtype)
    return s[..., None] if keepdims else s


# Note [log_softmax without the shift]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's x - max - log(sum(exp(x - max))) costs two broadcast subtractions (NumPy's
# slowest pass here: ~0.9 ms each over the LSTM benchmark's 1120 x 1000 logits, against
# 0.65 for exp) and a max. Over the last dim of float32/float64 rows the shift is only
# needed where exp(x) would overflow or the row's sum fall out of the normal range, so
# the fast path is x - log(sum(exp(x))) and is kept only if every row's sum is finite and
# at least _LSE_TINY (then the row's largest exp is a normal number and the result
# agrees with the shifted formula to rounding: measured on N(0, 9) logits, 1.7e-6 from
# the float64 value against 2.2e-6 for the shifted one). Otherwise (large logits, inf,
# NaN, rows of very negative values) the shifted formula runs as PyTorch's. softmax over
# the last dim takes the same path, exp(x) / sum(exp(x)): 1.31 -> 0.45 ms on a
# transformer's 16 x 4 x 64 x 64 attention scores (the max over 64-element rows is
# NumPy's slow short-row reduction), and closer to the float64 value than the shifted
# formula, whose subtraction rounds (N(0, 100) scores: 4.1e-7 relative against 3.9e-6
# for PyTorch's and the shifted one).
_LSE_TINY = {np.dtype(np.float32): 1e-30, np.dtype(np.float64): 1e-290}


def log_softmax(x, dim):
    if x.size == 0:
        return x.copy()
    if _exact_softmax(x, dim):
        return _softmax_exact(x, dim, log=True)
    tiny = _LSE_TINY.get(x.dtype)
    if tiny is not None and dim in (-1, x.ndim - 1) and x.ndim and x.shape[-1] > 1:
        with np.errstate(over="ignore"):
            e = np.exp(x)
        s = _sum_last(e, keepdims=True)
        low = s.min()
        if low >= tiny and np.isfinite(s).all():
            np.log(s, out=s)
            out = np.subtract(x, s, out=e)
            if not s.all():  # a row summing to 1: PyTorch's (x - max) - 0 is +0.0, not -0.0
                out += 0.0
            return out
    shifted = x - x.max(axis=dim, keepdims=True)
    e = np.exp(shifted)
    s = _sum_last(e, keepdims=True) if dim in (-1, x.ndim - 1) else e.sum(dim, keepdims=True)
    shifted -= np.log(s)
    return shifted


def _exact_lastdim(grad, output, dim):
    """Whether a softmax backward runs PyTorch's float32 kernel here (Note [PyTorch's
    float32 softmax]; an empty output has no rows to run it on)."""
    return (output.dtype == _F32 and grad.dtype == _F32 and output.ndim and output.size and
            dim in (-1, output.ndim - 1) and grad.shape == output.shape and
            output.size <= PORTED_MAX)


def _exact_backward(grad, output, dim):
    """Whether a float64 softmax backward runs PyTorch's kernel here (Note [PyTorch's
    softmax backward]; float32 over the last dim: _exact_lastdim)."""
    return ((output.dtype == _F64 and grad.dtype == _F64 or output.dtype == _F32 and
             grad.dtype == _F32 and output.size <= _SOFTMAX_F32_OTHER_DIM_MAX and
             dim not in (-1, output.ndim - 1)) and output.ndim and output.size
            and grad.shape == output.shape and output.size <= PORTED_MAX)


# Note [PyTorch's softmax backward]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# Over the last dim (_vec_host_softmax_backward_lastdim) softmax's is (grad - sum) *
# output with sum = vec::map2_reduce_all(grad * output): lane_sum's order, the float
# tail's multiply-add fused by GCC but not the double one (checked on PyTorch's);
# log_softmax's grad - exp(output) * sum(grad), fused. Over another dim
# (_vec_softmax_backward, _vec_log_softmax_backward) the sums run along the dim from 0 (a
# fused sum += grad * output for softmax), then output * (grad - sum) and the fused grad -
# exp(output) * sum, the exp SLEEF's in the vector columns and glibc's past them (Note
# [PyTorch's float32 softmax]). float64 here, bit for bit on the fuzzed rows (float32
# over the last dim: _exact_lastdim; over others the fast path).
def _softmax_backward_exact(grad, output, dim, log):
    ct = output.dtype.type
    if dim in (-1, output.ndim - 1):
        g = grad.reshape(-1, grad.shape[-1])
        o = output.reshape(g.shape)
        if log:
            e = np.negative(_kernel_exp(o))
            out = _fma(e, np.broadcast_to(lane_sum(g)[:, None], e.shape), g, ct)
        else:
            out = g - lane_sum(g * o)[:, None]
            out *= o
        return _owned(out, output.shape)
    d = dim % output.ndim
    g, o = _along(grad, d), _along(output, d)
    if log:
        e = np.negative(_kernel_exp(o, _lanes(o.dtype)))
        return _owned(_fma(e, np.broadcast_to(_seq_sum(g), e.shape), g, ct), output.shape)
    acc = _fused_seq_sum(g, o)
    out = g - acc
    out *= o
    return _owned(out, output.shape)


def _fused_seq_sum(a, b):
    """acc = fma(a[:, i], b[:, i], acc) from acc = 0 along axis 1 of 3-d float64 arrays:
    the products and their exact errors at once, then in order acc + p + err rounded once
    (TwoSum)."""
    if a.dtype == _F32:  # (the float32 product is exact in float64: one rounding of the sum
        # but for the rare double rounding, float64 then float32)
        p = a.astype(np.float64) * b
        acc = np.zeros(p[:, :1].shape, _F32)
        for i in range(p.shape[1]):
            acc = (acc + p[:, i:i + 1]).astype(_F32)
        return acc
    from ._specfun import _split
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    err = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    fin = np.isfinite(p) & np.isfinite(err)
    acc = np.zeros(p[:, :1].shape, p.dtype)
    with np.errstate(invalid="ignore"):
        for i in range(p.shape[1]):
            pi, ei = p[:, i:i + 1], err[:, i:i + 1]
            s = acc + pi
            bb = s - acc
            e2 = (acc - (s - bb)) + (pi - bb)
            acc = np.where(fin[:, i:i + 1] & np.isfinite(s), s + (e2 + ei), s)
    return acc


def log_softmax_lastdim_reduced(x, dtype):
    """PyTorch's log_softmax over the last dim of float16/bfloat16 ``x`` (given as float32):
    its kernel keeps each row's sum of exp(x - max) and that sum's log in the 16-bit dtype,
    and rounds (x - max) - log once (matches PyTorch bit for bit on random rows; over other
    dims everything stays in float32 until the result)."""
    shape = x.shape
    x = x.reshape(1) if not x.ndim else x
    m = x.max(axis=-1, keepdims=True)
    shifted = x - m
    s = np.exp(shifted).sum(axis=-1, keepdims=True).astype(dtype).astype(np.float32)
    log_s = np.log(s).astype(dtype).astype(np.float32)
    return (shifted - log_s).astype(dtype).reshape(shape)


# Note [PyTorch's half softmax]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# softmax of float16/bfloat16 runs its own kernels (SoftMaxKernel.cpp's reduced floating
# point specializations), in float32 throughout, the result rounded once, W = 8 (AVX2) or
# 16 (AVX-512) float lanes, Vectorized<Half> 2W elements:
# - over the last dim (_vec_softmax_lastdim): each row's max, SLEEF's expf of x - max in
#   whole float vectors into a float buffer, summed from a zero vector vector by vector and
#   the lanes folded (i + W/2, ...: lane_sum's fold), the columns past the last whole
#   vector glibc's expf, added one by one after the fold; then x * (1 / sum).
# - over another dim (_vec_softmax): per outer index, the inner columns in steps of 2W:
#   SLEEF's expf of x - max, summed from 0 along the dim, x / sum (a division). The
#   columns past the last whole step (the scalar tail): glibc's expf, summed from 0, but the
#   exp stored into the 16-bit output first and read back: half(half(e) / sum).
# - the backward over the last dim (_vec_host_softmax_backward_lastdim): sum =
#   vec::map2_reduce_all(grad * output) in functional_bfloat16.h's order (_reduced_sum: two
#   float vectors from the first 2W products, ...), a float (not rounded), then (grad -
#   sum) * output; over another dim the float32 kernel's order (the products of two 16-bit
#   floats are exact in float32, so its fusing changes nothing). log_softmax
#   (log_softmax_lastdim_reduced) and its backward agreed already.
# Measured against torch (one thread): last dim x * (1 / sum) 0 of 1,017,000 outputs off
# (x / sum: 31); NumPy's exp in place of SLEEF's: 84 of 1,017,000 (so the ports are
# needed, if rarely); other dims 0 of 734,470 (steps of W, not 2W: 270 of 345,552).
# Up to PORTED_MAX elements (Note [Size of the ported kernels]); above, float32's path.
def _reduced_ok(x):
    """Whether a half softmax (or its backward) of ``x`` takes the port."""
    return x.ndim and x.size and x.size <= PORTED_MAX


def softmax_reduced(x, dim, dtype):
    """PyTorch's softmax of float16/bfloat16 ``x`` (given as float32) over ``dim``, in
    ``dtype`` (Note [PyTorch's half softmax])."""
    if not _reduced_ok(x):
        return asarray(softmax(x, dim)).astype(dtype)
    from ._specfun import expf, sleef_expf
    w = _lanes(_F32)
    with np.errstate(invalid="ignore", over="ignore"):
        if dim == x.ndim - 1:
            rows = x.reshape(-1, x.shape[-1])
            n, width = rows.shape
            full = width - width % w
            e = rows - rows.max(axis=1, keepdims=True)
            e[:, :full] = sleef_expf(e[:, :full])
            e[:, full:] = expf(e[:, full:])
            acc = e[:, :full].reshape(n, full // w, w).sum(axis=1) if full else \
                np.zeros((n, w), _F32)
            while acc.shape[1] > 1:
                half = acc.shape[1] // 2
                acc = acc[:, :half] + acc[:, half:]
            s = acc[:, 0]
            for i in range(full, width):
                s = s + e[:, i]
            e *= (_F32.type(1) / s)[:, None]
            return e.astype(dtype).reshape(x.shape)
        v = _along(x, dim)
        step = 2 * w
        vec = v.shape[2] - v.shape[2] % step
        e = v - v.max(axis=1, keepdims=True)
        out = np.empty(v.shape, dtype)
        if vec:
            ev = sleef_expf(e[:, :, :vec])
            out[:, :, :vec] = (ev / _seq_sum(ev)).astype(dtype)
        if vec < v.shape[2]:
            et = expf(e[:, :, vec:])
            out[:, :, vec:] = (et.astype(dtype).astype(_F32) / _seq_sum(et)).astype(dtype)
        return out.reshape(x.shape)


def _reduced_sum(p):
    """Row sums of float32 ``p`` in functional_bfloat16.h's reduce_all order (W float
    lanes, vectors of 2W 16-bit elements; Note [PyTorch's half softmax])."""
    n, width = p.shape
    w = _lanes(_F32)

    def seq(a):
        s = a[:, 0].copy()
        for i in range(1, a.shape[1]):
            s += a[:, i]
        return s
    if width < 2 * w:  # (one partial vector: its halves added, then lane by lane)
        if width <= w:
            return seq(p)
        a0 = p[:, :w].copy()
        a0[:, :width - w] += p[:, w:]
        return seq(a0)
    a0, a1 = p[:, :w].copy(), p[:, w:2 * w].copy()
    d = 2 * w
    while d + 2 * w <= width:
        a0 += p[:, d:d + w]
        a1 += p[:, d + w:d + 2 * w]
        d += 2 * w
    r = width - d
    if r > w:
        a0 += p[:, d:d + w]
        a1[:, :r - w] += p[:, d + w:]
    elif r:
        a0[:, :r] += p[:, d:]
    a0 += a1
    while a0.shape[1] > 1:
        half = a0.shape[1] // 2
        a0 = a0[:, :half] + a0[:, half:]
    return a0[:, 0]


def softmax_backward_data(grad, output, dim):
    if _half(output):  # float16/bfloat16: in float32, rounded once (PyTorch's kernels)
        if (grad.dtype == output.dtype and grad.shape == output.shape and
                dim in (-1, output.ndim - 1) and _reduced_ok(output)):
            # (Note [PyTorch's half softmax]: the sum in functional_bfloat16.h's order)
            g = grad.reshape(-1, grad.shape[-1]).astype(_F32)
            o = output.reshape(g.shape).astype(_F32)
            out = g - _reduced_sum(g * o)[:, None]
            out *= o
            return out.astype(output.dtype).reshape(output.shape)
        return softmax_backward_data(grad.astype(np.float32), output.astype(np.float32),
                                     dim).astype(output.dtype)
    if _exact_lastdim(grad, output, dim):  # (grad - sum(grad * output)) * output, its order
        g, o = grad.reshape(-1, grad.shape[-1]), output.reshape(-1, output.shape[-1])
        out = g - lane_sum(g * o, (g, o))[:, None]
        out *= o
        return _owned(out, output.shape)
    if _exact_backward(grad, output, dim):
        return _softmax_backward_exact(grad, output, dim, False)
    go = grad * output
    if dim in (-1, output.ndim - 1) and go.ndim:
        np.subtract(grad, _zero_signs(_sum_last(go, keepdims=True), go, -1), out=go)
        go *= output
        return go
    return output * (grad - _zero_signs(go.sum(axis=dim, keepdims=True), go, dim))


def _zero_signs(s, terms, axis):
    """Row sums ``s`` of ``terms`` as PyTorch's softmax backward kernels' map_reduce_all
    makes them, which starts from the row's own elements, not from +0.0: a row of -0.0s
    sums to -0.0 (so -0.0 - sum is +0.0). Free unless a sum is zero."""
    if s.all():
        return s
    neg = np.all(np.signbit(terms) & (terms == 0), axis=axis, keepdims=True)
    return np.where(neg, -s.dtype.type(0), s) if neg.any() else s


def log_softmax_backward_data(grad, output, dim):
    if _half(output):  # float16/bfloat16: in float32, rounded once (PyTorch's kernels)
        return log_softmax_backward_data(grad.astype(np.float32), output.astype(np.float32),
                                         dim).astype(output.dtype)
    if _exact_lastdim(grad, output, dim):
        # PyTorch's grad - exp(output) * sum(grad): SLEEF's exp, the row sum in its lanes,
        # and the multiply-subtract fused (GCC contracts it): one rounding, from float64
        from ._specfun import sleef_expf
        g = grad.reshape(-1, grad.shape[-1])
        e = sleef_expf(output.reshape(g.shape)).astype(np.float64)
        e *= lane_sum(g)[:, None]
        np.subtract(g, e, out=e)
        return _owned(e.astype(np.float32), output.shape)
    if _exact_backward(grad, output, dim):
        return _softmax_backward_exact(grad, output, dim, True)
    e = np.exp(output, out=np.empty_like(output))  # (an array even for a 0-d output)
    last = dim in (-1, output.ndim - 1) and grad.ndim
    s = _sum_last(grad, keepdims=True) if last else grad.sum(axis=dim, keepdims=True)
    s = _zero_signs(s, grad, -1 if last else dim)
    if s.size > 1 and s.min() == s.max():
        # every row's sum the same (nll_loss's mean: -1/N each): one element, broadcast
        # over the whole array, is ~2 x faster than a column and gives the same bits
        s = s.reshape(-1)[:1]
    e *= s
    return np.subtract(grad, e, out=e)


# Note [SIMD tie picks]: at a tie of signed zeros, PyTorch's maximum/minimum (and clamp by
# tensor bounds) return the first operand in their scalar loop and the second in their SIMD
# loop (vmaxpd's rule). TensorIterator runs the SIMD loop over whole vectors of each
# contiguous inner run (the trailing dims its operands let it merge) and the scalar loop
# over the rest: a tensor shorter than one vector (the common case), or a non-contiguous
# one, takes the first operand everywhere. The vector width is the CPU's: 64 bytes with
# AVX-512, 32 with AVX2 (PyTorch's CPU capability; ATEN_CPU_CAPABILITY overrides it).
_VECTOR_BYTES = []


def _cpu_flags():
    """The CPU's feature flags (none where /proc/cpuinfo is not there: not Linux)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        return set()
    return set()


def _vector_bytes():
    if not _VECTOR_BYTES:
        import os
        cap = os.environ.get("ATEN_CPU_CAPABILITY", "").lower()
        if not cap:
            flags = _cpu_flags()
            avx512 = {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= flags
            cap = "avx512" if avx512 else "avx2" if {"avx2", "fma"} <= flags else "default"
        _VECTOR_BYTES.append({"avx512": 64, "avx2": 32}.get(cap, 0))
    return _VECTOR_BYTES[0]


GRAIN_SIZE = 32768  # (at::internal::GRAIN_SIZE)


def _thread_chunk(n, grain):
    """The elements each thread takes when TensorIterator's for_each splits ``n`` of them
    (at::parallel_for with ``grain``: ceil(n / threads) each, threads = min(
    at::get_num_threads(), ceil(n / grain))), or None where one thread takes them all."""
    if n < grain:
        return None
    from .nn_ops import _aten_threads
    nt = min(_aten_threads(), -(-n // max(grain, 1)))
    return -(-n // nt) if nt > 1 else None


def simd_positions(shape, *operands, unroll=1, grain=GRAIN_SIZE):
    """A boolean array of ``shape``: the elements PyTorch's SIMD loop computes for an
    elementwise op of ``operands`` (Note [SIMD tie picks]); None where it computes none.
    The inner loop runs along TensorIterator's fastest dim (its dim order: layout._perm),
    merged with the next ones while every operand stays dense across them. ``unroll``:
    vectors per step (2 for the unary kernels measured: sigmoid). Past ``grain`` elements
    the threads' ranges (_thread_chunk, in iteration order) cut the runs too: each piece
    has its own scalar tail."""
    n = math.prod(shape)
    width = _vector_bytes()
    itemsize = max(getattr(x, "itemsize", 8) for x in operands)
    lanes = width // itemsize * unroll if width else 0
    if not lanes or n < lanes or not shape:
        return None
    sizes, strides, order, run, k = _inner_run(shape, operands)
    inner = [st[order[0]] for st in strides]
    if builtins.sum(s == 0 for s in inner) > 1 or any(s not in (0, 1) for s in inner):
        return None  # (a strided inner dim, or two broadcast operands: the scalar loop)
    if run < lanes:
        return None
    place = _run_places(sizes, order, k)
    chunk = _thread_chunk(n, grain)
    if chunk is None or chunk % run == 0:
        return (place < run // lanes * lanes).reshape(shape)
    lin = _run_places(sizes, order, len(order))  # (the place in iteration order)
    start = lin - place
    lo = np.maximum(start, lin // chunk * chunk)
    hi = np.minimum(start + run, np.minimum(lin // chunk * chunk + chunk, n))
    return ((lin - lo) < (hi - lo) // lanes * lanes).reshape(shape)


def _inner_run(shape, operands):
    """TensorIterator's loop over ``operands`` broadcast to ``shape`` (some dim not 1):
    (sizes, strides, order, run, k): the sizes of the dims other than 1 (those coalesce
    away), each operand's element strides along them, their order (fastest first:
    layout._perm), and the inner run's length, the first ``k`` dims of that order merged
    while every operand stays dense across them."""
    dims = [d for d in range(len(shape)) if shape[d] != 1]
    sizes = [shape[d] for d in dims]
    strides = []
    for x in operands:
        x = np.asarray(x)
        b = np.broadcast_to(x, shape).strides
        strides.append([b[d] // x.itemsize for d in dims])
    order = layout._perm(sizes, strides)
    run, k = sizes[order[0]], 1
    while k < len(order) and all(st[order[k]] == st[order[k - 1]] * sizes[order[k - 1]]
                                 for st in strides):
        run *= sizes[order[k]]
        k += 1
    return sizes, strides, order, run, k


def _run_places(sizes, order, k):
    """Each element's place in its inner run (_inner_run's), an int64 array of ``sizes``."""
    index = np.zeros(sizes, dtype=np.int64)
    step = 1
    for i in order[:k]:
        index = index + (np.arange(sizes[i]) * step).reshape(
            [-1 if j == i else 1 for j in range(len(sizes))])
        step *= sizes[i]
    return index


def _pick_at_zero_ties(out, a, b, operands=None):
    """out with PyTorch's pick where a and b are zeros of either sign (Note [SIMD tie
    picks]): a in the scalar loop, b in the SIMD loop; ``operands``: the op's own inputs,
    whose layout decides the loop (default a and b)."""
    if out.dtype.kind not in "fV" or not out.size or out.all():
        return out
    tie = (a == 0) & (b == 0)
    if not tie.any():
        return out
    simd = simd_positions(out.shape, *(operands or (a, b)))
    pick = a if simd is None else np.where(simd, b, a)
    return np.where(tie, pick, out).astype(out.dtype, copy=False)


# Note [SIMD fmod]: PyTorch's fmod and remainder kernels are exact (std::fmod) in their
# scalar loop, but their SIMD loop calls SLEEF's fmod, which divides by steps starting from
# the quotient toward0(|a|) * toward0(1 / |b|) (both scaled by 2^54, 2^25 in float, when
# |b| is subnormal; toward0 is one ulp toward zero): where that product overflows, the
# result is NaN (fmod(1.0, 1e-310), fmod(1e300, 1e-10)). float16/bfloat16 compute in
# float32 (float16's range cannot overflow it). The loop picks positions as in Note [SIMD
# tie picks]; the rule matches PyTorch on 2^16 random exponents and at the overflow edge.
def _toward0(x):
    return np.where(x == 0, x, np.nextafter(x, x.dtype.type(0)))


def fmod(a, b):
    """C's fmod, NaN where PyTorch's SIMD loop overflows (Note [SIMD fmod])."""
    out = np.fmod(a, b)
    if out.__class__ is not ndarray or out.dtype.kind not in "fV" or not out.size or \
            out.itemsize == 2 and out.dtype.kind == "f":
        return asarray(out)
    ct = np.float64 if out.dtype == np.float64 else np.float32
    nu = np.abs(np.asarray(a, dtype=ct))
    de = np.abs(np.asarray(b, dtype=ct))
    fmax = np.finfo(ct).max
    with np.errstate(all="ignore"):
        if not nu.size or nu.max(initial=0) * ct(2) < fmax * de.min(initial=np.inf):
            return out  # (no quotient near the overflow: the common case, cheaply)
        tiny = de < np.finfo(ct).tiny
        if tiny.any():
            scale = ct(2.0 ** (54 if ct is np.float64 else 25))
            nu = np.where(tiny, nu * scale, nu)
            de = np.where(tiny, de * scale, de)
        over = np.isinf(_toward0(nu) * _toward0(ct(1) / de)) & (nu >= de)
    if not over.any():
        return out
    simd = simd_positions(out.shape, *(x if x.__class__ is ndarray else
                                       np.asarray(x, out.dtype) for x in (a, b)))
    if simd is None:
        return out
    return np.where(over & simd, out.dtype.type(np.nan), out)


def maximum(a, b):
    return asarray(_pick_at_zero_ties(np.maximum(a, b), a, b))


def minimum(a, b):
    return asarray(_pick_at_zero_ties(np.minimum(a, b), a, b))


# Note [Exact float kernels]
# Where PyTorch's CPU kernel is an exact formula (pow with exponent 2, 3, -1, -2, 0.5, -0.5;
# sigmoid as 1 / (1 + exp(-x)); integer powers and divisions), the kernel here is the same
# formula in the same dtype, so results are bit-identical. Transcendental functions (exp,
# log, sin, tanh, pow with other exponents...) come from NumPy's libm/SIMD kernels, which
# differ from PyTorch's SLEEF/libm by at most a few ulp: README "Numerics" has the measured
# sizes.


def clamp(x, min=None, max=None):
    """PyTorch's ``x < min ? min : x`` (then the same with max): an element equal to a bound
    is kept (so -0.0 stays -0.0), a NaN element stays NaN, a NaN bound gives NaN."""
    out = x
    # (a tie with a tensor bound: Note [SIMD tie picks]; the loop is the whole op's)
    operands = [x] + [b for b in (min, max) if b.__class__ is np.ndarray]
    if min is not None:
        out = np.where(out < min, min, out) if not _isnan(min) else out + min
        if min.__class__ is np.ndarray:
            out = _pick_at_zero_ties(out, x, min, operands)
    if max is not None:
        prev = out
        out = np.where(out > max, max, out) if not _isnan(max) else out + max
        if max.__class__ is np.ndarray:
            out = _pick_at_zero_ties(out, prev, max, operands)
    for bound in (min, max):  # a tensor bound's NaN too (its kernels check min != min)
        if bound.__class__ is np.ndarray and bound.dtype.kind in "fcV":
            out = np.where(np.isnan(bound), bound, out)
    return asarray(out).astype(x.dtype, copy=False) if out is not x else x.copy()


def _isnan(v):
    return v.__class__ is float and v != v


def relu(x):
    # maximum(0, x) returns x where they compare equal: relu(-0.0) is -0.0 as in PyTorch
    # (NumPy's float16 loop returns the first operand instead: 0)
    if x.dtype == np.float16:
        return asarray(np.where(x < 0, x.dtype.type(0), x))
    return asarray(np.maximum(0, x).astype(x.dtype, copy=False))


# PyTorch's activation backward kernels (aten::leaky_relu_backward, ...): ops of their own,
# so that a recorded backward (or a tangent) reads ``self`` as a graph input as PyTorch's
# does (Note [Activation backward ops] in pointwise.py).
# Note [Half activations in float32]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# aten's activation kernels for float16/bfloat16 (leaky_relu, hardsigmoid, hardswish and
# their backward) convert the inputs to float32, compute with float32 coefficients
# (negval, 1/6 as floats) and round the result once; computing in the half type step by
# step (its coefficients rounded to it) was off by an ulp in about 15% of the elements.
def _half_f32(*arrays):
    """The arrays in float32 when the last is float16/bfloat16, else None."""
    a = arrays[-1]
    if a.itemsize == 2 and a.dtype.kind in "fV":
        return [x.astype(np.float32) for x in arrays]
    return None


def _promoting(kernel):
    """An activation's backward kernel as aten's TensorIterator runs it: ``grad`` and
    ``self`` of different dtypes (a forward-mode tangent of another dtype than its primal:
    PyTorch's auto_element_wise rule calls this kernel) computed in their common dtype."""
    def run(grad, self, *params):
        if grad.dtype != self.dtype and grad.__class__ is ndarray and \
                self.__class__ is ndarray:
            from .. import _dtypes
            common = _dtypes.binary_result_dtype(
                _dtypes.from_numpy(grad.dtype), grad.ndim == 0,
                _dtypes.from_numpy(self.dtype), self.ndim == 0).np
            grad, self = grad.astype(common, copy=False), self.astype(common, copy=False)
        return kernel(grad, self, *params)
    run.__name__, run.__doc__ = kernel.__name__, kernel.__doc__
    return run


@_promoting
def leaky_relu_backward(grad, self, negative_slope):
    f = _half_f32(grad, self)
    if f is not None:
        g, x = f
        with np.errstate(invalid="ignore"):
            out = np.where(x > 0, g, g * np.float32(negative_slope))
        return asarray(out.astype(self.dtype))
    return asarray(np.where(self > 0, grad, grad * negative_slope))


rrelu_with_noise_backward = leaky_relu_backward


@_promoting
def hardtanh_backward(grad, self, min_val, max_val):
    """0 outside (min_val, max_val); at a NaN input the scalar loop passes grad on (its
    test is false), the SIMD loop's mask (min < self < max) gives 0, as shrink_backward."""
    out = asarray(np.where((self <= min_val) | (self >= max_val), 0, grad))
    return _nan_lanes(out, self, (grad, self), vector_value=0)


_ONE_SIXTH_F = float(np.float32(1 / 6))  # 1/6 in float, as PyTorch's kernel


@_promoting
def hardsigmoid_backward(grad, self):
    f = _half_f32(grad, self)
    if f is not None:
        g, x = f
        out = np.where((x > -3) & (x < 3), g * np.float32(_ONE_SIXTH_F), np.float32(0))
        return asarray(out.astype(self.dtype))
    return where((self > -3) & (self < 3), grad * _ONE_SIXTH_F, 0)


def softshrink(a, lambd):
    """PyTorch's softshrink kernel: its scalar loop's zero keeps the input's sign (a * 0),
    its SIMD loop's masks give +0.0 (Note [SIMD tie picks] locates the loops)."""
    with np.errstate(invalid="ignore"):
        out = np.where(a > lambd, a - lambd, np.where(a < -lambd, a + lambd, a * 0))
    out = asarray(out.astype(a.dtype, copy=False))
    if out.dtype.kind in "fV" and out.size:
        simd = simd_positions(a.shape, a)
        if simd is not None:
            out = asarray(np.where(simd & (out == 0), out.dtype.type(0), out))
    return out


@_promoting
def softshrink_backward(grad, self, lambd):
    """PyTorch's shrink_backward: 0 inside [-lambd, lambd]; at a NaN input the scalar loop
    passes grad on (its test is false), the SIMD loop's mask gives 0."""
    out = asarray(np.where((self >= -lambd) & (self <= lambd), 0, grad))
    return _nan_lanes(out, self, (grad, self), vector_value=0)


hardshrink_backward = softshrink_backward


def sigmoid(x):
    """PyTorch's kernel, 1 / (1 + exp(-x)); float16/bfloat16 in float32 (exp(11.1)
    overflows float16: sigmoid(-11.1) is not 0). Its float exp is SLEEF's in the SIMD loop
    and glibc's in the scalar loop (Note [SLEEF's expf] in _specfun.py): both ported, so
    a float32 result is PyTorch's bit for bit (NumPy's float32 exp gave another float on
    17% of inputs)."""
    dt = x.dtype
    if dt.kind == "c" or dt.itemsize == 8:
        return asarray(1 / (1 + np.exp(-x)))
    if x.size > PORTED_MAX:  # (Note [Size of the ported kernels])
        with np.errstate(over="ignore"):
            return asarray(1 / (1 + np.exp(-x.astype(np.float32)))).astype(dt, copy=False)
    from ._specfun import torch_expf
    e = torch_expf(np.negative(x, dtype=np.float32),
                   simd_positions(x.shape, x, unroll=2))
    e += 1
    return asarray(np.reciprocal(e, out=e)).astype(dt, copy=False)


# The backward kernels of tanh, sigmoid and relu, as PyTorch's (tanh_backward,
# sigmoid_backward, threshold_backward: ops of their own, so that a graph of the backward
# has their XBackwardBackward0 nodes).
def _half(a):
    return a.__class__ is ndarray and a.itemsize == 2 and a.dtype.kind in "fV"


def _complex_products(a, b, fused, unfused):
    """A binary complex kernel of products: ``fused(a, b)`` (NumPy's products: the scalar
    loop's) with ``unfused(a, b)`` (each product rounded part by part) at the elements of
    PyTorch's SIMD loop (Note [Complex kernels])."""
    out = fused(a, b)
    simd = complex_loops(np.shape(out), out, a, b)[0] if np.ndim(out) else None
    if simd is not None:
        out = np.where(simd, unfused(a, b), out)
    return asarray(out)


def _cm(a, b):
    return complex_mul_unfused(a, b, np.result_type(a, b))


def _in_float32(kernel, grad, output):
    """kernel(grad, output) of float16/bfloat16 operands as PyTorch's tanh_backward and
    sigmoid_backward kernels: in float32, rounded once, into the operands' common dtype (a
    float32 tangent of a float16 tanh's result: float32)."""
    dt = output.dtype if grad.dtype == output.dtype else np.promote_types(
        np.float32 if _half(grad) else grad.dtype, np.float32 if _half(output) else
        output.dtype)
    ct = np.promote_types(dt, np.float32)
    return asarray(kernel(grad.astype(ct), output.astype(ct))).astype(dt)


@_promoting
def tanh_backward(grad, output):
    if output.dtype.kind == "c":  # (a * conj(1 - b * b): the gradient comes conjugated)
        return _complex_products(grad, output, lambda a, b: a * (1 - b * b),
                                 lambda a, b: _cm(a, 1 - _cm(b, b)))
    if _half(output) or _half(grad):
        return _in_float32(tanh_backward, grad, output)
    if output.__class__ is ndarray and output.dtype == _F32:
        # PyTorch's kernel is a * (1 - b * b) as GCC compiles it: 1 - b * b one fused
        # multiply-add (in its SIMD and its scalar loop alike), which differs from the two
        # float32 roundings near |b| = 1 (2,500 ulps of the gradient at tanh(7) = 1 -
        # 1.5e-6). The float64 product of two floats is exact, so 1 - it rounds once.
        t = output.astype(np.float64)  # (an array even when 0-d)
        np.multiply(t, t, out=t)
        np.subtract(1, t, out=t)
        return asarray(np.multiply(grad, t.astype(np.float32)))
    return asarray(grad * (1 - output * output))


@_promoting
def sigmoid_backward(grad, output):
    if output.dtype.kind == "c":  # (a * conj((1 - b) * b))
        return _complex_products(grad, output, lambda a, b: a * ((1 - b) * b),
                                 lambda a, b: _cm(a, _cm(1 - b, b)))
    if (_half(output) or _half(grad)) and "V" in (output.dtype.kind, grad.dtype.kind):
        # (bfloat16: a * (1 - b) * b in float32, rounded once, as PyTorch's kernel; its
        # float16 kernel rounds each step to float16, as the expression below: measured)
        return _in_float32(sigmoid_backward, grad, output)
    # PyTorch's kernel: a * (1 - b) * b (in one fresh buffer, as tanh_backward)
    if grad.__class__ is ndarray and grad.ndim and grad.dtype == output.dtype and \
            grad.shape == output.shape:
        t = np.subtract(1, output)
        np.multiply(grad, t, out=t)
        return np.multiply(t, output, out=t)
    return asarray(grad * (1 - output) * output)


@_promoting
def threshold_backward(grad, self, threshold):
    """``self <= threshold ? 0 : grad`` (a NaN self passes grad through); by masking bits
    where it can (Note [Masking by bits]: relu's backward, 10 x faster than np.where)."""
    if grad.__class__ is ndarray and self.__class__ is ndarray and grad.ndim:
        out = _mask_bits(self <= threshold, grad, zero_where=True)
        if out is not None:
            return out
    return asarray(np.where(self <= threshold, 0, grad).astype(grad.dtype, copy=False))


def zero_at(x, key):
    """x with the elements at key set to zero (index_put's gradient for self); a 0-d x is
    indexed as one element, as aten's index ops treat a 0-d tensor (a NumPy scalar x, as
    0-d arithmetic gives, is copied into an array first: its reshape would be a copy)."""
    out = np.array(x)
    (out.reshape(1) if out.ndim == 0 else out)[key] = 0
    return out


def floor(x):
    return asarray(np.floor(x))


def trunc(x):
    return asarray(np.trunc(x))


def flip(x, dims):
    return np.flip(x, dims).copy() if x.ndim else x.copy()


# Note [Cumulative accumulation]: aten's CPU cumsum / cumprod (cpu_cum_base_kernel) carry
# the running value in acc_type<T, /*is_cuda=*/false>, rounding each output to T: double
# for float32, complex<double> for complex64, float for float16 / bfloat16 (a float32
# running value differed from PyTorch's in 60-99% of float32 outputs).
_CUM_ACC = {np.dtype(np.float32): np.float64, np.dtype(np.complex64): np.complex128}


def _cum_acc(x):
    if x.itemsize == 2 and x.dtype.kind in "fV":
        return np.float32
    return _CUM_ACC.get(x.dtype)


def cumprod(x, dim):
    if not x.ndim:
        return x.copy()
    acc = _cum_acc(x)
    if acc is None:
        return np.cumprod(x, axis=dim)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.cumprod(x.astype(acc), axis=dim).astype(x.dtype)


def cumsum(x, dim):
    """PyTorch accumulates from +0.0, so a leading -0.0 sums to +0.0 (NumPy keeps it)."""
    if not x.ndim:
        return x.copy()
    acc = _cum_acc(x)
    if acc is not None:
        with np.errstate(over="ignore", invalid="ignore"):
            return (np.cumsum(x.astype(acc), axis=dim) + 0.0).astype(x.dtype)
    out = np.cumsum(x, axis=dim)
    if out.dtype.kind not in "biu":
        out += 0.0
    return out


def tril(x, diagonal=0):
    return np.tril(x, diagonal)


def triu(x, diagonal=0):
    return np.triu(x, diagonal)


def constant(arr, like):
    """A constant array in like's dtype (a tensor without history in graph mode)."""
    return np.asarray(arr, dtype=like.dtype)


def cast_like(x, like):
    return x.astype(like.dtype, copy=False)


def diagonal(x, offset=0, dim1=0, dim2=1):
    return np.diagonal(x, offset, dim1, dim2)


def diagonal_backward(grad, shape, offset, dim1, dim2):
    out = np.zeros(shape, dtype=grad.dtype)
    _diagonal_view(out, offset, dim1, dim2)[...] = grad
    return out


def _diagonal_view(x, offset, dim1, dim2):
    """A writable view of x's diagonal (np.diagonal returns a read-only one)."""
    d = np.diagonal(x, offset, dim1, dim2)
    return np.lib.stride_tricks.as_strided(x[_diag_start(x, offset, dim1, dim2)], d.shape,
                                           d.strides)


def _diag_start(x, offset, dim1, dim2):
    key = [slice(None)] * x.ndim
    if offset >= 0:
        key[dim2] = slice(min(offset, x.shape[dim2]), None)
    else:
        key[dim1] = slice(min(-offset, x.shape[dim1]), None)
    return tuple(key)


def _extent(shape, strides):
    """Number of elements a (shape, strides) layout spans from its first element."""
    if 0 in shape:
        return 0
    return 1 + builtins_sum((s - 1) * st for s, st in zip(shape, strides))


def _strided(buf, offset, size, stride):
    item = buf.itemsize
    return np.lib.stride_tricks.as_strided(buf[offset:], size, tuple(s * item for s in stride))


def _in_layout(x, layout):
    """A flat buffer holding x laid out like the base (layout = (shape, strides))."""
    shape, strides = layout
    buf = np.empty(max(_extent(shape, strides), 1), dtype=x.dtype)
    _strided(buf, 0, shape, strides)[...] = x
    return buf


def strided_view(grad, layout, size, stride, offset):
    """The region (size, stride, offset) of grad, grad laid out like its base."""
    return _strided(_in_layout(grad, layout), offset, size, stride)


def strided_scatter(grad, src, layout, size, stride, offset):
    """grad with the region (size, stride, offset) replaced by src."""
    buf = _in_layout(grad, layout)
    _strided(buf, offset, size, stride)[...] = src
    return _strided(buf, 0, *layout)


def as_strided(x, size, stride, storage_offset=0):
    """x must be the root array of the storage (strides in elements)."""
    item = x.itemsize
    base_strides = tuple(s // item for s in x.strides)
    buf = np.lib.stride_tricks.as_strided(
        x, (max(_extent(x.shape, base_strides), 1),), (item,))
    return _strided(buf, storage_offset, size, stride)


def as_strided_backward(grad, layout, size, stride, storage_offset):
    """Gradient of as_strided (FunctionsManual's as_strided_backward): the view's gradient
    added into a zero storage where it reads (``storage_offset``: relative to the input's,
    possibly before it), divided by the input's element counts where the input may overlap
    itself, then read back in the input's layout."""
    shape, strides = layout
    if 0 in shape or 0 in size:
        return np.zeros(shape, dtype=grad.dtype)
    inp_offset = -min(0, storage_offset)
    out_offset = storage_offset + inp_offset
    n = max(inp_offset + _extent(shape, strides), out_offset + _extent(size, stride))
    buf = np.zeros(n, dtype=grad.dtype)
    np.add.at(buf, _strided(np.arange(n), out_offset, size, stride), grad)
    kept = [(s, st) for s, st in zip(shape, strides) if s != 1]
    if maybe_overlapping_memory([s for s, _ in kept], [st for _, st in kept]):
        count = np.zeros(n, dtype=grad.dtype)
        np.add.at(count, _strided(np.arange(n), inp_offset, shape, strides), 1)
        with np.errstate(invalid="ignore"):
            buf = buf / count  # (nan where the input does not read: never read back)
    return _strided(buf, inp_offset, shape, strides).copy()


def maybe_overlapping_memory(sizes, strides):
    """FunctionsManual's _maybe_overlapping_memory: the dims by stride, each must start past
    the last element the smaller ones reach."""
    reach = 0
    for i in sorted(range(len(sizes)), key=strides.__getitem__):
        if strides[i] <= reach:
            return True
        reach += strides[i] * (sizes[i] - 1)
    return False


def unfold_backward(grad, layout, out_size, out_stride, dimension, size, step):
    """Gradient of unfold: as_strided's of its windows (aten::unfold_backward)."""
    return as_strided_backward(grad, layout, out_size, out_stride, 0)


def unfold(x, dimension, size, step):
    """x's windows of ``size`` every ``step`` along ``dimension`` (a new last dim)."""
    if not x.ndim:
        return np.lib.stride_tricks.as_strided(x, (size,), (x.itemsize,)).copy()
    n = (x.shape[dimension] - size) // step + 1
    st = x.strides
    return np.lib.stride_tricks.as_strided(
        x, x.shape[:dimension] + (n,) + x.shape[dimension + 1:] + (size,),
        st[:dimension] + (st[dimension] * step,) + st[dimension + 1:] + (st[dimension],)).copy()


def neg(x):
    """-x, with PyTorch's error for a bool x (numpy's differs): formulas that negate an
    input that may be bool (atan2's ``-self``) raise as PyTorch's."""
    if x.dtype == np.bool_:
        from .pointwise import BOOL_NEGATION
        raise RuntimeError(BOOL_NEGATION)
    return -x


def log_add_exp_complex(x, y):
    """PyTorch's _log_add_exp_helper for complex x, y (LogAddExp.h), computed in
    complex128: log1p(exp(min - max)) + max with min and max by real part; NaN in either
    part of min is infectious; equal infinite real parts give min (-inf) or
    log(exp(min) + exp(max)) (+inf)."""
    dt = np.result_type(x, y)
    x, y = np.broadcast_arrays(np.asarray(x, np.complex128), np.asarray(y, np.complex128))
    with np.errstate(all="ignore"):
        lt = y.real < x.real
        lo, hi = np.where(lt, y, x), np.where(lt, x, y)
        r = np.log1p(np.exp(lo - hi)) + hi
        inf = ~np.isfinite(lo.real) & (lo.real == hi.real)
        r = np.where(inf, np.where(lo.real < 0, lo, np.log(np.exp(lo) + np.exp(hi))), r)
        r = np.where(np.isnan(lo.real) | np.isnan(lo.imag), complex(np.nan, np.nan), r)
    return asarray(r.astype(dt))


def logcumsumexp(x, dim):
    from .reduction import logcumsumexp_kernel
    return logcumsumexp_kernel(x, dim)


def rsqrt(x):
    from .pointwise import _rsqrt
    return asarray(_rsqrt(x))


def xlogy(x, y):
    from .pointwise import _xlogy
    return asarray(_xlogy(x, y if y.__class__ is ndarray else np.asarray(y, x.dtype)))


def xlog1py(x, y):
    from .special import xlog1py_kernel
    return xlog1py_kernel(x, y if y.__class__ is ndarray else np.asarray(y, x.dtype))


def erf(x):
    from ._specfun import erf
    return asarray(erf(x))


def digamma(x):
    from ._specfun import digamma
    return asarray(digamma(x))


def erfinv(x):
    from ._specfun import erfinv
    return asarray(erfinv(x))


def polygamma(n, x):
    from ._specfun import polygamma
    return asarray(polygamma(n, x))


# Note [Complex kernels]
# ~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's complex products, quotients and absolute values are not NumPy's, and its SIMD
# loop (Note [SIMD tie picks] locates it: whole 64-byte vectors of each contiguous inner run
# with AVX-512; two vectors a step in unary kernels) computes some of them unlike its
# scalar loop:
# - product (a+bi)(c+di): the scalar loop's c10::complex operator* is contracted by the
#   compiler to fma(a, c, -(b*d)) + fma(a, d, b*c)i, which is NumPy's own complex product
#   (checked on every layout); Vectorized<complex>'s operator* rounds each of the four
#   products and then their difference and sum (vmulpd, then hsub). mul, x ** 2 and ** 3,
#   addcmul (self + (value * t1) * t2), and the products of the backward formulas (F.mul:
#   mul's gradient grad * other.conj() is conj(conj(grad) * other) here, the same bits).
# - quotient: both loops call c10::complex's operator/ (the vector one element by element):
#   Smith's algorithm, NumPy's too, but with the compiler's fused multiply-adds: for
#   |c| >= |d|, rat = d/c, scl = 1/fma(d, rat, c), fma(b, rat, a) * scl + fma(-a, rat, b) *
#   scl i; otherwise rat = c/d, scl = 1/fma(c, rat, d), fma(a, rat, b) * scl + fma(b, rat,
#   -a) * scl i; a zero divisor gives a/|c| + b/|d| i (NaN components, infinities as C's
#   division gives them). NumPy's loop is not fused (41% of random quotients differed by
#   an ulp). reciprocal is 1 / z, x ** -2 is 1 / (x * x), addcdiv self + (value * t1) / t2.
# - abs: the scalar loop's std::abs is libm's hypot (np.hypot's); the SIMD loop's is
#   SLEEF's hypot (u05), correctly rounded on all 20,000 values checked; NumPy's complex
#   absolute is neither (a third of random values differed). float32 hypot is correctly
#   rounded in both. sgn: the SIMD loop divides each part by abs, the scalar loop divides
#   by complex(abs, 0) (c10's quotient: a part times 1/abs, in effect).
# The fused quotient costs the exact FMA (Note [Fused add]): tensors past PORTED_MAX
# elements keep NumPy's quotient (Note [Size of the ported kernels]). Real operands keep
# NumPy's ufuncs (op.complex_kernel is taken where an operand is complex; abs's
# op.real_kernel on its fast path: no cost to them).
#
# Note [Complex64 scalar loops]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# The compiler vectorizes PyTorch's scalar loop of complex64 itself (two elements a step,
# four in some kernels) and computes the elements left over with code it does not fuse:
# those products round every step (the SIMD loop's formula), and those quotients fuse only
# 1/fma(q, rat, p). Measured per kernel (classified by which formula gives each element's
# bits, 60-300 random draws per position), for each inner run's scalar-loop share:
# - mul, div, addcdiv, addcmul with a 0-d operand, and every strided (basic) loop: pairs;
#   an odd last element is left over.
# - mul with a 0-d operand in its SIMD loop's tail (or a run too short for a vector): one
#   element peeled, then one vector of four; the others left over (a tail under 5: all).
# - addcmul's SIMD-loop tail, and x ** 3 in every loop: fours; its leftover elements
#   round only the second product.
# - in place: div_ leaves all its scalar-loop elements over; mul_ too on strided operands
#   (the compiler's alias check fails), pairs otherwise.
# x ** 2, the unary kernels (abs, sgn, reciprocal) and complex128 have no such elements.
def _cparts(x, dt):
    """Real and imaginary parts of x read as complex dtype ``dt`` (a real x: +0.0 parts)."""
    x = np.asarray(x)
    if x.dtype != dt:
        x = x.astype(dt)
    return x.real, x.imag


def _complex(re, im, dt):
    out = np.empty(np.shape(re), dt)
    out.real = re
    out.imag = im
    return out


def _dense_operands(shape, operands):
    """The number of single-element operands when every other operand is a C-contiguous
    array of the full ``shape`` (the common case: one inner run); None otherwise."""
    n = math.prod(shape)
    zeros = 0
    for x in operands:
        size = getattr(x, "size", 1)
        if size == 1:
            zeros += 1
        elif size != n or x.shape != shape or not x.flags.c_contiguous:
            return None
    return zeros


def complex_loops(shape, *operands, unroll=1, kind="mul"):
    """Where PyTorch's loops compute an elementwise complex op of ``operands`` (the result
    first, then the inputs: arrays, or numbers): (simd, unpaired) boolean arrays of
    ``shape`` or None where empty. ``simd``: the elements of the SIMD loop (Note [SIMD tie
    picks]; ``unroll`` 2 for unary kernels). ``unpaired``: for a complex64 kernel, the
    scalar-loop elements the compiler's own vectorization leaves to its unfused code (Note
    [Complex64 scalar loops]); ``kind``: "mul", "div", "addcmul", "pow3", or "mul_" and
    "div_" in place."""
    c64 = operands[0].dtype == np.complex64 and (unroll == 1 or kind == "pow3")
    zeros = _dense_operands(shape, operands) if shape else None
    if zeros is not None:  # (one inner run, in memory order: no layout to work out)
        run = math.prod(shape)
        width = _vector_bytes()
        lanes = width // builtins.max(getattr(x, "itemsize", 8) for x in operands) * unroll
        contiguous = zeros <= 1 or zeros == len(operands)
        simd = None
        if contiguous and lanes and run >= lanes and zeros < len(operands):
            simd = (np.arange(run) < run // lanes * lanes).reshape(shape)
        if not c64:
            return simd, None
        order = None
    else:
        simd = simd_positions(shape, *operands, unroll=unroll) if shape else None
        if not c64:
            return simd, None
        if all(n == 1 for n in shape):
            return simd, np.ones(shape, bool)
        sizes, strides, order, run, k = _inner_run(shape, operands)
        inner = [st[order[0]] for st in strides]
        zeros = builtins.sum(s == 0 for s in inner)
        contiguous = zeros <= 1 and all(s in (0, 1) for s in inner)
    lanes = 8 * unroll
    tail = run - (run // lanes * lanes if contiguous else 0)  # (the scalar loop's share)
    if kind == "div_" or kind == "mul_" and not contiguous:  # (its alias check fails)
        first, last, peel = run - tail, run, -1
    elif contiguous and zeros and kind[0] == "m":  # (a number: one peeled, then a vector of 4)
        if tail < 5:
            first, last = run - tail, run
        else:
            first, last = run - tail + 5, run
        peel = run - tail
    else:  # (pairs; vectors of 4 for pow's x * x * x, and in addcmul's SIMD loop's tail)
        four = kind == "pow3" or kind == "addcmul" and contiguous and not zeros
        rest = tail % (4 if four else 2)
        if not rest:
            return simd, None
        first, last, peel = run - rest, run, -1
    if order is None:
        index = np.arange(run).reshape(shape)
        return simd, ((index >= first) & (index < last)) | (index == peel)
    index = _run_places(sizes, order, k)
    unpaired = ((index >= first) & (index < last)) | (index == peel)
    return simd, unpaired.reshape(shape)


# Note [Half scalars in formulas]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# A formula's Python number (``grad / (self * M_LN2)``, ``grad * (M_PI / 180)``) is a
# wrapped number in PyTorch, which its mul and div kernels read as a float32 (opmath) for a
# float16/bfloat16 tensor, rounding the product once (Note [Half scalars in float32] in
# _common.py); NumPy rounds the number to the half type first (ln 2 as float16 is 0.6929,
# 0.03% off: 99 of 256 float16 gradients of log2 differed). Only the number as the second
# operand: aten's kernels test is_scalar(2), and C++'s ``2.0 * t`` is ``t.mul(2.0)``, so a
# formula writes F.mul(tensor, number).
def _half_number(a, b):
    """a * b's operands in float32 when a is a float16/bfloat16 array and b a number."""
    if (a.__class__ is ndarray or isinstance(a, np.generic)) and a.itemsize == 2 and \
            a.dtype.kind in "fV" and b.__class__ in (float, int):
        return a.astype(_F32), _F32.type(b)
    return None


def mul(a, b, unroll=1, kind="mul"):
    """a * b as PyTorch's mul kernel (Note [Complex kernels] for complex results;
    ``unroll``: 2 for a product inside a unary kernel, x ** 2; ``kind`` "mul_" in place;
    a float16/bfloat16 array times a number: Note [Half scalars in formulas])."""
    f = _half_number(a, b)
    if f is not None:
        with np.errstate(over="ignore"):
            return np.multiply(*f).astype(a.dtype)
    if b.__class__ is int and getattr(a, "dtype", None) is not None and \
            a.dtype.kind in "iu" and not np.can_cast(np.min_scalar_type(b), a.dtype):
        b = np.array(b).astype(a.dtype)  # (a uint8 gradient term times value=-7: PyTorch
        #                                   casts the number into the dtype, wrapping)
    out = np.multiply(a, b)
    if out.dtype.kind != "c" or out.__class__ is ZeroGrad:
        return out
    simd, odd = complex_loops(out.shape, out, a, b, unroll=unroll, kind=kind)
    if simd is None and odd is None:
        return out
    if out.__class__ is not ndarray:
        out = np.asarray(out).copy()
    plain = complex_mul_unfused(a, b, out.dtype)
    if simd is not None:
        np.copyto(out, plain, where=simd)  # (in place: the result keeps NumPy's layout)
    if odd is not None:
        np.copyto(out, plain, where=odd)
    return out


def complex_mul_unfused(a, b, dt):
    """(ac - bd) + (ad + bc)i in complex dtype dt, each product rounded."""
    A, B = _cparts(a, dt)
    C, D = _cparts(b, dt)
    with np.errstate(all="ignore"):
        return _complex(A * C - B * D, A * D + B * C, dt)


def true_divide(a, b, kind="div"):
    """a / b as PyTorch's div kernel (Note [Complex kernels] for complex results; ``kind``
    "div_" in place; a float16/bfloat16 array by a number: Note [Half scalars in
    formulas])."""
    f = _half_number(a, b)
    if f is not None:
        with np.errstate(all="ignore"):
            return np.true_divide(*f).astype(a.dtype)
    out = np.true_divide(a, b)
    if out.dtype.kind != "c" or out.size > PORTED_MAX or out.__class__ is ZeroGrad:
        return out  # (a zero-tensor gradient's quotient: Note [Zero-tensor gradients])
    dt = out.dtype
    r = complex_divide(a, b, dt)
    if dt == np.complex64:
        odd = complex_loops(out.shape, out, a, b, kind=kind)[1]
        if odd is not None:
            np.copyto(r, complex_divide(a, b, dt, fused_parts=False), where=odd)
    if out.__class__ is not ndarray:
        return r.reshape(())[()]
    if not out.flags.c_contiguous:  # (NumPy's layout, as the ufunc's)
        out[...] = r
        return out
    return r


def complex_divide(a, b, dt, fused_parts=True):
    """c10::complex's a / b in complex dtype dt, fused as PyTorch's compiler fuses it
    (``fused_parts=False``: the parts' multiply-adds unfused, as complex64's unpaired
    element)."""
    A, B = _cparts(a, dt)
    C, D = _cparts(b, dt)
    A, B, C, D = np.broadcast_arrays(A, B, C, D)
    ct = A.dtype.type
    with np.errstate(all="ignore"):
        ac, ad = np.abs(C), np.abs(D)
        first = ac >= ad
        p = np.where(first, C, D)
        q = np.where(first, D, C)
        rat = q / p
        scl = ct(1) / _fma(q, rat, p, ct)
        x1, y1 = np.where(first, B, A), np.where(first, A, B)
        x2, y2 = np.where(first, -A, B), np.where(first, B, -A)
        if fused_parts:
            re = _fma(x1, rat, y1, ct) * scl
            im = _fma(x2, rat, y2, ct) * scl
        else:
            re = (x1 * rat + y1) * scl
            im = (x2 * rat + y2) * scl
        zero = first & (ac == 0)  # (both parts zero: a/|c| + b/|d| i)
        if zero.any():
            re = np.where(zero, A / ac, re)
            im = np.where(zero, B / ad, im)
    return _complex(re, im, dt)


def _hypot_rounded(x, y, h):
    """Correctly rounded float64 hypot (SLEEF's u05 on every value checked): libm's hypot
    h (under an ulp off), then its residual x^2 + y^2 - h^2 in double-double (scaled by a
    power of 2; Dekker's exact squares, the leading difference exact by Sterbenz) against
    the midpoints' (h +- u/2)^2 - h^2 = +-h u + u^2 / 4: h or its neighbour. Residuals
    within 2^-40 of a midpoint's are decided exactly in integers; a part under 2^-60 of the
    other leaves h the larger (correctly rounded already)."""
    from .._random import _split, _two_sum
    with np.errstate(all="ignore"):
        ax, ay = np.abs(x), np.abs(y)
        big, small = np.maximum(ax, ay), np.minimum(ax, ay)
        check = np.isfinite(h) & (small > big * 2.0 ** -60)
        if not check.any():
            return h
        e = np.frexp(big)[1]
        xs, ys, hs = np.ldexp(ax, -e), np.ldexp(ay, -e), np.ldexp(h, -e)

        def square(v):
            p = v * v
            hi, lo = _split(v)
            return p, ((hi * hi - p) + 2 * hi * lo) + lo * lo
        px, ex = square(xs)
        py, ey = square(ys)
        ph, eh = square(hs)
        s1, e1 = _two_sum(px, py)
        r = (s1 - ph) + (e1 + (ex + ey - eh))
        up = np.nextafter(hs, np.inf)
        down = np.nextafter(hs, 0)
        uu, ud = up - hs, hs - down
        upper = hs * uu + uu * uu / 4
        lower = -hs * ud + ud * ud / 4
        margin = upper * 2.0 ** -40
        hi_side = check & (r > upper + margin)
        lo_side = check & (r < lower - margin)
        near = check & ~hi_side & ~lo_side & ((r >= upper - margin) | (r <= lower + margin))
        out = np.where(hi_side, np.ldexp(up, e), np.where(lo_side, np.ldexp(down, e), h))
    if near.any():
        idx = np.nonzero(near)
        fix = [_hypot_exact(u, v, c)
               for u, v, c in zip(x[idx].tolist(), y[idx].tolist(), out[idx].tolist())]
        out = np.array(out, ndmin=1)
        out[idx if out.ndim == near.ndim else near.reshape(out.shape)] = fix
        out = out.reshape(near.shape)
    return out


def _as_int(d):
    """A finite double as (M, E): d = M * 2**E with M an integer."""
    m, e = math.frexp(d)
    return int(m * 9007199254740992.0), e - 53


def _hypot_exact(u, v, c):
    """The double nearest sqrt(u^2 + v^2) among c and its neighbours: the one whose
    rounding interval holds it (squares compared exactly, in integers)."""
    (a, ea), (b, eb) = _as_int(u), _as_int(v)

    def mid(p, q):
        (m1, e1), (m2, e2) = _as_int(p), _as_int(q)
        e = builtins.min(e1, e2)
        return (m1 << (e1 - e)) + (m2 << (e2 - e)), e - 1

    def below(m):  # m^2 <= u^2 + v^2
        mm, em = m
        e = builtins.min(2 * ea, 2 * eb, 2 * em)
        return (mm * mm) << (2 * em - e) <= ((a * a) << (2 * ea - e)) + ((b * b) << (2 * eb - e))

    for cand in (c, math.nextafter(c, 0), math.nextafter(c, math.inf)):
        lo, hi = mid(cand, math.nextafter(cand, 0)), mid(cand, math.nextafter(cand, math.inf))
        if below(lo) and (not below(hi) or hi == lo):
            return cand
    return c


def complex_abs(x):
    """|x| of a complex array as PyTorch's abs kernel (Note [Complex kernels]; past
    PORTED_MAX elements libm's hypot everywhere)."""
    re, im = x.real, x.imag
    out = np.hypot(re, im)
    if x.dtype == np.complex128 and x.ndim and x.size <= PORTED_MAX:
        simd = complex_loops(x.shape, x, unroll=2)[0]
        if simd is not None:
            re, im = np.ascontiguousarray(re), np.ascontiguousarray(im)
            out = np.where(simd, _hypot_rounded(re, im, np.ascontiguousarray(out)), out)
    return out


def complex_sgn(x):
    """z / |z| (0 at 0) as PyTorch's sgn kernel: its SIMD loop divides each part by |z|,
    its scalar loop divides by complex(|z|, 0) with c10::complex's quotient."""
    r = complex_abs(x)
    zero = r == 0
    with np.errstate(all="ignore"):
        out = complex_divide(x, r, x.dtype)
        simd = complex_loops(x.shape, x, unroll=2)[0] if x.ndim else None
        if simd is not None:
            out = np.where(simd, _complex(x.real / r, x.imag / r, x.dtype), out)
    if zero.any():
        out = np.where(zero, x.dtype.type(0), out)
    return out


div = true_divide  # (F.mul, F.div: complex products in formulas: Note [Complex kernels])
div_scalar = true_divide  # (C++'s tensor / double: namespace._div_scalar)

# Every name the backward formulas may use; namespace.TENSOR mirrors it.
FORMULA_NAMES = (
    "mul", "div", "div_scalar", "sum_to", "expand", "reshape", "view", "sum", "mean",
    "unsqueeze", "squeeze", "transpose",
    "t", "permute", "mm", "matmul", "bmm", "where", "zeros", "zeros_like", "ones_like", "cast",
    "zero_tensor_like",
    "masked_fill", "clone", "contiguous",
    "exp", "exp2", "log", "sin", "cos", "sqrt", "sign", "abs", "pow",
    "gather", "reciprocal",
    "scatter_add", "index_select", "index_add", "getitem", "getitem_backward", "select_backward",
    "index_backward", "masked_select_backward",
    "cat", "stack", "narrow", "select", "softmax", "log_softmax", "maximum", "minimum", "clamp",
    "relu", "tanh", "sigmoid", "cast_like", "diagonal", "diagonal_backward", "as_strided",
    "as_strided_backward", "unfold", "unfold_backward", "strided_view", "strided_scatter",
    "zero_at", "scatter",
    "constant", "flip", "cumsum", "cumprod", "tril", "triu", "floor", "div_floor", "div_trunc",
    "trunc", "sgn",
    "log1p", "expm1", "sinh", "cosh", "neg", "erf", "xlogy", "xlog1py", "rsqrt", "logcumsumexp",
    "digamma", "erfinv",
    "polygamma", "convolution",
    "tanh_backward", "sigmoid_backward", "threshold_backward", "softmax_backward_data",
    "log_softmax_backward_data",
    "leaky_relu_backward", "rrelu_with_noise_backward",
    "hardtanh_backward", "hardsigmoid_backward", "elu_backward", "softplus_backward",
    "hardswish_backward", "log_sigmoid_backward", "softshrink_backward", "hardshrink_backward",
    "gelu_backward", "mse_loss_backward", "smooth_l1_loss_backward", "glu_backward",
    "huber_loss_backward", "soft_margin_loss_backward", "binary_cross_entropy_backward",
    "nll_loss_backward", "nll_loss2d_backward", "prelu_kernel_backward",
    "max_pool2d_with_indices_backward", "avg_pool2d_backward", "_adaptive_avg_pool2d_backward",
    "adaptive_max_pool2d_backward",
    *(f"{k}_pad{n}d_backward" for k in ("reflection", "replication") for n in (1, 2, 3)),
)

@_promoting
def elu_backward(grad, x, alpha, scale, input_scale, is_result):
    """At a NaN input PyTorch's scalar loop gives grad * scale (its test b <= 0 is false),
    its SIMD loop (two vectors a step) the negative branch, NaN. float32, float16 and
    bfloat16 as aten's kernel computes them (_elu_backward_float32)."""
    from .pointwise import _elu_backward_values
    if x.dtype.kind in "fV" and x.dtype.itemsize <= 4 and grad.dtype == x.dtype and \
            x.size <= PORTED_MAX:
        out = _elu_backward_float32(grad, x, alpha, scale, input_scale, is_result)
    else:
        out = _elu_backward_values(RAW, grad, x, alpha, scale, input_scale, is_result)
    return _nan_lanes(out, x, (grad, x), 2, scalar_value=lambda: grad * scale)


def _elu_backward_float32(grad, x, alpha, scale, input_scale, is_result):
    """aten's elu_backward_kernel in float32 (float16/bfloat16 converted to float32 and the
    result rounded once): ``a * negiptcoef * negcoef * exp(b * negiptcoef)`` (or ``a *
    negiptcoef * (b + negcoef)`` from the result), each product rounded, negcoef = alpha *
    scale in float32; exp is SLEEF's expf in its SIMD loop, glibc's (the correctly
    rounded value here) in its scalar loop. Measured: 0 of 3,001 float32, float16 and
    bfloat16 gradients differ (215, 681 and 580 did)."""
    f32 = np.float32
    g, b = grad.astype(f32, copy=False), x.astype(f32, copy=False)
    negcoef, poscoef, negiptcoef = f32(f32(alpha) * f32(scale)), f32(scale), f32(input_scale)
    with np.errstate(all="ignore"):
        if is_result:
            neg = g * negiptcoef * (b + negcoef)
        else:
            t = b * negiptcoef
            e = FLOAT_KERNELS["exp"](t)
            simd = simd_positions(x.shape, grad, x, unroll=2) if x.ndim else None
            if simd is not None:
                from ._specfun import sleef_expf
                e = np.where(simd, sleef_expf(t), e)
            neg = g * negiptcoef * negcoef * e
        out = np.where(b <= 0, neg, g * poscoef)
    return asarray(out.astype(x.dtype, copy=False))


def _nan_lanes(out, x, operands, unroll=1, vector_value=np.nan, scalar_value=None):
    """``out`` where input ``x`` is NaN, as PyTorch's loops give it (Note [SIMD tie picks]
    locates them): ``vector_value`` in its SIMD loop (NaN where the vector form blends two
    computed branches, 0 where it masks), ``scalar_value()`` in its scalar loop (None: as
    ``out`` has it)."""
    out = asarray(out)
    if x.dtype.kind not in "fV" or out.dtype.kind not in "fV" or not out.size:
        return out
    nan = np.isnan(x)
    if not nan.any():
        return out
    simd = simd_positions(out.shape, *operands, unroll=unroll)
    dt = out.dtype
    if scalar_value is not None:
        out = np.where(nan if simd is None else nan & ~simd, scalar_value(), out)
    if simd is not None:
        out = np.where(nan & simd, dt.type(vector_value), out)
    return asarray(np.asarray(out).astype(dt, copy=False))


@_promoting
def softplus_backward(grad, x, beta, threshold):
    from .pointwise import softplus_backward
    return softplus_backward(RAW, grad, x, beta, threshold)


def mse_loss_backward(grad, self, target, reduction):
    from .nn_ops import _mse_backward_kernel
    return _mse_backward_kernel(grad, self, target, reduction)


def smooth_l1_loss_backward(grad, self, target, reduction, beta):
    from .nn_ops import _smooth_l1_backward_kernel
    return _smooth_l1_backward_kernel(grad, self, target, reduction, beta)


def glu_backward(grad, x, dim):
    from .pointwise import _glu_backward_kernel
    return _glu_backward_kernel(grad, x, dim)


def huber_loss_backward(grad, self, target, reduction, delta):
    from .nn_ops import _huber_backward_kernel
    return _huber_backward_kernel(grad, self, target, reduction, delta)


def soft_margin_loss_backward(grad, self, target, reduction):
    from .nn_ops import _soft_margin_backward_kernel
    return _soft_margin_backward_kernel(grad, self, target, reduction)


def binary_cross_entropy_backward(grad, self, target, weight, reduction):
    from .nn_ops import _bce_backward_kernel
    return _bce_backward_kernel(grad, self, target, weight, reduction)


def nll_loss_backward(grad, self, target, weight, reduction, ignore_index, total_weight):
    from .nn_ops import _nll_backward_kernel
    return _nll_backward_kernel(grad, self, target, weight, reduction, ignore_index,
                                total_weight)


nll_loss2d_backward = nll_loss_backward


def prelu_kernel_backward(grad, x, weight):
    from .special import _prelu_backward_kernel
    return _prelu_backward_kernel(grad, x, weight)


def max_pool2d_with_indices_backward(grad, x, *params):
    from .nn_ops import _max_pool2d_backward_kernel
    return _max_pool2d_backward_kernel(grad, x, *params)


def avg_pool2d_backward(grad, x, *params):
    from .nn_ops import _avg_pool2d_backward_kernel
    return _avg_pool2d_backward_kernel(grad, x, *params)


def _adaptive_avg_pool2d_backward(grad, x):
    from .nn_ops import _adaptive_avg_pool2d_backward_kernel
    return _adaptive_avg_pool2d_backward_kernel(grad, x)


def adaptive_max_pool2d_backward(grad, x, indices):
    from .nn_ops import _adaptive_max_pool2d_backward_kernel
    return _adaptive_max_pool2d_backward_kernel(grad, x, indices)


def _pad_backward(grad, x, index, nd, value):
    from .nn_ops import _pad_backward_kernel
    return _pad_backward_kernel(grad, x, index, nd, value)


for _k in ("reflection", "replication"):
    for _n in (1, 2, 3):
        globals()[f"{_k}_pad{_n}d_backward"] = _pad_backward


def gelu_backward(grad, x, approximate):
    from .pointwise import gelu_backward
    return gelu_backward(RAW, grad, x, approximate)


@_promoting
def hardswish_backward(grad, x):
    """At a NaN input PyTorch's scalar loop passes grad on, its SIMD loop's blends keep the
    NaN of grad * (x / 3 + 0.5)."""
    from .pointwise import _hardswish_backward_values
    f = _half_f32(grad, x)
    if f is not None:  # (Note [Half activations in float32])
        with np.errstate(invalid="ignore"):
            out = _hardswish_backward_values(RAW, *f).astype(x.dtype)
    else:
        out = _hardswish_backward_values(RAW, grad, x)
    return _nan_lanes(out, x, (grad, x), 2, scalar_value=lambda: grad)


def log_sigmoid_backward(grad, x):
    from .pointwise import _log_sigmoid_backward
    return _log_sigmoid_backward(RAW, grad, x)


def convolution(x, w, b, stride, padding, dilation, transposed, output_padding, groups):
    from .nn_ops import convolution_kernel
    return convolution_kernel(x, w, b, stride, padding, dilation, transposed, output_padding,
                              groups)


RAW = SimpleNamespace(**{name: globals()[name] for name in FORMULA_NAMES})
RAW.is_raw = True

