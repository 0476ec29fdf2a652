"""Shape ops: views (view/reshape/transpose/permute/expand/squeeze/split/unbind/diagonal/
as_strided, Note [Views] in autograd/inplace.py) and shape-changing copies (cat/stack/flip/
tril/triu). Table entries and formula helpers first, then the public functions.
"""
import math

from .. import _argparse, _dtypes, _errors
from .._backend import np
from .._tensor import _is_contiguous, _make, Tensor, view_source
from ..autograd import inplace
from . import layout, raw
from .dispatch import broadcast_error, defop, view_errors_before_checks, view_errors_first
from ._common import (
    _finish, _multi_view, _py_any, _py_max, _py_sum, _shape_args, _view_result,
    _wrap_dim)
from .pointwise import clone_contiguous
from ..amp import autocast_mode as _amp


def split_backward(F, grads, dim, split_size, self_sizes):
    pieces = []
    for i, g in enumerate(grads):
        if g is None:
            size = min(split_size, self_sizes[dim] - i * split_size)
            shape = list(self_sizes)
            shape[dim] = size
            g = F.zeros(tuple(shape), _first_defined(grads))
        pieces.append(g)
    return F.cat(pieces, dim)


def split_with_sizes_backward(F, grads, dim, split_sizes, self_sizes):
    pieces = []
    for g, size in zip(grads, split_sizes):
        if g is None:
            shape = list(self_sizes)
            shape[dim] = size
            g = F.zeros(tuple(shape), _first_defined(grads))
        pieces.append(g)
    return F.cat(pieces, dim)


def unbind_backward(F, grads, dim, self_sizes):
    shape = list(self_sizes)
    del shape[dim]
    like = _first_defined(grads)
    return F.stack([g if g is not None else F.zeros(tuple(shape), like) for g in grads], dim)


def _first_defined(grads):
    for g in grads:
        if g is not None:
            return g


def cat_backward(F, grad, dim, tensors_sizes):
    out = []
    start = 0
    for sizes in tensors_sizes:
        n = sizes[dim] if len(sizes) else 0
        if sizes == (0,):  # (PyTorch: a 1-d empty input gets zeros({0}), not a narrow)
            out.append(F.zeros((0,), grad))
            continue
        out.append(F.narrow(grad, dim, start, n))
        start += n
    return tuple(out)

def _zeros_for_missing(F, tensors, tangents):
    """Tangents of a variadic linear op's inputs, zeros where an input has none."""
    return [F.zeros_like(x) if t is None else t for x, t in zip(tensors, tangents)]


TRIL = defop("tril", "TrilBackward0", lambda a, diagonal: np.tril(a, diagonal),
             params=("diagonal",), grads={"self": lambda F, grad, diagonal: F.tril(grad, diagonal)},
             jvp="linear", layout="contiguous")  # (its meta function's output: contiguous)
TRIU = defop("triu", "TriuBackward0", lambda a, diagonal: np.triu(a, diagonal),
             params=("diagonal",), grads={"self": lambda F, grad, diagonal: F.triu(grad, diagonal)},
             jvp="linear", layout="contiguous")
TRIL.tangent_copied = TRIU.tangent_copied = True  # (_write_tangent in inplace.py)
FLIP = defop("flip", "FlipBackward0", raw.flip, params=("dims",),
             grads={"self": lambda F, grad, dims: F.flip(grad, dims)},
             jvp="linear", layout="like")


UNSAFE_VIEW = defop("_unsafe_view", "UnsafeViewBackward0", raw.reshape, params=("size",),
                    grads={"self": lambda F, grad, self_sizes: F.reshape(grad, self_sizes)},
                    jvp="linear")


CAT = defop("cat", "CatBackward0", None, inputs=("tensors",), params=("dim",), variadic=True,
            backward_all=lambda F, grad, dim, tensors_sizes: cat_backward(
                F, grad, dim, tensors_sizes),
            jvp=lambda F, tensors, tensors_t, dim:
                F.cat(_zeros_for_missing(F, tensors, tensors_t), dim), layout="contiguous")
STACK = defop("stack", "StackBackward0", None, inputs=("tensors",), params=("dim",),
              variadic=True,
              backward_all=lambda F, grad, dim: tuple(
                  F.select(grad, dim, i) for i in range(grad.shape[dim])),
              jvp=lambda F, tensors, tensors_t, dim:
                  F.stack(_zeros_for_missing(F, tensors, tensors_t), dim), layout="contiguous")


# View ops: results share storage with their input (see autograd/inplace.py).
VIEW = defop("view", "ViewBackward0", raw.reshape, params=("size",),
             grads={"self": lambda F, grad, self_sizes: F.reshape(grad, self_sizes)},
             jvp="linear")
RESHAPE_ALIAS = defop("_reshape_alias", "ReshapeAliasBackward0", raw.reshape, params=("size",),
                      grads={"self": lambda F, grad, self_sizes: F.reshape(grad, self_sizes)},
                      jvp="linear")
ALIAS = defop("alias", "AliasBackward0", lambda a: a.view(), grads={"self": lambda F, grad: grad},
              jvp=lambda F, self_t: self_t)
# (the primal has no tangent: unpack_dual makes it with forward AD off)
FW_PRIMAL = defop("_fw_primal", "torch::autograd::Identity", lambda a: a.view(),
                  grads={"self": lambda F, grad: grad}, jvp=lambda F, self_t: self_t)
ALIAS.shares_tangent = True  # (``result: self_t``: Note [Shared tangents] in forward_ad.py)
T = defop("t", "TBackward0", raw.t, grads={"self": lambda F, grad: F.t(grad)},
          jvp="linear")
TRANSPOSE = defop("transpose", "TransposeBackward0", raw.transpose, params=("dim0", "dim1"),
                  grads={"self": lambda F, grad, dim0, dim1: F.transpose(grad, dim0, dim1)},
                  jvp="linear")
PERMUTE = defop("permute", "PermuteBackward0", raw.permute, params=("dims",),
                grads={"self": lambda F, grad, dims: F.permute(
                    grad, tuple(int(i) for i in np.argsort(dims)))},
                jvp="linear")
EXPAND = defop("expand", "ExpandBackward0", raw.expand, params=("size",),
               # (at::sum_to to an empty shape is always grad.sum(): SumBackward0 even
               # for a 0-d grad)
               grads={"self": lambda F, grad, self_sizes: F.sum_to(grad, self_sizes)
                      if self_sizes else F.sum(grad)},
               jvp="linear")
def _unsqueeze_to(F, grad, self_sizes, dims=None):
    """PyTorch's unsqueeze_to (squeeze's backward): an unsqueeze per squeezed dim of size 1
    (of ``dims``, or all), so a graph of the backward records UnsqueezeBackward0 nodes, and
    grad itself where nothing was squeezed."""
    if F.is_raw and grad.size:  # (an empty one's strides are unsqueeze's: Note [Empty strides])
        # (grad itself where nothing was squeezed: a leaf's .grad then copies it)
        return grad if grad.shape == tuple(self_sizes) else F.reshape(grad, tuple(self_sizes))
    n = len(self_sizes)
    if dims is None:
        dims = range(n)
    elif n:
        dims = {d % n for d in ((dims,) if isinstance(dims, int) else dims)}
    for d in range(n):
        if d in dims and self_sizes[d] == 1:
            grad = F.unsqueeze(grad, d)
    return grad


SQUEEZE = defop("squeeze", "SqueezeBackward0", lambda a: np.squeeze(a),
                grads={"self": lambda F, grad, self_sizes: _unsqueeze_to(F, grad, self_sizes)},
                jvp="linear")
SQUEEZE_DIM = defop("squeeze", "SqueezeBackward1", lambda a, dim: a.reshape(
                        a.shape[:dim] + a.shape[dim + 1:]) if a.ndim and a.shape[dim] == 1
                    else a,
                    params=("dim",),
                    grads={"self": lambda F, grad, dim, self_sizes:
                           _unsqueeze_to(F, grad, self_sizes, dim)},
                    jvp="linear")
SQUEEZE_DIMS = defop("squeeze", "SqueezeBackward2", raw.squeeze, params=("dim",),
                     grads={"self": lambda F, grad, dim, self_sizes:
                            _unsqueeze_to(F, grad, self_sizes, dim)},
                     jvp="linear")
SQUEEZE_INPLACE_DIM = defop("squeeze_", "SqueezeBackward4", raw.squeeze, params=("dim",),
                            grads={"self": lambda F, grad, dim, self_sizes:
                                   _unsqueeze_to(F, grad, self_sizes, dim)},
                            jvp="linear")
UNSQUEEZE = defop("unsqueeze", "UnsqueezeBackward0", raw.unsqueeze, params=("dim",),
                  grads={"self": lambda F, grad, dim: F.squeeze(grad, dim)},
                  jvp="linear")
SLICE = defop("slice", "SliceBackward0", None, params=("dim", "start", "end", "step"),
              grads={"self": lambda F, grad, dim, start, end, step, self_sizes:
                     F.getitem_backward(grad, self_sizes,
                                        (slice(None),) * dim + (slice(start, end, step),))},
              jvp=lambda F, self_t, dim, start, end, step:
                  F.getitem(self_t, (slice(None),) * dim + (slice(start, end, step),)))
