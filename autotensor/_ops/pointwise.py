"""Pointwise ops: arithmetic, unary math, comparisons and logic, clamp/where, activations,
copies and casts, and their in-place ``_`` variants. Table entries and formula helpers
first, then the public functions.

A formula is ``lambda F, grad, <names>: ...`` (see ``defop`` in dispatch.py and Note [One
formula, two interpretations] in raw.py).
"""
import builtins
import functools
import math

from .. import _argparse, _convert, _dtypes, _errors
from .. import _memory_format as _mf
from .._backend import np
from .._tensor import _make, Tensor, device as _device
from ..autograd import forward_ad, grad_mode, inplace
from . import _specfun, layout, raw
from .aliasing import aliased_value
from ..autograd.forward_ad import fallback_checks, refuse_unsupported
from .dispatch import (
    broadcast_error, check_broadcast, defop, plus_zero_term, record, set_input_metadata,
    stale_view_requires_grad, view_errors_before_checks, view_errors_first)
from ._common import (
    SCALAR_OVERLOAD, _no_graph, _wrap_dim, inplace_float_kernel, inplace_iter_checks,
    _asarray, _binary, _binary_fn, _broadcastable, _check_alpha, _check_int_scalar, _negated,
    _check_tensor_arg, _finish, _guard_index,
    _inplace_binary, _fit_int, _inplace_unary, _keep_real_grads, _scalar_dtype_data,
    _scalar_operand, _scalar_to_tensor, _state, refuse_complex, refuse_half,
    _tensor_arg, _unary, _unary_fn, _SCALARS)


def pow_backward(F, grad, self, exponent):
    if exponent == 0 and exponent is not False:  # (PyTorch's Scalar equal(0.0) is false
        return F.zeros_like(self)  # for a bool: 0 * x^-1, a signed zero; zeros_like(self):
        # in self's dtype, which a tangent of another dtype does not change)
    # (F.pow: PyTorch's pow.Tensor_Scalar, so x ** -0.5 is rsqrt: NaN at -inf, not 0)
    return F.mul(grad, F.mul(exponent, F.pow(self, exponent - 1)))


def pow_backward_self(F, grad, self, exponent):
    if _dt(exponent) == np.bool_:  # (its exponent - 1)
        raise RuntimeError(_BOOL_SUB)
    return F.where(exponent == 0.0, F.zeros_like(grad),
                   F.mul(grad, F.mul(exponent, F.pow(self, exponent - 1))))


def pow_backward_exponent(F, grad, self, exponent, result):
    if (exponent if F.is_raw else exponent._data).dtype.kind == "c":
        from .complex_ops import cx  # (PyTorch's: a real, non-negative complex exponent)
        nonneg = (cx(F).imag(exponent) == 0) & (cx(F).real(exponent) >= 0)
    else:
        nonneg = exponent >= 0
    cond = (self == 0) & nonneg
    # (PyTorch's self.to(result_type(self, exponent)) before the log: float16 ** float32
    # takes the log in float32, stop 20's end_repro_005; also in place, where the result
    # keeps self's float16: stop 24's start_repro_004)
    promoted = _promoted(self, exponent)
    self_ = F.cast(self, promoted) if _dt(self) != promoted else self
    return grad * F.where(cond, F.zeros_like(result), result * F.log(self_))


def _dt(x):
    return getattr(x, "_data", x).dtype


def _promoted(x, y):
    """result_type(x, y) of two tensors (or arrays), as a NumPy dtype."""
    xd, yd = getattr(x, "_data", x), getattr(y, "_data", y)
    if xd.dtype == yd.dtype:
        return xd.dtype
    return _dtypes.binary_result_dtype(_dtypes.from_numpy(xd.dtype), xd.ndim == 0,
                                       _dtypes.from_numpy(yd.dtype), yd.ndim == 0).np


def pow_backward_exponent_scalar_base(F, grad, self, result):
    log_base = complex(np.log(complex(self))) if isinstance(self, complex) else \
        float(np.log(self))
    if self == 0:  # PyTorch: grad * where(exponent >= 0, 0, result * log(0)); for base 0,
        # exponent >= 0 is where the result is 0 or 1 (a negative one gives inf, nan nan)
        return grad * F.where((result == 0) | (result == 1), F.zeros_like(result),
                              result * log_base)
    return grad * (result * log_base)  # (PyTorch's grouping: MulBackward0 last)

def _fw_not_implemented(name, why="."):
    """The jvp rule of an op PyTorch gives no forward derivative (its error, verbatim)."""
    message = f"Trying to use forward AD with {name} that does not support it{why}"

    def rule(F, self):
        raise NotImplementedError(message)
    rule.message = message
    return rule


# Elementwise binary ops: inputs (self, other); ``other`` may be a Python scalar.
#
# Note [Complex alpha]: aten's add kernel computes ``self + alpha * other`` for every alpha,
# 1 included, and for a complex result alpha is a complex number: (1+0j) * other's cross
# terms turn an infinite component into NaN, and can flip a zero's sign, where a plain
# a + b would not (complex(1, 0) + complex(inf, 0) is inf+nanj in PyTorch; 1,356 of 2,401
# pairs of special values differ from a plain sum, none from NumPy's complex product).
# sub and rsub are add with -alpha.
def _add(a, b, alpha):
    if a.dtype.kind == "c":  # (operands promoted already: Note [Complex alpha])
        return a + np.multiply(b, alpha, dtype=a.dtype)
    if alpha == 1:
        return a + b
    if a.dtype == np.bool_:  # (operands promoted already) a bool result: alpha is a bool too
        return a | (b & bool(alpha))
    if a.dtype.kind in "fV":  # (one rounding: Note [Fused add] in raw.py)
        return raw.add_alpha(a, b, alpha)
    return a + _times_alpha(b, alpha, a)


def _sub(a, b, alpha):
    if a.dtype.kind == "c":  # (Note [Complex alpha])
        return a + np.multiply(b, -alpha, dtype=a.dtype)
    if alpha == 1:
        return a - b
    return raw.add_alpha(a, b, -alpha) if a.dtype.kind in "fV" else \
        a - _times_alpha(b, alpha, a)


def _times_alpha(b, alpha, a):
    """alpha * b for a Python number b; on an integer tensor the product wraps in its dtype
    as PyTorch's integer arithmetic does (``int64.add(2**40 + 1, alpha=2**40 + 1)``)."""
    if alpha.__class__ is int and a.dtype.kind in "iu":
        alpha = _fit_int(alpha, a.dtype)  # (c10::Scalar::to<T>: -7 is 249 for uint8)
    p = alpha * b
    if p.__class__ is int and a.dtype.kind in "iu":
        bits = a.dtype.itemsize * 8
        p &= (1 << bits) - 1
        if a.dtype.kind == "i" and p >> (bits - 1):
            p -= 1 << bits
    return p


ADD = defop("add", "AddBackward0", _add,
            inputs=("self", "other"), params=("alpha",),
            grads={"self": lambda F, grad: grad,
                   "other": lambda F, grad, alpha: grad if alpha == 1 else grad * alpha},
            jvp="elementwise")
SUB = defop("sub", "SubBackward0", _sub,
            inputs=("self", "other"), params=("alpha",),
            grads={"self": lambda F, grad: grad,
                   "other": lambda F, grad, alpha: -grad if alpha == 1 else -grad * alpha},
            jvp="elementwise")
def _rsub(a, other, alpha):
    """other - alpha * a: PyTorch's add(other, a, -alpha) (Note [Fused add] in raw.py)."""
    if a.dtype.kind == "c":  # (operands promoted already: Note [Complex alpha])
        return np.asarray(other, a.dtype) + np.multiply(a, -alpha, dtype=a.dtype)
    if alpha == 1:
        return other - a
    if a.dtype.kind in "fV":
        return raw.add_alpha(np.asarray(other, a.dtype), a, -alpha)
    return other - _times_alpha(a, alpha, a)  # (wrapping: uint8's alpha=-1 is 255)


RSUB = defop("rsub", "RsubBackward1", _rsub,
             inputs=("self",), params=("other", "alpha"),
             grads={"self": lambda F, grad, alpha: -grad if alpha == 1 else -grad * alpha},
             jvp="elementwise", layout="iter_scalar")
RSUB_TENSOR = defop("rsub", "RsubBackward0", _rsub,
                    inputs=("self", "other"), params=("alpha",),
                    grads={"self": lambda F, grad, alpha: -grad if alpha == 1 else -grad * alpha,
                           "other": lambda F, grad: grad},
                    jvp="elementwise", layout=layout.reversed_operands)
def _wrapped(op, grad, number):
    """``grad * other`` (``grad / other``) in a graph of the backward when ``other`` is a
    Python number the user gave a Tensor overload (``x * 2.0``): PyTorch wrapped it into a
    tensor, so its formula records mul.Tensor (MulBackward0), computed as the user's op is,
    not the Scalar overload (MulBackward1) a number written in a formula gives."""
    prev = _state.in_formula
    _state.in_formula = False
    try:
        return op(grad, number)
    finally:
        _state.in_formula = prev


MUL = defop("mul", "MulBackward0", np.multiply, inputs=("self", "other"),
            grads={"self": lambda F, grad, other: F.mul(grad, other) if F.is_raw else
                   grad * other if other.__class__ is Tensor else _wrapped(mul, grad, other),
                   "other": lambda F, grad, self: F.mul(grad, self)},
            jvp="elementwise")
def _div_jvp(F, self_t, other_t, other, result):
    """PyTorch's ``(self_t - other_t * result) / other_p``: in place (``x.div_(x)``) it
    reads result and other after the write (Note [In-place rules read aliased inputs after
    the write]), so it is not the backward formulas' self_t / other - other_t * self / other**2."""
    from .dispatch import _is_zero_tangent
    if self_t is not None and other_t is not None and _is_zero_tangent(other_t):
        # (PyTorch's ZeroTensor kernels: ZT * result is one, self_t - ZT is self_t; a
        # zero-tensor self_t: ZT - y is y * -1, a -0.0 where y is +0.0; Note [Zero-tensor
        # tangents] in dispatch.py)
        return self_t / other
    if other_t is None:
        num = self_t
        if result.requires_grad and not self_t.requires_grad:
            num = plus_zero_term(num, result * 0)  # (the zero other_t * result term)
        from .dispatch import _zero_term
        term = _zero_term((other, result), 0, (1,))  # (its dtype: x_t / 2 of a float64
        if term is not None:  # primal's float32 tangent is float64)
            dt = _dtypes.binary_result_dtype(num.dtype, num._data.ndim == 0, *term)
            if dt.np != num._data.dtype and dt.np.kind in "fc":
                num = F.cast(num, dt.np)
    else:
        num = other_t * result
        num = -num if self_t is None or _is_zero_tangent(self_t) else self_t - num
    return num / other


_DIV_GRADS = {"self": lambda F, grad, other: F.div(grad, other) if F.is_raw else
              grad / other if other.__class__ is Tensor else _wrapped(div, grad, other),
              # PyTorch's div_tensor_other_backward, in its order (same rounding)
              "other": lambda F, grad, self, other: F.mul(-grad,
                                                          F.div(F.div(self, other), other))}
DIV = defop("div", "DivBackward0", np.true_divide, inputs=("self", "other"),
            grads=_DIV_GRADS, jvp=_div_jvp)
# div(..., rounding_mode=None) with the keyword given: PyTorch's binding picks
# div.Tensor_mode, whose formulas for no mode are div.Tensor's
DIV_NO_MODE = defop("div", "DivBackward2", np.true_divide, inputs=("self", "other"),
                    grads=_DIV_GRADS, jvp=_div_jvp)


# (Note [Complex kernels] in raw.py: complex operands take PyTorch's complex kernels; real
# ones keep the NumPy ufunc, at no cost to them)
MUL.complex_kernel = raw.mul
DIV.complex_kernel = DIV_NO_MODE.complex_kernel = raw.true_divide
MUL.complex_inplace_kernel = functools.partial(raw.mul, kind="mul_")
DIV.complex_inplace_kernel = DIV_NO_MODE.complex_inplace_kernel = functools.partial(
    raw.true_divide, kind="div_")


class _NoMode:
    """The default of div's rounding_mode (None when not given: div.Tensor)."""

    def __repr__(self):
        return "None"


NO_MODE = _NoMode()
POW_SCALAR = defop("pow", "PowBackward0", raw.pow_scalar, params=("exponent",),
                   grads={"self": pow_backward},
                   jvp="elementwise")
POW_TENSOR = defop("pow", "PowBackward1", lambda a, b: raw.int_pow(a, b)
                   if a.dtype.kind in "iu" and b.dtype.kind in "iu" else raw.pow_tensor(a, b),
                   inputs=("self", "exponent"),
                   grads={"self": pow_backward_self, "exponent": pow_backward_exponent},
                   jvp="elementwise")
# Note [Dense zero terms]: an elementwise rule's term for an input without a tangent is
# PyTorch's formula applied to a zero tensor; most formulas keep it a zero tensor (times
# anything, it is dropped from the sum), but a where() over it materializes real zeros, which
# the sum then adds: +0.0, turning a -0.0 of the other terms into +0.0, and laid out as that
# kernel lays them out, which decides the sum's strides where the term comes first.
# ``dense_zero_terms`` maps such inputs (by position) to the term's function of the zero
# tensor, or None for the formula itself (dispatch._dense_zero_terms).
def _pow_self_zero_term(F, zero, self, exponent):
    """pow_backward_self of a zero tensor: ``where(exponent == 0, zeros({}), grad * ...)``,
    the product a zero tensor again (ZeroTensor's mul: the broadcast shape, the promoted
    dtype) that where materializes."""
    shape = np.broadcast_shapes(_dt_shape(self), _dt_shape(exponent))
    product = _make(np.broadcast_to(np.zeros((), _promoted(self, exponent)), shape))
    return F.where(exponent == 0.0, _make(np.zeros((), _dt(zero))), product)


def _dt_shape(x):
    return getattr(x, "_data", x).shape


POW_TENSOR.dense_zero_terms = {0: _pow_self_zero_term}
# Note [Real input terms]: pow's forward rule is its backward functions on the tangents,
# ``(pow_backward_self(self_t.conj(), ...) + pow_backward_exponent(exponent_t.conj(),
# ...)).conj()``, and each ends in handle_r_to_c: the term of a real input of a complex
# pow is its real part (x ** y of complex64 x, float32 dual y: a tangent whose imaginary
# part is 0, not y_t * log(x) * x ** y). Ops whose rule is so set ``real_input_terms``.
POW_TENSOR.real_input_terms = True


def _pow_scalar_base(e, base):
    if e.dtype.kind in "iu" and base.__class__ in (int, bool):
        # (an integer power, as PyTorch's powi: True ** -4 is 1, 2 ** -1 is 0)
        return raw.int_pow(np.asarray(base).astype(e.dtype), e)
    if e.dtype.kind == "c":
        return raw.complex_pow(np.asarray(base, e.dtype), e)
    if e.dtype == np.float32 and base.__class__ in (int, float, bool):
        # (pow.Tensor_Tensor's kernels with a 0-d base, Note [SLEEF's powf]; 2 ** e is
        # ldexp's tangent factor. The scalar first converted to the op's float32, as its
        # kernel takes it: 1e-310 is 0 there, and 1e-310 ** -0.036 is inf)
        with np.errstate(all="ignore"):
            b = np.float32(base)
        return raw.pow(b, e)
    if e.dtype == np.float64 and base.__class__ in (int, float, bool):
        return raw.pow(float(base), e)  # (Note [SLEEF's pow])
    return base ** e


POW_SCALAR_BASE = defop("pow", "PowBackward2", _pow_scalar_base,
                        inputs=("exponent",), params=("self",),
                        grads={"exponent": pow_backward_exponent_scalar_base},
                        jvp="elementwise", layout="contiguous",
                        saves={"exponent": ("exponent",)})
def _blend_jvp(weight):
    """PyTorch's rule for maximum/minimum/fmax/fmin, ``other_t + w * (self_t - other_t)``
    with w the weight of self (0.5 at a tie of maximum/minimum), evaluated as its zero
    tensors do for a missing tangent (adding one, or subtracting it, changes nothing; times
    one is zero), so its zeros have PyTorch's signs (``w * self_t`` is -0.0 for a negative
    self_t where other wins)."""
    def rule(F, self, self_t, other, other_t, result):
        w = weight(F, self, other, result)
        if other_t is None:
            out = w * self_t
        elif self_t is None:
            out = other_t + w * F.neg(other_t)
        else:
            return other_t + w * (self_t - other_t)
        # (the missing tangent is a zero tensor of its primal in PyTorch's expression:
        # the values above, the dtype its promotions give)
        a, b = self if self_t is None else self_t, other if other_t is None else other_t
        a0, b0 = a._data.ndim == 0, b._data.ndim == 0
        inner = _dtypes.binary_result_dtype(a.dtype, a0, b.dtype, b0)
        w0 = w._data.ndim == 0  # (w has the result's dtype: it promotes the product too)
        inner = _dtypes.binary_result_dtype(w.dtype, w0, inner, a0 and b0)
        dt = _dtypes.binary_result_dtype(b.dtype, b0, inner, a0 and b0 and w0)
        return out if dt.np == out._data.dtype else F.cast(out, dt.np)
    return rule


def _weight(pick):
    def weight(F, self, other, result):
        return F.where(self == other, 0.5, F.cast(pick(self, other), result._data.dtype))
    return weight


def _max_min_grad(loses):
    """PyTorch's maximum/minimum backward, ``where(self == other, grad / 2, grad)
    .masked_fill_(loses(self, other), 0)`` (its graph: MaskedFill(Where(Div)))."""
    def grad_fn(F, grad, self, other):
        return F.masked_fill(F.where(self == other, grad / 2, grad), loses(self, other), 0)
    return grad_fn


MAXIMUM = defop("maximum", "MaximumBackward0", raw.maximum, inputs=("self", "other"),
                grads={"self": _max_min_grad(lambda s, o: s < o),
                       "other": _max_min_grad(lambda s, o: s > o)},
                jvp=_blend_jvp(_weight(lambda a, b: a > b)))
MINIMUM = defop("minimum", "MinimumBackward0", raw.minimum, inputs=("self", "other"),
                grads={"self": _max_min_grad(lambda s, o: s > o),
                       "other": _max_min_grad(lambda s, o: s < o)},
                jvp=_blend_jvp(_weight(lambda a, b: a < b)))
WHERE = defop("where", "WhereBackward0", lambda a, b, condition: raw.where(condition, a, b),
              inputs=("self", "other"), params=("condition",),
              grads={"self": lambda F, grad, condition: F.where(condition, grad, 0),
                     "other": lambda F, grad, condition: F.where(condition, 0, grad)},
              jvp=lambda F, self, self_t, other, other_t, condition: _where_jvp(
                  F, self, self_t, other, other_t, condition), layout=layout.condition_first)


def _where_jvp(F, self, self_t, other, other_t, condition):
    """PyTorch's where(condition, self_t, other_t), a missing tangent a zero tensor of its
    primal's dtype: one where(), not a sum of two masked terms (whose +0.0 would turn a
    selected -0.0 into +0.0), in where()'s result dtype (0-d operands promote weakly)."""
    if self_t is None:
        self_t = F.zeros_like(self)
    if other_t is None:
        other_t = F.zeros_like(other)
    return F.where(condition, self_t, other_t)


ADD.kernel_no_alpha, SUB.kernel_no_alpha = np.add, np.subtract
# (Note [Scaled zero term] in dispatch.py: other's zero tensor times alpha promotes)
ADD.scaled_zero_terms = SUB.scaled_zero_terms = ((1, (), 0),)
# (their rules' terms of a missing tangent's zero tensor times primals: Note [Scaled zero
# term] in dispatch.py, _zero_term)
MUL.zero_terms = ((1, (0,)), (0, (1,)))


# The Scalar overloads (``tensor * 2.0`` inside a backward formula, where PyTorch's C++
# calls mul.Scalar; user code wraps the number into a tensor and gets the ops above).
ADD_SCALAR = defop("add", "AddBackward1", lambda a, other, alpha: a + alpha * other,
                   params=("other", "alpha"), grads={"self": lambda F, grad: grad},
                   jvp="elementwise")
SUB_SCALAR = defop("sub", "SubBackward1", lambda a, other, alpha: a - alpha * other,
                   params=("other", "alpha"), grads={"self": lambda F, grad: grad},
                   jvp="elementwise")
MUL_SCALAR = defop("mul", "MulBackward1", raw.mul, params=("other",),
                   grads={"self": lambda F, grad, other: F.mul(grad, other)},
                   jvp="elementwise")
DIV_SCALAR = defop("div", "DivBackward1", raw.true_divide, params=("other",),
                   grads={"self": lambda F, grad, other: F.div(grad, other)},
                   jvp="elementwise")


SCALAR_OVERLOAD.update({ADD: ADD_SCALAR, SUB: SUB_SCALAR, MUL: MUL_SCALAR, DIV: DIV_SCALAR})


# Elementwise unary ops.
NEG = defop("neg", "NegBackward0", lambda a: -a, grads={"self": lambda F, grad: -grad},
            jvp="elementwise")
# Note [Zero-tensor tangents] in dispatch.py: PyTorch's neg is auto_linear (no zero-tensor
# kernel: -0.0), its div rule divides a zero tensor (+0.0)
NEG.keeps_zero_tangent = RSUB.keeps_zero_tangent = False
DIV.keeps_zero_tangent = DIV_NO_MODE.keeps_zero_tangent = True
EXP = defop("exp", "ExpBackward0", raw.exp,
            grads={"self": lambda F, grad, result: F.mul(grad, result)},
            jvp="elementwise")
LOG = defop("log", "LogBackward0", raw.log,
            grads={"self": lambda F, grad, self: F.div(grad, self)},
            jvp="elementwise")
SQRT = defop("sqrt", "SqrtBackward0", raw.sqrt,
             grads={"self": lambda F, grad, result: F.div(grad, result * 2)},
             jvp="elementwise")
def _abs_jvp(F, self, self_t):
    """Re(conj(t) sgn(z)) for a complex input (a real tangent), t sgn(x) for a real one."""
    if self._data.dtype.kind == "c":
        from .complex_ops import cx
        c = cx(F)
        return c.real(c.conj(self_t) * F.sgn(self))
    return self_t * F.sgn(self)


ABS = defop("abs", "AbsBackward0", raw.abs,
            grads={"self": lambda F, grad, self: grad * F.sgn(self)},
            jvp=_abs_jvp)
ABS.real_kernel = np.abs  # (Note [Complex kernels] in raw.py)
SIN = defop("sin", "SinBackward0", raw.sin,
            grads={"self": lambda F, grad, self: F.mul(grad, F.cos(self))},
            jvp="elementwise")
COS = defop("cos", "CosBackward0", raw.cos,
            grads={"self": lambda F, grad, self: F.mul(grad, -F.sin(self))},  # (its order)
            jvp="elementwise")
TANH = defop("tanh", "TanhBackward0", raw.tanh,
             grads={"self": lambda F, grad, result: F.tanh_backward(grad, result)},
             jvp="elementwise")
SIGMOID = defop("sigmoid", "SigmoidBackward0", raw.sigmoid,
                grads={"self": lambda F, grad, result: F.sigmoid_backward(grad, result)},
                jvp="elementwise")
RELU = defop("relu", "ReluBackward0", raw.relu,
             grads={"self": lambda F, grad, result: F.threshold_backward(grad, result, 0)},
             jvp="elementwise")
# Their backward formulas are ops of their own, as in PyTorch (derivatives.yaml), so a graph
# of the backward (create_graph=True) has PyTorch's nodes: TanhBackwardBackward0, ...
TANH_BACKWARD = defop(
    "tanh_backward", "TanhBackwardBackward0", raw.tanh_backward,
    inputs=("grad_output", "output"),
    grads={"grad_output": lambda F, grad, output: F.tanh_backward(grad, output),
           "output": lambda F, grad, grad_output, output: grad * (-2 * output * grad_output)},
    jvp="elementwise")
SIGMOID_BACKWARD = defop(
    "sigmoid_backward", "SigmoidBackwardBackward0", raw.sigmoid_backward,
    inputs=("grad_output", "output"),
    grads={"grad_output": lambda F, grad, output: F.sigmoid_backward(grad, output),
           "output": lambda F, grad, grad_output, output:
           grad * grad_output * (-2 * output + 1)},
    jvp="elementwise")
# (Note [Dense zero terms]: the forward rules ``tanh_backward(grad_output_t, output_p) +
# output_t * ...`` run the backward op on grad_output's zero tensor, which materializes it)
TANH_BACKWARD.dense_zero_terms = SIGMOID_BACKWARD.dense_zero_terms = {0: None}
THRESHOLD_BACKWARD = defop(
    "threshold_backward", "ThresholdBackwardBackward0", raw.threshold_backward,
    inputs=("grad_output", "self"), params=("threshold",),
    grads={"grad_output": lambda F, grad, self, threshold:
           F.threshold_backward(grad, self, threshold),
           "self": lambda F, grad: F.zeros_like(grad)},
    jvp="elementwise", layout="iter")
RECIPROCAL = defop("reciprocal", "ReciprocalBackward0",
                   lambda a: raw.reciprocal(a) if a.dtype.kind == "c" else 1 / a,
                   grads={"self": lambda F, grad, result: F.mul(-grad, F.mul(result, result))},
                   jvp="elementwise")
CLAMP = defop("clamp", "ClampBackward1", raw.clamp, params=("min", "max"),
              grads={"self": lambda F, grad, self, min, max: F.where(
                  ((self >= min) if min is not None else True)
                  & ((self <= max) if max is not None else True), grad, 0)},
              jvp="elementwise")
def _pick_tangents(F, *cases):
    """``where(c1, t1, where(c2, t2, ... t_last))`` over (condition, primal, tangent) cases,
    a missing tangent read as zeros of its primal (PyTorch's zero tensor): the tangent of
    the input the result was taken from, as PyTorch's clamp rules pick it (a comparison
    with NaN is false, so a NaN bound's tangent comes from the branch that falls through)."""
    *conds, (_, last_p, last_t) = cases
    out = last_t if last_t is not None else F.zeros_like(last_p)
    for cond, p, t in reversed(conds):
        out = F.where(cond, t if t is not None else F.zeros_like(p), out)
    return out


def _clamp_tensor_jvp(F, self, self_t, min, min_t, max, max_t):
    """PyTorch's clamp_jvp."""
    if min is not None and max is not None:
        return _pick_tangents(F, (min > max, max, max_t), (self < min, min, min_t),
                              (self > max, max, max_t), (None, self, self_t))
    if min is not None:
        return _pick_tangents(F, (self > min, self, self_t), (None, min, min_t))
    return _pick_tangents(F, (self < max, self, self_t), (None, max, max_t))


CLAMP_TENSOR = defop(
    "clamp", "ClampBackward0", lambda a, lo, hi: raw.clamp(a, lo, hi),
    inputs=("self", "min", "max"),
    grads={"self": lambda F, grad, self, min, max: F.where(
               ((self >= min) if min is not None else True)
               & ((self <= max) if max is not None else True), grad, 0),
           "min": lambda F, grad, self, min, max: F.where(
               (self < min) & ((min < max) if max is not None else True), grad, 0),
           "max": lambda F, grad, self, min, max: F.where(
               (self > max) | ((max < min) if min is not None else False), grad, 0)},
    jvp=_clamp_tensor_jvp, layout="iter")


ZERO_GRAD = {"self": lambda F, grad: F.zeros_like(grad)}  # piecewise-constant ops
FLOOR = defop("floor", "FloorBackward0", np.floor, grads=ZERO_GRAD,
              jvp="elementwise")
CEIL = defop("ceil", "CeilBackward0", np.ceil, grads=ZERO_GRAD,
             jvp="elementwise")
ROUND = defop("round", "RoundBackward0", np.round, grads=ZERO_GRAD,
              jvp="elementwise")


def _sign(a):
    """PyTorch's sign: 0 for NaN and for -0.0; bool stays bool."""
    if a.dtype == np.bool_:
        return a.copy()
    return (a > 0).astype(a.dtype) - (a < 0).astype(a.dtype)


SIGN = defop("sign", "SignBackward0", _sign, grads=ZERO_GRAD,
             jvp="elementwise")
def _sgn(a):
    """sgn: sign for real tensors, z / |z| (0 at 0) for complex ones (Note [Complex
    kernels] in raw.py)."""
    if a.dtype.kind != "c":
        return _sign(a)
    return raw.complex_sgn(a)


def _sgn_backward(F, grad, self, result):
    """FunctionsManual's sgn_backward: ((g - sgn * sgn * conj(g)) / (2 |z|)), 0 where z is
    0 (zero for real tensors: sgn is piecewise constant there), in its order (its complex
    products and quotient: Note [Complex kernels] in raw.py). Complex-aware (Note [Complex
    gradients])."""
    if (self if F.is_raw else self._data).dtype.kind != "c":
        return F.zero_tensor_like(self)  # Note [Zero-tensor gradients] in _zero_grad.py
    from .complex_ops import cx
    a = F.abs(self)
    out = F.div(grad - F.mul(F.mul(result, result), cx(F).conj(grad)), 2.0 * a)
    return F.masked_fill(out, a == 0, 0)


SGN = defop("sgn", "SgnBackward0", _sgn, grads={"self": _sgn_backward},
            jvp="elementwise", complex_aware=True)  # what abs's derivative uses
SGN.zero_jvp_real = True  # (Note [Zero-tensor tangents] in dispatch.py)


def _rsqrt(a):
    """1 / sqrt(a). (float16/bfloat16: PyTorch's SIMD loop computes 1 / sqrt in float32
    and rounds once, its scalar loop rounds the sqrt to the half type first. Complex:
    c10::complex's quotient, Note [Complex kernels] in raw.py.)"""
    if a.dtype.kind == "c":
        return raw.true_divide(a.dtype.type(1), np.sqrt(a))
    out = 1 / np.sqrt(a)
    if a.itemsize == 2 and a.dtype.kind in "fV" and out.ndim:
        simd = raw.simd_positions(a.shape, a)  # (measured: one 32-lane vector a step)
        if simd is not None:
            with np.errstate(divide="ignore", invalid="ignore"):
                wide = (np.float32(1) / np.sqrt(a.astype(np.float32))).astype(a.dtype)
            out = np.where(simd, wide, out)
    return out


RSQRT = defop("rsqrt", "RsqrtBackward0", _rsqrt,
              grads={"self": lambda F, grad, result: F.mul(-0.5 * grad, F.pow(result, 3))},
              jvp="elementwise")
