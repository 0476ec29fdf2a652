"""Reductions, scans and sorting: sum/mean/max/min/amax/amin/prod/norm, softmax/log_softmax/
logsumexp, cumsum, sort/argsort/topk. Table entries and formula helpers first, then the
public functions.
"""
from .. import _dtypes
from .._backend import np
from .._tensor import _make, Tensor
from . import raw
from .dispatch import defop
from ._common import _asarray, _dims, _finish, _float_data, _state, _wrap_dim
from .pointwise import maximum, minimum


def reduce_backward(F, grad, dims, keepdim, sizes):
    """Gradient of a reduction over ``dims``: broadcast grad back to the input's sizes."""
    if not keepdim and sizes:
        shape = list(sizes)
        for d in (range(len(sizes)) if dims is None else dims):
            shape[d] = 1
        grad = F.reshape(grad, tuple(shape))
    return F.expand(grad, sizes)


def _numel(sizes, dims=None):
    n = 1
    for i, s in enumerate(sizes):
        if dims is None or i in dims:
            n *= s
    return n


def max_min_backward(F, grad, self, result):
    """Ties share the gradient evenly (PyTorch's evenly_distribute_backward)."""
    mask = self == result
    count = F.sum(F.cast_like(mask, grad))
    return F.where(mask, grad / count, F.zeros_like(self))


def select_dim_backward(F, grad, dim, keepdim, indices, self_sizes):
    """Gradient of max/min over a dim: the grad goes to the selected index."""
    if not self_sizes:  # a 0-d input: the op was the identity
        return F.reshape(grad, ())
    if not keepdim:
        grad = F.unsqueeze(grad, dim)
        indices = F.unsqueeze(indices, dim)
    return F.scatter_add(F.zeros(self_sizes, grad), dim, indices, grad)


def norm_backward(F, grad, self, ord, dim, keepdim, result):
    if not keepdim and dim is not None and self.ndim:
        for d in sorted(dim):
            grad = F.unsqueeze(grad, d)
            result = F.unsqueeze(result, d)
    if ord == 2:
        scale = F.where(result == 0, F.zeros_like(result), grad / result)
        return self * scale
    if ord == 1:
        return F.sign(self) * grad
    if ord == float("inf") or ord == float("-inf"):
        mask = F.abs(self) == result
        count = F.sum(F.cast_like(mask, grad), dim, True) if dim is not None else \
            F.sum(F.cast_like(mask, grad))
        return F.where(mask, F.sign(self) * grad / count, F.zeros_like(self))
    if ord == 0:
        return F.zeros_like(self)
    scale = F.where(result == 0, F.zeros_like(result), grad / result ** (ord - 1))
    return self * F.abs(self) ** (ord - 2) * scale


def _mean_divisor(F, grad, self_sizes, dim):
    return grad / _numel(self_sizes, dim)


CUMSUM = defop("cumsum", "CumsumBackward0", lambda a, dim: np.cumsum(a, axis=dim),
               params=("dim",),
               grads={"self": lambda F, grad, dim: F.flip(F.cumsum(F.flip(grad, (dim,)), dim),
                                                          (dim,))})


def amax_amin_backward(F, grad, self, dim, keepdim, result):
    """Ties share the gradient evenly (PyTorch's scale_grad_by_count)."""
    if not keepdim and dim is not None:
        for d in dim:
            grad = F.unsqueeze(grad, d)
            result = F.unsqueeze(result, d)
    mask = F.cast_like(self == result, grad)
    count = F.sum(mask, dim, True) if dim is not None else F.sum(mask)
    return F.expand(grad, self.shape) * mask / count


def prod_backward(F, grad, self, dim, keepdim, result):
    """d prod / d x_i = product of the others (computed without dividing by zeros)."""
    if dim is not None and not keepdim:
        grad = F.unsqueeze(grad, dim)
        result = F.unsqueeze(result, dim)
    if not (self == 0).any():
        return grad * result / self
    return grad * F.constant(_prod_others(_values(self), dim), grad)


def _values(x):
    return x._data if hasattr(x, "_data") else x


