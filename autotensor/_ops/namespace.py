"""``TENSOR``: the namespace backward formulas compute in when a graph of the backward is
recorded (``create_graph=True``); ``raw.RAW`` is its array twin (Note [One formula, two
interpretations] in raw.py). It must offer every name of ``raw.FORMULA_NAMES``.
"""
import builtins
import operator
from types import SimpleNamespace

from .. import _dtypes
from .._backend import np
from .._tensor import _make, Tensor
from ..autograd.forward_ad import _set_tangent, _tangent_or_none
from ..autograd.grad_mode import state as _state
from . import raw
from ._common import _asarray, _finish, ndarray, _unary
from .pointwise import (
    cosh, digamma, div, erf, erfinv, exp2, expm1, log1p, neg, polygamma, sinh,
    abs, clamp, clone, cos, exp, floor, log, maximum, minimum, mul, pow, reciprocal, relu, SGN,
    sigmoid, sign,
    sin, sqrt, tanh, _to_dtype, trunc, where, zeros_like_, TANH_BACKWARD, SIGMOID_BACKWARD,
    THRESHOLD_BACKWARD, ACTIVATION_BACKWARD, ELU_BACKWARD, SOFTPLUS_BACKWARD,
    HARDSWISH_BACKWARD, LOG_SIGMOID_BACKWARD, GELU_BACKWARD, GLU_BACKWARD)
from .shape import (
    as_strided, cat, diagonal, DIAGONAL_BACKWARD, expand, flip, narrow, permute, reshape, select,
    squeeze, stack, STRIDED_SCATTER, STRIDED_VIEW, t, transpose, tril, triu, unfold,
    UNFOLD_BACKWARD, unsqueeze, view)
from .indexing import (
    gather, getitem, GETITEM_BACKWARD, masked_scatter, SELECT_BACKWARD, index_add,
    INDEX_BACKWARD, index_select, masked_fill, scatter, scatter_add)
from .reduction import (
    cumprod, cumsum, log_softmax, logcumsumexp, LOG_SOFTMAX_BACKWARD_DATA, mean, softmax,
    SOFTMAX_BACKWARD_DATA, sum)
from .linalg import bmm, matmul, mm
from .nn_ops import (BCE_BACKWARD, convolution, HUBER_LOSS_BACKWARD, MSE_LOSS_BACKWARD,
                     NLL_LOSS_BACKWARD, NLL_LOSS2D_BACKWARD, SMOOTH_L1_LOSS_BACKWARD,
                     SOFT_MARGIN_LOSS_BACKWARD)
from .complex_ops import real


# ---- the namespace formulas record with (Note [One formula, two interpretations]) --------
def _sum_to(x, shape):
    shape = tuple(shape)
    if tuple(x._data.shape) == shape:
        return x
    if not shape:
        return sum(x)  # at::sum_to's special case: SumBackward0, no view
    lead = x._data.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, s in enumerate(shape) if s == 1 and x._data.shape[i + lead] != 1)
    if axes:
        x = sum(x, axes, True)
    if lead:
        x = reshape(x, shape)
    return x


def _zeros(shape, like):
    return _make(np.zeros(shape, dtype=like._data.dtype))


def _zero_tensor_like(x):
    return _make(raw.zero_tensor_like(x._data))


def _cast(x, npdtype):
    if x._data.dtype.kind == "c" and np.dtype(npdtype).kind != "c":
        x = real(x)  # a complex gradient of a real input: its real part (handle_r_to_c)
    return _to_dtype(x, _dtypes.from_numpy(npdtype))


def _cast_like(x, like):
    return _to_dtype(x, _dtypes.from_numpy(like._data.dtype))


def _getitem_key(x, key):
    return getitem(x, tuple(_make(k) if isinstance(k, ndarray) else k for k in key))


def _graph_op(op, out_fn):
    """A formula helper recorded as op (input 'grad'), its kernel out_fn on arrays."""
    def f(grad, *params):
        return _finish(op, (grad,), params, _asarray(out_fn(grad._data, *params)))
    return f


