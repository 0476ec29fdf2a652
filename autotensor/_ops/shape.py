"""Shape ops: views (view/reshape/transpose/permute/expand/squeeze/split/unbind/diagonal/
as_strided, Note [Views] in autograd/inplace.py) and shape-changing copies (cat/stack/flip/
tril/triu). Table entries and formula helpers first, then the public functions.
"""
from .. import _dtypes, _errors
from .._backend import np
from .._tensor import _is_contiguous, _make, Tensor
from ..autograd import inplace
from . import raw
from .dispatch import defop
from ._common import (
    _finish, _multi_view, _py_any, _py_sum, _shape_args, _view_result, _wrap_dim)
from .pointwise import clone


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
        if sizes == (0,) and grad.ndim != 1:   # legacy empty tensors are skipped by cat
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
             jvp="linear")
TRIU = defop("triu", "TriuBackward0", lambda a, diagonal: np.triu(a, diagonal),
             params=("diagonal",), grads={"self": lambda F, grad, diagonal: F.triu(grad, diagonal)},
             jvp="linear")
FLIP = defop("flip", "FlipBackward0", lambda a, dims: np.flip(a, dims).copy(), params=("dims",),
             grads={"self": lambda F, grad, dims: F.flip(grad, dims)},
             jvp="linear")


UNSAFE_VIEW = defop("_unsafe_view", "UnsafeViewBackward0", raw.reshape, params=("size",),
                    grads={"self": lambda F, grad, self_sizes: F.reshape(grad, self_sizes)},
                    jvp="linear")


CAT = defop("cat", "CatBackward0", None, inputs=("tensors",), params=("dim",), variadic=True,
            backward_all=lambda F, grad, dim, tensors_sizes: cat_backward(
                F, grad, dim, tensors_sizes),
            jvp=lambda F, tensors, tensors_t, dim:
                F.cat(_zeros_for_missing(F, tensors, tensors_t), dim))
STACK = defop("stack", "StackBackward0", None, inputs=("tensors",), params=("dim",),
              variadic=True,
              backward_all=lambda F, grad, dim: tuple(
                  F.select(grad, dim, i) for i in range(grad.shape[dim])),
              jvp=lambda F, tensors, tensors_t, dim:
                  F.stack(_zeros_for_missing(F, tensors, tensors_t), dim))


# View ops: results share storage with their input (see autograd/inplace.py).
VIEW = defop("view", "ViewBackward0", raw.reshape, params=("size",),
             grads={"self": lambda F, grad, self_sizes: F.reshape(grad, self_sizes)},
             jvp="linear")
RESHAPE_ALIAS = defop("_reshape_alias", "ReshapeAliasBackward0", raw.reshape, params=("size",),
                      grads={"self": lambda F, grad, self_sizes: F.reshape(grad, self_sizes)},
                      jvp="linear")
ALIAS = defop("alias", "AliasBackward0", lambda a: a.view(), grads={"self": lambda F, grad: grad},
              jvp="linear")
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
               grads={"self": lambda F, grad, self_sizes: F.sum_to(grad, self_sizes)},
               jvp="linear")
SQUEEZE = defop("squeeze", "SqueezeBackward0", lambda a: np.squeeze(a),
                grads={"self": lambda F, grad, self_sizes: F.reshape(grad, self_sizes)},
                jvp="linear")
SQUEEZE_DIM = defop("squeeze", "SqueezeBackward1", lambda a, dim: a.reshape(
                        a.shape[:dim] + a.shape[dim + 1:]) if a.shape[dim] == 1 else a,
                    params=("dim",),
                    grads={"self": lambda F, grad, self_sizes: F.reshape(grad, self_sizes)},
                    jvp="linear")
SQUEEZE_DIMS = defop("squeeze", "SqueezeBackward2", raw.squeeze, params=("dim",),
                     grads={"self": lambda F, grad, self_sizes: F.reshape(grad, self_sizes)},
                     jvp="linear")
SQUEEZE_INPLACE_DIM = defop("squeeze_", "SqueezeBackward4", raw.squeeze, params=("dim",),
                            grads={"self": lambda F, grad, self_sizes:
                                   F.reshape(grad, self_sizes)},
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
                      F.getitem_backward(grad, self_sizes, (slice(None),) * dim + (index,))},
               jvp="linear")
SPLIT = defop("split", "SplitBackward0", None, params=("split_size", "dim"), outputs=None,
              grads={"self": split_backward},
              jvp=lambda F, self_t, split_size, dim: split(self_t, split_size, dim))
