"""Indexing: ``x[key]`` and ``x[key] = v``, index_put, gather/scatter, index_select/index_add,
masked_fill/masked_select, nonzero, and their in-place variants. Index tensors are
parameters, never differentiable inputs.
"""
from .. import _convert, _dtypes, _errors
from .._backend import np
from .._tensor import _make, Tensor
from ..autograd import inplace
from . import raw
from .dispatch import broadcast_error, defop, set_input_metadata
from ._common import (
    _asarray, _finish, _index_data, ndarray, _py_any, _py_max, _py_sum, _state, _wrap_dim)
from .pointwise import clone, copy_, fill_
from .shape import _alias, expand, select, _slice, unsqueeze, view


# Indexing, gathering and scattering (index tensors are parameters: not differentiable).
GATHER = defop("gather", "GatherBackward0", raw.gather, params=("dim", "index"),
               grads={"self": lambda F, grad, dim, index, self_sizes:
                      F.scatter_add(F.zeros(self_sizes, grad), dim, index, grad)},
               jvp=lambda F, self_t, dim, index: F.gather(self_t, dim, _make(index))
               if self_t.ndim else F.clone(self_t))
SCATTER_ADD = defop("scatter_add", "ScatterAddBackward0",
                    lambda a, src, dim, index: raw.scatter_add(a, dim, index, src),
                    inputs=("self", "src"), params=("dim", "index"),
                    grads={"self": lambda F, grad: grad,
                           "src": lambda F, grad, dim, index: F.gather(grad, dim, index)},
                    jvp="linear")
INDEX_SELECT = defop("index_select", "IndexSelectBackward0", raw.index_select,
                     params=("dim", "index"),
                     grads={"self": lambda F, grad, dim, index, self_sizes:
                            F.index_add(F.zeros(self_sizes, grad), dim, index, grad)},
                     jvp="linear")
INDEX = defop("index", "IndexBackward0", raw.getitem, params=("indices",),
              grads={"self": lambda F, grad, indices, self_sizes:
                     F.index_backward(grad, self_sizes, indices)},
              jvp="linear")
MASKED_FILL = defop("masked_fill", "MaskedFillBackward0", raw.masked_fill,
                    params=("mask", "value"),
                    grads={"self": lambda F, grad, mask: F.masked_fill(grad, mask, 0)},
                    jvp=lambda F, self_t, mask: F.masked_fill(self_t, mask, 0))
MASKED_FILL_TENSOR = defop(
    "masked_fill", "MaskedFillBackward1", None, inputs=("self", "value"), params=("mask",),
    grads={"self": lambda F, grad, mask: F.masked_fill(grad, mask, 0),
           "value": lambda F, grad, mask: F.sum(F.where(mask, grad, 0))},
                           jvp=lambda F, self, self_t, value, value_t, mask: F.where(mask,
                               F.zeros_like(value) if value_t is None else value_t,
                               F.zeros_like(self) if self_t is None else self_t))


# The backward of indexing, as ops of their own so that double backward works.
GETITEM_BACKWARD = defop("getitem_backward", "SliceBackwardBackward0", raw.getitem_backward,
                         inputs=("grad",), params=("shape", "key"),
                         grads={"grad": lambda F, grad, key: F.getitem(grad, key)},
                         jvp="linear")
INDEX_BACKWARD = defop("index_backward", "IndexPutBackward0", raw.index_backward,
                       inputs=("grad",), params=("shape", "key"),
                       grads={"grad": lambda F, grad, key: F.getitem(grad, key)},
                       jvp="linear")
INDEX_ADD = defop("index_add", "IndexAddBackward0",
                  lambda a, src, dim, index, alpha: raw.index_add(a, dim, index, src, alpha),
                  inputs=("self", "source"), params=("dim", "index", "alpha"),
                  grads={"self": lambda F, grad: grad,
                         "source": lambda F, grad, dim, index, alpha:
                         F.index_select(grad, dim, index) * alpha
                         if alpha != 1 else F.index_select(grad, dim, index)},
                  jvp="linear")