def _as_strided_backward(grad, layout, size, stride, offset):
    """FunctionsManual's as_strided_backward, recorded op by op as PyTorch's is under
    create_graph (so the gradient's grad_fn is the final as_strided's AsStridedBackward0, over
    a CopySlices or an IndexAddBackward0): the output geometry's size-1 dims squeezed and
    expanded ones summed, the gradient scattered into a zero "storage" (index_add_ where the
    output may overlap itself), divided by the input's element counts where it may overlap,
    and the input geometry read back. ``offset``: the output's, relative to the input's."""
    shape, strides = layout
    if 0 in size or 0 in shape:
        return _make(np.zeros(shape, dtype=grad._data.dtype))  # (no history, as PyTorch's)
    out_sizes, out_strides = [], []
    for i in range(len(size) - 1, -1, -1):
        if size[i] == 1:
            grad = squeeze(grad, i)
        elif stride[i] == 0:
            grad = sum(grad, i)
        else:
            out_sizes.insert(0, size[i])
            out_strides.insert(0, stride[i])
    inp = [(n, st) for n, st in zip(shape, strides) if n != 1]
    inp_sizes, inp_strides = [n for n, _ in inp], [st for _, st in inp]
    out_overlap = raw.maybe_overlapping_memory(out_sizes, out_strides)
    inp_overlap = raw.maybe_overlapping_memory(inp_sizes, inp_strides)
    shared = min(0, offset)
    inp_offset, out_offset = -shared, offset - shared
    base = max(o + 1 + builtins.sum((n - 1) * st for n, st in zip(sz, st_))
               for o, sz, st_ in ((inp_offset, inp_sizes, inp_strides),
                                  (out_offset, out_sizes, out_strides)))
    storage = _make(np.zeros(base, dtype=grad._data.dtype))
    positions = _make(np.arange(base, dtype=np.int64))
    if out_overlap:
        index = reshape(as_strided(positions, out_sizes, out_strides, out_offset), (-1,))
        storage.index_add_(0, index, reshape(grad, (-1,)))
    else:
        as_strided(storage, out_sizes, out_strides, out_offset).copy_(grad)
    if inp_overlap:
        count = _make(np.zeros(base, dtype=grad._data.dtype))
        index = reshape(as_strided(positions, inp_sizes, inp_strides, inp_offset), (-1,))
        count.index_add_(0, index, _make(np.ones(1, dtype=grad._data.dtype)).expand_as(index))
        storage.div_(count)
    return as_strided(storage, shape, strides, inp_offset)


def _strided_scatter(grad, src, layout, size, stride, offset):
    out = raw.strided_scatter(grad._data, src._data, layout, size, stride, offset)
    return _finish(STRIDED_SCATTER, (grad, src), (layout, size, stride, offset), out)


def _diagonal_backward(grad, shape, offset, dim1, dim2):
    out = raw.diagonal_backward(grad._data, shape, offset, dim1, dim2)
    return _finish(DIAGONAL_BACKWARD, (grad,), (shape, offset, dim1, dim2), out)


def _softmax_bwd_decomposed(F, new_grad_output, output, dim):
    return new_grad_output - output * F.sum(new_grad_output, dim, True)


def _prelu_kernel_backward(grad, self, weight):
    from .special import PRELU_BACKWARD
    return _finish(PRELU_BACKWARD, (grad, self, weight), (), PRELU_BACKWARD.kernel(
        grad._data, self._data, weight._data))


def _pool_backward(name):
    from . import nn_ops
    op = {"max_pool2d_with_indices_backward": nn_ops.MAX_POOL2D_BACKWARD,
          "avg_pool2d_backward": nn_ops.AVG_POOL2D_BACKWARD,
          "_adaptive_avg_pool2d_backward": nn_ops.ADAPTIVE_AVG_POOL2D_BACKWARD,
          "adaptive_max_pool2d_backward": nn_ops.ADAPTIVE_MAX_POOL2D_BACKWARD,
          **nn_ops.PAD_BACKWARD}[name]

    def f(grad, self, *params):
        return _finish(op, (grad, self), params, _asarray(op.kernel(grad._data, self._data,
                                                                     *params)))
    return f


def _nll_backward(op, grad, self, params):
    if _state.fw and (_tangent_or_none(grad) is not None or
                      _tangent_or_none(self) is not None):
        return _decomposed_for_jvp(op, _nll_backward_decomposed, (grad, self), params)
    return _finish(op, (grad, self), params, _asarray(op.kernel(grad._data, self._data,
                                                                 *params)))