SELECT = defop("select", "SelectBackward0", raw.select, params=("dim", "index"),
               grads={"self": lambda F, grad, dim, index, self_sizes:
                      F.select_backward(grad, self_sizes, (slice(None),) * dim + (index,))},
               jvp="linear")
SPLIT = defop("split", "SplitBackward0", None, params=("split_size", "dim"), outputs=None,
              grads={"self": split_backward},
              jvp=lambda F, self_t, split_size, dim: split(self_t, split_size, dim))
SPLIT_WITH_SIZES = defop("split_with_sizes", "SplitWithSizesBackward0", None,
                         params=("split_sizes", "dim"), outputs=None,
                         grads={"self": split_with_sizes_backward},
                         jvp=lambda F, self_t, split_sizes, dim:
                             split(self_t, list(split_sizes), dim))
UNSAFE_SPLIT = defop("unsafe_split", "UnsafeSplitBackward0", None, params=("split_size", "dim"),
                     outputs=None, grads={"self": split_backward},
                     jvp=lambda F, self_t, split_size, dim: unsafe_split(self_t, split_size,
                                                                         dim))
UNSAFE_SPLIT_WITH_SIZES = defop(
    "unsafe_split_with_sizes", "UnsafeSplitWithSizesBackward0", None,
    params=("split_sizes", "dim"), outputs=None, grads={"self": split_with_sizes_backward},
    jvp=lambda F, self_t, split_sizes, dim: _unsafe_split_with_sizes(self_t, split_sizes, dim))
UNBIND = defop("unbind", "UnbindBackward0", None, params=("dim",), outputs=None,
               grads={"self": unbind_backward},
               jvp=lambda F, self_t, dim: unbind(self_t, dim))
DIAGONAL = defop("diagonal", "DiagonalBackward0", None, params=("offset", "dim1", "dim2"),
                 grads={"self": lambda F, grad, offset, dim1, dim2, self_sizes:
                        F.diagonal_backward(grad, self_sizes, offset, dim1, dim2)},
                 jvp=lambda F, self_t, offset, dim1, dim2: F.diagonal(self_t, offset, dim1, dim2))
AS_STRIDED = defop("as_strided", "AsStridedBackward0", None,
                   params=("size", "stride", "storage_offset", "layout"),
                   grads={"self": lambda F, grad, size, stride, storage_offset, layout:
                          F.as_strided_backward(grad, layout, size, stride, storage_offset)},
                   # (storage_offset: relative to self's; a tangent has self's layout)
                   jvp=lambda F, self_t, size, stride, storage_offset:
                       F.as_strided(self_t, size, stride,
                                    self_t.storage_offset() + storage_offset))
UNFOLD = defop("unfold", "UnfoldBackward0", None,
               params=("dimension", "size", "step", "out_size", "out_stride", "layout"),
               grads={"self": lambda F, grad, dimension, size, step, out_size, out_stride,
                      layout: F.unfold_backward(grad, layout, out_size, out_stride, dimension,
                                                size, step)},
               jvp=lambda F, self_t, dimension, size, step: unfold(self_t, dimension, size, step))
UNFOLD_BACKWARD = defop(
    "unfold_backward", "UnfoldBackwardBackward0", None, inputs=("grad",),
    params=("layout", "out_size", "out_stride", "dimension", "size", "step"),
    grads={"grad": lambda F, grad, dimension, size, step: F.unfold(grad, dimension, size, step)},
    jvp=lambda F, grad_t, layout, out_size, out_stride, dimension, size, step:
        F.unfold_backward(grad_t, layout, out_size, out_stride, dimension, size, step))


# CopySlices' pieces (Note [CopySlices]), as ops so that its double backward works.
STRIDED_VIEW = defop("strided_view", "AsStridedBackward1", None, inputs=("grad",),
                     params=("layout", "size", "stride", "offset"),
                     grads={"grad": lambda F, grad, layout, size, stride, offset:
                            F.as_strided_backward(grad, layout, size, stride, offset)},
                     jvp=lambda F, grad_t, layout, size, stride, offset:
                         F.strided_view(grad_t, layout, size, stride, offset))
STRIDED_SCATTER = defop(
    "strided_scatter", "AsStridedScatterBackward0", None, inputs=("self", "src"),
    params=("layout", "size", "stride", "offset"),
    grads={"self": lambda F, grad, layout, size, stride, offset: F.strided_scatter(
               grad, F.zeros(size, grad), layout, size, stride, offset),
           "src": lambda F, grad, layout, size, stride, offset:
           F.strided_view(grad, layout, size, stride, offset)},
                        jvp=lambda F, self, self_t, src, src_t, layout, size, stride, offset:
                            F.strided_scatter(F.zeros_like(self) if self_t is None else self_t,
                            F.zeros_like(src) if src_t is None else src_t, layout, size, stride,
                            offset))
DIAGONAL_BACKWARD = defop("diagonal_backward", "DiagonalBackwardBackward0", None,
                          inputs=("grad",), params=("shape", "offset", "dim1", "dim2"),
                          grads={"grad": lambda F, grad, offset, dim1, dim2:
                                 F.diagonal(grad, offset, dim1, dim2)},
                          jvp=lambda F, grad_t, shape, offset, dim1, dim2:
                              F.diagonal_backward(grad_t, shape, offset, dim1, dim2))


# ---- views and shape ops (Note [Views] in autograd/inplace.py) ----------------------------
def _unsafe_view(input, shape):
    out = input._data.reshape(shape)
    return _finish(UNSAFE_VIEW, (input,), (tuple(shape),), out)


def _squeeze_inplace_dim(t, dim):
    """matmul's squeeze_ of its own mm result (in place: the version shows it)."""
    out = np.squeeze(t._data, dim)
    r = _finish(SQUEEZE_INPLACE_DIM, (t,), (dim,), out)
    r._vc[0] = 1
    return r


def _infer_shape(shape, numel):
    shape = list(shape)
    neg = [i for i, s in enumerate(shape) if s == -1]
    if len(neg) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for i, s in enumerate(shape):
        if i not in neg:
            if s < 0:
                raise RuntimeError(f"invalid shape dimension {s}")
            known *= s
    if neg:
        if known == 0 or numel % known:
            raise RuntimeError(_errors.SHAPE_INVALID.format(
                ", ".join(str(s) for s in shape), numel))
        shape[neg[0]] = numel // known
    elif known != numel:
        raise RuntimeError(_errors.SHAPE_INVALID.format(", ".join(str(s) for s in shape), numel))
    return tuple(shape)


def view(input, *shape):
    if len(shape) == 1 and isinstance(shape[0], _dtypes.dtype):
        return _make(input._data.view(shape[0].np))
    try:
        shape = _infer_shape(_shape_args(shape), input._data.size)
        out = np.reshape(input._data, shape, copy=False)
    except (RuntimeError, ValueError) as e:
        view_errors_first(input)  # (Note [View errors before an op's checks])
        if isinstance(e, ValueError):
            raise RuntimeError(_errors.VIEW_STRIDE) from None
        raise
    return _view_result(VIEW, input, (shape,), layout.view_layout(input._data, shape, out))


def view_as(input, other):
    return view(input, other._data.shape)


def reshape(input, *shape):
    """A view when the strides allow (ViewBackward0, or ReshapeAliasBackward0 for a
    non-contiguous input, as PyTorch records), else a copy (CloneBackward0 +
    UnsafeViewBackward0)."""
    try:
        shape = _infer_shape(_shape_args(shape), input._data.size)
    except RuntimeError:
        view_errors_first(input)  # (Note [View errors before an op's checks])
        raise
    try:
        out = np.reshape(input._data, shape, copy=False)
    except ValueError:
        return _unsafe_view(clone_contiguous(input), shape)
    op = VIEW if _is_contiguous(input._data) else RESHAPE_ALIAS
    return _view_result(op, input, (shape,), layout.view_layout(input._data, shape, out))


def reshape_as(input, other):
    return reshape(input, other._data.shape)


def flatten(input, start_dim=0, end_dim=-1):
    d = input._data
    s = _wrap_dim(start_dim, d.ndim)
    e = _wrap_dim(end_dim, d.ndim)
    if d.ndim == 0:
        return reshape(input, (1,))
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    shape = d.shape[:s] + (int(np.prod(d.shape[s:e + 1])),) + d.shape[e + 1:]
    return reshape(input, shape)


def unflatten(input, dim, sizes):
    d = input._data
    if d.ndim == 0:
        raise RuntimeError("unflatten got an unexpected error:\nDimension specified as 0 but "
                           "tensor has no dimensions")
    dim = _wrap_dim(dim, d.ndim)
    given = list(sizes)
    sizes = list(given)
    n = d.shape[dim]
    if -1 in sizes:
        known = math.prod(s for s in sizes if s != -1)
        sizes[sizes.index(-1)] = n // known if known and n % known == 0 else -1
    if math.prod(sizes) != n or -1 in sizes:  # (checked before the view: its errors after)
        raise RuntimeError(f"unflatten: Provided sizes [{', '.join(map(str, given))}] don't "
                           f"multiply up to the size of dim {dim} ({n}) in the input tensor")
    return view(input, d.shape[:dim] + tuple(sizes) + d.shape[dim + 1:])


