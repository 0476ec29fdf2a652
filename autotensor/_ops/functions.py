"""The public ops: PyTorch's signatures, argument checks and dtype promotion, then one call
into the op table through dispatch. Also attaches them to Tensor as methods and operators,
and builds ``TENSOR``, the namespace backward formulas use when recording a graph.
"""
import builtins
import numbers
from types import SimpleNamespace

from .. import _dtypes, _errors
from .._backend import np
from .._tensor import Size, Tensor, _is_contiguous, _make
from ..autograd import grad_mode, inplace
from . import derivatives as D
from . import raw
from .dispatch import (broadcast_error, record, record_fast, requires_grad_mask,
                       set_input_metadata, stale_view_requires_grad)

_state = grad_mode.state
ndarray = np.ndarray
_asarray = raw.asarray
_py_sum, _py_max, _py_min, _py_abs = builtins.sum, builtins.max, builtins.min, builtins.abs

# NumPy warns on 1/0, log(0), overflow...; PyTorch returns inf/nan silently.
np.seterr(divide="ignore", invalid="ignore", over="ignore", under="ignore")


# ---- argument helpers -------------------------------------------------------------------
def _tensor_arg(x, like=None):
    """A Tensor from an op argument that is not one (a list, an ndarray, a NumPy scalar)."""
    if isinstance(x, Tensor):
        return x
    from .._creation import tensor
    return tensor(x) if like is None else tensor(x, dtype=like.dtype)


def _float_data(t):
    """t's array, as the default float dtype if it is integral (exp, sin, ... of ints)."""
    d = t._data
    if d.dtype.kind in "biu":
        return d.astype(_dtypes.default_float.np)
    return d


def _wrap_dim(dim, ndim):
    if dim.__class__ is not int:
        dim = dim.__index__()
    n = ndim if ndim > 0 else 1
    if dim < -n or dim >= n:
        raise _errors.dim_error(dim, ndim)
    return dim + n if dim < 0 else dim


def _dims(dim, ndim):
    """Normalise an int / tuple / list / None dim argument to a sorted tuple (or None)."""
    if dim is None:
        return None
    if isinstance(dim, (int, np.integer)):
        return (_wrap_dim(int(dim), ndim),)
    dims = tuple(_wrap_dim(int(d), ndim) for d in dim)
    if len(set(dims)) != len(dims):
        raise RuntimeError(f"dim {dims[0]} appears multiple times in the list of dims")
    return tuple(sorted(dims)) if dims else None


def _scalar_dtype_data(ad, b):
    """Array of a tensor promoted against a Python scalar, PyTorch's way (ints stay weak)."""
    kind = ad.dtype.kind
    cb = b.__class__
    if cb is float and kind in "biu":
        return ad.astype(_dtypes.default_float.np)
    if cb is complex and kind != "c":
        return ad.astype(_dtypes.scalar_result_dtype(_dtypes.from_numpy(ad.dtype), b).np)
    if cb is int and kind == "b":
        return ad.astype(np.int64)
    return ad


_SCALARS = (int, float, bool, complex)


def _binary(op, a, b, params=()):
    """Elementwise binary op with broadcasting and PyTorch's type promotion."""
    if a.__class__ is not Tensor and not isinstance(a, Tensor):
        a = _scalar_to_tensor(a, b) if isinstance(a, _SCALARS) else _tensor_arg(a)
    ad = a._data
    cb = b.__class__
    promoted = False
    if cb is Tensor or isinstance(b, Tensor):
        bd = b._data
        if ad.dtype is not bd.dtype and ad.dtype != bd.dtype:
            rt = _dtypes.binary_result_dtype(_dtypes.from_numpy(ad.dtype), ad.ndim == 0,
                                             _dtypes.from_numpy(bd.dtype), bd.ndim == 0).np
            ad = ad.astype(rt, copy=False)
            bd = bd.astype(rt, copy=False)
            promoted = True
    elif cb in _SCALARS:
        bd = b
        if ad.dtype.kind in "biu" or cb is complex:
            ad2 = _scalar_dtype_data(ad, b)
            promoted = ad2 is not ad
            ad = ad2
    elif isinstance(b, numbers.Number) and not isinstance(b, np.ndarray):
        return _binary(op, a, b.item() if hasattr(b, "item") else complex(b), params)
    elif isinstance(b, (str, bytes, dict, set)) or b is None:
        raise TypeError(f"{op.name}(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(b).__name__}")
    else:
        return _binary(op, a, _tensor_arg(b, None), params)
    try:
        out = op.kernel(ad, bd, *params)
    except ValueError:
        raise broadcast_error(ad.shape, np.shape(bd)) from None
    if out.__class__ is not ndarray:
        out = np.asarray(out)
    if _state.enabled and (a._requires_grad or (bd is not b and b._requires_grad) or
                           stale_view_requires_grad(a) or
                           (bd is not b and stale_view_requires_grad(b))):
        if bd is b:
            if _state.in_formula and op in D.SCALAR_OVERLOAD:
                return record(D.SCALAR_OVERLOAD[op], (a,), (b,) + params, out)
            return record_fast(op, (a, b), params, out, 1)
        result = record_fast(op, (a, b), params, out, requires_grad_mask((a, b)))
        shape = out.shape
        if promoted or ad.shape != shape or (bd is not b and bd.shape != shape):
            set_input_metadata(result._grad_fn, (a, b), shape, out.dtype)
            if promoted:
                _reduce_all(result._grad_fn, (a, b))
        return result
    return _make(out)


def _reduce_all(node, inputs):
    """After promotion every gradient is cast back to its input's dtype."""
    reduce = node._reduce or [None] * len(inputs)
    for i, x in enumerate(inputs):
        if isinstance(x, Tensor) and x._requires_grad and reduce[i] is None:
            reduce[i] = (x._data.shape, x._data.dtype)
    node._reduce = reduce


def _scalar_to_tensor(s, like):
    """A Python number as a 0-d tensor (a 'wrapped number': it does not promote)."""
    if isinstance(like, Tensor):
        dt = _dtypes.scalar_result_dtype(_dtypes.from_numpy(like._data.dtype), s)
        if dt.np.kind == like._data.dtype.kind:
            dt = _dtypes.from_numpy(like._data.dtype)
        return _make(np.asarray(s, dtype=dt.np))
    from .._creation import tensor
    return tensor(s)


def _unary(op, x, float_op=True, params=()):
    """An elementwise op of one tensor (integers computed in the default float dtype when
    ``float_op``)."""
    if x.__class__ is not Tensor and not isinstance(x, Tensor):
        x = _tensor_arg(x)
    d = x._data
    if d.dtype == np.bool_ and op.name in _BOOL_UNSUPPORTED:
        exc = RuntimeError if op.name == "relu" else NotImplementedError
        raise exc(_BOOL_UNSUPPORTED[op.name])
    if float_op and d.dtype.kind in "biu":
        d = d.astype(_dtypes.default_float.np)
    out = op.kernel(d, *params)
    if out.__class__ is not ndarray:
        out = np.asarray(out)
    if _state.enabled and (x._requires_grad or stale_view_requires_grad(x)):
        return record_fast(op, (x,), params, out, 1)
    return _make(out)


_BOOL_UNSUPPORTED = {"relu": "Boolean inputs not supported for relu",
                     "abs": "\"abs_cpu\" not implemented for 'Bool'",
                     "floor": "\"floor_vml_cpu\" not implemented for 'Bool'",
                     "ceil": "\"ceil_vml_cpu\" not implemented for 'Bool'",
                     "round": "\"round_vml_cpu\" not implemented for 'Bool'"}


