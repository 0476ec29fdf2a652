"""Indexing: ``x[key]`` and ``x[key] = v``, index_put, gather/scatter, index_select/index_add,
masked_fill/masked_select, nonzero, and their in-place variants. Index tensors are
parameters, never differentiable inputs.
"""
import math

from .. import _argparse, _convert, _dtypes, _errors
from .._backend import np
from .._tensor import _make, Tensor
from ..autograd import inplace
from . import raw
from .dispatch import (broadcast_error, defop, set_input_metadata, view_errors_before_checks,
                       view_errors_first)
from ._common import (
    _asarray, _broadcastable, _finish, _guard_index, _guard_key, _index_data, ndarray, _py_all,
    _py_any, _py_max, _py_sum, _wrap_dim)
from .pointwise import copy_, fill_
from ..autograd.saved import GuardedKey
from .shape import _alias, expand, select, _slice, unsqueeze, view
from ..amp import autocast_mode as _amp


# Indexing, gathering and scattering (index tensors are parameters: not differentiable).
GATHER = defop("gather", "GatherBackward0", raw.gather, params=("dim", "index"),
               # (PyTorch's node saves self: a write into it fails the backward)
               grads={"self": lambda F, grad, dim, index, self:
                      F.scatter_add(F.zeros(tuple(self.shape), grad), dim, index, grad)},
               jvp=lambda F, self_t, dim, index: F.gather(self_t, dim, _make(index)),
               layout="contiguous")  # (at::empty(index.sizes()): not index's strides)
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
              jvp="linear", layout="contiguous")
MASKED_FILL = defop("masked_fill", "MaskedFillBackward0", raw.masked_fill,
                    params=("mask", "value"),
                    grads={"self": lambda F, grad, mask: F.masked_fill(grad, mask, 0)},
                    jvp=lambda F, self_t, mask: F.masked_fill(self_t, mask, 0))
MASKED_FILL_TENSOR = defop(
    "masked_fill", "MaskedFillBackward1", None, inputs=("self", "value"), params=("mask",),
    grads={"self": lambda F, grad, mask: F.masked_fill(grad, mask, 0),
           "value": lambda F, grad, mask: F.sum(F.where(mask, grad, 0))},
    jvp=lambda F, self, self_t, value, value_t, mask: _masked_fill_jvp(F, self, self_t, value,
                                                                        value_t, mask))
# (``self_t.masked_fill(mask, value_t)``, ``self_t.index_fill(dim, index, value_t)``,
# ``self_t.fill_(value_t)``: an integral self's tangent is integral, which set_fw_grad
# refuses: dispatch.jvp_of)
MASKED_FILL_TENSOR.fills_tangent = True


MASKED_FILL_TENSOR.refuses_complex_grad = True  # (graph._reduce_outs)


def _masked_fill_jvp(F, self, self_t, value, value_t, mask):
    """PyTorch's ``self_t.masked_fill(mask, value_t)``: in self_t's dtype (a zero tensor of
    self's when self has no tangent), whatever value_t's."""
    base = F.zeros_like(self) if self_t is None else self_t
    out = F.where(mask, F.zeros_like(value) if value_t is None else value_t, base)
    dt = base._data.dtype
    return out if out._data.dtype == dt else F.cast(out, dt)


# The backward of indexing, as ops of their own so that double backward works.
GETITEM_BACKWARD = defop("getitem_backward", "SliceBackwardBackward0", raw.getitem_backward,
                         inputs=("grad",), params=("shape", "key"),
                         grads={"grad": lambda F, grad, key: F.getitem(grad, key)},
                         jvp="linear")
# select's backward is select_backward (SelectBackwardBackward0), whose backward is a select
SELECT_BACKWARD = defop("select_backward", "SelectBackwardBackward0", raw.getitem_backward,
                        inputs=("grad",), params=("shape", "key"),
                        grads={"grad": lambda F, grad, key: F.getitem(grad, key)},
                        jvp="linear")
# index's backward is index_backward: zeros.index_put_(indices, grad, accumulate=True) as
# _index_put_impl_ (IndexPutImplBackward0: the zeros, which need no grad, then grad)
INDEX_BACKWARD = defop("_index_put_impl_", "IndexPutImplBackward0",
                       lambda zeros, grad, key: raw.index_backward(grad, zeros.shape, key),
                       inputs=("self", "values"), params=("key",),
                       grads={"self": lambda F, grad: grad,
                              "values": lambda F, grad, key: F.getitem(grad, key)},
                       jvp=lambda F, self, values_t, key: None if values_t is None else
                       F.index_backward(values_t, tuple(self.shape), key))
INDEX_ADD = defop("index_add", "IndexAddBackward0",
                  lambda a, src, dim, index, alpha: raw.index_add(a, dim, index, src, alpha),
                  inputs=("self", "source"), params=("dim", "index", "alpha"),
                  grads={"self": lambda F, grad: grad,
                         "source": lambda F, grad, dim, index, alpha:
                         F.index_select(grad, dim, index) * alpha
                         if alpha != 1 else F.index_select(grad, dim, index)},
                  jvp=lambda F, self, self_t, source, source_t, dim, index, alpha:
                  _index_add_jvp(F, self, self_t, source, source_t, dim, index, alpha),
                  saves={"source": ("source",)})


def _index_add_jvp(F, self, self_t, source, source_t, dim, index, alpha):
    """PyTorch's ``index_add(self_t, dim, index, maybe_multiply(source_t, alpha))``: a
    missing source tangent is a zero tensor, which alpha leaves one (mul's zero-tensor
    kernel), so +0.0 is added whatever alpha's sign (Note [Zero-tensor tangents])."""
    if self_t is None:
        self_t = F.zeros_like(self)
    if source_t is None:
        return F.index_add(self_t, dim, index, F.zeros_like(source))
    return F.index_add(self_t, dim, index, source_t, alpha)


INDEX_PUT = defop("index_put", "IndexPutBackward0", None, inputs=("self", "values"),
                  params=("indices", "accumulate"),
                  grads={"self": lambda F, grad, indices, accumulate:
                         grad if accumulate else F.zero_at(grad, indices),
                         "values": lambda F, grad, indices: F.getitem(grad, indices)},
                  jvp=lambda F, self, self_t, values, values_t, indices, accumulate:
                      _index_put_fresh(F.zeros_like(self) if self_t is None else self_t, indices,
                      F.zeros_like(values) if values_t is None else values_t, accumulate),
                      layout="like")
# PyTorch's IndexBackward0 and IndexPutBackward0 save the index tensors, which backward
# frees: a second backward raises "Trying to backward through the graph a second time"
# (ours hold the key as a parameter, kept otherwise: frees as PyTorch's)
for _op in (INDEX, INDEX_PUT):
    _op.frees = _op.node_cls._frees = True
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


_INDEX_DTYPES = frozenset(map(np.dtype, (np.int64, np.int32, np.uint8, np.bool_)))


def _index_array(k):
    """An index item's array; a uint8 tensor is a (deprecated) bool mask, as in PyTorch, and
    tensors of other dtypes than long, int, byte and bool are refused."""
    if isinstance(k, Tensor):
        a = k._data
        if a.dtype not in _INDEX_DTYPES:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        if a.dtype == np.uint8:
            if a.ndim == 0:  # (a 0-d byte tensor is a mask without the warning)
                return a.astype(np.bool_)
            import warnings
            warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a "
                          "dtype torch.bool instead.", UserWarning, stacklevel=3)
            return a.astype(np.bool_)
        return a
    if isinstance(k, bool):
        return np.asarray(k)
    return np.asarray(k)


def getitem(input, key, _setting=False):
    """``x[key]``, decomposed like PyTorch: basic parts as views (select, slice,
    unsqueeze), then one IndexBackward0 for advanced parts."""
    # a lone slice is always recorded (SliceBackward0); in a tuple, full slices are skipped
    lone_slice = key.__class__ is slice and not _setting
    if key.__class__ is list and _sequence_as_tuple(key):
        key = tuple(key)
    if key.__class__ is not tuple:
        key = (key,)
    d = input._data
    n_specified = _py_sum(_dims_consumed(k) for k in key)
    if n_specified > d.ndim:
        if d.ndim == 0 and len(key) == 1:
            if isinstance(key[0], slice):  # (aten::slice's check: its node's edges,
                view_errors_first(input)  # a stale view's error, come first)
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
    given = []        # (position in rest, the caller's index tensor): saved by the node
    has_adv = False
    ell_seen = False
    out_of_bounds = None  # (the first index out of its dim's range)
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
                                      k._data.dtype.kind in "iu" and
                                      k._data.dtype != np.uint8):  # (uint8: a mask)
            byte = _setting and isinstance(k, Tensor) and k._data.dtype == np.uint8
            # (setting: index_put_ gets a byte mask as it is: masked_fill_ refuses it, and
            # warns once)
            arr = k._data != 0 if byte else _index_array(k)
            if arr.dtype == np.bool_ or arr.dtype.kind in "iu" or arr.size == 0:
                if arr.dtype == np.bool_:
                    span = _py_max(arr.ndim, 1) if arr.ndim else 0
                    for j in range(0 if _setting else arr.ndim):  # (setting: index_put_'s)
                        if arr.shape[j] != result._data.shape[dim + j]:
                            raise IndexError(
                                f"The shape of the mask [{_errors.shape_str(arr.shape)}] at "
                                f"index {j} does not match the shape of the indexed tensor "
                                f"[{_errors.shape_str(result._data.shape)}] at index {dim + j}")
                    if arr.ndim == 0:
                        # PyTorch's boolToIndexingTensor: a new dim indexed by a long tensor,
                        # [0] for True, [] for False (not a mask: no masked_fill_ dispatch)
                        result = unsqueeze(result, dim)
                        span = 1
                        arr = np.zeros(1 if arr else 0, np.int64)
                else:
                    arr = arr.astype(np.int64, copy=False)
                    span = 1
                    size = result._data.shape[dim]
                    if arr.size and not _setting and (arr.max() >= size or arr.min() < -size):
                        if out_of_bounds is None:  # (raised once the result is known)
                            bad = int(arr.max() if arr.max() >= size else arr.min())
                            out_of_bounds = (bad, len(adv), size)
                        arr = np.clip(arr, -size, size - 1)
                rest.append(k if byte and k._data.ndim else arr)
                if isinstance(k, Tensor) and k._data.ndim and not byte:
                    given.append((len(rest) - 1, k))
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
        if _setting:
            return result, None, ()
        return _alias(input) if result is input else result
    while rest and isinstance(rest[-1], slice):
        rest.pop()
    idx = tuple(rest)
    if _setting:  # (the region the basic parts select, the key of index_put_, its tensors)
        return result, idx, given
    if out_of_bounds is not None:
        # (aten's index kernel checks the indices it reads: none for an empty result, whose
        # key was clipped above; its size-0 dim and shape errors come first, all after
        # autograd's)
        view_errors_first(result)
        if math.prod(_index_result_shape(result._data.shape, idx)):
            raise IndexError(_errors.INDEX_RANGE.format(*out_of_bounds))
    try:
        out = _asarray(result._data[idx])
    except IndexError as e:
        if not str(e).startswith("shape mismatch"):
            raise
        view_errors_first(result)
        _index_result_shape(result._data.shape, idx)  # (PyTorch's words)
        raise
    r = _finish(INDEX, (result,), (idx,), out)
    if given and r._grad_fn is not None:  # (its slot 0, the key: Note [Saved index tensors])
        r._grad_fn._saved = (GuardedKey(idx, tuple(given)),) + r._grad_fn._saved[1:]
    return r


