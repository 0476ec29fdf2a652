"""The memory layout (strides) of an op's result, as PyTorch allocates it.

Note [Result layout]
~~~~~~~~~~~~~~~~~~~~
A result's strides are visible (``stride()``, ``is_contiguous()``, whether ``view(-1)``
raises), and PyTorch allocates results in these ways (an entry declares its kind once,
``defop(..., layout=...)``, a tuple for one kind per output, or a rule function):

* ``iter``: an elementwise op's TensorIterator lays its output out in the stride order of
  its inputs (``TensorIteratorBase::reorder_dimensions``: dims sorted by the strides of the
  first input whose comparison is not ambiguous; broadcast dims are ambiguous; ties go to
  the smaller dim), after a fast path: inputs of one shape that are all contiguous give a
  contiguous output, all channels-last (4-d) a channels-last one, all non-overlapping and
  dense with equal strides an output with those very strides (``compute_fast_setup_type``).
* ``like``: ``empty_like`` with ``preserve_format`` (clone, the ``*_like`` factories,
  ops written ``at::empty_like(self)``): the input's strides when it is non-overlapping and
  dense, else ``infer_dense_strides`` (TensorIterator's order for one tensor).
* ``view``: the input's very strides (broadcast and overlapping ones too), for the lazy
  views PyTorch returns and this package computes (``conj``, ``_neg_view``: Note
  [Conjugate bit]).
* ``column_major``: LAPACK's results, ``batched_matrix_contiguous_strides(sizes,
  f_contig=true)`` (LinearAlgebraUtils.h): a C-contiguous batch of column-major matrices,
  size-1 dims included (a 3 x 1 solution has strides (1, 3)); ``linalg.solve`` /
  ``lu_solve`` with ``left=False`` are contiguous (``column_major_if``), ``lstsq``'s
  solution the first n rows of a max(m, n)-row buffer (``lstsq_solution``).
* the FFTs (``fft_c2c`` / ``fft_r2c`` / ``fft_c2r``): MKL's ``_exec_fft`` (PyTorch's x86
  build; SpectralOps.cpp) permutes the batch dims first, in decreasing input stride, and
  allocates the batched result contiguous, so the result keeps the input's batch order.
* contiguous: reductions (structured ``resize_reduction``), and composite ops that build
  their result with ``at::empty(sizes)``, ``cat``, ``reshape`` of a contiguous tensor...

Two input-side rules: an operand whose dtype differs from the common one is first cast by
TensorIterator (``to``: empty_like's layout, ``cast``; a broadcast operand's cast is dense,
so its stride-0 dims then order the output: ``cast_layout``, ``iter_promoted``), and a
tensor with a conjugate or negative bit is read as its resolved clone (``_arrays``).
PyTorch's CPU random fills write their draws along TensorIterator's order
(``iteration_order``: memory order), which ``_random.in_memory_order`` reproduces for the
``*_like`` factories and in-place fills.

NumPy's ufuncs follow a similar rule for one input ("K" order) but not PyTorch's for mixed
layouts, broadcast or size-1 dims, and other kernels return C order; so results are
conformed after the kernel (``conform``), a copy only where the layouts differ. Inputs
that are all C-contiguous (the common case) cost one flag test each.
"""
from .._backend import np
from .._zero_grad import ZeroGrad

ndarray = np.ndarray
_as_strided = np.lib.stride_tricks.as_strided


def _perm(shape, operands, reduction=False):
    """TensorIterator's dim order (fastest first) for inputs ``operands`` of result
    ``shape``: each a tuple of element strides aligned to ``shape`` (0 for broadcast dims).
    ``reduction``: operands[0] is a reduction's output (stride 0 in the reduced dims), whose
    reduced dims go innermost (reorder_dimensions)."""
    ndim = len(shape)
    perm = list(range(ndim - 1, -1, -1))

    def should_swap(d0, d1):
        for k, st in enumerate(operands):
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:
                if reduction and k == 0 and (s0 == 0) != (s1 == 0):
                    return 1 if s1 == 0 else -1
                continue
            if s0 < s1:
                return -1
            if s0 > s1:
                return 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    for i in range(1, ndim):
        dim1 = i
        for dim0 in range(i - 1, -1, -1):
            c = should_swap(perm[dim0], perm[dim1])
            if c > 0:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                dim1 = dim0
            elif c < 0:
                break
    return perm


