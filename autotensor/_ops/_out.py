"""``out=`` arguments of the public functions.

Note [out= arguments]
~~~~~~~~~~~~~~~~~~~~~
PyTorch's ``torch.f(..., out=t)`` computes f and writes the result into t: t is resized if
its shape differs (with a deprecation warning unless it was empty), the result must cast to
t's dtype ("same kind", as in-place ops), t's version counter is bumped, and t itself is
returned (a tuple of outs for multi-output functions). Autograd does not record through
out=: when grad mode is on and an input or out requires grad, it raises before writing.
Here the function runs as usual and the write follows; a result that requires grad means
some input did. The functions taking out= (the generic elementwise bodies in _common.py,
cat, stack...) test ``out is not None`` first: one comparison on their path.
"""

from .. import _dtypes, _errors
from .._backend import np
from ..autograd import grad_mode
from ..autograd.forward_ad import _tangent_or_none

_state = grad_mode.state

_RESIZED = ("An output with one or more elements was resized since it had shape [{}], which "
            "does not match the required output shape [{}]. This behavior is deprecated, and "
            "in a future PyTorch release outputs will not be resized unless they have zero "
            "elements. You can explicitly reuse an out tensor t by resizing it, inplace, to "
            "zero elements with t.resize_(0). (Triggered internally at "
            "/__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)")


def write_out(name, result, out, inputs=(), exact=False, overlap=False):
    """Write ``result`` into ``out`` (``inputs``: the call's arguments, for the forward-AD
    refusal of an out= kernel, which reads them as well as the outs; ``exact``: the
    kernel's own dtype rule, after autograd's refusal; ``overlap``: a TensorIterator
    kernel, which refuses an out that overlaps itself (expanded) before anything else)."""
    results = tuple(result) if isinstance(result, tuple) else (result,)
    outs = tuple(out) if isinstance(out, (tuple, list)) else (out,)
    if _state.enabled and (any(r.requires_grad for r in results) or
                           any(o.requires_grad for o in outs)):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support "
                           f"automatic differentiation, but one of the arguments requires "
                           f"grad.")
    if overlap:
        from ..autograd.inplace import check_no_internal_overlap
        for o in outs:
            check_no_internal_overlap(o)
    if exact:
        _check_exact_dtype(name, result, out)
    for r, o in zip(results, outs):
        value, dst = r._data, o._data
        if value.dtype != dst.dtype and not np.can_cast(value.dtype, dst.dtype, "same_kind"):
            raise RuntimeError(
                f"result type {_dtypes.scalar_name(_dtypes.from_numpy(value.dtype))} can't be "
                f"cast to the desired output type "
                f"{_dtypes.scalar_name(_dtypes.from_numpy(dst.dtype))}")
        if dst.shape != value.shape:
            if dst.size:
                from .. import _warn
                _warn.cpp(_RESIZED.format(_errors.shape_str(dst.shape),
                                          _errors.shape_str(value.shape)))
            o._data = np.empty(value.shape, dtype=dst.dtype)
        np.copyto(o._data, value, casting="unsafe")
        o._vc[0] += 1
    if not _state.inference and any(o._meta is not None and o._meta.get("inference")
                                    for o in outs):
        from ..autograd.inplace import INFERENCE_INPLACE
        raise RuntimeError(INFERENCE_INPLACE)  # (the version bump's, after the write)
    if _state.fw and any(hasattr(t, "_meta") and _tangent_or_none(t) is not None
                         for t in (*results, *outs, *_tensors(inputs))):
        # (PyTorch's out= kernels have no forward rule: refused after the write)
        raise NotImplementedError(f"Trying to use forward AD with {name}_out that does not "
                                  f"support it because it is an out= function")
    return out if isinstance(out, (tuple, list)) else outs[0]


def _tensors(args):
    for a in args:
        if isinstance(a, (tuple, list)):
            yield from a
        else:
            yield a


