"""Linear algebra: mm/bmm/dot/mv/matmul/addmm/outer/linear, recorded as PyTorch decomposes
them (so node names match).
"""
import functools
import math
import warnings as _warnings
from types import SimpleNamespace as _NS

from .. import _dtypes, _errors
from .._backend import lapack_gufunc, np
from .._tensor import Tensor, _make
from . import layout, raw
from .dispatch import (OpDef as _OpDef, _plus_zero_dtype, broadcast_error, defop,
                       set_input_metadata, values_like, view_errors_before_checks,
                       view_errors_first)
from ._common import (_acc, _asarray, _broadcastable, _check_tensor_arg, _finish, _py_all, _py_max,
                      _state)
from ._common import _named_result, _size_dim
from .pointwise import (_fw_not_implemented, _kernel_scalar, _not_implemented, _scalar_args, add,
                        clone, contiguous, mul, where as _where)
from ..autograd.forward_ad import NOT_SUPPORTED as _FW_NOT_SUPPORTED
from .shape import (diag_embed, diagonal, expand, _mT, narrow, permute, reshape,
                    _squeeze_inplace_dim, squeeze, t, tril, triu, _unsafe_view, unsqueeze, view)
from ..amp import autocast_mode as _amp

# ---- forward-mode rules (Note [Forward mode] in autograd/forward_ad.py) ------------------
def _bilinear(F, f, a, a_t, b, b_t, dense=False, alpha=1, summed=False, zero_terms=False,
              first=None):
    """Tangent of f(a, b) for f bilinear: f(a_t, b) + f(a, b_t), skipping absent tangents
    (but, as PyTorch's zero tangents do, a term whose primal requires grad is kept in the
    graph: the tangent is then differentiable wrt it). ``dense``: PyTorch's matrix products
    (mm, bmm, mv, addmm, addmv, baddbmm, addbmm) multiply a missing tangent as a dense zero
    matrix, so an inf or NaN in the other primal makes the tangent NaN there (0 * inf), and
    its +0.0 terms turn the other term's -0.0 into +0.0 (Note [Signed zeros of matrix
    products] in raw.py); dot, vdot, outer and addr skip the term. Each term is summed over
    dim 0 (``summed``: addbmm) and scaled by ``alpha`` before the two are added, as
    PyTorch's maybe_multiply(term, alpha) + maybe_multiply(term, alpha). ``zero_terms``
    (another input has a tangent): dense products of two missing tangents are computed on
    zeros too. ``first``: a term summed before the two, as the add family's rules
    ``maybe_multiply(self_t, beta) + term_a + term_b`` are evaluated (left to right: in
    float32 another order rounds otherwise)."""
    zero_a = zero_b = False  # a term kept for its graph only (a zero tensor's, below)
    if _state.enabled:
        if a_t is None and b.requires_grad:
            a_t = F.zeros_like(a)
            zero_a = not dense
        if b_t is None and a.requires_grad:
            b_t = F.zeros_like(b)
            zero_b = not dense
    if dense:
        if a_t is None and not np.isfinite(b._data).all():
            a_t = F.zeros_like(a)
        if b_t is None and not np.isfinite(a._data).all():
            b_t = F.zeros_like(b)

    def term(x, y):
        t = f(x, y)
        if summed:
            t = F.sum(t, 0)
        return t if alpha == 1 else t * alpha

    if dense and zero_terms and a_t is None and b_t is None:
        a_t = F.zeros_like(a)  # (rare: only self's tangent; both terms on zeros)
        b_t = F.zeros_like(b)
    # dot, vdot, outer, addr and linalg_cross of PyTorch's zero tensor are a zero tensor
    # (no 0 * inf), and ``zero_tensor + t`` is t: the sum keeps the graph of every term, the
    # values of the others (+0.0 zeros when all are such terms)
    # (the second term first: GCC evaluates operator+'s operands right to left, so a
    # mixed-dtype mm(a_p, b_t) refuses before mm(a_t, b_p): "float != double")
    tb = None if b_t is None else term(a, b_t)
    ta = None if a_t is None else term(a_t, b)
    out, zero_out = first, False
    for term_x, zero in ((ta, zero_a), (tb, zero_b)):
        if term_x is None:
            continue
        if out is None:
            out, zero_out = term_x, zero
        elif zero or zero_out:
            real = out if zero else term_x
            out = out + term_x
            out._data = values_like(real._data, out._data)
            zero_out = zero and zero_out
        else:
            out = out + term_x
    if zero_out:
        out._data = np.zeros_like(out._data)
    if dense and out is not None and (a_t is None) != (b_t is None):
        if a._data.shape[-1] == 1:  # one product per element: the zeros' own signs
            out = out + (term(F.zeros_like(a), b) if a_t is None else term(a, F.zeros_like(b)))
        elif _positive_zero_times(alpha) and out._data.dtype.kind in "fc":
            # (a sum from +0.0, times alpha: +0.0 unless alpha is negative or -0.0)
            out._data += 0.0  # (a fresh array)
    return out


def _positive_zero_times(alpha):
    """Whether +0.0 * alpha is +0.0 (a real alpha that is not negative nor -0.0)."""
    return not isinstance(alpha, complex) and math.copysign(1.0, alpha) > 0


def _dot(a, b):
    return dot(a, b)


def _addmm_jvp(F, self_t, mat1, mat1_t, mat2, mat2_t, beta, alpha):
    return _bilinear(F, F.mm, mat1, mat1_t, mat2, mat2_t, dense=True, alpha=alpha,
                     zero_terms=self_t is not None, first=_beta_term(F, self_t, beta))


def _beta_term(F, self_t, beta):
    """maybe_multiply(self_t, beta): the add family's rules sum it first."""
    return None if self_t is None else _scaled(F, self_t, beta)


# Note [Complex gradients of products]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's convention (conjugate Wirtinger): for a product of x and y, x's gradient is the
# incoming gradient times conj(y) (grad @ mat2^H for mm, grad * conj(tensor) for dot). The
# formulas below read the partner through ``_cj``, which is the operand itself for real
# arrays (one dtype read). A graph of a complex backward (create_graph=True) would record
# elementwise complex ops whose own backward is not complex-aware yet: it raises.
_COMPLEX_GRAPH = ("autotensor: complex linear algebra in a recorded backward graph "
                  "(create_graph=True, or a forward-mode rule derived from the backward) is "
                  "not supported yet")


def _cj(F, x):
    if F.is_raw:
        return np.conj(x) if x.dtype.kind == "c" else x
    if x._data.dtype.kind == "c":
        raise NotImplementedError(_COMPLEX_GRAPH)
    return x


# Note [Gradients of matrix products follow the input's layout]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's mm_mat1_backward / mm_mat2_backward (mm, addmm) compute the gradient of a
# column-major input (stride 1 down its rows, its row count across: a transposed matrix,
# linear's t(weight), any 1x1) transposed, (mat2^H @ grad^T)^T, so that it arrives in the
# input's layout; it is then a view, which the engine does not sum into in place (the
# _version autograd.grad shows: Note [Gradient versions] in engine.py). The layouts are
# params of the entries, taken when the node is made.
_ROW_MAJOR = (False, False)


def _layouts(a, b):
    """(a column-major, b column-major) for 2-d arrays, computed only when a node may be
    made (one flag read otherwise: mm and addmm are hot)."""
    if not _state.enabled:
        return _ROW_MAJOR
    sa, sb, it = a.strides, b.strides, a.itemsize
    return (sa[0] == it and sa[1] == a.shape[0] * it, sb[0] == it and sb[1] == b.shape[0] * it)


def _mat1_grad(F, grad, mat2, column_major):
    """PyTorch's mm_mat1_backward (without alpha): grad @ mat2^H, or its transposed form."""
    if column_major:
        return F.t(F.mm(_cj(F, mat2), F.t(grad)))
    return F.mm(grad, F.t(_cj(F, mat2)))


def _mat2_grad(F, grad, mat1, column_major):
    """PyTorch's mm_mat2_backward (without alpha): mat1^H @ grad, or (grad^T @ mat1)^T."""
    if column_major:
        return F.t(F.mm(F.t(grad), _cj(F, mat1)))
    return F.mm(F.t(_cj(F, mat1)), grad)


# Linear algebra.
MM = defop("mm", "MmBackward0", lambda a, b, *layouts: raw.mm(a, b), inputs=("self", "mat2"),
           params=("self_column_major", "mat2_column_major"),
           grads={"self": lambda F, grad, mat2, self_column_major:
                  _mat1_grad(F, grad, mat2, self_column_major),
                  "mat2": lambda F, grad, self, mat2_column_major:
                  _mat2_grad(F, grad, self, mat2_column_major)},
           jvp=lambda F, self, self_t, mat2, mat2_t: _bilinear(F, F.mm, self, self_t, mat2, mat2_t,
                                                               dense=True))


# Note [float16 products]
# ~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's CPU addmm / addmv / baddbmm of float16 compute ``beta * self + alpha *
# product`` in float32 and round once (bfloat16 products already come back from ml_dtypes
# in float32: Note [bfloat16 accumulation]); NumPy's float16 product is rounded to float16
# before the bias is added, a second rounding (2-3 ulps off PyTorch's).
def _in_float32(*arrays):
    return tuple(a.astype(np.float32) if a.dtype == np.float16 else a for a in arrays)


def _fused_f16(kernel):
    """kernel(self, a, b, beta, alpha, half) computed in float32 for float16 operands;
    ``half``: false, or for float16/bfloat16 gemv's branch, "n" or "t" (of the operand as
    given: float32 copies lose the strides of size-1 dimensions)."""
    def run(s, a, b, beta, alpha):
        if s.dtype == np.float16 or a.dtype == np.float16:
            return raw.asarray(kernel(*_in_float32(s, a, b), beta, alpha,
                                      _gemv_branch(a))).astype(np.float16)
        return kernel(s, a, b, beta, alpha, a.dtype.kind == "V" and _gemv_branch(a))
    return run


def _gemv_branch(m):
    """addmv_impl_cpu's choice for a matrix: gemv 'n' for a column-major one, else 't'."""
    if m.ndim != 2:
        return "t"
    st0, st1 = (x // m.itemsize for x in m.strides)
    return "n" if st0 == 1 and (m.shape[1] == 1 or st1 >= _py_max(1, m.shape[0])) else "t"


# Note [Half gemm and gemv]
# ~~~~~~~~~~~~~~~~~~~~~~~~~
# float16/bfloat16 products are not MKL's: cpublas's own loops (gemm_notrans_ and kin,
# gemv's transposed branch) sum each dot in float from +0.0 (-0.0 terms sum to +0.0),
# then store ``alpha * dot`` (beta == 0: self ignored) or ``beta * self + alpha * dot``:
# alpha == 0 still reads the product (0 * dot: -0.0 for a negative dot, NaN for an
# infinite one), and no sum from +0.0 follows (alpha = -1 makes a zero dot -0.0).
def _addmm(bias, m1, m2, beta, alpha, *layouts, half=False, transb=False):
    if m1.dtype == np.float16:  # (Note [float16 products])
        return _addmm(*_in_float32(bias, m1, m2), beta, alpha, half=True,
                      transb=_gemm_transb(m1, m2)).astype(np.float16)
    if m1.dtype.kind == "V":  # (Note [Half gemm and gemv])
        half, transb = True, _gemm_transb(m1, m2)
    shape = (m1.shape[0], m2.shape[1])
    if transb:
        return _gemm_transb_half(bias, m1, m2, beta, alpha, shape)
    if alpha == 0 and not half:  # (the GEMM reads no product: a nan in it is ignored)
        if beta == 0:
            return np.zeros(shape, dtype=m1.dtype)
        return np.array(np.broadcast_to(bias if beta == 1 else beta * bias, shape), m1.dtype)
    # Note [Signed zeros of matrix products] in raw.py: the GEMM's one product per element
    # (an inner dimension of 1), else a sum from beta * self, or from +0.0 when beta is 0
    direct = shape[0] > 1 and shape[1] > 1 and m1.shape[1] == 1 and m1.dtype in raw._GEMM
    out = np.multiply(m1, m2, order="C") if direct else m1 @ m2
    if half:
        out += 0.0  # (the dot's sum from +0.0)
    if alpha != 1:
        out *= alpha  # (in place: the product is a fresh array)
    if beta == 0:
        if not direct and out.dtype.kind == "f" and not half:
            out += 0.0
    else:
        if beta != 1 and bias.dtype != out.dtype:  # (bfloat16: beta * self in float32 too)
            bias = bias.astype(out.dtype)
        c0 = bias if beta == 1 else beta * bias
        out += c0
        if not direct and out.dtype.kind == "f" and not half:
            _negative_zero_sums(out, c0, lambda i, j: m1[i, :] * m2[:, j].T, alpha)
    # (bfloat16: a float32 product, rounded once: Note [bfloat16 accumulation])
    return out if out.dtype == m1.dtype else out.astype(m1.dtype)


def _column_major(m, ld):
    st0, st1 = (x // m.itemsize for x in m.strides)
    return st0 == 1 and st1 >= _py_max(1, ld)


def _gemm_transb(m1, m2):
    """Whether addmm_impl_cpu_ calls gemm_transb_ (its layout choices for a fresh row-major
    result): with more than one column it computes C^T = mat2^T mat1^T, mat1 transposed
    when column-major (and not also row-major); a single column is C itself, mat2
    transposed unless column-major, mat1 as it is when column-major."""
    rows, k = m1.shape
    if m2.shape[1] > 1:
        return not _column_major(m1.T, k) and _column_major(m1, rows)
    return _column_major(m1, rows) and not _column_major(m2, k)


def _gemm_transb_half(bias, m1, m2, beta, alpha, shape):
    """cpublas's gemm_transb_ of float16/bfloat16 (Note [Half gemm and gemv]): a float
    accumulator (beta * self, in float; +0.0 when beta == 0) takes ``mat2[l, j] * (mat1[i,
    l] * alpha)`` for l in order (a single column: alpha times mat2's element)."""
    a1, m2f = m1.astype(np.float32), m2.astype(np.float32)
    if shape[1] > 1:
        a1 *= np.float32(alpha)
    else:
        m2f *= np.float32(alpha)
    if beta == 0:
        acc = np.zeros(shape, np.float32)
    else:
        acc = np.array(np.broadcast_to(
            bias if beta == 1 else np.float32(beta) * bias.astype(np.float32), shape), np.float32)
    for l in range(m1.shape[1]):
        acc += m2f[l] * a1[:, l:l + 1]
    return acc.astype(m1.dtype)


def _negative_zero_sums(out, c0, terms, alpha, scaled_sum=False):
    """Note [Signed zeros of matrix products]: a zero of ``out`` (c0 + alpha * the sum of a
    product's terms, NumPy's sum starting from +0.0) whose c0 is -0.0 is -0.0 in PyTorch
    exactly when every term alpha * a_k * b_k is -0.0 too (gemm), or (``scaled_sum``: gemv)
    when alpha times the terms' sum is (a sum of zeros is -0.0 when all are). ``terms(i, j)``:
    the (n, K) terms of the elements (i, j); only those candidates are computed (rarely any:
    c0 must hold a -0.0)."""
    c0 = np.asarray(c0)
    neg0 = (c0 == 0) & np.signbit(c0)
    if not neg0.any():
        return
    idx = np.nonzero((out == 0) & neg0)
    if not idx[0].size:
        return
    t = terms(*idx) if out.ndim == 2 else terms(idx[0])
    if scaled_sum:
        neg = ((t == 0) & np.signbit(t)).all(axis=1) != (alpha < 0)
    else:
        if alpha != 1:
            t = t * alpha
        neg = ((t == 0) & np.signbit(t)).all(axis=1)
    out[idx] = np.where(neg, -0.0, 0.0)


ADDMM = defop("addmm", "AddmmBackward0", _addmm,
              inputs=("self", "mat1", "mat2"),
              params=("beta", "alpha", "mat1_column_major", "mat2_column_major"),
              grads={"self": lambda F, grad, beta: grad if beta == 1 else grad * beta,
                     "mat1": lambda F, grad, mat2, alpha, mat1_column_major:
                     _mat1_grad(F, grad, mat2, mat1_column_major) * alpha
                     if alpha != 1 else _mat1_grad(F, grad, mat2, mat1_column_major),
                     "mat2": lambda F, grad, mat1, alpha, mat2_column_major:
                     _mat2_grad(F, grad, mat1, mat2_column_major) * alpha
                     if alpha != 1 else _mat2_grad(F, grad, mat1, mat2_column_major)},
              jvp=lambda F, self_t, mat1, mat1_t, mat2, mat2_t, beta, alpha:
                  _addmm_jvp(F, self_t, mat1, mat1_t, mat2, mat2_t, beta, alpha))
BMM = defop("bmm", "BmmBackward0", raw.bmm, inputs=("self", "mat2"),
            grads={"self": lambda F, grad, mat2: F.bmm(grad, F.transpose(_cj(F, mat2), 1, 2)),
                   "mat2": lambda F, grad, self: F.bmm(F.transpose(_cj(F, self), 1, 2), grad)},
            jvp=lambda F, self, self_t, mat2, mat2_t:
                _bilinear(F, F.matmul, self, self_t, mat2, mat2_t, dense=True))
def _dot_kernel(a, b):
    """BLAS's dot sums from +0.0, so a zero result is +0.0 (NumPy's of one -0.0 term is
    -0.0)."""
    r = np.dot(a, b)
    return raw.asarray(r + 0.0 if r.dtype.kind == "f" else r)


DOT = defop("dot", "DotBackward0", _dot_kernel,
            inputs=("self", "tensor"),
            grads={"self": lambda F, grad, tensor: grad * _cj(F, tensor),
                   "tensor": lambda F, grad, self: grad * _cj(F, self)},
            jvp=lambda F, self, self_t, tensor, tensor_t:
                _bilinear(F, _dot, self, self_t, tensor, tensor_t))
MV = defop("mv", "MvBackward0", raw.matmul, inputs=("self", "vec"),
           # (PyTorch's grad.ger(vec.conj()): outer's reshape to (n, 1) times vec)
           grads={"self": lambda F, grad, vec: F.reshape(grad, (grad.shape[0], 1)) * _cj(F, vec),
                  "vec": lambda F, grad, self: F.matmul(F.t(_cj(F, self)), grad)},
           jvp=lambda F, self, self_t, vec, vec_t: _bilinear(F, F.matmul, self, self_t, vec, vec_t,
                                                             dense=True))


# ---- linear algebra --------------------------------------------------------------------------
def _check_same_dtype(a, b, what="expected m1 and m2 to have the same dtype"):
    if a._data.dtype != b._data.dtype:
        da = _dtypes.cpp_name(_dtypes.from_numpy(a._data.dtype))
        db = _dtypes.cpp_name(_dtypes.from_numpy(b._data.dtype))
        raise RuntimeError(f"{what}, but got: {da} != {db}")


def mm(input, mat2):
    if _amp.state.enabled:
        return _amp.lower(mm, input, mat2)
    _check_tensor_arg("mm", "mat2", mat2, 1)
    a, b = input._data, mat2._data
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        view_errors_first(input, mat2)  # (Note [View errors before an op's checks])
    if a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(_errors.MM_SHAPES.format(a.shape[0], a.shape[1], b.shape[0],
                                                    b.shape[1]))
    _check_same_dtype(input, mat2)
    if a.shape[0] and b.shape[1] and a.shape[1]:  # (PyTorch returns before its kernel)
        _no_bool("addmm_impl_cpu_", a)
    return _finish(MM, (input, mat2), _layouts(a, b), raw.mm(a, b))


def _no_bool(kernel, a):
    """PyTorch has no bool matrix products."""
    if a.dtype == np.bool_:
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")


# Note [Beta and alpha of the add family]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# addmm / addmv / baddbmm / addbmm / addr take beta and alpha as c10::Scalars: the argument
# parser's OverflowError (2**64) comes before any check (``_scalar_args``), the kernel's
# ``Scalar::to<T>()`` after the shape and dtype checks, where the kernel runs: as opmath_t
# (float for float16/bfloat16) in addmm_impl_cpu_'s gemm and baddbmm_cpu_kernel, as
# scalar_t (c10::Half) in addmv's gemv and addr's kernel. ``_kernel_scalar`` checks it
# ("value cannot be converted to type int8_t without overflow") and truncates a float read
# into an integer dtype (beta=0.5 on int16 is 0: self is ignored) or wraps a negative int
# into an unsigned one; a complex number of imaginary part 0 is its real part. addr checks
# first (check_addr_scalar): a bool number for a bool result only, no float (or complex)
# number for an integral one. float32/float64 and complex given Python ints (nn.Linear's
# addmm: beta=1, alpha=1) read no further: every int the parser takes fits.
_BLAS_WIDE = {np.dtype(t): lim for t, lim in ((np.float32, float(np.finfo(np.float32).max)),
                                             (np.complex64, float(np.finfo(np.float32).max)),
                                             (np.float64, math.inf), (np.complex128, math.inf))}


def _blas_scalars(beta, alpha, d, half_as_float):
    """(beta, alpha) as the kernel of dtype ``d`` (a NumPy dtype) reads them."""
    lim = _BLAS_WIDE.get(d)
    wide = lim is not None
    if wide:  # (the common cases inline: ints, and floats in range, infinite or NaN)
        cb, ca = beta.__class__, alpha.__class__
        if (cb is int or cb is float and (-lim <= beta <= lim or beta != beta or
                                          abs(beta) == math.inf)) and \
                (ca is int or ca is float and (-lim <= alpha <= lim or alpha != alpha or
                                               abs(alpha) == math.inf)):
            return beta, alpha
    out = []
    for v in (beta, alpha):
        if not (wide and v.__class__ is int):
            v = _kernel_scalar(v, d, half_as_float)
        out.append(v.real if v.__class__ is complex and d.kind != "c" else v)
    return out


def _addr_scalar_checks(d, beta, alpha):
    """check_addr_scalar of the result dtype ``d``: beta's, then alpha's."""
    for name, v in (("beta", beta), ("alpha", alpha)):
        if isinstance(v, np.generic):
            v = v.item()
        if v.__class__ is bool and d != np.bool_:
            raise RuntimeError(f"Boolean {name} only supported for Boolean results.")
        if d.kind in "biu" and not isinstance(v, int):
            raise RuntimeError(f"For integral input tensors, argument {name} must not be a "
                               f"floating point number.")


@view_errors_before_checks
def bmm(input, mat2):
    if _amp.state.enabled:
        return _amp.lower(bmm, input, mat2)
    a, b = input._data, mat2._data
    if a.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if b.shape[:2] != (a.shape[0], a.shape[2]):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")
    if a.dtype != b.dtype:
        if a.size == 0 or b.size == 0:  # PyTorch computes nothing, in the second's dtype
            # (but records it, and its tangent is the product of the tangents: zeros)
            if b.dtype.kind in "biu":  # an integral result its autograd refuses
                if _state.enabled and input.requires_grad:
                    raise RuntimeError("Autograd not support dtype: "
                                       f"{_dtypes.scalar_name(mat2.dtype)}")
                if _state.fw and _fw_tangent(input) is not None:
                    raise RuntimeError(_FW_NOT_FLOAT)
            return _finish(BMM, (input, mat2), (),
                           np.zeros((a.shape[0], a.shape[1], b.shape[2]), dtype=b.dtype))
        _no_bool("bmm", a)
        raise RuntimeError(f"expected scalar type {_dtypes.scalar_name(input.dtype)} but found "
                           f"{_dtypes.scalar_name(mat2.dtype)}")
    if a.size and b.size:
        _no_bool("bmm", a)
    return _finish(BMM, (input, mat2), (), raw.bmm(a, b))


from ..autograd.forward_ad import FW_NOT_FLOAT as _FW_NOT_FLOAT  # noqa: E402


def _fw_tangent(t):
    from ..autograd.forward_ad import _tangent_or_none
    return _tangent_or_none(t)


@view_errors_before_checks
def dot(input, tensor):
    a, b = input._data, tensor._data
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if input._data.dtype != tensor._data.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{_dtypes.scalar_name(input.dtype)} and "
                           f"{_dtypes.scalar_name(tensor.dtype)}")
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src "
                           f"[{b.shape[0]}] to have the same number of elements, but got "
                           f"{a.shape[0]} and {b.shape[0]} elements respectively")
    _no_bool("dot", a)
    return _finish(DOT, (input, tensor), (), _dot_kernel(a, b))


@view_errors_before_checks
def mv(input, vec):
    a, b = input._data, vec._data
    if a.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if a.ndim != 2 or b.ndim != 1:
        view_errors_first(input, vec)  # (Note [View errors before an op's checks])
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.ndim}, {b.ndim}")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat "
                           f"({a.shape[0]}x{a.shape[1]}), vec ({b.shape[0]})")
    if a.dtype != b.dtype:
        # the first is the result's dtype, which PyTorch takes from the vector
        names = [_dtypes.scalar_name(_dtypes.from_numpy(x)) for x in (b.dtype, a.dtype, b.dtype)]
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                           f"{names[0]}, {names[1]}, and {names[2]}")
    if a.size:  # (PyTorch returns before its kernel)
        _no_bool("addmv_impl_cpu", a)
    return _finish(MV, (input, vec), (), raw.matmul(a, b))


def matmul(input, other):
    """PyTorch's matmul, decomposed the same way (so grad_fn names match)."""
    if _amp.state.enabled:
        return _amp.lower(matmul, input, other)
    a, b = input._data, other._data
    na, nb = a.ndim, b.ndim
    if na == 0 or nb == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{na}D and {nb}D")
    if na == 1 and nb == 1:
        return dot(input, other)
    if na == 2 and nb == 1:
        return mv(input, other)
    if na == 1 and nb == 2:
        return _squeeze_inplace_dim(mm(unsqueeze(input, 0), other), 0)
    if na == 2 and nb == 2:
        return mm(input, other)
    if _should_fold(input, other):
        # use mm/mv by folding the batch of the larger operand into its rows
        transpose_ = nb > na
        t1 = _mT(other) if transpose_ else input
        t2 = (t(input) if na == 2 else input) if transpose_ else other
        sizes_1 = t1._data.shape
        out_shape = sizes_1[:-1]
        folded = reshape(t1, (int(np.prod(out_shape)), sizes_1[-1]))
        if t2._data.ndim == 2:
            out = _unsafe_view(mm(folded, t2), out_shape + (t2._data.shape[1],))
            return contiguous(_mT(out)) if transpose_ else out
        return _unsafe_view(mv(folded, t2), out_shape)
    if na == 3 and nb == 3 and a.shape[0] != b.shape[0]:
        # aten folds a broadcast batch of one that requires grad: squeezed, it takes the
        # mm path above (no expanded copy for its gradient)
        if a.shape[0] == 1 and input.requires_grad:
            return matmul(squeeze(input, 0), other)
        if b.shape[0] == 1 and other.requires_grad:
            return matmul(input, squeeze(other, 0))
    # batched: broadcast the batch dims, then bmm
    n = a.shape[-2] if na > 1 else 1
    m1 = a.shape[-1]
    m2 = b.shape[-2] if nb > 1 else b.shape[0]
    p = b.shape[-1] if nb > 1 else 1
    batch_a, batch_b = a.shape[:_py_max(na - 2, 0)], b.shape[:_py_max(nb - 2, 0)]
    try:
        batch = tuple(np.broadcast_shapes(batch_a, batch_b))
    except ValueError:
        raise broadcast_error(batch_a, batch_b) from None
    prod_ = int(np.prod(batch)) if batch else 1
    ea = reshape(expand(input, batch + (n, m1)), (prod_, n, m1))
    shape = batch + ((n,) if na > 1 else ()) + ((p,) if nb > 1 else ())
    if nb == 1:  # a vector on the right: a batch of (m2, 1) matrices, squeezed after bmm
        eb = unsqueeze(reshape(expand(other, batch + (m2,)), (prod_, m2)), 2)
        return _unsafe_view(squeeze(bmm(ea, eb), -1), shape)
    eb = reshape(expand(other, batch + (m2, p)), (prod_, m2, p))
    return _unsafe_view(bmm(ea, eb), shape)


def _should_fold(tensor1, tensor2):
    """PyTorch's rule for computing a batched matmul with one mm/mv (no copy needed)."""
    n1, n2 = tensor1._data.ndim, tensor2._data.ndim
    larger_first = n1 >= n2
    dim_t1, dim_t2 = (n1, n2) if larger_first else (n2, n1)
    if not (dim_t1 >= 3 and dim_t2 <= 2):
        return False
    if (tensor2 if larger_first else tensor1).requires_grad:
        return True  # (PyTorch does not look at the grad mode here, no_grad included)
    if n1 == 2:
        return False
    t1 = tensor1._data if larger_first else np.swapaxes(tensor2._data, -1, -2)
    if t1.size == 0:
        return True
    shape, strides = t1.shape, t1.strides
    return _py_all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(dim_t1 - 2))


def _addmm_dtypes(input, a, b):
    """addmm_impl_cpu_'s dtype checks, in its order: self against mat2 first."""
    for what, x in (("self", input._data), ("mat1", a)):
        if x.dtype != b.dtype:
            raise RuntimeError(f"{what} and mat2 must have the same dtype, but got "
                               f"{_dtypes.scalar_name(_dtypes.from_numpy(x.dtype))} and "
                               f"{_dtypes.scalar_name(_dtypes.from_numpy(b.dtype))}")


@view_errors_before_checks
def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    if _amp.state.enabled:
        return _amp.lower(addmm, input, mat1, mat2, beta=beta, alpha=alpha)
    # (nn.Linear's beta = alpha = 1: nothing to check, every dtype reads 1 as 1)
    plain = beta.__class__ is int and alpha.__class__ is int and beta == 1 and alpha == 1
    if not plain:
        _scalar_args(beta, alpha)
    a, b = mat1._data, mat2._data
    _addmm_dtypes(input, a, b)
    if a.ndim != 2:
        raise RuntimeError(f"mat1 must be a matrix, got {a.ndim}-D tensor")
    if b.ndim != 2:
        raise RuntimeError(f"mat2 must be a matrix, got {b.ndim}-D tensor")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(_errors.MM_SHAPES.format(a.shape[0], a.shape[1], b.shape[0],
                                                    b.shape[1]))
    out_shape = (a.shape[0], b.shape[1])
    in_shape = input._data.shape
    if in_shape != out_shape[1:] and in_shape != out_shape and (  # (the bias of linear)
            not _broadcastable(in_shape, out_shape) or
            np.broadcast_shapes(in_shape, out_shape) != out_shape):
        expand(input, out_shape)  # raises PyTorch's expand error
    kb, ka = beta, alpha
    if a.shape[0] and b.shape[1] and a.shape[1]:  # (PyTorch returns before its kernel)
        _no_bool("addmm_impl_cpu_", a)
        if not plain:
            kb, ka = _blas_scalars(beta, alpha, a.dtype, True)
    out = ADDMM.kernel(input._data, a, b, kb, ka)
    result = _finish(ADDMM, (input, mat1, mat2), (beta, alpha) + _layouts(a, b), out)
    if result._grad_fn is not None and input._data.shape != out.shape:
        set_input_metadata(result._grad_fn, (input, mat1, mat2), out.shape, out.dtype)
    return result


def outer(input, vec2):
    if input._data.ndim != 1:
        raise RuntimeError(f"outer: Expected 1-D argument self, but got {input._data.ndim}-D")
    if vec2._data.ndim != 1:
        raise RuntimeError(f"outer: Expected 1-D argument vec2, but got {vec2._data.ndim}-D")
    return mul(reshape(input, (input._data.shape[0], 1)), vec2)  # as PyTorch computes it


def linear(input, weight, bias=None):
    """x W^T + b, recorded like PyTorch: addmm (through a 2-D view for other ranks) with a
    bias, matmul without."""
    if not (isinstance(input, Tensor) and isinstance(weight, Tensor) and (
            bias is None or isinstance(bias, Tensor))):
        from ..nn.functional import _tensors  # (the argument parser's TypeError)
        _tensors("linear", ("input", input), ("weight", weight), ("bias", bias, True))
    if _amp.state.enabled:
        return _amp.lower(linear, input, weight, bias)
    if input._data.ndim == 0 or weight._data.ndim == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are "
                           f"{input._data.ndim}D and {weight._data.ndim}D")
    if bias is None:
        return matmul(input, t(weight))
    nd = input._data.ndim
    if nd == 2:
        return addmm(bias, input, t(weight))
    if nd > 2 and not input.is_contiguous():   # PyTorch: matmul, then add the bias
        return add(matmul(input, t(weight)), bias)
    shape = input._data.shape[:-1] + (weight._data.shape[0],)
    flat = view(input, (-1, input._data.shape[-1])) if nd != 1 else view(input, (1, -1))
    return view(addmm(bias, flat, t(weight)), shape)


# ==== the catalogue: products, decompositions and torch.linalg (issue 11) ===================
# Note [Linear-algebra formulas]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# Backward formulas are PyTorch's (FunctionsManual.cpp), written against F like every other
# formula (Note [One formula, two interpretations] in raw.py). The few matrix functions they
# need beyond F's names (inverse, solve, triangular solve, matrix_exp, cross) come from
# ``_la(F)``: NumPy on arrays, this module's differentiable functions on tensors, so every
# decomposition has a double backward. Multi-output decompositions (eigh, qr, slogdet,
# lstsq) take their forward-mode rule from the transpose of their backward (``_jvp_multi``):
# J t is unique wherever the backward is defined, so it equals PyTorch's hand-written JVPs
# up to rounding, but not where infinities and NaNs land: svd's is PyTorch's
# linalg_svd_jvp term for term (``_svd_jvp``; S * S overflows for huge singular values).


def _T(F, x):
    return F.transpose(x, -2, -1)


def _H(F, x):
    """The adjoint x^H (the transpose for real x; Note [Complex gradients of products])."""
    return _T(F, _cj(F, x))


def _col(F, x):
    return F.unsqueeze(x, -1)


def _row(F, x):
    return F.unsqueeze(x, -2)


def _narrow(F, x, dim, start, length):
    """F.narrow with a negative dim wrapped (the raw namespace takes dims >= 0)."""
    return F.narrow(x, dim % x.ndim, start, length)


def _eye(F, n, like):
    return F.constant(np.eye(n), like)


def _diag_one(F, X):
    """X with 1 on its diagonal, written over it as PyTorch's ``E.diagonal().fill_(1)``
    (adding I gave inf - inf + 1 = NaN for an infinite eigenvalue or S * S)."""
    mask = np.eye(X.shape[-1], dtype=bool)
    return F.masked_fill(X, mask if F.is_raw else _make(mask), 1)


def _diag_embed_f(F, v):
    """diag_embed in formula terms: v[..., :, None] * I."""
    return _col(F, v) * _eye(F, v.shape[-1], v)


def _btrace(F, x):
    return F.sum(F.diagonal(x, 0, -2, -1), -1)