def _sequence_as_tuple(key):
    """PyTorch's treatSequenceAsTuple: a list holding a tensor, a sequence, a slice, None or
    Ellipsis is a tuple of indices (``x[[mask]]`` is ``x[mask]``), with its deprecation
    warning."""
    if len(key) < 32 and _py_any(
            isinstance(e, (Tensor, list, tuple, slice)) or e is None or e is Ellipsis
            for e in key):
        import warnings
        warnings.warn("Using a non-tuple sequence for multidimensional indexing is deprecated "
                      "and will be changed in pytorch 2.9; use x[tuple(seq)] instead of "
                      "x[seq]. In pytorch 2.9 this will be interpreted as tensor index, "
                      "x[torch.tensor(seq)], which will result either in an error or a "
                      "different result", UserWarning, stacklevel=4)
        return True
    return False


def _dims_consumed(k):
    """How many dims of the indexed tensor an index item uses up."""
    if k is None or k is Ellipsis:
        return 0
    if isinstance(k, (Tensor, ndarray)) or k.__class__ in (bool, np.bool_):
        arr = k._data if isinstance(k, Tensor) else np.asarray(k)  # (no uint8 warning here)
        return arr.ndim if arr.dtype in (np.bool_, np.uint8) else 1
    return 1


def setitem(input, key, value):
    """``x[key] = value`` as PyTorch's THPVariable_setitem: the value made a tensor, the basic
    parts of the key applied as views (select, slice, unsqueeze), then copy_to for a basic
    key, index_put_ for an advanced one; autograd's in-place checks are copy_'s /
    fill_'s / index_put_'s, after the views and the value's view/expand."""
    if key.__class__ is list and _sequence_as_tuple(key):
        key = tuple(key)
    if not isinstance(value, Tensor):
        value = _setitem_value(input, value)
    if key is False:  # (PyTorch does nothing, checks nothing)
        return
    if key is True:  # (a lone True unsqueezes, as None: index_put_ only inside a tuple)
        return _copy_to(unsqueeze(input, 0), value)
    if key.__class__ is Tensor and key._data.dtype in _PLAIN_INDEX and 0 < (
            key._data.ndim if key._data.dtype == np.bool_ else 1) <= input._data.ndim:
        region, idx, given = input, (key._data,), ((0, key),)  # (the usual advanced key:
    else:  # no views to make)
        region, idx, given = getitem(input, key, _setting=True)
    if idx is None:
        return _copy_to(region, value)
    _index_put_(region, idx, _strip_leading_ones(value), given=given)


_PLAIN_INDEX = frozenset(map(np.dtype, (np.int64, np.bool_)))


def _setitem_value(input, value):
    """PyTorch's valueToTensor: a Python int, bool, float or complex (a NumPy integer too)
    is a one-element tensor of input's dtype, anything else a TypeError."""
    if not isinstance(value, (int, float, complex, np.integer)):
        raise TypeError(f"can't assign a {_convert._type_name(value)} to a "
                        f"{_dtypes.legacy_type_name(_dtypes.from_numpy(input._data.dtype))}")
    if value.__class__ is int and not -2 ** 63 <= value < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    return _make(_convert.scalar_array(
        value, _dtypes.from_numpy(input._data.dtype), single=True))


def _copy_to(region, value):
    """PyTorch's copy_to: same sizes -> copy_, a 0-d value -> fill_ (FillBackward3), else
    the value viewed without its leading 1s (always a view), expanded, then copy_."""
    if value._data.shape == region._data.shape:
        copy_(region, value)
        return
    if value._data.ndim == 0:
        fill_(region, value)
        return
    value = _strip_leading_ones(value, always=True)
    if value._data.ndim == 0 and region._data.size == 1 and \
            np.may_share_memory(value._data, region._data) and _py_any(region.stride()):
        # PyTorch expands the 0-d view with stride 0 in every dim: the same element as the
        # region with other strides, a partial overlap (x[0] = x for a 1x1 x), which
        # copy_'s TensorIterator finds after autograd's checks
        inplace.check_inplace(region, (region, value))
        raise RuntimeError(inplace.INPUT_OVERLAP)
    if value._data.shape != region._data.shape:
        value = expand(value, region._data.shape)  # PyTorch's errors, if any
    copy_(region, value)


def _strip_leading_ones(value, always=False):
    """PyTorch's slicePrefix1sSize: the value viewed without its leading size-1 dims (all of
    them: the expand errors name the stripped sizes); copy_to views it even without any."""
    d = value._data
    lead = 0
    while lead < d.ndim and d.shape[lead] == 1:
        lead += 1
    return view(value, d.shape[lead:]) if lead or always else value


def _index_result_shape(shape, key, masks_only=False):
    """The shape of ``x[key]`` (advanced indexing: arrays, whole dims), with aten's
    index checks (make_info) in their words: mask sizes, indices that do not broadcast
    (``masks_only``: the checks of the masked_fill_ dispatch, no shape)."""
    if len(key) == 1 and key[0].__class__ is ndarray:  # (one index array: the usual key)
        k = key[0]
        if k.dtype != np.bool_ and shape and shape[0]:
            return k.shape + shape[1:]
        if k.dtype == np.bool_ and k.shape == shape[:k.ndim]:
            return None if masks_only else (int(np.count_nonzero(k)),) + shape[k.ndim:]
    parts, adv, pos, gap, dim = [], [], None, False, 0
    for k in key:
        if isinstance(k, ndarray):
            if k.dtype == np.bool_:
                for j in range(k.ndim):
                    if dim + j >= len(shape) or k.shape[j] != shape[dim + j]:
                        raise IndexError(
                            f"The shape of the mask [{_errors.shape_str(k.shape)}] at index {j} "
                            f"does not match the shape of the indexed tensor "
                            f"[{_errors.shape_str(shape)}] at index {dim + j}")
                adv.append((int(np.count_nonzero(k)),))
                dim += k.ndim
            else:
                adv.append(k.shape)
                dim += 1
            if pos is None:
                pos = len(parts)
            elif parts and parts[-1] is not None:
                gap = True
            parts.append(None)
        else:
            parts.append(shape[dim])
            dim += 1
    parts.extend(shape[dim:])
    try:
        b = np.broadcast_shapes(*adv)
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together "
                         "with shapes " + ", ".join(f"[{_errors.shape_str(a)}]" for a in adv)
                         ) from None
    if math.prod(b) and _py_any(
            k.dtype != np.bool_ and shape[i] == 0 for i, k in _indexed_dims(key)):
        raise IndexError("index is out of bounds for dimension with size 0")
    rest = [p for p in parts if p is not None]
    if gap:
        return tuple(b) + tuple(rest)
    return tuple(rest[:pos]) + tuple(b) + tuple(rest[pos:])


def _indexed_dims(key):
    """(dim, array) of each index array of an advanced key."""
    dim = 0
    for k in key:
        if isinstance(k, ndarray):
            yield dim, k
            dim += k.ndim if k.dtype == np.bool_ else 1
        else:
            dim += 1


def _expandable(src, dst):
    """c10's is_expandable_to."""
    if len(src) > len(dst):
        return False
    return _py_all(s == 1 or s == d for s, d in zip(reversed(src), reversed(dst)))


def _index_put(input, indices, values, accumulate, in_place=False):
    """(key, value tensor, the written array) of index_put(_): PyTorch's checks in aten's
    order (autograd's for index_put_, the masked_fill_ dispatch, the overlaps, the indices,
    the value's shape, its dtype, then the kernel's bounds)."""
    if not isinstance(indices, tuple):
        indices = (indices,)
    v = values if isinstance(values, Tensor) else _scalar_or_tensor(values, input)
    if in_place:
        inplace.check_inplace(input, (input, v))
    d = input._data
    if len(indices) > d.ndim:
        raise IndexError(f"too many indices for tensor of dimension {d.ndim} (got "
                         f"{len(indices)})")
    masked = not accumulate and v._data.size == 1
    if masked:
        _uint8_masked_fill(d, indices)
    key = tuple(_index_array(k) if _is_advanced(k) else k for k in indices)
    # PyTorch's canDispatchToMaskedFill: one bool mask and a one-element value run as
    # masked_fill_ with the value as a number (no overlap, shape or dtype checks)
    masked = masked and _one_bool_mask(key)
    if masked:
        _index_result_shape(d.shape, key, masks_only=True)  # (its mask checks)
    else:
        if in_place:  # (aten's assert_no_overlap(self, value), then each index)
            inplace.check_no_overlap(input, (v,))
            for k in key:
                if k.__class__ is ndarray and np.may_share_memory(k, d) and (
                        inplace._same_data(k, d) and inplace._dense(k)
                        or inplace._partial_overlap(d, k)):
                    raise RuntimeError(inplace.INPUT_OVERLAP)
        shape = _index_result_shape(d.shape, key)
        if not _expandable(v._data.shape, shape):
            raise RuntimeError(f"shape mismatch: value tensor of shape "
                               f"[{_errors.shape_str(v._data.shape)}] cannot be broadcast to "
                               f"indexing result of shape [{_errors.shape_str(shape)}]")
        if v._data.dtype != d.dtype and isinstance(values, Tensor):
            raise RuntimeError(f"Index put requires the source and destination dtypes match, "
                               f"got {_dtypes.scalar_name(input.dtype)} for the destination "
                               f"and {_dtypes.scalar_name(values.dtype)} for the source.")
    new = d.copy()
    try:
        if accumulate and in_place and inplace.has_internal_overlap(d):
            new = _accumulate_shared(d, key, v._data)
        elif accumulate:
            np.add.at(new, key, v._data)
        elif masked:  # (the masked_fill_ dispatch: the value as a number)
            new[key] = v._data.reshape(()) if v._data.dtype == d.dtype else \
                _convert.scalar_array(v._data.reshape(()).item(), input.dtype)
        else:
            new[key] = v._data
    except IndexError as e:  # an index out of range: NumPy's words for an axis, PyTorch's
        raise IndexError(str(e).replace(" for axis ", " for dimension ")) from None
    return key, v, new


def _accumulate_shared(d, key, v):
    """index_put_(accumulate=True) into a tensor whose elements share memory (expanded):
    aten's kernel adds each value into the memory, so an add to one element is seen by
    every element on the same memory."""
    offset = np.zeros(d.shape, np.int64)
    for i, (n, st) in enumerate(zip(d.shape, d.strides)):
        offset = offset + (np.arange(n) * st).reshape((n,) + (1,) * (d.ndim - i - 1))
    slots, slot = np.unique(offset, return_inverse=True)
    slot = slot.reshape(d.shape)
    memory = np.empty(len(slots), d.dtype)
    memory[slot] = d
    target = slot[key]
    np.add.at(memory, target, np.broadcast_to(v, target.shape))
    return memory[slot]