def _unary_fn(op, doc, float_op=True):
    """The public function of a unary elementwise op: ``_unary`` specialised for ``op`` in
    one frame (these are the most frequent calls)."""
    kernel = op.kernel

    def fn(input):
        if input.__class__ is Tensor or isinstance(input, Tensor):
            d = input._data
            if d.dtype.kind in "fc" or (not float_op and d.dtype.kind in "iu"):
                out = kernel(d)
                if out.__class__ is not ndarray:
                    out = np.asarray(out)
                if _state.enabled and (input._requires_grad or
                                       stale_view_requires_grad(input)):
                    return record_fast(op, (input,), (), out, 1)
                return _make(out)
        return _unary(op, input, float_op)
    fn.__name__ = fn.__qualname__ = op.name
    fn.__doc__ = doc
    return fn


def _check_alpha(input, other, alpha):
    kinds = {x._data.dtype.kind if isinstance(x, Tensor) else
             ("b" if isinstance(x, bool) else "i" if isinstance(x, int) else "f")
             for x in (input, other)}
    if isinstance(alpha, bool) and kinds != {"b"}:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, float) and kinds <= {"b", "i", "u"}:
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")


def _binary_fn(op, doc, alpha_param=False):
    """The public function of a binary elementwise op, with a one-frame fast path for
    same-shape, same-dtype tensors and for a float tensor with a Python number; everything
    else (broadcasting, promotion, alpha) goes through ``_binary``."""
    kernel = op.kernel if not alpha_param else op.kernel_no_alpha

    def fn(input, other, *, alpha=1, out=None):
        if alpha == 1 and alpha is not True and (input.__class__ is Tensor or
                                                  isinstance(input, Tensor)):
            ad = input._data
            cb = other.__class__
            if cb is float or cb is int:
                if ad.dtype.kind == "f":
                    res = kernel(ad, other)
                    if res.__class__ is not ndarray:
                        res = np.asarray(res)
                    if input._requires_grad and _state.enabled and not _state.in_formula:
                        return record_fast(op, (input, other), (1,) if alpha_param else (),
                                           res, 1)
                    if not _state.enabled or not (input._requires_grad or
                                                  stale_view_requires_grad(input)):
                        return _make(res)
            elif cb is Tensor or isinstance(other, Tensor):
                bd = other._data
                if ad.dtype is bd.dtype and ad.shape == bd.shape:
                    res = kernel(ad, bd)
                    if res.__class__ is not ndarray:
                        res = np.asarray(res)
                    if _state.enabled:
                        mask = requires_grad_mask((input, other))
                        if mask:
                            return record_fast(op, (input, other),
                                               (1,) if alpha_param else (), res, mask)
                    return _make(res)
        if alpha_param and (alpha != 1 or alpha is True):
            _check_alpha(input, other, alpha)
        return _binary(op, input, other, (alpha,) if alpha_param else ())
    fn.__name__ = fn.__qualname__ = op.name
    fn.__doc__ = doc
    return fn


# ---- arithmetic ---------------------------------------------------------------------------
add = _binary_fn(D.ADD, "input + alpha * other, broadcasting.", alpha_param=True)
_sub = _binary_fn(D.SUB, "input - alpha * other, broadcasting.", alpha_param=True)


def _is_bool(x):
    return isinstance(x, bool) or (isinstance(x, Tensor) and x._data.dtype == np.bool_)


def _check_bool_sub(input, other):
    if _is_bool(input) and _is_bool(other):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    if _is_bool(input) or _is_bool(other):
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not "
                           "supported. If you are trying to invert a mask, use the `~` or "
                           "`logical_not()` operator instead.")


def sub(input, other, *, alpha=1, out=None):
    """input - alpha * other, broadcasting."""
    if other.__class__ is bool or (input.__class__ is not float and _is_bool(input)) or \
            (other.__class__ is Tensor and other._data.dtype == np.bool_):
        _check_bool_sub(input, other)
    return _sub(input, other, alpha=alpha)


subtract = sub


def rsub(input, other, *, alpha=1):
    """other - alpha * input."""
    if _is_bool(input) or _is_bool(other):
        _check_bool_sub(other, input)
    if isinstance(other, Tensor):
        return _binary(D.RSUB_TENSOR, input, other, (alpha,))
    d = _scalar_dtype_data(input._data, other)
    out = _asarray(D.RSUB.kernel(d, other, alpha))
    if _state.enabled and input._requires_grad:
        return record(D.RSUB, (input,), (other, alpha), out)
    return _make(out)


mul = _binary_fn(D.MUL, "input * other, broadcasting.")


multiply = mul


def div(input, other, *, rounding_mode=None, out=None):
    if rounding_mode is not None:
        if rounding_mode not in ("floor", "trunc"):
            raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or "
                               f"'floor' but found '{rounding_mode}'")
        a = input if isinstance(input, Tensor) else _scalar_to_tensor(input, other)
        if isinstance(other, Tensor):
            return _binary(D.DIV_MODE, a, other, (rounding_mode,))
        d = _scalar_dtype_data(a._data, other)
        q = _asarray(D.DIV_MODE.kernel(d, other, rounding_mode)).astype(d.dtype, copy=False)
        return _finish(D.DIV_MODE_SCALAR, (a,), (other, rounding_mode), q)
    a = input if isinstance(input, Tensor) else _scalar_to_tensor(input, other)
    b = other
    if a._data.dtype.kind in "biu" and (
            (isinstance(b, Tensor) and b._data.dtype.kind in "biu") or
            isinstance(b, (int, bool))):
        a = _to_dtype(a, _dtypes.default_float)
    return _binary(D.DIV, a, b)


divide = true_divide = div


def floor_divide(input, other):
    """Floor of the quotient; its derivative is not implemented (as in PyTorch)."""
    a = input if isinstance(input, Tensor) else _scalar_to_tensor(input, other)
    if isinstance(other, Tensor):
        r = _binary(D.FLOOR_DIVIDE, a, other)
        node = r._grad_fn
        if node is not None:  # NotImplemented keeps edges only to inputs requiring grad
            node._next = tuple(e for e in node._next if e[0] is not None)
        return r
    d = _scalar_dtype_data(a._data, other)
    out = _asarray(np.floor_divide(d, other)).astype(d.dtype, copy=False)
    return _finish(D.FLOOR_DIVIDE_SCALAR, (a,), (other,), out)



def _mod(op, tensor_op, input, other):
    a = input if isinstance(input, Tensor) else _scalar_to_tensor(input, other)
    if isinstance(other, Tensor):
        return _binary(tensor_op, a, other)
    d = _scalar_dtype_data(a._data, other)
    return _finish(op, (a,), (other,), _asarray(op.kernel(d, other)))


def remainder(input, other):
    """Python's modulo (the sign of the divisor)."""
    return _mod(D.REMAINDER, D.REMAINDER_TENSOR, input, other)


def fmod(input, other):
    """C's fmod (the sign of the dividend)."""
    return _mod(D.FMOD, D.FMOD_TENSOR, input, other)


def trunc(input):
    return _make(_asarray(np.trunc(input._data)))


def rdiv(input, other):
    """other / input (``2 / x``): PyTorch records reciprocal then mul."""
    return mul(reciprocal(input), other)


def neg(input):
    """-input."""
    if input._data.dtype == np.bool_:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If "
                           "you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")
    return _unary(D.NEG, input, float_op=False)


negative = neg