def _solve_tri_array(a, b, upper, left, unitriangular=False):
    if unitriangular:
        n = a.shape[-1]
        a = (np.triu(a, 1) if upper else np.tril(a, -1)) + np.eye(n, dtype=a.dtype)
    else:
        a = np.triu(a) if upper else np.tril(a)
    if left:
        return _tri_solve(a, b, not upper)
    return np.swapaxes(_tri_solve(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2), upper),
                       -1, -2)


def _tri_solve(T, b, lower):
    """T^-1 b for triangular T; a zero on T's diagonal gives LAPACK trsm's infinities and
    NaNs (no error: PyTorch's triangular solves do not check), by substitution, as do
    non-finite entries: x_i = (b_i - sum_{j before i} T_ij x_j) / T_ii reads only the
    triangle and the x_j already found (MKL's trsm skips no zero: 0 * inf is NaN)."""
    if np.isfinite(T).all() and np.isfinite(b).all():
        try:
            return np.linalg.solve(T, b)
        except np.linalg.LinAlgError:
            pass
    n = T.shape[-1]
    x = np.zeros(np.broadcast_shapes(T.shape[:-2], b.shape[:-2]) + b.shape[-2:],
                 np.result_type(T, b))
    with np.errstate(all="ignore"):
        for i in (range(n) if lower else range(n - 1, -1, -1)):
            done = slice(0, i) if lower else slice(i + 1, n)
            r = b[..., i, :] - np.einsum("...j,...jk->...k", T[..., i, done], x[..., done, :])
            x[..., i, :] = r / T[..., i, i, None]
    return x


def _la(F):
    return _LA_RAW if F.is_raw else _LA_TENSOR


# LAPACK's results are column-major (Note [Result layout] in layout.py), its info and pivots
# contiguous
_LAPACK_INFO = ("column_major", "contiguous", "contiguous")


# ---- backward formulas --------------------------------------------------------------------
def _inv_H_singular(F, A, like, eps):  # (_SINGULAR: below, with _LinAlgError)
    """A^{-H} of a singular A as PyTorch's det/slogdet backward compute it (Note
    [Determinants of singular matrices]): lu_solve with the LU the forward made (of A^T
    for a contiguous real A), its zero pivots made eps (det: ``eps``) or left to give
    getrs's infinities and NaNs (slogdet)."""
    if isinstance(A, Tensor):
        LU, piv, use_t = _det_lu(A)
    else:  # (raw: the saved array, with the tensor's strides)
        use_t = A.dtype.kind != "c" and A.flags.c_contiguous
        LU, piv, _ = _lu_array(np.swapaxes(A, -1, -2) if use_t else A)
    eye = F.constant(np.eye(LU.shape[-1]), like)
    return _cj(F, _lu_solve_f(F, LU, piv, not use_t, eye, eps=eps))  # (A^{-T}, conjugated)


def _lu_grad_nonfinite(A, d_diag, eps):
    """linalg_det_backward / slogdet_backward of a non-finite real A without a graph, as
    PyTorch computes them: lu_solve of diag(d) with the forward's LU (of A^T for a
    contiguous A: adjoint=False), zero pivots made eps for det: getrs's steps decide where
    the infinities and NaNs land (a product by A^{-T} afterwards would put others)."""
    use_t = A.flags.c_contiguous
    LU, piv, _ = _lu_array(np.swapaxes(A, -1, -2) if use_t else A)
    if eps:
        d = np.diagonal(LU, 0, -2, -1)
        LU = LU.copy()
        LU[..., np.arange(A.shape[-1]), np.arange(A.shape[-1])] += np.where(
            d == 0, np.finfo(A.dtype).eps, 0)
    n = A.shape[-1]
    D = np.zeros(A.shape, A.dtype)
    D[..., np.arange(n), np.arange(n)] = np.asarray(d_diag)[..., None]  # (no inf * 0)
    with np.errstate(all="ignore"):
        return _lu_solve_f(raw.RAW, LU, piv, not use_t, D).astype(A.dtype, copy=False)


# Note [Zero gradients of det and slogdet]: without create_graph PyTorch's det and slogdet
# backward solve diag(d) (d = g det, or g) with the forward's LU: getrs's row interchanges,
# then trsm's substitutions. Ours multiply d by A^-H: the same values, except where d is
# zero (a zero incoming gradient; logdet of a negative determinant, masked by where),
# whose zeros carry the substitutions' signs (0 / u_ii, x - l * 0): such matrices are
# solved by getrs's steps (_getrs_steps). Measured against PyTorch on 300 random
# matrices 1..5 x 1..5, batched or not, both layouts, float32 and float64, d = +0 and -0:
# every sign agrees for n <= 3 on matrices without a zero pivot; for n >= 4 MKL's trsm
# orders its updates otherwise (a third of the matrices differ in some zero's sign), and
# a zero pivot's quotient is eps's (det) or a NaN: those keep the product's signs. That is
# MKL's Intel path (_mkl_fuses); on an AMD EPYC its 3 x 3 substitutions take another order
# (no column or row order of L's and U's solves, divided or by reciprocals, gives its signs
# on 300 random matrices): there n <= 2 only.
def _zero_signs_max():
    return 3 if _mkl_fuses() else 2


def _zero_d_signs(F, out, A, d):
    """``out`` (the gradient; a fresh array or tensor) with the matrices whose ``d`` is
    zero given getrs's signed zeros (Note [Zero gradients of det and slogdet])."""
    a = A if F.is_raw else A._data
    n = a.shape[-1]
    if a.dtype.kind != "f" or n > _zero_signs_max() or not a.size:
        return out
    zero = np.broadcast_to(np.asarray(d if F.is_raw else d._data) == 0, a.shape[:-2])
    if not zero.any():
        return out
    use_t = a.flags.c_contiguous if F.is_raw else A.is_contiguous()  # (as _det_lu)
    picked = np.argwhere(zero) if zero.ndim else np.zeros((1, 0), np.intp)
    mats = a[tuple(picked.T)]
    LU, piv, _ = _lu_array(np.swapaxes(mats, -1, -2) if use_t else mats)
    ok = (np.diagonal(LU, 0, -2, -1) != 0).all(-1)
    if not ok.any():
        return out
    D = np.zeros((int(ok.sum()), n, n), a.dtype)
    D[:, np.arange(n), np.arange(n)] = np.broadcast_to(
        np.asarray(d if F.is_raw else d._data, a.dtype), a.shape[:-2])[zero][ok][:, None]
    arr = out if F.is_raw else out._data
    if not arr.flags.writeable:
        arr = arr.copy()
    arr[tuple(picked[ok].T)] = _getrs_steps(LU[ok], piv[ok], D, not use_t)
    if F.is_raw:
        return arr
    out._data = arr
    return out


def _factors_only(F, A):
    """A as linalg_det_backward, slogdet_backward and linalg_solve_backward read it without
    create_graph: through the forward's LU factors, outputs without a tangent, so a
    forward-over-reverse pass gets no tangent from A itself (with create_graph they solve
    with A: its tangent too)."""
    return A if F.is_raw or _state.enabled else A.detach()


def _det_backward(F, grad, A, result):
    # d det = det tr(A^{-1} dA): gA = (g det) A^{-T}
    if not F.is_raw and not A._data.size:
        # (PyTorch's gradient of an empty A is a fresh zero tensor: no history even with
        # create_graph, no tangent in a forward-over-reverse pass)
        return F.zeros(A._data.shape, A)
    if (A.shape if F.is_raw else A._data.shape)[-1] == 1:
        # (PyTorch's 1x1 gradient is grad itself, bit for bit, for any A, inf and NaN too;
        # with grad's history and tangent only, not det's)
        if F.is_raw:
            return np.broadcast_to(np.asarray(grad)[..., None, None], A.shape).astype(A.dtype)
        return expand(unsqueeze(unsqueeze(grad, -1), -1), A._data.shape)
    A = _factors_only(F, A)
    if F.is_raw and A.size and not _finite(A):
        return _lu_grad_nonfinite(A, grad * result, eps=True)
    if F.is_raw and _lu_mkl(A):  # (the cofactors det A^-T in double, as before Note [float32
        # LU as MKL's]: PyTorch's gradient of a nearly singular float32 matrix is its
        # accurate cofactor matrix, not the float32 LU's det times its inverse)
        with np.errstate(all="ignore"):
            result = np.linalg.det(A.astype(np.float64)).astype(A.dtype)
    if _recorded(F, A) and A._data.size and _finite(A._data):
        small = np.abs(result._data) < 100 * np.finfo(result._data.dtype).eps
        if not small.any():  # (masked_fmap's non-singular side for every matrix)
            return _solve_cofactors(F, A, grad * _cj(F, result))
        if small.all():  # (its singular side: the cofactors from an SVD)
            return _svd_cofactors(A, grad)
        # (a batch holding both: each side on its matrices, index_put into one result)
        mask = _make(small)
        out = F.zeros(A._data.shape, A)
        out[mask] = _svd_cofactors(A[mask], grad[mask])
        out[~mask] = _solve_cofactors(F, A[~mask], (grad * _cj(F, result))[~mask])
        return out
    try:
        inv_H = _H(F, _la(F).inv(A))
    except _SINGULAR:
        inv_H = _inv_H_singular(F, A, grad, eps=True)
    d = grad * _cj(F, result)
    return _zero_d_signs(F, _col(F, _col(F, d)) * inv_H, A, d)


def _recorded(F, A):
    """Whether a real det/slogdet backward runs on tensors with grad mode on (create_graph):
    PyTorch's formula then solves with A (LinalgSolveExBackward0) instead of reading its
    forward's LU."""
    return not F.is_raw and _state.enabled and A._data.dtype.kind == "f"


def _svd_cofactors(A, grad):
    """linalg_det_backward's singular side under grad mode: A = U S Vh, the gradient
    U diag(alpha g prod_{j != i} S_j) Vh with alpha = det(U) det(Vh) (prod_safe_zeros_
    backward's exclusive products: right where S holds zeros)."""
    from .reduction import cumprod
    from .shape import cat, flip
    U, S, Vh = svd(A)
    alpha = det(U) * det(Vh)
    g = unsqueeze(alpha * grad, -1)
    k = S._data.shape[-1]
    ones = _make(np.ones(S._data.shape[:-1] + (1,), S._data.dtype))
    before = cumprod(cat([ones, narrow(S, -1, 0, k - 1)], -1), -1)
    after = flip(cumprod(cat([ones, flip(narrow(S, -1, 1, k - 1), (-1,))], -1), -1), (-1,))
    D = g * (before * after)
    return matmul(U * unsqueeze(D, -2), Vh)


def _solve_cofactors(F, A, d_diag):
    """linalg_det_backward / slogdet_backward under grad mode: linalg_solve(A^H, d) with
    d = diag_embed(d_diag).mT, the graph PyTorch records (d's node a transpose)."""
    eye = F.constant(np.eye(A._data.shape[-1], dtype=A._data.dtype), A)
    d = F.transpose(_col(F, _col(F, d_diag)) * eye, -1, -2)
    return _la(F).solve(_H(F, A), d)


def _slogdet_backward(F, grads, A, sign):
    """g A^{-H}, g = g_logabsdet (+ i Im(g_sign conj(sign)) for complex A: the sign's
    phase moves with Im log det; a real sign has no gradient)."""
    gs, g = grads
    if F.is_raw and A.dtype.kind == "c" and gs is not None:
        g = (0 if g is None else g) + 1j * np.imag(gs * np.conj(sign))
    if g is None:
        return None
    if not F.is_raw:  # (PyTorch solves with g: no zero-tensor kernel, a zero-tensor tangent
        # is solved with as stored zeros, Note [Zero-tensor tangents] in dispatch.py)
        from ..autograd.forward_ad import tangent_materialized
        g = tangent_materialized(g)
    A = _factors_only(F, A)
    if F.is_raw and A.size and (not _finite(A) or _lu_mkl(A)):  # (and Note [float32 LU as
        # MKL's]: lu_solve with the forward's LU)
        return _lu_grad_nonfinite(A, g, eps=False)
    if _recorded(F, A) and _finite(A._data):  # (a singular A: solve's error, as PyTorch's)
        return _solve_cofactors(F, A, g)
    try:
        inv_H = _H(F, _la(F).inv(A))
    except _SINGULAR:
        with np.errstate(all="ignore"):
            inv_H = _inv_H_singular(F, A, g, eps=False)
    return _zero_d_signs(F, _col(F, _col(F, g)) * inv_H, A, g)


def _solve_backward(F, grad, A, result, left, vector):
    """linalg_solve_backward: gB = A^{-T} gX (left) or gX A^{-T}; gA = -gB X^T / -X^T gB.
    A singular A (solve_ex without check_errors): PyTorch's lu_solve with the forward's
    LU, through its zero pivots (infinities and NaNs, not an error)."""
    if vector:
        grad, result = _col(F, grad), _col(F, result)
    A = _factors_only(F, A)  # (without create_graph: lu_solve with the forward's LU)
    la = _la(F)
    try:
        if F.is_raw and _lu_mkl(A):  # (Note [float32 LU as MKL's]: the forward's LU of A)
            raise _LinAlgError
        if left:
            gB = la.solve(_H(F, A), grad)
        else:
            gB = _H(F, la.solve(A, _H(F, grad)))
    except _SINGULAR:
        a = A._data if isinstance(A, Tensor) else A
        LU, piv, _ = _lu_array(a)
        with np.errstate(all="ignore"):
            gB = (_cj(F, _lu_solve_f(F, LU, piv, True, _cj(F, grad))) if left else
                  _H(F, _lu_solve_f(F, LU, piv, False, _H(F, grad))))
    gA = -F.matmul(gB, _H(F, result)) if left else -F.matmul(_H(F, result), gB)
    return gA, (F.squeeze(gB, -1) if vector else gB)


def _cholesky_backward(F, gL, upper, L):
    """Iain Murray (2016): gA = L^{-H} Phi(L^H gL) L^{-1}, Phi = tril with half diagonal,
    symmetrised."""
    if upper:
        L, gL = _H(F, L), _H(F, gL)
    gA = F.tril(F.matmul(_H(F, L), gL))
    gA = 0.5 * (gA + _H(F, F.tril(gA, -1)))
    la = _la(F)
    gA = la.solve_triangular(_H(F, L), gA, True, True)
    return la.solve_triangular(L, gA, False, False)


def _eigh_backward(F, grads, L, V):
    gL, gV = grads
    if gV is None:
        if gL is None:
            return None
        return F.matmul(V * _row(F, gL), _H(F, V))
    VhgV = F.matmul(_H(F, V), gV)
    if F.is_raw and VhgV.dtype.kind == "c" and not np.all(
            np.abs(np.diagonal(VhgV, 0, -2, -1).imag) <= 1e-2):
        raise RuntimeError(_EIG_GAUGE.replace("linalg_eig_", "linalg_eigh_"))
    VhgV = 0.5 * (VhgV - _H(F, VhgV))  # onto the skew-Hermitian matrices
    E = _diag_one(F, _row(F, L) - _col(F, L))  # E_ij = L_j - L_i, 1 on the diagonal
    ret = VhgV / E
    if gL is not None:
        ret = ret + _diag_embed_f(F, gL)
    return F.matmul(V, F.matmul(ret, _H(F, V)))


def _svd_backward(F, grads, full_matrices, U, S, Vh):
    gU, gS, gVh = grads
    k = S.shape[-1]
    if full_matrices:
        U, Vh = _narrow(F, U, -1, 0, k), _narrow(F, Vh, -2, 0, k)
        if gU is not None:
            gU = _narrow(F, gU, -1, 0, k)
        if gVh is not None:
            gVh = _narrow(F, gVh, -2, 0, k)
    m, n = U.shape[-2], Vh.shape[-1]
    if gU is None and gVh is None:
        if gS is None:
            return None
        return (F.matmul(U, _col(F, gS) * Vh) if m >= n else F.matmul(U * _row(F, gS), Vh))
    S2 = S * S
    E = _diag_one(F, _row(F, S2) - _col(F, S2))
    if gU is not None:
        UhgU = F.matmul(_H(F, U), gU)
        UhgU = UhgU - _H(F, UhgU)
    if gVh is not None:
        VhgV = F.matmul(Vh, _H(F, gVh))
        VhgV = VhgV - _H(F, VhgV)
    cplx = F.is_raw and U.dtype.kind == "c"
    if cplx:  # (PyTorch's check that the loss does not depend on the vectors' phases)
        im_u = np.diagonal(UhgU, 0, -2, -1).imag if gU is not None else np.zeros(S.shape)
        im_v = np.diagonal(VhgV, 0, -2, -1).imag if gVh is not None else np.zeros(S.shape)
        if not np.all(np.abs(im_u + im_v) <= 1e-2 + 1e-2 * np.abs(im_v)):
            raise RuntimeError(_SVD_GAUGE)
    if gU is not None and gVh is not None:
        gA = (UhgU * _row(F, S) + _col(F, S) * VhgV) / E
    elif gU is not None:
        gA = (UhgU / E) * _row(F, S)
    else:
        gA = _col(F, S) * (VhgV / E)
    if gS is not None:
        gA = gA + _diag_embed_f(F, gS)
    if cplx and gU is not None and gVh is not None:
        gA = gA + _diag_embed_f(F, np.diagonal(UhgU, 0, -2, -1) / (2 * S))
    if m > n and gU is not None:
        gA = F.matmul(U, gA)
        gUSinv = gU / _row(F, S)
        gA = gA + gUSinv - F.matmul(U, F.matmul(_H(F, U), gUSinv))
        return F.matmul(gA, Vh)
    if m < n and gVh is not None:
        gA = F.matmul(gA, Vh)
        SinvgVh = gVh / _col(F, S)
        gA = gA + SinvgVh - F.matmul(F.matmul(SinvgVh, _H(F, Vh)), Vh)
        return F.matmul(U, gA)
    return F.matmul(U, F.matmul(gA, Vh)) if m >= n else F.matmul(F.matmul(U, gA), Vh)


def _diag_exact(F, v):
    """diag_embed of v placed exactly (no v * I: an infinite v would make NaNs around)."""
    nd = v.ndim + 1
    return F.diagonal_backward(v, tuple(v.shape) + (v.shape[-1],), 0, nd - 2, nd - 1)


def _svd_jvp(F, dA, full_matrices, U_, S, Vh_):
    """PyTorch's linalg_svd_jvp, term for term (its grouping decides where a huge or
    infinite S makes infinities and NaNs): dP = U^H dA V, dS = Re diag(dP),
    dU = U (sym(dX S) / E) [+ (I - UU^H) dA V S^-1], dVh = -sym(S dX) / E Vh
    [+ S^-1 U^H dA (I - VV^H)], with dX = dP - diag(dS), E_jk = S_k^2 - S_j^2 (1 on the
    diagonal) and the complex case's i Im(diag(dX)) / (2S)."""
    from .complex_ops import cx
    cplx = np.asarray(getattr(dA, "_data", dA)).dtype.kind == "c"
    m, n = dA.shape[-2], dA.shape[-1]
    k = S.shape[-1]
    U = _narrow(F, U_, -1, 0, k) if full_matrices else U_
    Vh = _narrow(F, Vh_, -2, 0, k) if full_matrices else Vh_
    V = _H(F, Vh)
    Uh = _H(F, U)
    dP = F.matmul(Uh, F.matmul(dA, V)) if m < n else F.matmul(F.matmul(Uh, dA), V)
    nd = dP.ndim
    dS = F.diagonal(dP, 0, nd - 2, nd - 1)
    if cplx:
        dS = cx(F).real(dS)
    dP = dP - _diag_exact(F, dS)
    E = _diag_one(F, _row(F, S * S) - _col(F, S * S))

    def sym(X):
        return X + _H(F, X)

    diagdP2S = F.diagonal(dP, 0, nd - 2, nd - 1) / (2 * S) if cplx else None
    dUaux = sym(dP * _row(F, S)) / E
    if cplx:
        dUaux = dUaux + _diag_exact(F, diagdP2S)
    dU = F.matmul(U, dUaux)
    if m > n:
        dAVSinv = F.matmul(dA, V / _row(F, S))
        dU = dU + dAVSinv - F.matmul(U, F.matmul(Uh, dAVSinv))
        if full_matrices:
            dU = F.cat([dU, F.zeros(tuple(dU.shape[:-1]) + (m - n,), dU)], dU.ndim - 1)
    dVhaux = sym(dP * _col(F, -S)) / E
    if cplx:
        dVhaux = dVhaux + _diag_exact(F, diagdP2S)
    dVh = F.matmul(dVhaux, Vh)
    if m < n:
        UHdASinv = F.matmul(Uh / _col(F, S), dA)
        dVh = dVh + UHdASinv - F.matmul(F.matmul(UHdASinv, V), Vh)
        if full_matrices:
            dVh = F.cat([dVh, F.zeros(tuple(dVh.shape[:-2]) + (n - m, n), dVh)], dVh.ndim - 2)
    return dU, dS, dVh


_SVD_GAUGE = ("svd_backward: The singular vectors in the complex case are specified up to "
              "multiplication by e^{i phi}. The specified loss function depends on this phase "
              "term, making it ill-defined.")


def _qr_backward(F, grads, mode, Q, R):
    gQ, gR = grads
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when "
                           "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going "
                           "to differentiate through linalg.qr.")
    m, n = Q.shape[-2], R.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and "
                           "nrows > ncols.")
    if gQ is None and gR is None:
        return None

    def syminvadj(X):
        ret = X + _H(F, X)
        return ret - 0.5 * _diag_embed_f(F, F.diagonal(ret, 0, -2, -1))

    la = _la(F)
    if m >= n:
        gA = None
        if gR is not None:
            gA = F.matmul(gR, _H(F, R))
        if gQ is not None:
            term = F.matmul(_H(F, Q), gQ)
            gA = -term if gA is None else gA - term
        gA = F.matmul(Q, syminvadj(F.triu(gA)))
        if gQ is not None:
            gA = gA + gQ
        return la.solve_triangular(_H(F, R), gA, False, False)
    return _qr_wide(F, Q, R, gQ, gR, m, n)


def _qr_jvp(F, dA, mode, Q, R):
    """PyTorch's linalg_qr_jvp, step for step (where NaN and inf land follows its order):
    m >= n: dA R^-1 = Y, dR = syminv(sym(Q^H Y)), dQ = Y - Q dR, dR = dR R; m < n:
    X = Q^H dA, dQ = triliminv(trilim(X_1 R_1^-1)), dR = X - dQ R, dQ = Q dQ. Complex
    inputs take the transpose of the backward (Note [Linear-algebra formulas])."""
    if R._data.dtype.kind == "c" or mode == "r":
        return _jvp_multi(F, lambda F, g, md, q, r: (_qr_backward(F, g, md, q, r),), (dA,),
                          (Q, R), mode, Q, R)
    m, n = dA.shape[-2], dA.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and "
                           "nrows > ncols.")
    la = _la(F)
    if m >= n:
        Y = la.solve_triangular(R, dA, True, False)
        X = F.matmul(_H(F, Q), Y)
        dR = F.triu(X + _H(F, X))  # (the diagonal halved in place: no NaN * 0 off it)
        dR = F.where(np.eye(n, dtype=bool), dR * 0.5, dR)
        dQ = Y - F.matmul(Q, dR)
        return dQ, F.matmul(dR, R)
    X = F.matmul(_H(F, Q), dA)
    Y = la.solve_triangular(_narrow(F, R, -1, 0, m), _narrow(F, X, -1, 0, m), True, False)
    dQ = F.tril(Y, -1)
    dQ = dQ - _T(F, dQ)
    return F.matmul(Q, dQ), X - F.matmul(dQ, R)


def _qr_wide(F, Q, R, gQ, gR, m, n):
    """m < n, PyTorch's linalg_qr_backward term for term (its nodes under create_graph):
    gA = [Q trilImInvAdjSkew(Q^H gQ - gR R^H) R_1^-H | 0] + Q gR, R_1 = R[..., :m]."""
    from .complex_ops import cx
    gA = None
    if gR is not None:
        gA = F.matmul(gR, _H(F, R))
    if gQ is not None:
        term = F.matmul(_H(F, Q), gQ)
        gA = -term if gA is None else gA - term
    X = -gA
    skew = F.tril(X - _H(F, X))
    if np.asarray(getattr(skew, "_data", skew)).dtype.kind == "c":  # (the diagonal's imaginary
        # part halved)
        d = F.diagonal(skew, 0, -2, -1)
        skew = skew - _diag_embed_f(F, (d - cx(F).conj(d)) * 0.25)
    gA = _la(F).solve_triangular(_H(F, _narrow(F, R, -1, 0, m)), F.matmul(Q, skew), False,
                                 False)
    gA = F.cat([gA, F.zeros_like(_narrow(F, R, -1, m, n - m))], -1)
    if gR is not None:
        gA = gA + F.matmul(Q, gR)
    return gA


def _pinv_backward(F, grad, self, result):
    pinvA, A = result, self
    m, n = A.shape[-2], A.shape[-1]
    pinvAh, gradh = _H(F, pinvA), _H(F, grad)
    if m <= n:
        K = F.matmul(gradh, pinvA)
        KpinvAh = F.matmul(K, pinvAh)
        terms = (-_H(F, F.matmul(pinvA, K)), KpinvAh, F.matmul(F.matmul(A, pinvA), KpinvAh),
                 F.matmul(F.matmul(pinvAh, pinvA), gradh - F.matmul(K, A)))
        signs = (1, -1, 1)
    else:
        K = F.matmul(pinvA, gradh)
        pinvAhK = F.matmul(pinvAh, K)
        terms = (-_H(F, F.matmul(K, pinvA)),
                 F.matmul(F.matmul(gradh - F.matmul(A, K), pinvA), pinvAh), pinvAhK,
                 F.matmul(F.matmul(pinvAhK, pinvA), A))
        signs = (1, 1, -1)
    if F.is_raw and terms[0].__class__ is np.ndarray and terms[0].flags.writeable and all(
            t.__class__ is np.ndarray and t.shape == terms[0].shape and
            t.dtype == terms[0].dtype for t in terms[1:]):
        # (TensorIterator lays the sum out as its first term, the transposed product; NumPy
        # as C order: summed into that fresh term in place, the same roundings, so that a
        # leaf's .grad copies it, version 1, as PyTorch's)
        out = terms[0]
        for sign, t in zip(signs, terms[1:]):
            if sign > 0:
                out += t
            else:
                out -= t
        return out
    out = terms[0]
    for sign, t in zip(signs, terms[1:]):
        out = out + t if sign > 0 else out - t
    return out


def _pinv_jvp(F, A, pinvA, dA):
    """PyTorch's pinv_jvp, term for term (not the backward's transpose: its grouping
    decides where a huge A's products overflow): dAp = -Ap dA Ap + (I - Ap A) dA^H Ap^H Ap
    + Ap Ap^H dA^H (I - A Ap), grouped by the smaller dimension."""
    m, n = A.shape[-2], A.shape[-1]
    dAh, pinvAh = _H(F, dA), _H(F, pinvA)
    if m <= n:
        K = F.matmul(pinvAh, dAh)
        return (F.matmul(pinvA, K - _H(F, K) - F.matmul(K, F.matmul(A, pinvA)))
                + F.matmul(dAh - F.matmul(pinvA, F.matmul(A, dAh)), F.matmul(pinvAh, pinvA)))
    K = F.matmul(pinvA, dA)
    Kh = _H(F, K)
    return (F.matmul(Kh - K - F.matmul(F.matmul(pinvA, A), Kh), pinvA)
            + F.matmul(F.matmul(pinvA, pinvAh), dAh - F.matmul(F.matmul(dAh, A), pinvA)))


def _matrix_exp_backward(F, grad, self):
    """backward_analytic_function_of_a_matrix: the upper-right block of exp([[A^H, G], [0,
    A^H]])."""
    n = self.shape[-1]
    At = _H(F, self)
    meta = F.cat([F.cat([At, grad], -1), F.cat([F.zeros_like(self), At], -1)], -2)
    return _narrow(F, _narrow(F, _la(F).matrix_exp(meta), -2, 0, n), -1, n, n)


def _matrix_exp_jvp(F, self, self_t):
    """PyTorch's linalg_matrix_exp_differential (adjoint=False): the upper-right block of
    exp([[A, E], [0, A]]). Written directly, not as the backward's transpose: that one is
    not linear in its dummy cotangent as written (an exp of a block holding it), so its
    tangent kept that cotangent's requires_grad (the end run's repro 023)."""
    n = self.shape[-1]
    meta = F.cat([F.cat([self, self_t], -1), F.cat([F.zeros_like(self), self], -1)], -2)
    return _narrow(F, _narrow(F, _la(F).matrix_exp(meta), -2, 0, n), -1, n, n)


def _solve_triangular_backward(F, grad, self, other, upper, left, unitriangular, result):
    la = _la(F)
    At = _H(F, self)
    gB = (la.solve_triangular(At, grad, not upper, True, unitriangular) if left else
          la.solve_triangular(At, grad, not upper, False, unitriangular))
    gA = -F.matmul(gB, _H(F, result)) if left else -F.matmul(_H(F, result), gB)
    gA = F.triu(gA, 1 if unitriangular else 0) if upper else F.tril(gA, -1 if unitriangular else 0)
    return gA, gB


def _lstsq_backward(F, grads, self, b, vector, solution):
    """Through the pseudo-inverse (full rank): X = pinv(A) B; residuals r = |AX - B|^2."""
    gX, gr = grads[0], grads[1]
    la = _la(F)
    A, B, X = self, b, solution
    if vector:
        B, X = _col(F, B), _col(F, X)
        if gX is not None:
            gX = _col(F, gX)
    gA = gB = None
    if gX is not None:
        pinvA = la.pinv(A)
        gB = F.matmul(_T(F, pinvA), gX)
        gA = _pinv_backward(F, F.matmul(gX, _T(F, B)), A, pinvA)
    if gr is not None and gr.shape[-1:] != (0,) and gr.ndim + 1 == B.ndim:
        Rs = F.matmul(A, X) - B
        w = _row(F, gr)
        gA2 = 2 * F.matmul(Rs * w, _T(F, X))
        gB2 = -2 * Rs * w
        gA = gA2 if gA is None else gA + gA2
        gB = gB2 if gB is None else gB + gB2
    if vector and gB is not None:
        gB = F.squeeze(gB, -1)
    return gA, gB


def _cross_backward_self(F, grad, other, dim):
    return _la(F).cross(other, grad, dim)


def _cross_backward_other(F, grad, self, dim):
    return _la(F).cross(grad, self, dim)


def _jvp_multi(F, backward, tangents, outs, *saved):
    """Forward-mode rule of a multi-output op from its backward (linear in the output
    gradients): J t = d/du <backward(u), t> (Note [Linear-algebra formulas])."""
    from ..autograd.engine import grad as autograd_grad
    prev = _state.enabled
    _state.enabled = True
    try:
        us = []
        for o in outs:
            if o._data.dtype.kind == "f":
                u = _make(np.zeros_like(o._data))
                u._requires_grad = True
                us.append(u)
            else:
                us.append(None)
        gs = backward(F, tuple(us), *saved)
        if not isinstance(gs, tuple):
            gs = (gs,)
        pairs = [(g, t) for g, t in zip(gs, tangents) if g is not None and t is not None
                 and g._requires_grad]
        live = [u for u in us if u is not None]
        if not pairs:
            return (None,) * len(outs)
        res = autograd_grad(tuple(g for g, _ in pairs), tuple(live),
                            tuple(t for _, t in pairs), create_graph=prev, allow_unused=True)
    finally:
        _state.enabled = prev
    it = iter(res)
    out = []
    for o, u in zip(outs, us):
        if u is None:
            out.append(None)
        else:
            r = next(it)
            out.append(r if r is not None else F.zeros_like(o))
    return tuple(out)


# ---- kernels ------------------------------------------------------------------------------
# Note [matrix_exp as PyTorch's]: aten's mexp (Bader, Blanes, Casas 2019): optimized Taylor
# polynomials of degree 1, 2, 4, 8, 12 chosen per matrix by its 1-norm against thetas of
# the dtype's precision, else degree 18 with scaling and squaring; a 1 x 1 matrix is exp
# (its float32 exp, not the polynomial). Written as PyTorch's steps (each coefficient in
# the dtype, the linear combinations summed from zero in order), so float32 results and
# tangents (exp of [[A, E], [0, A]]) agree with PyTorch's to its rounding, where Higham's
# Pade approximant differed by 1e-5 relative (fuzz end run of stop 28, repro_002).
_MEXP_THETAS = {
    np.float32: (1.192092800768788e-07, 5.978858893805233e-04, 5.116619363445086e-02,
                 5.800524627688768e-01, 1.461661507209034e+00, 3.010066362817634e+00),
    np.float64: (2.220446049250313e-16, 2.580956802971767e-08, 3.397168839976962e-04,
                 4.991228871115323e-02, 2.996158913811580e-01, 1.090863719290036e+00)}
_SQRT_177 = 0.1330413469565007072504e+2
_T8_X3 = 2. / 3.
_T8 = (_T8_X3 * ((1. + _SQRT_177) / 88.), _T8_X3 * ((1. + _SQRT_177) / 352.), _T8_X3,
       (-271. + 29. * _SQRT_177) / (315. * _T8_X3), (-11. + 11. * _SQRT_177) / (1260. * _T8_X3),
       (-99. + 11. * _SQRT_177) / (5040. * _T8_X3), (89. - _SQRT_177) / (5040. * _T8_X3),
       (857. - 58. * _SQRT_177) / 630.)
_T12_B = ((9.0198e-16, 0.46932117595418237389, -0.20099424927047284052,
           -0.04623946134063071740),
          (5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031,
           0.01108844528519167989),
          (0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968,
           0.00610700528898058230),
          (-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079,
           -0.00675951846863086359))
_T18_B = ((0., -1.00365581030144618291e-01, -8.02924648241156932449e-03,
           -8.92138498045729985177e-04, 0.),
          (0., 3.97849749499645077844e-01, 1.36783778460411720168e+00,
           4.98289622525382669416e-01, -6.37898194594723280150e-04),
          (-1.09676396052962061844e+01, 1.68015813878906206114e+00,
           5.71779846478865511061e-02, -6.98210122488052056106e-03,
           3.34975017086070470649e-05),
          (-9.04316832390810593223e-02, -6.76404519071381882256e-02,
           6.75961301770459654925e-02, 2.95552570429315521194e-02,
           -1.39180257516060693404e-05),
          (0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02,
           -1.40086798182036094347e-05))


def _mexp_powers(A, k):
    """aten's _fill_matrix_powers: I, A, A^2, A^3, A^6 (the first k)."""
    eye = np.broadcast_to(np.eye(A.shape[-1], dtype=A.dtype), A.shape)
    out = [eye, A]
    if k > 2:
        out.append(A @ A)
    if k > 3:
        out.append(A @ out[2])
    if k > 4:
        out.append(out[3] @ out[3])
    return out[:k]


def _mexp_comb(As, coeffs):
    """aten's _compute_linear_combination: sum_j c_j As[j] from zero, in order."""
    out = np.zeros_like(As[0])
    for m, c in zip(As, coeffs):
        out = out + m * m.dtype.type(c)
    return out


