"""``nn.functional``: stateless layers and losses, composed from the op table."""
import math as _math
import warnings as _warnings

from .. import _argparse, _dtypes, _errors, _warn
from .. import _ops as fn
from .._ops._common import _finish, _guard_index, refuse_half
from .._ops.dispatch import view_errors_before_checks, view_errors_first
from ..autograd.grad_mode import state as _grad_state
from .._ops.pointwise import _to_dtype
from . import _pool_checks as _pc
from ..amp import autocast_mode as _amp

linear = fn.linear


def relu(input, inplace=False):
    """PyTorch's Python wrapper (so ``F.relu(x, True)`` is relu_, and a bad input is
    torch.relu's argument error)."""
    return fn.relu_(input) if inplace else fn.relu(input)


sigmoid = fn.sigmoid
tanh = fn.tanh
# activations (issue 11): their entries and kernels live in _ops/pointwise.py
from .._ops.pointwise import (  # noqa: E402, F401
    celu, celu_, elu, elu_, gelu, glu, hardshrink, hardsigmoid, hardswish, hardtanh, hardtanh_,
    leaky_relu, leaky_relu_, logsigmoid, mish, relu6, rrelu, rrelu_, selu, selu_, silu,
    softplus, softshrink, softsign, tanhshrink, threshold, threshold_)


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    _method_of(input, "softmax")
    return fn.softmax(input, dim, dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    _method_of(input, "log_softmax")
    return fn.log_softmax(input, dim, dtype)


def _method_of(x, name):
    """PyTorch's Python layer calls ``input.<name>(...)``: anything else than a tensor raises
    AttributeError there."""
    from .._tensor import Tensor
    if not isinstance(x, Tensor):
        raise AttributeError(f"'{type(x).__name__}' object has no attribute '{name}'")


def _tensors(op, *pairs):
    """The C++ argument parser's Tensor check, position by position (optional Tensor
    arguments are passed as ``(name, value, True)`` and accept None)."""
    from .._tensor import Tensor
    for i, pair in enumerate(pairs):
        v = pair[1]
        if not isinstance(v, Tensor) and not (v is None and len(pair) > 2):
            raise TypeError(f"{op}(): argument '{pair[0]}' (position {i + 1}) must be Tensor, "
                            f"not {type(v).__name__}")


def _no_requires_grad(fn, *pairs):
    """VariableType's check_no_requires_grad: an argument the op has no derivative for
    (derivatives.yaml lists no formula: a loss's weight, batch norm's running statistics)
    may not require grad while grad mode is on; checked before the op's node and its
    inputs' edges (so before a stale view's error) and before the kernel's checks."""
    from ..autograd.grad_mode import state
    if state.enabled:
        for name, t in pairs:
            if t is not None and t.requires_grad:
                raise RuntimeError(f"The function '{fn}' is not differentiable with respect "
                                   f"to argument '{name}'. This input cannot have "
                                   f"requires_grad True.")


def _cpp_composite(f):
    """An aten C++ composite: its Python numbers are C++ Scalar arguments, as in a backward
    formula (``x + 1.0`` AddBackward1, ``2 * x`` MulBackward1, ``1 - x`` a fill then sub_:
    SubBackward0), where PyTorch's Python operators would record AddBackward0 / RsubBackward1."""
    import functools

    @functools.wraps(f)
    def composite(*args, **kwargs):
        prev, _grad_state.in_formula = _grad_state.in_formula, True
        try:
            return f(*args, **kwargs)
        finally:
            _grad_state.in_formula = prev
    return composite


def _size_warning(input, target):
    """PyTorch's Python layer of the pointwise losses: ``target.size()`` first (so a number
    raises AttributeError there), the broadcast warning, then broadcast_tensors."""
    if target.size() != input.size():
        _warnings.warn(f"Using a target size ({target.size()}) that is different to the input "
                       f"size ({input.size()}). This will likely lead to incorrect results due "
                       f"to broadcasting. Please ensure they have the same size.", stacklevel=3)
        return fn.broadcast_tensors(input, target)  # (ExpandBackward0s, as PyTorch)
    return input, target


def _weighted(loss, weight, reduction, mean_by_weight):
    """The ``weight=`` branch of PyTorch's mse/l1/huber losses (Python code)."""
    loss = fn.mul(loss, weight)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return fn.sum(loss)
    if reduction == "mean":
        return fn.div(fn.sum(loss), fn.sum(weight)) if mean_by_weight else fn.mean(loss)
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', "
                     "'sum'.")


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean squared error, one node (MseLossBackward0) like PyTorch's."""
    if _amp.state.enabled:
        return _amp.fp32(mse_loss, input, target, size_average, reduce, reduction, weight)
    input, target = _size_warning(input, target)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if weight is not None:
        if weight.size() != input.size():
            raise ValueError("Weights and input must have the same size.")
        return _weighted(fn.pow(input - target, 2), weight, reduction, True)
    def kernel(diff):
        return diff * diff
    return _pointwise_loss("mse_loss", kernel, input, target, reduction, ())


def _pointwise_loss(name, kernel, input, target, reduction, params, opmath=()):
    """A loss that is one entry in PyTorch (MseLossBackward0, SmoothL1LossBackward0,
    HuberLossBackward0): ``kernel(input - target)`` reduced, of operands the Python layer
    has broadcast; the entry saves both operands (an in-place change of either is
    detected). ``opmath``: the 16-bit dtypes (names) whose kernel runs in float32 and
    rounds once (Note [Half Huber and smooth L1 losses]); the others round each step."""
    from .._backend import np
    from .._ops import nn_ops as D
    _reduction_enum(reduction)
    _tensors(name, ("input", input), ("target", target))
    op = {"mse_loss": D.MSE_LOSS, "smooth_l1_loss": D.SMOOTH_L1_LOSS,
          "huber_loss": D.HUBER_LOSS}[name]
    a, b = input._data, target._data
    common = _dtypes.result_type(input, target)
    if name == "huber_loss":  # (huber_loss writes into input's dtype)
        from ..autograd.inplace import check_cast
        check_cast(_dtypes.numpy_dtype_of(common), a.dtype)
    if not common.is_floating_point:  # (floating kernels only: mse_cpu, huber_cpu...)
        raise NotImplementedError(f"\"{name[:-5]}_cpu\" not implemented "
                                  f"for '{_dtypes.scalar_name(common)}'")
    # (computed in the promoted dtype; huber_loss's TensorIterator writes into input's)
    out_dt = a.dtype if name == "huber_loss" else _dtypes.numpy_dtype_of(common)
    if b.dtype != a.dtype:
        dt = _dtypes.numpy_dtype_of(common)
        a, b = a.astype(dt, copy=False), b.astype(dt, copy=False)
    if a.dtype.name in opmath:
        sq = kernel(a.astype(np.float32) - b.astype(np.float32)).astype(a.dtype)
    else:
        sq = kernel(a - b)
    sq = sq.astype(out_dt, copy=False)
    a = a.astype(out_dt, copy=False)
    from .._ops.sum_kernel import mean_array, sum_array  # (aten's order: Note [Cascade sum])
    out = sq if reduction == "none" else np.asarray(mean_array(sq) if reduction == "mean"
                                                    else sum_array(sq))
    r = _finish(op, (input, target), (reduction,) + params, out.astype(a.dtype, copy=False))
    if r._grad_fn is not None and input._data.dtype != target._data.dtype:
        from .._ops.dispatch import set_input_metadata
        set_input_metadata(r._grad_fn, (input, target), a.shape, a.dtype)
    return r


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,
                  reduce=None, reduction="mean", label_smoothing=0.0):
    """aten's cross_entropy_loss: class probabilities when target has input's shape,
    label smoothing, else log_softmax over the class dim then nll_loss_nd (two nodes)."""
    if _amp.state.enabled:
        return _amp.fp32(cross_entropy, input, target, weight, size_average, ignore_index, reduce,
                         reduction, label_smoothing)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _reduction_enum(reduction)
    _tensors("cross_entropy_loss", ("input", input), ("target", target), ("weight", weight, 1))
    if input.shape == target.shape:
        if not target.dtype.is_floating_point:
            raise RuntimeError(f"Expected floating point type for target with class "
                               f"probabilities, got {_dtypes.scalar_name(target.dtype)}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        return _cross_entropy_prob(input, target, weight, reduction, label_smoothing)
    if label_smoothing > 0.0:
        if label_smoothing > 1.0:
            raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                               f"{label_smoothing:g}")  # (a C++ double as ostream writes it)
        return _cross_entropy_smoothed(input, target, weight, reduction, ignore_index,
                                       label_smoothing)
    lsm = fn.log_softmax(input, 1 if input.dim() != 1 else 0)
    return nll_loss(lsm, target, weight, ignore_index=ignore_index, reduction=reduction)


@_cpp_composite
def _cross_entropy_prob(input, target, weight, reduction, label_smoothing):
    """aten's cross_entropy_loss_prob_target."""
    class_dim = 0 if input.dim() == 1 else 1
    if input.dim() == 0:
        raise IndexError("Dimension specified as 1 but tensor has no dimensions")
    n_classes = input.size(class_dim)
    if weight is not None and (weight.dim() != 1 or weight.numel() != n_classes):
        raise RuntimeError(f"cross_entropy: weight tensor should be defined either for all "
                           f"{n_classes} classes or no classes but got weight tensor of shape: "
                           f"[{_errors.shape_str(weight.shape)}]")
    lsm = fn.log_softmax(input, class_dim)
    if label_smoothing > 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                           f"{label_smoothing:g}")  # (a C++ double as ostream writes it)
    # (the loss -(lsm * target [* weight]).sum() is negated last)
    if label_smoothing > 0.0:
        target = fn.add(fn.mul(target, 1 - label_smoothing), label_smoothing / n_classes)
    product = fn.mul(lsm, target)
    if weight is not None:
        if lsm.dim() > 1:
            weight = weight.view((1, weight.size(0)) + (1,) * (lsm.dim() - 2))
        product = fn.mul(product, weight)
    if reduction == "none":
        return -fn.sum(product, class_dim)
    total = fn.sum(product)
    if reduction == "sum":
        return -total
    if not lsm.numel():
        return -total.fill_(float("nan"))
    return fn.div(-total, lsm.numel() // n_classes)


def _cross_entropy_smoothed(input, target, weight, reduction, ignore_index, label_smoothing):
    """aten's cross_entropy_loss_label_smoothing: (1 - e) * nll + e * the mean over classes
    of -log p (ignored targets masked)."""
    dim = 0 if input.dim() == 1 else 1
    lsm = fn.log_softmax(input, dim)
    nll = nll_loss(lsm, target, weight, ignore_index=ignore_index, reduction=reduction)
    if weight is not None:
        lsm = fn.mul(lsm, fn.reshape(weight, (-1,) + (1,) * (input.dim() - 2)))
    keep = fn.ne(target, ignore_index)
    smooth = fn.mul(-fn.sum(lsm, dim), _to_dtype(keep, input.dtype))
    if reduction == "mean":
        denom = fn.sum(_to_dtype(keep, input.dtype)) if weight is None else \
            fn.sum(fn.mul(fn.index_select(weight, 0, fn.where(keep, target, 0).flatten()),
                          _to_dtype(keep, input.dtype).flatten()))
        smooth = fn.div(fn.sum(smooth), denom)
    elif reduction == "sum":
        smooth = fn.sum(smooth)
    n_classes = input.shape[dim]
    return fn.add(fn.mul(nll, 1.0 - label_smoothing),
                  fn.mul(smooth, label_smoothing / n_classes))


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    """Negative log-likelihood of class indices; input (N, C, ...) or (C,): aten's
    nll_loss_nd, its checks in its order."""
    if _amp.state.enabled:
        return _amp.fp32(nll_loss, input, target, weight, size_average, ignore_index, reduce,
                         reduction)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _reduction_enum(reduction)
    _tensors("nll_loss_nd", ("input", input), ("target", target), ("weight", weight, 1))
    return _nll_loss_nd(input, target, weight, reduction, ignore_index)


def _nll_loss_nd(input, target, weight, reduction, ignore_index):
    """aten's nll_loss_nd: its own checks (before autograd sees the inputs), then nll_loss
    or nll_loss2d."""
    x = input._data
    t = target._data
    if x.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {x.ndim})")
    if x.ndim != 1 and x.shape[0] != (t.shape[0] if t.ndim else 0):
        raise ValueError(f"Expected input batch_size ({x.shape[0]}) to match target "
                         f"batch_size ({t.shape[0] if t.ndim else 0}).")
    if x.ndim == 3 or x.ndim > 4:     # aten's nll_loss_nd: viewed as (N, C, 1, -1), 2-d loss
        n, c = x.shape[:2]
        if t.ndim == 0:  # (target.sizes().slice(1) of a 0-d target)
            raise RuntimeError("ArrayRef: invalid slice, N = 1; size = 0")
        if t.shape[1:] != x.shape[2:]:
            raise RuntimeError(f"Expected target size [{_errors.shape_str((n,) + x.shape[2:])}]"
                               f", got [{_errors.shape_str(t.shape)}]")
        # (input_.contiguous().view(...): a CloneBackward0 and a ViewBackward0 in the graph)
        flat = (n, c, 1, -1) if x.size else (n, c, 0, 0)
        out = _nll_loss_nd(input.contiguous().view(flat) if x.size else input.view(flat),
                           target.reshape((n, 1, -1) if t.size else (n, 0, 0)),
                           weight, reduction, ignore_index)
        return out.view((n,) + x.shape[2:]) if reduction == "none" else out
    return _nll_loss(input, target, weight, reduction, ignore_index)


@view_errors_before_checks
def _nll_loss(input, target, weight, reduction, ignore_index):
    """aten's nll_loss (2-d or 1-d input) and nll_loss2d (4-d)."""
    from .._backend import np
    from .._ops import nn_ops as D
    x, t = input._data, target._data
    _no_requires_grad("nll_loss2d_forward" if x.ndim == 4 else "nll_loss_forward",
                      ("weight", weight))
    if x.ndim == 4 and t.ndim != 3:
        raise RuntimeError(f"only batches of spatial targets supported (3D tensors) but got "
                           f"targets of dimension: {t.ndim}")
    if x.ndim <= 2 and t.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if t.dtype not in (np.int64, np.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got "
                           f"{_dtypes.scalar_name(target.dtype)}")
    if x.ndim == 2 and t.ndim == 0:  # (target.size(0) of a 0-d target)
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if x.ndim == 1 and t.ndim == 1 and t.shape[0] != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: "
                         f"{t.shape[0]}")
    n_classes = x.shape[1] if x.ndim > 1 else x.shape[0]
    if weight is not None and (weight.dim() != 1 or weight.numel() != n_classes):
        if x.ndim == 4:
            raise RuntimeError("weight tensor should be defined either for all or no classes")
        raise RuntimeError(f"weight tensor should be defined either for all {n_classes} "
                           f"classes or no classes but got weight tensor of shape: "
                           f"[{_errors.shape_str(weight.shape)}]")
    if x.ndim == 4 and (t.shape[0] != x.shape[0] or t.shape[1:] != x.shape[2:]):
        raise RuntimeError(f"size mismatch (got input: [{_errors.shape_str(x.shape)}] , "
                           f"target: [{_errors.shape_str(t.shape)}]")
    if not x.dtype.kind == "f":
        kernel = "nll_loss2d_forward_out_frame" if x.ndim == 4 else "nll_loss_out_frame"
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{_dtypes.scalar_name(input.dtype)}'")
    single = x.ndim == 1                      # (C,) input, 0-d target: one NllLossBackward0
    saved_t = t.astype(np.int64, copy=False)  # (a (1,) target: PyTorch's backward refuses it)
    if single:
        x, t = x[None], np.asarray(t).reshape(1)
    t = t.astype(np.int64, copy=False)
    valid = t != ignore_index
    if x.ndim == 2 and weight is None and t.size and valid.all():
        # (the common case, every sample counted with weight 1: the same values without
        # the masked copies of the general path, a third of its time on a 128 x 10 batch)
        hi, lo = t.max(), t.min()
        if hi >= n_classes or lo < 0:
            _target_out_of_bounds(t, valid, n_classes)
        w = None
        picked = x[np.arange(t.shape[0]), t]
        wt = np.ones(t.shape, x.dtype)
    else:
        if valid.any() and (t[valid].max() >= n_classes or t[valid].min() < 0):
            _target_out_of_bounds(t, valid, n_classes)
        w = None if weight is None else weight._data
        safe = np.where(valid, t, 0)
        picked = np.squeeze(np.take_along_axis(x, np.expand_dims(safe, 1), axis=1), 1)
        wt = np.where(valid, 1.0 if w is None else w[safe], 0.0).astype(x.dtype)
    losses = -picked * wt
    total = float(wt.sum())
    if reduction == "none":
        out = losses[0] if single else losses
    elif reduction == "sum":
        out = np.asarray(losses.sum())
    else:
        out = np.asarray(losses.sum() / total if total else np.nan)
    op = D.NLL_LOSS2D if x.ndim == 4 else D.NLL_LOSS
    return _guard_index(_finish(op, (input,), (saved_t if single else t, w, reduction,
                                               ignore_index, total),
                                out.astype(x.dtype, copy=False)), "target", target)


def _target_out_of_bounds(t, valid, n_classes):
    """The first target (in memory order) outside [0, C), as aten's loop reports it."""
    bad = valid & ((t < 0) | (t >= n_classes))
    raise IndexError(f"Target {int(t.reshape(-1)[bad.reshape(-1).argmax()])} is out of "
                     "bounds.")