def t(input):
    d = input._data if input._data.size else view_source(input)
    if d.ndim > 2:
        view_errors_first(input)  # (Note [View errors before an op's checks])
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {d.ndim}D")
    return _view_result(T, input, (), d.T)


def transpose(input, dim0, dim1):
    d = input._data if input._data.size else view_source(input)
    dim0, dim1 = _wrap_dim(dim0, d.ndim, input), _wrap_dim(dim1, d.ndim, input)
    out = np.swapaxes(d, dim0, dim1) if d.ndim else d.view()
    return _view_result(TRANSPOSE, input, (dim0, dim1), out)


swapaxes = swapdims = transpose


def adjoint(input):
    """The conjugate transpose of the last two dims (Note [Conjugate bit])."""
    nd = input._data.ndim
    if nd == 1:
        raise RuntimeError("tensor.adjoint() is only supported on matrices or batches of "
                           "matrices. Got 1-D tensor.")
    out = transpose(input, -2, -1) if nd else input
    if out._data.dtype.kind == "c":
        from .complex_ops import conj
        out = conj(out)
    return out


def permute(input, *dims):
    d = input._data if input._data.size else view_source(input)
    dims = _shape_args(dims)
    if len(dims) != d.ndim:
        view_errors_first(input)  # (Note [View errors before an op's checks])
        # (2.13's words: the sparse_coo kernel's, whatever the layout)
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                           f"not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {d.ndim} is not equal to len(dims) = {len(dims)}")
    dims = tuple(_wrap_dim(x, d.ndim, input) for x in dims)
    if len(set(dims)) != len(dims):
        view_errors_first(input)
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return _view_result(PERMUTE, input, (dims,), np.transpose(d, dims))


def movedim(input, source, destination):
    if isinstance(source, int) != isinstance(destination, int):  # (the overloads: two ints
        raise _argparse.wrong_type("movedim", "source")  # or two int lists)
    d = input._data
    given = ([source] if isinstance(source, int) else list(source),
             [destination] if isinstance(destination, int) else list(destination))
    if len(given[0]) != len(given[1]):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source "
                           f"({list(given[0])} dims) should contain the same number of dims "
                           f"as destination ({list(given[1])} dims)")
    src, dst = ([_wrap_dim(x, d.ndim) for x in dims] for dims in given)
    for name, dims, wrapped in (("source", given[0], src), ("destination", given[1], dst)):
        if len(set(wrapped)) != len(wrapped):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({list(dims)})")
    if d.ndim == 0:
        return _alias(input)  # (PyTorch: a 0-d movedim is an alias)
    perm = [n for n in range(d.ndim) if n not in src]
    for s, t_ in sorted(zip(src, dst), key=lambda p: p[1]):
        perm.insert(t_, s)
    return permute(input, tuple(perm))


moveaxis = movedim


_T_WARNED = []


def _T(input):
    d = input._data
    if d.ndim != 2 and not _T_WARNED:  # (numpy_T's TORCH_WARN_ONCE)
        from .. import _warn
        _T_WARNED.append(True)
        _warn.cpp("The use of `x.T` on tensors of dimension other than 2 to reverse their "
                  "shape is deprecated and it will throw an error in a future release. "
                  "Consider `x.mT` to transpose batches of matrices or `x.permute(*torch."
                  "arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.")
    return permute(input, tuple(range(d.ndim - 1, -1, -1)))


def _mT(input):
    nd = input._data.ndim
    if nd == 0:
        return input
    if nd == 1:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. "
                           "Got 1-D tensor.")
    return transpose(input, -2, -1)


_LEGACY_TYPES = frozenset(("Byte", "Char", "Short", "Int", "Long", "Half", "Float", "Double"))


def expand(input, *sizes):
    sizes = _shape_args(sizes)
    d = input._data if input._data.size else view_source(input)
    if len(sizes) < d.ndim:
        name = _dtypes.scalar_name(input.dtype)  # (at::toString: a legacy name if it has one)
        name = f"torch.{name}Tensor" if name in _LEGACY_TYPES else f"CPU{name}Type"
        view_errors_first(input)  # (Note [View errors before an op's checks])
        raise RuntimeError(f"expand({name}"
                           f"{{[{_errors.shape_str(d.shape)}]}}, size=[{_errors.shape_str(sizes)}]"
                           f"): the number of sizes provided ({len(sizes)}) must be greater or "
                           f"equal to the number of dimensions in the tensor ({d.ndim})")
    lead = len(sizes) - d.ndim
    shape = list(sizes)
    for i in range(d.ndim - 1, -1, -1):  # (PyTorch checks from the last dim)
        s = d.shape[i]
        want = sizes[lead + i]
        if want == -1:
            shape[lead + i] = s
        elif s != 1 and s != want:
            view_errors_first(input)  # (Note [View errors before an op's checks])
            raise RuntimeError(f"The expanded size of the tensor ({want}) must match the "
                               f"existing size ({s}) at non-singleton dimension {lead + i}.  "
                               f"Target sizes: [{_errors.shape_str(sizes)}].  Tensor sizes: "
                               f"[{_errors.shape_str(d.shape)}]")
    shape = tuple(shape)
    # as_strided rather than broadcast_to: the view stays writable, like PyTorch's
    strides = [0] * lead + [0 if s == 1 and want != 1 else st for s, want, st in
                            zip(d.shape, shape[lead:], d.strides)]
    for i in range(lead - 1, -1, -1):  # (inferExpandGeometry: a new dim of size 1 has the
        if shape[i] == 1:             # next one's size times stride, so that a later
            # matmul's fold sees the leading dims contiguous: expand(1, *x.shape) @ w is
            # MmBackward0, not BmmBackward0)
            strides[i] = shape[i + 1] * strides[i + 1] if i + 1 < len(shape) else 0
    strides = tuple(strides)
    out = np.lib.stride_tricks.as_strided(d, shape, strides, subok=True)  # (a zero-tensor
    return _view_result(EXPAND, input, (shape,), out)  # gradient's view is one: _zero_grad.py)


def expand_as(input, other):
    return expand(input, other._data.shape)


def broadcast_to(input, size):
    return expand(input, size)


def _squeeze_dims(dim, ndim, input=None):
    """The dims wrapped one by one, a repeated one refused as aten's dim_list_to_bitset."""
    seen = []
    for x in dim:
        w = _wrap_dim(x, ndim, input)
        if w in seen:
            if input is not None:
                view_errors_first(input)  # (Note [View errors before an op's checks])
            raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
        seen.append(w)
    return seen


_NO_DIM = _argparse.MISSING  # (squeeze's dim not given: an explicit None is refused)


def squeeze(input, dim=_NO_DIM):
    d = input._data
    if dim is _NO_DIM:
        return _view_result(SQUEEZE, input, (), np.squeeze(d))
    if dim is None:  # (Note [Argument errors on the exception path] in _argparse.py)
        raise _argparse.wrong_type("squeeze", "dim")
    if isinstance(dim, (tuple, list)):
        dims = tuple(x for x in _squeeze_dims(dim, d.ndim, input) if d.ndim and d.shape[x] == 1)
        return _view_result(SQUEEZE_DIMS, input, (dims,), np.squeeze(d, dims))
    dim = _wrap_dim(dim, d.ndim, input)
    out = np.squeeze(d, dim) if d.ndim and d.shape[dim] == 1 else d.view()
    return _view_result(SQUEEZE_DIM, input, (dim,), out)


def squeeze_method(input, dim=_NO_DIM, *dims):
    """Tensor.squeeze: its 'squeeze(IntArrayRef dim)' overload takes the dims as varargs
    (``x.squeeze(0, 1)``), torch.squeeze's does not."""
    if dims:
        dim = (dim,) + dims
    return squeeze(input, dim)


def unsqueeze(input, dim):
    d = input._data if input._data.size else view_source(input)
    dim = _wrap_dim(dim, d.ndim + 1, input)
    # PyTorch's stride for the new dim: size * stride of the dim it precedes (1 at the end)
    new = d.shape[dim] * d.strides[dim] if dim < d.ndim else d.itemsize
    out = np.lib.stride_tricks.as_strided(d, d.shape[:dim] + (1,) + d.shape[dim:],
                                          d.strides[:dim] + (new,) + d.strides[dim:],
                                          subok=True)
    return _view_result(UNSQUEEZE, input, (dim,), out)


def narrow(input, dim, start, length):
    d = input._data
    if d.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, d.ndim)
    if isinstance(start, Tensor):
        if start._data.ndim or start._data.dtype.kind not in "iu":
            raise RuntimeError("start must be an 0-dim integral Tensor.")
        start = int(start)
    else:
        _argparse.ints(start, length)
    size = d.shape[dim]
    if start < 0:
        start += size
    if start < 0 or start > size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")
    return _slice(input, dim, start, start + length, 1)


def _slice(input, dim, start, end, step):
    d = input._data if input._data.size else view_source(input)
    key = (slice(None),) * dim + (slice(start, end, step),)
    out = d[key]
    if out.size == 0:  # NumPy normalises empty views' strides; keep PyTorch's
        strides = d.strides[:dim] + (d.strides[dim] * step,) + d.strides[dim + 1:]
        out = np.lib.stride_tricks.as_strided(out, out.shape, strides)
    r = _view_result(SLICE, input, (dim, start, end, step), out)
    if out.size == 0:
        _empty_offsets((r,), input, dim, (start,))
    return r


