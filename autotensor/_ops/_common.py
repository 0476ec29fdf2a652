"""Shared machinery of the public ops: argument parsing (tensors, dims, shapes, scalars),
PyTorch's scalar promotion, and the generic bodies of elementwise and in-place ops
(``_unary_fn``, ``_binary_fn``, ``_inplace_binary``...) that the families specialise per op.
It does not grow with the op count: an op lives in its family module.
"""
import builtins
import numbers
from operator import index as _index

from .. import _argparse, _convert, _dtypes, _errors
from ..autograd.forward_ad import propagate as _fw
from .._backend import np
from .._tensor import _make, Tensor
from ..autograd import grad_mode, inplace
from . import raw
from .aliasing import aliased_value
from ._out import write_out
from .layout import c_plain, cast, cast_layout, conform, iter_result
from .dispatch import (
    broadcast_error, check_broadcast, record, record_fast, requires_grad_mask, set_input_metadata,
    stale_view_requires_grad, view_errors_first)

_state = grad_mode.state

# Note [Sticky mode flags]
# ~~~~~~~~~~~~~~~~~~~~~~~~
# Reading a thread-local mode (``_state.fw``) costs ~40 ns, a module global ~10 ns. The
# no-graph paths below first read ``_fw_seen``, False until a forward-AD level is opened
# for the first time in the process (enter_dual_level, the only way ``_state.fw`` becomes
# True), so ordinary code never pays the thread-local read; once seen, the flag stays True
# and the thread-local mode decides as before. ``_tensor._inference_seen`` does the same
# for inference mode in ``_make``.
_fw_seen = False


def note_forward_ad():
    global _fw_seen
    _fw_seen = True
ndarray = np.ndarray
_asarray = raw.asarray
_py_sum, _py_max, _py_min, _py_abs = builtins.sum, builtins.max, builtins.min, builtins.abs
_py_all, _py_any = builtins.all, builtins.any


# NumPy warns on 1/0, log(0), overflow...; PyTorch returns inf/nan silently.
np.seterr(divide="ignore", invalid="ignore", over="ignore", under="ignore")

# op -> its Scalar overload, for ``tensor * 2.0`` inside a backward formula (filled by
# pointwise.py, whose entries they are)
SCALAR_OVERLOAD = {}


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
        return cast(d, _dtypes.default_float.np)
    return d


# Note [bfloat16 accumulation]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# ml_dtypes' bfloat16 ufuncs round every result to 8 significant bits, so a NumPy sum of a
# bfloat16 array rounds each partial sum (1,000 values of about 1.1 sum to 812 against
# PyTorch's 1104). PyTorch's CPU reductions, scans, softmaxes, norms and matrix products
# accumulate bfloat16 in float32 (its acc_type) and round the result once: the kernels do
# the same with ``_acc(d)`` and cast back. bfloat16 arrays are NumPy kind "V" (the only
# such arrays a tensor holds): ``_inexact`` is the dtype check that counts them as floating.
def _inexact(npdtype):
    """Floating or complex, bfloat16 included (NumPy's kind "V": Note [bfloat16 accumulation])."""
    return npdtype.kind in "fcV"


def _acc(d):
    """d, or as float32 if bfloat16 or float16 (Note [bfloat16 accumulation]: PyTorch's
    acc_type of float16 on the CPU is float32 too)."""
    return d.astype(np.float32) if d.itemsize == 2 and d.dtype.kind in "fV" else d


def _wrap_dim(dim, ndim, t=None):
    """``dim`` wrapped into [0, ndim); ``t``: the tensor of a differentiable op, whose
    stale-view error comes first (Note [View errors before an op's checks])."""
    if dim.__class__ is not int:
        dim = _argparse.index(dim)  # (a bool or float refused: Note [Argument errors on the
        # exception path] in _argparse.py)
    n = ndim if ndim > 0 else 1
    if dim < -n or dim >= n:
        if t is not None:
            view_errors_first(t)
        raise _errors.dim_error(dim, ndim)
    return dim + n if dim < 0 else dim


def _size_dim(dim, ndim):
    """``dim`` wrapped as Tensor.size(dim) wraps it: a 0-d tensor has no dim at all."""
    if ndim == 0:
        raise _errors.no_dims_error(dim)
    return _wrap_dim(dim, ndim)


def _dims(dim, ndim, t=None):
    """Normalise an int / tuple / list / None dim argument to a sorted tuple (or None)."""
    if dim is None:
        return None
    if isinstance(dim, (int, np.integer)):
        return (_wrap_dim(dim, ndim, t),)
    dims = tuple(_wrap_dim(d, ndim, t) for d in dim)  # (a float or bool refused there)
    if len(set(dims)) != len(dims):
        if t is not None:
            view_errors_first(t)
        raise RuntimeError(f"dim {dims[0]} appears multiple times in the list of dims")
    return tuple(sorted(dims)) if dims else None


def _scalar_dtype_data(ad, b):
    """Array of a tensor promoted against a Python scalar, PyTorch's way (ints stay weak)."""
    kind = ad.dtype.kind
    cb = b.__class__
    if cb is int and not _INT64_MIN <= b <= _UINT64_MAX:
        _convert.check_python_int(b)  # (PyTorch's OverflowError, parsing the number)
    if cb is float and kind in "biu":
        return cast(ad, _dtypes.default_float.np)
    if cb is complex and kind != "c":
        return cast(ad, _dtypes.scalar_result_dtype(_dtypes.from_numpy(ad.dtype), b).np)
    if cb is int and kind == "b":
        if b > _INT64_MAX:  # (a uint64 c10::Scalar: PyTorch does not promote it with bool)
            _convert.check_python_int(b)
            raise _dtypes._promotion_error(_dtypes.bool, _dtypes.uint64)
        return cast(ad, np.int64)
    return ad