# ---- layers composed from the op table ------------------------------------------------
# Note [Composed functionals]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~
# The functions below are written with existing differentiable ops: values and gradients
# are PyTorch's (to rounding), but the graph shows the primitive nodes (``WhereBackward0``,
# ``MulBackward0``...) where PyTorch has one fused node (``EmbeddingBackward0``,
# ``BinaryCrossEntropyBackward0``...). Convolution, pooling and batch/layer norm are single
# table entries in ``_ops/nn_ops.py``, the activations in ``_ops/pointwise.py``, with
# PyTorch's node names.
def _reduce(loss, reduction):
    if reduction == "none":
        return loss
    if reduction == "mean":
        return fn.mean(loss)
    if reduction == "sum":
        return fn.sum(loss)
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _legacy_reduction(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        from . import _reduction
        return _reduction.legacy_get_string(size_average, reduce)
    return reduction


def _get_softmax_dim(name, ndim, stacklevel):
    _warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the "
                   "call to include dim=X as an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim(), _stacklevel)
    neg = -input
    _method_of(neg, "softmax")
    return fn.softmax(neg, dim, dtype)


def dropout(input, p=0.5, training=True, inplace=False):
    """PyTorch's CPU dropout: ``noise = empty_like(x).bernoulli_(1 - p).div_(1 - p)``,
    then ``x * noise`` (one MulBackward0): one float64 uniform per element, drawn in
    order, compared with ``1 - p``, so the mask is torch's for the same seed."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    _tensors("dropout_" if inplace else "dropout", ("input", input))
    if not training or p == 0:
        return input
    from .. import _random
    from .._creation import _make
    d = input._data
    if p == 1:   # a 0-d zero, no draw
        zero = _make(_np_zeros_like_scalar(d))
        return input.mul_(zero) if inplace else fn.mul(input, zero)
    noise = _random.like_order(lambda shape: _random.bernoulli(1 - p, shape, d.dtype), d)
    noise /= noise.dtype.type(1 - p)
    noise = _make(noise)
    return input.mul_(noise) if inplace else fn.mul(input, noise)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return _alpha_dropout(input, p, training, inplace, False)


def _alpha_dropout(input, p, training, inplace, feature):
    """aten's _dropout_impl<feature, alpha>: ``x * (noise * a) + b`` with ``noise`` one
    bernoulli_(1 - p) per element (per (sample, channel) for feature dropout), then
    ``add_(b)`` (AddBackward0); p == 1 multiplies by a 0-d zero."""
    if not training or p == 0 or input.numel() == 0:
        return input
    from .. import _random
    from .._creation import _make
    d = input._data
    if p == 1:
        zero = _make(_np_zeros_like_scalar(d))
        return input.mul_(zero) if inplace else fn.mul(input, zero)
    if feature and d.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = d.shape[:2] + (1,) * (d.ndim - 2) if feature else d.shape
    noise = (_random.bernoulli(1 - p, shape, d.dtype) if feature else  # (make_feature_noise)
             _random.like_order(lambda sh: _random.bernoulli(1 - p, sh, d.dtype), d))
    alpha = 1.7580993408473766
    a = 1.0 / _math.sqrt((alpha * alpha * p + 1) * (1 - p))
    b = _make((noise - 1) * (alpha * a) + alpha * a * p)
    noise = _make(noise * a)
    out = input.mul_(noise) if inplace else fn.mul(input, noise)
    return out.add_(b)


def prelu(input, weight):
    if _amp.state.enabled:
        return _amp.lower(prelu, input, weight)
    _tensors("prelu", ("input", input), ("weight", weight))
    return fn.prelu(input, weight)  # one PreluKernelBackward0 node (_ops/special.py)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    _method_of(input, "norm")
    denom = fn.clamp_min(fn.norm(input, p, dim, keepdim=True), eps).expand_as(input)
    if out is not None:  # (PyTorch's: torch.div(input, denom, out=out))
        from .._ops._out import write_out
        return write_out("div", input / denom, out)
    return input / denom


def bilinear(input1, input2, weight, bias=None):
    """y[n, o] = x1[n] . W[o] . x2[n] + b[o]."""
    from .._ops._common import _size_dim

    def size(t, dim):  # (Tensor.size(dim): a 0-d tensor has no dim -1)
        return t.shape[_size_dim(dim, t.dim())]
    if input1.dim() != input2.dim():  # (aten's checks, in its order)
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} "
                           f"and {input2.dim()}")
    for i in range(input1.dim() - 1):
        if input1.shape[i] != input2.shape[i]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: "
                               f"got {input1.shape[i]} and {input2.shape[i]}")
    for i, x in ((1, input1), (2, input2)):
        if size(x, -1) != size(weight, i):
            raise RuntimeError(f"bilinear(): input{i} size does not match weight size: got "
                               f"{x.shape[-1]} but expected {weight.shape[i]}")
    if bias is not None and size(bias, 0) != size(weight, 0):
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got "
                           f"{bias.shape[0]} but expected {weight.shape[0]}")
    batch = tuple(input1.shape[:-1])
    if len(batch) != 1:  # (one batch dim: (N, in1) and (N, in2))
        input1 = fn.reshape(input1, (-1, input1.shape[-1]))
        input2 = fn.reshape(input2, (-1, input2.shape[-1]))
    tmp = fn.matmul(fn.unsqueeze(input1, -3), weight)        # (out, N, in2)
    y = fn.sum(fn.mul(tmp, fn.unsqueeze(input2, -3)), -1)     # (out, N)
    y = fn.movedim(y, 0, -1)
    if len(batch) != 1:
        y = fn.reshape(y, batch + (weight.shape[0],))
    return y if bias is None else y + bias


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    """Rows of ``weight`` (one EmbeddingBackward0 node; the padding row gets no gradient)."""
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    if max_norm is not None:
        from ..autograd import no_grad
        with no_grad():
            from .._backend import np
            from .._tensor import _make
            rows = _make(np.unique(input._data))
            sel = weight[rows]
            norms = fn.norm(sel, norm_type, 1, keepdim=True)
            scale = fn.where(norms > max_norm, max_norm / (norms + 1e-7), fn.mul(norms, 0) + 1)
            weight[rows] = fn.mul(sel, scale)
    return _embedding(weight, input, -1 if padding_idx is None else padding_idx,
                      scale_grad_by_freq)


@view_errors_before_checks
def _embedding(weight, input, padding_idx, scale_grad_by_freq):
    """aten::embedding (torch.embedding): padding_idx < 0 means none."""
    from .._ops import nn_ops as N
    if weight.dim() == 0 and weight.requires_grad and _grad_state.enabled:
        # (autograd's EmbeddingBackward0 saves weight.size(0) before the kernel's check)
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if weight.dim() != 2:
        raise RuntimeError("'weight' must be 2-D")
    idx = input._data
    if idx.dtype.kind not in "iu":
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the "
                           f"following scalar types: Long, Int; but got "
                           f"{_dtypes.legacy_type_name(input.dtype)} instead (while checking "
                           "arguments for embedding)")
    if idx.size and not weight.shape[0]:  # (index_select's check of an empty self, first)
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if idx.size and (idx.min() < 0 or idx.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    params = (idx, padding_idx if padding_idx >= 0 else -1, bool(scale_grad_by_freq))
    return _guard_index(_finish(N.EMBEDDING, (weight,), params,
                                N.EMBEDDING.kernel(weight._data, *params)), "indices", input)


def one_hot(tensor, num_classes=-1):
    """aten's one_hot: its checks in order, then the comparison with each class."""
    from .._creation import arange, empty
    _tensors("one_hot", ("input", tensor))
    if tensor.dtype != _dtypes.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if tensor.numel() == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        return empty(tuple(tensor.shape) + (num_classes,), dtype=_dtypes.int64)
    if int(tensor.min().item()) < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(tensor.max().item()) + 1
    elif num_classes <= int(tensor.max().item()):
        raise RuntimeError("Class values must be smaller than num_classes.")
    return fn.eq(tensor.unsqueeze(-1), arange(num_classes)).long()


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """aten: at::norm(x1 - x2 + eps, p, innermost dim, keepdim) (NormBackward1)."""
    from .._ops.linalg import NORM_DIM
    from .._ops.reduction import _vector_norm
    _tensors("pairwise_distance", ("x1", x1), ("x2", x2))
    if keepdim is not False and keepdim is not True:  # (Note [Argument errors on the
        raise TypeError("pairwise_distance(): keepdim")  # exception path] in _argparse.py)
    return _vector_norm(_cpp_add_scalar(x1 - x2, eps), p, (max(x1.dim(), x2.dim()) - 1,),
                        keepdim, NORM_DIM)


def _cpp_add_scalar(x, number):
    """``x + number`` as aten's C++ writes it: add(Tensor, Scalar), AddBackward1 (Python's
    operator wraps the number into a tensor: AddBackward0); the value as the operator's."""
    from ..autograd import no_grad
    from .._ops.pointwise import ADD_SCALAR
    with no_grad():
        value = (x + number)._data
    return _finish(ADD_SCALAR, (x,), (number, 1), value)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """PyTorch's formula: each vector divided by its norm clamped to eps, then the dot."""
    _tensors("cosine_similarity", ("x1", x1), ("x2", x2))
    common = _dtypes.result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is "
                           f"{_dtypes.scalar_name(common)}")
    # (aten: integral operands converted, both expanded, the norms cloned and clamped in
    # place without grad, so the gradient flows through a clamped norm)
    from ..autograd import no_grad
    from .._ops.linalg import vector_norm
    x1, x2 = (_to_dtype(x, common) if not (x.dtype.is_floating_point or x.dtype.is_complex)
              else x for x in (x1, x2))
    x1, x2 = fn.broadcast_tensors(x1, x2)
    n1 = vector_norm(x1, 2, dim, True).clone()
    n2 = vector_norm(x2, 2, dim, True).clone()
    with no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return fn.sum(fn.mul(x1 / n1, x2 / n2), dim)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """native_group_norm (NativeGroupNormBackward0), statistics per (sample, group)."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{input.dim()}")
    # (F.group_norm's _verify_batch_size, in training or not: a ZeroDivisionError for 0 groups)
    size = [input.size(0) * input.size(1) // num_groups, num_groups] + list(input.size()[2:])
    if _math.prod(size[:1] + size[2:]) == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input "
                         f"size {size}")
    return _group_norm(input, num_groups, weight, bias, eps)


def _group_norm(input, num_groups, weight, bias, eps):
    """aten::group_norm (torch.group_norm)."""
    if input.dim() < 2:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but "
                         "got 1)")
    shape = tuple(input.shape)
    n, c = shape[:2]
    if c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {list(shape)} and "
                           f"num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != c):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of "
                               f"channels in input, but got {name} of shape {list(t.shape)} "
                               f"and input of shape {list(shape)}")
    # (its CPU path: input.contiguous(input.suggest_memory_format()), weight.contiguous(),
    # bias.contiguous(): a CloneBackward0 for a strided input, then the kernel)
    from .._ops.layout import _elem_strides, _strides_like_channels_last
    from .. import _memory_format as mf
    x = input._data
    if x.ndim in (4, 5) and _strides_like_channels_last(x.shape, _elem_strides(x)):
        input = input.contiguous(
            memory_format=mf.channels_last if x.ndim == 4 else mf.channels_last_3d)
    else:
        input = input.contiguous()
    weight = None if weight is None else weight.contiguous()
    bias = None if bias is None else bias.contiguous()
    return _native_group_norm(input, weight, bias, n, c, _prod(shape[2:]), int(num_groups),
                              eps)[0]


def _native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    """aten::native_group_norm (torch.native_group_norm): (result, mean, rstd), the
    statistics (N, group); the three are the op's outputs, so a compiled trace (which
    records this call) keeps the statistics the backward takes."""
    from .._ops import nn_ops as Ops
    _check_norm_dtypes(input, (weight, bias))
    _pc.refuse_unless("GroupNormKernelImpl", input.dtype, _pc._FLOATS)  # (its dispatch, also
    params = (N, C, HxW, group, eps)                                     # for an empty input)
    outs = Ops.group_norm_kernel(input._data, None if weight is None else weight._data,
                                 None if bias is None else bias._data, *params)
    return _finish_multi(Ops.GROUP_NORM, (input, weight, bias), params, outs)


def _check_norm_dtypes(input, params, read_order=None):
    """aten's mixed_data_type.h for the CPU norms: parameters of another dtype than the
    input are allowed only as float32 parameters of a float16/bfloat16 input; otherwise each
    is read as the input's dtype (in the kernel's ``read_order``), and the first that is not
    raises."""
    dt = input.dtype
    first = next((p.dtype for p in params if p is not None), None)
    if first is not None and first != dt:
        if any(p is not None and p.dtype != _dtypes.float32 for p in params):
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
        if dt not in (_dtypes.float16, _dtypes.bfloat16):
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
        return
    for p in read_order or params:
        if p is not None and p.dtype != dt:
            raise RuntimeError(f"expected scalar type {_dtypes.scalar_name(dt)} but found "
                               f"{_dtypes.scalar_name(p.dtype)}")


def rms_norm(input, normalized_shape, weight=None, eps=None):
    _norm_args("rms_norm", input, normalized_shape, weight)
    _norm_shape_checks(input, tuple(normalized_shape), weight, None, "")
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise NotImplementedError(f"\"rms_norm\" not implemented for "
                                  f"'{_dtypes.scalar_name(input.dtype)}'")
    if weight is not None and weight.dtype != input.dtype:
        _warnings.warn(f"Mismatch dtype between input and weight: input dtype = "
                       f"{_dtypes.cpp_name(input.dtype)}, weight dtype = "
                       f"{_dtypes.cpp_name(weight.dtype)}, Cannot dispatch to fused "
                       "implementation.", stacklevel=2)
    # aten's rms_norm_composite: in the op-math dtype (float16/bfloat16 upcast to float32,
    # whose epsilon is the default), pow(x, 2).mean(...).add_(eps), the result cast back
    dims = tuple(range(-1, -len(normalized_shape) - 1, -1))
    up = _to_dtype(input, _dtypes.float32) if input.dtype.itemsize == 2 else input
    if eps is None:
        eps = _dtypes.finfo(up.dtype).eps
    mean = fn.mean(fn.pow(up, 2), dims, keepdim=True)
    out = fn.mul(up, fn.rsqrt(_cpp_add_scalar(mean, eps)))  # (add_(Scalar): AddBackward1)
    if weight is not None:
        out = fn.mul(out, weight)
    from .. import _memory_format as _mf
    if _mf.suggested(tuple(input.shape), input.stride()) is _mf.contiguous_format:
        out = out.contiguous()  # (CloneBackward0 for a result laid out as a permuted input)
    return out if out.dtype == input.dtype else _to_dtype(out, input.dtype)


# ---- losses -------------------------------------------------------------------------
def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    if _amp.state.enabled:
        return _amp.fp32(l1_loss, input, target, size_average, reduce, reduction, weight)
    input, target = _size_warning(input, target)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if weight is not None:
        if weight.size() != input.size():
            raise ValueError("Weights and input must have the same size.")
        return _weighted(fn.abs(input - target), weight, reduction, True)
    return _l1_loss(input, target, reduction)


def _l1_loss(input, target, reduction):
    """torch._C._nn.l1_loss (composite: abs(input - target), reduced)."""
    _reduction_enum(reduction)
    _tensors("l1_loss", ("input", input), ("target", target))
    return _reduce(fn.abs(input - target), reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean",
                   beta=1.0):
    if _amp.state.enabled:
        return _amp.fp32(smooth_l1_loss, input, target, size_average, reduce, reduction, beta)
    input, target = _size_warning(input, target)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if beta == 0.0:  # (PyTorch's smooth_l1_loss calls l1_loss then)
        return _l1_loss(input, target, reduction)
    if beta < 0:
        _reduction_enum(reduction)
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")

    def kernel(x):
        from .._backend import np
        z = abs(x)
        return np.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta).astype(x.dtype)
    return _pointwise_loss("smooth_l1_loss", kernel, input, target, reduction, (beta,),
                           ("bfloat16",))


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    if _amp.state.enabled:
        return _amp.fp32(huber_loss, input, target, reduction, delta, weight)
    input, target = _size_warning(input, target)
    if delta <= 0:
        _reduction_enum(reduction if weight is None else "none")
        raise RuntimeError("huber_loss does not support non-positive values for delta.")

    def kernel(x):
        from .._backend import np
        z = abs(x)
        return np.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta)).astype(x.dtype)
    if weight is not None:
        if weight.size() != input.size():
            raise ValueError("Weights and input must have the same size.")
        loss = _pointwise_loss("huber_loss", kernel, input, target, "none", (delta,),
                               ("float16",))
        return _weighted(loss, weight, reduction, False)
    return _pointwise_loss("huber_loss", kernel, input, target, reduction, (delta,),
                           ("float16",))


# Note [Half Huber and smooth L1 losses]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# PyTorch's CPU kernels of the two losses (huber_kernel, smooth_l1_kernel) treat the 16-bit
# dtypes differently, as measured against torch 2.13 (200,000 N(0, 1) pairs per dtype and
# delta, both loops): float16 huber and bfloat16 smooth L1 compute in float32 from
# float(input) - float(target), delta/beta a float, and round once (0 differences for delta
# in {0.1, 0.3, 0.7, 1, 1.7}; each step rounded: 23-43% of the elements); bfloat16 huber and
# float16 smooth L1 round each step to the dtype, delta/beta the dtype's (Vectorized<Half>'s
# arithmetic: 0 differences; in float32: 23-43%), as NumPy's 16-bit arithmetic does.


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    """One BinaryCrossEntropyBackward0 entry (aten's CPU kernels, _ops/nn_ops.py), after
    PyTorch's Python checks."""
    if _amp.state.enabled:
        return _amp.fp32(binary_cross_entropy, input, target, weight, size_average, reduce,
                         reduction)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _reduction_enum(reduction)
    if target.size() != input.size():
        raise ValueError(f"Using a target size ({target.size()}) that is different to the "
                         f"input size ({input.size()}) is deprecated. Please ensure they have "
                         "the same size.")
    if weight is not None:
        weight = weight.expand(fn.broadcast_shapes(target.size(), weight.size()))
    _tensors("binary_cross_entropy", ("input", input), ("target", target),
             ("weight", weight, 1))
    _no_requires_grad("binary_cross_entropy", ("weight", weight))
    if target.dtype != input.dtype:
        raise RuntimeError(f"Found dtype {_dtypes.scalar_name(target.dtype)} but expected "
                           f"{_dtypes.scalar_name(input.dtype)}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"binary_cross_entropy\" not implemented for "
                                  f"'{_dtypes.scalar_name(input.dtype)}'")
    _bce_range(input._data, target._data)
    from .._ops import nn_ops as N
    w = None if weight is None else weight._data.astype(input._data.dtype, copy=False)
    params = (w, _reduction_enum(reduction))   # (loss.mul_(weight): in the loss's dtype)
    r = _finish(N.BCE, (input, target), params, N.bce_kernel(input._data, target._data,
                                                            *params))
    return _weight_tangent(r, (input, target), (weight,))


def _weight_tangent(r, duals, weights):
    """PyTorch's forward rules of binary_cross_entropy(_with_logits) read ``weight`` /
    ``pos_weight`` themselves, not their primals: with a tangent on one of those and on an
    input, the output's tangent would have a tangent, which setting it refuses (after the
    kernel). Our entries take the weights as constants, so the check is made here."""
    from ..autograd.grad_mode import state
    if state.fw:
        from ..autograd.forward_ad import _any_tangent, _current
        if _any_tangent(None, duals) and _any_tangent(None, [w for w in weights
                                                            if w is not None]):
            raise RuntimeError("Setting a forward grad that itself has a forward gradient at "
                               f"the same level{_current[0]} is not supported.")
    return r


def _bce_range(x, t):
    """aten's binary_cross_entropy loop: each element's input, then its target, in [0, 1]
    (NaN fails)."""
    from .._backend import np
    with np.errstate(invalid="ignore"):
        bx = ~((x >= 0) & (x <= 1))
        bt = ~((t >= 0) & (t <= 1))
    if bx.any() or bt.any():
        bx, bt = bx.reshape(-1), bt.reshape(-1)
        ix = int(bx.argmax()) if bx.any() else bx.size
        it = int(bt.argmax()) if bt.any() else bt.size
        raise RuntimeError(f"all elements of {'input' if ix <= it else 'target'} should be "
                           "between 0 and 1")


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None,
                                     reduce=None, reduction="mean", pos_weight=None):
    """One BinaryCrossEntropyWithLogitsBackward0 entry (_ops/nn_ops.py), as aten's."""
    if _amp.state.enabled:
        return _amp.fp32(binary_cross_entropy_with_logits, input, target, weight, size_average,
                         reduce, reduction, pos_weight)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _reduction_enum(reduction)
    if not target.size() == input.size():
        raise ValueError(f"Target size ({target.size()}) must be the same as input size "
                         f"({input.size()})")
    _tensors("binary_cross_entropy_with_logits", ("input", input), ("target", target),
             ("weight", weight, 1), ("pos_weight", pos_weight, 1))
    # (aten: log_sigmoid(input), then (1 - target).mul_(input): the loss has target's dtype)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"log_sigmoid_cpu\" not implemented for "
                                  f"'{_dtypes.scalar_name(input.dtype)}'")
    if target.dtype == _dtypes.bool:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    if not (target.dtype.is_floating_point or target.dtype.is_complex):
        common = _dtypes.result_type(input, target)
        raise RuntimeError(f"result type {_dtypes.scalar_name(common)} can't be cast to the "
                           f"desired output type {_dtypes.scalar_name(target.dtype)}")
    r = fn.nn_ops.binary_cross_entropy_with_logits(input, target, weight, pos_weight,
                                                   _reduction_enum(reduction))
    if r._grad_fn is not None and r.is_complex():  # (a complex target: a complex loss)
        raise RuntimeError("binary_cross_entropy_with_logits does not support automatic "
                           "differentiation for outputs with complex dtype.")
    return _weight_tangent(r, (input, target), (weight, pos_weight))