def pow(input, exponent):
    if not isinstance(input, Tensor):
        # scalar ** tensor
        e = exponent
        d = e._data
        if isinstance(input, float) and d.dtype.kind in "biu":
            d = d.astype(_dtypes.default_float.np)
        out = _asarray(D.POW_SCALAR_BASE.kernel(d, input))
        if _state.enabled and e._requires_grad:
            return record(D.POW_SCALAR_BASE, (e,), (input,), out)
        return _make(out)
    if isinstance(exponent, Tensor):
        if input._data.dtype == np.bool_ and exponent._data.dtype == np.bool_:
            raise NotImplementedError("\"pow\" not implemented for 'Bool'")
        return _binary(D.POW_TENSOR, input, exponent)
    d = input._data
    if isinstance(exponent, float) and d.dtype.kind in "biu":
        d = d.astype(_dtypes.default_float.np)
    elif d.dtype == np.bool_:
        d = d.astype(np.int64)  # bool ** int promotes like bool + int
    elif isinstance(exponent, int) and d.dtype.kind in "iu" and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    out = _asarray(d ** exponent if exponent != 2 else d * d)
    if _state.enabled and input._requires_grad:
        return record(D.POW_SCALAR, (input,), (exponent,), out)
    return _make(out)


def square(input):
    return pow(input, 2)


exp = _unary_fn(D.EXP, "Elementwise exp.")


log = _unary_fn(D.LOG, "Elementwise log.")


sqrt = _unary_fn(D.SQRT, "Elementwise sqrt.")


rsqrt = _unary_fn(D.RSQRT, "Elementwise 1 / sqrt.")


abs = _unary_fn(D.ABS, "Elementwise abs.", float_op=False)


absolute = abs


sin = _unary_fn(D.SIN, "Elementwise sin.")


cos = _unary_fn(D.COS, "Elementwise cos.")


tanh = _unary_fn(D.TANH, "Elementwise tanh.")


sigmoid = _unary_fn(D.SIGMOID, "Elementwise sigmoid.")


relu = _unary_fn(D.RELU, "Elementwise relu.", float_op=False)


reciprocal = _unary_fn(D.RECIPROCAL, "Elementwise reciprocal.")


sign = _unary_fn(D.SIGN, "Elementwise sign (-1, 0 or 1).", float_op=False)
floor = _unary_fn(D.FLOOR, "Elementwise floor.", float_op=False)
ceil = _unary_fn(D.CEIL, "Elementwise ceil.", float_op=False)
_round = _unary_fn(D.ROUND, "Elementwise round (half to even).", float_op=False)


def round(input, *, decimals=0):
    """Round half to even, like PyTorch."""
    if decimals:
        scale = 10.0 ** decimals
        return div(_round(mul(input, scale)), scale)
    return _round(input)


def clamp(input, min=None, max=None):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        lo = _tensor_arg(min, input) if min is not None else None
        hi = _tensor_arg(max, input) if max is not None else None
        out = _asarray(D.CLAMP_TENSOR.kernel(input._data, None if lo is None else lo._data,
                                             None if hi is None else hi._data))
        r = _finish(D.CLAMP_TENSOR, (input, lo, hi), (), out)
        if r._grad_fn is not None:
            set_input_metadata(r._grad_fn, (input, lo, hi), out.shape, out.dtype)
        return r
    d = input._data
    if d.dtype.kind in "biu" and (isinstance(min, float) or isinstance(max, float)):
        d = d.astype(_dtypes.default_float.np)
    out = D.CLAMP.kernel(d, min, max)
    return _finish(D.CLAMP, (input,), (min, max), _asarray(out).astype(d.dtype, copy=False))


clip = clamp


def clamp_min(input, min):
    return clamp(input, min=min)


def clamp_max(input, max):
    return clamp(input, max=max)


def _finish(op, inputs, params, out):
    if _state.enabled and requires_grad_mask(inputs):
        return record(op, inputs, params, out)
    return _make(out)


def _check_tensor_arg(name, arg, value, position):
    if not isinstance(value, Tensor):
        raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, "
                        f"not {type(value).__name__}")


def maximum(input, other):
    _check_tensor_arg("maximum", "other", other, 1)
    return _binary(D.MAXIMUM, input, other)


def minimum(input, other):
    _check_tensor_arg("minimum", "other", other, 1)
    return _binary(D.MINIMUM, input, other)


def where(condition, input=None, other=None):
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    cond = _tensor_arg(condition)._data
    if cond.dtype != np.bool_:
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor "
                           f"with dtype {_dtypes.scalar_name(_dtypes.from_numpy(cond.dtype))}")
    if not isinstance(input, Tensor):
        if not isinstance(other, Tensor):
            input = _tensor_arg(input)
        else:
            input = _scalar_to_tensor(input, other)
    return _binary(D.WHERE, input, other, (cond,))


# ---- comparisons and logic (no gradient) --------------------------------------------------
def _compare(ufunc, tensor_only=False):
    def compare(input, other):
        if tensor_only and not isinstance(other, Tensor):
            raise TypeError(f"{ufunc.__name__}(): argument 'other' (position 1) must be "
                            f"Tensor, not {type(other).__name__}")
        a = _tensor_arg(input)
        b = other._data if isinstance(other, Tensor) else other
        try:
            return _make(_asarray(ufunc(a._data, b)))
        except ValueError:
            raise broadcast_error(a._data.shape, np.shape(b)) from None
    compare.__name__ = ufunc.__name__
    return compare


eq = _compare(np.equal)
ne = _compare(np.not_equal)
lt = _compare(np.less)
le = _compare(np.less_equal)
gt = _compare(np.greater)
ge = _compare(np.greater_equal)
less, less_equal, greater, greater_equal, not_equal = lt, le, gt, ge, ne
logical_and = _compare(np.logical_and, tensor_only=True)
logical_or = _compare(np.logical_or, tensor_only=True)
logical_xor = _compare(np.logical_xor, tensor_only=True)
bitwise_and = _compare(np.bitwise_and)
bitwise_or = _compare(np.bitwise_or)
bitwise_xor = _compare(np.bitwise_xor)


def logical_not(input):
    return _make(_asarray(np.logical_not(input._data)))


def bitwise_not(input):
    d = input._data
    return _make(_asarray(np.logical_not(d) if d.dtype == np.bool_ else np.invert(d)))


def equal(input, other):
    return input._data.shape == other._data.shape and bool(np.all(input._data == other._data))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(np.allclose(input._data, other._data, rtol, atol, equal_nan))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _make(np.isclose(input._data, other._data, rtol, atol, equal_nan))


def isnan(input):
    return _make(_asarray(np.isnan(input._data)))


def isinf(input):
    return _make(_asarray(np.isinf(input._data)))


def isfinite(input):
    return _make(_asarray(np.isfinite(input._data)))


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
        return _finish(D.SUM_DIM, (input,), (None, keepdim), d.copy())
    if dims is None and not keepdim:
        out = _asarray(np.sum(d))
        return _finish(D.SUM, (input,), (), out.astype(d.dtype, copy=False))
    out = _asarray(np.sum(d, axis=dims, keepdims=keepdim))
    return _finish(D.SUM_DIM, (input,), (dims, keepdim), out.astype(d.dtype, copy=False))


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
        return _finish(D.MEAN_DIM, (input,), (None, keepdim), d.copy())
    if dims is None and not keepdim:
        out = _asarray(np.mean(d)).astype(d.dtype, copy=False)
        return _finish(D.MEAN, (input,), (), out)
    out = _asarray(np.mean(d, axis=dims, keepdims=keepdim)).astype(d.dtype, copy=False)
    return _finish(D.MEAN_DIM, (input,), (dims, keepdim), out)


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
        return _finish(D.MAX if is_max else D.MIN, (input,), (), out)
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
    op = D.MAX_DIM if is_max else D.MIN_DIM
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
    return _amax_amin(D.AMAX, np.max, "amax", input, dim, keepdim)