def _check_index_put_args(name, indices, values, method):
    """The argument parser's checks of index_put(_) (positions after self for the method)."""
    off = 0 if method else 1
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"{name}(): argument 'indices' (position {1 + off}) must be tuple of "
                        f"Tensors, not {_convert._type_name(indices)}")
    for j, k in enumerate(indices):
        if not isinstance(k, Tensor):
            raise TypeError(f"expected Tensor as element {j} in argument {off}, but got "
                            f"{_convert._type_name(k)}")
    if not isinstance(values, Tensor):
        raise TypeError(f"{name}(): argument 'values' (position {2 + off}) must be Tensor, not "
                        f"{_convert._type_name(values)}")


def index_put_(input, indices, values, accumulate=False, _method=False):
    _check_index_put_args("index_put_", indices, values, _method)
    _warn_expanded("index_put_", input._data, "tensor[indices] = tensor")
    return _index_put_(input, tuple(indices), values, accumulate, _given(indices))


def _given(indices):
    """index_put(_)'s index tensors with their positions (Note [Saved index tensors])."""
    return tuple((j, k) for j, k in enumerate(indices) if isinstance(k, Tensor) and k._data.ndim)


def _index_put_(input, indices, values, accumulate=False, given=()):
    key, v, new = _index_put(input, indices, values, accumulate, in_place=True)
    return _guard_key(_inplace_index_put(input, key, v, new, accumulate), key, given)


def index_put_method(self, indices, values, accumulate=False):
    return index_put(self, indices, values, accumulate, _method=True)


def index_put__method(self, indices, values, accumulate=False):
    return index_put_(self, indices, values, accumulate, _method=True)


def _uint8_masked_fill(d, indices):
    """PyTorch's canDispatchToMaskedFill takes a single uint8 index too, and masked_fill_
    then refuses it (x[uint8_mask] = 5)."""
    tensors = [k for k in indices if isinstance(k, Tensor)]
    if len(tensors) == 1 and tensors[0]._data.dtype == np.uint8 and all(
            k is None or isinstance(k, (Tensor, slice)) for k in indices):
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           "unsigned char")


def _one_bool_mask(key):
    """PyTorch's canDispatchToMaskedFill: an index_put whose only tensor index is a bool mask
    (of 1+ dims) and whose value has one element runs as masked_fill_ with the value as a
    number, so the value's dtype need not match (x[mask] = double_0d into a float tensor)."""
    masks = [k for k in key if isinstance(k, ndarray)]
    return len(masks) == 1 and masks[0].dtype == np.bool_ and masks[0].ndim > 0


def _scalar_or_tensor(v, like):
    return _make(_convert.scalar_array(v, _dtypes.from_numpy(like._data.dtype)))


def _inplace_index_put(input, key, v, new, accumulate):
    where = None if accumulate else inplace.written_positions(
        input._data, lambda m: m.__setitem__(key, True))
    inplace.record_inplace(INDEX_PUT, input, (input, v), (key, accumulate), new,
                           where=True if where is None else where)
    return input


@view_errors_before_checks
def index_put(input, indices, values, accumulate=False, _method=False):
    _check_index_put_args("index_put", indices, values, _method)
    return _index_put_fresh(input, tuple(indices), values, accumulate, _given(indices))


def _index_put_fresh(input, indices, values, accumulate=False, given=()):
    """One IndexPutBackward0 on a fresh result (version 0), as PyTorch's out-of-place op."""
    key, v, new = _index_put(input, indices, values, accumulate)
    r = _finish(INDEX_PUT, (input, v), (key, accumulate), new)
    if r._grad_fn is not None and v._requires_grad:  # values broadcast over the indexed
        r._grad_fn._reduce = [None, (v._data.shape, v._data.dtype)]  # part: summed back
    return _guard_key(r, key, given)


@view_errors_before_checks
def gather(input, dim, index, *, sparse_grad=False):
    if index.__class__ is not Tensor and index.__class__ is not np.ndarray and not \
            isinstance(index, Tensor):  # (an array: the formulas' own)
        raise _argparse.wrong_type("gather", "index")
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    idx = _index_data(index)
    if idx.size == 0:  # (gather's meta checks nothing for an empty index)
        return _guard_index(_finish(GATHER, (input,), (dim, idx.astype(np.int64)),
                                    np.empty(idx.shape, d.dtype)), "index", index)
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError("gather(): Expected dtype int32/int64 for index")
    if _py_max(idx.ndim, 1) != _py_max(d.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input "
                           "tensor")
    for i in range(_py_max(d.ndim, 1)):
        if i != dim and (idx.shape[i] if idx.ndim else 1) > (d.shape[i] if d.ndim else 1):
            raise RuntimeError(f"Size does not match at dimension {i} expected index "
                               f"[{_errors.shape_str(idx.shape)}] to be no larger than self "
                               f"[{_errors.shape_str(d.shape)}] apart from dimension {dim}")
    idx = idx.astype(np.int64, copy=False)
    size = d.shape[dim] if d.ndim else 1
    if idx.size and (idx.max() >= size or idx.min() < 0):  # (no negative index either)
        bad = int(idx.max() if idx.max() >= size else idx.min())
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size "
                           f"{size}")
    out = raw.gather(d, dim, idx) if d.ndim and idx.ndim else np.take(d.reshape(-1), idx)
    return _guard_index(_finish(GATHER, (input,), (dim, idx), out), "index", index)


@view_errors_before_checks
def scatter_add(input, dim, index, src):
    if index.__class__ is not Tensor and index.__class__ is not np.ndarray and not \
            isinstance(index, Tensor):  # (an array: the formulas' own)
        raise _argparse.wrong_type("scatter_add", "index")
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    idx = _index_data(index)
    _scatter_check(d, idx, src, dim)
    _scatter_bounds(d, dim, idx)
    out = raw.scatter_add(d, dim, idx, src._data)
    r = _guard_index(_finish(SCATTER_ADD, (input, src), (dim, idx), out), "index", index)
    if r._grad_fn is not None and src._requires_grad and src._data.shape != idx.shape:
        r._grad_fn._reduce = [None, (src._data.shape, src._data.dtype)]
    return r


@view_errors_before_checks
def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    if index.__class__ is not Tensor and index.__class__ is not np.ndarray and not \
            isinstance(index, Tensor):  # (an array: the formulas' own)
        raise _argparse.wrong_type("scatter", "index")
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    s = src if src is not None else value
    # (a number is a c10::Scalar converted to self's dtype with its overflow check)
    sd = s._data if isinstance(s, Tensor) else _convert.scalar_array(
        s, _dtypes.from_numpy(d.dtype))[()]
    idx = _index_data(index)
    _scatter_check(d, idx, s, dim)
    if reduce is not None:  # Note [scatter's reduce=]
        op, out = _scatter_legacy(False, d, dim, idx, s, reduce)
        if isinstance(s, Tensor):
            return _finish(op, (input, s), (dim, idx, reduce), out)
        return _finish(op, (input,), (s, dim, idx, reduce), out)
    _scatter_bounds(d, dim, idx)
    out = raw.scatter(d, dim, idx, sd)
    if isinstance(s, Tensor):
        r = _guard_index(_finish(SCATTER, (input, s), (dim, idx), out), "index", index)
        if r._grad_fn is not None and s._requires_grad and s._data.shape != idx.shape:
            r._grad_fn._reduce = [None, (s._data.shape, s._data.dtype)]
        return r
    return _guard_index(_finish(SCATTER_VALUE, (input,), (dim, idx), out), "index", index)


@view_errors_before_checks
def index_select(input, dim, index):
    if index.__class__ is not Tensor and index.__class__ is not np.ndarray and not \
            isinstance(index, Tensor):  # (an array: the formulas' own)
        raise _argparse.wrong_type("index_select", "index")
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    idx = _index_data(index)
    if d.ndim == 0:
        if idx.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                               f"{idx.size} value(s)")
        if int(idx.reshape(-1)[0]) != 0:
            raise IndexError("index out of range in self")
        return _guard_index(_finish(INDEX_SELECT, (input,), (0, idx.reshape(-1)), d.copy()),
                            "index", index)
    if idx.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if idx.size and d.shape[dim] == 0 and d.ndim > 1:  # (1-d: the index error below)
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if idx.size and (idx.max() >= d.shape[dim] or idx.min() < 0):
        raise IndexError("index out of range in self")
    out = np.take(d, idx.reshape(-1), axis=dim)
    return _guard_index(_finish(INDEX_SELECT, (input,), (dim, idx.reshape(-1)), out),
                        "index", index)


def _index_add_check(d, dim, idx, s, name="index_add_"):
    """PyTorch's index_func_meta_impl checks, in its order and words."""
    if idx.ndim > 1:
        raise IndexError(f"{name}(): Index is supposed to be a vector, but got dim: "
                         f"{idx.ndim} with type: {_scalar_name(idx)} and size: "
                         f"[{_errors.shape_str(idx.shape)}]")
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index but got: "
                           f"{_scalar_name(idx)}")
    if s.dtype != d.dtype:
        raise RuntimeError(f"{name}(): self ({_scalar_name(d)}) and source "
                           f"({_scalar_name(s)}) must have the same scalar type")
    if dim != 0 and dim >= s.ndim:
        raise RuntimeError(f"{name}(): Indexing dim {dim} is out of bounds of the source "
                           f"tensor with dim {s.ndim}")
    n = s.shape[dim] if s.ndim else 1
    if idx.size != n:
        raise RuntimeError(f"{name}(): Number of indices ({idx.size}) should be equal to "
                           f"source.size(dim): ({n}), for dim: {dim}")
    if (s.ndim != d.ndim or _py_any(
            a != b for i, (a, b) in enumerate(zip(d.shape, s.shape)) if i != dim)):
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = [{_errors.shape_str(d.shape)}]"
                           f" source.shape = [{_errors.shape_str(s.shape)}]")
    size = d.shape[dim] if d.ndim else 1
    out = (idx >= size) | (idx < 0)
    if out.any():
        if d.ndim <= 1 or name == "index_reduce_":  # (index_select's check)
            raise IndexError("index out of range in self")
        bad = int(idx.reshape(-1)[np.argmax(out.reshape(-1))])
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {size}")


def _scalar_name(a):
    return _dtypes.scalar_name(_dtypes.from_numpy(a.dtype))