_SCALARS = (int, float, bool, complex)
_INT64_MIN, _UINT64_MAX = -2 ** 63, 2 ** 64 - 1  # a Python int operand's range (c10::Scalar)
_INT64_MAX = 2 ** 63 - 1
_INT_LIMITS = {}


def _scalar_operand(ad, b):
    """A tensor's array and a Python number operand as PyTorch computes them: the array in
    the promoted dtype; an int wrapped into an integer dtype's range, or PyTorch's
    OverflowError beyond (u)int64."""
    ad = _scalar_dtype_data(ad, b)
    if b.__class__ is int:
        if ad.dtype.kind in "iu":
            b = _fit_int(b, ad.dtype)
        else:
            _convert.check_python_int(b)
    return ad, b


def _fit_int(b, npdtype):
    """A Python int operand of an integer tensor, wrapped into its dtype's range as PyTorch
    does (``uint8_tensor // -1`` divides by 255); beyond (u)int64 PyTorch's OverflowError."""
    limits = _INT_LIMITS.get(npdtype)
    if limits is None:
        info = np.iinfo(npdtype)
        limits = _INT_LIMITS[npdtype] = (int(info.min), int(info.max), info.bits)
    lo, hi, bits = limits
    if lo <= b <= hi:
        return b
    _convert.check_python_int(b)
    v = b & ((1 << bits) - 1)
    return v - (1 << bits) if lo < 0 and v > hi else v


# Note [Half scalars in float32]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's CPU mul, div and div's floor and trunc modes (floor_divide, //) of a
# float16/bfloat16 tensor by a single value -- a Python number, or a tensor TensorIterator
# broadcasts whole (0-d or one element: ``iter.is_scalar(2)``) -- read that value as a
# float32 (their opmath type: ``iter.original_scalar_value<opmath_t>(2)``, from the
# operand's own dtype before any cast), compute in float32 and round once: float16 x * 0.1
# is half(float(x) * 0.1f), x // 0.1 half(div_floor(float(x), 0.1f)). NumPy rounds the
# number to float16 first (a weak Python float), so 33% of x * 0.1 over [-3, 3] came out 1
# ulp off, 1-15% of x // 0.1 and x.div(0.1, rounding_mode="trunc") one step off, and
# (v / v) // 0.1 was 10 instead of 9; so did tangent formulas with a constant (exp2's
# result * ln 2). These ops compute so: a Python number here (``_binary_opmath``), a 0-d
# tensor of another dtype (``_binary_opmath_tensor``: float16 * float32 0-d tensor), a
# one-element divisor of the tensor's dtype in raw.div_floor / div_trunc (mul and div of
# two float16 values rounded once are NumPy's). Only the second operand: ``0.1 // x`` is
# the tensor kernel, 0.1 rounded to x's dtype (raw.div_floor's Note [Reduced float floor
# division]). (add/sub/rsub cast the number to the tensor's dtype first in PyTorch too:
# NumPy's rounding is theirs; found by experiment.)
OPMATH_SCALAR = frozenset({"mul", "div", "floor_divide", "floor_divide_"})


def _binary_opmath(op, a, b, params):
    half = a._data.dtype
    out = op.kernel(a._data.astype(np.float32), b, *params).astype(half)
    if not c_plain(a._data):  # Note [Result layout] in layout.py
        out = iter_result(out, (a._data, b))
    return _binary_result(op, a, b, params, out)


def _binary_opmath_tensor(op, a, b, params, rt):
    """_binary of a float16/bfloat16 result ``rt`` whose second operand is a single value
    of another dtype (a 0-d float32, float64 or integer tensor): read as a float32, not
    rounded to rt first (Note [Half scalars in float32])."""
    ad0, bd0 = a._data, b._data
    f32 = np.float32
    out = _asarray(op.kernel(cast(ad0, rt).astype(f32), bd0.astype(f32), *params)).astype(rt)
    if not ((ad0.flags.c_contiguous and (1 not in ad0.shape and ad0.size or c_plain(ad0)))
            and c_plain(bd0)):  # Note [Result layout] in layout.py
        out = iter_result(out, (ad0, bd0))
    if _state.enabled and (a._requires_grad or b._requires_grad or
                           stale_view_requires_grad(a) or stale_view_requires_grad(b)):
        result = record_fast(op, (a, b), params, out, requires_grad_mask((a, b)))
        set_input_metadata(result._grad_fn, (a, b), out.shape, out.dtype)
        _reduce_all(result._grad_fn, (a, b))
        return result
    r = _make(out)
    if _fw_seen and _state.fw:
        _fw(op, (a, b), params, r)
    return r


def _binary_result(op, a, b, params, out):
    """The recording tail of _binary for a Tensor a and a Python scalar b."""
    if out.__class__ is not ndarray:
        out = raw.asarray(out)
    if _state.enabled and (a._requires_grad or stale_view_requires_grad(a)):
        if _state.in_formula and op in SCALAR_OVERLOAD:
            return record(SCALAR_OVERLOAD[op], (a,), (b,) + params, out)
        return record_fast(op, (a, b), params, out, 1)
    r = _make(out)
    if _fw_seen and _state.fw:
        _fw(op, (a, b), params, r)
    return r