SPLIT_WITH_SIZES = defop("split_with_sizes", "SplitWithSizesBackward0", None,
                         params=("split_sizes", "dim"), outputs=None,
                         grads={"self": split_with_sizes_backward},
                         jvp=lambda F, self_t, split_sizes, dim:
                             split(self_t, list(split_sizes), dim))
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
                   jvp=lambda F, self_t, size, stride, storage_offset:
                       F.as_strided(self_t, size, stride, storage_offset))
UNFOLD = defop("unfold", "UnfoldBackward0", None,
               params=("dimension", "size", "step", "out_size", "out_stride", "layout"),
               grads={"self": lambda F, grad, out_size, out_stride, layout:
                      F.as_strided_backward(grad, layout, out_size, out_stride, 0)},
               jvp=lambda F, self_t, dimension, size, step: unfold(self_t, dimension, size, step))


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
AS_STRIDED_BACKWARD = defop("as_strided_backward", "AsStridedBackwardBackward0", None,
                            inputs=("grad",), params=("layout", "size", "stride", "offset"),
                            grads={"grad": lambda F, grad, layout, size, stride, offset:
                                   F.strided_view(grad, layout, size, stride, offset)},
                            jvp=lambda F, grad_t, layout, size, stride, offset:
                                F.as_strided_backward(grad_t, layout, size, stride, offset))
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
    shape = _infer_shape(_shape_args(shape), input._data.size)
    try:
        out = np.reshape(input._data, shape, copy=False)
    except ValueError:
        raise RuntimeError(_errors.VIEW_STRIDE) from None
    return _view_result(VIEW, input, (shape,), out)


def view_as(input, other):
    return view(input, other._data.shape)


def reshape(input, *shape):
    """A view when the strides allow (ViewBackward0, or ReshapeAliasBackward0 for a
    non-contiguous input, as PyTorch records), else a copy (CloneBackward0 +
    UnsafeViewBackward0)."""
    shape = _infer_shape(_shape_args(shape), input._data.size)
    try:
        out = np.reshape(input._data, shape, copy=False)
    except ValueError:
        return _unsafe_view(clone(input), shape)
    op = VIEW if _is_contiguous(input._data) else RESHAPE_ALIAS
    return _view_result(op, input, (shape,), out)


def reshape_as(input, other):
    return reshape(input, other._data.shape)


def flatten(input, start_dim=0, end_dim=-1):
    d = input._data
    if d.ndim == 0:
        return reshape(input, (1,))
    s = _wrap_dim(start_dim, d.ndim)
    e = _wrap_dim(end_dim, d.ndim)
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
    sizes = list(sizes)
    if -1 in sizes:
        known = int(np.prod([s for s in sizes if s != -1]))
        sizes[sizes.index(-1)] = d.shape[dim] // known if known else 0
    return view(input, d.shape[:dim] + tuple(sizes) + d.shape[dim + 1:])


def t(input):
    d = input._data
    if d.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {d.ndim}D")
    return _view_result(T, input, (), d.T)


def transpose(input, dim0, dim1):
    d = input._data
    dim0, dim1 = _wrap_dim(dim0, d.ndim), _wrap_dim(dim1, d.ndim)
    out = np.swapaxes(d, dim0, dim1) if d.ndim else d.view()
    return _view_result(TRANSPOSE, input, (dim0, dim1), out)


swapaxes = swapdims = transpose


def adjoint(input):
    return transpose(input, -2, -1)


def permute(input, *dims):
    d = input._data
    dims = _shape_args(dims)
    if len(dims) != d.ndim:
        raise RuntimeError(f"permute(): number of dimensions in the tensor input does not match "
                           f"the length of the desired ordering of dimensions i.e. input.dim() "
                           f"= {d.ndim} is not equal to len(dims) = {len(dims)}")
    dims = tuple(_wrap_dim(x, d.ndim) for x in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return _view_result(PERMUTE, input, (dims,), np.transpose(d, dims))


def movedim(input, source, destination):
    d = input._data
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    src = [_wrap_dim(s, d.ndim) for s in src]
    dst = [_wrap_dim(x, d.ndim) for x in dst]
    if d.ndim == 0:
        return _alias(input)  # (PyTorch: a 0-d movedim is an alias)
    perm = [n for n in range(d.ndim) if n not in src]
    for s, t_ in sorted(zip(src, dst), key=lambda p: p[1]):
        perm.insert(t_, s)
    return permute(input, tuple(perm))


moveaxis = movedim


def _T(input):
    d = input._data
    return permute(input, tuple(range(d.ndim - 1, -1, -1)))


def _mT(input):
    nd = input._data.ndim
    if nd == 0:
        return input
    if nd == 1:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. "
                           "Got 1-D tensor.")
    return transpose(input, -2, -1)