# The functions of the torch namespace that take out= in PyTorch 2.13 (an aten out
# overload its Python binding accepts) and whose body here has no out parameter: the
# namespace binds them through ``with_out`` (one frame more on torch.f(...) only; Tensor
# methods and operators call the bodies directly, and refuse out= as PyTorch's methods
# do: ``method_without_out``; the generic elementwise bodies give their methods an
# out-less twin, ``fn.method``, so x.exp() and x + y pay nothing).
OUT_NAMES = """
    addbmm addcdiv addcmul addmm addmv addr all amax amin aminmax any arctan2 argmax argmin
    argsort atan2 baddbmm bernoulli bitwise_and bitwise_left_shift bitwise_not bitwise_or
    bitwise_right_shift bitwise_xor bmm clamp clamp_max clamp_min clip column_stack copysign
    cummax cummin cumprod cumsum diag diff dot dstack eq eye fix float_power floor_divide
    fmax fmin fmod frac gather ge ger greater greater_equal gt hardshrink heaviside hstack
    hypot index_add index_copy index_select inner inverse isneginf isposinf kron le lerp
    less less_equal linspace log_softmax logaddexp logaddexp2 logcumsumexp logical_and
    logical_not logical_or logical_xor logit logspace logsumexp lt masked_select matmul
    matrix_power max maximum mean median min minimum mm msort multinomial mv mvlgamma
    nanmean nanmedian nanquantile nansum narrow_copy ne neg negative nextafter nonzero norm
    normal not_equal outer polygamma pow prod quantile randint randperm remainder renorm
    round row_stack scatter scatter_add scatter_reduce sgn signbit slice_scatter slogdet
    softmax square std sum take take_along_dim threshold tril triu trunc var vdot vstack
    where
    sort topk kthvalue
    sub div nan_to_num searchsorted bucketize histc tensordot chain_matmul cross cholesky
    cholesky_solve cholesky_inverse triangular_solve geqrf orgqr ormqr lu_solve lu_unpack qr
    svd nuclear_norm frobenius_norm
    zeros ones empty full arange rand randn
    """.split()
# (reductions whose out gives the dtype they compute in when none is asked for)
_OUT_DTYPE = frozenset("sum prod cumsum cumprod nansum mean".split())
# (the factories: an out tensor gives the dtype when none is asked for, as PyTorch's)
_FACTORIES = frozenset("zeros ones empty full arange rand randn".split())
# torch.linalg's functions that take out= (bound in linalg.py)
LINALG_OUT_NAMES = """
    cholesky cholesky_ex cross det eig eigh eigvals eigvalsh householder_product inv inv_ex
    ldl_factor ldl_factor_ex ldl_solve lu lu_factor lu_factor_ex lu_solve matmul matrix_norm
    matrix_power matrix_rank multi_dot norm pinv qr slogdet solve solve_ex solve_triangular
    svd svdvals tensorinv tensorsolve vecdot vector_norm
    """.split()


_S, _C = _dtypes.scalar_name, _dtypes.cpp_name
# Functions whose out must have the result's dtype exactly (no same-kind cast), with their
# messages (result's dtype, out's); the other linalg functions say _EXACT_DEFAULT.
_EXACT = {
    "linalg_matrix_norm": lambda r, o: f"linalg.matrix_norm expected out tensor dtype {_S(r)} "
                                       f"but got: {_S(o)}",
    "linalg_norm": lambda r, o: f"linalg.norm expected out tensor dtype {_S(r)} but got: {_S(o)}",
    "linalg_multi_dot": lambda r, o: f"multi_dot(): expected out tensor to have dtype {_C(r)} "
                                     f"but got {_C(o)}",
    "tensordot": lambda r, o: f"tensordot: Expected the output tensor to have dtype {_S(r)}, "
                              f"but got an output tensor with dtype {_S(o)}",
    "histc": lambda r, o: f"torch.histogram: input tensor and hist tensor should have the same "
                          f"dtype, but got input {_C(r)} and hist {_C(o)}",
    "nan_to_num": lambda r, o: f"nan_to_num: dtype of out: {_S(o)} should be same as input: "
                               f"{_S(r)}",
    "logcumsumexp": lambda r, o: f"expected scalar_type {_S(r)} but found {_S(o)}",
    # (a bool out, or uint8's legacy one)
    "all": lambda r, o: f"all only supports bool tensor for result, got: {_S(o)}",
    "any": lambda r, o: f"any only supports bool tensor for result, got: {_S(o)}",
    "amax": lambda r, o: f"Expected the dtype for input and out to match, but got {_S(r)} for "
                         f"input's dtype and {_S(o)} for out's dtype.",
    "amin": lambda r, o: f"Expected the dtype for input and out to match, but got {_S(r)} for "
                         f"input's dtype and {_S(o)} for out's dtype.",
}
_CASTS = frozenset(("linalg_pinv",))  # (linalg functions whose out takes a cast)


def _EXACT_DEFAULT(r, o):
    return f"Expected out tensor to have dtype {_C(r)}, but got {_C(o)} instead"


# Structured kernels outside TensorIterator: their out must have the result's dtype
# (resize_out's check, _EXACT_DEFAULT's words); max/min only as (values, indices).
_STRUCTURED = frozenset("addmm argmax argmin bmm diag gather log_softmax matmul mm norm "
                        "softmax sort topk tril triu".split())
_STRUCTURED_TUPLE = frozenset(("max", "min"))