def _binary(op, a, b, params=()):
    """Elementwise binary op with broadcasting and PyTorch's type promotion."""
    if a.__class__ is not Tensor and not isinstance(a, Tensor):
        a = _scalar_to_tensor(a, b) if isinstance(a, _SCALARS) else _tensor_arg(a)
    ad = ad0 = a._data  # (the layout follows the operands before promotion: .to() keeps it)
    cb = b.__class__
    promoted = False
    if cb is Tensor or isinstance(b, Tensor):
        bd = bd0 = b._data
        if ad.dtype is not bd.dtype and ad.dtype != bd.dtype:
            rt = _dtypes.binary_result_dtype(_dtypes.from_numpy(ad.dtype), ad.ndim == 0,
                                             _dtypes.from_numpy(bd.dtype), bd.ndim == 0).np
            if rt.itemsize == 2 and bd.size == 1 and rt.kind in "fV" and \
                    op.name in OPMATH_SCALAR:
                return _binary_opmath_tensor(op, a, b, params, rt)
            ad, bd = cast(ad, rt), cast(bd, rt)  # (Note [Result layout] in layout.py)
            ad0, bd0 = cast_layout(ad0, ad), cast_layout(bd0, bd)
            promoted = True
    elif cb in _SCALARS:
        bd = bd0 = b
        if ad.dtype.kind in "biu" or cb is complex:
            ad2 = _scalar_dtype_data(ad, b)
            promoted = ad2 is not ad
            ad = ad2
            if cb is int and ad.dtype.kind in "iu":
                b = bd = _fit_int(b, ad.dtype)
        else:
            if cb is int:
                _convert.check_python_int(b)
            if ad.itemsize == 2 and op.name in OPMATH_SCALAR:
                return _binary_opmath(op, a, b, params)  # (Note [Half scalars in float32])
    elif isinstance(b, numbers.Number) and not isinstance(b, np.ndarray):
        return _binary(op, a, b.item() if hasattr(b, "item") else complex(b), params)
    elif isinstance(b, (str, bytes, dict, set)) or b is None:
        raise TypeError(f"{op.name}(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(b).__name__}")
    else:
        return _binary(op, a, _tensor_arg(b, None), params)
    kernel = op.kernel
    if ad.dtype.kind == "c":
        if op.name in _COMPLEX_UNSUPPORTED:
            view_errors_first(a, b)  # (Note [View errors before an op's checks])
            refuse_complex(op.name, ad.dtype, ad.shape, np.shape(bd))
        kernel = op.__dict__.get("complex_kernel", kernel)  # (Note [Complex kernels])
    try:
        out = kernel(ad, bd, *params)
    except ValueError:
        view_errors_first(a, b)
        raise broadcast_error(ad.shape, np.shape(bd)) from None
    if out.__class__ is not ndarray:
        out = raw.asarray(out)
    if op.layout is not None:  # Note [Result layout] in layout.py
        out = conform(op, (ad0, bd0), params, out)
    elif not ((ad0.flags.c_contiguous and (1 not in ad0.shape and ad0.size or c_plain(ad0)))
              and (bd0.__class__ is not ndarray or c_plain(bd0))):
        out = iter_result(out, (ad0, bd0))
    if _state.enabled and (a._requires_grad or (bd is not b and b._requires_grad) or
                           stale_view_requires_grad(a) or
                           (bd is not b and stale_view_requires_grad(b))):
        if bd is b:
            if _state.in_formula and op in SCALAR_OVERLOAD:
                result = record(SCALAR_OVERLOAD[op], (a,), (b,) + params, out)
            else:
                result = record_fast(op, (a, b), params, out, 1)
            if cb is complex:
                _keep_real_grads(result, (a,))
            return result
        result = record_fast(op, (a, b), params, out, requires_grad_mask((a, b)))
        shape = out.shape
        if promoted or ad.shape != shape or (bd is not b and bd.shape != shape):
            set_input_metadata(result._grad_fn, (a, b), shape, out.dtype)
            if promoted:
                _reduce_all(result._grad_fn, (a, b))
        return result
    r = _make(out)
    if _fw_seen and _state.fw:
        _fw(op, (a, b), params, r)
    return r


def _reduce_all(node, inputs):
    """After promotion every gradient is cast back to its input's dtype."""
    reduce = node._reduce or [None] * len(inputs)
    for i, x in enumerate(inputs):
        if isinstance(x, Tensor) and x._requires_grad and reduce[i] is None:
            reduce[i] = (x._data.shape, x._data.dtype)
    node._reduce = reduce


def _keep_real_grads(result, inputs):
    """A real input of a complex result (a complex Python number in the op) gets the real
    part of its gradient, as PyTorch's handle_r_to_c."""
    if result._data.dtype.kind == "c" and result._grad_fn is not None and \
            any(x._data.dtype.kind != "c" for x in inputs):
        _reduce_all(result._grad_fn, inputs)


def _scalar_to_tensor(s, like):
    """A Python number as a 0-d tensor (a 'wrapped number': it does not promote)."""
    if isinstance(like, Tensor):
        if s.__class__ is int and not -2 ** 63 <= s < 2 ** 63:  # (the parser's OverflowError,
            _dtypes.result_type(s, like)  # a uint64 number's promotion error with bool)
        dt = _dtypes.scalar_result_dtype(_dtypes.from_numpy(like._data.dtype), s)
        if dt.np.kind == like._data.dtype.kind:
            dt = _dtypes.from_numpy(like._data.dtype)
        if s.__class__ is int and dt.np.kind in "iu":
            s = _fit_int(s, dt.np)  # (torch.add(2**40, int32_tensor) wraps, as PyTorch)
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
        view_errors_first(x)  # (Note [View errors before an op's checks])
        exc = RuntimeError if op.name == "relu" else NotImplementedError
        raise exc(_BOOL_UNSUPPORTED[op.name])
    if d.dtype.kind == "c" and op.name in _COMPLEX_UNSUPPORTED:
        view_errors_first(x)
        refuse_complex(op.name, d.dtype)
    if float_op and d.dtype.kind in "biu":
        d = cast(d, _dtypes.default_float.np)
    out = op.kernel(d, *params)
    if out.__class__ is not ndarray:
        out = raw.asarray(out)
    if op.layout is not None:  # Note [Result layout] in layout.py
        out = conform(op, (x._data,), params, out)
    elif not x._data.flags.c_contiguous:  # (the input's layout: a cast by .to() keeps it)
        out = iter_result(out, (x._data,))
    if _state.enabled and (x._requires_grad or stale_view_requires_grad(x)):
        return record_fast(op, (x,), params, out, 1)
    r = _make(out)
    if _fw_seen and _state.fw:
        _fw(op, (x,), params, r)
    return r