def _empty_offsets(results, input, dim, starts):
    """The storage offsets of empty views starting at ``starts`` along ``dim`` (NumPy does
    not move an empty array's data pointer; PyTorch's offset moves by the stride)."""
    offset, stride = input.storage_offset(), input.stride(dim)
    for r, start in zip(results, starts):
        if r._view is not None and not r._data.size:
            r._view.offset = offset + start * stride


def select(input, dim, index):
    d = input._data if input._data.size else view_source(input)
    if d.ndim == 0:
        view_errors_first(input)  # (Note [View errors before an op's checks])
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, d.ndim, input)
    if index.__class__ is not int:  # (a float: the parser's refusal, Note [Argument errors
        index = int(_argparse.index(index))  # on the exception path] in _argparse.py)
    size = d.shape[dim]
    if index < -size or index >= size:
        view_errors_first(input)  # (Note [View errors before an op's checks])
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"[{_errors.shape_str(d.shape)}] at dimension {dim}")
    if index < 0:
        index += size
    r = _view_result(SELECT, input, (dim, index), d[(slice(None),) * dim + (index, Ellipsis)])
    if not d.size:
        _empty_offsets((r,), input, dim, (index,))
    return r


def _chunk_check(input):
    if input._data.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")


@view_errors_before_checks
def split(tensor, split_size_or_sections, dim=0):
    d = tensor._data if tensor._data.size else view_source(tensor)
    if d.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    dim = _wrap_dim(dim, d.ndim, tensor)
    size = d.shape[dim]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [int(s) for s in split_size_or_sections]
        if _py_sum(sizes) != size:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} "
                               f"(input tensor's size at dimension {dim}), but got "
                               f"split_sizes={sizes}")
        bounds = np.cumsum([0] + sizes)
        arrays = [d[(slice(None),) * dim + (slice(int(a), int(b)),)]
                  for a, b in zip(bounds[:-1], bounds[1:])]
        r = _multi_view(SPLIT_WITH_SIZES, tensor, (tuple(sizes), dim), arrays)
        if not d.size:
            _empty_offsets(r, tensor, dim, [int(a) for a in bounds[:-1]])
        return r
    step = int(split_size_or_sections)
    if step <= 0 and size:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension "
                           f"size of {size}")
    starts = range(0, size, step) if size else [0]
    arrays = [d[(slice(None),) * dim + (slice(s, s + step),)] for s in starts]
    r = _multi_view(SPLIT, tensor, (step, dim), arrays)
    if not d.size:
        _empty_offsets(r, tensor, dim, starts)
    return r


def chunk(input, chunks, dim=0):
    _argparse.ints(chunks)  # (Note [Argument errors on the exception path] in _argparse.py)
    _chunk_check(input)
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    size = d.shape[dim]
    if size == 0:  # PyTorch: split_with_sizes into `chunks` empty pieces
        return split(input, [0] * chunks, dim)
    step = -(-size // chunks)
    return split(input, step, dim)


def unsafe_split(tensor, split_size, dim=0):
    """``split`` whose pieces are not tracked as views of the input (PyTorch's unsafe_split:
    its RNN cells split the gates with it and activate them in place)."""
    d = tensor._data if tensor._data.size else view_source(tensor)
    if d.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    dim = _wrap_dim(dim, d.ndim)
    size = d.shape[dim]
    step = int(split_size)
    if step <= 0 and size:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension "
                           f"size of {size}")
    starts = range(0, size, step) if size else [0]
    arrays = tuple(d[(slice(None),) * dim + (slice(s, s + step),)] for s in starts)
    return _finish(UNSAFE_SPLIT, (tensor,), (step, dim), arrays)


def _unsafe_split_with_sizes(tensor, split_sizes, dim):
    """aten's unsafe_split_with_sizes (pieces not tracked as views), for unsafe_chunk of an
    empty dim."""
    d = tensor._data if tensor._data.size else view_source(tensor)
    bounds = np.cumsum((0,) + tuple(split_sizes))
    arrays = tuple(d[(slice(None),) * dim + (slice(int(a), int(b)),)]
                   for a, b in zip(bounds[:-1], bounds[1:]))
    return _finish(UNSAFE_SPLIT_WITH_SIZES, (tensor,), (tuple(split_sizes), dim), arrays)