def _scatter_check(d, idx, src, dim=None):
    """PyTorch's scatter_meta_impl checks for scatter/scatter_add/scatter_reduce (its
    words): scatter_gather_dtype_check, then scatter_shape_check (``dim`` given)."""
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if isinstance(src, Tensor) and src._data.dtype != d.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if dim is None or not idx.size:
        return
    if _py_max(d.ndim, 1) != _py_max(idx.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as self "
                           "tensor")
    n = _py_max(d.ndim, 1)
    isz, ssz = idx.shape or (1,), d.shape or (1,)
    wrong = _py_any(isz[k] > ssz[k] for k in range(n) if k != dim)
    src_t = src._data if isinstance(src, Tensor) else None
    if src_t is not None:
        csz = src_t.shape or (1,)
        for k in range(n if not wrong else 0):
            if k >= len(csz):
                _wrap_dim(k, len(csz))  # (src.size(d): "Dimension out of range")
            if isz[k] > csz[k]:
                wrong = True
                break
        if _py_max(src_t.ndim, 1) != _py_max(idx.ndim, 1):
            raise RuntimeError("Index tensor must have the same number of dimensions as src "
                               "tensor")
        if wrong:
            raise RuntimeError(f"Expected index [{_errors.shape_str(idx.shape)}] to be no larger "
                               f"than self [{_errors.shape_str(d.shape)}] apart from dimension "
                               f"{dim} and to be no larger size than src "
                               f"[{_errors.shape_str(src_t.shape)}]")
    elif wrong:
        raise RuntimeError(f"Expected index [{_errors.shape_str(idx.shape)}] to be no larger "
                           f"than self [{_errors.shape_str(d.shape)}] apart from dimension "
                           f"{dim}")


def _scatter_bounds(d, dim, idx):
    """The scatter kernels' index check (negative indices are refused too)."""
    size = d.shape[dim] if d.ndim else 1
    if idx.size and (idx.max() >= size or idx.min() < 0):
        flat = idx.reshape(-1)
        bad = int(flat[np.argmax((flat >= size) | (flat < 0))])
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {size}")


@view_errors_before_checks
def index_add(input, dim, index, source, *, alpha=1):
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    idx = _index_data(index)
    _index_add_check(d, dim, idx, source._data)
    idx = idx.reshape(-1)  # (a 0-d index is one index)
    out = raw.index_add(d, dim, idx, source._data, alpha)
    return _guard_index(_finish(INDEX_ADD, (input, source), (dim, idx, alpha), out),
                        "index", index)


# index_reduce(_): self's slices at index reduced with source's (prod, mean, amax, amin)
_IR_IDENTITY = {"prod": 1, "mean": 0, "amax": -np.inf, "amin": np.inf}
_IR_UFUNC = {"prod": np.multiply, "mean": np.add, "amax": np.maximum, "amin": np.minimum}


def _index_reduce_kernel(d, s, dim, idx, reduce, include_self):
    """aten's index_reduce: identities where not including self, NaN propagating for amax /
    amin, mean over the count (floor division for integers)."""
    out = np.moveaxis(d.copy(), dim, 0) if d.ndim else d.reshape(1).copy()
    src = np.moveaxis(s, dim, 0) if s.ndim else s.reshape(1)
    if not include_self:
        ident = _IR_IDENTITY[reduce]
        if out.dtype.kind in "iu" and reduce in ("amax", "amin"):
            info = np.iinfo(out.dtype)
            ident = info.min if reduce == "amax" else info.max
        elif out.dtype == np.bool_:
            ident = bool(ident) if reduce != "amax" else False
        out[idx] = ident
    _IR_UFUNC[reduce].at(out, idx, src)
    if reduce == "mean":
        counts = _index_reduce_counts(out.shape[0], idx, include_self)
        counts = counts.reshape((-1,) + (1,) * (out.ndim - 1))
        out[...] = out / counts if out.dtype.kind in "fcV" else out // counts
    out = np.moveaxis(out, 0, dim) if d.ndim else out.reshape(())
    return out if out.flags.c_contiguous else np.ascontiguousarray(out)  # (0-d stays 0-d)


def _index_reduce_counts(n, idx, include_self):
    counts = np.full(n, 1 if include_self else 0, np.int64)
    np.add.at(counts, idx, 1)
    counts[counts == 0] = 1
    return counts


def _ir_moved(F, x, dim, like):
    """A count or mask along dim, shaped to broadcast against ``like``."""
    shape = [1] * len(like.shape)
    if shape:
        shape[dim] = -1
    return F.constant(np.asarray(x).reshape(shape), like)


def _ir_grads(F, grad, self, source, result, dim, index, reduce, include_self):
    """PyTorch's index_reduce_backward (FunctionsManual.cpp), op for op: prod's masked
    index_reduce results are index_reduce calls (IndexReduceBackward0 under create_graph,
    differentiable again), a self not included is index_fill'ed with 0."""
    n = np.shape(self)[dim] if np.ndim(self) else 1
    if reduce == "prod":
        masked_self = F.masked_fill(self, self == 0, 1)
        masked_self_result = _via_index_reduce(F, masked_self, dim, index, source, reduce,
                                               include_self)
        grad_self = grad * masked_self_result / masked_self
        src_zero = source == 0
        num = F.index_select(F.index_add(F.zeros_like(self), dim, index,
                                         F.cast_like(src_zero, self)), dim, index)
        single = src_zero & (num == 1)
        masked_src = F.masked_fill(source, single, 1)
        masked_src_result = _via_index_reduce(F, self, dim, index, masked_src, reduce,
                                              include_self)
        grad_src = F.where(single, F.index_select(grad * masked_src_result, dim, index),
                           F.index_select(grad * result, dim, index) /
                           F.masked_fill(source, src_zero, 1))
        if not F.is_raw and (_values(num) > 1).any():
            from ..autograd.function import delayed_error
            grad_src = delayed_error(grad_src, _IR_DOUBLE_BACKWARD)
    elif reduce == "mean":
        N = _ir_moved(F, _index_reduce_counts(n, index, include_self), dim, grad)
        grad_self = grad / N
        grad_src = F.index_select(grad, dim, index) / F.index_select(N, dim, index)
    else:
        value = F.index_select(result, dim, index)
        self_is = F.cast(self == result, np.asarray(_values(grad)).dtype)
        source_is = F.cast(source == value, np.asarray(_values(grad)).dtype)
        distributed = grad / F.index_add(self_is, dim, index, source_is)
        grad_self = self_is * distributed
        grad_src = source_is * F.index_select(distributed, dim, index)
    if not include_self:
        if F.is_raw:
            hit = np.zeros(n, bool)
            hit[index] = True
            grad_self = F.where(_ir_moved(F, hit, dim, grad) != 0, 0, grad_self)
        else:
            grad_self = index_fill(grad_self, dim, _make(index), 0)
    return grad_self, grad_src


_IR_DOUBLE_BACKWARD = ("index_reduce(): Double backward is unsupported for source when >1 "
                       "zeros in source are scattered to the same position in self")


def _via_index_reduce(F, x, dim, index, source, reduce, include_self):
    if F.is_raw:
        return _index_reduce_kernel(x, source, dim, index, reduce, include_self)
    return index_reduce(x, dim, _make(index), source, reduce, include_self=include_self)


def _values(x):
    return x._data if isinstance(x, Tensor) else np.asarray(x)


def _index_reduce_entry(name, not_yet):
    """index_reduce or its in-place form (they differ only in the forward-AD message)."""
    from .pointwise import _fw_not_implemented
    return defop(
        name, "IndexReduceBackward0", None, inputs=("self", "source"),
        params=("dim", "index", "reduce", "include_self"),
        grads={"self": lambda F, grad, self, source, result, dim, index, reduce, include_self:
               _ir_grads(F, grad, self, source, result, dim, index, reduce, include_self)[0],
               "source": lambda F, grad, self, source, result, dim, index, reduce,
               include_self:
               _ir_grads(F, grad, self, source, result, dim, index, reduce, include_self)[1]},
        jvp=_fw_not_implemented(name, not_yet))


def _not_yet(inplace_form):
    from . import special
    return special._NOT_YET_ if inplace_form else special._NOT_YET


INDEX_REDUCE = _index_reduce_entry("index_reduce", _not_yet(False))
INDEX_REDUCE_ = _index_reduce_entry("index_reduce_", _not_yet(True))


_IR_WARNED = []


def _index_reduce_bool(self, include_self):
    """aten's kernels: no bool initialisation without self; the loop over a vector (1-d
    self) has no bool kernel either."""
    if self._data.dtype == np.bool_:
        if not include_self:
            raise NotImplementedError("\"index_reduce_func_exclude_input_init\" not "
                                      "implemented for 'Bool'")
        if self._data.ndim <= 1:
            raise NotImplementedError("\"index_func_\" not implemented for 'Bool'")


def _index_reduce_args(self, dim, index, source, reduce):
    if reduce not in _IR_UFUNC:
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    d = self._data
    dim = _wrap_dim(dim, d.ndim)
    idx = _index_data(index)
    _index_add_check(d, dim, idx, source._data, "index_reduce_")
    if d.ndim == 0 and source._data.ndim:
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = [] source.shape = "
                           f"[{_errors.shape_str(source._data.shape)}]")
    if not _IR_WARNED:  # (PyTorch's TORCH_WARN_ONCE)
        import warnings
        warnings.warn("index_reduce() is in beta and the API may change at any time.",
                      UserWarning, stacklevel=3)
        _IR_WARNED.append(True)
    return dim, idx.reshape(-1).astype(np.int64, copy=False)


def _refuse_dual(op, *tensors):
    """An op without a forward rule refuses a dual before its own checks (PyTorch's
    VariableType raises first)."""
    from ..autograd.grad_mode import state
    if state.fw:
        from ..autograd.forward_ad import refuse_unsupported
        refuse_unsupported(op, *tensors)


@view_errors_before_checks
def index_reduce(input, dim, index, source, reduce, *, include_self=True, out=None):
    """self with the slices at index reduced with source's (prod, mean, amax or amin)."""
    if out is not None:  # Note [out= arguments] in _out.py
        from ._out import write_out
        return write_out("index_reduce", index_reduce(input, dim, index, source, reduce,
                                                      include_self=include_self), out)
    _refuse_dual(INDEX_REDUCE, input, source)
    dim, idx = _index_reduce_args(input, dim, index, source, reduce)
    _index_reduce_bool(input, include_self)
    out_ = _index_reduce_kernel(input._data, source._data, dim, idx, reduce, include_self)
    return _guard_index(_finish(INDEX_REDUCE, (input, source),
                                (dim, idx, reduce, include_self), out_),
                        "index", index)


def index_reduce_(self, dim, index, source, reduce, *, include_self=True):
    dim, idx = _index_reduce_args(self, dim, index, source, reduce)
    _index_reduce_bool(self, include_self)
    new = _index_reduce_kernel(self._data, source._data, dim, idx, reduce, include_self)
    r = inplace.record_inplace(INDEX_REDUCE_, self, (self, source),
                               (dim, idx, reduce, include_self), new)
    return _guard_index(r, "index", index)


def _masked_fill_checks(mask, value):
    m = _index_data(mask)
    if m.dtype != np.bool_:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{_dtypes.cpp_name(_dtypes.from_numpy(m.dtype))}")
    if isinstance(value, Tensor) and value._data.ndim != 0:
        raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but "
                           f"got tensor with {value._data.ndim} dimension(s).")
    return m