def iteration_order(shape, strides):
    """The dims, slowest first, in which TensorIterator walks one tensor of element
    ``strides`` (memory order for a dense one): PyTorch's CPU random fills draw along it."""
    return _perm(tuple(shape), [tuple(strides)])[::-1]


def is_contiguous(shape, strides):
    """PyTorch's ``is_contiguous()`` (size-1 dims ignored; empty tensors contiguous)."""
    expected = 1
    for sz, st in zip(reversed(shape), reversed(strides)):
        if sz == 0:
            return True
        if sz != 1:
            if st != expected:
                return False
            expected *= sz
    return True


def _dense_strides(shape, perm):
    """Strides of a dense tensor whose dims, fastest first, are ``perm``
    (``compatible_stride``)."""
    strides = [0] * len(shape)
    s = 1
    for d in perm:
        strides[d] = s
        s *= shape[d]
    return tuple(strides)


def _elem_strides(a):
    item = a.itemsize
    st = tuple(s // item for s in a.strides)
    if not a.size and not any(st) and st and not views_memory(a):
        return c_strides(a.shape)  # (Note [Empty strides])
    return st


# Note [Empty strides]
# ~~~~~~~~~~~~~~~~~~~~
# PyTorch's empty tensors have strides as any other: contiguous ones (max(size, 1), as
# ``c_strides``) when allocated so, their views' computed from the source's, TensorIterator's
# and empty_like's outputs laid out after their inputs (empty(0, 4).t().stride() == (1, 4),
# and (empty(0, 4).t() + 1).stride() too). NumPy 2 zeroes a fresh empty array's strides,
# but keeps strides given to an empty array (as_strided) through its views, and its
# contiguity flags hold for any empty array. So a fresh empty array's zero strides stand
# for contiguous ones (``Tensor.stride``, ``_elem_strides``); a view op of an empty tensor
# (and a raw view kernel of an empty gradient) first gives its array those strides
# (``view_source``), so that NumPy computes the view's from them; ``empty_strided`` gives
# an empty result the strides asked for; and the layout rules do not trust the flags of an
# empty array (``c_plain``, ``like_strides``). Non-empty tensors pay one size test per view
# op (and in the scalar fast path of binary ops). An array of only zero strides that does
# not view memory is taken for a fresh one (an empty tensor made from a NumPy array is
# marked instead: ``Tensor._numpy_strides``, and its zero strides laid out as
# ``empty_strided`` lays them out, so that clone, empty_like and to keep them as aten's do:
# an empty tensor is non-overlapping and dense whatever its strides).
def view_source(a):
    """The array a view of empty array ``a`` is computed from: a fresh one given the
    contiguous strides its zeros stand for (Note [Empty strides])."""
    if not a.ndim or any(a.strides) or views_memory(a):
        return a
    item = a.itemsize
    return _as_strided(a, a.shape, tuple(s * item for s in c_strides(a.shape)), subok=True)


class EmptyMemory(ndarray):
    """The buffer under an empty array ``empty_strided`` laid out: the array has its own
    memory (no view in PyTorch's sense, though NumPy's as_strided makes it one)."""

    __slots__ = ()


def own_empty(a):
    """Whether empty array ``a`` is one ``empty_strided`` made (not a view of another)."""
    b = a.base
    while b is not None:
        if b.__class__ is EmptyMemory:
            return True
        b = getattr(b, "base", None)
    return False


def views_memory(a):
    """Whether array ``a`` views a non-empty array (so its strides are NumPy's real ones)."""
    b = a.base
    while b is not None:  # (ndarrays, and the DummyArray of NumPy's as_strided)
        if isinstance(b, ndarray) and b.size:
            return True
        b = getattr(b, "base", None)
    return False


def is_non_overlapping_and_dense(shape, strides):
    """PyTorch's ``is_non_overlapping_and_dense`` (sizes 1 ignored; an empty tensor is,
    whatever its strides: its clone keeps them)."""
    if 0 in shape:
        return True
    dims = sorted((st, sz) for sz, st in zip(shape, strides) if sz != 1)
    expected = 1
    for st, sz in dims:
        if st != expected:
            return False
        expected *= sz
    return True


def _channels_last(shape, strides):
    """``is_contiguous(memory_format=torch.channels_last)`` of a 4-d tensor."""
    if len(shape) != 4:
        return False
    expected = 1
    for d in (1, 3, 2, 0):
        sz = shape[d]
        if sz == 0:
            return True
        if sz != 1:
            if strides[d] != expected:
                return False
            expected *= sz
    return True


def _channels_last_strides(shape):
    n, c, h, w = shape
    return (h * w * max(c, 1), 1, w * max(c, 1), max(c, 1))


def iter_strides(shape, arrays):
    """The element strides of a TensorIterator output of ``shape`` for input ``arrays``
    (ndarrays; anything else, e.g. a Python number, is a 0-d operand), or None for a
    contiguous output."""
    shape = tuple(shape)
    ins = [a for a in arrays if a.__class__ is ndarray]
    same = all(a.shape == shape for a in ins) and len(ins) == len(arrays)
    if same:
        if all(a.flags.c_contiguous for a in ins):
            return None
        strides = [_elem_strides(a) for a in ins]
        if all(_channels_last(shape, s) for s in strides):
            return _channels_last_strides(shape)
        if all(is_non_overlapping_and_dense(shape, s) for s in strides) and \
                all(s == strides[-1] for s in strides):
            return strides[-1]
    return iter_strides_of(shape, [(a.shape, _elem_strides(a)) for a in ins])


def iter_strides_of(shape, operands):
    """TensorIterator's (slow-path) output strides for ``operands``, (shape, element
    strides) pairs broadcast to ``shape``; None for contiguous."""
    ndim = len(shape)
    ops = []
    for sh, st in operands:
        off = ndim - len(sh)
        ops.append((0,) * off + tuple(0 if sz == 1 and shape[off + i] != 1 else s
                                      for i, (sz, s) in enumerate(zip(sh, st))))
    perm = _perm(shape, ops)
    if perm == list(range(ndim - 1, -1, -1)):
        return None
    return _dense_strides(shape, perm)


def like_strides(a):
    """``empty_like(a)``'s element strides (preserve_format); None for contiguous."""
    shape = a.shape
    if a.flags.c_contiguous and 1 not in shape and a.size:  # (an empty one keeps its
        return None                                           # strides: Note [Empty strides])
    st = _elem_strides(a)
    if is_non_overlapping_and_dense(shape, st):
        return st
    ndim = len(shape)
    perm = list(range(ndim - 1, -1, -1))

    def should_swap(d0, d1):
        s0, s1 = st[d0], st[d1]
        if s0 == 0 or s1 == 0:
            return 0
        if s0 < s1:
            return -1
        if s0 > s1:
            return 1
        return 1 if shape[d0] > shape[d1] else 0

    for i in range(1, ndim):
        dim1 = i
        for dim0 in range(i - 1, -1, -1):
            c = should_swap(perm[dim0], perm[dim1])
            if c > 0:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                dim1 = dim0
            elif c < 0:
                break
    out = [0] * ndim
    s = 1
    for d in perm:
        out[d] = s
        s *= max(shape[d], 1)
    return tuple(out)


def cast(a, dtype):
    """``a.astype(dtype)`` as TensorIterator's CPU cast of an operand to the common dtype
    (``to``: empty_like's layout), whose strides the output then follows. NumPy's copy
    ("K" order) differs for broadcast inputs: (0, 1) strides give a column-major copy."""
    if a.flags.c_contiguous:
        return a.astype(dtype, copy=False)
    if a.dtype == dtype:
        return a
    st = like_strides(a)
    r = empty_strided(a.shape, c_strides(a.shape) if st is None else st, dtype)
    np.copyto(r, a, casting="unsafe")
    return r


def cast_layout(a, c):
    """The array whose strides an operand ``a`` cast to ``c`` contributes to TensorIterator's
    order: ``a``'s own (``to`` keeps a dense layout), but a broadcast one's cast is dense
    (stride-0 dims, ambiguous in ``a``, then decide: an expanded float32 plus a transposed
    float64 is contiguous, as PyTorch)."""
    return c if c is not a and _cast_reorders(a) else a


def _cast_reorders(a):
    """Whether ``to`` of ``a`` (``like_strides``) can change TensorIterator's order: a
    broadcast (stride-0) dim of it becomes a dense one."""
    return not a.flags.c_contiguous and 0 in a.strides


def iter_promoted(arrays, params, out):
    """``iter`` of an op whose operands TensorIterator casts to the result's dtype first
    (addcmul, addcdiv; ``_binary`` casts its own: ``cast_layout``)."""
    arrays = [empty_strided(a.shape, like_strides(a), a.dtype)  # (only strides are read)
              if a.__class__ is ndarray and a.dtype != out.dtype and _cast_reorders(a)
              else a for a in arrays]
    return _conform1("iter", arrays, params, out)


def empty_strided(shape, strides, dtype):
    """An uninitialised array of ``shape`` with element ``strides`` (non-negative, dense)."""
    n = 1
    for sz, st in zip(shape, strides):
        if sz == 0:  # (its strides kept all the same, all-zero ones on a buffer of one
            n = 0 if any(strides) else 1  # element, read as real: Note [Empty strides])
            break
        n += (sz - 1) * st
    buf = EmptyMemory((n,), dtype) if n < 2 and 0 in shape else np.empty(n, dtype)
    item = buf.itemsize
    return _as_strided(buf, shape, tuple(s * item for s in strides))


def c_strides(shape):
    """PyTorch's contiguous strides (in elements)."""
    strides = []
    s = 1
    for sz in reversed(shape):
        strides.append(s)
        s *= max(sz, 1)
    return tuple(reversed(strides))


def c_order(out):
    """``out`` in PyTorch's contiguous layout, down to the strides of its size-1 dims
    (which NumPy's C-contiguous flag ignores, and ``stride()`` shows)."""
    if not out.flags.c_contiguous:
        return np.ascontiguousarray(out)
    shape = out.shape
    if 1 not in shape:
        return out
    item = out.itemsize
    strides = tuple(s * item for s in c_strides(shape))
    if out.strides == strides:
        return out
    return _as_strided(out, shape, strides)


def view_strides(shape, strides, new_shape):
    """The strides PyTorch's view gives (computeStride: a size-1 dim gets the stride of the
    chunk it sits in, where NumPy's reshape may give another), None where it cannot view."""
    new = [0] * len(new_shape)
    if not shape:
        return tuple(1 for _ in new_shape)
    view_d = len(new_shape) - 1
    base = strides[-1]
    t_numel = v_numel = 1
    for d in range(len(shape) - 1, -1, -1):
        t_numel *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and strides[d - 1] != t_numel * base):
            while view_d >= 0 and (v_numel < t_numel or new_shape[view_d] == 1):
                new[view_d] = v_numel * base
                v_numel *= new_shape[view_d]
                view_d -= 1
            if v_numel != t_numel:
                return None
            if d > 0:
                base = strides[d - 1]
                t_numel = v_numel = 1
    return tuple(new) if view_d == -1 else None