def _reduction_enum(reduction):
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return ("none", "mean", "sum").index(reduction)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    if _amp.state.enabled:
        return _amp.fp32(kl_div, input, target, size_average, reduce, reduction, log_target)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if reduction == "mean":
        _warnings.warn("reduction: 'mean' divides the total loss by both the batch size and "
                       "the support size.'batchmean' divides only by the batch size, and "
                       "aligns with the KL div math definition.'mean' will be changed to "
                       "behave the same as 'batchmean' in the next major release.",
                       stacklevel=2)
    if reduction == "batchmean":
        loss = _kl_div(input, target, "sum", log_target)
        return loss / input.size()[0] if input.dim() else loss
    _reduction_enum(reduction)
    return _kl_div(input, target, reduction, log_target)


def _kl_div(input, target, reduction, log_target):
    """aten::kl_div (torch.kl_div): exp(t) * (t - x), or xlogy(t, t) - t * x."""
    _tensors("kl_div", ("input", input), ("target", target))
    if input.is_complex() or target.is_complex():
        raise RuntimeError("kl_div: Complex inputs not supported.")
    if not (input.dtype.is_floating_point and target.dtype.is_floating_point):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    # (GCC evaluates the operands of aten's `a - b`, `a * b` right to left: the right one's
    # node comes first, so the left one's runs first in backward)
    if log_target:
        diff = target - input
        loss = fn.mul(fn.exp(target), diff)
    else:
        product = fn.mul(target, input)
        loss = fn.xlogy(target, target) - product
    return _reduce(loss, reduction)


@view_errors_before_checks
def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """One SoftMarginLossBackward0 entry, computed as aten's soft_margin_loss_out:
    log1p(exp(-input * target)) in input's dtype (inf for a large margin, as PyTorch's)."""
    from .._backend import np
    from .._ops import nn_ops as D
    from ..autograd import inplace
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _reduction_enum(reduction)
    _tensors("soft_margin_loss", ("input", input), ("target", target))
    _no_requires_grad("soft_margin_loss", ("target", target))
    x, t = input._data, target._data
    if x.dtype == np.bool_:
        raise RuntimeError(fn.pointwise.BOOL_NEGATION)
    inplace.check_output_shape(x.shape, t.shape)  # (neg_out(input).mul_(target) ...)
    rt = _dtypes.numpy_dtype_of(_dtypes.result_type(input, target))
    inplace.check_cast(rt, x.dtype)
    inplace.check_cast(np.dtype(_dtypes.default_float.np) if x.dtype.kind in "iu" else x.dtype,
                       x.dtype)  # (... .exp_() of an integral input)
    from .._ops import raw
    with np.errstate(over="ignore", invalid="ignore"):  # (float32: exp and log1p rounded
        if rt.itemsize == 2 and rt.kind in "fV" and t.size == 1:  # as PyTorch's)
            # (mul_ of a half tensor by one value reads it as a float32: Note [Half scalars
            # in float32] in _ops/_common.py; an int64 -2**63 is not float16's -inf)
            m = ((-x.astype(rt)).astype(np.float32) * t.astype(np.float32)).astype(rt)
        else:
            m = -x.astype(rt) * t.astype(rt)
        out = raw.log1p(raw.exp(m.astype(x.dtype)))
    if reduction != "none":
        out = np.asarray(out.mean() if reduction == "mean" else out.sum())
    r = _finish(D.SOFT_MARGIN_LOSS, (input, target), (reduction,),
                out.astype(x.dtype, copy=False))
    if r._grad_fn is not None:  # (no edge for the non-differentiable target, as PyTorch's)
        r._grad_fn._next = r._grad_fn._next[:1]
    return r


@_cpp_composite
def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None,
                        reduction="mean"):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _reduction_enum(reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension "
                           f"but got sizes: input1: {input1.size()}, input2: {input2.size()}, "
                           f"target: {target.size()} ")
    diff = input1 - input2  # (aten's -target * (input1 - input2) + margin: this first)
    return _reduce((fn.mul(-target, diff) + margin).clamp_min_(0), reduction)


@_cpp_composite
def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None,
                         reduction="mean"):
    from .._creation import zeros_like
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _reduction_enum(reduction)
    _tensors("hinge_embedding_loss", ("input", input), ("target", target))
    from .._creation import full_like
    zeros = zeros_like(input)
    margin_clamp = fn.clamp_min_(full_like(input, margin).sub_(input), 0)
    loss = fn.where(target != 1, margin_clamp, zeros) + fn.where(target != -1, input, zeros)
    return _reduce(loss, reduction)


@_cpp_composite
def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
                     reduce=None, reduction="mean"):
    """aten::poisson_nll_loss: exp(x) - t x (or x - t log(x + eps)), plus Stirling's term
    t log t - t + log(2 pi t) / 2 where t > 1 (added in place, as aten does)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    _tensors("poisson_nll_loss", ("input", input), ("target", target))
    if log_input:
        loss = fn.exp(input) - fn.mul(target, input)
    else:
        loss = input - fn.mul(target, fn.log(input + eps))
    if full:
        stirling = fn.mul(target, fn.log(target)) - target + fn.mul(
            fn.log(fn.mul(target, 2 * _math.pi)), 0.5)
        loss = loss.add_(fn.masked_fill(stirling, target <= 1, 0))
    return _reduce(loss, reduction)


_ = _errors


# ---- convolution, pooling, normalisation: single table entries (_ops/nn_ops.py) ----------
def _tuple(x, n, name=None):
    # (_argparse.index: a float or bool size is the parser's refusal, Note [Argument errors
    # on the exception path] in _argparse.py; a bool after an int is an int there)
    if isinstance(x, (list, tuple)):
        if len(x) == 1 and n > 1:
            return tuple(x) * n
        return tuple(_argparse.int_list(x))
    return (x if x.__class__ is int else _argparse.index(x),) * n


def _finish_multi(op, inputs, params, outs):
    """_finish for ops with several outputs (a tuple of arrays): without a graph the
    results still get tangents inside a forward-AD level (_no_graph)."""
    return _finish(op, inputs, params, tuple(outs))


def _conv_dims(input, nsp, name="conv"):
    """conv{nsp}d's (conv_transpose{nsp}d's) own check (aten's composite), made before
    autograd sees the inputs; _conv_check's are convolution's, after (Note [View errors
    before an op's checks])."""
    x = input._data
    if x.ndim not in (nsp + 1, nsp + 2):
        raise RuntimeError(f"Expected {nsp + 1}D (unbatched) or {nsp + 2}D (batched) input to "
                           f"{name}{nsp}d, but got input of size: "
                           f"[{_errors.shape_str(x.shape)}]")


def _conv_check(input, weight, bias, groups, nsp, transposed, stride, padding, dilation,
                output_padding=None):
    """aten's _convolution and check_shape_forward, in their order (Note [Convolution
    dtype checks]); ``padding`` None for a string padding. Then the backend's own shape
    checks (_conv_backend_shape)."""
    x, w = input._data, weight._data
    if x.dtype.kind == "c":
        _conv_complex_types(input, weight, bias)
    if w.ndim < 3:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if len(stride) != 1 and len(stride) != w.ndim - 2:  # (expand_param_if_needed's, stride
        # first: conv{n}d gives n values)
        raise RuntimeError(f"expected stride to be a single integer value or a list of "
                           f"{w.ndim - 2} values to match the convolution dimensions, but got "
                           f"stride=[{_errors.shape_str(stride)}]")
    for name, values in (("padding", padding), ("dilation", dilation),
                         ("output_padding", output_padding)):
        if values is not None and len(values) != 1 and len(values) != w.ndim - 2:
            raise RuntimeError(f"expected {name} to be a single integer value or a list of "
                               f"{w.ndim - 2} values to match the convolution dimensions, but "
                               f"got {name}=[{_errors.shape_str(values)}]")
    if padding is not None and any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if output_padding is not None and any(p < 0 for p in output_padding):
        raise RuntimeError("negative output_padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d < 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    shape_in = x.shape if x.ndim == nsp + 2 else (1,) + x.shape
    if w.ndim != len(shape_in):
        raise RuntimeError(f"Expected {w.ndim}-dimensional input for {w.ndim}-dimensional "
                           f"weight [{_errors.shape_str(w.shape)}], but got {len(shape_in)}-"
                           f"dimensional input of size [{_errors.shape_str(shape_in)}] instead")
    if w.shape[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at "
                           f"dimension 0, but got weight of size [{_errors.shape_str(w.shape)}] "
                           "instead")
    if not transposed and w.shape[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} "
                           f"at dimension 0, but got weight of size "
                           f"[[{_errors.shape_str(w.shape)}]] instead")
    cin = x.shape[1] if x.ndim == nsp + 2 else x.shape[0]
    if not transposed and w.shape[1] * groups != cin:
        raise RuntimeError(f"Given groups={groups}, weight of size [{_errors.shape_str(w.shape)}], "
                           f"expected input[{_errors.shape_str(shape_in)}] to have "
                           f"{w.shape[1] * groups} channels, but got {cin} channels instead")
    if transposed and w.shape[0] != cin:
        raise RuntimeError(f"Given transposed=1, weight of size [{_errors.shape_str(w.shape)}], "
                           f"expected input[{_errors.shape_str(shape_in)}] to have {w.shape[0]} "
                           f"channels, but got {cin} channels instead")
    if bias is not None:
        b = bias._data
        n = w.shape[1] * groups if transposed else w.shape[0]
        if b.ndim != 1 or b.shape[0] != n:
            raise RuntimeError(f"Given {'transposed=1, ' if transposed else ''}weight of size "
                               f"[{_errors.shape_str(w.shape)}], expected bias to be "
                               f"1-dimensional with {n} elements, but got bias of size "
                               f"[{_errors.shape_str(b.shape)}] instead")
    if x.size and w.size:  # (the Empty backend, for an empty input or kernel, has its own)
        _conv_backend_shape(x, w, shape_in, nsp, transposed, stride, padding, dilation,
                            output_padding, groups)
    return shape_in


def _conv_backend_shape(x, w, shape_in, nsp, transposed, stride, padding, dilation,
                        output_padding, groups):
    """The backends' shape checks, before their dtype checks: a zero dilation; a transposed
    convolution's output padding (smaller than the stride or the dilation) and output size.
    The slow kernels' (slow_conv_transpose{2,3}d_shape_check: a 1-d convolution, viewed as
    2-d, names a height) or mkldnn's, where use_mkldnn picks it (oneDNN's own errors; an
    output size of 0 is an empty result there)."""
    if not transposed:  # (the common case: one membership test)
        if 0 in dilation:
            if _uses_mkldnn(x, w, shape_in, stride, dilation, groups):
                raise RuntimeError("non-positive dilation is not supported")
            raise RuntimeError(f"dilation should be greater than zero, but got "
                               f"[{_errors.shape_str(((1,) if nsp == 1 else ()) + dilation)}]")
        return
    mkldnn = _uses_mkldnn(x, w, shape_in, stride, dilation, groups, output_padding)
    two = (lambda v, one: (one,) + tuple(v)) if nsp == 1 else (lambda v, one: tuple(v))
    dilation = two(dilation, 1)
    stride, output_padding = two(stride, 1), two(output_padding, 0)
    size_in, padding, kernel = two(shape_in[2:], 1), two(padding, 0), two(w.shape[2:], 1)
    size_out = [(i - 1) * s - 2 * p + d * (k - 1) + 1 + o for i, s, p, d, k, o in zip(
        size_in, stride, padding, dilation, kernel, output_padding)]
    if mkldnn:
        if 0 in dilation:
            raise RuntimeError("dimensions are invalid" if nsp == 3 else
                               "could not create a primitive descriptor for the deconvolution "
                               "forward propagation primitive. Run workload with environment "
                               "variable ONEDNN_VERBOSE=all to get additional diagnostic "
                               "information.")
        if any(o < 0 for o in size_out):
            raise RuntimeError("could not construct a memory descriptor using a format tag")
        return
    names = ("depth", "height", "width")[-len(dilation):]

    def named(what, values, sep):
        return sep.join(f"{what}_{n}: {v}" for n, v in zip(names, values))
    if 0 in dilation:
        raise RuntimeError("dilation should be greater than zero, but got " +
                           named("dilation", dilation, ", "))
    if any(o >= s and o >= d for o, s, d in zip(output_padding, stride, dilation)):
        raise RuntimeError("output padding must be smaller than either stride or dilation, but "
                           "got " + " ".join((named("output_padding", output_padding, " "),
                                              named("stride", stride, " "),
                                              named("dilation", dilation, " "))))
    if any(o < 1 for o in size_out):
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, size_in))}). "
                           f"Calculated output size per channel: "
                           f"({' x '.join(map(str, size_out))}). Output size is too small")