def unsafe_chunk(input, chunks, dim=0):
    _chunk_check(input)
    dim = _wrap_dim(dim, input._data.ndim)
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    if input._data.shape[dim] == 0:  # (aten: `chunks` empty pieces, by their sizes)
        return _unsafe_split_with_sizes(input, (0,) * chunks, dim)
    return unsafe_split(input, -(-input._data.shape[dim] // chunks), dim)


def unbind(input, dim=0):
    d = input._data if input._data.size else view_source(input)
    dim = _wrap_dim(dim, d.ndim, input)
    if d.ndim == 0:
        view_errors_first(input)  # (Note [View errors before an op's checks])
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    arrays = [d[(slice(None),) * dim + (i, Ellipsis)] for i in range(d.shape[dim])]
    r = _multi_view(UNBIND, input, (dim,), arrays)
    if not d.size:
        _empty_offsets(r, input, dim, range(len(r)))
    return r


@view_errors_before_checks
def diagonal(input, offset=0, dim1=0, dim2=1):
    d = input._data if input._data.size else view_source(input)
    given = (dim1, dim2)
    dim1, dim2 = _wrap_dim(dim1, d.ndim, input), _wrap_dim(dim2, d.ndim, input)
    if dim1 == dim2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {given[0]}, {given[1]}")
    out = raw._diagonal_view(d, offset, dim1, dim2)
    return _view_result(DIAGONAL, input, (offset, dim1, dim2), out)


@view_errors_before_checks
def unfold(input, dimension, size, step):
    _argparse.ints(size, step)
    d = input._data if input._data.size else view_source(input)
    dim = _wrap_dim(dimension, d.ndim, input)
    length = d.shape[dim] if d.ndim else 1  # (a 0-d tensor unfolds as one element)
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {dim} is {length} but size "
                           f"is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if not d.ndim:  # (its windows: one of `size` elements, the tensor itself)
        shape, strides = (size,), (d.itemsize,)
    else:
        n = (d.shape[dim] - size) // step + 1
        shape = d.shape[:dim] + (n,) + d.shape[dim + 1:] + (size,)
        strides = d.strides[:dim] + (d.strides[dim] * step,) + d.strides[dim + 1:] + \
            (d.strides[dim],)
    out = np.lib.stride_tricks.as_strided(d, shape, strides)
    item = d.itemsize
    layout = (d.shape, tuple(s // item for s in d.strides))
    params = (dim, size, step, shape, tuple(s // item for s in strides), layout)
    return _view_result(UNFOLD, input, params, out)


def _checked_strided(root, size, stride, offset):
    """raw.as_strided after PyTorch's checks: a layout reaching outside the storage would
    read (or write) memory that is not the tensor's."""
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if _py_any(st < 0 for st in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, "
                           f"got strides: {list(stride)}")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    item = root.itemsize
    storage = raw._extent(root.shape, tuple(st // item for st in root.strides))
    if 0 not in size:
        needed = offset + 1 + _py_sum((n - 1) * st for n, st in zip(size, stride))
        if needed > storage:
            raise RuntimeError(
                f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset "
                f"{offset}, and itemsize {item} requiring a storage size of {needed * item} "
                f"are out of bounds for storage of size {storage * item}")
    return raw.as_strided(root, size, stride, offset)


def fill_diagonal_(self, fill_value, wrap=False):
    if wrap is not False:
        _argparse.bools(wrap)  # (Note [Argument errors on the exception path] in _argparse.py)
    """PyTorch's composite: fill_ of an as_strided view of the main diagonal (and, with
    ``wrap``, of the diagonal restarting below it in a tall matrix), so the graph gets
    CopySlices and a version bump per fill."""
    shape = self._data.shape
    if len(shape) < 2:
        raise RuntimeError("dimensions must larger than 1")
    height, width = shape[0], shape[1]
    if len(shape) > 2 and any(s != height for s in shape):
        raise RuntimeError("all dimensions of input must be of equal length")
    offset, strides = self.storage_offset(), self.stride()
    size, step = min(height, width), _py_sum(strides)
    as_strided(self, (size,), (step,), offset).fill_(fill_value)
    if wrap and len(shape) == 2 and height > width + 1:
        wrap_size = (self._data.size + width) // (width + 1) - size
        as_strided(self, (wrap_size,), (step,), offset + strides[0] * (width + 1)).fill_(
            fill_value)
    return self


def _storage_array(input):
    """The memory input's geometry refers to, in input's element type (Note [Complex
    views])."""
    view = input._view
    if view is None:
        meta = input._meta  # (a detached alias, a laid-out tangent: storage_offset's root)
        root = meta.get("root") if meta is not None else None
        return input._data if root is None or root.dtype != input._data.dtype else root
    base = view.base
    root = base._root_array()  # (a detached expanded base remembers its source's memory)
    if root.dtype != base._data.dtype:
        root = base._data
    if view.dtype_view is not None:
        from .complex_ops import _as_complex_array, _as_real_array
        root = _as_real_array(root) if view.dtype_view == "as_real" else _as_complex_array(root)
    return root


@view_errors_before_checks
def as_strided(input, size, stride, storage_offset=None):
    root = _storage_array(input)
    offset = input.storage_offset() if storage_offset is None else storage_offset
    out = _checked_strided(root, size, stride, offset)
    layout = (input._data.shape, input.stride())
    rel = offset - input.storage_offset()
    r = _finish(AS_STRIDED, (input,), (tuple(size), tuple(stride), rel, layout), out)
    inplace.make_views((r,), input, "AsStridedBackward0")
    return r


def _alias(input):
    """``x[...]``, ``x[:, :]``: a view with the same shape (AliasBackward0)."""
    return _view_result(ALIAS, input, (), input._data.view())


def _same_strides_view(input):
    """_make_dual's view: ViewBackward0, but input's own strides (not view's
    computeStride: Note [View strides])."""
    return _view_result(VIEW, input, (input._data.shape,), input._data.view())


def _fw_primal(input):
    """_unpack_dual's primal: a view whose node is VariableTypeManual's Identity."""
    return _view_result(FW_PRIMAL, input, (), input._data.view())


def cat(tensors, dim=0, *, out=None):
    if tensors.__class__ is Tensor or isinstance(tensors, Tensor):  # (not a sequence)
        raise _argparse.wrong_type("cat", "tensors")
    if _amp.state.enabled:
        return _amp.promote(cat, tensors, dim, out=out)
    if out is not None:  # Note [out= arguments] in _out.py
        from ._out import write_out
        tensors = list(tensors)
        if isinstance(out, Tensor) and _py_any(
                isinstance(x, Tensor) and not np.can_cast(x._data.dtype, out._data.dtype,
                                                          "same_kind") for x in tensors):
            raise TypeError(f"torch.cat(): input types can't be cast to the desired output "
                            f"type {_dtypes.scalar_name(out.dtype)}")  # (cat's own check)
        return write_out("cat", cat(tensors, dim), out)
    tensors = list(tensors)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, x in enumerate(tensors):
        if not isinstance(x, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(x).__name__}")
    try:
        arrays, dim = _cat_arrays(tensors, dim)
    except (RuntimeError, IndexError):
        view_errors_first(*tensors)  # (Note [View errors before an op's checks])
        raise
    # (the skipped legacy empty tensors still take part in the dtype promotion)
    dt = _dtypes.result_type(*tensors).np if len({x._data.dtype for x in tensors}) > 1 else \
        arrays[0].dtype
    out = np.concatenate(arrays, axis=dim, dtype=dt) if arrays else np.zeros((0,), dt)
    r = _finish(CAT, tuple(tensors), (dim,), out)
    if r._grad_fn is not None:
        _fix_variadic_dtypes(r, tensors, out)
    return r


def _cat_arrays(tensors, dim):
    """cat's checks: the arrays joined (legacy 1-d empty tensors skipped) and the dim."""
    for i, x in enumerate(tensors):
        if x._data.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                               f"concatenated")
    # legacy: 1-d empty tensors are skipped
    arrays = [x._data for x in tensors if not (x._data.shape == (0,) and
                                                _py_any(y._data.ndim > 1 for y in tensors))]
    ref = arrays[0]  # the first tensor not skipped: the dim wraps and the checks compare to it
    if ref.ndim == 0:
        raise RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
    # only legacy empty tensors: PyTorch checks no dim at all
    dim = _wrap_dim(dim, ref.ndim) if _py_any(a.shape != (0,) for a in arrays) else 0
    for i, a in enumerate(arrays):
        if a.ndim != ref.ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.ndim} "
                               f"and {a.ndim}")
        for j in range(ref.ndim):
            if j != dim and a.shape[j] != ref.shape[j]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {dim}. "
                                   f"Expected size {ref.shape[j]} but got size {a.shape[j]} "
                                   f"for tensor number {i} in the list.")
    return arrays, dim


def _fix_variadic_dtypes(r, tensors, out):
    if _py_any(x._data.dtype != out.dtype for x in tensors):
        r._grad_fn._reduce = [(x._data.shape, x._data.dtype) if x._requires_grad else None
                              for x in tensors]


concat = concatenate = cat


@view_errors_before_checks
def stack(tensors, dim=0, *, out=None):
    if tensors.__class__ is Tensor or isinstance(tensors, Tensor):  # (not a sequence)
        raise _argparse.wrong_type("stack", "tensors")
    if _amp.state.enabled:
        return _amp.promote(stack, tensors, dim, out=out)
    if out is not None:  # Note [out= arguments] in _out.py
        from ._out import write_out
        return write_out("stack", stack(tensors, dim), out)
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    shape = tensors[0]._data.shape
    _wrap_dim(dim, len(shape) + 1)  # (PyTorch checks the dim before the sizes)
    for i, x in enumerate(tensors):
        if x._data.shape != shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"[{_errors.shape_str(shape)}] at entry 0 and "
                               f"[{_errors.shape_str(x._data.shape)}] at entry {i}")
    dim = _wrap_dim(dim, len(shape) + 1)
    arrays = [x._data for x in tensors]
    # (the skipped legacy empty tensors still take part in the dtype promotion)
    dt = _dtypes.result_type(*tensors).np if len({x._data.dtype for x in tensors}) > 1 else \
        arrays[0].dtype
    out = np.stack(arrays, axis=dim).astype(dt, copy=False)
    r = _finish(STACK, tuple(tensors), (dim,), out)
    if r._grad_fn is not None:
        _fix_variadic_dtypes(r, tensors, out)
    return r


def _nonempty(name, tensors):
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return tensors


def hstack(tensors):
    tensors = atleast_1d(_nonempty("hstack", tensors))
    return cat(tensors, 0 if tensors[0]._data.ndim == 1 else 1)


def vstack(tensors):
    return cat(atleast_2d(_nonempty("vstack", tensors)), 0)


def flip(input, dims):
    d = input._data
    if dims.__class__ is not tuple and dims.__class__ is not list:
        raise _argparse.wrong_type("flip", "dims")  # (an int: the parser's refusal, Note
        # [Argument errors on the exception path] in _argparse.py)
    dims = tuple(_wrap_dim(x, d.ndim, input) for x in dims)
    out = np.flip(d, dims).copy() if d.ndim else d.copy()
    return _finish(FLIP, (input,), (dims,), out)


def flip_method(input, dims=_NO_DIM, *more):
    """Tensor.flip: its 'flip(IntArrayRef dims)' takes the dims as varargs (``x.flip(0,
    1)``), torch.flip's does not."""
    if more or dims.__class__ is not tuple and dims.__class__ is not list:
        dims = (dims,) + more
    return flip(input, dims)


def _tri(op, ufunc, name, input, diagonal):
    if diagonal.__class__ is not int:
        _argparse.ints(diagonal)
    if input._data.ndim < 2:
        view_errors_first(input)  # (Note [View errors before an op's checks])
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    return _finish(op, (input,), (diagonal,), ufunc(input._data, diagonal))


def tril(input, diagonal=0):
    return _tri(TRIL, np.tril, "tril", input, diagonal)


def triu(input, diagonal=0):
    return _tri(TRIU, np.triu, "triu", input, diagonal)


# ---- the catalogue: repeat, roll, rot90, splits, grids, stacks, in-place views (issue 11) ----
def _via(F, kernel, fn, *args):
    """A formula step that is an op of this family: its kernel on arrays, its public function
    on tensors (the two interpretations of Note [One formula, two interpretations])."""
    return kernel(*args) if F.is_raw else fn(*args)


def _repeat_kernel(a, repeats):
    return np.tile(a.reshape((1,) * (len(repeats) - a.ndim) + a.shape), repeats)


def _repeat_backward(F, grad, repeats, self_sizes):
    """PyTorch's repeat_backward: zeros for a 0 count; the leading (new) dims summed one at
    a time (SumBackward1 each), then grad viewed as (r, s) per repeated dim (r != 1) and
    the r axes summed at once; nothing when every remaining count is 1."""
    if 0 in repeats:
        return F.zeros(tuple(self_sizes), grad)
    lead = len(repeats) - len(self_sizes)
    for _ in range(lead):
        grad = F.sum(grad, (0,))
    size, axes = [], []
    for r, s in zip(repeats[lead:], self_sizes):
        if r != 1:
            size.append(r)
            axes.append(len(size) - 1)
        size.append(s)
    if axes:
        grad = F.sum(F.reshape(grad, tuple(size)), tuple(axes))
    return grad


def _roll_kernel(a, shifts, dims):
    if not a.size:  # (dims unchecked: see roll; aten clones an empty one, preserve_format)
        return layout.with_strides(a.copy(), layout.like_strides(a) if dims else None)
    if not dims:  # (the flattened roll written into an array of a's shape: not a view)
        src, out = a.reshape(-1), np.empty(a.shape, a.dtype)
        flat, k = out.reshape(-1), shifts[0] % a.size
        flat[k:], flat[:k] = src[:a.size - k], src[a.size - k:]
        return out
    return np.roll(a, shifts, dims)


def _rot90_kernel(a, k, dims):
    """aten's rot90: a flip (a new array, even of a 1x1 input or for k=0) transposed."""
    k %= 4
    d0, d1 = dims
    if k == 1:
        return np.swapaxes(np.flip(a, d1).copy(), d0, d1)
    if k == 3:
        return np.swapaxes(np.flip(a, d0).copy(), d0, d1)
    return np.flip(a, dims).copy() if k == 2 else a.copy()


REPEAT = defop("repeat", "RepeatBackward0", _repeat_kernel, params=("repeats",),
               grads={"self": _repeat_backward}, jvp="linear")
ROLL = defop("roll", "RollBackward0", _roll_kernel, params=("shifts", "dims"),
             grads={"self": lambda F, grad, shifts, dims: _via(
                 F, _roll_kernel, _roll_op, grad, tuple(-s for s in shifts), dims)},
             jvp="linear", layout=layout.roll_layout)
ROT90 = defop("rot90", "Rot90Backward0", _rot90_kernel, params=("k", "dims"),
              grads={"self": lambda F, grad, k, dims: _via(
                  F, _rot90_kernel, _rot90_op, grad, -k, dims)},
              jvp="linear", layout=layout.rot90_layout)
NARROW_COPY = defop("narrow_copy", "NarrowCopyBackward0",
                    lambda a, dim, start, length: a[(slice(None),) * dim +
                                                    (slice(start, start + length),)].copy(),
                    params=("dim", "start", "length"),
                    grads={"self": lambda F, grad, dim, start, length, self_sizes:
                           F.getitem_backward(grad, self_sizes, (slice(None),) * dim +
                                              (slice(start, start + length),))},
                    jvp="linear")
DIAG_EMBED = defop("diag_embed", "DiagEmbedBackward0",
                   lambda a, offset, dim1, dim2: raw.diagonal_backward(
                       a, _diag_embed_shape(a.shape, offset, dim1, dim2), offset, dim1, dim2),
                   params=("offset", "dim1", "dim2"),
                   grads={"self": lambda F, grad, offset, dim1, dim2:
                          F.diagonal(grad, offset, dim1, dim2)},
                   jvp="linear")
# in-place views: the tensor itself takes the view's geometry and a node of its own
TRANSPOSE_ = defop("transpose_", "TransposeBackward1", raw.transpose, params=("dim0", "dim1"),
                   grads={"self": lambda F, grad, dim0, dim1: F.transpose(grad, dim0, dim1)},
                   jvp="linear")
T_ = defop("t_", "TBackward1", raw.t, grads={"self": lambda F, grad: F.t(grad)}, jvp="linear")
UNSQUEEZE_ = defop("unsqueeze_", "UnsqueezeBackward1", raw.unsqueeze, params=("dim",),
                   grads={"self": lambda F, grad, dim: F.squeeze(grad, dim)}, jvp="linear")
SQUEEZE_ = defop("squeeze_", "SqueezeBackward3", lambda a: np.squeeze(a),
                 grads={"self": lambda F, grad, self_sizes: _unsqueeze_to(F, grad, self_sizes)},
                 jvp="linear")
SQUEEZE_DIMS_ = defop("squeeze_", "SqueezeBackward5", raw.squeeze, params=("dim",),
                      grads={"self": lambda F, grad, dim, self_sizes:
                             _unsqueeze_to(F, grad, self_sizes, dim)},
                      jvp="linear")

# A view of a ZeroTensor tangent is one (Note [Zero-tensor tangents] in dispatch.py): an
# in-place op on ``v.view(1)`` of a one-element ``v = x.sgn()`` raises as on v itself.
for _op in (VIEW, RESHAPE_ALIAS, ALIAS, T, TRANSPOSE, PERMUTE, EXPAND, SQUEEZE, SQUEEZE_DIM,
            SQUEEZE_DIMS, UNSQUEEZE, SLICE, SELECT, DIAGONAL, AS_STRIDED, UNFOLD):
    _op.keeps_zero_tangent = _op.zero_view = _op.views = True  # (any size: it aliases,
    # expanded too)
# Their tangents are views of their input's, laid out as the results already (Note [Tangent
# layout] in autograd/forward_ad.py: set_fw_grad copies no view's)
SPLIT.views = SPLIT_WITH_SIZES.views = UNBIND.views = True


def _diag_embed_shape(shape, offset, dim1, dim2):
    n = shape[-1] + _py_abs(offset)
    out = list(shape[:-1])
    for d in sorted((dim1, dim2)):
        out.insert(d, n)
    return tuple(out)


def _py_abs(v):
    return v if v >= 0 else -v


def _int_tuple(name, arg, value, position):
    """An ``int[]`` argument as PyTorch parses it (an int alone is accepted)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return (int(value),)
    if isinstance(value, Tensor) and value._data.ndim == 0:
        return (int(value),)
    try:
        return tuple(int(v.__index__()) for v in value)
    except (TypeError, AttributeError):
        raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be tuple of "
                        f"ints, not {type(value).__name__}") from None


@view_errors_before_checks
def repeat(input, *sizes):
    if not sizes:
        raise TypeError('repeat() missing 1 required positional arguments: "repeats"')
    repeats = _shape_args(sizes)
    d = input._data
    if len(repeats) < d.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    lead = len(repeats) - d.ndim
    shape = [r * s for r, s in zip(repeats, (1,) * lead + d.shape)]
    for s in shape:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"[{_errors.shape_str(shape)}]")
    return _finish(REPEAT, (input,), (repeats,), _repeat_kernel(d, repeats))


@view_errors_before_checks
def tile(input, dims):
    if not isinstance(dims, (tuple, list, Tensor)) or isinstance(dims, Tensor) and \
            dims._data.ndim == 0:
        raise TypeError(f"tile(): argument 'dims' (position 2) must be tuple of ints, not "
                        f"{type(dims).__name__}")
    dims = tuple(int(x) for x in dims)
    nd = input._data.ndim
    if len(dims) < nd:
        dims = (1,) * (nd - len(dims)) + dims
    return repeat(input, dims)


def _tile_method(input, *dims):
    """``Tensor.tile(2, 3)``: the method takes the dims as separate ints too."""
    return tile(input, _shape_args(dims))


def _roll_op(input, shifts, dims):
    return roll(input, shifts, dims)


@view_errors_before_checks
def roll(input, shifts, dims=()):
    d = input._data
    shifts = _int_tuple("roll", "shifts", shifts, 2)
    dims = _int_tuple("roll", "dims", dims, 3) if dims is not None else ()
    if not shifts:
        raise RuntimeError("`shifts` required")
    if not dims and len(shifts) != 1:
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:0")
    if dims and len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, "
                           f"dims:{len(dims)}")
    if not d.size:  # (aten's roll clones an empty tensor before it looks at dims)
        return _finish(ROLL, (input,), (shifts, dims), _roll_kernel(d, shifts, dims))
    if d.ndim == 0 and dims:
        raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
    dims = tuple(_wrap_dim(x, d.ndim, input) for x in dims)
    return _finish(ROLL, (input,), (shifts, dims), _roll_kernel(d, shifts, dims))


def _rot90_op(input, k, dims):
    return rot90(input, k, dims)


@view_errors_before_checks
def rot90(input, k=1, dims=(0, 1)):
    d = input._data
    dims = tuple(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if d.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {d.ndim}")
    if dims[0] == dims[1] or _wrap_dim(dims[0], d.ndim) == _wrap_dim(dims[1], d.ndim):
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} "
                           f"and dim1 = {dims[1]}")
    dims = (_wrap_dim(dims[0], d.ndim), _wrap_dim(dims[1], d.ndim))
    return _finish(ROT90, (input,), (k, dims), _rot90_kernel(d, k, dims))


def fliplr(input):
    if input._data.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(input, (1,))


def flipud(input):
    if input._data.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(input, (0,))


def _split_at(input, dim, bounds):
    """Slices [bounds[i], bounds[i+1]) of dim, each a SliceBackward0 view (tensor_split)."""
    size = input._data.shape[dim]
    out = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        a = min(max(a, 0), size)
        b = min(max(b, a), size)
        out.append(_slice(input, dim, a, b, 1))
    return tuple(out)


def tensor_split(input, indices_or_sections=None, dim=0, *, indices=None, sections=None,
                 tensor_indices_or_sections=None):
    arg = next(a for a in (indices_or_sections, indices, sections, tensor_indices_or_sections)
               if a is not None)
    d = input._data
    if d.ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a "
                           "tensor with 0 dims")
    dim = _wrap_dim(dim, d.ndim)
    if isinstance(arg, Tensor):
        a = arg._data
        if a.dtype != np.int64:
            name = _dtypes.legacy_type_name(_dtypes.from_numpy(a.dtype))[6:-6]
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have dtype "
                               f"of long, but got {name}")
        if a.ndim > 1:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be a "
                               f"zero-dimensional or one-dimensional tensor, but got a tensor "
                               f"with {a.ndim} dims")
        arg = int(a) if a.ndim == 0 else [int(v) for v in a]
    size = d.shape[dim]
    if isinstance(arg, (int, np.integer)):
        n = int(arg)
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        q, r = divmod(size, n)
        bounds = [0]
        for i in range(n):
            bounds.append(bounds[-1] + q + (1 if i < r else 0))
        return _split_at(input, dim, bounds)
    idx = [int(v) + size if int(v) < 0 else int(v) for v in arg]
    return _split_at(input, dim, [0] + idx + [size])


def _hvd_split(name, need, dim, input, indices_or_sections):
    d = input._data
    if d.ndim < need:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {need} dimension, but "
                           f"got a tensor with {d.ndim} dimensions!")
    if isinstance(indices_or_sections, (int, np.integer)):
        n = int(indices_or_sections)
        if n == 0 or d.shape[dim] % n:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the "
                               f"size of the dimension {d.shape[dim]} is not divisible by the "
                               f"split_size {n}!")
    return tensor_split(input, indices_or_sections, dim)


def hsplit(input, indices_or_sections):
    return _hvd_split("hsplit", 1, 1 if input._data.ndim > 1 else 0, input, indices_or_sections)


def vsplit(input, indices_or_sections):
    return _hvd_split("vsplit", 2, 0, input, indices_or_sections)


def dsplit(input, indices_or_sections):
    return _hvd_split("dsplit", 3, 2, input, indices_or_sections)


_MESHGRID_WARNED = [False]


def meshgrid(*tensors, indexing=None):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    if indexing is None:
        if not _MESHGRID_WARNED[0]:
            import warnings
            _MESHGRID_WARNED[0] = True
            warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass "
                          "the indexing argument.", UserWarning, stacklevel=2)
        indexing = "ij"
    for x in tensors:
        if x._data.ndim > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but "
                               "got: " + str(x))
    if len({x._data.dtype for x in tensors}) > 1:
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but '
                           f'received: {indexing}')
    swap = indexing == "xy" and len(tensors) >= 2
    ts = list(tensors)
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = tuple(x._data.size for x in ts)
    n = len(ts)
    out = []
    for i, x in enumerate(ts):
        v = view(x, tuple(-1 if j == i else 1 for j in range(n)))
        out.append(expand(v, shape))
    if swap:
        out[0], out[1] = out[1], out[0]
    return tuple(out)


def atleast_1d(*tensors):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return tuple(atleast_1d(x) for x in tensors[0])
    if len(tensors) != 1:
        return tuple(atleast_1d(x) for x in tensors)
    x = tensors[0]
    return reshape(x, (1,)) if x._data.ndim == 0 else x


def atleast_2d(*tensors):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return tuple(atleast_2d(x) for x in tensors[0])
    if len(tensors) != 1:
        return tuple(atleast_2d(x) for x in tensors)
    x = tensors[0]
    nd = x._data.ndim
    if nd == 0:
        return reshape(x, (1, 1))
    return unsqueeze(x, 0) if nd == 1 else x


def atleast_3d(*tensors):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return tuple(atleast_3d(x) for x in tensors[0])
    if len(tensors) != 1:
        return tuple(atleast_3d(x) for x in tensors)
    x = tensors[0]
    nd = x._data.ndim
    if nd == 0:
        return reshape(x, (1, 1, 1))
    if nd == 1:
        return unsqueeze(unsqueeze(x, 0), -1)
    return unsqueeze(x, -1) if nd == 2 else x


def column_stack(tensors):
    tensors = _nonempty("column_stack", tensors)
    return hstack([reshape(x, (x._data.size, 1)) if x._data.ndim <= 1 else x for x in tensors])


def row_stack(tensors):
    return vstack(tensors)


def dstack(tensors):
    return cat(atleast_3d(_nonempty("dstack", tensors)), 2)


def broadcast_tensors(*tensors):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    shape = ()
    for x in tensors:
        try:
            shape = np.broadcast_shapes(shape, x._data.shape)
        except ValueError:
            raise broadcast_error(shape, x._data.shape) from None
    return tuple(x if x._data.shape == shape else expand(x, shape) for x in tensors)


def broadcast_shapes(*shapes):
    """PyTorch's Python implementation, with its message naming the partial result."""
    from .._tensor import Size
    given = shapes   # (the message prints each argument as passed: torch.Size([2]), (2,))
    shapes = [(s,) if isinstance(s, (int, np.integer)) else tuple(s) for s in shapes]
    result = [1] * _py_max([len(s) for s in shapes], default=0)
    for j, s in enumerate(shapes):
        for i in range(-1, -1 - len(s), -1):
            if s[i] == 1 or s[i] == result[i]:
                continue
            if result[i] != 1:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {s[i]} at "
                                   f"{i}! Mismatching argument at index {j} had {given[j]}; but "
                                   f"expected shape should be broadcastable to {result}")
            result[i] = s[i]
    return Size(result)


@view_errors_before_checks
def narrow_copy(input, dim, start, length):
    d = input._data
    if d.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, d.ndim, input)
    size = d.shape[dim]
    if start < 0:
        start += size
    if start < 0 or start + length > size or length < 0:
        narrow(input, dim, start, length)  # the same errors
    return _finish(NARROW_COPY, (input,), (dim, start, length),
                   d[(slice(None),) * dim + (slice(start, start + length),)].copy())


@view_errors_before_checks
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    d = input._data
    nd = d.ndim + 1
    given = (dim1, dim2)
    dim1, dim2 = _wrap_dim(dim1, nd, input), _wrap_dim(dim2, nd, input)
    if dim1 == dim2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {given[0]}, {given[1]}")
    shape = _diag_embed_shape(d.shape if d.ndim else (1,), offset, dim1, dim2)
    out = raw.diagonal_backward(d if d.ndim else d.reshape(1), shape, offset, dim1, dim2)
    return _finish(DIAG_EMBED, (input,), (offset, dim1, dim2), out)


def _inplace_view(op, t, params, out):
    """``t.transpose_(...)`` and friends: t takes the view's geometry, version and node."""
    if t._view is not None or (t._requires_grad and t._grad_fn is None):
        inplace.check_inplace(t, (t,))  # (autograd's check_inplace, a view of a leaf too)
    if t._view is not None:
        t.grad_fn  # noqa: B018  (Note [Lazy view rebase]: its history first)
    r = _finish(op, (t,), params, out)
    t._data = r._data
    t._grad_fn, t._output_nr = r._grad_fn, r._output_nr
    if r._meta is not None and "fw_grad" in r._meta:
        tangent = r._meta["fw_grad"]
        meta = t._meta if t._meta is not None else {}
        cur = meta.get("fw_grad")
        if cur is not None:  # the tangent takes the same geometry, in place too
            cur._data = tangent._data
        else:
            meta["fw_grad"] = tangent
        t._meta = meta
    if t._meta is None or not t._meta.get("inference"):
        t._vc[0] += 1
    if t._view is not None and t._grad_fn is not None:
        # (with no history the view stays stale: PyTorch regenerates its node, an
        # AsStridedBackward0, once the base requires grad; Note [Lazy view rebase])
        t._view.version = t._vc[0]
    return t


def transpose_(input, dim0, dim1):
    d = input._data if input._data.size else view_source(input)
    dim0, dim1 = _wrap_dim(dim0, d.ndim), _wrap_dim(dim1, d.ndim)
    out = np.swapaxes(d, dim0, dim1) if d.ndim else d.view()
    return _inplace_view(TRANSPOSE_, input, (dim0, dim1), out)


swapaxes_ = swapdims_ = transpose_


def t_(input):
    d = input._data if input._data.size else view_source(input)
    if d.ndim > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {d.ndim}D")
    return _inplace_view(T_, input, (), d.T)


def unsqueeze_(input, dim):
    d = input._data if input._data.size else view_source(input)
    dim = _wrap_dim(dim, d.ndim + 1)
    new = d.shape[dim] * d.strides[dim] if dim < d.ndim else d.itemsize
    out = np.lib.stride_tricks.as_strided(d, d.shape[:dim] + (1,) + d.shape[dim:],
                                          d.strides[:dim] + (new,) + d.strides[dim:],
                                          subok=True)
    return _inplace_view(UNSQUEEZE_, input, (dim,), out)


def squeeze_(input, dim=None):
    d = input._data
    if dim is None:
        return _inplace_view(SQUEEZE_, input, (), np.squeeze(d))
    if isinstance(dim, (tuple, list)):
        dims = tuple(x for x in _squeeze_dims(dim, d.ndim) if d.ndim and d.shape[x] == 1)
        return _inplace_view(SQUEEZE_DIMS_, input, (dims,), np.squeeze(d, dims))
    dim = _wrap_dim(dim, d.ndim)
    out = np.squeeze(d, dim) if d.ndim and d.shape[dim] == 1 else d.view()
    return _inplace_view(SQUEEZE_INPLACE_DIM, input, (dim,), out)


# PyTorch's autograd checks (leaf, views) come before these ops' dim checks
transpose_, t_, unsqueeze_, squeeze_ = map(inplace.autograd_checks_first,
                                           (transpose_, t_, unsqueeze_, squeeze_))
swapaxes_ = swapdims_ = transpose_


def _as_2d(a):
    return a.reshape(1, -1) if a.ndim < 2 else a


def _block_diag_kernel(arrays):
    arrays = [_as_2d(a) for a in arrays]
    rows = _py_sum(a.shape[0] for a in arrays)
    cols = _py_sum(a.shape[1] for a in arrays)
    dt = np.result_type(*arrays) if arrays else np.float32
    out = np.zeros((rows, cols), dtype=dt)
    r = c = 0
    for a in arrays:
        out[r:r + a.shape[0], c:c + a.shape[1]] = a
        r += a.shape[0]
        c += a.shape[1]
    return out


def _block_diag_backward(F, grad, tensors_sizes):
    out = []
    r = c = 0
    for sizes in tensors_sizes:
        h, w = (1, int(np.prod(sizes))) if len(sizes) < 2 else sizes
        out.append(F.reshape(F.getitem(grad, (slice(r, r + h), slice(c, c + w))),
                             tuple(sizes)))
        r += h
        c += w
    return tuple(out)


BLOCK_DIAG = defop("block_diag", "BlockDiagBackward0", _block_diag_kernel, inputs=("tensors",),
                   variadic=True, backward_all=_block_diag_backward,
                   jvp=lambda F, tensors, tensors_t:
                       block_diag(*_zeros_for_missing(F, tensors, tensors_t)))


@view_errors_before_checks
def block_diag(*tensors):
    for i, x in enumerate(tensors):
        if x._data.ndim > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer "
                               f"dimensions. Input {i} has {x._data.ndim} dimensions")
    if not tensors:
        return _make(np.zeros((1, 0), dtype=_dtypes.get_default_dtype().np))
    dt = _dtypes.result_type(*tensors).np if len(tensors) > 1 else tensors[0]._data.dtype
    out = _block_diag_kernel([x._data.astype(dt, copy=False) for x in tensors])
    r = _finish(BLOCK_DIAG, tuple(tensors), (), out)
    if r._grad_fn is not None:
        _fix_variadic_dtypes(r, tensors, out)
    return r