def _remainder(a, b):
    """PyTorch's floating remainder: fmod, moved by b where the signs differ, so a zero
    keeps the dividend's sign (-0.0 % 1 is -0.0; NumPy's mod gives +0.0); NaN where its
    SIMD loop's fmod overflows (Note [SIMD fmod] in raw.py)."""
    if a.dtype.kind in "biu":  # (the operands are promoted already)
        return np.mod(a, b)
    m = raw.fmod(a, b)
    return np.where((m != 0) & ((b < 0) != (m < 0)), m + b, m)


REMAINDER = defop("remainder", "RemainderBackward0", _remainder,
                  inputs=("self",), params=("other",), grads={"self": lambda F, grad: grad},
                  jvp="elementwise", layout="iter_scalar")
FMOD = defop("fmod", "FmodBackward0", raw.fmod,
             inputs=("self",), params=("other",), grads={"self": lambda F, grad: grad},
             jvp="elementwise", layout="iter_scalar")
REMAINDER_TENSOR = defop(
    "remainder", "RemainderBackward1", _remainder, inputs=("self", "other"),
    grads={"self": lambda F, grad: grad,
           # PyTorch's self.div(other, rounding_mode="floor"), not floor(self / other)
           "other": lambda F, grad, self, other: -grad * F.div_floor(self, other)},
                         jvp="elementwise")
# PyTorch's forward formula for these is ``result: self_t``: the output's tangent is the
# input's tangent object itself where it is laid out as the output (Note [Shared tangents]
# in autograd/forward_ad.py)
REMAINDER.fits_tangent = FMOD.fits_tangent = True
FMOD_TENSOR = defop(
    "fmod", "FmodBackward1", raw.fmod, inputs=("self", "other"),
    grads={"self": lambda F, grad: grad,
           # (PyTorch's self.div(other, rounding_mode="trunc"): DivBackward2)
           "other": lambda F, grad, self, other: -grad * F.div_trunc(self, other)},
                    jvp="elementwise")
def _not_implemented(name):
    def formula(F, grad):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")
    return formula


FLOOR_DIVIDE = defop("floor_divide", "torch::autograd::NotImplemented", raw.div_floor,
                     inputs=("self", "other"),
                     grads={"self": _not_implemented("floor_divide"),
                            "other": _not_implemented("floor_divide")},
                     jvp=_fw_not_implemented("aten::floor_divide"))
FLOOR_DIVIDE_SCALAR = defop("floor_divide", "torch::autograd::NotImplemented", raw.div_floor,
                            params=("other",), grads={"self": _not_implemented("floor_divide")},
                            jvp=_fw_not_implemented("aten::floor_divide"))
# floor_divide_ (``x //= y``): its own entries only for the name in its messages
FLOOR_DIVIDE_ = defop("floor_divide_", "torch::autograd::NotImplemented", raw.div_floor,
                      inputs=("self", "other"),
                      grads={"self": _not_implemented("floor_divide_"),
                             "other": _not_implemented("floor_divide_")},
                      jvp=_fw_not_implemented("aten::floor_divide_"))
FLOOR_DIVIDE_SCALAR_ = defop("floor_divide_", "torch::autograd::NotImplemented",
                             raw.div_floor, params=("other",),
                             grads={"self": _not_implemented("floor_divide_")},
                             jvp=_fw_not_implemented("aten::floor_divide_"))
DIV_MODE = defop("div", "DivBackward2", lambda a, b, mode: raw.div_floor(a, b)
                 if mode == "floor" else raw.div_trunc(a, b),
                 inputs=("self", "other"),
                 params=("rounding_mode",), grads={"self": lambda F, grad: F.zeros_like(grad),
                                                   "other": lambda F, grad: F.zeros_like(grad)},
                 # (PyTorch's result.new_zeros(): in the result's dtype, self's in place)
                 jvp=lambda F, result: F.zeros_like(result))


# Copies and casts.
CLONE = defop("clone", "CloneBackward0", raw.clone, grads={"self": lambda F, grad: grad},
              jvp="linear", layout="like")
# contiguous(): clone(memory_format=torch.contiguous_format), the same node
CLONE_CONTIGUOUS = defop("clone", "CloneBackward0", raw.clone,
                         grads={"self": lambda F, grad: grad}, jvp="linear",
                         layout="contiguous")
TO_COPY = defop("to", "ToCopyBackward0", raw.cast, params=("dtype",),
                grads={"self": lambda F, grad: grad},
                jvp=lambda F, self_t, dtype: F.cast(self_t, dtype.np), layout="like")
# clone / to with a named memory_format (contiguous_format, channels_last...): its strides
CLONE_FORMAT = defop("clone", "CloneBackward0", lambda x, memory_format: x.copy(),
                     params=("memory_format",), grads={"self": lambda F, grad: grad},
                     jvp="linear", layout=layout.named_format)
TO_COPY_FORMAT = defop("to", "ToCopyBackward0", raw.cast, params=("dtype", "memory_format"),
                       grads={"self": lambda F, grad: grad},
                       jvp=lambda F, self_t, dtype, memory_format: F.cast(self_t, dtype.np),
                       layout=layout.named_format)


# In-place-only ops (their out-of-place forms are other entries).
ZERO = defop("zero_", "ZeroBackward0", None, grads={"self": lambda F, grad: F.zeros_like(grad)},
             jvp=lambda F, self: F.zeros_like(self))
FILL = defop("fill_", "FillBackward2", None, params=("value",),
             grads={"self": lambda F, grad: F.zeros_like(grad)},
             jvp=lambda F, self: F.zeros_like(self))
FILL_TENSOR = defop("fill_", "FillBackward3", None, inputs=("self", "value"),
                    grads={"self": lambda F, grad: F.zeros_like(grad),
                           "value": lambda F, grad: F.sum(grad)},
                    jvp=lambda F, self, value_t: F.zeros_like(self) if value_t is None else value_t)
FILL_TENSOR.fills_tangent = True  # (as masked_fill's: indexing.py)
FILL_TENSOR.refuses_complex_grad = True  # (graph._reduce_outs)
# The in-place samplers (their draws in _random.py): zero gradients, PyTorch's nodes
def _sampler(name, node, inputs=("self",)):
    return defop(name, node, None, inputs=inputs,
                 grads={n: (lambda F, grad: F.zeros_like(grad)) for n in inputs},
                 jvp=_self_t_zeroed if len(inputs) > 1 else lambda F, self: F.zeros_like(self))


def _self_t_zeroed(F, self_t):
    """derivatives.yaml's ``result: self_t.zero_()`` of an in-place op with another tensor
    input (bernoulli_(p), eq_(other)...): PyTorch runs a forward formula only when an input
    whose tangent it reads has one, so a tangent of ``other`` alone gives self none."""
    return None if self_t is None else F.zeros_like(self_t)


UNIFORM_ = _sampler("uniform_", "UniformBackward0")
NORMAL_ = _sampler("normal_", "NormalBackward0")
RANDOM_FROM_ = _sampler("random_", "RandomBackward0")  # random_(from, to)
RANDOM_TO_ = _sampler("random_", "RandomBackward1")    # random_(to)
RANDOM_ = _sampler("random_", "RandomBackward2")       # random_()
BERNOULLI_TENSOR_ = _sampler("bernoulli_", "BernoulliBackward1", ("self", "p"))
BERNOULLI_ = _sampler("bernoulli_", "BernoulliBackward2")
EXPONENTIAL_ = _sampler("exponential_", "ExponentialBackward0")
CAUCHY_ = _sampler("cauchy_", "CauchyBackward0")
LOG_NORMAL_ = _sampler("log_normal_", "LogNormalBackward0")
GEOMETRIC_ = _sampler("geometric_", "GeometricBackward0")
BERNOULLI = _sampler("bernoulli", "BernoulliBackward0")  # torch.bernoulli(probs)
POISSON = _sampler("poisson", "PoissonBackward0")


def _not_supported_fw(name):
    def rule(F, self):
        from ..autograd.forward_ad import NOT_SUPPORTED
        raise NotImplementedError(NOT_SUPPORTED.format(name))
    return rule


def _standard_gamma_backward(F, grad, self, result):
    """``grad * _standard_gamma_grad(self, result)``: the reparametrised gradient."""
    if F.is_raw:
        from .. import _random
        return grad * _random.standard_gamma_grad(self, result)
    from .._creation import _standard_gamma_grad
    return grad * _standard_gamma_grad(self, result)


def _gamma_grad_not_implemented(F, grad):
    raise NotImplementedError("the derivative for '_standard_gamma_grad' is not implemented.")


STANDARD_GAMMA = defop("_standard_gamma", "StandardGammaBackward0", None,
                       grads={"self": _standard_gamma_backward},
                       jvp=_not_supported_fw("_standard_gamma"))
BINOMIAL = defop("binomial", "torch::autograd::NotImplemented", None,
                 inputs=("count", "prob"),
                 grads={n: _not_implemented("binomial") for n in ("count", "prob")},
                 jvp=_not_supported_fw("binomial"))
DIRICHLET_GRAD = defop("_dirichlet_grad", "torch::autograd::NotImplemented", None,
                       inputs=("x", "alpha", "total"),
                       grads={n: _not_implemented("_dirichlet_grad")
                              for n in ("x", "alpha", "total")},
                       jvp=_not_supported_fw("_dirichlet_grad"))
STANDARD_GAMMA_GRAD = defop("_standard_gamma_grad", "StandardGammaGradBackward0", None,
                            inputs=("self", "output"),
                            grads={"self": _gamma_grad_not_implemented},
                            jvp=_not_supported_fw("_standard_gamma_grad"))
COPY = defop("copy_", "torch::autograd::CopyBackwards", None, inputs=("self", "src"),
             params=("src_dtype",),
             # (CopyBackwards casts to src's dtype itself, before the engine sums a
             # broadcast src's gradient down: ToCopyBackward0 under SumBackward0)
             grads={"self": lambda F, grad: F.zeros_like(grad),
                    "src": lambda F, grad, src_dtype:
                    grad if _dt(grad) == src_dtype else F.cast(grad, src_dtype)},
             jvp=lambda F, self, src, src_t: _copy_jvp(F, self, src, src_t))
COPY.primal_reads = ()  # (VariableTypeManual's copy_ takes no _fw_primal view of src)


def _copy_jvp(F, self, src, src_t):
    """VariableTypeManual's copy_: self's tangent (when it has one) takes src's in place;
    otherwise src's tangent becomes self's, in src's dtype when the sizes agree (a clone),
    in self's when it is broadcast (set_fw_grad copies it into self's layout)."""
    if src_t is None:
        return F.zeros_like(self)
    if src._data.shape != self._data.shape and src_t._data.dtype != self._data.dtype:
        return F.cast(src_t, self._data.dtype)
    return src_t


# ---- arithmetic ---------------------------------------------------------------------------
add = _binary_fn(ADD, "input + alpha * other, broadcasting.", alpha_param=True)
_sub = _binary_fn(SUB, "input - alpha * other, broadcasting.", alpha_param=True)


def _is_bool(x):
    return isinstance(x, bool) or (isinstance(x, Tensor) and x._data.dtype == np.bool_)


def _check_bool_sub(input, other, alpha=1):
    for s in (other, alpha, input):  # (the Python numbers are parsed as c10::Scalars first)
        if s.__class__ is int:
            _convert.check_python_int(s)
    if _is_bool(input) or _is_bool(other):
        view_errors_first(input, other)  # (Note [View errors before an op's checks])
    if _is_bool(input) and _is_bool(other):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    if _is_bool(input) or _is_bool(other):
        raise RuntimeError(_BOOL_SUB)


_BOOL_SUB = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
             "trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def sub(input, other, *, alpha=1):
    """input - alpha * other, broadcasting."""
    if other.__class__ is bool or (input.__class__ is not float and _is_bool(input)) or \
            (other.__class__ is Tensor and other._data.dtype == np.bool_):
        _check_bool_sub(input, other, alpha)
    return _sub(input, other, alpha=alpha)


subtract = sub


def rsub(input, other, *, alpha=1):
    """other - alpha * input."""
    if _is_bool(input) or _is_bool(other):
        for v in (alpha, other):  # (the numbers parsed first, the last one first)
            if v.__class__ is int:
                _convert.check_python_int(v)
        _check_bool_sub(other, input)
    if alpha.__class__ is not int or alpha != 1:
        _check_alpha(other, input, alpha, True)  # (PyTorch's sub(other, input, alpha))
    if isinstance(other, Tensor):
        if not _broadcastable(other._data.shape, input._data.shape):  # (as sub's: other's
            view_errors_first(input, other)  # shape first)
            raise broadcast_error(other._data.shape, input._data.shape)
        return _binary(RSUB_TENSOR, input, other, (alpha,))
    d = _scalar_dtype_data(input._data, other)
    if other.__class__ is int and d.dtype.kind in "iu":
        other = _fit_int(other, d.dtype)  # (wrapped into the dtype: PyTorch's int arithmetic)
    out = _asarray(RSUB.kernel(d, other, alpha))
    if _state.enabled and (input._requires_grad or stale_view_requires_grad(input)):
        if _state.in_formula and alpha == 1:
            return _filled_then(SUB, input, other, out, (1,))
        r = record(RSUB, (input,), (other, alpha), out)
        _keep_real_grads(r, (input,))
        return r
    if _state.in_formula and alpha == 1 and _state.fw and _has_tangent(input):
        return _filled_then(SUB, input, other, out, (1,))  # (forward-over-reverse)
    return _no_graph(RSUB, (input,), (other, alpha), out)


mul = _binary_fn(MUL, "input * other, broadcasting.")


multiply = mul


def _integer_division(kernel, a, other):
    """PyTorch's checks of an integer floor/trunc division or remainder: bools are not
    implemented, a zero divisor raises (the CPU kernel's "ZeroDivisionError", raised as it
    meets one: never for an empty result, nor before the shapes' broadcast error)."""
    od = other._data if isinstance(other, Tensor) else other
    ad = a._data
    if ad.dtype == np.bool_ and (not isinstance(other, Tensor) or od.dtype == np.bool_) and \
            (isinstance(other, Tensor) or other.__class__ is bool):
        check_broadcast(ad.shape, np.shape(od))
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    if ad.dtype.kind in "biu" and (od.dtype.kind in "biu" if isinstance(od, np.ndarray)
                                   else isinstance(od, int)):
        if od.__class__ is int:  # wrapped into the dtype first: x // 2**32 on int32 is by 0
            od = _fit_int(od, ad.dtype if ad.dtype.kind != "b" else np.dtype(np.int64))
        elif isinstance(od, np.ndarray) and od.ndim == 0 and ad.ndim and od.dtype != ad.dtype:
            # (a 0-d divisor takes the tensor's dtype, wrapping: int64's -2**63 is 0 in int32)
            od = od.astype(_dtypes.result_type(a, other).np)
        if np.any(np.asarray(od) == 0) and _nonempty_broadcast(ad, od):
            raise RuntimeError("ZeroDivisionError")


def _nonempty_broadcast(ad, od):
    try:
        return 0 not in np.broadcast_shapes(ad.shape, np.shape(od))
    except ValueError:  # (the op's own broadcast error follows)
        return False


def _no_complex_rounding(rounding_mode, common):
    """div_floor / div_trunc have no complex kernels (PyTorch's dispatch error)."""
    if common.is_complex:
        raise NotImplementedError(f"\"div_{rounding_mode}_cpu\" not implemented for "
                                  f"'{_dtypes.scalar_name(common)}'")


def div(input, other, *, rounding_mode=NO_MODE):
    if rounding_mode is not None and rounding_mode is not NO_MODE:
        if rounding_mode not in ("floor", "trunc"):
            raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or "
                               f"'floor' but found '{rounding_mode}'")
        a = input if isinstance(input, Tensor) else _scalar_to_tensor(input, other)
        _integer_division(f"div_{rounding_mode}_cpu", a, other)
        _no_complex_rounding(rounding_mode, _dtypes.result_type(a, other))
        # (a number is wrapped: PyTorch's Python binding picks div.Tensor_mode,
        # DivBackward2 with a (None, 0) edge for it, as for any wrapped number)
        return _binary(DIV_MODE, a, other, (rounding_mode,))
    a = input if isinstance(input, Tensor) else _scalar_to_tensor(input, other)
    b = other
    if a._data.dtype.kind in "biu" and (
            (isinstance(b, Tensor) and b._data.dtype.kind in "biu") or
            isinstance(b, (int, bool))):
        if b.__class__ is int and a._data.dtype == np.bool_:
            _dtypes.result_type(a, b)  # (bool with a uint64 number: the promotion error)
        a = _to_dtype(a, _dtypes.default_float)
    return _binary(DIV if rounding_mode is NO_MODE else DIV_NO_MODE, a, b)


divide = true_divide = div


def floor_divide(input, other):
    """Floor of the quotient; its derivative is not implemented (as in PyTorch)."""
    if not isinstance(other, _POWERS):  # (a list: the parser's refusal)
        raise _argparse.wrong_type("floor_divide", "other")
    fallback_checks("floor_divide", input, other)
    if not isinstance(input, Tensor):  # (a number's conversion, then the result type's
        _dtypes.result_type(input, other)  # promotion error: 2**63 // bool tensor)
    a = input if isinstance(input, Tensor) else _scalar_to_tensor(input, other)
    _integer_division("div_floor_cpu", a, other)
    if isinstance(other, Tensor):
        return _binary(FLOOR_DIVIDE, a, other)
    d = _scalar_dtype_data(a._data, other)
    if d.dtype.kind == "c":
        refuse_complex("floor_divide", d.dtype)
    if other.__class__ is int and d.dtype.kind in "iu":
        other = _fit_int(other, d.dtype)
    out = raw.div_floor(d, other).astype(d.dtype, copy=False)
    return _finish(FLOOR_DIVIDE_SCALAR, (a,), (other,), out)


def floor_divide_(self, other):
    """``x //= y``: in place, as PyTorch (not Python's fallback ``x = x // y``); checked in
    PyTorch's order: autograd's, TensorIterator's (overlap, shapes, cast), the kernel's."""
    _convert.check_python_int(other)  # (a c10::Scalar, parsed first)
    fallback_checks("floor_divide_", self, other)
    if isinstance(other, (list, np.ndarray)):
        other = _tensor_arg(other)
    inplace.check_inplace_order(self, (self, other), "floor_divide_")
    sd = self._data
    common = _dtypes.result_type(self, other)
    inplace.check_cast(common.np, sd.dtype)
    if common.is_complex:
        refuse_complex("floor_divide", common.np)
    _integer_division("div_floor_cpu", self, other)
    if isinstance(other, Tensor):
        r = _inplace_binary(FLOOR_DIVIDE_, self, other)
    else:
        d = _scalar_dtype_data(sd, other)
        if other.__class__ is int and d.dtype.kind in "iu":
            other = _fit_int(other, d.dtype)
        out = raw.div_floor(d, other).astype(d.dtype, copy=False)
        r = inplace.record_inplace(FLOOR_DIVIDE_SCALAR_, self, (self,), (other,), out)
    node = r._grad_fn
    if node is not None and node.__class__.__name__ == "NotImplemented":
        node._next = tuple(e for e in node._next if e[0] is not None)  # (as floor_divide's)
    return r


# remainder(number, tensor) (``2 % x``): no derivative in PyTorch (a NotImplemented node)
REMAINDER_SCALAR_SELF = defop(
    "remainder", "torch::autograd::NotImplemented", lambda b, a: _remainder(a, b),
    inputs=("other",), params=("self",), grads={"other": _not_implemented("remainder")},
    jvp=_fw_not_implemented("aten::remainder", "."), layout="iter_scalar")


def _mod(op, tensor_op, input, other):
    if op is REMAINDER and not isinstance(input, Tensor) and isinstance(other, Tensor):
        if _state.fw:
            refuse_unsupported(REMAINDER_SCALAR_SELF, other)
        rt = _dtypes.result_type(input, other).np  # (its promotion error first)
        a = _scalar_to_tensor(input, other)
        _integer_division("remainder_cpu", a, other)
        if rt.kind == "c":
            refuse_complex("remainder", rt)
        out = _asarray(_remainder(a._data.astype(rt), other._data.astype(rt, copy=False)))
        return _finish(REMAINDER_SCALAR_SELF, (other,), (input,), out)
    if not isinstance(input, Tensor) and op is FMOD:
        raise TypeError(f"fmod() received an invalid combination of arguments - got "
                        f"({type(input).__name__}, {type(other).__name__}), but expected one "
                        f"of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n * "
                        f"(Tensor input, Number other, *, Tensor out = None)\n")
    if not isinstance(other, _POWERS):  # (a list: the parser's refusal, Note [Argument
        raise _argparse.wrong_type(op.name, "other")  # errors on the exception path])
    a = input if isinstance(input, Tensor) else _scalar_to_tensor(input, other)
    _convert.check_python_int(other)  # (a c10::Scalar: parsed first)
    _integer_division(f"{op.name}_cpu", a, other)
    if isinstance(other, Tensor):
        return _binary(tensor_op, a, other)
    d = _scalar_dtype_data(a._data, other)
    if d.dtype.kind == "c":
        refuse_complex(op.name, d.dtype)
    if other.__class__ is int and d.dtype.kind in "iu":
        other = _fit_int(other, d.dtype)
    return _finish(op, (a,), (other,), _asarray(op.kernel(d, other)))


def remainder(input, other):
    """Python's modulo (the sign of the divisor)."""
    return _mod(REMAINDER, REMAINDER_TENSOR, input, other)


def fmod(input, other):
    """C's fmod (the sign of the dividend)."""
    return _mod(FMOD, FMOD_TENSOR, input, other)


def _mod_(op, tensor_op, self, other):
    if self._data.dtype.kind in "biuc" or other.__class__ is complex:
        # (TensorIterator's checks before the kernel's)
        inplace_iter_checks(self, (self, other), _dtypes.result_type(self, other))
    _integer_division(f"{op.name}_cpu", self, other)
    if isinstance(other, Tensor):
        return _inplace_binary(tensor_op, self, other)
    d = _scalar_dtype_data(self._data, other)
    if d.dtype.kind == "c":
        refuse_complex(op.name, d.dtype)
    if other.__class__ is int and d.dtype.kind in "iu":
        other = _fit_int(other, d.dtype)
    return inplace.record_inplace(op, self, (self,), (other,), np.asarray(op.kernel(d, other)))


def remainder_(self, other):
    """``x %= y``: in place, as PyTorch (not Python's fallback ``x = x % y``)."""
    return _mod_(REMAINDER, REMAINDER_TENSOR, self, other)


def fmod_(self, other):
    return _mod_(FMOD, FMOD_TENSOR, self, other)


def rdiv(input, other):
    """other / input (``2 / x``): PyTorch records reciprocal then mul."""
    if _state.in_formula and input._data.dtype.kind in "fc" and \
            other.__class__ in (int, float) and (
                (_state.enabled and input._requires_grad) or
                (_state.fw and _has_tangent(input))):
        return _filled_then(DIV, input, other, _asarray(other / input._data), ())
    return mul(reciprocal(input), other)


def _aliased(self, others):
    """Whether a tensor among ``others`` may alias ``self`` (Note [Aliased inputs] in
    aliasing.py): a view's ``base`` first, so that the common path stays cheap."""
    d = self._data
    return any(isinstance(o, Tensor) and o._data is not d and (
        o._data.base is not None or d.base is not None) and np.may_share_memory(d, o._data)
        for o in others)


def _identity(x):
    return x


def _has_tangent(x):
    return forward_ad._tangent_or_none(x) is not None


def _filled_then(op, input, number, out, params):
    """``number - x`` / ``number / x`` inside a backward formula: ATen's C++ operators
    (TensorOperators.h) compute them as ``empty_like(x).fill_(number).sub_(x)``
    (``.div_(x)``): SubBackward0 / DivBackward0 of a tensor that does not require grad,
    the result at version 2 (fill_, then the in-place op). Its tangent is the in-place
    rule's with dense zeros for the filled tensor's (Note [Missing self tangent in place]
    in forward_ad.py): ``0 - x_t`` is +0.0 where -x_t is -0.0, ``(0 - x_t * result) / x``
    +0.0 at a zero result (``value / tensor2`` of addcdiv's gradient at value=-0.0)."""
    filled = _make(np.full(out.shape, number, dtype=out.dtype))
    if _state.fw and _has_tangent(input):
        forward_ad._set_tangent(filled, _make(np.zeros(out.shape, dtype=out.dtype)))
    if _state.enabled and (input._requires_grad or stale_view_requires_grad(input)):
        r = record(op, (filled, input), params, out)
    else:
        r = _no_graph(op, (filled, input), params, out)
    r._vc[0] = 2
    return r


BOOL_NEGATION = ("Negation, the `-` operator, on a bool tensor is not supported. If you are "
                 "trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def neg(input):
    """-input."""
    if input._data.dtype == np.bool_:
        raise RuntimeError(BOOL_NEGATION)
    return _unary(NEG, input, float_op=False)


negative = neg


def pow(input, exponent):
    if exponent.__class__ is not float and exponent.__class__ is not int and \
            not isinstance(exponent, _POWERS):  # (a list: the parser's refusal, Note
        raise _argparse.wrong_type("pow", "exponent")  # [Argument errors on the exception
        # path] in _argparse.py)
    if not isinstance(input, Tensor):
        # scalar ** tensor
        e = exponent
        d = e._data
        if input.__class__ is int:
            _convert.check_python_int(input)
            _scalar_dtype_data(d, input)  # (uint64 with bool: PyTorch's promotion error)
        if input.__class__ is bool and d.dtype == np.bool_:
            raise NotImplementedError("\"pow\" not implemented for 'Bool'")
        if isinstance(input, float) and d.dtype.kind in "biu":
            d = d.astype(_dtypes.default_float.np)
        elif input.__class__ is complex and d.dtype.kind != "c":
            d = d.astype(_complex_pow_dtype(d.dtype, input).np)
        out = _asarray(POW_SCALAR_BASE.kernel(d, input))
        if _state.enabled and (e._requires_grad or stale_view_requires_grad(e)):
            r = record(POW_SCALAR_BASE, (e,), (input,), out)
            _keep_real_grads(r, (e,))
            return r
        return _no_graph(POW_SCALAR_BASE, (e,), (input,), out)
    if isinstance(exponent, Tensor):
        if input._data.dtype == np.bool_ and exponent._data.dtype == np.bool_:
            check_broadcast(input._data.shape, exponent._data.shape)  # (TensorIterator's
            raise NotImplementedError("\"pow\" not implemented for 'Bool'")  # first)
        return _binary(POW_TENSOR, input, exponent)
    d = input._data
    _check_pow_exponent(d.dtype, exponent)
    if isinstance(exponent, float) and d.dtype.kind in "biu":
        d = d.astype(_dtypes.default_float.np)
    elif exponent.__class__ is complex and d.dtype.kind != "c":
        d = d.astype(_complex_pow_dtype(d.dtype, exponent, exponent in (0, 1)).np)
    elif d.dtype == np.bool_ and not isinstance(exponent, bool):
        d = d.astype(np.int64)  # bool ** int promotes like bool + int
    if d.dtype == np.bool_:  # bool ** bool stays bool: x ** True is x, x ** False is 1
        return _make(d.copy() if exponent else np.ones_like(d))
    out = raw.pow_scalar(d, exponent)
    if not input._data.flags.c_contiguous:  # (a unary TensorIterator op in PyTorch)
        out = layout.iter_result(out, (input._data,))
    if _state.enabled and (input._requires_grad or stale_view_requires_grad(input)):
        r = record(POW_SCALAR, (input,), (exponent,), out)
        _keep_real_grads(r, (input,))
        return r
    return _no_graph(POW_SCALAR, (input,), (exponent,), out)


def _complex_pow_dtype(npdtype, number, trivial=False):
    """The complex dtype of pow with a complex Python number (the default complex dtype for
    an integral or bool tensor, as in every binary op); float16's ComplexHalf has no pow
    kernel (PyTorch's dispatch error; an exponent of 0 or 1 fills or copies without it,
    into a complex32 result that autotensor lacks: complex64 here)."""
    if npdtype == np.float16 and not trivial:
        raise NotImplementedError("\"pow\" not implemented for 'ComplexHalf'")
    return _dtypes.scalar_result_dtype(_dtypes.from_numpy(npdtype), number)


def _check_pow_exponent(dt, exponent):
    """pow(Tensor, Scalar)'s reading of a Python exponent, PyTorch's checked_convert: an
    integral base takes an int exponent in its own dtype (a negative one refused first; past
    int64, its uint64 Scalar fails as int64_t), a float16/bfloat16 base takes any real one
    as c10::Half/BFloat16; float32/64 and complex bases read it as a double."""
    if exponent.__class__ is int:
        _convert.check_python_int(exponent)
        if dt.kind in "biu":
            if exponent < 0:
                raise RuntimeError("Integers to negative integer powers are not allowed.")
            if exponent > _convert._INT64_MAX:
                raise _convert.overflow("int64_t")
            if dt.kind != "b":
                _check_int_scalar(exponent, dt)
    if dt.itemsize == 2 and dt.kind in "fV" and isinstance(exponent, (int, float)):
        _convert.scalar_array(exponent, _dtypes.from_numpy(dt))


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


def _round_decimals_integral(t, decimals):
    """round.decimals has no integer kernel (plain round copies an integer tensor), nor a
    complex one ("round_cpu" with nonzero decimals; "round_vml_cpu" else, as round's)."""
    if decimals and t._data.dtype.kind == "c":
        raise NotImplementedError(f"\"round_cpu\" not implemented for "
                                  f"'{_dtypes.scalar_name(_dtypes.from_numpy(t._data.dtype))}'")
    if decimals is not None and t._data.dtype.kind in "biu":
        raise NotImplementedError(
            f"\"{'round_cpu' if decimals else 'round_vml_cpu'}\" not implemented for "
            f"'{_dtypes.scalar_name(_dtypes.from_numpy(t._data.dtype))}'")


def round(input, *, decimals=None):
    """Round half to even, like PyTorch."""
    _round_decimals_integral(input, decimals)
    if decimals:
        scale = 10.0 ** decimals
        return div(_round(mul(input, scale)), scale)
    return _round(input)


class _MixedBounds(TypeError):
    """A tensor bound with a number bound: no overload of PyTorch's takes both."""


def _check_bounds(min, max):
    if (isinstance(min, Tensor) and max is not None and not isinstance(max, Tensor)) or (
            isinstance(max, Tensor) and min is not None and not isinstance(min, Tensor)):
        raise _MixedBounds


def _clamp_binding(name, body, method, inplace):
    """The Python binding of clamp/clip (``method``: Tensor.name; ``inplace``: name ends in
    _): PyTorch's argument parser error for a tensor bound with a number bound, which
    names the call's own arguments (positional, then keywords, last given first)."""
    def binding(*args, **kwargs):
        try:
            return body(*args, **kwargs)
        except _MixedBounds:
            raise _mixed_bounds_error(name, method, inplace, args, kwargs) from None
    binding.__name__ = binding.__qualname__ = name
    binding.__doc__ = body.__doc__
    return binding


def _mixed_bounds_error(name, method, inplace, args, kwargs):
    def kind(v):
        return "Tensor" if isinstance(v, Tensor) else type(v).__name__
    pos = [kind(a) for a in args[1 if method else 0:]]
    kws = [(k, kind(v)) for k, v in reversed(list(kwargs.items()))]
    kw_parts = [f"{k}={t}" for k, t in kws]
    got = ", ".join(pos + kw_parts) if pos else "".join(f"{p}, " for p in kw_parts)
    head = "" if method else "Tensor input, "
    tail = "" if method or inplace else ", *, Tensor out = None"
    lines = [f"{name}() received an invalid combination of arguments - got ({got}), but "
             f"expected one of:"]
    bad_kw = [k for k, _ in kws if k in ("min", "max")]
    if bad_kw:
        reason = f"some of the keywords were incorrect: {', '.join(bad_kw)}"
    else:
        marked = ([] if method else [pos[0]]) + [f"!{t}!" for t in pos[0 if method else 1:]]
        reason = f"some of the arguments have invalid types: ({', '.join(marked)})"
    for t in ("Tensor", "Number"):
        lines.append(f" * ({head}{t} min = None, {t} max = None{tail})")
        if method or inplace:  # (the out= overloads' error gives no reasons)
            lines.append(f"      didn't match because {reason}")
    return TypeError("\n".join(lines) + "\n")


def clamp(input, min=None, max=None):
    if min is None and max is None:
        view_errors_first(input)  # (Note [View errors before an op's checks])
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        _check_bounds(min, max)
        if input._data.dtype.kind == "c":  # (number bounds: checked in _clamp_bounds)
            refuse_complex("clamp", input._data.dtype)
        lo = _tensor_arg(min, input) if min is not None else None
        hi = _tensor_arg(max, input) if max is not None else None
        try:  # (TensorIterator's shapes: the output's first, then min's and max's)
            check_broadcast(*(t._data.shape for t in (input, lo, hi) if t is not None))
        except RuntimeError:
            view_errors_first(input, lo, hi)
            raise
        arrays = [None if t is None else t._data for t in (input, lo, hi)]
        if _py_any(a is not None and a.dtype != arrays[0].dtype for a in arrays[1:]):
            # (TensorIterator's common dtype: the bounds promote with the input, a 0-d
            # one as a lesser operand; each cast to it, a 300 bound wrapping into uint8)
            dt = _dtypes.result_type(*(t for t in (input, lo, hi) if t is not None)).np
            if dt.kind == "c":  # (a complex bound: the kernel's dispatch error)
                kernel = "clamp" if lo is not None and hi is not None else \
                    "maximum" if lo is not None else "minimum"
                raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for "
                                          f"'{_dtypes.scalar_name(_dtypes.from_numpy(dt))}'")
            arrays = [None if a is None else a.astype(dt, copy=False) for a in arrays]
        out = _asarray(CLAMP_TENSOR.kernel(*arrays))
        r = _finish(CLAMP_TENSOR, (input, lo, hi), (), out)
        if r._grad_fn is not None:
            set_input_metadata(r._grad_fn, (input, lo, hi), out.shape, out.dtype)
        return r
    d = input._data
    min, max, dt = _clamp_bounds(input, min, max)
    if dt.np != d.dtype:
        d = d.astype(dt.np)
    out = _asarray(CLAMP.kernel(d, min, max)).astype(d.dtype, copy=False)
    if not input._data.flags.c_contiguous:  # (a unary TensorIterator op in PyTorch)
        out = layout.iter_result(out, (input._data,))
    return _finish(CLAMP, (input,), (min, max), out)