_BOOL_UNSUPPORTED = {"relu": "Boolean inputs not supported for relu",
                     "abs": "\"abs_cpu\" not implemented for 'Bool'",
                     "floor": "\"floor_vml_cpu\" not implemented for 'Bool'",
                     "ceil": "\"ceil_vml_cpu\" not implemented for 'Bool'",
                     "round": "\"round_vml_cpu\" not implemented for 'Bool'"}


# Real-only unary ops: PyTorch's error for a complex input (NumPy would compute a value, or
# discard the imaginary part): the exception type and the message, or the name of the CPU
# kernel whose dispatch refuses the dtype
_COMPLEX_UNSUPPORTED = {
    "ceil": (NotImplementedError, "ceil is not supported for complex inputs"),
    "floor": (NotImplementedError, "floor is not supported for complex inputs"),
    "trunc": (NotImplementedError, "trunc is not supported for complex inputs"),
    "sign": (NotImplementedError, "Unlike NumPy, torch.sign is not intended to support complex "
                                  "numbers. Please use torch.sgn instead."),
    "relu": (NotImplementedError, "clamp is not supported for complex types"),
    "deg2rad": (RuntimeError, "deg2rad is not supported for complex tensors."),
    "rad2deg": (RuntimeError, "rad2deg is not supported for complex tensors."),
    "round": "round_vml_cpu", "frac": "frac_cpu", "digamma": "digamma", "erf": "erf_vml_cpu",
    "erfc": "erfc_vml_cpu", "erfinv": "erfinv_vml_cpu", "lgamma": "lgamma_vml_cpu",
    "i0": "i0_vml_cpu", "special_i0e": "i0e_cpu", "special_i1": "i1_cpu",
    "special_i1e": "i1e_cpu", "special_entr": "entr_cpu", "special_erfcx": "erfcx_cpu",
    "special_log_ndtr": "log_ndtr_cpu", "special_ndtri": "ndtri_cpu",
    # binary ops (checked in _binary and _inplace_binary, on the promoted dtype)
    "fmod": "fmod_cpu", "remainder": "remainder_cpu", "atan2": "atan2_cpu",
    "hypot": "hypot_cpu", "copysign": "copysign_cpu", "nextafter": "nextafter_cpu",
    "xlogy": "xlogy_cpu", "floor_divide": "div_floor_cpu",
    "special_xlog1py": "xlog1py_cpu", "special_zeta": "zeta_cpu",
    "maximum": (RuntimeError, "maximum not implemented for complex tensors."),
    "minimum": (RuntimeError, "minimum not implemented for complex tensors."),
    "fmax": (RuntimeError, "fmax not implemented for complex tensors."),
    "fmin": (RuntimeError, "fmin not implemented for complex tensors."),
    "heaviside": (RuntimeError, "heaviside is not yet implemented for complex tensors."),
    "clamp": (NotImplementedError, "clamp is not supported for complex types"),
    "logit": "logit_cpu",
    "signbit": (NotImplementedError, "signbit is not implemented for complex tensors."),
    "isposinf": (RuntimeError, "isposinf does not support complex inputs."),
    "isneginf": (RuntimeError, "isneginf does not support complex inputs."),
    # reductions and sorting (checked in their bodies)
    "max_all": "max_all", "min_all": "min_all",
    "max_dim": (RuntimeError, "max(): does not support complex input"),
    "min_dim": (RuntimeError, "min(): does not support complex input"),
    "argmax": (RuntimeError, "argmax(): does not support complex input"),
    "argmin": (RuntimeError, "argmin(): does not support complex input"),
    "amax": "max_values_cpu", "amin": "min_values_cpu", "aminmax": "aminmax_cpu",
    "sort": (RuntimeError, " Sort does not support complex dtypes on CPU"),
    "topk": (RuntimeError, " topk does not support complex dtypes on CPU"),
    "unique": "unique", "searchsorted": "searchsorted_out_cpu",
    "nansum": (RuntimeError, "nansum on CPU does not support complex inputs"),
    # by a tensor bound: maximum/minimum's kernels; mvlgamma's arange of the dtype
    "clamp_min": "maximum_cpu", "clamp_max": "minimum_cpu", "logaddexp2": "logaddexp2_cpu",
    "mvlgamma": "arange_cpu",
}


_HALF_NAMES = ("float16", "bfloat16")


def refuse_half(kernel, arr, names=_HALF_NAMES):
    """A CPU kernel PyTorch dispatches without float16/bfloat16 (``names``): its error,
    '"kernel" not implemented for 'Half''."""
    if arr.dtype.name in names:
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{_dtypes.scalar_name(_dtypes.from_numpy(arr.dtype))}'")


def refuse_complex(name, dtype, *shapes):
    """The op's complex refusal; ``shapes``: its operands', checked before a kernel's
    dispatch error (check_broadcast); an op's own message comes before the shapes."""
    how = _COMPLEX_UNSUPPORTED[name]
    if isinstance(how, str):
        if shapes:
            check_broadcast(*shapes)
        raise NotImplementedError(f"\"{how}\" not implemented for "
                                  f"'{_dtypes.scalar_name(_dtypes.from_numpy(dtype))}'")
    raise how[0](how[1])


