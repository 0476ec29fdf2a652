"""``nn.functional``: stateless layers and losses, composed from the op table."""
from .. import _errors
from .._ops import functions as fn

linear = fn.linear
relu = fn.relu
sigmoid = fn.sigmoid
tanh = fn.tanh


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    return fn.softmax(input, dim, dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    return fn.log_softmax(input, dim, dtype)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean squared error, one node (MseLossBackward0) like PyTorch's."""
    from .._backend import np
    from .._ops import derivatives as D
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
    r = fn._finish(D.MSE_LOSS, (input, target), (reduction,), out.astype(a.dtype, copy=False))
    if r._grad_fn is not None and input._data.shape != target._data.shape:
        from .._ops.dispatch import set_input_metadata
        set_input_metadata(r._grad_fn, (input, target), a.shape, a.dtype)
    return r


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,
                  reduce=None, reduction="mean", label_smoothing=0.0):
    return nll_loss(log_softmax(input, 1), target, reduction=reduction)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    from .._tensor import _make
    from .._backend import np
    idx = target._data
    if idx.ndim != 1 or input._data.ndim != 2:
        raise RuntimeError("nll_loss: only 2-D input and 1-D target are supported so far")
    picked = fn.gather(input, 1, _make(idx.reshape(-1, 1).astype(np.int64)))
    picked = fn.squeeze(picked, 1)
    loss = -picked
    if reduction == "mean":
        return fn.mean(loss)
    if reduction == "sum":
        return fn.sum(loss)
    return loss


def dropout(input, p=0.5, training=True, inplace=False):
    if not training or p == 0:
        return input
    from .. import _creation
    mask = _creation.rand(*input.shape, dtype=input.dtype) >= p
    return fn.mul(input, fn._to_dtype(mask, input.dtype)) / (1 - p)


_ = _errors