def _prod_others(x, dim):
    """For each element, the product of the other elements along dim (all if None)."""
    shape = x.shape
    a = x.reshape(-1) if dim is None else np.moveaxis(x, dim, -1)
    ones = np.ones(a.shape[:-1] + (1,), dtype=a.dtype)
    left = np.cumprod(np.concatenate([ones, a[..., :-1]], -1), -1)
    right = np.flip(np.cumprod(np.concatenate([ones, np.flip(a, -1)[..., :-1]], -1), -1), -1)
    others = left * right
    return others.reshape(shape) if dim is None else np.moveaxis(others, -1, dim)


AMAX = defop("amax", "AmaxBackward0", None, params=("dim", "keepdim"),
             grads={"self": amax_amin_backward})
AMIN = defop("amin", "AminBackward0", None, params=("dim", "keepdim"),
             grads={"self": amax_amin_backward})
PROD = defop("prod", "ProdBackward0", None, params=("dim", "keepdim"),
             grads={"self": prod_backward})
PROD_DIM = defop("prod", "ProdBackward1", None, params=("dim", "keepdim"),
                 grads={"self": prod_backward})
LOGSUMEXP = defop("logsumexp", "LogsumexpBackward0", None, params=("dim", "keepdim"),
                  grads={"self": lambda F, grad, self, dim, keepdim, result: (
                      _unsqueeze_dims(F, grad, dim, keepdim)
                      * F.exp(self - _unsqueeze_dims(F, result, dim, keepdim)))})


def _unsqueeze_dims(F, x, dims, keepdim):
    if not keepdim:
        for d in dims:
            x = F.unsqueeze(x, d)
    return x


SORT = defop("sort", "SortBackward0", None, params=("dim", "descending"),
             outputs=("values", "indices"), diff_outputs=(0,),
             grads={"self": lambda F, grads, dim, indices, self_sizes:
                    select_dim_backward(F, grads[0], dim, True, indices, self_sizes)})
TOPK = defop("topk", "TopkBackward0", None, params=("k", "dim"),
             outputs=("values", "indices"), diff_outputs=(0,),
             grads={"self": lambda F, grads, dim, indices, self_sizes:
                    select_dim_backward(F, grads[0], dim, True, indices, self_sizes)})


# Reductions.
SUM = defop("sum", "SumBackward0", lambda a: raw.sum(a),
            grads={"self": lambda F, grad, self_sizes: F.expand(grad, self_sizes)})
SUM_DIM = defop("sum", "SumBackward1", raw.sum, params=("dim", "keepdim"),
                grads={"self": lambda F, grad, dim, keepdim, self_sizes:
                       reduce_backward(F, grad, dim, keepdim, self_sizes)})
MEAN = defop("mean", "MeanBackward0", lambda a: raw.mean(a),
             grads={"self": lambda F, grad, self_sizes:
                    F.expand(grad / _numel(self_sizes), self_sizes)})
MEAN_DIM = defop("mean", "MeanBackward1", raw.mean, params=("dim", "keepdim"),
                 grads={"self": lambda F, grad, dim, keepdim, self_sizes: reduce_backward(
                     F, _mean_divisor(F, grad, self_sizes, dim), dim, keepdim, self_sizes)})
MAX = defop("max", "MaxBackward1", lambda a: raw.asarray(np.max(a)),
            grads={"self": max_min_backward})
MIN = defop("min", "MinBackward1", lambda a: raw.asarray(np.min(a)),
            grads={"self": max_min_backward})
MAX_DIM = defop("max", "MaxBackward0", None, params=("dim", "keepdim"),
                outputs=("values", "indices"), diff_outputs=(0,),
                grads={"self": lambda F, grads, dim, keepdim, indices, self_sizes:
                       select_dim_backward(F, grads[0], dim, keepdim, indices, self_sizes)})
MIN_DIM = defop("min", "MinBackward0", None, params=("dim", "keepdim"),
                outputs=("values", "indices"), diff_outputs=(0,),
                grads={"self": lambda F, grads, dim, keepdim, indices, self_sizes:
                       select_dim_backward(F, grads[0], dim, keepdim, indices, self_sizes)})
NORM = defop("norm", "LinalgVectorNormBackward0", None, params=("ord", "dim", "keepdim"),
             grads={"self": norm_backward})
SOFTMAX = defop("softmax", "SoftmaxBackward0", raw.softmax, params=("dim",),
                grads={"self": lambda F, grad, dim, result:
                       result * (grad - F.sum(grad * result, dim, True))})