def _expect_1d(tensors):
    for x in tensors:
        if x._data.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape "
                               f"[{_errors.shape_str(x._data.shape)}]")


def cartesian_prod(*tensors):
    _expect_1d(tensors)
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return stack([flatten(g) for g in grids], 1)


def combinations(input, r=2, with_replacement=False):
    _expect_1d((input,))
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return _make(np.zeros((0,), dtype=input._data.dtype))
    from .indexing import masked_select
    n = input._data.shape[0]
    grids = meshgrid(*([input] * r), indexing="ij")
    ids = np.indices((n,) * r)
    mask = np.ones((n,) * r, dtype=bool)
    for i in range(r - 1):
        mask &= ids[i] <= ids[i + 1] if with_replacement else ids[i] < ids[i + 1]
    return stack([masked_select(g, _make(mask)) for g in grids], 1)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    if repeats is None:  # torch.repeat_interleave(repeats): the indices it would gather
        return _make(_repeats_to_indices(input._data))
    if not isinstance(repeats, Tensor):
        _argparse.ints(repeats)
    if dim is None:
        input = flatten(input)
        dim = 0
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    if isinstance(repeats, Tensor):
        r = repeats._data
        if r.ndim > 1:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        if r.dtype.kind not in "iu":
            name = _dtypes.legacy_type_name(_dtypes.from_numpy(r.dtype))[6:-6]
            raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for '{name}'")
        size = d.shape[dim] if d.ndim else 1
        if r.size == 1:
            r = np.full((size,), int(r.reshape(-1)[0]), dtype=r.dtype)
        elif r.shape[0] != size:
            raise RuntimeError(f"repeats must have the same size as input along dim, but got "
                               f"repeats.size(0) = {r.shape[0]} and input.size({dim}) = {size}")
        from .indexing import index_select
        return index_select(input, dim, _make(_repeats_to_indices(r)))
    n = int(repeats)
    if n < 0:
        raise RuntimeError("Repeats must be non-negative")
    u = unsqueeze(input, dim + 1)
    shape = list(u._data.shape)
    shape[dim + 1] = n
    out_shape = list(d.shape)
    out_shape[dim] *= n
    return view(clone_contiguous(expand(u, tuple(shape))), tuple(out_shape))