def _nll_backward_decomposed(F, grad_output, self, target, weight, reduction, ignore_index,
                             total_weight):
    """torch._decomp's nll_loss_backward (Note [Forward AD through a decomposition]): a
    scatter of -1 times the incoming gradient, so the zeros of a negative gradient are -0.0
    and a dual self gives no tangent."""
    channel_dim = 0 if self.ndim < 2 else 1
    if reduction == "mean":
        grad_output = grad_output / total_weight
    target = np.asarray(target)
    if self.ndim == 1 and target.ndim == 1:  # (a (1,) input's (1,) target: one sample)
        target = target.reshape(())
    target = np.expand_dims(target, channel_dim)
    kept = target != ignore_index
    grad_input = F.scatter(F.zeros_like(self), channel_dim, np.where(kept, target, 0), -1.0)
    if grad_input.ndim > grad_output.ndim > 0:
        grad_output = F.unsqueeze(grad_output, channel_dim)
    if weight is not None:
        shape = [1] * self.ndim
        shape[channel_dim] = len(weight)
        grad_output = grad_output * F.constant(np.reshape(weight, shape), grad_output)
    grad_output = F.where(_make(kept), grad_output, 0)
    return grad_input * grad_output


def _backward_op(op, out_fn, jvp_decomposition=None):
    """A formula helper recorded as op, with inputs (grad, a tensor) and params."""
    def f(grad, x, *params):
        if jvp_decomposition is not None and _state.fw and (
                _tangent_or_none(grad) is not None or _tangent_or_none(x) is not None):
            return _decomposed_for_jvp(op, jvp_decomposition, (grad, x), params)
        return _finish(op, (grad, x), params, _asarray(out_fn(grad._data, x._data, *params)))
    return f


# Note [Forward AD through a decomposition]: aten ops without a forward formula that
# torch._decomp.decompositions_for_jvp registers (_softmax_backward_data,
# _log_softmax_backward_data: what SoftmaxBackward0 / LogSoftmaxBackward0 call, so a
# forward-over-reverse pass meets them) run, when an input has a tangent, as their
# TorchScript decomposition: each step an op of its own in the input's dtype (no float32
# upcast for float16), whose rules give the tangent, and the decomposition's value is the
# primal (``g * o - o * sum(g * o)``, not the kernel's ``o * (g - sum(g * o))``). The result
# then takes the op's own node (VariableType's set_history after the decomposition); a
# decomposition of several results (native_layer_norm_backward) returns a tuple.
def _decomposed_for_jvp(op, decomposition, inputs, params):
    d = decomposition(TENSOR, *inputs, *params)  # (tangents propagate op by op)
    ds = d if isinstance(d, tuple) else (d,)
    tangents = [_tangent_or_none(x) for x in ds]
    _state.fw = False
    try:
        outs = tuple(x._data if x._data.flags.c_contiguous else x._data.copy(order="C")
                     for x in ds)
        r = _finish(op, inputs, params, outs if isinstance(d, tuple) else outs[0])
    finally:
        _state.fw = True
    for x, tangent in zip(r if isinstance(d, tuple) else (r,), tangents):
        if tangent is not None:
            _set_tangent(x, tangent)
    return r