LOG_SOFTMAX = defop("log_softmax", "LogSoftmaxBackward0", raw.log_softmax, params=("dim",),
                    grads={"self": lambda F, grad, dim, result:
                           grad - F.exp(result) * F.sum(grad, dim, True)})


# ---- reductions ------------------------------------------------------------------------------
def _sum_dtype(d, dtype):
    if dtype is not None:
        return d.astype(dtype.np)
    if d.dtype.kind in "biu":
        return d.astype(np.int64)
    return d


def sum(input, dim=None, keepdim=False, *, dtype=None):
    d = _sum_dtype(input._data, dtype)
    dims = _dims(dim, d.ndim)
    if d.ndim == 0 and dims is not None:  # dim 0 of a 0-d tensor is the tensor itself
        return _finish(SUM_DIM, (input,), (None, keepdim), d.copy())
    if dims is None and not keepdim:
        out = _asarray(np.sum(d))
        return _finish(SUM, (input,), (), out.astype(d.dtype, copy=False))
    out = _asarray(np.sum(d, axis=dims, keepdims=keepdim))
    return _finish(SUM_DIM, (input,), (dims, keepdim), out.astype(d.dtype, copy=False))


def mean(input, dim=None, keepdim=False, *, dtype=None):
    d = input._data
    if dtype is not None:
        d = d.astype(dtype.np)
    if d.dtype.kind not in "fc":
        raise RuntimeError(
            f"mean(): could not infer output dtype. Input dtype must be either a floating "
            f"point or complex dtype. Got: {_dtypes.scalar_name(_dtypes.from_numpy(d.dtype))}")
    dims = _dims(dim, d.ndim)
    if d.ndim == 0 and dims is not None:
        return _finish(MEAN_DIM, (input,), (None, keepdim), d.copy())
    if dims is None and not keepdim:
        out = _asarray(np.mean(d)).astype(d.dtype, copy=False)
        return _finish(MEAN, (input,), (), out)
    out = _asarray(np.mean(d, axis=dims, keepdims=keepdim)).astype(d.dtype, copy=False)
    return _finish(MEAN_DIM, (input,), (dims, keepdim), out)


class _ReturnTypes(tuple):
    """PyTorch's named tuples for (values, indices) results."""

    __slots__ = ()
    _fields = ("values", "indices")
    _name = "torch.return_types.max"

    def __new__(cls, values, indices, name):
        self = tuple.__new__(cls, (values, indices))
        return self

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self):
        return f"torch.return_types.{self._kind}(\nvalues={self[0]!r},\nindices={self[1]!r})"


def _return_type(kind):
    return type(kind, (_ReturnTypes,), {"__slots__": (), "_kind": kind})


_MaxRT, _MinRT, _SortRT, _TopkRT = (_return_type(k) for k in ("max", "min", "sort", "topk"))


def _max_min(input, dim, keepdim, other, is_max):
    if other is not None:
        return (maximum if is_max else minimum)(input, other)
    d = input._data
    if dim is None:
        if d.size == 0:
            raise RuntimeError(
                f"{'max' if is_max else 'min'}(): Expected reduction dim to be specified for "
                f"input.numel() == 0. Specify the reduction dim with the 'dim' argument.")
        out = _asarray(np.max(d) if is_max else np.min(d))
        return _finish(MAX if is_max else MIN, (input,), (), out)
    dim = _wrap_dim(dim, d.ndim)
    if d.ndim and d.shape[dim] == 0:
        raise IndexError(f"{'max' if is_max else 'min'}(): Expected reduction dim {dim} to "
                         f"have non-zero size.")
    if d.ndim == 0:
        values, indices = d.copy(), np.zeros((), np.int64)
    else:
        indices = np.argmax(d, axis=dim) if is_max else np.argmin(d, axis=dim)
        if d.dtype.kind == "f":
            # PyTorch propagates NaN: the first NaN wins
            nan = np.isnan(d)
            if nan.any():
                indices = np.where(nan.any(axis=dim), np.argmax(nan, axis=dim), indices)
        idx = np.expand_dims(indices, dim)
        values = np.take_along_axis(d, idx, axis=dim)
        if keepdim:
            indices = idx
        else:
            values = np.squeeze(values, dim)
    op = MAX_DIM if is_max else MIN_DIM
    v, i = _finish(op, (input,), (dim, keepdim), (_asarray(values), _asarray(indices))) \
        if input._requires_grad and _state.enabled else (_make(_asarray(values)),
                                                           _make(_asarray(indices)))
    return (_MaxRT if is_max else _MinRT)(v, i, None)