def _repeats_to_indices(r):
    if r.ndim > 1:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    if r.size and r.min() < 0:
        raise RuntimeError("repeats can not be negative")
    return np.repeat(np.arange(r.size, dtype=np.int64), r.reshape(-1).astype(np.int64))


def _tri_(op, ufunc, name, input, diagonal):
    """aten's in-place tril_/triu_: where it works in place (Note [Triangular in place]) it
    only writes zeros, so an expanded tensor takes them (every element sharing a zeroed
    location reads zero) instead of raising the overlap error."""
    inplace.check_inplace(input, (input,))  # (autograd's checks before the kernel's)
    d = input._data
    if d.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    where = True
    if not d.flags.c_contiguous and d.size:
        if inplace.has_internal_overlap(d) and not _batch_contiguous(d):
            raise RuntimeError(inplace.OVERLAP_MESSAGE)  # (its copy_ back from a clone)
        n, m = d.shape[-2:]  # the positions the kernel zeroes, written one by one
        where = ~np.tri(n, m, diagonal, dtype=bool) if ufunc is np.tril else \
            np.tri(n, m, diagonal - 1, dtype=bool)
    return inplace.record_inplace(op, input, (input,), (diagonal,), ufunc(d, diagonal), where)


# Note [Triangular in place]: aten's compute_triu_tril works on self itself when
# checkTrilTriuBatchContiguous allows it (at most 3 dims, or the batch dims laid out as a
# contiguous stack of matrices, a leading expanded dim skipped); otherwise on a contiguous
# clone, copied back with copy_ (whose overlap check refuses an expanded self).
def _batch_contiguous(d):
    if d.ndim <= 3:
        return True
    item = d.itemsize
    expected = d.shape[-1] * d.shape[-2]
    for i in range(d.ndim - 3, -1, -1):
        if i == 0 and (d.strides[0] == 0 or d.shape[0] == 1):
            continue
        if d.strides[i] // item != expected:
            return False
        expected *= d.shape[i]
    return True