def amin(input, dim=(), keepdim=False):
    """Minimum over dims; ties share the gradient evenly."""
    return _amax_amin(D.AMIN, np.min, "amin", input, dim, keepdim)


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
        return _finish(D.PROD, (input,), (None, False), _asarray(np.prod(d)))
    dim = _wrap_dim(dim, d.ndim)
    if d.ndim == 0:
        return _finish(D.PROD_DIM, (input,), (None, keepdim), d.copy())
    out = _asarray(np.prod(d, axis=dim, keepdims=keepdim))
    return _finish(D.PROD_DIM, (input,), (dim, keepdim), out)


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
    return _finish(D.NORM, (input,), (ord, dims, keepdim), out)


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
    return _finish(D.SOFTMAX, (input,), (dim,), _asarray(raw.softmax(d, dim)))


def log_softmax(input, dim, dtype=None, _stacklevel=3):
    d = input._data if dtype is None else input._data.astype(dtype.np)
    dim = _wrap_dim(dim, d.ndim)
    _check_softmax_dtype("log_softmax", d, dim)
    return _finish(D.LOG_SOFTMAX, (input,), (dim,), _asarray(raw.log_softmax(d, dim)))


def logsumexp(input, dim, keepdim=False):
    """log(sum(exp(x))) over dims, computed stably (one node, LogsumexpBackward0)."""
    d = _float_data(input)
    dims = _dims(dim, d.ndim)
    if d.ndim == 0:
        return _finish(D.LOGSUMEXP, (input,), ((), keepdim), d.copy())
    m = np.max(d, axis=dims, keepdims=True, initial=-np.inf)
    m = np.where(np.isinf(m), 0, m)
    out = np.log(np.sum(np.exp(d - m), axis=dims, keepdims=True)) + m
    if not keepdim:
        out = np.squeeze(out, dims)
    return _finish(D.LOGSUMEXP, (input,), (dims, keepdim), _asarray(out).astype(d.dtype))


def cumsum(input, dim, *, dtype=None):
    d = _sum_dtype(input._data, dtype)
    dim = _wrap_dim(dim, d.ndim)
    out = np.cumsum(d, axis=dim) if d.ndim else d.copy()
    return _finish(D.CUMSUM, (input,), (dim,), out)


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
    return _finish(D.MM, (input, mat2), (), a @ b)


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
        raise RuntimeError(f"expected scalar type {_dtypes.scalar_name(input.dtype)} but found "
                           f"{_dtypes.scalar_name(mat2.dtype)}")
    return _finish(D.BMM, (input, mat2), (), _asarray(np.matmul(a, b)))


def dot(input, tensor):
    a, b = input._data, tensor._data
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src "
                           f"[{b.shape[0]}] to have the same number of elements, but got "
                           f"{a.shape[0]} and {b.shape[0]} elements respectively")
    if input._data.dtype != tensor._data.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{_dtypes.scalar_name(input.dtype)} and "
                           f"{_dtypes.scalar_name(tensor.dtype)}")
    return _finish(D.DOT, (input, tensor), (), _asarray(np.dot(a, b)))


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
    return _finish(D.MV, (input, vec), (), a @ b)


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
    a2 = input if na > 1 else unsqueeze(input, 0)
    b2 = other if nb > 1 else unsqueeze(other, 1)
    ea = reshape(expand(a2, batch + (n, m1)), (prod_, n, m1))
    eb = reshape(expand(b2, batch + (m2, p)), (prod_, m2, p))
    shape = batch + ((n,) if na > 1 else ()) + ((p,) if nb > 1 else ())
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


_py_all = builtins.all


def _unsafe_view(input, shape):
    out = input._data.reshape(shape)
    return _finish(D.UNSAFE_VIEW, (input,), (tuple(shape),), out)


def _squeeze_inplace_dim(t, dim):
    """matmul's squeeze_ of its own mm result (in place: the version shows it)."""
    out = np.squeeze(t._data, dim)
    r = _finish(D.SQUEEZE_INPLACE_DIM, (t,), (dim,), out)
    r._vc[0] = 1
    return r


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
    if not _broadcastable(input._data.shape, out_shape) or \
            np.broadcast_shapes(input._data.shape, out_shape) != out_shape:
        expand(input, out_shape)  # raises PyTorch's expand error
    out = D.ADDMM.kernel(input._data, a, b, beta, alpha)
    result = _finish(D.ADDMM, (input, mat1, mat2), (beta, alpha), out)
    if result._grad_fn is not None and input._data.shape != out.shape:
        set_input_metadata(result._grad_fn, (input, mat1, mat2), out.shape, out.dtype)
    return result


def _broadcastable(a, b):
    try:
        np.broadcast_shapes(a, b)
        return True
    except ValueError:
        return False


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
    shape = input._data.shape[:-1] + (weight._data.shape[0],)
    flat = view(input, (-1, input._data.shape[-1])) if nd != 1 else view(input, (1, -1))
    return view(addmm(bias, flat, t(weight)), shape)


# ---- copies and dtype conversion -----------------------------------------------------------
def clone(input, *, memory_format=None):
    r = _finish(D.CLONE, (input,), (), input._data.copy())
    if input._meta is not None and input._meta.get("inference") and not _state.inference:
        r._vc[0] = 1  # PyTorch copies an inference tensor out with copy_ (a version bump)
    return r


def _to_dtype(input, dtype, copy=False):
    npd = dtype.np
    if input._data.dtype == npd and not copy:
        return input
    out = input._data.astype(npd)
    if _state.enabled and input._requires_grad:
        if dtype.np.kind not in "fc":
            return _make(out)
        r = record(D.TO_COPY, (input,), (dtype,), out)
        set_input_metadata(r._grad_fn, (input,), out.shape, out.dtype)
        return r
    return _make(out)


def to(input, *args, dtype=None, device=None, copy=False, non_blocking=False,
       memory_format=None):
    for a in args:
        if isinstance(a, _dtypes.dtype):
            dtype = a
        elif isinstance(a, Tensor):
            dtype = a.dtype
        elif isinstance(a, str) or hasattr(a, "type"):
            device = a
    if device is not None:
        dev = str(device)
        if not dev.startswith("cpu"):
            raise RuntimeError(f"autotensor has no device {dev!r} (only 'cpu')")
    if dtype is None:
        return clone(input) if copy else input
    return _to_dtype(input, dtype, copy)


def type_as(input, other):
    return _to_dtype(input, other.dtype)


def contiguous(input, memory_format=None):
    if input.is_contiguous():
        return input
    return _finish(D.CLONE, (input,), (), np.ascontiguousarray(input._data))


# ---- views (Note [Views] in autograd/inplace.py) ------------------------------------------
def _view_result(op, input, params, out, multi=False):
    """Record a view op: the result shares input's memory and version counter."""
    if out.__class__ is not ndarray:
        out = np.asarray(out)
    result = _finish(op, (input,), params, out)
    inplace.make_views((result,), input, op.node_name)
    return result


def _infer_shape(shape, numel):
    shape = list(shape)
    neg = [i for i, s in enumerate(shape) if s == -1]
    if len(neg) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for i, s in enumerate(shape):
        if i not in neg:
            if s < 0:
                raise RuntimeError(f"invalid shape dimension {s}")
            known *= s
    if neg:
        if known == 0 or numel % known:
            raise RuntimeError(_errors.SHAPE_INVALID.format(
                ", ".join(str(s) for s in shape), numel))
        shape[neg[0]] = numel // known
    elif known != numel:
        raise RuntimeError(_errors.SHAPE_INVALID.format(", ".join(str(s) for s in shape), numel))
    return tuple(shape)


def _shape_args(shape):
    if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)) and \
            not isinstance(shape[0], Tensor):
        shape = shape[0]
    return tuple(int(s) for s in shape)


