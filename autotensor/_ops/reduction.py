"""Reductions, scans and sorting: sum/mean/max/min/amax/amin/prod/norm, softmax/log_softmax/
logsumexp, cumsum, sort/argsort/topk. Table entries and formula helpers first, then the
public functions.
"""
import builtins
import functools
import math

from .. import _argparse, _dtypes, _errors
from .._backend import np
from .._tensor import _make, Tensor
from ..autograd import inplace
from . import raw
from .layout import _elem_strides, conform, is_non_overlapping_and_dense
from .layout import _perm as _layout_perm
from .dispatch import defop, view_errors_before_checks, view_errors_first
from .sum_kernel import MAX_SIZE, mean_array, norm_two_sum, reduce_rows, sum_array
from ._common import (_acc, _asarray, _dims, _finish, _float_data, _inexact, _py_any, _py_max,
                      _state, _wrap_dim, refuse_complex)
from .pointwise import maximum, minimum
from ._common import _named_result
from .pointwise import _fw_not_implemented, _not_implemented
from ..amp import autocast_mode as _amp


def reduce_backward(F, grad, dims, keepdim, sizes):
    """Gradient of a reduction over ``dims``: broadcast grad back to the input's sizes
    (PyTorch's sum_backward: ``unsqueeze_multiple`` over the sorted dims, then expand, so a
    double backward records its UnsqueezeBackward0 nodes)."""
    if not keepdim and sizes and dims is not None and len(dims):
        for d in sorted(d % len(sizes) for d in dims):
            grad = F.unsqueeze(grad, d)
    return F.expand(grad, sizes)


def _numel(sizes, dims=None):
    n = 1
    for i, s in enumerate(sizes):
        if dims is None or i in dims:
            n *= s
    return n


def max_min_backward(F, grad, self, result):
    """PyTorch's evenly_distribute_backward (its CPU branch): ties share the gradient,
    ``self.new_zeros().masked_fill_(mask, grad / mask.sum())`` (so the graph of a double
    backward is MaskedFillBackward1(None, DivBackward0)); a NaN result is every NaN of
    self's."""
    mask = (self == result) | ((self != self) & (result != result))
    count = F.sum(F.cast_like(mask, grad))
    return F.masked_fill(F.zeros_like(self), mask, grad / count)


def select_dim_backward(F, grad, dim, keepdim, indices, self_sizes):
    """Gradient of max/min over a dim: the grad goes to the selected index."""
    if not keepdim and self_sizes:  # (a 0-d input's grad and indices scatter as they are)
        grad = F.unsqueeze(grad, dim)
        indices = F.unsqueeze(indices, dim)
    # (PyTorch's value_selecting_reduction_backward: scatter_ into zeros keeps a -0.0)
    return F.scatter(F.zeros(self_sizes, grad), dim, indices, grad)


def norm_backward(F, grad, self, ord, dim, keepdim, result):
    """PyTorch's norm_backward, term for term (its grouping decides the rounding and the
    nodes of a graph of the backward)."""
    if not keepdim and dim is not None and self.ndim:
        for d in sorted(dim):
            grad = F.unsqueeze(grad, d)
            result = F.unsqueeze(result, d)
    if ord == 0:
        return None  # (PyTorch returns an undefined gradient)
    if ord == 1:
        return F.sgn(self) * grad
    if ord == 2:
        return grad * F.masked_fill(self / result, result == 0, 0)
    if ord == float("inf") or ord == float("-inf"):
        self_abs = F.abs(self)
        mask = (self_abs == result) | (self_abs != self_abs)  # argmax, or NaN
        count = F.sum(F.cast_like(mask, grad), dim, True) if dim is not None else \
            F.sum(F.cast_like(mask, grad))
        return F.sgn(self) * ((grad / count) * F.cast_like(mask, grad))
    if ord < 1:
        self_scaled = F.sgn(self) * F.masked_fill(F.pow(F.abs(self), ord - 1), self == 0, 0)
        return self_scaled * grad * F.pow(result, 1 - ord)
    if ord < 2:
        self_scaled = F.sgn(self) * F.pow(F.abs(self), ord - 1)
    else:
        self_scaled = self * F.pow(F.abs(self), ord - 2)
    # (scale_v.masked_fill_: in place)
    return self_scaled * _masked_fill_(F, grad / F.pow(result, ord - 1), result == 0)


def _masked_fill_(F, g, mask):
    """A formula's ``g.masked_fill_(mask, 0)`` on its own intermediate (norm's, std's): in
    place, so a ``g`` whose tangent is a zero tensor (forward over reverse) refuses the
    write, in the zero-tensor fallback's words (Note [Zero-tensor tangents] in dispatch.py);
    recorded as MaskedFillBackward0 either way."""
    if not F.is_raw:
        fw = _forward_ad()
        fw.refuse_zero_tangent_write(g, fw.ZERO_TENSOR_ZERO_)
    return F.masked_fill(g, mask, 0)


# ---- forward-mode rules (Note [Forward mode] in autograd/forward_ad.py) ------------------
def _via_backward(F, backward, self_t, dims, keepdim, *args):
    """The jvp of a reduction from its backward formula: the backward of a cotangent of
    ones is d result / d self for the elements each result reduces (ties shared as the
    backward shares them), so the tangent is the tangent-weighted sum over the reduced
    dims (PyTorch writes these out one by one: amaxamin_jvp, prod_jvp, norm_jvp...)."""
    result = args[-1]
    weights = backward(F, F.ones_like(result), *args)
    prod = self_t * weights
    if dims is None or not self_t.ndim:
        return F.sum(prod)
    return F.sum(prod, (dims,) if isinstance(dims, int) else dims, keepdim)


def evenly_read_jvp(F, self, self_t, result):
    """PyTorch's evenly_read_jvp (max(), min(), median(), nanmedian()): the tangents where
    self equals the result, each divided by their count and summed. No element equal (a
    NaN result, an empty input's) divides by 0: the tangent is NaN, as PyTorch's."""
    mask = F.cast_like(self == result, self_t)
    return F.sum(mask * (self_t / F.sum(mask)))


def amaxamin_jvp(F, self, self_t, result, dim, keepdim):
    """PyTorch's amaxamin_jvp: where(mask, self_t, 0) summed over dim, divided by the count;
    a tangent (inf, NaN) where self is not selected does not reach the result."""
    if dim is not None and not keepdim and self.ndim:
        for d in sorted(dim):
            result = F.unsqueeze(result, d)
    mask = self == result
    dims = tuple(dim) if dim is not None and self.ndim else None
    picked = F.where(mask, self_t, 0)
    count = F.cast_like(mask, self_t)
    if dims is None:
        return F.sum(picked) / F.sum(count)
    return F.sum(picked, dims, keepdim) / F.sum(count, dims, keepdim)


def _gather_jvp(F, self_t, dim, keepdim, indices):
    """Tangent of the values an op selects along dim (max/min with indices, sort, topk):
    FunctionsManual's gather_with_keepdimed_indices, also for a 0-d self_t (whose gather by
    the unsqueezed index is a (1,) tensor: the tangent without keepdim is a squeeze view of
    it, which an in-place op with grad mode on refuses when made under no_grad)."""
    if not keepdim:
        indices = F.unsqueeze(indices, dim)
    out = F.gather(self_t, dim, indices)
    return out if keepdim else F.squeeze(out, dim)


def _logsumexp_backward(F, grad, self, dim, keepdim, result):
    return (_unsqueeze_dims(F, grad, dim, keepdim)
            * F.exp(self - _unsqueeze_dims(F, result, dim, keepdim)))


CUMSUM = defop("cumsum", "CumsumBackward0", raw.cumsum,
               params=("dim",),
               # (PyTorch's cumsum_backward: grad itself when numel <= 1 or size(dim) == 1)
               grads={"self": lambda F, grad, dim: grad if _numel(grad.shape) <= 1 or
                      grad.shape[dim] == 1 else F.flip(F.cumsum(F.flip(grad, (dim,)), dim),
                                                       (dim,))},
               jvp="linear", layout="contiguous")


def amax_amin_backward(F, grad, self, dim, keepdim, result):
    """PyTorch's scale_grad_by_count(restore_reduced_dims(grad), restore_reduced_dims(result)
    == self): ``grad / mask.sum(dim, True) * mask``, the reduced dims restored by a reshape
    (all of them for dim=None), so a double backward records Mul(Div(View))."""
    if not keepdim:
        if self.ndim:
            shape = tuple(1 if dim is None or i in dim else s for i, s in enumerate(self.shape))
        else:  # (restore_reduced_dims of a 0-d result: one size-1 dim per reduced dim)
            shape = (1,) * (len(dim) if dim is not None else 0)
        grad = F.reshape(grad, shape)
        result = F.reshape(result, shape)
    mask = F.cast_like(self == result, grad)
    # (a 0-d mask, of a 0-d self with keepdim: its dim 0 is the tensor itself)
    count = F.sum(mask, dim if mask.ndim else None, True)
    out = grad / count * mask
    if not self.ndim and out.ndim:  # (a 0-d input's gradient of shape (1,): the engine's
        out = F.sum_to(out, ())      # validate_outputs sums it, SumBackward0)
    return out


def prod_backward(F, grad, self, dim, keepdim, result):
    """PyTorch's prod_backward: result / self without zeros, else the product of the others
    as exclusive cumulative products (prod_safe_zeros_backward, differentiable: its graph
    reads self, so the tangent of a dual with a zero needs grad as PyTorch's). Over all
    elements with 2+ zeros and grad mode off (a first-order backward): zeros."""
    if _values(self).ndim == 0:
        return grad
    if dim is not None and not keepdim:
        grad = F.unsqueeze(grad, dim)
        result = F.unsqueeze(result, dim)
    zeros = int(np.count_nonzero(_values(self) == 0))
    if not zeros:
        return grad * (result / self)  # (PyTorch's grouping: the values differ otherwise)
    if dim is not None:
        return _prod_safe_zeros_backward(F, grad, self, dim)
    if zeros > 1 and not _state.enabled:
        return F.zeros_like(self)
    # (PyTorch's ``input.contiguous().view(-1)``: a transposed or strided input is copied)
    flat = _prod_safe_zeros_backward(F, grad, F.view(F.contiguous(self), (-1,)), 0)
    return F.view(flat, tuple(self.shape))


def _prod_safe_zeros_backward(F, grad, inp, dim):
    shape = tuple(inp.shape)
    n = shape[dim]
    if 0 in shape:
        return F.expand(grad, shape)
    ones = F.constant(np.ones(shape[:dim] + (1,) + shape[dim + 1:]), grad)
    if n == 1:  # (PyTorch's cat of ones with an empty narrow of inp: no graph of inp)
        return grad * (ones * ones)
    normal = F.cumprod(F.cat([ones, F.narrow(inp, dim, 0, n - 1)], dim), dim)
    reverse = F.flip(F.narrow(inp, dim, 1, n - 1), (dim,))
    reverse = F.flip(F.cumprod(F.cat([ones, reverse], dim), dim), (dim,))
    return grad * (normal * reverse)


def _values(x):
    return x._data if hasattr(x, "_data") else x


def _cast_as(F, x, like):
    """x in like's dtype (an in-place op's result: PyTorch's ``like.div_(other)``)."""
    return x if _values(x).dtype == _values(like).dtype else F.cast_like(x, like)


AMAX = defop("amax", "AmaxBackward0", None, params=("dim", "keepdim"),
             grads={"self": amax_amin_backward},
             jvp=lambda F, self, self_t, dim, keepdim, result: amaxamin_jvp(
                 F, self, self_t, result, dim, keepdim), layout="contiguous")
AMIN = defop("amin", "AminBackward0", None, params=("dim", "keepdim"),
             grads={"self": amax_amin_backward},
             jvp=lambda F, self, self_t, dim, keepdim, result: amaxamin_jvp(
                 F, self, self_t, result, dim, keepdim), layout="contiguous")
PROD = defop("prod", "ProdBackward0", None, params=("dim", "keepdim"),
             grads={"self": prod_backward},
             jvp=lambda F, self, self_t, dim, keepdim, result:
                 _via_backward(F, prod_backward, self_t, dim, keepdim,
                               _like_result(F, self, result), dim, keepdim, result))
PROD_DIM = defop("prod", "ProdBackward1", None, params=("dim", "keepdim"),
                 grads={"self": prod_backward},
                 jvp=lambda F, self, self_t, dim, keepdim, result: _via_backward(F, prod_backward,
                     self_t, (dim,), keepdim, _like_result(F, self, result), dim, keepdim,
                     result), layout="contiguous")


def _like_result(F, self, result):
    """prod's rule reads ``self_p.to(result.scalar_type())`` (prod(x, dtype=...))."""
    dt = result._data.dtype
    return self if self._data.dtype == dt else F.cast(self, dt)
LOGSUMEXP = defop("logsumexp", "LogsumexpBackward0", None, params=("dim", "keepdim"),
                  grads={"self": lambda F, grad, self, dim, keepdim, result: (
                      _unsqueeze_dims(F, grad, dim, keepdim)
                      * F.exp(self - _unsqueeze_dims(F, result, dim, keepdim)))},
                  jvp=lambda F, self, self_t, dim, keepdim, result: _logsumexp_jvp(
                      F, self, self_t, dim, keepdim, result), layout="contiguous")


def _logsumexp_jvp(F, self, self_t, dim, keepdim, result):
    """PyTorch's logsumexp_jvp, step for step (each rounds in the input's dtype, which
    float16 shows): sum(exp(x - amax(x)) * t) / sum(exp(x - amax(x))); an empty input
    skips the shift (0 / 0 is NaN)."""
    dims = () if dim is None else (dim,) if isinstance(dim, int) else tuple(dim)
    if self._data.size:
        shift = np.max(self._data, axis=dims, keepdims=True) if F.is_raw else \
            amax(self, dims, True)
        e = F.exp(self - shift)
    else:
        e = F.exp(self)
    # (``self_p_exp *= self_t`` in place: a tangent of another dtype than the primal,
    # var's float32 tangent of a 0-d float16, is rounded to the primal's)
    return F.sum(_cast_as(F, e * self_t, e), dims, keepdim) / F.sum(e, dims, keepdim)


def _unsqueeze_dims(F, x, dims, keepdim):
    if not keepdim:
        for d in dims:
            x = F.unsqueeze(x, d)
    return x


SORT = defop("sort", "SortBackward0", None, params=("dim", "descending"),
             outputs=("values", "indices"), diff_outputs=(0,),
             grads={"self": lambda F, grads, dim, indices, self_sizes:
                    select_dim_backward(F, grads[0], dim, True, indices, self_sizes)},
             jvp=lambda F, self_t, dim, indices: _gather_jvp(F, self_t, dim, True, indices),
             layout="like")
SORT_STABLE = defop(  # sort(stable=...): PyTorch's sort.stable overload, its own node
    "sort", "SortBackward1", None, params=("dim", "descending"), outputs=("values", "indices"),
    diff_outputs=(0,),
    grads={"self": lambda F, grads, dim, indices, self_sizes:
           select_dim_backward(F, grads[0], dim, True, indices, self_sizes)},
    jvp=lambda F, self_t, dim, indices: _gather_jvp(F, self_t, dim, True, indices),
    layout="like")
TOPK = defop("topk", "TopkBackward0", None, params=("k", "dim"),
             outputs=("values", "indices"), diff_outputs=(0,),
             grads={"self": lambda F, grads, dim, indices, self_sizes:
                    select_dim_backward(F, grads[0], dim, True, indices, self_sizes)},
             jvp=lambda F, self_t, dim, indices: _gather_jvp(F, self_t, dim, True, indices),
             layout="contiguous")


# Reductions.
SUM = defop("sum", "SumBackward0", lambda a: raw.sum(a),
            grads={"self": lambda F, grad, self_sizes: F.expand(grad, self_sizes)},
            jvp="linear")
SUM_DIM = defop("sum", "SumBackward1", raw.sum, params=("dim", "keepdim"),
                grads={"self": lambda F, grad, dim, keepdim, self_sizes:
                       reduce_backward(F, grad, dim, keepdim, self_sizes)},
                jvp="linear", layout="contiguous")
MEAN = defop("mean", "MeanBackward0", lambda a: raw.mean(a),
             grads={"self": lambda F, grad, self_sizes:
                    _over_count(F, F.expand(grad, self_sizes), _numel(self_sizes))},
             # (PyTorch's order: a dense gradient, not a view: Note [Gradients that are
             # views] in engine.py)
             jvp="linear")
MEAN_DIM = defop("mean", "MeanBackward1", raw.mean, params=("dim", "keepdim"),
                 grads={"self": lambda F, grad, dim, keepdim, self_sizes: _over_count(
                     F, reduce_backward(F, grad, dim, keepdim, self_sizes),
                     _numel(self_sizes, dim))},
                 jvp="linear", layout="contiguous")
MAX = defop("max", "MaxBackward1", lambda a: raw.asarray(np.max(a)),
            grads={"self": max_min_backward},
            jvp=lambda F, self, self_t, result: evenly_read_jvp(F, self, self_t, result))
MIN = defop("min", "MinBackward1", lambda a: raw.asarray(np.min(a)),
            grads={"self": max_min_backward},
            jvp=lambda F, self, self_t, result: evenly_read_jvp(F, self, self_t, result))
MAX_DIM = defop("max", "MaxBackward0", None, params=("dim", "keepdim"),
                outputs=("values", "indices"), diff_outputs=(0,),
                grads={"self": lambda F, grads, dim, keepdim, indices, self_sizes:
                       select_dim_backward(F, grads[0], dim, keepdim, indices, self_sizes)},
                jvp=lambda F, self_t, dim, keepdim, indices:
                    _gather_jvp(F, self_t, dim, keepdim, indices), layout="contiguous")
MIN_DIM = defop("min", "MinBackward0", None, params=("dim", "keepdim"),
                outputs=("values", "indices"), diff_outputs=(0,),
                grads={"self": lambda F, grads, dim, keepdim, indices, self_sizes:
                       select_dim_backward(F, grads[0], dim, keepdim, indices, self_sizes)},
                jvp=lambda F, self_t, dim, keepdim, indices:
                    _gather_jvp(F, self_t, dim, keepdim, indices), layout="contiguous")
def norm_jvp(F, self, self_t, ord, dim, keepdim, result):
    """PyTorch's norm_jvp, term for term: the masks come after the divisions (a zero norm
    with an infinite tangent gives 0, not NaN)."""
    from .complex_ops import cx
    cplx = self._data.dtype.kind == "c"

    def re_conj(a, t):  # real(a * conj(t))
        return cx(F).real(a * cx(F).conj(t)) if cplx else a * t

    def red(x):
        return F.sum(x, dim, keepdim) if dim is not None and self.ndim else F.sum(x)

    norm = result
    if ord == 0:
        return F.zeros_like(norm)
    if ord == 1:  # (sgn(self).mul_(conj(self_t)): self's dtype, whatever self_t's)
        sgn = F.sgn(self)
        prod = _cast_as(F, sgn * (cx(F).conj(self_t) if cplx else self_t), sgn)
        return red(cx(F).real(prod) if cplx else prod)
    if ord == 2:  # (PyTorch's in-place div_: the sum's dtype, whatever norm's)
        total = red(re_conj(self, self_t))
        return F.masked_fill(_cast_as(F, total / norm, total), norm == 0, 0)
    if ord in (float("inf"), float("-inf")):
        if not keepdim and dim is not None and self.ndim:
            for d in sorted(dim):
                norm = F.unsqueeze(norm, d)
        is_eq_max = F.cast_like((F.abs(self) == norm) | ((self != self) & (norm != norm)),
                                norm)
        nb_max = F.sum(is_eq_max, dim, True) if dim is not None and self.ndim else \
            F.sum(is_eq_max)
        return red(re_conj(F.sgn(self), self_t) * is_eq_max / nb_max)
    if ord < 1:
        sumpow_t = red(F.masked_fill(F.pow(F.abs(self), ord - 1), self == 0, 0) *
                       re_conj(F.sgn(self), self_t))
        return sumpow_t * F.pow(norm, 1 - ord)
    if ord < 2:
        sumpow_t = red(F.pow(F.abs(self), ord - 1) * re_conj(F.sgn(self), self_t))
    else:
        sumpow_t = red(F.pow(F.abs(self), ord - 2) * re_conj(self, self_t))
    return F.masked_fill(sumpow_t / F.pow(norm, ord - 1), norm == 0, 0)


NORM = defop("norm", "LinalgVectorNormBackward0", None, params=("ord", "dim", "keepdim"),
             grads={"self": norm_backward}, jvp=norm_jvp, layout="contiguous")
# (their rules are derivatives.yaml's: ``result * (self_t - logsumexp_jvp(self_p, self_t,
# {dim}, true))`` and ``self_t - logsumexp_jvp(...)``, which recompute exp(x - amax(x)) from
# the input rather than read the result: other roundings than sum(result * self_t))
SOFTMAX = defop("softmax", "SoftmaxBackward0", raw.softmax, params=("dim",),
                grads={"self": lambda F, grad, dim, result:
                       F.softmax_backward_data(grad, result, dim)},
                jvp=lambda F, self, self_t, dim, result:
                    result * (self_t - _logsumexp_jvp(F, self, self_t, dim, True, None)),
                layout="contiguous")
LOG_SOFTMAX = defop("log_softmax", "LogSoftmaxBackward0", raw.log_softmax, params=("dim",),
                    grads={"self": lambda F, grad, dim, result:
                           F.log_softmax_backward_data(grad, result, dim)},
                    jvp=lambda F, self, self_t, dim, result:
                        self_t - _logsumexp_jvp(F, self, self_t, dim, True, None),
                    layout="contiguous")


def _opt(t, term):
    return None if t is None else term(t)


def _plus(a, b):
    return b if a is None else a if b is None else a + b