def _conv_types(input, weight, bias, shape_in, nsp, transposed, stride, padding, dilation,
                groups, output_padding=None):
    """The backend's dtype checks, after every shape check (Note [Convolution dtype
    checks]): two comparisons on the float32/float64 path."""
    x, w = input._data, weight._data
    if not (x.dtype == w.dtype and x.dtype.char in "fd" and (bias is None or
                                                          bias._data.dtype == x.dtype)) \
            and x.size:  # (an empty input's Empty backend checks no dtypes)
        _conv_backend_types(input, weight, bias, shape_in, nsp, transposed, stride,
                            padding, dilation, groups, output_padding)


# Note [Convolution dtype checks]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# aten checks dtypes at four places, each with its own spelling of the type names:
# 1. conv{n}d (the int-padding overload; not conv_transpose{n}d, not padding='same')
#    first, before batchify: "Input type (float) and bias type (double) should be the
#    same" (TypeMeta's C++ names).
# 2. A complex input (complex_convolution, after batchify, before _convolution's shape
#    checks): check_input_same_type_as_parameters, weight then bias, Tensor::toString()'s
#    names ("torch.FloatTensor", "CPUBFloat16Type").
# 3. After the shape checks, the backend _select_conv_backend picks: mkldnn (bfloat16,
#    or float32 unless use_mkldnn's small-input heuristics say no) runs the same check
#    with "... or input should be a MKLDNN tensor and weight is a dense tensor".
# 4. Otherwise the slow CPU kernel: its dtype dispatch first (NotImplementedError for
#    Bool; the transposed kernels take only floating types and Long), then
#    "expected scalar type Double but found Float" for the weight; a bias of another
#    dtype is cast into the output (slow_conv2d, slow_conv3d) or added
#    (slow_conv_transpose2d: add_'s cast check), or refused as the weight
#    (slow_conv_transpose3d).
# The float32/float64 path with matching dtypes costs two dtype comparisons.
def _conv_bias_type(input, bias):
    """Check 1 of Note [Convolution dtype checks]."""
    if bias is not None and bias.dtype != input.dtype:
        raise RuntimeError(f"Input type ({_dtypes.cpp_name(input.dtype)}) and bias type "
                           f"({_dtypes.cpp_name(bias.dtype)}) should be the same")


def _same_type_error(input, other, what, mkldnn):
    tail = (f" or input should be a MKLDNN tensor and {what} is a dense tensor"
            if mkldnn else "")
    return RuntimeError(f"Input type ({_dtypes.tensor_string(input.dtype)}) and {what} type "
                        f"({_dtypes.tensor_string(other.dtype)}) should be the same{tail}")


def _conv_complex_types(input, weight, bias):
    """Check 2 of Note [Convolution dtype checks]."""
    if weight.dtype != input.dtype:
        raise _same_type_error(input, weight, "weight", False)
    if bias is not None and bias.dtype != input.dtype:
        raise _same_type_error(input, bias, "bias", False)


def _uses_mkldnn(x, w, shape_in, stride, dilation, groups, output_padding=None):
    """aten's use_mkldnn for a CPU input (bfloat16 where the CPU has it, as here; not for a
    transposed convolution whose output padding is as large as its stride)."""
    if output_padding is not None and any(o >= s for o, s in zip(output_padding, stride)):
        return False
    if x.dtype == _dtypes.numpy_dtype_of(_dtypes.bfloat16):
        return True
    if x.dtype.char != "f":
        return False
    ks = w.shape[2:]
    if not (any(s != 1 for s in stride) or any(d != 1 for d in dilation)
            or shape_in[0] >= 16 or any(k != 1 for k in ks)):
        from .._devices import get_num_threads
        if get_num_threads() <= 1:
            return False
    if len(ks) == 1:  # (viewed as 2-d: a kernel of height 1)
        ks, shape_in = (1,) + tuple(ks), shape_in[:2] + (1,) + tuple(shape_in[2:])
    return (groups > 1 or (ks[-1] > 3 and ks[-2] > 3) or shape_in[0] > 1
            or shape_in[0] * shape_in[1] * shape_in[2] * shape_in[3] > 20480)


def _conv_backend_types(input, weight, bias, shape_in, nsp, transposed, stride, padding,
                        dilation, groups, output_padding=None):
    """Checks 3 and 4 of Note [Convolution dtype checks]."""
    x, w = input._data, weight._data
    if x.dtype.kind == "c":  # (complex_convolution's real parts: mkldnn, no mismatch)
        return
    if _uses_mkldnn(x, w, shape_in, stride, dilation, groups, output_padding):
        if w.dtype != x.dtype:
            raise _same_type_error(input, weight, "weight", True)
        if bias is not None and bias._data.dtype != x.dtype:
            raise _same_type_error(input, bias, "bias", True)
        return
    name = _dtypes.scalar_name(input.dtype)
    if transposed:
        kernel = f"slow_conv_transpose{3 if nsp == 3 else 2}d_out_cpu"
        supported = x.dtype.char in "fdel" or name == "BFloat16"
    else:
        columns3d = any(k != 1 for k in w.shape[2:]) or any(s != 1 for s in stride) or any(
            p != 0 for p in padding)  # (slow_conv3d's im2col first, where it needs one)
        kernel = ("slow_conv_dilated<>" if any(d != 1 for d in dilation) else
                  "slow_conv2d_cpu" if nsp != 3 else
                  "compute_columns3d" if columns3d else "slow_conv3d_cpu")
        supported = name != "Bool"
    if not supported:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{name}'")
    if w.dtype != x.dtype:
        raise RuntimeError(f"expected scalar type {name} but found "
                           f"{_dtypes.scalar_name(weight.dtype)}")
    if bias is None or bias._data.dtype == x.dtype:
        return
    if transposed and nsp == 3:
        raise RuntimeError(f"expected scalar type {name} but found "
                           f"{_dtypes.scalar_name(bias.dtype)}")
    if transposed:
        common = _dtypes.promote_types(input.dtype, bias.dtype)
        from .. import can_cast
        if not can_cast(common, input.dtype):
            raise RuntimeError(f"result type {_dtypes.scalar_name(common)} can't be cast to "
                               f"the desired output type {name}")


convolution = fn.nn_ops.convolution
conv_tbc = fn.nn_ops.conv_tbc   # (time, batch, channel) input: Note [conv_tbc]


def _complex_to_real(t):
    from .._ops import complex_ops
    r = complex_ops.view_as_real(complex_ops.resolve_conj(t))
    return fn.select(r, -1, 0), fn.select(r, -1, 1)


@_cpp_composite
def _complex_convolution(input, weight, bias, args, same=False):
    """PyTorch's complex_convolution, what conv{1,2,3}d and conv_transpose{1,2,3}d run for a
    complex input (above autograd: AddBackward0 of SubBackward0 and MulBackward1, empty
    inputs too): Gauss's trick on the parts, a = conv(x_r, w_r, b_r), b = conv(x_i, w_i),
    c = conv(x_r + x_i, w_r + w_i, b_r + b_i), then a - b + i * (c - a - b), which rounds
    otherwise than one complex convolution. ``same``: complex_convolution_mode, whose
    _convolution_mode pads each real part for padding='same'."""
    def conv(x, w, b):
        if same:
            x = _same_padding(x, w, args[0], args[2], args[5], len(args[0]))[0]
        return convolution(x, w, b, *args)

    i_r, i_i = _complex_to_real(input)
    w_r, w_i = _complex_to_real(weight)
    if bias is None:
        a = conv(i_r, w_r, None)
        b = conv(i_i, w_i, None)
        c = conv(i_r + i_i, w_r + w_i, None)
    else:
        b_r, b_i = _complex_to_real(bias)
        a = conv(i_r, w_r, b_r)
        b = conv(i_i, w_i, None)
        c = conv(i_r + i_i, w_r + w_i, b_r + b_i)
    return a - b + 1j * (c - a - b)


def _convolution_of(input, weight, bias, *args, same=False):
    """convolution, or complex_convolution for a complex input (PyTorch's conv layers)."""
    if input.is_complex():
        return _complex_convolution(input, weight, bias, args, same)
    return convolution(input, weight, bias, *args)


_SAME_WARNED = []


def _same_padding(input, weight, stride, dilation, groups, nsp):
    """'same' (_convolution_mode's own checks first): PyTorch pads symmetrically and puts
    an odd extra on the right (an explicit pad then, recorded here as a cat of zeros)."""
    k = weight.dim()
    if k < 3:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    shape_in = tuple(input.shape) if input.dim() == nsp + 2 else (1,) + tuple(input.shape)
    if k != len(shape_in):
        raise RuntimeError(f"Expected {k}-dimensional input for {k}-dimensional weight"
                           f"[{_errors.shape_str(weight.shape)}], but got {len(shape_in)}-"
                           f"dimensional input of size [{_errors.shape_str(shape_in)}] instead")
    for name, values in (("stride", stride), ("dilation", dilation)):
        if len(values) not in (1, k - 2):
            raise RuntimeError(f"{name} cannot broadcast to {k - 2} dimensions")
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    total = [d * (size - 1) for d, size in zip(dilation, weight.shape[2:])]
    pad = tuple(int(t / 2) for t in total)  # (C++'s division: toward zero)
    if any(t % 2 for t in total) and not _SAME_WARNED:
        _SAME_WARNED.append(True)  # (TORCH_WARN_ONCE)
        _warn.cpp("Using padding='same' with even kernel lengths and odd dilation may require "
                  "a zero-padded copy of the input be created")
    for i, t in enumerate(total):
        if t % 2 and t < 0:  # (an empty kernel's, a negative dilation's: constant_pad_nd
            dim = input.dim() - nsp + i  # crops the last element, narrow)
            if not input.shape[dim]:
                raise RuntimeError("narrow(): length must be non-negative.")
            input = fn.narrow(input, dim, 0, input.shape[dim] - 1)
        if t % 2 and t > 0:
            dim = input.dim() - nsp + i
            shape = list(input.shape)
            shape[dim] = 1
            input = fn.cat([input, _creation_zeros(shape, input)], dim)
    return input, pad


def _creation_zeros(shape, like):
    from .. import _creation
    return _creation.zeros(tuple(shape), dtype=like.dtype)


_CONV_SIGNATURES = (
    " * (Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, tuple of "
    "ints padding = 0, tuple of ints dilation = 1, int groups = 1)\n * (Tensor input, Tensor "
    "weight, Tensor bias = None, tuple of ints stride = 1, str padding = \"valid\", tuple of "
    "ints dilation = 1, int groups = 1)\n")


def _conv_parser(nsp, input, weight, bias):
    """The argument parser's TypeError of conv{n}d (two overloads: an invalid combination)
    for a non-tensor input, weight or bias."""
    from .._tensor import Tensor
    given = (input, weight) + (() if bias is None else (bias,))
    if all(isinstance(v, Tensor) for v in given):
        return
    got = ", ".join("Tensor" if isinstance(v, Tensor) else type(v).__name__ for v in given)
    raise TypeError(f"conv{nsp}d() received an invalid combination of arguments - got ({got}), "
                    f"but expected one of:\n{_CONV_SIGNATURES}")


def _convnd(nsp, input, weight, bias, stride, padding, dilation, groups):
    _conv_parser(nsp, input, weight, bias)
    if not isinstance(padding, str):
        _conv_bias_type(input, bias)
    _conv_dims(input, nsp)
    return _convolution_nd(nsp, input, weight, bias, stride, padding, dilation, groups)


@view_errors_before_checks
def _convolution_nd(nsp, input, weight, bias, stride, padding, dilation, groups):
    stride, dilation = _tuple(stride, nsp), _tuple(dilation, nsp)
    same = False
    padded = input
    if isinstance(padding, str):  # (_convolution_mode: then convolution's checks)
        if padding == "valid":
            padding = (0,) * nsp
        elif padding == "same":
            # (a complex input's real parts are padded each: _complex_convolution)
            same = input.is_complex()
            padded, padding = _same_padding(input.detach() if same else input, weight,
                                            stride, dilation, groups, nsp)
            if not same:
                input = padded
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    padding = _tuple(padding, nsp)
    _conv_check(input, weight, bias, groups, nsp, False, stride, padding, dilation)
    x = padded._data
    shape_in = x.shape if x.ndim == nsp + 2 else (1,) + x.shape
    for i in range(nsp):
        eff = dilation[i] * (weight.shape[2 + i] - 1) + 1
        if shape_in[2 + i] + 2 * padding[i] < eff:
            padded = tuple(shape_in[2 + j] + 2 * padding[j] for j in range(nsp))
            ks = tuple(d * (k - 1) + 1 for d, k in zip(dilation, weight.shape[2:]))  # dilated
            raise RuntimeError(f"Calculated padded input size per channel: "
                               f"({' x '.join(map(str, padded))}). Kernel size: "
                               f"({' x '.join(map(str, ks))}). Kernel size can't be greater "
                               "than actual input size")
    _conv_types(input, weight, bias, shape_in, nsp, False, stride, padding, dilation, groups)
    args = (stride, padding, dilation, False, (0,) * nsp, groups)
    if input.dim() == nsp + 1:
        return fn.squeeze(_convolution_of(fn.unsqueeze(input, 0), weight, bias, *args,
                                          same=same), 0)
    return _convolution_of(input, weight, bias, *args, same=same)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if _amp.state.enabled:
        return _amp.lower(conv1d, input, weight, bias, stride, padding, dilation, groups)
    return _convnd(1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if _amp.state.enabled:
        return _amp.lower(conv2d, input, weight, bias, stride, padding, dilation, groups)
    return _convnd(2, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if _amp.state.enabled:
        return _amp.lower(conv3d, input, weight, bias, stride, padding, dilation, groups)
    return _convnd(3, input, weight, bias, stride, padding, dilation, groups)


def _conv_transposend(nsp, input, weight, bias, stride, padding, output_padding, groups,
                      dilation):
    _tensors(f"conv_transpose{nsp}d", ("input", input), ("weight", weight), ("bias", bias, True))
    _conv_dims(input, nsp, "conv_transpose")
    return _conv_transposed_nd(nsp, input, weight, bias, stride, padding, output_padding,
                               groups, dilation)


@view_errors_before_checks
def _conv_transposed_nd(nsp, input, weight, bias, stride, padding, output_padding, groups,
                        dilation):
    stride, dilation = _tuple(stride, nsp), _tuple(dilation, nsp)
    padding, output_padding = _tuple(padding, nsp), _tuple(output_padding, nsp)
    shape_in = _conv_check(input, weight, bias, groups, nsp, True, stride, padding, dilation,
                           output_padding)
    _conv_types(input, weight, bias, shape_in, nsp, True, stride, padding, dilation, groups,
                output_padding)
    args = (stride, padding, dilation, True, output_padding, groups)
    if input.dim() == nsp + 1:
        return fn.squeeze(_convolution_of(fn.unsqueeze(input, 0), weight, bias, *args), 0)
    return _convolution_of(input, weight, bias, *args)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups=1, dilation=1):
    if _amp.state.enabled:
        return _amp.lower(conv_transpose1d, input, weight, bias, stride, padding, output_padding,
                          groups, dilation)
    return _conv_transposend(1, input, weight, bias, stride, padding, output_padding, groups,
                             dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups=1, dilation=1):
    if _amp.state.enabled:
        return _amp.lower(conv_transpose2d, input, weight, bias, stride, padding, output_padding,
                          groups, dilation)
    return _conv_transposend(2, input, weight, bias, stride, padding, output_padding, groups,
                             dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups=1, dilation=1):
    if _amp.state.enabled:
        return _amp.lower(conv_transpose3d, input, weight, bias, stride, padding, output_padding,
                          groups, dilation)
    return _conv_transposend(3, input, weight, bias, stride, padding, output_padding, groups,
                             dilation)


def _suggests_channels_last(input):
    """``input.suggest_memory_format() == ChannelsLast`` for a 4-d input."""
    from .._ops import layout
    a = input._data
    return a.ndim == 4 and layout._strides_like_channels_last(a.shape, layout._elem_strides(a))


def _needs_grad(input):
    """aten's ``self.requires_grad() && GradMode::is_enabled() || self._fw_grad(0)``."""
    from ..autograd.grad_mode import state
    if input.requires_grad and state.enabled:
        return True
    if state.fw:
        from ..autograd.forward_ad import _any_tangent
        return _any_tangent(None, [input])
    return False


@view_errors_before_checks
def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=True):
    """aten::max_pool2d_with_indices: its checks (_pool_checks.max_pool2d), then the CPU
    kernel's dispatch (all types but bool and complex)."""
    from .._ops import nn_ops as N
    k, s, p, d = _pc.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode,
                                _suggests_channels_last(input))
    if input.dtype == _dtypes.bool or input.dtype.is_complex:
        _pc.refuse("max_pool2d", input.dtype)
    params = (k, s, p, d, bool(ceil_mode))
    out = N.max_pool2d_kernel(input._data, *params)
    return _finish_multi(N.MAX_POOL2D, (input,), params, out)


@view_errors_before_checks
def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    out, indices = max_pool2d_with_indices(input, kernel_size, stride, padding, dilation,
                                           ceil_mode)
    return (out, indices) if return_indices else out


@view_errors_before_checks
def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """aten::avg_pool2d: its checks, then the CPU kernel's dispatch (floating types and
    int64)."""
    from .._ops import nn_ops as N
    k, s, p = _pc.avg_pool2d(input, kernel_size, stride, padding, ceil_mode, divisor_override,
                             _suggests_channels_last(input))
    _pc.refuse_unless("avg_pool2d", input.dtype, _pc._FLOATS + ("int64",))
    params = (k, s, p, bool(ceil_mode), bool(count_include_pad), divisor_override)
    out = N.avg_pool2d_kernel(input._data, *params)
    return _finish(N.AVG_POOL2D, (input,), params, out)


