"""Linear algebra: mm/bmm/dot/mv/matmul/addmm/outer/linear, recorded as PyTorch decomposes
them (so node names match).
"""
from .. import _dtypes, _errors
from .._backend import np
from .._tensor import _make
from . import raw
from .dispatch import broadcast_error, defop, set_input_metadata
from ._common import _asarray, _broadcastable, _check_tensor_arg, _finish, _py_all, _py_max, _state
from .pointwise import add, contiguous, mul
from .shape import (expand, _mT, reshape, _squeeze_inplace_dim, squeeze, t, _unsafe_view,
                    unsqueeze, view)

# ---- forward-mode rules (Note [Forward mode] in autograd/forward_ad.py) ------------------
def _bilinear(F, f, a, a_t, b, b_t):
    """Tangent of f(a, b) for f bilinear: f(a_t, b) + f(a, b_t), skipping absent tangents
    (but, as PyTorch's zero tangents do, a term whose primal requires grad is kept in the
    graph: the tangent is then differentiable wrt it)."""
    if _state.enabled:
        if a_t is None and b._requires_grad:
            a_t = F.zeros_like(a)
        if b_t is None and a._requires_grad:
            b_t = F.zeros_like(b)
    out = None if a_t is None else f(a_t, b)
    if b_t is not None:
        c = f(a, b_t)
        out = c if out is None else out + c
    return out


def _dot(a, b):
    return dot(a, b)


def _addmm_jvp(F, self_t, mat1, mat1_t, mat2, mat2_t, beta, alpha):
    out = _bilinear(F, F.mm, mat1, mat1_t, mat2, mat2_t)
    if out is not None and alpha != 1:
        out = out * alpha
    if self_t is not None:
        s = self_t if beta == 1 else self_t * beta
        out = s if out is None else out + s
    return out


# Linear algebra.
MM = defop("mm", "MmBackward0", raw.mm, inputs=("self", "mat2"),
           grads={"self": lambda F, grad, mat2: F.mm(grad, F.t(mat2)),
                  "mat2": lambda F, grad, self: F.mm(F.t(self), grad)},
           jvp=lambda F, self, self_t, mat2, mat2_t: _bilinear(F, F.mm, self, self_t, mat2, mat2_t))
def _mat2_grad(F, grad, mat1):
    """mat1^T @ grad, computed as (grad^T @ mat1)^T: the same numbers, laid out so that
    for linear's t(weight) the weight's gradient arrives C-contiguous (no copy later)."""
    return F.t(F.mm(F.t(grad), mat1))


def _addmm(bias, m1, m2, beta, alpha):
    if beta != 1 or alpha != 1:
        return beta * bias + alpha * (m1 @ m2)
    out = m1 @ m2
    out += bias  # in place: the product is a fresh array
    return out


ADDMM = defop("addmm", "AddmmBackward0", _addmm,
              inputs=("self", "mat1", "mat2"), params=("beta", "alpha"),
              grads={"self": lambda F, grad, beta: grad if beta == 1 else grad * beta,
                     "mat1": lambda F, grad, mat2, alpha: F.mm(grad, F.t(mat2)) * alpha
                     if alpha != 1 else F.mm(grad, F.t(mat2)),
                     "mat2": lambda F, grad, mat1, alpha: _mat2_grad(F, grad, mat1) * alpha
                     if alpha != 1 else _mat2_grad(F, grad, mat1)},
              jvp=lambda F, self_t, mat1, mat1_t, mat2, mat2_t, beta, alpha:
                  _addmm_jvp(F, self_t, mat1, mat1_t, mat2, mat2_t, beta, alpha))
BMM = defop("bmm", "BmmBackward0", raw.matmul, inputs=("self", "mat2"),
            grads={"self": lambda F, grad, mat2: F.matmul(grad, F.transpose(mat2, 1, 2)),
                   "mat2": lambda F, grad, self: F.matmul(F.transpose(self, 1, 2), grad)},
            jvp=lambda F, self, self_t, mat2, mat2_t:
                _bilinear(F, F.matmul, self, self_t, mat2, mat2_t))