def _mexp_taylor(A, degree):
    """aten's compute_T1 ... compute_T18 of a batch A."""
    rt = A.real.dtype.type if A.dtype.kind == "c" else A.dtype.type
    if degree == 1:
        I, A1 = _mexp_powers(A, 2)
        return I + A1
    if degree == 2:
        I, A1, A2 = _mexp_powers(A, 3)
        return I + A1 + A2 / rt(2.0)
    if degree == 4:
        As = _mexp_powers(A, 3)
        P = As[2] @ _mexp_comb(As, (1 / 2.0, 1 / 6.0, 1 / 24.0))
        return _mexp_comb(As + [P], (1.0, 1.0, 0.0, 1.0))
    if degree == 8:
        x1, x2, x3, x4, x5, x6, x7, y2 = (rt(v) for v in _T8)
        As = _mexp_powers(A, 3)
        A4 = As[2] @ _mexp_comb(As[1:3], (x1, x2))
        A8 = _mexp_comb([As[2], A4], (x3, 1.0)) @ _mexp_comb(As + [A4], (x4, x5, x6, x7))
        return _mexp_comb(As + [A4, A8], (1.0, 1.0, y2, 0.0, 1.0))
    if degree == 12:
        As = _mexp_powers(A, 4)
        Bs = [_mexp_comb(As, row) for row in _T12_B]
        Bs[2] = Bs[2] + Bs[3] @ Bs[3]
        return Bs[0] + (Bs[1] + Bs[2]) @ Bs[2]
    As = _mexp_powers(A, 5)
    Bs = [_mexp_comb(As, row) for row in _T18_B]
    Bs[3] = Bs[3] + Bs[0] @ Bs[4]
    return Bs[1] + (Bs[2] + Bs[3]) @ Bs[3]


def _matrix_exp_array(a):
    """aten's linalg_matrix_exp (Note [matrix_exp as PyTorch's]), per matrix."""
    n = a.shape[-1]
    if a.size == 0:
        return a.copy()
    if n == 1:
        return np.asarray(raw.exp(a)).astype(a.dtype, copy=False)
    single = a.dtype in (np.float32, np.complex64)
    thetas = _MEXP_THETAS[np.float32 if single else np.float64]
    rt = np.float32 if single else np.float64
    flat = a.reshape((-1, n, n))
    norm = np.abs(flat).sum(-2).max(-1).astype(rt)  # (operator 1-norm)
    res = np.empty(flat.shape, flat.dtype)  # (contiguous, whatever the input's layout)
    lower = rt(-1)
    for degree, theta in zip((1, 2, 4, 8, 12), thetas[:5]):
        idx = np.nonzero((lower < norm) & (norm <= rt(theta)))[0]
        if idx.size:
            res[idx] = _mexp_taylor(flat[idx], degree)
        lower = rt(theta)
    # (degree 18, scaled by 2^s, then squared s times; a NaN norm too: NaN results, as
    # PyTorch's, which leaves no entry unwritten)
    idx = np.nonzero((norm >= rt(thetas[4])) | np.isnan(norm))[0]
    if idx.size:
        with np.errstate(divide="ignore", invalid="ignore"):
            s = np.ceil(np.log2(norm[idx] / rt(thetas[5])))
        s = np.where(np.isfinite(s), np.maximum(s, 0), 0).astype(np.int64)
        scaled = flat[idx] / np.power(2.0, s).astype(rt)[:, None, None]
        out = _mexp_taylor(scaled, 18)
        for k, sk in enumerate(s):
            m = out[k]
            for _ in range(int(sk)):
                m = m @ m
            out[k] = m
        res[idx] = out
    return res.reshape(a.shape)


def _pinv_array(a, atol=None, rtol=None, hermitian=False):
    m, n = a.shape[-2], a.shape[-1]
    if a.size == 0:
        return np.zeros(a.shape[:-2] + (n, m), a.dtype)
    if hermitian:
        w, V = _eigh_np(a)
        s = np.abs(w)
    else:
        U, s, Vh = _svd_np(a, full_matrices=False)
    smax = s.max(-1, keepdims=True)
    if rtol is None:
        rtol = np.finfo(a.dtype).eps * max(m, n) if atol is None or atol == 0 else 0.0
    tol = np.maximum(0.0 if atol is None else atol, rtol * smax)
    keep = s > tol
    if hermitian:
        winv = np.where(keep, 1 / np.where(keep, w, 1), 0).astype(a.dtype)
        return (V * winv[..., None, :]) @ _mH_arr(V)
    sinv = np.where(keep, 1 / np.where(keep, s, 1), 0).astype(a.dtype)
    return _mH_arr(Vh) @ (sinv[..., :, None] * _mH_arr(U))


def _trace_backward(F, grad, self_sizes):
    """PyTorch's trace_backward: grad index_fill'ed (IndexFillBackward1) on the diagonal of
    zeros(n * m), viewed as (n, m)."""
    if F.is_raw:  # (a view of the flat zeros, as PyTorch's: Note [Gradients that are views])
        out = np.zeros(self_sizes[0] * self_sizes[1], grad.dtype).reshape(self_sizes)
        np.fill_diagonal(out, grad)
        return out
    from .indexing import index_fill
    n, m = self_sizes
    diag = _make(np.arange(min(n, m), dtype=np.int64) * (m + 1))  # (the diagonal only: a
    # tall matrix's arange(0, n * m, m + 1) runs past it)
    filled = index_fill(F.zeros((n * m,), grad), 0, diag, grad)
    filled._vc[0] = 2  # (zeros' zero_ and index_fill_: the view shares version 2)
    return F.view(filled, tuple(self_sizes))


# ---- table entries ------------------------------------------------------------------------
def _trace_kernel(a):
    """np.trace; float16/bfloat16 as aten's trace_cpu: the diagonal summed in order in its
    acc_type (float), rounded once (NumPy's rounds every sum to the half type: 3 of 4 8 x 8
    bfloat16 traces differed)."""
    acc = _TRACE_ACC.get(a.dtype.name) or (np.float32 if a.itemsize == 2 and
                                           a.dtype.kind in "fV" else None)
    if acc is not None:  # (float32 in double, as float16 in float: CPU's acc_type)
        d = np.diagonal(a).astype(acc)
        s = np.cumsum(d)[-1] + acc(0) if d.size else acc(0)
        return raw.asarray(np.asarray(s).astype(a.dtype))
    return raw.asarray(np.trace(a))


_TRACE_ACC = {"float32": np.float64, "float64": np.float64, "complex64": np.complex128,
              "complex128": np.complex128}


TRACE = defop("trace", "TraceBackward0", _trace_kernel,
              grads={"self": _trace_backward},
              jvp="linear")
VDOT = defop("vdot", "VdotBackward0", lambda a, b: raw.asarray(np.vdot(a, b)),
             inputs=("self", "other"),
             grads={"self": lambda F, grad, other: _cj(F, grad) * other,
                    "other": lambda F, grad, self: grad * self},
             jvp=lambda F, self, self_t, other, other_t:
                 _bilinear(F, _vdot_t, self, self_t, other, other_t),
             complex_aware=True)  # (conj(self) . other: PyTorch's formulas, as written)


def _vdot_t(a, b):
    return vdot(a, b)


def _scaled(F, x, s):
    return x if s == 1 else x * s


def _addmv_jvp(F, self_t, mat, mat_t, vec, vec_t, beta, alpha):
    return _bilinear(F, F.matmul, mat, mat_t, vec, vec_t, dense=True, alpha=alpha,
                     zero_terms=self_t is not None, first=_beta_term(F, self_t, beta))


def _outer_f(F, a, b):
    return _col(F, a) * _row(F, b)


def _addr_jvp(F, self_t, vec1, vec1_t, vec2, vec2_t, beta, alpha):
    return _bilinear(F, lambda a, b: _outer_f(F, a, b), vec1, vec1_t, vec2, vec2_t,
                     alpha=alpha, first=_beta_term(F, self_t, beta))


def _baddbmm_jvp(F, self_t, batch1, batch1_t, batch2, batch2_t, beta, alpha, summed=False):
    return _bilinear(F, F.matmul, batch1, batch1_t, batch2, batch2_t, dense=True, alpha=alpha,
                     summed=summed, zero_terms=self_t is not None,
                     first=_beta_term(F, self_t, beta))


def _addmv(s, m, v, beta, alpha, half=False):
    """beta * self + alpha * (m @ v): gemv sums from beta * self (+0.0 when beta is 0), so a
    -0.0 of self stays only where every term is -0.0 (Note [Signed zeros of matrix
    products] in raw.py); float16/bfloat16: Note [Half gemm and gemv]."""
    if half:
        return _gemv_half(s, m, v, beta, alpha, half)
    if alpha == 0:
        return np.zeros(s.shape[:0] + (m.shape[0],), s.dtype) if beta == 0 else \
            np.array(np.broadcast_to(s if beta == 1 else beta * s, (m.shape[0],)), s.dtype)
    out = _axpby(s, m @ v, beta, alpha)
    if out.dtype.kind == "f":
        if beta == 0:
            out = out + 0.0
        else:
            _negative_zero_sums(out, s if beta == 1 else beta * s, lambda i: m[i, :] * v, alpha,
                               scaled_sum=True)
    return out


def _gemv_half(s, m, v, beta, alpha, branch):
    """Note [Half gemm and gemv]: addmv_impl_cpu's gemv of a float16/bfloat16 ``m`` (given
    in float32 for float16): 't' (a row-major m) sums each row from +0.0, then ``alpha *
    sum`` or ``beta * y + alpha * sum``; 'n' (a column-major m, or a single column) scales y
    by beta in the dtype first (scal), sums ``(alpha * x[j]) * column_j`` over j from +0.0
    in float, then y + sum."""
    d = np.dtype(np.float16) if s.dtype == np.float32 else s.dtype
    beta, alpha = (float(np.array(x, d)) for x in (beta, alpha))  # (read as scalar_t)
    if branch != "n":
        return _axpby(s, m @ v + 0.0, beta, alpha)
    total = np.zeros(m.shape[0], np.float32)
    z = v.astype(np.float32) * np.float32(alpha)
    cols = m.astype(np.float32)
    for j in range(m.shape[1]):
        total += z[j] * cols[:, j]
    if beta == 0:
        return total.astype(s.dtype)
    y = np.broadcast_to(s, total.shape)
    if beta != 1:
        y = (y.astype(np.float32) * np.float32(beta)).astype(d)
    return (y.astype(np.float32) + total).astype(s.dtype)


ADDMV = defop("addmv", "AddmvBackward0", _fused_f16(_addmv),
              inputs=("self", "mat", "vec"), params=("beta", "alpha"),
              grads={"self": lambda F, grad, beta: _scaled(F, grad, beta),
                     "mat": lambda F, grad, vec, alpha:
                         _scaled(F, _outer_f(F, grad, _cj(F, vec)), alpha),
                     "vec": lambda F, grad, mat, alpha:
                         _scaled(F, F.matmul(F.t(_cj(F, mat)), grad), alpha)},
              jvp=_addmv_jvp)
ADDR = defop("addr", "AddrBackward0",
             lambda s, a, b, beta, alpha: _addr(s, a, b, beta, alpha),
             inputs=("self", "vec1", "vec2"), params=("beta", "alpha"), layout=layout.addr,
             grads={"self": lambda F, grad, beta: _scaled(F, grad, beta),
                    "vec1": lambda F, grad, vec2, alpha:
                        _scaled(F, _mv_of(F, grad, _cj(F, vec2)), alpha),
                    "vec2": lambda F, grad, vec1, alpha:
                        _scaled(F, _mv_of(F, F.t(grad), _cj(F, vec1)), alpha)},
             jvp=_addr_jvp)
# (maybe_multiply(self_t, beta) + maybe_multiply(vec1_t.outer(vec2_p), alpha) + ...: a missing
# vector tangent is a zero tensor of its primal's dtype, whose term promotes the sum; ours
# skips the term without grad mode: dispatch._tangent_dtype)
ADDR.promotes_tangent = True


def _mv_of(F, m, v):
    """PyTorch's ``m.mv(v)`` in a formula: its dtype check included (addr's gradient of a
    promoted product refuses, as PyTorch's does)."""
    dm, dv = (getattr(x, "_data", x).dtype for x in (m, v))
    if dm != dv:
        names = [_dtypes.scalar_name(_dtypes.from_numpy(x)) for x in (dv, dm, dv)]
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                           f"{names[0]}, {names[1]}, and {names[2]}")
    return F.matmul(m, v)
BADDBMM = defop("baddbmm", "BaddbmmBackward0",
                _fused_f16(lambda s, a, b, beta, alpha, half: _baddbmm(s, a, b, beta, alpha,
                                                                       half)),
                inputs=("self", "batch1", "batch2"), params=("beta", "alpha"),
                grads={"self": lambda F, grad, beta: _scaled(F, grad, beta),
                       "batch1": lambda F, grad, batch2, alpha:
                           _scaled(F, F.matmul(grad, _T(F, _cj(F, batch2))), alpha),
                       "batch2": lambda F, grad, batch1, alpha:
                           _scaled(F, F.matmul(_T(F, _cj(F, batch1)), grad), alpha)},
                jvp=lambda F, self_t, batch1, batch1_t, batch2, batch2_t, beta, alpha:
                    _baddbmm_jvp(F, self_t, batch1, batch1_t, batch2, batch2_t, beta, alpha))
ADDBMM = defop("addbmm", "AddbmmBackward0",
               lambda s, a, b, beta, alpha: _addbmm(s, a, b, beta, alpha),
               inputs=("self", "batch1", "batch2"), params=("beta", "alpha"),
               grads={"self": lambda F, grad, beta: _scaled(F, grad, beta),
                      "batch1": lambda F, grad, batch2, alpha: _scaled(
                          F, F.matmul(F.unsqueeze(grad, 0), _T(F, _cj(F, batch2))), alpha),
                      "batch2": lambda F, grad, batch1, alpha: _scaled(
                          F, F.matmul(_T(F, _cj(F, batch1)), F.unsqueeze(grad, 0)), alpha)},
               jvp=lambda F, self_t, batch1, batch1_t, batch2, batch2_t, beta, alpha:
                   _baddbmm_jvp(F, self_t, batch1, batch1_t, batch2, batch2_t, beta, alpha,
                                summed=True))


# (Note [Missing self tangent in place] in forward_ad.py: maybe_multiply(self_t, beta) + ...)
for _op in (ADDMM, ADDMV, ADDR, BADDBMM, ADDBMM):
    _op.dense_self_in_place = True


def _addr(s, a, b, beta, alpha):
    """PyTorch's addr_kernel: beta * self + (alpha * vec1) * vec2, each operation in the
    dtype (float16/bfloat16 round after each, as c10::Half arithmetic does)."""
    prod = np.multiply.outer(a * alpha if alpha != 1 else a, b)
    if beta == 0:
        return raw.asarray(prod).astype(s.dtype, copy=False)
    out = raw.asarray((s if beta == 1 else s * beta) + prod)
    return out if out.dtype == s.dtype else out.astype(s.dtype)


def _baddbmm(s, a, b, beta, alpha, half):
    """float16/bfloat16 (float16 given in float32): baddbmm_cpu_kernel's float sums (Note
    [Small bmm]) and ``self * beta + alpha * sum`` in float, rounded once."""
    if not half:
        return _axpby(s, np.matmul(a, b), beta, alpha)
    a, b = a.astype(np.float32, copy=False), b.astype(np.float32, copy=False)
    small = a.shape[1] * a.shape[2] * b.shape[2] < 400
    prod = raw._small_bmm(a, b) if small else np.matmul(a, b)
    return _axpby(s.astype(np.float32, copy=False), prod, beta, alpha).astype(s.dtype)


def _addbmm(s, a, b, beta, alpha):
    """PyTorch's addbmm_impl_: one addmm_ per batch into the result (beta for the first
    only), so the result is rounded to its dtype after each batch's product."""
    if not a.shape[0]:
        return _axpby(s, np.zeros_like(s), beta, alpha)
    out = s
    for i in range(a.shape[0]):
        out = _addmm(out, a[i], b[i], beta if i == 0 else 1, alpha)
    return out


def _axpby(s, prod, beta, alpha):
    """beta * self + alpha * prod, as PyTorch: beta == 0 ignores self (nan and inf too)."""
    if alpha != 1:
        prod = prod * alpha
    if beta == 0:  # (bfloat16: a float32 product, rounded once)
        return raw.asarray(prod).astype(s.dtype, copy=False)
    out = raw.asarray(prod + (s if beta == 1 else s * beta))
    return out if out.dtype == s.dtype else out.astype(s.dtype)


# Note [Determinants of singular matrices]: PyTorch's _linalg_det / _linalg_slogdet factor
# A^T when A is contiguous and real (det(A^T) = det(A); lu_factor wants column-major), else
# A, and read the LU: det = sign(P) * prod(diag(U)) (a singular matrix's zero has that
# sign: -0.0 after an odd permutation), slogdet's sign = sign(P) * prod(sgn(diag(U))). Their
# forward rules solve with that LU (adjoint for A^T): linalg_det_jvp with its zero pivots
# replaced by eps ("the determinant is C^1": a value, not the solver's error), slogdet_jvp
# and solve's jvp as it is (getrs's infinities and NaNs). An invertible matrix keeps the
# fast paths (NumPy's gesv / det); only a singular one (a zero result, the solver's error)
# takes these.
def _det_lu(A):
    """(LU, pivots, whether of A^T) as PyTorch's det and slogdet factor A."""
    a = A._data
    use_t = a.dtype.kind != "c" and A.is_contiguous()
    LU, piv, _ = _lu_array(np.swapaxes(a, -1, -2) if use_t else a)
    return LU, piv, use_t


def _lu_perm_odd(piv):
    return (piv != np.arange(1, piv.shape[-1] + 1, dtype=piv.dtype)).sum(-1) % 2 == 1


def _det_jvp(F, A, A_t, result):
    """PyTorch's linalg_det_jvp: det * tr(A^-1 A_t) (Note [Determinants of singular
    matrices]; Note [float32 LU as MKL's]: the forward's LU itself). An empty float16/
    bfloat16 A (the only half one det computes) reaches lu_solve's kernel, which refuses."""
    if A._data.dtype.itemsize == 2 and A._data.dtype.kind in "fV":
        raise RuntimeError("This function doesn't handle types other than float and double")
    if _finite(A._data) and not _lu_mkl(A._data):
        try:
            return result * _btrace(F, _la(F).solve(A, A_t))
        except _LinAlgError:  # (singular)
            pass
    return result * _btrace(F, _lu_solve_f(F, *_det_lu(A), A_t, eps=True))


def _finite(a):
    """No infinity or NaN (a complex array's are left to NumPy's paths)."""
    return a.dtype.kind != "f" or bool(np.isfinite(a).all())


def _getrs_array(LU, piv, b, left=True):
    """A^-1 b (``left``) or b A^-1 from A's getrf factors, as getrs (trans "N", or "T" on
    b^T for the right side): P^T, then the triangular substitutions, which a zero pivot
    turns into infinities and NaNs (no error)."""
    if _lu_mkl(LU) and b.dtype == LU.dtype:  # (Note [float32 LU as MKL's])
        if left:
            return _getrs_steps(LU, piv, b)
        return np.swapaxes(_getrs_steps(LU, piv, np.swapaxes(b, -1, -2), True), -1, -2)
    P, L, U = _unpack_arrays(LU, piv)
    with np.errstate(all="ignore"):
        if left:
            return _solve_tri_array(U, _solve_tri_array(L, _swap_rows(raw.RAW, P, b, True), False,
                                                        True, True), True, True)
        y = _solve_tri_array(np.swapaxes(U, -1, -2), np.swapaxes(b, -1, -2), False, True)
        y = _solve_tri_array(np.swapaxes(L, -1, -2), y, True, True, True)
        return np.swapaxes(_swap_rows(raw.RAW, P, y), -1, -2)


def _swap_rows(F, P, x, transpose=False):
    """P x (``transpose``: P^T x) for a permutation matrix P as getrs applies it, by row
    interchanges: a product would add 0 * inf = NaN from the other rows."""
    idx = np.argmax(P, -2 if transpose else -1)[..., None]
    if idx.shape[:-2] != tuple(x.shape[:-2]):
        return F.matmul(F.constant(np.swapaxes(P, -1, -2) if transpose else P, x), x)
    idx = np.broadcast_to(idx, tuple(x.shape)).astype(np.int64)
    return F.gather(x, -2, idx if F.is_raw else _make(np.ascontiguousarray(idx)))


def _lu_solve_f(F, LU, piv, transposed, b, eps=False):
    """A^-1 b in the formula namespace on b (the factors are constants, as PyTorch's
    non-differentiable LU output), from the LU of A (``transposed``: of A^T, solved as
    its transpose); ``eps``: zero pivots replaced by the dtype's eps (linalg_det_jvp)."""
    if eps:
        d = np.diagonal(LU, 0, -2, -1)
        fix = np.where(d == 0, np.finfo(d.real.dtype).eps, 0).astype(LU.dtype)
        LU = LU + fix[..., :, None] * np.eye(LU.shape[-1], dtype=LU.dtype)
    if F.is_raw and _lu_mkl(LU) and getattr(b, "dtype", None) == LU.dtype:
        return _getrs_steps(LU, piv, b, transposed)  # (Note [float32 LU as MKL's])
    P, L, U = _unpack_arrays(LU, piv)
    la = _la(F)
    if transposed:  # A = U^T L^T P^T
        y = la.solve_triangular(F.constant(np.swapaxes(U, -1, -2), b), b, False, True)
        y = la.solve_triangular(F.constant(np.swapaxes(L, -1, -2), b), y, True, True, True)
        return _swap_rows(F, P, y)
    y = _swap_rows(F, P, b, True)  # (P real: P^T b)
    y = la.solve_triangular(F.constant(L, b), y, False, True, True)
    return la.solve_triangular(F.constant(U, b), y, True, True)


DET = defop("linalg_det", "LinalgDetBackward0", None,
            grads={"A": _det_backward}, inputs=("A",), jvp=_det_jvp)
SLOGDET = defop("_linalg_slogdet", "LinalgSlogdetBackward0", None, inputs=("A",),
                outputs=("sign", "logabsdet"),
                grads={"A": lambda F, grads, A, sign: _slogdet_backward(F, grads, A, sign)},
                # PyTorch's slogdet_jvp solves with the forward's LU factors (outputs
                # without a graph): the tangent reads A_t only, never A's history
                jvp=lambda F, A, A_t, sign, logabsdet: _slogdet_jvp(F, A, A_t, sign))


def _slogdet_jvp(F, A, A_t, sign):
    """PyTorch's slogdet_jvp: tr(A^-1 A_t) = t; (i imag(t) sign, real(t)) for complex A."""
    t = None
    if _finite(A._data) and not _lu_mkl(A._data):  # (Note [float32 LU as MKL's])
        try:
            t = _btrace(F, _la(F).solve(A.detach(), A_t))
        except _LinAlgError:  # (singular: Note [Determinants of singular matrices])
            pass
    if t is None:  # (singular or non-finite: getrf's factors and getrs's substitutions)
        t = _btrace(F, _lu_solve_f(F, *_det_lu(A), A_t))
    if sign._data.dtype.kind == "c":
        re = F.cast(t, np.finfo(sign._data.dtype).dtype)
        return sign * (t - re), re
    return F.zeros_like(sign), t
INV_EX = defop("linalg_inv_ex", "LinalgInvExBackward0", None, inputs=("A",),
               outputs=("inverse", "info"), diff_outputs=(0,), layout=_LAPACK_INFO,
               grads={"A": lambda F, grads, inverse: -F.matmul(
                   _H(F, inverse), F.matmul(grads[0], _H(F, inverse)))},
               jvp=lambda F, A_t, inverse: (-F.matmul(F.matmul(inverse, A_t), inverse), None))
SOLVE_EX = defop("_linalg_solve_ex", "LinalgSolveExBackward0", None, inputs=("A", "B"),
                 params=("left", "vector"), outputs=("result", "info"), diff_outputs=(0,),
                 layout=(layout.column_major_if(0), "contiguous"),
                 backward_all=lambda F, grads, A, result, left, vector:
                     _solve_backward(F, grads[0], A, result, left, vector),
                 jvp=lambda F, A, A_t, B_t, left, vector, result:
                     (_solve_jvp(F, A, A_t, B_t, left, vector, result), None))


def _solve_jvp(F, A, A_t, B_t, left, vector, result):
    """X_t = A^{-1} (B_t - A_t X) (left) or (B_t - X A_t) A^{-1}."""
    X = _col(F, result) if vector else result
    if B_t is not None and vector:
        B_t = _col(F, B_t)
    rhs = B_t
    if A_t is not None:
        term = F.matmul(A_t, X) if left else F.matmul(X, A_t)
        rhs = -term if rhs is None else rhs - term
    la = _la(F)
    try:
        if _lu_mkl(A._data):  # (Note [float32 LU as MKL's]: the forward's LU of A)
            raise _LinAlgError
        out = la.solve(A, rhs) if left else _T(F, la.solve(_T(F, A), _T(F, rhs)))
    except _LinAlgError:  # (singular: PyTorch's lu_solve with the forward's LU, no check)
        LU, piv, _ = _lu_array(A._data)
        out = _lu_solve_f(F, LU, piv, False, rhs) if left else \
            _T(F, _lu_solve_f(F, LU, piv, True, _T(F, rhs)))
    return F.squeeze(out, -1) if vector else out
CHOLESKY_EX = defop("linalg_cholesky_ex", "LinalgCholeskyExBackward0", None,
                    params=("upper",), outputs=("L", "info"), diff_outputs=(0,),
                    layout=_LAPACK_INFO,
                    grads={"self": lambda F, grads, upper, L:
                           _cholesky_backward(F, grads[0], upper, L)},
                    jvp="transpose")
CHOLESKY = defop("cholesky", "CholeskyBackward0", None, params=("upper",),
                 layout="column_major",
                 grads={"self": lambda F, grad, upper, result:
                        _cholesky_backward(F, grad, upper, result)},
                 jvp=_fw_not_implemented("cholesky", _FW_NOT_SUPPORTED.split(
                     "does not support it", 1)[1]))
EIGH = defop("_linalg_eigh", "LinalgEighBackward0", None, inputs=("A",), params=("UPLO",),
             outputs=("eigenvalues", "eigenvectors"), layout=("contiguous", "column_major"),
             grads={"A": lambda F, grads, eigenvalues, eigenvectors:
                    _eigh_backward(F, grads, eigenvalues, eigenvectors)},
             jvp=lambda F, A_t, eigenvalues, eigenvectors: _jvp_multi(
                 F, lambda F, g, L, V: (_eigh_backward(F, g, L, V),), (A_t,),
                 (eigenvalues, eigenvectors), eigenvalues, eigenvectors))
SVD = defop("_linalg_svd", "LinalgSvdBackward0", None, inputs=("A",),
            params=("full_matrices",), outputs=("U", "S", "Vh"),
            layout=("column_major", "contiguous", "column_major"),
            grads={"A": lambda F, grads, full_matrices, U, S, Vh:
                   _svd_backward(F, grads, full_matrices, U, S, Vh)},
            jvp=lambda F, A_t, full_matrices, U, S, Vh: _svd_jvp(
                F, A_t, full_matrices, U, S, Vh))
QR = defop("linalg_qr", "LinalgQrBackward0", None, inputs=("A",), params=("mode",),
           outputs=("Q", "R"), layout="column_major",
           grads={"A": lambda F, grads, mode, Q, R: _qr_backward(F, grads, mode, Q, R)},
           jvp=lambda F, A_t, mode, Q, R: _qr_jvp(F, A_t, mode, Q, R))
PINV = defop("linalg_pinv", "LinalgPinvBackward0", None, params=("atol", "rtol", "hermitian"),
             grads={"self": _pinv_backward},
             jvp=lambda F, self, self_t, result: _pinv_jvp(F, self, result, self_t))
MATRIX_EXP = defop("linalg_matrix_exp", "LinalgMatrixExpBackward0", None,
                   grads={"self": _matrix_exp_backward},
                   jvp=lambda F, self, self_t: _matrix_exp_jvp(F, self, self_t))
SOLVE_TRIANGULAR = defop(
    "linalg_solve_triangular", "LinalgSolveTriangularBackward0", None, inputs=("self", "B"),
    params=("upper", "left", "unitriangular"), layout="column_major",
    backward_all=lambda F, grad, self, B, upper, left, unitriangular, result:
        _solve_triangular_backward(F, grad, self, B, upper, left, unitriangular, result),
    jvp=lambda F, self, self_t, B_t, upper, left, unitriangular, result:
        _solve_triangular_jvp(F, self, self_t, B_t, upper, left, unitriangular, result))


def _solve_triangular_jvp(F, A, A_t, B_t, upper, left, unitriangular, X):
    """X_t = A^{-1} (B_t - A_t X) (left) or (B_t - X A_t) A^{-1}, A_t the triangle read."""
    rhs = B_t
    if A_t is not None:
        k = (1 if unitriangular else 0) if upper else (-1 if unitriangular else 0)
        A_t = F.triu(A_t, k) if upper else F.tril(A_t, k)
        term = F.matmul(A_t, X) if left else F.matmul(X, A_t)
        rhs = -term if rhs is None else rhs - term
    return _la(F).solve_triangular(A, rhs, upper, left, unitriangular)
LSTSQ = defop("linalg_lstsq", "LinalgLstsqBackward0", None, inputs=("self", "b"),
              params=("vector",), outputs=("solution", "residuals", "rank", "singular_values"),
              diff_outputs=(0, 1),
              layout=(layout.lstsq_solution, "contiguous", "contiguous", "contiguous"),
              backward_all=lambda F, grads, self, b, vector, solution:
                  _lstsq_backward(F, grads, self, b, vector, solution),
              jvp=lambda F, self, self_t, b, b_t, vector, solution, residuals: _lstsq_jvp(
                  F, self, self_t, b, b_t, vector, solution, residuals))


def _lstsq_jvp(F, self, self_t, b, b_t, vector, solution, residuals):
    # (PyTorch's rule multiplies A_t with a primal factor, tangent first when the residuals
    # are computed (m > n, full rank, a driver other than gelsy), else the factor first; B_t
    # the factor first: Note [Linear algebra's tangents of another dtype])
    _refuses_mixed(tangent_first=residuals._data.size > 0, which=(0,))((self, b), (self_t, b_t))
    _refuses_mixed(which=(1,))((self, b), (self_t, b_t))
    return _jvp_multi(F, lambda F, g, A, B, vec, X: _lstsq_backward(F, g, A, B, vec, X),
                      (self_t, b_t), (solution, residuals), self, b, vector, solution) + \
        (None, None)
CROSS = defop("linalg_cross", "LinalgCrossBackward0", lambda a, b, dim: np.cross(a, b, axis=dim),
              inputs=("self", "other"), params=("dim",), layout="contiguous",
              grads={"self": _cross_backward_self, "other": _cross_backward_other},
              jvp=lambda F, self, self_t, other, other_t, dim: _bilinear(
                  F, lambda a, b: _la(F).cross(a, b, dim), self, self_t, other, other_t))


# ---- argument checks (PyTorch's wording) ---------------------------------------------------
class _LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError: a RuntimeError raised when a decomposition fails."""


_LinAlgError.__module__ = "torch._C"
_SINGULAR = (_LinAlgError, np.linalg.LinAlgError)  # (the formulas' inv/solve: tensor or raw)


def _type_name(a):
    return _dtypes.scalar_name(_dtypes.from_numpy(a.dtype))


# Note [Which check refuses a dtype]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's linear algebra refuses a dtype in one of three places, and the error says which:
# the op's checkFloatingOrComplex (RuntimeError "linalg.inv: Expected a floating point or
# complex tensor as input. Got Long"; its low_precision flag then says "Low precision dtypes
# not supported" for float16/bfloat16); or nothing before the kernel, whose dispatch macro
# refuses every dtype it was not compiled for (NotImplementedError "\"cholesky_cpu\" not
# implemented for 'Long'": torch.cholesky, eigh/eigvalsh, solve_triangular, triangular_solve,
# cholesky_solve, cholesky_inverse, lu); or an op's own words (lstsq, matrix_rank: "This
# function doesn't handle types other than float and double"). ``_check_float``'s ``ints``
# selects the kernel's refusal for integer and bool inputs too; its ``kernel=None`` the
# op's own low-precision words, ``low_precision=True`` lets float16/bfloat16 through.
# A kernel's refusal needs the kernel to run: linalg_svd, linalg_eigh, linalg_cholesky_ex,
# lu_factor (det, linalg.lu, lu_unpack's input) and ldl_factor return an empty input's
# results before their kernel is called, so an empty input of any dtype the op's own
# checks let through is computed there (``empty_ok``); geqrf, cholesky_inverse,
# triangular_solve and the others call their kernel for empty inputs too.
def _check_float(name, a, what="input", kernel="lu_cpu", ints=False, low_precision=False,
                 empty_ok=False):
    """Floating input; float16/bfloat16 raise as PyTorch's kernel does (``kernel=None``:
    the op's own low-precision check). Note [Which check refuses a dtype]."""
    if empty_ok and a.size == 0 and (ints or a.dtype.kind in "fcV") and kernel is not None:
        return
    if a.dtype.kind not in "fcV":
        if ints:
            raise NotImplementedError(f"\"{kernel}\" not implemented for '{_type_name(a)}'")
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as {what}. "
                           f"Got {_type_name(a)}")
    if a.dtype.itemsize < 4 and not low_precision:
        if kernel is None:
            raise RuntimeError(f"{name}: Low precision dtypes not supported. Got "
                               f"{_type_name(a)}")
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_type_name(a)}'")


def _no_complex_grad(name, *tensors):
    """Recording a gradient for a complex input of an op whose formula is not complex-aware
    yet raises, rather than give a wrong gradient."""
    if _state.enabled or _state.fw:
        for t in tensors:
            if isinstance(t, Tensor) and t._data.dtype.kind == "c" and (
                    t.requires_grad or _state.fw):
                raise NotImplementedError(f"{name}: gradients of complex inputs are not "
                                          "supported by autotensor's linear algebra yet")


def _real_dtype(dt):
    return np.finfo(dt).dtype if dt.kind == "c" else dt


def _mH_arr(x):
    """Conjugate transpose of an array (a plain transpose for real ones: no copy)."""
    x = np.swapaxes(x, -1, -2)
    return np.conj(x) if x.dtype.kind == "c" else x


def _check_matrix(name, a, what="A"):
    if a.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor {what} must have at least 2 dimensions.")


def _check_square(name, a, what="A"):
    _check_matrix(name, a, what)
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"{name}: {what} must be batches of square matrices, but they are "
                           f"{a.shape[-2]} by {a.shape[-1]} matrices")


def _square_float(name, A, kernel="lu_cpu", ints=False, empty_ok=False):
    a = A._data
    _check_square(name, a)
    _check_float(name, a, kernel=kernel, ints=ints, empty_ok=empty_ok)
    return a