def _unary_fn(op, doc, float_op=True):
    """The public function of a unary elementwise op: ``_unary`` specialised for ``op`` in
    one frame (these are the most frequent calls)."""
    kernel = op.kernel
    recs = op.recorders  # (its generated recorder, called directly: Note [Generated recorders])
    fast_kinds = "f" if op.name in _COMPLEX_UNSUPPORTED else "fc"  # (complex: refused in _unary)
    if getattr(op, "real_kernel", None) is not None:  # (Note [Complex kernels] in raw.py)
        kernel, fast_kinds = op.real_kernel, "f"

    lay = op.layout
    like = lay == "like"  # (empty_like(self): a C-contiguous input's size-1 dims keep their
    # strides, which NumPy's result does not)

    def method(input, *args):  # (the Tensor method: no out=, as PyTorch's; args: refused)
        if not args and (input.__class__ is Tensor or isinstance(input, Tensor)):
            d = input._data
            if d.dtype.kind in fast_kinds or (not float_op and d.dtype.kind in "iu"):
                out = kernel(d)
                if out.__class__ is not ndarray:
                    out = raw.asarray(out)
                if not d.flags.c_contiguous or (like and 1 in d.shape):  # Note [Result
                    # layout] in layout.py
                    out = iter_result(out, (d,)) if lay is None else conform(op, (d,), (), out)
                if _state.enabled and (input._requires_grad or
                                       stale_view_requires_grad(input)):
                    rec = recs[1] if recs is not None else None
                    if rec is not None:
                        return rec((input,), (), out)
                    return record_fast(op, (input,), (), out, 1)
                r = _make(out)
                if _fw_seen and _state.fw:
                    _fw(op, (input,), (), r)
                return r
        if args or not isinstance(input, Tensor):  # Note [Argument errors on the exception
            _argparse.refuse_unary(op.name, input, args)  # path] in _argparse.py
        return _unary(op, input, float_op)

    def fn(input=_MISSING, *args, out=None):  # (args, a missing input: refused)
        if out is not None or args or input is _MISSING:
            _argparse.refuse_function(op.name, (input,) + args, out)
            try:  # Note [out= arguments] in _out.py
                return write_out(op.name, method(input), out, (input,), overlap=True)
            except Exception:  # (an out= of the wrong type: Note [Argument errors on the
                _argparse.refuse("t" + op.name, (input,), {"out": out})  # exception path])
                raise
        return method(input)
    fn.__name__ = fn.__qualname__ = method.__name__ = method.__qualname__ = op.name
    fn.__doc__ = method.__doc__ = doc
    fn.method = method
    return fn


def _check_alpha(input, other, alpha, negate=False):
    """``negate``: sub's kernel is add's with -alpha, which is what must fit the dtype."""
    if alpha.__class__ is int:
        _convert.check_python_int(alpha)  # (any alpha is a c10::Scalar)
    # (aten's alpha_check, against the op's common dtype)
    common = _dtypes.result_type(input, other)
    kind = common.np.kind
    if (isinstance(alpha, bool) and kind != "b") or (
            isinstance(alpha, (float, complex)) and kind in "biu") or (
            isinstance(alpha, complex) and kind != "c"):
        view_errors_first(input, other)  # (Note [View errors before an op's checks])
        if isinstance(input, Tensor) and isinstance(other, Tensor) and not _broadcastable(
                input._data.shape, other._data.shape):  # (TensorIterator's shapes first)
            raise broadcast_error(input._data.shape, other._data.shape)
    if isinstance(alpha, bool) and kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, (float, complex)) and kind in "biu":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")
    if isinstance(alpha, complex) and kind != "c":
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a "
                           "complex number.")
    if alpha.__class__ is int and kind in "iu":  # alpha in the result's integer type
        _check_int_scalar(_negated(alpha) if negate else alpha, common.np)
    elif kind in "fVc" and not (isinstance(alpha, complex) and kind != "c"):
        _convert.scalar_array(alpha, common)  # (c10::Half, float, c10::complex<float>)


def _negated(v):
    """-v of an int64 c10::Scalar (wrapping: -(-2**63) is -2**63)."""
    return -v if v != -2 ** 63 else v


def _check_int_scalar(v, dt):
    """c10::Scalar's checked_convert of a Python int to an integer dtype: in range, or a
    negative number wrapping into an unsigned type (from -max)."""
    info = np.iinfo(dt)
    if v > info.max or (v < info.min and (info.min < 0 or -v > info.max)):
        raise _convert.overflow(_convert._CPP[dt.name])


def _binary_fn(op, doc, alpha_param=False):
    """The public function of a binary elementwise op, with a one-frame fast path for
    same-shape, same-dtype tensors and for a float tensor with a Python number; everything
    else (broadcasting, promotion, alpha) goes through ``_binary``."""
    kernel = op.kernel if not alpha_param else op.kernel_no_alpha
    recs = op.recorders  # (its generated recorders, called directly: Note [Generated recorders])
    params = (1,) if alpha_param else ()
    # (complex operands of an op with a complex kernel take _binary: Note [Complex kernels])
    slow_complex = alpha_param or "complex_kernel" in op.__dict__
    method, operator = _binary_method(op, kernel, recs, params, slow_complex, alpha_param, 1), \
        _binary_method(op, kernel, recs, params, slow_complex, alpha_param, 0)
    function = _binary_method(op, kernel, recs, params, slow_complex, alpha_param, 2)

    def with_out(input, other, args, alpha, out):
        """fn's slow path: extra arguments refused (in ``function``), then out= (Note [out=
        arguments] in _out.py), whose failure may be the argument's type."""
        r = function(input, other, *args, alpha=alpha)
        if out is None:
            return r
        try:
            return write_out(op.name, r, out, (input, other), overlap=True)
        except Exception:  # (Note [Argument errors on the exception path])
            _argparse.refuse("t" + op.name, (input, other), dict(
                {"out": out}, **({"alpha": alpha} if alpha != 1 else {})))
            raise

    if alpha_param:
        def fn(input=_MISSING, other=_MISSING, *args, alpha=1, out=None):
            if out is not None or args:
                return with_out(input, other, args, alpha, out)
            return function(input, other, alpha=alpha)
    else:  # (mul takes no alpha, as PyTorch's)
        def fn(input=_MISSING, other=_MISSING, *args, out=None):
            if out is not None or args:
                return with_out(input, other, args, 1, out)
            return function(input, other)
    fn.__name__ = fn.__qualname__ = method.__name__ = method.__qualname__ = op.name
    operator.__name__ = operator.__qualname__ = op.name
    fn.__doc__ = method.__doc__ = doc
    fn.method, fn.operator = method, operator
    return fn