def _clamp_bounds(input, min, max, inplace=False, one=False):
    """Number bounds as PyTorch takes them, in its order (clamp's meta function, then its
    impl and kernel): a complex input refused; a float input keeps its dtype, an integer or
    bool one promotes with the bounds (an in-place clamp_ refusing the cast, then a complex
    result refused); two bounds with a NaN give NaN (no bound converted); else each bound is
    converted to the dtype as a c10::Scalar (checked, wrapping into unsigned types).
    ``one``: clamp_min/clamp_max, whose meta functions refuse a complex bound first."""
    bounds = [b for b in (min, max) if b is not None]
    for b in reversed(bounds):  # (max parsed first: _scalar_args)
        _convert.check_python_int(b)
    kind = input._data.dtype.kind
    if kind == "c" or (one and isinstance(bounds[0], complex)):
        raise NotImplementedError("clamp is not supported for complex types")
    d = input._data.dtype
    if kind in "fV":
        dt = _dtypes.from_numpy(d)
    else:
        dt = _dtypes.result_type(input, *bounds)
        if inplace and dt.np != d:
            raise RuntimeError(f"result type {_dtypes.scalar_name(dt)} can't be cast to the "
                               f"desired output type "
                               f"{_dtypes.cpp_name(_dtypes.from_numpy(d))}")
        if dt.np.kind == "c":
            raise NotImplementedError("clamp is not supported for complex types")
    if _py_any(isinstance(b, complex) for b in bounds):  # (a float input's: real numbers)
        min, max = (_convert.scalar_array(b, _dtypes.float64).item()
                    if isinstance(b, complex) else b for b in (min, max))
        bounds = [b for b in (min, max) if b is not None]
    if len(bounds) == 2 and _py_any(isinstance(b, float) and b != b for b in bounds):
        return math.nan, math.nan, dt  # (clamp_out fills NaN, reading no bound)
    if dt is _dtypes.bool:
        which = "clamp" if len(bounds) == 2 else "clamp_min" if min is not None else \
            "clamp_max"
        raise NotImplementedError(f"\"{which}_scalar_cpu\" not implemented for 'Bool'")
    min, max = (_convert.scalar_array(b, dt).item() if b is not None else None
                for b in (min, max))
    return min, max, dt


def _clamp_bounds_(self, min, max, one=False):
    """_clamp_bounds of an in-place clamp: a bound its dtype cannot hold ("value cannot be
    converted to type c10::Half without overflow") or a result type self cannot take is the
    kernel's error, which autograd's checks (a leaf, a view of one) come before."""
    try:
        return _clamp_bounds(self, min, max, inplace=True, one=one)
    except (RuntimeError, NotImplementedError):
        inplace.check_inplace(self, (self,))
        raise


clamp_body = clamp
clamp = _clamp_binding("clamp", clamp_body, False, False)
clamp.method = _clamp_binding("clamp", clamp_body, True, False)
clip = _clamp_binding("clip", clamp_body, False, False)
clip.method = _clamp_binding("clip", clamp_body, True, False)


def maximum(input, other):
    if other.__class__ is not Tensor or input.__class__ is not Tensor:
        _check_tensor_arg("maximum", "input", input, 1)
        _check_tensor_arg("maximum", "other", other, 2)
    return _binary(MAXIMUM, input, other)


def minimum(input, other):
    if other.__class__ is not Tensor or input.__class__ is not Tensor:
        _check_tensor_arg("minimum", "input", input, 1)
        _check_tensor_arg("minimum", "other", other, 2)
    return _binary(MINIMUM, input, other)


def where(condition, input=None, other=None):
    if input is None and other is None:
        from .indexing import nonzero  # indexing builds on this module
        return nonzero(condition, as_tuple=True)
    for v in (input, other):  # (a list is refused by PyTorch's parser: Note [Argument errors
        if v.__class__ is list or v.__class__ is tuple:  # on the exception path])
            raise _argparse.wrong_type("where", "input")
    cond = _tensor_arg(condition)._data
    if cond.dtype == np.uint8:  # (deprecated in PyTorch, still a mask)
        import warnings
        warnings.warn("where received a uint8 condition tensor. This behavior is deprecated "
                      "and will be removed in a future version of PyTorch. Use a boolean "
                      "condition instead.", UserWarning, stacklevel=2)
        cond = cond.astype(np.bool_)
    if cond.dtype != np.bool_:
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor "
                           f"with dtype {_dtypes.scalar_name(_dtypes.from_numpy(cond.dtype))}")
    if not isinstance(input, Tensor) or not isinstance(other, Tensor):
        input, other = _where_scalars(input, other)
    try:
        return _guard_index(_binary(WHERE, input, other, (cond,)), "condition", condition)
    except RuntimeError:
        # (TensorIterator broadcasts condition, input, other in that order and names the
        # first that does not fit)
        view_errors_first(input, other)
        shape = cond.shape
        for a in (input, other):
            try:
                shape = np.broadcast_shapes(shape, a._data.shape)
            except ValueError:
                raise broadcast_error(shape, a._data.shape) from None
        raise


def _where_scalars(input, other):
    """Python numbers of ``where`` as 0-d tensors of the result dtype, converted as PyTorch
    converts a c10::Scalar into a one-element tensor (``where(c, int8_tensor, 300)`` is an
    overflow error)."""
    numbers = (int, float, complex)
    input, other = (a.item() if isinstance(a, np.generic) else a for a in (input, other))
    _convert.check_python_int(input)
    _convert.check_python_int(other)
    if not isinstance(input, (Tensor,) + numbers):
        input = _tensor_arg(input)
    if not isinstance(other, (Tensor,) + numbers):
        other = _tensor_arg(other)
    dt = _dtypes.result_type(input, other)
    input, other = (_make(_convert.scalar_array(a, dt, single=True))
                    if isinstance(a, numbers) else a for a in (input, other))
    return input, other


_py_any = builtins.any


# ---- comparisons and logic (no gradient) --------------------------------------------------
_ndarray = np.ndarray


_COMPARED = (int, float, complex, np.generic, np.ndarray)


def _compare(ufunc, tensor_only=False, promote=False, ordered=None, number_self=False):
    """``ordered``: the kernel name of lt/le/gt/ge, which refuse complex values;
    ``number_self``: a number as the input (the bitwise ops' Scalar self overload)."""
    def compare(input, other):
        if tensor_only and not (isinstance(other, Tensor) and isinstance(input, Tensor)):
            # (the function's argument parser; the method's counts other as position 1)
            _check_tensor_arg(ufunc.__name__, "input", input, 1)
            _check_tensor_arg(ufunc.__name__, "other", other, 2)
        if input.__class__ is Tensor or isinstance(input, Tensor):
            a = input
        elif number_self:
            a = _tensor_arg(input)
        else:
            raise _argparse.wrong_type(ufunc.__name__, "input")  # (Note [Argument errors on
            # the exception path] in _argparse.py)
        ad = a._data
        if isinstance(other, Tensor):
            b = other._data
            if promote and b.dtype != ad.dtype:  # compared in PyTorch's promoted dtype
                rt = _dtypes.binary_result_dtype(
                    _dtypes.from_numpy(ad.dtype), ad.ndim == 0,
                    _dtypes.from_numpy(b.dtype), b.ndim == 0).np
                ad, b = layout.cast(ad, rt), layout.cast(b, rt)
        else:
            if not isinstance(other, _COMPARED):  # (a list, None: the parser's refusal;
                raise _argparse.wrong_type(ufunc.__name__, "other")  # == takes an ndarray)
            b = other
            if promote and other.__class__ in _SCALARS:  # (int tensor == 0.1: in float32)
                ad, b = _scalar_operand(ad, b)
            elif other.__class__ is int and ad.dtype.kind in "iu":
                b = _fit_int(other, ad.dtype)  # (int32 & 2**40 + 1: wrapped, as PyTorch)
        if ordered is not None and (ad.dtype.kind == "c" or isinstance(b, complex) or
                                    getattr(b, "dtype", ad.dtype).kind == "c"):
            check_broadcast(ad.shape, np.shape(b))
            rt = np.result_type(ad, b)
            raise NotImplementedError(f"\"{ordered}\" not implemented for "
                                      f"'{_dtypes.scalar_name(_dtypes.from_numpy(rt))}'")
        try:
            out = ufunc(ad, b)
        except ValueError:
            raise broadcast_error(ad.shape, np.shape(b)) from None
        bd = other._data if isinstance(other, Tensor) else b  # (strides before the cast:
        if not (layout.c_plain(a._data) and (bd.__class__ is not np.ndarray or  # size-1
                                             layout.c_plain(bd))):  # dims' are kept)
            ops = (a._data, bd)
            if bd.__class__ is np.ndarray:  # (a broadcast operand's cast is dense)
                ops = (layout.cast_layout(a._data, ad), layout.cast_layout(bd, b))
            out = layout.iter_result(out, ops)  # (Note [Result layout] in layout.py)
        return _make(_asarray(out))
    compare.__name__ = ufunc.__name__
    return compare


eq = _compare(np.equal, promote=True)
ne = _compare(np.not_equal, promote=True)
lt = _compare(np.less, promote=True, ordered="lt_cpu")
le = _compare(np.less_equal, promote=True, ordered="le_cpu")
gt = _compare(np.greater, promote=True, ordered="gt_cpu")
ge = _compare(np.greater_equal, promote=True, ordered="ge_cpu")
less, less_equal, greater, greater_equal, not_equal = lt, le, gt, ge, ne
# In-place comparisons write 1 / 0 in self's dtype and record a node whose gradients are
# zeros (derivatives.yaml's eq_ ... entries: EqBackward0 by a number, EqBackward1 by a tensor)
def _compare_inplace(name, fn):
    node = name[0].upper() + name[1:] + "Backward"
    ops = (defop(name + "_", node + "0", None, params=("other",),
                 grads={"self": lambda F, grad: F.zeros_like(grad)},
                 jvp=lambda F, self: F.zeros_like(self)),
           defop(name + "_", node + "1", None, inputs=("self", "other"),
                 grads={"self": lambda F, grad: F.zeros_like(grad),
                        "other": lambda F, grad, other: F.zeros_like(other)},
                 jvp=_self_t_zeroed))

    def method(self, other):
        try:
            value = fn(self, other)._data
        except NotImplementedError:  # (a complex operand: TensorIterator's checks first)
            inplace.check_inplace_order(self, (self, other))
            raise
        except RuntimeError:  # (a broadcast error: autograd's checks come first)
            inplace.check_inplace(self, (self, other), inference=False)
            raise
        if isinstance(other, Tensor):
            return inplace.record_inplace(ops[1], self, (self, other), (), value)
        return inplace.record_inplace(ops[0], self, (self,), (other,), value)
    method.__name__ = method.__qualname__ = name + "_"
    return ops, method


(EQ_SCALAR_, EQ_TENSOR_), eq_ = _compare_inplace("eq", eq)
(NE_SCALAR_, NE_TENSOR_), ne_ = _compare_inplace("ne", ne)
(LT_SCALAR_, LT_TENSOR_), lt_ = _compare_inplace("lt", lt)
(LE_SCALAR_, LE_TENSOR_), le_ = _compare_inplace("le", le)
(GT_SCALAR_, GT_TENSOR_), gt_ = _compare_inplace("gt", gt)
(GE_SCALAR_, GE_TENSOR_), ge_ = _compare_inplace("ge", ge)
less_, less_equal_, greater_, greater_equal_, not_equal_ = lt_, le_, gt_, ge_, ne_
logical_and = _compare(np.logical_and, tensor_only=True, promote=True)
logical_or = _compare(np.logical_or, tensor_only=True, promote=True)
logical_xor = _compare(np.logical_xor, tensor_only=True, promote=True)


def _check_broadcast(input, other):
    """The broadcast error, which PyTorch's iterator raises before the kernel's dtype check
    (bitwise ops and shifts of float tensors whose shapes do not broadcast)."""
    if isinstance(input, Tensor) and isinstance(other, Tensor):
        a, b = input._data.shape, other._data.shape
        if a != b:
            try:
                np.broadcast_shapes(a, b)
            except ValueError:
                raise broadcast_error(a, b) from None


def _bitwise(ufunc, name):
    """PyTorch's bitwise ops: integer and bool operands only (its error names the promoted
    dtype)."""
    compare = _compare(ufunc, promote=True, number_self=True)

    def bitwise(input, other):
        fallback_checks(name, input, other)
        rt = _dtypes.result_type(input, other)
        if rt.np.kind not in "biu":
            _check_broadcast(input, other)
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for "
                                      f"'{_dtypes.scalar_name(rt)}'")
        if input.__class__ is int and rt.np.kind in "iu":  # (a number first: wrapped into
            input = _fit_int(input, rt.np)  # the dtype, 2**63 into uint8 is 0)
        return compare(input, other)
    bitwise.__name__ = bitwise.__qualname__ = name
    return bitwise


bitwise_and = _bitwise(np.bitwise_and, "bitwise_and")
bitwise_or = _bitwise(np.bitwise_or, "bitwise_or")
bitwise_xor = _bitwise(np.bitwise_xor, "bitwise_xor")


def logical_not(input):
    return _make(_asarray(np.logical_not(input._data)))


def bitwise_not(input):
    fallback_checks("bitwise_not", input)
    d = input._data
    if d.dtype.kind not in "biu":
        raise NotImplementedError(f"\"bitwise_not_cpu\" not implemented for "
                                  f"'{_dtypes.scalar_name(_dtypes.from_numpy(d.dtype))}'")
    return _make(_asarray(np.logical_not(d) if d.dtype == np.bool_ else np.invert(d)))


def _shift(input, other, left, name):
    """PyTorch's shifts: by a negative amount or by the width or more, a left shift gives 0
    and a right shift the sign fill (C's undefined behaviour made defined)."""
    fallback_checks(name, input, other)
    dt = _dtypes.result_type(input, other)
    _check_broadcast(input, other)
    if dt._cat != 1:
        raise NotImplementedError(f"\"{'lshift' if left else 'rshift'}_cpu\" not implemented "
                                  f"for '{_dtypes.scalar_name(dt)}'")
    # (aten's kernels: both operands in the result dtype, a number wrapped into it; the
    # amount read as signed: x >> 2**31 on uint8 shifts by 0, x >> -1 by 255, out of range)
    a = np.asarray(input._data if isinstance(input, Tensor) else
                   _fit_int(input, dt.np) if input.__class__ is int else input).astype(dt.np)
    b = np.asarray(other._data if isinstance(other, Tensor) else
                   _fit_int(other, dt.np) if other.__class__ is int else other).astype(dt.np)
    bits = dt.itemsize * 8
    signed = b.astype(np.dtype(f"i{dt.itemsize}"))
    max_shift = bits if left or dt.np.kind == "u" else bits - 1
    out_of_range = (signed < 0) | (signed >= max_shift)
    amount = np.where(out_of_range, 0, b).astype(dt.np)
    if left:
        out = np.where(out_of_range, 0, np.left_shift(a, amount))
    else:  # (by max_shift: the sign fill, 0 for an unsigned type)
        out = np.where(out_of_range, np.right_shift(a, bits - 1) if dt.np.kind == "i" else 0,
                       np.right_shift(a, amount))
    return _make(_asarray(out.astype(dt.np, copy=False)))


def bitwise_left_shift(input, other, *, _name="bitwise_left_shift"):
    return _shift(input, other, True, _name)


def bitwise_right_shift(input, other, *, _name="bitwise_right_shift"):
    return _shift(input, other, False, _name)


def equal(input, other):
    return input._data.shape == other._data.shape and bool(np.all(input._data == other._data))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    _argparse.floats(rtol, atol)  # (Note [Argument errors on the exception path])
    _argparse.bools(equal_nan)
    _same_dtype_close(input, other)
    return bool(np.allclose(input._data, other._data, rtol, atol, equal_nan))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    _check_tensor_arg("isclose", "input", input, 1)
    _check_tensor_arg("isclose", "other", other, 2)
    _argparse.floats(rtol, atol)
    _argparse.bools(equal_nan)
    _same_dtype_close(input, other)
    return _make(np.isclose(input._data, other._data, rtol, atol, equal_nan))


def _same_dtype_close(input, other):
    """isclose compares tensors of one dtype only (PyTorch's check)."""
    if isinstance(input, Tensor) and isinstance(other, Tensor) and \
            input._data.dtype != other._data.dtype:
        raise RuntimeError(f"{_dtypes.scalar_name(input.dtype)} did not match "
                           f"{_dtypes.scalar_name(other.dtype)}")


def isnan(input):
    return _make(_asarray(np.isnan(input._data)))


def isinf(input):
    return _make(_asarray(np.isinf(input._data)))


def isfinite(input):
    return _make(_asarray(np.isfinite(input._data)))


# ---- copies and dtype conversion -----------------------------------------------------------
def clone(input, *, memory_format=None):
    if memory_format is not None and memory_format is not _mf.preserve_format:
        _mf._check(memory_format, "clone")
        return _finish(CLONE_FORMAT, (input,), (memory_format,), input._data.copy())
    r = _finish(CLONE, (input,), (), np.copy(input._data, order="K"))
    if input._meta is not None and input._meta.get("inference") and not _state.inference:
        r._vc[0] = 1  # PyTorch copies an inference tensor out with copy_ (a version bump)
    return r


def _to_dtype(input, dtype, copy=False, memory_format=None):
    npd = dtype.np
    if memory_format is not None and memory_format is not _mf.preserve_format:
        return _to_format(input, dtype, copy, memory_format)
    if input._data.dtype == npd and not copy:
        return input
    out = _convert.cast(input._data, dtype)  # (float64 -> half rounds via float32)
    if out is input._data:
        out = out.copy()
    if _state.enabled and dtype._cat < 2:
        # (an integral result has no node; PyTorch does not look at a stale view's history)
        if input._requires_grad:
            return _make(layout.conform(TO_COPY, (input,), (dtype,), out))
        return _no_graph(TO_COPY, (input,), (dtype,), out)
    if _state.enabled and (input._requires_grad or stale_view_requires_grad(input)):
        r = record(TO_COPY, (input,), (dtype,), out)
        set_input_metadata(r._grad_fn, (input,), out.shape, out.dtype)
        return r
    return _no_graph(TO_COPY, (input,), (dtype,), out)