def adaptive_avg_pool2d(input, output_size):
    size = _pc.adaptive_size(output_size, tuple(input.shape), 2)
    _pc.parse_ints("adaptive_avg_pool2d", "output_size", 2, size)
    return _adaptive_avg_pool(input, size, 2)


def _adaptive_avg_pool(input, output_size, nd):
    """aten::adaptive_avg_pool2d/3d: an output of ones is the mean (MeanBackward1), else
    _adaptive_avg_pool2d/3d's kernel."""
    from .._ops import nn_ops as N
    size = _pc.adaptive_avg(nd, output_size)
    if nd == 3:
        if size == (1, 1, 1):   # PyTorch takes the mean (MeanBackward1)
            return fn.mean(input, (-1, -2, -3), keepdim=True)
        _pc.adaptive_avg_kernel(3, input, size)
        out = N.ADAPTIVE_AVG_POOL3D.kernel(input._data, size)
        return _finish(N.ADAPTIVE_AVG_POOL3D, (input,), (size,), out)
    if size == (1, 1):   # PyTorch takes the mean (MeanBackward1)
        out = fn.mean(input, (-2, -1), keepdim=True)
        a = input._data
        if a.ndim == 4 and a.shape[1] and N.layout._strides_like_channels_last(
                a.shape, N.layout._elem_strides(a)):  # (its as_strided_ to channels-last)
            c = a.shape[1] * out._data.itemsize
            out._data = N.layout._as_strided(out._data, strides=(c, out._data.itemsize, c, c))
        return out
    _pc.adaptive_avg_kernel(2, input, size)
    out = N.adaptive_avg_pool2d_kernel(input._data, size)
    return _finish(N.ADAPTIVE_AVG_POOL2D, (input,), (size,), out)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    """native_batch_norm (NativeBatchNormBackward0); training updates the running stats
    in place."""
    if training:
        size = input.size()
        prods = size[0]
        for s in size[2:]:
            prods *= s
        if prods == 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got "
                             f"input size {size}")
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    elif eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    _tensors("batch_norm", ("input", input), ("weight", weight, 1), ("bias", bias, 1),
             ("running_mean", running_mean, 1), ("running_var", running_var, 1))
    if input.numel() == 0:
        # (aten's batch_norm: a clone of an empty input, not a view, times weight[0] plus
        # bias[0]; no statistics, no check of the channels)
        out = fn.clone(input)
        if weight is not None:
            out = out * fn.select(weight, 0, 0)
        if bias is not None:
            out = out + fn.select(bias, 0, 0)
        return out
    if training and running_mean is None and running_var is None and weight is None and \
            bias is None and input._data.dtype.kind in "biu" and not _any_contiguous(input):
        # (batch_norm_cpu's statistics of a strided input without running stats or affine
        # parameters: var_mean first, before its dispatch and its size(1))
        raise RuntimeError(f"mean(): could not infer output dtype. Input dtype must be either "
                           f"a floating point or complex dtype. Got: "
                           f"{_dtypes.scalar_name(input.dtype)}")
    if input.dim() < 2:
        view_errors_first(input, weight, bias)  # (aten batch_norm's size(1): after autograd's)
        if not training:  # (evaluation reads size(1) in batch_norm_cpu, after the running
            for name, t in (("running_mean", running_mean), ("running_var", running_var)):
                if t is None:  # statistics' presence, the dispatch and the mixed dtypes)
                    raise RuntimeError(f"{name} must be defined in evaluation mode")
            _pc.refuse_unless("batch_norm", input.dtype, _pc._FLOATS)
            _check_norm_dtypes(input, (weight, bias, running_mean, running_var))
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(input.dim(), 1)}, {max(input.dim(), 1) - 1}], but got 1)")
    c = input.shape[1]
    if input.numel():
        for name, t in (("running_mean", running_mean), ("running_var", running_var),
                        ("weight", weight), ("bias", bias)):
            if t is not None and t.numel() != c:
                raise RuntimeError(f"{name} should contain {c} elements not {t.numel()}")
            if t is None and name == "running_mean" and not training:
                raise RuntimeError("running_mean must be defined in evaluation mode")
    return _native_batch_norm(input, weight, bias, running_mean, running_var, training,
                              0.0 if momentum is None else momentum, eps)[0]


def _any_contiguous(t):
    """batch_norm_cpu's is_contiguous: row-major, channels-last or channels-last-3d."""
    from .. import _memory_format as mf
    return t.is_contiguous() or any(
        mf.is_contiguous(t._data.shape, t.stride(), f)
        for f in (mf.channels_last, mf.channels_last_3d))


@view_errors_before_checks
def _native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum,
                       eps):
    """aten::native_batch_norm (torch.native_batch_norm): (result, save_mean,
    save_invstd), the batch's statistics in training and empty tensors in evaluation. The
    three are the op's outputs, so a compiled trace (which records this call) keeps the
    statistics the backward takes (Note [Batch norm's saved statistics] in
    _ops/nn_ops.py)."""
    from .._ops import nn_ops as N
    _no_requires_grad("native_batch_norm", ("running_mean", running_mean),
                      ("running_var", running_var))
    _pc.refuse_unless("batch_norm", input.dtype, _pc._FLOATS)  # (batch_norm_cpu's dispatch,
    if training:                                               # before the dtype checks)
        if (running_mean is None) != (running_var is None):
            raise ValueError("running_mean and running_var must either both be None or "
                               "neither be None")
        _check_norm_dtypes(input, (weight, bias, running_mean, running_var),
                           (running_mean, running_var, weight, bias))
    else:
        for name, t in (("running_mean", running_mean), ("running_var", running_var)):
            if t is None:
                raise RuntimeError(f"{name} must be defined in evaluation mode")
        _check_norm_dtypes(input, (weight, bias, running_mean, running_var))
    rm = None if running_mean is None else running_mean._data
    rv = None if running_var is None else running_var._data
    out, mean, invstd = N.batch_norm_kernel(input._data, None if weight is None else weight._data,
                                            None if bias is None else bias._data,
                                            rm, rv, bool(training), momentum, eps)
    if training:   # (PyTorch's kernel does not bump them; torch.compile's trace reads the
        for t in (running_mean, running_var):   # bump to see the buffers updated)
            if t is not None:
                t._vc[0] += 1
    params = (rm if not training else None, rv if not training else None, bool(training), eps)
    r = _finish_multi(N.BATCH_NORM, (input, weight, bias), params, (out, mean, invstd))
    if not training:
        _refuse_stat_tangents(input, weight, bias, running_mean, running_var)
    return r


def _refuse_stat_tangents(input, weight, bias, running_mean, running_var):
    """PyTorch's batch_norm_jvp in evaluation reads the running statistics as constants
    and refuses ones with a tangent (once the rule runs: an argument with a tangent)."""
    from ..autograd.grad_mode import state
    if state.fw:
        from ..autograd.forward_ad import _any_tangent
        if _any_tangent(None, [t for t in (input, weight, bias) if t is not None]) and \
                _any_tangent(None, [running_mean, running_var]):
            raise RuntimeError("batch_norm is not differentiable wrt running_mean and "
                               "running_var, they cannot have forward grad defined")


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    _norm_args("layer_norm", input, normalized_shape, weight, bias)
    return _native_layer_norm(input, normalized_shape, weight, bias, eps)[0]


def _norm_args(op, input, normalized_shape, weight, bias=None):
    """The argument parser of layer_norm/rms_norm (normalized_shape: a tuple of ints)."""
    pairs = [("input", input), ("normalized_shape", normalized_shape), ("weight", weight, 1)]
    if op == "layer_norm":
        pairs.append(("bias", bias, 1))
    for i, pair in enumerate(pairs):
        if i == 1:
            if not isinstance(normalized_shape, (tuple, list)) and \
                    type(normalized_shape).__name__ != "Size":
                raise TypeError(f"{op}(): argument 'normalized_shape' (position 2) must be "
                                f"tuple of ints, not {type(normalized_shape).__name__}")
        else:
            _tensors(op, *([("", None, 1)] * i), pair)


def _norm_shape_checks(input, shape, weight, bias, sep):
    """aten's _check_layer_norm_inputs: normalized_shape, weight, bias, then the input."""
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., "
                           "containing at least one element, but got normalized_shape = []")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but "
                               f"got {name} of shape {list(t.shape)} and normalized_shape = "
                               f"{list(shape)}")
    if sep == "" and input.dim() == 0:
        raise ValueError("Input tensor must have at least 1 dimensions, but got 0")
    if input.dim() < len(shape) or tuple(input.shape[input.dim() - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*{sep}{', '.join(map(str, shape))}], but got input of size"
                           f"{list(input.shape)}")


@view_errors_before_checks
def _native_layer_norm(input, normalized_shape, weight, bias, eps):
    """aten::native_layer_norm (torch.native_layer_norm): (result, mean, rstd), the
    statistics with the input's shape and 1 for each normalized dim. The three are the
    op's outputs, so a compiled trace (which records this call) keeps the statistics the
    backward takes (Note [Layer norm's saved statistics] in _ops/nn_ops.py)."""
    from .._ops import nn_ops as N
    shape = tuple(normalized_shape) if not isinstance(normalized_shape, int) else \
        (normalized_shape,)
    if any(t is not None and t.dtype != input.dtype for t in (weight, bias)):
        _check_norm_dtypes(input, (weight, bias))   # (layer_norm_cpu: mixed types first)
    _norm_shape_checks(input, shape, weight, bias, ", ")
    _check_norm_dtypes(input, (weight, bias))
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"LayerNormKernelImpl\" not implemented for "
                                  f"'{_dtypes.scalar_name(input.dtype)}'")
    outs = N.layer_norm_kernel(input._data, shape, None if weight is None else weight._data,
                               None if bias is None else bias._data, eps)
    return _finish_multi(N.LAYER_NORM, (input, weight, bias), (shape, eps), outs)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """aten::max_pool1d: its checks (_pool_checks.max_pool1d); an input that needs a
    gradient takes max_pool1d_with_indices (PyTorch's node: MaxPool2DWithIndices under a
    Squeeze), one that does not takes max_pool1d_impl (floating types only)."""
    if return_indices:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    _pc.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)
    if not _needs_grad(input):
        _pc.refuse_unless("max_pool1d_impl", input.dtype, _pc._FLOATS)
    out = max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)[0]
    if input.dim() == 2 and not _needs_grad(input):
        out._vc[0] += 1  # (max_pool1d_impl squeezes an unbatched result in place: squeeze_)
    return out


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    """aten::avg_pool1d (Pooling.cpp): avg_pool2d of a height-1 view."""
    k, s, p = _pc.pool1d_args("avg_pool1d", input, (("kernel_size", kernel_size),
                                                    ("stride", stride), ("padding", padding)))
    out = avg_pool2d(fn.unsqueeze(input, -2), (1, k), (1, s), (0, p), ceil_mode,
                     count_include_pad)
    return fn.squeeze(out, -2)


def adaptive_avg_pool1d(input, output_size):
    """aten::adaptive_avg_pool1d (Pooling.cpp): adaptive_avg_pool2d of a height-1 view."""
    _pc.parse_ints("adaptive_avg_pool1d", "output_size", 2, output_size)
    _pc._check_dim_range("adaptive_avg_pool1d", input.dim(), 2, 3)
    size = _pc.int_list(output_size, 1)
    _pc.check1d("adaptive_avg_pool1d", "output_size", size)
    return fn.squeeze(_adaptive_avg_pool(fn.unsqueeze(input, -2), (1, size[0]), 2), -2)


# ---- padding, pixel shuffle, interpolation, unfold / fold (issue 12) ----------------------
# Element-moving layers are index-map entries of _ops/nn_ops.py (Note [Index-map ops]);
# linear / bilinear / bicubic interpolation are separable matrices.
def _index_map_op(op, input, index, nd, value=None):
    from .._ops import nn_ops as N
    params = (index, nd, value)
    return _finish(op, (input,), params, N.index_map_gather(input._data, *params))