def expand(input, *sizes):
    sizes = _shape_args(sizes)
    d = input._data
    if len(sizes) < d.ndim:
        raise RuntimeError(f"expand(torch.{_dtypes.legacy_type_name(input.dtype)[6:]}"
                           f"{{[{_errors.shape_str(d.shape)}]}}, size=[{_errors.shape_str(sizes)}]"
                           f"): the number of sizes provided ({len(sizes)}) must be greater or "
                           f"equal to the number of dimensions in the tensor ({d.ndim})")
    lead = len(sizes) - d.ndim
    shape = list(sizes)
    for i, s in enumerate(d.shape):
        want = sizes[lead + i]
        if want == -1:
            shape[lead + i] = s
        elif s != 1 and s != want:
            raise RuntimeError(f"The expanded size of the tensor ({want}) must match the "
                               f"existing size ({s}) at non-singleton dimension {lead + i}.  "
                               f"Target sizes: [{_errors.shape_str(sizes)}].  Tensor sizes: "
                               f"[{_errors.shape_str(d.shape)}]")
    shape = tuple(shape)
    # as_strided rather than broadcast_to: the view stays writable, like PyTorch's
    strides = (0,) * lead + tuple(0 if s == 1 and want != 1 else st for s, want, st in
                                  zip(d.shape, shape[lead:], d.strides))
    out = np.lib.stride_tricks.as_strided(d, shape, strides)
    return _view_result(EXPAND, input, (shape,), out)


def expand_as(input, other):
    return expand(input, other._data.shape)


def broadcast_to(input, size):
    return expand(input, size)


def squeeze(input, dim=None):
    d = input._data
    if dim is None:
        return _view_result(SQUEEZE, input, (), np.squeeze(d))
    if isinstance(dim, (tuple, list)):
        dims = tuple(x for x in (_wrap_dim(x, d.ndim) for x in dim) if d.ndim and d.shape[x] == 1)
        return _view_result(SQUEEZE_DIMS, input, (dims,), np.squeeze(d, dims))
    dim = _wrap_dim(dim, d.ndim)
    out = np.squeeze(d, dim) if d.ndim and d.shape[dim] == 1 else d.view()
    return _view_result(SQUEEZE_DIM, input, (dim,), out)


def unsqueeze(input, dim):
    d = input._data
    dim = _wrap_dim(dim, d.ndim + 1)
    # PyTorch's stride for the new dim: size * stride of the dim it precedes (1 at the end)
    new = d.shape[dim] * d.strides[dim] if dim < d.ndim else d.itemsize
    out = np.lib.stride_tricks.as_strided(d, d.shape[:dim] + (1,) + d.shape[dim:],
                                          d.strides[:dim] + (new,) + d.strides[dim:])
    return _view_result(UNSQUEEZE, input, (dim,), out)


def narrow(input, dim, start, length):
    d = input._data
    if d.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, d.ndim)
    if isinstance(start, Tensor):
        start = int(start)
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
    d = input._data
    key = (slice(None),) * dim + (slice(start, end, step),)
    out = d[key]
    if out.size == 0:  # NumPy normalises empty views' strides; keep PyTorch's
        strides = d.strides[:dim] + (d.strides[dim] * step,) + d.strides[dim + 1:]
        out = np.lib.stride_tricks.as_strided(out, out.shape, strides)
    r = _view_result(SLICE, input, (dim, start, end, step), out)
    if out.size == 0 and r._view is not None:
        r._view.offset = input.storage_offset() + start * input.stride(dim)
    return r


def select(input, dim, index):
    d = input._data
    if d.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, d.ndim)
    index = int(index)
    size = d.shape[dim]
    if index < -size or index >= size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"[{_errors.shape_str(d.shape)}] at dimension {dim}")
    if index < 0:
        index += size
    return _view_result(SELECT, input, (dim, index), d[(slice(None),) * dim + (index, Ellipsis)])


def _chunk_check(input):
    if input._data.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")


def split(tensor, split_size_or_sections, dim=0):
    d = tensor._data
    if d.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    dim = _wrap_dim(dim, d.ndim)
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
        return _multi_view(SPLIT_WITH_SIZES, tensor, (tuple(sizes), dim), arrays)
    step = int(split_size_or_sections)
    if step <= 0 and size:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension "
                           f"size of {size}")
    starts = range(0, size, step) if size else [0]
    arrays = [d[(slice(None),) * dim + (slice(s, s + step),)] for s in starts]
    return _multi_view(SPLIT, tensor, (step, dim), arrays)