INDEX_PUT = defop("index_put", "IndexPutBackward0", None, inputs=("self", "values"),
                  params=("indices", "accumulate"),
                  grads={"self": lambda F, grad, indices, accumulate:
                         grad if accumulate else F.zero_at(grad, indices),
                         "values": lambda F, grad, indices: F.getitem(grad, indices)},
                  jvp=lambda F, self, self_t, values, values_t, indices, accumulate:
                      index_put(F.zeros_like(self) if self_t is None else self_t, indices,
                      F.zeros_like(values) if values_t is None else values_t, accumulate))
SCATTER = defop("scatter", "ScatterBackward0", None, inputs=("self", "src"),
                params=("dim", "index"),
                grads={"self": lambda F, grad, dim, index: F.scatter(grad, dim, index, 0),
                       "src": lambda F, grad, dim, index: F.gather(grad, dim, index)},
                jvp=lambda F, self, self_t, src, src_t, dim, index:
                    F.scatter(F.zeros_like(self) if self_t is None else self_t, dim, index,
                    F.zeros_like(src) if src_t is None else src_t))
SCATTER_VALUE = defop("scatter", "ScatterBackward1", None, params=("dim", "index"),
                      grads={"self": lambda F, grad, dim, index: F.scatter(grad, dim, index, 0)},
                      jvp=lambda F, self_t, dim, index: F.scatter(self_t, dim, index, 0))


# ---- indexing ---------------------------------------------------------------------------------
def _is_advanced(k):
    return isinstance(k, (Tensor, list, ndarray)) or (
        isinstance(k, bool) or k.__class__ is np.bool_)


def _index_array(k):
    if isinstance(k, Tensor):
        return k._data
    if isinstance(k, bool):
        return np.asarray(k)
    return np.asarray(k)