def _to_format(input, dtype, copy, memory_format):
    """``to(..., memory_format=fmt)``: ``input`` itself when nothing changes (aten's
    to_will_alias: same dtype and ``suggest_memory_format() == fmt``), else one
    ToCopyBackward0 copy laid out in ``fmt``."""
    _mf._check(memory_format, "to")
    a = input._data
    if a.dtype == dtype.np and not copy and memory_format is _mf.suggested(
            a.shape, tuple(s // a.itemsize for s in a.strides)):
        return input
    out = _convert.cast(a, dtype)
    if out is a:
        out = out.copy()
    if dtype._cat < 2:  # (an integer result has no graph)
        return _no_graph(TO_COPY_FORMAT, (input,), (dtype, memory_format), out)
    return _finish(TO_COPY_FORMAT, (input,), (dtype, memory_format), out)


_PY_DTYPES = {float: _dtypes.float64, int: _dtypes.int64, bool: _dtypes.bool,
               complex: _dtypes.complex128}


def to(input, *args, dtype=None, device=None, copy=False, non_blocking=False,
       memory_format=None):
    if args and len(args) == 1 and dtype is None and device is None:
        a = args[0]
        if a.__class__ is _dtypes.dtype:
            dtype, args = a, ()
        elif a.__class__ is str or isinstance(a, _device):
            device, args = a, ()
        elif isinstance(a, Tensor):  # (to(tensor): its dtype, the device ours)
            dtype, args = a.dtype, ()
    elif len(args) == 2 and args[1].__class__ is _dtypes.dtype and dtype is None and \
            device is None and (args[0].__class__ is str or isinstance(args[0], _device)):
        (device, dtype), args = args, ()  # (to(device, dtype))
    if args or dtype.__class__ is type:
        # (PyTorch's overloads, Tensor.to(device, dtype, non_blocking, copy) / (dtype, ...) /
        # (tensor, ...), read by the parser: Note [Argument errors on the exception path])
        given = {k: v for k, v, default in (
            ("dtype", dtype, None), ("device", device, None), ("copy", copy, False),
            ("non_blocking", non_blocking, False), ("memory_format", memory_format, None))
            if v is not default}
        bound = _argparse.bind("Tto", args, given)
        t = bound.get("tensor")
        dtype = bound.get("dtype") if t is None else t.dtype if isinstance(t, Tensor) else (
            _dtypes.bool if t.__class__ is bool else  # (a number is a tensor here: to's;
            _dtypes.complex128 if isinstance(t, (complex, np.complexfloating)) else  # a
            _dtypes.int64 if isinstance(t, int) else _dtypes.float64)  # numpy.bool a double)
        dtype = _PY_DTYPES.get(dtype, dtype)
        device, copy = bound.get("device"), bound.get("copy", False)
    if device is not None:
        from .._devices import check
        check(device)
    if memory_format is not None and memory_format is not _mf.preserve_format:
        return _to_format(input, dtype or input.dtype, copy, memory_format)
    if dtype is None:
        return clone(input) if copy else input
    return _to_dtype(input, dtype, copy)


def type_as(input, other):
    return _to_dtype(input, other.dtype)


def contiguous(input, memory_format=None):
    if memory_format is None or memory_format is _mf.contiguous_format:
        if input.is_contiguous():
            return input
        return clone_contiguous(input)
    _mf._check(memory_format, "contiguous")
    if input.is_contiguous(memory_format=memory_format):
        return input
    if memory_format is _mf.preserve_format:
        raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
    return clone(input, memory_format=memory_format)


def clone_contiguous(input):
    """``clone(memory_format=torch.contiguous_format)`` (aten's reshape, contiguous...)."""
    return _finish(CLONE_CONTIGUOUS, (input,), (), np.array(input._data, order="C"))


def zeros_like_(t, fill=0):
    """Formulas' ``zeros_like`` (``ones_like``: fill 1): empty_like's layout (NumPy's "K"
    order would put a broadcast dim innermost: an expanded tangent's zeros_like would not be
    contiguous)."""
    d = t._data
    z = np.full(d.shape, fill, d.dtype) if fill else np.zeros(d.shape, d.dtype)
    return _make(z if d.flags.c_contiguous else layout.with_strides(z, layout.like_strides(d)))


# ---- in-place variants -------------------------------------------------------------------
def _check_int_alpha(self, alpha, negate=False):
    """alpha of an integer in-place add_/sub_ fits self's dtype (PyTorch's overflow error)."""
    if alpha.__class__ is int and self._data.dtype.kind in "iu":
        _convert.check_python_int(alpha)
        _check_int_scalar(_negated(alpha) if negate else alpha, self._data.dtype)


def _inplace_alpha(self, other, alpha, negate=False):
    """add_/sub_'s checks of alpha, after TensorIterator's (leaf, shapes, cast)."""
    if isinstance(other, (Tensor, bool, int, float, complex)):
        inplace_iter_checks(self, (self, other), _dtypes.result_type(self, other))
        _check_alpha(self, other, alpha, negate)
    _check_int_alpha(self, alpha, negate)


def add_(self, other, *, alpha=1):
    if alpha != 1 or alpha is True:
        _convert.check_python_int(alpha)  # (the argument parser's, before autograd's)
        _inplace_alpha(self, other, alpha)
    return _inplace_binary(ADD, self, other, (alpha,))


def sub_(self, other, *, alpha=1):
    if alpha != 1:
        _convert.check_python_int(alpha)  # (the argument parser's, before autograd's)
    if _is_bool(self) or _is_bool(other):
        # (autograd's checks first: a leaf, a no_grad view when other requires grad)
        inplace.check_inplace(self, (self, other), inference=False)
        _check_bool_sub(self, other)
    if alpha != 1 or alpha is True:
        _inplace_alpha(self, other, alpha, negate=True)
    return _inplace_binary(SUB, self, other, (alpha,))


def mul_(self, other):
    return _inplace_binary(MUL, self, other)


def div_(self, other, *, rounding_mode=NO_MODE):
    if rounding_mode is not None and rounding_mode is not NO_MODE:
        if rounding_mode not in ("floor", "trunc"):
            inplace.check_inplace(self, (self, other))  # (autograd's checks come first)
            raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or "
                               f"'floor' but found '{rounding_mode}'")
        if not isinstance(other, Tensor):  # (a wrapped number: DivBackward2 as PyTorch's)
            _dtypes.result_type(self, other)  # (the number's parsing and promotion errors)
            number, other = other, _scalar_to_tensor(other, self)
            if other._data.itemsize == 2 and other._data.dtype.kind in "fV":
                # (read as a float32, not rounded to self's float16/bfloat16: Note [Half
                # scalars in float32] in _common.py)
                other = _make(np.asarray(number, np.float32))
        common = _dtypes.result_type(self, other)
        inplace_iter_checks(self, (self, other), common)
        _integer_division(f"div_{rounding_mode}_cpu", self, other)
        _no_complex_rounding(rounding_mode, common)
        return _inplace_binary(DIV_MODE, self, other, (rounding_mode,))
    _float_inplace(self, other, op=DIV)
    return _inplace_binary(DIV if rounding_mode is NO_MODE else DIV_NO_MODE, self, other)


_POWERS = (Tensor, int, float, complex, np.generic)


def pow_(self, exponent):
    if exponent.__class__ is not float and exponent.__class__ is not int and \
            not isinstance(exponent, _POWERS):  # (a list: the parser's refusal)
        raise _argparse.wrong_type("pow_", "exponent")
    d = self._data
    if isinstance(exponent, Tensor):
        if d.dtype == np.bool_ and exponent._data.dtype == np.bool_:
            inplace_iter_checks(self, (self, exponent), _dtypes.bool)
            raise NotImplementedError("\"pow\" not implemented for 'Bool'")
        return _inplace_binary(POW_TENSOR, self, exponent)
    try:
        _check_pow_exponent(d.dtype, exponent)
    except RuntimeError:  # (the kernel's conversion: autograd's checks come first)
        inplace.check_inplace(self, (self,))
        raise
    if d.dtype == np.float16 and exponent.__class__ is complex:
        inplace.check_inplace_order(self, (self,))  # (its common dtype is ComplexHalf)
        raise RuntimeError("result type ComplexHalf can't be cast to the desired output type "
                           "Half")
    if d.dtype.kind in "biu" and not isinstance(exponent, (bool, int)):
        inplace_iter_checks(self, (self,), _dtypes.result_type(self, exponent))
    if d.dtype == np.bool_ and isinstance(exponent, bool):  # (bool ** bool stays bool)
        return inplace.record_inplace(POW_SCALAR, self, (self,), (exponent,),
                                      d.copy() if exponent else np.ones_like(d))
    if d.dtype == np.bool_ and not isinstance(exponent, bool):
        d = d.astype(_dtypes.scalar_result_dtype(_dtypes.bool, exponent).np)  # (as pow)
    value = raw.pow_scalar(d, exponent)
    return inplace.record_inplace(POW_SCALAR, self, (self,), (exponent,), value)


def _round_inplace(op, self):
    """floor_ / ceil_: an integral self is left as it is (version bumped), bool refused."""
    d = self._data
    if d.dtype == np.bool_:
        inplace.check_inplace_order(self, (self,))  # (TensorIterator's checks first)
        raise NotImplementedError(f"\"{op.name}_vml_cpu\" not implemented for 'Bool'")
    if d.dtype.kind == "c":  # (the op's own message, after autograd's checks)
        inplace.check_inplace(self, (self,), inference=False)
        refuse_complex(op.name, d.dtype)
    value = d.copy() if d.dtype.kind in "iu" else _asarray(op.kernel(d))
    return inplace.record_inplace(op, self, (self,), (), value)


def floor_(self):
    return _round_inplace(FLOOR, self)


def ceil_(self):
    return _round_inplace(CEIL, self)


def sign_(self):
    return _inplace_unary(SIGN, self, float_op=False)


def square_(self):
    return pow_(self, 2)


def neg_(self):
    if self._data.dtype == np.bool_:
        neg(self)  # raises PyTorch's error for bool negation
    return _inplace_unary(NEG, self)


def abs_(self):
    if self._data.dtype.kind == "c":  # (PyTorch's abs_, after autograd's checks: abs of a
        inplace.check_inplace(self, (self,), inference=False)  # complex is real)
        raise RuntimeError("In-place abs is not supported for complex tensors.")
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
    if min is None and max is None:
        inplace.check_inplace(self, (self,))  # (autograd's checks come first)
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        _check_bounds(min, max)
        if self._data.dtype.kind == "c":  # (number bounds: checked in _clamp_bounds)
            inputs = (self, min, max)  # (autograd's checks, then the kernel's refusal)
            inplace.check_inplace(self, inputs, inference=False)
            view_errors_first(*inputs)
            refuse_complex("clamp", self._data.dtype)
        return _clamp_tensor_(self, min, max)
    min, max, dt = _clamp_bounds_(self, min, max)  # (clamp_ names the C++ type)
    d = self._data
    if dt.np != d.dtype:
        d = d.astype(dt.np)
    return inplace.record_inplace(CLAMP, self, (self,), (min, max),
                                  _asarray(CLAMP.kernel(d, min, max)))


clamp_body_ = clamp_
clamp_ = _clamp_binding("clamp_", clamp_body_, False, True)
clamp_.method = _clamp_binding("clamp_", clamp_body_, True, True)
clip_ = _clamp_binding("clip_", clamp_body_, False, True)
clip_.method = _clamp_binding("clip_", clamp_body_, True, True)


def _clamp_tensor_(self, min, max):
    """clamp_ by tensor bounds: ClampBackward0 recorded in place (its formulas read self as
    it was before the write), in the operands' common dtype cast back, PyTorch's checks in
    TensorIterator's order (autograd's, overlaps, shapes, the cast)."""
    lo = _tensor_arg(min, self) if min is not None else None
    hi = _tensor_arg(max, self) if max is not None else None
    inputs = (self, lo, hi)
    bounds = [b for b in (lo, hi) if b is not None]
    inplace.check_inplace_order(self, inputs)
    inplace.check_output_shape(self._data.shape, *[b._data.shape for b in bounds])
    common = _dtypes.result_type(self, *bounds)
    inplace.check_cast(common.np, self._data.dtype)
    value = CLAMP_TENSOR.kernel(self._data.astype(common.np, copy=False),
                                *[None if b is None else b._data.astype(common.np, copy=False)
                                  for b in (lo, hi)])
    return inplace.record_inplace(CLAMP_TENSOR, self, inputs, (),
                                  _asarray(value).astype(self._data.dtype, copy=False))


def zero_(self):
    return inplace.record_inplace(ZERO, self, (self,), (), np.zeros_like(self._data))


def fill_(self, value):
    if isinstance(value, Tensor):
        # (autograd's checks, then the kernel's; an inference self after the write)
        inplace.check_inplace(self, (self, value), inference=False)
        if value._data.ndim != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {value._data.ndim} dimensions.")
        # (aten's fill_ of a tensor is copy_: copy_'s conversion, bfloat16 -> uint8 too)
        new = _convert.cast(np.broadcast_to(value._data, self._data.shape),
                            _dtypes.from_numpy(self._data.dtype))
        inplace.check_no_internal_overlap(self)  # (fill_ by a tensor checks; by a number not)
        return inplace.record_inplace(FILL_TENSOR, self, (self, value), (), new)
    try:
        v = _convert.scalar_array(value, _dtypes.from_numpy(self._data.dtype),
                                  single=self._data.size == 1)
    except RuntimeError:  # (the kernel's conversion: after autograd's checks)
        inplace.check_inplace(self, (self,))
        raise
    return inplace.record_inplace(FILL, self, (self,), (value,), np.full_like(self._data, v))


def copy_(self, src, non_blocking=False):
    if not isinstance(src, Tensor):
        src = _make(_convert.scalar_array(src, _dtypes.from_numpy(self._data.dtype)))
    sd = src._data
    dst = self._data
    if sd.shape != dst.shape:
        # (PyTorch's leaf/view errors come first; none into an integer or bool tensor)
        inplace.check_inplace(self, (self, src), dst.dtype.kind in "fcV", inference=False)
        # (TensorIterator: the output's own overlap, the input's, then the shapes)
        inplace.check_overlaps(self, (self, src), "copy_")
        if not _broadcastable(sd.shape, dst.shape):
            raise broadcast_error(dst.shape, sd.shape)
        shape = np.broadcast_shapes(sd.shape, dst.shape)
        if shape != dst.shape:
            raise RuntimeError(f"output with shape [{_errors.shape_str(dst.shape)}] doesn't "
                               f"match the broadcast shape [{_errors.shape_str(shape)}]")
        sd = np.broadcast_to(sd, dst.shape)
    if sd.dtype.kind == "V" and dst.dtype.kind in "iu":
        sd = sd.astype(np.float32)  # (bfloat16 -> integers as float32 does: x86 cvtt)
    value = sd.astype(self._data.dtype, copy=False)
    if _aliased(self, (src,)):
        value = aliased_value(_identity, dst, (src._data,), (), value)
    # (record_inplace remembers src's shape and dtype when they differ: sum_to / cast back)
    return inplace.record_inplace(COPY, self, (self, src), (src._data.dtype,), value)


# ---- more unary math (each entry, then its function and in-place variant) ------------------
# Formulas follow PyTorch's derivatives.yaml; they are elementwise, so their forward-mode
# rule is the formula with grad replaced by the tangent (jvp="elementwise").
_LN2, _LN10 = math.log(2.0), math.log(10.0)
# (log10's formula in derivatives.yaml writes 2.3025850929940456: an ulp under ln 10)
_LN10_GRAD = 2.3025850929940456
_2_SQRTPI = 2.0 / math.sqrt(math.pi)

def _acosh_grad(F, grad, self):
    """PyTorch's: grad * ((self + 1).rsqrt() * (self - 1).rsqrt()) for a complex self,
    grad * (self * self - 1).rsqrt() for a real one."""
    if (self if F.is_raw else self._data).dtype.kind == "c":
        return F.mul(grad, F.mul(F.rsqrt(self + 1), F.rsqrt(self - 1)))
    return grad * F.rsqrt(self * self - 1)


LOG1P = defop("log1p", "Log1PBackward0", raw.FLOAT_KERNELS["log1p"], jvp="elementwise",
              grads={"self": lambda F, grad, self: F.div(grad, self + 1)})
EXPM1 = defop("expm1", "Expm1Backward0", raw.FLOAT_KERNELS["expm1"], jvp="elementwise",
              grads={"self": lambda F, grad, result: F.mul(grad, result + 1)})
EXP2 = defop("exp2", "Exp2Backward0", raw.FLOAT_KERNELS["exp2"], jvp="elementwise",
             grads={"self": lambda F, grad, result: F.mul(F.mul(grad, result), _LN2)})
LOG2 = defop("log2", "Log2Backward0", raw.FLOAT_KERNELS["log2"], jvp="elementwise",
             grads={"self": lambda F, grad, self: F.div(grad, F.mul(self, _LN2))})
LOG10 = defop("log10", "Log10Backward0", raw.FLOAT_KERNELS["log10"], jvp="elementwise",
              grads={"self": lambda F, grad, self: F.div(grad, F.mul(self, _LN10_GRAD))})
TAN = defop("tan", "TanBackward0", raw.FLOAT_KERNELS["tan"], jvp="elementwise",
            grads={"self": lambda F, grad, result: F.mul(grad, F.pow(result, 2) + 1)})
ASIN = defop("asin", "AsinBackward0", raw.FLOAT_KERNELS["asin"], jvp="elementwise",
             grads={"self": lambda F, grad, self: F.mul(grad, F.rsqrt(F.mul(-self, self) + 1))})
ACOS = defop("acos", "AcosBackward0", raw.FLOAT_KERNELS["acos"], jvp="elementwise",
             grads={"self": lambda F, grad, self:
                    F.mul(grad, -F.rsqrt(F.mul(-self, self) + 1))})
ATAN = defop("atan", "AtanBackward0", raw.FLOAT_KERNELS["atan"], jvp="elementwise",
             grads={"self": lambda F, grad, self: F.div(grad, F.mul(self, self) + 1)})
SINH = defop("sinh", "SinhBackward0", raw.FLOAT_KERNELS["sinh"], jvp="elementwise",
             grads={"self": lambda F, grad, self: F.mul(grad, F.cosh(self))})
COSH = defop("cosh", "CoshBackward0", raw.FLOAT_KERNELS["cosh"], jvp="elementwise",
             grads={"self": lambda F, grad, self: F.mul(grad, F.sinh(self))})
ASINH = defop("asinh", "AsinhBackward0", raw.FLOAT_KERNELS["asinh"], jvp="elementwise",
              grads={"self": lambda F, grad, self: F.mul(grad, F.rsqrt(F.pow(self, 2) + 1))})
ACOSH = defop("acosh", "AcoshBackward0", raw.FLOAT_KERNELS["acosh"], jvp="elementwise",
              grads={"self": _acosh_grad})
ATANH = defop("atanh", "AtanhBackward0", raw.FLOAT_KERNELS["atanh"], jvp="elementwise",
              # (PyTorch's grad * 1 / (1 - self.pow(2)): grad.mul(1), then the division)
              grads={"self": lambda F, grad, self: F.div(
                  F.mul(grad, 1) if not F.is_raw or grad.dtype.kind == "c" else grad,
                  1 - F.pow(self, 2))})
ERF = defop("erf", "ErfBackward0", _specfun.erf, jvp="elementwise",
            # (PyTorch's 2.0 / sqrt(M_PI) * exp(-(self.pow(2))) * grad, in its order)
            grads={"self": lambda F, grad, self: F.mul(F.exp(-F.pow(self, 2)), _2_SQRTPI) * grad})
ERFC = defop("erfc", "ErfcBackward0", _specfun.erfc, jvp="elementwise",
             grads={"self": lambda F, grad, self: F.mul(F.exp(-F.pow(self, 2)), -_2_SQRTPI) *
                    grad})
ERFINV = defop("erfinv", "ErfinvBackward0", _specfun.erfinv, jvp="elementwise",
               # (PyTorch's 0.5 * sqrt(M_PI) * exp(self.erfinv().pow(2)) * grad: erfinv
               # recomputed, ErfinvBackward0 in a graph of the backward)
               grads={"self": lambda F, grad, self: F.mul(F.exp(F.pow(F.erfinv(self), 2)),
                                                           0.5 * math.sqrt(math.pi)) * grad})
LGAMMA = defop("lgamma", "LgammaBackward0", _specfun.lgamma, jvp="elementwise",
               grads={"self": lambda F, grad, self: grad * F.digamma(self)})
DIGAMMA = defop("digamma", "DigammaBackward0", _specfun.digamma, jvp="elementwise",
                grads={"self": lambda F, grad, self: grad * F.polygamma(1, self)})
_POLYGAMMA_GRADS = {"self": lambda F, grad, n, self: grad * F.polygamma(n + 1, self)}
POLYGAMMA = defop("polygamma", "PolygammaBackward0", lambda a, n: _specfun.polygamma(n, a),
                  params=("n",), jvp="elementwise", grads=_POLYGAMMA_GRADS)
def _float32_ported(kernel, size_limit=True):
    """_in_float32(kernel), with ``ported=True`` for a float32 array (of at most
    raw.PORTED_MAX elements with ``size_limit``): its kernel ported from PyTorch's
    (float16/bfloat16 keep the float32 formula they are rounded from)."""
    half = _in_float32(kernel)

    def float32_ported(a, *args):
        if a.dtype == np.float32 and (not size_limit or a.size <= raw.PORTED_MAX):
            return kernel(a, *args, ported=True)
        return half(a, *args)
    return float32_ported


def _in_float32(kernel):
    """A float16/bfloat16 kernel computed in float32 and rounded once, as PyTorch's CPU
    kernels of these ops are (checked against PyTorch on 61 and 2,048 elements: sinc's
    half-precision pi * x lost 3,000 ulps near the integers)."""
    def half_in_float32(a, *args):
        if a.itemsize == 2 and a.dtype.kind in "fV":
            return np.asarray(kernel(a.astype(np.float32), *args)).astype(a.dtype)
        return kernel(a, *args)
    return half_in_float32


DEG2RAD = defop("deg2rad", "Deg2RadBackward0", _in_float32(lambda a: a * (math.pi / 180)),
                jvp="linear", layout="like",  # (empty_like(self), then deg2rad_out)
                grads={"self": lambda F, grad: F.mul(grad, math.pi / 180)})
RAD2DEG = defop("rad2deg", "Rad2DegBackward0", _in_float32(lambda a: a * (180 / math.pi)),
                jvp="linear", layout="like",
                grads={"self": lambda F, grad: F.mul(grad, 180 / math.pi)})
FRAC = defop("frac", "FracBackward0", lambda a: a - np.trunc(a), jvp="elementwise",
             grads={"self": lambda F, grad: grad})
FRAC.fits_tangent = True  # (``result: self_t``: Note [Shared tangents])
TRUNC = defop("trunc", "TruncBackward0", lambda a: a.copy() if a.dtype.kind in "iu"
              else np.trunc(a), grads=ZERO_GRAD, jvp="elementwise")


def _sinc(a):
    # (float16/bfloat16 in float32, PyTorch's opmath: pi * 3 in half precision is far
    # enough from 3 pi that sinc(3) would be 3e-4 instead of 0)
    x = a.astype(np.float32) if a.dtype.itemsize == 2 and a.dtype.kind in "fV" else a
    pix = x * math.pi  # (sin(pix) as std::sin(float): Note [Float32 transcendentals])
    return np.where(x == 0, 1.0, raw.sin(pix) / np.where(x == 0, 1.0, pix)).astype(a.dtype)


def sinc_backward(F, grad, self):
    """PyTorch's: the product first, then zero where self * self * pi is 0 (so a tangent
    -1 or inf at 0 gives +0.0, and a tiny self whose square underflows gives 0)."""
    pix = F.mul(self, math.pi)  # (F.mul: Note [Half scalars in formulas] in raw.py)
    sq = F.mul(self * self, math.pi)
    out = grad * ((pix * F.cos(pix) - F.sin(pix)) / sq)
    return F.where(sq == 0, F.zeros_like(out), out)


SINC = defop("sinc", "SincBackward0", _sinc, jvp="elementwise", grads={"self": sinc_backward})


def _logit(a, eps):
    contiguous = a.flags.c_contiguous
    if eps is not None and eps >= 0:  # (aten's kernel: a NaN or negative eps clamps nothing;
        # x < lo ? lo : (x > hi ? hi : x), lo = eps and hi = 1 - eps in the dtype)
        lo = np.asarray(eps, a.dtype)
        hi = (np.asarray(1, a.dtype) - lo).astype(a.dtype)
        a = np.where(a < lo, lo, np.where(a > hi, hi, a)).astype(a.dtype, copy=False)
    q = a / (1 - a)
    if q.dtype == np.float32 and not contiguous and q.size <= raw.PORTED_MAX:
        # PyTorch takes MKL's log (vsLn) for a contiguous float32 input, else its own loops:
        # SLEEF's log in the SIMD loop, glibc's logf in the scalar loop
        return _specfun.torch_logf(q, raw.simd_positions(a.shape, a, unroll=2))
    return raw.log(q) if q.dtype == np.float32 else np.log(q)


def logit_backward(F, grad, self, eps):
    if _mixed_without_grad_mode(F, grad, self):  # (aten's kernel, in the common dtype)
        return _kernel_in_common_dtype(lambda R, g, s: logit_backward(R, g, s, eps), grad, self)
    d = grad / (self * (1 - self))
    if eps is None:
        if _state.enabled:  # (infinitely_differentiable_logit_backward)
            return F.where((self >= 0) & (self <= 1), d, math.nan)
        # aten's logit_backward kernel: grad * inf at 0 and 1 (+inf at -0.0 too)
        return F.where((self < 0) | (self > 1), math.nan,
                       F.where((self == 0) | (self == 1), grad * math.inf, d))
    if _state.enabled:  # (grad mode on: create_graph, forward AD) PyTorch's
        # infinitely_differentiable_logit_backward, which gives 0 where self is NaN
        return F.where((self >= eps) & (self <= 1 - eps), d, 0)
    return F.where((self < eps) | (self > 1 - eps), 0, d)


LOGIT = defop("logit", "LogitBackward0", _logit, params=("eps",), jvp="elementwise",
              grads={"self": logit_backward},
              backward_op=("aten::logit_backward", ".", True))


def _nan_to_num(a, nan, posinf, neginf):
    if a.dtype.kind not in "fcV":
        return a.copy()
    if a.dtype.kind == "V":  # bfloat16: NumPy's nan_to_num and finfo do not know it
        info = _dtypes.finfo(_dtypes.bfloat16)
        out = np.nan_to_num(a.astype(np.float32), nan=0.0 if nan is None else nan,
                            posinf=info.max if posinf is None else posinf,
                            neginf=info.min if neginf is None else neginf)
        return out.astype(a.dtype)
    info = np.finfo(a.dtype)
    return np.nan_to_num(a, nan=0.0 if nan is None else nan,
                         posinf=info.max if posinf is None else posinf,
                         neginf=info.min if neginf is None else neginf)


NAN_TO_NUM = defop("nan_to_num", "NanToNumBackward0", _nan_to_num,
                   params=("nan", "posinf", "neginf"), jvp="elementwise",
                   layout="like",  # (empty_like(self), then nan_to_num_out)
                   # PyTorch's grad * isfinite(self): -0.0 for a negative grad, NaN for an
                   # infinite one where self is not finite
                   grads={"self": lambda F, grad, self: grad * (
                       (self == self) & (self != math.inf) & (self != -math.inf))})


def _inplace_unary_fn(op, float_op=True):
    def fn_(self, *params):
        return _inplace_unary(op, self, params, float_op=float_op)
    fn_.__name__ = fn_.__qualname__ = op.name + "_"
    return fn_


log1p = _unary_fn(LOG1P, "log(1 + x), accurate for small x.")
expm1 = _unary_fn(EXPM1, "exp(x) - 1, accurate for small x.")
exp2 = _unary_fn(EXP2, "Elementwise 2 ** x.")
log2 = _unary_fn(LOG2, "Elementwise base-2 logarithm.")
log10 = _unary_fn(LOG10, "Elementwise base-10 logarithm.")
tan = _unary_fn(TAN, "Elementwise tangent.")
asin = arcsin = _unary_fn(ASIN, "Elementwise arcsine.")
acos = arccos = _unary_fn(ACOS, "Elementwise arccosine.")
atan = arctan = _unary_fn(ATAN, "Elementwise arctangent.")
sinh = _unary_fn(SINH, "Elementwise hyperbolic sine.")
cosh = _unary_fn(COSH, "Elementwise hyperbolic cosine.")
asinh = arcsinh = _unary_fn(ASINH, "Elementwise inverse hyperbolic sine.")
acosh = arccosh = _unary_fn(ACOSH, "Elementwise inverse hyperbolic cosine.")
atanh = arctanh = _unary_fn(ATANH, "Elementwise inverse hyperbolic tangent.")
erf = _unary_fn(ERF, "The error function.")
erfc = _unary_fn(ERFC, "1 - erf(x), accurate where erf(x) is near 1.")
erfinv = _unary_fn(ERFINV, "The inverse of erf on (-1, 1).")
lgamma = _unary_fn(LGAMMA, "log |Gamma(x)|.")
digamma = _unary_fn(DIGAMMA, "The logarithmic derivative of Gamma.")
deg2rad = _unary_fn(DEG2RAD, "Degrees to radians.")
rad2deg = _unary_fn(RAD2DEG, "Radians to degrees.")
sinc = _unary_fn(SINC, "sin(pi x) / (pi x), 1 at 0.")
log1p_, expm1_, exp2_, log2_, log10_, tan_ = (
    _inplace_unary_fn(op) for op in (LOG1P, EXPM1, EXP2, LOG2, LOG10, TAN))
asin_, acos_, atan_, sinh_, cosh_, asinh_, acosh_, atanh_ = (
    _inplace_unary_fn(op) for op in (ASIN, ACOS, ATAN, SINH, COSH, ASINH, ACOSH, ATANH))
arcsin_, arccos_, arctan_, arcsinh_, arccosh_, arctanh_ = (
    asin_, acos_, atan_, asinh_, acosh_, atanh_)
erf_, erfc_, erfinv_, lgamma_, digamma_, deg2rad_, rad2deg_, sinc_ = (
    _inplace_unary_fn(op) for op in (ERF, ERFC, ERFINV, LGAMMA, DIGAMMA, DEG2RAD, RAD2DEG,
                                     SINC))


@view_errors_before_checks
def polygamma(n, input):
    """The n-th derivative of digamma."""
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    _no_complex_polygamma(n, input)
    return _unary(POLYGAMMA, input, params=(n,))


def _no_complex_polygamma(n, input):
    """PyTorch's polygamma dispatches to digamma (n=0), trigamma (n=1) or its own kernel,
    none with complex types."""
    if input._data.dtype.kind == "c":
        name = "digamma" if n == 0 else "trigamma" if n == 1 else "polygamma"
        raise NotImplementedError(f"\"{name}\" not implemented for "
                                  f"'{_dtypes.scalar_name(input.dtype)}'")


def polygamma_(self, n):
    # (autograd's checks, polygamma's meta (n), TensorIterator's, then the dispatch)
    inplace.check_inplace(self, (self,), inference=False)
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    if self._data.dtype.kind == "c":
        inplace.check_inplace_order(self, (self,))
    _no_complex_polygamma(n, self)
    return _inplace_unary(POLYGAMMA_, self, (n,), float_op=True)


def logit(input, eps=None):
    """log(p / (1 - p)), p clamped to [eps, 1 - eps] when eps is given."""
    _float_arg("logit", "eps", eps, 2)
    if eps is not None:  # (a double; the kernel's read, as the result dtype: checked)
        eps = float(eps)
        d = _tensor_arg(input)._data.dtype
        if d.kind != "c":  # (complex: the kernel's dispatch error)
            _kernel_scalar(eps, d if d.kind in "fV" else _dtypes.default_float.np)
    return _unary(LOGIT, input, params=(eps,))


def logit_(self, eps=None):
    return _inplace_unary(LOGIT, self, (eps,), float_op=True)


def _trunc_check(input, name):
    if _tensor_arg(input)._data.dtype == np.bool_:
        raise NotImplementedError(f"\"{name}\" not implemented for 'Bool'")


def trunc(input):
    """Round toward zero (integers are returned unchanged)."""
    _trunc_check(input, "trunc_vml_cpu")
    return _unary(TRUNC, input, float_op=False)


fix = trunc


def trunc_(self):
    if self._data.dtype == np.bool_:
        inplace.check_inplace_order(self, (self,))  # (TensorIterator's checks first)
    _trunc_check(self, "trunc_vml_cpu")
    return _inplace_unary(TRUNC, self, float_op=False)


fix_ = trunc_


def frac(input):
    """x - trunc(x), with x's sign."""
    d = _tensor_arg(input)._data
    if d.dtype.kind in "biu":
        raise NotImplementedError(f"\"frac_cpu\" not implemented for "
                                  f"'{_dtypes.scalar_name(_dtypes.from_numpy(d.dtype))}'")
    return _unary(FRAC, input, float_op=False)


def frac_(self):
    if self._data.dtype.kind in "biuc":
        inplace.check_inplace_order(self, (self,))  # (TensorIterator's checks first)
    frac(self.detach())
    return _inplace_unary(FRAC, self, float_op=False)


def _float_arg(name, arg, value, position=None):
    """The argument parser's ``double`` (a Python int or float, or None where optional)."""
    if value is not None and not isinstance(value, (int, float)):
        at = "" if position is None else f" (position {position})"
        raise TypeError(f"{name}(): argument '{arg}'{at} must be float, not "
                        f"{type(value).__name__}")


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """NaN to ``nan``, +-inf to ``posinf``/``neginf`` (default: the dtype's extremes)."""
    for arg, v in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        _float_arg("nan_to_num", arg, v)
    return _unary(NAN_TO_NUM, input, float_op=False, params=(nan, posinf, neginf))


def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
    for arg, v in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        _float_arg("nan_to_num_", arg, v)
    if self._data.dtype.kind in "biu":
        # aten copies an integral self into itself: copy_'s early return, no overlap check
        inplace.check_inplace(self, (self,))
        self._vc[0] += 1
        return self
    return _inplace_unary(NAN_TO_NUM, self, (nan, posinf, neginf), float_op=False)


def sgn(input):
    """sign(x) for real tensors (x / |x| for complex ones)."""
    return _unary(SGN, input, float_op=False)


def sgn_(self):
    return _inplace_unary(SGN, self, float_op=False)


def signbit(input):
    """True where the sign bit is set (also for -0.0); never differentiable."""
    d = _tensor_arg(input)._data
    if d.dtype.kind == "c":
        refuse_complex("signbit", d.dtype)
    return _make(_asarray(np.signbit(d)))


# ---- more binary and ternary math --------------------------------------------------------
def _float_args(*xs):
    """Integral tensors as the default float dtype: ops whose result is always floating."""
    return tuple(_to_dtype(x, _dtypes.default_float)
                 if isinstance(x, Tensor) and x._data.dtype.kind in "biu" else x for x in xs)


def _binary_float(op, name, input, other):
    _check_tensor_arg(name, "input", input, 1)
    _check_tensor_arg(name, "other", other, 2)
    if input._data.dtype.kind in "biu" and other._data.dtype.kind in "biu":
        input, other = _float_args(input, other)
    return _binary(op, input, other)


def _atan2_recip(F, self, other):
    """PyTorch's atan2_backward: 1 / (self^2 + other^2), 0 where that sum is 0 (the
    gradient at the origin, or where the squares underflow, is 0)."""
    den = self * self + other * other
    return F.masked_fill(F.reciprocal(den), den == 0, 0)  # (its graph: MaskedFill(Reciprocal))


def atan2_grads():
    return {"self": lambda F, grad, self, other: grad * other * _atan2_recip(F, self, other),
            # PyTorch's grad * -self: a bool self raises as there (its jvp reads -self_p too)
            "other": lambda F, grad, self, other:
                grad * F.neg(self) * _atan2_recip(F, self, other)}


def _atan2_jvp(F, self_t, other_t, self, other):
    """PyTorch's (-self_p * other_t + other_p * self_t) / (self_p^2 + other_p^2), one
    division (at tiny operands the denominator underflows to 0: +-inf, not NaN)."""
    if other_t is None:
        num = other * self_t
    else:
        num = -self * other_t
        if self_t is not None:
            num = num + other * self_t
    return num / (F.pow(self, 2) + F.pow(other, 2))


ATAN2 = defop("atan2", "Atan2Backward0", raw.FLOAT_KERNELS["atan2"], inputs=("self", "other"),
              jvp=_atan2_jvp, grads=atan2_grads())
HYPOT = defop("hypot", "HypotBackward0", np.hypot, inputs=("self", "other"), jvp="elementwise",
              grads={"self": lambda F, grad, self, result: grad * self / result,
                     "other": lambda F, grad, other, result: grad * other / result})
def _logaddexp(a, b):
    """PyTorch's CPU kernel, max(a, b) + log1p(exp(-|a - b|)) (a where both are the same
    infinity); for complex data PyTorch's _log_add_exp_helper."""
    if a.dtype.kind == "c" or np.asarray(b).dtype.kind == "c":
        return raw.log_add_exp_complex(a, b)
    return _log_add(a, b, np.exp, None)


def _logaddexp2(a, b):
    """PyTorch's CPU kernel, max(a, b) + log1p(exp2(-|a - b|)) * (1 / ln 2), fused."""
    return _log_add(a, b, np.exp2, 1 / math.log(2))


def _log_add(a, b, exp, scale):
    a, b = np.asarray(a), np.asarray(b)
    dt = np.result_type(a, b)
    if dt.itemsize == 2:  # (half precision: computed in float32, rounded once)
        return _log_add(a.astype(np.float32), b.astype(np.float32), exp, scale).astype(dt)
    with np.errstate(invalid="ignore", over="ignore"):
        m = np.maximum(a, b)
        d = -np.abs(a - b)
        if dt == np.float32:  # (SLEEF's float32 exp and log1p: the float64 ones rounded)
            t = np.log1p(exp(d.astype(np.float64)).astype(np.float32).astype(np.float64))
            t = t.astype(np.float32)
        else:
            t = np.log1p(exp(d))
        # (logaddexp2's m + t * (1 / ln 2) is one fused multiply-add in PyTorch's kernel)
        r = m + t if scale is None else raw._fma(t, dt.type(scale), m, dt.type)
        same_inf = np.isinf(a) & (a == b)
    return np.where(same_inf, a, r).astype(dt, copy=False) if same_inf.any() else \
        np.asarray(r, dtype=dt)


def _operand_difference(a, b):
    """a - b in a formula, refusing a bool operand as PyTorch's ``-`` does."""
    if _dt(a) == np.bool_ or _dt(b) == np.bool_:
        raise RuntimeError(_BOOL_SUB)
    return a - b


LOGADDEXP = defop("logaddexp", "LogaddexpBackward0", _logaddexp, inputs=("self", "other"),
                  jvp="elementwise",
                  grads={"self": lambda F, grad, self, other:
                         grad / (F.exp(_operand_difference(other, self)) + 1),
                         "other": lambda F, grad, self, other:
                         grad / (F.exp(_operand_difference(self, other)) + 1)})
LOGADDEXP2 = defop("logaddexp2", "Logaddexp2Backward0", _logaddexp2, inputs=("self", "other"),
                   jvp="elementwise",
                   grads={"self": lambda F, grad, self, other:
                          grad / (F.pow(2.0, _operand_difference(other, self)) + 1),
                          "other": lambda F, grad, self, other:
                          grad / (F.pow(2.0, _operand_difference(self, other)) + 1)})


def _xlogy(a, b):
    dt = np.result_type(a, b)
    if dt == np.float32:  # PyTorch's scalar kernel: x * std::log(y), glibc's logf (ported)
        return np.where((a == 0) & (b == b), np.float32(0), a * _specfun.logf(b)).astype(dt)
    return np.where((a == 0) & (b == b), 0.0, a * np.log(b)).astype(dt)


def _xlogy_self(F, grad, self, other):
    # PyTorch's: 0 at self == 0, other <= 0 (Note [Gradient formula for xlogy at x = 0, y <=
    # 0] in derivatives.yaml), so also its tangent there (relu(x).xlogy(x) at x < 0: 0)
    return F.masked_fill(F.xlogy(grad, other), (self == 0) & (other <= 0), 0)


def _xlogy_self_scalar(F, grad, self, other):
    g = F.xlogy(grad, other)
    return g if other > 0 else F.masked_fill(g, self == 0, 0)


XLOGY = defop("xlogy", "XlogyBackward0", _xlogy, inputs=("self", "other"), jvp="elementwise",
              grads={"self": _xlogy_self,
                     "other": lambda F, grad, self, other: grad * self / other})
XLOGY.dense_zero_terms = {0: None}  # (Note [Dense zero terms]: xlogy(self_t, other) of zeros)
# (other_t * self_p / other_p: other's zero tensor promotes with both primals, under no_grad
# too: Note [Scaled zero term] in dispatch.py, _zero_term)
XLOGY.zero_terms = FMOD_TENSOR.zero_terms = ((1, (0, 1)),)
XLOGY_SCALAR_SELF = defop("xlogy", "XlogyBackward1",
                          lambda b, a: _xlogy(np.asarray(a, b.dtype), b), inputs=("other",),
                          params=("self",), jvp="elementwise",
                          grads={"other": lambda F, grad, self, other: grad * self / other})
XLOGY_SCALAR_OTHER = defop("xlogy", "XlogyBackward2",
                           lambda a, b: _xlogy(a, np.asarray(b, a.dtype)), params=("other",),
                           jvp="elementwise",
                           grads={"self": _xlogy_self_scalar})


def _copysign_grad(F, grad, self, result):
    """PyTorch's copysign_tensor_self_backward: grad * (result / self).masked_fill_(self ==
    0, 0) (its graph: MulBackward0 -> MaskedFillBackward0 -> DivBackward0)."""
    return grad * F.masked_fill(result / self, self == 0, 0)


COPYSIGN = defop("copysign", "CopysignBackward0", np.copysign, inputs=("self", "other"),
                 # PyTorch's rule reads self_t only: no tangent when only other has one
                 jvp=lambda F, self, self_t, result: None if self_t is None else
                 _copysign_grad(F, self_t, self, result),
                 grads={"self": _copysign_grad, "other": lambda F, grad: F.zeros_like(grad)})
COPYSIGN_SCALAR = defop("copysign", "CopysignBackward1", np.copysign, params=("other",),
                        jvp="elementwise", grads={"self": _copysign_grad})
def _fmax_fmin_jvp(pick_self):
    """PyTorch's rule, which at ties takes other's tangent for fmax and self's for fmin
    (its backward gives ties to self for both)."""
    return _blend_jvp(lambda F, self, other, result: pick_self(self, other) | (other != other))
    # (a bool mask, as PyTorch's (self_p > other_p).logical_or_(other_p.isnan()): the
    # tangent keeps the tangents' dtype, where maximum's weight in result's dtype promotes)


def _first_at_ties(ufunc):
    """fmax/fmin keeping self at a tie of signed zeros, as PyTorch's kernels (glibc's fmax
    and its SIMD loop both return the first operand; NumPy's the second)."""
    def kernel(a, b):
        out = ufunc(a, b)
        if out.dtype.kind == "f":
            tie = (a == 0) & (b == 0)
            if tie.any():
                out = np.where(tie, a, out).astype(out.dtype, copy=False)
        return out
    return kernel


def _fmax_fmin_grads(self_wins):
    """PyTorch's fmax/fmin backward: grad.masked_fill(mask, 0) with mask where self (or
    other) is not picked, other picked at a NaN other (its graph: MaskedFillBackward0)."""
    def picked(self, other):
        return self_wins(self, other) | (other != other)
    return {"self": lambda F, grad, self, other: F.masked_fill(grad, ~picked(self, other), 0),
            "other": lambda F, grad, self, other: F.masked_fill(grad, picked(self, other), 0)}


FMAX = defop("fmax", "FmaxBackward0", _first_at_ties(np.fmax), inputs=("self", "other"),
             jvp=_fmax_fmin_jvp(lambda a, b: a > b),
             grads=_fmax_fmin_grads(lambda a, b: a >= b))
FMIN = defop("fmin", "FminBackward0", _first_at_ties(np.fmin), inputs=("self", "other"),
             jvp=_fmax_fmin_jvp(lambda a, b: a <= b),
             grads=_fmax_fmin_grads(lambda a, b: a <= b))


def atan2(input, other, *, _name="atan2"):
    """The angle of (other, input), in (-pi, pi]."""
    return _binary_float(ATAN2, _name, input, other)


def arctan2(input, other):
    return atan2(input, other, _name="arctan2")


def _float_only(name, input, other, complex_ok=True):
    """hypot, logaddexp, ...: tensors only, no integral kernels (PyTorch's errors);
    ``complex_ok``: the kernel has complex types (logaddexp's, not logaddexp2's)."""
    _check_tensor_arg(name, "input", input, 1)
    _check_tensor_arg(name, "other", other, 2)
    dt = _dtypes.result_type(input, other)
    if not (dt.is_floating_point or (dt.is_complex and complex_ok)):
        check_broadcast(input._data.shape, other._data.shape)
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for "
                                  f"'{_dtypes.scalar_name(dt)}'")