TENSOR = SimpleNamespace(
    is_raw=False, neg=neg, mul=operator.mul, div=operator.truediv,
    div_scalar=lambda x, n: _div_scalar(x, n),
    sum_to=_sum_to, expand=expand, reshape=reshape, view=view, sum=sum, mean=mean,
    unsqueeze=unsqueeze, squeeze=squeeze, transpose=transpose, t=t, permute=permute, mm=mm,
    matmul=matmul, bmm=bmm, where=where, zeros=_zeros, zeros_like=zeros_like_,
    zero_tensor_like=_zero_tensor_like,
    ones_like=lambda x: zeros_like_(x, 1), cast=_cast, masked_fill=masked_fill,
    clone=clone, contiguous=lambda x: x.contiguous(),
    exp=exp, exp2=exp2, log=log, sin=sin, cos=cos, sqrt=sqrt, sign=sign, abs=abs,
    pow=pow, reciprocal=reciprocal,
    gather=gather, scatter_add=lambda x, dim, index, src: scatter_add(
        x, dim, _make(index) if isinstance(index, ndarray) else index, src),
    index_select=lambda x, dim, index: index_select(
        x, dim, _make(index) if isinstance(index, ndarray) else index),
    index_add=lambda x, dim, index, src, alpha=1: index_add(
        x, dim, _make(index) if isinstance(index, ndarray) else index, src, alpha=alpha),
    getitem=_getitem_key,
    getitem_backward=_graph_op(GETITEM_BACKWARD, raw.getitem_backward),
    select_backward=_graph_op(SELECT_BACKWARD, raw.getitem_backward),
    index_backward=lambda grad, shape, key: _finish(
        INDEX_BACKWARD, (_make(np.zeros(shape, dtype=grad._data.dtype)), grad), (key,),
        _asarray(raw.index_backward(grad._data, shape, key))),
    masked_select_backward=lambda grad, shape, mask: masked_scatter(
        _make(np.zeros(shape, dtype=grad._data.dtype)), _make(mask), grad),
    cat=cat, stack=stack, narrow=narrow, select=select, softmax=softmax,
    log_softmax=log_softmax, maximum=maximum, minimum=minimum, clamp=clamp, relu=relu,
    tanh=tanh, sigmoid=sigmoid, cast_like=_cast_like, diagonal=diagonal,
    diagonal_backward=_diagonal_backward,
    as_strided=lambda x, size, stride, offset=0: as_strided(x, size, stride, offset),
    as_strided_backward=lambda grad, layout, size, stride, offset: _as_strided_backward(
        grad, layout, size, stride, offset),
    unfold=unfold, unfold_backward=_graph_op(UNFOLD_BACKWARD, raw.unfold_backward),
    strided_view=_graph_op(STRIDED_VIEW, raw.strided_view),
    strided_scatter=_strided_scatter,
    logcumsumexp=logcumsumexp,
    flip=flip, cumsum=cumsum, cumprod=cumprod, tril=tril, triu=triu, floor=floor, trunc=trunc,
    div_floor=lambda a, b: div(a, b, rounding_mode="floor"),
    div_trunc=lambda a, b: div(a, b, rounding_mode="trunc"),
    sgn=lambda x: _unary(SGN, x, float_op=False),
    constant=lambda arr, like: _make(np.asarray(arr, dtype=like._data.dtype)),
    convolution=convolution,
    zero_at=lambda x, key: _zero_at(x, key),
    scatter=lambda x, dim, index, src: scatter(
        x, dim, _make(index) if isinstance(index, ndarray) else index, src)
    if isinstance(src, Tensor) else scatter(
        x, dim, _make(index) if isinstance(index, ndarray) else index, value=src),
    log1p=log1p, expm1=expm1, sinh=sinh, cosh=cosh, erf=erf, erfinv=erfinv, digamma=digamma,
    polygamma=polygamma, xlogy=lambda x, y: _xlogy_fn(x, y), rsqrt=lambda x: _rsqrt_fn(x),
    xlog1py=lambda x, y: _xlog1py_fn(x, y),
    tanh_backward=_backward_op(TANH_BACKWARD, raw.tanh_backward),
    sigmoid_backward=_backward_op(SIGMOID_BACKWARD, raw.sigmoid_backward),
    threshold_backward=_backward_op(THRESHOLD_BACKWARD, raw.threshold_backward),
    softmax_backward_data=_backward_op(
        SOFTMAX_BACKWARD_DATA, raw.softmax_backward_data,
        lambda F, grad_output, output, dim:
            _softmax_bwd_decomposed(F, grad_output * output, output, dim)),
    log_softmax_backward_data=_backward_op(
        LOG_SOFTMAX_BACKWARD_DATA, raw.log_softmax_backward_data,
        lambda F, grad_output, output, dim:
            grad_output - F.exp(output) * F.sum(grad_output, dim, True)),
    # leaky_relu_backward, hardtanh_backward, ... (Note [Activation backward ops])
    **{op.name: _backward_op(op, op.kernel) for op in ACTIVATION_BACKWARD},
    elu_backward=_backward_op(ELU_BACKWARD, ELU_BACKWARD.kernel),
    softplus_backward=_backward_op(SOFTPLUS_BACKWARD, SOFTPLUS_BACKWARD.kernel),
    hardswish_backward=_backward_op(HARDSWISH_BACKWARD, HARDSWISH_BACKWARD.kernel),
    gelu_backward=_backward_op(GELU_BACKWARD, GELU_BACKWARD.kernel),
    glu_backward=_backward_op(GLU_BACKWARD, GLU_BACKWARD.kernel),
    soft_margin_loss_backward=lambda grad, self, target, reduction: _finish(
        SOFT_MARGIN_LOSS_BACKWARD, (grad, self), (target, reduction), _asarray(
            SOFT_MARGIN_LOSS_BACKWARD.kernel(grad._data, self._data, target._data,
                                             reduction))),
    binary_cross_entropy_backward=lambda grad, self, target, weight, reduction: _finish(
        BCE_BACKWARD, (grad, self, target), (weight, reduction), _asarray(
            BCE_BACKWARD.kernel(grad._data, self._data, target._data, weight, reduction))),
    nll_loss_backward=lambda grad, self, *params: _nll_backward(NLL_LOSS_BACKWARD, grad, self,
                                                                params),
    nll_loss2d_backward=lambda grad, self, *params: _nll_backward(NLL_LOSS2D_BACKWARD, grad,
                                                                  self, params),
    prelu_kernel_backward=_prelu_kernel_backward,
    # (Note [Pooling backward ops] in nn_ops.py)
    **{name: _pool_backward(name) for name in (
        "max_pool2d_with_indices_backward", "avg_pool2d_backward",
        "_adaptive_avg_pool2d_backward", "adaptive_max_pool2d_backward",
        *(f"{k}_pad{n}d_backward" for k in ("reflection", "replication") for n in (1, 2, 3)))},
    huber_loss_backward=lambda grad, self, target, reduction, delta: _finish(
        HUBER_LOSS_BACKWARD, (grad, self, target), (reduction, delta), _asarray(
            HUBER_LOSS_BACKWARD.kernel(grad._data, self._data, target._data, reduction,
                                       delta))),
    smooth_l1_loss_backward=lambda grad, self, target, reduction, beta: _finish(
        SMOOTH_L1_LOSS_BACKWARD, (grad, self, target), (reduction, beta), _asarray(
            SMOOTH_L1_LOSS_BACKWARD.kernel(grad._data, self._data, target._data, reduction,
                                           beta))),
    mse_loss_backward=lambda grad, self, target, reduction: _finish(
        MSE_LOSS_BACKWARD, (grad, self, target), (reduction,), _asarray(
            MSE_LOSS_BACKWARD.kernel(grad._data, self._data, target._data, reduction))),
    log_sigmoid_backward=_backward_op(LOG_SIGMOID_BACKWARD, LOG_SIGMOID_BACKWARD.kernel),
)