# Note [Operands PyTorch refuses]: PyTorch's Tensor methods and functions take a Tensor or a
# number as ``other`` (bool, int, float, complex, a NumPy scalar; an ndarray is taken here
# too, converted): anything else (None, a list, a str, a Fraction) raises "mul(): argument
# 'other' (position 2) must be Tensor, not list" (position 1 for the method), and its
# operators return NotImplemented instead, so Python raises "unsupported operand type(s)
# for *: 'Tensor' and 'list'" (or the other operand's reflected method runs). The check
# sits on the slow path, after the tensor and float/int fast paths. (The comparison
# operators take the same, _methods._comparison.)
_OPERANDS = (Tensor, int, float, complex, np.generic)  # (bool is an int)
_MISSING = _argparse.MISSING  # (a binary op's other, not given)


def type_name(value):
    """A type's name as CPython's tp_name gives it (PyTorch's and Python's messages):
    'list', 'Fraction'; 'numpy.ndarray' and 'decimal.Decimal' for extension types."""
    t = type(value)
    if t.__module__ == "builtins" or t.__flags__ & (1 << 9):  # (Py_TPFLAGS_HEAPTYPE)
        return t.__qualname__
    return f"{t.__module__.lstrip('_')}.{t.__qualname__}"


def refuse_operand(name, other, position):
    """NotImplemented for an operator (``position`` 0), else PyTorch's argument error
    (Note [Operands PyTorch refuses])."""
    if position == 0:
        return NotImplemented
    raise TypeError(f"{name}(): argument 'other' (position {position}) must be Tensor, not "
                    f"{type_name(other)}")


def _binary_method(op, kernel, recs, params, slow_complex, alpha_param, position):
    """One of a binary op's three entry points (function, method, operator), the same code
    but for ``position``: the argument error's position, or 0: the operator's
    NotImplemented (Note [Operands PyTorch refuses])."""
    def method(input, other=_MISSING, *args, alpha=1):  # (the Tensor method: no out=, as
        # PyTorch's; args and a missing other: refused on the slow path)
        if not args and alpha == 1 and alpha is not True and (input.__class__ is Tensor or
                                                               isinstance(input, Tensor)):
            ad = input._data
            cb = other.__class__
            if cb is float or cb is int:
                if ad.dtype.kind == "f" and ad.itemsize != 2 and (
                        cb is float or _INT64_MIN <= other <= _UINT64_MAX):
                    res = kernel(ad, other)
                    if res.__class__ is not ndarray:
                        res = raw.asarray(res)
                    if not (ad.flags.c_contiguous and (1 not in ad.shape and ad.size or
                                                       c_plain(ad))):
                        res = iter_result(res, (ad, other))  # Note [Result layout] in layout.py
                    if input._requires_grad and _state.enabled and not _state.in_formula:
                        rec = recs[1] if recs is not None else None
                        if rec is not None:
                            return rec((input, other), params, res)
                        return record_fast(op, (input, other), params, res, 1)
                    if not _state.enabled or not (input._requires_grad or
                                                  stale_view_requires_grad(input)):
                        r = _make(res)
                        if _fw_seen and _state.fw:
                            _fw(op, (input, other), (1,) if alpha_param else (), r)
                        return r
            elif cb is Tensor or isinstance(other, Tensor):
                bd = other._data
                if ad.dtype is bd.dtype and ad.shape == bd.shape and not (
                        slow_complex and ad.dtype.kind == "c"):  # (Note [Complex alpha])
                    res = kernel(ad, bd)
                    if res.__class__ is not ndarray:
                        res = raw.asarray(res)
                    if not (ad.flags.c_contiguous and bd.flags.c_contiguous):
                        res = iter_result(res, (ad, bd))  # Note [Result layout] in layout.py
                    if _state.enabled:
                        mask = (input._requires_grad | other._requires_grad << 1
                                if input._view is None and other._view is None else
                                requires_grad_mask((input, other)))
                        if mask:
                            rec = recs[mask] if recs is not None else None
                            if rec is not None:
                                return rec((input, other), params, res)
                            return record_fast(op, (input, other), params, res, mask)
                    r = _make(res)
                    if _fw_seen and _state.fw:
                        _fw(op, (input, other), (1,) if alpha_param else (), r)
                    return r
        if position and (args or other is _MISSING or not alpha_param and alpha != 1 or
                         not isinstance(input, _OPERANDS) or
                         not isinstance(alpha, _OPERANDS)):
            other, alpha = _argparse.refuse_binary(op.name, position, input, other, args,
                                                   alpha)
        if not isinstance(other, _OPERANDS) and other.__class__ is not ndarray:
            return refuse_operand(op.name, other, position)
        if alpha_param and (alpha != 1 or alpha is True):
            _check_alpha(input, other, alpha, op.name == "sub")
        return _binary(op, input, other, (alpha,) if alpha_param else ())
    return method


def _finish(op, inputs, params, out):
    if _state.enabled and requires_grad_mask(inputs):
        return record(op, inputs, params, out)
    return _no_graph(op, inputs, params, out)


def _no_graph(op, inputs, params, out):
    """An op's result(s) when no graph is recorded: wrapped, with tangents when a
    forward-AD level is open (Note [Forward mode])."""
    lay = op.layout
    if lay is not None and (lay != "contiguous" or out.__class__ is not ndarray or
                            not out.flags.c_contiguous or 1 in out.shape):
        out = conform(op, inputs, params, out)  # (Note [Result layout] in layout.py)
    if out.__class__ is ndarray:
        r = _make(out)
    elif out.__class__ is tuple:
        r = tuple([_make(o if o.__class__ is ndarray else raw.asarray(o)) for o in out])
    else:  # a NumPy scalar (0-d arithmetic returns one): a Tensor holds an ndarray, as
        r = _make(raw.asarray(out))  # record() makes sure (an in-place write copies into it)
    if _fw_seen and _state.fw:
        _fw(op, inputs, params, r)
    return r