def _batch_prefix(a, i):
    return f"(Batch element {i}): " if a.ndim > 2 else ""


# Note [float32 LU as MKL's]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's float32 det, slogdet, inv and solve factor in float32 (MKL's sgetrf, then
# sgetrs), where NumPy's np.linalg computes float32 in double and rounds: a result read off
# rounding residues (a singular or ill-conditioned matrix: the rank-1 outer(v, v), whose last
# pivot is such a residue, has an inverse of entries ~2.5e7 in PyTorch, 1.8e7 in NumPy; a
# singular det is 0.0 in PyTorch, -9.8e-17 in NumPy, and its tangent's zero takes that
# sign) differs by orders of magnitude, and an ordinary one by kappa * eps(float32). For
# matrices up to 16 x 16 MKL's sgetrf takes the unblocked steps of LAPACK's sgetf2, which
# are reproduced here exactly (measured: every LU of 100 random, rank-deficient and
# ill-conditioned matrices each of 2..16 x 2..16, square and rectangular, bit for bit): the
# pivot column scaled by the reciprocal of the pivot (1 / p rounded, then products), except
# in square matrices up to 4 x 4, whose next-to-last column (one entry) is divided by it;
# the trailing update a - l u one fused multiply-add per entry (a float64 product of two
# floats is exact: one rounding in double, then to float, the same except in double
# rounding's ~2^-29 of cases). getrs's substitutions are LAPACK's trsm (column by column,
# fused), with the reciprocal of U's pivots up to 4 x 4 and a division above: the inverse
# agrees with PyTorch's to float32 tolerance on 119 of 120 such 3..6 x 3..6 matrices (NumPy's
# double route: 20-29 of 60), bit for bit on all 2 x 2 and 8 x 8 ones; the transposed
# substitutions (X A = B, A^-T in the backward) are trsm's dot products, not MKL's bit for
# bit from 3 x 3 on (its kernel's order not found). A differential sweep of det, slogdet,
# logdet, inv, solve (left, right, vector), lu_factor and matrix_power(-2) of random,
# rank-deficient, rank-1 and ill-conditioned float32 matrices 1..17 (and batches), 4,032
# cases: values agree in 3,756 (2,563 before), tangents in 3,717 (2,415), gradients in 3,696
# (2,275); the rest mostly 17 x 17 and rank-1 gradients. Larger matrices go through
# MKL's blocked sgetrf (its order of operations not reproduced: none of 60 17 x 17 LUs
# agreed), and keep NumPy's double route. MKL picks its kernels by the CPU: the fused
# updates above are its Intel path; on an AMD EPYC (AVX-512, stop 33) every update is a
# product rounded to float, then the sum (the same rule otherwise: every LU of 200 random
# matrices of each of 10 shapes 2 x 2..16 x 16 bit for bit there), so the update follows
# the CPU's vendor (_mkl_fuses). MKL's dgetrf takes the same steps for float64 (stop 35, AMD:
# every LU and det of 600 random, shifted (entries ~1.1e12) and nearly singular matrices
# 2 x 2..16 x 16 bit for bit, where NumPy's LAPACK agreed with 131 LUs and 26 dets, and
# only 149 dets to 1e-12); its substitutions agree to ~1e-12 (inverse bit for bit in 209 of
# 360, 58 before). The fused float64 update on Intel CPUs is assumed, not measured.
_MKL_LU_MAX = 16


@functools.cache
def _mkl_fuses():
    """Whether MKL's small float32 LU kernels fuse their updates on this CPU (an Intel
    one; Note [float32 LU as MKL's])."""
    try:
        with open("/proc/cpuinfo") as f:
            return "GenuineIntel" in f.read(4096)
    except OSError:
        return True


def _lu_mkl(a):
    """Whether ``a`` (real float32 or float64, at most 16 x 16) takes MKL's small LU steps
    here (Note [float32 LU as MKL's])."""
    return (a.dtype == np.float32 or a.dtype == np.float64) and \
        max(a.shape[-2:]) <= _MKL_LU_MAX and a.size > 0


def _lu_fma(x, y, z):
    """x * y + z rounded once (float32: the product exact in double; float64: _specfun's
    emulated fma), or, where MKL does not fuse (_mkl_fuses), the product rounded first."""
    if not _mkl_fuses() or x.dtype.kind == "c":
        return x * y + z
    if x.dtype == np.float32:
        return (x.astype(np.float64) * y + z).astype(np.float32)
    from ._specfun import _fma
    x, y, z = np.broadcast_arrays(x, y, z)
    return _fma(x, y, z)


def _lu_array(a):
    """LU with partial pivoting (LAPACK getrf's choice of pivot), batched: (LU, pivots
    1-based as LAPACK's, info); float32 as MKL's (Note [float32 LU as MKL's])."""
    a = np.array(a, copy=True)
    n_rows, n_cols = a.shape[-2], a.shape[-1]
    k = min(n_rows, n_cols)
    mkl = _lu_mkl(a)
    tiny = np.finfo(a.dtype).tiny if mkl else 0
    batch = a.shape[:-2]
    piv = np.zeros(batch + (k,), np.int32)
    info = np.zeros(batch, np.int32)
    if a.size == 0:  # (any dtype: Note [Which check refuses a dtype])
        piv[...] = np.arange(1, k + 1, dtype=np.int32)
        return a, piv, info
    idx = np.indices(batch) if batch else ()
    for j in range(k):
        col = a[..., j:, j]  # (complex: LAPACK's izamax compares |re| + |im|)
        col = np.abs(col.real) + np.abs(col.imag) if col.dtype.kind == "c" else np.abs(col)
        if col.dtype.kind == "f" and np.isnan(col).any():  # (idamax: a NaN never compares
            col = np.where(np.isnan(col[..., :1]), np.inf,  # greater; a NaN first stays)
                           np.where(np.isnan(col), -1.0, col))
        p = np.argmax(col, axis=-1) + j
        piv[..., j] = p + 1
        if batch:
            rows_j = a[(*idx, j)].copy()
            a[(*idx, j)] = a[(*idx, p)]
            a[(*idx, p)] = rows_j
        else:
            a[[j, p]] = a[[p, j]]
        d = a[..., j, j]
        zero = d == 0
        info = np.where((info == 0) & zero, j + 1, info)
        safe = np.where(zero, 1, d)
        col = a[..., j + 1:, j]
        if mkl:  # (sgetf2: 1 / pivot unless it is tiny; MKL's small square kernel divides)
            with np.errstate(all="ignore"):
                scaled = col / safe[..., None]
                if not (n_rows == n_cols <= 4 and j == n_cols - 2):
                    scaled = np.where((np.abs(safe) >= tiny)[..., None],
                                      col * (a.dtype.type(1) / safe)[..., None], scaled)
                a[..., j + 1:, j] = np.where(zero[..., None], col, scaled)
                a[..., j + 1:, j + 1:] = _lu_fma(-a[..., j + 1:, j, None], a[..., j, None, j + 1:],
                                                a[..., j + 1:, j + 1:])
            continue
        a[..., j + 1:, j] = np.where(zero[..., None], col, col / safe[..., None])
        a[..., j + 1:, j + 1:] -= a[..., j + 1:, j, None] * a[..., j, None, j + 1:]
    return a, piv, info


def _getrs_steps(LU, piv, b, trans=False):
    """A^-1 b (``trans``: A^-T b) in float32 from A's float32 LU, as MKL's sgetrs takes it
    (Note [float32 LU as MKL's]): the row interchanges, then trsm's substitutions column by
    column, each entry updated by one fused multiply-add per term; a zero pivot gives
    infinities and NaNs (no error). A float64 LU takes the same steps unfused (used only
    for a zero right side's signs: Note [Zero gradients of det and slogdet])."""
    n = LU.shape[-1]
    shape = np.broadcast_shapes(LU.shape[:-2], b.shape[:-2]) + b.shape[-2:]
    x = np.array(np.broadcast_to(b, shape), LU.dtype)
    fma = _lu_fma
    LU = np.broadcast_to(LU, shape[:-2] + LU.shape[-2:])
    piv = np.broadcast_to(piv, shape[:-2] + piv.shape[-1:])
    idx = np.indices(shape[:-2]) if shape[:-2] else ()
    rec = n <= 4

    def swap(j):
        p = piv[..., j] - 1
        rows_j = x[(*idx, j)].copy()
        x[(*idx, j)] = x[(*idx, p)]
        x[(*idx, p)] = rows_j

    def scale(i, d):
        x[..., i, :] = x[..., i, :] * (x.dtype.type(1) / d)[..., None] if rec else \
            x[..., i, :] / d[..., None]

    with np.errstate(all="ignore"):
        if not trans:  # P^T b; L y = b (unit); U x = y
            for j in range(n):
                swap(j)
            for t in range(n):
                x[..., t + 1:, :] = fma(-LU[..., t + 1:, t, None], x[..., t, None, :],
                                        x[..., t + 1:, :])
            for t in range(n - 1, -1, -1):
                scale(t, LU[..., t, t])
                x[..., :t, :] = fma(-LU[..., :t, t, None], x[..., t, None, :],
                                    x[..., :t, :])
            return x
        # A^T = U^T L^T P^T: U^T z = b (forward, trsm's dot products), L^T w = z, then P w
        for i in range(n):
            for t in range(i):
                x[..., i, :] = fma(-LU[..., t, i, None], x[..., t, :], x[..., i, :])
            scale(i, LU[..., i, i])
        for i in range(n - 1, -1, -1):
            for t in range(i + 1, n):
                x[..., i, :] = fma(-LU[..., t, i, None], x[..., t, :], x[..., i, :])
        for j in range(n - 1, -1, -1):
            swap(j)
    return x


def _singular_error(name, a):
    _, _, info = _lu_array(a)
    flat = info.reshape(-1)
    i = int(np.nonzero(flat)[0][0])
    raise _LinAlgError(f"{name}: {_batch_prefix(a, i)}The diagonal element {int(flat[i])} is "
                       "zero, the inversion could not be completed because the input matrix is "
                       "singular.")


def _inv_array(a, name="linalg.inv"):
    if a.size == 0:
        return a.copy()
    try:
        return np.linalg.inv(a)
    except np.linalg.LinAlgError:
        LU, piv, info = _lu_array(a)
        if info.any():
            _singular_error(name, a)
        # (NumPy's LAPACK met a zero pivot that getrf's steps here do not: theirs rule)
        return _getrs_array(LU, piv, np.eye(a.shape[-1], dtype=a.dtype)).astype(a.dtype,
                                                                                copy=False)


# Note [Non-finite inputs of LAPACK]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch reads LAPACK's info (_linalg_check_errors) where NumPy raises its own
# LinAlgError, so the failures are translated here, per batch element as PyTorch reports
# the first: gesdd refuses a matrix holding a NaN (info -4: "contained non-finite values";
# an infinity is computed, to NaNs); syevd's QL/QR iterations do not converge on a NaN in the
# triangle read (n >= 3; eigenvectors up to the divide-and-conquer size 25): info n - 1
# with eigenvectors (steqr), n - 2 without (sterf), the counts of unconverged off-diagonal
# entries PyTorch prints; potrf stops at the first diagonal that is not positive *or is
# NaN* (OpenBLAS's, behind NumPy, lets a NaN through); MKL's least-squares drivers refuse a
# NaN in A or B as an illegal argument, which PyTorch reports as an internal assert.
def _first_bad(a, bad):
    """Index of the first matrix of the batch for which ``bad(matrix)`` holds."""
    flat = a.reshape((-1,) + a.shape[-2:])
    return next((i for i, m in enumerate(flat) if bad(m)), None)


# Note [SVD as PyTorch's gesdd]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's CPU svd is LAPACK's gesdd in the input's precision (MKL's sgesdd for float32,
# cgesdd for complex64). np.linalg.svd casts a float32 matrix to double and rounds the
# result, so a singular value that is a rounding residue differs by orders of magnitude:
# ones(2, 2) in float32 has sigma_2 = 1.35e-8 in PyTorch and 3.4e-17 in NumPy, and
# pinverse's rcond=1e-15 keeps PyTorch's (fin_repro_021: entries 3.7e7, NumPy's 0.25); the
# same for matrix_rank, cond and the singular vectors of a rank-deficient matrix. Single
# precision goes to NumPy's LAPACK gufunc in single precision (OpenBLAS's sgesdd): on 300
# float32 matrices each (2 x 2 ... 5 x 3) pinv agreed with PyTorch's to float32 tolerance
# for 300 rank-1 matrices (the double route: 0) and 156 of 300 with singular values down to
# 1e-6 (0), the singular vectors for 130 rank-1 and 134 ill-conditioned ones (50, 51).
# Vectors (min(m, n) = 1) holding an infinity or a -0.0 take gesdd's steps here: the
# scaling of a matrix whose max |a| is out of range (an infinity gives A * 0: NaNs and
# signed zeros), the reflector of geqrf (gelqf for a row; larfg and org2r as MKL's: Note
# [Householder QR of non-finite matrices]) and bdsdc's 1 x 1 sign, which is MKL's
# d < 0 ? -1 : 1 (+1 for a NaN and for -0.0; OpenBLAS's Fortran SIGN gives -1 for both,
# its NaN from inf * 0 having the sign bit set): svd([[inf]]) is U = 1 in PyTorch, -1 in
# NumPy, and the tangent of S is U^H dA V (fin_repro_003 / 010). A matrix with an
# infinity and both dims >= 3 does not reach LAPACK: OpenBLAS's gesdd (either precision)
# never returns on some (the end run of stop 28 hung on one: a 3 x 3 holding -inf, 1e30
# and 1.4e-45 spins in the iterations on the NaNs lascl made; min(m, n) = 2 is one 2 x 2
# step, measured: no hang in 30,000 such matrices, while 3..5 x 3..5 hang within seconds).
# MKL's S is all NaN there (3,000 random matrices 2..4 x 2..4 with infinities: every one
# it computed), its U and Vh NaN in patterns of its own iterations (all NaN in 35%), and
# it refuses a quarter ("failed to converge ... (error code: k)"): here S, U and Vh are
# all NaN. NumPy's results for 2 x n and n x 2 agree with MKL's more often, so they stay.
def _svd_not_converged(err, flag):
    raise np.linalg.LinAlgError("SVD did not converge")


def _gesdd(a, full_matrices=True, compute_uv=True):
    """gesdd in a's precision (Note [SVD as PyTorch's gesdd])."""
    if a.dtype == np.float32 or a.dtype == np.complex64:
        g = lapack_gufunc(("svd_f" if full_matrices else "svd_s") if compute_uv else "svd")
        if g is not None:
            c = "f" if a.dtype == np.float32 else "F"
            with np.errstate(call=_svd_not_converged, invalid="call", over="ignore",
                             divide="ignore", under="ignore"):
                return g(a, signature=f"{c}->{c}f{c}" if compute_uv else f"{c}->f")
    return np.linalg.svd(a, full_matrices=full_matrices, compute_uv=compute_uv)


def _gesdd_vectors(a, full_matrices):
    """(U, S, Vh) of real matrices with one row or one column by gesdd's steps, as MKL
    takes them (Note [SVD as PyTorch's gesdd])."""
    if np.isnan(a).any():
        raise np.linalg.LinAlgError("SVD did not converge")
    m, n = a.shape[-2:]
    length = max(m, n)
    ncols = length if full_matrices else 1
    flat = a.reshape((-1, m, n))
    nb = flat.shape[0]
    U = np.empty((nb, m, m if full_matrices else 1), a.dtype)
    S = np.empty((nb, 1), a.dtype)
    Vh = np.empty((nb, n if full_matrices else 1, n), a.dtype)
    fi = np.finfo(a.dtype)
    smlnum = float(np.sqrt(fi.tiny) / fi.eps)
    bignum = 1 / smlnum
    one = a.dtype.type(1)
    with np.errstate(all="ignore"):
        for b, mat in enumerate(flat):
            x = mat[:, 0] if n == 1 else mat[0]
            anrm = float(np.abs(x).max())
            scale = smlnum if 0 < anrm < smlnum else bignum if anrm > bignum else None
            if scale is not None:  # (lascl: an infinity's factor is 0)
                x = x * a.dtype.type(scale / anrm)
            h, tau = _geqr2(x[:, None])
            beta = h[0, 0]
            Q = _org2r(h, tau, ncols)
            u1 = -one if beta < 0 else one  # (bdsdc's 1 x 1, MKL's sign)
            S[b, 0] = abs(beta) if scale is None else abs(beta) * a.dtype.type(anrm / scale)
            if n == 1:
                Q[:, 0] *= u1
                U[b], Vh[b] = Q, one
            else:
                U[b], Vh[b] = u1, Q.T
    bs = a.shape[:-2]
    return U.reshape(bs + U.shape[1:]), S.reshape(bs + (1,)), Vh.reshape(bs + Vh.shape[1:])


def _gesdd_infinite(a, full_matrices, compute_uv):
    """gesdd of matrices (both dims >= 3), those holding an infinity without LAPACK: S, U
    and Vh all NaN (Note [SVD as PyTorch's gesdd]: OpenBLAS's gesdd never returns on some)."""
    if np.isnan(a).any():
        raise np.linalg.LinAlgError("SVD did not converge")
    m, n = a.shape[-2:]
    k = min(m, n)
    flat = a.reshape((-1, m, n))
    bad = ~np.isfinite(flat).all(axis=(1, 2))
    rd = np.finfo(a.dtype).dtype
    S = np.full((flat.shape[0], k), np.nan, rd)
    good = None if bad.all() else _gesdd(flat[~bad], full_matrices, compute_uv)
    if compute_uv:
        U = np.full((flat.shape[0], m, m if full_matrices else k), np.nan, a.dtype)
        Vh = np.full((flat.shape[0], n if full_matrices else k, n), np.nan, a.dtype)
        if good is not None:
            U[~bad], S[~bad], Vh[~bad] = good
        bs = a.shape[:-2]
        return U.reshape(bs + U.shape[1:]), S.reshape(bs + (k,)), Vh.reshape(bs + Vh.shape[1:])
    if good is not None:
        S[~bad] = good
    return S.reshape(a.shape[:-2] + (k,))


def _gesdd_refusal(a):
    """MKL's gesdd (singular vectors wanted) of a tall real matrix, m >= 3n/2 and n >= 3,
    holding an infinity anywhere but alone at [0, 0] refuses it: "failed to converge ...
    (error code: n - 1)", float32 and float64 (measured: every one of 1,400 such random
    matrices 4..19 x 3..8, one to three infinities, and none with only A[0, 0] infinite or
    with m < 3n/2: there the matrix gesdd scales by bignum / inf = 0, a NaN where the
    infinity was, reaches the QR-first path, whose reflectors spread the NaN unless it is
    the first pivot); the singular values alone are computed (NaN). A matrix of the batch
    holding a NaN before it raises gesdd's own error (Note [Non-finite inputs of LAPACK])."""
    m, n = a.shape[-2:]
    if a.dtype.kind != "f" or n < 3 or m <= n or m < 3 * n // 2:
        return

    def refused(mat):
        bad = ~np.isfinite(mat)
        return bad.any() and (np.isnan(mat).any() or bad.sum() > bad[0, 0])
    i = _first_bad(a, refused)
    if i is not None and not np.isnan(a.reshape((-1, m, n))[i]).any():
        raise _LinAlgError(f"linalg.svd: {_batch_prefix(a, i)}The algorithm failed to converge "
                           "because the input matrix is ill-conditioned or has too many "
                           f"repeated singular values (error code: {n - 1}).")


def _svd_np(a, full_matrices=True, compute_uv=True):
    """gesdd with PyTorch's error (Note [Non-finite inputs of LAPACK], Note [SVD as
    PyTorch's gesdd])."""
    try:
        if a.size and not np.isfinite(a).all():
            k = min(a.shape[-2:])
            if compute_uv:
                _gesdd_refusal(a)
            if k >= 3:
                return _gesdd_infinite(a, full_matrices, compute_uv)
            if k == 1 and compute_uv and a.dtype.kind == "f":
                return _gesdd_vectors(a, full_matrices)
        elif (compute_uv and a.size and a.dtype.kind == "f" and min(a.shape[-2:]) == 1 and
                np.signbit(a[a == 0]).any()):
            return _gesdd_vectors(a, full_matrices)
        return _gesdd(a, full_matrices, compute_uv)
    except np.linalg.LinAlgError:
        i = _first_bad(a, lambda m: np.isnan(m).any())
        if i is None:
            raise
        raise _LinAlgError(f"linalg.svd: {_batch_prefix(a, i)}The algorithm failed to converge "
                           "because the input matrix contained non-finite values.") from None


def _eigh_np(a, UPLO="L", vectors=True):
    """np.linalg.eigh / eigvalsh with PyTorch's error (Note [Non-finite inputs of LAPACK])."""
    f = np.linalg.eigh if vectors else np.linalg.eigvalsh
    try:
        return f(a, UPLO=UPLO)
    except np.linalg.LinAlgError:
        def fails(m):
            try:
                f(m, UPLO=UPLO)
                return False
            except np.linalg.LinAlgError:
                return True
        i = _first_bad(a, fails)
        if i is None:
            raise
        code = a.shape[-1] - (1 if vectors else 2)
        raise _LinAlgError(f"linalg.eigh: {_batch_prefix(a, i)}The algorithm failed to converge "
                           "because the input matrix is ill-conditioned or has too many repeated "
                           f"eigenvalues (error code: {code}).") from None


def _finish_la(op, inputs, params, out):
    """Record a linear-algebra op; inputs broadcast over batch dims get their gradients
    summed back to their shapes (Note [Un-broadcast in the engine])."""
    res = _finish(op, inputs, params, out)
    first = res[0] if isinstance(res, tuple) else res
    node = first._grad_fn
    if node is not None:
        o = first._data
        batch = o.shape[:-2] if o.ndim >= 2 else ()
        if any(isinstance(x, Tensor) and x._requires_grad and
               x._data.shape[:-2] != batch and x._data.ndim >= 2 for x in inputs):
            set_input_metadata(node, inputs, (), o.dtype)
    return res


# ---- public functions: products -----------------------------------------------------------
@view_errors_before_checks
def vdot(input, other):
    a, b = input._data, other._data
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if a.dtype != b.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{_type_name(a)} and {_type_name(b)}")
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src "
                           f"[{b.shape[0]}] to have the same number of elements, but got "
                           f"{a.shape[0]} and {b.shape[0]} elements respectively")
    _no_bool("dot", a)
    return _finish(VDOT, (input, other), (), raw.asarray(np.vdot(a, b)))


@view_errors_before_checks
def trace(input):
    if _amp.state.enabled:
        return _amp.fp32(trace, input)
    a = input._data
    _no_bool("trace", a)  # (the dispatch on dtype comes before the kernel's dim check)
    if a.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {a.ndim}")
    out = _trace_kernel(a)
    if a.dtype.kind in "iub":
        out = out.astype(np.int64)
    return _finish(TRACE, (input,), (), out)


def _add_family_check_self(input, shape):
    in_shape = input._data.shape
    if in_shape != shape and (not _broadcastable(in_shape, shape)
                              or np.broadcast_shapes(in_shape, shape) != tuple(shape)):
        expand(input, shape)  # raises PyTorch's expand error


def _finish_bcast(op, inputs, params, out):
    res = _finish(op, inputs, params, out)
    if res._grad_fn is not None and inputs[0]._data.shape != out.shape:
        set_input_metadata(res._grad_fn, inputs, out.shape, out.dtype)
    return res


@view_errors_before_checks
def addmv(input, mat, vec, *, beta=1, alpha=1):
    _scalar_args(beta, alpha)
    m, v = mat._data, vec._data
    if m.ndim != 2 or v.ndim != 1 or input._data.ndim > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input._data.ndim}, "
                           f"{m.ndim}, {v.ndim}")
    if m.shape[1] != v.shape[0] or input._data.shape not in ((m.shape[0],), (1,), ()):
        if not input._data.ndim:  # (its message reads self.size(0))
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        n_in = input._data.shape[0]
        raise RuntimeError(f"size mismatch, got input ({n_in}), mat ({m.shape[0]}x{m.shape[1]}), "
                           f"vec ({v.shape[0]})")
    if not (input._data.dtype == m.dtype == v.dtype):
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                           f"{_dtypes.scalar_name(input.dtype)}, {_dtypes.scalar_name(mat.dtype)},"
                           f" and {_dtypes.scalar_name(vec.dtype)}")
    kb, ka = beta, alpha
    if m.size:  # (PyTorch returns before its kernel)
        _no_bool("addmv_impl_cpu", m)
        kb, ka = _blas_scalars(beta, alpha, m.dtype, False)
    out = ADDMV.kernel(input._data, m, v, kb, ka)
    return _finish_bcast(ADDMV, (input, mat, vec), (beta, alpha), out)


def addr(input, vec1, vec2, *, beta=1, alpha=1):
    _scalar_args(beta, alpha)
    a, b = vec1._data, vec2._data
    if a.ndim != 1:
        raise RuntimeError(f"addr: Expected 1-D argument vec1, but got {a.ndim}-D")
    if b.ndim != 1:
        raise RuntimeError(f"addr: Expected 1-D argument vec2, but got {b.ndim}-D")
    _add_family_check_self(input, (a.shape[0], b.shape[0]))
    rt = _dtypes.result_type(input, vec1, vec2).np  # (a TensorIterator op: promotes)
    s = input._data
    _addr_scalar_checks(rt, beta, alpha)
    kb, ka = _blas_scalars(beta, alpha, rt, False)
    out = ADDR.kernel(s.astype(rt, copy=False), a.astype(rt, copy=False),
                      b.astype(rt, copy=False), kb, ka)
    res = _finish(ADDR, (input, vec1, vec2), (beta, alpha), out)
    if res._grad_fn is not None and (s.shape != out.shape or
                                     any(x.dtype != rt for x in (s, a, b))):
        set_input_metadata(res._grad_fn, (input, vec1, vec2), out.shape, out.dtype)
    return res


def _bmm_checks(b1, b2, reads=True):
    """``reads``: bmm's, which reads size(2) of both before checking their ranks (baddbmm's
    meta has read its sizes already)."""
    for b in (b1, b2) if reads else ():
        if b.ndim < 3:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-_py_max(b.ndim, 1)}, {_py_max(b.ndim, 1) - 1}], but got 2)")
    if b1.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b2.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if b2.shape[:2] != (b1.shape[0], b1.shape[2]):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{b1.shape[0]}, {b1.shape[2]}] but got: [{b2.shape[0]}, "
                           f"{b2.shape[1]}].")


@view_errors_before_checks
def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    if _amp.state.enabled:
        return _amp.lower(baddbmm, input, batch1, batch2, beta=beta, alpha=alpha)
    _scalar_args(beta, alpha)
    a, b = batch1._data, batch2._data
    # (its meta function reads batch1.size(0), batch1.size(1), batch2.size(2) first, to
    # expand self, checks self's dtype, then the ranks and sizes: common_checks_baddbmm_bmm)
    _size_dim(0, a.ndim), _size_dim(1, a.ndim), _size_dim(2, b.ndim)
    _add_family_check_self(input, (a.shape[0], a.shape[1], b.shape[2]))
    s = input._data
    if s.dtype != a.dtype:
        names = [_dtypes.cpp_name(_dtypes.from_numpy(x.dtype)) for x in (s, a, b)]
        raise RuntimeError(f"Input dtypes must be the same, got: input {names[0]}, batch1: "
                           f"{names[1]}, batch2: {names[2]}")
    _bmm_checks(a, b, reads=False)
    if a.size and b.size:  # (its kernel dispatches on self's dtype, then reads batch2)
        _no_bool("baddbmm", a)
    if b.dtype != a.dtype:
        raise RuntimeError(f"expected scalar type {_dtypes.scalar_name(batch1.dtype)} but "
                           f"found {_dtypes.scalar_name(batch2.dtype)}")
    kb, ka = (_blas_scalars(beta, alpha, a.dtype, True) if a.size and b.size else
              (beta, alpha))
    out = BADDBMM.kernel(input._data, a, b, kb, ka)
    return _finish_bcast(BADDBMM, (input, batch1, batch2), (beta, alpha), out)


def _addbmm_checks(input, a, b):
    """addbmm_out's checks in its order: self expanded to (batch1.size(1), batch2.size(2)),
    then addbmm_impl_'s ranks, batch counts and matrix sizes."""
    _size_dim(1, a.ndim), _size_dim(2, b.ndim)
    _add_family_check_self(input, (a.shape[1], b.shape[2]))
    if a.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got "
                           f"{a.shape[0]} and {b.shape[0]}")
    if a.shape[2] != b.shape[1]:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({a.shape[1]}x{a.shape[2]} and "
                           f"{b.shape[1]}x{b.shape[2]})")


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    if _amp.state.enabled:
        return _amp.lower(addbmm, input, batch1, batch2, beta=beta, alpha=alpha)
    _scalar_args(beta, alpha)
    a, b = batch1._data, batch2._data
    _addbmm_checks(input, a, b)
    _addmm_dtypes(input, a, b)  # (PyTorch's addbmm is an addmm_ of the summed batches)
    kb, ka = beta, alpha
    if a.shape[1] and b.shape[2] and a.shape[2] and a.shape[0]:
        _no_bool("addmm_impl_cpu_", a)  # (the first batch's addmm_ reads them)
        kb, ka = _blas_scalars(beta, alpha, a.dtype, True)
    out = ADDBMM.kernel(input._data, a, b, kb, ka)
    return _finish_bcast(ADDBMM, (input, batch1, batch2), (beta, alpha), out)


def ger(input, vec2):
    return outer(input, vec2)


def _dims_list(dims, nd):
    return [d % nd if nd else d for d in dims]


def tensordot(a, b, dims=2):
    """PyTorch's tensordot: permute, reshape to matrices, one mm (a dot, or mul + sum, for a
    1-element result)."""
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a._data.ndim, b._data.ndim):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        n = dims
        dims1 = list(range(-n, 0))
        dims2 = list(range(n))
    elif isinstance(dims, Tensor):
        d = dims._data
        if d.ndim == 0:
            n = int(d)
            dims1, dims2 = list(range(-n, 0)), list(range(n))
        else:
            dims1 = [int(x) for x in np.atleast_1d(d[0])]
            dims2 = [int(x) for x in np.atleast_1d(d[1])]
    else:
        dims1, dims2 = dims
        dims1 = [dims1] if isinstance(dims1, int) else list(dims1)
        dims2 = [dims2] if isinstance(dims2, int) else list(dims2)
    if len(dims1) != len(dims2):
        raise RuntimeError("both dimension lists should have same length")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError("both inputs should have same dtype")
    na, nb = a._data.ndim, b._data.ndim
    t1, t2 = a, b
    csize = 1
    for d1, d2 in zip(dims1, dims2):
        s1, s2 = a._data.shape[_size_dim(d1, na)], b._data.shape[_size_dim(d2, nb)]
        if s2 == 1:  # (summed in its own dtype, as aten: a bool stays bool)
            t1 = t1.sum(d1, True, dtype=t1.dtype)
        elif s1 == 1:
            t2 = t2.sum(d2, True, dtype=t2.dtype)
        else:
            if s1 != s2:
                raise RuntimeError(f"contracted dimensions need to match, but first has size "
                                   f"{s1} in dim {d1} and second has size {s2} in dim {d2}")
            csize *= s1
    c1, c2 = set(_dims_list(dims1, na)), set(_dims_list(dims2, nb))
    p1, p2, rsizes = [], [], []
    size1 = size2 = 1
    for i in range(na):
        if i not in c1:
            p1.append(i)
            size1 *= t1._data.shape[i]
            rsizes.append(t1._data.shape[i])
    p1 += dims1
    p2 += dims2
    for i in range(nb):
        if i not in c2:
            p2.append(i)
            size2 *= t2._data.shape[i]
            rsizes.append(t2._data.shape[i])
    t1 = permute(t1, p1)
    t2 = permute(t2, p2)
    if size1 == 1 and size2 == 1:
        # one output element, as aten (its graph too): a dot of the flattened inputs when
        # both are contiguous (flatten is then a view), else mul + sum, which copies neither
        # (an expanded input: a gradient of a sum)
        from .reduction import sum as _sum
        from .shape import flatten, squeeze
        if t1.is_contiguous() and t2.is_contiguous():
            return reshape(dot(flatten(t1), flatten(t2)), tuple(rsizes))
        return reshape(_sum(mul(squeeze(t1), squeeze(t2)), dtype=t1.dtype), tuple(rsizes))
    t1 = reshape(t1, (size1, csize))
    t2 = reshape(t2, (csize, size2))
    return reshape(mm(t1, t2), tuple(rsizes))


def inner(input, other):
    a, b = input._data, other._data
    if a.ndim == 0 or b.ndim == 0:
        return mul(input, other)
    if a.shape[-1] != b.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but "
                           f"got shapes [{_errors.shape_str(a.shape)}] and "
                           f"[{_errors.shape_str(b.shape)}]")
    return tensordot(input, other, ([-1], [-1]))


def kron(input, other):
    _check_tensor_arg("kron", "input", input, 1)
    _check_tensor_arg("kron", "other", other, 2)
    a, b = input._data, other._data
    nd = _py_max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + a.shape
    sb = (1,) * (nd - b.ndim) + b.shape
    ia, ib = [], []
    for x, y in zip(sa, sb):
        ia += [x, 1]
        ib += [1, y]
    va, vb = _unsafe_view(input, tuple(ia)), _unsafe_view(other, tuple(ib))
    shape = tuple(x * y for x, y in zip(sa, sb))
    # PyTorch's _unsafe_view is a view, of a product laid out as TensorIterator lays it out
    # (following the inputs' strides): a permuted input can make it fail, as PyTorch's does
    if 0 not in shape:
        product = _iterator_strides([(v, layout.view_strides(x._data.shape, x.stride(), v))
                                     for x, v in ((input, tuple(ia)), (other, tuple(ib)))])
        if product is not None and layout.view_strides(*product, shape) is None:
            raise RuntimeError(_errors.VIEW_STRIDE)
    return _unsafe_view(mul(va, vb), shape)


def _iterator_strides(operands):
    """The shape and strides (in elements) TensorIterator gives the result of an
    elementwise op on ``operands`` ((shape, strides) pairs), or None when all have one shape
    (its fast setup: contiguous or the inputs' own dense layout, viewable either way)."""
    shape = tuple(np.broadcast_shapes(*[sh for sh, _ in operands]))
    if all(sh == shape for sh, _ in operands):
        return None
    strides = layout.iter_strides_of(shape, operands)
    return shape, strides if strides is not None else layout.c_strides(shape)