# Their backward formulas are ops of their own, as PyTorch's _softmax_backward_data and
# _log_softmax_backward_data, so that a graph of the backward has their nodes.
SOFTMAX_BACKWARD_DATA = defop(
    "_softmax_backward_data", "SoftmaxBackwardDataBackward0", raw.softmax_backward_data,
    inputs=("grad_output", "output"), params=("dim",),
    grads={"grad_output": lambda F, grad, output, dim: F.softmax_backward_data(grad, output, dim),
           # PyTorch's softmax_double_backward
           "output": lambda F, grad, grad_output, dim, output:
           grad_output * grad - F.sum(output * grad_output, dim, True) * grad
           - grad_output * F.sum(output * grad, dim, True)},
    jvp=lambda F, grad_output, grad_output_t, output, output_t, dim: _plus(
        _opt(grad_output_t, lambda t: F.softmax_backward_data(t, output, dim)),
        _opt(output_t, lambda t: t * (grad_output - F.sum(grad_output * output, dim, True))
             - output * F.sum(grad_output * t, dim, True))))
LOG_SOFTMAX_BACKWARD_DATA = defop(
    "_log_softmax_backward_data", "LogSoftmaxBackwardDataBackward0",
    raw.log_softmax_backward_data, inputs=("grad_output", "output"), params=("dim",),
    grads={"grad_output": lambda F, grad, output, dim:
           grad - F.sum(grad * F.exp(output), dim, True),
           "output": lambda F, grad, grad_output, dim, output:
           -F.sum(grad_output, dim, True) * F.exp(output) * grad},
    jvp=lambda F, grad_output, grad_output_t, output, output_t, dim: _plus(
        _opt(grad_output_t, lambda t: F.log_softmax_backward_data(t, output, dim)),
        _opt(output_t, lambda t: -F.sum(grad_output, dim, True) * F.exp(output) * t)))


# ---- reductions ------------------------------------------------------------------------------
def _sum_dtype(d, dtype):
    if dtype is not None:  # (no copy in its own dtype: the strides decide the order)
        return d.astype(dtype.np, copy=False)
    if d.dtype.kind in "biu":
        return d.astype(np.int64)
    return d


def _plus_zero(d):
    """A copy of a 0-d array as PyTorch's reduction from +0.0 gives it (-0.0 becomes +0.0)."""
    if d.dtype.kind in "biu":
        return d.copy()
    return np.asarray(d + d.dtype.type(0), dtype=d.dtype)  # (a 0-d array, not a NumPy scalar)


def sum_to_size(self, *size):
    """The sum down to ``size`` (a shape ``self`` expands from), as PyTorch's sum_to: one
    keepdim sum over the leading and the size-1 dims, then a view without the leading ones;
    ``self`` itself when nothing is summed."""
    if len(size) == 1 and not isinstance(size[0], (int, np.integer)):
        size = size[0]
    shape, sizes = tuple(int(s) for s in size), self._data.shape
    lead = len(sizes) - len(shape)
    if lead < 0 or _py_any(s != 1 and s != t for s, t in zip(shape, sizes[lead:])):
        raise RuntimeError(f"size {{{list(shape)}}} is not expandable to size "
                           f"{{{list(sizes)}}}.")
    if not shape:
        return sum(self)
    dims = list(range(lead)) + [i for i in range(lead, len(sizes))
                                if shape[i - lead] == 1 and sizes[i] != 1]
    r = sum(self, dims, keepdim=True) if dims else self
    return r.view(shape) if lead else r


# Note [An explicit dim=None]: PyTorch's argument parser picks sum.dim_IntList / mean.dim
# whenever a dim is given, even None, () or [] (all dims): SumBackward1 / MeanBackward1; only
# a call without one is sum() / mean() (SumBackward0 / MeanBackward0).
class _NoDim:
    """The default of sum/mean's dim: "not given" (Note [An explicit dim=None])."""

    __slots__ = ()

    def __repr__(self):
        return "None"


_NO_DIM = _NoDim()


def _tangent_in_dtype(r, input, dtype, op):
    """derivatives.yaml's auto_linear passes ``dtype=`` on to the tangent's op: the tangent
    of ``x.sum(dtype=torch.float64)`` of a float16 x with a float32 tangent is the float32
    tangent converted, then summed, in float64 (the linear rule applied it in its own
    dtype). ``op``: the public function on a tensor, with dtype bound. Returns r."""
    if dtype is None:
        return r
    from ..autograd import forward_ad as fw
    t = fw._tangent_or_none(r) if r._meta is not None else None
    if t is None or t._data.dtype == r._data.dtype:
        return r
    prev = fw.state.fw
    fw.state.fw = False
    try:
        fw._set_tangent(r, op(fw._tangent_or_none(input)))
    finally:
        fw.state.fw = prev
    return r


def sum(input, dim=_NO_DIM, keepdim=False, *, dtype=None):
    if keepdim is not False and (dim is _NO_DIM or keepdim is not True):
        raise _argparse.wrong_type("sum", "keepdim")  # (Note [Argument errors on the
        # exception path] in _argparse.py)
    if dtype is not None:
        return _tangent_in_dtype(_sum(input, dim, keepdim, dtype), input, dtype,
                                 lambda t: sum(t, dim, keepdim, dtype=dtype))
    return _sum(input, dim, keepdim, dtype)


def _sum(input, dim, keepdim, dtype):
    d = _sum_dtype(input._data, dtype)
    given = dim is not _NO_DIM
    dims = _dims(dim, d.ndim, input) if given else None
    if d.ndim == 0 and given:  # dim 0 of a 0-d tensor is the tensor itself
        return _finish(SUM_DIM, (input,), (None, keepdim), _plus_zero(d))
    if not given and not keepdim:
        out = _asarray(sum_array(d))
        return _finish(SUM, (input,), (), out.astype(d.dtype, copy=False))
    out = _asarray(sum_array(d, axis=dims, keepdims=keepdim))
    return _finish(SUM_DIM, (input,), (dims, keepdim), out.astype(d.dtype, copy=False))


def _np_mean(a, axis=None, keepdims=False):
    """PyTorch's mean (float32/float64: its sum, then the division: Note [Cascade sum]),
    without NumPy's "Mean of empty slice" warning (PyTorch gives NaN silently)."""
    if a.size:
        return mean_array(a, axis=axis, keepdims=keepdims)
    # (0 / count: not catch_warnings, which would reset the "once" registries of the
    # user's own warnings)
    total = np.sum(a, axis=axis, keepdims=keepdims)
    count = a.size if axis is None else math.prod(
        a.shape[i] for i in ((axis,) if isinstance(axis, int) else axis))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.true_divide(total, count, dtype=total.dtype if total.dtype.kind in "fc"
                              else np.float64)


def mean(input, dim=_NO_DIM, keepdim=False, *, dtype=None):
    if keepdim is not False and (dim is _NO_DIM or keepdim is not True):
        raise _argparse.wrong_type("mean", "keepdim")  # (Note [Argument errors on the
        # exception path] in _argparse.py)
    if dtype is not None:
        return _tangent_in_dtype(_mean(input, dim, keepdim, dtype), input, dtype,
                                 lambda t: mean(t, dim, keepdim, dtype=dtype))
    return _mean(input, dim, keepdim, dtype)


def _mean(input, dim, keepdim, dtype):
    d = input._data
    if dtype is not None:
        d = d.astype(dtype.np)
    if not _inexact(d.dtype):
        which = "Input" if dtype is None else "Optional"
        raise RuntimeError(
            f"mean(): could not infer output dtype. {which} dtype must be either a floating "
            f"point or complex dtype. Got: {_dtypes.scalar_name(_dtypes.from_numpy(d.dtype))}")
    given = dim is not _NO_DIM
    dims = _dims(dim, d.ndim, input) if given else None
    if d.ndim == 0 and given:
        return _finish(MEAN_DIM, (input,), (None, keepdim), _plus_zero(d))
    if not given and not keepdim:
        out = _asarray(_np_mean(_acc(d))).astype(d.dtype, copy=False)
        return _finish(MEAN, (input,), (), out)
    out = _asarray(_np_mean(_acc(d), dims, keepdim)).astype(d.dtype, copy=False)
    return _finish(MEAN_DIM, (input,), (dims, keepdim), out)


class _ReturnTypes(tuple):
    """PyTorch's named tuples for (values, indices) results."""

    __slots__ = ()
    _fields = ("values", "indices")
    _name = "torch.return_types.max"

    def __new__(cls, values, indices, name):
        self = tuple.__new__(cls, (values, indices))
        return self

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self):
        return f"torch.return_types.{self._kind}(\nvalues={self[0]!r},\nindices={self[1]!r})"


def _return_type(kind):
    return type(kind, (_ReturnTypes,), {"__slots__": (), "_kind": kind})


_MaxRT, _MinRT, _SortRT, _TopkRT = (_return_type(k) for k in ("max", "min", "sort", "topk"))


def _max_min(input, dim, keepdim, other, is_max):
    if other is not None:
        return (maximum if is_max else minimum)(input, other)
    d = input._data
    if d.dtype.kind == "c":
        view_errors_first(input)  # (Note [View errors before an op's checks])
        refuse_complex(("max" if is_max else "min") + ("_all" if dim is None else "_dim"),
                       d.dtype)
    if dim is None:
        if d.size == 0:
            view_errors_first(input)
            raise RuntimeError(
                f"{'max' if is_max else 'min'}(): Expected reduction dim to be specified for "
                f"input.numel() == 0. Specify the reduction dim with the 'dim' argument.")
        out = _asarray(np.max(d) if is_max else np.min(d))
        if out == 0 and (d.dtype.kind == "f" or d.dtype.name == "bfloat16"):
            out = _max_all_zero(d, out)
        return _finish(MAX if is_max else MIN, (input,), (), out)
    dim = _wrap_dim(dim, d.ndim, input)
    if d.ndim and d.shape[dim] == 0:
        view_errors_first(input)
        raise IndexError(f"{'max' if is_max else 'min'}(): Expected reduction dim {dim} to "
                         f"have non-zero size.")
    if d.ndim == 0:
        values, indices = d.copy(), np.zeros((), np.int64)
    else:
        indices = np.argmax(d, axis=dim) if is_max else np.argmin(d, axis=dim)
        if d.dtype.kind in "fV":
            # PyTorch propagates NaN: the first NaN wins
            nan = np.isnan(d)
            if nan.any():
                indices = np.where(nan.any(axis=dim), np.argmax(nan, axis=dim), indices)
        idx = np.expand_dims(indices, dim)
        values = np.take_along_axis(d, idx, axis=dim)
        if keepdim:
            indices = idx
        else:
            values = np.squeeze(values, dim)
    op = MAX_DIM if is_max else MIN_DIM
    v, i = _finish(op, (input,), (dim, keepdim), (_asarray(values), _asarray(indices)))
    return (_MaxRT if is_max else _MinRT)(v, i, None)


