"""Kernels of ``nn.functional`` that are single ops in PyTorch (losses, convolution,
pooling, batch and layer norm): their table entries and formulas. The public functions
live in ``nn/functional.py`` (``convolution`` here: formulas call it in graph mode).
"""
import functools as _functools
import itertools as _it
import threading as _threading

from .._backend import np
from . import layout
from .dispatch import defop
from ._common import _state, refuse_half
from ..autograd.forward_ad import _tangent_or_none, drop_tangent
from .raw import _half
from .reduction import _NOT_YET, _numel


def _dtype_name(x):
    """PyTorch's name of x's dtype, for an array (raw formulas) or a Tensor."""
    from .. import _dtypes
    d = x.dtype
    return _dtypes.scalar_name(_dtypes.from_numpy(d) if isinstance(d, np.dtype) else d)


def _is_float(x):
    d = x.dtype
    return d.kind in "fV" if isinstance(d, np.dtype) else d.is_floating_point


def _promoted(F, other, self):
    """An integral or bool operand of a floating ``self`` in self's dtype, as the
    kernels' TensorIterator promotes it (NumPy would widen float32 - int64 to float64;
    our bool subtraction refuses what aten's kernels compute)."""
    if not _is_float(other) and _is_float(self):
        return F.cast_like(other, self)
    return other


def _into(F, v, self):
    """v written into a result of self's dtype (aten's grad_input = zeros_like(self))."""
    return v if v.dtype == self.dtype else F.cast_like(v, self)


def _mean_norm(c, shape):
    """c / numel as C++'s double division: inf for an empty input (whose mean is NaN; the
    gradient broadcast back to a 0-d operand sums nothing)."""
    n = _numel(shape)
    return c / n if n else float("inf")


def mse_backward(F, grad, self, target, reduction):
    """aten's mse_backward: norm * (self - target) * grad in the operands' common dtype,
    written into self's dtype."""
    norm = _mean_norm(2.0, self.shape) if reduction == "mean" else 2.0
    v = (self - _promoted(F, target, self)) * norm * grad
    return _into(F, v, self)


# ---- forward-mode rules (Note [Forward mode] in autograd/forward_ad.py) ------------------
# Note [Loss forward rules]
# ~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's ``result:`` rules of mse_loss, smooth_l1_loss and huber_loss are
# ``apply_loss_reduction(f_backward(self_t, self_p, target_p, None) +
# f_backward(target_t, target_p, self_p, None), reduction)``: each term is the backward
# op (its result in the dtype of its second argument; mse/smooth_l1 cast their common
# dtype into it, huber requires one dtype), an absent tangent is a zero tensor of its
# input (materialized by the op: +-0 terms), and the compiled code evaluates the target's
# term first. So under forward AD an integral or bool target raises the backward's cast
# error (mse: "result type Float can't be cast to the desired output type Bool") and
# huber of two dtypes its "Found dtype Float but expected Double", where the forward
# computes.
def _loss_jvp(F, backward, self, self_t, target, target_t, reduction, param=None,
              casts=True):
    terms = []
    for grad, a, b in ((target_t, target, self), (self_t, self, target)):
        if grad is None:
            grad = F.zeros_like(a)
        if casts and not _is_float(a) and _is_float(b):
            raise RuntimeError(f"result type {_dtype_name(b)} can't be cast to the desired "
                               f"output type {_dtype_name(a)}")
        terms.append(backward(F, grad, a, b, "none") if param is None else
                     backward(F, grad, a, b, "none", param))
    v = terms[1] + terms[0]
    if reduction == "mean":
        return F.mean(v)
    return F.sum(v) if reduction == "sum" else v


def _mse_jvp(F, self, self_t, target, target_t, reduction):
    return _loss_jvp(F, mse_backward, self, self_t, target, target_t, reduction)


def _nll_jvp(F, self_t, target, weight, reduction, ignore_index, total_weight, self_sizes):
    """From the backward: the gradient of a cotangent of ones holds -w at each target."""
    shape = (self_sizes[0],) + tuple(self_sizes[2:]) \
        if reduction == "none" and len(self_sizes) > 1 else ()
    ones = F.constant(np.ones(shape), self_t)
    prod = self_t * nll_loss_backward(F, ones, target, weight, reduction, ignore_index,
                                      total_weight, self_sizes)
    if shape:
        return F.sum(prod, (1,), False)
    return F.sum(prod)


# Losses.
def _mse_double_backward(F, grad, input, reduction):
    """PyTorch's mse_loss_double_backward: 2 * grad (over the element count for a mean)."""
    g = 2 * grad
    return g / _numel(input.shape) if reduction == "mean" else g


def _mse_double_backward_grad_output(F, grad, grad_output, self, target, reduction):
    if reduction == "none":
        return F.mse_loss_backward(grad, self, target, reduction)
    r = F.mse_loss_backward(F.ones_like(grad_output), self, target, reduction)
    return F.sum(r * grad)


def _mse_loss_backward_jvp(F, grad_output, grad_output_t, self, self_t, target, target_t,
                           reduction):
    """derivatives.yaml's mse_loss_backward ``result:``: the two double backward terms of the
    tangents times grad_output, plus the backward of grad_output's tangent (absent tangents
    are zeros: the backward op materializes its own, the products vanish). With a mean,
    PyTorch's mse_loss_double_backward divides its 2 * grad in place, which refuses the
    ZeroTensor a missing self or target tangent leaves there (measured: every combination
    of tangents but self's and target's both present raises)."""
    if reduction == "mean" and (self_t is None or target_t is None):
        from ..autograd.forward_ad import ZERO_TENSOR_ZERO_
        raise RuntimeError(ZERO_TENSOR_ZERO_)
    out = F.mse_loss_backward(F.zeros_like(grad_output) if grad_output_t is None else
                              grad_output_t, self, target, reduction)
    if self_t is not None:
        out = _mse_double_backward(F, self_t * grad_output, self, reduction) + out
    if target_t is not None:
        out = out - _mse_double_backward(F, target_t * grad_output, target, reduction)
    return out


def _mse_backward_kernel(grad, self, target, reduction):
    from .raw import RAW
    return mse_backward(RAW, grad, self, target, reduction)


# (Note [Activation backward ops]: mse_loss's backward is an op, MseLossBackwardBackward0
# under create_graph, as PyTorch's)
MSE_LOSS_BACKWARD = defop(
    "mse_loss_backward", "MseLossBackwardBackward0",
    lambda grad, self, target, reduction: _mse_backward_kernel(grad, self, target, reduction),
    inputs=("grad_output", "self", "target"), params=("reduction",),
    grads={"grad_output": lambda F, grad, grad_output, self, target, reduction:
           _mse_double_backward_grad_output(F, grad, grad_output, self, target, reduction),
           "self": lambda F, grad, grad_output, self, reduction:
           _mse_double_backward(F, grad * grad_output, self, reduction),
           "target": lambda F, grad, grad_output, target, reduction:
           -_mse_double_backward(F, grad * grad_output, target, reduction)},
    jvp=_mse_loss_backward_jvp)
MSE_LOSS = defop("mse_loss", "MseLossBackward0", None, inputs=("self", "target"),
                 params=("reduction",),
                 grads={"self": lambda F, grad, self, target, reduction:
                        F.mse_loss_backward(grad, self, target, reduction),
                        "target": lambda F, grad, self, target, reduction:
                        F.mse_loss_backward(grad, target, self, reduction)},
                 jvp=lambda F, self, self_t, target, target_t, reduction:
                     _mse_jvp(F, self, self_t, target, target_t, reduction), layout="iter")


def smooth_l1_loss_backward(F, grad, self, target, reduction, beta):
    """PyTorch's smooth_l1_loss_backward: (x - t) / beta inside [-beta, beta], its sign
    outside (divided by the element count for a mean), written into self's dtype."""
    x = self - _promoted(F, target, self)
    g = F.where(x <= -beta, -1.0, F.where(x >= beta, 1.0, x / beta))  # (the ends: constants)
    if reduction == "mean":  # (over the broadcast shape)
        g = g / _numel(x.shape)
    return _into(F, g * grad, self)


def huber_loss_backward(F, grad, self, target, reduction, delta):
    """PyTorch's huber_loss_backward: x - t clamped to [-delta, delta] (over n for a mean).
    Its TensorIterator wants one dtype: self's, then target and grad are checked."""
    for v in (target, grad):
        if v.dtype != self.dtype:
            raise RuntimeError(f"Found dtype {_dtype_name(v)} but expected "
                               f"{_dtype_name(self)}")
    x = self - target
    g = F.where(x <= -delta, -delta, F.where(x >= delta, delta, x))
    if reduction == "mean":  # (over the broadcast shape)
        g = g / _numel(x.shape)
    return g * grad


def _smooth_l1_double_backward(F, grad, input, target, reduction, beta):
    """PyTorch's smooth_l1_loss_double_backward: grad * (|x - t| < beta) / beta (over the
    element count for a mean); zeros for beta 0."""
    if beta == 0:
        return F.zeros_like(grad)
    d = F.abs(input - target)
    g = grad * F.cast_like(d < beta, grad) / beta
    return g / _numel(input.shape) if reduction == "mean" else g


def _smooth_l1_double_backward_grad_output(F, grad, grad_output, self, target, reduction,
                                           beta):
    if reduction == "none":
        return F.smooth_l1_loss_backward(grad, self, target, reduction, beta)
    r = F.smooth_l1_loss_backward(F.ones_like(grad_output), self, target, reduction, beta)
    return F.sum(r * grad)


def _smooth_l1_loss_backward_jvp(F, grad_output, grad_output_t, self, self_t, target,
                                 target_t, reduction, beta):
    """derivatives.yaml's smooth_l1_loss_backward ``result:`` (as mse_loss_backward's)."""
    out = F.smooth_l1_loss_backward(F.zeros_like(grad_output) if grad_output_t is None else
                                    grad_output_t, self, target, reduction, beta)
    if self_t is not None:
        out = _smooth_l1_double_backward(F, self_t * grad_output, self, target, reduction,
                                         beta) + out
    if target_t is not None:
        out = out - _smooth_l1_double_backward(F, target_t * grad_output, self, target,
                                               reduction, beta)
    if self_t is None:
        # (PyTorch's missing self_t is a zero tensor, whose term ``ZT * mask / beta``
        # (div.Scalar, or at::zeros for beta 0) is stored +0.0 zeros, summed first: no -0.0
        # comes out; Note [Zero-tensor tangents] in dispatch.py)
        out = out + F.zeros_like(out)
    return out


def _smooth_l1_backward_kernel(grad, self, target, reduction, beta):
    out = _loss_backward_kernel(grad, self, target, reduction, beta, True)
    if out is not None:
        return out
    from .raw import RAW
    return smooth_l1_loss_backward(RAW, grad, self, target, reduction, beta)


# Note [Huber and smooth L1 backward]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# aten's huber/smooth_l1 backward kernels (PointwiseOpsKernel.cpp) take norm = 1 / numel
# (mean) or 1 in the dtype and compute, in the SIMD loop, norm * out * grad with out = x
# (huber) or x / beta (smooth L1) inside the band, +-delta (+-1) outside; in the scalar
# loop (the tail past the last pair of vectors, strided operands) norm * x * grad inside,
# (+-norm * grad) * delta outside (huber; delta a double there, so a float32 product is
# rounded from double) and norm * x * grad / beta inside (smooth L1, beta a double). x / n
# * grad (the formulas' own order) differed in 30% of float64 mean gradients.
#
# Note [Half Huber and smooth L1 backward]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# float16/bfloat16 (measured against torch 2.13, 0 differences in ~1,300 gradients per
# dtype and reduction, both loops): huber's kernel is the one above in 16-bit steps (norm
# and delta the dtype's, each product rounded; the scalar loop's (+-norm * grad) * delta a
# double rounded through float); smooth L1's computes norm * (x / beta or +-1) * grad in
# float32 from float(input) - float(target), in both loops, and rounds once.
def _loss_backward_kernel(grad, self, target, reduction, param, smooth):
    from . import raw
    dt = self.dtype
    if target.dtype != dt or grad.dtype != dt or (smooth and param == 0):
        return None
    half = raw._half(self)
    if dt not in (np.float32, np.float64) and not half:
        return None
    shape = np.broadcast_shapes(grad.shape, self.shape, target.shape)
    n = int(np.prod(np.broadcast_shapes(self.shape, target.shape)))
    if not n:
        return None
    if half and smooth:  # (Note [Half Huber and smooth L1 backward]: float32, one rounding)
        f32 = np.float32
        norm = f32(1.0 / n if reduction == "mean" else 1.0)
        with np.errstate(all="ignore"):
            x = self.astype(f32) - target.astype(f32)
            sign = np.where(x > 0, f32(1), f32(-1))
            out = (norm * np.where(np.abs(x) >= f32(param), sign, x / f32(param))) * \
                grad.astype(f32)
        return np.array(np.broadcast_to(out, shape).astype(dt), order="C")
    norm = 1.0 / n if reduction == "mean" else 1.0
    norm = dt.type(np.float32(norm) if half else norm)  # (Scalar::to<Half>: through float)
    p = dt.type(param)
    with np.errstate(all="ignore"):
        x = np.broadcast_to(self - target, shape)
        g = np.broadcast_to(grad, shape)
        band = np.abs(x) >= p
        sign = np.where(x > 0, dt.type(1), dt.type(-1))
        inner = x / p if smooth else x
        vec = (norm * np.where(band, sign if smooth else sign * p, inner)) * g
        # (the output, zeros_like(self, LEGACY_CONTIGUOUS_MEMORY_FORMAT), leads the
        # iterator's dim order: a transposed self is the scalar loop's; 64 bytes a step,
        # as measured here)
        simd = raw.simd_positions(shape, np.empty(shape, dt), np.broadcast_to(self, shape),
                                  np.broadcast_to(target, shape), g)
        if simd is not None and simd.all():
            return np.array(vec, order="C")  # (ascontiguousarray would make a 0-d 1-d)
        wide = np.float64
        if half:  # (Half * double is a double, rounded to float, then to the dtype)
            lo, hi = x.astype(wide) <= -param, x.astype(wide) >= param
            sc = np.where(lo | hi, ((np.where(lo, -norm, norm) * g).astype(wide) * param)
                          .astype(np.float32).astype(dt), (norm * x) * g)
            return np.array(sc if simd is None else np.where(simd, vec, sc), order="C")
        lo, hi = x <= -param, x >= param  # (compared with the double)
        if smooth:
            sc = np.where(lo, -norm * g, np.where(hi, norm * g, (
                ((norm * x) * g).astype(wide) / param).astype(dt)))
        else:
            sc = np.where(lo | hi, ((np.where(lo, -norm, norm) * g).astype(wide) * param)
                          .astype(dt), (norm * x) * g)
        return np.array(sc if simd is None else np.where(simd, vec, sc), order="C")


SMOOTH_L1_LOSS_BACKWARD = defop(
    "smooth_l1_loss_backward", "SmoothL1LossBackwardBackward0", _smooth_l1_backward_kernel,
    inputs=("grad_output", "self", "target"), params=("reduction", "beta"),
    grads={"grad_output": lambda F, grad, grad_output, self, target, reduction, beta:
           _smooth_l1_double_backward_grad_output(F, grad, grad_output, self, target,
                                                  reduction, beta),
           "self": lambda F, grad, grad_output, self, target, reduction, beta:
           _smooth_l1_double_backward(F, grad * grad_output, self, target, reduction, beta),
           "target": lambda F, grad, grad_output, self, target, reduction, beta:
           -_smooth_l1_double_backward(F, grad * grad_output, self, target, reduction, beta)},
    jvp=_smooth_l1_loss_backward_jvp)
# (target's gradient is the backward with the operands swapped, as in derivatives.yaml)
SMOOTH_L1_LOSS = defop(
    "smooth_l1_loss", "SmoothL1LossBackward0", None, inputs=("self", "target"),
    params=("reduction", "beta"),
    grads={"self": lambda F, grad, self, target, reduction, beta:
           F.smooth_l1_loss_backward(grad, self, target, reduction, beta),
           "target": lambda F, grad, self, target, reduction, beta:
           F.smooth_l1_loss_backward(grad, target, self, reduction, beta)},
    jvp=lambda F, self, self_t, target, target_t, reduction, beta: _loss_jvp(
        F, smooth_l1_loss_backward, self, self_t, target, target_t, reduction, beta), layout="iter")
def _huber_double_backward(F, grad, input, target, reduction, delta):
    """PyTorch's huber_loss_double_backward: grad * (|x - t| < delta) (over the element
    count for a mean)."""
    d = F.abs(input - target)
    g = grad * F.cast_like(d < delta, grad)
    return g / _numel(input.shape) if reduction == "mean" else g


def _huber_double_backward_grad_output(F, grad, grad_output, self, target, reduction,
                                       delta):
    if reduction == "none":
        return F.huber_loss_backward(grad, self, target, reduction, delta)
    r = F.huber_loss_backward(F.ones_like(grad_output), self, target, reduction, delta)
    return F.sum(r * grad)


def _huber_backward_kernel(grad, self, target, reduction, delta):
    out = _loss_backward_kernel(grad, self, target, reduction, delta, False)
    if out is not None:
        return out
    from .raw import RAW
    return huber_loss_backward(RAW, grad, self, target, reduction, delta)


def _huber_backward_jvp(F, grad_output):
    from ..autograd.forward_ad import NOT_SUPPORTED
    raise NotImplementedError(NOT_SUPPORTED.format("huber_loss_backward"))


# (Note [Activation backward ops]: HuberLossBackwardBackward0 under create_graph; the op has
# no forward formula in derivatives.yaml)
HUBER_LOSS_BACKWARD = defop(
    "huber_loss_backward", "HuberLossBackwardBackward0", _huber_backward_kernel,
    inputs=("grad_output", "self", "target"), params=("reduction", "delta"),
    grads={"grad_output": lambda F, grad, grad_output, self, target, reduction, delta:
           _huber_double_backward_grad_output(F, grad, grad_output, self, target,
                                              reduction, delta),
           "self": lambda F, grad, grad_output, self, target, reduction, delta:
           _huber_double_backward(F, grad * grad_output, self, target, reduction, delta),
           "target": lambda F, grad, grad_output, self, target, reduction, delta:
           -_huber_double_backward(F, grad * grad_output, self, target, reduction, delta)},
    jvp=_huber_backward_jvp)
HUBER_LOSS = defop(
    "huber_loss", "HuberLossBackward0", None, inputs=("self", "target"),
    params=("reduction", "delta"),
    grads={"self": lambda F, grad, self, target, reduction, delta:
           F.huber_loss_backward(grad, self, target, reduction, delta),
           "target": lambda F, grad, self, target, reduction, delta:
           F.huber_loss_backward(grad, target, self, reduction, delta)},
    jvp=lambda F, self, self_t, target, target_t, reduction, delta: _loss_jvp(
        F, huber_loss_backward, self, self_t, target, target_t, reduction, delta, False),
    backward_op=("huber_loss_backward", _NOT_YET, False), layout="iter")


def soft_margin_loss_backward(F, grad, self, target, reduction):
    """PyTorch's soft_margin_loss_backward_out, in its order of operations and dtypes:
    z = exp(-target * self); grad_input (self's dtype) = target * z, then *= -norm,
    /= (z + 1), *= grad (NaN where z is inf)."""
    if target.dtype == (np.bool_ if F.is_raw else _bool_dtype()):
        from .pointwise import BOOL_NEGATION
        raise RuntimeError(BOOL_NEGATION)
    z = F.exp(_promoted(F, -target, self) * self)  # (-target in its dtype: a uint8 wraps)
    target = _promoted(F, target, self)
    norm = _mean_norm(1.0, self.shape) if reduction == "mean" else 1.0
    g = _into(F, target * z, self) * -norm
    g = _into(F, g / (z + 1), self)
    return _into(F, g * grad, self)


def _bool_dtype():
    from .. import _dtypes
    return _dtypes.bool


def _soft_margin_jvp(F, self, self_t, target, target_t, reduction):
    """PyTorch's rule passes ``target`` itself (not its primal) to soft_margin_loss_backward,
    an op without a forward rule: with a tangent on both, that op refuses it."""
    if self_t is None:
        return None
    if target_t is not None:
        from ..autograd.forward_ad import NOT_SUPPORTED
        raise NotImplementedError(NOT_SUPPORTED.format("soft_margin_loss_backward"))
    if self_t._data.dtype.kind == "c":
        # (its rule is ``soft_margin_loss_backward(self_t.conj(), ...).conj()``, and that
        # kernel does not conjugate its derivative: the tangent is conj(f'(x)) * self_t)
        from .complex_ops import cx
        v = cx(F).conj(soft_margin_loss_backward(F, cx(F).conj(self_t), self, target, "none"))
    else:
        v = soft_margin_loss_backward(F, self_t, self, target, "none")
    if reduction == "mean":
        return F.mean(v)
    return F.sum(v) if reduction == "sum" else v


def _soft_margin_double_backward(F, grad, input, target, reduction):
    """PyTorch's soft_margin_loss_double_backward: grad t^2 z / (z + 1)^2, z = exp(-x t)."""
    z = F.exp(input * -target)
    zplus1 = z + 1
    g = grad * (target * target) * z / (zplus1 * zplus1)
    return g / _numel(input.shape) if reduction == "mean" else g


def _soft_margin_double_backward_grad_output(F, grad, grad_output, self, target, reduction):
    if reduction == "none":
        return F.soft_margin_loss_backward(grad, self, target, reduction)
    r = F.soft_margin_loss_backward(F.ones_like(grad_output), self, target, reduction)
    return F.sum(r * grad)


def _soft_margin_backward_kernel(grad, self, target, reduction):
    from .raw import RAW
    return soft_margin_loss_backward(RAW, grad, self, target, reduction)


def _soft_margin_backward_jvp(F, grad_output):
    from ..autograd.forward_ad import NOT_SUPPORTED
    raise NotImplementedError(NOT_SUPPORTED.format("soft_margin_loss_backward"))


# (Note [Activation backward ops]: SoftMarginLossBackwardBackward0 under create_graph; no
# forward formula, no target gradient in derivatives.yaml: target is a param, saved with its
# version but given no edge, as PyTorch's node has none)
SOFT_MARGIN_LOSS_BACKWARD = defop(
    "soft_margin_loss_backward", "SoftMarginLossBackwardBackward0",
    _soft_margin_backward_kernel, inputs=("grad_output", "self"),
    params=("target", "reduction"),
    grads={"grad_output": lambda F, grad, grad_output, self, target, reduction:
           _soft_margin_double_backward_grad_output(F, grad, grad_output, self, target,
                                                    reduction),
           "self": lambda F, grad, grad_output, self, target, reduction:
           _soft_margin_double_backward(F, grad * grad_output, self, target, reduction)},
    jvp=_soft_margin_backward_jvp)
# (target is an input only to be saved, with its version: PyTorch refuses a target that
# requires grad, and an in-place change of the target makes backward raise)
SOFT_MARGIN_LOSS = defop(
    "soft_margin_loss", "SoftMarginLossBackward0", None, inputs=("self", "target"),
    params=("reduction",),
    grads={"self": lambda F, grad, self, target, reduction:
           F.soft_margin_loss_backward(grad, self, target, reduction)},
    jvp=lambda F, self, self_t, target, target_t, reduction:
    _soft_margin_jvp(F, self, self_t, target, target_t, reduction),
    backward_op=("soft_margin_loss_backward", _NOT_YET, False), layout="iter")


def nll_loss_backward(F, grad, target, weight, reduction, ignore_index, total_weight,
                      self_sizes):
    """Gradient of nll_loss: -weight[target] * grad at each target class, zero elsewhere."""
    if len(self_sizes) == 1 and np.ndim(target) == 1:
        if self_sizes[0] != np.shape(target)[0]:  # (aten's backward check, which the forward
            raise RuntimeError(                    # of a (1,) target skips)
                f"size mismatch (got input: [{self_sizes[0]}], target: "
                f"[{np.shape(target)[0]}])")
        target = np.reshape(target, ())  # (a (1,) input's: its kernel reads target[0])
    coef = -_class_weights(target, weight, ignore_index, self_sizes)
    if reduction == "mean":
        coef = coef / total_weight if total_weight else coef * 0
    d = 1 if len(self_sizes) > 1 else 0                   # (C,) input: one sample
    src = F.unsqueeze(grad * F.constant(coef, grad), d)
    index = np.expand_dims(np.where(target == ignore_index, 0, target), d)
    if F.is_raw:   # straight into fresh zeros (scatter would copy a zero array first)
        out = np.zeros(self_sizes, np.asarray(grad).dtype)
        np.put_along_axis(out, index, src, d)
        return out
    return F.scatter(F.zeros(self_sizes, grad), d, index, src)


def _class_weights(target, weight, ignore_index, sizes):
    """Each sample's weight (0 where its target is ignore_index), a constant array."""
    w = np.ones(sizes[1] if len(sizes) > 1 else sizes[0]) if weight is None else weight
    safe = np.where(target == ignore_index, 0, target)
    return np.where(target == ignore_index, 0.0, w[safe])


def _nll_of(F, grad, target, weight, reduction, ignore_index):
    """nll_loss(grad, target, weight, reduction, ignore_index): the gradient of
    nll_loss_backward in its grad_output (the loss is linear in its input)."""
    from .._tensor import _make
    from ..nn.functional import _nll_loss_nd
    w = None if weight is None else _make(np.asarray(weight))
    if F.is_raw:
        from ..autograd.grad_mode import no_grad
        with no_grad():
            return _nll_loss_nd(_make(grad), _make(np.asarray(target)), w, reduction,
                                ignore_index)._data
    return _nll_loss_nd(grad, _make(np.asarray(target)), w, reduction, ignore_index)


def _nll_backward_kernel(grad, self, target, weight, reduction, ignore_index,
                         total_weight):
    from .raw import RAW
    return nll_loss_backward(RAW, grad, target, weight, reduction, ignore_index,
                             total_weight, self.shape)


def _nll_backward_op(name, node):
    """nll_loss_backward / nll_loss2d_backward: derivatives.yaml differentiates them in
    grad_output (nll_loss of the gradient) and gives self a zeros_like(grad), so under
    create_graph the gradient has a node of its own while self requires grad; no forward
    formula, but the gradient of a dual incoming gradient is its backward (linear)."""
    return defop(
        name, node, _nll_backward_kernel, inputs=("grad_output", "self"),
        params=("target", "weight", "reduction", "ignore_index", "total_weight"),
        grads={"grad_output": lambda F, grad, target, weight, reduction, ignore_index:
               _nll_of(F, grad, target, weight, reduction, ignore_index),
               "self": lambda F, grad: F.zeros_like(grad)},
        jvp=lambda F, grad_output_t, self, target, weight, reduction, ignore_index,
        total_weight: None if grad_output_t is None else F.nll_loss_backward(
            grad_output_t, self, target, weight, reduction, ignore_index, total_weight))


# (Note [Activation backward ops]: NllLossBackwardBackward0 / NllLoss2DBackwardBackward0
# under create_graph; the loss saves self, so an in-place change of it makes backward raise)
NLL_LOSS_BACKWARD = _nll_backward_op("nll_loss_backward", "NllLossBackwardBackward0")
NLL_LOSS2D_BACKWARD = _nll_backward_op("nll_loss2d_backward", "NllLoss2DBackwardBackward0")
NLL_LOSS = defop("nll_loss", "NllLossBackward0", None, params=(
    "target", "weight", "reduction", "ignore_index", "total_weight"),
    grads={"self": lambda F, grad, self, target, weight, reduction, ignore_index,
           total_weight: F.nll_loss_backward(grad, self, target, weight, reduction,
                                             ignore_index, total_weight)},
    jvp=lambda F, self_t, target, weight, reduction, ignore_index, total_weight, self_sizes:
        _nll_jvp(F, self_t, target, weight, reduction, ignore_index, total_weight, self_sizes))
NLL_LOSS2D = defop("nll_loss2d", "NllLoss2DBackward0", None, params=(   # (N, C, H, W) inputs
    "target", "weight", "reduction", "ignore_index", "total_weight"),
    grads={"self": lambda F, grad, self, target, weight, reduction, ignore_index,
           total_weight: F.nll_loss2d_backward(grad, self, target, weight, reduction,
                                               ignore_index, total_weight)},
    jvp=lambda F, self_t, target, weight, reduction, ignore_index, total_weight, self_sizes:
        _nll_jvp(F, self_t, target, weight, reduction, ignore_index, total_weight, self_sizes))


# ---- convolution, pooling and normalisation kernels ---------------------------------------
# Note [Convolution as one GEMM per group]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# The forward pads the input once, takes every receptive field as a strided view
# (``as_strided``: no copy), lays the fields out as the rows of a matrix (one copy,
# "im2col") and multiplies by the weight matrix of each group (one batched GEMM). The
# transposed convolution is the adjoint: one GEMM, then the columns are added back into
# the output with one strided add per kernel offset ("col2im"; a loop over kernel
# offsets, never over pixels or the batch). Backward formulas are convolutions too:
# grad_input a transposed convolution of grad, grad_weight a convolution of the input
# with grad as the kernel (batch and channels swapped, stride and dilation swapped), so
# the one ``convolution`` entry differentiates itself to any order.
def _windows(xp, out_sizes, kernel, stride, dilation):
    """View (N, C, *S) as (N, C, *O, *K): element [.., o, k] = xp[.., o*s + k*d]."""
    sp = xp.strides[2:]
    shape = xp.shape[:2] + tuple(out_sizes) + tuple(kernel)
    strides = xp.strides[:2] + tuple(st * s for st, s in zip(sp, stride)) + \
        tuple(st * d for st, d in zip(sp, dilation))
    return np.lib.stride_tricks.as_strided(xp, shape, strides, writeable=False)


def _pad_spatial(x, before, after, value=0):
    """x with its trailing len(before) dims padded by value (np.pad's own Python costs
    ~0.3 ms a call, the size of a small convolution's whole GEMM)."""
    if not any(before) and not any(after):
        return x
    lead = x.ndim - len(before)
    shape = x.shape[:lead] + tuple(s + b + a for s, b, a in zip(x.shape[lead:], before, after))
    out = np.zeros(shape, x.dtype) if value == 0 else np.full(shape, value, x.dtype)
    out[(slice(None),) * lead + tuple(slice(b, b + s) for b, s in
                                      zip(before, x.shape[lead:]))] = x
    return out


def conv_out_size(size, k, s, p, d):
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


# Note [Stride-1 convolution over flattened rows]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# With stride 1 (LeNet's, a ResNet's 3 x 3 convolutions), lay the padded input out channel
# by channel, its N images' flattened spatial planes (P elements) one after another: xc
# (C, N*P). The field of image n's output o at kernel offset k then starts at n*P + o +
# off(k), so for each k the inputs of all of an image's outputs are one contiguous run of
# xc over a "wide" output that also covers the padding columns (L, the span from the first
# valid output to the last; the extra columns are computed and dropped). im2col becomes
# one strided copy per chunk of images (runs of L elements, every offset and channel at
# once) into a reused column buffer of ~_COLS_BYTES that stays in the cache between its
# fill and its GEMM; each chunk is one 2-d GEMM per group, (Og, Cg*K) @ (Cg*K, m*L), the
# chunk's images side by side in the columns (~10% faster than one GEMM per image, and
# small images need no separate path), written in place into the wide (Cout, N*L)
# result; one strided copy then takes the valid outputs in (N, Cout, *O) order. The
# general path gathers runs of kernel-width length (~10 x slower). The input gradient is
# the same convolution of the padded gradient with the flipped, transposed kernel; the
# weight gradient zero-fills the wide gradient (Cout, N*L) and per chunk adds one GEMM
# of it with the same columns, transposed. Other strides take the general path.
def _flat_geometry(padded, kernel, dilation):
    """(output sizes, flat strides of the padded spatial dims, span L, offsets off(k))."""
    nsp = len(kernel)
    out = tuple(padded[i] - dilation[i] * (kernel[i] - 1) for i in range(nsp))
    st = [1] * nsp
    for i in range(nsp - 2, -1, -1):
        st[i] = st[i + 1] * padded[i + 1]
    span = sum((o - 1) * s for o, s in zip(out, st)) + 1
    offs = [sum(k * d * s for k, d, s in zip(ks, dilation, st))
            for ks in _it.product(*[range(k) for k in kernel])]
    return out, st, span, offs


# Note [Convolution scratch]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~
# The padded channel-major input, the wide output or gradient and the column buffer are
# scratch, made and dropped by every call. A fresh block of several MB comes from the OS
# each time (glibc trims its heap when the previous one is freed) and page-faults on its
# first touch: ~1.4 ms per 8 MB, as much as a pass over it. Each thread keeps its last
# block of each role and reuses it when the next call has the same key (shapes, dtype,
# padding: its zeros, written once, are then still where they belong); blocks over
# _SCRATCH_MAX are not kept. Results are always fresh copies, never scratch.
_scratch = _threading.local()
_SCRATCH_MAX = 64 << 20


def _scratch_array(role, key, shape, dt, zero):
    """A thread's reusable array for ``role``; ``zero``: zeros when newly made."""
    d = _scratch.__dict__
    hit = d.get(role)
    if hit is not None and hit[0] == key:
        return hit[1]
    a = np.zeros(shape, dt) if zero else np.empty(shape, dt)
    if a.nbytes <= _SCRATCH_MAX:
        d[role] = (key, a)
    else:
        d.pop(role, None)
    return a


def _channel_major(x, padding, kernel, dilation, dt):
    """The padded input as xc (C, N*P), with its flat geometry (Note [Stride-1
    convolution over flattened rows]); scratch (Note [Convolution scratch])."""
    n, c = x.shape[:2]
    sp = tuple(s + 2 * p for s, p in zip(x.shape[2:], padding))
    out, st, span, offs = _flat_geometry(sp, kernel, dilation)
    plane = _prod(sp)
    xc = _scratch_array("xc", ((c, n * plane), dt, padding, x.shape), (c, n * plane), dt,
                        any(padding))
    inner = (slice(None),) * 2 + tuple(slice(p, p + s) for p, s in zip(padding, x.shape[2:]))
    xc.reshape((c, n) + sp)[inner] = x.swapaxes(0, 1)
    return xc, out, st, span, plane


def _fill(buf, xc, n0, m, plane, span, kernel, kstrides):
    """buf[:, k, i, :] = xc[:, (n0 + i) * P + off(k) :][:span] for every kernel offset k and
    image i < m of the chunk, as one strided copy (xc is contiguous: a view made by one
    ndarray call, not as_strided's Python); kstrides: the kernel dims' strides in bytes."""
    it = xc.itemsize
    src = np.ndarray((xc.shape[0],) + kernel + (m, span), xc.dtype, xc, n0 * plane * it,
                     (xc.strides[0],) + kstrides + (plane * it, it))
    buf.reshape((buf.shape[0],) + kernel + buf.shape[2:])[..., :m, :] = src


def _kernel_strides(dilation, st, dt):
    it = np.dtype(dt).itemsize
    return tuple(d * t * it for d, t in zip(dilation, st))


def _wide_view(y, n, span, out, st):
    """The (Cout, N, *O) valid outputs inside a contiguous wide (Cout, N*L) array, as a
    view."""
    it = y.itemsize
    return np.ndarray((y.shape[0], n) + out, y.dtype, y, 0,
                      (y.strides[0], span * it) + tuple(s * it for s in st))


_COLS_BYTES = 4 << 20
# OpenBLAS runs a GEMM with M*N*K <= 1e6 through its small-matrix kernels: for a layer with
# few output channels (LeNet's 6) chunks of that size take ~1/3 of the time of bigger ones
_SMALL_GEMM = 1_000_000


def _images_per_chunk(c, kt, rows, n, span, dt):
    """Images per chunk: a (C, K, B, L) column buffer of about _COLS_BYTES, or a GEMM
    within OpenBLAS's small-matrix kernels when that still leaves 1024 columns or more."""
    b = _COLS_BYTES // (c * kt * np.dtype(dt).itemsize)
    small = _SMALL_GEMM // (rows * c * kt)
    if small >= 1024:
        b = min(b, small)
    return max(1, min(n, b // span))


# Note [Stride-1 convolution by shifted rows]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# With many input channels (a ResNet's 64 x 3 x 3) the column fill of Note [Stride-1
# convolution over flattened rows] copies K = 9 runs per channel and image (2.5 MB an
# image) only to line the runs up for one GEMM, after a channel-major copy of the whole
# input. Only the last kernel dim needs copies: per chunk of images, lay the padded
# images out channel by channel KW times, the j-th copy shifted left by j * dw elements,
# as B (C, KW, m*P) (written from the input directly; the other copies from the first
# while it is in the cache: 0.9 MB an image); then for each offset r of the other kernel
# dims (KH of them in 2-d) the rows (c, j) of B from column off(r) on are one ordinary
# strided matrix, and the convolution is KH GEMMs (Og, Cg*KW) @ (Cg*KW, columns) whose
# valid outputs are summed straight into the result (the sum replaces the copy out of
# the wide output). A chunk's columns run from its first image's plane to its last
# image's span (the P - L columns between two images are computed and dropped). The
# weight gradient is the adjoint: per chunk and r, B's rows times the wide gradient
# (zero outside the outputs, P columns an image), transposed. On a ResNet's 32 x 64 x 32
# x 32 layer, forward 39.9 -> 36.3 ms and weight gradient 39.1 -> 37.2 (medians, paired,
# load ~6). Taken where Cg * KW >= _SHIFT_MIN_ROWS and KW > 1 (LeNet's 6 x 5 rows make
# the GEMMs too thin: it keeps the column fill).
_SHIFT_MIN_ROWS = 128
_SHIFT_COLS = 2048  # columns per GEMM chunk at least one image (best at ~1-2 thousand)


def _shift_ok(cg, kernel):
    return len(kernel) >= 1 and kernel[-1] > 1 and cg * kernel[-1] >= _SHIFT_MIN_ROWS


def _shifted_input(x, padding, kernel, dilation, dt):
    """The flat geometry of the padded input, the offsets off(r) of the kernel dims but
    the last, the chunks of whole images (first image, images, first column, columns) and
    a chunk's buffer (C, KW, m*P) for _shift_fill, its padding zero (scratch: Note
    [Convolution scratch])."""
    n, c = x.shape[:2]
    sp = tuple(s + 2 * p for s, p in zip(x.shape[2:], padding))
    out, st, span, _ = _flat_geometry(sp, kernel, dilation)
    plane = _prod(sp)
    rest = [sum(k * dl * t for k, dl, t in zip(ks, dilation, st))
            for ks in _it.product(*[range(k) for k in kernel[:-1]])]
    m = max(1, min(n, _SHIFT_COLS // plane))
    chunks = [(n0, min(m, n - n0), n0 * plane, (min(m, n - n0) - 1) * plane + span)
              for n0 in range(0, n, m)]
    buf = _scratch_array("shifted", ((c, kernel[-1], m * plane), dt, padding, x.shape[1:],
                                     dilation), (c, kernel[-1], m * plane), dt, True)
    return out, st, span, plane, rest, chunks, buf


def _shift_fill(buf, x, n0, m, padding, dilation):
    """buf[c, j, i] = xp[c, i + j * dw] over the chunk's m padded images xp laid out
    channel by channel (Note [Stride-1 convolution by shifted rows]): the unshifted copy
    from x (the padding, zero, is never written), the others from it while it is in the
    cache; the columns past the chunk's last image are never read."""
    c, kw = buf.shape[:2]
    sp = tuple(s + 2 * p for s, p in zip(x.shape[2:], padding))
    length = m * _prod(sp)
    inner = (slice(None),) * 2 + tuple(slice(p, p + s) for p, s in zip(padding, x.shape[2:]))
    b0 = buf[:, 0]
    b0[:, :length].reshape((c, m) + sp)[inner] = x[n0:n0 + m].swapaxes(0, 1)
    for j in range(1, kw):
        sh = j * dilation[-1]
        buf[:, j, :length - sh] = b0[:, sh:length]


def _conv_s1_shifted(x, w, padding, dilation, groups):
    """conv_forward with stride 1 by shifted rows (Note [Stride-1 convolution by shifted
    rows])."""
    n = x.shape[0]
    cout, cg = w.shape[:2]
    kernel = tuple(w.shape[2:])
    g, og, kw = groups, cout // groups, kernel[-1]
    dt = np.result_type(x, w)
    out, st, span, plane, rest, chunks, buf = _shifted_input(x, padding, kernel, dilation,
                                                             dt)
    b3 = buf.reshape(g, cg * kw, -1)
    r = len(rest)
    wr = np.ascontiguousarray(w.reshape(cout, cg, r, kw).transpose(2, 0, 1, 3), dt)
    wr = wr.reshape(r, g, og, cg * kw)
    y = _scratch_array("wide_shifted", ((g, og, chunks[0][3]), dt), (r, g, og, chunks[0][3]),
                       dt, False)
    res = np.empty((n, cout) + out, dt)
    it = y.itemsize
    for n0, m, _, cols in chunks:
        _shift_fill(buf, x, n0, m, padding, dilation)
        for i in range(r):
            np.matmul(wr[i], b3[:, :, rest[i]:rest[i] + cols], out=y[i, :, :, :cols])
        # the valid outputs of the chunk's images, summed over r into the result
        v = np.ndarray((r, cout, m) + out, dt, y, 0, (y.strides[0], y.strides[2], plane * it) +
                       tuple(t * it for t in st))
        dst = res[n0:n0 + m].swapaxes(0, 1)
        if r == 1:
            dst[...] = v[0]
        else:
            np.add(v[0], v[1], out=dst)
            for i in range(2, r):
                dst += v[i]
    return res


def _conv_weight_grad_shifted(x, grad, kernel, padding, dilation, groups):
    """The weight gradient of a stride-1 convolution by shifted rows (Note [Stride-1
    convolution by shifted rows])."""
    n, cin = x.shape[:2]
    cout = grad.shape[1]
    g = groups
    cg, og, kw = cin // g, cout // g, kernel[-1]
    dt = np.result_type(x, grad)
    out, st, span, plane, rest, chunks, buf = _shifted_input(x, padding, kernel, dilation,
                                                             dt)
    b3 = buf.reshape(g, cg * kw, -1)
    # the wide gradient (Cout, N*P), zero in the columns that are no output
    gw = _scratch_array("wide_grad_shifted", (grad.shape, x.shape, padding, dt),
                        (cout, n * plane), dt, True)
    _wide_view(gw, n, plane, out, st)[...] = grad.swapaxes(0, 1)
    gw = gw.reshape(g, og, n * plane)
    r = len(rest)
    dwt = np.zeros((r, g, cg * kw, og), dt)
    for n0, m, c0, cols in chunks:
        _shift_fill(buf, x, n0, m, padding, dilation)
        gt = gw[:, :, c0:c0 + cols].swapaxes(1, 2)
        for i in range(r):
            dwt[i] += np.matmul(b3[:, :, rest[i]:rest[i] + cols], gt)
    dw = dwt.reshape((r, g, cg, kw, og)).transpose(1, 4, 2, 0, 3)
    return dw.reshape((cout, cg) + tuple(kernel))


def _conv_s1(x, w, padding, dilation, groups):
    """conv_forward with stride 1 (Note [Stride-1 convolution over flattened rows])."""
    n, cin = x.shape[:2]
    cout, cg = w.shape[:2]
    kernel = tuple(w.shape[2:])
    if _shift_ok(cg, kernel):
        return _conv_s1_shifted(x, w, padding, dilation, groups)
    dt = np.result_type(x, w)
    xc, out, st, span, plane = _channel_major(x, padding, kernel, dilation, dt)
    g, kt = groups, _prod(kernel)
    wm = w.reshape(g, cout // g, cg * kt)
    y = _scratch_array("wide", ((g, cout // g, n * span), dt), (g, cout // g, n * span), dt,
                       False)
    nb = _images_per_chunk(cin, kt, cout // g, n, span, dt)
    buf = _scratch_array("cols", ((cin, kt, nb, span), dt), (cin, kt, nb, span), dt, False)
    ks = _kernel_strides(dilation, st, dt)
    for n0 in range(0, n, nb):
        m = min(nb, n - n0)
        _fill(buf, xc, n0, m, plane, span, kernel, ks)
        np.matmul(wm, buf.reshape(g, cg * kt, nb * span)[:, :, :m * span],
                  out=y[:, :, n0 * span:(n0 + m) * span])
    v = _wide_view(y.reshape(cout, n * span), n, span, out, st)
    return v.swapaxes(0, 1).copy()


# Note [Small-image convolution as one dense matrix]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# On tiny planes (the digits model's 16 -> 32 convolution on 4 x 4 images) the flattened-
# rows path spends more on its copies (the padded channel-major input, the column fill,
# the valid outputs) than on its GEMM, and PyTorch's oneDNN kernel is ~3 x faster. There
# the whole stride-1, one-group convolution is a linear map of an image's Cin * P inputs
# to its Cout * Q outputs: a matrix M (Cin*P, Cout*Q) holding w[o, c, k] where input pixel
# p feeds output pixel q through kernel offset k, zero elsewhere (padding needs no rows).
# Then the forward is one GEMM x (N, Cin*P) @ M with the output already in (N, Cout, *O)
# order, the input gradient (the transposed convolution) g @ M^T, and the weight
# gradient one GEMM x^T @ g (Cin*P, Cout*Q) whose entries at the valid (p, q, k) triples
# are summed per offset. Taken where M's GEMM costs at most _DENSE_RATIO x the
# flattened-rows GEMM (P*Q <= ratio * K*L) and M is at most _DENSE_MAX entries. M's zeros
# would turn an inf or NaN input into NaN everywhere (0 * inf), so a non-finite input
# takes the flattened-rows path; the weight gradient sums only the valid products (the
# same products in another order). The (p, q, k) triples are cached per geometry.
_DENSE_RATIO = 1.5
_DENSE_MAX = 1 << 18


@_functools.lru_cache(maxsize=32)
def _dense_taps(size, kernel, padding, dilation):
    """(p, q, k, offset starts, output sizes) of every input pixel p that output pixel q
    reads through kernel offset k (flat indices), in order of k."""
    out = tuple(s + 2 * p - d * (k - 1) for s, p, d, k in zip(size, padding, dilation, kernel))
    ps, qs, ks = [], [], []
    outs = list(_it.product(*[range(o) for o in out]))
    for ki, kk in enumerate(_it.product(*[range(k) for k in kernel])):
        for qi, oo in enumerate(outs):
            fi = 0
            for o, k, d, p, s in zip(oo, kk, dilation, padding, size):
                src = o + k * d - p
                if not 0 <= src < s:
                    break
                fi = fi * s + src
            else:
                ps.append(fi)
                qs.append(qi)
                ks.append(ki)
    k_arr = np.array(ks, dtype=np.intp)
    starts = np.flatnonzero(np.concatenate(([True], k_arr[1:] != k_arr[:-1])))
    return (np.array(ps, dtype=np.intp), np.array(qs, dtype=np.intp), k_arr, starts, out)


def _dense_ok(size, kernel, padding, dilation, cin, cout):
    """Note [Small-image convolution as one dense matrix]: is M small and cheap enough?"""
    out = tuple(s + 2 * p - d * (k - 1) for s, p, d, k in zip(size, padding, dilation, kernel))
    if min(out) < 1:
        return False
    sp = tuple(s + 2 * p for s, p in zip(size, padding))
    st = 1
    span = 1
    for i in range(len(sp) - 1, -1, -1):
        span += (out[i] - 1) * st
        st *= sp[i]
    P, Q = _prod(size), _prod(out)
    return cin * P * cout * Q <= _DENSE_MAX and P * Q <= _DENSE_RATIO * _prod(kernel) * span


def _dense_matrix(w, size, padding, dilation, dt):
    """M (Cin*P, Cout*Q) of a stride-1, one-group convolution with weight w (Cout, Cin, *K)
    on inputs of spatial size ``size``, and its output sizes."""
    cout, cin = w.shape[:2]
    p_i, q_i, k_i, _, out = _dense_taps(tuple(size), tuple(w.shape[2:]), tuple(padding),
                                        tuple(dilation))
    m = np.zeros((cin, _prod(size), cout, _prod(out)), dt)
    m[:, p_i, :, q_i] = w.reshape(cout, cin, -1)[:, :, k_i].transpose(2, 1, 0)
    return m.reshape(cin * _prod(size), cout * _prod(out)), out


def _dense_weight_grad(x, grad, kernel, padding, dilation):
    n, cin = x.shape[:2]
    cout = grad.shape[1]
    p_i, q_i, _, starts, out = _dense_taps(tuple(x.shape[2:]), tuple(kernel), tuple(padding),
                                           tuple(dilation))
    dm = (x.reshape(n, -1).T @ grad.reshape(n, -1)).reshape(cin, -1, cout, _prod(out))
    per_k = np.add.reduceat(dm[:, p_i, :, q_i], starts, axis=0)      # (K, Cin, Cout)
    return per_k.transpose(2, 1, 0).reshape((cout, cin) + tuple(kernel))


def conv_forward(x, w, stride, padding, dilation, groups):
    """(N, Cin, *S) x (Cout, Cin/g, *K) -> (N, Cout, *O)."""
    kernel = w.shape[2:]
    if (all(s == 1 for s in stride) and x.size and w.size and all(
            x.shape[2 + i] + 2 * padding[i] > dilation[i] * (kernel[i] - 1)
            for i in range(len(kernel)))):
        if (groups == 1 and _dense_ok(x.shape[2:], kernel, padding, dilation, x.shape[1],
                                      w.shape[0]) and np.isfinite(x).all()):
            m, out = _dense_matrix(w, x.shape[2:], padding, dilation, np.result_type(x, w))
            return (x.reshape(x.shape[0], -1) @ m).reshape((x.shape[0], w.shape[0]) + out)
        return _conv_s1(x, w, padding, dilation, groups)
    n, cin = x.shape[:2]
    cout, cg = w.shape[:2]
    kernel = w.shape[2:]
    nsp = len(kernel)
    out = tuple(conv_out_size(x.shape[2 + i], kernel[i], stride[i], padding[i], dilation[i])
                for i in range(nsp))
    xp = _pad_spatial(x, padding, padding)
    win = _windows(xp, out, kernel, stride, dilation)           # (N, C, *O, *K)
    g, og = groups, cout // groups
    win = win.reshape((n, g, cg) + out + kernel)                # a view (C splits)
    # (G, N, *O, Cg, *K) -> rows of the im2col matrix
    perm = (1, 0) + tuple(range(3, 3 + nsp)) + (2,) + tuple(range(3 + nsp, 3 + 2 * nsp))
    cols = np.ascontiguousarray(win.transpose(perm)).reshape(g, -1, cg * _prod(kernel))
    wm = w.reshape(g, og, cg * _prod(kernel)).transpose(0, 2, 1)
    y = np.matmul(cols, wm)                                     # (G, N*O, Og)
    y = y.reshape((g, n) + out + (og,))
    perm = (1, 0, 2 + nsp) + tuple(range(2, 2 + nsp))
    return np.ascontiguousarray(y.transpose(perm)).reshape((n, cout) + out)


def conv_transpose_forward(x, w, stride, padding, dilation, output_padding, groups):
    """(N, Cin, *S) x (Cin, Cout/g, *K) -> (N, Cout, *O), the adjoint of conv_forward."""
    kernel = w.shape[2:]
    full = tuple(dilation[i] * (kernel[i] - 1) for i in range(len(kernel)))
    if (groups == 1 and all(s == 1 for s in stride) and not any(output_padding) and x.size
            and w.size):
        # the adjoint of the forward convolution from the output's size to x's: g @ M^T
        # (Note [Small-image convolution as one dense matrix])
        size = tuple(s + f - 2 * p for s, f, p in zip(x.shape[2:], full, padding))
        if (min(size) >= 1 and _dense_ok(size, kernel, padding, dilation, w.shape[1],
                                          w.shape[0]) and np.isfinite(x).all()):
            m, _ = _dense_matrix(w, size, padding, dilation, np.result_type(x, w))
            return (x.reshape(x.shape[0], -1) @ m.T).reshape((x.shape[0], w.shape[1]) + size)
    if (all(s == 1 for s in stride) and not any(output_padding) and x.size and w.size
            and w.shape[1] >= 16 and all(p <= f for p, f in zip(padding, full))):
        # stride 1: a convolution with the flipped, transposed kernel (Note [Stride-1
        # convolution over flattened rows]); with fewer than 16 output channels a group,
        # the GEMM below and its column adds cost less
        g = groups
        cin, og = w.shape[:2]
        wt = w.reshape((g, cin // g, og) + kernel).swapaxes(1, 2)
        wt = np.flip(wt, tuple(range(3, 3 + len(kernel)))).reshape((g * og, cin // g) + kernel)
        return _conv_s1(x, np.ascontiguousarray(wt),
                        tuple(f - p for f, p in zip(full, padding)), dilation, g)
    if all(s == 1 for s in stride) and not any(output_padding) and x.size and w.size:
        return _conv_transpose_s1(x, w, padding, dilation, groups)
    n, cin = x.shape[:2]
    og = w.shape[1]
    kernel = w.shape[2:]
    nsp = len(kernel)
    size = x.shape[2:]
    g = groups
    cg = cin // g
    cout = og * g
    # one GEMM per group and sample: (G, K*Og, Cg) @ (N, G, Cg, S) -> (N, G, K, Og, *S),
    # so that each kernel offset's columns are contiguous planes for the adds below
    kt = _prod(kernel)
    wk = np.ascontiguousarray(w.reshape(g, cg, og, kt).transpose(0, 3, 2, 1))
    cols = np.matmul(wk.reshape(g, kt * og, cg), x.reshape(n, g, cg, _prod(size)))
    cols = cols.reshape((n, g, kt, og) + size)
    full = tuple((size[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1 +
                 output_padding[i] for i in range(nsp))
    out = np.zeros((n, g, og) + full, dtype=np.result_type(x, w))
    for i, ks in enumerate(_it.product(*[range(k) for k in kernel])):
        dst = (slice(None),) * 3 + tuple(
            slice(k * d, k * d + s * (sz - 1) + 1, s)
            for k, d, s, sz in zip(ks, dilation, stride, size))
        out[dst] += cols[:, :, i]
    crop = (slice(None),) * 3 + tuple(
        slice(p, f - p if f - p > p else p) for p, f in zip(padding, full))
    out = out[crop].reshape((n, cout) + tuple(f - 2 * p for f, p in zip(full, padding)))
    return np.ascontiguousarray(out)


def _conv_transpose_s1(x, w, padding, dilation, groups):
    """conv_transpose_forward with stride 1 and few output channels: each image's input
    placed on the flattened rows of the uncropped output (span L, zero between rows), one
    GEMM per image and group, (K*Og, Cg) @ (Cg, L), then per kernel offset one add of its
    (N, Og, L) columns at offset off(k) of the flat output: col2im over flattened rows
    (Note [Stride-1 convolution over flattened rows]), in runs of L elements where the
    adds of image blocks run one image row at a time (~3 x slower)."""
    n, cin = x.shape[:2]
    og = w.shape[1]
    kernel = tuple(w.shape[2:])
    size = tuple(x.shape[2:])
    g, cg = groups, cin // groups
    dt = np.result_type(x, w)
    full = tuple(sz + d * (k - 1) for sz, d, k in zip(size, dilation, kernel))
    _, st, _, offs = _flat_geometry(full, kernel, dilation)
    span = sum((sz - 1) * t for sz, t in zip(size, st)) + 1
    xw = _scratch_array("xt", ((n, cin, span), dt, full, size), (n, cin, span), dt, True)
    it = xw.itemsize
    np.ndarray((n, cin) + size, dt, xw, 0, (cin * span * it, span * it) +
               tuple(t * it for t in st))[...] = x
    kt = len(offs)
    wk = np.ascontiguousarray(w.reshape(g, cg, og, kt).transpose(0, 3, 2, 1))
    c = np.matmul(wk.reshape(g, kt * og, cg), xw.reshape(n, g, cg, span))
    c = c.reshape(n, g, kt, og, span)
    out = np.zeros((n, g, og, _prod(full)), dt)
    for i, o in enumerate(offs):
        out[..., o:o + span] += c[:, :, i]
    out = out.reshape((n, g * og) + full)
    crop = (slice(None),) * 2 + tuple(
        slice(p, f - p if f - p > p else p) for p, f in zip(padding, full))
    return np.ascontiguousarray(out[crop])


def _prod(xs):
    r = 1
    for v in xs:
        r *= v
    return r


def convolution_kernel(x, w, b, stride, padding, dilation, transposed, output_padding,
                       groups):
    if transposed:
        y = conv_transpose_forward(x, w, stride, padding, dilation, output_padding, groups)
    else:
        y = conv_forward(x, w, stride, padding, dilation, groups)
    if b is not None:
        y += b.reshape((1, -1) + (1,) * (y.ndim - 2)).astype(y.dtype, copy=False)
    return y.astype(x.dtype, copy=False)


def conv_weight_grad(F, x, grad, kernel, stride, padding, dilation, groups):
    """d(conv)/d(weight): a convolution of the input (channels as batch) with grad as the
    kernel (batch as channels), stride and dilation swapped, cut to the kernel size."""
    n, cin = x.shape[:2]
    nsp = len(kernel)
    g = groups
    cg = cin // g
    og = grad.shape[1] // g
    size, out = tuple(x.shape[2:]), tuple(grad.shape[2:])
    sp = tuple(range(3, 3 + nsp))
    xs = F.reshape(F.permute(F.reshape(x, (n, g, cg) + size), (2, 1, 0) + sp),
                   (cg, g * n) + size)
    gs = F.reshape(F.permute(F.reshape(grad, (n, g, og) + out), (1, 2, 0) + sp),
                   (g * og, n) + out)
    y = F.convolution(xs, gs, None, dilation, padding, stride, False, (0,) * nsp, g)
    for i, k in enumerate(kernel):
        if y.shape[2 + i] != k:
            y = F.narrow(y, 2 + i, 0, k)
    y = F.permute(F.reshape(y, (cg, g, og) + tuple(kernel)), (1, 2, 0) + sp)
    return F.reshape(y, (g * og, cg) + tuple(kernel))


def convolution_input_grad(F, grad, weight, stride, padding, dilation, transposed,
                           output_padding, groups, input_sizes):
    if 0 in tuple(input_sizes):  # (the Empty backend's: Note in _empty_convolution)
        return F.zeros(tuple(input_sizes), grad)
    kernel = weight.shape[2:]
    if transposed:
        return F.convolution(grad, weight, None, stride, padding, dilation, False,
                             (0,) * len(kernel), groups)
    op = tuple(input_sizes[2 + i] - ((grad.shape[2 + i] - 1) * stride[i] - 2 * padding[i] +
                                     dilation[i] * (kernel[i] - 1) + 1)
               for i in range(len(kernel)))
    return F.convolution(grad, weight, None, stride, padding, dilation, True, op, groups)


def _convolution_node_input_grad(F, grad, input, weight, stride, padding, dilation,
                                 transposed, output_padding, groups, input_sizes):
    """ConvolutionBackward0's input gradient; an empty input's is laid out as the input
    (the Empty backend's zeros_like(input): a NumPy-made one's zero strides kept)."""
    g = convolution_input_grad(F, grad, weight, stride, padding, dilation, transposed,
                               output_padding, groups, input_sizes)
    if F.is_raw and not np.size(g):
        g = layout.with_strides(np.asarray(g), layout._elem_strides(np.asarray(input)))
    return g


def _conv_weight_grad_s1(x, grad, kernel, padding, dilation, groups):
    """The weight gradient of a stride-1 convolution on arrays (Note [Stride-1
    convolution over flattened rows]): per chunk of images, the wide gradient times the
    input's columns, transposed."""
    n, cin = x.shape[:2]
    cout = grad.shape[1]
    if groups == 1 and _dense_ok(x.shape[2:], kernel, padding, dilation, cin, cout):
        return _dense_weight_grad(x, grad, kernel, padding, dilation)
    if _shift_ok(cin // groups, kernel):
        return _conv_weight_grad_shifted(x, grad, kernel, padding, dilation, groups)
    g = groups
    cg, og = cin // g, cout // g
    dt = np.result_type(x, grad)
    xc, out, st, span, plane = _channel_major(x, padding, kernel, dilation, dt)
    kt = _prod(kernel)
    # the wide gradient (Cout, N*L), zero in the columns that are no output
    gw = _scratch_array("wide_grad", (grad.shape, x.shape, padding, dt), (cout, n * span),
                        dt, True)
    _wide_view(gw, n, span, out, st)[...] = grad.swapaxes(0, 1)
    gw = gw.reshape(g, og, n * span)
    nb = _images_per_chunk(cin, kt, og, n, span, dt)
    buf = _scratch_array("cols", ((cin, kt, nb, span), dt), (cin, kt, nb, span), dt, False)
    ks = _kernel_strides(dilation, st, dt)
    # the transpose, (Cg*K, m*L) @ (m*L, Og) per chunk: ~15% faster in OpenBLAS than
    # (Og, m*L) @ (m*L, Cg*K) with Og = 64, Cg*K = 576
    dwt = np.zeros((g, cg * kt, og), dt)
    for n0 in range(0, n, nb):
        m = min(nb, n - n0)
        _fill(buf, xc, n0, m, plane, span, kernel, ks)
        c = buf.reshape(g, cg * kt, nb * span)[:, :, :m * span]
        dwt += np.matmul(c, gw[:, :, n0 * span:(n0 + m) * span].swapaxes(1, 2))
    return dwt.swapaxes(1, 2).reshape((cout, cg) + tuple(kernel))


def convolution_weight_grad(F, grad, input, stride, padding, dilation, transposed, groups,
                            weight_sizes):
    if 0 in tuple(input.shape):  # (the Empty backend's: Note in _empty_convolution)
        return F.zeros(tuple(weight_sizes), grad)
    kernel = tuple(weight_sizes[2:])
    if (F.is_raw and not transposed and all(s == 1 for s in stride) and grad.size
            and input.size and input.dtype.kind == "f"):
        return _conv_weight_grad_s1(input, grad, kernel, padding, dilation, groups)
    if transposed:   # the adjoint: input and grad trade places
        return conv_weight_grad(F, grad, input, kernel, stride, padding, dilation, groups)
    return conv_weight_grad(F, input, grad, kernel, stride, padding, dilation, groups)


def convolution_bias_grad(F, grad, bias_sizes=None):
    if bias_sizes is not None and grad.shape[1] != bias_sizes[0]:  # (an input without
        return F.zeros(tuple(bias_sizes), grad)   # channels: Note in _empty_convolution)
    return F.sum(grad, (0,) + tuple(range(2, len(grad.shape))))


def _convolution_grads(F, grad, input, weight, stride, padding, dilation, transposed,
                       output_padding, groups, mask, bias_sizes=None):
    """The gradients ``mask`` asks for by the per-input formulas (None for the others)."""
    return (convolution_input_grad(F, grad, weight, stride, padding, dilation, transposed,
                                   output_padding, groups, tuple(input.shape))
            if mask[0] else None,
            convolution_weight_grad(F, grad, input, stride, padding, dilation, transposed,
                                    groups, tuple(weight.shape)) if mask[1] else None,
            convolution_bias_grad(F, grad, bias_sizes) if mask[2] else None)


def _convolution_backward_kernel(grad_output, input, weight, stride, padding, dilation,
                                 transposed, output_padding, groups, mask, bias_sizes):
    outs = _convolution_grads(_raw_formulas(), grad_output, input, weight, stride, padding,
                              dilation, transposed, output_padding, groups, mask, bias_sizes)
    return tuple(np.empty(0, grad_output.dtype) if o is None else o for o in outs)


def _convolution_double_backward(F, grads, grad_output, input, weight, stride, padding,
                                 dilation, transposed, output_padding, groups):
    """_convolution_double_backward: convolution_backward is linear in each of its
    arguments, so the gradient for grad_output is the convolution of the incoming
    gradients' tangent-like terms, and those for input and weight the other argument's
    formula with the incoming weight / input gradient in its place."""
    params = (stride, padding, dilation, transposed, output_padding, groups)
    if getattr(grad_output, "_data", grad_output).dtype.kind == "c":
        # (convolution_backward is holomorphic in each argument and the formulas below are
        # written for real values: conj(f(conj(gg))), Note [Complex gradients])
        from .complex_ops import cx
        conj = cx(F).conj
        outs = _conv_double_backward(F, tuple(None if g is None else conj(g) for g in grads),
                                     grad_output, input, weight, params)
        return tuple(None if o is None else conj(o) for o in outs)
    return _conv_double_backward(F, grads, grad_output, input, weight, params)


def _conv_double_backward(F, grads, grad_output, input, weight, params):
    stride, padding, dilation, transposed, output_padding, groups = params
    ggI, ggW, ggb = grads
    ggO = None
    if ggI is not None:
        ggO = F.convolution(ggI, weight, None, *params)
    if ggW is not None:
        t = F.convolution(input, ggW, None, *params)
        ggO = t if ggO is None else ggO + t
    if ggb is not None:
        nd = len(grad_output.shape)
        t = F.expand(F.reshape(ggb, (1, -1) + (1,) * (nd - 2)), tuple(grad_output.shape))
        ggO = t if ggO is None else ggO + t
    gI = None if ggW is None else convolution_input_grad(
        F, grad_output, ggW, stride, padding, dilation, transposed, output_padding, groups,
        tuple(input.shape))
    gW = None if ggI is None else convolution_weight_grad(
        F, grad_output, ggI, stride, padding, dilation, transposed, groups,
        tuple(weight.shape))
    return ggO, gI, gW


def _convolution_backward_jvp(F, grad_output, input, weight, stride, padding, dilation,
                              transposed, output_padding, groups, mask, bias_sizes):
    return _composite_tangents(lambda: _convolution_grads(
        F, grad_output, input, weight, stride, padding, dilation, transposed,
        output_padding, groups, mask, bias_sizes), (grad_output, input, weight))


def _convolution_jvp(F, input, input_t, weight, weight_t, bias, bias_t, stride, padding,
                     dilation, transposed, output_padding, groups):
    """PyTorch's convolution_jvp: ``convolution(input_t, weight_p) + convolution(input_p,
    weight_t, bias_t)``, a missing tangent the zero tensor of its primal (bias's too, where
    there is a bias), which its convolution materializes: each term records while its
    primal requires grad (the tangent then does: AddBackward0 of two ConvolutionBackward0,
    even where only one input has a tangent), an inf in a primal meets the other's zeros
    (NaN), and the values are the forward kernel's, not the transposed backward's."""
    params = (stride, padding, dilation, transposed, output_padding, groups)
    if input_t is None:
        input_t = F.zeros_like(input)
    if weight_t is None:
        weight_t = F.zeros_like(weight)
    if bias_t is None and bias is not None:
        bias_t = F.zeros_like(bias)
    return F.convolution(input_t, weight, None, *params) + \
        F.convolution(input, weight_t, bias_t, *params)


# (Note [Norm and convolution backward ops])
CONVOLUTION_BACKWARD = defop(
    "convolution_backward", "ConvolutionBackwardBackward0", _convolution_backward_kernel,
    inputs=("grad_output", "input", "weight"),
    params=("stride", "padding", "dilation", "transposed", "output_padding", "groups",
            "mask", "bias_sizes"),
    outputs=("result0", "result1", "result2"),
    backward_all=_convolution_double_backward, jvp=_convolution_backward_jvp)


def _convolution_graph_backward(F, grad, mask, input, weight, stride, padding, dilation,
                                transposed, output_padding, groups, **sizes):
    """ConvolutionBackward0 under create_graph: one convolution_backward op (bias_sizes:
    an input without channels has an output without channels, and bias's zeros)."""
    params = (stride, padding, dilation, transposed, output_padding, groups, mask,
              sizes.get("bias_sizes"))
    return _backward_op(CONVOLUTION_BACKWARD, (grad, input, weight), params, mask)


CONVOLUTION = defop(
    "convolution", "ConvolutionBackward0", convolution_kernel,
    inputs=("input", "weight", "bias"),
    params=("stride", "padding", "dilation", "transposed", "output_padding", "groups"),
    grads={"input": _convolution_node_input_grad, "weight": convolution_weight_grad,
           "bias": convolution_bias_grad}, jvp=_convolution_jvp, layout=layout.conv_format,
    # (PyTorch's one formula reads both: saved whenever the node is made)
    saves={"input": ("input", "weight", "bias"), "weight": ("input", "weight", "bias")},
    graph_backward=_convolution_graph_backward)

def conv_dtype_error(input_dtype, weight_dtype):
    """PyTorch's refusal of an input and a weight of different dtypes: a bfloat16 input
    takes the mkldnn path, whose check words it otherwise."""
    from .. import _dtypes
    i, w = (_dtypes.from_numpy(np.dtype(d)) for d in (input_dtype, weight_dtype))
    if i is _dtypes.bfloat16 and w.is_floating_point:
        return RuntimeError(f"Input type (CPUBFloat16Type) and weight type "
                            f"({_dtypes.legacy_type_name(w)}) should be the same or input "
                            f"should be a MKLDNN tensor and weight is a dense tensor")
    return RuntimeError(f"expected scalar type {_dtypes.scalar_name(i)} but found "
                        f"{_dtypes.scalar_name(w)}")


def _convolution_tangent_check(inputs, tangents):
    """PyTorch's _convolution_jvp: convolution(input_p, weight_t) + convolution(input_t,
    weight_p, bias_t), the right-hand call first (as compiled), a missing tangent a zero
    tensor of its primal's dtype: a tangent of another dtype than the other primal refuses
    as the forward's check; bias_t's dtype is checked only by mkldnn's (a bfloat16 input),
    the tangent has the primals' dtype."""
    from .. import _dtypes
    (x, w, _), (xt, wt, bt) = inputs, tangents
    for a, b in ((x._data, (w if wt is None else wt)._data),
                 ((x if xt is None else xt)._data, w._data)):
        if a.dtype != b.dtype:
            raise conv_dtype_error(a.dtype, b.dtype)
    if bt is not None and x._data.dtype != bt._data.dtype and x.dtype is _dtypes.bfloat16:
        # (mkldnn's convolution, a bfloat16 input's, checks the bias too)
        raise RuntimeError(f"Input type (CPUBFloat16Type) and bias type "
                           f"({_dtypes.legacy_type_name(bt.dtype)}) should be the same or "
                           f"input should be a MKLDNN tensor and bias is a dense tensor")
    return x._data.dtype


CONVOLUTION.tangent_check = _convolution_tangent_check


# ---- pooling ---------------------------------------------------------------------------
def pool_out_size(size, k, s, p, d, ceil_mode):
    """PyTorch's pooling_output_shape (a last window must start inside the input or the
    left padding)."""
    num = size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)
    out = num // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _pool_windows(x, kernel, stride, padding, dilation, ceil_mode, fill):
    """(B, *S) planes -> windows (B, *O, *K) over the padded input (fill outside)."""
    nsp = len(kernel)
    size = x.shape[1:]
    out = tuple(pool_out_size(size[i], kernel[i], stride[i], padding[i], dilation[i],
                              ceil_mode) for i in range(nsp))
    after = tuple(max(padding[i], (out[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1)
                      + 1 - size[i] - padding[i]) for i in range(nsp))
    xp = _pad_spatial(x, padding, after, fill)
    sp = xp.strides[1:]
    shape = (xp.shape[0],) + out + tuple(kernel)
    strides = (xp.strides[0],) + tuple(st * s for st, s in zip(sp, stride)) + \
        tuple(st * d for st, d in zip(sp, dilation))
    return np.lib.stride_tricks.as_strided(xp, shape, strides, writeable=False), out


def _max_pool_tiled(planes, kernel):
    """max_pool2d_kernel for non-overlapping windows inside the plane (kernel == stride,
    no padding or dilation: LeNet's and the digits model's 2 x 2 pools), over the kernel
    offsets, each a strided view of the planes, instead of argmax over a windowed view
    (~5 x slower): the maximum by np.maximum, then the first offset that equals it (the
    count of leading offsets that do not, in one-byte arithmetic), which is PyTorch's
    index (its CPU kernel replaces on ``val > max``: the first maximum). The values are
    then read at the indices (so -0.0 and 0.0 come out as PyTorch's). None where a
    window holds a NaN (PyTorch takes the last NaN: the general path's rule)."""
    kh, kw = kernel
    b, h, w = planes.shape
    oh, ow = h // kh, w // kw
    views = [planes[:, i:i + oh * kh:kh, j:j + ow * kw:kw] for i in range(kh)
             for j in range(kw)]
    best = views[0].copy()
    for v in views[1:]:
        np.maximum(best, v, out=best)  # NaN propagates
    if planes.dtype.kind in "fV" and np.isnan(best).any():
        return None
    kt = len(views)
    run = np.not_equal(views[0], best)
    arg = run.astype(np.uint8 if kt < 256 else np.int32)
    for v in views[1:-1]:
        run &= np.not_equal(v, best)
        arg += run
    tab = np.array([i * w + j for i in range(kh) for j in range(kw)], np.int64)
    idx = tab.take(arg)
    idx += (np.arange(oh) * (kh * w))[:, None]
    idx += np.arange(ow) * kw
    # (a flat take: ~2.5 x faster than take_along_axis over the planes)
    values = planes.reshape(-1).take(idx + (np.arange(b) * (h * w))[:, None, None])
    return values, idx


def _window_argmax(win, axis=-1):
    """Each window's first maximum, or its last NaN: PyTorch's max-pool kernels compare
    ``val > max || isnan(val)``, so a later NaN replaces an earlier one."""
    arg = np.argmax(win, axis=axis)
    if win.dtype.kind in "fV":
        nan = np.isnan(win)
        has = nan.any(axis)
        if has.any():
            last = win.shape[axis] - 1 - np.argmax(np.flip(nan, axis), axis=axis)
            arg = np.where(has, last, arg)
    return arg


def max_pool2d_kernel(x, kernel_size, stride, padding, dilation, ceil_mode):
    """Values and flat indices (into each H*W plane) of each window's first maximum; NaN
    wins, as in PyTorch's CPU kernel."""
    lead = x.shape[:-2]
    h, w = x.shape[-2:]
    if (tuple(kernel_size) == tuple(stride) and not any(padding) and tuple(dilation) == (1, 1)
            and x.size and (not ceil_mode or (h % stride[0] == 0 and w % stride[1] == 0))):
        tiled = _max_pool_tiled(x.reshape((-1, h, w)), kernel_size)
        if tiled is not None:
            shape = lead + tiled[0].shape[1:]
            return tiled[0].reshape(shape), tiled[1].reshape(shape)
    planes = x.reshape((-1, h, w))
    fill = -np.inf if x.dtype.kind in "fV" else np.iinfo(x.dtype).min
    win, out = _pool_windows(planes, kernel_size, stride, padding, dilation, ceil_mode, fill)
    flat = win.reshape(win.shape[:3] + (kernel_size[0] * kernel_size[1],))
    arg = _window_argmax(flat)
    values = np.take_along_axis(flat, arg[..., None], -1)[..., 0]
    kh, kw = np.divmod(arg, kernel_size[1])
    oh = np.arange(out[0]).reshape(-1, 1)
    ow = np.arange(out[1]).reshape(1, -1)
    ih = oh * stride[0] - padding[0] + kh * dilation[0]
    iw = ow * stride[1] - padding[1] + kw * dilation[1]
    indices = (ih * w + iw).astype(np.int64)
    shape = lead + out
    return np.ascontiguousarray(values).reshape(shape), indices.reshape(shape)


def max_pool2d_backward(F, grad, self_sizes, indices):
    """Scatter each output's gradient to the input element its index names."""
    h, w = self_sizes[-2:]
    if F.is_raw and grad.dtype.kind == "f" and grad.size:
        # on arrays: one bincount over the planes (np.add.at is ~4 x slower)
        planes = grad.size // (grad.shape[-2] * grad.shape[-1])
        flat = indices.reshape(planes, -1) + (np.arange(planes) * (h * w))[:, None]
        out = np.bincount(flat.ravel(), weights=grad.reshape(-1), minlength=planes * h * w)
        return out.astype(grad.dtype, copy=False).reshape(tuple(self_sizes))
    g = F.reshape(grad, (-1, grad.shape[-2] * grad.shape[-1]))
    idx = F.reshape(indices, (-1, indices.shape[-2] * indices.shape[-1]))
    zeros = F.zeros((g.shape[0], h * w), grad)
    return F.reshape(F.scatter_add(zeros, 1, idx, g), tuple(self_sizes))


# Note [Pooling backward ops]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~
# max_pool2d_with_indices_backward, avg_pool2d_backward, _adaptive_avg_pool2d_backward and
# adaptive_max_pool2d_backward are aten ops of their own: linear in grad_output (its
# gradient the pooling applied to the incoming gradient, or max_pool_double_backward's
# gather at the indices), with ``self: zeros_like(self)``, so under create_graph PyTorch
# records their BackwardBackward0 node while the pooled input requires grad (ours recorded
# none unless the gradient did), and their forward rule is the op on grad_output's tangent.
# The forward ops' nodes save self (an in-place change of it makes backward raise).
# (their forward rules: the op on grad_output's tangent; max pooling's are ``auto_linear``,
# a missing grad_output tangent a zero tensor, so a dual self alone gives zeros, while
# avg pooling's are explicit formulas of grad_output_t: no tangent)
def _max_pool2d_backward_jvp(F, grad_output_t, self, self_t, kernel_size, stride, padding,
                             dilation, ceil_mode, indices):
    if grad_output_t is None:
        return F.zeros_like(self)
    return F.max_pool2d_with_indices_backward(grad_output_t, _linear_self(F, self, self_t),
                                              kernel_size, stride, padding, dilation,
                                              ceil_mode, indices)


def _adaptive_max_pool2d_backward_jvp(F, grad_output_t, self, self_t, indices):
    if grad_output_t is None:
        return F.zeros_like(self)
    return F.adaptive_max_pool2d_backward(grad_output_t, _linear_self(F, self, self_t),
                                          indices)


def _linear_self(F, self, self_t):
    """auto_linear's self argument: self's tangent (its zero tensor where it has none), so
    the tangent records no history of the primal self."""
    return F.zeros_like(self) if self_t is None else self_t


def _avg_pool2d_backward_jvp(F, grad_output_t, self, kernel_size, stride, padding, ceil_mode,
                             count_include_pad, divisor_override):
    if grad_output_t is None:
        return None
    return F.avg_pool2d_backward(grad_output_t, self, kernel_size, stride, padding,
                                 ceil_mode, count_include_pad, divisor_override)


def _adaptive_avg_pool2d_backward_jvp(F, grad_output_t, self):
    return None if grad_output_t is None else \
        F._adaptive_avg_pool2d_backward(grad_output_t, self)


def _max_pool_double_backward(F, grad, indices):
    """FunctionsManual's max_pool_double_backward(grad, indices, 2): grad gathered at the
    indices of each plane."""
    h, w = grad.shape[-2:]
    size = indices.shape[-2] * indices.shape[-1]
    if F.is_raw:
        out = np.take_along_axis(grad.reshape(-1, h * w), indices.reshape(-1, size), 1)
        return out.reshape(indices.shape)
    g = F.reshape(F.contiguous(grad), (-1, h * w))
    return F.reshape(F.gather(g, 1, _index_tensor(indices.reshape(-1, size))),
                     tuple(indices.shape))


def _index_tensor(a):
    from .._tensor import _make
    return _make(np.ascontiguousarray(a, dtype=np.int64))


def _max_pool2d_backward_kernel(grad, self, kernel_size, stride, padding, dilation,
                                ceil_mode, indices):
    from .raw import RAW
    return max_pool2d_backward(RAW, grad, self.shape, indices)


MAX_POOL2D_BACKWARD = defop(
    "max_pool2d_with_indices_backward", "MaxPool2DWithIndicesBackwardBackward0",
    _max_pool2d_backward_kernel, inputs=("grad_output", "self"),
    params=("kernel_size", "stride", "padding", "dilation", "ceil_mode", "indices"),
    grads={"grad_output": lambda F, grad, indices: _max_pool_double_backward(F, grad, indices),
           "self": lambda F, grad, self: F.zeros_like(self)},
    jvp=_max_pool2d_backward_jvp)
MAX_POOL2D = defop(
    "max_pool2d_with_indices", "MaxPool2DWithIndicesBackward0", max_pool2d_kernel,
    params=("kernel_size", "stride", "padding", "dilation", "ceil_mode"),
    outputs=("result", "indices"), diff_outputs=(0,),
    grads={"self": lambda F, grads, self, kernel_size, stride, padding, dilation, ceil_mode,
           indices: F.max_pool2d_with_indices_backward(
               grads[0], self, kernel_size, stride, padding, dilation, ceil_mode,
               _values(indices))}, jvp="transpose",
    layout=layout.suggested_format)


def avg_pool_divisors(size, out, k, s, p, ceil_mode, count_include_pad):
    """Per output position along one dim: the window length PyTorch divides by."""
    start = np.arange(out) * s - p
    end = np.minimum(start + k, size + p)
    pool = end - start
    start_c, end_c = np.maximum(start, 0), np.minimum(end, size)
    return pool if count_include_pad else end_c - start_c


def avg_pool2d_kernel(x, kernel_size, stride, padding, ceil_mode, count_include_pad,
                      divisor_override):
    lead = x.shape[:-2]
    h, w = x.shape[-2:]
    planes = x.reshape((-1, h, w))
    win, out = _pool_windows(planes, kernel_size, stride, padding, (1, 1), ceil_mode, 0)
    div = _avg_divisor(x.shape, out, kernel_size, stride, padding, ceil_mode,
                       count_include_pad, divisor_override)
    if x.dtype.kind in "iub":  # (summed in the type itself, wrapping; C++'s truncating
        total = win.sum(axis=(-2, -1), dtype=x.dtype)  # integer division)
        d = div.astype(x.dtype)
        with np.errstate(all="ignore"):
            q = total // d
            q = np.where((total % d != 0) & ((total < 0) != (d < 0)), q + 1, q)
        return q.astype(x.dtype, copy=False).reshape(lead + out)
    # cpu_avg_pool2d: the window summed in order (rows, then columns) from 0 in opmath_t
    # (the padding's zeros add nothing), one division (a half's sum is exact in float64)
    acc = _opmath(x.dtype) or x.dtype
    if acc != x.dtype:
        win = win.astype(acc)
    total = np.zeros((planes.shape[0],) + out, dtype=acc)
    for i in range(kernel_size[0]):
        for j in range(kernel_size[1]):
            total += win[..., i, j]
    return (total / div.astype(acc)).astype(x.dtype, copy=False).reshape(lead + out)


def _avg_divisor(self_sizes, out, kernel_size, stride, padding, ceil_mode,
                 count_include_pad, divisor_override):
    if divisor_override:
        return np.full(out, float(divisor_override))
    dh = avg_pool_divisors(self_sizes[-2], out[0], kernel_size[0], stride[0], padding[0],
                           ceil_mode, count_include_pad)
    dw = avg_pool_divisors(self_sizes[-1], out[1], kernel_size[1], stride[1], padding[1],
                           ceil_mode, count_include_pad)
    return np.outer(dh, dw).astype(np.float64)


def _avg_pool2d_scatter(grad, div, kernel_size, stride, padding, self_sizes):
    """cpu_avg_pool2d_backward: each output's grad_delta = grad_output / divisor (in the
    gradient's type) added into grad_input in output order. Per kernel offset the outputs
    reach distinct inputs (one strided add); an input's contributions come in output order
    when the offsets run backwards (a later output reaches it at a smaller offset)."""
    (kh, kw), (sh, sw), (oh, ow) = kernel_size, stride, grad.shape[-2:]
    h, w = self_sizes[-2:]
    delta = (grad / div.astype(grad.dtype)).reshape((-1, oh, ow))
    ph, pw = max(h + padding[0], (oh - 1) * sh + kh), max(w + padding[1], (ow - 1) * sw + kw)
    gi = np.zeros((delta.shape[0], ph, pw), dtype=grad.dtype)
    for i in range(kh - 1, -1, -1):
        for j in range(kw - 1, -1, -1):
            gi[:, i:i + (oh - 1) * sh + 1:sh, j:j + (ow - 1) * sw + 1:sw] += delta
    gi = gi[:, padding[0]:padding[0] + h, padding[1]:padding[1] + w]
    return np.ascontiguousarray(gi).reshape(tuple(self_sizes))


def avg_pool2d_backward(F, grad, kernel_size, stride, padding, ceil_mode,
                        count_include_pad, divisor_override, self_sizes):
    """Each output's gradient over its divisor, spread over its window: a depthwise
    transposed convolution with a kernel of ones, cut or zero-extended to the input."""
    if 0 in tuple(grad.shape):  # (an empty gradient, an empty input: no planes to convolve)
        return F.zeros(tuple(self_sizes), grad)
    out = tuple(grad.shape[-2:])
    div = _avg_divisor(self_sizes, out, kernel_size, stride, padding, ceil_mode,
                       count_include_pad, divisor_override)
    if F.is_raw and grad.dtype.kind not in "iub":
        return _avg_pool2d_scatter(grad, div, kernel_size, stride, padding, self_sizes)
    g = grad / F.constant(div, grad)
    planes = F.reshape(g, (1, -1) + out)
    c = planes.shape[1]
    ones = F.constant(np.ones((c, 1) + tuple(kernel_size)), grad)
    full = F.convolution(planes, ones, None, stride, (0, 0), (1, 1), True, (0, 0), c)
    h, w = self_sizes[-2:]
    for dim, (p, size) in enumerate(zip(padding, (h, w))):
        have = full.shape[2 + dim]
        if have < p + size:   # trailing input rows no window reached: zero gradient
            shape = list(full.shape)
            shape[2 + dim] = p + size - have
            full = F.cat([full, F.zeros(tuple(shape), full)], 2 + dim)
        full = F.narrow(full, 2 + dim, p, size)
    return F.reshape(full, tuple(self_sizes))


def _avg_pool2d_backward_kernel(grad, self, *params):
    from .raw import RAW
    return avg_pool2d_backward(RAW, grad, *params, self.shape)


def _avg_pool2d_of(F, grad, *params):
    """avg_pool2d(grad, ...): avg_pool2d_backward's gradient in grad_output."""
    if F.is_raw:
        return avg_pool2d_kernel(grad, *params)
    from ._common import _finish
    return _finish(AVG_POOL2D, (grad,), params, avg_pool2d_kernel(grad._data, *params))


_AVG_POOL2D_PARAMS = ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
                      "divisor_override")
AVG_POOL2D_BACKWARD = defop(
    "avg_pool2d_backward", "AvgPool2DBackwardBackward0", _avg_pool2d_backward_kernel,
    inputs=("grad_output", "self"), params=_AVG_POOL2D_PARAMS,
    grads={"grad_output": lambda F, grad, kernel_size, stride, padding, ceil_mode,
           count_include_pad, divisor_override: _avg_pool2d_of(
               F, grad, kernel_size, stride, padding, ceil_mode, count_include_pad,
               divisor_override),
           "self": lambda F, grad, self: F.zeros_like(self)},
    jvp=_avg_pool2d_backward_jvp)
AVG_POOL2D = defop(
    "avg_pool2d", "AvgPool2DBackward0", avg_pool2d_kernel, params=_AVG_POOL2D_PARAMS,
    grads={"self": lambda F, grad, self, kernel_size, stride, padding, ceil_mode,
           count_include_pad, divisor_override: F.avg_pool2d_backward(
               grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
               divisor_override)}, jvp="transpose", layout=layout.suggested_format)


def adaptive_pool_matrix(size, out, dtype):
    """Row i averages input [floor(i*size/out), ceil((i+1)*size/out))."""
    m = np.zeros((out, size))
    for i in range(out):
        start = (i * size) // out
        end = -((-(i + 1) * size) // out)
        m[i, start:end] = 1.0 / (end - start)
    return m.astype(dtype)


def _opmath(dtype):
    """The accumulation type of aten's CPU pooling kernels for float16 / bfloat16
    (``opmath_t``: float; float64 here, rounded once to the input's type), else None."""
    return np.float64 if dtype.name in ("float16", "bfloat16") else None


# Note [Adaptive average pooling order]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# aten's cpu_adaptive_avg_pool (AdaptiveAvgPoolKernel.cpp; both layouts) sums each output's
# window [floor(o*in/out), ceil((o+1)*in/out)) in order (d, then h, then w) from 0 in
# opmath_t (float for float16/bfloat16; the 3-d kernel sums and divides a half in half),
# then divides once per dim (``sum / kh / kw``) and casts once; averaging matrices round
# differently and turn an inf into NaN (0 * inf).
# Its backward adds grad_delta = grad_output / kh / kw (scalar_t arithmetic: a half delta
# is rounded after each division) into grad_input in output order, in scalar_t. Both are
# the same gathered sum: the windows padded to their longest with +0.0 (adding +0.0 never
# changes a sum that starts at +0.0) and added slot by slot (np.sum pairs, and np.cumsum
# along a leading axis is ~10 x slower); the backward's "windows" are, per input position,
# the outputs that cover it, in order.
@_functools.lru_cache(maxsize=64)
def _adaptive_windows(size, out):
    """Per output o of one dim: its window's (out, K) positions (clipped), mask and
    length (cached: read only)."""
    o = np.arange(out)
    start, end = (o * size) // out, -((-(o + 1) * size) // out)
    k = np.arange(int((end - start).max()))
    pos = start[:, None] + k
    return np.minimum(pos, size - 1), pos < end[:, None], end - start


@_functools.lru_cache(maxsize=64)
def _covering_outputs(size, out):
    """Per input position i of one dim: the outputs whose window holds it, in order
    ((size, M) positions, clipped, and mask; cached: read only)."""
    o = np.arange(out)
    start, end = (o * size) // out, -((-(o + 1) * size) // out)
    i = np.arange(size)
    first = np.searchsorted(end, i, side="right")     # first o with end(o) > i
    last = np.searchsorted(start, i, side="right")    # one past the last o with start <= i
    k = np.arange(int((last - first).max()))
    pos = first[:, None] + k
    return np.minimum(pos, out - 1), pos < last[:, None]


def _window_sums(a, windows):
    """Sequential sums from +0.0 of ``a`` over per-dim windows of its trailing dims ((L, K)
    positions and masks), Note [Adaptive average pooling order]. Those dims are moved to
    the front, gathered by one np.take per dim (a masked slot reads a +0.0 appended to
    that dim), the slots made the leading axis and added in order, row by row."""
    nd = len(windows)
    lead = a.shape[:a.ndim - nd]
    a = np.moveaxis(a, list(range(len(lead), a.ndim)), list(range(nd)))
    if not all(ok.all() for _, ok in windows):
        a = np.pad(a, [(0, 1)] * nd + [(0, 0)] * len(lead))
    g = a
    for d, (pos, ok) in enumerate(windows):
        g = np.take(g, np.where(ok, pos, a.shape[d] - 1), axis=2 * d)
    g = np.moveaxis(g, [2 * d + 1 for d in range(nd)], list(range(nd)))
    slots = np.ascontiguousarray(g).reshape((-1,) + g.shape[nd:])   # (slot, L..., lead)
    total = slots[0] + a.dtype.type(0)   # (+0.0: a -0.0 first slot)
    for row in slots[1:]:
        total += row
    # (a copy: fresh C strides, also on the size-1 dims ascontiguousarray would keep)
    return np.moveaxis(total, list(range(nd)), list(range(-nd, 0))).copy()


def adaptive_avg_pool_nd_kernel(x, output_size):
    """cpu_adaptive_avg_pool: Note [Adaptive average pooling order]."""
    nd = len(output_size)
    acc = x.astype(np.float32) if _half(x) and nd < 3 else x
    if 0 in acc.shape or 0 in tuple(output_size):
        return np.zeros(x.shape[:-nd] + tuple(output_size), dtype=x.dtype)
    wins = [_adaptive_windows(s, o) for s, o in zip(x.shape[-nd:], output_size)]
    y = _window_sums(acc, [w[:2] for w in wins])
    for d, (_, _, k) in enumerate(wins):
        y /= k.astype(acc.dtype).reshape((-1,) + (1,) * (nd - 1 - d))
    return y.astype(x.dtype, copy=False)


def adaptive_avg_pool_nd_backward_kernel(grad, self_sizes, nd):
    """cpu_adaptive_avg_pool_backward: Note [Adaptive average pooling order]."""
    sizes = tuple(self_sizes[-nd:])
    out = grad.shape[-nd:]
    if 0 in grad.shape:
        return np.zeros(grad.shape[:-nd] + sizes, dtype=grad.dtype)
    delta = grad
    for d, (s, o) in enumerate(zip(sizes, out)):
        k = _adaptive_windows(s, o)[2].astype(grad.dtype)
        delta = delta / k.reshape((-1,) + (1,) * (nd - 1 - d))
    return _window_sums(delta, [_covering_outputs(s, o) for s, o in zip(sizes, out)])


def adaptive_avg_pool2d_kernel(x, output_size):
    return adaptive_avg_pool_nd_kernel(x, tuple(output_size))


def adaptive_grad_check(name, grad):
    """aten's _adaptive_pool_empty_output_check: its adaptive pools' backward refuses a
    gradient with an empty non-batch dim."""
    shape = tuple(grad.shape)
    for i in range(1, len(shape)):
        if shape[i] <= 0:
            raise RuntimeError(f"{name}_backward(): Expected grad_output to have non-zero size "
                               f"for non-batch dimensions, but grad_output has sizes "
                               f"[{', '.join(map(str, shape))}] with dimension {i} being empty")


def adaptive_avg_pool2d_backward(F, grad, self_sizes):
    adaptive_grad_check("adaptive_avg_pool2d", grad)
    if F.is_raw:
        return adaptive_avg_pool_nd_backward_kernel(grad, self_sizes, 2)
    mh = adaptive_pool_matrix(self_sizes[-2], grad.shape[-2], np.float64)
    mw = adaptive_pool_matrix(self_sizes[-1], grad.shape[-1], np.float64)
    return F.matmul(F.matmul(F.constant(mh.T, grad), grad), F.constant(mw, grad))


def _adaptive_avg_pool2d_backward_kernel(grad, self):
    from .raw import RAW
    return adaptive_avg_pool2d_backward(RAW, grad, self.shape)


def _adaptive_avg_pool2d_of(F, grad, grad_output_sizes):
    size = tuple(grad_output_sizes[-2:])
    if F.is_raw:
        return adaptive_avg_pool2d_kernel(grad, size)
    from ._common import _finish
    return _finish(ADAPTIVE_AVG_POOL2D, (grad,), (size,),
                   adaptive_avg_pool2d_kernel(grad._data, size))


ADAPTIVE_AVG_POOL2D_BACKWARD = defop(
    "_adaptive_avg_pool2d_backward", "AdaptiveAvgPool2DBackwardBackward0",
    _adaptive_avg_pool2d_backward_kernel, inputs=("grad_output", "self"),
    grads={"grad_output": lambda F, grad, grad_output_sizes:
           _adaptive_avg_pool2d_of(F, grad, grad_output_sizes),
           "self": lambda F, grad, self: F.zeros_like(self)},
    jvp=_adaptive_avg_pool2d_backward_jvp)
ADAPTIVE_AVG_POOL2D = defop(
    "adaptive_avg_pool2d", "AdaptiveAvgPool2DBackward0", adaptive_avg_pool2d_kernel,
    params=("output_size",),
    grads={"self": lambda F, grad, self: F._adaptive_avg_pool2d_backward(grad, self)},
    jvp="linear", layout=layout.suggested_format)  # (auto_linear: the pool of the tangent)


# ---- normalisation ---------------------------------------------------------------------
def _stat_shape(ndim, axis_dims):
    return tuple(1 if i in axis_dims else -1 for i in range(ndim))


def _channel_sums(a):
    """Sums of an (N, C, S) array over N and S (Note [Norms by GEMV])."""
    n, c = a.shape[:2]
    rows = a.reshape(n * c, -1)
    return (rows @ np.ones(rows.shape[1], a.dtype)).reshape(n, c).sum(0)


def _channel_dots(a, b):
    n, c = a.shape[:2]
    return np.einsum("ij,ij->i", a.reshape(n * c, -1), b.reshape(n * c, -1)).reshape(n, c).sum(0)


def _batch_norm_stats(x3, training, running_mean, running_var, eps, out=None):
    """(mean, biased variance or None, invstd, centred input) of an (N, C, S) array, from
    the batch or the running statistics; the centred input is written into ``out`` (or a
    fresh array) a slab of images at a time (Note [Batch norm in slabs])."""
    if training:
        mean = _channel_sums(x3)
        mean /= x3.size // x3.shape[1]
    else:
        mean = running_mean
    m = _per_channel(mean, x3, x3.dtype)
    xc = np.empty_like(x3) if out is None else out
    if not training:
        np.subtract(x3, m, out=xc)
        return running_mean, None, 1 / np.sqrt(running_var + eps), xc
    n, c = x3.shape[:2]
    var = np.zeros(c, np.result_type(mean, x3))
    for s in _slabs(x3):
        t = np.subtract(x3[s], m, out=xc[s])
        var += _channel_dots(t, t)
    var /= x3.size // x3.shape[1]
    return mean, var, 1 / np.sqrt(var + eps), xc


# Note [Batch norm in slabs]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~
# A ResNet block's activations (32 x 64 x 32 x 32 float32) are 8 MB: each full pass of
# batch norm's arithmetic reads and writes them from memory. The passes that follow one
# another on the same elements (centre, then the variance's dot; scale, then shift; the
# backward's centre and its two dots, then the input gradient's four in-place steps) run
# a slab of whole images of ~_SLAB_BYTES at a time, so that the later passes find the
# slab in the cache: 3 passes over memory instead of 8 in the forward, 5 instead of ~16 in
# the backward. Each element sees the same arithmetic as before; the per-image channel
# dots are summed slab by slab (with one image a slab, image by image, as NumPy's sum
# over the outer axis does), so only the rounding of those sums can differ.
_SLAB_BYTES = 256 << 10


def _slabs(x3):
    """Slices of x3's first axis, each about _SLAB_BYTES of whole images."""
    n = x3.shape[0]
    per = max(1, _SLAB_BYTES // max(1, x3[0].nbytes))
    return [slice(i, i + per) for i in range(0, n, per)]


def _per_channel(v, x3, dt=None):
    """A per-channel vector as an operand of the slabs' arithmetic: where an image is at
    most a slab and there are several, the whole (C, S) plane (NumPy's loops broadcast a
    (C, 1) column ~1.4-1.7 x slower than they run two contiguous operands, on a ResNet's
    64 x 1,024 images; the plane costs one such pass and stays in the cache); else the
    column. The same values either way."""
    col = (v if dt is None else v.astype(dt, copy=False))[:, None]
    if x3.shape[0] < 4 or x3[0].nbytes > _SLAB_BYTES:
        return col
    return np.ascontiguousarray(np.broadcast_to(col, x3.shape[1:]))


def _batch_norm_fast(x, weight, bias, running_mean, running_var, training, momentum, eps):
    x3 = x.reshape(x.shape[0], x.shape[1], -1)
    out = np.empty_like(x3)
    mean, var, invstd, _ = _batch_norm_stats(x3, training, running_mean, running_var, eps,
                                             out)
    if training:
        n = x.size // x.shape[1]
        if running_mean is not None:
            running_mean *= 1 - momentum
            running_mean += momentum * mean
        if running_var is not None:
            unbiased = var * n / (n - 1) if n > 1 else np.full_like(var, np.inf)
            running_var *= 1 - momentum
            running_var += momentum * unbiased
    scale = invstd.astype(x.dtype)
    scale = _per_channel(scale if weight is None else scale * weight, x3)
    b = None if bias is None else _per_channel(bias, x3)
    for s in _slabs(out):  # Note [Batch norm in slabs]
        o = out[s]
        o *= scale
        if b is not None:
            o += b
    return (out.reshape(x.shape).astype(x.dtype, copy=False),) + _saved_stats(
        mean, invstd, x.dtype, training)


# ---- forward-mode rules of the norms ---------------------------------------------------
# Note [Norm forward rules]
# ~~~~~~~~~~~~~~~~~~~~~~~~~
# native_batch_norm / native_layer_norm / native_group_norm's ``result0:`` rules are
# FunctionsManual's batch_norm_jvp / layer_norm_jvp / group_norm_jvp, written here step by
# step: the tangent from the saved statistics (result1, result2) in their dtype (a
# float16 input's mean and rstd are float16, so rstd^3 overflows to inf for a constant
# row: a NaN tangent where the transposed backward gave 0), the in-place steps written
# back into their left operand's dtype; an absent tangent is PyTorch's zero tensor, whose
# terms vanish (no inf * 0).
def _invstd_jvp(F, input_p, input_t, mean_p, invstd_p, dims, numel, keepdim, zero):
    """The tangent of 1 / input.std(dims) (biased), as _invstd_jvp: in place in input_t's
    dtype, or out of place (promoted) for a zero tensor ``input_t``."""
    t = input_t - F.mean(input_t, dims, True)
    if zero:
        t = -F.pow(invstd_p, 3) * t * (input_p - mean_p)
    else:
        t = _into(F, t * (input_p - mean_p), t)
        t = _into(F, t * -F.pow(invstd_p, 3), t)
    t = F.sum(t, dims, keepdim)
    return t / numel


def _norm_jvp(F, input_p, input_t, mean_p, invstd_p, dims, numel):
    """The tangent of (input - mean) * invstd, as _norm_jvp; ``input_t`` None: PyTorch's
    zero tensor, which the first mean() materializes (so inf * 0 is NaN there too) and
    whose steps are out of place."""
    zero = input_t is None
    if zero:
        input_t = F.zeros_like(input_p)
    invstd_t = _invstd_jvp(F, input_p, input_t, mean_p, invstd_p, dims, numel, True, zero)
    r = input_t - F.mean(input_t, dims, True)
    if zero:
        return r * invstd_p + (input_p - mean_p) * invstd_t
    r = _into(F, r * invstd_p, r)
    temp = input_p - mean_p
    temp = _into(F, temp * invstd_t, temp)
    return _into(F, r + temp, r)


def _affine_jvp(F, result_p, result_t, weight_p, weight_t, bias_t, affine_shape):
    """The tangent of x * weight + bias, as _affine_jvp: in place (in result_t's dtype)
    when weight has a tangent; else weight_t is a zero tensor and the step is out of place,
    ``result_t * weight + result_p * 0``, in the promoted dtype of the three (a float16
    input's tangent with a float32 weight is float32); a bias' zero tangent adds nothing."""
    if weight_p is not None:
        w = F.reshape(weight_p, affine_shape)
        rp = result_p()
        if weight_t is None:
            from .. import _dtypes
            r = result_t * w
            dt = _dtypes.promote_types(r.dtype, _dtypes.promote_types(rp.dtype, w.dtype))
            result_t = r if r.dtype == dt else F.cast(r, dt)
        else:
            result_t = _into(F, result_t * w, result_t)
            temp = _into(F, rp * F.reshape(weight_t, affine_shape), rp)
            result_t = _into(F, result_t + temp, result_t)
    if bias_t is not None:
        result_t = _into(F, result_t + F.reshape(bias_t, affine_shape), result_t)
    return result_t


def _layer_norm_jvp(F, input, input_t, weight, weight_t, bias_t, normalized_shape, result,
                    result1, result2):
    nd, k = len(input.shape), len(normalized_shape)
    dims = tuple(range(nd - k, nd))
    view = tuple(input.shape[:nd - k]) + (1,) * k
    affine = (1,) * (nd - k) + tuple(input.shape[nd - k:])
    mean_p, invstd_p = F.reshape(result1, view), F.reshape(result2, view)
    r = _norm_jvp(F, input, input_t, mean_p, invstd_p, dims,
                  _numel(tuple(normalized_shape)))
    r = _affine_jvp(F, lambda: (input - mean_p) * invstd_p, r, weight, weight_t, bias_t,
                    affine)
    return (_shape_like(F, r, result), None, None)


def _batch_norm_jvp(F, input, input_t, weight, weight_t, bias_t, running_mean, running_var,
                    training, eps, result, result1, result2):
    nd = len(input.shape)
    dims = (0,) + tuple(range(2, nd))
    view = (1, input.shape[1]) + (1,) * (nd - 2)
    if training:
        mean_p, invstd_p = F.reshape(result1, view), F.reshape(result2, view)
        r = _norm_jvp(F, input, input_t, mean_p, invstd_p, dims,
                      _numel(input.shape) // input.shape[1])
    else:
        from .._tensor import _make  # (the running statistics: constants of their dtype)
        rv = np.asarray(running_var)
        mean_p = F.reshape(_make(np.asarray(running_mean)), view)
        invstd_p = F.reshape(_make(np.asarray(1 / np.sqrt(rv + np.asarray(eps, rv.dtype)),
                                              rv.dtype)), view)
        r = _zeros_if_none(F, input_t, input) * invstd_p
    r = _affine_jvp(F, lambda: (input - mean_p) * invstd_p, r, weight, weight_t, bias_t,
                    view)
    return (_shape_like(F, r, result), None, None)


def _group_norm_jvp(F, input, input_t, weight, weight_t, bias_t, N, C, group, result,
                    result1, result2):
    shape = tuple(input.shape)
    view = (1, N * group, 1)
    flat = (1, N * group, -1 if N else 1)  # group_norm_jvp's views (N == 0: (1, 0, 1))
    mean_p, invstd_p = F.reshape(result1, view), F.reshape(result2, view)
    xr = F.reshape(input, flat)
    tr = None if input_t is None else F.reshape(input_t, flat)
    r = F.reshape(_norm_jvp(F, xr, tr, mean_p, invstd_p, (0, 2),
                            _numel(shape) // (N * group) if N else 0), shape)
    affine = (1, C) + (1,) * (len(shape) - 2)
    r = _affine_jvp(F, lambda: F.reshape((F.reshape(input, flat) -
                                          F.reshape(result1, view)) *
                                         F.reshape(result2, view), shape),
                    r, weight, weight_t, bias_t, affine)
    mean_t = invstd_t = None
    if input_t is not None and _numel(shape):
        # group_norm_mean_jvp / group_norm_invstd_jvp: the saved statistics' tangents,
        # which the create_graph backward's formula reads (forward-over-reverse)
        tr = F.reshape(input_t, (1, N * group, -1))
        mean_t = F.reshape(F.mean(tr, (2,), False), tuple(result1.shape))
        invstd_t = F.reshape(_invstd_jvp(
            F, F.reshape(input, (1, N * group, -1)), tr, F.reshape(result1, view),
            F.reshape(result2, view), (2,), tr.shape[2], False, False),
            tuple(result2.shape))
    return (_shape_like(F, r, result), mean_t, invstd_t)


def _zeros_if_none(F, t, like):
    """An absent tangent as PyTorch's zero tensor, which its first mean() materializes."""
    return F.zeros_like(like) if t is None else t


def _shape_like(F, t, result):
    from .dispatch import _shape_like as shape_like
    return shape_like(F, t, result)


def _saved_stats(mean, invstd, dtype, training):
    """native_batch_norm's save_mean and save_invstd: the batch's statistics in training,
    empty in evaluation (the backward then reads the running statistics)."""
    if not training:
        return np.empty(0, dtype), np.empty(0, dtype)
    return mean.astype(dtype, copy=False), invstd.astype(dtype, copy=False)


def _half_norm(kernel, x, params, *rest, running=()):
    """A float16/bfloat16 norm as PyTorch's CPU kernels compute it: in float32, the result
    rounded once to the input's dtype, the statistics to float32 when the parameters are
    float32 (mixed_data_type.h) else to the input's dtype; half running statistics are
    updated from float32 copies."""
    f32 = lambda a: None if a is None else a.astype(np.float32)  # noqa: E731
    mixed = any(p is not None and p.dtype == np.float32 for p in params)
    run32 = [f32(r) if r is not None and r.dtype != np.float32 else r for r in running]
    outs = kernel(x.astype(np.float32), *[f32(p) for p in params], *run32, *rest)
    for r, r32 in zip(running, run32):
        if r is not None and r32 is not r:
            r[...] = r32
    stat = np.float32 if mixed else x.dtype
    return (outs[0].astype(x.dtype),) + tuple(o.astype(stat) for o in outs[1:])


# Note [Batch norm's float32 statistics]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# aten's float32 batch_norm (batch_norm_kernel.cpp, Normalization.cpp) on a contiguous
# input: in training, batch_norm_cpu_collect_stats sums each channel in double, in order
# (its acc_type), the mean that sum / count rounded to float32, and the variance sum the
# double sum of the float32 squares (x - mean) * (x - mean), rounded to float32; an input
# of one value per image and channel (N, C) goes to the channels-last kernel instead:
# float32 running sums per thread over its block of rows (the squares' sums with FMAs),
# the blocks added in double (the thread count is at::get_num_threads(), here the BLAS
# pool's). invstd is 1 / sqrt(var_sum / count (float32) + eps) in double, rounded once;
# in evaluation 1 / sqrt(running_var + eps) in float32. The output is fma(x, alpha,
# beta) with alpha = invstd * weight and beta = fma(-mean, alpha, bias); the running mean
# m * mean + (1 - m) * running in float32, the running variance m * unbiased (the float32
# var_sum / (count - 1) held in a double) + (1 - m) * running (float32), added in double.
# Measured against PyTorch 2.13: 0 of ~33,000 outputs differ. Runs on inputs of up to
# _BN_EXACT_MAX elements (channels-last: up to 16 rows); larger ones keep
# _batch_norm_fast.
_BN_EXACT_MAX = 16384


@_functools.lru_cache(maxsize=1)
def _pool_threads():
    from .. import _devices
    return _devices.get_num_threads()


def _aten_threads():
    """at::get_num_threads() as ours reports it (the BLAS pool's, or set_num_threads'
    value), read once: threadpoolctl's survey costs ~300 us a call."""
    from .. import _devices
    return _devices._num_threads if _devices._num_threads is not None else _pool_threads()


def _batch_norm_exact(x, weight, bias, running_mean, running_var, training, momentum, eps,
                      stats_dtype=None):
    """batch_norm_kernel for float32 as aten computes it (Note [Batch norm's float32
    statistics]), or None where it is not emulated."""
    f32, f64 = np.float32, np.float64
    n, c = x.shape[:2]
    x3 = x.reshape(n, c, -1)
    s = x3.shape[2]
    count = n * s
    if training:
        if s > 1:
            xc = np.ascontiguousarray(x3.transpose(1, 0, 2)).reshape(c, count)
            mean = (np.cumsum(xc, axis=1, dtype=f64)[:, -1] / count).astype(f32)
            d = xc - mean[:, None]
            d *= d
            var_sum = np.cumsum(d, axis=1, dtype=f64)[:, -1].astype(f32)
        else:
            if n > 16:  # (a row's FMAs at a time: ~10 us a row)
                return None
            rows = x3.reshape(n, c)
            nt = max(1, min(_aten_threads(), n))
            step = -(-n // nt)
            blocks = [rows[i:i + step] for i in range(0, n, step)]
            total = np.zeros(c, f64)
            for blk in blocks:
                total += np.cumsum(blk, axis=0, dtype=f32)[-1]
            mean = (total / count).astype(f32)
            total = np.zeros(c, f64)
            for blk in blocks:
                acc = np.zeros(c, f32)
                for r in blk:
                    d = r - mean
                    acc = _fma32(d, d, acc)
                total += acc
            var_sum = total.astype(f32)
        with np.errstate(divide="ignore", invalid="ignore"):
            var = var_sum / f32(count)
            invstd = (1.0 / np.sqrt(var.astype(f64) + eps)).astype(f32)
            if running_mean is not None:
                m = f32(momentum)
                running_mean[...] = m * mean + (f32(1) - m) * running_mean
            if running_var is not None:  # (a double unbiased_var: the sum in double)
                m = f32(momentum)
                unbiased = var_sum / f32(count - 1) if count > 1 else \
                    np.full(c, np.inf, f32)
                running_var[...] = (f64(m) * unbiased.astype(f64)
                                    + ((f32(1) - m) * running_var).astype(f64))
    else:
        if running_mean is None or running_var is None:
            return None
        mean = running_mean.astype(f32, copy=False)
        with np.errstate(divide="ignore", invalid="ignore"):
            invstd = f32(1) / np.sqrt(running_var.astype(f32, copy=False) + f32(eps))
    if stats_dtype is not None and training:  # (batch_norm_kernel's stats_dtype)
        mean, invstd = (a.astype(stats_dtype).astype(f32) for a in (mean, invstd))
    alpha = invstd if weight is None else invstd * weight
    beta = _fma32(-mean, alpha, f32(0) if bias is None else bias)
    shape = (1, c, 1)
    out = _fma32(x3, alpha.reshape(shape), beta.reshape(shape)).reshape(x.shape)
    return (out,) + _saved_stats(mean, invstd, x.dtype, training)


def batch_norm_kernel(x, weight, bias, running_mean, running_var, training, momentum, eps,
                      stats_dtype=None):
    """(out, mean, invstd) over every dim but 1; in training, running stats are updated in
    place (unbiased variance), as PyTorch's native_batch_norm does. ``stats_dtype``: a
    float16/bfloat16 input's float32 copy without float32 parameters, whose statistics
    aten stores in the input's dtype and normalizes with as stored (measured: given
    PyTorch's saved statistics, every output agrees; from float32 ones 20-50% of the
    outputs were an ulp off)."""
    if _half(x):  # float16/bfloat16: in float32 (_half_norm)
        mixed = any(p is not None and p.dtype == np.float32 for p in (weight, bias))
        kernel = batch_norm_kernel if mixed else _functools.partial(batch_norm_kernel,
                                                                     stats_dtype=x.dtype)
        return _half_norm(kernel, x, (weight, bias), training, momentum, eps,
                          running=(running_mean, running_var))
    if x.dtype == np.float32 and x.ndim >= 2 and 0 < x.size <= _BN_EXACT_MAX and (
            weight is None or weight.dtype == np.float32) and (
            bias is None or bias.dtype == np.float32) and all(
            r is None or r.dtype == np.float32 for r in (running_mean, running_var)):
        outs = _batch_norm_exact(x, weight, bias, running_mean, running_var, training,
                                 momentum, eps, stats_dtype)
        if outs is not None:
            return outs
    if _fast_norm(x) and x.ndim >= 2 and (training or running_mean is not None):
        return _batch_norm_fast(x, weight, bias, running_mean, running_var, training,
                                momentum, eps)
    dims = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if training:
        mean = x.mean(axis=dims, dtype=np.float64 if x.dtype == np.float64 else None)
        xc = x - mean.reshape(shape)
        var = (xc * xc).mean(axis=dims)
        invstd = 1 / np.sqrt(var + eps)
        if running_mean is not None:
            n = x.size // x.shape[1]
            running_mean *= 1 - momentum
            running_mean += momentum * mean
        if running_var is not None:
            n = x.size // x.shape[1]
            unbiased = var * n / (n - 1) if n > 1 else np.full_like(var, np.inf)
            running_var *= 1 - momentum
            running_var += momentum * unbiased
    else:
        mean = running_mean
        invstd = 1 / np.sqrt(running_var + eps)
        xc = x - mean.reshape(shape)
    out = xc * invstd.reshape(shape).astype(x.dtype)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return (out.astype(x.dtype, copy=False),) + _saved_stats(mean, invstd, x.dtype, training)


# Note [Batch norm's backward]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# aten's float32 batch_norm backward on a contiguous (N, C, S > 1) input
# (batch_norm_cpu_backward_contiguous_impl): per image and channel, sum(dy) by reduce_all
# and sum((x - mean) * dy) by map2_reduce_all (_lane_sums, the tail with an FMA), added
# over the images in double; k = float(dotp) * invstd * invstd / count, grad_mean =
# sum / count (double, rounded), dx = fma(-(x - mean), k, dy - grad_mean) * invstd * w
# in training, dy * invstd * w in evaluation (invstd = 1 / sqrt(running_var + eps) in
# double, rounded); grad_weight = dotp * invstd and grad_bias = sum, rounded from double.
# Measured against PyTorch 2.13: 0 of ~300 gradients differ in a bit. Runs for up to
# _BN_EXACT_MAX elements; (N, C) inputs (the channels-last kernel) and larger ones keep
# the slab code below.

def _batch_norm_backward_exact(g, x, weight, running_var, training, eps, mean, invstd):
    """float32 batch_norm backward as batch_norm_cpu_backward_contiguous_impl computes it
    (an (N, C, S) input with S > 1: Note [Batch norm's backward]); (gi, gw, gb)."""
    f32, f64 = np.float32, np.float64
    n, c, s = x.shape
    count = n * s
    if not training:
        with np.errstate(divide="ignore", invalid="ignore"):
            invstd = (1.0 / np.sqrt(running_var.astype(f64) + eps)).astype(f32)
    mean = mean.astype(f32, copy=False)
    rows_g = g.reshape(n * c, s)
    xc = (x - mean[None, :, None]).reshape(n * c, s)
    dot = _lane_sums(xc * rows_g, lambda acc, lo, hi: _fma32(xc[:, lo:hi], rows_g[:, lo:hi],
                                                             acc))
    sm = _lane_sums(rows_g, lambda acc, lo, hi: acc + rows_g[:, lo:hi])
    # (double sums over the images, in order)
    dotp = np.cumsum(dot.reshape(n, c), axis=0, dtype=f64)[-1]
    total = np.cumsum(sm.reshape(n, c), axis=0, dtype=f64)[-1]
    w = np.ones(c, f32) if weight is None else weight.astype(f32, copy=False)
    if training:
        k = dotp.astype(f32) * invstd * invstd / f32(count)
        grad_mean = (total / count).astype(f32)
        d = x - mean[None, :, None]
        t = _fma32(-d, k[None, :, None], g - grad_mean[None, :, None])
        gi = t * invstd[None, :, None] * w[None, :, None]
    else:
        gi = g * invstd[None, :, None] * w[None, :, None]
    gw = (dotp * invstd.astype(f64)).astype(f32)
    return gi, gw, total.astype(f32)


def _batch_norm_backward_raw(g, x, weight, running_mean, running_var, training, eps,
                             save_mean, save_invstd):
    """batch_norm_backward on arrays (Note [Norms by GEMV]): from the saved batch
    statistics in training (the arrays the forward computed them into: the same bits as
    computing them again) or the running ones, sum(g), sum(g * xc) and in-place
    arithmetic on the centred copy of the input, which becomes the input's gradient, a
    slab of images at a time (Note [Batch norm in slabs])."""
    n, c = x.shape[:2]
    x3 = x.reshape(n, c, -1)
    g3 = g.reshape(n, c, -1)
    if (x.dtype == np.float32 and x3.shape[2] > 1 and x.size <= _BN_EXACT_MAX and (
            weight is None or weight.dtype == np.float32) and (
            save_invstd.dtype == np.float32 if training else running_var.dtype == np.float32)):
        gi, gw, gb = _batch_norm_backward_exact(  # (Note [Batch norm's backward])
            g3, x3, weight, running_var, training, eps,
            save_mean if training else running_mean, save_invstd)
        return gi.reshape(x.shape), gw, gb
    if training:
        mean, invstd = save_mean, save_invstd
    else:
        mean = running_mean
        invstd = 1 / np.sqrt(running_var + eps)
    m = _per_channel(mean, x3, x.dtype)
    gi = np.empty_like(x3)
    slabs = _slabs(x3)
    gw = np.zeros(c, np.result_type(m, x3))
    for s in slabs:
        t = np.subtract(x3[s], m, out=gi[s])
        gw += _channel_dots(g3[s], t)
    invstd = invstd.astype(x.dtype, copy=False)
    gb = _channel_sums(g3)
    gw *= invstd                                      # sum(g * xhat), xhat = xc * invstd
    scale = _per_channel(invstd if weight is None else invstd * weight, x3)
    if not training:
        return np.multiply(g3, scale, out=gi).reshape(x.shape), gw, gb
    # scale * (g - gb / count - xhat * gw / count), in place in the centred input
    count = x3.size // c
    a = _per_channel(invstd * gw / count, x3)
    b = _per_channel(gb / count, x3)
    for s in slabs:
        t = gi[s]
        t *= a
        t += b
        np.subtract(g3[s], t, out=t)
        t *= scale
    return gi.reshape(x.shape), gw, gb


# Note [Norm and convolution backward ops]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# Under create_graph PyTorch records the backward of layer_norm, batch_norm and convolution
# as one op (native_layer_norm_backward, native_batch_norm_backward, convolution_backward):
# every gradient's grad_fn is that op's node (NativeLayerNormBackwardBackward0, ...), with
# an edge per differentiable argument (the saved statistics' edges empty: they require no
# grad), and the node differentiates it by an explicit formula (layer_norm_double_backward,
# batchnorm_double_backward, _convolution_double_backward) in which the saved statistics
# are constants, so its third- and fourth-order gradients are those formulas' (not the
# exact ones of a formula recomputing the statistics). Ours are the same ops: the values
# are the array backward's (PyTorch runs the same kernel with or without create_graph),
# the outputs for arguments that need no gradient are None (its output_mask), and the
# tangents (forward-over-reverse) those of the formula in differentiable ops, as PyTorch's
# decompositions for forward AD (convolution_backward's rule is its transpose). The array
# path (create_graph=False) is untouched. group_norm differs: under create_graph (or given
# gradients of its statistics, which are differentiable outputs) PyTorch runs
# infinitely_differentiable_native_group_norm_backward, ops on tensors, as
# _group_norm_backward_graph does.
def _raw_formulas():
    from .raw import RAW
    return RAW


def _backward_op(op, inputs, params, mask):
    """Record ``op`` (a backward computed as one op) on tensors: the values from its kernel
    on arrays; the outputs ``mask`` leaves out (PyTorch's output_mask) None."""
    from ._common import _finish
    arrays = [None if x is None else x._data for x in inputs]
    outs = op.kernel(*arrays, *params)
    # (each result owns its memory, laid out contiguously as PyTorch's kernels make them)
    outs = tuple(o.copy() if any(a is not None and np.may_share_memory(o, a)
                                 for a in arrays) else np.ascontiguousarray(o)
                 for o in map(np.asarray, outs))
    results = _finish(op, inputs, params, outs)
    return tuple(r if m else None for r, m in zip(results, mask))


def _needs_grad(*xs):
    """A norm's output_mask: which of its arguments require grad."""
    return tuple(x is not None and x.requires_grad for x in xs)


def _as_dtype(F, x, like):
    """``x.to(like.dtype)``: x itself when it has that dtype already."""
    dt = getattr(like, "_data", like).dtype
    return x if getattr(x, "_data", x).dtype == dt else F.cast(x, dt)


def _composite_tangents(fn, inputs):
    """The tangents of ``fn()``'s results, computed in differentiable ops on the dual
    ``inputs`` (from inside an op's forward rule, where tangents are not propagated)."""
    from .dispatch import _tangent
    prev = _state.fw
    _state.fw = True
    try:
        outs = fn()
    finally:
        _state.fw = prev
    own = [_tangent(x) for x in inputs]
    ts = []
    for o in outs:
        t = None if o is None else _tangent(o)
        if t is not None and any(t is u for u in own):
            from .pointwise import clone
            t = clone(t)  # (an output never shares its input's tangent)
        ts.append(t)
    return tuple(ts)


# Note [Batch norm's saved statistics]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# NativeBatchNormBackward0 saves what PyTorch's does: input, weight, the running
# statistics, training, eps, and the forward's save_mean and save_invstd (result1,
# result2: the batch's statistics in training, empty tensors in evaluation). On arrays the
# backward takes the batch statistics as saved; its graph (create_graph, forward mode)
# computes them again from the input in differentiable ops, so that double backward sees
# their dependence on it. (The running statistics are saved as arrays, not as tensors:
# no pack hook, no version check; training bumps their versions, which PyTorch's kernel
# does not, so a second forward before backward would make a saved tensor's check fail.)
def _half_backward(backward, F, grads, args, like):
    """A norm's backward on float16/bfloat16 arrays as PyTorch's kernels compute it: in
    float32, each gradient rounded once to the dtype of its input in ``like`` (input,
    weight, bias; a missing weight or bias: the input's)."""
    up = lambda a: a.astype(np.float32) if _half(a) else a  # noqa: E731
    outs = backward(F, tuple(None if g is None else up(g) for g in grads), *[up(a) for a in args])
    like = [like[0] if t is None else t for t in like]
    return tuple(None if o is None else o.astype(t.dtype, copy=False) for o, t in zip(outs, like))


def batch_norm_backward(F, grads, input, running_mean, running_var, weight, training, eps,
                        result1, result2):
    """All three gradients; the statistics as saved on arrays, else again from the input
    (Note [Batch norm's saved statistics])."""
    if grads[0] is None:
        return None, None, None
    if not F.is_raw:  # one op of its own (Note [Norm and convolution backward ops])
        return _backward_op(BATCH_NORM_BACKWARD, (grads[0], input, weight, result1, result2),
                            (running_mean, running_var, training, eps),
                            # (the bias is not saved: its gradient always made)
                            _needs_grad(input, weight) + (True,))
    if _half(input):
        return _half_backward(batch_norm_backward, F, grads, (
            input, running_mean, running_var, weight, training, eps, result1, result2),
            (input, weight, weight))
    g = grads[0]
    if (g is not None and _fast_norm(input) and len(input.shape) >= 2
            and g.dtype == input.dtype and (weight is None or weight.dtype == input.dtype)
            and (training or running_mean is not None)
            and (not training or result2.dtype == input.dtype)):
        outs = _batch_norm_backward_raw(g, input, weight, running_mean, running_var,
                                        training, eps, result1, result2)
    else:
        outs = _batch_norm_backward_graph(F, g, input, running_mean, running_var, weight,
                                          training, eps)
    # (batch_norm_backward_cpu's grad_input: empty_like(input, input.suggest_memory_format()))
    gx = outs[0]
    if gx is not None and not (gx.flags.c_contiguous and input.flags.c_contiguous):
        gx = layout.suggested_format((input,), (), gx)
    return (gx,) + tuple(outs[1:])


def _batch_norm_backward_graph(F, g, input, running_mean, running_var, weight, training,
                               eps):
    """The gradients in differentiable ops: on arrays where no faster path applies, and for
    the tangents of native_batch_norm_backward (forward-over-reverse)."""
    nd = len(input.shape)
    dims = (0,) + tuple(range(2, nd))
    shape = (1, -1) + (1,) * (nd - 2)
    if training:
        mean = F.mean(input, dims, True)
        xc = input - mean
        invstd = 1 / F.sqrt(F.mean(xc * xc, dims, True) + eps)
    else:
        invstd = F.constant(1 / np.sqrt(np.asarray(running_var) + eps), g)
        invstd = F.reshape(invstd, shape)
        xc = input - F.reshape(F.constant(np.asarray(running_mean), g), shape)
    xhat = xc * invstd
    gw = F.sum(g * xhat, dims)
    gb = F.sum(g, dims)
    scale = invstd if weight is None else invstd * F.reshape(weight, shape)
    if training:
        n = _numel(input.shape) // input.shape[1]
        gi = scale * (g - F.reshape(gb, shape) / n - xhat * F.reshape(gw, shape) / n)
    else:
        gi = g * scale
    return gi, gw, gb



def _plus_bias_term(ggO, term, ggB):
    """``ggO += ggB_expanded`` of the norms' double backward: without a weight (a bias
    alone) ggB_expanded is an undefined tensor, which add_ refuses."""
    if ggB is None:
        return ggO
    if term is None:
        if ggO is None:
            return None
        raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in "
                           "C++) for argument #1 'other'")
    return term if ggO is None else ggO + term


def _sum_exclude_dim1(F, x, keepdim=True):
    """batchnorm_double_backward's sum over every dim but 1: dim 0, then the last ones in
    turn."""
    r = F.sum(x, 0, keepdim)
    for d in range(len(r.shape) - 1, 1 if keepdim else 0, -1):
        r = F.sum(r, d, keepdim)
    return r


def _batch_norm_double_backward(F, grads, grad_out, input, weight, running_mean, running_var,
                                train, eps, save_mean, save_invstd):
    """PyTorch's batchnorm_double_backward, op for op: the gradients of
    native_batch_norm_backward's (grad_input, grad_weight, grad_bias) for its inputs
    (grad_out, input, weight, save_mean, save_invstd), the statistics constants (Note [Norm
    and convolution backward ops])."""
    ggI, ggG, ggB = grads
    gO = grad_out
    shape = tuple(input.shape)
    nd = len(shape)
    view = (1, shape[1]) + (1,) * (nd - 2)  # (unsqueeze_dim1; expand_as_dim1 broadcasts)
    M = _numel(shape) // shape[1] if shape[1] else shape[0] * _numel(shape[2:])
    sum1 = _sum_exclude_dim1
    affine = weight is not None
    if affine:
        gamma = F.reshape(weight, view)
        ggGe = None if ggG is None else F.reshape(ggG, view)
        ggBe = None if ggB is None else F.expand(F.reshape(ggB, view), shape)
    else:
        gamma = F.constant(np.ones(()), input)
    if train:
        mu = F.reshape(_as_dtype(F, save_mean, input), view)
        s1 = F.reshape(_as_dtype(F, save_invstd, input), view)
    else:
        rv = np.asarray(running_var)
        mu = F.reshape(F.constant(np.asarray(running_mean), input), view)
        s1 = F.reshape(F.constant(1 / np.sqrt(rv + np.asarray(eps, rv.dtype)), input), view)
    xmu = input - mu
    s2, s3 = F.pow(s1, 2), F.pow(s1, 3)
    xs3 = xmu * s3
    gOinmu_sum = sum1(F, gO * xmu)
    gO_sum = sum1(F, gO)
    gI = None
    if ggI is not None and train:
        ggI_sum = sum1(F, ggI)
        ggIinmu_sum = sum1(F, ggI * xmu)
        all_sub = ((ggI_sum * gO_sum) / M - sum1(F, gO * ggI) +
                   (s2 * gOinmu_sum * ggIinmu_sum) * (3.0 / M))
        gI = gamma * ((xs3 * all_sub) / M + (ggIinmu_sum * s3) / M * (gO_sum / M - gO) +
                      (gOinmu_sum * s3) / M * (ggI_sum / M - ggI))
    if affine and ggG is not None:
        if train:
            t0 = gO * s1
            t1 = (s1 * gO_sum) / -M
            t2 = (xs3 * sum1(F, gO * xmu)) / -M
            term = ggGe * (t0 + t1 + t2)
        else:
            term = ggGe * s1 * gO
        gI = term if gI is None else gI + term

    def first_backward(g, gam):  # the first backward's grad_input
        return ((gam * s1) / M) * (M * g - sum1(F, g) - (xmu * s2) * sum1(F, g * xmu))
    gG = ggO = None
    if affine and ggI is not None:
        if train:
            gG = sum1(F, ggI * first_backward(gO, F.constant(np.ones(()), s1)), False)
        else:
            gG = sum1(F, ggI * gO * s1, False)
    if ggI is not None:
        ggO = first_backward(ggI, gamma) if train else ggI * s1 * gamma
    if affine and ggG is not None:
        term = ggGe * xmu * s1
        ggO = term if ggO is None else ggO + term
    return _plus_bias_term(ggO, ggBe if affine else None, ggB), gI, gG, None, None


def _batch_norm_backward_jvp(F, grad_out, input, weight, running_mean, running_var, train,
                             eps):
    """The tangents of the gradients, those of the formula in differentiable ops (PyTorch
    runs its decomposition of native_batch_norm_backward for forward AD)."""
    return _composite_tangents(lambda: _batch_norm_backward_graph(
        F, grad_out, input, running_mean, running_var, weight, train, eps),
        (grad_out, input, weight))


# (Note [Norm and convolution backward ops])
BATCH_NORM_BACKWARD = defop(
    "native_batch_norm_backward", "NativeBatchNormBackwardBackward0",
    lambda grad_out, input, weight, save_mean, save_invstd, running_mean, running_var, train,
    eps: batch_norm_backward(_raw_formulas(), (grad_out,), input, running_mean, running_var,
                             weight, train, eps, save_mean, save_invstd),
    inputs=("grad_out", "input", "weight", "save_mean", "save_invstd"),
    params=("running_mean", "running_var", "train", "eps"),
    outputs=("result0", "result1", "result2"),
    backward_all=_batch_norm_double_backward, jvp=_batch_norm_backward_jvp)


BATCH_NORM = defop(
    "native_batch_norm", "NativeBatchNormBackward0", batch_norm_kernel,
    inputs=("input", "weight", "bias"), params=("running_mean", "running_var", "training",
                                                "eps"),
    outputs=("result", "result1", "result2"), diff_outputs=(0,),
    backward_all=batch_norm_backward, jvp=_batch_norm_jvp,
    layout=(layout.suggested_format, "contiguous", "contiguous"))  # (batch_norm_cpu's
# empty_like(input, input.suggest_memory_format()))


# Note [Norms by GEMV]
# ~~~~~~~~~~~~~~~~~~~~
# Layer and batch norm reduce over short contiguous rows (a transformer's 128 features, an
# image's 32 x 32 pixels) where NumPy's reductions cost ~4 x a GEMV with a vector of ones,
# and the composed backward formulas make ~20 passes over the activations. On arrays
# (the forward kernels; the backward when no graph of it is recorded) they run as row
# sums by GEMV (in the input's dtype, as before) and in-place arithmetic; the formulas
# in differentiable ops stay for create_graph=True.
def _fast_norm(x):
    return (x.dtype == np.float32 or x.dtype == np.float64) and x.size > 0


def _row_stats(rows, eps):
    """(mean, rstd, centred rows) of a 2-D array, over its rows."""
    d = rows.shape[1]
    ones = np.ones(d, rows.dtype)
    mean = rows @ ones
    mean /= d
    xc = rows - mean[:, None]
    var = np.einsum("ij,ij->i", xc, xc)
    var /= d
    var += eps
    rstd = np.sqrt(var, out=var)
    np.divide(1, rstd, out=rstd)
    return mean, rstd, xc


# Note [Layer norm's moments]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~
# aten's float32 layer_norm (layer_norm_kernel.cpp) takes each row's mean and variance
# from RowwiseMoments (moments_utils.h): Welford's steps over vectors of W = 8 lanes (the
# width measured on this x86-64 build), 16 vectors a chunk (x FMAs), the chunks' moments
# merged by a binary counter (AddMomentsVec: m2 + m2_add, then one FMA), then the scalar
# Welford steps of the N % W tail (no FMAs), and the W lanes merged into it one by one
# (AddMoments, whose two products the compiler fuses); then rstd = 1 / sqrt(var + eps)
# in float32, and y = fma(x - mean, rstd, beta) without weight, fma((x - mean) * rstd,
# weight, beta) with one (beta 0 when absent; each variant measured against PyTorch 2.13:
# 0 of ~26,000 rows' statistics and ~100,000 outputs differ). Here the same steps run
# over all rows (and chunks) at once, the FMAs in float64 (the product of two float32 is
# exact there); the chunks' merges are grouped by their height in the binary counter's
# tree, so ~150-250 NumPy calls do any row length (100-300 us, against the GEMV row
# sums' ~20-90 us). Like the cascade sums (Note [Cascade sum]), it runs on inputs of up
# to _LN_EXACT_MAX elements (tests, fuzzing, small models); larger ones keep the GEMV row
# sums (Note [Norms by GEMV]), within ~2 ulps of PyTorch's statistics.
_LN_LANES, _LN_CHUNK = 8, 16
_LN_EXACT_MAX = 16384


def _fma32(a, b, c, out=None):
    """a * b + c rounded once to float32 (float32 operands: the product is exact in
    float64)."""
    t = np.multiply(a, b, dtype=np.float64)
    t += c
    if out is None:
        return t.astype(np.float32)
    np.copyto(out, t, casting="unsafe")
    return out


@_functools.lru_cache(maxsize=256)
def _moments_tree(m, parts=1):
    """The merges of RowwiseMoments' binary counter over m chunks, as rounds of
    ((acc, add) node pairs) by height: nodes 0..parts * m - 1 are the chunks' partial
    moments (``parts`` float vectors a chunk: 2 for float16/bfloat16, whose vectors
    convert to two float vectors merged in turn), -1 an empty stack slot, the nodes after
    them the merges in the order they are made; returns (rounds, root)."""
    depth = 1 if m <= 2 else (m - 1).bit_length()   # utils::CeilLog2
    leaves = parts * m
    nodes = []             # (acc, add) of node leaves + i
    height = {-1: 0}

    def merge(acc, add):
        node = leaves + len(nodes)
        nodes.append((acc, add))
        height[node] = 1 + max(height[acc], height[add])
        return node

    for i in range(leaves):
        height[i] = 0
    stk = [-1] * depth
    for i in range(m):
        for k in range(parts):
            stk[0] = merge(stk[0], parts * i + k)
        mask, j = i + 1, 1
        while j < depth and (mask & 1) == 0:
            stk[j] = merge(stk[j], stk[j - 1])
            stk[j - 1] = -1
            mask >>= 1
            j += 1
    for i in range(1, depth):
        stk[0] = merge(stk[0], stk[i])
    rounds = {}
    for k, (acc, add) in enumerate(nodes):
        rounds.setdefault(height[leaves + k], []).append((leaves + k, acc, add))
    return [rounds[h] for h in sorted(rounds)], stk[0]


def _rowwise_moments(rows, parts=1, tail_fma=False):
    """(mean, biased variance) of each row of a float32 (R, N) array as aten's
    RowwiseMoments computes them (Note [Layer norm's moments]); ``parts=2``: a float16/
    bfloat16 input's float32 copy, as RowwiseMoments<Half/BFloat16> computes them: vectors
    of 2 W elements, each converted to two float vectors (Welford's steps on each), the
    two merged into the counter in turn, the lanes' counts 2 n; ``tail_fma``: the scalar
    tail's m2 += delta * (x - mean) fused (as compiled for float16, not for bfloat16)."""
    f32 = np.float32
    R, N = rows.shape
    W, C = _LN_LANES, _LN_CHUNK
    V = parts * W
    n = N // V
    if n:
        m, full = -(-n // C), n // C
        last = n - full * C
        # (vector j of every chunk's part as a contiguous (parts * m, R, W) block: x4[j])
        if last:
            x4 = np.zeros((R, m, C, parts, W), f32)
            x4.reshape(R, m * C * V)[:, :n * V] = rows[:, :n * V]
        else:
            x4 = rows[:, :n * V].reshape(R, m, C, parts, W)
        x4 = np.ascontiguousarray(x4.transpose(2, 1, 3, 0, 4)).reshape(C, parts * m, R, W)
        m1 = np.zeros((parts * m, R, W), f32)
        m2 = np.zeros((parts * m, R, W), f32)
        d = np.empty((parts * m, R, W), f32)
        e = np.empty((parts * m, R, W), f32)
        for j in range(min(C, n)):   # UpdateMomentsVec, every chunk at once
            k = parts * (m if j < last or not last else full)
            x, a, b, dd, ee = x4[j, :k], m1[:k], m2[:k], d[:k], e[:k]
            np.subtract(x, a, out=dd)
            _fma32(f32(1) / f32(j + 1), dd, a, out=a)
            np.subtract(x, a, out=ee)
            _fma32(dd, ee, b, out=b)
        counts = [C] * (parts * full) + [last] * (parts if last else 0)
        vals = {i: (counts[i], m1[i], m2[i]) for i in range(parts * m)}
        zero = np.zeros((R, W), f32)
        vals[-1] = (0, zero, zero)
        rounds, root = _moments_tree(m, parts)
        for merges in rounds:   # AddMomentsVec, a round of merges at once
            acc = [vals[a] for _, a, _ in merges]
            add = [vals[b] for _, _, b in merges]
            c0 = np.array([v[0] for v in acc], np.int64)
            ca = np.array([v[0] for v in add], np.int64)
            tot = c0 + ca
            with np.errstate(invalid="ignore", divide="ignore"):
                c = np.where(tot == 0, f32(0), ca.astype(f32) / tot.astype(f32))
            c = c.astype(f32)[:, None, None]
            a1 = np.stack([v[1] for v in acc])
            delta = np.stack([v[1] for v in add])
            delta -= a1
            m2t = np.stack([v[2] for v in acc])
            m2t += np.stack([v[2] for v in add])
            cd = c * delta
            delta *= c0.astype(f32)[:, None, None]
            a1 += cd
            r2 = _fma32(delta, cd, m2t, out=m2t)
            for k, (node, _, _) in enumerate(merges):
                vals[node] = (int(tot[k]), a1[k], r2[k])
        _, lane1, lane2 = vals[root]
        lane1, lane2 = np.ascontiguousarray(lane1.T), np.ascontiguousarray(lane2.T)
    mean = np.zeros(R, f32)
    m2 = np.zeros(R, f32)
    t = np.empty(R, f32)
    for i in range(n * V, N):   # the scalar tail, no FMAs (but tail_fma's)
        x = rows[:, i]
        delta = x - mean
        np.divide(delta, f32(i - n * V + 1), out=t)
        mean += t
        np.subtract(x, mean, out=t)
        if tail_fma:
            _fma32(delta, t, m2, out=m2)
        else:
            t *= delta
            m2 += t
    if not n:   # (the lanes' empty merges: m2 += mean^2 * 0 * m0, NaN where mean^2
        # overflows; mean += 0 * -mean, NaN where mean is infinite)
        with np.errstate(over="ignore", invalid="ignore"):
            sq = mean * mean
        m2 = np.where(np.isfinite(sq), m2, f32(np.nan))
        mean = np.where(np.isfinite(mean), mean, f32(np.nan))
    else:   # AddMoments of each lane (count parts * n) into the tail's moments
        m0 = N - n * V
        for i in range(W):
            tot = m0 + parts * n
            c = f32(parts * n) / f32(tot)
            delta = lane1[i] - mean
            _fma32(c, delta, mean, out=mean)
            delta *= delta
            delta *= c
            m2 += _fma32(delta, f32(m0), lane2[i], out=delta)
            m0 = tot
    return mean, m2 / f32(N)


def _layer_norm_rstd(var, eps):
    """1 / sqrt(var + eps) in float32 (layer_norm_kernel.cpp), in place in var."""
    with np.errstate(invalid="ignore", divide="ignore"):
        var += np.float32(eps)
        np.sqrt(var, out=var)
        return np.divide(np.float32(1), var, out=var)


def layer_norm_kernel(x, normalized_shape, weight, bias, eps, half=None):
    """``half``: the dtype (float16/bfloat16) of the input ``x`` is a float32 copy of, whose
    statistics aten's reduced-precision RowwiseMoments takes (Note [Layer norm's moments]),
    and which its kernel (layer_norm_kernel_mixed_type) normalizes as
    fma(x, rstd, -rstd * mean), then
    fma(y, gamma, beta), gamma 1 and beta 0 without affine tensors (measured: every output
    of 6 x N inputs, N in 1..100, either half type, with and without affine tensors, and
    rows of signed zeros agree), not as (x - mean) * rstd: a row of one element gives ulps
    of x * rstd, not zeros."""
    if _half(x):  # float16/bfloat16: in float32 (_half_norm)
        return _half_norm(lambda x32, w, b, eps: layer_norm_kernel(
            x32, normalized_shape, w, b, eps, half=x.dtype), x, (weight, bias), eps)
    x = np.ascontiguousarray(x)  # (aten's layer_norm normalizes X.contiguous(): a
    # contiguous result whatever the input's layout)
    dims = tuple(range(x.ndim - len(normalized_shape), x.ndim))
    if x.dtype == np.float32 and 0 < x.size <= _LN_EXACT_MAX:
        # (Note [Layer norm's moments])
        stat_shape = x.shape[:x.ndim - len(dims)] + (1,) * len(dims)
        rows = np.ascontiguousarray(x).reshape(-1, _numel(tuple(normalized_shape)))
        mean, var = (_rowwise_moments(rows) if half is None else
                     _rowwise_moments(rows, 2, tail_fma=half == np.float16))
        rstd = _layer_norm_rstd(var, eps)
        b = np.float32(0) if bias is None else bias.reshape(-1)
        if half is not None:  # (gamma 1 and beta 0 without affine tensors: a -0.0 comes
            # out +0.0)
            out = _fma32(rows, rstd[:, None], (-rstd * mean)[:, None])
            out = _fma32(out, np.float32(1) if weight is None else weight.reshape(-1), b)
        elif weight is None:
            out = _fma32(rows - mean[:, None], rstd[:, None], b)
        else:
            xc = rows - mean[:, None]
            xc *= rstd[:, None]
            out = _fma32(xc, weight.reshape(-1), b)
        return (out.reshape(x.shape), mean.reshape(stat_shape), rstd.reshape(stat_shape))
    if _fast_norm(x):  # Note [Norms by GEMV]
        stat_shape = x.shape[:x.ndim - len(dims)] + (1,) * len(dims)
        mean, rstd, out = _row_stats(x.reshape(-1, _numel(tuple(normalized_shape))), eps)
        out *= rstd[:, None]
        if weight is not None:
            out *= weight.reshape(-1)
        # (aten's loop without both affine tensors adds beta = 0: a -0.0 comes out +0.0)
        out += bias.reshape(-1) if bias is not None else 0.0
        return (out.reshape(x.shape), mean.reshape(stat_shape), rstd.reshape(stat_shape))
    if not x.size:  # (aten's statistics of an empty row: mean 0, rstd -NaN; no warning)
        stat = x.shape[:x.ndim - len(dims)] + (1,) * len(dims)
        return x.copy(), np.zeros(stat, x.dtype), np.full(stat, -np.nan, x.dtype)
    mean = x.mean(axis=dims, keepdims=True)
    xc = x - mean
    rstd = 1 / np.sqrt((xc * xc).mean(axis=dims, keepdims=True) + eps)
    out = xc * rstd
    if weight is not None:
        out = out * weight
    out = out + (bias if bias is not None else 0.0)  # (as above: beta = 0 added)
    return (out.astype(x.dtype, copy=False), mean.astype(x.dtype, copy=False),
            rstd.astype(x.dtype, copy=False))


# Note [Layer norm's backward]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# aten's float32 layer_norm backward (layer_norm_backward_frame): per row, ds = sum(dy * x
# [* gamma]) and db = sum(dy [* gamma]) by vec::map*_reduce_all (8-lane running sums of
# the rounded products; the tail's partial vector added with an FMA, as compiled; the
# lanes by vec_reduce_all's shuffle tree), b = fma(db, mean, -ds) * a * a * a / N and
# c = fma(-b, mean, -(db * a / N)) with a = rstd, dx = fma(b, x, a * dy [* gamma]) + c;
# dgamma and dbeta are float32 running sums over each thread's block of rows (dgamma's
# terms fma(dy, fma(a, x, -a * mean), acc)), the threads' sums added in order (the thread
# count: at::get_num_threads(), here the BLAS pool's). Measured against PyTorch 2.13: 0 of
# ~300 gradients differ in a bit. Runs for up to _LN_EXACT_MAX elements and 64 rows (a row
# of dgamma's sums at a time); larger inputs keep the xhat formula below.

def _lane_sums(prod, tail_fma):
    """vec::map*_reduce_all's sum of the products of each row (an (M, N) array): 8-lane
    accumulators summed in order, the tail's partial vector added by ``tail_fma(acc, lo,
    hi)`` (an FMA there, as compiled), then the lanes by vec_reduce_all's shuffle tree;
    rows shorter than a vector sum their lanes in order."""
    M, N = prod.shape
    W = _LN_LANES
    if N < W:
        return np.cumsum(prod, axis=1)[:, -1]
    full = N - N % W
    acc = np.cumsum(prod[:, :full].reshape(M, full // W, W), axis=1)[:, -1]
    if full < N:
        acc[:, :N - full] = tail_fma(acc[:, :N - full], full, N)
    return ((acc[:, 0] + acc[:, 4]) + (acc[:, 2] + acc[:, 6])) + (
        (acc[:, 1] + acc[:, 5]) + (acc[:, 3] + acc[:, 7]))


def _layer_norm_backward_exact(g, x, weight, mean, rstd):
    """float32 layer_norm backward as layer_norm_kernel.cpp's layer_norm_backward_frame
    computes it (Note [Layer norm's backward]); (M, N) arrays, the statistics (M,)."""
    f32 = np.float32
    M, N = x.shape
    a = rstd[:, None]
    m = mean[:, None]
    scale = f32(1) / f32(N)
    if weight is None:
        ds = _lane_sums(g * x, lambda acc, lo, hi: _fma32(g[:, lo:hi], x[:, lo:hi], acc))
        db = _lane_sums(g, lambda acc, lo, hi: acc + g[:, lo:hi])
    else:
        gx = g * weight
        ds = _lane_sums(g * x * weight, lambda acc, lo, hi: _fma32(
            g[:, lo:hi] * x[:, lo:hi], weight[lo:hi], acc))
        db = _lane_sums(gx, lambda acc, lo, hi: _fma32(g[:, lo:hi], weight[lo:hi], acc))
    ds, db = ds[:, None], db[:, None]
    b = _fma32(db, m, -ds) * a * a * a * scale
    c = _fma32(-b, m, -(db * a * scale))
    ady = a * g if weight is None else a * g * weight
    gi = _fma32(b, x, ady)
    gi += c
    # dgamma, dbeta: per thread of the rows' parallel_for, running float32 sums, the
    # threads' sums then added in order
    nt = max(1, min(_aten_threads(), M))
    step = -(-M // nt)
    starts = list(range(0, M, step))
    gw = np.zeros(N, f32)
    gb = np.zeros(N, f32)
    bias = -a * m
    for s in starts:
        blk = slice(s, min(M, s + step))
        gb += np.cumsum(g[blk], axis=0)[-1] + f32(0)
        buf = np.zeros(N, f32)
        for i in range(blk.start, blk.stop):
            _fma32(g[i], _fma32(a[i], x[i], bias[i]), buf, out=buf)
        gw += buf
    return gi, gw, gb


# Note [Layer norm's half backward]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# aten's float16/bfloat16 layer_norm backward (layer_norm_backward_frame for reduced
# types) computes in float32 from vectors of 2 W half elements, each converted to two
# float vectors of W = _LN_LANES lanes: ds and db by functional_bfloat16.h's
# map*_reduce_all (two accumulators, the first vector's products their start, the partial
# tail vector's lanes set, then acc0 + acc1 and vec_reduce_all's shuffle tree; rows shorter
# than 2 W: the second float vector's lanes added into the first, then a sum of the lanes
# in order), ds = sum(dy * x [* gamma]) with its last product fused into the running sum
# (products of two half values are exact in float32); with float32 parameters (mixed
# types) its own loop, ds = sum(x * (dy * gamma)) likewise fused, db = sum(dy * gamma)
# not, and rows shorter than 2 W reduced by the shuffle tree. b, c and dx as in float32
# (Note [Layer norm's backward]), dx rounded once to the half type. dgamma and dbeta
# accumulate per thread in buffers of the INPUT's half type: each row's
# fma(dy, fma(a, x, -a * mean), acc) and acc + dy rounded to half, the threads' buffers
# then summed in float32 and stored in the parameters' dtype. Measured against PyTorch
# 2.13: 0 of ~1,000,000 gradients differ in a bit (float16, bfloat16; no, half and float32
# parameters; rows of 1..70 and longer; 1 and 2 threads).
_LN_HALF_ROWS = 2048   # (the rows' dgamma steps are sequential: a NumPy step per row)


def _half_lane_sums(prod, fused, M, N, tree_small=False):
    """functional_bfloat16.h's map*_reduce_all of each of M rows of N products:
    ``prod(lo, hi)`` the products of columns lo:hi, ``fused(acc, lo, hi)`` acc plus them
    with their last multiplication fused (None: added rounded)."""
    W = _LN_LANES
    add = fused or (lambda acc, lo, hi: acc + prod(lo, hi))
    if N <= W:
        return np.cumsum(prod(0, N), axis=1)[:, -1]
    if N < 2 * W:
        v0 = np.array(prod(0, W))
        v0[:, :N - W] = add(v0[:, :N - W], W, N)
        return _lane_tree(v0) if tree_small else np.cumsum(v0, axis=1)[:, -1]
    full = N - N % (2 * W)
    if fused is None:
        acc = np.cumsum(prod(0, full).reshape(M, full // (2 * W), 2 * W), axis=1)[:, -1]
    else:
        acc = np.array(prod(0, 2 * W))
        for d in range(2 * W, full, 2 * W):
            acc = fused(acc, d, d + 2 * W)
    if full < N:   # (fVec::set: only the tail's lanes of the two accumulators)
        acc[:, :N - full] = add(acc[:, :N - full], full, N)
    return _lane_tree(acc[:, :W] + acc[:, W:])


def _lane_tree(acc):
    """vec_reduce_all's shuffle tree over W lanes: lane i plus lane i ^ k, k = W/2 .. 1."""
    k = acc.shape[1] // 2
    while k:
        acc = acc + acc[:, np.arange(acc.shape[1]) ^ k]
        k //= 2
    return acc[:, 0]


def _layer_norm_backward_half(g, x, weight, bias, normalized_shape, mean, rstd):
    """float16/bfloat16 layer_norm backward as aten's reduced-type kernel computes it
    (Note [Layer norm's half backward]): g and x the half arrays, weight and bias half or
    float32 (or None), mean and rstd the forward's (half, or float32 with float32
    parameters); the gradients in the dtypes of x, weight and bias."""
    f32 = np.float32
    dt, xshape = x.dtype, x.shape
    d = _numel(tuple(normalized_shape))
    g = np.ascontiguousarray(g).reshape(-1, d).astype(f32)
    x = np.ascontiguousarray(x).reshape(-1, d).astype(f32)
    M, N = x.shape
    w = None if weight is None else weight.reshape(-1).astype(f32)
    mixed = weight is not None and weight.dtype == f32
    a = rstd.reshape(-1, 1).astype(f32)
    m = mean.reshape(-1, 1).astype(f32)
    if w is None:
        ds = _half_lane_sums(lambda lo, hi: g[:, lo:hi] * x[:, lo:hi], None, M, N)
        db = _half_lane_sums(lambda lo, hi: g[:, lo:hi], None, M, N)
        ady = a * g
    elif not mixed:
        ds = _half_lane_sums(lambda lo, hi: g[:, lo:hi] * x[:, lo:hi] * w[lo:hi],
                             lambda acc, lo, hi: _fma32(g[:, lo:hi] * x[:, lo:hi], w[lo:hi],
                                                        acc), M, N)
        db = _half_lane_sums(lambda lo, hi: g[:, lo:hi] * w[lo:hi], None, M, N)
        ady = a * g * w
    else:
        gw = g * w
        ds = _half_lane_sums(lambda lo, hi: x[:, lo:hi] * gw[:, lo:hi],
                             lambda acc, lo, hi: _fma32(x[:, lo:hi], gw[:, lo:hi], acc), M, N,
                             tree_small=True)
        db = _half_lane_sums(lambda lo, hi: gw[:, lo:hi], None, M, N, tree_small=True)
        ady = a * g * w
    ds, db = ds[:, None], db[:, None]
    scale = f32(1) / f32(N)
    b = _fma32(db, m, -ds) * a * a * a * scale
    c = _fma32(-b, m, -(db * a * scale))
    gi = _fma32(b, x, ady)
    gi += c
    gi = gi.astype(dt)
    # dgamma, dbeta: per thread of the rows' parallel_for, buffers of dt
    shape = tuple(normalized_shape)
    gw = gb = None
    if weight is not None or bias is not None:
        nt = max(1, min(_aten_threads(), M))
        step = -(-M // nt)
        starts = np.arange(0, M, step)
        bufw = np.zeros((len(starts), N), f32)
        bufb = np.zeros((len(starts), N), f32)
        bb = -a * m
        for i in range(step):
            rows = starts + i
            rows = rows[rows < np.minimum(starts + step, M)]
            k = len(rows)
            if weight is not None:
                t = _fma32(g[rows], _fma32(a[rows], x[rows], bb[rows]), bufw[:k])
                bufw[:k] = t.astype(dt)
            if bias is not None:
                bufb[:k] = (bufb[:k] + g[rows]).astype(dt)
        if weight is not None:
            gw = np.cumsum(bufw, axis=0)[-1] + f32(0)
            gw = gw.astype(weight.dtype).reshape(shape)
        if bias is not None:
            gb = np.cumsum(bufb, axis=0)[-1] + f32(0)
            gb = gb.astype(bias.dtype).reshape(shape)
    if gw is None:
        gw = np.zeros(shape, dt)
    if gb is None:
        gb = np.zeros(shape, dt)
    return gi.reshape(xshape), gw, gb


def _layer_norm_backward_raw(g, x, weight, normalized_shape, mean, rstd):
    """layer_norm_backward on arrays (Note [Norms by GEMV]) from the forward's saved mean
    and rstd (the same arrays _row_stats gave the forward, so the same bits as computing
    them again)."""
    d = _numel(tuple(normalized_shape))
    if x.dtype == np.float32 and x.size <= _LN_EXACT_MAX and x.size // d <= 64 and (
            weight is None or weight.dtype == np.float32):  # Note [Layer norm's backward]
        gi, gw, gb = _layer_norm_backward_exact(
            np.ascontiguousarray(g).reshape(-1, d), np.ascontiguousarray(x).reshape(-1, d),
            None if weight is None else weight.reshape(-1), mean.reshape(-1),
            rstd.reshape(-1))
        if x.ndim == len(normalized_shape):
            return gi.reshape(x.shape), gw.reshape(x.shape), gb.reshape(x.shape)
        return gi.reshape(x.shape), gw.reshape(normalized_shape), gb.reshape(normalized_shape)
    r = rstd.reshape(-1, 1)
    xhat = np.subtract(x.reshape(-1, d), mean.reshape(-1, 1))
    xhat *= r
    g = g.reshape(-1, d)
    gx = g if weight is None else g * weight.reshape(-1)
    s1 = gx @ np.ones(d, gx.dtype)
    s1 /= d
    s2 = np.einsum("ij,ij->i", gx, xhat)
    s2 /= d
    gi = xhat * s2[:, None]
    np.subtract(gx, gi, out=gi)
    gi -= s1[:, None]
    gi *= r
    if x.ndim > len(normalized_shape):
        gw = np.einsum("ij,ij->j", g, xhat).reshape(normalized_shape)
        gb = np.ones(g.shape[0], g.dtype) @ g
        gb = gb.reshape(normalized_shape)
    else:
        gw, gb = (g * xhat).reshape(x.shape), g.reshape(x.shape)
    return gi.reshape(x.shape), gw, gb


# Note [Layer norm's saved statistics]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# NativeLayerNormBackward0 saves what PyTorch's does: input, weight, bias (only so that
# an in-place change of it makes backward raise, as PyTorch's does), normalized_shape and
# the forward's mean and rstd (result1, result2), and not eps. On arrays the backward takes
# the statistics as saved; its graph (create_graph, forward-mode by transposition) must
# see them as functions of the input, so there mean is the input's mean again and rstd
# 1 / sqrt(var + c), with var the input's variance again and c = 1 / rstd^2 - var a
# constant: the saved rstd's value (what PyTorch's double backward uses) with the
# derivative of 1 / sqrt(var + eps), eps being c.
def layer_norm_backward(F, grads, bias, input, weight, normalized_shape, result1, result2):
    if grads[0] is None:
        return None, None, None
    if not F.is_raw:  # one op of its own (Note [Norm and convolution backward ops])
        inputs = (grads[0], input, result1, result2, weight, bias)
        mask = _needs_grad(input, weight, bias)
        if _state.fw and any(x is not None and _tangent_or_none(x) is not None
                             for x in inputs):
            # (Note [Forward AD through a decomposition] in namespace.py)
            from .namespace import _decomposed_for_jvp
            outs = _decomposed_for_jvp(
                LAYER_NORM_BACKWARD, lambda F, *a: _layer_norm_backward_decomposed(F, *a, mask),
                inputs, (normalized_shape,))
            return tuple(r if m else None for r, m in zip(outs, mask))
        return _backward_op(LAYER_NORM_BACKWARD, inputs, (normalized_shape,), mask)
    if _half(input):
        if (grads[0].dtype == input.dtype and 0 < input.size <= _LN_EXACT_MAX
                and input.size // _numel(tuple(normalized_shape)) <= _LN_HALF_ROWS):
            # Note [Layer norm's half backward]
            return _layer_norm_backward_half(grads[0], input, weight, bias, normalized_shape,
                                             result1, result2)
        return _half_backward(layer_norm_backward, F, grads, (
            bias, input, weight, normalized_shape, result1, result2), (input, weight, bias))
    g = grads[0]
    if (g is not None and _fast_norm(input) and g.dtype == input.dtype
            and (weight is None or weight.dtype == input.dtype)
            and result2.dtype == input.dtype):
        return _layer_norm_backward_raw(g, input, weight, normalized_shape, result1, result2)
    return _layer_norm_backward_graph(F, g, input, weight, normalized_shape, result2)


def _layer_norm_backward_graph(F, g, input, weight, normalized_shape, result2):
    """The gradients in differentiable ops (Note [Layer norm's saved statistics]): on
    arrays where no faster path applies, and for the tangents of native_layer_norm_backward
    (forward-over-reverse)."""
    nd = len(input.shape)
    dims = tuple(range(nd - len(normalized_shape), nd))
    lead = tuple(range(nd - len(normalized_shape)))
    mean = F.mean(input, dims, True)
    xc = input - mean
    var = F.mean(xc * xc, dims, True)
    rstd = _values(result2).astype(np.float64)
    c = F.constant(1 / (rstd * rstd) - _values(var), var)
    rstd = 1 / F.sqrt(var + c)
    xhat = xc * rstd
    gw = F.sum(g * xhat, lead) if lead else g * xhat
    gb = F.sum(g, lead) if lead else g
    gx = g if weight is None else g * weight
    n = _numel(tuple(normalized_shape))
    gi = rstd * (gx - F.sum(gx, dims, True) / n - xhat * F.sum(gx * xhat, dims, True) / n)
    if not _numel(tuple(input.shape)) and _state.fw and not F.is_raw:
        # PyTorch's forward-over-reverse runs its jvp decomposition of
        # native_layer_norm_backward (torch/_decomp/decompositions_for_jvp.py), which
        # returns new_zeros for an empty input: gradients without a tangent
        return tuple(None if x is None else _without_tangent(F, x, g) for x in (gi, gw, gb))
    return gi, gw, gb


def _layer_norm_backward_decomposed(F, grad_out, input, mean, rstd, weight, bias,
                                    normalized_shape, output_mask):
    """torch._decomp.decompositions_for_jvp's native_layer_norm_backward, which PyTorch
    runs when an input has a tangent: op by op in the inputs' dtypes (float16 too), its
    values the gradients' primals, its ops' rules their tangents; the mean and rstd
    recomputed from the input (var_mean; eps = (1 / rstd)^2 - var, detached)."""
    from .reduction import var_mean
    shape = tuple(input.shape)
    axis = len(shape) - len(normalized_shape)
    inner, outer = list(range(axis, len(shape))), list(range(axis))
    N, M = _numel(shape[axis:]), _numel(shape[:axis])
    if M <= 0 or N <= 0:
        zeros = lambda s: F.zeros(s, input)  # noqa: E731
        return zeros(shape), zeros(shape[axis:]), zeros(shape[axis:])
    var, mean_ = var_mean(input, inner, correction=0, keepdim=True)
    eps = (F.pow(F.reciprocal(rstd), 2) - var).detach()
    rstd_ = F.rsqrt(var + eps)
    x_hat = (input - mean_) * rstd_
    grad_x_hat = grad_out if weight is None else grad_out * weight
    inner_ = grad_x_hat * N - F.sum(grad_x_hat, inner, True) - x_hat * F.sum(
        grad_x_hat * x_hat, inner, True)
    d_input = (F.div_scalar(rstd_, N) * inner_ if output_mask[0] else
               F.zeros_like(input))
    if weight is None or bias is None:
        none = F.zeros((), input)
    if weight is None:
        d_weight = none
    elif output_mask[1]:
        d_weight = F.sum(grad_out * x_hat, outer, False) if outer else grad_out * x_hat
    else:
        d_weight = F.zeros_like(weight)
    if bias is None:
        d_bias = none
    elif output_mask[2]:
        d_bias = F.sum(grad_out, outer, False) if outer else F.clone(grad_out)
    else:
        d_bias = F.zeros_like(bias)
    return d_input, d_weight, d_bias


def _without_tangent(F, x, g):
    """``x`` with no tangent: its own dropped, or zeros for the incoming gradient itself."""
    if x is g:
        return F.zeros(tuple(x.shape), x)
    drop_tangent(x)
    return x


def _layer_norm_double_backward(F, grads, grad_out, input, mean, rstd, weight,
                                normalized_shape):
    """PyTorch's layer_norm_double_backward, op for op: the gradients of
    native_layer_norm_backward's (grad_input, grad_weight, grad_bias) for its inputs
    (grad_out, input, mean, rstd, weight, bias), the saved statistics constants (Note [Norm
    and convolution backward ops])."""
    ggI, ggG, ggB = grads
    shape = tuple(input.shape)
    axis = len(shape) - len(normalized_shape)
    M, N = _numel(shape[:axis]), _numel(shape[axis:])
    x = F.reshape(input, (M, N))
    gO = F.reshape(grad_out, (M, N))
    xmu = x - _as_dtype(F, F.reshape(mean, (M, 1)), x)
    s1 = _as_dtype(F, F.reshape(rstd, (M, 1)), x)
    s2, s3 = F.pow(s1, 2), F.pow(s1, 3)
    affine = weight is not None
    if affine:
        gamma = F.reshape(weight, (1, N))
        ggGe = None if ggG is None else F.reshape(ggG, (1, N))
        ggBe = None if ggB is None else F.reshape(ggB, (1, N))
    else:
        gamma = F.constant(np.ones(1), x)
    ggIe = None if ggI is None else F.reshape(ggI, (M, N))
    xs3 = xmu * s3
    gI = None
    if ggIe is not None:
        gxhat = gO * gamma
        gxhat_mu_sum = F.sum(gxhat * xmu, 1, True)
        gxhat_sum = F.sum(gxhat, 1, True)
        ggI_sum = F.sum(ggIe, 1, True)
        ggI_mu_sum = F.sum(ggIe * xmu, 1, True)
        all_sub = ((ggI_sum * gxhat_sum) / N - F.sum(ggIe * gxhat, 1, True) +
                   (s2 * gxhat_mu_sum * ggI_mu_sum) * (3.0 / N if N else float("inf")))
        gI = ((xs3 * all_sub) / N + (ggI_mu_sum * s3) / N * (gxhat_sum / N - gxhat) +
              (gxhat_mu_sum * s3) / N * (ggI_sum / N - ggIe))
    if affine and ggG is not None:
        t0 = gO * ggGe * s1
        t1 = (s1 * F.sum(gO * ggGe, 1, True)) / -N
        t2 = (xs3 * F.sum(gO * ggGe * xmu, 1, True)) / -N
        term = t0 + t1 + t2
        gI = term if gI is None else gI + term
    if gI is not None:
        gI = F.reshape(gI, shape)

    def first_backward(g, gam):  # the first backward's grad_input
        return ((gam * s1) / N) * (N * g - F.sum(g, 1, True) -
                                   (xmu * s2) * F.sum(g * xmu, 1, True))
    gG = ggO = None
    if affine and ggIe is not None:
        gG = F.reshape(F.sum(gO * first_backward(ggIe, F.constant(np.ones(()), s1)), 0),
                       tuple(weight.shape))
    if ggIe is not None:
        ggO = first_backward(ggIe, gamma)
    if affine and ggG is not None:
        term = ggGe * xmu * s1
        ggO = term if ggO is None else ggO + term
    ggO = _plus_bias_term(ggO, ggBe if affine else None, ggB)
    if ggO is not None:
        ggO = F.reshape(F.expand(ggO, (M, N)), shape)
    return ggO, gI, None, None, gG, None


def _layer_norm_backward_jvp(F, grad_out, input, weight, normalized_shape, rstd):
    """The tangents of the gradients, those of the formula in differentiable ops (PyTorch
    runs its decomposition of native_layer_norm_backward for forward AD)."""
    return _composite_tangents(lambda: _layer_norm_backward_graph(
        F, grad_out, input, weight, normalized_shape, rstd), (grad_out, input, weight))


# (Note [Norm and convolution backward ops])
LAYER_NORM_BACKWARD = defop(
    "native_layer_norm_backward", "NativeLayerNormBackwardBackward0",
    lambda grad_out, input, mean, rstd, weight, bias, normalized_shape: layer_norm_backward(
        _raw_formulas(), (grad_out,), bias, input, weight, normalized_shape, mean, rstd),
    inputs=("grad_out", "input", "mean", "rstd", "weight", "bias"),
    params=("normalized_shape",), outputs=("result0", "result1", "result2"),
    backward_all=_layer_norm_double_backward, jvp=_layer_norm_backward_jvp)


LAYER_NORM = defop(
    "native_layer_norm", "NativeLayerNormBackward0", layer_norm_kernel,
    inputs=("input", "weight", "bias"), params=("normalized_shape", "eps"),
    outputs=("result", "result1", "result2"), diff_outputs=(0,),
    backward_all=layer_norm_backward, jvp=_layer_norm_jvp)


def _group_norm_exact(x, weight, bias, N, C, HxW, group, eps):
    """float32 native_group_norm as group_norm_kernel.cpp computes it: each (sample,
    group)'s RowwiseMoments (Note [Layer norm's moments]), rstd = 1 / sqrt(max(var, 0) +
    eps) in double rounded once, then (x - mean) * rstd without affine tensors, else
    fma(scale, x, fma(-scale, mean, beta)) with scale = rstd * gamma (measured: 0 of
    ~60,000 outputs differ from PyTorch 2.13's)."""
    f32 = np.float32
    D = C // group
    mean, var = _rowwise_moments(np.ascontiguousarray(x).reshape(N * group, D * HxW))
    rstd = (1.0 / np.sqrt(np.maximum(var, f32(0)).astype(np.float64) + eps)).astype(f32)
    x3 = x.reshape(N, C, HxW)
    m = np.repeat(mean.reshape(N, group), D, axis=1)[:, :, None]
    r = np.repeat(rstd.reshape(N, group), D, axis=1)[:, :, None]
    if weight is None and bias is None:
        out = (x3 - m) * r
    else:
        scale = r if weight is None else r * weight[None, :, None]
        beta = _fma32(-scale, m, f32(0) if bias is None else bias[None, :, None])
        out = _fma32(scale, x3, beta)
    return out.reshape(x.shape), mean.reshape(N, group), rstd.reshape(N, group)


def group_norm_kernel(x, weight, bias, N, C, HxW, group, eps):
    """native_group_norm: (result, mean, rstd), the statistics (N, group)."""
    if _half(x):  # float16/bfloat16: in float32 (_half_norm)
        return _half_norm(group_norm_kernel, x, (weight, bias), N, C, HxW, group, eps)
    if x.dtype == np.float32 and 0 < x.size <= _LN_EXACT_MAX and (
            weight is None or weight.dtype == np.float32) and (
            bias is None or bias.dtype == np.float32):
        return _group_norm_exact(x, weight, bias, N, C, HxW, group, eps)
    xg = x.reshape(N, group, C // group * HxW)  # (explicit: an empty x has no -1)
    if not x.size:  # (aten's statistics of an empty group: mean 0, rstd -NaN; no warning)
        return (x.copy(), np.zeros((N, group), x.dtype),
                np.full((N, group), -np.nan, x.dtype))
    mean = xg.mean(axis=2, keepdims=True)
    xc = xg - mean
    rstd = 1 / np.sqrt((xc * xc).mean(axis=2, keepdims=True) + eps)
    out = (xc * rstd).reshape(x.shape)
    shape = (1, C) + (1,) * (x.ndim - 2)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return (out.astype(x.dtype, copy=False), mean.reshape(N, group).astype(x.dtype, copy=False),
            rstd.reshape(N, group).astype(x.dtype, copy=False))


def _group_norm_backward_exact(g, x, weight, N, C, HxW, group, mean, rstd):
    """float32 group_norm backward as group_norm_kernel.cpp computes it (measured against
    PyTorch 2.13: 0 of ~1,000 gradients differ in a bit): per (sample, channel) ds =
    sum(dy * x) and db = sum(dy) by map2_reduce_all / reduce_all (no FMAs in this file's
    build: _lane_sums with a plain tail); per (sample, group) their sums weighted by gamma
    (8-lane running sums by FMAs, the lanes accumulated in order, the channels past the
    last full vector with FMAs), c2 = fma(db, mean, -ds) * rstd^3 / (D * HxW),
    c3 = fma(-(db * rstd), 1 / (D * HxW), -c2 * mean), dx = fma(rstd * gamma, dy, c2 * x)
    + c3; dgamma and dbeta running sums over the samples, dgamma's terms
    fma(fma(-db, mean, ds), rstd, acc)."""
    f32 = np.float32
    D = C // group
    rows_g = g.reshape(N * C, HxW)
    rows_x = x.reshape(N * C, HxW)
    ds = _lane_sums(rows_g * rows_x, lambda acc, lo, hi: acc + rows_g[:, lo:hi] * rows_x[
        :, lo:hi]).reshape(N, group, D)
    db = _lane_sums(rows_g, lambda acc, lo, hi: acc + rows_g[:, lo:hi]).reshape(N, group, D)
    gam = np.ones((group, D), f32) if weight is None else weight.reshape(group, D)
    W = _LN_LANES
    full = D - D % W
    ds_val = np.zeros((N, group), f32)
    db_val = np.zeros((N, group), f32)
    if full:   # (CalcDsDb: acc + ds * gamma fused, from 0)
        lanes_s = np.zeros((N, group, W), f32)
        lanes_b = np.zeros((N, group, W), f32)
        for j in range(0, full, W):
            _fma32(ds[:, :, j:j + W], gam[:, j:j + W], lanes_s, out=lanes_s)
            _fma32(db[:, :, j:j + W], gam[:, j:j + W], lanes_b, out=lanes_b)
        for lane in range(W):   # (std::accumulate from 0)
            ds_val = ds_val + lanes_s[:, :, lane]
            db_val = db_val + lanes_b[:, :, lane]
    for j in range(full, D):
        ds_val = _fma32(ds[:, :, j], gam[:, j], ds_val)
        db_val = _fma32(db[:, :, j], gam[:, j], db_val)
    mean = mean.reshape(N, group)
    rstd = rstd.reshape(N, group)
    s = f32(1) / f32(D * HxW)
    c2 = _fma32(db_val, mean, -ds_val) * rstd * rstd * rstd * s
    c3 = _fma32(-(db_val * rstd), s, -c2 * mean)
    c1 = rstd[:, :, None] * gam   # (N, group, D)
    x4 = x.reshape(N, group, D, HxW)
    gi = _fma32(c1[..., None], g.reshape(N, group, D, HxW), c2[:, :, None, None] * x4)
    gi += c3[:, :, None, None]
    dsc, dbc = ds.reshape(N, C), db.reshape(N, C)
    mc, rc = np.repeat(mean, D, axis=1), np.repeat(rstd, D, axis=1)
    gw = np.zeros(C, f32)
    gb = np.zeros(C, f32)
    for n in range(N):
        gw = _fma32(_fma32(-dbc[n], mc[n], dsc[n]), rc[n], gw)
        gb = gb + dbc[n]
    return gi.reshape(x.shape), gw, gb


def group_norm_backward(F, grads, input, weight, N, C, HxW, group, eps, result1, result2):
    """layer_norm's formula over each (sample, group), the affine per channel, from the
    forward's mean and rstd (result1, result2), which PyTorch's node saves. Under
    create_graph, or given gradients of the statistics, PyTorch's infinitely differentiable
    formula instead (its graph, its values)."""
    if not F.is_raw or grads[1] is not None or grads[2] is not None:
        return _group_norm_backward_graph(F, grads, input, weight, N, C, HxW, group, result1,
                                          result2)
    if _half(input):
        return _half_backward(group_norm_backward, F, grads, (
            input, weight, N, C, HxW, group, eps, result1, result2), (input, weight, weight))
    g = grads[0]
    if (g is not None and input.dtype == np.float32 and g.dtype == np.float32
            and 0 < input.size <= _LN_EXACT_MAX and N <= 64 and result2.dtype == np.float32
            and (weight is None or weight.dtype == np.float32)):
        return _group_norm_backward_exact(g, input, weight, N, C, HxW, group, result1,
                                          result2)
    shape = tuple(input.shape)
    d = (C // group) * HxW  # (explicit sizes below: an empty input has no -1)
    xg = F.reshape(input, (N, group, d))
    xc = xg - F.reshape(result1, (N, group, 1))
    rstd = F.reshape(result2, (N, group, 1))
    xhat = xc * rstd
    gw = F.sum(F.reshape(g * F.reshape(xhat, shape), (N, C, HxW)), (0, 2))
    gb = F.sum(F.reshape(g, (N, C, HxW)), (0, 2))
    gx = g if weight is None else g * F.reshape(weight, (1, C) + (1,) * (len(shape) - 2))
    gxg = F.reshape(gx, (N, group, d))
    gi = rstd * (gxg - F.sum(gxg, (2,), True) / d - xhat * F.sum(gxg * xhat, (2,), True) / d)
    return F.reshape(gi, shape), gw, gb


def _unsqueeze_(F, x, dim):
    """``x.unsqueeze_(dim)`` of a fresh result (UnsqueezeBackward1 in a graph)."""
    return np.expand_dims(x, dim) if F.is_raw else x.unsqueeze_(dim)


def _group_norm_backward_graph(F, grads, input, weight, N, C, HxW, group, mean, rstd):
    """infinitely_differentiable_native_group_norm_backward, op for op: the saved
    statistics are constants of its graph (they carry their tangents: forward-over-reverse),
    and the gradients of the statistics, when both come, add var_mean_backward's terms."""
    dY, dmean, drstd = grads
    shape = tuple(input.shape)
    G = group
    D = C // G
    n = D * HxW
    s = 1.0 / n if n else float("inf")
    X = F.reshape(input, (N, G, D, HxW))
    m = F.reshape(mean, (N, G, 1, 1))
    r = F.reshape(rstd, (N, G, 1, 1))
    dX = dgamma = dbeta = None
    rstd_cube = r * r * r
    if dY is not None:
        dY = F.reshape(dY, (N, G, D, HxW))
        ds = _unsqueeze_(F, F.sum(dY * X, 3), -1)
        db = _unsqueeze_(F, F.sum(dY, 3), -1)
        gamma = None if weight is None else F.reshape(weight, (1, G, D, 1))
        a = r if gamma is None else r * gamma
        b = _unsqueeze_(F, F.sum(ds if gamma is None else ds * gamma, 2), -2)
        c = _unsqueeze_(F, F.sum(db if gamma is None else db * gamma, 2), -2)
        b = (c * m - b) * rstd_cube * s
        c = -b * m - c * r * s
        dX = a * dY + b * X + c
        if weight is not None:
            dgamma = F.reshape(F.sum((ds - db * m) * r, 0), tuple(weight.shape))
            dbeta = F.reshape(F.sum(db, 0), tuple(weight.shape))
    if dmean is not None and drstd is not None:
        # var_mean_backward over dims (2, 3), correction 0, keepdim
        dvar = -0.5 * rstd_cube * F.reshape(drstd, (N, G, 1, 1))
        t = (2.0 / n if n else float("inf")) * dvar * (X - F.mean(X, (2, 3), True))
        t = t + F.expand(F.reshape(dmean, (N, G, 1, 1)), (N, G, D, HxW)) / n
        dX = t if dX is None else dX + t
    return None if dX is None else F.reshape(dX, shape), dgamma, dbeta


GROUP_NORM = defop(
    "native_group_norm", "NativeGroupNormBackward0", group_norm_kernel,
    inputs=("input", "weight", "bias"), params=("N", "C", "HxW", "group", "eps"),
    outputs=("result", "result1", "result2"),
    backward_all=group_norm_backward, jvp=_group_norm_jvp,
    backward_op=("aten::native_group_norm_backward", ".", True), layout=layout.suggested_format)


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,
                groups):
    """``torch.convolution``: the one entry (ConvolutionBackward0) behind every conv layer
    (and the name formulas call in graph mode)."""
    from ._common import _finish
    nsp = weight._data.ndim - 2
    params = (_tuple(stride, nsp), _tuple(padding, nsp), _tuple(dilation, nsp),
              bool(transposed), _tuple(output_padding, nsp), int(groups))
    x, w = input._data, weight._data
    if x.size and 0 not in w.shape[2:]:
        out = convolution_kernel(x, w, None if bias is None else bias._data, *params)
        return _finish(CONVOLUTION, (input, weight, bias), params, out)
    out = _empty_convolution(x, w, *params)
    if bias is not None:  # (the Empty backend's output.add_(bias[0]): add_'s cast check)
        from .. import _dtypes, can_cast
        od = _dtypes.from_numpy(out.dtype)
        rt = _dtypes.binary_result_dtype(od, False, bias.dtype, True)
        if not can_cast(rt, od):
            raise RuntimeError(f"result type {_dtypes.scalar_name(rt)} can't be cast to the "
                               f"desired output type {_dtypes.scalar_name(od)}")
    r = _finish(CONVOLUTION, (input, weight, bias), params, out)
    from ..autograd import forward_ad
    if forward_ad._current[0] >= 0 and forward_ad._tangent_or_none(r) is None and \
            forward_ad._any_tangent(None, [input, weight, bias]):
        forward_ad._set_tangent(r, _finish_zeros(r))  # (an empty result's tangent)
    return r


def _finish_zeros(r):
    from .._tensor import _make
    return _make(np.zeros(r._data.shape, r._data.dtype))


def _empty_convolution(x, w, stride, padding, dilation, transposed, output_padding, groups):
    """_select_conv_backend's Empty backend: a zero batch or zero channels give zeros (no
    channels for no input channels), other empty inputs and empty kernels refuse."""
    if not x.size:
        if x.shape[0] and x.shape[1]:
            shape = x.shape[:2] + (1,) + x.shape[2:] if x.ndim == 3 else x.shape  # (view4d)
            raise RuntimeError(f"Only zero batch or zero channel inputs are supported, but "
                               f"got input shape: [{', '.join(map(str, shape))}]")
        if transposed:
            spatial = tuple((n - 1) * s - 2 * p + d * (k - 1) + op + 1 for n, s, p, d, k, op in
                            zip(x.shape[2:], stride, padding, dilation, w.shape[2:],
                                output_padding))
            cout = w.shape[1] * groups
        else:
            spatial = tuple((n + 2 * p - d * (k - 1) - 1) // s + 1 for n, s, p, d, k in
                            zip(x.shape[2:], stride, padding, dilation, w.shape[2:]))
            cout = w.shape[0]
        # (its product: input.view(-1) * weight_view for no input channels, else
        # input * weight_view[0], a 0-d operand: the promoted dtype)
        from .. import _dtypes
        xd, wd = _dtypes.from_numpy(x.dtype), _dtypes.from_numpy(w.dtype)
        dt = _dtypes.promote_types(xd, wd) if not x.shape[1] else \
            _dtypes.binary_result_dtype(xd, False, wd, True)
        return np.zeros((x.shape[0], cout if x.shape[1] else 0) + spatial,
                        _dtypes.numpy_dtype_of(dt))
    from ..nn.functional import _uses_mkldnn
    if _uses_mkldnn(x, w, x.shape, stride, dilation, groups,
                    output_padding if transposed else None):  # (mkldnn's primitive refuses)
        if not transposed and 0 in dilation:
            raise RuntimeError("non-positive dilation is not supported")
        if transposed and any((n - 1) * s - 2 * p + d * (k - 1) + op + 1 < 0 for n, s, p, d, k, op
                              in zip(x.shape[2:], stride, padding, dilation, w.shape[2:],
                                     output_padding)):
            raise RuntimeError("could not construct a memory descriptor using a format tag")
        kind = "deconvolution" if transposed else "convolution"
        raise RuntimeError(f"could not create a primitive descriptor for the {kind} forward "
                           f"propagation primitive. Run workload with environment variable "
                           f"ONEDNN_VERBOSE=all to get additional diagnostic information.")
    if not transposed and any(d != 1 for d in dilation):  # (slow_conv_dilated's)
        sizes = ((1,) + tuple(w.shape[2:])) if w.ndim == 3 else tuple(w.shape[2:])
        raise RuntimeError(f"kernel size should be greater than zero, but got "
                           f"[{', '.join(map(str, sizes))}]")
    if w.ndim == 5 and not transposed:  # (slow_conv3d's shape check)
        kt, kh, kw = w.shape[2:]
        raise RuntimeError(f"kernel size should be greater than zero, but got: {kt} x {kh} x "
                           f"{kw} (TxHxW)")
    kh, kw = ((1,) + tuple(w.shape[2:]))[-2:]
    raise RuntimeError(f"kernel size should be greater than zero, but got kernel_height: {kh} "
                       f"kernel_width: {kw}")


def _tuple(x, n):
    if isinstance(x, (list, tuple)):
        return tuple(int(v) for v in x) * (n if len(x) == 1 and n > 1 else 1)
    return (int(x),) * n


# ---- embedding ---------------------------------------------------------------------------
def embedding_backward(F, grad, indices, padding_idx, scale_grad_by_freq, weight_sizes):
    """Rows of grad added into the rows they were read from (index_add); the padding row
    gets nothing; with scale_grad_by_freq each row is divided by how often it was read."""
    flat = np.asarray(indices).reshape(-1)
    g = F.reshape(grad, (flat.size, weight_sizes[1]))
    scale = np.ones(flat.size)
    if scale_grad_by_freq:
        counts = np.bincount(flat, minlength=weight_sizes[0])
        scale = scale / counts[flat]
    if padding_idx is not None and padding_idx >= 0:
        scale = np.where(flat == padding_idx, 0.0, scale)
    if padding_idx is not None or scale_grad_by_freq:
        g = g * F.constant(scale.reshape(-1, 1), grad)
    return F.index_add(F.zeros(tuple(weight_sizes), grad), 0, flat, g)


EMBEDDING = defop("embedding", "EmbeddingBackward0",
                  lambda w, indices, padding_idx, scale: np.take(w, indices, axis=0),
                  inputs=("weight",), params=("indices", "padding_idx", "scale_grad_by_freq"),
                  grads={"weight": embedding_backward}, jvp="linear")


# ---- index-map ops: padding, pixel shuffle, nearest upsampling, unfold / fold -------------
# Note [Index-map ops]
# ~~~~~~~~~~~~~~~~~~~~
# Many layers only move elements: each output element is one input element or a fill
# value. Each such op is declared by an index map: an int array, shaped as the output's
# trailing dims, holding flat positions into the input's trailing ``nd`` dims (-1: the
# fill value); the leading dims (batch, channels) are carried along. The forward is one
# fancy-index gather; the backward its adjoint, an index_add of grad into zeros (written
# in differentiable ops, so every order works); ``jvp="transpose"`` derives forward mode.
# Fold (col2im) is the adjoint kind: a scatter-add by the same map, whose backward is the
# gather. One map builder per layer; the node names are PyTorch's.
def index_map_gather(x, index, nd, value):
    lead = x.shape[:x.ndim - nd]
    flat = x.reshape(lead + (_numel(x.shape[x.ndim - nd:]),))  # (-1 fails for size 0)
    if value is None:
        return np.ascontiguousarray(flat[..., index])
    if flat.shape[-1] == 0:  # an empty input padded: the fill value everywhere
        return np.full(flat.shape[:-1] + index.shape, value, x.dtype)
    out = np.take(flat, np.maximum(index, 0), axis=-1)  # (C order: flat[..., i] is not)
    out[..., index < 0] = value
    return out


def index_map_gather_backward(F, grad, index, nd, value, self_sizes):
    nlead = len(self_sizes) - nd
    g = F.reshape(grad, (_numel(tuple(self_sizes[:nlead])), index.size))
    idx = index.reshape(-1)
    if value is not None and (idx < 0).any():
        keep = np.flatnonzero(idx >= 0)
        g, idx = F.index_select(g, 1, keep), idx[keep]
    out = F.index_add(F.zeros((g.shape[0], _numel(tuple(self_sizes[nlead:]))), grad), 1,
                      idx, g)
    return F.reshape(out, tuple(self_sizes))


def index_map_scatter(x, index, nd, out_tail):
    src = x.reshape((-1, index.size))
    idx = index.reshape(-1)
    keep = idx >= 0
    out = np.zeros((src.shape[0], _numel(tuple(out_tail))), dtype=x.dtype)
    cols = np.flatnonzero(keep)
    np.add.at(out, (slice(None), idx[cols]), src[:, cols])
    return out.reshape(x.shape[:x.ndim - nd] + tuple(out_tail))


def index_map_scatter_backward(F, grad, index, nd, out_tail, self_sizes):
    nt = len(out_tail)
    g = F.reshape(grad, (-1, _numel(tuple(out_tail))))
    idx = index.reshape(-1)
    picked = F.index_select(g, 1, np.maximum(idx, 0))
    if (idx < 0).any():
        picked = picked * F.constant(np.broadcast_to(idx >= 0, picked.shape), grad)
    _ = nt
    return F.reshape(picked, tuple(self_sizes))


def _gather_op(name, node, empty_alias=False):
    """An op that gathers its input's elements through an index map (padding, shuffles,
    nearest upsampling, im2col). Its forward rule is PyTorch's ``auto_linear``: the op on
    the tangent, padded with zeros (a transposed backward's index_add into zeros would turn
    a tangent's -0.0 into +0.0). ``empty_alias``: an empty input's result and an empty
    gradient's are laid out as their source (aten's ``self.alias()``)."""
    def backward(F, grad, index, nd, value, self_sizes):
        if empty_alias and F.is_raw and not np.size(grad):
            return layout.with_strides(np.array(grad), layout._elem_strides(grad))
        return index_map_gather_backward(F, grad, index, nd, value, self_sizes)

    def jvp(F, self_t, index, nd, value):
        zero = None if value is None else 0
        if F.is_raw:
            return index_map_gather(self_t, index, nd, zero)
        from ._common import _finish
        return _finish(op, (self_t,), (index, nd, zero),
                       index_map_gather(self_t._data, index, nd, zero))

    op = defop(name, node, index_map_gather, params=("index", "nd", "value"),
               grads={"self": backward}, jvp=jvp,
               layout=layout.alias_if_empty(layout.suggested_format) if empty_alias else
               layout.suggested_format)
    return op


CONSTANT_PAD = _gather_op("constant_pad_nd", "ConstantPadNdBackward0")


def _pad_ops(kind, n):
    """reflection_pad{n}d / replication_pad{n}d and their backward op (Note [Pooling
    backward ops]: linear in grad_output, whose gradient is the padding of the incoming
    gradient; ``self: zeros_like(self)``; the op on grad_output's tangent as forward rule).
    The forward node saves self, as PyTorch's."""
    name, node = f"{kind}_pad{n}d", f"{kind.capitalize()}Pad{n}D"
    bname = name + "_backward"

    def grad_output_formula(F, grad, index, nd, value):
        if F.is_raw:
            return index_map_gather(grad, index, nd, value)
        from ._common import _finish
        return _finish(fwd, (grad,), (index, nd, value),
                       index_map_gather(grad._data, index, nd, value))

    def jvp(F, grad_output_t, self, index, nd, value):
        if grad_output_t is None:
            return None
        return getattr(F, bname)(grad_output_t, self, index, nd, value)

    bwd = defop(bname, node + "BackwardBackward0", _pad_backward_kernel,
                inputs=("grad_output", "self"), params=("index", "nd", "value"),
                grads={"grad_output": grad_output_formula,
                       "self": lambda F, grad, self: F.zeros_like(self)},
                jvp=jvp)
    fwd = defop(name, node + "Backward0", index_map_gather, params=("index", "nd", "value"),
                grads={"self": lambda F, grad, self, index, nd, value:
                       getattr(F, bname)(grad, self, index, nd, value)},
                jvp="transpose", layout=layout.suggested_format)
    return fwd, bwd


def _pad_backward_kernel(grad, self, index, nd, value):
    from .raw import RAW
    return index_map_gather_backward(RAW, grad, index, nd, value, self.shape)


_PADS = {(k, n): _pad_ops(k, n) for k in ("reflection", "replication") for n in (1, 2, 3)}
REFLECTION_PAD = {n: _PADS["reflection", n][0] for n in (1, 2, 3)}
REPLICATION_PAD = {n: _PADS["replication", n][0] for n in (1, 2, 3)}
PAD_BACKWARD = {op.name: op for _, op in _PADS.values()}
PIXEL_SHUFFLE = _gather_op("pixel_shuffle", "PixelShuffleBackward0")
PIXEL_UNSHUFFLE = _gather_op("pixel_unshuffle", "PixelUnshuffleBackward0")
def _rounds(index):
    """Contributions to positions ``index`` (in the order they are made) regrouped in
    rounds of distinct positions: the k-th contribution to each position in round k,
    positions ascending within a round (a full round is then a plain add). Returns the
    permutation and the rounds' bounds."""
    order = np.argsort(index, kind="stable")
    first = np.searchsorted(index[order], index[order], side="left")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order)) - first
    by_rank = np.lexsort((index, rank))
    return by_rank, np.searchsorted(rank[by_rank], np.arange(int(rank.max(initial=0)) + 2))


def _nearest_kernel(x, index, nd, bindex):
    return index_map_gather(x, index, nd, None)


def _nearest_backward(F, grad, index, nd, bindex, self_sizes):
    """cpu_upsample_nearest_backward: its own index map (nearest_idx, which the forward's
    generic kernel does not use), each input's gradient summed in output order from +0.0 in
    opmath_t (float for a half, rounded once)."""
    if not F.is_raw:
        return index_map_gather_backward(F, grad, bindex, nd, None, self_sizes)
    acc = np.dtype(np.float32 if _half(grad) else grad.dtype)
    positions, order, bounds = _nearest_backward_plan(bindex.tobytes(), bindex.size)
    g = grad.astype(acc, copy=False).reshape((-1, bindex.size)).T[order]  # (by rank, planes)
    gi = np.zeros((_numel(tuple(self_sizes[-nd:])), g.shape[1]), dtype=acc)
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        gi[positions[lo:hi]] += g[lo:hi]
    return gi.T.reshape(tuple(self_sizes)).astype(grad.dtype)


@_functools.lru_cache(maxsize=32)
def _nearest_backward_plan(key, size):
    """The outputs ranked among those of the same input position (in output order): their
    positions and order by rank, and the rounds' bounds."""
    index = np.frombuffer(key, dtype=np.int64)[:size]
    by_rank, bounds = _rounds(index)
    return index[by_rank], by_rank, bounds


def _nearest_op(name, node):
    def jvp(F, self_t, index, nd, bindex):
        if F.is_raw:
            return index_map_gather(self_t, index, nd, None)
        from ._common import _finish
        return _finish(op, (self_t,), (index, nd, bindex),
                       index_map_gather(self_t._data, index, nd, None))

    op = defop(name, node, _nearest_kernel, params=("index", "nd", "bindex"),
               grads={"self": _nearest_backward}, jvp=jvp, layout=layout.suggested_format)
    return op


UPSAMPLE_NEAREST = {n: _nearest_op(f"upsample_nearest{n}d", f"UpsampleNearest{n}DBackward0")
                    for n in (1, 2, 3)}
UPSAMPLE_NEAREST_EXACT = {n: _nearest_op(f"_upsample_nearest_exact{n}d",
                                         f"UpsampleNearestExact{n}DBackward0")
                          for n in (1, 2, 3)}
IM2COL = _gather_op("im2col", "Im2ColBackward0")
# (channel_shuffle_cpu returns an empty input's alias; its gradient is channel_shuffle of
# the gradient, so an empty one's alias too: their strides kept)
CHANNEL_SHUFFLE = _gather_op("channel_shuffle", "ChannelShuffleBackward0", empty_alias=True)
COL2IM = defop("col2im", "Col2ImBackward0", index_map_scatter,
               params=("index", "nd", "out_tail"),
               grads={"self": index_map_scatter_backward}, jvp="linear")


def combine_maps(maps, sizes):
    """Per-dim 1-d maps (positions or -1) -> one map of flat positions over those dims."""
    flat = np.zeros([len(m) for m in maps], dtype=np.int64)
    bad = np.zeros(flat.shape, dtype=bool)
    stride = 1
    for d in range(len(maps) - 1, -1, -1):
        m = np.asarray(maps[d], dtype=np.int64)
        shape = [1] * len(maps)
        shape[d] = -1
        m = m.reshape(shape)
        flat = flat + m * stride
        bad = bad | (m < 0)
        stride *= sizes[d]
    return np.where(bad, -1, flat)


def pad_map(size, left, right, mode):
    p = np.arange(size + left + right) - left
    if mode == "constant":
        return np.where((p >= 0) & (p < size), p, -1)
    if mode == "reflect":
        p = np.abs(p)
        return np.where(p >= size, 2 * (size - 1) - p, p)
    if mode == "replicate":
        return np.clip(p, 0, size - 1)
    return p % size   # circular


# ---- separable linear ops: linear / bilinear / bicubic interpolation -----------------------
# One interpolation matrix (out, in) per spatial dim: y = Mh x Mw^T; the backward applies
# the transposes (two matmuls, differentiable).
def separable_kernel(x, mats):
    if getattr(mats[0], "aa", None) and x.dtype in (np.float32, np.float64):
        return aa_forward_kernel(x, mats)
    if getattr(mats[0], "cubic", None) and (x.dtype in (np.float32, np.float64) or _half(x)):
        return cubic_forward_kernel(x, mats)
    if getattr(mats[0], "taps", None) and (x.dtype in (np.float32, np.float64) or _half(x)):
        return linear_forward_kernel(x, mats)
    if _half(x):  # float16/bfloat16: float32 weights and sums, one rounding (PyTorch's opmath)
        return separable_kernel(x.astype(np.float32), mats).astype(x.dtype)
    if len(mats) == 1:
        y = np.matmul(x, mats[0].T.astype(x.dtype))
    elif len(mats) == 2:
        y = np.matmul(np.matmul(mats[0].astype(x.dtype), x), mats[1].T.astype(x.dtype))
    else:                                         # (D, H, W): the depth matrix on (D, H*W)
        y = np.matmul(np.matmul(mats[1].astype(x.dtype), x), mats[2].T.astype(x.dtype))
        lead, (d, h, w) = y.shape[:-3], y.shape[-3:]
        y = np.matmul(mats[0].astype(x.dtype), y.reshape(lead + (d, h * w)))
        y = y.reshape(lead + (mats[0].shape[0], h, w))
    return np.ascontiguousarray(y, dtype=x.dtype)


def separable_backward(F, grad, mats, self_sizes=None):
    if F.is_raw and self_sizes is not None and getattr(mats[0], "taps", None):
        return linear_backward_kernel(grad, mats, tuple(self_sizes[-len(mats):]))
    if F.is_raw and self_sizes is not None and getattr(mats[0], "aa", None) and \
            grad.dtype in (np.float32, np.float64):
        return aa_backward_kernel(grad, mats, tuple(self_sizes[-2:]))
    if F.is_raw and self_sizes is not None and getattr(mats[0], "cubic", None):
        return cubic_backward_kernel(grad, mats, tuple(self_sizes[-2:]))
    if len(mats) == 1:
        return F.matmul(grad, F.constant(mats[0], grad))
    if len(mats) == 2:
        return F.matmul(F.matmul(F.constant(mats[0].T, grad), grad), F.constant(mats[1], grad))
    g = F.matmul(F.matmul(F.constant(mats[1].T, grad), grad), F.constant(mats[2], grad))
    lead, (d, h, w) = tuple(grad.shape[:-3]), tuple(g.shape[-3:])
    g = F.matmul(F.constant(mats[0].T, grad), F.reshape(g, lead + (d, h * w)))
    return F.reshape(g, lead + (mats[0].shape[1], h, w))


def _separable_op(name, node, jvp="transpose"):
    return defop(name, node, separable_kernel, params=("mats",),
                 grads={"self": separable_backward}, jvp=jvp,
                 layout=layout.suggested_format)


# (the linear modes' tangent: the forward kernel on it, as PyTorch's upsample_*(self_t))
UPSAMPLE_LINEAR1D = _separable_op("upsample_linear1d", "UpsampleLinear1DBackward0", "linear")
UPSAMPLE_BILINEAR2D = _separable_op("upsample_bilinear2d", "UpsampleBilinear2DBackward0",
                                    "linear")
UPSAMPLE_BICUBIC2D = _separable_op("upsample_bicubic2d", "UpsampleBicubic2DBackward0",
                                   "linear")
UPSAMPLE_TRILINEAR3D = _separable_op("upsample_trilinear3d", "UpsampleTrilinear3DBackward0",
                                     "linear")
UPSAMPLE_BILINEAR2D_AA = _separable_op("_upsample_bilinear2d_aa",
                                       "UpsampleBilinear2DAaBackward0", "linear")
UPSAMPLE_BICUBIC2D_AA = _separable_op("_upsample_bicubic2d_aa", "UpsampleBicubic2DAaBackward0",
                                      "linear")
UPSAMPLE_LANCZOS2D_AA = _separable_op("_upsample_lanczos2d_aa", "UpsampleLanczos2DAaBackward0",
                                      "linear")


def _refuse_half_tangent(inputs, tangents):
    """_upsample_*_aa(self_t) of a half tangent: the kernel's refusal (Note [Tangents of
    another dtype in linear rules] in dispatch.py)."""
    from ..nn.functional import refuse_half
    refuse_half("compute_index_ranges_weights", tangents[0]._data)


for _op in (UPSAMPLE_BILINEAR2D_AA, UPSAMPLE_BICUBIC2D_AA, UPSAMPLE_LANCZOS2D_AA):
    _op.tangent_check = _refuse_half_tangent


def _source_index(out, in_size, scale, align_corners, cubic):
    """PyTorch's area_pixel_compute_source_index for every output position."""
    dst = np.arange(out, dtype=np.float64)
    if align_corners:
        s = (in_size - 1) / (out - 1) if out > 1 else 0.0
        return dst * s
    s = 1.0 / scale if scale else in_size / out
    src = s * (dst + 0.5) - 0.5
    return src if cubic else np.maximum(src, 0.0)


def _linear_matrix(out, in_size, scale, align_corners):
    src = _source_index(out, in_size, scale, align_corners, False)
    i0 = np.minimum(src.astype(np.int64), in_size - 1)
    i1 = i0 + (i0 < in_size - 1)
    l1 = src - i0
    m = np.zeros((out, in_size))
    rows = np.arange(out)
    np.add.at(m, (rows, i0), 1.0 - l1)
    np.add.at(m, (rows, i1), l1)
    return m


class LinearMatrix(np.ndarray):
    """linear_matrix's (out, in) weights, carrying ``taps``: its (out, in_size, scale,
    align_corners), which the backward recomputes in the gradient's opmath type."""

    def __array_finalize__(self, obj):
        self.taps = getattr(obj, "taps", None)
        self.cubic = getattr(obj, "cubic", None)
        self.aa = getattr(obj, "aa", None)


def linear_matrix(out, in_size, scale, align_corners):
    m = _linear_matrix(out, in_size, scale, align_corners).view(LinearMatrix)
    m.taps = (out, in_size, scale, align_corners)
    return m


def linear_taps(out, in_size, scale, align_corners, dtype):
    """aten's compute_source_index_and_lambda (UpSample.h) in ``dtype`` (opmath_t): per
    output its two inputs and their weights (i0, i1, lambda0, lambda1)."""
    t = np.dtype(dtype).type
    o = np.arange(out)
    if out == in_size:
        return o, o, np.ones(out, dtype), np.zeros(out, dtype)
    if align_corners:
        src = (t(in_size - 1) / t(out - 1) if out > 1 else t(0)) * o.astype(dtype)
    else:   # (its build contracts scale * (dst + 0.5) - 0.5 into one fused multiply-add)
        s = t(1.0 / scale) if scale and scale > 0 else t(in_size) / t(out)
        src = np.maximum(_fma_half_step(s, out, np.dtype(dtype).name), t(0))
    # (guard_index_and_lambda floors with floorf: a double index is rounded to float first,
    # so one just below an integer takes it, with lambda clamped to 0)
    i0 = np.minimum(np.floor(src.astype(np.float32)).astype(np.int64), in_size - 1)
    l1 = np.minimum(np.maximum(src - i0.astype(dtype), t(0)), t(1))
    return i0, i0 + (i0 < in_size - 1), t(1) - l1, l1


@_functools.lru_cache(maxsize=64)
def _fma_half_step(s, out, dtype):
    """fma(s, o + 0.5, -0.5) for o < out, rounded once to ``dtype`` (s's: a key of its own,
    as equal float32 and float64 scales hash alike; exact in float64 for float32, in
    fractions for float64)."""
    if dtype == "float32":
        return (np.float64(s) * (np.arange(out) + 0.5) - 0.5).astype(np.float32)
    from fractions import Fraction
    fs = Fraction(float(s))
    return np.array([float(fs * Fraction(2 * o + 1, 2) - Fraction(1, 2)) for o in range(out)])


def _fma(a, b, c):
    """a * b + c rounded once (as a fused multiply-add; NumPy has none): float32 through
    float64, float64 by Dekker's exact product and a two-sum (off only in double-rounding
    ties)."""
    if a.dtype == np.float32:
        return (a.astype(np.float64) * b + c).astype(np.float32)
    a = np.broadcast_to(a, np.broadcast_shapes(a.shape, b.shape))
    with np.errstate(all="ignore"):
        p = a * b
        split = lambda v: (v * 134217729.0 - (v * 134217729.0 - v))  # noqa: E731
        ah, bh = split(a), split(b)
        al, bl = a - ah, b - bh
        e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
        s = p + c
        bb = s - p
        t = (p - (s - bb)) + (c - bb)
        out = s + (t + e)
        return np.where(np.isfinite(out) & np.isfinite(p), out, p + c)


# Note [Linear upsampling forward order]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's CPU forward has two kernels (UpSampleKernel.cpp), every ``a * b + c`` in them
# contracted to a fused multiply-add by its build (measured bit for bit against PyTorch
# 2.13, float32 and float64, both align_corners):
# - the generic one (linear; bilinear unless below; trilinear unless below) nests per dim,
#   innermost first: w0 * x0 + w1 * x1 = fma(x0, w0, x1 * w1), then the same over the next
#   dim's two results. Its lambdas are stored in scalar_t (rounded for float16/bfloat16),
#   the arithmetic is in opmath_t (float), rounded once at the end.
# - the channels-last one (bilinear when the input is channels-last with C > 3, the
#   output's H + W <= 128, or C == 3 with one thread (at::get_num_threads(), here ours);
#   trilinear when channels-last-3d with C > 3) weighs each corner
#   by the product of its lambdas (opmath_t, never rounded to the half type: h * w,
#   (d * h) * w) and sums over channels in 32-byte vectors: the vector body right-nested,
#   x0 * w0 + (x1 * w1 + (... + (x[n-2] * w[n-2] + x[n-1] * w[n-1]))) (the innermost pair
#   fused on its last term), the scalar tail of C % (32 / itemsize) channels as one chain
#   from corner 1: fma(x[n-1], w[n-1], ... fma(x2, w2, fma(x0, w0, x1 * w1))).
# An edge output whose taps coincide still weighs both (0 * inf: NaN, as PyTorch). The
# source index is fused and floored as a float (linear_taps).
def linear_forward_kernel(x, mats):
    nd = len(mats)
    half = _half(x)
    op = np.dtype(np.float32 if half else x.dtype)
    taps = [linear_taps(*m.taps, op) for m in mats]
    out = tuple(m.taps[0] for m in mats)
    cl = (nd == 3 or nd == 2) and x.shape[1] > 3 and _cl_contiguous(x)
    if cl or nd == 2 and (out[0] + out[1] <= 128 or x.shape[1] == 3 and _aten_threads() == 1):
        y = _linear_forward_cl(x.astype(op, copy=False), taps, 32 // x.itemsize,
                               half and x.dtype.name)
    else:
        if half:    # (lambdas stored in the half type: l0 = 1 - l1 of the rounded l1, rounded)
            taps = [(i0, i1, (op.type(1) - h).astype(x.dtype).astype(op), h)
                    for i0, i1, h in ((t[0], t[1], t[3].astype(x.dtype).astype(op))
                                      for t in taps)]
        y = _nested_linear_forward(x.astype(op, copy=False), taps)
    return np.ascontiguousarray(y.astype(x.dtype, copy=False))


def _cl_contiguous(x):
    """``is_contiguous(channels_last / channels_last_3d)`` of a 4-d / 5-d array."""
    st = layout._elem_strides(x)
    expected = 1
    for d in (1,) + tuple(range(x.ndim - 1, 1, -1)) + (0,):
        if x.shape[d] == 0:
            return True
        if x.shape[d] != 1:
            if st[d] != expected:
                return False
            expected *= x.shape[d]
    return True


def _fma_step(a, w, c):
    """fma(a, w, c) in opmath_t; a float32 ``a`` comes widened to float64 (exact product;
    a fresh array, overwritten)."""
    if c.dtype == np.float32:
        np.multiply(a, w, out=a)
        a += c
        return a.astype(np.float32)
    return _fma(a, w, c)


def _linear_forward_cl(x, taps, lanes, half=False):
    nd = len(taps)
    f32 = x.dtype == np.float32
    wide = x.astype(np.float64) if f32 else x
    c = x.shape[1]
    cv = c - c % lanes
    n = 2 ** nd
    prefix = {}

    def corner(k, lo, hi):
        """corner k's (bits of k: d, h, w) inputs over channels lo:hi and its weight."""
        bits = [(k >> (nd - 1 - d)) & 1 for d in range(nd)]
        g, w = wide[:, lo:hi], None
        for d, b in enumerate(bits):
            key = (lo, tuple(bits[:d + 1]))
            if d < nd - 1 and key in prefix:
                g = prefix[key]
            else:
                g = np.take(g, taps[d][b], axis=x.ndim - nd + d)
                if d < nd - 1:
                    prefix[key] = g
            lam = taps[d][2 + b].reshape((-1,) + (1,) * (nd - 1 - d))
            w = lam if w is None else w * lam        # (d * h) * w, rounded per product
        return g, (w.astype(np.float64) if f32 else w)

    def product(k, lo, hi):
        g, w = corner(k, lo, hi)
        if f32:
            np.multiply(g, w, out=g)
            return g.astype(np.float32)
        return g * w

    # (which of the innermost pair's two products is fused, as measured: the vector body
    # fuses the last for float/double, the first for a half; the tail the first, the second
    # for float16)
    parts = []
    with np.errstate(all="ignore"):
        if cv:   # vector body: fma(x0, w0, fma(x1, w1, ... fma(x[n-1], w[n-1], x[n-2] * w[n-2])))
            lo, hi = (n - 1, n - 2) if half else (n - 2, n - 1)
            acc = _fma_step(*corner(hi, 0, cv), product(lo, 0, cv))
            for k in range(n - 3, -1, -1):
                acc = _fma_step(*corner(k, 0, cv), acc)
            parts.append(acc)
        if cv < c:   # scalar tail: fma(x[n-1], w[n-1], ... fma(x2, w2, fma(x0, w0, x1 * w1)))
            lo, hi = (1, 0) if half == "float16" else (0, 1)
            acc = _fma_step(*corner(lo, cv, c), product(hi, cv, c))
            for k in range(2, n):
                acc = _fma_step(*corner(k, cv, c), acc)
            parts.append(acc)
    return parts[0] if len(parts) == 1 else np.concatenate(parts, axis=1)


def _nested_linear_forward(x, taps):
    f32 = x.dtype == np.float32
    for k, (i0, i1, l0, l1) in enumerate(reversed(taps)):       # innermost dim first
        axis = x.ndim - 1 - k
        shape = [1] * x.ndim
        shape[axis] = -1
        w0, w1 = l0.reshape(shape), l1.reshape(shape)
        if f32:
            x, w0 = x.astype(np.float64), w0.astype(np.float64)
        a, b = np.take(x, i0, axis=axis), np.take(x, i1, axis=axis)
        with np.errstate(all="ignore"):
            x = _fma_step(a, w0, (b * w1).astype(l1.dtype))
    return x


# Note [Linear upsampling backward order]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# cpu_upsample_linear_backward (UpSampleKernel.cpp) walks the outputs in order and adds,
# per output, lambda products times grad_output into its 2, 4 or 8 inputs (slots in the
# order (h0, w0), (h0, w1), (h1, w0), (h1, w1); an edge output whose two inputs coincide
# adds twice), in opmath_t (float for float16 / bfloat16, rounded once). Its build
# contracts ``grad_input += (h * w) * g`` into a fused multiply-add (and the source index
# ``scale * (dst + 0.5) - 0.5`` too). The transposed matrices' matmuls round differently.
# Here the contributions are ranked per input position in that order and applied in
# rounds (one vectorised fused multiply-add over distinct positions each).
@_functools.lru_cache(maxsize=16)
def _linear_backward_plan(taps, acc, in_sizes):
    """linear_backward_kernel's contributions (input position, weight, output), sorted by
    their rank among those to the same position, and the rounds' bounds (cached: read
    only)."""
    nd = len(taps)
    out = tuple(t[0] for t in taps)
    index, weight = 0, None
    for d, t in enumerate(taps):
        i0, i1, l0, l1 = linear_taps(*t, acc)
        shape = [1] * (2 * nd)
        shape[d], shape[nd + d] = len(i0), 2
        index = index * in_sizes[d] + np.stack([i0, i1], -1).reshape(shape)
        lam = np.stack([l0, l1], -1).reshape(shape)
        weight = lam if weight is None else weight * lam
    index = np.broadcast_to(index, weight.shape).reshape(-1)
    weight = weight.reshape(-1)
    source = np.broadcast_to(np.arange(_numel(out)).reshape(out + (1,) * nd),
                             out + (2,) * nd).reshape(-1)
    by_rank, bounds = _rounds(index)
    return index[by_rank], weight[by_rank][:, None], source[by_rank], bounds


def linear_backward_kernel(grad, mats, in_sizes):
    nd = len(mats)
    acc = np.float32 if _half(grad) else grad.dtype
    out = grad.shape[-nd:]
    index, weight, source, bounds = _linear_backward_plan(
        tuple(m.taps for m in mats), np.dtype(acc).name, tuple(in_sizes))
    g = grad.astype(acc, copy=False).reshape((-1, _numel(out))).T   # (outputs, planes)
    gi = np.zeros((_numel(tuple(in_sizes)), g.shape[1]), dtype=acc)
    if acc == np.float32:   # (_fma's float32 route, the operands widened once)
        weight, g = weight.astype(np.float64), g.astype(np.float64)
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            at = index[lo:hi]
            gi[at] = weight[lo:hi] * g[source[lo:hi]] + gi[at]
    else:
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            at = index[lo:hi]
            gi[at] = _fma(weight[lo:hi], g[source[lo:hi]], gi[at])
    gi = gi.T.copy().reshape(grad.shape[:-nd] + tuple(in_sizes))
    return gi.astype(grad.dtype, copy=False)


def cubic_matrix(out, in_size, scale, align_corners, A=-0.75):
    src = _source_index(out, in_size, scale, align_corners, True)
    i = np.floor(src).astype(np.int64)
    t = src - i

    def cc1(x):
        return ((A + 2) * x - (A + 3)) * x * x + 1

    def cc2(x):
        return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A

    coeffs = (cc2(t + 1), cc1(t), cc1(1 - t), cc2(2 - t))
    m = np.zeros((out, in_size))
    rows = np.arange(out)
    for k, c in enumerate(coeffs):
        np.add.at(m, (rows, np.clip(i - 1 + k, 0, in_size - 1)), c)
    m = m.view(LinearMatrix)
    m.cubic = (out, in_size, scale, align_corners)
    return m


@_functools.lru_cache(maxsize=64)
def cubic_taps(out, in_size, scale, align_corners, dtype, fused=True):
    """aten's HelperInterpCubic::compute_indices_weights in ``dtype`` (opmath_t): the four
    inputs per output (clamped) and their weights, (4, out) each (read only). As built:
    the source index fused (scale * (dst + 0.5) - 0.5, unclamped), floored as a float
    (floorf); in the cubic_convolutions all but the last step fused (measured): cc1(x) =
    fma(A + 2, x, -(A + 3)) * x * x + 1, cc2(x) = fma(fma(A, x, -5A), x, 8A) * x - 4A."""
    dt = np.dtype(dtype)
    t = dt.type
    o = np.arange(out)
    if align_corners:
        src = (t(in_size - 1) / t(out - 1) if out > 1 else t(0)) * o.astype(dt)
    else:
        s = t(1.0 / scale) if scale and scale > 0 else t(in_size) / t(out)
        src = _fma_half_step(s, out, dt.name) if fused else \
            s * (o.astype(dt) + t(0.5)) - t(0.5)
    i0 = np.minimum(np.floor(src.astype(np.float32)).astype(np.int64), in_size - 1)
    lam = np.minimum(np.maximum(src - i0.astype(dt), t(0)), t(1))
    A = -0.75
    fma = _fma3 if fused else (lambda a, b, c: a * b + c)

    def cc1(x):
        return fma(t(A + 2), x, t(-(A + 3))) * x * x + t(1)

    def cc2(x):
        return fma(fma(t(A), x, t(-5 * A)), x, t(8 * A)) * x - t(4 * A)

    x2 = t(1) - lam
    w = np.stack([cc2(lam + t(1)), cc1(lam), cc1(x2), cc2(x2 + t(1))])
    idx = np.clip(i0 + np.arange(-1, 3)[:, None], 0, in_size - 1)
    idx.flags.writeable = w.flags.writeable = False
    return idx, w


def _fma3(a, b, c):
    """a * b + c rounded once, float32 (through float64) or float64 (``_fma``)."""
    dt = np.result_type(a, b, c)
    a, b, c = (np.asarray(v, dt) for v in (a, b, c))
    if dt == np.float32:
        return (a.astype(np.float64) * b + c).astype(np.float32)
    return _fma(a, b, c)


# Note [Bicubic upsampling order]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# The forward is aten's generic kernel (InterpolateNonSeparable, interp_size 4): per
# output, over the 4 rows (weights wh) of the 4 columns (weights ww) each, innermost
# first, ``t = x0 * w0; t += x_k * w_k`` in opmath_t, as built (measured):
# fma(x3, w3, fma(x2, w2, fma(x0, w0, x1 * w1))); the weights are stored in scalar_t
# (rounded for float16/bfloat16). The backward (upsample_bicubic2d_backward_out_frame in
# UpSampleBicubic2d.cpp, a file built without FMA: nothing is fused there, not even its
# source index and coefficients) walks the outputs in order and, per output, its taps
# column-major (x tap outer, y tap inner): grad_input[clamped] += (g * wy) * wx in
# opmath_t (a float buffer for a half, rounded once). Here the contributions are ranked
# per input position in that order and applied in rounds, as linear_backward_kernel.
def cubic_forward_kernel(x, mats):
    half = _half(x)
    op = np.dtype(np.float32 if half else x.dtype)
    (ih, wh), (iw, ww) = (cubic_taps(*m.cubic, op.name) for m in mats)
    if half:
        wh, ww = (w.astype(x.dtype).astype(op) for w in (wh, ww))
    f32 = op == np.float32
    data = x.astype(np.float64 if f32 else op)
    if f32:
        wh, ww = wh.astype(np.float64), ww.astype(np.float64)
    with np.errstate(all="ignore"):
        # (the inner sums depend on the input row only: computed once per row, then taken)
        t = _fma_step(np.take(data, iw[0], axis=-1), ww[0],
                      (np.take(data, iw[1], axis=-1) * ww[1]).astype(op))
        for k in (2, 3):
            t = _fma_step(np.take(data, iw[k], axis=-1), ww[k], t)
        if f32:
            t = t.astype(np.float64)
        ts = [np.take(t, ih[j], axis=-2) for j in range(4)]
        wh = wh[:, :, None]
        out = _fma_step(ts[0], wh[0], (ts[1] * wh[1]).astype(op))
        for j in (2, 3):
            out = _fma_step(ts[j], wh[j], out)
    return np.ascontiguousarray(out.astype(x.dtype, copy=False))


@_functools.lru_cache(maxsize=16)
def _cubic_backward_plan(taps, acc):
    """cubic_backward_kernel's contributions (input position, y weight, x weight, output)
    sorted by rank among those to the same position, and the rounds' bounds."""
    (ih, wh), (iw, ww) = (cubic_taps(*t, acc, False) for t in taps)
    oh, ow = ih.shape[1], iw.shape[1]
    in_w = taps[1][1]
    # order: output (oy, ox) row-major, then ii (x tap), then jj (y tap)
    shape = (oh, ow, 4, 4)
    index = (ih.T[:, None, None, :] * in_w + iw.T[None, :, :, None])
    wy = np.broadcast_to(wh.T[:, None, None, :], shape).reshape(-1)
    wx = np.broadcast_to(ww.T[None, :, :, None], shape).reshape(-1)
    source = np.broadcast_to(np.arange(oh * ow).reshape(oh, ow, 1, 1), shape).reshape(-1)
    index = np.broadcast_to(index, shape).reshape(-1)
    by_rank, bounds = _rounds(index)
    return index[by_rank], wy[by_rank], wx[by_rank], source[by_rank], bounds


def cubic_backward_kernel(grad, mats, in_sizes):
    acc = np.dtype(np.float32 if _half(grad) else grad.dtype)
    out = grad.shape[-2:]
    if tuple(out) == tuple(in_sizes):       # (aten: same size, a copy)
        return np.ascontiguousarray(grad)
    index, wy, wx, source, bounds = _cubic_backward_plan(
        tuple(m.cubic for m in mats), acc.name)
    g = grad.astype(acc, copy=False).reshape((-1, out[0] * out[1])).T.copy()   # (outputs,
    gi = np.zeros((in_sizes[0] * in_sizes[1], g.shape[1]), dtype=acc)          # planes)
    with np.errstate(all="ignore"):
        v = g[source]                       # every (g * wy) * wx, in rank order
        v *= wy[:, None]
        v *= wx[:, None]
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            if hi - lo == len(gi):
                gi += v[lo:hi]
            else:
                gi[index[lo:hi]] += v[lo:hi]
    gi = gi.T.copy().reshape(grad.shape[:-2] + tuple(in_sizes))
    return gi.astype(grad.dtype, copy=False)


_SINF_S = tuple(float.fromhex(h) for h in ("-0x1.555545995a603p-3", "0x1.1107605230bc4p-7",
                                             "-0x1.994eb3774cf24p-13"))
_SINF_C = tuple(float.fromhex(h) for h in ("0x1p0", "-0x1.ffffffd0c621cp-2",
                                           "0x1.55553e1068f19p-5", "-0x1.6c087e89a359dp-10",
                                           "0x1.99343027bf8c3p-16"))


def _sinf(y):
    """glibc's sinf (ARM optimized-routines: reduce_fast, sinf_poly in double) for float32
    |y| < 120: what std::sin of a float gives PyTorch's kernels (0 of 300000 arguments in
    [0, 3 pi] differ from libm's; the correctly rounded sine differs in ~1.3%)."""
    x = y.astype(np.float64)
    r = x * float.fromhex("0x1.45F306DC9C883p+23")           # (2 / pi) * 2**24
    n = (r.astype(np.int32) + 0x800000) >> 24
    x = x - n * float.fromhex("0x1.921FB54442D18p0")
    x2 = x * x
    xs = x * np.array([1.0, -1.0, -1.0, 1.0])[n & 3]
    x3 = xs * x2
    sine = (xs + x3 * _SINF_S[0]) + (x3 * x2) * (_SINF_S[1] + x2 * _SINF_S[2])
    c = [v * np.where(n & 2, -1.0, 1.0) for v in _SINF_C]   # (the 2nd table: -cos)
    x4 = x2 * x2
    cosine = ((c[0] + x2 * c[1]) + x4 * c[2]) + (x4 * x2) * (c[3] + x2 * c[4])
    return np.where(n & 1, cosine, sine).astype(np.float32)


@_functools.lru_cache(maxsize=64)
def aa_taps(out, in_size, scale, align_corners, kind, dtype):
    """aten's _compute_indices_min_size_weights_aa in scalar_t ``dtype`` (float32 or
    float64): per output the first input, the tap count and the normalised weights
    (out, max_interp_size), zero past the count (read only). Products with a double
    literal (scale * (i + 0.5), ... + 0.5) are computed in double and rounded to scalar_t;
    the cubic filter's steps are fused here but the last multiplication of cc1 (inlined
    otherwise than in the non-antialiased kernel; measured on one-hot inputs)."""
    dt = np.dtype(dtype)
    t = dt.type
    interp = {"linear": 2, "cubic": 4, "lanczos": 6}[kind]
    if align_corners:
        s = t(in_size - 1) / t(out - 1) if out > 1 else t(0)
    else:
        s = t(1.0 / scale) if scale and scale > 0 else t(in_size) / t(out)
    support = t(interp * 0.5 * float(s)) if s >= 1.0 else t(interp * 0.5)
    size = int(np.ceil(support)) * 2 + 1
    invscale = t(1.0 / float(s)) if s >= 1.0 else t(1.0)
    i = np.arange(out)
    center = (np.float64(s) * (i + 0.5)).astype(dt)
    xmin = np.maximum(np.trunc((center - support).astype(np.float64) + 0.5), 0).astype(np.int64)
    xsize = np.minimum(np.trunc((center + support).astype(np.float64) + 0.5).astype(np.int64),
                       in_size) - xmin
    xsize = np.clip(xsize, 0, size)
    j = np.arange(size)
    arg = ((((j[None, :] + xmin[:, None]).astype(dt) - center[:, None]).astype(np.float64)
            + 0.5) * np.float64(invscale)).astype(dt)
    x = np.abs(arg)
    with np.errstate(all="ignore"):
        if kind == "linear":
            w = np.where(x < t(1), t(1) - x, t(0)).astype(dt)
        elif kind == "cubic":
            a = -0.5
            c1 = _fma3(_fma3(t(a + 2), x, t(-(a + 3))) * x, x, t(1))
            c2 = _fma3(_fma3(_fma3(t(a), x, t(-5 * a)), x, t(8 * a)), x, t(-4 * a))
            w = np.where(x < t(1), c1, np.where(x < t(2), c2, t(0))).astype(dt)
        else:
            # (sinc_filter(x) in scalar_t (a float's sine: glibc's sinf); sinc_filter(x / 3.0)
            # deduces double; their product in double)
            px = x * t(np.pi)
            sin = _sinf(px) if dt == np.float32 else np.sin(px)
            sx = np.where(x == 0, t(1), sin / px)
            px3 = (x.astype(np.float64) / 3.0) * np.pi
            sx3 = np.where(x == 0, 1.0, np.sin(px3) / px3)
            w = np.where(x < t(3), sx.astype(np.float64) * sx3, 0.0).astype(dt)
    w = np.where(j[None, :] < xsize[:, None], w, t(0))
    total = np.zeros(out, dt)
    for k in range(size):                      # (summed in order from 0)
        total = total + w[:, k]
    w = np.where(total[:, None] != 0, w / np.where(total == 0, t(1), total)[:, None], w)
    xmin.flags.writeable = xsize.flags.writeable = w.flags.writeable = False
    return xmin, xsize, w


# Note [Antialiased upsampling order]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# antialias=True runs aten's separable passes (upsample_separable_Nd_kernel_impl): the
# width first, then the height on its rounded result, each skipped when that size is
# unchanged; per output ``t = x[xmin] * w0; t += x[xmin + j] * w_j`` for j < xsize in
# scalar_t, with aa_taps' weights. As built (measured per tap count): the loop's steps go
# in 16-byte groups (4 float / 2 double lanes: products rounded, then added in order) and
# the remaining m % lanes steps of m = xsize - 1 are fused multiply-adds. The backward
# (upsample_separable_Nd_backward_aa)
# walks the outputs in order, per output its rows then columns: grad_input +=
# (wx * wy) * g, fused; here ranked per input position and applied in rounds.
def aa_forward_kernel(x, mats):
    y = x
    for axis, m in ((-1, mats[1]), (-2, mats[0])):
        if m.aa[0] != x.shape[axis]:
            y = _aa_pass(y, aa_taps(*m.aa, x.dtype.name), axis)
            if axis == -2 and y.shape[-1] == 1 and not (x.shape[1] > 1 and (
                    layout._strides_like_channels_last(x.shape, layout._elem_strides(x)))):
                # (aten's vertical pass reads its taps at the loop's start; with a width of
                # 1 TensorIterator's inner loop runs down the height (not so over the
                # channels of a channels-last input), so every row repeats row 0)
                y = np.broadcast_to(y[..., :1, :], y.shape)
    return np.array(y, copy=True) if y is x else np.ascontiguousarray(y)


def _aa_pass(y, taps, axis):
    xmin, xsize, w = taps
    f32 = y.dtype == np.float32
    src = y.astype(np.float64) if f32 else y
    shape = [1] * y.ndim
    shape[axis] = -1
    lanes = 16 // y.itemsize
    m = xsize - 1
    plain_upto = (m - m % lanes).reshape(shape)      # (steps 1..this: unfused, SLP)
    valid = xsize.reshape(shape)
    acc = None
    with np.errstate(all="ignore"):
        for j in range(w.shape[1]):
            g = np.take(src, np.minimum(xmin + j, y.shape[axis] - 1), axis=axis)
            wj = w[:, j].reshape(shape)
            if f32:
                wj = wj.astype(np.float64)
            if acc is None:
                np.multiply(g, wj, out=g)
                acc = g.astype(y.dtype)
                continue
            p = (g * wj).astype(y.dtype)
            step = np.where(j <= plain_upto, acc + p, _fma_step(g, wj, acc))
            acc = np.where(j < valid, step, acc)
    return acc


@_functools.lru_cache(maxsize=16)
def _aa_backward_plan(taps, dtype):
    """aa_backward_kernel's contributions (input position, weight wx * wy, output) in
    rank order and the rounds' bounds."""
    (ymin, ysize, wy), (xmin, xsize, wx) = (aa_taps(*t, dtype) for t in taps)
    oh, ow, sy, sx = len(ymin), len(xmin), wy.shape[1], wx.shape[1]
    in_w = taps[1][1]
    shape = (oh, ow, sy, sx)
    yy = ymin[:, None, None, None] + np.arange(sy)[None, None, :, None]
    xx = xmin[None, :, None, None] + np.arange(sx)[None, None, None, :]
    valid = (np.arange(sy)[None, None, :, None] < ysize[:, None, None, None]) & \
        (np.arange(sx)[None, None, None, :] < xsize[None, :, None, None])
    valid = np.broadcast_to(valid, shape).reshape(-1)
    index = np.broadcast_to(yy * in_w + xx, shape).reshape(-1)[valid]
    weight = np.broadcast_to(wx[None, :, None, :] * wy[:, None, :, None],
                             shape).reshape(-1)[valid]
    source = np.broadcast_to(np.arange(oh * ow).reshape(oh, ow, 1, 1), shape).reshape(-1)[valid]
    by_rank, bounds = _rounds(index)
    return index[by_rank], weight[by_rank], source[by_rank], bounds


def aa_backward_kernel(grad, mats, in_sizes):
    dt = grad.dtype
    out = grad.shape[-2:]
    index, weight, source, bounds = _aa_backward_plan(tuple(m.aa for m in mats), dt.name)
    g = grad.reshape((-1, out[0] * out[1])).T          # (outputs, planes)
    gi = np.zeros((in_sizes[0] * in_sizes[1], g.shape[1]), dtype=dt)
    with np.errstate(all="ignore"):
        if dt == np.float32:        # (every product exact in float64, each step rounded)
            p = g.astype(np.float64)[source] * weight.astype(np.float64)[:, None]
            for lo, hi in zip(bounds[:-1], bounds[1:]):
                at = index[lo:hi]
                gi[at] = (p[lo:hi] + gi[at]).astype(np.float32)
        else:
            for lo, hi in zip(bounds[:-1], bounds[1:]):
                at = index[lo:hi]
                gi[at] = _fma(weight[lo:hi, None], g[source[lo:hi]], gi[at])
    return gi.T.copy().reshape(grad.shape[:-2] + tuple(in_sizes))


def antialias_matrix(out, in_size, scale, align_corners, kind):
    """PyTorch's antialiased interpolation weights (_compute_weights_aa): the filter
    (``kind``: "linear" a triangle, "cubic" with A = -0.5, "lanczos" Lanczos-3) stretched
    by the downscale factor, taps clipped to the input and normalised to sum 1 per output."""
    if align_corners:
        s = (in_size - 1) / (out - 1) if out > 1 else 0.0
    else:
        s = 1.0 / scale if scale else in_size / out
    interp = {"linear": 2, "cubic": 4, "lanczos": 6}[kind]
    support = interp * 0.5 * s if s >= 1.0 else interp * 0.5
    invscale = 1.0 / s if s >= 1.0 else 1.0

    def filt(x):
        x = np.abs(x)
        if kind == "linear":
            return np.where(x < 1.0, 1.0 - x, 0.0)
        if kind == "lanczos":
            return np.where(x < 3.0, np.sinc(x) * np.sinc(x / 3.0), 0.0)
        a = -0.5
        return np.where(x < 1.0, ((a + 2) * x - (a + 3)) * x * x + 1,
                        np.where(x < 2.0, (((x - 5) * x + 8) * x - 4) * a, 0.0))

    m = np.zeros((out, in_size))
    for i in range(out):
        center = s * (i + 0.5)
        xmin = max(int(center - support + 0.5), 0)
        xmax = min(int(center + support + 0.5), in_size)
        w = filt((np.arange(xmin, xmax) - center + 0.5) * invscale)
        total = w.sum()
        m[i, xmin:xmax] = w / total if total != 0.0 else w
    m = m.view(LinearMatrix)
    m.aa = (out, in_size, scale, align_corners, kind)
    return m


# Note [Nearest upsampling indices]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# aten has two forward kernels with their own index rules and the backward a third:
# - the generic one (HelperInterpNearest[Exact]; 1-d always, 2-d and 3-d unless below):
#   the scale in opmath_t (double for float64), nearest floorf(scale * dst), nearest-exact
#   floorf(max(scale * (dst + 0.5) - 0.5, 0) + 0.5) (the first fused, the + 0.5 in double);
#   floorf rounds a double to float first;
# - the channels-last one (2-d when channels-last with C > 3 or the output's H + W <= 128,
#   3-d when channels-last-3d with C > 3) and the backward: nearest_idx, the identity when
#   the sizes agree and dst >> 1 when the output is twice the input (whatever the scale),
#   else floorf(dst * scale) with a float scale; nearest_exact_idx floorf((dst + 0.5) *
#   scale), the product in double.
def nearest_map(out, in_size, scale, exact, path="idx", dtype=np.float32):
    """aten's source index per output, ``path`` "generic" (opmath_t ``dtype``) or "idx"."""
    o = np.arange(out)
    if path == "idx":
        if not exact and out == in_size:
            return o
        if not exact and out == 2 * in_size:
            return o >> 1
        s = np.float32(1.0 / scale) if scale and scale > 0 else \
            np.float32(in_size) / np.float32(out)
        if exact:
            src = ((o + 0.5) * np.float64(s)).astype(np.float32)
        else:
            src = o.astype(np.float32) * s
    else:
        dt = np.dtype(dtype)
        t = dt.type
        s = t(1.0 / scale) if scale and scale > 0 else t(in_size) / t(out)
        if exact:
            src = np.maximum(_fma_half_step(s, out, dt.name), t(0))
            src = (src.astype(np.float64) + 0.5).astype(np.float32)
        else:
            src = (s * o.astype(dt)).astype(np.float32)
    return np.minimum(np.floor(src).astype(np.int64), in_size - 1)


# ---- adaptive max pooling, max unpooling ---------------------------------------------------
def adaptive_max_pool2d_kernel(x, output_size):
    """Windows [floor(i*in/out), ceil((i+1)*in/out)); values and flat plane indices of the
    first maximum (NaN wins)."""
    h, w = x.shape[-2:]
    oh, ow = output_size
    planes = x.reshape(-1, h * w)
    vals = np.empty((planes.shape[0], oh * ow), dtype=x.dtype)
    idx = np.empty((planes.shape[0], oh * ow), dtype=np.int64)
    for i in range(oh):
        h0, h1 = (i * h) // oh, -((-(i + 1) * h) // oh)
        for j in range(ow):
            w0, w1 = (j * w) // ow, -((-(j + 1) * w) // ow)
            pos = (np.arange(h0, h1)[:, None] * w + np.arange(w0, w1)).reshape(-1)
            win = planes[:, pos]
            a = _window_argmax(win, axis=1)
            vals[:, i * ow + j] = win[np.arange(win.shape[0]), a]
            idx[:, i * ow + j] = pos[a]
    shape = x.shape[:-2] + (oh, ow)
    return vals.reshape(shape), idx.reshape(shape)


def _adaptive_max_pool2d_backward_kernel(grad, self, indices):
    from .raw import RAW
    adaptive_grad_check("adaptive_max_pool2d", grad)
    return max_pool2d_backward(RAW, grad, self.shape, indices)


ADAPTIVE_MAX_POOL2D_BACKWARD = defop(
    "adaptive_max_pool2d_backward", "AdaptiveMaxPool2DBackwardBackward0",
    _adaptive_max_pool2d_backward_kernel, inputs=("grad_output", "self"),
    params=("indices",),
    grads={"grad_output": lambda F, grad, indices: _max_pool_double_backward(F, grad, indices),
           "self": lambda F, grad, self: F.zeros_like(self)},
    jvp=_adaptive_max_pool2d_backward_jvp)
ADAPTIVE_MAX_POOL2D = defop(
    "adaptive_max_pool2d", "AdaptiveMaxPool2DBackward0", adaptive_max_pool2d_kernel,
    params=("output_size",), outputs=("result", "indices"), diff_outputs=(0,),
    grads={"self": lambda F, grads, self, indices: F.adaptive_max_pool2d_backward(
        grads[0], self, _values(indices))}, jvp="transpose",
    layout=layout.suggested_format)


def max_unpool2d_kernel(x, indices, output_size):
    b = _numel(x.shape[:-2])
    out = np.zeros((b, output_size[0] * output_size[1]), dtype=x.dtype)
    n = _numel(x.shape[-2:])   # (explicit: an empty batch has no -1)
    np.put_along_axis(out, indices.reshape(b, n), x.reshape(b, n), 1)
    return out.reshape(x.shape[:-2] + tuple(output_size))


def max_unpool2d_backward(F, grad, indices, output_size, self_sizes):
    b = _numel(tuple(self_sizes[:-2]))
    n = output_size[0] * output_size[1]
    per = _numel(tuple(self_sizes[-2:]))   # (explicit: an empty batch has no -1)
    flat = (indices.reshape(b, per) + np.arange(b).reshape(-1, 1) * n).reshape(-1)
    return F.reshape(F.index_select(F.reshape(grad, (-1,)), 0, flat), tuple(self_sizes))


MAX_UNPOOL2D = defop("max_unpool2d", "MaxUnpool2DBackward0", max_unpool2d_kernel,
                     params=("indices", "output_size"),
                     grads={"self": max_unpool2d_backward}, jvp="transpose")


# Note [Ops without a forward rule]: an aten op whose derivatives.yaml entry has no forward
# formula (conv_tbc, grid_sampler_2d/3d, _embedding_bag, multi_margin_loss,
# multilabel_margin_loss_forward, _ctc_loss, _pack_padded_sequence, cholesky) refuses a
# tangent in VariableType, before its kernel's argument checks run: the public function
# calls ``refuse_unsupported`` where PyTorch's composite / Python layer hands over to that
# op (after the checks made above it), its entry's rule keeps the error for other paths.
def _fw_not_implemented(name):
    """The jvp rule of an op PyTorch gives no forward derivative: its error, verbatim."""
    from ..autograd.forward_ad import NOT_SUPPORTED

    def rule(F):
        raise NotImplementedError(rule.message)
    rule.message = NOT_SUPPORTED.format(name)
    return rule


def _not_differentiable(name):
    """The formula of a torch::autograd::NotImplemented node (an aten op without a
    derivative)."""
    def formula(F, grad):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")
    return formula


def _fallback_refused(name):
    """The forward rule of an aten op without a derivatives.yaml entry: the autograd
    fallback's refusal of a dual argument."""
    from ..autograd.forward_ad import FALLBACK

    def rule(F):
        raise NotImplementedError(FALLBACK.format(name))
    return rule


# ---- conv_tbc: a 1-d convolution on (time, batch, channel) input --------------------------
# Note [conv_tbc]
# ~~~~~~~~~~~~~~~
# aten's conv_tbc (fairseq's layout): input (T, B, Cin), weight (kw, Cin, Cout), bias (Cout,),
# out[t] = bias + sum_k input[t + k - pad] @ weight[k] with zeros outside the input, so
# T_out = T + 2 pad - kw + 1; a negative pad crops the input. It is the (B, Cin, T)
# convolution with the weight as (Cout, Cin, kw): kernel and formulas are the convolution's
# with the axes moved, one ConvTbcBackward0 node. PyTorch has no forward-mode rule for it.
def _tbc_geometry(pad, t):
    """(the convolution's padding, the input's crop on each side)."""
    return max(pad, 0), min(max(-pad, 0), t)


def conv_tbc_kernel(x, w, b, pad):
    """aten's loop: the output starts as the bias, then one addmm_ per kernel tap (so a
    float16/bfloat16 or float32 output is rounded after each tap, as PyTorch's)."""
    from .linalg import _addmm
    t_in, batch, cin = x.shape
    kw, cout = w.shape[0], w.shape[2]
    t_out = max(t_in + 2 * pad - kw + 1, 0)
    out = np.empty((t_out, batch, cout), x.dtype)
    out[...] = b
    for k in range(kw):
        i_shift, o_shift = max(0, k - pad), max(0, pad - k)
        t = min(t_in + pad - k, t_out) - o_shift
        if t > 0:
            o = out[o_shift:o_shift + t].reshape(t * batch, cout)
            o[...] = _addmm(o, x[i_shift:i_shift + t].reshape(t * batch, cin), w[k], 1, 1)
    return out


def conv_tbc_backward(F, grad, self, weight, bias, pad):
    t, n, cin = self.shape
    if not grad.shape[0]:        # an empty output (T + 2 pad < kw)
        return F.zeros(tuple(self.shape), grad), F.zeros(tuple(weight.shape), grad), \
            F.sum(grad, (0, 1))
    p, crop = _tbc_geometry(pad, t)
    g = F.permute(grad, (1, 2, 0))                            # (B, Cout, T_out)
    x = F.permute(F.narrow(self, 0, crop, t - 2 * crop) if crop else self, (1, 2, 0))
    w = F.permute(weight, (2, 1, 0))
    gx = F.permute(convolution_input_grad(F, g, w, (1,), (p,), (1,), False, (0,), 1,
                                          (n, cin, t - 2 * crop)), (2, 0, 1))
    if crop:
        z = F.zeros((crop, n, cin), gx)
        gx = F.cat([z, gx, z], 0)
    gw = convolution_weight_grad(F, g, x, (1,), (p,), (1,), False, 1, tuple(w.shape))
    return gx, F.permute(gw, (2, 1, 0)), F.sum(grad, (0, 1))


CONV_TBC = defop("conv_tbc", "ConvTbcBackward0", conv_tbc_kernel,
                 inputs=("self", "weight", "bias"), params=("pad",),
                 backward_all=conv_tbc_backward, jvp=_fw_not_implemented("conv_tbc"))


def conv_tbc(input, weight, bias, pad=0):
    """``torch.conv_tbc`` / ``F.conv_tbc`` (Note [conv_tbc])."""
    from ._common import _finish
    from .._tensor import Tensor
    for i, (name, v) in enumerate((("self", input), ("weight", weight), ("bias", bias))):
        if not isinstance(v, Tensor):
            raise TypeError(f"conv_tbc(): argument '{'input' if i == 0 else name}' (position "
                            f"{i + 1}) must be Tensor, not {type(v).__name__}")
    from ._common import _state
    if _state.fw:  # (Note [Ops without a forward rule])
        from ..autograd.forward_ad import refuse_unsupported
        refuse_unsupported(CONV_TBC, input, weight, bias)
    x, w, b = input._data, weight._data, bias._data
    if x.ndim != 3:
        raise RuntimeError("Input must have 3 dims: time, batch, in_channel")
    if w.ndim != 3:
        raise RuntimeError("Weight tensor must have 3 dims: kernel_width, in_channels, "
                           "out_channels.")
    if b.ndim != 1:
        raise RuntimeError("Bias must be 1-D")
    if x.shape[2] != w.shape[1]:
        raise RuntimeError("Input dim 2 (input channels) is not == dim 1 in the weight tensor")
    if b.shape[0] != w.shape[2]:
        raise RuntimeError("Bias size must equal dim 2 in the weight tensor (output channels).")
    t_out = x.shape[0] + 2 * pad - w.shape[0] + 1
    if t_out < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {t_out}: "
                           f"[{t_out}, {x.shape[1]}, {w.shape[2]}]")
    if x.dtype != w.dtype:
        from .. import _dtypes
        raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                           f"{_dtypes.scalar_name(input.dtype)} and "
                           f"{_dtypes.scalar_name(weight.dtype)}")
    _conv_tbc_views(x, w.shape[0], int(pad))
    return _finish(CONV_TBC, (input, weight, bias), (int(pad),),
                   conv_tbc_kernel(x, w, b, int(pad)))


def _conv_tbc_views(x, kw, pad):
    """aten's conv_tbc views each time slice ``input.narrow(0, s, t)`` as (t * batch,
    channels): an input whose strides do not allow it raises the view error."""
    from .. import _errors
    from .layout import view_strides
    ilen, batch, planes = x.shape
    olen = ilen - kw + 1 + pad * 2
    real_pad = (olen - ilen + kw - 1) // 2
    strides = tuple(s // x.itemsize for s in x.strides)
    for k in range(kw):
        o_shift = max(0, real_pad - k)
        t = min(ilen + real_pad - k, olen) - o_shift
        if t > 0 and view_strides((t, batch, planes), strides, (t * batch, planes)) is None:
            raise RuntimeError(_errors.VIEW_STRIDE)


# ---- grid_sampler_2d / grid_sampler_3d -----------------------------------------------------
# Note [grid_sampler entries]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~
# F.grid_sample is one entry per dimensionality, as aten's grid_sampler_2d / _3d
# (GridSampler2DBackward0 / GridSampler3DBackward0). Every output point reads a few taps of
# the input (4 bilinear / 8 trilinear corners, 1 nearest, 16 bicubic) with weights that are
# functions of the grid; ``_grid_taps`` gives, per tap, the flat input position of every
# point, its weight (0 for a tap outside the input) and the weight's derivative in each grid
# coordinate, as aten's *_set_grad helpers compute them (0 on the clipped border). The
# kernel sums the weighted gathers; the backward scatters grad * weight into the input (one
# bincount on arrays) and sums grad * tap * d(weight) into the grid. The source coordinate
# is piecewise linear in the grid, so in graph mode it is recorded as that line (its value
# plus the grid's displacement times the slope): weights and their derivatives are then
# differentiable functions of the grid and the input, and the double backward is exact.
# PyTorch has no forward-mode rule for either op.
GRID_MODES = ("bilinear", "nearest", "bicubic")
GRID_PADDINGS = ("zeros", "border", "reflection")


def _grid_unnormalize(g, size, align_corners):
    """(the source coordinate, d coordinate / d grid)."""
    if align_corners:
        return (g + 1) * ((size - 1) / 2), (size - 1) / 2
    return ((g + 1) * size - 1) / 2, size / 2


def _grid_clip(c, size):
    return np.clip(c, 0, size - 1), (c > 0) & (c < size - 1)


def _grid_reflect(c, twice_low, twice_high):
    if twice_low == twice_high:
        return np.zeros_like(c), np.zeros_like(c)
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    x = c - low
    sign = np.where(x < 0, -1, 1)
    x = np.abs(x)
    extra = np.fmod(x, span)
    even = np.floor(x / span) % 2 == 0
    return np.where(even, extra + low, span - extra + low), np.where(even, sign, -sign)


def _grid_pad(c, size, padding, align_corners):
    """aten's compute_coordinates (set_grad): (coordinate, its derivative factor)."""
    if padding == 1:
        return _grid_clip(c, size)
    if padding == 2:
        c, r = _grid_reflect(c, 0, 2 * (size - 1)) if align_corners else \
            _grid_reflect(c, -1, 2 * size - 1)
        c, m = _grid_clip(c, size)
        return c, r * m
    return c, 1


def _cubic_coefficients(t, A=-0.75):
    """aten's get_cubic_upsample_coefficients: weights of the taps at -1, 0, 1, 2."""
    def cc1(x):
        return ((x * (A + 2) - (A + 3)) * x) * x + 1

    def cc2(x):
        return ((x * A - 5 * A) * x + 8 * A) * x - 4 * A
    return cc2(t + 1), cc1(t), cc1(1 - t), cc2(2 - t)


def _cubic_coefficients_grad(t, A=-0.75):
    """d(weights) / dt: aten's get_cubic_coefficients_grad (which gives -d/dt) negated."""
    x0, x1, x2, x3 = -1 - t, -t, 1 - t, 2 - t
    return ((x0 * (3 * A) + 10 * A) * x0 + 8 * A,
            (x1 * (3 * (A + 2)) + 2 * (A + 3)) * x1,
            (x2 * (-3 * (A + 2)) + 2 * (A + 3)) * x2,
            (x3 * (-3 * A) + 10 * A) * x3 - 8 * A)


def _grid_taps(F, grid, spatial, mode, padding, align_corners):
    """[(flat input positions (N, P), weight (N, P), [d weight / d grid_d (N, P)])] per tap;
    weights are F values (tensors of the grid in graph mode), positions arrays."""
    g = getattr(grid, "_data", grid)
    n, nd = g.shape[0], g.shape[-1]
    gf = g.reshape(n, -1, nd)
    sizes = tuple(spatial)[::-1]                      # (W, H[, D]): grid's x first
    graph = not F.is_raw
    gt = F.reshape(grid, (n, gf.shape[1], nd)) if graph else None
    dims = []                                         # per dim: [(position, weight, dw)]
    for d in range(nd):
        c, slope = _grid_unnormalize(gf[..., d], sizes[d], align_corners)
        if mode != 2:
            c, factor = _grid_pad(c, sizes[d], padding, align_corners)
            slope = slope * np.asarray(factor, dtype=g.dtype)
        slope = np.broadcast_to(np.asarray(slope, dtype=g.dtype), c.shape)
        if mode == 1:                                  # nearest: round half to even
            dims.append([(np.rint(c).astype(np.int64), None, None)])
            continue
        lo = np.floor(c)
        if graph:   # the coordinate as its line through the grid point (Note [grid_sampler...])
            ct = F.constant(c, gt) + (F.select(gt, 2, d) - F.constant(gf[..., d], gt)) * \
                F.constant(slope, gt)
            t = ct - F.constant(lo, gt)
            k = F.constant(slope, gt)
        else:
            t, k = (c - lo).astype(g.dtype, copy=False), slope
        base = lo.astype(np.int64)
        if mode == 0:
            dims.append([(base, 1 - t, -k), (base + 1, t, k)])
        else:
            ws, dws = _cubic_coefficients(t), _cubic_coefficients_grad(t)
            taps = []
            for i in range(4):           # each integer tap padded on its own, as aten's
                pos = _grid_pad((lo + (i - 1)).astype(g.dtype), sizes[d], padding,
                                align_corners)[0]
                taps.append((np.trunc(pos).astype(np.int64), ws[i], dws[i] * k))
            dims.append(taps)
    out = []
    for combo in _it.product(*dims):
        ok = np.ones(gf.shape[:2], bool)
        lin = np.zeros(gf.shape[:2], np.int64)
        for d in reversed(range(nd)):
            pos = combo[d][0]
            ok &= (pos >= 0) & (pos < sizes[d])
            lin = lin * sizes[d] + np.clip(pos, 0, sizes[d] - 1)
        okc = F.constant(ok, gt) if graph else ok.astype(g.dtype)
        if mode == 1:
            w, dw = okc, None
        else:
            w, dw = okc, []
            for d in range(nd):
                w = w * combo[d][1]
                other = okc * combo[d][2]
                for e in range(nd):
                    if e != d:
                        other = other * combo[e][1]
                dw.append(other)
        out.append((lin, w, dw))
    return out


def grid_sampler_kernel(x, grid, interpolation_mode, padding_mode, align_corners):
    from .raw import RAW
    n, c = x.shape[:2]
    flat = x.reshape(n, c, -1)
    out = np.zeros((n, c) + (_prod(grid.shape[1:-1]),), dtype=x.dtype)
    for lin, w, _ in _grid_taps(RAW, grid, x.shape[2:], interpolation_mode, padding_mode,
                                align_corners):
        out += np.take_along_axis(flat, lin[:, None, :], 2) * w[:, None, :]
    return out.reshape((n, c) + grid.shape[1:-1])


def grid_sampler_backward(F, grad, input, grid, interpolation_mode, padding_mode,
                          align_corners):
    shape = tuple(input.shape)
    n, c = shape[:2]
    size = _prod(shape[2:])
    taps = _grid_taps(F, grid, shape[2:], interpolation_mode, padding_mode, align_corners)
    gflat = F.reshape(grad, (n, c, -1))
    p = gflat.shape[2]
    if F.is_raw:     # every tap's grad * weight added into the input at once
        rows = (np.arange(n * c).reshape(n, c, 1) * size)
        pos = np.concatenate([rows + lin[:, None, :] for lin, _, _ in taps], 2)
        src = np.concatenate([gflat * w[:, None, :] for _, w, _ in taps], 2)
        gi = np.bincount(pos.ravel(), src.ravel(), n * c * size)
        gi = gi.astype(gflat.dtype, copy=False).reshape(shape)
    else:
        pos = np.concatenate([np.broadcast_to(lin[:, None, :], (n, c, p)) for lin, _, _ in taps],
                             2)
        src = F.cat([gflat * F.unsqueeze(w, 1) for _, w, _ in taps], 2)
        gi = F.reshape(F.scatter_add(F.zeros((n, c, size), gflat), 2, pos, src), shape)
    if interpolation_mode == 1:                      # nearest: the grid gets zeros
        return gi, F.zeros(tuple(grid.shape), gflat)
    flat = F.reshape(input, (n, c, size))
    comps = None
    for lin, _, dw in taps:
        v = F.sum(gflat * F.gather(flat, 2, np.broadcast_to(lin[:, None, :], (n, c, p))), 1)
        terms = [v * d for d in dw]
        comps = terms if comps is None else [a + b for a, b in zip(comps, terms)]
    return gi, F.reshape(F.stack(comps, 2), tuple(grid.shape))


GRID_SAMPLER_2D, GRID_SAMPLER_3D = (
    defop(f"grid_sampler_{k}d", f"GridSampler{k}DBackward0", grid_sampler_kernel,
          inputs=("input", "grid"),
          params=("interpolation_mode", "padding_mode", "align_corners"),
          backward_all=grid_sampler_backward, jvp=_fw_not_implemented(f"grid_sampler_{k}d"))
    for k in (2, 3))


def _grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners, nd=None):
    from ._common import _finish
    from .. import _dtypes
    from .._errors import shape_str
    x, g = input._data, grid._data
    from ._common import _state
    if _state.fw:  # (Note [Ops without a forward rule]: grid_sampler picks by input.dim())
        from ..autograd.forward_ad import refuse_unsupported
        two = nd == 2 or (nd is None and x.ndim == 4)
        refuse_unsupported(GRID_SAMPLER_2D if two else GRID_SAMPLER_3D, input, grid)
    if x.dtype != g.dtype:
        raise RuntimeError(f"expected scalar type {_dtypes.scalar_name(input.dtype)} but found "
                           f"{_dtypes.scalar_name(grid.dtype)}")
    from ._common import _size_dim  # (Tensor.size(dim): a 0-d tensor has no dim 0)
    if x.shape[_size_dim(0, x.ndim)] != g.shape[_size_dim(0, g.ndim)]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, "
                           f"but got input with sizes [{shape_str(x.shape)}] and grid with "
                           f"sizes [{shape_str(g.shape)}]")
    if g.shape[-1] != x.ndim - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {x.ndim - 2} in last "
                           f"dimension, but got grid with sizes [{shape_str(g.shape)}]")
    if x.ndim != g.ndim or x.ndim not in ((4, 5) if nd is None else (nd + 2,)):
        which = "4D or 5D" if nd is None else f"{nd + 2}D"
        raise RuntimeError(f"grid_sampler(): expected {which} input and grid with same number of "
                           f"dimensions, but got input with sizes [{shape_str(x.shape)}] and "
                           f"grid with sizes [{shape_str(g.shape)}]")
    if interpolation_mode == 2 and x.ndim != 4:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    op = GRID_SAMPLER_2D if x.ndim == 4 else GRID_SAMPLER_3D
    params = (int(interpolation_mode), int(padding_mode), bool(align_corners))
    return _finish(op, (input, grid), params, grid_sampler_kernel(x, g, *params))


def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    """``torch.grid_sampler``: modes as aten's enums (Note [grid_sampler entries])."""
    return _grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)


def grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners):
    return _grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners, 2)


def grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners):
    return _grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners, 3)


# ---- binary_cross_entropy_with_logits ---------------------------------------------------
# aten's loss (reduction as its enum: 0 none, 1 mean, 2 sum): (1 - t) x - log_sigmoid(x) lw,
# lw = (pos_weight - 1) t + 1; weight and pos_weight are not differentiated (PyTorch refuses
# them requiring grad); the backward formulas are FunctionsManual's.
def _log_sigmoid(F, x):
    """at::log_sigmoid, one op (its kernel: a half input through float32)."""
    from .pointwise import LOG_SIGMOID, logsigmoid
    return np.asarray(LOG_SIGMOID.kernel(np.asarray(x))) if F.is_raw else logsigmoid(x)


def _loss_reduce(F, v, reduction):
    return F.mean(v) if reduction == 1 else F.sum(v) if reduction == 2 else v


def bce_logits_kernel(x, t, weight, pos_weight, reduction):
    """aten's binary_cross_entropy_with_logits step by step, each in-place step computed
    in its operands' common dtype and written back: log_sigmoid(input) (input's dtype),
    ``.mul_((pos_weight - 1).mul(target).add_(1))``, then ``(1 - target).mul_(input)
    .sub_(log_sigmoid_input)`` (target's dtype) and ``.mul_(weight)``."""
    from .pointwise import LOG_SIGMOID
    from .raw import RAW
    ls = np.asarray(LOG_SIGMOID.kernel(x))  # (aten's kernel: float16 through float32)
    if pos_weight is not None:
        lw = _step(np.multiply, pos_weight - 1, t)
        ls = _step(np.multiply, ls, lw + 1, ls.dtype)
    loss = _step(np.multiply, 1 - t, x, t.dtype if t.dtype.kind in "fcV" else None)
    loss = _step(np.subtract, loss, ls, loss.dtype)
    if weight is not None:
        loss = _step(np.multiply, loss, weight, loss.dtype)
    return np.asarray(_loss_reduce(RAW, loss, reduction)).astype(loss.dtype, copy=False)


def _step(ufunc, a, b, into=None):
    """ufunc(a, b) computed in PyTorch's common dtype of the two arrays (a 0-d operand
    does not promote a dimensioned one of its category), cast into ``into``."""
    from .. import _dtypes
    a, b = np.asarray(a), np.asarray(b)
    ct = a.dtype
    if b.dtype != ct:
        ct = _dtypes.numpy_dtype_of(_dtypes.binary_result_dtype(
            _dtypes.from_numpy(a.dtype), a.ndim == 0, _dtypes.from_numpy(b.dtype),
            b.ndim == 0))
    if into is not None and ct.kind == "c" and np.dtype(into).kind != "c":
        # (an in-place step's can_cast check: a complex target or weight into a real loss)
        raise RuntimeError(f"result type {_dtypes.scalar_name(_dtypes.from_numpy(ct))} can't "
                           f"be cast to the desired output type "
                           f"{_dtypes.scalar_name(_dtypes.from_numpy(np.dtype(into)))}")
    out = np.asarray(ufunc(a.astype(ct, copy=False), b.astype(ct, copy=False)))
    return out if into is None else out.astype(into, copy=False)


def _bce_logits_dself(F, grad, self, target, weight, pos_weight, reduction):
    """FunctionsManual's binary_cross_entropy_with_logits_backward, in its order: the
    derivative times grad, then weight, then over the element count for a mean (so the
    last node of a gradient under create_graph is PyTorch's: DivBackward1 for a mean)."""
    step = _bce_step(F, in_place=F.is_raw or not _grad_enabled())
    if pos_weight is not None:
        pt = F.constant(pos_weight, self) * target
        g = step(step(step(pt + 1, target, "sub"), F.sigmoid(self), "mul"), pt, "sub")
    else:
        g = step(F.sigmoid(self), target, "sub")
    g = step(g, grad, "mul")
    _bce_logits_in_place(F, g, weight, reduction)
    if weight is not None:
        g = g * F.constant(weight, self)
    return g / _prod(self.shape) if reduction == 1 else g


def _grad_enabled():
    from ..autograd.grad_mode import is_grad_enabled
    return is_grad_enabled()


def _bce_step(F, in_place):
    """The steps of the bce-with-logits formulas: without grad mode PyTorch's are in place
    (``input.sigmoid().sub_(target)``, ``.mul_(grad)``), each computed in the operands'
    common dtype and written back into the first's (a float16 input's float32 tangent gives
    a float16 tangent, rounded at each step), else out of place (promoted)."""
    def step(a, b, op):
        r = a - b if op == "sub" else a * b
        if in_place:
            da = a.dtype if F.is_raw else a._data.dtype
            if (r.dtype if F.is_raw else r._data.dtype) != da:
                r = F.cast(r, da)
        return r
    return step


def _bce_logits_in_place(F, g, weight, reduction, target=False):
    """PyTorch's formulas divide the product by the count in place (``.div_(numel)``) and
    multiply it by weight in place too (self's only without grad mode, target's always)."""
    if not F.is_raw:
        from ..autograd.grad_mode import is_grad_enabled
        if reduction == 1 or (weight is not None and (target or not is_grad_enabled())):
            _written_in_place(F, g)


def _written_in_place(F, g):
    """A formula's product ``g`` that PyTorch's C++ then scales in place (``g.mul_(weight)``,
    ``g.div_(numel)``): one whose tangent is a zero tensor (forward over reverse: the
    gradient's, times factors without tangents) refuses the write."""
    if not F.is_raw:
        from ..autograd.forward_ad import refuse_zero_tangent_write
        refuse_zero_tangent_write(g)


def _bce_logits_dtarget(F, grad, self, target, weight, pos_weight, reduction):
    """binary_cross_entropy_with_logits_target_backward (its order, as _bce_logits_dself)."""
    if pos_weight is not None:  # (in place in any grad mode)
        step = _bce_step(F, in_place=True)
        g = step(step(_log_sigmoid(F, -self), _log_sigmoid(F, self) *
                      F.constant(pos_weight, self), "sub"), grad, "mul")
    else:
        g = -self * grad
    _bce_logits_in_place(F, g, weight, reduction, target=True)
    if weight is not None:
        g = g * F.constant(weight, self)
    return g / _prod(target.shape) if reduction == 1 else g


def _bce_logits_jvp(F, self, self_t, target, target_t, weight, pos_weight, reduction):
    """The two backward formulas on the tangents, a missing one's term a zero tensor of its
    primal's dtype (the formulas' zero-tensor case), which promotes the sum."""
    from .dispatch import _plus_zero_dtype
    d = None
    if self_t is not None:
        d = _bce_logits_dself(F, self_t, self, target, weight, pos_weight, 0)
    if target_t is not None:
        e = _bce_logits_dtarget(F, target_t, self, target, weight, pos_weight, 0)
        d = _plus_zero_dtype(F, e, self) if d is None else d + e
    elif d is not None:
        d = _plus_zero_dtype(F, d, target)
    return _loss_reduce(F, d, reduction)


BCE_WITH_LOGITS = defop(
    "binary_cross_entropy_with_logits", "BinaryCrossEntropyWithLogitsBackward0",
    bce_logits_kernel, inputs=("self", "target"), params=("weight", "pos_weight", "reduction"),
    grads={"self": lambda F, grad, self, target, weight, pos_weight, reduction:
           _bce_logits_dself(F, grad, self, target, weight, pos_weight, reduction),
           "target": lambda F, grad, self, target, weight, pos_weight, reduction:
           _bce_logits_dtarget(F, grad, self, target, weight, pos_weight, reduction)},
    jvp=_bce_logits_jvp, layout=layout.operand(1))


def binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction):
    """aten::binary_cross_entropy_with_logits (reduction as its enum)."""
    from ._common import _finish
    from ..autograd.grad_mode import is_grad_enabled
    for name, w in (("weight", weight), ("pos_weight", pos_weight)):
        if w is not None and w.requires_grad and is_grad_enabled():
            raise RuntimeError(f"The function 'binary_cross_entropy_with_logits' is not "
                               f"differentiable with respect to argument '{name}'. This input "
                               "cannot have requires_grad True.")
    w = None if weight is None else weight._data
    pw = None if pos_weight is None else pos_weight._data
    if pw is not None:  # ((pos_weight - 1).mul(target): TensorIterator's shape check)
        from .dispatch import check_broadcast
        check_broadcast(pw.shape, target._data.shape)
    params = (w, pw, int(reduction))
    out = bce_logits_kernel(input._data, target._data, *params)
    if target._data.dtype == input._data.dtype or not _is_float(target._data):
        return _finish(BCE_WITH_LOGITS, (input, target), params, out)
    # (aten's (1 - target).mul_(input)...: the loss in target's dtype, the gradients cast
    # back to each operand's)
    from ._common import _reduce_all
    out = out.astype(target._data.dtype)
    r = _finish(BCE_WITH_LOGITS, (input, target), params, out)
    if r._grad_fn is not None:
        _reduce_all(r._grad_fn, (input, target))
    return r


# ---- embedding bags ----------------------------------------------------------------------
def _bag_layout(bag, n_bags):
    """(n_bags, longest) positions into the kept entries, -1 where a bag is shorter."""
    counts = np.bincount(bag, minlength=n_bags)
    longest = max(int(counts.max()) if counts.size else 0, 1)
    dense = np.full((n_bags, longest), -1, dtype=np.int64)
    pos = np.arange(bag.size) - np.concatenate([[0], np.cumsum(counts)[:-1]])[bag]
    dense[bag, pos] = np.arange(bag.size)
    return dense, counts


def embedding_bag_kernel(weight, per_sample_weights, indices, bag, valid, mode, n_bags,
                         scale_grad_by_freq=False):
    """Rows of weight summed / averaged / maxed per bag over the valid entries (padding_idx
    ones are not), empty bags giving zeros; with max, the weight row of each maximum as a
    second output (-1 for an empty bag)."""
    idx, bg = indices[valid], bag[valid]
    rows = weight[idx]
    if per_sample_weights is not None:
        rows = rows * per_sample_weights[valid][:, None]
    d = weight.shape[1]
    if mode != "max":
        out = np.zeros((n_bags, d), dtype=weight.dtype)
        np.add.at(out, bg, rows)
        if mode == "mean":
            counts = np.bincount(bg, minlength=n_bags)
            out /= np.maximum(counts, 1).astype(weight.dtype)[:, None]
        return out, np.zeros((0,), dtype=np.int64)
    dense, counts = _bag_layout(bg, n_bags)
    ext = np.concatenate([rows, np.full((1, d), -np.inf, dtype=weight.dtype)])
    vals = ext[dense]                                        # (B, L, D); -1 -> the -inf row
    arg = np.argmax(vals, axis=1)                            # first maximum, as PyTorch
    out = np.take_along_axis(vals, arg[:, None, :], 1)[:, 0, :]
    which = np.take_along_axis(dense, arg, 1)                # (B, D) entry positions
    max_idx = np.where(which >= 0, idx[np.maximum(which, 0)], -1)
    out[counts == 0] = 0
    return out, max_idx.astype(np.int64)


# Note [Bag frequency]
# ~~~~~~~~~~~~~~~~~~~~
# scale_grad_by_freq divides each entry's gradient by how often its index occurs in the
# input, as documented and as F.embedding and PyTorch's CUDA/MPS bags do. PyTorch 2.13's CPU
# bag backward reads the count of the wrong slot (``counts[indices_data[i]]`` with i the
# unique-group counter: pytorch/pytorch#190063, fixed after 2.13 by #190264), so a
# once-occurring index sorting after a repeated one gets the repeated one's count there; we
# follow the documented rule (tests compare with F.embedding's scaling in torch).
def _embedding_bag_rows(F, g, indices, bag, valid, mode, n_bags, scale_grad_by_freq):
    """Each entry's bag gradient, scaled (mean, scale_grad_by_freq)."""
    rows_g = F.index_select(g, 0, bag)                      # each entry's bag gradient
    scale = valid.astype(np.float64)
    if mode == "mean":
        counts = np.bincount(bag[valid], minlength=n_bags)
        scale = scale / np.maximum(counts, 1)[bag]
    if scale_grad_by_freq:    # 1 / (occurrences of the entry's index): Note [Bag frequency]
        scale = scale / np.bincount(indices)[indices]
    return rows_g * F.constant(scale[:, None], g)


def embedding_bag_weight_grad(F, grads, per_sample_weights, indices, bag, valid, mode,
                              n_bags, scale_grad_by_freq, max_indices, weight_sizes):
    g = grads[0]
    if mode == "max":
        mi = np.asarray(getattr(max_indices, "_data", max_indices))
        gm = g * F.constant((mi >= 0).astype(np.float64), g)
        return F.scatter_add(F.zeros(tuple(weight_sizes), g), 0, np.maximum(mi, 0), gm)
    rows_g = _embedding_bag_rows(F, g, indices, bag, valid, mode, n_bags, scale_grad_by_freq)
    if per_sample_weights is not None:
        rows_g = rows_g * F.unsqueeze(per_sample_weights, 1)
    return F.index_add(F.zeros(tuple(weight_sizes), g), 0, indices, rows_g)


def embedding_bag_per_sample_weights_grad(F, grads, weight, indices, bag, valid, mode,
                                          n_bags, scale_grad_by_freq):
    rows_g = _embedding_bag_rows(F, grads[0], indices, bag, valid, mode, n_bags,
                                 scale_grad_by_freq)
    return F.sum(F.index_select(weight, 0, indices) * rows_g, (1,))


# (one formula per input, as PyTorch's: weight is saved only where per_sample_weights
# requires grad, its formula's alone; an in-place change of weight then raises)
EMBEDDING_BAG = defop(
    "_embedding_bag", "EmbeddingBagBackward0", embedding_bag_kernel,
    inputs=("weight", "per_sample_weights"),
    params=("indices", "bag", "valid", "mode", "n_bags", "scale_grad_by_freq"),
    outputs=("result", "max_indices"),
    diff_outputs=(0,), grads={"weight": embedding_bag_weight_grad,
                              "per_sample_weights": embedding_bag_per_sample_weights_grad},
    jvp=_fw_not_implemented("_embedding_bag"))


# ---- margin losses with PyTorch's fused nodes ---------------------------------------------
def _values(v):
    """An array from a formula argument (an ndarray, or a Tensor in graph mode)."""
    return np.asarray(getattr(v, "_data", v))


def _reduce_array(loss, reduction):
    if reduction == "mean":  # (no sample: aten's kernels never write the result, whose
        # memory is then whatever empty() gave; 0 here, what a fresh page holds)
        return np.asarray(loss.mean()) if loss.size else np.zeros((), loss.dtype)
    if reduction == "sum":
        return np.asarray(loss.sum())
    return loss


def _grad_per_sample(F, grad, n, reduction):
    """(N, 1) upstream gradient of each sample's loss."""
    if reduction == "none":
        return F.unsqueeze(grad, 1)
    g = grad / n if reduction == "mean" and n else grad  # (no sample: an empty gradient)
    return F.reshape(g, (1, 1))


def multi_margin_loss_kernel(x, target, p, margin, weight, reduction):
    refuse_half("multi_margin_loss_cpu_kernel", x)
    # (one sample for a 1-d input, of one class for a 0-d one; the unreduced loss has the
    # target's shape: () for a 0-d target, as aten's)
    shape = target.shape
    x = x.reshape(1, -1) if x.ndim <= 1 else x
    n, c = x.shape
    target = target.reshape(-1)
    rows = np.arange(n)
    z = margin - x[rows, target][:, None] + x
    z[rows, target] = 0
    h = np.maximum(z, 0)
    if p == 2:
        h = h * h
    if weight is not None:
        h = h * weight[target][:, None]
    out = _reduce_array((h.sum(1) / c).astype(x.dtype), reduction).astype(x.dtype)
    return out.reshape(shape) if reduction == "none" else out


# Note [Margin losses' backward ops]: PyTorch's multi_margin_loss_backward and
# multilabel_margin_loss_backward are aten ops without a derivatives.yaml entry: under
# create_graph the gradient gets a torch::autograd::NotImplemented node whose backward
# raises "derivative for aten::..._backward is not implemented", and a dual incoming
# gradient is refused by the autograd fallback. So the formulas compute on arrays (aten's
# loops) and, in graph mode, record that node.
def _margin_backward_node(op, F, grad, self, params, raw_fn):
    g, x = _values(grad), _values(self)
    out = raw_fn(g, x)
    if F.is_raw:
        return out
    from ._common import _finish
    return _finish(op, (grad, self), params, out)


def multi_margin_loss_backward(F, grad, self, target, p, margin, weight, reduction):
    """aten's multi_margin_loss_backward: h = g (p == 1) or 2 g z (p == 2) with z = margin -
    x[y] + x[i] > 0, g = 1 / (N C) for a mean, else 1 / C (in x's dtype), times w[y]; at
    i != y the h of an active margin (else 0), at y 0 minus each h in turn; then times the
    incoming gradient (each sample's, unreduced)."""
    return _margin_backward_node(
        MULTI_MARGIN_LOSS_BACKWARD, F, grad, self, (target, p, margin, weight, reduction),
        lambda g, x: _multi_margin_grad(g, x, target, p, margin, weight, reduction))


def _multi_margin_grad(grad, x, target, p, margin, weight, reduction):
    shape = x.shape
    x = x.reshape(1, -1) if x.ndim <= 1 else x
    n, c = x.shape
    dt = x.dtype.type
    target = np.reshape(target, -1)
    rows = np.arange(n)
    g = dt(1.0 / (n * c)) if reduction == "mean" and n * c else dt(1.0 / max(c, 1))
    z = dt(margin) - x[rows, target][:, None] + x
    active = (z > 0) & (np.arange(c)[None, :] != target[:, None])
    h = np.broadcast_to(g, x.shape) if p == 1 else 2 * g * z
    if weight is not None:
        h = h * np.asarray(weight, dtype=x.dtype)[target][:, None]
    out = np.where(active, h, dt(0)).astype(x.dtype, copy=False)
    out[rows, target] = 0
    out[rows, target] = -np.cumsum(out, 1, dtype=x.dtype)[:, -1]  # (0 - h - h ... in turn)
    grad = np.asarray(grad, dtype=x.dtype)
    d = grad.reshape(n, 1) if reduction == "none" else grad.reshape(1, 1)
    return (out * d).reshape(shape)


MULTI_MARGIN_LOSS_BACKWARD = defop(
    "multi_margin_loss_backward", "torch::autograd::NotImplemented", None,
    inputs=("grad_output", "self"), params=("target", "p", "margin", "weight", "reduction"),
    grads={"grad_output": _not_differentiable("multi_margin_loss_backward"),
           "self": _not_differentiable("multi_margin_loss_backward")},
    jvp=_fallback_refused("multi_margin_loss_backward"))


MULTI_MARGIN_LOSS = defop(
    "multi_margin_loss", "MultiMarginLossBackward0", multi_margin_loss_kernel,
    params=("target", "p", "margin", "weight", "reduction"),
    grads={"self": multi_margin_loss_backward},
    jvp=_fw_not_implemented("multi_margin_loss"),
    backward_op=("aten::multi_margin_loss_backward", ".", False))


def multilabel_margin_loss_kernel(x, target, reduction):
    refuse_half("multilabel_margin_loss_forward_out_frame", x)
    if x.ndim <= 1:   # one sample (a 0-d input: of one class): a 0-d loss
        loss, t = multilabel_margin_loss_kernel(x.reshape(1, -1), target.reshape(1, -1),
                                                reduction)
        return loss.reshape(()), t.reshape(x.shape)
    n, c = x.shape
    valid = np.cumprod(target >= 0, axis=1).astype(bool)     # up to the first -1
    safe = np.where(valid, target, 0)
    is_target = np.zeros((n, c), dtype=bool)
    rows = np.repeat(np.arange(n), c).reshape(n, c)
    is_target[rows[valid], safe[valid]] = True
    xy = np.take_along_axis(x, safe, 1)                          # (N, J)
    diff = np.maximum(1 - xy[:, :, None] + x[:, None, :], 0)     # (N, J, C)
    diff = diff * (valid[:, :, None] & ~is_target[:, None, :])
    loss = (diff.sum((1, 2)) / c).astype(x.dtype)
    return _reduce_array(loss, reduction).astype(x.dtype), is_target.astype(x.dtype)


def multilabel_margin_loss_backward(F, grad, self, target, reduction, is_target):
    """aten's: -g at each target y_j and +g at each non-target i per active margin 1 - x[y_j]
    + x[i] > 0 (g = 1 / C, over N too for a mean), times the incoming gradient."""
    return _margin_backward_node(
        MULTILABEL_MARGIN_LOSS_BACKWARD, F, grad, self, (target, reduction, _values(is_target)),
        lambda g, x: _multilabel_margin_grad(g, x, target, reduction, is_target))


def _multilabel_margin_grad(grad, self, target, reduction, is_target):
    from .raw import RAW as F
    if len(self.shape) <= 1:
        return F.reshape(_multilabel_margin_grad(
            F.reshape(grad, (1,)) if reduction == "none" else grad,
            F.reshape(self, (1, _numel(self.shape))), target.reshape(1, -1), reduction,
            _values(is_target).reshape(1, -1)), tuple(self.shape))
    xv = _values(self)
    n, c = xv.shape
    valid = np.cumprod(target >= 0, axis=1).astype(bool)
    safe = np.where(valid, target, 0)
    t = _values(is_target).astype(bool)
    xy = np.take_along_axis(xv, safe, 1)
    active = (1 - xy[:, :, None] + xv[:, None, :] > 0) & valid[:, :, None] & ~t[:, None, :]
    coef = active.sum(1).astype(np.float64)                     # + at each non-target i
    np.add.at(coef, (np.repeat(np.arange(n), c).reshape(n, c)[valid], safe[valid]),
              -active.sum(2)[valid])                            # - at each target y_j
    return F.constant(coef / c, grad) * _grad_per_sample(F, grad, n, reduction)


MULTILABEL_MARGIN_LOSS_BACKWARD = defop(
    "multilabel_margin_loss_backward", "torch::autograd::NotImplemented", None,
    inputs=("grad_output", "self"), params=("target", "reduction", "is_target"),
    grads={"grad_output": _not_differentiable("multilabel_margin_loss_backward"),
           "self": _not_differentiable("multilabel_margin_loss_backward")},
    jvp=_fallback_refused("multilabel_margin_loss_backward"))


MULTILABEL_MARGIN_LOSS = defop(
    "multilabel_margin_loss_forward", "MultilabelMarginLossBackward0",
    multilabel_margin_loss_kernel, params=("target", "reduction"),
    outputs=("result", "is_target"), diff_outputs=(0,),
    grads={"self": lambda F, grads, self, target, reduction, is_target:
           multilabel_margin_loss_backward(F, grads[0], self, target, reduction, is_target)},
    jvp=_fw_not_implemented("multilabel_margin_loss_forward"),
    backward_op=("aten::multilabel_margin_loss_backward", ".", False))

# ---- CTC loss (one CtcLossBackward0 entry, PyTorch's CPU algorithm) -------------------------
# Note [CTC entry]
# ~~~~~~~~~~~~~~~~
# _ctc_loss runs the alpha recursion of Graves et al. in log space over the blank-extended
# targets (NumPy, the batch and the states in parallel, one step per frame) and returns the
# negative log-likelihood per sample and log_alpha (N, T, 2 * max_target + 1). Its backward
# is PyTorch's ctc_loss_backward: the beta recursion, the log-sum of alpha * beta per class
# and frame, and grad = (exp(lp) - exp(log_ab + nll - lp)) * grad_out -- the gradient
# through the log_softmax the loss expects before it. Like PyTorch's, that backward is an
# op without a derivative (node NotImplemented under create_graph; no forward AD).
def _ctc_extend(targets, target_lengths, n, blank):
    """(N, S) blank-extended labels, S = 2 * max_target + 1, and the rows' target lengths;
    targets padded (N, S_max) or concatenated (sum(target_lengths),)."""
    tl = np.asarray(target_lengths, dtype=np.int64).reshape(-1)
    tg = np.asarray(targets, dtype=np.int64)
    if tg.ndim == 2:
        rows = [tg[i, :tl[i]] for i in range(n)]
    else:
        starts = np.concatenate([[0], np.cumsum(tl)[:-1]]).astype(np.int64)
        rows = [tg.reshape(-1)[s:s + ln] for s, ln in zip(starts, tl)]
    s_max = 2 * int(max(tl.max() if tl.size else 0, 0)) + 1
    ext = np.full((n, s_max), blank, dtype=np.int64)
    for i, r in enumerate(rows):
        ext[i, 1:2 * len(r) + 1:2] = r
    return ext, tl


def _logaddexp3(a, b, c):
    """log(e^a + e^b + e^c) with PyTorch's max shift (0 when all are -inf)."""
    m = np.maximum(np.maximum(a, b), c)
    m = np.where(m == -np.inf, 0.0, m)
    return np.log(np.exp(a - m) + np.exp(b - m) + np.exp(c - m)) + m


def ctc_loss_kernel(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
    refuse_half("ctc_loss_cpu", log_probs)
    lp = log_probs                                           # (T, N, C)
    t_max, n = lp.shape[:2]
    ext, tl = _ctc_extend(targets, target_lengths, n, blank)
    il = np.asarray(input_lengths, dtype=np.int64).reshape(-1)
    s_max = ext.shape[1]
    states = np.arange(s_max)
    valid = states[None, :] <= 2 * tl[:, None]               # (N, S)
    skip = np.zeros((n, s_max), dtype=bool)                  # s-2 -> s allowed
    skip[:, 2:] = ext[:, 2:] != ext[:, :-2]
    rows = np.arange(n)[:, None]
    neginf = np.array(-np.inf, dtype=lp.dtype)
    la = np.full((n, t_max, s_max), neginf, dtype=lp.dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        la[:, 0, 0] = lp[0, np.arange(n), blank]
        has = tl > 0
        la[has, 0, 1] = lp[0, np.arange(n), ext[:, 1]][has]
        for t in range(1, t_max):
            prev = la[:, t - 1]
            a2 = np.concatenate([np.full((n, 1), neginf), prev[:, :-1]], 1)
            a3 = np.where(skip, np.concatenate([np.full((n, 2), neginf), prev[:, :-2]], 1)
                          if s_max > 2 else neginf, neginf)
            new = _logaddexp3(prev, a2, a3) + lp[t][rows, ext]
            on = valid & (t < il)[:, None]
            la[:, t] = np.where(on, new, neginf)
        last = la[np.arange(n), np.maximum(il - 1, 0)]          # (N, S)
        l1 = last[np.arange(n), 2 * tl]
        l2 = np.where(tl > 0, last[np.arange(n), np.maximum(2 * tl - 1, 0)], neginf)
        m = np.maximum(l1, l2)
        m = np.where(m == -np.inf, 0.0, m)
        nll = -(np.log(np.exp(l1 - m) + np.exp(l2 - m)) + m)
    return nll.astype(lp.dtype), la


def ctc_loss_backward_kernel(grad, log_probs, neg_log_likelihood, log_alpha, targets,
                             input_lengths, target_lengths, blank, zero_infinity):
    lp, la, nll = log_probs, log_alpha, neg_log_likelihood
    t_max, n, c = lp.shape
    ext, tl = _ctc_extend(targets, target_lengths, n, blank)
    il = np.asarray(input_lengths, dtype=np.int64).reshape(-1)
    s_max = ext.shape[1]
    states = np.arange(s_max)
    valid = states[None, :] <= 2 * tl[:, None]
    skip = np.zeros((n, s_max), dtype=bool)                  # s+2 -> s allowed
    skip[:, :-2] = ext[:, :-2] != ext[:, 2:]
    rows = np.arange(n)[:, None]
    neginf = np.array(-np.inf, dtype=lp.dtype)
    lb = np.full((n, t_max, s_max), neginf, dtype=lp.dtype)
    log_ab = np.full((t_max, n, c), neginf, dtype=lp.dtype)  # log sum alpha*beta per class
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        for t in range(t_max - 1, -1, -1):
            at_end = il - 1 == t
            emit = lp[t][rows, ext]
            nxt = lb[:, t + 1] if t + 1 < t_max else np.full((n, s_max), neginf)
            b2 = np.concatenate([nxt[:, 1:], np.full((n, 1), neginf)], 1)
            b3 = np.where(skip, np.concatenate([nxt[:, 2:], np.full((n, 2), neginf)], 1)
                          if s_max > 2 else neginf, neginf)
            new = _logaddexp3(nxt, b2, b3) + emit
            init = np.where((states[None, :] == 2 * tl[:, None]) |
                            ((states[None, :] == 2 * tl[:, None] - 1) & (tl[:, None] > 0)),
                            emit, neginf)
            cur = np.where(at_end[:, None], init, np.where((t < il - 1)[:, None] & valid,
                                                           new, neginf))
            lb[:, t] = cur
            ab = np.where(valid & (t < il)[:, None], la[:, t] + cur, neginf)
            np.logaddexp.at(log_ab[t], (np.broadcast_to(rows, ext.shape), ext), ab)
        g = (np.exp(lp) - np.exp(log_ab + nll[None, :, None] - lp)) * grad[None, :, None]
        g = np.where((np.arange(t_max)[:, None] < il[None, :])[:, :, None], g, 0)
        if zero_infinity:
            g = np.where((nll == np.inf)[None, :, None], 0, g)
    return g.astype(lp.dtype)


def _ctc_not_implemented(F, grad):
    raise RuntimeError("derivative for aten::_ctc_loss_backward is not implemented")


CTC_LOSS_BACKWARD = defop(
    "_ctc_loss_backward", "torch::autograd::NotImplemented", ctc_loss_backward_kernel,
    inputs=("grad", "log_probs"),
    params=("neg_log_likelihood", "log_alpha", "targets", "input_lengths", "target_lengths",
            "blank", "zero_infinity"),
    grads={"grad": _ctc_not_implemented, "log_probs": _ctc_not_implemented},
    jvp=_fallback_refused("_ctc_loss_backward"))  # (no derivatives.yaml entry)


def ctc_loss_backward(F, grads, log_probs, targets, input_lengths, target_lengths, blank,
                      zero_infinity, neg_log_likelihood, log_alpha):
    g = grads[0]
    nll, la = _values(neg_log_likelihood), _values(log_alpha)
    args = (targets, input_lengths, target_lengths, blank, zero_infinity)
    if hasattr(g, "_data"):                                  # create_graph: PyTorch's op
        from ._common import _finish
        out = ctc_loss_backward_kernel(g._data, log_probs._data, nll, la, *args)
        return (_finish(CTC_LOSS_BACKWARD, (g, log_probs), (nll, la) + args, out),)
    return (ctc_loss_backward_kernel(g, log_probs, nll, la, *args),)


CTC_LOSS = defop(
    "_ctc_loss", "CtcLossBackward0", ctc_loss_kernel, inputs=("log_probs",),
    params=("targets", "input_lengths", "target_lengths", "blank", "zero_infinity"),
    outputs=("neg_log_likelihood", "log_alpha"), diff_outputs=(0,),
    backward_all=ctc_loss_backward, jvp=_fw_not_implemented("_ctc_loss"))

# ---- packed sequences (one PackPaddedSequenceBackward0 entry, as aten) ----------------------
def _packed_rows(lengths, t_in, b):
    """Flat positions t * B + b (in a (t_in, B) layout) of the packed rows, and
    batch_sizes; lengths sorted in decreasing order."""
    t_max = int(lengths[0])
    batch_sizes = np.array([(lengths > t).sum() for t in range(t_max)], dtype=np.int64)
    pos = np.concatenate([t * b + np.arange(n) for t, n in enumerate(batch_sizes)])
    return pos.astype(np.int64), batch_sizes


def pack_padded_sequence_kernel(x, lengths, batch_first):
    if batch_first:
        x = np.swapaxes(x, 0, 1)
    t_in, b = x.shape[:2]
    pos, batch_sizes = _packed_rows(lengths, t_in, b)
    flat = x.reshape((t_in * b,) + x.shape[2:])
    return np.ascontiguousarray(flat[pos]), batch_sizes


def pack_padded_sequence_backward(F, grad, lengths, batch_first, input_sizes):
    """aten's _pack_padded_sequence_backward: the packed rows written back into zeros of the
    (time-major) input shape, transposed back when batch_first."""
    grad = grad[0]                              # (the batch sizes output has no gradient)
    sizes = list(input_sizes)
    if batch_first:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    t_in, b = sizes[:2]
    pos, _ = _packed_rows(lengths, t_in, b)
    flat = F.index_add(F.zeros((t_in * b,) + tuple(sizes[2:]), grad), 0, pos, grad)
    out = F.reshape(flat, tuple(sizes))
    return F.transpose(out, 0, 1) if batch_first else out


PACK_PADDED_SEQUENCE = defop(
    "_pack_padded_sequence", "PackPaddedSequenceBackward0", pack_padded_sequence_kernel,
    inputs=("input",), params=("lengths", "batch_first"),
    outputs=("result0", "result1"), diff_outputs=(0,),
    grads={"input": pack_padded_sequence_backward},
    jvp=_fw_not_implemented("_pack_padded_sequence"))

# ---- 3-d pooling and unpooling (PyTorch's nodes), kernels written for any number of dims ---
def _flat_index(coords, sizes):
    """Flat positions into a volume of ``sizes`` from per-dim integer coordinates."""
    flat = coords[0]
    for c, s in zip(coords[1:], sizes[1:]):
        flat = flat * s + c
    return flat


def max_pool_nd_kernel(x, kernel_size, stride, padding, dilation, ceil_mode):
    """Values and flat indices (into each input volume) of each window's first maximum over
    the last len(kernel_size) dims; its last NaN wins, as max_pool2d_kernel."""
    nd = len(kernel_size)
    lead, size = x.shape[:-nd], x.shape[-nd:]
    vols = x.reshape((int(np.prod(lead)),) + size)  # (explicit: an empty x has no -1)
    fill = -np.inf if x.dtype.kind in "fV" else np.iinfo(x.dtype).min
    win, out = _pool_windows(vols, kernel_size, stride, padding, dilation, ceil_mode, fill)
    flat = win.reshape(win.shape[:1 + nd] + (int(np.prod(win.shape[1 + nd:])),))
    arg = _window_argmax(flat)
    values = np.take_along_axis(flat, arg[..., None], -1)[..., 0]
    offsets = np.unravel_index(arg, kernel_size)
    coords = []
    for i in range(nd):
        o = np.arange(out[i]).reshape((-1,) + (1,) * (nd - 1 - i))
        coords.append(o * stride[i] - padding[i] + offsets[i] * dilation[i])
    indices = _flat_index(coords, size).astype(np.int64)
    return np.ascontiguousarray(values).reshape(lead + out), indices.reshape(lead + out)


def max_pool_nd_backward(F, grad, self_sizes, indices, nd):
    """Scatter each output's gradient to the input element its index names."""
    n_out, n_in = _numel(tuple(grad.shape[-nd:])), _numel(tuple(self_sizes[-nd:]))
    planes = _numel(tuple(self_sizes[:-nd]))   # (explicit: an empty output has no -1)
    g = F.reshape(grad, (planes, n_out))
    idx = F.reshape(indices, (planes, n_out))
    return F.reshape(F.scatter_add(F.zeros((g.shape[0], n_in), grad), 1, idx, g),
                     tuple(self_sizes))


MAX_POOL3D = defop(
    "max_pool3d_with_indices", "MaxPool3DWithIndicesBackward0", max_pool_nd_kernel,
    params=("kernel_size", "stride", "padding", "dilation", "ceil_mode"),
    outputs=("result", "indices"), diff_outputs=(0,),
    grads={"self": lambda F, grads, self, indices:
           max_pool_nd_backward(F, grads[0], tuple(self.shape), indices, 3)},
    jvp="transpose", layout=layout.suggested_format)


def _avg_divisor_nd(self_sizes, out, kernel_size, stride, padding, ceil_mode,
                    count_include_pad, divisor_override):
    if divisor_override:
        return np.full(out, float(divisor_override))
    nd = len(kernel_size)
    div = np.ones(())
    for i in range(nd):
        d = avg_pool_divisors(self_sizes[-nd + i], out[i], kernel_size[i], stride[i],
                              padding[i], ceil_mode, count_include_pad)
        div = np.multiply.outer(div, d)
    return div.astype(np.float64)


def avg_pool_nd_kernel(x, kernel_size, stride, padding, ceil_mode, count_include_pad,
                       divisor_override):
    nd = len(kernel_size)
    lead, size = x.shape[:-nd], x.shape[-nd:]
    vols = x.reshape((int(np.prod(lead)),) + size)  # (explicit: an empty x has no -1)
    win, out = _pool_windows(vols, kernel_size, stride, padding, (1,) * nd, ceil_mode, 0)
    div = _avg_divisor_nd(x.shape, out, kernel_size, stride, padding, ceil_mode,
                          count_include_pad, divisor_override)
    if x.dtype.kind in "iub":
        total = win.sum(axis=tuple(range(-nd, 0)))
        return (total / div).astype(x.dtype, copy=False).reshape(lead + out)
    # cpu_avg_pool3d (both layouts) as cpu_avg_pool2d: the window summed in order (d, h,
    # then w) from 0 in opmath_t, one division (np.sum's order gave another float64 on ~50%
    # of outputs)
    acc = _opmath(x.dtype) or x.dtype
    total = np.zeros((vols.shape[0],) + out, dtype=acc)
    for k in np.ndindex(*kernel_size):
        total += win[(Ellipsis,) + k]
    return (total / div.astype(acc)).astype(x.dtype, copy=False).reshape(lead + out)


def _avg_pool_nd_scatter(grad, div, kernel_size, stride, padding, self_sizes):
    """cpu_avg_pool3d_backward as _avg_pool2d_scatter: grad_delta = grad_output / divisor
    added into grad_input in output order (the kernel offsets run backwards)."""
    nd = len(kernel_size)
    out, size = grad.shape[-nd:], tuple(self_sizes[-nd:])
    delta = (grad / div.astype(grad.dtype)).reshape((-1,) + out)
    full = tuple(max(n + p, (o - 1) * s + k)
                 for n, p, o, s, k in zip(size, padding, out, stride, kernel_size))
    gi = np.zeros((delta.shape[0],) + full, dtype=grad.dtype)
    for k in reversed(list(np.ndindex(*kernel_size))):
        gi[(slice(None),) + tuple(slice(i, i + (o - 1) * s + 1, s)
                                  for i, o, s in zip(k, out, stride))] += delta
    gi = gi[(slice(None),) + tuple(slice(p, p + n) for p, n in zip(padding, size))]
    return np.ascontiguousarray(gi).reshape(tuple(self_sizes))


def avg_pool_nd_backward(F, grad, kernel_size, stride, padding, ceil_mode,
                         count_include_pad, divisor_override, self_sizes):
    """Each output's gradient over its divisor, spread over its window: a depthwise
    transposed convolution with a kernel of ones, cut or zero-extended to the input (on
    arrays: PyTorch's order, _avg_pool_nd_scatter)."""
    nd = len(kernel_size)
    out = tuple(grad.shape[-nd:])
    div = _avg_divisor_nd(self_sizes, out, kernel_size, stride, padding, ceil_mode,
                          count_include_pad, divisor_override)
    if 0 in tuple(grad.shape):  # (an empty gradient, an empty input: no planes to convolve)
        return F.reshape(grad, tuple(self_sizes))
    if F.is_raw and grad.dtype.kind not in "iub":
        return _avg_pool_nd_scatter(grad, div, kernel_size, stride, padding, self_sizes)
    planes = F.reshape(grad / F.constant(div, grad), (1, -1) + out)
    c = planes.shape[1]
    ones = F.constant(np.ones((c, 1) + tuple(kernel_size)), grad)
    full = F.convolution(planes, ones, None, tuple(stride), (0,) * nd, (1,) * nd, True,
                         (0,) * nd, c)
    for dim, (p, size) in enumerate(zip(padding, self_sizes[-nd:])):
        have = full.shape[2 + dim]
        if have < p + size:   # trailing input rows no window reached: zero gradient
            shape = list(full.shape)
            shape[2 + dim] = p + size - have
            full = F.cat([full, F.zeros(tuple(shape), full)], 2 + dim)
        full = F.narrow(full, 2 + dim, p, size)
    return F.reshape(full, tuple(self_sizes))


AVG_POOL3D = defop(
    "avg_pool3d", "AvgPool3DBackward0", avg_pool_nd_kernel,
    params=("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
            "divisor_override"),
    grads={"self": lambda F, grad, self, kernel_size, stride, padding, ceil_mode,
           count_include_pad, divisor_override: avg_pool_nd_backward(
               F, grad, kernel_size, stride, padding, ceil_mode, count_include_pad,
               divisor_override, tuple(self.shape))}, jvp="linear", layout="contiguous")
AVG_POOL3D.tangent_check = lambda inputs, tangents: _refuse_unless(
    "avg_pool3d_out_frame", tangents[0].dtype, ("float64", "float32", "int64"))


def _refuse_unless(kernel, dtype, allowed):
    from ..nn._pool_checks import refuse_unless
    refuse_unless(kernel, dtype, allowed)


def _adaptive_mats(in_sizes, output_size):
    return tuple(adaptive_pool_matrix(i, o, np.float64) for i, o in zip(in_sizes, output_size))


def _adaptive_avg_pool3d_backward(F, grad, output_size, self_sizes):
    """Exact on arrays (Note [Adaptive average pooling order]); under create_graph the
    averaging matrices' differentiable matmuls (values may differ in the last bits)."""
    adaptive_grad_check("adaptive_avg_pool3d", grad)
    if F.is_raw:
        return adaptive_avg_pool_nd_backward_kernel(grad, self_sizes, 3)
    return separable_backward(F, grad, _adaptive_mats(tuple(self_sizes[-3:]), output_size))


ADAPTIVE_AVG_POOL3D = defop(
    "adaptive_avg_pool3d", "AdaptiveAvgPool3DBackward0", adaptive_avg_pool_nd_kernel,
    params=("output_size",), grads={"self": lambda F, grad, self, output_size:
                                    _adaptive_avg_pool3d_backward(F, grad, output_size,
                                                                  tuple(self.shape))},
    jvp="linear")


def adaptive_max_pool_nd_kernel(x, output_size):
    """Windows [floor(i*in/out), ceil((i+1)*in/out)) per dim; values and flat indices of
    the first maximum (NaN wins)."""
    nd = len(output_size)
    size = x.shape[-nd:]
    vols = x.reshape(-1, _numel(size))
    n_out = _numel(tuple(output_size))
    vals = np.empty((vols.shape[0], n_out), dtype=x.dtype)
    idx = np.empty((vols.shape[0], n_out), dtype=np.int64)
    for k, cell in enumerate(_it.product(*[range(o) for o in output_size])):
        ranges = [np.arange((i * s) // o, -((-(i + 1) * s) // o))
                  for i, s, o in zip(cell, size, output_size)]
        pos = _flat_index(np.meshgrid(*ranges, indexing="ij"), size).reshape(-1)
        win = vols[:, pos]
        a = _window_argmax(win, axis=1)
        vals[:, k] = win[np.arange(win.shape[0]), a]
        idx[:, k] = pos[a]
    shape = x.shape[:-nd] + tuple(output_size)
    return vals.reshape(shape), idx.reshape(shape)


ADAPTIVE_MAX_POOL3D = defop(
    "adaptive_max_pool3d", "AdaptiveMaxPool3DBackward0", adaptive_max_pool_nd_kernel,
    params=("output_size",), outputs=("result", "indices"), diff_outputs=(0,),
    grads={"self": lambda F, grads, self, indices: (
        adaptive_grad_check("adaptive_max_pool3d", grads[0]),
        max_pool_nd_backward(F, grads[0], tuple(self.shape), indices, 3))[1]},
    jvp="transpose")


def max_unpool_nd_kernel(x, indices, output_size):
    nd = len(output_size)
    b = _numel(x.shape[:-nd])
    out = np.zeros((b, _numel(tuple(output_size))), dtype=x.dtype)
    n = _numel(x.shape[-nd:])   # (explicit: an empty batch has no -1)
    np.put_along_axis(out, indices.reshape(b, n), x.reshape(b, n), 1)
    return out.reshape(x.shape[:-nd] + tuple(output_size))


def max_unpool_nd_backward(F, grad, indices, output_size, self_sizes):
    nd = len(output_size)
    b = _numel(tuple(self_sizes[:-nd]))
    n = _numel(tuple(output_size))
    per = _numel(tuple(self_sizes[-nd:]))   # (explicit: an empty batch has no -1)
    flat = (indices.reshape(b, per) + np.arange(b).reshape(-1, 1) * n).reshape(-1)
    return F.reshape(F.index_select(F.reshape(grad, (-1,)), 0, flat), tuple(self_sizes))


MAX_UNPOOL3D = defop("max_unpool3d", "MaxUnpool3DBackward0", max_unpool_nd_kernel,
                     params=("indices", "output_size"),
                     grads={"self": max_unpool_nd_backward}, jvp="transpose")

# ---- pdist (PdistBackward0; its backward an op without derivative, as PyTorch) ------------
def pdist_kernel(x, p):
    """Distances between the rows i < j of x (row-major order of the pairs)."""
    refuse_half("pdist", x)
    i, j = np.triu_indices(x.shape[0], 1)
    diff = np.abs(x[i] - x[j])
    with np.errstate(over="ignore"):
        if p not in (0, np.inf) and x.dtype in (np.float32, np.float64) and diff.size and \
                diff.shape[1] and diff.size <= 1 << 16:
            return _pdist_lanes(diff, p)
        if p == 0:
            d = (diff != 0).sum(1)
        elif p == np.inf:
            d = diff.max(1) if diff.shape[1] else np.zeros(diff.shape[0])
        elif p == 1:
            d = diff.sum(1)
        elif p == 2:
            d = np.sqrt((diff * diff).sum(1))
        else:
            d = (diff ** p).sum(1) ** (1.0 / p)
    return np.asarray(d, dtype=x.dtype)


# Note [pdist order]
# ~~~~~~~~~~~~~~~~~~
# aten's pdist kernel (run_parallel_pdist) reduces each pair's row with
# vec::map2_reduce_all in 256-bit vectors here (4 double / 8 float lanes: its
# DistanceOpsKernel is the AVX2 build): the map of the first vector, then each further
# vector added lane by lane, the tail's lanes into the first ones, then vec_reduce_all
# (double: lanes in order; float: halves folded, lanes i and i + 4, i + 2, i + 1); a row
# shorter than a vector in order. The finish is std::pow(agg, 1.0 / p) in double (p = 1:
# agg, p = 2: sqrt). Measured: 0 of 1,404 pair distances differ per dtype for p = 1 and
# 2 (NumPy's pairwise sums: 20-40%); other p take the map as std::pow, where aten's is
# SLEEF's vector pow (open: within an ulp).
def _pdist_lanes(diff, p):
    dt = diff.dtype.type
    m = diff.shape[1]
    lanes = 4 if dt is np.float64 else 8
    t = diff if p == 1 else diff * diff if p == 2 else _std_pow(diff, dt(p))
    if m < lanes:
        agg = np.cumsum(t, axis=1)[:, -1]
    else:
        full = m - m % lanes
        acc = t[:, :full].reshape(len(t), -1, lanes)
        acc = np.cumsum(acc, axis=1)[:, -1] if acc.shape[1] > 1 else acc[:, 0].copy()
        acc[:, :m - full] += t[:, full:]
        if dt is np.float64:
            agg = np.cumsum(acc, axis=1)[:, -1]
        else:
            w = lanes // 2
            while w:
                acc = acc[:, :w] + acc[:, w:2 * w]
                w //= 2
            agg = acc[:, 0]
    if p == 1:
        return agg
    if p == 2:
        return np.sqrt(agg)
    with np.errstate(divide="ignore"):
        return _std_pow(agg.astype(np.float64), 1.0 / float(dt(p))).astype(dt)


def _std_pow(a, p):
    from .reduction import _std_pow as pow_
    return pow_(a, p)


def pdist_backward_kernel(grad, x, p, result):
    """aten's _pdist_backward: per pair the p-norm's derivative (0 where the distance is 0;
    for p < 1 also where a coordinate difference is 0), added to row i, taken from row j."""
    i, j = np.triu_indices(x.shape[0], 1)
    diff = x[i] - x[j]
    g, dist = grad[:, None], np.asarray(result)[:, None]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if p == 0:
            res = np.zeros_like(diff)
        elif p == 1:
            res = np.sign(diff) * g
        elif p == 2:
            res = np.where(dist == 0, 0, g * diff / dist)
        elif p == np.inf:
            res = g * np.sign(diff) * (np.abs(diff) == dist)
        elif p < 2:
            res = np.where(dist == 0, 0, np.sign(diff) * np.abs(diff) ** (p - 1) * g /
                           dist ** (p - 1))
            res = np.where((diff == 0) & (p < 1), 0, res)
        else:
            res = np.where(dist == 0, 0, diff * np.abs(diff) ** (p - 2) * g / dist ** (p - 1))
    out = np.zeros_like(x)
    # (aten's backward_down_column_pdist: row r's accumulator takes -res of the pairs (i, r),
    # i < r, first, then +res of its own pairs (r, j), in order)
    np.add.at(out, j, -res)
    np.add.at(out, i, res)
    return out.astype(x.dtype, copy=False)


def _pdist_not_implemented(F, grad):
    raise NotImplementedError("the derivative for '_pdist_backward' is not implemented.")


PDIST_BACKWARD = defop(
    "_pdist_backward", "PdistBackwardBackward0", pdist_backward_kernel,
    inputs=("grad", "self"), params=("p", "result"),
    grads={"grad": _pdist_not_implemented, "self": _pdist_not_implemented},
    jvp=_fw_not_implemented("_pdist_backward"))


def pdist_backward(F, grad, self, p, result):
    res = _values(result)
    if hasattr(grad, "_data"):                               # create_graph: PyTorch's op
        from ._common import _finish
        out = pdist_backward_kernel(grad._data, self._data, p, res)
        return _finish(PDIST_BACKWARD, (grad, self), (p, res), out)
    return pdist_backward_kernel(grad, self, p, res)


PDIST = defop("_pdist_forward", "PdistBackward0", pdist_kernel, params=("p",),
              grads={"self": pdist_backward}, jvp=_fw_not_implemented("_pdist_forward"))

# ---- fractional max pooling (Graham's pseudo-random windows, PyTorch's CPU kernel) ---------
def _fractional_starts(samples, in_size, out_size, pool):
    """aten's generate_intervals for every plane at once, in the input's precision: window
    i starts at int((i + u) * alpha) - int(u * alpha), the last at in_size - pool."""
    dt = samples.dtype
    seq = np.empty(samples.shape + (out_size,), dtype=np.int64)
    if out_size > 1:
        alpha = dt.type(in_size - pool) / dt.type(out_size - 1)
        i = np.arange(out_size - 1, dtype=dt)
        u = samples[..., None]
        seq[..., :-1] = ((i + u) * alpha).astype(np.int64) - (u * alpha).astype(np.int64)
    if out_size > 0:
        seq[..., -1] = in_size - pool
    return seq


def fractional_max_pool_kernel(x, kernel_size, output_size, random_samples):
    """Values and flat indices of each window's maximum (ties: the first; NaN: the last
    NaN, as the CPU kernel's ``val > max || isnan(val)``); the samples are (N, C, nd) with
    the last dim first for 2-d (W, H) and in order for 3-d (T, H, W), as PyTorch."""
    nd = len(kernel_size)
    size = x.shape[-nd:]
    lead = x.shape[:-nd]
    if not x.size or not _numel(tuple(output_size)):  # (empty results of the output's shape)
        shape = lead + tuple(output_size)
        return np.zeros(shape, x.dtype), np.zeros(shape, np.int64)
    planes = x.reshape(-1, _numel(size))
    # (aten reads the first batch-size rows of the samples: there may be more)
    u = random_samples[:_numel(lead) // x.shape[-nd - 1]].reshape(-1, nd)
    order = (1, 0) if nd == 2 else (0, 1, 2)                 # which sample drives each dim
    starts = [_fractional_starts(u[:, order[d]], size[d], output_size[d], kernel_size[d])
              for d in range(nd)]
    coords = []
    for d in range(nd):                                       # (P, *out, *kernel) per dim
        s = starts[d].reshape((-1,) + tuple(output_size[d] if e == d else 1 for e in range(nd))
                              + (1,) * nd)
        k = np.arange(kernel_size[d]).reshape((1,) * (1 + nd) +
                                              tuple(kernel_size[d] if e == d else 1
                                                    for e in range(nd)))
        coords.append(s + k)
    flat = _flat_index(coords, size)
    flat = np.broadcast_to(flat, (planes.shape[0],) + tuple(output_size) + tuple(kernel_size))
    flat = flat.reshape(planes.shape[0], -1, _numel(kernel_size))
    vals = np.take_along_axis(planes, flat.reshape(planes.shape[0], -1), 1).reshape(flat.shape)
    arg = _window_argmax(vals)
    out = np.take_along_axis(vals, arg[..., None], -1)[..., 0]
    idx = np.take_along_axis(flat, arg[..., None], -1)[..., 0]
    shape = lead + tuple(output_size)
    return np.ascontiguousarray(out).reshape(shape), idx.astype(np.int64).reshape(shape)


FRACTIONAL_MAX_POOL2D = defop(
    "fractional_max_pool2d", "FractionalMaxPool2DBackward0", fractional_max_pool_kernel,
    params=("kernel_size", "output_size", "random_samples"), outputs=("result", "indices"),
    diff_outputs=(0,), grads={"self": lambda F, grads, self, indices:
                              max_pool_nd_backward(F, grads[0], tuple(self.shape), indices,
                                                   2)},
    jvp="transpose")
FRACTIONAL_MAX_POOL3D = defop(
    "fractional_max_pool3d", "FractionalMaxPool3DBackward0", fractional_max_pool_kernel,
    params=("kernel_size", "output_size", "random_samples"), outputs=("result", "indices"),
    diff_outputs=(0,), grads={"self": lambda F, grads, self, indices:
                              max_pool_nd_backward(F, grads[0], tuple(self.shape), indices,
                                                   3)},
    jvp="transpose")


# Note [3-d pooling backward ops]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# As the 2-d ones (Note [Pooling backward ops]): max_pool3d_with_indices_backward,
# avg_pool3d_backward, _adaptive_avg_pool3d_backward, adaptive_max_pool3d_backward and
# fractional_max_pool{2,3}d_backward are aten ops of (grad_output, self), so under create_graph
# PyTorch records their BackwardBackward0 node while self requires grad (ours recorded a
# gradient without history unless grad_output had one), and the forward nodes save self
# (an in-place change of it makes backward raise; ours saved its sizes). Here each is an
# entry its forward op's ``graph_backward`` records; on arrays the forward formula runs.
def _pool3d_graph_backward(fwd, bwd):
    """``fwd.graph_backward``: one ``bwd`` op of (grad_output, self) and its params."""
    def graph_backward(F, grad, mask, self, **saved):
        g = grad[0] if isinstance(grad, (tuple, list)) else grad
        return (_record_pool3d_backward(bwd, g, self, tuple(saved[n] for n in bwd.params)),)
    fwd.graph_backward = graph_backward


def _record_pool3d_backward(op, grad, self, params):
    from ._common import _asarray, _finish
    ps = tuple(_values(p) if hasattr(p, "_data") else p for p in params)
    return _finish(op, (grad, self), ps, _asarray(op.kernel(grad._data, self._data, *ps)))


def _max_pool_nd_double_backward(F, grad, indices, nd):
    """max_pool_double_backward(grad, indices, nd): grad gathered at each plane's indices."""
    indices = _values(indices)
    n_in = _numel(tuple(grad.shape[-nd:]))
    size = _numel(indices.shape[-nd:])
    if F.is_raw:
        out = np.take_along_axis(grad.reshape(-1, n_in), indices.reshape(-1, size), 1)
        return out.reshape(indices.shape)
    g = F.reshape(F.contiguous(grad), (-1, n_in))
    return F.reshape(F.gather(g, 1, _index_tensor(indices.reshape(-1, size))),
                     tuple(indices.shape))


def _max_pool_nd_backward_op(fwd, name, nd=3):
    """The max-type entries' backward (the gradient scattered to the indices)."""
    def kernel(grad, self, indices):
        from .raw import RAW
        return max_pool_nd_backward(RAW, grad, self.shape, indices, nd)

    def jvp(F, grad_output_t, self, self_t, indices):
        if grad_output_t is None:  # (auto_linear: a zero tensor's, zeros)
            return F.zeros_like(self)
        return _record_pool3d_backward(op, grad_output_t, _linear_self(F, self, self_t),
                                       (indices,))

    op = defop(name, fwd.node_name.replace("Backward0", "BackwardBackward0"), kernel,
               inputs=("grad_output", "self"), params=("indices",),
               grads={"grad_output": lambda F, grad, indices: _max_pool_nd_double_backward(
                   F, grad, indices, nd), "self": lambda F, grad, self: F.zeros_like(self)},
               jvp=jvp)
    _pool3d_graph_backward(fwd, op)
    return op


MAX_POOL3D_BACKWARD = _max_pool_nd_backward_op(MAX_POOL3D, "max_pool3d_with_indices_backward")
ADAPTIVE_MAX_POOL3D_BACKWARD = _max_pool_nd_backward_op(ADAPTIVE_MAX_POOL3D,
                                                        "adaptive_max_pool3d_backward")
FRACTIONAL_MAX_POOL3D_BACKWARD = _max_pool_nd_backward_op(FRACTIONAL_MAX_POOL3D,
                                                          "fractional_max_pool3d_backward")
FRACTIONAL_MAX_POOL2D_BACKWARD = _max_pool_nd_backward_op(
    FRACTIONAL_MAX_POOL2D, "fractional_max_pool2d_backward", 2)


def _avg_pool3d_of(F, grad, params):
    """avg_pool3d(grad, ...): avg_pool3d_backward's gradient in grad_output."""
    if F.is_raw:
        return avg_pool_nd_kernel(grad, *params)
    from ._common import _finish
    return _finish(AVG_POOL3D, (grad,), params, avg_pool_nd_kernel(grad._data, *params))


def _avg_pool3d_backward_jvp(F, grad_output_t, self, kernel_size, stride, padding, ceil_mode,
                             count_include_pad, divisor_override):
    if grad_output_t is None:
        return None
    return _record_pool3d_backward(AVG_POOL3D_BACKWARD, grad_output_t, self, (
        kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override))


AVG_POOL3D_BACKWARD = defop(
    "avg_pool3d_backward", "AvgPool3DBackwardBackward0",
    lambda grad, self, *params: avg_pool_nd_backward(_raw_ns(), grad, *params, self.shape),
    inputs=("grad_output", "self"), params=AVG_POOL3D.params,
    grads={"grad_output": lambda F, grad, kernel_size, stride, padding, ceil_mode,
           count_include_pad, divisor_override: _avg_pool3d_of(F, grad, (
               kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)),
           "self": lambda F, grad, self: F.zeros_like(self)},
    jvp=_avg_pool3d_backward_jvp)
_pool3d_graph_backward(AVG_POOL3D, AVG_POOL3D_BACKWARD)


def _adaptive_avg_pool3d_of(F, grad, grad_output_sizes):
    """adaptive_avg_pool3d(grad, grad_output's size): the gradient in grad_output."""
    size = tuple(grad_output_sizes[-3:])
    if F.is_raw:
        return adaptive_avg_pool_nd_kernel(grad, size)
    from ._common import _finish
    return _finish(ADAPTIVE_AVG_POOL3D, (grad,), (size,),
                   adaptive_avg_pool_nd_kernel(grad._data, size))


def _adaptive_avg_pool3d_backward_jvp(F, grad_output_t, self):
    return None if grad_output_t is None else \
        _record_pool3d_backward(ADAPTIVE_AVG_POOL3D_BACKWARD, grad_output_t, self, ())


ADAPTIVE_AVG_POOL3D_BACKWARD = defop(
    "_adaptive_avg_pool3d_backward", "AdaptiveAvgPool3DBackwardBackward0",
    lambda grad, self: _adaptive_avg_pool3d_backward(_raw_ns(), grad, grad.shape[-3:],
                                                     self.shape),
    inputs=("grad_output", "self"),
    grads={"grad_output": lambda F, grad, grad_output_sizes:
           _adaptive_avg_pool3d_of(F, grad, grad_output_sizes),
           "self": lambda F, grad, self: F.zeros_like(self)},
    jvp=_adaptive_avg_pool3d_backward_jvp)
_pool3d_graph_backward(ADAPTIVE_AVG_POOL3D, ADAPTIVE_AVG_POOL3D_BACKWARD)


def _raw_ns():
    from .raw import RAW
    return RAW



# ---- one LSTM layer (PyTorch's CPU float32 path: mkldnn_rnn_layer) -------------------------
# Note [LSTM layer entry]
# ~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's CPU build runs a float32 LSTM without projections one layer and direction at a
# time through oneDNN (node MkldnnRnnLayerBackward0, inputs: input, w_ih, w_hh, b_ih, b_hh,
# h0, c0; outputs: output, hy, cy and oneDNN's workspace, which the node saves as result3).
# This entry does the same: the forward is a NumPy loop over time steps (the input part of
# every step is one GEMM) and, when a graph is recorded (``train``), it keeps a workspace
# for the backward (Note [LSTM workspace]). The backward on arrays is backpropagation
# through time from that workspace: per step one (B, 4H) @ (4H, H) GEMM and a few
# whole-batch products; the weight and input gradients are one GEMM each over all (T * B)
# rows after the loop. With create_graph=True the backward is the same algorithm written in
# differentiable ops that recompute the steps from the inputs (the workspace is not
# differentiable), so a double backward works where PyTorch's has none. float64,
# projections and packed sequences take the composed path, as PyTorch's do (their graphs
# are the per-step ops); the entry itself accepts float64 (the gradchecks use it).
#
# Note [LSTM workspace]
# ~~~~~~~~~~~~~~~~~~~~~
# The workspace is one 1-d array of the input's dtype, 6 * T * B * H long, in three
# contiguous parts: (T, B, 4H), (T, B, H), (T, B, H). Step t's rows hold the factors of the
# gate gradients that do not depend on the incoming gradients,
#     [g*i*(1-i), c_prev*f*(1-f), i*(1-g^2), tanh(c)*o*(1-o)], o*(1-tanh(c)^2), f
# so that the backward of step t is dct = dc + dh * ws1; dgates = (dct * ws0[:3H],
# dh * ws0[3H:]); dc = dct * ws2; dh = dgates @ w_hh. The forward loop writes the
# activations, tanh(c) and c_prev there (c_t straight into the next step's c_prev slot) and
# turns them into the factors for all steps at once after the loop (a few passes over
# (T, B, H) arrays). h_prev is not kept: it is h0 or the output of the step before, so the
# node saves the output (result0, as PyTorch's does: modifying it in place makes the
# backward raise) and dW_hh is two GEMMs over it. Not recording (no_grad, inference), the
# workspace is empty.
def _input_gates(x, w_ih, b_ih, b_hh):
    """x @ w_ih^T (+ both biases) for all steps: one GEMM over the folded (T*B) rows."""
    gi = (x.reshape(-1, x.shape[-1]) @ w_ih.T).reshape(x.shape[:-1] + (w_ih.shape[0],))
    if b_ih is not None:
        gi += b_ih + b_hh
    return gi


def _gate_acts(g, a, h_size):
    """a[:] = (sigmoid, sigmoid, tanh, sigmoid) of the four gate blocks of g, in place;
    the sigmoid as 1 / (1 + exp(-x)), PyTorch's formula."""
    np.negative(g, out=a)
    np.exp(a, out=a)
    a += 1
    np.reciprocal(a, out=a)
    np.tanh(g[:, 2 * h_size:3 * h_size], out=a[:, 2 * h_size:3 * h_size])
    return a


def lstm_layer_kernel(x, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse, train=False):
    t_len, H = x.shape[0], w_hh.shape[1]
    gi = _input_gates(x, w_ih, b_ih, b_hh)
    ys = np.empty((t_len,) + hx.shape, dtype=x.dtype)
    w_hh_t = np.ascontiguousarray(w_hh.T)  # (OpenBLAS: 2 x the transposed view at B = 32)
    g = np.empty_like(gi[0])
    order = range(t_len - 1, -1, -1) if reverse else range(t_len)
    if train:   # the step's activations, tanh(c) and c_prev go to the workspace
        ws = np.empty(gi.size // 2 * 3, gi.dtype)
        acts, tcs, cps = _ws_views(ws, gi.shape)
        cps[order[0]] = cx
    else:
        ws, a, tc = np.empty((0,), gi.dtype), np.empty_like(g), np.empty_like(ys[0])
        c_bufs = (np.empty_like(ys[0]), np.empty_like(ys[0]))
    ig = np.empty_like(ys[0])
    h, c = hx, cx
    for n, t in enumerate(order):
        np.matmul(h, w_hh_t, out=g)
        g += gi[t]
        if train:
            a, tc = acts[t], tcs[t]
            # c_t is the next step's c_prev: written straight into its slot
            c_new = cps[order[n + 1]] if n + 1 < t_len else np.empty_like(ig)
        else:
            c_new = c_bufs[n & 1]
        _gate_acts(g, a, H)
        np.multiply(a[:, H:2 * H], c, out=c_new)
        np.multiply(a[:, :H], a[:, 2 * H:3 * H], out=ig)
        c_new += ig
        c = c_new
        np.tanh(c, out=tc)
        h = np.multiply(a[:, 3 * H:], tc, out=ys[t])
    if train:
        _lstm_factors(acts, tcs, cps)
    return ys, h.copy(), c if train else c.copy(), ws


def _ws_views(ws, gates_shape):
    """The workspace's three parts: (T, B, 4H) gates, then (T, B, H) twice, each
    contiguous (Note [LSTM workspace])."""
    n = 1
    for d in gates_shape:
        n *= d
    hs = gates_shape[:-1] + (gates_shape[-1] // 4,)
    return (ws[:n].reshape(gates_shape), ws[n:n + n // 4].reshape(hs),
            ws[n + n // 4:].reshape(hs))


def _lstm_factors(acts, tc, cp):
    """Turn the stored [i, f, g, o], tanh(c), c_prev into the factors of Note [LSTM
    workspace], in place, for all steps at once."""
    H = tc.shape[-1]
    i, f, g, o = (acts[..., k * H:(k + 1) * H] for k in range(4))
    t1 = np.subtract(1, o)
    t1 *= o                                    # o(1-o)
    t2 = np.multiply(tc, tc)
    np.subtract(1, t2, out=t2)
    t2 *= o                                    # o(1-tanh(c)^2)
    np.multiply(t1, tc, out=o)
    tc[...] = t2
    np.subtract(1, f, out=t1)
    t1 *= f
    t1 *= cp                                   # c_prev*f*(1-f)
    cp[...] = f
    f[...] = t1
    np.subtract(1, i, out=t1)
    t1 *= i
    t1 *= g                                    # g*i*(1-i)
    np.multiply(g, g, out=t2)
    np.subtract(1, t2, out=t2)
    t2 *= i                                    # i*(1-g^2)
    i[...] = t1
    g[...] = t2


def _lstm_layer_backward_raw(gy, ghy, gcy, x, w_ih, w_hh, b_ih, h0, ys, ws, reverse):
    """lstm_layer_backward on arrays: backpropagation through time from the forward's
    workspace (Note [LSTM workspace]), the gate gradients written in place."""
    t_len, batch = x.shape[:2]
    H = w_hh.shape[1]
    acts, dtc, f = _ws_views(ws, (t_len, batch, 4 * H))
    p3 = acts[..., :3 * H].reshape(t_len, batch, 3, H)
    po = acts[..., 3 * H:]
    dh = np.zeros((batch, H), ws.dtype) if ghy is None else ghy.astype(ws.dtype, copy=True)
    dc = np.zeros((batch, H), ws.dtype) if gcy is None else gcy.astype(ws.dtype, copy=True)
    dgs = np.empty((t_len, batch, 4 * H), ws.dtype)
    d4 = dgs.reshape(t_len, batch, 4, H)
    dct = np.empty_like(dh)
    for t in (range(t_len) if reverse else range(t_len - 1, -1, -1)):
        if gy is not None:
            dh += gy[t]
        np.multiply(dh, dtc[t], out=dct)
        dct += dc
        np.multiply(dct[:, None, :], p3[t], out=d4[t, :, :3])
        np.multiply(dh, po[t], out=d4[t, :, 3])
        np.multiply(dct, f[t], out=dc)
        np.matmul(dgs[t], w_hh, out=dh)
    flat = dgs.reshape(t_len * batch, 4 * H)
    d_input = (flat @ w_ih).reshape(x.shape)
    d_w0 = flat.T @ x.reshape(t_len * batch, x.shape[2])
    # h_prev of every step is h0 or the output of the step before: two GEMMs, no copy
    n = (t_len - 1) * batch
    first, rest = (flat[n:], flat[:n]) if reverse else (flat[:batch], flat[batch:])
    d_w1 = rest.T @ ys[1:].reshape(n, H) if reverse else rest.T @ ys[:-1].reshape(n, H)
    d_w1 += first.T @ h0
    d_b = np.ones(t_len * batch, flat.dtype) @ flat if b_ih is not None else None
    return d_input, d_w0, d_w1, d_b, d_b, dh, dc


def lstm_layer_backward(F, grads, input, weight0, weight1, weight2, weight3, hx_, cx_,
                        reverse, output, workspace):
    gy, ghy, gcy = grads[:3]
    if F.is_raw and input.dtype.kind == "f":
        return _lstm_layer_backward_raw(gy, ghy, gcy, input, weight0, weight1, weight2, hx_,
                                        output, workspace, reverse)
    t_len, batch = input.shape[0], input.shape[1]
    h_size = weight1.shape[1]
    gi = F.matmul(input, F.t(weight0))
    if weight2 is not None:
        gi = gi + (weight2 + weight3)
    order = list(range(t_len - 1, -1, -1)) if reverse else list(range(t_len))
    h, c, saved = hx_, cx_, {}
    for t in order:
        g = F.select(gi, 0, t) + F.matmul(h, F.t(weight1))
        i = F.sigmoid(F.narrow(g, 1, 0, h_size))
        f = F.sigmoid(F.narrow(g, 1, h_size, h_size))
        gg = F.tanh(F.narrow(g, 1, 2 * h_size, h_size))
        o = F.sigmoid(F.narrow(g, 1, 3 * h_size, h_size))
        c_new = f * c + i * gg
        tc = F.tanh(c_new)
        saved[t] = (h, c, i, f, gg, o, tc)
        h, c = o * tc, c_new
    like = input
    dh = ghy if ghy is not None else F.zeros((batch, h_size), like)
    dc = gcy if gcy is not None else F.zeros((batch, h_size), like)
    dgs = [None] * t_len
    for t in reversed(order):
        h_prev, c_prev, i, f, gg, o, tc = saved[t]
        if gy is not None:
            dh = dh + F.select(gy, 0, t)
        do = dh * tc
        dct = dc + dh * o * (1 - tc * tc)
        dgate = F.cat([dct * gg * i * (1 - i), dct * c_prev * f * (1 - f),
                       dct * i * (1 - gg * gg), do * o * (1 - o)], 1)
        dgs[t] = dgate
        dc = dct * f
        dh = F.matmul(dgate, weight1)
    dG = F.stack(dgs, 0)                                        # (T, B, 4H)
    flat = F.reshape(dG, (t_len * batch, 4 * h_size))
    d_input = F.matmul(dG, weight0)
    d_w0 = F.matmul(F.t(flat), F.reshape(input, (t_len * batch, input.shape[2])))
    h_prevs = F.stack([saved[t][0] for t in range(t_len)], 0)
    d_w1 = F.matmul(F.t(flat), F.reshape(h_prevs, (t_len * batch, h_size)))
    d_b = F.sum(flat, (0,)) if weight2 is not None else None
    return d_input, d_w0, d_w1, d_b, d_b, dh, dc


LSTM_LAYER = defop(
    "mkldnn_rnn_layer", "MkldnnRnnLayerBackward0", lstm_layer_kernel,
    inputs=("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_"),
    params=("reverse", "train"), outputs=("output", "hy", "cy", "workspace"),
    diff_outputs=(0, 1, 2), backward_all=lstm_layer_backward,
    jvp=_fw_not_implemented("mkldnn_rnn_layer"))


def lstm_layer(input, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse):
    """One LSTM layer and direction: (output (T, B, H), h_T, c_T)."""
    from ._common import _finish, _state, requires_grad_mask
    arr = (lambda t: None if t is None else t._data)   # noqa: E731
    inputs = (input, w_ih, w_hh, b_ih, b_hh, hx, cx)
    train = bool(_state.enabled and requires_grad_mask(inputs))   # a node will be recorded
    outs = lstm_layer_kernel(input._data, w_ih._data, w_hh._data, arr(b_ih), arr(b_hh),
                             hx._data, cx._data, bool(reverse), train)
    return _finish(LSTM_LAYER, inputs, (bool(reverse), train), outs)[:3]


# ---- binary_cross_entropy: one entry (BinaryCrossEntropyBackward0), aten's CPU kernels ----
def bce_kernel(x, t, weight, reduction):
    """aten's loop: (t - 1) * max(log1p(-x), -100) - t * max(log(x), -100), times weight."""
    from .raw import RAW
    with np.errstate(divide="ignore", invalid="ignore"):
        loss = (t - 1) * np.maximum(np.log1p(-x), -100) - t * np.maximum(np.log(x), -100)
    loss = np.asarray(loss).astype(x.dtype, copy=False)
    if weight is not None:
        loss = (loss * weight).astype(x.dtype, copy=False)
    return np.asarray(_loss_reduce(RAW, loss, reduction)).astype(x.dtype, copy=False)


_BCE_EPS = float(np.float32(1e-12))   # (aten's EPSILON is a float: 9.99999996e-13)


def bce_backward(F, grad, self, target, weight, reduction):
    """aten's binary_cross_entropy_backward: grad * (x - t) / max((1 - x) * x, eps), times
    weight, over the element count for a mean."""
    d = (1 - self) * self
    g = grad * (self - target) / F.where(d < _BCE_EPS, _BCE_EPS, d)
    if weight is not None:
        g = g * F.constant(weight, g)
    return g / _prod(self.shape) if reduction == 1 else g


def bce_target_backward(F, grad, self, target, weight, reduction):
    """aten's binary_cross_entropy_target_backward: -logit(x) * grad (weight, mean); logit
    one op, as aten's (its kernel's float32 log; its rule's tangent at x = 1 is -inf times
    the tangent, where log(x / (1 - x))'s two rules give inf / inf = NaN)."""
    from .pointwise import _logit, logit
    g = -(_logit(np.asarray(self), None) if F.is_raw else logit(self)) * grad
    if weight is not None or reduction == 1:  # (in place: mul_(weight), div_(numel))
        _written_in_place(F, g)
    if weight is not None:
        g = g * F.constant(weight, g)
    return g / _prod(target.shape) if reduction == 1 else g


def _bce_jvp(F, self, self_t, target, target_t, weight, reduction):
    """PyTorch's ``result:`` rule: both terms, an absent tangent as zeros (so -logit(x) * 0 is
    NaN at x = 0 or 1, as PyTorch's)."""
    if self_t is None:
        self_t = self * 0
    elif self_t._data.dtype != self._data.dtype:
        # (binary_cross_entropy_backward(self_t, self_p, ...)'s kernel: one dtype, self_t's)
        from .. import _dtypes
        raise RuntimeError(f"Found dtype {_dtypes.scalar_name(self.dtype)} but expected "
                           f"{_dtypes.scalar_name(self_t.dtype)}")
    if target_t is None:
        target_t = self * 0
    # (binary_cross_entropy_target_backward writes into logit(self)'s buffer: self's dtype)
    tt = bce_target_backward(F, target_t, self, target, weight, 0)
    if tt._data.dtype != self._data.dtype:
        tt = F.cast(tt, self._data.dtype)
    d = bce_backward(F, self_t, self, target, weight, 0) + tt
    return _loss_reduce(F, d, reduction)


_BCE_DOUBLE_EPS = 1e-12   # (FunctionsManual's double backward: a double)


def _bce_double_backward(F, grad_output, grad, input, target, weight, reduction):
    """FunctionsManual's binary_cross_entropy_double_backward (the gradient of
    binary_cross_entropy_backward in its input)."""
    gi = (input * input - 2 * input * target + target) / (
        F.pow(input + _BCE_DOUBLE_EPS, 2) * F.pow(1 - input + _BCE_DOUBLE_EPS, 2))
    gi = gi * (grad * grad_output)
    if weight is not None:
        gi = gi * F.constant(weight, gi)
    return gi / _prod(input.shape) if reduction == 1 else gi


def _bce_double_backward_grad_output(F, grad, input, target, weight, reduction):
    """binary_cross_entropy_double_backward_grad_output."""
    ggo = (input - target) / ((input + _BCE_DOUBLE_EPS) * (1 - input + _BCE_DOUBLE_EPS))
    ggo = ggo * grad
    if weight is not None:
        ggo = ggo * F.constant(weight, ggo)
    return ggo / _prod(input.shape) if reduction == 1 else ggo


def _bce_double_backward_target(F, grad, grad_output, self, target, weight, reduction):
    """binary_cross_entropy_double_backward_target: -grad grad_output (weight) over
    max((1 - x) x, 1e-12) (the clamp made without a graph), over n for a mean."""
    res = -grad * grad_output
    if weight is not None:
        res = res * F.constant(weight, res)
    denom = (1 - self) * self
    denom = denom + F.constant(np.maximum(_raw(denom), 1e-12) - _raw(denom), denom)
    res = res / denom
    return res / _prod(target.shape) if reduction == 1 else res


def _sum_to(F, g, shape):
    """g summed to shape, as the engine's validate_outputs sums a formula's gradient to its
    input's shape (a 0-d grad_output of a reduced loss: SumBackward0)."""
    return g if tuple(g.shape) == tuple(shape) else F.sum_to(g, tuple(shape))


def _raw(x):
    return x if isinstance(x, np.ndarray) else x._data


def _bce_backward_jvp(F, grad_output, grad_output_t, self, self_t, target, target_t,
                      weight, reduction):
    """derivatives.yaml's binary_cross_entropy_backward ``result:``: the three double
    backward terms of the tangents (absent ones zeros)."""
    zeros = F.zeros_like
    out = _bce_double_backward(F, grad_output, zeros(self) if self_t is None else self_t,
                               self, target, weight, reduction)
    out = out + _bce_double_backward_target(
        F, zeros(target) if target_t is None else target_t, grad_output, self, target,
        weight, reduction)
    return out + _bce_double_backward_grad_output(
        F, zeros(grad_output) if grad_output_t is None else grad_output_t, self, target,
        weight, reduction)


def _bce_backward_kernel(grad, self, target, weight, reduction):
    from .raw import RAW
    return bce_backward(RAW, grad, self, target, weight, reduction)


# (Note [Activation backward ops]: BinaryCrossEntropyBackwardBackward0 under create_graph)
BCE_BACKWARD = defop(
    "binary_cross_entropy_backward", "BinaryCrossEntropyBackwardBackward0",
    _bce_backward_kernel, inputs=("grad_output", "self", "target"),
    params=("weight", "reduction"),
    grads={"grad_output": lambda F, grad, self, target, weight, reduction, grad_output_sizes:
           _sum_to(F, _bce_double_backward_grad_output(F, grad, self, target, weight,
                                                       reduction), grad_output_sizes),
           "self": lambda F, grad, grad_output, self, target, weight, reduction:
           _bce_double_backward(F, grad_output, grad, self, target, weight, reduction),
           "target": lambda F, grad, grad_output, self, target, weight, reduction:
           _bce_double_backward_target(F, grad, grad_output, self, target, weight,
                                       reduction)},
    jvp=_bce_backward_jvp)
BCE = defop("binary_cross_entropy", "BinaryCrossEntropyBackward0", bce_kernel,
            inputs=("self", "target"), params=("weight", "reduction"),
            grads={"self": lambda F, grad, self, target, weight, reduction:
                   F.binary_cross_entropy_backward(grad, self, target, weight, reduction),
                   "target": bce_target_backward}, jvp=_bce_jvp,
            layout="iter")


# ---- affine_grid_generator -------------------------------------------------------------
def affine_base_grid(dtype, size, align_corners):
    """aten's make_base_grid_{4,5}D viewed as (N, points, nd + 1): the normalised
    (x, y[, z], 1) of every output point, linspace_from_neg_one's steps in theta's dtype."""
    from .. import _creation
    from ..autograd.grad_mode import no_grad
    from .._dtypes import from_numpy
    dt = from_numpy(np.dtype(dtype))
    spatial = tuple(size[2:])
    nd = len(spatial)

    def lin(steps):                                  # aten's linspace_from_neg_one
        if steps <= 1:
            return _creation.zeros(steps, dtype=dt)
        v = _creation.linspace(-1, 1, steps, dtype=dt)
        return v * (steps - 1) / steps if not align_corners else v
    with no_grad():
        coords = []                                  # x (the last dim) first
        for k in range(nd):
            axis = nd - 1 - k
            view = [1] * nd
            view[axis] = spatial[axis]
            coords.append(lin(spatial[axis]).reshape(*view).expand(*spatial))
        coords.append(_creation.ones(tuple(spatial), dtype=dt))
        points = int(np.prod(spatial))
        from .shape import stack
        return stack(coords, -1).reshape(1, points, nd + 1).expand(
            size[0], points, nd + 1)._data


def affine_grid_kernel(theta, size, align_corners):
    """base_grid.view(N, points, nd + 1).bmm(theta.transpose(1, 2)).view(N, *spatial, nd)."""
    from .._tensor import _make
    from ..autograd.grad_mode import no_grad
    from .linalg import bmm
    base = affine_base_grid(theta.dtype, size, align_corners)
    with no_grad():
        out = bmm(_make(base), _make(theta.transpose(0, 2, 1)))._data
    return out.reshape((size[0],) + tuple(size[2:]) + (len(size) - 2,))


def affine_grid_generator_backward(F, grad, size, align_corners):
    """aten's affine_grid_generator_backward: base_grid^T bmm grad, transposed."""
    n, nd = size[0], len(size) - 2
    dtype = grad.dtype if F.is_raw else grad._data.dtype
    base = F.constant(affine_base_grid(dtype, size, align_corners), grad)
    points = base.shape[1]
    return F.transpose(F.bmm(F.transpose(base, 1, 2), F.reshape(grad, (n, points, nd))), 1, 2)


AFFINE_GRID_GENERATOR = defop(
    "affine_grid_generator", "AffineGridGeneratorBackward0", affine_grid_kernel,
    inputs=("theta",), params=("size", "align_corners"),
    grads={"theta": affine_grid_generator_backward}, jvp="linear")