def _multi_dot_checks(tensors, name="multi_dot"):
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"{name}(): expected at least 2 tensors but got {n}")
    for i, t_ in enumerate(tensors):
        nd = t_._data.ndim
        if (i == 0 and nd not in (1, 2)) or (i == n - 1 and nd not in (1, 2)) or (
                0 < i < n - 1 and nd != 2):
            which = "first" if i == 0 else "last" if i == n - 1 else None
            if which:
                raise RuntimeError(f"{name}(): the {which} tensor must be 1D or 2D but got "
                                   f"{nd}D")
            raise RuntimeError(f"{name}(): tensor {i} must be 2D but got {nd}D")
    d0 = tensors[0]._data.dtype
    for i, t_ in enumerate(tensors[1:], 1):
        if t_._data.dtype != d0:
            raise RuntimeError(f"{name}(): all tensors must have be the same dtype but tensor 0 "
                               f"is {_dtypes.cpp_name(_dtypes.from_numpy(d0))} and tensor {i} "
                               f"{_dtypes.cpp_name(_dtypes.from_numpy(t_._data.dtype))}")


def multi_dot(tensors):
    """linalg.multi_dot: vectors at the ends as rows/columns, products in the cheapest
    order (PyTorch's dynamic programme for more than three)."""
    tensors = list(tensors)
    _multi_dot_checks(tensors)
    first_1d = tensors[0]._data.ndim == 1
    last_1d = tensors[-1]._data.ndim == 1
    mats = list(tensors)
    if first_1d:
        mats[0] = unsqueeze(mats[0], 0)
    if last_1d:
        mats[-1] = unsqueeze(mats[-1], -1)
    for i in range(len(mats) - 1):
        a, b = mats[i]._data.shape, mats[i + 1]._data.shape
        if a[1] != b[0]:
            sa = tensors[i]._data.shape
            sb = tensors[i + 1]._data.shape
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes "
                               f"[{_errors.shape_str(sa)}] and [{_errors.shape_str(sb)}] cannot "
                               "be multiplied")
    res = _chain_product(mats)
    if first_1d and last_1d:
        return view(res, ())
    if first_1d:
        return view(res, (res._data.shape[-1],))
    if last_1d:
        return view(res, (res._data.shape[0],))
    return view(res, res._data.shape)


def _chain_product(mats):
    n = len(mats)
    if n == 2:
        return mm(mats[0], mats[1])
    if n == 3:
        a, b, c = (m._data.shape for m in mats)
        cost1 = a[0] * a[1] * b[1] + a[0] * b[1] * c[1]  # (AB)C
        cost2 = b[0] * b[1] * c[1] + a[0] * a[1] * c[1]  # A(BC)
        if cost1 <= cost2:
            return mm(mm(mats[0], mats[1]), mats[2])
        return mm(mats[0], mm(mats[1], mats[2]))
    p = [m._data.shape[0] for m in mats] + [mats[-1]._data.shape[1]]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    stack_ = [(0, n - 1, None)]
    done = {}
    while stack_:  # iterative: evaluate the split tree bottom-up
        i, j, _ = stack_.pop()
        if i == j:
            done[(i, j)] = mats[i]
            continue
        k = split[i][j]
        left, right = (i, k), (k + 1, j)
        if left in done and right in done:
            done[(i, j)] = mm(done[left], done[right])
        else:
            stack_.append((i, j, None))
            if right not in done:
                stack_.append((right[0], right[1], None))
            if left not in done:
                stack_.append((left[0], left[1], None))
    return done[(0, n - 1)]


_WARNED = set()


def _warn_once(key, message):
    """PyTorch's TORCH_WARN_ONCE: the first call in a process warns."""
    if key not in _WARNED:
        _WARNED.add(key)
        _warnings.warn(message, UserWarning, stacklevel=3)


def chain_matmul(*matrices):
    _warn_once("chain_matmul",
               "torch.chain_matmul is deprecated and will be removed in a future PyTorch "
                   "release. Use torch.linalg.multi_dot instead, which accepts a list of two or "
                   "more tensors rather than multiple parameters.")
    if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
        matrices = matrices[0]
    if len(matrices) == 1:
        return clone(matrices[0])
    return multi_dot(list(matrices))


def vecdot(x, y, *, dim=-1):
    """sum(conj(x) * y, dim), as PyTorch's, after its checks: x floating (float16 too),
    y of x's dtype."""
    from .complex_ops import conj
    from .reduction import sum as _sum
    a, b = x._data, y._data
    _check_float("linalg.vecdot", a, low_precision=True)
    if a.dtype != b.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found x "
                           f"of type {_type_name(a)} and y of type {_type_name(b)} instead")
    return _sum(mul(conj(x), y), dim)


def cross(input, other, dim=None):
    if dim is None:
        _warn_once("cross", "Using torch.cross without specifying the dim arg is deprecated.\n"
                       "Please either pass the dim explicitly or simply use torch.linalg.cross.\n"
                       "The default value of dim will change to agree with that of "
                       "linalg.cross in a future release.")
        # (aten's _default_cross_dim: the input's first dim of size 3)
        dim = next((i for i, s in enumerate(input._data.shape) if s == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    return linalg_cross(input, other, dim=dim)


@view_errors_before_checks
def linalg_cross(input, other, *, dim=-1):
    a, b = input._data, other._data
    nd = _py_max(a.ndim, b.ndim)
    if a.ndim != b.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if not nd:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = _wrap_dim_n(dim, nd)  # (its IndexError before the length and dtype checks)
    da, db = d - (nd - a.ndim), d - (nd - b.ndim)
    if a.shape[d] != 3 or b.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{a.shape[da]} and {b.shape[db]}")
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise broadcast_error(a.shape, b.shape) from None
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(a)} but found {_type_name(b)}")
    if a.dtype == np.bool_:  # (the kernel's dispatch, after its dim, shape and dtype checks)
        raise NotImplementedError("\"cross\" not implemented for 'Bool'")
    out = _asarray(np.cross(a, b, axis=d))
    res = _finish(CROSS, (input, other), (d,), out)
    if res._grad_fn is not None and (a.shape != out.shape or b.shape != out.shape):
        set_input_metadata(res._grad_fn, (input, other), out.shape, out.dtype)
    return res


def matrix_power(input, n):
    a = input._data
    _check_square("linalg.matrix_power", a)
    from .pointwise import clone_contiguous
    if n == 0:  # (aten: clone(contiguous_format).copy_(eye), the input in the graph)
        out = clone_contiguous(input)
        eye = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape)
        from .pointwise import copy_
        return copy_(out, _make(np.array(eye)))
    if n == 1:
        return clone_contiguous(input)
    if n < 0:
        input = inv(input)
        n = -n
        if n == 1:
            return input
    mul_ = matmul
    if n == 2:
        return mul_(input, input)
    if n == 3:
        return mul_(mul_(input, input), input)
    z = result = None
    while n > 0:
        z = input if z is None else mul_(z, z)
        if n & 1:
            result = z if result is None else mul_(result, z)
        n >>= 1
    return result


def diag(input, diagonal=0):
    a = input._data
    if a.ndim == 1:
        return diag_embed(input, diagonal, 0, 1)
    if a.ndim != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {a.ndim}D")
    out = np.diagonal(a, diagonal).copy()
    return _finish(DIAGONAL_COPY, (input,), (a.shape, diagonal), out)


DIAGONAL_COPY = defop("diagonal_copy", "DiagonalBackward0_copy",
                      lambda a, sizes, offset: np.diagonal(a, offset).copy(),
                      params=("self_sizes_", "offset"),
                      grads={"self": lambda F, grad, self_sizes_, offset:
                             F.diagonal_backward(grad, self_sizes_, offset, 0, 1)},
                      jvp=lambda F, self_t, offset: F.diagonal(self_t, offset))
# (the view op's rule, diagonal of self_t: kept when laid out as the result, a 1x1 matrix's
# diag shares its tangent: Note [Tangent layout] in autograd/forward_ad.py)
DIAGONAL_COPY.fits_tangent = True


def _wrap_dim_n(dim, nd):
    if not -nd <= dim < nd:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], "
                         f"but got {dim})")
    return dim % nd


def diagflat(input, offset=0):
    return diag_embed(view(contiguous(input), (-1,)), offset)


# ---- public functions: torch.linalg ---------------------------------------------------------
@view_errors_before_checks
def det(A):
    a = _square_float("linalg.det", A, empty_ok=True)
    if not _finite(a) or _lu_mkl(a):  # (Note [Determinants of singular matrices]: getrf's
        # infinities; Note [float32 LU as MKL's])
        LU, piv, _ = _det_lu(A)
        with np.errstate(all="ignore"):
            d = np.diagonal(LU, 0, -2, -1).prod(-1)
        return _finish(DET, (A,), (), _asarray(np.where(_lu_perm_odd(piv), -d, d)).astype(
            a.dtype, copy=False))
    out = _asarray(np.linalg.det(a)).astype(a.dtype, copy=False) if a.size else np.ones(
        a.shape[:-2], a.dtype)
    if a.size and a.dtype.kind == "f" and (out == 0).any():
        # (Note [Determinants of singular matrices]: the zero's sign; NumPy's is +0.0)
        LU, piv, _ = _det_lu(A)
        d = np.diagonal(LU, 0, -2, -1).prod(-1)
        out = _asarray(np.where(out == 0, np.where(_lu_perm_odd(piv), -d, d), out)).astype(
            a.dtype, copy=False)
    return _finish(DET, (A,), (), out)


@view_errors_before_checks
def slogdet(A):
    a = _square_float("linalg.slogdet", A, None)
    s, l_ = np.linalg.slogdet(a) if not _lu_mkl(a) else (None, None)
    if not _finite(a) or _lu_mkl(a):  # (getrf's factors: sign(P) prod(sgn(diag U)),
        # sum(log|diag U|); Note [float32 LU as MKL's])
        LU, piv, _ = _det_lu(A)
        d = np.diagonal(LU, 0, -2, -1)
        sg = np.where(d > 0, 1.0, np.where(d < 0, -1.0, 0.0)).prod(-1)
        s = np.where(_lu_perm_odd(piv), -sg, sg)
        with np.errstate(all="ignore"):
            l_ = np.log(np.abs(d)).sum(-1)
    elif a.size and a.dtype.kind == "f" and (s == 0).any():
        # (Note [Determinants of singular matrices]: the zero sign's sign)
        LU, piv, _ = _det_lu(A)
        d = np.diagonal(LU, 0, -2, -1)
        sg = np.where(d > 0, 1.0, np.where(d < 0, -1.0, 0.0)).prod(-1)
        s = np.where(s == 0, np.where(_lu_perm_odd(piv), -sg, sg), s)
    res = _finish(SLOGDET, (A,), (), (_asarray(s).astype(a.dtype, copy=False),
                                        _asarray(l_).astype(_real_dtype(a.dtype), copy=False)))
    return _SlogdetRT(*res)


def logdet(input):
    _square_float("logdet", input, None)  # (its own name in the checks' messages)
    sign, logabsdet = slogdet(input)
    if input._data.dtype.kind == "c":  # log(sign) + logabsdet, as PyTorch's (AddBackward0)
        from .pointwise import add, log
        return add(log(sign), logabsdet)
    nan = _make(np.asarray(np.nan, dtype=input._data.dtype))
    return _where(_make(sign._data == -1), nan, logabsdet)


def _solve_getrs(A, b, left=True):
    """(X, info) of A X = b (``left``) or X A = b as PyTorch's linalg_solve_ex computes them:
    getrf of A (2.13's solve factors A itself, unlike det: a test of a contiguous A's NaNs
    shows it), then getrs's row interchanges and substitutions (X A = B as A^T X^T = B^T),
    so an infinity or NaN lands where PyTorch's does (NumPy's gesv orders its arithmetic
    otherwise)."""
    a = A._data
    LU, piv, info = _lu_array(a)
    with np.errstate(all="ignore"):
        if left:
            x = _lu_solve_f(raw.RAW, LU, piv, False, b)
        else:
            x = np.swapaxes(_lu_solve_f(raw.RAW, LU, piv, True, np.swapaxes(b, -1, -2)),
                            -1, -2)
    return x.astype(a.dtype, copy=False), info


@view_errors_before_checks
def inv_ex(A, *, check_errors=False):
    a = _square_float("linalg.inv", A, None)
    if a.size == 0:
        inverse, info = a.copy(), np.zeros(a.shape[:-2], np.int32)
    elif not _finite(a) or _lu_mkl(a):  # (getrf/getrs's infinities and NaNs: solve_ex(A, I)
        # as PyTorch's; Note [float32 LU as MKL's])
        inverse, info = _solve_getrs(A, np.eye(a.shape[-1], dtype=a.dtype))
        if check_errors and info.any():
            _singular_error("linalg.inv", a)
    else:
        try:
            inverse = np.linalg.inv(a)
            info = np.zeros(a.shape[:-2], np.int32)
        except np.linalg.LinAlgError:
            # (PyTorch's inv_ex is solve_ex(A, I): getrs's substitutions through a zero
            # pivot, infinities and NaNs; the invertible matrices of a batch exact; where
            # NumPy's LAPACK met a zero pivot that getrf's steps do not, theirs rule)
            LU, piv, info = _lu_array(a)
            if check_errors and info.any():
                _singular_error("linalg.inv", a)
            inverse = _getrs_array(LU, piv, np.eye(a.shape[-1], dtype=a.dtype)).astype(
                a.dtype, copy=False)
    return _InvExRT(*_finish(INV_EX, (A,), (), (inverse, info)))


@view_errors_before_checks
def inv(A):
    a = _square_float("linalg.inv", A, None)
    if a.size and (not _finite(a) or _lu_mkl(a)):
        return inv_ex(A, check_errors=True)[0]
    inverse = _inv_array(a)
    return _finish(INV_EX, (A,), (), (inverse, np.zeros(a.shape[:-2], np.int32)))[0]


@view_errors_before_checks
def inverse(input):
    return inv(input)


def _solve_is_vector(a, b):
    return b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    a, b = A._data, B._data
    # (_linalg_solve_ex's meta: dtypes, then the shapes; float16 refused by the lu kernel)
    _check_float("linalg.solve", a, low_precision=True)
    if a.dtype != b.dtype:
        raise RuntimeError(f"linalg.solve: Expected A and B to have the same dtype, but found A "
                           f"of type {_type_name(a)} and B of type {_type_name(b)} instead")
    vector = left and _solve_is_vector(a, b)
    bm = b[..., None] if vector else b
    _check_square("linalg.solve", a)
    if bm.ndim < 2:
        raise RuntimeError("linalg.solve: The input tensor B must have at least 2 dimensions.")
    n = a.shape[-1]
    rows = bm.shape[-2] if left else bm.shape[-1]
    if rows != n:
        shape_b = f"{bm.shape[-2]}x{bm.shape[-1]}"
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation {eq} "
                           f"({n}x{n} and {shape_b})")
    _check_float("linalg.solve", a, empty_ok=True)  # (lu_factor of an empty A: no kernel)
    try:
        batch = tuple(np.broadcast_shapes(a.shape[:-2], bm.shape[:-2]))
    except ValueError:
        raise broadcast_error(a.shape[:-2], bm.shape[:-2]) from None
    info = np.zeros(batch, np.int32)
    try:
        if a.size == 0:
            x = np.zeros(batch + bm.shape[-2:], a.dtype)
        elif not (_finite(a) and _finite(bm)) or (_lu_mkl(a) and bm.dtype == a.dtype):
            # (getrf/getrs's infinities and NaNs; Note [float32 LU as MKL's])
            x, info = _solve_getrs(A, np.broadcast_to(bm, batch + bm.shape[-2:]), left)
            if (check_errors or out == "raise") and info.any():
                raise np.linalg.LinAlgError
            info = np.broadcast_to(info, batch).copy()
        elif left:
            x = np.linalg.solve(a, bm)
        else:
            x = np.swapaxes(np.linalg.solve(np.swapaxes(a, -1, -2), np.swapaxes(bm, -1, -2)),
                            -1, -2)
    except np.linalg.LinAlgError:
        # (per matrix, getrf then getrs's substitutions, through a zero pivot too; where
        # NumPy's LAPACK met a zero pivot that getrf's steps here do not, theirs rule)
        LU, piv, info = _lu_array(np.broadcast_to(a, batch + a.shape[-2:]))
        if (check_errors or out == "raise") and info.any():
            prefix = ""
            if batch:  # (PyTorch names the first singular matrix of a batch)
                prefix = f"(Batch element {np.flatnonzero(info)[0]}): "
            raise _LinAlgError(f"torch.linalg.solve: {prefix}The solver failed because the "
                               "input matrix is singular.") from None
        x = _getrs_array(LU, piv, np.broadcast_to(bm, batch + bm.shape[-2:]), left)
        x = x.astype(a.dtype, copy=False)
    if vector:
        x = x[..., 0]
    res = _finish(SOLVE_EX, (A, B), (left, vector), (_asarray(x), info))
    node = res[0]._grad_fn
    if node is not None and (a.shape[:-2] != batch or bm.shape[:-2] != batch):
        set_input_metadata(node, (A, B), (), a.dtype)
    return _SolveExRT(*res)


@view_errors_before_checks
def solve(A, B, *, left=True):
    return solve_ex(A, B, left=left, out="raise")[0]


def _cholesky_array(a, name, check):
    info = np.zeros(a.shape[:-2], np.int32)
    if a.size == 0:
        return a.copy(), info
    try:
        L = np.linalg.cholesky(a)
        if not np.isnan(np.diagonal(L, 0, -2, -1)).any():
            return L, info
    except np.linalg.LinAlgError:
        pass
    flat = a.reshape((-1,) + a.shape[-2:])
    outs = []
    finfo = info.reshape(-1)
    for i, m in enumerate(flat):
        if _is_pd(m):
            outs.append(np.linalg.cholesky(m))
        else:
            order = next(k for k in range(1, m.shape[-1] + 1)
                         if not _is_pd(m[:k, :k]))
            if check:
                raise _LinAlgError(f"{name}: {_batch_prefix(a, i)}The factorization could not "
                                   "be completed because the input is not positive-definite (the "
                                   f"leading minor of order {order} is not positive-definite).") \
                    from None
            finfo[i] = order
            outs.append(_potf2_partial(m, order - 1))
    return np.stack(outs).reshape(a.shape), finfo.reshape(info.shape)


def _potf2_partial(m, j):
    """What LAPACK's unblocked potf2 leaves when column j fails (the lower factor, tril):
    columns before j factored, the failed diagonal entry a_jj - |L[j, :j]|^2 written,
    the rest of A as it was."""
    L = np.tril(m).copy()
    if j:
        L[:, :j] = 0
        L[:j, :j] = np.linalg.cholesky(m[:j, :j])
        L[j:, :j] = _mH_arr(np.linalg.solve(L[:j, :j], _mH_arr(m[j:, :j])))
    r = L[j, :j]
    L[j, j] = m[j, j] - (r * np.conj(r)).sum().real
    return L


def _is_pd(m):
    """potrf succeeds: every diagonal positive and none NaN (Note [Non-finite inputs of
    LAPACK])."""
    try:
        return not np.isnan(np.diagonal(np.linalg.cholesky(m))).any()
    except np.linalg.LinAlgError:
        return False


@view_errors_before_checks
def cholesky_ex(A, *, upper=False, check_errors=False):
    a = _square_float("linalg.cholesky", A, "cholesky_cpu", empty_ok=True)
    # (upper: potrf reads the upper triangle, the lower one of A^H)
    L, info = _cholesky_array(_mH_arr(a) if upper else a, "linalg.cholesky", check_errors)
    L = _mH_arr(L) if upper else L
    return _CholeskyExRT(*_finish(CHOLESKY_EX, (A,), (upper,), (L, info)))


@view_errors_before_checks
def linalg_cholesky(A, *, upper=False):
    return cholesky_ex(A, upper=upper, check_errors=True)[0]


@view_errors_before_checks
def cholesky(input, upper=False):
    if _state.fw and isinstance(input, Tensor):  # (no forward rule: refused before the kernel)
        from ..autograd.forward_ad import refuse_unsupported
        refuse_unsupported(CHOLESKY, input)
    _warn_once(
        "cholesky",
        "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in "
        "a future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = "
        "torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be replaced "
        "with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce equivalent results "
        "for all valid (symmetric positive definite) inputs.")
    if input._data.size == 0:  # (aten's cholesky: empty_like before its checks)
        return _finish(CHOLESKY, (input,), (upper,), input._data.copy())
    a = _square_float("cholesky", input, "cholesky_cpu", ints=True)
    L, _ = _cholesky_array(_mH_arr(a) if upper else a, "cholesky", True)
    L = _mH_arr(L) if upper else L
    return _finish(CHOLESKY, (input,), (upper,), L)


@view_errors_before_checks
def eigh(A, UPLO="L"):
    a = _square_float("linalg.eigh", A, "linalg_eigh_cpu", ints=True, empty_ok=True)
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    w, V = _eigh_np(a, UPLO) if a.size else (
        np.zeros(a.shape[:-1], _real_dtype(a.dtype)), a.copy())
    return _EighRT(*_finish(EIGH, (A,), (UPLO,), (w.astype(_real_dtype(a.dtype)),
                                                   V)))


@view_errors_before_checks
def eigvalsh(A, UPLO="L"):
    a = _square_float("linalg.eigh", A, "linalg_eigh_cpu", ints=True, empty_ok=True)
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    if (_state.enabled and A.requires_grad) or _state.fw or a.size == 0:
        return eigh(A, UPLO)[0]
    return _finish(EIGH, (A,), (UPLO,), (_eigh_np(a, UPLO, False).astype(
        _real_dtype(a.dtype)), np.zeros((0,), a.dtype)))[0]


def _svd_arrays(a, full_matrices):
    m, n = a.shape[-2], a.shape[-1]
    if a.size == 0:
        k = min(m, n)
        bs = a.shape[:-2]
        U = np.zeros(bs + (m, m if full_matrices else k), a.dtype)
        Vh = np.zeros(bs + (n if full_matrices else k, n), a.dtype)
        if full_matrices:
            U[...] = np.eye(m, dtype=a.dtype)
            Vh[...] = np.eye(n, dtype=a.dtype)
        return U, np.zeros(bs + (k,), _real_dtype(a.dtype)), Vh
    U, S, Vh = _svd_np(a, full_matrices=full_matrices)
    return U, S.astype(_real_dtype(a.dtype)), Vh


@view_errors_before_checks
def svd(A, full_matrices=True, *, driver=None):
    a = A._data
    _check_matrix("linalg.svd", a)
    _check_float("linalg.svd", a, kernel="linalg_svd_cpu", empty_ok=True)
    return _SvdRT(*_finish(SVD, (A,), (full_matrices,), _svd_arrays(a, full_matrices)))


@view_errors_before_checks
def svdvals(A, *, driver=None):
    a = A._data
    _check_matrix("linalg.svd", a)
    _check_float("linalg.svd", a, kernel="linalg_svd_cpu", empty_ok=True)
    if _state.enabled and A.requires_grad:
        return svd(A, full_matrices=False)[1]
    rd = _real_dtype(a.dtype)
    S = _svd_np(a, compute_uv=False).astype(rd) if a.size else \
        np.zeros(a.shape[:-2] + (min(a.shape[-2:]),), rd)
    return _make(S) if not _state.fw else _finish(
        SVD, (A,), (False,), _svd_arrays(a, False))[1]


def torch_svd(input, some=True, compute_uv=True):
    """torch.svd: (U, S, V) with V = Vh^H (reduced unless some=False); without uv, S from
    svdvals and zero U (m x m) and Vh (n x n), V their adjoint view, as aten's svd."""
    from .complex_ops import _mH
    nd = input._data.ndim
    if nd < 2:  # (aten's svd checks the rank itself, in its own words)
        raise RuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has {nd} "
                           "dimensions instead")
    if not compute_uv:
        S = svdvals(input)
        a = input._data
        m, n = a.shape[-2:]
        U = _make(np.zeros(a.shape[:-2] + (m, m), a.dtype))
        return _SvdOldRT(U, S, _mH(_make(np.zeros(a.shape[:-2] + (n, n), a.dtype))))
    U, S, Vh = svd(input, full_matrices=not some)
    return _SvdOldRT(U, S, _mH(Vh))


# Note [Householder QR of non-finite matrices]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# Where an infinity or NaN lands in Q and R is decided by the order of LAPACK's arithmetic,
# so a real matrix with one takes geqr2 / org2r's steps here (NumPy's LAPACK keeps the fast
# path for finite ones): reflector i from larfg (beta = -sign(alpha) lapy2(alpha, ||x||),
# tau = (beta - alpha) / beta, x scaled by 1 / (alpha - beta); ||x|| = 0 gives tau = 0),
# applied by larf as C - tau v (C^T v)^T. MKL, behind PyTorch, applies a reflector with
# tau = 0 too (its 0 * inf is NaN: the end run's repro 021), so none is skipped here.
def _larfg(x):
    """(beta, tau, v[1:]) for the column x (LAPACK's dlarfg)."""
    alpha, rest = x[0], x[1:]
    xnorm = np.sqrt((rest * rest).sum()) if rest.size else 0.0
    if rest.size == 0 or xnorm == 0:
        return alpha, np.zeros((), x.dtype), rest
    # (lapy2 as MKL's: no infinity test, inf / inf is NaN; max(|alpha|, ||x||) and min
    # as C's a > b ? a : b, so a NaN alpha gives ||x|| to both; Fortran's SIGN(norm, alpha)
    # is -norm for a NaN alpha)
    a_ = abs(alpha)
    w, z = (a_ if a_ > xnorm else xnorm), (a_ if a_ < xnorm else xnorm)
    norm = w if z == 0 else w * np.sqrt(1 + (z / w) ** 2)
    beta = -norm if alpha >= 0 else norm
    tau = (beta - alpha) / beta
    return beta, tau, rest * (x.dtype.type(1) / (alpha - beta))


def _larf(v, tau, C):
    """C = H C in place (dlarf 'Left'): only v's rows up to its last nonzero entry and C's
    columns up to the last one nonzero in those rows take part."""
    nz = np.nonzero(v)[0]
    lastv = int(nz[-1]) + 1 if nz.size else 0
    if lastv == 0:
        return
    cols = np.nonzero((C[:lastv] != 0).any(0))[0]
    lastc = int(cols[-1]) + 1 if cols.size else 0
    if lastc == 0:
        return
    v = v[:lastv]
    w = v @ C[:lastv, :lastc]
    C[:lastv, :lastc] -= tau * np.multiply.outer(v, w)


def _geqr2(a):
    """One matrix: (the factored matrix, tau) as geqr2 leaves them."""
    a = a.copy()
    m, n = a.shape
    k = min(m, n)
    tau = np.zeros(k, a.dtype)
    for i in range(k):
        beta, tau[i], a[i + 1:, i] = _larfg(a[i:, i])
        if i < n - 1:
            v = np.concatenate([np.ones(1, a.dtype), a[i + 1:, i]])
            C = a[i:, i + 1:]
            C -= tau[i] * np.multiply.outer(v, v @ C)
        a[i, i] = beta
    return a, tau


def _org2r(h, tau, ncols):
    """One matrix: the first ncols columns of Q = H_0 ... H_{k-1} (org2r)."""
    m = h.shape[0]
    k = tau.shape[0]
    Q = np.zeros((m, ncols), h.dtype)
    Q[:, :k] = h[:, :k]
    for j in range(k, ncols):
        Q[:, j] = 0
        Q[j, j] = 1
    for i in range(k - 1, -1, -1):
        if i < ncols - 1:
            Q[i, i] = 1
            _larf(Q[i:, i].copy(), tau[i], Q[i:, i + 1:])
        if i < m - 1:
            Q[i + 1:, i] *= -tau[i]
        Q[i, i] = 1 - tau[i]
        Q[:i, i] = 0
    return Q


def _orm2r(a, tau, c, left, transpose):
    """Batched Q C, Q^T C, C Q or C Q^T of real arrays by orm2r's steps: one larf a
    reflector, in the order orm2r takes them."""
    m = a.shape[-2]
    k = tau.shape[-1]
    batch = c.shape[:-2]
    A = np.broadcast_to(a, batch + a.shape[-2:]).reshape((-1,) + a.shape[-2:])
    T = np.broadcast_to(tau, batch + (k,)).reshape((-1, k))
    out = np.array(c, copy=True).reshape((-1,) + c.shape[-2:])
    order = range(k) if left == transpose else range(k - 1, -1, -1)
    with np.errstate(all="ignore"):
        for A_, t, C in zip(A, T, out):
            for i in order:
                v = np.concatenate([np.ones(1, a.dtype), A_[i + 1:m, i]])
                if left:
                    _larf(v, t[i], C[i:, :])
                else:
                    _larf(v, t[i], C[:, i:].T)
    return out.reshape(c.shape)


def _qr_householder(a, mode):
    """Batched (Q, R) of a real matrix by geqr2 and org2r (Note [Householder QR of
    non-finite matrices])."""
    m, n = a.shape[-2:]
    k = min(m, n)
    flat = a.reshape((-1, m, n))
    qc = m if mode == "complete" else k
    rr = m if mode == "complete" else k
    Qs, Rs = [], []
    with np.errstate(all="ignore"):
        for mat in flat:
            h, tau = _geqr2(mat)
            Rs.append(np.triu(h[:rr] if rr <= m else h))
            if mode != "r":
                Qs.append(_org2r(h, tau, qc))
    R = np.stack(Rs).reshape(a.shape[:-2] + (rr, n))
    Q = np.stack(Qs).reshape(a.shape[:-2] + (m, qc)) if mode != "r" else None
    return Q, R


def _negative_zeros(a):
    """Whether real ``a`` holds a -0.0 (its QR then takes geqr2's steps, which keep a
    zero's sign where no reflection touches it: a 1-row matrix is its own R)."""
    return a.dtype.kind == "f" and bool((np.signbit(a) & (a == 0)).any())


@view_errors_before_checks
def qr(A, mode="reduced"):
    a = A._data
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           "'reduced' (default), 'r', or 'complete'")
    _check_matrix("linalg.qr", a)
    _check_float("linalg.qr", a, kernel="geqrf_cpu")
    if a.size and (not _finite(a) or _negative_zeros(a)):  # (Note [Householder QR of
        # non-finite matrices]; a -0.0 keeps or loses its sign by larfg's steps)
        Q, R = _qr_householder(a, mode)
        if Q is None:
            Q = np.zeros((0,), a.dtype)
    elif mode == "r":
        R = np.linalg.qr(a, mode="r") if a.size else np.zeros(
            a.shape[:-2] + (min(a.shape[-2:]), a.shape[-1]), a.dtype)
        Q = np.zeros((0,), a.dtype)
    else:
        Q, R = np.linalg.qr(a, mode=mode)
    return _QrRT(*_finish(QR, (A,), (mode,), (Q, R)))


@view_errors_before_checks
def pinv(A, *, atol=None, rtol=None, hermitian=False, rcond=None):
    a = A._data
    if a.ndim < 2 or a.dtype.kind not in "fc" or a.dtype.itemsize < 4:
        raise RuntimeError(f"linalg.pinv({_type_name(a)}{{[{_errors.shape_str(a.shape)}]}}): "
                           "expected a tensor with 2 or more dimensions of float, double, cfloat "
                           "or cdouble types")
    if hermitian and a.size:  # (linalg_eigh's check; an empty input returns first)
        _check_square("linalg.eigh", a)
    if rcond is not None:
        rtol = rcond
    if isinstance(atol, Tensor) or isinstance(rtol, Tensor):
        atol = None if atol is None else (atol._data if isinstance(atol, Tensor) else atol)
        rtol = None if rtol is None else (rtol._data if isinstance(rtol, Tensor) else rtol)
    out = _pinv_array(a, atol, rtol, hermitian)
    return _finish(PINV, (A,), (atol, rtol, hermitian), out)


def pinverse(input, rcond=1e-15):
    return pinv(input, rtol=rcond)


@view_errors_before_checks
def matrix_exp(A):
    a = A._data
    _check_square("linalg.matrix_exp", a)
    if a.dtype.kind not in "fV" or a.dtype.itemsize >= 4:
        _check_float("linalg.matrix_exp", a)
        return _finish(MATRIX_EXP, (A,), (), _matrix_exp_array(a))
    out = _matrix_exp_array(a.astype(np.float32)).astype(a.dtype)  # (PyTorch has half too)
    return _finish(MATRIX_EXP, (A,), (), out)


@view_errors_before_checks
def solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    a, b = A._data, B._data
    _check_square("linalg.solve_triangular", a)  # (checkInputsSolver: A, then B)
    _check_matrix("linalg.solve_triangular", b, "B")
    n = a.shape[-1]
    if (b.shape[-2] if left else b.shape[-1]) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the "
                           f"equation {eq} ({n}x{n} and {b.shape[-2]}x{b.shape[-1]})")
    # (no float check before the kernel: its dispatch, on A's dtype, refuses the rest; B is
    # copied into a result of A's dtype)
    _check_float("linalg.solve_triangular", a, kernel="triangular_solve_cpu", ints=True)
    cast = b.dtype != a.dtype
    if cast:
        b = (b.real if b.dtype.kind == "c" and a.dtype.kind != "c" else b).astype(a.dtype)
    with np.errstate(all="ignore"):
        x = _solve_tri_array(a, b, upper, left, unitriangular)
    res = _finish_la(SOLVE_TRIANGULAR, (A, B), (upper, left, unitriangular), _asarray(x))
    if cast and res._grad_fn is not None:  # (B's gradient cast back to its dtype)
        set_input_metadata(res._grad_fn, (A, B), (), a.dtype)
    return res