_NONCONST_PAD_HELP = (
    "Supported combinations for non-constant padding:\n"
    "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
    "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
    "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


def pad(input, pad, mode="constant", value=None):
    """``F.pad``: ``pad`` lists (left, right) pairs from the last dim backwards."""
    from .._ops import nn_ops as N
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    nd = len(pad) // 2
    shape = tuple(input.shape)
    if nd > len(shape):
        raise RuntimeError(f"Padding length should be less than or equal to two times the "
                           f"input dimension but got padding length {len(pad)} and input of "
                           f"dimension {len(shape)}")
    if mode == "constant":
        maps = [N.pad_map(shape[-1 - i], pad[2 * i], pad[2 * i + 1], "constant")
                for i in range(nd)][::-1]
        index = N.combine_maps(maps, shape[len(shape) - nd:])
        return _index_map_op(N.CONSTANT_PAD, input, index, nd, 0 if value is None else value)
    if value is not None and value != 0:
        raise ValueError(f'Padding mode "{mode}" doesn\'t take in value argument.')
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if nd > 3 or len(shape) not in (nd + 1, nd + 2):
        raise NotImplementedError(f"Padding size {len(pad)} is not supported for "
                                  f"{len(shape)}D input tensor.\n{_NONCONST_PAD_HELP}")
    if mode != "circular" and 0 in (shape[1:] if len(shape) == nd + 2 else shape):
        # (padding::check_valid_input: only the batch dim may be empty)
        view_errors_first(input)
        raise RuntimeError(f"Expected {nd + 1}D or {nd + 2}D (batch mode) tensor with possibly 0 "
                           f"batch size and other non-zero dimensions for input, but got: "
                           f"[{_errors.shape_str(shape)}]")
    for i in range(nd):
        size, (lo, hi) = shape[-1 - i], pad[2 * i: 2 * i + 2]
        if mode == "reflect" and (lo >= size or hi >= size):
            view_errors_first(input)  # (reflection_pad's check: after autograd's)
            raise RuntimeError(f"Argument #4: Padding size should be less than the "
                               f"corresponding input dimension, but got: padding ({lo}, {hi}) "
                               f"at dimension {len(shape) - 1 - i} of input "
                               f"[{_errors.shape_str(shape)}]")
        if mode == "circular" and (lo > size or hi > size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
    if mode == "circular":
        return _pad_circular(input, pad)
    if input.dtype is _dtypes.bool:  # (the kernels' dispatch, after the shape checks)
        view_errors_first(input)
        _pc.refuse(f"{'reflection' if mode == 'reflect' else 'replication'}_pad{nd}d",
                   input.dtype)
    maps = [N.pad_map(shape[-1 - i], pad[2 * i], pad[2 * i + 1], mode) for i in range(nd)]
    index = N.combine_maps(maps[::-1], shape[len(shape) - nd:])
    op = {"reflect": N.REFLECTION_PAD.get(nd), "replicate": N.REPLICATION_PAD.get(nd)}[mode]
    return _index_map_op(op, input, index, nd)


def _pad_circular(input, pad):
    """aten's _pad_circular composite: the input copied into an empty result, then each
    dim's left and right wraps copied from the result itself (copy_ into slices: the graph
    is CopySlices over SliceBackward0s, the result's _version counts the copies)."""
    shape = tuple(input.shape)
    nd = len(pad) // 2
    out_shape = list(shape)
    for i in range(nd):
        out_shape[-1 - i] += pad[2 * i] + pad[2 * i + 1]
    out = input.new_empty(tuple(out_shape))

    def sliced(t, dim, start, stop):  # (C++'s slice: SliceBackward0 even when it is all)
        return fn.narrow(t, dim, start, max(stop - start, 0))
    out_slice, in_slice = out, input
    for i in range(nd):
        dim, lo, hi = len(shape) - 1 - i, pad[2 * i], pad[2 * i + 1]
        out_slice = sliced(out_slice, dim, max(lo, 0), out_shape[dim] - max(hi, 0))
        in_slice = sliced(in_slice, dim, max(-lo, 0), shape[dim] - max(-hi, 0))
    out_slice.copy_(in_slice)
    for i in range(nd):
        dim, lo, hi = len(shape) - 1 - i, pad[2 * i], pad[2 * i + 1]
        if lo > 0:
            sliced(out, dim, 0, lo).copy_(
                sliced(out, dim, out_shape[dim] - lo - max(hi, 0), out_shape[dim] - max(hi, 0)))
        if hi > 0:
            sliced(out, dim, out_shape[dim] - hi, out_shape[dim]).copy_(
                sliced(out, dim, max(lo, 0), max(lo, 0) + hi))
    return out


@view_errors_before_checks
def pixel_shuffle(input, upscale_factor):
    from .._backend import np
    from .._ops import nn_ops as N
    r = _argparse.index(upscale_factor)  # (a float or bool refused: Note [Argument errors on
    # the exception path] in _argparse.py)
    if input.dim() < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but "
                           f"got input with {input.dim()} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    c, h, w = input.shape[-3:]
    if c % (r * r):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be "
                           f"divisible by the square of upscale_factor, but input.size(-3)="
                           f"{c} is not divisible by {r * r}")
    oc = c // (r * r)
    index = np.arange(c * h * w).reshape(oc, r, r, h, w).transpose(0, 3, 1, 4, 2).reshape(
        oc, h * r, w * r)
    return _index_map_op(N.PIXEL_SHUFFLE, input, index, 3)


@view_errors_before_checks
def pixel_unshuffle(input, downscale_factor):
    from .._backend import np
    from .._ops import nn_ops as N
    r = _argparse.index(downscale_factor)
    if input.dim() < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, "
                           f"but got input with {input.dim()} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    c, h, w = input.shape[-3:]
    if h % r or w % r:
        raise RuntimeError(f"pixel_unshuffle expects height to be divisible by "
                           f"downscale_factor, but input.size(-2)={h} is not divisible by {r}"
                           if h % r else
                           f"pixel_unshuffle expects width to be divisible by "
                           f"downscale_factor, but input.size(-1)={w} is not divisible by {r}")
    if input.numel() == 0:  # (aten's kernel returns self.clone() then, in its shape)
        index = np.arange(c * h * w).reshape(c, h, w)
    else:
        index = np.arange(c * h * w).reshape(c, h // r, r, w // r, r).transpose(
            0, 2, 4, 1, 3).reshape(c * r * r, h // r, w // r)
    return _index_map_op(N.PIXEL_UNSHUFFLE, input, index, 3)


_INTERP_MODES = ("nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
                 "nearest-exact")


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Nearest / nearest-exact (index maps), linear / bilinear / bicubic (interpolation
    matrices, PyTorch's source-index rules and cubic coefficients A = -0.75). The
    arguments are checked in the order of PyTorch's Python body, then as aten's
    upsample ops (_upsample_checks)."""
    from .._ops import nn_ops as N
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating "
                             "modes: linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    nsp = input.dim() - 2
    in_sizes = tuple(input.shape[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != nsp:
                raise ValueError(f"Input and output must have the same number of spatial "
                                 f"dimensions, but got input with spatial dimensions of "
                                 f"{list(in_sizes)} and output size of {size}. Please "
                                 f"provide input tensor in (N, C, d1, d2, ...,dK) format and "
                                 f"output size in (o1, o2, ...,oK) format.")
            if not all(_is_integer(v) for v in size):
                raise TypeError(f"expected size to be one of int or Tuple[int] or Tuple[int, "
                                f"int] or Tuple[int, int, int], but got size with types "
                                f"{[type(v) for v in size]}")
            out_size = list(size)
        else:
            out_size = [size] * nsp
        scales = None
    elif scale_factor is not None:
        out_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != nsp:
                raise ValueError(f"Input and scale_factor must have the same number of spatial "
                                 f"dimensions, but got input with spatial dimensions of "
                                 f"{list(in_sizes)} and scale_factor of shape {scale_factor}. "
                                 f"Please provide input tensor in (N, C, d1, d2, ...,dK) "
                                 f"format and scale_factor in (s1, s2, ...,sK) format.")
            scales = list(scale_factor)
        else:
            scales = [scale_factor] * nsp
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and out_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        out_size = [_recomputed_size(in_sizes[i], scales[i]) for i in range(nsp)]
        scales = None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and nsp == 2):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos "
                         "modes and requires a 4-D tensor as input")
    want = {"nearest": (1, 2, 3), "nearest-exact": (1, 2, 3), "area": (1, 2, 3),
            "linear": (1,), "bilinear": (2,), "bicubic": (2,), "trilinear": (3,),
            "lanczos": (2,)}
    if nsp not in want.get(mode, ()):
        need = {"linear": 3, "bilinear": 4, "trilinear": 5}.get(mode)
        if need is not None and nsp in (1, 2, 3):
            raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {need}D "
                                      f"input")
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported "
                                  f"(got {input.dim()}D) for the modes: {_INTERP_MODES} "
                                  f"(got {mode})")
    if mode == "area":   # PyTorch: adaptive average pooling to the output size
        return (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d)[nsp - 1](
            input, out_size)
    if mode == "lanczos":
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
    sizes, scales = _upsample_checks(input, mode, out_size, scales, antialias)
    if mode in ("nearest", "nearest-exact"):   # (Note [Nearest upsampling indices])
        exact = mode == "nearest-exact"
        cl = nsp > 1 and input.shape[1] > 3 and N._cl_contiguous(input._data)
        path = "idx" if cl or (nsp == 2 and sizes[0] + sizes[1] <= 128) else "generic"
        opmath = "float64" if input._data.dtype.name == "float64" else "float32"
        index = N.combine_maps([N.nearest_map(o, i, s, exact, path, opmath)
                                for o, i, s in zip(sizes, in_sizes, scales)], in_sizes)
        bindex = index if path == "idx" else N.combine_maps(
            [N.nearest_map(o, i, s, exact) for o, i, s in zip(sizes, in_sizes, scales)],
            in_sizes)
        ops = N.UPSAMPLE_NEAREST if mode == "nearest" else N.UPSAMPLE_NEAREST_EXACT
        params = (index, nsp, bindex)
        return _finish(ops[nsp], (input,), params, N.index_map_gather(input._data, index, nsp,
                                                                       None))
    if antialias:
        kind = {"bilinear": "linear", "bicubic": "cubic", "lanczos": "lanczos"}[mode]
        refuse_half("compute_index_ranges_weights", input._data)
        mats = tuple(N.antialias_matrix(o, i, s, align_corners, kind)
                     for o, i, s in zip(sizes, in_sizes, scales))
        op = {"bilinear": N.UPSAMPLE_BILINEAR2D_AA, "bicubic": N.UPSAMPLE_BICUBIC2D_AA,
              "lanczos": N.UPSAMPLE_LANCZOS2D_AA}[mode]
        return _finish(op, (input,), (mats,), N.separable_kernel(input._data, mats))
    build = N.cubic_matrix if mode == "bicubic" else N.linear_matrix
    mats = tuple(build(o, i, s, align_corners) for o, i, s in zip(sizes, in_sizes, scales))
    op = {"linear": N.UPSAMPLE_LINEAR1D, "bilinear": N.UPSAMPLE_BILINEAR2D,
          "bicubic": N.UPSAMPLE_BICUBIC2D, "trilinear": N.UPSAMPLE_TRILINEAR3D}[mode]
    return _finish(op, (input,), (mats,), N.separable_kernel(input._data, mats))


def _is_integer(x):
    """torch.nn.functional._is_integer: an int, a NumPy integer or an integer tensor."""
    from .._backend import np
    from .._tensor import Tensor
    if isinstance(x, (int, np.integer)):
        return True
    return isinstance(x, Tensor) and not x.is_floating_point() and not x.is_complex()


def _recomputed_size(size, scale):
    """``_sym_int(input.size(i + 2) * scale)``: the product truncated to an int."""
    v = size * scale
    if isinstance(v, float):
        if v != v:
            raise ValueError("cannot convert float NaN to integer")
        if v in (_math.inf, -_math.inf):
            raise OverflowError("cannot convert float infinity to integer")
        return _math.floor(v) if v >= 0 else _math.ceil(v)
    return int(v)


_UPSAMPLE_DTYPE_NAMES = {"nearest": "compute_indices_weights_nearest",
                         "nearest-exact": "compute_indices_weights_nearest",
                         "linear": "compute_indices_weights_linear",
                         "trilinear": "compute_indices_weights_linear",
                         "bilinear": "upsample_bilinear2d_channels_last",
                         "bicubic": "compute_indices_weights_cubic"}


def _upsample_parser_error(mode, nsp, out_size):
    """The C++ argument parser's error for a non-int output size (a float ``size``)."""
    op = {"nearest": f"upsample_nearest{nsp}d", "nearest-exact": f"_upsample_nearest_exact{nsp}d",
          "linear": "upsample_linear1d", "bilinear": "upsample_bilinear2d",
          "bicubic": "upsample_bicubic2d", "trilinear": "upsample_trilinear3d"}[mode]
    ac = "" if mode in ("nearest", "nearest-exact") else ", bool"
    acn = "" if not ac else " bool align_corners,"
    kinds = ", ".join(type(v).__name__ for v in out_size)
    scales = ", ".join(f"float scales{'_' + d if nsp > 1 else ''} = None"
                       for d in ("dhw"[3 - nsp:] if nsp > 1 else "_"))
    raise TypeError(f"{op}() received an invalid combination of arguments - got (Tensor, "
                    f"list{ac}, NoneType), but expected one of:\n * (Tensor input, tuple of ints "
                    f"output_size,{acn} tuple of floats scale_factors)\n      didn't match "
                    f"because some of the arguments have invalid types: (Tensor, !list of "
                    f"[{kinds}]!{ac}, !NoneType!)\n * (Tensor input, tuple of ints output_size,"
                    f"{acn} {scales}, *, Tensor out = None)\n")


@view_errors_before_checks
def _upsample_checks(input, mode, out_size, scales, antialias):
    """aten's upsample_*.vec: compute_output_size (a scale's product converted to int64),
    upsample_Nd_common_check (sizes > 0), the meta function's non-empty check, then the
    CPU kernel's dispatch; returns (output sizes, scales)."""
    nsp = input.dim() - 2
    in_sizes = tuple(input.shape[2:])
    if out_size is not None and not all(_is_integer(v) for v in out_size):
        _upsample_parser_error(mode, nsp, out_size)
    if out_size is None:
        out = []
        for i in range(nsp):
            v = float(in_sizes[i]) * float(scales[i])
            if v != v or not -2.0 ** 63 <= v < 2.0 ** 63:
                raise RuntimeError("value cannot be converted to type int64_t without overflow")
            out.append(int(v))
        sizes, scales = tuple(out), tuple(float(f) for f in scales)
    else:
        sizes, scales = tuple(int(v) for v in out_size), (None,) * nsp
    if not (all(v > 0 for v in in_sizes) and all(v > 0 for v in sizes)):
        labels = ("W",) if nsp == 1 else ("H", "W") if nsp == 2 else ("D", "H", "W")
        i = ", ".join(f"{n}: {v}" for n, v in zip(labels, in_sizes))
        o = ", ".join(f"{n}: {v}" for n, v in zip(labels, sizes))
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input "
                           f"({i}){' and' if nsp == 1 else ''} output ({o})")
    if input.shape[1] == 0:
        raise RuntimeError(f"Non-empty {nsp + 2}D data tensor expected but got a tensor with "
                           f"sizes {_pc.sizes(tuple(input.shape))}")
    if not antialias:
        name = _UPSAMPLE_DTYPE_NAMES.get(mode)
        if name and mode in ("nearest", "nearest-exact") and nsp == 2:
            name = "upsample_nearest2d_channels_last"
        if name:
            allowed = _pc._FLOATS + (() if mode in ("linear", "trilinear") else ("uint8",))
            _pc.refuse_unless(name, input.dtype, allowed)
    return sizes, scales


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    _warnings.warn("`nn.functional.upsample` is deprecated. "
                   "Use `nn.functional.interpolate` "
                   "instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    _warnings.warn("`nn.functional.upsample_nearest` is deprecated. "
                   "Use `nn.functional.interpolate` "
                   "instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    _warnings.warn("`nn.functional.upsample_bilinear` is deprecated. "
                   "Use `nn.functional.interpolate` "
                   "instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def _unfold_map(c, size, kernel, dilation, padding, stride):
    """The gather map of im2col (its arguments checked by _pool_checks.im2col / col2im)."""
    from .._ops import nn_ops as N
    from .._backend import np
    maps = []
    outs = []
    for i in range(2):
        o = (size[i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1
        pos = (np.arange(kernel[i]) * dilation[i])[:, None] + \
            (np.arange(o) * stride[i] - padding[i])[None, :]          # (k, o)
        maps.append(np.where((pos >= 0) & (pos < size[i]), pos, -1))
        outs.append(o)
    (mh, mw) = maps
    # (C, kh, kw, oh, ow) -> flat positions in (C, H, W)
    h = mh[None, :, None, :, None]
    w = mw[None, None, :, None, :]
    ch = np.arange(c)[:, None, None, None, None]
    flat = ch * size[0] * size[1] + h * size[1] + w
    flat = np.where((h < 0) | (w < 0), -1, flat)
    return flat.reshape(c * kernel[0] * kernel[1], outs[0] * outs[1]), N


@view_errors_before_checks
def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """im2col: (N, C, H, W) -> (N, C*kh*kw, L) (Im2ColBackward0)."""
    k, d, p, s = _pc.im2col(input, kernel_size, dilation, padding, stride)
    c, h, w = input.shape[-3:]
    index, N = _unfold_map(c, (h, w), k, d, p, s)
    return _index_map_op(N.IM2COL, input, index, 3, 0)


@view_errors_before_checks
def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """col2im: the adjoint of unfold, overlapping blocks summed (Col2ImBackward0)."""
    size, k, d, p, s = _pc.col2im(input, output_size, kernel_size, dilation, padding, stride)
    ck = input.shape[-2]
    c = ck // (k[0] * k[1])
    index, N = _unfold_map(c, size, k, d, p, s)
    params = (index, 2, (c,) + size)
    return _finish(N.COL2IM, (input,), params, N.index_map_scatter(input._data, *params))


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=True):
    from .._ops import nn_ops as N
    size = _pc.adaptive_max(2, input, _pc.adaptive_size(output_size, tuple(input.shape), 2))
    outs = N.adaptive_max_pool2d_kernel(input._data, size)
    return _finish(N.ADAPTIVE_MAX_POOL2D, (input,), (size,), outs)


@view_errors_before_checks
def adaptive_max_pool2d(input, output_size, return_indices=False):
    out, idx = adaptive_max_pool2d_with_indices(input, output_size)
    return (out, idx) if return_indices else out


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=True):
    """aten::adaptive_max_pool1d (Pooling.cpp): adaptive_max_pool2d of a height-1 view."""
    op = "adaptive_max_pool1d"
    _pc.parse_ints(op, "output_size", 2, output_size)
    _pc._check_dim_range(op, input.dim(), 2, 3)
    size = _pc.int_list(output_size, 1)
    _pc.check1d(op, "output_size", size)
    shape = tuple(input.shape)
    for i in range(1, len(shape)):
        if shape[i] <= 0:
            raise RuntimeError(f"{op}(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {_pc.sizes(shape)} with "
                               f"dimension {i} being empty")
    size = size[0]
    out, idx = adaptive_max_pool2d_with_indices(fn.unsqueeze(input, -2), (1, size))
    return fn.squeeze(out, -2), fn.squeeze(idx, -2)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    out, idx = adaptive_max_pool1d_with_indices(input, output_size)
    return (out, idx) if return_indices else out


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=True):
    """aten::max_pool1d_with_indices (Pooling.cpp): max_pool2d_with_indices of a height-1
    view."""
    k, s, p, d = _pc.pool1d_args("max_pool1d", input, (
        ("kernel_size", kernel_size), ("stride", stride), ("padding", padding),
        ("dilation", dilation)))
    out, idx = max_pool2d_with_indices(fn.unsqueeze(input, -2), (1, k), (1, s), (0, p),
                                       (1, d), ceil_mode)
    return fn.squeeze(out, -2), fn.squeeze(idx, -2)


def _ntuple(x, n):
    """torch's _single/_pair/_triple: a sequence as given, else repeated."""
    return tuple(x) if isinstance(x, (list, tuple)) else (x,) * n


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    """torch.nn.functional._unpool_output_size (Python): the default size, or the given one
    checked against it."""
    input_size = tuple(input.shape)
    nd = len(kernel_size)
    default = [(input_size[-nd + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d]
               for d in range(nd)]
    if output_size is None:
        ret = default
    else:
        if len(output_size) == nd + 2:
            output_size = output_size[2:]
        if len(output_size) != nd:
            raise ValueError(f"output_size should be a sequence containing {nd} or {nd + 2} "
                             f"elements, but it has a length of '{len(output_size)}'")
        for d in range(nd):
            lo, hi = default[d] - stride[d], default[d] + stride[d]
            if not lo < output_size[d] < hi:
                raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be '
                                 f'between {lo} and {hi})')
        ret = output_size
    for d in range(nd):
        if ret[d] < 0:
            raise ValueError(f"max_unpooling: output_size must contain non-negative spatial "
                             f"dimensions, but got output_size[{d}]={ret[d]}")
    return ret


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    k = _ntuple(kernel_size, 2)
    s = k if stride is None else _ntuple(stride, 2)
    size = _unpool_output_size(input, k, s, _ntuple(padding, 2), output_size)
    return _max_unpool2d(input, indices, size)


@view_errors_before_checks
def _max_unpool2d(input, indices, output_size):
    """aten::max_unpool2d (MaxUnpool2DBackward0)."""
    from .._ops import nn_ops as N
    size = _pc.max_unpool(2, input, indices, output_size)
    params = (indices._data, size)
    return _finish(N.MAX_UNPOOL2D, (input,), params, N.max_unpool2d_kernel(input._data, *params))


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """max_unpool2d of (..., L, 1) views, as PyTorch's Python function."""
    k = _ntuple(kernel_size, 1)
    s = k if stride is None else _ntuple(stride, 1)
    size = _unpool_output_size(input, k, s, _ntuple(padding, 1), output_size)
    size = list(size) + [1] if isinstance(size, list) else tuple(size) + (1,)
    out = _max_unpool2d(fn.unsqueeze(input, -1), fn.unsqueeze(indices, -1), size)
    return fn.squeeze(out, -1)


def _feature_dropout(input, p, training, inplace):
    """aten's feature_dropout: one bernoulli_(1 - p) / (1 - p) per (sample, channel), the
    input multiplied by it (p == 1: by a 0-d zero, no draw)."""
    _tensors("feature_dropout_" if inplace else "feature_dropout", ("input", input))
    if p == 0 or not training or input.numel() == 0:
        return input
    from .. import _random
    from .._creation import _make
    d = input._data
    if p == 1:
        zero = _make(_np_zeros_like_scalar(d))
        return input.mul_(zero) if inplace else fn.mul(input, zero)
    if d.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    noise = _random.bernoulli(1 - p, d.shape[:2] + (1,) * (d.ndim - 2), d.dtype)
    noise /= noise.dtype.type(1 - p)
    noise = _make(noise)
    return input.mul_(noise) if inplace else fn.mul(input, noise)


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout1d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    inp_dim = input.dim()
    if inp_dim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {inp_dim}D "
                           "input. Note that dropout1d exists to provide channel-wise dropout "
                           "on inputs with 1 spatial dimension, a channel dimension, and an "
                           "optional batch dimension (i.e. 2D or 3D inputs).")
    return _unbatched_feature_dropout(input, p, training, inplace, inp_dim == 3)


def _unbatched_feature_dropout(input, p, training, inplace, is_batched):
    if not is_batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = _feature_dropout(input, p, training, inplace)
    if not is_batched:
        result = result.squeeze_(0) if inplace else result.squeeze(0)
    return result


def dropout2d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    inp_dim = input.dim()
    if inp_dim not in (3, 4):
        _warnings.warn(f"dropout2d: Received a {inp_dim}-D input to dropout2d, which is "
                       "deprecated and will result in an error in a future release. To retain "
                       "the behavior and silence this warning, please use dropout instead. "
                       "Note that dropout2d exists to provide channel-wise dropout on inputs "
                       "with 2 spatial dimensions, a channel dimension, and an optional batch "
                       "dimension (i.e. 3D or 4D inputs).", stacklevel=2)
    if inp_dim == 3:
        _warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that "
                       "channel-wise 1D dropout behavior is desired - input is interpreted as "
                       "shape (N, C, L), where C is the channel dim. This behavior will change "
                       "in a future release to interpret the input as one without a batch "
                       "dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise "
                       "dropout behavior, please switch to using dropout1d instead.",
                       stacklevel=2)
    return _feature_dropout(input, p, training, inplace)