def masked_fill(input, mask, value):
    m = _masked_fill_checks(mask, value)
    tensor_value = None
    if isinstance(value, Tensor):
        # (masked_fill.Tensor: MaskedFillBackward1 and value's tangent, whether or not
        # the value requires grad; its kernel reads the value as a scalar)
        tensor_value, value = value, value.item()
    d = input._data
    if m.shape != d.shape:  # (expand_outplace(mask, self), before the value's conversion)
        try:
            np.broadcast_shapes(m.shape, d.shape)
        except ValueError:
            view_errors_first(input)  # (Note [View errors before an op's checks])
            raise broadcast_error(m.shape, d.shape) from None
    v = _convert.scalar_array(value, _dtypes.from_numpy(d.dtype))
    try:
        out = np.where(m, v, d).astype(d.dtype, copy=False)
    except ValueError:
        view_errors_first(input)
        raise broadcast_error(m.shape, d.shape) from None
    # (PyTorch's masked_fill fills a clone(MemoryFormat::Contiguous): a permuted input's
    # result is contiguous, so view() works on it)
    out = np.asarray(out, order="C")
    if tensor_value is not None:
        r = _guard_index(_finish(MASKED_FILL_TENSOR, (input, tensor_value), (m,),
                                 _asarray(out)),
                         "mask", mask)
        if r._grad_fn is not None:
            set_input_metadata(r._grad_fn, (input, tensor_value), out.shape, out.dtype)
        return r
    r = _guard_index(_finish(MASKED_FILL, (input,), (m, value), _asarray(out)), "mask", mask)
    if r._grad_fn is not None and out.shape != d.shape:
        set_input_metadata(r._grad_fn, (input,), out.shape, out.dtype)
    return r


@view_errors_before_checks
def masked_select(input, mask):
    if not isinstance(mask, Tensor):  # (Note [Argument errors on the exception path] in
        raise _argparse.wrong_type("masked_select", "mask")  # _argparse.py)
    m = _index_data(mask)
    if m.dtype != np.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    d = input._data
    try:
        shape = np.broadcast_shapes(d.shape, m.shape)
    except ValueError:
        raise broadcast_error(m.shape, d.shape) from None
    m = np.broadcast_to(m, shape)
    out = np.broadcast_to(d, shape)[m]
    r = _guard_index(_finish(MASKED_SELECT, (input,), (m,), out), "mask", mask)
    if r._grad_fn is not None and shape != d.shape:
        set_input_metadata(r._grad_fn, (input,), shape, out.dtype)
    return r


def nonzero(input, *, as_tuple=False):
    if input._data.ndim == 0:  # (PyTorch: a 0-d tensor is one element of no dims)
        n = int(bool(input._data))
        if as_tuple:
            return (_make(np.zeros(n, np.int64)),)
        return _make(np.zeros((n, 0), np.int64))
    nz = np.nonzero(input._data)
    if as_tuple:
        return tuple(_make(a.astype(np.int64)) for a in nz)
    return _make(np.stack(nz, axis=1).astype(np.int64) if nz else
                 np.zeros((0, 0), np.int64))


def nonzero_static(input, *, size, fill_value=-1):
    """nonzero's (n, ndim) indices cut or padded with ``fill_value`` rows to ``size`` rows
    (a shape known before the data)."""
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    d = input._data
    idx = np.stack(np.nonzero(d), axis=1).astype(np.int64) if d.ndim else \
        np.zeros((int(bool(d)), 0), np.int64)
    out = np.full((size, d.ndim), fill_value, dtype=np.int64)
    n = min(size, idx.shape[0])
    out[:n] = idx[:n]
    return _make(out)


# ---- in-place variants -------------------------------------------------------------------
def _warn_expanded(name, d, example):
    """aten's deprecation warning for an in-place indexing write into an expanded tensor
    (its kernel's first step, after autograd's checks)."""
    if not d.flags.c_contiguous and inplace.has_internal_overlap(d):
        import warnings
        warnings.warn(f"Use of {name} on expanded tensors is deprecated. Please clone() the "
                      f"tensor before performing this operation. This also applies to "
                      f"advanced indexing e.g. {example}", UserWarning, stacklevel=3)


def masked_fill_(self, mask, value):
    _warn_expanded("masked_fill_", self._data, "tensor[mask] = scalar")
    if mask.__class__ is not Tensor or mask._data.dtype != np.bool_ or (
            isinstance(value, Tensor) and value._data.ndim):
        inplace.check_inplace(self, (self,))  # (autograd's checks, then the kernel's)
        _masked_fill_checks(mask, value)
    tensor_value = None
    if isinstance(value, Tensor):  # (masked_fill.Tensor: see masked_fill)
        tensor_value, value = value, value.item()
    m = mask._data
    try:
        v = _convert.scalar_array(value, _dtypes.from_numpy(self._data.dtype))
        new = np.where(m, v, self._data).astype(self._data.dtype, copy=False)
    except (RuntimeError, ValueError):  # (the kernel's: after autograd's checks)
        inplace.check_inplace(self, (self,))
        if m.shape != self._data.shape and not _broadcastable(m.shape, self._data.shape):
            raise broadcast_error(self._data.shape, m.shape) from None
        raise
    if tensor_value is not None:
        r = inplace.record_inplace(MASKED_FILL_TENSOR, self, (self, tensor_value), (m,),
                                   new, where=m)
        return _guard_index(r, "mask", mask)
    r = inplace.record_inplace(MASKED_FILL, self, (self,), (m, value), new, where=m)
    return _guard_index(r, "mask", mask)


def index_add_(self, dim, index, source, *, alpha=1):
    dim = _wrap_dim(dim, self._data.ndim)
    idx = _index_data(index)
    _index_add_check(self._data, dim, idx, source._data)
    idx = idx.reshape(-1)  # (a 0-d index is one index)
    new = raw.index_add(self._data, dim, idx, source._data, alpha)
    r = inplace.record_inplace(INDEX_ADD, self, (self, source), (dim, idx, alpha), new)
    return _guard_index(r, "index", index)


def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
    dim = _wrap_dim(dim, self._data.ndim)
    s = src if src is not None else value
    _scatter_check(self._data, _index_data(index), s, dim)
    if reduce is not None:  # Note [scatter's reduce=]
        op, new = _scatter_legacy(True, self._data, dim, _index_data(index), s, reduce)
        if isinstance(s, Tensor):
            r = inplace.record_inplace(op, self, (self, s), (dim, index._data, reduce), new)
            return _guard_index(r, "index", index)
        r = inplace.record_inplace(op, self, (self,), (s, dim, index._data, reduce), new)
        return _guard_index(r, "index", index)
    _scatter_bounds(self._data, dim, index._data)
    if isinstance(s, Tensor):
        new = raw.scatter(self._data, dim, index._data, s._data)
        r = inplace.record_inplace(SCATTER, self, (self, s), (dim, index._data), new)
        return _guard_index(r, "index", index)
    new = raw.scatter(self._data, dim, index._data,
                      _convert.scalar_array(s, _dtypes.from_numpy(self._data.dtype))[()])
    r = inplace.record_inplace(SCATTER_VALUE, self, (self,), (dim, index._data), new)
    return _guard_index(r, "index", index)


def scatter_add_(self, dim, index, src):
    dim = _wrap_dim(dim, self._data.ndim)
    _scatter_check(self._data, _index_data(index), src, dim)
    _scatter_bounds(self._data, dim, index._data)
    new = raw.scatter_add(self._data, dim, index._data, src._data)
    r = inplace.record_inplace(SCATTER_ADD, self, (self, src), (dim, index._data), new)
    return _guard_index(r, "index", index)


# ---- the catalogue: copies, fills, take/put, scatter_reduce, *_scatter (issue 11) -----------
def _key(dim, index):
    """The basic+advanced key selecting ``index`` along ``dim``."""
    return (slice(None),) * dim + (index,)


def _index_copy_kernel(a, src, dim, index):
    out = a.copy()
    if a.ndim == 0:
        out[...] = src.reshape(())
    else:
        out[_key(dim, index)] = src
    return out


def _index_fill_kernel(a, dim, index, value):
    out = a.copy()
    if a.ndim == 0:  # (one element indexed as 1-d: an empty index fills nothing)
        out.reshape(1)[np.asarray(index).reshape(-1)] = value
    else:
        out[_key(dim, index)] = value
    return out


def _take_backward(F, grad, index, self):
    self_sizes = tuple(self.shape)  # (PyTorch's node saves self itself)
    n = int(np.prod(self_sizes))
    flat = F.index_add(F.zeros((n,), grad), 0, index.reshape(-1), F.reshape(grad, (-1,)))
    return F.reshape(flat, tuple(self_sizes))


def _put_kernel(a, src, index, accumulate):
    out = a.copy().reshape(-1)
    if accumulate:
        np.add.at(out, index.reshape(-1), src.reshape(-1))
    else:
        out[index.reshape(-1)] = src.reshape(-1)
    return out.reshape(a.shape)


def _masked_scatter_kernel(a, src, mask):
    out = np.array(np.broadcast_to(a, mask.shape))
    n = int(mask.sum())
    out[mask] = src.reshape(-1)[:n]
    return out


def _masked_scatter_source_grad(F, grad, mask, source_sizes):
    picked = F.getitem(grad, (mask,))
    extra = int(np.prod(source_sizes)) - int(mask.sum())
    if extra:
        picked = F.cat([picked, F.zeros((extra,), grad)], 0)
    return F.reshape(picked, tuple(source_sizes))


def _slice_key(dim, start, end, step):
    return (slice(None),) * dim + (slice(start, end, step),)


def _scatter_into(key):
    def kernel(a, src, *params):
        out = a.copy()
        out[key(*params)] = src
        return out
    return kernel


INDEX_COPY = defop("index_copy", "IndexCopyBackward0",
                   lambda a, src, dim, index: _index_copy_kernel(a, src, dim, index),
                   inputs=("self", "source"), params=("dim", "index"),
                   grads={"self": lambda F, grad, dim, index: F.zero_at(grad, _key(dim, index)),
                          "source": lambda F, grad, dim, index: F.index_select(grad, dim, index)},
                   jvp="linear", saves={"source": ("source",)})
INDEX_FILL = defop("index_fill", "IndexFillBackward0", _index_fill_kernel,
                   params=("dim", "index", "value"),
                   grads={"self": lambda F, grad, dim, index: F.zero_at(grad, _key(dim, index))},
                   jvp=lambda F, self_t, dim, index: F.zero_at(self_t, _key(dim, index)),
                   layout="like")
INDEX_FILL_TENSOR = defop(
    "index_fill", "IndexFillBackward1", None, inputs=("self", "value"), params=("dim", "index"),
    grads={"self": lambda F, grad, dim, index: F.zero_at(grad, _key(dim, index)),
           "value": lambda F, grad, dim, index: F.sum(F.index_select(grad, dim, index))},
    jvp=lambda F, self, self_t, value, value_t, dim, index: index_fill(
        F.zeros_like(self) if self_t is None else self_t, dim, _make(index),
        F.zeros_like(value) if value_t is None else value_t), layout="like")
INDEX_FILL_TENSOR.fills_tangent = True  # (as masked_fill's)
INDEX_FILL_TENSOR.refuses_complex_grad = True  # (graph._reduce_outs)
TAKE = defop("take", "TakeBackward0", lambda a, index: a.reshape(-1)[index], params=("index",),
             grads={"self": _take_backward}, jvp="linear")