@view_errors_before_checks
def lstsq(A, B, rcond=None, *, driver=None):
    """aten's linalg_lstsq: its checks in order (B a vector as linalg.solve's), then
    LAPACK's drivers' outputs: rank for all but gels, singular values for gelsd/gelss,
    residuals when m > n for all but gelsy (gelsd/gelss: only when every matrix has rank
    n), never squeezed. Empty matrices: LAPACK's quick returns (a zero solution; gels
    zeroes B, so its residuals are 0, the others' sum(B**2))."""
    a, b = A._data, B._data
    if a.ndim < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if b.ndim < 1:
        raise RuntimeError("torch.linalg.lstsq: other must have at least 1 dimension.")
    if a.dtype != b.dtype:
        raise RuntimeError(f"torch.linalg.lstsq: Expected input and other to have the same "
                           f"dtype, but got input's dtype {_type_name(a)} and other's dtype "
                           f"{_type_name(b)}")
    if not 0 <= a.ndim - b.ndim <= 1:
        raise RuntimeError("torch.linalg.lstsq: input.dim() must be greater or equal to "
                           "other.dim() and (input.dim() - other.dim()) <= 1")
    vector = _solve_is_vector(a, b)
    bm = b[..., None] if vector else b
    if a.shape[-2] != bm.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size("
                           f"{-1 if vector else -2})")
    driver = driver or "gelsy"
    if driver not in ("gels", "gelsy", "gelsd", "gelss"):
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, "
                           "gelsy, gelsd, gelss)")
    if a.dtype.kind not in "fc" or a.dtype.itemsize < 4:
        raise RuntimeError("This function doesn't handle types other than float and double")
    _no_complex_grad("linalg.lstsq", A, B)
    if a.ndim - b.ndim == 1 and not vector:  # (a matrix B one dim short: its batch is
        try:                                  # taken as B.shape[:-1])
            np.broadcast_shapes(a.shape[:-2], b.shape[:-1])
        except ValueError:
            raise broadcast_error(a.shape[:-2], b.shape[:-1]) from None
    try:
        batch = tuple(np.broadcast_shapes(a.shape[:-2], bm.shape[:-2]))
    except ValueError:
        raise broadcast_error(a.shape[:-2], bm.shape[:-2]) from None
    rd = _real_dtype(a.dtype)
    m, n = a.shape[-2:]
    k = bm.shape[-1]
    nb = int(np.prod(batch))
    aa = np.broadcast_to(a, batch + (m, n)).reshape((nb, m, n))
    bb = np.broadcast_to(bm, batch + (m, k)).reshape((nb, m, k))
    if rcond is None:
        rcond = np.finfo(a.dtype).eps * max(m, n)
    X = np.zeros((nb, n, k), a.dtype)
    ranks = np.zeros(nb, np.int64)
    svals = np.zeros((nb, min(m, n)), rd)
    if m and n:
        for i in range(nb):  # (Note [Non-finite inputs of LAPACK]: MKL's argument checks)
            arg = 4 if np.isnan(aa[i]).any() else 6 if np.isnan(bb[i]).any() else 0
            if arg:
                raise RuntimeError(
                    "false INTERNAL ASSERT FAILED at \"/__w/pytorch/pytorch/aten/src/ATen/native"
                    "/BatchLinearAlgebra.cpp\":1613, please report a bug to PyTorch. torch.linalg"
                    f".lstsq: {_batch_prefix(aa.reshape(batch + (m, n)), i)}Argument "
                    f"{arg + (driver == 'gels')} has illegal value. Most certainly there is a bug "
                    "in the implementation calling the backend library.")
        for i in range(nb):
            if min(m, n) >= 3 and not np.isfinite(aa[i]).all():
                # (OpenBLAS's gelsd never returns on some: Note [SVD as PyTorch's gesdd];
                # NumPy's error where it does return)
                raise np.linalg.LinAlgError("SVD did not converge in Linear Least Squares")
            X[i], _, ranks[i], sv = np.linalg.lstsq(aa[i], bb[i], rcond=rcond)
            svals[i] = sv
    X = X.reshape(batch + (n, k))
    if m > n and driver != "gelsy" and (driver == "gels" or (ranks == n).all()):
        if driver == "gels" and (n == 0 or k == 0):
            res = np.zeros(batch + (k,), rd)  # (dgels's quick return zeroes B)
        else:
            R = np.matmul(aa, X.reshape((nb, n, k))) - bb
            res = (R.real ** 2 + R.imag ** 2 if R.dtype.kind == "c" else R * R).sum(-2)
            res = res.reshape(batch + (k,)).astype(rd)
    else:
        res = np.zeros((0,), rd)
    rank = ranks.reshape(batch) if driver != "gels" else np.zeros((0,), np.int64)
    sv = (svals.reshape(batch + (min(m, n),)) if driver in ("gelsd", "gelss")
          else np.zeros((0,), rd))
    if vector:
        X = X[..., 0]
    out = _finish(LSTSQ, (A, B), (vector,), (_asarray(X.astype(a.dtype, copy=False)),
                                             _asarray(res), rank, sv))
    node = out[0]._grad_fn
    if node is not None:
        set_input_metadata(node, (A, B), (), a.dtype)
    return _LstsqRT(*out)


def matrix_rank(A, *, atol=None, rtol=None, hermitian=False, tol=None):
    a = A._data
    if a.ndim < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least "
                           "2 dimensions.")
    if a.dtype.kind not in "fc" or a.dtype.itemsize < 4:  # (its tolerances' epsilon)
        raise RuntimeError("This function doesn't handle types other than float and double")
    if tol is not None:
        atol, rtol = tol, 0.0
    m, n = a.shape[-2:]
    if a.size == 0:  # (rank 0, before the decomposition's checks)
        return _make(np.zeros(a.shape[:-2], np.int64))
    view_errors_first(A)  # (PyTorch's svdvals / eigvalsh of A: autograd sees A there)
    if hermitian:
        _check_square("linalg.eigh", a)
    s = np.abs(_eigh_np(a, vectors=False)) if hermitian else _svd_np(a, compute_uv=False)
    smax = s.max(-1, keepdims=True)
    if rtol is None:
        rtol = np.finfo(a.dtype).eps * max(m, n) if atol is None or atol == 0 else 0.0
    atol_ = atol._data if isinstance(atol, Tensor) else (0.0 if atol is None else atol)
    rtol_ = rtol._data if isinstance(rtol, Tensor) else rtol
    tol_ = np.maximum(np.asarray(atol_)[..., None] if np.ndim(atol_) else atol_,
                      (np.asarray(rtol_)[..., None] if np.ndim(rtol_) else rtol_) * smax)
    return _make(np.asarray((s > tol_).sum(-1), np.int64))


def _wrap_dims(dim, nd):
    return tuple(_wrap_dim_n(d, nd) for d in dim)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    from .reduction import _vector_norm
    if isinstance(dim, int):
        dim = (dim,)
    return _vector_norm(x, float(ord) if not isinstance(ord, str) else ord, dim, keepdim,
                        dtype=dtype)


def _cpp_double(x):
    """A number as C++'s ostream writes a double (6 significant digits: 3, 2.5, inf)."""
    return "%g" % x


def _matrix_norm_checks(A, ord, dim, dtype):
    """aten's linalg_matrix_norm checks, in its order: the order, A (a matrix of a floating
    dtype; float16/bfloat16 refused for the SVD-based orders 2, -2 and 'nuc'), dim (a
    2-tuple of different dims), dtype=. Returns the wrapped dims."""
    if ord not in ("fro", "nuc") and (isinstance(ord, str) or abs(ord) not in (
            1, 2, float("inf"))):
        shown = ord if isinstance(ord, str) else _cpp_double(ord)
        raise RuntimeError(f"linalg.matrix_norm: Order {shown} not supported.")
    a = A._data
    _check_matrix("linalg.matrix_norm", a)
    _check_float("linalg.matrix_norm", a, kernel=None,
                 low_precision=ord not in ("nuc", 2, -2))
    dim = (dim,) if isinstance(dim, int) else tuple(dim)
    if len(dim) != 2:
        raise RuntimeError("linalg.matrix_norm: dim must be a 2-tuple. Got "
                           + " ".join(str(x) for x in dim))
    d0, d1 = _wrap_dims(dim, a.ndim)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({d0}, {d1})")
    if dtype is not None:
        from .reduction import _norm_dtype_data
        try:
            _norm_dtype_data(a, dtype)
        except RuntimeError as e:
            raise RuntimeError(str(e).replace("linalg.vector_norm", "linalg.matrix_norm")) \
                from None
    return d0, d1


def _max_min(r, dim, keepdim, largest, dtype):
    """amax/amin of the norms along dim; the amax of none is 0, a fresh tensor without
    history (PyTorch 2.13's matrix norms of an empty matrix for a positive order), the amin
    of none raises amin's error."""
    from .reduction import amax, amin
    rd = r._data
    if largest and rd.shape[dim] == 0:
        shape = list(rd.shape)
        if keepdim:
            shape[dim] = 1
        else:
            del shape[dim]
        return _make(np.zeros(shape, rd.dtype))
    return (amax if largest else amin)(r, dim, keepdim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    from .reduction import sum as _sum
    d0, d1 = _matrix_norm_checks(A, ord, dim, dtype)
    a = A._data
    if ord == "fro":  # (dtype= computed by the one vector-norm node, as PyTorch's)
        return vector_norm(A, 2, (d0, d1), keepdim, dtype=dtype)
    if ord in (1, -1, float("inf"), float("-inf")):
        if ord in (1, -1):
            first, second = d0, d1
        else:
            first, second = d1, d0
        if not keepdim and first < second:
            second -= 1
        r = vector_norm(A, 1, (first,), keepdim, dtype=dtype)
        return _max_min(r, second, keepdim, ord > 0, dtype)
    if dtype is not None:
        from .pointwise import to
        A = to(A, dtype)
    perm = [i for i in range(a.ndim) if i not in (d0, d1)] + [d0, d1]
    S = svdvals(permute(A, perm))
    if ord == "nuc":
        r = _sum(S, -1, keepdim)
    else:
        r = _max_min(S, -1, keepdim, ord == 2, dtype)
    if keepdim:
        inv_perm = [0] * a.ndim
        for i, p_ in enumerate(perm):
            inv_perm[p_] = i
        r = permute(unsqueeze(r, -1), inv_perm) if r._data.ndim < a.ndim else permute(
            r, inv_perm)
    return r


def linalg_norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """aten's linalg_norm: a string order is a matrix norm (over dims (0, 1) when dim is
    not given); a number over two dims (given, or of a 2-d input) too; the rest a vector
    norm (ord=None: the 2-norm, which is Frobenius's)."""
    a = A._data
    if dim is not None:
        dim = (dim,) if isinstance(dim, int) else tuple(dim)
        if len(dim) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. "
                               f"Got [{', '.join(str(d) for d in dim)}]")
    elif ord is not None and a.ndim not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be "
                           f"1D or 2D. Got {a.ndim}D.")
    if isinstance(ord, str):
        return matrix_norm(A, ord, (0, 1) if dim is None else dim, keepdim, dtype=dtype)
    if ord is not None and (len(dim) == 2 if dim is not None else a.ndim == 2):
        return matrix_norm(A, ord, (0, 1) if dim is None else dim, keepdim, dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


def _cond_name(p):
    if isinstance(p, str):
        return p
    if isinstance(p, float) and abs(p) != float("inf"):
        return f"{p:f}"  # (std::to_string of a double)
    return str(p) if not isinstance(p, float) else ("inf" if p > 0 else "-inf")


def cond(A, p=None):
    """aten's linalg_cond: 2 and -2 from the singular values (a non-square matrix too);
    1, -1, inf, -inf, 'fro' and 'nuc' of square matrices (checked with the order in the
    op's name), norm(A) * norm(inv(A)) where inv_ex's failures are infinite inverses
    (masked_fill_ of inv_ex's result, so a gradient asks for the overwritten inverse:
    PyTorch's version error) and 0 * inf is inf (nan_to_num_); 'nuc' as sum(S) * sum(1/S).
    Empty matrices have condition number 0."""
    from .indexing import masked_fill_
    from .pointwise import div, nan_to_num_, reciprocal
    from .reduction import sum as _sum
    a = A._data
    if not isinstance(p, str):
        if a.ndim < 2:
            raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
        if p is None:
            p = 2
        if abs(p) not in (1, 2, float("inf")):
            raise RuntimeError(f"linalg.cond got an invalid norm type: {_cpp_double(p)}")
    elif p not in ("fro", "nuc"):
        _check_square(f"linalg.cond(ord={p})", a)
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    if isinstance(p, str) or abs(p) != 2:
        if isinstance(p, str) or a.size:
            _check_square(f"linalg.cond(ord={_cond_name(p)})", a)
    if a.size == 0:
        rd = a.dtype if a.dtype.kind not in "c" else _real_dtype(a.dtype)
        return _make(np.zeros(a.shape[:-2], rd))
    if p == "nuc":
        S = svdvals(A)
        return _sum(S, -1) * _sum(reciprocal(S), -1)
    if not isinstance(p, str) and abs(p) == 2:
        S = svdvals(A)
        n = S._data.shape[-1]
        big = narrow(S, -1, 0, 1)
        small = narrow(S, -1, n - 1, 1)
        r = div(big, small) if p == 2 else div(small, big)
        return squeeze(r, -1)
    inverse, info = inv_ex(A)
    info = unsqueeze(unsqueeze(info, -1), -1)
    masked_fill_(inverse, _make(info._data > 0), float("inf"))
    r = matrix_norm(A, p) * matrix_norm(inverse, p)
    return nan_to_num_(r, float("inf"), float("inf"), float("-inf"))


def tensorinv(A, ind=2):
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    shape = A._data.shape
    if ind > len(shape):  # (aten's sizes().slice(ind))
        raise RuntimeError(f"ArrayRef: invalid slice, N = {ind}; size = {len(shape)}")
    out_shape = shape[ind:] + shape[:ind]
    rows = int(np.prod(shape[:ind]))
    cols = int(np.prod(shape[ind:]))
    if rows != cols:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {cols} != {rows}")
    m = reshape(A, (rows, cols))
    a = _square_float("linalg.inv", m, None)
    if a.size:
        try:
            np.linalg.inv(a)
        except np.linalg.LinAlgError:
            _singular_error("inv", a)  # (at::inverse's words)
    return reshape(inv(m), out_shape)


def tensorsolve(A, B, dims=None):
    a_nd = A._data.ndim
    if dims is not None:
        dims = [d % a_nd for d in dims]
        rest = [i for i in range(a_nd) if i not in dims]
        A = permute(A, rest + dims)
    shape = A._data.shape
    bn = B._data.ndim
    if bn > len(shape):  # (aten's sizes().slice(other.dim(), ndim - other.dim()))
        raise RuntimeError("cannot create std::vector larger than max_size()")
    result_shape = shape[bn:]
    n = int(np.prod(result_shape))
    nb = int(np.prod(B._data.shape))
    if n != nb:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[other.ndim:])"
                           f" == prod(self.shape[:other.ndim]), but got {n} != {nb}")
    return reshape(solve(reshape(A, (n, n)), reshape(B, (-1,))), result_shape)


def linalg_diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return diagonal(A, offset, dim1, dim2)


def linalg_matrix_power(A, n):
    return matrix_power(A, n)


# ---- named results (torch.return_types) -----------------------------------------------------
_SlogdetRT = _named_result("linalg_slogdet", ("sign", "logabsdet"))
_InvExRT = _named_result("linalg_inv_ex", ("inverse", "info"))
_SolveExRT = _named_result("linalg_solve_ex", ("result", "info"))
_CholeskyExRT = _named_result("linalg_cholesky_ex", ("L", "info"))
_EighRT = _named_result("linalg_eigh", ("eigenvalues", "eigenvectors"))
_SvdRT = _named_result("linalg_svd", ("U", "S", "Vh"))
_SvdOldRT = _named_result("svd", ("U", "S", "V"))
_QrRT = _named_result("linalg_qr", ("Q", "R"))
_LstsqRT = _named_result("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))
_SlogdetOldRT = _named_result("slogdet", ("sign", "logabsdet"))


def torch_slogdet(input):
    return _SlogdetOldRT(*slogdet(input))


# ---- the formula namespace's matrix functions (Note [Linear-algebra formulas]) -------------
def _inv_raw(a):
    return np.linalg.inv(a)


_LA_RAW = _NS(inv=_inv_raw, solve=lambda a, b: np.linalg.solve(a, b),
              solve_triangular=lambda a, b, upper, left, unitriangular=False:
                  _solve_tri_array(a, b, upper, left, unitriangular),
              matrix_exp=_matrix_exp_array, cross=lambda a, b, dim: np.cross(a, b, axis=dim),
              pinv=_pinv_array)
_LA_TENSOR = _NS(inv=inv, solve=lambda a, b: solve(a, b),
                 solve_triangular=lambda a, b, upper, left, unitriangular=False:
                     solve_triangular(a, b, upper=upper, left=left, unitriangular=unitriangular),
                 matrix_exp=matrix_exp, cross=lambda a, b, dim: linalg_cross(a, b, dim=dim),
                 pinv=lambda a: pinv(a))


# ---- einsum (PyTorch's algorithm, so the graph and the rounding match) ----------------------
# Note [einsum]
# ~~~~~~~~~~~~~
# As aten's einsum (Linear.cpp): every operand is brought to one layout (output labels,
# then the ellipsis if it is contracted, then contraction labels; a repeated label taken
# as a diagonal, missing labels unsqueezed), then operands are contracted left to right by
# ``_sumproduct_pair`` (permute, reshape to a batch of matrices, one bmm, view, permute
# back), summing a dimension as soon as no later operand has it. PyTorch only changes
# this order when the optional opt_einsum package is installed.
_ELL = 52


def _label_index(c):
    return ord(c) - ord("A") if c.isupper() else 26 + ord(c) - ord("a")


def _label_char(s):
    return chr(ord("A") + s) if s < 26 else chr(ord("a") + s - 26)


def _sumproduct_pair(left, right, sum_dims):
    from .reduction import sum as _sum
    if not sum_dims:
        return mul(left, right)
    nd = left._data.ndim
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(nd):
        sl, sr = left._data.shape[i] != 1, right._data.shape[i] != 1
        if i in sum_dims:
            if sl and sr:
                if left._data.shape[i] != right._data.shape[i]:
                    raise RuntimeError("non-broadcast dimensions must match")
                sum_size *= left._data.shape[i]
            elif sl:
                left = _sum(left, i, True)
            elif sr:
                right = _sum(right, i, True)
        elif sl and sr:
            if left._data.shape[i] != right._data.shape[i]:
                raise RuntimeError("non-broadcast dimensions must match")
            lro.append(i)
            lro_size *= left._data.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left._data.shape[i]
        else:
            ro.append(i)
            ro_size *= right._data.shape[i]
    out_size = ([left._data.shape[d] for d in lro] + [left._data.shape[d] for d in lo]
                + [1] * len(sum_dims) + [right._data.shape[d] for d in ro])
    lperm = lro + lo + list(sum_dims) + ro
    rperm = lro + list(sum_dims) + ro + lo
    operm = [0] * len(lperm)
    for i, d in enumerate(lro + lo + list(sum_dims) + ro):
        operm[d] = i
    left = reshape(permute(left, lperm), (lro_size, lo_size, sum_size))
    right = reshape(permute(right, rperm), (lro_size, sum_size, ro_size))
    return permute(view(bmm(left, right), tuple(out_size)), operm)


def _einsum_sublist(args):
    """einsum(op1, [0, 1], op2, [1, 2], [0, 2]) -> ("ab,bc->ac", ops)."""
    def letters(sub):
        return "".join("..." if s is Ellipsis else _label_char(s) for s in sub)
    ops, subs = list(args[0::2]), [letters(s) for s in args[1::2]]
    out = None
    if len(args) % 2 == 1:
        out = letters(args[-1])
        ops = ops[:len(subs)]
    eq = ",".join(subs[:len(ops)]) + ("" if out is None else "->" + out)
    return eq, ops


def einsum(*args):
    """Einstein summation, recorded as PyTorch's decomposition (Note [einsum])."""
    from .reduction import sum as _sum
    from .shape import movedim
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if isinstance(args[0], Tensor):
        equation, operands = _einsum_sublist(args)
    else:
        equation, *operands = args
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            operands = list(operands[0])
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    num_ops = len(operands)
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    op_labels = [[] for _ in range(num_ops)]
    ell_in_input = False
    cur = 0
    i = 0
    while i < len(lhs):
        c = lhs[i]
        if c == " ":
            pass
        elif c == ".":
            if ell_in_input:
                raise RuntimeError(f"einsum(): found '.' for operand {cur} for which an ellipsis "
                                   "was already found")
            if not (i + 2 < len(lhs) + 0 and lhs[i + 1:i + 3] == ".."):
                raise RuntimeError(f"einsum(): found '.' for operand {cur} that is not part of "
                                   "any ellipsis")
            i += 2
            op_labels[cur].append(_ELL)
            ell_in_input = True
        elif c == ",":
            cur += 1
            if cur >= num_ops:
                raise RuntimeError("einsum(): fewer operands were provided than specified in "
                                   "the equation")
            ell_in_input = False
        else:
            if not (c.isascii() and c.isalpha()):
                raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the "
                                   "equation string, subscripts must be in [a-zA-Z]")
            op_labels[cur].append(_label_index(c))
        i += 1
    if cur != num_ops - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation")
    label_count = [0] * 52
    ell_num_dim = 0
    for k, (op, labels) in enumerate(zip(operands, op_labels)):
        ndims = op._data.ndim
        nlabels = len(labels)
        has_ell = _ELL in labels
        if has_ell:
            nlabels -= 1
            ell_num_dim = _py_max(ell_num_dim, ndims - nlabels)
        for s in labels:
            if s != _ELL:
                label_count[s] += 1
        if (nlabels > ndims) if has_ell else (nlabels != ndims):
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({nlabels}) "
                               f"does not match the number of dimensions ({ndims}) for operand "
                               f"{k}{'' if has_ell else ' and no ellipsis was given'}")
    label_perm = [-1] * 52
    perm_index = ell_index = 0
    ell_in_output = False
    if arrow < 0:
        perm_index = ell_num_dim
        ell_in_output = True
        for s in range(52):
            if label_count[s] == 1:
                label_perm[s] = perm_index
                perm_index += 1
    else:
        rhs = equation[arrow + 2:]
        i = 0
        while i < len(rhs):
            c = rhs[i]
            if c == " ":
                pass
            elif c == ".":
                if ell_in_output:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was "
                                       "already found")
                if not (i + 2 < len(rhs) + 0 and rhs[i + 1:i + 3] == ".."):
                    raise RuntimeError("einsum(): found '.' for output that is not part of any "
                                       "ellipsis (...)")
                i += 2
                ell_index = perm_index
                perm_index += ell_num_dim
                ell_in_output = True
            else:
                if not (c.isascii() and c.isalpha()):
                    raise RuntimeError(f"einsum(): invalid subscript given at index "
                                       f"{len(lhs) + 2 + i} in the equation string, subscripts "
                                       "must be in [a-zA-Z]")
                s = _label_index(c)
                if not (label_count[s] > 0 and label_perm[s] == -1):
                    why = (" appears more than once in the output" if label_perm[s] > -1 else
                           " does not appear in the equation for any input operand")
                    raise RuntimeError(f"einsum(): output subscript {c}{why}")
                label_perm[s] = perm_index
                perm_index += 1
            i += 1
    out_num_dim = perm_index
    if not ell_in_output:
        ell_index = perm_index
        perm_index += ell_num_dim
    for s in range(52):
        if label_count[s] > 0 and label_perm[s] == -1:
            label_perm[s] = perm_index
            perm_index += 1
    label_size = [1] * 52
    ell_sizes = [1] * ell_num_dim
    dim_counts = [0] * perm_index
    ops = []
    for k, op in enumerate(operands):
        permutation = [-1] * perm_index
        dim = 0
        labels = op_labels[k]
        for s in labels:
            shape = op._data.shape
            if s == _ELL:
                ndim = operands[k]._data.ndim - (len(labels) - 1)
                for j in range(ell_num_dim - ndim, ell_num_dim):
                    if shape[dim] != 1:
                        if ell_sizes[j] not in (1, shape[dim]):
                            raise RuntimeError("einsum(): operands do not broadcast with "
                                               "remapped shapes (original->remapped)")
                        ell_sizes[j] = shape[dim]
                        dim_counts[ell_index + j] += 1
                    permutation[ell_index + j] = dim
                    dim += 1
            elif permutation[label_perm[s]] == -1:
                if shape[dim] != 1:
                    if label_size[s] not in (1, shape[dim]):
                        raise RuntimeError(
                            f"einsum(): subscript {_label_char(s)} has size {shape[dim]} for "
                            f"operand {k} which does not broadcast with previously seen size "
                            f"{label_size[s]}")
                    label_size[s] = shape[dim]
                    dim_counts[label_perm[s]] += 1
                permutation[label_perm[s]] = dim
                dim += 1
            else:
                prev = permutation[label_perm[s]]
                if shape[dim] != shape[prev]:
                    raise RuntimeError(
                        f"einsum(): subscript {_label_char(s)} is repeated for operand {k} but "
                        f"the sizes don't match, {shape[dim]} != {shape[prev]}")
                op = movedim(diagonal(op, 0, prev, dim), -1, prev)
        for p_ in range(perm_index):
            if permutation[p_] == -1:
                op = unsqueeze(op, dim)
                permutation[p_] = dim
                dim += 1
        ops.append(permute(op, permutation))
    while len(ops) > 1:
        a, b = ops[0], ops[1]
        del ops[:2]
        sum_dims, a_sum, b_sum = [], [], []
        for d in range(out_num_dim, perm_index):
            sa, sb = a._data.shape[d] != 1, b._data.shape[d] != 1
            if sa and sb:
                dim_counts[d] -= 1
                if dim_counts[d] == 1:
                    sum_dims.append(d)
                    dim_counts[d] = 0
            elif dim_counts[d] == 1:
                if sa:
                    a_sum.append(d)
                    dim_counts[d] = 0
                elif sb:
                    b_sum.append(d)
                    dim_counts[d] = 0
        if a_sum:
            a = _sum(a, a_sum, True)
        if b_sum:
            b = _sum(b, b_sum, True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))
    if perm_index - out_num_dim > 0:
        if num_ops > 1:
            return view(ops[0], ops[0]._data.shape[:out_num_dim])
        return _sum(ops[0], list(range(out_num_dim, perm_index)))
    return ops[0]


# ---- LU (lu_factor, lu, lu_solve, lu_unpack) ------------------------------------------------
def _perm_matrix(pivots, m, dtype):
    """P with A = P L U from LAPACK's 1-based row interchanges."""
    batch = pivots.shape[:-1]
    perm = np.broadcast_to(np.arange(m), batch + (m,)).copy()
    for i in range(pivots.shape[-1]):
        j = pivots[..., i].astype(np.int64) - 1
        a = np.take_along_axis(perm, np.full(batch + (1,), i), -1)
        b = np.take_along_axis(perm, j[..., None], -1)
        np.put_along_axis(perm, np.full(batch + (1,), i), b, -1)
        np.put_along_axis(perm, j[..., None], a, -1)
    P = np.zeros(batch + (m, m), dtype)
    np.put_along_axis(P, perm[..., :, None], 1, -1)  # P_row[i, perm[i]] = 1
    return np.swapaxes(P, -1, -2)


def _unpack_arrays(LU, pivots):
    m, n = LU.shape[-2], LU.shape[-1]
    k = min(m, n)
    L = np.tril(LU[..., :, :k], -1) + np.eye(m, k, dtype=LU.dtype)
    U = np.triu(LU[..., :k, :])
    return _perm_matrix(pivots, m, LU.dtype), L, U


def _lu_backward(F, gL, gU, P, L, U, pivot):
    if gL is None and gU is None:
        return None
    la = _la(F)
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    if m == n:
        gA = F.tril(F.matmul(_H(F, L), gL), -1) if gL is not None else None
        if gU is not None:
            t_ = F.triu(F.matmul(gU, _H(F, U)))
            gA = t_ if gA is None else gA + t_
        gA = la.solve_triangular(_H(F, U), gA, False, False)
        gA = la.solve_triangular(_H(F, L), gA, True, True, True)
    elif m < n:
        U1 = _narrow(F, U, -1, 0, k)
        gA = F.matmul(_H(F, L), gL) if gL is not None else None
        if gU is not None:
            t_ = F.matmul(F.triu(gU), _H(F, U))
            gA = -t_ if gA is None else gA - t_
        gA = la.solve_triangular(_H(F, U1), F.tril(gA, -1), False, False)
        if gU is not None:
            gA = F.cat([gA + F.triu(_narrow(F, gU, -1, 0, k)), _narrow(F, gU, -1, k, n - k)], -1)
        gA = la.solve_triangular(_H(F, L), gA, True, True, True)
        if gU is None:
            gA = F.cat([gA, F.zeros_like(_narrow(F, U, -1, k, n - k))], -1)
    else:
        L1 = _narrow(F, L, -2, 0, k)
        gA = F.matmul(gU, _H(F, U)) if gU is not None else None
        if gL is not None:
            t_ = F.matmul(_H(F, L), F.tril(gL, -1))
            gA = -t_ if gA is None else gA - t_
        gA = la.solve_triangular(_H(F, L1), F.triu(gA), True, True, True)
        if gL is not None:
            gA = F.cat([gA + F.tril(_narrow(F, gL, -2, 0, k), -1),
                        _narrow(F, gL, -2, k, m - k)], -2)
        gA = la.solve_triangular(_H(F, U), gA, False, False)
        if gL is None:
            gA = F.cat([gA, F.zeros_like(_narrow(F, L, -2, k, m - k))], -2)
    return F.matmul(P, gA) if pivot else gA


def _lu_factor_backward(F, grads, LU, pivots, pivot):
    g = grads[0]
    if g is None:
        return None
    P, L, U = _unpack_formula(F, LU, pivots)
    m, n = LU.shape[-2], LU.shape[-1]
    k = min(m, n)
    return _lu_backward(F, _narrow(F, g, -1, 0, k), _narrow(F, g, -2, 0, k), P, L, U, pivot)


def _unpack_formula(F, LU, pivots):
    """(P, L, U) of a packed LU in formula terms (P a constant)."""
    m, n = LU.shape[-2], LU.shape[-1]
    k = min(m, n)
    piv = pivots._data if isinstance(pivots, Tensor) else pivots
    P = F.constant(_perm_matrix(piv, m, np.float64), LU)
    L = F.tril(_narrow(F, LU, -1, 0, k), -1) + F.constant(np.eye(m, k), LU)
    U = F.triu(_narrow(F, LU, -2, 0, k))
    return P, L, U


def _lu_solve_backward_LU(F, gX, LU, pivots, X, left, adjoint):
    P, L, U = _unpack_formula(F, LU, pivots)
    la = _la(F)
    if left != adjoint:
        gR = la.solve_triangular(_H(F, U), -F.matmul(gX if left else _H(F, gX),
                                                      _H(F, X) if left else X), False, True)
        gL = F.tril(la.solve_triangular(_H(F, L), F.matmul(gR, _H(F, U)), True, True, True), -1)
        return gL + F.triu(gR)
    gR = -F.matmul(F.matmul(F.matmul(_H(F, P), X if left else _H(F, X)),
                            _H(F, gX) if left else gX), P)
    gR = la.solve_triangular(_H(F, L), gR, True, False, True)
    gU = F.triu(la.solve_triangular(_H(F, U), F.matmul(_H(F, L), gR), False, False))
    return F.tril(gR, -1) + gU


def _lu_solve_array(LU, pivots, B, left, adjoint):
    if LU.dtype.kind == "f" and not (_finite(LU) and _finite(B)):
        # (getrs's interchanges and substitutions: where PyTorch's infinities and NaNs land)
        with np.errstate(all="ignore"):
            if left:
                return _lu_solve_f(raw.RAW, LU, pivots, adjoint, B)
            return np.swapaxes(_lu_solve_f(raw.RAW, LU, pivots, not adjoint,
                                           np.swapaxes(B, -1, -2)), -1, -2)
    P, L, U = _unpack_arrays(LU, pivots)
    A = P @ L @ U
    if left:
        return np.linalg.solve(_mH_arr(A) if adjoint else A, B)
    At = np.conj(A) if adjoint else np.swapaxes(A, -1, -2)  # X A = B  <=>  A^T X^T = B^T
    return np.swapaxes(np.linalg.solve(At, np.swapaxes(B, -1, -2)), -1, -2)


LU_FACTOR_EX = defop("linalg_lu_factor_ex", "LinalgLuFactorExBackward0", None, inputs=("A",),
                     params=("pivot",), outputs=("LU", "pivots", "info"), diff_outputs=(0,),
                     layout=_LAPACK_INFO,
                     grads={"A": lambda F, grads, pivot, LU, pivots:
                            _lu_factor_backward(F, grads, LU, pivots, pivot)},
                     jvp="transpose")
LU = defop("linalg_lu", "LinalgLuBackward0", None, inputs=("A",), params=("pivot",),
           outputs=("P", "L", "U"), diff_outputs=(1, 2), layout="contiguous",
           grads={"A": lambda F, grads, pivot, P, L, U:
                  _lu_backward(F, grads[1], grads[2], P, L, U, pivot)},
           jvp=lambda F, A_t, pivot, P, L, U: (None,) + _jvp_multi(
               F, lambda F, g, pv, p, l_, u: (_lu_backward(F, g[0], g[1], p, l_, u, pv),),
               (A_t,), (L, U), pivot, P, L, U))
LU_SOLVE = defop("linalg_lu_solve", "LinalgLuSolveBackward0", None,
                 inputs=("LU", "B"), params=("pivots", "left", "adjoint"),
                 layout=layout.column_major_if(1),
                 grads={"LU": lambda F, grad, LU, pivots, left, adjoint, result:
                        _lu_solve_backward_LU(F, grad, LU, pivots, result, left, adjoint),
                        "B": lambda F, grad, LU, pivots, left, adjoint:
                        _la(F).lu_solve(LU, pivots, grad, left, not adjoint)},
                 jvp="transpose")


def _lu_checks(name, a):
    if a.ndim < 2:
        raise RuntimeError(f"{name}: Expected tensor with 2 or more dimensions. Got size: "
                           f"[{_errors.shape_str(a.shape)}] instead")
    if a.size == 0:  # (Note [Which check refuses a dtype]: an empty input skips the kernel)
        return
    if a.dtype.kind not in "fc" or a.dtype.itemsize < 4:
        raise NotImplementedError(f"\"lu_cpu\" not implemented for '{_type_name(a)}'")
    _check_float(name, a)


def lu_factor_ex(A, *, pivot=True, check_errors=False):
    a = A._data
    _lu_checks("torch.lu_factor", a)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    LU_, piv, info = _lu_array(a)
    if check_errors:
        _lu_singular_check("torch.linalg.lu_factor_ex", a, info)
    res = _finish(LU_FACTOR_EX, (A,), (pivot,), (LU_, piv, info))
    return _LuFactorExRT(*res)


@view_errors_before_checks
def lu_factor(A, *, pivot=True):
    a = A._data
    _lu_checks("torch.lu_factor", a)
    LU_, piv, info = _lu_array(a)
    _lu_singular_check("torch.linalg.lu_factor", a, info)
    res = _finish(LU_FACTOR_EX, (A,), (pivot,), (LU_, piv, info))
    return _LuFactorRT(res[0], res[1])


def _lu_singular_check(name, a, info):
    if info.any():
        flat = info.reshape(-1)
        i = int(np.nonzero(flat)[0][0])
        raise RuntimeError(f"{name}: {_batch_prefix(a, i)}U[{flat[i]},{flat[i]}] "
                           "is zero and using it on lu_solve would result in a division by zero. "
                           "If you still want to perform the factorization, consider calling "
                           "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")


@view_errors_before_checks
def linalg_lu(A, *, pivot=True):
    a = A._data
    _lu_checks("linalg.lu", a)
    if not pivot:
        raise RuntimeError("linalg.lu: LU without pivoting is not implemented on the CPU")
    LU_, piv, _ = _lu_array(a)
    P, L, U = _unpack_arrays(LU_, piv)
    return _LuRT(*_finish(LU, (A,), (pivot,), (P.astype(a.dtype), L, U)))