def getitem(input, key, _setting=False):
    """``x[key]``, decomposed like PyTorch: basic parts as views (select, slice,
    unsqueeze), then one IndexBackward0 for advanced parts."""
    # a lone slice is always recorded (SliceBackward0); in a tuple, full slices are skipped
    lone_slice = key.__class__ is slice and not _setting
    if key.__class__ is not tuple:
        key = (key,)
    d = input._data
    n_specified = _py_sum(_dims_consumed(k) for k in key)
    if n_specified > d.ndim:
        if d.ndim == 0 and len(key) == 1:
            if isinstance(key[0], slice):
                raise IndexError("slice() cannot be applied to a 0-dim tensor.")
            if not _is_advanced(key[0]):
                i = key[0].__index__() if hasattr(key[0], "__index__") else 0
                if i != 0:
                    raise IndexError(_errors.INDEX_RANGE.format(i, 0, 0))
                raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in "
                                 "Python or `tensor.item<T>()` in C++ to convert a 0-dim "
                                 "tensor to a number")
        raise IndexError(f"too many indices for tensor of dimension {d.ndim}")
    result = input
    dim = 0
    adv = []          # (position in result, index array) of advanced indices
    rest = []         # the key for the advanced step
    has_adv = False
    ell_seen = False
    for position, k in enumerate(key):
        if k is None:
            result = unsqueeze(result, dim)
            rest.append(slice(None))
            dim += 1
        elif k is Ellipsis:
            if ell_seen:
                raise IndexError("an index can only have a single ellipsis ('...')")
            ell_seen = True
            skip = d.ndim - n_specified
            rest.extend([slice(None)] * skip)
            dim += skip
        elif isinstance(k, slice):
            size = result._data.shape[dim]
            start, stop, step = k.start, k.stop, k.step
            if step is not None and step <= 0:
                raise ValueError("step must be greater than zero")
            if isinstance(start, Tensor):
                start = int(start)
            if isinstance(stop, Tensor):
                stop = int(stop)
            s, e, st = slice(start, stop, step).indices(size)
            if e < s:
                e = s
            # PyTorch skips a slice that reads everything, judged on the start as written
            # (x[:, -3:] of size 3 is still a SliceBackward0)
            if lone_slice or not ((start is None or start == 0) and e == size and st == 1):
                result = _slice(result, dim, s, e, st)
            rest.append(slice(None))
            dim += 1
        elif _is_advanced(k) and not (isinstance(k, Tensor) and k._data.ndim == 0 and
                                      k._data.dtype.kind in "iu"):
            arr = _index_array(k)
            if arr.dtype == np.bool_ or arr.dtype.kind in "iu" or arr.size == 0:
                if arr.dtype == np.bool_:
                    span = _py_max(arr.ndim, 1) if arr.ndim else 0
                    for j in range(arr.ndim):
                        if arr.shape[j] != result._data.shape[dim + j]:
                            raise IndexError(
                                f"The shape of the mask [{_errors.shape_str(arr.shape)}] at "
                                f"index {j} does not match the shape of the indexed tensor "
                                f"[{_errors.shape_str(result._data.shape)}] at index {dim + j}")
                    if arr.ndim == 0:
                        result = unsqueeze(result, dim)
                        span = 1
                        arr = arr.reshape(1)
                else:
                    arr = arr.astype(np.int64, copy=False)
                    span = 1
                    size = result._data.shape[dim]
                    if arr.size and (arr.max() >= size or arr.min() < -size):
                        bad = int(arr.max() if arr.max() >= size else arr.min())
                        raise IndexError(_errors.INDEX_RANGE.format(bad, len(adv), size))
                rest.append(arr)
                has_adv = True
                adv.append(dim)
                dim += span
            else:
                raise IndexError("tensors used as indices must be long, int, byte or bool "
                                 "tensors")
        else:
            try:
                i = k.__index__()
            except (AttributeError, TypeError):
                raise IndexError(
                    "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                    "Variables are valid indices (got " + type(k).__name__ + ")") from None
            if result._data.ndim <= dim:
                raise IndexError(f"too many indices for tensor of dimension {d.ndim}")
            size = result._data.shape[dim]
            if i < -size or i >= size:
                # PyTorch names the item's position in the key as the dimension
                raise IndexError(_errors.INDEX_RANGE.format(i, position, size))
            result = select(result, dim, i)
    if not has_adv:
        # x[...] reads an alias; x[...] = v writes x itself (full slices are skipped)
        return _alias(input) if result is input and not _setting else result
    while rest and isinstance(rest[-1], slice):
        rest.pop()
    idx = tuple(rest)
    out = _asarray(result._data[idx])
    return _finish(INDEX, (result,), (idx,), out)


def _dims_consumed(k):
    """How many dims of the indexed tensor an index item uses up."""
    if k is None or k is Ellipsis:
        return 0
    if isinstance(k, (Tensor, ndarray)) or k.__class__ in (bool, np.bool_):
        arr = _index_array(k)
        return arr.ndim if arr.dtype == np.bool_ else 1
    return 1


def setitem(input, key, value):
    """``x[key] = value``: an in-place copy into the indexed region (a view for basic keys,
    index_put for advanced ones)."""
    if key.__class__ is not tuple:
        key = (key,)
    if isinstance(value, (list, tuple)):
        raise TypeError(f"can't assign a {type(value).__name__} to a "
                        f"{_dtypes.legacy_type_name(_dtypes.from_numpy(input._data.dtype))}")
    if value.__class__ is int and not -2 ** 63 <= value < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    advanced = _py_any(_is_advanced(k) for k in key)
    if not isinstance(value, Tensor):
        # PyTorch makes a one-element tensor of input's dtype (a checked conversion)
        value = _make(_convert.scalar_array(
            value, _dtypes.from_numpy(input._data.dtype), single=True))
    if not advanced:
        region = getitem(input, key, _setting=True)
        # PyTorch's copy_to: same sizes -> copy_, a 0-d value -> fill_ (FillBackward3),
        # else the value broadcast (leading 1s dropped) -> copy_
        if value._data.shape == region._data.shape:
            copy_(region, value)
        elif value._data.ndim == 0:
            fill_(region, value)
        else:
            value = _strip_leading_ones(value)
            if value._data.shape != region._data.shape:
                value = expand(value, region._data.shape)  # PyTorch's errors, if any
            copy_(region, value)
        return
    index_put_(input, key, value)


def _strip_leading_ones(value):
    """PyTorch's slicePrefix1sDims: x[i] = v views v without its leading size-1 dims (all of
    them: the expand errors name the stripped sizes)."""
    d = value._data
    lead = 0
    while lead < d.ndim and d.shape[lead] == 1:
        lead += 1
    return view(value, d.shape[lead:]) if lead else value


def index_put_(input, indices, values, accumulate=False):
    if not isinstance(indices, tuple):
        indices = (indices,)
    key = tuple(_index_array(k) if _is_advanced(k) else k for k in indices)
    v = values if isinstance(values, Tensor) else _scalar_or_tensor(values, input)
    d = input._data
    new = d.copy()
    if accumulate:
        np.add.at(new, key, v._data)
    else:
        new[key] = v._data
    return _inplace_index_put(input, key, v, new, accumulate)


def _scalar_or_tensor(v, like):
    return _make(_convert.scalar_array(v, _dtypes.from_numpy(like._data.dtype)))


def _inplace_index_put(input, key, v, new, accumulate):
    inplace.record_inplace(INDEX_PUT, input, (input, v), (key, accumulate), new)
    return input


def index_put(input, indices, values, accumulate=False):
    return index_put_(clone(input), indices, values, accumulate)


def gather(input, dim, index, *, sparse_grad=False):
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    idx = _index_data(index)
    if idx.dtype != np.int64:
        raise RuntimeError("gather(): Expected dtype int64 for index")
    if idx.ndim != d.ndim and not (idx.ndim <= 1 and d.ndim <= 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input "
                           "tensor")
    size = d.shape[dim] if d.ndim else 1
    if idx.size and (idx.max() >= size or idx.min() < -size):
        bad = int(idx.max() if idx.max() >= size else idx.min())
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size "
                           f"{size}")
    out = raw.gather(d, dim, idx) if d.ndim else d.copy()
    return _finish(GATHER, (input,), (dim, idx), out)