PUT = defop("put", "PutBackward0", _put_kernel, inputs=("self", "source"),
            params=("index", "accumulate"),
            grads={"self": lambda F, grad, index, accumulate: grad if accumulate else F.reshape(
                       F.zero_at(F.reshape(grad, (-1,)), (index.reshape(-1),)), grad.shape),
                   "source": lambda F, grad, index, source: F.reshape(
                       F.index_select(F.reshape(grad, (-1,)), 0, index.reshape(-1)),
                       tuple(source.shape))},
            jvp="linear", layout="like", saves={"source": ("self", "source")})
MASKED_SCATTER = defop("masked_scatter", "MaskedScatterBackward0", _masked_scatter_kernel,
                       inputs=("self", "source"), params=("mask",),
                       grads={"self": lambda F, grad, mask: F.masked_fill(grad, mask, 0),
                              "source": _masked_scatter_source_grad},
                       jvp="linear")


def _same_dtype_tangents(message):
    """tangent_check of an auto_linear op that refuses two dtypes (PyTorch's rule is the op
    on the tangents, ``self_t.index_copy(dim, index, source_t)``, a missing one a zero tensor
    of its primal's dtype): the op's own refusal, ``message`` of (self's, source's)."""
    def check(inputs, tangents):
        a, b = ((x if t is None else t)._data for x, t in zip(inputs[:2], tangents[:2]))
        if a.dtype != b.dtype:
            raise RuntimeError(message.format(_dtype_name(a), _dtype_name(b)))
    return check


INDEX_COPY.tangent_check = _same_dtype_tangents(
    "index_copy_(): self and source expected to have the same dtype, but got (self) {} and "
    "(source) {}")
PUT.tangent_check = _same_dtype_tangents(
    "put_(): self and source expected to have the same dtype, but got self.dtype = {} and "
    "source.dtype = {}")
SCATTER_ADD.tangent_check = _same_dtype_tangents(
    "scatter(): Expected self.dtype to be equal to src.dtype")
MASKED_SCATTER.tangent_check = _same_dtype_tangents(
    "masked_scatter: expected self and source to have same dtypes but got{} and {}")
MASKED_SELECT = defop("masked_select", "MaskedSelectBackward0",
                      lambda a, mask: np.broadcast_to(a, mask.shape)[mask],
                      params=("mask",),
                      # (PyTorch's masked_select_backward: zeros of the broadcast shape,
                      # masked_scatter_'ed: MaskedScatterBackward0)
                      grads={"self": lambda F, grad, mask: F.masked_select_backward(
                          grad, mask.shape, mask)},
                      jvp="linear", saves={"self": ("self",)})
SELECT_SCATTER = defop("select_scatter", "SelectScatterBackward0",
                       _scatter_into(lambda dim, index: _key(dim, index)),
                       inputs=("self", "src"), params=("dim", "index"),
                       grads={"self": lambda F, grad, dim, index: F.zero_at(grad,
                                                                             _key(dim, index)),
                              "src": lambda F, grad, dim, index: F.select(grad, dim, index)},
                       jvp="linear", layout="preserve")
SLICE_SCATTER = defop("slice_scatter", "SliceScatterBackward0", _scatter_into(_slice_key),
                      inputs=("self", "src"), params=("dim", "start", "end", "step"),
                      grads={"self": lambda F, grad, dim, start, end, step: F.zero_at(
                                 grad, _slice_key(dim, start, end, step)),
                             "src": lambda F, grad, dim, start, end, step: F.getitem(
                                 grad, _slice_key(dim, start, end, step))},
                      jvp="linear", layout="preserve")
DIAGONAL_SCATTER = defop(
    "diagonal_scatter", "DiagonalScatterBackward0",
    lambda a, src, offset, dim1, dim2: _diagonal_scatter_kernel(a, src, offset, dim1, dim2),
    inputs=("self", "src"), params=("offset", "dim1", "dim2"),
    grads={"self": lambda F, grad, offset, dim1, dim2: grad - F.diagonal_backward(
               F.diagonal(grad, offset, dim1, dim2), grad.shape, offset, dim1, dim2),
           "src": lambda F, grad, offset, dim1, dim2: F.diagonal(grad, offset, dim1, dim2)},
    jvp="linear", layout="preserve")


def _diagonal_scatter_kernel(a, src, offset, dim1, dim2):
    out = a.copy()
    raw._diagonal_view(out, offset, dim1, dim2)[...] = src
    return out


def _dtype_name(a):
    return _dtypes.legacy_type_name(_dtypes.from_numpy(a.dtype))[6:-6]


def _index_copy_checks(d, dim, idx, src):
    """index_copy's meta checks in its order: the index's rank, a scalar source's index
    length, the ranks, the index dtype, the dtypes, the slice shapes, the index length;
    then the kernel's bounds."""
    if idx.ndim > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {idx.ndim})")
    if src.ndim == 0 and idx.size != 1:
        raise IndexError(f"index_copy_(): When source is scalar, index should have one element "
                         f"(got {idx.size})")
    if src.ndim and d.ndim and src.ndim != d.ndim:
        raise IndexError(f"index_copy_(): When source and destination are not scalars, their "
                         f"dimensionality must match. Source dimensionality ({src.ndim}), "
                         f"destination dimensionality ({d.ndim})")
    if idx.dtype != np.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got "
                           f"{_dtype_name(idx)}")
    if src.dtype != d.dtype:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, "
                           f"but got (self) {_dtype_name(d)} and (source) {_dtype_name(src)}")
    self_sliced = [n for i, n in enumerate(d.shape) if i != dim]
    src_sliced = [n for i, n in enumerate(src.shape) if i != dim]
    if self_sliced != src_sliced:
        raise RuntimeError(f"index_copy_(): Source/destination tensor must have same slice "
                           f"shapes. Destination slice shape: {' '.join(map(str, self_sliced))} "
                           f"at dimension {dim} and source slice shape: "
                           f"{' '.join(map(str, src_sliced))} at dimension 0.")
    n = src.shape[dim] if src.ndim else 1
    if src.ndim and idx.size != n:
        raise IndexError(f"index_copy_(): Number of indices ({idx.size}) should be equal to "
                         f"source.size(dim) ({n})")
    size = d.shape[dim] if d.ndim else 1
    for v in idx.reshape(-1):
        if v < 0 or v >= size:
            raise IndexError(f"index_copy_(): index {int(v)} is out of bounds for dimension "
                             f"{dim} with size {size}")


def _assert_no_overlap(t, other):
    """aten's assert_no_overlap: a partial or full overlap of dense tensors is refused."""
    a, b = t._data, other._data
    if a.size and b.size and np.may_share_memory(a, b) and (
            inplace._partial_overlap(a, b) or (
                inplace._dense(a) and inplace._dense(b) and
                inplace._begin(a) == inplace._begin(b) and a.nbytes == b.nbytes)):
        raise RuntimeError(inplace.INPUT_OVERLAP)


@view_errors_before_checks
def index_copy(input, dim, index, source):
    if _amp.state.enabled:
        return _amp.promote(index_copy, input, dim, index, source)
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    idx = _index_data(index)
    _index_copy_checks(d, dim, idx, source._data)
    idx = idx.reshape(-1)
    out = _index_copy_kernel(d, source._data, dim, idx)
    return _guard_index(_finish(INDEX_COPY, (input, source), (dim, idx), out), "index", index)


def index_copy_(self, dim, index, source):
    d = self._data
    inplace.check_inplace(self, (self, source), inference=False)  # (autograd's checks, then
    dim = _wrap_dim(dim, d.ndim)  # the meta's: dim, the output's overlaps, the arguments)
    inplace.check_no_internal_overlap(self)
    if isinstance(index, Tensor):
        _assert_no_overlap(self, index)
    _assert_no_overlap(self, source)
    idx = _index_data(index)
    _index_copy_checks(d, dim, idx, source._data)
    idx = idx.reshape(-1)
    new = _index_copy_kernel(d, source._data, dim, idx)
    r = inplace.record_inplace(INDEX_COPY, self, (self, source), (dim, idx), new)
    return _guard_index(r, "index", index)


def _restride_error(t, dim, n, inplace):
    """aten's index_fill restrides self (or its fresh clone: an empty storage) to the
    index's length along dim with stride 0 before it checks the index: an empty dim's
    restriding overruns the storage (setStorage's error)."""
    sizes, strides = list(t.shape), list(t.stride())
    sizes[dim], strides[dim] = n, 0
    offset = t.storage_offset() if inplace else 0
    have = t.untyped_storage().nbytes() if inplace else 0
    need = (offset + 1 + sum((s - 1) * st for s, st in zip(sizes, strides))) * t.itemsize
    if need > have:
        raise RuntimeError(f"setStorage: sizes {sizes}, strides {strides}, storage offset "
                           f"{offset}, and itemsize {t.itemsize} requiring a storage size of "
                           f"{need} are out of bounds for storage of size {have}")


def _index_fill_args(d, dim, index, value, t=None, inplace=False):
    """index_fill_'s checks in its order: a value tensor's dimensions (its Tensor
    overload's), the index dtype, a complex number into a real self, then dim."""
    if isinstance(value, Tensor) and value._data.ndim != 0:
        raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value._data.ndim} dimension(s).")
    if not isinstance(index, Tensor):
        raise _argparse.wrong_type("index_fill", "index")
    idx = _index_data(index)
    if idx.dtype != np.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if d.dtype.kind != "c" and (isinstance(value, complex) or (
            isinstance(value, Tensor) and value._data.dtype.kind == "c")):
        raise RuntimeError("index_fill_(): Converting complex Scalar to non-complex type is "
                           "not supported")
    dim = _wrap_dim(dim, d.ndim)
    if idx.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    size = d.shape[dim] if d.ndim else 1
    idx = idx.reshape(-1)
    if not d.size and d.ndim:
        # (an empty self is restrided to the index's length along dim: an empty restriding
        # reads no index; a non-empty one needs storage first, then checks the indices)
        if not idx.size or 0 in d.shape[:dim] + d.shape[dim + 1:]:
            return dim, idx[:0]
        if t is not None:
            _restride_error(t, dim, idx.size, inplace)
    for v in idx:
        if v < -size or v >= size:
            raise IndexError(f"index {int(v)} is out of bounds for dimension {dim} with size "
                             f"{size}")
    return dim, np.where(idx < 0, idx + size, idx)


@view_errors_before_checks
def index_fill(input, dim, index, value):
    d = input._data
    dim, idx = _index_fill_args(d, dim, index, value, input)
    if isinstance(value, Tensor):  # (aten: index_fill_(dim, index, source.item()))
        v = _convert.scalar_array(value.item(), _dtypes.from_numpy(d.dtype))
        out = _index_fill_kernel(d, dim, idx, v)
        return _guard_index(_finish(INDEX_FILL_TENSOR, (input, value), (dim, idx), out),
                            "index", index)
    v = _convert.scalar_array(value, _dtypes.from_numpy(d.dtype))
    return _guard_index(_finish(INDEX_FILL, (input,), (dim, idx, value),
                                _index_fill_kernel(d, dim, idx, v)),
                        "index", index)


