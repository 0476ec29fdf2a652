"""``nn.functional``: stateless layers and losses, composed from the op table."""
from .. import _dtypes, _errors
from .. import _ops as fn
from .._ops._common import _finish
from .._ops.pointwise import _to_dtype

linear = fn.linear
relu = fn.relu
sigmoid = fn.sigmoid
tanh = fn.tanh
# activations (issue 11): their entries and kernels live in _ops/pointwise.py
from .._ops.pointwise import (  # noqa: E402, F401
    celu, celu_, elu, elu_, gelu, glu, hardshrink, hardsigmoid, hardswish, hardtanh, hardtanh_,
    leaky_relu, leaky_relu_, logsigmoid, mish, relu6, rrelu, rrelu_, selu, selu_, silu,
    softplus, softshrink, softsign, tanhshrink, threshold, threshold_)


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    return fn.softmax(input, dim, dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    return fn.log_softmax(input, dim, dtype)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean squared error, one node (MseLossBackward0) like PyTorch's."""
    from .._backend import np
    from .._ops import nn_ops as D
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    a, b = input._data, target._data
    if a.shape != b.shape:
        import warnings
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input "
                      f"size ({input.shape}). This will likely lead to incorrect results due "
                      f"to broadcasting. Please ensure they have the same size.",
                      UserWarning, stacklevel=2)
        try:
            a, b = np.broadcast_arrays(a, b)
        except ValueError:
            from .._ops.dispatch import broadcast_error
            raise broadcast_error(a.shape, b.shape) from None
    if b.dtype != a.dtype:
        b = b.astype(a.dtype)
    diff = a - b
    sq = diff * diff
    out = sq if reduction == "none" else np.asarray(sq.mean() if reduction == "mean"
                                                    else sq.sum())
    r = _finish(D.MSE_LOSS, (input, target), (reduction,), out.astype(a.dtype, copy=False))
    if r._grad_fn is not None and input._data.shape != target._data.shape:
        from .._ops.dispatch import set_input_metadata
        set_input_metadata(r._grad_fn, (input, target), a.shape, a.dtype)
    return r


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,
                  reduce=None, reduction="mean", label_smoothing=0.0):
    """log_softmax over the class dim, then nll_loss (two nodes, as in PyTorch); with
    ``label_smoothing`` e, (1 - e) * nll + e * the mean over classes of -log p."""
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                           f"{label_smoothing}")
    dim = 1 if input.dim() >= 2 else 0
    lsm = fn.log_softmax(input, dim)
    nll = nll_loss(lsm, target, weight, ignore_index=ignore_index, reduction=reduction)
    if not label_smoothing:
        return nll
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
    """Negative log-likelihood of class indices; input (N, C, ...) or (C,)."""
    from .._backend import np
    from .._ops import nn_ops as D
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if input.dim() == 1:
        return nll_loss(fn.unsqueeze(input, 0), fn.unsqueeze(target, 0), weight,
                        ignore_index=ignore_index, reduction=reduction).squeeze(0) \
            if reduction == "none" else nll_loss(fn.unsqueeze(input, 0),
                                                 fn.unsqueeze(target, 0), weight,
                                                 ignore_index=ignore_index,
                                                 reduction=reduction)
    x = input._data
    t = target._data
    if t.dtype.kind not in "iu":
        raise RuntimeError(f"expected scalar type Long but found "
                           f"{_dtypes.scalar_name(_dtypes.from_numpy(t.dtype))}")
    if t.shape != x.shape[:1] + x.shape[2:]:
        raise ValueError(f"Expected input batch_size ({x.shape[0]}) to match target "
                         f"batch_size ({t.shape[0] if t.ndim else 0}).")
    n_classes = x.shape[1]
    valid = t != ignore_index
    if valid.any() and (t[valid].max() >= n_classes or t[valid].min() < 0):
        bad = int(t[valid].max() if t[valid].max() >= n_classes else t[valid].min())
        raise IndexError(f"Target {bad} is out of bounds.")
    w = None if weight is None else weight._data
    safe = np.where(valid, t, 0)
    picked = np.squeeze(np.take_along_axis(x, np.expand_dims(safe, 1), axis=1), 1)
    wt = np.where(valid, 1.0 if w is None else w[safe], 0.0).astype(x.dtype)
    losses = -picked * wt
    total = float(wt.sum())
    if reduction == "none":
        out = losses
    elif reduction == "sum":
        out = np.asarray(losses.sum())
    else:
        out = np.asarray(losses.sum() / total if total else np.nan)
    return _finish(D.NLL_LOSS, (input,), (t, w, reduction, ignore_index, total),
                      out.astype(x.dtype, copy=False))


def dropout(input, p=0.5, training=True, inplace=False):
    if not training or p == 0:
        return input
    from .. import _creation
    mask = _creation.rand(*input.shape, dtype=input.dtype) >= p
    return fn.mul(input, _to_dtype(mask, input.dtype)) / (1 - p)


_ = _errors