# Note [View strides]: view and reshape (when it views) give the strides of
# computeStride (TensorUtils.cpp): a size-1 dim takes the stride of the chunk it sits in,
# and a view of an empty tensor keeps its strides for the same shape, else contiguous
# ones (max(size, 1)). NumPy's reshape gives a size-1 dim another stride for a third of
# the views of non-contiguous tensors (measured: 3,701 of 12,750 random ones), and
# stride() shows it, as do the overlap checks of in-place ops.
def view_layout(d, shape, out):
    """``out`` (NumPy's reshape of ``d`` to ``shape``, a view) with PyTorch's strides
    (Note [View strides])."""
    if d.size:
        if 1 not in shape:
            return out
        key = (d.shape, d.strides, d.itemsize, shape)
        strides = _VIEW_STRIDES.get(key)
        if strides is None:
            if len(_VIEW_STRIDES) > 4096:
                _VIEW_STRIDES.clear()
            item = d.itemsize
            elems = view_strides(d.shape, tuple(s // item for s in d.strides), shape)
            strides = _VIEW_STRIDES[key] = out.strides if elems is None else tuple(
                s * item for s in elems)  # (None: not found to happen, NumPy's kept)
    elif shape == d.shape:
        return out
    else:
        strides = tuple(s * d.itemsize for s in c_strides(shape))
    return out if out.strides == strides else _as_strided(out, shape, strides)


_VIEW_STRIDES = {}  # (shape, byte strides, itemsize, new shape) -> the view's byte strides


def with_strides(out, strides):
    """``out`` laid out with element ``strides`` (None: C order); a copy only when it is
    not already."""
    if strides is None:
        return c_order(out)
    if _elem_strides(out) == strides:
        return out
    r = empty_strided(out.shape, strides, out.dtype)
    np.copyto(r, out)
    return r


def c_plain(a):
    """C-contiguous down to the strides of size-1 dims. TensorIterator's fast setup (inputs
    of one shape) ignores those strides as NumPy's flag does, but its dim order for
    broadcast or scalar operands reads them: (1, 2, 1) with strides (1, 1, 1), plus 1, keeps
    them, and matmul's fold test reads them."""
    if not a.flags.c_contiguous:
        return False
    shape = a.shape
    if not a.size:  # (NumPy's flag holds for any empty array, and a size-0 dim before a
        return False  # size-1 one changes the dim order: Note [Empty strides])
    if 1 not in shape:
        return True
    expected = a.itemsize
    for sz, st in zip(reversed(shape), reversed(a.strides)):
        if st != expected:
            return False
        expected *= sz if sz else 1
    return True


def iter_result(out, arrays):
    """An elementwise kernel's result laid out as TensorIterator's output for input
    ``arrays`` (called only when some input is not C-contiguous)."""
    if out.__class__ is not ndarray:
        if out.__class__ is ZeroGrad:  # (a fresh zero tensor: no memory to lay out)
            return out
        out = np.asarray(out)
    return with_strides(out, iter_strides(out.shape, arrays))


def _arrays(inputs, resolve=True):
    """The input arrays an op's layout reads. A tensor with a conjugate or negative bit
    is read as PyTorch's fallback for math bits resolves it, a clone (``like`` strides):
    its own (view) strides matter only to the views that keep the bit."""
    out = []
    for x in inputs:
        d = x if x.__class__ is ndarray else getattr(x, "_data", None)
        if d.__class__ is ndarray:
            if x is not d and x._meta is not None and resolve and (
                    "conj" in x._meta or "neg" in x._meta):
                st = like_strides(d)  # (an array of that layout: only its strides are read)
                d = empty_strided(d.shape, c_strides(d.shape) if st is None else st, d.dtype)
            out.append(d)
        elif x.__class__ in (list, tuple):  # (a variadic op's inputs)
            out.extend(_arrays(x, resolve))
        elif d.__class__ is ZeroGrad:  # (Note [Zero-tensor gradients] in _zero_grad.py)
            out.append(d)
    return out


def _conform1(kind, arrays, params, out):
    if out.__class__ is not ndarray:
        return out
    if kind == "contiguous":
        return c_order(out)
    if kind == "iter":
        if any(a.ndim > out.ndim for a in arrays):  # (a reduced result: mse_loss's mean)
            return c_order(out)
        return with_strides(out, iter_strides(out.shape, arrays))
    if kind == "iter_scalar":  # (a Python number operand: a 0-d one in TensorIterator)
        if out.ndim and not (1 in out.shape or any(not c_plain(a) for a in arrays)):
            return out
        return with_strides(out, iter_strides(out.shape, arrays + [0]))
    if kind == "like":
        return with_strides(out, like_strides(arrays[0]))
    if kind == "preserve":
        return with_strides(out, preserve_strides(arrays[0]))
    if kind == "view":
        return with_strides(out, _elem_strides(arrays[0]))
    if kind == "column_major":
        return with_strides(out, matrix_strides(out.shape))
    return kind(arrays, params, out)


def conform(op, inputs, params, out):
    """An op's result(s) in the layout PyTorch gives them (``op.layout``)."""
    kind = op.layout
    if kind == "contiguous":
        if out.__class__ is ndarray:
            return c_order(out)
        if out.__class__ is tuple:
            return tuple([_conform1(kind, (), params, o) for o in out])
        return out
    arrays = _arrays(inputs, kind.__class__ is not str or kind != "view")
    if out.__class__ is tuple:
        if kind.__class__ is tuple:  # (one kind per output)
            return tuple([_conform1(k, arrays, params, o) for k, o in zip(kind, out)])
        return tuple([_conform1(kind, arrays, params, o) for o in out])
    return _conform1(kind, arrays, params, out)


def preserve_strides(a):
    """``clone_preserve_strides``: the input's very strides (gaps kept) unless it overlaps
    itself (then ``clone``'s)."""
    st = _elem_strides(a)
    dims = sorted((s, sz) for sz, s in zip(a.shape, st) if sz != 1)
    reach = 0
    for s, sz in dims:
        if sz == 0:
            return st
        if s <= reach:
            return like_strides(a)
        reach += (sz - 1) * s
    return st


def matrix_strides(shape):
    """``batched_matrix_contiguous_strides(shape, f_contig=true)``: each matrix
    column-major (leading dimension max(rows, 1)), the batch C-contiguous."""
    st = list(c_strides(shape))
    if len(st) >= 2:
        st[-1] = max(shape[-2], 1)
        st[-2] = 1
    return tuple(st)


def column_major_if(i):
    """Column-major when parameter ``i`` (``left``) is true, else contiguous: linalg.solve
    and lu_solve allocate ``batched_matrix_contiguous_strides(shape, left)`` (a vector
    solution gets the strides of its shape too: (2, 3) gives (1, 2))."""
    def rule(arrays, params, out):
        return with_strides(out, matrix_strides(out.shape) if params[i] else None)
    return rule


def lstsq_solution(arrays, params, out):
    """linalg_lstsq: LAPACK writes the solution over a (*, max(m, n), nrhs) column-major
    copy of B (a C-contiguous (*, max(m, n)) one for a vector B, ``params[0]``) and the
    result is its first n rows."""
    m, n = arrays[0].shape[-2:]
    if params[0]:
        return with_strides(out, c_strides(out.shape[:-1] + (max(m, n),)))
    return with_strides(out, matrix_strides(out.shape[:-2] + (max(m, n), out.shape[-1])))


def addr(arrays, params, out):
    """addr's TensorIterator: operands self (expanded), vec1 viewed as a column (strides
    (s, s)), vec2."""
    s, a, b = arrays
    st = _elem_strides(a)[0]
    return with_strides(out, iter_strides_of(out.shape, [
        (s.shape, _elem_strides(s)), ((a.shape[0], 1), (st, st)), (b.shape, _elem_strides(b))]))


def condition_first(arrays, params, out):
    """where(condition, self, other): TensorIterator's operands are (condition, self,
    other)."""
    return with_strides(out, iter_strides(out.shape, [params[0]] + list(arrays)))


def reversed_operands(arrays, params, out):
    """rsub(self, other) is sub(other, self): its iterator's first operand is other."""
    return with_strides(out, iter_strides(out.shape, arrays[::-1]))


def _strides_like_channels_last(shape, strides):
    """c10's is_channels_last_strides_2d_s4 / _3d_s5: the strides order (C fastest, then
    the spatial dims, N slowest) that makes ``suggest_memory_format`` channels-last."""
    order = {4: (1, 3, 2, 0), 5: (1, 4, 3, 2, 0)}.get(len(shape))
    if order is None or strides[1] == 0:
        return False
    lo = 0
    for d in order:
        if shape[d] == 0 or strides[d] < lo:
            return False
        if d == 0 and lo == strides[1]:
            return False
        lo = strides[d]
        if shape[d] > 1:
            lo *= shape[d]
    return True


def _channels_last_strides_nd(shape):
    """get_channels_last_strides_2d / _3d."""
    strides = [0] * len(shape)
    s = 1
    for d in (1,) + tuple(range(len(shape) - 1, 1, -1)) + (0,):
        strides[d] = s
        s *= shape[d]
    return tuple(strides)


def named_format(arrays, params, out):
    """clone / to / contiguous with a memory_format other than preserve_format: the strides
    that format names (the op's last param), with PyTorch's rank error."""
    from .._memory_format import strides
    return with_strides(out, strides(params[-1], out.shape))


def suggested_format(arrays, params, out):
    """NN kernels that allocate ``at::empty(..., input.suggest_memory_format())``
    (padding, pixel shuffle, upsampling, adaptive max pooling, group_norm): a
    channels-last result for an input strided like channels-last, else contiguous."""
    a = arrays[0]
    if out.ndim == a.ndim and out.ndim in (4, 5) and \
            _strides_like_channels_last(a.shape, _elem_strides(a)):
        return with_strides(out, _channels_last_strides_nd(out.shape))
    return c_order(out)


def alias_if_empty(rule):
    """``rule``, but an empty input's result laid out as the input: aten returns
    ``self.alias()`` for one (channel_shuffle), which keeps its strides."""
    def layout_rule(arrays, params, out):
        a = arrays[0]
        if not a.size and out.shape == a.shape:
            return with_strides(out, _elem_strides(a))
        return rule(arrays, params, out)
    return layout_rule


def conv_format(arrays, params, out):
    """convolution's result: channels-last when its input or its weight is strided like it
    (mkldnn's and thnn's ``*_use_channels_last``); a 3-d convolution is so only where
    use_mkldnn picks mkldnn (slow_conv3d and slow_conv_transpose3d have no channels-last
    kernel: float64, or one small batch of one group). The Empty backend's (an empty input:
    Note in _empty_convolution) is ``input * weight_view[0]`` (the input's layout) viewed
    as the output's size: that layout where the sizes are the same, else contiguous."""
    nd = out.ndim
    x = arrays[0]
    if not x.size:
        if x.shape == out.shape and x.shape[1]:
            return with_strides(out, like_strides(x))
        return c_order(out)
    if nd == 5:
        from ..nn.functional import _uses_mkldnn
        if not _uses_mkldnn(x, arrays[1], x.shape, params[0], params[2], params[5]):
            return c_order(out)
    if nd == 4 or nd == 5:
        for a in arrays[:2]:
            if a.ndim == nd and _strides_like_channels_last(a.shape, _elem_strides(a)):
                return with_strides(out, _channels_last_strides_nd(out.shape))
    return c_order(out)


def roll_layout(arrays, params, out):
    """aten's roll along dims is a cat of two narrows of the input (its suggested memory
    format: channels-last stays so); with no dims it rolls a flattened copy (contiguous).
    An empty input along dims is cloned (preserve_format)."""
    if params[1]:
        if not arrays[0].size:
            return with_strides(out, like_strides(arrays[0]))
        return suggested_format(arrays, params, out)
    return c_order(out)


def rot90_layout(arrays, params, out):
    """rot90 is flip (empty_like's layout) then transpose_ for odd k; k = 0 is a contiguous
    clone (aten's rot90)."""
    k, dims = params
    a = arrays[0]
    if k % 4 == 0 or out.ndim < 2:
        return c_order(out)
    st = like_strides(a)
    st = list(c_strides(a.shape) if st is None else st)
    if k % 2:
        d0, d1 = dims[0] % a.ndim, dims[1] % a.ndim
        st[d0], st[d1] = st[d1], st[d0]
    return with_strides(out, tuple(st))


def operand(i):
    """TensorIterator's layout from input ``i`` alone (a composite's first op reads it:
    binary_cross_entropy_with_logits' ``(1 - target)``)."""
    def rule(arrays, params, out):
        if arrays[i].ndim > out.ndim:
            return c_order(out)
        return with_strides(out, iter_strides(out.shape, [arrays[i], 1]))
    return rule


# ---- FFTs: aten/src/ATen/native/mkl/SpectralOps.cpp (PyTorch's x86 builds use MKL) --------
def _partition(dims, keep):
    """libstdc++'s std::partition on random-access iterators (not stable: it swaps the
    first misplaced element from the left with the last from the right)."""
    a = list(dims)
    first, last = 0, len(a)
    while True:
        while first != last and keep(a[first]):
            first += 1
        if first == last:
            return a, first
        last -= 1
        while first != last and not keep(a[last]):
            last -= 1
        if first == last:
            return a, first
        a[first], a[last] = a[last], a[first]
        first += 1


def _by_stride_desc(dims, strides):
    """std::sort by decreasing stride (an insertion sort, stable, at these lengths)."""
    return sorted(dims, key=lambda d: -strides[d])


def _exec_fft_strides(shape, strides, out_sizes, dims):
    """``_exec_fft``'s result strides: batch dims first, in decreasing input-stride order,
    collapsed to one; the signal dims after them in ``dims``' order; the batched output
    allocated contiguous, then viewed back in the input's dim order."""
    tr = set(dims)
    perm, nb = _partition(range(len(shape)), lambda d: d not in tr)
    perm = _by_stride_desc(perm[:nb], strides) + list(dims)
    batch = 1
    for d in perm[:nb]:
        batch *= shape[d]
    batched = c_strides([batch] + [out_sizes[d] for d in dims])
    out = [0] * len(shape)
    n = 1
    for d in reversed(perm[:nb]):
        out[d] = n * batched[0]
        n *= out_sizes[d]
    for i, d in enumerate(dims):
        out[d] = batched[1 + i]
    return tuple(out)


def fft_c2c(arrays, params, out):
    """_fft_c2c_mkl: the transformed dims sorted by decreasing input stride; no dims is
    a clone."""
    a, dims = arrays[0], params[0]
    if not dims:
        return with_strides(out, like_strides(a))
    st = _elem_strides(a)
    return with_strides(out, _exec_fft_strides(a.shape, st, a.shape, _by_stride_desc(dims, st)))


def fft_r2c(arrays, params, out):
    """_fft_r2c_mkl: as c2c, the last (halved) dim kept last."""
    a, dims = arrays[0], params[0]
    st = _elem_strides(a)
    order = _by_stride_desc(dims[:-1], st) + [dims[-1]]
    return with_strides(out, _exec_fft_strides(a.shape, st, out.shape, order))


def fft_c2r(arrays, params, out):
    """_fft_c2r_mkl: a c2c over all dims but the last (its result's layout), then a 1-d
    c2r over the last."""
    a, dims = arrays[0], params[0]
    shape, st = a.shape, _elem_strides(a)
    if len(dims) > 1:
        st = _exec_fft_strides(shape, st, shape, _by_stride_desc(dims[:-1], st))
    return with_strides(out, _exec_fft_strides(shape, st, out.shape, dims[-1:]))