def _div_scalar(x, n):
    """A formula's ``x / n`` that C++ writes with a number (double, SymInt): div.Scalar,
    which has no zero-tensor kernel (mul.Scalar has), so a zero-tensor tangent comes out as
    stored +0.0 zeros (Note [Zero-tensor tangents] in dispatch.py)."""
    out = operator.truediv(x, n)
    if out._meta is not None:
        from ..autograd.forward_ad import materialize_tangent
        materialize_tangent(out)
    return out


def _zero_at(x, key):
    """x with zeros written at key (PyTorch's ``index_fill(dim, index, 0)``, ``index_put_``
    of zeros...): recorded as a product with a mask of ones (its graph), the values those of
    the write (+0.0, where x * 0 is -0.0 for a negative x and NaN for an inf), as raw's."""
    out = mul(x, _make(raw.zero_at(np.ones_like(x._data), key)))
    if out._data.dtype.kind in "fcV":
        d = out._data
        (d.reshape(1) if d.ndim == 0 else d)[key] = 0
    if out._meta is not None:  # (index_fill/index_put_ have no zero-tensor kernel: their
        # rule on a zero-tensor tangent gives stored zeros, Note [Zero-tensor tangents])
        from ..autograd.forward_ad import materialize_tangent
        materialize_tangent(out)
    return out


def _xlogy_fn(x, y):
    from .pointwise import xlogy
    return xlogy(x, y)


def _xlog1py_fn(x, y):
    from .special import xlog1py
    return xlog1py(x, y)


def _rsqrt_fn(x):
    from .pointwise import rsqrt
    return rsqrt(x)