def chunk(input, chunks, dim=0):
    _chunk_check(input)
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    size = d.shape[dim]
    if size == 0:
        return split(input, [0], dim)  # PyTorch: split_with_sizes for an empty dim
    step = -(-size // chunks)
    return split(input, step, dim)


def unbind(input, dim=0):
    d = input._data
    dim = _wrap_dim(dim, d.ndim)
    if d.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    arrays = [d[(slice(None),) * dim + (i, Ellipsis)] for i in range(d.shape[dim])]
    return _multi_view(UNBIND, input, (dim,), arrays)


def diagonal(input, offset=0, dim1=0, dim2=1):
    d = input._data
    given = (dim1, dim2)
    dim1, dim2 = _wrap_dim(dim1, d.ndim), _wrap_dim(dim2, d.ndim)
    if dim1 == dim2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {given[0]}, {given[1]}")
    out = raw._diagonal_view(d, offset, dim1, dim2)
    return _view_result(DIAGONAL, input, (offset, dim1, dim2), out)


def unfold(input, dimension, size, step):
    d = input._data
    dim = _wrap_dim(dimension, d.ndim)
    n = (d.shape[dim] - size) // step + 1
    shape = d.shape[:dim] + (n,) + d.shape[dim + 1:] + (size,)
    strides = d.strides[:dim] + (d.strides[dim] * step,) + d.strides[dim + 1:] + \
        (d.strides[dim],)
    out = np.lib.stride_tricks.as_strided(d, shape, strides)
    item = d.itemsize
    layout = (d.shape, tuple(s // item for s in d.strides))
    params = (dim, size, step, shape, tuple(s // item for s in strides), layout)
    return _view_result(UNFOLD, input, params, out)


def as_strided(input, size, stride, storage_offset=None):
    base = input._view.base if input._view is not None else input
    root = base._data
    item = root.itemsize
    offset = input.storage_offset() if storage_offset is None else storage_offset
    out = raw.as_strided(root, tuple(size), tuple(stride), offset)
    layout = (input._data.shape, input.stride())
    rel = offset - input.storage_offset()
    r = _finish(AS_STRIDED, (input,), (tuple(size), tuple(stride), rel, layout), out)
    inplace.make_views((r,), input, "AsStridedBackward0")
    del item
    return r


def _alias(input):
    """``x[...]``, ``x[:, :]``: a view with the same shape (AliasBackward0)."""
    return _view_result(ALIAS, input, (), input._data.view())


def cat(tensors, dim=0, *, out=None):
    tensors = list(tensors)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, x in enumerate(tensors):
        if not isinstance(x, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(x).__name__}")
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
    dt = _dtypes.result_type(*tensors).np if len({a.dtype for a in arrays}) > 1 else \
        arrays[0].dtype
    out = np.concatenate(arrays, axis=dim, dtype=dt) if arrays else np.zeros((0,), dt)
    r = _finish(CAT, tuple(tensors), (dim,), out)
    if r._grad_fn is not None:
        _fix_variadic_dtypes(r, tensors, out)
    return r


def _fix_variadic_dtypes(r, tensors, out):
    if _py_any(x._data.dtype != out.dtype for x in tensors):
        r._grad_fn._reduce = [(x._data.shape, x._data.dtype) if x._requires_grad else None
                              for x in tensors]


concat = concatenate = cat


def stack(tensors, dim=0, *, out=None):
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
    dt = _dtypes.result_type(*tensors).np if len({a.dtype for a in arrays}) > 1 else \
        arrays[0].dtype
    out = np.stack(arrays, axis=dim).astype(dt, copy=False)
    r = _finish(STACK, tuple(tensors), (dim,), out)
    if r._grad_fn is not None:
        _fix_variadic_dtypes(r, tensors, out)
    return r


def hstack(tensors):
    return cat(tensors, 0 if tensors[0]._data.ndim == 1 else 1)


def vstack(tensors):
    return cat([x if x._data.ndim > 1 else unsqueeze(x, 0) for x in tensors], 0)


def flip(input, dims):
    d = input._data
    if isinstance(dims, int):
        dims = (dims,)
    dims = tuple(_wrap_dim(x, d.ndim) for x in dims)
    out = np.flip(d, dims).copy() if d.ndim else d.copy()
    return _finish(FLIP, (input,), (dims,), out)


def _tri(op, ufunc, name, input, diagonal):
    if input._data.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    return _finish(op, (input,), (diagonal,), ufunc(input._data, diagonal))


def tril(input, diagonal=0):
    return _tri(TRIL, np.tril, "tril", input, diagonal)


def triu(input, diagonal=0):
    return _tri(TRIU, np.triu, "triu", input, diagonal)