def _check_tensor_arg(name, arg, value, position):
    if not isinstance(value, Tensor):
        raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, "
                        f"not {type(value).__name__}")


def _broadcastable(a, b):
    try:
        np.broadcast_shapes(a, b)
        return True
    except ValueError:
        return False


# ---- the bodies of view ops (Note [Views] in autograd/inplace.py) -------------------------
def _view_result(op, input, params, out, multi=False):
    """Record a view op: the result shares input's memory and version counter."""
    if out.__class__ is not ndarray:
        out = raw.asarray(out)
    result = _finish(op, (input,), params, out)
    inplace.make_views((result,), input, op.node_name)
    return result


def _shape_args(shape):
    if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)) and \
            not isinstance(shape[0], Tensor):
        shape = shape[0]
    # (operator.index: a float size is PyTorch's parser's refusal, which the argument
    # guard words: Note [Argument errors on the exception path] in _argparse.py)
    if shape and shape[0].__class__ is bool:  # (a bool is an int but as the first one)
        raise TypeError("a size's first element must not be a bool")
    return tuple(map(int, map(_index, shape)))


def _multi_view(op, input, params, arrays):
    arrays = tuple(a if a.__class__ is ndarray else np.asarray(a) for a in arrays)
    if _state.enabled and (input._requires_grad or stale_view_requires_grad(input)):
        results = record(op, (input,), params, arrays)
    else:
        results = tuple(_make(a) for a in arrays)
        if _state.fw:
            _fw(op, (input,), params, results)
    inplace.make_views(results, input, op.node_name, multi=True)
    return results


def _index_data(index):
    """An index or mask argument's array (formulas in graph mode pass saved arrays)."""
    return index._data if isinstance(index, Tensor) else np.asarray(index)


# Note [Saved index tensors]: PyTorch saves an op's index, mask or target tensor as a
# SavedVariable like any input: modified in place before backward, it raises "one of the
# variables needed for gradient computation has been modified by an inplace operation:
# [torch.LongTensor [2, 1]] is at version 1" (the formula would scatter to the wrong places:
# gather saves the index array itself); its pack hooks see it; ``_saved_index`` is a tensor.
# The kernels and forward rules take the array; once the node is recorded, its slot holds a
# tensor over that array sharing the index's version counter (``index_guard``), which the
# node's version checks, hooks and accessors treat as any saved tensor and its formulas
# receive as the array again (graph/saved.py's unpacking). A key of index / index_put(_)
# (``x[i, :, j]``, ``x[i] = v``) holds several: its slot holds a ``GuardedKey`` (the key, and
# each index tensor the caller gave with its position and version), checked at unpacking in
# the key's order and packed by saved-tensor hooks (stop 35: before it, ``x[i]`` then
# ``i.add_(1)`` moved the gradient silently).
def _saved_param(result, name):
    """(node, slot, written) of the param ``name`` that ``result``'s op saved, or None
    (written: an in-place op on a view, whose node is the base's CopySlices' fn)."""
    r = result[0] if result.__class__ is tuple else result
    node = r._grad_fn if isinstance(r, Tensor) else None
    if node is None:
        return None
    base = r._base
    written = base is not None and base._grad_fn.__class__.__name__ == "CopySlices"
    if written:
        node = base._grad_fn
    node = getattr(node, "fn", node) or node  # (CopySlices: the in-place op's own node)
    op = getattr(node, "op", None)
    saved = node._saved if op is not None else None
    if not saved or name not in op.saved_names:
        return None
    i = op.saved_names.index(name)
    return (node, i, written) if op.saved_kinds[i] == "param" else None


def _guard_key(result, key, tensors):
    """``result`` of index / index_put(_), whose node saved ``key`` with the caller's index
    ``tensors`` ((position in the key, tensor), ...) in it: a GuardedKey."""
    found = _saved_param(result, "indices") if tensors else None
    if found is not None:
        node, i, _ = found
        if node._saved[i] is key:  # (not an earlier op's node: this op recorded one)
            from ..autograd.saved import GuardedKey
            node._saved = node._saved[:i] + (GuardedKey(key, tuple(tensors)),) + \
                node._saved[i + 1:]
    return result


def _guard_index(result, name, index):
    """``result`` of an op whose node saved ``index``'s array as the param ``name``."""
    if not isinstance(index, Tensor):
        return result
    found = _saved_param(result, name)
    if found is None:
        return result
    node, i, written = found
    saved = node._saved
    if saved[i].__class__ is not ndarray:
        return result
    if written and saved[i] is not index._data and saved[i].base is not index._data and \
            not np.array_equal(saved[i].reshape(-1), index._data.reshape(-1)):
        return result  # (the base's last write was another op's)
    guard = _make(saved[i])
    guard._vc = index._vc
    guard._meta = {"index_guard": index}  # (the error names the index as it was given)
    if index._vc[0] or node._versions is not None:
        versions = list(node._versions or [x._vc[0] if isinstance(x, Tensor) else None
                                           for x in saved])
        versions[i] = index._vc[0]
        node._versions = tuple(versions)
    if _state.saved_hooks:  # (saved-tensor hooks packed the others: this one too, after them)
        from ..autograd.saved import SavedTensor
        guard = SavedTensor(guard, False, 0, _state.saved_hooks[-1])
    node._saved = saved[:i] + (guard,) + saved[i + 1:]
    return result


