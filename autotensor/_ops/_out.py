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
import warnings

from .. import _dtypes, _errors
from .._backend import np
from ..autograd import grad_mode

_state = grad_mode.state

_RESIZED = ("An output with one or more elements was resized since it had shape [{}], which "
            "does not match the required output shape [{}]. This behavior is deprecated, and "
            "in a future PyTorch release outputs will not be resized unless they have zero "
            "elements. You can explicitly reuse an out tensor t by resizing it, inplace, to "
            "zero elements with t.resize_(0). (Triggered internally at "
            "/__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)")


def write_out(name, result, out):
    results = tuple(result) if isinstance(result, tuple) else (result,)
    outs = tuple(out) if isinstance(out, (tuple, list)) else (out,)
    if _state.enabled and (any(r.requires_grad for r in results) or
                           any(o.requires_grad for o in outs)):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support "
                           f"automatic differentiation, but one of the arguments requires "
                           f"grad.")
    for r, o in zip(results, outs):
        value, dst = r._data, o._data
        if value.dtype != dst.dtype and not np.can_cast(value.dtype, dst.dtype, "same_kind"):
            raise RuntimeError(
                f"result type {_dtypes.scalar_name(_dtypes.from_numpy(value.dtype))} can't be "
                f"cast to the desired output type "
                f"{_dtypes.scalar_name(_dtypes.from_numpy(dst.dtype))}")
        if dst.shape != value.shape:
            if dst.size:
                warnings.warn(_RESIZED.format(_errors.shape_str(dst.shape),
                                              _errors.shape_str(value.shape)),
                              UserWarning, stacklevel=3)
            o._data = np.empty(value.shape, dtype=dst.dtype)
        np.copyto(o._data, value, casting="unsafe")
        o._vc[0] += 1
    return out if isinstance(out, (tuple, list)) else outs[0]


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
    """.split()


def with_out(f, name):
    """``f`` with PyTorch's out= (Note [out= arguments])."""
    def fn(*args, out=None, **kwargs):
        if out is None:
            return f(*args, **kwargs)
        return write_out(name, f(*args, **kwargs), out)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f.__doc__
    return fn


def method_without_out(f, name):
    """A Tensor method from a function that takes out=: PyTorch's methods take none."""
    def method(self, *args, **kwargs):
        if "out" in kwargs:
            raise TypeError(f"{name}() got an unexpected keyword argument 'out'")
        return f(self, *args, **kwargs)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f.__doc__
    return method


def add_out(namespace):
    """Bind out= into the torch namespace for every name of OUT_NAMES lacking it."""
    import inspect
    for name in OUT_NAMES:
        f = namespace.get(name)
        if f is None:
            continue
        try:
            params = inspect.signature(f).parameters
        except (TypeError, ValueError):
            continue
        if "out" not in params:
            namespace[name] = with_out(f, name)