def lu_solve(LU, pivots, B, *, left=True, adjoint=False):
    lu_, b = LU._data, B._data
    piv = pivots._data if isinstance(pivots, Tensor) else pivots  # (an array from a formula)
    # (linalg_lu_solve's meta: dtypes, pivots' dtype, then the shapes)
    _check_float("torch.linalg.lu_solve", lu_, low_precision=True)
    if lu_.dtype != b.dtype:
        raise RuntimeError(f"linalg.lu_solve: Expected LU and B to have the same dtype, but found "
                           f"LU of type {_type_name(lu_)} and B of type {_type_name(b)} instead")
    if piv.dtype != np.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type "
                           "torch.int32")
    _check_square("torch.linalg.lu_solve", lu_)
    _check_matrix("linalg.lu_solve", b, "B")
    n = lu_.shape[-1]
    if (b.shape[-2] if left else b.shape[-1]) != n:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and "
                           f"{b.shape[-2]}x{b.shape[-1]})")
    out_shape = tuple(np.broadcast_shapes(lu_.shape[:-2], b.shape[:-2])) + b.shape[-2:]
    if int(np.prod(out_shape)) == 0:  # (no kernel for an empty result, whatever the dtype)
        X = np.zeros(out_shape, lu_.dtype)
    else:
        _check_float("linalg.lu_solve", lu_, kernel="linalg.lu_solve_cpu")
        X = _lu_solve_array(lu_, piv, b, left, adjoint)
    return _finish_la(LU_SOLVE, (LU, B), (piv, left, adjoint),
                      _asarray(X.astype(lu_.dtype)))


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    P, L, U = _unpack_arrays(LU_data._data, LU_pivots._data)
    from .shape import narrow as _nw
    m, n = LU_data._data.shape[-2:]
    k = min(m, n)
    Lt = add(tril(_nw(LU_data, -1, 0, k), -1), _make(np.eye(m, k, dtype=L.dtype)))
    Ut = triu(_nw(LU_data, -2, 0, k))
    return _LuUnpackRT(_make(P.astype(L.dtype)), Lt, Ut)


# ---- cdist ------------------------------------------------------------------------------------
def _cdist_backward(F, grad, x1, x2, p, result):
    """_cdist_backward: d/dx1 of the p-norm distances of the rows of x1 to those of x2."""
    if not F.is_raw:  # (PyTorch's is one op, without a forward-AD rule: forward over
        # reverse refuses it)
        from ..autograd.forward_ad import _tangent_or_none
        if any(_tangent_or_none(v) is not None for v in (grad, x1, x2, result)):
            _no_forward_rule("_cdist_backward")
    if F.is_raw and (p == 1 or p == 2 or 2 < p < float("inf")):
        out = _cdist_backward_array(grad, x1, x2, p, result)
        if out is not None:
            return out
    diff = F.unsqueeze(x1, -2) - F.unsqueeze(x2, -3)  # (..., r1, r2, m)
    g = F.unsqueeze(grad, -1)
    if p == 0:
        return F.zeros_like(x1)
    if p == 1:
        return F.sum(F.sign(diff) * g, -2)
    d = F.unsqueeze(result, -1)
    zero = d == 0
    if p == 2:
        safe = F.where(zero, F.ones_like(d), d)
        return F.sum(F.where(zero, F.zeros_like(diff), diff * (g / safe)), -2)
    if p == float("inf"):
        sel = F.abs(diff) == d
        return F.sum(F.where(sel, F.sign(diff) * g, F.zeros_like(diff)), -2)
    scale = g / F.pow(F.where(zero, F.ones_like(d), d), p - 1)
    return F.sum(F.where(zero, F.zeros_like(diff),
                         diff * F.pow(F.abs(diff), p - 2) * scale), -2)


def _cdist_backward_array(grad, x1, x2, p, result):
    """aten's cdist backward kernel (backward_down_column_cdist): row i's gradient is 0 plus
    each of x2's rows' term in order, the term (grad * diff) / dist (p = 2), grad * sign(diff)
    (p = 1), ((diff * |diff|^(p - 2)) * grad) / dist^(p - 1) (p > 2; its pow SLEEF's there,
    NumPy's here); None where not emulated. (x2's gradient: the same with the roles swapped,
    as aten's.)"""
    dt = x1.dtype
    if dt not in (np.float32, np.float64) or x2.dtype != dt or x1.shape[:-2] != x2.shape[:-2] \
            or grad.dtype != dt or x1.shape[-2] * x2.shape[-2] * x1.shape[-1] > raw.PORTED_MAX:
        return None
    diff = x1[..., :, None, :] - x2[..., None, :, :]
    g = np.asarray(grad)[..., None]
    d = np.asarray(result)[..., None]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if p == 1:
            t = g * np.sign(diff)
        elif p == 2:
            t = np.where(d == 0, dt.type(0), (g * diff) / d)
        else:
            pw = dt.type(p)
            t = np.where(d == 0, dt.type(0), ((diff * np.abs(diff) ** (pw - dt.type(2))) * g)
                         / d ** (pw - dt.type(1)))
    if not t.shape[-2]:
        return np.zeros(x1.shape, dt)
    return (np.cumsum(t, axis=-2)[..., -1, :] + dt.type(0)).astype(dt, copy=False)


def _euclidean_dist_backward(F, grad, x1, x2, result):
    zero = result == 0
    ratio = F.where(zero, F.zeros_like(grad), grad / F.where(zero, F.ones_like(result), result))
    return (x1 * F.sum(ratio, -1, True) - F.matmul(ratio, x2),
            x2 * F.unsqueeze(F.sum(ratio, -2), -1) - F.matmul(_T(F, ratio), x1))


CDIST = defop("_cdist_forward", "CdistBackward0", None, inputs=("x1", "x2"), params=("p",),
              layout="contiguous",
              grads={"x1": lambda F, grad, x1, x2, p, result:
                     _cdist_backward(F, grad, x1, x2, p, result),
                     "x2": lambda F, grad, x1, x2, p, result:
                     _cdist_backward(F, _T(F, grad), x2, x1, p, _T(F, result))},
              jvp=lambda F, x1: _no_forward_rule("_cdist_forward"))
EUCLIDEAN_DIST = defop("_euclidean_dist", "EuclideanDistBackward0", None, inputs=("x1", "x2"),
                       layout="contiguous",
                       backward_all=lambda F, grad, x1, x2, result:
                           _euclidean_dist_backward(F, grad, x1, x2, result),
                       jvp=lambda F, x1: _no_forward_rule("_euclidean_dist"))


def _no_forward_rule(name):
    raise NotImplementedError(_FW_NOT_SUPPORTED.format(name))


def _euclidean_dist_array(a, b):
    """aten's _euclidean_dist: one product of [-2 x1, |x1|^2, 1] and [x2, 1, |x2|^2] (the
    squared norms rounded to the dtype first), clamped at 1e-30, square-rooted."""
    dt = a.dtype
    from .sum_kernel import sum_array  # (x.pow(2).sum(-1, true): Note [Cascade sum])
    n1 = sum_array(_acc(a * a), -1, True).astype(dt)
    n2 = sum_array(_acc(b * b), -1, True).astype(dt)
    x1 = np.concatenate([a * dt.type(-2), n1, np.ones_like(n1)], -1)
    x2 = np.concatenate([b, np.ones_like(n2), n2], -1)
    sq = _acc(raw.matmul(x1, np.swapaxes(x2, -1, -2)))
    return np.sqrt(np.maximum(sq, 1e-30)).astype(dt, copy=False)


def _cdist_array(a, b, p):
    diff = np.abs(a[..., :, None, :] - b[..., None, :, :])
    if p not in (0, float("inf")) and a.dtype == b.dtype and a.dtype in (np.float32,
                                                                          np.float64) \
            and diff.size <= raw.PORTED_MAX and diff.shape[-1]:
        # aten's cdist kernel (run_parallel_cdist): per pair one sequential sum of the
        # map, then the finish, in the scalar type (Note [p-norm order] in reduction.py)
        # (the finish's exponent 1.0 / p is a double: a float32 agg's power is taken in
        # double; measured: 0 of 10,400 r <= 25 distances differ, p = 1, 2, 3)
        from .reduction import _std_pow
        if p == 2:  # (as compiled: the last m % 2 (double) or m % 4 (float) fused)
            m = diff.shape[-1]
            full = m - m % (2 if a.dtype == np.float64 else 4)
            agg = np.cumsum(diff[..., :full] * diff[..., :full], axis=-1)[..., -1] if full \
                else np.zeros(diff.shape[:-1], a.dtype)
            for k in range(full, m):
                agg = raw._fma(diff[..., k], diff[..., k], agg, a.dtype.type)
            return np.sqrt(agg)
        t = diff if p == 1 else _std_pow(diff, a.dtype.type(p))
        agg = np.cumsum(t, axis=-1)[..., -1]
        if p == 1:
            return agg
        with np.errstate(divide="ignore"):
            return _std_pow(agg.astype(np.float64), 1.0 / float(a.dtype.type(p))).astype(
                a.dtype)
    if p == 0:
        return (diff != 0).sum(-1).astype(a.dtype)
    if p == 1:
        return diff.sum(-1)
    if p == 2:
        return np.sqrt((diff * diff).sum(-1))
    if p == float("inf"):
        return diff.max(-1) if diff.shape[-1] else np.zeros(diff.shape[:-1], a.dtype)
    return (diff ** p).sum(-1) ** (1.0 / p)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    if _amp.state.enabled:
        return _amp.fp32(cdist, x1, x2, p, compute_mode)
    a, b = x1._data, x2._data
    if a.ndim < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {a.ndim}D")
    if b.ndim < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X2 got: {b.ndim}D")
    if a.shape[-1] != b.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {a.shape[-1]} "
                           f"X2: {b.shape[-1]}")
    if a.dtype.kind not in "fV" or b.dtype.kind not in "fV":  # (V: bfloat16)
        raise RuntimeError(f"cdist only supports floating-point dtypes, X1 got: "
                           f"{_type_name(a) if a.dtype.kind not in 'fV' else _type_name(b)}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    modes = {"use_mm_for_euclid_dist_if_necessary": None, "use_mm_for_euclid_dist": True,
             "donot_use_mm_for_euclid_dist": False}
    if compute_mode not in modes:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    mode = modes[compute_mode]
    r1, r2 = a.shape[-2], b.shape[-2]
    use_mm = p == 2 and (mode or (mode is None and (r1 > 25 or r2 > 25)))
    batch = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    if use_mm:
        x1e, x2e = x1, x2
        if a.ndim > 2 or b.ndim > 2:  # as aten: expand, fold the batch, one batched kernel
            prod_ = int(np.prod(batch))
            x1e = reshape(expand(x1, batch + a.shape[-2:]), (prod_,) + a.shape[-2:])
            x2e = reshape(expand(x2, batch + b.shape[-2:]), (prod_,) + b.shape[-2:])
        out = _euclidean_dist_array(x1e._data, x2e._data)
        return view(_finish(EUCLIDEAN_DIST, (x1e, x2e), (), _asarray(out)), batch + (r1, r2))
    if a.dtype.itemsize == 2:  # (PyTorch's cdist kernel has no half types; its mm path has)
        raise NotImplementedError(f"\"cdist\" not implemented for '{_type_name(a)}'")
    out = _asarray(_cdist_array(a, b, float(p)).astype(np.result_type(a, b)))
    return _finish_la(CDIST, (x1, x2), (float(p),), out)


_LuFactorExRT = _named_result("linalg_lu_factor_ex", ("LU", "pivots", "info"))
_LuFactorRT = _named_result("linalg_lu_factor", ("LU", "pivots"))
_LuRT = _named_result("linalg_lu", ("P", "L", "U"))
_LuUnpackRT = _named_result("lu_unpack", ("P", "L", "U"))
_LA_RAW.lu_solve = lambda LU, pivots, B, left, adjoint: _lu_solve_array(LU, pivots, B, left,
                                                                          adjoint)
_LA_TENSOR.lu_solve = lambda LU, pivots, B, left, adjoint: lu_solve(LU, pivots, B, left=left,
                                                                     adjoint=adjoint)


# ---- the older torch.* spellings: qr, triangular_solve, cholesky_solve, cholesky_inverse -----
def _triangular_solve_backward(F, grads, self, A, upper, transpose, unitriangular, solution):
    gX, gM = grads
    gb = gA = None
    if gX is not None:
        At = _cj(F, A) if transpose else _H(F, A)  # solve with op(A)^H
        gb = _la(F).solve_triangular(At, gX, (not upper) if not transpose else upper, True,
                                     unitriangular)
        gA = (-F.matmul(_cj(F, solution), _T(F, gb)) if transpose
              else -F.matmul(gb, _H(F, solution)))
        k = 1 if unitriangular else 0
        gA = F.triu(gA, k) if upper else F.tril(gA, -k)
    if gM is not None:
        gA = gM if gA is None else gA + gM
    return gb, gA


TRIANGULAR_SOLVE = defop(
    "triangular_solve", "TriangularSolveBackward0", None, inputs=("self", "A"),
    params=("upper", "transpose", "unitriangular"),
    outputs=("solution", "cloned_coefficient"), layout="column_major",
    backward_all=lambda F, grads, self, A, upper, transpose, unitriangular, solution:
        _triangular_solve_backward(F, grads, self, A, upper, transpose, unitriangular, solution),
    jvp=lambda F, self, self_t, A, A_t, upper, transpose, unitriangular, solution,
        cloned_coefficient: _jvp_multi(
            F, lambda F, g, b, a, up, tr, un, x: _triangular_solve_backward(F, g, b, a, up, tr,
                                                                            un, x),
            (self_t, A_t), (solution, cloned_coefficient), self, A, upper, transpose,
            unitriangular, solution))


def _cholesky_solve_backward(F, grad, self, input2, upper, result):
    g_self = _la(F).cholesky_solve(grad, input2, upper)
    common = F.matmul(g_self, _H(F, result))
    common = common + _H(F, common)
    g2 = -F.matmul(input2, common) if upper else -F.matmul(common, input2)
    return g_self, g2


CHOLESKY_SOLVE = defop("cholesky_solve", "CholeskySolveBackward0", None,
                       inputs=("self", "input2"), params=("upper",), layout="column_major",
                       backward_all=lambda F, grad, self, input2, upper, result:
                           _cholesky_solve_backward(F, grad, self, input2, upper, result),
                       jvp=lambda F, self, self_t, input2, input2_t, upper, result:
                           _cholesky_solve_jvp(F, self, self_t, input2, input2_t, upper,
                                               result))


def _cholesky_solve_jvp(F, self, self_t, input2, input2_t, upper, result):
    """PyTorch's cholesky_solve_jvp: X_t = cholesky_solve(B_t - (dK + dK^H) X, U), dK =
    U_t U^H (U^H U_t when upper), a missing tangent a zero tensor of its primal's dtype. So
    the batch dims broadcast as the forward's, U_t meets U in a matmul first (tangent first:
    Note [Linear algebra's tangents of another dtype]) and B_t promotes with U's dtype
    before the solve's "Expected b and A" check."""
    if input2_t is None:
        rhs = _plus_zero_dtype(F, self_t, input2)  # (B_t - ZT of U's dtype)
    else:
        dK = F.matmul(_H(F, input2_t), input2) if upper else \
            F.matmul(input2_t, _H(F, input2))
        term = F.matmul(dK + _H(F, dK), result)
        rhs = -term if self_t is None else self_t - term  # (ZT - y is y * -1)
    return _la(F).cholesky_solve(rhs, input2, upper)
CHOLESKY_INVERSE = defop(
    "cholesky_inverse", "CholeskyInverseBackward0", None, params=("upper",),
    layout="column_major",
    grads={"self": lambda F, grad, self, upper, result: (
        lambda c: -F.matmul(self, c) if upper else -F.matmul(c, self))(
        F.matmul(result, F.matmul(grad + _H(F, grad), result)))},
    jvp="transpose")


def _cholesky_solve_array(b, L, upper):
    L = np.triu(L) if upper else np.tril(L)
    A = _mH_arr(L) @ L if upper else L @ _mH_arr(L)
    try:
        if not (_finite(L) and _finite(b)):  # (potrs's own steps: where NaNs land)
            raise np.linalg.LinAlgError
        return np.linalg.solve(A, b)
    except np.linalg.LinAlgError:  # (a singular factor: potrs's two triangular solves)
        L = _mH_arr(L) if upper else L
        return _tri_solve(_mH_arr(L), _tri_solve(L, b, True), False)


def _linear_solve_checks(b, a, name):
    """aten's linearSolveCheckInputs (triangular_solve, cholesky_solve): dtypes, then A
    square and its size against b's rows, in words without the op's name."""
    if b.dtype != a.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{_type_name(b)} and A of type {_type_name(a)} instead.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"A must be batches of square matrices, but they are {a.shape[-2]} by "
                           f"{a.shape[-1]} matrices")
    if a.shape[-1] != b.shape[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for {name}: each A matrix is "
                           f"{a.shape[-1]} by {a.shape[-1]} but each b matrix is {b.shape[-2]} "
                           f"by {b.shape[-1]}")
    try:
        np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise broadcast_error(b.shape[:-2], a.shape[:-2]) from None


def torch_qr(input, some=True):
    _warn_once("qr", "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in "
               "a future PyTorch release.\nThe boolean parameter 'some' has been replaced with "
               "a string parameter 'mode'.\nQ, R = torch.qr(A, some)\nshould be replaced with\n"
               "Q, R = torch.linalg.qr(A, 'reduced' if some else 'complete')")
    Q, R = qr(input, "reduced" if some else "complete")
    return _QrOldRT(Q, R)


def triangular_solve(input, A, upper=True, transpose=False, unitriangular=False):
    _warn_once("triangular_solve",
               "torch.triangular_solve is deprecated in favor of "
               "torch.linalg.solve_triangularand will be removed in a future PyTorch release.\n"
               "torch.linalg.solve_triangular has its arguments reversed and does not return a "
               "copy of one of the inputs.\nX = torch.triangular_solve(B, A).solution\nshould be "
               "replaced with\nX = torch.linalg.solve_triangular(A, B).")
    b, a = input._data, A._data
    for what, x in (("b", b), ("A", a)):
        if x.ndim < 2:
            raise RuntimeError(f"torch.triangular_solve: Expected {what} to have at least 2 "
                               f"dimensions, but it has {x.ndim} dimensions instead")
    _linear_solve_checks(b, a, "triangular_solve")
    _check_float("triangular_solve", a, kernel="triangular_solve_cpu", ints=True)
    at = np.swapaxes(a, -1, -2) if transpose else a
    with np.errstate(all="ignore"):
        x = _solve_tri_array(at, b, upper != transpose, True, unitriangular)
    res = _finish_la(TRIANGULAR_SOLVE, (input, A), (upper, transpose, unitriangular),
                     (_asarray(x), a.copy()))
    return _TriangularSolveRT(*res)


def cholesky_solve(input, input2, upper=False):
    b, L = input._data, input2._data
    if b.ndim < 2 or L.ndim < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {b.ndim} dimensions "
                           "instead" if b.ndim < 2 else f"u should have at least 2 dimensions, "
                           f"but has {L.ndim} dimensions instead")
    _linear_solve_checks(b, L, "cholesky_solve")
    _check_float("cholesky_solve", b, kernel="cholesky_solve_cpu", ints=True)
    x = _cholesky_solve_array(b, L, upper)
    return _finish_la(CHOLESKY_SOLVE, (input, input2), (upper,), _asarray(x))


def cholesky_inverse(input, upper=False):
    L = input._data
    _check_square("cholesky_inverse", L)
    _check_float("cholesky_inverse", L, kernel="cholesky_inverse_out_cpu", ints=True)
    diag = np.diagonal(L, 0, -2, -1).reshape(-1, L.shape[-1]) if L.size else np.ones((0, 1))
    zero = np.nonzero((diag == 0).any(-1))[0]
    if zero.size:  # (potri's info: the first zero on the factor's diagonal)
        i = int(zero[0])
        raise _LinAlgError(f"cholesky_inverse: {_batch_prefix(L, i)}The diagonal element "
                           f"{int(np.nonzero(diag[i] == 0)[0][0]) + 1} is zero, the inversion "
                           "could not be completed because the input matrix is singular.")
    if _finite(L):
        inv_ = _cholesky_solve_array(np.broadcast_to(np.eye(L.shape[-1], dtype=L.dtype),
                                                     L.shape), L, upper)
    else:  # (potri: trtri's triangular inverse, then lauum's product over the triangles)
        Lo = _mH_arr(np.triu(L)) if upper else np.tril(L)
        with np.errstate(all="ignore"):
            n = L.shape[-1]
            Li = np.zeros(L.shape, L.dtype)
            for j in range(n):  # (column j from rows j on: trtri reads no other entry)
                Li[..., j, j] = 1 / Lo[..., j, j]
                for i in range(j + 1, n):
                    Li[..., i, j] = -(Lo[..., i, j:i] * Li[..., j:i, j]).sum(-1) / Lo[..., i, i]
            inv_ = np.zeros(L.shape, L.dtype)
            for i in range(n):
                for j in range(i + 1):
                    v = (Li[..., i:, i] * Li[..., i:, j]).sum(-1)
                    inv_[..., i, j] = v
                    inv_[..., j, i] = v
    return _finish(CHOLESKY_INVERSE, (input,), (upper,), _asarray(inv_))


_QrOldRT = _named_result("qr", ("Q", "R"))
_TriangularSolveRT = _named_result("triangular_solve", ("solution", "cloned_coefficient"))
_LA_RAW.cholesky_solve = _cholesky_solve_array
_LA_TENSOR.cholesky_solve = lambda b, L, upper: cholesky_solve(b, L, upper)


# ==== Householder products: geqrf, householder_product/orgqr, ormqr =====================


# Note [Householder products]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~
# geqrf stores Q = H_0 H_1 ... H_{k-1}, H_i = I - tau_i v_i v_i^T, as LAPACK does: v_i is
# column i of the input below its diagonal with a 1 on it. householder_product is Q's first
# n columns, ormqr multiplies by all of Q. Both differentiate through the product one
# reflector at a time: with G_i = H_{i-1}...H_0 gQ and R_{i+1} = H_{i+1}...H_{k-1} E,
# dQ = ... dH_i ... gives  gtau_i = -<R_{i+1}^T v_i, G_i^T v_i>  and
# gv_i = -tau_i (G_i R_{i+1}^T v_i + R_{i+1} G_i^T v_i). Written against F (matmuls of
# m x n matrices by vectors: no m x m matrix is formed), so they have a double backward,
# and the same loop computes the forward on arrays.
def _reflector_cols(F, A, k):
    """v_0 ... v_{k-1} as (..., m, 1) columns, tau's entries as (..., 1, 1)."""
    m = A.shape[-2]
    V = F.tril(_narrow(F, A, -1, 0, k), -1) + F.constant(np.eye(m, k), A)
    return [_narrow(F, V, -1, i, 1) for i in range(k)]


def _apply_reflector(F, v, t, X):
    """H X = X - tau v (v^H X)."""
    vh = _H(F, v)
    return X - F.matmul(v * t, F.matmul(vh, X))


def _householder_suffixes(F, A, tau, ncols):
    """R_i = H_i ... H_{k-1} E for i = 0..k (R_0 = Q), E the first ncols columns of I."""
    k = tau.shape[-1]
    vs = _reflector_cols(F, A, k)
    ts = [F.unsqueeze(_narrow(F, tau, -1, i, 1), -1) for i in range(k)]
    R = [None] * (k + 1)
    R[k] = F.constant(np.eye(A.shape[-2], ncols), A)
    for i in reversed(range(k)):
        R[i] = _apply_reflector(F, vs[i], ts[i], R[i + 1])
    return vs, ts, R


def _householder_backward(F, gQ, A, tau, ncols):
    """(gA, gtau) of Q = H_0 ... H_{k-1} E (Note [Householder products])."""
    k, n = tau.shape[-1], A.shape[-1]
    vs, ts, R = _householder_suffixes(F, A, tau, ncols)
    G = gQ
    gvs, gts = [], []
    for i in range(k):  # (complex: H^H = I - conj(tau) v v^H; conj-Wirtinger gradients)
        v, t = vs[i], ts[i]
        a = F.matmul(_H(F, R[i + 1]), v)
        b = F.matmul(_H(F, G), v)
        gts.append(-F.sum(_cj(F, b) * a, -2))
        gvs.append(-(_cj(F, t) * F.matmul(G, a) + t * F.matmul(R[i + 1], b)))
        G = _apply_reflector(F, v, _cj(F, t), G)
    if k == 0:
        return F.zeros_like(A), F.zeros_like(tau)
    gA = F.tril(F.cat(gvs, -1), -1)
    if k < n:
        pad = F.zeros_like(_narrow(F, A, -1, k, n - k))
        gA = F.cat([gA, pad], -1)
    return gA, F.cat(gts, -1)


def _ormqr_backward(F, grad, self, input2, input3, left, transpose):
    Q = _householder_suffixes(F, self, input2, self.shape[-2])[2][0]
    C = input3
    if left:
        gC = F.matmul(Q, grad) if transpose else F.matmul(_H(F, Q), grad)
        gQ = F.matmul(C, _H(F, grad)) if transpose else F.matmul(grad, _H(F, C))
    else:
        gC = F.matmul(grad, Q) if transpose else F.matmul(grad, _H(F, Q))
        gQ = F.matmul(_H(F, grad), C) if transpose else F.matmul(_H(F, C), grad)
    gA, gtau = _householder_backward(F, gQ, self, input2, self.shape[-2])
    return gA, gtau, gC


def _geqrf_no_derivative(F, grads):
    raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


GEQRF = defop("geqrf", "GeqrfBackward0", None, outputs=("a", "tau"),
              layout=("column_major", "contiguous"),
              grads={"self": _geqrf_no_derivative}, jvp=lambda F, self: _no_forward_rule("geqrf"))
HOUSEHOLDER_PRODUCT = defop(
    "linalg_householder_product", "LinalgHouseholderProductBackward0", None,
    inputs=("input", "tau"), layout="column_major",
    backward_all=lambda F, grad, input, tau: _householder_backward(F, grad, input, tau,
                                                                   input.shape[-1]),
    jvp="transpose")
ORMQR = defop("ormqr", "OrmqrBackward0", None, inputs=("self", "input2", "input3"),
              params=("left", "transpose"), layout="column_major",
              backward_all=lambda F, grad, self, input2, input3, left, transpose:
                  _ormqr_backward(F, grad, self, input2, input3, left, transpose),
              jvp=lambda F, self: _no_forward_rule("ormqr"))
_GeqrfRT = _named_result("geqrf", ("a", "tau"))


def _lapack_dtype(name, kernel, *arrays):
    for a in arrays:
        if a.dtype.kind not in "fc" or a.dtype.itemsize < 4:
            raise NotImplementedError(f"\"{kernel}\" not implemented for '{_type_name(a)}'")


def geqrf(input):
    a = input._data
    if a.ndim < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    _lapack_dtype("torch.geqrf", "geqrf_cpu", a)
    m, n = a.shape[-2:]
    if a.size == 0:
        h, tau = a.copy(), np.zeros(a.shape[:-2] + (min(m, n),), a.dtype)
    elif not _finite(a) or _negative_zeros(a):  # (Note [Householder QR of non-finite
        # matrices]; the signs of zeros as geqr2 leaves them)
        with np.errstate(all="ignore"):
            parts = [_geqr2(mat) for mat in a.reshape((-1, m, n))]
        h = np.stack([p[0] for p in parts]).reshape(a.shape)
        tau = np.stack([p[1] for p in parts]).reshape(a.shape[:-2] + (min(m, n),))
    else:
        h, tau = np.linalg.qr(a, mode="raw")
        h = np.swapaxes(h, -1, -2)  # (LAPACK's column-major result, as PyTorch keeps it)
    return _GeqrfRT(*_finish(GEQRF, (input,), (), (h.astype(a.dtype),
                                                   tau.astype(a.dtype))))


def _tau_checks(name, a, tau):
    if a.ndim - tau.ndim != 1:
        raise RuntimeError(f"{name}: Expected tau to have one dimension less than input, but got "
                           f"tau.ndim equal to {tau.ndim} and input.ndim is equal to {a.ndim}")
    if a.ndim > 2 and tau.shape[:-1] != a.shape[:-2]:
        raise RuntimeError(f"{name}: Expected batch dimensions of tau to be equal to "
                           f"input.shape[:-2], but got [{_errors.shape_str(tau.shape[:-1])}]")


@view_errors_before_checks
def householder_product(input, tau):
    a, t_ = input._data, tau._data
    name = "torch.linalg.householder_product"
    if a.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if a.shape[-2] < a.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-2] must be greater than or equal to "
                           "input.shape[-1]")
    if t_.ndim and a.shape[-1] < t_.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-1] must be greater than or equal to "
                           "tau.shape[-1]")
    _tau_checks(name, a, t_)
    if a.dtype != t_.dtype:
        raise RuntimeError(f"{name}: tau dtype {_type_name(t_)} does not match input dtype "
                           f"{_type_name(a)}")
    _lapack_dtype(name, "orgqr_cpu", a)
    if a.size and t_.size and a.dtype.kind == "f" and not (_finite(a) and _finite(t_)):
        # (org2r's steps: Note [Householder QR of non-finite matrices])
        m, n = a.shape[-2:]
        k = t_.shape[-1]
        with np.errstate(all="ignore"):
            Q = np.stack([_org2r(h, t, n) for h, t in zip(
                a.reshape((-1, m, n)), np.broadcast_to(t_, a.shape[:-2] + (k,)).reshape(
                    (-1, k)))]).reshape(a.shape)
    else:
        Q = _householder_suffixes(raw.RAW, a, t_, a.shape[-1])[2][0]
    Q = np.broadcast_to(Q, a.shape)
    return _finish(HOUSEHOLDER_PRODUCT, (input, tau), (), Q.astype(a.dtype))


def orgqr(input, input2):
    return householder_product(input, input2)


def ormqr(input, input2, input3, left=True, transpose=False):
    a, t_, c = input._data, input2._data, input3._data
    name = "torch.ormqr"
    if a.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if c.ndim < 2:
        raise RuntimeError(f"{name}: other must have at least 2 dimensions.")
    d = -2 if left else -1
    if c.shape[d] != a.shape[-2]:
        raise RuntimeError(f"{name}: other.shape[{d}] must be equal to input.shape[-2]")
    if t_.ndim == 0 or t_.shape[-1] != min(c.shape[d], a.shape[-1]):
        raise RuntimeError(f"{name}: tau.shape[-1] must be equal to min(other.shape[{d}], "
                           "input.shape[-1])")
    _tau_checks(name, a, t_)
    if a.ndim != c.ndim:
        raise RuntimeError(f"{name}: Expected other to have the same number of dimensions as "
                           f"input, but got other.ndim equal to {c.ndim} and input.ndim is equal "
                           f"to {a.ndim}")
    if a.ndim > 2 and c.shape[:-2] != a.shape[:-2]:
        raise RuntimeError(f"{name}: Expected batch dimensions of other to be equal to "
                           f"input.shape[:-2], but got [{_errors.shape_str(c.shape[:-2])}]")
    for what, x in (("tau", t_), ("other", c)):
        if x.dtype != a.dtype:
            raise RuntimeError(f"{name}: Expected input and {what} to have the same dtype, but "
                               f"input has dtype{_type_name(a)} and {what} has dtype "
                               f"{_type_name(x)}")
    _lapack_dtype(name, "ormqr_cpu", a)
    if a.dtype.kind == "f" and a.size and c.size and not (
            _finite(a) and _finite(t_) and _finite(c)):
        res = _orm2r(a, t_, c, left, transpose)  # (Note [Householder QR of non-finite ...])
    else:
        Q = _householder_suffixes(raw.RAW, a, t_, a.shape[-2])[2][0]
        Qop = _mH_arr(Q) if transpose else Q
        res = Qop @ c if left else c @ Qop
    return _finish(ORMQR, (input, input2, input3), (left, transpose),
                   _asarray(res.astype(a.dtype)))


# ==== Vandermonde matrices, the older LU spellings, removed functions ==========================
def linalg_vander(x, *, N=None):
    """As aten's linalg_vander: [1, cumprod(x, x, ...)] (CatBackward0 over CumprodBackward0)."""
    from .reduction import cumprod
    from .shape import cat
    d = x._data
    if not (d.dtype.kind in "iu" or (d.dtype.kind in "fc" and d.dtype.itemsize >= 4)):
        raise RuntimeError("linalg.vander supports floating point, complex, and integer tensors, "
                           f"but got {_type_name(d)}")
    x_ = unsqueeze(x, -1) if d.ndim == 0 else x
    shape = list(x_._data.shape)
    n = shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    result = cumprod(expand(unsqueeze(x_, -1), shape + [n - 1]), -1)
    ones = _make(np.ones(tuple(shape) + (1,), result._data.dtype))
    return cat([ones, result], -1)


def vander(x, N=None, increasing=False):
    """As aten's vander: a column of ones, a slice copied from x, its cumprod copied back,
    flipped. (So, as in PyTorch, its backward fails: cumprod saved the slice that the
    second copy_ overwrites.)"""
    from .indexing import getitem
    from .pointwise import copy_, fill_
    from .reduction import cumprod
    from .shape import flip, select
    d = x._data
    if d.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = d.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    dtype = np.int64 if d.dtype.kind in "biu" else d.dtype
    result = _make(np.empty((d.shape[0], n), dtype))
    if n > 0:
        fill_(select(result, 1, 0), 1)
    if n > 1:
        tail = (slice(None), slice(1, None))
        copy_(getitem(result, tail), unsqueeze(x, 1))
        copy_(getitem(result, tail), cumprod(getitem(result, tail), 1))
    return result if increasing else flip(result, [1])


def torch_lu(A, pivot=True, get_infos=False):
    """torch.lu (torch.functional): _lu_with_info, i.e. linalg.lu_factor_ex."""
    _warn_once("torch_lu",
               "torch.lu is deprecated in favor of torch.linalg.lu_factor / "
               "torch.linalg.lu_factor_ex and will be removed in a future PyTorch release.\nLU, "
               "pivots = torch.lu(A, compute_pivots)\nshould be replaced with\nLU, pivots = "
               "torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = torch.lu(A, "
               "compute_pivots, get_infos=True)\nshould be replaced with\nLU, pivots, info = "
               "torch.linalg.lu_factor_ex(A, compute_pivots)")
    LU_, piv, info = lu_factor_ex(A, pivot=pivot)  # (_lu_with_info never checks)
    if get_infos:
        return _LuWithInfoRT(LU_, piv, info)
    return LU_, piv


def torch_lu_solve(input, LU_data, LU_pivots):
    _warn_once("torch_lu_solve",
               "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be "
               "removed in a future PyTorch release.\nNote that torch.linalg.lu_solve has its "
               "arguments reversed.\nX = torch.lu_solve(B, LU, pivots)\nshould be replaced with\n"
               "X = torch.linalg.lu_solve(LU, pivots, B)")
    return lu_solve(LU_data, LU_pivots, input)


_LuWithInfoRT = _named_result("_lu_with_info", ("LU", "pivots", "info"))
_REMOVED = (
    "This function was deprecated since version 1.9 and is now removed.")