def view(input, *shape):
    if len(shape) == 1 and isinstance(shape[0], _dtypes.dtype):
        return _make(input._data.view(shape[0].np))
    shape = _infer_shape(_shape_args(shape), input._data.size)
    try:
        out = np.reshape(input._data, shape, copy=False)
    except ValueError:
        raise RuntimeError(_errors.VIEW_STRIDE) from None
    return _view_result(D.VIEW, input, (shape,), out)


def view_as(input, other):
    return view(input, other._data.shape)


def reshape(input, *shape):
    """A view when the strides allow (ViewBackward0, or ReshapeAliasBackward0 for a
    non-contiguous input, as PyTorch records), else a copy (CloneBackward0 +
    UnsafeViewBackward0)."""
    shape = _infer_shape(_shape_args(shape), input._data.size)
    try:
        out = np.reshape(input._data, shape, copy=False)
    except ValueError:
        return _unsafe_view(clone(input), shape)
    op = D.VIEW if _is_contiguous(input._data) else D.RESHAPE_ALIAS
    return _view_result(op, input, (shape,), out)


def reshape_as(input, other):
    return reshape(input, other._data.shape)


def flatten(input, start_dim=0, end_dim=-1):
    d = input._data
    if d.ndim == 0:
        return reshape(input, (1,))
    s = _wrap_dim(start_dim, d.ndim)
    e = _wrap_dim(end_dim, d.ndim)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    shape = d.shape[:s] + (int(np.prod(d.shape[s:e + 1])),) + d.shape[e + 1:]
    return reshape(input, shape)


def unflatten(input, dim, sizes):
    d = input._data
    if d.ndim == 0:
        raise RuntimeError("unflatten got an unexpected error:\nDimension specified as 0 but "
                           "tensor has no dimensions")
    dim = _wrap_dim(dim, d.ndim)
    sizes = list(sizes)
    if -1 in sizes:
        known = int(np.prod([s for s in sizes if s != -1]))
        sizes[sizes.index(-1)] = d.shape[dim] // known if known else 0
    return view(input, d.shape[:dim] + tuple(sizes) + d.shape[dim + 1:])


def t(input):
    d = input._data
    if d.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {d.ndim}D")
    return _view_result(D.T, input, (), d.T)


def transpose(input, dim0, dim1):
    d = input._data
    dim0, dim1 = _wrap_dim(dim0, d.ndim), _wrap_dim(dim1, d.ndim)
    out = np.swapaxes(d, dim0, dim1) if d.ndim else d.view()
    return _view_result(D.TRANSPOSE, input, (dim0, dim1), out)


swapaxes = swapdims = transpose


def adjoint(input):
    return transpose(input, -2, -1)


def permute(input, *dims):
    d = input._data
    dims = _shape_args(dims)
    if len(dims) != d.ndim:
        raise RuntimeError(f"permute(): number of dimensions in the tensor input does not match "
                           f"the length of the desired ordering of dimensions i.e. input.dim() "
                           f"= {d.ndim} is not equal to len(dims) = {len(dims)}")
    dims = tuple(_wrap_dim(x, d.ndim) for x in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return _view_result(D.PERMUTE, input, (dims,), np.transpose(d, dims))


def movedim(input, source, destination):
    d = input._data
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    src = [_wrap_dim(s, d.ndim) for s in src]
    dst = [_wrap_dim(x, d.ndim) for x in dst]
    if d.ndim == 0:
        return permute(input, ())
    perm = [n for n in range(d.ndim) if n not in src]
    for s, t_ in sorted(zip(src, dst), key=lambda p: p[1]):
        perm.insert(t_, s)
    return permute(input, tuple(perm))


moveaxis = movedim


def _T(input):
    d = input._data
    return permute(input, tuple(range(d.ndim - 1, -1, -1)))


def _mT(input):
    nd = input._data.ndim
    if nd == 0:
        return input
    if nd == 1:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. "
                           "Got 1-D tensor.")
    return transpose(input, -2, -1)


def expand(input, *sizes):
    sizes = _shape_args(sizes)
    d = input._data
    if len(sizes) < d.ndim:
        raise RuntimeError(f"expand(torch.{_dtypes.legacy_type_name(input.dtype)[6:]}"
                           f"{{[{_errors.shape_str(d.shape)}]}}, size=[{_errors.shape_str(sizes)}]"
                           f"): the number of sizes provided ({len(sizes)}) must be greater or "
                           f"equal to the number of dimensions in the tensor ({d.ndim})")
    lead = len(sizes) - d.ndim
    shape = list(sizes)
    for i, s in enumerate(d.shape):
        want = sizes[lead + i]
        if want == -1:
            shape[lead + i] = s
        elif s != 1 and s != want:
            raise RuntimeError(f"The expanded size of the tensor ({want}) must match the "
                               f"existing size ({s}) at non-singleton dimension {lead + i}.  "
                               f"Target sizes: [{_errors.shape_str(sizes)}].  Tensor sizes: "
                               f"[{_errors.shape_str(d.shape)}]")
    shape = tuple(shape)
    # as_strided rather than broadcast_to: the view stays writable, like PyTorch's
    strides = (0,) * lead + tuple(0 if s == 1 and want != 1 else st for s, want, st in
                                  zip(d.shape, shape[lead:], d.strides))
    out = np.lib.stride_tricks.as_strided(d, shape, strides)
    return _view_result(D.EXPAND, input, (shape,), out)


def expand_as(input, other):
    return expand(input, other._data.shape)


def broadcast_to(input, size):
    return expand(input, size)


def squeeze(input, dim=None):
    d = input._data
    if dim is None:
        return _view_result(D.SQUEEZE, input, (), np.squeeze(d))
    if isinstance(dim, (tuple, list)):
        dims = tuple(x for x in (_wrap_dim(x, d.ndim) for x in dim) if d.ndim and d.shape[x] == 1)
        return _view_result(D.SQUEEZE_DIMS, input, (dims,), np.squeeze(d, dims))
    dim = _wrap_dim(dim, d.ndim)
    out = np.squeeze(d, dim) if d.ndim and d.shape[dim] == 1 else d.view()
    return _view_result(D.SQUEEZE_DIM, input, (dim,), out)


def unsqueeze(input, dim):
    d = input._data
    dim = _wrap_dim(dim, d.ndim + 1)
    # PyTorch's stride for the new dim: size * stride of the dim it precedes (1 at the end)
    new = d.shape[dim] * d.strides[dim] if dim < d.ndim else d.itemsize
    out = np.lib.stride_tricks.as_strided(d, d.shape[:dim] + (1,) + d.shape[dim:],
                                          d.strides[:dim] + (new,) + d.strides[dim:])
    return _view_result(D.UNSQUEEZE, input, (dim,), out)


def narrow(input, dim, start, length):
    d = input._data
    if d.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, d.ndim)
    if isinstance(start, Tensor):
        start = int(start)
    size = d.shape[dim]
    if start < 0:
        start += size
    if start < 0 or start > size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")
    return _slice(input, dim, start, start + length, 1)


def _slice(input, dim, start, end, step):
    d = input._data
    key = (slice(None),) * dim + (slice(start, end, step),)
    out = d[key]
    if out.size == 0:  # NumPy normalises empty views' strides; keep PyTorch's
        strides = d.strides[:dim] + (d.strides[dim] * step,) + d.strides[dim + 1:]
        out = np.lib.stride_tricks.as_strided(out, out.shape, strides)
    r = _view_result(D.SLICE, input, (dim, start, end, step), out)
    if out.size == 0 and r._view is not None:
        r._view.offset = input.storage_offset() + start * input.stride(dim)
    return r


def select(input, dim, index):
    d = input._data
    if d.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, d.ndim)
    index = int(index)
    size = d.shape[dim]
    if index < -size or index >= size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"[{_errors.shape_str(d.shape)}] at dimension {dim}")
    if index < 0:
        index += size
    return _view_result(D.SELECT, input, (dim, index), d[(slice(None),) * dim + (index, Ellipsis)])


