"""PyTorch's ZeroTensor as a gradient: the array sgn's backward gives for a real input.

Note [Zero-tensor gradients]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~
PyTorch's sgn_backward returns ``at::_efficientzerotensor`` for a real input (sign's returns
stored zeros). That tensor has no storage and flows on through the backward formulas under
the ZeroTensor dispatch key, whose kernels are (found by experiment, torch 2.13):
- ``mul`` with a zero-tensor operand is a zero tensor (no 0 * inf = NaN, no -0.0);
- ``div``: ZT / x is a zero tensor, x / ZT is inf everywhere, ZT / ZT NaN everywhere;
- ``add``/``sub``: the other operand, copied to the result's shape and dtype (-0.0 kept;
  ZT - y is y * -1); two zero tensors give one;
- views (view, reshape, transpose, expand, permute, squeeze, unsqueeze, select, slice,
  diagonal) of a zero tensor are zero tensors; linalg_cross with one is one;
- every other op (neg, sum, where, mm, clone, a dtype cast, select_backward, the
  ``*_backward`` kernels...) computes on materialized +0.0 zeros and gives a stored tensor;
- a write into one (any in-place op, copy_, setitem; AccumulateGrad's ``grad += new``)
  raises "ZeroTensors are immutable"; an in-place op on a stored tensor with a zero-tensor
  operand computes on materialized zeros (``buf.add_(ZT)``: -0.0 becomes +0.0).
``ZeroGrad`` is an ndarray subclass of read-only +0.0 zeros whose ``__array_ufunc__`` and
``__array_function__`` apply exactly those rules, so the NumPy formulas (Note [One formula,
two interpretations] in raw.py) and the Tensor ops on a ``.grad`` holding one (whose
``_data`` it is) follow them unchanged. Only sgn's real backward makes one, so nothing else
pays for it. A zero-marked array's values can never change: every write through it refuses
(PyTorch's error: __setitem__, a ufunc's out=, np.copyto, fill), the zero tensor's own
memory is read-only as a backstop, and what copies one (a reshape that cannot view it, an
index, copy(), astype) gives a plain materialized array, as PyTorch's clone does.
Elsewhere: the nodes whose PyTorch backward is one fused kernel materialize it first
(graph.ZERO_MATERIALIZING, also in the compiled backward); the engine steals one into a
leaf's .grad as any gradient (engine._stealable), refuses ``grad += new`` into one
(accumulate_grad), and adds one into a buffer no one else holds in place, i.e. on
materialized zeros (engine._sum_zero); a Tensor holding one refuses tolist()/numpy() and
in-place ops (inplace._refuse_zero_grad).
"""
from ._backend import np

ndarray = np.ndarray

# PyTorch's two wordings: the zero-tensor fallback's (an in-place op) and copy_'s check
# (copy_, setitem)
IMMUTABLE_ZERO_ = ("ZeroTensors are immutable. Please use the materialized zero tensor "
                   "obtained using .clone() if you want a mutable tensor.")
IMMUTABLE_COPY = ("ZeroTensors are immutable. Please materialize the tensor using "
                  "`.clone()`, if you want a mutable zero tensor.")
NO_STORAGE_TOLIST = "tolist() shouldn't be called on a tensor with unallocated storage"
NO_NUMPY = " Cannot convert a ZeroTensor to numpy. Set force=True if you need the zero array."


def zero_grad(shape, dtype):
    """A zero-tensor gradient of ``shape`` and ``dtype`` (calloc'd: lazily zero pages)."""
    z = np.zeros(shape, dtype).view(ZeroGrad)
    z.flags.writeable = False
    return z


def is_zero(a):
    return isinstance(a, ZeroGrad)


def materialized(g):
    """A gradient (array or Tensor) with a zero tensor materialized: +0.0 zeros, and for a
    Tensor the same history (the fallback's materialization records nothing)."""
    d = getattr(g, "_data", g)
    if not isinstance(d, ZeroGrad):
        return g
    if d is g:
        return d.view(ndarray)
    from ._tensor import _make
    t = _make(d.view(ndarray))
    t._grad_fn, t._requires_grad, t._output_nr = g._grad_fn, g._requires_grad, g._output_nr
    return t


def _plain(a):
    """A materialized (plain, read-only) view of a zero tensor; anything else as is."""
    return a.view(ndarray) if isinstance(a, ZeroGrad) else a


def _plain_args(args):
    return tuple(
        _plain(a) if not isinstance(a, (list, tuple)) else type(a)(_plain_args(a))
        for a in args)


