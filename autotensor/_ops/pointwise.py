"""Pointwise ops: arithmetic, unary math, comparisons and logic, clamp/where, activations,
copies and casts, and their in-place ``_`` variants. Table entries and formula helpers
first, then the public functions.

A formula is ``lambda F, grad, <names>: ...`` (see ``defop`` in dispatch.py and Note [One
formula, two interpretations] in raw.py).
"""
from .. import _dtypes, _errors
from .._backend import np
from .._tensor import _make, Tensor
from ..autograd import inplace
from . import raw
from .dispatch import broadcast_error, defop, record, set_input_metadata
from ._common import (
    SCALAR_OVERLOAD,
    _asarray, _binary, _binary_fn, _broadcastable, _check_tensor_arg, _finish, _inplace_binary,
    _inplace_unary, _scalar_dtype_data, _scalar_to_tensor, _state, _tensor_arg, _unary, _unary_fn)


def pow_backward(F, grad, self, exponent):
    if exponent == 0:
        return F.zeros_like(grad)
    return grad * (exponent * self ** (exponent - 1))


def pow_backward_self(F, grad, self, exponent):
    return F.where(exponent == 0.0, F.zeros_like(grad), grad * (exponent * self ** (exponent - 1)))


def pow_backward_exponent(F, grad, self, exponent, result):
    cond = (self == 0) & (exponent >= 0)
    return grad * F.where(cond, F.zeros_like(result), result * F.log(self))


def pow_backward_exponent_scalar_base(F, grad, self, result):
    if self == 0:
        return F.where(result >= 0, F.zeros_like(grad), grad * result * np.log(self))
    return grad * result * float(np.log(self))


# Elementwise binary ops: inputs (self, other); ``other`` may be a Python scalar.
ADD = defop("add", "AddBackward0", lambda a, b, alpha: a + b if alpha == 1 else a + alpha * b,
            inputs=("self", "other"), params=("alpha",),
            grads={"self": lambda F, grad: grad,
                   "other": lambda F, grad, alpha: grad if alpha == 1 else grad * alpha})


SUB = defop("sub", "SubBackward0", lambda a, b, alpha: a - b if alpha == 1 else a - alpha * b,
            inputs=("self", "other"), params=("alpha",),
            grads={"self": lambda F, grad: grad,
                   "other": lambda F, grad, alpha: -grad if alpha == 1 else grad * -alpha})


RSUB = defop("rsub", "RsubBackward1", lambda a, other, alpha: other - alpha * a
             if alpha != 1 else other - a,
             inputs=("self",), params=("other", "alpha"),
             grads={"self": lambda F, grad, alpha: -grad if alpha == 1 else grad * -alpha})


RSUB_TENSOR = defop("rsub", "RsubBackward0",
                    lambda a, b, alpha: b - a if alpha == 1 else b - alpha * a,
                    inputs=("self", "other"), params=("alpha",),
                    grads={"self": lambda F, grad, alpha: -grad if alpha == 1 else grad * -alpha,
                           "other": lambda F, grad: grad})


MUL = defop("mul", "MulBackward0", np.multiply, inputs=("self", "other"),
            grads={"self": lambda F, grad, other: grad * other,
                   "other": lambda F, grad, self: grad * self})


DIV = defop("div", "DivBackward0", np.true_divide, inputs=("self", "other"),
            grads={"self": lambda F, grad, other: grad / other,
                   "other": lambda F, grad, self, other: -grad * self / (other * other)})


POW_SCALAR = defop("pow", "PowBackward0", lambda a, e: a ** e, params=("exponent",),
                   grads={"self": pow_backward})


POW_TENSOR = defop("pow", "PowBackward1", lambda a, b: a ** b, inputs=("self", "exponent"),
                   grads={"self": pow_backward_self, "exponent": pow_backward_exponent})


POW_SCALAR_BASE = defop("pow", "PowBackward2", lambda e, base: base ** e,
                        inputs=("exponent",), params=("self",),
                        grads={"exponent": pow_backward_exponent_scalar_base})


MAXIMUM = defop("maximum", "MaximumBackward0", raw.maximum, inputs=("self", "other"),
                grads={"self": lambda F, grad, self, other: F.where(
                           self == other, grad / 2, F.masked_fill(grad, self < other, 0)),
                       "other": lambda F, grad, self, other: F.where(
                           self == other, grad / 2, F.masked_fill(grad, self > other, 0))})