def max(input, dim=None, keepdim=False, *, other=None):
    if isinstance(dim, Tensor):
        return maximum(input, dim)
    return _max_min(input, dim, keepdim, other, True)


def min(input, dim=None, keepdim=False, *, other=None):
    if isinstance(dim, Tensor):
        return minimum(input, dim)
    return _max_min(input, dim, keepdim, other, False)


def _amax_amin(op, reduce, name, input, dim, keepdim):
    d = input._data
    dims = _dims(dim, d.ndim) if dim != () else None
    axis = dims if d.ndim else None
    if d.size == 0 and axis is None and d.ndim:
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for "
                           f"input.numel() == 0. Specify the reduction dim with the 'dim' "
                           f"argument.")
    given = (dim,) if isinstance(dim, int) else tuple(dim) if dim != () else ()
    for a, orig in zip(axis or (), given):
        if d.shape[a] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {orig} to have non-zero "
                             f"size.")
    out = _asarray(reduce(d, axis=axis, keepdims=keepdim and d.ndim > 0))
    return _finish(op, (input,), (dims if d.ndim else None, keepdim), out)


def amax(input, dim=(), keepdim=False):
    """Maximum over dims; ties share the gradient evenly."""
    return _amax_amin(AMAX, np.max, "amax", input, dim, keepdim)


def amin(input, dim=(), keepdim=False):
    """Minimum over dims; ties share the gradient evenly."""
    return _amax_amin(AMIN, np.min, "amin", input, dim, keepdim)


def _arg_reduce(ufunc, name, input, dim, keepdim):
    d = input._data
    if d.dtype == np.bool_:
        raise RuntimeError(f"{name}(): does not support bool input")
    if dim is None:
        if d.size == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for "
                             f"input.numel() == 0.")
        return _make(_asarray(ufunc(d)).astype(np.int64))
    dim = _wrap_dim(dim, d.ndim)
    if d.ndim == 0:
        return _make(np.zeros((), np.int64))
    if d.shape[dim] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")
    return _make(_asarray(ufunc(d, axis=dim, keepdims=keepdim)).astype(np.int64))