# ---- the bodies of in-place ops ----------------------------------------------------------
def _inplace_binary(op, self, other, params=()):
    """``self.op_(other)``: the out-of-place result, written back (autograd/inplace.py)."""
    sd = self._data
    if isinstance(other, Tensor):
        od = other._data
        if od.dtype != sd.dtype:  # computed in the promoted dtype, then cast back on write
            rt = _dtypes.binary_result_dtype(_dtypes.from_numpy(sd.dtype), sd.ndim == 0,
                                             _dtypes.from_numpy(od.dtype), od.ndim == 0).np
            if rt.itemsize == 2 and od.size == 1 and rt.kind in "fV" and \
                    op.name in OPMATH_SCALAR:  # (Note [Half scalars in float32])
                value = op.kernel(sd.astype(rt).astype(np.float32), od.astype(np.float32),
                                  *params)
                return inplace.record_inplace(op, self, (self, other), params,
                                              _asarray(value).astype(rt))
            sd, od = sd.astype(rt, copy=False), od.astype(rt, copy=False)
        kernel = op.kernel
        if sd.dtype.kind == "c":
            if op.name in _COMPLEX_UNSUPPORTED:
                # (TensorIterator's checks, the cast among them, before the kernel's refusal)
                inplace_iter_checks(self, (self, other), _dtypes.from_numpy(sd.dtype))
                refuse_complex(op.name, sd.dtype)
            kernel = op.__dict__.get("complex_inplace_kernel", kernel)  # (raw.py's
            # Note [Complex kernels])
        try:
            value = kernel(sd, od, *params)
        except ValueError:
            inplace.check_inplace_order(self, (self, other), op.name)
            raise broadcast_error(sd.shape, od.shape) from None
        if (od.base is not None or sd.base is not None) and od is not sd and \
                np.may_share_memory(sd, od):  # (Note [Aliased inputs] in aliasing.py)
            value = aliased_value(kernel, self._data, (sd, od), params, value)
        inputs = (self, other)
    else:
        if isinstance(other, (list, ndarray)):
            return _inplace_binary(op, self, _tensor_arg(other), params)
        try:
            sd, other = _scalar_operand(sd, other)
            if sd.dtype.kind == "c" and op.name in _COMPLEX_UNSUPPORTED:
                inplace_iter_checks(self, (self, other), _dtypes.from_numpy(sd.dtype))
                refuse_complex(op.name, sd.dtype)
            if sd.itemsize == 2 and sd.dtype.kind in "fV" and op.name in OPMATH_SCALAR:
                value = op.kernel(sd.astype(np.float32), other, *params).astype(sd.dtype)
            elif sd.dtype.kind == "c":
                value = op.__dict__.get("complex_inplace_kernel", op.kernel)(sd, other, *params)
            else:
                value = op.kernel(sd, other, *params)
        except ValueError:
            inplace.check_inplace_order(self, (self, other), op.name)
            raise broadcast_error(sd.shape, np.shape(other)) from None
        inputs = (self, other)
    if value.__class__ is not ndarray:
        value = np.asarray(value)
    if value.dtype.kind == "c" and op.name in _COMPLEX_UNSUPPORTED:
        refuse_complex(op.name, value.dtype)
    if value.dtype != self._data.dtype and value.dtype.kind != self._data.dtype.kind:
        inplace_iter_checks(self, inputs, _dtypes.result_type(self, other), op, params)
    return inplace.record_inplace(op, self, inputs, params, value)


def inplace_iter_checks(self, inputs, common, op=None, params=()):
    """The checks of PyTorch's in-place ops up to TensorIterator's cast check, in its order:
    autograd's (leaf, views), memory overlaps, shapes, then whether the op's common dtype
    ``common`` (PyTorch's, not the NumPy kernel's) can be written into self. Called where a
    kind changes, so the cast error names PyTorch's dtype (``int.pow_(2.5)``: Float).
    ``op``: autograd's refusal to save an integer self comes before the cast's."""
    inplace.check_inplace_order(self, inputs)
    if op is not None:
        inplace.check_saved_self(op, self, inputs, params)
    inplace.check_cast(common.np, self._data.dtype)


def inplace_float_kernel(self, other, kernel):
    """An in-place op whose common dtype stays that of its operands and whose kernel has
    only floating types (hypot_, nextafter_, igamma_): TensorIterator's checks, then the
    dispatch error naming the common dtype ('"hypot_cpu" not implemented for 'Long'')."""
    common = _dtypes.result_type(self, other)
    inplace_iter_checks(self, (self, other), common)
    if not common.is_floating_point:
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{_dtypes.scalar_name(common)}'")


_FLOAT_OPS = frozenset(("exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "reciprocal",
                        "rsqrt"))


def _inplace_unary(op, self, params=(), float_op=None):
    """``self.op_()``; ``float_op``: computed in floating point (default: by op name)."""
    d = self._data
    if d.dtype == np.bool_ and op.name in _BOOL_UNSUPPORTED:
        if op.name != "relu":  # (a kernel's dtype error comes after TensorIterator's checks)
            inplace.check_inplace_order(self, (self,))
        exc = RuntimeError if op.name == "relu" else NotImplementedError
        raise exc(_BOOL_UNSUPPORTED[op.name])
    if d.dtype.kind == "c" and op.name in _COMPLEX_UNSUPPORTED:
        # (autograd's checks come first; a kernel's dispatch error after TensorIterator's
        # too, an op's own message before them)
        if isinstance(_COMPLEX_UNSUPPORTED[op.name], str):
            inplace.check_inplace_order(self, (self,))
        else:
            inplace.check_inplace(self, (self,), inference=False)
        refuse_complex(op.name, d.dtype)
    if (op.name in _FLOAT_OPS if float_op is None else float_op) and d.dtype.kind in "biu":
        d = d.astype(_dtypes.default_float.np)  # so the cast check names PyTorch's type
    value = _asarray(op.kernel(d, *params))
    return inplace.record_inplace(op, self, (self,), params, value)


def _named_result(kind, fields):
    """A ``torch.return_types.<kind>`` named tuple type (printed as PyTorch prints it)."""
    def __new__(cls, *vals):
        return tuple.__new__(cls, vals)

    def __repr__(self):
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self))
        return f"torch.return_types.{kind}(\n{body})"
    attrs = {"__slots__": (), "__new__": __new__, "__repr__": __repr__, "_fields": fields}
    for i, f in enumerate(fields):
        attrs[f] = property(lambda self, i=i: self[i])
    return type(kind, (tuple,), attrs)