MINIMUM = defop("minimum", "MinimumBackward0", raw.minimum, inputs=("self", "other"),
                grads={"self": lambda F, grad, self, other: F.where(
                           self == other, grad / 2, F.masked_fill(grad, self > other, 0)),
                       "other": lambda F, grad, self, other: F.where(
                           self == other, grad / 2, F.masked_fill(grad, self < other, 0))})


WHERE = defop("where", "WhereBackward0", lambda a, b, condition: raw.where(condition, a, b),
              inputs=("self", "other"), params=("condition",),
              grads={"self": lambda F, grad, condition: F.where(condition, grad, 0),
                     "other": lambda F, grad, condition: F.where(condition, 0, grad)})


ADD.kernel_no_alpha, SUB.kernel_no_alpha = np.add, np.subtract


# The Scalar overloads (``tensor * 2.0`` inside a backward formula, where PyTorch's C++
# calls mul.Scalar; user code wraps the number into a tensor and gets the ops above).
ADD_SCALAR = defop("add", "AddBackward1", lambda a, other, alpha: a + alpha * other,
                   params=("other", "alpha"), grads={"self": lambda F, grad: grad})


SUB_SCALAR = defop("sub", "SubBackward1", lambda a, other, alpha: a - alpha * other,
                   params=("other", "alpha"), grads={"self": lambda F, grad: grad})


MUL_SCALAR = defop("mul", "MulBackward1", lambda a, other: a * other, params=("other",),
                   grads={"self": lambda F, grad, other: grad * other})


DIV_SCALAR = defop("div", "DivBackward1", lambda a, other: a / other, params=("other",),
                   grads={"self": lambda F, grad, other: grad / other})


SCALAR_OVERLOAD.update({ADD: ADD_SCALAR, SUB: SUB_SCALAR, MUL: MUL_SCALAR, DIV: DIV_SCALAR})


# Elementwise unary ops.
NEG = defop("neg", "NegBackward0", lambda a: -a, grads={"self": lambda F, grad: -grad})


EXP = defop("exp", "ExpBackward0", np.exp, grads={"self": lambda F, grad, result: grad * result})


LOG = defop("log", "LogBackward0", np.log, grads={"self": lambda F, grad, self: grad / self})


SQRT = defop("sqrt", "SqrtBackward0", np.sqrt,
             grads={"self": lambda F, grad, result: grad / (result * 2)})


ABS = defop("abs", "AbsBackward0", np.abs,
            grads={"self": lambda F, grad, self: grad * F.sgn(self)})


SIN = defop("sin", "SinBackward0", np.sin,
            grads={"self": lambda F, grad, self: grad * F.cos(self)})


COS = defop("cos", "CosBackward0", np.cos,
            grads={"self": lambda F, grad, self: -grad * F.sin(self)})


TANH = defop("tanh", "TanhBackward0", np.tanh,
             grads={"self": lambda F, grad, result: grad * (1 - result * result)})


SIGMOID = defop("sigmoid", "SigmoidBackward0", raw.sigmoid,
                grads={"self": lambda F, grad, result: grad * (result * (1 - result))})


RELU = defop("relu", "ReluBackward0", raw.relu,
             grads={"self": lambda F, grad, result: F.where(result > 0, grad, 0)})


RECIPROCAL = defop("reciprocal", "ReciprocalBackward0", lambda a: 1 / a,
                   grads={"self": lambda F, grad, result: -grad * (result * result)})


CLAMP = defop("clamp", "ClampBackward1", raw.clamp, params=("min", "max"),
              grads={"self": lambda F, grad, self, min, max: F.where(
                  ((self >= min) if min is not None else True)
                  & ((self <= max) if max is not None else True), grad, 0)})


CLAMP_TENSOR = defop(
    "clamp", "ClampBackward0", lambda a, lo, hi: raw.clamp(a, lo, hi),
    inputs=("self", "min", "max"),
    grads={"self": lambda F, grad, self, min, max: F.where(
               ((self >= min) if min is not None else True)
               & ((self <= max) if max is not None else True), grad, 0),
           "min": lambda F, grad, self, min, max: F.where(
               (self < min) & ((min < max) if max is not None else True), grad, 0),
           "max": lambda F, grad, self, min, max: F.where(self > max, grad, 0)})


ZERO_GRAD = {"self": lambda F, grad: F.zeros_like(grad)}  # piecewise-constant ops


FLOOR = defop("floor", "FloorBackward0", np.floor, grads=ZERO_GRAD)


CEIL = defop("ceil", "CeilBackward0", np.ceil, grads=ZERO_GRAD)


ROUND = defop("round", "RoundBackward0", np.round, grads=ZERO_GRAD)


SIGN = defop("sign", "SignBackward0", np.sign, grads=ZERO_GRAD)