def scatter_add(input, dim, index, src):
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    idx = _index_data(index)
    out = raw.scatter_add(d, dim, idx, src._data)
    r = _finish(SCATTER_ADD, (input, src), (dim, idx), out)
    if r._grad_fn is not None and src._requires_grad and src._data.shape != idx.shape:
        r._grad_fn._reduce = [None, (src._data.shape, src._data.dtype)]
    return r


def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    s = src if src is not None else value
    sd = s._data if isinstance(s, Tensor) else s
    idx = _index_data(index)
    out = raw.scatter(d, dim, idx, sd)
    if isinstance(s, Tensor):
        r = _finish(SCATTER, (input, s), (dim, idx), out)
        if r._grad_fn is not None and s._requires_grad and s._data.shape != idx.shape:
            r._grad_fn._reduce = [None, (s._data.shape, s._data.dtype)]
        return r
    return _finish(SCATTER_VALUE, (input,), (dim, idx), out)


def index_select(input, dim, index):
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    idx = _index_data(index)
    if d.ndim == 0:
        if idx.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                               f"{idx.size} value(s)")
        if int(idx.reshape(-1)[0]) != 0:
            raise IndexError("index out of range in self")
        return _finish(INDEX_SELECT, (input,), (0, idx.reshape(-1)), d.copy())
    if idx.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if idx.size and d.shape[dim] == 0 and d.ndim > 1:  # (1-d: the index error below)
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if idx.size and (idx.max() >= d.shape[dim] or idx.min() < 0):
        raise IndexError("index out of range in self")
    out = np.take(d, idx.reshape(-1), axis=dim)
    return _finish(INDEX_SELECT, (input,), (dim, idx.reshape(-1)), out)