def _like_result(ufunc, inputs):
    """The result a ufunc would give on materialized inputs (its shape and dtype)."""
    with np.errstate(all="ignore"):
        return np.asarray(ufunc(*_plain_args(inputs)))


_BINARY = {np.multiply: "mul", np.true_divide: "div", np.add: "add", np.subtract: "sub"}

# NumPy functions that return a view: a view of a zero tensor is one
_VIEWS = frozenset((np.reshape, np.transpose, np.swapaxes, np.moveaxis, np.squeeze,
                    np.expand_dims, np.broadcast_to, np.atleast_1d, np.atleast_2d,
                    np.atleast_3d, np.real, np.diagonal))
# NumPy functions standing for an aten op with a ZeroTensor kernel of mul's kind (a zero
# tensor of the result's shape and dtype): linalg_cross
_ZERO_KERNELS = frozenset((np.cross,))


class ZeroGrad(ndarray):
    """Read-only +0.0 zeros standing for PyTorch's ZeroTensor (Note [Zero-tensor
    gradients])."""

    __slots__ = ()

    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        if out is not None:
            if any(isinstance(o, ZeroGrad) for o in out):
                raise RuntimeError(IMMUTABLE_ZERO_)
            # an in-place op on a stored tensor: computes on materialized zeros
            return getattr(ufunc, method)(*_plain_args(inputs), out=out, **kwargs)
        kind = _BINARY.get(ufunc) if method == "__call__" and len(inputs) == 2 and \
            not kwargs else None
        if kind is None:
            return getattr(ufunc, method)(*_plain_args(inputs), **kwargs)
        a, b = inputs
        za, zb = isinstance(a, ZeroGrad), isinstance(b, ZeroGrad)
        like = _like_result(ufunc, inputs)
        if kind == "mul" or (za and zb and kind != "div") or (kind == "div" and za and not zb):
            return zero_grad(like.shape, like.dtype)
        if kind == "div":
            return np.full(like.shape, np.nan if za else np.inf, like.dtype)
        # add/sub: the other operand in the result's shape and dtype (ZT - y: y * -1)
        other = b if za else a
        res = np.array(np.broadcast_to(other, like.shape), dtype=like.dtype, copy=True)
        if kind == "sub" and za:
            res = np.multiply(res, -1, dtype=like.dtype)
        return res

    def __array_function__(self, func, types, args, kwargs):
        if func is np.copyto:
            dst = args[0] if args else kwargs.get("dst")
            if isinstance(dst, ZeroGrad):
                raise RuntimeError(IMMUTABLE_ZERO_)
        if func in _VIEWS:
            return super().__array_function__(func, types, args, kwargs)
        if func in _ZERO_KERNELS:
            like = np.asarray(func(*_plain_args(args), **kwargs))
            return zero_grad(like.shape, like.dtype)
        return func(*_plain_args(args), **{k: _plain(v) for k, v in kwargs.items()})

    def _view_or_copy(self, r):
        """A view of a zero tensor is one; a copy (what PyTorch's reshape clones, an index)
        is materialized."""
        if r.__class__ is ZeroGrad and not np.may_share_memory(r, self):
            return r.view(ndarray)
        return r

    def __getitem__(self, index):
        """Basic indexing (select, slice) is a view, a zero tensor; advanced indexing
        (index) computes on materialized zeros."""
        return self._view_or_copy(super().__getitem__(index))

    def reshape(self, *shape, **kwargs):
        return self._view_or_copy(super().reshape(*shape, **kwargs))

    def ravel(self, order="C"):
        return self._view_or_copy(super().ravel(order))

    def flatten(self, order="C"):
        return self.view(ndarray).flatten(order)

    def __setitem__(self, index, value):
        raise RuntimeError(IMMUTABLE_ZERO_)

    def fill(self, value):
        raise RuntimeError(IMMUTABLE_ZERO_)

    def copy(self, order="C"):
        """A clone materializes."""
        return self.view(ndarray).copy(order)

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        """A cast to another dtype materializes (``z.float()`` of a float64 zero tensor is
        stored); to its own dtype without a copy it is the zero tensor itself."""
        if not copy and np.dtype(dtype) == self.dtype:
            return self
        return self.view(ndarray).astype(dtype, order, casting, True, True)

    def __reduce__(self):  # (pickled as what it stands for: materialized zeros)
        return self.view(ndarray).copy().__reduce__()