def _check_exact_dtype(name, result, out):
    rule = _EXACT.get(name)
    if rule is None and not (name in _STRUCTURED or name in _STRUCTURED_TUPLE and
                             isinstance(result, tuple)) and (
            not name.startswith("linalg_") or name in _CASTS):
        return
    for r, o in zip(result if isinstance(result, tuple) else (result,),
                    out if isinstance(out, (tuple, list)) else (out,)):
        if r.dtype != o.dtype and not (name in ("all", "any") and o.dtype == _dtypes.uint8):
            raise RuntimeError((rule or _EXACT_DEFAULT)(r.dtype, o.dtype))


def with_out(f, name):
    """``f`` with PyTorch's out= (Note [out= arguments])."""
    def fn(*args, out=None, **kwargs):
        if out is None:
            return f(*args, **kwargs)
        if name == "where":  # (where.self_out takes tensors only: the parser's error)
            _where_out_args(args, kwargs)
        elif name in _CAST_FIRST and len(args) >= 2 and hasattr(out, "dtype"):
            _cast_first(args[0], args[1], out)
        dtype = kwargs.get("dtype")
        if dtype is None and name in _OUT_DTYPE and hasattr(out, "dtype") and (
                name != "mean" or out.dtype.is_floating_point):
            # (aten's infer_dtype_from_optional: the reduction runs in the out's dtype)
            kwargs["dtype"] = dtype = out.dtype
        if name in _FACTORIES and hasattr(out, "dtype"):
            if dtype is None:
                kwargs["dtype"] = out.dtype
            elif dtype != out.dtype:
                raise RuntimeError(f"dtype {_S(dtype)} does not match dtype of out parameter "
                                   f"({_S(out.dtype)})")
        elif dtype is not None and hasattr(out, "dtype") and out.dtype != dtype:
            # (a reduction's dtype= names the result's: the out tensor must have it)
            if name == "nansum":
                raise RuntimeError(f"nansum: provided dtype must match dtype of result. Got "
                                   f"{_dtypes.scalar_name(out.dtype)} and "
                                   f"{_dtypes.scalar_name(dtype)}.")
            raise RuntimeError(f"Expected out tensor to have dtype {_dtypes.cpp_name(dtype)}, "
                               f"but got {_dtypes.cpp_name(out.dtype)} instead")
        result = f(*args, **kwargs)
        if name == "empty" and tuple(out.shape) == tuple(result.shape):
            return out  # (its values are whatever out held)
        return write_out(name, result, out, (*args, *kwargs.values()), exact=True)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f.__doc__
    return fn


# Binary TensorIterator ops whose kernels raise (a dtype not implemented, an integer
# division by zero) after TensorIterator's check that the result type casts to out's
_CAST_FIRST = frozenset("bitwise_and bitwise_or bitwise_xor remainder fmod floor_divide"
                        .split())


def _cast_first(input, other, out):
    from .._tensor import Tensor
    tensors = [t for t in (input, other) if isinstance(t, Tensor)]
    if not tensors or any(t.requires_grad for t in tensors + [out]):
        return  # (autograd's out= error comes first: write_out's)
    try:
        np.broadcast_shapes(*(t._data.shape for t in tensors))
        rt = _dtypes.result_type(input, other).np
    except (ValueError, RuntimeError, OverflowError, TypeError):
        return  # (the op's own error follows)
    od = out._data.dtype
    if rt != od and not np.can_cast(rt, od, "same_kind"):
        raise RuntimeError(f"result type {_dtypes.scalar_name(_dtypes.from_numpy(rt))} can't "
                           f"be cast to the desired output type "
                           f"{_dtypes.scalar_name(_dtypes.from_numpy(od))}")


def _where_out_args(args, kwargs):
    from .._tensor import Tensor
    values = list(args[1:3]) + [kwargs.get(k) for k in ("input", "other")[len(args) - 1:]]
    for arg, pos, v in zip(("input", "other"), (2, 3), values):
        if v is not None and not isinstance(v, Tensor):
            raise TypeError(f"where(): argument '{arg}' (position {pos}) must be Tensor, not "
                            f"{type(v).__name__}")


def method_without_out(f, name):
    """A Tensor method from a function that takes out=: PyTorch's methods take none."""
    def method(self, *args, **kwargs):
        if "out" in kwargs:
            raise TypeError(f"{name}() got an unexpected keyword argument 'out'")
        return f(self, *args, **kwargs)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f.__doc__
    return method


def add_out(namespace, names=None):
    """Bind out= into a namespace (torch's, or ``names`` of torch.linalg's) for every
    function lacking it."""
    import inspect
    for name in OUT_NAMES if names is None else names:
        f = namespace.get(name)
        if f is None:
            continue
        try:
            params = inspect.signature(f).parameters
        except (TypeError, ValueError):
            continue
        if "out" not in params:
            namespace[name] = with_out(f, name if names is None else "linalg_" + name)