def index_add(input, dim, index, source, *, alpha=1):
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    idx = _index_data(index)
    out = raw.index_add(d, dim, idx, source._data, alpha)
    return _finish(INDEX_ADD, (input, source), (dim, idx, alpha), out)


def masked_fill(input, mask, value):
    m = _index_data(mask)
    if m.dtype != np.bool_:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{_dtypes.cpp_name(_dtypes.from_numpy(m.dtype))}")
    if isinstance(value, Tensor):
        if value._data.ndim != 0:
            raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but "
                               f"got tensor with {value._data.ndim} dimension(s).")
        if value._requires_grad and _state.enabled:
            d = input._data
            out = _asarray(np.where(m, value._data, d)).astype(d.dtype, copy=False)
            r = _finish(MASKED_FILL_TENSOR, (input, value), (m,), out)
            set_input_metadata(r._grad_fn, (input, value), out.shape, out.dtype)
            return r
        value = value.item()
    d = input._data
    v = _convert.scalar_array(value, _dtypes.from_numpy(d.dtype))
    try:
        out = np.where(m, v, d).astype(d.dtype, copy=False)
    except ValueError:
        raise broadcast_error(m.shape, d.shape) from None
    r = _finish(MASKED_FILL, (input,), (m, value), _asarray(out))
    if r._grad_fn is not None and out.shape != d.shape:
        set_input_metadata(r._grad_fn, (input,), out.shape, out.dtype)
    return r


def masked_select(input, mask):
    return getitem(input, mask)


def nonzero(input, *, as_tuple=False):
    nz = np.nonzero(input._data)
    if as_tuple:
        return tuple(_make(a.astype(np.int64)) for a in nz)
    return _make(np.stack(nz, axis=1).astype(np.int64) if nz else
                 np.zeros((0, 0), np.int64))


# ---- in-place variants -------------------------------------------------------------------
def masked_fill_(self, mask, value):
    if isinstance(value, Tensor) and value._requires_grad and _state.enabled:
        m = _index_data(mask)
        new = np.where(m, value._data, self._data).astype(self._data.dtype, copy=False)
        return inplace.record_inplace(MASKED_FILL_TENSOR, self, (self, value), (m,), new)
    if isinstance(value, Tensor):
        value = value.item()
    m = mask._data
    v = _convert.scalar_array(value, _dtypes.from_numpy(self._data.dtype))
    new = np.where(m, v, self._data).astype(self._data.dtype, copy=False)
    return inplace.record_inplace(MASKED_FILL, self, (self,), (m, value), new, where=m)


def index_add_(self, dim, index, source, *, alpha=1):
    dim = _wrap_dim(dim, self._data.ndim)
    new = raw.index_add(self._data, dim, index._data, source._data, alpha)
    return inplace.record_inplace(INDEX_ADD, self, (self, source), (dim, index._data, alpha),
                                  new)


def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
    dim = _wrap_dim(dim, self._data.ndim)
    s = src if src is not None else value
    if isinstance(s, Tensor):
        new = raw.scatter(self._data, dim, index._data, s._data)
        return inplace.record_inplace(SCATTER, self, (self, s), (dim, index._data), new)
    new = raw.scatter(self._data, dim, index._data, s)
    return inplace.record_inplace(SCATTER_VALUE, self, (self,), (dim, index._data), new)


def scatter_add_(self, dim, index, src):
    dim = _wrap_dim(dim, self._data.ndim)
    new = raw.scatter_add(self._data, dim, index._data, src._data)
    return inplace.record_inplace(SCATTER_ADD, self, (self, src), (dim, index._data), new)