def _max_all_zero(d, out):
    """Note [Signed zeros of max() and min()]: a zero result of ``max()``/``min()`` without a
    dim takes the sign of the zero PyTorch's vectorized all-reduce ends with. Ties go to the
    second operand of each vector max (x86 maxps), so of the tied zeros the one whose
    position sorts last by this key wins (found by experiment on PyTorch's x86 CPU build,
    AVX2 kernels; C order, whatever the strides):
    - float64: lanes of 4, lane then chunk (i // 4); fewer than 4 elements: the last zero;
    - float32: lanes of 8, the lane's 3 bits reversed (the shuffle reduction of the 8
      lanes) then chunk; fewer than 8: the last zero;
    - float16/bfloat16 (two float vectors of 8 per 16 elements): 16 or more elements:
      (lane % 8 bit-reversed, (i % 16) // 8, i // 16); 9-15: (i % 8, i // 8); up to 8: last.
    More than GRAIN_SIZE elements are reduced in at::get_num_threads() chunks
    (at::parallel_reduce), each from its own start, folded in order by max_impl (the first
    of equal values): the first chunk holding a zero gives it. aminmax() without a dim
    (reduce2_all) keeps the same zeros (measured).
    """
    flat = d.reshape(-1)
    zeros = np.flatnonzero(flat == 0)
    n = flat.size
    if n > _GRAIN_SIZE:  # (at::parallel_reduce: chunks folded in order by max_impl)
        from .nn_ops import _aten_threads
        nt = builtins.min(_aten_threads(), -(-n // _GRAIN_SIZE))
        if nt > 1:  # (the first chunk holding a zero gives it, from its own start)
            chunk = -(-n // nt)
            lo = zeros[0] // chunk * chunk
            n = builtins.min(chunk, n - lo)
            zeros = zeros[zeros < lo + n] - lo
            flat = flat[lo:]
    i = zeros
    rev3 = np.array([0, 4, 2, 6, 1, 5, 3, 7])
    if d.dtype == np.float64:
        key = (i % 4) * n + i // 4 if n >= 4 else i
    elif d.dtype == np.float32:
        key = rev3[i % 8] * n + i // 8 if n >= 8 else i
    elif n >= 16:
        key = (rev3[i % 8] * 2 + (i % 16) // 8) * n + i // 16
    else:
        key = (i % 8) * n + i // 8 if n > 8 else i
    winner = flat[zeros[np.argmax(key)]]
    return np.asarray(winner, dtype=d.dtype).reshape(out.shape)


def _max_min_dim(name, dim, keepdim):
    """max / min / prod's dim when it is not an int: None when not given; an explicit None,
    or a keepdim without a dim (or with max's other), is the parser's refusal (Note
    [Argument errors on the exception path] in _argparse.py)."""
    if keepdim is not False and (dim is _NO_DIM or isinstance(dim, Tensor) and name != "prod"
                                 or keepdim is not True):
        raise _argparse.wrong_type(name, "keepdim")
    if dim is _NO_DIM:
        return None
    if dim is None:
        raise _argparse.wrong_type(name, "dim")
    return dim


def max(input, dim=_NO_DIM, keepdim=False, *, other=None):
    if dim.__class__ is not int or keepdim is not False and keepdim is not True:
        dim = _max_min_dim("max", dim, keepdim)
        if isinstance(dim, Tensor):
            return maximum(input, dim)
    return _max_min(input, dim, keepdim, other, True)


def min(input, dim=_NO_DIM, keepdim=False, *, other=None):
    if dim.__class__ is not int or keepdim is not False and keepdim is not True:
        dim = _max_min_dim("min", dim, keepdim)
        if isinstance(dim, Tensor):
            return minimum(input, dim)
    return _max_min(input, dim, keepdim, other, False)


def _amax_amin(op, reduce, name, input, dim, keepdim):
    d = input._data
    if d.dtype.kind == "c":
        view_errors_first(input)  # (Note [View errors before an op's checks])
        refuse_complex(name, d.dtype)
    dims = _dims(dim, d.ndim, input) if dim != () else None
    axis = dims if d.ndim else None
    if d.size == 0 and axis is None and d.ndim:
        view_errors_first(input)
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for "
                           f"input.numel() == 0. Specify the reduction dim with the 'dim' "
                           f"argument.")
    given = (dim,) if isinstance(dim, int) else tuple(dim) if dim != () else ()
    for a, orig in zip(axis or (), given):
        if d.shape[a] == 0:
            view_errors_first(input)
            raise IndexError(f"{name}(): Expected reduction dim {orig} to have non-zero "
                             f"size.")
    out = _asarray(reduce(d, axis=axis, keepdims=keepdim and d.ndim > 0))
    if d.dtype.kind in "fV" and d.size and (out == 0).any():
        out = _reduce_vec_zero_sign(d, axis, out)
    return _finish(op, (input,), (dims, keepdim), out)


def _mixed_zeros(d):
    """Whether ``d`` holds both -0.0 and +0.0 (else NumPy's zero result is the one)."""
    zero = d == 0
    n_neg = np.count_nonzero(np.signbit(d[zero]))
    return 0 < n_neg < np.count_nonzero(zero)


def _first_zero_sign(d, axis, out):
    """A zero extreme takes the sign of the first zero reduced (aminmax's scalar loop over
    its dim keeps the first of equal values; NumPy's can give -0.0 for max(0.0, -0.0))."""
    if not _mixed_zeros(d):
        return out
    axes = tuple(range(d.ndim)) if axis is None else axis
    rest = [a for a in range(d.ndim) if a not in axes]
    flat = np.transpose(d, rest + list(axes)).reshape([d.shape[a] for a in rest] + [-1])
    first_zero = np.argmax(flat == 0, axis=-1)[..., None]
    sign = np.signbit(np.take_along_axis(flat, first_zero, -1)[..., 0])
    zero = np.abs(out.reshape(sign.shape)) == 0  # (== 0 is False for NaN)
    fixed = np.where(zero, np.where(sign, -0.0, 0.0).astype(d.dtype), out.reshape(sign.shape))
    return fixed.reshape(out.shape)


def _reduce_vec_zero_sign(d, axis, out):
    """Note [Signed zeros of amax and amin]: where a reduction's result is zero and its
    input holds both zeros, PyTorch's result is the zero its kernel keeps, which
    ``_kept_zeros`` finds; NumPy's max may keep either. The magnitude is NumPy's."""
    if not _mixed_zeros(d):
        return out
    axes = tuple(range(d.ndim)) if axis is None else tuple(axis)
    offsets, kept = _kept_zeros(d, axes)
    flat = out.reshape(-1).copy()
    hit = flat[offsets] == 0  # (== 0 is False for NaN)
    flat[offsets[hit]] = np.where(np.signbit(kept[hit]), -0.0, 0.0).astype(d.dtype)
    return flat.reshape(out.shape)


# Vectorized<T>::size() of the kernels this build runs for reductions (AVX2: 256 bits;
# measured: 4 * size elements is where a row starts to be vectorized)
_VEC_LANES = {"float32": 8, "float64": 4, "float16": 16, "bfloat16": 16}
_GRAIN_SIZE = 32768  # at::internal::GRAIN_SIZE


def _kept_zeros(d, axes):
    """Note [Signed zeros of amax and amin]: which zero binary_kernel_reduce_vec (aten's
    Reduce.h: amax, amin) keeps for each output, when several tie. Returns the output's
    flat offsets (C order) and, for each, the input value kept of its zeros (any value
    where it has none).

    The order follows TensorIterator: the output is contiguous (keepdim shape), its
    strides 0 on the reduced dims; the dims are sorted (reduced ones first, then by the
    input's strides: reorder_dimensions) and merged where their strides allow
    (coalesce_dimensions). Iteration dim 0 is the innermost; each output element is
    reduced from rows of dim 0 in iteration order, and the scalar op (max_impl/min_impl:
    std::max/std::min) keeps the first of equal values, so the first row holding a zero
    gives the result. Within a row:
    - contiguous rows (dim 0 reduced, input stride one element): vectorized_inner_reduction
      loads 4 vectors of W lanes a step (4W elements: 32 float32, 16 float64, 64 half);
      the vector op (maximum/minimum: x86 max/min_ps) keeps its SECOND operand on ties, so
      each lane keeps its last zero; the 4 accumulators are folded as
      op(op(a0, a1), op(a2, a3)), so a3 before a2 before a1 before a0; then the W lanes
      are folded from lane 0 with the scalar op (the lowest lane holding a zero). A row
      whose vectorized part holds no zero takes the first zero of its scalar tail;
    - an outer reduction (dim 0 reduced, dim 1 kept, both outputs and inputs contiguous
      along dim 1): vectorized_outer_reduction reduces columns in blocks of 4W with the
      vector op, keeping the LAST zero down dim 0; the columns past the last full block
      take the first;
    - anything else: basic_loop, the first zero in iteration order.
    A single output of GRAIN_SIZE or more elements is reduced in at::get_num_threads()
    chunks (TensorIterator's two_pass_reduction, each chunk from its own start, rows cut
    at the chunk's edges), the chunks' results folded in order with the scalar op.
    Measured against PyTorch 2.13's x86 build (tests/test_fuzz_szero_stop31.py)."""
    W = _VEC_LANES[d.dtype.name]
    V = 4 * W  # (elements a vectorized step)
    if builtins.any(s < 0 for s in d.strides):
        d = np.ascontiguousarray(d)
    nd, item = d.ndim, d.itemsize
    red = set(axes)
    shape = list(d.shape)
    ist = list(d.strides)
    ost, acc = [0] * nd, item
    for a in reversed(range(nd)):
        if a not in red:
            ost[a] = acc
            acc *= shape[a]

    perm = _layout_perm(shape, (ost, ist), reduction=True)  # (reorder_dimensions)
    S = [shape[p] for p in perm]
    IS = [ist[p] for p in perm]
    OS = [ost[p] for p in perm]
    if nd > 1:  # coalesce_dimensions
        prev = 0
        for dim in range(1, nd):
            s0, s1 = S[prev], S[dim]
            if s0 == 1 or s1 == 1 or (s0 * IS[prev] == IS[dim] and s0 * OS[prev] == OS[dim]):
                if s0 == 1:
                    IS[prev], OS[prev] = IS[dim], OS[dim]
                S[prev] *= s1
            else:
                prev += 1
                if prev != dim:
                    S[prev], IS[prev], OS[prev] = S[dim], IS[dim], OS[dim]
        del S[prev + 1:], IS[prev + 1:], OS[prev + 1:]
    k = len(S)
    r = 0
    while r < k and OS[r] == 0:  # (the reduced dims lead)
        r += 1
    x = np.lib.stride_tricks.as_strided(d, shape=S, strides=IS)
    # per output, its elements in iteration order: kept dims (any order) then reduced
    order = list(range(k - 1, r - 1, -1)) + list(range(r - 1, -1, -1))
    L = math.prod(S[:r])
    seq = np.transpose(x, order).reshape(-1, L)
    M = seq.shape[0]
    kept = order[:k - r]
    grids = np.ix_(*[np.arange(S[a]) for a in kept]) if kept else ()
    offsets = builtins.sum((g * (OS[a] // item) for g, a in zip(grids, kept)),
                           np.zeros((), np.int64))
    offsets = np.asarray(offsets, np.int64).reshape(-1)  # (the output is contiguous)
    if r == 0 or L <= 1:
        return offsets, seq[:, 0] if L else np.zeros(M, d.dtype)
    S0 = S[0]
    p = np.arange(L)
    start = p - p % S0
    end = np.minimum(start + S0, L)
    if M == 1 and L >= _GRAIN_SIZE:  # (two_pass_reduction's chunks cut the rows)
        from .nn_ops import _aten_threads
        nt = builtins.min(_aten_threads(), -(-L // _GRAIN_SIZE))
        if nt > 1:
            chunk = -(-L // nt)
            start = np.maximum(start, p - p % chunk)
            end = np.minimum(end, p - p % chunk + chunk)
    # a key per element, the largest zero's wins: rows (units) in order, each by its rule
    q = p - start
    ulen = end - start
    K = 2 * L + 2
    first = ulen - q  # (the first zero of a unit: the largest)
    contiguous = IS[0] == item
    outer = not contiguous and r == 1 and k > 1 and OS[1] == item and IS[1] == item
    if contiguous:
        cnt = ulen // V
        vec = q < cnt * V
        lane = q % W
        # (lowest lane, then last accumulator, then last step; above any tail's key)
        rank = (L + 1) + ((W - 1 - lane) * 4 + (q % V) // W) * cnt + q // V
        row_key = np.where(vec, rank, first)
        key = np.broadcast_to((L - start) * K + row_key, seq.shape)
    elif outer:  # (one row per output: the last zero in full column blocks)
        col = np.broadcast_to(grids[kept.index(1)], [S[a] for a in kept]).reshape(-1, 1)
        key = np.where(col < (S[1] // V) * V, q, first)
    else:
        key = np.broadcast_to((L - start) * K + first, seq.shape)
    winner = np.argmax(np.where(seq == 0, key, -1), axis=1)
    return offsets, seq[np.arange(M), winner]


def amax(input, dim=(), keepdim=False):
    """Maximum over dims; ties share the gradient evenly."""
    if keepdim is not False and keepdim is not True:
        raise _argparse.wrong_type("amax", "keepdim")
    if dim is None:  # (PyTorch's default: an explicit None is all dims)
        dim = ()
    return _amax_amin(AMAX, np.max, "amax", input, dim, keepdim)


def amin(input, dim=(), keepdim=False):
    """Minimum over dims; ties share the gradient evenly."""
    if keepdim is not False and keepdim is not True:
        raise _argparse.wrong_type("amin", "keepdim")
    if dim is None:
        dim = ()
    return _amax_amin(AMIN, np.min, "amin", input, dim, keepdim)


def _arg_reduce(ufunc, name, input, dim, keepdim):
    d = input._data
    if d.dtype == np.bool_:
        raise RuntimeError(f"{name}(): does not support bool input")
    if d.dtype.kind == "c":
        refuse_complex(name, d.dtype)
    if dim is None:
        if d.size == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for "
                             f"input.numel() == 0.")
        return _make(_asarray(ufunc(d)).astype(np.int64))
    dim = _wrap_dim(dim, d.ndim)
    if d.ndim == 0:
        return _make(np.zeros((), np.int64))
    if d.shape[dim] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")
    return _make(_asarray(ufunc(d, axis=dim, keepdims=keepdim)).astype(np.int64))


def argmax(input, dim=None, keepdim=False):
    if keepdim is not False and keepdim is not True:
        raise _argparse.wrong_type("argmax", "keepdim")
    return _arg_reduce(np.argmax, "argmax", input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    if keepdim is not False and keepdim is not True:
        raise _argparse.wrong_type("argmin", "keepdim")
    return _arg_reduce(np.argmin, "argmin", input, dim, keepdim)


# Note [Half products]
# ~~~~~~~~~~~~~~~~~~~~
# aten's prod kernel (binary_kernel_reduce_vec with a * b) multiplies float16/bfloat16 in
# the half type itself, rounding every product (unlike sum and mean: Note [bfloat16
# accumulation] in _common.py). A row contiguous in memory of at least 4 vectors
# (vectorized_inner_reduction, reduction128) is multiplied in 4 accumulators of W lanes,
# each starting from its first vector; they are folded as (a0 * a1) * (a2 * a3), the lanes
# from lane 0, then the scalar tail element by element; any other row (short, strided, an
# outer reduction) element by element in order. A float32 product rounded once differed
# in 2 of 2 whole-tensor products of 64 N(0, 4) values (and their gradients, which read
# the result). Past GRAIN_SIZE elements (chunks per thread) the float32 product stays.
def _half_prod(d, dim, keepdim):
    """prod of a float16/bfloat16 C-contiguous array d (over all elements, or dim) as
    aten's kernel: Note [Half products]."""
    dt, f32 = d.dtype, np.float32
    rows = d.reshape(1, -1) if dim is None else np.moveaxis(d, dim, -1).reshape(
        -1, d.shape[dim])
    n = rows.shape[1]
    W = _VEC_LANES[dt.name]
    inner = (dim is None or dim == d.ndim - 1) and n >= 4 * W

    def mul(a, b):
        return (a.astype(f32) * b.astype(f32)).astype(dt)
    with np.errstate(over="ignore", invalid="ignore"):
        acc = np.ones(rows.shape[0], dt)
        start = 0
        if inner:
            count = n // (4 * W)
            start = count * 4 * W
            blocks = rows[:, :start].reshape(rows.shape[0], count, 4, W)
            a = blocks[:, 0]
            for i in range(1, count):
                a = mul(a, blocks[:, i])
            a = mul(mul(a[:, 0], a[:, 1]), mul(a[:, 2], a[:, 3]))
            acc = a[:, 0]
            for j in range(1, W):
                acc = mul(acc, a[:, j])
        for i in range(start, n):
            acc = mul(acc, rows[:, i])
    if dim is None:
        return acc.reshape(())
    shape = d.shape[:dim] + ((1,) if keepdim else ()) + d.shape[dim + 1:]
    return acc.reshape(shape)


def _float_prod(d, dim, keepdim):
    """prod of a float32/float64 array over all elements or ``dim`` as aten's kernel (Note
    [Half products], the same steps in the dtype itself, for any layout: each output's
    elements in the iterator's order, and where its innermost loop dim is reduced and
    contiguous, each such row of at least 4 vectors folded in lanes first), or None."""
    from .sum_kernel import _iterator_dims
    axes = tuple(range(d.ndim)) if dim is None else (dim,)
    got = reduce_rows(d, axes)
    if got is None:
        return None
    rows, kept = got
    n = rows.shape[1]
    if rows.shape[0] == 1 and n >= _GRAIN_SIZE:
        return None  # (split between threads)
    item = d.itemsize
    sizes, ost, ist, _ = _iterator_dims(list(d.shape), [st // item for st in d.strides],
                                        [i in axes for i in range(d.ndim)])
    W = _VEC_LANES[d.dtype.name]
    size0 = sizes[0] if sizes else 1
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        if ost[0] == 0 and ist[0] == 1 and size0 >= 4 * W:
            # (vectorized_inner_reduction of each contiguous row of size0, in order)
            chunks = rows.reshape(rows.shape[0], n // size0, size0)
            count = size0 // (4 * W)
            blocks = chunks[..., :count * 4 * W].reshape(chunks.shape[:2] + (count, 4, W))
            a = blocks[:, :, 0]
            if count > 1:  # (each lane's products in order: a cumulative product)
                a = np.cumprod(blocks, axis=2)[:, :, -1]
            a = (a[:, :, 0] * a[:, :, 1]) * (a[:, :, 2] * a[:, :, 3])
            seq = np.concatenate((a, chunks[..., count * 4 * W:]), axis=2)
            seq = seq.reshape(rows.shape[0], -1)
        else:
            seq = rows
        acc = np.cumprod(seq, axis=1)[:, -1] if seq.shape[1] else np.ones(len(seq), d.dtype)
    shape = (tuple(1 if i in axes else k for i, k in enumerate(d.shape)) if keepdim and
             dim is not None else kept)
    return acc.reshape(shape)


def _prod_array(d, dim, keepdim):
    if d.itemsize == 2 and d.dtype.kind in "fV" and d.flags.c_contiguous and \
            0 < d.size < _GRAIN_SIZE and (dim is None or d.ndim):
        return _half_prod(d, dim, keepdim)  # (an empty product is 1: NumPy's below)
    if (d.dtype == np.float32 or d.dtype == np.float64 or d.itemsize == 2 and
            d.dtype.kind in "fV") and 0 < d.size <= MAX_SIZE and d.ndim:
        out = _float_prod(d, dim, keepdim)
        if out is not None:
            return out
    if dim is None:
        return _asarray(np.prod(_acc(d))).astype(d.dtype, copy=False)
    return _asarray(np.prod(_acc(d), axis=dim, keepdims=keepdim)).astype(d.dtype, copy=False)


def prod(input, dim=_NO_DIM, keepdim=False, *, dtype=None):
    """Product of elements (over one dim); the gradient handles zeros exactly."""
    if dim.__class__ is not int or keepdim is not False and keepdim is not True:
        dim = _max_min_dim("prod", dim, keepdim)
    if _amp.state.enabled:
        return _amp.fp32(prod, input, _NO_DIM if dim is None else dim, keepdim, dtype=dtype)
    d = _sum_dtype(input._data, dtype)
    if dim is None:
        return _finish(PROD, (input,), (None, False), _prod_array(d, None, False))
    dim = _wrap_dim(dim, d.ndim, input)
    if d.ndim == 0:
        return _finish(PROD_DIM, (input,), (None, keepdim), d.copy())
    return _finish(PROD_DIM, (input,), (dim, keepdim), _prod_array(d, dim, keepdim))


def all(input, dim=None, keepdim=False):
    d = input._data
    if keepdim is not False and keepdim is not True:
        raise _argparse.wrong_type("all", "keepdim")  # (Note [Argument errors on the
        # exception path] in _argparse.py)
    axis = None if dim is None else _wrap_dim(dim, d.ndim) if dim.__class__ is int or \
        not isinstance(dim, (tuple, list)) else _dims(dim, d.ndim) if dim else ()
    out = _asarray(np.asarray(np.all(  # (a reduction's result: contiguous)
        d, axis=axis, keepdims=keepdim), order="C"))
    return _make(out.astype(np.uint8) if d.dtype == np.uint8 else out)  # (uint8 stays)


def any(input, dim=None, keepdim=False):
    d = input._data
    if keepdim is not False and keepdim is not True:
        raise _argparse.wrong_type("any", "keepdim")  # (Note [Argument errors on the
        # exception path] in _argparse.py)
    axis = None if dim is None else _wrap_dim(dim, d.ndim) if dim.__class__ is int or \
        not isinstance(dim, (tuple, list)) else _dims(dim, d.ndim) if dim else ()
    out = _asarray(np.asarray(np.any(  # (a reduction's result: contiguous)
        d, axis=axis, keepdims=keepdim), order="C"))
    return _make(out.astype(np.uint8) if d.dtype == np.uint8 else out)


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    """torch.norm: vector norms (recorded as linalg_vector_norm); a string order other
    than "fro" over at most two dims (the nuclear norm, or PyTorch's error for a bad one)
    is linalg.matrix_norm over ``dim`` (default: every dim), as PyTorch's dispatch."""
    if isinstance(dim, (int, np.integer)):
        dim = (dim,)
    if isinstance(p, str) and not (p == "fro" and (dim is None or len(dim) <= 2)):
        from .linalg import matrix_norm
        return matrix_norm(input, p, tuple(range(input.ndim)) if dim is None else dim,
                           keepdim, dtype=dtype)
    if p == "fro" or p is None:
        p = 2
    return _vector_norm(input, p, dim, keepdim, dtype=dtype)


def _vector_norm(input, ord, dim, keepdim, op=None, dtype=None):
    """op: the entry recorded (NORM; at::norm's NormBackward1 for pairwise_distance);
    dtype: computed in it, one node whose input's gradient comes back in its own dtype."""
    d = input._data
    if not _inexact(d.dtype):
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {_dtypes.scalar_name(_dtypes.from_numpy(d.dtype))}")
    if dtype is not None:
        d = _norm_dtype_data(d, dtype)
    dims = _dims(dim, d.ndim, input) if dim is not None else None  # (validated for a 0-d too)
    # (Note [The norm of one element]: a 0-d input with a dim reduces)
    reduces = not d.ndim and dim is not None and len(dim) > 0
    if not d.ndim:
        dims = None
    if d.size == 0 and (ord < 0 or ord == float("inf")) and not isinstance(ord, str):
        _no_identity(d, ord, dims)
    out = _vector_norm_array(d, ord, dims, keepdim, reduces)
    r = _finish(op or NORM, (input,), (ord, dims, keepdim), out)
    if d is not input._data and r._grad_fn is not None:
        from ._common import _reduce_all
        _reduce_all(r._grad_fn, (input,))
    return r


def _norm_dtype_data(d, dtype):
    """linalg.vector_norm's dtype= checks (real for real, no narrowing), the data in it."""
    have = _dtypes.from_numpy(d.dtype)
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"linalg.vector_norm: dtype should be floating point or complex, but "
                           f"got {_dtypes.scalar_name(dtype)}")
    if have.is_complex != dtype.is_complex:
        kind = "complex" if have.is_complex else "real"
        raise RuntimeError(f"linalg.vector_norm: dtype should be {kind} for {kind} inputs, but "
                           f"got {_dtypes.scalar_name(dtype)}")
    if _dtypes.promote_types(have, dtype) != dtype:
        raise RuntimeError(f"linalg.vector_norm: the dtype of the input "
                           f"({_dtypes.scalar_name(have)}) should be convertible without "
                           f"narrowing to the specified dtype ({_dtypes.scalar_name(dtype)})")
    return d.astype(dtype.np, copy=False)


def _no_identity(d, ord, dims):
    """PyTorch's refusal of a max/min-like norm (inf, -inf, negative orders) over nothing."""
    if dims is None:
        raise RuntimeError(f"linalg.vector_norm cannot compute the {ord:g} norm on an empty "
                           f"tensor because the operation does not have an identity")
    for i in dims:
        if d.shape[i] == 0:  # (PyTorch's message has no space before "because")
            raise RuntimeError(f"linalg.vector_norm cannot compute the {ord:g} norm on the "
                               f"dimension {i}because this dimension is empty and the "
                               f"operation does not have an identity")


# Note [The norm of one element]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# aten's linalg_vector_norm returns |x| (no x * x to underflow) when every reduced dim has
# size 1 (or none is given). Its test reads ``sizes[d]`` of each given dim, which a 0-d
# input does not have (dim 0 or -1 wraps to 0): that input goes through the reduction,
# sqrt(x * x) in the op-math dtype, so a subnormal's 2-norm with ``dim=0`` is 0 (and its
# forward tangent 0: norm_jvp masks a zero norm) where ``dim=None`` gives |x|.
def _vector_norm_array(d, ord, dims, keepdim, reduces=False):
    wide = _acc(d)
    a = raw.complex_abs(wide) if wide.dtype.kind == "c" else np.abs(wide)  # (abs's kernel: a
    # complex inf-norm is one of self.abs()'s values, which norm_backward's mask compares)
    n = d.size if dims is None else int(np.prod([d.shape[i] for i in dims]))
    if n == 1 and ord != 0 and not reduces:
        # one element per result: PyTorch's reduction gives |x| (no x * x to underflow)
        out = np.max(a, axis=dims, keepdims=keepdim)
    elif ord == 2:
        ss = None if wide.dtype.kind == "c" else norm_two_sum(
            d, tuple(range(d.ndim)) if dims is None else tuple(sorted(dims)))
        if ss is None:
            out = np.sqrt(np.sum(a * a, axis=dims, keepdims=keepdim))
        else:  # (aten's order: Note [2-norm order])
            out = np.sqrt(ss.reshape(tuple(1 if dims is None or i in dims else k
                                           for i, k in enumerate(d.shape))) if keepdim else ss)
    elif ord == float("inf"):
        out = np.max(a, axis=dims, keepdims=keepdim)
    elif ord == float("-inf"):
        out = np.min(a, axis=dims, keepdims=keepdim)
    elif ord == 0:
        out = np.sum(a != 0, axis=dims, keepdims=keepdim).astype(a.dtype)
    elif ord == 1 or ord != 0:
        out = _norm_p_sequential(d, a, ord, dims, keepdim)
        if out is None and ord == 1:
            out = np.sum(a, axis=dims, keepdims=keepdim)
        elif out is None:
            out = np.sum(a ** ord, axis=dims, keepdims=keepdim) ** (1.0 / ord)
    return _asarray(out).astype(d.dtype.type(0).real.dtype, copy=False)


# Note [p-norm order]
# ~~~~~~~~~~~~~~~~~~~
# aten's vector norm of an order other than 0, 2 and +-inf (NormOneOps, NormOps in
# SharedReduceOps.h) is ``binary_kernel_reduce``: per output one sequential sum, in the
# iterator's order (sum_kernel.reduce_rows), of |x| (ord 1) or std::pow(|x|, ord), in the
# input's real type (float32 for float32: glibc's powf, here double rounded once), then
# std::pow(sum, 1 / ord) with 1 / ord in that type. std::pow of doubles is glibc's pow,
# which NumPy's float64 power is not (it differs in ~5% of x ** 3): glibc_pow. Measured
# against PyTorch 2.13: 0 of ~900 swept norms differ per order and dtype, where NumPy's
# pairwise sums differed in 20-30% (tests/test_fuzz_red_stop35.py). float16/bfloat16,
# complex inputs and reductions split between threads keep NumPy's sums.
def _norm_p_sequential(d, a, ord, dims, keepdim):
    from .sum_kernel import MAX_SIZE, reduce_rows
    if d.dtype not in (np.float32, np.float64) or d.size == 0 or d.size > MAX_SIZE:
        return None
    axes = tuple(range(d.ndim)) if dims is None else tuple(sorted(dims))
    got = reduce_rows(a, axes)
    if got is None or (got[0].shape[0] == 1 and got[0].shape[1] >= _GRAIN_SIZE):
        return None
    rows, kept = got
    dt = d.dtype.type
    if ord == 1:
        s = np.cumsum(rows, axis=1)[:, -1]
    else:
        s = np.cumsum(_std_pow(rows, dt(ord)), axis=1)[:, -1]
        with np.errstate(divide="ignore"):
            s = _std_pow(s, dt(1) / dt(ord))
    shape = tuple(1 if i in axes else k for i, k in enumerate(d.shape)) if keepdim else kept
    return s.reshape(shape)


_LONG_DOUBLE = np.finfo(np.longdouble).nmant >= 63
_GLIBC_POW_MAX = 8192
_math_pow = np.frompyfunc(math.pow, 2, 1)


def _std_pow(a, p):
    """std::pow(a, p) of a float32 (glibc's powf: the double power rounded once) or float64
    array (glibc's pow: the x87 long double power, within 2**-11 ulp of the exact one,
    rounded to double, and math.pow, which is libm's, where that is within 0.02 ulp of a
    rounding boundary: 0 of 1,200,000 powers differed from math.pow's)."""
    with np.errstate(all="ignore"):
        if a.dtype == np.float32:
            return np.power(a.astype(np.float64), np.float64(p)).astype(np.float32)
        if a.size > _GLIBC_POW_MAX:  # (~80 ns an element: NumPy's power beyond)
            return np.power(a, p)
        if not _LONG_DOUBLE:
            return _math_pow(a, p).astype(np.float64)
        r = np.power(a.astype(np.longdouble), np.longdouble(p))
        out = r.astype(np.float64)
        ulp = np.spacing(np.abs(out)).astype(np.longdouble)
        hard = np.abs(np.abs((r - out) / ulp) - 0.5) < 0.02
    hard &= np.isfinite(out) & (out != 0)
    if hard.any():
        out[hard] = _math_pow(a[hard], float(p)).astype(np.float64)
    return out


def _dist_jvp(F, self, self_t, other, other_t, p, result):
    """PyTorch's ``norm_jvp(self_p - other_p, self_t - other_t, p, result)``, a missing
    tangent a zero tensor of its primal's dtype: the difference's dtype promotes the two
    (a float16 pair with one float32 tangent: float32), and norm_jvp's terms keep theirs
    (p = 1 writes into sgn's: the primals' dtype)."""
    t = self_t if other_t is None else -other_t if self_t is None else self_t - other_t
    a, b = (v._data for v in (self if self_t is None else self_t,
                               other if other_t is None else other_t))
    dt = _dtypes.binary_result_dtype(_dtypes.from_numpy(a.dtype), a.ndim == 0,
                                     _dtypes.from_numpy(b.dtype), b.ndim == 0)
    if t._data.dtype != dt.np:
        t = F.cast(t, dt.np)
    if p == 0:
        return F.zeros_like(result)
    return norm_jvp(F, self - other, t, p, None, False, result)


DIST = defop("dist", "DistBackward0", None, inputs=("self", "other"), params=("p",),
             grads={"self": lambda F, grad, self, other, p, result:
                    norm_backward(F, grad, self - other, p, None, False, result),
                    "other": lambda F, grad, self, other, p, result:
                    _neg_defined(norm_backward(F, grad, self - other, p, None, False, result))},
             jvp=_dist_jvp)


def _neg_defined(g):
    """``-norm_backward(...)``: at p = 0 the gradient is undefined, which at::neg refuses."""
    if g is None:
        raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in "
                           "C++) for argument #0 'self'")
    return -g


@view_errors_before_checks
def dist(input, other, p=2):
    """The p-norm of ``input - other`` (broadcast): one DistBackward0, as PyTorch's."""
    from .dispatch import broadcast_error, set_input_metadata
    for arg, pos, t in (("input", 1, input), ("other", 2, other)):
        if not isinstance(t, Tensor):
            raise TypeError(f"dist(): argument '{arg}' (position {pos}) must be Tensor, not "
                            f"{type(t).__name__}")
    if isinstance(p, Tensor):
        p = p.item()
    dt = _dtypes.result_type(input, other)
    a, b = input._data, other._data
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise broadcast_error(a.shape, b.shape) from None
    if not (dt.is_floating_point or dt.is_complex):
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                           f"Got {_dtypes.scalar_name(dt)} instead.")
    npd = _dtypes.numpy_dtype_of(dt)
    diff = a.astype(npd, copy=False) - b.astype(npd, copy=False)
    out = _vector_norm_array(diff.astype(npd, copy=False), float(p), None, False)
    r = _finish(DIST, (input, other), (float(p),), out)
    if r._grad_fn is not None and (a.shape != shape or b.shape != shape or a.dtype != npd or
                                   b.dtype != npd):
        set_input_metadata(r._grad_fn, (input, other), tuple(shape), npd)
    return r


def positive(input):
    """``+x``: the tensor itself (PyTorch returns its input), refused for bool."""
    if input._data.dtype == np.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def _check_softmax_dtype(name, d, dim):
    if (not _inexact(d.dtype) or d.dtype.kind == "c") and d.size:
        kernel = f"{name}_lastdim_kernel_impl" if d.ndim <= 1 or dim == d.ndim - 1 else \
            f"{name}_kernel_impl"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{_dtypes.scalar_name(_dtypes.from_numpy(d.dtype))}'")


def _to_dtype(input, dtype):
    """softmax's / log_softmax's dtype=: the input converted first (ToCopyBackward0)."""
    if dtype is None:
        return input
    if dtype.__class__ is not _dtypes.dtype and dtype not in (float, int, bool, complex):
        raise _argparse.wrong_type("softmax", "dtype")  # (Note [Argument errors on the
        # exception path] in _argparse.py)
    from .pointwise import to
    return to(input, dtype)


def softmax(input, dim, dtype=None):
    input = _to_dtype(input, dtype)
    d = input._data
    dim = _wrap_dim(dim, d.ndim, input)
    _check_softmax_dtype("softmax", d, dim)
    a = _acc(d)
    if a is not d:  # (float16/bfloat16: Note [PyTorch's half softmax])
        out = raw.softmax_reduced(a, dim, d.dtype)
    else:
        out = _asarray(raw.softmax(a, dim)).astype(d.dtype, copy=False)
    return _finish(SOFTMAX, (input,), (dim,), out)


def log_softmax(input, dim, dtype=None):
    input = _to_dtype(input, dtype)
    d = input._data
    dim = _wrap_dim(dim, d.ndim, input)
    _check_softmax_dtype("log_softmax", d, dim)
    a = _acc(d)
    if a is not d and (d.ndim <= 1 or dim == d.ndim - 1) and d.size:
        out = raw.log_softmax_lastdim_reduced(a, d.dtype)
    else:
        out = _asarray(raw.log_softmax(a, dim)).astype(d.dtype, copy=False)
    return _finish(LOG_SOFTMAX, (input,), (dim,), out)


def logsumexp(input, dim, keepdim=False):
    """log(sum(exp(x))) over dims, computed stably (one node, LogsumexpBackward0)."""
    if keepdim is not False and keepdim is not True or \
            dim is None:
        raise _argparse.wrong_type("logsumexp", "keepdim" if dim is not None else "dim")
    d = _float_data(input)
    dims = _dims(dim, d.ndim, input)
    # PyTorch's composite, log(sum(exp(x - m))) + m with m = amax(x) (0 where infinite),
    # for a 0-d input too (-0.0 gives +0.0); each step rounds to a 16-bit dtype, the sum
    # accumulates in float32; float32/float64 sum in at::sum's order (sum_array: float64
    # rows 8.5% -> 0.4% another float; the rest is torch.exp, MKL's, against NumPy's)
    dt = d.dtype
    if not d.ndim:
        dims = ()
    axes = dims if d.ndim else None
    a = _acc(d)
    step = (lambda v: v.astype(dt).astype(np.float32)) if a is not d else (lambda v: v)
    m = np.max(a, axis=axes, keepdims=True, initial=-np.inf)
    m = np.where(np.isinf(m), a.dtype.type(0), m)
    if a is d:  # (torch.exp and torch.log: raw's kernels, Note [Float32 transcendentals])
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            s = sum_array(raw.exp(a - m), axes, True)
            out = raw.log(s) + m
    else:
        e = step(np.exp(step(a - m)))
        s = np.sum(e, axis=axes, keepdims=True)
        out = step(np.log(step(s))) + m
    if not keepdim and d.ndim:
        out = np.squeeze(out, dims)
    return _finish(LOGSUMEXP, (input,), (dims, keepdim), _asarray(out).astype(dt))


def cumsum(input, dim, *, dtype=None):
    d = _sum_dtype(input._data, dtype)
    dim = _wrap_dim(dim, d.ndim, input)
    if d.ndim and d.size:  # (dtype=bool: no kernel; a 0-d or empty tensor needs none)
        _refuse_kernel_dtype("cumsum_out_cpu", d)
    r = _finish(CUMSUM, (input,), (dim,), raw.cumsum(d, dim).astype(d.dtype, copy=False))
    return _tangent_in_dtype(r, input, dtype, lambda t: cumsum(t, dim, dtype=dtype))


def _sorted_indices(d, dim, descending):
    if d.ndim == 0:
        return np.zeros((), np.int64)
    # stable, and descending keeps the order of equal elements like PyTorch: an
    # order-reversing key (~x for integers and bools: no overflow, unsigned too), for floats
    # -x after the NaNs, which PyTorch counts largest (first when descending)
    if not descending:
        idx = np.argsort(d, axis=dim, kind="stable")
    elif d.dtype.kind in "biu":
        idx = np.argsort(~d, axis=dim, kind="stable")
    else:
        key = d.astype(np.float32) if d.dtype.kind == "V" else d
        idx = np.lexsort((-key, ~np.isnan(key)), axis=dim)
    return idx.astype(np.int64)


def _key_value_less(descending):
    """aten's KeyValueCompAsc / KeyValueCompDesc on (value, index) pairs: NaN largest."""
    if descending:
        return lambda x, y: (x[0] != x[0] and y[0] == y[0]) or x[0] > y[0]
    return lambda x, y: (x[0] == x[0] and y[0] != y[0]) or x[0] < y[0]


# elements whose order Note [Ties of sort and topk] computes step by step (~1 us a step)
_TIE_STEPS_MAX = 1024  # (at ~2 us a step: ~2 ms at most per call)


def _tied_rows(sorted_values):
    """Rows (the last axis) holding equal neighbours (NaN equals NaN)."""
    a, b = sorted_values[..., 1:], sorted_values[..., :-1]
    eq = a == b
    if a.dtype.kind in "fV":
        eq |= np.isnan(a) & np.isnan(b)
    return eq.any(-1)


def _rows_as_lists(d, dim):
    """The rows along dim as Python lists of comparable values (half types exactly as
    float64)."""
    rows = np.moveaxis(d, dim, -1)
    if rows.dtype.kind == "V" or rows.dtype == np.float16:
        rows = rows.astype(np.float64)
    return rows


def _std_sort_ties(d, dim, descending, idx, values=None):
    """Note [Ties of sort and topk]: sort(stable=False) is std::sort of (value, index)
    pairs (sort_kernel), which keeps equal values in their order up to 16 elements (its
    insertion sort) but not past them: the rows with ties are sorted step by step (the
    values' signed zeros and the indices of equal values follow). Up to _TIE_STEPS_MAX
    elements; past them the stable order stays (not PyTorch's). An input of stride 0
    along dim is left unsorted (its values are equal: our stable order)."""
    n = d.shape[dim] if d.ndim else 0
    if n <= 16 or d.strides[dim] == 0:
        return idx
    if values is None:  # (the stably sorted values)
        values = np.take_along_axis(d, idx, axis=dim)
    tied = _tied_rows(np.moveaxis(values, dim, -1))
    count = int(np.count_nonzero(tied))
    if not count or count * n > _TIE_STEPS_MAX:
        return idx
    rows, out = _rows_as_lists(d, dim), np.moveaxis(idx, dim, -1).copy()
    less = _key_value_less(descending)
    for r in map(tuple, np.argwhere(tied)):
        pairs = _std_sort_pairs(list(zip(rows[r].tolist(), range(n))), less)
        out[r] = [i for _, i in pairs]
    return np.moveaxis(out, -1, dim)


def _refuse_bools(name, *flags):
    """A bool argument PyTorch's parser takes only as a Python bool (Note [Argument errors
    on the exception path] in _argparse.py)."""
    for f in flags:
        if f is not True and f is not False:
            raise _argparse.wrong_type(name, "bool")


def sort(input, dim=-1, descending=False, *, stable=None):
    if descending is not False or stable is not None:
        _refuse_bools("sort", descending, False if stable is None else stable)
    d = input._data
    if d.dtype.kind == "c":
        refuse_complex("sort", d.dtype)
    dim = _wrap_dim(dim, d.ndim, input)
    idx = _sorted_indices(d, dim, descending)
    values = np.take_along_axis(d, idx, axis=dim) if d.ndim else d.copy()
    if not stable:  # (std::sort; std::stable_sort is our stable order)
        tied = _std_sort_ties(d, dim, descending, idx, values)
        if tied is not idx:
            idx, values = tied, np.take_along_axis(d, tied, axis=dim)
    op = SORT if stable is None else SORT_STABLE
    v, i = _finish(op, (input,), (dim, descending), (values, idx))
    return _SortRT(v, i, None)


def argsort(input, dim=-1, descending=False, *, stable=False):
    if descending is not False or stable is not False:
        _refuse_bools("argsort", descending, stable)
    view_errors_first(input)  # (PyTorch's argsort is sort's indices: sort is differentiable)
    d = input._data
    if d.dtype.kind == "c":
        refuse_complex("sort", d.dtype)
    dim = _wrap_dim(dim, d.ndim)
    idx = _sorted_indices(d, dim, descending)
    idx = idx if stable else _std_sort_ties(d, dim, descending, idx)
    return _make(conform(SORT, (input,), (), idx))  # (sort's indices: its layout)


def topk(input, k, dim=-1, largest=True, sorted=True):
    if largest is not True or sorted is not True:
        _refuse_bools("topk", largest, sorted)
    d = input._data
    dim = _wrap_dim(dim, d.ndim, input)
    if k > (d.shape[dim] if d.ndim else 1) or k < 0:
        view_errors_first(input)
        raise RuntimeError("selected index k out of range")
    if d.dtype == np.bool_ or d.dtype.kind == "c":  # (after the dim and k checks, as aten's)
        raise RuntimeError("topk does not support bool dtypes on CPU" if d.dtype == np.bool_
                           else " topk does not support complex dtypes on CPU")
    idx = _sorted_indices(d, dim, largest)
    if d.ndim:
        idx = _topk_ties(d, dim, k, largest, sorted, idx)
        idx = idx[(slice(None),) * dim + (slice(0, k),)]
    values = np.take_along_axis(d, idx, axis=dim) if d.ndim else d.copy()
    v, i = _finish(TOPK, (input,), (k, dim), (values, idx))
    return _TopkRT(v, i, None)


def _topk_ties(d, dim, k, largest, sorted_, idx):
    """Note [Ties of sort and topk]: topk_impl_loop puts (value, index) pairs in a queue
    and runs std::partial_sort (k * 64 <= n) or std::nth_element at k - 1, then (sorted)
    std::sort of the first k - 1 pairs: which of equal values are kept, and their order,
    are those steps'. Rows whose first k + 1 (stably sorted) values hold a tie, or all
    rows when an unsorted result keeps nth_element's order, run them (up to
    _TIE_STEPS_MAX elements). Returns the first k indices' order in the full row's."""
    n = d.shape[dim]
    if k == 0 or n < 2:
        return idx
    partial = k * 64 <= n
    head = np.take_along_axis(d, idx[(slice(None),) * dim + (slice(0, k + 1),)], axis=dim)
    rows = _tied_rows(np.moveaxis(head, dim, -1))
    if not sorted_ and not partial and k > 2:
        rows = np.ones_like(rows)
    count = int(np.count_nonzero(rows))
    if not count or count * n > _TIE_STEPS_MAX:
        return idx
    vals, out = _rows_as_lists(d, dim), np.moveaxis(idx, dim, -1).copy()
    less = _key_value_less(largest)
    for r in map(tuple, np.argwhere(rows)):
        queue = list(zip(vals[r].tolist(), range(n)))
        if partial:  # (std::partial_sort: heap select, then sort_heap)
            _heap_select(queue, 0, k, n, less)
            for last in range(k - 1, 0, -1):
                value = queue[last]
                queue[last] = queue[0]
                _heap_adjust(queue, 0, 0, last, value, less)
        else:
            _nth_element(queue, k - 1, less)
            if sorted_:
                queue[:k - 1] = _std_sort_pairs(queue[:k - 1], less)
        out[r][:k] = [i for _, i in queue[:k]]
    return np.moveaxis(out, -1, dim)


# ---- the catalogue: statistics, nan-reductions, scans, order statistics (issue 11) ---------
def _finish_multi(op, inputs, params, outs):
    """_finish for an op with several outputs."""
    return _finish(op, inputs, params, tuple(outs))


def _reduced(F, x, dims, keepdim, ndim):
    """x with the reduced dims put back (size 1), so that it broadcasts against the input."""
    if keepdim or not ndim:
        return x
    for d in (range(ndim) if dims is None else dims):
        x = F.unsqueeze(x, d)
    return x


def var_backward(F, grad, self, dim, correction, keepdim):
    return _var_backward(F, grad, self, dim, correction, keepdim, False)


def _var_backward(F, grad, self, dim, correction, keepdim, tangent):
    """PyTorch's var_backward. Over all elements (no dim, or a 0-d input) without degrees
    of freedom, 2 / dof is infinite: the gradient is NaN where self equals the mean, else
    inf, times grad (a mask, so it reads self only through a comparison: a tangent made
    from it needs no grad). C++'s where() of two doubles is float64, so that gradient is
    float64: the engine's validate_outputs casts it to self's dtype, a tangent
    (``tangent=True``) keeps it. Over dims, 2 / dof as C++ divides (inf at 0, negative
    below)."""
    if self.ndim == 0:  # (PyTorch's `self.dim() == 0 || !dim_opt.has_value()`)
        dim = None
    n = _numel(self.shape, dim)
    dof = n - correction
    if dim is None:
        if dof <= 0:
            out = grad * F.where(self == F.mean(self), float("nan"), float("inf"))
            return out if tangent else F.cast_like(out, self)
        return F.mul(grad, 2.0 / dof) * (self - F.mean(self))  # (Note [Half scalars in
        # formulas] in raw.py: C++'s ``(2.0 / dof) * grad`` is grad.mul(2.0 / dof))
    if self.ndim > 1:  # (a 1-d input's reduced gradient is 0-d: it broadcasts as it is)
        grad = _reduced(F, grad, dim, keepdim, self.ndim)
    return F.mul(grad, (2.0 / dof) if dof else float("inf")) * (self - F.mean(self, dim, True))


def std_backward(F, grad, self, dim, correction, keepdim, result):
    # PyTorch's (grad / (result * 2)).masked_fill_(result == 0, 0): MaskedFillBackward0
    g = _masked_fill_(F, grad / (result * 2), result == 0)
    return var_backward(F, g, self, dim, correction, keepdim)


def var_jvp(F, self_t, self, dim, correction, keepdim, result):
    """PyTorch's rule: var_backward(self_t, self, dim, correction, keepdim=True) summed over
    dim (self_t scales grad's place in the formula: (2 / dof * self_t) * (self - mean),
    then the sum; weights of a cotangent of ones times self_t rounded otherwise in half
    precision: 3 of 3 float16 tangents differed)."""
    out = _var_backward(F, self_t, self, dim, correction, True, True)
    if dim is None or not self_t.ndim:
        return F.sum(out)
    return F.sum(out, (dim,) if isinstance(dim, int) else dim, keepdim)


def std_jvp(F, self_t, self, dim, correction, keepdim, result):
    """PyTorch's rule: var's tangent / (2 std), 0 where std is 0 (so NaN where std is, as
    for an empty dim, not the sum of an empty backward)."""
    return F.where(result == 0, 0, var_jvp(F, self_t, self, dim, correction, keepdim, result)
                   / (result * 2))


def _forward_ad():
    from ..autograd import forward_ad
    return forward_ad


def _over_count(F, g, n):
    """mean_backward's ``/ n`` (the count read in float32 for half types, Note [Half
    scalars in formulas] in raw.py). C++'s Tensor / SymInt is div.Scalar, which has no
    zero-tensor kernel: a tangent that is one comes out as stored zeros."""
    return F.div_scalar(g, n)


def _mean_backward(F, grad, self, dim, keepdim):
    """PyTorch's mean_backward: sum_backward, then / n."""
    return _over_count(F, reduce_backward(F, grad, dim, keepdim, self.shape),
                       _numel(self.shape, dim))


def _sum_defined(parts):
    parts = [p for p in parts if p is not None]
    out = parts[0]
    for p in parts[1:]:
        out = out + p
    return out


def _mean_of(F, self_t, dim, keepdim):
    """var_mean's / std_mean's ``result1: mean(self_t, dim.value_or({}), keepdim)``: the
    mean's own rounding (sum / n), NaN for an empty input."""
    return F.mean(self_t, tuple(range(self_t.ndim)) if dim is None else dim, keepdim)


VAR = defop("var", "VarBackward0", None, params=("dim", "correction", "keepdim"),
            jvp=lambda F, self, self_t, dim, correction, keepdim, result: var_jvp(
                F, self_t, self, dim, correction, keepdim, result),
            grads={"self": var_backward}, layout="contiguous")
STD = defop("std", "StdBackward0", None, params=("dim", "correction", "keepdim"),
            jvp=lambda F, self, self_t, dim, correction, keepdim, result: std_jvp(
                F, self_t, self, dim, correction, keepdim, result),
            grads={"self": std_backward}, layout="contiguous")
VAR_MEAN = defop("var_mean", "VarMeanBackward0", None, params=("dim", "correction", "keepdim"),
                 outputs=("result0", "result1"),
                 jvp=lambda F, self, self_t, dim, correction, keepdim, result0, result1: (
                     var_jvp(F, self_t, self, dim, correction, keepdim, result0),
                     _mean_of(F, self_t, dim, keepdim)),
                 grads={"self": lambda F, grads, self, dim, correction, keepdim: _sum_defined([
                     None if grads[0] is None else
                     var_backward(F, grads[0], self, dim, correction, keepdim),
                     None if grads[1] is None else
                     _mean_backward(F, grads[1], self, dim, keepdim)])}, layout="contiguous")
STD_MEAN = defop("std_mean", "StdMeanBackward0", None, params=("dim", "correction", "keepdim"),
                 outputs=("result0", "result1"),
                 jvp=lambda F, self, self_t, dim, correction, keepdim, result0, result1: (
                     std_jvp(F, self_t, self, dim, correction, keepdim, result0),
                     _mean_of(F, self_t, dim, keepdim)),
                 grads={"self": lambda F, grads, self, dim, correction, keepdim, result0:
                        _sum_defined([
                            None if grads[0] is None else
                            std_backward(F, grads[0], self, dim, correction, keepdim, result0),
                            None if grads[1] is None else
                            _mean_backward(F, grads[1], self, dim, keepdim)])}, layout="contiguous")


def _var_args(name, input, dim, unbiased, keepdim, correction):
    """PyTorch's overloads: var(x, unbiased), var(x, dim, unbiased, keepdim), var(x, dim, *,
    correction, keepdim) -> (array, dims, correction)."""
    if keepdim is not False and keepdim is not True:
        raise _argparse.wrong_type(name, "keepdim")
    if unbiased is not None and unbiased is not True and unbiased is not False and \
            dim.__class__ is not bool:
        raise _argparse.wrong_type(name, "unbiased")
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    if unbiased is not None and correction is not None:
        raise RuntimeError(f"{name}: can't specify both unbiased and correction")
    c = correction if correction is not None else (0 if unbiased is False else 1)
    d = input._data
    if not _inexact(d.dtype):
        what = name if name.endswith("_mean") else "std and var"
        raise RuntimeError(f"{what} only support floating point and complex dtypes")
    dims = _dims(dim, d.ndim, input) if dim is not None and dim != () else None
    if d.ndim == 0:
        dims = None
    return d, dims, c


# Note [Variance kernels]
# ~~~~~~~~~~~~~~~~~~~~~~~
# aten's std_var (ReduceOps.cpp std_var_out / std_var_mean_out) takes one of two paths.
# var/std whose result is a single element, of a float32/float64 input (not var_mean or
# std_mean, not float16/bfloat16), go to std_var_all_cpu: the mean is the tensor's own
# mean() (the cascade sum over n in the input's dtype: a float32 mean is rounded to
# float32), then sum((double(x) - mean)^2) in double, in order, / max(0, n - correction)
# and the root in double, the result cast once (so a constant float32 tensor whose
# float32 mean rounds away from its value has a variance > 0, as in PyTorch). Every other
# reduction is WelfordOps in double (ReduceOpsKernel.cpp's std_var_kernel_impl), along
# the reduced elements in TensorIterator's order (sum_kernel.reduce_rows), its m2 update
# unfused (a fused one differed in 948 of 3,500 rows), and var_mean's mean is that double
# mean cast once (float16/bfloat16: through float32, PyTorch's float copy; so not always
# mean()'s value). The Welford steps run over all outputs at once for up to _WELFORD_MAX
# reduced elements: the means are the recurrence (3 NumPy calls a step), the m2 terms
# follow from them at once, summed in order. Every float64 row of up to 256 elements takes
# them (the two-pass sum, 10 x cheaper, differed in the last bit in ~25% of rows: stop 35;
# and such last-ulp differences are amplified by later cancellations: var([-0.715, -0.452])
# is 0.0345845 by Welford, 0.03458449999999999 by two passes, stop 32's rev2_repro_001);
# longer reductions take the two-pass sum in double, which Welford's double result
# approaches (they differ where |mean| / std nears 1 / eps of double, and in last bits).
# Past 65,536 elements a float64 row longer than _WELFORD_ALWAYS takes Welford's steps
# only where |mean| > 10 std.
# Complex inputs are the variances of the real and imaginary parts, added (and rooted) in
# the real dtype.
_WELFORD_MAX = {8: 256, 4: 128}  # by itemsize; others 32 (~2 us a step)
_WELFORD_ALWAYS = 8


def _var_real(d, dims, c, keepdim, root, mean_too):
    """(variance or std, mean or None) of a real floating array, as aten computes them."""
    dt = d.dtype
    nd = d.ndim
    red = tuple(range(nd)) if dims is None else tuple(sorted(dims))
    out_shape = tuple(1 if i in red else s for i, s in enumerate(d.shape)) if keepdim else \
        tuple(s for i, s in enumerate(d.shape) if i not in red)
    n = _numel(d.shape, dims)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if d.size == 0:
            nan = np.full(out_shape, np.nan, dt)
            return nan, (nan.copy() if mean_too else None)
        if not mean_too and _numel(out_shape) == 1 and (dt == np.float32 or dt == np.float64):
            # std_var_all_cpu
            m = np.float64(mean_array(d))
            dx = d.astype(np.float64).ravel() - m
            dx *= dx
            s = np.cumsum(dx)[-1] if dx.size <= 65536 else np.sum(dx)
            v = s / np.float64(_py_max(0.0, n - c))
            v = np.sqrt(v) if root else v
            return np.full(out_shape, v, dt), None
        got = reduce_rows(d, red) if d.size <= MAX_SIZE else None
        if got is not None:  # (the reduced elements in the iterator's order)
            x = got[0].astype(np.float64).reshape(got[1] + (n,))
        else:
            x = d.astype(np.float64)
            keep = tuple(i for i in range(nd) if i not in red)
            x = np.moveaxis(x, red, tuple(range(nd - len(red), nd))) if red != tuple(
                range(nd - len(red), nd)) else x
            x = x.reshape(tuple(d.shape[i] for i in keep) + (n,))
        welford = n <= _WELFORD_MAX.get(dt.itemsize, 32)
        if welford and n > _WELFORD_ALWAYS and (got is None or dt.itemsize < 8 and
                                                 not mean_too):
            # (Welford's rounding shows only where |mean| / std is large, ~eps * that
            # relative; elsewhere the two-pass sum agrees to ~1e-15 and costs one pass
            # instead of n: a float32/half result rounds both to the same value but in
            # double rounding's rare ties, a float64 one in ~25% of rows, so float64 takes
            # the steps below 65,536 elements, and so does var_mean's mean, which shows)
            mean = np.mean(x, axis=-1)
            dx = x - mean[..., None]
            m2 = np.einsum("...i,...i->...", dx, dx)
            welford = bool((np.abs(mean) > 10 * np.sqrt(m2 / n)).any())
        if welford:
            # (WelfordOps::reduce, no fused multiply-add: only the means are a recurrence;
            # the m2 terms delta * (x - new mean) follow from them at once, and their
            # running sum in order is a cumulative sum's last element, from +0.0)
            xt = np.moveaxis(x, -1, 0).reshape(n, -1).copy()
            means = np.empty_like(xt)
            delta = np.empty_like(xt)
            t = np.empty(xt.shape[1:])
            prev = np.zeros(xt.shape[1:])
            for k in range(n):
                np.subtract(xt[k], prev, out=delta[k])
                np.divide(delta[k], k + 1.0, out=t)
                prev = np.add(prev, t, out=means[k])
            mean = means[-1].reshape(x.shape[:-1])
            np.subtract(xt, means, out=xt)
            xt *= delta
            m2 = (np.cumsum(xt, axis=0)[-1] + 0.0).reshape(x.shape[:-1])
        elif n > _WELFORD_MAX.get(dt.itemsize, 32):
            mean = np.mean(x, axis=-1)
            dx = x - mean[..., None]
            m2 = np.einsum("...i,...i->...", dx, dx)
        divisor = np.float64(n - c if n > c else 0)
        v = m2 / divisor
        v = np.sqrt(v) if root else v
        v = np.asarray(v).reshape(out_shape).astype(dt)
        if mean_too and dt.itemsize == 2:  # (half: computed on a float32 copy, cast twice)
            mean = np.asarray(mean).astype(np.float32)
        return v, (np.asarray(mean).reshape(out_shape).astype(dt) if mean_too else None)


def _var_array(d, dims, c, keepdim, root=False, mean_too=False):
    """(var or std, mean or None) over ``dims`` with ``correction`` c (Note [Variance
    kernels])."""
    if d.dtype.kind != "c":
        return _var_real(d, dims, c, keepdim, root, mean_too)
    vr, mr = _var_real(d.real, dims, c, keepdim, False, mean_too)
    vi, mi = _var_real(d.imag, dims, c, keepdim, False, mean_too)
    v = vr + vi
    if root:
        v = np.sqrt(v)
    if not mean_too:
        return v, None
    mean = np.empty(mr.shape, d.dtype)
    mean.real, mean.imag = mr, mi
    return v, mean


def _warn_invalid_dof(name, d, dims, c):
    """aten's warn_invalid_degrees_of_freedom."""
    n_out = 1
    for i, size in enumerate(d.shape):
        if dims is not None and i not in dims:
            n_out *= size
    reducing = d.size // n_out if n_out else 0
    if reducing - c <= 0:
        from .. import _warn
        _warn.cpp(f"{name}(): degrees of freedom is <= 0. Correction should be strictly "
                  f"less than the reduction factor (input numel divided by output numel).")


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """Variance over dims with Bessel's ``correction`` (1 unless ``unbiased=False``)."""
    d, dims, c = _var_args("var", input, dim, unbiased, keepdim, correction)
    _warn_invalid_dof("var", d, dims, c)
    return _finish(VAR, (input,), (dims, c, keepdim), _var_array(d, dims, c, keepdim)[0])


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """Standard deviation (square root of ``var``)."""
    d, dims, c = _var_args("std", input, dim, unbiased, keepdim, correction)
    _warn_invalid_dof("std", d, dims, c)
    return _finish(STD, (input,), (dims, c, keepdim), _var_array(d, dims, c, keepdim, True)[0])


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(var, mean) in one op."""
    d, dims, c = _var_args("var_mean", input, dim, unbiased, keepdim, correction)
    _warn_invalid_dof("var_mean", d, dims, c)
    return _finish_multi(VAR_MEAN, (input,), (dims, c, keepdim),
                         _var_array(d, dims, c, keepdim, mean_too=True))


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(std, mean) in one op."""
    d, dims, c = _var_args("std_mean", input, dim, unbiased, keepdim, correction)
    _warn_invalid_dof("std_mean", d, dims, c)
    return _finish_multi(STD_MEAN, (input,), (dims, c, keepdim),
                         _var_array(d, dims, c, keepdim, True, mean_too=True))


NANSUM = defop("nansum", "NansumBackward0", None, params=("dim", "keepdim"),
               # PyTorch's where(self_p.isnan(), 0, self_t).sum(dim, keepdim): a NaN
               # tangent where the primal is NaN counts 0 (asin(1.764).nansum(0))
               jvp=lambda F, self, self_t, dim, keepdim: F.sum(F.where(
                   self != self, 0, self_t)) if dim is None or not self_t.ndim else F.sum(
                   F.where(self != self, 0, self_t), dim, keepdim),
               # PyTorch's sum_backward * self.isnan().logical_not(): a product (-0.0 and
               # NaN where self is NaN and the gradient -1 or inf)
               grads={"self": lambda F, grad, self, dim, keepdim: reduce_backward(
                   F, grad, dim, keepdim, self.shape) * F.cast_like(
                   self == self, grad)}, layout="contiguous")


def _strided_like(d, values):
    """values (d's shape) in an array with d's strides: the summation order of aten's
    kernels depends on them."""
    if d.flags.c_contiguous or d.size == 0 or builtins.any(
            st < 0 or st % d.itemsize for st in d.strides):
        return values
    span = 1 + builtins.sum((k - 1) * st // d.itemsize for k, st in zip(d.shape, d.strides))
    out = np.lib.stride_tricks.as_strided(np.empty(span, values.dtype), d.shape, d.strides)
    out[...] = values
    return out


def nansum(input, dim=None, keepdim=False, *, dtype=None):
    """sum treating NaN as zero."""
    if keepdim is not False:
        _argparse.bools(keepdim)
    if input._data.dtype.kind == "c":
        refuse_complex("nansum", input._data.dtype)
    d = _sum_dtype(input._data, dtype)
    dims = _dims(dim, d.ndim, input) if dim is not None and dim != () else None
    if not d.ndim:
        dims = None  # (validated first, as for a 0-d sum)
    if d.dtype == np.float32 or d.dtype == np.float64 or (d.itemsize == 2 and
                                                          d.dtype.kind in "fV"):
        # (aten's cascade sum, a NaN loaded as 0: Note [Cascade sum]; half types there too)
        out = _asarray(sum_array(_strided_like(d, np.where(np.isnan(d), d.dtype.type(0), d)),
                                 dims, keepdim and d.ndim > 0, acc_buffer=False))
    else:
        out = _asarray(np.nansum(_acc(d), axis=dims, keepdims=keepdim and d.ndim > 0))
    r = _finish(NANSUM, (input,), (dims, keepdim), out.astype(d.dtype, copy=False))
    # (PyTorch's rule: where(self_p.isnan(), 0, self_t).sum(dim, keepdim, dtype))
    return _tangent_in_dtype(r, input, dtype, lambda t: sum(
        t.masked_fill(_make(np.isnan(input._data)), 0), _NO_DIM if dims is None else dims,
        keepdim and d.ndim > 0, dtype=dtype))


def nanmean(input, dim=None, keepdim=False, *, dtype=None):
    """mean over the non-NaN elements (nansum / count, recorded as PyTorch does)."""
    if keepdim is not False:
        _argparse.bools(keepdim)
    from .pointwise import div, logical_not
    d = input._data
    if d.dtype.kind == "c":
        refuse_complex("nansum", d.dtype)
    if not _inexact(d.dtype) and dtype is None:
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex dtype "
                           f"but got {_dtypes.scalar_name(input.dtype)}")
    count = sum(logical_not(_make(np.isnan(d))), dim, keepdim)
    return div(nansum(input, dim, keepdim, dtype=dtype), count)


def cumprod_backward(F, grad, self, dim, result):
    """PyTorch's cumprod_backward: reversed cumsum of grad * result over self where no
    element is 0; with zeros, its mask algorithm on arrays (a first-order backward) or
    its O(n^2) sum of omitted products in graph mode (create_graph), as PyTorch chooses by
    grad mode."""
    if getattr(self, "_data", self).size <= 1 or self.shape[dim] == 1:
        return grad  # (PyTorch's early returns: an empty input's gradient is grad itself)
    if not (self == 0).any():
        return F.flip(F.cumsum(F.flip(grad * result, (dim,)), dim), (dim,)) / self
    if F.is_raw:
        return _cumprod_backward_zeros(grad, self, dim, result)
    return _cumprod_backward_graph(grad, self, dim)


def _cumprod_backward_graph(grad, x, dim):
    """PyTorch's create_graph cumprod_backward at a zero, op for op: each slice k the sum of
    grad times the products with x_k omitted (prod of x[:k], times cumprod of x[k+1:]),
    copied into select(dim, k) of fresh zeros, so the gradient is a chain of CopySlices
    (version n + 1 there, as PyTorch's). With grad mode off (formulas run on tensors only
    for their tangents: forward over reverse without create_graph) nothing is recorded and
    PyTorch's gradient is a fresh tensor: the slices are stacked (version 0)."""
    from .pointwise import copy_
    from .shape import cat, expand, expand_as, narrow, select, stack
    n = x.shape[dim]
    ones_size = list(x.shape)
    ones_size[dim] = 1
    ones = expand(_make(np.ones(1, dtype=grad._data.dtype)), ones_size)
    record = _state.enabled
    if record:
        grad_input = _make(np.zeros(x.shape, dtype=grad._data.dtype))
        grad_input._vc[0] = 1
    slices = []
    for k in range(n):
        if k == 0:
            omitted = cat([ones, cumprod(narrow(x, dim, 1, n - 1), dim)], dim)
        else:
            until_k = prod(narrow(x, dim, 0, k), dim, True)
            if k < n - 1:
                after = cumprod(narrow(x, dim, k + 1, n - k - 1), dim)
                omitted = cat([until_k, expand_as(until_k, after) * after], dim)
            else:
                omitted = until_k
        grad_slice = sum(narrow(grad, dim, k, n - k) * omitted, dim)
        if record:
            copy_(select(grad_input, dim, k), grad_slice)
        else:
            slices.append(grad_slice)
    return grad_input if record else stack(slices, dim)


def _cumprod_backward_zeros(grad, x, dim, result):
    """PyTorch's first-order cumprod_backward of an input with zeros, mask for mask: before
    the first zero of a slice the reversed cumsum over x; at it the products up to it
    times the gradient through the next zero; after it 0. (Its cumsum, cumprod and sum are
    aten's: Note [Cumulative accumulation] in raw.py, Note [Cascade sum].)"""
    def reversed_cumsum(w):
        return np.flip(raw.cumsum(np.flip(w, dim), dim), dim)
    w = result * grad
    cumsum = np.cumsum(x == 0, dim)
    out = np.zeros(x.shape, dtype=grad.dtype)
    mask = cumsum == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        out[mask] = (reversed_cumsum(np.where(mask, w, 0)) / x)[mask]
    mask = cumsum == 1
    first = np.argmax(mask, dim)[(slice(None),) * dim + (None,)]
    first_mask = np.zeros_like(mask)
    np.put_along_axis(first_mask, first, True, dim)
    first_mask &= mask
    mask &= ~first_mask
    before = np.take_along_axis(result, np.maximum(first - 1, 0), dim)
    before = np.where(first == 0, 1, before)
    value = sum_array(raw.cumprod(np.where(mask, x, 1), dim) * np.where(cumsum != 1, 0, grad),
                      dim, True) * before
    out[first_mask] = np.broadcast_to(value, x.shape)[first_mask]
    return out


def _cumprod_jvp(F, self, self_t, dim, result):
    """PyTorch's ``cumprod_jvp(...).to(dtype or self's dtype)``: y * cumsum(t / x) before
    a slice's first zero; from that zero on, the cumprod of x with the zero replaced by its
    tangent (dy_k = sum_j t_j prod_{i!=j} x_i, whose other terms hold that zero: not added,
    so -0.0 stays -0.0 and an inf after the zero gives inf, not NaN); a float32 tangent of
    a float16 input is rounded to float16."""
    return _cast_as(F, _cumprod_jvp_values(F, self, self_t, dim, result), result)


def _cumprod_jvp_values(F, self, self_t, dim, result):
    if not self.ndim:  # PyTorch's cumprod_jvp: t / x * x, t where x is 0 (NaN at NaN, inf)
        return F.masked_fill(F.cumsum(self_t / self, dim) * result, self == 0, self_t)
    zero = _values(self) == 0
    generic = result * F.cumsum(self_t / self, dim)
    if not zero.any():
        return generic
    count = np.cumsum(zero, axis=dim)
    first = _make(zero & (count == 1))
    replaced = cumprod(F.where(first, self_t, self), dim)
    return F.where(_make(count == 0), generic, replaced)


def _logcumsumexp_jvp(F, self, self_t, dim, result):
    """PyTorch's logcumsumexp_jvp: exp(self - max) (max over dim; its max() refuses an empty
    dim), then cumsum(e * t) / (cumsum(e) + 1e-13), the eps included (so a leading finite
    value before an inf gets 0, not NaN)."""
    if self.ndim and not self.shape[dim]:
        raise IndexError(f"max(): Expected reduction dim {dim % self.ndim} to have non-zero "
                         "size.")
    v = _values(self)
    if v.dtype.kind == "c":  # (PyTorch's max() has no complex: no shift)
        e = F.exp(self)
    else:
        m = np.max(v, axis=dim, keepdims=True) if v.ndim else v
        e = F.exp(self - F.constant(m, self))
    # (``self_p_exp *= self_t`` in place: in e's dtype, so a float32 tangent of a float16
    # input gives a float16 one)
    return F.cumsum(_cast_as(F, e * self_t, e), dim) / (F.cumsum(e, dim) + 1e-13)


CUMPROD = defop("cumprod", "CumprodBackward0", None, params=("dim",), jvp=_cumprod_jvp,
                grads={"self": cumprod_backward}, layout="contiguous")


def logcumsumexp_backward(F, grad, self, dim, result):
    """PyTorch's logcumsumexp_backward: the positive and negative parts of grad in log space,
    through a reverse logcumsumexp (its values at infinities: [1.764, inf] gets [1, nan])."""
    g = _values(grad)
    if not g.ndim or not g.size:
        return grad
    if g.dtype.kind == "c":  # (shifted by the largest running value: no exp overflows)
        m = F.constant(np.max(_values(result).real, axis=dim, keepdims=True), result)
        w = grad * F.exp(m - result)
        return F.exp(self - m) * F.flip(F.cumsum(F.flip(w, (dim,)), dim), (dim,))
    lowest = float(_dtypes.finfo(_dtypes.from_numpy(g.dtype)).min)
    log_abs = F.log(F.abs(grad))

    def part(mask):
        x = F.where(mask, log_abs, lowest) - result
        return F.exp(F.flip(F.logcumsumexp(F.flip(x, (dim,)), dim), (dim,)) + self)
    return part(grad > 0) - part(grad < 0)


LOGCUMSUMEXP = defop("logcumsumexp", "LogcumsumexpBackward0", None, params=("dim",),
                     jvp=_logcumsumexp_jvp, grads={"self": logcumsumexp_backward},
                     layout="contiguous")


def cumprod(input, dim, *, dtype=None):
    d = _sum_dtype(input._data, dtype)
    dim = _wrap_dim(dim, d.ndim, input)
    if d.ndim and d.size:
        _refuse_kernel_dtype("cumprod_out_cpu", d)
    out = raw.cumprod(d, dim).astype(d.dtype, copy=False)
    return _finish(CUMPROD, (input,), (dim,), _asarray(out))


def cumprod_(self, dim, *, dtype=None):
    d = _cum_inplace_checks("cumprod", self, dim, dtype)
    dim = _wrap_dim(dim, d.ndim)
    out = raw.cumprod(d, dim).astype(d.dtype, copy=False)
    return inplace.record_inplace(CUMPROD, self, (self,), (dim,), out)


def logcumsumexp(input, dim):
    d = input._data
    dim = _wrap_dim(dim, d.ndim, input)  # (before the dtype: the kernel wraps dim, then dispatches)
    if not _inexact(d.dtype):
        raise NotImplementedError(f"\"logcumsumexp_out_cpu\" not implemented for "
                                  f"'{_dtypes.scalar_name(input.dtype)}'")
    return _finish(LOGCUMSUMEXP, (input,), (dim,), logcumsumexp_kernel(d, dim))


def _logcumsumexp_complex(d, dim):
    """PyTorch's CPU scan for complex data (no ufunc has it): from -inf, each step is
    _log_add_exp_helper(x, running) in complex128: log1p(exp(min - max)) + max, min and max
    by real part; NaN (in either part) is infectious, and equal infinite real parts give
    min (-inf) or log(exp(min) + exp(max)) (+inf)."""
    x = np.moveaxis(d.astype(np.complex128), dim, -1)
    out = np.empty(x.shape, np.complex128)
    run = np.full(x.shape[:-1], complex(-np.inf, 0.0))
    with np.errstate(all="ignore"):
        for j in range(x.shape[-1]):
            xj = x[..., j]
            lt = xj.real < run.real
            lo, hi = np.where(lt, xj, run), np.where(lt, run, xj)
            r = np.log1p(np.exp(lo - hi)) + hi
            inf = ~np.isfinite(lo.real) & (lo.real == hi.real)
            r = np.where(inf, np.where(lo.real < 0, lo, np.log(np.exp(lo) + np.exp(hi))), r)
            nan = np.isnan(xj.real) | np.isnan(xj.imag) | np.isnan(run.real) | np.isnan(run.imag)
            run = out[..., j] = np.where(nan, complex(np.nan, np.nan), r)
    return np.moveaxis(out, -1, dim).astype(d.dtype)


def logcumsumexp_kernel(d, dim):
    if d.dtype.kind == "c" and d.ndim and d.size:
        return _asarray(_logcumsumexp_complex(d, dim))
    out = np.logaddexp.accumulate(_acc(d), axis=dim) if d.ndim and d.size else _acc(d).copy()
    if d.ndim and d.size and d.dtype.kind != "c":
        # PyTorch's scan starts from -inf: logaddexp(-inf, -0.0) is +0.0
        out[(slice(None),) * dim + (slice(0, 1),)] += 0.0
    return _asarray(out).astype(d.dtype, copy=False)


class _MinMaxRT(tuple):
    """torch.return_types.aminmax(min=..., max=...)."""

    __slots__ = ()
    min = property(lambda self: self[0])
    max = property(lambda self: self[1])

    def __repr__(self):
        return f"torch.return_types.aminmax(\nmin={self[0]!r},\nmax={self[1]!r})"


AMINMAX = defop("aminmax", "AminmaxBackward0", None, params=("dim", "keepdim"),
                outputs=("min", "max"),
                jvp=lambda F, self, self_t, dim, keepdim, min, max: tuple(
                    amaxamin_jvp(F, self, self_t, r, dim, keepdim) for r in (min, max)),
                grads={"self": lambda F, grads, self, dim, keepdim, min, max: _sum_defined([
                    None if grads[0] is None else
                    amax_amin_backward(F, grads[0], self, dim, keepdim, min),
                    None if grads[1] is None else
                    amax_amin_backward(F, grads[1], self, dim, keepdim, max)])},
                    layout="contiguous")


def aminmax(input, *, dim=None, keepdim=False):
    """(min, max) in one op; ties share the gradient evenly."""
    d = input._data
    if d.dtype.kind == "c":
        refuse_complex("aminmax", d.dtype)
    dims = (_wrap_dim(dim, d.ndim, input),) if dim is not None else None
    if dims is not None and d.ndim and d.shape[dims[0]] == 0:
        # (aminmax's meta: the reduced dim must not be empty; other dims may be)
        view_errors_first(input)
        raise IndexError(f"aminmax: Expected reduction dim {dims[0]} to have non-zero size.")
    if d.size == 0 and (dims is None or not d.ndim):
        view_errors_first(input)
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                           "operation has no identity.")
    axis = dims if d.ndim else None
    lo = _asarray(np.min(d, axis=axis, keepdims=keepdim and d.ndim > 0))
    hi = _asarray(np.max(d, axis=axis, keepdims=keepdim and d.ndim > 0))
    if d.dtype.kind in "fV" and d.ndim and ((lo == 0).any() or (hi == 0).any()):
        # (the signs of zero results: without a dim, the all-reduce's of max() and min()
        # (Note [Signed zeros of max() and min()]); along one, a scalar loop keeping the
        # first of equal values)
        if axis is None:
            lo = _max_all_zero(d, lo) if lo == 0 else lo
            hi = _max_all_zero(d, hi) if hi == 0 else hi
        else:
            lo, hi = _first_zero_sign(d, axis, lo), _first_zero_sign(d, axis, hi)
    # (a 0-d input keeps its dim 0: aminmax_backward restores it as a size-1 dim)
    r = _finish_multi(AMINMAX, (input,), (dims, keepdim), (lo, hi))
    return _MinMaxRT(r)


_SELECTED_JVP = (lambda F, self, self_t, result:  # the median: ties share, as backward
                 evenly_read_jvp(F, self, self_t, result))
MEDIAN = defop("median", "MedianBackward0", None, grads={"self": max_min_backward},
               jvp=_SELECTED_JVP)
NANMEDIAN = defop("nanmedian", "NanmedianBackward0", None, grads={"self": max_min_backward},
                  jvp=_SELECTED_JVP)
_DIM_SELECT_JVP = (lambda F, self_t, dim, keepdim, indices:
                   _gather_jvp(F, self_t, dim, keepdim, indices))
_DIM_SELECT = {"self": lambda F, grads, dim, keepdim, indices, self_sizes:
               select_dim_backward(F, grads[0], dim, keepdim, indices, self_sizes)}
MEDIAN_DIM = defop("median", "MedianBackward1", None, params=("dim", "keepdim"),
                   outputs=("values", "indices"), diff_outputs=(0,), grads=_DIM_SELECT,
                   jvp=_DIM_SELECT_JVP, layout="contiguous")
NANMEDIAN_DIM = defop("nanmedian", "NanmedianBackward1", None, params=("dim", "keepdim"),
                      outputs=("values", "indices"), diff_outputs=(0,), grads=_DIM_SELECT,
                      jvp=_DIM_SELECT_JVP, layout="contiguous")
KTHVALUE = defop("kthvalue", "KthvalueBackward0", None, params=("k", "dim", "keepdim"),
                 outputs=("values", "indices"), diff_outputs=(0,), grads=_DIM_SELECT,
                 jvp=_DIM_SELECT_JVP, layout="contiguous")
_MedianRT, _KthvalueRT, _CummaxRT, _CumminRT = (
    _return_type(k) for k in ("median", "kthvalue", "cummax", "cummin"))
_NanmedianRT = _return_type("nanmedian")


def _kth_along(d, dim, k, ignore_nan, quick_select=False):
    """values and indices of the k-th smallest (0-based; NaN sorts last) along dim.

    Which index a tie gives is the kernel's (the tangent and gradient follow it): median's
    std::nth_element orders ties by index (a stable sort), except nanmedian's all-NaN rows,
    whose NaNs are unordered (_all_nan_nth); kthvalue's quick_select_template (quick_select
    =True) leaves tied elements where its partitions put them (_quick_select_index)."""
    idx = np.argsort(d, axis=dim, kind="stable")
    if ignore_nan:
        n_valid = (~np.isnan(d)).sum(axis=dim, keepdims=True)
        k = np.where(n_valid > 0, (n_valid - 1) // 2, 0)
        pick = np.take_along_axis(idx, k, axis=dim)
        if (n_valid == 0).any():
            pick = np.where(n_valid == 0, _all_nan_nth(d.shape[dim]), pick)
    else:
        pick = np.take(idx, [k], axis=dim)
    values = np.take_along_axis(d, pick, axis=dim)
    if quick_select:
        same = (d == values) | (np.isnan(d) & np.isnan(values))
        tied = np.moveaxis(same.sum(axis=dim, keepdims=True) > 1, dim, -1)
        if tied.any():
            rows, pk = np.moveaxis(d, dim, -1), np.moveaxis(pick, dim, -1).copy()
            for r in map(tuple, np.argwhere(tied[..., 0])):
                pk[r] = _quick_select_index(rows[r], k)
            pick = np.moveaxis(pk, -1, dim)
            values = np.take_along_axis(d, pick, axis=dim)  # (the zero picked: its sign)
    return values, pick.astype(np.int64)


def _all_nan_nth(n):
    """The index std::nth_element leaves first among n mutually unordered elements:
    nanmedian of an all-NaN row (aten asks for position 0)."""
    order = list(range(n))
    _nth_element(order, 0, lambda a, b: False)
    return order[0]


def _nan_greatest(a, b):
    """aten's median comparator: a < b, NaN after everything."""
    return a < b or (b != b and a == a)


def _nth_element(v, nth, less=_nan_greatest):
    """libstdc++'s std::nth_element (introselect: median-of-3 partitions, heap select past
    the depth limit, insertion sort of the last <= 3 elements) on the list v, in place.
    Which of tied elements lands at nth is the algorithm's: PyTorch's median() of signed
    zeros, its index of an all-NaN row."""
    first, last = 0, len(v)
    if first == last or nth == last:
        return
    depth = 2 * ((last - first).bit_length() - 1)
    while last - first > 3:
        if depth == 0:
            _heap_select(v, first, nth + 1, last, less)
            v[first], v[nth] = v[nth], v[first]
            return
        depth -= 1
        lo = _partition_pivot(v, first, last, less)
        if lo <= nth:
            first = lo
        else:
            last = lo
    for i in range(first + 1, last):  # __insertion_sort
        val = v[i]
        if less(val, v[first]):
            v[first + 1:i + 1] = v[first:i]
            v[first] = val
        else:
            j = i
            while less(val, v[j - 1]):
                v[j] = v[j - 1]
                j -= 1
            v[j] = val


def _partition_pivot(v, first, last, less):
    """libstdc++'s __unguarded_partition_pivot: the median of v[first + 1], the middle and
    v[last - 1] moved to first, then the partition around it; returns the cut."""
    a, b, c = first + 1, first + (last - first) // 2, last - 1
    if less(v[a], v[b]):
        m = b if less(v[b], v[c]) else (c if less(v[a], v[c]) else a)
    elif less(v[a], v[c]):
        m = a
    elif less(v[b], v[c]):
        m = c
    else:
        m = b
    v[first], v[m] = v[m], v[first]
    lo, hi, piv = first + 1, last, v[first]
    while True:
        while less(v[lo], piv):
            lo += 1
        hi -= 1
        while less(piv, v[hi]):
            hi -= 1
        if not lo < hi:
            return lo
        v[lo], v[hi] = v[hi], v[lo]
        lo += 1


def _heap_adjust(v, base, hole, n, value, less):
    top = hole
    child = hole
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if less(v[base + child], v[base + child - 1]):
            child -= 1
        v[base + hole] = v[base + child]
        hole = child
    if n % 2 == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        v[base + hole] = v[base + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(v[base + parent], value):
        v[base + hole] = v[base + parent]
        hole = parent
        parent = (hole - 1) // 2
    v[base + hole] = value


def _heap_select(v, first, middle, last, less):
    n = middle - first
    if n >= 2:
        parent = (n - 2) // 2
        while True:
            _heap_adjust(v, first, parent, n, v[first + parent], less)
            if parent == 0:
                break
            parent -= 1
    for i in range(middle, last):
        if less(v[i], v[first]):
            value = v[i]
            v[i] = v[first]
            _heap_adjust(v, first, 0, n, value, less)


def _quick_select_index(row, k):
    """The original index aten's quick_select_template (Sedgewick's partition, median of
    three, NaN greatest) leaves at position k of one row."""
    vals, ids = row.tolist(), list(range(len(row)))

    def gt(x, y):  # gt_or_nan
        return (x != x and y == y) or x > y

    def swap(i, j):
        vals[i], vals[j] = vals[j], vals[i]
        ids[i], ids[j] = ids[j], ids[i]

    lo, hi = 0, len(vals) - 1
    while hi > lo:
        if hi == lo + 1:
            if gt(vals[lo], vals[hi]):
                swap(lo, hi)
            break
        swap((lo + hi) >> 1, lo + 1)
        if gt(vals[lo + 1], vals[hi]):
            swap(lo + 1, hi)
        if gt(vals[lo], vals[hi]):
            swap(lo, hi)
        if gt(vals[lo + 1], vals[lo]):
            swap(lo + 1, lo)
        i, j, piv = lo + 1, hi, vals[lo]
        while True:
            i += 1
            while gt(piv, vals[i]):
                i += 1
            j -= 1
            while gt(vals[j], piv):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    return ids[k]


def _refuse_kernel_dtype(kernel, d, complex_=False, bool_=True):
    """A CPU kernel's dispatch error for bool (and complex) data. PyTorch dispatches on the
    dtype after its dim and size checks, so callers run this after theirs."""
    if (bool_ and d.dtype == np.bool_) or (complex_ and d.dtype.kind == "c"):
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{_dtypes.scalar_name(_dtypes.from_numpy(d.dtype))}'")


def _nan_as(dtype):
    """NaN converted to dtype as C++ does on x86 (aten's median of an empty tensor returns
    full({}, NaN).to(dtype)): True for bool; for integers the lowest int64 or int32 (the
    conversion's "invalid" value) truncated to the width, so int8/int16 and unsigned get 0."""
    if dtype == np.bool_:
        return np.array(True)
    if dtype.kind in "iu":
        invalid = np.iinfo(np.int64 if dtype.itemsize == 8 else np.int32).min
        return np.array(0 if dtype.kind == "u" else invalid).astype(dtype)
    return np.array(np.nan, dtype)


def _signed_zeros(a):
    zeros = a[a == 0]
    return zeros.size > 1 and np.signbit(zeros).any() and not np.signbit(zeros).all()


def _median_in_memory(d, ignore_nan):
    """median() / nanmedian() as aten computes it when zeros of both signs tie: on a clone
    (memory order when d is dense, as its strides are kept) partitioned by nth_element."""
    dense = is_non_overlapping_and_dense(d.shape, _elem_strides(d))
    v = np.ravel(d, order="K" if dense else "C").tolist()
    n_valid = len(v) - (int(np.isnan(d).sum()) if ignore_nan else 0)
    k = _py_max((n_valid - 1) // 2, 0)  # (C++'s division truncates: an all-NaN tensor asks for 0)
    _nth_element(v, k)
    return np.array(v[k], d.dtype)


def _median(name, op, op_dim, rt, ignore_nan, input, dim, keepdim):
    d = input._data
    if dim is None:
        flat = d.reshape(-1)
        if flat.size == 0:  # (before the dtype dispatch: bool gets True)
            return _finish(op, (input,), (), _asarray(_nan_as(d.dtype)))
        _refuse_kernel_dtype("median_cpu", d, complex_=True)
        if not ignore_nan and d.dtype.kind in "fV" and np.isnan(flat).any():
            v = np.array(np.nan, d.dtype)
        else:
            v = _kth_along(flat, 0, (flat.size - 1) // 2, ignore_nan)[0].reshape(())
            if v == 0 and d.dtype.kind in "fV" and _signed_zeros(flat):
                v = _median_in_memory(d, ignore_nan)
        return _finish(op, (input,), (), _asarray(v))
    dim = _wrap_dim(dim, d.ndim, input)
    if d.ndim and d.shape[dim] == 0:  # (nanmedian's message names median too)
        view_errors_first(input)
        raise IndexError(f"median(): Expected reduction dim {dim} to have non-zero size.")
    _refuse_kernel_dtype("median_out", d, complex_=True)  # (a 0-d tensor's too)
    if d.ndim == 0:
        values, indices = d.copy(), np.zeros((), np.int64)
    else:
        values, indices = _kth_along(d, dim, (d.shape[dim] - 1) // 2, ignore_nan)
        if not ignore_nan and d.dtype.kind in "fV":
            nan = np.isnan(d)
            has = nan.any(axis=dim, keepdims=True)
            first = np.argmax(nan, axis=dim).reshape(has.shape)
            values = np.where(has, np.nan, values).astype(d.dtype, copy=False)
            indices = np.where(has, first, indices)
        if not keepdim:
            values, indices = np.squeeze(values, dim), np.squeeze(indices, dim)
    v, i = _finish_multi(op_dim, (input,), (dim, keepdim), (_asarray(values), _asarray(indices)))
    return rt(v, i, None)


def median(input, dim=_NO_DIM, keepdim=False):
    """The lower median (of the whole tensor, or along dim with its index)."""
    if keepdim is not False:
        _argparse.bools(keepdim)
    if dim.__class__ is not int:
        if dim is None:  # (an explicit None: median(int dim) takes none)
            raise _argparse.wrong_type("median", "dim")
        if dim is _NO_DIM:
            dim = None
    return _median("median", MEDIAN, MEDIAN_DIM, _MedianRT, False, input, dim, keepdim)


def nanmedian(input, dim=None, keepdim=False):
    """median ignoring NaN."""
    return _median("nanmedian", NANMEDIAN, NANMEDIAN_DIM, _NanmedianRT, True, input, dim,
                   keepdim)


def kthvalue(input, k, dim=-1, keepdim=False):
    """The k-th smallest element along dim (1-based k) and its index."""
    _argparse.ints(k)
    if keepdim is not False:
        _argparse.bools(keepdim)
    d = input._data
    dim_ = _wrap_dim(dim, d.ndim, input)
    if d.ndim and d.shape[dim_] == 0:  # (before the k and dtype checks)
        view_errors_first(input)
        raise IndexError(f"kthvalue(): Expected reduction dim {dim_} to have non-zero size.")
    dim = dim_
    n = d.shape[dim] if d.ndim else 1
    if not 1 <= k <= n:
        view_errors_first(input)
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {dim}")
    if d.ndim == 0:  # (copied without the kernel: any dtype)
        values, indices = d.copy(), np.zeros((), np.int64)
    else:
        _refuse_kernel_dtype("kthvalue_cpu", d, complex_=True)
        values, indices = _kth_along(d, dim, k - 1, False, quick_select=True)
        if not keepdim:
            values, indices = np.squeeze(values, dim), np.squeeze(indices, dim)
    v, i = _finish_multi(KTHVALUE, (input,), (k, dim, keepdim),
                         (_asarray(values), _asarray(indices)))
    return _KthvalueRT(v, i, None)


_CUM_SCATTER = {"self": lambda F, grads, dim, indices, self: self if not _numel(self.shape) else
                F.scatter_add(F.zeros(tuple(self.shape), grads[0]), dim, indices, grads[0])}
# (cummaxmin_backward returns an empty input itself: with create_graph, its history too)
_CUM_JVP = (lambda F, self_t, dim, indices: _gather_jvp(F, self_t, dim, True, indices))
CUMMAX = defop("cummax", "CummaxBackward0", None, params=("dim",),
               outputs=("values", "indices"), diff_outputs=(0,), grads=_CUM_SCATTER,
               jvp=_CUM_JVP, layout="contiguous")
CUMMIN = defop("cummin", "CumminBackward0", None, params=("dim",),
               outputs=("values", "indices"), diff_outputs=(0,), grads=_CUM_SCATTER,
               jvp=_CUM_JVP, layout="contiguous")


def _cum_extreme(op, rt, better, input, dim):
    d = input._data
    if d.ndim == 0 and dim not in (-1, 0):
        raise IndexError(f"{op.name}(): Expected reduction dim -1 or 0 for scalar but got {dim}")
    if d.ndim and not d.size:  # aten's cummax_out wraps dim only for a non-empty tensor
        dim = dim.__index__()
        values, indices = d.copy(), np.zeros(d.shape, np.int64)
        v, i = _finish_multi(op, (input,), (dim,), (_asarray(values), _asarray(indices)))
        return rt(v, i, None)
    dim = _wrap_dim(dim, d.ndim, input)
    if d.ndim == 0:
        values, indices = d.copy(), np.zeros((), np.int64)
    else:
        _refuse_kernel_dtype(f"{op.name}_cpu", d, complex_=True, bool_=False)
        x = np.moveaxis(d, dim, -1)
        values = np.empty(x.shape, x.dtype)
        indices = np.zeros(x.shape, np.int64)
        if x.shape[-1]:
            best, at = x[..., 0].copy(), np.zeros(x.shape[:-1], np.int64)
            for j in range(x.shape[-1]):
                xj = x[..., j]
                # a NaN stays once seen; ties move the index forward (as PyTorch)
                take = better(xj, best) | (xj == best) | np.isnan(xj)
                take &= ~(np.isnan(best) & ~np.isnan(xj))
                best = np.where(take, xj, best)
                at = np.where(take, j, at)
                values[..., j], indices[..., j] = best, at
        if dim != d.ndim - 1:  # (contiguous as PyTorch's: matmul's fold reads the strides)
            values = np.moveaxis(values, -1, dim).copy()
            indices = np.moveaxis(indices, -1, dim).copy()
    v, i = _finish_multi(op, (input,), (dim,), (_asarray(values), _asarray(indices)))
    return rt(v, i, None)


@view_errors_before_checks
def cummax(input, dim):
    """Running maximum along dim, with the index where it was reached."""
    return _cum_extreme(CUMMAX, _CummaxRT, np.greater, input, dim)


@view_errors_before_checks
def cummin(input, dim):
    """Running minimum along dim, with the index where it was reached."""
    return _cum_extreme(CUMMIN, _CumminRT, np.less, input, dim)


def count_nonzero(input, dim=None):
    d = input._data
    dims = _dims(dim, d.ndim) if dim is not None else None  # (validated for a 0-d too)
    if not d.ndim:
        dims = None  # dim 0 of a 0-d tensor is the tensor itself
    return _make(_asarray(np.count_nonzero(d, axis=dims)).astype(np.int64))


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """Forward differences along dim, n times (narrow and sub, recorded as PyTorch does)."""
    from .pointwise import logical_xor, sub
    from .shape import cat, narrow
    d = input._data
    if d.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    for other in (prepend, append):
        if other is not None:
            _diff_check_shape(d, other, dim)
    if n == 0:
        # aten's diff_helper: zeros_like(self).copy_(self), prepend/append unused (so version
        # 1 and CopyBackwards, the tangent copied, no dim check)
        from .._creation import zeros_like
        return zeros_like(input).copy_(input)
    dim = _wrap_dim(dim, d.ndim)
    if prepend is not None or append is not None:
        input = cat([x for x in (prepend, input, append) if x is not None], dim)
    for _ in range(n):
        size = input._data.shape[dim]
        if size == 0:
            break
        # (aten's narrow(1) - narrow(0) with its operands evaluated right to left, as GCC
        # does: the second slice is recorded first, so x's two gradients sum in its order)
        b = narrow(input, dim, 0, size - 1)
        a = narrow(input, dim, 1, size - 1)
        input = logical_xor(a, b) if input._data.dtype == np.bool_ else sub(a, b)
    return input


# ---- gradient (aten's ReduceOps.cpp: central differences inside, one-sided at the edges) --
def _slice_dim(t, dim, start, end=None):
    """``at::slice(t, dim, start, end)``: one SliceBackward0."""
    return t[(builtins.slice(None),) * dim + (builtins.slice(start, end),)]


def _check_gradient(self, spacing_size, dims, edge_order):
    """aten's pre_check_gradient."""
    d = self._data
    if d.dtype == np.uint8:
        raise RuntimeError("torch.gradient does not support uint8 input.")
    if spacing_size is not None and dims is None and spacing_size != d.ndim:
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar, or a "
                           f"list of length equal to 'self.dim() = {d.ndim}', since dim argument "
                           f"was not given, but got a list of length {spacing_size}")
    if spacing_size is not None and dims is not None and spacing_size != len(dims):
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar or it's "
                           f"spacing and dim arguments to have the same length, but got a "
                           f"spacing argument of length {spacing_size} and a dim argument of "
                           f"length {len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    if dims is not None:
        wrapped = [_wrap_dim(x, d.ndim) for x in dims]  # (dim_list_to_bitset: [-1, 0] for 0-d)
        for w in wrapped:
            if wrapped.count(w) > 1:
                raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
    for x in (dims if dims is not None else builtins.range(d.ndim)):
        if d.ndim == 0:  # (self.size(dim): maybe_wrap_dim without wrap_scalar)
            raise IndexError(f"Dimension specified as {x} but tensor has no dimensions")
        if d.shape[x] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least "
                               "edge_order+1")


def _gradient_scalar(self, spacing, dims, edge_order):
    """Uniform spacing per dim (gradient_helper_float)."""
    from .shape import cat
    result = []
    for ax_dx, dim in zip(spacing, dims):
        dim = _wrap_dim(dim, self._data.ndim)
        s = functools.partial(_slice_dim, self, dim)
        center = (s(2) - s(0, -2)) / ax_dx
        if edge_order == 1:
            prepend = (s(1, 2) - s(0, 1)) / ax_dx
            append = (s(-1) - s(-2, -1)) / ax_dx
        else:
            prepend = (-1.5 * s(0, 1) + 2 * s(1, 2) - 0.5 * s(2, 3)) / ax_dx
            append = (0.5 * s(-3, -2) - 2 * s(-2, -1) + 1.5 * s(-1)) / ax_dx
        result.append(cat([prepend, center / 2, append], dim))
    return tuple(result)


def _gradient_coordinates(self, coordinates, dims, edge_order):
    """Spacing given as each dim's coordinates (gradient_helper: nonuniform differences)."""
    from .shape import cat
    result = []
    for coords, dim in zip(coordinates, dims):
        if coords._data.ndim != 1:
            raise RuntimeError(f"torch.gradient expected each element of spacing to have one "
                               f"dimension, but got an element with {coords._data.ndim} "
                               f"dimensions!")
        dim = _wrap_dim(dim, self._data.ndim)
        shape = [1] * self._data.ndim
        shape[dim] = -1
        ax_dx = diff(coords, 1, 0)
        dx1, dx2 = _slice_dim(ax_dx, 0, 0, -1), _slice_dim(ax_dx, 0, 1)
        a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
        b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
        c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
        s = functools.partial(_slice_dim, self, dim)
        center = a * s(0, -2) + b * s(1, -1) + c * s(2)
        if edge_order == 1:
            prepend = (s(1, 2) - s(0, 1)) / ax_dx[0]
            append = (s(-1) - s(-2, -1)) / ax_dx[-1]
        else:
            a = -(2.0 * ax_dx[0] + ax_dx[1]) / (ax_dx[0] * (ax_dx[0] + ax_dx[1]))
            b = (ax_dx[0] + ax_dx[1]) / (ax_dx[0] * ax_dx[1])
            c = (-ax_dx[0]) / (ax_dx[1] * (ax_dx[0] + ax_dx[1]))
            prepend = a * s(0, 1) + b * s(1, 2) + c * s(2, 3)
            a = ax_dx[-1] / (ax_dx[-2] * (ax_dx[-1] + ax_dx[-2]))
            b = -(ax_dx[-1] + ax_dx[-2]) / (ax_dx[-1] * ax_dx[-2])
            c = (2 * ax_dx[-1] + ax_dx[-2]) / (ax_dx[-1] * (ax_dx[-1] + ax_dx[-2]))
            append = a * s(-3, -2) + b * s(-2, -1) + c * s(-1)
        result.append(cat([prepend, center, append], dim))
    return tuple(result)


def gradient(input, *, spacing=None, dim=None, edge_order=1):
    """Derivative estimates along each dim in ``dim`` (all by default): a tuple of tensors.
    ``spacing``: a number (uniform), a list of numbers (one per dim), or a list of 1-d
    coordinate tensors (PyTorch's seven overloads). Computed as aten's C++ composite: its
    numbers are Scalar arguments (DivBackward1, MulBackward1), as in a backward formula."""
    prev, _state.in_formula = _state.in_formula, True
    try:
        return _gradient(input, spacing, dim, edge_order)
    finally:
        _state.in_formula = prev


def _gradient(input, spacing, dim, edge_order):
    dims = None if dim is None else [dim] if isinstance(dim, int) else list(dim)
    processed = dims if dims is not None else list(builtins.range(input._data.ndim))
    if isinstance(spacing, (list, tuple)) and spacing and isinstance(spacing[0], Tensor):
        _check_gradient(input, len(spacing), dims, edge_order)
        return _gradient_coordinates(input, spacing, processed, edge_order)
    if isinstance(spacing, (list, tuple)):
        _check_gradient(input, len(spacing), dims, edge_order)
        return _gradient_scalar(input, list(spacing), processed, edge_order)
    if spacing is None and isinstance(dim, (list, tuple)):
        _check_gradient(input, len(dims), dims, edge_order)
        return _gradient_scalar(input, [1.0] * len(dims), dims, edge_order)
    unit = 1.0 if spacing is None else spacing
    values = [unit] * len(processed)
    _check_gradient(input, None if spacing is None else len(values), dims, edge_order)
    return _gradient_scalar(input, values, processed, edge_order)


def _diff_check_shape(d, other, dim):
    if other.dim() != d.ndim:
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    dim = _wrap_dim(dim, d.ndim)
    for i, (a, b) in enumerate(zip(d.shape, other.shape)):
        if a != b and i != dim:
            raise RuntimeError(
                "diff expects the shape of tensor to prepend or append to match that of input "
                f"except along the differencing dimension; input.size({i}) = {a}, but got "
                f"tensor.size({i}) = {b}")


# ---- the catalogue: mode, quantiles, unique, search and counting, renorm, cov (issue 11) ----
MODE = defop("mode", "ModeBackward0", None, params=("dim", "keepdim"),
             outputs=("values", "indices"), diff_outputs=(0,), grads=_DIM_SELECT,
             jvp=_DIM_SELECT_JVP, layout="contiguous")
_ModeRT = _return_type("mode")


def _pair_less(x, y):
    return x[0] < y[0]


def _std_sort_pairs(a, less=_pair_less):
    """libstdc++'s std::sort of (value, index) pairs by value with ``less`` (default
    ``<``), step for step: introsort (median-of-3 pivot, heapsort past the depth limit),
    then insertion sort in runs of 16. It is not stable, and NaN (never less, never
    greater with ``<``) stays where the steps leave it: mode's kernel sorts this way, so
    its run of equal values ends at the same index as PyTorch's; sort's and topk's
    (Note [Ties of sort and topk])."""

    def heap_sort(first, last):
        n = last - first
        for parent in range((n - 2) // 2, -1, -1):
            _heap_adjust(a, first, parent, n, a[first + parent], less)
        while last - first > 1:
            last -= 1
            value = a[last]
            a[last] = a[first]
            _heap_adjust(a, first, 0, last - first, value, less)

    def introsort(first, last, depth):
        while last - first > 16:
            if depth == 0:
                heap_sort(first, last)
                return
            depth -= 1
            lo = _partition_pivot(a, first, last, less)
            introsort(lo, last, depth)
            last = lo

    def linear_insert(i, floor):
        value = a[i]
        while i > floor and less(value, a[i - 1]):
            a[i] = a[i - 1]
            i -= 1
        a[i] = value

    n = len(a)
    if n < 2:
        return a
    introsort(0, n, 2 * (n.bit_length() - 1))
    for i in range(1, n):
        if i < 16 and less(a[i], a[0]):
            a.insert(0, a.pop(i))
        else:
            linear_insert(i, 0)
    return a


def _mode_1d(row):
    """The most frequent value of a 1-d array (the smallest among ties) and the index where
    its run ends after PyTorch's CPU kernel sorts (std::sort, then runs compared with ==:
    each NaN is a run of its own). A stable sort gives the same runs when nothing can
    reorder them: no NaN, and 16 elements or fewer or no repeated value."""
    if (row.dtype.kind in "fcV" and np.isnan(row).any()) or (
            row.size > 16 and np.unique(row).size < row.size):
        pairs = _std_sort_pairs([(v, i) for i, v in enumerate(row.tolist())])
        best_end, best, run = 0, 0, 0
        for k in range(len(pairs)):
            run += 1
            if k == len(pairs) - 1 or pairs[k][0] != pairs[k + 1][0]:
                if run > best:
                    best, best_end = run, k
                run = 0
        return row[pairs[best_end][1]], pairs[best_end][1]
    order = np.argsort(row, kind="stable")
    s = row[order]
    new = np.ones(s.shape, dtype=bool)
    new[1:] = s[1:] != s[:-1]
    starts = np.flatnonzero(new)
    lengths = np.diff(np.append(starts, s.size))
    best = int(np.argmax(lengths))
    end = starts[best] + lengths[best] - 1
    return s[end], order[end]


def mode(input, dim=-1, keepdim=False):
    """The most frequent value along dim and the index of its last occurrence."""
    if keepdim is not False:
        _argparse.bools(keepdim)
    d = input._data
    dim = _wrap_dim(dim, d.ndim, input)
    if d.ndim == 0:
        values, indices = d.copy(), np.zeros((), np.int64)
    else:
        if d.shape[dim] == 0:
            view_errors_first(input)
            raise IndexError(f"mode(): Expected reduction dim {dim} to have non-zero size.")
        if d.size:
            _refuse_kernel_dtype("mode_cpu", d, complex_=True, bool_=False)
        moved = np.moveaxis(d, dim, -1)
        rows = moved.reshape(-1, moved.shape[-1])
        values = np.empty(rows.shape[0], d.dtype)
        indices = np.empty(rows.shape[0], np.int64)
        for n, row in enumerate(rows):
            values[n], indices[n] = _mode_1d(row)
        values = values.reshape(moved.shape[:-1])
        indices = indices.reshape(moved.shape[:-1])
        if keepdim:
            values, indices = np.expand_dims(values, dim), np.expand_dims(indices, dim)
    v, i = _finish_multi(MODE, (input,), (dim, keepdim), (_asarray(values), _asarray(indices)))
    return _ModeRT(v, i, None)


def msort(input):
    return sort(input, 0)[0]


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(name, ignore_nan, input, q, dim, keepdim, interpolation):
    """PyTorch's quantile_compute: sort, gather the neighbours of each rank, lerp_ them, and
    move q's dim first with in-place views (the graph PyTorch records)."""
    from .shape import flatten, squeeze_, transpose, transpose_, unsqueeze, unsqueeze_, view
    from .indexing import gather
    from .pointwise import lerp_
    d = input._data
    qt = q if isinstance(q, Tensor) else None
    if d.size == 0:
        raise RuntimeError(f"{name}() input tensor must be non-empty")
    if qt is not None and qt._data.ndim > 1:
        raise RuntimeError(f"{name}() q must be a scalar or 1D tensor")
    if d.dtype not in (np.float32, np.float64):
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    if qt is not None and qt._data.dtype != d.dtype:
        raise RuntimeError(f"{name}() q tensor must be same dtype as the input tensor")
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(f"{name}() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest, but got {interpolation}")
    if qt is None:
        if not 0 <= q <= 1:
            raise RuntimeError(f"{name}() q must be in the range [0, 1] but got {q}")
        qa = np.asarray([q], dtype=d.dtype)
    else:
        qa = qt._data.reshape(-1)
        if qa.size and not ((qa >= 0) & (qa <= 1)).all():
            raise RuntimeError(f"{name}() q values must be in the range [0, 1]")
    scalar_q = qt is None or qt._data.ndim == 0
    wdim = _wrap_dim(dim, d.ndim) if dim is not None else None
    if dim is not None and d.ndim > 0:
        out_shape = list(d.shape)
        if keepdim:
            out_shape[wdim] = 1
        else:
            del out_shape[wdim]
    else:
        out_shape = [1] * d.ndim if keepdim else []
    out_shape.insert(0, qa.size)
    if dim is None:
        s = sort(flatten(input))[0]
    elif wdim == d.ndim - 1:
        s = sort(input)[0]
    else:
        s = sort(transpose(unsqueeze(input, -1), wdim, -1))[0]
    in_shape = out_shape[1:] + [s._data.shape[-1]]
    s = view(s, tuple(in_shape))
    sd = s._data
    last = sd.shape[-1] - 1
    nan = np.isnan(sd)
    if ignore_nan:
        ranks = qa * ((~nan).sum(-1, keepdims=True) - 1)
        ranks = np.where(ranks < 0, 0, ranks)
    else:
        ranks = np.where(nan.any(-1, keepdims=True), last, qa * last)
    ranks = ranks.astype(d.dtype)
    if interpolation == "lower":
        ranks = np.floor(ranks)
    elif interpolation == "higher":
        ranks = np.ceil(ranks)
    elif interpolation == "nearest":
        ranks = np.round(ranks)
    below = ranks.astype(np.int64)
    values = gather(s, -1, _make(below))
    if interpolation in ("linear", "midpoint"):
        weights = np.full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below
        above = gather(s, -1, _make(np.ceil(ranks).astype(np.int64)))
        lerp_(values, above, _make(weights.astype(d.dtype)))
    if scalar_q:
        return squeeze_(values, -1)
    return squeeze_(transpose_(unsqueeze_(values, 0), 0, -1), -1)


def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile("quantile", False, input, q, dim, keepdim, interpolation)


def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile("quantile", True, input, q, dim, keepdim, interpolation)  # (its wording)


def _unique_along(d, dim, sorted_, return_inverse, return_counts, consecutive):
    if dim is None:
        flat = d.reshape(-1)
        if consecutive:
            new = np.ones(flat.shape, dtype=bool)
            new[1:] = flat[1:] != flat[:-1]
            values = flat[new]
            inverse = (np.cumsum(new) - 1).reshape(d.shape)
            starts = np.flatnonzero(new)
            counts = np.diff(np.append(starts, flat.size))
        else:
            ties = flat.dtype.kind in "fV" and flat.size <= _TIE_STEPS_MAX and (
                np.isnan(flat).any() or _mixed_zeros(flat))
            values, inverse, counts = (_unique_in_sort_steps(flat) if ties else np.unique(
                flat, return_inverse=True, return_counts=True, equal_nan=False))
            inverse = inverse.reshape(d.shape)
        return values, inverse.astype(np.int64), counts.astype(np.int64)
    moved = np.moveaxis(d, dim, 0)
    rows = moved.reshape(moved.shape[0], -1)
    if consecutive:
        new = np.ones(rows.shape[0], dtype=bool)
        new[1:] = (rows[1:] != rows[:-1]).any(axis=1)
        picked = rows[new]
        inverse = np.cumsum(new) - 1
        counts = np.diff(np.append(np.flatnonzero(new), rows.shape[0]))
    else:
        picked, inverse, counts = np.unique(rows, axis=0, return_inverse=True,
                                            return_counts=True)
    values = np.moveaxis(picked.reshape((picked.shape[0],) + moved.shape[1:]), 0, dim)
    return values, inverse.reshape(-1).astype(np.int64), counts.astype(np.int64)


def _unique_in_sort_steps(flat):
    """unique() of values holding NaNs or both zeros as PyTorch's CPU kernel: std::sort of
    (value, index) pairs with NaN largest (Note [Ties of sort and topk]), then runs of
    equal values (each NaN its own): the zero kept is the first of its run, the NaNs'
    inverse indices follow the sort's steps."""
    values = flat.astype(np.float64) if flat.dtype.kind == "V" else flat
    pairs = _std_sort_pairs(list(zip(values.tolist(), range(flat.size))),
                            _key_value_less(False))
    order = np.array([i for _, i in pairs], np.int64)
    s = flat[order]
    new = np.ones(s.size, bool)
    new[1:] = s[1:] != s[:-1]
    inverse = np.empty(s.size, np.int64)
    inverse[order] = np.cumsum(new) - 1
    return s[new], inverse, np.diff(np.append(np.flatnonzero(new), s.size))


_NOT_YET = (" because it has not been implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so "
            "that we can prioritize its implementation or submit a PR adding the "
            "implementation to derivatives.yaml")


def _no_derivative(name):
    """A node PyTorch records but cannot differentiate (its backward raises)."""
    def formula(F, grad):
        raise RuntimeError(f"the derivative for '{name}' is not implemented.")

    def jvp(F, self):
        raise NotImplementedError(f"Trying to use forward AD with {name} that does not "
                                  f"support it{_NOT_YET}")
    return {"grads": {"self": formula}, "jvp": jvp}


UNIQUE2, UNIQUE_DIM, UNIQUE_CONSECUTIVE = (
    defop(name, node, None, outputs=("output", "inverse", "counts"), diff_outputs=(0,),
          **_no_derivative(name))
    for name, node in (("_unique2", "Unique2Backward0"), ("unique_dim", "UniqueDimBackward0"),
                       ("unique_consecutive", "UniqueConsecutiveBackward0")))


def _unique_result(op, input, values, inverse, counts, return_inverse, return_counts):
    d = input._data
    values = np.ascontiguousarray(values).astype(d.dtype, copy=False)
    v, i, c = _finish_multi(op, (input,), (), (values, inverse, counts))
    out = [v]
    if return_inverse:
        out.append(i)
    if return_counts:
        out.append(c)
    return out[0] if len(out) == 1 else tuple(out)


def _unique_dim(dim, ndim):
    if not ndim:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return _wrap_dim(dim, ndim)


@view_errors_before_checks
def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct values (sorted, as PyTorch's CPU kernel always gives them)."""
    d = input._data
    if d.dtype.kind == "c":
        refuse_complex("unique", d.dtype)
    if dim is not None:
        dim = _unique_dim(dim, d.ndim)
    v, i, c = _unique_along(d, dim, sorted, return_inverse, return_counts, False)
    op = UNIQUE2 if dim is None else UNIQUE_DIM
    return _unique_result(op, input, v, i, c, return_inverse, return_counts)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    d = input._data
    if d.dtype.kind == "c":
        refuse_complex("unique", d.dtype)
    if dim is not None:
        dim = _unique_dim(dim, d.ndim)
    v, i, c = _unique_along(d, dim, False, return_inverse, return_counts, True)
    return _unique_result(UNIQUE_CONSECUTIVE, input, v, i, c, return_inverse, return_counts)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None,
                 sorter=None):
    b = sorted_sequence._data
    scalar = not isinstance(input, Tensor)
    if scalar and not isinstance(input, (int, float, complex, np.generic)):  # (a list, None:
        raise _argparse.wrong_type("searchsorted", "input")  # the parser's refusal, Note
        # [Argument errors on the exception path] in _argparse.py)
    v = np.asarray(input, dtype=b.dtype) if scalar else input._data
    if v.dtype.kind == "c" or b.dtype.kind == "c":
        refuse_complex("searchsorted", np.result_type(v, b))
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but "
                               f"got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to "
                               "opposites, got side of left while right was True")
        right = side == "right"
    if v.ndim == 0 and b.ndim != 1:
        raise RuntimeError(f"torch.searchsorted(): input value can be a scalar only when "
                           f"boundaries tensor dimension is 1, but we got boundaries tensor "
                           f"dim({b.ndim}) and input value's dim(0) numel(1)")
    if b.ndim == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive "
                           "dimension, but got 0 dimension")
    if b.ndim > 1 and (scalar or v.ndim != b.ndim or v.shape[:-1] != b.shape[:-1]):
        raise RuntimeError(
            f"torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
            f"dimensions of boundaries tensor and input value tensor must match, but we got "
            f"boundaries tensor [{_errors.shape_str(b.shape)}] and input value tensor "
            f"[{_errors.shape_str(v.shape)}]")
    if sorter is not None:
        b = np.take_along_axis(b, sorter._data, -1)
    how = "right" if right else "left"
    if b.ndim <= 1:
        res = np.searchsorted(b, v, side=how)
    else:
        rows = math.prod(b.shape[:-1])  # (not -1: an empty last dim leaves it unknown)
        bb = b.reshape(rows, b.shape[-1])
        vv = v.reshape(rows, v.shape[-1])
        res = np.array([np.searchsorted(r, w, side=how) for r, w in zip(bb, vv)],
                       np.int64).reshape(v.shape)
    return _make(_asarray(res).astype(np.int32 if out_int32 else np.int64))


def bucketize(input, boundaries, *, out_int32=False, right=False):
    if boundaries._data.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim("
                           f"{boundaries._data.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


def histc(input, bins=100, min=0, max=0):
    d = input._data
    if d.dtype.kind == "c" and float(min) == float(max):  # (its range from aminmax first)
        raise NotImplementedError(f"\"aminmax_cpu\" not implemented for "
                                  f"'{_dtypes.scalar_name(input.dtype)}'")
    if d.dtype.kind not in "f":
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for "
                                  f"'{_dtypes.legacy_type_name(input.dtype)[6:-6]}'")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                           f"dimension 0")
    lo, hi = float(min), float(max)
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    if lo == hi and d.size:
        lo, hi = float(d.min()), float(d.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    flat = d.reshape(-1)
    flat = flat[(flat >= lo) & (flat <= hi)]
    idx = ((flat - lo) * bins / (hi - lo)).astype(np.int64)
    idx = np.minimum(idx, bins - 1)
    return _make(np.bincount(idx, minlength=bins).astype(d.dtype))


# ---- histogram, histogramdd (aten's Histogram.cpp) ----------------------------------------
def _histogram_op(name, inputs, outputs):
    return defop(name, "torch::autograd::NotImplemented", None, inputs=inputs, outputs=outputs,
                 backward_all=lambda F, grads, *saved: _not_implemented(name)(F, grads),
                 jvp=_fw_not_implemented(f"aten::{name}"))


HISTOGRAM = _histogram_op("histogram", ("self",), ("hist", "bin_edges"))
HISTOGRAM_BINS = _histogram_op("histogram", ("self", "bins"), ("hist", "bin_edges"))
HISTOGRAMDD_CTS = _histogram_op("_histogramdd_from_bin_cts", ("self",), ("result",))
HISTOGRAMDD_TENSORS = _histogram_op("_histogramdd_from_bin_tensors", ("self",), ("result",))
HISTOGRAMDD_EDGES = _histogram_op("_histogramdd_bin_edges", ("self",), None)
_HistogramRT = _named_result("histogram", ("hist", "bin_edges"))
_HistogramddRT = _named_result("histogramdd", ("hist", "bin_edges"))


def _histogramdd_edges(name, input, bins, range, weight):
    """aten's histogramdd_check_inputs and select_outer_bin_edges: the checks in its order,
    then each dim's edges (linspace over [min, max] or ``range``, widened by 1/2 each side
    when empty)."""
    d = input._data
    if d.ndim < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    n = d.shape[-1]
    if d.dtype.kind != "f" or d.dtype.itemsize < 4:
        raise NotImplementedError(f"\"histogramdd\" not implemented for "
                                  f"'{_dtypes.legacy_type_name(input.dtype)[6:-6]}'")
    if len(bins) != n:
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost "
                           "dimension of the input.")
    if weight is not None and tuple(weight.shape) != tuple(d.shape[:-1]):
        raise RuntimeError(f"torch.histogramdd: if weight tensor is provided it should have the "
                           f"same shape as the input tensor excluding its innermost dimension, "
                           f"but got input with shape {list(d.shape)} and weight with shape "
                           f"{list(weight.shape)}")
    if isinstance(bins[0], Tensor):
        for i, b in enumerate(bins):
            if b._data.dtype != d.dtype:
                raise RuntimeError(
                    f"torch.histogramdd: input tensor and bins tensors should have the same "
                    f"dtype, but got input with dtype {_C_TYPE[d.dtype.name]} and bins for "
                    f"dimension {i} with dtype {_C_TYPE[b._data.dtype.name]}")
        return [b._data for b in bins]
    for i, ct in enumerate(bins):
        if ct <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {ct} for "
                               f"dimension {i}")
    flat = d.reshape(-1, n)
    if range is not None:
        if len(range) != 2 * n:
            raise RuntimeError(f"torch.histogramdd: for a {n}-dimensional histogram range should "
                               f"have {2 * n} elements, but got {len(range)}")
        lo, hi = [float(r) for r in range[0::2]], [float(r) for r in range[1::2]]
    elif flat.shape[0]:
        lo, hi = [float(v) for v in flat.min(0)], [float(v) for v in flat.max(0)]
    else:
        lo, hi = [0.0] * n, [1.0] * n
    from .._creation import linspace
    edges = []
    for i in builtins.range(n):
        if not (math.isfinite(lo[i]) and math.isfinite(hi[i])):
            raise RuntimeError(f"torch.histogramdd: dimension {i}'s range [{_fmt_num(lo[i])}, "
                               f"{_fmt_num(hi[i])}] is not finite")
        if lo[i] > hi[i]:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min "
                               f"{_fmt_num(lo[i])} max {_fmt_num(hi[i])} for dimension {i}")
        if lo[i] == hi[i]:
            lo[i], hi[i] = lo[i] - 0.5, hi[i] + 0.5
        edges.append(linspace(lo[i], hi[i], int(bins[i]) + 1, dtype=input.dtype)._data)
    return edges


_C_TYPE = {"float32": "float", "float64": "double", "float16": "c10::Half",
           "bfloat16": "c10::BFloat16"}


def _fmt_num(v):
    """A double as C++ streams it (``1``, ``0.5``, ``inf``)."""
    if not math.isfinite(v):
        return "nan" if v != v else ("inf" if v > 0 else "-inf")
    return repr(int(v)) if v == int(v) and abs(v) < 1e16 else f"{v:g}"


def _histogramdd_counts(d, edges, weight, density):
    """Each row lands in the bin whose edges hold it (the last edge inclusive; rows outside
    any dim's outer edges are dropped), counts or weights summed in the input's dtype."""
    n = d.shape[-1]
    flat = d.reshape(-1, n)
    keep = np.ones(flat.shape[0], dtype=bool)
    idx = []
    for i in builtins.range(n):
        e = edges[i]
        col = flat[:, i]
        keep &= (col >= e[0]) & (col <= e[-1])
        pos = np.searchsorted(e, col, side="right") - 1
        idx.append(np.where(pos == len(e) - 1, pos - 1, pos))
    shape = tuple(builtins.max(len(e) - 1, 0) for e in edges)
    hist = np.zeros(shape, dtype=d.dtype)
    w = np.ones(flat.shape[0], dtype=d.dtype) if weight is None else \
        weight._data.reshape(-1).astype(d.dtype)
    if keep.any():
        np.add.at(hist, tuple(ix[keep] for ix in idx), w[keep])
    if density:
        hist = hist / d.dtype.type(hist.sum(dtype=np.float64))
        for i, e in enumerate(edges):
            lengths = np.diff(e)
            hist = hist / lengths.reshape([-1 if j == i else 1 for j in builtins.range(n)])
        hist = hist.astype(d.dtype)
    return hist


def histogram(input, bins=100, *, range=None, weight=None, density=False):
    """(hist, bin_edges): ``bins`` equal bins over [min, max] (or ``range``), or the edges
    given as a tensor."""
    as_edges = isinstance(bins, Tensor)
    if as_edges and bins._data.ndim != 1:
        raise RuntimeError(f"torch.histogram(): bins tensor should have one dimension, but got "
                           f"{bins._data.ndim} dimensions")
    col = input.reshape(-1, 1)
    w = None if weight is None else weight.reshape(-1) if \
        tuple(weight.shape) == tuple(input.shape) else weight
    edges = _histogramdd_edges("histogram", col, [bins] if as_edges else [bins],
                               None if range is None else list(range), w)
    hist = _histogramdd_counts(col._data, edges, w, density)
    op = HISTOGRAM_BINS if as_edges else HISTOGRAM
    inputs = (input, bins) if as_edges else (input,)
    hist, edges_t = _finish(op, inputs, (), (hist, edges[0].copy()))
    return _HistogramRT(hist, edges_t)


def histogramdd(input, bins=10, *, range=None, weight=None, density=False):
    """(hist, bin_edges) of the rows of ``input`` (its last dim the coordinates)."""
    if isinstance(bins, int):
        bins = [bins] * (input._data.shape[-1] if input._data.ndim else 0)
    bins = list(bins)
    edges = _histogramdd_edges("histogramdd", input, bins, range, weight)
    hist = _histogramdd_counts(input._data, edges, weight, density)
    if bins and isinstance(bins[0], Tensor):
        return _HistogramddRT(_finish(HISTOGRAMDD_TENSORS, (input,), (), hist), tuple(bins))
    edge_tensors = _finish(HISTOGRAMDD_EDGES, (input,), (), tuple(e.copy() for e in edges))
    return _HistogramddRT(_finish(HISTOGRAMDD_CTS, (input,), (), hist), tuple(edge_tensors))


def bincount(input, weights=None, minlength=0):
    d = input._data
    if d.dtype.kind not in "iub":
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for "
                                  f"'{_dtypes.legacy_type_name(input.dtype)[6:-6]}'")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if d.ndim != 1 or (d.size and d.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None:
        w = weights._data
        if w.ndim != 1 or w.shape[0] != d.shape[0]:
            raise RuntimeError("weights should be 1-d and have the same length as input")
        dt = w.dtype if w.dtype.kind == "f" else np.float64
        return _make(np.bincount(d, w.astype(np.float64), minlength).astype(dt))
    return _make(np.bincount(d.astype(np.int64), minlength=minlength).astype(np.int64))


def _renorm_dims(ndim, dim):
    return tuple(i for i in range(ndim) if i != dim)


def _renorm_norm(F, x, p, dims):
    a = F.abs(x)
    if p == float("inf"):
        return _amax_keep(F, a, dims)
    return F.pow(F.sum(F.pow(a, p), dims, True), 1.0 / p)


def _amax_keep(F, a, dims):
    if F.is_raw:
        return np.max(a, axis=dims, keepdims=True)
    return amax(a, dims, True)


def _renorm_acc(F, self):
    """self in PyTorch's accumulate type for renorm's norm: float32 for float16/bfloat16."""
    dt = np.asarray(_values(self)).dtype
    return F.cast(self, np.float32) if dt.itemsize == 2 and dt.kind in "fV" else self


def _renorm_backward(F, grad, self, p, dim, maxnorm):
    """PyTorch's renorm_backward, term for term: the norm (linalg_vector_norm) and the sum
    of self * grad in the CPU's accumulate type (float64 for float32, complex128's real
    float64 for complex64, float32 for float16/bfloat16), norm_backward's term, the
    reciprocal of norm + 1e-7, the result cast back to grad's dtype (ToCopyBackward0)."""
    from .complex_ops import cx
    dims = _renorm_dims(len(self.shape), dim)
    dt = np.asarray(_values(self)).dtype
    acc = np.dtype(np.float32) if dt.itemsize == 2 and dt.kind in "fV" else \
        np.dtype(np.float64) if dt == np.float32 else \
        np.dtype(np.complex128) if dt == np.complex64 else dt
    real_acc = acc.type(0).real.dtype
    if F.is_raw:
        norm = _vector_norm_array(self.astype(acc, copy=False), p, dims, True)
    else:
        norm = _vector_norm(self, p, dims, True,
                            dtype=None if acc == dt else _dtypes.from_numpy(acc))
    prod = cx(F).conj(self) * grad if dt.kind == "c" else self * grad
    if np.asarray(_values(prod)).dtype.kind == "c":
        prod = cx(F).real(prod)
    if F.is_raw:
        grad_output = F.sum(F.cast(prod, real_acc), dims, True)
    else:
        grad_output = sum(prod, dims, True, dtype=_dtypes.from_numpy(real_acc))
    nb = norm_backward(F, grad_output, self, p, dims, True, norm)
    invnorm = F.reciprocal(norm + 1e-7)
    grad_norm = invnorm * maxnorm * (grad - invnorm * nb)
    return F.where(norm > maxnorm, _cast_as(F, grad_norm, grad), grad)


def _renorm_jvp(F, self, self_t, p, dim, maxnorm):
    """PyTorch's renorm_jvp: the norm of a float16/bfloat16 input in float32 (its CUDA
    accumulate type, on every device), so the tangent is float32 there (where() promotes
    self_t), then norm_jvp's term."""
    dims = _renorm_dims(len(self.shape), dim)
    norm = _renorm_norm(F, _renorm_acc(F, self), p, dims)
    invnorm = 1 / (norm + 1e-7)
    factor = invnorm * maxnorm
    dn = norm_jvp(F, self, self_t, p, dims, True, norm)
    t = F.where(norm > maxnorm, factor * (self_t - self * invnorm * dn), self_t)
    if t.dtype != self.dtype and not t.is_contiguous():
        # (the where() follows self_t's layout where TensorIterator keeps a permutation
        # (a transposed self), not the contiguous result's: set_fw_grad copies it into one
        # laid out as the result, of the result's dtype; a sliced self's where() is
        # contiguous, and stays float32)
        z = _make(np.zeros(self._data.shape, self._data.dtype))
        z.copy_(t)
        t = z
    return t


RENORM = defop("renorm", "RenormBackward0", None, params=("p", "dim", "maxnorm"),
               grads={"self": _renorm_backward}, jvp=_renorm_jvp, layout="contiguous",
               complex_aware=True)  # (renorm_backward conjugates self itself)


def _renorm_args(d, p, dim, maxnorm):
    """renorm's meta checks in aten's order (p, maxnorm as a C++ double, the rank), then
    its linalg_vector_norm's dtype check."""
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {'%g' % maxnorm}")
    if d.ndim < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {d.ndim} "
                           f"dimensions")
    if d.dtype.kind not in "fcV":
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor "
                           f"as input. Got {_dtypes.scalar_name(_dtypes.from_numpy(d.dtype))}")
    dim = _wrap_dim(dim, d.ndim)
    dims = _renorm_dims(d.ndim, dim)
    if p == float("inf") and d.size == 0:
        _no_identity(d, p, dims)
    if d.itemsize == 2 and d.dtype.kind in "fV":
        # (aten's renorm_out: linalg_vector_norm in float32 (acc_type), the scale factor
        # maxnorm / (norm + 1e-7) in float32 stored as the half type, then self * factor;
        # NumPy's half arithmetic differed in 139 of 512 values of 8 x 8 tensors)
        f32 = np.float32
        norm = np.asarray(_vector_norm_array(d.astype(f32), p, dims, True), f32)
        with np.errstate(all="ignore"):
            factor = np.where(norm > f32(maxnorm), f32(maxnorm) / (norm + f32(1e-7)),
                              f32(1)).astype(d.dtype)
            return dim, _asarray((d.astype(f32) * factor.astype(f32)).astype(d.dtype))
    a = np.abs(d)
    norm = a.max(axis=dims, keepdims=True) if p == float("inf") else \
        (a ** p).sum(axis=dims, keepdims=True) ** (1.0 / p)
    factor = np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
    return dim, _asarray(d * factor).astype(d.dtype, copy=False)


@view_errors_before_checks
def renorm(input, p, dim, maxnorm):
    dim, out = _renorm_args(input._data, p, dim, maxnorm)
    return _finish(RENORM, (input,), (p, dim, maxnorm), out)


def renorm_(self, p, dim, maxnorm):
    inplace.check_inplace(self, (self,))  # (autograd's checks before the kernel's)
    dim, new = _renorm_args(self._data, p, dim, maxnorm)
    return inplace.record_inplace(RENORM, self, (self,), (p, dim, maxnorm), new)


def cov(input, *, correction=1, fweights=None, aweights=None):
    """PyTorch's composite (mean-centred product over observations, divided by the weighted
    count), recorded op by op as PyTorch records it."""
    from .linalg import mm
    from .pointwise import div, mul, sub
    from .shape import squeeze, t, unsqueeze, view
    d = input._data
    if d.ndim > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {d.ndim} dimensions")
    if d.dtype == np.bool_:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = view(input, (1, -1)) if d.ndim < 2 else input
    n_obs = x._data.shape[1]
    w = None
    if fweights is not None:
        w = fweights
    if aweights is not None:
        w = aweights if w is None else mul(w, aweights)
    w_sum = sum(w) if w is not None else _make(np.asarray(n_obs, dtype=np.int64))
    if w is not None and not bool(w_sum._data != 0):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = div(sum(mul(x, w) if w is not None else x, 1), w_sum)
    if w is not None and aweights is not None and correction != 0:
        norm_factor = sub(w_sum, div(mul(sum(mul(w, aweights)), correction), w_sum))
    else:
        norm_factor = sub(w_sum, correction)
    if bool(norm_factor._data <= 0):
        from .. import _warn
        _warn.cpp("cov(): degrees of freedom is <= 0. Correction should be strictly less "
                  "than the number of observations.")
        norm_factor = _make(np.zeros_like(norm_factor._data))
    x = sub(x, unsqueeze(avg, 1))
    c = mm(x, t(mul(x, w) if w is not None else x))  # (real: conj() is the identity)
    return squeeze(div(c, norm_factor))


def corrcoef(input):
    from .pointwise import clip, div, sqrt
    from .shape import diagonal, view
    if input._data.ndim > 2:
        raise RuntimeError(f"corrcoef(): expected input to have two or fewer dimensions but "
                           f"got an input with {input._data.ndim} dimensions")
    c = cov(input)
    if c._data.ndim == 0:
        return div(c, c)
    sd = sqrt(diagonal(c))
    c = div(c, view(sd, (-1, 1)))
    c = div(c, view(sd, (1, -1)))
    return clip(c, -1, 1)


def _cum_inplace_checks(name, self, dim, dtype):
    """cumsum_/cumprod_'s errors in PyTorch's order: autograd's leaf checks, the out=
    dtype check, then the kernel's (no bool kernel)."""
    inplace.check_inplace(self, (self,))
    d = self._data
    if dtype is not None and dtype.np != d.dtype:
        raise RuntimeError(f"Bad in-place call: input tensor dtype "
                           f"{_dtypes.cpp_name(_dtypes.from_numpy(d.dtype))} and output tensor "
                           f"dtype {_dtypes.cpp_name(dtype)} should match")
    _wrap_dim(dim, d.ndim)  # (the structured kernel's meta function, before the dispatch)
    if d.ndim and d.size:  # (a 0-d or empty tensor is copied without the kernel)
        _refuse_kernel_dtype(f"{name}_out_cpu", d)
    return d


def cumsum_(self, dim, *, dtype=None):
    """In-place cumsum; a ``dtype`` other than self's is PyTorch's error."""
    d = _cum_inplace_checks("cumsum", self, dim, dtype)
    dim = _wrap_dim(dim, d.ndim)
    out = raw.cumsum(d, dim).astype(d.dtype, copy=False)
    return inplace.record_inplace(CUMSUM, self, (self,), (dim,), out)


# ---- trapezoid / cumulative_trapezoid: aten's composites (Integration.cpp) ------------------
def _scalar_mul_div(op, x, s):
    """x * s or x / s for a C++ double s: the Scalar overload's node (MulBackward1,
    DivBackward1), integers promoted to the default float."""
    from ._common import _scalar_dtype_data
    d = _scalar_dtype_data(x._data, s)
    return _finish(op, (x,), (s,), _asarray(op.kernel(d, s)).astype(d.dtype, copy=False))


_TRAPEZOID_SIGS = {
    "x": " * (Tensor y, Tensor x, *, int dim = -1)\n",
    "dx": " * (Tensor y, *, Number dx = 1, int dim = -1)\n",
    "trapz_dx": " * (Tensor y, *, float dx = 1, int dim = -1)\n"}


def _trapezoid_args(name, y, x, dx, extra):
    """The argument parser's TypeError (trapz lists its float dx overload first)."""
    bad_dx = name == "trapz" and isinstance(dx, complex)
    if extra or (x is not None and not isinstance(x, Tensor)) or (
            x is not None and dx is not None) or bad_dx:
        got = ["Tensor"] + [type(a).__name__ for a in extra]
        if x is not None and dx is None:
            got.append(type(x).__name__)
        if dx is not None:
            got.append(f"dx={type(dx).__name__}")
        if x is not None and dx is not None:
            got.append("x=Tensor")
        sigs = _TRAPEZOID_SIGS
        lines = sigs["trapz_dx"] + sigs["x"] if name == "trapz" else sigs["x"] + sigs["dx"]
        raise TypeError(f"{name}() received an invalid combination of arguments - got "
                        f"({', '.join(got)}), but expected one of:\n{lines}")


def _trapezoid_dx(name, y, x, dim):
    """dx = x[1:] - x[:-1] along dim, x viewed against y as aten does (a 1-d x along dim, a
    lower-rank x padded with leading ones)."""
    from .pointwise import sub
    from .shape import narrow, view
    if y._data.dtype == np.bool_ or x._data.dtype == np.bool_:
        raise RuntimeError(f"{name}: received a bool input for `x` or `y`, but bool is not "
                           f"supported")
    nd, xs = y._data.ndim, x._data.shape
    if len(xs) == 1:
        if xs[0] != y._data.shape[dim]:
            raise RuntimeError(f"{name}: There must be one `x` value for each sample point")
        x = view(x, tuple(xs[0] if i == dim else 1 for i in range(nd)))
    elif len(xs) < nd:
        x = view(x, (1,) * (nd - len(xs)) + xs)
    n = x._data.shape[dim]
    return sub(narrow(x, dim, 1, n - 1), narrow(x, dim, 0, n - 1))


def _trapezoid_dx_number(name, y, dx):
    if y._data.dtype == np.bool_:
        raise RuntimeError(f"{name}: received a bool input for `y`, but bool is not supported")
    if isinstance(dx, (bool, complex)):
        raise RuntimeError(f"{name}: Currently, we only support dx as a real number.")
    return float(dx)


def trapezoid(y, *args, x=None, dx=None, dim=-1, _name="trapezoid"):
    """The trapezoid rule along dim, with sample points x or a constant spacing dx."""
    from .pointwise import add, mul, sub
    from .shape import narrow, select
    if args and x is None and isinstance(args[0], Tensor):
        x, args = args[0], args[1:]
    _trapezoid_args(_name, y, x, dx, args)
    d = y._data
    if d.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    dim_ = _wrap_dim(dim, d.ndim)
    if d.shape[dim_] == 0:  # (NumPy's 0 for no samples)
        return _make(np.zeros(d.shape[:dim_] + d.shape[dim_ + 1:], d.dtype))
    if x is not None:
        dxs = _trapezoid_dx("trapezoid", y, x, dim_)
        n = d.shape[dim_]
        s = add(narrow(y, dim_, 0, n - 1), narrow(y, dim_, 1, n - 1))
        return _scalar_mul_div(_div_scalar(), sum(mul(s, dxs), dim_), 2.0)
    step = _trapezoid_dx_number("trapezoid", y, 1 if dx is None else
                                float(dx) if _name == "trapz" else dx)  # (a C++ double)
    ends = _scalar_mul_div(_mul_scalar(), add(select(y, dim_, 0), select(y, dim_, -1)), 0.5)
    return _scalar_mul_div(_mul_scalar(), sub(sum(y, dim_), ends), step)


def trapz(y, *args, x=None, dx=None, dim=-1):
    return trapezoid(y, *args, x=x, dx=dx, dim=dim, _name="trapz")


@view_errors_before_checks
def cumulative_trapezoid(y, *args, x=None, dx=None, dim=-1):
    """The running trapezoid rule along dim (one fewer element than y there)."""
    from .pointwise import add, mul
    from .shape import narrow
    if args and x is None and isinstance(args[0], Tensor):
        x, args = args[0], args[1:]
    _trapezoid_args("cumulative_trapezoid", y, x, dx, args)
    d = y._data
    if d.ndim == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    dim_ = _wrap_dim(dim, d.ndim)
    if x is not None:
        dxs = _trapezoid_dx("cumulative_trapezoid", y, x, dim_)
    else:
        step = _trapezoid_dx_number("cumulative_trapezoid", y, 1 if dx is None else dx)
    n = d.shape[dim_]
    s = add(narrow(y, dim_, 0, _py_max(n - 1, 0)), narrow(y, dim_, 1, _py_max(n - 1, 0))) \
        if n else y
    if x is not None:
        return _scalar_mul_div(_div_scalar(), cumsum(mul(s, dxs), dim_), 2.0)
    return cumsum(_scalar_mul_div(_mul_scalar(), s, step / 2.0), dim_)


def _mul_scalar():
    from .pointwise import MUL_SCALAR
    return MUL_SCALAR


def _div_scalar():
    from .pointwise import DIV_SCALAR
    return DIV_SCALAR