# ---- 3-d pooling, LP pooling, channel shuffle, feature dropouts (issue 12) ----------------
@view_errors_before_checks
def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=True):
    from .._ops import nn_ops as N
    params = _pc.pool3d("max_pool3d", input, kernel_size, stride, padding, dilation,
                        ceil_mode) + (bool(ceil_mode),)
    if input.dtype == _dtypes.bool or input.dtype.is_complex:
        _pc.refuse("max_pool3d", input.dtype)
    return _finish_multi(N.MAX_POOL3D, (input,), params,
                         N.max_pool_nd_kernel(input._data, *params))


@view_errors_before_checks
def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    out, indices = max_pool3d_with_indices(input, kernel_size, stride, padding, dilation,
                                           ceil_mode)
    return (out, indices) if return_indices else out


@view_errors_before_checks
def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    from .._ops import nn_ops as N
    k, s, p, _ = _pc.pool3d("avg_pool3d", input, kernel_size, stride, padding, 1, ceil_mode,
                            divisor_override)
    params = (k, s, p, bool(ceil_mode), bool(count_include_pad), divisor_override)
    _pc.refuse_unless("avg_pool3d_out_frame", input.dtype, ("float64", "float32", "int64"))
    return _finish(N.AVG_POOL3D, (input,), params, N.avg_pool_nd_kernel(input._data, *params))


@view_errors_before_checks
def adaptive_avg_pool3d(input, output_size):
    size = _pc.adaptive_size(output_size, tuple(input.shape), 3)
    _pc.parse_ints("adaptive_avg_pool3d", "output_size", 2, size)
    return _adaptive_avg_pool(input, size, 3)


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=True):
    from .._ops import nn_ops as N
    size = _pc.adaptive_max(3, input, _pc.adaptive_size(output_size, tuple(input.shape), 3))
    return _finish(N.ADAPTIVE_MAX_POOL3D, (input,), (size,),
                   N.adaptive_max_pool_nd_kernel(input._data, size))


@view_errors_before_checks
def adaptive_max_pool3d(input, output_size, return_indices=False):
    out, idx = adaptive_max_pool3d_with_indices(input, output_size)
    return (out, idx) if return_indices else out


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """aten::max_unpool3d (MaxUnpool3DBackward0) after PyTorch's Python size checks."""
    from .._ops import nn_ops as N
    k = _ntuple(kernel_size, 3)
    s = k if stride is None else _ntuple(stride, 3)
    size = _unpool_output_size(input, k, s, _ntuple(padding, 3), output_size)
    size = _pc.max_unpool(3, input, indices, size, s)
    params = (indices._data, size)
    return _finish(N.MAX_UNPOOL3D, (input,), params,
                   N.max_unpool_nd_kernel(input._data, *params))


def _lp_pool(avg, input, norm_type, kernel_size, stride, ceil_mode, nd):
    """PyTorch's composition: (sign(s) * relu(|s|) * prod(kernel)) ** (1 / p), s the
    average of x ** p over each window; p = +-inf: max pooling of +-|x|."""
    if isinstance(norm_type, (int, float)) and norm_type in (_math.inf, -_math.inf):
        mx = (max_pool1d, max_pool2d, max_pool3d)[nd - 1]
        if norm_type > 0:
            return mx(fn.abs(input), kernel_size, stride, 0, 1, ceil_mode)
        return fn.neg(mx(fn.neg(fn.abs(input)), kernel_size, stride, 0, 1, ceil_mode))
    if nd > 1:   # (its ``kw, kh = _pair(kernel_size)``, which unpacks first)
        k = tuple(kernel_size) if isinstance(kernel_size, (list, tuple)) else \
            (kernel_size,) * nd
        if nd == 2:
            a, b = k
        else:
            a, b, c = k
        n = a * b * (c if nd == 3 else 1)
    out = avg(fn.pow(input, norm_type), kernel_size, stride, 0, ceil_mode)
    if nd == 1:
        if isinstance(kernel_size, (list, tuple)):   # (its ``.mul(kernel_size)``)
            raise TypeError(f"mul(): argument 'other' (position 1) must be Tensor, not "
                            f"{type(kernel_size).__name__}")
        n = kernel_size
    return fn.pow(fn.mul(fn.mul(fn.sign(out), fn.relu(fn.abs(out))), n), 1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(avg_pool1d, input, norm_type, kernel_size, stride, ceil_mode, 1)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(avg_pool2d, input, norm_type, kernel_size, stride, ceil_mode, 2)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(avg_pool3d, input, norm_type, kernel_size, stride, ceil_mode, 3)


@view_errors_before_checks
def channel_shuffle(input, groups):
    """(N, g * k, *) -> channels regrouped k-major (ChannelShuffleBackward0: an index map)."""
    from .._backend import np
    from .._ops import nn_ops as N
    if input.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input "
                           f"with sizes {list(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value "
                           f"of groups:{groups}")
    c = input.shape[1]
    if c % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels "
                           f"and {groups} groups.")
    tail = tuple(input.shape[2:])
    per = int(np.prod(tail, dtype=np.int64))
    order = np.arange(c).reshape(groups, c // groups).T.reshape(-1)
    index = (order[:, None] * per + np.arange(per)).reshape((c,) + tail)
    return _index_map_op(N.CHANNEL_SHUFFLE, input, index, input.dim() - 1)


native_channel_shuffle = channel_shuffle


def dropout3d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    inp_dim = input.dim()
    if inp_dim not in (4, 5):
        _warnings.warn(f"dropout3d: Received a {inp_dim}-D input to dropout3d, which is "
                       "deprecated and will result in an error in a future release. To retain "
                       "the behavior and silence this warning, please use dropout instead. "
                       "Note that dropout3d exists to provide channel-wise dropout on inputs "
                       "with 3 spatial dimensions, a channel dimension, and an optional batch "
                       "dimension (i.e. 4D or 5D inputs).", stacklevel=2)
    return _unbatched_feature_dropout(input, p, training, inplace, inp_dim == 5)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of whole channels: one bernoulli_(1 - p) per (sample, channel)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return _alpha_dropout(input, p, training, inplace, True)


def _np_zeros_like_scalar(d):
    from .._backend import np
    return np.zeros((), dtype=d.dtype)

def pdist(input, p=2):
    """Distances between every pair of rows (i < j): one PdistBackward0 node."""
    from .._ops import nn_ops as N
    from .._ops.pointwise import _float_arg
    _float_arg("pdist", "p", p, 2)  # (the argument parser's, before the kernel's checks)
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if not input.is_floating_point():
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    input = input.contiguous()  # (at::_pdist_forward(self.contiguous(), p))
    return _finish(N.PDIST, (input,), (float(p),), N.pdist_kernel(input._data, float(p)))


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """Softmax of (logits + Gumbel noise) / tau, the noise drawn as -log(exponential_());
    hard: the one-hot argmax with the soft gradient (straight through), as PyTorch."""
    if eps != 1e-10:
        _warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    from .. import _creation
    _tensors("empty_like", ("input", logits))
    gumbels = -_creation.empty_like(logits).exponential_().log()
    gumbels = (logits + gumbels) / tau
    y_soft = gumbels.softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = _creation.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


def relu_(input):
    return fn.relu_(input)

def _fractional_max_pool(input, kernel_size, output_size, output_ratio, _random_samples, nd):
    """PyTorch's Python body (output_ratio to a size, the samples drawn), then
    aten::fractional_max_pool2d/3d (_pool_checks.fractional)."""
    from .. import _creation
    from .._ops import nn_ops as N
    name = f"fractional_max_pool{nd}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an "
                         "output_ratio")
    if output_size is None:
        if nd == 2 and len(output_ratio) > 2:
            raise ValueError(f"{name} requires output_ratio to either be a single Int or tuple "
                             "of Ints.")
        ratio = _ntuple(output_ratio, nd)
        output_size = [int(input.size(-nd + i) * ratio[i]) for i in range(nd)]
    if _random_samples is None:
        n_batch = 1 if input.dim() == nd + 1 else input.size(0)
        _random_samples = _creation.rand(n_batch, input.size(-nd - 1), nd, dtype=input.dtype)
    try:  # (aten's checks: after autograd's stale-view error)
        k, size = _pc.fractional(nd, input, kernel_size, output_size, _random_samples)
    except (RuntimeError, IndexError):
        view_errors_first(input)
        raise
    op = N.FRACTIONAL_MAX_POOL2D if nd == 2 else N.FRACTIONAL_MAX_POOL3D
    params = (k, size, _random_samples._data)
    return _finish(op, (input,), params, N.fractional_max_pool_kernel(input._data, *params))


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio,
                                _random_samples, 2)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    out, idx = fractional_max_pool2d_with_indices(input, kernel_size, output_size,
                                                  output_ratio, False, _random_samples)
    return (out, idx) if return_indices else out


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio,
                                _random_samples, 3)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    out, idx = fractional_max_pool3d_with_indices(input, kernel_size, output_size,
                                                  output_ratio, False, _random_samples)
    return (out, idx) if return_indices else out

def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True, is_causal=False):
    """The functional form of MultiheadAttention (sequence-first or unbatched inputs): runs
    the module's computation on the given weights."""
    from types import SimpleNamespace
    from .modules.activation_mha import MultiheadAttention
    embed_dim = query.shape[-1]
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but "
                             f"got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    state = SimpleNamespace(
        batch_first=False, num_heads=num_heads, head_dim=head_dim,
        in_proj_weight=None if use_separate_proj_weight else in_proj_weight,
        in_proj_bias=in_proj_bias, q_proj_weight=q_proj_weight, k_proj_weight=k_proj_weight,
        v_proj_weight=v_proj_weight, _qkv_same_embed_dim=not use_separate_proj_weight,
        bias_k=bias_k, bias_v=bias_v, add_zero_attn=add_zero_attn, dropout=dropout_p,
        training=training, out_proj=SimpleNamespace(weight=out_proj_weight,
                                                    bias=out_proj_bias),
        static_k=static_k, static_v=static_v)
    return MultiheadAttention.forward(state, query, key, value, key_padding_mask,
                                      need_weights, attn_mask, average_attn_weights, is_causal)

def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None,
                         reduction="mean", ignore_index=None, label_smoothing=0.0,
                         options=None):
    """cross_entropy(linear(input, W, b), target) with W (C, *out_features, in_features):
    PyTorch 2.13's reference path (its chunked path, chosen by ``options``, gives the same
    values without materialising the logits; here ``options`` is validated and the
    reference path runs)."""
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(f"expected linear_weight with dimensionality at least 2, got "
                           f"{linear_weight.dim()}")
    num_batches = tuple(input.shape[:-1])
    in_features = input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError(f"expected equal input and linear_weight last dimensions "
                           f"(in_features), got {input.shape[-1]} and "
                           f"{linear_weight.shape[-1]}, respectively")
    num_classes = linear_weight.shape[0]
    out_features = tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (num_classes, *out_features):
        raise RuntimeError(f"expected linear_bias shape {(num_classes, *out_features)}, got "
                           f"{tuple(linear_bias.shape)}")
    if out_features and not num_batches:
        raise RuntimeError(f"K-dimensional loss defined by linear_weight shape "
                           f"{tuple(linear_weight.shape)} requires batched input, (N, "
                           f"{in_features}), got unbatched input with shape "
                           f"{tuple(input.shape)}")
    logits_shape = (*num_batches, num_classes, *out_features)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains "
                           "probabilities")
    ignore_index = ignore_index if ignore_index is not None else -100
    if out_features:
        n = num_classes
        for v in out_features:
            n *= v
        linear_weight = linear_weight.reshape((n, in_features))
        if linear_bias is not None:
            linear_bias = linear_bias.reshape(n)
    logits = linear(input, linear_weight, linear_bias).reshape(logits_shape)
    return cross_entropy(logits, target, weight=weight, reduction=reduction,
                         ignore_index=ignore_index, label_smoothing=label_smoothing)