def symeig(input, eigenvectors=False, upper=True):
    raise RuntimeError(
        f"{_REMOVED} The default behavior has changed from using the upper triangular portion "
        "of the matrix by default to using the lower triangular portion.\n\nL, _ = "
        "torch.symeig(A, upper=upper) should be replaced with:\nL = torch.linalg.eigvalsh(A, "
        "UPLO='U' if upper else 'L')\n\nand\n\nL, V = torch.symeig(A, eigenvectors=True) should "
        "be replaced with:\nL, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')")


def torch_eig(self, eigenvectors=False, *, e=None, v=None):
    raise RuntimeError(
        f"{_REMOVED} `torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` "
        "rather than real tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be "
        "replaced with:\nL_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, "
        "eigenvectors=True) should be replaced with:\nL_complex, V_complex = torch.linalg.eig(A)")


def torch_lstsq(input, A):
    raise RuntimeError(
        f"{_REMOVED} `torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n"
        "`torch.linalg.lstsq` has reversed arguments and does not return the QR decomposition in "
        "the returned tuple (although it returns other information about the problem).\n\nTo "
        "get the QR decomposition consider using `torch.linalg.qr`.\n\nThe returned solution in "
        "`torch.lstsq` stored the residuals of the solution in the last m - n columns of the "
        "returned value whenever m > n. In torch.linalg.lstsq, the residuals are in the field "
        "'residuals' of the returned named tuple.\n\nThe unpacking of the solution, as in\nX, _ "
        "= torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced with:\nX = "
        "torch.linalg.lstsq(A, B).solution")


# ==== LDL (Bunch-Kaufman) =======================================================================
# Note [LDL as LAPACK's sytrf]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# linalg.ldl_factor returns LAPACK's compact form: D's 1x1 and 2x2 blocks on and below the
# diagonal, L's multipliers below them, and pivots (1-based; a 2x2 block's two entries are
# both -p). The factorization is not unique, so the pivoting must be LAPACK's: _sytf2_lower
# is dsytf2/zsytf2 and _hetf2_lower zhetf2 (complex, hermitian=True) (UPLO='L',
# Bunch-Kaufman with alpha = (1 + sqrt(17)) / 8) step for step, which
# dsytrf runs for matrices below its block size (64); larger ones may pivot differently
# where LAPACK's blocked code and this one round differently near a tie. PyTorch gives
# neither function a derivative (torch::autograd::NotImplemented nodes).
_BK_ALPHA = (1.0 + 17.0 ** 0.5) / 8.0


def _cabs1(z):
    return np.abs(np.real(z)) + np.abs(np.imag(z))


def _abs_real(z):
    return abs(z.real)


def _bk_pivot(A, k, mag, diag_mag):
    """Bunch-Kaufman's partial pivoting at column k of the lower triangle (LAPACK's
    xSYTF2/xHETF2): (kp, kstep), the row to swap with and a 1x1 or 2x2 block, or
    (None, 1) for a zero (or NaN) column. ``mag`` measures off-diagonal entries, ``diag_mag``
    diagonal ones (the real part's magnitude for a Hermitian matrix)."""
    n = A.shape[0]
    absakk = diag_mag(A[k, k])
    if k < n - 1:
        imax = k + 1 + int(np.argmax(mag(A[k + 1:, k])))
        colmax = mag(A[imax, k])
    else:
        imax, colmax = k, 0.0
    if max(absakk, colmax) == 0 or np.isnan(absakk):
        return None, 1
    if absakk >= _BK_ALPHA * colmax:
        return k, 1
    rowmax = mag(A[imax, k:imax]).max()
    if imax < n - 1:
        rowmax = max(rowmax, mag(A[imax + 1:, imax]).max())
    if absakk >= _BK_ALPHA * colmax * (colmax / rowmax):
        return k, 1
    if diag_mag(A[imax, imax]) >= _BK_ALPHA * rowmax:
        return imax, 1
    return imax, 2


def _sytf2_lower(a):
    """One matrix: (LD with the strict upper triangle zero, pivots, info). Complex
    symmetric (zsytf2): magnitudes are LAPACK's |re| + |im|, the arithmetic unconjugated."""
    A = np.tril(a).astype(a.dtype, copy=True)
    mag = _cabs1 if A.dtype.kind == "c" else np.abs
    n = A.shape[0]
    ipiv = np.zeros(n, np.int32)
    info = 0
    k = 0
    while k < n:
        kp, kstep = _bk_pivot(A, k, mag, mag)
        if kp is None:
            if info == 0:
                info = k + 1
            kp = k
        else:
            kk = k + kstep - 1
            if kp != kk:  # interchange rows and columns kk and kp of the trailing block
                if kp < n - 1:
                    A[kp + 1:, [kk, kp]] = A[kp + 1:, [kp, kk]]
                seg = A[kk + 1:kp, kk].copy()
                A[kk + 1:kp, kk] = A[kp, kk + 1:kp]
                A[kp, kk + 1:kp] = seg
                A[kk, kk], A[kp, kp] = A[kp, kp], A[kk, kk]
                if kstep == 2:
                    A[k + 1, k], A[kp, k] = A[kp, k], A[k + 1, k]
            if kstep == 1:
                if k < n - 1:
                    d11 = 1.0 / A[k, k]
                    x = A[k + 1:, k].copy()
                    A[k + 1:, k + 1:] += np.tril(np.multiply.outer(x, -d11 * x))
                    A[k + 1:, k] = x * d11
            elif k < n - 2:
                d21 = A[k + 1, k]
                d11 = A[k + 1, k + 1] / d21
                d22 = A[k, k] / d21
                t = 1.0 / (d11 * d22 - 1.0)
                d21 = t / d21
                c0, c1 = A[k + 2:, k].copy(), A[k + 2:, k + 1].copy()
                wk = d21 * (d11 * c0 - c1)
                wkp1 = d21 * (d22 * c1 - c0)
                A[k + 2:, k + 2:] = np.tril(A[k + 2:, k + 2:] - np.multiply.outer(c0, wk)
                                            - np.multiply.outer(c1, wkp1))
                A[k + 2:, k], A[k + 2:, k + 1] = wk, wkp1
        if kstep == 1:
            ipiv[k] = kp + 1
        else:
            ipiv[k] = ipiv[k + 1] = -(kp + 1)
        k += kstep
    return A, ipiv, info


def _hetf2_lower(a):
    """LAPACK's zhetf2 (UPLO='L'): Bunch-Kaufman for a Hermitian matrix (D's diagonal real,
    the updates conjugated)."""
    A = np.tril(a).astype(a.dtype, copy=True)
    n = A.shape[0]
    ipiv = np.zeros(n, np.int32)
    info = 0
    k = 0
    while k < n:
        kp, kstep = _bk_pivot(A, k, _cabs1, _abs_real)
        if kp is None:
            if info == 0:
                info = k + 1
            kp = k
            A[k, k] = A[k, k].real
        else:
            kk = k + kstep - 1
            if kp != kk:
                if kp < n - 1:
                    A[kp + 1:, [kk, kp]] = A[kp + 1:, [kp, kk]]
                seg = np.conj(A[kk + 1:kp, kk])
                A[kk + 1:kp, kk] = np.conj(A[kp, kk + 1:kp])
                A[kp, kk + 1:kp] = seg
                A[kp, kk] = np.conj(A[kp, kk])
                r1 = A[kk, kk].real
                A[kk, kk] = A[kp, kp].real
                A[kp, kp] = r1
                if kstep == 2:
                    A[k, k] = A[k, k].real
                    A[k + 1, k], A[kp, k] = A[kp, k], A[k + 1, k]
            else:
                A[k, k] = A[k, k].real
                if kstep == 2:
                    A[k + 1, k + 1] = A[k + 1, k + 1].real
            if kstep == 1:
                if k < n - 1:
                    r1 = 1.0 / A[k, k].real
                    x = A[k + 1:, k].copy()
                    A[k + 1:, k + 1:] += np.tril(np.multiply.outer(x, -r1 * np.conj(x)))
                    idx = np.arange(k + 1, n)
                    A[idx, idx] = A[idx, idx].real
                    A[k + 1:, k] = x * r1
            elif k < n - 2:
                d = abs(A[k + 1, k])
                d11 = A[k + 1, k + 1].real / d
                d22 = A[k, k].real / d
                tt = 1.0 / (d11 * d22 - 1.0)
                d21 = A[k + 1, k] / d
                d = tt / d
                c0, c1 = A[k + 2:, k].copy(), A[k + 2:, k + 1].copy()
                wk = d * (d11 * c0 - d21 * c1)
                wkp1 = d * (d22 * c1 - np.conj(d21) * c0)
                A[k + 2:, k + 2:] = np.tril(A[k + 2:, k + 2:] - np.multiply.outer(c0, np.conj(wk))
                                            - np.multiply.outer(c1, np.conj(wkp1)))
                A[k + 2:, k], A[k + 2:, k + 1] = wk, wkp1
                idx = np.arange(k + 2, n)
                A[idx, idx] = A[idx, idx].real
        if kstep == 1:
            ipiv[k] = kp + 1
        else:
            ipiv[k] = ipiv[k + 1] = -(kp + 1)
        k += kstep
    return A, ipiv, info


def _sytrs_lower(LD, ipiv, B, herm=False):
    """LAPACK's dsytrs (UPLO='L'): solve A X = B with A = P L D L^T P^T from _sytf2_lower
    (herm: zhetrs, A = P L D L^H P^T from _hetf2_lower)."""
    B = np.array(B, copy=True)
    cj = np.conj if herm else (lambda x: x)
    n = LD.shape[0]
    k = 0
    while k < n:  # L D Y = B
        if ipiv[k] > 0:
            kp = ipiv[k] - 1
            if kp != k:
                B[[k, kp]] = B[[kp, k]]
            B[k + 1:] -= np.multiply.outer(LD[k + 1:, k], B[k])
            B[k] = B[k] / LD[k, k]
            k += 1
        else:
            kp = -ipiv[k] - 1
            if kp != k + 1:
                B[[k + 1, kp]] = B[[kp, k + 1]]
            B[k + 2:] -= np.multiply.outer(LD[k + 2:, k], B[k])
            B[k + 2:] -= np.multiply.outer(LD[k + 2:, k + 1], B[k + 1])
            akm1k = LD[k + 1, k]
            akm1 = LD[k, k] / cj(akm1k)
            ak = LD[k + 1, k + 1] / akm1k
            denom = akm1 * ak - 1.0
            bkm1, bk = B[k] / cj(akm1k), B[k + 1] / akm1k
            B[k] = (ak * bkm1 - bk) / denom
            B[k + 1] = (akm1 * bk - bkm1) / denom
            k += 2
    k = n - 1
    while k >= 0:  # L^T P^T X = Y
        if ipiv[k] > 0:
            B[k] -= cj(LD[k + 1:, k]) @ B[k + 1:]
            kp = ipiv[k] - 1
            if kp != k:
                B[[k, kp]] = B[[kp, k]]
            k -= 1
        else:
            B[k] -= cj(LD[k + 1:, k]) @ B[k + 1:]
            B[k - 1] -= cj(LD[k + 1:, k - 1]) @ B[k + 1:]
            kp = -ipiv[k] - 1
            if kp != k:
                B[[k, kp]] = B[[kp, k]]
            k -= 2
    return B


LDL_FACTOR_EX = defop("linalg_ldl_factor_ex", "torch::autograd::NotImplemented", None,
                      params=("hermitian",), outputs=("LD", "pivots", "info"),
                      layout=_LAPACK_INFO,
                      diff_outputs=(0,), grads={"self": _not_implemented("linalg_ldl_factor_ex")},
                      jvp=_fw_not_implemented("aten::linalg_ldl_factor_ex"))
LDL_SOLVE = defop("linalg_ldl_solve", "torch::autograd::NotImplemented", None,
                  inputs=("LD", "B"), params=("pivots", "hermitian"), layout="column_major",
                  grads={n: _not_implemented("linalg_ldl_solve") for n in ("LD", "B")},
                  jvp=lambda F, B_t: _fw_raise("Trying to use forward AD with "
                                               "aten::linalg_ldl_solve that does not support it."))
def _fw_raise(message):
    raise NotImplementedError(message)


_LdlFactorExRT = _named_result("linalg_ldl_factor_ex", ("LD", "pivots", "info"))
_LdlFactorRT = _named_result("linalg_ldl_factor", ("LD", "pivots"))


def _ldl_checks(name, a, what="A"):
    if a.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor {what} must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"{name}: {what} must be batches of square matrices, but they are "
                           f"{a.shape[-2]} by {a.shape[-1]} matrices")


def _ldl_factor(A, hermitian, check_errors, name):
    a = A._data
    _ldl_checks(name, a)
    if a.dtype.kind not in "fcV":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got "
                           f"{_type_name(a)}")
    if a.size:  # (Note [Which check refuses a dtype]: an empty input skips the kernel)
        _lapack_dtype(name, "ldl_factor_kernel_cpu", a)
    n = a.shape[-1]
    flat = a.reshape((int(np.prod(a.shape[:-2])), n, n))
    kernel = _hetf2_lower if hermitian and a.dtype.kind == "c" else _sytf2_lower
    parts = [kernel(m) for m in flat]
    LD = np.stack([p[0] for p in parts]).reshape(a.shape) if parts else a.copy()
    piv = (np.stack([p[1] for p in parts]) if parts else
           np.zeros((0, n), np.int32)).reshape(a.shape[:-1])
    info = np.array([p[2] for p in parts], np.int32).reshape(a.shape[:-2])
    if check_errors:
        _ldl_check_errors(name, info)
    return _finish(LDL_FACTOR_EX, (A,), (hermitian,), (LD, piv, info))


def _ldl_check_errors(name, info):
    """PyTorch 2.13's _linalg_check_errors has no message for sytrf's info > 0 (a zero
    block of D): its internal assert fires, and this is the message users see."""
    if info.any():
        code = int(info.reshape(-1)[np.nonzero(info.reshape(-1))[0][0]])
        raise RuntimeError("false INTERNAL ASSERT FAILED at \"/__w/pytorch/pytorch/aten/src/"
                           "ATen/native/BatchLinearAlgebra.cpp\":1642, please report a bug to "
                           f"PyTorch. {name}: Unknown error code: {code}.")


def ldl_factor_ex(A, *, hermitian=False, check_errors=False):
    return _LdlFactorExRT(*_ldl_factor(A, hermitian, check_errors,
                                       "torch.linalg.ldl_factor_ex"))


@view_errors_before_checks
def ldl_factor(A, *, hermitian=False):
    a = A._data
    _ldl_checks("torch.linalg.ldl_factor_ex", a)
    res = _ldl_factor(A, hermitian, False, "torch.linalg.ldl_factor_ex")
    _ldl_check_errors("torch.linalg.ldl_factor", res[2]._data)
    return _LdlFactorRT(res[0], res[1])


def ldl_solve(LD, pivots, B, *, hermitian=False):
    ld, piv, b = LD._data, pivots._data, B._data
    name = "torch.linalg.ldl_solve"
    _ldl_checks(name, ld)
    if b.ndim < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of [-{max(b.ndim, 1)}"
                         f", {max(b.ndim, 1) - 1}], but got -2)")
    if ld.shape[:-1] != piv.shape:
        raise RuntimeError(f"{name}: Expected LD.shape[:-1] and pivots.shape to be the same, but "
                           f"got pivots with shape [{_errors.shape_str(piv.shape)}] instead")
    n = ld.shape[-1]
    if b.shape[-2] != n:
        raise RuntimeError(f"Incompatible matrix sizes for {name}: each A matrix is {n} by {n} "
                           f"but each b matrix is {b.shape[-2]} by {b.shape[-1]}")
    if b.dtype != ld.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{_type_name(b)} and A of type {_type_name(ld)} instead.")
    if ld.size:  # (no kernel for an empty LD, whatever the dtype)
        _lapack_dtype(name, "ldl_solve_kernel_cpu", ld)
    try:
        batch = tuple(np.broadcast_shapes(ld.shape[:-2], b.shape[:-2]))
    except ValueError:
        raise broadcast_error(ld.shape[:-2], b.shape[:-2]) from None
    nb = int(np.prod(batch))
    lds = np.broadcast_to(ld, batch + (n, n)).reshape((nb, n, n))
    pivs = np.broadcast_to(piv, batch + (n,)).reshape((nb, n))
    bs = np.broadcast_to(b, batch + b.shape[-2:]).reshape((nb,) + b.shape[-2:])
    herm = hermitian and ld.dtype.kind == "c"
    X = np.stack([_sytrs_lower(m, p, r, herm) for m, p, r in zip(lds, pivs, bs)]) if \
        bs.shape[0] and ld.size else np.zeros(bs.shape, b.dtype)
    X = X.reshape(batch + b.shape[-2:]).astype(b.dtype, copy=False)
    return _finish(LDL_SOLVE, (LD, B), (piv, hermitian), X)


# ==== eig / eigvals (complex results) ==========================================================
# Note [eig's backward]
# ~~~~~~~~~~~~~~~~~~~~~
# PyTorch's linalg_eig_backward (FunctionsManual.cpp), conjugate-Wirtinger convention:
# gA = V^{-H} (diag(gL) + (V^H gV - V^H V Re(diag(V^H gV))) / conj(E)) V^H with
# E_ij = L_j - L_i; eigenvalues only: gA = V^{-H} diag(gL) V^H. Eigenvectors are defined up to
# a phase e^{i phi} per column; a loss that depends on the phase has no gradient, and
# PyTorch checks Im(diag(V^H gV)) ~ 0 (atol 1e-2) and raises otherwise. A real input gets the
# real part (handle_r_to_c). The formulas run on complex arrays; recording a graph of them
# (create_graph=True) needs complex autograd (conj, real, imag as differentiable ops).
_EIG_GAUGE = ("linalg_eig_backward: The eigenvectors in the complex case are specified up to "
              "multiplication by e^{i phi}. The specified loss function depends on this "
              "quantity, so it is ill-defined.")


def _mH_array(x):
    return np.conj(np.swapaxes(x, -1, -2))


def _eig_backward_arrays(gL, gV, L, V, real_input):
    VH = _mH_array(V)
    if gV is None:
        gA = np.linalg.solve(VH, gL[..., :, None] * VH)
    else:
        VhgV = VH @ gV
        diag = np.diagonal(VhgV, 0, -2, -1)
        if not np.all(np.abs(diag.imag) <= 1e-2):
            raise RuntimeError(_EIG_GAUGE)
        VhgV = VhgV - VH @ (V * diag.real[..., None, :])
        Lc = np.conj(L)
        E = Lc[..., None, :] - Lc[..., :, None]
        n = L.shape[-1]
        E[..., np.arange(n), np.arange(n)] = 1
        ret = VhgV / E
        if gL is not None:
            ret[..., np.arange(n), np.arange(n)] = gL
        gA = np.linalg.solve(VH, ret @ VH)
    return np.ascontiguousarray(gA.real) if real_input else gA


def _eig_backward(F, grads, eigenvalues, eigenvectors, real_input):
    gL, gV = grads
    if gL is None and gV is None:
        return None
    if not F.is_raw:
        raise NotImplementedError("autotensor: the double backward of linalg.eig needs complex "
                                  "autograd, which autotensor does not have yet")
    return _eig_backward_arrays(gL, gV, eigenvalues, eigenvectors, real_input)


def _eig_jvp(F, self_t, eigenvalues, eigenvectors):
    """PyTorch's linalg_eig_jvp: dP = V^{-1} dA V, dL = diag(dP),
    dV = V (dP / E, zero diagonal) - V Re(diag(V^H V (dP / E)))."""
    if self_t is None:
        return None, None
    dA, L, V = self_t._data, eigenvalues._data, eigenvectors._data
    dP = np.linalg.solve(V, dA.astype(V.dtype) @ V)
    dL = np.diagonal(dP, 0, -2, -1).copy()
    n = L.shape[-1]
    E = L[..., None, :] - L[..., :, None]
    E[..., np.arange(n), np.arange(n)] = 1
    dV = dP / E
    dV[..., np.arange(n), np.arange(n)] = 0
    dV = V @ dV
    dV = dV - V * np.diagonal(_mH_array(V) @ dV, 0, -2, -1).real[..., None, :]
    return _make(dL), _make(dV)


EIG = defop("linalg_eig", "LinalgEigBackward0", None, params=("real_input",),
            outputs=("eigenvalues", "eigenvectors"), layout=("contiguous", "column_major"),
            grads={"self": lambda F, grads, eigenvalues, eigenvectors, real_input:
                   _eig_backward(F, grads, eigenvalues, eigenvectors, real_input)},
            jvp=lambda F, self_t, eigenvalues, eigenvectors: _eig_jvp(
                F, self_t, eigenvalues, eigenvectors))
_EigRT = _named_result("linalg_eig", ("eigenvalues", "eigenvectors"))
_COMPLEX_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128,
               np.dtype(np.complex64): np.complex64, np.dtype(np.complex128): np.complex128}


def _eig_checks(name, a):
    if a.dtype.kind not in "fcV":  # (toComplexType of the result's dtype: before the shapes)
        raise RuntimeError(f"Unknown Complex ScalarType for {_type_name(a)}")
    if a.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are "
                           f"{a.shape[-2]} by {a.shape[-1]} matrices")
    if a.dtype.kind not in "fcV":
        raise RuntimeError(f"Unknown Complex ScalarType for {_type_name(a)}")
    if a.dtype not in _COMPLEX_OF:
        raise NotImplementedError(f"\"linalg_eig_out_cpu\" not implemented for '{_type_name(a)}'")
    return _COMPLEX_OF[a.dtype]


def _eig_arrays(a, ctype, vectors=True):
    n = a.shape[-1]
    if a.size == 0:
        return (np.zeros(a.shape[:-1], ctype), np.zeros(a.shape, ctype) if vectors else None)
    if not np.isfinite(a).all():
        if vectors:
            raise RuntimeError("torch.linalg.eig: input tensor should not contain infs or NaNs.")
        return np.full(a.shape[:-1], np.nan + 0j, ctype), None  # (LAPACK's answer varies)
    if not vectors:
        return np.linalg.eigvals(a).astype(ctype), None
    w, V = np.linalg.eig(a)
    return w.astype(ctype), V.astype(ctype).reshape(a.shape[:-2] + (n, n))


@view_errors_before_checks
def eig(A):
    a = A._data
    ctype = _eig_checks("linalg.eig", a)
    w, V = _eig_arrays(a, ctype)
    return _EigRT(*_finish(EIG, (A,), (a.dtype.kind != "c",), (w, V)))


def eigvals(A):
    a = A._data
    if (_state.enabled and A.requires_grad) or _state.fw:
        return eig(A)[0]  # (PyTorch: linalg_eig when a gradient may be asked for: its checks)
    ctype = _eig_checks("linalg.eigvals", a)
    return _make(_eig_arrays(a, ctype, vectors=False)[0])


# ==== randomized low-rank SVD / PCA (torch/_lowrank.py, Halko et al. 2009) =====================
def _lowrank_adj(x):
    """x^H for the low-rank algorithms: a transpose view for real x; for a complex x an
    array without history (a differentiable conj is not available yet)."""
    if x._data.dtype.kind != "c":
        return _mT(x)
    _no_complex_grad("svd_lowrank", x)
    return _make(_mH_arr(x._data))


def _approximate_basis(A, q, niter, M):
    """get_approximate_basis: Q with q orthonormal columns, Q Q^H (A - M) ~ A - M. Draws
    R = randn(n, q) from the default generator, as PyTorch does (same seed, same R)."""
    from .._creation import randn
    from .. import _dtypes as dt
    d = A._data.dtype
    dtype = dt.from_numpy(d) if d.kind == "c" or d in (np.float16, np.float32, np.float64) \
        else dt.float32
    R = randn(A._data.shape[-1], q, dtype=dtype)
    X = matmul(A, R)
    if M is not None:
        X = X - matmul(M, R)
    Q = qr(X).Q
    for _ in range(2 if niter is None else niter):
        X = matmul(_lowrank_adj(A), Q)
        if M is not None:
            X = X - matmul(_lowrank_adj(M), Q)
        Q = qr(X).Q
        X = matmul(A, Q)
        if M is not None:
            X = X - matmul(M, Q)
        Q = qr(X).Q
    return Q


def _svd_lowrank(A, q=6, niter=2, M=None):
    q = 6 if q is None else q
    m, n = A._data.shape[-2:]
    if M is not None:
        M = expand(M, A._data.shape)
    if m < n:
        A = _lowrank_adj(A)
        if M is not None:
            M = _lowrank_adj(M)
    Q = _approximate_basis(A, q, niter, M)
    B = matmul(_lowrank_adj(Q), A)
    if M is not None:
        B = B - matmul(_lowrank_adj(Q), M)
    U, S, Vh = svd(B, full_matrices=False)
    V = _lowrank_adj(Vh)
    U = matmul(Q, U)
    if m < n:
        U, V = V, U
    return U, S, V


def svd_lowrank(A, q=6, niter=2, M=None):
    return _svd_lowrank(A, q=q, niter=niter, M=M)


def pca_lowrank(A, q=None, center=True, niter=2):
    from .reduction import mean
    m, n = A._data.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not (q >= 0 and q <= min(m, n)):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than min(m, n)="
                         f"{min(m, n)}")
    if not (niter >= 0):
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return _svd_lowrank(A, q, niter=niter, M=None)
    C = mean(A, dim=(-2,), keepdim=True)
    return _svd_lowrank(A - C, q, niter=niter, M=None)


def _frobenius_rule():
    from .reduction import NORM
    return NORM.formulas[0][0], NORM.jvp


# aten::norm.ScalarOpt_dim, which at::frobenius_norm calls: the vector norm's formulas,
# PyTorch's other node name.
NORM_DIM = defop("norm", "NormBackward1", None, params=("ord", "dim", "keepdim"),
                 grads={"self": lambda F, grad, self, ord, dim, keepdim, result:
                        _frobenius_rule()[0](F, grad, self, ord, dim, keepdim, result)},
                 jvp=lambda F, self, self_t, ord, dim, keepdim, result:
                     _frobenius_rule()[1](F, self, self_t, ord, dim, keepdim, result))


def frobenius_norm(input, dim, keepdim=False):
    """at::frobenius_norm: at::norm(input, 2, dim, keepdim) (NormBackward1), <= 2 dims."""
    from ._common import _dims
    d = input._data
    dim = (dim,) if isinstance(dim, int) else tuple(dim)
    if len(dim) > 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(dim)} dimensions "
                           "instead.")
    if d.dtype.kind not in "fcV":  # (V: bfloat16)
        raise RuntimeError("norm(): input dtype should be either floating point or complex. Got "
                           f"{_type_name(d)} instead.")
    dims = _dims(dim, d.ndim) if d.ndim else None
    a = np.abs(_acc(d))
    out = np.sqrt(np.sum(a * a, axis=dims, keepdims=keepdim))
    out = _asarray(out).astype(_real_dtype(d.dtype), copy=False)
    return _finish(NORM_DIM, (input,), (2.0, dims, keepdim), out)


def nuclear_norm(input, dim=None, keepdim=False):
    """at::nuclear_norm: linalg.matrix_norm(input, 'nuc', dim); (input, keepdim) overload."""
    if isinstance(dim, bool):
        dim, keepdim = None, dim
    return matrix_norm(input, "nuc", (-2, -1) if dim is None else dim, keepdim)


# ---- the in-place add family (issue 11) -------------------------------------------------------
def _add_family_(op, fn, self, a, b, beta, alpha, bad_shape=None, out_shape=None):
    """``self.addmm_(a, b)`` and its kin: the out-of-place checks and value (no graph), then
    one in-place record of the same node (AddmmBackward0...) as PyTorch's."""
    from ..autograd import grad_mode, inplace
    inplace.check_inplace(self, (self, a, b), inference=False)  # (autograd's checks before
    view_errors_first(self, a, b)  # the kernel's: a leaf, a no_grad view, a stale view)
    if not (self._data.dtype == a._data.dtype == b._data.dtype):
        with grad_mode.no_grad():  # (the out-of-place dtype error comes first)
            fn(self.detach(), a.detach(), b.detach(), beta=beta, alpha=alpha)
    if out_shape is not None and tuple(self._data.shape) != out_shape:
        raise RuntimeError(f"Bad in-place call: input tensor size [{_errors.shape_str(self.shape)}]"
                           f" and output tensor size [{_errors.shape_str(out_shape)}] should "
                           f"match")
    with grad_mode.no_grad():
        value = fn(self.detach(), a.detach(), b.detach(), beta=beta, alpha=alpha)._data
    if value.shape != self._data.shape:
        if bad_shape is not None:
            raise RuntimeError(bad_shape)
        raise RuntimeError(f"Bad in-place call: input tensor size [{_errors.shape_str(self.shape)}]"
                           f" and output tensor size [{_errors.shape_str(value.shape)}] should "
                           f"match")
    params = (beta, alpha) + (_layouts(a._data, b._data) if op is ADDMM else ())
    return inplace.record_inplace(op, self, (self, a, b), params, value)


def addmm_(self, mat1, mat2, *, beta=1, alpha=1):
    out_shape = ((mat1.shape[0], mat2.shape[-1]) if mat1.ndim == mat2.ndim == 2 and
                 mat1.shape[1] == mat2.shape[0] else None)  # (its meta's checks first)
    return _add_family_(ADDMM, addmm, self, mat1, mat2, beta, alpha, out_shape=out_shape)


def addmv_(self, mat, vec, *, beta=1, alpha=1):
    out_shape = ((mat.shape[0],) if mat.ndim == 2 and vec.ndim == 1 and self.ndim <= 1 and
                 mat.shape[1] == vec.shape[0] and self.numel() in (1, mat.shape[0]) else None)
    # (its meta's checks first, then the output's shape)
    return _add_family_(ADDMV, addmv, self, mat, vec, beta, alpha, out_shape=out_shape)


def addr_(self, vec1, vec2, *, beta=1, alpha=1):
    from ..autograd import inplace
    inplace.check_inplace(self, (self, vec1, vec2), inference=False)  # (autograd's checks,
    view_errors_first(self, vec1, vec2)  # then addr_'s in PyTorch's order: the vectors'
    for name, v in (("vec1", vec1), ("vec2", vec2)):  # ranks, self's rank, its sizes)
        if v.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v.ndim}-D")
    if self.ndim != 2:
        raise RuntimeError(f"2D tensor expected, got {self.ndim}D tensor for input")
    bad = (f"size mismatch, input: [{_errors.shape_str(self.shape)}], v1: "
           f"[{_errors.shape_str(vec1.shape)}], v2: [{_errors.shape_str(vec2.shape)}]")
    if tuple(self.shape) != (vec1.shape[0], vec2.shape[0]):
        raise RuntimeError(bad)
    return _add_family_(ADDR, addr, self, vec1, vec2, beta, alpha, bad)


def baddbmm_(self, batch1, batch2, *, beta=1, alpha=1):
    # (its meta expands self and checks the batches as baddbmm's, then the output's shape)
    return _add_family_(BADDBMM, baddbmm, self, batch1, batch2, beta, alpha)


def addbmm_(self, batch1, batch2, *, beta=1, alpha=1):
    return _add_family_(ADDBMM, addbmm, self, batch1, batch2, beta, alpha)


# Note [Complex gradients of products] above: this family's formulas conjugate through
# ``_cj`` themselves, so the generic conjugation of a complex gradient (Note [Complex
# gradients] in autograd/graph.py) leaves every entry here alone.
for _op in [v for v in list(globals().values()) if isinstance(v, _OpDef)]:
    _op.complex_aware = True


# Note [Linear algebra's tangents of another dtype]: PyTorch's linear-algebra forward rules
# multiply or solve a tangent with the primal's factors (eigh_jvp's V^H A_t V, linalg_lu_jvp's
# L^-1 P^T A_t U^-1, linalg_det_jvp's lu_solve(LU, pivots, A_t)), whose kernels refuse two
# dtypes: a tangent of another dtype than its primal raises that kernel's error (mm's
# "expected m1 and m2 to have the same dtype" for matrices, bmm's "expected scalar type"
# for batches), primal or tangent first as the formula's first product has them; ours,
# derived by transposition or promoting, computed. ``tangent_check`` (dispatch.jvp_of).
def _matmul_refusal(first, second):
    """mm's (matrices) or bmm's (batches) refusal of two dtypes, in operand order."""
    a, b = first._data, second._data
    if a.ndim <= 2 and b.ndim <= 2:
        _check_same_dtype(first, second)
    raise RuntimeError(f"expected scalar type {_type_name(a)} but found {_type_name(b)}")


def _refuses_mixed(tangent_first=False, which=None):
    """``which``: the inputs whose tangent meets a product (all by default)."""
    def check(inputs, tangents):
        for i, (x, x_t) in enumerate(zip(inputs, tangents)):
            if x_t is not None and x_t._data.dtype != x._data.dtype and \
                    (which is None or i in which):
                _matmul_refusal(*((x_t, x) if tangent_first else (x, x_t)))
    return check


def _lu_solve_refusal(inputs, tangents):
    """linalg_det_jvp / slogdet_jvp: lu_solve(LU, pivots, A_t), LU of A's dtype."""
    (A,), (A_t,) = inputs[:1], tangents[:1]
    if A._data.dtype.itemsize == 2 and A._data.dtype.kind in "fV":
        return None  # (a half A: the kernel's own refusal, _det_jvp)
    raise RuntimeError(f"linalg.lu_solve: Expected LU and B to have the same dtype, but found "
                       f"LU of type {_type_name(A._data)} and B of type {_type_name(A_t._data)} "
                       f"instead")


DET.tangent_check = SLOGDET.tangent_check = _lu_solve_refusal
for _op in (EIGH, LU, LU_FACTOR_EX, CHOLESKY_INVERSE):
    _op.tangent_check = _refuses_mixed()
HOUSEHOLDER_PRODUCT.tangent_check = _refuses_mixed(tangent_first=True)


def _triangular_solve_refusal(inputs, tangents):
    """triangular_solve_jvp: dA's product first (tangent first); then dB solved with A,
    whose kernel takes a dB that promotes to A's dtype and refuses a wider one."""
    _refuses_mixed(tangent_first=True, which=(1,))(inputs, tangents)
    A, b_t = inputs[1], tangents[0]
    if b_t is not None and np.promote_types(b_t._data.dtype if b_t._data.dtype.kind == "f"
                                            else np.float32, A._data.dtype) != A._data.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{_type_name(b_t._data)} and A of type {_type_name(A._data)} "
                           f"instead.")


TRIANGULAR_SOLVE.tangent_check = _triangular_solve_refusal
for _op in (CHOLESKY_EX, LU_FACTOR_EX, LU_SOLVE, CHOLESKY_INVERSE, HOUSEHOLDER_PRODUCT):
    _op.transposes_in_primal_dtype = True  # (Note [Tangents of another dtype in linear
    # rules] in dispatch.py: these are not linear in their input)