def tril_(input, diagonal=0):
    return _tri_(TRIL, np.tril, "tril", input, diagonal)


def triu_(input, diagonal=0):
    return _tri_(TRIU, np.triu, "triu", input, diagonal)


# ---- the catalogue, names still missing (issue 11) ---------------------------------------------
def split_with_sizes(input, split_sizes, dim=0):
    """``split`` by a list of sizes, with PyTorch's check of each size first."""
    sizes = [int(s) for s in split_sizes]
    if [s for s in sizes if s < 0]:
        raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative "
                           f"entries, but got split_sizes=[{', '.join(map(str, sizes))}]")
    return split(input, sizes, dim)


def _tri_indices(row, col, offset, dtype, lower):
    name = "tril_indices" if lower else "triu_indices"
    dtype = _dtypes.int64 if dtype is None else dtype
    if dtype.np.kind not in "iu":
        raise NotImplementedError(f"\"{name}\" not implemented for '{_dtypes.scalar_name(dtype)}'")
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    r, c = (np.tril_indices if lower else np.triu_indices)(row, offset, col)
    return _make(np.stack([r, c]).astype(dtype.np).reshape(2, -1))


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None,
                 pin_memory=False):
    """The (row, column) indices of the lower triangle of a row x col matrix, 2 x N."""
    return _tri_indices(row, col, offset, dtype, True)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None,
                 pin_memory=False):
    """The (row, column) indices of the upper triangle of a row x col matrix, 2 x N."""
    return _tri_indices(row, col, offset, dtype, False)


AS_STRIDED_ = defop("as_strided_", "AsStridedBackward1", None,
                    params=("size", "stride", "storage_offset", "layout"),
                    grads={"self": lambda F, grad, size, stride, storage_offset, layout:
                           F.as_strided_backward(grad, layout, size, stride, storage_offset)},
                    jvp=AS_STRIDED.jvp)
# (its tangent is self_t.as_strided_(...), laid out as the result and in self_t's own dtype:
# no set_fw_grad copy into self's, Note [Tangent layout] in autograd/forward_ad.py)
AS_STRIDED_.views = True


def as_strided_(input, size, stride, storage_offset=None):
    """``x.as_strided_(size, stride)``: x itself becomes the strided view of its storage."""
    offset = input.storage_offset() if storage_offset is None else storage_offset
    out = _checked_strided(_storage_array(input), size, stride, offset)
    layout = (input._data.shape, input.stride())
    rel = offset - input.storage_offset()
    return _inplace_view(AS_STRIDED_, input, (tuple(size), tuple(stride), rel, layout), out)


def resize_(input, *sizes, memory_format=None):
    """PyTorch's resize_: the elements kept in storage order, the storage grown when needed
    (the new elements uninitialised: zeros here); refused for a tensor that requires grad.
    A storage shrunk by one resize_ is not grown back with its old elements (PyTorch keeps
    them): here a second resize_ allocates."""
    shape = _shape_args(sizes)
    if input.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    if [s for s in shape if s < 0]:  # (PyTorch's numel check sees an unsigned overflow)
        raise RuntimeError("numel: integer multiplication overflow")
    d = input._data
    n = 1
    for s in shape:
        n *= s
    if shape == d.shape:
        return input
    if n <= d.size and _is_contiguous(d):
        new = d.reshape(-1)[:n].reshape(shape)
    else:
        new = np.zeros(shape, dtype=d.dtype)
        k = min(n, d.size)
        new.reshape(-1)[:k] = d.reshape(-1)[:k]
        input._view = None  # (its own storage now)
    input._data = new
    input._vc[0] += 1
    return input


def resize_as_(input, the_template, *, memory_format=None):
    return resize_(input, tuple(the_template._data.shape))