# ---- normalisation layers composed as in PyTorch (issue 12) -------------------------------
def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    """PyTorch's instance_norm: batch norm over a (1, N*C, ...) view (ViewBackward0 on
    top); the running statistics are the per-sample ones averaged over the batch."""
    if use_input_stats:
        size = 1
        for s in input.size()[2:]:
            size *= s
        if size == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input "
                             f"size {input.size()}")
    n, c = input.shape[:2]
    shape = tuple(input.shape)
    x = input.contiguous().view((1, n * c) + shape[2:])  # (PyTorch's: a strided input's
    # CloneBackward0 then ViewBackward0, and a contiguous batch_norm input)
    rep = (lambda t: None if t is None else t.repeat(n))   # noqa: E731  (RepeatBackward0)
    rm, rv = rep(running_mean), rep(running_var)
    out = batch_norm(x, rm, rv, rep(weight), rep(bias), use_input_stats, momentum, eps)
    if use_input_stats:
        from ..autograd import no_grad
        with no_grad():
            for run, r in ((running_mean, rm), (running_var, rv)):
                if run is not None:
                    run.copy_(fn.mean(r.reshape(n, c), 0))
    return out.view(shape)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """PyTorch's composition: the mean of squares over ``size`` neighbouring channels
    (zero-padded avg pool), then ``input / (k + alpha * mean) ** beta``."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          "
                         f"input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = fn.mul(input, input)
    if dim == 3:
        div = fn.unsqueeze(div, 1)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = fn.squeeze(avg_pool2d(div, (size, 1), stride=1), 1)
    else:
        sizes = tuple(input.shape)  # (a 5-d view and avg_pool3d, as PyTorch: its view of
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)  # a strided input, its graph,
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))  # no float16 kernel)
        div = fn.squeeze(avg_pool3d(div, (size, 1, 1), stride=1), 1)
        div = div.view(sizes)
    div = fn.pow(fn.add(fn.mul(div, alpha), k), beta)
    return fn.div(input, div)


# ---- losses composed as in PyTorch (issue 12) ---------------------------------------------
def _check_reduction(reduction):
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _refuse_tangents(op, *tensors):
    """An op without a forward rule refuses a dual where PyTorch's Python layer hands over
    to it (Note [Ops without a forward rule] in _ops/nn_ops.py)."""
    from ..autograd.grad_mode import state
    if state.fw:
        from ..autograd.forward_ad import refuse_unsupported
        refuse_unsupported(op, *[t for t in tensors if t is not None])


@view_errors_before_checks
def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None,
                      reduce=None, reduction="mean"):
    """sum over i != y of max(0, margin - x[y] + x[i]) ** p (times w[y]), over C."""
    from .._backend import np
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    _tensors("multi_margin_loss", ("input", input), ("target", target), ("weight", weight, 1))
    from .._ops import nn_ops as N
    _no_requires_grad("multi_margin_loss", ("weight", weight))
    _refuse_tangents(N.MULTI_MARGIN_LOSS, input, weight)  # (VariableType, before aten's checks)
    nd = input.dim()
    if not ((nd == 2 and input.shape[1]) or (nd == 1 and input.shape[0]) or nd == 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch "
                           f"size, but got: [{_errors.shape_str(input.shape)}]")
    nframe, dim = (1, input.shape[0] if nd else 1) if nd <= 1 else tuple(input.shape)
    if target.dim() > 1 or target.numel() != nframe:
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal to "
                           f"the number of input samples (batch size). Expected target size "
                           f"[{nframe}], but got [{_errors.shape_str(target.shape)}]. Input has "
                           f"shape [{_errors.shape_str(input.shape)}].")
    if weight is not None and weight.numel() != dim:
        raise RuntimeError(f"inconsistent weight size, expected {dim} but got "
                           f"[{_errors.shape_str(weight.shape)}]")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"multi_margin_loss_cpu_kernel\" not implemented for "
                                  f"'{_dtypes.scalar_name(input.dtype)}'")
    if target.dtype != _dtypes.int64:
        raise RuntimeError(f"expected scalar type Long but found "
                           f"{_dtypes.scalar_name(target.dtype)}")
    x = input
    td = target._data.astype(np.int64)  # (its dims: the unreduced loss's shape)
    n_cls = x.shape[-1] if nd else 1
    if td.size and (td.max() >= n_cls or td.min() < 0):
        raise RuntimeError("target out of range")
    w = None if weight is None else weight._data
    params = (td, p, margin, w, reduction)
    out = N.multi_margin_loss_kernel(x._data, *params)
    return _finish(N.MULTI_MARGIN_LOSS, (x,), params, out)


@view_errors_before_checks
def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """Targets are class indices ended by the first -1: for each target j and each
    non-target i, max(0, 1 - (x[j] - x[i])), summed and divided by C (one node,
    MultilabelMarginLossBackward0)."""
    from .._backend import np
    from .._ops import nn_ops as N
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    _tensors("multilabel_margin_loss", ("input", input), ("target", target))
    x = input
    _refuse_tangents(N.MULTILABEL_MARGIN_LOSS, input)
    xd, td = x._data, target._data
    if not ((xd.ndim == 2 and xd.shape[1]) or (xd.ndim == 1 and xd.shape[0]) or xd.ndim == 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch "
                           f"size, but got: [{_errors.shape_str(xd.shape)}]")
    # (multilabel_margin_loss_shape_check, then the target's range, as aten's kernel)
    fits = (td.ndim <= 1 and td.size == (xd.shape[0] if xd.ndim == 1 else 1)) if \
        xd.ndim <= 1 else td.shape == xd.shape
    if not fits:
        from .._errors import shape_str
        raise RuntimeError(f"inconsistent target size: [{shape_str(td.shape)}] for input of "
                           f"size: [{shape_str(xd.shape)}]")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"multilabel_margin_loss_forward_out_frame\" not "
                                  f"implemented for '{_dtypes.scalar_name(input.dtype)}'")
    if target.dtype != _dtypes.int64:
        raise RuntimeError(f"expected scalar type Long but found "
                           f"{_dtypes.scalar_name(target.dtype)}")
    if td.size and (td.min() < -1 or td.max() >= (xd.shape[-1] if xd.ndim else 1)):
        raise RuntimeError("argument #2 'target' is out of range")
    params = (td.reshape(xd.shape).astype(np.int64), reduction)
    outs = N.multilabel_margin_loss_kernel(x._data, *params)
    return _finish(N.MULTILABEL_MARGIN_LOSS, (x,), params, outs)[0]


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction="mean"):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _tensors("log_sigmoid", ("input", input))
    loss = -(fn.mul(target, logsigmoid(input)) + fn.mul(1 - target, logsigmoid(-input)))
    if weight is not None:
        loss = fn.mul(loss, weight)
    class_dim = input.dim() - 1
    if class_dim < 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    loss = fn.div(fn.sum(loss, class_dim), input.size(class_dim))
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _reduce(loss, reduction)


@_cpp_composite
def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None,
                          reduction="mean"):
    """ATen's cosine_embedding_loss: cos from the sums of products (+1e-12 in each squared
    magnitude); 1 - cos where y == 1, max(0, cos - margin) where y == -1."""
    from .._creation import zeros_like
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    _tensors("cosine_embedding_loss", ("input1", input1), ("input2", input2), ("target", target))
    dim = target.dim()
    if dim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if (input1.dim(), input2.dim()) != (dim + 1, dim + 1):
        raise RuntimeError(f"{dim}D target tensor expects {dim + 1}D input tensors, but found "
                           f"inputs with sizes [{_errors.shape_str(input1.shape)}] and "
                           f"[{_errors.shape_str(input2.shape)}].")
    prod = fn.sum(fn.mul(input1, input2), dim)
    mag1 = fn.sum(fn.mul(input1, input1), dim) + 1e-12
    mag2 = fn.sum(fn.mul(input2, input2), dim) + 1e-12
    cos = fn.div(prod, fn.sqrt_(fn.mul(mag1, mag2)))
    zeros = zeros_like(cos)
    pos = fn.where(target == 1, 1 - cos, zeros)
    neg = fn.where(target == -1, fn.clamp_min_(cos - margin, 0), zeros)
    return _reduce(pos + neg, reduction)


@_cpp_composite
def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        size_average=None, reduce=None, reduction="mean"):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _tensors("triplet_margin_loss", ("anchor", anchor), ("positive", positive),
             ("negative", negative))
    _triplet_dims(anchor.dim(), positive.dim(), negative.dim())
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = fn.minimum(d_neg, pairwise_distance(positive, negative, p, eps))
    return _reduce(fn.clamp_min(margin + d_pos - d_neg, 0), reduction)


def _triplet_dims(a, p, n):
    if not a == p == n:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have "
                           f"the same number of dimensions, but got: anchor {a}D, positive "
                           f"{p}D, and negative {n}D inputs")


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean"):
    _check_reduction(reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _triplet_dims(anchor.ndim, positive.ndim, negative.ndim)
    dist = distance_function if distance_function is not None else pairwise_distance
    d_pos, d_neg = dist(anchor, positive), dist(anchor, negative)
    if swap:
        d_neg = fn.minimum(d_neg, dist(positive, negative))
    return _reduce(fn.clamp_min(margin + d_pos - d_neg, 0), reduction)


def _torch_any(x):
    """``torch.any(x)`` as PyTorch's Python code calls it: its argument parser refuses a
    non-tensor (an int var's ``var < 0`` is a bool) with the overload list."""
    from .._tensor import Tensor
    if not isinstance(x, Tensor):
        raise TypeError(f"any() received an invalid combination of arguments - got "
                        f"({type(x).__name__}), but expected one of:\n"
                        " * (Tensor input, *, Tensor out = None)\n"
                        " * (Tensor input, tuple of ints dim = None, bool keepdim = False, *, "
                        "Tensor out = None)\n"
                        " * (Tensor input, int dim, bool keepdim = False, *, "
                        "Tensor out = None)\n")
    return x.any()


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """0.5 * (log var + (input - target)^2 / var), var clamped to eps without grad (as
    PyTorch: the clamp is applied in place under no_grad to a clone)."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        from .._creation import ones_like
        var = var * ones_like(input)
    elif bool(_torch_any(var < 0)):
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = fn.unsqueeze(var, -1)
        elif input.ndim == var.ndim and sum(
                y for x, y in zip(input.size(), var.size()) if x != y) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    from ..autograd import no_grad
    with no_grad():
        var.clamp_(min=eps)
    # ((input - target) ** 2: PowBackward0, whose gradient under create_graph is
    # PyTorch's MulBackward0, where diff * diff accumulated two edges: AddBackward0)
    loss = fn.mul(fn.log(var) + fn.div(fn.pow(input - target, 2), var), 0.5)
    if full:
        loss = loss + 0.5 * _math.log(2 * _math.pi)
    return _reduce(loss, reduction)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """Connectionist temporal classification: one ``_ctc_loss`` entry (CtcLossBackward0,
    PyTorch's alpha/beta recursions: Note [CTC entry] in _ops/nn_ops.py), then aten's
    zero_infinity where and reduction (the mean divides by the target lengths)."""
    _check_reduction(reduction)  # (the Python function's check, before aten's)
    return _ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction,
                     zero_infinity)


@view_errors_before_checks
def _ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction,
              zero_infinity):
    from .._backend import np
    from .._creation import _make
    from .._ops import nn_ops as N
    unbatched = log_probs.dim() != 3  # (aten's ctc_loss: any other rank gets a batch dim)
    lp = fn.unsqueeze(log_probs, 1) if unbatched else log_probs
    if lp.numel() == 0:
        raise RuntimeError("log_probs tensor must not be empty")
    if lp.dim() != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {lp.dim()}-dimensional "
                           f"tensor for argument #1 'log_probs' (while checking arguments for "
                           f"ctc_loss_allocate_outputs)")
    _refuse_tangents(N.CTC_LOSS, lp)
    t_max, n = lp.shape[:2]

    def ints(v):
        return np.asarray(v._data if hasattr(v, "_data") else v, dtype=np.int64).reshape(-1)

    in_len, tg_len = ints(input_lengths), ints(target_lengths)
    tg = targets._data if hasattr(targets, "_data") else np.asarray(targets)
    if unbatched:
        tg = tg.reshape(1, -1) if tg.ndim == 1 else tg
    if in_len.size != n:
        raise RuntimeError("input_lengths must be of size batch_size")
    if in_len.size and in_len.max() > t_max:
        raise RuntimeError(f"Expected input_lengths to have value at most {t_max}, but got "
                           f"value {in_len.max()} (while checking arguments for "
                           "ctc_loss_allocate_outputs)")
    if tg.ndim == 2 and tg_len.size and tg_len.max() > tg.shape[1]:
        raise RuntimeError(f"Expected tensor to have size at least {tg_len.max()} at dimension "
                           f"1, but got size {tg.shape[1]} for argument #2 'targets' (while "
                           "checking arguments for ctc_loss_allocate_outputs)")
    params = (tg.astype(np.int64), in_len, tg_len, blank, bool(zero_infinity))
    res = _finish(N.CTC_LOSS, (lp,), params, N.ctc_loss_kernel(lp._data, *params))[0]
    if zero_infinity:
        res = fn.where(_make(res._data == np.inf), _make(np.zeros((), res._data.dtype)), res)
    if reduction == "mean":
        div = _make(np.maximum(tg_len, 1).astype(res._data.dtype))
        return fn.mean(fn.div(res, div))
    if reduction == "sum":
        return fn.sum(res)
    return fn.squeeze(res, 0) if unbatched else res


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,
                  mode="mean", sparse=False, per_sample_weights=None, include_last_offset=False,
                  padding_idx=None):
    """Bags of embedding rows reduced by sum / mean / max: the rows gathered (embedding),
    weighted, and added into their bag (index_add) or maxed over a dense (bags, longest)
    layout. Empty bags give zeros; padding_idx entries are skipped."""
    return _embedding_bag(input, weight, offsets, scale_grad_by_freq, mode, per_sample_weights,
                          include_last_offset, padding_idx, max_norm, norm_type, sparse)[0]


def _embedding_bag(input, weight, offsets, scale_grad_by_freq, mode, per_sample_weights,
                   include_last_offset, padding_idx, max_norm=None, norm_type=2, sparse=False):
    """aten::embedding_bag: (output, offset2bag, bag_size, max_indices) as its CPU kernel
    gives them (offset2bag left empty by its float32 sum fast path; bag_size and
    max_indices zeros for sum, max_indices = bag_size for mean, 0 for an empty max bag)."""
    from .._backend import np
    from .._creation import _make
    from .._tensor import Tensor
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) "
                         f"is not None, then it must have the same shape as the input "
                         f"({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                         f"{weight.dim()}")
    idx = input._data
    if idx.ndim == 2:
        if offsets is not None:
            kind = "<class 'torch.Tensor'>" if isinstance(offsets, Tensor) else \
                str(type(offsets))
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated "
                             "is a mini-batch of fixed length sequences. However, found "
                             f"offsets of type {kind}")
        b, length = idx.shape
        flat = idx.reshape(-1)
        bag = np.repeat(np.arange(b), length)
        psw = None if per_sample_weights is None else per_sample_weights.reshape(-1)
    elif idx.ndim == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
        off = offsets._data.astype(np.int64)
        if include_last_offset:      # the last bag runs to the end of the input, as aten's
            off = off[:-1]
        ends = np.append(off[1:], idx.size)
        b = off.size
        flat = idx
        bag = np.repeat(np.arange(b), np.maximum(ends - off, 0))
        psw = per_sample_weights
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{idx.ndim}")
    if mode == "max":
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    elif mode not in ("sum", "mean"):
        raise ValueError("mode has to be one of sum, mean or max")
    keep = np.ones(flat.size, dtype=bool) if padding_idx is None else flat != padding_idx
    if max_norm is not None:   # renormalise the rows read, in place, as embedding does
        embedding(_make(flat[keep]), weight, max_norm=max_norm, norm_type=norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. "
                                  f"per_sample_weights is only supported for mode='sum' (got "
                                  f"mode='{mode}'). Please open a feature request on GitHub.")
    flat = flat[:bag.size]           # entries past the last bag (include_last_offset) unused
    from .._ops import nn_ops as N
    _refuse_tangents(N.EMBEDDING_BAG, weight, per_sample_weights)
    bad = (flat < 0) | (flat >= weight.shape[0])
    if bad.any():
        raise RuntimeError(f"embedding_bag: Expected idx >= 0 && idx < num_embeddings but "
                           f"found idx to be {flat[np.argmax(bad)]}")
    params = (flat.astype(np.int64), bag, keep[:bag.size], mode, b, bool(scale_grad_by_freq))
    outs = N.embedding_bag_kernel(weight._data, None if psw is None else psw._data, *params)
    out = _finish(N.EMBEDDING_BAG, (weight, psw), params, outs)[0]
    it = np.int32 if idx.dtype == np.int32 and (offsets is None or offsets.dtype ==
                                                _dtypes.int32) else np.int64
    if mode == "sum":
        fast = padding_idx is None and weight.dtype in (_dtypes.float32, _dtypes.float16,
                                                        _dtypes.bfloat16)
        offset2bag = np.zeros(0, it) if fast else bag.astype(it)
        bag_size = max_idx = np.zeros(b, it)
    else:
        offset2bag = bag.astype(it)
        bag_size = np.bincount(bag[keep[:bag.size]], minlength=b).astype(it)
        max_idx = bag_size.copy() if mode == "mean" else np.maximum(outs[1], 0).astype(it)
    return out, _make(offset2bag), _make(bag_size), _make(max_idx)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """softmax(q k^T * scale + mask) v, PyTorch's math reference (values to rounding; its
    CPU build runs a fused kernel with another node name). A bool mask keeps True."""
    if _amp.state.enabled:
        return _amp.lower(scaled_dot_product_attention, query, key, value, attn_mask, dropout_p,
                          is_causal, scale, enable_gqa=enable_gqa)
    from .._creation import _make
    from .._backend import np
    n_q, n_k = query.shape[-2], key.shape[-2]
    if scale is None:
        scale = 1.0 / _math.sqrt(query.shape[-1])
    if enable_gqa and key.dim() >= 3 and key.shape[-3] != query.shape[-3]:
        rep = query.shape[-3] // key.shape[-3]
        key = fn.repeat_interleave(key, rep, -3)
        value = fn.repeat_interleave(value, rep, -3)
    bias = None
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not "
                               "be set when is_causal=True")
        keep = np.tril(np.ones((n_q, n_k), dtype=bool))
        bias = _make(np.where(keep, 0.0, -np.inf).astype(query._data.dtype))
    elif attn_mask is not None:
        if attn_mask.dtype == _dtypes.bool:
            bias = _make(np.where(attn_mask._data, 0.0, -np.inf).astype(query._data.dtype))
        else:
            bias = attn_mask
    weights = fn.mul(fn.matmul(query, fn.transpose(key, -2, -1)), scale)
    if bias is not None:
        weights = weights + bias
    weights = fn.softmax(weights, -1)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, True)
    return fn.matmul(weights, value)


# ---- spatial transformers (issue 12): composed, values and gradients as PyTorch's ----------
_ALIGN_WARNING = ("Default grid_sample and affine_grid behavior has changed to "
                  "align_corners=False since 1.3.0. Please specify align_corners=True if the "
                  "old behavior is desired. See the documentation of grid_sample for details.")


def affine_grid(theta, size, align_corners=None):
    """The sampling grid of 2-d (N, 2, 3) or 3-d (N, 3, 4) affine maps: a base grid of
    normalised (x, y[, z], 1) per output point times theta^T (PyTorch's formula; its node is
    AffineGridGeneratorBackward0)."""
    if align_corners is None:
        _warn.python(_ALIGN_WARNING, stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got "
                         f"{theta.dtype}")
    if len(size) == 4:
        if theta.dim() != 3 or tuple(theta.shape[-2:]) != (2, 3):
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size "
                             f"{size}. Got {theta.shape}.")
    elif len(size) == 5:
        if theta.dim() != 3 or tuple(theta.shape[-2:]) != (3, 4):
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size "
                             f"{size}. Got {theta.shape}.")
    else:
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  f"affine transforms, respectively. Got size {size}.")
    spatial = tuple(size[2:])
    if align_corners and min(spatial) == 1:
        _warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size "
                       "grids when align_corners=True. This is not an intended use case of "
                       "affine_grid. See the documentation of affine_grid for details.",
                       stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")

    from .._ops import nn_ops as N
    params = (tuple(int(s) for s in size), bool(align_corners))
    return _finish(N.AFFINE_GRID_GENERATOR, (theta,), params,
                   N.affine_grid_kernel(theta._data, *params))


def _prod(xs):
    r = 1
    for v in xs:
        r *= v
    return r


@view_errors_before_checks
def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Samples ``input`` (N, C, [D,] H, W) at ``grid`` (N, [Do,] Ho, Wo, 2 or 3) normalised
    (x, y[, z]) points: bilinear/trilinear, nearest or bicubic (4-D), with zeros / border /
    reflection padding: one grid_sampler_2d / _3d entry (GridSampler2DBackward0 /
    GridSampler3DBackward0, Note [grid_sampler entries] in _ops/nn_ops.py)."""
    from .._ops import nn_ops as N
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        _warn.python(_ALIGN_WARNING, stacklevel=2)
        align_corners = False
    return N.grid_sampler(input, grid, N.GRID_MODES.index(mode),
                          N.GRID_PADDINGS.index(padding_mode), align_corners)