SGN = defop("sgn", "SgnBackward0", np.sign, grads=ZERO_GRAD)  # what abs's derivative uses


RSQRT = defop("rsqrt", "RsqrtBackward0", lambda a: 1 / np.sqrt(a),
              grads={"self": lambda F, grad, result: grad * (result * result * result) * -0.5})


REMAINDER = defop("remainder", "RemainderBackward0", lambda a, b: np.mod(a, b),
                  inputs=("self",), params=("other",), grads={"self": lambda F, grad: grad})


FMOD = defop("fmod", "FmodBackward0", lambda a, b: np.fmod(a, b),
             inputs=("self",), params=("other",), grads={"self": lambda F, grad: grad})


REMAINDER_TENSOR = defop(
    "remainder", "RemainderBackward1", np.mod, inputs=("self", "other"),
    grads={"self": lambda F, grad: grad,
           "other": lambda F, grad, self, other: -grad * F.floor(self / other)})


FMOD_TENSOR = defop(
    "fmod", "FmodBackward1", np.fmod, inputs=("self", "other"),
    grads={"self": lambda F, grad: grad,
           "other": lambda F, grad, self, other: -grad * F.trunc(self / other)})


def _not_implemented(name):
    def formula(F, grad):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")
    return formula


FLOOR_DIVIDE = defop("floor_divide", "torch::autograd::NotImplemented", np.floor_divide,
                     inputs=("self", "other"),
                     grads={"self": _not_implemented("floor_divide"),
                            "other": _not_implemented("floor_divide")})


FLOOR_DIVIDE_SCALAR = defop("floor_divide", "torch::autograd::NotImplemented", np.floor_divide,
                            params=("other",), grads={"self": _not_implemented("floor_divide")})


DIV_MODE = defop("div", "DivBackward2", lambda a, b, mode: np.floor_divide(a, b)
                 if mode == "floor" else np.trunc(np.true_divide(a, b)),
                 inputs=("self", "other"),
                 params=("rounding_mode",), grads={"self": lambda F, grad: F.zeros_like(grad),
                                                   "other": lambda F, grad: F.zeros_like(grad)})


DIV_MODE_SCALAR = defop("div", "DivBackward3", None, params=("other", "rounding_mode"),
                        grads={"self": lambda F, grad: F.zeros_like(grad)})


# Copies and casts.
CLONE = defop("clone", "CloneBackward0", raw.clone, grads={"self": lambda F, grad: grad})


TO_COPY = defop("to", "ToCopyBackward0", raw.cast, params=("dtype",),
                grads={"self": lambda F, grad: grad})


# In-place-only ops (their out-of-place forms are other entries).
ZERO = defop("zero_", "ZeroBackward0", None, grads={"self": lambda F, grad: F.zeros_like(grad)})


FILL = defop("fill_", "FillBackward2", None, params=("value",),
             grads={"self": lambda F, grad: F.zeros_like(grad)})


FILL_TENSOR = defop("fill_", "FillBackward3", None, inputs=("self", "value"),
                    grads={"self": lambda F, grad: F.zeros_like(grad),
                           "value": lambda F, grad: F.sum(grad)})


COPY = defop("copy_", "torch::autograd::CopyBackwards", None, inputs=("self", "src"),
             grads={"self": lambda F, grad: F.zeros_like(grad),
                    "src": lambda F, grad: grad})


# ---- arithmetic ---------------------------------------------------------------------------
add = _binary_fn(ADD, "input + alpha * other, broadcasting.", alpha_param=True)


_sub = _binary_fn(SUB, "input - alpha * other, broadcasting.", alpha_param=True)


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
        return _binary(RSUB_TENSOR, input, other, (alpha,))
    d = _scalar_dtype_data(input._data, other)
    out = _asarray(RSUB.kernel(d, other, alpha))
    if _state.enabled and input._requires_grad:
        return record(RSUB, (input,), (other, alpha), out)
    return _make(out)


mul = _binary_fn(MUL, "input * other, broadcasting.")


multiply = mul


def div(input, other, *, rounding_mode=None, out=None):
    if rounding_mode is not None:
        if rounding_mode not in ("floor", "trunc"):
            raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or "
                               f"'floor' but found '{rounding_mode}'")
        a = input if isinstance(input, Tensor) else _scalar_to_tensor(input, other)
        if isinstance(other, Tensor):
            return _binary(DIV_MODE, a, other, (rounding_mode,))
        d = _scalar_dtype_data(a._data, other)
        q = _asarray(DIV_MODE.kernel(d, other, rounding_mode)).astype(d.dtype, copy=False)
        return _finish(DIV_MODE_SCALAR, (a,), (other, rounding_mode), q)
    a = input if isinstance(input, Tensor) else _scalar_to_tensor(input, other)
    b = other
    if a._data.dtype.kind in "biu" and (
            (isinstance(b, Tensor) and b._data.dtype.kind in "biu") or
            isinstance(b, (int, bool))):
        a = _to_dtype(a, _dtypes.default_float)
    return _binary(DIV, a, b)


