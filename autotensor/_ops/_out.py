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