def _multi_view(op, input, params, arrays):
    arrays = tuple(a if a.__class__ is ndarray else np.asarray(a) for a in arrays)
    if _state.enabled and input._requires_grad:
        results = record(op, (input,), params, arrays)
    else:
        results = tuple(_make(a) for a in arrays)
    inplace.make_views(results, input, op.node_name, multi=True)
    return results


def _chunk_check(input):
    if input._data.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")


def split(tensor, split_size_or_sections, dim=0):
    d = tensor._data
    if d.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    dim = _wrap_dim(dim, d.ndim)
    size = d.shape[dim]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [int(s) for s in split_size_or_sections]
        if _py_sum(sizes) != size:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} "
                               f"(input tensor's size at dimension {dim}), but got "
                               f"split_sizes={sizes}")
        bounds = np.cumsum([0] + sizes)
        arrays = [d[(slice(None),) * dim + (slice(int(a), int(b)),)]
                  for a, b in zip(bounds[:-1], bounds[1:])]
        return _multi_view(D.SPLIT_WITH_SIZES, tensor, (tuple(sizes), dim), arrays)
    step = int(split_size_or_sections)
    if step <= 0 and size:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension "
                           f"size of {size}")
    starts = range(0, size, step) if size else [0]
    arrays = [d[(slice(None),) * dim + (slice(s, s + step),)] for s in starts]
    return _multi_view(D.SPLIT, tensor, (step, dim), arrays)


def chunk(input, chunks, dim=0):
    _chunk_check(input)
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    size = d.shape[dim]
    if size == 0:
        return split(input, [0], dim)  # PyTorch: split_with_sizes for an empty dim
    step = -(-size // chunks)
    return split(input, step, dim)


def unbind(input, dim=0):
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    if d.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    arrays = [d[(slice(None),) * dim + (i, Ellipsis)] for i in range(d.shape[dim])]
    return _multi_view(D.UNBIND, input, (dim,), arrays)


def diagonal(input, offset=0, dim1=0, dim2=1):
    d = input._data
    given = (dim1, dim2)
    dim1, dim2 = _wrap_dim(dim1, d.ndim), _wrap_dim(dim2, d.ndim)
    if dim1 == dim2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {given[0]}, {given[1]}")
    out = raw._diagonal_view(d, offset, dim1, dim2)
    return _view_result(D.DIAGONAL, input, (offset, dim1, dim2), out)


def unfold(input, dimension, size, step):
    d = input._data
    dim = _wrap_dim(dimension, d.ndim)
    n = (d.shape[dim] - size) // step + 1
    shape = d.shape[:dim] + (n,) + d.shape[dim + 1:] + (size,)
    strides = d.strides[:dim] + (d.strides[dim] * step,) + d.strides[dim + 1:] + \
        (d.strides[dim],)
    out = np.lib.stride_tricks.as_strided(d, shape, strides)
    item = d.itemsize
    layout = (d.shape, tuple(s // item for s in d.strides))
    params = (dim, size, step, shape, tuple(s // item for s in strides), layout)
    return _view_result(D.UNFOLD, input, params, out)


def as_strided(input, size, stride, storage_offset=None):
    base = input._view.base if input._view is not None else input
    root = base._data
    item = root.itemsize
    offset = input.storage_offset() if storage_offset is None else storage_offset
    out = raw.as_strided(root, tuple(size), tuple(stride), offset)
    layout = (input._data.shape, input.stride())
    rel = offset - input.storage_offset()
    r = _finish(D.AS_STRIDED, (input,), (tuple(size), tuple(stride), rel, layout), out)
    inplace.make_views((r,), input, "AsStridedBackward0")
    del item
    return r


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
            if lone_slice or not (s == 0 and e == size and st == 1):
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
    return _finish(D.INDEX, (result,), (idx,), out)


def _dims_consumed(k):
    """How many dims of the indexed tensor an index item uses up."""
    if k is None or k is Ellipsis:
        return 0
    if isinstance(k, (Tensor, ndarray)) or k.__class__ in (bool, np.bool_):
        arr = _index_array(k)
        return arr.ndim if arr.dtype == np.bool_ else 1
    return 1


def _alias(input):
    """``x[...]``, ``x[:, :]``: a view with the same shape (AliasBackward0)."""
    return _view_result(D.ALIAS, input, (), input._data.view())


def setitem(input, key, value):
    """``x[key] = value``: an in-place copy into the indexed region (a view for basic keys,
    index_put for advanced ones)."""
    if key.__class__ is not tuple:
        key = (key,)
    advanced = _py_any(_is_advanced(k) for k in key)
    if not advanced:
        region = getitem(input, key, _setting=True)
        if isinstance(value, Tensor):
            value = _strip_leading_ones(value, region._data.ndim)
            if value._data.shape != region._data.shape:
                value = expand(value, region._data.shape)  # PyTorch's errors, if any
        copy_(region, value)
        return
    index_put_(input, key, value)


_py_any = builtins.any


def _strip_leading_ones(value, ndim):
    """x[i] = v accepts v with extra leading size-1 dims, as PyTorch does."""
    d = value._data
    lead = 0
    while d.ndim - lead > ndim and d.shape[lead] == 1:
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
    from .._creation import tensor
    return tensor(v, dtype=like.dtype)


def _inplace_index_put(input, key, v, new, accumulate):
    inplace.record_inplace(D.INDEX_PUT, input, (input, v), (key, accumulate), new)
    return input


def index_put(input, indices, values, accumulate=False):
    return index_put_(clone(input), indices, values, accumulate)


def _index_data(index):
    """An index or mask argument's array (formulas in graph mode pass saved arrays)."""
    return index._data if isinstance(index, Tensor) else np.asarray(index)


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
    return _finish(D.GATHER, (input,), (dim, idx), out)


def scatter_add(input, dim, index, src):
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    idx = _index_data(index)
    out = raw.scatter_add(d, dim, idx, src._data)
    r = _finish(D.SCATTER_ADD, (input, src), (dim, idx), out)
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
        r = _finish(D.SCATTER, (input, s), (dim, idx), out)
        if r._grad_fn is not None and s._requires_grad and s._data.shape != idx.shape:
            r._grad_fn._reduce = [None, (s._data.shape, s._data.dtype)]
        return r
    return _finish(D.SCATTER_VALUE, (input,), (dim, idx), out)


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
        return _finish(D.INDEX_SELECT, (input,), (0, idx.reshape(-1)), d.copy())
    if idx.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if idx.size and (idx.max() >= d.shape[dim] or idx.min() < 0):
        raise IndexError("index out of range in self")
    out = np.take(d, idx.reshape(-1), axis=dim)
    return _finish(D.INDEX_SELECT, (input,), (dim, idx.reshape(-1)), out)


def index_add(input, dim, index, source, *, alpha=1):
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    idx = _index_data(index)
    out = raw.index_add(d, dim, idx, source._data, alpha)
    return _finish(D.INDEX_ADD, (input, source), (dim, idx, alpha), out)


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
            r = _finish(D.MASKED_FILL_TENSOR, (input, value), (m,), out)
            set_input_metadata(r._grad_fn, (input, value), out.shape, out.dtype)
            return r
        value = value.item()
    d = input._data
    try:
        out = np.where(m, value, d).astype(d.dtype, copy=False)
    except ValueError:
        raise broadcast_error(m.shape, d.shape) from None
    r = _finish(D.MASKED_FILL, (input,), (m, value), _asarray(out))
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


def cat(tensors, dim=0, *, out=None):
    tensors = list(tensors)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, x in enumerate(tensors):
        if not isinstance(x, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(x).__name__}")
    for i, x in enumerate(tensors):
        if x._data.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                               f"concatenated")
    # legacy: 1-d empty tensors are skipped
    arrays = [x._data for x in tensors if not (x._data.shape == (0,) and
                                                _py_any(y._data.ndim > 1 for y in tensors))]
    ref = _py_max(arrays, key=lambda a: a.ndim)
    if ref.ndim == 0:
        raise RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
    dim = _wrap_dim(dim, ref.ndim)
    for i, a in enumerate(arrays):
        if a.ndim != ref.ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.ndim} "
                               f"and {a.ndim}")
        for j in range(ref.ndim):
            if j != dim and a.shape[j] != ref.shape[j]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {dim}. "
                                   f"Expected size {ref.shape[j]} but got size {a.shape[j]} "
                                   f"for tensor number {i} in the list.")
    dt = _dtypes.result_type(*tensors).np if len({a.dtype for a in arrays}) > 1 else \
        arrays[0].dtype
    out = np.concatenate(arrays, axis=dim, dtype=dt) if arrays else np.zeros((0,), dt)
    r = _finish(D.CAT, tuple(tensors), (dim,), out)
    if r._grad_fn is not None:
        _fix_variadic_dtypes(r, tensors, out)
    return r


def _fix_variadic_dtypes(r, tensors, out):
    if _py_any(x._data.dtype != out.dtype for x in tensors):
        r._grad_fn._reduce = [(x._data.shape, x._data.dtype) if x._requires_grad else None
                              for x in tensors]


concat = concatenate = cat


def stack(tensors, dim=0, *, out=None):
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    shape = tensors[0]._data.shape
    for i, x in enumerate(tensors):
        if x._data.shape != shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"[{_errors.shape_str(shape)}] at entry 0 and "
                               f"[{_errors.shape_str(x._data.shape)}] at entry {i}")
    dim = _wrap_dim(dim, len(shape) + 1)
    arrays = [x._data for x in tensors]
    dt = _dtypes.result_type(*tensors).np if len({a.dtype for a in arrays}) > 1 else \
        arrays[0].dtype
    out = np.stack(arrays, axis=dim).astype(dt, copy=False)
    r = _finish(D.STACK, tuple(tensors), (dim,), out)
    if r._grad_fn is not None:
        _fix_variadic_dtypes(r, tensors, out)
    return r