def hypot(input, other):
    """sqrt(input ** 2 + other ** 2) without overflow."""
    _float_only("hypot", input, other)
    return _binary(HYPOT, input, other)


def logaddexp(input, other):
    """log(exp(input) + exp(other)), computed stably."""
    _float_only("logaddexp", input, other)
    return _binary(LOGADDEXP, input, other)


def logaddexp2(input, other):
    """log2(2 ** input + 2 ** other), computed stably."""
    _float_only("logaddexp2", input, other, complex_ok=False)
    return _binary(LOGADDEXP2, input, other)


def xlogy(input, other):
    """input * log(other), 0 where input is 0 (unless other is NaN)."""
    if not isinstance(input, Tensor):
        if not isinstance(other, Tensor):
            raise TypeError("xlogy() received an invalid combination of arguments")
        _refuse_complex_result("xlogy", input, other)
        (o,) = _float_args(other)
        out = _asarray(XLOGY_SCALAR_SELF.kernel(o._data, input))
        return _finish(XLOGY_SCALAR_SELF, (o,), (input,), out)
    if not isinstance(other, Tensor):
        _scalar_dtype_data(input._data, other)  # (a number's checks: uint64 with bool)
        _refuse_complex_result("xlogy", input, other)
        (a,) = _float_args(input)
        out = _asarray(XLOGY_SCALAR_OTHER.kernel(a._data, other))
        return _finish(XLOGY_SCALAR_OTHER, (a,), (other,), out)
    return _binary(XLOGY, *_float_unless_promoted(input, other))


def _float_unless_promoted(input, other):
    """Two integral tensors as the default float dtype; otherwise PyTorch's promotion, in
    which a float 0-d tensor decides over an integral one with dims (float64 0-d with int64
    (2,): float64)."""
    if input._data.dtype.kind in "biu" and other._data.dtype.kind in "biu":
        return _float_args(input, other)
    return input, other


def copysign(input, other):
    """|input| with other's sign (also the sign of -0.0)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"copysign() received an invalid combination of arguments - got "
                        f"({type(input).__name__}, {type(other).__name__}), but expected one "
                        f"of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n * "
                        f"(Tensor input, Number other, *, Tensor out = None)")
    if isinstance(other, Tensor):
        return _binary(COPYSIGN, *_float_unless_promoted(input, other))
    _refuse_complex_result("copysign", input, other)  # (uint64 with bool: promotion's)
    (a,) = _float_args(input)
    d = _scalar_dtype_data(a._data, other)
    return _finish(COPYSIGN_SCALAR, (a,), (other,), _asarray(np.copysign(d, other)))


def _refuse_complex_result(name, input, other):
    """A real-only kernel given a number: the result type's promotion error, then its
    dispatch error for a complex result."""
    rt = _dtypes.result_type(input, other)
    if rt.np.kind == "c":
        refuse_complex(name, rt.np)


def fmax(input, other):
    """maximum that ignores NaN (NaN only where both are NaN)."""
    _check_tensor_arg("fmax", "input", input, 1)
    _check_tensor_arg("fmax", "other", other, 2)
    return _binary(FMAX, input, other)


def fmin(input, other):
    """minimum that ignores NaN (NaN only where both are NaN)."""
    _check_tensor_arg("fmin", "input", input, 1)
    _check_tensor_arg("fmin", "other", other, 2)
    return _binary(FMIN, input, other)


def _float_inplace(self, other=None, name=None, op=None):
    """TensorIterator's checks of an in-place float op on an integral or bool self (the
    common dtype of integers is the default float: atan2, div...; with ``name``, an op
    whose common dtype stays integral and whose kernel refuses it: hypot). ``op`` (with a
    tensor ``other``): autograd's refusal to save an integral self comes first."""
    if self._data.dtype.kind in "biuc" or (
            isinstance(other, Tensor) and other._data.dtype.kind != self._data.dtype.kind):
        inputs = (self,) if other is None else (self, other)
        if op is not None and isinstance(other, Tensor):
            inplace.check_inplace_order(self, inputs)
            inplace.check_saved_self(op, self, inputs)
        if name is not None:
            return inplace_float_kernel(self, other, name + "_cpu")
        common = _dtypes.result_type(self, other) if other is not None else self.dtype
        if not (common.is_floating_point or common.is_complex):
            common = _dtypes.default_float
        inplace_iter_checks(self, inputs, common)


def atan2_(self, other):
    _float_inplace(self, other, op=ATAN2)
    return _inplace_binary(ATAN2, self, other)


arctan2_ = atan2_


def hypot_(self, other):
    _float_inplace(self, other, "hypot", op=HYPOT)
    return _inplace_binary(HYPOT, self, other)


def _ldexp_self(F, grad, other):
    """PyTorch's ``grad * pow(2, other)``: an integer power for an integral exponent, so a
    negative integer exponent gives a zero gradient (its integer 2 ** -1 is 0)."""
    if F.is_raw:
        o = np.asarray(other)
        return grad * (raw.int_pow(np.asarray(2, o.dtype), o) if o.dtype.kind in "biu"
                       else np.power(o.dtype.type(2), o))
    return grad * F.pow(2, other)


def _ldexp_kernel(a, b, exp_dtype=None):
    """PyTorch's ``self * _pow2(self, other)``, the power in ``exp_dtype`` (_pow2_dtype)."""
    if exp_dtype is not None and exp_dtype != a.dtype:
        p = _pow2(b.astype(exp_dtype))
        if a.itemsize == 2 and p.ndim == 0:  # (Note [Half scalars in float32] in _common.py:
            # mul reads a 0-d operand as a float32)
            return (a.astype(np.float32) * np.float32(p)).astype(a.dtype)
        return a * p.astype(a.dtype)
    return a * _pow2(b)


def _pow2(e):
    """2 ** e in e's dtype (float32 rounded once from float64, as _pow_scalar_base; a
    complex e through std::pow's exp(e * log(2)): 2 ** 3 is 7.999999999999998)."""
    if e.dtype.kind == "c":
        return raw.complex_pow(np.asarray(2, e.dtype), e)
    if e.dtype == np.float32:
        return np.power(2.0, e.astype(np.float64)).astype(np.float32)
    return np.power(e.dtype.type(2), e)


def _exp_dtype(input, other):
    """The dtype of aten's _pow2(self, other) for a floating exponent: ``pow(2.0, other)``
    (other's dtype) for an integral or float32 self, else ``full({}, 2.0, self's dtype).pow(
    other)``: other's dtype unless other is 0-d too (then their promotion). So a float16
    exponent's 2 ** e is rounded to float16 before a float32 self multiplies it."""
    od = other._data if isinstance(other, Tensor) else None
    if od is not None and "c" in (od.dtype.kind, input._data.dtype.kind):
        return _complex_exp_dtype(input._data.dtype, od)
    if od is None or od.dtype.kind not in "fV":
        return None
    sd = input._data.dtype
    if sd.kind in "biu" or sd == np.float32 or od.ndim:
        return od.dtype
    if sd.kind not in "fV":
        return None
    return _dtypes.binary_result_dtype(_dtypes.from_numpy(sd), True,
                                       _dtypes.from_numpy(od.dtype), True).np


def _complex_exp_dtype(sd, od):
    """_pow2's dtype where a complex takes part: pow(2.0, other), other's dtype, for a real
    self; full({}, 2.0, self's dtype).pow(other) for a complex one: other's dtype where it
    is complex and has dims, its complex counterpart where it is floating (float16's
    ComplexHalf has no pow), self's where it is integral, their promotion for a 0-d
    other."""
    if sd.kind != "c":
        return od.dtype
    if od.ndim == 0:
        return _dtypes.binary_result_dtype(_dtypes.from_numpy(sd), True,
                                           _dtypes.from_numpy(od.dtype), True).np
    if od.dtype.kind == "c":
        return od.dtype
    if od.dtype.kind in "biu":
        return sd
    if od.dtype == np.float16:
        raise NotImplementedError("\"pow\" not implemented for 'ComplexHalf'")
    return np.dtype(np.complex128 if od.dtype == np.float64 else np.complex64)


LDEXP = defop("ldexp", "LdexpBackward0", _ldexp_kernel, params=("exp_dtype",),
              inputs=("self", "other"), jvp="elementwise",
              grads={"self": _ldexp_self,
                     "other": lambda F, grad, result: F.mul(grad * result, math.log(2.0))})
# (other_t * result * log(2): an integral other's zero tensor times the result, which has
# self's dtype, promotes the tangent under no_grad too: Note [Scaled zero term] in dispatch.py)
LDEXP.zero_terms = ((1, (0,)),)


def ldexp(input, other, *, out=None):
    """input * 2 ** other, in floating point (LdexpBackward0, as PyTorch's)."""
    if out is not None:  # Note [out= arguments] in _out.py
        from ._out import write_out
        return write_out("ldexp", ldexp(input, other), out)
    _check_tensor_arg("ldexp", "other", other, 2)
    _ldexp_bool_exponent(input, other)
    return _binary(LDEXP, *_float_unless_promoted(input, other), params=(_exp_dtype(input, other),))


def _ldexp_bool_exponent(input, other):
    """PyTorch's kernel for a floating self and an integral exponent has no bool exponent."""
    if other._data.dtype == np.bool_ and input._data.dtype.kind in "fV":
        check_broadcast(input._data.shape, other._data.shape)  # (TensorIterator's first)
        raise NotImplementedError("\"ldexp_cpu_exp\" not implemented for 'Bool'")


FREXP = defop("frexp", "FrexpBackward0", None, outputs=("mantissa", "exponent"),
              diff_outputs=(0,),
              grads={"self": lambda F, grads, exponent: grads[0] / F.exp2(exponent)},
              jvp=lambda F, self_t, exponent: (self_t / F.exp2(exponent), None))


def frexp(input, *, out=None):
    """(mantissa, exponent): input = mantissa * 2**exponent, 0.5 <= |mantissa| < 1 (int32
    exponents; 0, inf and nan keep their value with exponent 0)."""
    from ._out import write_out
    from .linalg import _named_result
    d = input._data
    if not input.dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    if out is not None:
        if not isinstance(out, (tuple, list)):
            raise TypeError("frexp(): argument 'out' must be tuple of Tensors, not "
                            f"{type(out).__name__}")
        if out[0].dtype != input.dtype:
            raise RuntimeError("torch.frexp() expects mantissa to have dtype "
                               f"{_dtypes.cpp_name(input.dtype)} but got "
                               f"{_dtypes.cpp_name(out[0].dtype)}")
        if out[1]._data.dtype != np.int32:
            raise RuntimeError("torch.frexp() expects exponent to have int dtype but got "
                               f"{_dtypes.cpp_name(out[1].dtype)}")
        return _named_result("frexp_out", ("mantissa", "exponent"))(
            *write_out("frexp", frexp(input), out))
    if d.dtype.kind != "f":  # bfloat16: its values are float32's
        m, e = np.frexp(d.astype(np.float32))
        m = m.astype(d.dtype)
    else:
        m, e = np.frexp(d)
    res = _finish(FREXP, (input,), (), (m, e.astype(np.int32, copy=False)))
    return _named_result("frexp", ("mantissa", "exponent"))(*res)


def ldexp_(self, other):
    _check_tensor_arg("ldexp_", "other", other, 1)
    if self._data.dtype.kind in "biu":  # (checked before the shapes, after autograd's
        inplace.check_inplace(self, (self, other), inference=False)  # checks)
        raise RuntimeError(f"ldexp can't be cast to the desired output type "
                           f"{_dtypes.scalar_name(self.dtype)}")
    if other._data.dtype == np.bool_:
        inplace.check_inplace(self, (self, other))  # (autograd's checks, then the kernel's)
        _ldexp_bool_exponent(self, other)
    return _inplace_binary(LDEXP, self, other, params=(_exp_dtype(self, other),))


def xlogy_(self, other):
    _convert.check_python_int(other)  # (a c10::Scalar, parsed first)
    _float_inplace(self, other, op=XLOGY)
    if not isinstance(other, Tensor):
        rt = _dtypes.result_type(self, other)
        if rt.is_complex:  # (a complex self or number: TensorIterator's checks, the cast
            inplace_iter_checks(self, (self, other), rt)  # among them, then the kernel's
            refuse_complex("xlogy", rt.np)  # refusal)
        value = _asarray(XLOGY_SCALAR_OTHER.kernel(self._data, other))
        return inplace.record_inplace(XLOGY_SCALAR_OTHER, self, (self,), (other,), value)
    return _inplace_binary(XLOGY, self, other)


def copysign_(self, other):
    _convert.check_python_int(other)  # (a c10::Scalar, parsed first)
    _float_inplace(self, other, op=COPYSIGN)
    if not isinstance(other, Tensor):
        rt = _dtypes.result_type(self, other)
        if rt.is_complex:  # (as xlogy_'s)
            inplace_iter_checks(self, (self, other), rt)
            refuse_complex("copysign", rt.np)
        value = _asarray(np.copysign(self._data, other))
        return inplace.record_inplace(COPYSIGN_SCALAR, self, (self,), (other,), value)
    return _inplace_binary(COPYSIGN, self, other)


def float_power(input, exponent):
    """pow computed in double precision (float64, or complex128 for complex operands)."""
    # (PyTorch casts both tensors to complex128 where either is complex: pow's real-input
    # terms are then complex, Note [Real input terms])
    cplx = any(x._data.dtype.kind == "c" if isinstance(x, Tensor) else isinstance(x, complex)
               for x in (input, exponent))

    def up(x):
        if isinstance(x, Tensor):
            return _to_dtype(x, _dtypes.complex128 if cplx else _dtypes.float64)
        return complex(x) if isinstance(x, complex) else float(x)
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise TypeError("float_power() received an invalid combination of arguments")
    for x in (input, exponent):
        if x.__class__ is int:
            _convert.check_python_int(x)  # (a c10::Scalar, parsed first)
    return pow(up(input), up(exponent))


def float_power_(self, exponent):
    # (PyTorch's composite: complex128 where either operand is complex, a complex number
    # included, else float64; self must have it, the exponent is cast to it)
    cplx = self._data.dtype.kind == "c" or (
        exponent._data.dtype.kind == "c" if isinstance(exponent, Tensor)
        else isinstance(exponent, complex))
    dt = _dtypes.complex128 if cplx else _dtypes.float64
    if self._data.dtype != dt.np:
        raise RuntimeError(f"the base given to float_power_ has dtype "
                           f"{_dtypes.scalar_name(self.dtype)} but the operation's result "
                           f"requires dtype {_dtypes.scalar_name(dt)}")
    if isinstance(exponent, Tensor):
        return pow_(self, _to_dtype(exponent, dt))
    return pow_(self, complex(exponent) if cplx else float(exponent))


def _ternary(op, inputs, params, kernel_args):
    """An elementwise op of several tensors, broadcast and promoted together."""
    tensors = [x for x in inputs if isinstance(x, Tensor)]
    dt = _dtypes.result_type(*tensors).np
    arrays = [x._data.astype(dt, copy=False) for x in inputs]
    try:
        shape = np.broadcast_shapes(*(a.shape for a in arrays))
    except ValueError:
        shape = arrays[0].shape  # (TensorIterator's: the first operand that does not fit)
        for a in arrays[1:]:
            try:
                shape = np.broadcast_shapes(shape, a.shape)
            except ValueError:
                raise broadcast_error(shape, a.shape) from None
        raise
    out = _asarray(op.kernel(*arrays, *kernel_args)).astype(dt, copy=False)
    r = _finish(op, tuple(inputs), params, out)
    if r._grad_fn is not None:
        set_input_metadata(r._grad_fn, inputs, shape, out.dtype)
    return r


def _lerp(a, b, w):
    """PyTorch's lerp kernel: one fused multiply-add from the nearer end,
    ``fma(w, end - self, self)`` for |w| < 0.5, else ``fma(w - 1, end - self, end)``, in
    the opmath type (float32 for float16/bfloat16; a number weight is read as that type),
    rounded once to the dtype. Complex: the two-sided formula (no fused complex kernel)."""
    dt = a.dtype
    if dt.kind == "c":
        return np.where(np.abs(w) < 0.5, a + w * (b - a), b - (b - a) * (1 - w))
    op = np.float64 if dt == np.float64 else np.float32
    self_, end = a.astype(op, copy=False), np.asarray(b).astype(op, copy=False)
    w = np.asarray(w).astype(op, copy=False)
    small = np.abs(w) < 0.5
    diff = end - self_
    if small.ndim == 0:
        coeff, base = (w, self_) if small else (w - op(1), end)
    else:
        coeff, base = np.where(small, w, w - op(1)), np.where(small, self_, end)
    with np.errstate(invalid="ignore", over="ignore"):
        out = raw._fma(coeff, diff, base, op)
        zero = (coeff == 0) & ~small  # (w == 1: the scalar loop's end - diff * (1 - w)
        if zero.any():  # has the other zero sign; Note [SIMD tie picks] locates that loop)
            simd = raw.simd_positions(np.shape(out), *((a, b) if w.ndim == 0 else (a, b, w)))
            fix = zero if simd is None else zero & ~simd
            out = np.where(fix, end - diff * (op(1) - w), out)
    return np.asarray(out).astype(dt, copy=False)


def _lerp_tensor_jvp(F, self, self_t, end, end_t, weight, weight_t):
    """PyTorch's lerp.Tensor rule: lerp(self_t, end_t, weight) + weight_t * (end - self),
    its lerp on materialized zeros for a missing tangent (the kernel's rounding, and
    +0.0 where the terms give -0.0)."""
    out = lerp(self_t if self_t is not None else F.zeros_like(self),
               end_t if end_t is not None else F.zeros_like(end), weight)
    if weight_t is not None:
        out = out + weight_t * (end - self)
    elif _state.enabled and (_requires_grad_of(end) or _requires_grad_of(self)):
        # (weight's zero tangent times end - self: no value, but the graph of the primals:
        # Note [Forward mode])
        out = plus_zero_term(out, F.zeros_like(weight) * (end - self))
    return out


def _requires_grad_of(x):
    return isinstance(x, Tensor) and x.requires_grad


def _lerp_scalar_jvp(F, self_t, end_t, weight, self_sizes, end_sizes, result):
    """lerp.Scalar's rule, lerp(self_t, end_t, weight): the op itself on the tangents
    (zeros for a missing one), with its checks (a float16 0-d var's float32 tangent as
    end: "expected dtype c10::Half for `end` but got dtype float"). It reads no primal
    (an in-place lerp_ reads no view of the written base)."""
    dtype = result._data.dtype
    return lerp(self_t if self_t is not None else _make(np.zeros(self_sizes, dtype)),
                end_t if end_t is not None else _make(np.zeros(end_sizes, dtype)), weight)


LERP = defop("lerp", "LerpBackward0", _lerp, inputs=("self", "end"), params=("weight",),
             jvp=_lerp_scalar_jvp,
             grads={"self": lambda F, grad, weight: F.mul(grad, 1 - weight),
                    "end": lambda F, grad, weight: F.mul(grad, weight)}, layout="iter")
LERP_TENSOR = defop("lerp", "LerpBackward1", _lerp, inputs=("self", "end", "weight"),
                    jvp=_lerp_tensor_jvp,
                    grads={"self": lambda F, grad, weight: grad * (1 - weight),
                           "end": lambda F, grad, weight: grad * weight,
                           "weight": lambda F, grad, self, end: grad * (end - self)}, layout="iter")


def _plus_zero_reads(out, reads):
    """out, made to depend on the primals the zero terms of missing tangents read (the
    tangent requires grad where one of them does; Note [Forward mode])."""
    if _state.enabled:
        for x in reads:
            if _requires_grad_of(x):
                out = plus_zero_term(out, x * 0)
    return out


def _with_zeros(F, out, term, zeros, sub=False):
    """``out + term`` (``sub``: ``out - term``; ``-term`` without ``out``), where the
    missing tangents' zero tensors like ``zeros`` were summed before ``term`` (Note [Zero
    terms' dtypes] in dispatch.py: they promote the running sum)."""
    from .dispatch import _plus_zero_dtype
    for z in zeros:
        if out is None:
            term = _plus_zero_dtype(F, term, z)
        else:
            out = _plus_zero_dtype(F, out, z)
    if out is None:
        return -term if sub else term
    return out - term if sub else out + term


def _nonzero_tangents(*tangents):
    """The tangents, a zero tensor's as None: PyTorch's ``zero + x`` is x itself, so such a
    term adds nothing, not even +0.0 to a -0.0 (Note [Zero-tensor tangents] in dispatch.py;
    its dtype still promotes the sum, as a missing tangent's); all of them when every one is
    missing or zero (the result's tangent is then the zero tensor's)."""
    from .dispatch import _is_zero_tangent
    live = [None if t is None or _is_zero_tangent(t) else t for t in tangents]
    return live if any(t is not None for t in live) else list(tangents)


def _addcmul_jvp(F, self, self_t, tensor1_t, tensor2_t, tensor1, tensor2, value):
    """PyTorch's self_t + tensor1_t * tensor2 * value + tensor2_t * tensor1 * value (its
    backward groups grad * (tensor2 * value) instead)."""
    def times_value(t):
        return t if value == 1 else t * value
    given = (self_t, tensor1_t, tensor2_t)
    self_t, tensor1_t, tensor2_t = _nonzero_tangents(*given)
    out, zero_reads = self_t, []
    zeros = [self] if self_t is None else []
    for t, other, this in ((tensor1_t, tensor2, tensor1), (tensor2_t, tensor1, tensor2)):
        if t is None:
            zero_reads.append(other)
            zeros += [this, other]
        else:
            out, zeros = _with_zeros(F, out, times_value(t * other), zeros), []
    out = _plus_zero_reads(out, zero_reads)
    if out is not None and all(o is not out for o in given) and \
            _zero_tensors_only(given) and out._data.dtype.kind in "fV" and \
            out._data.flags.writeable:
        np.add(out._data, 0, out=out._data)  # (every term a zero tensor: PyTorch's sum
    return out  #                                is one, +0.0 where zero * -0.7 gave -0.0)


def _zero_tensors_only(tangents):
    from .dispatch import _is_zero_tangent
    return all(t is None or _is_zero_tangent(t) for t in tangents)


# Note [addcmul's kernel]: aten's addcmul computes ``self + value * t1 * t2`` with the
# product's last step fused (the vector loop's fmadd, the scalar loop's contracted float
# expression): fma(value * t1, t2, self), in float32 for float16/bfloat16 and rounded once;
# addcdiv is ``self + value * t1 / t2`` unfused, in float32 for the reduced types (checked
# on 8,000 values per dtype, contiguous and strided: 0 differences; NumPy's unfused float64
# addcmul differed in 28% of them). Complex values: c10::complex's products and quotient,
# per loop (Note [Complex kernels] in raw.py: _complex_addc).
def _addcmul(a, t1, t2, value):
    dt = a.dtype
    if dt.kind == "c":
        return _complex_addc(a, t1, t2, value, raw.mul, raw.complex_mul_unfused)
    if dt.kind not in "fV":
        return a + value * t1 * t2
    ct = np.float64 if dt == np.float64 else np.float32
    t1, t2 = np.asarray(t1).astype(ct, copy=False), np.asarray(t2).astype(ct, copy=False)
    if a.size > raw.PORTED_MAX:  # (Note [Size of the ported kernels] in raw.py)
        return (a.astype(ct, copy=False) + ct(value) * t1 * t2).astype(dt, copy=False)
    return np.asarray(raw._fma(ct(value) * t1, t2, a.astype(ct, copy=False), ct)
                      ).astype(dt, copy=False)


def _complex_addc(a, t1, t2, value, op, unfused):
    """self + value * t1 (*, /) t2 of complex arrays as aten's kernel: its SIMD loop's
    products rounded part by part, its scalar loop's fused (Note [Complex kernels] in
    raw.py); the quotient is c10::complex's in both."""
    dt = np.result_type(a, t1, t2)
    a, t1, t2 = (np.asarray(x).astype(dt, copy=False) for x in (a, t1, t2))
    v = np.asarray(value, dt)
    shape = np.broadcast_shapes(a.shape, t1.shape, t2.shape)
    kind = "addcmul" if op is raw.mul else "div"
    simd, odd = raw.complex_loops(shape, a, t1, t2, kind=kind)
    fused = np.multiply(v, t1)
    vec = None if simd is None and odd is None else raw.complex_mul_unfused(v, t1, dt)
    if op is raw.mul:
        out = np.multiply(fused, t2)
        if vec is not None:
            vec = unfused(vec, t2, dt)
        if odd is not None:  # (complex64's unpaired elements: the second product unfused)
            out = np.where(odd, unfused(fused, t2, dt), out)
            odd = None
    else:
        out = raw.complex_divide(fused, t2, dt)
        if vec is not None:
            vec = raw.complex_divide(vec, t2, dt)
    if simd is not None:
        out = np.where(simd, vec, out)
    if odd is not None:
        out = np.where(odd, vec, out)
    with np.errstate(all="ignore"):
        return a + out


