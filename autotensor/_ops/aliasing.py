"""In-place elementwise ops whose inputs alias the written tensor (Note [Aliased inputs]).

Note [Aliased inputs]
~~~~~~~~~~~~~~~~~~~~~
TensorIterator refuses an in-place op whose input partially overlaps the output only when it
can tell: both non-overlapping and dense (inplace.check_input_overlap). An input that is not
dense, such as a column ``x.select(-1, 0)`` of the x written by ``x.add_(...)``, is "too
hard" and passes, and aten's loop then reads what it has already written: ``x.add_(x[:, 0])``
of a 2 x 2 x adds the new x[0, 0] to x[1, 0]. NumPy computes such a ufunc on a copy of the
input, so the result is emulated here by running aten's loop over a copy of the memory:
- the order: TensorIterator's (dims sorted by the output's strides, the smallest innermost;
  adjacent dims coalesced where every operand's strides allow), outer dims counted from the
  innermost;
- the inner loop: vectorized (``vectorized_loop``) when every operand is contiguous there, or
  all but one input whose stride is 0 ("scalar", read once per inner loop): chunks of two
  256-bit vectors (this build's AVX2 kernels), all their inputs read before both are stored,
  the rest of the row one element at a time (reading the scalar operand anew each time);
  otherwise ``basic_loop``, one element at a time.
The kernel computes one chunk or element as for whole tensors. Emulated only where a result
can differ (the memory of an input meets the output's), for real dtypes with every operand of
the output's dtype (otherwise TensorIterator computes on cast copies) and up to
``_MAX_ELEMENTS`` elements (aten's grain size: above it threads split the loop).
"""
from .._backend import np

_VECTOR_BYTES = 32
_MAX_ELEMENTS = 32768


def may_alias(out, arrays):
    """Whether an input (array) other than ``out`` itself may see ``out``'s writes: cheap
    enough for an in-place op's common path (a view's ``base`` first)."""
    for a in arrays:
        if a.__class__ is np.ndarray and a is not out and (
                a.base is not None or out.base is not None) and np.may_share_memory(a, out):
            return True
    return False


def aliased_value(kernel, out, inputs, params, value):
    """``kernel(*inputs, *params)`` as aten's loop writing into ``out`` computes it when an
    input aliases ``out`` (Note [Aliased inputs]); ``value`` (computed without aliasing)
    where that is not emulated or TensorIterator refuses the overlap (its error comes
    later). ``inputs``: arrays (self first) or numbers."""
    from ..autograd.inplace import _partial_overlap
    arrays = [a for a in inputs if a.__class__ is np.ndarray]
    dt = out.dtype
    if dt.kind not in "fiub" or out.size == 0 or out.size > _MAX_ELEMENTS or \
            any(a.dtype != dt for a in arrays):
        return value
    try:
        shapes = np.broadcast_shapes(out.shape, *(a.shape for a in arrays))
    except ValueError:
        return value
    if shapes != out.shape or _overlaps_itself(out) or any(
            a is not out and _partial_overlap(out, a) for a in arrays):
        return value
    mine = on_shared_copy((out, *arrays))
    o = mine[0]
    views = iter(mine[1:])
    ins = [np.broadcast_to(next(views), out.shape) if a.__class__ is np.ndarray else a
           for a in inputs]
    _run_loop(kernel, o, ins, params, dt)
    return o.copy()


def _overlaps_itself(a):
    return any(st == 0 and n > 1 for n, st in zip(a.shape, a.strides))


def on_shared_copy(arrays):
    """The arrays remade on a copy of the memory they span together, holding their values:
    how they overlap is kept, a write through one is seen by the others, the originals are
    untouched."""
    lo, hi = _extent(arrays[0])
    for a in arrays[1:]:
        a_lo, a_hi = _extent(a)
        lo, hi = min(lo, a_lo), max(hi, a_hi)
    buf = np.empty(hi - lo, np.uint8)
    mine = [np.ndarray(a.shape, a.dtype, buf, a.__array_interface__["data"][0] - lo,
                       a.strides) for a in arrays]
    for m, a in zip(mine, arrays):
        m[...] = a
    return mine