def index_fill_(self, dim, index, value):
    _convert.check_python_int(value)  # (a c10::Scalar, parsed first)
    d = self._data
    _warn_expanded("index_fill_", d, "tensor[mask] = scalar")
    dim, idx = _index_fill_args(d, dim, index, value, self, True)
    where = inplace.written_positions(
        d, lambda m: m.__setitem__(_key(dim, idx), True) if d.ndim else
        m.reshape(1).__setitem__(np.asarray(idx).reshape(-1), True))
    where = True if where is None else where
    if isinstance(value, Tensor):
        new = _index_fill_kernel(d, dim, idx, _convert.scalar_array(
            value.item(), _dtypes.from_numpy(d.dtype)))
        r = inplace.record_inplace(INDEX_FILL_TENSOR, self, (self, value), (dim, idx), new,
                                   where=where)
        return _guard_index(r, "index", index)
    v = _convert.scalar_array(value, _dtypes.from_numpy(d.dtype))
    new = _index_fill_kernel(d, dim, idx, v)
    r = inplace.record_inplace(INDEX_FILL, self, (self,), (dim, idx, value), new,
                               where=where)
    return _guard_index(r, "index", index)


def _flat_index(name, index, numel, checks=None):
    """The flat index of take / put_: its dtype, ``checks()`` (put_'s), then the kernel's
    range check."""
    idx = _index_data(index)
    if idx.dtype != np.int64:
        raise RuntimeError(f"{name}(): Expected a long tensor for index, but got "
                           f"{_dtype_name(idx)}")
    if checks is not None:
        checks(idx)
    if not numel and idx.size:  # (the kernels' own message for an empty tensor)
        raise IndexError("take(): tried to take from an empty tensor" if name == "take" else
                         "put_(): Tried to put elements into an empty tensor")
    for v in idx.reshape(-1):
        if v < -numel or v >= numel:
            raise IndexError(f"out of range: tried to access index {int(v)} on a tensor of "
                             f"{numel} elements.")
    return np.where(idx < 0, idx + numel, idx)


@view_errors_before_checks
def take(input, index):
    d = input._data
    idx = _flat_index("take", index, d.size)
    return _guard_index(_finish(TAKE, (input,), (idx,), d.reshape(-1)[idx]), "index", index)


def take_along_dim(input, indices, dim=None):
    idx = _index_data(indices)
    if idx.dtype != np.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{_dtype_name(idx)}")
    if dim is None:  # (aten's self.view(-1).gather(0, indices.view(-1)): views, may raise)
        from .shape import view
        return gather(view(input, -1), 0, view(indices, -1))
    d = input._data
    if d.ndim != idx.ndim:
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same "
                           f"number of dimensions, but got {d.ndim} dimensions for input, and "
                           f"{idx.ndim} dimensions for indices")
    dim = _wrap_dim(dim, d.ndim)
    sizes = list(d.shape)
    sizes[dim] = idx.shape[dim]
    shape = list(np.broadcast_shapes(tuple(sizes), idx.shape))
    index = expand(indices, tuple(shape))
    shape[dim] = d.shape[dim]
    return gather(expand(input, tuple(shape)), dim, index)


def _put_checks(d, index, source):
    """put_'s checks in aten's order: index dtype, source dtype, the sizes, then the range."""
    s = source._data

    def checks(idx):
        if s.dtype != d.dtype:
            raise RuntimeError(f"put_(): self and source expected to have the same dtype, but "
                               f"got self.dtype = {_dtype_name(d)} and source.dtype = "
                               f"{_dtype_name(s)}")
        if s.size != idx.size:
            raise IndexError(f"put_(): Expected source and index to have the same number of "
                             f"elements, but got source.numel() = {s.size}, index.numel() = "
                             f"{idx.size}")
        if d.size == 0 and idx.size:
            raise IndexError("put_(): Tried to put elements into an empty tensor")
    return _flat_index("put_", index, d.size, checks)


@view_errors_before_checks
def put(input, index, source, accumulate=False):
    d = input._data
    idx = _put_checks(d, index, source)
    out = _put_kernel(d, source._data, idx, accumulate)
    return _guard_index(_finish(PUT, (input, source), (idx, accumulate), out), "index", index)


def put_(self, index, source, accumulate=False):
    d = self._data
    idx = _put_checks(d, index, source)
    new = _put_kernel(d, source._data, idx, accumulate)
    r = inplace.record_inplace(PUT, self, (self, source), (idx, accumulate), new)
    return _guard_index(r, "index", index)


def _masked_scatter_args(d, mask, source, inplace_):
    if not isinstance(mask, Tensor):
        raise _argparse.wrong_type("masked_scatter", "mask")
    m = _index_data(mask)
    if m.dtype != np.bool_:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {_dtype_name(m)}")
    s = source._data
    if s.dtype != d.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but "
                           f"got{_dtype_name(d)} and {_dtype_name(s)}")
    if inplace_ and m.shape != d.shape:  # (expand_inplace(self, mask): expand's words)
        m = expand(_make(m), d.shape)._data
    try:
        shape = d.shape if inplace_ else np.broadcast_shapes(d.shape, m.shape)
        m = np.broadcast_to(m, shape)
    except ValueError:
        raise broadcast_error(m.shape, d.shape) from None
    if int(m.sum()) > s.size:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return m


@view_errors_before_checks
def masked_scatter(input, mask, source):
    d = input._data
    m = _masked_scatter_args(d, mask, source, False)
    out = np.asarray(_masked_scatter_kernel(d, source._data, m), order="C")  # (as masked_fill)
    r = _guard_index(_finish(MASKED_SCATTER, (input, source), (m,), out), "mask", mask)
    if r._grad_fn is not None and out.shape != d.shape:
        set_input_metadata(r._grad_fn, (input, source), out.shape, out.dtype)
        r._grad_fn._reduce[1] = None
    return r


def masked_scatter_(self, mask, source):
    d = self._data
    m = _masked_scatter_args(d, mask, source, True)
    new = _masked_scatter_kernel(d, source._data, m)
    r = inplace.record_inplace(MASKED_SCATTER, self, (self, source), (m,), new)
    return _guard_index(r, "mask", mask)


def _src_size_check(src_shape, slice_shape):
    if tuple(src_shape) != tuple(slice_shape):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                           f"[{_errors.shape_str(src_shape)}], slice size = "
                           f"[{_errors.shape_str(slice_shape)}]")


@view_errors_before_checks
def select_scatter(input, src, dim, index):
    d = input._data
    region = select(input.detach(), dim, index)._data
    dim = _wrap_dim(dim, d.ndim)
    index = int(index) + (d.shape[dim] if int(index) < 0 else 0)
    _src_size_check(src._data.shape, region.shape)
    out = SELECT_SCATTER.kernel(d, src._data.astype(d.dtype), dim, index)
    return _finish(SELECT_SCATTER, (input, src), (dim, index), out)


@view_errors_before_checks
def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    d = input._data
    if d.ndim == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, d.ndim)
    s, e, st = slice(start, end, step).indices(d.shape[dim])
    region = d[_slice_key(dim, s, e, st)]
    _src_size_check(src._data.shape, region.shape)
    out = SLICE_SCATTER.kernel(d, src._data.astype(d.dtype), dim, s, e, st)
    return _finish(SLICE_SCATTER, (input, src), (dim, s, e, st), out)


@view_errors_before_checks
def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    from .shape import diagonal
    d = input._data
    region = diagonal(input.detach(), offset, dim1, dim2)._data
    dim1, dim2 = _wrap_dim(dim1, d.ndim), _wrap_dim(dim2, d.ndim)
    _src_size_check(src._data.shape, region.shape)
    out = _diagonal_scatter_kernel(d, src._data.astype(d.dtype), offset, dim1, dim2)
    return _finish(DIAGONAL_SCATTER, (input, src), (offset, dim1, dim2), out)


_REDUCE = {"sum": "sum", "prod": "prod", "mean": "mean", "amax": "amax", "max": "amax",
           "amin": "amin", "min": "amin"}


def _scatter_key(dim, index):
    idx = list(np.indices(index.shape, sparse=True))
    idx[dim] = index
    return tuple(idx)


def _scatter_reduce_kernel(a, src, dim, index, reduce, include_self):
    if index.size == 0:
        return a.copy()
    if a.ndim == 0 or index.ndim == 0 or src.ndim == 0:  # (one element along one dim)
        return _scatter_reduce_kernel(
            a.reshape(-1), src.reshape(-1) if src.ndim == 0 else src, dim if a.ndim else 0,
            index.reshape(-1) if index.ndim == 0 else index, reduce, include_self
        ).reshape(a.shape)
    out = a.copy()
    key = _scatter_key(dim, index)
    s = src[tuple(slice(0, n) for n in index.shape)]
    if not include_self:
        if reduce in ("sum", "mean"):
            ident = 0
        elif reduce == "prod":
            ident = 1
        elif a.dtype.kind in "fV":
            ident = -np.inf if reduce == "amax" else np.inf
        else:
            info = np.iinfo(a.dtype) if a.dtype.kind in "iu" else None
            ident = (info.min if reduce == "amax" else info.max) if info else reduce == "amin"
        out[key] = ident
    ufunc = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum,
             "amin": np.minimum}[reduce]
    ufunc.at(out, key, s)
    if reduce == "mean":
        count = _scatter_count(a.shape, dim, index, include_self)
        out = out // count.astype(a.dtype) if a.dtype.kind in "iu" else \
            (out / count).astype(a.dtype)
    return out


def _scatter_count(shape, dim, index, include_self):
    """How many values each position of a mean scatter_reduce averages (at least 1)."""
    count = np.full(shape, 1.0 if include_self else 0.0)
    np.add.at(count, _scatter_key(dim, index), 1.0)
    count[count == 0] = 1.0
    return count


def _scatter_reduce_grads(F, grad, self, src, dim, index, reduce, include_self, result,
                          backward=True):
    """(gradient of self, gradient of src), as PyTorch's scatter_reduce_backward (with
    ``backward``: its DelayedError, not the forward rule's)."""
    if reduce == "sum":
        g_self, g_src = grad, F.gather(grad, dim, index)
    elif reduce == "mean":
        n = F.constant(_scatter_count(grad.shape, dim, index, include_self), grad)
        g_self = grad / n
        g_src = F.gather(grad, dim, index) / F.gather(n, dim, index)
    elif reduce == "prod":
        masked_self = F.masked_fill(self, self == 0, 1)
        masked_self_result = _via_scatter_reduce(F, masked_self, dim, index, src, reduce,
                                                 include_self)
        g_self = grad * masked_self_result / masked_self
        src_zero = src == 0
        zeros = F.zeros_like(self)
        n_zeros = F.gather(F.scatter_add(zeros, dim, index, F.cast_like(src_zero, self)),
                           dim, index)
        single = src_zero & (n_zeros == 1)
        masked_src = F.masked_fill(src, single, 1)
        masked_src_result = _via_scatter_reduce(F, self, dim, index, masked_src, reduce,
                                                include_self)
        g_src = F.where(single, F.gather(grad * masked_src_result, dim, index),
                        F.gather(grad * result, dim, index) / F.masked_fill(src, src_zero, 1))
        if backward and not F.is_raw and (_values(n_zeros) > 1).any():
            from ..autograd.function import delayed_error
            g_src = delayed_error(g_src, "scatter_reduce(): Double backward is unsupported for "
                                  "src when >1 zeros in src are scattered to the same "
                                  "position in self")
    else:
        value = F.gather(result, dim, index)
        self_is = F.cast_like(self == result, grad)
        src_is = F.cast_like(src == value, grad)
        n = F.scatter_add(self_is, dim, index, src_is)
        distributed = grad / n
        g_self = self_is * distributed
        g_src = src_is * F.gather(distributed, dim, index)
    if not include_self:
        g_self = F.scatter(g_self, dim, index, 0)
    return g_self, g_src