DOT = defop("dot", "DotBackward0", lambda a, b: raw.asarray(np.dot(a, b)),
            inputs=("self", "tensor"),
            grads={"self": lambda F, grad, tensor: grad * tensor,
                   "tensor": lambda F, grad, self: grad * self},
            jvp=lambda F, self, self_t, tensor, tensor_t:
                _bilinear(F, _dot, self, self_t, tensor, tensor_t))
MV = defop("mv", "MvBackward0", raw.matmul, inputs=("self", "vec"),
           grads={"self": lambda F, grad, vec: F.unsqueeze(grad, 1) * F.unsqueeze(vec, 0),
                  "vec": lambda F, grad, self: F.matmul(F.t(self), grad)},
           jvp=lambda F, self, self_t, vec, vec_t: _bilinear(F, F.matmul, self, self_t, vec, vec_t))


# ---- linear algebra --------------------------------------------------------------------------
def _check_same_dtype(a, b, what="expected m1 and m2 to have the same dtype"):
    if a._data.dtype != b._data.dtype:
        da = _dtypes.cpp_name(_dtypes.from_numpy(a._data.dtype))
        db = _dtypes.cpp_name(_dtypes.from_numpy(b._data.dtype))
        raise RuntimeError(f"{what}, but got: {da} != {db}")


def mm(input, mat2):
    _check_tensor_arg("mm", "mat2", mat2, 1)
    a, b = input._data, mat2._data
    if a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(_errors.MM_SHAPES.format(a.shape[0], a.shape[1], b.shape[0],
                                                    b.shape[1]))
    _check_same_dtype(input, mat2)
    _no_bool("addmm_impl_cpu_", a)
    return _finish(MM, (input, mat2), (), a @ b)


def _no_bool(kernel, a):
    """PyTorch has no bool matrix products."""
    if a.dtype == np.bool_:
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")


def bmm(input, mat2):
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
            return _make(np.zeros((a.shape[0], a.shape[1], b.shape[2]), dtype=b.dtype))
        _no_bool("bmm", a)
        raise RuntimeError(f"expected scalar type {_dtypes.scalar_name(input.dtype)} but found "
                           f"{_dtypes.scalar_name(mat2.dtype)}")
    if a.size and b.size:
        _no_bool("bmm", a)
    return _finish(BMM, (input, mat2), (), _asarray(np.matmul(a, b)))


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
    return _finish(DOT, (input, tensor), (), _asarray(np.dot(a, b)))


def mv(input, vec):
    a, b = input._data, vec._data
    if a.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if a.ndim != 2 or b.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.ndim}, {b.ndim}")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat "
                           f"({a.shape[0]}x{a.shape[1]}), vec ({b.shape[0]})")
    if a.dtype != b.dtype:
        # the first is the result's dtype, which PyTorch takes from the vector
        names = [_dtypes.scalar_name(_dtypes.from_numpy(x)) for x in (b.dtype, a.dtype, b.dtype)]
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                           f"{names[0]}, {names[1]}, and {names[2]}")
    _no_bool("addmv_impl_cpu", a)
    return _finish(MV, (input, vec), (), a @ b)


def matmul(input, other):
    """PyTorch's matmul, decomposed the same way (so grad_fn names match)."""
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
    if (tensor2 if larger_first else tensor1)._requires_grad and _state.enabled:
        return True
    if n1 == 2:
        return False
    t1 = tensor1._data if larger_first else np.swapaxes(tensor2._data, -1, -2)
    if t1.size == 0:
        return True
    shape, strides = t1.shape, t1.strides
    return _py_all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(dim_t1 - 2))


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    a, b = mat1._data, mat2._data
    if a.dtype != b.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                           f"{_dtypes.scalar_name(_dtypes.from_numpy(a.dtype))} and "
                           f"{_dtypes.scalar_name(_dtypes.from_numpy(b.dtype))}")
    if input._data.dtype != b.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                           f"{_dtypes.scalar_name(_dtypes.from_numpy(input._data.dtype))} and "
                           f"{_dtypes.scalar_name(_dtypes.from_numpy(b.dtype))}")
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
    out = ADDMM.kernel(input._data, a, b, beta, alpha)
    result = _finish(ADDMM, (input, mat1, mat2), (beta, alpha), out)
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