def argmax(input, dim=None, keepdim=False):
    return _arg_reduce(np.argmax, "argmax", input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    return _arg_reduce(np.argmin, "argmin", input, dim, keepdim)


def prod(input, dim=None, keepdim=False, *, dtype=None):
    """Product of elements (over one dim); the gradient handles zeros exactly."""
    d = _sum_dtype(input._data, dtype)
    if dim is None:
        return _finish(PROD, (input,), (None, False), _asarray(np.prod(d)))
    dim = _wrap_dim(dim, d.ndim)
    if d.ndim == 0:
        return _finish(PROD_DIM, (input,), (None, keepdim), d.copy())
    out = _asarray(np.prod(d, axis=dim, keepdims=keepdim))
    return _finish(PROD_DIM, (input,), (dim, keepdim), out)


def all(input, dim=None, keepdim=False):
    d = input._data
    return _make(_asarray(np.all(d, axis=None if dim is None else _wrap_dim(dim, d.ndim),
                                 keepdims=keepdim)))


def any(input, dim=None, keepdim=False):
    d = input._data
    return _make(_asarray(np.any(d, axis=None if dim is None else _wrap_dim(dim, d.ndim),
                                 keepdims=keepdim)))


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    """Vector norms (PyTorch records them as linalg_vector_norm)."""
    if p == "fro" or p is None:
        p = 2
    if isinstance(dim, (int, np.integer)):
        dim = (dim,)
    return _vector_norm(input, p, dim, keepdim)


def _vector_norm(input, ord, dim, keepdim):
    d = input._data
    if d.dtype.kind not in "fc":
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {_dtypes.scalar_name(_dtypes.from_numpy(d.dtype))}")
    dims = _dims(dim, d.ndim) if dim is not None and d.ndim else None
    a = np.abs(d)
    if ord == 2:
        out = np.sqrt(np.sum(a * a, axis=dims, keepdims=keepdim))
    elif ord == float("inf"):
        out = np.max(a, axis=dims, keepdims=keepdim)
    elif ord == float("-inf"):
        out = np.min(a, axis=dims, keepdims=keepdim)
    elif ord == 0:
        out = np.sum(a != 0, axis=dims, keepdims=keepdim).astype(d.dtype)
    elif ord == 1:
        out = np.sum(a, axis=dims, keepdims=keepdim)
    else:
        out = np.sum(a ** ord, axis=dims, keepdims=keepdim) ** (1.0 / ord)
    out = _asarray(out).astype(d.dtype.type(0).real.dtype, copy=False)
    return _finish(NORM, (input,), (ord, dims, keepdim), out)


def _check_softmax_dtype(name, d, dim):
    if d.dtype.kind not in "fc" and d.size:
        kernel = f"{name}_lastdim_kernel_impl" if d.ndim <= 1 or dim == d.ndim - 1 else \
            f"{name}_kernel_impl"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{_dtypes.scalar_name(_dtypes.from_numpy(d.dtype))}'")


def softmax(input, dim, dtype=None, _stacklevel=3):
    d = input._data if dtype is None else input._data.astype(dtype.np)
    dim = _wrap_dim(dim, d.ndim)
    _check_softmax_dtype("softmax", d, dim)
    return _finish(SOFTMAX, (input,), (dim,), _asarray(raw.softmax(d, dim)))


def log_softmax(input, dim, dtype=None, _stacklevel=3):
    d = input._data if dtype is None else input._data.astype(dtype.np)
    dim = _wrap_dim(dim, d.ndim)
    _check_softmax_dtype("log_softmax", d, dim)
    return _finish(LOG_SOFTMAX, (input,), (dim,), _asarray(raw.log_softmax(d, dim)))


def logsumexp(input, dim, keepdim=False):
    """log(sum(exp(x))) over dims, computed stably (one node, LogsumexpBackward0)."""
    d = _float_data(input)
    dims = _dims(dim, d.ndim)
    if d.ndim == 0:
        return _finish(LOGSUMEXP, (input,), ((), keepdim), d.copy())
    m = np.max(d, axis=dims, keepdims=True, initial=-np.inf)
    m = np.where(np.isinf(m), 0, m)
    out = np.log(np.sum(np.exp(d - m), axis=dims, keepdims=True)) + m
    if not keepdim:
        out = np.squeeze(out, dims)
    return _finish(LOGSUMEXP, (input,), (dims, keepdim), _asarray(out).astype(d.dtype))


def cumsum(input, dim, *, dtype=None):
    d = _sum_dtype(input._data, dtype)
    dim = _wrap_dim(dim, d.ndim)
    out = np.cumsum(d, axis=dim) if d.ndim else d.copy()
    return _finish(CUMSUM, (input,), (dim,), out)


def _sorted_indices(d, dim, descending):
    if d.ndim == 0:
        return np.zeros((), np.int64)
    # stable, and descending keeps the order of equal elements like PyTorch
    idx = np.argsort(-d if descending and d.dtype.kind != "b" else d, axis=dim, kind="stable")
    if descending and d.dtype.kind == "b":
        idx = np.flip(np.argsort(d, axis=dim, kind="stable"), dim)
    return idx.astype(np.int64)


def sort(input, dim=-1, descending=False, stable=False):
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    idx = _sorted_indices(d, dim, descending)
    values = np.take_along_axis(d, idx, axis=dim) if d.ndim else d.copy()
    v, i = _finish(SORT, (input,), (dim, descending), (values, idx)) \
        if input._requires_grad and _state.enabled else (_make(values), _make(idx))
    return _SortRT(v, i, None)


def argsort(input, dim=-1, descending=False, stable=False):
    d = input._data
    return _make(_sorted_indices(d, _wrap_dim(dim, d.ndim), descending))


def topk(input, k, dim=-1, largest=True, sorted=True):
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    if k > (d.shape[dim] if d.ndim else 1) or k < 0:
        raise RuntimeError("selected index k out of range")
    idx = _sorted_indices(d, dim, largest)
    if d.ndim:
        idx = idx[(slice(None),) * dim + (slice(0, k),)]
    values = np.take_along_axis(d, idx, axis=dim) if d.ndim else d.copy()
    v, i = _finish(TOPK, (input,), (k, dim), (values, idx)) \
        if input._requires_grad and _state.enabled else (_make(values), _make(idx))
    return _TopkRT(v, i, None)