def _extent(a):
    start = a.__array_interface__["data"][0]
    lo = start + sum(st * (n - 1) for n, st in zip(a.shape, a.strides) if st < 0)
    hi = start + sum(st * (n - 1) for n, st in zip(a.shape, a.strides) if st > 0) + \
        a.itemsize
    return lo, hi


def _iteration(o, ins):
    """TensorIterator's dims, innermost first: (size, [strides of out and each array
    input]) after reordering and coalescing."""
    arrays = [o] + [a for a in ins if a.__class__ is np.ndarray]
    dims = [d for d in range(o.ndim) if o.shape[d] != 1]
    # (reorder_dimensions: the output's strides decide; a tie falls to the inputs', and
    # else the later dim stays inner)
    dims.sort(key=lambda d: tuple(abs(a.strides[d]) for a in arrays) + (-d,))
    out = []
    for d in dims:
        size, strides = o.shape[d], [a.strides[d] for a in arrays]
        if out:
            n, prev = out[-1]
            if all(st == p * n for st, p in zip(strides, prev)):
                out[-1] = (n * size, prev)
                continue
        out.append((size, strides))
    return out


def _run_loop(kernel, o, ins, params, dt):
    dims = _iteration(o, ins)
    arrays = [o] + [a for a in ins if a.__class__ is np.ndarray]
    base = [a.__array_interface__["data"][0] for a in arrays]
    buf = o.base if o.base is not None else o
    origin = buf.__array_interface__["data"][0]
    if not dims:
        dims = [(1, [0] * len(arrays))]
    n, inner = dims[0]
    outer = dims[1:]
    item = dt.itemsize
    vec = _VECTOR_BYTES // item
    contiguous = all(st == item for st in inner)
    scalar = None
    if not contiguous and inner[0] == item:
        zeros = [i for i, st in enumerate(inner[1:], 1) if st == 0]
        if len(zeros) == 1 and all(st == item for i, st in enumerate(inner) if i != zeros[0]):
            scalar = zeros[0]
    counts = [size for size, _ in outer]
    index = [0] * len(outer)
    total = 1
    for c in counts:
        total *= c

    def row(k, off, count, stride):
        # a 1-d view of operand k from byte offset off (relative to the buffer)
        return np.ndarray((count,), dt, buf, off, (stride,))

    for _ in range(total):
        offs = [b - origin + sum(i * st[k] for i, (_, st) in zip(index, outer))
                for k, b in enumerate(base)]
        if contiguous or scalar is not None:
            i = 0
            held = None if scalar is None else row(scalar, offs[scalar], 1, item)[0].copy()
            while i <= n - 2 * vec:
                args = _args(ins, arrays, offs, inner, i, 2 * vec, row, scalar, held)
                value = np.asarray(kernel(*args, *params))
                row(0, offs[0] + i * item, 2 * vec, item)[...] = value
                i += 2 * vec
            start = i
        else:
            start = 0
        for i in range(start, n):
            args = _args(ins, arrays, offs, inner, i, 1, row, None, None)
            row(0, offs[0] + i * inner[0], 1, inner[0])[...] = np.asarray(
                kernel(*args, *params)).reshape(-1)[:1]
        for j in range(len(index)):  # (the next outer position, innermost first)
            index[j] += 1
            if index[j] < counts[j]:
                break
            index[j] = 0


def _args(ins, arrays, offs, inner, i, count, row, scalar, held):
    out = []
    k = 0
    for a in ins:
        if a.__class__ is not np.ndarray:
            out.append(a)
            continue
        k += 1
        if k == scalar:
            out.append(np.broadcast_to(held, (count,)))
        else:
            out.append(row(k, offs[k] + i * inner[k], count, inner[k]).copy())
    return out