def _addcdiv(a, t1, t2, value):
    dt = a.dtype
    if dt.kind == "c":
        return _complex_addc(a, t1, t2, value, raw.true_divide, None)
    if dt.itemsize != 2 or dt.kind not in "fV":
        return a + value * t1 / t2
    f = np.float32
    return (a.astype(f) + f(value) * np.asarray(t1).astype(f) / np.asarray(t2).astype(f)
            ).astype(dt)


ADDCMUL = defop("addcmul", "AddcmulBackward0", _addcmul,
                inputs=("self", "tensor1", "tensor2"), params=("value",), jvp=_addcmul_jvp,
                grads={"self": lambda F, grad: grad,
                       "tensor1": lambda F, grad, tensor2, value:
                       F.mul(grad, F.mul(tensor2, value)),
                       "tensor2": lambda F, grad, tensor1, value:
                       F.mul(grad, F.mul(tensor1, value))},
                       layout=layout.iter_promoted)


def _addcdiv_jvp(F, self, self_t, tensor1_t, tensor2_t, tensor1, tensor2, value):
    """PyTorch's self_t + tensor1_t / tensor2 * value - tensor2_t * (tensor1 / tensor2) /
    tensor2 * value: its own grouping (at a denormal tensor2 the backward's
    tensor1 / (tensor2 * tensor2) is 0/0 where this is finite)."""
    def times_value(t):
        return t if value == 1 else t * value
    self_t, tensor1_t, tensor2_t = _nonzero_tangents(self_t, tensor1_t, tensor2_t)
    out, zero_reads = self_t, []
    zeros = [self] if self_t is None else []
    if tensor1_t is not None:
        out, zeros = _with_zeros(F, out, times_value(tensor1_t / tensor2), zeros), []
    else:
        zero_reads.append(tensor2)
        zeros += [tensor1, tensor2]
    if tensor2_t is not None:
        b = times_value(tensor2_t * (tensor1 / tensor2) / tensor2)
        out = _with_zeros(F, out, b, zeros, sub=True)
    else:
        zero_reads += [tensor1, tensor2]
    return _plus_zero_reads(out, zero_reads)


def _integral_divisor(tensor2, value):
    """tensor2 for addcdiv's ``value / tensor2``, which C++ computes as ``empty_like(
    tensor2).fill_(value).div_(tensor2)``: a bool or integer tensor2 refuses the float
    quotient in place, after fill_'s conversion of value (300 into uint8 overflows)."""
    d = getattr(tensor2, "_data", tensor2).dtype
    if d.kind in "biu":
        _convert.scalar_array(value, _dtypes.from_numpy(d))
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{_dtypes.scalar_name(_dtypes.from_numpy(d))}")
    return tensor2


ADDCDIV = defop("addcdiv", "AddcdivBackward0", _addcdiv,
                inputs=("self", "tensor1", "tensor2"), params=("value",), jvp=_addcdiv_jvp,
                grads={"self": lambda F, grad: grad,
                       "tensor1": lambda F, grad, tensor2, value:
                       F.mul(grad, F.div(value, _integral_divisor(tensor2, value))),
                       "tensor2": lambda F, grad, tensor1, tensor2, value: F.mul(
                           -grad, F.div(F.mul(value, tensor1), F.mul(tensor2, tensor2)))},
                layout=layout.iter_promoted)
# (PyTorch's rules add a zero tensor of each untangled input's dtype: an addcmul of a float16
# self and bfloat16 duals has a float32 tangent; dispatch._tangent_dtype)
ADDCMUL.promotes_tangent = ADDCDIV.promotes_tangent = True
# (maybe_multiply(tensor1_t * tensor2_p, value), maybe_multiply(tensor2_t * tensor1_p, value);
# addcdiv's tensor1_t / tensor2_p and tensor2_t * (tensor1_p / tensor2_p) / tensor2_p)
ADDCMUL.scaled_zero_terms = ((1, (2,), 0), (2, (1,), 0))
ADDCDIV.scaled_zero_terms = ((1, (2,), 0), (2, (1, 2), 0))
# (Note [Missing self tangent in place] in forward_ad.py: rules that read self_t, not self_p)
for _op in (ADD, SUB, DIV, ADDCMUL, ADDCDIV, LDEXP):
    _op.dense_self_in_place = True


def _lerp_args_error(name, end, weight):
    """The argument parser's error of the method ``x.lerp(end, weight)`` / ``lerp_``: each
    overload marks the arguments it does not accept."""
    def mark(a, ok):
        return _arg_desc(a) if ok else f"!{_arg_desc(a)}!"
    end_ok = isinstance(end, Tensor)
    tensors = f"{mark(end, end_ok)}, {mark(weight, isinstance(weight, Tensor))}"
    # (the parser marks the Number overload's weight too once end has failed)
    number = f"{mark(end, end_ok)}, {mark(weight, end_ok and _is_number(weight))}"
    got = ", ".join(type(a).__name__ for a in (end, weight))
    return TypeError(
        f"{name}() received an invalid combination of arguments - got ({got}), but expected "
        f"one of:\n * (Tensor end, Tensor weight)\n      didn't match because some of the "
        f"arguments have invalid types: ({tensors})\n * (Tensor end, Number weight)\n      "
        f"didn't match because some of the arguments have invalid types: ({number})\n")


def _is_number(a):
    return isinstance(a, (int, float, bool, complex)) and not isinstance(a, Tensor)


def _arg_desc(a):
    """The argument parser's description of an argument: "Tensor", "list of [int, float]"
    (its element types once each), "tuple of (int, str, int)", else the type's name."""
    def name(v):
        return "Tensor" if isinstance(v, Tensor) else type(v).__name__
    if isinstance(a, list):
        return f"list of [{', '.join(dict.fromkeys(map(name, a)))}]"
    if isinstance(a, tuple):
        names = ", ".join(map(name, a))
        return f"tuple of ({names}{',' if len(a) == 1 else ''})"
    return name(a)


def _lerp_function_args_error(input, end, weight):
    got = ", ".join(type(a).__name__ for a in (input, end, weight))
    return TypeError(
        f"lerp() received an invalid combination of arguments - got ({got}), but expected "
        f"one of:\n * (Tensor input, Tensor end, Tensor weight, *, Tensor out = None)\n * "
        f"(Tensor input, Tensor end, Number weight, *, Tensor out = None)\n")


def _check_lerp(input, end, weight, name="lerp"):
    """lerp's checks in PyTorch's order: its meta function's dtype checks (end's, then a
    tensor weight's), TensorIterator's shapes, then the kernel's dtype (``_lerp_kernel``)."""
    if not isinstance(end, Tensor) or not isinstance(weight, (Tensor, int, float, complex,
                                                              np.generic)):
        if name == "lerp_":
            raise _lerp_args_error(name, end, weight)
        raise _lerp_function_args_error(input, end, weight)
    a = input._data.dtype
    for arg, t in (("end", end), ("weight", weight)):
        if isinstance(t, Tensor) and t._data.dtype != a and (arg == "end" or t._data.ndim):
            # (a 0-d weight is promoted with self and end instead: TensorIterator's common
            # dtype, the weight cast to it; in place, the result safely cast to self)
            raise RuntimeError(f"expected dtype {_dtypes.cpp_name(input.dtype)} for `{arg}` "
                               f"but got dtype {_dtypes.cpp_name(t.dtype)}")


def _lerp_kernel(input, weight):
    if input._data.dtype.kind not in "fcV":  # (V: bfloat16)
        kind = "tensor" if isinstance(weight, Tensor) else "scalar"
        raise NotImplementedError(f"\"lerp_kernel_{kind}\" not implemented for "
                                  f"'{_dtypes.scalar_name(input.dtype)}'")
    if not isinstance(weight, Tensor):
        # (the kernel reads a number weight as its opmath type, checked: float or double, a
        # complex one's real part; complex<float> or complex<double>)
        d = input._data.dtype
        _convert.scalar_array(weight, _dtypes.from_numpy(d) if d.kind == "c" else
                              _dtypes.float64 if d == np.float64 else _dtypes.float32)
        if weight.__class__ is complex and d.kind != "c":
            return weight.real
    return weight


def lerp_method(self, end, weight):
    """``x.lerp(end, weight)``: the method's argument errors, then lerp."""
    if not isinstance(end, Tensor) or not isinstance(weight, (Tensor, int, float, bool,
                                                              complex, np.generic)):
        raise _lerp_args_error("lerp", end, weight)
    return lerp(self, end, weight)


@view_errors_before_checks
def lerp(input, end, weight):
    """input + weight * (end - input)."""
    if isinstance(weight, np.generic):  # (a NumPy scalar: a c10::Scalar as its Python value)
        weight = weight.item()
    _convert.check_python_int(weight)  # (a c10::Scalar, parsed first)
    _check_lerp(input, end, weight)
    shapes = [x._data.shape for x in (input, end, weight) if isinstance(x, Tensor)]
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        raise broadcast_error(*shapes[:2]) if not _broadcastable(*shapes[:2]) else \
            broadcast_error(np.broadcast_shapes(*shapes[:2]), shapes[2]) from None
    weight = _lerp_kernel(input, weight)
    if isinstance(weight, Tensor):
        return _ternary(LERP_TENSOR, (input, end, weight), (), ())
    return _ternary(LERP, (input, end), (weight,), (weight,))


def lerp_(self, end, weight):
    if not isinstance(end, Tensor) or not isinstance(weight, (Tensor, int, float, complex)):
        raise _lerp_args_error("lerp_", end, weight)  # (the argument parser's, first)
    _convert.check_python_int(weight)
    inplace.check_inplace(self, (self, end, weight))  # (autograd's checks come next)
    _check_lerp(self, end, weight, "lerp_")
    inplace.check_inplace_order(self, (self, end, weight), "lerp_")
    weight = _lerp_kernel(self, weight)
    if isinstance(weight, Tensor):
        dt = _dtypes.result_type(self, end, weight).np  # (a 0-d weight's promotion)
        if dt != self._data.dtype:
            inplace.check_cast(dt, self._data.dtype)
        arrays = [x._data.astype(dt, copy=False) for x in (self, end, weight)]
        value = _lerp(*arrays)
        if _aliased(self, (end, weight)):
            value = aliased_value(_lerp, self._data, arrays, (), value)
    else:
        value = _lerp(self._data, end._data, weight)
        if _aliased(self, (end,)):
            value = aliased_value(_lerp, self._data, (self._data, end._data), (weight,), value)
    value = value.astype(self._data.dtype, copy=False)
    op = LERP_TENSOR if isinstance(weight, Tensor) else LERP
    inputs = (self, end, weight) if isinstance(weight, Tensor) else (self, end)
    return inplace.record_inplace(op, self, inputs, () if op is LERP_TENSOR else (weight,),
                                  value)


def _check_addcdiv_integer(name, tensors):
    """addcdiv's meta function: integer division refused (before TensorIterator's checks)."""
    if name == "addcdiv" and _py_all_int(tensors[1:]):
        raise RuntimeError("Integer division with addcdiv is no longer supported, and in a "
                           "future  release addcdiv will perform a true division of tensor1 and "
                           "tensor2. The historic addcdiv behavior can be implemented as (input "
                           "+ value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
                           "integer inputs and as (input + value * tensor1 / tensor2) for float "
                           "inputs. The future addcdiv behavior is just the latter "
                           "implementation: (input + value * tensor1 / tensor2), for all dtypes.")


def _check_addc_value(name, tensors, value):
    """The kernel's dispatch and its read of value (after the meta function's and
    TensorIterator's checks): bool refused by addcmul; value as the result dtype for an
    integer one (checked: a float truncated, a negative one wrapping into an unsigned type,
    inf and NaN refused), as its opmath type otherwise (float for float16/bfloat16: "value
    cannot be converted to type float without overflow", a complex value's real part).
    Returns value as the kernel uses it."""
    if value.__class__ is int:
        _convert.check_python_int(value)
    elif isinstance(value, (Tensor, np.generic)):  # (a c10::Scalar of its item)
        value = value.item()
    if name == "addcmul" and _py_all_bool(tensors):
        check_broadcast(*(t._data.shape for t in tensors))
        raise NotImplementedError("\"addcmul_cpu_out\" not implemented for 'Bool'")
    dt = _dtypes.result_type(*tensors)
    if dt.np.kind in "iu":
        return int(_convert.scalar_array(value, dt))
    if isinstance(value, (int, float, complex)):  # (a Python number; bool is an int)
        _kernel_scalar(value, dt.np, half_as_float=True)
        if value.__class__ is complex and dt.np.kind != "c":
            return value.real
    return value


def _py_all_float(tensors):
    return all(isinstance(t, Tensor) for t in tensors) and \
        _dtypes.result_type(*tensors).np.kind in "fV"


def _py_all_bool(tensors):
    return all(isinstance(t, Tensor) and t._data.dtype == np.bool_ for t in tensors)


def _py_all_int(tensors):
    return all(isinstance(t, Tensor) and t._data.dtype.kind in "biu" for t in tensors)


def _check_addc_args(name, tensors, value, first_position):
    """The argument parser's checks (positions count from 1 for ``torch.addcmul``, from the
    first argument after self for the method)."""
    for arg, t, pos in zip(("input", "tensor1", "tensor2")[-len(tensors):], tensors,
                           range(first_position, first_position + len(tensors))):
        _check_tensor_arg(name, arg, t, pos)
    if not isinstance(value, (int, float, complex, bool, Tensor, np.number)):
        raise TypeError(f"{name}(): argument 'value' must be Number, not "
                        f"{type(value).__name__}")
    _convert.check_python_int(value)  # (a c10::Scalar: "int too big to convert")


@view_errors_before_checks
def addcmul(input, tensor1, tensor2, *, value=1):
    """input + value * tensor1 * tensor2."""
    _check_addc_args("addcmul", (input, tensor1, tensor2), value, 1)
    value = _addc_value("addcmul", (input, tensor1, tensor2), value)
    return _ternary(ADDCMUL, (input, tensor1, tensor2), (value,), (value,))


@view_errors_before_checks
def addcdiv(input, tensor1, tensor2, *, value=1):
    """input + value * tensor1 / tensor2."""
    _check_addc_args("addcdiv", (input, tensor1, tensor2), value, 1)
    _check_addcdiv_integer("addcdiv", (input, tensor1, tensor2))
    value = _addc_value("addcdiv", (input, tensor1, tensor2), value)
    return _ternary(ADDCDIV, (input, tensor1, tensor2), (value,), (value,))


def _addc_value(name, tensors, value):
    """_check_addc_value out of place: its errors after TensorIterator's shape check."""
    try:
        return _check_addc_value(name, tensors, value)
    except RuntimeError:
        check_broadcast(*(t._data.shape for t in tensors))
        raise


def _addc_(name, op, self, tensor1, tensor2, value):
    """addcmul_/addcdiv_ with PyTorch's checks in its order: the argument parser's, autograd's,
    addcdiv's integer-division check (its meta function), TensorIterator's (shapes, cast),
    then the kernel's (value, bool)."""
    _check_addc_args(name + "_", (tensor1, tensor2), value, 1)
    inputs = (self, tensor1, tensor2)
    inplace.check_inplace(self, inputs)
    _check_addcdiv_integer(name, inputs)
    inplace_iter_checks(self, inputs, _dtypes.result_type(*inputs))
    value = _check_addc_value(name, inputs, value)
    dt = _dtypes.result_type(*inputs).np
    arrays = [x._data.astype(dt, copy=False) for x in inputs]
    out = _asarray(op.kernel(*arrays, value))
    if _aliased(self, inputs):
        out = aliased_value(op.kernel, self._data, arrays, (value,), out)
    return inplace.record_inplace(op, self, inputs, (value,),
                                  out.astype(self._data.dtype, copy=False))


def _addc_method(name, self, tensor1, tensor2, value):
    _check_addc_args(name, (tensor1, tensor2), value, 1)
    return (addcmul if name == "addcmul" else addcdiv)(self, tensor1, tensor2, value=value)


def addcmul_method(self, tensor1, tensor2, *, value=1):
    return _addc_method("addcmul", self, tensor1, tensor2, value)


def addcdiv_method(self, tensor1, tensor2, *, value=1):
    return _addc_method("addcdiv", self, tensor1, tensor2, value)


def addcmul_(self, tensor1, tensor2, *, value=1):
    return _addc_("addcmul", ADDCMUL, self, tensor1, tensor2, value)


def addcdiv_(self, tensor1, tensor2, *, value=1):
    return _addc_("addcdiv", ADDCDIV, self, tensor1, tensor2, value)


# ---- activations (nn.functional; the formulas are PyTorch's *_backward) --------------------
def _softplus(a, beta, threshold):
    if a.itemsize == 2 and a.dtype.kind in "fV":
        # aten's: float32, beta and threshold as floats, exp and log1p as floats (the
        # correctly rounded ones here), rounded once (118 of 2,006 float16 values with
        # beta=2 differed in the half type)
        f32 = np.float32
        x = a.astype(f32)
        with np.errstate(all="ignore"):
            t = x * f32(beta)
            v = raw.FLOAT_KERNELS["log1p"](raw.FLOAT_KERNELS["exp"](t)) / f32(beta)
            return np.where(t > f32(threshold), x, v).astype(a.dtype)
    if a.dtype == np.float32 and a.size <= raw.PORTED_MAX:
        # aten's softplus_kernel: log1p(exp(x * beta)) / beta in float32, its loops' exp
        # and log1p (SLEEF's in the SIMD loop: Note [SLEEF's log1pf and tanhf])
        f32 = np.float32
        simd = raw.simd_positions(a.shape, a, unroll=2)
        with np.errstate(all="ignore"):
            t = a * f32(beta)
            v = _specfun.torch_log1pf(_specfun.torch_expf(t, simd), simd) / f32(beta)
            return np.where(t > f32(threshold), a, v)
    z = a * beta
    return np.where(z > threshold, a, np.logaddexp(0, z) / beta).astype(a.dtype, copy=False)


def _ported_float(F, grad, self):
    """Whether ``grad`` and ``self`` take a ported float32 kernel (float16/bfloat16 in it):
    raw arrays of one float32 or half type and shape, float32 ones of at most
    raw.PORTED_MAX elements, half ones of any size (exact at 1.0-2.2x the cost of their
    old step-by-step path at 256x1024: half tensors are off the float32 hot path)."""
    return getattr(F, "is_raw", False) and grad.dtype == self.dtype \
        and grad.shape == self.shape \
        and (self.dtype == np.float32 and self.size <= raw.PORTED_MAX
             or self.itemsize == 2 and self.dtype.kind in "fV")


def _softplus_backward_float32(grad, self, beta, threshold):
    """aten's softplus_backward_kernel: z = exp(x * beta) (SLEEF's expf in its SIMD loop,
    glibc's in its scalar loop), ``(x * beta) > threshold ? grad : grad * z / (z + 1)`` in
    float32 with beta and threshold as floats; float16/bfloat16 converted to float32, the
    result rounded once. Measured: 0 of 2,006 float32, float16 and bfloat16 gradients differ
    (1,011, 415 and 428 did)."""
    f32 = np.float32
    simd = raw.simd_positions(self.shape, grad, self, unroll=2)
    g, x = grad.astype(f32, copy=False), self.astype(f32, copy=False)
    with np.errstate(all="ignore"):
        t = x * f32(beta)
        z = _specfun.torch_expf(t, simd)
        out = np.where(t > f32(threshold), g, g * z / (z + f32(1)))
    return out.astype(self.dtype, copy=False)


def softplus_backward(F, grad, self, beta, threshold):
    if _ported_float(F, grad, self):
        return _softplus_backward_float32(grad, self, beta, threshold)
    z = self * beta
    return F.where(z > threshold, grad, grad * F.sigmoid(z))


def _softplus_double_backward(F, grad, self, beta, threshold):
    """PyTorch's: sigmoid_backward(grad, x.sigmoid()) * (x < threshold) * beta, x = self *
    beta."""
    x = self * beta
    return F.sigmoid_backward(grad, F.sigmoid(x)) * F.cast_like(x < threshold, grad) * beta


def _sum_terms(*terms):
    terms = [t for t in terms if t is not None]
    out = terms[0] if terms else None
    for t in terms[1:]:
        out = out + t
    return out


def _softplus_backward_jvp(F, grad_output, grad_output_t, self, self_t, beta, threshold):
    """PyTorch's ``softplus_backward(grad_output_t, ...) + softplus_double_backward(self_t *
    grad_output_p, ...)`` with an absent tangent a zero tensor: both backward ops
    materialize it (sigmoid_backward's, then times the mask and beta), so each term adds
    its +-0.0."""
    if grad_output_t is None:
        grad_output_t = F.zeros_like(grad_output)
    out = F.softplus_backward(grad_output_t, self, beta, threshold)
    g = F.zeros_like(grad_output) if self_t is None else self_t * grad_output
    return out + _softplus_double_backward(F, g, self, beta, threshold)


# (Note [Activation backward ops]: softplus', hardswish's and log_sigmoid's backward are ops
# of their own, differentiable in grad_output and in self)
SOFTPLUS_BACKWARD = defop(
    "softplus_backward", "SoftplusBackwardBackward0",
    raw._promoting(lambda grad, x, beta, threshold: softplus_backward(raw.RAW, grad, x, beta,
                                                                     threshold)),
    inputs=("grad_output", "self"), params=("beta", "threshold"),
    grads={"grad_output": lambda F, grad, self, beta, threshold:
           F.softplus_backward(grad, self, beta, threshold),
           "self": lambda F, grad, grad_output, self, beta, threshold:
           _softplus_double_backward(F, grad * grad_output, self, beta, threshold)},
    jvp=lambda F, grad_output, grad_output_t, self, self_t, beta, threshold:
    _softplus_backward_jvp(F, grad_output, grad_output_t, self, self_t, beta, threshold))
SOFTPLUS = defop("softplus", "SoftplusBackward0", _softplus, params=("beta", "threshold"),
                 jvp="elementwise",
                 grads={"self": lambda F, grad, self, beta, threshold:
                        F.softplus_backward(grad, self, beta, threshold)})


def _mixed_without_grad_mode(F, grad, self):
    """Whether a formula whose derivatives.yaml entry reads ``GradMode::is_enabled() ?
    <composite> : <aten kernel>`` (silu, mish) takes the kernel on tensors of two dtypes (a
    forward-mode tangent of another dtype than its primal, under no_grad)."""
    return not F.is_raw and not grad_mode.state.enabled and \
        grad._data.dtype != self._data.dtype


def _kernel_in_common_dtype(formula, grad, self, out_dtype=None):
    """The aten kernel (the raw formula) on grad and self in their common dtype, as its
    TensorIterator computes; ``out_dtype``: the kernel's output dtype if not that one."""
    common = _dtypes.result_type(grad, self).np
    out = np.asarray(formula(raw.RAW, grad._data.astype(common), self._data.astype(common)))
    return _make(out if out_dtype is None else out.astype(out_dtype, copy=False))


def silu_backward(F, grad, self):
    if _mixed_without_grad_mode(F, grad, self):  # (its result in the common dtype)
        return _kernel_in_common_dtype(silu_backward, grad, self)
    if _ported_float(F, grad, self):
        if self.dtype == np.float32:
            return _silu_backward_float32(grad, self)
        simd = raw.simd_positions(self.shape, grad, self, unroll=2)  # (the half type's loops)
        return _silu_backward_float32(grad.astype(np.float32), self.astype(np.float32),
                                      simd).astype(self.dtype)
    s = F.sigmoid(self)  # (infinitely_differentiable_silu_backward, in its order)
    return grad * s * (1 + self * (1 - s))


def _silu_backward_float32(dy, x, simd=False):
    """PyTorch's silu_backward kernel on float32 arrays: s = 1 / (1 + exp(-x)) (its loops'
    exp, as sigmoid's), then dy * s * (1 + x * (1 - s)) with the inner multiply-add fused
    (GCC contracts it, in both loops): bit for bit (the formula above, which a graph of
    the backward records, rounds x * (1 - s) on its own: 18% of gradients differed).
    float16/bfloat16 come converted, with ``simd`` their loops' positions, and the result
    is rounded once (1,167 of 2,006 float16 gradients differed in the half type)."""
    if simd is False:
        simd = raw.simd_positions(x.shape, dy, x, unroll=2)
    s = _specfun.torch_expf(np.negative(x), simd)
    s += 1
    np.reciprocal(s, out=s)
    inner = np.subtract(np.float32(1), s).astype(np.float64)
    inner *= x  # (exact: a product of two floats)
    inner += 1
    out = np.multiply(dy, s)
    out *= inner.astype(np.float32)
    return out


def _silu(a):
    """PyTorch's kernel, x / (1 + exp(-x)); a float32 exp as its loops compute it (SLEEF's
    in the SIMD loop, glibc's in the scalar loop, as sigmoid's: raw.sigmoid)."""
    if a.dtype == np.float32 and a.size <= raw.PORTED_MAX:
        e = _specfun.torch_expf(np.negative(a), raw.simd_positions(a.shape, a, unroll=2))
        e += 1
        return np.divide(a, e, out=e)
    return a / (1 + np.exp(-a))


SILU = defop("silu", "SiluBackward0", _in_float32(_silu),
             jvp="elementwise",
             grads={"self": silu_backward}, backward_op=("aten::silu_backward", ".", True))
_SQRT1_2, _SQRT_2_PI = math.sqrt(0.5), math.sqrt(2 / math.pi)
_KAPPA = 0.044715


def _onednn_gelu_takes(x):
    """Whether PyTorch's gelu of float32 ``x`` (approximate="none") is oneDNN's: aten's
    use_mkldnn(self), a contiguous tensor of more than one element (Note [oneDNN's
    GELU]); other float32 tensors take aten's own kernel."""
    return x.size > 1 and x.flags.c_contiguous


# Note [GELU's tanh form in float32]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# gelu(approximate="tanh") is aten's GeluKernelImpl on every layout: 0.5 * x * (1 +
# tanh(kBeta * (x + kKappa * x^3))) in float32, its backward 0.5 * (1 + t) + 0.5 x (1 -
# t^2) kBeta (1 + 3 kKappa x^2) times dy, tanh SLEEF's in the SIMD loop and glibc's in the
# scalar loop (Note [SLEEF's log1pf and tanhf]). GCC fuses x + kKappa * x^3, 1 - t * t and
# 1 + (3 kKappa) x^2 into multiply-adds (the one contraction of each that matches all
# 200,000 sweep values; unfused, 260 forwards and 21,832 gradients differ). The forward
# splits its elements between threads past 16,384 of them (grain numel / threads).
_GELU_BETA = np.float32(1.41421356237309504880 * 1.12837916709551257390 * 0.5)  # (C's)
_GELU_KAPPA = np.float32(0.044715)


def _gelu_tanh_inner(x):
    """kBeta * (x + kKappa * x^3) (fused) of a float32 array, and x^2."""
    x2 = x * x
    inner = (x2 * x).astype(np.float64)
    inner *= float(_GELU_KAPPA)
    inner += x
    inner = inner.astype(np.float32)
    inner *= _GELU_BETA
    return inner, x2