divide = true_divide = div


def floor_divide(input, other):
    """Floor of the quotient; its derivative is not implemented (as in PyTorch)."""
    a = input if isinstance(input, Tensor) else _scalar_to_tensor(input, other)
    if isinstance(other, Tensor):
        r = _binary(FLOOR_DIVIDE, a, other)
        node = r._grad_fn
        if node is not None:  # NotImplemented keeps edges only to inputs requiring grad
            node._next = tuple(e for e in node._next if e[0] is not None)
        return r
    d = _scalar_dtype_data(a._data, other)
    out = _asarray(np.floor_divide(d, other)).astype(d.dtype, copy=False)
    return _finish(FLOOR_DIVIDE_SCALAR, (a,), (other,), out)


def _mod(op, tensor_op, input, other):
    a = input if isinstance(input, Tensor) else _scalar_to_tensor(input, other)
    if isinstance(other, Tensor):
        return _binary(tensor_op, a, other)
    d = _scalar_dtype_data(a._data, other)
    return _finish(op, (a,), (other,), _asarray(op.kernel(d, other)))


def remainder(input, other):
    """Python's modulo (the sign of the divisor)."""
    return _mod(REMAINDER, REMAINDER_TENSOR, input, other)


def fmod(input, other):
    """C's fmod (the sign of the dividend)."""
    return _mod(FMOD, FMOD_TENSOR, input, other)


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
    return _unary(NEG, input, float_op=False)


negative = neg


def pow(input, exponent):
    if not isinstance(input, Tensor):
        # scalar ** tensor
        e = exponent
        d = e._data
        if isinstance(input, float) and d.dtype.kind in "biu":
            d = d.astype(_dtypes.default_float.np)
        out = _asarray(POW_SCALAR_BASE.kernel(d, input))
        if _state.enabled and e._requires_grad:
            return record(POW_SCALAR_BASE, (e,), (input,), out)
        return _make(out)
    if isinstance(exponent, Tensor):
        if input._data.dtype == np.bool_ and exponent._data.dtype == np.bool_:
            raise NotImplementedError("\"pow\" not implemented for 'Bool'")
        return _binary(POW_TENSOR, input, exponent)
    d = input._data
    if isinstance(exponent, float) and d.dtype.kind in "biu":
        d = d.astype(_dtypes.default_float.np)
    elif d.dtype == np.bool_:
        d = d.astype(np.int64)  # bool ** int promotes like bool + int
    elif isinstance(exponent, int) and d.dtype.kind in "iu" and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    out = _asarray(d ** exponent if exponent != 2 else d * d)
    if _state.enabled and input._requires_grad:
        return record(POW_SCALAR, (input,), (exponent,), out)
    return _make(out)


def square(input):
    return pow(input, 2)


exp = _unary_fn(EXP, "Elementwise exp.")


log = _unary_fn(LOG, "Elementwise log.")


sqrt = _unary_fn(SQRT, "Elementwise sqrt.")


rsqrt = _unary_fn(RSQRT, "Elementwise 1 / sqrt.")


abs = _unary_fn(ABS, "Elementwise abs.", float_op=False)


absolute = abs


sin = _unary_fn(SIN, "Elementwise sin.")


cos = _unary_fn(COS, "Elementwise cos.")


tanh = _unary_fn(TANH, "Elementwise tanh.")


sigmoid = _unary_fn(SIGMOID, "Elementwise sigmoid.")


relu = _unary_fn(RELU, "Elementwise relu.", float_op=False)


reciprocal = _unary_fn(RECIPROCAL, "Elementwise reciprocal.")


sign = _unary_fn(SIGN, "Elementwise sign (-1, 0 or 1).", float_op=False)


floor = _unary_fn(FLOOR, "Elementwise floor.", float_op=False)


ceil = _unary_fn(CEIL, "Elementwise ceil.", float_op=False)