def hstack(tensors):
    return cat(tensors, 0 if tensors[0]._data.ndim == 1 else 1)


def vstack(tensors):
    return cat([x if x._data.ndim > 1 else unsqueeze(x, 0) for x in tensors], 0)


def flip(input, dims):
    d = input._data
    if isinstance(dims, int):
        dims = (dims,)
    dims = tuple(_wrap_dim(x, d.ndim) for x in dims)
    out = np.flip(d, dims).copy() if d.ndim else d.copy()
    return _finish(D.FLIP, (input,), (dims,), out)


def _tri(op, ufunc, name, input, diagonal):
    if input._data.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    return _finish(op, (input,), (diagonal,), ufunc(input._data, diagonal))


def tril(input, diagonal=0):
    return _tri(D.TRIL, np.tril, "tril", input, diagonal)


def triu(input, diagonal=0):
    return _tri(D.TRIU, np.triu, "triu", input, diagonal)


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
    v, i = _finish(D.SORT, (input,), (dim, descending), (values, idx)) \
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
    v, i = _finish(D.TOPK, (input,), (k, dim), (values, idx)) \
        if input._requires_grad and _state.enabled else (_make(values), _make(idx))
    return _TopkRT(v, i, None)


def zeros_like_(t):
    return _make(np.zeros_like(t._data))


# ---- in-place ops --------------------------------------------------------------------------
def _inplace_binary(op, self, other, params=()):
    """``self.op_(other)``: the out-of-place result, written back (autograd/inplace.py)."""
    sd = self._data
    if isinstance(other, Tensor):
        od = other._data
        try:
            value = op.kernel(sd, od.astype(sd.dtype, copy=False) if od.dtype != sd.dtype and
                              od.dtype.kind == sd.dtype.kind else od, *params)
        except ValueError:
            raise broadcast_error(sd.shape, od.shape) from None
        inputs = (self, other)
    else:
        if isinstance(other, (list, ndarray)):
            return _inplace_binary(op, self, _tensor_arg(other), params)
        try:
            value = op.kernel(_scalar_dtype_data(sd, other), other, *params)
        except ValueError:
            raise broadcast_error(sd.shape, np.shape(other)) from None
        inputs = (self, other)
    if value.__class__ is not ndarray:
        value = np.asarray(value)
    return inplace.record_inplace(op, self, inputs, params, value)


def add_(self, other, *, alpha=1):
    return _inplace_binary(D.ADD, self, other, (alpha,))


def sub_(self, other, *, alpha=1):
    if _is_bool(self) or _is_bool(other):
        inplace.check_inplace(self)  # PyTorch reports a leaf first
        _check_bool_sub(self, other)
    return _inplace_binary(D.SUB, self, other, (alpha,))


def mul_(self, other):
    return _inplace_binary(D.MUL, self, other)


def div_(self, other, *, rounding_mode=None):
    if rounding_mode is not None:
        return copy_(self, div(self, other, rounding_mode=rounding_mode))
    if self._data.dtype.kind in "biu":
        raise RuntimeError("result type Float can't be cast to the desired output type " +
                           _dtypes.scalar_name(self.dtype))
    return _inplace_binary(D.DIV, self, other)


def pow_(self, exponent):
    if isinstance(exponent, Tensor):
        return _inplace_binary(D.POW_TENSOR, self, exponent)
    value = _asarray(self._data ** exponent)
    return inplace.record_inplace(D.POW_SCALAR, self, (self,), (exponent,), value)


_FLOAT_OPS = frozenset(("exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "reciprocal",
                        "rsqrt"))


def _inplace_unary(op, self, params=()):
    d = self._data
    if d.dtype == np.bool_ and op.name in _BOOL_UNSUPPORTED:
        exc = RuntimeError if op.name == "relu" else NotImplementedError
        raise exc(_BOOL_UNSUPPORTED[op.name])
    if op.name in _FLOAT_OPS and d.dtype.kind in "biu":
        d = d.astype(_dtypes.default_float.np)  # so the cast check names PyTorch's type
    value = _asarray(op.kernel(d, *params))
    return inplace.record_inplace(op, self, (self,), params, value)


def neg_(self):
    if self._data.dtype == np.bool_:
        neg(self)  # raises PyTorch's error for bool negation
    return _inplace_unary(D.NEG, self)


def abs_(self):
    return _inplace_unary(D.ABS, self)


def exp_(self):
    return _inplace_unary(D.EXP, self)


def log_(self):
    return _inplace_unary(D.LOG, self)


def sqrt_(self):
    return _inplace_unary(D.SQRT, self)


def sin_(self):
    return _inplace_unary(D.SIN, self)


def cos_(self):
    return _inplace_unary(D.COS, self)


def tanh_(self):
    return _inplace_unary(D.TANH, self)


def sigmoid_(self):
    return _inplace_unary(D.SIGMOID, self)


def relu_(self):
    return _inplace_unary(D.RELU, self)


def reciprocal_(self):
    return _inplace_unary(D.RECIPROCAL, self)


def clamp_(self, min=None, max=None):
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return copy_(self, clamp(self, min, max))
    return _inplace_unary(D.CLAMP, self, (min, max))


clip_ = clamp_


def zero_(self):
    return inplace.record_inplace(D.ZERO, self, (self,), (), np.zeros_like(self._data))