def _via_scatter_reduce(F, x, dim, index, src, reduce, include_self):
    if F.is_raw:
        return _scatter_reduce_kernel(x, src, dim, index, reduce, include_self)
    return scatter_reduce(x, dim, _make(index), src, reduce, include_self=include_self)


def _scatter_reduce_jvp(F, self, self_t, src, src_t, dim, index, reduce, include_self,
                        result):
    """PyTorch's scatter_reduce_jvp: sum and mean are linear (the op on the tangents, zeros
    for a missing one: +0.0 where include_self=False resets self); amax/amin the tangents
    where self / src attain the result, scatter-summed, over their count. prod: each input
    element feeds exactly one output, the tangent is the sum of the inputs' tangents times
    their derivatives (the backward's with a gradient of ones); PyTorch 2.13 leaves prod's
    tangent undefined, this one is checked by central differences."""
    if reduce != "prod":
        st = F.zeros_like(self) if self_t is None else self_t
        rt = F.zeros_like(src) if src_t is None else src_t
        idx = _make(index)
        if reduce in ("sum", "mean"):
            return scatter_reduce(st, dim, idx, rt, reduce, include_self=include_self)
        mask_self = self == result
        mask_src = src == F.gather(result, dim, index)
        count = scatter_reduce(F.cast_like(mask_self, st), dim, idx, F.cast_like(mask_src, st),
                               "sum", include_self=include_self)
        return scatter_reduce(F.where(mask_self, st, 0.0), dim, idx, F.where(mask_src, rt, 0.0),
                              "sum", include_self=include_self) / count
    ones = F.ones_like(result)
    w_self, w_src = _scatter_reduce_grads(F, ones, self, src, dim, index, reduce,
                                          include_self, result, backward=False)
    out = F.zeros_like(result) if self_t is None else w_self * self_t
    if src_t is not None:
        out = F.scatter_add(out, dim, index, w_src * src_t)
    return out


SCATTER_REDUCE = defop(
    "scatter_reduce", "ScatterReduceBackward0", None, inputs=("self", "src"),
    params=("dim", "index", "reduce", "include_self"),
    grads={"self": lambda F, grad, self, src, dim, index, reduce, include_self, result:
           _scatter_reduce_grads(F, grad, self, src, dim, index, reduce, include_self,
                                 result)[0],
           "src": lambda F, grad, self, src, dim, index, reduce, include_self, result:
           _scatter_reduce_grads(F, grad, self, src, dim, index, reduce, include_self,
                                 result)[1]},
    jvp=_scatter_reduce_jvp)


def _scatter_reduce_args(d, dim, index, src, reduce):
    """scatter_meta_impl's checks (dtypes, shapes), the reduce argument, then the kernel's
    index bounds."""
    dim = _wrap_dim(dim, d.ndim)
    idx = _index_data(index)
    _scatter_check(d, idx, src, dim)
    if reduce not in _REDUCE:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")
    _scatter_bounds(d, dim, idx)
    idx = idx.astype(np.int64)
    return dim, idx, _REDUCE[reduce]


@view_errors_before_checks
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    d = input._data
    dim, idx, reduce = _scatter_reduce_args(d, dim, index, src, reduce)
    out = _scatter_reduce_kernel(d, src._data, dim, idx, reduce, include_self)
    return _guard_index(_finish(SCATTER_REDUCE, (input, src), (dim, idx, reduce, include_self),
                                out),
                        "index", index)


def scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
    d = self._data
    dim, idx, reduce = _scatter_reduce_args(d, dim, index, src, reduce)
    new = _scatter_reduce_kernel(d, src._data, dim, idx, reduce, include_self)
    r = inplace.record_inplace(SCATTER_REDUCE, self, (self, src),
                               (dim, idx, reduce, include_self), new)
    return _guard_index(r, "index", index)


def argwhere(input):
    """The indices of the nonzero elements, one row each (nonzero's result)."""
    return nonzero(input)


# Note [scatter's reduce=]
# ~~~~~~~~~~~~~~~~~~~~~~~~
# ``scatter(..., reduce="add"/"multiply")`` is PyTorch's older scatter_reduce: src (or the
# value) is accumulated into self at the index, not written. PyTorch deprecates the form with
# a tensor src (a warning once per process) and has no derivative for it: a node
# NotImplemented whose backward raises, no forward-mode rule.
_LEGACY_REDUCE = {"add": np.add, "multiply": np.multiply}
_legacy_warned = [False]


def _scatter_legacy_kernel(a, src, dim, index, reduce):
    if index.size == 0:
        return a.copy()
    if a.ndim == 0 or index.ndim == 0 or (isinstance(src, ndarray) and src.ndim == 0):
        return _scatter_legacy_kernel(  # (one element along one dim)
            a.reshape(-1), src.reshape(-1) if isinstance(src, ndarray) and src.ndim == 0
            else src, dim if a.ndim else 0, index.reshape(-1) if index.ndim == 0 else index,
            reduce).reshape(a.shape)
    out = a.copy()
    idx = list(np.indices(index.shape, sparse=True))
    if a.ndim:
        idx[dim] = index
    if isinstance(src, ndarray):
        src = src[tuple(slice(0, n) for n in index.shape)]
    else:
        src = np.full(index.shape, src, dtype=a.dtype)
    _LEGACY_REDUCE[reduce].at(out, tuple(idx) if a.ndim else (), src)
    return out


def _scatter_legacy_grads(name):
    def formula(F, grad):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")
    return formula


def _scatter_legacy_jvp(name):
    def rule(F, self):
        raise NotImplementedError(f"Trying to use forward AD with aten::{name} that does not "
                                  f"support it.")
    return rule


SCATTER_REDUCE_SRC = defop(
    "scatter", "torch::autograd::NotImplemented", _scatter_legacy_kernel,
    inputs=("self", "src"), params=("dim", "index", "reduce"), jvp=_scatter_legacy_jvp("scatter"),
    grads={"self": _scatter_legacy_grads("scatter"), "src": _scatter_legacy_grads("scatter")})
SCATTER_REDUCE_VALUE = defop(
    "scatter", "torch::autograd::NotImplemented", _scatter_legacy_kernel,
    params=("value", "dim", "index", "reduce"), jvp=_scatter_legacy_jvp("scatter"),
    grads={"self": _scatter_legacy_grads("scatter")})
SCATTER_REDUCE_SRC_ = defop(
    "scatter_", "torch::autograd::NotImplemented", _scatter_legacy_kernel,
    inputs=("self", "src"), params=("dim", "index", "reduce"),
    jvp=_scatter_legacy_jvp("scatter_"),
    grads={"self": _scatter_legacy_grads("scatter"), "src": _scatter_legacy_grads("scatter")})
SCATTER_REDUCE_VALUE_ = defop(
    "scatter_", "torch::autograd::NotImplemented", _scatter_legacy_kernel,
    params=("value", "dim", "index", "reduce"), jvp=_scatter_legacy_jvp("scatter_"),
    grads={"self": _scatter_legacy_grads("scatter")})


def _scatter_legacy(in_place, d, dim, idx, s, reduce):
    """The op and the result of scatter(..., reduce=) (Note [scatter's reduce=])."""
    import warnings
    if isinstance(s, Tensor) and s._data.dtype != d.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if reduce not in _LEGACY_REDUCE:
        raise RuntimeError("reduce argument must be either add or multiply.")
    _scatter_bounds(d, dim, idx)
    if isinstance(s, Tensor):
        if not _legacy_warned[0]:
            _legacy_warned[0] = True
            warnings.warn("The reduce argument of torch.scatter with Tensor src is deprecated "
                          "and will be removed in a future PyTorch release. Use "
                          "torch.scatter_reduce instead for more reduction options. (Triggered "
                          "internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                          "TensorAdvancedIndexing.cpp:225.)", UserWarning, stacklevel=3)
        op = SCATTER_REDUCE_SRC_ if in_place else SCATTER_REDUCE_SRC
        return op, _scatter_legacy_kernel(d, s._data, dim, idx, reduce)
    op = SCATTER_REDUCE_VALUE_ if in_place else SCATTER_REDUCE_VALUE
    return op, _scatter_legacy_kernel(d, np.asarray(s).astype(d.dtype).item(), dim, idx, reduce)


def isin(elements, test_elements, *, assume_unique=False, invert=False, out=None):
    """Whether each element is in test_elements (either may be a number), compared in the
    promoted dtype; a bool or complex operand is PyTorch's error. No gradient."""
    if out is not None:  # Note [out= arguments] in _out.py
        from ._out import write_out
        return write_out("isin", isin(elements, test_elements, assume_unique=assume_unique,
                                      invert=invert), out)
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        raise TypeError(f"isin() received an invalid combination of arguments - got "
                        f"({type(elements).__name__}, {type(test_elements).__name__})")
    for a in (elements, test_elements):
        if not isinstance(a, (Tensor, bool, int, float, complex)):
            raise TypeError(f"isin() received an invalid combination of arguments - got "
                            f"({type(elements).__name__}, {type(test_elements).__name__})")
        dt = a.dtype if isinstance(a, Tensor) else _dtypes.result_type(a)
        if dt is _dtypes.bool or dt.np.kind == "c":
            raise RuntimeError(f"Unsupported input type encountered for isin(): "
                               f"{_dtypes.scalar_name(dt)}")
    rt = _dtypes.result_type(elements, test_elements).np
    e = np.asarray(elements._data if isinstance(elements, Tensor) else elements).astype(rt)
    t = np.asarray(test_elements._data if isinstance(test_elements, Tensor)
                   else test_elements).astype(rt)
    return _make(_asarray(np.isin(e, t, assume_unique=assume_unique, invert=invert)))


# PyTorch's autograd checks (leaf, views) come before these ops' own checks
# (masked_fill_, on backward formulas' path, checks its failures itself)
(index_add_, index_copy_, index_fill_, scatter_, scatter_add_, scatter_reduce_,
 masked_scatter_, put_, index_reduce_) = map(inplace.autograd_checks_first, (
    index_add_, index_copy_, index_fill_, scatter_, scatter_add_, scatter_reduce_,
    masked_scatter_, put_, index_reduce_))