_round = _unary_fn(ROUND, "Elementwise round (half to even).", float_op=False)


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
        out = _asarray(CLAMP_TENSOR.kernel(input._data, None if lo is None else lo._data,
                                             None if hi is None else hi._data))
        r = _finish(CLAMP_TENSOR, (input, lo, hi), (), out)
        if r._grad_fn is not None:
            set_input_metadata(r._grad_fn, (input, lo, hi), out.shape, out.dtype)
        return r
    d = input._data
    if d.dtype.kind in "biu" and (isinstance(min, float) or isinstance(max, float)):
        d = d.astype(_dtypes.default_float.np)
    out = CLAMP.kernel(d, min, max)
    return _finish(CLAMP, (input,), (min, max), _asarray(out).astype(d.dtype, copy=False))


clip = clamp


def clamp_min(input, min):
    return clamp(input, min=min)


def clamp_max(input, max):
    return clamp(input, max=max)


def maximum(input, other):
    _check_tensor_arg("maximum", "other", other, 1)
    return _binary(MAXIMUM, input, other)


def minimum(input, other):
    _check_tensor_arg("minimum", "other", other, 1)
    return _binary(MINIMUM, input, other)


def where(condition, input=None, other=None):
    if input is None and other is None:
        from .indexing import nonzero  # indexing builds on this module
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
    return _binary(WHERE, input, other, (cond,))


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


# ---- copies and dtype conversion -----------------------------------------------------------
def clone(input, *, memory_format=None):
    r = _finish(CLONE, (input,), (), input._data.copy())
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
        r = record(TO_COPY, (input,), (dtype,), out)
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
        from .._devices import check
        check(device)
    if dtype is None:
        return clone(input) if copy else input
    return _to_dtype(input, dtype, copy)


def type_as(input, other):
    return _to_dtype(input, other.dtype)


def contiguous(input, memory_format=None):
    if input.is_contiguous():
        return input
    return _finish(CLONE, (input,), (), np.ascontiguousarray(input._data))


def zeros_like_(t):
    return _make(np.zeros_like(t._data))


# ---- in-place variants -------------------------------------------------------------------
def add_(self, other, *, alpha=1):
    return _inplace_binary(ADD, self, other, (alpha,))


def sub_(self, other, *, alpha=1):
    if _is_bool(self) or _is_bool(other):
        inplace.check_inplace(self)  # PyTorch reports a leaf first
        _check_bool_sub(self, other)
    return _inplace_binary(SUB, self, other, (alpha,))


def mul_(self, other):
    return _inplace_binary(MUL, self, other)


def div_(self, other, *, rounding_mode=None):
    if rounding_mode is not None:
        return copy_(self, div(self, other, rounding_mode=rounding_mode))
    if self._data.dtype.kind in "biu":
        raise RuntimeError("result type Float can't be cast to the desired output type " +
                           _dtypes.scalar_name(self.dtype))
    return _inplace_binary(DIV, self, other)


def pow_(self, exponent):
    if isinstance(exponent, Tensor):
        return _inplace_binary(POW_TENSOR, self, exponent)
    value = _asarray(self._data ** exponent)
    return inplace.record_inplace(POW_SCALAR, self, (self,), (exponent,), value)


def neg_(self):
    if self._data.dtype == np.bool_:
        neg(self)  # raises PyTorch's error for bool negation
    return _inplace_unary(NEG, self)


def abs_(self):
    return _inplace_unary(ABS, self)


def exp_(self):
    return _inplace_unary(EXP, self)


def log_(self):
    return _inplace_unary(LOG, self)


def sqrt_(self):
    return _inplace_unary(SQRT, self)


def sin_(self):
    return _inplace_unary(SIN, self)


def cos_(self):
    return _inplace_unary(COS, self)


def tanh_(self):
    return _inplace_unary(TANH, self)


def sigmoid_(self):
    return _inplace_unary(SIGMOID, self)


def relu_(self):
    return _inplace_unary(RELU, self)


def reciprocal_(self):
    return _inplace_unary(RECIPROCAL, self)


def clamp_(self, min=None, max=None):
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return copy_(self, clamp(self, min, max))
    return _inplace_unary(CLAMP, self, (min, max))


clip_ = clamp_


def zero_(self):
    return inplace.record_inplace(ZERO, self, (self,), (), np.zeros_like(self._data))


def fill_(self, value):
    if isinstance(value, Tensor):
        if value._data.ndim != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {value._data.ndim} dimensions.")
        new = np.broadcast_to(value._data, self._data.shape).astype(self._data.dtype)
        return inplace.record_inplace(FILL_TENSOR, self, (self, value), (), new)
    _check_fits(value, self._data.dtype)
    return inplace.record_inplace(FILL, self, (self,), (value,),
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
    return inplace.record_inplace(COPY, self, (self, src), (), value)