def fill_(self, value):
    if isinstance(value, Tensor):
        if value._data.ndim != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {value._data.ndim} dimensions.")
        new = np.broadcast_to(value._data, self._data.shape).astype(self._data.dtype)
        return inplace.record_inplace(D.FILL_TENSOR, self, (self, value), (), new)
    _check_fits(value, self._data.dtype)
    return inplace.record_inplace(D.FILL, self, (self,), (value,),
                                  np.full_like(self._data, value))


_C_INT_NAMES = {"int8": "signed char", "int16": "short", "int32": "int", "int64": "int64_t",
                "uint8": "uint8_t", "bool": "bool"}


def _check_fits(value, npdtype):
    """PyTorch refuses to store a Python number that does not fit an integer dtype."""
    if npdtype.kind in "iu" and isinstance(value, (int, float)) and not isinstance(value, bool):
        info = np.iinfo(npdtype)
        if value != value or not (info.min <= value <= info.max):
            raise RuntimeError(f"value cannot be converted to type {_C_INT_NAMES[npdtype.name]} "
                               f"without overflow")


def copy_(self, src, non_blocking=False):
    if not isinstance(src, Tensor):
        _check_fits(src, self._data.dtype)
        src = _tensor_arg(src, self)
    sd = src._data
    dst = self._data
    if sd.shape != dst.shape:
        if not _broadcastable(sd.shape, dst.shape):
            raise broadcast_error(dst.shape, sd.shape)
        shape = np.broadcast_shapes(sd.shape, dst.shape)
        if shape != dst.shape:
            raise RuntimeError(f"output with shape [{_errors.shape_str(dst.shape)}] doesn't "
                               f"match the broadcast shape [{_errors.shape_str(shape)}]")
        sd = np.broadcast_to(sd, dst.shape)
    value = sd.astype(self._data.dtype, copy=False)
    # (record_inplace remembers src's shape and dtype when they differ: sum_to / cast back)
    return inplace.record_inplace(D.COPY, self, (self, src), (), value)


def masked_fill_(self, mask, value):
    if isinstance(value, Tensor) and value._requires_grad and _state.enabled:
        m = _index_data(mask)
        new = np.where(m, value._data, self._data).astype(self._data.dtype, copy=False)
        return inplace.record_inplace(D.MASKED_FILL_TENSOR, self, (self, value), (m,), new)
    if isinstance(value, Tensor):
        value = value.item()
    m = mask._data
    new = np.where(m, value, self._data).astype(self._data.dtype, copy=False)
    return inplace.record_inplace(D.MASKED_FILL, self, (self,), (m, value), new, where=m)


def index_add_(self, dim, index, source, *, alpha=1):
    dim = _wrap_dim(dim, self._data.ndim)
    new = raw.index_add(self._data, dim, index._data, source._data, alpha)
    return inplace.record_inplace(D.INDEX_ADD, self, (self, source), (dim, index._data, alpha),
                                  new)


def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
    dim = _wrap_dim(dim, self._data.ndim)
    s = src if src is not None else value
    if isinstance(s, Tensor):
        new = raw.scatter(self._data, dim, index._data, s._data)
        return inplace.record_inplace(D.SCATTER, self, (self, s), (dim, index._data), new)
    new = raw.scatter(self._data, dim, index._data, s)
    return inplace.record_inplace(D.SCATTER_VALUE, self, (self,), (dim, index._data), new)


def scatter_add_(self, dim, index, src):
    dim = _wrap_dim(dim, self._data.ndim)
    new = raw.scatter_add(self._data, dim, index._data, src._data)
    return inplace.record_inplace(D.SCATTER_ADD, self, (self, src), (dim, index._data), new)


# ---- the namespace formulas record with (Note [One formula, two interpretations]) --------
def _sum_to(x, shape):
    shape = tuple(shape)
    if tuple(x._data.shape) == shape:
        return x
    lead = x._data.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, s in enumerate(shape) if s == 1 and x._data.shape[i + lead] != 1)
    if axes:
        x = sum(x, axes, True)
    if lead:
        x = reshape(x, shape)
    return x


def _zeros(shape, like):
    return _make(np.zeros(shape, dtype=like._data.dtype))


def _cast(x, npdtype):
    return _to_dtype(x, _dtypes.from_numpy(npdtype))


def _cast_like(x, like):
    return _to_dtype(x, _dtypes.from_numpy(like._data.dtype))


def _getitem_key(x, key):
    return getitem(x, tuple(_make(k) if isinstance(k, ndarray) else k for k in key))


def _graph_op(op, out_fn):
    """A formula helper recorded as op (input 'grad'), its kernel out_fn on arrays."""
    def f(grad, *params):
        return _finish(op, (grad,), params, _asarray(out_fn(grad._data, *params)))
    return f


def _strided_scatter(grad, src, layout, size, stride, offset):
    out = raw.strided_scatter(grad._data, src._data, layout, size, stride, offset)
    return _finish(D.STRIDED_SCATTER, (grad, src), (layout, size, stride, offset), out)


def _diagonal_backward(grad, shape, offset, dim1, dim2):
    out = raw.diagonal_backward(grad._data, shape, offset, dim1, dim2)
    return _finish(D.DIAGONAL_BACKWARD, (grad,), (shape, offset, dim1, dim2), out)


TENSOR = SimpleNamespace(
    is_raw=False,
    sum_to=_sum_to, expand=expand, reshape=reshape, view=view, sum=sum, mean=mean,
    unsqueeze=unsqueeze, squeeze=squeeze, transpose=transpose, t=t, permute=permute, mm=mm,
    matmul=matmul, where=where, zeros=_zeros, zeros_like=zeros_like_,
    ones_like=lambda x: _make(np.ones_like(x._data)), cast=_cast, masked_fill=masked_fill,
    clone=clone, exp=exp, log=log, sin=sin, cos=cos, sqrt=sqrt, sign=sign, abs=abs, pow=pow,
    gather=gather, scatter_add=lambda x, dim, index, src: scatter_add(
        x, dim, _make(index) if isinstance(index, ndarray) else index, src),
    index_select=lambda x, dim, index: index_select(
        x, dim, _make(index) if isinstance(index, ndarray) else index),
    index_add=lambda x, dim, index, src, alpha=1: index_add(
        x, dim, _make(index) if isinstance(index, ndarray) else index, src, alpha=alpha),
    getitem=_getitem_key,
    getitem_backward=_graph_op(D.GETITEM_BACKWARD, raw.getitem_backward),
    index_backward=_graph_op(D.INDEX_BACKWARD, raw.index_backward),
    cat=cat, stack=stack, narrow=narrow, select=select, softmax=softmax,
    log_softmax=log_softmax, maximum=maximum, minimum=minimum, clamp=clamp, relu=relu,
    tanh=tanh, sigmoid=sigmoid, cast_like=_cast_like, diagonal=diagonal,
    diagonal_backward=_diagonal_backward,
    as_strided=lambda x, size, stride, offset=0: as_strided(x, size, stride, offset),
    as_strided_backward=_graph_op(D.AS_STRIDED_BACKWARD, raw.as_strided_backward),
    strided_view=_graph_op(D.STRIDED_VIEW, raw.strided_view),
    strided_scatter=_strided_scatter,
    flip=flip, cumsum=cumsum, tril=tril, triu=triu, floor=floor, trunc=trunc,
    sgn=lambda x: _unary(D.SGN, x, float_op=False),
    constant=lambda arr, like: _make(np.asarray(arr, dtype=like._data.dtype)),
    zero_at=lambda x, key: mul(x, _make(raw.zero_at(np.ones_like(x._data), key))),
    scatter=lambda x, dim, index, src: scatter(
        x, dim, _make(index) if isinstance(index, ndarray) else index, src)
    if isinstance(src, Tensor) else scatter(
        x, dim, _make(index) if isinstance(index, ndarray) else index, value=src),
)
_ = Size