def _gelu_tanh_float32(x, like=None):
    """``like``: the float16/bfloat16 array x was converted from, whose vectors (twice as
    many lanes) decide the SIMD loop's elements (Note [Half GELU])."""
    from .nn_ops import _aten_threads
    n = x.size
    simd = raw.simd_positions(x.shape, x if like is None else like, unroll=2,
                              grain=n // _aten_threads() if n > 16384 else raw.GRAIN_SIZE)
    with np.errstate(all="ignore"):
        inner, _ = _gelu_tanh_inner(x)
        t = _specfun.torch_tanhf(inner, simd)
        t += np.float32(1)
        out = np.float32(0.5) * x
        out *= t
    return out


def _gelu_tanh_backward_float32(grad, x, like=()):
    f32 = np.float32
    simd = raw.simd_positions(x.shape, *(like or (grad, x)), unroll=2)
    with np.errstate(all="ignore"):
        inner, x2 = _gelu_tanh_inner(x)
        t = _specfun.torch_tanhf(inner, simd)
        t64 = t.astype(np.float64)
        td = (1 - t64 * t64).astype(f32)  # (fused)
        idv = (x2.astype(np.float64) * float(f32(3) * _GELU_KAPPA) + 1).astype(f32)  # (fused)
        idv *= _GELU_BETA
        right = (f32(0.5) * x) * td
        right *= idv
        t += f32(1)
        t *= f32(0.5)
        t += right
        t *= grad
    return t


# Note [aten's float32 GELU]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~
# A float32 GELU (approximate="none") that oneDNN does not take (Note [oneDNN's GELU]: a
# non-contiguous tensor, a single element) and any float32 GELU backward whose self is
# such is aten's GeluKernelImpl / GeluBackwardKernelImpl: x * 0.5 * (1 + erf(x / sqrt
# 2)) and dy * (cdf + x * pdf), pdf = kBeta * exp(-x^2 / 2), GCC fusing cdf + x * pdf in
# the SIMD loop (not in the scalar loop: 31 of 518 strided gradients differ fused).
# Its SIMD loop's erf is Vectorized<float>::erf (_specfun.aten_erff: Abramowitz and
# Stegun with SLEEF's expf), its scalar loop's glibc's erff and expf; ported both ways
# (up to raw.PORTED_MAX elements).
_GELU_ALPHA = np.float32(0.70710678118654752440)
_GELU_PDF_BETA = np.float32(1.12837916709551257390 * 0.70710678118654752440 * 0.5)


def _aten_erff(x, simd):
    if simd is not None and simd.all():
        return _specfun.aten_erff(x)
    out = _specfun.glibc_erff(x).reshape(x.shape)
    if simd is not None:
        out[simd] = _specfun.aten_erff(x[simd])
    return out


def _aten_gelu_float32(x, like=None):
    from .nn_ops import _aten_threads
    n = x.size
    simd = raw.simd_positions(x.shape, x if like is None else like, unroll=2,
                              grain=n // _aten_threads() if n > 16384 else raw.GRAIN_SIZE)
    with np.errstate(all="ignore"):
        e = _aten_erff(x * _GELU_ALPHA, simd)
        e += np.float32(1)
        out = x * np.float32(0.5)
        out *= e
    return out


def _aten_gelu_backward_float32(grad, x, like=()):
    f32 = np.float32
    simd = raw.simd_positions(x.shape, *(like or (grad, x)), unroll=2)
    with np.errstate(all="ignore"):
        cdf = _aten_erff(x * _GELU_ALPHA, simd)
        cdf += f32(1)
        cdf *= f32(0.5)
        pdf = _specfun.torch_expf(x * x * f32(-0.5), simd) * _GELU_PDF_BETA
        out = cdf + x * pdf
        if simd is not None:
            out[simd] = (x[simd].astype(np.float64) * pdf[simd] + cdf[simd]).astype(f32)
        out *= grad
    return out


def _gelu(a, approximate, ported=False):
    if approximate == "tanh":
        if ported:
            return _gelu_tanh_float32(a)
        return 0.5 * a * (1 + np.tanh(_SQRT_2_PI * (a + _KAPPA * a * a * a)))
    if a.dtype != np.float32 and a.dtype != np.float64:
        return a * 0.5 * (1 + _specfun.erf(a * _SQRT1_2))
    if ported and _onednn_gelu_takes(a):
        return _specfun.onednn_gelu(a)
    if ported:
        return _aten_gelu_float32(a)
    flat = a.ravel()
    out = np.empty_like(flat)
    if a.dtype == np.float32:
        with np.errstate(over="ignore", invalid="ignore"):
            for b in _specfun.blocks(flat.size):
                x = flat[b]
                np.divide(x, _specfun.normal_cdf_reciprocal(x)[0], out=out[b])
        if flat.size > 1 and not flat.max() < np.inf:  # (a NaN too)
            # PyTorch's vectorised float32 GELU of +inf (its erf's); one element takes its
            # scalar loop, std::erf: inf
            out[np.isposinf(flat)] = np.nan
        return out.reshape(a.shape)
    for b in _specfun.blocks(flat.size):
        x = flat[b]
        e = _gelu_cdf(x)
        e *= x
        out[b] = e
    return out.reshape(a.shape)


# Note [Blockwise GELU]
# ~~~~~~~~~~~~~~~~~~~~~
# GELU's forward x * Phi(x) and backward grad * (Phi(x) + x * phi(x)), Phi(x) = (1 +
# erf(x / sqrt 2)) / 2, run on _specfun.BLOCK elements at a time, in place, so that the
# temporaries stay in the cache. A float32 tensor of up to raw.PORTED_MAX elements takes
# PyTorch's own kernels instead (Note [oneDNN's GELU], Note [aten's float32 GELU]); past
# that, in float32 Phi is a logistic of a polynomial (Note [Float32 normal CDF as a
# logistic]: 1 / Phi in ~16 passes, then x / that), within
# ~1.5e-7 |x| of the exact GELU where PyTorch's vectorised kernel is within 3.6e-7 |x|;
# phi reuses its x * x. On a transformer's 1024 x 512 float32 activations forward and
# backward take ~3.8 ms (8.3 ms with Eigen's erf, ~75 ms element by element). float64
# takes fdlibm's erf (Note [Vectorised erf]). A graph of the backward (create_graph) takes
# the formula in gelu_backward instead, in differentiable ops.
def _gelu_cdf(x):
    """Phi(x) of a float64 block x."""
    e = _specfun.erf(x * _SQRT1_2)
    e += 1
    e *= 0.5
    return e


def _gelu_backward_raw(grad, self):
    """grad * (Phi(x) + x * phi(x)) on arrays (Note [Blockwise GELU])."""
    dt = self.dtype
    if dt == np.float32 and self.size <= raw.PORTED_MAX:  # (Note [oneDNN's GELU])
        if _onednn_gelu_takes(self):
            return _specfun.onednn_gelu_backward(self, grad)
        return _aten_gelu_backward_float32(grad, self)
    x = self.ravel()
    g = grad.ravel()
    out = np.empty_like(x)
    if dt == np.float32:
        log_beta = math.log(1 / math.sqrt(2 * math.pi))
        with np.errstate(over="ignore", invalid="ignore"):
            for b in _specfun.blocks(out.size):
                xb = x[b]
                cdf, pdf = _specfun.normal_cdf_reciprocal(xb)
                np.reciprocal(cdf, out=cdf)
                pdf *= -0.5
                pdf += log_beta
                np.exp(pdf, out=pdf)  # exp(-x * x / 2) / sqrt(2 pi)
                pdf *= xb
                cdf += pdf
                np.multiply(cdf, g[b], out=out[b])
        return out.reshape(self.shape)
    beta = 1 / math.sqrt(2 * math.pi)
    for b in _specfun.blocks(out.size):
        xb = x[b]
        cdf = _gelu_cdf(xb)
        pdf = xb * xb
        pdf *= -0.5
        np.exp(pdf, out=pdf)
        pdf *= beta
        pdf *= xb
        cdf += pdf
        cdf *= g[b]
        out[b] = cdf
    return out.reshape(self.shape)


def _gelu_half(a, approximate):
    """float16/bfloat16 GELU (Note [Half GELU])."""
    x = a.astype(np.float32)
    if approximate == "tanh":
        out = _gelu_tanh_float32(x, a)
    elif a.dtype.kind == "V" and _onednn_gelu_takes(a):
        out = _specfun.onednn_gelu(x)
    else:
        out = _aten_gelu_float32(x, a)
    return out.astype(a.dtype)


def _gelu_half_backward(grad, self, approximate):
    g, x = grad.astype(np.float32), self.astype(np.float32)
    if approximate == "tanh":
        out = _gelu_tanh_backward_float32(g, x, (grad, self))
    elif self.dtype.kind == "V" and _onednn_gelu_takes(self):
        out = _specfun.onednn_gelu_backward(x, g)
    else:
        out = _aten_gelu_backward_float32(g, x, (grad, self))
    return out.astype(self.dtype)


def _gelu_kernel(a, approximate):
    """GELU's kernel: float32 ported up to raw.PORTED_MAX elements (Note [oneDNN's GELU],
    Note [aten's float32 GELU], Note [GELU's tanh form in float32]), half types through
    the same kernels (Note [Half GELU]), the rest blockwise (Note [Blockwise GELU])."""
    if a.size <= raw.PORTED_MAX:
        if a.dtype == np.float32:
            return _gelu(a, approximate, ported=True)
        if a.itemsize == 2 and a.dtype.kind in "fV":
            return _gelu_half(a, approximate)
    return _in_float32(_gelu)(a, approximate)


# Note [Half GELU]
# ~~~~~~~~~~~~~~~~
# aten's float16/bfloat16 GELU and its backward convert to float, compute as the float32
# kernel, and round once; their SIMD loop steps over the half type's vectors (32 lanes,
# two float vectors each), so its elements are the half array's (raw.simd_positions of
# it). A bfloat16 GELU (approximate="none") of a contiguous tensor of 2+ elements is
# oneDNN's, as float32's; float16's is aten's. Measured (uniform(-5, 5), 1..5,000
# elements, forward and backward, both approximations): every value PyTorch's (60-70% of
# backward values differed when computed step by step in the half type).
def gelu_backward(F, grad, self, approximate):
    if _ported_float(F, grad, self) and self.itemsize == 2 and self.size <= raw.PORTED_MAX:
        return _gelu_half_backward(grad, self, approximate)
    if approximate == "tanh" and _ported_float(F, grad, self) and self.dtype == np.float32:
        return _gelu_tanh_backward_float32(grad, self)
    if (F.is_raw and approximate != "tanh" and grad.dtype == self.dtype
            and grad.shape == self.shape
            and (self.dtype == np.float32 or self.dtype == np.float64)):
        return _gelu_backward_raw(grad, self)
    if approximate == "tanh":
        x2 = self * self
        t = F.tanh((self + _KAPPA * x2 * self) * _SQRT_2_PI)
        right = (1 - t * t) * (self * 0.5) * ((1 + (3 * _KAPPA) * x2) * _SQRT_2_PI)
        return grad * ((t + 1) * 0.5 + right)
    cdf = (F.erf(self * _SQRT1_2) + 1) * 0.5
    pdf = F.exp(self * self * -0.5) * (1 / math.sqrt(2 * math.pi))
    return grad * (cdf + self * pdf)


_M_SQRT2, _M_2_SQRTPI, _M_SQRT1_2 = (1.41421356237309504880, 1.12837916709551257390,
                                     0.70710678118654752440)  # (C's math.h constants)


def _gelu_double_backward(F, grad, grad_output, self, approximate):
    """PyTorch's gelu_double_backward: grad * grad_output * d/dx (Phi(x) + x phi(x))."""
    if approximate == "tanh":
        beta = _M_SQRT2 * _M_2_SQRTPI * 0.5
        inner = (self + F.pow(self, 3) * _KAPPA) * beta
        tanh_inner = F.tanh(inner)
        sech_inner = 1 / F.cosh(inner)
        f = self * 0.5
        g = 1 - tanh_inner * tanh_inner
        h = (self * (3 * _KAPPA) * self + 1) * beta
        f_prime_gh = g * 0.5 * h
        g_prime = tanh_inner * -2 * sech_inner * sech_inner * h
        g_prime_fh = f * h * g_prime
        h_prime = self * (6 * _KAPPA) * beta
        h_prime_fg = f * g * h_prime
        return grad * grad_output * (f_prime_gh + f_prime_gh + g_prime_fh + h_prime_fg)
    x2 = self * self
    pdf = F.exp(x2 * -0.5) * (_M_2_SQRTPI * _M_SQRT1_2 * 0.5)
    return grad * grad_output * (pdf * 2 - x2 * pdf)


def _gelu_backward_jvp(F, grad_output, grad_output_t, self, self_t, approximate):
    """PyTorch's ``gelu_backward(grad_output_t, ...) + gelu_double_backward(self_t, ...)``,
    an absent tangent a zero tensor: the backward op materializes it (a +-0.0 term), the
    double backward's products keep it one (a vanishing term)."""
    if grad_output_t is None:
        grad_output_t = F.zeros_like(grad_output)
    out = F.gelu_backward(grad_output_t, self, approximate)
    if self_t is None:
        return out
    return out + _gelu_double_backward(F, self_t, grad_output, self, approximate)


# (Note [Activation backward ops]: gelu's backward is an op of its own, as PyTorch's:
# GeluBackwardBackward0 under create_graph)
GELU_BACKWARD = defop(
    "gelu_backward", "GeluBackwardBackward0",
    lambda grad, x, approximate: gelu_backward(raw.RAW, grad, x, approximate),
    inputs=("grad_output", "self"), params=("approximate",),
    grads={"grad_output": lambda F, grad, self, approximate:
           F.gelu_backward(grad, self, approximate),
           "self": lambda F, grad, grad_output, self, approximate:
           _gelu_double_backward(F, grad, grad_output, self, approximate)},
    jvp=_gelu_backward_jvp)
GELU = defop("gelu", "GeluBackward0", _gelu_kernel,
             params=("approximate",),
             jvp="elementwise",
             grads={"self": lambda F, grad, self, approximate:
                    F.gelu_backward(grad, self, approximate)})


def _elu(a, alpha, scale, input_scale):
    """aten's elu_kernel: float32 (float16/bfloat16 converted to it, the result rounded
    once) with float32 coefficients (negcoef = alpha * scale rounded), ``a < 0 ? expm1(a *
    negiptcoef) * negcoef : a * poscoef`` (a zero takes the second: +0.0 with a negative,
    infinite or NaN alpha; glibc's expm1f in its scalar loop, SLEEF's in its SIMD loop:
    both within an ulp of the correctly rounded value used here; expm1(-0.0) is -0.0);
    float64 as NumPy's."""
    half = a.itemsize == 2 and a.dtype.kind in "fV"
    if not (half or a.dtype == np.float32) or a.size > raw.PORTED_MAX:
        if half:
            return _in_float32(_elu)(a, alpha, scale, input_scale)
        return np.where(a < 0, np.expm1(a * input_scale) * (alpha * scale), a * scale).astype(
            a.dtype, copy=False)
    f32 = np.float32
    negcoef, poscoef, negiptcoef = f32(f32(alpha) * f32(scale)), f32(scale), f32(input_scale)
    x = a.astype(f32, copy=False)
    with np.errstate(all="ignore"):
        out = np.where(x < 0, raw.FLOAT_KERNELS["expm1"](x * negiptcoef) * negcoef,
                       x * poscoef)
    return out.astype(a.dtype, copy=False)


def elu_backward(F, grad, self, alpha, scale, input_scale):
    """PyTorch's ``self <= 0 ? grad * input_scale * negcoef * exp(self * input_scale) :
    grad * scale`` (a NaN self takes the second branch), negcoef = alpha * scale in the
    kernel's type."""
    if getattr(self, "_data", self).dtype == np.float32:
        negcoef = float(np.float32(alpha) * np.float32(scale))
    else:
        negcoef = alpha * scale
    neg = grad * input_scale * negcoef * F.exp(self * input_scale)
    return F.where(self <= 0, neg, grad * scale)


def _elu_backward_values(F, grad, x, alpha, scale, input_scale, is_result):
    """aten's elu_backward: from the input (elu, celu, selu), or from the result (their
    in-place forms)."""
    if is_result:
        return F.where(x > 0, grad * scale, grad * input_scale * (x + alpha * scale))
    return elu_backward(F, grad, x, alpha, scale, input_scale)


def _elu_double_backward(F, grad, grad_output, self_or_result, alpha, scale, input_scale,
                         is_result):
    """PyTorch's elu_double_backward."""
    neg = F.cast_like(self_or_result < 0, grad)
    g = grad * grad_output * input_scale
    if is_result:
        return g * neg
    return F.elu_backward(g, self_or_result, alpha, scale, input_scale, False) * neg


def _elu_backward_jvp(F, grad_output, grad_output_t, self_or_result, self_or_result_t, alpha,
                      scale, input_scale, is_result):
    """PyTorch's ``elu_backward(grad_output_t, ...) + elu_double_backward(self_or_result_t,
    grad_output, ...)``, an absent tangent a zero tensor: elu_backward materializes it (its
    +-0 term is added: -0.0 + 0.0 is 0.0), while elu_double_backward's products keep it a
    zero tensor (a vanishing term) except through its elu_backward (not is_result)."""
    if grad_output_t is None:
        grad_output_t = F.zeros_like(grad_output)
    out = F.elu_backward(grad_output_t, self_or_result, alpha, scale, input_scale, is_result)
    if self_or_result_t is not None:
        out = out + _elu_double_backward(F, self_or_result_t, grad_output, self_or_result,
                                         alpha, scale, input_scale, is_result)
    elif not is_result:
        out = out + F.elu_backward(F.zeros_like(grad_output), self_or_result, alpha, scale,
                                   input_scale, False) * F.cast_like(self_or_result < 0, out)
    return out


# Note [Activation backward ops]: elu's backward is an op of its own (EluBackwardBackward0)
ELU_BACKWARD = defop(
    "elu_backward", "EluBackwardBackward0", raw.elu_backward,
    inputs=("grad_output", "self_or_result"),
    params=("alpha", "scale", "input_scale", "is_result"),
    grads={"grad_output": lambda F, grad, self_or_result, alpha, scale, input_scale, is_result:
           F.elu_backward(grad, self_or_result, alpha, scale, input_scale, is_result),
           "self_or_result": _elu_double_backward},
    jvp=_elu_backward_jvp)
ELU = defop("elu", "EluBackward0", _elu, params=("alpha", "scale", "input_scale"),
            jvp="elementwise",
            grads={"self": lambda F, grad, self, alpha, scale, input_scale:
                   F.elu_backward(grad, self, alpha, scale, input_scale, False)})
CELU = defop("celu", "CeluBackward0",
             lambda a, alpha: _elu(a, alpha, 1.0, 1.0 / alpha),
             params=("alpha",), jvp="elementwise",
             # PyTorch's backward scales by 1.0 / alpha.toFloat() (derivatives.yaml)
             grads={"self": lambda F, grad, self, alpha: F.elu_backward(
                 grad, self, alpha, 1.0, 1.0 / float(np.float32(alpha)), False)})
def _leaky_relu(a, slope):
    """aten's leaky_relu_kernel: float16/bfloat16 converted to float32, times negval as a
    float, rounded once (Note [Half activations in float32])."""
    if a.itemsize == 2 and a.dtype.kind in "fV":
        x = a.astype(np.float32)
        with np.errstate(invalid="ignore"):
            return np.where(x > 0, x, x * np.float32(slope)).astype(a.dtype)
    return np.where(a > 0, a, a * slope).astype(a.dtype, copy=False)


LEAKY_RELU = defop("leaky_relu", "LeakyReluBackward0", _leaky_relu,
                   params=("negative_slope",), jvp="elementwise",
                   grads={"self": lambda F, grad, self, negative_slope:
                          F.leaky_relu_backward(grad, self, negative_slope)})
RRELU = defop("rrelu_with_noise", "RreluWithNoiseBackward0", _leaky_relu,
              params=("slope",), jvp="elementwise",
              grads={"self": lambda F, grad, self, slope:
                     F.rrelu_with_noise_backward(grad, self, slope)}, layout="contiguous")
HARDTANH = defop("hardtanh", "HardtanhBackward0",
                 lambda a, lo, hi: np.clip(a, lo, hi).astype(a.dtype, copy=False),
                 params=("min_val", "max_val"), jvp="elementwise",
                 grads={"self": lambda F, grad, self, min_val, max_val:
                        F.hardtanh_backward(grad, self, min_val, max_val)})
def _hardsigmoid(a):
    """aten's hardsigmoid_kernel: ``min(max(x + 3, 0), 6) / 6`` (a division: x * (1/6) is
    off by an ulp in 344 of 2,006 float32 values), float16/bfloat16 through float32."""
    if a.dtype.kind not in "fV" or a.dtype == np.float64:
        return np.clip(a / 6 + 0.5, 0, 1).astype(a.dtype, copy=False)
    x = a.astype(np.float32, copy=False)
    f32 = np.float32
    out = np.add(x, f32(3), out=np.empty_like(x))  # (an array for 0-d x too)
    np.maximum(out, f32(0), out=out)
    np.minimum(out, f32(6), out=out)
    out /= f32(6)
    return out.astype(a.dtype, copy=False)


HARDSIGMOID = defop("hardsigmoid", "HardsigmoidBackward0", _hardsigmoid,
                    jvp="elementwise",
                    grads={"self": lambda F, grad, self: F.hardsigmoid_backward(grad, self)},
                    backward_op=("aten::hardsigmoid_backward", ".", False))
def _hardswish_backward_values(F, grad, self):
    return F.where(self <= -3, 0, F.where(self < 3, grad * (self / 3 + 0.5), grad))



def _hardswish_double_backward(F, grad, grad_output, self):
    """PyTorch's where(-3 < self < 3, grad * grad_output / 3.0, zeros({}))."""
    return F.where((self > -3.0) & (self < 3.0), grad * grad_output / 3.0, F.zeros((), self))


def _hardswish_backward_jvp(F, grad_output, grad_output_t, self, self_t):
    """PyTorch's ``hardswish_backward(grad_output_t, self_p) + where(-3 < self_p < 3,
    self_t * grad_output_p / 3.0, zeros({}))`` with an absent tangent a zero tensor: the
    backward op materializes it (a +-0.0 term), the products keep it a zero tensor and the
    where() materializes that: +0.0."""
    if grad_output_t is None:
        grad_output_t = F.zeros_like(grad_output)
    out = F.hardswish_backward(grad_output_t, self)
    if self_t is None:
        return out + 0.0
    return out + _hardswish_double_backward(F, self_t, grad_output, self)


HARDSWISH_BACKWARD = defop(
    "hardswish_backward", "HardswishBackwardBackward0", raw.hardswish_backward,
    inputs=("grad_output", "self"),
    grads={"grad_output": lambda F, grad, self: F.hardswish_backward(grad, self),
           "self": _hardswish_double_backward},
    jvp=lambda F, grad_output, grad_output_t, self, self_t: _hardswish_backward_jvp(
        F, grad_output, grad_output_t, self, self_t))
HARDSWISH = defop("hardswish", "HardswishBackward0",
                  _in_float32(lambda a: (a * np.clip(a + 3, 0, 6) / 6).astype(a.dtype,
                                                                            copy=False)),
                  jvp="elementwise",
                  grads={"self": lambda F, grad, self: F.hardswish_backward(grad, self)})


def mish_backward(F, grad, self):
    """PyTorch's infinitely_differentiable_mish_backward (sigmoid, exp().log1p(), tanh);
    with grad mode off (forward mode under no_grad) its rule is aten's mish_backward kernel:
    computed in the common dtype, written in self's."""
    if _mixed_without_grad_mode(F, grad, self):
        return _kernel_in_common_dtype(mish_backward, grad, self, self._data.dtype)
    if _ported_float(F, grad, self):
        return _mish_backward_float32(grad, self)
    s = F.sigmoid(self)
    t = F.tanh(F.log1p(F.exp(self)) if not F.is_raw else
               F.where(self > 20, self, F.log1p(F.exp(self))))
    return grad * (t + self * s * (1 - t * t))


def _mish_backward_float32(grad, self):
    """aten's mish_backward kernel in float32 (float16/bfloat16 converted, the result
    rounded once): s = 1 / (1 + exp(-x)), t = tanh(log1p(exp(x))), then dy * (t + x * s *
    (1 - t * t)) with both multiply-adds fused (GCC contracts them). Its exp is SLEEF's
    expf in the SIMD loop, glibc's in the scalar loop; log1p and tanh are correctly
    rounded floats here (SLEEF's in its SIMD loop: 32 of 2,006 float32 gradients still
    differ there, 570 did; 0 of the float16 and bfloat16 ones, 963 and 848 did)."""
    f32, f64 = np.float32, np.float64
    simd = raw.simd_positions(self.shape, grad, self, unroll=2)
    g, x = grad.astype(f32, copy=False), self.astype(f32, copy=False)
    with np.errstate(all="ignore"):
        s = f32(1) / (f32(1) + _specfun.torch_expf(-x, simd))
        if self.dtype == np.float32:
            t = _specfun.torch_tanhf(_specfun.torch_log1pf(_specfun.torch_expf(x, simd),
                                                           simd), simd)
        else:
            t = raw.FLOAT_KERNELS["tanh"](raw.FLOAT_KERNELS["log1p"](_specfun.torch_expf(
                x, simd)))
        t64 = t.astype(f64)
        inner = (1 - t64 * t64).astype(f32)  # (1 - t * t fused: exact in double)
        out = (t64 + (x * s).astype(f64) * inner).astype(f32)
        out *= g
    return out.astype(self.dtype, copy=False)


def _mish(a, ported=False):
    """x tanh(softplus(x)); float32 as aten's mish_kernel, x * tanh(log1p(exp(x))) with
    its loops' exp, log1p and tanh (SLEEF's in the SIMD loop: Note [SLEEF's log1pf and
    tanhf])."""
    if ported:
        simd = raw.simd_positions(a.shape, a, unroll=2)
        with np.errstate(all="ignore"):
            return a * _specfun.torch_tanhf(
                _specfun.torch_log1pf(_specfun.torch_expf(a, simd), simd), simd)
    return a * np.tanh(np.where(a > 20, a, np.logaddexp(0, a)))


MISH = defop("mish", "MishBackward0", _float32_ported(_mish),
             jvp="elementwise", grads={"self": mish_backward},
             backward_op=("aten::mish_backward", ".", True))
def _log_sigmoid(a, ported=False):
    """PyTorch's min(x, 0) - log1p(exp(-|x|)) (log_sigmoid(inf) is +0.0); float32 as its
    kernel, whose loop is vectorized to the end (a partial load for the tail): SLEEF's
    expf and log1pf on every element (Note [SLEEF's log1pf and tanhf])."""
    if ported:
        with np.errstate(all="ignore"):
            # (vec::minimum's NaN: all bits set)
            m = np.where(np.isnan(a), _specfun._ALL_ONES_NAN, np.minimum(a, np.float32(0)))
            return m - _specfun.sleef_log1pf(_specfun.sleef_expf(-np.abs(a)))
    return np.minimum(a, 0) - np.log1p(np.exp(-np.abs(a)))


def _log_sigmoid_backward(F, grad, self):
    """PyTorch's (max_deriv - sign * b / (1 + b)) * grad, b = exp(-|x|) (its buffer); its
    TensorIterator refuses a gradient of another dtype (log_sigmoid's forward rule on a
    float32 tangent of a float16 input)."""
    gd, sd = (grad.dtype, self.dtype) if F.is_raw else (grad._data.dtype, self._data.dtype)
    if gd != sd:
        raise RuntimeError(f"Found dtype {_dtypes.scalar_name(_dtypes.from_numpy(gd))} but "
                           f"expected {_dtypes.scalar_name(_dtypes.from_numpy(sd))}")
    if _ported_float(F, grad, self):
        return _log_sigmoid_backward_float32(grad, self)
    b = F.exp(-F.abs(self))
    q = b / (b + 1)
    return F.where(self < 0, 1 - q, q) * grad


def _log_sigmoid_backward_float32(grad, self):
    """aten's log_sigmoid_backward kernel in float32: its buffer b = exp(-|x|) as the forward
    stored it (its loop is vectorized to the end, a partial load for the tail: SLEEF's
    expf everywhere, whatever the gradient's layout; rounded to float16/bfloat16 for
    those), then ``(max_deriv - sign * (b / (1 + b))) * grad`` in float32, rounded once.
    Measured: 0 of 2,006 float32, float16 and bfloat16 gradients differ (86, 602 and 437
    did), nor of 1,480 with a transposed gradient (53 did with glibc's expf there)."""
    f32 = np.float32
    g, x = grad.astype(f32, copy=False), self.astype(f32, copy=False)
    with np.errstate(all="ignore"):
        b = _specfun.sleef_expf(-np.abs(x))
        if self.dtype != np.float32:
            b = b.astype(self.dtype).astype(f32)
        q = b / (f32(1) + b)
        out = np.where(x < 0, f32(1) - q, q) * g
    return out.astype(self.dtype, copy=False)


def _log_sigmoid_double_backward(F, grad, self):
    z = F.sigmoid(self)  # (PyTorch's log_sigmoid_double_backward)
    return grad * (z - 1) * z


LOG_SIGMOID_BACKWARD = defop(
    "log_sigmoid_backward", "LogSigmoidBackwardBackward0",
    lambda grad, x: _log_sigmoid_backward(raw.RAW, grad, x), inputs=("grad_output", "self"),
    grads={"grad_output": lambda F, grad, self: F.log_sigmoid_backward(grad, self),
           "self": lambda F, grad, grad_output, self:
           _log_sigmoid_double_backward(F, grad * grad_output, self)},
    jvp=lambda F, grad_output, grad_output_t, self, self_t: _sum_terms(
        None if grad_output_t is None else F.log_sigmoid_backward(grad_output_t, self),
        None if self_t is None else _log_sigmoid_double_backward(F, self_t * grad_output,
                                                                 self)))
LOG_SIGMOID = defop("log_sigmoid", "LogSigmoidBackward0", _float32_ported(_log_sigmoid),
                    jvp="elementwise",
                    grads={"self": lambda F, grad, self: F.log_sigmoid_backward(grad, self)},
                    layout="contiguous")
THRESHOLD = defop("threshold", "ThresholdBackward0",
                  lambda a, threshold, value: np.where(a <= threshold, value, a).astype(
                      a.dtype, copy=False), params=("threshold", "value"), jvp="elementwise",
                  grads={"self": lambda F, grad, self, threshold:
                         F.threshold_backward(grad, self, threshold)})
SOFTSHRINK = defop("softshrink", "SoftshrinkBackward0", raw.softshrink,
                   params=("lambd",), jvp="elementwise",
                   grads={"self": lambda F, grad, self, lambd:
                          F.softshrink_backward(grad, self, lambd)})
HARDSHRINK = defop("hardshrink", "HardshrinkBackward0",
                   lambda a, l: np.where((a >= -l) & (a <= l), 0, a).astype(a.dtype, copy=False),
                   params=("lambd",), jvp="elementwise",
                   grads={"self": lambda F, grad, self, lambd:
                          F.hardshrink_backward(grad, self, lambd)})


# Note [Activation backward ops]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch computes these activations' gradients with ops of their own
# (``threshold_backward(grad, self, threshold)``, ...), differentiable in ``grad`` (the op
# itself: it is linear in grad) and in ``self`` (zero). So a backward recorded with
# create_graph, or a forward-mode tangent (the same formula with the tangent for grad),
# reads ``self`` (or ``result``) as a graph input: it requires grad whenever ``self`` does,
# under PyTorch's node (``ThresholdBackwardBackward0``, ..., ``NotImplemented`` for
# hardsigmoid's). A mask computed from ``self`` and applied by ``where`` would record
# nothing of self. Their tangent: the op applied to grad_output's tangent (PyTorch's
# formulas). threshold_backward (relu's) is with tanh_backward near the top.
def _zero_grad(F, grad):
    return F.zeros_like(grad)


LEAKY_RELU_BACKWARD = defop(
    "leaky_relu_backward", "LeakyReluBackwardBackward0", raw.leaky_relu_backward,
    inputs=("grad_output", "self"), params=("negative_slope",),
    grads={"grad_output": lambda F, grad, self, negative_slope:
           F.leaky_relu_backward(grad, self, negative_slope), "self": _zero_grad},
    jvp=lambda F, grad_output_t, self, negative_slope: None if grad_output_t is None
    else F.leaky_relu_backward(grad_output_t, self, negative_slope))
RRELU_WITH_NOISE_BACKWARD = defop(
    "rrelu_with_noise_backward", "RreluWithNoiseBackwardBackward0",
    raw.rrelu_with_noise_backward, inputs=("grad_output", "self"), params=("slope",),
    grads={"grad_output": lambda F, grad, self, slope:
           F.rrelu_with_noise_backward(grad, self, slope), "self": _zero_grad},
    jvp=lambda F, grad_output_t, self, slope: None if grad_output_t is None
    else F.rrelu_with_noise_backward(grad_output_t, self, slope))
HARDTANH_BACKWARD = defop(
    "hardtanh_backward", "HardtanhBackwardBackward0", raw.hardtanh_backward,
    inputs=("grad_output", "self"), params=("min_val", "max_val"),
    grads={"grad_output": lambda F, grad, self, min_val, max_val:
           F.hardtanh_backward(grad, self, min_val, max_val), "self": _zero_grad},
    jvp=lambda F, grad_output_t, self, min_val, max_val: None if grad_output_t is None
    else F.hardtanh_backward(grad_output_t, self, min_val, max_val))
SOFTSHRINK_BACKWARD = defop(
    "softshrink_backward", "SoftshrinkBackwardBackward0", raw.softshrink_backward,
    inputs=("grad_output", "self"), params=("lambd",),
    grads={"grad_output": lambda F, grad, self, lambd:
           F.softshrink_backward(grad, self, lambd), "self": _zero_grad},
    jvp=lambda F, grad_output_t, self, lambd: None if grad_output_t is None
    else F.softshrink_backward(grad_output_t, self, lambd))
HARDSHRINK_BACKWARD = defop(
    "hardshrink_backward", "HardshrinkBackwardBackward0", raw.hardshrink_backward,
    inputs=("grad_output", "self"), params=("lambd",),
    grads={"grad_output": lambda F, grad, self, lambd:
           F.hardshrink_backward(grad, self, lambd), "self": _zero_grad},
    jvp=lambda F, grad_output_t, self, lambd: None if grad_output_t is None
    else F.hardshrink_backward(grad_output_t, self, lambd))
HARDSIGMOID_BACKWARD = defop(
    "hardsigmoid_backward", "torch::autograd::NotImplemented", raw.hardsigmoid_backward,
    inputs=("grad_output", "self"),
    grads={"grad_output": _not_implemented("hardsigmoid_backward"),
           "self": _not_implemented("hardsigmoid_backward")},
    jvp=_fw_not_implemented("aten::hardsigmoid_backward"))
ACTIVATION_BACKWARD = (LEAKY_RELU_BACKWARD, RRELU_WITH_NOISE_BACKWARD, HARDTANH_BACKWARD,
                       SOFTSHRINK_BACKWARD, HARDSHRINK_BACKWARD, HARDSIGMOID_BACKWARD)


def glu_backward(F, grad, self, dim):
    """aten's glu_backward_cpu_out: s = sigmoid(b) into the first half, (1 - s) * s * a *
    grad into the second, then the first half times grad."""
    dim = dim % self.ndim if self.ndim else 0
    n = self.shape[dim] // 2
    a, b = F.narrow(self, dim, 0, n), F.narrow(self, dim, n, n)
    s = F.sigmoid(b)
    if F.is_raw and s.dtype.itemsize == 2 and s.dtype.kind in "fV":
        # (float16/bfloat16: s stored in the dtype, each half's product in float32 and
        # rounded once, as the kernel's op-math)
        s32, g32 = s.astype(np.float32), grad.astype(np.float32)
        second = (1 - s32) * s32 * a.astype(np.float32) * g32
        return F.cat([(s32 * g32).astype(s.dtype), second.astype(s.dtype)], dim)
    return F.cat([s * grad, (1 - s) * s * a * grad], dim)


def _glu_double_backward(F, grad, grad_output, self, dim):
    """PyTorch's glu_double_backward (the gradient of glu_backward in its input)."""
    dim = dim % self.ndim
    n = self.shape[dim] // 2
    first, second = F.narrow(self, dim, 0, n), F.narrow(self, dim, n, n)
    sig = F.sigmoid(second)
    one_sub_sig = 1 - sig
    sig_one_sub_sig = sig * one_sub_sig
    gg_first, gg_second = F.narrow(grad, dim, 0, n), F.narrow(grad, dim, n, n)
    gi_first = gg_second * grad_output * sig_one_sub_sig
    second_order = sig_one_sub_sig * one_sub_sig - sig * sig_one_sub_sig
    gi_second = (gg_second * first * grad_output * second_order +
                 gg_first * grad_output * sig_one_sub_sig)
    return F.cat([gi_first, gi_second], dim)


def _glu_double_backward_grad_output(F, grad, self, dim):
    """PyTorch's glu_double_backward_grad_output: the two halves of
    grad * glu_backward(ones, self) summed."""
    dim = dim % self.ndim
    n = self.shape[dim] // 2
    shape = self.shape[:dim] + (n,) + self.shape[dim + 1:]
    tmp = grad * F.glu_backward(F.constant(np.ones(shape), self), self, dim)
    return F.narrow(tmp, dim, 0, n) + F.narrow(tmp, dim, n, n)


def _glu_backward_jvp(F, result, grad_output, grad_output_t, self, self_t, dim):
    """aten's glu_backward_jvp (absent tangents as zeros)."""
    dim = dim % self.ndim
    n = self.shape[dim] // 2
    if grad_output_t is None:
        grad_output_t = F.zeros_like(grad_output)
    if self_t is None:
        self_t = F.zeros_like(self)
    a, b = F.narrow(self, dim, 0, n), F.narrow(self, dim, n, n)
    da, db = F.narrow(self_t, dim, 0, n), F.narrow(self_t, dim, n, n)
    grad_x_a = F.narrow(result, dim, 0, n)
    sig_b = F.sigmoid(b)
    glu = a * sig_b
    db_neg_sig_b = db - db * sig_b
    dgrad_x_a = grad_output_t * sig_b + grad_x_a * db_neg_sig_b
    dgrad_x_b = dgrad_x_a * (a - glu) + grad_x_a * (da - da * sig_b - glu * db_neg_sig_b)
    return F.cat([dgrad_x_a, dgrad_x_b], dim)


def _glu_backward_kernel(grad, self, dim):
    return glu_backward(raw.RAW, grad, self, dim)


# (Note [Activation backward ops]: glu's backward is an op of its own, as PyTorch's:
# GluBackwardBackward0 under create_graph)
GLU_BACKWARD = defop(
    "glu_backward", "GluBackwardBackward0", _glu_backward_kernel,
    inputs=("grad_output", "self"), params=("dim",),
    grads={"grad_output": lambda F, grad, self, dim:
           _glu_double_backward_grad_output(F, grad, self, dim),
           "self": lambda F, grad, grad_output, self, dim:
           _glu_double_backward(F, grad, grad_output, self, dim)},
    jvp=_glu_backward_jvp)


def glu_jvp(F, self, self_t, dim):
    """a_t * s + res * (b_t - s * b_t), with s = sigmoid(b) and res = a * s, in the order
    of PyTorch's glu_jvp (a CPU kernel of float and double only: half precision refuses,
    even empty; its order gives +0.0 where a * s * (1 - s) * b_t would keep a -0.0)."""
    d = self._data.dtype
    if self_t._data.dtype != d:  # (its TensorIterator's same-dtype check, first)
        raise RuntimeError(f"Found dtype {_dtypes.scalar_name(self_t.dtype)} but expected "
                           f"{_dtypes.scalar_name(self.dtype)}")
    if d.itemsize == 2:
        raise NotImplementedError(f"\"glu_jvp_cpu\" not implemented for "
                                  f"'{_dtypes.scalar_name(_dtypes.from_numpy(d))}'")
    n = self.shape[dim] // 2
    a, b = F.narrow(self, dim, 0, n), F.narrow(self, dim, n, n)
    a_t, b_t = F.narrow(self_t, dim, 0, n), F.narrow(self_t, dim, n, n)
    s = F.sigmoid(b)
    return a_t * s + (a * s) * (b_t - s * b_t)


GLU = defop("glu", "GluBackward0", None, params=("dim",),
            grads={"self": lambda F, grad, self, dim: F.glu_backward(grad, self, dim)},
            jvp=glu_jvp)


# In-place forms that PyTorch records with the result instead of the input. Their
# formulas (elu_backward / leaky_relu_backward with is_result) refuse a negative (or NaN)
# slope: at backward, and at the op under forward AD (its rule is the same formula, after
# the write).
_ELU_NEGATIVE = ("In-place elu backward calculation is triggered with a negative slope which "
                 "is not supported. This is caused by calling in-place forward function with "
                 "a negative slope, please call out-of-place version instead.")
_LEAKY_NEGATIVE = (
    "In-place leakyReLu backward calculation is triggered with a negative slope which is "
    "not supported. This is caused by calling in-place forward function with a negative "
    "slope, please call out-of-place version instead. File an issue at "
    "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu "
    "backward calculation with negative slope")


def _result_slope(F, grad, result, slope, backward=None):
    """leaky_relu_ (rrelu_with_noise_: its own backward op, which calls leaky_relu's)
    from the result: a negative slope is refused."""
    if not slope >= 0:
        raise RuntimeError(_LEAKY_NEGATIVE)
    return (backward or F.leaky_relu_backward)(grad, result, slope)


def _elu_result_backward(F, grad, result, alpha, scale, input_scale):
    if not alpha >= 0:
        raise RuntimeError(_ELU_NEGATIVE)
    return F.elu_backward(grad, result, alpha, scale, input_scale, True)


ELU_ = defop("elu_", "EluBackward1", _elu, params=("alpha", "scale", "input_scale"),
             jvp="elementwise",
             grads={"self": lambda F, grad, result, alpha, scale, input_scale:
                    _elu_result_backward(F, grad, result, alpha, scale, input_scale)})
CELU_ = defop("celu_", "CeluBackward1", CELU.kernel, params=("alpha",), jvp="elementwise",
              grads={"self": lambda F, grad, result, alpha:
                     _elu_result_backward(F, grad, result, alpha, 1.0, 1.0 / alpha)})
LEAKY_RELU_ = defop("leaky_relu_", "LeakyReluBackward1", LEAKY_RELU.kernel,
                    params=("negative_slope",), jvp="elementwise",
                    grads={"self": lambda F, grad, result, negative_slope:
                           _result_slope(F, grad, result, negative_slope)})
RRELU_ = defop("rrelu_with_noise_", "RreluWithNoiseBackward1", RRELU.kernel, params=("slope",),
               jvp=_fw_not_implemented(  # PyTorch has none (its message, verbatim)
                   "rrelu_with_noise_", " because it has not been implemented yet.\nPlease "
                   "file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new?"
                   "template=feature-request.yml so that we can prioritize its "
                   "implementation."),
               grads={"self": lambda F, grad, result, slope:
                      _result_slope(F, grad, result, slope, F.rrelu_with_noise_backward)})
THRESHOLD_ = defop("threshold_", "ThresholdBackward1", THRESHOLD.kernel,
                   params=("threshold", "value"), jvp="elementwise",
                   # self from before the write, as PyTorch's (a result equal to ``value``
                   # may lie above the threshold)
                   grads={"self": lambda F, grad, self, threshold:
                          F.threshold_backward(grad, self, threshold)})
POLYGAMMA_ = defop("polygamma_", "PolygammaBackward1", POLYGAMMA.kernel, params=("n",),
                   jvp="elementwise", grads=_POLYGAMMA_GRADS)
_INPLACE_FORM = {ELU: ELU_, CELU: CELU_, LEAKY_RELU: LEAKY_RELU_, RRELU: RRELU_,
                 THRESHOLD: THRESHOLD_}


def _float_activation(name, input, complex_ok=False):
    """PyTorch's dtype refusal of an activation's CPU kernel (floating types only; complex
    too for silu)."""
    d = _tensor_arg(input)._data
    if d.dtype.kind not in ("fcV" if complex_ok else "fV"):  # (V: bfloat16)
        kind = _dtypes.scalar_name(_dtypes.from_numpy(d.dtype))
        raise NotImplementedError(f"\"{name}\" not implemented for '{kind}'")
    return input


def _scalar_args(*values):
    """The argument parser's reading of c10::Scalar arguments: a Python int past uint64 is
    its OverflowError, before any other check; the last argument first (the generated
    binding's ``dispatch(_r.scalar(1), _r.scalar(2))``: GCC evaluates right to left)."""
    for v in reversed(values):
        _convert.check_python_int(v)


_KERNEL_FLOAT_MAX = {}  # (NumPy dtype, half_as_float): the largest finite value read


def _kernel_scalar(value, d, half_as_float=False):
    """``Scalar::to<scalar_t>()`` as a CPU kernel reads a number argument (checked_convert:
    "value cannot be converted to type int8_t without overflow"; a float truncated into an
    integer type, a negative int wrapped into an unsigned one); ``d`` a NumPy dtype;
    ``half_as_float``: the kernel reads it as float for float16/bfloat16. Returns the number
    the kernel uses for an integer or bool dtype, ``value`` itself for a floating one (whose
    kernels here take the Python number)."""
    if value.__class__ is float and d.kind in "fV":  # (the common case, cheaply)
        limit = _KERNEL_FLOAT_MAX.get((d, half_as_float))
        if limit is None:
            limit = _KERNEL_FLOAT_MAX[d, half_as_float] = math.inf if d == np.float64 else \
                float(_dtypes.finfo(_dtypes.float32 if half_as_float else
                                    _dtypes.from_numpy(d)).max)
        if -limit <= value <= limit or value != value or value in (math.inf, -math.inf):
            return value
    dt = _dtypes.from_numpy(d)
    if half_as_float and dt.name in ("float16", "bfloat16"):
        dt = _dtypes.float32
    out = _convert.scalar_array(value, dt)
    return out.item() if d.kind in "biu" else value


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta x)) / beta, linear above ``threshold``."""
    _scalar_args(beta, threshold)
    _float_activation("softplus_cpu", input)
    beta = _activation_scalar(input, beta, False)
    threshold = _activation_scalar(input, threshold, False)
    return _unary(SOFTPLUS, input, params=(beta, threshold))


def silu(input, inplace=False):
    """x * sigmoid(x)."""
    _float_activation("silu_cpu", input, complex_ok=True)
    return _activation(SILU, input, (), inplace)


def gelu(input, approximate="none"):
    """x * Phi(x) (or its tanh approximation)."""
    if not isinstance(input, Tensor):  # (F.gelu is C-bound: its parser's refusal, Note
        raise _argparse.wrong_type("gelu", "input")  # [Argument errors on the exception
        # path] in _argparse.py)
    if approximate not in ("none", "tanh"):
        view_errors_first(input)  # (Note [View errors before an op's checks])
        raise RuntimeError("approximate argument must be either none or tanh.")
    _float_activation("GeluKernelImpl", input)
    return _unary(GELU, input, params=(approximate,))


def _activation(op, input, params, inplace_, float_op=True):
    if inplace_:
        return _inplace_unary(_INPLACE_FORM.get(op, op), input, params, float_op=False)
    return _unary(op, input, float_op=float_op, params=params)


def _activation_scalar(input, value, inplace_, half_as_float=True):
    """A float activation's number argument as its kernel reads it (as float for float16
    and bfloat16 unless ``half_as_float`` is false): checked, a complex one's real part; an
    in-place op's error comes after autograd's checks."""
    try:
        value = _kernel_scalar(value, input._data.dtype, half_as_float)
    except RuntimeError:
        if inplace_:
            inplace.check_inplace(input, (input,))
        raise
    return value.real if value.__class__ is complex else value


def elu(input, alpha=1.0, inplace=False):
    _scalar_args(alpha)
    _float_activation("elu_cpu", input)
    alpha = _activation_scalar(input, alpha, inplace)
    return _activation(ELU, input, (alpha, 1.0, 1.0), inplace)


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def selu(input, inplace=False):
    """scale * elu(x, alpha) with the self-normalising constants (recorded as elu)."""
    _float_activation("elu_cpu", input)
    return _activation(ELU, input, (_SELU_ALPHA, _SELU_SCALE, 1.0), inplace)


def celu(input, alpha=1.0, inplace=False):
    _scalar_args(alpha)
    if _convert.scalar_array(alpha, _dtypes.float64).item() == 0:  # (before the dtype's)
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    _float_activation("elu_cpu", input)
    alpha = _activation_scalar(input, alpha, inplace)
    return _activation(CELU, input, (alpha,), inplace)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    _scalar_args(negative_slope)
    _float_activation("leaky_relu_cpu", input)
    negative_slope = _activation_scalar(input, negative_slope, inplace)
    return _activation(LEAKY_RELU, input, (negative_slope,), inplace)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Randomized leaky relu; in evaluation the slope is (lower + upper) / 2."""
    _scalar_args(lower, upper)
    bounds = []
    for name, v in (("lower", lower), ("upper", upper)):  # (aten's checks, as doubles)
        d = _convert.scalar_array(v, _dtypes.float64).item()
        if not math.isfinite(d):
            raise RuntimeError(f"rrelu: {name} bound must be finite, got {d}")
        bounds.append(d)
    lower, upper = bounds
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if training:
        from .special import rrelu_train
        _float_activation("rrelu_with_noise_out_cpu", input)
        refuse_half("rrelu_with_noise_out_cpu", _tensor_arg(input)._data, ("float16",))
        return rrelu_train(input, lower, upper, inplace)
    _float_activation("leaky_relu_cpu", input)
    return _activation(RRELU, input, ((lower + upper) / 2,), inplace)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:  # (F.hardtanh's Python check; F.hardtanh_ is the aten op itself)
        raise ValueError("min_val cannot be greater than max_val")
    return _hardtanh(input, min_val, max_val, inplace)


def _hardtanh(input, min_val, max_val, inplace):
    _scalar_args(min_val, max_val)
    d = _tensor_arg(input)._data
    if d.dtype == np.bool_:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if d.dtype.kind == "c":
        refuse_complex("clamp", d.dtype)
    if d.dtype.kind in "iu":  # integer tensors keep their dtype: the limits as int64
        # (Scalar::toLong, min first), then clamp's reads into the dtype
        min_val = _kernel_scalar(min_val, np.dtype(np.int64))
        max_val = _kernel_scalar(max_val, np.dtype(np.int64))
        if d.dtype.kind == "u" and (min_val < 0 or max_val < 0):
            raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    # (then aten's clamp_out, its checks and NaN bounds included: an in-place one's after
    # autograd's checks)
    min_val, max_val, _ = (_clamp_bounds_ if inplace else _clamp_bounds)(input, min_val,
                                                                         max_val)
    return _activation(HARDTANH, input, (min_val, max_val), inplace, float_op=False)


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0, inplace)


def hardsigmoid(input, inplace=False):
    _float_activation("hardsigmoid_cpu", input)
    return _activation(HARDSIGMOID, input, (), inplace)


def hardswish(input, inplace=False):
    _float_activation("hardswish_cpu", input)
    return _activation(HARDSWISH, input, (), inplace)


def mish(input, inplace=False):
    _float_activation("mish_cpu", input)
    return _activation(MISH, input, (), inplace)


def logsigmoid(input):
    if not isinstance(input, Tensor):  # (C-bound as F.gelu)
        raise _argparse.wrong_type("log_sigmoid", "input")
    _float_activation("log_sigmoid_cpu", input)
    return _unary(LOG_SIGMOID, input)


def threshold(input, threshold, value, inplace=False):
    """value where input <= threshold, else input."""
    _scalar_args(threshold, value)
    d = _tensor_arg(input)._data.dtype
    if d.kind in "bc":
        _float_activation("threshold_cpu", input)
    try:  # (the kernel's reads; an in-place op's errors after autograd's checks)
        threshold = _kernel_scalar(threshold, d, half_as_float=True)
        value = _kernel_scalar(value, d)
    except RuntimeError:
        if inplace:  # (the module, shadowed here by the argument)
            globals()["inplace"].check_inplace(input, (input,))
        raise
    return _activation(THRESHOLD, input, (threshold, value), inplace, float_op=False)


def threshold_(input, threshold, value):
    return globals()["threshold"](input, threshold, value, True)


def softshrink(input, lambd=0.5):
    _scalar_args(lambd)
    lambd_d = _convert.scalar_array(lambd, _dtypes.float64).item()  # (then the dtype's)
    _float_activation("softshrink_check", input)
    hi = _convert.finfo_max(_dtypes.from_numpy(input._data.dtype))
    if not 0 <= lambd_d <= hi:  # (C++'s stream prints doubles as %g)
        raise RuntimeError(f"lambda must be in range [0, {hi:g}] for input dtype "
                           f"{_dtypes.scalar_name(input.dtype)}, but found {lambd_d:g}")
    lambd = _activation_scalar(input, lambd, False)
    return _unary(SOFTSHRINK, input, params=(lambd,))


def hardshrink(input, lambd=0.5):
    _scalar_args(lambd)
    _float_activation("hardshrink_cpu", input)
    lambd = _activation_scalar(input, lambd, False, half_as_float=False)
    return _unary(HARDSHRINK, input, params=(lambd,))


def softsign(input):
    """x / (1 + |x|) (composed, as PyTorch records it)."""
    return div(input, add(abs(input), 1))


def tanhshrink(input):
    """x - tanh(x) (composed, as PyTorch records it)."""
    return sub(input, tanh(input))


def glu(input, dim=-1):
    """a * sigmoid(b), a and b the halves of input along dim."""
    if _tensor_arg(input)._data.ndim == 0:  # (F.glu's own check, before aten's)
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return _glu(input, dim)


@view_errors_before_checks
def _glu(input, dim):
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    n = d.shape[dim]
    if n % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size {n}")
    _float_activation("glu_cpu", input)
    a, b = np.split(d, 2, axis=dim)
    if d.itemsize == 2 and d.dtype.kind in "fV" and b.size <= raw.PORTED_MAX:
        # aten's glu_kernel: float_a / (1 + exp(-float_b)) in float32, rounded once, its
        # float exp SLEEF's in the SIMD loop and glibc's in the scalar loop (as sigmoid)
        from ._specfun import torch_expf
        e = torch_expf(-b.astype(np.float32), raw.simd_positions(b.shape, a, b, unroll=2))
        out = a.astype(np.float32) / (1 + e)
    else:
        out = a / (1 + np.exp(-b))
    return _finish(GLU, (input,), (dim,), _asarray(out).astype(d.dtype, copy=False))


def celu_(input, alpha=1.0):
    return celu(input, alpha, True)


def selu_(input):
    return selu(input, True)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return rrelu(input, lower, upper, training, True)


def elu_(input, alpha=1.0):
    return elu(input, alpha, True)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, True)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return _hardtanh(input, min_val, max_val, True)


# ---- the catalogue, the in-place variants still missing (issue 11) ---------------------------
# clamp_min / clamp_max are ops of their own in PyTorch (ClampMinBackward0 for a number bound,
# ClampMinBackward1 for a tensor bound), not clamp with one bound.
CLAMP_MIN = defop("clamp_min", "ClampMinBackward0", lambda a, min: raw.clamp(a, min, None),
                  params=("min",), jvp="elementwise",
                  grads={"self": lambda F, grad, self, min: F.where(self >= min, grad, 0)})
CLAMP_MAX = defop("clamp_max", "ClampMaxBackward0", lambda a, max: raw.clamp(a, None, max),
                  params=("max",), jvp="elementwise",
                  grads={"self": lambda F, grad, self, max: F.where(self <= max, grad, 0)})
CLAMP_MIN_TENSOR = defop(
    "clamp_min", "ClampMinBackward1", lambda a, lo: raw.clamp(a, lo, None),
    inputs=("self", "min"),
    jvp=lambda F, self, self_t, min, min_t: _pick_tangents(
        F, (self >= min, self, self_t), (None, min, min_t)),
    grads={"self": lambda F, grad, self, min: F.where(self >= min, grad, 0),
           "min": lambda F, grad, self, min: F.where(self < min, grad, 0)})
CLAMP_MAX_TENSOR = defop(
    "clamp_max", "ClampMaxBackward1", lambda a, hi: raw.clamp(a, None, hi),
    inputs=("self", "max"),
    jvp=lambda F, self, self_t, max, max_t: _pick_tangents(
        F, (self <= max, self, self_t), (None, max, max_t)),
    grads={"self": lambda F, grad, self, max: F.where(self <= max, grad, 0),
           "max": lambda F, grad, self, max: F.where(self > max, grad, 0)})


def _clamp_one(op, op_tensor, input, bound, is_min):
    if isinstance(bound, Tensor):
        from ._common import _binary
        r = _binary(op_tensor, input, bound)
        return r
    lo, hi, dt = _clamp_bounds(input, bound if is_min else None, None if is_min else bound,
                               one=True)
    d = input._data
    if dt.np != d.dtype:
        d = d.astype(dt.np)
    b = lo if is_min else hi
    return _finish(op, (input,), (b,), _asarray(op.kernel(d, b)).astype(d.dtype, copy=False))


def _clamp_one_(op, op_tensor, self, bound, is_min):
    if isinstance(bound, Tensor):
        from ._common import _inplace_binary
        return _inplace_binary(op_tensor, self, bound)
    lo, hi, dt = _clamp_bounds_(self, bound if is_min else None, None if is_min else bound,
                                one=True)
    d = self._data
    if dt.np != d.dtype:
        d = d.astype(dt.np)
    b = lo if is_min else hi
    return inplace.record_inplace(op, self, (self,), (b,), _asarray(op.kernel(d, b)))


def clamp_min(input, min):
    """max(input, min) elementwise (NaN propagates)."""
    return _clamp_one(CLAMP_MIN, CLAMP_MIN_TENSOR, input, min, True)


def clamp_max(input, max):
    """min(input, max) elementwise (NaN propagates)."""
    return _clamp_one(CLAMP_MAX, CLAMP_MAX_TENSOR, input, max, False)


def clamp_min_(self, min):
    return _clamp_one_(CLAMP_MIN, CLAMP_MIN_TENSOR, self, min, True)


def clamp_max_(self, max):
    return _clamp_one_(CLAMP_MAX, CLAMP_MAX_TENSOR, self, max, False)


def rsqrt_(self):
    return _inplace_unary(RSQRT, self)


def _write_no_grad(self, value, autograd_checks=True):
    """An in-place op PyTorch does not differentiate through (logical_*_, bitwise_*_): the
    value is written and the version bumped, self's history is left as it was.
    ``autograd_checks=False``: logical_*_, which PyTorch composes from its out= kernel, so
    no leaf check runs: a leaf requiring grad (or a view of one) is written without error,
    and a view's history is then regenerated (AsStridedBackward0) as after any write."""
    if autograd_checks:
        inplace.check_inplace(self, ())
    elif self._meta is not None and self._meta.get("inference") and not _state.inference:
        inplace.check_inplace(self, ())  # (only the inference-tensor error applies)
    inplace.write_inplace(self, value)
    self._vc[0] += 1
    return self


def _logical_inplace(fn):
    def method(self, other):
        if not isinstance(other, Tensor):
            raise TypeError(f"{fn.__name__}_(): argument 'other' (position 1) must be Tensor, "
                            f"not {type(other).__name__}")
        _out_overlaps(self, other)
        return _write_no_grad(self, fn(self, other)._data, False)
    method.__name__ = fn.__name__ + "_"
    return method


def _bitwise_inplace(fn, name, aten=None):
    aten = aten or fn.__name__ + "_"

    def method(self, other):
        fallback_checks(aten, self, other)
        # (autograd's checks before the kernel's: a leaf, a no_grad view when other
        # requires grad)
        inplace.check_inplace(self, (self, other), inference=False)
        _check_broadcast(self, other)
        common = _dtypes.result_type(self, other)
        inplace_iter_checks(self, (self, other), common)  # (shapes, cast, then the kernel)
        if common.np.kind not in "biu":
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for "
                                      f"'{_dtypes.scalar_name(common)}'")
        return _write_no_grad(self, fn(self, other)._data)
    method.__name__ = aten
    return method


logical_and_ = _logical_inplace(logical_and)
logical_or_ = _logical_inplace(logical_or)
logical_xor_ = _logical_inplace(logical_xor)
bitwise_and_ = _bitwise_inplace(bitwise_and, "bitwise_and")
bitwise_or_ = _bitwise_inplace(bitwise_or, "bitwise_or")
bitwise_xor_ = _bitwise_inplace(bitwise_xor, "bitwise_xor")
bitwise_left_shift_ = _bitwise_inplace(bitwise_left_shift, "lshift")
bitwise_right_shift_ = _bitwise_inplace(bitwise_right_shift, "rshift")
# x <<= y and x >>= y are aten's __ilshift__ / __irshift__ (x &= y is bitwise_and_)
ilshift = _bitwise_inplace(bitwise_left_shift, "lshift", "__ilshift__")
irshift = _bitwise_inplace(bitwise_right_shift, "rshift", "__irshift__")


def _integer_only(ufunc, name):
    """gcd / lcm: tensors of integral dtypes only, bool excluded (no derivative: no float
    can take part)."""
    compare = _compare(ufunc, promote=True)

    def f(input, other):
        _check_tensor_arg(name, "other", other, 2)
        rt = _dtypes.result_type(input, other)
        if rt.np.kind not in "iu":
            _check_broadcast(input, other)
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for "
                                      f"'{_dtypes.scalar_name(rt)}'")
        if input.__class__ is int and rt.np.kind in "iu":  # (a number first: wrapped into
            input = _fit_int(input, rt.np)  # the dtype, 2**63 into uint8 is 0)
        return compare(input, other)
    f.__name__ = f.__qualname__ = name
    return f


gcd = _integer_only(np.gcd, "gcd")
lcm = _integer_only(np.lcm, "lcm")
def _integer_only_(fn, name):
    inner = _bitwise_inplace(fn, name)

    def method(self, other):
        _check_tensor_arg(name + "_", "other", other, 1)
        return inner(self, other)
    method.__name__ = method.__qualname__ = name + "_"
    return method


gcd_ = _integer_only_(gcd, "gcd")
lcm_ = _integer_only_(lcm, "lcm")


def logical_not_(self):
    _out_overlaps(self)
    return _write_no_grad(self, np.logical_not(self._data), False)


def _out_overlaps(self, *others):
    """The memory-overlap checks of the out= kernel that logical_*_ writes through (out is
    self): no self-overlapping (expanded) self, no input partially aliasing it."""
    inplace.check_no_internal_overlap(self)
    inplace.check_input_overlap(self, others)


def bitwise_not_(self):
    fallback_checks("bitwise_not_", self)
    inplace.check_inplace_order(self, (self,))  # (the fallback's, TensorIterator's checks)
    d = self._data
    if d.dtype.kind not in "biu":
        raise NotImplementedError(f"\"bitwise_not_cpu\" not implemented for "
                                  f"'{_dtypes.scalar_name(_dtypes.from_numpy(d.dtype))}'")
    return _write_no_grad(self, bitwise_not(self)._data)


def round_(self, *, decimals=None):
    if decimals is not None and self._data.dtype.kind in "biuc":
        inplace.check_inplace_order(self, (self,))  # (TensorIterator's checks first)
    _round_decimals_integral(self, decimals)
    if decimals:
        from .special import ROUND_DECIMALS
        return _inplace_unary(ROUND_DECIMALS, self, (decimals,), float_op=False)
    return _inplace_unary(ROUND, self, (), float_op=False)


# Note [Zero-tensor tangents] in dispatch.py, op by op as PyTorch 2.13 computes a rule whose
# every tangent is a zero tensor: a rule built of mul/div/add (zero-tensor kernels) gives a
# zero tensor (abs: self_t * sgn; deg2rad; atan2; maximum's masked sum; copysign's ratio);
# one that calls a fused backward kernel, where or zeros_like materializes its zeros
# (sigmoid_backward, tanh_backward, threshold_backward, pow_backward, xlogy's masks,
# ceil/floor/round/trunc/sign's zeros_like: "dense", stored +0.0 whatever the rule would
# compute on zeros) and reciprocal's -self_t is a stored -0.0 (the rule on zeros).
for _op in (ABS, DEG2RAD, RAD2DEG, ATAN2, MAXIMUM, MINIMUM, FMAX, FMIN, COPYSIGN):
    _op.keeps_zero_tangent = True
for _op in (CEIL, FLOOR, LOGIT, ROUND, SIGMOID, SIGN, SINC, TANH, TRUNC, RELU, POW_TENSOR,
            XLOGY, XLOGY_SCALAR_OTHER):
    _op.keeps_zero_tangent = "dense"
RECIPROCAL.keeps_zero_tangent = False
